"""What embedlab-assign's per-learner release outputs add to assigning a class.

    .venv/bin/python benchmarks/assign_release.py                 # 200 learners, lesson 01, K = 8
    .venv/bin/python benchmarks/assign_release.py --learners 30 --lesson 05-weight-tying

Assigns one lesson once (K sandboxed solution runs, the handouts, the keys), keeping what
the release outputs are made from, then times each output on its own: --solutions,
--moodle-handouts, --moodle-solutions and --public-bundle (its key derivation at -j 1 and
-j 2). CPU seconds of this process (threads included) are the figure to quote on a loaded
machine; wall seconds are printed too. --solutions reuses the harvest's runs: it starts
no kernel. Figures are printed, never asserted.
"""

import argparse
import csv
import tempfile
import time
from pathlib import Path

from embedlab.grading import assign, sandbox
from embedlab.grading.lms import read_roster

SECRET = b"a-benchmark-secret-of-some-length"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=200)
    parser.add_argument("--lesson", default="01-toy-table")
    parser.add_argument("--variants", type=int, default=8)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        with open(tmp / "roster.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(["learner", "name", "moodle_id"])
            for i in range(args.learners):
                w.writerow([f"s{1_000_000 + i}", f"Learner {i}", str(7000 + i)])
        learners, roster = assign.read_roster(tmp / "roster.csv"), read_roster(tmp / "roster.csv")
        collected = {}
        (tmp / "class").mkdir()
        wall, cpu = time.monotonic(), time.process_time()
        assign.assign([args.lesson], learners, SECRET, args.variants, tmp / "class", sandbox.bwrap_path(), args.jobs,
                      log=lambda line: None, collect=collected)
        print(f"assign {args.lesson}, {args.learners} learners, K = {args.variants} ({args.variants} solution runs, "
              f"handouts, keys): {time.monotonic() - wall:.1f} s wall")
        empty = dict(bundles={}, moodle_handouts={}, moodle_solutions={}, public_bundle=None, public_solutions=None,
                     solutions=None, roster=roster)
        for label, jobs, extra in (("--solutions", 1, {"solutions": tmp / "released"}),
                                   ("--moodle-handouts", 1, {"moodle_handouts": {args.lesson: tmp / "h.zip"}}),
                                   ("--moodle-solutions", 1, {"moodle_solutions": {args.lesson: tmp / "s.zip"}}),
                                   ("--public-bundle -j 1", 1, {"public_bundle": tmp / "b1.json"}),
                                   ("--public-bundle -j 2", 2, {"public_bundle": tmp / "b2.json"})):
            wall, cpu = time.monotonic(), time.process_time()
            assign.write_release(assign.Outputs(**{**empty, **extra}), collected, learners, SECRET, jobs,
                                 log=lambda line: None)
            wall, cpu = time.monotonic() - wall, time.process_time() - cpu
            print(f"{label:22} {wall:6.2f} s wall {cpu:6.2f} s CPU  {1000 * cpu / len(learners):5.1f} ms CPU a learner")


if __name__ == "__main__":
    main()
