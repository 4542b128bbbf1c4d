"""Grade a class's submitted exercise notebooks into one CSV.

    embedlab-grade submissions/ --out scores.csv          # or: python -m embedlab.grading ...
    embedlab-grade alice.ipynb bob.ipynb --lesson 01-toy-table -j 2

Each submission runs in its own bubblewrap sandbox (embedlab.grading.sandbox):
a fresh kernel in its own user, pid, mount and network namespaces, fenced in by
a per-cell timeout, a whole-run limit and a memory limit, with no view of other
submissions, the answer keys or the grader. What comes back over the grader's
own pipe is plain data only; the judging happens here, in the grader's process,
against the answer key and against reference outputs computed here on inputs
drawn from a fresh seed. So redefining the check, patching numpy, always-equal
objects or swallowed exceptions change nothing but the data a submission
reports about itself. Without bubblewrap the grader refuses to run unless told
`--no-sandbox`.

The CSV has one row per submission per question:
    submission, lesson, question, points, max_points, status, detail, learner
with status one of embedlab.grading.status.STATUSES.

Class mode: with `--keys DIR/instructor-keys` (written by embedlab-assign), each
submission is judged against the key of its own learner's variant: the learner
its metadata names, the variant the keys record for them. A notebook in a
learner's folder (a folder named as a learner of the roster) whose metadata
names another learner, or a learner the keys do not know, is
`identity_mismatch` and not graded. `--totals TOTALS.csv` writes one row per
learner and lesson (points, max_points) for a gradebook.

The exit status is 0 when every submission got its rows; 2 for a usage error (or no sandbox); 1 if the
grader itself failed on a submission; 130 when stopped by Ctrl-C (the rows
graded so far are written).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import math
import os
import re
import signal
import stat
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from embedlab.grading import sandbox, wire
from embedlab.grading.explain import with_source
from embedlab.grading.keys import KeysError, LessonKeys, load_keys
from embedlab.grading.kinds import Function, Question
from embedlab.grading.lessons import known_lessons, load_key, questions_for
from embedlab.grading.sandbox import Limits, Run, RunResult
from embedlab.grading.status import (
    CORRECT,
    CRASHED,
    ERROR,
    FAULT,
    IDENTITY_MISMATCH,
    INCORRECT,
    MEMORY,
    NEEDS_KEYS,
    NOT_ATTEMPTED,
    STATUSES,
    TIMEOUT,
    UNREADABLE,
    WRONG_LESSON,
    format_points,
)
from embedlab.grading.text import UNPRINTABLE, display_name, printable  # noqa: F401 - cli's names too
from embedlab.grading.values import encode_value

COLUMNS = ("submission", "lesson", "question", "points", "max_points", "status", "detail", "learner")
TOTALS_COLUMNS = ("learner", "lesson", "points", "max_points")
MAX_NOTEBOOK_BYTES = 100 * 2**20  # a larger file is reported unreadable, never sent
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet reads a cell starting so as a formula
INTERRUPTED = 130  # exit status after Ctrl-C (128 + SIGINT)
STOP_GRACE = 10.0  # seconds the runs get to clean up after Ctrl-C
NO_SANDBOX_NOTE = "no sandbox (--no-sandbox): submissions ran with the grader's privileges"
NO_GROUP_NOTE = ("no control group per submission: --memory-mb bounds each process, not a submission's "
                 "processes and files together, and --max-processes is not enforced (book/grading.md, Limits)")


@dataclass
class Row:
    submission: str
    lesson: str
    question: str
    points: float
    max_points: float
    status: str
    detail: str = ""
    learner: str = ""  # class mode: whose notebook it is (empty without --keys)


@dataclass
class Submission:
    path: Path  # as found (for the lesson in its name)
    label: str  # the path as printed and written: every unprintable character escaped
    real: str | None  # the file to read; None when it must not be read
    problem: str = ""  # why it is unreadable without reading it (a link out of its folder...)
    folders: tuple[str, ...] = ()  # the folders it is in, nearest first, up to the one named (class mode)


class GraderFault(Exception):
    """Something wrong with the grader or its installation, not with a submission."""


# --------------------------------------------------------------------------
# Names and text from submissions: printed and written safely


def csv_cell(text: str) -> str:
    """A text cell a spreadsheet will not run: a leading = + - @ (or tab, CR) gets a quote before it."""
    return "'" + text if text.startswith(FORMULA_START) else text


def lesson_from_name(path: Path) -> str | None:
    """The lesson named in a file name: 'alice-01-toy-table (1).ipynb' -> '01-toy-table'."""
    stem = path.stem.lower()
    for lesson in sorted(known_lessons(), key=len, reverse=True):
        if re.search(rf"(?<![0-9]){re.escape(lesson)}(?![a-z0-9])", stem):
            return lesson
    return None


# --------------------------------------------------------------------------
# Finding and opening submissions


def find_submissions(paths: list[str]) -> list[Submission]:
    """Every notebook named, or found (recursively) in a folder named, once per file.

    A file reached by several paths (a link, a hard link, a folder and a file in it)
    is one submission, under the first path found. A link that leads out of the
    folder it is in (or a file argument's own folder) is kept, unread, as unreadable.
    """
    found: list[Submission] = []
    seen: set = set()

    def add(path: str, folder: str, folders: tuple[str, ...]):
        label = display_name(path)
        real = os.path.realpath(path)
        if not (real == folder or real.startswith(folder.rstrip("/") + "/")):
            found.append(Submission(Path(path), label, None,
                                    "a link to a file outside the submissions folder: not read", folders))
            return
        try:
            st = os.stat(real)
        except OSError as exc:
            found.append(Submission(Path(path), label, None, f"not a readable file ({type(exc).__name__})",
                                    folders))
            return
        if not stat.S_ISREG(st.st_mode):
            found.append(Submission(Path(path), label, None, "not a regular file", folders))
            return
        if (st.st_dev, st.st_ino) in seen:
            return
        seen.add((st.st_dev, st.st_ino))
        found.append(Submission(Path(path), label, real, "", folders))

    for arg in paths:
        path = Path(arg)
        if path.is_dir():
            folder = os.path.realpath(path)
            for top, dirs, files in os.walk(path):  # links to folders are not followed
                dirs[:] = sorted(d for d in dirs if d != ".ipynb_checkpoints")
                inside = Path(top).relative_to(path).parts[::-1] + (Path(folder).name,)
                for name in sorted(files):
                    if name.endswith(".ipynb"):
                        add(os.path.join(top, name), folder, inside)
        elif os.path.lexists(path):
            add(arg, os.path.realpath(os.path.dirname(os.path.abspath(path))), (Path(path).absolute().parent.name,))
        else:
            raise FileNotFoundError(f"no such file or folder: {display_name(arg)}")
    return found


def open_submission(sub: Submission) -> tuple[int, int]:
    """(file descriptor, size) of a submission to read, or ValueError saying why not."""
    if sub.real is None:
        raise ValueError(sub.problem)
    try:
        fd = os.open(sub.real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise ValueError(f"not a readable file ({type(exc).__name__})") from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise ValueError("not a regular file")
    if st.st_size > MAX_NOTEBOOK_BYTES:
        os.close(fd)
        raise ValueError(f"the file is {st.st_size:,} bytes, over the {MAX_NOTEBOOK_BYTES:,}-byte limit")
    return fd, st.st_size


# --------------------------------------------------------------------------
# Grading one submission


def grade_submission(sub: Submission, lesson_arg: str | None, limits: Limits, rng: np.random.Generator,
                     bwrap: str | None, keys: dict[str, LessonKeys] | None = None) -> list[Row]:
    """All rows for one submission. Raises GraderFault only for the grader's own failures.
    With `keys` (class mode), judged against its learner's variant (see `class_variant`)."""
    label = sub.label
    expected = lesson_arg or lesson_from_name(sub.path)
    try:
        fd, size = open_submission(sub)
    except ValueError as exc:
        return _rows_all(label, expected, UNREADABLE, str(exc))
    run = None
    try:
        run = Run(limits, bwrap)
        sent = run.send_notebook(fd, size)
        os.close(fd)
        fd = None
        message = run.receive("notebook", "unreadable") if sent else None
        if message is None:
            result = run.end(None)
            return _rows_all(label, expected, result.state, result.detail)
        if "unreadable" in message:
            return _rows_all(label, expected, UNREADABLE, _text(message["unreadable"]))
        meta = message["notebook"]
        actual = meta.get("lesson") if isinstance(meta, dict) and isinstance(meta.get("lesson"), str) else None
        if expected and actual and actual != expected:
            return _rows_all(label, expected, WRONG_LESSON,
                             f"this notebook is exercise {_text(repr(actual), 60)} (its metadata), expected {expected}")
        lesson = expected or actual
        if lesson is None:
            return _rows_all(label, None, WRONG_LESSON,
                             "cannot tell which exercise this is (no lesson in its metadata or file name): use --lesson")
        if lesson not in known_lessons():
            return _rows_all(label, None, WRONG_LESSON, f"there is no exercise {_text(repr(lesson), 60)}")

        learner, questions, key = "", questions_for(lesson), load_key(lesson)
        variant = meta.get("variant") if isinstance(meta, dict) else None
        if keys is None and isinstance(variant, int) and not isinstance(variant, bool) and variant >= 1:
            return _rows_all(label, lesson, NEEDS_KEYS, f"a class notebook (variant {variant}): its answers are "
                                                        "judged against its learner's variant: grade with --keys "
                                                        "DIR/instructor-keys (embedlab-assign wrote it)")
        if keys is not None:
            learner, variant, status, why = class_variant(sub, meta, lesson, keys)
            if variant is None:
                return [dataclasses.replace(row, learner=learner) for row in _rows_all(label, lesson, status, why)]
            questions, key = questions_for(lesson, variant.parameters), variant.key
        cases, reference = {}, {}
        for q in questions:
            if isinstance(q, Function):
                args = q.cases(rng)
                cases[q.name] = encode_value(list(args))
                reference[q.name] = q.expected_outputs(args)
        result = run.finish({"lesson": lesson, "cases": cases})
        if result.state == FAULT:
            raise GraderFault(result.detail)
        return [Row(label, lesson, q.name, *score(q, key, reference, result, limits), learner) for q in questions]
    finally:
        if fd is not None:
            os.close(fd)
        if run is not None:
            run.close()


def merge_keys(loaded: list[tuple[str, dict[str, LessonKeys]]]) -> dict[str, LessonKeys]:
    """One {lesson: keys} from several instructor-keys folders (lessons assigned week by week, a
    late learner assigned in a run of their own). One lesson in two folders merges its learners
    when both runs made the same variants (the same secret and K); KeysError if they did not,
    or if one learner has two variants."""
    merged, where = {}, {}
    for folder, keys in loaded:
        for lesson, mine in keys.items():
            if lesson not in merged:
                merged[lesson], where[lesson] = mine, folder
                continue
            theirs = merged[lesson]
            clash = (f"{where[lesson]!r} and {folder!r} hold different keys for {lesson}"
                     if (theirs.variants, theirs.keys) != (mine.variants, mine.keys) else
                     next((f"{where[lesson]!r} and {folder!r} give learner {name!r} different variants of {lesson}"
                           for name, n in mine.learners.items() if theirs.learners.get(name, n) != n), None))
            if clash:
                raise KeysError(f"{clash} (assigned with another secret or K?): give the folder of the run "
                                "that assigned it")
            merged[lesson] = dataclasses.replace(theirs, learners={**theirs.learners, **mine.learners})
    return merged


def class_variant(sub: Submission, meta, lesson: str, keys: dict[str, LessonKeys]):
    """(learner, variant or None, status, why not) of a class submission.

    The learner is the one its metadata names; a notebook in a roster learner's
    folder (the nearest folder, up to the one named on the command line, whose
    name is a learner's, case ignored) must name that learner. The variant is the
    keys' record for that learner, never the metadata's own (a learner can edit
    metadata).
    """
    lesson_keys = keys.get(lesson)
    if lesson_keys is None:
        return "", None, WRONG_LESSON, f"the instructor keys hold no variants of {lesson}"
    named = meta.get("learner") if isinstance(meta, dict) and isinstance(meta.get("learner"), str) else None
    by_name = {name.lower(): name for name in lesson_keys.learners}
    folders = sub.folders or (sub.path.parent.name,)
    owner = next((by_name[name.lower()] for name in folders if name.lower() in by_name), None)
    if owner is not None and named is not None and named != owner:
        return owner, None, IDENTITY_MISMATCH, (f"in {owner}'s folder, but its metadata names learner "
                                                f"{_text(repr(named), 80)}: not graded")
    learner = named if named is not None else owner
    if learner is None:
        return "", None, IDENTITY_MISMATCH, "no learner in its metadata and not in a learner's folder: not graded"
    variant = lesson_keys.for_learner(learner)
    if variant is None:
        return _text(learner, 80), None, IDENTITY_MISMATCH, (f"learner {_text(repr(learner), 80)} is not on the "
                                                             "roster these keys were made for: not graded")
    return learner, variant, "", ""


def score(q: Question, key: dict, reference: dict, result: RunResult, limits: Limits):
    """(points, max_points, status, detail) for one question, judged here on plain data."""
    if result.state in (TIMEOUT, CRASHED, MEMORY, ERROR):
        return 0.0, q.points, result.state, result.detail
    answers = result.answers
    if (answers is None or q.name not in answers) and None in result.report.get("timeouts", []):
        return 0.0, q.points, TIMEOUT, (f"the grader's probe ran past the {limits.cell_timeout:g} s cell limit "
                                        "before it read this answer (a function that does not return?)")
    if answers is None:
        return 0.0, q.points, ERROR, f"the grader's probe could not read the answers ({_probe_failure(result)})"
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
    sources = result.report.get("sources")  # the answer cells' source, from the sandbox: read, never run
    source = sources.get(q.name) if isinstance(sources, dict) else None
    try:
        verdict = with_source(q, source).judge(entry[wire.DATA], expected)
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
    cell = report.get("defines", {}).get(q.name)  # the cell that assigns it, if one does
    if cell in timeouts:
        return TIMEOUT, (f"`{q.name}` is not defined; cell {cell + 1}, which defines it, ran past the "
                         f"{limits.cell_timeout:g} s cell limit and was interrupted")
    own = [e for e in errors if e["cell"] == cell]
    if own and own[0].get("ename") == "MemoryError":
        return MEMORY, f"`{q.name}` is not defined; cell {cell + 1} ran out of memory"
    if own:
        return ERROR, (f"`{q.name}` is not defined; cell {cell + 1} raised "
                       f"{_text(own[0].get('ename'))}: {_text(own[0].get('evalue'))}")
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
    """Text from a submission, cut to `limit` characters, every control character escaped."""
    return printable(str(value)[:limit])


def _rows_all(label: str, lesson: str | None, status: str, detail: str) -> list[Row]:
    """Rows for a submission that was not run (or not to the end): one per question of its lesson."""
    try:
        questions = questions_for(lesson) if lesson else []
    except ValueError:
        questions = []
    if not questions:
        return [Row(label, lesson or "", "", 0.0, 0.0, status, detail)]
    return [Row(label, lesson, q.name, 0.0, q.points, status, detail) for q in questions]


# --------------------------------------------------------------------------
# A class


class Interrupted(Exception):
    """Ctrl-C (or SIGTERM) stopped the grading; `rows` holds the submissions graded before it."""

    def __init__(self, rows, faults):
        super().__init__("interrupted")
        self.rows, self.faults = rows, faults


def grade_all(submissions: list[Submission], lesson: str | None, limits: Limits, jobs: int = 1,
              seed: int | None = None, progress=None, bwrap: str | None = None,
              keys: dict[str, LessonKeys] | None = None) -> tuple[list[Row], list[str]]:
    """Grade every submission (in parallel runs); the rows in input order, and the grader's faults.

    `bwrap` is the path of bubblewrap (None: no sandbox). On KeyboardInterrupt every run
    is killed and Interrupted carries the rows of the submissions finished before it.
    """
    seeds = np.random.SeedSequence(seed).spawn(len(submissions))
    faults: list[str] = []
    results: dict[int, list[Row]] = {}
    lock = threading.Lock()
    stopping = threading.Event()

    def one(i):
        if stopping.is_set():
            return
        sub = submissions[i]
        try:
            rows = grade_submission(sub, lesson, limits, np.random.default_rng(seeds[i]), bwrap, keys)
            fault = None
        except Exception as exc:  # noqa: BLE001 - report it, grade the others
            why = str(exc) if isinstance(exc, GraderFault) else f"{type(exc).__name__}: {exc}"
            fault = f"{sub.label}: {_text(why)}"
            rows = _rows_all(sub.label, lesson or lesson_from_name(sub.path), ERROR, f"grader fault: {_text(why)}")
        with lock:
            if stopping.is_set():
                return  # killed by Ctrl-C: its rows would not be its score
            results[i] = rows
            if fault:
                faults.append(fault)
            if progress:
                progress(sub.label, rows)

    sandbox.reset_stop()
    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = []
    try:
        futures = [pool.submit(one, i) for i in range(len(submissions))]
        for future in futures:
            future.result()
    except KeyboardInterrupt:
        with lock:
            stopping.set()
        sandbox.stop_all()
        for future in futures:
            future.cancel()
        # the killed runs clean up their temporary folders; a judge still busy after the grace is left
        # behind (`run` exits without waiting for it), so Ctrl-C always ends the run
        try:
            wait_for(futures, timeout=STOP_GRACE)
        except KeyboardInterrupt:
            pass  # a second Ctrl-C: stop waiting; what was graded is still written
        pool.shutdown(wait=False, cancel_futures=True)
        raise Interrupted([row for i in sorted(results) for row in results[i]], faults) from None
    pool.shutdown(wait=True)
    return [row for i in range(len(submissions)) for row in results[i]], faults


def open_output(out: Path, flag: str = "--out"):
    """A temporary file next to `out`, to be renamed over it: raises ValueError (naming the
    command-line `flag` that gave `out`) if `out` cannot be written."""
    if out.is_dir():
        raise ValueError(f"{flag} is a folder: {display_name(out)}")
    folder = out.parent if str(out.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise ValueError(f"cannot write {flag} {display_name(out)} ({type(exc).__name__}: {exc.strerror})") from None
    return fd, tmp


@contextlib.contextmanager
def atomic_output(out: Path, mode: str = "w", flag: str = "--out", **open_args):
    """An open file that replaces `out` only once it is complete: written to a temporary
    file in the same folder, synced, then renamed over `out` (a link at `out` is replaced,
    never written through). On any error or interrupt the temporary file is removed."""
    fd, tmp = open_output(out, flag)
    try:
        with open(fd, mode, **open_args) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_csv(rows: list[Row], out: Path) -> None:
    """Write the CSV atomically (see atomic_output)."""
    with atomic_output(out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow([csv_cell(r.submission), csv_cell(r.lesson), csv_cell(r.question),
                             format_points(r.points), format_points(r.max_points), r.status,
                             csv_cell(printable(r.detail)), csv_cell(printable(r.learner))])


def totals(rows: list[Row], keys: dict[str, LessonKeys]) -> list[tuple[str, str, float, float]]:
    """(learner, lesson, points, max_points): one per roster learner and lesson graded, sorted.
    A learner's best submission counts; one with no submission gets 0 of the lesson's points."""
    per: dict = {}
    for row in rows:
        if row.learner and row.lesson:
            got = per.setdefault((row.learner, row.lesson), {}).setdefault(row.submission, [0.0, 0.0])
            got[0] += row.points
            got[1] += row.max_points
    out = {}
    for (learner, lesson), subs in per.items():
        if lesson in keys and learner in keys[lesson].learners:  # a name off the roster is no learner's row
            out[learner, lesson] = max(tuple(v) for v in subs.values())
    for lesson in {row.lesson for row in rows if row.lesson in keys}:
        best = sum(q.points for q in questions_for(lesson))
        for learner in keys[lesson].learners:
            out.setdefault((learner, lesson), (0.0, best))
    return [(learner, lesson, *pts) for (learner, lesson), pts in sorted(out.items())]


def write_totals(rows: list[Row], keys: dict[str, LessonKeys], out: Path) -> None:
    """Write the gradebook CSV atomically, as write_csv does."""
    with atomic_output(out, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(TOTALS_COLUMNS)
        for learner, lesson, got, best in totals(rows, keys):
            writer.writerow([csv_cell(learner), csv_cell(lesson), format_points(got), format_points(best)])


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
        lines.append(f"{label:<{width}}  {group[0].lesson:<20}  "
                     f"{format_points(got) + ' / ' + format_points(best):>9}  {statuses}")
    return "\n".join(lines)


def positive(kind):
    """An argparse type: a finite number above 0 (else a usage error, exit 2)."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not math.isfinite(value) or value <= 0:
            raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text!r}")
        return value
    parse.__name__ = kind.__name__
    return parse


def run(argv=None) -> int:
    """The command line (embedlab-grade, python -m embedlab.grading): `main`, and after Ctrl-C or
    SIGTERM an exit that does not wait for a thread still busy judging (the CSV is written)."""
    code = main(argv)
    if code == INTERRUPTED:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="embedlab-grade", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="submission notebooks and/or folders of them")
    parser.add_argument("--out", default="scores.csv", help="CSV file to write (default: scores.csv)")
    parser.add_argument("--lesson", help="the exercise every submission is for, e.g. 01-toy-table "
                                         "(default: from each file's name, else its metadata)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="submissions graded in parallel (default 1)")
    parser.add_argument("--cell-timeout", type=positive(float), default=30.0, help="seconds per cell (default 30)")
    parser.add_argument("--timeout", type=positive(float), default=300.0,
                        help="seconds per submission, whole run (default 300)")
    parser.add_argument("--memory-mb", type=positive(int), default=2048,
                        help="memory limit per submission in MB: all its processes and files together where "
                             "the grader can make a control group, else each process (default 2048)")
    parser.add_argument("--max-processes", type=positive(int), default=sandbox.MAX_PROCESSES,
                        help="processes and threads one submission may run at once (needs a control group; "
                             f"default {sandbox.MAX_PROCESSES})")
    parser.add_argument("--seed", type=int, help="seed for the function questions' inputs (default: fresh)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="run submissions without bubblewrap (they get the grader's privileges)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print no progress lines")
    parser.add_argument("--keys", action="append", help="class mode: the instructor-keys folder embedlab-assign "
                                                         "wrote; each submission is judged against its own "
                                                         "learner's variant (give it once per run of "
                                                         "embedlab-assign, e.g. lessons assigned week by week)")
    parser.add_argument("--totals", help="class mode: also write one row per learner and lesson "
                                         "(points, max_points) to this CSV (needs --keys)")
    args = parser.parse_args(argv)

    if args.jobs < 1:
        parser.error(f"-j must be at least 1, got {args.jobs}")
    if args.lesson and args.lesson not in known_lessons():
        parser.error(f"no exercise {args.lesson!r}; known: {', '.join(known_lessons())}")
    try:
        limits = Limits(args.cell_timeout, args.timeout, args.memory_mb, args.max_processes)
        submissions = find_submissions(args.paths)
    except (ValueError, FileNotFoundError) as exc:
        parser.error(str(exc))
    if not submissions:
        parser.error("no .ipynb files found in " + ", ".join(display_name(p) for p in args.paths))
    keys = None
    if args.totals and not args.keys:
        parser.error("--totals needs --keys (the learners come from the instructor keys)")
    if args.keys:
        try:
            keys = merge_keys([(folder, load_keys(folder)) for folder in args.keys])
        except KeysError as exc:
            parser.error(str(exc))
    bwrap = None
    if not args.no_sandbox:
        bwrap = sandbox.bwrap_path()
        if bwrap is None:
            parser.error("bubblewrap (bwrap) is not on PATH: install it (Debian/Ubuntu: apt-get install bubblewrap), "
                         "or pass --no-sandbox to run submissions with the grader's own privileges")
        why = sandbox.check_sandbox(bwrap)
        if why:
            parser.error(f"bubblewrap cannot start a sandbox here ({printable(why)}); "
                         "fix that, or pass --no-sandbox to run submissions with the grader's own privileges")
    no_group = sandbox.budget_problem()
    if no_group:
        print(f"{NO_GROUP_NOTE} ({printable(no_group)})", file=sys.stderr)
        if bwrap is None:
            sandbox.adopt_orphans()  # nothing else finds what a submission sets loose
    out = Path(args.out)
    for path in [out] + ([Path(args.totals)] if args.totals else []):
        try:  # can it be written? (tried now, not after an hour of grading; nothing is left behind)
            fd, tmp = open_output(path)
            os.close(fd)
            os.unlink(tmp)
        except ValueError as exc:
            parser.error(str(exc))

    done = []

    def progress(label, rows):
        done.append(label)
        if not args.quiet:
            got, best = sum(r.points for r in rows), sum(r.max_points for r in rows)
            print(f"[{len(done)}/{len(submissions)}] {label}: {format_points(got)} / {format_points(best)}",
                  file=sys.stderr, flush=True)

    def on_term(signum, frame):
        raise KeyboardInterrupt

    in_main = threading.current_thread() is threading.main_thread()
    old_term = signal.signal(signal.SIGTERM, on_term) if in_main else None
    start = time.monotonic()
    try:
        try:
            rows, faults = grade_all(submissions, args.lesson, limits, args.jobs, args.seed, progress, bwrap, keys)
            code = 1 if faults else 0
        except Interrupted as stop:
            rows, faults, code = stop.rows, stop.faults, INTERRUPTED
        write_csv(rows, out)
        if args.totals:
            write_totals(rows, keys, Path(args.totals))
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, old_term)
        sandbox.release_groups()
        sandbox.kill_orphans()
    print(summary(rows))
    graded = len({r.submission for r in rows})
    what = "graded" if code != INTERRUPTED else f"graded before Ctrl-C stopped the run (of {len(submissions)})"
    wrote = display_name(out) + (f" and {display_name(Path(args.totals))}" if args.totals else "")
    print(f"\n{graded} submission(s) {what} in {time.monotonic() - start:.1f} s; wrote {wrote}")
    class_notebooks = len({r.submission for r in rows if r.status == NEEDS_KEYS})
    if class_notebooks:
        print(f"{class_notebooks} class notebook(s) not graded (status {NEEDS_KEYS}): they are judged against "
              "each learner's variant; grade them with --keys DIR/instructor-keys", file=sys.stderr)
    print("sandbox: bubblewrap, one per submission" if bwrap else NO_SANDBOX_NOTE)
    print(NO_GROUP_NOTE if no_group else f"budget: one control group per submission ({limits.memory_mb:,} MB, "
                                         f"{limits.max_processes:,} processes and threads)")
    for fault in faults:
        print(f"grader fault: {fault}", file=sys.stderr)
    return code
