"""What handing back feedback (embedlab-grade --feedback DIR) adds to a class's grading.

    .venv/bin/python benchmarks/feedback.py                  # 30 learners, lesson 01, then all lessons
    .venv/bin/python benchmarks/feedback.py --learners 100 --repeat 5

Builds the rows a class-mode run of 30 synthetic learners gives (benchmarks/class_report.py's
class_rows: 4 variants a lesson, right and wrong answers with hints, errors, time-outs, files set
aside), with each variant's key the book's (so every hint is searched for the key's values, as in
a real run), then times `embedlab.grading.feedback.write_feedback` on them (CPU seconds, and the wall
time, which includes syncing each file to disk as text.atomic_output does): every
learner's HTML page and text per lesson, and a Moodle zip per lesson from a roster of Moodle ids.
The median of --repeat runs is printed, with the files' size. Grading itself costs about 1 s of
CPU a submission (benchmarks/grade_throughput.py): the feedback's time is printed against that too.

Figures are printed, never asserted.
"""

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from class_report import class_rows

from embedlab.grading.feedback import write_feedback
from embedlab.grading.keys import Variant
from embedlab.grading.lessons import known_lessons, load_key
from embedlab.grading.lms import read_roster


def timed(rows, keys, lessons, learners: int, repeat: int) -> tuple[float, float, int, int]:
    seconds, walls, size, files = [], [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        roster = Path(tmp) / "roster.csv"
        roster.write_text("learner,name," + ",".join(f"moodle_id:{x}" for x in lessons) + "\n" + "".join(
            f"learner{i:03d},Learner {i}," + ",".join(str(10_000 * (j + 1) + i) for j in range(len(lessons))) + "\n"
            for i in range(learners)), encoding="utf-8")
        people = read_roster(roster)
        for i in range(repeat):
            out = Path(tmp) / f"feedback{i}"
            start, wall = time.process_time(), time.perf_counter()
            written = write_feedback(out, rows, keys, {"rule": "best"}, roster=people, layout="moodle")
            seconds.append(time.process_time() - start)
            walls.append(time.perf_counter() - wall)
            files = len(written.files)
            size = sum(p.stat().st_size for p in written.files)
    return statistics.median(seconds), statistics.median(walls), size, files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for lessons in (known_lessons()[:1], known_lessons()):
        rows, keys = class_rows(args.learners, lessons)
        for lesson in lessons:  # a key to search every hint for (the book's values stand in for a variant's)
            keys[lesson].keys = {n: Variant(n, {}, load_key(lesson)) for n in keys[lesson].keys}
        subs = len({r.submission for r in rows})
        seconds, wall, size, files = timed(rows, keys, lessons, args.learners, args.repeat)
        print(f"{args.learners} learners, {len(lessons)} lesson(s), {subs} submissions: feedback {seconds:.2f} s CPU, "
              f"{wall:.2f} s wall (each file synced to disk; median of {args.repeat}), {files} files, "
              f"{size / 1024:.0f} KiB; grading them costs about "
              f"{subs:.0f} s CPU at ~1 s a submission, so the feedback adds {100 * seconds / subs:.1f} %")


if __name__ == "__main__":
    main()
