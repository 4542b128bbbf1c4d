"""Lesson 05 in class mode: its variant space draws usable variants whose answers all differ from
the book's (variant 0), and the hint corpus's slips get their hints in every variant.

In process only (no kernel): the answers are computed by the question module's `answers`, which
`test_exercises_in_sync.py` and `test_grade_lessons.py` tie to the solution notebook.
"""

import numpy as np
import pytest

from embedlab.grading.exercise import evaluate
from embedlab.grading.kinds import Array, Function
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.questions import l05
from embedlab.grading.values import data_to_array
from embedlab.grading.variants import parameters_of
from embedlab.params import count_params, load_config, model_shape

LESSON = "05-weight-tying"
K = 8
SECRETS = [b"first-instructor", b"second-instructor", b"third-instructor"]


def class_variants():
    return [(secret, k, parameters_of(LESSON, k, secret)) for secret in SECRETS for k in range(1, K + 1)]


VARIANTS = class_variants()


def test_the_book_variant_answers_are_the_published_key():
    key, mine = load_key(LESSON), l05.answers(l05.DEFAULTS)
    assert set(key) == set(mine)
    assert np.array_equal(data_to_array(key["grad_E"]), mine["grad_E"])
    assert {n: key[n] for n in ("tied_count", "ties", "state_dict_sum")} == \
        {n: mine[n] for n in ("tied_count", "ties", "state_dict_sum")}


def test_eight_usable_variants_for_three_secrets_every_answer_unlike_the_books():
    book = l05.answers(l05.DEFAULTS)
    assert set(l05.SPACE.fixed) == {"count_unique"}
    varying = [q.name for q in l05.QUESTIONS if q.name not in l05.SPACE.fixed]
    assert set(varying) == set(book)
    for secret, k, p in VARIANTS:
        assert list(p) == list(l05.DEFAULTS) and l05.problems(p) == [], (secret, k, p)
        mine = l05.answers(p)
        for name in varying:
            if isinstance(book[name], np.ndarray):
                assert not (mine[name].shape == book[name].shape and np.allclose(mine[name], book[name])), (k, name)
            else:
                assert mine[name] != book[name], (secret, k, name)
        # not degenerate: one candidate ties, a repeated id and two different ones, models of the right kind
        assert sum(bool(load_config(m)["tie_word_embeddings"]) for m in p["candidates"]) == 1
        assert len(set(p["token_ids"])) not in (1, len(p["token_ids"]))
        assert not load_config(p["untied_model"])["tie_word_embeddings"]
        assert load_config(p["tied_model"])["tie_word_embeddings"]
    # the pools are walked through: K variants of one secret get K different models
    for secret in SECRETS:
        mine = [p for s, _, p in VARIANTS if s == secret]
        assert len({p["untied_model"] for p in mine}) == K and len({p["tied_model"] for p in mine}) == K


def test_problems_rejects_the_degenerate_and_the_books_answers():
    p = dict(parameters_of(LESSON, 1, SECRETS[0]))
    assert "tied_count equals the book's" in l05.problems(dict(p, untied_model="llama-3-8b"))
    assert "ties equals the book's" in l05.problems(dict(p, candidates=["pythia-70m", "llama-3.2-1b", "qwen3-8b"]))
    assert any("no id repeats" in m for m in l05.problems(dict(p, token_ids=list(range(p["toy_V"]))[:4])))
    assert any("single token" in m for m in l05.problems(dict(p, token_ids=[1, 1, 1, 1])))
    assert any("exactly one of them tied" in m for m in l05.problems(dict(p, candidates=["gpt2", "opt-125m", "pythia-70m"])))


def lesson_05_slips(p: dict) -> list:
    """Lesson 05's slips for one variant: (question, wrong value, words its hint must contain)."""
    want = l05.answers(p)
    shape = model_shape(load_config(p["untied_model"]))
    table = shape.vocab_size * shape.hidden_size
    out, inp, overwritten = l05.gradient_paths(p)
    wrong_choice = next(m for m in p["candidates"] if not load_config(m)["tie_word_embeddings"])
    slips = [
        ("tied_count", want["tied_count"] - table, "once, not twice"),
        ("tied_count", want["tied_count"] + table, "take one V × d table away"),
        ("grad_E", out, "output path only"),
        ("grad_E", inp, "input path only"),
        ("grad_E", out + overwritten, "np.add.at"),
        ("ties", " ".join(want["ties"]).upper(), "spelled differently"),
        ("ties", wrong_choice, "tie_word_embeddings"),
        ("ties", "pythia-5b", "one of the three names"),
        ("state_dict_sum", count_params(load_config(p["tied_model"])).total, "true count"),
    ]
    config = load_config(p["tied_model"])
    if config["model_type"] == "gpt2":  # lesson 03's untied GPT-2 count, q/k/v biases left out
        qkv = 3 * config["n_layer"] * config["n_embd"]
        slips.append(("state_dict_sum", want["state_dict_sum"] - qkv, "lesson 03's count"))
    return slips


@pytest.mark.parametrize("variant", range(9))
def test_lesson_05_hints_hold_in_every_class_variant(variant):
    p = parameters_of(LESSON, variant, b"hint-corpus-secret-for-variants")
    questions = {q.name: q for q in questions_for(LESSON, p)}
    want = l05.answers(p)
    for name, value, words in lesson_05_slips(p):
        q = questions[name]
        verdict = evaluate(q, value, q.to_data(want[name]) if isinstance(q, Array) else want[name])
        assert verdict.status == "incorrect" and words in verdict.detail, (variant, name, value, verdict)
    right = evaluate(questions["grad_E"], want["grad_E"], questions["grad_E"].to_data(want["grad_E"]))
    assert right.status == "correct"


def test_hints_quote_no_book_value_in_a_class_variant():
    """A class variant's hints are made from its parameters: none names the book's models."""
    for _, _, p in VARIANTS[:8]:
        for q in questions_for(LESSON, p):
            for h in (q.result if isinstance(q, Function) else q).hints:
                for book in ("llama-3-8b", "gpt2", "GPT-2 small", "8,030,261,248", "124,439,808", "128,256"):
                    assert book not in h.message, (q.name, h.message)
