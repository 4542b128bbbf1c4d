"""How fast embedlab-grade gets through a class: submissions per minute at -j 1 and -j 2,
and the wall time for a class of 100 copies of one exercise.

    .venv/bin/python benchmarks/grade_throughput.py                     # lesson 01, 10 + 100 copies
    .venv/bin/python benchmarks/grade_throughput.py --sample 6 --class-size 40 --lesson 03-counting-gpt2

Each copy is the lesson's solution (a fully worked submission: every cell runs,
every answer is probed and judged). Each submission pays for a worker process,
a fresh kernel and the notebook's own cells, so the figures depend on the
lesson and on the machine's load; they are printed, never asserted.
"""

import argparse
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from embedlab.grading import sandbox
from embedlab.grading.grader import grade_all
from embedlab.grading.submissions import find_submissions
from embedlab.grading.sandbox import Limits

ROOT = Path(__file__).resolve().parent.parent


def peak_mib() -> float:
    """This process's peak resident memory: VmHWM where /proc has it (Linux), else ru_maxrss."""
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale / 1024


def make_class(folder: Path, lesson: str, n: int):
    source = ROOT / "solutions" / f"{lesson}.ipynb"
    for i in range(n):
        shutil.copyfile(source, folder / f"student{i:03d}-{lesson}.ipynb")
    return find_submissions([str(folder)])


def grade_timed(submissions, lesson, jobs, limits, bwrap) -> tuple[float, int]:
    start = time.perf_counter()
    rows, faults = grade_all(submissions, lesson, limits, jobs, bwrap=bwrap)
    seconds = time.perf_counter() - start
    if faults:
        raise SystemExit(f"grader faults: {faults}")
    not_full = {r.submission for r in rows if r.status != "correct"}
    full = sum(1 for sub in submissions if sub.label not in not_full)
    return seconds, full


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lesson", default="01-toy-table")
    parser.add_argument("--sample", type=int, default=10, help="copies graded for the per-minute figures (default 10)")
    parser.add_argument("--class-size", type=int, default=100, help="copies in the class run (default 100)")
    parser.add_argument("--class-jobs", type=int, default=2, help="-j for the class run (default 2)")
    parser.add_argument("--no-sandbox", action="store_true", help="grade without bubblewrap (as embedlab-grade --no-sandbox)")
    args = parser.parse_args()
    limits = Limits(cell_timeout=120, timeout=600, memory_mb=2048)
    bwrap = None if args.no_sandbox else sandbox.bwrap_path()
    if not args.no_sandbox and bwrap is None:
        raise SystemExit("bwrap is not on PATH: install bubblewrap, or pass --no-sandbox")

    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} (1 min) at start")
    print(f"lesson {args.lesson}, each submission a copy of its solution; "
          f"{'bubblewrap sandbox per submission' if bwrap else 'no sandbox'}\n")
    with tempfile.TemporaryDirectory(prefix="embedlab-bench-") as tmp:
        sample = make_class(Path(tmp), args.lesson, args.sample)
        for jobs in (1, 2):
            seconds, full = grade_timed(sample, args.lesson, jobs, limits, bwrap)
            print(f"-j {jobs}: {len(sample)} submissions in {seconds:6.1f} s = "
                  f"{60 * len(sample) / seconds:5.1f} submissions/minute "
                  f"({seconds / len(sample):.2f} s each; {full}/{len(sample)} full marks)", flush=True)

    with tempfile.TemporaryDirectory(prefix="embedlab-bench-") as tmp:
        klass = make_class(Path(tmp), args.lesson, args.class_size)
        seconds, full = grade_timed(klass, args.lesson, args.class_jobs, limits, bwrap)
        print(f"\nclass of {args.class_size} at -j {args.class_jobs}: {seconds:6.1f} s "
              f"= {seconds / 60:.1f} min ({full}/{args.class_size} full marks)")
    print(f"load average {os.getloadavg()[0]:.2f} (1 min) at the end")
    print(f"the grader's peak memory (this process; workers and kernels not counted): {peak_mib():.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
