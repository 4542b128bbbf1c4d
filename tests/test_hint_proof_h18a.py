"""Blind corpus 18's stories told without being checked against the learner's code (fix18a), planted as new
instances (other code, other values, other questions than the corpus's): a hint tells a cause only where the
learner's own value or lines bear it out; where none does, only what is measured is said.

1. Ids that are every one exactly the answer's ids + 1 (or - 1) are said as that, measured entry by entry, before a
   question's own story of the ids ("the complement", "leave the reference rows out") that only fits a property.
2. A function's result exactly a unit's factor off the answer (10**3, 2**10, …) is said as that, measured on the
   call, not as a property it breaks followed by the property's story ("not the inverse, not by the tokens", "add
   sizes, not storage ids").
3. An argument the function assigns before it ever reads it (`context = 4096` first thing) is an argument it never
   reads; a result exactly the answer with the other sign, in lines that subtract nothing, is said as measured (the
   sign wrong, the size right), never as "subtracted the other way round"; where the lines do subtract, it still is.
4. A function's array every value within float16's rounding of the answer is said as measured (how close, and that
   a low precision leaves that), not as a broken invariant's story of what is added where ("not their mean").
5. A clause of an invariant's words that sends the learner to a call their function already makes ("words start as
   their UTF-8 bytes (word.encode('utf-8'))" beside `w.encode("utf-8")`) is left out; the rule before it is said.
6. Lengths taken as numbers of entries (`a.size * b.size`, `a.shape[0]`) are named as that, proven on the call's (or
   the rows') own values, and the cosine's range words no longer guess "a distance or a dot product".
7. A question's own story of a count or of rows is told only where the value is exactly the story's ("every
   occurrence counted": the occurrences' count; "the complement": the complement); a value that merely shares a
   property with it (as big, outside the batch) gets the measured words.

Each test was red on main at 93a4a97, green here.
"""

from __future__ import annotations

from solution_runner import incorrect_detail


_verdict = incorrect_detail  # tests/solution_runner.py


def test_1_ids_one_more_than_the_answers_are_said_as_that():
    detail = _verdict("02-lookup-vs-matmul", "updated_rows",
                      "rows = sorted(set(int(i) for i in np.asarray(batch).ravel()))\n"
                      "updated_rows = np.array([r + 1 for r in rows])\n")
    assert "exactly one more than the right one" in detail, detail
    assert "complement" not in detail, detail


def test_1_ranked_ids_one_less_are_said_as_that():
    source = ("from embedlab import unused_scores\ns = unused_scores(run.model.E, reference)\n"
              "ranked = [int(i) for i in np.argsort(-s, kind='stable') if int(i) not in set(reference)]\n"
              "top7 = np.array(ranked[:7]) - 1\n")
    detail = _verdict("10-glitch-tokens", "top7", source)
    assert "exactly one less than the right one" in detail, detail
    assert "leave the four reference rows out" not in detail, detail


def test_1_the_complement_where_it_is_one_is_still_said():
    detail = _verdict("02-lookup-vs-matmul", "updated_rows", "updated_rows = np.setdiff1d(np.arange(batch_V), batch)\n")
    assert "the complement" in detail, detail


def test_2_a_result_a_thousand_times_the_answer_is_said_as_that_not_as_the_invariants_story():
    source = ("def tokens_per_word(counts, n_tokens):\n    counts, n_tokens = np.asarray(counts, float), "
              "np.asarray(n_tokens, float)\n    return float(1000 * (counts * n_tokens).sum() / counts.sum())\n")
    detail = _verdict("08-vocabulary-size", "tokens_per_word", source)
    assert "1,000 times the expected value" in detail, detail
    assert "not the inverse" not in detail, detail


def test_2_a_count_in_kib_is_said_as_that_not_as_storage_ids_added():
    source = ("def count_unique(storage, sizes):\n    total = {}\n    for s, n in zip(storage, sizes):\n"
              "        total[int(s)] = int(n)\n    return sum(total.values()) / 1024\n")
    detail = _verdict("05-weight-tying", "count_unique", source)
    assert "1,024 times too small" in detail, detail
    assert "storage ids" not in detail, detail


def test_3_an_argument_overwritten_before_it_is_read_is_never_read():
    source = ("def gpt2_params(V, d, L, T):\n    V, T = 50257, 1024\n    block = 12 * d * d + 13 * d\n"
              "    return V * d + T * d + L * block + 2 * d\n")
    detail = _verdict("03-counting-gpt2", "gpt2_params", source)
    assert "never reads its arguments `V`, `T`" in detail, detail


def test_3_the_other_sign_without_a_subtraction_is_not_subtracted_the_other_way_round():
    source = ("def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
              "    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / -1e9\n")
    detail = _verdict("07-memory", "kv_cache_gb", source)
    assert "subtracted" not in detail and "the size too" not in detail, detail
    assert "the sign is wrong, the size is right" in detail, detail


def test_3_the_other_sign_of_a_subtraction_is_still_said_so():
    source = ("def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n"
              "    return 2 * d - (V * d + T * d + L * block + 4 * d)\n")
    detail = _verdict("03-counting-gpt2", "gpt2_params", source)
    assert "subtracted the other way round" in detail.lower(), detail


def test_4_a_gradient_added_in_float16_is_said_as_rounding_not_as_rows_added_wrong():
    source = ("def embedding_grad(contexts, dx0, vocab_size):\n    dx0 = np.asarray(dx0)\n"
              "    out = np.zeros((vocab_size, dx0.shape[-1]), dtype=np.float16)\n"
              "    for b, row in enumerate(np.asarray(contexts)):\n        for k, i in enumerate(row):\n"
              "            out[i] += dx0[b, k].astype(np.float16)\n    return out\n")
    detail = _verdict("09-what-rows-learn", "embedding_grad", source)
    assert "low precision's rounding" in detail, detail
    assert "mean" not in detail and "sum of its rows" not in detail, detail


def test_4_a_repeat_overwritten_is_still_named():
    source = ("def embedding_grad(contexts, dx0, vocab_size):\n    dx0 = np.asarray(dx0)\n"
              "    out = np.zeros((vocab_size, dx0.shape[-1]))\n"
              "    for b, row in enumerate(np.asarray(contexts)):\n        for k, i in enumerate(row):\n"
              "            out[i] = dx0[b, k]\n    return out\n")
    detail = _verdict("09-what-rows-learn", "embedding_grad", source)
    assert "keeps one value per repeated index" in detail, detail


_BPE = """def bpe_merges(counts, n_merges):
    from collections import Counter
    seqs = {w: list(w.encode("utf-8")) for w in counts}
    merges, next_id = [], 257
    while len(merges) < n_merges:
        pairs = Counter()
        for w, seq in seqs.items():
            for a, b in zip(seq, seq[1:]):
                pairs[(a, b)] += 1
        if not pairs:
            break
        top = max(pairs.values())
        best = min(p for p in pairs if pairs[p] == top)
        merges.append(best)
        for w, seq in seqs.items():
            out, i = [], 0
            while i < len(seq):
                if i + 1 < len(seq) and (seq[i], seq[i + 1]) == best:
                    out.append(next_id)
                    i += 2
                else:
                    out.append(seq[i])
                    i += 1
            seqs[w] = out
        next_id += 1
    return merges
"""


def test_5_a_clause_sending_the_learner_to_a_call_they_make_is_left_out():
    detail = _verdict("08-vocabulary-size", "bpe_merges", _BPE)
    assert "encode" not in detail and "not as characters" not in detail, detail
    assert "gets id 256 + k" in detail, detail


def test_5_the_clause_stays_where_the_function_does_not_encode():
    source = _BPE.replace('list(w.encode("utf-8"))', "[ord(c) for c in w]")
    detail = _verdict("08-vocabulary-size", "bpe_merges", source)
    assert "not as characters" in detail, detail


def test_6_lengths_counted_as_entries_are_named_as_that():
    detail = _verdict("01-toy-table", "cos_pair",
                      "table = np.array(table, dtype=float)\nu = table[words.index(pair[0])]\n"
                      "v = table[words.index(pair[1])]\ncos_pair = float(u @ v) / (u.size * v.size)\n")
    assert "numbers of entries (len)" in detail, detail
    detail = _verdict("01-toy-table", "cosine",
                      "def cosine(a, b):\n    a, b = np.asarray(a, float), np.asarray(b, float)\n"
                      "    return float(np.dot(a, b) / (a.shape[0] * b.shape[0]))\n")
    assert "numbers of entries (len)" in detail and "a distance or a dot product" not in detail, detail


def test_7_a_count_merely_as_big_as_every_occurrence_is_not_told_it_counted_them():
    detail = _verdict("12-change-a-vocabulary", "trimmed_rows",
                      "tok = load_tokenizer(tokenizer)\ntrimmed_rows = tok.n_vocab // 4\n")
    assert "every occurrence" not in detail, detail


def test_7_every_occurrence_counted_is_still_told():
    source = ("tok = load_tokenizer(tokenizer)\nfrequencies = wordfreq.get_frequency_dict(lang, wordlist='small')\n"
              "words = [w for w in frequencies if not any(ch.isdigit() for ch in w)]\n"
              "all_ids = [i for w in words[:n_words] for i in tok.encode_ordinary(' ' + w)]\n"
              "trimmed_rows = len(all_ids) + 256 + 1\n")
    detail = _verdict("12-change-a-vocabulary", "trimmed_rows", source)
    assert "not every occurrence" in detail, detail


def test_7_rows_outside_the_batch_are_not_the_complement_unless_they_are():
    detail = _verdict("02-lookup-vs-matmul", "updated_rows", "ids = np.unique(batch)\n"
                      "updated_rows = np.array([i for i in range(batch_V) if i not in ids][:2])\n")
    assert "none of these is in the batch" in detail and "complement" not in detail, detail


def test_3_the_exact_other_sign_says_which_sign_the_learner_has():
    """A judge found "the sign is wrong, the size is right: recheck what makes your result negative" on a
    result of +1 where the answer is -1: the words name the learner's own sign."""
    from embedlab.grading.diagnose import measured_hint

    assert measured_hint(1.0, -1.0).endswith("what makes your result positive")
    assert measured_hint(-3.0, 3.0).endswith("what makes your result negative")
