"""Class mode tested from what it hands out (issue 45, 1-3; issue 46, the given code blamed only
when the edit explains the answer).

Every lesson is assigned with `embedlab-assign` to a small roster; each learner's handout (the
notebook assign wrote for them, nothing made from the solution with parameters swapped in) is
filled the way a learner fills it, in its answer cells only:

* ada: every answer right (the solution's own lines, typed under `# YOUR CODE HERE`);
* ben: every value answer wrong by a factor of two (the solution, then `x = x * 2`), a choice a
  word that is none of the choices, every function returning None;
* cy: every number typed in, as read off (a count exact, a real rounded to four figures);
* dee: the solution, but the first value question's cell raises (and in lesson 01 one cell runs
  past the cell limit);
* eve: ben's wrong lines, written by a classmate, in her own handout.

One `embedlab-grade` run grades them all, with --feedback and --report; the same wrong lines
in each lesson's self-study exercise (the book's parameters) are graded in a second run. What
is checked, in every output: no wrong answer's hint says the given code was changed, and the
hint of the wrong value is the self-study grader's hint for the same lines.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import nbformat
import pytest

from embedlab.grading import assign, cli, report
from embedlab.grading.code import MARKER
from embedlab.grading.keys import KEYS_DIR, load_keys
from embedlab.grading.lessons import questions_for
from embedlab.grading.status import CORRECT, ERROR, INCORRECT, TIMEOUT

ROOT = Path(__file__).resolve().parent.parent
SECRET = b"a-secret-for-the-handout-tests-of-class-mode"
K = 2
ROLES = {"ada": "right", "ben": "wrong", "cy": "typed", "dee": "broken", "eve": "wrong"}
CHANGED = "the code the exercise gives was changed"
LESSONS = assign.lessons_to_assign("all")[0]


def blocks(lesson: str) -> dict:
    """{question: the solution's marked blocks of its answer cell, in order (each as its lines, with
    their indentation)}: what a learner types under each `# YOUR CODE HERE`."""
    out = {}
    solution = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    for name, cell in answer_cells(solution).items():
        found, block = [], None
        for line in cell.source.split("\n"):
            if line.strip() == "# BEGIN SOLUTION":
                block = []
            elif line.strip() == "# END SOLUTION":
                found.append(block)
                block = None
            elif block is not None:
                block.append(line)
        out[name] = found
    return out


def answer_cells(nb):
    """{question: the code cell above its `ex.check("question")`} of a notebook."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    out = {}
    for i, cell in enumerate(code):
        m = re.fullmatch(r"""\s*ex\.check\(\s*["'](\w+)["']\s*\)\s*""", cell.source)
        if m and i > 0:
            out[m.group(1)] = code[i - 1]
    return out


def typed(value) -> str:
    """A number as a learner types it off the printed output: a count whole, a real to four figures."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ""
    return repr(value) if isinstance(value, int) else repr(float(f"{value:.4g}"))


def filled(nb, lesson: str, role: str, key: dict | None = None):
    """`nb` (a handout or the self-study exercise) with its answer cells filled as `role` fills them."""
    solved = blocks(lesson)
    kinds = {q.name: q.kind for q in questions_for(lesson)}
    first_value = next(q.name for q in questions_for(lesson) if q.kind != "function")
    second = [q.name for q in questions_for(lesson) if q.kind != "function"][1]
    for name, cell in answer_cells(nb).items():
        lines, out, k = cell.source.split("\n"), [], 0
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.strip() == MARKER:
                indent = line[:len(line) - len(line.lstrip())]
                block = solved[name][k]
                k += 1
                if i + 1 < len(lines) and lines[i + 1].strip() == "raise NotImplementedError()":
                    i += 1
                if role == "wrong" and kinds[name] == "function":
                    block = [f"{indent}return None"]
                out += block
            else:
                out.append(line)
            i += 1
        value = (key or {}).get(name)
        if isinstance(value, dict) and name in value:  # a Design's key: its answer beside the ones it uses
            value = value[name]
        if role == "wrong" and kinds[name] in ("integer", "real", "array") or \
                role == "wrong" and kinds[name] == "design" and key is None and name != "design":
            out.append(f"{name} = {name} * 2")
        elif role == "wrong" and kinds[name] == "choice":
            out.append(f'{name} = {name} + "s"')
        elif role == "typed" and typed(value):
            out = [ln for ln in out if not ln.startswith(f"{name} =")] + [f"{name} = {typed(value)}"]
        elif role == "broken" and name == first_value:
            out.append('raise ValueError("a slip of mine")')
        elif role == "broken" and name == second and lesson == "01-toy-table":
            out.append("import time\nwhile True:\n    time.sleep(0.05)")
        cell.source = "\n".join(out)
    return nb


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("handouts")
    (tmp / "roster.csv").write_text("learner\n" + "".join(f"{name}\n" for name in ROLES), encoding="utf-8")
    (tmp / "secret.txt").write_bytes(SECRET + b"\n")
    out = tmp / "class"
    assert assign.main(["all", "--roster", str(tmp / "roster.csv"), "--secret-file", str(tmp / "secret.txt"),
                        "--out", str(out), "--variants", str(K), "-j", "2"]) == 0
    keys = load_keys(out / KEYS_DIR)
    subs, book = tmp / "submissions", tmp / "self-study"
    for learner, role in ROLES.items():
        (subs / learner).mkdir(parents=True)
        for lesson in LESSONS:
            handout = nbformat.read(out / learner / f"{lesson}.ipynb", as_version=4)
            variant = keys[lesson].learners[learner]
            nbformat.write(filled(handout, lesson, role, keys[lesson].keys[variant].key),
                           subs / learner / f"{lesson}.ipynb")
    book.mkdir()
    for lesson in LESSONS:
        exercise = nbformat.read(ROOT / "exercises" / f"{lesson}.ipynb", as_version=4)
        nbformat.write(filled(exercise, lesson, "wrong"), book / f"{lesson}.ipynb")
    scores, feedback, page = tmp / "scores.csv", tmp / "feedback", tmp / "report.html"
    code = cli.main([str(subs), "--keys", str(out / KEYS_DIR), "--out", str(scores), "--feedback", str(feedback),
                     "--report", str(page), "-q", "-j", "2", "--cell-timeout", "30"])
    assert code == 0
    assert cli.main([str(book), "--out", str(tmp / "book.csv"), "-q", "-j", "2"]) == 0
    return {"tmp": tmp, "out": out, "keys": keys, "subs": subs, "rows": read_csv(scores),
            "book": read_csv(tmp / "book.csv"), "feedback": feedback, "report": page.read_text(encoding="utf-8")}


def rows_of(graded, learner: str, lesson: str) -> dict:
    return {r["question"]: r for r in graded["rows"] if r["learner"] == learner and r["lesson"] == lesson}


def test_every_lesson_was_graded_from_its_handouts(graded):
    for lesson in LESSONS:
        for learner in ROLES:
            assert set(rows_of(graded, learner, lesson)) == {q.name for q in questions_for(lesson)}, (lesson, learner)


def test_the_right_handouts_are_right_and_no_wrong_answer_blames_the_given_code(graded):
    for lesson in LESSONS:
        right = rows_of(graded, "ada", lesson)
        assert all(r["status"] == CORRECT for r in right.values()), (lesson, [r for r in right.values()
                                                                            if r["status"] != CORRECT])
    wrong = [r for r in graded["rows"] if r["status"] == INCORRECT]
    assert len(wrong) >= 12 * 4
    blamed = [(r["lesson"], r["learner"], r["question"], r["detail"]) for r in wrong if CHANGED in r["detail"]]
    assert not blamed, blamed[:5]


def test_a_wrong_value_gets_the_hint_the_self_study_grader_gives_the_same_lines(graded):
    book = {(r["submission"].rsplit("/", 1)[-1][:-6], r["question"]): r for r in graded["book"]}
    compared = 0
    for lesson in LESSONS:
        for name, row in rows_of(graded, "ben", lesson).items():
            mine = book[(lesson, name)]
            assert row["status"] == mine["status"], (lesson, name, row, mine)
            if row["status"] != INCORRECT:
                continue
            assert row["detail"] and report.mistake_key(row["detail"]) == report.mistake_key(mine["detail"]), \
                (lesson, name, row["detail"], mine["detail"])
            compared += 1
    assert compared >= 40


def test_typed_numbers_and_a_raising_cell_get_their_own_words(graded):
    for lesson in LESSONS:
        cy = rows_of(graded, "cy", lesson)
        assert any(r["status"] == INCORRECT for r in cy.values()), lesson
        dee = rows_of(graded, "dee", lesson)
        first = next(q.name for q in questions_for(lesson) if q.kind != "function")
        assert dee[first]["status"] == ERROR and "a slip of mine" in dee[first]["detail"], (lesson, dee[first])
    late = rows_of(graded, "dee", "01-toy-table")
    assert any(r["status"] == TIMEOUT for r in late.values())


def test_no_feedback_page_and_no_report_line_blames_the_given_code(graded):
    pages = [p for p in graded["feedback"].rglob("*") if p.is_file()]
    assert pages
    for page in pages:
        if page.suffix in (".html", ".md", ".txt"):
            assert CHANGED not in page.read_text(encoding="utf-8"), page
    assert CHANGED not in graded["report"]
    for r in graded["rows"]:  # every learner's own hints are on their own page
        if r["status"] == INCORRECT and r["learner"] == "ben":
            text = "".join(p.read_text(encoding="utf-8") for p in pages if "ben" in p.as_posix()
                           and p.suffix in (".html", ".md", ".txt"))
            assert report._e(r["detail"]) in text or r["detail"] in text, r


def test_explain_gives_the_hint_for_the_mistake(graded, capsys):
    for lesson in ("01-toy-table", "04-modern-blocks", "11-size-a-model"):
        path = graded["subs"] / "ben" / f"{lesson}.ipynb"
        assert cli.main([str(path), "--keys", str(graded["out"] / KEYS_DIR), "--explain"]) == 0
        text = capsys.readouterr().out
        assert CHANGED not in text
        for r in rows_of(graded, "ben", lesson).values():
            if r["status"] == INCORRECT:
                assert r["detail"] in text.replace("\n", " "), (lesson, r["detail"])
