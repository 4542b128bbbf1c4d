"""Error carried forward and typed values: what a run's rows say of them, and what the policy does.

A question whose inputs include the learner's own earlier answers declares them (`carries` of a
kinds.Design): it is judged on the learner's values. Its row says so ("judged on your own figure for
`design_serving_gb`", kinds.carried_note) when it earns its points only because of that: right from an
earlier answer that is itself off, either as the question's `carry` found (its own figures) or because
an earlier answer it is judged on (the learner's `design`) did not earn its points (`note`, per file).
The report counts those rows (`count`), and the feedback shows the words.

The course's policy (embedlab.grading.policy, `[lesson."NN-slug"]`) may switch both rules per lesson:

    carry_forward = false   a carried answer gets what the recounted figures give: 0, with their words
    accept_typed = true     a right value typed instead of computed (its detail says kinds.TYPED: the
                            grader reruns the cell on other inputs) gets its points

`apply` returns the rows the totals, gradebooks, report and feedback read; scores.csv stays raw.
"""

from __future__ import annotations

import dataclasses

from embedlab.grading.earlier import OWN_TOO
from embedlab.grading.judge import Row
from embedlab.grading.kinds import CARRIED, TYPED, carried_note, recounted_problem
from embedlab.grading.lessons import questions_for
from embedlab.grading.status import CORRECT, INCORRECT

NOT_CARRIED = "this lesson's policy judges it on the recounted figures only (no error carried forward)"
TYPED_ACCEPTED = "typed, not computed: accepted by the course's policy"


def _carries(lesson: str) -> dict:
    try:
        return {q.name: tuple(getattr(q, "carries", ())) for q in questions_for(lesson)}
    except ValueError:
        return {}


def note(rows: list[Row]) -> list[Row]:
    """One file's rows, each right answer judged on an earlier answer that did not earn its points
    (declared in `carries`) saying so. Rows already carried, or of no such question, stay as they are."""
    by_name = {r.question: r for r in rows if r.question}
    carries = _carries(rows[0].lesson) if rows else {}
    out = []
    for r in rows:
        earlier = [c for c in carries.get(r.question, ()) if c in by_name and by_name[c].status != CORRECT]
        if r.status == CORRECT and not r.detail and earlier:
            r = dataclasses.replace(r, detail=carried_note(earlier, f"{', '.join(f'`{c}`' for c in earlier)} "
                                                                    "did not earn its points"))
        out.append(r)
    return out


def is_carried(r: Row) -> bool:
    return r.status == CORRECT and isinstance(r.detail, str) and r.detail.startswith(CARRIED)


def is_typed(r: Row) -> bool:
    """A right value refused because it was typed: its detail starts with kinds.TYPED, or says it right after the
    earlier answers it is worked out from are named (embedlab.grading.earlier: "…: fix question 3, and this
    answer's own lines too: typed, not computed; …")."""
    return r.status == INCORRECT and isinstance(r.detail, str) and (
        r.detail.startswith(TYPED) or f"{OWN_TOO}{TYPED}" in r.detail)


def apply(rows: list[Row], no_carry=frozenset(), typed_ok=frozenset()) -> list[Row]:
    """The rows as the policy reads them: in a lesson of `no_carry`, a carried answer judged on the
    recounted figures (0); in a lesson of `typed_ok`, a right value typed instead of computed given its
    points. A new list; the rows given are not changed."""
    out = []
    for r in rows:
        if r.lesson in no_carry and is_carried(r):
            strict = recounted_problem(r.detail) or "not right on the recounted figures"
            r = dataclasses.replace(r, points=0.0, status=INCORRECT, detail=f"{strict}; {NOT_CARRIED}")
        elif r.lesson in typed_ok and is_typed(r):
            r = dataclasses.replace(r, points=r.max_points, status=CORRECT, detail=TYPED_ACCEPTED)
        out.append(r)
    return out


def count(rows: list[Row]) -> dict:
    """{question: how many answers earned their points on the learner's own earlier figures}."""
    out = {}
    for r in rows:
        if is_carried(r):
            out[r.question] = out.get(r.question, 0) + 1
    return out
