"""Lesson 11's exercise has many right answers: the checks test the constraints, not one value.

The Design question kind is tested on its own first (plain data in, problems
out), then the course's grader (`embedlab-grade`) grades, in one run, a copy of
the solution with a second, different valid design, and copies that break a
budget or misreport a figure. (The solution itself, full marks, and the blank
exercise, zero: tests/test_grade_lessons.py[11-size-a-model], not graded again here.)
"""

import csv
import json
from pathlib import Path

import nbformat
import numpy as np
import pytest

from embedlab.grading import cli as grade
from embedlab.grading.exercise import Exercise
from embedlab.grading.kept import GRADES_ENV
from embedlab.grading.kinds import Design, WrongForm, answer_of
from embedlab.grading.lessons import questions_for
from embedlab.grading.status import CORRECT, INCORRECT, NOT_ATTEMPTED
from embedlab.grading.questions.l11 import BUDGET
from embedlab.params import count_params
from embedlab.sizing import design_figures, llama_config, over_budget

ROOT = Path(__file__).resolve().parent.parent
LESSON = "11-size-a-model"
QUESTIONS = [q for q in questions_for(LESSON) if q.kind != "written"]  # the defence is marked by hand
TOTAL = sum(q.points for q in QUESTIONS)

SOLUTION_DESIGN = llama_config(64_000, 1024, 24, 16, 4, 4096, True)
SECOND_DESIGN = llama_config(32_000, 1280, 16, 20, 5, 5120, False)  # smaller V, wider, shallower, untied
OVER_MEMORY = llama_config(64_000, 1024, 24, 16, 16, 4096, True)  # no grouping: a 4x cache


def answers_for(design):
    """Everything a learner reports about `design`, computed with the calculators."""
    f = design_figures(design, BUDGET)
    used = {"parameters": f.params / BUDGET.max_params, "memory": f.serving_gb / BUDGET.max_serving_gb,
            "compute": f.train_flops / BUDGET.max_train_flops}
    flipped = {**design, "tie_word_embeddings": not design["tie_word_embeddings"]}
    return {"design": design, "design_params": f.params, "design_serving_gb": f.serving_gb,
            "design_train_flops": f.train_flops, "tightest_budget": max(used, key=used.get),
            "other_tying_params": count_params(flipped).total}


def verdicts(namespace):
    ex = Exercise(LESSON)
    return {q.name: ex.verdict(q.name, namespace) for q in QUESTIONS}


# --------------------------------------------------------------------------
# The Design kind, in the notebook (no grader)


def test_both_designs_are_valid_and_different():
    assert over_budget(SOLUTION_DESIGN, BUDGET) == over_budget(SECOND_DESIGN, BUDGET) == []
    assert SOLUTION_DESIGN != SECOND_DESIGN
    assert design_figures(SOLUTION_DESIGN, BUDGET).params != design_figures(SECOND_DESIGN, BUDGET).params


@pytest.mark.parametrize("design", [SOLUTION_DESIGN, SECOND_DESIGN], ids=["solution", "second"])
def test_any_valid_design_with_its_own_figures_is_correct(design):
    got = verdicts(answers_for(design))
    assert {name: v.status for name, v in got.items()} == {q.name: CORRECT for q in QUESTIONS}


def test_figures_of_another_design_are_wrong():
    mixed = {**answers_for(SECOND_DESIGN), "design": SOLUTION_DESIGN}  # figures of one, design of the other
    got = verdicts(mixed)
    assert got["design"].status == CORRECT
    assert [name for name, v in got.items() if v.status == INCORRECT] == [
        "design_params", "design_serving_gb", "design_train_flops", "other_tying_params"]


KV_FIX = ("; most of it is the KV cache, one key and one value vector per kv head per layer per token"
          ": num_kv_heads = 4 alone (query heads sharing a kv head) fits every budget")


def test_over_budget_design_fails_with_the_budget_and_numbers():
    got = verdicts(answers_for(OVER_MEMORY))
    assert got["design"].status == INCORRECT
    # the budget it breaks, in numbers, then the one field whose change alone fits (the cache is most of it)
    assert got["design"].detail == "memory: 0.23 GB weights + 0.81 GB KV cache = 1.04 GB > 0.5 GB" + KV_FIX
    # the figures are still its own: consistent, so correct
    assert all(got[q.name].status == CORRECT for q in QUESTIONS if q.name != "design")


def test_hints_for_common_mistakes():
    a = answers_for(SOLUTION_DESIGN)
    f = design_figures(SOLUTION_DESIGN, BUDGET)
    wrong = {
        "design_params": (a["design_params"] + 64_000 * 1024, "second V × d table"),
        "design_serving_gb": (f.weights_gb, "weights only"),
        "design_train_flops": (f.train_flops_6nd, "6·N·D"),
        "other_tying_params": (a["design_params"], "flip tie_word_embeddings"),
    }
    for name, (value, phrase) in wrong.items():
        v = verdicts({**a, name: value})[name]
        assert v.status == INCORRECT and phrase in v.detail, (name, v.detail)
    v = verdicts({**a, "design_params": float(a["design_params"])})["design_params"]
    assert v.status == INCORRECT and "int" in v.detail


def test_six_n_d_is_named_with_either_n_on_an_untied_design():
    """6·N·D is the rule of thumb whether N is lesson 06's N_mult (design_figures' train_flops_6nd) or every
    parameter (count_params(design).total): on an untied design the two differ by the input table, and
    either is the same slip (red once train_flops_6nd became N_mult, for the second reading)."""
    a = answers_for(SECOND_DESIGN)
    f = design_figures(SECOND_DESIGN, BUDGET)
    assert not SECOND_DESIGN["tie_word_embeddings"] and f.train_flops_6nd != 6 * f.params * BUDGET.train_tokens
    for value in (f.train_flops_6nd, 6 * f.params * BUDGET.train_tokens):
        v = verdicts({**a, "design_train_flops": value})["design_train_flops"]
        assert v.status == INCORRECT and "6·N·D" in v.detail, (value, v.detail)


def test_not_attempted_until_the_design_exists():
    got = verdicts({"design_params": 123})
    assert got["design"].status == NOT_ATTEMPTED
    assert got["design_params"].status == NOT_ATTEMPTED and "`design`" in got["design_params"].detail


def test_to_data_is_plain_json_and_refuses_objects():
    q = Design("d", rule=lambda answers: [], uses=("x",))
    value = answer_of(q, {"d": {"a": np.int64(3), "b": [np.float32(0.5), True, None]}, "x": "y"})
    assert q.to_data(value) == {"d": {"a": 3, "b": [0.5, True, None]}, "x": "y"}
    with pytest.raises(WrongForm):
        q.to_data(answer_of(q, {"d": object(), "x": 1}))
    with pytest.raises(WrongForm):
        q.to_data(answer_of(q, {"d": {1: 2}, "x": 1}))
    with pytest.raises(WrongForm):
        q.to_data(answer_of(q, {"d": list(range(5000)), "x": 1}))


# --------------------------------------------------------------------------
# The course's grader, one run over the solution, the blank and modified copies


def with_design(source_nb, design_source, **replace):
    """A copy of the solution whose design cell (and any other answer, by name) is rewritten."""
    nb = nbformat.from_dict(source_nb)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if "design = llama_config(" in cell.source:
            cell.source = design_source
        for name, line in replace.items():
            if f"\n{name} = " in cell.source:
                cell.source = "\n".join(line if ln.startswith(f"{name} = ") else ln for ln in cell.source.split("\n"))
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("capstone")
    solution = nbformat.read(ROOT / "solutions" / f"{LESSON}.ipynb", as_version=4)
    copies = {
        "second": with_design(solution, "design = llama_config(32_000, 1280, 16, 20, 5, 5120, False)"),
        "over": with_design(solution, "design = llama_config(64_000, 1024, 24, 16, 16, 4096, True)"),
        "misreported": with_design(solution, "design = llama_config(32_000, 1280, 16, 20, 5, 5120, False)",
                                   design_params="design_params = count_params(design).total - 1280 * 32_000"),
    }
    paths = []
    for name, nb in copies.items():
        path = tmp / f"{name}-{LESSON}.ipynb"
        nbformat.write(nb, path)
        paths.append(path)
    out = tmp / "scores.csv"
    with pytest.MonkeyPatch.context() as patch:  # honest notebooks: their judged rows kept by hash
        patch.setenv(GRADES_ENV, "1")           # (embedlab.grading.kept; a change to one is graded again)
        code = grade.main([str(p) for p in paths] + ["--out", str(out), "-q", "--cell-timeout", "20",
                                                      "--timeout", "120"])
    assert code == 0
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    table = {}
    for row in rows:
        table.setdefault(Path(row["submission"]).stem.replace(f"-{LESSON}", ""), {})[row["question"]] = row
    assert set(table) == set(copies)
    return table


def points(rows):
    return sum(float(r["points"]) for r in rows.values())


def test_grader_second_valid_design_full_marks(graded):
    assert points(graded["second"]) == TOTAL
    assert {r["status"] for name, r in graded["second"].items() if name != "defence"} == {"correct"}


def test_grader_over_budget_design_fails_with_a_helpful_detail(graded):
    rows = graded["over"]
    assert rows["design"]["status"] == "incorrect"
    assert rows["design"]["detail"] == "memory: 0.23 GB weights + 0.81 GB KV cache = 1.04 GB > 0.5 GB" + KV_FIX
    assert float(rows["design"]["max_points"]) == 3
    assert points(rows) == TOTAL - 3  # the design question lost; its figures are consistent with it


def test_grader_misreported_figure_fails_with_its_hint(graded):
    rows = graded["misreported"]
    assert rows["design"]["status"] == "correct"
    assert rows["design_params"]["status"] == "incorrect"
    assert rows["design_params"]["detail"] == "that leaves out the head: untied, it is a second V × d matrix"
    assert points(rows) == TOTAL - 1


def test_huge_integers_are_refused_in_the_kernel_not_in_the_grader():
    q = Design("d", rule=lambda answers: [])
    with pytest.raises(WrongForm, match="10\\*\\*30"):
        q.to_data({"vocab_size": 10**5000})
    # one that fits in JSON but not in memory arithmetic is a reason, not a crash
    got = verdicts({**answers_for(SOLUTION_DESIGN), "design": {**SOLUTION_DESIGN, "vocab_size": 10**29}})
    assert got["design"].status == INCORRECT


def test_the_exercise_writes_the_job_itself_and_it_is_the_one_the_checks_use():
    """The job is built from the parameters cell by the exercise's own cells (class mode swaps
    that cell), none of which imports the question module."""
    nb = nbformat.read(ROOT / "exercises" / f"{LESSON}.ipynb", as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"
            and "remove-cell" not in c.metadata.get("tags", [])]  # the hidden course cell is not the exercise's
    upto = next(i for i, source in enumerate(code) if "BUDGET = Budget(" in source)
    assert upto <= 2  # the imports, the parameters, the job
    namespace = {}
    for source in code[:upto + 1]:
        assert "questions" not in source  # the learner's cells do not import the question module
        exec(source, namespace)
    assert namespace["BUDGET"] == BUDGET


def test_the_exercise_says_what_the_rule_does_with_a_design_over_budget():
    # the rule: an over-budget design loses question 1 only (test_over_budget_design_fails_...)
    intro = nbformat.read(ROOT / "exercises" / f"{LESSON}.ipynb", as_version=4).cells[0].source
    assert "a design over budget loses\nquestion 1's 3 points, and figures that are right for it still earn theirs" in intro
    design_points = next(q.points for q in QUESTIONS if q.name == "design")
    assert design_points == 3


def test_explain_shows_what_was_expected_of_the_learners_own_design(tmp_path, capsys):
    """issue 45, item 6: --explain on lesson 11 showed the course solution's figures as "expected" while
    each figure is judged against the learner's own design; a regrade needs the value for *their* design.
    Every figure's expected value is the one for their design, and the solution's never shows as expected."""
    solution = nbformat.read(ROOT / "solutions" / f"{LESSON}.ipynb", as_version=4)
    nb = with_design(solution, "design = llama_config(32_000, 1280, 16, 20, 5, 5120, False)",
                     design_params="design_params = count_params(design).total - 1280 * 32_000")
    path = tmp_path / f"misreported-{LESSON}.ipynb"
    nbformat.write(nb, path)
    assert grade.main([str(path), "--explain", "-q", "--cell-timeout", "20", "--timeout", "120"]) == 0
    out = capsys.readouterr().out
    mine, book = answers_for(SECOND_DESIGN), answers_for(SOLUTION_DESIGN)
    for name in ("design_params", "design_serving_gb", "design_train_flops", "tightest_budget", "other_tying_params"):
        section = out.split(f"\n{name}:", 1)[1].split("\n\n", 1)[0]
        expected = [line for line in section.splitlines() if "expected" in line]
        assert len(expected) == 1 and expected[0].strip().startswith("expected for the learner's own design:"), section
        shown = mine[name] if isinstance(mine[name], str) else json.dumps(mine[name])
        assert expected[0].endswith(f": {shown}"), (name, expected)
        if mine[name] != book[name]:  # (both designs' tightest budget is compute)
            assert json.dumps(book[name]) not in section, (name, section)
    design = out.split("\ndesign:", 1)[1].split("\n\n", 1)[0]
    assert "expected: no single value" in design and "64000" not in design, design
