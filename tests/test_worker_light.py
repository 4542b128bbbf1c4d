"""The sandbox's worker starts light: every submission gets a fresh worker process, so what it imports
is paid once per submission (benchmarks/grade_startup.py). It reads the notebook, its parameters cell
(embedlab.grading.parameters) and where each answer is defined, from the question names the grader
sends in the job, without numpy or the lessons' questions (which the kernel imports, in its own
process, as the notebook asks). Where it finds each answer is the same as from the questions."""

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from embedlab.grading import worker
from embedlab.grading.lessons import questions_for

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
HEAVY = ("numpy", "embedlab.grading.kinds", "embedlab.grading.lessons", "embedlab.grading.variants")

# what the worker does before its kernel starts: read the notebook, say what it is, make the cells to run
READ = """
import json, sys
from embedlab.grading import worker
nb = worker.read_notebook(open(sys.argv[1], "rb").read())
said = {**worker.notebook_says(nb), **worker.notebook_code(nb)}
report = {}
worker.fresh_cells(nb, sys.argv[2], {}, report, {}, json.loads(sys.argv[3]))
print(json.dumps({"heavy": [m for m in sys.argv[4:] if m in sys.modules], "said": said,
                  "defines": report["defines"]}))
"""


def test_the_worker_reads_a_notebook_without_numpy_or_the_questions():
    lesson = "03-counting-gpt2"  # a parameters cell, values and functions
    names = [q.name for q in questions_for(lesson)]
    import json

    done = subprocess.run([sys.executable, "-c", READ, str(ROOT / "solutions" / f"{lesson}.ipynb"), lesson,
                           json.dumps(names), *HEAVY], capture_output=True, text=True, check=True, timeout=120)
    out = json.loads(done.stdout)
    assert out["heavy"] == [], out["heavy"]
    assert out["said"]["lesson"] == lesson and out["said"]["parameters"]  # it did read the parameters cell
    assert set(out["defines"]) == set(names)


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_the_names_the_grader_sends_find_the_cells_the_questions_find(solution):
    lesson = solution.stem
    nb = nbformat.read(solution, as_version=4)
    cells = [(i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    found = worker.defining_cells(lesson, cells, [q.name for q in questions_for(lesson)])
    assert found == worker.defining_cells(lesson, cells)
    assert list(found) == [q.name for q in questions_for(lesson)]  # each answer's cell, in the questions' order
