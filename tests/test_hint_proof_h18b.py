"""Blind corpus 18's kinds of helper fix18b, planted as new instances (other questions, lessons, values and code than
the corpus's entries): a hint names a mistake only when it can prove it.

1. The given-code detector: a line of the learner's own answer cell that resembles a line of a given cell above (the
   budget's `context=context, batch=1,`) is no edit of that cell; the given cell is blamed only where a cell of its own
   was edited, and putting it back gives the answer.

Each test was red on main at 93a4a97, green here (each check also seen red with its fix taken out).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import nbformat

from embedlab.grading.exercise import Exercise
from embedlab.grading.text import hint_problems
from hint_corpus import Wrong, check_wrong

ROOT = Path(__file__).resolve().parent.parent
CHANGED = "the code the exercise gives was changed"


def _verdict(lesson, name, source, above=()):
    """The notebook check's verdict on `source` written in the question's answer cell (after the cells `above`,
    run first in the namespace and held in the input history before it)."""
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(Wrong(lesson, name, source, "", (), ()))
    for cell in above:
        exec(compile(cell, "<above>", "exec"), ns)  # noqa: S102
        exec(compile(source, "<answer>", "exec"), ns)  # noqa: S102
    prelude = check_wrong.exercise_prelude(lesson, name)
    ns["_ih"] = ["", *above, (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source]
    verdict = Exercise(lesson).verdict(name, ns)
    assert verdict.status == "incorrect", verdict
    assert not hint_problems(verdict.detail), verdict.detail
    return verdict.detail


def _budget_cell() -> str:
    nb = nbformat.read(ROOT / "exercises" / "11-size-a-model.ipynb", as_version=4)
    return next(c.source for c in nb.cells if c.cell_type == "code" and "BUDGET = Budget(" in c.source)


SERVING = ("design_serving_gb = serving_memory(design, weights=BUDGET.weights,\n"
           "    context=BUDGET.context, batch=BUDGET.batch,\n    kv=BUDGET.kv)[\"total\"] / GB\n")


def test_1_a_line_of_the_answer_cell_like_a_given_line_above_is_no_edit_of_it():
    source = SERVING.replace("context=BUDGET.context, batch=BUDGET.batch,", "context=2 * context, batch=1,")
    detail = _verdict("11-size-a-model", "design_serving_gb", source)
    assert CHANGED not in detail and "put that line back" not in detail, detail


def test_1_a_given_cell_edited_in_its_own_cell_is_still_blamed():
    # the control: the budget cell itself run with 3 conversations, the answer cell as the solution writes it
    edited = _budget_cell().replace("context=context, batch=1,", "context=context, batch=3,")
    detail = _verdict("11-size-a-model", "design_serving_gb", SERVING, above=(edited,))
    assert CHANGED in detail and "batch=3" in detail, detail
