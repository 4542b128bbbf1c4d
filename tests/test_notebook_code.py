"""The code of every notebook: lines that fit, and a setup cell that says what to install.

- No code line is wider than 88 columns (CONTRIBUTING): what fits in JupyterLab
  beside the file browser, and in the book's code boxes at 1,280 px without
  scrolling. Counted like printed outputs are (tests/test_output_width.py).
- Every notebook's setup cell starts with the import guard (tools/import_guard.py),
  the same in all of them: a notebook opened without `embedlab` (downloaded
  from the book, opened in Colab) stops with one line saying what to install,
  naming the repository once `_config.yml` has one, instead of a traceback.
"""

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from test_output_width import MAX_WIDTH, display_width

ROOT = Path(__file__).resolve().parent.parent

from tools_loader import load_tool  # noqa: E402

import_guard = load_tool("import_guard")

NOTEBOOKS = [p for folder in ("notebooks", "solutions", "exercises", "book") for p in sorted((ROOT / folder).glob("*.ipynb"))]


def wide_code_lines(notebook: Path) -> list[tuple[int, int, str]]:
    return [(index, display_width(line), line)
            for index, cell in enumerate(nbformat.read(notebook, as_version=4).cells) if cell.cell_type == "code"
            for line in cell.source.splitlines() if display_width(line) > MAX_WIDTH]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_code_lines_fit_in_88_columns(notebook):
    wide = wide_code_lines(notebook)
    assert not wide, (f"{notebook.parent.name}/{notebook.name}: {len(wide)} code lines wider than {MAX_WIDTH} "
                      "columns (break after a comma inside the brackets, split a long string in two):\n"
                      + "\n".join(f"  cells[{i}], {w} columns: {line[:100]}" for i, w, line in wide))


def test_the_width_check_sees_a_long_code_line(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("m" * 200),
                                         nbformat.v4.new_code_cell("x = 1\n" + "y = '" + "日" * 42 + "'")])
    nbformat.write(nb, tmp_path / "wide.ipynb")
    assert [(i, w) for i, w, _ in wide_code_lines(tmp_path / "wide.ipynb")] == [(1, 90)]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_the_setup_cell_starts_with_the_import_guard(notebook):
    setup = import_guard.setup_cell(nbformat.read(notebook, as_version=4)).source
    assert setup.startswith(import_guard.guard() + "\n"), (
        f"{notebook.parent.name}/{notebook.name}: the first code cell does not start with the import guard "
        "of tools/import_guard.py (run it, then tools/run_notebooks.py / tools/make_exercises.py)")


def run_without_embedlab(source: str) -> subprocess.CompletedProcess:
    """`source` run as a Jupyter kernel runs a cell (IPython), where `import embedlab` fails."""
    script = ("import sys\n"
              "sys.modules['embedlab'] = None   # import embedlab -> ModuleNotFoundError\n"
              "from IPython.core.interactiveshell import InteractiveShell\n"
              "result = InteractiveShell.instance().run_cell(sys.stdin.read())\n"
              "sys.exit(0 if result.success else 3)\n")
    return subprocess.run([sys.executable, "-c", script], input=source, capture_output=True, text=True,
                          timeout=60, cwd=ROOT)


def test_without_embedlab_the_setup_cell_prints_one_line_saying_what_to_install():
    nb = nbformat.read(ROOT / "notebooks" / "01-toy-table.ipynb", as_version=4)
    run = run_without_embedlab(import_guard.setup_cell(nb).source + "\nprint('the cell went on')")
    assert run.returncode == 3, run.stdout + run.stderr                 # the cell failed: Run All stops there
    assert run.stdout.strip().splitlines() == [import_guard.message("")], run.stdout + run.stderr
    assert "make lab" in run.stdout and "Traceback" not in run.stdout + run.stderr
    unguarded = run_without_embedlab(import_guard.strip_guard(import_guard.setup_cell(nb).source))
    assert "ModuleNotFoundError" in unguarded.stdout                    # what the guard replaces


def test_without_embedlab_every_later_cell_says_the_same_line_not_a_traceback():
    """Run All does not reliably stop at a first cell that fails at once, and a learner may press
    Shift+Enter on the next cell: every cell run after the guard's prints its one line, whatever the
    cell holds (seen red with the guard's input transformer left out: NameError tracebacks)."""
    nb = nbformat.read(ROOT / "notebooks" / "07-memory.ipynb", as_version=4)
    later = [c.source for c in nb.cells if c.cell_type == "code"][1:4] + ["import numpy as np\nnp.ones(3)"]
    script = ("import json, sys\n"
              "sys.modules['embedlab'] = None\n"
              "from IPython.core.interactiveshell import InteractiveShell\n"
              "shell = InteractiveShell.instance()\n"
              "for cell in json.loads(sys.stdin.read()):\n"
              "    result = shell.run_cell(cell)\n"
              "    print('<ok>' if result.success else '<failed>', flush=True)\n")
    cells = [import_guard.setup_cell(nb).source, *later]
    run = subprocess.run([sys.executable, "-c", script], input=json.dumps(cells), capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    lines = run.stdout.strip().splitlines()
    assert lines == [import_guard.message(""), "<failed>"] * len(cells), run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr and "NameError" not in run.stdout + run.stderr


def test_the_guard_names_the_repository_once_the_config_has_one(tmp_path):
    config = tmp_path / "_config.yml"
    config.write_text("title: x\nrepository:\n  url: https://github.com/example/embedding-lab\n  branch: main\n")
    url = import_guard.repository_url(config)
    assert url == "https://github.com/example/embedding-lab"
    assert "git clone https://github.com/example/embedding-lab, then run `make lab`" in import_guard.message(url)
    assert import_guard.message(url) in run_without_embedlab(import_guard.guard(url)).stdout
    assert import_guard.repository_url(ROOT / "_config.yml") or "clone the Embedding Lab course" in import_guard.guard()
    source = "import numpy as np"
    assert import_guard.strip_guard(import_guard.with_guard(source, url)) == source
    assert import_guard.with_guard(import_guard.with_guard(source, ""), url) == import_guard.with_guard(source, url)


def figure_cells(notebook: Path):
    return [(i, c) for i, c in enumerate(nbformat.read(notebook, as_version=4).cells) if c.cell_type == "code"
            and any("image/png" in o.get("data", {}) or "image/svg+xml" in o.get("data", {}) for o in c.outputs)]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_figure_has_alt_text_and_a_caption(notebook):
    """A figure's cell carries, in its metadata (myst-nb's `mystnb`), alt text saying what the
    figure shows in a sentence and a caption; the book shows both (not the image's file path)."""
    missing = []
    for index, cell in figure_cells(notebook):
        meta = cell.metadata.get("mystnb", {})
        alt = meta.get("image", {}).get("alt", "")
        caption = meta.get("figure", {}).get("caption", "")
        if len(alt.split()) < 8 or alt.endswith((".png", ".svg")) or not caption.strip():
            missing.append(index)
    assert not missing, (f"{notebook.parent.name}/{notebook.name}: figure cells {missing} need metadata "
                         '{"mystnb": {"image": {"alt": "what it shows"}, "figure": {"caption": "..."}}}')


def test_widget_ids_are_renumbered_the_same_whatever_the_random_ids_were():
    """tools/run_notebooks.py renumbers widget model ids so that regenerating a widget lesson gives
    the same file: the numbering follows the views in the cells and each model's references, never the
    random ids' own order (which made an unchanged lesson 07 differ by 422 lines on every run)."""
    import uuid

    run_notebooks = load_tool("run_notebooks")

    def notebook_with(ids):
        box, slider, layout_a, layout_b, style = ids
        def model(name, **state):
            return {"model_name": name, "model_module": "@jupyter-widgets/controls", "state": state}
        state = {
            box: model("VBoxModel", children=[f"IPY_MODEL_{slider}"], layout=f"IPY_MODEL_{layout_a}"),
            slider: model("IntSliderModel", value=3, layout=f"IPY_MODEL_{layout_b}", style=f"IPY_MODEL_{style}"),
            layout_a: model("LayoutModel", width="auto"),
            layout_b: model("LayoutModel", width="50%"),
            style: model("SliderStyleModel", description_width=""),
        }
        nb = nbformat.v4.new_notebook()
        cell = nbformat.v4.new_code_cell("w")
        cell.id = "widget-cell"
        cell.outputs = [nbformat.v4.new_output("display_data", data={
            "application/vnd.jupyter.widget-view+json": {"model_id": box, "version_major": 2, "version_minor": 0},
            "text/plain": "VBox(...)"})]
        nb.cells = [cell]
        nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": state, "version_major": 2,
                                                                                  "version_minor": 0}}
        return nb

    written = {nbformat.writes(run_notebooks.renumber_widget_ids(notebook_with([uuid.uuid4().hex for _ in range(5)])))
               for _ in range(8)}
    assert len(written) == 1, "the same widgets with other random ids were numbered differently"
    text = written.pop()
    assert '"model_id": "00000000000000000000000000000001"' in text   # the view in the cell comes first
