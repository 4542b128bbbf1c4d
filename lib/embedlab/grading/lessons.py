"""Which lessons have an exercise, their questions, and their answer keys.

The questions of lesson NN live in ``embedlab.grading.questions.lNN`` (LESSON and
QUESTIONS); the expected values of its non-function questions in
``embedlab/grading/answers/NN-slug.key``, generated from the solution notebook by
``embedlab.grading.generate`` (``make exercises``). A key is stored encoded so the
expected values are not readable as plain text: that stops accidental peeking
only, since the solutions folder is public. The grader's sandbox hides this
folder from submissions.
"""

from __future__ import annotations

import base64
import functools
import importlib
import json
import zlib
from pathlib import Path

from embedlab.grading import kinds
from embedlab.grading.kinds import Question

ANSWERS_DIR = Path(__file__).resolve().parent / "answers"


def encode_key(values: dict) -> str:
    raw = json.dumps(values, sort_keys=True).encode()
    return base64.b64encode(zlib.compress(raw, 9)).decode() + "\n"


def decode_key(text: str) -> dict:
    return json.loads(zlib.decompress(base64.b64decode(text.strip())).decode())


def key_path(lesson: str) -> Path:
    return ANSWERS_DIR / f"{lesson}.key"


def load_key(lesson: str) -> dict:
    """The lesson's expected values by question name; {} where there is no key (or it is hidden)."""
    path = key_path(lesson)
    if not path.exists():
        return {}
    return decode_key(path.read_text())


def known_lessons() -> list[str]:
    """Lessons that have an exercise: one answer key each (generated from solutions/)."""
    return sorted(p.stem for p in ANSWERS_DIR.glob("*.key"))


def questions_for(lesson: str, params: dict | None = None) -> list[Question]:
    """The questions of one lesson, from ``embedlab.grading.questions.lNN`` (NN = the lesson number).

    With `params` (a class variant's parameters, embedlab.grading.variants), a
    parameterised lesson's questions are made for that variant (their hints know
    its parameters); without, they are the book's (variant 0).
    """
    number = lesson.split("-", 1)[0]
    if not (len(number) == 2 and number.isdigit()):
        raise ValueError(f"lesson must look like 'NN-slug', got lesson={lesson!r}")
    try:
        module = importlib.import_module(f"embedlab.grading.questions.l{number}")
    except ModuleNotFoundError:
        raise ValueError(f"no questions for lesson={lesson!r}") from None
    if getattr(module, "LESSON", None) != lesson:
        raise ValueError(f"no questions for lesson={lesson!r} (lesson {number} is {getattr(module, 'LESSON', None)!r})")
    found = list(module.questions(params)) if params is not None and callable(getattr(module, "questions", None)) \
        else list(module.QUESTIONS)
    reread = getattr(module, "REREAD", {})
    for q in found:  # each knows its lesson (the code its exercise gives is not the learner's own) and its section
        q.lesson = lesson
        q.reread_lesson, q.reread = _reread_entry(lesson, reread.get(q.name) if isinstance(reread, dict) else None)
    fixed = getattr(getattr(module, "SPACE", None), "fixed", None) or {}
    for q in found:  # a value no input changes, which the course's solution computes: a typed one is read as typed
        if q.name in fixed and q.kind in ("integer", "real", "array"):
            q.fixed = _solution_computes(lesson, q.name)
    return found


def _solution_computes(lesson: str, name: str) -> bool:
    """Does the course's solution compute the answer `name` (its cell is not typed, kinds.typed_cell)? False
    where the solution cannot be read (nothing then is refused for being typed)."""
    from embedlab.grading import code
    from embedlab.grading.kinds import typed_cell

    try:
        source = code.solution_source(lesson, name)
    except Exception:  # noqa: BLE001 - a grader without the course's notebooks
        return False
    if not source:
        return False
    own = source.split("# BEGIN SOLUTION", 1)[-1].split("# END SOLUTION", 1)[0]  # its own lines, not the given ones
    return not typed_cell(own, name)


@functools.lru_cache(maxsize=None)
def sections_taught(lesson: str) -> dict[str, tuple[str, str]]:
    """{what a section teaches: (lesson, its heading)} of every section of `lesson`'s
    own notebook its questions practise (REREAD): the heading's words without its
    number, up to its colon, lowercased ("4. Attention over the context: work without
    parameters" teaches "attention over the context"); three words or more, so that a
    hint's words name it only where they name that subject."""
    import re

    if not lesson:
        return {}
    number = lesson.split("-", 1)[0]
    module = importlib.import_module(f"embedlab.grading.questions.l{number}")
    reread = getattr(module, "REREAD", {})
    out = {}
    for entry in dict(reread).values() if isinstance(reread, dict) else ():
        where, heading = _reread_entry(lesson, entry)
        if where != lesson or not heading:
            continue
        subject = re.sub(r"^\d+\.\s*", "", heading).split(":", 1)[0].strip().lower()
        if len(subject.split()) >= 3:
            out.setdefault(subject, (where, heading))
    return out


kinds.SECTIONS_TAUGHT[0] = sections_taught  # the hint's pointer reads it there (kinds is a layer below this one)


def _reread_entry(lesson: str, entry) -> tuple[str, str]:
    """(lesson, section) of a REREAD entry: a section of the question's own lesson (a string), or of another
    lesson, `("NN-slug", section)`, where the course teaches what the question practises (exercise 06's question
    8 counts a token's active parameters, counted matrix by matrix in lesson 04's section 8)."""
    if isinstance(entry, tuple) and len(entry) == 2 and all(isinstance(x, str) for x in entry):
        return entry
    return (lesson, entry) if isinstance(entry, str) and entry else (lesson, "")


def reread_where(lesson: str) -> dict[str, tuple[str, str]]:
    """{question: (the lesson, the section of its notebook to reread)}: each question module's REREAD, the `## `
    heading of notebooks/NN-slug.ipynb the question practises, as written there; the lesson is the question's own
    unless its entry names another ({} when the module declares none)."""
    questions_for(lesson)  # a lesson that is not one: ValueError naming it
    module = importlib.import_module(f"embedlab.grading.questions.l{lesson.split('-', 1)[0]}")
    return {name: _reread_entry(lesson, entry) for name, entry in dict(getattr(module, "REREAD", {})).items()}


def reread_for(lesson: str) -> dict[str, str]:
    """{question: the section to reread}: the `## ` heading `reread_where` names, in whichever lesson's notebook
    it is."""
    return {name: section for name, (_, section) in reread_where(lesson).items()}
