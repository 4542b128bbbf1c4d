"""A right answer is graded right, however it is written (a hint engine never turns a right value into a wrong one).

Every lesson with function questions is assigned with `embedlab-assign` to a small roster; each learner fills their
own handout (the notebook assign wrote for them, with their variant's parameters) with the solution's lines for the
value questions and, for every function question, a right body written in a style of their own
(tests/right_styles.py: `d / h`, `int(d / h)`, `d // h`, `h_kv * (d // h)`, a loop for `np.add.at`, `np.eye(V)[ids]`,
`np.average`, a Counter for BPE's pairs, ...); lesson 04's attention is also written with `shape.head_dim` and as
four named matrices. One `embedlab-grade` run, as tests/test_classmode_handouts.py runs it, grades them all: every
answer must be correct. Red on hints16's 64fc2c2: lesson 04's `llama_params`, written with `head_dim = d // h` (the
solution's own lines), was graded incorrect with "with `d / h`, your own code gives the answer" (a one-edit proof
whose results are the reference's too, judged before any call was seen to fail).
"""

from __future__ import annotations

import csv

import nbformat
import pytest

from embedlab.grading import assign
from embedlab.grading.code import MARKER
from embedlab.grading.lessons import questions_for
from embedlab.grading.status import CORRECT, TO_MARK

from right_styles import STYLES, VALUE_STYLES
from solution_runner import assign_and_grade
from test_classmode_handouts import answer_cells, blocks, run_handout

SECRET = b"a-secret-for-right-styles-2"  # every lesson: both variants among the four learners (asserted below)
K = 2
LEARNERS = ["ana", "bo", "cy", "di"]  # learner i writes style i (of those a question has, in turn)
LESSONS = sorted({lesson for lesson, _ in STYLES})


def test_every_function_question_has_styles():
    """The styles cover every function question of every lesson class mode assigns (a new one must add its own)."""
    functions = {(lesson, q.name) for lesson in assign.lessons_to_assign("all")[0] for q in questions_for(lesson)
                 if q.kind == "function"}
    assert functions == set(STYLES), functions ^ set(STYLES)


def written(nb, lesson: str, k: int):
    """`nb` (a handout) with every marker filled: a function question's (and a VALUE_STYLES question's) with style
    `k` of its own (in turn), every other with the solution's lines."""
    solved = blocks(lesson)
    for name, cell in answer_cells(nb).items():
        lines, out, n, i = cell.source.split("\n"), [], 0, 0
        styles = STYLES.get((lesson, name)) or VALUE_STYLES.get((lesson, name))
        while i < len(lines):
            line = lines[i]
            if line.strip() == MARKER:
                indent = line[:len(line) - len(line.lstrip())]
                block = solved[name][n]
                n += 1
                if i + 1 < len(lines) and lines[i + 1].strip() == "raise NotImplementedError()":
                    i += 1
                if styles:
                    block = [indent + s if (lesson, name) in VALUE_STYLES else s for s in styles[k % len(styles)]]
                out += block
            else:
                out.append(line)
            i += 1
        cell.source = "\n".join(out)
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("styles")
    made = assign_and_grade(tmp, LEARNERS, SECRET, K, LESSONS,
                            lambda handout, lesson, learner, keys:
                            written(handout, lesson, LEARNERS.index(learner)))
    with open(made["scores"], newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return {"rows": rows, "keys": made["keys"], "subs": made["subs"]}


def test_every_right_answer_in_every_style_is_graded_right_on_every_variant(graded):
    variants = {lesson: {graded["keys"][lesson].learners[who] for who in LEARNERS} for lesson in LESSONS}
    assert all(len(v) == K for v in variants.values()), variants  # both variants of each lesson written to
    for lesson in LESSONS:
        kinds = {q.name: q.kind for q in questions_for(lesson)}
        for learner in LEARNERS:
            rows = {r["question"]: r for r in graded["rows"] if r["learner"] == learner and r["lesson"] == lesson}
            assert set(rows) == set(kinds), (lesson, learner)
            wrong = [(r["question"], r["status"], r["detail"]) for n, r in rows.items()
                     if r["status"] != (TO_MARK if kinds[n] == "written" else CORRECT)]
            assert not wrong, (lesson, learner, wrong)


def test_the_handouts_own_check_says_right_too(graded):
    """Lesson 04's handouts run as a kernel runs them: the notebook's check (functions in full) says right too."""
    lesson = "04-modern-blocks"
    for learner in LEARNERS:
        variant = graded["keys"][lesson].learners[learner]
        nb = nbformat.read(graded["subs"] / learner / f"{lesson}.ipynb", as_version=4)
        printed, verdicts = run_handout(nb, lesson, graded["keys"][lesson].keys[variant])
        assert all(v.status == CORRECT for v in verdicts.values()), (learner, verdicts)
        assert all(p.startswith(("✅", "📝")) for p in printed.values()), (learner, printed)
