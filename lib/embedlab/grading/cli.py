"""Grade a class's submitted exercise notebooks into one CSV.

    embedlab-grade submissions/ --out scores.csv          # or: python -m embedlab.grading ...
    embedlab-grade alice.ipynb bob.ipynb --lesson 01-toy-table -j 2

Each submission runs in its own bubblewrap sandbox (embedlab.grading.sandbox):
a fresh kernel in its own user, pid, mount and network namespaces, fenced in by
a per-cell timeout, a whole-run limit and a memory limit, with no view of other
submissions, the answer keys or the grader. What comes back over the grader's
own pipe is plain data only; the judging happens here, in the grader's process,
against the answer key and against reference outputs computed here on inputs
that are the question's own (embedlab.grading.cases), never the answer's. So redefining the
check, patching numpy, always-equal objects or swallowed exceptions change
nothing but the data a submission reports about itself. Without bubblewrap the
grader refuses to run unless told `--no-sandbox`.

A grade is a pure function of the submission (and, in class mode, of the keys
and of who handed it in): nothing depends on the other files of the run, their
order, -j or the clock, so a regrade gives the same rows, and `--explain`
shows one file's grade question by question for a regrade request.

The CSV has one row per submission per question:
    submission, lesson, question, points, max_points, status, detail, learner
with status one of embedlab.grading.status.STATUSES; `points` is empty (never
0) for a submission that was not graded (Ctrl-C, a grader fault).

Class mode: with `--keys DIR/instructor-keys` (written by embedlab-assign), each
submission is judged against the key of its own learner's variant: the learner
who handed it in, as its folder (`--layout folders`), the LMS's download names
(`--layout canvas|moodle` with `--roster`) or Gradescope say, and its metadata
must name that learner (else `identity_mismatch`, credited to nobody); its
`parameters` cell must hold that learner's variant (else `wrong_parameters`).
`--totals` writes one row per roster learner and lesson with a status (graded,
missing, not_graded, review), `--gradebook` a file the LMS imports.

The exit status is 0 when every submission got its rows; 2 for a usage error (or no sandbox); 1 if the
grader itself failed on a submission; 130 when stopped by Ctrl-C (the rows
graded so far are written, the others as not_graded).
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
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from dataclasses import dataclass
from pathlib import Path

from embedlab.grading import sandbox, wire
from embedlab.grading.cases import rng_for
from embedlab.grading.code import given_changed
from embedlab.grading.explain import with_source
from embedlab.grading.keys import KeysError, LessonKeys, load_keys
from embedlab.grading.kinds import Function, Question
from embedlab.grading.lessons import known_lessons, load_key, questions_for
from embedlab.grading.lms import GRADEBOOK_FORMATS, LAYOUTS
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
    NOT_GRADED,
    REVIEW,
    STATUSES,
    TIMEOUT,
    UNKNOWN_SUBMITTER,
    UNREADABLE,
    WRONG_LESSON,
    WRONG_PARAMETERS,
    GRADED,
    MISSING_WORK,
    NOT_GRADED_YET,
    TO_REVIEW,
    format_points,
)
from embedlab.grading.text import UNPRINTABLE, display_name, printable  # noqa: F401 - cli's names too
from embedlab.grading.values import encode_value

COLUMNS = ("submission", "lesson", "question", "points", "max_points", "status", "detail", "learner")
TOTALS_COLUMNS = ("learner", "lesson", "points", "max_points", "status", "submissions", "counted", "late")
MAX_NOTEBOOK_BYTES = 100 * 2**20  # a larger file is reported unreadable, never sent
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet reads a cell starting so as a formula
# Where a spreadsheet may start a new cell inside a text: a `;` (Excel and LibreOffice in a `;` locale
# split a `,` file's lines on it, quoted fields or not, once a line's first field has closed its quotes),
# a tab, a line break. Before a formula starter there, and at the text's start, csv_cell puts a `'`.
CELL_BREAKS = ";\t\r\n"
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
    points: float | None  # None: not graded (a stopped run, a grader fault): written empty, never 0
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
    submitter: str | None = None  # who the LMS says handed it in (a learner id), when it says
    submitter_source: str = ""  # which record says so ("Canvas's file name", "Gradescope")
    problem_status: str = ""  # set with `problem` when the file is not read for another reason
    mtime: float = 0.0  # when it was written (--latest, when the LMS gives no order)
    order: int | None = None  # the LMS's own upload order (Canvas's attachment id): --latest prefers it
    late: bool = False  # the LMS marked it late (Canvas's _LATE)
    lesson: str | None = None  # the lesson of the LMS assignment it was handed in to (a moodle_id:NN-slug column)
    candidates: tuple = ()  # (lesson, learner): whose it is, by the lesson its notebook names (Moodle per lesson)


class GraderFault(Exception):
    """Something wrong with the grader or its installation, not with a submission."""


# --------------------------------------------------------------------------
# Names and text from submissions: printed and written safely


def _formula_start(ch: str) -> bool:
    """Whether `ch` starts a formula: = + - @ and every character whose compatibility form (NFKC)
    starts with one (fullwidth ＝ ＋ － ＠, small ﹦ ﹢ ﹣ ﹫, ⩵ and ⩶, which fold to == and ===),
    which a spreadsheet may fold to them."""
    return ch in FORMULA_START or unicodedata.normalize("NFKC", ch)[:1] in FORMULA_START[:4]


def csv_cell(text: str) -> str:
    """A text cell no spreadsheet will run, in a `,` or a `;` locale: a `'` goes before every formula
    starter (= + - @, their fullwidth forms) that begins the text or a piece a spreadsheet may split it
    into (after a `;`, tab or line break), spaces and quotes in between ignored; a text starting with a
    tab or CR gets one too. The writers quote every field (csv_writer), so a `,` never splits one."""
    out, at_start = [], True
    for ch in text:
        if at_start and _formula_start(ch):
            out.append("'")
            at_start = False
        elif ch in CELL_BREAKS:
            at_start = True
        elif not (ch.isspace() or ch == '"'):
            at_start = False
        out.append(ch)
    return "".join(out)


def csv_writer(f):
    """The course's CSV writer: every field quoted (csv.QUOTE_ALL), `,` between them, so that a `,` in
    a text never splits it; each text cell goes through csv_cell, which guards the `;` locales."""
    return csv.writer(f, quoting=csv.QUOTE_ALL)


def lesson_from_name(path: Path) -> str | None:
    """The lesson named in a file name: 'alice-01-toy-table (1).ipynb' -> '01-toy-table'."""
    stem = path.stem.lower()
    for lesson in sorted(known_lessons(), key=len, reverse=True):
        if re.search(rf"(?<![0-9]){re.escape(lesson)}(?![a-z0-9])", stem):
            return lesson
    return None


# --------------------------------------------------------------------------
# Finding and opening submissions


def find_submissions(paths: list[str], every_file: bool = False) -> list[Submission]:
    """Every notebook named, or found (recursively) in a folder named, once per file (``.ipynb``
    in any case).

    A file is graded at its own path: who handed it in is read from that path (a
    learner's folder, an LMS name), so no path may stand for a file somewhere else.
    In a folder, a link (symbolic) is kept, unread, as unreadable: a link in Ada's folder
    to Ben's notebook would otherwise be graded as Ada's, and Ben's own path skipped. A
    hard link is a path of its own, graded as a copy would be (a copy of a classmate's
    notebook in class mode is set aside: its metadata names the classmate). The same
    path named twice (a folder and a file in it) is one submission. A file argument that
    is a link is read only if it leads to a file in its own folder.
    With `every_file` (an LMS download: each file in it is something a learner handed in),
    every other file found is kept too, unread, as `unreadable` ("not a notebook"), so that
    every file of the download ends in a row; hidden files (``.DS_Store``) and the
    ``__MACOSX`` folder an unzip may add are not the download's.
    """
    found: list[Submission] = []
    seen: set = set()

    def add(path: str, folder: str, folders: tuple[str, ...], walked: bool = False):
        label = display_name(path)
        here = os.path.normpath(os.path.abspath(path))
        if here in seen:                      # the same path again (a folder and a file in it)
            return
        seen.add(here)
        real = os.path.realpath(path)
        if not (real == folder or real.startswith(folder.rstrip("/") + "/")):
            found.append(Submission(Path(path), label, None,
                                    "a link to a file outside the submissions folder: not read", folders))
            return
        if walked and os.path.islink(path):
            found.append(Submission(Path(path), label, None, (
                "a link to another file of the submissions folder: not read (each file is graded at its own "
                "path, so that a link cannot hand in somebody else's notebook)"), folders))
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
        found.append(Submission(Path(path), label, real, "", folders, mtime=st.st_mtime))

    for arg in paths:
        path = Path(arg)
        if path.is_dir():
            folder = os.path.realpath(path)
            for top, dirs, files in os.walk(path):  # links to folders are not followed
                dirs[:] = sorted(d for d in dirs if d != ".ipynb_checkpoints"
                                 and not (every_file and (d.startswith(".") or d == "__MACOSX")))
                inside = Path(top).relative_to(path).parts[::-1] + (Path(folder).name,)
                for name in sorted(files):
                    if name.lower().endswith(".ipynb"):
                        add(os.path.join(top, name), folder, inside, walked=True)
                    elif every_file and not name.startswith("."):
                        found.append(Submission(Path(top) / name, display_name(os.path.join(top, name)), None,
                                                f"not a notebook ({_kind_of(name)}): not graded", inside,
                                                problem_status=UNREADABLE))
        elif os.path.lexists(path):
            add(arg, os.path.realpath(os.path.dirname(os.path.abspath(path))), (Path(path).absolute().parent.name,))
        else:
            raise FileNotFoundError(f"no such file or folder: {display_name(arg)}")
    return found


def _kind_of(name: str) -> str:
    suffix = Path(name).suffix
    return f"a {_text(suffix, 20)} file" if suffix else "a file without an extension"


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


@dataclass
class Trace:
    """What --explain prints of one submission: the inputs each function was called on and
    what was judged (filled in by grade_submission when given one)."""
    cases: dict = dataclasses.field(default_factory=dict)  # question -> list of argument tuples
    expected: dict = dataclasses.field(default_factory=dict)  # question -> key value or reference outputs
    submitted: dict = dataclasses.field(default_factory=dict)  # question -> the probe's entry
    parameters: dict | None = None


def grade_submission(sub: Submission, lesson_arg: str | None, limits: Limits, seed: int | None,
                     bwrap: str | None, keys: dict[str, LessonKeys] | None = None,
                     trace: Trace | None = None) -> list[Row]:
    """All rows for one submission. Raises GraderFault only for the grader's own failures.

    A pure function of the file (and, in class mode, the keys and who submitted it): the
    inputs of its function questions are the question's own and `seed`'s
    (embedlab.grading.cases), never the answer's text's or its place in a run. With `keys` (class mode),
    judged against its learner's variant (see `class_variant`)."""
    rows = _grade_submission(sub, lesson_arg, limits, seed, bwrap, keys, trace)
    if sub.submitter:  # the LMS says whose file it is: every row of it is theirs (a found file is never missing)
        rows = [row if row.learner else dataclasses.replace(row, learner=sub.submitter) for row in rows]
    return rows


def _grade_submission(sub: Submission, lesson_arg: str | None, limits: Limits, seed: int | None,
                      bwrap: str | None, keys: dict[str, LessonKeys] | None, trace: Trace | None) -> list[Row]:
    label = sub.label
    expected = lesson_arg or sub.lesson or lesson_from_name(sub.path)
    if sub.problem_status:
        return _rows_all(label, expected, sub.problem_status, sub.problem)
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
        meta = message["notebook"] if isinstance(message["notebook"], dict) else {}
        actual = meta.get("lesson") if isinstance(meta.get("lesson"), str) else None
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
        variant = meta.get("variant")
        named = meta.get("learner") if isinstance(meta.get("learner"), str) else None
        if keys is None and ((isinstance(variant, int) and not isinstance(variant, bool) and variant >= 1)
                             or named):
            what = f"variant {variant}" if isinstance(variant, int) and not isinstance(variant, bool) and variant >= 1 \
                else f"learner {_text(repr(named), 80)}"
            return _rows_all(label, lesson, NEEDS_KEYS, f"a class notebook ({what}): its answers are "
                                                        "judged against its learner's variant: grade with --keys "
                                                        "DIR/instructor-keys (embedlab-assign wrote it)")
        parameters = meta.get("parameters") if isinstance(meta.get("parameters"), dict) else None
        if trace is not None:
            trace.parameters = parameters
        if keys is not None:
            if sub.candidates and not sub.submitter:  # the LMS id names a learner per lesson: the notebook's
                owner = dict(sub.candidates).get(lesson)
                if owner is None:
                    return _rows_all(label, lesson, UNKNOWN_SUBMITTER, (
                        f"{_text(sub.submitter_source, 80)} is in the roster's moodle_id columns of "
                        f"{', '.join(sorted(str(x) for x, _ in sub.candidates))}, not of {lesson} (the notebook's "
                        "lesson): not graded"))
                sub = dataclasses.replace(sub, submitter=owner)
            learner, variant, status, why = class_variant(sub, meta, lesson, keys)
            if variant is None:
                return [dataclasses.replace(row, learner=learner) for row in _rows_all(label, lesson, status, why)]
            why = wrong_parameters(parameters, variant, keys[lesson], lesson)
            if why:
                return [dataclasses.replace(row, learner=learner)
                        for row in _rows_all(label, lesson, WRONG_PARAMETERS, why)]
            questions, key = questions_for(lesson, variant.parameters), variant.key
        cases, reference = {}, {}
        for q in questions:
            if isinstance(q, Function):
                args = q.cases(rng_for(lesson, q.name, seed))  # the question's and the seed's: not the answer's
                cases[q.name] = encode_value(list(args))
                reference[q.name] = q.expected_outputs(args)
                if trace is not None:
                    trace.cases[q.name] = args
        result = run.finish({"lesson": lesson, "cases": cases})
        if result.state == FAULT:
            raise GraderFault(result.detail)
        if trace is not None:
            trace.expected = {q.name: reference.get(q.name, key.get(q.name)) for q in questions}
            trace.submitted = dict(result.answers or {})
        return [Row(label, lesson, q.name, *score(q, key, reference, result, limits, lesson), learner)
                for q in questions]
    finally:
        if fd is not None:
            os.close(fd)
        if run is not None:
            run.close()


def _plain_json(value):
    """Parameters as the keys file holds them (JSON: tuples are lists) for comparison."""
    import json

    try:
        return json.loads(json.dumps(value, sort_keys=True, default=lambda v: sorted(v, key=repr)
                                     if isinstance(v, (set, frozenset)) else str(v)))
    except (TypeError, ValueError):
        return None


def wrong_parameters(parameters: dict | None, variant, lesson_keys: LessonKeys, lesson: str) -> str:
    """Why a class notebook's parameters cell does not hold its learner's variant ("" if it does):
    whose parameters it holds when that is known (the book's, another variant's), never whose
    notebook those belong to."""
    from embedlab.grading.variants import parameters_of

    want = _plain_json(variant.parameters)
    if parameters is not None:
        got = {name: parameters.get(name) for name in want}
        if _plain_json(got) == want:
            return ""
    lead = "its parameters cell does not hold this learner's variant"
    if parameters is None:
        return f"{lead}: it has no cell of `name = value` lines tagged parameters; not graded"
    got = _plain_json({name: parameters.get(name) for name in want})
    if got == _plain_json({n: v for n, v in parameters_of(lesson, 0).items() if n in want}):
        return f"{lead}: it holds the book's parameters (the published exercise's); not graded"
    if any(got == _plain_json(v.parameters) for n, v in lesson_keys.keys.items() if n != variant.number):
        return f"{lead}: it holds another variant's parameters; not graded"
    differ = sorted(name for name in want if _plain_json(parameters.get(name)) != want[name])
    return f"{lead}: {', '.join(differ[:6])} changed; not graded"


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
    # Learner ids compare without case everywhere (rosters, folders, LMS and Gradescope records, metadata):
    # each is read as the keys' own spelling of it.
    by_name = {name.lower(): name for name in lesson_keys.learners}
    on_roster = by_name.get(named.lower()) if named is not None else None
    if sub.submitter is not None:  # an LMS download or Gradescope: the LMS says who handed it in
        owner = by_name.get(sub.submitter.lower())
        if owner is None:
            return "", None, UNKNOWN_SUBMITTER, (f"submitted by {_text(repr(sub.submitter), 80)}, who has no "
                                                 f"variant of {lesson} in these keys: not graded")
        if named is not None and on_roster != owner:
            return owner, None, IDENTITY_MISMATCH, (f"submitted by {owner} ({sub.submitter_source}), but its "
                                                    f"metadata names learner {_text(repr(named), 80)}: not "
                                                    "graded, credited to nobody")
        return owner, lesson_keys.for_learner(owner), "", ""
    folders = sub.folders or (sub.path.parent.name,)
    owner = next((by_name[name.lower()] for name in folders if name.lower() in by_name), None)
    if owner is not None and named is not None and on_roster != owner:
        return owner, None, IDENTITY_MISMATCH, (f"in {owner}'s folder, but its metadata names learner "
                                                f"{_text(repr(named), 80)}: not graded, credited to nobody")
    if named is not None and on_roster is None:
        return _text(named, 80), None, IDENTITY_MISMATCH, (f"learner {_text(repr(named), 80)} is not on the "
                                                           "roster these keys were made for: not graded")
    learner = on_roster if named is not None else owner
    if learner is None:
        return "", None, IDENTITY_MISMATCH, ("no learner in its metadata, and nothing says who handed it in (a "
                                             "learner's folder, an LMS layout, Gradescope's record): not graded")
    return learner, lesson_keys.for_learner(learner), "", ""


def score(q: Question, key: dict, reference: dict, result: RunResult, limits: Limits, lesson: str | None = None):
    """(points, max_points, status, detail) for one question, judged here on plain data. With the
    `lesson`, a wrong answer whose given code the learner edited (the lines the exercise gives,
    read from the submitted cells the sandbox reports) says so instead of guessing a slip."""
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
    changed = given_changed(lesson, q.name, result.report.get("code"), source) if lesson else None
    return 0.0, q.points, INCORRECT, _text(changed or verdict.detail)


def _cell(report: dict, index) -> str:
    """A cell as the learner finds it in JupyterLab (the worker's label: the heading above it, its
    first line, its execution count), from the sandbox's report: text, cut and escaped."""
    labels = report.get("labels")
    label = labels.get(str(index)) if isinstance(labels, dict) else None
    if isinstance(label, str) and label:
        return _text(label, 240)
    return "a code cell"


def _why_missing(q: Question, result: RunResult, limits: Limits):
    """An answer that is not defined: not attempted, unless a cell timed out or raised."""
    report = result.report
    timeouts = [c for c in report.get("timeouts", []) if c is not None]
    errors = [e for e in report.get("errors", []) if isinstance(e, dict) and e.get("cell") is not None]
    cell = report.get("defines", {}).get(q.name)  # the cell that assigns it, if one does
    if cell in timeouts:
        return TIMEOUT, (f"`{q.name}` is not defined; {_cell(report, cell)}, which defines it, ran past the "
                         f"{limits.cell_timeout:g} s cell limit and was interrupted")
    own = [e for e in errors if e["cell"] == cell]
    if own and own[0].get("ename") == "MemoryError":
        return MEMORY, f"`{q.name}` is not defined; {_cell(report, cell)} ran out of memory"
    if own:
        return ERROR, (f"`{q.name}` is not defined; {_cell(report, cell)} raised "
                       f"{_text(own[0].get('ename'))}: {_text(own[0].get('evalue'))}")
    if timeouts:
        return TIMEOUT, (f"`{q.name}` is not defined; {_cell(report, timeouts[0])} ran past the "
                           f"{limits.cell_timeout:g} s cell limit and was interrupted")
    memory = [e for e in errors if e.get("ename") == "MemoryError"]
    if memory:
        return MEMORY, f"`{q.name}` is not defined; {_cell(report, memory[0]['cell'])} ran out of memory"
    if errors:
        first = errors[0]
        return ERROR, (f"`{q.name}` is not defined; {_cell(report, first['cell'])} raised "
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


def _not_graded(sub: Submission, lesson: str | None, keys=None,
                why: str = "not graded: the run was stopped before this submission was graded") -> list[Row]:
    """The rows of a submission the run did not grade: no points, not a zero, and the learner its
    folder or LMS names (so their totals count it as not graded, not missing)."""
    return [dataclasses.replace(row, points=None, learner=_owner_of(sub, keys))
            for row in _rows_all(sub.label, lesson or lesson_from_name(sub.path), NOT_GRADED, why)]


def _owner_of(sub: Submission, keys) -> str:
    """Whose slot a file is in, without reading it: the LMS's submitter, else the nearest folder
    named as a learner of the keys (case ignored); "" when nothing says."""
    if sub.submitter:
        return sub.submitter
    learners = {name.lower(): name for lesson_keys in (keys or {}).values() for name in lesson_keys.learners}
    return next((learners[f.lower()] for f in sub.folders if f.lower() in learners), "")


class Interrupted(Exception):
    """Ctrl-C (or SIGTERM) stopped the grading; `rows` holds the submissions graded before it,
    and `not_graded` rows (no points) for the others."""

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
    faults: list[str] = []
    results: dict[int, list[Row]] = {}
    lock = threading.Lock()
    stopping = threading.Event()

    def one(i):
        if stopping.is_set():
            return
        sub = submissions[i]
        try:
            rows = grade_submission(sub, lesson, limits, seed, bwrap, keys)
            fault = None
        except Exception as exc:  # noqa: BLE001 - report it, grade the others
            why = str(exc) if isinstance(exc, GraderFault) else f"{type(exc).__name__}: {exc}"
            fault = f"{sub.label}: {_text(why)}"
            rows = _not_graded(sub, lesson, keys, f"not graded: grader fault: {_text(why)}")
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
        rows = [row for i in range(len(submissions))
                for row in (results[i] if i in results else _not_graded(submissions[i], lesson, keys))]
        raise Interrupted(rows, faults) from None
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
        writer = csv_writer(f)
        writer.writerow(COLUMNS)
        for r in rows:
            writer.writerow([csv_cell(r.submission), csv_cell(r.lesson), csv_cell(r.question),
                             _points(r.points), format_points(r.max_points), r.status,
                             csv_cell(printable(r.detail)), csv_cell(printable(r.learner))])


def _points(points) -> str:
    return "" if points is None else format_points(points)


@dataclass
class Total:
    """One learner's line for one lesson in the totals and the gradebook."""
    learner: str
    lesson: str
    points: float | None  # empty unless `graded` or `review`
    max_points: float
    status: str  # graded, missing, not_graded, review (embedlab.grading.status.TOTAL_STATUSES)
    submissions: int  # how many of their files were found for this lesson
    counted: str = ""  # the file whose points count (graded), or the one set aside (review)
    late: bool = False  # the LMS marked that file late


def totals(rows: list[Row], keys: dict[str, LessonKeys], complete: bool = True, rule: str = "best",
           mtimes: dict | None = None, lessons=(), late=frozenset()) -> list[Total]:
    """One Total per roster learner and lesson graded (or named in `lessons`), sorted.

    Of a learner's submissions for a lesson, the graded ones count: the best (`rule` "best",
    the default) or the newest file (`rule` "latest": the LMS's own upload order where its names
    give one, Canvas's attachment id, else the file's modification time); a learner
    with none graded is `review` when one was set aside for the instructor (another learner's
    notebook in their slot, wrong parameters...), `not_graded` when the run stopped or failed
    before grading theirs (or, after an incomplete run, when none of theirs was seen), and
    `missing` when a complete run found nothing of theirs."""
    mtimes = mtimes or {}  # submission -> how recent (a number, or a tuple: the LMS's order, then the time)
    oldest = min(mtimes.values()) if mtimes else 0.0
    per: dict = {}  # (learner, lesson) -> {submission: [points, statuses, order]}
    for order, row in enumerate(rows):
        if row.learner and row.lesson:
            got = per.setdefault((row.learner, row.lesson), {}).setdefault(row.submission, [0.0, set(), order])
            got[0] += row.points or 0.0
            got[1].add(row.status)
    out = {}
    for lesson in sorted({row.lesson for row in rows if row.lesson in keys} | {x for x in lessons if x in keys}):
        best = float(sum(q.points for q in questions_for(lesson)))
        for learner in keys[lesson].learners:
            subs = per.get((learner, lesson), {})
            graded = {k: v for k, v in subs.items() if not v[1] & ({NOT_GRADED} | set(REVIEW))}
            review = {k: v for k, v in subs.items() if v[1] & set(REVIEW)}
            stopped = {k: v for k, v in subs.items() if NOT_GRADED in v[1]}
            if graded:
                if rule == "latest":
                    pick = max(graded, key=lambda k: (mtimes.get(k, oldest), graded[k][2]))
                else:
                    pick = max(graded, key=lambda k: (graded[k][0], mtimes.get(k, oldest), graded[k][2]))
                total = Total(learner, lesson, graded[pick][0], best, GRADED, len(subs), pick, pick in late)
            elif review:
                pick = max(review, key=lambda k: review[k][2])
                total = Total(learner, lesson, 0.0, best, TO_REVIEW, len(subs), pick, pick in late)
            elif stopped or not complete:
                total = Total(learner, lesson, None, best, NOT_GRADED_YET, len(subs))
            else:
                total = Total(learner, lesson, None, best, MISSING_WORK, 0)
            out[learner, lesson] = total
    return [out[k] for k in sorted(out)]


def write_totals(rows: list[Row], keys: dict[str, LessonKeys], out: Path, **how) -> None:
    """Write the totals CSV atomically, as write_csv does (`how`: see `totals`)."""
    with atomic_output(out, "w", newline="", encoding="utf-8", flag="--totals") as f:
        writer = csv_writer(f)
        writer.writerow(TOTALS_COLUMNS)
        for t in totals(rows, keys, **how):
            writer.writerow([csv_cell(t.learner), csv_cell(t.lesson), _points(t.points), format_points(t.max_points),
                             t.status, t.submissions, csv_cell(t.counted), "late" if t.late else ""])


def several(rows: list[Row]) -> list[tuple[str, str, int]]:
    """(learner, lesson, how many) for every learner with more than one submission of a lesson."""
    seen: dict = {}
    for row in rows:
        if row.learner and row.lesson:
            seen.setdefault((row.learner, row.lesson), set()).add(row.submission)
    return [(learner, lesson, len(subs)) for (learner, lesson), subs in sorted(seen.items()) if len(subs) > 1]


def question_statistics(rows: list[Row]) -> list[tuple[str, str, int, int, str, int]]:
    """(lesson, question, correct, judged, most frequent hint, its count) per question: what a
    class missed. Only submissions whose answers were judged count (not review, not not_graded)."""
    per: dict = {}
    for row in rows:
        if not row.question or row.status in REVIEW or row.status in (NOT_GRADED, UNREADABLE, WRONG_LESSON):
            continue
        got = per.setdefault((row.lesson, row.question), [0, 0, {}])
        got[1] += 1
        if row.status == CORRECT:
            got[0] += 1
        elif row.detail:
            hint = re.sub(r"^on input \d+ of \d+, ", "", row.detail)
            got[2][hint] = got[2].get(hint, 0) + 1
    out = []
    for (lesson, question), (right, judged, hints) in per.items():
        common = max(hints.items(), key=lambda kv: (kv[1], -len(kv[0])), default=("", 0))
        out.append((lesson, question, right, judged, common[0], common[1]))
    return out


def summary(rows: list[Row]) -> str:
    """One line per submission: its points, then its questions by status, each labelled (a
    question may be worth 2 points: "7 / 7" points can be "6 of 6 questions correct")."""
    per: dict[str, list[Row]] = {}
    for row in rows:
        per.setdefault(row.submission, []).append(row)
    width = max([len("submission")] + [len(s) for s in per])
    lines = [f"{'submission':<{width}}  {'lesson':<20}  {'points':>9}  questions"]
    for label, group in per.items():
        got, best = sum(r.points or 0.0 for r in group), sum(r.max_points for r in group)
        shown = "-" if all(r.points is None for r in group) else format_points(got)
        counts = {}
        for r in group:
            counts[r.status] = counts.get(r.status, 0) + 1
        questions = f"{counts.get(CORRECT, 0)} of {len(group)} correct" + "".join(
            f", {counts[s]} {s}" for s in STATUSES if s in counts and s != CORRECT)
        lines.append(f"{label:<{width}}  {group[0].lesson:<20}  "
                     f"{shown + ' / ' + format_points(best):>9}  {questions}")
    return "\n".join(lines)


def statistics_text(rows: list[Row]) -> str:
    """The per-question statistics of a class run, as printed after the summary."""
    stats = question_statistics(rows)
    if not stats:
        return ""
    lines = ["per question (judged submissions): share correct, and the most frequent hint"]
    for lesson, question, right, judged, hint, count in stats:
        share = f"{right}/{judged} ({100 * right / judged:.0f} %)" if judged else "0/0"
        lines.append(f"  {lesson} {question}: {share}" + (f"; {count}× \"{hint[:160]}\"" if hint else ""))
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


OUTPUT_FLAGS = ("--out", "--totals", "--gradebook")


def check_outputs(outputs: dict[str, Path], submissions: list[Submission]) -> str:
    """Why these output paths must not be written ("" if they may): two flags naming one file,
    a file that is a submission found (by any path or link), or a name ending in .ipynb (a
    notebook is never overwritten by a CSV)."""
    found = {os.path.realpath(s.path) for s in submissions} | {s.real for s in submissions if s.real}
    inodes = set()
    for sub in submissions:
        with contextlib.suppress(OSError):
            st = os.stat(sub.real or sub.path)
            inodes.add((st.st_dev, st.st_ino))
    for flag, path in outputs.items():
        try:
            st = os.stat(path)
            same = (st.st_dev, st.st_ino) in inodes
        except OSError:
            same = False
        if same or os.path.realpath(path) in found:
            return f"{flag} {display_name(path)} is one of the submissions found: it would be overwritten"
    seen: dict = {}
    for flag, path in outputs.items():
        if path.name.lower().endswith(".ipynb"):
            return f"{flag} {display_name(path)} ends in .ipynb: a grades file must not look like a notebook"
        key = os.path.realpath(path)
        if key in seen:
            return f"{seen[key]} and {flag} name the same file ({display_name(path)}): give each its own"
        seen[key] = flag
    return ""


def identify(submissions: list[Submission], layout: str, roster, lesson: str | None = None) -> list[Submission]:
    """The submissions of an LMS download with who handed each in: the id in its file (or
    folder) name, as the LMS names its downloads (embedlab.grading.lms), looked up in the
    roster. With Moodle ids per lesson (moodle_id:NN-slug columns), the id is looked up in the
    column of the lesson `--lesson` or the file name gives, else in every Moodle column: one
    learner found there is the submitter (and a column of one lesson says which assignment
    the file was handed in to); ids of several learners are told apart by the lesson the
    notebook's metadata names, when it is read. A file whose name does not follow the layout,
    can be read as more than one upload (lms.readings: each reading is named, with its roster
    learner), or whose id is on no roster row, is `unknown_submitter` (not read, credited to
    no one: set aside for the instructor)."""
    from embedlab.grading.lms import readings

    lms_name = {"canvas": "Canvas", "moodle": "Moodle"}.get(layout, layout)
    out = []
    for sub in submissions:
        inside = "/".join(list(sub.folders[:-1])[::-1] + [sub.path.name]) if sub.folders else sub.path.name
        found = readings(inside, layout)
        if len(found) > 1:
            out.append(dataclasses.replace(sub, problem_status=UNKNOWN_SUBMITTER, problem=(
                f"its name reads {len(found)} ways under {lms_name}'s download naming ("
                + "; ".join(f"{lms_name} id {_text(r.lms_id, 40)}" + _whose(roster, layout, r.lms_id, lesson, sub)
                            for r in found[:5])
                + "), so whose upload it is cannot be told from it: not graded, credited to no one; set aside "
                "for review")))
            continue
        download = found[0] if found else None
        lms_id = download.lms_id if download is not None else None
        if lms_id is None:
            if sub.problem_status:
                out.append(sub)  # already said (not a notebook...): who sent it is not known either
                continue
            out.append(dataclasses.replace(sub, problem_status=UNKNOWN_SUBMITTER, problem=(
                f"its name does not follow {lms_name}'s download naming, so who submitted it is unknown: not graded")))
            continue
        named = lesson or lesson_from_name(sub.path)
        learner, problem = None, ""
        try:
            learner = roster.by_lms_id(layout, lms_id, named)
        except ValueError as exc:  # a roster of Moodle ids per lesson, and a file of no lesson it has
            problem = f"{_text(exc)}: not graded"
        found = dict(submitter_source=f"{lms_name} id {lms_id}", order=download.order, late=download.late)
        if learner is None and layout == "moodle":
            matches = roster.moodle_matches(lms_id)  # [(lesson or None, learner)] over every Moodle column
            owners = {who for _, who in matches}
            if len(owners) == 1:
                learner = owners.pop()
                lessons = {x for x, _ in matches if x is not None}
                found["lesson"] = lessons.pop() if len(lessons) == 1 and lesson is None else None
            elif owners:
                out.append(dataclasses.replace(sub, **found, candidates=tuple(sorted(
                    (x, who) for x, who in matches if x is not None))))
                continue
        if learner is None:
            if sub.problem_status:  # already said (not a notebook): who sent it is not known either
                out.append(sub)
                continue
            out.append(dataclasses.replace(sub, problem_status=UNKNOWN_SUBMITTER, problem=problem or (
                f"{lms_name} id {_text(lms_id, 40)} (in its name) is on no row of the roster "
                f"({', '.join(c for c in roster.columns if c.startswith(LAYOUT_ID[layout])) or layout + '_id'}): "
                "not graded")))
            continue
        out.append(dataclasses.replace(sub, **found, submitter=learner))
    return out


def _whose(roster, layout: str, lms_id: str, lesson: str | None, sub: Submission) -> str:
    """", learner X's" for an LMS id on the roster, ", on no roster row" otherwise (a reading's owner)."""
    try:
        learner = roster.by_lms_id(layout, lms_id, lesson or lesson_from_name(sub.path))
    except ValueError:
        learner = None
    return f", learner {learner}'s" if learner else ", on no roster row"


LAYOUT_ID = {"folders": "learner", "canvas": "canvas_id", "moodle": "moodle_id"}


def write_class_gradebook(path: Path, rows: list[Row], keys, roster, fmt: str, how: dict) -> None:
    """The LMS gradebook (embedlab.grading.lms.write_gradebook) from the totals: points where a
    learner's lesson was graded, empty where it was not (missing, not graded, or set aside for
    review: an instructor's decision, not a zero to import)."""
    from embedlab.grading.lms import Roster, _key, write_gradebook

    found = totals(rows, keys, **how)
    lessons = sorted({t.lesson for t in found})
    if not lessons:
        return
    points = {(t.learner, t.lesson): (t.points if t.status == GRADED else None) for t in found}
    max_points = {t.lesson: t.max_points for t in found}
    if roster is None:  # the plain form, without --roster: the keys' learners
        learners = tuple(sorted({t.learner for t in found}))
        roster = Roster("(the instructor keys)", learners, ("learner",), {n: {"learner": n} for n in learners},
                        {("learner", _key("learner", n)): n for n in learners})
    points = {k: v for k, v in points.items() if k[0] in roster.learners}
    write_gradebook(path, roster, points, lessons, max_points, fmt)


def explain(sub: Submission, lesson: str | None, limits: Limits, seed: int | None, bwrap, keys) -> int:
    """--explain: one submission's grade, question by question, for the instructor."""
    trace = Trace()
    try:
        rows = grade_submission(sub, lesson, limits, seed, bwrap, keys, trace)
        settled()
    except GraderFault as exc:
        print(f"grader fault: {printable(str(exc))}", file=sys.stderr)
        return 1
    first = rows[0] if rows else None
    print("For the instructor: this shows the expected answers of this learner's variant, which other "
          "learners on the same variant share; quote what the learner needs, not the whole of it.\n")
    print(f"submission: {sub.label}")
    if first is not None:
        print(f"lesson: {first.lesson or '?'}" + (f"; learner: {first.learner}" if first.learner else ""))
    if trace.parameters is not None:
        print("parameters cell: " + printable(_short(trace.parameters, 400)))
    print("function inputs: " + (f"each question's fixed ones and random ones drawn with --seed {seed}" if seed is not None
                                 else "each question's own (the inputs the notebook's check used)"))
    for row in rows:
        try:
            _explain_row(row, trace)
        except Exception as exc:  # noqa: BLE001 - what a submission sent, however odd, never stops --explain
            print(f"  (what it sent for {row.question} cannot be shown: {type(exc).__name__})")
    got = sum(r.points or 0.0 for r in rows)
    print(f"\ntotal: {format_points(got)} / {format_points(sum(r.max_points for r in rows))}")
    return 0


def _explain_row(row, trace) -> None:
    """--explain's lines for one question: the status, what was expected and what was sent."""
    print(f"\n{row.question or '(submission)'}: {row.status}, {_points(row.points) or '-'} / "
          f"{format_points(row.max_points)}")
    if row.question in trace.expected and row.question not in trace.cases:
        print(f"  expected:  {printable(_short(trace.expected[row.question]))}")
    entry = trace.submitted.get(row.question)
    if row.question in trace.cases:
        outputs = entry.get(wire.DATA) if isinstance(entry, dict) else None
        for i, (args, want) in enumerate(zip(trace.cases[row.question], trace.expected[row.question]), 1):
            got = outputs[i - 1] if isinstance(outputs, list) and i <= len(outputs) else None
            call = want.get("call") if isinstance(want, dict) and isinstance(want.get("call"), str) else None
            print(f"  case {i}: {printable(call[:300] if call else _short(args, 300))}")
            print(f"    expected:  {printable(_short(want.get('out') if isinstance(want, dict) else want))}")
            print(f"    submitted: {printable(_short(got))}")
    elif isinstance(entry, dict):
        shown = entry.get(wire.DATA, next(iter(entry.values()), None))
        print(f"  submitted: {printable(_short(shown))}")
    if row.detail:
        print(f"  hint/detail: {row.detail}")


READABLE_DEPTH = 20  # nesting shown by --explain; deeper data (a submission's, never a key's) is cut


def _readable(value, depth: int = 0):
    """An answer as the probe sends it ({"real": x}, an encoded array...) as a reader writes it.
    Data a submission sent is never recursed into without a bound: past READABLE_DEPTH levels
    it is shown as "…"."""
    if depth >= READABLE_DEPTH:
        return "…"
    import numpy as np

    from embedlab.grading.values import data_to_array

    if isinstance(value, dict) and {"shape", "hex"} <= set(value):
        try:
            arr = data_to_array(value)
            return np.array2string(arr.astype(int) if value.get("kind") == "int" else arr, separator=", ",
                                   threshold=40, edgeitems=3, max_line_width=10_000).replace("\n", "")
        except Exception:  # noqa: BLE001 - malformed data from the submission: shown as it came
            return value
    if isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("real", "int", "str", "bool", "choice"):
        return next(iter(value.values()))
    if isinstance(value, list):
        return [_readable(v, depth + 1) for v in value[:1000]]
    return value


def _short(value, limit: int = 300) -> str:
    import json

    value = _readable(value)
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, default=str)
        except (TypeError, ValueError, RecursionError):
            text = "(not shown: not plain data)"
    return text if len(text) <= limit else text[:limit - 1] + "…"


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
    parser.add_argument("--seed", type=int,
                        help="draw the random inputs of function questions with this number (default: none; "
                             "the inputs are each question's own, the same for every answer, so a regrade gives "
                             "the same grade and the notebook's own check tested the same inputs; the fixed "
                             "inputs that catch the usual bugs are used with any seed)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="run submissions without bubblewrap (they get the grader's privileges)")
    parser.add_argument("-q", "--quiet", action="store_true", help="print no progress lines")
    parser.add_argument("--keys", action="append", help="class mode: the instructor-keys folder embedlab-assign "
                                                         "wrote; each submission is judged against its own "
                                                         "learner's variant (give it once per run of "
                                                         "embedlab-assign, e.g. lessons assigned week by week)")
    parser.add_argument("--totals", help="class mode: also write one row per roster learner and lesson "
                                         "(points, max_points, status: graded, missing, not_graded or review; "
                                         "submissions) to this CSV (needs --keys)")
    parser.add_argument("--layout", choices=LAYOUTS, default="folders",
                        help="how the submissions folder names who handed each file in: folders (default: a "
                             "folder per learner, or the notebook's own metadata in a flat folder), canvas "
                             "(Canvas's Download Submissions) or moodle (Moodle's Download all submissions); "
                             "canvas and moodle need --roster with a canvas_id or moodle_id column")
    parser.add_argument("--roster", help="the roster CSV (a learner column; canvas_id, moodle_id, email, sid "
                                         "columns as the layout and gradebook need; ',' or ';' separated)")
    rule = parser.add_mutually_exclusive_group()
    rule.add_argument("--best", dest="rule", action="store_const", const="best",
                      help="a learner with several submissions of a lesson: the best counts (the default)")
    rule.add_argument("--latest", dest="rule", action="store_const", const="latest",
                      help="a learner with several submissions of a lesson: the newest file counts")
    parser.add_argument("--gradebook", help="class mode: write a gradebook to import into the LMS: one row per "
                                            "roster learner, a column per lesson and a total (needs --keys)")
    parser.add_argument("--gradebook-format", choices=GRADEBOOK_FORMATS,
                        help="the gradebook's form (default: canvas or moodle as --layout, else plain)")
    parser.add_argument("--explain", action="store_true",
                        help="for a regrade request: print each question's verdict with the expected and "
                             "submitted values, the inputs of each function case and the hint (one file)")
    parser.set_defaults(rule="best")
    args = parser.parse_args(argv)

    if args.jobs < 1:
        parser.error(f"-j must be at least 1, got {args.jobs}")
    if args.lesson and args.lesson not in known_lessons():
        parser.error(f"no exercise {args.lesson!r}; known: {', '.join(known_lessons())}")
    try:
        limits = Limits(args.cell_timeout, args.timeout, args.memory_mb, args.max_processes)
        submissions = find_submissions(args.paths, every_file=args.layout != "folders")
    except (ValueError, FileNotFoundError) as exc:
        parser.error(str(exc))
    if not submissions:
        parser.error("no .ipynb files found in " + ", ".join(display_name(p) for p in args.paths))
    keys = None
    for flag in ("totals", "gradebook"):
        if getattr(args, flag) and not args.keys:
            parser.error(f"--{flag} needs --keys (the learners come from the instructor keys)")
    if args.layout != "folders" and not (args.keys and args.roster):
        parser.error(f"--layout {args.layout} needs --keys and --roster (the roster maps the LMS's ids to learners)")
    if args.explain and len(submissions) != 1:
        parser.error(f"--explain explains one submission's grade: give one file (found {len(submissions)})")
    if args.keys:
        try:
            keys = merge_keys([(folder, load_keys(folder)) for folder in args.keys])
        except KeysError as exc:
            parser.error(str(exc))
    roster = None
    if args.roster:
        from embedlab.grading.lms import read_roster
        try:
            roster = read_roster(args.roster, args.layout if args.layout != "folders" else None)
            if args.layout != "folders":
                submissions = identify(submissions, args.layout, roster, args.lesson)
        except ValueError as exc:
            parser.error(str(exc))
    fmt = args.gradebook_format or (args.layout if args.layout in GRADEBOOK_FORMATS else "plain")
    if args.gradebook and fmt != "plain" and roster is None:
        parser.error(f"--gradebook in the {fmt} form needs --roster (the LMS's ids of each learner)")
    bwrap = None
    if not args.no_sandbox:
        bwrap = sandbox.bwrap_path()
        if bwrap is None:
            parser.error("bubblewrap (bwrap) is not on PATH: install it (Debian/Ubuntu: apt-get install bubblewrap), "
                         "or pass --no-sandbox to run submissions with the grader's own privileges")
        why = sandbox.check_sandbox(bwrap)
        if why:
            parser.error(f"{printable(why)}; "
                         "fix that, or pass --no-sandbox to run submissions with the grader's own privileges")
    no_group = sandbox.budget_problem()
    if no_group:
        print(f"{NO_GROUP_NOTE} ({printable(no_group)})", file=sys.stderr)
    outputs = {"--out": Path(args.out)}
    if args.totals:
        outputs["--totals"] = Path(args.totals)
    if args.gradebook:
        outputs["--gradebook"] = Path(args.gradebook)
    why = check_outputs(outputs, submissions)
    if why:
        parser.error(why)
    for flag, path in outputs.items():
        try:  # can it be written? (tried now, not after an hour of grading; nothing is left behind)
            fd, tmp = open_output(path, flag)
            os.close(fd)
            os.unlink(tmp)
        except ValueError as exc:
            parser.error(str(exc))

    if args.gradebook:  # can the LMS import find each learner in it? (tried now, on no points)
        from embedlab.grading.lms import write_gradebook
        try:
            fd, tmp = open_output(outputs["--gradebook"], "--gradebook")
            os.close(fd)
            try:
                if roster is not None:
                    write_gradebook(Path(tmp), roster, {}, ["lesson"], {"lesson": 1.0}, fmt)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        except ValueError as exc:
            parser.error(f"--gradebook: {exc}")

    # Whatever a submission starts is re-parented here, and every result is written only once none of it
    # is left (sandbox.settle), on every path: with or without the sandbox and control groups.
    sandbox.adopt_orphans()
    try:
        return _grade(args, submissions, limits, bwrap, keys, roster, fmt, outputs, no_group)
    finally:
        sandbox.release_groups()
        sandbox.disown_orphans()


def settled() -> None:
    """Return once nothing a submission started is alive (sandbox.settle), else raise GraderFault:
    no result is written while something of a submission could still change it."""
    why = sandbox.settle()
    if why:
        raise GraderFault(f"{why}: no results written, as something the submissions started could change them")


def _grade(args, submissions, limits, bwrap, keys, roster, fmt, outputs, no_group) -> int:
    if args.explain:
        return explain(submissions[0], args.lesson, limits, args.seed, bwrap, keys)

    done = []

    def progress(label, rows):
        done.append(label)
        if not args.quiet:
            got, best = sum(r.points or 0.0 for r in rows), sum(r.max_points for r in rows)
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
        try:
            settled()
        except GraderFault as exc:
            print(f"grader fault: {exc}", file=sys.stderr)
            return 1
        write_csv(rows, outputs["--out"])
        how = {"complete": code != INTERRUPTED, "rule": args.rule, "lessons": [args.lesson] if args.lesson else [],
               "mtimes": {s.label: (-1 if s.order is None else s.order, s.mtime) for s in submissions},
               "late": frozenset(s.label for s in submissions if s.late)}
        if args.totals:
            write_totals(rows, keys, outputs["--totals"], **how)
        if args.gradebook:
            write_class_gradebook(outputs["--gradebook"], rows, keys, roster, fmt, how)
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, old_term)
    print(summary(rows))
    if keys is not None and len({r.submission for r in rows}) > 1:
        stats = statistics_text(rows)
        if stats:
            print("\n" + stats)
    graded = len({r.submission for r in rows if r.status != NOT_GRADED})
    what = "graded" if code != INTERRUPTED else f"graded before Ctrl-C stopped the run (of {len(submissions)})"
    wrote = ", ".join(display_name(p) for p in outputs.values())
    print(f"\n{graded} submission(s) {what} in {time.monotonic() - start:.1f} s; wrote {wrote}")
    if code == INTERRUPTED:
        print(f"{len({r.submission for r in rows if r.status == NOT_GRADED})} submission(s) not graded: their rows "
              f"say {NOT_GRADED} with no points" + (" and their learners' totals say not_graded" if args.totals
                                                     else ""))
    print("function inputs: " + (f"each question's fixed ones and random ones drawn with --seed {args.seed}"
                                 if args.seed is not None else "each question's own (as the notebook's check draws them)"))
    if keys is not None:
        print(f"a learner with several submissions of a lesson: the {args.rule} counts "
              f"({'--best, the default' if args.rule == 'best' else '--latest: the newest file'})")
        for learner, lesson, count in several(rows):
            print(f"  {learner}: {count} submissions of {lesson}")
        unknown = sorted({(r.submission, r.detail) for r in rows if r.status == UNKNOWN_SUBMITTER})
        if unknown:
            print(f"{len(unknown)} file(s) whose submitter the roster does not give, or whose name reads more "
                  f"than one way (status {UNKNOWN_SUBMITTER}): not graded:"
                  + "".join(f"\n  {label}: {detail}" for label, detail in unknown[:20])
                  + (f"\n  … and {len(unknown) - 20} more" if len(unknown) > 20 else ""), file=sys.stderr)
        review = sorted({(r.learner, r.status, r.submission) for r in rows
                         if r.status in (IDENTITY_MISMATCH, WRONG_PARAMETERS)})
        if review:
            print(f"{len(review)} submission(s) to review (status {IDENTITY_MISMATCH} or {WRONG_PARAMETERS}): "
                  "0 points, credited to nobody:" + "".join(f"\n  {learner or '(no learner)'}: {status}, {label}"
                                                            for learner, status, label in review[:20])
                  + (f"\n  … and {len(review) - 20} more" if len(review) > 20 else ""), file=sys.stderr)
        late = sorted({s.label for s in submissions if s.late})
        if late:
            print(f"{len(late)} file(s) the LMS marked late (the totals' late column):"
                  + "".join(f"\n  {label}" for label in late[:20]), file=sys.stderr)
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
