"""Every value question's inputs tell the right formula from plausible wrong ones (issue 35).

tools/formula_audit.py reads each int/float question's solution cell as arithmetic and makes wrong
formulas from it mechanically (a term or factor dropped, a number of one kind read for another,
d_ff as 4·d, head_dim as d // h, ±1, a constant changed, // for /, a parenthesis dropped, the
remainder forms of a rounding, a max/int left out). Each is judged by the question itself, on the
book's inputs and on every class variant its space draws; one the question accepts there (the
same value, and its `recheck` does not catch it) that gives another value on random inputs of the
same model families is inseparable, and fails here with the question, the mutant and the inputs.
The audit must also be able to fail: with the recheck of lesson 04's MLP or the padding questions
taken away, the wrong formulas issue 35 quotes (d_ff = 4·d, m - V % m) are found again.
"""

import dataclasses

import numpy as np
import pytest

from embedlab.grading.kinds import Function
from embedlab.grading.lessons import known_lessons, questions_for

from solution_runner import remember_runs  # noqa: F401 - each variant's tiny model trained once (to the bit)
from tools_loader import load_tool

audit = load_tool("formula_audit")

# The value questions that are no formula of numbers (what the audit cannot read, and why).
NOT_FORMULAS = {
    ("10-glitch-tokens", "partial_tokens"): "a count kept in a loop over the tokenizer's bytes",
    ("12-change-a-vocabulary", "coverage"): "a weighted mean over arrays of words",
}


@pytest.fixture(scope="module")
def audits():
    return {}


def _audit(cache, lesson):
    if lesson not in cache:
        cache[lesson] = audit.audit_lesson(lesson)
    return cache[lesson]


@pytest.mark.parametrize("lesson", known_lessons())
def test_no_wrong_formula_passes_on_any_variants_inputs(lesson, audits):
    found = _audit(audits, lesson)
    numbers = [a for a in found if a.not_read not in ("",) and not a.not_read.startswith("a ")]
    assert {(a.lesson, a.name) for a in numbers} <= set(NOT_FORMULAS), [(a.name, a.not_read) for a in numbers]
    read = [a for a in found if not a.not_read]
    assert all(a.n_mutants > 0 and a.n_envs > 0 for a in read), [(a.name, a.n_mutants, a.n_envs) for a in read]
    inseparable = [f"{f.name}: `{f.mutant}` ({f.what}) is accepted on {f.inputs}" for a in read for f in a.inseparable]
    assert not inseparable, "\n".join(inseparable)


def test_a_slow_machine_reads_every_cell_as_an_idle_one_does(monkeypatch):
    """Which answer cells the audit reads on the book's inputs only (those that train or tokenise) is
    decided by the calls a cell makes, never by a clock: with a clock that runs a thousand times
    fast (a machine under heavy load), every question is read as on an idle machine. (Seconds once
    decided it: under load lesson 07's cache question was read as a slow cell and two wrong
    formulas passed.)"""
    import time

    lessons = ("02-lookup-vs-matmul", "07-memory", "10-glitch-tokens")

    def read(lesson, name, run):  # the questions the audit reads as formulas (the others' cost is not used)
        try:
            return bool(audit.read_cell(lesson, name, run[2], audit.code_cells(lesson)[run[0]], run[3]).mutable)
        except (audit.NotArithmetic, SyntaxError):
            return False

    def kinds():
        audit.book_run.cache_clear()
        try:
            return {(lesson, name): run[3] > audit.SLOW_CELL
                    for lesson in lessons for name, run in audit.book_run(lesson).items() if read(lesson, name, run)}
        finally:
            audit.book_run.cache_clear()

    idle = kinds()
    assert True in idle.values() and False in idle.values(), idle  # both kinds are there to tell apart
    ticks = iter(range(0, 10**12, 1000))
    for clock in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, clock, lambda: float(next(ticks)))
    busy = kinds()
    monkeypatch.undo()
    assert busy == idle


def test_every_int_or_float_question_is_audited():
    """Only arrays, words, designs and functions are left to other checks: every other question is a
    formula the audit reads, or one of NOT_FORMULAS."""
    from embedlab.grading.kinds import Integer, Real

    for lesson in known_lessons():
        for q in questions_for(lesson):
            if isinstance(q, Function) or not isinstance(q, (Integer, Real)):
                continue
            if (lesson, q.name) in NOT_FORMULAS:
                continue
            index, before, after, cost = audit.book_run(lesson)[q.name]
            cell = audit.read_cell(lesson, q.name, after, audit.code_cells(lesson)[index], cost)
            assert cell.mutable, (lesson, q.name)


@pytest.mark.parametrize("lesson,name,wrong", [
    ("04-modern-blocks", "mlp_layer", "4 * shape.hidden_size"),   # d_ff = 4·d: Llama 3.2 1B's d_ff is 4·d
    ("04-modern-blocks", "padding_params", "pad_multiple - V % pad_multiple"),  # V is never a multiple
    ("10-glitch-tokens", "padding_rows", "pad_multiple - V % pad_multiple"),
])
def test_the_audit_finds_the_quoted_wrong_formulas_without_their_recheck(lesson, name, wrong, monkeypatch):
    """Red before the fix: the question without its recheck accepts a wrong formula the audit names."""
    import embedlab.grading.lessons as lessons

    real = lessons.questions_for

    def without_recheck(lesson_, params=None):
        return [dataclasses.replace(q, recheck=None) if q.name == name else q for q in real(lesson_, params)]
    monkeypatch.setattr(lessons, "questions_for", without_recheck)
    found = audit.audit_question(lesson, name, audit.drawn_variants(lesson, 12), np.random.default_rng(1))
    assert any(wrong in f.mutant for f in found.inseparable), [f.mutant for f in found.inseparable]
    monkeypatch.undo()
    again = audit.audit_question(lesson, name, audit.drawn_variants(lesson, 12), np.random.default_rng(1))
    assert not again.inseparable, [f.mutant for f in again.inseparable]


@pytest.mark.parametrize("lesson", known_lessons())
def test_no_square_table_hides_an_axis_slip(lesson):
    """A table whose rows and columns are as many lets a transposed answer, or norms along the wrong
    axis, run silently and keep their shape (issue 35: 16 rows and d = 16). Every such table an answer
    cell reads, on the book's inputs (and on lesson 01's drawn tables), is one whose question reads the
    axis from the code (`avoids` names axis=0)."""
    variants = audit.drawn_variants(lesson, 6) if lesson.startswith("01") else ()
    for label, name, array, shape in audit.square_tables(lesson, variants):
        q = next(q for q in questions_for(lesson) if q.name == name)
        assert any("axis=0" in key for key in q.avoids), (lesson, label, name, array, shape)


def test_the_shape_audit_finds_a_square_batch():
    """Red before the fix: lesson 01's book sentence had three words for three features (batch 3 × 3)."""
    p = dict(questions_module("01-toy-table").DEFAULTS, sentence=["horse", "cat", "horse"])
    assert ("variant 1", "batch", "batch", (3, 3)) in audit.square_tables("01-toy-table", [p])
    assert any("square" in why for why in questions_module("01-toy-table").problems(p))


def questions_module(lesson):
    return audit.question_module(lesson)
