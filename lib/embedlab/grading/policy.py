"""The instructor's policy, kept beside the grades: embedlab-grade --policy policy.toml (class mode).

One TOML file (book/policy-example.toml is a commented example; book/grading.md, "The course
policy", is the instructor's guide) holds the decisions the grader does not make:

    [late]                  the late rule: due dates' timezone, a grace period, a penalty per
                            started day late and per late file, a cap, a "not accepted after"
    [lesson."NN-slug"]      per lesson: its due date, its weight, a file of submission dates
    [[extension]]           one learner's own due date for one lesson (and why)
    [[adjustment]]          one learner's question or lesson total: points set, or a delta (and why)

One policy serves a whole term: an entry about a learner or a lesson a run does not grade (another
section's, another week's) is kept, checked as any other, applied to nothing in that run and listed
by `Policy.not_in_run` as "not in this run (kept)".

It is read once before grading (`load_policy`: every entry checked against the roster, the course's
lessons and their questions; a bad one refused with the file, line and field) and applied at the end of
every run to the totals the rows give (`Policy.apply`): nothing is stored between runs, so the
same rows and the same policy give the same totals, and the raw grading (scores.csv) is never
changed. What depends on the grades (a delta that takes a score below 0 or above its maximum, a
question adjusted for a learner with no graded file) is checked in `apply`, before any file of
the run is written.

Each lesson's final points: final = raw + adjustment - late_penalty (never below 0), where
`adjustment` sums the question changes and the total's, and `late_penalty` is the late rule's
share of the lesson's maximum, at most what is left. `Policy.adjustments_for` and
`Policy.late_for` (whose str() is a sentence a learner can read) are what feedback shows.

Lateness is known two ways. A date: a `submitted` file of the lesson (Moodle's grading worksheet,
its "Last modified (submission)" column, or a plain `learner,submitted` CSV) gives when each
learner last handed in; days late are the days started after the due date and the grace period.
A marker only: Canvas writes LATE into a late file's download name and gives no date; that file,
when it is the one that counts, gets the per-file penalty. A file's modification time is never
used: unzipping a download sets it to any time at all.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from embedlab.grading.kinds import points_text
from embedlab.grading.lessons import known_lessons, questions_for
from embedlab.grading.lms import Roster
from embedlab.grading.status import GRADED, NOT_GRADED_YET, format_points
from embedlab.grading.text import display_name, printable

LATE_FIELDS = ("timezone", "submitted_timezone", "grace_minutes", "per_day_percent", "per_file_percent",
               "cap_percent", "not_accepted_after_days")
LESSON_FIELDS = ("due", "weight", "submitted", "carry_forward", "accept_typed")
EXTENSION_FIELDS = ("learner", "lesson", "due", "reason")
ADJUSTMENT_FIELDS = ("learner", "lesson", "question", "points", "delta", "reason")
TABLES = ("late", "lesson", "extension", "adjustment")
MAX_REASON = 500  # characters

# Moodle's assignment grading worksheet (mod/assign/gradingtable.php, downloaded as CSV): the
# column headers in English (lang/en/assign.php) and the date userdate() writes by default, the
# langconfig's strftimedaydatetime "%A, %d %B %Y, %I:%M %p" with the day's and hour's leading
# zero removed: "Monday, 5 October 2026, 11:59 PM"; "-" when nothing was handed in.
MOODLE_SUBMITTED = "Last modified (submission)"
MOODLE_IDENTIFIER = "Identifier"
MOODLE_EMAIL = "Email address"
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")
_MOODLE_DATE = re.compile(r"(?:[A-Za-z]+,\s*)?(\d{1,2})\s+([A-Za-z]+)\s+(\d{4}),\s*(\d{1,2}):(\d{2})\s*([AaPp][Mm])?")


class PolicyError(ValueError):
    """A policy refused: the message names the file, the line and the field."""


@dataclass(frozen=True)
class Adjustment:
    """One of the instructor's adjustments: a question's points (`question`) or the lesson's total
    (`question` None), set to `points` or changed by `delta`, for `reason`."""
    learner: str
    lesson: str
    question: str | None
    points: float | None
    delta: float | None
    reason: str
    where: str = field(default="", compare=False, repr=False)  # file:line, for messages

    def __str__(self) -> str:
        what = f"question {self.question}" if self.question else "the lesson's total"
        if self.points is not None:
            change = f"set to {points_text(self.points)}"
        else:
            change = f"{'+' if self.delta >= 0 else '−'}{points_text(abs(self.delta))}"
        return f"Adjusted by the instructor: {what} {change}. Reason: {self.reason}"


@dataclass(frozen=True)
class Late:
    """The late rule's outcome for one learner's lesson: `days` started days late (0 when only the
    LMS's marker is known), `penalty_points` taken off, `rule` the rule that gave it, in words."""
    days: int
    penalty_points: float
    rule: str
    marked_only: bool = field(default=False, compare=False)  # Canvas's marker, no date
    refused: bool = field(default=False, compare=False)  # after the "not accepted after" cutoff
    submitted: str = field(default="", compare=False)  # when it was handed in, as text
    due: str = field(default="", compare=False)

    def __str__(self) -> str:
        if self.marked_only:
            head = "The LMS marked your file late (it gives no date)"
        else:
            head = (f"Handed in {self.days} day{'s' if self.days != 1 else ''} late"
                    + (f" ({self.submitted}; due {self.due})" if self.submitted else ""))
        if self.refused:
            return f"{head}: not accepted, 0 points ({self.rule})."
        return f"{head}: {points_text(self.penalty_points)} off ({self.rule})."


@dataclass
class LateRule:
    timezone: ZoneInfo | None
    submitted_timezone: ZoneInfo | None
    grace_minutes: float = 0.0
    per_day_percent: float | None = None
    per_file_percent: float | None = None
    cap_percent: float = 100.0
    not_accepted_after_days: float | None = None

    def describe(self, per: str) -> str:
        if per == "file":
            text = f"{format_points(self.per_file_percent)} % of the lesson's points per late file"
        else:
            text = f"{format_points(self.per_day_percent or 0)} % of the lesson's points per started day late"
            if self.grace_minutes:
                text += f", after {format_points(self.grace_minutes)} minutes' grace"
        if self.cap_percent < 100:
            text += f", at most {format_points(self.cap_percent)} %"
        return text


@dataclass
class Policy:
    """A loaded policy (load_policy). `apply` merges it into a run's totals."""
    path: str
    late_rule: LateRule | None
    due: dict  # lesson -> aware datetime
    weights: dict  # lesson -> weight (empty: no weighted total)
    submitted: dict  # (learner, lesson) -> aware datetime (from the lessons' `submitted` files)
    dated: frozenset  # lessons with a `submitted` file
    extensions: dict  # (learner, lesson) -> (aware datetime, reason, where)
    adjustments: dict  # (learner, lesson) -> [Adjustment]
    max_points: dict  # lesson -> its maximum; (lesson, question) -> the question's
    _run: dict = field(default_factory=dict, repr=False)  # (learner, lesson) -> Late, from the last apply
    # Per lesson (embedlab.grading.carried): lessons whose answers are judged on the recounted figures only
    # (`carry_forward = false`), and lessons where a right value typed instead of computed counts
    # (`accept_typed = true`).
    no_carry: frozenset = frozenset()
    typed_ok: frozenset = frozenset()

    # -- the accessors feedback uses

    def adjustments_for(self, learner: str, lesson: str) -> list[Adjustment]:
        """The instructor's adjustments of `learner`'s `lesson`, in the file's order."""
        return list(self.adjustments.get((learner, lesson), []))

    def extension_for(self, learner: str, lesson: str) -> str | None:
        """`learner`'s extension of `lesson`, as their feedback says it (their own due date and the
        reason), or None."""
        if (learner, lesson) not in self.extensions:
            return None
        when, reason, _ = self.extensions[learner, lesson]
        shown = _show(when, self.late_rule) if self.late_rule else when.isoformat()
        return f"Your own due date: {shown} (an extension: {reason})"

    def late_for(self, learner: str, lesson: str) -> Late | None:
        """The late rule's outcome for `learner`'s `lesson` in the run the policy was last applied to
        (None: not late, or no late rule). Before any run, only what the dates say is known."""
        if (learner, lesson) in self._run:
            return self._run[learner, lesson]
        return self._late(learner, lesson, marked=False, available=self.max_points.get(lesson, 0.0))

    # -- the merge

    def weighted_total(self, totals) -> float | None:
        """The weighted total (percent) of one learner's totals (a list of Total, one per lesson):
        100 · Σ weight · final / max_points / Σ weight over the lessons given with a weight; a lesson
        without a final (missing, not graded, review) counts 0. None without weights."""
        if not self.weights:
            return None
        used = [(self.weights[t.lesson], t) for t in totals if t.lesson in self.weights]
        total_weight = sum(w for w, _ in used)
        if not used or total_weight <= 0:
            return None
        got = sum(w * (t.final or 0.0) / t.max_points for w, t in used if t.max_points > 0)
        return round(100.0 * got / total_weight, 2)

    def apply(self, totals, rows) -> list:
        """The totals (results.Total, one per learner and lesson) with the policy merged in: each one's
        adjustment, late_penalty, final and weight set; PolicyError naming every entry that cannot be
        applied to these grades (nothing is half-applied: the caller writes nothing then)."""
        points = {}  # (learner, lesson, file, question) -> raw points
        for r in rows:
            if r.question:
                points[r.learner, r.lesson, r.submission, r.question] = r.points or 0.0
        errors, out, run = [], [], {}
        for t in totals:
            try:
                new, late = self._one(t, points)
            except PolicyError as exc:
                errors.append(str(exc))
                continue
            out.append(new)
            if late is not None:
                run[t.learner, t.lesson] = late
        if errors:
            raise PolicyError(f"the policy {self.path} cannot be applied to these grades (nothing was written):\n  "
                              + "\n  ".join(errors))
        self._run = run
        return out

    def _one(self, t, points):
        adjs = self.adjustments.get((t.learner, t.lesson), [])
        weight = self.weights.get(t.lesson)
        if t.status == NOT_GRADED_YET:  # the run stopped before it (or the grader failed): nothing to adjust yet
            return dataclasses.replace(t, final=None, weight=weight), None
        if t.status != GRADED:
            for a in adjs:
                if a.question is not None or a.delta is not None:
                    raise PolicyError(f"{a.where}: [[adjustment]] {_field(a)}: {t.learner} has no graded file of "
                                      f"{t.lesson} (status {t.status}): only `points` on the lesson's total "
                                      "(no `question`) can set it")
            final = next((a.points for a in adjs), t.final)  # a total set: the instructor's number
            change = 0.0 if final is None else round(final - (t.points or 0.0), 6)  # final = points + adjustment
            return dataclasses.replace(t, adjustment=change, late_penalty=0.0, final=final, weight=weight), None
        raw = t.points or 0.0
        adjusted = raw
        for a in adjs:
            if a.question is None:
                continue
            before = points.get((t.learner, t.lesson, t.counted, a.question), 0.0)
            after = a.points if a.points is not None else before + a.delta
            best = self.max_points[t.lesson, a.question]
            if not -1e-9 <= after <= best + 1e-9:
                raise PolicyError(f"{a.where}: [[adjustment]] field 'delta': {t.learner}'s {a.question} in "
                                  f"{t.lesson} would be {format_points(round(after, 6))} ({format_points(before)} "
                                  f"{a.delta:+g}), outside 0 to {format_points(best)}: refused")
            adjusted += after - before
        for a in adjs:
            if a.question is not None:
                continue
            after = a.points if a.points is not None else adjusted + a.delta
            if not -1e-9 <= after <= t.max_points + 1e-9:
                raise PolicyError(f"{a.where}: [[adjustment]] field 'delta': {t.learner}'s total of {t.lesson} "
                                  f"would be {format_points(round(after, 6))} ({format_points(round(adjusted, 6))} "
                                  f"{a.delta:+g}), outside 0 to {format_points(t.max_points)}: refused")
            adjusted = after
        adjusted = round(adjusted, 6)
        late = self._late(t.learner, t.lesson, marked=t.late, available=adjusted, best=t.max_points)
        penalty = late.penalty_points if late else 0.0
        final = round(adjusted - penalty, 6)
        return dataclasses.replace(t, adjustment=round(adjusted - raw, 6), late_penalty=penalty, final=final,
                                   weight=weight), late

    def _late(self, learner: str, lesson: str, marked: bool, available: float, best: float | None = None):
        rule = self.late_rule
        if rule is None:
            return None
        best = self.max_points.get(lesson, 0.0) if best is None else best
        when = self.submitted.get((learner, lesson))
        # The lesson's dates say it, whatever the LMS marked; a learner they do not date (another section's
        # LMS, which marks late files and gives no date: Canvas) is judged by the marker.
        if lesson in self.dated and (when is not None or not marked):
            extension = self.extensions.get((learner, lesson))
            due = extension[0] if extension else self.due.get(lesson)
            if when is None or due is None:
                return None
            seconds = (when - due).total_seconds() - 60 * rule.grace_minutes
            if seconds <= 0:
                return None
            days = math.ceil(seconds / 86400)
            shown = dict(submitted=_show(when, rule), due=_show(due, rule)
                         + (" (your extension)" if extension else ""))
            if rule.not_accepted_after_days is not None and seconds > rule.not_accepted_after_days * 86400:
                return Late(days, round(available, 6), f"not accepted more than "
                            f"{format_points(rule.not_accepted_after_days)} days after the due date", refused=True, **shown)
            percent = min(rule.cap_percent, days * (rule.per_day_percent or 0.0))
            penalty = round(min(available, percent / 100 * best), 6)
            return Late(days, penalty, rule.describe("day"), **shown) if penalty > 0 else None
        if marked:
            if rule.per_file_percent is None:
                raise PolicyError(f"{self.path}: [late] has no per_file_percent, but {learner}'s file that counts for "
                                  f"{lesson} is marked late by the LMS, which gives no date (Canvas): give "
                                  f"per_file_percent (0 for none), or a `submitted` file for [lesson.\"{lesson}\"]")
            percent = min(rule.cap_percent, rule.per_file_percent)
            penalty = round(min(available, percent / 100 * best), 6)
            return Late(0, penalty, rule.describe("file"), marked_only=True) if penalty > 0 else None
        return None

    def summary(self, found) -> str:
        """One line for the run's summary: what the policy changed in these totals (`found`, applied)."""
        adjusted = sum(1 for t in found if t.adjustment)
        late = sum(1 for t in found if t.late_penalty)
        review = [t for t in found if t.status == "review"]
        decided = sum(1 for t in review if t.final is not None)
        return (f"policy {self.path}: {adjusted} lesson total(s) adjusted, {late} late penalt"
                f"{'y' if late == 1 else 'ies'}" + (f", weights for {len(self.weights)} lesson(s) (the weighted "
                                                    "total)" if self.weights else "")
                + (f"; of the {len(review)} lesson(s) set aside for review, {decided} decided (a total the "
                   f"policy sets), {len(review) - decided} still to decide" if review else "")
                + "; --totals keeps the raw points beside the final ones")

    def not_in_run(self, found) -> list[str]:
        """The entries about learners or lessons this run holds no total of (`found`): kept in the term's
        policy, applied when their run comes; one line each, naming file:line, for the run's summary."""
        held = {(t.learner, t.lesson) for t in found}
        lessons = {t.lesson for t in found}
        out = []
        for (learner, lesson), (_, _, where) in self.extensions.items():
            if (learner, lesson) not in held:
                out.append(f"{where}: [[extension]] {learner} {lesson}: not in this run (kept)")
        for (learner, lesson), adjustments in self.adjustments.items():
            if (learner, lesson) not in held:
                out += [f"{a.where}: [[adjustment]] {learner} {lesson}: not in this run (kept)" for a in adjustments]
        for lesson in sorted((set(self.due) | set(self.weights)) - lessons):
            out.append(f"{self.path}: [lesson.\"{lesson}\"]: not in this run (kept)")
        return sorted(out, key=_by_line)

    def check_markers(self, late_files) -> None:
        """PolicyError before grading when files the LMS marked late (`late_files`: (label, lesson or
        None)) would need a per-file rule the policy lacks."""
        if self.late_rule is None or self.late_rule.per_file_percent is not None:
            return
        for label, lesson in late_files:
            if lesson is None or lesson not in self.dated:
                raise PolicyError(f"{self.path}: [late] has no per_file_percent, but the LMS marked {label} late and "
                                  "gives no date (Canvas): give per_file_percent (0 for none), or a `submitted` file "
                                  "for that lesson")


def _by_line(text: str):
    """file:line first, by the line's number (a lesson's table, without a line, last)."""
    head = text.split(": ", 1)[0]
    number = head.rsplit(":", 1)[-1]
    return (0, int(number), text) if number.isdigit() else (1, 0, text)


def _field(a: Adjustment) -> str:
    return "field 'question'" if a.question is not None else "field 'delta'"


def _show(when: dt.datetime, rule: LateRule) -> str:
    zone = rule.timezone or when.tzinfo
    local = when.astimezone(zone)
    return f"{local:%A} {local.day} {local:%B %Y}, {local:%H:%M} ({zone})"


# --------------------------------------------------------------------------
# Reading the file


class _Lines:
    """Where each table header and key of a TOML text is (tomllib gives no line numbers): the line of
    `key` in table `path` (an array of tables is ("adjustment", n), its n-th entry from 0)."""

    def __init__(self, text: str):
        self.at: dict = {}
        table: tuple = ()
        counts: dict = {}
        quote = None
        for number, line in enumerate(text.split("\n"), start=1):  # TOML's lines (not at U+2028, U+0085...)
            stripped = line.strip()
            if quote:
                if line.count(quote) % 2 == 1:
                    quote = None
                continue
            if stripped.startswith("[[") and "]]" in stripped:
                name = _key_path(stripped[2:stripped.index("]]")])
                counts[name] = counts.get(name, -1) + 1
                table = name + (counts[name],)
                self.at[table] = number
            elif stripped.startswith("["):
                end = _closing(stripped)
                table = _key_path(stripped[1:end])
                self.at.setdefault(table, number)
            elif "=" in stripped and not stripped.startswith("#"):
                key = _key_path(_before_equals(stripped))
                if key:
                    self.at.setdefault(table + key, number)
                    for mark in ('"""', "'''"):
                        if line.count(mark) % 2 == 1:
                            quote = mark

    def line(self, *path) -> int | None:
        """The line of `path`, else of the nearest table above it, else of the first entry under
        its first part ([lesson] is only written as [lesson."NN-slug"])."""
        full = tuple(path)
        while path:
            if tuple(path) in self.at:
                return self.at[tuple(path)]
            path = path[:-1]
        under = [line for key, line in self.at.items() if full and key[:1] == full[:1]]
        return min(under) if under else None


def _first_unquoted(text: str, char: str) -> int | None:
    """The index of the first `char` of a TOML line outside a quoted string, or None."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == char:
            return i
    return None


def _closing(text: str) -> int:
    at = _first_unquoted(text, "]")
    return len(text) if at is None else at


def _before_equals(text: str) -> str:
    at = _first_unquoted(text, "=")
    return "" if at is None else text[:at]


def _key_path(text: str) -> tuple:
    """A TOML key ('lesson."01-toy-table"', 'a . b') as its parts."""
    parts, current, quote = [], "", None
    for ch in text.strip():
        if quote:
            if ch == quote:
                quote = None
            else:
                current += ch
        elif ch in "\"'":
            quote = ch
        elif ch == ".":
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    parts.append(current.strip())
    return tuple(p for p in parts)


class _Reader:
    """Checks one policy file's values, each refusal naming file:line and the field."""

    def __init__(self, path: Path, text: str):
        self.name = display_name(path)
        self.lines = _Lines(text)

    def where(self, *path) -> str:
        line = self.lines.line(*path)
        return f"{self.name}:{line}" if line else self.name

    def fail(self, path: tuple, message: str):
        raise PolicyError(f"{self.where(*path)}: {message}")

    def number(self, path: tuple, what: str, value, low: float = 0.0, high: float | None = None,
               low_open: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.fail(path, f"{what} must be a number, got {value!r}")
        if value < low or (low_open and value == low) or (high is not None and value > high):
            span = f"{'above' if low_open else 'from'} {format_points(low)}" + (
                f" to {format_points(high)}" if high is not None else "")
            self.fail(path, f"{what} must be a number {span}, got {format_points(value)}")
        return float(value)

    def text(self, path: tuple, what: str, value) -> str:
        if not isinstance(value, str) or not value.strip():
            self.fail(path, f"{what} must be a text, got {value!r}")
        return value.strip()

    def only(self, path: tuple, what: str, table, allowed) -> None:
        if not isinstance(table, dict):
            self.fail(path, f"{what} must be a table, got {table!r}")
        for key in table:
            if key not in allowed:
                self.fail(path + (key,), f"{what}: unknown field {key!r} (known: {', '.join(allowed)})")

    def zone(self, path: tuple, value) -> ZoneInfo:
        name = self.text(path, "field 'timezone'" if path[-1] == "timezone" else f"field {path[-1]!r}", value)
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            self.fail(path, f"field {path[-1]!r}: {name!r} is not a timezone (an IANA name such as "
                            "'Europe/Berlin', 'America/New_York' or 'UTC')")

    def moment(self, path: tuple, what: str, value, zone: ZoneInfo | None) -> dt.datetime:
        if isinstance(value, dt.datetime):
            if value.tzinfo is not None:
                return value
            if zone is None:
                self.fail(path, f"{what} {value.isoformat()} has no offset and [late] gives no timezone: add "
                                "timezone = \"Europe/Berlin\" (your zone) to [late], or an offset (+02:00)")
            return value.replace(tzinfo=zone)
        if isinstance(value, dt.date):
            self.fail(path, f"{what} {value.isoformat()} has no time: write {value.isoformat()}T23:59:00 (TOML's "
                            "date and time, without quotes)")
        self.fail(path, f"{what} must be a date and time, e.g. 2026-10-05T23:59:00 (without quotes), got {value!r}")


def load_policy(path, roster: Roster | None, keys: dict) -> Policy:
    """The policy file at `path`, every entry checked against `roster` (None: the keys' learners),
    the instructor `keys` (lesson -> LessonKeys) and each lesson's questions; PolicyError naming the
    file, line and field of the first entry refused (see the module docstring and book/grading.md)."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise PolicyError(f"cannot read the policy {display_name(path)} ({type(exc).__name__}: {exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise PolicyError(f"the policy {display_name(path)} is not UTF-8 (byte {exc.start})") from None
    reader = _Reader(path, text)
    reader.roster = roster is not None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{reader.name}: not TOML: {exc}") from None
    for key in data:
        if key not in TABLES:
            hint = {"adjustments": " (write [[adjustment]])", "extensions": " (write [[extension]])",
                    "lessons": " (write [lesson.\"NN-slug\"])"}.get(key, "")
            reader.fail((key,), f"unknown table or field {key!r}{hint} (known: {', '.join(TABLES)})")
    learners = set(roster.learners) if roster is not None else {n for k in keys.values() for n in k.learners}
    max_points = {}
    named = {e.get("lesson") for table in ("extension", "adjustment") for e in
             (data.get(table) if isinstance(data.get(table), list) else []) if isinstance(e, dict)}
    for lesson in sorted(set(keys) | {x for x in named if isinstance(x, str) and x in known_lessons()}):
        questions = questions_for(lesson)
        max_points[lesson] = float(sum(q.points for q in questions))
        for q in questions:
            max_points[lesson, q.name] = float(q.points)

    rule = _late_rule(reader, data.get("late"))
    due, weights, dated, sources = _lessons(reader, data.get("lesson", {}), rule, keys)
    if due and rule is None:
        reader.fail(("lesson",), "due dates need a late rule: add a [late] table (per_day_percent, ...)")
    if sources and rule is None:
        reader.fail(("lesson",), "a `submitted` file needs a late rule: add a [late] table")
    weights = {lesson: w for lesson, w in weights.items()}  # every lesson's, in the run's or not (the term's)
    if weights:
        for lesson in sorted(keys):
            if lesson not in weights:
                reader.fail(("lesson",), f"weights: lesson {lesson} of the keys has no weight: give every lesson "
                                         "of the keys a weight (0 leaves it out of the weighted total)")
        if sum(weights.values()) <= 0:
            reader.fail(("lesson",), "weights: every weight is 0")
    submitted = {}
    for lesson, (source, where) in sources.items():
        if lesson not in keys:
            continue  # a lesson of another run: its dates are read when it is graded
        zone = rule.submitted_timezone or rule.timezone
        submitted.update({(learner, lesson): when for learner, when in
                          read_submitted(path.parent / source, roster, keys[lesson].learners, lesson, zone,
                                         where).items()})
    extensions = _extensions(reader, data.get("extension", []), rule, learners, keys, dated)
    adjustments = _adjustments(reader, data.get("adjustment", []), learners, keys, max_points)
    policy = Policy(display_name(path), rule, due, weights, submitted, frozenset(dated), extensions, adjustments,
                    max_points)
    policy.no_carry, policy.typed_ok = _switches(reader, data.get("lesson", {}))
    return policy


def _switches(reader: _Reader, table) -> tuple[frozenset, frozenset]:
    """(lessons with carry_forward = false, lessons with accept_typed = true) of the [lesson] tables; a
    value that is not true or false refused, naming its line."""
    no_carry, typed_ok = set(), set()
    for lesson, entry in (table.items() if isinstance(table, dict) else ()):
        for name, into, when in (("carry_forward", no_carry, False), ("accept_typed", typed_ok, True)):
            if name in entry:
                if not isinstance(entry[name], bool):
                    reader.fail(("lesson", lesson, name), f"[lesson.{lesson!r}] field {name!r} must be true or "
                                                          f"false, got {entry[name]!r}")
                if entry[name] is when:
                    into.add(lesson)
    return frozenset(no_carry), frozenset(typed_ok)


def _late_rule(reader: _Reader, table) -> LateRule | None:
    if table is None:
        return None
    reader.only(("late",), "[late]", table, LATE_FIELDS)
    zone = reader.zone(("late", "timezone"), table["timezone"]) if "timezone" in table else None
    submitted_zone = (reader.zone(("late", "submitted_timezone"), table["submitted_timezone"])
                      if "submitted_timezone" in table else None)
    rule = LateRule(zone, submitted_zone)
    if "grace_minutes" in table:
        rule.grace_minutes = reader.number(("late", "grace_minutes"), "[late] field 'grace_minutes'",
                                           table["grace_minutes"])
    for name in ("per_day_percent", "per_file_percent", "cap_percent"):
        if name in table:
            setattr(rule, name, reader.number(("late", name), f"[late] field {name!r}", table[name], 0, 100))
    if "not_accepted_after_days" in table:
        rule.not_accepted_after_days = reader.number(("late", "not_accepted_after_days"),
                                                     "[late] field 'not_accepted_after_days'",
                                                     table["not_accepted_after_days"], 0, low_open=True)
    if rule.per_day_percent is None and rule.per_file_percent is None and rule.not_accepted_after_days is None:
        reader.fail(("late",), "[late] gives no penalty: give per_day_percent, per_file_percent and/or "
                               "not_accepted_after_days")
    return rule


def _lessons(reader: _Reader, table, rule: LateRule | None, keys: dict):
    if not isinstance(table, dict):
        reader.fail(("lesson",), f"[lesson] must hold one table per lesson, [lesson.\"NN-slug\"], got {table!r}")
    due, weights, dated, sources = {}, {}, set(), {}
    for lesson, entry in table.items():
        at = ("lesson", lesson)
        if lesson not in known_lessons():
            reader.fail(at, f"[lesson.{lesson!r}]: there is no lesson {lesson!r} (known: {', '.join(known_lessons())})")
        reader.only(at, f"[lesson.{lesson!r}]", entry, LESSON_FIELDS)
        if "due" in entry:
            due[lesson] = reader.moment(at + ("due",), f"[lesson.{lesson!r}] field 'due':", entry["due"],
                                        rule.timezone if rule else None)
        if "weight" in entry:
            weights[lesson] = reader.number(at + ("weight",), f"[lesson.{lesson!r}] field 'weight'", entry["weight"])
        if "submitted" in entry:
            source = reader.text(at + ("submitted",), f"[lesson.{lesson!r}] field 'submitted'", entry["submitted"])
            if lesson not in due:
                reader.fail(at + ("submitted",), f"[lesson.{lesson!r}]: submission dates need the lesson's due date "
                                                 "(field 'due')")
            if rule is not None and rule.submitted_timezone is None and rule.timezone is None:
                reader.fail(("late",), "[late]: the dates of a `submitted` file are read in submitted_timezone (or "
                                       "timezone): give one (Moodle writes them in your profile's timezone)")
            sources[lesson] = (source, reader.where(*(at + ("submitted",))))
            dated.add(lesson)
    return due, weights, dated, sources


def _extensions(reader: _Reader, entries, rule, learners: set, keys: dict, dated: set) -> dict:
    if not isinstance(entries, list):
        reader.fail(("extension",), "extensions are written [[extension]], one table each")
    out = {}
    for n, entry in enumerate(entries):
        at = ("extension", n)
        reader.only(at, "[[extension]]", entry, EXTENSION_FIELDS)
        for name in ("learner", "lesson", "due", "reason"):
            if name not in entry:
                reader.fail(at, f"[[extension]] has no field {name!r} (every extension needs learner, lesson, due "
                                "and reason)")
        learner, lesson = _who(reader, at, "[[extension]]", entry, learners, keys)
        when = reader.moment(at + ("due",), "[[extension]] field 'due':", entry["due"], rule.timezone if rule else None)
        if rule is None:
            reader.fail(at, "[[extension]] needs a late rule: add a [late] table")
        if lesson not in dated:
            reader.fail(at + ("lesson",), f"[[extension]] field 'lesson': {lesson} has no submission dates (no "
                                          f"`submitted` file in [lesson.\"{lesson}\"]), so an extension cannot be "
                                          "checked: with Canvas, give the learner their own due date in Canvas (it "
                                          "then marks late against it), or adjust the lesson's total")
        reason = _reason(reader, at, "[[extension]]", entry["reason"])
        if (learner, lesson) in out:
            reader.fail(at, f"[[extension]]: a second extension of {learner}'s {lesson} (the first is at "
                            f"{out[learner, lesson][2]})")
        out[learner, lesson] = (when, reason, reader.where(*at))
    return out


def _who(reader: _Reader, at: tuple, what: str, entry: dict, learners: set, keys: dict) -> tuple[str, str]:
    learner = reader.text(at + ("learner",), f"{what} field 'learner'", entry["learner"])
    lesson = reader.text(at + ("lesson",), f"{what} field 'lesson'", entry["lesson"])
    if learner not in learners:
        reader.fail(at + ("learner",), f"{what} field 'learner': {learner!r} is not on the roster"
                                       + ("" if reader.roster else " (no --roster: the learners of the keys)"))
    if lesson not in known_lessons():
        reader.fail(at + ("lesson",), f"{what} field 'lesson': there is no lesson {lesson!r} (known: "
                                      f"{', '.join(known_lessons())})")
    # A lesson of another run (not in these keys), or a learner without a variant of it here, is kept: the
    # term's one policy names every section's and lesson's decisions; the run reports it as not in this run.
    return learner, lesson


def _reason(reader: _Reader, at: tuple, what: str, value) -> str:
    if not isinstance(value, str) or not value.strip():
        reader.fail(at + ("reason",), f"{what} field 'reason': give the reason, in words (it is shown to the "
                                      f"learner), got {value!r}")
    if len(value) > MAX_REASON:
        reader.fail(at + ("reason",), f"{what} field 'reason': at most {MAX_REASON} characters, got {len(value)}")
    return printable(" ".join(value.split()))  # one line: a line break or tab in TOML is a space


def _adjustments(reader: _Reader, entries, learners: set, keys: dict, max_points: dict) -> dict:
    if not isinstance(entries, list):
        reader.fail(("adjustment",), "adjustments are written [[adjustment]], one table each")
    out: dict = {}
    seen: dict = {}
    for n, entry in enumerate(entries):
        at = ("adjustment", n)
        reader.only(at, "[[adjustment]]", entry, ADJUSTMENT_FIELDS)
        for name in ("learner", "lesson", "reason"):
            if name not in entry:
                reader.fail(at, f"[[adjustment]] has no field {name!r} (every adjustment needs learner, lesson, "
                                "points or delta, and reason)")
        learner, lesson = _who(reader, at, "[[adjustment]]", entry, learners, keys)
        question = None
        if "question" in entry:
            question = reader.text(at + ("question",), "[[adjustment]] field 'question'", entry["question"])
            if (lesson, question) not in max_points:
                names = [k[1] for k in max_points if isinstance(k, tuple) and k[0] == lesson]
                reader.fail(at + ("question",), f"[[adjustment]] field 'question': {lesson} has no question "
                                                f"{question!r} (its questions: {', '.join(names)}; leave `question` "
                                                "out to adjust the lesson's total)")
        if ("points" in entry) == ("delta" in entry):
            reader.fail(at, "[[adjustment]]: give either `points` (the score it is set to) or `delta` (points "
                            "added, negative to take off), not " + ("both" if "points" in entry else "neither"))
        best = max_points[lesson, question] if question else max_points[lesson]
        target = f"{question} of {lesson}" if question else f"the total of {lesson}"
        points = delta = None
        if "points" in entry:
            points = reader.number(at + ("points",), f"[[adjustment]] field 'points' ({target})", entry["points"],
                                   0, best)
        else:
            delta = reader.number(at + ("delta",), "[[adjustment]] field 'delta'", entry["delta"], -best, best)
        reason = _reason(reader, at, "[[adjustment]]", entry["reason"])
        target_key = (learner, lesson, question)
        if target_key in seen:
            reader.fail(at, f"[[adjustment]]: a second adjustment of {learner}'s {question or 'total'} in {lesson} "
                            f"(the first is at {seen[target_key]}): merge them into one")
        seen[target_key] = reader.where(*at)
        adjustment = Adjustment(learner, lesson, question, points, delta, reason, reader.where(*at))
        out.setdefault((learner, lesson), []).append(adjustment)
    return out


# --------------------------------------------------------------------------
# Submission dates: Moodle's grading worksheet, or a learner,submitted CSV


def read_submitted(path: Path, roster: Roster | None, learners, lesson: str, zone: ZoneInfo,
                   named_at: str = "") -> dict:
    """{learner: when they last handed in (aware datetime)} from `path`: Moodle's grading worksheet
    of the lesson's assignment (its "Identifier" or "Email address" finds the learner in the roster,
    its "Last modified (submission)" is read in `zone`, Moodle's own default English form or ISO 8601)
    or a CSV with `learner` and `submitted` columns (ISO 8601; without an offset, in `zone`). A row
    without a date ("-") is skipped; PolicyError naming file:line and the column of anything else
    that cannot be read, or of a dated row whose learner the roster does not give."""
    name = display_name(path)
    origin = f" (named at {named_at})" if named_at else ""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise PolicyError(f"cannot read the submission dates {name}{origin} ({type(exc).__name__}: "
                          f"{exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise PolicyError(f"the submission dates {name}{origin} are not UTF-8 (byte {exc.start})") from None
    reader = csv.reader(io.StringIO(text, newline=""))
    header = [cell.strip() for cell in next(reader, [])]
    plain = "learner" in header and "submitted" in header
    if not plain and MOODLE_SUBMITTED not in header:
        raise PolicyError(f"{name}:1{origin}: neither Moodle's grading worksheet (a {MOODLE_SUBMITTED!r} column; "
                          "download it with Moodle's language set to English: the headers and dates are "
                          f"translated) nor a learner,submitted CSV: its columns are {header}")
    col = {h: i for i, h in enumerate(header)}
    out = {}
    for row in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        cell = lambda h: row[col[h]].strip() if h in col and col[h] < len(row) else ""  # noqa: E731
        value = cell("submitted" if plain else MOODLE_SUBMITTED)
        if value in ("", "-"):
            continue
        when = _parse_date(value, zone)
        if when is None:
            raise PolicyError(f"{name}:{line}: column {'submitted' if plain else MOODLE_SUBMITTED!r}: cannot read "
                              f"the date {value!r} (Moodle's English form 'Monday, 5 October 2026, 11:59 PM' or "
                              "ISO 8601 '2026-10-05T23:59:00')")
        learner = cell("learner") if plain else _moodle_learner(roster, learners, lesson, cell(MOODLE_IDENTIFIER),
                                                                 cell(MOODLE_EMAIL))
        if not learner or learner not in learners:
            who = repr(cell("learner")) if plain else f"{cell(MOODLE_IDENTIFIER)!r} / {cell(MOODLE_EMAIL)!r}"
            raise PolicyError(f"{name}:{line}: a submission date for {who}, who is not a learner of {lesson} in the "
                              "roster and keys (a roster with moodle_id or email columns finds Moodle's rows)")
        if learner in out:
            raise PolicyError(f"{name}:{line}: a second date for {learner}")
        out[learner] = when
    return out


def _moodle_learner(roster: Roster | None, learners, lesson: str, identifier: str, email: str) -> str | None:
    digits = re.search(r"(\d+)\s*$", identifier)
    if roster is not None and digits:
        try:
            found = roster.by_lms_id("moodle", digits.group(1), lesson)
        except ValueError:
            found = None
        if found:
            return found
    if email:
        if roster is not None and roster.has("email"):
            for learner in roster.learners:
                if roster.value(learner, "email").casefold() == email.casefold():
                    return learner
        for learner in learners:
            if learner.casefold() == email.casefold():
                return learner
    return None


def _parse_date(value: str, zone: ZoneInfo) -> dt.datetime | None:
    match = _MOODLE_DATE.fullmatch(value.strip())
    if match:
        day, month, year, hour, minute, half = match.groups()
        if month.lower() not in MONTHS:
            return None
        hour = int(hour)
        if half:
            if not 1 <= hour <= 12:
                return None
            hour = hour % 12 + (12 if half.lower() == "pm" else 0)
        try:
            return dt.datetime(int(year), MONTHS.index(month.lower()) + 1, int(day), hour, int(minute), tzinfo=zone)
        except ValueError:
            return None
    try:
        when = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=zone)
