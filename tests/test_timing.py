"""Timing helpers (embedlab.timing): what they call and what they report, never how fast."""

import os
import subprocess
import sys

import pytest

from embedlab.timing import best_time, blas_threads


def test_best_time_calls_func_repeat_times_number_and_returns_seconds_per_call():
    calls = []
    seconds = best_time(lambda: calls.append(1), repeat=4, number=5)
    assert len(calls) == 20
    assert isinstance(seconds, float) and 0 <= seconds < float("inf")


@pytest.mark.parametrize(
    "kwargs, field",
    [({"repeat": 0}, "repeat"), ({"number": 1.5}, "number"), ({"repeat": True}, "repeat")],
)
def test_best_time_bad_input_names_the_field(kwargs, field):
    with pytest.raises(ValueError, match=rf"\b{field}\b"):
        best_time(lambda: None, **kwargs)


def test_best_time_rejects_what_it_cannot_call():
    with pytest.raises(ValueError, match=r"\bfunc\b"):
        best_time(42)


@pytest.mark.parametrize("threads", ["1", "2"])
def test_blas_threads_reports_what_the_environment_asked_openblas_for(threads):
    code = "import numpy, embedlab.timing as t; print(t.blas_threads())"
    env = dict(os.environ, OPENBLAS_NUM_THREADS=threads)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    if out.strip() == "None":
        pytest.skip("numpy here does not use an OpenBLAS that can be asked")
    assert out.strip() == threads


def test_blas_threads_is_a_positive_count_or_unknown():
    import numpy  # noqa: F401  (loads the BLAS)

    got = blas_threads()
    assert got is None or (isinstance(got, int) and got >= 1)
