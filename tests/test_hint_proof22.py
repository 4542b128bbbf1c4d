"""A hint never turns a right answer into a wrong one: a function's status is its calls' alone.

The grader's probe runs every one-edit proof of a learner's function (embedlab.grading.undo: `//` for `/`, a range
from 1, ...) whatever its results, since the kernel cannot judge them; the judge then named an edit whose results were
the reference's as "the slip", before any call was seen to fail, and read the reference's plain data unread (an int
compared with {"int": ...}), so every call looked wrong. Lesson 04's `llama_params` written with the solution's own
`head_dim = d // h` was graded incorrect in class mode: "with `d / h`, your own code gives the answer" (the edit's
floats equal the ints in value). Here, on the judge itself:

* right results, beside an edit whose results are right too: correct, and the same status in full as status_only;
* results wrong on a later call only, beside an edit that gives the answer on every call: the call named is the first
  one that is wrong, never a right one.

Both red on hints16's 64fc2c2 (the first incorrect, the second naming input 1).
"""

from __future__ import annotations

import dataclasses

from embedlab.grading.cases import rng_for
from embedlab.grading.kinds import status_only
from embedlab.grading.lessons import questions_for
from embedlab.grading.status import CORRECT, INCORRECT
from embedlab.grading.undo import UNDONE

LESSON, NAME = "04-modern-blocks", "llama_params"
WORDS = "`d // h` divides with `//`, which rounds down to a whole number: with `d / h`, your own code gives the answer"
SOURCE = """def llama_params(V, d, L, h, h_kv, d_ff, tied):
    head_dim = d // h
    attention = 2 * d * h * head_dim + 2 * d * h_kv * head_dim
    layer = attention + 3 * d * d_ff + 2 * d
    return V * d + L * layer + d + (0 if tied else V * d)
"""


def _setting():
    q = next(q for q in questions_for(LESSON) if q.name == NAME)
    cases = q.cases(rng_for(LESSON, NAME))
    expected = q.expected_outputs(cases)
    right = [dict(e["out"]) for e in expected]
    # the edit `d / h`, as the probe reports it: the same counts as floats
    edit = {UNDONE: WORDS, "kind": "function", "got": [{"float": float(r["int"])} for r in right]}
    return dataclasses.replace(q, source=SOURCE, elsewhere=[edit]), expected, right


def test_right_results_beside_an_edit_that_gives_them_too_are_right():
    q, expected, right = _setting()
    verdict = q.judge(right, expected)
    assert (verdict.status, verdict.detail) == (CORRECT, "")
    with status_only():
        assert q.judge(right, expected).status == verdict.status  # no hint changes a status


def test_a_proven_edit_names_the_first_call_that_is_wrong():
    q, expected, right = _setting()
    data = [dict(r) for r in right]
    data[2] = {"int": data[2]["int"] + 1}  # right on inputs 1 and 2, wrong on input 3
    verdict = q.judge(data, expected)
    assert verdict.status == INCORRECT
    assert verdict.detail.startswith(f"on input 3 of {len(data)}, "), verdict.detail
    assert WORDS in verdict.detail
    with status_only():
        assert q.judge(data, expected).status == INCORRECT
