"""exercises/ and the answer keys are generated from solutions/: fail when they are stale.

Each test regenerates one lesson in memory (the exercise's sources, and the key from
the solution's answers) and compares it with the committed files. Outputs are not
compared here: nbval checks every stored output. The generator runs the solution in a
fresh kernel; here its code cells run in this process (its check cells left out, as
tests/solution_runner.py runs them), which computes the same answers without a kernel's
start and imports, and the answers are read by the generator's own probe and key code.
Fix a failure with `make exercises` (or `python tools/make_exercises.py NN-slug`);
the generator is embedlab.grading.generate.
"""

import json
from pathlib import Path

import matplotlib
import nbformat
import pytest

from embedlab.grading import generate as make_exercises
from embedlab.grading.kinds import Array, Real
from embedlab.grading.lessons import ANSWERS_DIR, decode_key, questions_for
from embedlab.grading.wire import probe

ROOT = Path(__file__).resolve().parent.parent

SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
FIX = "stale: run `make exercises LESSON={}` and commit the result"


def sources(nb):
    """What the generator decides: cell kinds, sources, tags and the lesson metadata."""
    cells = [(c.cell_type, c.source, tuple(c.get("metadata", {}).get("tags", []))) for c in nb.cells]
    return {"embedlab": dict(nb.metadata.get("embedlab", {})), "cells": cells}


def same_answer(question, new, old) -> bool:
    """Equal, or within the question's own tolerance (a float may differ in its last bits
    between machines; that is not staleness)."""
    if new == old:
        return True
    if isinstance(question, Real):
        return question.accepts(new, old)
    if isinstance(question, Array) and not question.exact:
        verdict = question.judge(new, old)
        return verdict.status == "correct"
    return False


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_exercise_matches_solution(solution):
    lesson = solution.stem
    committed = ROOT / "exercises" / f"{lesson}.ipynb"
    assert committed.exists(), f"exercises/{lesson}.ipynb is missing: " + FIX.format(lesson)
    fresh = make_exercises.make_exercise(nbformat.read(solution, as_version=4), lesson)
    assert sources(nbformat.read(committed, as_version=4)) == sources(fresh), FIX.format(lesson)


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_code_facts_match_the_exercise_and_solution(solution):
    """answers/NN-slug.code.json (the given lines and foreign inputs a grader without the notebooks
    reads: embedlab.grading.code.code_facts) is what the generator makes of them, and reads back as
    the notebooks give them."""
    from embedlab.grading import code

    lesson = solution.stem
    committed = ANSWERS_DIR / f"{lesson}.code.json"
    assert committed.exists(), f"{committed.name} is missing: " + FIX.format(lesson)
    nb = nbformat.read(solution, as_version=4)
    fresh = make_exercises.code_facts_json(make_exercises.make_exercise(nb, lesson), nb)
    assert committed.read_text(encoding="utf-8") == fresh, FIX.format(lesson)
    facts = json.loads(fresh)
    assert {k: (tuple(v[0]), tuple(v[1])) for k, v in facts["given"].items()} == code.given_code(lesson)
    assert {k: frozenset(v) for k, v in facts["foreign"].items()} == code.foreign_inputs(lesson)


def test_a_grader_without_the_notebooks_reads_the_code_facts(monkeypatch, tmp_path):
    """Installed without exercises/ and solutions/ (Gradescope's bundle), the grader still knows each
    question's given lines and foreign inputs, so it runs the same second look as the notebook check."""
    from embedlab.grading import code

    lesson = "03-counting-gpt2"
    readers = (code.given_code, code.foreign_inputs, code.solution_cells, code.solution_prefix)
    with_notebooks = tuple(f(lesson) for f in readers)
    monkeypatch.setattr(code, "EXERCISES", tmp_path / "exercises")
    monkeypatch.setattr(code, "SOLUTIONS", tmp_path / "solutions")
    for f in (*readers, code.code_facts):
        f.cache_clear()
    try:
        assert tuple(f(lesson) for f in readers) == with_notebooks
        assert "linear_in" in code.foreign_inputs(lesson)["block_params"]
        assert "# BEGIN SOLUTION" in code.solution_cells(lesson)["block_params"]
        monkeypatch.setattr(code, "CODE_FACTS", tmp_path / "answers")
        code.code_facts.cache_clear()
        assert all(f("04-modern-blocks") in ({}, ((), {})) for f in readers)
    finally:
        for f in (*readers, code.code_facts):
            f.cache_clear()


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_each_question_says_its_points_and_precision(solution):
    """The generator's standard line (points, how it is judged) ends every question's text,
    as the question module says it now."""
    lesson = solution.stem
    nb = nbformat.read(solution, as_version=4)
    questions = questions_for(lesson)
    assert sources(make_exercises.with_standard_lines(nb, questions)) == sources(nb), FIX.format(lesson)
    cells = make_exercises.question_cells(nb, questions)
    assert set(cells) == {q.name for q in questions}
    for q in questions:
        assert make_exercises.standard_line(q) in nb.cells[cells[q.name]].source


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_solution_metadata_names_its_lesson(solution):
    nb = nbformat.read(solution, as_version=4)
    assert nb.metadata.get("embedlab") == {"lesson": solution.stem, "kind": "solution"}, FIX.format(solution.stem)


def harvest_here(solution: Path, lesson: str) -> dict:
    """make_exercises.harvest_key's key, its solution run in this process: every code cell but the
    checks and the summary, from the solutions folder as the kernel runs it; the probe's entries
    pass through JSON as they do on their way out of a kernel."""
    namespace = {}
    backend = matplotlib.get_backend()
    matplotlib.use("Agg")  # plt.show() draws nothing here
    try:
        for cell in nbformat.read(solution, as_version=4).cells:
            if cell.cell_type == "code" and "ex.check" not in cell.source and "ex.summary" not in cell.source:
                exec(compile(cell.source, f"<{lesson}>", "exec"), namespace)  # noqa: S102 - our own solution
    finally:
        matplotlib.pyplot.close("all")
        matplotlib.use(backend)
    return make_exercises.key_of(lesson, json.loads(json.dumps(probe(lesson, namespace, functions=False))))


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_answer_key_matches_solution(solution, monkeypatch):
    lesson = solution.stem
    key_file = ANSWERS_DIR / f"{lesson}.key"
    assert key_file.exists(), f"{key_file.name} is missing: " + FIX.format(lesson)
    committed = decode_key(key_file.read_text())
    monkeypatch.chdir(solution.parent)
    fresh = harvest_here(solution, lesson)
    assert sorted(committed) == sorted(fresh), FIX.format(lesson)
    questions = {q.name: q for q in questions_for(lesson)}
    stale = [name for name in fresh if not same_answer(questions[name], fresh[name], committed[name])]
    assert not stale, f"answers {stale} changed: " + FIX.format(lesson)


def test_no_orphans():
    """Every exercise and key belongs to a solution (a renamed lesson leaves none behind)."""
    lessons = {p.stem for p in SOLUTIONS}
    assert {p.stem for p in (ROOT / "exercises").glob("*.ipynb")} <= lessons
    assert {p.stem for p in ANSWERS_DIR.glob("*.key")} <= lessons


def _names_in_scope(source: str) -> set:
    """The names a code cell imports, defines or assigns (what a later question may call)."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _functions_a_text_names(text: str) -> set:
    """The course's functions a question's text names in code (`name` or `name(...)`)."""
    import re

    import embedlab

    public = {n for n in dir(embedlab) if not n.startswith("_") and callable(getattr(embedlab, n))}
    return {m for m in re.findall(r"`([A-Za-z_]\w*)(?:\(|`)", text) if m in public}


@pytest.mark.parametrize("exercise", sorted((ROOT / "exercises").glob("*.ipynb")), ids=lambda p: p.stem[:2])
def test_every_function_a_question_names_is_in_scope_where_it_is_asked(exercise):
    """A question that says "use `forward_flops` to check" must hand the learner `forward_flops`: exercise 06
    named it and never imported it, so a right answer with the check line raised NameError (newcomer O).
    Each course function a question's text names is imported or defined in a code cell above the question or
    in its own answer cell (a function the learner writes there)."""
    cells = nbformat.read(exercise, as_version=4).cells
    in_scope, missing = set(), []
    for i, cell in enumerate(cells):
        if cell.cell_type == "code":
            in_scope |= _names_in_scope(cell.source)
            continue
        upto_answer = next((c for c in cells[i + 1:] if c.cell_type == "code"), None)
        here = in_scope | (_names_in_scope(upto_answer.source) if upto_answer else set())
        missing += [f"cell {i}: `{name}`" for name in sorted(_functions_a_text_names(cell.source) - here)]
    assert not missing, f"{exercise.name} names functions the learner does not have there: {missing}"
