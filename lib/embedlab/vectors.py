"""Small vector helpers used from lesson 01 on."""

import numpy as np


def cosine_similarity(a, b) -> float:
    """cos(a, b) = a·b / (|a| |b|): 1 for the same direction, 0 for orthogonal, -1 for opposite.

    Raises ValueError for vectors of different lengths or a zero vector, where the
    angle is undefined (a silent nan would hide the mistake).
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"a and b must be 1-D vectors, got a.shape={a.shape}, b.shape={b.shape}")
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same length, got len(a)={a.shape[0]}, len(b)={b.shape[0]}")
    norm_a, norm_b = np.linalg.norm(a), np.linalg.norm(b)
    if norm_a == 0:
        raise ValueError(f"a is a zero vector (a={a.tolist()}): its angle is undefined")
    if norm_b == 0:
        raise ValueError(f"b is a zero vector (b={b.tolist()}): its angle is undefined")
    return float(a @ b / (norm_a * norm_b))
