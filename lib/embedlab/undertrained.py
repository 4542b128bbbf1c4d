"""Finding under-trained rows from the weights alone, in the spirit of Land & Bartolo 2024.

Their idea ("Fishing for Magikarp", 2024): rows of tokens that (almost) never
appear in training are all pushed the same way by the output softmax, so they
end up alike. Take a reference set of rows you *know* are unused (reserved ids,
say), average them, and rank every row by its cosine to that mean: the highest
are candidates. Their tool (github.com/cohere-ai/magikarp, magikarp/utils.py)
also offers a variant that first removes the matrix's first principal component;
`remove_first_pc=True` does the same here, so a lesson can show when it helps
and when it hurts.

Here a higher score means "more like the unused rows" (cosine similarity);
their reports use the cosine *distance*, 1 − similarity, where lower is worse.
"""

from __future__ import annotations

import numpy as np


def _as_matrix(M) -> np.ndarray:
    M = np.asarray(M, dtype=np.float64)
    if M.ndim != 2:
        raise ValueError(f"M must be a 2-D matrix (one row per token), got M.shape={M.shape}")
    return M


def _as_ids(ids, n_rows: int, name: str) -> np.ndarray:
    ids = np.asarray(ids)
    if ids.ndim != 1 or ids.size == 0 or ids.dtype.kind not in "iu":
        raise ValueError(f"{name} must be a non-empty 1-D list of integer row ids, got {name}={ids.tolist()!r}")
    if ids.min() < 0 or ids.max() >= n_rows:
        raise ValueError(f"{name} must hold row ids from 0 to {n_rows - 1}, got {name}={ids.tolist()!r}")
    return ids


def first_principal_component(M) -> np.ndarray:
    """The unit direction of greatest variance of the (mean-centred) rows of M."""
    M = _as_matrix(M)
    _, _, vt = np.linalg.svd(M - M.mean(axis=0), full_matrices=False)
    pc = vt[0]
    return pc if pc[np.argmax(np.abs(pc))] > 0 else -pc  # fix the sign so the result is reproducible


def without_first_pc(M) -> np.ndarray:
    """M with each row's component along the first principal component taken out (as magikarp does)."""
    M = _as_matrix(M)
    pc = first_principal_component(M)
    return M - np.outer(M @ pc, pc)


def unused_scores(M, reference_ids, remove_first_pc: bool = False) -> np.ndarray:
    """Cosine of every row of M with the mean of the reference rows (known-unused tokens).

    Returns one score per row, between −1 and 1; the rows most like the unused
    ones score highest. With `remove_first_pc=True` the first principal component
    is removed from every row first (and from the reference mean).
    """
    M = _as_matrix(M)
    reference_ids = _as_ids(reference_ids, M.shape[0], "reference_ids")
    if remove_first_pc:
        M = without_first_pc(M)
    mean_unused = M[reference_ids].mean(axis=0)
    norm_mean = np.linalg.norm(mean_unused)
    if norm_mean == 0:
        raise ValueError("the reference rows average to a zero vector: their mean has no direction")
    norms = np.linalg.norm(M, axis=1)
    norms = np.where(norms == 0, 1.0, norms)  # a zero row scores 0 instead of nan
    return M @ mean_unused / (norms * norm_mean)


def rank_candidates(scores, exclude=()) -> np.ndarray:
    """Row ids from most to least suspicious (highest score first), leaving out `exclude` (e.g. the reference rows).

    Ties keep id order (a stable sort), so the ranking is reproducible.
    """
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 1:
        raise ValueError(f"scores must be 1-D (one score per row), got scores.shape={scores.shape}")
    order = np.argsort(-scores, kind="stable")
    excluded = set(int(i) for i in exclude)
    return np.array([i for i in order if int(i) not in excluded], dtype=np.int64)


def precision_at_k(scores, truth_ids, k: int, exclude=()) -> float:
    """Of the k highest-scoring rows (reference rows excluded), the fraction that are truly under-trained."""
    if not isinstance(k, (int, np.integer)) or isinstance(k, bool) or k < 1:
        raise ValueError(f"k must be a positive integer, got k={k!r}")
    ranked = rank_candidates(scores, exclude)
    if k > len(ranked):
        raise ValueError(f"k must be at most the number of ranked rows ({len(ranked)}), got k={k}")
    truth = set(int(i) for i in truth_ids)
    return sum(int(i) in truth for i in ranked[:k]) / k
