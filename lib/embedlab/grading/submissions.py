"""Finding the submissions of a run and opening them, and who handed each in (an LMS download).

Nothing here reads a notebook's cells: a submission is a path, a printable label, the
file to read (or why it must not be read), and what its place says of its learner.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from embedlab.grading.lessons import known_lessons
from embedlab.grading.lms import readings
from embedlab.grading.status import UNKNOWN_SUBMITTER, UNREADABLE
from embedlab.grading.text import cut, display_name

MAX_NOTEBOOK_BYTES = 100 * 2**20  # a larger file is reported unreadable, never sent
OUTPUT_FLAGS = ("--out", "--totals", "--gradebook")
LAYOUT_ID = {"folders": "learner", "canvas": "canvas_id", "moodle": "moodle_id"}
UNREAD_FOLDER = "a folder that could not be read"  # how such a folder's row begins (the summary names them)



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
    A folder the walk cannot list (nested past PATH_MAX, no permission) is kept too, unread, as
    `unreadable`: every file of a download ends in a row, or its folder's does, never in silence.
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

            def unread(exc: OSError, base: Path = path, folder: str = folder):
                # a folder the walk could not list (too deep for PATH_MAX, no permission, gone): its
                # files cannot be named, so the folder itself gets an `unreadable` row, never silence
                where = exc.filename if isinstance(exc.filename, str) else str(base)
                try:
                    inside = Path(where).relative_to(base).parts[::-1] + (Path(folder).name,)
                except ValueError:
                    inside = (Path(folder).name,)
                found.append(Submission(Path(where), display_name(where), None, (
                    f"{UNREAD_FOLDER} ({type(exc).__name__}"
                    + (f", {os.strerror(exc.errno)}" if exc.errno else "")
                    + "): whatever it holds is not graded; unpack it to a shorter path, or check its permissions"),
                    inside, problem_status=UNREADABLE))

            for top, dirs, files in os.walk(path, onerror=unread):  # links to folders are not followed
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
    return f"a {cut(suffix, 20)} file" if suffix else "a file without an extension"


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
    lms_name = {"canvas": "Canvas", "moodle": "Moodle"}.get(layout, layout)
    out = []
    for sub in submissions:
        # the folder named on the command line (the download's own) is not part of the LMS's naming, except
        # for Moodle, which names a learner's folder: one file, or one learner's folder, given alone (for
        # --explain) is then read as in the whole download (the outermost part that follows the naming counts)
        shown = sub.folders if layout == "moodle" else sub.folders[:-1]
        inside = "/".join(list(shown)[::-1] + [sub.path.name]) if sub.folders else sub.path.name
        found = readings(inside, layout)
        if not found and layout == "moodle" and len(sub.folders) == 1:
            # a file given alone, deeper in a learner's folder (a folder of their submission): its folders
            found = readings(sub.path.absolute().as_posix().lstrip("/"), layout)
        if len(found) > 1:
            out.append(dataclasses.replace(sub, problem_status=UNKNOWN_SUBMITTER, problem=(
                f"its name reads {len(found)} ways under {lms_name}'s download naming ("
                + "; ".join(f"{lms_name} id {cut(r.lms_id, 40)}" + _whose(roster, layout, r.lms_id, lesson, sub)
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
            problem = f"{cut(exc)}: not graded"
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
                f"{lms_name} id {cut(lms_id, 40)} (in its name) is on no row of the roster "
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
