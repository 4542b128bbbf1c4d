"""Issue 47 end to end: lesson 11 in a class of four, its written defence marked through manual.csv.

embedlab-assign writes the handouts; each learner fills theirs as a learner does (the answer cells
of the handout, nothing else): Ada, Ben and Cy write a defence (Ben's with markup in it, and a
serving figure off, carried into a budget answer worked out right from it), Dee leaves the template.
The first `embedlab-grade --manual` writes the marking page and the sheet; the sheet is filled as an
instructor does; the second run merges it into scores.csv, the totals, the Canvas and Moodle
gradebooks, the report and each learner's feedback; a third run gives the same totals; a filled sheet
with a bad line stops a run before anything is written and leaves the sheet as it is. One assign (K = 2)
and three grading runs of four notebooks: the heaviest tests of issue 47, the rest are in
tests/test_written.py.
"""

from __future__ import annotations

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from embedlab.grading.keys import KEYS_DIR
from embedlab.grading.kept import GRADES_ENV
from embedlab.grading.questions import l11

from solution_runner import notebook

LESSON = "11-size-a-model"
BIN = Path(sys.executable).parent
ROSTER = ("learner,name,email,canvas_id\n"
          "ada,Ada Lovelace,ada@uni.example,101\n"
          "ben,Ben Okri,ben@uni.example,102\n"
          "cy,Cy Twombly,cy@uni.example,103\n"
          "dee,Dee Rams,dee@uni.example,104\n")
MARK = re.compile(r"^\s*# (BEGIN|END) SOLUTION\s*$")
DEFENCES = {
    "ada": ('defence = f"""\nWhich budget binds, and by how much:\n{tightest_budget} binds: '
            '{used[tightest_budget]:.0%} of it, the others less.\n\nWhy this width and depth:\n'
            'd is 16 heads of head_dim; L the deepest within the budgets.\n\nWhat the tying choice costs:\n'
            'Untied would add {other_tying_params - design_params:,} parameters.\n"""\n'),
    "ben": ('defence = """\nWhich budget binds, and by how much:\n<script>alert("ben")</script> memory & more\n\n'
            'Why this width and depth:\nbecause it fits\n\nWhat the tying choice costs:\nnothing\n"""\n'),
    "cy": ('defence = """\nWhich budget binds, and by how much:\nCompute, by a little.\n\n'
           'Why this width and depth:\nThe phone decides d.\n\nWhat the tying choice costs:\nA head.\n"""\n'),
}


def answer_cell(nb, name):
    """The answer cell of question `name`: the code cell before its check."""
    at = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and f'ex.check("{name}")' in c.source)
    return next(nb.cells[j] for j in range(at - 1, -1, -1) if nb.cells[j].cell_type == "code")


def solved(name: str) -> str:
    """The solution's answer cell without its markers: what a learner who got it right writes."""
    cell = answer_cell(notebook("solutions", LESSON), name)
    return "\n".join(line for line in cell.source.split("\n") if not MARK.match(line))


def run(argv: list[str], cwd: Path, code: int = 0) -> subprocess.CompletedProcess:
    # honest notebooks: the grader keeps their judged rows (embedlab.grading.kept), so a step grading a file
    # an earlier step (or session) graded alike reads its rows; a time-out or a crash is graded every time
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", GRADES_ENV: "1"}
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == code, f"{argv}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


GRADE = ["embedlab-grade", "canvas-11", "--layout", "canvas", "--roster", "roster.csv", "--keys",
         f"class/{KEYS_DIR}", "--out", "grades/scores.csv", "--totals", "grades/totals.csv", "--gradebook",
         "grades/canvas.csv", "--report", "grades/report.html", "--feedback", "feedback", "--manual", "marking",
         "-j", "2", "-q"]


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    home = tmp_path_factory.mktemp("written-term")
    (home / "roster.csv").write_text(ROSTER, encoding="utf-8")
    (home / "secret.txt").write_text("5" * 64 + "\n", encoding="utf-8")
    run(["embedlab-assign", LESSON, "--roster", "roster.csv", "--secret-file", "secret.txt", "--out", "class",
         "--variants", "2", "-j", "2"], home)
    (home / "canvas-11").mkdir()
    (home / "grades").mkdir()
    figures = {n: solved(n) for n in ("design", "design_params", "design_serving_gb", "design_train_flops",
                                      "tightest_budget", "other_tying_params")}
    for i, learner in enumerate(("ada", "ben", "cy", "dee")):
        nb = nbformat.read(home / "class" / learner / f"{LESSON}.ipynb", as_version=4)
        for name, source in figures.items():
            answer_cell(nb, name).source = source
        if learner == "ben":  # the weights as if in bf16: a serving figure off, which the next question reads
            answer_cell(nb, "design_serving_gb").source = (
                "from embedlab.memory import bytes_per_param\n" + figures["design_serving_gb"] + "\n"
                "f = design_figures(design, BUDGET)\n"
                "design_serving_gb = 2 / bytes_per_param(BUDGET.weights) * f.weights_gb + f.kv_cache_gb\n")
        if learner in DEFENCES:
            answer_cell(nb, "defence").source = DEFENCES[learner]
        first, last = ROSTER.splitlines()[i + 1].split(",")[1].split(" ")
        canvas_id = ROSTER.splitlines()[i + 1].split(",")[3]
        nbformat.write(nb, home / "canvas-11" / f"{last}{first}".lower().__add__(
            f"_{canvas_id}_{9001 + i}_{LESSON}.ipynb"))
    out = {"home": home}
    out["first"] = run(GRADE, home).stdout
    out["first_scores"] = read_csv(home / "grades" / "scores.csv")
    sheet = home / "marking" / LESSON / "manual.csv"
    out["blank_sheet"] = read_csv(sheet)
    out["page"] = (home / "marking" / LESSON / "marking.html").read_text(encoding="utf-8")
    # the instructor marks, as in a spreadsheet: levels for most, points and comments for some
    marks = {("ada", "binding"): ("2", "", "All three fractions, from your own figures."),
             ("ada", "shape"): ("1", "", 'd argued; "the deepest" needs its figure'),
             ("ada", "tying"): ("", "2", "=the count, and what it moves"),
             ("ben", "binding"): ("0", "", "<b>no figure</b>"),
             ("ben", "shape"): ("", "0.5", ""),
             ("ben", "tying"): ("0", "", ""),
             ("cy", "binding"): ("1", "", "compute, but by how much?"),
             ("cy", "shape"): ("1", "", ""),
             ("cy", "tying"): ("1", "", "")}
    with open(sheet, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["learner", "question", "criterion", "max_points", "level", "points", "comment"])
        for row in out["blank_sheet"]:
            w.writerow([row["learner"], row["question"], row["criterion"], row["max_points"],
                        *marks[row["learner"], row["criterion"]]])
    out["sheet"] = sheet.read_bytes()
    out["second"] = run(GRADE + ["--force"], home).stdout
    out["scores"] = read_csv(home / "grades" / "scores.csv")
    out["totals"] = read_csv(home / "grades" / "totals.csv")
    out["canvas"] = (home / "grades" / "canvas.csv").read_text(encoding="utf-8")
    out["report"] = (home / "grades" / "report.html").read_text(encoding="utf-8")
    run(GRADE + ["--force", "--gradebook", "grades/moodle.csv", "--gradebook-format", "moodle"], home)
    out["moodle"] = (home / "grades" / "moodle.csv").read_text(encoding="utf-8")
    out["again"] = read_csv(home / "grades" / "totals.csv")
    # the policy switches error carried forward off for lesson 11: the totals follow, scores.csv stays raw
    (home / "policy.toml").write_text(f'[lesson."{LESSON}"]\ncarry_forward = false\n', encoding="utf-8")
    run(GRADE + ["--force", "--policy", "policy.toml", "--totals", "grades/totals-policy.csv", "--feedback",
                 "feedback-policy", "--report", "grades/report-policy.html"], home)
    out["policy_totals"] = read_csv(home / "grades" / "totals-policy.csv")
    out["policy_scores"] = read_csv(home / "grades" / "scores.csv")
    return out


def test_the_first_run_writes_a_sheet_for_the_three_who_wrote_and_the_page_beside_it(term):
    assert [(r["learner"], r["criterion"]) for r in term["blank_sheet"]] == [
        (n, c.name) for n in ("ada", "ben", "cy") for c in l11.DEFENCE.criteria]
    assert all(r["level"] == r["points"] == r["comment"] == "" for r in term["blank_sheet"])
    dee = next(r for r in term["first_scores"] if r["learner"] == "dee" and r["question"] == "defence")
    assert (dee["points"], dee["status"]) == ("0", "not_attempted") and "only the given template" in dee["detail"]
    ada = next(r for r in term["first_scores"] if r["learner"] == "ada" and r["question"] == "defence")
    assert (ada["points"], ada["status"]) == ("0", "to_mark")
    page = term["page"]
    assert page.index("1. ada") < page.index("2. ben") < page.index("3. cy") < page.index("4. dee")  # roster order
    assert '&lt;script&gt;alert(&quot;ben&quot;)&lt;/script&gt;' in page and 'alert("ben")' not in page
    assert "manual.csv lines 2, 3, 4" in page and "0 points, nothing to mark" in page
    assert "<script>" in page and page.count("<script>") == 1  # the page's own keys, nothing of a learner's
    assert "written answers: 0 marked, 3 to mark" in term["first"]


def test_the_filled_sheet_reaches_totals_both_gradebooks_the_report_and_feedback(term):
    defence = {r["learner"]: r for r in term["scores"] if r["question"] == "defence"}
    assert {n: (r["points"], r["status"]) for n, r in defence.items()} == {
        "ada": ("5", "marked"), "ben": ("0.5", "marked"), "cy": ("3", "marked"), "dee": ("0", "not_attempted")}
    auto = {}
    for r in term["first_scores"]:
        if r["question"] != "defence":
            auto[r["learner"]] = auto.get(r["learner"], 0.0) + float(r["points"])
    totals = {r["learner"]: float(r["points"]) for r in term["totals"]}
    assert totals == {n: auto[n] + {"ada": 5, "ben": 0.5, "cy": 3, "dee": 0}[n] for n in auto}
    assert all(r["max_points"] == "14" for r in term["totals"])
    for learner, points in totals.items():
        assert re.search(rf"^[^\n]*{learner.capitalize()}[^\n]*,\"?{points:g}\"?", term["canvas"], re.M), learner
        assert re.search(rf"^[^\n]*{learner}@uni\.example[^\n]*,\"?{points:g}\"?", term["moodle"], re.M), learner
    assert term["again"] == term["totals"]  # a rerun with the same sheet: the same totals
    assert (term["home"] / "marking" / LESSON / "manual.csv").read_bytes() == term["sheet"]  # never rewritten
    report = " ".join(re.sub(r"<[^>]+>", " ", term["report"]).split())
    assert "defence: written, marked by hand 3 marked, 0 to mark, 1 with nothing of their own written" in report
    assert "binding 2 1.00 0: 1, 1: 1, 2: 1" in report
    assert "shape 2 0.83 0: 0, 1: 2, 2: 0, between levels: 1" in report
    ben = (term["home"] / "feedback" / "learners" / "ben" / f"{LESSON}-feedback.txt").read_text(encoding="utf-8")
    assert "defence: 0.5 / 6, marked by your instructor" in ben
    assert "binding: 0 / 2, your instructor says: <b>no figure</b>" in ben
    html = (term["home"] / "feedback" / "learners" / "ben" / f"{LESSON}-feedback.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;no figure&lt;/b&gt;" in html and "<b>no figure" not in html
    ada = (term["home"] / "feedback" / "learners" / "ada" / f"{LESSON}-feedback.txt").read_text(encoding="utf-8")
    assert "tying: 2 / 2, your instructor says: =the count, and what it moves" in ada


def test_bens_serving_figure_is_carried_into_his_budget_answer(term):
    ben = {r["question"]: r for r in term["scores"] if r["learner"] == "ben"}
    assert ben["design_serving_gb"]["status"] == "incorrect"
    tightest = ben["tightest_budget"]
    assert (tightest["points"], tightest["status"]) == ("1", "correct")
    assert tightest["detail"].startswith("judged on your own figure for `design_serving_gb`")
    feedback = (term["home"] / "feedback" / "learners" / "ben" / f"{LESSON}-feedback.txt").read_text(encoding="utf-8")
    assert "judged on your own figure for `design_serving_gb`" in feedback
    assert "Error carried forward" in term["report"] and "tightest_budget 1" in term["report"]


def test_a_bad_line_stops_the_run_before_anything_is_written(term):
    home = term["home"]
    sheet = home / "marking" / LESSON / "manual.csv"
    bad = term["sheet"].replace(b'"ben","defence","shape"', b'"ben","defence","style"') \
        if b'"ben","defence","shape"' in term["sheet"] else term["sheet"].replace(b"ben,defence,shape", b"ben,defence,style")
    sheet.write_bytes(bad)
    stamps = {p: p.stat().st_mtime_ns for p in (home / "grades").iterdir()}
    try:
        done = run(GRADE + ["--force"], home, code=2)
        assert "manual.csv, line 6, field 'criterion': 'style' is not a criterion of defence" in done.stderr
        assert {p: p.stat().st_mtime_ns for p in (home / "grades").iterdir()} == stamps
        assert sheet.read_bytes() == bad
    finally:
        sheet.write_bytes(term["sheet"])


def test_the_policy_switches_carrying_off_for_the_lesson(term):
    before = {r["learner"]: float(r["points"]) for r in term["totals"]}
    after = {r["learner"]: float(r["final"]) for r in term["policy_totals"]}
    assert after == {**before, "ben": before["ben"] - 1}  # his carried budget answer, and only it
    raw = next(r for r in term["policy_scores"] if r["learner"] == "ben" and r["question"] == "tightest_budget")
    assert raw["status"] == "correct"  # scores.csv keeps the grader's judgement
    page = (term["home"] / "feedback-policy" / "learners" / "ben" / f"{LESSON}-feedback.txt").read_text(
        encoding="utf-8")
    assert "tightest_budget: 0 / 1" in page and "no error carried forward" in page
