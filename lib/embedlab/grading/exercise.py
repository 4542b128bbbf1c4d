"""The check a learner runs in the notebook: ``Exercise(lesson).check(name)``.

It runs both halves of a question in the learner's kernel (``to_data``, then
``judge`` against the answer key) and prints one line: ✅ correct, ❌ not yet
(with a hint), or ⏳ not attempted yet. It never raises, so a blank exercise
still runs top to bottom. The grader does not read these lines: it probes the
answers itself (embedlab.grading.wire) and judges them in its own process.
"""

from __future__ import annotations

import sys
import textwrap

import numpy as np

from embedlab.grading.kinds import MISSING, Function, NotAttempted, Question, Verdict, WrongForm, answer_of
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.status import CORRECT, ERROR, INCORRECT, NOT_ATTEMPTED, format_points


def evaluate(question: Question, value, expected, cases=None) -> Verdict:
    """Judge one live value (as the notebook check does). Never raises."""
    try:
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


class Exercise:
    """The checks of one lesson's exercise notebook.

    >>> ex = Exercise("01-toy-table")   # first code cell of the exercise
    >>> ex.check("n_params")            # after each answer cell
    """

    def __init__(self, lesson: str):
        self.lesson = lesson
        self.questions = {q.name: q for q in questions_for(lesson)}
        self.key = load_key(lesson)

    def verdict(self, name: str, namespace: dict) -> Verdict:
        """Judge one question against a namespace (the notebook's globals). Never raises."""
        question = self.questions[name]
        value = answer_of(question, namespace)
        if isinstance(question, Function):
            return evaluate(question, value, None, question.cases(np.random.default_rng(0)))
        if name not in self.key:
            return Verdict(ERROR, 0.0, question.points, "no answer key for this question (run `make exercises`)")
        return evaluate(question, value, self.key[name])

    def check(self, name: str, namespace: dict | None = None) -> None:
        """Print ✅/❌/⏳ for one question. Looks the answer up by name itself."""
        try:
            if namespace is None:
                namespace = sys._getframe(1).f_globals
            if name not in self.questions:
                say(f"❌ {name}: this exercise has no question called {name!r}")
                return
            say(fold(self.verdict(name, namespace).line(name)))
        except Exception as exc:  # noqa: BLE001
            say(f"❌ {name}: the check could not run ({type(exc).__name__}: {exc})")

    def summary(self, namespace: dict | None = None) -> None:
        """Print every question's line, the points so far, and which questions are not attempted
        yet or not yet right (the grader's own score may differ: it also tests functions on
        fresh random inputs)."""
        try:
            if namespace is None:
                namespace = sys._getframe(1).f_globals
            got = 0.0
            lines = []
            missing, wrong = [], []
            for name in self.questions:
                verdict = self.verdict(name, namespace)
                got += verdict.points
                lines.append(fold(verdict.line(name)))
                if verdict.status == NOT_ATTEMPTED:
                    missing.append(name)
                elif verdict.status != CORRECT:
                    wrong.append(name)
            lines.append(f"{format_points(got)} / {format_points(self.total())} points")
            for label, names in (("not attempted yet", missing), ("not yet right", wrong)):
                if names:
                    lines.append(textwrap.fill(f"{label} ({len(names)}): {', '.join(names)}", width=LINE_WIDTH,
                                               subsequent_indent="  ", break_on_hyphens=False))
            say("\n".join(lines))
        except Exception as exc:  # noqa: BLE001
            say(f"the summary could not run ({type(exc).__name__}: {exc})")

    def total(self) -> float:
        return sum(q.points for q in self.questions.values())


LINE_WIDTH = 88  # characters: a check's line fits a phone-width page and the book's column


def fold(line: str) -> str:
    """One check line folded to LINE_WIDTH, its continuation indented under the mark
    (a long hint would otherwise make the page scroll sideways)."""
    # the mark (✅, ❌, ⏳) is one character but two columns wide on screen
    return textwrap.fill(line, width=LINE_WIDTH - 1, subsequent_indent="   ", break_long_words=False,
                         break_on_hyphens=False)


def say(text: str) -> None:
    """Print in one write. print() writes the text and its newline separately, and the
    kernel may send them as two outputs: a stored notebook would then change between runs."""
    sys.stdout.write(text + "\n")
