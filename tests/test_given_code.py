"""A wrong answer computed from edited given code says so (issue 32): the code the exercise
gives (the lines above `# YOUR CODE HERE` in an answer cell, and the cells it gives whole) is
compared with the exercise as handed out (exercises/), by the notebook's check and by the
grader, for every lesson; an edited line is named instead of a guessed slip.
"""

import re

import nbformat
import pytest

from embedlab.grading import cli
from embedlab.grading.code import _line, answer_source, given_changed, given_code
from embedlab.grading.exercise import Exercise
from embedlab.grading.lessons import known_lessons, load_key, questions_for
from embedlab.grading.sandbox import Limits, RunResult
from embedlab.grading.status import INCORRECT
from solution_runner import ROOT

LESSON_12 = "12-change-a-vocabulary"


def code_cells(folder, lesson):
    nb = nbformat.read(ROOT / folder / f"{lesson}.ipynb", as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code"]


def edited(sources, question, lesson):
    """The cells with one given line of `question` edited (a number in it changed), and that line:
    the answer cell's own given lines first, else a cell above it; (None, None) when no given
    line holds a number."""
    above, own = given_code(lesson)[question]
    answer = answer_source(question, {"In": sources})
    for line in own + tuple(reversed(above)):
        number = re.search(r"(?<![\w.])[0-9]+(?![\w.])", line)
        if number is None or line.startswith("print("):
            continue
        changed = str(int(number.group()) * 10 + 7)
        for k, source in enumerate(sources):
            if line in own and source != answer:
                continue
            lines = source.splitlines()
            for i, raw in enumerate(lines):
                if _line(raw) == line:
                    at = raw.index(number.group(), len(raw) - len(raw.lstrip()) + number.start())
                    lines[i] = raw[:at] + changed + raw[at + len(number.group()):]
                    return sources[:k] + ["\n".join(lines)] + sources[k + 1:], line
    return None, None


def test_lesson_12_training_steps_edited_is_named_not_guessed():
    sources = code_cells("solutions", LESSON_12)
    cells = [s.replace("steps=400,", "steps=40000,", 1) if "p_new_token =" in s else s for s in sources]
    answer = next(s for s in cells if "p_new_token =" in s)
    said = given_changed(LESSON_12, "p_new_token", cells, answer)
    assert said and "steps=400," in said and "steps=40000," in said and "exercise gives was changed" in said
    # the notebook's check: the same words, instead of the slip the value alone suggests
    verdict = Exercise(LESSON_12).verdict("p_new_token", {"In": [""] + cells, "p_new_token": 0.987654})
    assert verdict.status == INCORRECT and verdict.detail == said
    # the grader's scoring: the sandbox reports the submitted code cells; the judge compares
    q = next(q for q in questions_for(LESSON_12) if q.name == "p_new_token")
    result = RunResult("finished", {"errors": [], "timeouts": [], "code": cells, "sources": {"p_new_token": answer}},
                       {"p_new_token": {"data": q.to_data(0.987654)}})
    assert cli.score(q, load_key(LESSON_12), {}, result, Limits(), LESSON_12)[2:] == (INCORRECT, said)
    assert cli.score(q, load_key(LESSON_12), {}, result, Limits())[3] != said  # no lesson: the hint as before


@pytest.mark.parametrize("lesson", known_lessons())
def test_the_solution_changes_no_given_line_and_an_edited_one_is_named(lesson):
    """Every lesson: the solution (which keeps the given code) is never told its given code
    changed; with a number of a given line multiplied by ten, plus seven, the line is named."""
    sources = code_cells("solutions", lesson)
    named = 0
    for question in given_code(lesson):
        assert given_changed(lesson, question, sources, answer_source(question, {"In": sources})) is None
        cells, line = edited(sources, question, lesson)
        if cells is None:
            continue  # no given line with a number to edit
        said = given_changed(lesson, question, cells, answer_source(question, {"In": cells}))
        assert said and line[:60] in said, (question, line, said)
        named += 1
    assert set(given_code(lesson)) == {q.name for q in questions_for(lesson)}
    assert named >= 1


def test_the_submitted_code_reaches_the_judge_through_the_sandbox_report():
    """The worker reports every code cell's source ("code"); the grader's check of that report kept
    "sources" but dropped "code", so in embedlab-grade the edited-given-code hint never fired (found by
    a blind attack, round 4). clean_report keeps it, as plain strings only, bounded."""
    from embedlab.grading import sandbox

    cells = code_cells("solutions", LESSON_12)
    kept = sandbox.clean_report({"state": "finished", "code": cells + [17, None, {"x": 1}]})
    assert kept["code"] == cells
    assert sandbox.clean_report({"state": "finished", "code": "not a list"})["code"] == []
    assert len(sandbox.clean_report({"state": "finished", "code": ["x"] * 10**5})["code"]) == sandbox.REPORTED_CELLS
    edited_cells = [s.replace("steps=400,", "steps=40000,", 1) if "p_new_token =" in s else s for s in cells]
    report = sandbox.clean_report({"state": "finished", "code": edited_cells,
                                   "sources": {"p_new_token": next(s for s in edited_cells if "p_new_token =" in s)}})
    q = next(q for q in questions_for(LESSON_12) if q.name == "p_new_token")
    result = RunResult("finished", report, {"p_new_token": {"data": q.to_data(0.987654)}})
    assert "exercise gives was changed" in cli.score(q, load_key(LESSON_12), {}, result, Limits(), LESSON_12)[3]
