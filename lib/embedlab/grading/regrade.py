"""embedlab-grade --explain: one submission's grade question by question, for a regrade request.

It grades the one file as a run would (grader.grade_submission, with a Trace) and prints,
for the instructor, each question's verdict with the expected and submitted values, the
inputs of each function case and the hint.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from embedlab.grading import wire
from embedlab.grading.grader import GraderFault, Trace, grade_submission, settled
from embedlab.grading.kinds import Design
from embedlab.grading.results import _points
from embedlab.grading.sandbox import Limits
from embedlab.grading.status import format_points
from embedlab.grading.submissions import Submission
from embedlab.grading.text import printable, redact_paths
from embedlab.grading.values import data_to_array


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
    entry = trace.submitted.get(row.question)
    question = trace.questions.get(row.question)
    if isinstance(question, Design):  # judged against the learner's own answers: the key is another design's
        data = entry.get(wire.DATA) if isinstance(entry, dict) else None
        wanted = question.expected_for(data)
        if wanted is not None:
            print(f"  expected for the learner's own design: {printable(_short(wanted))}")
        else:
            print(f"  expected: no single value: {question.statement()} (the rule's words below)")
    elif row.question in trace.expected and row.question not in trace.cases:
        print(f"  expected:  {printable(_short(trace.expected[row.question]))}")
    if row.question in trace.cases:
        outputs = entry.get(wire.DATA) if isinstance(entry, dict) else None
        for i, (args, want) in enumerate(zip(trace.cases[row.question], trace.expected[row.question]), 1):
            got = outputs[i - 1] if isinstance(outputs, list) and i <= len(outputs) else None
            call = want.get("call") if isinstance(want, dict) and isinstance(want.get("call"), str) else None
            print(f"  case {i}: {printable(call[:300] if call else _short(args, 300))}")
            print(f"    expected:  {printable(_short(want.get('out') if isinstance(want, dict) else want))}")
            print(f"    submitted: {redact_paths(printable(_short(got)))}")
    elif isinstance(entry, dict):
        if wire.DATA in entry:
            print(f"  submitted: {redact_paths(printable(_short(entry[wire.DATA])))}")
        elif wire.MISSING in entry:
            print("  submitted: nothing (the answer is not defined)")
        else:  # not attempted, the wrong form, or reading it raised: the probe's words, not a value
            tag = next((t for t in wire.TAGS if t in entry), None)
            said = entry.get(tag) if tag else None
            print(f"  submitted: no value ({tag or 'unknown'}" + (f": {redact_paths(printable(_short(said)))})"
                                                                   if isinstance(said, str) else ")"))
    if row.detail:
        print(f"  hint/detail: {row.detail}")


READABLE_DEPTH = 20  # nesting shown by --explain; deeper data (a submission's, never a key's) is cut


def _readable(value, depth: int = 0):
    """An answer as the probe sends it ({"real": x}, an encoded array...) as a reader writes it.
    Data a submission sent is never recursed into without a bound: past READABLE_DEPTH levels
    it is shown as "…"."""
    if depth >= READABLE_DEPTH:
        return "…"
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
    value = _readable(value)
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, default=str)
        except (TypeError, ValueError, RecursionError):
            text = "(not shown: not plain data)"
    return text if len(text) <= limit else text[:limit - 1] + "…"
