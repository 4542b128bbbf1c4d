"""Timing helpers for the lessons that measure instead of count.

Wall-clock numbers vary from run to run and machine to machine, so a lesson
prints them in cells nbval ignores and draws conclusions only from comparisons
(a ratio, a slope). Two things make those comparisons steadier: taking the best
of a few runs (noise only ever adds time), and knowing how many threads the BLAS
library uses for a matmul (a multi-threaded matmul next to a single-threaded
copy is not a fair race).
"""

from __future__ import annotations

import ctypes
import numbers
import time
from pathlib import Path


def best_time(func, repeat=3, number=1) -> float:
    """Seconds for one call of func(): the fastest of `repeat` runs of `number` calls each."""
    for name, value in (("repeat", repeat), ("number", number)):
        if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {name}={value!r}")
    if not callable(func):
        raise ValueError(f"func must be callable, got func of type {type(func).__name__}")
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            func()
        best = min(best, (time.perf_counter() - start) / number)
    return best


# OpenBLAS builds name their thread query differently (numpy's wheels prefix it).
_OPENBLAS_QUERIES = (
    "scipy_openblas_get_num_threads64_",
    "scipy_openblas_get_num_threads",
    "openblas_get_num_threads64_",
    "openblas_get_num_threads",
)


def blas_threads() -> int | None:
    """How many threads the OpenBLAS that numpy loaded will use, asked of OpenBLAS itself.

    None when it cannot be asked: another BLAS (MKL, Accelerate), or a system
    without /proc/self/maps. Import numpy first: before that, no BLAS is loaded.
    """
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return None
    paths = sorted({line.split()[-1] for line in maps.splitlines() if "openblas" in line.lower() and "/" in line})
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in _OPENBLAS_QUERIES:
            query = getattr(lib, symbol, None)
            if query is not None:
                query.restype = ctypes.c_int
                return int(query())
    return None
