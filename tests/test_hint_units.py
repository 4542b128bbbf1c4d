"""The general words say what is known, never a guessed cause; units slips are named as units.

* a count given in millions (or thousands, billions), typed short, is named as such, not "a factor
  or a term left out?";
* bytes where a count of parameters is asked is named as bytes when the cell names bytes or a
  number format and types that many (2 for bf16 …), and never otherwise (2 × is also "counted twice");
* when nothing names the slip, the words give the direction and how far (a band, never the value)
  and what to recheck, with no guessed cause;
* lesson 06's prompt pass: the blocks run for one token only is named as that, not as the two
  mistakes (the head T times, T² keys) it was once blamed on.
"""

import re

import pytest

from embedlab.grading import diagnose
from embedlab.grading.exercise import evaluate
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.values import written_in


def question(lesson, name):
    return next(q for q in questions_for(lesson) if q.name == name)


def test_a_count_in_millions_or_billions_is_named_as_units():
    assert "in millions" in diagnose.units_hint(85.06, 85_056_000, "parameters")
    assert "in billions" in diagnose.units_hint(7.5, 7_504_924_672, "parameters")
    assert "in thousands" in diagnose.units_hint(33.0, 33_024)
    assert diagnose.units_hint(85.5, 85_056_000) is None          # not within its rounding
    assert diagnose.units_hint(85_056.123, 85_056_000) is None    # a long number is not a count in thousands
    q = question("03-counting-gpt2", "block_params")
    want = load_key("03-counting-gpt2")["block_params"]
    detail = evaluate(q, round(want / 1e6, 1), want).detail
    assert "in millions" in detail and not written_in(detail, want)


def test_bytes_for_parameters_only_when_the_cell_speaks_of_bytes():
    q = question("03-counting-gpt2", "block_params")
    want = load_key("03-counting-gpt2")["block_params"]
    in_bytes = evaluate(q, 2 * want, want, source="d = 1024\nBYTES = 2  # bf16\nblock_params = (12*d*d + 13*d) * BYTES")
    assert "size in bytes, at 2 bytes a number" in in_bytes.detail
    twice = evaluate(q, 2 * want, want, source="d = 1024\nblock_params = (12*d*d + 13*d) * 2")
    assert "bytes" not in twice.detail and "twice" in twice.detail
    assert diagnose.units_hint(4 * 1000, 1000, "parameters", {4}, bytes_named=True).startswith("that is the size in bytes")
    assert diagnose.units_hint(4 * 1000, 1000, "", {4}, bytes_named=True) is None  # not a parameter count


@pytest.mark.parametrize("ratio", [0.12, 0.25, 0.4, 0.6, 0.7, 0.9, 0.97, 1.03, 1.1, 1.3, 1.7, 2.4, 3.7, 7.0])
def test_the_last_resort_says_how_far_and_which_way_and_guesses_no_cause(ratio):
    want = 123_457.0
    got = want * ratio + 0.37  # no factor, no transform, no units: nothing names it
    words = diagnose.number_hint(got, want)
    assert words.startswith(("too big", "too small", "a little too big", "a little too small")), words
    assert ("too small" in words.split(":")[0]) == (ratio < 1)
    assert "?" not in words and "recheck" in words, words      # what to recheck, no guessed cause
    assert not written_in(words, want) and not re.search(r"\d{4,}", words.replace(",", ""))


def test_lesson_06_prompt_pass_with_the_blocks_run_once_is_named_as_that():
    from embedlab.grading.questions import l06

    p = l06.DEFAULTS
    q = {q.name: q for q in l06.questions(p)}["head_share_prompt"]
    want, T = l06.share(p, 1), p["T"]
    for keys in (1, T, T * (T + 1) // 2):
        detail = evaluate(q, l06.blocks_once(p, keys), want).detail
        assert "those run T times; only the head runs once" in detail
        assert "T²" not in detail and "not T times" not in detail


@pytest.mark.parametrize("name", ["head_share_prompt", "head_share_training"])
@pytest.mark.parametrize("factor", [2**10, 2**-10, 2**20, 1e-9, 1e9, 8])
def test_a_share_of_flops_is_never_told_of_bytes(name, factor):
    """A share has no unit: no scale of bytes (KiB, MiB, GB, bits) is ever named for it, alone or as the
    second of two slips, whatever factor the answer is off by."""
    want = load_key("06-params-vs-compute")[name]
    detail = evaluate(question("06-params-vs-compute", name), want * factor, want).detail
    assert not re.search(r"KiB|MiB|GiB|GB|bytes|bits", detail), detail


def test_the_prompt_share_with_the_head_at_every_position_in_the_part_is_named_as_that():
    from embedlab.grading.questions import l06

    want, T = load_key("06-params-vs-compute")["head_share_prompt"], l06.DEFAULTS["T"]
    detail = evaluate(question("06-params-vs-compute", "head_share_prompt"), want * T, want).detail
    assert "head at T positions" in detail and "runs once" in detail, detail
    assert "percentage" in evaluate(question("06-params-vs-compute", "head_share_prompt"), want * 100, want).detail


def test_an_axis_slip_on_a_square_table_is_named_as_the_axis():
    """Lesson 09's 16 rows are d = 16 wide in the book: norms along axis=0 run silently. The hint names
    the axis, not "normalize every row, not just cat" (which blamed a mistake not made)."""
    from embedlab.grading.questions import l09

    p = l09.DEFAULTS
    q = {q.name: q for q in l09.questions(p)}["cos_cat"]
    want = q.to_data(l09.trained(p)[1])
    slips = l09.axis_slips(p)
    assert len(slips) == 2
    for slip in slips:
        detail = evaluate(q, slip, want).detail
        assert "axis=0" in detail and "not just cat" not in detail
    assert l09.axis_slips(dict(p, d=12)) == []  # not square: numpy raises, no slip to name


# --------------------------------------------------------------------------
# Quantities without units, and FLOPs for parameters (heldout4's kinds)


@pytest.mark.parametrize("lesson, name, factor", [
    ("01-toy-table", "cos_pair", 0.031), ("01-toy-table", "cos_pair", 1.17), ("10-glitch-tokens", "never_cos", 0.43),
    ("12-change-a-vocabulary", "coverage", 37.3), ("12-change-a-vocabulary", "kl_mean", 53.1),
    ("12-change-a-vocabulary", "p_new_token", 0.0123), ("08-vocabulary-size", "hindi_r", 1.61),
    ("06-params-vs-compute", "head_share_training", 0.37),
])
def test_a_quantity_without_units_is_never_told_to_check_its_units_or_every_factor(lesson, name, factor):
    want = load_key(lesson)[name]
    detail = evaluate(question(lesson, name), want * factor + 1e-7, want).detail
    assert "unit" not in detail and "factor" not in detail and "recheck" in detail, detail
    assert not written_in(detail, want)


def test_the_unitless_recheck_names_what_applies_to_the_quantity():
    assert "both lengths" in diagnose.number_hint(0.01, 0.7, unit="cosine")
    assert "denominator" in diagnose.number_hint(0.9, 0.023, unit="share")
    assert "softmax" in diagnose.number_hint(0.5, 0.0012, unit="probability")
    assert "distributions" in diagnose.number_hint(0.2, 0.001, unit="divergence")
    assert "GiB" not in diagnose.number_hint(0.7 * 2**30 / 1e9, 0.7, unit="share")  # no units a share lacks
    assert "units" in diagnose.number_hint(123.0, 0.5)  # a quantity whose kind is unknown keeps the old words


def test_flops_where_parameters_are_asked_and_the_reverse_are_units():
    assert "FLOPs" in diagnose.units_hint(2 * 7_000, 7_000, "parameters")
    assert "2 FLOPs per weight" in diagnose.units_hint(3_000 / 2, 3_000, "flops")
    assert diagnose.units_hint(2 * 7_000, 7_000, "bytes") is None
    q = question("03-counting-gpt2", "linear_params")
    want = load_key("03-counting-gpt2")["linear_params"]
    from embedlab.grading.questions.l03 import DEFAULTS

    m, n = DEFAULTS["linear_in"], DEFAULTS["linear_out"]
    detail = evaluate(q, 2 * m * n, want, source=f"linear_params = 2 * linear_in * linear_out").detail
    assert "FLOPs" in detail and "parameters" in detail, detail
    q = question("06-params-vs-compute", "head_flops")
    want = load_key("06-params-vs-compute")["head_flops"]
    detail = evaluate(q, want // 2, want).detail
    assert "2 FLOPs per weight" in detail or "multiply and an add" in detail, detail
