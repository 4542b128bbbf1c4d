"""The tests' shared notebook helpers: a lesson's solution or exercise, its answer cells edited
(the grader's tests build hostile submissions this way), and the solution run in this process
with a variant's parameters (no kernel, no grader), so the class-mode tests check that the
notebook computes what its question module expects."""

from pathlib import Path

import contextlib
import io
import warnings

import nbformat
import numpy as np
import pytest

from embedlab.grading.variants import parameters_cell, read_parameters, with_parameters

ROOT = Path(__file__).resolve().parent.parent


def notebook(folder: str, lesson: str):
    """solutions/ or exercises/ NN-slug.ipynb, read fresh (the caller may edit it)."""
    return nbformat.read(ROOT / folder / f"{lesson}.ipynb", as_version=4)


def answer_cell(nb, name):
    """The code cell that defines `name` (an assignment or a def)."""
    for cell in nb.cells:
        if cell.cell_type == "code" and any(
            line.startswith((f"{name} =", f"def {name}(")) for line in cell.source.split("\n")
        ):
            return cell
    raise LookupError(name)


def after_setup(nb, source):
    """A cell right after the setup cell (the one that creates `ex`)."""
    index = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and "Exercise(" in c.source)
    nb.cells.insert(index + 1, nbformat.v4.new_code_cell(source))
    return nb


def before(nb, name, source):
    """`source` run at the top of the cell that defines `name`."""
    cell = answer_cell(nb, name)
    cell.source = source + "\n" + cell.source
    return nb


def solution_parameters(lesson: str) -> dict:
    """The values in the solution's parameters cell (variant 0's, the book's)."""
    nb = notebook("solutions", lesson)
    return read_parameters(nb.cells[parameters_cell(nb)].source)


def run_solution(lesson: str, params: dict) -> dict:
    """The namespace left by the solution's code cells (check cells left out) with `params`."""
    nb = with_parameters(nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4), params)
    namespace = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and "ex.check" not in cell.source and "ex.summary" not in cell.source:
            exec(compile(cell.source, "<cell>", "exec"), namespace)  # noqa: S102 - our own solution
    return namespace


def assert_computes(lesson: str, params: dict, answers: dict) -> dict:
    """The solution run with `params` leaves exactly `answers` (the question module's); its namespace."""
    namespace = run_solution(lesson, params)
    for name, value in answers.items():
        got = namespace[name]
        assert np.shape(got) == np.shape(value) and np.array_equal(got, value), (lesson, name, got, value)
    return namespace


@pytest.fixture(autouse=True, scope="module")
def remember_runs():
    """Import into a variant test module: each variant's run is trained for the question module and
    again by the solution, so train it once (embedlab.tinylm.remember_runs; a remembered run is a fresh
    training to the bit, test_tinylm.py)."""
    from embedlab import tinylm

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tinylm, "remember_runs", True)
        yield


def grader_scoring(lesson: str, name: str, namespace: dict, source: str, seed: int | None = None) -> tuple[str, str]:
    """(status, detail) of the grader's scoring of one answer, in this process: its probe on the
    namespace, the probe's data through Jupyter's JSON as the kernel sends it, the answer cell's source
    as the worker cuts it, a function's inputs from the grader's generator (with `seed`, as --seed), then `cli.score`, as
    `embedlab-grade` judges after the sandbox."""
    from jupyter_client.session import json_packer, json_unpacker

    from embedlab.grading import cli, wire
    from embedlab.grading.cases import rng_for
    from embedlab.grading.code import SOURCE_LIMIT
    from embedlab.grading.kinds import Function
    from embedlab.grading.lessons import load_key, questions_for
    from embedlab.grading.sandbox import Limits, RunResult
    from embedlab.grading.values import encode_value

    q = next(q for q in questions_for(lesson) if q.name == name)
    cases, reference = {}, {}
    if isinstance(q, Function):
        args = q.cases(rng_for(lesson, q.name, seed))
        cases[q.name] = encode_value(list(args))
        reference[q.name] = q.expected_outputs(args)
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        answers = json_unpacker(json_packer(dict(wire.probe(lesson, namespace, json_unpacker(json_packer(cases))))))
    result = RunResult("finished", report={"sources": {name: source[:SOURCE_LIMIT]}}, answers=answers)
    _, _, status, detail = cli.score(q, load_key(lesson), reference, result, Limits())
    return status, detail


def grade_folder(folder: Path, timeout: float) -> list[dict]:
    """The rows of scores.csv from one real `embedlab-grade` run over the notebooks in `folder`
    (sandboxed, two at a time, a 120 s cell limit and `timeout` s for a whole run; a notebook judged
    alike before is read back: embedlab.grading.kept)."""
    import csv

    import pytest

    from embedlab.grading import cli
    from embedlab.grading.kept import GRADES_ENV

    out = folder / "scores.csv"
    with pytest.MonkeyPatch.context() as patch:  # written answers, honest: their judged rows kept by hash
        patch.setenv(GRADES_ENV, "1")           # (embedlab.grading.kept; CONTRIBUTING.md)
        code = cli.main([str(folder), "--out", str(out), "-q", "-j", "2", "--cell-timeout", "120",
                         "--timeout", f"{timeout:g}"])
    assert code == 0
    with open(out, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


class KernelEvents:
    """IPython's shell as the notebook's check watches it (embedlab.grading.exercise.watch_runs): its namespace and
    its pre_run_cell and post_run_cell events, for cells run in this process as a kernel runs them. Install it as
    IPython.get_ipython() before the notebook's setup cell makes its Exercise; `run` each cell through it."""

    def __init__(self, namespace: dict):
        import types

        self.user_ns = namespace
        self.handlers: dict = {}
        self.events = types.SimpleNamespace(register=lambda event, fn: self.handlers.setdefault(event, []).append(fn))

    def run(self, source: str, count: int, execute) -> BaseException | None:
        """`execute()` run as cell number `count` of IPython's history (its text `source`), the events around it;
        the error it raised (shown, as a kernel shows it: not raised), or None."""
        import types

        for fn in self.handlers.get("pre_run_cell", []):
            fn(types.SimpleNamespace(raw_cell=source))
        error = None
        try:
            execute()
        except Exception as exc:  # noqa: BLE001 - as in a kernel: the next cell runs
            error = exc
        for fn in self.handlers.get("post_run_cell", []):
            fn(types.SimpleNamespace(execution_count=count, error_in_exec=error, error_before_exec=None))
        return error

    def forget(self) -> None:
        """Stop the check's watch of this namespace (a test's namespace outlives none of its cells)."""
        from embedlab.grading import exercise

        exercise._WATCHED.pop(id(self.user_ns), None)


def grade_by_learner(paths: list, folder: Path, cell_timeout: float, timeout: float) -> dict:
    """{the submission's name up to its first '-': {question: its scores.csv row}} from one real
    `python -m embedlab.grading` run over `paths` (a process of its own, as an instructor runs it),
    its scores.csv written in `folder`."""
    import csv
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "embedlab.grading", *map(str, paths), "--out",
                           str(folder / "scores.csv"), "-q", "--cell-timeout", f"{cell_timeout:g}",
                           "--timeout", f"{timeout:g}"],
                          cwd=folder, capture_output=True, text=True, timeout=2 * timeout)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:])
    rows = {}
    with open(folder / "scores.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            rows.setdefault(Path(row["submission"]).stem.split("-")[0], {})[row["question"]] = row
    return rows


def assign_and_grade(tmp: Path, learners, secret: bytes, variants: int, lessons, fill,
                     *grade_args: str) -> dict:
    """A class as an instructor makes one, from its handouts: a roster of `learners` and the `secret`
    written in `tmp`, `embedlab-assign all` with `variants` variants into tmp/class, each learner's
    handout of each of `lessons` filled by `fill(handout, lesson, learner, keys)` into
    tmp/submissions/<learner>/, and those graded by `embedlab-grade` (its judged rows kept:
    GRADES_ENV) into tmp/scores.csv with `grade_args` added. Both commands must exit 0.
    {"out", "keys", "subs", "scores"}: the class folder, its keys, the submissions, the CSV's path."""
    from embedlab.grading import assign, cli
    from embedlab.grading.kept import GRADES_ENV
    from embedlab.grading.keys import KEYS_DIR, load_keys

    (tmp / "roster.csv").write_text("learner\n" + "".join(f"{name}\n" for name in learners),
                                    encoding="utf-8")
    (tmp / "secret.txt").write_bytes(secret + b"\n")
    out = tmp / "class"
    assert assign.main(["all", "--roster", str(tmp / "roster.csv"), "--secret-file",
                        str(tmp / "secret.txt"), "--out", str(out), "--variants", str(variants),
                        "-j", "2"]) == 0
    keys = load_keys(out / KEYS_DIR)
    subs = tmp / "submissions"
    for learner in learners:
        (subs / learner).mkdir(parents=True)
        for lesson in lessons:
            handout = nbformat.read(out / learner / f"{lesson}.ipynb", as_version=4)
            nbformat.write(fill(handout, lesson, learner, keys), subs / learner / f"{lesson}.ipynb")
    scores = tmp / "scores.csv"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(GRADES_ENV, "1")
        assert cli.main([str(subs), "--keys", str(out / KEYS_DIR), "--out", str(scores), "-q",
                         "-j", "2", "--cell-timeout", "30", *grade_args]) == 0
    return {"out": out, "keys": keys, "subs": subs, "scores": scores}


def notebook_verdict(lesson: str, name: str, source: str):
    """The notebook check's verdict on `source` written in the question's answer cell, as a learner's
    kernel holds it: the solution's cells above run first (tests/hint_corpus/check_wrong.py), and the
    input history holds the exercise's given lines above `# YOUR CODE HERE`, then `source`."""
    from embedlab.grading.exercise import Exercise
    from hint_corpus import Wrong, check_wrong

    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(Wrong(lesson, name, source, "", (), ()))
    prelude = check_wrong.exercise_prelude(lesson, name)
    ns["_ih"] = ["", (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source]
    return Exercise(lesson).verdict(name, ns)


def incorrect_detail(lesson: str, name: str, source: str) -> str:
    """`notebook_verdict`'s words, which must say incorrect, with no rendering problem (a placeholder
    left, a doubled word: embedlab.grading.text.hint_problems)."""
    from embedlab.grading.text import hint_problems

    verdict = notebook_verdict(lesson, name, source)
    assert verdict.status == "incorrect", verdict
    assert not hint_problems(verdict.detail), verdict.detail
    return verdict.detail
