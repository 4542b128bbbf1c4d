"""Grade a class's submitted exercise notebooks into one CSV.

    embedlab-grade submissions/ --out scores.csv          # or: python -m embedlab.grading ...
    embedlab-grade alice.ipynb bob.ipynb --lesson 01-toy-table -j 2

Each submission runs in a fresh kernel in its own worker process, fenced in by a
per-cell timeout, a whole-run limit and a memory limit (embedlab.grading.sandbox, embedlab.grading.worker).
The worker brings back plain data only; the judging happens here, in the
grader's process, against the answer key and against reference outputs computed
here on inputs drawn from a fresh seed. So redefining the check, patching numpy,
always-equal objects or swallowed exceptions change nothing but the data a
submission reports about itself.

The CSV has one row per submission per question:
    submission, lesson, question, points, max_points, status, detail
with status one of embedlab.grading.status.STATUSES. The exit status is 0 when every submission got
its rows; 2 for a usage error, 1 if the grader itself failed on a submission.
"""

from __future__ import annotations

import argparse
import csv
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import astuple, dataclass
from pathlib import Path

import numpy as np

from embedlab.grading import wire
from embedlab.grading.kinds import Function, Question
from embedlab.grading.lessons import known_lessons, load_key, questions_for
from embedlab.grading.sandbox import Limits, RunResult, run_submission
from embedlab.grading.status import (
    CORRECT,
    CRASHED,
    ERROR,
    FAULT,
    INCORRECT,
    MEMORY,
    NOT_ATTEMPTED,
    STATUSES,
    TIMEOUT,
    UNREADABLE,
    WRONG_LESSON,
    format_points,
)
from embedlab.grading.values import encode_value

COLUMNS = ("submission", "lesson", "question", "points", "max_points", "status", "detail")
MAX_NOTEBOOK_BYTES = 100 * 2**20  # a larger file is reported unreadable, not loaded


@dataclass
class Row:
    submission: str
    lesson: str
    question: str
    points: float
    max_points: float
    status: str
    detail: str = ""


class GraderFault(Exception):
    """Something wrong with the grader or its installation, not with a submission."""


def lesson_from_name(path: Path) -> str | None:
    """The lesson named in a file name: 'alice-01-toy-table (1).ipynb' -> '01-toy-table'."""
    stem = path.stem.lower()
    for lesson in sorted(known_lessons(), key=len, reverse=True):
        if re.search(rf"(?<![0-9]){re.escape(lesson)}(?![a-z0-9])", stem):
            return lesson
    return None


def read_submission(path: Path):
    """The notebook as nbformat data, or raise ValueError saying why it cannot be read."""
    import nbformat

    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ValueError(f"not a readable file ({type(exc).__name__})") from None
    if size > MAX_NOTEBOOK_BYTES:
        raise ValueError(f"the file is {size:,} bytes, over the {MAX_NOTEBOOK_BYTES:,}-byte limit")
    try:
        nb = nbformat.reads(path.read_text(encoding="utf-8"), as_version=4)
    except Exception as exc:  # noqa: BLE001 - any failure to parse is UNREADABLE
        raise ValueError(f"not a readable notebook ({type(exc).__name__}: {_text(exc, 120)})") from None
    if not isinstance(nb.get("cells"), list) or not isinstance(nb.get("metadata"), dict):
        raise ValueError("not a readable notebook (no list of cells)")
    return nb


def grade_submission(path: Path, label: str, lesson_arg: str | None, limits: Limits,
                     rng: np.random.Generator) -> list[Row]:
    """All rows for one submission. Raises GraderFault only for the grader's own failures."""
    expected = lesson_arg or lesson_from_name(path)
    try:
        nb = read_submission(path)
    except ValueError as exc:
        return _rows_all(label, expected, UNREADABLE, str(exc))
    meta = nb.metadata.get("embedlab") if isinstance(nb.get("metadata"), dict) else None
    actual = meta.get("lesson") if isinstance(meta, dict) and isinstance(meta.get("lesson"), str) else None
    if expected and actual and actual != expected:
        return _rows_all(label, expected, WRONG_LESSON,
                         f"this notebook is exercise {actual[:60]!r} (its metadata), expected {expected}")
    lesson = expected or actual
    if lesson is None:
        return _rows_all(label, None, WRONG_LESSON,
                         "cannot tell which exercise this is (no lesson in its metadata or file name): use --lesson")
    if lesson not in known_lessons():
        return _rows_all(label, lesson, WRONG_LESSON, f"there is no exercise {lesson[:60]!r}")

    questions = questions_for(lesson)
    key = load_key(lesson)
    cases, reference = {}, {}
    for q in questions:
        if isinstance(q, Function):
            args = q.cases(rng)
            cases[q.name] = encode_value(list(args))
            reference[q.name] = q.expected_outputs(args)
    result = run_submission(path, lesson, cases, limits)
    if result.state == FAULT:
        raise GraderFault(result.detail)
    return [Row(label, lesson, q.name, *score(q, key, reference, result, limits)) for q in questions]


def score(q: Question, key: dict, reference: dict, result: RunResult, limits: Limits):
    """(points, max_points, status, detail) for one question, judged here on plain data."""
    if result.state in (TIMEOUT, CRASHED, MEMORY):
        return 0.0, q.points, result.state, result.detail
    answers = result.answers
    if answers is None or wire.REFUSED in answers:
        why = (answers or {}).get(wire.REFUSED) or _probe_failure(result)
        return 0.0, q.points, ERROR, f"the grader's probe could not read the answers ({why})"
    entry = answers.get(q.name)
    if not isinstance(entry, dict):
        return 0.0, q.points, ERROR, "the grader's probe reported nothing for this question"
    if wire.MISSING in entry:
        return (0.0, q.points) + _why_missing(q, result, limits)
    if wire.NOT_ATTEMPTED in entry:
        return 0.0, q.points, NOT_ATTEMPTED, _text(entry[wire.NOT_ATTEMPTED])
    if wire.WRONG_FORM in entry:
        return 0.0, q.points, INCORRECT, _text(entry[wire.WRONG_FORM])
    if wire.RAISED in entry:
        return 0.0, q.points, ERROR, f"reading the answer raised {_text(entry[wire.RAISED])}"
    if wire.DATA not in entry:
        return 0.0, q.points, ERROR, "the grader's probe reported nothing for this question"
    if isinstance(q, Function):
        expected = reference[q.name]
    elif q.name in key:
        expected = key[q.name]
    else:
        raise GraderFault(f"no answer key entry for {q.name!r}: run `make exercises`")
    try:
        verdict = q.judge(entry[wire.DATA], expected)
    except Exception as exc:  # noqa: BLE001 - malformed data from the submission's kernel
        return 0.0, q.points, ERROR, f"the answer could not be judged ({type(exc).__name__})"
    if verdict.status == CORRECT:
        return q.points, q.points, CORRECT, ""
    return 0.0, q.points, INCORRECT, _text(verdict.detail)


def _why_missing(q: Question, result: RunResult, limits: Limits):
    """An answer that is not defined: not attempted, unless a cell timed out or raised."""
    report = result.report
    timeouts = [c for c in report.get("timeouts", []) if c is not None]
    errors = [e for e in report.get("errors", []) if isinstance(e, dict) and e.get("cell") is not None]
    if timeouts:
        return TIMEOUT, (f"`{q.name}` is not defined; cell {timeouts[0] + 1} ran past the "
                           f"{limits.cell_timeout:g} s cell limit and was interrupted")
    memory = [e for e in errors if e.get("ename") == "MemoryError"]
    if memory:
        return MEMORY, f"`{q.name}` is not defined; cell {memory[0]['cell'] + 1} ran out of memory"
    if errors:
        first = errors[0]
        return ERROR, (f"`{q.name}` is not defined; cell {first['cell'] + 1} raised "
                         f"{_text(first.get('ename'))}: {_text(first.get('evalue'))}")
    return NOT_ATTEMPTED, f"`{q.name}` is not defined"


def _probe_failure(result: RunResult) -> str:
    for error in result.report.get("errors", []):
        if isinstance(error, dict) and error.get("cell") is None:
            return f"it raised {_text(error.get('ename'))}: {_text(error.get('evalue'))}"
    return "it did not report"


def _text(value, limit: int = 300) -> str:
    return str(value)[:limit].replace("\n", " ")


def _rows_all(label: str, lesson: str | None, status: str, detail: str) -> list[Row]:
    """Rows for a submission that was not run: one per question of the lesson, if it is known."""
    try:
        questions = questions_for(lesson) if lesson else []
    except ValueError:
        questions = []
    if not questions:
        return [Row(label, lesson or "", "", 0.0, 0.0, status, detail)]
    return [Row(label, lesson, q.name, 0.0, q.points, status, detail) for q in questions]


# --------------------------------------------------------------------------


def find_submissions(paths: list[str]) -> list[tuple[Path, str]]:
    """(path, label) for every notebook named or found (recursively) in a folder named."""
    found = []
    for arg in paths:
        path = Path(arg)
        if path.is_dir():
            for nb in sorted(path.rglob("*.ipynb")):
                if ".ipynb_checkpoints" not in nb.parts and nb.is_file():
                    found.append((nb, str(nb)))
        elif path.exists():
            found.append((path, str(path)))
        else:
            raise FileNotFoundError(f"no such file or folder: {arg}")
    return found


def grade_all(submissions, lesson: str | None, limits: Limits, jobs: int = 1, seed: int | None = None,
              progress=None) -> tuple[list[Row], list[str]]:
    """Grade every submission (in parallel workers); returns the rows in input order and grader faults."""
    seeds = np.random.SeedSequence(seed).spawn(len(submissions))
    faults: list[str] = []

    def one(i):
        path, label = submissions[i]
        try:
            rows = grade_submission(path, label, lesson, limits, np.random.default_rng(seeds[i]))
        except Exception as exc:  # noqa: BLE001 - report it, grade the others
            why = str(exc) if isinstance(exc, GraderFault) else f"{type(exc).__name__}: {exc}"
            faults.append(f"{label}: {why}")
            rows = _rows_all(label, lesson or lesson_from_name(path), ERROR, f"grader fault: {why}"[:300])
        if progress:
            progress(label, rows)
        return rows

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(one, range(len(submissions))))
    return [row for rows in results for row in rows], faults


def write_csv(rows: list[Row], out: Path) -> None:
    with open(out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        for row in rows:
            r = astuple(row)
            writer.writerow(r[:3] + (format_points(row.points), format_points(row.max_points)) + r[5:])


def summary(rows: list[Row]) -> str:
    """One line per submission: points and how many questions got each status."""
    per: dict[str, list[Row]] = {}
    for row in rows:
        per.setdefault(row.submission, []).append(row)
    width = max([len("submission")] + [len(s) for s in per])
    lines = [f"{'submission':<{width}}  {'lesson':<20}  {'points':>9}  statuses"]
    for label, group in per.items():
        got, best = sum(r.points for r in group), sum(r.max_points for r in group)
        counts = {}
        for r in group:
            counts[r.status] = counts.get(r.status, 0) + 1
        statuses = ", ".join(f"{s} {counts[s]}" for s in STATUSES if s in counts)
        lines.append(f"{label:<{width}}  {group[0].lesson:<20}  {format_points(got) + ' / ' + format_points(best):>9}  {statuses}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="embedlab-grade", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="submission notebooks and/or folders of them")
    parser.add_argument("--out", default="scores.csv", help="CSV file to write (default: scores.csv)")
    parser.add_argument("--lesson", help="the exercise every submission is for, e.g. 01-toy-table "
                                         "(default: from each file's name, else its metadata)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="submissions graded in parallel (default 1)")
    parser.add_argument("--cell-timeout", type=float, default=30.0, help="seconds per cell (default 30)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per submission, whole run (default 300)")
    parser.add_argument("--memory-mb", type=int, default=2048, help="memory limit per submission in MB (default 2048)")
    parser.add_argument("--seed", type=int, help="seed for the function questions' inputs (default: fresh)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print no progress lines")
    args = parser.parse_args(argv)

    if args.jobs < 1:
        parser.error(f"-j must be at least 1, got {args.jobs}")
    if args.lesson and args.lesson not in known_lessons():
        parser.error(f"no exercise {args.lesson!r}; known: {', '.join(known_lessons())}")
    try:
        limits = Limits(args.cell_timeout, args.timeout, args.memory_mb)
        submissions = find_submissions(args.paths)
    except (ValueError, FileNotFoundError) as exc:
        parser.error(str(exc))
    if not submissions:
        parser.error("no .ipynb files found in " + ", ".join(args.paths))

    done = []

    def progress(label, rows):
        done.append(label)
        if not args.quiet:
            got, best = sum(r.points for r in rows), sum(r.max_points for r in rows)
            print(f"[{len(done)}/{len(submissions)}] {label}: {format_points(got)} / {format_points(best)}", file=sys.stderr, flush=True)

    start = time.monotonic()
    rows, faults = grade_all(submissions, args.lesson, limits, args.jobs, args.seed, progress)
    write_csv(rows, Path(args.out))
    print(summary(rows))
    print(f"\n{len(submissions)} submission(s) graded in {time.monotonic() - start:.1f} s; wrote {args.out}")
    for fault in faults:
        print(f"grader fault: {fault}", file=sys.stderr)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
