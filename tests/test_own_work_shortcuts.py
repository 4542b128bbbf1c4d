"""A question that asks for the learner's own construction refuses the library's ready-made answer, with why (newcomer
T, session 6, defect 2).

Exercise 06's questions 4 and 5 say "build it from `c` below, part by part (`forward_flops` would add the parts up for
you: use it afterwards to check yours)", and `forward_flops(…).share('head')` got ✅; question 8 says "start from the
total and take away what the token skips", and `counts.active` got ✅; exercise 04's question 3, `.vocab_share`. A
value question now declares the shortcut in its `own_work` (`work.Shortcut`): the answer is followed back through the
names the cell assigns, so a right value taken from the shortcut is told "right value, but … comes from …" with why,
by the notebook check and the grader alike, while the shortcut used beside the answer, to check it, is fine. The
function questions whose text says "Do not call `count_params`" or "write it yourself" declare the library function
(exercise 03's `gpt2_params`, 04's `llama_params`, 09's `tinylm_grads`, 10's `unused_score`). Every question whose
text says an answer taken from a shortcut "scores 0" declares one, and every solution still passes.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import nbformat
import pytest

from embedlab.grading.exercise import Exercise
from embedlab.grading.work import Shortcut
from hint_corpus import Wrong, check_wrong
from solution_runner import grader_scoring

ROOT = Path(__file__).resolve().parent.parent
L03, L04, L06, L09, L10 = ("03-counting-gpt2", "04-modern-blocks", "06-params-vs-compute", "09-what-rows-learn",
                           "10-glitch-tokens")

# the library's answer taken, written several ways (none of them the newcomer's exact line but the first of each)
TAKEN = {
    "Q4, the newcomer's line": (L06, "head_share_training",
                                "head_share_training = forward_flops(load_config(share_model), T).share('head')\n"),
    "Q4, through a variable": (L06, "head_share_training",
                               "f = forward_flops(load_config(share_model), T)\nhead_share_training = f.head / f.total\n"),
    "Q4, an alias": (L06, "head_share_training",
                     "ff = forward_flops\nparts = ff(load_config(share_model), T)\n"
                     "head_share_training = parts.share('head')\n"),
    "Q5, logits='last'": (L06, "head_share_prompt",
                          "head_share_prompt = forward_flops(load_config(share_model), T, logits='last').share('head')\n"),
    "Q5, a helper": (L06, "head_share_prompt",
                     "def share_of(cfg):\n    return forward_flops(cfg, T, logits='last').share('head')\n\n"
                     "head_share_prompt = share_of(load_config(share_model))\n"),
    "Q8, the newcomer's line": (L06, "active_params", "active_params = counts.active\n"),
    "Q8, a fresh count": (L06, "active_params",
                          "n = count_params(load_config(moe_model)).active\nactive_params = int(n)\n"),
    "04 Q3, the attribute": (L04, "vocab_share", "vocab_share = count_params(load_config(share_model)).vocab_share\n"),
    "04 Q3, a float of it": (L04, "vocab_share",
                             "c = count_params(load_config(share_model))\nvocab_share = float(c.vocab_share)\n"),
    "04 Q5, count_params": (L04, "llama_params",
                            "from embedlab import count_params\nfrom embedlab.sizing import llama_config\n\n"
                            "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
                            "    return count_params(llama_config(V, d, L, h, h_kv, d_ff, tied)).total\n"),
    "10 Q3, unused_scores": (L10, "unused_score",
                             "from embedlab.undertrained import unused_scores as scores\n\n"
                             "def unused_score(M, reference_ids):\n    return scores(M, reference_ids)\n"),
}

# built from the parts, written several ways: the shortcut used beside the answer, to check it, is fine
BUILT = {
    "Q4, checked against forward_flops in the cell": (
        L06, "head_share_training",
        "attention = c.attention_per_key * T * (T + 1) // 2\n"
        "head_share_training = T * c.head / (T * (c.input + c.blocks + c.head) + attention)\n"
        "assert abs(head_share_training - forward_flops(load_config(share_model), T).share('head')) < 1e-12\n"),
    "Q5, in one expression": (
        L06, "head_share_prompt",
        "head_share_prompt = c.head / (T * (c.input + c.blocks) + c.attention_per_key * T * (T + 1) // 2 + c.head)\n"),
    "Q8, printed beside counts.active": (
        L06, "active_params",
        "skipped = moe_layers * (n_experts - k) * 3 * d * d_ff\nactive_params = counts.total - skipped\n"
        "print(active_params, counts.active)\n"),
    "04 Q3, from the parts": (
        L04, "vocab_share",
        "counts = count_params(load_config(share_model))\n"
        "vocab_share = (counts.token_embedding + counts.lm_head) / counts.total\nprint(counts.vocab_share)\n"),
}


def _verdicts(lesson, name, source):
    """(notebook check's verdict, grader's (status, detail)) for `source` as the learner's lines."""
    entry = Wrong(lesson, name, source, "", (), ())
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(entry)
    prelude = check_wrong.exercise_prelude(lesson, name)
    cell = (prelude + "# YOUR CODE HERE\n" if prelude.strip() and not source.lstrip().startswith(("def ", "from "))
            else "") + source
    ns["_ih"] = ["", cell]
    return Exercise(lesson).verdict(name, ns), grader_scoring(lesson, name, ns, cell)


@pytest.mark.parametrize("how", sorted(TAKEN))
def test_a_right_value_taken_from_the_library_is_refused_with_why(how):
    lesson, name, source = TAKEN[how]
    verdict, graded = _verdicts(lesson, name, source)
    assert verdict.status == "incorrect" and verdict.points == 0, (how, verdict)
    assert "the question asks you to" in verdict.detail, (how, verdict.detail)
    if not source.lstrip().startswith(("def ", "from ")):  # a value: its value is said to be right
        assert verdict.detail.startswith(f"right value, but your `{name}` comes from "), (how, verdict.detail)
    assert len(verdict.detail) <= 300, verdict.detail  # the grader's wire keeps 300 characters of a message
    assert graded == (verdict.status, verdict.detail), (how, graded)


@pytest.mark.parametrize("how", sorted(BUILT))
def test_an_answer_built_from_the_parts_is_right_with_the_shortcut_beside_it(how):
    lesson, name, source = BUILT[how]
    verdict, graded = _verdicts(lesson, name, source)
    assert verdict.status == "correct", (how, verdict)
    assert graded[0] == "correct", (how, graded)


def test_a_shortcut_is_read_from_the_answer_alone():
    call, attr = Shortcut("forward_flops"), Shortcut("active", attribute=True)
    assert call.taken("x = forward_flops(cfg, T).head\n", "x")
    assert call.taken("import embedlab\nx = embedlab.forward_flops(cfg, T).head\n", "x")
    assert not call.taken("x = 3\nprint(forward_flops(cfg, T))\n", "x")
    assert call.taken("x = 3\nx = forward_flops(cfg, T).total\n", "x")  # the last assignment is the answer
    assert not call.taken("x = forward_flops(cfg, T).total\nx = 3\n", "x")
    assert attr.taken("a = counts.active\n", "a") and not attr.taken("active = 5\na = active - 1\n", "a")
    assert attr.taken("a = (counts.active +\n", "a") is None  # unreadable: nothing said
    assert attr.taken("print(counts.active)\n", "a") is None  # the answer not made here: nothing said


def test_every_shortcut_is_left_by_its_solution():
    """A question that declares a shortcut is right on its own solution's cell (the declaration fits the work)."""
    from embedlab.grading import code, function_hints
    from embedlab.grading.lessons import known_lessons, questions_for

    declared = []
    for lesson in known_lessons():
        for q in questions_for(lesson):
            source = code.solution_source(lesson, q.name)
            for work in q.own_work:
                if isinstance(work, Shortcut):
                    declared.append((lesson, q.name))
                    assert work.taken(source, q.name) is False, (lesson, q.name, work)
                elif isinstance(work, str):
                    declared.append((lesson, q.name))
                    assert function_hints.forbidden_reference(source, {work: ""}) is None, (lesson, q.name, work)
    for asked in [(L06, "head_share_training"), (L06, "head_share_prompt"), (L06, "active_params"),
                  (L04, "vocab_share"), (L04, "llama_params"), (L03, "gpt2_params"), (L09, "tinylm_grads"),
                  (L10, "unused_score")]:
        assert asked in declared, asked


def test_every_question_that_says_a_shortcut_scores_0_declares_it():
    """The exercise's words and the check agree: a question whose text says an answer taken from (or a cell that
    calls) a library shortcut scores 0 declares that shortcut in its own_work, and names it in the text."""
    from embedlab.grading.lessons import known_lessons, questions_for

    said = 0
    for lesson in known_lessons():
        nb = nbformat.read(ROOT / "exercises" / f"{lesson}.ipynb", as_version=4)
        cells = nb.cells
        questions = {q.name: q for q in questions_for(lesson)}
        for i, cell in enumerate(cells):
            if cell.cell_type != "markdown" or "scores 0" not in " ".join(cell.source.split()):
                continue
            name = next((m.group(1) for c in cells[i + 1:i + 4] if c.cell_type == "code"
                         for m in [re.match(r'ex\.check\("(\w+)"\)', c.source.strip())] if m), None)
            assert name in questions and questions[name].own_work, (lesson, name)
            text = " ".join(cell.source.split())
            shown = [work.name if isinstance(work, Shortcut) else work for work in questions[name].own_work
                     if isinstance(work, (Shortcut, str))]
            assert any(s in text for s in shown), (lesson, name, shown)  # named there
            said += 1
    assert said >= 8, said
