"""A construct of the learner's code, or a part a code reading names, is a diagnosis like any other (issue 46):
shown only when its counterfactual holds (explain.construct_proven).

1. A construct the solution's own code writes as often (`(T + 1) // 2` in lesson 06) is not the slip.
2. A construct that, undone in the learner's own cell read as arithmetic on the book's inputs, does not give the
   answer is not the slip (a round to 12 places before another slip); one that does is named.
3. A cell the reading cannot follow: the slip applied to the answer must give the learner's value exactly.
4. A part a code reading names (`needs`: "the diagonal") with no value to prove it waits behind the slips the
   value proves: a part counted twice, exact on the book's inputs, is named instead.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from embedlab.grading import explain
from embedlab.grading.kinds import Array, Integer, Real
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.parts import Answer, Part, Sum


def _question(lesson, name):
    return next(q for q in questions_for(lesson) if q.name == name)


GIVEN_03 = "from embedlab import count_params, load_config\n# YOUR CODE HERE\n"


def test_a_rounding_that_is_not_the_slip_is_not_named():
    lesson, name = "03-counting-gpt2", "embedding_share"
    q, want = _question(lesson, name), load_key(lesson)[name]
    from embedlab import count_params, load_config
    from embedlab.grading.questions.l03 import DEFAULTS

    c = count_params(load_config(DEFAULTS["share_model"]))
    mine = ("counts = count_params(load_config(share_model))\n"
            "embedding_share = round(counts.token_embedding / counts.total, 12) + 0.013\n")
    got = round(c.token_embedding / c.total, 12) + 0.013
    asked = dataclasses.replace(q, source=GIVEN_03 + mine)
    assert not explain.construct_proven(asked, "round", got, want)
    assert "round" not in (explain.code_features(asked, got, want) or "")
    detail = asked.judge({"real": got}, want).detail
    assert "rounds" not in detail, detail
    rounded = mine.replace(", 12) + 0.013", ", 3)")
    got = round(c.token_embedding / c.total, 3)
    asked = dataclasses.replace(q, source=GIVEN_03 + rounded)
    assert explain.construct_proven(asked, "round", got, want)  # undone in the cell: the answer exactly
    assert "rounds" in asked.judge({"real": got}, want).detail


def test_a_floor_division_the_solution_writes_too_is_not_named():
    """Lesson 06's `(T + 1) // 2` is right: a whole-number value from another slip is not told to use `/`."""
    lesson, name = "06-params-vs-compute", "head_share_prompt"
    q, want = _question(lesson, name), load_key(lesson)[name]
    mine = ("attention = c.attention_per_key * T * (T + 1) // 2\n"
            "total = T * (c.input + c.blocks) + attention + c.head\nhead_share_prompt = total / total\n")
    asked = dataclasses.replace(q, source=mine)
    assert not explain.construct_proven(asked, "floor", 1.0, want)
    assert "//" not in (explain.code_features(asked, 1.0, want) or "")
    own = mine.replace("head_share_prompt = total / total", "head_share_prompt = c.head // total")
    asked = dataclasses.replace(q, source=own)  # one `//` more than the solution: floor of the answer, 0
    assert "//" in (explain.code_features(asked, 0.0, want) or "")


def test_a_construct_in_a_cell_the_reading_cannot_follow_needs_the_exact_relation():
    q = Real("share", exact=True)
    asked = dataclasses.replace(q, source="share = 100 * np.mean(counts == 1)\n")
    assert explain.construct_proven(asked, "percent", 37.0, 0.37)
    assert not explain.construct_proven(asked, "percent", 41.0, 0.37)
    assert "100" not in (explain.code_features(asked, 41.0, 0.37) or "")
    assert "100" in explain.code_features(asked, 37.0, 0.37)


def test_an_array_rounded_is_named_only_when_the_rounding_gives_it():
    want = np.array([[0.1234567, -1.5], [2.25, 0.0]])
    q = dataclasses.replace(Array("rows", sig=6), source="rows = np.round(E[ids], 2) * 2\n")
    assert "rounds" not in (explain.array(q, np.round(want, 2) * 2, want) or "")
    q = dataclasses.replace(q, source="rows = np.round(E[ids], 2)\n")
    assert "rounds" in explain.array(q, np.round(want, 2), want)


def test_a_part_a_code_reading_names_waits_behind_a_slip_the_value_proves():
    """`needs` words name a part ("the diagonal") from what the cell lacks; the value, here, is a part counted
    twice, exact on the book's inputs: that is named, the unproved reading is not."""
    words = "PLANTED: leave out each row's cosine with itself (the diagonal)"
    q = Integer("pairs", needs={"<|>|triu": words},
                parts=lambda: Answer(Sum("the count", [Part("the table", 300), Part("the head", 50)])))
    asked = dataclasses.replace(q, source="pairs = table + 2 * head\n")  # no `<`: the reading speaks
    detail = asked.judge({"int": 400}, 350).detail
    assert "PLANTED" not in detail and "head" in detail and "twice" in detail, detail
    assert "PLANTED" in asked.judge({"int": 351}, 350).detail  # nothing the value proves: the reading, as before


# --------------------------------------------------------------------------
# What the mutation fuzzer found (benchmarks/hint_mutations.py), each by its kind


def _function_verdict(lesson, name, source):
    from embedlab.grading.cases import rng_for
    from embedlab.grading.verdicts import evaluate

    q = _question(lesson, name)
    ns: dict = {"np": np}
    exec(source, ns)  # noqa: S102 - the test's own function
    return evaluate(q, ns[name], None, q.cases(rng_for(lesson, name)), source=source)


def test_words_about_a_construct_the_cell_does_not_write_are_withheld():
    """`x / (y / z)` has the value of `x / y * z`: a question's own hint says "operator precedence" from the value;
    the learner wrote the parentheses, and divided where the product belongs: no precedence slip is named."""
    divided = "def cosine(a, b):\n    return float(a @ b / (np.linalg.norm(a) / np.linalg.norm(b)))\n"
    verdict = _function_verdict("01-toy-table", "cosine", divided)
    assert verdict.status == "incorrect" and "precedence" not in verdict.detail, verdict.detail
    unbracketed = "def cosine(a, b):\n    return float(a @ b / np.linalg.norm(a) * np.linalg.norm(b))\n"
    assert "precedence" in _function_verdict("01-toy-table", "cosine", unbracketed).detail
    q = dataclasses.replace(Real("x", exact=True), source="x = a / (b / c)\n")
    assert explain.construct_unwritten(q, "operator precedence: x / y * z is (x / y) * z")
    assert not explain.construct_unwritten(dataclasses.replace(q, source="x = a / b * c\n"), "operator precedence")


def test_a_function_that_raises_having_never_read_an_argument_is_told_so_first():
    """V replaced by a number (the table made 3 rows high): the IndexError follows from the argument never read."""
    typed = ("def embedding_backward(ids, grad_out, V):\n    grad_E = np.zeros((3, grad_out.shape[1]))\n"
             "    np.add.at(grad_E, ids, grad_out)\n    return grad_E\n")
    verdict = _function_verdict("02-lookup-vs-matmul", "embedding_backward", typed)
    assert verdict.detail.startswith("your function never reads its argument `V`"), verdict.detail
    assert "IndexError" in verdict.detail, verdict.detail


def test_an_operator_swapped_or_a_number_one_off_is_undone_in_the_learners_own_code():
    """The fuzzer's commonest generic hints: `-` for `+`, a 13 for a 12. Undone in the learner's own expression
    (a cell read as arithmetic on the book's inputs, a function's body on the failing call's arguments), exactly
    one edit gives the answer: named, with the piece as the learner wrote it; two alike, or none: not said."""
    lesson = "03-counting-gpt2"
    for body, words in (("    block = 12 * d * d - 13 * d\n    return V * d + T * d + L * block + 2 * d\n",
                         "`… - 13 * d` subtracts where the formula adds"),
                        ("    block = 13 * d * d + 13 * d\n    return V * d + T * d + L * block + 2 * d\n",
                         "the number 13 in `13 * d * d` is one off: with 12 there")):
        verdict = _function_verdict(lesson, "gpt2_params", "def gpt2_params(V, d, L, T):\n" + body)
        assert words in verdict.detail, verdict.detail
    q, want = _question(lesson, "block_params"), load_key(lesson)["block_params"]
    given = ("from embedlab import load_config, model_shape\nd = model_shape(load_config(block_model)).hidden_size\n"
             "# YOUR CODE HERE\n")
    from embedlab.grading import code

    for mine, words in (("block_params = 12 * d * d + 13 / d\n", "`13 / d` divides where the formula multiplies"),
                        ("block_params = 12 * d * d + 12 * d\n", "the number 12 in `12 * d` is one off")):
        asked = dataclasses.replace(q, source=given + mine)
        got = code.evaluate(given + mine, "block_params", explain.book_envs(q)[0])
        assert any(words in w for w in explain.slip_undone(asked, got, want)), (mine, explain.slip_undone(asked, got, want))
    both = "block_params = 12 * d * d + 6 * d + d * 6\n"  # 6 → 7 in either term: two edits alike, none said
    asked = dataclasses.replace(q, source=given + both)
    got = code.evaluate(given + both, "block_params", explain.book_envs(q)[0])
    assert explain.slip_undone(asked, got, want) == []
