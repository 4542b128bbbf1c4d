"""The mechanisms behind hints that generalise: answers as named parts (embedlab.grading.parts),
the learner's own code read from its source (embedlab.grading.code), both in the notebook check
and in the grader (the worker carries the answer cell's source)."""

import numpy as np

from embedlab.grading import code, parts
from embedlab.grading.exercise import Exercise
from embedlab.grading.parts import Alt, Answer, Extra, Part, Prod, Sum


def block(d):
    return Answer(Sum("one block", [
        Part("attention weights", 4 * d * d, "4 · d²"),
        Part("LayerNorm scales", 2 * d, "2 · d per block"),
        Part("LayerNorm shifts", 2 * d, "2 · d per block"),
        Part("MLP matrices", 8 * d * d, "8 · d²"),
        Extra("MLP biases", 5 * d, "this block has no MLP biases"),
    ]))


def test_a_part_left_out_is_named_with_its_words():
    d = 768
    assert parts.search(block(d), 12 * d * d + 2 * d) in ("your count has no LayerNorm scales: 2 · d per block",
                                                          "your count has no LayerNorm shifts: 2 · d per block") \
        or "either" in parts.search(block(d), 12 * d * d + 2 * d)


def test_two_equal_explanations_are_named_both_or_neither():
    d = 768
    # scales and shifts are the same size: leaving either out gives the same number
    hint = parts.search(block(d), 12 * d * d + 2 * d)
    assert "either" in hint and "scales" in hint and "shifts" in hint
    # (8 − 2) × 1 = 2 × 3: a Mixtral-like trap
    answer = Answer(Sum("active", [Part("stored", 1000, can_drop=False), Prod("skipped", [
        Part("minus", -1, can_drop=False, can_double=False),
        Part("skipped", 6, alts=[Alt(2, "took away the experts used")]),
        Part("matrices", 3, alts=[Alt(1, "one matrix per expert")])])]), units=False)
    hint = parts.search(answer, 1000 - 6)
    assert "took away the experts used" in hint and "one matrix per expert" in hint


def test_two_changes_and_a_unit_are_found():
    d = 64
    hint = parts.search(block(d), (12 * d * d + 4 * d + 5 * d) * 8)
    assert "MLP biases" in hint and "bits" in hint


def test_nothing_near_says_nothing():
    assert parts.search(block(64), 1234567) is None


def test_code_reading_names_the_wrong_input_and_typed_numbers():
    r = code.read("counts = count_params(load_config(attn_model))\nvocab_share = counts.token_embedding / counts.total",
                  "vocab_share")
    assert code.wrong_reads(r, ("share_model",), {"attn_model": "attn_model is another question's"}) == \
        "attn_model is another question's"
    assert code.wrong_reads(r, ("attn_model",), {"share_model": "x"}) is None
    r = code.read("model_table = 128000 * 4096", "model_table")
    assert r.hard_coded and "128,256" in code.typed_input(r, {"V": 128_256, "d": 4096})
    assert code.typed_input(code.read("x = 128256 * 4096", "x"), {"V": 128_256, "d": 4096}) is None
    r = code.read("x = a // b * 100\ny = sorted(z)", "x")
    assert r.floordiv and r.times_100 and "sorted" in r.calls and not r.hard_coded
    assert not code.read("x = (", "x").parsed


def test_the_notebook_check_reads_the_answer_cell_from_ipython_history():
    namespace = {"np": np, "share_model": "gpt2-xl"}
    cell = "from embedlab import count_params, load_config\nc = count_params(load_config('gpt2'))\n" \
           "embedding_share = c.token_embedding / c.total"
    exec(cell, namespace)  # noqa: S102
    namespace["_ih"] = ["", "import numpy as np", cell, 'ex.check("embedding_share")']
    assert code.answer_source("embedding_share", namespace) == cell
    verdict = Exercise("03-counting-gpt2").verdict("embedding_share", namespace)
    assert verdict.status == "incorrect" and "'gpt2'" in verdict.detail and "share_model" in verdict.detail


def test_the_grader_reads_the_same_source_from_the_submission(tmp_path):
    """The worker sends the answer cell's source with its report; the grader's judge reads it
    as the notebook's check does (here: the wrong model's config, named from the code)."""
    import csv
    from pathlib import Path

    import nbformat

    from embedlab.grading import cli as grade

    root = Path(__file__).resolve().parent.parent
    solution = nbformat.read(root / "solutions" / "03-counting-gpt2.ipynb", as_version=4)
    cells = [c for c in solution.cells if c.cell_type == "code"][:2]  # setup and parameters
    nb = nbformat.v4.new_notebook(metadata=solution.metadata)
    nb.metadata["embedlab"] = {"lesson": "03-counting-gpt2", "kind": "exercise"}
    nb.cells = [nbformat.v4.new_code_cell(c.source) for c in cells] + [nbformat.v4.new_code_cell(
        "c = count_params(load_config('gpt2'))\nembedding_share = c.token_embedding / c.total")]
    nbformat.write(nb, tmp_path / "s.ipynb")
    out = tmp_path / "scores.csv"
    assert grade.main([str(tmp_path / "s.ipynb"), "--out", str(out), "-q"]) == 0
    with open(out, newline="", encoding="utf-8") as f:
        row = next(r for r in csv.DictReader(f) if r["question"] == "embedding_share")
    assert row["status"] == "incorrect" and "'gpt2'" in row["detail"] and "share_model" in row["detail"], row
