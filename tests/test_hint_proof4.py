"""Hints the blind heldout10 judge found misleading or generic (issue 46), by kind; each planted here as a NEW
instance (another question, or another form of the mistake than the corpus's entry).

Misleading:
(a) another formula of the lesson given whole (the lookup's copy, n_tokens · d, for the matmul's FLOPs) is named
    as that formula: one change, never two slips of the asked formula ("you have 1 FLOP per weight");
(b) a missing amount two parts have (the attention output's bias and the MLP second layer's, d each) is named
    as either of them, never as one;
(c) a term the model HAS, in another part of the layer (the RMSNorms, the attention, counted into the MLP), is
    said to belong to the layer: never "a term the model does not have";
(d) rounding down is one slip (its value is negative by itself): never the remainder with "the sign is wrong"
    added to it;
(e) a term of a sum counted twice with another term left out is one slip, said once: never two clauses that
    contradict each other ("counted twice", "counts the table once").
"""

from __future__ import annotations

import contextlib
import io

from embedlab.grading.exercise import Exercise
from embedlab.grading.text import hint_problems

from hint_corpus import Wrong, check_wrong


def _detail(lesson, name, source):
    """The notebook check's hint for `source` as the learner's lines (the answer cell in IPython's history)."""
    entry = Wrong(lesson, name, source, "", (), ())
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(entry)
    ns["_ih"] = ["", source]
    verdict = Exercise(lesson).verdict(name, ns)
    assert verdict.status == "incorrect", verdict
    assert not hint_problems(verdict.detail), verdict.detail
    return verdict.detail


# --------------------------------------------------------------------------
# Misleading


def test_a_the_lookups_copy_written_as_a_loop_is_named_as_the_copy():
    source = "batch_flops = 0\nfor _ in range(n_tokens):\n    batch_flops += d   # one row copied per token\n"
    detail = _detail("02-lookup-vs-matmul", "batch_flops", source)
    assert "lookup copies" in detail, detail
    assert "you have 1" not in detail and "; and" not in detail, detail


def test_b_the_attention_output_bias_left_out_is_one_of_two_parts_of_that_size():
    source = ("def gpt2_params(V, d, L, T):\n"
              "    attention = d * 3 * d + 3 * d + d * d          # q, k, v with biases; the output projection\n"
              "    mlp = d * 4 * d + 4 * d + 4 * d * d + d\n"
              "    return V * d + T * d + L * (attention + mlp + 4 * d) + 2 * d\n")
    detail = _detail("03-counting-gpt2", "gpt2_params", source)
    assert "attention output bias" in detail and "MLP second-layer bias" in detail and "either" in detail, detail


def test_c_norms_counted_into_the_attention_belong_to_the_layer():
    source = "attn_layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 2 * d   # its two RMSNorms too\n"
    detail = _detail("04-modern-blocks", "attn_layer", source)
    assert "belong to the layer" in detail and "RMSNorm" in detail, detail
    assert "does not have" not in detail, detail


def test_c_the_attention_counted_into_the_mlp_belongs_to_the_layer():
    source = ("cfg = model_shape(load_config(mlp_model))\n"
              "attn = 2 * d * cfg.num_heads * cfg.head_dim + 2 * d * cfg.num_kv_heads * cfg.head_dim\n"
              "mlp_layer = 3 * d * d_ff + attn\n")
    detail = _detail("04-modern-blocks", "mlp_layer", source)
    assert "belong to the layer" in detail and "attention" in detail, detail


def test_d_rounding_down_with_math_floor_is_one_slip():
    source = "import math\npadding_params = (math.floor(V / pad_multiple) * pad_multiple - V) * d\n"
    detail = _detail("04-modern-blocks", "padding_params", source)
    assert "V rounded down" in detail and "sign is wrong" not in detail, detail


def test_e_a_term_doubled_in_place_of_another_is_said_once():
    from embedlab.grading.parts import Answer, Part, Sum, search

    tree = Answer(Sum("the total", [Part("the model", 1000, can_drop=False),
                                    Part("the extra copy", 300, "its second name")]))
    words = search(tree, 2000)  # the model twice, the copy left out: the model put where the copy belongs
    assert words and "; and" not in words, words
    assert "the model counted again where the extra copy belongs" in words, words
    source = "config = load_config(tied_model)\nn = count_params(config).total\nstate_dict_sum = n + n\n"
    detail = _detail("05-weight-tying", "state_dict_sum", source)
    assert "counted twice" in detail and "counts the tied table once" not in detail, detail
