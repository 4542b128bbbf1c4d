"""Blind corpus 18's generic and misleading kinds of lessons 01-06 (helper gen18a), planted as new instances (other
questions, values and code than the corpus's entries): a hint names a mistake only when it can prove it.

1. A function that reads none of its arguments returns one value on every call: a clause read from one call's value
   (a sign, an invariant that call breaks) is that call's coincidence and is not joined after "never reads".
2. An invariant says only what it measures: count_unique's value between each storage once and every entry added is
   said so, not as "some shared storages still counted twice (not only some)" (a partial de-duplication the code may
   never do).
3. A value equal to one part of the answer is not named as that part given alone when a term the learner's own
   expression adds has the size of another part outside it and of none inside (`4·d² + 4·d²`: the MLP's 8·d², or
   attention's 4·d² and a 4·d² MLP).
4. A list the notebook gives is named as read where another belongs only where the solution's own lines read that
   other list (`words` for `pair[0]` gives the answer on the book's data because the cosine is symmetric).
5. An array measured exactly as the answer with a row (and a column) of zeros in front is said so: indices counted
   from 1; one exactly the answer's last row alone is said so (never for the first row).
6. Most values off, each by less than a low precision's rounding of the largest and both ways, is said as that
   rounding (never for an amount added to every value, nor for one row off).
7. A piece of the learner's expression (or two plain names) where a value the solution reads or makes belongs, their
   lines never reading it: named where, with the value in its place, the cell gives the answer on the book's inputs
   and on another look (a toy table's `len(words)` for the model's V, question 2's `table_d` for d).
8. A product of the learner's own expression that lacks a factor the solution multiplies by (`h_kv` where
   `h_kv * head_dim` belongs): named where, multiplied by it, the cell gives the answer on the book's inputs and on a
   look; never where the rest of the cell is right on the book's model only (d · d for h · head_dim). 7 and 8 are
   tried last, where nothing but a direction was found: a question's own words keep their place.

Each test was red on main at 8f1f7d1 (its check seen red with the fix taken out), green here.
"""

from __future__ import annotations

from solution_runner import incorrect_detail


_verdict = incorrect_detail  # tests/solution_runner.py: incorrect, no garbled words


NEVER = "your function never reads its argument"


def test_1_a_function_reading_no_argument_gets_no_clause_from_one_call():
    for lesson, name, source in [
            ("08-vocabulary-size", "tokens_per_word", "def tokens_per_word(counts, n_tokens):\n    return -1.5\n"),
            ("01-toy-table", "cosine", "def cosine(a, b):\n    value = -0.5\n    return value\n")]:
        detail = _verdict(lesson, name, source)
        assert detail.startswith(NEVER) and detail.endswith("where it belongs"), (name, detail)
        for word in ("between the fewest", "point the same way", "sign"):
            assert word not in detail, (name, detail)


def test_1_near_miss_a_function_reading_one_argument_keeps_its_clause():
    detail = _verdict("08-vocabulary-size", "tokens_per_word",
                      "def tokens_per_word(counts, n_tokens):\n    return float(sum(n_tokens))\n")
    assert detail.startswith(NEVER + " `counts`") and "Σ counts" in detail, detail


def test_2_count_unique_between_once_and_all_is_said_as_measured():
    for source in ("def count_unique(storage, sizes):\n    return int(sizes[:-1].sum())\n",
                   "def count_unique(storage, sizes):\n    return int(sizes.sum() - sizes.min())\n"):
        detail = _verdict("05-weight-tying", "count_unique", source)
        assert "not only some" not in detail and "still counted" not in detail, detail
        # a function that never reads `storage` is told so, and no story of how it used the storages (the invariant
        # that tells one reads=("storage",): kinds.Invariant); else the measured words
        assert detail.startswith(NEVER + " `storage`") or (
            "more than each storage counted once, less than every entry" in detail.lower()), detail


def test_3_a_part_alone_is_not_named_when_a_term_is_another_part():
    source = "attn = 4 * d * d\nmlp = d * 4 * d\nblock_params = attn + mlp\n"
    detail = _verdict("03-counting-gpt2", "block_params", source)
    assert "alone" not in detail and "MLP" not in detail, detail


def test_3_near_miss_one_term_that_is_the_part_keeps_the_story():
    detail = _verdict("03-counting-gpt2", "block_params", "block_params = 4 * d * d\n")
    assert "attention weights" in detail and "alone" in detail, detail


def test_4_a_list_the_solution_never_reads_is_not_named_for_the_one_it_reads():
    for source in ("rows = [table[word_to_id[pair[0]] + 1], table[word_to_id[pair[1]] + 1]]\n"
                   "cos_pair = cosine_similarity(rows[0], rows[1])\n",
                   "cos_pair = cosine_similarity(table[1 + word_to_id[pair[0]]], table[1 + word_to_id[pair[1]]])\n"):
        detail = _verdict("01-toy-table", "cos_pair", "from embedlab import cosine_similarity\n" + source)
        assert "where `words` belongs" not in detail, detail
        assert "another pair of words" in detail or "another two rows" in detail, detail


def test_4_near_miss_a_list_read_where_the_solutions_list_belongs_is_named():
    source = ("from embedlab import cosine_similarity\n"
              "cos_pair = cosine_similarity(table[word_to_id[words[0]]], table[word_to_id[pair[1]]])\n")
    detail = _verdict("01-toy-table", "cos_pair", source)
    assert "`words` where `pair` belongs" in detail, detail


def test_5_zeros_in_front_are_measured_as_indices_counted_from_1():
    for lesson, name, source, which in [
            ("01-toy-table", "batch",
             "batch = np.pad(table[[word_to_id[w] for w in sentence]], ((1, 0), (1, 0)))\n",
             "an extra row and an extra column of zeros in front"),
            ("02-lookup-vs-matmul", "rows_lookup",
             "rows_lookup = np.vstack([np.zeros((1, E.shape[1]), dtype=E.dtype), E[ids]])\n",
             "an extra row of zeros in front")]:
        detail = _verdict(lesson, name, source)
        assert which in detail and "counted from 1" in detail, (name, detail)


def test_5_near_miss_zeros_at_the_end_are_not_indices_from_1():
    detail = _verdict("01-toy-table", "batch",
                      "batch = np.pad(table[[word_to_id[w] for w in sentence]], ((0, 1), (0, 1)))\n")
    assert "counted from 1" not in detail and "in front" not in detail, detail


def test_5_the_last_row_alone_is_measured():
    detail = _verdict("02-lookup-vs-matmul", "rows_lookup", "rows_lookup = E[ids[-1]]\n")
    assert "exactly the last of the 5 rows asked, alone" in detail, detail
    first = _verdict("02-lookup-vs-matmul", "rows_lookup", "rows_lookup = E[ids[0]]\n")
    assert "last" not in first, first


def test_6_rounding_to_a_low_precision_is_measured():
    detail = _verdict("02-lookup-vs-matmul", "rows_lookup",
                      "rows_lookup = ((E[ids] + 8).astype(np.float16) - 8).astype(np.float32)\n")
    assert "rounding to a low precision" in detail, detail


def test_6_near_miss_an_amount_added_or_one_row_off_is_no_rounding():
    for source in ("grad_E = dlogits.T @ x + 1e-3\nnp.add.at(grad_E, ids, dx0)\n",
                   "grad_E = dlogits.T @ x\nnp.add.at(grad_E, ids, dx0)\ngrad_E[0] *= 1.0001\n"):
        detail = _verdict("05-weight-tying", "grad_E", source)
        assert "low precision" not in detail, detail


def test_7_a_value_of_an_earlier_question_where_the_models_belongs():
    for lesson, name, source, said in [
            ("01-toy-table", "extra_dim_cost", "extra_dim_cost = len(features) * extra_features\n",
             "`len(features)` stands where `V`"),
            ("01-toy-table", "model_table",
             "shape = model_shape(load_config(model))\nmodel_table = len(words) * shape.hidden_size\n",
             "`len(words)` stands where `shape.vocab_size` belongs"),
            ("02-lookup-vs-matmul", "batch_flops", "batch_flops = 2 * batch_V * table_d * n_tokens\n",
             "reads `batch_V` and `table_d` where `V` and `d` belong")]:
        detail = _verdict(lesson, name, source)
        assert said in detail and "your own code gives the answer" in detail, (name, detail)


def test_7_near_miss_a_piece_whose_value_does_not_put_the_cell_right_is_not_named():
    detail = _verdict("01-toy-table", "extra_dim_cost", "extra_dim_cost = len(words) * extra_features * 2\n")
    assert "stands where" not in detail and "belongs" not in detail, detail


def test_8_a_factor_the_solution_multiplies_by_is_missing():
    detail = _verdict("04-modern-blocks", "attn_layer", "attn_layer = 2 * h * head_dim * d + h_kv * 2 * d\n")
    assert "`h_kv * 2 * d` lacks a factor `head_dim`" in detail, detail


def test_8_near_miss_right_on_the_books_model_only_or_said_by_the_question():
    # d · d for the q and o matrices is right only where h · head_dim = d: the look parts them, no factor is named
    detail = _verdict("04-modern-blocks", "attn_layer", "attn_layer = d * d * 2 + h_kv * d * 2\n")
    assert "lacks a factor" not in detail, detail
    # the question's own words for a missing d_ff come first
    detail = _verdict("04-modern-blocks", "mlp_layer", "mlp_layer = 3 * d\n")
    assert detail == "your count has no d_ff", detail
