"""Generate exercises/ and the answer keys from solutions/, the only source.

    make exercises                                  # every solutions/*.ipynb
    make exercises LESSON=01-toy-table              # or: python tools/make_exercises.py 01-toy-table

For each lesson NN-slug:

1. the solution runs in a fresh kernel; the value of every non-function
   question of ``embedlab.grading.questions.lNN`` is read from the kernel's
   namespace by the grader's own probe (embedlab.grading.wire) and written,
   encoded, to ``lib/embedlab/grading/answers/NN-slug.key``;
2. ``exercises/NN-slug.ipynb`` is written from the solution: every
   ``# BEGIN SOLUTION`` … ``# END SOLUTION`` block becomes ``# YOUR CODE HERE``
   (plus ``raise NotImplementedError()`` inside a function body), cells tagged
   ``solution-only`` are dropped, and the notebook metadata says which lesson
   and kind it is;
3. under each question's text (the markdown cell before its answer cell) one
   standard line says what the question is worth and how it is judged,
   derived from the question module (``standard_line``); it is written into
   the solution too, and replaced, never duplicated, on every run;
4. both notebooks are re-executed and normalized by a runner (the command
   line's is tools/run_notebooks.py, which tools/make_exercises.py passes in),
   so the solution's stored checks show ✅ and the blank exercise's show ⏳.

tests/test_exercises_in_sync.py regenerates steps 1-2 into memory and fails
when the committed exercise or key differs.
"""

from __future__ import annotations

import argparse
import copy
import re
import sys
from pathlib import Path

import nbformat

from embedlab.grading.kinds import Function, expected_value, points_text
from embedlab.grading import code
from embedlab.grading.lessons import ANSWERS_DIR, encode_key, questions_for
from embedlab.grading.variants import VariantError, check_parameters_cell
from embedlab.grading.wire import DATA, MISSING, probe_cell, probe_result

HARVEST_CELL_TIMEOUT = 600  # seconds per cell of a solution (some train a small model)

BEGIN = re.compile(r"^(?P<indent>[ \t]*)#+ *BEGIN SOLUTION *$")
END = re.compile(r"^[ \t]*#+ *END SOLUTION *$")
DROP_TAG = "solution-only"
LESSON_NAME = re.compile(r"^\d\d-[a-z0-9][a-z0-9-]*$")
STANDARD_LINE = re.compile(r"^\*\*\d+(?:\.\d+)? points?\*\* · .*$")  # the generator's own line, to replace


class AuthoringError(ValueError):
    """A solution notebook breaks the authoring contract (see CONTRIBUTING.md, Exercises)."""


# --------------------------------------------------------------------------
# Solution -> exercise (pure text work, no kernel)


def strip_solution(source: str, where: str = "cell") -> str:
    """Replace every marked block by a `# YOUR CODE HERE` stub at the block's indentation.

    Inside a function body (an indented block) the stub also raises
    NotImplementedError, so the function still has a body and the check
    reports "not attempted" rather than a wrong answer.
    """
    out: list[str] = []
    indent = None  # indentation of the open block, None outside one
    for number, line in enumerate(source.split("\n"), start=1):
        begin, end = BEGIN.match(line), END.match(line)
        if begin:
            if indent is not None:
                raise AuthoringError(f"{where}, line {number}: BEGIN SOLUTION inside another solution block")
            indent = begin.group("indent")
            out.append(f"{indent}# YOUR CODE HERE")
            if indent:
                out.append(f"{indent}raise NotImplementedError()")
        elif end:
            if indent is None:
                raise AuthoringError(f"{where}, line {number}: END SOLUTION without a BEGIN SOLUTION")
            indent = None
        elif indent is None:
            out.append(line)
    if indent is not None:
        raise AuthoringError(f"{where}: BEGIN SOLUTION is never closed by END SOLUTION")
    return "\n".join(out)


def has_solution(source: str) -> bool:
    return any(BEGIN.match(line) for line in source.split("\n"))


def set_lesson_metadata(nb, lesson: str, kind: str) -> None:
    nb.metadata["embedlab"] = {"lesson": lesson, "kind": kind}


def make_exercise(solution, lesson: str):
    """The exercise notebook (sources only, no outputs) generated from a solution notebook."""
    nb = copy.deepcopy(solution)
    cells = []
    for index, cell in enumerate(nb.cells):
        if DROP_TAG in cell.get("metadata", {}).get("tags", []):
            continue
        if cell.cell_type == "code":
            cell.source = strip_solution(cell.source, where=f"{lesson} cell {index + 1}")
            cell.outputs = []
            cell.execution_count = None
        elif cell.cell_type == "markdown" and not cells:
            cell.source = _exercise_title(cell.source)
        cells.append(cell)
    nb.cells = cells
    set_lesson_metadata(nb, lesson, "exercise")
    return nb


def _exercise_title(source: str) -> str:
    """'# 01 · Toy table: solution' -> '# 01 · Toy table: exercise' (the first heading only)."""
    lines = source.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("# "):
            lines[i] = line.replace("Solutions", "Exercises").replace("Solution", "Exercise").replace("solution", "exercise")
            break
    return "\n".join(lines)


def standard_line(question) -> str:
    """'**1 point** · compute it in code: the check wants it exact (to 1 part in 10⁹)'."""
    return f"**{points_text(question.points)}** · {question.statement()}"


def question_cells(nb, questions) -> dict:
    """{question name: index of its markdown cell}: the last markdown cell before its check cell
    that the exercise keeps (a solution's own reasoning, tagged solution-only, is not the question)."""
    found = {}
    for q in questions:
        pattern = re.compile(rf"""\.check\(\s*["']{re.escape(q.name)}["']""")
        check = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code" and pattern.search(c.source)), None)
        if check is None:
            continue
        text = next((i for i in range(check - 1, -1, -1) if nb.cells[i].cell_type == "markdown"
                     and DROP_TAG not in nb.cells[i].get("metadata", {}).get("tags", [])), None)
        if text is not None:
            found[q.name] = text
    return found


def with_standard_lines(nb, questions):
    """A copy of `nb` whose question cells end with their standard line (points, how judged).
    Idempotent: a previous standard line is replaced. Two questions under one markdown cell
    get a paragraph each, in question order, naming their question."""
    nb = copy.deepcopy(nb)
    by_cell: dict[int, list] = {}
    for q in questions:
        index = question_cells(nb, [q]).get(q.name)
        if index is not None:
            by_cell.setdefault(index, []).append(q)
    for index, qs in by_cell.items():
        cell = nb.cells[index]
        lines = cell.source.split("\n")
        while lines and (not lines[-1].strip() or STANDARD_LINE.match(lines[-1])):
            lines.pop()  # blank lines and this generator's previous lines
        ours = [standard_line(q) + (f" (`{q.name}`)" if len(qs) > 1 else "") for q in qs]
        cell.source = "\n\n".join(["\n".join(lines)] + ours)
    return nb


def check_contract(solution, lesson: str, questions) -> None:
    """Fail early, naming the cell, when the solution cannot make a working exercise."""
    code = [c.source for c in solution.cells if c.cell_type == "code"]
    if not any(has_solution(s) for s in code):
        raise AuthoringError(f"{lesson}: no '# BEGIN SOLUTION' block in any code cell")
    for index, cell in enumerate(solution.cells):
        if cell.cell_type == "code":
            strip_solution(cell.source, where=f"{lesson} cell {index + 1}")  # raises on bad markers
    text = "\n".join(code)
    for q in questions:
        if not re.search(rf"""\.check\(\s*["']{re.escape(q.name)}["']""", text):
            raise AuthoringError(f"{lesson}: question {q.name!r} has no check cell ex.check({q.name!r})")


# --------------------------------------------------------------------------
# Solution -> answer key (runs the solution in a fresh kernel)

def execute(nb, cwd: Path):
    """Run a notebook in place in a fresh kernel of this Python (as nbval's --nbval-current-env does)."""
    from jupyter_client.manager import AsyncKernelManager
    from jupyter_core.utils import run_sync
    from nbclient import NotebookClient
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

    km = AsyncKernelManager(kernel_name=CURRENT_ENV_KERNEL_NAME, kernel_spec_manager=NbvalKernelspecManager())
    client = NotebookClient(nb, km=km, timeout=HARVEST_CELL_TIMEOUT, record_timing=False,
                            resources={"metadata": {"path": str(cwd)}})
    try:
        client.execute(cwd=str(cwd))
    finally:
        # nbclient leaves a kernel manager it was given running: stop the kernel here, or
        # every harvest leaves a kernel alive until this process exits.
        if km.has_kernel:
            run_sync(km.shutdown_kernel)(now=True)
    return nb


def harvest_key(solution_path: Path, lesson: str) -> dict:
    """Run the solution in a fresh kernel and read every non-function answer, in key format."""
    questions = questions_for(lesson)
    nb = nbformat.read(solution_path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(probe_cell(lesson, functions=False)))
    execute(nb, Path(solution_path).parent)
    harvested = probe_result(nb.cells[-1].outputs)
    if harvested is None:
        raise AuthoringError(f"{lesson}: the probe reported nothing (does the solution's kernel import embedlab?)")
    return key_of(lesson, harvested, questions)


def key_of(lesson: str, harvested: dict, questions=None) -> dict:
    """The answer key from the probe's {name: entry} (embedlab.grading.wire), function questions left out."""
    questions = questions_for(lesson) if questions is None else questions
    key = {}
    for q in questions:
        if isinstance(q, Function):
            continue
        got = harvested[q.name]
        if MISSING in got:
            raise AuthoringError(f"{lesson}: the solution never defines {q.name!r}")
        if DATA not in got:
            why = next(iter(got.values()))
            raise AuthoringError(f"{lesson}: the solution's {q.name!r} is not a valid {q.kind}: {why}")
        key[q.name] = expected_value(q, got[DATA])
    return key


# --------------------------------------------------------------------------


def lesson_of(path: Path) -> str:
    lesson = path.stem
    if not LESSON_NAME.match(lesson):
        raise AuthoringError(f"a solution must be named NN-slug.ipynb, got {path.name!r}")
    return lesson


def generate(solution_path: Path, runner, exercises_dir: Path | None = None, answers_dir: Path = ANSWERS_DIR,
             run_outputs: bool = True) -> tuple[Path, Path]:
    """Regenerate one lesson's key and exercise; with run_outputs, re-execute both notebooks.

    `runner` normalizes and re-executes notebooks: an object with `normalize(nb)`
    and `run(path)`, such as tools/run_notebooks.py (the command line passes it).
    The exercise goes to `exercises_dir` (default: the `exercises` folder next to `solutions`).
    """
    solution_path = Path(solution_path)
    exercises_dir = solution_path.resolve().parent.parent / "exercises" if exercises_dir is None else exercises_dir
    lesson = lesson_of(solution_path)
    solution = nbformat.read(solution_path, as_version=4)
    questions = questions_for(lesson)
    check_contract(solution, lesson, questions)
    try:
        check_parameters_cell(solution, lesson)
    except VariantError as exc:
        raise AuthoringError(str(exc)) from None
    updated = with_standard_lines(solution, questions)
    if updated.metadata.get("embedlab") != {"lesson": lesson, "kind": "solution"}:
        set_lesson_metadata(updated, lesson, "solution")
    if updated != solution:
        solution = updated
        solution_path.write_text(nbformat.writes(solution) + "\n", encoding="utf-8")

    key_file = Path(answers_dir) / f"{lesson}.key"
    key_file.parent.mkdir(parents=True, exist_ok=True)
    key_file.write_text(encode_key(harvest_key(solution_path, lesson)), encoding="utf-8")

    exercise_file = Path(exercises_dir) / f"{lesson}.ipynb"
    exercise_file.parent.mkdir(parents=True, exist_ok=True)
    exercise = runner.normalize(make_exercise(solution, lesson))
    exercise_file.write_text(nbformat.writes(exercise) + "\n", encoding="utf-8")
    (Path(answers_dir) / f"{lesson}.code.json").write_text(code_facts_json(exercise, solution), encoding="utf-8")

    if run_outputs:
        runner.run(solution_path)
        runner.run(exercise_file)
    return exercise_file, key_file


def code_facts_json(exercise, solution) -> str:
    """answers/NN-slug.code.json: the exercise's given lines per question, each answer's foreign
    inputs, the solution's answer cells and the cells above each (embedlab.grading.code), for a grader installed without the
    notebooks (Gradescope)."""
    import json

    cells = json.loads(nbformat.writes(exercise))["cells"]
    solved = json.loads(nbformat.writes(solution))["cells"]
    given = {k: [list(v[0]), list(v[1])] for k, v in sorted(code.given_code_of(cells).items())}
    foreign = {k: sorted(v) for k, v in sorted(code.foreign_inputs_of(cells, solved).items())}
    solution = dict(sorted(code.solution_cells_of(solved).items()))
    prefix_cells, upto = code.solution_prefix_of(solved)
    prefix = {"cells": [list(c) for c in prefix_cells], "upto": dict(sorted(upto.items()))}
    return json.dumps({"given": given, "foreign": foreign, "solution": solution, "prefix": prefix},
                      indent=1, sort_keys=True) + "\n"


def solution_paths(args: list[str], root: Path) -> list[Path]:
    """The solution notebooks named (NN-slug or a path), or every one in root/solutions."""
    solutions = Path(root) / "solutions"
    if not args:
        return sorted(solutions.glob("*.ipynb"))
    paths = []
    for arg in args:
        path = Path(arg)
        if path.suffix != ".ipynb":
            path = solutions / f"{arg}.ipynb"
        if not path.exists():
            raise SystemExit(f"no solution notebook {path}")
        paths.append(path)
    return paths


def main(argv, runner, root: Path) -> int:
    """The command line: tools/make_exercises.py calls it with tools/run_notebooks.py as the
    runner and the course folder as root."""
    parser = argparse.ArgumentParser(prog="make_exercises.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="NN-slug names or solution paths (default: every solution)")
    parser.add_argument("--no-run", action="store_true", help="write the exercise and key, skip re-executing outputs")
    args = parser.parse_args(argv)
    for path in solution_paths(args.lessons, root):
        try:
            exercise, key = generate(path, runner, Path(root) / "exercises", run_outputs=not args.no_run)
        except AuthoringError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        print(f"{path.stem}: {relative(exercise, root)}, {relative(key, root)}")
    return 0


def relative(path: Path, root: Path) -> str:
    path, root = Path(path).resolve(), Path(root).resolve()
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
