"""Error carried forward, held to its promise (newcomer AB, exercise 11, defects 1 and 2).

book/grading.md ("Error carried forward") and exercise 11's introduction promise that question 6 counts when it is
right from the learner's own `design_params`, and question 5 from their own figures, even where those are off;
book/how-to-use.md that a wrong answer which uses an earlier answer not right yet names that earlier answer first.
Each answer cell below is a real one, run after the solution's cells above it, and judged by the notebook's check
and by the grader's scoring on its probe of the same kernel (`_notebook_and_grader`): both must say the same.

(1) A second look (the cell run again on other parameters) whose expected answer ignores an earlier answer the
    learner's lines read (the solution's cell does not read it) holds the cell to the rule for the learner's own
    earlier answers as the look holds them (elsewhere.carried_there): a look keeps the learner's own count, so a
    count built on it is judged as on the notebook's inputs, not told "your lines do not follow the inputs that
    changed there" (nothing that changed there is read). A look or case whose answer already follows the learner's
    own figures (question 5's) is judged as it is: raw amounts right on the learner's own figures stay refused
    (tests/test_hint_proof18.py).
(2) A wrong answer judged on the learner's own earlier answers that reads one not right yet names it first, then
    says it was judged on it and is still not right, with its own hint (earlier.carried_words).
(3) Question 5's cases say what they do on the figures judged, and guess no cause the cell does not show: the raw
    amounts are caught by a case where compute is the emptiest budget, whichever budget binds.
"""

from __future__ import annotations

import pytest

from embedlab.grading.text import cut, hint_problems

from test_hint_proof12 import _notebook_and_grader

LESSON = "11-size-a-model"
DESIGN = "design = llama_config(32000, 1024, 30, 16, 4, 4096, True)\n"  # the newcomer's (and the solution's) shape
UNTIED = "design = llama_config(32000, 1280, 16, 20, 5, 5120, False)\n"  # another shape, untied
RIGHT = {
    "design_params": "design_params = count_params(design).total\n",
    "design_serving_gb": ("design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,"
                          " batch=BUDGET.batch, kv=BUDGET.kv)['total'] / GB\n"),
    "design_train_flops": "design_train_flops = training_flops(design, T_train).total * (D // T_train)\n",
}
WRONG_PARAMS = {  # question 2 off, two ways the newcomer wrote
    "non-embedding": "design_params = count_params(design).non_embedding\n",
    "a second table": "design_params = count_params(design).total + design['vocab_size'] * design['hidden_size']\n",
}
# question 6 from the learner's own count, written two ways
FLIP_FROM_COUNT = {
    "conditional": ("Vd = design['vocab_size'] * design['hidden_size']\n"
                    "other_tying_params = design_params + Vd if design['tie_word_embeddings'] else design_params - Vd\n"),
    "signed": ("sign = 1 if design['tie_word_embeddings'] else -1\n"
               "other_tying_params = design_params + sign * design['vocab_size'] * design['hidden_size']\n"),
}


def _judged(cells: dict, name: str):
    notebook, (status, detail) = _notebook_and_grader(LESSON, cells, name)
    assert notebook.status == status, (notebook, status, detail)
    assert cut(notebook.detail) == detail, (notebook.detail, detail)  # the CSV's cut of the same words
    return notebook


@pytest.mark.parametrize("design", [DESIGN, UNTIED], ids=["tied", "untied"])
@pytest.mark.parametrize("params", sorted(WRONG_PARAMS))
@pytest.mark.parametrize("flip", sorted(FLIP_FROM_COUNT))
def test_1_a_right_flip_of_a_wrong_count_earns_its_point_carried(design, params, flip):
    got = _judged({"design": design, "design_params": WRONG_PARAMS[params],
                   "other_tying_params": FLIP_FROM_COUNT[flip]}, "other_tying_params")
    assert got.status == "correct" and got.points == got.max_points == 1, got
    assert got.detail.startswith("judged on your own figure for `design_params` (error carried forward)"), got.detail
    assert "right for these inputs only" not in got.detail and "do not follow" not in got.detail, got.detail


def test_1_the_same_flip_of_a_right_count_is_plainly_right():
    got = _judged({"design": DESIGN, **RIGHT, "other_tying_params": FLIP_FROM_COUNT["conditional"]},
                  "other_tying_params")
    assert got.status == "correct" and got.detail == "", got


@pytest.mark.parametrize("params", sorted(WRONG_PARAMS))
def test_2_a_flip_that_never_flips_names_the_wrong_count_first_then_its_own_slip(params):
    # always adds a head: right for a tied design only; the declared case (the design untied) still tells
    got = _judged({"design": DESIGN, "design_params": WRONG_PARAMS[params],
                   "other_tying_params": "other_tying_params = design_params + 32000 * 1024\n"
                   .replace("32000 * 1024", "design['vocab_size'] * design['hidden_size']")}, "other_tying_params")
    assert got.status == "incorrect", got
    assert got.detail.startswith("your `design_params` (question 2) is not right yet, and this answer uses it"), \
        got.detail
    rest = got.detail.split("fix question 2, and this answer's own lines too: judged on your own `design_params` "
                            "(error carried forward), it is still not right: ", 1)
    assert len(rest) == 2 and rest[1].startswith("right for these inputs only. With the design untied"), got.detail
    assert "do not follow the inputs" not in got.detail and not hint_problems(got.detail), got.detail


RAW_MAX = ("figures = {'parameters': design_params, 'memory': design_serving_gb, 'compute': design_train_flops}\n"
           "tightest_budget = max(figures, key=figures.get)\n")
FRACTIONS = ("used = {'parameters': design_params / BUDGET.max_params,\n"
             "        'memory': design_serving_gb / BUDGET.max_serving_gb,\n"
             "        'compute': design_train_flops / BUDGET.max_train_flops}\n"
             "tightest_budget = max(used, key=used.get)\n")
OFF = {  # questions 3 and 4 off, as the newcomer had them
    "design_serving_gb": ("design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,"
                          " batch=16, kv=BUDGET.kv)['total'] / GB\n", 3),
    "design_train_flops": ("design_train_flops = 6 * count_params(design).total * D\n", 4),
}


@pytest.mark.parametrize("off", sorted(OFF))
def test_2_raw_amounts_with_an_earlier_figure_off_name_it_first_and_the_raw_amounts(off):
    source, number = OFF[off]
    got = _judged({"design": DESIGN, **RIGHT, off: source, "tightest_budget": RAW_MAX}, "tightest_budget")
    assert got.status == "incorrect", got
    assert got.detail.startswith(f"your `{off}` (question {number}) is not right yet, and this answer uses it"), \
        got.detail
    assert "not the largest raw number (FLOPs always are)" in got.detail, got.detail
    # no slip the code does not show: no units, no exactness, no budget "grown" that the case does not grow
    for unshown in ("2^30", "GiB", "exactly", "grown until"):
        assert unshown not in got.detail, (unshown, got.detail)
    assert not hint_problems(got.detail), got.detail


@pytest.mark.parametrize("off", sorted(OFF))
def test_2_fractions_of_an_earlier_figure_off_earn_the_point_carried(off):
    source, _ = OFF[off]
    got = _judged({"design": DESIGN, **RIGHT, off: source, "tightest_budget": FRACTIONS}, "tightest_budget")
    assert got.status == "correct" and got.points == 1, got
    if got.detail:  # carried only where the recount picks another budget
        assert got.detail.startswith(f"judged on your own figure for `{off}`"), got.detail


def test_2_raw_amounts_with_every_figure_right_are_named_as_such():
    got = _judged({"design": DESIGN, **RIGHT, "tightest_budget": RAW_MAX}, "tightest_budget")
    assert got.status == "incorrect" and "not the largest raw number (FLOPs always are)" in got.detail, got
    assert "not right yet" not in got.detail, got.detail


def test_3_a_near_tie_is_said_by_what_it_does_and_no_cause_is_guessed():
    # the memory fraction computed in GiB inside question 5's own cell: right on the notebook's job (compute binds
    # by 0.1 point there), refused where the fractions are 2 % apart; the words say which budget is the fuller there
    gib = FRACTIONS.replace("design_serving_gb / BUDGET.max_serving_gb",
                            "design_serving_gb * 10**9 / 2**30 / BUDGET.max_serving_gb")
    got = _judged({"design": DESIGN, **RIGHT, "tightest_budget": gib}, "tightest_budget")
    assert got.status == "incorrect", got
    assert "2 % more of the" in got.detail and "the fuller by only 2 %" in got.detail, got.detail
    assert "grown until" not in got.detail and "2^30" not in got.detail, got.detail
    assert not hint_problems(got.detail), got.detail


def test_3_a_typed_word_is_not_told_it_compared_raw_amounts():
    # "compute" typed (right on the notebook's job): refused as typed, with no comparison of raw amounts it never made
    got = _judged({"design": DESIGN, **RIGHT, "tightest_budget": 'tightest_budget = "compute"\n'}, "tightest_budget")
    assert got.status == "incorrect" and got.detail.startswith("typed, not computed"), got
    assert "raw number" not in got.detail and "FLOPs always" not in got.detail, got.detail


def test_the_kernel_and_the_judge_name_the_carried_values_alike():
    from embedlab.grading import elsewhere, kinds

    assert elsewhere.CARRIED == kinds.CARRIED_THERE
