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
    assert detail.startswith("right value, but give it as an int: "), detail
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
    assert said.startswith("two slips give exactly your number; put right the one you made. The likelier: "), said
    assert not hint_problems(said), said


# --------------------------------------------------------------------------
# (c) a hint that contradicts itself or says one thing twice: read as text (text.hint_problems, which the rendering
# tests run on every hint built), and never built so


@pytest.mark.parametrize("words", [
    # review 10's own two texts
    "your function never reads its argument `tied`: its result must depend on it: tied=False: the head is its own "
    "d × V matrix; count it (the `tied` flag read the other way round?)",
    "the layer's two RMSNorms (d each: 2 · d) belong to the layer, not to the MLP: the question asks for the MLP "
    "only; leave the layer's two RMSNorms out",
    # new instances of each kind
    "your function never reads its arguments `h_kv`, `d_ff`: its result must depend on them: check whether `d_ff` "
    "is read as d",
    "too big: between 2 and 3 times the expected value; a term left out makes it too small",
    "the position table counted twice: the position table is missing from the total",
    "the final RMSNorm (d) belongs to the model, not to the block: leave the final RMSNorm out",
    "the biases (2 · d) belong to the layer, not to the attention: the question asks for the attention only",
])
def test_c_a_contradiction_or_a_repetition_is_read_as_a_problem(words):
    from embedlab.grading.text import hint_problems

    assert hint_problems(words), words


@pytest.mark.parametrize("words", [
    # near misses that are fine: two alternatives, a contrast, a part named again for another reason
    "two slips give exactly your number: either table counted twice, or the head is tied: the table is counted "
    "once, not twice",
    "two slips give exactly your number. One: the key projection k is missing. The other: the value projection v "
    "is missing",
    "your function never reads its argument `tied`: its result must depend on it, as the question's formula does",
    "the layer's two RMSNorms (d each: 2 · d) belong to the layer, not to the MLP: leave them out",
    "too big: between 1.25 and 1.5 times the expected value; recheck each term",
])
def test_c_two_different_claims_are_not_read_as_one_said_twice(words):
    from embedlab.grading.text import hint_problems

    assert not hint_problems(words), (words, hint_problems(words))


def test_c_an_argument_never_read_is_not_also_said_to_be_read_the_wrong_way():
    # the head always counted (tied=True then wrong): another form of review 10's llama_params
    source = ("def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d // h\n"
              "    per_layer = 2 * d * hd * (h + h_kv) + 3 * d * d_ff + 2 * d\n"
              "    return 2 * V * d + L * per_layer + d\n")
    detail = _detail("04-modern-blocks", "llama_params", source)  # _detail fails on any hint_problems
    assert "never reads its argument `tied`" in detail and "other way round" not in detail, detail


def test_c_a_part_of_the_layer_counted_into_the_attention_is_said_once():
    source = ("norms = 2 * d\nqo, kv = 2 * d * h * head_dim, 2 * d * h_kv * head_dim\n"
              "attn_layer = qo + kv + norms\n")
    detail = _detail("04-modern-blocks", "attn_layer", source)  # _detail fails on any hint_problems
    assert "to the layer, not to the attention" in detail and detail.count("RMSNorms") == 1, detail


# --------------------------------------------------------------------------
# (d) a slip the value proves is named even where its factor is also a unit's (n_new = 4, as float32 is 4 bytes),
# and two of a question's own slips at once are named together


def test_d_all_new_tokens_summed_in_a_loop_is_named():
    source = ("grown = resize_tinylm(run.model, n_new, 'mean')\n"
              "p = np.exp(log_softmax(grown.logits(context)))[0]\n"
              "p_new_token = 0.0\nfor i in range(n_new):\n    p_new_token += float(p[corpus.vocab_size + i])\n")
    detail = _detail("12-change-a-vocabulary", "p_new_token", source)
    assert "all n_new new tokens together" in detail, detail


def test_d_a_factor_is_a_named_count_only_when_the_words_name_that_input():
    import dataclasses

    from embedlab.grading.kinds import _named_count
    from embedlab.grading.lessons import questions_for

    q = next(q for q in questions_for("12-change-a-vocabulary") if q.name == "p_new_token")
    n = dataclasses.replace(q).inputs()["n_new"]
    assert _named_count(q, "that is all n_new new tokens together", n)
    assert not _named_count(q, "that is all new tokens together", n)  # the count not named
    assert not _named_count(q, "that is all n_new new tokens together", n * 2)  # another factor
    assert not _named_count(q, "yours is 4 times too much: float32 bytes?", n)


def test_d_two_of_the_questions_own_slips_at_once_are_named_together():
    # the words' share (unweighted) of words encoded without their space, in a loop
    source = ("kept = used | set(range(256)) | {tok.eot_token}\nhits = 0\n"
              "for w in next_words:\n    hits += set(tok.encode_ordinary(w)) <= kept\n"
              "coverage = hits / len(next_words)\n")
    detail = _detail("12-change-a-vocabulary", "coverage", source)
    assert "without the space" in detail and "frequency" in detail, detail
