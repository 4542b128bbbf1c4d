"""The test command compares stored outputs: a notebook whose output no longer matches fails.

One pytest run, with the project's own options (pyproject.toml's addopts: nbval, the sanitize
file), over three small notebooks made here: one as stored, one with a changed printed line,
one with a changed result. Small, so that the run costs a kernel start each and no lesson;
every lesson, exercise and solution is itself run by nbval in the test command.
"""

import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import nbformat

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


def run_test_command(paths) -> subprocess.CompletedProcess:
    """pytest as `make test` runs it (the project's ini file and addopts), on these notebooks only."""
    args = [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(paths[0].parent),
            "-p", "no:xdist", "-rf", *map(str, paths)]
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True)


def test_a_changed_stored_output_fails(tmp_path):
    good = stored_notebook()
    changed_print = copy.deepcopy(good)
    changed_print.cells[0].outputs[0]["text"] = "V = 3, d = 2, parameters = V × d = 7\n"
    changed_result = copy.deepcopy(good)
    changed_result.cells[1].outputs[0]["data"]["text/plain"] = "7"
    paths = []
    for name, nb in (("good", good), ("changed_print", changed_print), ("changed_result", changed_result)):
        paths.append(tmp_path / f"{name}.ipynb")
        nbformat.write(nb, paths[-1])
    assert json.loads(paths[0].read_text(encoding="utf-8"))["cells"][0]["outputs"]  # stored as written

    result = run_test_command(paths)
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    assert re.search(r"\b2 failed, 4 passed\b", result.stdout), result.stdout[-3000:]
    failed = sorted(re.findall(r"^FAILED \S*?(\w+)\.ipynb::(Cell \d+)", result.stdout, re.MULTILINE))
    assert failed == [("changed_print", "Cell 0"), ("changed_result", "Cell 1")], result.stdout[-3000:]
