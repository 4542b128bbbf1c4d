"""The kinds judges 16a and 16b found in the blind corpus heldout16 (issue 46: a hint names a mistake only when it can
prove it), each planted here as a NEW instance, in another question, lesson or code style than the one reported:

(1) a fallback names no cause it cannot prove: a cosine's or a probability's last-resort words say what the quantity
    is, never "the right rows?" or "the right id?" (diagnose.RECHECK);
(2) a rounding in the learner's own code (`round(x, -5)`, `int(round(x, -3))`) is named as the round() call when
    taking it out gives the answer (the edit run in the learner's kernel, embedlab.grading.undo), and a computed value
    is never said to be typed;
(3) a value copied from the lesson where the question's own input belongs (a number, a list of ids) is named as that
    input when putting the input in its place gives the answer;
(4) Python slips one edit undoes: `^` for `**`, a range one short, `//` for `/`, a cosine made an angle, operator
    precedence, a codec that never fails;
(5) lesson 11: a count in units of a million, a shipped model's count, one sequence of all D tokens, sequences priced at
    the serving context, the tightest budget chosen by 6·N·D.
Each test was red on main at 0d74614 (before this branch's lib changes) and is green after them.
"""

from __future__ import annotations

import pytest

from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines


# --------------------------------------------------------------------------
# (1) a fallback guesses no cause


def test_1_a_cosines_fallback_names_no_cause():
    # the median of the pair cosines, where their mean is asked: no edit of the lines proves a slip
    detail = _detail("10-glitch-tokens", "never_cos", "rows = run.model.E[never]\n"
                     "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
                     "never_cos = float(np.median((unit @ unit.T)[np.triu_indices(len(never), k=1)]) * 3)\n")
    assert "the right rows" not in detail and "?" not in detail.split(";")[0], detail


def test_1_a_probabilitys_fallback_names_no_cause():
    detail = _detail("12-change-a-vocabulary", "p_new_token",
                     "grown = resize_tinylm(run.model, n_new, 'mean')\n"
                     "p = np.exp(log_softmax(grown.logits(context)))[0]\n"
                     "p_new_token = float(p[corpus.vocab_size] ** 0.5 / 7)\n")
    assert "the right id" not in detail, detail


# --------------------------------------------------------------------------
# (2) a rounding is named as the learner's own round() call


@pytest.mark.parametrize("lesson, name, source, shape", [
    ("08-vocabulary-size", "embedding_params", "embedding_params = round(V_big * d, -5)\n", "round(…, -5)"),
    ("12-change-a-vocabulary", "added_params",
     "rows = max(V, n_tok + n_new)\nconfig = load_config(vocab_model)\n"
     "added_params = int(round(count_params(dict(config, vocab_size=rows)).total - count_params(config).total, -3))\n",
     "round(…, -3)"),
])
def test_2_a_rounding_of_a_computed_count_is_named(lesson, name, source, shape):
    detail = _detail(lesson, name, source)
    assert "your code rounds" in detail and shape in detail, detail
    assert "typ" not in detail, detail  # computed, not typed


def test_2_a_computed_percentage_rounded_is_not_called_typed():
    detail = _detail("08-vocabulary-size", "embedding_share",
                     "embedding_share = round(100 * table / (table + rest), 1)\n")
    assert "typed" not in detail and ("percent" in detail or "100" in detail), detail


# --------------------------------------------------------------------------
# (3) a value copied from the lesson where the question's input belongs


def test_3_the_lessons_ids_where_the_questions_ids_belong_are_named():
    detail = _detail("02-lookup-vs-matmul", "rows_lookup", "rows_lookup = E[[1, 2, 0, 1]]\n")
    assert "`ids` belongs" in detail, detail


def test_3_two_numbers_of_the_lesson_in_one_line_are_named_together():
    detail = _detail("08-vocabulary-size", "embedding_share", "embedding_share = 50257 * 768 / (50257 * 768 + rest)\n")
    assert "typed by hand" in detail, detail


# --------------------------------------------------------------------------
# (4) Python slips one edit undoes


def test_4_xor_for_a_power_is_named():
    detail = _detail("03-counting-gpt2", "block_params", "block_params = 12 * d^2 + 13 * d\n")
    assert "XOR" in detail and "12 * d ** 2 + 13 * d" in detail, detail


def test_4_a_range_from_one_is_named_in_a_function():
    detail = _detail("08-vocabulary-size", "tokens_per_word",
                     "def tokens_per_word(counts, n_tokens):\n    total = words = 0\n"
                     "    for i in range(1, len(counts)):\n        total += counts[i] * n_tokens[i]\n"
                     "        words += counts[i]\n    return total / words\n")
    assert "`range(1, len(counts))` starts at 1" in detail, detail


def test_4_floor_division_of_a_share_is_named():
    detail = _detail("08-vocabulary-size", "embedding_share", "embedding_share = table // (table + rest)\n")
    assert "`//`" in detail and "no token table" not in detail, detail


def test_4_an_angle_per_entry_is_named():
    detail = _detail("09-what-rows-learn", "cos_cat", "rows = E[animals + vehicles]\n"
                     "c = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))\n"
                     "cos_cat = np.degrees(np.arccos(np.clip(c, -1, 1)))\n")
    assert "angle" in detail and "np.degrees(np.arccos(…))" in detail, detail


def test_4_operator_precedence_is_named():
    detail = _detail("04-modern-blocks", "padding_params",
                     "V_padded = -(-V // pad_multiple) * pad_multiple\npadding_params = V_padded - V * d\n")
    assert "operator precedence" in detail and "(V_padded - V) * d" in detail, detail


def test_4_a_codec_that_never_fails_is_named():
    detail = _detail("10-glitch-tokens", "partial_tokens",
                     "def whole(b):\n    try:\n        b.decode(encoding='iso-8859-1')\n        return True\n"
                     "    except UnicodeDecodeError:\n        return False\n"
                     "partial_tokens = sum(not whole(b) for b in ordinary)\n")
    assert "never fails" in detail and "'utf-8'" in detail, detail


# --------------------------------------------------------------------------
# (5) lesson 11: what a one-edit proof shows


def test_5_a_count_in_units_is_said_as_units():
    detail = _detail("11-size-a-model", "other_tying_params",
                     "c = count_params(design)\ntable = c.token_embedding\n"
                     "other_tying_params = (c.total + table) / 1e6 if c.tied else (c.total - table) / 1e6\n")
    assert "millions" in detail, detail


def test_5_a_shipped_models_count_is_named():
    detail = _detail("11-size-a-model", "design_params", "design_params = count_params(load_config('gpt2')).total\n")
    assert "'gpt2'" in detail and "count_params(design)" in detail, detail


def test_5_one_sequence_of_every_token_is_named():
    detail = _detail("11-size-a-model", "design_train_flops",
                     "design_train_flops = training_flops(design, BUDGET.train_tokens).total\n")
    assert "one sequence of all D tokens" in detail, detail


def test_5_sequences_priced_at_the_serving_context_are_named():
    detail = _detail("11-size-a-model", "design_train_flops",
                     "n_seq = BUDGET.train_tokens // BUDGET.train_context\n"
                     "design_train_flops = n_seq * training_flops(design, BUDGET.context).total\n")
    assert "serving context" in detail and "train_context" in detail, detail


# --------------------------------------------------------------------------
# ... and withheld where the edit does not give the answer, or proves nothing


def test_a_rounding_whose_removal_is_still_wrong_is_not_named():
    # the whole grown table where its gain is asked, and rounded: without the round() the value is still wrong
    detail = _detail("01-toy-table", "extra_dim_cost", "s = model_shape(load_config(model))\n"
                     "extra_dim_cost = round(s.vocab_size * (s.hidden_size + extra_features), -4)\n")
    assert "your code rounds" not in detail, detail


def test_a_small_input_equal_to_a_formulas_factor_is_not_named():
    # 32 bits where 4 bytes belong: table_d is 4 on the book's inputs, which proves nothing about the slip
    detail = _detail("02-lookup-vs-matmul", "one_hot_batch_bytes", "one_hot_batch_bytes = n_tokens * V * 32\n")
    assert "table_d" not in detail, detail
