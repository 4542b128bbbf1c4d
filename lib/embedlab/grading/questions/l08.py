"""Exercise 08 `vocabulary-size`: the table, its share, the bigger head, the break-even, tokens per word, an audit,
and doubling a real vocabulary for Hindi (GPT-2 against cl100k_base)."""

import functools
import math

import numpy as np

from embedlab.grading.kinds import Function, Hint, Integer, Real, ratio

LESSON = "08-vocabulary-size"
_EXACT_TOTAL = 1_497_434_112   # the lesson's 1.5B model with the 256K table (lesson 08 prints it)


def tokens_per_word(counts, n_tokens):
    """Mean tokens per running word: each word weighted by how often it occurs."""
    counts = np.asarray(counts, dtype=np.float64)
    n_tokens = np.asarray(n_tokens, dtype=np.float64)
    return float((counts * n_tokens).sum() / counts.sum())


@functools.lru_cache(maxsize=None)
def hindi_r_figures(space=True, weighted=True):
    """r = cl100k tokens per Hindi word / GPT-2 tokens per word, computed the way a wrong answer might."""
    from embedlab.bpe import word_counts
    from embedlab.tokenizers import load_tokenizer

    hindi = word_counts("hi", 500)
    prefix = " " if space else ""
    means = []
    for name in ("gpt2", "cl100k_base"):
        lengths = [len(ids) for ids in load_tokenizer(name).encode_ordinary_batch([prefix + w for w in hindi])]
        weights = list(hindi.values()) if weighted else [1] * len(hindi)
        means.append(sum(n * c for n, c in zip(lengths, weights)) / sum(weights))
    return means[1] / means[0], means


def _is(got, value):
    return math.isclose(got, value, rel_tol=1e-6)


def _word_lists(rng):
    cases = [([5, 1], [1, 7]), ([1, 1, 1], [1, 2, 3]), ([1000], [4])]
    for size in (3, 10, 200):
        cases.append((rng.integers(1, 10_000, size).tolist(), rng.integers(1, 20, size).tolist()))
    return cases


QUESTIONS = [
    Integer("embedding_params", hints=[
        ratio(2, "the head is tied: it reuses E and adds no parameters"),
        Hint(lambda got, want: got == 256 * 1024 * 2048, "256K here means 256,000 tokens, not 256 × 1,024"),
    ]),
    Real("embedding_share", exact=True, hints=[
        # Written in terms of the expected share, so the table's size is not readable here.
        Hint(lambda got, want: abs(got - want * _EXACT_TOTAL / 1.5e9) < 1e-9, "use the exact total (table + the rest), not the round 1.5B"),
        Hint(lambda got, want: abs(got - want / (1 - want)) < 1e-9, "the share is of the whole model: table plus the rest"),
        ratio(100, "give a fraction, not a percentage"),
    ]),
    Integer("extra_head_flops", hints=[
        ratio(0.5, "a matmul costs 2 FLOPs per weight: one multiply and one add"),
        Hint(lambda got, want: got == 2 * 2048 * 256_000, "that is the whole 256K head; the question asks how much more than the 50K head"),
    ]),
    Real("break_even_ratio", exact=True, hints=[
        Hint(lambda got, want: abs(got * want - 1) < 1e-9, "upside down: r is tokens with 256K over tokens with 50K, so it is below 1"),
        Hint(lambda got, want: abs(got - 50_000 / 256_000) < 1e-9, "the blocks cost the same per token with either vocabulary: include them"),
    ]),
    Function("tokens_per_word", reference=tokens_per_word, cases=_word_lists, result=Real("tokens_per_word", exact=True, hints=[
        Hint(lambda got, want, counts, n_tokens: _is(got, float(np.mean(n_tokens))),
             "that is the plain mean over the word list: weight each word by how often it occurs (its count)", args=True),
        Hint(lambda got, want, counts, n_tokens: _is(got, float(np.dot(counts, n_tokens)) / len(counts)),
             "divide by the number of running words, sum(counts), not by the number of distinct words", args=True),
        Hint(lambda got, want, counts, n_tokens: _is(got, float(np.dot(counts, n_tokens))),
             "that is the total number of tokens: divide by the number of running words, sum(counts)", args=True),
    ])),
    Real("hindi_single_token_share", exact=True, hints=[
        ratio(100, "give a fraction, not a percentage"),
        Hint(lambda got, want: got > 1, "a share is a fraction between 0 and 1"),
        Hint(lambda got, want: abs(got - 0.59) < 1e-9, "that is the share of the English words: audit the Hindi ones"),
    ]),
    Real("hindi_r", exact=True, hints=[
        Hint(lambda got, want: abs(got * want - 1) < 1e-6,
             "upside down: r is cl100k's tokens per word over GPT-2's, below 1 when cl100k is shorter"),
        Hint(lambda got, want: _is(got, hindi_r_figures(weighted=False)[0]),
             "that is the mean over the 500 list entries; weight each word by its count (running words)"),
        Hint(lambda got, want: _is(got, hindi_r_figures(space=False)[0]),
             "encode each word after a space, \" \" + word, as it stands in running text"),
        Hint(lambda got, want: any(_is(got, m) for m in hindi_r_figures()[1]),
             "that is one tokenizer's tokens per word; r is the ratio of the two"),
    ]),
]
