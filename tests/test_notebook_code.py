"""The code of every notebook: lines that fit, and a setup cell that says what to install.

- No code line is wider than 88 columns (CONTRIBUTING): what fits in JupyterLab
  beside the file browser, and in the book's code boxes at 1,280 px without
  scrolling. Counted like printed outputs are (tests/test_output_width.py).
- Every notebook's first code cell is the course cell (tools/import_guard.py), the
  same in all of them and out of sight (the book leaves it out, JupyterLab folds it):
  a notebook opened without `embedlab` installs the release's wheel from the course's
  own repository (never `embedlab` by name from PyPI) on Colab or when the reader says
  yes, once `_config.yml` names that repository; otherwise (no address yet, nowhere to
  ask, no answer, pip failed) it stops with one line saying what works, instead of a
  traceback. With the course there it prints nothing. tools/check_colab.py runs every
  lesson as Colab would; here the install is a fake pip that writes a stub embedlab.
- No lesson rebinds one of the notation's one-letter names (V, d, L, h, T, E, U) in a
  later cell once an earlier cell, or a function it defines, reads it: re-running the
  earlier cell would silently read the later value (same literal twice is allowed).
"""

import ast
import json
import os
import subprocess
import symtable
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
def test_the_first_code_cell_is_the_hidden_course_cell(notebook):
    nb = nbformat.read(notebook, as_version=4)
    cell = import_guard.setup_cell(nb)
    assert cell.source == import_guard.guard(), (
        f"{notebook.parent.name}/{notebook.name}: the first code cell is not the course cell "
        "of tools/import_guard.py (run it, then tools/run_notebooks.py / tools/make_exercises.py)")
    assert "remove-cell" in cell.metadata.get("tags", []), "the book would show the course cell"
    assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, "JupyterLab would show its code"
    assert cell.metadata.get("cellView") == "form", "Colab would show its code"
    assert not cell.get("outputs"), "the course cell printed something with the course there"
    # the older guard is gone from the setup cell, and no other cell holds the course cell
    rest = [c.source for c in nb.cells if c.cell_type == "code" and c is not cell]
    assert not any(import_guard.OLD_FIRST_LINE in s or import_guard.FIRST_LINE in s for s in rest)


# a public address, as _config.yml's repository.url will name one
URL = "https://github.com/example/embedding-lab"


def wheel() -> str:
    version = import_guard.release()
    return f"{URL}/releases/download/v{version}/embedlab-{version}-py3-none-any.whl"


def test_the_course_cell_installs_the_release_from_the_courses_own_repository():
    """One release: embedlab.__version__ is the wheel's version, and the cell installs
    that wheel from the course's own repository (attached to the release's tag), never
    `embedlab` by name from PyPI, where the course does not hold the name and an
    unrelated `embed-lab` exists (newcomer of session 9). Without a public address the
    cell installs nothing, asks nothing. Seen red on the cell as it was (`_pin =
    "embedlab==0.1.0"`)."""
    import embedlab
    assert import_guard.release() == embedlab.__version__
    assert import_guard.wheel_url(URL) == wheel() and import_guard.wheel_url("") == ""
    assigned = [node for node in ast.walk(ast.parse(import_guard.guard(URL)))
                if isinstance(node, ast.Assign)
                and getattr(node.targets[0], "id", "") == "_wheel"]
    assert [ast.literal_eval(node.value) for node in assigned] == [wheel()]
    for url in (URL, ""):
        source = import_guard.guard(url)
        assert "embedlab==" not in source, source
        assert "pip install embedlab" not in source, source
    alone = import_guard.guard("")
    assert "subprocess" not in alone and "input(" not in alone, alone
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and 'version = { attr = "embedlab.__version__" }' in pyproject


# A kernel without `embedlab`: a finder refuses it until the fake pip below has written a stub
# embedlab; `answer` is what the reader types at the cell's question (None: nowhere to ask, as
# under nbval, where the kernel's input() raises StdinNotImplementedError); `colab`: google.colab
# is imported, as on Colab; `released` False: pip fails, as before the release's wheel
# exists.
KERNEL = """\
import builtins, json, os, subprocess, sys
from IPython.core.error import StdinNotImplementedError
from IPython.core.interactiveshell import InteractiveShell
stub, colab, answer = sys.argv[1], sys.argv[2] == "colab", json.loads(sys.argv[3])
released = sys.argv[4] == "released"
class NoCourse:
    def find_spec(self, name, path=None, target=None):
        if name == "embedlab" and not os.path.isdir(os.path.join(stub, "embedlab")):
            raise ModuleNotFoundError("No module named 'embedlab'", name="embedlab")
sys.meta_path.insert(0, NoCourse())
def pip(command, **kwargs):
    print("PIP", *command[1:], flush=True)
    if not released:  # what pip does before the release: "404 Client Error: Not Found"
        return subprocess.CompletedProcess(command, 1)
    os.makedirs(os.path.join(stub, "embedlab"))
    with open(os.path.join(stub, "embedlab", "__init__.py"), "w") as f:
        f.write("WHERE = 'installed'\\n")
    return subprocess.CompletedProcess(command, 0)
subprocess.run = pip
def ask(prompt=""):
    if answer is None:
        raise StdinNotImplementedError("raw_input was called, but this frontend does not support input")
    print("ASK", prompt, flush=True)
    return answer
builtins.input = ask
if colab:
    sys.modules["google.colab"] = type(sys)("google.colab")
result = InteractiveShell.instance().run_cell(sys.stdin.read())
sys.exit(0 if result.success else 3)
"""


def run_without_embedlab(source: str, colab: bool = False, answer: str | None = None,
                         released: bool = True) -> subprocess.CompletedProcess:
    """`source` run as a Jupyter kernel runs a cell (IPython), where `import embedlab` fails;
    `released` False: the fake pip fails, as pip does before the release is out."""
    import tempfile
    with tempfile.TemporaryDirectory() as stub:
        return subprocess.run([sys.executable, "-c", KERNEL, stub, "colab" if colab else "-", json.dumps(answer),
                               "released" if released else "-"],
                              input=source, capture_output=True, text=True, timeout=60, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": stub})  # the stub is where pip "installs"


def test_without_embedlab_the_setup_cell_prints_one_line_saying_what_to_install():
    """The notebooks' own cell (no public address yet): one line, on Colab too, and no
    pip; with an address, a no is told the same kind of line, with the install that
    works."""
    nb = nbformat.read(ROOT / "notebooks" / "01-toy-table.ipynb", as_version=4)
    cell = import_guard.setup_cell(nb).source
    for colab in (False, True):
        run = run_without_embedlab(cell + "\nprint('the cell went on')", colab=colab)
        said = run.stdout + run.stderr
        assert run.returncode == 3, said          # the cell failed: Run All stops there
        assert run.stdout.strip().splitlines() == [import_guard.message("")], said
        assert "make lab" in run.stdout and "Traceback" not in said
    alone = import_guard.message("")
    assert "nothing to install it from here, on Colab or elsewhere" in alone
    declined = run_without_embedlab(import_guard.guard(URL), answer="n")
    said = declined.stdout + declined.stderr
    assert declined.returncode == 3 and "PIP" not in declined.stdout, said
    assert declined.stdout.strip().splitlines()[-1] == import_guard.message(URL), said
    second = [c.source for c in nb.cells if c.cell_type == "code"][1]
    assert "ModuleNotFoundError" in run_without_embedlab(second).stdout   # what the course cell replaces


@pytest.mark.parametrize("colab, answer", [(True, None), (False, "y"), (False, "yes")])
def test_on_colab_or_when_the_reader_agrees_the_course_cell_installs_it(colab, answer):
    """With the course's public address: on Colab it installs the release's wheel from
    the course's own repository without asking; elsewhere it asks once, naming that
    file, and installs on a yes. Then embedlab imports in the same kernel (the stub the
    fake pip wrote)."""
    run = run_without_embedlab(import_guard.guard(URL) + "\nprint(embedlab.WHERE)",
                               colab=colab, answer=answer)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[-2:] == [f"PIP -m pip install -q {wheel()}", "installed"], run.stdout
    asked = any(line.startswith("ASK") and wheel() in line for line in lines)
    assert asked is (not colab), run.stdout


@pytest.mark.parametrize("colab, answer", [(True, None), (False, "y")])
def test_when_pip_cannot_install_the_release_the_course_cell_says_what_works(colab, answer):
    """Before the release's wheel exists, pip fails: on Colab, or after a yes, the cell
    stops with the same one line as after a no (in a notebook, Colab's too: `%pip
    install` the wheel, then the cell again; or a clone and `make lab`, or the .venv's
    kernel), not a CalledProcessError traceback (issue 48's newcomer: `check=True`
    raised it). Seen red with check=True put back."""
    run = run_without_embedlab(import_guard.guard(URL) + "\nprint('the cell went on')",
                               colab=colab, answer=answer, released=False)
    assert run.returncode == 3, run.stdout + run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[-2:] == [f"PIP -m pip install -q {wheel()}",
                          import_guard.message(URL)], run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr and "CalledProcessError" not in run.stdout
    message = import_guard.message(URL)
    assert ".venv as the kernel" in message
    assert f"`%pip install {wheel()}` in a cell" in message


def test_without_embedlab_every_later_cell_says_the_same_line_not_a_traceback():
    """Run All does not reliably stop at a first cell that fails at once, and a learner may press
    Shift+Enter on the next cell: every cell run after the guard's prints its one line, whatever the
    cell holds (seen red with the guard's input transformer left out: NameError tracebacks)."""
    nb = nbformat.read(ROOT / "notebooks" / "07-memory.ipynb", as_version=4)
    later = [c.source for c in nb.cells if c.cell_type == "code"][1:4] + ["import numpy as np\nnp.ones(3)"]
    script = ("import json, sys\n"
              "from IPython.core.error import StdinNotImplementedError as NoStdin\n"
              "def ask(prompt=''): raise NoStdin('raw_input was called')\n"
              "import builtins; builtins.input = ask\n"
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
    said = import_guard._strings(import_guard.guard())   # its message's pieces, joined
    assert (import_guard.repository_url(ROOT / "_config.yml")
            or "clone the Embedding Lab course" in said)
    # writing the cell: an older guard comes off the setup cell, a second run changes nothing
    old = import_guard.OLD_FIRST_LINE + "\n    import embedlab\nexcept ModuleNotFoundError:\n    raise X from None"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# t"),
                                         nbformat.v4.new_code_cell(old + "\n\nimport numpy as np")])
    assert import_guard.with_course_cell(nb, "") and not import_guard.with_course_cell(nb, "")
    assert [c.source for c in nb.cells[1:]] == [import_guard.guard(""), "import numpy as np"]
    assert import_guard.with_course_cell(nb, url) and nb.cells[1].source == import_guard.guard(url)
    assert len(nb.cells) == 3 and nb.cells[1].metadata["tags"] == ["remove-cell"]


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


# -- The lessons' notation names are bound once ----------------------------------------------------

# The one-letter names of the course's notation (book/glossary.md): a lesson binds each for the
# whole notebook, and a cell that reads one, or a function it defines, relies on that binding.
NOTATION_NAMES = ("V", "d", "L", "h", "T", "E", "U")
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _global_reads(table: symtable.SymbolTable) -> set[str]:
    """Names a scope nested in a cell (a function, lambda or comprehension) reads from the notebook's globals."""
    names = set()
    for child in table.get_children():
        names |= {s.get_name() for s in child.get_symbols() if s.is_referenced() and s.is_global()}
        names |= _global_reads(child)
    return names


def _literal_bindings(tree: ast.Module) -> dict[str, object]:
    """name -> value for top-level `name = literal` and `a, b = literal, literal`; others map to a
    marker that equals nothing, so only the same literal twice counts as the same binding."""
    values = {}
    for node in tree.body:
        value = getattr(node, "value", None) if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        for target in getattr(node, "targets", [getattr(node, "target", None)]):
            pairs = [(target, value)]
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
                pairs = list(zip(target.elts, value.elts))
            for name_node, rhs in pairs:
                for n in ast.walk(name_node) if name_node is not None else ():
                    if isinstance(n, ast.Name):
                        try:
                            values[n.id] = ("literal", ast.literal_eval(rhs)) if rhs is not None else object()
                        except (ValueError, TypeError, SyntaxError, RecursionError):
                            values[n.id] = object()
    return values


def rebound_notation(notebook: Path) -> list[str]:
    """Each place a later cell rebinds a notation name that an earlier cell (or a function it defines)
    reads from the globals: re-running the earlier cell would then read the later value. Rebinding to
    the same literal (`d = 768` twice) is allowed."""
    cells = [c.source for c in nbformat.read(notebook, as_version=4).cells if c.cell_type == "code"]
    binds, reads, literals = [], [], []
    for source in cells:
        source = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
        top = symtable.symtable(source, str(notebook), "exec")
        assigned = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
        read_here = {s.get_name() for s in top.get_symbols() if s.is_referenced()} - assigned
        binds.append(assigned & set(NOTATION_NAMES))
        reads.append((read_here | _global_reads(top)) & set(NOTATION_NAMES))
        literals.append(_literal_bindings(ast.parse(source)))
    found = []
    for i, names in enumerate(reads):
        for name in sorted(names):
            earlier = [b for b in range(i) if name in binds[b]]
            if not earlier:
                continue
            in_effect = literals[earlier[-1]].get(name, object())
            for j in range(i + 1, len(cells)):
                if name in binds[j] and literals[j].get(name, object()) != in_effect:
                    found.append(f"code cell {i} reads {name} (bound in code cell {earlier[-1]}), "
                                 f"code cell {j} rebinds it")
    return found


@pytest.mark.parametrize("notebook", LESSONS, ids=lambda p: p.stem)
def test_no_later_cell_rebinds_a_notation_name_an_earlier_cell_reads(notebook):
    assert not rebound_notation(notebook), rebound_notation(notebook)


def test_the_rebinding_check_sees_a_rebound_name_and_allows_the_same_literal(tmp_path):
    def notebook(*sources):
        path = tmp_path / "lesson.ipynb"
        nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources]), path)
        return path

    function_reads = ["V = 74", "def effect(p):\n    return p[:, V:]", "for name in 'ab':\n    n, V = 1, 2"]
    assert rebound_notation(notebook(*function_reads)) == [
        "code cell 1 reads V (bound in code cell 0), code cell 2 rebinds it"]
    assert rebound_notation(notebook("d = 768", "print(d)", "V, d = 50_257, 768")) == []
    assert rebound_notation(notebook("d = 768", "print(d)", "d = 1024")) != []
    # a function's own parameter, and a cell that binds the name itself, read nothing global
    assert rebound_notation(notebook("V = 8", "def growth(V):\n    return V", "V = 9")) == []
    assert rebound_notation(notebook("V = 8", "V = 3\nprint(V)", "V = 9")) == []
