"""The bounds the checks put on a learner's lines run again elsewhere (a second look, a case, an edit undone):
counted in the process's CPU time, so what they prove does not depend on how busy the machine is.

A wall-clock bound ran out on a busy machine: the look was left out, and with it the hint it proved or the
coincidence it refused (seen: tests/test_hint_rendering_code.py reached a hint builder or not depending on the
load and on what was kept). These tests hold embedlab.grading.elsewhere._bounded to what its docstring says."""

from __future__ import annotations

import signal
import time

import pytest

from embedlab.grading import elsewhere


def test_lines_that_wait_are_not_cut_at_the_cpu_bound():
    """A wall-clock bound of 0.2 s cuts a 0.5 s sleep; a CPU bound does not (a sleep uses no CPU), as a busy
    machine's waiting for a core uses none."""
    with elsewhere._bounded(0.2):
        time.sleep(0.5)


def test_lines_that_work_past_the_bound_are_stopped():
    """Stopped once they have used about 0.2 s of CPU; well before that only if they got under 1/WALL_FACTOR of a core
    for WALL_FACTOR times as long (the backstop for lines that wait: a machine busier than that)."""
    spent, started = time.process_time(), time.monotonic()
    with pytest.raises(elsewhere.OutOfTime):
        with elsewhere._bounded(0.2):
            while True:
                pass
    cpu, wall = time.process_time() - spent, time.monotonic() - started
    # the kernel's CPU timer is charged tick by tick: it may fire a little before process_time() reads 0.2
    assert cpu >= 0.2 * 0.5 or wall >= 0.2 * elsewhere.WALL_FACTOR, (cpu, wall)


def test_lines_that_wait_forever_are_stopped_by_the_wall_clock_backstop():
    with pytest.raises(elsewhere.OutOfTime):
        with elsewhere._bounded(0.02):  # 0.4 s of wall clock (WALL_FACTOR times the bound)
            time.sleep(30)


def test_the_learners_own_timers_and_handlers_are_put_back():
    def mine(signum, frame):  # noqa: ARG001
        pass

    old = {sig: signal.signal(sig, mine) for sig in (signal.SIGALRM, signal.SIGPROF)}
    signal.setitimer(signal.ITIMER_REAL, 100)
    signal.setitimer(signal.ITIMER_PROF, 100)
    try:
        with elsewhere._bounded(0.5):
            pass
        assert signal.getsignal(signal.SIGALRM) is mine and signal.getsignal(signal.SIGPROF) is mine
        assert signal.getitimer(signal.ITIMER_REAL)[0] > 90
        assert signal.getitimer(signal.ITIMER_PROF)[0] > 90
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.setitimer(signal.ITIMER_PROF, 0)
        for sig, handler in old.items():
            signal.signal(sig, handler)


def test_bounded_lines_get_numpys_arrays_in_ordinary_pages_and_the_setting_is_put_back():
    """Huge pages make the kernel zero 2 MiB for each page an array touches: `np.eye(32000)` (one 1 every 256 KiB)
    cost some 15 s of system time in one call, out of reach of the CPU bound's signal (seen: one wrong answer of
    the hint corpus took 17 s to check). Inside `_bounded` numpy asks for no huge pages; outside, its own
    setting is back, whatever the lines raise."""
    switch = elsewhere._hugepage_switch()
    assert switch is not None, "numpy's _set_madvise_hugepage is gone: _small_pages would no longer do anything"
    before = switch(True)
    try:
        with elsewhere._bounded(5):
            assert switch(False) is False  # off inside (switch returns what it was)
        assert switch(True) is True  # and back on after
        with pytest.raises(elsewhere.OutOfTime):
            with elsewhere._bounded(0.05):
                assert switch(False) is False
                while True:
                    pass
        assert switch(True) is True
        switch(False)
        with elsewhere._bounded(5):
            pass
        assert switch(False) is False  # a setting that was off stays off
    finally:
        switch(before)
