"""The tests' shared notebook helpers: a lesson's solution or exercise, its answer cells edited
(the grader's tests build hostile submissions this way), and the solution run in this process
with a variant's parameters (no kernel, no grader), so the class-mode tests check that the
notebook computes what its question module expects."""

from pathlib import Path

import nbformat
import numpy as np

from embedlab.grading.variants import parameters_cell, read_parameters, with_parameters

ROOT = Path(__file__).resolve().parent.parent


def notebook(folder: str, lesson: str):
    """solutions/ or exercises/ NN-slug.ipynb, read fresh (the caller may edit it)."""
    return nbformat.read(ROOT / folder / f"{lesson}.ipynb", as_version=4)


def answer_cell(nb, name):
    """The code cell that defines `name` (an assignment or a def)."""
    for cell in nb.cells:
        if cell.cell_type == "code" and any(
            line.startswith((f"{name} =", f"def {name}(")) for line in cell.source.split("\n")
        ):
            return cell
    raise LookupError(name)


def after_setup(nb, source):
    """A cell right after the setup cell (the one that creates `ex`)."""
    index = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and "Exercise(" in c.source)
    nb.cells.insert(index + 1, nbformat.v4.new_code_cell(source))
    return nb


def before(nb, name, source):
    """`source` run at the top of the cell that defines `name`."""
    cell = answer_cell(nb, name)
    cell.source = source + "\n" + cell.source
    return nb


def solution_parameters(lesson: str) -> dict:
    """The values in the solution's parameters cell (variant 0's, the book's)."""
    nb = notebook("solutions", lesson)
    return read_parameters(nb.cells[parameters_cell(nb)].source)


def run_solution(lesson: str, params: dict) -> dict:
    """The namespace left by the solution's code cells (check cells left out) with `params`."""
    nb = with_parameters(nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4), params)
    namespace = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and "ex.check" not in cell.source and "ex.summary" not in cell.source:
            exec(compile(cell.source, "<cell>", "exec"), namespace)  # noqa: S102 - our own solution
    return namespace


def assert_computes(lesson: str, params: dict, answers: dict) -> dict:
    """The solution run with `params` leaves exactly `answers` (the question module's); its namespace."""
    namespace = run_solution(lesson, params)
    for name, value in answers.items():
        got = namespace[name]
        assert np.shape(got) == np.shape(value) and np.array_equal(got, value), (lesson, name, got, value)
    return namespace
