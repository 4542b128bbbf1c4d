"""The course cell: every lesson's, exercise's and solution's first code cell.

A notebook opened on its own (downloaded from the book, opened on Colab or Binder,
or in a JupyterLab without the course) has no `embedlab`, the course library, and
without this cell its first import would end in a traceback. The course cell

* prints nothing when `embedlab` imports (the course is there: a clone after `make lab`,
  Binder, a hub image with `pip install embedlab`), so nbval strict sees no output;
* once `_config.yml` names the course's public repository, installs the release's wheel
  from there (`<repository>/releases/download/v<version>/`, then
  `embedlab-<version>-py3-none-any.whl`, which brings the learner's packages it depends
  on, pyproject.toml) with pip when it runs
  on Colab (`google.colab` in sys.modules), or when `embedlab` is missing and the reader
  answers yes to the one question it asks, which names that file. Never `embedlab` by
  name from PyPI: the course does not hold that name there (an unrelated `embed-lab`
  exists), so whatever is uploaded under it would run in a learner's kernel;
* otherwise (no public address yet, no answer, nowhere to ask, as under nbval or in a
  script), and when pip fails (before the release's wheel is attached), stops with one
  line saying what works: `%pip install` that wheel in a cell, then the cell again (with
  an address), a clone set up by `make lab`, or its .venv's Python as the kernel; and so
  does every cell run after it: Jupyter does not
  reliably drop the cells Run All queued behind a cell that failed at once, and a learner
  may press Shift+Enter on the next one; each would end in a `NameError` traceback. It
  registers an IPython input transformer that turns every later cell into the same one
  line (outside IPython there is no later cell to answer).

It is out of sight: tagged `remove-cell` (the book leaves it out; it prints nothing
there anyway), its source collapsed in JupyterLab (`jupyter.source_hidden`) and shown as
a titled form on Colab (`#@title`, `cellView: form`). It is the same in every notebook
(lessons and solutions; the exercises are generated from the solutions) and names the
course's repository as soon as `_config.yml` has one (`repository.url`).
`tests/test_notebook_code.py` checks that every notebook starts with it and what it does
without the course; tools/check_colab.py runs every lesson as Colab would.

    python tools/import_guard.py     # write the current course cell into every notebook

The cell does not change a notebook's outputs; re-run the notebooks it changed anyway
(tools/run_notebooks.py, tools/make_exercises.py) to keep them normalized.

The other guard is on embedlab's own imports (tests/test_import_graph.py):

    python tools/import_guard.py --imports   # every import circle and upward import; exit 1 if any

* No import circle inside `embedlab`. Every `import` statement counts, at a module's top
  or inside a function: an import moved into a function still ties the two modules together
  (neither can be read, tested or moved without the other), it only waits to be run before
  it bites. So a circle is broken by moving what both sides need to the lower side, never by
  hiding one end in a function. A function may still import lazily to load something heavy
  late, as long as that import closes no circle and runs downward. A module named only at run
  time (importlib.import_module of a built name: a lesson's question module, the package's
  lazy exports) is not read.
* No import from a lower layer of `embedlab.grading` to a higher one. The layers are listed
  once, in the package docstring of embedlab/grading/__init__.py (a heading line ending in
  `:`, then one indented line per module); every module of the package must be in it.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent
FIRST_LINE = ("#@title The course's set-up: checks that embedlab is here, "
              "else says how to get it")
# the first line of the course cell before it installed from the course's own repository
EARLIER_FIRST_LINE = ("#@title The course's set-up: installs embedlab on Colab, "
                      "else checks it is here")
# the first line of the older guard, which sat at the top of the setup cell
OLD_FIRST_LINE = "try:  # opened outside the course? say what to install, not a traceback"
LAST_LINE_END = "from None"  # the guard's last line (this version's and the older ones')
TAGS = ["remove-cell"]   # Jupyter Book leaves the cell out
METADATA = {"tags": TAGS, "jupyter": {"source_hidden": True}, "cellView": "form"}


def repository_url(config: Path = ROOT / "_config.yml") -> str:
    """The course's public repository (`repository.url` in _config.yml), or ''."""
    data = yaml.safe_load(config.read_text(encoding="utf-8")) or {}
    return ((data.get("repository") or {}).get("url") or "").strip()


def release(init: Path = ROOT / "lib" / "embedlab" / "__init__.py") -> str:
    """The course's release: embedlab.__version__ (the wheel's version, pyproject.toml)."""
    found = re.search(r'^__version__ = "([^"]+)"$', init.read_text(encoding="utf-8"), flags=re.M)
    if not found:
        raise ValueError(f"{init}: no __version__ = \"...\" line")
    return found.group(1)


def wheel_url(url: str, version: str | None = None) -> str:
    """The release's wheel on the course's own repository (the file a release attaches
    to its tag `v<version>`, CONTRIBUTING.md, "Releasing embedlab"), or '' while the
    course has no public address. The course cell installs this file, never `embedlab`
    by name from PyPI: the course does not hold that name there, so a package of that
    name could be anyone's."""
    if not url:
        return ""
    version = release() if version is None else version
    return (f"{url.rstrip('/')}/releases/download/v{version}/"
            f"embedlab-{version}-py3-none-any.whl")


def message(url: str, version: str | None = None, wheel: str | None = None) -> str:
    """The one line a reader sees when `embedlab` cannot be imported and is not
    installed (no public address to install from, no answer, or pip failed). With an
    address it names the install that works in a notebook, Colab's too (`%pip install`
    the release's wheel, then the cell again); always a clone set up by `make lab`, or
    its .venv's Python chosen as the kernel (a Jupyter started elsewhere: VS Code,
    Anaconda). `wheel`: another file to install than the release's
    (tools/check_colab.py: the wheel it built)."""
    wheel = wheel or wheel_url(url, version)
    if wheel:
        return (f"This notebook needs the course library embedlab: install it with "
                f"`%pip install {wheel}` in a cell, then run this cell again; or git "
                f"clone {url}, then run `make lab` in it, or choose the Python of its "
                ".venv as the kernel of this notebook.")
    return ("This notebook needs the course library embedlab: clone the Embedding Lab "
            "course, then run `make lab` in it, or choose the Python of its .venv as "
            "the kernel of this notebook (the course has no public address yet, so "
            "there is nothing to install it from here, on Colab or elsewhere).")


def _stop(indent: str, pieces: list[str]) -> list[str]:
    """The lines that stop the cell with the one line (`pieces`: its strings)."""
    lines = ["class Setup(Exception):",
             "    def _render_traceback_(self): return [str(self)]  # Jupyter: this line only",
             f"_setup = Setup({pieces[0]}",
             *[f"               {piece}" for piece in pieces[1:-1]],
             f"               {pieces[-1]})",
             "try:  # every cell run after this one says the same line, not a NameError",
             "    _later = get_ipython().input_transformers_cleanup",
             '    _later.append(lambda _: ["raise _setup\\n"])',
             "except NameError:  # not IPython: there are no later cells",
             "    pass",
             "raise _setup from None"]
    return [indent + line for line in lines]


def guard(url: str | None = None, version: str | None = None,
          wheel: str | None = None) -> str:
    """The course cell's source (no trailing newline). With the course's public address
    (_config.yml's repository.url) it installs the release's wheel from there: on Colab
    at once, elsewhere on a yes; without one it only says what works. `wheel`: another
    file to install (tools/check_colab.py's build, standing in for the release's)."""
    url = repository_url() if url is None else url
    version = release() if version is None else version
    wheel = (wheel or wheel_url(url, version)) if url else ""
    head = [FIRST_LINE, "import sys", "try:", "    import embedlab",
            "except ModuleNotFoundError:"]
    if not wheel:
        pieces = ['"This notebook needs the course library embedlab: clone the "',
                  '"Embedding Lab course, then run `make lab` in it, or choose "',
                  '"the Python of its .venv as the kernel of this notebook (the "',
                  '"course has no public address yet, so there is nothing to "',
                  '"install it from here, on Colab or elsewhere)."']
        text = "\n".join([*head, "    # no public address yet: nothing to install from",
                          *_stop("    ", pieces)])
    else:
        cut = wheel.find("/releases/") + 1 or len(wheel) // 2   # where the line breaks
        pieces = ['"This notebook needs the course library embedlab: install "',
                  'f"it with `%pip install {_wheel}` in a cell, then run this "',
                  '"cell again; or "',
                  f'"git clone {url}, "',
                  '"then run `make lab` in it, or choose the Python of its "',
                  '".venv as the kernel of this notebook."']
        text = "\n".join([
            *head,
            "    # the release's wheel, from the course's own repository (never PyPI's name)",
            f'    _wheel = ("{wheel[:cut]}"',
            f'              "{wheel[cut:]}")',
            "    try:  # Colab installs it; elsewhere ask first (nowhere to ask, as under nbval: no)",
            '        _yes = "google.colab" in sys.modules or input(',
            f'            f"Install the course library embedlab {version} from {{_wheel}} "',
            '            "with pip? [y/N] ").lower() in ("y", "yes")',
            "    except Exception:",
            "        _yes = False",
            "    if _yes:  # pip fails before the release is out: then the line below",
            "        import importlib, subprocess",
            '        _pip = [sys.executable, "-m", "pip", "install", "-q", _wheel]',
            "        _yes = subprocess.run(_pip).returncode == 0",
            "        importlib.invalidate_caches()",
            "    if _yes:",
            "        import embedlab",
            "    else:",
            *_stop("        ", pieces),
        ])
    assert message(url, version, wheel) == _strings(text).replace("{_wheel}", wheel), \
        "guard() and message() disagree"
    return text


def _strings(source: str) -> str:
    """The text of the guard's message, its string pieces joined."""
    call = next(n for n in ast.walk(ast.parse(source))
                if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Setup")
    arg = call.args[0]
    pieces = arg.values if isinstance(arg, ast.JoinedStr) else [arg]
    return "".join(p.value if isinstance(p, ast.Constant) else "{" + ast.unparse(p.value) + "}"
                   for p in pieces)


def strip_guard(source: str) -> str:
    """`source` without an older guard at its top (the 13-line one that sat in the setup cell)."""
    lines = source.split("\n")
    if not lines or lines[0] not in (OLD_FIRST_LINE, EARLIER_FIRST_LINE, FIRST_LINE):
        return source
    end = next(i for i, line in enumerate(lines) if line.endswith(LAST_LINE_END))
    return "\n".join(lines[end + 1:]).lstrip("\n")


def is_course_cell(cell) -> bool:
    first = cell.source.split("\n", 1)[0]
    return cell.cell_type == "code" and first in (EARLIER_FIRST_LINE, FIRST_LINE)


def with_course_cell(nb, url: str | None = None, version: str | None = None) -> bool:
    """Put the current course cell first among `nb`'s code cells (replacing an older one, and
    taking an older guard off the setup cell); True if `nb` changed."""
    before = nbformat.writes(nb)
    source = guard(url, version)
    index = next(i for i, cell in enumerate(nb.cells) if cell.cell_type == "code")
    cell = nb.cells[index]
    if is_course_cell(cell):
        cell.source = source
        following = next((c for c in nb.cells[index + 1:] if c.cell_type == "code"), None)
        if following is not None:       # an older guard merged back into the setup cell
            following.source = strip_guard(following.source)
    else:
        cell.source = strip_guard(cell.source)
        cell = nbformat.v4.new_code_cell(source)
        if "id" in nb.cells[index]:
            cell.id = "course-cell"
        else:
            cell.pop("id", None)
        nb.cells.insert(index, cell)
    for key, value in METADATA.items():
        cell.metadata[key] = value
    if nbformat.writes(nb) != before:   # a new or changed cell: not run yet (an unchanged one keeps its count)
        cell.outputs, cell.execution_count = [], None
    return nbformat.writes(nb) != before


def notebooks() -> list[Path]:
    """Every notebook written by hand: lessons, solutions, and the book's (the recap)."""
    return [p for folder in ("notebooks", "solutions", "book") for p in sorted((ROOT / folder).glob("*.ipynb"))]


def setup_cell(nb):
    """The first code cell (the course cell)."""
    return next(cell for cell in nb.cells if cell.cell_type == "code")


# --------------------------------------------------------------------------
# embedlab's own imports: no circle, no import running back up a layer

LIB = ROOT / "lib"


def module_files(lib: Path = LIB, package: str = "embedlab") -> dict[str, Path]:
    """{dotted module name: file} of every module of `package` under `lib` (a package by its __init__)."""
    out = {}
    for path in sorted((lib / package.replace(".", "/")).rglob("*.py")):
        parts = path.relative_to(lib).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports_of(name: str, path: Path, modules) -> dict[str, int]:
    """{module of `modules` that `name` imports: the first line that does}: every import statement,
    at the module's top or inside a function or class, relative ones resolved. `from P import x`
    is an import of P.x when that is a module, else of P. Importing a module runs its packages'
    __init__ first, so each of its parent packages counts too."""
    is_package = path.name == "__init__.py"
    found: dict[str, int] = {}

    def add(target: str, line: int) -> None:
        parts = target.split(".")
        for i in range(1, len(parts) + 1):
            dotted = ".".join(parts[:i])
            if dotted in modules and dotted != name:
                found.setdefault(dotted, line)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")[: len(name.split(".")) - node.level + (1 if is_package else 0)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                full = f"{source}.{alias.name}"
                add(full if full in modules else source, node.lineno)
    return found


def import_graph(lib: Path = LIB, package: str = "embedlab") -> dict[str, dict[str, int]]:
    """{module: {module it imports: line}} over every module of `package`."""
    modules = module_files(lib, package)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def import_cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The import circles of `graph`: each a list of modules that import one another round (its
    strongly connected components of more than one module), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []

    def visit(start: str) -> None:  # Tarjan's algorithm, iterative (no recursion limit)
        work = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(out)


def describe_cycle(graph: dict[str, dict[str, int]], members: list[str]) -> str:
    """One circle in words: each member, the members it imports, and on which line."""
    inside = set(members)
    ties = [f"{a} -> {b} (line {line})" for a in members for b, line in sorted(graph[a].items()) if b in inside]
    return "import circle: " + "; ".join(ties)


def grading_layers(docstring: str, package: str = "embedlab.grading") -> dict[str, tuple[int, str]]:
    """{module: (its layer's rank, the layer's name)} from the layer map in a package docstring:
    a heading line (not indented, ending in `:`) starts a layer, ranked in order from 0; each
    indented line under it names one module of the package as its first word. A module named
    twice is a ValueError."""
    layers: dict[str, tuple[int, str]] = {}
    rank, layer = -1, None
    for line in docstring.splitlines():
        if line and not line[0].isspace() and line.rstrip().endswith(":"):
            rank, layer = rank + 1, line.rstrip()[:-1].split(" (")[0].strip()
        elif layer is not None and line.startswith("    ") and line.strip():
            module = f"{package}.{line.split()[0]}"
            if module in layers:
                raise ValueError(f"the layer map names {module} twice ({layers[module][1]}, {layer})")
            layers[module] = (rank, layer)
    return layers


def layer_of(module: str, layers: dict[str, tuple[int, str]]):
    """The layer of a module: its own entry, else its nearest package's (questions.l01 is questions')."""
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        found = layers.get(".".join(parts[:i]))
        if found is not None:
            return found
    return None


def upward_imports(graph: dict[str, dict[str, int]], layers: dict[str, tuple[int, str]],
                   package: str = "embedlab.grading") -> list[str]:
    """Every import from a module of `package` to one of a higher layer, in words."""
    out = []
    for module, targets in sorted(graph.items()):
        mine = layer_of(module, layers)
        for target, line in sorted(targets.items()):
            theirs = layer_of(target, layers)
            if mine is not None and theirs is not None and theirs[0] > mine[0]:
                out.append(f"{module} ({mine[1]}) imports {target} ({theirs[1]}), a higher layer (line {line})")
    return out


def unmapped(graph: dict[str, dict[str, int]], layers: dict[str, tuple[int, str]],
             package: str = "embedlab.grading") -> list[str]:
    """Modules of `package` the layer map does not place, and entries of the map that are no module."""
    inside = [m for m in graph if m.startswith(package + ".")]
    missing = [f"{m} is in no layer of the map" for m in sorted(inside) if layer_of(m, layers) is None]
    stale = [f"the map names {m}, which is no module" for m in sorted(layers) if m not in graph]
    return missing + stale


def import_problems(lib: Path = LIB) -> list[str]:
    """Every import circle in embedlab, every module the layer map of embedlab.grading leaves out,
    and every import in embedlab.grading that runs up a layer: [] when there are none."""
    graph = import_graph(lib)
    init = lib / "embedlab" / "grading" / "__init__.py"
    layers = grading_layers(ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or "")
    return ([describe_cycle(graph, c) for c in import_cycles(graph)] + unmapped(graph, layers)
            + upward_imports(graph, layers))


def main(paths: list[str]) -> int:
    if paths == ["--imports"]:
        problems = import_problems()
        for problem in problems:
            print(problem)
        return 1 if problems else 0
    url = repository_url()
    for path in [Path(p) for p in paths] or notebooks():
        nb = nbformat.read(path, as_version=4)
        if with_course_cell(nb, url):
            nbformat.write(nb, path)
            print(f"course cell in {path.relative_to(ROOT) if path.is_absolute() else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
