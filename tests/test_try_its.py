"""Every lesson's "**Try it:** …" has a spec in notebooks/try_its.toml, and every spec still applies
to its notebook (CONTRIBUTING.md, "Try-its are tested").

Running every spec takes about a minute of CPU (`python tools/check_try_its.py` prints it), so CI runs
them all (`.ci/run`, step "try_its"); here the runner itself is shown to work on a small notebook of
the test's own: a Try-it that holds is ok, one whose cell or check fails is reported with where it
failed and the traceback's last line, and `book` reads the unchanged notebook.
"""

import os
import re

import nbformat
import pytest

from tools_loader import load_tool

runner = load_tool("check_try_its")
NOTEBOOKS = sorted(runner.NOTEBOOKS.glob("*.ipynb"))
SPECS = runner.load_specs()


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_try_it_has_a_spec(notebook):
    nb = nbformat.read(notebook, as_version=4)
    specs = [s for s in SPECS if s.lesson == notebook.stem]
    flat = runner._flat
    missing = [(index, paragraph) for index, paragraph in runner.try_it_paragraphs(nb)
               if not any(flat(s.words) in flat(paragraph) for s in specs)]
    assert not missing, (f"{notebook.name}: Try-its with no spec in notebooks/try_its.toml "
                         "(what the learner does, what must then hold):\n"
                         + "\n".join(f"  cells[{i}]: {p[:120]}" for i, p in missing))


def test_every_try_it_is_a_paragraph_of_its_own():
    """A Try-it is found by its bold label in a markdown cell, and is one paragraph: two in one
    paragraph would share a spec, and a spec could not tell which one it is for."""
    for notebook in NOTEBOOKS:
        nb = nbformat.read(notebook, as_version=4)
        labels = sum(len(runner.TRY_IT.findall(c.source)) for c in nb.cells if c.cell_type == "markdown")
        assert labels == len(runner.try_it_paragraphs(nb)), notebook.name


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name[:60])
def test_every_spec_applies(spec):
    """Its notebook, its Try-it, its cells and its old texts are there, and its code compiles."""
    nb, stop = runner.prepare(spec)
    assert 0 < stop <= len(nb.cells)
    for code in [run.code for run in spec.runs] + [spec.check] + spec.book:
        compile(code, spec.name, "exec")


def test_specs_are_read_strictly(tmp_path):
    path = tmp_path / "try_its.toml"
    path.write_text('[[try_it]]\nlesson = "x"\nwords = "y"\nchek = "typo"\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"unknown key \['chek'\]"):
        runner.load_specs(path)
    path.write_text('[[try_it]]\nlesson = "x"\nwords = "y"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="no edit and no run"):
        runner.load_specs(path)
    path.write_text('[[try_it]]\nlesson = "x"\nwords = "y"\nuntil = "all"\n'
                    '[[try_it.run]]\nafter = "a"\ncode = "b"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="until = 'all'"):
        runner.load_specs(path)


def _lesson(folder):
    """A small lesson: a Try-it in section 1, whose section ends before a cell that would fail."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# 99 · A test lesson\n\n## 1. Numbers"),
        nbformat.v4.new_code_cell("n = 3\nsquares = [i * i for i in range(n)]\n"
                                  "assert len(squares) == n\nprint(squares)"),
        nbformat.v4.new_markdown_cell("**Try it:** set `n = 5` and see the list grow.\n\n"
                                      "## 2. Later"),
        nbformat.v4.new_code_cell("assert n == 3, 'a later cell pins n'"),
    ]
    nbformat.write(nb, folder / "99-test.ipynb")


def _specs(folder, body):
    path = folder / "try_its.toml"
    path.write_text('[[try_it]]\nlesson = "99-test"\nwords = "set `n = 5`"\n' + body, encoding="utf-8")
    return runner.load_specs(path)


EDIT = '[[try_it.edit]]\ncell = "n = 3"\nold = "n = 3"\nnew = "n = 5"\n'


def test_the_runner_reports_ok_and_failures(tmp_path):
    _lesson(tmp_path)
    # to the end of its section, the later cell not run; the check reads the book's value
    [holds] = _specs(tmp_path, 'book = ["len(squares)"]\n'
                     'check = "assert len(squares) == book[\'len(squares)\'] + 2 == 5"\n' + EDIT)
    result = runner.check(holds)
    assert result.ok, result.message
    # Run All: the later cell pins the book's value and fails, named as the stored notebook has it
    [run_all] = _specs(tmp_path, 'until = "end"\n' + EDIT)
    result = runner.check(run_all)
    assert not result.ok and result.message == "cells[3]: AssertionError: a later cell pins n"
    # a promise that does not hold
    [broken] = _specs(tmp_path, 'check = "assert len(squares) == 4, len(squares)"\n' + EDIT)
    result = runner.check(broken)
    assert not result.ok and result.message == "the check: AssertionError: 5", result.message
    # a learner's line that raises, named as the learner's
    [raises] = _specs(tmp_path, '[[try_it.run]]\nafter = "n = 3"\ncode = "squares[n]"\n')
    result = runner.check(raises)
    assert not result.ok
    assert result.message == ("the learner's cell after cells[1]: "
                              "IndexError: list index out of range"), result.message


def test_a_spec_that_no_longer_applies_is_refused(tmp_path):
    _lesson(tmp_path)
    spec_text = '[[try_it]]\nlesson = "99-test"\nwords = "set `n = 5`"\n' + EDIT
    cases = [('words = "set `n = 5`"', 'words = "set `n = 7`"', "words found in 0 Try-it paragraphs"),
             ('old = "n = 3"', 'old = "n = 4"', "'n = 4' occurs 0 times in cells[1]"),
             ('cell = "n = 3"', 'cell = "m = 3"', "cell 'm = 3' names 0 code cells"),
             ('lesson = "99-test"', 'lesson = "98-gone"', "no notebook 98-gone.ipynb")]
    path = tmp_path / "try_its.toml"
    for right, wrong, why in cases:
        path.write_text(spec_text.replace(right, wrong), encoding="utf-8")
        [spec] = runner.load_specs(path)
        with pytest.raises(runner.SpecError, match=re.escape(why)):
            runner.prepare(spec)
        result = runner.check(spec)                  # reported, not raised, by the runner
        assert not result.ok and "the spec does not apply" in result.message, result.message


def test_each_run_stops_its_kernel(tmp_path):
    """The runner starts a kernel per Try-it (and `make notebooks` one per notebook) through
    tools/run_notebooks.py's execute(), which stops it when the notebook is done: left running,
    they pile up until the process exits."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("import os\nprint(os.getpid())")]
    load_tool("run_notebooks").execute(nb, tmp_path)
    pid = int(nb.cells[0].outputs[0].text)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
