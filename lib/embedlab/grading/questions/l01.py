"""Exercise 01 `toy-table`: build a table, count it, look rows up, compare them."""

import numpy as np

from embedlab.grading.kinds import Array, Function, Hint, Integer, Real, offset, ratio
from embedlab.vectors import cosine_similarity

LESSON = "01-toy-table"


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
    Function("cosine", reference=cosine_similarity, cases=_vector_pairs, result=Real("cosine", rtol=1e-9)),
    Real("cos_horse_dog", rtol=1e-9, hints=[
        Hint(lambda got, want: got == 1.0, "1.0 means the same direction: look at the 'pet' column"),
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
