"""The load check: the suite's tests that wait on something outside Python, run beside busy processes.

    python tools/under_load.py                      # the `waits` tests, 3 runs, cores + 1 busy processes
    python tools/under_load.py --runs 5 --hogs 4
    python tools/under_load.py -- tests/test_lab.py # these tests instead (pytest's own arguments)

A test marked `waits` (pyproject.toml; CONTRIBUTING.md, "Tests that wait") waits for an
event outside Python: a widget view drawn, a kernel's reply, a page's load, a sandbox's
time limit, a signal delivered. On a quiet machine those events come at once; on a busy
one (a laptop building something, CI beside another job, `make test`'s three workers on
two cores) they come late, and a test that waited a fixed time instead of for the event
fails there, telling a contributor that their change broke the course when it did not.
This starts `--hogs` busy processes (default: one more than the cores, each a loop on
the CPU at normal priority, each in a session of its own: `start_hogs`), runs those
tests with pytest beside them `--runs` times, one run after another, and prints each
run's result and time. It exits 0 only if every run is green; the busy processes are
ended whatever happens.

CI (.ci/run) runs it once with `--runs 1`; run it with the default three before changing a test's
waiting, a deadline, or anything a browser, the grader's sandbox or a signal does.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOG = "import signal, sys; signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))\nwhile True: pass"


def start_hogs(count: int) -> list[subprocess.Popen]:
    """`count` processes that keep a CPU busy each, until stop_hogs(), each in a
    session of its own. Linux (with autogroup scheduling, the default of most
    distributions) shares the CPUs between sessions first, then between the
    processes of a session: busy processes in this tool's session would take one
    session's share together, and what the tests start in sessions of their own (a
    kernel, a grader's sandbox) would hardly feel them. Measured on two cores (at
    load 9 from other work): a kernel stopping an interrupted `ex.summary()` of
    lesson 01 (0.33 s of its CPU) replied in 0.76 s beside no busy process of this
    kind, 0.84 s beside three in one session, 1.43 s beside three in sessions of
    their own, 2.52 s beside eight."""
    return [subprocess.Popen([sys.executable, "-c", HOG], stdin=subprocess.DEVNULL,
                             start_new_session=True) for _ in range(count)]


def stop_hogs(hogs: list[subprocess.Popen]) -> None:
    for hog in hogs:
        if hog.poll() is None:
            hog.terminate()
    for hog in hogs:
        try:
            hog.wait(timeout=10)
        except subprocess.TimeoutExpired:
            hog.kill()
            hog.wait()


def summary(output: str) -> str:
    """pytest's closing line ("== 12 passed in 80.1s ==", without the rule), or its last line."""
    lines = [line.strip("= ").strip() for line in output.splitlines() if line.strip()]
    for line in reversed(lines):
        if re.search(r"\b(passed|failed|error|errors|no tests ran)\b", line):
            return line
    return lines[-1] if lines else "(no output)"


def slowest(output: str) -> list[str]:
    """The lines of pytest's --durations table: where a run under load spent its time."""
    lines = output.splitlines()
    start = next((i for i, line in enumerate(lines) if "slowest" in line and "durations" in line), None)
    if start is None:
        return []
    return [line for line in lines[start + 1:] if re.match(r"\s*[\d.]+s\s+(setup|call|teardown)\s", line)]


def run_once(pytest_args: list[str]) -> tuple[int, str, float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", *pytest_args], cwd=ROOT, text=True,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return done.returncode, done.stdout, time.monotonic() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs, one after another (default 3)")
    parser.add_argument("--hogs", type=int, default=(os.cpu_count() or 1) + 1,
                        help="busy processes beside the tests (default: one more than the cores)")
    parser.add_argument("--workers", default="3", help="pytest-xdist workers, as make test runs them (default 3)")
    parser.add_argument("pytest_args", nargs="*", help="after --: tests and pytest arguments instead of "
                                                       "the `waits` tests")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.hogs < 0:
        parser.error("--runs must be at least 1 and --hogs at least 0")
    pytest_args = args.pytest_args or ["tests", "-m", "waits"]
    pytest_args = [*pytest_args, "-n", args.workers, "--dist", "loadfile", "-q", "--durations=5"]
    print(f"under load: {' '.join(pytest_args)}, {args.runs} run(s) beside {args.hogs} busy process(es) "
          f"on {os.cpu_count()} cores", flush=True)
    green = 0
    hogs: list[subprocess.Popen] = []
    previous = signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    try:
        hogs = start_hogs(args.hogs)
        for run in range(1, args.runs + 1):
            code, output, seconds = run_once(pytest_args)
            ok = code == 0
            green += ok
            print(f"run {run} of {args.runs}: {'green' if ok else 'RED'} in {seconds:.0f} s: {summary(output)}",
                  flush=True)
            print("".join(f"    {line.strip()}\n" for line in slowest(output)), end="", flush=True)
            log = ROOT / "_build" / "under-load" / f"run-{run}.log"
            log.parent.mkdir(parents=True, exist_ok=True)
            log.write_text(output, encoding="utf-8")
            if not ok:
                failures = [line for line in output.splitlines() if line.startswith(("FAILED", "ERROR", "E   "))]
                print("\n".join(failures[:60]) if failures else output[-5000:], flush=True)
                print(f"(pytest's whole output: {log.relative_to(ROOT)})", flush=True)
                if code == 5:
                    print("(pytest collected no test: the load check ran nothing)", flush=True)
    finally:
        stop_hogs(hogs)
        signal.signal(signal.SIGTERM, previous)
    print(f"under load: {green} of {args.runs} run(s) green", flush=True)
    return 0 if green == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
