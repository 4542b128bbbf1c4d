"""A hint names a slip only when the slip explains the learner's value (issue 46).

Every candidate a number's hint sources give is exact on the book's inputs; the learner's cell on the
second looks (other parameters: the question built for each look, the learner's value there, the answer
there) weighs it (kinds.Question._support): a slip found again on a look is shown first; the whole value
times a unit or a percentage is shown only when the cell types that unit's constant or a look shows the
same factor; words that cannot be read never. Planted here: hints whose counterfactual fails, withheld;
and the six misleading hints a blind corpus saw, each by its kind.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io

import numpy as np
import pytest

from embedlab.grading import diagnose, explain, parts
from embedlab.grading.exercise import Exercise
from embedlab.grading.kinds import Array, Hint, Integer, Real, ratio
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.parts import Answer, Part, Prod, Sum
from embedlab.grading.status import INCORRECT

from hint_corpus import Wrong, check_wrong


def _with_looks(question, looks):
    """`question` judged with second looks: `looks` is [(question built for the look, learner's value there,
    the answer there)], reported as the kernel reports them (plain data, the look's index)."""
    table = {k: (q, {"look": k}, {}) for k, (q, _, _) in enumerate(looks)}
    kind = question.kind

    def data(v):
        return {"int": v} if kind == "integer" else {"real": float(v)}
    elsewhere = tuple({"kind": kind, "got": data(g), "want": data(w), "words": "with other parameters", "why": "",
                       "same": False, "look": k} for k, (_, g, w) in enumerate(looks))
    return dataclasses.replace(question, at_look=table.get, elsewhere=elsewhere)


# --------------------------------------------------------------------------
# Planted hints whose counterfactual fails


def _share(n_words: int):
    """A share question whose own hint reads ×100 as a percentage: with 100 words, a count of words is also
    100 × their share."""
    return Real("share", exact=True, hints=[ratio(100, "PLANTED: a percentage; give a fraction")])


def test_a_planted_hint_whose_factor_no_look_shows_is_withheld():
    share = 0.37
    book = _share(100)
    got = 37  # the count of 100 words: 100 × the share, by the book's inputs only
    assert "PLANTED" in book.judge({"real": got}, share).detail  # no look: the book's exact test alone
    look = _share(80)
    judged = _with_looks(book, [(look, 0.4 * 80, 0.4)])  # on 80 words the count is 80 × the share, not 100 ×
    detail = judged.judge({"real": got}, share).detail
    assert "PLANTED" not in detail and "percentage" not in detail, detail
    assert detail.startswith(diagnose.DIRECTION_ONLY), detail  # only what is measured: which way, how far
    shown = _with_looks(book, [(look, 0.4 * 100, 0.4)])  # a look where the value is 100 × the share too
    assert "PLANTED" in shown.judge({"real": got}, share).detail


def test_a_planted_hint_a_look_outranks_is_withheld():
    """Two slips exact on the book's inputs: the one a look finds again is shown, the other withheld."""
    def question(model, table, tied_total):
        return Integer("count", hints=[Hint(lambda g, w: g == tied_total, "PLANTED: that is the tied total")],
                       parts=lambda: Answer(Sum("the count", [Part("the model", model, can_drop=False),
                                                              Part("the table", table)])))
    book = question(700, 300, 700)  # the learner's 700: the tied total, and the count without the table, alike
    assert "PLANTED" in book.judge({"int": 700}, 1000).detail
    look = question(650, 500, 900)  # on the look the learner's 650 is 1150 − 500: the table left out, not 900
    detail = _with_looks(book, [(look, 650, 1150)]).judge({"int": 700}, 1000).detail
    assert "PLANTED" not in detail and "the table" in detail, detail


def test_a_code_reading_its_own_rule_refutes_is_withheld():
    """`needs` words the question's own hint also says: the hint's rule is the counterfactual. A cell that left
    the diagonal out another way (no `<`) and divided by n² is not told to leave the diagonal out."""
    n, mean = 10, 0.3
    words = "PLANTED: leave out each row's cosine with itself (the diagonal)"
    q = Real("never_cos", exact=True, needs={"<|>|triu": words},
             hints=[Hint(lambda got, want: np.isclose(got, (n + n * (n - 1) * want) / n ** 2), words)])
    q = dataclasses.replace(q, source="C = U @ U.T\nnever_cos = (C.sum() - np.trace(C)) / n**2\n")
    kept_in = (n + n * (n - 1) * mean) / n ** 2
    assert words in q.judge({"real": kept_in}, mean).detail  # the slip it names: shown
    detail = q.judge({"real": mean * (n - 1) / n}, mean).detail  # the diagonal out, the wrong denominator
    assert "PLANTED" not in detail, detail


def test_unreadable_words_are_never_shown():
    q = Integer("count", hints=[Hint(lambda g, w: g == 2 * w, "your count has no the table")])
    detail = q.judge({"int": 20}, 10).detail
    assert "has no the" not in detail, detail


# --------------------------------------------------------------------------
# The six misleading hints of the blind corpus, by kind


def test_a_zero_is_never_two_slips_of_a_tiny_candidate():
    tree = Answer(Prod("the cost", [Part("tokens", 3), Part("weights", 7)]))
    assert parts.search(tree, 0.0, 21) is None
    assert parts._close(0.0, 0.0) and not parts._close(0.0, 1e-13) and not parts._close(21, 22)


def _verdict(lesson, name, source, cell):
    """The notebook check's verdict of `source` as the learner's lines, the cell in IPython's history as `cell`."""
    entry = Wrong(lesson, name, source, "", (), ())
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(entry)
    ns["_ih"] = ["", cell]
    return Exercise(lesson).verdict(name, ns)


def test_the_given_random_draw_is_never_blamed_on_the_learner():
    given = ("E = np.random.default_rng(table_seed).standard_normal((table_V,\n"
             "                                                       table_d)).astype(np.float32)\n")
    mine = "rows_matmul = np.eye(table_V, dtype=np.float16)[ids] @ E.astype(np.float16)\n"
    for cell in (given + mine, given + "# YOUR CODE HERE\n" + mine):  # the marker deleted, or kept
        verdict = _verdict("02-lookup-vs-matmul", "rows_matmul", mine, cell)
        assert verdict.status == INCORRECT and "random" not in verdict.detail, verdict.detail
        assert "float16" in verdict.detail, verdict.detail
    draws = "rng = np.random.default_rng(1)\nrows_matmul = rng.standard_normal((len(ids), table_d))\n"
    verdict = _verdict("02-lookup-vs-matmul", "rows_matmul", draws, given + draws)
    assert "draws random numbers" in verdict.detail, verdict.detail


def test_a_precedence_slip_is_named_and_no_sign_is_blamed():
    from embedlab.params import count_params, load_config, model_shape

    lesson = "03-counting-gpt2"
    q = next(q for q in questions_for(lesson) if q.name == "estimate_gap")
    model = questions_module(lesson).DEFAULTS["gap_model"]
    s = model_shape(load_config(model))
    exact, V, d, L = count_params(load_config(model)).total, s.vocab_size, s.hidden_size, s.num_layers
    got = exact - (V * d + 12 * d ** 2) * L
    source = "exact = count_params(load_config(gap_model)).total\nestimate_gap = exact - (V*d + 12*d**2) * L\n"
    detail = dataclasses.replace(q, source=source).judge({"int": got}, load_key(lesson)["estimate_gap"]).detail
    assert "precedence" in detail and "sign" not in detail, detail
    assert "sign" not in diagnose.measured_hint(-5.0, 3.0).split(":")[1].split("recheck")[0]


def questions_module(lesson):
    import importlib

    return importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")


def test_scores_where_ids_are_asked_are_said_so_before_any_rule_on_order():
    q = Array("top7", exact=True, hints=[
        Hint(lambda got, want: np.asarray(got).shape == (7,) and not np.isin(got, want).any(),
             "PLANTED: sort highest first")])
    want = np.array([5, 9, 2, 11, 3, 0, 7])
    scores = {"hex": None}
    from embedlab.grading.values import array_to_data

    scores = array_to_data(np.linspace(0.9, 0.3, 7))
    detail = q.judge(scores, array_to_data(want)).detail
    # an Array that does not say it holds ids (Array._ids) is told what is measured: fractions where whole numbers
    # are asked (fix19a: "the ids, not the scores" only where the answer is known to hold ids); before the rule
    assert "PLANTED" not in detail and (("ids" in detail and "scores" in detail)
                                        or "fractions where the answer holds whole numbers" in detail), detail
    lowest = array_to_data(np.array([1, 4, 6, 8, 10, 12, 13]))
    assert "PLANTED" in q.judge(lowest, array_to_data(want)).detail  # ids, none of the highest: the rule holds


def test_a_ratio_given_for_a_difference_is_named():
    tree = Answer(Prod("the saving in GiB", [
        Sum("the saving", [Part("the full cache", 32), Prod("minus the grouped cache", [
            Part("minus", -1, can_drop=False, can_double=False), Part("the grouped cache", 8)])]),
        Part("per GiB", 1 / 2**30, can_drop=False, can_double=False)]), units=False)
    said = parts.search(tree, 4.0)
    assert said and "ratio" in said and "difference" in said, said


def test_a_division_exact_on_every_input_the_job_allows_is_told_apart_from_floor_division():
    """Lesson 11's D / T_train: every job's D is whole sequences (sizing.Budget refuses another), so no input
    parts / from //: the value's type does. A float where the solution's answer is an int is not accepted."""
    lesson = "11-size-a-model"
    floor = "design_train_flops = training_flops(design, T_train).total * (D // T_train)\n"
    true = "design_train_flops = training_flops(design, T_train).total * (D / T_train)\n"
    assert _verdict(lesson, "design_train_flops", floor, floor).status == "correct"
    verdict = _verdict(lesson, "design_train_flops", true, true)
    assert verdict.status == INCORRECT and "//" in verdict.detail, verdict.detail


def test_a_count_equal_to_its_percentage_on_the_book_is_not_called_a_percentage():
    """Lesson 08 audits n_top = 100 words: the count of single-token words is 100 × their share there. The
    ×100 words are withheld unless a look (n_top other than 100) shows the same factor."""
    lesson, name = "08-vocabulary-size", "hindi_single_token_share"
    count = f"{name} = sum(bpe.count_tokens(w) == 1 for w in top_hindi)\n"
    verdict = _verdict(lesson, name, count, count)
    assert verdict.status == INCORRECT and "percentage" not in verdict.detail, verdict.detail
    percent = f"{name} = 100 * sum(bpe.count_tokens(w) == 1 for w in top_hindi) / len(top_hindi)\n"
    verdict = _verdict(lesson, name, percent, percent)
    assert "percentage" in verdict.detail, verdict.detail


def test_a_function_argument_never_read_is_named():
    lesson, name = "07-memory", "kv_cache_gb"
    q = next(q for q in questions_for(lesson) if q.name == name)
    wrong = ("def kv_cache_gb(L, h_kv, head_dim, b, context, batch):\n"
             "    return 2 * L * head_dim * b * context * batch / 1e9\n")
    ns: dict = {}
    exec(wrong, ns)  # noqa: S102 - the test's own function
    from embedlab.grading.cases import rng_for
    from embedlab.grading.verdicts import evaluate

    verdict = evaluate(q, ns[name], None, q.cases(rng_for(lesson, name)), source=wrong)
    assert verdict.status == INCORRECT and "never reads its argument `h_kv`" in verdict.detail, verdict.detail


def test_lists_added_entry_by_entry_and_a_whole_array_reduced_are_named():
    close = lambda a, b: np.isclose(a, b)  # noqa: E731
    ids = np.array([3.0, 8.0, 1.0, 5.0])
    assert "entry by entry" in diagnose.array_hint(ids[:2] + ids[2:], ids, close)
    X = np.arange(12.0).reshape(4, 3) + 1
    rows = np.linalg.norm(X, axis=1)
    assert "whole array" in diagnose.array_hint(np.array(np.linalg.norm(X)), rows, close)
    assert "whole array" not in diagnose.array_hint(rows[::-1], rows, close)


def test_a_rule_of_thumb_or_another_field_read_for_a_config_field_is_named():
    from embedlab.params import load_config

    lesson = "04-modern-blocks"
    q = next(q for q in questions_for(lesson) if q.name == "mlp_layer")
    want = load_key(lesson)["mlp_layer"]
    c = load_config(questions_module(lesson).DEFAULTS["mlp_model"])
    d, dff = c["hidden_size"], c["intermediate_size"]
    given = ("from embedlab import load_config, model_shape\nshape = model_shape(load_config(mlp_model))\n"
             "d, d_ff = shape.hidden_size, shape.intermediate_size\n# YOUR CODE HERE\n")
    mine = "mlp_layer = 3 * shape.intermediate_size * d_ff\n"
    asked = dataclasses.replace(q, source=given + mine)
    undone = explain.slip_undone(asked, 3 * dff * dff, want)  # the field put right in the learner's expression
    assert any("`intermediate_size`" in w and "`hidden_size` belongs" in w for w in undone), undone
    detail = asked.judge({"int": 3 * dff * dff}, want).detail  # the parts' own words come first: d_ff for d
    assert "d_ff where d belongs" in detail or "`hidden_size` belongs" in detail, detail
    mine = "mlp_layer = 3 * d * int(8 * d / 3)\n"
    detail = dataclasses.replace(q, source=given + mine).judge({"int": 3 * d * int(8 * d / 3)}, want).detail
    assert "rule of thumb" in detail and "intermediate_size" in detail, detail


def test_a_division_without_its_denominators_parentheses_is_named_from_the_code():
    from embedlab.grading import explain

    for wrong in ("def cos(a, b):\n    na = np.sqrt((a ** 2).sum())\n    nb = np.sqrt((b ** 2).sum())\n"
                  "    return a @ b / na + nb\n",
                  "def cos(a, b):\n    return a @ b / np.linalg.norm(a) * np.linalg.norm(b)\n"):
        assert "precedence" in explain.precedence_slip(wrong), wrong
    for right in ("def cos(a, b):\n    return a @ b / (np.linalg.norm(a) * np.linalg.norm(b))\n",
                  "share = part / total * 100\n", "x = a / n + b / n\n"):
        assert explain.precedence_slip(right) is None, right


def test_an_either_or_of_one_input_is_parted_by_the_other_inputs():
    from embedlab.grading import function_hints

    either = "two slips give exactly your number: either the MLP has one matrix, or attention is missing"
    failures = [(0, "on input 1", either), (2, "on input 3", "the MLP has one matrix")]
    said = function_hints.most_telling(failures, explained=lambda k: {"the MLP has one matrix"} if k else
                                       {"the MLP has one matrix", "attention is missing"})
    assert "either" not in said and "the MLP has one matrix" in said, said


def test_a_size_used_for_another_is_named():
    from embedlab.grading import explain

    q = next(q for q in questions_for("08-vocabulary-size") if q.name == "hindi_single_token_share")
    p = questions_module("08-vocabulary-size").DEFAULTS
    said = explain.size_swapped(q, 0.31 * p["n_top"] / p["n_train"], 0.31)
    assert said and "`n_train` where `n_top` belongs" in said[0], said
    assert explain.size_swapped(q, 0.31 * 1.5, 0.31) == []


def test_rows_divided_by_the_whole_matrix_norm_are_named():
    from embedlab.grading.kinds import _whole_matrix_norm

    M = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [-1.0, 0.0]])
    mean = M[[0]].mean(axis=0)
    want = M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))
    got = M @ mean / (np.linalg.norm(M) * np.linalg.norm(mean))
    assert "axis=1" in _whole_matrix_norm(got, want, (M, [0]))
    assert _whole_matrix_norm(want[::-1], want, (M, [0])) == ""


def test_the_hint_for_one_training_sequence_leads_to_an_accepted_answer():
    """A learner who prices one sequence is told what to multiply by; doing what the hint says is then right
    (a newcomer followed "D / T_train" and was refused: a float where an int is asked)."""
    lesson, name = "11-size-a-model", "design_train_flops"
    one = f"{name} = training_flops(design, T_train).total\n"
    verdict = _verdict(lesson, name, one, one)
    assert verdict.status == INCORRECT and "D // T_train" in verdict.detail, verdict.detail
    followed = f"{name} = training_flops(design, T_train).total * (D // T_train)\n"
    assert _verdict(lesson, name, followed, followed).status == "correct"


@pytest.mark.parametrize("lesson", ["12-change-a-vocabulary", "10-glitch-tokens"])
def test_a_slip_that_says_what_the_value_is_is_not_said_beside_another_slip(lesson):
    """'that is the padded size' is true of one slip alone (the rows owned not subtracted); an answer of 0 is
    both parts left out, and there the words would be false: each slip is said in its plain words instead."""
    from hint_corpus import check_wrong

    name = "padding_rows"
    cell = check_wrong.exercise_prelude(lesson, name) + "# YOUR CODE HERE\n" + f"{name} = 0\n"
    verdict = _verdict(lesson, name, f"{name} = 0\n", cell)
    assert verdict.status == INCORRECT and "that is the padded size" not in verdict.detail, verdict.detail
