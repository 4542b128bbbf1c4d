"""Issue 46's kinds, as the newcomer of report 08 met them, planted on other questions and lessons.

1. An edited parameters cell: a parameter the question reads holds another value than the one
   handed out, and the learner computed correctly from it. The hint says which parameter, its
   value and the handed-out one, and to put it back, before any story; where the answer is not
   right for the changed value either, the change and no story built on the handed-out values.
   The notebook's check and the grader say the same words (embedlab.grading.changed).
"""

from __future__ import annotations

import contextlib
import io

import pytest

from embedlab.grading.exercise import Exercise
from embedlab.grading.text import hint_problems
from hint_corpus import check_wrong
from solution_runner import grader_scoring, run_solution, solution_parameters


def _changed_run(lesson: str, name: str, changes: dict, source: str, scratch: bool = False):
    """(namespace, source): the solution run with `changes` in its parameters cell (or, with
    `scratch`, with the book's there and `changes` set again in a cell of the learner's own), then
    `source` in the answer cell, as a learner's kernel holds it."""
    params = solution_parameters(lesson)
    with contextlib.redirect_stdout(io.StringIO()):
        ns = run_solution(lesson, params if scratch else {**params, **changes})
    ns.pop(name, None)
    if scratch:
        ns.update(changes)
    prelude = check_wrong.exercise_prelude(lesson, name)  # the answer cell's given lines, as handed out
    source = (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source
    exec(compile(source, "<answer>", "exec"), ns)  # noqa: S102 - the test's own lines
    ns["_ih"] = ["", source]
    return ns, source


def _both(lesson, name, changes, source, scratch=False):
    """The check's detail and the grader's, which must be the same words (and say incorrect)."""
    ns, source = _changed_run(lesson, name, changes, source, scratch)
    verdict = Exercise(lesson).verdict(name, ns)
    status, detail = grader_scoring(lesson, name, ns, source)
    assert verdict.status == status == "incorrect", (verdict, status, detail)
    assert verdict.detail == detail, (verdict.detail, detail)
    assert not hint_problems(detail), detail
    return detail


@pytest.mark.parametrize("lesson, name, changes, source, scratch", [
    # the newcomer's own (lesson 08, question 1), planted in a scratch cell this time
    ("08-vocabulary-size", "extra_head_flops", {"V_small": 64_000},
     "extra_head_flops = 2 * d * (V_big - V_small)\n", True),
    # new instances: other lessons and questions, the parameters cell edited
    ("03-counting-gpt2", "linear_params", {"linear_in": 2048},
     "linear_params = linear_in * linear_out + linear_out\n", False),
    ("03-counting-gpt2", "interview", {"interview_d": 1024},
     "interview = interview_V * interview_d\n", False),
    ("02-lookup-vs-matmul", "batch_flops", {"n_tokens": 2048},
     "batch_flops = 2 * V * d * n_tokens\n", True),
    ("07-memory", "kv_bytes_per_token", {"cache_precision": "fp32"},
     "kv_bytes_per_token = 2 * L * h_kv * head_dim * 4\n", False),
])
def test_1_right_for_the_changed_parameter_is_told_so_first(lesson, name, changes, source, scratch):
    detail = _both(lesson, name, changes, source, scratch)
    (param, value), = changes.items()
    handed = solution_parameters(lesson)[param]

    def said(v):
        return f"{v:_}" if isinstance(v, int) else repr(v)
    assert detail.lower().startswith("your notebook holds"), detail
    assert f"`{param}` = {said(value)}" in detail and f"`{param}` = {said(handed)}" in detail, detail
    assert "right for that value" in detail and "Put it back" in detail, detail
    # no story built on the handed-out values
    for story in ("factor", "twice", "half", "too small", "too big", "by hand", "keys and values"):
        assert story not in detail, (story, detail)


def test_1_not_right_for_the_changed_value_either_says_the_change_and_no_story():
    # 2·V·d where V·d is asked, with an edited interview_d: wrong on either value
    detail = _both("03-counting-gpt2", "interview", {"interview_d": 1024},
                   "interview = 2 * interview_V * interview_d\n")
    assert detail.lower().startswith("your notebook holds `interview_d` = 1_024, not the `interview_d` = 768"), detail
    assert "not right for that value either" in detail, detail
    for story in ("twice", "factor", "double"):
        assert story not in detail, (story, detail)


def test_1_a_parameter_the_question_never_reads_is_not_named():
    # question 1 of lesson 03 reads linear_in and linear_out only: interview_d changed is not its business,
    # and its own slip (the bias left out) keeps its story
    detail = _both("03-counting-gpt2", "linear_params", {"interview_d": 1024},
                   "linear_params = linear_in * linear_out\n")
    assert "interview_d" not in detail and "notebook holds" not in detail, detail
    assert "bias" in detail, detail


def test_1_unchanged_parameters_keep_the_story():
    # near-miss: the parameters as handed out, a real slip: its own hint, no word of parameters
    detail = _both("08-vocabulary-size", "embedding_params", {}, "embedding_params = 2 * V_big * d\n")
    assert "tied" in detail and "notebook holds" not in detail, detail


def test_1_a_parameter_set_in_the_answer_cell_keeps_its_own_hint():
    # near-miss: the answer cell sets V_big itself: the hint that says so stands
    detail = _both("08-vocabulary-size", "embedding_params", {},
                   "V_big = 128_000\nembedding_params = V_big * d\n")
    assert "by hand" in detail and "notebook holds" not in detail, detail


def test_1_keys_and_values_only_where_the_question_has_them():
    from embedlab.grading import diagnose
    from embedlab.grading.lessons import questions_for

    # a parameter count of an embedding table or a padding, halved: no keys and values to leave out
    for lesson, name in (("08-vocabulary-size", "embedding_params"), ("04-modern-blocks", "padding_params"),
                         ("12-change-a-vocabulary", "added_params")):
        q = {q.name: q for q in questions_for(lesson)}[name]
        said = diagnose.number_hint(1000.0, 2000.0, unit=q.unit_of(), name=name)
        assert said.startswith("half the expected value") and "keys and values" not in said, said
        assert "keys and values" not in q.described(), name
        assert hint_problems("half the expected value: a factor 2 left out (keys and values?)",
                             grants=q.described()), name
    # where they are (an attention layer, a cache), still said and granted
    attn = {q.name: q for q in questions_for("04-modern-blocks")}["attn_layer"]
    assert "keys and values" in diagnose.number_hint(1000.0, 2000.0, unit=attn.unit_of(), name="attn_layer")
    assert "keys and values" in attn.described()
