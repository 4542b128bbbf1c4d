"""The grader on every lesson: the solution scores full marks, the generated exercise zero.

Parametrized over solutions/, so a new lesson is covered as soon as its solution exists.
Every solution and exercise is graded by ONE run of `embedlab-grade` (-j 2), as an
instructor grades a folder; each lesson's test then checks its two files' rows.
Kept apart from the hostile set (test_grade.py) so the two run in parallel under xdist.
"""

import csv
from pathlib import Path

import pytest

from embedlab.grading import cli as grade
from embedlab.grading.kept import GRADES_ENV
from embedlab.grading.kinds import Function
from embedlab.grading.lessons import questions_for

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))


def points(rows):
    return sum(float(r["points"]) for r in rows)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Every solution and its blank exercise, graded in one run (generous limits: some solutions
    train a small model)."""
    out = tmp_path_factory.mktemp("grades") / "scores.csv"
    paths = [p for solution in SOLUTIONS for p in (solution, ROOT / "exercises" / solution.name)]
    with pytest.MonkeyPatch.context() as patch:  # the course's own notebooks: their judged rows kept by hash
        patch.setenv(GRADES_ENV, "1")           # (embedlab.grading.kept; a change to one is graded again)
        code = grade.main([str(p) for p in paths] + ["--out", str(out), "-q", "--cell-timeout", "300",
                                                      "--timeout", "900", "-j", "2"])
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return code, rows


def test_the_run_grades_every_file(graded):
    code, rows = graded
    assert code == 0
    assert {r["submission"] for r in rows} == {str(p) for s in SOLUTIONS for p in (s, ROOT / "exercises" / s.name)}


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_solution_full_marks_and_blank_exercise_zero(solution, graded):
    lesson = solution.stem
    exercise = ROOT / "exercises" / f"{lesson}.ipynb"
    _, rows = graded
    questions = questions_for(lesson)
    total = sum(q.points for q in questions if q.kind != "written")  # written work waits for the instructor
    solved = [r for r in rows if r["submission"] == str(solution)]
    blank = [r for r in rows if r["submission"] == str(exercise)]
    assert {r["lesson"] for r in solved + blank} == {lesson}
    assert [r["question"] for r in solved] == [q.name for q in questions]
    assert [r["status"] for r in solved] == ["to_mark" if q.kind == "written" else "correct" for q in questions], solved
    assert points(solved) == total
    assert [r["question"] for r in blank] == [q.name for q in questions]
    assert [r["status"] for r in blank] == ["not_attempted"] * len(questions), blank
    assert points(blank) == 0
    # a blank function still raises the generator's NotImplementedError, and the grader says so
    functions = {q.name for q in questions if isinstance(q, Function)}
    assert all("NotImplementedError" in r["detail"] for r in blank if r["question"] in functions), blank
