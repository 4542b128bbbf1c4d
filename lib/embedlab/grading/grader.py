"""The grading run: each submission graded in its own sandbox, in parallel, stopped cleanly by
Ctrl-C, and the results written only once nothing a submission started is left.

    grade_submission   one file: sandbox (embedlab.grading.sandbox) -> wire -> judge -> rows
    grade_all          every file, in parallel runs; Ctrl-C leaves the rest not graded, never 0
    grade_and_write    a whole run of embedlab-grade: grade_all, then the CSVs and the summary
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import os
import pickle
import signal
import stat
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_for
from dataclasses import dataclass
from pathlib import Path

from embedlab.grading import changed, code, kept, sandbox, wire
from embedlab.grading.cases import rng_for
from embedlab.grading.class_keys import class_variant, wrong_parameters
from embedlab.grading.feedback import write_feedback
from embedlab.grading import carried, manual
from embedlab.grading.judge import (GraderFault, Row, at_the_limit, evidence, rows_all, score, shown_value,
                                    written_text)
from embedlab.grading.keys import LessonKeys
from embedlab.grading.kinds import Function
from embedlab.grading.lessons import known_lessons, load_key, questions_for
from embedlab.grading.report import write_report
from embedlab.grading.policy import Policy, PolicyError
from embedlab.grading.results import (print_summary, scope_summary, totals, write_class_gradebook, write_csv,
                                      write_totals)
from embedlab.grading.sandbox import Limits, Run
from embedlab.grading.status import (
    CORRECT,
    ERROR,
    FAULT,
    INCORRECT,
    NEEDS_KEYS,
    NOT_ATTEMPTED,
    NOT_GRADED,
    TIMEOUT,
    TO_MARK,
    UNKNOWN_SUBMITTER,
    UNREADABLE,
    WRONG_LESSON,
    WRONG_PARAMETERS,
    format_points,
)
from embedlab.grading.submissions import Submission, lesson_from_name, open_submission
from embedlab.grading.text import cut, redact_paths
from embedlab.grading.values import encode_value

INTERRUPTED = 130  # exit status after Ctrl-C (128 + SIGINT)
STOP_GRACE = 10.0  # seconds the runs get to clean up after Ctrl-C


# Grading one submission


@dataclass
class Trace:
    """What --explain prints of one submission: the inputs each function was called on and
    what was judged (filled in by grade_submission when given one)."""
    cases: dict = dataclasses.field(default_factory=dict)  # question -> list of argument tuples
    expected: dict = dataclasses.field(default_factory=dict)  # question -> key value or reference outputs
    submitted: dict = dataclasses.field(default_factory=dict)  # question -> the probe's entry
    parameters: dict | None = None
    questions: dict = dataclasses.field(default_factory=dict)  # question -> the Question judged (its variant's)


def grade_submission(sub: Submission, lesson_arg: str | None, limits: Limits, seed: int | None,
                     bwrap: str | None, keys: dict[str, LessonKeys] | None = None,
                     trace: Trace | None = None) -> list[Row]:
    """All rows for one submission. Raises GraderFault only for the grader's own failures.

    A pure function of the file (and, in class mode, the keys and who submitted it): the
    inputs of its function questions are the question's own and `seed`'s
    (embedlab.grading.cases), never the answer's text's or its place in a run. With `keys` (class mode),
    judged against its learner's variant (see `class_variant`)."""
    path = _kept_path(sub, lesson_arg, limits, seed, bwrap, keys) if trace is None else None
    rows = _kept_rows(path, sub)
    if rows is not None:
        return rows
    rows = _grade_submission(sub, lesson_arg, limits, seed, bwrap, keys, trace)
    # where text leaves the judge: no detail a learner reads (feedback, --explain, the CSV) names a folder
    # of the grading machine, whatever the submission put in its error texts (text.redact_paths)
    rows = [dataclasses.replace(row, detail=redact_paths(row.detail)) if "/" in row.detail else row for row in rows]
    if sub.submitter:  # the LMS says whose file it is: every row of it is theirs (a found file is never missing)
        rows = [row if row.learner else dataclasses.replace(row, learner=sub.submitter) for row in rows]
    if path is not None and rows and all(r.status in KEPT_STATUSES and r.submission == sub.label for r in rows):
        kept.keep(path, base64.b64encode(pickle.dumps([dataclasses.replace(r, submission="") for r in rows])).decode())
    return rows


KEPT_STATUSES = (CORRECT, INCORRECT, NOT_ATTEMPTED, ERROR, TO_MARK)  # judged answers: the same file, the same rows
KEPT_BYTES = 16 * 2**20  # a larger file is graded every time


def _kept_path(sub: Submission, lesson_arg, limits: Limits, seed, bwrap, keys):
    """Where this grading's rows are kept (embedlab.grading.kept, when a test asks: kept.GRADES_ENV), or None:
    named by the hash of the file's bytes, its name, folders and LMS record, the lesson asked for, the limits,
    the seed, sandboxed or not, and the keys."""
    if os.environ.get(kept.GRADES_ENV) != "1" or not sub.real or sub.problem or sub.problem_status:
        return None
    try:
        info = os.stat(sub.real, follow_symlinks=False)
        if not stat.S_ISREG(info.st_mode) or info.st_size > KEPT_BYTES:
            return None
        with open(sub.real, "rb") as f:
            data = f.read(KEPT_BYTES + 1)
    except OSError:
        return None
    record = dataclasses.replace(sub, path=Path(sub.path.name), label="", real="", mtime=0.0)
    return kept.path_for("grade", hashlib.sha256(data).hexdigest(), repr(record), lesson_arg, repr(limits), seed,
                         bool(bwrap), repr(keys))


def _kept_rows(path, sub: Submission) -> list[Row] | None:
    text = kept.read(path)
    if not isinstance(text, str):
        return None
    try:
        rows = pickle.loads(base64.b64decode(text))  # noqa: S301 - written by kept.keep above, in the tests' own folder
    except Exception:  # noqa: BLE001 - anything unreadable is graded again
        return None
    if not (isinstance(rows, list) and rows and all(isinstance(r, Row) for r in rows)):
        return None
    return [dataclasses.replace(r, submission=sub.label) for r in rows]


def settled() -> None:
    """Return once nothing a submission started is alive (sandbox.settle), else raise GraderFault:
    no result is written while something of a submission could still change it."""
    why = sandbox.settle()
    if why:
        raise GraderFault(f"{why}: no results written, as something the submissions started could change them")


def _grade_submission(sub: Submission, lesson_arg: str | None, limits: Limits, seed: int | None,
                      bwrap: str | None, keys: dict[str, LessonKeys] | None, trace: Trace | None) -> list[Row]:
    label = sub.label
    expected = lesson_arg or sub.lesson or lesson_from_name(sub.path)
    if sub.problem_status:
        return rows_all(label, expected, sub.problem_status, sub.problem)
    try:
        fd, size = open_submission(sub)
    except ValueError as exc:
        return rows_all(label, expected, UNREADABLE, str(exc))
    run = None
    try:
        run = Run(limits, bwrap)
        sent = run.send_notebook(fd, size)
        os.close(fd)
        fd = None
        message = run.receive("notebook", "unreadable") if sent else None
        if message is None:
            result = run.end(None)
            return rows_all(label, expected, result.state, result.detail)
        if "unreadable" in message:
            return rows_all(label, expected, UNREADABLE, cut(message["unreadable"]))
        meta = message["notebook"] if isinstance(message["notebook"], dict) else {}
        return _judge_run(run, sub, meta, expected, limits, seed, keys, trace)
    finally:
        if fd is not None:
            os.close(fd)
        if run is not None:
            run.close()


PREFIX = "__prefix__"  # given_lines' entry that is not a question's: the solution's cells above the answers


def given_lines(lesson: str, questions, mode: str = code.SELF_STUDY, parameters: dict | None = None) -> dict:
    """{question name: {"lines": the lines the exercise gives for it, "foreign": the parameters its answer
    never depends on, "solution": the solution's answer cell}} of the value questions, whose answer cell
    the kernel runs again on other inputs (embedlab.grading.elsewhere), and under PREFIX the solution's
    cells above them (code.solution_prefix: {"cells": [[source, is the parameters cell]], "upto": {name:
    how many come before its answer cell}}): the sandbox does not see the course's exercises/ and
    solutions/. Under wire.HANDED, every question's given lines as handed out in `mode` (code.given_code:
    [the given cells', the answer cell's own]), for the counterfactual of an edit of them."""
    given, foreign, solution = code.given_code(lesson, mode), code.foreign_inputs(lesson), code.solution_cells(lesson)
    out: dict = {q.name: {"lines": [*given[q.name][0], *given[q.name][1]], "foreign": sorted(foreign.get(q.name, ())),
                          "solution": solution.get(q.name, "")}
                 for q in questions if q.name in given and q.kind in ("integer", "real", "array", "choice", "design")}
    cells, upto = code.solution_prefix(lesson)
    if out and cells:
        out[PREFIX] = {"cells": [list(c) for c in cells], "upto": {k: v for k, v in upto.items() if k in out}}
    handed = {q.name: [list(given[q.name][0]), list(given[q.name][1])] for q in questions if q.name in given}
    if handed:
        out[wire.HANDED] = handed
    if parameters is not None and PREFIX in out:  # the parameters as handed out (embedlab.grading.changed)
        out[changed.PARAMETERS] = parameters
    return out


def _judge_run(run: Run, sub: Submission, meta: dict, expected: str | None, limits: Limits, seed: int | None,
               keys: dict[str, LessonKeys] | None, trace: Trace | None) -> list[Row]:
    """The rows of a submission whose notebook the sandbox has read (its metadata `meta`): its lesson,
    its learner's questions and key, the function cases sent to the sandbox, then every answer judged."""
    lesson, refused = _lesson_of(sub.label, meta, expected)
    if refused:
        return refused
    parameters = meta.get("parameters") if isinstance(meta.get("parameters"), dict) else None
    if trace is not None:
        trace.parameters = parameters
    learner, questions, key, refused = _questions_of(sub, meta, lesson, keys, parameters)
    if refused:
        return refused
    cases, reference = _function_cases(questions, lesson, seed, trace)
    mode = code.CLASS if keys is not None else code.SELF_STUDY  # judged as a class handout: what assign wrote
    # the parameters as handed out: a class notebook's own (checked above to be its
    # learner's variant's), else the book's
    handed = parameters if keys is not None else changed.handed_parameters(lesson)
    result = run.finish({"lesson": lesson, "cases": cases, "given": given_lines(lesson, questions, mode, handed),
                         "names": [q.name for q in questions_for(lesson)]})  # the worker imports no questions
    if result.state == FAULT:
        raise GraderFault(result.detail)
    if trace is not None:
        trace.expected = {q.name: reference.get(q.name, key.get(q.name)) for q in questions}
        trace.submitted = dict(result.answers or {})
        trace.questions = {q.name: q for q in questions}
    wait = result.report.get("cpu_wait")  # checked by sandbox.clean_report: seconds, or None (not known)
    return carried.note([Row(sub.label, lesson, q.name, *at_the_limit(q, result, limits, score(
                q, key, reference, result, limits, lesson, mode)), learner,
                *evidence(q, result), cpu_wait=wait, text=written_text(q, result),
                shown=shown_value(q, result))
            for q in questions])


def _lesson_of(label: str, meta: dict, expected: str | None) -> tuple[str | None, list[Row]]:
    """(the lesson a submission is judged as, []), or (None, its rows) when that cannot be told: the
    lesson expected (--lesson, the LMS assignment, the file name) and the one its metadata names."""
    actual = meta.get("lesson") if isinstance(meta.get("lesson"), str) else None
    if expected and actual and actual != expected:
        return None, rows_all(label, expected, WRONG_LESSON,
                              f"this notebook is exercise {cut(repr(actual), 60)} (its metadata), expected {expected}")
    lesson = expected or actual
    if lesson is None:
        return None, rows_all(label, None, WRONG_LESSON,
                              "cannot tell which exercise this is (no lesson in its metadata or file name): use --lesson")
    if lesson not in known_lessons():
        return None, rows_all(label, None, WRONG_LESSON, f"there is no exercise {cut(repr(lesson), 60)}")
    return lesson, []


def _questions_of(sub: Submission, meta: dict, lesson: str, keys: dict[str, LessonKeys] | None,
                  parameters: dict | None):
    """(learner, questions, key, []) to judge a submission of `lesson` with: the book's without `keys`,
    its learner's variant's with them (class mode); or ("", [], {}, its rows) when it is not judged (a
    class notebook without keys, a submitter or learner not told, parameters not the variant's)."""
    label = sub.label
    variant = meta.get("variant")
    named = meta.get("learner") if isinstance(meta.get("learner"), str) else None
    if keys is None:
        numbered = isinstance(variant, int) and not isinstance(variant, bool) and variant >= 1
        if numbered or named:
            what = f"variant {variant}" if numbered else f"learner {cut(repr(named), 80)}"
            return "", [], {}, rows_all(label, lesson, NEEDS_KEYS, (
                f"a class notebook ({what}): its answers are judged against its learner's variant: grade with "
                "--keys DIR/instructor-keys (embedlab-assign wrote it)"))
        return "", questions_for(lesson), load_key(lesson), []
    if sub.candidates and not sub.submitter:  # the LMS id names a learner per lesson: the notebook's
        owner = dict(sub.candidates).get(lesson)
        if owner is None:
            return "", [], {}, rows_all(label, lesson, UNKNOWN_SUBMITTER, (
                f"{cut(sub.submitter_source, 80)} is in the roster's moodle_id columns of "
                f"{', '.join(sorted(str(x) for x, _ in sub.candidates))}, not of {lesson} (the notebook's "
                "lesson): not graded"))
        sub = dataclasses.replace(sub, submitter=owner)
    learner, variant, status, why = class_variant(sub, meta, lesson, keys)
    if variant is None:
        return "", [], {}, [dataclasses.replace(row, learner=learner) for row in rows_all(label, lesson, status, why)]
    why = wrong_parameters(parameters, variant, keys[lesson], lesson)
    if why:
        return "", [], {}, [dataclasses.replace(row, learner=learner)
                            for row in rows_all(label, lesson, WRONG_PARAMETERS, why)]
    return learner, questions_for(lesson, variant.parameters), variant.key, []


def _function_cases(questions, lesson: str, seed: int | None, trace: Trace | None) -> tuple[dict, dict]:
    """({question: its cases, encoded for the sandbox}, {question: reference outputs}) of the function
    questions: the inputs are the question's own and the seed's, never the answer's."""
    cases, reference = {}, {}
    for q in questions:
        if isinstance(q, Function):
            args = q.cases(rng_for(lesson, q.name, seed))  # the question's and the seed's: not the answer's
            cases[q.name] = encode_value(list(args))
            reference[q.name] = q.expected_outputs(args)
            if trace is not None:
                trace.cases[q.name] = args
    return cases, reference


# --------------------------------------------------------------------------
# A class


def _not_graded(sub: Submission, lesson: str | None, keys=None,
                why: str = "not graded: the run was stopped before this submission was graded") -> list[Row]:
    """The rows of a submission the run did not grade: no points, not a zero, and the learner its
    folder or LMS names (so their totals count it as not graded, not missing)."""
    return [dataclasses.replace(row, points=None, learner=_owner_of(sub, keys))
            for row in rows_all(sub.label, lesson or lesson_from_name(sub.path), NOT_GRADED, why)]


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


# A time-out is graded again alone when its cells waited for a CPU at least this share of the cell
# limit (or when that wait is not known). A cell that waited less, and still ran past its limit,
# would have needed more than 90 % of its limit with no neighbour at all: that close to the limit
# it can run past it alone too (a slower machine, a busier moment); give such a cell a higher
# --cell-timeout. A cell that sleeps, waits on its own I/O, or spins on a core of its own waits
# far less, and is not graded again: its time-out is its own. Measured waits of a loop waking 20
# times a second through a 5 s limit: 0.3 % of its time beside two busy processes pinned to its
# core, 0.4-0.6 % at -j 2, 8.4 % during a whole `make test` (load 3-4 on 2 cores: the wake-up
# latency of a loaded machine, which is why the share is not lower).
RETRY_WAIT_SHARE = 0.1


def timed_out(rows: list[Row]) -> bool:
    """Whether any question of a submission's rows ran out of time (a cell, the whole run or a probe)."""
    return any(row.status == TIMEOUT for row in rows)


def neighbours_may_have_slowed(rows: list[Row], limits: Limits) -> bool:
    """Whether a submission's time-out may be its neighbours' doing, so that it is graded again
    alone: a `timeout` row whose run's timed-out cells waited for a CPU at least RETRY_WAIT_SHARE
    of the cell limit, or whose wait is not known (no sandbox, a task that ended during the cell,
    the whole run's limit). The wait is the submission's worker's report, untrusted: a made-up
    one can only buy its own submission a second grade, which stops at the whole run's limit."""
    share = RETRY_WAIT_SHARE * limits.cell_timeout
    return any(row.status == TIMEOUT and (row.cpu_wait is None or row.cpu_wait >= share) for row in rows)


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

    def one(i, alone=False):
        if stopping.is_set():
            return
        sub = submissions[i]
        try:
            rows = grade_submission(sub, lesson, limits, seed, bwrap, keys)
            fault = None
        except Exception as exc:  # noqa: BLE001 - report it, grade the others
            why = str(exc) if isinstance(exc, GraderFault) else f"{type(exc).__name__}: {exc}"
            fault = f"{sub.label}: {cut(why)}"
            rows = _not_graded(sub, lesson, keys, f"not graded: grader fault: {cut(why)}")
        with lock:
            if stopping.is_set():
                return  # killed by Ctrl-C: its rows would not be its score
            if fault and alone:
                fault += " (when graded again alone: its first grade, from beside the others, stands)"
            else:
                results[i] = rows
            if fault:
                faults.append(fault)
            if progress:
                progress(f"{sub.label} (again, alone)" if alone else sub.label, rows)

    sandbox.reset_stop()
    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = []
    try:
        futures = [pool.submit(one, i) for i in range(len(submissions))]
        for future in futures:
            future.result()
        if jobs > 1:
            # A time-out while other submissions ran beside it may be theirs: a neighbour busy on every
            # core slows its cells past their limit. Each submission whose timed-out cells waited for a
            # CPU (or may have: neighbours_may_have_slowed) is graded again with nothing else running,
            # and that grade is its grade: one submission never costs another points.
            again = [i for i in sorted(results) if neighbours_may_have_slowed(results[i], limits)]
            pool.shutdown(wait=True)
            pool = ThreadPoolExecutor(max_workers=1)
            futures = [pool.submit(one, i, True) for i in again]
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



def grade_and_write(args, submissions: list[Submission], limits: Limits, bwrap: str | None,
                    keys: dict[str, LessonKeys] | None, roster, fmt: str, outputs: dict, no_group: str,
                    policy: Policy | None = None, marks: dict | None = None) -> int:
    """A run of embedlab-grade (`args` as the command line parsed them): every submission graded,
    then, once nothing a submission started is alive, the CSV (and the totals and gradebook) written
    and the summary printed. The exit status: 0, 1 (a grader fault), 2 (the `policy` cannot be applied
    to these grades: nothing is written) or INTERRUPTED."""
    done = []
    how: dict = {}
    handed_back = ""

    def progress(label, rows):
        again = label.endswith(" (again, alone)")  # a time-out graded again: not one more submission
        if not again:
            done.append(label)
        if not args.quiet:
            got, best = sum(r.points or 0.0 for r in rows), sum(r.max_points for r in rows)
            count = "again" if again else f"{len(done)}/{len(submissions)}"
            print(f"[{count}] {label}: {format_points(got)} / {format_points(best)}", file=sys.stderr, flush=True)

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
        # the instructor's marks of written answers are grading (scores.csv holds them); the policy's switches
        # (error carried forward, typed values) are the policy's: read by everything but scores.csv
        rows = manual.merge(rows, marks or {})
        raw = rows
        if policy is not None:
            rows = carried.apply(rows, policy.no_carry, policy.typed_ok)
        how = {"complete": code != INTERRUPTED, "rule": args.rule, "lessons": [args.lesson] if args.lesson else [],
               "mtimes": {s.label: (-1 if s.order is None else s.order, s.mtime) for s in submissions},
               "late": frozenset(s.label for s in submissions if s.late),
               # the files whose learner the layout says (a learner's folder, the LMS): --latest trusts
               # only these to be the learner's own (results.totals)
               "placed": frozenset(s.label for s in submissions if _owner_of(s, keys)),
               "trust_metadata": bool(getattr(args, "trust_metadata", False))}
        scope = getattr(args, "scope", None)
        if scope is not None:
            how["scope"] = scope
        kept = getattr(args, "kept", None)  # --merge: the term's totals this run adds to
        if policy is not None and keys is not None:
            try:  # the policy merged once before any file is written: refused, nothing is half-applied
                merged = totals(rows, keys, **how, policy=policy)
            except PolicyError as exc:
                print(f"--policy: {exc}", file=sys.stderr)
                return 2
            how["policy"] = policy
        write_csv(raw, outputs["--out"])
        if args.totals:
            write_totals(rows, keys, outputs["--totals"], kept=kept, **how)
        if args.gradebook:
            write_class_gradebook(outputs["--gradebook"], rows, keys, roster, fmt, how, kept=kept)
        if getattr(args, "report", None):
            try:  # the grades are written: a report that fails says why, and the run ends with 1
                write_report(outputs["--report"], rows, keys, how, force=args.force)
            except ValueError as exc:  # a file appeared there during the run, or the folder went away
                print(f"--report not written: {exc}", file=sys.stderr)
                code = code or 1
            except Exception as exc:  # noqa: BLE001 - the report's own fault: never lose the grades for it
                print(f"--report not written: grader fault: {type(exc).__name__}: {cut(str(exc))}", file=sys.stderr)
                code = code or 1
        if getattr(args, "feedback", None):
            try:  # the grades are written: feedback that fails says why, and the run ends with 1
                written = write_feedback(Path(args.feedback), rows, keys, how, submissions=submissions,
                                         roster=roster, layout=args.layout, force=args.force,
                                         policy=how.get("policy"),
                                         book_url=getattr(args, "book_url", "") or "")
                handed_back = written.summary(Path(args.feedback))
            except ValueError as exc:  # a file appeared there during the run, or the folder went away
                print(f"--feedback not written: {exc}", file=sys.stderr)
                code = code or 1
            except Exception as exc:  # noqa: BLE001 - the feedback's own fault: never lose the grades for it
                print(f"--feedback not written: grader fault: {type(exc).__name__}: {cut(str(exc))}",
                      file=sys.stderr)
                code = code or 1
        if getattr(args, "manual", None):
            try:  # the grades are written: marking pages that fail say why, and the run ends with 1
                manual.write_marking(Path(args.manual), rows, keys, roster)
            except (OSError, ValueError) as exc:
                print(f"--manual not written: {exc}", file=sys.stderr)
                code = code or 1
    finally:
        if in_main:
            signal.signal(signal.SIGTERM, old_term)
    print_summary(rows, submissions, outputs, stopped=code == INTERRUPTED, seconds=time.monotonic() - start,
                  seed=args.seed, totals=bool(args.totals), keys=keys, rule=args.rule, bwrap=bwrap,
                  no_group=no_group, limits=limits, how=how)
    if scope is not None and keys is not None:
        print(scope_summary(scope, rows, keys, how, kept))
    if how.get("policy") is not None:
        print(policy.summary(merged))
        for line in policy.not_in_run(merged):
            print(f"  {line}")
    if handed_back:
        print(handed_back)
    written = manual.summary(rows, getattr(args, "manual", None))
    if written:
        print(written)
    for fault in faults:
        print(f"grader fault: {fault}", file=sys.stderr)
    return code
