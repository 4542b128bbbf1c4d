"""How long `make test` takes: the median of N runs, and the items that take longest.

    python benchmarks/make_test.py                 # 3 runs, the 15 slowest items
    python benchmarks/make_test.py --runs 5 --slowest 20
    python benchmarks/make_test.py --cold          # each run without the tests' build cache
    python benchmarks/make_test.py --runs 1 --files tests/test_term.py tests/test_written_term.py
                                                   # those files only (pytest -n 0), one after the other

Each run is `make test` as a contributor types it (three workers on two cores), with pytest's
`--durations` added through PYTEST_ADDOPTS. It prints, per run, the wall-clock seconds, the CPU
seconds of everything the run started (user + system of the whole process tree that was waited
for: workers, kernels, sandboxes, browsers), and pytest's closing line; then the median run's
slowest items. Run it on an otherwise idle machine: its wall-clock figures are the machine's,
whatever else runs beside. The CPU seconds move much less with load, and are what to compare
when judging a change on a busy machine.

The CPU seconds are read from a cpuacct control group the run is started in, where the machine
lets this process make one (cgroup v1, as root): it counts every process the run starts, the
sandboxes' kernels too, which a sandbox's own pid namespace keeps out of the user + system times a
parent collects. Elsewhere they are those times ("rusage"), which leave the sandboxes out.

`--cold` removes `_build/test-cache/` (the book the tests built, embedlab-assign's solution runs and the
hint corpora's verdicts, each kept by the hash of its inputs: tests/test_book.py, tests/conftest.py,
tests/test_hint_corpus_learners.py) before each run, so each run builds the book, runs every solution
and judges every corpus entry as a fresh clone does; without it the first run makes them and the
later ones reuse them, as a contributor's later runs do.

`--files` measures test files one at a time instead (`pytest FILE -n 0 --durations`, as a contributor
runs one file on a busy machine): each file's wall and CPU seconds and its slowest items. Its figures
are the file's own; what they make of `make test` is the wall time of its three workers.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / "_build" / "test-cache"


CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Meter:
    """The CPU seconds of one command and everything it starts: a cpuacct group of its own when one can
    be made (`kind` "cgroup"), else the user + system times collected from children ("rusage")."""

    def __init__(self):
        self.group = CPUACCT / f"embedlab-bench-{os.getpid()}-{time.monotonic_ns()}"
        try:
            self.group.mkdir()
            self.kind = "cgroup"
        except OSError:
            self.group, self.kind = None, "rusage"
        self.start = children_cpu()

    def enter(self):  # in the child, before exec: it and all it starts count in the group
        if self.group is not None:
            (self.group / "cgroup.procs").write_text(str(os.getpid()))

    def seconds(self) -> float:
        if self.group is None:
            return children_cpu() - self.start
        used = int((self.group / "cpuacct.usage").read_text()) / 1e9
        for _ in range(100):  # a process of the run may take a moment to end (a kernel, a browser)
            try:
                self.group.rmdir()
                break
            except OSError:
                time.sleep(0.1)
        else:
            print(f"left {self.group}: a process of the run is still in it", file=sys.stderr)
        return used


def one_run(slowest: int, argv: list[str] | None = None) -> dict:
    env = {**os.environ, "PYTEST_ADDOPTS": f"{os.environ.get('PYTEST_ADDOPTS', '')} --durations={slowest}".strip()}
    meter, started = Meter(), time.monotonic()
    done = subprocess.run(argv or ["make", "test"], cwd=ROOT, env=env, text=True, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, preexec_fn=meter.enter)
    wall, cpu = time.monotonic() - started, meter.seconds()
    return {"code": done.returncode, "wall": wall, "cpu": cpu, "meter": meter.kind, **parse(done.stdout)}


def parse(output: str) -> dict:
    """pytest's closing line and its --durations items (seconds, phase, test) from its output."""
    lines = output.splitlines()
    closing = next((line.strip("= ") for line in reversed(lines)
                    if re.search(r"\d+ (passed|failed)", line)), lines[-1] if lines else "")
    items = []
    if any("slowest" in line and "durations" in line for line in lines):
        start = next(i for i, line in enumerate(lines) if "slowest" in line and "durations" in line)
        for line in lines[start + 1:]:
            match = re.match(r"\s*([\d.]+)s\s+(setup|call|teardown)\s+(.+)", line)
            if not match:
                break
            items.append((float(match[1]), match[2], match[3]))
    failures = [line for line in lines if re.match(r"(FAILED|ERROR) ", line)]
    return {"closing": closing, "items": items, "failures": failures}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--slowest", type=int, default=15)
    parser.add_argument("--cold", action="store_true", help="remove the tests' build cache before each run")
    parser.add_argument("--files", nargs="+", metavar="FILE", help="time these test files, one at a time (-n 0)")
    args = parser.parse_args(argv)
    if args.files:
        return files(args)
    runs = []
    for n in range(1, args.runs + 1):
        if args.cold:
            shutil.rmtree(CACHE, ignore_errors=True)
        run = one_run(args.slowest)
        runs.append(run)
        print(f"run {n} of {args.runs}: {run['wall']:.1f} s wall, {run['cpu']:.1f} s CPU, exit {run['code']}: "
              f"{run['closing']}", flush=True)
        for line in run["failures"]:
            print(f"  {line}", flush=True)
    median = sorted(runs, key=lambda r: r["wall"])[len(runs) // 2]
    walls = ", ".join(f"{r['wall']:.1f}" for r in runs)
    print(f"make test: median {statistics.median(r['wall'] for r in runs):.1f} s wall (runs: {walls}), "
          f"median {statistics.median(r['cpu'] for r in runs):.1f} s CPU ({runs[0]['meter']}) on {os.cpu_count()} cores")
    print(f"the {len(median['items'])} slowest items of the median run ({median['wall']:.1f} s):")
    for seconds, phase, name in median["items"]:
        print(f"  {seconds:7.2f} s  {phase:8}  {name}")
    return 0 if all(r["code"] == 0 for r in runs) else 1


def files(args) -> int:
    """Each of `args.files` run alone, `args.runs` times: its wall and CPU seconds, the load beside it,
    its closing line and its slowest items (of its median run)."""
    python = ROOT / ".venv" / "bin" / "python"
    failed = False
    for name in args.files:
        runs = []
        for n in range(1, args.runs + 1):
            if args.cold:
                shutil.rmtree(CACHE, ignore_errors=True)
            load = os.getloadavg()[0]
            run = one_run(args.slowest, [str(python if python.exists() else sys.executable), "-m", "pytest", name,
                                         "-n", "0", "-q"])
            runs.append(run)
            failed |= run["code"] != 0
            print(f"{name} run {n}: {run['wall']:.1f} s wall, {run['cpu']:.1f} s CPU ({run['meter']}), load "
                  f"{load:.1f} -> {os.getloadavg()[0]:.1f}, exit {run['code']}: {run['closing']}", flush=True)
            for line in run["failures"]:
                print(f"  {line}", flush=True)
        median = sorted(runs, key=lambda r: r["cpu"])[len(runs) // 2]
        for seconds, phase, item in median["items"]:
            print(f"  {seconds:7.2f} s  {phase:8}  {item}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
