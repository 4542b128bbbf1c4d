"""Blind corpus 19's misleading and garbled hints of lessons 01-03 (fix19a), by kind, planted as new
instances (other questions, other lessons, other code than the corpus's entries):

1. A clause that presumes what the question does not have: 1 - x said as "the share of the other part"
   of a cosine (a share's rest only of a share); "return the ids … not the scores" of an array that holds
   no ids (a table of 0s and 1s: its rows measured, each divided by its own length or sum); "(keys and
   values?)" as the cause of half a parameter count in a lesson whose questions have no keys and values
   (an attention layer, a KV cache); a part's name that ends in s but is one thing ("bias") read as items
   ("one number too many for each of the bias, twice").
2. A story whose counterfactual the learner's own code refutes: a whole value multiplied by a factor that
   is not constant (`* len(pair)`, `* np.sqrt(d)`), said "something counted twice?", where leaving out
   that factor, run on the learner's code, gives the answer; a function's real result within float16's
   rounding of the answer, from code that casts to a low precision, told as an invariant's story ("divide
   by both lengths") the code already writes.
3. A set that de-duplicates rows, said as a list read where another belongs (a swap that lands on the
   answer only because the other list holds different items): a name swapped only for a value of the same
   kind; the set made a list, run on the learner's code, named where it gives the answer.

Each test was red on main at 2cf0e28, green here.
"""

from __future__ import annotations

from solution_runner import incorrect_detail


_verdict = incorrect_detail  # tests/solution_runner.py


# 1. clauses the question does not grant


def test_1_one_minus_a_mean_cosine_is_no_share():
    source = ("rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
              "C = unit @ unit.T\nnever_cos = 1 - C[np.triu_indices(len(never), k=1)].mean()\n")
    detail = _verdict("10-glitch-tokens", "never_cos", source)
    assert "share" not in detail and "the rest" not in detail, detail
    assert "1 minus the asked cosine" in detail, detail


def test_1_one_minus_a_share_is_still_the_rest():
    source = ("from embedlab import count_params, load_config\nc = count_params(load_config(share_model))\n"
              "vocab_share = 1 - (c.token_embedding + c.lm_head) / c.total\n")
    detail = _verdict("04-modern-blocks", "vocab_share", source)
    assert "the share of the other part (the rest)" in detail, detail


def test_1_rows_made_shares_are_not_told_to_return_ids():
    source = ("word_to_id = {w: i for i, w in enumerate(words)}\n"
              "rows = np.array(table)[[word_to_id[w] for w in sentence]]\n"
              "batch = np.array([r / r.sum() for r in rows])\n")
    detail = _verdict("01-toy-table", "batch", source)
    assert "ids" not in detail and "scores" not in detail, detail
    assert "divided by its own sum" in detail, detail


def test_1_ids_given_as_fractions_are_still_told_to_return_ids():
    detail = _verdict("02-lookup-vs-matmul", "updated_rows", "updated_rows = np.unique(batch) + 0.5\n")
    assert "return the ids the question asks for" in detail, detail


def test_1_half_a_layer_count_names_no_keys_and_values_in_a_lesson_without_them():
    source = "linear_params = (linear_in * linear_out + linear_out) // 2\n"
    detail = _verdict("03-counting-gpt2", "linear_params", source)
    assert "keys and values" not in detail, detail
    assert "half the expected value" in detail, detail


def test_1_half_an_attention_layer_still_names_keys_and_values():
    source = ("from embedlab import load_config, model_shape\nshape = model_shape(load_config(attn_model))\n"
              "d, h, h_kv, head_dim = (shape.hidden_size, shape.num_heads, shape.num_kv_heads,\n"
              "                        shape.head_dim)\n"
              "attn_layer = (d * h * head_dim + 2 * d * h_kv * head_dim + h * head_dim * d) // 2\n")
    detail = _verdict("04-modern-blocks", "attn_layer", source)
    assert "keys and values" in detail, detail


def test_1_a_singular_that_ends_in_s_names_no_items():
    from embedlab.grading.parts import _counted_items
    from embedlab.grading.text import hint_problems

    assert not _counted_items("minus") and not _counted_items("output bias")
    assert _counted_items("rows") and _counted_items("output biases")
    assert hint_problems("your count has one number too many for each of the minus, twice: recheck it")
    assert not hint_problems("your count has one number too many for each of the rows, twice: recheck it")


def test_1_a_bias_added_twice_over_is_said_as_its_size():
    source = "linear_params = linear_in * linear_out + 3 * linear_out\n"
    detail = _verdict("03-counting-gpt2", "linear_params", source)
    assert "each of the bias" not in detail, detail


# 2. stories the learner's own code refutes


def test_2_rows_times_a_length_that_is_2_are_said_as_that_factor():
    source = ("word_to_id = {w: i for i, w in enumerate(words)}\n"
              "batch = np.array(table)[[word_to_id[w] for w in sentence]] * len(pair)\n")
    detail = _verdict("01-toy-table", "batch", source)
    assert "counted twice" not in detail, detail
    assert "multiplies the whole value by `len(pair)`" in detail, detail


def test_2_rows_truly_added_twice_keep_counted_twice():
    detail = _verdict("02-lookup-vs-matmul", "rows_lookup", "rows_lookup = E[ids] + E[ids]\n")
    assert "counted twice" in detail, detail


def test_2_a_cosine_rounded_to_float16_is_said_as_rounding_not_as_lengths():
    source = ("def cosine(a, b):\n    dot = np.float16(np.dot(a, b))\n"
              "    return float(dot / np.float16(np.sqrt(a @ a) * np.sqrt(b @ b)))\n")
    detail = _verdict("01-toy-table", "cosine", source)
    assert "float16's rounding" in detail, detail
    assert "both lengths" not in detail, detail


def test_2_a_cosine_without_a_cast_is_not_said_to_round():
    source = "def cosine(a, b):\n    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-3))\n"
    detail = _verdict("01-toy-table", "cosine", source)
    assert "float16" not in detail, detail


# 3. a set that de-duplicates, not a list read for another


def test_3_a_set_of_rows_is_named_as_keeping_one_of_each():
    source = "E = np.array(list({tuple(int(f in traits[w]) for f in features) for w in words}))\n"
    detail = _verdict("01-toy-table", "E", source)
    assert "is a set, which keeps one of each repeated item" in detail, detail


def test_3_a_list_of_words_is_never_read_for_a_table():
    source = "n_params = len(set(map(tuple, table))) * len(table[0])\n"
    detail = _verdict("01-toy-table", "n_params", source)
    assert "where `words` belongs" not in detail and "where `sentence` belongs" not in detail, detail
    assert "is a set, which keeps one of each repeated item" in detail, detail


def test_3_a_list_of_words_read_for_another_is_still_named():
    source = ("word_to_id = {w: i for i, w in enumerate(words)}\n"
              "batch = np.array(table)[[word_to_id[w] for w in pair]]\n")
    detail = _verdict("01-toy-table", "batch", source)
    assert "your cell reads `pair` where `sentence` belongs" in detail, detail


# 2 (again). a typed number said as the nearest input, where the learner's own value puts it elsewhere


def test_2_a_rounded_total_is_said_as_the_total_it_divides_by():
    source = ("counts = count_params(load_config(share_model))\n"
              "embedding_share = counts.token_embedding / 1.5e9\n")
    detail = _verdict("03-counting-gpt2", "embedding_share", source)
    assert "where the total is" in detail, detail
    assert "the rest" not in detail, detail


def test_2_a_rounded_rest_added_to_the_tables_is_still_the_rest():
    source = ("counts = count_params(load_config(share_model))\n"
              "embedding_share = counts.token_embedding / (counts.token_embedding "
              "+ counts.position_embedding + 1.48e9)\n")
    detail = _verdict("03-counting-gpt2", "embedding_share", source)
    assert "where the rest is" in detail, detail


# 2 (again). half a count that is a coincidence of the values summed (a table's 1s), not a factor left out


def test_2_a_table_of_ones_summed_row_by_row_is_said_as_values_for_their_number():
    detail = _verdict("01-toy-table", "n_params", "n_params = sum(sum(r) for r in table)\n")
    assert "factor 2" not in detail, detail
    assert "`sum(r)` adds up the values of `r`: their number, `len(r)`" in detail, detail


def test_2_a_numpy_sum_of_the_learners_table_is_said_as_values_for_their_number():
    detail = _verdict("01-toy-table", "n_params", "n_params = int(np.sum(E))\n")
    assert "factor 2" not in detail, detail
    assert "their number, `np.size(E)`" in detail, detail
