"""Question kinds, hints, the encoded answer key and the notebook-side check (embedlab.grading)."""

import json

import re

import numpy as np
import pytest

from embedlab.grading.exercise import Exercise, evaluate
from embedlab.grading.kinds import MISSING, Array, Choice, Function, Hint, Integer, Real, WrongForm, offset, ratio
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
    for got, word in ((24, "twice"), (6, "half"), (12_000, "1,000 times"), (-12, "sign"), (96, "8 times"),
                      (1_200, "100 times"), (3, "a quarter")):
        detail = judged(q, got, 12).detail
        assert word in detail and "12" not in detail.replace("1,000", "").replace("1,200", ""), detail


def test_real_tolerance_and_non_finite():
    q = Real("x", exact=True)
    assert judged(q, 0.1 + 0.2, 0.3).status == CORRECT
    assert judged(q, 0.3001, 0.3).status == INCORRECT
    assert "not finite" in judged(q, float("nan"), 0.3).detail
    assert "expected a number" in judged(q, [0.3], 0.3).detail


def test_real_judges_exactly_its_stated_precision():
    three = Real("x", sig=3)
    assert three.statement() == "judged to 3 significant figures"
    assert judged(three, 0.290, 0.29025).status == CORRECT          # the value to 3 figures
    assert judged(three, 0.2904999, 0.29025).status == CORRECT      # within half a unit of the 3rd
    assert judged(three, 0.2906, 0.29025).status == CORRECT          # off by 0.00035: within 0.0005
    assert judged(three, 0.2908, 0.29025).status == INCORRECT
    assert judged(three, 0.29, 0.29025).status == CORRECT
    exact = Real("x", exact=True)
    assert "the check wants it exact" in exact.statement()
    assert judged(exact, 0.29025 * (1 + 1e-10), 0.29025).status == CORRECT
    assert judged(exact, 0.29025 * (1 + 1e-8), 0.29025).status == INCORRECT
    assert Real("x", rtol=1e-9).exact and Real("x", rtol=1e-6).sig == 6  # the older spelling
    with pytest.raises(ValueError, match="sig"):
        Real("x", sig=0)
    with pytest.raises(ValueError, match="not both"):
        Real("x", sig=3, exact=True)


def test_a_rounded_number_is_told_to_compute_not_blamed_for_a_term():
    q = Real("share", exact=True)
    want = 0.2902520654116818
    assert judged(q, 0.2903, want).detail == "right to 4 digits: compute it rather than typing a rounded number"
    assert judged(q, 0.29, want).detail.startswith("right to 2 digits")
    assert "percentage" in judged(q, 29.03, want).detail
    assert "right to 3 digits" in judged(Integer("n"), 38_600_000, 38_597_376).detail
    assert "float32" in judged(q, float(np.float32(want)), want).detail  # computed, not typed: no "term left out"


def test_direction_words_differ():
    q = Real("x", exact=True)
    small, big = judged(q, 0.99 * 7.3, 7.3).detail, judged(q, 1.01 * 7.3, 7.3).detail
    assert "too small" in small and "below the expected value" in small  # which way and how far, no cause
    assert "too big" in big and "above the expected value" in big
    assert "far too big" in judged(q, 37 * 7.3, 7.3).detail and "far too small" in judged(q, 7.3 / 37, 7.3).detail
    assert judged(q, 3 * 7.3, 7.3).detail.startswith("too big") and judged(q, 7.3 / 3, 7.3).detail.startswith("too small")


def test_ratios_and_inverses_are_named():
    q = Real("x", exact=True)
    want = 4.015130624
    for factor, words in ((8, "bits"), (1 / 8, "eighth"), (1e9, "bytes where GB"), (1e-12, "TFLOP/s"),
                          (2**30 / 1e9, "GB (10**9 bytes) where GiB"), (1e9 / 2**30, "GiB (2**30 bytes) where GB"),
                          (3600, "seconds where hours"), (1024, "1,024 times"), (-1, "sign")):
        assert words in judged(q, factor * want, want).detail, (factor, judged(q, factor * want, want).detail)
    layers = Integer("n", factors={"L": 28}, factor_hints={"/L": "one layer"})
    assert judged(layers, 2048, 28 * 2048).detail == "one layer"
    assert "L (= 28) times" in judged(layers, 28 * 28 * 2048, 28 * 2048).detail


def test_integer_given_as_a_float_with_a_fraction():
    q = Integer("n")
    assert "//" in judged(q, 59.47, 59).detail
    assert "whole number" in judged(q, "59", 59).detail


def test_array_shape_then_values():
    want = Array("E").to_data(np.arange(6).reshape(3, 2))
    q = Array("E", exact=True)
    assert judged(q, np.arange(6).reshape(3, 2), want).status == CORRECT
    assert judged(q, [[0, 1], [2, 3], [4, 5]], want).status == CORRECT  # a nested list is fine
    assert judged(q, np.arange(6).reshape(2, 3), want).detail == "transposed: yours is (2, 3), the expected shape is (3, 2)"
    assert "one row too many" in judged(q, np.arange(8).reshape(4, 2), want).detail
    assert "wrong number of dimensions" in judged(q, np.arange(6), want).detail
    assert "twice" in judged(q, 2 * np.arange(6).reshape(3, 2), want).detail
    assert "sign" in judged(q, -np.arange(6).reshape(3, 2), want).detail
    assert "reverse order" in judged(q, np.arange(6).reshape(3, 2)[::-1], want).detail
    assert "shifted by one row" in judged(q, np.array([[0, 1], [0, 1], [2, 3]]), want).detail
    detail = judged(q, np.array([[0, 1], [2, 3], [4, 6]]), want).detail
    assert ("1 of 3 rows differ: row 2 differs (counting from 0), yours (4, 6) where (4, 5) is expected; there yours "
            "are too big") == detail.split("right shape, but ")[1]
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
    q = Function("cosine", reference=cosine_similarity, cases=pairs, result=Real("cosine", exact=True))
    cases = pairs(np.random.default_rng(1))
    assert evaluate(q, cosine_similarity, None, cases).status == CORRECT
    wrong = evaluate(q, lambda a, b: float(a @ b), None, cases)
    found = re.match(r"on input (\d) of 4, cosine\(np\.array\(\[", wrong.detail)
    assert wrong.status == INCORRECT and found, wrong.detail
    # the input the hint names is one the function gets wrong (the most telling failing one, not the first)
    a, b = cases[int(found[1]) - 1]
    assert not np.isclose(float(a @ b), cosine_similarity(a, b))

    def stub(a, b):
        raise NotImplementedError()

    assert evaluate(q, stub, None, cases).status == NOT_ATTEMPTED
    assert "raised ZeroDivisionError" in evaluate(q, lambda a, b: 1 / 0, None, cases).detail
    assert "expected a function" in evaluate(q, 3, None, cases).detail


def test_function_hint_shows_the_call_compactly_never_the_expected_output():
    q = Function("cosine", reference=cosine_similarity, cases=lambda rng: [(np.array([2.0, 2.0]), np.array([1.0, 1.0]))],
                 result=Real("cosine", exact=True))
    detail = evaluate(q, lambda a, b: 2 * cosine_similarity(a, b), None, q.cases(None)).detail
    assert detail == ("on input 1 of 1, cosine(np.array([2.0, 2.0]), np.array([1.0, 1.0])) returned 2: "
                      "twice the expected value: something counted twice?")
    big = Function("total", reference=lambda a: float(a.sum()), cases=lambda rng: [(np.arange(600.0).reshape(50, 12),)],
                   result=Real("total", exact=True))
    detail = evaluate(big, lambda a: float(a.sum()) + 1, None, big.cases(None)).detail
    assert "total(array(50×12 float64: 0, 1, 2, …)) returned" in detail and "179700" not in detail


def test_function_hints_read_the_call_and_its_factors():
    def cache(L, batch):
        return 2.0 * L * batch

    q = Function("cache", reference=cache, cases=lambda rng: [(3, 5), (4, 7)], result=Real("cache", exact=True),
                 factor_hints={"/batch": "that is one sequence"})
    assert evaluate(q, lambda L, batch: 2.0 * L, None, q.cases(None)).detail.endswith("that is one sequence")
    assert "divided by L (= 3)" in evaluate(q, lambda L, batch: 2.0 * batch, None, q.cases(None)).detail
    own = Function("cache", reference=cache, cases=lambda rng: [(3, 5)], result=Real("cache", exact=True, hints=[
        Hint(lambda got, want, L, batch: got == 2.0 * L * batch + L, "an extra L", args=True)]))
    assert evaluate(own, lambda L, batch: 2.0 * L * batch + L, None, own.cases(None)).detail.endswith("an extra L")


def test_function_hint_is_the_one_that_fits_most_inputs():
    """1.0 is both 1.07 floored and 1.07 GB read as GiB: the other inputs tell them apart."""
    def gb(n):
        return n * 1.073741824

    hints = [Hint(lambda got, want: got != want and got == int(want), "floored"), ratio(1e9 / 2**30, "GiB")]
    q = Function("gb", reference=gb, cases=lambda rng: [(1,), (0.5,), (2.5,)], result=Real("gb", exact=True, hints=hints))
    assert evaluate(q, lambda n: float(n), None, q.cases(None)).detail == "on input 2 of 3, gb(0.5) returned 0.5: GiB"
    assert evaluate(q, lambda n: float(gb(n) // 1), None, q.cases(None)).detail.endswith("floored")



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


def test_word_counts_travel_as_json_in_order():
    # a function question's argument may be a dict of word -> count (lesson 08's merge loop): its keys,
    # values and order come back as they went
    counts = {"के": 3, "the": 2_000_000_000_000, "ab": 1}
    back = decode_value(json.loads(json.dumps(encode_value([counts, 5]))))
    assert back == [counts, 5] and list(back[0]) == list(counts)
    assert all(type(v) is int for v in back[0].values())


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
        "batch": np.array([[0, 1, 0], [0, 1, 1], [0, 1, 0], [0, 1, 1]]),  # the book's sentence: horse cat horse dog
        "cosine": cosine_similarity,
        "cos_pair": cosine_similarity([0, 1, 0], [0, 1, 1]),
        "model_table": 50_257 * 768,
        "extra_dim_cost": 50_257 * 16,
    }


def test_check_prints_one_entry_and_never_raises(capsys):
    ex = Exercise("01-toy-table")
    ex.check("n_params", {"n_params": 12})
    ex.check("n_params", {"n_params": 13})
    ex.check("n_params", {})
    ex.check("no_such_question", {})
    ex.check("E", {"E": object()})
    out = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 88 for line in out)  # a long hint is folded, not left to scroll
    lines = [line for line in out if not line.startswith("   ")]  # one entry per check
    assert len(lines) == 5
    assert lines[0] == "✅ n_params (1 point): correct"
    assert lines[1].startswith("❌ n_params (1 point): not yet — ")
    assert lines[2].startswith("⏳ n_params (1 point): not attempted yet")
    assert lines[3].startswith("❌ no_such_question")
    assert lines[4].startswith("❌ E (1 point): not yet — ")


def test_check_finds_the_answer_in_the_callers_globals(capsys):
    n_params = 12  # noqa: F841 - a local is not what a notebook cell defines
    Exercise("01-toy-table").check("n_params")
    assert capsys.readouterr().out.startswith("⏳")  # this module has no global n_params


def test_summary_adds_up_and_names_what_is_missing(capsys):
    ex = Exercise("01-toy-table")
    ex.summary(solved_namespace())
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == f"7 / {ex.total():g} points" and all(line.startswith("✅") for line in out[:-1])
    partly = solved_namespace()
    del partly["cosine"], partly["model_table"]
    partly["n_params"] = 7
    ex.summary(partly)
    out = capsys.readouterr().out.splitlines()
    assert out[-3:] == ["4 / 7 points", "not attempted yet (2): cosine, model_table", "not yet right (1): n_params"]
    ex.summary({})
    out = capsys.readouterr().out.splitlines()
    assert "0 / 7 points" in out and all(len(line) <= 88 for line in out[-2:])
    assert " ".join(out[out.index("0 / 7 points") + 1:]).split(": ", 1)[1].replace("   ", " ").split(", ") == \
        [q.name for q in questions_for("01-toy-table")]


# --------------------------------------------------------------------------
# Odd values (issue 34): a hint, never "could not be judged"


def _as_sent(data):
    """Data as the grader receives it from the kernel: nan and inf as text (kinds._real reads them)."""
    if isinstance(data, float) and not np.isfinite(data):
        return str(data)
    if isinstance(data, dict):
        return {k: _as_sent(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_as_sent(v) for v in data]
    return data


@pytest.mark.parametrize("bad, words", [(float("nan"), "nan (not a number"), (float("inf"), "infinite"),
                                        (float("-inf"), "infinite")])
def test_a_function_returning_nan_or_inf_gets_a_hint_in_the_notebook_and_the_grader(bad, words):
    from embedlab.grading.cases import rng_for

    q = next(q for q in questions_for("01-toy-table") if q.name == "cosine")
    cases = q.cases(rng_for("01-toy-table", "cosine"))
    expected = q.expected_outputs(cases)
    verdicts = [evaluate(q, lambda a, b: bad, None, cases),  # the notebook's check (live values)
                q.judge(_as_sent(q.run_cases(lambda a, b: bad, cases)), expected)]  # the grader (sent data)
    for verdict in verdicts:
        assert verdict.status == INCORRECT and words in verdict.detail and "not finite" in verdict.detail, verdict
        assert f"returned {bad}" in verdict.detail


@pytest.mark.parametrize("odd", ["(-8) ** 0.5", "(-8) ** 0.5 * 2 + 3", "2j * 4", "-(-2.0) ** 0.25", "10 ** 400",
                                 "(-1) ** 0.5 + 1e308 * 10"])
def test_a_cell_whose_constants_fold_to_odd_values_still_gets_its_hint(odd):
    """`(-8) ** 0.5` folds to a complex number: no hint function may raise on what a cell types (each of
    lesson 01's number questions judged wrong, its answer cell typing the odd expression)."""
    from embedlab.grading import code
    from embedlab.grading.explain import with_source
    from embedlab.grading.lessons import load_key

    assert all(isinstance(v, (int, float)) and np.isfinite(v) for v in code.constant_values(f"x = {odd}"))
    key = load_key("01-toy-table")
    for q in questions_for("01-toy-table"):
        if not isinstance(q, (Integer, Real)):
            continue
        wrong = key[q.name] * 3 + 1 if isinstance(q, Integer) else key[q.name] * 1.5 + 0.1
        source = f"{q.name} = int(abs({odd})) + {wrong}" if isinstance(q, Integer) else f"{q.name} = {odd}\n"
        verdict = with_source(q, source).judge(q.to_data(wrong), key[q.name])
        assert verdict.status == INCORRECT and verdict.detail, (q.name, verdict)
