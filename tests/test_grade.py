"""The grader: the right points and status for a set of hostile submissions built
here from lesson 01, and its judging, naming and usage rules.
(Every lesson's solution and blank exercise, lesson 01's among them: tests/test_grade_lessons.py,
which checks their points, statuses, lesson and NotImplementedError detail; they are not graded
again here.)

The hostile notebooks are generated into a temporary folder from the solution
(nothing hostile is committed). The folder is graded once, with short limits, and
each case asserts its exact points and statuses from that one run.
"""

import csv
import os
import hashlib
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import numpy as np
import pytest

from embedlab.grading import cli as grade
from embedlab.grading import grader
from embedlab.grading import worker as grader_worker
from embedlab.grading.kinds import Integer, Real
from embedlab.grading.lessons import questions_for
from embedlab.grading.sandbox import Limits, RunResult

from solution_runner import after_setup, answer_cell, before, notebook

# the hostile folder and the starved cell wait on sandboxes' cell limits (CONTRIBUTING.md, "Tests that wait")
pytestmark = pytest.mark.waits

ROOT = Path(__file__).resolve().parent.parent
CELL_TIMEOUT, TIMEOUT = 5, 40  # seconds: short, so the hostile run stays quick
LIMITS = ["--cell-timeout", str(CELL_TIMEOUT), "--timeout", str(TIMEOUT)]


def run_grader(paths, tmp_path, *extra):
    out = tmp_path / "scores.csv"
    code = grade.main([str(p) for p in paths] + ["--out", str(out), "-q", *LIMITS, *extra])
    with open(out, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return code, rows


def by_submission(rows):
    table = {}
    for row in rows:
        table.setdefault(Path(row["submission"]).name, []).append(row)
    return table


def points(rows):
    return sum(float(r["points"]) for r in rows)


# --------------------------------------------------------------------------
# The hostile set, built from lesson 01's solution.

LESSON = "01-toy-table"


def solution_nb():
    return notebook("solutions", LESSON)


def exercise_nb():
    return notebook("exercises", LESSON)


NAMES = [q.name for q in questions_for(LESSON)]  # E, n_params, batch, cosine, cos_pair, model_table, extra_dim_cost


def exercise_answer_cell(nb, index):
    """The index-th answer cell of the blank exercise (cells holding # YOUR CODE HERE)."""
    return [c for c in nb.cells if c.cell_type == "code" and "# YOUR CODE HERE" in c.source][index]


def set_answer(nb, name, source):
    answer_cell(nb, name).source = source
    return nb


def hostile_wrong():
    nb = solution_nb()
    set_answer(nb, "n_params", "n_params = 4 + 3")
    set_answer(nb, "model_table", "model_table = 2 * 50_257 * 768")
    set_answer(nb, "cosine", "def cosine(a, b):\n    return float(a @ b)")
    return nb


def hostile_wrong_method():
    """Right values by a method right only on these inputs: question 1's E where the given table is asked
    (the book's two tables hold the same numbers). The kernel runs the cells again on another table."""
    nb = solution_nb()
    set_answer(nb, "batch", "table = np.array(table)\nword_to_id = {w: i for i, w in enumerate(words)}\n"
                            "batch = E[[word_to_id[w] for w in sentence]]")
    set_answer(nb, "cos_pair", "cos_pair = cosine(E[word_to_id[pair[0]]], E[word_to_id[pair[1]]])")
    set_answer(nb, "model_table", "model_table = 50257 * 768  # GPT-2 small's, typed")
    return nb


def hostile_raising():
    nb = solution_nb()
    before(nb, "n_params", 'raise RuntimeError("oops")')
    set_answer(nb, "cosine", 'def cosine(a, b):\n    raise ValueError("not today")')
    return nb


def hostile_infinite_loop():
    """A cell that never ends. It sleeps rather than spins: the cell limit's interrupt (SIGINT, whose
    handler raises KeyboardInterrupt between bytecodes, or as a sleep returns) ends a sleep as it
    ends a busy loop, and a spin would burn the whole cell limit in CPU."""
    return before(solution_nb(), "n_params", "import time\nwhile True:\n    time.sleep(0.05)")


LOOP = "\nimport time\nwhile True:\n    time.sleep(0.05)"


def hostile_stopped_after_a_wrong_value():
    """The answer cell assigns a wrong value, then never ends: stopped at the cell limit, it leaves that value
    (issue 45, item 5: graded on it as if nothing happened, "incorrect: …", with no word of the limit)."""
    nb = solution_nb()
    return set_answer(nb, "n_params", "n_params = 4 + 3" + LOOP)


def hostile_stopped_after_a_right_value():
    """The answer cell assigns the right value, then never ends: the value it left is right, and its row
    says the cell was stopped."""
    nb = solution_nb()
    return set_answer(nb, "model_table", answer_cell(nb, "model_table").source + LOOP)


def hostile_ignores_ctrl_c():
    """Ignores Ctrl-C and SIGTERM, and blinds ipykernel's watch on its parent process,
    so only a SIGKILL to the kernel's process group stops it: the worker's, INTERRUPT_GRACE
    after the cell limit's interrupt (not the whole run's limit). It loops on a sleep (with
    SIGINT ignored, a sleep is not interrupted either), not a spin that would burn the cell limit
    and the grace, 10 s, in CPU."""
    return before(solution_nb(), "E", (
        "import os, signal, time\n"
        "parent = os.getppid()\n"
        "os.getppid = lambda: parent\n"
        "os._exit = lambda *args: None\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "while True:\n"
        "    time.sleep(0.05)"
    ))


def hostile_leaves_a_child():
    """Starts a long-lived child process (its command line names the submission's temp folder)."""
    return after_setup(solution_nb(), (
        "import os, subprocess, sys\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', os.getcwd()])"
    ))


def hostile_kills_kernel():
    return before(solution_nb(), "batch", "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)")


def hostile_edited_tests():
    nb = exercise_nb()
    for cell in nb.cells:
        if cell.cell_type == "code" and "ex.check(" in cell.source:
            name = cell.source.split('"')[1]
            cell.source = f'print("✅ {name}: correct")'
        elif cell.cell_type == "code" and "ex.summary()" in cell.source:
            cell.source = 'print("7 / 7 points")'
    after_setup(nb, "class Fake:\n    def check(self, name):\n        print('✅', name)\n    summary = check\nex = Fake()")
    return nb


def hostile_swallows_exceptions():
    nb = exercise_nb()
    after_setup(nb, (
        "import sys\n"
        "get_ipython().set_custom_exc((BaseException,), lambda *args, **kwargs: None)\n"
        "sys.excepthook = lambda *args: None"
    ))
    exercise_answer_cell(nb, 1).source = "n_params = 1 / 0"  # raises, swallowed: never defined
    cosine = next(c for c in nb.cells if c.cell_type == "code" and "def cosine(" in c.source)
    cosine.source = "def cosine(a, b):\n    return undefined_name"
    return nb


def hostile_always_equal():
    nb = exercise_nb()
    after_setup(nb, (
        "import math\nimport numpy as np\nimport embedlab.grading.kinds as grading\n"
        "class AlwaysEqual:\n"
        "    def __eq__(self, other): return True\n"
        "    def __ne__(self, other): return False\n"
        "    def __float__(self): return 0.0\n"
        "    def __int__(self): return 0\n"
        "    __hash__ = object.__hash__\n"
        "class EqualInt(int):\n"
        "    def __eq__(self, other): return True\n"
        "    __hash__ = int.__hash__\n"
        "class EqualArray(np.ndarray):\n"
        "    def __eq__(self, other): return np.ones(np.shape(other), dtype=bool)\n"
        "always_true = lambda *args, **kwargs: True\n"
        "np.array_equal = np.allclose = math.isclose = always_true\n"
        "np.isclose = lambda a, b, *args, **kwargs: np.ones(np.shape(a), dtype=bool)\n"
        "for kind in (grading.Integer, grading.Real, grading.Array, grading.Choice, grading.Function):\n"
        "    kind.judge = lambda self, data, expected: grading.Verdict('correct', self.points, self.points, '')\n"
    ))
    answers = [
        "E = AlwaysEqual()",
        "n_params = EqualInt(1)",
        "batch = np.zeros((3, 3)).view(EqualArray)",
        None,  # cosine: see below
        "cos_pair = AlwaysEqual()",
        "model_table = EqualInt(0)",
        "extra_dim_cost = AlwaysEqual()",
    ]
    cells = [exercise_answer_cell(nb, i) for i in range(len(answers))]
    for cell, source in zip(cells, answers):
        if source:
            cell.source = source
    cosine = next(c for c in nb.cells if c.cell_type == "code" and "def cosine(" in c.source)
    cosine.source = "def cosine(a, b):\n    return AlwaysEqual()"
    return nb


def hostile_huge_output():
    nb = solution_nb()
    after_setup(nb, 'print("x" * 100_000_000)\nfor i in range(200_000):\n    print(i)')
    return nb


def hostile_memory():
    return before(solution_nb(), "E", "hog = np.ones(2**31)  # 16 GiB: far past the memory limit")


def hostile_wrong_lesson():
    nb = exercise_nb()
    nb.metadata["embedlab"]["lesson"] = "02-lookup-vs-matmul"
    return nb


def cell_label(nb, name):
    """How the grader names the cell that defines `name`: as JupyterLab shows it (the heading above
    it, its first line, its execution count), never a count of every cell."""
    from embedlab.grading.worker import cell_labels

    cell = answer_cell(nb, name)
    return cell_labels(nb)[next(i for i, c in enumerate(nb.cells) if c is cell)]


E_CELL = cell_label(hostile_ignores_ctrl_c(), "E")

# file name -> (builder, expected points, expected status per question in NAMES order, detail fragments)
ALL = {name: "correct" for name in NAMES}
CASES = {
    "wrong": (hostile_wrong, 4, ALL | {"n_params": "incorrect", "model_table": "incorrect", "cosine": "incorrect"},
              {"n_params": "add or multiply", "model_table": "token table only"}),
    "wrong-method": (hostile_wrong_method, 4, ALL | {"batch": "incorrect", "cos_pair": "incorrect",
                                                     "model_table": "incorrect"},
                     {"batch": "right for these inputs only", "cos_pair": "`E` is question 1's table",
                      "model_table": "gives the same value as with your own inputs"}),
    "raising": (hostile_raising, 5, ALL | {"n_params": "error", "cosine": "incorrect"},
                {"n_params": "RuntimeError: oops", "cosine": "raised ValueError"}),
    "infinite-loop": (hostile_infinite_loop, 6, ALL | {"n_params": "timeout"}, {"n_params": "cell limit"}),
    "stopped-wrong": (hostile_stopped_after_a_wrong_value, 6, ALL | {"n_params": "timeout"},
                      {"n_params": f"ran past the {CELL_TIMEOUT} s cell limit and was stopped; the value it had "
                                   "left then was graded: "}),
    "stopped-right": (hostile_stopped_after_a_right_value, 7, ALL,
                      {"model_table": f"ran past the {CELL_TIMEOUT} s cell limit and was stopped; the value it "
                                      "had left then is right"}),
    "ignores-ctrl-c": (hostile_ignores_ctrl_c, 0, {n: "timeout" for n in NAMES},
                       {"E": f"{E_CELL} ran past the {CELL_TIMEOUT} s cell limit and did not stop when "
                             "interrupted"}),
    "leaves-a-child": (hostile_leaves_a_child, 7, ALL, {}),
    "kills-kernel": (hostile_kills_kernel, 0, {n: "crashed" for n in NAMES}, {"E": "kernel died"}),
    "edited-tests": (hostile_edited_tests, 0, {n: "not_attempted" for n in NAMES}, {}),
    # a hidden exception is still one: the kernel's reply says the cell raised (worker.GradingClient)
    "swallows-exceptions": (hostile_swallows_exceptions, 0, {n: "error" for n in NAMES} | {"cosine": "incorrect"},
                            {"cosine": "NameError", "n_params": "ZeroDivisionError"}),
    "always-equal": (hostile_always_equal, 0, {n: "incorrect" for n in NAMES},
                     {"E": "AlwaysEqual", "cos_pair": "AlwaysEqual"}),
    "huge-output": (hostile_huge_output, 7, ALL, {}),
    "memory": (hostile_memory, 6, ALL | {"E": "memory"}, {"E": "out of memory"}),
    "wrong-lesson": (hostile_wrong_lesson, 0, {n: "wrong_lesson" for n in NAMES}, {"E": "02-lookup-vs-matmul"}),
    "corrupt": (None, 0, {n: "unreadable" for n in NAMES}, {"E": "not a readable notebook"}),
}


def filename(case):
    return f"{case}-{LESSON}.ipynb"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """Write every hostile notebook, grade the folder once (-j 2), and check nothing was modified."""
    folder = tmp_path_factory.mktemp("submissions")
    for case, (build, *_ ) in CASES.items():
        if build is not None:
            nbformat.write(build(), folder / filename(case))
    (folder / filename("corrupt")).write_text('{"cells": [{"cell_type": "code", "source": "E = ', encoding="utf-8")
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}
    sandbox = tmp_path_factory.mktemp("grader-tmp")  # the workers' temp folders go here
    saved, tempfile.tempdir = tempfile.tempdir, str(sandbox)
    runs = {}  # file name -> the rows of each time the grader graded it (their cpu_wait included)
    grade_submission = grader.grade_submission

    def recorded(sub, *args, **kwargs):
        rows = grade_submission(sub, *args, **kwargs)
        runs.setdefault(Path(sub.label).name, []).append(rows)
        return rows

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(grader, "grade_submission", recorded)
            start = time.monotonic()
            code, rows = run_grader([folder], tmp_path_factory.mktemp("out"), "-j", "2")
            seconds = time.monotonic() - start
    finally:
        tempfile.tempdir = saved
    after = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}
    return {"code": code, "rows": by_submission(rows), "seconds": seconds, "before": before, "after": after,
            "survivors": processes_mentioning(str(sandbox)), "leftovers": list(sandbox.iterdir()), "runs": runs}


def processes_mentioning(text):
    """Processes whose command line mentions `text` (a kernel's connection file lives in its temp folder)."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if text in cmdline.read_bytes().decode("utf-8", "replace"):
                found.append(cmdline.parent.name)
        except OSError:
            continue
    return found


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_submission(graded, case):
    _, want_points, want_status, want_detail = CASES[case]
    rows = graded["rows"][filename(case)]
    assert [r["question"] for r in rows] == NAMES
    assert {r["question"]: r["status"] for r in rows} == want_status, rows
    assert points(rows) == want_points
    assert all(r["lesson"] == LESSON for r in rows)
    details = {r["question"]: r["detail"] for r in rows}
    for question, fragment in want_detail.items():
        assert fragment in details[question], (question, details[question])


HARD_CODED = ("def cosine(a, b):\n"
              "    return TABLE.get(tuple(np.concatenate([a, b]).round(12)), 0.0)")


def test_a_hard_coded_function_passes_the_inputs_it_saw_and_fails_with_a_seed():
    """A `cosine` that only knows the outputs for the inputs it was checked on. The default
    inputs are the question's own, the same for every answer (one verdict for one answer,
    embedlab.grading.cases), so it passes them, as the book says; --seed N draws random
    inputs no notebook saw, and it fails on every such seed (the grader's own scoring, in
    this process)."""
    from embedlab.grading.cases import rng_for
    from solution_runner import grader_scoring

    question = next(q for q in questions_for(LESSON) if q.name == "cosine")
    seen = question.cases(rng_for(LESSON, "cosine"))
    namespace = {"np": np, "TABLE": {tuple(np.concatenate([a, b]).round(12)): question.reference(a, b)
                                     for a, b in seen}}
    exec(HARD_CODED, namespace)  # noqa: S102
    assert grader_scoring(LESSON, "cosine", namespace, HARD_CODED)[0] == "correct"
    for seed in (1, 2, 3, 4, 5):
        status, detail = grader_scoring(LESSON, "cosine", namespace, HARD_CODED, seed)
        assert status == "incorrect" and "on input 7 of 10" in detail, (seed, detail)


def test_folder_graded_in_bounded_time_and_left_untouched(graded):
    assert graded["code"] == 0
    assert set(graded["rows"]) == {filename(c) for c in CASES}
    assert graded["after"] == graded["before"]  # every submission byte-identical
    assert graded["leftovers"] == []  # every temporary folder removed
    if Path("/proc").is_dir():  # no worker or kernel outlives its submission (not even the Ctrl-C ignorer)
        assert graded["survivors"] == []
    # Bounded: each submission is killed at TIMEOUT; with 2 workers the worst case is
    # ceil(n / 2) * TIMEOUT plus start-up. (A guard against a hang, not a speed test.)
    assert graded["seconds"] < (len(CASES) + 1) // 2 * TIMEOUT + 60


# Whether Linux counts each task's wait for a CPU here (/proc/<pid>/task/<tid>/schedstat; the sandbox
# mounts its own /proc, which reads the same): where it does not, every time-out is graded again.
SCHEDSTAT = grader_worker.waits_now() is not None


@pytest.mark.parametrize("case", ["infinite-loop", "ignores-ctrl-c"])
def test_a_time_out_that_waited_for_no_cpu_is_not_graded_again(graded, case):
    """Both loops sleep: their time-outs are their own, not a neighbour's. The -j 2 run measures what
    their cells waited for a CPU (the sandbox's schedstat) as a small part of the cell limit, so each is
    graded once (book/grading.md, "Limits"); seen red with the old rule (every time-out graded again).
    A starved cell is graded again: test_a_cell_starved_of_cpu_is_graded_again."""
    runs = graded["runs"][filename(case)]
    waits = [row.cpu_wait for row in runs[0] if row.status == "timeout"]
    if not SCHEDSTAT:   # a Linux that does not count waits: the wait is not known, so graded again
        assert waits and set(waits) == {None} and len(runs) == 2, waits
        return
    share = grader.RETRY_WAIT_SHARE * CELL_TIMEOUT
    # measured in the real run (a number, never "not known"), far below a starved cell's (more than half
    # its limit: test_a_cell_starved_of_cpu_is_graded_again); 0.02-0.03 s on a quiet machine, 0.42 s
    # once during a whole `make test` (a loaded machine's wake-up latency, 20 wakes a second)
    assert waits and all(w is not None and w < CELL_TIMEOUT / 4 for w in waits), waits
    # graded once when it waited under the share; a loaded machine can push even a sleeper over it, and
    # then it is graded again, as the rule says (a cost in time, never in points)
    assert len(runs) == (1 if max(waits) < share else 2), (waits, [[r.status for r in rows[:1]] for rows in runs])


# --------------------------------------------------------------------------
# Judging forged data: the grader's judgement only ever sees plain data.


def finished(answers, errors=(), timeouts=()):
    return RunResult("finished", {"errors": list(errors), "timeouts": list(timeouts)}, answers)


@pytest.mark.parametrize("entry, status", [
    ({"data": {"int": 12}}, "correct"),
    ({"data": {"int": 13}}, "incorrect"),
    ({"data": {"int": "12"}}, "error"),  # forged data that is not a number
    ({"data": {"float": 12.0}}, "incorrect"),
    ({"data": {"nonsense": [1, 2]}}, "error"),
    ({"data": None}, "error"),
    ({"data": {"int": {"__eq__": True}}}, "error"),
    ("not a dict", "error"),
    ({"missing": True}, "not_attempted"),
    ({"wrong_form": "expected a whole number (int), got AlwaysEqual"}, "incorrect"),
    ({"raised": "KeyboardInterrupt: "}, "error"),
])
def test_forged_probe_data_is_judged_not_trusted(entry, status):
    q = Integer("n_params")
    verdict = grade.score(q, {"n_params": 12}, {}, finished({"n_params": entry}), Limits())
    assert verdict[2] == status
    assert verdict[0] == (1.0 if status == "correct" else 0.0)


def test_missing_answer_is_blamed_on_what_went_wrong():
    q = Real("x")
    missing = {"x": {"missing": True}}
    assert grade.score(q, {}, {}, finished(missing), Limits())[2] == "not_attempted"
    assert grade.score(q, {}, {}, finished(missing, errors=[{"cell": 3, "ename": "NameError", "evalue": "y"}]),
                       Limits())[2:] == ("error", "`x` is not defined; a code cell raised NameError: y")
    labelled = finished(missing, errors=[{"cell": 3, "ename": "NameError", "evalue": "y"}])
    labelled.report["labels"] = {"3": 'the code cell under "Question 2 · x" that starts "x = y" (shown as [7])'}
    assert grade.score(q, {}, {}, labelled, Limits())[3] == \
        '`x` is not defined; the code cell under "Question 2 · x" that starts "x = y" (shown as [7]) raised NameError: y'
    assert grade.score(q, {}, {}, finished(missing, timeouts=[2]), Limits())[2] == "timeout"
    assert grade.score(q, {}, {}, finished(None), Limits())[2] == "error"


def hostile_slow_cells():
    """Every cell within the cell limit, the whole run past its limit."""
    nb = solution_nb()
    for _ in range(8):
        after_setup(nb, "import time\ntime.sleep(1.5)")  # under the 5 s cell limit
    return nb


def test_the_whole_run_limit_stops_cells_that_each_stay_under_theirs(tmp_path):
    """--timeout bounds a submission whose cells each finish under --cell-timeout: its sandbox is
    killed at the whole run's limit, every question a timeout. (Graded alone with a short limit:
    the hostile folder's runs end well before theirs.)"""
    nbformat.write(hostile_slow_cells(), tmp_path / filename("slow-cells"))
    start = time.monotonic()
    code = grade.main([str(tmp_path / filename("slow-cells")), "--out", str(tmp_path / "s.csv"), "-q",
                       "--cell-timeout", str(CELL_TIMEOUT), "--timeout", "6"])
    seconds = time.monotonic() - start
    with open(tmp_path / "s.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert code == 0
    assert [(r["question"], r["status"], r["points"]) for r in rows] == [(n, "timeout", "0") for n in NAMES]
    assert all("the whole run passed the 6 s limit" in r["detail"] for r in rows), rows[0]["detail"]
    assert seconds < 6 + 20, seconds  # the 12 s of sleeps were cut short


def test_a_cells_wait_for_a_cpu_is_known_only_when_no_task_ended_during_it():
    """The worker's measure (embedlab.grading.worker.wait_between): the waits of every task of the
    sandbox, in nanoseconds, before and after the cell, and the pid namespace's last pid. A task that
    ended takes its waits with it, so then the wait is not known (None), and the grader grades the
    time-out again. The grader reads the report's figure as untrusted data (sandbox.clean_report)."""
    from embedlab.grading import sandbox, worker
    from embedlab.grading.worker import _Progress, wait_between, waits_now

    start = ({1: 5, 7: 10**9}, 9)
    assert wait_between(start, ({1: 5, 7: 3 * 10**9}, 9)) == 2.0
    assert wait_between(start, ({1: 5, 7: 10**9, 10: 10**8, 11: 0}, 11)) == 0.1   # two tasks started: counted
    assert wait_between(start, ({1: 5}, 9)) is None   # task 7 ended during the cell
    assert wait_between(start, ({1: 5, 7: 10**9, 11: 0}, 11)) is None   # task 10 started and ended
    assert wait_between(start, ({1: 5, 7: 10**9}, 3)) is None   # the pids wrapped around
    assert wait_between(None, start) is None and wait_between(start, None) is None   # /proc unreadable
    now = waits_now()   # here (no sandbox) every task of the machine, this one among them
    assert now is None if not SCHEDSTAT else os.getpid() in now[0] and now[1] >= 1
    for sent, kept in [(1.5, 1.5), (0, 0.0), (10**300, 1e300), (10**400, None), (-1, None), (float("nan"), None),
                       (float("inf"), None), (True, None), ("2", None), (None, None), ([1], None)]:
        assert sandbox.clean_report({"state": "timeout", "cpu_wait": sent})["cpu_wait"] == kept, sent
    assert sandbox.clean_report({"state": "finished"})["cpu_wait"] is None
    # the whole run's limit: the sandbox is killed, no report comes, so its wait is not known
    killed = sandbox.outcome(None, Limits(), passed=None, forged=False, timed_out=True, over=False, returncode=-9,
                             tail="", kernel_started=True)
    assert killed.state == "timeout" and killed.report.get("cpu_wait") is None
    # without the sandbox (the worker sees the whole machine's tasks) no wait is measured: not known
    outside = _Progress({"cpu_wait": 0.0}, measure=False)
    outside.cell_starts()
    outside.cell_timed_out()
    assert outside.report["cpu_wait"] is None
    # in it, the most any timed-out cell waited; once one is not known, not known
    inside, seen = _Progress({"cpu_wait": 0.0}, measure=True), []
    for reading in (({1: 0}, 1), ({1: 2 * 10**8}, 1), ({1: 5 * 10**8}, 1), ({}, 1), ({1: 10**10}, 1)):
        inside.cell_start = ({1: 0}, 1)
        waits_at_limit = iter([reading])
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(worker, "waits_now", lambda: next(waits_at_limit))
            inside.cell_timed_out()
        seen.append(inside.report["cpu_wait"])
    assert seen == [0.0, 0.2, 0.5, None, None]


def test_a_cell_starved_of_cpu_is_graded_again(tmp_path):
    """A real starved cell, through the command line at -j 2: an honest cell that needs 0.2 s of CPU
    shares its core with eleven busy processes outside its sandbox (neighbours; all pinned to one core
    with sched_setaffinity), so it gets at most a twelfth of it and runs past a 2 s cell limit. Alone it
    takes 0.2 s, and well under 2 s on a machine busy with the rest of the test suite (three workers on
    two cores: a neighbour's share is then its own, not this test's; with 0.3 s and seven hogs a fresh
    clone's CI once saw the cell time out alone too, so it needs 10 % of its core now). Its sandbox counts the wait
    (schedstat), so it is graded again once the neighbours are gone (the hogs stop when its first
    grade is in), and that grade, 7 / 7, is written."""
    import subprocess

    core = min(os.sched_getaffinity(0))
    spin = (f"import os, time\nos.sched_setaffinity(0, {{{core}}})\nstart = time.process_time()\n"
            "while time.process_time() - start < 0.2:\n    pass")
    nbformat.write(before(solution_nb(), "n_params", spin), tmp_path / filename("starved"))
    hog = f"import os\nos.sched_setaffinity(0, {{{core}}})\nwhile True:\n    pass"
    # each in a session of its own, as each neighbour's sandbox is (Linux's autogroup shares a core
    # between sessions first: three hogs in one session would take half the core, not three quarters)
    hogs = [subprocess.Popen([sys.executable, "-c", hog], start_new_session=True) for _ in range(11)]
    runs = []
    grade_submission = grader.grade_submission

    def beside_hogs(sub, *args, **kwargs):
        rows = grade_submission(sub, *args, **kwargs)
        runs.append(rows)
        for process in hogs:  # the neighbours are done
            process.kill()
        return rows

    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(grader, "grade_submission", beside_hogs)
            code, rows = run_grader([tmp_path / filename("starved")], tmp_path, "-j", "2", "--cell-timeout", "2")
    finally:
        for process in hogs:
            process.kill()
            process.wait()
    first = {row.question: (row.status, row.cpu_wait) for row in runs[0]}
    waited = first["n_params"][1]
    assert first["n_params"][0] == "timeout" and (waited >= grader.RETRY_WAIT_SHARE * 2 if SCHEDSTAT
                                                  else waited is None), first
    assert len(runs) == 2 and code == 0
    assert [r["status"] for r in rows] == ["correct"] * len(NAMES) and points(rows) == 7


# A cell slow to stop for want of a CPU. Interrupted at its cell limit, a kernel has
# work to do before it stops: IPython formats the KeyboardInterrupt's traceback through
# the frames it was in (0.33 s of CPU for lesson 01's `ex.summary()` stopped inside a
# function answer that never returns: the snoop of tests/test_grade_hostile.py). The
# grader gives it INTERRUPT_GRACE; counted on the clock, a busy machine stretched that
# work past it once in a full `make test`, the kernel was killed, and every question of
# that submission became a `timeout`, the ones it had right among them.
SLOW_STOP_HOGS = 11  # busy processes on the kernel's core as it stops: it gets 1/12
SLOW_STOP_CPU = 0.6  # seconds of CPU its stop takes: at least 7.2 s on the clock so
SLOW_STOP = f"""import os, subprocess, sys, time
try:
    while True:
        time.sleep(0.05)
except KeyboardInterrupt:
    core = min(os.sched_getaffinity(0))
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                             start_new_session=True) for _ in range({SLOW_STOP_HOGS})]
    for hog in hogs:
        os.sched_setaffinity(hog.pid, {{core}})
    everywhere = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {{core}})
    start = time.thread_time()
    while time.thread_time() - start < {SLOW_STOP_CPU}:
        pass
    os.sched_setaffinity(0, everywhere)
    for hog in hogs:
        hog.kill()
        hog.wait()
    raise"""


def test_a_cell_slow_to_stop_for_want_of_a_cpu_is_not_killed(tmp_path):
    """The slow stop made certain, not left to the machine's load: n_params's cell
    sleeps until its 2 s limit; its KeyboardInterrupt then takes SLOW_STOP_CPU s of its
    main thread's CPU, spent on one core beside SLOW_STOP_HOGS busy processes pinned
    there (each in a session of its own, as a neighbour's sandbox is), so that the stop
    takes at least 7.2 s on the clock, past the 5 s grace, on any machine. In the
    kernel's own time (the clock less its waits for a CPU, which Linux counts:
    embedlab.grading.worker.held_back) it is well under 1 s: the cell stopped. So
    n_params is its cell's own `timeout` and the six other questions are graded, 6 / 7,
    as for a stop that needs no CPU (the `infinite-loop` case); seen red with the grace
    on the clock (the kernel killed, 0 / 7). Whose the busy processes are (here the
    cell's own, started on the interrupt and ended before it re-raises) the grader
    cannot tell, and need not: the stop is the kernel's work either way. Graded at -j 1,
    so that no second grade alone hides the first."""
    path = tmp_path / filename("slow-stop")
    nbformat.write(before(solution_nb(), "n_params", SLOW_STOP), path)
    start = time.monotonic()
    code, rows = run_grader([path], tmp_path, "--cell-timeout", "2", "--timeout", "120")
    seconds = time.monotonic() - start
    assert code == 0
    statuses = {r["question"]: r["status"] for r in rows}
    details = {r["question"]: r["detail"] for r in rows}
    assert statuses == ALL | {"n_params": "timeout"}, details["n_params"]
    assert points(rows) == 6
    assert "ran past the 2 s cell limit and was interrupted" in details["n_params"]
    assert not any("did not stop" in detail for detail in details.values()), details
    print(f"\nthe slow stop graded in {seconds:.1f} s")


def test_the_kernels_wait_for_a_cpu_is_its_longest_waiting_thread():
    """The grace's measure (embedlab.grading.worker.held_back): nanoseconds each thread
    of the kernel has waited for a CPU, at the interrupt and now; the most any one
    thread waited in between, a thread started since counted whole; 0 where a reading is
    missing (the grace is then the clock's, as before). Never more than the time between
    the readings."""
    from embedlab.grading.worker import held_back, thread_waits

    start = {10: 10**9, 11: 5 * 10**8}
    # the main thread's 2 s, not the sum's 2.5 s
    assert held_back(start, {10: 3 * 10**9, 11: 10**9}) == 2.0
    assert held_back(start, {10: 10**9, 11: 5 * 10**8, 12: 7 * 10**8}) == 0.7  # new
    assert held_back(start, {10: 2 * 10**9}) == 1.0  # thread 11 ended: the others count
    assert held_back(start, {10: 10**9}) == 0.0  # no wait
    assert held_back(start, {10: 5}) == 0.0  # a tid used again: never below 0
    assert held_back(None, start) == 0.0 and held_back(start, None) == 0.0
    now = thread_waits(os.getpid())  # this process: its main thread among its threads
    if SCHEDSTAT:
        assert os.getpid() in now and all(w >= 0 for w in now.values()), now
    else:
        assert now is None
    assert thread_waits(2**22 + 1) is None  # no such process (past Linux's largest pid)


def test_lesson_from_file_name():
    assert grade.lesson_from_name(Path("alice-01-toy-table.ipynb")) == LESSON
    assert grade.lesson_from_name(Path("01-toy-table (1).ipynb")) == LESSON
    assert grade.lesson_from_name(Path("01-toy-table-v2.ipynb")) == LESSON
    assert grade.lesson_from_name(Path("student003-01-toy-table.ipynb")) == LESSON
    assert grade.lesson_from_name(Path("Bob_01-Toy-Table.ipynb")) == LESSON
    assert grade.lesson_from_name(Path("101-toy-table.ipynb")) is None
    assert grade.lesson_from_name(Path("01-toy-tables.ipynb")) is None
    assert grade.lesson_from_name(Path("homework.ipynb")) is None


def test_unknown_lesson_gets_one_row(tmp_path):
    nb = exercise_nb()
    del nb.metadata["embedlab"]
    nbformat.write(nb, tmp_path / "homework.ipynb")
    code, rows = run_grader([tmp_path / "homework.ipynb"], tmp_path)
    assert code == 0
    assert [(r["question"], r["status"]) for r in rows] == [("", "wrong_lesson")]
    assert "--lesson" in rows[0]["detail"]
    code, rows = run_grader([tmp_path / "homework.ipynb"], tmp_path, "--lesson", LESSON)
    assert code == 0 and [r["status"] for r in rows] == ["not_attempted"] * len(NAMES)


@pytest.mark.parametrize("args", [["no-such-folder"], ["--jobs", "0", "."], ["--lesson", "99-nothing", "."],
                                  ["--timeout", "-1", "."]])
def test_usage_errors_exit_2(args, tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        grade.main(args + ["--out", str(tmp_path / "s.csv")])
    assert exc.value.code == 2


def test_runs_as_a_module(tmp_path):
    import subprocess

    bad = tmp_path / f"{LESSON}.ipynb"
    bad.write_text("not json", encoding="utf-8")
    out = tmp_path / "s.csv"
    done = subprocess.run([sys.executable, "-m", "embedlab.grade", str(bad), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.read_text().splitlines()[0] == ",".join(f'"{c}"' for c in grade.COLUMNS)  # every field quoted
    assert "0 of 7 correct, 7 unreadable" in done.stdout


def test_the_kernel_starts_without_its_debugger_and_a_submission_still_imports_debugpy(tmp_path):
    """worker.KERNEL_LAUNCHER is `python -m ipykernel_launcher` without ipykernel's debugger (debugpy,
    about 0.08 s of CPU a kernel, for debug requests the grader never sends): run up to the kernel's
    launch, the debugger is recorded unavailable and debugpy is not loaded, yet `import debugpy` works
    as in any kernel; the launch itself is ipykernel_launcher's, run as -m runs it."""
    import subprocess

    from embedlab.grading.worker import KERNEL_LAUNCHER

    launch = "runpy.run_module('ipykernel_launcher', run_name='__main__', alter_sys=True)\n"
    assert KERNEL_LAUNCHER.endswith(launch)
    check = KERNEL_LAUNCHER[:-len(launch)] + (
        "import ipykernel.debugger\n"
        "print(ipykernel.debugger._is_debugpy_available, 'debugpy' in sys.modules)\n"
        "import debugpy\n"
        "print(debugpy.__name__)\n")
    done = subprocess.run([sys.executable, "-c", check], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["False", "False", "debugpy"]


def test_the_summary_labels_points_and_questions_apart():
    """Issue 32: "7 / 7  correct 6" read as points. Points and questions are labelled apart: a
    2-point question makes 7 points of 6 questions."""
    rows = [grade.Row("ada.ipynb", LESSON, f"q{i}", 2.0 if i == 0 else 1.0, 2.0 if i == 0 else 1.0, "correct")
            for i in range(6)]
    rows += [grade.Row("ben.ipynb", LESSON, "q0", 0.0, 2.0, "incorrect", "x"),
             grade.Row("ben.ipynb", LESSON, "q1", 0.0, 1.0, "timeout", "y")]
    lines = grade.summary(rows).splitlines()
    assert lines[0].split()[-2:] == ["points", "questions"]
    assert lines[1].endswith("7 / 7  6 of 6 correct")
    assert lines[2].endswith("0 / 3  0 of 2 correct, 1 incorrect, 1 timeout")


def test_a_link_in_one_learners_folder_hands_in_nothing_and_the_classmate_keeps_their_file(tmp_path):
    """A file is graded at its own path (its owner is read from the path): a link in Ada's folder to
    Ben's notebook, found first, made Ben's file Ada's and skipped Ben's own path (round-4 attack).
    Now the link is unreadable and Ben's file is his; a hard link is a path of its own (a copy)."""
    from embedlab.grading.cli import find_submissions

    (tmp_path / "ada").mkdir()
    (tmp_path / "ben").mkdir()
    (tmp_path / "ben" / "01-toy-table.ipynb").write_text("{}")
    (tmp_path / "ada" / "0-01-toy-table.ipynb").symlink_to("../ben/01-toy-table.ipynb")
    (tmp_path / "ada" / "sub").mkdir()
    os.link(tmp_path / "ben" / "01-toy-table.ipynb", tmp_path / "ada" / "sub" / "hard-01-toy-table.ipynb")
    found = {str(s.path.relative_to(tmp_path)): s for s in find_submissions([str(tmp_path)])}
    assert set(found) == {"ada/0-01-toy-table.ipynb", "ada/sub/hard-01-toy-table.ipynb", "ben/01-toy-table.ipynb"}
    assert found["ada/0-01-toy-table.ipynb"].real is None and "link" in found["ada/0-01-toy-table.ipynb"].problem
    assert found["ben/01-toy-table.ipynb"].real and not found["ben/01-toy-table.ipynb"].problem
    assert found["ada/sub/hard-01-toy-table.ipynb"].real and not found["ada/sub/hard-01-toy-table.ipynb"].problem
    # the same path named twice (the folder and a file in it) is one submission
    twice = find_submissions([str(tmp_path / "ben" / "01-toy-table.ipynb"), str(tmp_path)])
    assert [str(s.path) for s in twice].count(str(tmp_path / "ben" / "01-toy-table.ipynb")) == 1


def test_explain_shows_deeply_nested_data_a_submission_sent_without_recursing_without_bound():
    """--explain printed a submission's output by recursing once per level: 900 nested lists ended in a
    RecursionError traceback (round-4 attack). Deeper than READABLE_DEPTH is shown as '…'."""
    from embedlab.grading.cli import READABLE_DEPTH, _short

    deep = []
    for _ in range(5000):
        deep = [deep]
    shown = _short(deep, 300)
    assert ("…" in shown or "\\u2026" in shown) and shown.count("[") <= READABLE_DEPTH + 1
    wide = [[1.5] * 10] * 10**5
    assert len(_short(wide, 300)) <= 300


def test_a_time_out_beside_other_submissions_is_graded_again_alone(monkeypatch):
    """With -j 2 a neighbour busy on every core can push an honest submission's cells past their
    limit. So a submission that timed out while others ran, and whose timed-out cells waited for a
    CPU (or may have: the wait is not known), is graded again with nothing else running, and that
    grade counts (book/grading.md, "Limits"). Faked grading: the first run of `slow` times out having
    waited half its cell limit for a CPU; `loop` times out with its wait not known; `sleeper` times out
    having waited for no CPU; what each run saw running beside it is recorded. (That the sandbox
    measures a real starved cell's wait: test_a_cell_starved_of_cpu_is_graded_again.)"""
    import dataclasses
    import threading

    from embedlab.grading.judge import Row
    from embedlab.grading.submissions import Submission

    running, seen, calls, lock = set(), {}, [], threading.Lock()
    names = ("slow", "hog", "ok", "loop", "sleeper")
    subs = [Submission(Path(f"{name}.ipynb"), f"{name}.ipynb", None) for name in names]
    limit = Limits().cell_timeout
    waits = {"slow.ipynb": limit / 2, "loop.ipynb": None, "sleeper.ipynb": limit / 1000}

    def fake(sub, lesson, limits, seed, bwrap, keys):
        with lock:
            calls.append(sub.label)
            beside = set(running)
            running.add(sub.label)
        time.sleep(0.1)
        with lock:
            running.discard(sub.label)
            seen.setdefault(sub.label, []).append(beside | set(running))
        first = calls.count(sub.label) == 1
        timeout = sub.label in ("loop.ipynb", "sleeper.ipynb") or (sub.label == "slow.ipynb" and first)
        status = "timeout" if timeout else "correct"
        return [Row(sub.label, LESSON, "E", 1.0, 1.0 if status == "correct" else 0.0, status, "",
                    cpu_wait=waits.get(sub.label, 0.0) if timeout else None)]

    monkeypatch.setattr(grader, "grade_submission", fake)
    lines = []
    rows, faults = grader.grade_all(subs, LESSON, Limits(), jobs=2, progress=lambda label, r: lines.append(label))
    assert faults == [] and [r.submission for r in rows] == [s.label for s in subs]   # one row each, in order
    assert {r.submission: r.status for r in rows} == {"slow.ipynb": "correct", "hog.ipynb": "correct",
                                                      "ok.ipynb": "correct", "loop.ipynb": "timeout",
                                                      "sleeper.ipynb": "timeout"}
    assert sorted(calls) == sorted([f"{name}.ipynb" for name in names] + ["slow.ipynb", "loop.ipynb"])
    assert seen["slow.ipynb"][1] == set() and seen["loop.ipynb"][1] == set()   # the second runs: alone
    assert any(seen[s][0] for s in seen)   # the first pass ran them side by side
    assert lines.count("slow.ipynb (again, alone)") == 1 and lines.count("hog.ipynb") == 1
    assert "sleeper.ipynb (again, alone)" not in lines   # it waited for no CPU: its time-out is its own
    # the line between: a wait of RETRY_WAIT_SHARE of the cell limit is graded again, just under it is not
    share = grader.RETRY_WAIT_SHARE * limit
    timeout = Row("x.ipynb", LESSON, "E", 0.0, 1.0, "timeout", "")
    again = [grader.neighbours_may_have_slowed([dataclasses.replace(timeout, cpu_wait=w)], Limits())
             for w in (share, share * 0.99, None)]
    assert again == [True, False, True]
    assert not grader.neighbours_may_have_slowed([Row("x.ipynb", LESSON, "E", 1.0, 1.0, "correct", "")], Limits())
    # a grader fault when graded again (no kernel could start) keeps the first grade, and is reported
    def fails_again(sub, *args):
        if sub.label == "slow.ipynb" and calls.count("slow.ipynb") >= 1:
            raise RuntimeError("no kernel")
        return fake(sub, *args)

    calls.clear()
    monkeypatch.setattr(grader, "grade_submission", fails_again)
    rows, faults = grader.grade_all(subs, LESSON, Limits(), jobs=2)
    assert {r.submission: r.status for r in rows}["slow.ipynb"] == "timeout"
    assert len(faults) == 1 and "its first grade" in faults[0] and "no kernel" in faults[0]
    monkeypatch.setattr(grader, "grade_submission", fake)
    # one job: nothing ran beside it, so nothing is graded twice
    calls.clear()
    grader.grade_all(subs, LESSON, Limits(), jobs=1)
    assert sorted(calls) == sorted(s.label for s in subs)


def test_a_cell_stopped_at_the_limit_is_named_in_feedback_and_explain(graded, capsys):
    """issue 45, item 5: whatever value a cell stopped at the limit left, the learner's feedback and
    --explain say it hit the limit (the rows' words, checked above, are what both show)."""
    from embedlab.grading.feedback import build_page
    from embedlab.grading.judge import Row
    from embedlab.grading.regrade import _explain_row
    from embedlab.grading.results import Total

    for case, question in (("stopped-wrong", "n_params"), ("stopped-right", "model_table")):
        rows = [Row(r["submission"], r["lesson"], r["question"], float(r["points"]), float(r["max_points"]),
                    r["status"], r["detail"], "ann") for r in graded["rows"][filename(case)]]
        got = sum(r.points for r in rows)
        page = build_page(Total("ann", LESSON, got, 7.0, "graded", 1, rows[0].submission, final=got), rows)
        line = next(x for x in page.text.splitlines() if x.startswith(f"{question}:"))
        said = page.text.split(line, 1)[1].split("\n\n", 1)[0]
        assert "cell limit and was stopped" in said, page.text
        _explain_row(next(r for r in rows if r.question == question), grader.Trace())
        assert "cell limit and was stopped" in capsys.readouterr().out
