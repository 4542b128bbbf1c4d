"""Every hint template of every question, rendered and read before any learner sees it.

For every lesson, on the book's parameters, on two class variants and on the second looks
(embedlab.grading.variants), each question is built for those parameters and every words its hints can
say are rendered: its own hints' messages, its invariants, its factor words, every words the named-parts
search can give for one change (embedlab.grading.parts.templates: a part left out, counted twice,
replaced, a scale, the whole off by an input, a term alone), and the general words of
embedlab.grading.diagnose for each ratio they name. Each is read by embedlab.grading.text.hint_problems:
a placeholder left in, an empty slot, a doubled or missing word, a word where a size belongs ("exactly
rows too many", "one number too many for each of the width"), a unit on a quantity
without one (bytes or KiB on a share), or a clause that presumes what the question's own
text does not give (text.PRESUMED: "from your table's own sizes" where the learner has
no table, "as the question's formula does" where the text states no formula, "what the
part counts … what the whole is" on a ratio of two rates) fails the test. What a
question's text gives is read here from the exercise notebook itself (`text_grants`),
not from the grading code.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from pathlib import Path

import nbformat

import numpy as np
import pytest

from embedlab.grading import diagnose, explain, parts
from embedlab.grading.cases import rng_for
from embedlab.grading.kinds import Function
from embedlab.grading.lessons import known_lessons, load_key, questions_for
from embedlab.grading.text import hint_problems
from embedlab.grading.variants import _second_look_variants, parameters_of, space_for

LESSONS = known_lessons()
EXERCISES = Path(__file__).resolve().parents[1] / "exercises"
# what a question's text must show for a clause of text.PRESUMED to apply to it
TEXT_GIVES = {
    # a table the learner built: "How many parameters does your table have?"
    "own table": re.compile(r"\byour table\b"),
    # a part of a whole: "What fraction of …", "what share of …"
    "share": re.compile(r"\b(?:fraction|share)\b"),
    # a formula written out: symbols joined by · or ×, or by an operator between
    # spaces (`4·context·d`, `n_tok − 1`)
    "formula": re.compile(r"`[^`]*\w\s*[·×]\s*\w[^`]*`"
                          r"|`[^`]*\w\s+(?:\*|/|//|\+|−|-)\s+\w[^`]*`"),
    # keys and values: a cache or attention (an attention layer's k and v, a KV cache)
    "keys and values": re.compile(r"\b(?:keys|cache|attention)\b", re.I),
}


@functools.lru_cache(maxsize=None)
def question_texts(lesson: str) -> dict:
    """{question name: the markdown of its question} from the exercise notebook: the
    markdown cells since the previous check, up to the cell that checks it (its title
    line left out)."""
    out, since = {}, []
    for cell in nbformat.read(EXERCISES / f"{lesson}.ipynb", as_version=4).cells:
        if cell.cell_type == "markdown":
            since.append(cell.source)
            continue
        for name in re.findall(r"ex\.check\(\s*[\"'](\w+)[\"']", cell.source):
            text = "\n".join(since)
            lines = [line for line in text.splitlines() if not line.startswith("#")]
            out[name] = "\n".join(lines)
            since = []
    return out


def text_grants(lesson: str, name: str) -> frozenset:
    """What the question's own text gives a hint to point back to (TEXT_GIVES), read
    from the exercise."""
    text = question_texts(lesson).get(name, "")
    return frozenset(k for k, pattern in TEXT_GIVES.items() if pattern.search(text))


def parameter_sets(lesson: str) -> list:
    """The book's parameters, two class variants and the second looks ([None] for a lesson without a space)."""
    if space_for(lesson) is None:
        return [None]
    out = [parameters_of(lesson, 0)]
    for k in (1, 2):
        try:
            out.append(parameters_of(lesson, k, secret=b"rendering"))
        except Exception:  # noqa: BLE001 - a space that cannot draw: the book's and the looks' only
            pass
    return out + list(_second_look_variants(lesson))


def _answers_of(question, args=None, want=None):
    """The answer's parts as the search reads them (explain.searched_answer: the question's inputs, its
    model's sizes and scales added), for one call's arguments (a function's result)."""
    if args is not None:
        question = dataclasses.replace(question, case=tuple(args))
    try:
        answer = explain.searched_answer(question, want if isinstance(want, (int, float)) else 1.0)
    except Exception:  # noqa: BLE001 - parts that need other arguments
        return []
    if answer is None:
        return []
    return answer if isinstance(answer, (list, tuple)) else [answer]


def rendered(question, key=None) -> list[str]:
    """Every words `question` can say, rendered with its own values."""
    out = []
    inner = question.result if isinstance(question, Function) and question.result is not None else question
    out += [h.message for h in list(question.hints) + list(inner.hints if inner is not question else ())]
    out += [i.says for i in getattr(question, "invariants", ())]
    out += [w for w in {**question.factor_hints, **inner.factor_hints}.values() if isinstance(w, str)]
    calls = [None]
    if isinstance(question, Function) and question.cases is not None:
        calls = [tuple(c) for c in question.cases(rng_for("rendering", question.name))[:3]]
    for args in calls:
        for answer in _answers_of(inner, args, key):
            out += parts.templates(answer)
    if isinstance(key, (int, float)) and not isinstance(key, bool) and math.isfinite(key) and key:
        for factor, _ in diagnose.FACTORS:
            out.append(diagnose.number_hint(factor * key, key, question.factors, question.factor_hints, None,
                                            question.unit_of()))
    return [w for w in out if isinstance(w, str)]


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_hint_template_renders_whole(lesson):
    key = load_key(lesson)
    bad = []
    for params in parameter_sets(lesson):
        for q in questions_for(lesson, params):
            unit = (q.result if isinstance(q, Function) and q.result is not None else q).unit_of()
            grants = text_grants(lesson, q.name)
            for words in rendered(q, key.get(q.name) if params is None or params == parameters_of(lesson, 0) else None):
                for problem in hint_problems(words, unit, diagnose.UNITLESS, grants):
                    bad.append((q.name, problem, words[:160]))
    assert not list(dict.fromkeys(bad)), "\n".join(map(str, dict.fromkeys(bad)))


def test_the_reader_finds_the_two_garbled_hints_of_issue_46():
    """The two hints a blind corpus saw garbled, as the templates wrote them, and their kinds."""
    assert hint_problems("your count has exactly rows too many: a term of rows numbers counted that the model "
                         "does not have (a bias where there is no bias? a norm's shift?)")
    assert hint_problems("your count has no the tied table again: V·d, under its second name")
    assert hint_problems("in KiB (2**10 bytes) where bytes are asked", "share", diagnose.UNITLESS)
    assert hint_problems("that is {size} too many")
    assert hint_problems("your count has no  LayerNorm shifts")
    assert hint_problems("counted twice twice")
    assert not hint_problems("your count has exactly 2 · d_ff too many: a term of 2 · d_ff numbers counted")
    assert not hint_problems("in bits (log base 2) where nats (the natural log) are asked", "divergence",
                             diagnose.UNITLESS)
    assert not hint_problems("the entry listed twice is the token table (V × d), the tied head's: not the "
                             "position table", "parameters", diagnose.UNITLESS)


def test_a_not_attempted_line_never_breaks_inside_the_marker_it_names():
    """A ⏳ line names where to write the answer, `# YOUR CODE HERE`; folded to the
    check's width it kept breaking inside the marker ("write it at #⏎ YOUR CODE HERE",
    newcomer of session 9). For every length of name, the marker is whole on one line,
    and every line fits. Seen red with fold() as it was (names of 2 to 8 and 34 to 39
    characters split it)."""
    from embedlab.grading.code import MARKER
    from embedlab.grading.exercise import LINE_WIDTH, fold
    from embedlab.grading.kinds import Question

    prompt = Question("x").prompt
    assert MARKER in prompt
    for size in range(1, 40):
        name = "n" * size
        line = (f"⏳ {name} (1 point): not attempted yet — `{name}` is not defined yet: "
                f"{prompt}")
        folded = fold(line)
        assert MARKER in folded, folded
        assert folded.replace("\n   ", " ") == line, folded
        assert max(len(part) for part in folded.splitlines()) <= LINE_WIDTH, folded
