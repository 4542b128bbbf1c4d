"""Timing helpers for the lessons that measure instead of count.

Wall-clock numbers vary from run to run and machine to machine, so a lesson
prints them in cells nbval ignores and draws conclusions only from comparisons
(a ratio, a slope). On a busy laptop a single run of a large matmul can take
twice its quiet time, which bends a straight line into a plateau. Four things
make the comparisons steadier: taking the best of a few runs (noise only ever
adds time), within a bounded total time; interleaving the runs of the things
compared, so that a burst of load slows one run of each instead of every run
of one; for single-threaded work, measuring the CPU time of this process
(`time.process_time`), which leaves out the moments another program holds the
core; and knowing how many threads the BLAS library uses for a matmul (a
multi-threaded matmul next to a single-threaded copy is not a fair race).
"""

from __future__ import annotations

import ctypes
import numbers
import time
from pathlib import Path


def _check_count(name, value) -> int:
    if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {name}={value!r}")
    return int(value)


def best_times(
    funcs, repeat=5, number=1, max_seconds=None, timer=time.perf_counter, wall_clock=time.perf_counter
) -> list[float]:
    """Seconds for one call of each func: the fastest of up to `repeat` runs of `number` calls.

    The runs are interleaved: one pass times every func once, in order, and
    the passes repeat. A burst of load from another program then slows one
    run of each func, and the best of the passes misses it, where timing each
    func's runs back to back would let the burst slow all runs of one func.

    `number` is one count for every func or a sequence of one per func (a fast
    func needs many calls per run to be timed at all). With `max_seconds`, no
    new pass starts once the passes so far took that long in all, on the wall
    clock: the first pass always runs, so the total is at most max_seconds plus
    one pass.

    `timer` is the clock a run is measured with. The default is the wall clock;
    `time.process_time` counts only the CPU time of this process, so the
    moments another program holds the core are left out (for single-threaded
    work it is the steadier measure on a busy machine; a multi-threaded func
    adds up the time of all its threads). `wall_clock` is the clock the budget
    is kept on. Both return seconds; tests pass fake ones.
    """
    funcs = list(funcs)
    if not funcs:
        raise ValueError("funcs must hold at least one callable, got funcs=[]")
    for i, func in enumerate(funcs):
        if not callable(func):
            raise ValueError(f"funcs[{i}] must be callable, got funcs[{i}] of type {type(func).__name__}")
    repeat = _check_count("repeat", repeat)
    if isinstance(number, numbers.Integral) and not isinstance(number, bool):
        numbers_ = [_check_count("number", number)] * len(funcs)
    elif isinstance(number, (list, tuple)) and len(number) == len(funcs):
        numbers_ = [_check_count(f"number[{i}]", n) for i, n in enumerate(number)]
    else:
        raise ValueError(f"number must be a positive integer or one per func ({len(funcs)}), got number={number!r}")
    if max_seconds is not None and (
        not isinstance(max_seconds, numbers.Real) or isinstance(max_seconds, bool) or not max_seconds > 0
    ):
        raise ValueError(f"max_seconds must be a positive number of seconds or None, got max_seconds={max_seconds!r}")

    best = [float("inf")] * len(funcs)
    started = wall_clock()
    for _ in range(repeat):
        for i, (func, n) in enumerate(zip(funcs, numbers_)):
            start = timer()
            for _ in range(n):
                func()
            best[i] = min(best[i], (timer() - start) / n)
        if max_seconds is not None and wall_clock() - started >= max_seconds:
            break
    return best


def best_time(
    func, repeat=3, number=1, max_seconds=None, timer=time.perf_counter, wall_clock=time.perf_counter
) -> float:
    """Seconds for one call of func(): the fastest of up to `repeat` runs of `number` calls each.

    `max_seconds`, `timer` and `wall_clock` work as in `best_times`: no new
    run starts once the runs so far took max_seconds (the first always runs).
    """
    if not callable(func):
        raise ValueError(f"func must be callable, got func of type {type(func).__name__}")
    return best_times([func], repeat=repeat, number=number, max_seconds=max_seconds, timer=timer,
                      wall_clock=wall_clock)[0]


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
    return openblas_query(_OPENBLAS_QUERIES, ctypes.c_int)


def openblas_query(symbols, restype):
    """The first of `symbols` the OpenBLAS loaded in this process has, called with no argument and
    `restype` as its result type; None for another BLAS or where it cannot be asked (no /proc/self/maps).
    (embedlab.numerics.openblas_kernel asks its kernel's name this way.)"""
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
        for symbol in symbols:
            query = getattr(lib, symbol, None)
            if query is not None:
                query.restype = restype
                return query()
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
