"""Exercise 02 `lookup-vs-matmul`: one-hot vectors, the lookup two ways, the backward pass, the cost."""

import numpy as np

from embedlab.grading.kinds import Array, Choice, Function, Hint, Integer, ratio
from embedlab.lookup import embedding_backward, one_hot

LESSON = "02-lookup-vs-matmul"


def _one_hot_cases(rng):
    """Batches of ids with repeats, a single id, and the first and last rows."""
    cases = [(np.array([2, 0, 2]), 4), (np.array([0]), 1), (np.array([0, 6]), 7)]
    for V, n in ((5, 8), (30, 12), (200, 3)):
        cases.append((rng.integers(0, V, size=n), V))
    return cases


def _backward_cases(rng):
    """Every case repeats an id, so a version that drops repeats cannot pass."""
    cases = [(np.array([1, 3, 1, 1]), rng.standard_normal((4, 2)), 5)]
    for V, n, d in ((4, 10, 3), (6, 6, 2), (50, 60, 4)):
        ids = rng.integers(0, V, size=n)
        ids[-1] = ids[0]                                   # at least one repeat
        cases.append((ids, rng.standard_normal((n, d)), V))
    return cases


def _drops_repeats(got, want):
    """Right rows non-zero, wrong sums: the signature of G[ids] = g or G[ids] += g."""
    return got.shape == want.shape and np.array_equal(got != 0, want != 0) and not np.allclose(got, want)


def _is_transposed(got, want):
    return got.ndim == 2 and got.shape == want.shape[::-1]


QUESTIONS = [
    Function("one_hot", reference=one_hot, cases=_one_hot_cases, result=Array("one_hot", exact=True, hints=[
        Hint(_is_transposed, "one row per id and one column per vocabulary entry: shape (len(ids), V)"),
    ])),
    Array("rows_lookup", exact=True, hints=[
        Hint(_is_transposed, "one row per id: index the rows of E, not its columns"),
    ]),
    Array("rows_matmul", exact=True, hints=[
        Hint(_is_transposed, "one_hot(ids, V) goes on the left: (len(ids) × V) @ (V × d)"),
        Hint(lambda got, want: got.shape[-1] != want.shape[-1], "the result has d columns, one per feature of a row"),
    ]),
    Choice("keeps_sign", hints=[
        Hint(lambda got, want: got in ("both", "matmul"),
             "the matmul's sum also holds 0 × (a positive number) = +0.0, and -0.0 + +0.0 is +0.0"),
        Hint(lambda got, want: got not in ("lookup", "matmul", "both"), "answer with one word: lookup, matmul or both"),
    ]),
    Function("embedding_backward", reference=embedding_backward, cases=_backward_cases,
             result=Array("embedding_backward", hints=[
                 Hint(_drops_repeats, "the right rows, but a repeated id lost part of its gradient: "
                                      "G[ids] = g and G[ids] += g keep one repeat; np.add.at adds them all"),
                 Hint(_is_transposed, "the gradient of E has E's shape: (V, d)"),
             ])),
    Array("updated_rows", exact=True, hints=[
        Hint(lambda got, want: got.ndim == 1 and np.unique(got).size < got.size,
             "list each updated row once, however many times its id occurs"),
        Hint(lambda got, want: got.ndim == 1 and got.size > want.size and np.isin(want, got).all(),
             "a row whose id is not in the batch gets a gradient of exactly zero: it cannot change"),
        Hint(lambda got, want: got.shape == want.shape and not np.array_equal(np.sort(got), got),
             "give the rows in increasing order"),
    ]),
    Integer("batch_flops", hints=[
        ratio(0.5, "a dot product of length V is V multiplications and V additions: 2·V·d per token"),
        ratio(1 / 1_024, "that is one token; the batch has 1,024"),
        ratio(1 / 2_048, "that is one token, and a dot product is a multiply and an add per term"),
    ]),
    Integer("one_hot_batch_bytes", hints=[
        ratio(8, "that is bits: a byte holds 8 of them"),
        ratio(0.25, "a float32 entry takes 4 bytes, not 1"),
        ratio(2, "float32, not float64: 4 bytes per entry"),
        ratio(512 / 32_000, "the one-hot matrix has V columns, not d"),
    ]),
]
