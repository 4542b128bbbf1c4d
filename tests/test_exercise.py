"""Question kinds, hints, the encoded answer key and the notebook-side check (embedlab.grading)."""

import json

import numpy as np
import pytest

from embedlab.grading.exercise import Exercise, evaluate
from embedlab.grading.kinds import MISSING, Array, Choice, Function, Integer, Real, WrongForm, offset, ratio
from embedlab.grading.lessons import decode_key, encode_key, key_path, questions_for
from embedlab.grading.status import CORRECT, INCORRECT, NOT_ATTEMPTED
from embedlab.grading.values import decode_value, encode_value
from embedlab.vectors import cosine_similarity


def judged(question, value, expected):
    return evaluate(question, value, expected)


# --------------------------------------------------------------------------
# Kinds


def test_integer_exact_and_its_hints():
    q = Integer("n", hints=[ratio(2, "counted the head"), offset(-5, "added instead of multiplied")])
    assert judged(q, 12, 12).status == CORRECT
    assert judged(q, np.int64(12), 12).status == CORRECT
    assert judged(q, 24, 12).detail == "counted the head"
    assert judged(q, 7, 12).detail == "added instead of multiplied"
    assert "as an int" in judged(q, 12.0, 12).detail  # right value, wrong type
    assert judged(q, True, 1).status == INCORRECT  # a bool is not a count
    assert "whole number" in judged(q, "12", 12).detail


def test_generic_number_hints_do_not_give_the_value_away():
    q = Integer("n")
    for got, word in ((24, "twice"), (6, "half"), (12_000, "power of 1,000"), (-12, "sign")):
        detail = judged(q, got, 12).detail
        assert word in detail and "12" not in detail.replace("1,000", "")


def test_real_tolerance_and_non_finite():
    q = Real("x", rtol=1e-9)
    assert judged(q, 0.1 + 0.2, 0.3).status == CORRECT
    assert judged(q, 0.3001, 0.3).status == INCORRECT
    assert "not finite" in judged(q, float("nan"), 0.3).detail
    assert "expected a number" in judged(q, [0.3], 0.3).detail


def test_array_shape_then_values():
    want = Array("E").to_data(np.arange(6).reshape(3, 2))
    q = Array("E", exact=True)
    assert judged(q, np.arange(6).reshape(3, 2), want).status == CORRECT
    assert judged(q, [[0, 1], [2, 3], [4, 5]], want).status == CORRECT  # a nested list is fine
    assert "wrong shape: yours is (2, 3), expected (3, 2)" == judged(q, np.arange(6).reshape(2, 3), want).detail
    assert "twice" in judged(q, 2 * np.arange(6).reshape(3, 2), want).detail
    assert "1 of 6 values differ" in judged(q, np.array([[0, 1], [2, 3], [4, 6]]), want).detail
    assert judged(q, np.array([["a", "b"]] * 3), want).status == INCORRECT
    with pytest.raises(WrongForm):
        q.to_data({"not": "an array"})


def test_array_tolerance_unless_exact():
    want = Array("v").to_data(np.array([1.0, 2.0]))
    assert judged(Array("v"), np.array([1.0, 2.0 + 1e-12]), want).status == CORRECT
    assert judged(Array("v", exact=True), np.array([1.0, 2.0 + 1e-12]), want).status == INCORRECT


def test_choice_ignores_case_and_spaces():
    q = Choice("tied")
    assert judged(q, "  Yes ", "yes").status == CORRECT
    assert judged(q, "no", "yes").status == INCORRECT
    assert judged(q, 1, "yes").status == INCORRECT


def pairs(rng):
    return [(rng.normal(size=3), rng.normal(size=3)) for _ in range(4)]


def test_function_checked_case_by_case():
    q = Function("cosine", reference=cosine_similarity, cases=pairs, result=Real("cosine", rtol=1e-9))
    cases = pairs(np.random.default_rng(1))
    assert evaluate(q, cosine_similarity, None, cases).status == CORRECT
    wrong = evaluate(q, lambda a, b: float(a @ b), None, cases)
    assert wrong.status == INCORRECT and wrong.detail.startswith("on input 1 of 4")

    def stub(a, b):
        raise NotImplementedError()

    assert evaluate(q, stub, None, cases).status == NOT_ATTEMPTED
    assert "raised ZeroDivisionError" in evaluate(q, lambda a, b: 1 / 0, None, cases).detail
    assert "expected a function" in evaluate(q, 3, None, cases).detail


def test_function_gets_copies_of_its_inputs():
    q = Function("f", reference=lambda a: a.sum(), cases=lambda rng: [(np.ones(3),)], result=Real("f"))

    def mutating(a):
        a[:] = 0
        return 3.0

    cases = q.cases(None)
    evaluate(q, mutating, None, cases)
    assert cases[0][0].tolist() == [1.0, 1.0, 1.0]


def test_missing_and_ellipsis_are_not_attempted():
    assert evaluate(Integer("n"), MISSING, 12).status == NOT_ATTEMPTED
    assert evaluate(Integer("n"), ..., 12).status == NOT_ATTEMPTED


# --------------------------------------------------------------------------
# Key and data transport


def test_key_round_trip_is_deterministic_and_not_plain_text():
    values = {"model_table": 38_597_376, "name": "tied", "x": 0.1}
    text = encode_key(values)
    assert decode_key(text) == values
    assert encode_key(dict(reversed(values.items()))) == text
    assert "38597376" not in text and "tied" not in text


def test_committed_keys_decode():
    for q in questions_for("01-toy-table"):
        if not isinstance(q, Function):
            assert q.name in decode_key(key_path("01-toy-table").read_text())


def test_values_travel_as_json_bit_for_bit():
    value = [(np.array([0.1, -0.0, np.inf]), np.arange(4).reshape(2, 2), np.array([True, False]), 7, 0.1, "s")]
    back = decode_value(json.loads(json.dumps(encode_value(value))))
    arr, ints, bools, n, x, s = back[0]
    assert arr.tobytes() == np.array([0.1, -0.0, np.inf]).tobytes()
    assert ints.dtype == np.int64 and ints.tolist() == [[0, 1], [2, 3]]
    assert bools.dtype == bool and (n, x, s) == (7, 0.1, "s")
    with pytest.raises(ValueError, match="value must be"):
        encode_value({1, 2})


def test_questions_for_names_the_bad_lesson():
    with pytest.raises(ValueError, match="lesson='toy'"):
        questions_for("toy")
    with pytest.raises(ValueError, match="no questions"):
        questions_for("99-nothing")


# --------------------------------------------------------------------------
# The notebook-side check


def solved_namespace():
    return {
        "E": np.array([[0, 1, 1], [0, 1, 1], [0, 1, 0], [1, 0, 0]]),
        "n_params": 12,
        "batch": np.array([[0, 1, 0], [0, 1, 1], [0, 1, 0]]),
        "cosine": cosine_similarity,
        "cos_pair": cosine_similarity([0, 1, 0], [0, 1, 1]),
        "model_table": 50_257 * 768,
        "extra_dim_cost": 50_257 * 16,
    }


def test_check_prints_one_line_and_never_raises(capsys):
    ex = Exercise("01-toy-table")
    ex.check("n_params", {"n_params": 12})
    ex.check("n_params", {"n_params": 13})
    ex.check("n_params", {})
    ex.check("no_such_question", {})
    ex.check("E", {"E": object()})
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "✅ n_params: correct"
    assert lines[1].startswith("❌ n_params: not yet — ")
    assert lines[2].startswith("⏳ n_params: not attempted yet")
    assert lines[3].startswith("❌ no_such_question")
    assert lines[4].startswith("❌ E: not yet — ")


def test_check_finds_the_answer_in_the_callers_globals(capsys):
    n_params = 12  # noqa: F841 - a local is not what a notebook cell defines
    Exercise("01-toy-table").check("n_params")
    assert capsys.readouterr().out.startswith("⏳")  # this module has no global n_params


def test_summary_adds_up(capsys):
    ex = Exercise("01-toy-table")
    ex.summary(solved_namespace())
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"7 / {ex.total():g} points" and all(line.startswith("✅") for line in out[:-1])
    ex.summary({})
    assert capsys.readouterr().out.splitlines()[-1] == "0 / 7 points"
