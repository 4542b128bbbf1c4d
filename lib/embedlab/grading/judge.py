"""Judging one submission's plain data: a row per question (the grader's side of the wire).

What comes back from the sandbox (sandbox.RunResult: the probe's entries, the report of
the cells that raised or timed out, the answer cells' source) is judged here against the
answer key or the reference outputs, by the question's own `judge`: never by running the
submission's objects.
"""

from __future__ import annotations

import hashlib
import json
import dataclasses
from dataclasses import dataclass, field

from embedlab.grading import changed, earlier, wire
from embedlab.grading.code import (OTHER, RIGHT, SAME, SELF_STUDY, edit_hint, given_code, given_edits, harmless, restored,
                                   with_marker)
from embedlab.grading.explain import with_source
from embedlab.grading.kinds import CARRIED, WRITTEN_LIMIT, Function, Question, carried_data
from embedlab.grading.lessons import questions_for
from embedlab.grading.sandbox import Limits, RunResult
from embedlab.grading.status import CORRECT, CRASHED, ERROR, INCORRECT, MEMORY, NOT_ATTEMPTED, TIMEOUT, TO_MARK
from embedlab.grading.text import (as_sentences, cut, did_not_parse, error_line,
                                   missing_words, raised_words)
from embedlab.grading.variants import look_question



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
    # For the class report's shared-work check only (embedlab.grading.report), never written to the CSV:
    # the answer cell's source as the sandbox reported it, and a fingerprint of the value submitted.
    source: str = field(default="", compare=False, repr=False)
    answer: str = field(default="", compare=False, repr=False)
    # For the grader's time-out retry only (grader.neighbours_may_have_slowed), never written to the CSV:
    # the most seconds one of the run's timed-out cells waited for a CPU; None when not known.
    cpu_wait: float | None = field(default=None, compare=False, repr=False)
    # A written answer (kinds.Written), never written to the CSV: its text as the sandbox reported it (for the
    # marking page), and once marked, the instructor's (criterion, points, max points, comment) per criterion.
    text: str = field(default="", compare=False, repr=False)
    shown: str = field(default="", compare=False, repr=False)  # the value submitted, short (the marking page)
    criteria: tuple = field(default=(), compare=False, repr=False)


class GraderFault(Exception):
    """Something wrong with the grader or its installation, not with a submission."""


def score(q: Question, key: dict, reference: dict, result: RunResult, limits: Limits, lesson: str | None = None,
          mode: str = SELF_STUDY):
    """(points, max_points, status, detail) for one question, judged here on plain data. With the
    `lesson`, a wrong answer whose cells edit the code the exercise gives (as handed out in `mode`: a
    class handout's own, code.handed_out; read from the submitted cells the sandbox reports) is told
    so when the edit explains it: the same cells with the edited lines put back give the right answer
    (the kernel's counterfactual, wire.HANDED_OUT); otherwise its own hint stands (`given_hint`)."""
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
        return 0.0, q.points, NOT_ATTEMPTED, cut(entry[wire.NOT_ATTEMPTED])
    if wire.WRONG_FORM in entry:
        return 0.0, q.points, INCORRECT, cut(entry[wire.WRONG_FORM])
    if wire.RAISED in entry:
        return 0.0, q.points, ERROR, f"reading the answer raised {cut(entry[wire.RAISED])}"
    raised = _defining_cell_raised(q, result)  # its value is then not the cell's: said, as the notebook check says it
    if raised:
        return (0.0, q.points) + raised
    if wire.DATA not in entry:
        return 0.0, q.points, ERROR, "the grader's probe reported nothing for this question"
    if isinstance(q, Function):
        expected = reference[q.name]
    elif q.kind == "written":  # marked by the instructor (embedlab.grading.manual): no key to judge against
        expected = None
    elif q.name in key:
        expected = key[q.name]
    else:
        raise GraderFault(f"no answer key entry for {q.name!r}: run `make exercises`")
    sources = result.report.get("sources")  # the answer cells' source, from the sandbox: read, never run
    cell = sources.get(q.name) if isinstance(sources, dict) else None
    # the hints read the learner's own lines: the given ones (as handed out) marked off as in the handout
    source = with_marker(cell, given_code(lesson, mode).get(q.name, ((), ()))[1]) if lesson else cell
    try:
        judged = with_source(q, source, key, entry.get(wire.ELSEWHERE))
        if getattr(q, "kind", "") == "written":  # read against the carried answers, as the notebook's check reads them
            judged = judged.with_known(carried_data(q, lambda c: answers[c].get(wire.DATA)
                                                    if isinstance(answers.get(c), dict) else None))
        looked = lesson or getattr(q, "lesson", "")  # the question knows its lesson (lessons.questions_for)
        if looked and not isinstance(q, Function):  # a hint is weighed on the second looks too (kinds._support)
            judged = dataclasses.replace(judged, at_look=look_question(looked, q.name))
        verdict = judged.judge(entry[wire.DATA], expected)
    except Exception as exc:  # noqa: BLE001 - malformed data from the submission's kernel
        return 0.0, q.points, ERROR, f"the answer could not be judged ({type(exc).__name__})"
    if verdict.status == CORRECT:  # a detail only for an answer judged on the learner's own earlier figures
        return q.points, q.points, CORRECT, cut(verdict.detail, 900) if verdict.detail.startswith(CARRIED) else ""
    if verdict.status in (TO_MARK, NOT_ATTEMPTED):  # a written answer: to mark, or nothing of the learner's own
        return 0.0, q.points, verdict.status, cut(verdict.detail)
    detail = verdict.detail
    looked = lesson or getattr(q, "lesson", "")
    if looked and q.kind != "written":
        # an earlier answer its own lines read that is not right yet is said first (embedlab.grading.earlier), as the
        # notebook's check says it: judged here as the grader judges that question
        def is_wrong(earlier_q) -> bool:
            try:
                return score(earlier_q, key, reference, result, limits, looked, mode)[2] == INCORRECT
            except Exception:  # noqa: BLE001
                return False
        try:
            detail = earlier.hint(q, detail, source, given_code(looked, mode).get(q.name), questions_for(looked),
                                  is_wrong, entry.get(earlier.EARLIER), key, expected, entry[wire.DATA])
        except Exception:  # noqa: BLE001 - the submission's text: what cannot be read is not said
            detail = verdict.detail
    detail = given_hint(q, detail, expected, entry, result.report.get("code"), cell, lesson, mode,
                        key) if lesson else detail
    # a parameter the question reads, changed from the value handed out: said before any story, as the check says it
    detail = changed.hint(q, entry.get(changed.CHANGED), entry[wire.DATA]) or detail
    return 0.0, q.points, INCORRECT, cut(as_sentences(detail))  # as the check says


def given_hint(q: Question, detail: str, expected, entry: dict, sources, source, lesson: str, mode: str,
               key: dict | None = None) -> str:
    """A wrong answer's hint, its edits of the given code weighed (code.edit_hint) by the counterfactual
    the kernel reported beside it (wire.HANDED_OUT), judged here as the answer itself is."""
    try:
        edits = [e for e in given_edits(lesson, q.name, sources, source, mode) if not harmless(e, sources, source)]
    except Exception:  # noqa: BLE001 - the submission's text: an edit that cannot be read is not named
        return detail
    if not edits:
        return detail
    counter = entry.get(wire.HANDED_OUT)
    how, other = None, None
    if isinstance(counter, dict):
        if counter.get("same") is True:
            how = SAME
        elif wire.RAISED in counter:
            how = OTHER
        elif wire.DATA in counter:
            try:  # judged as the answer is, its cell read with the edited lines put back
                back = with_marker(restored(source, edits) or source, given_code(lesson, mode).get(q.name, ((), ()))[1])
                verdict = with_source(q, back, key).judge(counter[wire.DATA], expected)
                how, other = (RIGHT, None) if verdict.status == CORRECT else (OTHER, verdict.detail)
            except Exception:  # noqa: BLE001 - malformed data from the submission's kernel: not known
                how = None
    return edit_hint(detail, edits, how, other)


def at_the_limit(q: Question, result: RunResult, limits: Limits, scored: tuple) -> tuple:
    """`score`'s (points, max_points, status, detail) for `q`, said again when a cell the sandbox stopped at
    the cell limit left the answer it judged: the cell that defines it (its value is whatever it had
    left then, right or wrong: a wrong one is `timeout`, a right one keeps its points, and both say so),
    or, for a wrong answer, a cell above it (what that cell was computing may be partial)."""
    points, best, status, detail = scored
    report = result.report if isinstance(result.report, dict) else {}
    stopped = [c for c in report.get("timeouts", []) if type(c) is int]
    cell = report.get("defines", {}).get(q.name)
    if not stopped or type(cell) is not int or status not in (CORRECT, INCORRECT):
        return scored  # a missing answer's time-out is said by `_why_missing`; a whole run's by its state
    limit = f"{limits.cell_timeout:g} s cell limit"
    if cell in stopped:
        where = f"{_cell(report, cell)}, which defines `{q.name}`, ran past the {limit} and was stopped"
        if status == CORRECT:  # its own note first (judged on an earlier figure of theirs), then the limit's
            said = f"{where}; the value it had left then is right"
            return points, best, CORRECT, cut(f"{detail} ({said})" if detail else said)
        return points, best, TIMEOUT, cut(f"{where}; the value it had left then was graded: {detail}")
    above = [c for c in stopped if c < cell]
    if status == INCORRECT and above:
        return points, best, status, cut(f"{detail} ({_cell(report, above[0])}, above it, ran past the {limit} "
                                         "and was stopped: what it computed may be partial)")
    return scored


def evidence(q: Question, result: RunResult) -> tuple[str, str]:
    """(the answer cell's source, a fingerprint of the submitted value: 16 hex digits of a hash of its
    plain data, "" when none) of question `q` in a run's result: what the class report compares between
    learners of one variant. Plain data only; nothing of the submission is run."""
    sources = result.report.get("sources") if isinstance(result.report, dict) else None
    source = sources.get(q.name) if isinstance(sources, dict) else None
    entry = (result.answers or {}).get(q.name) if isinstance(result.answers, dict) else None
    answer = ""
    if isinstance(entry, dict) and wire.DATA in entry:
        try:
            blob = json.dumps(entry[wire.DATA], sort_keys=True, default=repr).encode("utf-8", "surrogatepass")
            answer = hashlib.sha256(blob).hexdigest()[:16]
        except (TypeError, ValueError, RecursionError):
            answer = ""
    return (source if isinstance(source, str) else ""), answer


def written_text(q: Question, result: RunResult) -> str:
    """A written answer's text as the sandbox reported it ("" for any other question, or no text): plain
    data, shown escaped on the instructor's marking page (embedlab.grading.manual)."""
    if getattr(q, "kind", "") != "written" or not isinstance(result.answers, dict):
        return ""
    entry = result.answers.get(q.name)
    data = entry.get(wire.DATA) if isinstance(entry, dict) else None
    text = data.get("text") if isinstance(data, dict) else None
    return text[:WRITTEN_LIMIT] if isinstance(text, str) else ""


SHOWN_LIMIT = 320  # characters of a submitted value shown on the instructor's marking page


def shown_value(q: Question, result: RunResult) -> str:
    """A non-function answer's submitted value as short text, for the instructor's marking page (the
    learner's own figures beside their written answer); "" for a function, a written answer or none."""
    if isinstance(q, Function) or getattr(q, "kind", "") == "written" or not isinstance(result.answers, dict):
        return ""
    entry = result.answers.get(q.name)
    if not isinstance(entry, dict) or wire.DATA not in entry:
        return ""
    data = entry[wire.DATA]
    if isinstance(data, dict) and q.name in data:  # a Design: its own answer among those it is judged with
        data = data[q.name]
    if isinstance(data, dict) and len(data) == 1 and next(iter(data)) in ("int", "real", "float", "str"):
        data = next(iter(data.values()))
    try:
        text = data if isinstance(data, str) else json.dumps(data, default=repr)
    except (TypeError, ValueError, RecursionError):
        return ""
    return cut(text, SHOWN_LIMIT)


def _cell(report: dict, index) -> str:
    """A cell as the learner finds it in JupyterLab (the worker's label: the heading above it, its
    first line, its execution count), from the sandbox's report: text, cut and escaped."""
    labels = report.get("labels")
    label = labels.get(str(index)) if isinstance(labels, dict) else None
    if isinstance(label, str) and label:
        return cut(label, 240)
    return "a code cell"


def _defining_cell_raised(q: Question, result: RunResult):
    """(status, detail) when the cell that defines the answer (or an answer it is judged with: a Design's `uses`)
    raised, though the name holds a value (set by another cell above it, or before the error): the value is not
    judged, in the notebook check's words (text.raised_words); None otherwise."""
    report = result.report if isinstance(result.report, dict) else {}
    errors = [e for e in report.get("errors", []) if isinstance(e, dict) and e.get("cell") is not None]
    defines = report.get("defines", {}) if isinstance(report.get("defines"), dict) else {}
    stopped = set(c for c in report.get("timeouts", []) if type(c) is int)  # said by at_the_limit, as stopped
    for name in (q.name, *getattr(q, "uses", ())):
        cell = defines.get(name)
        own = [e for e in errors if type(cell) is int and cell not in stopped and e["cell"] == cell]
        if not own:
            continue
        which = "your answer cell" if name == q.name else f"the cell that defines `{name}`"  # the check's words
        error = error_line(cut(own[0].get("ename")), cut(own[0].get("evalue")))
        status = MEMORY if own[0].get("ename") == "MemoryError" else ERROR
        cell = _reported_source(report, name)
        return status, cut(raised_words(which, error, name, cell))
    return None


def _reported_source(report: dict, name: str) -> str | None:
    """The source of the cell that defines `name`, as the sandbox reported it (read,
    never run): which of its lines ran when it failed to compile (compiled_from)."""
    sources = report.get("sources") if isinstance(report, dict) else None
    cell = sources.get(name) if isinstance(sources, dict) else None
    return cell if isinstance(cell, str) else None


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
    if own and did_not_parse(error_line(cut(own[0].get("ename")), "")):
        # the answer cell did not parse: in the notebook check's words (text.missing_words)
        error = error_line(cut(own[0].get("ename")), cut(own[0].get("evalue")))
        return ERROR, cut(missing_words("your answer cell", error, q.name,
                                        _reported_source(report, q.name)))
    if own:
        return ERROR, (f"`{q.name}` is not defined; {_cell(report, cell)} raised "
                       f"{cut(own[0].get('ename'))}: {cut(own[0].get('evalue'))}")
    if timeouts:
        return TIMEOUT, (f"`{q.name}` is not defined; {_cell(report, timeouts[0])} ran past the "
                           f"{limits.cell_timeout:g} s cell limit and was interrupted")
    memory = [e for e in errors if e.get("ename") == "MemoryError"]
    if memory:
        return MEMORY, f"`{q.name}` is not defined; {_cell(report, memory[0]['cell'])} ran out of memory"
    if errors:
        first = errors[0]
        return ERROR, (f"`{q.name}` is not defined; {_cell(report, first['cell'])} raised "
                         f"{cut(first.get('ename'))}: {cut(first.get('evalue'))}")
    return NOT_ATTEMPTED, f"`{q.name}` is not defined"


def _probe_failure(result: RunResult) -> str:
    for error in result.report.get("errors", []):
        if isinstance(error, dict) and error.get("cell") is None:
            return f"it raised {cut(error.get('ename'))}: {cut(error.get('evalue'))}"
    return "it did not report"


def rows_all(label: str, lesson: str | None, status: str, detail: str) -> list[Row]:
    """Rows for a submission that was not run (or not to the end): one per question of its lesson."""
    try:
        questions = questions_for(lesson) if lesson else []
    except ValueError:
        questions = []
    if not questions:
        return [Row(label, lesson or "", "", 0.0, 0.0, status, detail)]
    return [Row(label, lesson, q.name, 0.0, q.points, status, detail) for q in questions]
