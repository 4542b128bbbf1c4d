"""Which numpy kernels produced a float, and how far two machines' floats may honestly differ.

numpy chooses its SIMD kernels when it is imported, by what the CPU offers: on a CPU
with AVX-512, `np.exp`, `np.log` and the reductions run other instructions (and add in
another order) than on one with only AVX2, or only the SSE4.2 numpy's baseline needs.
Each result is correctly rounded to within an ulp or two, but not to the same ulp, and a
thousand Adam steps carry the difference into the last few bits of every weight: after
1,000 steps of TinyLM the parameters trained on an AVX-512 CPU and on an AVX2 one differ
by at most 9.2e-15. A new numpy release may do the same.

So the course keeps two promises apart:

- *Bit for bit* where the same numpy runs the same kernels. A result shipped with the
  course (a TinyLM run, BPE merges) records `fingerprint()` — the numpy version and the
  SIMD targets it dispatched to — and its test demands identical bytes where the
  fingerprint matches.
- *Within RUN_TOLERANCE* elsewhere, a bound chosen far above what kernels change
  (about 1e-14) and far below anything a lesson prints or a key is rounded to (the
  lessons print at most 4 decimals of these values): a real change to the model, the
  optimiser or the data moves them by 1e-4 or more and still fails.

`NPY_DISABLE_CPU_FEATURES` makes this CPU run the kernels of an older one;
`disable_features(cpu)` names what to switch off for each of OLDER_CPUS, keeping to the
features this CPU has (numpy refuses to disable one it does not), so CI proves the
course on three CPUs from one machine (`tools/other_cpus.py`).
"""

from __future__ import annotations

import platform

import numpy as np

# Bound on |a - b| for shipped floats recomputed on other kernels or another numpy: the
# kernels' own spread is ~1e-14 after 1,000 training steps; the lessons print 4 decimals.
RUN_TOLERANCE = 1e-9

# Relative bound on a class-mode key computed from training on other kernels: they differ by
# ~1e-15 relative; the grader's tightest comparison ("exact") is 1 part in 10**9.
KEY_RTOL = 1e-12

_NO_AVX512 = ("X86_V4", "AVX512")            # numpy >= 2.4 groups AVX-512 as X86_V4, AVX512_ICL, AVX512_SPR
_NO_AVX = _NO_AVX512 + ("X86_V3", "AVX2", "FMA3", "AVX", "F16C")

# An older CPU to emulate -> the prefixes of the dispatch targets it lacks. numpy >= 2.4's
# x86-64 wheels need SSE4.2 (their baseline, X86_V2) and dispatch nothing between it and AVX2,
# so an AVX-only CPU runs numpy's baseline kernels, as an SSE4.2-only one does.
OLDER_CPUS = {
    "avx2": _NO_AVX512,      # a laptop or server without AVX-512 (Haswell to Alder Lake, Zen 1-3)
    "avx": _NO_AVX,          # AVX but not AVX2 (Sandy Bridge, Ivy Bridge)
    "sse": _NO_AVX,          # no AVX at all: SSE4.2, the oldest numpy's wheels run on (Nehalem)
}

# The OpenBLAS kernel each of those CPUs gets (OPENBLAS_CORETYPE; numpy's wheels build OpenBLAS
# for every x86-64 generation and pick one by the CPU at load time): TinyLM's matrix products run
# in it, not in numpy's own SIMD loops. A CPU older than Nehalem (Core 2, Prescott) cannot run
# numpy's wheels at all.
OPENBLAS_KERNELS = {"avx2": "Haswell", "avx": "Sandybridge", "sse": "Nehalem"}


def _cpu_tables() -> tuple[dict, list, list]:
    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:       # numpy 1.x
        from numpy.core import _multiarray_umath as umath
    return dict(umath.__cpu_features__), list(umath.__cpu_baseline__), list(umath.__cpu_dispatch__)


def simd_targets() -> list[str]:
    """The SIMD targets numpy runs here: its build's baseline, then each dispatch target this CPU
    offers and NPY_DISABLE_CPU_FEATURES left on."""
    features, baseline, dispatch = _cpu_tables()
    return baseline + [name for name in dispatch if features.get(name)]


def fingerprint() -> dict:
    """What decides the last bits of a float result here: numpy's version, the machine, the kernels."""
    return {"numpy": np.__version__, "machine": platform.machine(), "simd": simd_targets()}


def same_kernels(recorded: dict | None) -> bool:
    """True where a result recorded with `recorded = fingerprint()` must be reproduced bit for bit here."""
    return recorded == fingerprint()


def disable_features(cpu: str) -> str:
    """The NPY_DISABLE_CPU_FEATURES value that makes this CPU run numpy's kernels for an older `cpu`
    (a key of OLDER_CPUS): only features this CPU has and numpy dispatches on ('' if none)."""
    if cpu not in OLDER_CPUS:
        raise ValueError(f"cpu: {cpu!r} is not one of {sorted(OLDER_CPUS)}")
    features, _, dispatch = _cpu_tables()
    lacks = OLDER_CPUS[cpu]
    return " ".join(name for name in dispatch if features.get(name) and name.startswith(lacks))


_OPENBLAS_CORENAME = ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename",
                      "openblas_get_corename64_", "openblas_get_corename")


def openblas_kernel() -> str | None:
    """The kernel the OpenBLAS numpy loaded runs ("SkylakeX", "Haswell", ...), asked of OpenBLAS itself;
    None for another BLAS or where it cannot be asked (no /proc/self/maps)."""
    import ctypes

    from embedlab.timing import openblas_query

    np.ones((2, 2)) @ np.ones((2, 2))           # BLAS is loaded with numpy; make sure it has run
    name = openblas_query(_OPENBLAS_CORENAME, ctypes.c_char_p)
    return None if name is None else name.decode().strip()
    for path in sorted({line.split()[-1] for line in maps.splitlines() if "openblas" in line.lower() and "/" in line}):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for symbol in _OPENBLAS_CORENAME:
            query = getattr(lib, symbol, None)
            if query is not None:
                query.restype = ctypes.c_char_p
                return query().decode().strip()
    return None


def max_difference(a, b) -> float:
    """The largest |a - b| over two arrays of the same shape (inf where a NaN or an inf differs)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"shape: {a.shape} and {b.shape} differ")
    if a.size == 0:
        return 0.0
    same_special = (np.isnan(a) & np.isnan(b)) | (a == b)
    if not np.all(same_special | (np.isfinite(a) & np.isfinite(b))):
        return float("inf")
    with np.errstate(invalid="ignore"):            # inf - inf where both are the same inf: masked out
        return float(np.max(np.where(same_special, 0.0, np.abs(a - b))))
