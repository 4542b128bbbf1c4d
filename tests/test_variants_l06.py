"""Lesson 06 in class mode: its variant space, and its hints in every variant.

In process only (no kernel): the space draws K = 8 usable variants for three
secrets, each non-fixed answer differs from the book's (variant 0), and the
learner's usual slips get the same hint words in the book's variant and in
drawn ones.
"""

import math

import pytest

from embedlab.grading.exercise import evaluate
from embedlab.grading.kinds import Function
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.questions import l06
from embedlab.grading.variants import parameters_of, read_parameters, render_parameters
from embedlab.params import count_params, load_config, model_shape

LESSON = "06-params-vs-compute"
SECRETS = [b"test-secret-for-the-class-mode-tests", b"a-second-instructor-secret!", b"0123456789abcdef"]


def test_the_vetting_answers_are_the_solutions_for_the_book():
    """answers() vets variants: for variant 0 it must give what running the solution gave (the key)."""
    key = load_key(LESSON)
    assert l06.answers(l06.DEFAULTS) == {name: key[name] for name in l06.answers(l06.DEFAULTS)}


@pytest.mark.parametrize("secret", SECRETS)
def test_every_class_variant_is_usable_and_differs_from_the_book(secret):
    book = l06.answers(l06.DEFAULTS)
    picked = {name: set() for name in ("head_model", "model", "share_model", "D")}
    for variant in range(1, 9):
        params = parameters_of(LESSON, variant, secret)
        assert params == parameters_of(LESSON, variant, secret)  # reproducible
        assert l06.problems(params) == []
        for name in picked:
            picked[name].add(params[name])
        assert params["T"] <= l06.context_of(params["share_model"])
        mine = l06.answers(params)
        for name in [q.name for q in questions_for(LESSON) if q.name not in l06.SPACE.fixed]:
            assert not math.isclose(mine[name], book[name], rel_tol=1e-9), (variant, name)
        assert 0.9e14 < mine["flop_rate"] < 4.5e14  # a realistic rate for one GPU
        assert all(len(line) <= 88 for line in render_parameters(params).splitlines())
        assert read_parameters(render_parameters(params)) == params
    assert all(len(items) == 8 for items in picked.values()), picked  # from each pool without repeats
    assert set(l06.SPACE.fixed) == {"lookup_flops"} | {q.name for q in questions_for(LESSON) if isinstance(q, Function)}


def test_problems_rejects_the_books_answers_and_a_context_too_long():
    assert l06.problems(l06.DEFAULTS)  # the book's own answers
    params = parameters_of(LESSON, 1, SECRETS[0])
    params["model"] = "mistral-7b"  # Llama-3-8B's blocks: the book's Kaplan N, so left out of the pool
    assert l06.answers(params)["kaplan_n"] == l06.answers(l06.DEFAULTS)["kaplan_n"]
    assert any("pool" in p for p in l06.problems(params))
    params = parameters_of(LESSON, 1, SECRETS[0])
    params["share_model"], params["T"] = "gpt2-medium", 2048
    assert any("longer than" in p for p in l06.problems(params))
    params = parameters_of(LESSON, 1, SECRETS[0])
    params["moe_model"] = "mixtral-8x7b"
    assert any("active_params" in p for p in l06.problems(params))


def lesson_06_slips(p: dict) -> list:
    """Lesson 06's slips for one variant: (question, wrong value, words its hint must contain)."""
    want = l06.answers(p)
    head = model_shape(load_config(p["head_model"]))
    table = model_shape(load_config(p["model"]))
    counts = count_params(load_config(p["model"]))
    moe, e = count_params(load_config(p["moe_model"])), l06.expert_layout(p["moe_model"])
    n, E, k, expert = e["moe_layers"], e["n_experts"], e["k"], 3 * e["d"] * e["d_ff"]
    return [
        ("head_flops", head.hidden_size * head.vocab_size, "2 FLOPs per weight"),
        ("head_flops", 0, "input lookup"),
        ("lookup_flops", table.hidden_size, "no arithmetic"),
        ("lookup_flops", 2 * table.vocab_size * table.hidden_size, "one-hot matmul"),
        ("kaplan_n", counts.total - counts.token_embedding, "untied head"),
        ("kaplan_n", counts.total, "every parameter"),
        ("head_share_training", l06.share(p, p["T"], attention=False), "left out attention"),
        ("head_share_training", l06.share(p, p["T"], square=True), "T(T+1)/2"),
        ("head_share_training", float(f"{want['head_share_training']:.4g}"), "digits: compute it"),
        ("head_share_prompt", l06.share(p, 1, attention=False), "left out attention"),
        ("head_share_prompt", want["head_share_training"], "the head runs once"),
        ("flop_rate", want["flop_rate"] / 1e12, "TFLOP/s"),
        ("flop_rate", want["flop_rate"] * 3600, "hours"),
        ("flop_rate", want["flop_rate"] / 3, "6·N·D"),
        ("active_params", moe.total, "every parameter stored"),
        ("active_params", moe.total - n * E * expert, f"still uses {k}"),
        ("active_params", moe.total - n * k * expert, f"other {E - k}"),
        ("active_params", moe.total - n * (E - k) * 2 * e["d"] * e["d_ff"], "three matrices"),
        ("active_params", n * k * expert, "both vocabulary tables"),
        ("active_params", moe.total - (E - k) * expert, f"{n} expert layers"),
    ]


@pytest.mark.parametrize("variant", range(9))
def test_lesson_06_hints_hold_in_every_class_variant(variant):
    """The hints are made from each variant's parameters: the same slips get the same words in the
    book's variant 0 and in drawn ones."""
    p = parameters_of(LESSON, variant, b"hint-corpus-secret-for-variants")
    questions = {q.name: q for q in questions_for(LESSON, p)}
    want = l06.answers(p)
    for name, value, words in lesson_06_slips(p):
        verdict = evaluate(questions[name], value, want[name])
        assert verdict.status == "incorrect" and words in verdict.detail, (variant, name, value, verdict)
