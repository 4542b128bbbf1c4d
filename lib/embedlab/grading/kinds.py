"""Question kinds and hints: what one exercise question is, and how an answer is judged.

One question has two halves that run in different places:

* ``to_data`` turns the learner's live object into plain data (ints, floats,
  nested lists, strings). It runs inside the learner's kernel (the probe in
  `embedlab.grading.wire` calls it).
* ``judge`` compares that plain data with the expected value. It never touches
  the learner's objects, so an always-equal object, a patched numpy or a
  redefined ``check`` gain nothing: the grader runs ``judge`` in its own process.

Hints (``Hint``, ``ratio``, ``offset``) explain a wrong answer without revealing
the expected value; when none of a question's own hints fits, the symptom is
named by embedlab.grading.diagnose (digits, direction, ratios, shapes, the
failing call of a function). Every kind states how it is judged (``statement``):
the exercise generator writes that, with the points, under each question. The lessons' questions are declared with these kinds in
``embedlab/grading/questions/lNN.py``.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import itertools
import math
import numbers
import re
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np

from embedlab.grading import (code, counterfactual, diagnose, explain, function_hints,
                              labels, undo)
from embedlab.grading.text import join_clauses, states_answer
from embedlab.grading.work import Shortcut, Work  # noqa: F401 - a question's own_work declares one
from embedlab.grading.status import CORRECT, INCORRECT, NOT_ATTEMPTED, TO_MARK, format_points
from embedlab.grading.values import (
    NotAttempted,
    WrongForm,
    array_to_data,
    copy_args,
    data_to_array,
    is_plain_number,
    read_real,
)

__all__ = ["Verdict", "Hint", "Invariant", "Slip", "Arrays", "ratio", "offset", "related", "given_replaced", "step", "rows_by", "Question", "Integer", "Real", "Array", "Choice", "Function",
           "Design", "Answers", "answer_of", "expected_value", "NotAttempted", "WrongForm", "MISSING"]

MISSING = object()  # what answer_of returns for an undefined name (unless told otherwise)


@dataclass
class Verdict:
    status: str
    points: float
    max_points: float
    detail: str

    def line(self, name: str) -> str:
        worth = f"{name} ({points_text(self.max_points)})"
        if self.status == CORRECT:
            return f"✅ {worth}: correct" + (f", {self.detail.split(RECOUNTED)[0]}" if self.detail.startswith(CARRIED)
                                             else "")
        if self.status == NOT_ATTEMPTED:
            return f"⏳ {worth}: not attempted yet — {self.detail}"
        if self.status == TO_MARK:
            return f"📝 {worth}: {self.detail}"
        return f"❌ {worth}: not yet — {self.detail}"


def points_text(points: float) -> str:
    """'1 point', '2 points', '0.5 points'."""
    return f"{format_points(points)} point{'' if points == 1 else 's'}"


# --------------------------------------------------------------------------
# Hints: rules on (learner's value, expected value) that explain a wrong answer
# without revealing the expected value.


@dataclass
class Hint:
    """`message` when `when(got, want)` is true. With ``args=True`` (a function's result),
    `when(got, want, *args)` also gets the arguments of the call that failed."""

    when: Callable[..., bool]
    message: str
    args: bool = False
    # code.features tokens ("norm|cosine") that rule this slip out when the answer cell uses one: a cell
    # that divides by a norm did not return the bare dot product, though its value may be the same
    unless: str = ""
    # the rule computes the slip's own value exactly (the ratio of two named sizes): when it holds, it names the
    # mistake better than a code reading of what the cell lacks (`needs`), which is shown only when it does not
    proven: bool = False


# lessons.sections_taught, set by embedlab.grading.lessons when it loads (kinds may not import a layer above it):
# {what a section of a lesson teaches: (lesson, heading)}, for the section a measured hint points to
SECTIONS_TAUGHT: list = [None]


@dataclass
class Invariant:
    """What every right result of a function holds, whatever the input (a one-hot row holds exactly
    one 1; rows of ids not in the batch get zero gradient; a cosine lies in [-1, 1]):
    `holds(result, *args)`. A failing call that breaks one is named by `says`, with the call."""

    holds: Callable[..., bool]
    says: str
    reads: tuple = ()  # the arguments whose use `says` tells of: not told of a function that never reads one


@dataclass
class Slip:
    """A wrong function a learner may write in place of a function question's reference (a tie broken
    the other way, a count left unweighted, a gradient transposed): `func` takes the same arguments.
    When its results equal the learner's on every input drawn (fixed and random alike, the learner's
    wrong on at least one), the learner's function behaves as it does there, and `says` names the slip
    with the first failing call. Nothing is special-cased: the drawn inputs and the learner's outputs
    decide (embedlab.grading.function_hints.matching_slips)."""

    func: Callable
    says: str


def ratio(factor: float, message: str, rel: float = 1e-6) -> Hint:
    """A hint for an answer that is `factor` times the expected one (e.g. 2: counted twice),
    computed, or typed rounded to 3 or more digits."""

    def when(got, want):
        try:
            got, want = float(got), float(want)
        except (TypeError, ValueError):
            return False
        return want != 0 and (math.isclose(got, factor * want, rel_tol=rel) or diagnose.same(got, factor * want))

    return Hint(when, message)


def related(value, message: str, rel: float = 1e-9, abs_tol: float = 0.0) -> Hint:
    """A hint for an answer that is another quantity the lesson computes from the same inputs (the whole
    for the gain, the share of the other language, a probability at the neighbouring index, the same
    figure with the setup edited): `value` is that quantity, or a function of the expected value
    (lambda want: 256 - want, the complement), computed only when the hint is tried. Matched computed
    (to `rel`, or within `abs_tol` of a quantity near 0) or typed rounded to 3 or more digits: the words say
    "that is X", so a value merely near X (within diagnose.same's 10^-6) is not X."""

    def when(got, want):
        try:
            target = value(want) if callable(value) else value
            got, target = float(got), float(target)
        except (TypeError, ValueError, ArithmeticError):
            return False
        if not (math.isfinite(got) and math.isfinite(target)):
            return False
        if math.isclose(got, target, rel_tol=rel, abs_tol=abs_tol):
            return True
        typed = diagnose.rounded_from(got, target) if target != 0 else None
        return typed is not None and typed >= 3

    return Hint(when, message)


def given_replaced(compute: Callable[..., float], given: dict, literals=(1,), what: dict | None = None,
                   rel: float = 1e-6) -> list:
    """Hints for an answer a pipeline computes (resize, train, sample): the reference re-run with one given
    count (n_new, steps, …) set to a literal a learner types instead (1, a default). `compute(**given)` is
    the answer; `what` says per name what the literal means ("grown by 1 token"). A match names the count
    replaced; each re-run happens only when its hint is tried, once per value (lru-cached by the caller)."""
    hints = []
    for name, value in given.items():
        for literal in literals:
            if literal == value:
                continue
            said = (what or {}).get(name, "")
            said = said.format(literal=literal) if said else f"run with {name} = {literal}"
            hints.append(related(
                lambda want, name=name, literal=literal: compute(**{**given, name: literal}),
                f"that is the result {said}, not with {name} = {value} as the question gives: {name} replaced by "
                f"the literal {literal}; pass {name} itself", rel=rel))
    return hints


def offset(delta: float, message: str) -> Hint:
    """A hint for an answer that is the expected one plus `delta` (e.g. an extra row)."""

    def when(got, want):
        try:
            return math.isclose(float(got), float(want) + delta, rel_tol=1e-9, abs_tol=1e-9)
        except (TypeError, ValueError):
            return False

    return Hint(when, message)


_STATUS_ONLY = contextvars.ContextVar("embedlab_status_only", default=False)


@contextlib.contextmanager
def status_only():
    """Judge for the status alone: inside this block a wrong answer's detail is left empty
    instead of searched for a hint. The status (and the points) are exactly those of a full
    judgement, which no hint changes; only the words are skipped. For callers that judge many
    answers and read only whether each earns its points (class mode's variants, kept apart by
    `variants.shared_points`): a hint's search can take a tenth of a second."""
    token = _STATUS_ONLY.set(True)
    try:
        yield
    finally:
        _STATUS_ONLY.reset(token)


# --------------------------------------------------------------------------
# Question kinds


@dataclass
class Question:
    """Base class: a named answer worth `points`, with hints for common mistakes."""

    name: str
    points: float = 1.0
    hints: Sequence[Hint] = ()
    prompt: str = "write it at # YOUR CODE HERE and run that cell first"
    factors: dict = field(default_factory=dict)       # e.g. {"L": 28}: ×L and ÷L are named in hints
    factor_hints: dict = field(default_factory=dict)  # e.g. {"/L": "that is one layer"}: own words for ÷L
    case: tuple | None = None                         # set by Function: the arguments of the call judged
    # Hints that generalise (embedlab.grading.parts, embedlab.grading.code):
    parts: Callable | None = None    # () -> parts.Answer (a function's result: (*args) -> Answer): the answer as named parts
    inputs: Callable | None = None   # () -> {words: value} of the inputs a learner may type by hand (128,256 as 128,000)
    reads: tuple = ()                # names the answer must read (a `parameters` name, a model's name) …
    not_reads: dict = field(default_factory=dict)  # … and {another question's input: what to say when read instead}
    needs: dict = field(default_factory=dict)  # {"a|b": what to say}: what any right cell uses (code.features: one of a, b)
    avoids: dict = field(default_factory=dict)  # {"a|b": what to say}: what a right cell never uses (axis=0, .T, filter)
    source: str | None = None        # set when judged: the answer cell's source, read (never run) by embedlab.grading.code
    # () -> [(inputs, expected, words)]: other inputs on which a plausible wrong formula parts from the right
    # one when this variant's cannot tell them apart (V a multiple of pad_multiple: m - V % m gives m, not 0).
    # A right value whose cell, read as a formula (code.evaluate), gives another answer there is not accepted.
    recheck: Callable | None = None
    # (namespace) -> [Elsewhere]: other inputs on which a plausible wrong *method* (a loop, arrays, a
    # choice: no formula `recheck` can read) parts from the right one where this variant's cannot (groups
    # of one size, a given table equal to another answer). In the kernel, the learner's own lines of the
    # answer cell run again on them (embedlab.grading.elsewhere); a right value whose lines give another
    # answer there is not accepted.
    other_inputs: Callable | None = None
    elsewhere: tuple = ()            # set when judged: what the learner's lines gave on `other_inputs` (plain data)
    unit: str = ""                   # what the answer counts ("parameters", "bytes"): names a units slip as units
    others: dict = field(default_factory=dict)  # set when judged: the exercise's other answers (its key), by name
    # set when judged (variants.look_question): k -> (this question built for second look k's parameters, those
    # parameters, the book's), to weigh a hint on the learner's value there (`_support`)
    at_look: Callable | None = None
    lesson: str = ""  # set by lessons.questions_for: whose given code (code.given_code) the cell holds
    solved_in: str = ""  # a function's result question: the lesson whose solution writes the function (code.solution_source)
    reread: str = ""  # set by lessons.questions_for: the lesson's section it practises (its module's REREAD)
    reread_lesson: str = ""  # the lesson whose section that is (set with it): the question's own, or another
    # set by lessons.questions_for: a value question no input changes (its Space's `fixed`) whose solution computes
    # it: no rerun on other inputs can tell a typed value there, so the cell is read (`_typed_fixed`)
    fixed: bool = False
    # The work the question asks the learner to do, with why: {library function: why} names what the cell may
    # not hand the work to (calls it, aliases or imports it); {Work: why} an operation the answer must come
    # from (a matrix product with the table: the value alone cannot tell it from the lookup). A cell that
    # breaks either is refused with why, whatever its value (`_own_work_slip`)
    own_work: Mapping = field(default_factory=dict)
    # What the question's text gives that a hint may point back to
    # (text.PRESUMED; Question.described): the learner's own table the answer
    # counts ("your table": lesson 01's `E`), and the arguments a formula the
    # text writes out reads (`4·context·d`). Undeclared, no hint presumes either.
    own_table: str = ""
    formula: tuple = ()

    kind = "question"

    def statement(self) -> str:
        """How the answer is judged, in words (the generator writes it under the question)."""
        return ""

    def result_phrase(self) -> str:
        """The same, said of one result of a function ("exact (to 1 part in 10⁹)")."""
        return "as the question asks"

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
        if _STATUS_ONLY.get():  # the status alone is asked: no words (those built without their hints read half-made)
            return Verdict(INCORRECT, 0.0, self.points, "")
        from embedlab.grading.text import without_repeats

        here = self._raised_here()
        if here:  # the cell fails on these inputs too: no hint of another kind can be about it
            detail = here

        # a clause that says again what an earlier one says (two sources joined) is left out: said once
        return Verdict(INCORRECT, 0.0, self.points, _quiet(without_repeats, detail, default=detail))

    def _hint(self, got, want, default: str) -> str:
        if _STATUS_ONLY.get():
            return default
        ruled_out = None
        for hint in self.hints:
            if hint.args and self.case is None:
                continue
            if hint.unless and self.source:
                if ruled_out is None:
                    ruled_out = _quiet(_cell_features, self.source, default=set())
                if any(token in ruled_out for token in hint.unless.split("|")):
                    continue
            try:
                if hint.when(got, want, *self.case) if hint.args else hint.when(got, want):
                    if _quiet(explain.refuted_by_cell, self, hint.message, got, want, default=False) \
                            or _quiet(states_answer, hint.message, want, default=False):
                        continue  # words about a construct the learner's own lines do not write, or the answer
                    return hint.message
            except Exception:
                continue
        return default

    def unit_of(self) -> str:
        """What the answer counts, for the general words: its `unit`, else what its name says: "parameters"
        (params), "flops", or a quantity without units (diagnose.UNITLESS: a cosine, a share, a probability,
        a divergence); "" when not known."""
        if self.unit:
            return self.unit
        name = self.name.lower()
        if "param" in name:
            return "parameters"
        if "flop" in name:
            return "flops"
        words = set(name.split("_"))  # whole words of the name: "cost" is no cosine, "mlp_layer" no p
        for names, unit in (({"cos", "cosine", "similarity"}, "cosine"), ({"kl", "divergence", "entropy"}, "divergence"),
                            ({"share", "frac", "fraction", "coverage"}, "share"),
                            # two amounts divided: no part, no whole
                            ({"ratio", "r"}, "ratio"),
                            ({"p", "prob", "probability"}, "probability")):
            if words & names and self.kind == "real":
                return unit
        return ""

    def described(self) -> frozenset:
        """What the question's own description grants a hint's clause
        (text.PRESUMED): "own table" (the learner built the table it counts:
        `own_table`), "formula" (its text writes one out: `formula`), "share"
        (a part of a whole: its unit)."""
        from embedlab.grading.diagnose import has_keys_and_values

        given = {"own table": bool(self.own_table), "formula": bool(self.formula),
                 "share": self.unit_of() == "share",
                 "keys and values": has_keys_and_values(self.unit_of(), self.name.lower().split("_"))}
        return frozenset(k for k, v in given.items() if v)

    def is_ratio(self) -> bool:
        """Is the answer a ratio of two amounts (its name says ratio, or r: break_even_r, hindi_r) rather than a
        share of a whole? Its general words then name no part and no rest."""
        words = set(self.name.lower().split("_"))
        return self.kind == "real" and bool(words & {"ratio", "r"}) and not words & {"share", "frac", "fraction",
                                                                                      "coverage"}

    def _other_answer(self, got, want) -> str:
        """A wrong value that is another answer of the same exercise (a number of 10 or more, or a fraction:
        0, 1 or a small count matches by chance), named as that question's answer; one of 3 digits or fewer only
        where the cell reads that answer's name."""
        for name, value in self.others.items():
            if name == self.name or isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if not math.isfinite(value) or value == want or (float(value).is_integer() and abs(value) < 10):
                continue
            if not (math.isclose(got, value, rel_tol=1e-9) or diagnose.same(got, value)):
                continue
            if _short_number(value) and name not in code.read(self.source, self.name).names:
                # a value of 3 digits or fewer (0.54) is met by chance by a rounded or another computed number: the
                # match alone separates nothing, so it is named only where the cell reads that answer
                continue
            return (f"that is the value of `{name}`, another answer of this exercise: this question asks for "
                    f"`{self.name}`, another quantity (reread what it counts)")
        return ""

    def _formula_slip(self) -> str | None:
        """A right value from a formula that is wrong on other inputs (`recheck`), read from the cell."""
        if self.recheck is None or not self.source:
            return None
        try:
            cases = list(self.recheck())
        except Exception:  # noqa: BLE001 - a recheck that cannot be built judges nothing
            return None
        for inputs, expected, words in cases:
            value = code.evaluate(self.source, self.name, inputs)
            if value is not None and not self._rechecked(value, expected):
                return (f"right for your inputs, but not as a formula: your cell gives {code._fmt(value)} "
                        f"{words}, where the answer is {code._fmt(expected)}; write it so it holds for any input")
        return None

    def _raised_here(self) -> str | None:
        """The cell run again on the notebook's own inputs raises (the kernel's report: elsewhere.raises_here):
        said with the error's last line, and that the answer's value is left from an earlier run."""
        for case in self.elsewhere if isinstance(self.elsewhere, (list, tuple)) else ():
            if isinstance(case, dict) and isinstance(case.get("raised_here"), str) and case["raised_here"]:
                error = case["raised_here"].strip().splitlines()[-1][:ELSEWHERE_TEXT]
                return (f"your cell raises {error} on these inputs too, so `{self.name}` holds a value left from an "
                        "earlier run: fix the error first, then run the cell again")
        return None

    def _elsewhere_slip(self) -> str | None:
        """A right value from the learner's lines that give another answer on `other_inputs` (run in the
        kernel, reported as plain data in `elsewhere`): the first such case, in words. A case whose report
        is malformed says nothing (the kernel's data is the learner's own: it can only lose them this check)."""
        for case in self.elsewhere if isinstance(self.elsewhere, (list, tuple)) else ():
            found = _quiet(_elsewhere_case, self, case, default=None)
            if found:
                return found
        return None

    def _accepted(self) -> Verdict:
        """A value the comparison accepts, unless its formula (`recheck`) or its method (`other_inputs`)
        gives another answer on other inputs. A value typed rather than computed says so first, in the
        words of the rule (TYPED): the course's policy may accept it (embedlab.grading.carried). Typed is said
        only of a cell seen to type its answer (typed_cell): a cell that computes but does not follow the input
        the look changes also gives the same value there, and is told that, not that it typed."""
        slip = self._own_work_slip() or self._formula_slip() or self._elsewhere_slip()
        if slip and typed_cell(self.source, self.name):
            slip = f"{TYPED}; {slip}"
        elif not slip and self.fixed and typed_cell(self.source, self.name):
            slip = (f"{TYPED}; this question's answer is the same on every input, so no rerun can tell a typed "
                    "value: the cell is read instead, and it types its value: compute it (the question says how)")
        return self._verdict(False, slip) if slip else self._verdict(True)

    def _own_work_slip(self) -> str | None:
        """The work the question asks for (`own_work`) that the cell does not do itself: a library function it
        hands the work to, or an operation its answer does not come from; read from the source, never run."""
        if not self.own_work or not self.source:
            return None
        handed = _quiet(function_hints.forbidden_reference, self.source,
                        {k: v for k, v in self.own_work.items() if isinstance(k, str)}, default=None)
        if handed:
            return f"your cell uses `{handed}`: {self.own_work[handed]}"
        for work, why in self.own_work.items():
            if isinstance(work, Shortcut) and _quiet(work.taken, self.source, self.name, default=None):
                if self.kind == "function":
                    return f"your `{self.name}` hands its work to {work.says()}: {why}"
                return f"right value, but your `{self.name}` comes from {work.says()}: {why}"
            if isinstance(work, Work) and _quiet(work.missing, self.source, self.name, default=None):
                if self.kind == "function":
                    return f"your `{self.name}` never does {work.says()}: {why}"
                return f"right value, but your `{self.name}` does not come from {work.says()}: {why}"
        return None

    def _bytes_slip(self, got, want) -> str | None:
        """Bytes where a count of parameters is asked, when the cell names bytes or a number format
        and types that many bytes a number: said as units before a question's own hint that reads the
        same factor otherwise (2 × a table is also "the head counted when tied")."""
        if self.unit_of() != "parameters" or not code.names_bytes(self.source):
            return None
        found = diagnose.units_hint(got, want, "parameters", explain.typed_constants(self), bytes_named=True)
        return found if found and found.startswith("that is the size in bytes") else None

    def _rechecked(self, value, expected) -> bool:
        """Does the cell's value on a recheck's inputs count as the answer there? (exactly; a Real to
        its own precision)"""
        return value == expected

    def _number_hint(self, got, want) -> str:
        """`_number_hint_of`, with a fallback's "recheck what a cosine is" said of the call where the learner's own
        lines compute the quantity with the lesson's own function (diagnose.LESSON_FUNCTION): its formula is right,
        so what it is given and what the cell does with its result are what to recheck."""
        said = self._number_hint_of(got, want)
        return _quiet(_recheck_the_call, self, said, default=said) or said

    def _number_hint_of(self, got, want) -> str:
        """The words for a wrong number (`_number_words`); the question's own words
        for a value two routes give exactly (the answer with one of its own steps made
        again) are said as the measured step and both routes (`_step_again`), never
        as the one they pick."""
        words = self._number_words(got, want)
        if not words or _STATUS_ONLY.get() \
                or words not in _quiet(_own_words, self, default=()):
            return words
        again = _quiet(_step_again, self, got, want, default=None)
        return _both_routes(words, *again) if again else words

    def _number_words(self, got, want) -> str:
        """A typed, rounded number first (whatever else it resembles), then what the learner's
        code does (a wrong input read, a rounded input typed), the question's own hints, the
        answer's named parts (embedlab.grading.parts), then the symptom (ratio, direction) in
        general words. A function's result is computed, not typed: there the question's hints
        come first."""
        if _STATUS_ONLY.get():
            return ""
        if isinstance(got, (float, np.floating)) and not math.isfinite(got):  # nan or inf: no arithmetic to weigh
            return self._hint(got, want, "") or _not_finite_hint(got)
        if not _finite_real(got):  # not a number at all: data no kernel's to_data makes (forged), not judged
            raise TypeError(f"the answer's data is not a number ({type(got).__name__})")
        # Each source of hints in turn; one that raises on an odd value (a complex number folded from the
        # cell's code, a huge one) says nothing, and the next speaks: the learner never loses the hint.
        generic = lambda: _quiet(diagnose.number_hint, got, want, self.factors, self.factor_hints,  # noqa: E731
                                 _quiet(explain.typed_constants, self, default=None), self.unit_of(),
                                 _quiet(code.names_bytes, self.source, default=False), self.name,
                                 self.is_ratio(), _quiet(_lesson_names, self, default=()))
        half = _quiet(diagnose.flop_slip, got, want, self.unit_of(), False, default=None)
        if self.case is not None:
            # a number typed in the function where its value depends on the arguments, proven on this call: first
            typed_here = _quiet(explain.typed_in_function, self, got, want, default=None)
            if typed_here:
                self._said = "parts"
                return typed_here
            own = self._hint(got, want, "")
            if half:  # exactly half a FLOP count: the slip named, with the question's own rule after it
                self._said = "own"
                return join_clauses(half, own) if own and own != half else half
            if own and not _quiet(_own_story_ambiguous, self, own, got, want, default=False):
                self._said = "own"
                return own
            found = _quiet(explain.number, self, got, want)
            if found and _quiet(explain.refuted_by_cell, self, found, got, want, default=False):
                found = None  # words about a construct (an off-by-one) the learner's own lines do not write
            found = _quiet(self._either, found, "book", got, want, default=found) if found else found
            # an operator swapped or a number one off in the learner's function, undone on this call's arguments
            found = found or next(iter(_quiet(explain._one_edit_undone, self, got, want, default=[]) or []), None)
            # several stories fit the value: the one whose terms the learner's own lines write, when one does best
            found = found or _quiet(self._story_by_lines, got, want, default=None)
            self._said = "parts" if found else "generic"
            found = found or _quiet(diagnose.precision_hint, got, want, True, True)
            if found:
                return found
            words = generic()
            if words and _quiet(explain.construct_unwritten, self, words, default=False):
                return self._measured(got, want)  # a construct the learner's lines do not write (a subtraction)
            return words
        edit = self._proven_edit(want, late=False)  # one slip undone in the learner's own lines gives the answer
        if edit and "divides with `//`" in edit:
            # one `//` of several undone: where the cell rounds each piece before combining them, the rounding's
            # place is the slip (counterfactual.rounding_placed, proven on the book's inputs and others)
            placed = _quiet(counterfactual.rounding_placed, self, got, want, default=[]) or []
            if placed:
                return placed[0]
        if edit and edit.startswith(undo.FILTER_LEAD) and "without that filter" in edit:
            # the filter taken out gives the answer: the question's own words for a filter (`avoids`), now proven
            own = next((w for tokens, w in self.avoids.items() if "filter" in tokens.split("|")), None)
            return own or edit
        typed_edit = ""
        if edit and undo.TYPED in edit:
            # a value typed where an input belongs: the code reading's own words first where it names the typed
            # input (a rounded one, one in other units, a size set by hand), which say how it differs; the other
            # sources' proven words too, this edit in place of the measured words only
            first = _quiet(explain.code_first, self, got, want)
            if first:
                return first
            typed_edit, edit = edit, ""
        if edit:
            return edit
        # one piece of the learner's own cell, read as arithmetic, undone: right on the book's inputs and on inputs
        # that part coincidences (a factor the answer lacks, a given name's place, rounding's place, units mixed)
        undone = _quiet(counterfactual.proven, self, got, want, default=None)
        undone = None if undone and _unreadable(undone, self) else undone
        if undone and counterfactual.GIVEN_NAME in undone:
            # the same piece read as a field of the config for another, or a ratio typed where the config gives the
            # value (explain.slip_undone, proven the same way): its words say what the piece is
            said = _quiet(explain.slip_undone, self, got, want, default=[]) or []
            undone = said[0] if said else undone
        if undone and not (counterfactual.GIVEN_NAME in undone and counterfactual.typed_piece(undone)):
            return undone
        # another shipped model, loaded by name in the learner's lines, whose figure is exactly the learner's value
        other = _quiet(explain.loaded_model_figure, self, got, want, default=None)
        if other and not _unreadable(other, self):
            return other
        typed = _quiet(explain.typed_by_hand, self)  # the cell types its answer (or we cannot read it): rounded?
        first = (_quiet(explain.code_first, self, got, want) or _quiet(self._bytes_slip, got, want, default=None)
                 or (typed and _quiet(diagnose.precision_hint, got, want)))
        if first:
            return first
        if half and self._weigh([(half, "book")], got, want):  # exactly half a FLOP count: the slip named
            own = self._weigh([(t, "own") for t in _own_hints(self, got, want)], got, want)
            return join_clauses(half, own) if own and own != half else half
        # "that is X" (a question's own declared hint): shown only when a look finds it again, where looks ran
        candidates = [(t, "own") for t in _quiet(_own_hints, self, got, want, default=[])]
        # a value the solution's own steps make on their way (run in the learner's kernel): after the question's own
        # words, which name that step in the lesson's terms where the question declares it
        step = _quiet(self._step_short, _quiet(self.to_data, got, default=None), default="")
        candidates += [(step, "code")] if step else []
        candidates += [(undone, "code")] if undone else []  # a piece that types a unit: after the question's words
        # exactly one named term of the model's count (the final norm) short, or over, of lines that read the count's
        # terms: named, as the lines read it (before the parts' stories, which the value alone picks)
        candidates += [(t, "proof") for t in _quiet(explain.count_field_gap, self, got, want, default=[])]
        # another question's answer read where an input belongs (a stale variable), the swap undone in the lines
        candidates += [(t, "proof") for t in _quiet(explain.name_swapped, self, got, want, default=[])]
        parted = [(t, "book") for t in _quiet(_parts_and_code, self, got, want, default=[])]
        # a factor of the learner's own product the answer lacks, proven on the book's inputs and on inputs that part
        # coincidences: one slip, so two slips at once that give the same number are not the explanation
        dropped = _quiet(counterfactual.factor_dropped, self, got, want, default=[]) or []
        if dropped:
            from embedlab.grading import parts as parts_

            parted = [(t, how) for t, how in parted if not parts_.two_changes(t)]
        candidates += parted + [(t, "code") for t in dropped]
        # a piece of the learner's own expression that, put right, gives the answer: proved by the code itself
        candidates += [(t, "code") for t in _quiet(explain.slip_undone, self, got, want, default=[])]
        # a term of the learner's own sum the answer does not have: taken out, the cell is right, on a second look too
        candidates += [(t, "code") for t in _quiet(explain.term_dropped, self, got, want, default=[])]
        candidates += [(t, "book") for t in _quiet(explain.size_swapped, self, got, want, default=[])]
        candidates += [(t, "code") for t in (_quiet(self._other_answer, got, want),
                                             not typed and _quiet(diagnose.precision_hint, got, want, True,
                                                                  True)) if t]
        # what the cell lacks or uses that a right cell never does: true of the code, its part unproved by the value
        candidates += [(t, "code") for t in _quiet(explain.unproved_needs, self, got, want, default=[])]
        candidates += [(t, "book") for t in _quiet(_general_words, self, got, want, default=[])]
        found = self._weigh(candidates, got, want)
        if found and not diagnose.direction_only(found):
            return found
        if typed_edit:
            return typed_edit
        # a one left out, two sizes added, an input of another question that moves the answer: proven, after the
        # stories, with the section to reread (where the measured words would have pointed)
        late = self._proven_edit(want, late=True)
        if late:
            return self._pointed(late)
        # nothing but a direction: a value the solution reads (or a factor it multiplies by) in place of a piece of
        # the learner's own expression, proven on the book's inputs and on a look (counterfactual.LAST_FINDERS):
        # before an input of another question that moves the answer (which names the input, not where it belongs)
        last = _quiet(counterfactual.last_proven, self, got, want, default=None)
        if last and not _unreadable(last, self):
            return last
        late = _quiet(self._foreign_moved, default="")
        if late:
            return self._pointed(late)
        return self._pointed(found) if found else self._measured(got, want)

    def _foreign_moved(self) -> str:
        """A parameter of another question the learner's lines read (elsewhere.foreign_cases: `own`, the answer
        expected there is the learner's own), whose change, run in their kernel, moves their answer: their answer
        depends on what it must not, proven. "" where no such case is reported."""
        for case in self.elsewhere if isinstance(self.elsewhere, (list, tuple)) else ():
            if isinstance(case, dict) and case.get("own") is True and "got" in case and "want" in case \
                    and case["got"] != case["want"] and ", an input of another question" in str(case.get("why")):
                read = str(case["why"]).split(", an input of another question")[0]
                return (f"{read}, an input of another question, which this answer does not depend on: "
                        f"{case['words']}, yours changes too")
        return ""

    def _proven_edit(self, expected, late: bool | None = None) -> str:
        """An edit of the learner's own code (embedlab.grading.undo) whose value, run in their kernel, the check
        accepts as the answer: the slip named by its counterfactual. "" when none is reported or none is right.
        `late` False: the edits said first only (not undo.LATE's, said after the question's own stories); True:
        those only; None: every edit."""
        if _STATUS_ONLY.get() or not self.elsewhere:
            return ""
        cases = self.elsewhere if late is None else tuple(
            c for c in self.elsewhere if not isinstance(c, dict) or not isinstance(c.get(undo.UNDONE), str)
            or any(w in c[undo.UNDONE] for w in undo.LATE) == late or c.get(undo.CONTROL) is not None)
        bare = dataclasses.replace(self, elsewhere=(), source=None, recheck=None, other_inputs=None, at_look=None,
                                   hints=(), others={})

        def right(data) -> bool:
            with status_only():
                return bare.judge(data, expected).status == CORRECT

        return _quiet(undo.proven, self, cases, right, default=None) or ""

    def _step_short(self, data) -> str:
        """The learner's value is one the solution's own lines make on their way to the answer (reported by the
        kernel: elsewhere.solution_steps), exactly, and not the answer: a step of the computation short of its end,
        said with the step that comes after it. Found for any question, none declared."""
        if _STATUS_ONLY.get() or not isinstance(self.elsewhere, (list, tuple)):
            return ""
        STEP = undo.STEP
        bare = dataclasses.replace(self, elsewhere=(), source=None, recheck=None, other_inputs=None, at_look=None,
                                   hints=(), others={})
        for case in self.elsewhere:
            if not isinstance(case, dict) or not isinstance(case.get(STEP), str) or case.get("kind") != self.kind \
                    or "got" not in case:
                continue
            try:
                with status_only():
                    same = bare.judge(data, expected_value(bare, case["got"])).status == CORRECT
            except Exception:  # noqa: BLE001 - a malformed report proves nothing
                continue
            if same:
                return (f"that is a value the computation makes on its way, one step short of its end: the step "
                        f"after it is `{case[STEP][:120]}`, with your value where the … stands")
        return ""

    def _pointed(self, said: str) -> str:
        """Measured words (a direction, a band), with the lesson's section to reread:
        the one that teaches what the words name, where they name what another section
        of the lesson is about (section 4's attention over the context, in a hint on
        section 5's shares), else the question's own."""
        if not self.reread:
            return said
        lesson, section = self.reread_lesson, self.reread
        text = said.lower() if isinstance(said, str) else ""
        # {what a section of the lesson teaches: (lesson, its heading)}: words that name
        # one are pointed there, where it is taught
        # the map is read by embedlab.grading.lessons (a layer above this one: it sets SECTIONS_TAUGHT as it loads)
        sections = (_quiet(SECTIONS_TAUGHT[0], self.lesson, default={}) if SECTIONS_TAUGHT[0] else {}) or {}
        named = sorted((text.find(what), what) for what in sections if what in text)
        if named and not any(what in self.reread.lower() for _, what in named):
            lesson, section = sections[named[0][1]]
        if lesson and lesson != self.lesson:  # taught in another lesson: named
            number = lesson.split("-", 1)[0]
            return f"{said}; reread lesson {number}'s section “{section}”"
        return f"{said}; reread the lesson's section “{section}”"

    # ----------------------------------------------------------------------
    # A diagnosis is checked before it is shown. Each candidate slip was found because it gives the learner's
    # value exactly on the book's inputs (its source's own test: a part changed, a hint's rule, a ratio).
    # Then the learner's cell on the second looks (other parameters, variants.look_question: the question
    # built for the look, the learner's value there, the answer there) weighs it: a slip the same sources
    # find again on a look is shown before one no look finds; the whole value × a unit or a percentage
    # (×100, ×8, GiB for GB) is shown only when the cell types that unit's constant or a look shows the same
    # factor (100 words make a count their share × 100: a coincidence of the book's inputs, not a slip);
    # words that cannot be read as written (text.hint_problems) are never shown. Where no candidate is left,
    # only what is measurably true is said (`_measured`).

    def _looks(self) -> list:
        """[(the question built for a look, the learner's value there, the answer there, the look's parameters,
        the book's)] of the second looks the learner's cell gave a value on (not a typed answer, the same
        everywhere) that is wrong there too and not 0 (where the cell is right, or the answer is 0, the look
        cannot weigh a slip of the book's inputs)."""
        if not isinstance(self.elsewhere, (list, tuple)) or not self.elsewhere:
            return []
        if getattr(self, "_looks_cache", None) is not None:
            return self._looks_cache
        out = []
        for case in self.elsewhere:
            if not isinstance(case, dict) or case.get("same") is True or case.get("own") is True \
                    or case.get("kind") != self.kind or "got" not in case or "want" not in case:
                continue
            # a second look: the question is built again for its parameters; a declared other input (the
            # question's `other_inputs`) gives the learner's value and the answer there only
            found = _quiet(self.at_look, case["look"], default=None) \
                if isinstance(case.get("look"), int) and self.at_look is not None else None
            question, params, book = found if found else (self, {}, {})
            question = dataclasses.replace(question, source=self.source, elsewhere=(), others={}, at_look=None,
                                           recheck=None, other_inputs=None)
            if not found:
                question._values_only = True
            try:
                got, want = _plain_value(question, case["got"]), _plain_value(question, case["want"])
                with status_only():
                    right = question.judge(case["got"], expected_value(question, case["want"])).status == CORRECT
            except Exception:  # noqa: BLE001 - the kernel's report is the learner's: a malformed one weighs nothing
                continue
            if not right and not _zero(got) and not _zero(want):
                out.append((question, got, want, params, book))
        self._looks_cache = out
        return out

    def _said_on_looks(self) -> list:
        """For each look, every words (as templates: numbers and names left out) the sources say there."""
        out = []
        for question, g, w, params, book in self._looks():
            if getattr(question, "_values_only", False):  # a declared other input: its values, no words
                out.append((None, g, w))
                continue
            said = set()
            for find in (_own_hints, _parts_and_code, _general_words, _flop_half):
                said |= {_template(t, params) for t in (_quiet(find, question, g, w, default=[]) or [])
                         if isinstance(t, str)}
            out.append((said, g, w))
        return out

    def _support(self, text: str, how: str, got, want) -> str:
        """'look' (found again on a look), 'book' (exact on the book's inputs; no look finds it, or none ran),
        or 'no' (not to be shown: unreadable, or the whole × a unit no look and no typed constant shows)."""
        if not text or _unreadable(text, self) or _quiet(explain.refuted_by_cell, self, text, got, want, default=False) \
                or _quiet(states_answer, text, want, default=False):  # … or the words state the answer itself
            return "no"  # unreadable, or words about a construct (an off-by-one) the learner's lines do not write
        if how == "proof":  # proven on the learner's lines and on the looks the kernel reported: as a look's
            return "look"
        if how != "code" and _quiet(_story_refuted, self, text, got, want, default=False):
            return "no"  # a story of the value whose blamed term the learner's own lines visibly write right
        if how == "code" or diagnose.direction_only(text):
            return "book"
        looks = self._looks()
        # a factor named as a field of the model's config (d, L) may be that number by chance (d = 2048 is
        # 2 × 1024): said only when a look, on another model, finds the same words with its own number
        config = _quiet(_names_config_size, self, text, default=True)
        # two slips at once (two parts, a part and a unit): each is proven only when a look, on other inputs, finds
        # the same two again; the book's inputs alone fit many pairs (a value of 0 is every part left out)
        from embedlab.grading import parts as parts_

        two = parts_.two_changes(text)
        if two and text in parts_.SCALES_OF and all(_typed_evidence(self, f) for f in parts_.SCALES_OF[text]):
            two = False  # two unit scales, each of whose constants the cell types (32 bits, 2**20): the code shows both
        if not looks:
            return "no" if config or two else "book"
        said = self._said_on_looks()
        mine = _template(text, next((book for *_, book in looks if book), {}))
        # found again on a look, alone or as one clause of two changes there ("X; and Y": the cell's other slip,
        # a number typed for the book's inputs, moves the look's value too)
        if any(_same_template(mine, c) for words, _, _ in said if words for t in words for c in _clauses(t)):
            return "look"
        if config or two:
            return "no"  # a config's size, or two slips at once, that no look finds again: not proven
        constant = _constant_ratio(got, want)
        if constant is not None and self._claims_factor(text, got, want):
            if any(_exactly(g, constant * w) for _, g, w in said):
                return "look"
            # the factor is a count the words name (all n_new new tokens, n_new = 4 here), not a unit: the words'
            # own rule was exact on the book's inputs
            if not _typed_evidence(self, constant) and not _quiet(_named_count, self, text, constant, default=False):
                return "no"
        if how == "own" and any(words for words, _, _ in said):
            # "that is X" exact on the book's inputs only: the looks that weigh words (the learner's cell wrong
            # there too) do not find X again, so the book's inputs made it a coincidence, not the learner's slip
            return "no"
        if how == "book" and parts_.swapped_in(text, got) and any(words for words, _, _ in said) \
                and _types_no_number(self):
            # an input the search swapped into a part's place (the weakest story: no author wrote it) exact on the
            # book's inputs only, the same: no look finds it again (3 columns for 4 rows is the count of 1s plus a
            # bias on the book's table, on no other), so the book's numbers made it fit, not the learner's lines.
            # Only of a cell that types no number: one typed for the book's inputs moves the look's value too
            return "no"
        return "book"

    def _claims_factor(self, text: str, got, want) -> bool:
        """Do the words rest on the value being exactly that factor times the answer? They do when a value a
        little off that factor no longer gets them (a share above 1 is still above 1 there)."""
        try:
            nearby = float(got) * 1.37
        except (TypeError, ValueError):
            return True
        said = set()
        for find in (_own_hints, _parts_and_code, _general_words):
            said |= set(_quiet(find, self, nearby, want, default=[]) or [])
        return text not in said

    def _weigh(self, candidates: list, got, want) -> str:
        """The candidate to show: the first found again on a look, else the first exact on the book's inputs."""
        first = ""
        rank = {"look": 2, "book": 1, "no": 0}
        candidates = _quiet(self._agreeing, candidates, got, default=candidates)
        # a whole measured off by one input ("exactly d short: recheck …") names no term: after those that do
        candidates = [c for c in candidates if not _MEASURED_GAP.search(c[0])] \
            + [c for c in candidates if _MEASURED_GAP.search(c[0])]
        for text, how in candidates:
            # two explanations weighed one by one (`_either`): shown as it decides, supported as the words the
            # sources build (a look says them too) or, narrowed to one, as that one
            shown = self._either(text, how, got, want)
            support = self._support(text, how, got, want)
            if shown != text and parts_alternatives(text) and shown in parts_alternatives(text):
                support = max(support, self._support(shown, how, got, want), key=rank.get)
            elif shown != text and support == "no":
                support = "book" if self._support(shown, how, got, want) != "no" else "no"
            if support == "look":
                return parts_worded(shown)
            if support == "book" and not first:
                first = parts_worded(shown)
                if not self._looks():
                    return first
        return first

    def _agreeing(self, candidates: list, got) -> list:
        """The candidates with each story of the learner's terms (parts.story_of) that the learner's own lines
        write fewer of than another story does left out: of stories that give one value, the learner's is the one
        whose terms the lines write (`ln = 2 * D` is the LayerNorms half there, not "no LayerNorms")."""
        from embedlab.grading import parts

        self._story_scores = {}
        stories = {}
        for text, _ in candidates:
            for one in (parts.alternatives(text) or (text,)):
                story = parts.story_of(one, got)
                if story is not None:
                    stories[one] = story
        if len(stories) < 2:
            return candidates
        terms = explain.own_terms(self, got)
        if not terms:
            return candidates
        score = {one: parts.agreement(story, terms) for one, story in stories.items()}
        best = max(score.values())
        self._story_scores = score
        return [(t, h) for t, h in candidates
                if all(score.get(one, best) == best for one in (parts.alternatives(t) or (t,)))
                or any(score.get(one, -1) == best for one in (parts.alternatives(t) or ()))]

    def _story_by_lines(self, got, want) -> str | None:
        """Of the stories the named parts tell of the value (more than two: the search names none), the one whose
        terms the learner's own lines write more of than any other (parts.agreement on explain.own_terms, the
        lines read as arithmetic); None when the lines cannot be read or two stories do equally well."""
        from embedlab.grading import parts

        words = _quiet(explain.explanations, self, got, want, default=set()) or set()
        stories = {w: parts.story_of(w, got) for w in words}
        stories = {w: s for w, s in stories.items() if s is not None}
        if len(stories) < 2:
            return None
        terms = explain.own_terms(self, got)
        if not terms:
            return None
        ranked = sorted(((parts.agreement(s, terms), w) for w, s in stories.items()), reverse=True)
        (best, words_), (second, _) = ranked[0], ranked[1]
        if best <= second or _unreadable(words_, self) \
                or _quiet(explain.refuted_by_cell, self, words_, got, want, default=False):
            return None
        return words_

    def _either(self, text: str, how: str, got, want) -> str:
        """Words of two explanations ("either A, or B", parts.search) weighed one by one: an alternative the
        learner's own lines rule out (a ratio where the cell divides by no computed number) is dropped, one a look
        finds again is kept alone; two that stand are written one short sentence each, the likelier first (the
        one a look finds, else one the question itself names before a general reading: a ratio for a
        difference, a unit), under words that say each is a slip alone (never both made at once)."""
        from embedlab.grading import parts

        pair = parts.alternatives(text)
        if not pair:
            return text
        if len(pair) == 2 and _quiet(parts.one_story, *pair, got, default=False):
            # one story told twice (the same terms, or the same clauses once a shared part left out "in one place"
            # is read as left out): said once, in its plainer telling, never as two slips that repeat each other
            return parts.plainer(*pair)
        # each alternative weighed on the learner's own lines as any words are (refuted_by_cell: a construct they do
        # not write, a factor they already multiply by, a swap they do not make)
        # a measured gap ("exactly 2 · d short: recheck …") beside a named part of that size is no second slip
        named = [a for a in pair if not _MEASURED_GAP.search(a)]
        pair = named if len(named) == 1 else pair
        left = [a for a in pair if not _quiet(explain.construct_unwritten, self, a, default=False)
                and not _quiet(explain.multiplies_what_is_read, self, a, default=False)
                and not _quiet(explain.swap_unproven, self, a, got, want, default=False)]
        if len(left) == 1:
            return left[0]
        if not left:
            return text
        # the one whose terms the learner's own lines write more of (`_agreeing`): the code shows which story it is
        scores = getattr(self, "_story_scores", None) or {}
        if all(a in scores for a in left) and len({scores[a] for a in left}) > 1:
            return max(left, key=scores.get)
        # the one whose changed part the learner's own expression writes, at that changed value (`norms = 2 * d`:
        # half the LayerNorms), where the other's it does not: the cell shows which slip it made
        for whole in (False, True):  # its terms (d · V_small in a ratio), then its named wholes (`norms = d + d`)
            present = _quiet(explain.present_terms, self, whole, default=set()) or set()
            written = [a for a in left if parts.written_by(a, present)]
            if len(written) == 1:
                return written[0]
        support = {a: self._support(a, how, got, want) for a in left}
        kept = [a for a in left if support[a] != "no"] or left
        if len(kept) == 1:
            return kept[0]
        found = [a for a in kept if support[a] == "look"]
        if len(found) == 1:
            return found[0]
        import re

        general = re.compile(r"^that is a (ratio|difference) \(")
        rank = {a: (support[a] != "look", bool(general.match(a))) for a in kept}
        first, second = sorted(kept, key=rank.get)
        shared = parts.shared_slip(first, second)
        if shared:
            # a slip both tell (GB for GiB), said once, and the one slip more that the number cannot tell apart
            return shared
        which = "The likelier" if rank[first] != rank[second] else "One"
        # one of them two slips itself ("X; and Y"): not "the one slip you made" (parts.either)
        two = "; and " in first or "; and " in second
        lead = parts.TWO_WAYS_LEAD.split(": either")[0] if two else parts.TWO_SLIPS
        return f"{lead}. {which}: {first}. The other: {second}"

    def _measured(self, got, want) -> str:
        """What is measurably true of a value, no cause guessed: which way, how far, and what to recheck."""
        return self._pointed(_quiet(diagnose.measured_hint, got, want, self.unit_of(), None, self.name)
                             or ("too big" if got > want else "too small"))


def _own_story_ambiguous(question, own: str, got, want) -> bool:
    """Is a question's own words for a function's value one of several stories the value fits? The named parts tell
    two or more different stories of the same value (4·d·L short is the LayerNorms' shifts left out, and the MLP's
    4d bias left out): the value alone cannot say which the learner's code made, so the own words, which pick one,
    are not said (the parts' own weighing, or the measured words, speak instead)."""
    from embedlab.grading import parts as parts_

    words = _quiet(explain.explanations, question, got, want, default=set()) or set()
    stories = {tuple(sorted(parts_._story_key(t) for t in story)) for story in
               (parts_.story_of(w, got) for w in words) if story is not None}
    return len(stories) >= 2


def _story_refuted(question, text: str, got, want) -> bool:
    """Do the learner's own lines visibly write right the term a story of their value blames? A story (the named
    parts changed: parts.story_of) says which terms the learner's sum lacks (a part left out: its terms gone) and
    which it has too often (counted twice, or a sibling in its place): a term said lacking that the lines write as
    often as the answer has it (`4 * d + d` beside "no MLP biases"), or a term said extra that the lines write no
    more often than the answer (`3 * d` once beside "the q, k, v biases counted twice"), refutes it. The value
    alone fits it (a coincidence of sizes: 3·d too many is also a 4d bias where d belongs); the code does not.
    False when the lines cannot be read as terms (explain.own_terms) or the words are no story."""
    from collections import Counter

    from embedlab.grading import parts as parts_

    if getattr(question, "case", None) is not None or question.parts is None:
        return False
    story = parts_.story_of(text, got)
    if story is None:
        return False
    terms = explain.own_terms(question, got)
    if not terms:
        return False
    answers = question.parts()
    answers = answers if isinstance(answers, (list, tuple)) else [answers]
    key = parts_._story_key
    mine, theirs = Counter(key(t) for t in terms), Counter(key(t) for t in story)

    def written(v) -> float:
        """How many times the lines write the term v: itself, or a whole multiple of it (`2 * V * d` is V·d twice)."""
        count = 0.0
        for t in terms:
            ratio = t / v if v else None
            if ratio is not None and 1 <= ratio <= 4 and abs(ratio - round(ratio)) < 1e-9:  # 2 · x, not d · x
                count += round(ratio)
        return count

    best = None
    for answer in answers:
        right = Counter(key(t) for t in parts_.story_terms(answer.tree, {}))
        if key(sum(parts_.story_terms(answer.tree, {}))) != key(want):
            continue  # another way of writing the answer (a list of Answers): its terms are not these
        common = sum((right & theirs).values())
        if common and (best is None or common > best[0]):
            best = (common, right)  # the way of writing the answer the story changes (it keeps most of its terms)
    if best is None:
        return False  # a story of a whole value (the new table where its growth is asked): no term of it to weigh
    right = best[1]
    lacking, extra = right - theirs, theirs - right
    # (a term said extra is weighed only where the answer has it too: counted twice; a term the answer lacks, a sum
    # where a product belongs, is written by the lines in pieces their terms do not show)
    return any(mine[v] >= right[v] for v in lacking) or any(right[v] and written(v) <= right[v] for v in extra)


# the words of a whole measured to be off by one input (parts._offset_words): a size, not a named slip
_MEASURED_GAP = re.compile(r"\bis exactly .+ short: recheck|\bhas exactly .+ too many: recheck|\bis short by exactly one "
                           r"number for")


def _merged_entries(question, got, want) -> str:
    """Two or more entries of a named 1-D answer given together in one (the master copy and the moments as one
    12-byte entry, the others 0): proven exactly, entry i of the learner's equal to the sum of the answer's
    entries i and J, each of J given as 0."""
    names = list(getattr(question, "entries", ()) or ())
    try:
        g, w = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    except (TypeError, ValueError):
        return ""
    if not names or g.shape != w.shape or g.shape != (len(names),):
        return ""
    bad = [j for j in range(len(names)) if g[j] != w[j]]
    for i in bad:
        rest = [j for j in bad if j != i]
        if rest and all(g[j] == 0 and w[j] != 0 for j in rest) and g[i] == w[i] + sum(w[j] for j in rest):
            together = " and ".join([names[i], *[names[j] for j in rest]])
            order = ", ".join(names)
            zeros = " and ".join(names[j] for j in rest)
            return (f"your {names[i]} entry holds the {together} together, and your {zeros} "
                    f"entr{'y is' if len(rest) == 1 else 'ies are'} 0: give each part its own entry, in the order "
                    f"[{order}]")
    return ""


def _named_entries(question, text: str) -> str:
    """The general words' "entries 2, 3 differ" with what those entries hold, for a named 1-D answer."""
    import re

    names = list(getattr(question, "entries", ()) or ())
    if not names or not isinstance(text, str):
        return text

    def name(m):
        idx = [int(k) for k in re.findall(r"\d+", m.group(1))]
        if not idx or any(k >= len(names) for k in idx):
            return m.group(0)
        said = ", ".join(names[k] for k in idx)
        return f"{m.group(0)[:-len(m.group(2))]}({said}) {m.group(2)}"
    return re.sub(r"entr(?:ies|y) ((?:\d+, )*\d+) (differs?)", name, text)


def _own_hints(question, got, want) -> list:
    """The question's own hints that hold for (got, want), in order (their `unless` read from the code)."""
    out = []
    ruled_out = _quiet(_cell_features, question.source, default=set()) if question.source else set()
    for hint in question.hints:
        if hint.args and question.case is None:
            continue
        if hint.unless and any(token in ruled_out for token in hint.unless.split("|")):
            continue
        try:
            if hint.when(got, want, *question.case) if hint.args else hint.when(got, want):
                if not _quiet(explain.refuted_by_cell, question, hint.message, got, want, default=False) \
                        and not _quiet(states_answer, hint.message, want, default=False):
                    out.append(hint.message)  # words about a construct the learner's lines write, or any other
        except Exception:  # noqa: BLE001
            continue
    return out


_WRITTEN_TWICE: dict = {}  # (question, source, part): do the lines write it twice


def _step_again(question, got, want):
    """(the step's words, the route's words) where `got` is the answer with one of its
    own steps made again: a term of the answer's sum (its named parts) counted twice.
    Two routes then give exactly that value on every input: the step made twice over,
    or made once on a value that already had it (the answer typed from the lesson, or
    reached another way). None where the value is no such step, or where the learner's
    own lines write the term twice (the code shows the first route)."""
    from embedlab.grading import parts as parts_

    answers = question.parts() if question.parts is not None else None
    answers = answers if isinstance(answers, list) else [answers] if answers else []
    for answer in answers:
        parent = {c.id(): n for n in answer.tree.nodes()
                  for c in getattr(n, "children", [])}
        if not _exactly(answer.tree.value({}), want):
            continue
        for node in answer.tree.nodes():
            doubled = answer.tree.value({node.id(): parts_.TWICE})
            if not isinstance(parent.get(node.id()), parts_.Sum) \
                    or not node.can_double or not _exactly(doubled, got):
                continue
            step, key = node.value({}), (question.name, question.source, node.name)
            if key not in _WRITTEN_TWICE:  # read on the value's inputs, not a look's
                if len(_WRITTEN_TWICE) > 1000:
                    _WRITTEN_TWICE.clear()
                _WRITTEN_TWICE[key] = _written_twice(question, got, step)
            if _WRITTEN_TWICE[key]:
                return None  # `untied - V * d - V * d`: the lines write the term twice
            minus = node.name.startswith("minus ")
            what = node.name[len("minus "):] if minus else node.name
            aside = f" ({node.words})" if node.words else ""
            if step < 0:
                return (f"{answer.context} takes {what}{aside} away twice, where the "
                        "answer takes it away once",
                        "the value you started from already had it taken away, and you "
                        "took it away again")
            return (f"{answer.context} has {what}{aside} twice, where the answer "
                    "has it once",
                    "the value you started from already had it, and you added it again")
    return None


def _written_twice(question, got, step) -> bool:
    """Do the learner's lines write a term of `step` twice, as they add up to `got` on
    the book's inputs: two computed terms of that size (a typed one is a value started
    from, the other route), one of twice that size, or a product that types the 2."""
    terms = _quiet(explain.own_terms, question, got, default=None)
    typed = _quiet(explain.typed_constants, question, default=None) or set()
    if terms is None:  # no +/- chain to read: one product (`V * d * 2`)
        return 2 in typed
    computed = [t for t in terms if not any(_exactly(t, c) for c in typed)]
    return sum(1 for t in computed if _exactly(t, step)) >= 2 \
        or any(_exactly(t, 2 * step) for t in terms)


def _own_words(question) -> set:
    """The words a question declares for a story of a value: its hints' messages, its
    factors' words and its named parts' extras (a tied head counted) — each tells one
    route to the value."""
    from embedlab.grading import parts as parts_

    out = {h.message for h in question.hints if isinstance(h.message, str)}
    out |= {w for w in (question.factor_hints or {}).values() if isinstance(w, str)}
    answers = question.parts() if question.parts is not None else None
    answers = answers if isinstance(answers, list) else [answers] if answers else []
    for answer in answers:
        out |= {n.says for n in answer.tree.nodes() if isinstance(n, parts_.Extra)}
    return out


def _both_routes(own: str, step: str, again: str) -> str:
    """A question's own words for a value two routes give (`_step_again`): the measured
    step first, then both routes, the own words one of them, neither picked."""
    return f"{step}. Two routes give exactly that. One: {own}. The other: {again}"


def _parts_and_code(question, got, want) -> list:
    """What the named parts and the code say of a value: the search's words first, then every explanation it
    finds (a look may find the same slip among others), then what the code does that fits."""
    first = _quiet(explain.number, question, got, want, default=None)
    return [t for t in [first, *sorted(_quiet(explain.explanations, question, got, want, default=set()) or ())] if t]


def _general_words(question, got, want) -> list:
    """The general words of embedlab.grading.diagnose for a value."""
    words = _quiet(diagnose.number_hint, got, want, question.factors, question.factor_hints,
                   _quiet(explain.typed_constants, question, default=None), question.unit_of(),
                   _quiet(code.names_bytes, question.source, default=False), question.name,
                   question.is_ratio(), _quiet(_lesson_names, question, default=()))
    return [words] if words else []


def _lesson_names(question) -> tuple:
    """The names of the questions of the question's lesson (its own, or the lesson whose solution writes its
    function): what the lesson counts, for the general words' causes (diagnose.factor_words)."""
    import importlib

    lesson = question.lesson or question.solved_in
    if not lesson or not lesson[:2].isdigit():
        return ()
    module = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")
    return tuple(getattr(q, "name", "") for q in getattr(module, "QUESTIONS", ()))


def _flop_half(question, got, want) -> list:
    found = _quiet(diagnose.flop_slip, got, want, question.unit_of(), False, default=None)
    return [found] if found else []


_NUMBER = None


def _names_config_size(question, text: str) -> bool:
    """Do the words name a size of the model's config as the factor of the whole answer (explain's config
    scales: "yours is d (hidden_size) of gpt2 times too much")?"""
    return any(scale.says in text for scale in explain._config_scales(question))


def _template(text: str, params: dict | None) -> str:
    """A hint's words with its numbers and its parameters' own values (a model's name) left out: the same
    slip said on two sets of inputs reads the same."""
    import re

    global _NUMBER
    if _NUMBER is None:
        _NUMBER = re.compile(r"[-−]?\d[\d,_]*(?:\.\d+)?(?:e[-+]?\d+)?|\*\*\s*\d+")
    for value in sorted((v for v in (params or {}).values() if isinstance(v, str) and len(v) >= 3), key=len,
                        reverse=True):
        text = text.replace(value, "<name>")
    return _NUMBER.sub("#", text)


def parts_worded(words: str) -> str:
    """parts.worded: two explanations as shown (one of two slips: never "the one you made")."""
    from embedlab.grading import parts

    return parts.worded(words)


def parts_alternatives(words: str):
    from embedlab.grading import parts

    return parts.alternatives(words) or ()


def _clauses(words: str) -> list:
    """Words, and each change of two they name ("X; and Y")."""
    parts_ = words.split("; and ")
    return [words] + (parts_ if len(parts_) > 1 else [])


def _same_template(a: str, b: str) -> bool:
    """The same words said of two sets of inputs: equal once numbers are left out, but for at most two words
    in the same places (a model's name as the hint writes it, "OPT-125M" for opt-125m)."""
    if a == b:
        return True
    x, y = a.split(), b.split()
    return len(x) == len(y) and len(x) >= 6 and sum(p != q for p, q in zip(x, y)) <= 2


def _unreadable(text: str, question) -> bool:
    """Words that cannot be shown as they are (a slot left empty, a unit on a value without one):
    embedlab.grading.text.hint_problems."""
    from embedlab.grading.text import hint_problems

    from embedlab.grading.text import without_repeats

    # read as it will be shown: a repeated clause is left out then (Question._verdict), not held against the rest
    return bool(_quiet(hint_problems, without_repeats(text), question.unit_of(),
                       diagnose.UNITLESS, question.described(), default=[]))


def _constant_ratio(got, want):
    """The unit or percentage factor c (×100, ×8, 2**30 / 10**9, −1 …) with got exactly c × want, else None."""
    try:
        got, want = float(got), float(want)
    except (TypeError, ValueError):
        return None
    if not want or not math.isfinite(got):
        return None
    from embedlab.grading import parts

    for c in sorted({f for f, _ in diagnose.FACTORS} | {s.factor for s in parts.UNIT_SCALES}):
        if c not in (2, 0.5) and _exactly(got, c * want):
            return c
    return None


TYPED_EVIDENCE = {100: {100}, 1 / 100: {100}, 1e3: {1000}, 1e-3: {1000}, 1e6: {10**6}, 1e-6: {10**6},
                  1e9: {10**9}, 1e-9: {10**9}, 1e12: {10**12}, 1e-12: {10**12}, 3600: {3600, 60}, 1 / 3600: {3600, 60},
                  1024: {1024, 2**10}, 1 / 1024: {1024, 2**10}, 2**20: {2**20, 1024}, 1 / 2**20: {2**20, 1024},
                  2**30: {2**30, 1024}, 1 / 2**30: {2**30, 1024}}


def _named_count(question, text: str, c) -> bool:
    """Do the words name, by its own name, an input of the question (`inputs`) whose value is the factor c?"""
    import re

    sizes = question.inputs() if callable(question.inputs) else {}
    return any(isinstance(v, (int, float)) and not isinstance(v, bool) and v == c and v not in (0, 1)
               and re.search(rf"(?<![\w.]){re.escape(str(k))}(?![\w])", text) for k, v in sizes.items())


def _recheck_the_call(question, said: str) -> str:
    """`said` with the fallback's recheck of what the quantity is (diagnose.RECHECK) put as what to recheck around
    the call, where the learner's own lines call the lesson's own function for that quantity (kl_divergence for a
    divergence): that function computes it right; the inputs given to it, and what is done with its result, are
    the learner's. `said` unchanged otherwise."""
    import ast

    unit = question.unit_of()
    recheck, fn = diagnose.RECHECK.get(unit), diagnose.LESSON_FUNCTION.get(unit)
    if not recheck or not fn or recheck not in said or not question.source:
        return said
    try:
        tree = ast.parse(code.own_part(question.source))
    except (SyntaxError, ValueError, RecursionError):
        return said
    if not any(isinstance(n, ast.Call) and code_name(n.func) == fn for n in ast.walk(tree)):
        return said
    given, returned = diagnose.LESSON_FUNCTION_INPUTS[unit]
    return said.replace(recheck, f"your cell computes it with `{fn}`, the lesson's own function: recheck what you give "
                                 f"it ({given}) and what your cell does with what it returns ({returned})")


def code_name(node) -> str:
    """The name a call's function is read by: `f` of f(…), `g` of x.g(…)."""
    import ast

    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _types_no_number(question) -> bool:
    """Do the learner's own lines type no number but 0 and 1 (their value follows the inputs wherever they are)?"""
    typed = _quiet(explain.typed_constants, question, default=None)
    return typed is not None and all(t in (0, 1) for t in typed if not isinstance(t, str))


def _typed_evidence(question, c) -> bool:
    """Does the learner's own cell type a constant of the unit factor c (32 or 8 for bits, 100 for a
    percentage, 2**30 or 1024 for GiB)? Then the code itself shows the slip, on any inputs."""
    typed = _quiet(explain.typed_constants, question, default=None)
    if not typed:
        return False
    wanted = set(diagnose.UNIT_EVIDENCE.get(c, set())) | next((v for k, v in TYPED_EVIDENCE.items()
                                                                if math.isclose(k, c, rel_tol=1e-9)), set())
    numbers = {t for t in typed if isinstance(t, (int, float)) and not isinstance(t, bool)}
    return any(math.isclose(t, w, rel_tol=1e-9) for t in numbers for w in wanted if w not in (2, 4, 10))


def _exactly(a, b) -> bool:
    """Equal as computed numbers are: to float64's rounding (1 part in 10**9), no absolute slack around 0."""
    try:
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        return False
    return a == b or (math.isfinite(a) and math.isfinite(b) and math.isclose(a, b, rel_tol=1e-9, abs_tol=0.0))


def _other_values(got, want, got_kind=None, want_kind=None, ids: bool = True) -> str:
    """What an array holds when it is not what the answer holds: fractions (scores, cosines) where the answer is
    whole numbers (ids, counts). Measured, not guessed: no rule about the order of ids applies to scores. `ids`:
    the answer holds ids (Question._ids); of any other whole numbers (a table of 0s and 1s, counts) no ids and no
    scores are named."""
    try:
        g, w = np.asarray(got), np.asarray(want)
        whole = want_kind in ("int", "uint", "integer") if want_kind else w.dtype.kind in "iu"
        if w.size == 0 or g.size == 0 or not whole or not np.all(w == np.round(w)):
            return ""
        if np.all(np.isfinite(g)) and np.all(g == np.round(g)):
            return ""
        if g.shape == w.shape and np.any(w != 0):  # the same values in another unit (GB for bytes): a scale
            c = float(g.ravel() @ w.ravel()) / float(w.ravel() @ w.ravel())
            if c and np.allclose(g, c * w, rtol=1e-9, atol=0):
                return ""
    except Exception:  # noqa: BLE001
        return ""
    if not ids:
        return _rows_scaled(got, want) or (
            "your array holds fractions where the answer holds whole numbers only: recheck the step that "
            "makes them fractions")
    return ("your array holds fractions (scores, cosines, values?) where the answer holds whole numbers (ids, "
            "indices, counts): return the ids the question asks for, not the scores they are chosen by")


def _rows_scaled(got, want) -> str:
    """Each row of a 2-d `got` exactly the answer's row divided by that row's own length (or its own sum):
    measured row by row, said as that; "" otherwise."""
    g, w = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    if g.ndim != 2 or g.shape != w.shape or g.size == 0:
        return ""
    for how, size in (("length", np.linalg.norm(w, axis=1, keepdims=True)),
                      ("sum", w.sum(axis=1, keepdims=True))):
        if np.all(size != 0) and np.allclose(g, w / size, rtol=1e-9, atol=0):
            return (f"each of your rows is the answer's row divided by its own {how}: the question asks "
                    "for the rows as they are, not normalised")
    return ""


WHOLE_MATRIX_NORM = ("each row is divided by the norm of the whole matrix (np.linalg.norm(M), one number), where each "
                     "row's own length belongs: take the norm per row, np.linalg.norm(M, axis=1) (keepdims=True to "
                     "divide the rows)")


def divided_where_it_does_not_belong(terms: dict, count: int, count_words: str, why: str) -> list:
    """Hints for a sum of terms (a gradient's paths: {what: array}) with one term, or the whole, divided by a count
    (the batch size) that divides nothing there: each is computed exactly and named by the term divided."""
    names = list(terms)
    if count in (0, 1) or not names:
        return []

    def close(got, value):
        got, value = np.asarray(got, dtype=float), np.asarray(value, dtype=float)
        return got.shape == value.shape and bool(np.allclose(got, value, rtol=1e-9, atol=1e-12))

    out = []
    for name in names:
        value = sum((terms[n] / count if n == name else terms[n]) for n in names)
        out.append(Hint(lambda got, want, v=value: close(got, v) and not close(want, v),
                        f"{name} is divided by {count}, {count_words}: {why}; add it as it is"))
    if len(names) > 1:
        whole = sum(terms.values()) / count
        out.append(Hint(lambda got, want, v=whole: close(got, v) and not close(want, v),
                        f"the whole sum is divided by {count}, {count_words}: {why}; do not divide"))
    return out


def ratio_of_sizes(sizes: Callable, asked: str, rel: float = 1e-9) -> Hint:
    """A question's hint for a ratio of two sizes the question names (two vocabularies' sizes) given where a
    ratio of two measured quantities is asked (tokens per word with each tokenizer): `sizes()` is {what: value}
    (read only when the hint is tried); either way up, exactly (to `rel`)."""
    def which(got):
        named = [(k, v) for k, v in sizes().items() if v]
        for (a, x), (b, y) in itertools.permutations(named, 2):
            if x != y and math.isclose(got, x / y, rel_tol=rel):
                return a, b
        return None

    def when(got, want):
        return which(got) is not None and not math.isclose(got, want, rel_tol=rel)
    return Hint(when, f"that is the ratio of the two sizes ({' and '.join(sizes_words(sizes))}), not of what the "
                      f"question measures: {asked}", proven=True)


def sizes_words(sizes: Callable) -> list:
    try:
        return list(sizes())
    except Exception:  # noqa: BLE001 - a size that cannot be read names nothing
        return []


def lesson_example(examples, inputs: str) -> list:
    """Hints for a value the lesson notebook itself shows (its own toy table, its own count) given where the
    question asks for the one its inputs make: `examples` is [(value, what it is in the lesson)]. Exact (an
    array's shape and every entry), and never when the example is this question's answer too."""
    def same(a, b) -> bool:
        try:
            a, b = np.asarray(a), np.asarray(b)
            return a.shape == b.shape and bool(np.array_equal(a, b))
        except (TypeError, ValueError):
            return False
    return [Hint(lambda got, want, v=value: same(got, v) and not same(want, v),
                 f"that is {what}, the lesson's own example, typed in: build the answer from this question's "
                 f"inputs ({inputs}), so that it follows them") for value, what in examples]


def positions_hint(table: Callable, ids: Sequence, name: str = "E", ids_name: str = "ids") -> Hint:
    """A question's hint for rows looked up by their positions in the list (0, 1, … len(ids) − 1: `E[i] for i in
    range(len(ids))`) where the rows of the ids themselves are asked: `table()` gives the table the rows come from
    (read only when the hint is tried). Exact, and only where the ids are not already 0, 1, 2 …"""
    n = len(ids)

    def when(got, want):
        rows = np.asarray(table())[:n]
        return list(ids) != list(range(n)) and np.shape(got) == rows.shape and np.array_equal(got, rows) \
            and not np.array_equal(got, want)
    return Hint(when, f"those are rows 0 to {n - 1} of {name}, the positions in the list (range(len({ids_name}))), "
                      f"not the ids: the rows asked are those of the ids themselves, {name}[{ids_name}] (id {ids[0]} "
                      f"first)")



def step(value: Callable, what: str, after: str) -> Hint:
    """A question's hint for a value that is a step of the answer's own computation short of its end (the one-hot
    matrix before its product with E, the ids before their rows are looked up): `value()` computes that step from
    the variant's inputs, as the solution does (read only when the hint is tried). Exact: an array's shape and every
    entry (whatever its dtype), never when the step is the answer itself. The words say which step it is and what
    comes after it, never the answer."""
    def when(got, want):
        mine, theirs = np.asarray(got), np.asarray(value())
        if mine.shape != theirs.shape or mine.dtype.kind not in "biuf" or theirs.dtype.kind not in "biuf":
            return False
        return bool(np.array_equal(mine, theirs)) and not (np.shape(want) == theirs.shape
                                                           and np.array_equal(np.asarray(want), theirs))
    return Hint(when, f"that is {what}, a step of the computation short of its end: {after}", proven=True)


def rows_by(table: Callable, ids: Callable, what: str, right: str) -> Hint:
    """A question's hint for rows looked up by other ids than the asked ones: `table()` the table the rows come from,
    `ids()` the ids a learner may use in their place (each word's position in a list, say), both read only when the
    hint is tried; `what` says what those ids are, `right` which ids are asked. Exact (every row), and only where
    those ids pick other rows than the answer's."""
    def when(got, want):
        rows = np.asarray(table())[list(ids())]
        return np.shape(got) == rows.shape and bool(np.array_equal(got, rows)) and not np.array_equal(got, want)
    return Hint(when, f"your rows are rows of the table looked up by {what}, not by {right}", proven=True)

def whole_norm_hint(rows: Callable) -> Hint:
    """A question's hint for a per-row result (cosines of rows) computed with the norm of the whole block of
    rows: `rows()` gives the block the question's rows are (read only when the hint is tried)."""
    return Hint(lambda got, want: bool(_whole_matrix_norm(got, want, [rows()])), WHOLE_MATRIX_NORM)


def _whole_matrix_norm(got, want, args) -> str:
    """A function's per-row result off, row by row, by each row's own length over the whole matrix's: the norm
    of the whole matrix (np.linalg.norm(M)) used where each row's norm belongs (axis=1). Read from the call's
    own 2-D argument, exactly (1 part in 10**9)."""
    if not args:
        return ""
    try:
        g, w = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
        for a in args:
            m = np.asarray(a) if isinstance(a, (list, np.ndarray)) else None
            if m is None or m.ndim != 2 or m.dtype.kind not in "iuf" or w.shape[:1] != m.shape[:1] or g.shape != w.shape:
                continue
            rows, whole = np.linalg.norm(m.astype(float), axis=1), float(np.linalg.norm(m.astype(float)))
            if not whole or np.allclose(rows, whole):
                continue
            scale = (rows / whole).reshape((-1,) + (1,) * (w.ndim - 1))
            if np.allclose(g, w * scale, rtol=1e-9, atol=1e-12) and not np.allclose(g, w, rtol=1e-9, atol=1e-12):
                return WHOLE_MATRIX_NORM
    except (TypeError, ValueError):
        return ""
    return ""


def _proven_from_args(got, want, args) -> str:
    """The array slips read exactly from a call's own arguments (whole-matrix norm, divided by a count, distance
    for a cosine), on the plain data a call reports."""
    g, w = data_to_array(got) if isinstance(got, dict) else got, data_to_array(want) if isinstance(want, dict) else want
    return (_whole_matrix_norm(g, w, args) or _divided_by_count(g, w, args) or _distance_not_cosine(g, w, args)
            or _numbered_from(g, w))


def _numbered_from(got, want) -> str:
    """Whole-number ids where every id from some t on is one off (t - 1 + k for t + k), all below t right: the
    numbering of new ids started one off (merge k makes 255 + k where ids 0 to 255 are taken). Exact."""
    try:
        g, w = np.asarray(got), np.asarray(want)
        if g.shape != w.shape or g.size == 0 or w.dtype.kind not in "iuf" or g.dtype.kind not in "iuf" \
                or not np.all(g == np.round(g)) or not np.all(w == np.round(w)):
            return ""
        differ = g != w
        if not differ.any():
            return ""
        t = int(w[differ].min())
        for step in (-1, 1):
            if t >= 10 and np.array_equal(differ, w >= t) and np.all(g[differ] == w[differ] + step):
                start = t + step
                return (f"every id from {t} on is one too {'small' if step < 0 else 'big'} (yours start at {start}): "
                        f"ids 0 to {t - 1} are taken, so the new ones are numbered from {t} (the k-th new id is "
                        f"{t} + k, k from 0): an off-by-one in where the numbering starts")
    except (TypeError, ValueError):
        return ""
    return ""


def _low_precision(got, want) -> str:
    """A float array whose every value is within float16's rounding of the answer's largest value (2**-8 of it, as
    summing in float16 leaves) and not the answer: measured, said as that; "" otherwise. A value summed into the wrong
    row, a mean for a sum, is off by a whole row's size, far more."""
    g, w = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    if g.shape != w.shape or g.size == 0 or not (np.isfinite(g).all() and np.isfinite(w).all()):
        return ""
    top = float(np.abs(w).max())
    err = float(np.abs(g - w).max())
    if top == 0 or err == 0 or err <= 1e-9 * top or err > 2.0 ** -8 * top:
        return ""
    if g.ndim == 0:  # one number: no largest, no every; the same words on every call (function_hints.most_telling)
        return ("right to within float16's rounding (2**-8 of its size) but not exact, as a cast to a low "
                "precision leaves it (float16 keeps about 3 digits); compute in float64")
    return (f"every value right to within {err / top:.1e} times the largest ({top:.4g}), but not exact: what a low "
            f"precision's rounding leaves (float16 keeps about 3 digits); compute and add in float64")


def _casts_low(source) -> bool:
    """Do the lines name a low precision (float16, half, bfloat16) a value is cast to?"""
    return isinstance(source, str) and bool(re.search(r"\b(?:float16|bfloat16|half|f2)\b", source))


_UNIT_FACTORS = (1e3, 1e6, 1e9, 1e12, 1024.0, float(2**20), float(2**30))


def _unit_factor(got, want):
    """The unit's factor (10**3 … 10**12, 2**10, 2**20, 2**30, or its inverse) the result is of the answer, exactly
    (to 1e-9), or None."""
    g, w = float(got), float(want)
    if not (math.isfinite(g) and math.isfinite(w)) or w == 0 or g == 0:
        return None
    for f in _UNIT_FACTORS:
        for k in (f, 1 / f):
            if math.isclose(g, k * w, rel_tol=1e-9):
                return k
    return None


def _last_row_only(got, want, source, name) -> str:
    """The answer's last row alone (one dimension fewer, exactly want[-1], the rows not all alike): measured; said
    as a loop's last pass only where the learner's own lines assign `name` inside a `for` loop. Exact."""
    import ast

    g, w = np.asarray(got), np.asarray(want)
    if w.ndim < 2 or g.ndim != w.ndim - 1 or w.shape[0] < 2 or g.shape != w.shape[1:] \
            or not np.array_equal(g, w[-1]) or all(np.array_equal(r, w[-1]) for r in w[:-1]):
        return ""
    rows = w.shape[0]
    own = code.own_part(source) if isinstance(source, str) else None
    looped = False
    if own:
        try:
            loops = [n for n in ast.walk(ast.parse(own)) if isinstance(n, ast.For)]
        except (SyntaxError, ValueError, RecursionError):
            loops = []
        looped = any(isinstance(t, ast.Name) and t.id == name for loop in loops for n in loop.body
                     for a in ast.walk(n) if isinstance(a, ast.Assign) for t in a.targets)
    if looped:
        return (f"yours is exactly the last of the {rows} rows asked, alone: your loop sets `{name}` anew on each "
                f"pass, so only the last pass's row is left; keep one row per pass (a list, then np.array or "
                f"np.stack), or compute every row at once")
    return (f"yours is exactly the last of the {rows} rows asked, alone (shape {g.shape}, not {w.shape}): the "
            f"answer holds every row, one per item, in order")


def _leading_zeros_added(got, want) -> str:
    """One more row (and/or column) than asked, the first all zeros, and the rest exactly the answer: indices counted
    from 1 (row and column 0 left empty). Measured on the value, exact."""
    g, w = np.asarray(got), np.asarray(want)
    if g.ndim != w.ndim or g.ndim < 1 or w.size == 0 or w.dtype.kind not in "biuf" or g.dtype.kind not in "biuf":
        return ""
    grown = [a for a in range(g.ndim) if g.shape[a] == w.shape[a] + 1]
    if not grown or any(g.shape[a] != w.shape[a] for a in range(g.ndim) if a not in grown) or not np.any(w):
        return ""
    if not np.array_equal(g[tuple(slice(1, None) if a in grown else slice(None) for a in range(g.ndim))], w):
        return ""
    if any(np.any(np.take(g, 0, axis=a)) for a in grown):
        return ""
    what = {0: "row", 1: "column"} if g.ndim == 2 else {0: "entry"}
    if any(a not in what for a in grown):
        return ""
    extra = " and an extra ".join(f"{what[a]}" for a in grown)
    places = " and ".join(f"{what[a]} i at index i + 1" for a in grown)
    return (f"yours is the expected with an extra {extra} of zeros in front ({places}; shape {g.shape}, not "
            f"{w.shape}): indices counted from 1 where Python counts from 0 (enumerate starts at 0): the "
            f"first item is index 0")


def _ids_shifted(got, want) -> str:
    """Whole-number ids, every one exactly one off the answer's (the answer's ids + 1, or - 1): measured on the
    value, entry by entry, so no other story (a complement, rows left out) is told of it. Exact."""
    try:
        g, w = np.asarray(got), np.asarray(want)
        if g.shape != w.shape or g.size < 2 or w.dtype.kind not in "iuf" or g.dtype.kind not in "iuf" \
                or not np.all(np.isfinite(g)) or not np.all(g == np.round(g)) or not np.all(w == np.round(w)):
            return ""
        for step in (1, -1):
            if np.array_equal(g, w + step):
                return (f"every id is exactly one {'more' if step > 0 else 'less'} than the right one (yours are "
                        f"the answer's ids {'+' if step > 0 else '-'} 1): ids count from 0, as Python indexes "
                        f"rows; {'1 added' if step > 0 else '1 taken'} to each id?")
    except (TypeError, ValueError):
        return ""
    return ""


def _counts_of(args) -> dict:
    """{count: words} of the sizes a call's arguments hold: each list's or array's length (the batch) and an array's
    number of entries (its tokens), counts of 2 or more."""
    out = {}
    for k, a in enumerate(args or ()):
        if isinstance(a, (list, tuple, np.ndarray)) and not isinstance(a, str):
            try:
                arr = np.asarray(a)
            except (TypeError, ValueError):
                continue
            if arr.ndim >= 1 and len(arr) >= 2:
                out.setdefault(len(arr), f"the length of argument {k + 1} (its number of rows: the batch size)")
            if arr.ndim >= 2 and arr.size >= 2 and arr.dtype.kind in "iu":
                out.setdefault(int(arr.size), f"the number of entries of argument {k + 1} (every id of the batch)")
    return out


def _divided_by_count(got, want, args) -> str:
    """A function's array result exactly the right one divided by a count its arguments hold (the batch size):
    an average where the chain rule gives a sum. Read from the call's own arguments, exactly (1 part in 10**9)."""
    try:
        g, w = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
        if g.shape != w.shape or not np.any(w) or np.allclose(g, w, rtol=1e-9, atol=0):
            return ""
        for n, what in _counts_of(args).items():
            if np.allclose(g * n, w, rtol=1e-9, atol=1e-12):
                return (f"every value is the right one divided by {n}, {what}: nothing divides here (the incoming "
                        "gradient already is the loss's: each row is added in full, a sum, not a mean); do not "
                        "divide by the batch size")
    except (TypeError, ValueError):
        return ""
    return ""


def _distance_not_cosine(got, want, args) -> str:
    """A per-row result that is each row's Euclidean distance to the vector it is scored against (a vector
    argument, or the mean of the rows an id argument picks), where a cosine is asked: read from the call's own
    arguments, exactly."""
    try:
        g = np.asarray(got, dtype=float)
        arrays = [np.asarray(a) for a in (args or ()) if isinstance(a, (list, tuple, np.ndarray))]
        matrices = [a.astype(float) for a in arrays if a.ndim == 2 and a.dtype.kind in "iuf"]
        vectors = [a.astype(float) for a in arrays if a.ndim == 1 and a.dtype.kind in "f"]
        ids = [a for a in arrays if a.ndim == 1 and a.dtype.kind in "iu"]
        for M in matrices:
            targets = [v for v in vectors if v.shape == M.shape[1:]]
            targets += [M[i].mean(axis=0) for i in ids if i.size and i.min() >= 0 and i.max() < len(M)]
            for v in targets:
                far = np.linalg.norm(M - v, axis=1)
                if g.shape == far.shape and np.allclose(g, far, rtol=1e-9, atol=1e-12) \
                        and not np.allclose(np.asarray(want, dtype=float), far, rtol=1e-9, atol=1e-12):
                    return ("that is each row's distance to the vector it is compared with (np.linalg.norm(M - v, "
                            "axis=1)), a length, where a cosine is asked: the cosine is the dot product divided by "
                            "both lengths, M @ v / (np.linalg.norm(M, axis=1) * np.linalg.norm(v))")
    except (TypeError, ValueError, IndexError):
        return ""
    return ""


def _zero(value) -> bool:
    try:
        return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool) and value == 0
    except Exception:  # noqa: BLE001
        return False


def _plain_value(question, data):
    """A look's plain data as the hints read it: a number, an array, a word."""
    if question.kind == "integer" and isinstance(data, dict):
        return data["int"] if "int" in data else data["float"]
    if question.kind == "array":
        return data_to_array(data)
    return expected_value(question, data)


@dataclass
class Integer(Question):
    """An exact whole number, e.g. a parameter count."""

    kind = "integer"

    def statement(self) -> str:
        return "a whole number (an int), checked exactly"

    def result_phrase(self) -> str:
        return "a whole number (an int), exact"

    def to_data(self, value):
        if isinstance(value, (float, np.floating)) and math.isfinite(value):
            return {"float": float(value)}
        if not isinstance(value, (numbers.Integral, np.integer)) or isinstance(value, (bool, np.bool_)):
            raise WrongForm(f"expected a whole number (int), got {type(value).__name__}")
        return {"int": int(value)}

    def judge(self, data, expected) -> Verdict:
        if "float" in data:
            got = data["float"]
            if got == expected:
                return self._verdict(False, f"right value, but give it as an int: {self._float_words(got)}")
            if not float(got).is_integer():
                if math.floor(got) == expected:
                    return self._verdict(False, "a float with a fraction: a whole number is asked; round down "
                                                "with // (floor division) or int()")
                return self._verdict(False, f"a float with a fraction, and {self._number_hint(got, expected)}")
            return self._verdict(False, f"{self._number_hint(got, expected)}; and give it as an int")
        got = data["int"]
        if got == expected:
            return self._accepted()
        return self._verdict(False, self._number_hint(got, expected))

    def public_problems(self, data, params):
        return [f"give it as an int: {self._float_words(data['float'])}"] if "float" in data else []

    def _float_words(self, got) -> str:
        """What makes the learner's whole number a float, proved on their own cell (explain.float_cause); else
        only what is true of any float: int() makes it a whole number."""
        return _quiet(explain.float_cause, self, got, default="") or "wrap the result in int()"


EXACT_RTOL = 1e-9   # "exact" for a float: any order of float64 operations agrees to far better than this
EXACT_ATOL = 1e-12  # ... and a value that should be 0


@dataclass
class Real(Question):
    """A float, judged to a stated precision: ``sig=N`` significant figures, or ``exact=True``
    ("compute it in code: the check wants it exact", to 1 part in 10**9).

    One of the two must be given (tests/test_hint_corpus.py checks every question).
    ``rtol`` is the older spelling, read as exact when at most 1e-9, else as
    sig = round(-log10(rtol)).
    """

    sig: int | None = None
    exact: bool = False
    rtol: float | None = None
    atol: float | None = None
    kind = "real"

    def __post_init__(self):
        self.stated = self.sig is not None or self.exact
        if self.sig is not None:
            if isinstance(self.sig, bool) or not isinstance(self.sig, int) or not 1 <= self.sig <= 15:
                raise ValueError(f"sig must be an int from 1 to 15, got sig={self.sig!r}")
            if self.exact:
                raise ValueError(f"give sig or exact, not both: got sig={self.sig!r}, exact=True")
        elif not self.exact:
            if self.rtol is None or self.rtol <= EXACT_RTOL:
                self.exact = True
            else:
                self.sig = max(1, min(15, round(-math.log10(self.rtol))))

    def statement(self) -> str:
        if self.exact:
            return "compute it in code: the check wants it exact (to 1 part in 10⁹)"
        return f"judged to {self.sig} significant figures"

    def result_phrase(self) -> str:
        return "exact (to 1 part in 10⁹)" if self.exact else f"to {self.sig} significant figures"

    def to_data(self, value):
        if not is_plain_number(value):
            raise WrongForm(f"expected a number, got {type(value).__name__}")
        return {"real": float(value)}

    def accepts(self, got: float, want: float) -> bool:
        if not math.isfinite(got):
            return False
        if self.exact:
            return math.isclose(got, want, rel_tol=EXACT_RTOL, abs_tol=EXACT_ATOL)
        return diagnose.within_sig(got, want, self.sig)

    def _rechecked(self, value, expected) -> bool:
        return isinstance(value, (int, float)) and self.accepts(float(value), float(expected))

    def judge(self, data, expected) -> Verdict:
        got = read_real(data["real"])
        if self.accepts(got, expected):
            return self._accepted()
        return self._verdict(False, self._number_hint(got, expected))

    def public_problems(self, data, params):
        return [] if math.isfinite(data["real"]) else ["your value is not finite (inf or nan)"]


@dataclass
class Array(Question):
    """A numeric array: shape first, then values: ``exact=True`` (equal), ``sig=N`` (each value
    to N significant figures; a value that should be 0 within 1e-12) or, by default, each value
    computed in code (to 1 part in 10**9). ``rtol`` is the older spelling (as for Real)."""

    sig: int | None = None
    exact: bool = False
    rtol: float | None = None
    atol: float | None = None
    shape: Callable[[dict], tuple] | None = None  # the expected shape from a variant's parameters (class mode)
    entries: Sequence[str] = ()  # what each entry of a short 1-D answer holds ("weights", "master copy"): named
    ids: bool = False  # its entries are ids (token ids, rows), not quantities: never "too big" or "too small"
    kind = "array"

    def __post_init__(self):
        if self.sig is None and self.rtol is not None and self.rtol > EXACT_RTOL and not self.exact:
            self.sig = max(1, min(15, round(-math.log10(self.rtol))))
        if self.sig is not None and (isinstance(self.sig, bool) or not isinstance(self.sig, int) or not 1 <= self.sig <= 15):
            raise ValueError(f"sig must be an int from 1 to 15, got sig={self.sig!r}")

    def statement(self) -> str:
        if self.exact:
            return "an array, checked exactly (shape, then every value)"
        if self.sig is not None:
            return f"an array: its shape, then each value to {self.sig} significant figures"
        return "an array: compute it in code, the check wants every value exact (to 1 part in 10⁹)"

    def result_phrase(self) -> str:
        if self.exact:
            return "an array, exactly equal"
        if self.sig is not None:
            return f"an array, each value to {self.sig} significant figures"
        return "an array, each value exact (to 1 part in 10⁹)"

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

    def close(self, got, want):
        """Entry by entry: does `got` pass for `want`?"""
        with np.errstate(all="ignore"):
            if self.exact:
                return (got == want) | (np.isnan(got) & np.isnan(want))
            if self.sig is None:
                return np.isclose(got, want, rtol=EXACT_RTOL, atol=EXACT_ATOL, equal_nan=True)
            top = np.floor(np.log10(np.where(want == 0, 1.0, np.abs(want))))
            tol = np.where(want == 0, EXACT_ATOL, 0.5 * 10.0 ** (top - self.sig + 1) * (1 + 1e-9))
            return (np.abs(got - want) <= tol) | (np.isnan(got) & np.isnan(want))

    def judge(self, data, expected) -> Verdict:
        got = data_to_array(data)
        want = data_to_array(expected)
        if got.shape == want.shape and bool(self.close(got, want).all()):
            return self._accepted()
        if _STATUS_ONLY.get():
            return self._verdict(False)
        kinds = data.get("kind") if isinstance(data, dict) else None, \
            expected.get("kind") if isinstance(expected, dict) else None
        # one slip undone in the learner's own lines gives the answer: proved (after a result that is exactly the
        # answer transposed, which the value itself proves and names)
        transposed = got.ndim == 2 and got.shape == want.shape[::-1] and got.shape != want.shape \
            and bool(self.close(got.T, want).all())
        edit = "" if transposed else self._proven_edit(expected, late=False)
        if edit and "range(" in edit:  # a loop one short: the rows it never fills, measured, say which and why
            edit = _quiet(function_hints.rows_left_empty, self, got, want, default=None) or edit
        if edit:
            return self._verdict(False, edit)
        # fractions where whole numbers (ids) are asked: before rules on ids
        other = _other_values(got, want, *kinds, ids=self._ids(want))
        other = other or _whole_matrix_norm(got, want, self.case) or _divided_by_count(got, want, self.case) \
            or _distance_not_cosine(got, want, self.case) or function_hints.rows_left_empty(self, got, want) \
            or _numbered_from(got, want) or (self._ids(want) and _ids_shifted(got, want))
        step = "" if transposed else _quiet(self._step_short, data, default="")
        step = "" if _unreadable(step, self) else step
        # a value measured as the answer's last row alone, or with a row (column) of zeros in front: after the
        # question's own hints and a step short, before the general words
        step = step or _quiet(_last_row_only, got, want, self.source, self.name, default="") \
            or _quiet(_leading_zeros_added, got, want, default="")
        late = "" if transposed else self._proven_edit(expected, late=True)  # after the stories the value tells
        return self._verdict(False, other or self._weighed_array(got, want) or step or late
                             or _merged_entries(self, got, want)
                             or _named_entries(self, explain.array(self, got, want)
                                               or diagnose.array_hint(got, want, self.close, *kinds,
                                                                      quantities=not self._ids(want),
                                                                      unit=self.unit_of(),
                                                                      sorts=_code_sorts(self.source),
                                                                      dedups=_code_dedups(self.source))))

    def _ids(self, want) -> bool:
        """Are its entries ids (declared, or found from the solution's own code: counterfactual.holds_ids)?"""
        return self.ids or bool(_quiet(counterfactual.holds_ids, self, want, default=False))

    def _weighed_array(self, got, want) -> str:
        """The question's own hints on an array, weighed on the looks as a number's are (`_weigh`); for a named
        answer (`entries`), every own hint that holds of another entry too (the weights and the gradients in fp32):
        the whole mistake, one clause per entry, not its first half."""
        own = _quiet(_own_hints, self, got, want, default=[]) or []
        first = self._weigh([(t, "own") for t in own], got, want)
        joined = _quiet(self._entry_hints, own, first, got, want, default="")
        return joined or first

    def _entry_hints(self, own: list, first: str, got, want) -> str:
        """`first` joined with the other own hints that hold, each of another named entry ("weights: …",
        "gradients: …"), each supported as `first` is; "" when none adds an entry."""
        names = [str(n).lower() for n in (self.entries or ())]
        if not first or len(names) < 2:
            return ""

        def entry(text):
            head = text.split(":", 1)[0].strip().lower() if ":" in text else ""
            return head if head in names else None
        if entry(first) is None:
            return ""
        said, out = {entry(first)}, [first]
        for text in own:
            e = entry(text)
            if e is None or e in said or self._support(text, "own", got, want) == "no":
                continue
            said.add(e)
            out.append(text)
        return "; and ".join(out) if len(out) > 1 else ""


@dataclass
class Arrays(Question):
    """Several arrays returned together, as a tuple (a gradient per parameter: ``return dE, dU``),
    named by `names` in order; each is judged as an `Array` of the same precision would judge it,
    and a wrong one is named with that array's own hint."""

    names: Sequence[str] = ()
    sig: int | None = None
    exact: bool = False
    kind = "arrays"

    def _one(self, name: str) -> Array:
        return Array(name, sig=self.sig, exact=self.exact)

    def statement(self) -> str:
        return f"{len(self.names)} arrays ({', '.join(self.names)}): {self._one(self.name).statement()}"

    def result_phrase(self) -> str:
        return f"a tuple ({', '.join(self.names)}), each {self._one(self.name).result_phrase()}"

    def close(self, got, want):
        return self._one(self.name).close(got, want)

    def to_data(self, value):
        n = len(self.names)
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__len__") or len(value) != n:
            got = f"{len(value)} items" if isinstance(value, (list, tuple)) else f"a {type(value).__name__}"
            raise WrongForm(f"expected a tuple of {n} arrays ({', '.join(self.names)}), got {got}")
        return {"arrays": [array_to_data(v) for v in value]}

    def judge(self, data, expected) -> Verdict:
        for name, got, want in zip(self.names, data["arrays"], expected["arrays"]):
            one = self._one(name)
            g, w = data_to_array(got), data_to_array(want)
            if g.shape == w.shape and bool(one.close(g, w).all()):
                continue
            if _STATUS_ONLY.get():
                return self._verdict(False)
            detail = self._hint([data_to_array(a) for a in data["arrays"]],
                                [data_to_array(a) for a in expected["arrays"]], "") or \
                diagnose.array_hint(g, w, one.close)
            return self._verdict(False, f"`{name}`: {detail}" if detail else f"`{name}` is not right")
        return self._accepted()


@dataclass
class Choice(Question):
    """One answer out of a few words (compared without case or surrounding spaces)."""

    kind = "choice"
    options: tuple = ()  # the words the question gives, where declared: a hint may list them all

    def statement(self) -> str:
        return "one of the words the question gives (any case)"

    def to_data(self, value):
        if not isinstance(value, str):
            raise WrongForm(f"expected a string, got {type(value).__name__}")
        return {"str": str(value).strip().lower()}

    def judge(self, data, expected) -> Verdict:
        got = data["str"]
        if got == str(expected).strip().lower():
            return self._accepted()
        edit = self._proven_edit(expected)  # one slip undone in the learner's own lines gives the answer: proved
        # a word none of the question's own is a label slip, measured on the value
        default = (labels.not_allowed(got, self.options)
                   or "not the right choice; reread the question")
        return self._verdict(False, edit or self._unnamed(self._hint(got, expected, default), expected) or default)

    def _unnamed(self, hint: str, expected) -> str:
        """The hint without its clauses that name the right option (the lookup keeps the sign, where the answer is
        the lookup): a hint on a wrong choice says what is wrong with it, never which option is right. A clause
        that lists every option the question gives (answer with one of them) names none of them in particular."""
        want = str(expected).strip().lower()
        if not want or not isinstance(hint, str):
            return hint

        def names(clause: str, word: str) -> bool:
            return re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w-])", clause.lower()) is not None

        options = [str(o).strip().lower() for o in self.options]
        kept = [c for c in hint.split("; ") if not names(c, want) or (options and all(names(c, o) for o in options))]
        return "; ".join(kept)


SEARCHED_CASES = 2  # failing calls of a function whose result gets the (costlier) named-parts search
JUDGED_FAILURES = 4  # failing calls whose hints are weighed (the rest only counted as failing)


@dataclass
class Function(Question):
    """A function the learner writes, checked against a reference on several inputs.

    `cases(rng)` returns a list of argument tuples, fixed ones first (each chosen for
    a kind of bug, argued in the question's module, so that it fails on every seed)
    and then random ones. The notebook check and the grader seed `rng` alike, from the
    lesson, the question and the instructor's --seed only (embedlab.grading.cases):
    both test the same inputs, whatever the answer's names, spacing or comments.
    On a wrong result the hint names the call that failed, its arguments written
    compactly, and what is off about the result; the result question's hints may
    read the call's arguments (``Hint(..., args=True)``), and every numeric argument
    over 1 is a factor the hints recognise (×L, ÷batch; own words in ``factor_hints``).
    """

    reference: Callable | None = None
    cases: Callable[[np.random.Generator], list] | None = None
    result: Question | None = None  # how one output is compared (default: Array)
    invariants: Sequence[Invariant] = ()  # what any right result holds: the first one broken is named
    slips: Sequence[Slip] = ()  # wrong functions a learner may write: one whose results are the learner's is named
    # integer arguments that count or size things, not ids, and id arguments that are a set (never repeated): what
    # cases.blind_spots does not ask of their fixed inputs (several digits, overlapping digits, repeats, disorder)
    quantities: Sequence[str] = ()
    distinct: Sequence[str] = ()
    # the matrix product the lesson derives for this function, with its shapes ("one_hot(ids, V)ᵀ @ grad_out:
    # (V × n) @ (n × d)"): named after the sizes when the learner's function raises a product's shape error
    product: str = ""
    kind = "function"

    def statement(self) -> str:
        return f"checked on several inputs, fixed and random: each result {self._result_question().result_phrase()}"

    def _result_question(self) -> Question:
        return self.result or Array(self.name)

    # The cases: the reference's output on each (where the check runs), the learner's function
    # run on them (in the learner's kernel). `cases` draws them (embedlab.grading.cases seeds it).

    def expected_outputs(self, args_list):
        """The reference's output for each case, with the call written out (for the hint) and the
        arguments (for hints that read them). Stays in the checking process."""
        inner = self._result_question()
        out = []
        for args in args_list:
            out.append({"call": diagnose.call_text(self.name, args), "out": inner.to_data(self.reference(*copy_args(args))),
                        "args": copy_args(args)})
        return out

    def run_cases(self, func, args_list):
        """Call `func` on each case; returns plain data per case. Runs in the learner's kernel."""
        if not callable(func):
            raise WrongForm(f"expected a function, got {type(func).__name__}")
        out = []
        for args in args_list:
            passed = copy_args(args)
            before = _snapshot(passed)
            try:
                value = func(*passed)
            except NotImplementedError:
                raise NotAttempted("the function still raises NotImplementedError")
            except Exception as exc:  # a bug in the learner's function is a wrong answer
                out.append({"raised": f"{type(exc).__name__}: {exc}"[:300]})
                continue
            try:
                result = self._result_question().to_data(value)
            except WrongForm as exc:
                result = {"wrong_form": str(exc)}
            changed = _changed(before, passed)
            out.append({**result, MUTATED: changed} if changed and isinstance(result, dict) else result)
        return out

    # Judging: every call's result, in order, as the result question judges it; the hint of a
    # wrong one is written by embedlab.grading.function_hints

    def judge(self, data, expected) -> Verdict:
        """`data` is the list of outputs per case; `expected` what `expected_outputs` made of the
        same cases (each reference output with its call), in the grader's or the notebook's process."""
        if len(data) != len(expected):
            return self._verdict(False, "the function did not return one result per input")
        handed = self._own_work_slip()  # the work asked (own_work) handed to the library, or not done
        if handed:
            return self._verdict(False, handed)
        if self._every_call_right(data, expected):
            # the status is the calls' alone (status_only): no search below (a slip declared, an edit of the
            # learner's function whose results are the reference's too) may turn right results into a wrong answer
            return self._verdict(True)
        # the reference on changed arguments (named below); a search that cannot run names nothing
        changed = _quiet(function_hints.changed_arguments, self, data, expected, default=None)
        # a declared slip whose results are the learner's on every input: the strongest evidence there is
        slipped = None if _STATUS_ONLY.get() or not self.slips else _quiet(
            function_hints.matching_slips, self, data, expected, default=None)
        if slipped:
            return self._verdict(False, slipped)
        edit = None if _STATUS_ONLY.get() else _quiet(self._proven_function_edit, data, expected, default=None)
        if edit:
            return self._verdict(False, edit)
        failures = []  # (case index, what to say before the hint, the hint)
        calls = []  # (result, reference's result, arguments) of each failing call, in that order
        # a result length off by a count the calls ask for, on every call that asks it (function_hints.count_relation)
        self._counted = None if _STATUS_ONLY.get() else _quiet(function_hints.count_relation, self, data, expected,
                                                               default=None)
        # an argument the learner's function never reads (its def, read): named before any call's symptom
        unused = _quiet(function_hints.unused_arguments, self.source, self.name, default=[])
        unused = unused if unused and not _quiet(self._ignores_too, unused, default=True) else []
        for i, (got, want) in enumerate(zip(data, expected)):
            call, want, args = function_hints.case_parts(want, self.name)
            where = f"on input {i + 1} of {len(data)}, {call}" if call else f"on input {i + 1} of {len(data)}"
            if "raised" in got or "wrong_form" in got:
                if failures:
                    break  # an earlier input already failed: the first failing input is the one named
                if "raised" in got:
                    names = function_hints.arg_names(self.reference, len(args)) if args is not None else []
                    cause = _quiet(function_hints.exception_cause, got["raised"], args, names, self.source,
                                   default=None) or _quiet(function_hints.exception_context, self, got["raised"],
                                                           want, args, default=None)
                    if unused and not failures:  # the argument never read is the slip the raise follows from
                        which = ", ".join(f"`{n}`" for n in unused)
                        return self._verdict(False, f"your function never reads its argument"
                                                    f"{'s' * (len(unused) > 1)} {which}: its result must depend on "
                                                    f"{'them' if len(unused) > 1 else 'it'} ({where} raised "
                                                    f"{got['raised']})")
                    if cause and self.product and function_hints.product_error(got["raised"]):
                        cause = f"the lesson's product is {self.product}; {cause}"  # first: the grader cuts
                    if not cause:
                        return self._verdict(False, f"{where} raised {got['raised']}")
                    # the cause first, the exception's own message after it: a detail cut to the CSV's
                    # length (the grader's) keeps what the learner must read, as the notebook shows it
                    kind, _, message = str(got["raised"]).partition(": ")
                    return self._verdict(False, f"{where} raised {kind}: {cause}" + (
                        f" (its message: {message})" if message else ""))
                return self._verdict(False, f"{where}: {got['wrong_form']}")
            if len(failures) >= JUDGED_FAILURES:  # enough failing calls weighed: the rest add cost, not words
                break
            wrong = self._judge_call(got, want, args, len(failures))
            if wrong is None:
                continue
            shown, hint, unnamed = wrong
            failures.append((i, f"{where}{' returned ' + shown if shown else ''}", hint))
            calls.append((got, want, args, self._last_said))
            if len(failures) == 1 and changed and unnamed and unused:  # both: the argument and what took its place
                which = ", ".join(f"`{n}`" for n in unused)
                at = changed.find(": ", changed.find(" returned ")) if changed.startswith("on input ") else -1
                return self._verdict(False, f"your function never reads its argument{'s' * (len(unused) > 1)} "
                                            f"{which}: {changed[at + 2:] if at >= 0 else changed}")
            if len(failures) == 1 and changed and unnamed:
                # the first failing call has no hint written or found for it: the changed arguments
                # (which fit every call) name the slip better than an invariant or a direction
                return self._verdict(False, changed)
        if not failures:
            return self._verdict(True)
        mutated = next((got.get(MUTATED) for got in data if isinstance(got, dict) and got.get(MUTATED)), None)
        if mutated and isinstance(mutated, list) and expected:
            args = function_hints.case_parts(expected[0], self.name)[2]
            names = function_hints.arg_names(self.reference, len(args) if args is not None else max(mutated) + 1)
            which = ", ".join(f"`{names[i]}`" for i in mutated if isinstance(i, int) and 0 <= i < len(names))
            if which:
                i, where, hint = failures[0]
                return self._verdict(False, (
                    f"your function changes its argument {which} in place (sorts it, or writes into it): the caller's "
                    f"array is changed{', and no longer lines up with the other arguments' if len(names) > 1 else ''}; "
                    f"work on a copy "
                    f"(np.sort(x), x.copy(), sorted(x)), never on the caller's array ({where}: {hint})"))
        said = function_hints.most_telling(
            failures, explained=lambda k: self._explained(*calls[k][:3]),
            generic=lambda k: diagnose.direction_only(failures[k][2]) or calls[k][3] == "generic",
            plain=lambda k: self._plain(*calls[k][:3]), facts=self._invariant_words())
        slip = _quiet(explain.precedence_slip, self.source, default=None)
        where = next((w for _, w, _ in failures if said.startswith(w + ": ")), None)
        hint = said[len(where) + 2:] if where else said
        if not unused and diagnose.direction_only(hint):
            # a term the learner's function writes that is, on every failing call, exactly the result's excess
            added = _quiet(function_hints.added_term, self, calls, default=None)
            if added:
                return self._verdict(False, f"{where}: {added}" if where else added)
        if slip and not unused and (diagnose.direction_only(hint) or hint in self._invariant_words()):
            # parentheses missing in the learner's own code, where the calls name no slip of their own (a
            # direction, a broken invariant): said before the call's symptom
            return self._verdict(False, f"{slip}; {said}")
        if unused:
            which = ", ".join(f"`{n}`" for n in unused)
            text = (f"your function never reads its argument{'s' * (len(unused) > 1)} {which}: its result must "
                    f"depend on {'them' if len(unused) > 1 else 'it'}")
            hint = _not_read_asides(hint if where else "", unused)
            # a function that reads none of its arguments returns one value on every call: what one call's value
            # shows (a sign, an invariant broken on that call) is that call's coincidence, not what it does
            if set(_learner_arg_names(self.source, self.name)) <= set(unused):
                hint = ""
            # an invariant whose story is how an argument was used (storages "still counted more than once"), broken
            # by a function that never reads that argument: the story is false of it; the unread argument is said
            if any(set(i.reads) & set(unused) and hint in (i.says, _quiet(function_hints._without_calls_made, i.says,
                                                                          self.source, default=i.says))
                   for i in self.invariants):
                hint = ""
            if hint and not diagnose.direction_only(hint):
                # what that leaves out, in the slip's own words, where they name the argument ("the batch holds
                # `batch` of them"); another slip the call shows (the factor 2 of keys and values, on a call whose
                # batch is 1) is a second clause, joined as one
                return self._verdict(False, f"{text}{_unused_join(hint, unused)}{hint}")
            # "as the question's formula does" only where the question's text
            # writes out a formula reading every argument left unread (`formula`)
            granted = set(unused) <= set(self.formula)
            said_by = ", as the question's formula does" if granted else ""
            return self._verdict(False, f"{text}{said_by}: use "
                                        f"{'each' if len(unused) > 1 else 'it'} where it belongs")
        return self._verdict(False, said)
        return self._verdict(False, function_hints.most_telling(
            failures, explained=lambda k: self._explained(*calls[k][:3]),
            generic=lambda k: diagnose.direction_only(failures[k][2]) or calls[k][3] == "generic",
            plain=lambda k: self._plain(*calls[k][:3]), facts={i.says for i in self.invariants}))

    def _invariant_words(self) -> set:
        """Every invariant's words, as written and as said to this cell (a clause its calls refute left out)."""
        return {i.says for i in self.invariants} | {
            _quiet(function_hints._without_calls_made, i.says, self.source, default=i.says) for i in self.invariants}

    def _every_call_right(self, data, expected) -> bool:
        """Is every call's result the reference's, as the result question judges it (its status alone)?"""
        with status_only():
            for got, want in zip(data, expected):
                if not isinstance(got, dict) or "raised" in got or "wrong_form" in got:
                    return False
                _, want, args = function_hints.case_parts(want, self.name)
                if self._judge_call(got, want, args, 0) is not None:
                    return False
        return True

    def _proven_function_edit(self, data, expected) -> str | None:
        """An edit of the learner's own function (embedlab.grading.undo), run in their kernel on the same cases,
        whose results are the reference's on every one: named with the first call the learner's fails."""
        if not self.elsewhere:
            return None
        inner = self._result_question()
        outs = [function_hints.case_parts(w, self.name) for w in expected]

        def right(got) -> bool:
            return isinstance(got, list) and len(got) == len(outs) and all(
                isinstance(g, dict) and function_hints.same_result(inner, g, out) for g, (_, out, _) in zip(got, outs))

        words = undo.proven(self, self.elsewhere, right)
        if not words:
            return None
        def judged_wrong(got, out) -> bool:  # same_result reads 8.0 as 8: an int asked, a float given, is wrong
            with status_only():  # the reference's plain data read as the result question reads it (expected_value)
                return _quiet(lambda: inner.judge(got, expected_value(inner, out)).status != CORRECT, default=False)

        for i, (got, (call, out, _)) in enumerate(zip(data, outs)):
            if not isinstance(got, dict) or "raised" in got or "wrong_form" in got \
                    or not function_hints.same_result(inner, got, out) or judged_wrong(got, out):
                where = f"on input {i + 1} of {len(data)}, {call}" if call else f"on input {i + 1} of {len(data)}"
                if isinstance(got, dict) and "raised" in got:
                    return f"{where} raised {str(got['raised']).partition(':')[0][:60]}: {words}"
                result = function_hints.shown(inner, got) if isinstance(got, dict) and "wrong_form" not in got else ""
                return f"{where}{' returned ' + result if result else ''}: {words}"
        return None

    def _ignores_too(self, unused) -> bool:
        """Does the reference itself ignore an argument the learner's function never reads (its result the same
        whatever that argument)? Then not reading it is no slip. Read from the reference's own source."""
        if self.reference is None:
            return True
        import inspect as _inspect

        try:
            own = function_hints.unused_arguments(_inspect.getsource(self.reference).strip(), self.reference.__name__)
            names = list(_inspect.signature(self.reference).parameters)
        except (OSError, TypeError, ValueError):
            return False
        mine = function_hints.unused_arguments(self.source, self.name)
        positions = {n: i for i, n in enumerate(_learner_arg_names(self.source, self.name))}
        return any(positions.get(n) is not None and positions[n] < len(names) and names[positions[n]] in own
                   for n in unused if n in mine)

    def _explained(self, got, want, args) -> set:
        """Every explanation of one failing call's result (function_hints.call_explanations)."""
        if args is None:
            return set()
        inner = self._case_question(args)
        return function_hints.call_explanations(self, inner, got, expected_value(inner, want), args)

    def _plain(self, got, want, args) -> str:
        """What is known of a failing call's result without a cause: how far off, which way."""
        inner = self._case_question(args) if args is not None else self._result_question()
        value, wanted = function_hints.plain_value(inner, got), function_hints.plain_value(inner, expected_value(inner, want))
        if inner.kind in ("integer", "real"):
            return _quiet(diagnose.number_hint, float(value), float(wanted))
        if inner.kind == "array":
            return _quiet(diagnose.array_hint, value, wanted, inner.close)
        return ""

    def _judge_call(self, got, want, args, failed_before: int):
        """One call's result judged: None when it is right, else (the learner's result shown, the
        hint, whether no hint of the question's own or of its named parts spoke)."""
        inner = self._case_question(args)
        if failed_before >= SEARCHED_CASES and inner.parts is not None:  # one change only, past the first
            inner = dataclasses.replace(inner, parts=function_hints.one_change(inner.parts))  # failing calls
        inner._said = None
        verdict = inner.judge(got, expected_value(inner, want))
        self._last_said = getattr(inner, "_said", None)
        if verdict.status == CORRECT:
            return None
        # how many results before what each holds: a count off (n_merges − 1 merges) said first, unless the result's
        # own hints name the call's mistake
        counted = None if _STATUS_ONLY.get() else _quiet(
            function_hints.count_words, self, got, want, args, getattr(self, "_counted", None), default=None)
        if counted and _quiet(lambda: inner._hint(function_hints.plain_value(inner, got),
                                                  function_hints.plain_value(inner, want), ""), default=""):
            counted = None
        broken = counted or (None if _STATUS_ONLY.get() else function_hints.broken_invariant(self, inner, got, want,
                                                                                               args))
        if broken and inner.kind == "array" and _quiet(_proven_from_args, got, want, args, default=""):
            broken = None  # a slip proven on the call's own arguments names the mistake; the invariant only its symptom
        # a real result too, where the function's lines cast to a low precision (`.astype(np.float16)`)
        low = _quiet(lambda: _low_precision(function_hints.plain_value(inner, got),
                                            function_hints.plain_value(inner, want)), default="") \
            if broken and inner.kind == "array" or inner.kind == "real" and _casts_low(self.source) else ""
        if low:
            broken = low  # every value within a low precision's rounding of the answer: measured, no invariant's story
        if broken and inner.kind in ("integer", "real") and _quiet(
                lambda: _unit_factor(function_hints.plain_value(inner, got), function_hints.plain_value(inner, want)),
                default=None):
            broken = None  # the result exactly a unit's factor off (10**6: in millions): measured; a property it breaks
            # (less than the largest tensor) would tell a story of its own (storage ids added) the value does not bear
        return (function_hints.shown(inner, got), broken or verdict.detail,
                bool(broken) or getattr(inner, "_said", None) != "parts")

    def _case_question(self, args) -> Question:
        """The result question for one call: its hints see the call's arguments and factors."""
        inner = self._result_question()
        if args is None:
            return inner
        names = function_hints.arg_names(self.reference, len(args))
        factors = {n: a for n, a in zip(names, args) if diagnose._is_number(a) and a > 1}
        return dataclasses.replace(inner, case=tuple(args), factors={**factors, **inner.factors},
                                   factor_hints={**self.factor_hints, **inner.factor_hints},
                                   source=self.source or inner.source, solved_in=self.lesson or inner.solved_in)

def _unused_join(hint: str, unused) -> str:
    """How a call's words follow "your function never reads `x`: its result must depend on it": as what leaving x
    out does (": ") where their first clause names x, else as another slip ("; and ")."""
    import re

    first = hint.split("; and ")[0]
    for n in unused:  # the name, or its singular (`counts`: "each word by its count")
        for form in dict.fromkeys((n, n[:-1] if n.endswith("s") and len(n) > 3 else n)):
            if re.search(rf"(?<![\w`]){re.escape(form)}(?![\w`])|`{re.escape(form)}`", first):
                return ": "
    return "; and "


def _not_read_asides(hint: str, unused) -> str:
    """A call's words said after "your function never reads `tied`", without an aside that presumes the argument
    is read ("(the `tied` flag read the other way round?)"): the function reads it in no way at all."""
    import re

    for name in unused:
        hint = re.sub(rf"\s*\([^()]*`{re.escape(name)}`[^()]*\bread\b[^()]*\)", "", hint)
    return hint.strip()


def _learner_arg_names(source, name) -> list:
    import ast

    try:
        found = [n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == name]
    except (SyntaxError, ValueError, RecursionError, TypeError):
        return []
    return [a.arg for a in found[-1].args.args] if found else []


MUTATED = "mutated"  # a call's result data: the positions of the arguments the learner's function changed


def _snapshot(args) -> list:
    """A deep copy of each argument (None where it cannot be copied), to compare after the call."""
    import copy

    out = []
    for a in args:
        try:
            out.append(copy.deepcopy(a))
        except Exception:  # noqa: BLE001
            out.append(None)
    return out


def _changed(before, after) -> list:
    """The positions of the arguments a call changed in place (sorted, written into, appended to)."""
    out = []
    for i, (b, a) in enumerate(zip(before, after)):
        if b is None:
            continue
        try:
            if isinstance(b, np.ndarray) or isinstance(a, np.ndarray):
                same = np.array_equal(np.asarray(b), np.asarray(a), equal_nan=np.asarray(b).dtype.kind == "f")
            else:
                same = bool(b == a)
        except Exception:  # noqa: BLE001
            continue
        if not same:
            out.append(i)
    return out


def _cell_features(source: str) -> set:
    """code.features of the learner's own lines of an answer cell (set() when it does not parse)."""
    reading = code.read(code.own_part(source))
    return code.features(reading) if reading.parsed else set()


def _quiet(f, *args, default=""):
    """f(*args), or `default` when it raises: a hint that cannot weigh a value says nothing."""
    try:
        return f(*args)
    except Exception:  # noqa: BLE001
        return default


def _short_number(value) -> bool:
    """Is `value` written with 3 significant digits or fewer (0.54, 120, 2.5e9)?"""
    digits = f"{abs(float(value)):.12e}".split("e")[0].replace(".", "").rstrip("0")
    return len(digits) <= 3


def _finite_real(x) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_)) \
        and math.isfinite(x)


def _not_finite_hint(got: float) -> str:
    """What a nan or an infinite result says."""
    if math.isnan(got):
        # an overflow is one of the causes: a value too large for its float type (float16 above 65,504) is
        # inf, and inf / inf or inf - inf is nan
        return ("your value is nan (not a number; not finite): a 0/0, an overflow (a value too large for its "
                "float type becomes inf, and inf / inf is nan), the square root or log of a negative number, or a "
                "nan among the values it is computed from?")
    return "your value is infinite (inf; not finite): a division by zero, or a number too large for a float?"


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
    # The value the rule wants for these answers (a figure of the learner's own design), or None where
    # no single value is right (the design itself): what --explain shows as expected.
    expects: Callable[[dict], object] | None = None
    # Error carried forward, declared: the learner's own earlier answers this question's inputs include
    # (e.g. the figures a binding budget is worked out from). Read when defined (never required), and
    # `carry(answers)` judges the answer on the learner's own values of them when `rule`, on the recounted
    # ones, finds it wrong: the names it was judged on when right there, else None. A question that `uses`
    # an earlier answer (the learner's `design`) names it here too: it is judged on the learner's value.
    carries: tuple[str, ...] = ()
    carry: Callable[[dict], list[str] | None] | None = None
    options: tuple = ()  # a word answer's allowed words: a label slip is named (labels)
    kind = "design"

    def expected_for(self, data):
        """What the rule wants for the plain `data` judged (`expects`), or None (no single value, or
        data it cannot be computed from)."""
        if self.expects is None or not isinstance(data, dict):
            return None
        try:
            return self.expects(data)
        except Exception:  # noqa: BLE001 - the learner's data may be anything
            return None

    def statement(self) -> str:
        if self.uses:
            said = f"judged against your own {', '.join(f'`{u}`' for u in self.uses)}, recounted by the checker"
        else:
            said = "judged by what it does: the checker recounts it"
        own = [c for c in self.carries if c not in self.uses]
        if own:
            said += (f"; right from your own {', '.join(f'`{c}`' for c in own)} counts too, even where "
                     f"{'that is' if len(own) == 1 else 'those are'} off (error carried forward)")
        return said

    def to_data(self, value):
        answers = value if isinstance(value, Answers) else Answers({self.name: value})
        missing = [name for name in (self.name, *self.uses) if answers.get(name, Ellipsis) is Ellipsis]
        if missing:
            raise NotAttempted(f"`{missing[0]}` is not defined yet: answer that question first")
        carried = [c for c in self.carries if c not in self.uses and answers.get(c, Ellipsis) is not Ellipsis]
        out = {name: _plain(answers[name], name) for name in (self.name, *self.uses)}
        for name in carried:  # an earlier answer in a form no rule reads is left out, never held against this one
            with contextlib.suppress(WrongForm):
                out[name] = _plain(answers[name], name)
        return out

    def judge(self, data, expected) -> Verdict:
        token = _JUDGED.set(data)  # the cases are held to the rule for the learner's own earlier answers (below)
        try:
            return self._judge(data, expected)
        finally:
            _JUDGED.reset(token)

    def _elsewhere_slip(self) -> str | None:
        """As every question's, but a second look on which the learner's lines give what `carry` accepts for the
        earlier answers as the look held them (elsewhere.carried_there: a look keeps the learner's own count, and the
        solution's cell, which does not read it, expects the recount's) is no slip: the look judges the answer as
        the notebook's own judgement does, on the learner's own earlier answers."""
        data = _JUDGED.get()
        for case in self.elsewhere if isinstance(self.elsewhere, (list, tuple)) else ():
            if _quiet(self._carried_there, data, case, default=False):
                continue
            found = (_quiet(self._not_own_there, data, case, default=None)
                     or _quiet(_elsewhere_case, self, case, default=None))
            if found:
                return found
        return None

    def _not_own_there(self, data, case) -> str | None:
        """A declared case that put an earlier answer in place at the recount's value
        (`put`: for the case's design) where the learner's own is off (error carried
        forward: elsewhere.Elsewhere.not_own): the number the lines gave there is not
        what their own answer would give, so it is said relative to that answer
        (`design_params` + 32,768,000), never as a number of theirs. None for any
        other case."""
        put = case.get(PUT) if isinstance(case, dict) else None
        if not isinstance(put, dict) or not isinstance(data, dict) or "got" not in case:
            return None
        off = [n for n, v in put.items() if n in self.carries and _finite_real(v)]
        judge_as = _case_question(self, case.get("kind"))
        if len(off) != 1 or judge_as is None \
                or judge_as.kind not in ("integer", "real"):
            return None
        want = expected_value(judge_as, case["want"])
        with status_only():
            if judge_as.judge(case["got"], want).status == CORRECT:
                return None
        name, at = off[0], put[off[0]]
        got = _plain_value(judge_as, case["got"])

        def relative(x) -> str:
            step = x - at
            if step == 0:
                return f"`{name}` itself"
            return f"`{name}` {'+' if step > 0 else '-'} {code._fmt(abs(step))}"
        why = case.get("why") if isinstance(case.get("why"), str) else ""
        text = (f"right for these inputs only: {case['words'][:ELSEWHERE_TEXT]} (and "
                f"`{name}` for it), your lines give {relative(got)}, where the answer "
                f"there is {relative(want)}")
        return f"{text}. {why[:1].upper()}{why[1:ELSEWHERE_TEXT]}" if why else text

    def _carried_there(self, data, case) -> bool:
        """Does the answer the learner's lines gave on `case` follow their own earlier answers there, as `carry`
        judges it (error carried forward, on the case's values of them)?"""
        there = case.get(CARRIED_THERE) if isinstance(case, dict) else None
        if self.carry is None or not isinstance(data, dict) or not isinstance(there, dict) or "got" not in case:
            return False
        judge_as = _case_question(self, case.get("kind"))
        if judge_as is None:
            return False
        got = _plain_value(judge_as, case["got"])  # the case's data as the rule reads an answer: the plain value
        answers = {**data, **{k: v for k, v in there.items() if k in self.carries}, self.name: got}
        names = self.carry(answers)
        return isinstance(names, (list, tuple)) and bool(names)

    def _judge(self, data, expected) -> Verdict:
        problems = list(self.rule(data, source=self.source) if _takes_source(self.rule) else self.rule(data))
        if problems:
            problems = self._proved(data, problems)
        if not problems:
            mine = data.get(self.name) if isinstance(data, dict) else None
            record = expected.get(self.name) if isinstance(expected, dict) else expected  # the solution's, kept
            if isinstance(record, int) and not isinstance(record, bool) and isinstance(mine, float):
                # a whole number asked (a count, whole sequences D // T_train), a float given: a / that is exact
                # on every input the job allows (D is whole sequences) is told apart from // by its type alone
                return self._verdict(False, "right value, but a float where a whole number (an int) is asked: "
                                            "// divides to a whole number (whole sequences), / gives a float; "
                                            "a count is an int")
            return self._accepted()
        if self.carry is not None and self.carries:  # the points depend on it: judged even for the status alone
            names = self._carried(data)
            if names:
                # right from the learner's own figures, but by a method other inputs the question allows tell
                # apart (raw amounts compared for fractions): held to them as an answer right on the recount is
                slip = self._own_work_slip() or self._formula_slip() or self._elsewhere_slip()
                if slip:
                    return self._verdict(False, f"{TYPED}; {slip}" if typed_cell(self.source, self.name) else slip)
                return Verdict(CORRECT, self.points, self.points, carried_note(names, problems[0]))
        # a figure the rule names no cause for (Measured), whose slip one edit of the learner's own lines undoes (a
        # rounding left out): that edit, proven, in its place
        if problems and all(isinstance(p, Measured) for p in problems):
            problems = _quiet(self._edit_proven, data, default=None) or problems
        # every problem the rule finds, each said (a design over two budgets hears of both: "(and 1 more)" hid
        # the second, and the learner fixed one to meet the other)
        from embedlab.grading import parts

        return self._verdict(False, "; ".join(dict.fromkeys(parts.worded(str(x)) for x in problems)))

    def _edit_proven(self, data) -> list | None:
        """A figure (a number) the rule finds wrong, where an edit of the learner's own lines (embedlab.grading.undo:
        a rounding left out, a number typed put back as the input it stands for), run in their kernel, gives a
        figure the rule accepts: [that edit's words], the slip proven on their code, instead of what the value
        alone tells. None where no edit does (or the answer is not a number)."""
        mine = data.get(self.name) if isinstance(data, dict) else None
        if type(mine) not in (int, float):
            return None
        as_number = _case_question(self, "integer" if type(mine) is int else "real")
        cases = [c for c in (self.elsewhere if isinstance(self.elsewhere, (list, tuple)) else ())
                 if isinstance(c, dict) and isinstance(c.get(undo.UNDONE), str) and c.get("kind") == as_number.kind]

        def right(got) -> bool:
            mended = {**data, self.name: _plain_value(as_number, got)}
            found = self.rule(mended, source=self.source) if _takes_source(self.rule) else self.rule(mended)
            return not list(found)

        words = undo.proven(as_number, cases, right)
        return [words] if words else None

    def _proved(self, data, problems: list) -> list:
        """The rule's problems with each `Claim` (a cause named: "the smallest fraction") kept only where an edit of
        the learner's own lines that makes that cause's change (undo: `min` made `max`), run in their kernel, gives
        an answer the rule accepts; else its `otherwise` words (only what is measured), followed by another proven
        edit's words where one gives the answer (`max(used)` over a dict's keys)."""
        if not any(isinstance(p, Claim) for p in problems):
            return problems
        cases = [c for c in (self.elsewhere if isinstance(self.elsewhere, (list, tuple)) else ())
                 if isinstance(c, dict) and isinstance(c.get(undo.UNDONE), str) and c.get(undo.CONTROL) is None]

        def right(got) -> bool:
            if not isinstance(got, dict) or not isinstance(data, dict) or "str" not in got:
                return False
            mended = {**data, self.name: got["str"]}
            found = self.rule(mended, source=self.source) if _takes_source(self.rule) else self.rule(mended)
            return not list(found)

        as_word = Choice(self.name)  # the edits ran the answer as a word (elsewhere._undone_runs): proven as one
        out = []
        for problem in problems:
            if not isinstance(problem, Claim):
                out.append(problem)
                continue
            proof = [c for c in cases if c.get(undo.DIRECTION) == problem.direction]
            if _quiet(undo.proven, as_word, proof, right, default=None):
                out.append(str(problem))
                continue
            other = [c for c in cases if c.get(undo.DIRECTION) is None]
            words = _quiet(undo.proven, as_word, other, right, default=None)
            out.append(f"{problem.otherwise}; {words}" if words else problem.otherwise)
        return out

    def _carried(self, data) -> list[str] | None:
        """The earlier answers this answer is right from (the learner's own values), or None: no `carry`,
        a carry that finds it wrong there too, or an answer cell that does not read each of those answers
        (one that types its answer, or works it out another way, is right from nothing of the kind: the
        value only coincides). Without the cell's source nothing is carried."""
        if self.carry is None or not self.carries or not self.source or typed_cell(self.source, self.name):
            return None
        reading = _quiet(code.read, code.own_part(self.source), self.name, default=None)
        if reading is None or not reading.parsed:
            return None
        names = _quiet(self.carry, data, default=None)
        if not isinstance(names, (list, tuple)) or not names:
            return None
        if any(n not in self.carries or n not in reading.names for n in names):
            return None
        return list(names)


_JUDGED = contextvars.ContextVar("embedlab_design_judged", default=None)  # the data a Design is judging
CARRIED_THERE = "carried"  # a case's key (elsewhere.CARRIED): the earlier answers carried, as its run read them
PUT = "put"  # a case's key (elsewhere.PUT): the earlier answers a case put in place


class Measured(str):
    """A Design rule's problem that names no cause, only what is measured ("not the parameter count of your design"):
    where an edit of the learner's own lines (embedlab.grading.undo), run in their kernel, gives a figure the rule
    accepts, that edit's words are said in its place (Design._edit_proven)."""


class Claim(str):
    """A Design rule's problem that names a cause (the answer taken at the wrong end: `min` for `max`): shown only
    where the learner's own lines, with that cause's edit made (undo.DIRECTION: the end the edit takes), give an
    answer the rule accepts (Design._proved); else `otherwise`, the measured words alone."""

    def __new__(cls, text: str, direction: str, otherwise: str):
        made = super().__new__(cls, text)
        made.direction, made.otherwise = direction, otherwise
        return made


# The typed-value rule: the words every typed answer's detail starts with, in the notebook's check and the grader's
# alike, followed by what the cell gave when run again on other inputs (both run it: kinds.Question._accepted). Who
# reruns it is said only by a class handout's check, before the deadline (exercise.TYPED_WORDS).
TYPED = "typed, not computed"


def _code_sorts(source: str | None) -> bool | None:
    """Does the learner's own code sort (sorted(), .sort(), np.sort, argsort)? None when the code is not known."""
    own = code.own_part(source) if isinstance(source, str) else None
    if not own:
        return None
    return bool(re.search(r"\bsorted\s*\(|\.sort\s*\(|\bargsort\b|\bsort_values\b", own))


def _code_dedups(source: str | None) -> bool | None:
    """Does the learner's own code drop repeats (a set, np.unique, dict.fromkeys, a dict built from items)? None
    when the code is not known."""
    own = code.own_part(source) if isinstance(source, str) else None
    if not own:
        return None
    return bool(re.search(r"\bset\s*\(|\bfrozenset\s*\(|\bunique\b|\bfromkeys\b|\bdict\s*\(|\{[^{}:]*:[^{}]*\bfor\b|"
                          r"\{[^{}:]*\bfor\b[^{}]*\}", own))


def typed_cell(source: str | None, name: str) -> bool:
    """Does the answer cell type its answer (a literal, or lines that read no name and call nothing)?
    False when the cell is not known or does not parse: only what is seen is called typed."""
    if not source:
        return False
    reading = _quiet(code.read, code.own_part(source), name, default=None)
    return bool(reading is not None and reading.parsed and (reading.hard_coded or not (reading.names or reading.calls)))


# Error carried forward: the words a carried answer's detail starts with, and where the judgement on the
# recounted figures follows (what the course's policy gives instead when it switches carrying off).
CARRIED = "judged on your own figure for "
RECOUNTED = "; on the recounted figures: "


def carried_note(names, strict: str) -> str:
    """The detail of an answer right from the learner's own earlier answers `names`, `strict` the problem
    the recounted figures find (kept for the policy: embedlab.grading.carried)."""
    return f"{CARRIED}{', '.join(f'`{n}`' for n in names)} (error carried forward){RECOUNTED}{strict}"


def recounted_problem(detail: str) -> str | None:
    """The problem on the recounted figures of a carried answer's detail; None for any other detail."""
    if not isinstance(detail, str) or not detail.startswith(CARRIED) or RECOUNTED not in detail:
        return None
    return detail.split(RECOUNTED, 1)[1]


def _takes_source(rule) -> bool:
    """Does a Design rule read the answer cell's source (a keyword `source`), for a hint that must not guess?"""
    import inspect

    try:
        return "source" in inspect.signature(rule).parameters
    except (TypeError, ValueError):
        return False


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
    uses = tuple(getattr(question, "uses", ()))
    if question.kind == "design":  # a Design reads the earlier answers it carries too (a Written's are the text's)
        uses += tuple(getattr(question, "carries", ()))
    if value is missing or not uses:
        return value
    return Answers({name: namespace[name] for name in dict.fromkeys((question.name, *uses)) if name in namespace})


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
    fields = _number_fields(value)
    if fields:  # a result object of several numbers (count_params' ParamCount) where one of them is asked
        shown = ", ".join(f"`.{f}`" for f in fields[:10]) + (", …" if len(fields) > 10 else "")
        raise WrongForm(f"`{name}` holds a {type(value).__name__}, an object of several numbers ({shown}), not one "
                        f"number: give the number the question asks for, one of its fields")
    raise WrongForm(f"`{name}` holds a {type(value).__name__}: use numbers, strings, booleans, lists and dicts")


def _number_fields(value) -> list:
    """The fields of a dataclass result that hold a plain number (not a flag): [] for anything else."""
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return []
    out = []
    for f in dataclasses.fields(value):
        v = getattr(value, f.name, None)
        if isinstance(v, (numbers.Number, np.number)) and not isinstance(v, (bool, np.bool_)):
            out.append(f.name)
    return out


ELSEWHERE_TEXT = 300  # characters kept of a case's words from the kernel


def _case_question(question: Question, kind) -> Question | None:
    """How one `other_inputs` case is compared: as the question itself compares (its precision), with
    nothing of the learner's (no source, no recheck); a Design's plain answer exactly, as its kind says."""
    if kind == question.kind and question.kind in ("integer", "real", "array", "choice"):
        return dataclasses.replace(question, source=None, recheck=None, other_inputs=None, elsewhere=(),
                                   hints=(), case=None, others={})
    if kind == "integer":
        return Integer(question.name)
    if kind == "real":
        return Real(question.name, exact=True)
    if kind == "choice":
        return Choice(question.name)
    return None


def _shown(question: Question, got, want, own: bool = False) -> str:
    """What the learner's lines gave on the other inputs, against the answer there (never this variant's:
    where the answer there is the learner's own, `own`, it is not written)."""
    if own:
        g = expected_value(question, got)
        shown = "another array" if question.kind == "array" else repr(g) if isinstance(g, str) else code._fmt(g)
        return f"{shown} instead of the same answer"
    if question.kind == "array":
        a, b = data_to_array(got), data_to_array(want)
        if a.shape != b.shape:
            return f"an array of shape {a.shape}, where the answer there has shape {b.shape}"
        i = tuple(int(k) for k in np.argwhere(~question.close(a, b))[0])
        return f"another array (entry {list(i)} is {a[i]:.6g}, not {b[i]:.6g})"
    g, w = expected_value(question, got), expected_value(question, want)
    if isinstance(g, str):
        return f"{g!r}, not {w!r}"
    return f"{code._fmt(g)}, not {code._fmt(w)}"


def _elsewhere_case(question: Question, case) -> str | None:
    """One `other_inputs` case as the kernel reported it ({"kind", "got", "want", "words", "why"}):
    None when the learner's lines gave the answer there too, else the words of the slip."""
    if not isinstance(case, dict) or not isinstance(case.get("words"), str):
        return None
    if case.get("raised_here"):
        return question._raised_here()
    judge_as = _case_question(question, case.get("kind"))
    if judge_as is None:
        return None
    if isinstance(case.get("raised"), str):  # the solution's cell gives an answer there, the learner's raises
        why = case.get("why") if case.get("typed") and isinstance(case.get("why"), str) else ""
        site = case.get("site") if isinstance(case.get("site"), dict) else None
        return (f"right for these inputs only: {case['words'][:ELSEWHERE_TEXT]}, your cell raises "
                f"{case['raised'][:ELSEWHERE_TEXT]}: {why[:ELSEWHERE_TEXT] or raised_there(case['raised'], site)}")
    want = expected_value(judge_as, case["want"])
    with status_only():
        verdict = judge_as.judge(case["got"], want)
    if verdict.status == CORRECT:
        return None
    words = case["words"][:ELSEWHERE_TEXT]
    if judge_as.kind == "choice":  # a label slip, proven: by the value, or by a dict
        options = getattr(question, "options", ()) or ()
        got = expected_value(judge_as, case["got"])
        said = labels.not_allowed(got, options)
        if said:
            return f"{said}: {words}, your lines give it"
        said = _quiet(labels.left_out, question.source, question.name, options, want,
                      default=None)
        if said:
            every = ", ".join(repr(str(o)) for o in options)
            return (f"{said}: {words}, the answer is {want!r}, and your lines give "
                    f"{got!r}; put every one of {every} in it")
    why = case.get("why") if isinstance(case.get("why"), str) else ""
    if case.get("same") is True:  # a typed answer: the same value whatever the inputs (never written out)
        typed = typed_cell(question.source, question.name)
        # a case's reading of a method (a count that adds the head whatever the tying) is no reading of a value
        # typed: said only of lines that compute, or with the typed number proven to stand for an input ("typed")
        why = case.get("why") if isinstance(case.get("why"), str) and (case.get("typed") or not typed) else ""
        text = (f"right for these inputs only: {case['words'][:ELSEWHERE_TEXT]}, your cell gives the same value "
                "as with your own inputs, but the answer there is another")
        if why:
            return f"{text}. {why[:1].upper()}{why[1:ELSEWHERE_TEXT]}"
        if typed or case.get("typed"):  # typed: said only where seen
            return (f"{text}: compute it from the inputs the question names (not numbers, names or choices typed "
                    "from them), so it holds for any of them")
        # the lines compute, but what they compute does not move with the inputs that decide the answer
        return (f"{text}: your lines do not follow the inputs that changed there; work the answer out from what "
                "decides it, so it holds for any of them")
    text = (f"right for these inputs only: {case['words'][:ELSEWHERE_TEXT]}, your lines give "
            f"{_shown(judge_as, case['got'], case['want'], case.get('own') is True)}")
    if not why:
        why = _quiet(_why_there, question, case, default="") or ""
        if why:
            return f"{text}: {why[:ELSEWHERE_TEXT]}"
    if why:
        return f"{text}. {why[:1].upper()}{why[1:ELSEWHERE_TEXT]}"
    # lines that compute, and give another value there: no hard-coding story (they
    # follow the inputs), only what was measured, and how to see it
    shown = _shown(judge_as, case["got"], case["want"], case.get("own") is True)
    return (f"right on your inputs, but not on others: {words}, your lines give "
            f"{shown}: they follow the inputs, but one step of their method is not the "
            "question's; run them with those values and check each step")


def _why_there(question: Question, case) -> str:
    """Why the learner's lines, right on the book's inputs, give another value on a second look, said of their own
    code (embedlab.grading.counterfactual): a number they type that fits the book's inputs only (with the one that
    fits there, right there too), else what the question's own sources name on the look (a part that made no
    difference on the book's inputs: a position table a Llama does not have). "" when neither is proven."""
    look = case.get("look")
    if not isinstance(look, int) or isinstance(look, bool) or question.at_look is None:
        return ""
    found = _quiet(question.at_look, look, default=None)
    if not found:
        return ""
    there, params, book = found
    got, want = _plain_value(question, case["got"]), _plain_value(question, case["want"])
    # a whole number the lines type that is one of the inputs, or two of them combined (292968750 = D // T_train)
    named = _quiet(counterfactual.typed_literal_named, question, book, default=None)
    if not isinstance(got, (int, float)) or not isinstance(want, (int, float)):
        return named or ""
    typed = _quiet(counterfactual.typed_number_there, question, got, want, params, default=None)
    if typed or named:
        return typed or named
    left = _quiet(counterfactual.term_left_out_there, question, got, want, params, default=None)
    if left:
        return f"there, {left}"
    said = _quiet(_zero_part_there, question, got, want, there, params, book, default=None)
    if said:
        return (f"there, {said[:1].lower()}{said[1:]}: a part that is 0 on your inputs, so leaving it out did not "
                "show there")
    return ""


def _zero_part_there(question: Question, got, want, look_question, params: dict, book: dict) -> str | None:
    """A part of the answer that is 0 on the book's inputs (counterfactual._zero_parts: so the learner's cell is right
    there) and that the question's named parts, built for the look, find left out of the learner's value there: said
    as that part left out. None when the look names none, or another slip, or a part not 0 on the book's inputs."""
    from embedlab.grading import parts as parts_

    if look_question is None:
        return None
    zero = {_template(t, book) for t in counterfactual._zero_parts(question)}
    if not zero:
        return None
    q = dataclasses.replace(look_question, source=getattr(question, "source", None), elsewhere=(), others={},
                            at_look=None, recheck=None, other_inputs=None)
    for text in _quiet(_parts_and_code, q, got, want, default=[]) or []:
        if not isinstance(text, str) or parts_.two_changes(text) or parts_.alternatives(text):
            continue
        if _template(text, params) in zero and not _unreadable(text, q):
            return text
    return None


def _site_text(value, limit: int = 80) -> str | None:
    return value[:limit] if isinstance(value, str) and value.strip() else None


def raised_there(raised: str, site: dict | None = None) -> str:
    """What a learner's cell did when it raised `raised` ("KeyError: 'fp8'") on other inputs where the
    solution's cell gives an answer, said of the code as it ran (`site`, from elsewhere.raise_site: the
    expression of theirs that raised, the library function it raised in, the loop a name it reads comes from),
    never guessed: a missing key is not said to be "a dict your cell reads" unless their own subscript raised."""
    kind, _, message = raised.partition(": ")
    site = site if isinstance(site, dict) else {}
    code_ = _site_text(site.get("code"))
    library = _site_text(site.get("library"))
    loops = [(n, it) for n, it in (site.get("loops") or []) if isinstance(n, str) and _site_text(it)
             ] if isinstance(site.get("loops"), list) else []
    where = f"`{code_}`" if code_ else "a step of your lines"
    # the library named by its package alone where the expression already names the function that raised
    called = library.split("'s ", 1)[-1] if library else ""
    inside = "" if not library else f" (inside {library.split(chr(39), 1)[0]})" if code_ and f"{called}(" in code_ \
        else f" (inside {library})"
    origin = "; ".join(f"`{n}` comes from `{it[:80]}`" for n, it in loops)
    ranged = any(it.replace(" ", "").startswith(("range(", "np.arange(")) for _, it in loops)
    follow = ("take the values from what the inputs hold (their own keys, ids or items), not from a range of "
              "numbers: not every number in that range exists there" if ranged else
              "make every value it looks up come from the inputs the question names, so it holds for any of them")
    if kind in ("KeyError", "IndexError"):
        missing = message[:ELSEWHERE_TEXT] or "a value"
        typed = site.get("typed_dict")
        if isinstance(typed, str) and kind == "KeyError":
            of = f"`{typed[:80]}`, the dict your cell types" if typed.strip() else "the dict your cell types there"
            return (f"{where}: {missing} is not a key of {of}: it has entries for the values of these inputs only; "
                    "give it one for every value the input can take, or read the course's own table")
        said = (f"{where}{inside} found no entry for the key {missing} there" if kind == "KeyError" else
                f"{where}{inside} went past an end there ({missing})" if message else
                f"{where}{inside} went past an end there")
        if not code_:
            return f"{said}: {follow}"
        return f"{said}{f' ({origin})' if origin else ''}: {follow}"
    if kind in ("ValueError", "TypeError") and ("shape" in message or "broadcast" in message):
        return (f"{where}{inside} gets shapes that fit these inputs only: take every size from the inputs the "
                "question names")
    if code_:
        return (f"{where}{inside} fails there{f' ({origin})' if origin else ''}: make every step follow the inputs "
                "the question names, so it holds for any of them")
    return "your lines fail there: make every step follow the inputs the question names, so it holds for any of them"


def expected_value(question: Question, data):
    """Turn reference plain data back into what `judge` expects for that kind."""
    if isinstance(question, Integer):
        return data["int"]
    if isinstance(question, Real):
        return data["real"]
    if isinstance(question, Choice):
        return data["str"]
    return data


def rounded_down(what: str, m: str = "pad_multiple") -> str:
    """The words for rows added computed from `what` rounded DOWN to a multiple of `m` (what // m * m − what):
    the value is minus the remainder, negative. One slip, the rounding's direction, said as such: not the
    remainder with a sign slip added to it (the rounding alone explains the value and its sign)."""
    return (f"{what} rounded down to a multiple of {m} ({what} // {m} * {m}) is below {what}, so the rows added "
            f"come out negative (minus the remainder {what} % {m}): the padded size is {what} rounded up to the next "
            f"multiple, -(-{what} // {m}) * {m}; then subtract {what}")


def padding_recheck(V: int, m: int) -> tuple[dict, int, str]:
    """A padding question's `recheck` case: a vocabulary already a multiple of m, which needs no padding.
    There m - V % m gives m, not 0, though a variant's V (never a multiple: it would need no padding)
    cannot tell that formula from the right one. V is given under the names a cell reads it by."""
    Vm = -(-V // m) * m
    return ({"V": Vm, ".vocab_size": Vm, "['vocab_size']": Vm, "pad_multiple": m}, 0,
            f"for V = {Vm:,}, already a multiple of pad_multiple = {m}")


def padding_blocks(rows: int, m: int, of: str) -> Hint:
    """A padding question answered with the number of blocks of m rows the padded table spans, ceil(rows / m):
    a count of blocks where a count of rows is asked (proven by its value)."""
    return Hint(lambda got, want: got == -(-rows // m) and got != want,
                f"that is how many blocks of pad_multiple rows the padded table spans, not a count of rows: the "
                f"padded size is that many blocks times pad_multiple, and the padding is the rows past {of}")


def padding_rechecks(V: int, m: int) -> list[tuple[dict, int, str]]:
    """A padding question's two `recheck` cases: V already a multiple of m (m - V % m gives m, not 0)
    and V one past a multiple (a rounding that reads V - 1, or rounds down and adds m, gives 0 or m,
    not m - 1): the two ends a variant's V never reaches."""
    Vm = -(-V // m) * m
    past = Vm + 1
    return [padding_recheck(V, m),
            ({"V": past, ".vocab_size": past, "['vocab_size']": past, "pad_multiple": m}, m - 1,
             f"for V = {past:,}, one past a multiple of pad_multiple = {m}")]


# --------------------------------------------------------------------------
# Written work, marked by the instructor against a rubric (embedlab.grading.manual)


@dataclass(frozen=True)
class Level:
    """One level of a rubric's criterion: the points it gives and what an answer at that level looks like."""

    points: float
    words: str


@dataclass(frozen=True)
class Criterion:
    """One criterion of a rubric: `name` (its id in manual.csv), the template's heading the learner writes
    under (`prompt`), what it asks (`asks`), and its levels, lowest first."""

    name: str
    prompt: str
    asks: str
    levels: tuple
    # the rubric asks for the learner's own figures under this heading: a section with no number at all is said
    # to lack them (what the text lacks, measured; never a grade)
    figures: bool = False

    def __post_init__(self):
        if not self.levels or any(not isinstance(level, Level) for level in self.levels):
            raise ValueError(f"criterion {self.name!r}: levels must be Level(points, words), got levels={self.levels!r}")
        points = [level.points for level in self.levels]
        if points != sorted(set(points)) or points[0] < 0:
            raise ValueError(f"criterion {self.name!r}: levels' points must rise from 0 or more, got {points!r}")

    @property
    def max_points(self) -> float:
        return self.levels[-1].points


# The lines of a written answer that are the exercise's own, never the learner's: the generator's markers
# (the template's places to write). A marker inside the answer's text is left out of it.
_MARKER = ("# YOUR CODE HERE", "# BEGIN SOLUTION", "# END SOLUTION")
WRITTEN_LIMIT = 12_000  # characters of a written answer carried to the grader (a page is about 3,000)


@dataclass
class Written(Question):
    """A written answer (free text, in a string), marked by the instructor against a rubric.

    The exercise gives a template: each criterion's `prompt` as a heading with a place to write under it.
    The check says how many words are written under the headings (nothing of one's own, or only the
    template, is not attempted); the grader carries the text to the instructor's marking page
    (`embedlab-grade --manual`) with status to_mark, and the instructor's filled manual.csv gives its
    points, criterion by criterion. `points` is the rubric's maximum (set from the criteria)."""

    criteria: tuple = ()
    prompt: str = "write it between the quotes, under each heading of the template"
    # The earlier answers whose figures the text argues with (error carried forward, declared): the
    # instructor judges it on the learner's own values, shown beside it on the marking page.
    carries: tuple = ()
    # What the automatic note may say of the figures in the text: `figures(known, text)` gives its words ("" for
    # nothing to say), from `known`, the plain data of the carried answers (as the grader's probe reports them:
    # each question's to_data), which `with_known` sets the same way in the notebook's check and in the grader.
    figures: Callable | None = None
    known: dict | None = None
    kind = "written"

    def with_known(self, known: dict) -> "Written":
        """This question with the learner's carried answers (plain data, by name) to read the text against."""
        return dataclasses.replace(self, known=dict(known))

    def __post_init__(self):
        if not self.criteria or any(not isinstance(c, Criterion) for c in self.criteria):
            raise ValueError(f"Written {self.name!r}: criteria must be Criterion(...), got criteria={self.criteria!r}")
        names = [c.name for c in self.criteria]
        if len(set(names)) != len(names):
            raise ValueError(f"Written {self.name!r}: criteria names must differ, got {names!r}")
        self.points = float(sum(c.max_points for c in self.criteria))

    def statement(self) -> str:
        return "written: your instructor marks it against the rubric above"

    def criterion(self, name: str) -> Criterion | None:
        return next((c for c in self.criteria if c.name == name), None)

    def to_data(self, value):
        if not isinstance(value, str):
            raise WrongForm(f"expected your text as a string (between the quotes), got {type(value).__name__}")
        lines = [line.rstrip() for line in value.strip("\n").split("\n") if line.strip() not in _MARKER]
        return {"text": "\n".join(lines).strip()[:WRITTEN_LIMIT]}

    def own_text(self, text: str) -> str:
        """What the learner wrote: the text without the template's headings and markers."""
        prompts = {c.prompt.strip().casefold() for c in self.criteria}
        return "\n".join(line for line in str(text).split("\n")
                         if line.strip() and line.strip().casefold() not in prompts
                         and line.strip() not in _MARKER).strip()

    def judge(self, data, expected) -> Verdict:
        text = data.get("text") if isinstance(data, dict) else None
        if not isinstance(text, str):
            raise TypeError("a written answer's data is not text")
        own = self.own_text(text)
        if not own:
            said = ("only the given template: nothing of your own is written under its headings" if text.strip()
                    else "nothing written yet")
            return Verdict(NOT_ATTEMPTED, 0.0, self.points, said)
        words = len(own.split())
        # per heading, what is provably missing: the heading itself (not at the start of any line), or anything
        # written under it; then, under a heading with sentences, no figure where the rubric asks for figures
        found = self.sections(text)
        absent = [c for c in self.criteria if c.name not in found]
        empty = [c for c in self.criteria if c.name in found and not found[c.name].strip()]
        lacking = [c for c in self.without_figures(text) if c not in empty]
        unfilled = unfilled_fields(own)
        notes = ""
        if absent:
            named = [f"“{c.prompt.rstrip(':')}”" for c in absent]
            heads = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
            notes += (f"; heading{'s' if len(absent) > 1 else ''} {heads} not found: keep each of the template's "
                      f"{len(self.criteria)} headings as written, at the start of a line, with your sentences under "
                      "it (your instructor marks each heading)")
        notes += "".join(f"; nothing written under “{c.prompt.rstrip(':')}”: the rubric asks you to "
                         f"{_asks(c)}" for c in empty)
        if unfilled:
            shown = ", ".join(unfilled[:3]) + (" …" if len(unfilled) > 3 else "")
            notes += (f"; your text holds {shown} as typed, not your figures: the f before the opening quotes is "
                      f"missing (f\"\"\"…\"\"\"), so Python left the braces unfilled")
        notes += "".join(f"; under “{c.prompt.rstrip(':')}” no figure of your design: the rubric asks you to "
                         f"{_asks(c)}" for c in lacking)
        if self.figures is not None and self.known is not None:
            said = _quiet(self.figures, self.known, without_fields(own), default="")
            if isinstance(said, str) and said:
                notes += "; " + said
        return Verdict(TO_MARK, 0.0, self.points,
                       f"written: {words} word{'' if words == 1 else 's'}; your instructor marks it against "
                       f"the rubric{notes}")

    def sections(self, text: str) -> dict:
        """{criterion name: the learner's lines under its heading} (a heading not found: no entry). A heading is a
        line that starts with the criterion's prompt (its colon, a Markdown `#`, `*` or `-` before it optional), and
        what follows it on that line is written under it."""
        heads = [(c.prompt.strip().rstrip(":").strip().casefold(), c.name) for c in self.criteria]
        out, current = {}, None
        for line in str(text).split("\n"):
            stripped = line.strip()
            body = stripped.lstrip("#*- ").strip()
            head = next(((h, name) for h, name in heads if h and body.casefold().startswith(h)), None)
            if head is not None:
                current = head[1]
                out.setdefault(current, [])
                rest = body[len(head[0]):].lstrip(":*").strip()
                if rest and rest not in _MARKER:
                    out[current].append(rest)
            elif current is not None and stripped and stripped not in _MARKER:
                out[current].append(stripped)
        return {k: "\n".join(v) for k, v in out.items()}

    def without_figures(self, text: str) -> list:
        """The criteria asking for figures whose section holds no digit at all (a heading left out is not
        measured here: the instructor reads the whole text)."""
        import re

        sections = {k: without_fields(v) for k, v in self.sections(text).items()}  # {x:.4g} holds no figure
        return [c for c in self.criteria if c.figures and c.name in sections and not re.search(r"\d", sections[c.name])]

    def rubric_markdown(self) -> str:
        """The rubric as the notebook shows it: a table per criterion of its levels."""
        out = []
        for c in self.criteria:
            out.append(f"**{c.prompt.rstrip(':')}** (`{c.name}`, {points_text(c.max_points)}): {c.asks}\n")
            out.append("| points | what it looks like |\n|---|---|")
            out += [f"| {format_points(level.points)} | {level.words} |" for level in c.levels]
            out.append("")
        return "\n".join(out).strip()


def _asks(criterion) -> str:
    """What a criterion asks for, as the end of a sentence ("the rubric asks you to …")."""
    return criterion.asks[0].lower() + criterion.asks[1:].rstrip(".")


# A replacement field of an f-string left as typed in the text (the f prefix missing): braces around any Python
# expression that names something, with what may follow it (a conversion, a format spec): {design_params:,},
# {shares['compute']:.1%}, {a / b:.1%}, {len(kept)}. What the braces hold is tried as an f-string's field, so prose
# in braces ("{the budget}") is not one, and an expression the learner computes in place is.
_BRACED = __import__("re").compile(r"\{([^{}\n]+)\}")


def _is_field(inner: str) -> bool:
    import ast

    if '"""' in inner or "\\" in inner:
        return False
    try:
        tree = ast.parse('f"""{' + inner + '}"""', mode="eval")
    except SyntaxError:
        return False
    return any(isinstance(node, ast.Name) for node in ast.walk(tree))


def unfilled_fields(text: str) -> list:
    """The f-string replacement fields a text holds as typed, each once, in order."""
    return list(dict.fromkeys(m.group(0) for m in _BRACED.finditer(str(text)) if _is_field(m.group(1))))


def without_fields(text: str) -> str:
    """The text with its unfilled replacement fields left out (their format specs hold digits, not figures)."""
    return _BRACED.sub(lambda m: " " if _is_field(m.group(1)) else m.group(0), str(text))


def carried_data(question, data_of) -> dict:
    """{name: plain data} of the answers a Written question carries, read by `data_of(name)` (None: not given):
    the notebook's check and the grader read them the same way, each answer's to_data."""
    out = {}
    for name in getattr(question, "carries", ()) or ():
        try:
            value = data_of(name)
        except Exception:  # noqa: BLE001 - an answer that cannot be read is not carried
            value = None
        if value is not None:
            out[name] = value
    return out


__all__ += ["Level", "Criterion", "Written", "TYPED", "typed_cell", "carried_note", "recounted_problem",
            "unfilled_fields", "without_fields", "carried_data"]
