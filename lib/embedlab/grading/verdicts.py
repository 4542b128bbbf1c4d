"""One live answer judged as the notebook's check judges it, and the usual slips a lesson's
hints must tell apart.

* `evaluate`: a learner's value (in the kernel) through the question's `to_data` and
  `judge`, never raising: what Exercise.check prints, and what the tests judge with.
* `untold_slips`: the usual slips of a lesson that its hints do not name; a question
  module's `problems` rejects a class variant with any.

Below the question modules (they import it), above the question kinds.
"""

from __future__ import annotations

from embedlab.grading.explain import with_source
from embedlab.grading.kinds import MISSING, Array, Function, NotAttempted, Question, Verdict, WrongForm
from embedlab.grading.status import ERROR, INCORRECT, NOT_ATTEMPTED


def evaluate(question: Question, value, expected, cases=None, source: str | None = None,
             others: dict | None = None, elsewhere: list | None = None) -> Verdict:
    """Judge one live value (as the notebook check does), with the answer cell's `source` when
    known (read for hints, never run), the exercise's other answers (`others`, its key) and what the
    learner's lines gave on the question's other inputs (`elsewhere`, embedlab.grading.elsewhere). Never raises."""
    try:
        question = with_source(question, source, others, elsewhere)
        if value is MISSING:
            raise NotAttempted(f"`{question.name}` is not defined yet: {question.prompt}")
        if value is Ellipsis:
            raise NotAttempted(f"`{question.name}` is still `...`: {question.prompt}")
        if isinstance(question, Function):
            data = question.run_cases(value, cases)
            expected = question.expected_outputs(cases)
        else:
            data = question.to_data(value)
        return question.judge(data, expected)
    except NotAttempted as exc:
        return Verdict(NOT_ATTEMPTED, 0.0, question.points, str(exc))
    except WrongForm as exc:
        return Verdict(INCORRECT, 0.0, question.points, str(exc))
    except Exception as exc:  # noqa: BLE001 - a check must never stop the notebook
        return Verdict(ERROR, 0.0, question.points, f"the check could not run ({type(exc).__name__}: {exc})")


def untold_slips(questions, answers: dict, slips) -> list[str]:
    """The usual slips (name, wrong value, words its hint must say[, the answer cell's source]) that
    the check does not tell apart: judged not wrong, or without those words. A class variant's
    `problems` rejects a variant with any, so every learner's mistakes get the same teaching. Slips
    on a question with no answer here (a fixed one) are left to the tests. A slip without a source is
    judged as a number typed by hand; one whose wrong value is also a rounding of the right one (a
    head's biases, n_new numbers, left out of n_new · 2d) is only told apart in the code that makes it,
    so it comes with that code."""
    by_name = {q.name: q for q in questions}
    out = []
    for name, value, words, *source in slips:
        if name not in answers:
            continue
        q, want = by_name[name], answers[name]
        verdict = evaluate(q, value, q.to_data(want) if isinstance(q, Array) else want,
                           source=source[0] if source else None)
        if verdict.status != INCORRECT or words not in verdict.detail:
            out.append(f"{name}: the slip {value!r} does not get its hint ({words!r}; got {verdict.detail!r})")
    return out
