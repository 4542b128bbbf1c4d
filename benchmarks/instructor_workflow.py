"""An instructor's term, end to end, timed: a class of 30 assigned one exercise, its
submissions downloaded from Canvas and from Moodle, graded into a gradebook, one
regrade request explained.

    .venv/bin/python benchmarks/instructor_workflow.py              # 30 learners, lesson 01, -j 2
    .venv/bin/python benchmarks/instructor_workflow.py --learners 12 --lesson 05-weight-tying

Every learner hands in honest work (the solution with their own parameters),
except that one learner's notebook also lands in a classmate's slot: each
LMS's download must credit it to nobody (`identity_mismatch`). The downloads
are built exactly as each LMS names them (embedlab.grading.lms's docstring
says where the naming comes from): Canvas's flat
`<sortable name>_<user id>_<attachment id>_<file name>`, one file marked
`_LATE`, one renamed `-1` by a resubmission; Moodle's folders
`<Full Name>_<participant id>_assignsubmission_file/<file name>`. Each step's
time is printed (the figures depend on the machine's load; never asserted).
"""

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from embedlab.grading.keys import KEYS_DIR, load_keys
from embedlab.grading.variants import with_parameters

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
FIRST = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lee", "Max", "Ned", "Oz"]
LAST = ["Lovelace", "Müller", "O'Neil", "Smith 2", "Zhang", "García"]


def step(name, args, timings):
    start = time.perf_counter()
    done = subprocess.run(args, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    timings.append((name, seconds))
    if done.returncode not in (0,):
        raise SystemExit(f"{name} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return done


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--lesson", default="01-toy-table")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args()
    lesson, timings = args.lesson, []
    work = Path(tempfile.mkdtemp(prefix="embedlab-term-"))
    people = [(f"{FIRST[i % len(FIRST)]} {LAST[i % len(LAST)]}", f"s{i:03d}@school.example", 7001 + i, 500 + 3 * i)
              for i in range(args.learners)]
    with open(work / "roster.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["learner", "name", "email", "canvas_id", "moodle_id"])
        for name, email, canvas_id, moodle_id in people:
            writer.writerow([email, name, email, canvas_id, moodle_id])
    (work / "secret.txt").write_text("a-secret-of-this-term-0123456789\n")

    step("assign (embedlab-assign, K = 8)", [str(BIN / "embedlab-assign"), lesson, "--roster", str(work / "roster.csv"),
                                             "--secret-file", str(work / "secret.txt"), "--out", str(work / "class"),
                                             "-j", str(args.jobs)], timings)
    keys = load_keys(work / "class" / KEYS_DIR)[lesson]
    solution = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)

    start = time.perf_counter()
    canvas, moodle = work / "canvas", work / "moodle"
    canvas.mkdir()
    notebooks = {}
    for name, email, canvas_id, moodle_id in people:
        nb = with_parameters(solution, keys.keys[keys.learners[email]].parameters)
        nb.metadata["embedlab"] = {"lesson": lesson, "learner": email, "variant": keys.learners[email]}
        notebooks[email] = nb
    for i, (name, email, canvas_id, moodle_id) in enumerate(people):
        nb = notebooks[people[0][1]] if i == 1 else notebooks[email]  # learner 0's work in learner 1's slot
        first, last = name.split(" ", 1)
        sortable = re.sub(r"[^\w]", "", f"{last}, {first}".lower())  # Canvas's sanitize_file_name
        late = "_LATE" if i == 2 else ""
        display = f"{lesson}-1.ipynb" if i == 3 else f"{lesson}.ipynb"
        nbformat.write(nb, canvas / f"{sortable}{late}_{canvas_id}_{90000 + i}_{display}")
        folder = moodle / f"{name.replace(chr(39), '')}_{moodle_id}_assignsubmission_file"
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{lesson}.ipynb")
    timings.append(("learners hand in; both downloads built", time.perf_counter() - start))

    for layout, folder in (("canvas", canvas), ("moodle", moodle)):
        out = work / f"grades-{layout}"
        out.mkdir()
        done = step(f"grade the {layout.capitalize()} download (-j {args.jobs}) + totals + gradebook",
                    [str(BIN / "embedlab-grade"), str(folder), "--keys", str(work / "class" / KEYS_DIR), "--roster",
                     str(work / "roster.csv"), "--layout", layout, "--out", str(out / "scores.csv"),
                     "--totals", str(out / "totals.csv"), "--gradebook", str(out / "gradebook.csv"),
                     "-q", "-j", str(args.jobs)], timings)
        with open(out / "totals.csv", newline="", encoding="utf-8") as f:
            statuses = {}
            for row in csv.DictReader(f):
                statuses[row["status"]] = statuses.get(row["status"], 0) + 1
        print(f"{layout}: totals by status {statuses}; summary tail:\n  "
              + "\n  ".join(done.stdout.strip().splitlines()[-6:]))
    one = next(canvas.glob(f"*_{people[1][2]}_*"))
    step("explain one regrade request (--explain)", [str(BIN / "embedlab-grade"), str(one), "--keys",
                                                     str(work / "class" / KEYS_DIR), "--roster", str(work / "roster.csv"),
                                                     "--layout", "canvas", "--explain",
                                                     "--out", str(work / "unused.csv")], timings)
    print(f"\nA class of {args.learners}, lesson {lesson}, on {os.cpu_count()} cores "
          f"(load average {os.getloadavg()[0]:.1f}):")
    for name, seconds in timings:
        print(f"  {seconds:7.1f} s  {name}")
    print(f"(files in {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
