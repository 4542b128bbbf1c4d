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

A term with sections (one roster, whose learners may have only their own LMS's ids, and an optional
`section` column): a run holds the learners of `--section NAME`, else those the layout finds (Canvas:
a canvas_id; Moodle: the lesson's Moodle id), else, for files given one by one, only theirs
(results.Scope); its totals, gradebook, report and feedback hold only them, never `missing` for a
learner graded elsewhere. `--merge` keeps the existing --totals file's other lines and replaces
this run's (a second section, a straggler graded alone), and makes --gradebook from the merged totals.

`--policy policy.toml` applies the course policy (embedlab.grading.policy): a late rule,
adjustments with their reasons, weights; read and checked before grading, merged into the
totals, the gradebook and the report at the end of every run (scores.csv stays raw).

`--feedback DIR` writes each learner's feedback per lesson (embedlab.grading.feedback): an HTML
page and a text twin per learner in DIR/learners/, and with --layout canvas or moodle a zip per
lesson that the LMS takes back in bulk (Canvas's Re-upload submissions, Moodle's Upload multiple
feedback files in a zip). Points, hints and what to reread; never an expected value.

`--report` writes the class report, one HTML page (embedlab.grading.report): the
spread and frequent mistakes per question, the files set aside, a line per learner,
and work shared between learners of one variant, for review. An existing report is
replaced only with `--force` (so is earlier feedback); no output ever replaces a submission.

The exit status is 0 when every submission got its rows; 2 for a usage error (or no sandbox); 1 if the
grader itself failed on a submission; 130 when stopped by Ctrl-C (the rows
graded so far are written, the others as not_graded).

This module reads the command line and calls: the run is embedlab.grading.grader, finding
the files embedlab.grading.submissions, judging embedlab.grading.judge, the files written
embedlab.grading.results, the class report embedlab.grading.report, --explain embedlab.grading.regrade.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import sys
from pathlib import Path

from embedlab.grading import sandbox
from embedlab.grading.class_keys import class_variant, merge_keys, wrong_parameters  # noqa: F401 - cli's names too
from embedlab.grading.grader import (  # noqa: F401 - cli's names too
    INTERRUPTED,
    STOP_GRACE,
    Interrupted,
    Trace,
    grade_all,
    grade_and_write,
    grade_submission,
    settled,
)
from embedlab.grading.judge import GraderFault, Row, score  # noqa: F401 - cli's names too
from embedlab.grading.feedback import check_feedback_dir
from embedlab.grading.keys import KeysError, load_keys
from embedlab.grading.lessons import known_lessons
from embedlab.grading.manual import ManualError, read_marks
from embedlab.grading.lms import GRADEBOOK_FORMATS, LAYOUTS, read_roster, write_gradebook
from embedlab.grading.regrade import READABLE_DEPTH, _short, explain  # noqa: F401 - cli's names too
from embedlab.grading.policy import Policy, PolicyError, load_policy
from embedlab.grading.report import check_report_path
from embedlab.grading.results import (  # noqa: F401 - cli's names too
    COLUMNS,
    NO_GROUP_NOTE,
    NO_SANDBOX_NOTE,
    TOTALS_COLUMNS,
    Scope,
    Total,
    question_statistics,
    read_totals,
    several,
    statistics_text,
    summary,
    totals,
    write_class_gradebook,
    write_csv,
    write_totals,
)
from embedlab.grading.sandbox import Limits
from embedlab.grading.submissions import (  # noqa: F401 - cli's names too
    MAX_NOTEBOOK_BYTES,
    OUTPUT_FLAGS,
    Submission,
    check_outputs,
    find_submissions,
    identify,
    lesson_from_name,
    open_submission,
)
from embedlab.grading.text import (  # noqa: F401 - cli's names too
    UNPRINTABLE,
    atomic_output,
    csv_cell,
    csv_writer,
    display_name,
    open_output,
    printable,
    private_paths,
)


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
    parser = build_parser()
    args = parser.parse_args(argv)
    limits, submissions, keys, roster, fmt = _class_and_files(parser, args)
    args.scope = _scope(parser, args, roster, keys)
    args.kept = _kept(parser, args)
    policy = _policy(parser, args, submissions, keys, roster)
    marks = _manual(parser, args, keys)
    bwrap = _sandbox(parser, args)
    no_group = sandbox.budget_problem()
    if no_group:
        print(f"{NO_GROUP_NOTE} ({printable(no_group)})", file=sys.stderr)
    outputs = _outputs(parser, args, submissions, roster, fmt)
    # the folders of this run and the sandbox's binds: redacted from every detail a learner reads
    private_paths(*args.paths, *(args.keys or []), *outputs.values(), *(p.parent for p in outputs.values()),
                  getattr(args, "feedback", None), getattr(args, "roster", None), getattr(args, "policy", None),
                  *sandbox.python_roots(), sandbox.ANSWERS_DIR)
    # Whatever a submission starts is re-parented here, and every result is written only once none of it
    # is left (sandbox.settle), on every path: with or without the sandbox and control groups.
    sandbox.adopt_orphans()
    try:
        if args.explain:
            return explain(submissions[0], args.lesson, limits, args.seed, bwrap, keys)
        return grade_and_write(args, submissions, limits, bwrap, keys, roster, fmt, outputs, no_group, policy,
                               marks=marks)
    finally:
        sandbox.release_groups()
        sandbox.disown_orphans()


def build_parser() -> argparse.ArgumentParser:
    """embedlab-grade's arguments."""
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
                      help="a learner with several submissions of a lesson: the newest file counts; in a "
                           "shared folder (not one folder per learner, no LMS layout), where only a notebook's "
                           "metadata names its learner, several files naming one learner are set aside for "
                           "review instead (a classmate could hand in a newer copy of another's handout)")
    parser.add_argument("--trust-metadata", action="store_true",
                        help="with --latest: in a shared folder you collected yourself, a notebook's metadata "
                             "is who handed it in, so the newest of a learner's files counts there too")
    parser.add_argument("--section", action="append", metavar="NAME",
                        help="class mode, a term with sections (one roster, a 'section' column): this run grades "
                             "the learners of section NAME (repeat for several); its totals, gradebook, report and "
                             "feedback hold only them, never 'missing' for another section's learner. Without it: "
                             "with --layout canvas the learners with a canvas_id, with --layout moodle those with "
                             "the lesson's Moodle id; files given one by one (a straggler's), only their learners")
    parser.add_argument("--merge", action="store_true",
                        help="with --totals: keep the rows of the existing totals file and replace only those of "
                             "the learners and lessons this run grades (a straggler graded alone, a section after "
                             "another); --gradebook is then made from the merged totals")
    parser.add_argument("--gradebook", help="class mode: write a gradebook to import into the LMS: one row per "
                                            "roster learner, a column per lesson and a total (needs --keys)")
    parser.add_argument("--gradebook-format", choices=GRADEBOOK_FORMATS,
                        help="the gradebook's form (default: canvas or moodle as --layout, else plain)")
    parser.add_argument("--policy", help="class mode: the course policy (TOML: late rule, adjustments, weights; "
                                         "book/grading.md 'The course policy'), applied at the end of every run to "
                                         "the totals, gradebook and report (needs --keys); a bad entry is refused, "
                                         "naming its line, before anything is written")
    parser.add_argument("--report", help="also write the class report: one self-contained HTML page with the "
                                         "score spread, statuses and most frequent mistakes per question, the "
                                         "files set aside, a line per learner, figures, and answers shared "
                                         "between learners of one variant (for review, not proof); an existing "
                                         "file is replaced only with --force")
    parser.add_argument("--feedback", metavar="DIR",
                        help="class mode: also write each learner's feedback on each lesson (points per question, "
                             "the grader's hints, the lesson section to reread; never an expected value) to DIR: "
                             "DIR/learners/<learner>/<lesson>-feedback.html and .txt, and with --layout canvas or "
                             "moodle DIR/canvas|moodle/<lesson>-feedback.zip for the LMS's bulk feedback upload "
                             "(Canvas: Re-upload submissions; Moodle: Upload multiple feedback files in a zip); "
                             "needs --keys; DIR must be outside the submissions folder; an existing feedback "
                             "file is replaced only with --force")
    parser.add_argument("--manual", metavar="DIR",
                        help="class mode: written answers marked by hand. Writes, per lesson with a written "
                             "question, DIR/<lesson>/marking.html (each learner's answer beside the rubric and "
                             "their autograded answers, in the roster's order) and DIR/<lesson>/manual.csv to "
                             "fill in (a level or points per learner and criterion, and a comment), only when "
                             "there is none; a later run with the same DIR reads each filled manual.csv and "
                             "merges its points into the CSV, totals, gradebook, report and feedback (an entry "
                             "that cannot be merged is refused, naming its file, line and field, before any "
                             "grading; the sheet is never rewritten); needs --keys")
    parser.add_argument("--book-url", metavar="URL", default="",
                        help="with --feedback: the address of the course's published book, so that each "
                             "'reread' links to the lesson's page (URL/notebooks/NN-slug.html); without it the "
                             "pages name the lesson's notebook and section")
    parser.add_argument("--force", action="store_true",
                        help="let --report and --feedback replace existing files (a submission is never "
                             "overwritten)")
    parser.add_argument("--explain", action="store_true",
                        help="for a regrade request: print each question's verdict with the expected and "
                             "submitted values, the inputs of each function case and the hint (one file)")
    parser.set_defaults(rule="best")
    return parser


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


def _class_and_files(parser, args):
    """(limits, submissions, keys, roster, gradebook form) the arguments give; a usage error (exit 2)
    for arguments that do not go together, a folder without notebooks, keys that clash, a bad roster."""
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
    for flag in ("totals", "gradebook", "feedback"):
        if getattr(args, flag) and not args.keys:
            parser.error(f"--{flag} needs --keys (the learners come from the instructor keys)")
    if args.layout != "folders" and not (args.keys and args.roster):
        parser.error(f"--layout {args.layout} needs --keys and --roster (the roster maps the LMS's ids to learners)")
    if args.book_url and not (args.feedback and re.fullmatch(r"https?://[^\s\"'<>]+", args.book_url)):
        parser.error(f"--book-url must be an http:// or https:// address and go with --feedback, got {args.book_url!r}")
    if args.explain and len(submissions) != 1:
        parser.error(f"--explain explains one submission's grade: give one file (found {len(submissions)})")
    if args.keys:
        try:
            keys = merge_keys([(folder, load_keys(folder)) for folder in args.keys])
        except KeysError as exc:
            parser.error(str(exc))
    roster = None
    if args.roster:
        try:
            roster = read_roster(args.roster, args.layout if args.layout != "folders" else None)
            if args.layout != "folders":
                submissions = identify(submissions, args.layout, roster, args.lesson)
        except ValueError as exc:
            parser.error(str(exc))
    fmt = args.gradebook_format or (args.layout if args.layout in GRADEBOOK_FORMATS else "plain")
    if args.gradebook and fmt != "plain" and roster is None:
        parser.error(f"--gradebook in the {fmt} form needs --roster (the LMS's ids of each learner)")
    return limits, submissions, keys, roster, fmt


def _scope(parser, args, roster, keys) -> Scope | None:
    """Which learners this run holds (results.Scope): --section's; else the layout's (Canvas: the roster's
    learners with a canvas_id; Moodle: those with the lesson's Moodle id); else, for files given one by one,
    only their learners (graded alone: nobody else is missing); else every learner of the keys (None)."""
    if keys is None:
        if args.section:
            parser.error("--section needs --keys and --roster (a section's learners come from the roster)")
        return None
    scope = None
    if args.section:
        if roster is None:
            parser.error("--section needs --roster (with a 'section' column)")
        try:
            learners = frozenset(roster.in_section(args.section))
        except ValueError as exc:
            parser.error(str(exc))
        scope = Scope(learners, words=f"section {', '.join(args.section)} of the roster", section=learners,
                      strict=True)
    elif roster is not None and args.layout == "canvas":
        learners = frozenset(roster.with_ids("canvas"))
        scope = Scope(learners, words="the roster's learners with a canvas_id", section=learners)
    elif roster is not None and args.layout == "moodle":
        per = {lesson: frozenset(roster.with_ids("moodle", lesson)) for lesson in keys}
        learners = frozenset(roster.with_ids("moodle"))
        scope = Scope(learners, per, words="the roster's learners with a Moodle id", section=learners)
    if args.paths and all(os.path.isfile(p) for p in args.paths):  # a straggler's file: nobody else is missing
        return Scope(frozenset(), words="the learners of the files given, graded alone",
                     section=scope.section if scope is not None else None)
    return scope


def _kept(parser, args) -> list | None:
    """--merge: the rows of the existing --totals file, read before any grading (None without --merge)."""
    if not args.merge:
        return None
    if not args.totals:
        parser.error("--merge needs --totals (the term's totals file this run's totals go into)")
    try:
        return read_totals(Path(args.totals))
    except ValueError as exc:
        parser.error(str(exc))


def _policy(parser, args, submissions, keys, roster) -> Policy | None:
    """The --policy file, read and checked against the roster, keys and questions before any grading
    (embedlab.grading.policy.load_policy); a usage error (exit 2) naming the file, line and field."""
    if not args.policy:
        return None
    if not args.keys:
        parser.error("--policy needs --keys (the policy's learners and lessons are the instructor keys')")
    try:
        policy = load_policy(args.policy, roster, keys)
        policy.check_markers([(s.label, s.lesson or lesson_from_name(s.path)) for s in submissions if s.late])
    except PolicyError as exc:
        parser.error(str(exc))
    return policy


def _manual(parser, args, keys) -> dict | None:
    """The marks of every filled DIR/<lesson>/manual.csv of --manual DIR, checked against the keys' learners
    and the lessons' rubrics before any grading (embedlab.grading.manual.read_marks); a usage error (exit 2)
    naming the file, line and field of an entry that cannot be merged. None without --manual."""
    if not getattr(args, "manual", None):
        return None
    if not args.keys:
        parser.error("--manual needs --keys (the learners whose written answers are marked are the keys')")
    if Path(args.manual).exists() and not Path(args.manual).is_dir():
        parser.error(f"--manual must be a folder, got {display_name(args.manual)}")
    try:
        return read_marks(args.manual, {lesson: list(k.learners) for lesson, k in keys.items()})
    except ManualError as exc:
        parser.error(f"--manual: {exc}")


def _sandbox(parser, args) -> str | None:
    """The path of bubblewrap, checked to work (None with --no-sandbox); a usage error if it does not."""
    if args.no_sandbox:
        return None
    bwrap = sandbox.bwrap_path()
    if bwrap is None:
        parser.error("bubblewrap (bwrap) is not on PATH: install it (Debian/Ubuntu: apt-get install bubblewrap), "
                     "or pass --no-sandbox to run submissions with the grader's own privileges")
    why = sandbox.check_sandbox(bwrap)
    if why:
        parser.error(f"{printable(why)}; "
                     "fix that, or pass --no-sandbox to run submissions with the grader's own privileges")
    return bwrap


def _outputs(parser, args, submissions, roster, fmt) -> dict[str, Path]:
    """{flag: path} of the files to write, each tried now (not after an hour of grading; nothing is left
    behind): a usage error if one cannot be written, is a submission, or the LMS could not import it."""
    outputs = {"--out": Path(args.out)}
    if args.totals:
        outputs["--totals"] = Path(args.totals)
    if args.gradebook:
        outputs["--gradebook"] = Path(args.gradebook)
    if args.report:
        outputs["--report"] = Path(args.report)
    why = check_outputs(outputs, submissions) or (check_report_path(outputs["--report"], args.force)
                                                  if args.report else "")
    if not why and getattr(args, "feedback", None):
        why = check_feedback_dir(Path(args.feedback), args.paths, submissions, args.force, args.lesson)
        for path in outputs.values():  # no grades file inside the feedback folder (it is handed out)
            if not why and os.path.realpath(path).startswith(os.path.realpath(args.feedback).rstrip("/") + "/"):
                why = f"--feedback {display_name(args.feedback)} holds {display_name(path)}: keep grades out of it"
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
        try:
            fd, tmp = open_output(outputs["--gradebook"], "--gradebook")
            os.close(fd)
            try:
                if roster is not None:
                    section = getattr(args, "scope", None) and args.scope.section  # the learners it will list
                    write_gradebook(Path(tmp), roster if section is None else roster.only(section), {}, ["lesson"],
                                    {"lesson": 1.0}, fmt)
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
        except ValueError as exc:
            parser.error(f"--gradebook: {exc}")
    return outputs
