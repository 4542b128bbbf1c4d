"""The import guard: the first lines of every notebook's setup cell.

A notebook downloaded from the book (or opened in Colab) has no `embedlab`, the
course library; without the guard its first cell ends in a traceback about a
missing module. With it, the cell stops with one line saying what to install,
and so does every cell run after it: Jupyter does not reliably drop the cells
Run All queued behind a cell that failed at once, and a learner may press
Shift+Enter on the next one; each would end in a `NameError` traceback. The
guard registers an IPython input transformer that turns every later cell into
the same one line (outside IPython there is no later cell to answer).
The guard is the same in every notebook (lessons and solutions; the exercises
are generated from the solutions) and names the course's repository as soon as
`_config.yml` has one (`repository.url`). `tests/test_notebook_code.py` checks
that every notebook starts with it and that it prints that one line.

    python tools/import_guard.py     # write the current guard into every notebook

The guard does not change a notebook's outputs; re-run the notebooks it changed
anyway (tools/run_notebooks.py, tools/make_exercises.py) to keep them normalized.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parent.parent
FIRST_LINE = "try:  # opened outside the course? say what to install, not a traceback"
LAST_LINE_END = "from None"  # the guard's last line (this version's and the older ones')


def repository_url(config: Path = ROOT / "_config.yml") -> str:
    """The course's public repository (`repository.url` in _config.yml), or ''."""
    data = yaml.safe_load(config.read_text(encoding="utf-8")) or {}
    return ((data.get("repository") or {}).get("url") or "").strip()


def message(url: str) -> str:
    """The one line a reader sees when `embedlab` cannot be imported."""
    where = f"git clone {url}" if url else "clone the Embedding Lab course"
    return f"This notebook needs the course library embedlab: {where}, then run `make lab` in it."


def guard(url: str | None = None) -> str:
    """The guard's source (no trailing newline)."""
    url = repository_url() if url is None else url
    where = f'"git clone {url}, "' if url else '"clone the Embedding Lab course, "'
    text = "\n".join([
        FIRST_LINE,
        "    import embedlab",
        "except ModuleNotFoundError:",
        "    class Setup(Exception):",
        "        def _render_traceback_(self): return [str(self)]  # Jupyter: this line only",
        '    _setup = Setup("This notebook needs the course library embedlab: "',
        f"                   {where}",
        '                   "then run `make lab` in it.")',
        "    try:  # every cell run after this one says the same line, not a NameError",
        '        get_ipython().input_transformers_cleanup.append(lambda _: ["raise _setup\\n"])',
        "    except NameError:  # not IPython: there are no later cells",
        "        pass",
        "    raise _setup from None",
    ])
    assert message(url) in _strings(text), "guard() and message() disagree"
    return text


def _strings(source: str) -> str:
    """The text of the guard's message, its string pieces joined."""
    import ast
    call = next(n for n in ast.walk(ast.parse(source))
                if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Setup")
    return call.args[0].value


def strip_guard(source: str) -> str:
    """`source` without a guard at its top (any version of it)."""
    lines = source.split("\n")
    if not lines or lines[0] != FIRST_LINE:
        return source
    end = next(i for i, line in enumerate(lines) if line.endswith(LAST_LINE_END))
    return "\n".join(lines[end + 1:]).lstrip("\n")


def with_guard(source: str, url: str | None = None) -> str:
    return guard(url) + "\n\n" + strip_guard(source)


def notebooks() -> list[Path]:
    return sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))


def setup_cell(nb):
    return next(cell for cell in nb.cells if cell.cell_type == "code")


def main(paths: list[str]) -> int:
    url = repository_url()
    for path in [Path(p) for p in paths] or notebooks():
        nb = nbformat.read(path, as_version=4)
        cell = setup_cell(nb)
        new = with_guard(cell.source, url)
        if new != cell.source:
            cell.source = new
            nbformat.write(nb, path)
            print(f"guarded {path.relative_to(ROOT) if path.is_absolute() else path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
