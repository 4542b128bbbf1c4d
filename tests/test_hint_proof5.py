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
    """The notebook check's hint for `source` as the learner's lines (the answer cell in IPython's history, the
    exercise's given lines above them)."""
    entry = Wrong(lesson, name, source, "", (), ())
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(entry)
    prelude = check_wrong.exercise_prelude(lesson, name)  # the answer cell as the notebook holds it: the given
    ns["_ih"] = ["", (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source]  # lines, then the learner's
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
    assert "attention output bias" in detail and "MLP second-layer bias" in detail and "The other: " in detail, detail


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
    assert "to the layer, not to the MLP" in detail and "attention" in detail, detail


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


# --------------------------------------------------------------------------
# Generic where nameable: each kind named, planted as a new instance


def test_the_lessons_second_table_typed_in_is_named():
    source = "E = np.array([[0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 0]])   # from the lesson\n"
    detail = _detail("01-toy-table", "E", source)
    assert "lesson's own example" in detail and "`words`" in detail, detail


def test_the_lessons_count_typed_in_is_named():
    detail = _detail("01-toy-table", "n_params", "n_params = 6\n")
    assert "lesson's own example" in detail, detail


def test_rows_by_position_in_the_matmul_are_named():
    source = "rows_matmul = np.eye(table_V, dtype=np.float32)[np.arange(len(ids))] @ E\n"
    detail = _detail("02-lookup-vs-matmul", "rows_matmul", source)
    assert "positions in the list" in detail and "E[ids]" in detail, detail


def test_a_backward_pass_averaged_over_the_batch_is_named():
    source = ("def embedding_backward(ids, grad_out, V):\n"
              "    grad = np.zeros((V, np.shape(grad_out)[1]))\n"
              "    np.add.at(grad, ids, grad_out)\n"
              "    return grad / len(ids)\n")
    detail = _detail("02-lookup-vs-matmul", "embedding_backward", source)
    assert "divided by" in detail and "batch size" in detail, detail


def test_the_input_path_averaged_over_the_batch_is_named():
    source = ("grad_E = dlogits.T @ x\nlookup = np.zeros_like(grad_E)\nnp.add.at(lookup, ids, dx0)\n"
              "grad_E = grad_E + lookup / len(ids)\n")
    detail = _detail("05-weight-tying", "grad_E", source)
    assert "the input path" in detail and "divided by 4" in detail, detail


def test_storage_ids_walked_as_positions_are_named():
    source = ("def count_unique(storage, sizes):\n    total = 0\n"
              "    for s in sorted(set(storage)):\n        total += sizes[s]\n    return total\n")
    detail = _detail("05-weight-tying", "count_unique", source)
    assert "a value of `storage`" in detail and "not a position" in detail, detail


def test_flops_for_parameters_in_another_form_are_named():
    source = "embedding_share = V_big * d / (blocks + V_big * d)\n"
    detail = _detail("08-vocabulary-size", "embedding_share", source)
    assert "blocks" in detail and "rest" in detail and "FLOPs per token" in detail, detail


def test_the_vocabularies_ratio_the_other_way_up_is_named():
    source = "hindi_r = gpt2.n_vocab / cl100k.n_vocab\n"
    detail = _detail("08-vocabulary-size", "hindi_r", source)
    assert "ratio of the two sizes" in detail and "n_vocab" in detail, detail


def test_a_ratio_for_the_gap_written_with_loops_is_named():
    source = ("unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
              "within, across = [], []\n"
              "for g in (animals, vehicles):\n    for i in g:\n        for j in g:\n"
              "            if i < j:\n                within.append(C[i, j])\n"
              "for i in animals:\n    for j in vehicles:\n        across.append(C[i, j])\n"
              "gap = sum(within) / len(within) / (sum(across) / len(across))\n")
    detail = _detail("09-what-rows-learn", "gap", source)
    assert "ratio" in detail and "subtract" in detail, detail


def test_rows_normalised_by_the_whole_block_are_named():
    source = ("rows = E[animals + vehicles]\nunit = rows / np.linalg.norm(rows)\n"
              "cos_cat = unit @ (E[cat] / np.linalg.norm(E[cat]))\n")
    detail = _detail("09-what-rows-learn", "cos_cat", source)
    assert "whole matrix" in detail and "axis=1" in detail, detail


def test_a_distance_written_by_hand_is_named():
    source = ("def unused_score(M, reference_ids):\n    centre = M[reference_ids].mean(axis=0)\n"
              "    return np.sqrt(((M - centre) ** 2).sum(axis=1))\n")
    detail = _detail("10-glitch-tokens", "unused_score", source)
    assert "distance" in detail and "cosine" in detail, detail


def test_a_defence_says_which_headings_lack_figures():
    from embedlab.grading.lessons import questions_for

    q = next(q for q in questions_for("11-size-a-model") if q.name == "defence")
    text = ("Which budget binds, and by how much:\nMemory, at 0.93 of the budget.\n\n"
            "Why this width and depth:\nWide enough for the heads.\n\n"
            "What the tying choice costs:\nIt saves V x d, 65,536,000 parameters.\n")
    detail = q.judge(q.to_data(text), None).detail
    assert "Why this width and depth" in detail and "no figure" in detail, detail
    assert "Which budget binds" not in detail and "What the tying" not in detail, detail
    full = text.replace("Wide enough for the heads.", "d = 1024: 16 heads of 64.")
    assert "no figure" not in q.judge(q.to_data(full), None).detail


def test_question_1_padded_in_another_form_is_named():
    source = "added_params = padded_size(max(V, n_tok + n_new), pad_multiple) * d - V * d\n"
    detail = _detail("12-change-a-vocabulary", "added_params", source)
    assert "question 1 does not pad" in detail, detail


def test_new_ids_numbered_one_too_high_are_named():
    from test_hint_corpus import MERGE_LOOP

    source = MERGE_LOOP.replace("out.append(256 + k)", "out.append(257 + k)")
    assert source != MERGE_LOOP
    detail = _detail("08-vocabulary-size", "bpe_merges", source)
    assert "one too big" in detail and "numbered from 256" in detail, detail


def test_b_the_learners_own_terms_tell_two_parts_of_one_size_apart():
    """The counterfactual read from the code: of two parts of size d, the one a term under its name adds (`d` in
    `mlp = …`) is not the one left out; a single sum names no part, so both are said."""
    named = ("attn = 3 * d * d + 3 * d + d * d          # q, k, v, out; the q, k, v biases\n"
             "mlp = 8 * d * d + 4 * d + d\nnorms = 4 * d\nblock_params = attn + mlp + norms\n")
    detail = _detail("03-counting-gpt2", "block_params", named)
    assert "attention output bias" in detail and "MLP second-layer bias" not in detail, detail
    flat = "block_params = 12 * d * d + 3 * d + 4 * d + d + 4 * d\n"
    detail = _detail("03-counting-gpt2", "block_params", flat)
    assert "attention output bias" in detail and "MLP second-layer bias" in detail, detail
