"""How long `make test` takes: the median of N runs, and the items that take longest.

    python benchmarks/make_test.py                 # 3 runs, the 15 slowest items
    python benchmarks/make_test.py --runs 5 --slowest 20
    python benchmarks/make_test.py --cold          # each run without the tests' build cache

Each run is `make test` as a contributor types it (three workers on two cores), with pytest's
`--durations` added through PYTEST_ADDOPTS. It prints, per run, the wall-clock seconds, the CPU
seconds of everything the run started (user + system of the whole process tree that was waited
for: workers, kernels, sandboxes, browsers), and pytest's closing line; then the median run's
slowest items. Run it on an otherwise idle machine: its wall-clock figures are the machine's,
whatever else runs beside. The CPU seconds move much less with load, and are what to compare
when judging a change on a busy machine.

`--cold` removes `_build/test-cache/` (the book the tests built, kept by the hash of its inputs:
tests/test_book.py) before each run, so each run builds the book as a fresh clone does; without
it the first run builds it and the later ones reuse it, as a contributor's later runs do.
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


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_run(slowest: int) -> dict:
    env = {**os.environ, "PYTEST_ADDOPTS": f"{os.environ.get('PYTEST_ADDOPTS', '')} --durations={slowest}".strip()}
    cpu, started = children_cpu(), time.monotonic()
    done = subprocess.run(["make", "test"], cwd=ROOT, env=env, text=True, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    wall, cpu = time.monotonic() - started, children_cpu() - cpu
    return {"code": done.returncode, "wall": wall, "cpu": cpu, **parse(done.stdout)}


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
    return {"closing": closing, "items": items}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--slowest", type=int, default=15)
    parser.add_argument("--cold", action="store_true", help="remove the tests' build cache before each run")
    args = parser.parse_args(argv)
    runs = []
    for n in range(1, args.runs + 1):
        if args.cold:
            shutil.rmtree(CACHE, ignore_errors=True)
        run = one_run(args.slowest)
        runs.append(run)
        print(f"run {n} of {args.runs}: {run['wall']:.1f} s wall, {run['cpu']:.1f} s CPU, exit {run['code']}: "
              f"{run['closing']}", flush=True)
    median = sorted(runs, key=lambda r: r["wall"])[len(runs) // 2]
    walls = ", ".join(f"{r['wall']:.1f}" for r in runs)
    print(f"make test: median {statistics.median(r['wall'] for r in runs):.1f} s wall (runs: {walls}), "
          f"median {statistics.median(r['cpu'] for r in runs):.1f} s CPU on {os.cpu_count()} cores")
    print(f"the {len(median['items'])} slowest items of the median run ({median['wall']:.1f} s):")
    for seconds, phase, name in median["items"]:
        print(f"  {seconds:7.2f} s  {phase:8}  {name}")
    return 0 if all(r["code"] == 0 for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
