"""A "Try it" that says "another model" must run for every model the course ships.

Lesson 07's cache-against-weights cell invites the learner to set `model` to any
shipped config. The cell is run here, as the notebook holds it, once per model in
`available_models()`: it must finish without an error and print lines that fit the page.
"""

import contextlib
import io
import json
from pathlib import Path

import matplotlib
import pytest

from embedlab.params import available_models

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
MARK = "# Try it below: another model"


def _cells(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]


def _another_model_cells():
    """(notebook, setup source, the cell's source) for each cell marked MARK."""
    found = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        code = _cells(path)
        setup = next(s for s in code if "from embedlab import" in s)
        found += [(path.name, setup, s) for s in code if MARK in s]
    return found


CELLS = _another_model_cells()


def test_lesson_07_has_the_cell():
    assert any(name.startswith("07-") for name, _, _ in CELLS)


@pytest.mark.parametrize("model", available_models())
@pytest.mark.parametrize("name,setup,source", CELLS, ids=[c[0] for c in CELLS])
def test_the_cell_runs_for_every_shipped_model(name, setup, source, model):
    import matplotlib.pyplot as plt

    first, rest = source.split("\n", 1)
    assert first.startswith("model = ") and MARK in first, first
    namespace = {}
    exec(compile(setup, f"{name}:setup", "exec"), namespace)
    namespace["model"] = namespace["load_config"](model)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(rest, f"{name}:try-it", "exec"), namespace)
    plt.close("all")
    lines = out.getvalue().splitlines()
    assert lines, f"{model}: the cell printed nothing"
    assert all(len(line) <= 88 for line in lines), [l for l in lines if len(l) > 88]
