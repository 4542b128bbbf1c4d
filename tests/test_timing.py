"""Timing helpers (embedlab.timing): what they call and what they report, never how fast."""

import os
import subprocess
import sys
import time

import pytest

from embedlab.timing import best_time, best_times, blas_threads


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


class FakeClock:
    """A clock that only moves when a timed func says so: runs take exactly the seconds we choose."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def func(self, seconds_per_call, log=None, name=None):
        def call():
            self.now += seconds_per_call.pop(0) if isinstance(seconds_per_call, list) else seconds_per_call
            if log is not None:
                log.append(name)
        return call


def test_best_times_interleaves_the_runs_one_pass_at_a_time():
    clock, log = FakeClock(), []
    funcs = [clock.func(0.1, log, "a"), clock.func(0.2, log, "b"), clock.func(0.3, log, "c")]
    best_times(funcs, repeat=3, timer=clock)
    assert log == ["a", "b", "c"] * 3


def test_best_times_keeps_each_funcs_fastest_run_so_a_burst_of_load_is_missed():
    clock = FakeClock()
    # one burst of load: it slows pass 1 of the big func 4x (its other passes are quiet)
    small = clock.func([0.010, 0.010, 0.011, 0.010])
    big = clock.func([1.0, 4.0, 1.1, 1.0])
    t_small, t_big = best_times([small, big], repeat=4, timer=clock)
    assert t_small == pytest.approx(0.010) and t_big == pytest.approx(1.0)


def test_best_times_divides_by_the_number_of_calls_per_func():
    clock, log = FakeClock(), []
    fast, slow = clock.func(0.001, log, "fast"), clock.func(0.5, log, "slow")
    t_fast, t_slow = best_times([fast, slow], repeat=2, number=[20, 1], timer=clock)
    assert log.count("fast") == 40 and log.count("slow") == 2
    assert t_fast == pytest.approx(0.001) and t_slow == pytest.approx(0.5)


def test_best_times_starts_no_pass_after_max_seconds():
    clock = FakeClock()
    calls = []
    func = clock.func(0.3, calls, "f")
    best_times([func], repeat=100, max_seconds=1.0, timer=clock, wall_clock=clock)
    # passes end at 0.3, 0.6, 0.9, 1.2: the fourth starts before the budget is spent, no fifth
    assert len(calls) == 4


def test_best_times_always_runs_one_pass_even_over_budget():
    clock = FakeClock()
    calls = []
    best_times([clock.func(5.0, calls, "f")], repeat=5, max_seconds=1.0, timer=clock, wall_clock=clock)
    assert len(calls) == 1


def test_best_times_with_a_real_clock_stops_near_the_budget():
    calls = []
    start = time.perf_counter()
    best_times([lambda: (calls.append(1), time.sleep(0.01))], repeat=1_000, max_seconds=0.1)
    elapsed = time.perf_counter() - start
    assert 2 <= len(calls) <= 10 and elapsed < 1.0  # each call sleeps at least 0.01 s


def test_best_times_measures_runs_on_timer_and_keeps_the_budget_on_wall_clock():
    cpu, wall = FakeClock(), FakeClock()

    def func():          # each call: 0.1 s of our own CPU time, 1.0 s on the wall (another program ran)
        cpu.now += 0.1
        wall.now += 1.0

    calls = []
    got = best_times([lambda: (calls.append(1), func())], repeat=10, max_seconds=2.5, timer=cpu, wall_clock=wall)
    assert got == [pytest.approx(0.1)]
    assert len(calls) == 3      # the wall clock reaches 3.0 s after 3 passes: the budget is wall time


def test_process_time_leaves_out_time_the_process_spends_waiting():
    (waited,) = best_times([lambda: time.sleep(0.05)], repeat=2, timer=time.process_time)
    assert waited < 0.02


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"repeat": 0}, "repeat"),
        ({"number": [1]}, "number"),
        ({"number": [1, 0]}, r"number\[1\]"),
        ({"max_seconds": 0}, "max_seconds"),
        ({"max_seconds": "1"}, "max_seconds"),
    ],
)
def test_best_times_bad_input_names_the_field(kwargs, field):
    with pytest.raises(ValueError, match=rf"{field}"):
        best_times([lambda: None, lambda: None], **kwargs)


def test_best_times_rejects_no_funcs_and_what_it_cannot_call():
    with pytest.raises(ValueError, match=r"\bfuncs\b"):
        best_times([])
    with pytest.raises(ValueError, match=r"funcs\[1\]"):
        best_times([lambda: None, 42])


def test_best_time_is_best_times_of_one_func_with_its_budget():
    clock = FakeClock()
    calls = []
    got = best_time(clock.func([0.4, 0.2, 0.3, 0.1], calls, "f"), repeat=10, max_seconds=0.8, timer=clock, wall_clock=clock)
    assert len(calls) == 3 and got == pytest.approx(0.2)


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
