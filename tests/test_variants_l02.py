"""Lesson 02 in class mode: its variant space, and its hints in every variant (no kernel, no grader run).

The end-to-end class (embedlab-assign, honest and copied submissions, embedlab-grade) is
tests/test_classmode.py's, on lesson 01; this file checks what lesson 02 itself declares.
"""

import numpy as np
import pytest

from embedlab.grading.exercise import evaluate
from embedlab.grading.kinds import Array, Function
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.questions import l02
from embedlab.grading.values import data_to_array
from embedlab.grading.variants import parameters_of, read_parameters, render_parameters
from embedlab.params import available_models, load_config, model_shape

LESSON = "02-lookup-vs-matmul"
SECRETS = [b"test-secret-for-the-class-mode-tests", b"a-second-instructor-secret!", b"0123456789abcdef"]


def want_all(p: dict) -> dict:
    return dict(l02.answers(p), keeps_sign="lookup")


def test_answers_computes_the_books_key():
    """`answers` vets the variants: it must compute what the solution notebook computes."""
    key, mine = load_key(LESSON), want_all(l02.DEFAULTS)
    for name, value in mine.items():
        if isinstance(value, np.ndarray):
            assert np.array_equal(data_to_array(key[name]), value), name
        else:
            assert key[name] == value, name


@pytest.mark.parametrize("secret", SECRETS)
def test_every_class_variant_is_usable_and_differs_from_the_book(secret):
    book = want_all(l02.DEFAULTS)
    shapes = set()
    for variant in range(1, 9):
        p = parameters_of(LESSON, variant, secret)
        assert p == parameters_of(LESSON, variant, secret)  # reproducible
        assert l02.problems(p) == []
        mine = want_all(p)
        for q in questions_for(LESSON, p):
            if q.name in l02.SPACE.fixed:
                continue
            same = np.shape(mine[q.name]) == np.shape(book[q.name]) and np.array_equal(mine[q.name], book[q.name])
            assert not same, (variant, q.name)
        shapes.add((p["V"], p["d"]))
        assert (p["V"], p["d"]) in {_shape(m) for m in l02.MODELS}
        assert all(len(line) <= 88 for line in render_parameters(p).splitlines())
        assert read_parameters(render_parameters(p)) == p
    assert len(shapes) == 8  # eight different shipped models, picked without repeats
    functions = {q.name for q in questions_for(LESSON) if isinstance(q, Function)}
    assert set(l02.SPACE.fixed) == functions | {"keeps_sign"}


def _shape(model):
    s = model_shape(load_config(model))
    return s.vocab_size, s.hidden_size


def test_the_model_pool_is_shipped_configs():
    assert set(l02.MODELS) <= set(available_models())


def test_problems_rejects_degenerate_variants_and_the_books_answers():
    assert any("equals the book's" in x for x in l02.problems(l02.DEFAULTS))
    p = parameters_of(LESSON, 1, SECRETS[0])
    assert any("none repeated" in x for x in l02.problems(dict(p, ids=list(range(4)))))
    assert any("outside" in x for x in l02.problems(dict(p, ids=p["ids"] + [p["table_V"]])))
    every_row = [list(range(p["batch_V"])), [1, 1]]
    assert any("every row" in x for x in l02.problems(dict(p, batch=every_row)))
    assert any("increasing order" in x for x in l02.problems(dict(p, batch=[[0, 1, 1], [2, 3, 0]])))
    assert any("batch_flops equals" in x for x in l02.problems(dict(p, V=32000, d=512, n_tokens=1024)))
    # llama-2-7b's V is the book's: with 4,096 tokens in float16 its bytes are twice the book's,
    # so the book's value copied would be told "a float16 entry takes 2 bytes, not 1"
    llama = dict(p, V=32000, d=4096, n_tokens=4096, precision="float16")
    assert any("hinted multiple" in x for x in l02.problems(llama))
    assert l02.problems(dict(llama, n_tokens=8192)) == []
    # d = 8·V is no real model, but then "V columns, not d" and "bits" would fire on the same answer
    assert any("same answer" in x for x in l02.problems(dict(p, d=p["V"] * 8)))


def slips(p: dict) -> list:
    """Lesson 02's hint-corpus slips for one variant: (question, wrong value, words its hint must contain)."""
    want = want_all(p)
    V, d, n = p["V"], p["d"], p["n_tokens"]
    b = np.dtype(p["precision"]).itemsize
    flat = np.array(p["batch"]).ravel()
    out = [
        ("rows_matmul", want["rows_matmul"].T, "goes on the left"),
        ("rows_lookup", want["rows_lookup"].T, "the right rows transposed"),
        ("keeps_sign", "both", "-0.0 + +0.0"),
        ("updated_rows", flat, "each updated row once"),
        ("updated_rows", np.arange(p["batch_V"]), "gradient of exactly zero"),
        ("updated_rows", np.array(list(dict.fromkeys(flat.tolist()))), "increasing order"),
        ("batch_flops", V * d * n, "2·V·d per token"),
        ("batch_flops", 2 * V * d, f"the batch has {n:,}"),
        ("batch_flops", V * d, "a multiply and an add"),
        ("one_hot_batch_bytes", n * V * b * 8, "bits"),
        ("one_hot_batch_bytes", n * d * b, "V columns, not d"),
    ]
    if b != 1:
        out.append(("one_hot_batch_bytes", n * V, f"takes {b} bytes, not 1"))
    if b not in (1, 8):
        out.append(("one_hot_batch_bytes", n * V * 8, f"{p['precision']}, not float64"))
    return out


@pytest.mark.parametrize("variant", range(9))
def test_lesson_02_hints_hold_in_every_class_variant(variant):
    """The hint corpus's lesson-02 slips get the same words in the book's variant 0 and in drawn ones."""
    p = parameters_of(LESSON, variant, b"hint-corpus-secret-for-variants")
    questions = {q.name: q for q in questions_for(LESSON, p)}
    want = want_all(p)
    for name, value, words in slips(p):
        q = questions[name]
        verdict = evaluate(q, value, q.to_data(want[name]) if isinstance(q, Array) else want[name])
        assert verdict.status == "incorrect" and words in verdict.detail, (variant, name, value, verdict)


def test_the_precisions_cover_one_byte_and_eight():
    """The bytes hints change with the precision: each branch is reached by some variant."""
    seen = {parameters_of(LESSON, v, SECRETS[0])["precision"] for v in range(1, 9)}
    assert seen == set(l02.PRECISIONS)
