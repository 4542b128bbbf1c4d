"""What the class report (embedlab-grade --report) adds to a class's grading.

    .venv/bin/python benchmarks/class_report.py                  # 30 learners, lesson 01, then all lessons
    .venv/bin/python benchmarks/class_report.py --learners 100 --repeat 5

Builds the rows a class-mode run of 30 synthetic learners gives (4 variants a lesson, a
status mix of right, wrong with hints quoting each learner's own numbers, errors,
time-outs and files set aside, answer cells with renamed names, a few copied), then
times `embedlab.grading.report.write_report` on them (CPU seconds, matplotlib's import added once): for one lesson (a run a week) and
for every lesson at once. The median of --repeat runs is printed, with the page's size.
Grading itself costs about 1 s of CPU a submission (benchmarks/grade_throughput.py):
the report's time is printed against that too.

Figures are printed, never asserted.
"""

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from embedlab.grading.judge import Row
from embedlab.grading.keys import LessonKeys, Variant
from embedlab.grading.lessons import known_lessons, questions_for
from embedlab.grading.report import write_report

HINTS = ["yours is {a} times the expected value: multiplied by `d_model` once too often?",
         "right shape, but rows {a}, {b} differ: the rows are in the wrong order",
         "on input {a} of 5, f([{a}, {b}], [{b}]) returned {c}: the dot product, not divided by the lengths",
         "a little too big (right to {a} digits): within 5% above the expected value",
         "that is the size in bytes, at {a} bytes an entry: a count of parameters is asked, not its bytes"]
NAMES = ["x", "tmp", "total", "n", "val", "acc", "res", "k"]


def class_rows(learners: int, lessons: list[str], seed: int = 0) -> tuple[list[Row], dict]:
    rng = random.Random(seed)
    people = [f"learner{i:03d}" for i in range(learners)]
    keys, rows = {}, []
    for lesson in lessons:
        assigned = {p: 1 + i % 4 for i, p in enumerate(people)}
        keys[lesson] = LessonKeys(lesson, 4, assigned, {n: Variant(n, {}, {}) for n in range(1, 5)})
        for i, who in enumerate(people):
            label = f"{who}/{lesson}.ipynb"
            if rng.random() < 0.03:
                rows.append(Row(label, lesson, "", 0.0, 0.0, "identity_mismatch", "names another learner", who))
                continue
            copied = i % 7 == 1  # copies the learner before them
            for q in questions_for(lesson):
                roll = rng.random()
                a, b = rng.choice(NAMES), rng.choice(NAMES)
                body = (f"{a} = len(words) * {rng.randint(2, 9)}\nfor {b} in range({a}):\n"
                        f"    {a} += {b} * {b} - {rng.randint(1, 5)}\n{q.name} = {a} / 2\n")
                if copied:
                    body = body.replace(a, "copied")
                if roll < 0.6:
                    rows.append(Row(label, lesson, q.name, q.points, q.points, "correct", "", who, body, "ok"))
                elif roll < 0.93:
                    hint = rng.choice(HINTS).format(a=rng.randint(2, 40), b=rng.randint(2, 40), c=rng.random())
                    rows.append(Row(label, lesson, q.name, 0.0, q.points, "incorrect", hint, who, body,
                                    f"{rng.randint(0, 3):016x}"))
                elif roll < 0.97:
                    rows.append(Row(label, lesson, q.name, 0.0, q.points, "error",
                                    f"`{q.name}` is not defined; a code cell raised ValueError: {rng.random()}", who))
                else:
                    rows.append(Row(label, lesson, q.name, 0.0, q.points, "timeout",
                                    "ran past the 30 s cell limit", who))
    return rows, keys


def timed(rows, keys, repeat: int) -> tuple[float, int]:
    seconds, size = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeat):
            out = Path(tmp) / f"report{i}.html"
            start = time.process_time()
            write_report(out, rows, keys, {"rule": "best"})
            seconds.append(time.process_time() - start)
            size = out.stat().st_size
    return statistics.median(seconds), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    start = time.process_time()  # matplotlib is imported once a run (its first report pays it)
    import matplotlib.figure  # noqa: F401
    imported = time.process_time() - start
    print(f"importing matplotlib: {imported:.2f} s CPU (once per run, counted below)")
    for lessons in (known_lessons()[:1], known_lessons()):
        rows, keys = class_rows(args.learners, lessons)
        subs = len({r.submission for r in rows})
        seconds, size = timed(rows, keys, args.repeat)
        seconds += imported
        print(f"{args.learners} learners, {len(lessons)} lesson(s), {subs} submissions, {len(rows)} rows: "
              f"report {seconds:.2f} s CPU (median of {args.repeat}, matplotlib's import included), "
              f"{size / 1024:.0f} KiB; "
              f"grading them costs about {subs:.0f} s CPU at ~1 s a submission, so the report adds "
              f"{100 * seconds / subs:.1f} %")


if __name__ == "__main__":
    main()
