"""Misleading and generic hints of the blind heldout13 corpus (issue 46), by kind; each kind planted here as NEW
instances (another question, lesson or code style than the corpus's entry). The one proof rule: a slip is named
only when its counterfactual holds on the learner's own code or value; otherwise only what is measured is said.

(a) two slips at once (two parts, a part and a unit) are shown only where a look, on other inputs, finds the same
    two again, and never with a clause the cell refutes (a part "left out" that the cell writes): the book's inputs
    alone fit many pairs (a value of 0 is every part left out);
(b) two positional arguments of a call swapped: the call with them put back, run in the learner's kernel
    (embedlab.grading.undo), gives the answer;
(c) a number typed as a call's argument where 1 or a parameter of the notebook belongs: the call with it there
    gives the answer;
(d) `X[idx] += v` with an index repeated: `np.add.at(X, idx, v)` in its place gives the answer;
(e) a test inverted without `not` (`in` for `not in`, `!=` for `==`), or a test that needs a `not`: the test
    inverted gives the answer; a boundary kept or left out (`<=` for `<`) is tried first (a symmetric table makes
    `i > j` give what `i < j` does). A yes/no answer is never proven by a flip (undo.YES_NO), nor a choice among a
    few words (any flip reaches another of them);
(f) the edits' controls: a swap of a range's start and stop is leaving the range out, not an order; a number typed
    is named as a parameter only when another number there (the parameter's + 1) does not give the answer too, and
    a rounding's digits are a setting, not a quantity;
(g) rows written into a table of zeros by plain assignment (`dE[ids] = dx0`): a repeated index keeps its last value;
    `np.add.at` in its place gives the answer (a hint that quotes `+=` to such a cell quotes code it did not write);
(h) words name what the cell writes: an angle by the calls it makes (arccos gives radians, not degrees); a unit of
    bytes (bits, MiB) never for a FLOP or parameter count, and an eighth said as divided by 8 once too often,
    never as "bits asked" (no question asks bits); a question's own hint says the value it tests (1/V is not
    1/(V + n_new));
(i) two explanations that fit the same value are said as alternatives, each a slip alone, never as two made at once;
(j) of two such explanations, the one whose changed part the learner's own expression writes at its changed value
    (`layer_norms = d + d`: half the LayerNorms; `d * V_small` in a ratio: 1 FLOP per weight) is named alone;
(k) an operator swapped in the learner's expression is named only when the term it joins does not vanish: `2 * d`
    made `2 / d` beside billions gives the answer as the term left out does (its control), so it proves no operator;
(l) "you used X where Y belongs" is refuted by a cell whose own lines read Y: the value's match is a coincidence of
    the book's inputs (h = L = 32 in Llama 3 8B), not the slip.
"""

from __future__ import annotations

from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines

PROVEN = "your own code gives the answer"


# --------------------------------------------------------------------------
# (a) two slips at once


def test_a_two_parts_left_out_of_a_zero_are_not_named():
    # the padding divided by the multiple (lesson 12's padding_rows, not the corpus's swapped arguments): the cell
    # computes the padded size and subtracts the rows, and its value, 0, is also "both parts left out"
    for source in ("rows = max(V, n_tok + n_new)\npadding_rows = (padded_size(rows, pad_multiple) - rows) // pad_multiple\n",
                   "rows = max(V, n_tok + n_new)\npadding_rows = padded_size(rows, pad_multiple) % pad_multiple\n"):
        detail = _detail("12-change-a-vocabulary", "padding_rows", source)
        assert "leaves out the padded size" not in detail and "; and" not in detail, (source, detail)


def test_a_a_pair_is_withheld_without_a_look_and_kept_with_one():
    """The rule itself, on a question of one's own: a two-change explanation is 'no' where no look ran, and 'look'
    where a look, built for other parameters, finds the same two changes again."""
    import dataclasses

    from embedlab.grading import parts
    from embedlab.grading.kinds import Integer
    from embedlab.grading.parts import Answer, Part, Sum

    def question(a, b):
        return Integer("total", parts=lambda: Answer(Sum("the total", [Part("the first part", a, "a"),
                                                                        Part("the second part", b, "b")])),
                       unit="parameters")

    q = question(1000, 30)
    words = parts.search(q.parts(), 0)  # both parts left out
    assert words and parts.two_changes(words), words
    assert q._support(words, "book", 0, 1030) == "no"
    # a look on other parameters (a = 2000, b = 70) where the learner's cell gives 0 too: then the look weighs
    # nothing (a value of 0), and the pair stays unproven
    look = question(2000, 70)
    report = [{"look": 0, "kind": "integer", "got": q.to_data(0), "want": q.to_data(2070)}]
    q2 = dataclasses.replace(q, elsewhere=report, at_look=lambda k: (look, {"a": 2000}, {"a": 1000}))
    assert q2._support(words, "book", 0, 1030) == "no"
    # a look where both parts are left out of a nonzero whole (an extra term the cell adds, 5): found again
    extra = Integer("total", parts=lambda: Answer(Sum("the total", [
        Part("the first part", 1000, "a"), Part("the second part", 30, "b"), Part("an extra", 5, "e")])),
        unit="parameters")
    found = parts.search(extra.parts(), 5)
    assert found and parts.two_changes(found), found
    look = Integer("total", parts=lambda: Answer(Sum("the total", [
        Part("the first part", 2000, "a"), Part("the second part", 70, "b"), Part("an extra", 5, "e")])),
        unit="parameters")
    report = [{"look": 0, "kind": "integer", "got": q.to_data(5), "want": q.to_data(2075)}]
    q3 = dataclasses.replace(extra, elsewhere=report, at_look=lambda k: (look, {"a": 2000}, {"a": 1000}))
    assert q3._support(found, "book", 5, 1035) == "look"


def test_a_a_clause_the_cell_refutes_is_not_part_of_a_pair():
    # the cell subtracts a term of exactly the tokens' rows: "does not subtract the tokens' rows" is refuted
    from embedlab.grading import parts
    from embedlab.grading.parts import Answer, Part, Sum

    answer = Answer(Sum("the rows", [Part("the padded size", 50304, "rounded up"),
                                     Part("minus the tokens' rows", -50261, "n_tok + n_new")]))
    assert "the tokens' rows" in (parts.search(answer, 0) or "")  # without the cell: both parts left out
    answer.present = frozenset({(-50261, "padding_rows"), (50261, "padding_rows")})
    assert "the tokens' rows" not in (parts.search(answer, 0) or ""), parts.search(answer, 0)


# --------------------------------------------------------------------------
# (b) positional arguments swapped


def test_b_arguments_of_a_library_call_swapped_are_named():
    # lesson 04's padding written with padded_size (the corpus's is lesson 12's)
    source = "from embedlab import padded_size\npadding_params = (padded_size(pad_multiple, V) - V) * d\n"
    detail = _detail("04-modern-blocks", "padding_params", source)
    assert "`padded_size(pad_multiple, V)` gets `pad_multiple` and `V` the other way round" in detail, detail
    assert "`padded_size(V, pad_multiple)`" in detail and PROVEN in detail, detail
    assert "leaves out" not in detail, detail


def test_b_arguments_of_the_learners_own_helper_swapped_are_named():
    # a helper of the learner's (inputs, outputs) called the other way round for the MLP's second layer
    source = ("def linear(n_in, n_out):\n    return n_in * n_out + n_out\n\n"
              "block_params = linear(d, 3 * d) + linear(d, d) + linear(4 * d, d) + linear(4 * d, d) + 4 * d\n")
    detail = _detail("03-counting-gpt2", "block_params", source)
    assert "`linear(4 * d, d)` gets `4 * d` and `d` the other way round" in detail and PROVEN in detail, detail
    assert "two slips" not in detail, detail


def test_b_a_swap_that_does_not_give_the_answer_is_not_named():
    # the arguments swapped AND the rows not subtracted: the swap alone is still wrong
    source = "from embedlab import padded_size\npadding_params = padded_size(pad_multiple, V) * d\n"
    detail = _detail("04-modern-blocks", "padding_params", source)
    assert "other way round" not in detail and PROVEN not in detail, detail


# --------------------------------------------------------------------------
# (c) a number typed as a call's argument


def test_c_a_typed_argument_where_a_parameter_belongs_is_named():
    # lesson 02: the lesson's BATCH of 512 typed where the exercise's n_tokens belongs
    source = "from embedlab import one_hot_bytes\none_hot_batch_bytes = one_hot_bytes(V, 512)\n"
    detail = _detail("02-lookup-vs-matmul", "one_hot_batch_bytes", source)
    assert "the number 512 you typed: with `n_tokens` in its place" in detail and PROVEN in detail, detail
    assert "4 bytes, not 2" not in detail, detail


def test_c_a_typed_argument_where_one_belongs_is_named():
    # a batch of 8 typed (the corpus's was a context of 8192), positionally
    source = ("from embedlab import kv_cache_bytes\n"
              "kv_bytes_per_token = int(kv_cache_bytes(config, 1, 8, precision=cache_precision))\n")
    detail = _detail("07-memory", "kv_bytes_per_token", source)
    assert "the number 8 you typed: with 1 in its place" in detail and PROVEN in detail, detail
    assert "bits" not in detail, detail


def test_c_a_typed_argument_whose_replacement_is_still_wrong_is_not_named():
    # the batch of 8 and bits (× 8) besides: 1 in the batch's place still gives 8 times the answer
    source = ("from embedlab import kv_cache_bytes\n"
              "kv_bytes_per_token = int(kv_cache_bytes(config, 1, 8, precision=cache_precision)) * 8\n")
    detail = _detail("07-memory", "kv_bytes_per_token", source)
    assert "you typed: with" not in detail and PROVEN not in detail, detail


# --------------------------------------------------------------------------
# (d) a repeated index scattered with +=


def test_d_a_repeated_index_scattered_with_plus_equals_is_named():
    for lesson, name, source, said in (
            # a loop over the batch: an id twice in one context gets one contribution
            ("09-what-rows-learn", "tinylm_grads",
             "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n    d = E.shape[1]\n"
             "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
             "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n    p /= p.sum(axis=1, keepdims=True)\n"
             "    p[np.arange(B), targets] -= 1\n    p /= B\n    dU = p.T @ x\n"
             "    dx0 = ((p @ U) * (1 - x ** 2)) @ W.T\n    dE = np.zeros_like(E)\n    for t in range(B):\n"
             "        dE[contexts[t]] += dx0[t].reshape(C, d)\n    return dE, dU\n",
             "np.add.at(dE, contexts[t], …)"),
            # a cell, with a whole slice after the ids
            ("05-weight-tying", "grad_E",
             "lookup = np.zeros((V, d))\nlookup[ids, :] += dx0\ngrad_E = dlogits.T @ x + lookup\n",
             "np.add.at(lookup, ids, …)")):
        detail = _detail(lesson, name, source)
        assert "adds a repeated index once" in detail and said in detail and PROVEN in detail, (name, detail)


def test_d_plus_equals_on_positions_that_never_repeat_is_not_named():
    # one row per step of a loop (`dE[i] += …`): add.at gives the same, so the edit undoes nothing; the slip is
    # elsewhere (the gradient doubled)
    source = ("def embedding_grad(contexts, dx0, vocab_size):\n    ids = np.asarray(contexts).reshape(-1)\n"
              "    rows = np.asarray(dx0).reshape(len(ids), -1)\n    dE = np.zeros((vocab_size, rows.shape[1]))\n"
              "    for t, i in enumerate(ids):\n        dE[i] += 2 * rows[t]\n    return dE\n")
    detail = _detail("09-what-rows-learn", "embedding_grad", source)
    assert "adds a repeated index once" not in detail, detail


# --------------------------------------------------------------------------
# (e) a test inverted without `not`


def test_e_a_comparison_inverted_is_named():
    for lesson, name, source, said in (
            # a storage's first appearance kept the other way round (`!=` for `==`)
            ("05-weight-tying", "count_unique",
             "def count_unique(storage, sizes):\n    first = {}\n    for i, s in enumerate(storage):\n"
             "        first.setdefault(s, i)\n"
             "    return int(sum(n for i, n in enumerate(sizes) if first[storage[i]] != i))\n",
             "`first[storage[i]] != i` inverts the test, so your code keeps its complement (what the test should leave out). With `first[storage[i]] == i`"),
            # a one-hot row filled where the id is not
            ("02-lookup-vs-matmul", "one_hot",
             "def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n    for t, i in enumerate(ids):\n"
             "        for j in range(V):\n            out[t, j] = 1.0 if j != i else 0.0\n    return out\n",
             "`j != i` inverts the test, so your code keeps its complement (what the test should leave out). With `j == i`")):
        detail = _detail(lesson, name, source)
        assert said in detail and PROVEN in detail, (name, detail)


def test_e_a_test_that_needs_a_not_is_named():
    # a storage counted when it was seen before: the test needs a `not` (no comparison to invert)
    source = ("def count_unique(storage, sizes):\n    seen, total = {}, 0\n    for s, n in zip(storage, sizes):\n"
              "        if seen.get(s, False):\n            total += n\n        seen[s] = True\n    return total\n")
    detail = _detail("05-weight-tying", "count_unique", source)
    assert "the test `seen.get(s, False)` is the wrong way round, so your code keeps its complement. With `not seen.get(s, False)`" in detail, detail
    assert PROVEN in detail, detail


def test_e_an_inversion_whose_value_is_still_wrong_is_not_named():
    # inverted AND the sizes of repeats added: flipping the test alone is still wrong
    source = ("def count_unique(storage, sizes):\n    seen, total = set(), 0\n"
              "    for s, n in zip(storage, sizes):\n        if s in seen:\n            total += 2 * n\n"
              "        seen.add(s)\n    return total\n")
    detail = _detail("05-weight-tying", "count_unique", source)
    assert "inverts the test" not in detail, detail


def test_e_a_yes_no_answer_is_never_proven_by_inverting_a_comparison():
    from embedlab.grading import undo
    from embedlab.grading.lessons import questions_for

    q = next(q for q in questions_for("09-what-rows-learn") if q.name == "rotation_changes_cosines")
    words = [w for w, _ in undo.edits("answer = 'yes' if a == b else 'no'\n")]
    assert any("inverts the test" in w for w in words), words
    report = [{"kind": q.kind, "got": {"str": "yes"}, undo.UNDONE: words[0]}]
    assert undo.proven(q, report, lambda got: True) is None


def test_e_a_boundary_kept_is_named_as_the_boundary_not_an_inversion():
    # the diagonal of a symmetric cosine table kept (`j >= i`), in a comprehension
    source = ("unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
              "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if j >= i]\n"
              "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n")
    detail = _detail("09-what-rows-learn", "gap", source)
    assert "`j >= i` keeps the boundary" in detail and "`j > i`" in detail and PROVEN in detail, detail
    assert "inverts the test" not in detail, detail


def test_e_a_choice_among_a_few_words_is_never_proven_by_a_flip():
    # == cannot tell -0.0 from 0.0: the test is the wrong test, not an inverted one, though flipping it reaches the
    # other word
    source = ("rows = E_zero[[0, 1]]\nvia_matmul = np.eye(len(E_zero))[[0, 1]] @ E_zero\n"
              "keeps_sign = 'lookup' if rows[0, 0] != via_matmul[0, 0] else 'both'\n")
    detail = _detail("02-lookup-vs-matmul", "keeps_sign", source)
    assert "inverts the test" not in detail and PROVEN not in detail, detail


# --------------------------------------------------------------------------
# (f) the edits' controls


def test_f_a_range_swapped_empty_is_not_named_as_swapped_arguments():
    # the continuation bytes counted as invalid: range(192, 128) is empty, which leaves them out, no order fixed
    detail = _detail("10-glitch-tokens", "invalid_bytes", "invalid_bytes = len(range(128, 192)) + len(range(245, 256)) + 2\n")
    assert "other way round" not in detail, detail


def test_f_a_swap_that_makes_the_call_do_nothing_is_not_named():
    # padded_size(multiple, n) is n: the swap leaves the padding out, which is the slip (question 1 does not pad),
    # not the order of the arguments; its control (the call replaced by its argument) gives the answer too
    source = ("grown = padded_size(max(V, n_tok + n_new), pad_multiple)\n"
              "added_params = (grown - V) * d * (1 if tied else 2)\n")
    detail = _detail("12-change-a-vocabulary", "added_params", source)
    assert "other way round" not in detail and PROVEN not in detail, detail


def test_f_a_rounding_s_digits_are_not_a_parameter():
    from embedlab.grading import undo

    words = [w for w, _ in undo.edits("y = np.round(x @ W, 4)\nz = (x @ W).round(4)\n", (), {"batch_V": 10})]
    assert not any("you typed" in w for w in words), words
    # a number of a quantity is tried, with its control (the parameter's value + 1) beside it
    made = undo.edits("b = one_hot_bytes(V, 512)\n", (), {"n_tokens": 1024})
    named = [w for w, t in made if "with `n_tokens` in its place" in w]
    controls = [getattr(t, undo.CONTROL) for _, t in made if getattr(t, undo.CONTROL, None)]
    assert named and named[0] in controls, (named, controls)
    # an edit whose control gives the answer too proves nothing
    q = type("Q", (), {"kind": "integer"})()
    report = [{undo.UNDONE: named[0], "kind": "integer", "got": 1}, {undo.UNDONE: "(control) " + named[0],
                                                                     undo.CONTROL: named[0], "kind": "integer", "got": 1}]
    assert undo.proven(q, report, lambda got: got == 1) is None
    assert undo.proven(q, report[:1] + [{**report[1], "got": 2}], lambda got: got == 1) == named[0]


# --------------------------------------------------------------------------
# (g) rows written into zeros by plain assignment


def test_g_rows_assigned_into_zeros_are_named_with_add_at():
    source = "lookup = np.zeros((V, d))\nlookup[ids] = dx0\ngrad_E = dlogits.T @ x + lookup\n"
    detail = _detail("05-weight-tying", "grad_E", source)
    assert "`lookup[ids] = dx0` keeps one value per repeated index" in detail, detail
    assert "np.add.at(lookup, ids, …)" in detail and PROVEN in detail and "+=" not in detail, detail


# --------------------------------------------------------------------------
# (h) words that name what the cell writes


def test_h_an_angle_is_named_by_the_calls_the_cell_makes():
    for source, said in (
            ("i, j = word_to_id[pair[0]], word_to_id[pair[1]]\ncos_pair = float(np.arccos(table[i] @ table[j] / "
             "(np.linalg.norm(table[i]) * np.linalg.norm(table[j]))))\n", "(arccos)"),
            ("i, j = word_to_id[pair[0]], word_to_id[pair[1]]\n"
             "cos_pair = float(np.degrees(np.arccos(cosine_similarity(table[i], table[j]))))\n", "(arccos, degrees)")):
        detail = _detail("01-toy-table", "cos_pair", source)
        assert f"an angle {said}" in detail, (source, detail)


def test_h_no_bits_or_bytes_for_a_flop_rate_and_an_eighth_said_as_measured():
    detail = _detail("06-params-vs-compute", "flop_rate",
                     "gpus_per_node = 8\nflop_rate = 6 * N * D / (GPU_HOURS * 3600) / gpus_per_node\n")
    assert "bits" not in detail and "bytes" not in detail, detail
    detail = _detail("07-memory", "weights_gb_4bit", "bits = N * 4\nweights_gb_4bit = bits / 8 / 8 / 1e9\n")
    assert "divided by 8 once too often" in detail and "bits are asked" not in detail, detail


def test_h_a_questions_own_hint_says_the_value_it_tests():
    detail = _detail("12-change-a-vocabulary", "p_new_token", "p_new_token = 1 / corpus.vocab_size\n")
    assert "1/V" in detail and "1/(V + n_new)" not in detail, detail


# --------------------------------------------------------------------------
# (i) alternatives said as alternatives


def test_i_two_explanations_are_said_each_alone():
    # one of k and v left out, written as grouped terms: either fits, the cell cannot tell which
    source = "q_and_o = 2 * d * h * head_dim\nkv = d * h_kv * head_dim\nattn_layer = q_and_o + kv\n"
    detail = _detail("04-modern-blocks", "attn_layer", source)
    # the one frame for two alternatives (parts.TWO_SLIPS): one of them was made, put that one right
    assert detail.startswith("two slips give exactly your number; put right the one you made. "), detail
    assert "both" not in detail, detail


def test_j_the_alternative_the_cell_writes_is_named_alone():
    for lesson, name, source, said, not_said in (
            ("03-counting-gpt2", "block_params",
             "attn = 4 * d * d + 4 * d\nmlp = 8 * d * d + 5 * d\nlayer_norms = d + d\n"
             "block_params = attn + mlp + layer_norms\n", "half of the LayerNorms", "q, k, v"),
            ("08-vocabulary-size", "break_even_r",
             "head_small = d * V_small\nhead_big = d * V_big\nbreak_even_r = (blocks + head_small) / (blocks + head_big)\n",
             "2 FLOPs per weight", "counted twice")):
        detail = _detail(lesson, name, source)
        assert said in detail and not_said not in detail and "two slips" not in detail, (name, detail)


def test_k_an_operator_whose_term_vanishes_is_not_named():
    # the final norm added to the whole (a named term), where the answer has none
    source = "norms = 2 * d   # the final norm's scale and shift\nembedding_share = table / (table + rest + norms)\n"
    detail = _detail("08-vocabulary-size", "embedding_share", source)
    assert "where the formula divides" not in detail and PROVEN not in detail, detail


def test_l_an_input_said_missing_that_the_cell_reads_is_not_named():
    # a stray h_kv / h on the saving, factored (h - h_kv): L is read, so h_kv is not where L belongs
    source = ("saving = 2 * L * (h - h_kv) * head_dim * BYTES_PER_PARAM[cache_precision] * context\n"
              "gqa_saving_gib = saving / 2**30 * h_kv / h\n")
    detail = _detail("07-memory", "gqa_saving_gib", source)
    assert "where L belongs" not in detail, detail
    # the rule itself: a cell that never reads L is told, one that does is not
    import dataclasses

    from embedlab.grading import explain
    from embedlab.grading.lessons import questions_for

    q = next(q for q in questions_for("07-memory") if q.name == "gqa_saving_gib")
    words = "you used h_kv where L belongs (layers: L)"
    assert explain.swap_refuted(dataclasses.replace(q, source=source), words)
    assert not explain.swap_refuted(dataclasses.replace(q, source="gqa_saving_gib = 2 * h_kv * h * head_dim / 2**30\n"),
                                    words)


# --------------------------------------------------------------------------
# The grader names the same edits: its probe runs them in the submission's kernel


def test_the_grader_names_the_new_edits_as_the_notebook_check_does():
    from test_hint_proof7 import _graded

    for lesson, name, source in (
            ("04-modern-blocks", "padding_params",
             "from embedlab import padded_size\npadding_params = (padded_size(pad_multiple, V) - V) * d\n"),
            ("02-lookup-vs-matmul", "one_hot_batch_bytes",
             "from embedlab import one_hot_bytes\none_hot_batch_bytes = one_hot_bytes(V, 512)\n"),
            ("02-lookup-vs-matmul", "embedding_backward",
             "def embedding_backward(ids, grad_out, V):\n    grad = np.zeros((V, grad_out.shape[1]))\n"
             "    grad[ids] += grad_out\n    return grad\n"),
            ("05-weight-tying", "count_unique",
             "def count_unique(storage, sizes):\n    first = {}\n    for i, s in enumerate(storage):\n"
             "        first.setdefault(s, i)\n"
             "    return int(sum(n for i, n in enumerate(sizes) if first[storage[i]] != i))\n")):
        status, detail = _graded(lesson, name, source)
        assert status == "incorrect" and PROVEN in detail, (name, detail)
        assert detail == _detail(lesson, name, source), (detail, _detail(lesson, name, source))
