"""Byte-pair encoding, the original algorithm on word counts, small enough to read.

Why it is here: lesson 08 asks how the vocabulary size V changes the number of
tokens a text needs, per language. That is a measurement, not an assumption, so
we train a real tokenizer on real word frequencies and count.

The algorithm (Sennrich et al. 2016, byte-level as in GPT-2):

1. Every word starts as its UTF-8 bytes: 256 base tokens, one per byte value.
   English letters are one byte each; Devanagari, Bengali, Tamil and Arabic
   letters are two or three bytes each, which is where the unfairness starts.
2. Count every adjacent pair of tokens over all words, weighted by how often
   the word occurs. Merge the most frequent pair into a new token (ties: the
   smallest pair of ids, so training is deterministic). Repeat.
3. Each merge adds one row to the embedding matrix: V = 256 + number of merges.

The merges are ordered, and the tokenizer with the first k merges is itself a
BPE tokenizer of V = 256 + k. So one training run answers every smaller V.
"""

from __future__ import annotations

import bisect
import hashlib
import heapq
import math
import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np

BASE_VOCAB = 256  # one token per byte value


def _check_counts(counts: Mapping[str, int], name: str = "counts") -> None:
    if not isinstance(counts, Mapping) or len(counts) == 0:
        raise ValueError(f"{name} must be a non-empty dict of word -> count, got {name}={counts!r:.80}")
    for word, count in counts.items():
        if not isinstance(word, str) or word == "":
            raise ValueError(f"{name} keys must be non-empty strings, got word={word!r}")
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
            raise ValueError(f"{name} values must be positive integers, got {name}[{word!r}]={count!r}")


def _check_vocab_size(vocab_size) -> None:
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, (int, np.integer)) or vocab_size < BASE_VOCAB:
        raise ValueError(f"vocab_size must be an integer >= {BASE_VOCAB} (the byte tokens), got vocab_size={vocab_size!r}")


def merge_word(tokens: list[int], pair: tuple[int, int], new: int) -> list[int]:
    """Replace every non-overlapping occurrence of `pair`, left to right."""
    out, i, n = [], 0, len(tokens)
    while i < n:
        if i + 1 < n and tokens[i] == pair[0] and tokens[i + 1] == pair[1]:
            out.append(new)
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out


def _merge_and_count(tokens, pair, new, freq, changed, where, index):
    """Merge `pair` in one word and record only the pair counts that change.

    At each merge site a b -> N, the pairs (left, a), (a, b), (b, right) vanish
    and (left, N), (N, right) appear; `left` is read from the merged output, so
    a b a b -> N N comes out right. Everything else in the word is untouched.
    """
    a, b = pair
    out, i, n = [], 0, len(tokens)
    while i < n:
        try:
            j = tokens.index(a, i)  # jump to the next `a` (a C-speed scan)
        except ValueError:
            break
        if j + 1 == n or tokens[j + 1] != b:
            out.extend(tokens[i : j + 1])
            i = j + 1
            continue
        out.extend(tokens[i:j])
        changed[pair] -= freq
        if out:
            changed[(out[-1], a)] -= freq
            changed[(out[-1], new)] += freq
            where[(out[-1], new)].add(index)
        if j + 2 < n:
            changed[(b, tokens[j + 2])] -= freq
            changed[(new, tokens[j + 2])] += freq
            where[(new, tokens[j + 2])].add(index)
        out.append(new)
        i = j + 2
    out.extend(tokens[i:])
    return out


@dataclass
class BPE:
    """A trained byte-level BPE tokenizer: the ordered list of merges.

    Merge k joins the pair `merges[k]` into token id 256 + k.
    """

    merges: list[tuple[int, int]] = field(default_factory=list)

    def __post_init__(self):
        self._rank = {pair: k for k, pair in enumerate(self.merges)}
        self._encoded: dict[str, tuple[int, list[int], list[int]]] = {}  # word -> _encode(word), reused across sizes
        self._bytes = [bytes([b]) for b in range(BASE_VOCAB)]
        for a, b in self.merges:
            self._bytes.append(self._bytes[a] + self._bytes[b])

    @property
    def vocab_size(self) -> int:
        """V: the rows an embedding matrix for this tokenizer needs."""
        return BASE_VOCAB + len(self.merges)

    def token_bytes(self, token: int) -> bytes:
        """The bytes one token stands for."""
        if isinstance(token, bool) or not isinstance(token, (int, np.integer)) or not 0 <= token < self.vocab_size:
            raise ValueError(f"token must be an id in [0, {self.vocab_size}), got token={token!r}")
        return self._bytes[token]

    def _encode(self, word: str) -> tuple[int, list[int], list[int]]:
        """Encode with every merge: (bytes in the word, rank of each merge applied, final tokens).

        Encoding applies the lowest-ranked pair present, again and again. A pair
        that uses a merged token always ranks after the merge that made it, so the
        ranks come out in order, and with only the first k merges the encoder
        would have stopped exactly before the first rank >= k. Hence the token
        count for every V from one encoding: bytes - (merges with rank < V - 256).
        Results are cached per word, so asking again at another V is cheap.
        """
        if word in self._encoded:
            return self._encoded[word]
        tokens = list(word.encode("utf-8"))
        n_bytes, applied = len(tokens), []
        rank = self._rank
        while len(tokens) > 1:
            best = min((rank[p] for p in zip(tokens, tokens[1:]) if p in rank), default=None)
            if best is None:
                break
            before = len(tokens)
            tokens = merge_word(tokens, self.merges[best], BASE_VOCAB + best)
            applied.extend([best] * (before - len(tokens)))
        self._encoded[word] = (n_bytes, applied, tokens)
        return self._encoded[word]

    def count_tokens(self, word: str, vocab_size: int | None = None) -> int:
        """How many tokens `word` becomes with the first `vocab_size - 256` merges (all by default)."""
        if not isinstance(word, str) or word == "":
            raise ValueError(f"word must be a non-empty string, got word={word!r}")
        limit = len(self.merges) if vocab_size is None else self._limit(vocab_size)
        n_bytes, applied, _ = self._encode(word)
        return n_bytes - bisect.bisect_left(applied, limit)

    def encode_word(self, word: str, vocab_size: int | None = None) -> list[int]:
        """Token ids of one word, using the first `vocab_size - 256` merges (all by default)."""
        if not isinstance(word, str) or word == "":
            raise ValueError(f"word must be a non-empty string, got word={word!r}")
        if vocab_size is None:
            return list(self._encode(word)[2])
        limit = self._limit(vocab_size)
        tokens = list(word.encode("utf-8"))
        while len(tokens) > 1:
            ranks = [self._rank[p] for p in zip(tokens, tokens[1:]) if self._rank.get(p, limit) < limit]
            if not ranks:
                break
            best = min(ranks)
            tokens = merge_word(tokens, self.merges[best], BASE_VOCAB + best)
        return tokens

    def _limit(self, vocab_size) -> int:
        _check_vocab_size(vocab_size)
        if vocab_size > self.vocab_size:
            raise ValueError(f"vocab_size must be at most the trained {self.vocab_size}, got vocab_size={vocab_size}")
        return vocab_size - BASE_VOCAB

    def tokens_per_word(self, counts: Mapping[str, int], vocab_sizes: Iterable[int]) -> np.ndarray:
        """Mean tokens per running word of text, one value per vocabulary size.

        Weighted by `counts`, so a word seen a thousand times counts a thousand
        times: this is tokens per word of text, not per dictionary entry.
        """
        _check_counts(counts)
        limits = np.array([self._limit(v) for v in vocab_sizes], dtype=np.int64)
        # tokens(V) = sum of count·bytes - sum over every merge applied (weighted by its word's count) of [rank < V - 256]
        total_words = total_bytes = 0
        ranks, weights = [], []
        for word, count in counts.items():
            n_bytes, applied, _ = self._encode(word)
            total_words += count
            total_bytes += count * n_bytes
            ranks.extend(applied)
            weights.extend([count] * len(applied))
        order = np.argsort(np.array(ranks, dtype=np.int64), kind="stable")
        sorted_ranks = np.array(ranks, dtype=np.int64)[order]
        merged_weight = np.concatenate([[0], np.cumsum(np.array(weights, dtype=np.int64)[order])])
        saved = merged_weight[np.searchsorted(sorted_ranks, limits, side="left")]
        return (total_bytes - saved) / total_words

    def single_token_share(self, words: Iterable[str], vocab_size: int | None = None) -> float:
        """Fraction of `words` that are one token each: did these words get their own rows?"""
        words = list(words)
        if not words:
            raise ValueError("words must not be empty, got words=[]")
        return sum(self.count_tokens(w, vocab_size) == 1 for w in words) / len(words)


# Shipped trainings: the merges of the tokenizer lesson 08 trains on all five languages, so that the
# lesson stays within a few seconds. A training is looked up by its word counts and V; any other
# trains. tests/test_bpe.py retrains each and compares the merges; tools/ship_bpe_merges.py writes them.
SHIPPED_MERGES = Path(__file__).parent / "data" / "shipped" / "bpe-merges.json"
use_shipped_merges = True  # False: always train (the test and the tool switch it off)


def training_key(counts: Mapping[str, int], vocab_size: int) -> str:
    """A digest of the word counts, in order, and the vocabulary size: one string per training."""
    text = json.dumps([[w, int(c)] for w, c in counts.items()], ensure_ascii=False)
    return f"{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]} V={int(vocab_size)}"


_SHIPPED: dict = {}  # the shipped file's text -> its trainings, parsed once per text (a function question's cases
# train on many word counts, each a lookup here: reading the file is cheap, parsing it is not)


def _shipped_merges(key: str):
    if not SHIPPED_MERGES.exists():
        return None
    text = SHIPPED_MERGES.read_text(encoding="utf-8")
    if text not in _SHIPPED:
        _SHIPPED.clear()
        _SHIPPED[text] = json.loads(text)["trainings"]
    return _SHIPPED[text].get(key)  # read only: train_bpe makes its own tuples of the merges


def train_bpe(counts: Mapping[str, int], vocab_size: int) -> BPE:
    """Learn merges from word counts until the vocabulary has `vocab_size` tokens.

    Stops early (smaller V) if every word has become a single token. Pair counts
    are updated only for the words a merge touches, and the next pair is taken
    from a heap, so training is fast enough for a lesson in pure Python.
    """
    _check_counts(counts)
    _check_vocab_size(vocab_size)
    if use_shipped_merges:
        shipped = _shipped_merges(training_key(counts, vocab_size))
        if shipped is not None:
            return BPE([tuple(pair) for pair in shipped["merges"]])
    words = [list(w.encode("utf-8")) for w in counts]
    freqs = [int(c) for c in counts.values()]

    pair_count: dict[tuple[int, int], int] = defaultdict(int)
    where: dict[tuple[int, int], set[int]] = defaultdict(set)  # pair -> words that (may) hold it
    for i, tokens in enumerate(words):
        for pair in zip(tokens, tokens[1:]):
            pair_count[pair] += freqs[i]
            where[pair].add(i)
    heap = [(-c, pair) for pair, c in pair_count.items()]
    heapq.heapify(heap)

    merges: list[tuple[int, int]] = []
    while len(merges) < vocab_size - BASE_VOCAB and heap:
        neg, pair = heapq.heappop(heap)
        if pair_count.get(pair, 0) != -neg:  # stale entry: the count changed since it was pushed
            continue
        new = BASE_VOCAB + len(merges)
        merges.append(pair)
        changed: dict[tuple[int, int], int] = defaultdict(int)
        for i in sorted(where.pop(pair)):
            words[i] = _merge_and_count(words[i], pair, new, freqs[i], changed, where, i)
        for p, delta in changed.items():
            c = pair_count[p] + delta
            if c > 0:
                pair_count[p] = c
                heapq.heappush(heap, (-c, p))
            else:
                del pair_count[p]
    return BPE(merges)


def add_counts(*corpora: Mapping[str, int]) -> dict[str, int]:
    """One corpus from several: counts of a word that appears in more than one are summed."""
    total: dict[str, int] = defaultdict(int)
    for k, counts in enumerate(corpora):
        _check_counts(counts, name=f"corpora[{k}]")
        for word, count in counts.items():
            total[word] += int(count)
    return dict(total)


def word_counts(lang: str, n_words: int = 2000, total: int = 1_000_000) -> dict[str, int]:
    """The `n_words` most frequent words of a language, as counts in a text of about `total` words.

    Data: the `wordfreq` package (Speer 2022), whose lists ship inside the package,
    so this works offline. Frequencies are rescaled so that each language's top
    words add up to about `total`: training on several languages then gives
    each one the same weight. Every word keeps a count of at least 1.
    """
    import wordfreq  # imported here: only lesson 08 needs it

    langs = wordfreq.available_languages(wordlist="small")
    if lang not in langs:
        raise ValueError(f"lang must be one of wordfreq's languages {sorted(langs)}, got lang={lang!r}")
    if isinstance(n_words, bool) or not isinstance(n_words, (int, np.integer)) or n_words < 1:
        raise ValueError(f"n_words must be a positive integer, got n_words={n_words!r}")
    if isinstance(total, bool) or not isinstance(total, (int, np.integer)) or total < 1:
        raise ValueError(f"total must be a positive integer, got total={total!r}")
    table = wordfreq.get_frequency_dict(lang, wordlist="small")  # most frequent first
    words = list(table)[:n_words]
    freqs = np.array([table[w] for w in words])
    # math.fsum, not freqs.sum(): the exactly rounded sum is the same on every CPU, while numpy's
    # SIMD kernels add in an order of their own (the last bit differs between AVX-512 and AVX2),
    # and one count moved across a .5 would change the training key and the merges.
    counts = np.maximum(1, np.rint(freqs / math.fsum(freqs.tolist()) * total)).astype(np.int64)
    return {w: int(c) for w, c in zip(words, counts)}


train_bpe.costly = 'trains a tokenizer'  # embedlab.grading.elsewhere: a cell that calls it gets no second look
