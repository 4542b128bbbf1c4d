"""The class report (embedlab-grade --report, embedlab.grading.report): mistakes grouped by the hint's
words, nothing of the key on the page, work shared on one variant flagged (and short formulas, other
variants and the course's own solution not), text from submissions escaped, an existing report never
replaced without --force; one small grading run end to end, and axe-core on the page, light and dark.

Rows are built here (judge.Row, with the answer cell's source and a value fingerprint as the grader
attaches them): no sandbox run but the one end-to-end test.
"""

import os
import re
from pathlib import Path

import nbformat
import pytest

from embedlab.grading import cli as grade
from embedlab.grading import report
from embedlab.grading.judge import Row
from embedlab.grading.keys import LessonKeys, Variant
from embedlab.grading.judge import score
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.sandbox import Limits, RunResult
from embedlab.grading.variants import parameters_of

from solution_runner import answer_cell, notebook
from tools_loader import load_tool, needs_chromium, open_offline

ROOT = Path(__file__).resolve().parent.parent
LESSON = "01-toy-table"


def row(who, question, status, detail="", source="", answer="", lesson=LESSON, points=None):
    best = {q.name: q.points for q in questions_for(lesson)}.get(question, 1.0)
    if points is None:
        points = best if status == "correct" else 0.0
    return Row(f"{who}/{lesson}.ipynb", lesson, question, points, best, status, detail, who,
               source=source, answer=answer)


def class_keys(learners: dict) -> dict:
    """Keys of lesson 01 with two variants; every key value made distinctive (none can be on the page by chance)."""
    key = load_key(LESSON)
    distinct = {name: 987_654_321 + i for i, name in enumerate(key)}
    return {LESSON: LessonKeys(LESSON, 2, dict(learners), {n: Variant(n, {}, dict(distinct)) for n in (1, 2)})}


# --------------------------------------------------------------------------
# Mistakes


def test_the_same_hint_with_each_learners_numbers_and_inputs_is_one_mistake():
    rows = [row("ann", "cosine", "incorrect", "on input 2 of 5, cosine([0.1, 0.2], [3, 4]) returned 0.3: the dot "
                "product, not divided by the lengths of the two vectors"),
            row("bob", "cosine", "incorrect", "on input 1 of 5, cosine([1.5, -2.0, 7.25], [3, 4, 1]) returned 12: the "
                "dot product, not divided by the lengths of the two vectors"),
            row("cat", "n_params", "incorrect", "yours is 2 times the expected value: `n_params` counts rows 1, 3"),
            row("dan", "n_params", "incorrect", "yours is 3.5 times the expected value: `n_params` counts row 2"),
            row("eve", "n_params", "incorrect", "the rows are in the wrong order: 'horse' comes first"),
            row("fay", "n_params", "incorrect", "")]
    cosine = report.mistakes([r for r in rows if r.question == "cosine"])
    assert [(count, texts) for count, _, texts in cosine] == [(2, 2)]
    counts = report.mistakes([r for r in rows if r.question == "n_params"])
    assert sorted(c for c, _, _ in counts) == [1, 1, 2]
    assert (1, "(no hint)", 1) in counts
    # a different hint is not merged, and quoted text is not the hint's words
    other_word = "the rows are in the wrong order: 'car' comes first"
    assert report.mistake_key(rows[4].detail) == report.mistake_key(other_word)
    assert report.mistake_key(rows[2].detail) != report.mistake_key(rows[4].detail)
    page = report.render(rows, figures=False)
    assert "<strong>2×</strong> on input" in page and "<strong>2×</strong> yours is" in page


def test_the_graders_own_hint_quoting_each_learners_digits_is_one_mistake():
    """Hints as the grader writes them (judge.score on plain data), for learners of three variants of
    lesson 03 who typed their count rounded, each to their own number of digits."""
    lesson, rows = "03-counting-gpt2", []
    for variant, digits in ((1, (4, 3, 2)), (2, (3, 2, 4)), (3, (2, 4, 3))):
        params = parameters_of(lesson, variant, b"report test")
        q = {q.name: q for q in questions_for(lesson, params)}["interview"]
        exact = params["interview_V"] * params["interview_d"]
        typed = next(t for t in (int(float(f"{exact:.{k}g}")) for k in digits) if t != exact)
        result = RunResult("finished", {"errors": [], "timeouts": [], "sources": {"interview": f"interview = {typed}"}},
                           {"interview": {"data": {"int": typed}}})
        points, best, status, detail = score(q, {"interview": exact}, {}, result, Limits(), lesson)
        rows.append(Row(f"l{variant}.ipynb", lesson, "interview", points, best, status, detail, f"l{variant}"))
    assert [r.status for r in rows] == ["incorrect"] * 3 and len({r.detail for r in rows}) > 1, rows
    assert [(count, texts) for count, _, texts in report.mistakes(rows)] == [(3, len({r.detail for r in rows}))]


def test_no_key_value_is_on_the_page():
    learners = {"ann": 1, "bob": 1, "cat": 2}
    keys = class_keys(learners)
    rows = [row(w, q.name, "incorrect" if w == "ann" else "correct", "yours is 2 times the expected value",
                source=f"{q.name} = 1 + 2", answer=f"{hash((w, q.name)) & 0xffff:016x}")
            for w in learners for q in questions_for(LESSON)]
    page = report.render(rows, keys, {"rule": "best"})
    for value in keys[LESSON].keys[1].key.values():
        for shown in (str(value), f"{value:,}", f"{value:_}", f"{value:.4g}"):
            assert shown not in page
    # and the book's own key: none of its non-trivial values is printed either
    for value in load_key(LESSON).values():
        if isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > 100:
            assert f"{value:,}" not in page and str(value) not in page


# --------------------------------------------------------------------------
# Work shared on one variant

COPIED = ["rows = []\nfor w in words:\n    rows.append([1 if f in traits[w] else 0 for f in features])\n"
          "E = np.array(rows[::-1])\n",
          "# mine!\ntable_rows=[ ]\nfor word in words :  # each word\n    table_rows.append( [1 if feat in\n"
          "        traits[word] else 0 for feat in features] )\nprint(table_rows)\nE = np.array(table_rows[::-1])\n"]


def test_shared_code_is_found_across_renamed_names_on_one_variant_not_across_variants():
    keys = class_keys({"ann": 1, "bob": 1, "cat": 2})
    a, b = (report.normalised_code(s, LESSON, "E", {"E"})[0] for s in COPIED)
    assert a == b and "v0" in a
    rows = [row("ann", "E", "incorrect", "rows 1, 2 differ", COPIED[0], "a1"),
            row("bob", "E", "incorrect", "rows 1, 3 differ", COPIED[1], "b2"),
            row("cat", "E", "incorrect", "rows 1, 3 differ", COPIED[1], "c3")]  # the same code, on variant 2
    found = report.shared_work(rows, keys)
    assert [(s.kind, s.variant, s.learners) for s in found] == [("code", "1", ("ann", "bob"))]
    page = report.render(rows, keys, {"rule": "best"}, figures=False)
    assert "not proof" in page.lower() and "never a penalty" in page
    # without keys every learner holds the book's variant: all three match
    assert [s.learners for s in report.shared_work(rows)] == [("ann", "bob", "cat")]


def test_identical_wrong_values_are_flagged_by_value_and_variant_never_by_their_hint():
    """The same wrong value on one variant is flagged whatever hint it got and whatever hints others got
    (in class mode every wrong answer once got the same false hint, and the check went quiet: issue 45);
    only a value more than half of a variant's learners gave (4 or more judged) is the class's mistake."""
    keys = class_keys({"ann": 1, "bob": 1, "cat": 1, "dan": 2, "eve": 2, "fay": 2, "gus": 2})
    same = "the code the exercise gives was changed: put that line back"  # one hint for every wrong answer
    rows = [row("ann", "n_params", "incorrect", "right to 3 digits", "n_params = 4", "f00d"),
            row("bob", "n_params", "incorrect", "right to 2 digits", "n_params = 4", "f00d"),
            row("cat", "n_params", "correct", "", "n_params = len(words) * len(features)", "beef"),
            # the same hint given outside the group (on the other variant, and to another value) silences nothing
            row("ann", "batch", "incorrect", same, "", "0a0a"),
            row("bob", "batch", "incorrect", same, "", "0a0a"),
            row("cat", "batch", "incorrect", same, "", "0c0c"),
            row("dan", "batch", "incorrect", same, "", "0b0b"),
            # on variant 2, three of four judged gave one value: the class's mistake there, not work shared
            row("eve", "batch", "incorrect", "a bias added", "", "0b0b"),
            row("fay", "batch", "incorrect", "a bias added", "", "0b0b"),
            row("gus", "batch", "correct", "", "", "0d0d")]
    found = report.shared_work(rows, keys)
    assert [(s.kind, s.question, s.learners) for s in found] == [("value", "batch", ("ann", "bob")),
                                                                  ("value", "n_params", ("ann", "bob"))]
    page = report.render(rows, keys, {"rule": "best"}, figures=False)
    assert "fingerprint f00d" in page and "fingerprint 0a0a" in page and "fingerprint 0b0b" not in page


def test_short_correct_formulas_and_the_courses_solution_are_not_flagged():
    keys = class_keys({"ann": 1, "bob": 1, "cat": 1})
    solution = answer_cell(notebook("solutions", LESSON), "E").source
    long_right = ("rows = []\nfor w in words:\n    r = []\n    for f in features:\n"
                  "        r.append(1 if f in traits[w] else 0)\n    rows.append(r)\nE = np.array(rows, dtype=int)\n")
    rows = []
    for who in ("ann", "bob", "cat"):
        rows += [row(who, "n_params", "correct", source="n_params = len(words) * len(features)"),
                 row(who, "cosine", "correct", source=COSINE),
                 row(who, "E", "correct", source=solution)]
    assert report.normalised_code("n_params = len(words) * len(features)")[1] < report.CODE_NODES
    assert report.shared_work(rows, keys) == []
    # the threshold is what keeps them out: a long right answer written alike by two is flagged
    renamed = ("out = []\nfor word in words:\n    line = []  # one per word\n    for feat in features:\n"
               "        line.append(1 if feat in traits[word] else 0)\n\n    out.append(line)\n"
               "E = np.array(out, dtype=int)\n")
    rows += [row("ann", "batch", "correct", source=long_right), row("bob", "batch", "correct", source=renamed)]
    assert report.normalised_code(long_right)[1] >= report.CODE_NODES
    assert [(s.question, s.learners) for s in report.shared_work(rows, keys)] == [("batch", ("ann", "bob"))]
    # a long solution is not flagged when it is the course's own (every learner may follow the lesson)
    # (handed in below the exercise's marker, or with the marker deleted: the given lines are not theirs)
    lesson = "12-change-a-vocabulary"
    solution = answer_cell(notebook("solutions", lesson), "coverage").source.replace("# END SOLUTION", "")
    kept, deleted = solution.replace("# BEGIN SOLUTION", "# YOUR CODE HERE"), solution.replace("# BEGIN SOLUTION", "")
    assert report.normalised_code(kept, lesson, "coverage", {"coverage"})[1] >= report.CODE_NODES
    same = [row("ann", "coverage", "correct", source=kept, lesson=lesson),
            row("bob", "coverage", "correct", source=deleted.replace("weights", "w8"), lesson=lesson)]
    assert report.shared_work(same) == []
    # the given lines a learner kept (with the marker deleted, quotes changed) are not their code
    deleted = deleted.replace('wordlist="small"', "wordlist='small'")
    own = report.normalised_code(deleted, lesson, "coverage", {"coverage"})[0]
    assert own == report.solution_code(lesson, "coverage")


COSINE = "def cosine(a, b):\n    # YOUR CODE HERE\n    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))\n"


def test_the_thresholds_book_grading_md_states_are_the_codes():
    page = " ".join((ROOT / "book" / "grading.md").read_text(encoding="utf-8").split())
    small = report.normalised_code("n_params = len(words) * len(features)", LESSON, "n_params", {"n_params"})[1]
    cosine = report.normalised_code(COSINE, LESSON, "cosine", {"cosine"})[1]
    for phrase in (f"fewer than {report.CODE_NODES} nodes of its syntax tree",
                   f"(`n_params = len(words) * len(features)` is {small}, a one-line cosine function {cosine})"):
        assert phrase in page, phrase
    assert small < cosine < report.CODE_NODES


# --------------------------------------------------------------------------
# Text from submissions, and the files


HOSTILE = '</td><script>alert("x")</script><img src=x onerror=alert(1)>\x1b[31m\u202e\x00 `<b>`'


def test_hostile_details_and_names_are_escaped():
    rows = [row("ann", "E", "incorrect", HOSTILE, source=HOSTILE),
            row('<i>bob"</i>', "E", "error", HOSTILE),
            Row("x\x1b.ipynb", LESSON, "", 0.0, 0.0, "unreadable", HOSTILE, "")]
    page = report.render(rows)
    assert "<script" not in page and "<img src=x" not in page and "<i>bob" not in page and "<b>" not in page
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202e]", page)
    assert "&lt;script&gt;" in page and "\\x1b" in page
    assert not re.search(r"""(?:src|href)=["'](?!data:|#)""", page)  # nothing fetched from outside


def test_an_existing_report_or_a_submission_is_never_overwritten(tmp_path, capsys):
    rows = [row("ann", "E", "correct")]
    out = tmp_path / "report.html"
    report.write_report(out, rows)
    first = out.read_bytes()
    with pytest.raises(ValueError, match="--force"):
        report.write_report(out, rows + [row("bob", "E", "incorrect", "wrong")])
    assert out.read_bytes() == first
    report.write_report(out, rows + [row("bob", "E", "incorrect", "wrong")], force=True)
    assert out.read_bytes() != first and not list(tmp_path.glob(".report.html.*"))
    # the command line refuses before grading anything: an existing report, a submission, a notebook name
    sub = tmp_path / "ann.ipynb"
    nbformat.write(notebook("exercises", LESSON), sub)
    handed_in, kept = sub.read_bytes(), out.read_bytes()
    for target, why in ((out, "exists: give --force"), (sub, "one of the submissions")):
        with pytest.raises(SystemExit) as stop:
            grade.main([str(sub), "--out", str(tmp_path / "s.csv"), "--report", str(target), "--no-sandbox", "-q"])
        assert stop.value.code == 2
        assert why in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:  # --force does not make a submission writable
        grade.main([str(sub), "--out", str(tmp_path / "s.csv"), "--report", str(sub), "--force", "--no-sandbox", "-q"])
    assert stop.value.code == 2
    assert sub.read_bytes() == handed_in and out.read_bytes() == kept and not (tmp_path / "s.csv").exists()


def test_a_report_that_fails_loses_no_grade(tmp_path, monkeypatch, capsys):
    """The CSV is written before the report; a report that cannot be written (a file appeared at its
    path during the run, or its own fault) says so and the run ends with 1. No sandbox: the grading
    is replaced by its rows."""
    from embedlab.grading import grader

    sub = tmp_path / "ann-01-toy-table.ipynb"
    nbformat.write(notebook("exercises", LESSON), sub)
    monkeypatch.setattr(grader, "grade_all", lambda *a, **k: ([row("ann", "E", "incorrect", "rows 1, 2 differ")], []))
    out, csv = tmp_path / "report.html", tmp_path / "scores.csv"
    argv = [str(sub), "--out", str(csv), "--report", str(out), "--no-sandbox", "-q"]
    assert grade.main(argv) == 0 and "rows 1, 2 differ" in out.read_text(encoding="utf-8")
    csv.unlink()
    out.unlink()

    def another_run_wrote_it_meanwhile(path, *args, **kwargs):
        out.write_text("an earlier report", encoding="utf-8")
        return report.write_report(path, *args, **kwargs)

    monkeypatch.setattr(grader, "write_report", another_run_wrote_it_meanwhile)
    assert grade.main(argv) == 1
    assert csv.exists() and out.read_text(encoding="utf-8") == "an earlier report"
    assert "--report not written" in capsys.readouterr().err
    csv.unlink()
    out.unlink()
    monkeypatch.setattr(report, "render", lambda *a, **k: 1 / 0)
    monkeypatch.setattr(grader, "write_report", report.write_report)
    assert grade.main(argv) == 1
    assert csv.exists() and not out.exists() and not list(tmp_path.glob(".report.html.*"))
    assert "grader fault: ZeroDivisionError" in capsys.readouterr().err


def test_report_end_to_end_on_three_small_submissions(tmp_path):
    """One real grading run of lesson 01 (-j 1): two learners who hand in the same wrong table code
    under other names (and one of them a wrong count), and a blank exercise. The answer cells'
    source comes back from the sandbox to the report."""
    folder = tmp_path / "subs"
    folder.mkdir()
    for who, code in (("ann", COPIED[0]), ("bob", COPIED[1])):
        nb = notebook("solutions", LESSON)
        answer_cell(nb, "E").source = code
        if who == "bob":
            answer_cell(nb, "n_params").source = "n_params = len(words) + len(features)\n"
        nbformat.write(nb, folder / f"{who}-01-toy-table.ipynb")
    nbformat.write(notebook("exercises", LESSON), folder / "cat-01-toy-table.ipynb")
    out = tmp_path / "report.html"
    code = grade.main([str(folder), "--out", str(tmp_path / "scores.csv"), "--report", str(out), "-q", "-j", "1",
                       "--lesson", LESSON])
    assert code == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.count("data:image/png;base64,") == 1
    assert "<h4>n_params: 1 wrong answer(s)</h4>" in page and "<h4>E: 2 wrong answer(s)</h4>" in page
    assert re.search(r"<td>n_params</td>(<td class=\"n\">[^<]*</td>){6}", page)
    shared = page[page.index('id="shared"'):]
    assert re.search(r"<td>E</td><td>[^<]*ann-01[^<]*bob-01[^<]*</td><td>identical code</td>", shared), shared
    assert "identical wrong value" in shared and "cat-01" not in shared


# --------------------------------------------------------------------------
# axe-core, light and dark

check_site = load_tool("check_site")
CHROMIUM = check_site.find_chromium()


@needs_chromium(CHROMIUM)
def test_the_report_passes_axe_in_light_and_dark(tmp_path):
    keys = class_keys({"ann": 1, "bob": 1, "cat": 2})
    rows = [row("ann", "E", "incorrect", "rows 1, 2 differ", COPIED[0], "a1"),
            row("bob", "E", "incorrect", "rows 1, 3 differ", COPIED[1], "b2"),
            row("cat", "E", "correct"), row("ann", "n_params", "timeout", HOSTILE),
            row("bob", "n_params", "correct"), row("cat", "n_params", "incorrect", HOSTILE),
            Row("dan.ipynb", LESSON, "", 0.0, 0.0, "identity_mismatch", "names another learner", "")]
    out = tmp_path / "report.html"
    report.write_report(out, rows, keys, {"rule": "best"})
    with check_site.Chromium(CHROMIUM) as browser:
        tab = browser.tab
        open_offline(tab, browser, out)
        found = tab.axe(check_site.load_axe())
    assert set(found) == {(theme, w) for theme in ("light", "dark") for w in check_site.WIDTHS}
    bad = [(pair, v["id"], v["impact"], v["target"]) for pair, violations in found.items() for v in violations
           if v["impact"] in check_site.AXE_FAILS]
    assert bad == []


def handout_cell(lesson: str, question: str) -> str:
    """The answer cell of a question as the exercise hands it out (given lines, then the marker)."""
    cells = [c.source for c in notebook("exercises", lesson).cells if c.cell_type == "code"]
    return next(cells[i - 1] for i, c in enumerate(cells) if c.strip() == f'ex.check("{question}")')


def test_the_solutions_form_never_flags_anyone_and_the_evidence_holds_no_given_line():
    """Lesson 04's attn_layer (issue 45: learners who wrote the solution's code were flagged, the given
    lines shown as evidence): its given lines include a statement over two lines, which the learners keep
    with the marker deleted; the solution's statements are left out before anything is compared."""
    lesson = "04-modern-blocks"
    keys = {lesson: LessonKeys(lesson, 2, {"ann": 1, "bob": 1, "cat": 1, "dan": 1},
                               {n: Variant(n, {}, {}) for n in (1, 2)})}
    cell = handout_cell(lesson, "attn_layer")
    solution = "attn_layer = d * h * head_dim + 2 * d * h_kv * head_dim + h * head_dim * d"
    deleted = cell.replace("# YOUR CODE HERE", solution)
    kept = cell.replace("# YOUR CODE HERE", "# YOUR CODE HERE\n" + solution)
    # the solution, then a check of their own that every learner may write alike: the solution is not theirs
    extra = deleted + "\nassert attn_layer > 0, 'a count of parameters is positive'\nprint(attn_layer)\n"
    long = ("q = d * h * head_dim\nkv = 2 * d * h_kv * head_dim\no = h * head_dim * d\n"
            "parts = [q, kv, o]\nattn_layer = sum(int(p) for p in parts if p > 0)\n")
    rows = [row("ann", "attn_layer", "correct", source=deleted, lesson=lesson),
            row("bob", "attn_layer", "correct", source=kept, lesson=lesson),
            row("cat", "attn_layer", "correct", source=extra, lesson=lesson),
            row("dan", "attn_layer", "correct", source=extra.replace("'a count of parameters is positive'",
                                                                 '"a count of parameters is positive"'), lesson=lesson)]
    assert report.shared_work(rows, keys) == []
    # a longer formula of their own, shared with the given lines kept: flagged, and shown without them
    rows += [row("ann", "attn_layer", "incorrect", source=cell.replace("# YOUR CODE HERE", long), lesson=lesson),
             row("bob", "attn_layer", "incorrect", source=cell.replace("# YOUR CODE HERE", long.replace("q", "w")),
                 lesson=lesson)]
    found = report.shared_work(rows, keys)
    assert [(s.kind, s.question, s.learners) for s in found] == [("code", "attn_layer", ("ann", "bob"))]
    given = [line for line in cell.splitlines() if line.strip() and not line.startswith("#")]
    assert given and not any(line.strip()[:20] in found[0].evidence for line in given), found[0].evidence
