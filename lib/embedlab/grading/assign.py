"""Assign exercises to a class: one variant per learner, keys for the instructor only.

    embedlab-assign 01-toy-table --roster roster.csv --secret-file secret.txt --out class/
    embedlab-assign all --roster roster.csv --secret-file secret.txt --out class/ --variants 8 \\
        --gradescope autograder.zip

For each lesson (``all``: every lesson whose question module declares a variant
space; the others are named and skipped):

1. each learner of the roster (a CSV with a ``learner`` column; other columns
   ignored) gets a variant, 1 + HMAC-SHA256(secret, lesson, learner) mod K
   (embedlab.grading.variants);
2. the solution runs once per variant, with that variant's parameters in its
   ``parameters`` cell, in the grader's sandbox (embedlab.grading.sandbox), and
   the grader's probe (embedlab.grading.wire) reads its answers: K runs per
   lesson, whatever the size of the class;
3. ``DIR/<learner>/NN-slug.ipynb`` is the exercise with that learner's
   parameters, notebook metadata {"embedlab": {"lesson", "learner", "variant"}},
   no outputs, and checks of form only (``Exercise(lesson, mode="class")``);
4. ``DIR/instructor-keys/NN-slug.json`` holds every variant's parameters and
   expected values and each learner's variant (embedlab.grading.keys), for
   ``embedlab-grade --keys DIR/instructor-keys``.

With ``--gradescope BUNDLE.zip`` it also writes a Gradescope autograder
(embedlab.grading.autograder). To hand out and release per learner through an
LMS (embedlab.grading.release; book/grading.md says how to upload each):

    --moodle-handouts ZIP     each learner's handout, in Moodle's "Upload multiple feedback files in a zip" form
    --public-bundle FILE.json one public file from which each learner makes their own handout:
                              embedlab-handout FILE.json --learner ID (`handout_main`; Canvas's way)
    --public-solutions FILE.json  the same, carrying the book's solution too: embedlab-handout
                              FILE.json --learner ID --solution makes the learner's solved notebook
    --solutions DIR           DIR/<learner>/NN-slug-solution.ipynb: the solution with their variant's parameters
                              (`variant_solution`: the very code the harvest ran for their keys)
    --moodle-solutions ZIP    the same solved notebooks in Moodle's feedback-zip form
    --keys DIR                (with the above, in a later run) this run's keys must be those in DIR

A bad roster or secret, an --out that is not empty, an output that exists
(without --force), or a failed harvest: a message, exit 2, and nothing written
(the class is built in a temporary folder and moved to --out at the end).
"""

from __future__ import annotations

import argparse
import copy
import csv
import os
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat

from embedlab.grading import kept, sandbox
from embedlab.grading.autograder import LEARNER_ID_KINDS, bundle_paths, learner_id_kind, write_bundle
from embedlab.grading.code import CLASS, handed_out
from embedlab.grading.exercise import TYPED_RULE
from embedlab.grading.generate import AuthoringError, check_contract, make_exercise
from embedlab.grading.keys import KEYS_DIR, KeysError, load_keys, write_lesson_keys
from embedlab.grading.kinds import Function, expected_value
from embedlab.grading.lessons import known_lessons, questions_for
from embedlab.grading.lms import read_roster as read_lms_roster
from embedlab.grading.release import (BundleError, open_public_bundle, read_public_bundle, write_moodle_zip,
                                     write_public_bundle)
from embedlab.grading.sandbox import Limits, Run
from embedlab.grading.status import FINISHED
from embedlab.grading.text import atomic_output, inside
from embedlab.grading.variants import (
    DEFAULT_VARIANTS,
    SAFE_LEARNER,
    VariantError,
    check_parameters_cell,
    parameters_of,
    read_parameters,
    render_parameters,
    space_for,
    variant_of,
    with_parameters,
)
from embedlab.grading.wire import DATA

USAGE = 2
MIN_SECRET = 16  # characters: a shorter secret could be guessed by trying them all
MAX_VARIANTS = 1000
HARVEST_LIMITS = Limits(cell_timeout=600.0, timeout=3600.0, memory_mb=4096)
RESERVED = {KEYS_DIR.casefold()}
# The title cell's legend (its words, however the markdown wraps them) and what a handout says instead
SELF_STUDY_LEGEND = "✅ correct, ❌ not yet (with a hint) or ⏳ not attempted yet."
CLASS_LEGEND = "📝 answered in the right form, ❌ what is wrong with the form, or ⏳ not attempted yet."
_SELF_STUDY_LEGEND = re.compile(r"\s+".join(re.escape(word) for word in SELF_STUDY_LEGEND.split()))
# Any lesson's own words for the marks ("✅ means correct, ❌ comes with a hint, ⏳ means not attempted yet."):
# from its ✅ to the end of its ⏳ clause, replaced by the class legend, so no handout promises a ✅
_ANY_LEGEND = re.compile(r"✅[^⏳]*⏳[^.\n]*\.?")
_COURSE_LINK = re.compile(r"\[([^\]\n]+)\]\(\.\./(notebooks/[^)\s]+\.ipynb)\)")  # exercises/ -> notebooks/
_SCORE_HEADING = re.compile(r"^## Your score so far$", re.MULTILINE)
COURSE = Path(__file__).resolve().parents[3]  # lib/embedlab/grading -> the course folder (its solutions/)


class AssignError(Exception):
    """A usage error: bad roster, secret, lesson or --out (exit 2, nothing written)."""


# --------------------------------------------------------------------------
# Inputs


def read_roster(path: Path) -> list[str]:
    """The learner ids of a roster CSV, in order; AssignError naming the row for any bad one."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise AssignError(f"the roster {str(path)!r} is not UTF-8 text: save it as CSV UTF-8 (Excel: File > "
                          "Save As > CSV UTF-8; LibreOffice: character set Unicode (UTF-8))") from None
    except OSError as exc:
        raise AssignError(f"cannot read the roster {str(path)!r} ({type(exc).__name__})") from None
    lines = text.splitlines()
    # European spreadsheet locales save CSV with ';' between cells: accepted, told apart by the header
    delimiter = ";" if lines and ";" in lines[0] and "," not in lines[0] else ","
    reader = csv.reader(lines, delimiter=delimiter)
    header = [h.strip() for h in next(reader, [])]
    if "learner" not in header:
        raise AssignError(f"the roster {str(path)!r} has no 'learner' column (its columns: {header}); save it as "
                          "CSV with a header row whose cells are separated by ',' (or ';')")
    repeated = sorted({h for h in header if h and header.count(h) > 1})
    if repeated:
        raise AssignError(f"the roster {str(path)!r} has the column {repeated[0]!r} more than once: keep one")
    column = header.index("learner")
    learners, seen = [], {}
    for row_number, row in enumerate(reader, start=2):
        if not any(cell.strip() for cell in row):
            continue  # a blank line
        learner = row[column].strip() if column < len(row) else ""
        if not learner:
            raise AssignError(f"the roster's row {row_number} has an empty learner id")
        if not SAFE_LEARNER.match(learner) or learner.casefold() in RESERVED:
            raise AssignError(f"the roster's row {row_number}: learner id {learner!r} is not a safe folder name "
                              "(letters, digits and . _ @ + -, starting with a letter or digit, at most 64; "
                              f"not {KEYS_DIR!r})")
        if learner.casefold() in seen:
            raise AssignError(f"the roster's row {row_number}: learner id {learner!r} repeats row "
                              f"{seen[learner.casefold()]} (ids are compared without case: they name folders)")
        seen[learner.casefold()] = row_number
        learners.append(learner)
    if not learners:
        raise AssignError(f"the roster {str(path)!r} lists no learner")
    # what embedlab-grade --roster will refuse later (a row with a cell too many, an LMS id a
    # spreadsheet turned into 1.2E+13...) is refused now, before any notebook is handed out
    try:
        read_lms_roster(path)
    except ValueError as exc:
        raise AssignError(str(exc)) from None
    return learners


def read_secret(path: Path) -> bytes:
    try:
        secret = Path(path).read_bytes().strip()
    except OSError as exc:
        raise AssignError(f"cannot read the secret file {str(path)!r} ({type(exc).__name__})") from None
    if not secret:
        raise AssignError(f"the secret file {str(path)!r} is empty")
    if len(secret) < MIN_SECRET:
        raise AssignError(f"the secret in {str(path)!r} has {len(secret)} characters: use at least {MIN_SECRET} "
                          "(e.g. python -c 'import secrets; print(secrets.token_hex(32))')")
    return secret


def lessons_to_assign(name: str) -> tuple[list[str], list[str]]:
    """(lessons to assign, lessons skipped because they are not parameterised yet)."""
    if name == "all":
        known = known_lessons()
        return [lesson for lesson in known if space_for(lesson)], [lesson for lesson in known if not space_for(lesson)]
    if name not in known_lessons():
        raise AssignError(f"no exercise {name!r}; known: {', '.join(known_lessons())}, or all")
    if space_for(name) is None:
        raise AssignError(f"{name} is not parameterised yet (no SPACE in its question module): "
                          "class mode cannot vary it")
    return [name], []


def solution_of(lesson: str, course: Path = COURSE):
    path = Path(course) / "solutions" / f"{lesson}.ipynb"
    if not path.exists():
        raise AssignError(f"no solution notebook {path} (embedlab-assign runs from the course's folder)")
    nb = nbformat.read(path, as_version=4)
    try:
        check_contract(nb, lesson, questions_for(lesson))
        check_parameters_cell(nb, lesson)
    except (AuthoringError, VariantError) as exc:
        raise AssignError(str(exc)) from None
    return nb


# --------------------------------------------------------------------------
# Harvest: the solution once per variant, in the grader's sandbox


def run_in_sandbox(nb, lesson: str, limits: Limits, bwrap: str | None):
    """Run a notebook in a sandbox with the grader's worker and probe; the RunResult."""
    data = nbformat.writes(nb).encode("utf-8")
    with tempfile.TemporaryFile() as f:
        f.write(data)
        f.seek(0)
        run = Run(limits, bwrap)
        try:
            if not run.send_notebook(f.fileno(), len(data)) or run.receive("notebook", "unreadable") is None:
                return run.end(None)
            return run.finish({"lesson": lesson, "cases": {}, "names": [q.name for q in questions_for(lesson)]})
        finally:
            run.close()


def harvest(solution, lesson: str, variants: dict[int, dict], bwrap: str | None, jobs: int = 1,
            limits: Limits = HARVEST_LIMITS) -> dict[int, dict]:
    """{variant: answer key} from running the solution with each variant's parameters (as the class
    notebook `variant_solution`, the code --solutions releases). With kept.CACHE_ENV set (the course's
    tests set it: tests/conftest.py), a run whose every input is one already run is read from there."""
    questions = [q for q in questions_for(lesson) if not isinstance(q, Function)]

    def one(item):
        number, params = item
        nb = variant_solution(solution, lesson, params)
        path = kept.path_for("harvest", lesson, nbformat.writes(nb), repr(limits), bool(bwrap))
        data = kept.read(path)
        if not (isinstance(data, dict) and all(q.name in data for q in questions)):
            data = None
        if data is None:
            result = run_in_sandbox(nb, lesson, limits, bwrap)
            if result.state != FINISHED or result.answers is None:
                raise AssignError(f"{lesson} variant {number}: the solution did not run to the end "
                                  f"({result.state}: {result.detail})")
            errors = [e for e in result.report.get("errors", []) if e.get("cell") is not None]
            if errors:
                e = errors[0]
                raise AssignError(f"{lesson} variant {number}: the solution's cell {e['cell'] + 1} raised "
                                  f"{e['ename']}: {e['evalue']}")
            data = {}
            for q in questions:
                entry = result.answers.get(q.name)
                if not isinstance(entry, dict) or DATA not in entry:
                    raise AssignError(f"{lesson} variant {number}: the solution gives no valid {q.name!r} "
                                      f"({entry})")
                data[q.name] = entry[DATA]
            kept.keep(path, data)
        return number, {q.name: expected_value(q, data[q.name]) for q in questions}

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return dict(pool.map(one, sorted(variants.items())))


# --------------------------------------------------------------------------
# Handouts


def class_setup(source: str, lesson: str) -> str:
    """The setup cell's `Exercise("NN-slug")` made `Exercise("NN-slug", mode="class")`: a code cell as a
    class handout holds it (code.handed_out, which the grader, the notebook's check and the report read
    as what the learner was given)."""
    return handed_out(source, lesson, CLASS)


def class_notebook(nb, lesson: str):
    """`nb` made a class notebook in place: code cells without outputs, the setup's
    `Exercise("NN-slug", mode="class")` (checks of form only), the markdown's legend and links as
    a handout's. AssignError unless the notebook has exactly one `Exercise("NN-slug")`."""
    found = 0
    for cell in nb.cells:
        if cell.cell_type == "code":
            new = class_setup(cell.source, lesson)
            found += new != cell.source
            cell.source = new
            cell.outputs = []
            cell.execution_count = None
    if found != 1:
        raise AssignError(f"{lesson}: expected one `Exercise({lesson!r})` in the exercise, found {found}")
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = _ANY_LEGEND.sub(CLASS_LEGEND, _SELF_STUDY_LEGEND.sub(CLASS_LEGEND, cell.source))
            cell.source = _COURSE_LINK.sub(r"\1 (`\2` in the course)", cell.source)  # no such path next to it
            cell.source = _SCORE_HEADING.sub("## Your answers so far", cell.source)
    return nb


def handout(exercise, lesson: str, learner: str, variant: int, params: dict):
    """One learner's notebook: their parameters, checks of form only, no outputs, their metadata."""
    nb = class_notebook(with_parameters(exercise, params), lesson)
    note = nbformat.v4.new_markdown_cell(
        f"**Class assignment** for `{learner}`. Your parameters cell below is your own: answer with its "
        "values. The checks in this notebook say only whether each answer is there and in the right form "
        f"(📝); your score comes from your instructor's grader. {TYPED_RULE}\n\n"
        "Work in the course's environment: save this file inside your clone of the course (a folder "
        "`my-work/`, say), open it from `make lab` (the course's README), and hand in this file itself: its "
        "metadata records that it is yours, so keep working in it rather than copying your answers into "
        "another notebook.")
    # A fixed id, not nbformat's random one: one roster, secret and course write the same handout
    # bytes on every run and every machine (tools/other_cpus.py compares them).
    note.id = "class-assignment-note"
    nb.cells.insert(1, note)
    nb.metadata["embedlab"] = {"lesson": lesson, "learner": learner, "variant": variant}
    nb.metadata.pop("language_info", None)
    return nb


def variant_solution(solution, lesson: str, params: dict):
    """The solution with one variant's parameters, as a class notebook (no outputs, checks of form
    only): what the harvest runs to make that variant's keys, and, with a learner's note, what
    --solutions releases to each learner on it (so the released code is the code whose answers are
    the keys)."""
    return class_notebook(with_parameters(solution, params), lesson)


def learner_solution(ran, lesson: str, learner: str, variant: int):
    """A learner's solved notebook: `ran` (variant_solution of their variant) with a note naming them
    and their metadata, marked as a solution. Its code cells are those of `ran`, unchanged."""
    nb = copy.deepcopy(ran)
    note = nbformat.v4.new_markdown_cell(
        f"**Solution** for `{learner}` (variant {variant} of this exercise), released by your instructor "
        "after the due date: the course's solution with your own parameters cell, whose answers are the "
        "ones your notebook was graded against. Save it inside your clone of the course and open it from "
        "`make lab` to run it; its checks print 📝 as your handout's did.")
    note.id = "class-solution-note"
    nb.cells.insert(1, note)
    nb.metadata["embedlab"] = {"lesson": lesson, "learner": learner, "variant": variant, "solution": True}
    nb.metadata.pop("language_info", None)
    return nb


def without_outputs(nb):
    """A copy of `nb` whose code cells have no outputs (what variant_solution clears anyway): the
    solution as the public bundle carries it."""
    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    return nb


def notebook_bytes(nb) -> bytes:
    """A notebook as embedlab-assign writes it (the one encoding of every handout and solution, in a
    folder, a zip or made from the public bundle)."""
    return (nbformat.writes(nb) + "\n").encode("utf-8")


def solution_name(lesson: str) -> str:
    return f"{lesson}-solution.ipynb"


def is_released_solution(path: Path, lesson: str, learner: str) -> bool:
    """Whether `path` is a solved notebook --solutions wrote for `learner` (what --force may replace):
    a regular file, a notebook whose metadata names that lesson and learner and says it is a solution."""
    if path.is_symlink() or not path.is_file():
        return False
    try:
        meta = nbformat.read(path, as_version=4).metadata.get("embedlab", {})
    except Exception:  # noqa: BLE001 - anything unreadable is not ours
        return False
    return isinstance(meta, dict) and meta.get("solution") is True and meta.get("lesson") == lesson \
        and str(meta.get("learner", "")).casefold() == learner.casefold()


# --------------------------------------------------------------------------
# One class


def assign(lessons: list[str], learners: list[str], secret: bytes, k: int, out: Path, bwrap: str | None,
           jobs: int = 1, course: Path = COURSE, log=print, collect: dict | None = None, keys: bool = True) -> dict:
    """Write the class into `out` (a new folder); {lesson: {learner: variant}}. With `collect`, also
    keep in it, per lesson, what the release outputs are made from (`Assigned`). With `keys` False
    (a run that only hands out: nothing it writes holds a key) no solution runs and no keys."""
    make_keys = keys
    assigned = {}
    for lesson in lessons:
        started = time.monotonic()
        solution = solution_of(lesson, course)
        space = space_for(lesson)
        of = {learner: variant_of(secret, lesson, learner, k) for learner in learners}
        params = {n: parameters_of(lesson, n, secret, space) for n in range(1, k + 1)}
        keys = harvest(solution, lesson, params, bwrap, jobs) if make_keys else None
        exercise = make_exercise(solution, lesson)
        for learner in learners:
            folder = inside(out, learner, what="learner id")
            folder.mkdir(exist_ok=True)
            nb = handout(exercise, lesson, learner, of[learner], params[of[learner]])
            inside(folder, f"{lesson}.ipynb", what="lesson").write_bytes(notebook_bytes(nb))
        if make_keys:
            write_lesson_keys(out / KEYS_DIR, lesson, k, of, {n: (params[n], keys[n]) for n in params})
        assigned[lesson] = of
        if collect is not None:
            collect[lesson] = Assigned(lesson, of, params, exercise, solution)
        runs = f"{k} solution runs" if make_keys else "no solution run (handouts only)"
        log(f"{lesson}: {counted(len(learners), 'learner')} on {len(set(of.values()))} of {k} variants, "
            f"{runs}, {time.monotonic() - started:.1f} s")
    return assigned


@dataclass(frozen=True)
class Assigned:
    """One lesson as assigned: who has which variant, each variant's parameters, the exercise the
    handouts are made from and the solution the keys come from."""

    lesson: str
    of: dict  # learner -> variant
    params: dict  # variant -> parameters
    exercise: object
    solution: object

    def handout(self, learner: str):
        return handout(self.exercise, self.lesson, learner, self.of[learner], self.params[self.of[learner]])

    def solved(self, learner: str):
        variant = self.of[learner]
        return learner_solution(variant_solution(self.solution, self.lesson, self.params[variant]), self.lesson,
                                learner, variant)


def prepare_out(out: Path) -> Path:
    """A temporary folder next to `out` to build the class in; AssignError if `out` is not empty."""
    if os.path.lexists(out) and not (out.is_dir() and not out.is_symlink() and not any(out.iterdir())):
        raise AssignError(f"--out {str(out)!r} exists and is not an empty folder: give a new folder")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise AssignError(f"--out's folder {str(parent)!r} does not exist")
    try:
        return Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
    except OSError as exc:
        raise AssignError(f"cannot write next to --out {str(out)!r} ({type(exc).__name__})") from None


def counted(n: int, noun: str) -> str:
    """'1 learner', '3 learners'."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= value <= MAX_VARIANTS:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_VARIANTS}, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """embedlab-assign's arguments."""
    parser = argparse.ArgumentParser(prog="embedlab-assign", description=__doc__.split("\n\n")[0])
    parser.add_argument("lesson", help="NN-slug, or all (every parameterised lesson)")
    parser.add_argument("--roster", required=True, help="CSV with a 'learner' column (other columns ignored; "
                                                        "--moodle-handouts and --moodle-solutions need moodle_id "
                                                        "or moodle_id:NN-slug, and use name)")
    parser.add_argument("--secret-file", required=True, help="file holding the instructor's secret (keep it)")
    parser.add_argument("--out", help="new (or empty) folder for the handouts and the keys; may be left out "
                                      "when the run only writes --solutions, --moodle-solutions, "
                                      "--moodle-handouts, --public-bundle or --public-solutions")
    parser.add_argument("--variants", type=positive_int, default=None,
                        help=f"K, variants per lesson (default {DEFAULT_VARIANTS}; with --keys, the K those keys "
                             "were assigned with)")
    parser.add_argument("--gradescope", help="also write a Gradescope autograder bundle (.zip) here; with several "
                                             "lessons, one per lesson, named NAME-NN-slug.zip")
    parser.add_argument("--gradescope-results", choices=("after_due_date", "after_published", "visible"),
                        default="after_due_date",
                        help="when Gradescope shows learners their score and each question's result: "
                             "after_due_date (the default) once the due date has passed; after_published once "
                             "you publish the grades; visible at once after each submission (a learner who can "
                             "resubmit could then search for their variant's answers). A line saying what was "
                             "received is always shown at once")
    parser.add_argument("--learner-ids", choices=LEARNER_ID_KINDS,
                        help="what the roster's learner ids are, so Gradescope can check who submitted: email "
                             "(the learners' Gradescope emails), sid (their student ids) or other (neither: the "
                             "submitter is then not compared). Default: email when every id has an @, sid when "
                             "every id is digits, else other")
    parser.add_argument("--moodle-handouts", metavar="ZIP",
                        help="also write each learner's handout into a zip for Moodle's 'Upload multiple feedback "
                             "files in a zip' (the roster's moodle_id or moodle_id:NN-slug): each learner finds "
                             "it under Feedback on the assignment's page; with several lessons, one zip per "
                             "lesson, named NAME-NN-slug.zip")
    parser.add_argument("--public-bundle", metavar="FILE.json",
                        help="also write one public file, the same for the whole class, from which each learner "
                             "makes their own handout in their clone (embedlab-handout FILE.json --learner ID): "
                             "no key, no secret, no list of the class (Canvas's way: it cannot take files per "
                             "learner before the due date)")
    parser.add_argument("--keys", metavar="DIR",
                        help="the instructor-keys folder you grade with: this run's keys must be the same (the same "
                             "secret, K and course), else it stops before writing anything, so the solutions it "
                             "releases are those your grades came from (a course changed since you assigned stops "
                             "here)")
    parser.add_argument("--public-solutions", metavar="FILE.json",
                        help="a public bundle as --public-bundle that carries the book's solution too, to post "
                             "after the cut-off date: each learner makes their own solved notebook with "
                             "embedlab-handout FILE.json --learner ID --solution (a --public-bundle file cannot)")
    parser.add_argument("--solutions", metavar="DIR",
                        help="also write each learner's solved notebook, DIR/<learner>/NN-slug-solution.ipynb: "
                             "the solution with their variant's parameters, the code whose answers are their "
                             "keys (to release after the due date)")
    parser.add_argument("--moodle-solutions", metavar="ZIP",
                        help="the same solved notebooks in a zip for Moodle's 'Upload multiple feedback files in a "
                             "zip' (one per lesson with several lessons, as --moodle-handouts)")
    parser.add_argument("--force", action="store_true",
                        help="replace files this run writes that exist already: --gradescope, --moodle-handouts, "
                             "--moodle-solutions, --public-bundle, --public-solutions, and solved notebooks in "
                             "--solutions (without "
                             "it, any of them existing stops the run before anything is written; --out is never "
                             "replaced)")
    parser.add_argument("-j", "--jobs", type=positive_int, default=1, help="solution runs in parallel (default 1)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="run the solutions without bubblewrap (they are the course's own code)")
    return parser


@dataclass
class Outputs:
    """What a run writes besides --out, each path checked before anything is written."""

    bundles: dict  # lesson -> Gradescope bundle
    moodle_handouts: dict  # lesson -> zip
    moodle_solutions: dict  # lesson -> zip
    public_bundle: Path | None
    public_solutions: Path | None
    solutions: Path | None
    roster: object  # the lms.Roster (names, Moodle ids)

    def any_release(self) -> bool:
        return bool(self.moodle_handouts or self.moodle_solutions or self.public_bundle or self.public_solutions
                    or self.solutions)


def _inside(path: Path, folder: Path) -> bool:
    path, folder = path.resolve(), folder.resolve()
    return path == folder or folder in path.parents


def _check_file(flag: str, value: str, suffix: str, out: Path | None) -> Path:
    path = Path(value)
    if path.suffix != suffix or path.is_dir() or not path.resolve().parent.is_dir():
        raise AssignError(f"{flag} must name a {suffix} file in an existing folder, got {value!r}")
    if out is not None and _inside(path, out):
        raise AssignError(f"{flag} {value!r} is inside --out {str(out)!r}: --out holds the handouts and keys only")
    return path


def _outputs(args, lessons: list[str], out: Path | None) -> Outputs:
    roster = read_lms_roster(Path(args.roster))
    bundles = {}
    if args.gradescope:
        bundles = bundle_paths(_check_file("--gradescope", args.gradescope, ".zip", out), lessons)
    moodle = {}
    for flag, value in (("--moodle-handouts", args.moodle_handouts), ("--moodle-solutions", args.moodle_solutions)):
        moodle[flag] = {}
        if value:
            moodle[flag] = bundle_paths(_check_file(flag, value, ".zip", out), lessons)
            for lesson in lessons:  # the ids each lesson's zip is named by, checked now
                try:
                    column = roster.id_column("moodle", lesson)
                except ValueError as exc:
                    raise AssignError(f"{flag}: {exc}") from None
                if not roster.with_ids("moodle", lesson):
                    raise AssignError(f"{flag}: the roster's {column} is empty for every learner")
    public = _check_file("--public-bundle", args.public_bundle, ".json", out) \
        if args.public_bundle else None
    public_solutions = _check_file("--public-solutions", args.public_solutions, ".json", out) \
        if args.public_solutions else None
    solutions = Path(args.solutions) if args.solutions else None
    if solutions is not None:
        if os.path.lexists(solutions) and not (solutions.is_dir() and not solutions.is_symlink()):
            raise AssignError(f"--solutions {args.solutions!r} exists and is not a folder")
        if not solutions.resolve().parent.is_dir():
            raise AssignError(f"--solutions's folder {str(solutions.parent)!r} does not exist")
        if out is not None and (_inside(solutions, out) or _inside(out, solutions)):
            raise AssignError(f"--solutions {args.solutions!r} and --out {str(out)!r} must be apart: handouts "
                              "go out before the due date, solutions after it")
        try:
            paths = {(learner, lesson): inside(solutions, learner, solution_name(lesson), what="--solutions: learner")
                     for learner in roster.learners for lesson in lessons}
        except ValueError as exc:
            raise AssignError(str(exc)) from None
        there = [(learner, lesson, path) for (learner, lesson), path in paths.items() if os.path.lexists(path)]
        if there and not args.force:
            raise AssignError(f"--solutions: {there[0][2]} already exists"
                              + (f" (and {len(there) - 1} more)" if len(there) > 1 else "")
                              + ": give a new folder, or --force to replace them")
        for learner, lesson, path in there:  # --force replaces only what embedlab-assign wrote there
            if not is_released_solution(path, lesson, learner):
                raise AssignError(f"--solutions: {path} is not a solved notebook embedlab-assign wrote for "
                                  f"{learner} (a learner's own file?): not replaced, even with --force")
    files = [*bundles.values(), *moodle["--moodle-handouts"].values(), *moodle["--moodle-solutions"].values(),
             *([public] if public else []), *([public_solutions] if public_solutions else [])]
    resolved = [p.resolve() for p in files]
    if len(set(resolved)) != len(resolved):
        raise AssignError("two of --gradescope, --moodle-handouts, --moodle-solutions, --public-bundle and "
                          "--public-solutions name "
                          "the same file")
    there = [str(p) for p in files if os.path.lexists(p)]
    if there and not args.force:
        raise AssignError(f"{', '.join(there)} already exists (written by another class or run?): give a new name, "
                          "or --force to replace it")
    return Outputs(bundles, moodle["--moodle-handouts"], moodle["--moodle-solutions"], public, public_solutions,
                   solutions, roster)


def _checked(args):
    """(lessons, lessons skipped, learners, secret, Outputs, learner id kind, bwrap) the arguments
    give, each checked before anything is written; AssignError saying what is wrong."""
    lessons, skipped = lessons_to_assign(args.lesson)
    if not lessons:
        raise AssignError("no lesson is parameterised yet")
    learners = read_roster(Path(args.roster))
    secret = read_secret(Path(args.secret_file))
    outputs = _outputs(args, lessons, Path(args.out) if args.out else None)
    if args.out is None and not (outputs.any_release() or outputs.bundles):
        raise AssignError("give --out (a new folder for the handouts and the keys), or only release outputs "
                          "(--solutions, --moodle-solutions, --moodle-handouts, --public-bundle, --public-solutions)")
    if args.out is None and outputs.bundles:
        raise AssignError("--gradescope needs --out: keep the keys its bundle holds")
    if args.keys:  # read now: a folder that is not keys, or lacks a lesson, stops the run before any solution runs
        try:
            given = load_keys(Path(args.keys))
        except KeysError as exc:
            raise AssignError(f"--keys: {exc}") from None
        absent = [lesson for lesson in lessons if lesson not in given]
        if absent:
            raise AssignError(f"--keys {args.keys!r} holds no keys of {absent[0]}")
        if args.variants is None:  # a release after the term: the K the class was assigned with
            ks = {given[lesson].variants for lesson in lessons}
            if len(ks) > 1:
                raise AssignError(f"--keys {args.keys!r} holds lessons assigned with different K ({sorted(ks)}): "
                                  "give --variants, or release each lesson in a run of its own")
            args.variants = ks.pop()
    if args.variants is None:
        args.variants = DEFAULT_VARIANTS
    ids = args.learner_ids or learner_id_kind(learners)
    for lesson in lessons:
        solution_of(lesson)
    for lesson in lessons:  # drawn now (and kept): a lesson whose pools cannot keep K apart stops here
        try:
            for variant in range(1, args.variants + 1):
                parameters_of(lesson, variant, secret)
        except VariantError as exc:
            raise AssignError(str(exc)) from None
    bwrap = None
    if not args.no_sandbox:
        bwrap = sandbox.bwrap_path()
        if bwrap is None:
            raise AssignError("bubblewrap (bwrap) is not on PATH: install it (Debian/Ubuntu: apt-get install "
                              "bubblewrap), or pass --no-sandbox")
        why = sandbox.check_sandbox(bwrap)
        if why:
            raise AssignError(f"cannot run the solution in the grader's sandbox: {why}; "
                              "or pass --no-sandbox")
    return lessons, skipped, learners, secret, outputs, ids, bwrap


def same_keys(given: Path, made: Path, lessons: list[str]) -> None:
    """AssignError unless the keys of each lesson in `made` (this run's) are those in `given` (the
    folder the instructor grades with): the same variants, parameters and expected values, and the
    same variant for every learner in both."""
    try:
        theirs, mine = load_keys(given), load_keys(made)
    except KeysError as exc:
        raise AssignError(f"--keys: {exc}") from None
    for lesson in lessons:
        if lesson not in theirs:
            raise AssignError(f"--keys {str(given)!r} holds no keys of {lesson}")
        old, new = theirs[lesson], mine[lesson]
        differ = sorted(n for n in set(old.keys) | set(new.keys) if old.keys.get(n) != new.keys.get(n))
        moved = sorted(name for name in set(old.learners) & set(new.learners)
                       if old.learners[name] != new.learners[name])
        if old.variants != new.variants or differ or moved:
            why = (f"K {old.variants} there, {new.variants} here" if old.variants != new.variants else
                   f"variant {differ[0]}'s parameters or expected values differ" if differ else
                   f"learner {moved[0]!r} has another variant")
            raise AssignError(f"--keys {str(given)!r}: this run's keys of {lesson} are not those ({why}): another "
                              "secret or K, or the course's solution changed since you assigned (release from the "
                              "course as it was then); nothing written")


def write_release(outputs: Outputs, assigned: dict, learners: list[str], secret: bytes, jobs: int = 1,
                  log=print) -> None:
    """The release outputs of a run from what `assign` collected: Moodle zips of handouts and of
    solutions, the public bundle, the solved notebooks per learner."""
    roster = outputs.roster
    name = {learner: roster.value(learner, "name") or learner for learner in learners}
    for flag, zips, make, filename in (
            ("--moodle-handouts", outputs.moodle_handouts, Assigned.handout, lambda lesson: f"{lesson}.ipynb"),
            ("--moodle-solutions", outputs.moodle_solutions, Assigned.solved, solution_name)):
        for lesson, path in zips.items():
            started = time.monotonic()
            lesson_of = assigned[lesson]
            column = roster.id_column("moodle", lesson)
            # the learners of the Moodle section(s): another section's learners (no Moodle id) get theirs
            # through their own LMS (the public bundle, or --out's files)
            on_moodle = [learner for learner in learners if roster.value(learner, column)]
            files = [(name[learner], roster.value(learner, column), filename(lesson),
                      notebook_bytes(make(lesson_of, learner))) for learner in on_moodle]
            try:
                write_moodle_zip(path, files, flag=flag)
            except ValueError as exc:
                raise AssignError(str(exc)) from None
            others = len(learners) - len(on_moodle)
            log(f"{flag} {path}: {counted(len(files), 'file')} for Moodle's 'Upload multiple feedback files in a "
                f"zip' ({column}) in {time.monotonic() - started:.1f} s"
                + (f"; {counted(others, 'learner')} without a {column} (another section's LMS) not in it"
                   if others else ""))
    if outputs.solutions is not None:
        started = time.monotonic()
        for learner in learners:
            for lesson, lesson_of in assigned.items():
                folder = inside(outputs.solutions, learner, what="--solutions: learner")
                folder.mkdir(parents=True, exist_ok=True)
                with atomic_output(inside(folder, solution_name(lesson), what="--solutions: lesson"), "wb",
                                   flag="--solutions") as f:
                    f.write(notebook_bytes(lesson_of.solved(learner)))
        log(f"--solutions {outputs.solutions}: {counted(len(learners) * len(assigned), 'solved notebook')} in "
            f"{time.monotonic() - started:.1f} s")
    bundles = [(flag, path, with_solutions) for flag, path, with_solutions in
               (("--public-bundle", outputs.public_bundle, False),
                ("--public-solutions", outputs.public_solutions, True)) if path is not None]
    for flag, path, with_solutions in bundles:
        started = time.monotonic()
        exercises = {lesson: nbformat.writes(a.exercise) for lesson, a in assigned.items()}
        solutions = {lesson: nbformat.writes(without_outputs(a.solution)) for lesson, a in assigned.items()} \
            if with_solutions else None
        mine = {learner: {lesson: (a.of[learner], render_parameters(a.params[a.of[learner]]))
                          for lesson, a in assigned.items()} for learner in learners}
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            made = write_public_bundle(path, secret, exercises, mine, flag=flag, map_=pool.map, solutions=solutions)
        log(f"{flag} {path}: {made['entries']} learners' entries and {made['decoys']} decoys in "
            f"{time.monotonic() - started:.1f} s")


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    out = Path(args.out) if args.out else None
    try:
        lessons, skipped, learners, secret, outputs, ids, bwrap = _checked(args)
        build = prepare_out(out) if out is not None else Path(tempfile.mkdtemp(prefix=".embedlab-assign."))
    except AssignError as exc:
        print(f"embedlab-assign: error: {exc}", file=sys.stderr)
        return USAGE
    for lesson in skipped:
        print(f"{lesson}: skipped, not parameterised yet", file=sys.stderr)
    started = time.monotonic()
    log = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    try:
        collected = {}
        # a run that only hands out (--moodle-handouts, --public-bundle, no --out) needs no key: the
        # solutions run only where keys or solved notebooks are written or checked
        keys_needed = (out is not None or bool(args.keys) or bool(outputs.bundles) or bool(
            outputs.moodle_solutions or outputs.public_solutions or outputs.solutions))
        assign(lessons, learners, secret, args.variants, build, bwrap, args.jobs, log=log,
               **({"collect": collected} if outputs.any_release() else {}), keys=keys_needed)
        if args.keys:
            same_keys(Path(args.keys), build / KEYS_DIR, lessons)
        for lesson, path in outputs.bundles.items():
            write_bundle(path, build / KEYS_DIR, lesson, args.gradescope_results, learner_ids=ids)
        if outputs.any_release():
            write_release(outputs, collected, learners, secret, args.jobs, log=log)
        if out is not None:
            if out.is_dir():
                out.rmdir()  # it was empty
            os.replace(build, out)
    except (AssignError, ValueError) as exc:
        print(f"embedlab-assign: error: {exc}", file=sys.stderr)
        return USAGE
    finally:
        if build.exists():
            shutil.rmtree(build, ignore_errors=True)
    wrote = (f"wrote {out}/<learner>/ and {out / KEYS_DIR}/ (keep it from learners)" if out is not None
             else "no --out: handouts and keys not kept")
    print(f"{counted(len(learners), 'learner')}, {counted(len(lessons), 'lesson')}, K = {args.variants}: "
          f"{wrote} in {time.monotonic() - started:.1f} s")
    for lesson, path in outputs.bundles.items():
        print(f"Gradescope autograder{'' if len(outputs.bundles) == 1 else f' of {lesson}'}: {path}")
    if outputs.bundles:
        print({"email": "Gradescope: the roster's ids are emails, so who submitted is compared with each notebook",
               "sid": "Gradescope: the roster's ids are student ids, so who submitted is compared with each notebook",
               "other": "Gradescope: the roster's ids are neither emails nor student ids, so who submitted is not "
                        "compared (--learner-ids email or sid to change that)"}[ids])
    for lesson, path in outputs.moodle_handouts.items():
        print(f"Moodle handouts{'' if len(outputs.moodle_handouts) == 1 else f' of {lesson}'}: {path} (upload "
              "before the due date: 'Upload multiple feedback files in a zip')")
    if outputs.public_bundle is not None:
        print(f"public bundle: {outputs.public_bundle} (post it for the class; each learner runs "
              f"embedlab-handout {outputs.public_bundle.name} --learner THEIR_ID in their clone)")
    if outputs.public_solutions is not None:
        print(f"public solutions: {outputs.public_solutions} (post it after the cut-off date; each learner runs "
              f"embedlab-handout {outputs.public_solutions.name} --learner THEIR_ID --solution in their clone)")
    if outputs.solutions is not None:
        print(f"solved notebooks: {outputs.solutions}/<learner>/NN-slug-solution.ipynb (release after the "
              "cut-off date)")
    for lesson, path in outputs.moodle_solutions.items():
        print(f"Moodle solutions{'' if len(outputs.moodle_solutions) == 1 else f' of {lesson}'}: {path} (upload "
              "after the cut-off date)")
    return 0


# --------------------------------------------------------------------------
# embedlab-handout: a learner makes their own handout from the public bundle


def build_handout_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="embedlab-handout",
        description="Make your own class handout from the public bundle your instructor posted "
                    "(embedlab-assign --public-bundle): the same notebook, byte for byte, that the instructor's "
                    "embedlab-assign wrote for you.")
    parser.add_argument("bundle", help="the bundle file your instructor posted (a .json)")
    parser.add_argument("--learner", required=True,
                        help="your learner id, as your instructor assigned it (e.g. your institution email or "
                             "student number; case does not matter)")
    parser.add_argument("--lesson", action="append",
                        help="NN-slug of the lesson to make (repeat for several; default: every lesson in the "
                             "bundle)")
    parser.add_argument("--out", default=HANDOUT_DIR,
                        help=f"folder to write NN-slug.ipynb into (default {HANDOUT_DIR}/, made if missing)")
    parser.add_argument("--solution", action="store_true",
                        help="make your solved notebook instead, NN-slug-solution.ipynb (once your instructor says "
                             "solutions are released): the course's solution with your parameters")
    parser.add_argument("--force", action="store_true",
                        help="replace a file already in --out (the work saved in it is lost)")
    return parser


HANDOUT_DIR = "my-work"


def handout_main(argv=None) -> int:
    """embedlab-handout BUNDLE --learner ID: write --out/NN-slug.ipynb for each lesson (exit 2, nothing
    written, for an id the bundle does not hold, a damaged bundle, or a handout already there)."""
    args = build_handout_parser().parse_args(argv)
    out = Path(args.out)
    try:
        data = read_public_bundle(Path(args.bundle))
        lessons = args.lesson or data["lessons"]
        unknown = [lesson for lesson in lessons if lesson not in data["lessons"]]
        if unknown:
            raise BundleError(f"this bundle has no lesson {unknown[0]!r} (it has: {', '.join(data['lessons'])})")
        entry = open_public_bundle(data, args.learner)
        missing = [lesson for lesson in lessons if lesson not in entry["lessons"]]
        if missing:
            raise BundleError(f"this bundle has no handout of {missing[0]} for you (you were assigned "
                              f"{', '.join(entry['lessons']) or 'none'}): ask your instructor")
        made = {}
        for lesson in lessons:
            mine = entry["lessons"][lesson]
            params, variant = read_parameters(mine["parameters"]), int(mine["variant"])
            if args.solution:
                if lesson not in data.get("solutions", {}):
                    raise BundleError(f"this bundle holds no solution of {lesson}: your instructor posts one that "
                                      "does (embedlab-assign --public-solutions) once solutions are released")
                solution = nbformat.reads(data["solutions"][lesson], as_version=4)
                nb = learner_solution(variant_solution(solution, lesson, params), lesson, entry["learner"], variant)
                made[solution_name(lesson)] = (lesson, notebook_bytes(nb))
            else:
                exercise = nbformat.reads(data["exercises"][lesson], as_version=4)
                made[f"{lesson}.ipynb"] = (lesson, notebook_bytes(handout(exercise, lesson, entry["learner"], variant,
                                                                          params)))
        if os.path.lexists(out) and not out.is_dir():
            raise BundleError(f"--out {str(out)!r} exists and is not a folder")
        targets = {name: inside(out, name, what="the bundle's lesson") for name in made}  # never outside --out
        there = [str(targets[name]) for name in made if os.path.lexists(targets[name])]
        if there and not args.force:
            raise BundleError(f"{there[0]} already exists (your work?): nothing written; keep it, or give another "
                              "--out, or --force to replace it")
    except (BundleError, VariantError, AssignError, ValueError, KeyError, TypeError) as exc:
        print(f"embedlab-handout: error: {exc}", file=sys.stderr)
        return USAGE
    out.mkdir(parents=True, exist_ok=True)
    for name, (lesson, content) in made.items():
        with atomic_output(targets[name], "wb", flag="--out") as f:
            f.write(content)
        what = "solved notebook" if args.solution else "handout"
        print(f"wrote {targets[name]}: your {what} of {lesson} (learner {entry['learner']}); open it from `make lab`")
    return 0
