"""Newcomer 11's misblaming hints (issue 46 via issue 48), fixed by kind and planted as new
instances on other questions than the report's rows:

a. "right for these inputs only … compute it from the inputs the question names" (a
   hard-coding story) is said only of lines that give the same value on the other inputs
   (typed); lines that compute, and give another value there, hear what was measured.
b. A word an answer gives that is none of the words the question allows is named as
   such (a label slip), on the book's inputs (a Choice with options) and on a second look
   (question 5's dict key), never as a raw-amount or hard-coding story.
c. An answer picked from a dict the cell writes out (`max(used, key=used.get)`) that
   lacks one of the allowed words can never be that word: said so, never as comparing
   raw amounts.
d. A number quoted from a rerun that held an earlier answer at another value than the
   learner's own (error carried forward) is said relative to that answer, never as the
   learner's lines' number.
e. A key set on a copy of the design that the design does not have (a config key
   misspelt) is named, where the answer is the design's own count: the key changes
   nothing (count_params never reads it).

Each planted test was red on this branch's base (8f1f7d1); the near misses keep their
stories on both.
"""

from __future__ import annotations

import contextlib
import io

from embedlab.grading import kinds
from embedlab.grading.exercise import Exercise
from embedlab.grading.lessons import questions_for
from embedlab.grading.text import hint_problems
from solution_runner import incorrect_detail

L11 = "11-size-a-model"
HARD_CODING = "compute it from the inputs the question names"
RAW = "raw number"


def _picked(used: str) -> str:
    return f"used = {{{used}}}\ntightest_budget = max(used, key=used.get)\n"


# --------------------------------------------------------------------------
# a. the hard-coding story only where the value is typed


def test_a_computed_lines_are_not_told_to_compute_it():
    q = {x.name: x for x in questions_for("03-counting-gpt2")}["block_params"]
    q.source = "d = cfg['n_embd']\nblock_params = 12 * d * d + 13 * d\n"
    case = {"kind": "integer", "got": {"int": 7_087_872}, "want": {"int": 7_087_873},
            "words": "with other parameters (`model` = 'gpt2-medium')", "why": "", "same": False}
    said = kinds._elsewhere_case(q, case)
    assert said and HARD_CODING not in said.lower(), said
    assert "7,087,872" in said and "7,087,873" in said, said
    assert not hint_problems(said), said


def test_a_typed_lines_keep_the_story():
    q = {x.name: x for x in questions_for("03-counting-gpt2")}["block_params"]
    q.source = "block_params = 7_087_872\n"
    case = {"kind": "integer", "got": {"int": 7_087_872}, "want": {"int": 7_087_873},
            "words": "with other parameters (`model` = 'gpt2-medium')", "why": "", "same": True}
    said = kinds._elsewhere_case(q, case)
    assert HARD_CODING in said.lower(), said


def test_a_question_5_typed_keeps_typed():
    detail = incorrect_detail(L11, "tightest_budget", 'tightest_budget = "compute"\n')
    assert detail.startswith("typed, not computed"), detail


# --------------------------------------------------------------------------
# b. a word that is none of the allowed ones


def test_b_a_dict_key_not_allowed_is_named_on_a_case():
    # memory misspelt (the report's row misspelt parameters): "mem" comes out where memory binds
    detail = incorrect_detail(L11, "tightest_budget", _picked(
        '"parameters": design_params / BUDGET.max_params, '
        '"mem": design_serving_gb / BUDGET.max_serving_gb, '
        '"compute": design_train_flops / BUDGET.max_train_flops'))
    assert "'mem'" in detail and "not one of" in detail, detail
    for word in ("'parameters'", "'memory'", "'compute'"):
        assert word in detail, detail
    assert RAW not in detail and HARD_CODING not in detail.lower(), detail


def test_b_the_reports_row_names_the_key():
    detail = incorrect_detail(L11, "tightest_budget", _picked(
        '"params": design_params / BUDGET.max_params, '
        '"memory": design_serving_gb / BUDGET.max_serving_gb, '
        '"compute": design_train_flops / BUDGET.max_train_flops'))
    assert "'params'" in detail and "not one of" in detail, detail
    assert HARD_CODING not in detail.lower(), detail


def test_b_a_choice_word_not_allowed_on_the_books_inputs():
    detail = incorrect_detail("09-what-rows-learn", "rotation_changes_cosines",
                              'rotation_changes_cosines = "nope"\n')
    assert "'nope'" in detail and "not one of" in detail, detail
    assert "yes" in detail and "no" in detail, detail


def test_b_near_miss_an_allowed_wrong_word_keeps_its_hint():
    detail = incorrect_detail("09-what-rows-learn", "rotation_changes_cosines",
                              'rotation_changes_cosines = "yes"\n')
    assert "np.allclose" in detail and "not one of" not in detail, detail


# --------------------------------------------------------------------------
# c. a dict the answer is picked from lacks an allowed word


def test_c_memory_left_out_is_named_not_raw_amounts():
    detail = incorrect_detail(L11, "tightest_budget", _picked(
        '"parameters": design_params / BUDGET.max_params, '
        '"compute": design_train_flops / BUDGET.max_train_flops'))
    assert "'memory'" in detail and "`used`" in detail, detail
    assert RAW not in detail and HARD_CODING not in detail.lower(), detail


def test_c_the_reports_row_parameters_left_out():
    detail = incorrect_detail(L11, "tightest_budget", _picked(
        '"memory": design_serving_gb / BUDGET.max_serving_gb, '
        '"compute": design_train_flops / BUDGET.max_train_flops'))
    assert "'parameters'" in detail and "`used`" in detail, detail
    assert HARD_CODING not in detail.lower(), detail


def test_c_near_miss_raw_amounts_keep_the_raw_story():
    detail = incorrect_detail(L11, "tightest_budget", _picked(
        '"parameters": design_params, "memory": design_serving_gb, '
        '"compute": design_train_flops'))
    assert RAW in detail or "raw" in detail, detail


# --------------------------------------------------------------------------
# d. a number of a rerun that held an earlier answer at another value than the learner's


def _q6_after_q2(q2: str, q6: str) -> str:
    from hint_corpus import Wrong, check_wrong

    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(Wrong(L11, "design_params", q2, "", (), ()))
        exec(compile(q6, "<cell>", "exec"), ns)  # noqa: S102 - the test's own line
    ns["_ih"] = ["", q2, q6]
    verdict = Exercise(L11).verdict("other_tying_params", ns)
    assert verdict.status == "incorrect", verdict
    assert not hint_problems(verdict.detail), verdict.detail
    return verdict.detail


def test_d_a_carried_count_is_never_quoted_from_the_recount():
    # question 2 one parameter too many (the report's was .non_embedding), question 6 always adds V·d
    detail = _q6_after_q2("design_params = count_params(design).total + 1\n",
                          "V, d = design['vocab_size'], design['hidden_size']\n"
                          "other_tying_params = design_params + V * d\n")
    recount_untied = 521_729_024  # the untied design's count, not the learner's design_params there
    assert f"{recount_untied + 32_768_000:,}" not in detail, detail
    assert "`design_params` + 32,768,000" in detail, detail
    assert "`design_params` - 32,768,000" in detail, detail


def test_d_near_miss_with_a_right_question_2_the_number_is_quoted():
    detail = _q6_after_q2("design_params = count_params(design).total\n",
                          "V, d = design['vocab_size'], design['hidden_size']\n"
                          "other_tying_params = design_params + V * d\n")
    assert "554,497,024" in detail, detail


# --------------------------------------------------------------------------
# e. a config key the design does not have


def test_e_a_misspelt_tying_key_is_named():
    detail = incorrect_detail(L11, "other_tying_params",
                              "other_tying_params = count_params({**design, 'tie_embeddings': "
                              "not design['tie_word_embeddings']}).total\n")
    assert "'tie_embeddings'" in detail and "tie_word_embeddings" in detail, detail
    assert "not a key of `design`" in detail, detail


def test_e_dict_call_with_a_keyword_not_a_key():
    detail = incorrect_detail(L11, "other_tying_params",
                              "other_tying_params = count_params(dict(design, tied=False)).total\n")
    assert "'tied'" in detail and "not a key of `design`" in detail, detail


def test_e_near_miss_no_flip_keeps_its_hint():
    detail = incorrect_detail(L11, "other_tying_params",
                              "other_tying_params = count_params(design).total\n")
    assert "that is your design as it is" in detail and "not a key" not in detail, detail


def test_e_a_config_keyword_misspelt_in_another_lesson_is_proven_by_its_edit():
    # lesson 12: dict(config, vocab=rows) leaves the vocabulary as it was; was told "0 means the new
    # ids all fit in spare rows …", a story of the table, not of the key
    detail = incorrect_detail("12-change-a-vocabulary", "added_params",
                              "rows = max(V, n_tok + n_new)\nconfig = load_config(vocab_model)\n"
                              "before = count_params(config).total\n"
                              "added_params = count_params(dict(config, vocab=rows)).total - before\n")
    assert "`vocab`" in detail and "vocab_size" in detail, detail
    assert "spare rows" not in detail, detail


def test_e_near_miss_a_right_key_with_a_wrong_value_keeps_its_story():
    detail = incorrect_detail("12-change-a-vocabulary", "added_params",
                              "config = load_config(vocab_model)\n"
                              "before = count_params(config).total\n"
                              "added_params = count_params(dict(config, vocab_size=n_tok + n_new))"
                              ".total - before - 1\n")
    assert "not a key" not in detail, detail
