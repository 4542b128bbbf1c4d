"""The embedding lookup two ways: indexing rows, and multiplying by one-hot vectors.

`one_hot(ids, V) @ E` and `E[ids]` select the same rows. The lookup is what every
framework runs; the matmul is the same function written as linear algebra, which
is how the backward pass is derived: d(loss)/dE = one_hot(ids)ᵀ @ d(loss)/dx. The cost
helpers count what each path does, so a lesson can compare them without a clock.
"""

from __future__ import annotations

import numbers

import numpy as np


def _check_size(name: str, value) -> int:
    if not isinstance(value, (numbers.Integral, np.integer)) or isinstance(value, (bool, np.bool_)) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {name}={value!r}")
    return int(value)


def _check_ids(ids, V: int) -> np.ndarray:
    """Token ids as an integer array, every one a row of a V-row table."""
    ids = np.asarray(ids)
    if ids.dtype.kind not in "iu":
        raise ValueError(f"ids must be integers, got ids of dtype {ids.dtype}")
    if ids.size and (ids.min() < 0 or ids.max() >= V):
        bad = ids[(ids < 0) | (ids >= V)].ravel()[0]
        raise ValueError(f"ids must lie in 0..V-1 = 0..{V - 1}, got an id {int(bad)}")
    return ids


def _check_table(E) -> np.ndarray:
    E = np.asarray(E)
    if E.ndim != 2:
        raise ValueError(f"E must be a 2-D V × d table, got E.shape={E.shape}")
    if E.dtype.kind not in "fc":
        raise ValueError(f"E must hold floating-point numbers, got E of dtype {E.dtype}")
    return E


def one_hot(ids, V, dtype=np.float64) -> np.ndarray:
    """One row of V zeros per id, with a single 1 in the id's column.

    Shape ids.shape + (V,). A row of it times E is a weighted sum of E's rows in
    which every weight but one is zero: that is why the product selects a row.
    """
    V = _check_size("V", V)
    ids = _check_ids(ids, V)
    out = np.zeros(ids.shape + (V,), dtype=dtype)
    np.put_along_axis(out, ids[..., None], 1, axis=-1)
    return out


def lookup_index(E, ids) -> np.ndarray:
    """E[ids]: copy the d numbers of each id's row. No arithmetic at all."""
    E = _check_table(E)
    ids = _check_ids(ids, E.shape[0])
    return E[ids]


def lookup_matmul(E, ids) -> np.ndarray:
    """one_hot(ids, V) @ E: the same rows as `lookup_index`, paid for with 2·V·d FLOPs per id.

    The one-hot matrix takes E's dtype, so float32 stays float32 on both paths.
    """
    E = _check_table(E)
    return one_hot(ids, E.shape[0], dtype=E.dtype) @ E


def embedding_backward(ids, grad_out, V) -> np.ndarray:
    """d(loss)/dE for x = E[ids], given grad_out = d(loss)/dx: one_hot(ids)ᵀ @ grad_out without the matmul.

    Row v of the result is the sum of grad_out over every position whose id is v:
    rows no id selects get exactly zero, and an id that appears k times gets k
    contributions. np.add.at accumulates repeats; `G[ids] += grad_out` would not
    (a repeated index is incremented once), and `G[ids] = grad_out` keeps only one repeat.
    """
    V = _check_size("V", V)
    ids = _check_ids(ids, V)
    grad_out = np.asarray(grad_out)
    if grad_out.ndim != ids.ndim + 1 or grad_out.shape[:-1] != ids.shape:
        raise ValueError(
            f"grad_out must have shape ids.shape + (d,) = {ids.shape} + (d,), got grad_out.shape={grad_out.shape}"
        )
    if grad_out.dtype.kind not in "fc":
        raise ValueError(f"grad_out must hold floating-point numbers, got grad_out of dtype {grad_out.dtype}")
    d = grad_out.shape[-1]
    grad_E = np.zeros((V, d), dtype=grad_out.dtype)
    np.add.at(grad_E, ids.ravel(), grad_out.reshape(-1, d))
    return grad_E


# --------------------------------------------------------------------------
# What each path costs, counted rather than timed.


def matmul_flops(V, d, n_tokens=1) -> int:
    """FLOPs of one_hot(ids) @ E for n_tokens ids: each output number is a length-V
    dot product, V multiplies and V adds, so 2·V·d per token (the zeros are not skipped)."""
    V, d = _check_size("V", V), _check_size("d", d)
    return 2 * V * d * _check_size("n_tokens", n_tokens)


def lookup_bytes(d, n_tokens=1, dtype=np.float32) -> int:
    """Bytes E[ids] copies into its output: d numbers per token, whatever V is."""
    d = _check_size("d", d)
    return d * _check_size("n_tokens", n_tokens) * np.dtype(dtype).itemsize


def one_hot_bytes(V, n_tokens=1, dtype=np.float32) -> int:
    """Bytes of the n_tokens × V one-hot matrix the matmul path has to build first."""
    V = _check_size("V", V)
    return V * _check_size("n_tokens", n_tokens) * np.dtype(dtype).itemsize
