"""Blind corpus 17's misleading kinds, planted as new instances (other questions, lessons and code styles than the
corpus's): a hint names a slip only when undoing it in the learner's own code gives the answer, on the book's inputs
and on a look; a story that only fits the number is not told, and the code visibly writing the blamed term right
vetoes it; a fallback says only what is measured.

1. An operator swapped in a cell is named only where the swap also gives the answer on the looks (the kernel's, whose
   integer answers are read as {"int": n}): `rows_now + n_new - V` made `- n_new` fits the book's numbers only.
2. A story of named parts whose blamed term the learner's lines visibly write ("no MLP biases" beside `4 * d + … + d`)
   is not told.
3. A swap claimed of a name the learner's lines never name ("uses `table_seed` where `n_tokens` belongs") is not told,
   even where the lines do not read as arithmetic.
4. One-edit proofs run in the learner's kernel for three more kinds: a reduction that should not be there (the rows
   summed or maxed into one), a list the notebook gives read where another belongs (`words` for `sentence`), a count
   where one less belongs (`n * n` pairs).
5. Two neighbouring factors of a chain the answer lacks (`* 3 / 2`) are named together; a factor is not named as one
   the question does not have where the solution's own product writes it as often (`2 * L`: the keys and values,
   with 4 bytes for bf16's 2); twice a head's FLOPs says the rules and blames none of the readings.
6. A function's results returned in another order are named as that, not as a broken invariant.
7. A function's own words are not said where the named parts tell two different stories of its value.
8. A row count off by one, not the expected rows less one, is said as a count only ("one row too few" is not).

Each test was red on main at ecca188 (run with PYTHONPATH pointing at its lib), green here.
"""

from __future__ import annotations

from solution_runner import incorrect_detail


_verdict = incorrect_detail  # tests/solution_runner.py


def test_1_an_operator_swap_right_on_the_book_inputs_only_is_not_named():
    detail = _verdict("12-change-a-vocabulary", "padding_rows",
                      "rows_now = padded_size(V, pad_multiple)\npadding_rows = rows_now + n_new - V\n")
    assert "where the formula subtracts" not in detail and "your own code gives the answer" not in detail, detail


def test_1_an_operator_swap_right_on_the_looks_too_is_still_named():
    # the control: 12·d² − 13·d, with `+` put back, is right for every d
    detail = _verdict("03-counting-gpt2", "block_params", "block_params = 12 * d * d - 13 * d\n")
    assert "subtracts where the formula adds" in detail, detail


def test_2_a_story_blaming_a_term_the_lines_write_is_not_told():
    # the LayerNorms (4·d) and the output projection's bias (d) left out: 5·d short, which is also "no MLP biases"
    source = ("qkv = 3 * d * d + 3 * d\nproj = d * d\nmlp = 4 * d * d + 4 * d + 4 * d * d + d\n"
              "block_params = qkv + proj + mlp\n")
    detail = _verdict("03-counting-gpt2", "block_params", source)
    assert "MLP biases" not in detail and "MLP" not in detail, detail


def test_3_a_swap_of_a_name_the_lines_never_name_is_not_told():
    # d multiplied once too often, in lines the arithmetic reading cannot follow: 512 = n_tokens / table_seed here
    detail = _verdict("02-lookup-vs-matmul", "batch_flops",
                      "batch_flops = 2 * int(np.prod([n_tokens, V, d])) * int(np.sqrt(d * d))\n")
    assert "table_seed" not in detail, detail


def test_4_a_reduction_that_should_not_be_there_is_named():
    detail = _verdict("02-lookup-vs-matmul", "rows_lookup", "one = E[ids]\nrows_lookup = one.sum(axis=0, keepdims=True)\n")
    assert "reduces with sum: without the sum" in detail and "your own code gives the answer" in detail, detail
    detail = _verdict("01-toy-table", "batch",
                      "batch = np.array(table)[[word_to_id[w] for w in sentence]].max(axis=0)\n")
    assert "reduces with max: without the max" in detail, detail
    assert "check which axis" not in detail and "flatten" not in detail, detail


def test_4_a_list_read_where_another_belongs_is_named():
    detail = _verdict("01-toy-table", "batch", "batch = np.stack([np.array(table)[word_to_id[w]] for w in words])\n")
    assert "reads `words` where `sentence` belongs" in detail, detail


def test_4_a_count_where_one_less_belongs_is_named():
    source = ("n = len(never)\nunit = run.model.E[never] / np.linalg.norm(run.model.E[never], axis=1, keepdims=True)\n"
              "sims = unit @ unit.T\nnever_cos = (sims.sum() - np.trace(sims)) / (n * n)\n")
    detail = _verdict("10-glitch-tokens", "never_cos", source)
    assert "uses `n` where `n - 1` belongs" in detail, detail
    assert "the right rows" not in detail and "both lengths" not in detail, detail


def test_5_two_neighbouring_factors_the_answer_lacks_are_named_together():
    detail = _verdict("07-memory", "weights_gb_4bit", "weights_gb_4bit = N / 2 / 1e9 * 3 / 2\n")
    assert "`* 3 / 2` is a factor of 1.5 here" in detail, detail


def test_5_twice_a_head_says_the_rules_and_blames_none():
    # x 2 is a lookup priced, a backward pass counted or 4 FLOPs per weight alike: the words blame none of them
    detail = _verdict("08-vocabulary-size", "extra_head_flops",
                      "per_weight = 4   # forward and backward\nextra_head_flops = per_weight * d * V_big - per_weight * d * V_small\n")
    assert "a tied table is priced once" not in detail and "forward only" in detail, detail


def test_5_a_factor_the_solution_writes_as_often_is_not_the_one_named():
    # bytes typed 4 (fp32) where bf16's 2 belongs: without the 2 of keys and values the value is right too (4 = 2·2)
    detail = _verdict("07-memory", "kv_bytes_per_token",
                      "kv_bytes_per_token = int(head_dim * h_kv * L * 2 * 4)   # keys and values, 4 bytes each\n")
    assert "multiplies by `2`" not in detail, detail


def test_6_results_returned_in_another_order_are_named_as_that():
    source = """def tinylm_grads(E, W, b, U, contexts, targets):
    n, k = contexts.shape
    h = np.tanh(E[contexts].reshape(n, k * E.shape[1]) @ W + b)
    z = h @ U.T
    z = z - z.max(axis=1, keepdims=True)
    probs = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    probs[np.arange(n), targets] -= 1
    probs = probs / n
    grad_U = probs.T @ h
    back = ((probs @ U) * (1 - h * h)) @ W.T
    grad_E = np.zeros(E.shape)
    np.add.at(grad_E, contexts, back.reshape(n, k, -1))
    return grad_U, grad_E
"""
    detail = _verdict("09-what-rows-learn", "tinylm_grads", source)
    assert "returns `grad_U, grad_E`" in detail and "return grad_E, grad_U" in detail, detail
    assert "zero gradient" not in detail, detail


def test_7_a_functions_own_words_are_not_said_where_two_stories_fit():
    source = ("def gpt2_params(V, d, L, T):\n    per_block = 12 * d ** 2 + 9 * d\n    embeddings = (V + T) * d\n"
              "    return embeddings + L * per_block + 2 * d\n")
    detail = _verdict("03-counting-gpt2", "gpt2_params", source)
    assert "each block's two LayerNorms have a scale and a shift" not in detail, detail
    assert "MLP first-layer bias" in detail, detail


def test_8_a_row_count_off_by_one_says_only_the_count():
    detail = _verdict("01-toy-table", "batch", "batch = np.array(table)[[3, 2, 1]]\n")
    assert "one row too few" not in detail and "one fewer than expected" in detail, detail
