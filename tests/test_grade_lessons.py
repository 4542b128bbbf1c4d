"""The grader on every lesson: the solution scores full marks, the generated exercise zero.

Parametrized over solutions/, so a new lesson is covered as soon as its solution exists.
Kept apart from the hostile set (test_grade.py) so the two run in parallel under xdist.
"""

import csv
from pathlib import Path

import pytest

from embedlab.grading import cli as grade
from embedlab.grading.lessons import questions_for

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))


def run_grader(paths, tmp_path, *extra):
    out = tmp_path / "scores.csv"
    code = grade.main([str(p) for p in paths] + ["--out", str(out), "-q", *extra])
    with open(out, newline="", encoding="utf-8") as f:
        return code, list(csv.DictReader(f))


def points(rows):
    return sum(float(r["points"]) for r in rows)


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_solution_full_marks_and_blank_exercise_zero(solution, tmp_path):
    lesson = solution.stem
    exercise = ROOT / "exercises" / f"{lesson}.ipynb"
    # generous limits: some solutions train a small model
    code, rows = run_grader([solution, exercise], tmp_path, "--cell-timeout", "300", "--timeout", "900", "-j", "2")
    assert code == 0
    questions = questions_for(lesson)
    total = sum(q.points for q in questions)
    solved = [r for r in rows if r["submission"] == str(solution)]
    blank = [r for r in rows if r["submission"] == str(exercise)]
    assert [r["question"] for r in solved] == [q.name for q in questions]
    assert [r["status"] for r in solved] == ["correct"] * len(questions), solved
    assert points(solved) == total
    assert [r["status"] for r in blank] == ["not_attempted"] * len(questions), blank
    assert points(blank) == 0


