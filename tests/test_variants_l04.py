"""Lesson 04 in class mode: its variant space gives usable variants that differ from the
book's, and its hints name the same slips in every variant. In process, no kernel."""

import re

import pytest

from embedlab.grading.exercise import evaluate
from embedlab.grading.kinds import Function
from embedlab.grading.lessons import questions_for
from embedlab.grading.questions import l04
from embedlab.grading.variants import parameters_of
from embedlab.params import load_config, model_shape

LESSON = "04-modern-blocks"
SECRETS = [b"first instructor's secret", b"second-secret", b"a third, longer secret for lesson 04"]
K = 8


def class_variants():
    return [(secret, k, parameters_of(LESSON, k, secret)) for secret in SECRETS for k in range(1, K + 1)]


def test_every_class_variant_is_usable_and_differs_from_the_books():
    book = l04.answers(l04.DEFAULTS)
    graded = {q.name for q in l04.QUESTIONS}
    assert set(book) == graded - set(l04.SPACE.fixed)  # every question either varies or says why not
    for secret, k, p in class_variants():
        assert l04.problems(p) == [], (secret, k, p)
        mine = l04.answers(p)
        for name in book:
            assert mine[name] != book[name], (secret, k, name, p)


def test_the_class_variants_of_one_secret_differ_on_every_question():
    """With K = 8 no two learners on different variants share an answer that can vary, so one
    learner's answers handed in as another's earn only the fixed questions' points."""
    for secret in SECRETS:
        answers = [l04.answers(parameters_of(LESSON, k, secret)) for k in range(1, K + 1)]
        for name in answers[0]:
            values = [a[name] for a in answers]
            assert len(set(values)) == K, (secret, name, values)


def test_the_models_are_shipped_and_fit_their_questions():
    """Each pool's models keep the question's teaching point: GQA and a dense MLP, an untied
    head, a tied head whose vocabulary needs padding."""
    for name in l04.ATTN_MODELS:
        s = model_shape(load_config(name))
        assert s.num_kv_heads < s.num_heads and s.mla is None, name
    for name in l04.MLP_MODELS:
        config = load_config(name)
        assert model_shape(config).moe is None and not config.get("mlp_bias"), name
    for name in l04.SHARE_MODELS:
        assert not model_shape(load_config(name)).tied, name
    for name in l04.PAD_MODELS:
        s = model_shape(load_config(name))
        assert s.tied and all(s.vocab_size % m for m in l04.PAD_MULTIPLES), name
    drawn = [p for _, _, p in class_variants()]
    for field, pool in (("attn_model", l04.ATTN_MODELS), ("mlp_model", l04.MLP_MODELS),
                        ("share_model", l04.SHARE_MODELS), ("pad_model", l04.PAD_MODELS)):
        assert {p[field] for p in drawn} == set(pool), field  # 24 variants use every model of the pool


def slips(p: dict) -> list:
    """Lesson 04's slips for one variant: (question, wrong value, words its hint must contain)."""
    want = l04.answers(p)
    s = model_shape(load_config(p["attn_model"]))
    d, h, h_kv, head_dim = s.hidden_size, s.num_heads, s.num_kv_heads, s.head_dim
    m = model_shape(load_config(p["mlp_model"]))
    d_m, d_ff = m.hidden_size, m.intermediate_size
    pad = model_shape(load_config(p["pad_model"]))
    rows = l04.padded(pad.vocab_size, p["pad_multiple"]) - pad.vocab_size
    out = [
        ("attn_layer", 4 * d * h * head_dim, "multi-head"),
        ("attn_layer", 2 * d * h * head_dim, "add the (narrower) k and v"),
        ("mlp_layer", 2 * d_m * d_ff, "three matrices"),
        ("mlp_layer", 3 * d_m * d_ff + 2 * d_ff + d_m, "no biases"),
        ("vocab_share", want["vocab_share"] / 2, "untied"),
        ("vocab_share", float(f"{want['vocab_share']:.3g}"), "right to 3 digits"),
        ("vocab_share", 100 * want["vocab_share"], "not a percentage"),
        ("padding_params", 2 * want["padding_params"], "exist once"),
        ("padding_params", rows, "number of rows"),
        ("padding_params", (pad.vocab_size + rows) * pad.hidden_size, "whole padded table"),
    ]
    if h * head_dim != d:
        out.append(("attn_layer", 2 * d * d + 2 * d * h_kv * (d // h), "heads are head_dim wide"))
    if 8 * d_m * d_m not in (want["mlp_layer"], 2 * d_m * d_ff):  # else it is the other slip
        out.append(("mlp_layer", 8 * d_m * d_m, "GPT-2's MLP"))
    return out


@pytest.mark.parametrize("variant", range(K + 1))
def test_lesson_04_hints_hold_in_every_class_variant(variant):
    p = parameters_of(LESSON, variant, SECRETS[0])
    questions = {q.name: q for q in questions_for(LESSON, p)}
    want = l04.answers(p)
    for name, value, words in slips(p):
        verdict = evaluate(questions[name], value, want[name])
        assert verdict.status == "incorrect" and words in verdict.detail, (variant, name, value, verdict)


def test_no_hint_quotes_a_book_value():
    """Hints are made from each variant's parameters: none states a size (a number of 3+ digits,
    once the variant's model names are taken out)."""
    for _, _, p in class_variants()[:K] + [(None, 0, l04.DEFAULTS)]:
        models = [p["attn_model"], p["mlp_model"], p["share_model"], p["pad_model"]]
        for q in questions_for(LESSON, p):
            hints = q.result.hints if isinstance(q, Function) else q.hints
            for hint in hints:
                text = re.sub("|".join(map(re.escape, models)), "MODEL", hint.message)
                assert not re.search(r"\d{3}|\d,\d", text), (q.name, hint.message)
