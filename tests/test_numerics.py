"""embedlab.numerics: the fingerprint of numpy's kernels, the older CPUs CI emulates, the tolerance."""

import os
import subprocess
import sys

import numpy as np
import pytest

from embedlab import numerics


def test_fingerprint_names_numpy_and_the_kernels_it_runs():
    found = numerics.fingerprint()
    assert found["numpy"] == np.__version__ and found["simd"][: 1] and numerics.same_kernels(found)
    assert not numerics.same_kernels({**found, "numpy": "0.0"})
    assert not numerics.same_kernels({**found, "simd": found["simd"] + ["AN_OLDER_OR_NEWER_ONE"]})
    assert not numerics.same_kernels(None)


@pytest.mark.parametrize("cpu", sorted(numerics.OLDER_CPUS))
def test_an_emulated_older_cpu_runs_only_the_older_kernels(cpu):
    """What disable_features names is switched off in a fresh numpy, and it is only what this CPU
    has (numpy refuses to disable what it lacks); on a CPU without those features it is ''."""
    if os.environ.get("NPY_DISABLE_CPU_FEATURES"):
        pytest.skip("already emulating an older CPU (tools/other_cpus.py runs without this file)")
    off = numerics.disable_features(cpu)
    code = "from embedlab import numerics; print(' '.join(numerics.simd_targets()))"
    here = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    emulated = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "NPY_DISABLE_CPU_FEATURES": off}).stdout.split()
    assert set(off.split()) <= set(here)
    assert set(emulated) == set(here) - set(off.split())
    assert not any(t.startswith(numerics.OLDER_CPUS[cpu]) for t in emulated)


def test_an_unknown_cpu_is_refused_by_name():
    with pytest.raises(ValueError, match="cpu: 'pentium'"):
        numerics.disable_features("pentium")


def test_max_difference_sees_nan_inf_and_shape():
    assert numerics.max_difference([1.0, 2.0], [1.0, 2.0 + 1e-12]) == pytest.approx(1e-12, rel=1e-3)
    assert numerics.max_difference([np.nan, np.inf], [np.nan, np.inf]) == 0.0
    assert numerics.max_difference([np.nan], [1.0]) == float("inf")
    assert numerics.max_difference([np.inf], [-np.inf]) == float("inf")
    assert numerics.max_difference([], []) == 0.0
    with pytest.raises(ValueError, match="shape"):
        numerics.max_difference([1.0], [1.0, 2.0])


@pytest.mark.parametrize("cpu", sorted(numerics.OPENBLAS_KERNELS))
def test_openblas_runs_the_kernel_an_older_cpu_gets(cpu):
    """OPENBLAS_CORETYPE switches the kernel TinyLM's matrix products run in, and openblas_kernel()
    reads it back from OpenBLAS itself (tools/other_cpus.py checks the same before each run). numpy's
    Linux x86-64 wheels carry OpenBLAS, which this course is tested with."""
    assert set(numerics.OPENBLAS_KERNELS) == set(numerics.OLDER_CPUS)
    code = "from embedlab import numerics; print(numerics.openblas_kernel())"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"}
    here = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    kernel = numerics.OPENBLAS_KERNELS[cpu]
    older = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**env, "OPENBLAS_CORETYPE": kernel})
    assert here.stdout.strip() not in ("", "None")
    assert older.stdout.strip() == kernel
