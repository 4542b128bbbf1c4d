"""Run a lesson's solution in this process with a variant's parameters (no kernel, no grader):
the class-mode tests check that the notebook computes what its question module expects."""

from pathlib import Path

import nbformat

from embedlab.grading.variants import with_parameters

ROOT = Path(__file__).resolve().parent.parent


def run_solution(lesson: str, params: dict) -> dict:
    """The namespace left by the solution's code cells (check cells left out) with `params`."""
    nb = with_parameters(nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4), params)
    namespace = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and "ex.check" not in cell.source and "ex.summary" not in cell.source:
            exec(compile(cell.source, "<cell>", "exec"), namespace)  # noqa: S102 - our own solution
    return namespace
