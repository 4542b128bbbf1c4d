"""What the second look costs: a question's notebook check with and without its lines run again on
other inputs (embedlab.grading.elsewhere), on the solutions' own namespaces, in this process.

    .venv/bin/python benchmarks/elsewhere.py

Prints, per question that runs it, the median check time over REPEATS calls each way and the
difference; the grader's probe does the same work once per submission.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from embedlab.grading import elsewhere, exercise
from from_file import load
from embedlab.grading.exercise import Exercise

ROOT = Path(__file__).resolve().parent.parent


runner = load("solution_runner", "tests/solution_runner.py")  # the solutions run in this process
answer_cell, notebook, run_solution, solution_parameters = (runner.answer_cell, runner.notebook, runner.run_solution,
                                                            runner.solution_parameters)

REPEATS = 15
QUESTIONS = [("01-toy-table", "batch"), ("01-toy-table", "cos_pair"), ("03-counting-gpt2", "block_params"),
             ("09-what-rows-learn", "gap"), ("11-size-a-model", "tightest_budget")]
# the learner's answer: the solution's, except for block_params, whose check runs again only when the
# lines read another question's input (here a right one: d read through linear_in's neighbour names)
SOURCES = {("03-counting-gpt2", "block_params"): "block_params = 12 * d * d + 13 * d + 0 * linear_in"}


def timed(check, name, ns) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        check.verdict(name, ns)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    namespaces = {}
    print(f"{'question':34} {'with':>9} {'without':>9} {'added':>9}")
    for lesson, name in QUESTIONS:
        if lesson not in namespaces:
            namespaces[lesson] = run_solution(lesson, solution_parameters(lesson))
        ns = dict(namespaces[lesson])
        source = SOURCES.get((lesson, name)) or answer_cell(notebook("solutions", lesson), name).source
        exec(compile(source, "<answer>", "exec"), ns)  # noqa: S102 - the solution's own cell
        ns["_ih"] = ["", source]
        check = Exercise(lesson)
        with_it = timed(check, name, ns)
        saved = exercise.run_elsewhere
        exercise.run_elsewhere = lambda *a, **k: None
        try:
            without = timed(check, name, ns)
        finally:
            exercise.run_elsewhere = saved
        print(f"{lesson[:2]} {name:31} {with_it * 1e3:7.1f}ms {without * 1e3:7.1f}ms {(with_it - without) * 1e3:7.1f}ms")
    print(f"(median of {REPEATS} checks each; cases per question at most {elsewhere.CASES}, "
          f"each bounded by {elsewhere.SECONDS:g} s)")


if __name__ == "__main__":
    main()
