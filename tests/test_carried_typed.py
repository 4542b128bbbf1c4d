"""A typed or carried answer's hint says only what holds for the learner (newcomer 11, exercise 11; issue 46).

book/how-to-use.md promises that a hint on an answer worked out from earlier answers not right yet points at that
earlier answer first. Each answer cell below is a real one, run after the solution's cells above it, judged by the
notebook's check and by the grader's scoring on its probe of the same kernel: both must say the same words.

(1) A carried-forward question (a Design's `carries` beyond its `uses`: questions 5 and 6) whose answer is wrong
    names first the earlier answers it is worked out from whose values, as the learner gave them, change its
    answer (the answer on the recounted figures is not right on the learner's own: `carry` finds it wrong there),
    also when the cell reads none of them (a typed word). A typed cell is judged on the recounted figures, so the
    case its hint cites ("with the X budget 1,000 times larger … the answer there is another") is a case whose
    answer, on the recounted figures, is another than the typed one.
(2) A typed value that is right has no method to blame: the case's reading of a method (an untied head is a
    second V × d matrix; flip the tying the design has) is said only of lines that compute.
(3) An earlier answer whose value is right (a float of the right count) does not change this answer: no
    "fix question N" is said before this answer's own hint.
(4) The typed words say once what the rerun found, in words true in the learner's own notebook too (its check
    runs the cell again): no "the grader reruns" (the class handout's words, before its deadline).
(5) Exercise 11's text: question 3 says "in the precision `weights`", as the job does; the introduction says
    once how questions 5 and 6 are worked out from earlier answers.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from embedlab.grading.kinds import TYPED
from embedlab.grading.text import cut, hint_problems

from test_hint_proof12 import _notebook_and_grader

ROOT = Path(__file__).resolve().parents[1]
LESSON = "11-size-a-model"
# three designs of the book's job: compute, memory and parameters each the budget used most (recounted)
COMPUTE = (32000, 1024, 30, 16, 4, 4096, True)  # 81.5 % / 99.2 % / 99.3 %
MEMORY = (64000, 1024, 20, 16, 4, 4096, False)  # 72.5 % / 77.1 % / 74.1 %
PARAMETERS = (128000, 1024, 8, 16, 4, 4096, False)  # 64.0 % / 51.8 % / 48.5 %
RIGHT = {
    "design_params": "design_params = count_params(design).total\n",
    "design_serving_gb": ("design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,"
                          " batch=BUDGET.batch, kv=BUDGET.kv)['total'] / GB\n"),
    "design_train_flops": "design_train_flops = training_flops(design, T_train).total * (D // T_train)\n",
}
SERVING = RIGHT["design_serving_gb"].split(" / GB")[0]
OFF = {  # earlier answers off, each as a learner wrote it: (cell, question number)
    "bytes": ("design_serving_gb", SERVING + "\n", 3),
    "MB": ("design_serving_gb", SERVING + " / 10**6\n", 3),
    "GiB": ("design_serving_gb", SERVING + " / 2**30\n", 3),
    "6ND": ("design_train_flops", "design_train_flops = 6 * count_params(design).total * D\n", 4),
    "tokens": ("design_train_flops", "design_train_flops = training_flops(design, T_train).total * D\n", 4),
    "non-embedding": ("design_params", "design_params = count_params(design).non_embedding\n", 2),
}


def _design(shape) -> str:
    return f"design = llama_config{shape!r}\n"


def _judged(cells: dict, name: str):
    notebook, (status, detail) = _notebook_and_grader(LESSON, cells, name)
    assert notebook.status == status, (notebook, status, detail)
    assert cut(notebook.detail) == detail, (notebook.detail, detail)  # the CSV's cut of the same words
    return notebook


def _recounted_fractions(shape, **grown) -> dict:
    from embedlab.grading.questions.l11 import BUDGET
    from embedlab.sizing import design_figures, headroom, llama_config
    import dataclasses

    job = dataclasses.replace(BUDGET, **{f: getattr(BUDGET, f) * k for f, k in grown.items()})
    return headroom(design_figures(llama_config(*shape), job), job)


LIMIT = {"parameters": "max_params", "memory": "max_serving_gb", "compute": "max_train_flops"}


def _cited_case_is_true_on_the_recount(detail: str, shape, typed: str):
    """The case the typed hint cites, worked out on the recounted figures: its answer is another than `typed`."""
    found = re.search(r"with the (parameters|memory|compute) budget 1,000 times larger", detail)
    assert found, detail
    there = _recounted_fractions(shape, **{LIMIT[found.group(1)]: 1000})
    assert max(there, key=there.get) != typed, (found.group(0), there, detail)


# (shape, the word typed: right on the recount, an earlier answer off that changes the answer on the learner's own)
CHANGING = [
    (COMPUTE, "compute", "bytes"),  # the newcomer's: memory the fullest on their bytes
    (COMPUTE, "compute", "MB"),
    (COMPUTE, "compute", "6ND"),  # 6·N·D: 90 % of compute on their figure, so memory (99.2 %) is the fullest
    (MEMORY, "memory", "tokens"),  # D sequences for D // T_train: compute 2,048 times too full
    (PARAMETERS, "parameters", "bytes"),
    (PARAMETERS, "parameters", "6ND"),  # 6·N·D counts both untied tables: compute 69 % on their figure
]


@pytest.mark.parametrize("shape, typed, off", CHANGING, ids=[f"{t}-{o}" for _, t, o in CHANGING])
def test_1_a_typed_word_names_the_earlier_answer_that_changes_it_first(shape, typed, off):
    name, cell, number = OFF[off]
    assert max(_recounted_fractions(shape), key=_recounted_fractions(shape).get) == typed  # right on the recount
    got = _judged({"design": _design(shape), **RIGHT, name: cell, "tightest_budget": f"tightest_budget = {typed!r}\n"},
                  "tightest_budget")
    assert got.status == "incorrect", got
    assert got.detail.startswith(f"your `{name}` (question {number}) is not right yet"), got.detail
    assert f"fix question {number}, and this answer's own lines too: {TYPED}" in got.detail, got.detail
    _cited_case_is_true_on_the_recount(got.detail, shape, typed)
    assert not hint_problems(got.detail), got.detail


def test_1_a_policy_that_accepts_typed_values_accepts_one_named_after_its_earlier_answer():
    from embedlab.grading import carried
    from embedlab.grading.judge import Row

    name, cell, _ = OFF["bytes"]
    got = _judged({"design": _design(COMPUTE), **RIGHT, name: cell, "tightest_budget": "tightest_budget = 'compute'\n"},
                  "tightest_budget")
    row = Row("sub.ipynb", LESSON, "tightest_budget", 0.0, 1.0, got.status, cut(got.detail))
    assert not row.detail.startswith(TYPED) and carried.is_typed(row), row.detail
    assert carried.apply([row], typed_ok={LESSON})[0].status == "correct"
    assert carried.apply([row])[0] == row


NOT_CHANGING = [
    (COMPUTE, "compute", "non-embedding"),  # parameters the emptiest on their count too
    (MEMORY, "memory", "non-embedding"),
    (PARAMETERS, "parameters", "GiB"),  # memory 55 % in GiB, parameters still the fullest
]


@pytest.mark.parametrize("shape, typed, off", NOT_CHANGING, ids=[f"{t}-{o}" for _, t, o in NOT_CHANGING])
def test_1_a_typed_word_is_not_sent_to_an_earlier_answer_that_does_not_change_it(shape, typed, off):
    name, cell, number = OFF[off]
    got = _judged({"design": _design(shape), **RIGHT, name: cell, "tightest_budget": f"tightest_budget = {typed!r}\n"},
                  "tightest_budget")
    assert got.status == "incorrect" and got.detail.startswith(TYPED), got
    assert f"question {number}" not in got.detail, got.detail
    _cited_case_is_true_on_the_recount(got.detail, shape, typed)


@pytest.mark.parametrize("shape", [COMPUTE, MEMORY, PARAMETERS], ids=["compute", "memory", "parameters"])
def test_1_every_typed_word_cites_a_case_true_on_the_recount(shape):
    fractions = _recounted_fractions(shape)
    typed = max(fractions, key=fractions.get)
    got = _judged({"design": _design(shape), **RIGHT, "tightest_budget": f"tightest_budget = {typed!r}\n"},
                  "tightest_budget")
    assert got.status == "incorrect" and got.detail.startswith(TYPED), got
    _cited_case_is_true_on_the_recount(got.detail, shape, typed)


def test_1_question_6_typed_names_the_count_it_is_worked_out_from_first():
    from embedlab.params import count_params
    from embedlab.sizing import llama_config

    design = llama_config(*COMPUTE)
    flipped = count_params({**design, "tie_word_embeddings": False}).total
    name, cell, number = OFF["non-embedding"]
    got = _judged({"design": _design(COMPUTE), name: cell, "other_tying_params": f"other_tying_params = {flipped}\n"},
                  "other_tying_params")
    assert got.status == "incorrect", got
    assert got.detail.startswith(f"your `design_params` (question {number}) is not right yet"), got.detail
    assert f"this answer's own lines too: {TYPED}" in got.detail, got.detail


def test_1_lines_that_compute_from_the_recount_are_not_sent_to_an_earlier_answer_they_do_not_read():
    # the count of the design as it is (a slip of question 6's own), with question 2 off: fixing question 2 changes
    # nothing these lines give, so it is not named (the sandboxed grader sees both in one notebook)
    name, cell, _ = OFF["non-embedding"]
    got = _judged({"design": _design(COMPUTE), name: cell,
                   "other_tying_params": "other_tying_params = count_params(design).total\n"}, "other_tying_params")
    assert got.status == "incorrect", got
    assert got.detail == "that is your design as it is: flip tie_word_embeddings and count again", got.detail


@pytest.mark.parametrize("shape", [COMPUTE, MEMORY], ids=["tied", "untied"])
def test_2_a_typed_right_count_is_told_it_typed_and_nothing_else(shape):
    from embedlab.params import count_params
    from embedlab.sizing import llama_config

    right = count_params(llama_config(*shape)).total
    got = _judged({"design": _design(shape), "design_params": f"design_params = {right}\n"}, "design_params")
    assert got.status == "incorrect" and got.detail.startswith(TYPED), got
    assert "V × d" not in got.detail and "tied one none" not in got.detail, got.detail
    assert got.detail.endswith("so it holds for any of them"), got.detail


def test_2_a_typed_right_flip_is_not_told_to_flip_the_tying():
    from embedlab.params import count_params
    from embedlab.sizing import llama_config

    flipped = count_params({**llama_config(*MEMORY), "tie_word_embeddings": True}).total
    got = _judged({"design": _design(MEMORY), **RIGHT, "other_tying_params": f"other_tying_params = {flipped}\n"},
                  "other_tying_params")
    assert got.status == "incorrect" and got.detail.startswith(TYPED), got
    assert "not design['tie_word_embeddings']" not in got.detail and "adds a head" not in got.detail, got.detail


def test_2_lines_that_compute_keep_the_reading_of_their_method():
    # a count that ties whatever the design: right for a tied design only; its method is what the case reads
    always_tied = "design_params = count_params({**design, 'tie_word_embeddings': True}).total\n"
    got = _judged({"design": _design(COMPUTE), "design_params": always_tied}, "design_params")
    assert got.status == "incorrect" and not got.detail.startswith(TYPED), got
    assert "an untied head is a second V × d matrix" in got.detail, got.detail


RAW_MAX = ("figures = {'parameters': design_params, 'memory': design_serving_gb, 'compute': design_train_flops}\n"
           "tightest_budget = max(figures, key=figures.get)\n")
FLOATS = {  # earlier answers of the right value, wrong in form only
    "design_train_flops": ("design_train_flops = training_flops(design, T_train).total * (D / T_train)\n", 4),
    "design_params": ("design_params = float(count_params(design).total)\n", 2),
}


@pytest.mark.parametrize("name", sorted(FLOATS))
def test_3_an_earlier_answer_of_the_right_value_is_not_blamed_first(name):
    cell, number = FLOATS[name]
    got = _judged({"design": _design(COMPUTE), **RIGHT, name: cell, "tightest_budget": RAW_MAX}, "tightest_budget")
    assert got.status == "incorrect", got
    assert f"question {number}" not in got.detail and "fix question" not in got.detail, got.detail
    assert got.detail.startswith("right for these inputs only: with the compute budget 1,000 times larger"), \
        got.detail
    assert "not the largest raw number (FLOPs always are)" in got.detail, got.detail


def test_3_an_earlier_answer_off_that_does_not_change_the_answer_is_not_blamed_first():
    name, cell, number = OFF["non-embedding"]
    got = _judged({"design": _design(COMPUTE), **RIGHT, name: cell, "tightest_budget": RAW_MAX}, "tightest_budget")
    assert got.status == "incorrect" and "not the largest raw number" in got.detail, got
    assert f"question {number}" not in got.detail, got.detail


TYPED_CELLS = [  # (lesson, {question: a typed right value}), the values the solutions compute on the book's inputs
    ("11-size-a-model", {"design": _design(COMPUTE), "design_params": "design_params = 488961024\n"}, "design_params"),
    ("11-size-a-model", {"design": _design(COMPUTE), **RIGHT, "tightest_budget": "tightest_budget = 'compute'\n"},
     "tightest_budget"),
]


@pytest.mark.parametrize("lesson, cells, name", TYPED_CELLS, ids=[n for _, _, n in TYPED_CELLS])
def test_4_typed_words_say_the_rerun_once_and_true_in_the_learners_notebook(lesson, cells, name):
    notebook, (status, detail) = _notebook_and_grader(lesson, cells, name)
    assert notebook.status == status == "incorrect" and notebook.detail.startswith(TYPED), notebook
    assert "grader" not in notebook.detail and "reruns" not in notebook.detail, notebook.detail
    assert notebook.detail.count("right for these inputs only") == 1, notebook.detail
    said = "your cell gives the same value as with your own inputs, but"
    assert said in notebook.detail, notebook.detail


def test_4_a_typed_value_in_lesson_1_too():
    from solution_runner import run_solution, solution_parameters

    value = run_solution("01-toy-table", solution_parameters("01-toy-table"))["n_params"]
    notebook, (status, detail) = _notebook_and_grader("01-toy-table", {"n_params": f"n_params = {value}\n"},
                                                      "n_params")
    assert notebook.status == status == "incorrect" and notebook.detail.startswith(TYPED), notebook
    assert "grader" not in notebook.detail and notebook.detail.count("right for these inputs only") <= 1, notebook


def _markdown(folder: str) -> str:
    nb = json.loads((ROOT / folder / f"{LESSON}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


@pytest.mark.parametrize("folder", ["exercises", "solutions"])
def test_5_exercise_11_says_the_precision_as_the_job_does(folder):
    text = " ".join(_markdown(folder).split())
    assert "in the precision `weights`" in text.split("## Question 3")[1].split("## Question 4")[0], folder
    assert "(in `weights`)" not in text and "(in `kv`)" not in text, folder


@pytest.mark.parametrize("folder", ["exercises", "solutions"])
def test_5_the_introduction_says_once_how_questions_5_and_6_are_carried(folder):
    intro = " ".join(_markdown(folder).split("## The job")[0].split())
    assert "(for 6: question 2, since" not in intro, intro
    assert intro.count("error carried forward") == 1 and "judged on your own figure for" in intro, intro
