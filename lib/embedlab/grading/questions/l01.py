"""Exercise 01 `toy-table`: build a table, count it, look rows up, compare them."""

import math

import numpy as np

from embedlab.grading.kinds import Array, Function, Hint, Integer, Real, offset, ratio
from embedlab.vectors import cosine_similarity

LESSON = "01-toy-table"


def _is(got, value):
    return math.isclose(got, value, rel_tol=1e-9, abs_tol=1e-12)


def _norm(v):
    return float(np.linalg.norm(v))


# Hints on one call cosine(a, b): (got, want, a, b) -> bool, the learner's usual slips.
COSINE_HINTS = [
    Hint(lambda got, want, a, b: not _is(_norm(b) ** 2, 1) and _is(got, float(a @ b) / _norm(a) * _norm(b)),
         "operator precedence: x / y * z is (x / y) * z, so the second length multiplied; "
         "divide by the product of both lengths, x / (y * z)", args=True),
    Hint(lambda got, want, a, b: not _is(_norm(a) * _norm(b), 1) and _is(got, float(a @ b)),
         "that is the dot product a @ b: a cosine divides it by both lengths (np.linalg.norm)", args=True),
    Hint(lambda got, want, a, b: _is(got, float(a @ b) / _norm(a)) or _is(got, float(a @ b) / _norm(b)),
         "divided by one length only: divide by both, np.linalg.norm(a) * np.linalg.norm(b)", args=True),
    Hint(lambda got, want, a, b: _is(got, float(a @ b) / (float(a @ a) * float(b @ b))),
         "a @ a is the squared length: take the square root (np.linalg.norm does)", args=True),
]


def _vector_pairs(rng):
    """Random pairs of vectors of a few lengths, plus two with a known answer."""
    pairs = [(np.array([1.0, 0.0]), np.array([0.0, 3.0])), (np.array([2.0, 2.0]), np.array([1.0, 1.0]))]
    pairs += [(rng.normal(size=n), rng.normal(size=n)) for n in (2, 3, 5, 16)]
    return pairs


QUESTIONS = [
    Array("E", exact=True, hints=[
        Hint(lambda got, want: got.shape == want.shape[::-1], "rows are words and columns are features: transpose it"),
    ]),
    Integer("n_params", hints=[
        offset(-5, "add or multiply? every cell of the table is a parameter: rows × columns"),
    ]),
    Array("batch", exact=True, hints=[
        Hint(lambda got, want: got.ndim == 1, "look up all three words at once: the result has one row per word"),
    ]),
    Function("cosine", reference=cosine_similarity, cases=_vector_pairs,
             result=Real("cosine", exact=True, hints=COSINE_HINTS)),
    Real("cos_horse_dog", exact=True, hints=[
        Hint(lambda got, want: got == 1.0, "1.0 is the dot product of the two rows (or two rows pointing the same "
                                           "way, which these do not: the 'pet' column differs); divide by both lengths"),
        Hint(lambda got, want: _is(got, 2 ** 0.5), "operator precedence: x / y * z is (x / y) * z; "
                                                   "divide by the product of both lengths, x / (y * z)"),
        Hint(lambda got, want: _is(got, 0.5), "a @ a is the squared length: take the square root (np.linalg.norm does)"),
    ]),
    Integer("gpt2_table", hints=[
        ratio(2, "the question asks for the token table only: one V × d table, counted once"),
        Hint(lambda got, want: got == 50_000 * 768, "close: use GPT-2's exact vocabulary size, not a round number"),
    ]),
    Integer("extra_dim_cost", hints=[
        Hint(lambda got, want: got == 16 * 768, "that is what 16 new words (rows) cost; a new feature is a new column"),
        Hint(lambda got, want: got * 16 == want, "that is one new feature; the question adds 16"),
    ]),
]
