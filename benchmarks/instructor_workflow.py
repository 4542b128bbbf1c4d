"""An instructor's term, end to end, timed: a class of 30 assigned one exercise, the
handouts given out through each LMS (Moodle's feedback-zip upload; Canvas: the public
bundle a learner makes their own handout from), the submissions downloaded from Canvas
and from Moodle, graded into a gradebook, then graded again with what an instructor
hands back (the course policy, feedback files and their LMS zips, the class report), one
regrade request explained, and each learner's solution released. The figures printed
include what each extra adds to a plain grading run (book/a-term.md quotes them).

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
time is printed (the figures depend on the machine's load; never asserted). What each
step writes is checked (the files exist and hold what they should), so a broken step
stops the benchmark with the reason.
"""

import argparse
import csv
import filecmp
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import nbformat

from embedlab.grading.keys import KEYS_DIR, load_keys
from embedlab.grading.variants import with_parameters

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
FIRST = ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lee", "Max", "Ned", "Oz"]
LAST = ["Lovelace", "Müller", "O'Neil", "Smith 2", "Zhang", "García"]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def step(name, args, timings):
    """Run one command; its wall time and the CPU time of everything it ran (its kernels included:
    the grader reaps them), which the machine's load changes far less than the wall time."""
    start, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(args, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    timings.append((name, seconds, children_cpu() - cpu))
    if done.returncode not in (0,):
        raise SystemExit(f"{name} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return done


def check(ok: bool, what: str) -> None:
    if not ok:
        raise SystemExit(f"benchmark stopped: {what}")


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


DUE = "2026-10-05T23:59:00"


def write_policies(work: Path, lesson: str, people: list) -> None:
    """The course policy, once per LMS: Canvas marks a late file (the per-file rule), Moodle's grading
    worksheet dates each submission (the per-day rule); one adjustment each (learner 4: a point taken
    off the total, with its reason)."""
    adjustment = (f'[[adjustment]]\nlearner = "{people[4][1]}"\nlesson = "{lesson}"\ndelta = -1\n'
                  'reason = "handed in without its outputs, against the course rules"\n')
    late = ('[late]\ntimezone = "UTC"\ngrace_minutes = 15\nper_day_percent = 10\nper_file_percent = 10\n'
            'cap_percent = 50\n')
    (work / "policy-canvas.toml").write_text(f'{late}\n[lesson."{lesson}"]\ndue = {DUE}\n\n{adjustment}',
                                             encoding="utf-8")
    (work / "policy-moodle.toml").write_text(
        f'{late}\n[lesson."{lesson}"]\ndue = {DUE}\nsubmitted = "worksheet.csv"\n\n{adjustment}', encoding="utf-8")
    with open(work / "worksheet.csv", "w", newline="", encoding="utf-8") as f:   # Moodle's grading worksheet
        writer = csv.writer(f)
        writer.writerow(["Identifier", "Full name", "Email address", "Status", "Grade", "Maximum Grade",
                         "Grade can be changed", "Last modified (submission)", "Last modified (grade)",
                         "Feedback comments"])
        for i, (name, email, _, moodle_id) in enumerate(people):
            when = "Wednesday, 7 October 2026, 11:02 AM" if i == 2 else "Monday, 5 October 2026, 9:40 PM"
            writer.writerow([f"Participant {moodle_id}", name, email, "Submitted for grading", "", "7.00", "Yes",
                             when, "-", ""])


def check_handback(extras: Path, layout: str, lesson: str, people: list, plain: list, final: list) -> None:
    """What the hand-back run must have written: the report, a page and text per learner, the LMS's zip
    with a file for each learner who handed in, the policy's adjustment and late penalty in the totals,
    the raw points unchanged."""
    check((extras / "report.html").stat().st_size > 0, "no class report")
    pages = list((extras / "feedback" / "learners").glob(f"*/{lesson}-feedback.html"))
    check(len(pages) == len(people), f"{len(pages)} feedback pages for {len(people)} learners")
    zips = list((extras / "feedback" / layout).glob("*.zip"))
    check(len(zips) == 1, f"{layout} feedback zips: {zips}")
    with zipfile.ZipFile(zips[0]) as z:
        names = z.namelist()
    check(len(names) >= len(people) - 2, f"{len(names)} files in {zips[0].name}")
    check([r["points"] for r in plain] == [r["points"] for r in final], "the policy changed the raw points")
    penalised = [r for r in final if float(r["late_penalty"] or 0) > 0]
    adjusted = [r for r in final if float(r["adjustment"] or 0) != 0]
    check(len(penalised) == 1 and len(adjusted) == 1,
          f"late penalties {len(penalised)}, adjustments {len(adjusted)} (one each expected)")
    print(f"{layout}: hand-back: {len(pages)} pages, {zips[0].name} with {len(names)} files, "
          f"late penalty {penalised[0]['late_penalty']} ({penalised[0]['learner']}), "
          f"adjustment {adjusted[0]['adjustment']} ({adjusted[0]['learner']})")


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

    assign = [str(BIN / "embedlab-assign"), lesson, "--roster", str(work / "roster.csv"),
              "--secret-file", str(work / "secret.txt")]
    step("assign (embedlab-assign, K = 8)", [*assign, "--out", str(work / "class"), "-j", str(args.jobs)], timings)
    keys = load_keys(work / "class" / KEYS_DIR)[lesson]

    # hand out: Moodle's feedback-zip upload, and the public bundle (Canvas, or any LMS)
    step("extra: handouts for the LMS (--moodle-handouts, --public-bundle)",
         [*assign, "--moodle-handouts", str(work / "handouts.zip"), "--public-bundle", str(work / "handouts.json")],
         timings)
    with zipfile.ZipFile(work / "handouts.zip") as z:
        check(len(z.namelist()) == args.learners, f"handouts.zip holds {len(z.namelist())} files")
    ada = people[0][1]
    step("a learner makes their handout from the bundle (embedlab-handout)",
         [str(BIN / "embedlab-handout"), str(work / "handouts.json"), "--learner", ada.upper(),
          "--out", str(work / "ada-clone")], timings)
    check(filecmp.cmp(work / "ada-clone" / f"{lesson}.ipynb", work / "class" / ada / f"{lesson}.ipynb", shallow=False),
          "the bundle's handout is not the one embedlab-assign wrote")
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
    timings.append(("learners hand in; both downloads built", time.perf_counter() - start, 0.0))

    write_policies(work, lesson, people)
    for layout, folder in (("canvas", canvas), ("moodle", moodle)):
        out = work / f"grades-{layout}"
        out.mkdir()
        grade = [str(BIN / "embedlab-grade"), str(folder), "--keys", str(work / "class" / KEYS_DIR), "--roster",
                 str(work / "roster.csv"), "--layout", layout, "--out", str(out / "scores.csv"),
                 "--totals", str(out / "totals.csv"), "--gradebook", str(out / "gradebook.csv"),
                 "-q", "-j", str(args.jobs)]
        done = step(f"grade the {layout.capitalize()} download (-j {args.jobs}) + totals + gradebook", grade, timings)
        plain = read_csv(out / "totals.csv")
        statuses = {}
        for row in plain:
            statuses[row["status"]] = statuses.get(row["status"], 0) + 1
        print(f"{layout}: totals by status {statuses}; summary tail:\n  "
              + "\n  ".join(done.stdout.strip().splitlines()[-6:]))
        # the same run with what an instructor hands back: the policy, feedback and its zip, the report
        extras = work / f"handback-{layout}"
        extras.mkdir()
        grade = [arg.replace(str(out), str(extras)) for arg in grade]
        step(f"grade the {layout.capitalize()} download again + --policy --feedback --report", [
            *grade, "--policy", str(work / f"policy-{layout}.toml"), "--feedback", str(extras / "feedback"),
            "--report", str(extras / "report.html")], timings)
        check_handback(extras, layout, lesson, people, plain, read_csv(extras / "totals.csv"))
        timings.append((f"  the difference: {timings[-1][1] - timings[-2][1]:+.1f} s wall (within two runs' spread "
                        "on a busy machine: benchmarks/feedback.py and class_report.py time the extras alone)",
                        None, None))
    one = next(canvas.glob(f"*_{people[1][2]}_*"))
    step("explain one regrade request (--explain)", [str(BIN / "embedlab-grade"), str(one), "--keys",
                                                     str(work / "class" / KEYS_DIR), "--roster", str(work / "roster.csv"),
                                                     "--layout", "canvas", "--explain",
                                                     "--out", str(work / "unused.csv")], timings)
    step("extra: release each learner's solution (--solutions, --moodle-solutions, --public-solutions)",
         [*assign, "--solutions", str(work / "released"), "--moodle-solutions", str(work / "solutions.zip"),
          "--public-solutions", str(work / "solutions.json")], timings)
    check(len(list((work / "released").glob(f"*/{lesson}-solution.ipynb"))) == args.learners,
          "a solved notebook per learner")
    print(f"\nA class of {args.learners}, lesson {lesson}, on {os.cpu_count()} cores "
          f"(load average {os.getloadavg()[0]:.1f}):")
    print("     wall      CPU")
    for name, seconds, cpu in timings:
        print(f"  {seconds:7.1f} s {cpu:7.2f} s  {name}" if seconds is not None else f"                      {name}")
    print(f"(files in {work})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
