"""Exercise 09 `what-rows-learn`: count TinyLM, write the embedding gradient, measure what the rows learned."""

import numpy as np

from embedlab.grading.kinds import Array, Choice, Function, Hint, Integer, Real, offset

LESSON = "09-what-rows-learn"


def embedding_grad(contexts, dx0, vocab_size):
    """Reference: add dx0[b, k] into row contexts[b, k]; repeated ids add up, other rows stay 0."""
    contexts = np.asarray(contexts)
    dx0 = np.asarray(dx0, dtype=np.float64)
    dE = np.zeros((vocab_size, dx0.shape[-1]))
    np.add.at(dE, contexts, dx0)
    return dE


def _grad_cases(rng):
    """Small batches with repeated ids (within a pair and across pairs), plus ids that never appear."""
    cases = [(np.array([[1, 1], [1, 3]]), np.ones((2, 2, 3)), 5)]
    for B, C, d, V in ((4, 2, 3, 6), (8, 2, 5, 10), (16, 1, 4, 7), (32, 2, 16, 74)):
        contexts = rng.integers(0, max(2, V // 2), size=(B, C))  # only the lower half of ids: the rest get 0
        cases.append((contexts, rng.normal(size=(B, C, d)), V))
    return cases


def _looks_overwritten(got, want):
    """Fancy-index `dE[ids] += dx0` keeps only one contribution per repeated id: values smaller in size."""
    got, want = np.asarray(got), np.asarray(want)
    return got.shape == want.shape and not np.allclose(got, want) and np.allclose(got[want == 0], 0)


QUESTIONS = [
    Integer("n_params", hints=[
        Hint(lambda got, want: got == 74 * 16 + 32 * 16 + 16, "that is the tied count: this model has its own output matrix U"),
        offset(-16, "you left out the bias b (one number per hidden unit)"),
        offset(-74 * 16, "one V × d matrix is missing: E and U are both there"),
        Hint(lambda got, want: got == 2 * 74 * 16 + 16 * 16 + 16, "W takes both context rows side by side: it has 2d rows"),
    ]),
    Function("embedding_grad", reference=embedding_grad, cases=_grad_cases,
             result=Array("embedding_grad", hints=[
                 Hint(_looks_overwritten, "a repeated id must receive every contribution: `dE[ids] += dx0` keeps only one; use np.add.at"),
                 Hint(lambda got, want: np.asarray(got).shape == np.asarray(want).shape[::-1], "one row per vocabulary id: the shape is (vocab_size, d)"),
             ])),
    Real("gap", sig=6, hints=[
        Hint(lambda got, want: got < 0, "within minus between: the animal and vehicle groups are tighter inside"),
        # A word with itself has cosine 1: taking those pairs in raises the within-group mean by
        # a fraction of (1 - within), at most about 0.25 for 8 words per group.
        Hint(lambda got, want: want < got < want + 0.3,
             "too big: are pairs of a word with itself (cosine 1) in the within-group mean? "
             "take only pairs of different words, i < j"),
    ]),
    Array("cos_cat", sig=6, hints=[
        Hint(lambda got, want: np.asarray(got).shape == (16,) and abs(np.asarray(got)[0] - 1) > 1e-9,
             "the first entry is cat with itself: it must be exactly 1; normalize every row, not just cat"),
    ]),
    Choice("rotation_changes_cosines", hints=[
        Hint(lambda got, want: got == "yes", "rotating every row by the same orthogonal Q keeps all lengths and angles"),
    ]),
]
