"""embedlab.grading.kept: class mode's work kept by the hash of its inputs, for the tests (tests/conftest.py).

What is read back is what the same inputs gave, and nothing else: another file, another variant, a
time-out, a run with --explain, a grader run without the tests' switch, or a draw under a swapped rule
is made again. (The end-to-end tests that use it, test_classmode_handouts, test_term and
test_written_term, check every row they read.)
"""

from __future__ import annotations

import pytest

from embedlab.grading import grader, kept, variants
from embedlab.grading.judge import Row
from embedlab.grading.sandbox import Limits
from embedlab.grading.status import CORRECT, TIMEOUT
from embedlab.grading.submissions import find_submissions


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv(kept.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv(kept.GRADES_ENV, "1")
    return tmp_path / "cache"


def fake_grader(monkeypatch, status=CORRECT):
    """grader._grade_submission replaced by one that counts its calls and judges every file alike."""
    calls = []

    def graded(sub, lesson_arg, limits, seed, bwrap, keys, trace):
        calls.append(sub.label)
        return [Row(sub.label, "01-toy-table", "n_params", 1.0 if status == CORRECT else 0.0, 1.0, status,
                    f"call {len(calls)}")]

    monkeypatch.setattr(grader, "_grade_submission", graded)
    return calls


def submission(folder, text="{}"):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "01-toy-table.ipynb").write_text(text, encoding="utf-8")
    sub, = find_submissions([str(folder / "01-toy-table.ipynb")])
    return sub


def grade(sub, trace=None, limits=Limits()):
    return grader.grade_submission(sub, None, limits, None, None, None, trace)


def test_the_same_file_is_read_back_under_its_own_label_and_anything_else_is_graded(cache, tmp_path, monkeypatch):
    calls = fake_grader(monkeypatch)
    first = grade(submission(tmp_path / "one" / "ada"))
    again = submission(tmp_path / "two" / "ada")        # the same bytes, name and learner's folder, elsewhere
    assert grade(again) == [Row(again.label, "01-toy-table", "n_params", 1.0, 1.0, CORRECT, "call 1")]
    assert first[0].submission != again.label and len(calls) == 1
    grade(submission(tmp_path / "c", '{"other": 1}'))   # other bytes
    grade(submission(tmp_path / "two" / "ben"))         # another learner's folder (class mode's owner)
    grade(again, limits=Limits(cell_timeout=5.0))       # other limits
    grade(again, trace=grader.Trace())                  # --explain: its trace is filled by a run
    assert len(calls) == 5
    monkeypatch.delenv(kept.GRADES_ENV)                 # a grader run without the tests' switch
    grade(again)
    assert len(calls) == 6


def test_a_time_out_is_graded_every_time(cache, tmp_path, monkeypatch):
    calls = fake_grader(monkeypatch, TIMEOUT)
    sub = submission(tmp_path / "a")
    assert grade(sub)[0].status == TIMEOUT and grade(sub)[0].status == TIMEOUT
    assert len(calls) == 2


def test_a_variant_is_read_back_as_drawn_and_a_swapped_rule_draws_afresh(cache, monkeypatch):
    lesson, secret = "01-toy-table", b"a-secret-for-the-kept-tests"
    drawn = [variants.parameters_of(lesson, n, secret) for n in (1, 2)]
    assert list(cache.rglob("variant-*.json"))
    monkeypatch.setattr(variants, "_CLASSES", {})       # another process: only the kept draws
    monkeypatch.setattr(variants, "_draw_next", lambda *args: pytest.fail("drawn again, not read back"))
    assert [variants.parameters_of(lesson, n, secret) for n in (1, 2)] == drawn
    monkeypatch.setattr(variants, "_CLASSES", {})
    monkeypatch.setattr(variants, "too_close", lambda *args: None)
    with pytest.raises(pytest.fail.Exception, match="drawn again"):
        variants.parameters_of(lesson, 1, secret)


def test_nothing_is_kept_without_the_folder(tmp_path, monkeypatch):
    monkeypatch.delenv(kept.CACHE_ENV, raising=False)
    monkeypatch.setenv(kept.GRADES_ENV, "1")
    calls = fake_grader(monkeypatch)
    sub = submission(tmp_path / "a")
    grade(sub)
    grade(sub)
    assert len(calls) == 2 and kept.path_for("grade", "x") is None
