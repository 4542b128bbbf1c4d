"""The corpus of wrong answers (tests/hint_corpus) is well formed: every entry names a real
question of a real exercise, defines that name, states its mistake and the words a hint would
use, and every question of every exercise has wrong answers in the main part.

Fast: nothing is executed here. That each entry is really wrong is proved by
`cd tests && python -m hint_corpus.check_wrong` (a few minutes: it runs the solutions).
"""

import ast
import re
from pathlib import Path

import pytest

from hint_corpus import Wrong, heldout, learners

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted(p.stem for p in (ROOT / "exercises").glob("*.ipynb"))
# the exercises the corpus was written for (a newer exercise joins when its entries are written)
COVERED = sorted({e.lesson for e in learners.ENTRIES})
PARTS = {"learners": learners.ENTRIES, "heldout": heldout.ENTRIES}


def questions(lesson):
    text = (ROOT / "exercises" / f"{lesson}.ipynb").read_text(encoding="utf-8")
    return set(re.findall(r'ex\.check\(\\"(\w+)\\"\)', text)) - written(lesson)


def written(lesson):
    """The questions the instructor marks by hand (kinds.Written): no wrong value to hint at."""
    from embedlab.grading.lessons import questions_for

    return {q.name for q in questions_for(lesson) if q.kind == "written"}


def defined_names(source):
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def problems(entry):
    """What is wrong with one entry's form (an empty list: nothing)."""
    out = []
    if not isinstance(entry, Wrong):
        return [f"not a Wrong: {entry!r}"]
    if entry.lesson not in LESSONS:
        return [f"no exercise {entry.lesson}"]
    if entry.name not in questions(entry.lesson):
        out.append(f"{entry.lesson} has no question {entry.name}")
    try:
        if entry.name not in defined_names(entry.source):
            out.append(f"the source does not define {entry.name}")
    except SyntaxError as exc:
        out.append(f"the source does not parse: {exc}")
    if not entry.mistake.strip().endswith("."):
        out.append("the mistake is not a sentence")
    for field in ("words", "wrong_words"):
        value = getattr(entry, field)
        if not isinstance(value, tuple) or not all(isinstance(w, str) and len(w.strip()) >= 2 for w in value):
            out.append(f"{field} must be a tuple of words of 2 characters or more, got {value!r}")
    if not 1 <= len(entry.words) <= 4:
        out.append(f"words must hold 1 to 4 alternatives, got {len(entry.words)}")
    if {w.lower() for w in entry.words} & {w.lower() for w in entry.wrong_words}:
        out.append("a word is both right and wrong")
    return out


@pytest.mark.parametrize("part", PARTS)
def test_every_entry_is_well_formed(part):
    bad = {i: p for i, e in enumerate(PARTS[part]) if (p := problems(e))}
    assert not bad, f"{part}: {bad}"


@pytest.mark.parametrize("part", PARTS)
def test_no_entry_is_repeated(part):
    keys = [(e.lesson, e.name, e.source) for e in PARTS[part]]
    assert len(keys) == len(set(keys))


def test_the_parts_do_not_share_an_answer():
    shared = {(e.lesson, e.name, e.source) for e in learners.ENTRIES} & \
             {(e.lesson, e.name, e.source) for e in heldout.ENTRIES}
    assert not shared


def test_sizes():
    assert len(learners.ENTRIES) >= 200
    assert len(heldout.ENTRIES) >= 60


def test_the_first_eleven_exercises_are_covered():
    assert [lesson for lesson in LESSONS if lesson[:2] <= "11"] == [lesson for lesson in COVERED if lesson[:2] <= "11"]


@pytest.mark.parametrize("lesson", COVERED)
def test_every_question_has_wrong_answers(lesson):
    covered = {e.name for e in learners.ENTRIES if e.lesson == lesson}
    assert questions(lesson) - covered == set()
    assert sum(e.lesson == lesson for e in learners.ENTRIES) >= 6


def test_heldout_says_it_was_opened_and_its_blind_figure():
    """heldout.py was measured blind, then opened for training: its header says so, with the figure."""
    head = (ROOT / "tests" / "hint_corpus" / "heldout.py").read_text(encoding="utf-8").splitlines()[:3]
    assert head[0].startswith("# OPENED (was held out)") and "50 % specific" in " ".join(head)


def test_a_malformed_entry_is_caught():
    assert problems(Wrong("01-toy-table", "E", "F = 1", "No E.", ("row",)))
    assert problems(Wrong("01-toy-table", "nope", "nope = 1", "No such question.", ("row",)))
    assert problems(Wrong("01-toy-table", "E", "E = 1", "One-letter word.", ("e",)))
    assert not problems(Wrong("01-toy-table", "E", "E = 1", "Fine.", ("row",)))
