"""Right answers written otherwise are never refused: tests/hint_corpus/right_answers.py, a blind corpus of
180 correct answers over all 12 lessons written as learners write them (other names, the answer in a
cell of its own or finished in a cell below, helpers above, values read another way), by an author who
never opened the grading code. It found 15 false refusals of the second looks (embedlab.grading.elsewhere)
before they were fixed by kind: an answer finished in a later cell, and other parameters put in place
only in part. `python -m hint_corpus.run_right` runs them in real kernels; here each run's cells execute
in this process, in order, with IPython's input history (`_ih`) growing cell by cell as in a kernel, and
every check line must be ✅.
"""

import contextlib
import io
import warnings

import pytest

from hint_corpus.right_answers import ENTRIES
from hint_corpus.run_right import batches, build
from solution_runner import remember_runs  # noqa: F401 - the lessons' tiny models trained once

RUNS = [(lesson, run) for lesson in sorted({e.lesson for e in ENTRIES})
        for run in batches([e for e in ENTRIES if e.lesson == lesson])]


class Shell:
    """What a cell's `%time` / `%%time` becomes in a kernel (IPython's transform writes the call into
    the history too): here the timed code just runs."""

    def __init__(self, ns):
        self.ns = ns

    def run_line_magic(self, magic, line):
        exec(compile(line, "<magic>", "exec"), self.ns)  # noqa: S102

    def run_cell_magic(self, magic, line, cell):
        exec(compile(cell, "<magic>", "exec"), self.ns)  # noqa: S102


def check_lines(lesson, entries) -> dict:
    """{question: its check line} of the notebook holding `entries`, its cells run in this process."""
    from IPython.core.inputtransformer2 import TransformerManager

    nb = build(lesson, entries)
    ns = {"__name__": "__main__", "_ih": [""]}
    ns["get_ipython"] = lambda: Shell(ns)
    lines = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        source = TransformerManager().transform_cell(cell.source)  # as IPython runs and records it
        ns["_ih"].append(source)
        out = io.StringIO()
        with contextlib.redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(source, f"<{lesson} cell>", "exec"), ns)  # noqa: S102 - the course's own cells
        text = cell.source.strip()
        if text.startswith("ex.check("):
            lines[text[len("ex.check("):-1].strip("\"'")] = " ".join(out.getvalue().split())
    return lines


@pytest.mark.parametrize("lesson, run", RUNS, ids=[f"{lesson}-{i}" for i, (lesson, _) in enumerate(RUNS)])
def test_every_right_answer_written_otherwise_gets_a_tick(lesson, run):
    lines = check_lines(lesson, run)
    refused = {e.name: lines.get(e.name) for e in run if not (lines.get(e.name) or "").startswith("✅")}
    assert not refused, refused
