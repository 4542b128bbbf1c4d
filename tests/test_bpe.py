"""Byte-pair encoding: hand-checked merges, agreement with a naive re-count, and the data."""

from collections import Counter

import numpy as np
import pytest

from embedlab.bpe import BASE_VOCAB, BPE, merge_word, add_counts, train_bpe, word_counts


def naive_bpe(counts, vocab_size):
    """The textbook loop: re-count every pair after every merge. Slow, obviously right."""
    words = [(list(w.encode("utf-8")), c) for w, c in counts.items()]
    merges = []
    while len(merges) < vocab_size - BASE_VOCAB:
        pairs = Counter()
        for tokens, c in words:
            for p in zip(tokens, tokens[1:]):
                pairs[p] += c
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p], p))
        merges.append(best)
        words = [(merge_word(t, best, BASE_VOCAB + len(merges) - 1), c) for t, c in words]
    return merges


SENNRICH = {"low": 5, "lower": 2, "newest": 6, "widest": 3}  # Sennrich et al. 2016, Fig. 1


def test_first_merges_by_hand():
    # pair counts: e-s 9, s-t 9 (newest 6 + widest 3), w-e 8, l-o 7, o-w 7, ...
    # e-s and s-t tie at 9: the smaller pair of ids (e=101, s=115) wins, then es+t = 9.
    bpe = train_bpe(SENNRICH, BASE_VOCAB + 3)
    assert bpe.merges[0] == (ord("e"), ord("s"))
    assert bpe.merges[1] == (BASE_VOCAB, ord("t"))
    assert bpe.token_bytes(BASE_VOCAB + 1) == b"est"
    # third: w-e was 8 (lower 2 + newest 6), but newest is now n-e-w-est, so w-e is 2;
    # l-o and o-w tie at 7 (low 5 + lower 2) and l=108 < o=111 wins
    assert bpe.token_bytes(BASE_VOCAB + 2) == b"lo"
    assert bpe.vocab_size == BASE_VOCAB + 3


def test_overlapping_pairs_merge_left_to_right():
    assert merge_word([1, 1, 1], (1, 1), 9) == [9, 1]
    assert merge_word([1, 2, 1, 2], (1, 2), 9) == [9, 9]


@pytest.mark.parametrize("langs", [("en",), ("hi", "ta"), ("en", "bn", "ur")])
def test_incremental_training_matches_naive_recount(langs):
    counts = add_counts(*(word_counts(lang, 150) for lang in langs))
    assert train_bpe(counts, BASE_VOCAB + 300).merges == naive_bpe(counts, BASE_VOCAB + 300)


def test_repeated_pairs_inside_words_match_naive():
    counts = {"aaaa": 3, "abab": 2, "aaab": 1, "bbbbbb": 4, "ab": 1}
    assert train_bpe(counts, BASE_VOCAB + 20).merges == naive_bpe(counts, BASE_VOCAB + 20)


def test_stops_when_every_word_is_one_token():
    bpe = train_bpe(SENNRICH, 10_000)
    assert bpe.vocab_size < 10_000
    for word in SENNRICH:
        (token,) = bpe.encode_word(word)
        assert bpe.token_bytes(token) == word.encode()


@pytest.fixture(scope="module")
def hindi_english():
    counts = {lang: word_counts(lang, 400) for lang in ("en", "hi")}
    return counts, train_bpe(add_counts(*counts.values()), 1500)


def test_encoding_round_trips_at_every_size(hindi_english):
    counts, bpe = hindi_english
    for v in (256, 300, 700, bpe.vocab_size):
        for word in list(counts["hi"])[:50] + list(counts["en"])[:50]:
            tokens = bpe.encode_word(word, v)
            assert bpe.count_tokens(word, v) == len(tokens)  # the rank shortcut agrees with encoding
            assert all(t < v for t in tokens)
            assert b"".join(bpe.token_bytes(t) for t in tokens) == word.encode("utf-8")


def test_tokens_per_word_agrees_with_encoding_each_word(hindi_english):
    counts, bpe = hindi_english
    sizes = [256, 400, 900, bpe.vocab_size]
    fast = bpe.tokens_per_word(counts["hi"], sizes)
    total = sum(counts["hi"].values())
    slow = [sum(c * len(bpe.encode_word(w, v)) for w, c in counts["hi"].items()) / total for v in sizes]
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)
    # at V = 256 every token is a byte: Devanagari letters are 3 bytes each
    bytes_per_word = sum(c * len(w.encode()) for w, c in counts["hi"].items()) / total
    assert fast[0] == pytest.approx(bytes_per_word)
    assert np.all(np.diff(fast) <= 0)


def test_english_only_tokenizer_never_merges_hindi():
    en = word_counts("en", 400)
    bpe = train_bpe(en, 1000)
    hi = word_counts("hi", 200)
    per_word = bpe.tokens_per_word(hi, [256, bpe.vocab_size])
    assert per_word[1] > 0.95 * per_word[0]  # nothing to merge: the bytes of Devanagari were never seen
    assert bpe.single_token_share(list(hi)[:100]) < 0.1
    assert bpe.single_token_share(list(en)[:100]) == 1.0


def test_word_counts_from_wordfreq():
    hi = word_counts("hi", 500, total=100_000)
    assert len(hi) == 500
    assert all(isinstance(c, int) and c >= 1 for c in hi.values())
    assert abs(sum(hi.values()) - 100_000) < 500  # rounding each count moves the sum by < 1 each
    counts = list(hi.values())
    assert counts == sorted(counts, reverse=True)  # most frequent first
    assert "है" in hi  # "is", among the most frequent Hindi words


def test_add_counts_sums_shared_words():
    assert add_counts({"a": 1, "b": 2}, {"b": 3}) == {"a": 1, "b": 5}


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: train_bpe({"ab": 1}, 100), "vocab_size"),
        (lambda: train_bpe({"ab": 1}, 300.0), "vocab_size"),
        (lambda: train_bpe({}, 300), "counts"),
        (lambda: train_bpe({"ab": 0}, 300), "counts"),
        (lambda: train_bpe({"": 2}, 300), "word"),
        (lambda: word_counts("xx"), "lang"),
        (lambda: word_counts("en", 0), "n_words"),
        (lambda: word_counts("en", 10, total=-1), "total"),
        (lambda: BPE([]).encode_word(""), "word"),
        (lambda: BPE([]).encode_word("a", 300), "vocab_size"),
        (lambda: BPE([]).count_tokens(""), "word"),
        (lambda: BPE([]).count_tokens("a", 255), "vocab_size"),
        (lambda: BPE([]).token_bytes(256), "token"),
        (lambda: BPE([]).single_token_share([]), "words"),
        (lambda: add_counts({"a": 1}, {"b": -1}), "corpora[1]"),
    ],
)
def test_bad_input_names_the_field(call, field):
    with pytest.raises(ValueError, match=field.replace("[", r"\[").replace("]", r"\]")):
        call()


def test_every_shipped_training_is_what_training_gives(monkeypatch):
    """train_bpe reads lesson 08's five-language training from the shipped file instead of training it
    (to keep the lesson quick): the merges must be exactly a fresh training's. If this fails after a
    change to train_bpe or to wordfreq's lists, run tools/ship_bpe_merges.py."""
    import json

    from embedlab import bpe
    from embedlab.bpe import SHIPPED_MERGES, add_counts, training_key, word_counts

    trainings = json.loads(SHIPPED_MERGES.read_text(encoding="utf-8"))["trainings"]
    assert trainings
    for key, shipped in trainings.items():
        t = shipped["training"]
        counts = add_counts(*(word_counts(lang, t["n_words"]) for lang in t["languages"]))
        assert training_key(counts, t["vocab_size"]) == key
        read = bpe.train_bpe(counts, t["vocab_size"])
        monkeypatch.setattr(bpe, "use_shipped_merges", False)
        fresh = bpe.train_bpe(counts, t["vocab_size"])
        monkeypatch.setattr(bpe, "use_shipped_merges", True)
        assert read.merges == fresh.merges == [tuple(p) for p in shipped["merges"]]
    # any other training trains: one word count more changes the key
    assert training_key({"a": 1}, 300) != training_key({"a": 2}, 300)


def test_word_counts_read_wordfreqs_shipped_lists_without_any_network(monkeypatch):
    """The README's "no downloads while you work" for lesson 08's word lists: word_counts reads the
    lists wordfreq ships, with every socket refused (wordfreq's cache emptied first, so the lists are
    read here). Seen red with word_counts opening a connection first."""
    import socket

    import wordfreq

    def refuse(*args, **kwargs):
        raise AssertionError("word_counts tried to open a network connection")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    wordfreq.get_frequency_dict.cache_clear()
    for lang in ("en", "hi", "bn", "ta", "ur"):
        counts = word_counts(lang, 100)
        assert len(counts) == 100 and all(n >= 1 for n in counts.values()), lang
