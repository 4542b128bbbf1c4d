"""Feedback handed back to each learner (embedlab-grade --feedback DIR): per learner and lesson, a
small HTML page and its plain-text twin, and the same files in the forms each LMS takes back in bulk.

What a page shows: the file that counts (class mode's totals: --best or --latest), each question's
points out of its maximum, what the grader said of a wrong answer (the hint the notebook's own check
gives, the row's `detail`), the section of the lesson to reread (each question module's REREAD, a
heading of notebooks/NN-slug.ipynb), the total, and a status that is not a grade (missing, set aside
for review, not graded, a time-out or an error) in plain words. With a policy (embedlab-grade
--policy), each adjustment and late penalty of that learner and lesson, in the policy's own words.

What it never shows: an expected value, the key, another variant's parameters or answers, another
learner's rows, file names or ids, the answer cells' source or a value's fingerprint (the class
report's evidence). A page is built from that learner's counted file's rows only; the detail of a
status about whose file it is (identity_mismatch, wrong_parameters, unknown_submitter, needs_keys),
which may name another learner, is replaced by plain words; and a hint that writes a value of the
lesson's keys, the learner's variant or another's (values.written_in: any of its written forms), is
withheld, so a hint mechanism that one day quoted the key could not hand it out. Every text from a submission is escaped
(html.escape of text.printable: control, format and direction characters as \\uNNNN) and cut.

Where the files go, under DIR (nothing outside it is written; the folder must not be, or hold, or sit
in a submissions folder):

    learners/<learner>/<lesson>-feedback.html and .txt   one folder per learner, for any use (e-mail,
                                                         a shared drive); a learner who handed in
                                                         nothing gets a page saying so
    canvas/<lesson>-feedback.zip     --layout canvas: for Canvas's "Re-upload submissions"
    moodle/<lesson>-feedback.zip     --layout moodle: for Moodle's "Upload multiple feedback files
                                     in a zip"

Canvas attaches a re-uploaded file as a comment to the submission whose user id and attachment id
its name gives (lms.canvas_reupload_ids), so each file keeps the download's own prefix,
``<name>[_LATE]_<user id>_<attachment id>_``, of the file that counts; a learner who handed in
nothing has no attachment and gets no file in the Canvas zip (the run's summary lists them). Moodle
reads the participant id from the download's folder name (lms.moodle_feedback_id) and takes feedback
for any participant: a learner without a file gets one named from the roster's Moodle id of that
lesson (moodle_id:NN-slug, else moodle_id). Every name written is read back with the LMS's own rule
before it is written.

Files are written atomically (text.atomic_output); an existing file is replaced only with --force,
and a submission never.
"""

from __future__ import annotations

import functools
import html
import io
import os
import re
import unicodedata
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from embedlab.grading.judge import Row
from embedlab.grading.keys import LessonKeys
from embedlab.grading.lessons import load_key, questions_for, reread_where
from embedlab.grading.lms import canvas_reupload_ids, moodle_feedback_id, parse_download
from embedlab.grading.results import Total, totals
from embedlab.grading.status import (
    CORRECT,
    CRASHED,
    ERROR,
    GRADED,
    IDENTITY_MISMATCH,
    INCORRECT,
    MEMORY,
    MISSING_WORK,
    NEEDS_KEYS,
    NOT_ATTEMPTED,
    NOT_GRADED,
    NOT_GRADED_YET,
    TIMEOUT,
    TO_REVIEW,
    UNKNOWN_SUBMITTER,
    UNREADABLE,
    WRONG_LESSON,
    WRONG_PARAMETERS,
    MARKED,
    TO_MARK,
    format_points,
)
from embedlab.grading.text import atomic_output, cut, display_name, printable
from embedlab.grading.variants import SAFE_LEARNER
from embedlab.grading.values import data_to_array, written_forms

LEARNERS, CANVAS, MOODLE = "learners", "canvas", "moodle"
LESSON_NAME = re.compile(r"[0-9]{2}-[a-z0-9-]+")
DETAIL_LIMIT = 1000  # characters of a hint or an error shown; the rest is cut
WITHHELD = ("(the grader's note on this answer is withheld: it would have shown an expected value; "
            "ask your instructor)")

# Each status of a question, in plain words (the learner's view of embedlab.grading.status).
QUESTION_WORDS = {
    CORRECT: "correct",
    INCORRECT: "not right yet",
    NOT_ATTEMPTED: "not attempted: the answer cell still holds the exercise's placeholder",
    ERROR: "your code raised an error before this answer could be read",
    TIMEOUT: "the notebook ran past the time limit: a cell was stopped (the grader says which)",
    CRASHED: "the notebook's kernel stopped (crashed) before this answer could be read",
    MEMORY: "the notebook ran out of memory before this answer could be read",
    UNREADABLE: "the file could not be read as a notebook",
    WRONG_LESSON: "the file is not this lesson's exercise",
    IDENTITY_MISMATCH: "set aside: the notebook names another learner (or none), so your instructor will look at it",
    NEEDS_KEYS: "set aside: this class notebook is graded against your own variant, which this run did not have",
    WRONG_PARAMETERS: "set aside: its parameters cell does not hold your variant's values, so your instructor "
                      "will look at it",
    UNKNOWN_SUBMITTER: "set aside: the file's name did not say clearly who handed it in",
    NOT_GRADED: "not graded yet: the grading run stopped before it (not a zero)",
    TO_MARK: "written: your instructor has not marked it yet (its points come when they do)",
    MARKED: "marked by your instructor against the rubric, criterion by criterion",
}
# A file set aside whose total the instructor has since set (the policy): no longer waiting on them.
DECIDED = "set aside for review, and your instructor has decided: see their decision above"  # under the total
# A lesson the grader gave no points to (set aside, missing, not graded) whose total the instructor set.
UNGRADED_BY = {TO_REVIEW: "your file was set aside for review, not graded (not a zero)",
               MISSING_WORK: "no file of yours was found", NOT_GRADED_YET: "the grader has not graded your file"}
# A detail shown only for these (the learner's own answer or run); the others get their words only.
SHOWN_DETAIL = (INCORRECT, NOT_ATTEMPTED, ERROR, TIMEOUT, CRASHED, MEMORY, UNREADABLE, WRONG_LESSON)
# A right answer's detail is shown only when it says it was judged on the learner's own earlier figure.
CARRIED_WORDS = "judged on your own figure for "
# A right answer's note that the cell which left it was stopped at the time limit (judge.at_the_limit).
STOPPED_WORDS = "cell limit and was stopped"
# A learner's lesson as a whole (the totals' status), in plain words.
TOTAL_WORDS = {
    GRADED: "graded",
    MISSING_WORK: "missing: no file of yours for this lesson was found in the class's submissions. If you did "
                  "hand one in, tell your instructor",
    NOT_GRADED_YET: "not graded yet: the grading run stopped before your file was graded (not a zero)",
    TO_REVIEW: "set aside for review: your instructor will look at your file before it gets points (not a zero)",
}


@dataclass
class Page:
    """One learner's feedback on one lesson: the HTML page, its text twin, and the file it is about."""
    learner: str
    lesson: str
    status: str  # the totals' status: graded, missing, not_graded, review
    html: str
    text: str
    counted: str = ""  # the submission's label whose rows the page shows ("" when none)


@dataclass
class Written:
    """What write_feedback wrote: every file, and per LMS the learners it could not give a file, why."""
    files: list = field(default_factory=list)
    pages: int = 0
    learners: int = 0
    zips: dict = field(default_factory=dict)  # path -> number of learners in it
    without: list = field(default_factory=list)  # (lms, lesson, learner, why)

    def summary(self, folder: Path) -> str:
        lines = [f"feedback: {self.pages} page(s) (HTML and text) for {self.learners} learner(s) in "
                 f"{display_name(Path(folder) / LEARNERS)}"]
        for path, count in self.zips.items():
            lines.append(f"  {display_name(path)}: {count} learner(s)")
        if self.without:
            lines.append(f"{len(self.without)} learner(s) get no file in an LMS zip (their page is in "
                         f"{LEARNERS}/):")
            lines += [f"  {lms} {lesson}: {learner}: {why}" for lms, lesson, learner, why in self.without[:40]]
            if len(self.without) > 40:
                lines.append(f"  … and {len(self.without) - 40} more")
        return "\n".join(lines)


# --------------------------------------------------------------------------
# Refusing a folder before anything is graded


def check_feedback_dir(folder: Path, paths, submissions, force: bool, lesson: str | None = None) -> str:
    """Why --feedback must not write to `folder` ("" if it may): it is a file; it is, or sits inside, a
    submissions folder given on the command line, or holds a submission found (a submission is never
    overwritten, --force or not); or, without `force`, it already holds feedback: of `lesson` when the
    run names its lesson (--lesson: other lessons' feedback, from earlier weeks, stays and is no
    obstacle), of any lesson when it does not."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        return f"--feedback {display_name(folder)} is a file, not a folder"
    here = os.path.realpath(folder)
    for arg in paths:
        if os.path.isdir(arg):
            top = os.path.realpath(arg)
            if here == top or here.startswith(top.rstrip("/") + "/"):
                return (f"--feedback {display_name(folder)} is inside the submissions folder {display_name(arg)}: "
                        "give a folder outside it (the submissions are never written to)")
    for sub in submissions:
        for path in {os.path.realpath(sub.path)} | ({sub.real} if sub.real else set()):
            if path == here or path.startswith(here.rstrip("/") + "/"):
                return (f"--feedback {display_name(folder)} holds a submission ({sub.label}): give another folder "
                        "(a submission is never overwritten)")
    if not force and folder.is_dir():
        for part in (LEARNERS, CANVAS, MOODLE):
            for _top, _dirs, files in os.walk(folder / part):
                mine = [f for f in files if lesson is None or f.startswith(f"{lesson}-feedback.")]
                if mine:
                    what = f"feedback on {lesson}" if lesson else "feedback (give --lesson to add another lesson's)"
                    return (f"--feedback {display_name(folder)} already holds {what} ({part}/): give --force to "
                            "replace its files, or another folder (earlier feedback is never overwritten by accident)")
    return ""


# --------------------------------------------------------------------------
# What may be shown


def _key_values(keys, learner: str, lesson: str) -> list:
    """The expected values no page may write: every variant's key of the lesson (the learner's own, and
    the other variants', which are other learners' answers); the book's without keys. Values too common
    to tell anything (values.written_forms: a count under 100, a yes/no, a word) and floats of fewer
    than four significant figures (0.5, 1.25: a hint's own ratios) are left out."""
    lesson_keys = (keys or {}).get(lesson)
    if lesson_keys is not None:
        key = [value for variant in lesson_keys.keys.values() for value in variant.key.values()]
    else:
        key = list(load_key(lesson).values())
    out = []
    for value in key:
        if isinstance(value, dict) and "hex" in value:
            try:
                arr = data_to_array(value)
            except (ValueError, KeyError, TypeError):
                continue
            out.append(arr.astype(np.int64) if np.all(arr == np.round(arr)) else arr)
        elif isinstance(value, float) and len(f"{abs(value):.15g}".replace(".", "").strip("0").split("e")[0]) < 4:
            continue
        elif isinstance(value, (int, float)) and not isinstance(value, bool) and written_forms(value):
            out.append(value)
            if isinstance(value, int) and abs(value) >= 10**5:
                out.append(float(value))  # a whole number written as a float too: 9.8765e+08, 987654321.0
    return out


def safe_detail(detail: str, secrets: list) -> str:
    """A row's detail as a learner may see it: cut, and withheld when it writes an expected value (any
    form values.written_forms gives of one of `secrets`, as a whole token: values.written_in)."""
    text = cut(detail, DETAIL_LIMIT)
    window = str(detail)[:DETAIL_LIMIT + 64]  # a value the cut would split is found whole here
    pattern = _pattern(frozenset(form for value in secrets for form in written_forms(value)))
    if pattern is not None and pattern.search(window):
        return WITHHELD
    return text


@functools.lru_cache(maxsize=256)
def _pattern(forms: frozenset):
    """One regex finding any of `forms` as values.written_in does (not inside a longer number or word)."""
    if not forms:
        return None
    alternatives = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(?:{alternatives})(?![\w])")


def _lesson_questions(lesson: str) -> list[str]:
    try:
        return [q.name for q in questions_for(lesson)]
    except ValueError:
        return []


def _reread(lesson: str) -> dict:
    try:
        return reread_where(lesson)
    except ValueError:
        return {}


# --------------------------------------------------------------------------
# One page


@dataclass
class _Item:
    question: str
    points: float | None
    max_points: float
    status: str
    words: str
    detail: str
    reread: tuple  # (lesson, section) to reread, or () for none
    criteria: tuple = ()  # a marked written answer: (criterion, points, max points, the instructor's comment)


def _e(text) -> str:
    """Text from outside, safe in HTML: control and format characters escaped (printable), then html.escape."""
    return html.escape(printable(str(text)), quote=True)


def _file_name(label: str) -> str:
    """The name of a submission's file (never the instructor's folders)."""
    return printable(label.rsplit("/", 1)[-1])


def build_page(total: Total, rows: list[Row], keys=None, policy=None, rule: str = "best", book_url: str = "",
               handed_in: int = 0) -> Page:
    """The page of one learner's lesson: `total` its line of the totals, `rows` the rows of its counted file
    (or of the file set aside), `handed_in` how many files of theirs were found."""
    learner, lesson = total.learner, total.lesson
    secrets = _key_values(keys, learner, lesson)
    reread = _reread(lesson)
    order = _lesson_questions(lesson)
    by_question = {r.question: r for r in rows if r.question}
    items = []
    whole = len({(r.status, r.detail) for r in rows}) == 1 and rows[0].status not in (CORRECT, INCORRECT,
                                                                                      NOT_ATTEMPTED)
    if rows and total.status == GRADED and not whole:
        names = order + sorted(set(by_question) - set(order))
        for name in names:
            r = by_question.get(name)
            if r is None:
                continue
            shown = r.status in SHOWN_DETAIL or (r.status == CORRECT and (r.detail.startswith(CARRIED_WORDS)
                                                                       or STOPPED_WORDS in r.detail))
            detail = safe_detail(r.detail, secrets) if shown and r.detail else ""
            items.append(_Item(name, r.points, r.max_points, r.status, QUESTION_WORDS.get(r.status, r.status),
                               detail, reread[name] if reread.get(name, ("", ""))[1] else (),
                               tuple(r.criteria) if r.status == MARKED else ()))
    elif rows and total.status in (GRADED, TO_REVIEW):  # the file as a whole (unreadable, set aside...): one line
        r = rows[0]
        detail = safe_detail(r.detail, secrets) if r.status in SHOWN_DETAIL and r.detail else ""
        words = QUESTION_WORDS.get(r.status, r.status)
        if total.status == TO_REVIEW and getattr(total, "final", None) is not None:
            words = DECIDED  # set aside, and the instructor has since set its total
        items.append(_Item("", None, total.max_points, r.status, words, detail, ()))
    adjustments, late = _policy_lines(policy, learner, lesson)
    facts = _facts(total, rule, handed_in)
    page_html = _html(total, items, facts, adjustments, late, book_url)
    page_text = _text(total, items, facts, adjustments, late, book_url)
    return Page(learner, lesson, total.status, page_html, page_text, total.counted)


def _policy_lines(policy, learner: str, lesson: str) -> tuple[list[str], str]:
    """(each adjustment of the policy for this learner and lesson, its late penalty), in its own words."""
    if policy is None:
        return [], ""
    adjustments = [cut(str(a), DETAIL_LIMIT) for a in (policy.adjustments_for(learner, lesson) or [])]
    extension = getattr(policy, "extension_for", lambda *_: None)(learner, lesson)
    if extension:
        adjustments.insert(0, cut(extension, DETAIL_LIMIT))
    late = policy.late_for(learner, lesson)
    return adjustments, cut(str(late), DETAIL_LIMIT) if late is not None else ""


def _facts(total: Total, rule: str, handed_in: int) -> list[str]:
    out = []
    if total.counted:
        which = "the one that counts" if total.status == GRADED else "the one set aside"
        out.append(f"File: {_file_name(total.counted)}" + (f" ({which} of the {handed_in} you handed in; "
                   f"{'the best' if rule == 'best' else 'the newest'} counts)" if handed_in > 1 else ""))
        if total.late:
            out.append("The course's site marked this file late.")
    return out


def _points(points) -> str:
    return "–" if points is None else format_points(points)


def _total_line(total: Total) -> str:
    """The lesson's total: the points the gradebook gets (a policy's `final`, where it gives one), and the
    grader's own points beside them when the instructor's decisions changed them."""
    final = getattr(total, "final", None)
    if total.status == GRADED or final is not None:
        graded = total.points or 0.0
        shown = graded if final is None else final
        line = f"Total: {format_points(shown)} / {format_points(total.max_points)} points"
        if total.status != GRADED and final is not None:  # no grade of the grader's: the instructor's number
            return line + f" ({UNGRADED_BY.get(total.status, total.status)}; your instructor's decision below " \
                          "sets it)"
        if final is not None and abs(final - graded) > 1e-9:
            line += f" (the grader gave {format_points(graded)}; your instructor's decisions below make it " \
                    f"{format_points(final)})"
        return line
    return f"Total: no points yet ({format_points(total.max_points)} possible): {TOTAL_WORDS[total.status]}"


def _where(lesson: str, section: str, book_url: str) -> tuple[str, str]:
    """(HTML, text) of what to reread: the lesson's section, linked to the book's lesson page when
    --book-url gives the book's address (no address is guessed)."""
    target = f"notebooks/{lesson}.ipynb"
    text = f"lesson {lesson}, section “{section}” ({target})"
    if book_url:
        url = book_url.rstrip("/") + f"/notebooks/{lesson}.html"
        return (f'lesson <a href="{_e(url)}">{_e(lesson)}</a>, section “{_e(section)}”', text + f" {url}")
    return f"lesson {_e(lesson)}, section “{_e(section)}” (<code>{_e(target)}</code>)", text


def _html(total: Total, items: list[_Item], facts: list[str], adjustments: list[str], late: str,
          book_url: str) -> str:
    lesson, learner = total.lesson, total.learner
    out = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Feedback: {_e(lesson)}, {_e(learner)}</title><style>{CSS}</style></head><body><main>",
           f"<h1>Feedback on exercise {_e(lesson)}</h1>",
           f'<p class="who">For <strong>{_e(learner)}</strong></p>']
    out += [f"<p>{_e(fact)}</p>" for fact in facts]
    out.append(f'<p class="total">{_e(_total_line(total))}</p>')
    if adjustments or late:
        out.append("<h2>Your instructor's decisions</h2><ul>")
        out += [f"<li>{_e(a)}</li>" for a in adjustments]
        if late:
            out.append(f"<li>{_e(late)}</li>")
        out.append("</ul>")
    if items and items[0].question:
        out.append('<div class="wide" role="region" tabindex="0" aria-label="Points per question"><table>'
                   "<caption>Points per question</caption><thead><tr><th scope=\"col\">question</th>"
                   "<th scope=\"col\">points</th><th scope=\"col\">result</th></tr></thead><tbody>")
        for it in items:
            out.append(f'<tr><td><a href="#q-{_e(it.question)}">{_e(it.question)}</a></td>'
                       f'<td class="n">{_points(it.points)} / {format_points(it.max_points)}</td>'
                       f"<td>{_e(it.status.replace('_', ' '))}</td></tr>")
        out.append("</tbody></table></div><h2>Question by question</h2>")
        for it in items:
            out.append(f'<section id="q-{_e(it.question)}" class="q"><h3>{_e(it.question)}: '
                       f"{_points(it.points)} / {format_points(it.max_points)}</h3><p>{_e(it.words)}</p>")
            if it.detail and not it.criteria:
                out.append(f'<p class="hint"><strong>The grader says:</strong> {_e(it.detail)}</p>')
            if it.criteria:
                out.append('<div class="wide" role="region" tabindex="0" aria-label="Points per criterion"><table>'
                           "<caption>Your instructor's marks</caption><thead><tr><th scope=\"col\">criterion</th>"
                           "<th scope=\"col\">points</th><th scope=\"col\">comment</th></tr></thead><tbody>")
                out += [f"<tr><td>{_e(c)}</td><td class=\"n\">{format_points(pts)} / {format_points(most)}</td>"
                        f"<td>{_e(comment)}</td></tr>" for c, pts, most, comment in it.criteria]
                out.append("</tbody></table></div>")
            if it.reread and it.status not in (CORRECT, MARKED):
                out.append(f"<p><strong>Reread:</strong> {_where(*it.reread, book_url)[0]}</p>")
            out.append("</section>")
    elif items:
        it = items[0]
        out.append(f"<p>{_e(it.words)}</p>")
        if it.detail:
            out.append(f'<p class="hint"><strong>The grader says:</strong> {_e(it.detail)}</p>')
    out.append(f'<p class="note">{_e(NEVER_SHOWN)}</p></main></body></html>\n')
    return "".join(out)


NEVER_SHOWN = ("This page shows your points and the grader's hints: what is off about an answer, not the "
               "answer. It never shows an expected value, and nobody else's work.")


def _text(total: Total, items: list[_Item], facts: list[str], adjustments: list[str], late: str,
          book_url: str) -> str:
    p = printable
    lines = [f"Feedback on exercise {p(total.lesson)}", f"For {p(total.learner)}", ""]
    lines += [p(f) for f in facts]
    lines.append(p(_total_line(total)))
    if adjustments or late:
        lines += ["", "Your instructor's decisions:"] + [f"  - {p(a)}" for a in adjustments]
        if late:
            lines.append(f"  - {p(late)}")
    for it in items:
        lines.append("")
        if it.question:
            lines.append(f"{p(it.question)}: {_points(it.points)} / {format_points(it.max_points)}, {p(it.words)}")
        else:
            lines.append(p(it.words))
        if it.detail and not it.criteria:
            lines.append(f"  The grader says: {p(it.detail)}")
        for c, pts, most, comment in it.criteria:
            lines.append(f"  {p(c)}: {format_points(pts)} / {format_points(most)}"
                         + (f", your instructor says: {p(comment)}" if comment else ""))
        if it.question and it.reread and it.status not in (CORRECT, MARKED):
            lines.append(f"  Reread: {p(_where(*it.reread, book_url)[1])}")
    lines += ["", NEVER_SHOWN, ""]
    return "\n".join(lines)


CSS = """
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1b1b; --muted: #4a4a4a; --line: #c8c8c8;
  --head: #eef1f5; --hint: #fff4d6; --link: #0b57d0; }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { --bg: #121417; --fg: #e8e8e8;
  --muted: #c2c2c2; --line: #555b63; --head: #1f252c; --hint: #3a3217; --link: #8ab4f8; } }
:root[data-theme="dark"] { --bg: #121417; --fg: #e8e8e8; --muted: #c2c2c2; --line: #555b63;
  --head: #1f252c; --hint: #3a3217; --link: #8ab4f8; }
body { background: var(--bg); color: var(--fg); font: 16px/1.5 system-ui, sans-serif; margin: 0; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.3rem; } h3 { font-size: 1.1rem; }
a { color: var(--link); }
p, li, td { overflow-wrap: anywhere; }
.total { font-size: 1.2rem; font-weight: 600; }
table { border-collapse: collapse; }
.wide { overflow-x: auto; max-width: 100%; margin: 0.5rem 0 1rem; }
.wide:focus-visible { outline: 2px solid var(--link); outline-offset: 2px; }
th, td { border: 1px solid var(--line); padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: var(--head); }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
caption { text-align: left; font-weight: 600; padding: 0.3rem 0; }
.q { border-top: 1px solid var(--line); }
.hint { background: var(--hint); padding: 0.5rem 0.8rem; border-left: 4px solid #b58100; }
.note { color: var(--muted); }
code { overflow-wrap: anywhere; }
"""


# --------------------------------------------------------------------------
# Every page of a run


def feedback_pages(rows: list[Row], keys: dict[str, LessonKeys], how: dict | None = None, policy=None,
                   book_url: str = "") -> list[Page]:
    """One Page per learner of the keys and lesson graded (the totals' lines: `how` as for
    results.totals), each from that learner's counted file's rows only."""
    how = dict(how or {})
    per_file: dict = {}
    files_of: dict = {}
    for r in rows:
        per_file.setdefault((r.learner, r.lesson, r.submission), []).append(r)
        if r.learner and r.lesson:
            files_of.setdefault((r.learner, r.lesson), set()).add(r.submission)
    pages = []
    for total in totals(rows, keys, **how):
        mine = per_file.get((total.learner, total.lesson, total.counted), []) if total.counted else []
        pages.append(build_page(total, mine, keys, policy, how.get("rule", "best"), book_url,
                                len(files_of.get((total.learner, total.lesson), ()))))
    return pages


def _inside(sub) -> str:
    """A submission's path inside the download, as submissions.identify reads it (NFC, as lms does)."""
    inside = "/".join(list(sub.folders[:-1])[::-1] + [sub.path.name]) if sub.folders else sub.path.name
    return unicodedata.normalize("NFC", inside)


def canvas_name(sub, lesson: str, suffix: str) -> str | None:
    """The name of a feedback file for Canvas's re-upload: the download's own prefix of `sub` (the learner's
    file), then `<lesson>-feedback<suffix>`; None when the file's name gives no Canvas ids. Read back with
    Canvas's rule: a prefix Canvas would misread (a name holding `_<digits>_`) becomes `feedback_<ids>_`."""
    name = unicodedata.normalize("NFC", sub.path.name)
    download = parse_download(name, "canvas")
    if download is None or download.order is None:
        return None
    prefix = name[:len(name) - len(download.original)]
    out = f"{prefix}{lesson}-feedback{suffix}"
    ids = (download.lms_id, str(download.order))
    if canvas_reupload_ids(out) != ids:
        out = f"feedback_{ids[0]}_{ids[1]}_{lesson}-feedback{suffix}"
    return out if canvas_reupload_ids(out) == ids else None


def moodle_name(sub, participant: str | None, full_name: str, lesson: str, suffix: str) -> str | None:
    """The path of a feedback file in Moodle's feedback zip: the download's own folder (or name prefix) of
    `sub` when there is one, else `<Full Name>_<participant>_assignsubmission_file/`; read back with
    Moodle's rule (None when no participant id can be given)."""
    if sub is not None:
        inside = _inside(sub)
        download = parse_download(inside, "moodle")
        if download is not None:
            prefix = inside[:len(inside) - len(download.original)]
            out = f"{prefix}{lesson}-feedback{suffix}"
            if moodle_feedback_id(out) == str(int(download.lms_id)):
                return out
            participant = download.lms_id
    if not participant:
        return None
    name = "".join(ch for ch in full_name.replace("_", " ") if ch not in "/\\:*?\"<>|&`'" and
                   unicodedata.category(ch)[0] != "C").strip().lstrip(".~") or "Participant"
    out = f"{name}_{participant}_assignsubmission_file/{lesson}-feedback{suffix}"
    return out if moodle_feedback_id(out) == str(int(participant)) else None


def write_feedback(folder, rows: list[Row], keys: dict[str, LessonKeys], how: dict | None = None, *,
                   submissions=(), roster=None, layout: str = "folders", force: bool = False, policy=None,
                   book_url: str = "") -> Written:
    """Write every learner's feedback under `folder` (see the module docstring); ValueError, naming
    --feedback, for a file in the way without `force` (checked before anything is written)."""
    if not keys:
        raise ValueError("--feedback needs --keys: the pages are written for the keys' learners")
    folder = Path(folder)
    pages = feedback_pages(rows, keys, how, policy, book_url)
    by_label = {s.label: s for s in submissions}
    files_of: dict = {}
    for r in rows:
        if r.learner and r.lesson and r.submission in by_label:
            files_of.setdefault((r.learner, r.lesson), []).append(by_label[r.submission])
    plan: dict[Path, bytes] = {}
    written = Written(pages=len(pages), learners=len({p.learner for p in pages}))
    for page in pages:
        if not SAFE_LEARNER.match(page.learner) or not LESSON_NAME.fullmatch(page.lesson):
            raise ValueError(f"--feedback: learner {page.learner!r} or lesson {page.lesson!r} cannot name a file "
                             "(the keys' learner ids are embedlab-assign's safe ids)")
        base = folder / LEARNERS / page.learner / f"{page.lesson}-feedback"
        plan[base.with_suffix(".html")] = page.html.encode("utf-8")
        plan[base.with_suffix(".txt")] = page.text.encode("utf-8")
    if layout in (CANVAS, MOODLE):
        for lesson in sorted({p.lesson for p in pages}):
            entries, count = {}, 0
            for page in (p for p in pages if p.lesson == lesson):
                subs = sorted(files_of.get((page.learner, lesson), []), key=lambda s: (s.label != page.counted,
                                                                                       -(s.order or 0), s.label))
                sub = subs[0] if subs else None
                names = _lms_names(layout, sub, page, roster, lesson, written)
                if names is None:
                    continue
                count += 1
                entries[names[0]] = page.html.encode("utf-8")
                entries[names[1]] = page.text.encode("utf-8")
            if entries:
                path = folder / layout / f"{lesson}-feedback.zip"
                plan[path] = _zip(entries)
                written.zips[path] = count
    check = check_feedback_dir(folder, [], submissions, True)
    if check:
        raise ValueError(check)
    top = os.path.realpath(folder).rstrip("/") + "/"
    for path in plan:  # nothing outside the folder: a link inside it leading elsewhere is refused
        if not os.path.realpath(path).startswith(top) or os.path.islink(path.parent):
            raise ValueError(f"--feedback: {display_name(path)} would be written outside "
                             f"{display_name(folder)} (a link on its way): not written")
    if not force:
        for path in plan:
            if path.exists():
                raise ValueError(f"--feedback: {display_name(path)} exists: give --force to replace it "
                                 "(earlier feedback is never overwritten by accident)")
    for path, data in plan.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_output(path, "wb", flag="--feedback") as f:
            f.write(data)
        written.files.append(path)
    return written


def _lms_names(layout: str, sub, page: Page, roster, lesson: str, written: Written):
    """(HTML name, text name) of a page in the LMS zip, or None (recorded in `written.without`, with why)."""
    learner = page.learner
    if layout == CANVAS:
        if sub is None:
            written.without.append(("Canvas", lesson, learner, "no file handed in: Canvas attaches feedback to a "
                                    "submitted file only"))
            return None
        names = canvas_name(sub, lesson, ".html"), canvas_name(sub, lesson, ".txt")
        if None in names:
            written.without.append(("Canvas", lesson, learner, f"the file's name gives no Canvas ids ({sub.label})"))
            return None
        return names
    participant, full_name = None, ""
    if roster is not None and learner in roster.rows:
        try:
            participant = roster.value(learner, roster.id_column("moodle", lesson)) or None
        except ValueError:
            participant = None
        full_name = roster.value(learner, "name")
    names = (moodle_name(sub, participant, full_name, lesson, ".html"),
             moodle_name(sub, participant, full_name, lesson, ".txt"))
    if None in names:
        written.without.append(("Moodle", lesson, learner, "no Moodle participant id for this lesson (no file "
                                "handed in, and no moodle_id column in the roster for it)"))
        return None
    return names


def _zip(entries: dict) -> bytes:
    """A zip of `entries` (name -> bytes), names in UTF-8, a fixed date: the same pages give the same bytes."""
    for name in entries:  # nothing that unzips outside its folder, or prints oddly
        parts = name.split("/")
        if (name.startswith("/") or "\\" in name or any(p in ("", ".", "..") for p in parts)
                or printable(name) != name):
            raise ValueError(f"--feedback: refused a zip entry name {printable(name)!r} (a path out of the zip's folder, "
                             "or a control character)")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, entries[name])
    return buf.getvalue()
