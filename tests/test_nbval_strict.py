"""The test command compares stored outputs: a notebook whose output no longer matches fails.

One pytest run, with the project's own options (pyproject.toml's addopts: nbval, the sanitize
file), over one small notebook made here: a printed line and a result as stored, then the same
two cells with their stored output changed (a printed line, a result). nbval runs and compares
each cell on its own, so the stored pair passes and each changed cell fails by itself. Small, so
that the run costs one kernel start and no lesson; every lesson, exercise and solution is itself
run by nbval in the test command.
"""

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "notebooks" / "01-toy-table.ipynb"


def stored_notebook():
    """Two code cells with their stored outputs (a printed line, a result), a lesson's metadata."""
    nb = nbformat.v4.new_notebook(metadata=nbformat.read(LESSON, as_version=4).metadata)
    printed = nbformat.v4.new_code_cell('print(f"V = 3, d = 2, parameters = V × d = {3 * 2}")',
                                        execution_count=1)
    printed.outputs = [nbformat.v4.new_output("stream", name="stdout",
                                              text="V = 3, d = 2, parameters = V × d = 6\n")]
    result = nbformat.v4.new_code_cell("3 * 2", execution_count=2)
    result.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "6"}, execution_count=2)]
    nb.cells = [printed, result]
    return nb


def again(cell):
    """A copy of a code cell (its source and stored outputs) under a cell id of its own."""
    return nbformat.v4.new_code_cell(cell.source, execution_count=cell.execution_count,
                                     outputs=copy.deepcopy(cell.outputs))


def run_test_command(paths) -> subprocess.CompletedProcess:
    """pytest as `make test` runs it (the project's ini file and addopts), on these notebooks only."""
    args = [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(paths[0].parent),
            "-p", "no:xdist", "-rf", *map(str, paths)]
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True)


def test_a_changed_stored_output_fails(tmp_path):
    good = stored_notebook()
    changed_print, changed_result = (again(cell) for cell in good.cells)
    changed_print.outputs[0]["text"] = "V = 3, d = 2, parameters = V × d = 7\n"
    changed_result.outputs[0]["data"]["text/plain"] = "7"
    nb = copy.deepcopy(good)
    nb.cells += [changed_print, changed_result]  # cells 2 and 3: cells 0 and 1 with a changed output
    path = tmp_path / "stored.ipynb"
    nbformat.write(nb, path)
    assert json.loads(path.read_text(encoding="utf-8"))["cells"][0]["outputs"]  # stored as written

    result = run_test_command([path])
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    assert re.search(r"\b2 failed, 2 passed\b", result.stdout), result.stdout[-3000:]
    failed = sorted(re.findall(r"^FAILED \S*?(\w+)\.ipynb::(Cell \d+)", result.stdout, re.MULTILINE))
    assert failed == [("stored", "Cell 2"), ("stored", "Cell 3")], result.stdout[-3000:]


def test_a_kernel_that_dies_at_start_is_started_again_up_to_three_times(monkeypatch):
    """embedlab._test_command wraps nbval's kernel start: a start that dies (a port taken between its
    choice and the kernel's bind) is tried again with new ports; one that never starts still fails."""
    import nbval.kernel as kernel

    from embedlab import _test_command

    calls = []

    def flaky(*args, **kwargs):
        calls.append(1)
        if len(calls) < _test_command.KERNEL_STARTS:
            raise RuntimeError("Kernel died before replying to kernel_info")
        return "manager", "client"

    monkeypatch.setattr(kernel, "start_new_kernel", flaky)
    _test_command.pytest_configure(None)
    assert kernel.start_new_kernel() == ("manager", "client") and len(calls) == 3

    def dead(*args, **kwargs):
        calls.append(1)
        raise RuntimeError("Kernel died before replying to kernel_info")

    calls.clear()
    monkeypatch.setattr(kernel, "start_new_kernel", dead)
    _test_command.pytest_configure(None)
    with pytest.raises(RuntimeError):
        kernel.start_new_kernel()
    assert len(calls) == 3
