"""Hints newcomer review 10 found wrong in exercises 04, 07 and 12, by kind (issue 46); each planted here as a NEW
instance (another question, another code style than the review's), seen red before the fix.

(a) a whole number given as a float: the hint names what in the learner's own cell makes it a float (`/`, a typed
    2.0 or 1e9, a course table that holds floats, np.floor), proved by changing that piece in the learner's cell
    read as arithmetic on the book's inputs; a construct the cell does not write (`/`) is never named, and where
    nothing is proved it says only what is true of any float (int() makes it whole).
"""

from __future__ import annotations

import pytest

from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines

# --------------------------------------------------------------------------
# (a) a float where an int is asked


@pytest.mark.parametrize("lesson, name, source, cause", [
    # a typed whole number as a float literal
    ("06-params-vs-compute", "head_flops", "head_flops = 2.0 * d * V\n", "the number 2.0 you typed is a float"),
    ("02-lookup-vs-matmul", "batch_flops", "batch_flops = 2 * V * d * n_tokens * 1.0\n", "the number 1.0 you typed"),
    # `/` that divides exactly
    ("02-lookup-vs-matmul", "one_hot_batch_bytes", "bits = n_tokens * V * 32\none_hot_batch_bytes = bits / 8\n",
     "`/` always gives a float"),
    # numpy's rounding calls give floats
    ("07-memory", "max_batch", "import numpy as np\nmax_batch = np.floor((memory - weights) / per_sequence)\n",
     "np.floor returns a float"),
    # a course table that holds whole numbers as floats, renamed, read by a parameter
    ("07-memory", "kv_bytes_per_token",
     "per_number = BYTES_PER_PARAM[cache_precision]\nkv_bytes_per_token = per_number * 2 * h_kv * head_dim * L\n",
     "BYTES_PER_PARAM holds floats ('bf16': 2.0)"),
])
def test_a_the_piece_that_makes_a_whole_number_a_float_is_named(lesson, name, source, cause):
    detail = _detail(lesson, name, source)
    assert detail.startswith("right value, but a float where an int is asked"), detail
    assert cause in detail, detail


@pytest.mark.parametrize("lesson, name, source", [
    # no `/` written at all: the float comes from the table (review 10's own case, in another style)
    ("07-memory", "kv_bytes_per_token",
     "from embedlab import BYTES_PER_PARAM as B\nkv_bytes_per_token = 2 * L * h_kv * head_dim * B['bf16']\n"),
    ("06-params-vs-compute", "head_flops", "head_flops = 2 * d * V * 1e0\n"),
])
def test_a_a_cell_without_a_division_is_never_told_to_use_floor_division(lesson, name, source):
    detail = _detail(lesson, name, source)
    assert "//" not in detail and "`/`" not in detail and "instead of /" not in detail, detail


def test_a_a_division_that_is_not_what_makes_the_float_is_not_blamed():
    # `/` written, but `//` in its place still gives a float (4.0 is typed): neither piece alone is proved
    source = "half = d / 2\nhead_flops = 4.0 * half * V\n"
    detail = _detail("06-params-vs-compute", "head_flops", source)
    assert "//" not in detail and "`/`" not in detail, detail
    assert "int()" in detail, detail


# --------------------------------------------------------------------------
# (b) two explanations of one number ("either A, or B"): each weighed on the learner's own cell


def test_b_the_slip_a_look_finds_again_is_named_alone():
    # the whole cache without grouping, its bytes typed (2 for bf16) and its heads multiplied in last: the looks
    # (other precisions too) find the whole cache again, with the typed 2 as a second change; never a ratio there
    source = "per_head = 2 * L * head_dim * 2 * context\ngqa_saving_gib = per_head * h / 2**30\n"
    detail = _detail("07-memory", "gqa_saving_gib", source)
    assert "whole cache without grouping" in detail, detail
    assert "either" not in detail and "ratio" not in detail, detail


def _either_question(source):
    import dataclasses

    from embedlab.grading.lessons import questions_for

    q = next(q for q in questions_for("07-memory") if q.name == "gqa_saving_gib")
    return dataclasses.replace(q, source=source, elsewhere=())  # no looks: the learner's code alone weighs


def _planted_either(a, b):
    from embedlab.grading import parts

    words = f"two slips give exactly your number: either {a}, or {b}"
    parts.EITHER[words] = (a, b)
    return words


RATIO = ("that is a ratio (h / h_kv: how many times larger) where heads no longer cached is a difference "
         "(h − h_kv: how much larger): subtract, do not divide")
WHOLE = "that is the whole cache without grouping; the saving is the difference (h − h_kv)"


def test_b_an_alternative_the_learners_code_rules_out_is_dropped():
    from embedlab.grading.text import hint_problems

    # the cell divides only by a unit (2**30): no ratio of two computed numbers, so only the other stands
    q = _either_question("full = 2 * L * h * head_dim * 2 * context\ngqa_saving_gib = full / 2**30\n")
    said = q._either(_planted_either(RATIO, WHOLE), "book", 4.0, 3.0)
    assert said == WHOLE, said
    # a difference where a ratio is asked needs a subtraction the cell does not write
    difference = ("that is a difference (grouped − full: how much larger) where the share is a ratio "
                  "(grouped / full: how many times): divide, do not subtract")
    said = q._either(_planted_either(difference, WHOLE), "book", 4.0, 3.0)
    assert said == WHOLE and not hint_problems(said), said


def test_b_two_that_stand_are_one_sentence_each_the_general_reading_last():
    from embedlab.grading.text import hint_problems

    # the cell divides by a computed number: both readings stand, written apart, the question's own one first
    q = _either_question("ratio = h / h_kv\nfull = 2 * L * h * head_dim * 2 * context\n"
                         "gqa_saving_gib = full / 2**30 + 0 * ratio\n")
    said = q._either(_planted_either(RATIO, WHOLE), "book", 4.0, 3.0)
    assert "either" not in said and ", or " not in said, said
    assert said.index("whole cache") < said.index("a ratio"), said
    assert said.startswith("two slips give exactly your number. The likelier: "), said
    assert not hint_problems(said), said
