"""A value question that names the operation it asks for refuses a right value computed without it (newcomerL #2).

Exercise 02's question 3 asks for the rows of `ids` as a matrix product, one-hot times `E`, and says "if it passes,
the two paths agree"; `rows_matmul = E[ids]` got ✅ with no product at all. A question's `own_work` (kinds.Work)
declares the operation: here a matrix product that takes the whole table `E` as a factor. The notebook check and
the grader refuse a cell whose answer does not come from one, with why; a cell that writes the product any way
(`@`, np.matmul, np.dot, .dot, np.einsum, transposed, through a helper or a variable, a one-hot built by a loop) is
right. The dodges planted here are other than the report's `E[ids]`: np.take, E.take, a loop over the ids, the
ids through a variable, a product with something else than the table, a product computed beside the answer.
"""

from __future__ import annotations

import contextlib
import io

import pytest

from embedlab.grading.exercise import Exercise
from embedlab.grading.kinds import Work
from hint_corpus import Wrong, check_wrong
from solution_runner import grader_scoring

L02 = "02-lookup-vs-matmul"

DODGES = {
    "np.take": "rows_matmul = np.take(E, ids, axis=0)\n",
    "E.take": "rows_matmul = E.take(ids, axis=0)\n",
    "a loop over the ids": "rows_matmul = np.array([E[i] for i in ids])\n",
    "indexing through a variable": "idx = ids\nrows = E[idx]\nrows_matmul = rows\n",
    "a product with the rows, not the table": "rows_matmul = E[ids] @ np.eye(table_d, dtype=np.float32)\n",
    "a product over the table's columns, then rows picked": (
        "rows_matmul = (E @ np.eye(table_d, dtype=np.float32))[ids]\n"),
    "a product computed beside the answer": "check = np.eye(table_V)[ids] @ E\nrows_matmul = E[ids]\n",
}

RIGHT = {
    "np.matmul and a variable": "X = one_hot(np.array(ids), table_V)\nrows_matmul = np.matmul(X, E)\n",
    "np.einsum": "rows_matmul = np.einsum('tv,vd->td', np.eye(table_V, dtype=np.float32)[ids], E)\n",
    "a helper": "def pick(t):\n    return np.eye(table_V, dtype=np.float32)[t] @ E\n\nrows_matmul = pick(ids)\n",
    "a loop-built one-hot, transposed product": (
        "oh = np.zeros((len(ids), table_V), dtype=np.float32)\nfor t, i in enumerate(ids):\n    oh[t, i] = 1\n"
        "rows_matmul = (E.T @ oh.T).T\n"),
    "np.dot with a cast table": "rows_matmul = np.dot(np.eye(table_V)[ids], E.astype(np.float64))\n",
    "the method .dot": "table = E\nrows_matmul = np.eye(table_V)[ids].dot(table)\n",
}


def _verdicts(lesson, name, source):
    """(notebook check's verdict, grader's (status, detail)) for `source` as the learner's lines."""
    entry = Wrong(lesson, name, source, "", (), ())
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(entry)
    prelude = check_wrong.exercise_prelude(lesson, name)
    cell = (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source
    ns["_ih"] = ["", cell]
    return Exercise(lesson).verdict(name, ns), grader_scoring(lesson, name, ns, cell)


@pytest.mark.parametrize("how", sorted(DODGES))
def test_a_right_value_without_the_product_is_refused_with_why(how):
    verdict, graded = _verdicts(L02, "rows_matmul", DODGES[how])
    assert verdict.status == "incorrect", (how, verdict)
    assert "matrix product" in verdict.detail and "`E`" in verdict.detail, (how, verdict.detail)
    assert "lookup" in verdict.detail, (how, verdict.detail)  # why: picking rows is the lookup again
    assert len(verdict.detail) <= 300, verdict.detail  # the grader's wire keeps 300 characters of a message
    assert graded == (verdict.status, verdict.detail), (how, graded)


@pytest.mark.parametrize("how", sorted(RIGHT))
def test_the_product_written_any_way_is_right(how):
    verdict, graded = _verdicts(L02, "rows_matmul", RIGHT[how])
    assert verdict.status == "correct", (how, verdict)
    assert graded[0] == "correct", (how, graded)


def test_a_declared_operation_is_read_from_the_answer_alone():
    """The reader on its own, on forms the exercise does not meet: a function's return, a name assigned twice, a
    cell that cannot be parsed (says nothing), an operation by name (np.add.at) with its operand."""
    work = Work("@", "E")
    assert work.missing("def f(ids):\n    return E[ids]\n", "f")
    assert not work.missing("def f(ids):\n    oh = np.eye(8)[ids]\n    return oh @ E\n", "f")
    assert not work.missing("r = E[ids]\nr = np.eye(8)[ids] @ E\n", "r")
    assert work.missing("r = np.eye(8)[ids] @ E\nr = E[ids]\n", "r")  # the last assignment is the answer
    assert work.missing("r = (E @ W)[ids]\n", "r")  # sums over E's columns, then picks rows: the lookup
    assert not work.missing("r = (E.T @ W.T).T\n", "r")  # E.T on the left: its rows summed over
    assert work.missing("r = (W.T @ E.T).T\n", "r")  # E.T on the right: its columns summed over
    assert Work("@", "E", axis=1).missing("logits = x @ E\n", "logits")  # the columns asked (x @ E.T)
    assert not Work("@", "E", axis=1).missing("logits = np.einsum('td,vd->tv', x, E)\n", "logits")
    assert work.missing("r = E[ids] +\n", "r") is None  # unreadable: nothing said
    assert work.missing("print(1)\n", "r") is None  # the answer not assigned here: nothing said
    added = Work("add.at", "G")
    assert added.missing("G = np.zeros((5, 2))\nG[ids] += g\n", "G")
    assert not added.missing("G = np.zeros((5, 2))\nnp.add.at(G, ids, g)\n", "G")


def test_every_declared_operation_is_done_by_its_solution():
    """A question that declares an operation is right on its own solution's cell (the declaration fits the work)."""
    from embedlab.grading import code
    from embedlab.grading.lessons import known_lessons, questions_for

    declared = []
    for lesson in known_lessons():
        for q in questions_for(lesson):
            for work in (k for k in q.own_work if isinstance(k, Work)):
                declared.append((lesson, q.name))
                assert work.missing(code.solution_source(lesson, q.name), q.name) is False, (lesson, q.name, work)
    assert (L02, "rows_matmul") in declared


# --------------------------------------------------------------------------
# Other hints newcomerL found generic or giving the answer away, each planted as a new instance


def test_a_whole_number_divided_with_slash_is_named_where_floor_division_gives_the_answer():
    """newcomerL #12: `hd = d / h` in exercise 04's llama_params was told "wrap the result in int()", where the
    question itself writes `d // h`. The slash is undone in the learner's own function (embedlab.grading.undo) and
    named when `//` there gives the answer on every input. Planted: the division written `hd /= h`."""
    source = ("def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d\n    hd /= h\n"
              "    attention = 2 * d * h * hd + 2 * d * h_kv * hd\n"
              "    return V * d + L * (attention + 3 * d * d_ff + 2 * d) + d + (0 if tied else V * d)\n")
    verdict, graded = _verdicts("04-modern-blocks", "llama_params", source)
    assert verdict.status == "incorrect" and "`hd /= h` gives a float" in verdict.detail and "//" in verdict.detail, \
        verdict.detail
    assert "int()" not in verdict.detail, verdict.detail
    assert graded[0] == "incorrect" and "gives a float" in graded[1], graded


def test_a_shape_error_in_a_product_names_the_sizes_and_the_lessons_product():
    """newcomerL #5: `one_hot(ids, V) @ grad_out.T` got only numpy's message. A product whose inner sizes differ is
    said as the sizes it joins, each named among the call's arguments, and a Function that declares the lesson's
    product (`product=`) names it first (the grader cuts a hint at 300 characters). Planted: np.dot with the
    transpose left out (numpy's other message, "not aligned")."""
    source = "def embedding_backward(ids, grad_out, V):\n    return np.dot(one_hot(ids, V), grad_out)\n"
    verdict, graded = _verdicts(L02, "embedding_backward", source)
    detail = verdict.detail
    assert verdict.status == "incorrect", verdict
    assert "the lesson's product is one_hot(ids, V)ᵀ @ grad_out" in detail, detail
    assert "A's columns must match B's rows: here 5 (`V`) and 4 (`ids`'s length)" in detail, detail
    assert graded[0] == "incorrect" and "the lesson's product is" in graded[1], graded


def test_the_one_hot_hint_does_not_write_the_solution_line():
    """newcomerL #6: `out[:, ids] = 1` was told "out[np.arange(len(ids)), ids] = 1", the solution's line."""
    source = "def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n    out[:, ids] = 1\n    return out\n"
    verdict, _ = _verdicts(L02, "one_hot", source)
    assert verdict.status == "incorrect" and "pair row t with column ids[t]" in verdict.detail, verdict.detail
    assert "np.arange(len(ids))" not in verdict.detail, verdict.detail
