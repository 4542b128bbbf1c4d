"""Changing the vocabulary of a trained table: adding rows, padding to a multiple, trimming.

Adding a token to a trained model means adding a row to E (and to the output
matrix U when the head is untied). The new row's starting value decides what the
model does with the new token *before any training*, and, through the output
softmax, how much its predictions on ordinary text move:

    "zeros"     every new row is 0 (its logit is 0 for every input)
    "small"     N(0, std²), std = 0.02 by default (GPT-2's initializer_range)
    "large"     N(0, std²), std = 1 by default (what a fresh torch.nn.Embedding holds)
    "mean"      the mean of the existing rows (Hewitt 2021)
    "mean_cov"  drawn from N(mean, cov_scale · covariance) of the existing rows. The default,
                cov_scale = 1e-9, is transformers' resize_token_embeddings(mean_resizing=True)
                (MEAN_RESIZING_COV_SCALE); Hewitt (2021)'s snippet samples N(mean, 1e-5 · Σ)
                (HEWITT_COV_SCALE). Both keep the new rows within a hair of the mean. cov_scale = 1
                draws with the full spread of the existing rows, which neither of them suggests:
                lesson 12 uses it to show what such a draw does

Why the mean is safe: for any hidden state x, the logit of a row at the mean of U
is x · mean(U) = the average of the old logits, and by Jensen's inequality
exp(average logit) <= average exp(logit) = Z / V. So each new token gets at most
1/(V + k) of the probability, and the old tokens' distribution moves by a KL
divergence of at most log(1 + k/V) (`kl_divergence`). A random row has no such
bound: its logit is x · (random row), as large as x and the row happen to align.

Padding rounds V up to a multiple (`padded_size`); those rows belong to no token.
Trimming keeps only the rows a language uses (`trim_rows`) and needs an id map
from the old ids to the new ones (`remap_ids`).
"""

from __future__ import annotations

import numpy as np

INITS = ("zeros", "small", "large", "mean", "mean_cov")
DEFAULT_STD = {"small": 0.02, "large": 1.0}   # GPT-2's initializer_range; torch.nn.Embedding's N(0, 1)
MEAN_RESIZING_COV_SCALE = 1e-9                # transformers' _init_added_embeddings_weights_with_mean: epsilon
HEWITT_COV_SCALE = 1e-5                       # Hewitt (2021), "Initializing New Word Embeddings": 1e-5*sigma


def _as_matrix(M, name: str = "M") -> np.ndarray:
    M = np.asarray(M, dtype=np.float64)
    if M.ndim != 2 or M.shape[0] == 0 or M.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D matrix (one row per token), got {name}.shape={M.shape}")
    return M


def _count(value, name: str, minimum: int) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < minimum:
        kind = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"{name} must be {kind}, got {name}={value!r}")
    return int(value)


def new_rows(M, n_new: int, init: str = "mean", *, seed: int = 0, std: float | None = None,
             cov_scale: float = MEAN_RESIZING_COV_SCALE) -> np.ndarray:
    """`n_new` rows for the table M (shape n_new × d), initialised by `init` (one of INITS).

    `std` is the standard deviation of "small" and "large" (defaults in DEFAULT_STD);
    `cov_scale` scales the covariance of "mean_cov". When the scaled covariance is not
    positive definite (fewer rows than columns, say), "mean_cov" falls back to the mean,
    as transformers does.
    """
    M = _as_matrix(M)
    n_new = _count(n_new, "n_new", 0)
    if init not in INITS:
        raise ValueError(f"init must be one of {list(INITS)}, got init={init!r}")
    if std is not None and not (isinstance(std, (int, float, np.floating)) and std > 0):
        raise ValueError(f"std must be a positive number, got std={std!r}")
    if not (isinstance(cov_scale, (int, float, np.floating)) and cov_scale > 0):
        raise ValueError(f"cov_scale must be a positive number, got cov_scale={cov_scale!r}")
    V, d = M.shape
    rng = np.random.default_rng(seed)
    if init == "zeros":
        return np.zeros((n_new, d))
    if init in ("small", "large"):
        return rng.normal(0.0, DEFAULT_STD[init] if std is None else float(std), size=(n_new, d))
    mean = M.mean(axis=0)
    if init == "mean":
        return np.tile(mean, (n_new, 1))
    centred = M - mean
    cov = cov_scale * (centred.T @ centred) / V          # transformers divides by V, not V - 1
    try:
        lower = np.linalg.cholesky(cov)
    except np.linalg.LinAlgError:                        # not positive definite: the mean, as transformers does
        return np.tile(mean, (n_new, 1))
    return mean + rng.standard_normal((n_new, d)) @ lower.T


def add_rows(M, n_new: int, init: str = "mean", **options) -> np.ndarray:
    """M with `n_new` rows appended (a new array; M is not changed). Options as `new_rows`."""
    M = _as_matrix(M)
    return np.vstack([M, new_rows(M, n_new, init, **options)])


def resize_tinylm(model, n_new: int, init: str = "mean", *, head_init: str | None = None, seed: int = 0,
                  **options):
    """A copy of a TinyLM with `n_new` tokens added at the end of its vocabulary.

    The input table E gets `n_new` rows made by `init` from E's rows. Untied, the
    output matrix U gets its own `n_new` rows, made by `head_init` (default: the same
    method) from U's rows, as transformers resizes an untied lm_head. Tied, the one
    array does both jobs, so there is nothing else to resize. The old rows and the
    other weights are copied unchanged.
    """
    from embedlab.tinylm import TinyLM

    if not isinstance(model, TinyLM):
        raise ValueError(f"model must be a TinyLM, got model={type(model).__name__}")
    n_new = _count(n_new, "n_new", 0)
    if head_init is not None and head_init not in INITS:
        raise ValueError(f"head_init must be one of {list(INITS)}, got head_init={head_init!r}")
    grown = TinyLM(model.vocab_size + n_new, d=model.d, context=model.context, tied=model.tied, seed=0)
    grown.params = {name: value.copy() for name, value in model.params.items()}
    grown.params["E"] = add_rows(model.E, n_new, init, seed=seed, **options)
    if not model.tied:
        grown.params["U"] = add_rows(model.U, n_new, head_init or init, seed=seed + 1, **options)
    return grown


# --------------------------------------------------------------------------
# Measuring what a change does to the predictions


def log_softmax(logits) -> np.ndarray:
    logits = np.asarray(logits, dtype=np.float64)
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def kl_divergence(logits_before, logits_after) -> np.ndarray:
    """KL(before ‖ after) of the next-token distributions, one value per row (natural log, nats).

    `logits_after` may have more columns than `logits_before` (tokens added at the
    end): the old distribution gives those tokens probability 0, so they count only
    through the probability they take from the old tokens.
    """
    before = np.asarray(logits_before, dtype=np.float64)
    after = np.asarray(logits_after, dtype=np.float64)
    if before.ndim != 2 or after.ndim != 2 or before.shape[0] != after.shape[0] or after.shape[1] < before.shape[1]:
        raise ValueError("logits_after must have the rows of logits_before and at least its columns, got "
                         f"logits_before.shape={before.shape}, logits_after.shape={after.shape}")
    log_p = log_softmax(before)
    log_q = log_softmax(after)[:, : before.shape[1]]
    return (np.exp(log_p) * (log_p - log_q)).sum(axis=1)


# --------------------------------------------------------------------------
# Padding and trimming


def padded_size(vocab_size: int, multiple: int) -> int:
    """`vocab_size` rounded up to a multiple of `multiple` (nanoGPT: 50,257 -> 50,304 with 64)."""
    vocab_size = _count(vocab_size, "vocab_size", 1)
    multiple = _count(multiple, "multiple", 1)
    return -(-vocab_size // multiple) * multiple


def pad_rows(M, multiple: int, init: str = "mean", **options) -> np.ndarray:
    """M with rows appended until its row count is a multiple of `multiple` (rows of no token).

    They start at the mean of M's rows by default, as lesson 12 advises (and transformers does when
    it pads with mean_resizing): a head row at the mean gets the average logit, so it takes at most
    1/(V + k) of the probability. Any other `init` of INITS may be asked for."""
    M = _as_matrix(M)
    return add_rows(M, padded_size(M.shape[0], multiple) - M.shape[0], init, **options)


def trim_rows(M, keep_ids) -> tuple[np.ndarray, np.ndarray]:
    """(the table of the kept rows, the id map): row j of the new table is row keep_ids[j] of M.

    `keep_ids` is sorted and made unique first, so the kept tokens keep their
    order. The id map has one entry per old id: its new id, or -1 if dropped.
    """
    M = _as_matrix(M)
    ids = np.asarray(keep_ids)
    if ids.ndim != 1 or ids.size == 0 or ids.dtype.kind not in "iu":
        raise ValueError(f"keep_ids must be a non-empty 1-D list of integer row ids, got keep_ids={ids.tolist()!r}"[:300])
    if ids.min() < 0 or ids.max() >= M.shape[0]:
        bad = int(ids.min()) if ids.min() < 0 else int(ids.max())
        raise ValueError(f"keep_ids must hold row ids from 0 to {M.shape[0] - 1}, got the id {bad}")
    kept = np.unique(ids)
    id_map = np.full(M.shape[0], -1, dtype=np.int64)
    id_map[kept] = np.arange(len(kept))
    return M[kept].copy(), id_map


def remap_ids(ids, id_map) -> np.ndarray:
    """Old token ids -> ids of the trimmed table; a ValueError names the first id that was dropped."""
    id_map = np.asarray(id_map)
    ids = np.asarray(ids)
    if ids.size and (ids.dtype.kind not in "iu" or ids.min() < 0 or ids.max() >= len(id_map)):
        raise ValueError(f"ids must be integer ids from 0 to {len(id_map) - 1}, got ids={ids.ravel()[:10].tolist()!r}")
    new = id_map[ids]
    if np.any(new < 0):
        dropped = int(ids.ravel()[np.flatnonzero(new.ravel() < 0)[0]])
        raise ValueError(f"ids holds a token the trimmed vocabulary dropped, got id={dropped}")
    return new
