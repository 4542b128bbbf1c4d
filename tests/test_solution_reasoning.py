"""A solution explains its answers: before every answer cell, a reasoning cell (markdown, tagged
solution-only, so the exercise never shows it) gives the idea, the formula, the section of the
lesson that taught it and the usual trap.

The section is the one the question module's REREAD names (the heading the feedback pages send a
learner back to, tests/test_feedback.py), linked as the lessons link a lesson. The generator's
standard line (points, how judged) belongs to the question, not to its reasoning
(tests/test_make_exercises.py).
"""

import re
from pathlib import Path

import nbformat
import pytest

from embedlab.grading.generate import DROP_TAG, STANDARD_LINE
from embedlab.grading.lessons import questions_for, reread_for

ROOT = Path(__file__).resolve().parent.parent

# The solutions whose every answer has its reasoning cell: all twelve.
REASONED = ["01-toy-table", "02-lookup-vs-matmul", "03-counting-gpt2", "04-modern-blocks",
            "05-weight-tying", "06-params-vs-compute", "07-memory", "08-vocabulary-size",
            "09-what-rows-learn", "10-glitch-tokens", "11-size-a-model", "12-change-a-vocabulary"]
PARTS = ("**Reasoning.**", "**Formula:**", "**Taught in:**", "**Usual trap:**")


def reasoning_problems(nb, lesson: str) -> list[str]:
    """What is missing from the reasoning before each of the lesson's answer cells."""
    reread = reread_for(lesson)
    problems = []
    for q in questions_for(lesson):
        check = re.compile(rf"""\bex\.check\(\s*["']{re.escape(q.name)}["']""")
        at = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code" and check.search(c.source)), None)
        answer = next((i for i in range(at - 1, -1, -1) if nb.cells[i].cell_type == "code"
                       and "BEGIN SOLUTION" in nb.cells[i].source), None) if at is not None else None
        if answer is None or answer == 0:
            problems.append(f"{q.name}: no answer cell")
            continue
        cell = nb.cells[answer - 1]
        if cell.cell_type != "markdown" or DROP_TAG not in cell.get("metadata", {}).get("tags", []):
            problems.append(f"{q.name}: no solution-only markdown cell right before the answer cell")
            continue
        text = cell.source
        problems += [f"{q.name}: no {part}" for part in PARTS if part not in text]
        if f"](../notebooks/{lesson}.ipynb)" not in text:
            problems.append(f"{q.name}: no link to ../notebooks/{lesson}.ipynb")
        if q.name in reread and f"*{reread[q.name]}*" not in text:
            problems.append(f"{q.name}: does not name the section {reread[q.name]!r}")
        if any(STANDARD_LINE.match(line) for line in text.split("\n")):
            problems.append(f"{q.name}: the question's standard line is in its reasoning cell")
    return problems


@pytest.mark.parametrize("lesson", REASONED)
def test_every_answer_has_its_reasoning(lesson):
    nb = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    assert not reasoning_problems(nb, lesson)


def test_the_reasoning_check_sees_what_is_missing():
    """Each kind of fault, planted in a copy of solution 01, is reported."""
    lesson = "01-toy-table"
    nb = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    assert reasoning_problems(nb, lesson) == []
    why = [i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and c.source.startswith("**Reasoning.**")]
    names = [q.name for q in questions_for(lesson)]
    first, second, third, fourth, fifth = why[:5]
    nb.cells[first].metadata["tags"] = []                                       # shown in the exercise
    nb.cells[second].source = nb.cells[second].source.replace("**Usual trap:**", "Trap:")
    nb.cells[third].source = nb.cells[third].source.replace("../notebooks/", "../exercises/")
    nb.cells[fourth].source = re.sub(r"section \*[^*]+\*", "section *1. A table as a dictionary*",
                                     nb.cells[fourth].source)
    nb.cells[fifth].source += "\n\n**1 point** · a whole number (an int), checked exactly"
    del nb.cells[why[5]]                                                         # no reasoning at all
    assert reasoning_problems(nb, lesson) == [
        f"{names[0]}: no solution-only markdown cell right before the answer cell",
        f"{names[1]}: no **Usual trap:**",
        f"{names[2]}: no link to ../notebooks/{lesson}.ipynb",
        f"{names[3]}: does not name the section {reread_for(lesson)[names[3]]!r}",
        f"{names[4]}: the question's standard line is in its reasoning cell",
        f"{names[5]}: no solution-only markdown cell right before the answer cell",
    ]
