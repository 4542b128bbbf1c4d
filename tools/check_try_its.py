"""Run every lesson's **Try it:** suggestions the way a learner would, and check what each promises.

    python tools/check_try_its.py                  # every Try-it of every lesson
    python tools/check_try_its.py 11 07            # the Try-its of lessons 11 and 07
    python tools/check_try_its.py --jobs 2         # two at a time

Each lesson ends some sections with a one-line "**Try it:** …". `notebooks/try_its.toml` holds one
spec for each of them (CONTRIBUTING.md, "Try-its are tested"): the Try-it named by its own words, what
a learner does (a text replaced in a code cell, a line run after a cell), how far the notebook must
then run (to the end of the Try-it's section, or to its end: Run All), and, where the Try-it says what
the learner will see, a check of it (Python run in the same kernel at that point; `book[EXPR]` is
EXPR's value in the unchanged notebook at the same point). This tool applies each spec to a copy
of the notebook (the stored notebook is never touched), runs it in a fresh kernel with the
executor of tools/run_notebooks.py, and prints each Try-it's result: ok, or failed with the cell
and the traceback's last line. Last it prints the wall and CPU seconds of the whole run (kernels
included). It exits 1 if any Try-it failed or any spec no longer applies.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import resource
import sys
import time
import tomllib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SPECS = NOTEBOOKS / "try_its.toml"
TRY_IT = re.compile(r"(?i)\*\*\s*try it\b")   # "**Try it:**", in any case
UNTIL = ("section", "end")
BOOK_TAG = "TRY-IT-BOOK"
ORIGIN = "try_it_origin"   # a cell's metadata: which cell of the stored notebook it is
SPEC_KEYS = {"lesson", "words", "edit", "run", "until", "book", "check"}


def _executor():
    """tools/run_notebooks.py's execute(), the project's one way to run a notebook in a fresh kernel."""
    name = "run_notebooks"
    path = Path(__file__).resolve().parent / "run_notebooks.py"
    module = sys.modules.get(name)
    if module is None or getattr(module, "__file__", None) != str(path):
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module.execute


class SpecError(ValueError):
    """A spec that does not apply to its notebook (its Try-it, cell or text is not there)."""


@dataclass
class Edit:
    cell: str   # a text that occurs in exactly one code cell of the notebook: names that cell
    old: str    # occurs exactly once in that cell
    new: str


@dataclass
class Run:
    after: str  # names a code cell, as Edit.cell does
    code: str   # the learner's line(s), run as a new cell right after it


@dataclass
class Spec:
    lesson: str                 # the notebook's stem, "11-size-a-model"
    words: str                  # words of the Try-it itself, found in exactly one Try-it paragraph
    edits: list[Edit] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)
    until: str = "section"      # run to the end of the Try-it's section, or "end" (Run All)
    book: list[str] = field(default_factory=list)   # expressions read in the unchanged notebook
    check: str = ""             # Python run at the end; `book` maps each expression to its value
    folder: Path = NOTEBOOKS    # where the notebook is: the folder of the specs' file

    @property
    def name(self) -> str:
        return f"{self.lesson}: {self.words}"


@dataclass
class Result:
    spec: Spec
    ok: bool
    message: str = ""           # why it failed: "cells[12]: AssertionError: ..." or the spec's fault
    seconds: float = 0.0

    def line(self) -> str:
        mark = "ok    " if self.ok else "FAILED"
        return f"{mark} {self.seconds:5.1f} s  {self.spec.name}" + ("" if self.ok else f"\n         {self.message}")


def load_specs(path: Path = SPECS) -> list[Spec]:
    """The specs of `path`, read strictly: an unknown key or a missing field is a ValueError naming it."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    unknown = set(data) - {"try_it"}
    if unknown:
        raise ValueError(f"{path.name}: unknown table {sorted(unknown)}; every spec is a [[try_it]]")
    specs = []
    for number, raw in enumerate(data.get("try_it", []), 1):
        where = f"{path.name}, try_it #{number}"
        extra = set(raw) - SPEC_KEYS
        if extra:
            raise ValueError(f"{where}: unknown key {sorted(extra)}; the keys are {sorted(SPEC_KEYS)}")
        for key in ("lesson", "words"):
            if not isinstance(raw.get(key), str) or not raw[key].strip():
                raise ValueError(f"{where}: {key} = {raw.get(key)!r}: a non-empty string is required")
        until = raw.get("until", "section")
        if until not in UNTIL:
            raise ValueError(f"{where}: until = {until!r}: one of {UNTIL}")
        try:
            edits = [Edit(**e) for e in raw.get("edit", [])]
            runs = [Run(**r) for r in raw.get("run", [])]
        except TypeError as error:
            raise ValueError(f"{where}: an edit is cell/old/new, a run is after/code: {error}") from None
        if not edits and not runs:
            raise ValueError(f"{where} ({raw['words']!r}): no edit and no run: what does the learner do?")
        specs.append(Spec(raw["lesson"], raw["words"], edits, runs, until, list(raw.get("book", [])),
                          raw.get("check", ""), path.parent))
    return specs


def notebook_path(spec: Spec) -> Path:
    return spec.folder / f"{spec.lesson}.ipynb"


def try_it_paragraphs(nb) -> list[tuple[int, str]]:
    """(cell index, paragraph) for every **Try it:** paragraph of the notebook's markdown cells."""
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            found += [(index, p) for p in re.split(r"\n\s*\n", cell.source) if TRY_IT.search(p)]
    return found


def _flat(text: str) -> str:
    return " ".join(text.split())


def find_try_it(nb, spec: Spec) -> int:
    """The index of the markdown cell whose Try-it paragraph holds the spec's words (line breaks
    and runs of spaces count as one space)."""
    hits = [i for i, p in try_it_paragraphs(nb) if _flat(spec.words) in _flat(p)]
    if len(hits) != 1:
        raise SpecError(f"{spec.name}: words found in {len(hits)} Try-it paragraphs, not 1")
    return hits[0]


def find_cell(nb, text: str, spec: Spec) -> int:
    hits = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and text in c.source]
    if len(hits) != 1:
        raise SpecError(f"{spec.name}: cell {text!r} names {len(hits)} code cells, not 1")
    return hits[0]


def section_end(nb, index: int, words: str = "") -> int:
    """Where the section of the Try-it in cells[index] ends: the index of the first cell from
    which no cell of that section is left to run. A `## ` heading later in the Try-it's own
    cell ends it there (index + 1); else the first later cell with a `## ` heading ends it."""
    own = nb.cells[index].source
    at = own.find(words.split()[0]) if words else 0
    if re.search(r"(?m)^##\s", own[max(at, 0):]):
        return index + 1
    for i in range(index + 1, len(nb.cells)):
        cell = nb.cells[i]
        if cell.cell_type == "markdown" and re.search(r"(?m)^##\s", cell.source):
            return i
    return len(nb.cells)


def _book_cell(exprs: list[str], tag: str) -> str:
    """A cell that prints each expression's value as one JSON line after `tag`."""
    return ("import json as _json\n"
            "def _plain(o):\n"
            "    return o.tolist() if hasattr(o, 'tolist') else repr(o)\n"
            f"print({tag!r}, _json.dumps({{_e: eval(_e) for _e in {exprs!r}}}, default=_plain))\n")


def prepare(spec: Spec, nb=None):
    """The spec applied to a copy of its notebook, cut where its run stops: (notebook, index of the
    last cell the learner's run reaches). Raises SpecError when the spec does not apply."""
    path = notebook_path(spec)
    if nb is None and not path.exists():
        raise SpecError(f"{spec.name}: no notebook {path.name} in {path.parent}")
    nb = nb if nb is not None else nbformat.read(path, as_version=4)
    nb = nbformat.from_dict(json.loads(json.dumps(nb)))
    try_it = find_try_it(nb, spec)
    stop = section_end(nb, try_it, spec.words) if spec.until == "section" else len(nb.cells)
    for index, cell in enumerate(nb.cells):   # where a failure is, in the notebook as stored
        cell.metadata[ORIGIN] = f"cells[{index}]"
    # every cell is named in the notebook as stored, before any edit changes its text
    targets = [find_cell(nb, edit.cell, spec) for edit in spec.edits]
    inserts = [(find_cell(nb, run.after, spec), run.code) for run in spec.runs]
    for edit, index in zip(spec.edits, targets):
        count = nb.cells[index].source.count(edit.old)
        if count != 1:
            raise SpecError(f"{spec.name}: {edit.old!r} occurs {count} times in cells[{index}], not once")
        nb.cells[index].source = nb.cells[index].source.replace(edit.old, edit.new)
    for (index, code), run in zip(inserts, spec.runs):
        if index >= stop:
            raise SpecError(f"{spec.name}: cells[{index}] ({run.after!r}) is past where the run stops")
    for index, code in sorted(inserts, key=lambda insert: insert[0], reverse=True):
        added = nbformat.v4.new_code_cell(code)
        added.metadata[ORIGIN] = f"the learner's cell after cells[{index}]"
        nb.cells.insert(index + 1, added)
        stop += 1
    nb.cells = nb.cells[:stop]
    return nb, stop


def _last_line(error) -> str:
    ename, evalue = getattr(error, "ename", None), getattr(error, "evalue", None)
    if ename:
        return f"{ename}: {evalue}".strip().rstrip(":")
    lines = [line for line in str(error).strip().splitlines() if line.strip()]
    return lines[-1] if lines else type(error).__name__


def _run(nb, folder: Path) -> tuple[object, str | None, int | None]:
    """Execute `nb` in a fresh kernel: (executed notebook, the error's last line or None, its cell)."""
    from nbclient.exceptions import CellExecutionError

    try:
        _executor()(nb, folder)
        return nb, None, None
    except CellExecutionError as error:
        failed = next((c.metadata.get(ORIGIN, "?") for c in nb.cells if c.cell_type == "code"
                       and any(o.output_type == "error" for o in c.get("outputs", []))), "?")
        return nb, _last_line(error), failed
    except Exception as error:  # a dead kernel, a cell time-out: still this Try-it's failure
        return nb, f"{type(error).__name__}: {_last_line(error)}", "?"




def book_values(spec: Spec) -> dict:
    """The spec's `book` expressions in the unchanged notebook, at the last cell its run reaches."""
    nb = nbformat.read(notebook_path(spec), as_version=4)
    try_it = find_try_it(nb, spec)
    stop = section_end(nb, try_it, spec.words) if spec.until == "section" else len(nb.cells)
    nb.cells = nb.cells[:stop] + [nbformat.v4.new_code_cell(_book_cell(spec.book, BOOK_TAG))]
    nb, error, cell = _run(nb, spec.folder)
    if error:
        raise SpecError(f"{spec.name}: the unchanged notebook fails reading `book`: {cell}: {error}")
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream")
    line = next(line for line in text.splitlines() if line.startswith(BOOK_TAG))
    return json.loads(line[len(BOOK_TAG):])


def check(spec: Spec) -> Result:
    """Apply the spec, run the notebook as far as the learner's run goes, then the spec's check."""
    start = time.perf_counter()
    try:
        nb, stop = prepare(spec)
        book = book_values(spec) if spec.book else {}
    except SpecError as error:
        return Result(spec, False, f"the spec does not apply: {error}", time.perf_counter() - start)
    if spec.check.strip() or book:
        last = nbformat.v4.new_code_cell(
            f"import json as _json\nbook = _json.loads({json.dumps(book)!r})\n" + spec.check)
        last.metadata[ORIGIN] = "the check"
        nb.cells.append(last)
    nb, error, where = _run(nb, spec.folder)
    seconds = time.perf_counter() - start
    if error is None:
        return Result(spec, True, "", seconds)
    return Result(spec, False, f"{where}: {error}", seconds)


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", help="lesson numbers or stems (default: all)")
    parser.add_argument("--jobs", type=int, default=1, help="Try-its run at once (default 1)")
    args = parser.parse_args(argv)
    specs = [s for s in load_specs()
             if not args.lessons or any(s.lesson.startswith(a) for a in args.lessons)]
    if not specs:
        raise SystemExit(f"no Try-it spec for {args.lessons}")
    wall = time.perf_counter()
    print(f"{len(specs)} Try-its; load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
          flush=True)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = []
        for result in pool.map(check, specs):
            print(result.line(), flush=True)
            results.append(result)
    failed = [r for r in results if not r.ok]
    print(f"{len(results) - len(failed)} ok, {len(failed)} failed; "
          f"{time.perf_counter() - wall:.1f} s wall, {_cpu_seconds():.1f} s CPU (this process, its workers and kernels)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
