"""--manual DIR: written answers (kinds.Written) marked by hand beside the autograder.

For each lesson of a run with a written question, embedlab-grade --manual DIR writes

    DIR/NN-slug/marking.html   one self-contained page: each learner's written answer beside the rubric
                               and their autograded answers, in the LMS's learner order (the roster's,
                               else the keys'); n / p (or j / k) move between learners
    DIR/NN-slug/manual.csv     the sheet to fill: one line per learner and criterion, with the columns
                               learner, question, criterion, max_points, level, points, comment

A learner who wrote nothing, or only the template, gets 0 and no line (the page says so). The sheet is
written only when there is none: once it exists it is the instructor's, read and never rewritten. A
later run with the same --manual DIR reads each lesson's sheet that has a level or points filled in
(`read_marks`, before any grading: an unknown learner, question or criterion, a level that is not one,
points over the criterion's maximum, or a criterion given twice is refused with the file, line and field,
and nothing is written), and merges it (`merge`): a written answer whose every criterion is filled gets
their sum (status marked, the criteria and comments kept on the row for the feedback and the report);
one not filled in yet stays to_mark, at 0. The merge is a pure function of the rows and the sheet, so a
rerun gives the same totals.
"""

from __future__ import annotations

import csv
import dataclasses
import html
import io
import math
from dataclasses import dataclass
from pathlib import Path

from embedlab.grading.judge import Row
from embedlab.grading.lessons import questions_for
from embedlab.grading.status import MARKED, TO_MARK, format_points
from embedlab.grading.text import atomic_output, csv_cell, csv_writer, display_name, printable

SHEET, PAGE = "manual.csv", "marking.html"
COLUMNS = ("learner", "question", "criterion", "max_points", "level", "points", "comment")
REQUIRED = ("learner", "question", "criterion", "level", "points")
COMMENT_LIMIT = 2000  # characters of one comment


class ManualError(ValueError):
    """A filled manual.csv that cannot be merged: names the file, line and field."""


@dataclass(frozen=True)
class Mark:
    criterion: str
    points: float
    max_points: float
    comment: str


def written_questions(lesson: str) -> dict:
    """{name: kinds.Written} of a lesson ({} for a lesson with none, or no lesson)."""
    try:
        return {q.name: q for q in questions_for(lesson) if getattr(q, "kind", "") == "written"}
    except ValueError:
        return {}


def sheet_path(folder, lesson: str) -> Path:
    return Path(folder) / lesson / SHEET


# --------------------------------------------------------------------------
# Reading a filled sheet


def read_marks(folder, learners: dict) -> dict:
    """{(learner, lesson, question): [Mark, ...] in the rubric's order} from every filled sheet under
    `folder` (a lesson's DIR/NN-slug/manual.csv with a level or points filled in), for the lessons of
    `learners` ({lesson: the learners it knows}: the keys'). ManualError naming the file, line and field
    of the first entry refused. A sheet with nothing filled in is not read (the first run's)."""
    out = {}
    for lesson in sorted(learners):
        questions = written_questions(lesson)
        path = sheet_path(folder, lesson)
        if not questions or not path.is_file():
            continue
        out.update(_read_sheet(path, lesson, questions, set(learners[lesson])))
    return out


def _read_sheet(path: Path, lesson: str, questions: dict, known: set) -> dict:
    name = display_name(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise ManualError(f"cannot read {name} ({type(exc).__name__}: {exc.strerror})") from None
    except UnicodeDecodeError as exc:
        raise ManualError(f"{name} is not UTF-8 (byte {exc.start})") from None
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") > first.count(",") else ","  # a spreadsheet in a `;` locale
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise ManualError(f"{name}, line {reader.line_num}: not CSV ({exc})") from None
    if not rows:
        return {}
    header = [cell.strip().lower() for cell in rows[0]]
    for column in REQUIRED:
        if column not in header:
            raise ManualError(f"{name}, line 1: no {column!r} column (the columns are {', '.join(COLUMNS)})")
    at = {column: header.index(column) for column in COLUMNS if column in header}
    lines = [(number, row) for number, row in enumerate(rows[1:], start=2) if any(cell.strip() for cell in row)]
    if not any(_cell(row, at, "level") or _cell(row, at, "points") for _, row in lines):
        return {}  # not filled in yet
    found, seen = {}, {}
    for number, row in lines:
        where = f"{name}, line {number}"
        learner = _cell(row, at, "learner")
        if learner not in known:
            raise ManualError(f"{where}, field 'learner': {printable(learner)!r} is not a learner of lesson "
                              f"{lesson} (the roster and the keys)")
        question = _cell(row, at, "question")
        if question not in questions:
            raise ManualError(f"{where}, field 'question': {printable(question)!r} is not a written question of "
                              f"lesson {lesson} (known: {', '.join(questions)})")
        q = questions[question]
        criterion = q.criterion(_cell(row, at, "criterion"))
        if criterion is None:
            raise ManualError(f"{where}, field 'criterion': {printable(_cell(row, at, 'criterion'))!r} is not a "
                              f"criterion of {question} (known: {', '.join(c.name for c in q.criteria)})")
        if (learner, question, criterion.name) in seen:
            raise ManualError(f"{where}, field 'criterion': {criterion.name} of {learner} is given twice (first "
                              f"on line {seen[learner, question, criterion.name]})")
        seen[learner, question, criterion.name] = number
        points = _points(where, criterion, _cell(row, at, "level"), _cell(row, at, "points"))
        if points is None:
            continue  # not marked yet: that answer stays to mark
        comment = _cell(row, at, "comment")[:COMMENT_LIMIT]
        found.setdefault((learner, lesson, question), {})[criterion.name] = Mark(
            criterion.name, points, criterion.max_points, comment)
    out = {}
    for (learner, lesson_, question), marks in found.items():
        order = [c.name for c in questions[question].criteria]
        out[learner, lesson_, question] = [marks[c] for c in order if c in marks]
    return out


def _cell(row: list, at: dict, column: str) -> str:
    index = at.get(column)
    return row[index].strip() if index is not None and index < len(row) else ""


def _points(where: str, criterion, level: str, points: str) -> float | None:
    """The points of one line: its level's (the rubric's level number, 0 the lowest) or its points
    (any number from 0 to the criterion's maximum); both must agree when both are given."""
    from_level = from_points = None
    if level:
        try:
            number = int(level)
        except ValueError:
            number = -1
        if not 0 <= number < len(criterion.levels):
            raise ManualError(f"{where}, field 'level': {printable(level)!r} is not a level of {criterion.name} "
                              f"(0 to {len(criterion.levels) - 1})")
        from_level = float(criterion.levels[number].points)
    if points:
        try:  # a decimal comma (a spreadsheet in a `;` locale writes 1,5) is read as a point
            from_points = float(points.replace(",", ".", 1) if "." not in points else points)
        except ValueError:
            raise ManualError(f"{where}, field 'points': {printable(points)!r} is not a number") from None
        if not math.isfinite(from_points) or from_points < 0:
            raise ManualError(f"{where}, field 'points': {printable(points)!r} must be 0 or more")
        if from_points > criterion.max_points:
            raise ManualError(f"{where}, field 'points': {format_points(from_points)} is over {criterion.name}'s "
                              f"maximum of {format_points(criterion.max_points)}")
    if from_level is not None and from_points is not None and abs(from_level - from_points) > 1e-9:
        raise ManualError(f"{where}, field 'points': {format_points(from_points)} points, but level {level} of "
                          f"{criterion.name} gives {format_points(from_level)}: give one, or make them agree")
    return from_points if from_points is not None else from_level


# --------------------------------------------------------------------------
# Merging the marks into a run's rows


def merge(rows: list[Row], marks: dict) -> list[Row]:
    """The rows with each written answer to mark whose learner's every criterion is filled in marked:
    its points the sum, status marked, its detail the criteria in words, `criteria` on the row. Rows of
    other learners, questions or lessons are returned as they are (a new list; the rows are not changed)."""
    out = []
    for r in rows:
        got = marks.get((r.learner, r.lesson, r.question)) if r.status == TO_MARK and r.learner else None
        q = written_questions(r.lesson).get(r.question) if got else None
        if not got or q is None or len(got) != len(q.criteria):
            out.append(r)
            continue
        points = sum(m.points for m in got)
        detail = "marked by your instructor: " + "; ".join(
            f"{m.criterion} {format_points(m.points)} / {format_points(m.max_points)}" for m in got)
        out.append(dataclasses.replace(r, points=points, status=MARKED, detail=detail,
                                       criteria=tuple((m.criterion, m.points, m.max_points, m.comment) for m in got)))
    return out


def to_mark(rows: list[Row]) -> int:
    """How many written answers of a run still wait for their marks."""
    return sum(1 for r in rows if r.status == TO_MARK)


# --------------------------------------------------------------------------
# The marking page and the sheet


def learner_order(lesson: str, rows: list[Row], keys, roster) -> list[str]:
    """The learners of a lesson's rows in the LMS's order: the roster's, else the keys', else by name."""
    present = {r.learner for r in rows if r.lesson == lesson and r.learner}
    if roster is not None:
        order = list(roster.learners)
    elif keys is not None and lesson in keys:
        order = list(keys[lesson].learners)
    else:
        order = []
    return [n for n in order if n in present] + sorted(present - set(order))


def write_marking(folder, rows: list[Row], keys=None, roster=None) -> list[Path]:
    """Per lesson with a written question among `rows`: its marking page (always rewritten: it shows this
    run) and its sheet (only when there is none). The paths written."""
    folder = Path(folder)
    written = []
    for lesson in sorted({r.lesson for r in rows if r.lesson}):
        questions = written_questions(lesson)
        if not questions:
            continue
        where = folder / lesson
        where.mkdir(parents=True, exist_ok=True)
        order = learner_order(lesson, rows, keys, roster)
        sheet = where / SHEET
        lines = _sheet_lines(lesson, rows, order, questions)
        if not sheet.exists():
            with atomic_output(sheet, "w", "--manual", newline="", encoding="utf-8") as f:
                w = csv_writer(f)
                w.writerow(COLUMNS)
                w.writerows([[csv_cell(str(cell)) for cell in line] for line in lines])
            written.append(sheet)
        page = where / PAGE
        with atomic_output(page, "w", "--manual", encoding="utf-8") as f:
            f.write(render(lesson, rows, order, questions, lines))
        written.append(page)
    return written


def _counted(lesson: str, learner: str, rows: list[Row]) -> list[Row]:
    """The rows of the learner's file whose written answers are shown: the one with the most points (as the
    totals' default rule), the first in the run on a tie."""
    files = {}
    for r in rows:
        if r.lesson == lesson and r.learner == learner and r.question:
            files.setdefault(r.submission, []).append(r)
    if not files:
        return []
    return max(files.values(), key=lambda rs: sum(r.points or 0.0 for r in rs))


def _sheet_lines(lesson: str, rows: list[Row], order: list[str], questions: dict) -> list[list]:
    lines = []
    for learner in order:
        for r in _counted(lesson, learner, rows):
            if r.question in questions and r.status in (TO_MARK, MARKED):
                for c in questions[r.question].criteria:
                    lines.append([learner, r.question, c.name, format_points(c.max_points), "", "", ""])
    return lines


def _e(text) -> str:
    return html.escape(printable(str(text)), quote=True)


def _text(text: str) -> str:
    """A written answer, escaped for a <pre>: its line breaks kept, every other control character escaped."""
    return "\n".join(_e(line) for line in str(text).split("\n"))


CSS = """
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1b1b; --muted: #4a4a4a; --line: #c8c8c8;
  --head: #eef1f5; --link: #0b57d0; }
@media (prefers-color-scheme: dark) { :root { --bg: #121417; --fg: #e8e8e8; --muted: #c2c2c2;
  --line: #555b63; --head: #1f252c; --link: #8ab4f8; } }
body { background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, sans-serif; margin: 0; }
main { max-width: 90rem; margin: 0 auto; padding: 1rem; }
a { color: var(--link); }
.learner { border-top: 2px solid var(--line); padding-top: 0.5rem; margin-top: 1.5rem; }
.learner:focus { outline: 3px solid var(--link); outline-offset: 4px; }
.pair { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 1rem; }
@media (max-width: 50rem) { .pair { grid-template-columns: 1fr; } }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; font-size: 0.95rem;
  background: var(--head); padding: 0.6rem; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid var(--line); padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: var(--head); }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.note { color: var(--muted); }
nav.steps a { margin-right: 1rem; }
"""

# n / j: the next learner, p / k: the previous one (focus moves to their section, announced by its heading)
SCRIPT = """
document.addEventListener("keydown", function (e) {
  if (e.altKey || e.ctrlKey || e.metaKey || /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
  var step = {n: 1, j: 1, p: -1, k: -1}[e.key];
  if (!step) return;
  var all = Array.prototype.slice.call(document.querySelectorAll("section.learner"));
  var at = all.indexOf(document.activeElement.closest ? document.activeElement.closest("section.learner") : null);
  var next = all[Math.max(0, Math.min(all.length - 1, at + step))];
  if (next) { next.focus(); e.preventDefault(); }
});
"""


def render(lesson: str, rows: list[Row], order: list[str], questions: dict, lines: list[list]) -> str:
    """The marking page of one lesson (self-contained HTML: every text from a submission escaped)."""
    line_of = {}
    for number, line in enumerate(lines, start=2):
        line_of.setdefault((line[0], line[1]), []).append(number)
    out = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Marking: {_e(lesson)}</title><style>{CSS}</style></head><body><main>",
           f"<h1>Written answers to mark: exercise {_e(lesson)}</h1>",
           f'<p class="note">Fill in <code>{SHEET}</code> next to this page: for each line, a level (the '
           "rubric's level number, 0 the lowest) or points (0 to the criterion's maximum), and a comment "
           "the learner will read. Then run embedlab-grade again with the same <code>--manual</code> folder: "
           "the points go into the totals, gradebook, report and feedback. Keys: <kbd>n</kbd> / <kbd>j</kbd> "
           "the next learner, <kbd>p</kbd> / <kbd>k</kbd> the previous one.</p>"]
    waiting = marked = blank = 0
    sections = []
    for index, learner in enumerate(order, start=1):
        counted = _counted(lesson, learner, rows)
        for r in counted:
            if r.question not in questions:
                continue
            q = questions[r.question]
            if r.status == TO_MARK:
                waiting += 1
            elif r.status == MARKED:
                marked += 1
            else:
                blank += 1
            sections.append(_learner(index, learner, r, q, counted, questions, line_of.get((learner, r.question))))
    out.append(f"<p>{len(order)} learner{'s' * (len(order) != 1)}: {waiting} answer{'s' * (waiting != 1)} to mark, "
               f"{marked} marked, {blank} with nothing of their own written (0, no line to fill).</p>")
    out += sections
    out.append(f"<script>{SCRIPT}</script></main></body></html>\n")
    return "".join(out)


def _learner(index: int, learner: str, r: Row, q, counted: list[Row], questions: dict, lines) -> str:
    anchor = f"learner-{index}"
    out = [f'<section class="learner" id="{anchor}" tabindex="-1" aria-labelledby="{anchor}-h">',
           f'<h2 id="{anchor}-h">{index}. {_e(learner)} · {_e(r.question)}</h2>',
           f'<p class="note">File: {_e(r.submission.rsplit("/", 1)[-1])}. ']
    if r.status == TO_MARK:
        out.append(f"To mark: {SHEET} line{'s' * (len(lines or []) != 1)} "
                   f"{', '.join(str(n) for n in lines or [])}.</p>" if lines else
                   f"To mark: not in {SHEET} yet (the sheet was written before this file was graded): add a "
                   "line per criterion.</p>")
    elif r.status == MARKED:
        out.append(f"Marked: {format_points(r.points or 0.0)} / {format_points(r.max_points)}.</p>")
    else:
        out.append(f"0 points, nothing to mark: {_e(r.detail)}.</p>")
    if q.carries:
        out.append(f'<p class="note">Judge it on their own figures (error carried forward): '
                   f'{_e(", ".join(q.carries))}, as they answered them below.</p>')
    out.append('<div class="pair"><div>')
    out.append(f"<h3>Their answer</h3><pre>{_text(r.text) if r.text else '(nothing written)'}</pre>")
    out.append("<h3>Their autograded answers</h3><table><thead><tr><th scope=\"col\">question</th>"
               "<th scope=\"col\">points</th><th scope=\"col\">status</th><th scope=\"col\">their value</th>"
               "</tr></thead><tbody>")
    for other in counted:
        if other.question in questions:
            continue
        points = "–" if other.points is None else format_points(other.points)
        out.append(f"<tr><td>{_e(other.question)}</td><td class=\"n\">{points} / {format_points(other.max_points)}"
                   f"</td><td>{_e(other.status.replace('_', ' '))}</td><td><code>{_e(other.shown)}</code></td></tr>")
    out.append("</tbody></table></div><div><h3>Rubric</h3>")
    marks = {c[0]: c for c in r.criteria}
    for c in q.criteria:
        out.append(f"<p><strong>{_e(c.name)}</strong> · {_e(c.prompt.rstrip(':'))} (max "
                   f"{format_points(c.max_points)}): {_e(c.asks)}</p><ul>")
        out += [f"<li>level {n} ({format_points(level.points)} point{'s' * (level.points != 1)}): "
                f"{_e(level.words)}</li>" for n, level in enumerate(c.levels)]
        out.append("</ul>")
        if c.name in marks:
            _, points, most, comment = marks[c.name]
            out.append(f'<p class="note">Marked {format_points(points)} / {format_points(most)}'
                       + (f": {_e(comment)}" if comment else "") + "</p>")
    out.append("</div></div>")
    out.append(f'<nav class="steps" aria-label="Learners"><a href="#learner-{max(index - 1, 1)}">previous</a>'
               f'<a href="#learner-{index + 1}">next</a></nav></section>')
    return "".join(out)


def summary(rows: list[Row], folder) -> str:
    """The run's line about written work: how many answers wait for marks, and where to mark them."""
    waiting = to_mark(rows)
    marked = sum(1 for r in rows if r.status == MARKED)
    if not waiting and not marked:
        return ""
    line = f"written answers: {marked} marked, {waiting} to mark"
    if waiting and folder is not None:
        lessons = sorted({r.lesson for r in rows if r.status == TO_MARK})
        pages = ", ".join(display_name(Path(folder) / lesson / PAGE) for lesson in lessons)
        line += f" (mark them on {pages}: fill in the {SHEET} beside it, and grade again)"
    return line


# --------------------------------------------------------------------------
# The class report's part (embedlab.grading.report): marks per criterion, and errors carried forward


def report_html(lesson: str, counted: list[Row]) -> str:
    """The report's lines on a lesson's written answers (the spread of the marks per criterion, how many
    wait for marks) and its answers judged on the learner's own earlier figures; "" when it has neither."""
    from embedlab.grading.carried import count

    out = []
    for name, q in written_questions(lesson).items():
        mine = [r for r in counted if r.question == name]
        marked = [r for r in mine if r.status == MARKED]
        waiting = sum(r.status == TO_MARK for r in mine)
        blank = len(mine) - len(marked) - waiting
        out.append(f"<h3>{_e(name)}: written, marked by hand</h3><p>{len(marked)} marked, {waiting} to mark, "
                   f"{blank} with nothing of their own written (0).</p>")
        if not marked:
            continue
        out.append(f'<table><caption>{_e(name)}: marks per criterion ({len(marked)} marked)</caption><thead><tr>'
                   '<th scope="col">criterion</th><th scope="col">max</th><th scope="col">mean</th>'
                   '<th scope="col">learners at each level (points: count)</th></tr></thead><tbody>')
        for c in q.criteria:
            got = [pts for r in marked for crit, pts, _, _ in r.criteria if crit == c.name]
            spread = ", ".join(f"{format_points(level.points)}: {sum(abs(g - level.points) < 1e-9 for g in got)}"
                               for level in c.levels)
            between = sum(all(abs(g - level.points) >= 1e-9 for level in c.levels) for g in got)
            if between:
                spread += f", between levels: {between}"
            mean = f"{sum(got) / len(got):.2f}" if got else "–"
            out.append(f'<tr><td>{_e(c.name)}</td><td class="n">{format_points(c.max_points)}</td>'
                       f'<td class="n">{mean}</td><td>{_e(spread)}</td></tr>')
        out.append("</tbody></table>")
    carried = count(counted)
    if carried:
        out.append("<h3>Error carried forward</h3><p>Answers that earned their points on the learner's own "
                   "earlier figures, themselves off: " + ", ".join(
                       f"{_e(q)} {n}" for q, n in sorted(carried.items())) + f" ({sum(carried.values())} in all).</p>")
    return "".join(out)
