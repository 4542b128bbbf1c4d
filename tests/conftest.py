"""The order `make test` hands test files to its workers: the longest first.

`make test` runs `pytest -n 3 --dist loadfile` (three workers on two cores: much of a worker's time is
spent waiting on a sandboxed grading, a browser or a cell limit, and the third takes up that core
meanwhile): each file goes whole to one worker, and a worker
takes the next file in the queue when it is nearly done with its own. pytest-xdist orders that
queue by the number of tests in a file, most first, so the few-test files that take longest
(a module fixture that builds the book, grades a class, starts JupyterLab) came near the end,
and one worker ran the last of them alone while the other had nothing left to take. Started
first instead, the many short files (most of them under a second) fill in around them and the
workers finish together. Only the order changes: every file and every test still runs.
"""

import os
from pathlib import Path

import pytest

from embedlab.grading.kept import CACHE_ENV

# Heaviest first, by their time in a full run (their module fixtures included); files not named
# here follow in collection order. A new heavy file belongs here at its place; a wrong guess only
# costs some idle seconds at the end, never a test.
LONGEST_FIRST = [
    "tests/test_book.py",                   # the book built twice, then every page in Chromium
    "tests/test_classmode.py",              # embedlab-assign and a class graded, several runs
    "tests/test_grade.py",                  # the hostile folder, cell limits waited out
    "tests/test_grade_hostile.py",          # the hostile class, one run, limits waited out
    "tests/test_formula_separation.py",     # every value question audited, variants drawn
    "tests/test_lab.py",                    # JupyterLab in Chromium
    "tests/test_term.py",                   # a whole term: handouts, LMS downloads graded
    "tests/test_classmode_handouts.py",     # every lesson assigned, its handouts filled and graded
    "tests/test_grade_lessons.py",          # every solution and exercise graded
    "tests/test_classmode_every_lesson.py",  # every lesson's variants drawn (tiny models trained)
    "tests/test_hint_corpus.py",
    "tests/test_assign_lms.py",             # embedlab-assign's LMS handouts, solution runs
    "tests/test_grade_promises.py",         # one assign, one --latest class run, a 1,500-deep folder
    "tests/test_hint_corpus_learners.py",   # seven blind corpora, both ways, each answer looked at twice
    "tests/test_sandbox.py",
    "tests/test_right_answers.py",          # 180 right answers, each lesson's cells run in this process
    "tests/test_variants_l12.py",
    "tests/test_function_cases.py",
    "tests/test_report.py",
    "tests/test_variants_l10.py",
    "tests/test_capstone.py",
    "tests/test_written_term.py",           # lesson 11 assigned, a class of four graded three times
    "tests/test_feedback.py",
]

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    # Class mode's work is kept by the hash of every input that makes it (embedlab.grading.kept: the
    # variants drawn, embedlab-assign's solution runs; each key holds embedlab's code, the Python and the
    # packages), beside the book's builds: a later draw or assign of the same lesson, variant and secret (in
    # another worker, a test's own `embedlab-assign` command, which inherits this, or a later session)
    # reads what the same work gave. EMBEDLAB_CLASS_CACHE=0 does all of it every time;
    # benchmarks/make_test.py --cold removes it.
    if os.environ.get(CACHE_ENV) == "0":
        del os.environ[CACHE_ENV]
    else:
        os.environ.setdefault(CACHE_ENV, str(ROOT / "_build" / "test-cache" / "class"))
    # keep the order below: xdist would sort the files by their number of tests again
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}

    def place(item):
        try:
            name = Path(str(item.path)).resolve().relative_to(ROOT).as_posix()
        except ValueError:
            name = str(item.path)
        return rank.get(name, len(rank))

    items.sort(key=place)       # stable: files not named, and the tests inside each file, keep their order
