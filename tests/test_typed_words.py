"""The learner's guides (README's "Start here", book/how-to-use.md) say "never type a value" and name its one
exception: a word the question offers whose answer no parameter changes may be typed (exercise 09's "no",
exercise 02's "lookup", as their worked solutions type them), while a word that depends on the parameters
(exercise 05's model that ties) is computed like a number. Both halves are attacked here through the notebook's
own check, as a learner's answer cell would be judged (newcomer AA, defect 9b)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from embedlab.grading.exercise import Exercise
from embedlab.grading.kinds import TYPED
from hint_corpus import Wrong, check_wrong

ROOT = Path(__file__).resolve().parents[1]


def verdict(lesson, name, source):
    """The check's verdict on `source` written in the question's answer cell (after the exercise's given lines)."""
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(Wrong(lesson, name, source, "", (), ()))
    prelude = check_wrong.exercise_prelude(lesson, name)
    ns["_ih"] = ["", (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source]
    return Exercise(lesson).verdict(name, ns)


def test_a_fixed_word_typed_is_right():
    for lesson, name, word in (("09-what-rows-learn", "rotation_changes_cosines", "no"),
                               ("02-lookup-vs-matmul", "keeps_sign", "lookup")):
        got = verdict(lesson, name, f"{name} = {word!r}\n")
        assert got.status == "correct", (lesson, name, got)


def test_a_word_that_depends_on_the_parameters_typed_is_refused_as_typed():
    # the book's answer, typed: right on the book's parameters, refused because other parameters change it
    book = verdict("05-weight-tying", "ties", "ties = [c for c in candidates if load_config(c)"
                                               "['tie_word_embeddings']][0]\n")
    assert book.status == "correct", book
    typed = verdict("05-weight-tying", "ties", "ties = 'llama-3.2-1b'\n")
    assert typed.status == "incorrect" and typed.detail.startswith(TYPED), typed


def test_the_guides_state_the_exception():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    start = readme[readme.index("## Start here"):readme.index("## Lessons")]
    assert ('One exception: where a question offers words to choose from (`"yes"` or `"no"`) and no '
            'parameter changes the answer, type the word.') in start, "README's Start here no longer states the exception"
    guide = " ".join((ROOT / "book" / "how-to-use.md").read_text(encoding="utf-8").split())
    assert "whose answer no parameter changes takes the word typed" in guide, "how-to-use no longer states it"
    assert "A word that depends on your parameters" in guide
