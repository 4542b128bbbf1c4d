"""A function question's inputs: the same in the notebook and in the grader, and a pure
function of the submission (embedlab.grading.cases).

* The notebook's check and the grader's worker find the same digest for a function
  (whatever the spacing, comments or magics of its cell), so they draw the same inputs.
* Every wrong function of the hint corpora is judged wrong on every seed, not on some:
  the verdict of a plausible bug does not depend on which inputs were drawn.
* The grader, given `--seed 1`, `2` and `3`, agrees with the notebook's own check on a
  `count_unique` that sums the distinct sizes.
"""

import csv
import importlib

import nbformat
import numpy as np
import pytest

from embedlab.grading import cli
from embedlab.grading.cases import bindings, history_digest, rng_for
from embedlab.grading.exercise import Exercise, evaluate
from embedlab.grading.kinds import Function, status_only
from embedlab.grading.lessons import questions_for
from embedlab.grading.status import CORRECT, INCORRECT
from embedlab.grading.worker import notebook_code
from solution_runner import ROOT

COUNT_DISTINCT_SIZES = "def count_unique(storage, sizes):\n    return int(sum(set(sizes)))\n"


def corpus_functions():
    """(lesson, name, source) of every wrong function in the hint corpora."""
    out = []
    modules = ["test_hint_corpus", "hint_corpus.learners"]
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        entries = getattr(module, "CORPUS", None) or getattr(module, "ENTRIES", [])
        for w in entries:
            q = next((q for q in questions_for(w.lesson) if q.name == w.name), None)
            if isinstance(q, Function):
                out.append((w.lesson, w.name, w.source))
    return out


def test_the_notebook_and_the_worker_find_the_same_digest_whatever_the_spacing_and_magics():
    cell = "%matplotlib inline\n# my version\ndef count_unique(storage, sizes):\n    return  int(sum(sizes))\n"
    same = "def count_unique(storage, sizes):\n\n    # a comment\n    return int(sum(sizes))"
    other = "def count_unique(storage, sizes):\n    return int(sum(sizes)) + 0\n"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1"), nbformat.v4.new_code_cell(cell)])
    grader = notebook_code(nb)["bindings"]["count_unique"]
    # the kernel's history holds the cells as IPython ran them: magics already turned into calls
    history = ["", "x = 1", "get_ipython().run_line_magic('matplotlib', 'inline')\n" + cell.split("\n", 1)[1]]
    assert history_digest({"In": history}, "count_unique") == grader
    assert bindings([same])["count_unique"] == grader
    assert bindings([other])["count_unique"] != grader
    assert bindings([cell, other])["count_unique"] == bindings([other])["count_unique"]  # the last one counts
    assert bindings(["def mine(s, z):\n    return 1\ncount_unique = mine"])["count_unique"] == \
        bindings(["def mine(s, z):\n    return 1"])["mine"]  # an alias draws its function's inputs
    assert history_digest({}, "count_unique") == ""  # plain Python: fixed inputs all the same


def test_inputs_depend_only_on_the_lesson_the_question_the_code_and_the_seed():
    def draw(*args):
        return rng_for(*args).integers(0, 2**32, size=4).tolist()

    base = ("05-weight-tying", "count_unique", "abc")
    assert draw(*base) == draw(*base)
    assert draw(*base, None) != draw(*base, 1) != draw(*base, 2)
    assert draw("05-weight-tying", "count_unique", "abd") != draw(*base)
    assert draw("05-weight-tying", "other", "abc") != draw(*base)


def test_the_parameters_cell_is_read_before_anything_runs():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("from embedlab import x"),
                                         nbformat.v4.new_code_cell("V = 50_257\nsizes = (1, 2)\nname = 'gpt2'")])
    assert notebook_code(nb)["parameters"] == {"V": 50_257, "sizes": [1, 2], "name": "gpt2"}  # no tag: first such cell
    nb.cells[0].metadata["tags"] = ["parameters"]
    assert notebook_code(nb)["parameters"] is None  # the tagged cell is not `name = literal` lines
    nb.cells[0].metadata["tags"] = "parameters"  # a tags field that is not a list: no tag
    assert notebook_code(nb)["parameters"] == {"V": 50_257, "sizes": [1, 2], "name": "gpt2"}


FUNCTIONS = corpus_functions()


@pytest.mark.parametrize("lesson, name, source", FUNCTIONS,
                         ids=[f"{lesson[:2]}-{name}-{i}" for i, (lesson, name, _) in enumerate(FUNCTIONS)])
def test_a_wrong_function_is_wrong_on_every_seed(lesson, name, source):
    """Plausible bugs must not pass on some inputs and fail on others: the fixed inputs of each
    question catch them, so the notebook's verdict and the grader's agree whatever the seed."""
    namespace = {"np": np}
    exec(source, namespace)  # noqa: S102 - the corpus is ours
    q = next(q for q in questions_for(lesson) if q.name == name)
    digest = bindings([source])[name]
    with status_only():  # the status, exactly the full judgement's; the hint is not searched for
        verdicts = {seed: evaluate(q, namespace[name], None, q.cases(rng_for(lesson, name, digest, seed))).status
                    for seed in (None, 1, 2, 3, 4, 5)}
    assert set(verdicts.values()) == {INCORRECT}, verdicts


def test_the_grader_agrees_with_the_notebook_on_seeds_1_2_3(tmp_path):
    lesson = "05-weight-tying"
    namespace = {"In": ["", COUNT_DISTINCT_SIZES]}
    exec(COUNT_DISTINCT_SIZES, namespace)  # noqa: S102
    notebook = Exercise(lesson).verdict("count_unique", namespace).status
    solution = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    setup = next(c for c in solution.cells if c.cell_type == "code" and "Exercise(" in c.source)
    nb = nbformat.v4.new_notebook(metadata={"embedlab": {"lesson": lesson, "kind": "exercise"}},
                                  cells=[nbformat.v4.new_code_cell(setup.source),
                                         nbformat.v4.new_code_cell(COUNT_DISTINCT_SIZES)])
    nbformat.write(nb, tmp_path / f"{lesson}.ipynb")
    verdicts = []
    for seed in (1, 2, 3):
        out = tmp_path / f"scores-{seed}.csv"
        assert cli.main([str(tmp_path / f"{lesson}.ipynb"), "--out", str(out), "-q", "--seed", str(seed)]) == 0
        with open(out, newline="", encoding="utf-8") as f:
            verdicts.append(next(r for r in csv.DictReader(f) if r["question"] == "count_unique")["status"])
    assert notebook == INCORRECT and verdicts == [INCORRECT] * 3
    assert CORRECT not in verdicts
