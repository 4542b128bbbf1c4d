"""Issue 47, in process (fast): written work marked by hand, error carried forward, the typed-value rule.

- Lesson 11's defence is a `Written` question: its rubric is the one the notebooks show, the blank
  exercise's cell is only the template (not attempted), the solution's is a worked example to mark.
- A filled manual.csv is read and merged (levels or points, comments); each kind of bad entry is
  refused with the file, line and field, the file untouched, and `embedlab-grade --manual` stops
  before grading with nothing written.
- Lesson 11 carries a learner's wrong serving figure into a budget answer worked out right from it:
  it scores, says so, the report counts it, and a policy with `carry_forward = false` takes it back.
  Every answer cell of the course that reads another answer declares it (`carries`).
- A value typed instead of computed: the class handout's check says what the grader will do with it
  before the deadline, in the words the handout, book/how-to-use.md and book/grading.md use; the
  grader's detail starts with them, and a policy with `accept_typed = true` gives the points.
The end-to-end term (three learners through the sandbox, Canvas and Moodle) is tests/test_written_term.py.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from embedlab.grading import carried, manual
from embedlab.grading.assign import handout
from embedlab.grading.exercise import TYPED_RULE, TYPED_WORDS, Exercise
from embedlab.grading.judge import Row
from embedlab.grading.keys import KEYS_DIR, write_lesson_keys
from embedlab.grading.kinds import TYPED, Criterion, Level, Written
from embedlab.grading.lessons import known_lessons, questions_for
from embedlab.grading.policy import PolicyError, load_policy
from embedlab.grading.questions import l11
from embedlab.grading.status import CORRECT, INCORRECT, MARKED, NOT_ATTEMPTED, TO_MARK
from embedlab.grading.variants import read_parameters, parameters_cell
from embedlab.memory import bytes_per_param

from solution_runner import ROOT, grader_scoring, notebook, run_solution, solution_parameters

LESSON = "11-size-a-model"
DEFENCE = l11.DEFENCE
BIN = Path(sys.executable).parent


def cell_before_check(nb, name):
    """The answer cell of question `name`: the code cell before its check."""
    cells = nb.cells
    at = next(i for i, c in enumerate(cells) if c.cell_type == "code" and f'ex.check("{name}")' in c.source)
    return next(cells[j] for j in range(at - 1, -1, -1) if cells[j].cell_type == "code")


# --------------------------------------------------------------------------
# The written question


def test_the_notebooks_show_the_rubric_of_the_question_module():
    for folder in ("solutions", "exercises"):
        text = "\n".join(c.source for c in notebook(folder, LESSON).cells if c.cell_type == "markdown")
        assert DEFENCE.rubric_markdown() in text, folder
        assert "marked by your instructor" in text and "solutions/11-size-a-model.ipynb" in text


def test_the_blank_exercise_is_only_the_template_and_the_solution_a_worked_example():
    exercise = cell_before_check(notebook("exercises", LESSON), "defence").source
    namespace = {}
    exec(compile(exercise, "<cell>", "exec"), namespace)  # noqa: S102 - our own exercise
    verdict = DEFENCE.judge(DEFENCE.to_data(namespace["defence"]), None)
    assert verdict.status == NOT_ATTEMPTED and "only the given template" in verdict.detail
    for criterion in DEFENCE.criteria:  # the template's headings are the rubric's prompts
        assert criterion.prompt in exercise
    solved = run_solution(LESSON, solution_parameters(LESSON))
    data = DEFENCE.to_data(solved["defence"])
    assert "# BEGIN SOLUTION" not in data["text"] and "{" not in data["text"]  # markers out, figures in
    verdict = DEFENCE.judge(data, None)
    assert verdict.status == TO_MARK and verdict.points == 0 and verdict.max_points == 6
    assert int(verdict.detail.split()[1]) > 60  # a worked example, not a line
    assert f"{solved['design_params']:,}"[:3] in data["text"] or f"{solved['table']:,}" in data["text"]


def test_nothing_written_and_the_wrong_form_are_not_marked():
    assert DEFENCE.judge(DEFENCE.to_data(""), None).detail == "nothing written yet"
    only_headings = "\n".join(c.prompt for c in DEFENCE.criteria) + "\n# YOUR CODE HERE\n"
    assert DEFENCE.judge(DEFENCE.to_data(only_headings), None).status == NOT_ATTEMPTED
    assert DEFENCE.judge(DEFENCE.to_data("Compute binds."), None).detail.startswith("written: 2 words")
    with pytest.raises(Exception, match="string"):
        DEFENCE.to_data(42)
    with pytest.raises(ValueError, match="rise"):
        Criterion("x", "X:", "x", (Level(2, "a"), Level(1, "b")))
    with pytest.raises(ValueError, match="differ"):
        c = Criterion("x", "X:", "x", (Level(0, "a"), Level(1, "b")))
        Written("w", criteria=(c, c))


def test_the_self_study_check_counts_written_work_apart_and_shows_what_the_instructor_reads():
    solved = run_solution(LESSON, solution_parameters(LESSON))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        Exercise(LESSON).check("defence", solved)
        Exercise(LESSON).summary(solved)
    text = out.getvalue()
    assert "📝 defence (6 points): written:" in text and "As your instructor will read it:" in text
    assert "8 / 8 points checked here; 6 more for written work your instructor marks" in text


def test_the_check_shows_the_written_text_verbatim():
    """What the instructor will read is the learner's text as written: a line longer than the check's own
    lines is neither broken nor indented (a newcomer's "With 16 heads I\n   took"), and no line is added."""
    from embedlab.grading.exercise import LINE_WIDTH

    solved = run_solution(LESSON, solution_parameters(LESSON))
    long_line = ("With 16 heads I took the widest design whose every budget still fits, and one layer "
                 "more would break both memory and compute, so I stopped there.")
    assert len(long_line) > LINE_WIDTH
    first = DEFENCE.criteria[0].prompt
    ours = {**solved, "defence": solved["defence"].replace(first, f"{first}\n{long_line}", 1)}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        Exercise(LESSON).check("defence", ours)
    shown = out.getvalue().split("As your instructor will read it:\n", 1)[1].rstrip("\n").split("\n")
    written = [line.rstrip() for line in DEFENCE.to_data(ours["defence"])["text"].split("\n")]
    assert long_line in shown
    assert shown == written


# --------------------------------------------------------------------------
# manual.csv: read, merged, refused


def rows_of(learner, status=TO_MARK, text="Compute binds at 86 %.", extra=True):
    sub = f"{learner}/{LESSON}.ipynb"
    out = [Row(sub, LESSON, "defence", 0.0, 6.0, status, "written: 4 words", learner, text=text)]
    if extra:
        out.insert(0, Row(sub, LESSON, "design", 3.0, 3.0, CORRECT, "", learner, shown='{"vocab_size": 64000}'))
    return out


SHEET_HEAD = '"learner","question","criterion","max_points","level","points","comment"\n'


def write_sheet(folder: Path, body: str) -> Path:
    path = manual.sheet_path(folder, LESSON)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SHEET_HEAD + body, encoding="utf-8")
    return path


GOOD = ('"ada","defence","binding","2","2","","all three fractions"\n'
        '"ada","defence","shape","2","","1.5","L argued; d not"\n'
        '"ada","defence","tying","2","1","1",""\n'
        '"ben","defence","binding","2","0","",""\n')


def test_a_filled_sheet_is_merged_and_a_partial_one_leaves_the_answer_to_mark(tmp_path):
    write_sheet(tmp_path, GOOD)
    marks = manual.read_marks(tmp_path, {LESSON: ["ada", "ben", "cy"]})
    rows = manual.merge(rows_of("ada") + rows_of("ben") + rows_of("cy", NOT_ATTEMPTED, ""), marks)
    ada, ben, cy = (next(r for r in rows if r.learner == n and r.question == "defence") for n in ("ada", "ben", "cy"))
    assert (ada.status, ada.points) == (MARKED, 4.5)
    assert ada.criteria == (("binding", 2.0, 2.0, "all three fractions"), ("shape", 1.5, 2.0, "L argued; d not"),
                            ("tying", 1.0, 2.0, ""))
    assert (ben.status, ben.points) == (TO_MARK, 0.0)  # two criteria not marked yet
    assert (cy.status, cy.points) == (NOT_ATTEMPTED, 0.0)
    assert manual.merge(rows, marks) == rows  # merging again changes nothing: a rerun gives the same totals


def test_the_first_sheet_has_a_line_per_criterion_of_each_answer_to_mark_in_roster_order(tmp_path):
    rows = rows_of("cy") + rows_of("dee", NOT_ATTEMPTED, "") + rows_of("ada", text="<script>alert(1)</script>")
    manual.write_marking(tmp_path, rows)
    lines = manual.sheet_path(tmp_path, LESSON).read_text(encoding="utf-8").splitlines()
    assert lines[0] == SHEET_HEAD.strip()
    assert [line.split(",")[:3] for line in lines[1:]] == [[f'"{n}"', '"defence"', f'"{c.name}"']
                                                           for n in ("ada", "cy") for c in DEFENCE.criteria]
    page = (tmp_path / LESSON / manual.PAGE).read_text(encoding="utf-8")
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.index("1. ada") < page.index("2. cy") < page.index("3. dee")  # by name without roster or keys
    assert "0 points, nothing to mark" in page and "manual.csv lines 2, 3, 4" in page
    # the sheet is the instructor's once written: a second run leaves it as it is
    path = manual.sheet_path(tmp_path, LESSON)
    path.write_text(SHEET_HEAD + GOOD, encoding="utf-8")
    manual.write_marking(tmp_path, rows)
    assert path.read_text(encoding="utf-8") == SHEET_HEAD + GOOD


@pytest.mark.parametrize("line, field, words", [
    ('"zoe","defence","binding","2","1","",""', "learner", "'zoe' is not a learner"),
    ('"ben","essay","binding","2","1","",""', "question", "'essay' is not a written question"),
    ('"ben","defence","style","2","1","",""', "criterion", "'style' is not a criterion of defence"),
    ('"ben","defence","binding","2","","3",""', "points", "3 is over binding's maximum of 2"),
    ('"ben","defence","binding","2","","-1",""', "points", "must be 0 or more"),
    ('"ben","defence","binding","2","","two",""', "points", "'two' is not a number"),
    ('"ben","defence","binding","2","3","",""', "level", "'3' is not a level of binding (0 to 2)"),
    ('"ben","defence","binding","2","1","2",""', "points", "level 1 of binding gives 1"),
    ('"ada","defence","shape","2","1","",""', "criterion", "shape of ada is given twice (first on line 3)"),
])
def test_each_kind_of_bad_entry_is_refused_naming_file_line_and_field_and_the_file_is_untouched(
        tmp_path, line, field, words):
    body = GOOD.replace('"ben","defence","binding","2","0","",""\n', line + "\n")
    path = write_sheet(tmp_path, body)
    before = (path.read_bytes(), path.stat().st_mtime_ns)
    with pytest.raises(manual.ManualError) as refused:
        manual.read_marks(tmp_path, {LESSON: ["ada", "ben"]})
    assert f"manual.csv, line 5, field '{field}'" in str(refused.value) and words in str(refused.value)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


@pytest.fixture(scope="module")
def class_dir(tmp_path_factory):
    """A class of three: roster, keys of lesson 11 (the book's parameters for each variant: the refusal
    happens before any notebook runs), and one submission."""
    home = tmp_path_factory.mktemp("written")
    (home / "roster.csv").write_text("learner,canvas_id\nada,101\nben,102\ncy,103\n", encoding="utf-8")
    write_lesson_keys(home / KEYS_DIR, LESSON, 1, {"ada": 0, "ben": 0, "cy": 0}, {0: (l11.DEFAULTS, {})})
    (home / "subs" / "ada").mkdir(parents=True)
    nbformat.write(notebook("exercises", LESSON), home / "subs" / "ada" / f"{LESSON}.ipynb")
    return home


def grade(home: Path, *extra: str) -> subprocess.CompletedProcess:
    argv = [str(BIN / "embedlab-grade"), "subs", "--keys", KEYS_DIR, "--roster", "roster.csv", "--out", "scores.csv",
            "--totals", "totals.csv", "--report", "report.html", *extra]
    return subprocess.run(argv, cwd=home, capture_output=True, text=True, timeout=120)


def test_embedlab_grade_refuses_a_bad_sheet_before_grading_and_writes_nothing(class_dir):
    path = write_sheet(class_dir / "marks", GOOD + '"ben","defence","shape","2","","9",""\n')
    before = path.read_bytes()
    done = grade(class_dir, "--manual", "marks")
    assert done.returncode == 2, done.stderr
    assert "--manual:" in done.stderr and "manual.csv, line 6, field 'points'" in done.stderr
    assert not any((class_dir / name).exists() for name in ("scores.csv", "totals.csv", "report.html"))
    assert path.read_bytes() == before
    assert not (class_dir / "marks" / LESSON / manual.PAGE).exists()  # no marking page either
    done = subprocess.run([str(BIN / "embedlab-grade"), "subs", "--manual", "marks", "--out", "x.csv"],
                          cwd=class_dir, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--manual needs --keys" in done.stderr


# --------------------------------------------------------------------------
# Error carried forward


def weights_in_bf16(namespace: dict) -> float:
    """The serving figure of a learner who served the weights in bf16, not the job's int4 (a usual slip)."""
    f = l11.design_figures(namespace["design"], namespace["BUDGET"])
    return 2 / bytes_per_param(namespace["BUDGET"].weights) * f.weights_gb + f.kv_cache_gb


TIGHTEST_CELL = ('used = {"parameters": design_params / BUDGET.max_params,\n'
                 '        "memory": design_serving_gb / BUDGET.max_serving_gb,\n'
                 '        "compute": design_train_flops / BUDGET.max_train_flops}\n'
                 "tightest_budget = max(used, key=used.get)\n")


def test_lesson_11_carries_a_wrong_serving_figure_into_a_right_budget_answer():
    namespace = run_solution(LESSON, solution_parameters(LESSON))
    assert namespace["tightest_budget"] == "compute"
    namespace["design_serving_gb"] = weights_in_bf16(namespace)  # off: the weights as if in bf16
    exec(compile(TIGHTEST_CELL, "<cell>", "exec"), namespace)  # noqa: S102 - the learner's cell, as the solution's
    assert namespace["tightest_budget"] == "memory"  # right from their own figures, wrong on the recount
    status, detail = grader_scoring(LESSON, "tightest_budget", namespace, TIGHTEST_CELL)
    assert status == CORRECT and detail.startswith("judged on your own figure for `design_serving_gb`"), detail
    assert "another uses more" in detail  # the recount's words kept, for the policy and the learner
    serving, _ = grader_scoring(LESSON, "design_serving_gb", namespace, "design_serving_gb = 0\n")
    assert serving == INCORRECT  # the earlier figure itself still loses its point
    # right from nothing: "parameters" is right neither on the recount nor on their figures
    namespace["tightest_budget"] = "parameters"
    assert grader_scoring(LESSON, "tightest_budget", namespace, 'tightest_budget = "parameters"\n')[0] == INCORRECT
    # typed, a word is not worked out from anything: not carried
    namespace["tightest_budget"] = "memory"
    assert grader_scoring(LESSON, "tightest_budget", namespace, 'tightest_budget = "memory"\n')[0] == INCORRECT


def test_a_figure_off_that_moves_no_budget_is_judged_on_the_learners_figures_on_other_inputs_too():
    """Question 5's other inputs (a budget grown until two nearly tie) are judged on the learner's own
    figures as well: a serving figure 2 % off that still leaves compute binding is not refused there."""
    namespace = run_solution(LESSON, solution_parameters(LESSON))
    namespace["design_serving_gb"] *= 0.98  # 2 % low: memory stays below compute
    exec(compile(TIGHTEST_CELL, "<cell>", "exec"), namespace)  # noqa: S102
    assert namespace["tightest_budget"] == "compute"
    namespace["_ih"] = ["", TIGHTEST_CELL]
    assert grader_scoring(LESSON, "tightest_budget", namespace, TIGHTEST_CELL) == (CORRECT, "")


def test_lesson_11_carries_a_wrong_count_into_the_other_tying():
    namespace = run_solution(LESSON, solution_parameters(LESSON))
    design = namespace["design"]
    table = design["vocab_size"] * design["hidden_size"]
    namespace["design_params"] = namespace["design_params"] - table  # off: the table left out
    cell = "other_tying_params = design_params + design['vocab_size'] * design['hidden_size']\n"
    exec(compile(cell, "<cell>", "exec"), namespace)  # noqa: S102
    status, detail = grader_scoring(LESSON, "other_tying_params", namespace, cell)
    assert status == CORRECT and detail.startswith("judged on your own figure for `design_params`"), detail
    # the same value from a cell that never reads design_params (the design counted as it is): a
    # coincidence, not a figure carried; it gets its own hint
    namespace["other_tying_params"] = namespace["design_params"] + table
    alone = "other_tying_params = count_params(design).total\n"
    status, detail = grader_scoring(LESSON, "other_tying_params", namespace, alone)
    assert status == INCORRECT and "flip tie_word_embeddings" in detail, detail


def test_every_answer_that_reads_an_earlier_answer_declares_it():
    """Generalised: in every solution, an answer cell that reads another question's answer is a question
    that `carries` it (judged on the learner's value), and lesson 11's budget questions are among them."""
    undeclared, declared = [], 0
    for lesson in known_lessons():
        questions = {q.name: q for q in questions_for(lesson)}
        for cell in notebook("solutions", lesson).cells:
            if cell.cell_type != "code" or "BEGIN SOLUTION" not in cell.source:
                continue
            tree = ast.parse(cell.source)
            stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            for name in stored & set(questions):
                for earlier in sorted((read & set(questions)) - stored):
                    if earlier in getattr(questions[name], "carries", ()):
                        declared += 1
                    else:
                        undeclared.append((lesson, name, earlier))
    assert not undeclared
    assert declared >= 7  # lesson 11: design in questions 2 to 6, the three figures in question 5
    assert set(questions_for(LESSON)[4].carries) >= {"design_params", "design_serving_gb", "design_train_flops"}


def carried_rows():
    sub = f"ben/{LESSON}.ipynb"
    return carried.note([
        Row(sub, LESSON, "design", 0.0, 3.0, INCORRECT, "over budget", "ben"),
        Row(sub, LESSON, "design_params", 1.0, 1.0, CORRECT, "", "ben"),
        Row(sub, LESSON, "tightest_budget", 1.0, 1.0, CORRECT,
            "judged on your own figure for `design_serving_gb` (error carried forward); on the recounted "
            "figures: another uses more", "ben"),
        Row(sub, LESSON, "other_tying_params", 0.0, 1.0, INCORRECT, f"{TYPED}; right for your inputs", "ben"),
    ])


def test_a_right_answer_on_an_earlier_answer_that_lost_its_points_says_it_was_carried():
    rows = carried_rows()
    assert rows[1].detail.startswith("judged on your own figure for `design`")
    assert carried.count(rows) == {"design_params": 1, "tightest_budget": 1}
    html = manual.report_html(LESSON, rows)
    assert "Error carried forward" in html and "design_params 1, tightest_budget 1 (2 in all)" in html


def test_the_policy_switches_carrying_off_and_typed_values_on_per_lesson(tmp_path):
    policy = tmp_path / "policy.toml"
    policy.write_text(f'[lesson."{LESSON}"]\ncarry_forward = false\naccept_typed = true\n', encoding="utf-8")
    keys = {LESSON: type("K", (), {"learners": {"ben": 0}})()}
    loaded = load_policy(policy, None, keys)
    assert loaded.no_carry == {LESSON} and loaded.typed_ok == {LESSON}
    rows = carried.apply(carried_rows(), loaded.no_carry, loaded.typed_ok)
    assert [(r.question, r.points, r.status) for r in rows[1:]] == [
        ("design_params", 0.0, INCORRECT), ("tightest_budget", 0.0, INCORRECT), ("other_tying_params", 1.0, CORRECT)]
    assert rows[2].detail.startswith("another uses more; this lesson's policy judges it on the recounted figures")
    assert rows[3].detail == carried.TYPED_ACCEPTED
    assert carried.apply(carried_rows()) == carried_rows()  # by default: carried, and typed values refused
    policy.write_text(f'[lesson."{LESSON}"]\ncarry_forward = "no"\n', encoding="utf-8")
    with pytest.raises(PolicyError, match="policy.toml:2:.*carry_forward.*true or false"):
        load_policy(policy, None, keys)


# --------------------------------------------------------------------------
# The typed-value rule, visible before the deadline


def run_handout(nb, answers: dict) -> str:
    """The handout run as a learner runs it, cell by cell in one namespace with IPython's history (what
    the check reads the answer cell from), each answer cell's source replaced by `answers`; the output."""
    namespace, out = {"_ih": [""]}, io.StringIO()
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for name, source in answers.items():
            if cell is cell_before_check(nb, name):
                cell.source = source
        namespace["_ih"].append(cell.source)
        with contextlib.redirect_stdout(out):
            exec(compile(cell.source, "<cell>", "exec"), namespace)  # noqa: S102 - the handout, our own
    return out.getvalue()


def test_a_typed_value_is_warned_about_in_the_class_handouts_check():
    exercise = notebook("exercises", "01-toy-table")
    params = read_parameters(exercise.cells[parameters_cell(exercise)].source)
    nb = handout(exercise, "01-toy-table", "ada", 0, params)
    assert TYPED_RULE in nb.cells[1].source  # the handout's introduction states the rule
    solved = run_solution("01-toy-table", params)
    typed = run_handout(handout(exercise, "01-toy-table", "ada", 0, params),
                        {"n_params": f"n_params = {solved['n_params']}\n"})
    assert ("📝 n_params (1 point): answered, in the right form, but typed, not computed: the grader reruns "
            "this cell on other inputs") in " ".join(typed.split())
    computed = run_handout(handout(exercise, "01-toy-table", "ada", 0, params),
                           {"n_params": "n_params = len(words) * len(features)\n"})
    assert "typed, not computed" not in computed and "📝 n_params" in computed


def test_the_grader_says_typed_in_the_same_words_and_the_guides_state_the_rule():
    namespace = run_solution("01-toy-table", solution_parameters("01-toy-table"))
    source = f"n_params = {namespace['n_params']}\n"
    namespace["_ih"] = ["", source]  # IPython's history: the cell the looks run again
    status, detail = grader_scoring("01-toy-table", "n_params", namespace, source)
    assert status == INCORRECT and detail.startswith(TYPED), detail
    assert TYPED_WORDS.startswith(TYPED)
    for page in ("how-to-use.md", "grading.md"):
        text = " ".join((ROOT / "book" / page).read_text(encoding="utf-8").split())
        assert TYPED_RULE in text, page
        assert TYPED in text, page


def test_gradescope_leaves_written_work_to_its_own_rubric():
    """Gradescope runs the autograder per submission on its servers: the written answer is marked there by
    hand (a manually graded question with the notebook's rubric), so the autograder's score leaves it out."""
    from embedlab.grading.autograder import WRITTEN_NOTE, results_for

    results = results_for(rows_of("ada") + rows_of("dee", NOT_ATTEMPTED, "", extra=False), "", "visible")
    assert results["score"] == 3.0 and results["output"].startswith("3 / 3 points")
    defence = [t for t in results["tests"] if t["name"] == "defence"]
    assert [(t["score"], t["max_score"]) for t in defence] == [(0.0, 0.0), (0.0, 0.0)]
    assert all(t["output"].startswith(WRITTEN_NOTE) for t in defence)


def test_a_sheet_saved_by_a_spreadsheet_in_a_semicolon_locale_is_read(tmp_path):
    """Excel or LibreOffice in a `;` locale saves the sheet with `;` between fields and a decimal comma."""
    path = manual.sheet_path(tmp_path, LESSON)
    path.parent.mkdir(parents=True)
    path.write_text("learner;question;criterion;max_points;level;points;comment\n"
                    "ada;defence;binding;2;;1,5;close\nada;defence;shape;2;2;;\nada;defence;tying;2;0;;\n",
                    encoding="utf-8-sig")
    marks = manual.read_marks(tmp_path, {LESSON: ["ada"]})
    assert [(m.criterion, m.points, m.comment) for m in marks["ada", LESSON, "defence"]] == [
        ("binding", 1.5, "close"), ("shape", 2.0, ""), ("tying", 0.0, "")]


def test_the_binding_rubric_asks_for_every_budget_one_layer_more_breaks():
    """Question 5's fullest budget is not always the only one in the way of a bigger model: a design
    that fills two budgets nearly equally (a newcomer's, 99.33% of compute against 99.23% of memory)
    breaks both with one layer more, so relaxing the fullest alone buys nothing. The rubric's top
    level must therefore ask for every budget one layer more breaks, not for "the" one to relax."""
    from embedlab.sizing import design_figures, headroom, llama_config, over_budget
    design = llama_config(32_000, 1024, 30, 16, 4, 4096, True)
    assert not over_budget(design, l11.BUDGET)
    used = headroom(design_figures(design, l11.BUDGET), l11.BUDGET)
    fullest = max(used, key=used.get)
    deeper = {**design, "num_hidden_layers": design["num_hidden_layers"] + 1}
    broken = [reason.split(":")[0] for reason in over_budget(deeper, l11.BUDGET)]
    assert fullest in broken and len(broken) >= 2, broken   # the case exists
    binding = next(c for c in l11.DEFENCE.criteria if c.name == "binding")
    top = max(binding.levels, key=lambda level: level.points).words
    assert "every budget that one layer more would break" in top, top
    assert "every budget that one layer more would break" in binding.asks, binding.asks
    assert "relaxing it first" not in top, top
