"""A value that one variant's inputs cannot tell from a wrong formula's: the cell read as a formula.

`pad_multiple - V % pad_multiple` gives the right padding for every V that is not a multiple of
pad_multiple, and every variant's V is not one (it would need no padding). So a question whose
answer a plausible wrong formula can match declares `recheck`: other inputs on which the two part,
and the answer cell, read as arithmetic (embedlab.grading.code.evaluate, never run), must give the
answer there too. Checked here: the reading itself, every recheck of every lesson on its solution's
own cell (accepted) and on the wrong formula (not accepted), in the notebook's check and in the
grader's scoring alike.
"""

import nbformat
import pytest

from embedlab.grading import code
from embedlab.grading.exercise import evaluate
from embedlab.grading.lessons import known_lessons, load_key, questions_for
from embedlab.grading.status import CORRECT, INCORRECT

from solution_runner import ROOT


def test_evaluate_reads_a_cell_as_arithmetic_and_gives_up_on_anything_else():
    src = ("shape = model_shape(load_config(vocab_model))\nV = shape.vocab_size\nprint(V)\n"
           "padding_rows = pad_multiple - V % pad_multiple\n")
    assert code.evaluate(src, "padding_rows", {"V": 50_304, "pad_multiple": 64}) == 64
    right = src.replace("pad_multiple - V % pad_multiple", "-(-V // pad_multiple) * pad_multiple - V")
    assert code.evaluate(right, "padding_rows", {"V": 50_304, "pad_multiple": 64}) == 0
    for body in ("(-V) % pad_multiple", "padded_size(V, pad_multiple) - V",
                 "math.ceil(V / pad_multiple) * pad_multiple - V", "max(0, -V % pad_multiple)"):
        assert code.evaluate(src.replace("pad_multiple - V % pad_multiple", body), "padding_rows",
                             {"V": 50_304, "pad_multiple": 64}) == 0, body
    # V read under another name: given as the attribute or the key it is read by
    assert code.evaluate("vocab = shape.vocab_size\nx = 64 - vocab % 64", "x", {".vocab_size": 128}) == 64
    assert code.evaluate('n = cfg["vocab_size"]\nx = -n % 8', "x", {"['vocab_size']": 16}) == 0
    # the course's own table of bytes per number, imported under any name, as the lessons read it
    kv = "from embedlab import BYTES_PER_PARAM as B\nx = 2 * L * B[precision]\n"
    assert code.evaluate(kv, "x", {"L": 3, "precision": "fp32"}) == 24
    assert code.evaluate(kv, "x", {"L": 3, "precision": "int4"}) == 3
    # … and nothing else imported: another package's name, a function of the course, a key it lacks
    assert code.evaluate(kv.replace("embedlab", "numpy"), "x", {"L": 3, "precision": "fp32"}) is None
    assert code.evaluate(kv.replace("BYTES_PER_PARAM", "count_params"), "x", {"L": 3, "precision": "fp32"}) is None
    assert code.evaluate(kv, "x", {"L": 3, "precision": "fp64"}) is None
    # what it does not follow gives None, never a guess
    assert code.evaluate(src.replace("pad_multiple - V % pad_multiple", "helper(V)"), "padding_rows",
                         {"V": 1, "pad_multiple": 64}) is None
    assert code.evaluate("for i in range(3):\n    x = i\n", "x", {}) is None
    assert code.evaluate("x = 2 ** 10 ** 10", "x", {}) is None
    assert code.evaluate("x = (", "x", {}) is None
    assert code.evaluate("x = __import__('os').system('true')", "x", {}) is None
    assert code.evaluate("x = V", "x", {}) is None  # V unknown: no input, no trace


def rechecked():
    """Every question with a recheck, in the book's variant: (lesson, question)."""
    return [(lesson, q) for lesson in known_lessons() for q in questions_for(lesson)
            if getattr(q, "recheck", None) is not None]


def solution_cell(lesson: str, name: str) -> str:
    nb = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    cells = [c.source for c in nb.cells if c.cell_type == "code" and code.defines_pattern(name).search(c.source)
             and "ex.check" not in c.source]
    return cells[-1].replace("# BEGIN SOLUTION\n", "").replace("# END SOLUTION\n", "")


# each rechecked question's plausible wrong formula: right on the book's inputs, wrong on the recheck's
WRONG = {
    ("04-modern-blocks", "padding_params"): "(pad_multiple - V % pad_multiple) * d",
    ("10-glitch-tokens", "padding_rows"): "pad_multiple - V % pad_multiple",
    ("12-change-a-vocabulary", "padding_rows"): "pad_multiple - (n_tok + n_new) % pad_multiple",
    ("04-modern-blocks", "mlp_layer"): "3 * d * 4 * d",  # Llama 3.2 1B's d_ff is exactly 4·d
    ("02-lookup-vs-matmul", "one_hot_batch_bytes"): "n_tokens * V * 4",  # the book's float32, typed
    ("07-memory", "kv_bytes_per_token"): "2 * L * h_kv * head_dim * 2",  # the book's bf16, typed
    # the formula-mutation audit's finds (tests/test_formula_separation.py), one per question
    ("04-modern-blocks", "attn_layer"): "d * h * (d // h) + 2 * d * h_kv * (d // h) + h * (d // h) * d",
    ("07-memory", "gqa_saving_gib"): "(full - grouped) // 2 ** 30",  # Llama-3-8B's saving is 3.0 GiB
    ("07-memory", "max_batch"): "int((memory - 2 * count_params(config).total) // per_sequence)",
    ("08-vocabulary-size", "extra_head_flops"): "2 * d * (V_small * 128 // 25) - 2 * d * V_small",
    ("08-vocabulary-size", "break_even_r"): "(blocks + 2 * d * V_small) / (blocks + 2 * d * (5.12 * V_small))",
}


def test_every_rechecked_question_has_its_wrong_formula_here():
    assert {(lesson, q.name) for lesson, q in rechecked()} == set(WRONG)


@pytest.mark.parametrize("lesson,name", sorted(WRONG))
def test_the_solutions_own_cell_passes_and_the_plausible_wrong_formula_does_not(lesson, name):
    q = next(q for q in questions_for(lesson) if q.name == name)
    want = load_key(lesson)[name]
    right = solution_cell(lesson, name)
    assert evaluate(q, want, want, source=right).status == CORRECT
    for inputs, expected, words in q.recheck():  # the right cell gives the right answer on the other inputs
        assert code.evaluate(right, name, inputs) == expected, (lesson, name, words)
    lines = right.splitlines()
    target = next(i for i, line in enumerate(lines) if line.startswith(f"{name} ="))
    lines[target] = f"{name} = {WRONG[lesson, name]}"
    wrong = "\n".join(lines)
    verdict = evaluate(q, want, want, source=wrong)  # the wrong formula gives the right value here …
    assert verdict.status == INCORRECT and "not as a formula" in verdict.detail, verdict  # … and is not accepted


def test_the_grader_scores_the_remainder_formula_as_the_notebook_does():
    from solution_runner import grader_scoring

    lesson, name = "10-glitch-tokens", "padding_rows"
    want = load_key(lesson)[name]
    wrong = 'V = load_config(vocab_model)["vocab_size"]\npadding_rows = pad_multiple - V % pad_multiple\n'
    status, detail = grader_scoring(lesson, name, {name: want}, wrong)
    assert status == INCORRECT and "not as a formula" in detail
    right = solution_cell(lesson, name)
    assert grader_scoring(lesson, name, {name: want}, right)[0] == CORRECT
