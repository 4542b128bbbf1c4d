"""The mechanisms behind hints that generalise: answers as named parts (embedlab.grading.parts),
the learner's own code read from its source (embedlab.grading.code), both in the notebook check
and in the grader (the worker carries the answer cell's source)."""

import dataclasses

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


def _names_gpt2(detail: str) -> bool:
    """Does the hint name gpt2 itself (quoted as the cell writes it, or by name), not only gpt2-xl?"""
    import re

    return re.search(r"(?<![\w-])'?gpt2'?(?![\w-])", detail) is not None


def test_the_notebook_check_reads_the_answer_cell_from_ipython_history():
    namespace = {"np": np, "share_model": "gpt2-xl"}
    cell = "from embedlab import count_params, load_config\nc = count_params(load_config('gpt2'))\n" \
           "embedding_share = c.token_embedding / c.total"
    exec(cell, namespace)  # noqa: S102
    namespace["_ih"] = ["", "import numpy as np", cell, 'ex.check("embedding_share")']
    assert code.answer_source("embedding_share", namespace) == cell
    verdict = Exercise("03-counting-gpt2").verdict("embedding_share", namespace)
    # the model the cell loads is named (gpt2, not the question's gpt2-xl), and where the right one is read from
    assert verdict.status == "incorrect" and _names_gpt2(verdict.detail) and "share_model" in verdict.detail


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
    assert row["status"] == "incorrect" and _names_gpt2(row["detail"]) and "share_model" in row["detail"], row


# --------------------------------------------------------------------------
# The general mechanisms by kind (issue 22, after the held-out corpus was opened)


def test_factors_added_where_they_multiply_are_named():
    answer = Answer(Prod("the table", [Part("rows", 50_000), Part("columns", 768)]))
    hint = parts.search(answer, 50_000 + 768)
    assert "added rows and columns where they multiply" in hint


def test_a_share_over_the_rest_or_with_a_part_added_again():
    share = Answer(parts.Ratio("the share", Sum("the table", [Part("table", 300)]),
                               Sum("the total", [Part("table", 300), Part("the rest", 700)])))
    assert "divided by the rest" in parts.search(share, 300 / 700)
    assert "added to the total again" in parts.search(share, 300 / 1300)


def test_an_input_too_many_or_too_few_and_a_sign():
    answer = Answer(Sum("tied", [Part("untied", 10_000_000, can_drop=False),
                                 Prod("minus the head", [Part("minus", -1, can_drop=False, can_double=False),
                                                         Part("V", 5000), Part("d", 1000)])]),
                    inputs={"d": 1000, "V": 5000})
    assert "exactly d short" in parts.search(answer, 10_000_000 - 5_000_000 - 1000)
    assert "exactly V too many" in parts.search(answer, 10_000_000 - 5_000_000 + 5000)
    assert "you added the head where it is taken away" in parts.search(answer, 10_000_000 + 5_000_000)


def test_two_unit_scales_and_a_unit_part_named_once():
    answer = Answer(Prod("bytes", [Part("tokens", 1024), Part("V", 32_000), Part("bytes per value", 4)]))
    assert "bits" in parts.search(answer, 1024 * 32_000 * 32 / 2**20) and "MiB" in parts.search(
        answer, 1024 * 32_000 * 32 / 2**20)
    gib = Answer(Prod("GiB", [Part("n", 10**9), Part("GiB", 1 / 2**30, alts=[Alt(1e-9, "that is GB, not GiB")])]))
    assert parts.search(gib, 10**9 * 1e-9) == "that is GB, not GiB"  # the part's words, not the unit's too


def test_typed_numbers_read_as_the_learner_typed_them():
    r = code.read("x = 2 * d * (256 * 1024 - V_small)", "x")
    assert "262,144" in code.typed_input(r, {"V_big": 256_000})  # the expression, not its 256
    r = code.read("x = 6 * N * D / (1.3e3 * 3600)", "x")
    assert "1,000 times" in code.typed_input(r, {"GPU_HOURS": 1_300_000})
    assert code.typed_input(code.read("x = n * V * 32", "x"), {"V": 32_000}) is None  # 32 bits is no V
    assert code.assigned_constants("d = 768\nx = 12 * d * d") == {"d": 768}


def test_a_function_explained_by_changed_arguments():
    from embedlab.grading.kinds import Function, Real

    def ref(counts, n_tokens):
        return float(np.dot(counts, n_tokens) / np.sum(counts))

    f = Function("per_word", reference=ref, cases=lambda rng: [
        (np.array([5.0, 1.0, 2.0]), np.array([1.0, 7.0, 3.0])), (np.array([1.0, 1.0, 4.0]), np.array([1.0, 2.0, 3.0]))],
        result=Real("per_word", exact=True))
    cases = f.cases(None)

    def one_short(counts, n_tokens):
        return ref(counts[:-1], n_tokens[:-1])

    verdict = f.judge(f.run_cases(one_short, cases), f.expected_outputs(cases))
    assert verdict.status == "incorrect" and "leaves out the last item" in verdict.detail

    def table(V, d):
        return V * d + 3 * d

    g = Function("table", reference=table, cases=lambda rng: [(50, 8), (70, 16), (33, 5)],
                 result=Real("table", exact=True), source="def table(V, d):\n    return V * 1024 + 3 * 1024\n")
    cases = g.cases(None)
    verdict = g.judge(g.run_cases(lambda V, d: table(d, V), cases), g.expected_outputs(cases))
    assert "`V` and `d` swapped" in verdict.detail
    verdict = g.judge(g.run_cases(lambda V, d: table(V, 1024), cases), g.expected_outputs(cases))
    assert "d = 1024 whatever `d` is passed" in verdict.detail


def test_every_questions_parts_and_inputs_build_for_the_book_and_a_class_variant():
    """A question's `parts` or `inputs` that raises gives no hint at all, silently (explain._call
    swallows it): lesson 12's padding rows named Sum without importing it. Each one builds, in the
    book's variant and in a class variant of every parameterised lesson."""
    from embedlab.grading.lessons import known_lessons, questions_for
    from embedlab.grading.variants import parameters_of, space_for

    for lesson in known_lessons():
        variants = [None] + ([parameters_of(lesson, 1, b"parts-build-secret")] if space_for(lesson) else [])
        for params in variants:
            for q in questions_for(lesson, params) if params else questions_for(lesson):
                for attr in ("parts", "inputs"):
                    build = getattr(q, attr, None)
                    if build is not None and q.case is None:
                        assert build() is not None, (lesson, q.name, attr)


def test_a_whole_linear_layer_left_out_is_one_slip_over_any_two():
    """Weights and bias of one layer, left out together: one change (parts.Layer), named alone though two
    slips of a tree grouped by kind (matrices, biases) would make the same number (parsimony)."""
    d = 64
    tree = Sum("one block", [Part("matrices", 12 * d * d, "12 · d²", alts=[Alt(8 * d * d, "one 4d MLP matrix only")]),
                             Part("biases", 9 * d, "9 · d", alts=[Alt(8 * d, "no output bias")]),
                             Part("LayerNorms", 4 * d, "4 · d")])
    layers = [parts.Layer("the MLP's second layer", 4 * d, d, "4d → d"), parts.Layer("the gate", d, d, bias=False)]
    base = 12 * d * d + 13 * d
    bare = parts.search(Answer(tree, units=False), base - 4 * d * d - d)
    assert bare == "one 4d MLP matrix only; and no output bias", bare  # without the layers: two slips fit
    said = parts.search(Answer(tree, units=False, layers=layers), base - 4 * d * d - d)
    assert said.startswith("your count leaves out one whole linear layer, the MLP's second layer (4d → d)"), said
    assert "either" not in said and "bias" in said
    said = parts.search(Answer(tree, units=False, layers=layers), base - d * d)
    assert "the gate" in said and "bias" not in said, said  # a layer without a bias: its weights alone


def test_a_whole_layer_left_out_of_a_gpt2_block_and_of_every_block():
    from embedlab.grading.exercise import evaluate
    from embedlab.grading.lessons import load_key, questions_for
    from embedlab.grading.questions.l03 import gpt2_params

    q = next(q for q in questions_for("03-counting-gpt2") if q.name == "block_params")
    want = load_key("03-counting-gpt2")["block_params"]
    d = next(d for d in range(8, 8193) if 12 * d * d + 13 * d == want)
    for got, name in ((want - 4 * d * d - d, "the MLP's second layer"), (want - 4 * d * d - 4 * d, "the MLP's first layer"),
                      (want - 3 * d * d - 3 * d, "fused q, k, v")):
        detail = evaluate(q, got, want).detail
        assert "whole linear layer" in detail and name in detail and "either" not in detail, detail
    f = next(q for q in questions_for("03-counting-gpt2") if q.name == "gpt2_params")
    from embedlab.grading.cases import rng_for

    cases = f.cases(rng_for("03-counting-gpt2", "gpt2_params"))
    detail = evaluate(f, lambda V, d, L, T: gpt2_params(V, d, L, T) - L * (d * d + d), None, cases).detail
    assert "whole linear layer in every block" in detail and "output projection" in detail, detail
