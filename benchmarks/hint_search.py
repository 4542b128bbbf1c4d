"""How long the hint search takes: the judging of wrong answers (named parts, the learner's code,
invariants), per answer and per submission.

    PYTHONPATH=tests .venv/bin/python benchmarks/hint_search.py            # tests/hint_corpus/learners.py
    PYTHONPATH=tests .venv/bin/python benchmarks/hint_search.py heldout    # the held-out part (counts only)

Each entry of the corpus is run once (as tests/test_hint_corpus_learners.py runs it), then only
its judging is timed (`Exercise.verdict`, which reads the answer cell's source and searches the
parts), best of 3. A submission's hint search is at most the sum, over its questions, of the
slowest wrong answer of each: that worst case is printed per exercise, with the mean per answer.
The grader judges in its own process after the sandboxed run, so this time adds to each
submission's; figures depend on the machine's load and are printed, never asserted.
"""

import contextlib
import io
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # run with PYTHONPATH=tests (the corpus and its harness live there)

import test_hint_corpus_learners as corpus  # noqa: E402

from embedlab.grading.exercise import Exercise  # noqa: E402


def main(argv):
    file = argv[0] if argv else "learners"
    per = defaultdict(lambda: defaultdict(list))  # lesson -> question -> seconds
    for entry in corpus.entries(file):
        with contextlib.redirect_stdout(io.StringIO()):
            _, ns = corpus._check_wrong().run_entry(entry)
        ns["_ih"] = ["", corpus.answer_cell(entry)]
        ex = Exercise(entry.lesson)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            ex.verdict(entry.name, ns)
            best = min(best, time.perf_counter() - start)
        per[entry.lesson][entry.name].append(best)
    print(f"hint search on {file}: per wrong answer (mean, max) and a submission's worst case (every "
          "question wrong, each its slowest)")
    worst_all = 0.0
    for lesson in sorted(per):
        times = [t for ts in per[lesson].values() for t in ts]
        worst = sum(max(ts) for ts in per[lesson].values())
        worst_all = max(worst_all, worst)
        print(f"  {lesson:22} mean {1e3 * sum(times) / len(times):7.1f} ms  max {1e3 * max(times):7.1f} ms  "
              f"submission ≤ {1e3 * worst:7.1f} ms")
    print(f"slowest submission's hint search: {1e3 * worst_all:.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1:])
