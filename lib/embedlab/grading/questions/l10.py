"""Exercise 10 `glitch-tokens`: padding rows, impossible bytes, the under-training score, never-seen rows of a tied model,
and GPT-2's tokens that are fragments of a character."""

import functools
import math

import numpy as np

from embedlab.grading.kinds import Array, Function, Hint, Integer, Real, offset
from embedlab.undertrained import unused_scores

LESSON = "10-glitch-tokens"


def _score_cases(rng):
    """Random matrices with a planted cluster of alike rows; the reference is part of the cluster."""
    cases = [(np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [-1.0, 0.0]]), [0])]
    for n, d, n_unused in ((10, 3, 3), (30, 8, 5), (74, 16, 9)):
        M = rng.normal(size=(n, d))
        direction = rng.normal(size=d)
        M[n - n_unused:] = 2 * direction + 0.3 * rng.normal(size=(n_unused, d))
        reference = list(range(n - n_unused, n - n_unused + 2))
        cases.append((M, reference))
    return cases


@functools.lru_cache(maxsize=None)
def _reference_ids():
    """The reference rows of question 5: the first four reserved tokens of the exercise's corpus."""
    from embedlab.corpus import make_corpus

    return tuple(int(i) for i in list(make_corpus(n_sentences=3000, seed=0).groups["reserved"])[:4])


def _cosines_with(M, mean):
    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))


def _same(got, value):
    got, value = np.asarray(got), np.asarray(value)
    return got.shape == value.shape and np.allclose(got, value, rtol=1e-9, atol=1e-12)


# Hints on one call unused_score(M, reference_ids): (got, want, M, reference_ids) -> bool.
SCORE_HINTS = [
    Hint(lambda got, want, M, ref: _same(got, M @ M[ref].mean(axis=0)),
         "that is the dot product with the mean: a cosine divides by both lengths (row and mean)", args=True),
    Hint(lambda got, want, M, ref: _same(got, M @ M[ref].mean(axis=0) / np.linalg.norm(M[ref].mean(axis=0))),
         "divide by each row's length too, not only the mean's", args=True),
    Hint(lambda got, want, M, ref: _same(got, M @ M[ref].mean(axis=0) / np.linalg.norm(M, axis=1)),
         "divide by the mean's length too, not only each row's", args=True),
    Hint(lambda got, want, M, ref: _same(got, _cosines_with(M, M.mean(axis=0))),
         "that is the mean of every row; take the mean of the reference rows only, M[reference_ids]", args=True),
    Hint(lambda got, want, M, ref: np.abs(np.asarray(got)).max() > 1 + 1e-9,
         "a cosine lies between -1 and 1: normalise (divide by the lengths)"),
]

QUESTIONS = [
    Integer("padding_rows", hints=[
        Hint(lambda got, want: got == 50_304, "that is the padded size; the question asks how many rows were added"),
        Hint(lambda got, want: got == 50_257 % 64, "that is how far 50,257 is past a multiple of 64; the padding fills the rest of the way"),
    ]),
    Integer("invalid_bytes", hints=[
        Hint(lambda got, want: got == 2, "C0 and C1 are two of them; count F5 to FF too"),
        offset(-2, "you left out C0 and C1 (they would only start over-long encodings)"),
        offset(-1, "F5 to FF is 11 values, both ends included"),
    ]),
    Function("unused_score", reference=unused_scores, cases=_score_cases,
             result=Array("unused_score", hints=[
                 Hint(lambda got, want: np.allclose(np.asarray(got), 1 - np.asarray(want)),
                      "that is the cosine distance (1 − cosine); return the cosine itself"),
                 *SCORE_HINTS,
                 Hint(lambda got, want: np.asarray(got).ndim != 1, "return one score per row: a 1-D array of length M.shape[0]"),
             ])),
    Real("never_cos", sig=6, hints=[
        Hint(lambda got, want: math.isclose(got, (9 + 72 * want) / 81, rel_tol=1e-6)
             or math.isclose(got, (9 + 36 * want) / 45, rel_tol=1e-6),
             "leave out each row's cosine with itself (the diagonal): only pairs of different rows"),
        Hint(lambda got, want: abs(got) < 0.1, "near 0 is the value before training; use the trained rows, run.model.E"),
    ]),
    Array("top7", exact=True, hints=[
        Hint(lambda got, want: np.asarray(got).shape == (7,) and np.asarray(got)[0] == np.asarray(want)[-1],
             "reversed? the most suspicious row (highest cosine) comes first"),
        Hint(lambda got, want: np.asarray(got).shape == (7,) and set(np.asarray(got).tolist()) == set(np.asarray(want).tolist()),
             "the right rows in the wrong order: highest score first"),
        Hint(lambda got, want: np.isin(np.asarray(got), _reference_ids()).any(),
             "leave the four reference rows out: they score high against their own mean"),
        Hint(lambda got, want: np.asarray(got).shape == (7,) and not np.isin(np.asarray(got), np.asarray(want)).any(),
             "none of these is among the highest scores: sort highest first (np.argsort(-scores), or reverse)"),
    ]),
    Integer("partial_tokens", hints=[
        offset(-128, "you left out the 128 single-byte tokens 0x80-0xFF: each is a fragment of a character too"),
        Hint(lambda got, want: got == 13, "those are the byte values that never occur at all; count every token "
                                          "whose bytes are not valid UTF-8 on their own"),
        Hint(lambda got, want: got == 50_257 - want or got == 50_256 - want,
             "that counts the tokens that do decode; count the ones that fail"),
        Hint(lambda got, want: got > want, "too many: count GPT-2's tokens (ids 0 to 50,255) whose bytes fail "
                                           ".decode('utf-8'); cl100k_base has more such tokens"),
    ]),
]
