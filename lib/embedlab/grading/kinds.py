"""Question kinds and hints: what one exercise question is, and how an answer is judged.

One question has two halves that run in different places:

* ``to_data`` turns the learner's live object into plain data (ints, floats,
  nested lists, strings). It runs inside the learner's kernel (the probe in
  `embedlab.grading.wire` calls it).
* ``judge`` compares that plain data with the expected value. It never touches
  the learner's objects, so an always-equal object, a patched numpy or a
  redefined ``check`` gain nothing: the grader runs ``judge`` in its own process.

Hints (``Hint``, ``ratio``, ``offset``) explain a wrong answer without revealing
the expected value. The lessons' questions are declared with these kinds in
``embedlab/grading/questions/lNN.py``.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from embedlab.grading.status import CORRECT, INCORRECT, NOT_ATTEMPTED
from embedlab.grading.values import (
    NotAttempted,
    WrongForm,
    array_to_data,
    copy_args,
    data_to_array,
    is_plain_number,
)

__all__ = ["Verdict", "Hint", "ratio", "offset", "Question", "Integer", "Real", "Array", "Choice", "Function",
           "Design", "Answers", "answer_of", "expected_value", "NotAttempted", "WrongForm", "MISSING"]

MISSING = object()  # what answer_of returns for an undefined name (unless told otherwise)


@dataclass
class Verdict:
    status: str
    points: float
    max_points: float
    detail: str

    def line(self, name: str) -> str:
        if self.status == CORRECT:
            return f"✅ {name}: correct"
        if self.status == NOT_ATTEMPTED:
            return f"⏳ {name}: not attempted yet — {self.detail}"
        return f"❌ {name}: not yet — {self.detail}"


# --------------------------------------------------------------------------
# Hints: rules on (learner's value, expected value) that explain a wrong answer
# without revealing the expected value.


@dataclass
class Hint:
    when: Callable[[Any, Any], bool]
    message: str


def ratio(factor: float, message: str, rel: float = 1e-6) -> Hint:
    """A hint for an answer that is `factor` times the expected one (e.g. 2: counted twice)."""

    def when(got, want):
        try:
            got, want = float(got), float(want)
        except (TypeError, ValueError):
            return False
        return want != 0 and math.isclose(got, factor * want, rel_tol=rel)

    return Hint(when, message)


def offset(delta: float, message: str) -> Hint:
    """A hint for an answer that is the expected one plus `delta` (e.g. an extra row)."""

    def when(got, want):
        try:
            return math.isclose(float(got), float(want) + delta, rel_tol=1e-9, abs_tol=1e-9)
        except (TypeError, ValueError):
            return False

    return Hint(when, message)


# --------------------------------------------------------------------------
# Question kinds


@dataclass
class Question:
    """Base class: a named answer worth `points`, with hints for common mistakes."""

    name: str
    points: float = 1.0
    hints: Sequence[Hint] = ()
    prompt: str = "write it at # YOUR CODE HERE and run that cell first"

    kind = "question"

    def to_data(self, value):  # runs in the learner's kernel
        raise NotImplementedError

    def judge(self, data, expected) -> Verdict:  # runs anywhere, on plain data only
        raise NotImplementedError

    def public_problems(self, data, params: dict | None) -> list[str]:
        """What class mode's notebook check may say of an answer (plain data) without its
        expected value: its form only (type, shape). [] when nothing is wrong with the form."""
        return []

    def _verdict(self, ok: bool, detail: str = "") -> Verdict:
        if ok:
            return Verdict(CORRECT, self.points, self.points, "")
        return Verdict(INCORRECT, 0.0, self.points, detail)

    def _hint(self, got, want, default: str) -> str:
        for hint in self.hints:
            try:
                if hint.when(got, want):
                    return hint.message
            except Exception:
                continue
        return default


@dataclass
class Integer(Question):
    """An exact whole number, e.g. a parameter count."""

    kind = "integer"

    def to_data(self, value):
        if isinstance(value, float) and value.is_integer():
            return {"float": float(value)}
        if not isinstance(value, (numbers.Integral, np.integer)) or isinstance(value, (bool, np.bool_)):
            raise WrongForm(f"expected a whole number (int), got {type(value).__name__}")
        return {"int": int(value)}

    def judge(self, data, expected) -> Verdict:
        if "float" in data:
            got = data["float"]
            if got == expected:
                return self._verdict(False, "right value, but give it as an int (e.g. int(x) or use // instead of /)")
            return self._verdict(False, self._hint(got, expected, "wrong value, and give it as an int"))
        got = data["int"]
        if got == expected:
            return self._verdict(True)
        return self._verdict(False, self._hint(got, expected, _generic_number_hint(got, expected)))

    def public_problems(self, data, params):
        return ["give it as an int (e.g. int(x), or // instead of /)"] if "float" in data else []


@dataclass
class Real(Question):
    """A float compared with a relative and an absolute tolerance."""

    rtol: float = 1e-6
    atol: float = 1e-9
    kind = "real"

    def to_data(self, value):
        if not is_plain_number(value):
            raise WrongForm(f"expected a number, got {type(value).__name__}")
        return {"real": float(value)}

    def judge(self, data, expected) -> Verdict:
        got = data["real"]
        if math.isfinite(got) and math.isclose(got, expected, rel_tol=self.rtol, abs_tol=self.atol):
            return self._verdict(True)
        return self._verdict(False, self._hint(got, expected, _generic_number_hint(got, expected)))

    def public_problems(self, data, params):
        return [] if math.isfinite(data["real"]) else ["your value is not finite (inf or nan)"]


@dataclass
class Array(Question):
    """A numeric array: shape first, then values (exactly, or within tolerances)."""

    rtol: float = 1e-6
    atol: float = 1e-9
    exact: bool = False
    shape: Callable[[dict], tuple] | None = None  # the expected shape from a variant's parameters (class mode)
    kind = "array"

    def public_problems(self, data, params):
        if self.shape is None or params is None:
            return []
        try:
            want = tuple(self.shape(params))
        except Exception:  # noqa: BLE001 - parameters edited out of shape: say nothing
            return []
        got = tuple(data["shape"])
        return [] if got == want else [f"wrong shape: yours is {got}, the parameters make it {want}"]

    def to_data(self, value):
        return array_to_data(value)

    def judge(self, data, expected) -> Verdict:
        got = data_to_array(data)
        want = data_to_array(expected)
        if got.shape != want.shape:
            hint = self._hint(got, want, "")
            return self._verdict(False, hint or f"wrong shape: yours is {got.shape}, expected {want.shape}")
        if self.exact:
            ok = np.array_equal(got, want, equal_nan=True)
        else:
            ok = bool(np.allclose(got, want, rtol=self.rtol, atol=self.atol, equal_nan=True))
        if ok:
            return self._verdict(True)
        return self._verdict(False, self._hint(got, want, _array_hint(got, want)))


@dataclass
class Choice(Question):
    """One answer out of a few words (compared without case or surrounding spaces)."""

    kind = "choice"

    def to_data(self, value):
        if not isinstance(value, str):
            raise WrongForm(f"expected a string, got {type(value).__name__}")
        return {"str": str(value).strip().lower()}

    def judge(self, data, expected) -> Verdict:
        got = data["str"]
        if got == str(expected).strip().lower():
            return self._verdict(True)
        return self._verdict(False, self._hint(got, expected, "not the right choice; reread the question"))


@dataclass
class Function(Question):
    """A function the learner writes, checked against a reference on several inputs.

    `cases(rng)` returns a list of argument tuples. The notebook check uses a fixed
    seed; the grader draws a fresh seed, so hard-coding the visible cases fails.
    """

    reference: Callable | None = None
    cases: Callable[[np.random.Generator], list] | None = None
    result: Question | None = None  # how one output is compared (default: Array)
    kind = "function"

    def _result_question(self) -> Question:
        return self.result or Array(self.name)

    def run_cases(self, func, args_list):
        """Call `func` on each case; returns plain data per case. Runs in the learner's kernel."""
        if not callable(func):
            raise WrongForm(f"expected a function, got {type(func).__name__}")
        out = []
        for args in args_list:
            try:
                value = func(*copy_args(args))
            except NotImplementedError:
                raise NotAttempted("the function still raises NotImplementedError")
            except Exception as exc:  # a bug in the learner's function is a wrong answer
                out.append({"raised": f"{type(exc).__name__}: {exc}"[:300]})
                continue
            try:
                out.append(self._result_question().to_data(value))
            except WrongForm as exc:
                out.append({"wrong_form": str(exc)})
        return out

    def judge(self, data, expected) -> Verdict:
        """`data` is the list of outputs per case, `expected` the reference outputs."""
        if len(data) != len(expected):
            return self._verdict(False, "the function did not return one result per input")
        inner = self._result_question()
        for i, (got, want) in enumerate(zip(data, expected)):
            if "raised" in got:
                return self._verdict(False, f"on input {i + 1} it raised {got['raised']}")
            if "wrong_form" in got:
                return self._verdict(False, f"on input {i + 1}: {got['wrong_form']}")
            verdict = inner.judge(got, expected_value(inner, want))
            if verdict.status != CORRECT:
                return self._verdict(False, f"on input {i + 1} of {len(data)}: {verdict.detail}")
        return self._verdict(True)

    def expected_outputs(self, args_list):
        inner = self._result_question()
        return [inner.to_data(self.reference(*copy_args(args))) for args in args_list]


@dataclass
class Design(Question):
    """An answer with many right values (a model design, and figures about it), judged by a rule.

    ``rule(answers)`` gets a dict of plain data: this question's answer under its
    own name, and the answers it is judged with (``uses``), e.g. a reported
    parameter count judged with the learner's own ``design``. It returns the
    problems it finds, as short sentences; none means correct. Like every
    ``judge``, it runs on plain data only, so in the grader it recomputes the
    learner's figures with embedlab's calculators in the grader's process.
    The answer key holds the solution's own answer, for the record only.
    """

    rule: Callable[[dict], list[str]] | None = None
    uses: tuple[str, ...] = ()
    kind = "design"

    def to_data(self, value):
        answers = value if isinstance(value, Answers) else Answers({self.name: value})
        missing = [name for name in (self.name, *self.uses) if answers.get(name, Ellipsis) is Ellipsis]
        if missing:
            raise NotAttempted(f"`{missing[0]}` is not defined yet: answer that question first")
        return {name: _plain(answers[name], name) for name in (self.name, *self.uses)}

    def judge(self, data, expected) -> Verdict:
        problems = list(self.rule(data))
        if not problems:
            return self._verdict(True)
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        return self._verdict(False, f"{problems[0]}{more}")


class Answers(dict):
    """A question's answer together with the answers it is judged with (see `answer_of`)."""


def answer_of(question: Question, namespace: dict, missing=None):
    """What `to_data` reads for one question: its name's value, or `missing` when undefined.

    A Design that ``uses`` other answers gets them all in one Answers dict
    (an undefined one left out), so the grader's probe, the key harvest and the
    notebook check all read the same thing.
    """
    missing = MISSING if missing is None else missing
    value = namespace.get(question.name, missing)
    uses = getattr(question, "uses", ())
    if value is missing or not uses:
        return value
    return Answers({name: namespace[name] for name in (question.name, *uses) if name in namespace})


_PLAIN_LIMIT = 1000  # items in one answer: a config is a few dozen


def _plain(value, name: str, depth: int = 0, count: list | None = None):
    """The learner's answer as JSON data: None, bool, int, float, str, and lists/dicts of them."""
    count = [0] if count is None else count
    count[0] += 1
    if count[0] > _PLAIN_LIMIT or depth > 4:
        raise WrongForm(f"`{name}` is too big or too deeply nested: use a dict of plain numbers, strings and booleans")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (numbers.Integral, np.integer)):
        if abs(int(value)) > 10**30:  # JSON and str() refuse integers of thousands of digits
            raise WrongForm(f"`{name}` holds an integer over 10**30: too large for any size or count here")
        return int(value)
    if is_plain_number(value):
        return float(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v, name, depth + 1, count) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise WrongForm(f"`{name}` has a key that is not a string")
        return {k: _plain(v, name, depth + 1, count) for k, v in value.items()}
    raise WrongForm(f"`{name}` holds a {type(value).__name__}: use numbers, strings, booleans, lists and dicts")


def expected_value(question: Question, data):
    """Turn reference plain data back into what `judge` expects for that kind."""
    if isinstance(question, Integer):
        return data["int"]
    if isinstance(question, Real):
        return data["real"]
    if isinstance(question, Choice):
        return data["str"]
    return data


def _generic_number_hint(got: float, want: float) -> str:
    if not math.isfinite(got):
        return "your value is not finite (inf or nan)"
    if want != 0:
        r = got / want
        for factor, text in ((2, "twice"), (0.5, "half")):
            if math.isclose(r, factor, rel_tol=1e-6):
                return f"yours is {text} the expected value: something counted {'twice' if factor == 2 else 'once too few'}?"
        for factor in (1e3, 1e6, 1e9, 1e-3, 1e-6, 1e-9):
            if math.isclose(r, factor, rel_tol=1e-6):
                return "off by a power of 1,000: check the units (thousands, millions, bytes vs GB)"
        if math.isclose(r, -1, rel_tol=1e-6):
            return "the sign is wrong"
        if abs(r - 1) < 0.05:
            return "close, but not exact: check for a small term you left out or a rounding step"
    return "not the expected value"


def _array_hint(got: np.ndarray, want: np.ndarray) -> str:
    with np.errstate(all="ignore"):
        if want.size and np.allclose(got, 2 * want):
            return "every value is twice the expected one: something counted twice?"
        close = np.isclose(got, want, rtol=1e-6, atol=1e-9, equal_nan=True)
    return f"right shape, but {int((~close).sum())} of {close.size} values differ"
