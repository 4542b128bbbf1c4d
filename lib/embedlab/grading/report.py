"""The class report (embedlab-grade --report report.html): one self-contained HTML page for the
instructor, from the rows a run graded (and, in class mode, the totals).

* Per lesson and question: the score spread (full, partial, zero points; the mean), how many
  rows got each status, and the most frequent diagnosed mistakes with their counts. A mistake is
  the hint the grader wrote in the row's `detail`, grouped by `mistake_key`: numbers, quoted code
  and text, and the inputs a function hint quotes are taken out, the hint's words kept, so the
  same hint given with each learner's own numbers counts as one mistake (one of its texts shown).
* The time-outs, errors and crashes, and the files set aside for review, with the reason.
* A line per learner: points per lesson, the total, anything set aside.
* A figure per lesson (share correct per question; the distribution of learners' points).
* Work shared between learners on one variant (`shared_work`): identical answer code once names
  and formatting are normalised (`normalised_code`), or an identical wrong value. Flagged for
  review, never a penalty: the page says it is not proof.

Every text that comes from a submission or a file name is escaped (html.escape of `printable`);
no expected value is written (hints never hold one, a wrong value is shown as a fingerprint
only). The page needs nothing from outside: inline CSS, figures as PNG data URIs, no script.
Written atomically (text.atomic_output); an existing report is replaced only with --force.
"""

from __future__ import annotations

import ast
import base64
import functools
import html
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

from embedlab.grading.code import EXERCISES, MARKER, SELF_STUDY, CLASS, given_code, own_part, own_statements
from embedlab.grading.judge import Row
from embedlab.grading.manual import report_html
from embedlab.grading.keys import LessonKeys
from embedlab.grading.lessons import questions_for
from embedlab.grading.results import totals, weighted_totals
from embedlab.grading.status import (
    CORRECT,
    CRASHED,
    ERROR,
    GRADED,
    INCORRECT,
    MEMORY,
    NOT_GRADED,
    REVIEW,
    STATUSES,
    TIMEOUT,
    UNREADABLE,
    WRONG_LESSON,
    format_points,
)
from embedlab.grading.text import atomic_output, display_name, printable

FAILED = (TIMEOUT, ERROR, CRASHED, MEMORY)  # the run of the file failed (listed with their detail)
SET_ASIDE = tuple(REVIEW) + (UNREADABLE, WRONG_LESSON, NOT_GRADED)  # not judged: for the instructor to look at
TOP_MISTAKES = 5  # mistakes listed per question

# Shared code is flagged only when there is enough of it that two learners writing it alike by chance
# is unlikely: CODE_NODES nodes of the learner's own statements' syntax tree (imports, lines that only
# display, the exercise's given lines, operators and load/store markers not counted). `n = a * b` is 5,
# `n_params = len(words) * len(features)` 9, a one-line cosine function 21, the lesson-01 table built
# in one comprehension 20: the one- and two-line formulas the lessons teach, right or with the usual
# slip, stay under it (a short wrong formula shared is caught by its value instead). Never flagged
# either: the course's own solution (solutions/), normalised the same way.
CODE_NODES = 30
COMMON_SHARE = 0.5  # a wrong value more than half the learners of a variant gave (4 or more judged) is
#                     the class's common mistake on that variant, not work shared


def check_report_path(path: Path, force: bool) -> str:
    """Why --report must not be written at `path` ("" if it may): an existing file is replaced only
    with --force (an earlier report is never lost by accident)."""
    if path.exists() and not path.is_dir() and not force:
        return (f"--report {display_name(path)} exists: give --force to replace it, "
                "or another path (an earlier report is never overwritten by accident)")
    return ""


# --------------------------------------------------------------------------
# Mistakes: hints grouped by what they say, not by the numbers they quote

_NUMBER = re.compile(r"(?<![A-Za-z_\d])[-+−]?(?:\d{1,3}(?:,\d{3})+|\d[\d_]*)(?:\.\d+)?(?:[eE][-+]?\d+)?(?:\s*%)?"
                     r"|(?<![A-Za-z_\d])\.\d+")
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|“[^”\n]*”|‘[^’\n]*’")
_BACKTICK = re.compile(r"`([^`\n]*)`")
_GROUP = re.compile(r"[(\[{]([^()\[\]{}]*)[)\]}]")
_WORD = re.compile(r"[A-Za-z]{3,}")


def mistake_key(detail: str) -> str:
    """The words of a hint, what groups it with the same hint given to other learners: quoted code
    (but a plain name) and quoted text become …, numbers #, a bracketed group with fewer than two
    words (a shape, a call's inputs, a list of rows) …, a leading `on input N of M,` goes, spacing,
    case and a plural s are made alike."""
    text = printable(str(detail))
    text = re.sub(r"^\s*on input \S+ of \S+,\s*", "", text)
    text = _BACKTICK.sub(lambda m: m.group(0) if m.group(1).isidentifier() else "`…`", text)
    text = _QUOTED.sub("…", text)
    text = _NUMBER.sub("#", text)
    text = re.sub(r"#(?:\s*(?:[×x*·/:,.-]|and|or|to)\s*#)+", "#", text)
    for _ in range(8):  # innermost groups first
        new = _GROUP.sub(lambda m: m.group(0) if len(_WORD.findall(m.group(1))) >= 2 else "(…)", text)
        if new == text:
            break
        text = new.replace("(…)", "\x00")  # a collapsed group is no longer a group: the next pass sees the outer
    text = text.replace("\x00", "(…)")
    words = []
    for word in text.lower().split():
        stem, tail = re.fullmatch(r"(.*?)([^\w]*)", word).groups()
        if len(stem) > 3 and stem.endswith("ies"):
            stem = stem[:-3] + "y"
        elif len(stem) > 3 and stem.endswith("s") and not stem.endswith("ss"):
            stem = stem[:-1]
        words.append(stem + tail)
    return " ".join(words)


def mistakes(rows: list[Row]) -> list[tuple[int, str, int]]:
    """(how many, one of its texts, how many different texts) per mistake of these incorrect rows, most
    frequent first; the text shown is the group's most frequent (the shortest of a tie); a row without
    a hint is '(no hint)'."""
    groups: dict[str, dict[str, int]] = {}
    for row in rows:
        key = mistake_key(row.detail) if row.detail else ""
        texts = groups.setdefault(key, {})
        texts[row.detail] = texts.get(row.detail, 0) + 1
    out = []
    for key, texts in groups.items():
        shown = min(texts, key=lambda t: (-texts[t], len(t), t)) or "(no hint)"
        out.append((sum(texts.values()), shown, len(texts)))
    return sorted(out, key=lambda x: (-x[0], x[1]))


# --------------------------------------------------------------------------
# Answer code, normalised


_NOT_COUNTED = (ast.expr_context, ast.operator, ast.boolop, ast.cmpop, ast.unaryop, ast.Module, ast.arguments)


def _display_only(stmt: ast.stmt) -> bool:
    """A statement that only shows something (a bare value, print, display) or does nothing."""
    if isinstance(stmt, ast.Pass):
        return True
    if not isinstance(stmt, ast.Expr):
        return False
    value = stmt.value
    if isinstance(value, (ast.Constant, ast.Name, ast.Attribute, ast.Subscript)):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("print", "display")


@functools.lru_cache(maxsize=None)
def _given_lines(lesson: str, question: str, mode: str) -> tuple:
    """The lines the exercise gives above a question's answer, as handed out in `mode`
    (code.given_code: a class handout's are its own)."""
    try:
        above, own = given_code(lesson, mode).get(question, ((), ()))
    except Exception:  # noqa: BLE001 - no exercise to read: nothing is given
        return ()
    return tuple(above) + tuple(own)


def _solution_tree(lesson: str, question: str):
    """The course's own answer cell of a question (its marks left out) as a syntax tree, or None."""
    try:
        cells = json.loads((EXERCISES.parent / "solutions" / f"{lesson}.ipynb").read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    code = ["".join(c.get("source", "")) if isinstance(c.get("source"), list) else str(c.get("source", ""))
            for c in cells if isinstance(c, dict) and c.get("cell_type") == "code"]
    for i, source in enumerate(code):
        if re.fullmatch(rf"""\s*ex\.check\(\s*["']{re.escape(question)}["']\s*\)\s*""", source) and i > 0:
            answer = re.sub(r"^\s*# (?:BEGIN|END) SOLUTION\s*$", "", code[i - 1], flags=re.M)
            try:
                return ast.parse(answer)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return None
    return None


@functools.lru_cache(maxsize=None)
def _solution_statements(lesson: str, question: str) -> tuple:
    """(the statements of the course's solution of a question, as syntax (ast.dump), {a function it
    defines: the statements of its body}): what a learner who writes the solution writes, left out of
    what the report compares (the solution's own form never flags anyone)."""
    tree = _solution_tree(lesson, question) if lesson else None
    if tree is None:
        return frozenset(), {}
    bodies = {node.name: frozenset(ast.dump(b) for b in node.body) for node in tree.body
              if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return frozenset(ast.dump(node) for node in tree.body), bodies


def _without_solution(body: list, lesson: str, question: str) -> list:
    """`body` without the statements the course's solution holds as they are (and, in a function the
    solution defines, without the solution's statements of its body)."""
    whole, bodies = _solution_statements(lesson, question)
    out = []
    for stmt in body:
        dump = ast.dump(stmt)
        if dump in whole:
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name in bodies:
            kept = [b for b in stmt.body if ast.dump(b) not in bodies[stmt.name]]
            if not kept:
                continue
            stmt.body = kept
        out.append(stmt)
    return out


def normalised_code(source: str | None, lesson: str = "", question: str = "",
                    keep=frozenset(), mode: str = SELF_STUDY, solution: bool = False) -> tuple[str, int]:
    """(the learner's own code of an answer cell, normalised; its size in syntax-tree nodes), or
    ("", 0) when there is none or it does not parse. The own code: what follows `# YOUR CODE HERE`
    if the cell still holds it, without imports, the statements the exercise gives (as handed out
    in `mode`, code.own_statements) and lines that only display; with `solution`, also without the
    statements the course's solution holds as they are (`_without_solution`). Normalised: every
    name the code assigns (variables, arguments, loop and comprehension names) renamed v0, v1, … in
    order of appearance, except the names in `keep` (the questions' answers); the names it only
    reads (the parameters, numpy, the course's functions) kept; comments, docstrings and formatting
    gone (ast.unparse)."""
    if not isinstance(source, str) or not source.strip():
        return "", 0
    given = _given_lines(lesson, question, mode) if lesson else ()
    statements = None
    for text in (own_part(source), source):  # the marker may sit inside a function the exercise gives
        statements = own_statements(text, given, by_syntax=True)
        if statements is not None:
            break
    if statements is None:
        return "", 0
    try:
        body = [stmt for stmt in statements if not isinstance(stmt, (ast.Import, ast.ImportFrom))
                and not _display_only(stmt)]
        if solution and lesson:
            body = _without_solution(body, lesson, question)
    except (ValueError, RecursionError):
        return "", 0
    module = ast.Module(body=body, type_ignores=[])
    for node in ast.walk(module):  # docstrings (a constant first in a body) go
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and len(node.body) > 1 \
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            node.body = node.body[1:]
    stored = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            stored.add(node.id)
        elif isinstance(node, ast.arg):
            stored.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stored.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            stored.add(node.name)
    names: dict[str, str] = {}

    def canonical(name: str) -> str:
        if name in keep or name not in stored:
            return name
        return names.setdefault(name, f"v{len(names)}")

    for node in ast.walk(module):
        if isinstance(node, ast.Name):
            node.id = canonical(node.id)
        elif isinstance(node, ast.arg):
            node.arg = canonical(node.arg)
            node.annotation = None
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            node.name = canonical(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            node.name = canonical(node.name)
    size = sum(1 for node in ast.walk(module) if not isinstance(node, _NOT_COUNTED))
    try:
        return ast.unparse(module), size
    except (ValueError, RecursionError):
        return "", 0


@functools.lru_cache(maxsize=None)
def _question_names(lesson: str) -> frozenset:
    try:
        return frozenset(q.name for q in questions_for(lesson))
    except ValueError:
        return frozenset()


@functools.lru_cache(maxsize=None)
def solution_code(lesson: str, question: str) -> str:
    """The course's own solution of a question (solutions/NN-slug.ipynb, the cell above its check),
    normalised as `normalised_code`; "" where there is none (the library installed without the course)."""
    try:
        cells = json.loads((EXERCISES.parent / "solutions" / f"{lesson}.ipynb").read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError, TypeError):
        return ""
    code = ["".join(c.get("source", "")) if isinstance(c.get("source"), list) else str(c.get("source", ""))
            for c in cells if isinstance(c, dict) and c.get("cell_type") == "code"]
    for i, source in enumerate(code):
        if re.fullmatch(rf"""\s*ex\.check\(\s*["']{re.escape(question)}["']\s*\)\s*""", source) and i > 0:
            answer = code[i - 1].replace("# BEGIN SOLUTION", MARKER, 1)
            answer = re.sub(r"^\s*# END SOLUTION\s*$", "", answer, flags=re.M)
            return normalised_code(answer, lesson, question, _question_names(lesson))[0]
    return ""


# --------------------------------------------------------------------------
# Work shared between learners of one variant


@dataclass
class Shared:
    """Learners of one variant whose answers to one question are the same: `kind` "code" (identical
    answer code, normalised; `evidence` is that code) or "value" (the same wrong value; `evidence`
    its fingerprint)."""
    lesson: str
    question: str
    variant: str
    kind: str
    learners: tuple
    evidence: str


def _who(row: Row) -> str:
    return row.learner or row.submission


def _variant_of(row: Row, keys) -> str | None:
    """The variant a row's learner holds ("book" without keys); None when it cannot be told."""
    if keys is None:
        return "book"
    lesson_keys = keys.get(row.lesson)
    number = lesson_keys.learners.get(row.learner) if lesson_keys and row.learner else None
    return None if number is None else str(number)


def shared_work(rows: list[Row], keys: dict[str, LessonKeys] | None = None) -> list[Shared]:
    """Answers shared between two or more learners of one variant, for review (never a penalty):

    * identical answer code, normalised (`normalised_code`), right or wrong: the learner's own
      statements, the lines the exercise gives (as handed out: a class handout's in class mode) and
      the statements of the course's own solution (which every learner may follow) left out, when
      what is left is not trivial (at least CODE_NODES nodes) and is not the solution renamed;
    * an identical wrong value on one variant (its value and the variant, never the hint it got),
      unless more than COMMON_SHARE of the variant's learners (4 or more judged) gave it.

    A learner's several files count once; files of one learner never match each other."""
    mode = SELF_STUDY if keys is None else CLASS
    code: dict = {}
    values: dict = {}
    judged: dict = {}
    for row in rows:
        if row.status not in (CORRECT, INCORRECT) or not row.question:
            continue
        variant = _variant_of(row, keys)
        if variant is None:
            continue
        who = _who(row)
        place = (row.lesson, row.question, variant)
        judged.setdefault(place, set()).add(who)
        if row.status == INCORRECT and row.answer:
            values.setdefault(place + (row.answer,), {})[who] = row
        names = _question_names(row.lesson)
        whole = normalised_code(row.source, row.lesson, row.question, names, mode)[0]
        if not whole or whole == solution_code(row.lesson, row.question):
            continue
        text, size = normalised_code(row.source, row.lesson, row.question, names, mode, solution=True)
        if not text or size < CODE_NODES:
            continue
        code.setdefault(place + (text,), set()).add(who)
    out = []
    for (lesson, question, variant, text), who in code.items():
        if len(who) >= 2:
            out.append(Shared(lesson, question, variant, "code", tuple(sorted(who)), text))
    for (lesson, question, variant, answer), found in values.items():
        if len(found) < 2:
            continue
        group = set(found)
        seen = len(judged.get((lesson, question, variant), ()))
        if seen >= 4 and len(group) > COMMON_SHARE * seen:
            continue
        out.append(Shared(lesson, question, variant, "value", tuple(sorted(group)), answer))
    return sorted(out, key=lambda s: (s.lesson, s.variant, s.learners, s.question, s.kind))


# --------------------------------------------------------------------------
# The page


def _e(text) -> str:
    """Text from outside, safe in HTML: control characters escaped (printable), then html.escape."""
    return html.escape(printable(str(text)), quote=True)


CSS = """
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1b1b; --muted: #4a4a4a; --line: #c8c8c8;
  --head: #eef1f5; --flag: #fff4d6; --link: #0b57d0; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { --bg: #121417; --fg: #e8e8e8;
  --muted: #c2c2c2; --line: #555b63; --head: #1f252c; --flag: #3a3217; --link: #8ab4f8; } }
:root[data-theme="dark"] { --bg: #121417; --fg: #e8e8e8; --muted: #c2c2c2; --line: #555b63;
  --head: #1f252c; --flag: #3a3217; --link: #8ab4f8; }
body { background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, sans-serif; margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
a { color: var(--link); }
table { border-collapse: collapse; }
.wide { overflow-x: auto; max-width: 100%; margin: 0.5rem 0 1rem; }
.wide:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
th, td { border: 1px solid var(--line); padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: var(--head); }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
.note { color: var(--muted); }
.flag { background: var(--flag); padding: 0.5rem 0.8rem; border-left: 4px solid #b58100; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; font-size: 0.9rem; }
img { max-width: 100%; height: auto; background: #ffffff; border: 1px solid var(--line); }
li { overflow-wrap: anywhere; }
"""


def _figure(lesson: str, questions: list[tuple[str, int, int]], scores: list[float], best: float) -> str:
    """A lesson's figure as an <img> with a PNG data URI: the share correct per question (bars) and the
    distribution of learners' points (histogram)."""
    from matplotlib.figure import Figure  # no pyplot: no backend chosen, nothing global changed

    fig = Figure(figsize=(9, 0.35 * max(len(questions), 4) + 1.2), dpi=80, layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=(3, 2))
    names = [q for q, _, _ in questions][::-1]
    shares = [100 * right_ / judged if judged else 0 for _, right_, judged in questions][::-1]
    left.barh(names, shares, color="#2a6fbb")
    left.set_xlim(0, 100)
    left.set_xlabel("% of judged answers correct")
    left.set_title("Share correct per question")
    if scores:
        if float(best).is_integer() and best <= 24:  # a bar per whole point, centred on it
            bins = [i - 0.5 for i in range(int(best) + 2)]
        else:
            bins = [best * i / 12 for i in range(13)]
        right.hist(scores, bins=bins, color="#7a4fa3", edgecolor="white")
    right.set_xlabel(f"points (of {format_points(best)})")
    right.set_ylabel("learners")
    right.set_title("Points per learner")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", facecolor="white")
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    worst = min(questions, key=lambda q: q[1] / q[2] if q[2] else 1.0, default=None)
    alt = (f"{lesson}: share of judged answers correct per question"
           + (f" (lowest: {worst[0]}, {worst[1]} of {worst[2]})" if worst and worst[2] else "")
           + f", and a histogram of {len(scores)} learners' points out of {format_points(best)}; "
             "the tables below give the same numbers")
    return f'<img src="data:image/png;base64,{data}" alt="{_e(alt)}">'


def _table(caption: str, head: list[str], body: list[list[str]], numeric=()) -> str:
    """A table; `body` cells are HTML already escaped; columns in `numeric` right-aligned."""
    # a region the keyboard can reach: a wide table scrolls sideways on a phone
    out = [f'<div class="wide" role="region" tabindex="0" aria-label="{_e(caption)}">'
           f"<table><caption>{_e(caption)}</caption><thead><tr>"]
    out += [f'<th scope="col">{_e(h)}</th>' for h in head]
    out.append("</tr></thead><tbody>")
    for cells in body:
        out.append("<tr>" + "".join(f'<td class="n">{c}</td>' if i in numeric else f"<td>{c}</td>"
                                    for i, c in enumerate(cells)) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _counted(rows: list[Row], keys, how: dict) -> tuple[list[Row], list]:
    """(the rows whose points count: each learner's counted file per lesson with keys, every graded
    file without; the totals, [] without keys)."""
    if keys is None:
        return [r for r in rows if r.points is not None and r.status not in SET_ASIDE], []
    found = totals(rows, keys, **how)
    counted = {(t.learner, t.lesson, t.counted) for t in found if t.status == GRADED}
    return [r for r in rows if (r.learner, r.lesson, r.submission) in counted], found


def render(rows: list[Row], keys: dict[str, LessonKeys] | None = None, how: dict | None = None,
           figures: bool = True) -> str:
    """The class report as one HTML page (see the module's docstring)."""
    how = how or {}
    counted, found = _counted(rows, keys, how)
    lessons = sorted({r.lesson for r in rows if r.lesson})
    learners = sorted({_who(r) for r in counted} | {t.learner for t in found})
    files = len({r.submission for r in rows})
    parts = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             "<title>Class report: embedlab-grade</title>", f"<style>{CSS}</style></head><body><main>",
             "<h1>Class report</h1>",
             f'<p>{files} file(s) graded, {len(learners)} learner(s), lesson(s) {_e(", ".join(lessons) or "none")}. '
             + ("Scores count each learner's file that counts in the totals (class mode, the "
                f"{_e(how.get('rule', 'best'))} rule); " if keys is not None else "Scores count every graded file; ")
             + "statuses count every file. No expected value appears on this page.</p>",
             '<nav aria-label="Sections"><ul>']
    parts += [f'<li><a href="#l-{_e(lesson)}">{_e(lesson)}</a></li>' for lesson in lessons]
    parts += ['<li><a href="#learners">Learners</a></li>', '<li><a href="#shared">Work shared on one variant</a></li>',
              "</ul></nav>"]
    for lesson in lessons:
        parts.append(_lesson_section(lesson, [r for r in rows if r.lesson == lesson],
                                     [r for r in counted if r.lesson == lesson], figures))
    other = [r for r in rows if not r.lesson]
    if other:
        parts.append("<section><h2>Files of no lesson</h2>" + _set_aside(other) + "</section>")
    parts.append(_learner_section(rows, counted, found, lessons, keys, how.get("policy")))
    parts.append(_shared_section(shared_work(rows, keys), keys))
    parts.append("</main></body></html>\n")
    return "".join(parts)


def _lesson_section(lesson: str, rows: list[Row], counted: list[Row], figures: bool) -> str:
    try:
        order = [q.name for q in questions_for(lesson)]
    except ValueError:
        order = []
    order += sorted({r.question for r in rows if r.question} - set(order))
    best = {r.question: r.max_points for r in rows if r.question}
    statuses = [s for s in STATUSES if any(r.status == s for r in rows if r.question)]
    out = [f'<section id="l-{_e(lesson)}"><h2>{_e(lesson)}</h2>']
    body, bars = [], []
    for q in order:
        mine = [r for r in counted if r.question == q and r.points is not None]
        if q not in best:
            continue
        full = sum(r.points >= r.max_points > 0 for r in mine)
        zero = sum(r.points == 0 for r in mine)
        right = sum(r.status == CORRECT for r in mine)
        mean = sum(r.points for r in mine) / len(mine) if mine else None
        bars.append((q, right, len(mine)))
        every = [r for r in rows if r.question == q]
        body.append([_e(q), format_points(best[q]), str(len(mine)), str(full), str(len(mine) - full - zero),
                     str(zero), "–" if mean is None else f"{mean:.2f}"]
                    + [str(sum(r.status == s for r in every)) for s in statuses])
    per_learner: dict = {}
    for r in counted:
        if r.points is not None:
            per_learner[_who(r)] = per_learner.get(_who(r), 0.0) + r.points
    lesson_best = float(sum(best.get(q, 0) for q in order))
    if figures and bars:
        out.append(_figure(lesson, bars, list(per_learner.values()), lesson_best))
    out.append(_table(f"{lesson}: points and statuses per question",
                      ["question", "max", "scored", "full", "partial", "zero", "mean"] + statuses, body,
                      numeric=set(range(1, 7 + len(statuses)))))
    out.append(report_html(lesson, counted))  # written answers' marks per criterion; errors carried forward
    out.append("<h3>Most frequent mistakes</h3>")
    listed = False
    for q in order:
        wrong = [r for r in counted if r.question == q and r.status == INCORRECT]
        if not wrong:
            continue
        listed = True
        found = mistakes(wrong)
        out.append(f"<h4>{_e(q)}: {len(wrong)} wrong answer(s)</h4><ul>")
        out += [f"<li><strong>{count}×</strong> {_e(text)}"
                + (f' <span class="note">(one of {texts} wordings: each quotes its own numbers)</span>'
                   if texts > 1 else "") + "</li>"
                for count, text, texts in found[:TOP_MISTAKES]]
        if len(found) > TOP_MISTAKES:
            rest = sum(c for c, _, _ in found[TOP_MISTAKES:])
            out.append(f"<li>… {len(found) - TOP_MISTAKES} other mistake(s), {rest} answer(s)</li>")
        out.append("</ul>")
    if not listed:
        out.append("<p>No wrong answer.</p>")
    failed = [r for r in rows if r.status in FAILED]
    out.append("<h3>Time-outs, errors and crashes</h3>")
    out.append(_per_file(failed) if failed else "<p>None.</p>")
    aside = [r for r in rows if r.status in SET_ASIDE]
    out.append("<h3>Files set aside for review</h3>")
    out.append(_set_aside(aside) if aside else "<p>None.</p>")
    out.append("</section>")
    return "".join(out)


def _per_file(rows: list[Row]) -> str:
    """One table row per file and status: its learner, the questions, the detail (one of them)."""
    groups: dict = {}
    for r in rows:
        groups.setdefault((r.submission, r.learner, r.status), []).append(r)
    body = [[_e(label), _e(learner or "–"), _e(status),
             _e(", ".join(r.question for r in group if r.question) or "–"), _e(group[0].detail)]
            for (label, learner, status), group in sorted(groups.items())]
    return _table("What stopped these answers", ["file", "learner", "status", "questions", "detail"], body)


def _set_aside(rows: list[Row]) -> str:
    groups: dict = {}
    for r in rows:
        groups.setdefault((r.submission, r.learner, r.status), r.detail)
    body = [[_e(label), _e(learner or "–"), _e(status), _e(detail)]
            for (label, learner, status), detail in sorted(groups.items())]
    return _table("Not judged: the reason", ["file", "learner", "status", "reason"], body)


def _learner_section(rows: list[Row], counted: list[Row], found: list, lessons: list[str], keys, policy=None) -> str:
    """A line per learner: each lesson's points (the final ones, with --policy: the same number as the
    totals and the gradebook), the total, the weighted total when the policy gives weights."""
    out = ['<section id="learners"><h2>Learners</h2>']
    weighted = weighted_totals(found, policy) if keys is not None else None
    if policy is not None and keys is not None:
        out.append("<p>Points are final: the course policy's adjustments and late penalties applied "
                   "(--totals lists the raw points beside them).</p>")
    if keys is not None:
        cells: dict = {}
        for t in found:
            if t.final is not None:
                cells[t.learner, t.lesson] = (t.final, t.max_points, "")
            else:
                cells[t.learner, t.lesson] = (None, t.max_points, t.status + (f": {t.counted}" if t.counted else ""))
        names = sorted({t.learner for t in found})
        shown = sorted({t.lesson for t in found}) or lessons
    else:
        cells = {}
        for r in counted:
            got = cells.get((_who(r), r.lesson), (0.0, 0.0, ""))
            cells[_who(r), r.lesson] = (got[0] + r.points, got[1] + r.max_points, "")
        for r in rows:
            if r.status in SET_ASIDE and (_who(r), r.lesson) not in cells:
                cells[_who(r), r.lesson] = (None, 0.0, f"{r.status}: {r.submission}")
        names = sorted({who for who, _ in cells})
        shown = lessons
    body = []
    for name in names:
        total, best, aside = 0.0, 0.0, []
        line = [_e(name)]
        for lesson in shown:
            points, most, why = cells.get((name, lesson), (None, 0.0, "—"))
            best += most
            if points is None:
                line.append(_e(why.split(":")[0] if why else "—"))
                if why and why != "—" and not why.startswith(("missing", "not_graded")):
                    aside.append(f"{lesson}: {why}")
            else:
                total += points
                line.append(f"{format_points(points)} / {format_points(most)}")
        line += [f"{format_points(total)} / {format_points(best)}"]
        if weighted is not None:
            share = weighted.get(name)
            line.append("–" if share is None else f"{format_points(share)} %")
        line.append(_e("; ".join(aside)) or "–")
        body.append(line)
    head = ["learner"] + shown + ["total"] + (["weighted total"] if weighted is not None else []) + ["set aside"]
    out.append(_table("Points per learner and lesson", head, body,
                      numeric=set(range(1, len(shown) + 2 + (weighted is not None)))))
    out.append("</section>")
    return "".join(out)


def _shared_section(found: list[Shared], keys) -> str:
    out = ['<section id="shared"><h2>Work shared on one variant: for review</h2>',
           '<p class="flag"><strong>Not proof, and never a penalty.</strong> These learners gave the same answer '
           "on the same variant: identical answer code once names and formatting are made alike, or the same "
           "wrong value. Learners who studied together, followed the same lesson cell or made the same slip can "
           "match without copying: talk with them before deciding anything. Short formulas and the course's own "
           f"solution are not flagged (code of fewer than {CODE_NODES} syntax-tree nodes, about three lines of "
           "the lessons' formulas, once the lines the exercise gives and the solution's own statements are left "
           "out), nor a wrong value more than half the judged learners of its variant gave (4 or more judged: a "
           "mistake the class makes)."
           + ("" if keys is not None else " Without --keys every learner holds the book's variant.") + "</p>"]
    if not found:
        out.append("<p>Nothing shared found.</p></section>")
        return "".join(out)
    body = []
    for s in found:
        evidence = (f"<pre>{chr(10).join(_e(line) for line in s.evidence[:600].split(chr(10)))}</pre>"
                    if s.kind == "code"
                    else f"the same wrong value (fingerprint {_e(s.evidence)})")
        body.append([_e(s.lesson), _e(s.variant), _e(s.question), _e(", ".join(s.learners)),
                     "identical code" if s.kind == "code" else "identical wrong value", evidence])
    out.append(_table("Answers shared between learners of one variant",
                      ["lesson", "variant", "question", "learners", "what", "evidence"], body))
    out.append("</section>")
    return "".join(out)


def write_report(path: Path, rows: list[Row], keys: dict[str, LessonKeys] | None = None, how: dict | None = None,
                 force: bool = False) -> None:
    """Write the class report atomically (text.atomic_output); ValueError, naming --report, if a file
    appeared at `path` since the run began and `force` is not given."""
    why = check_report_path(Path(path), force)
    if why:
        raise ValueError(why)
    page = render(rows, keys, how)
    with atomic_output(Path(path), "w", flag="--report", encoding="utf-8") as f:
        f.write(page)
