"""Lesson 03 in class mode: its variant space draws usable variants whose answers all differ from
the book's, two learners of one class share at most one answer, and the hints hold in every variant.

In process only (no kernel): the variants' keys are harvested by embedlab-assign, whose runs
tests/test_classmode.py covers on lesson 01.
"""

import itertools
import math

import pytest

from embedlab.grading.exercise import evaluate
from embedlab.grading.kinds import Function
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.questions import l03
from embedlab.grading.variants import DEFAULT_VARIANTS, parameters_of
from embedlab.params import count_params, load_config, model_shape

LESSON = "03-counting-gpt2"
SECRETS = [b"first-instructor", b"second-instructor", b"a third secret"]


def same(a, b) -> bool:
    return math.isclose(a, b, rel_tol=1e-12)


def class_variants(secret):
    return [parameters_of(LESSON, k, secret) for k in range(1, DEFAULT_VARIANTS + 1)]


def test_answers_are_the_solutions_and_cover_every_value_question():
    """`answers` (which vets variants) agrees with the key harvested from the book's solution."""
    key = load_key(LESSON)
    book = l03.answers(l03.DEFAULTS)
    assert set(book) == set(key)
    assert all(same(book[name], key[name]) for name in key), (book, key)
    names = {q.name for q in questions_for(LESSON)}
    assert names == set(book) | set(l03.SPACE.fixed)
    assert all(isinstance(q, Function) for q in questions_for(LESSON) if q.name in l03.SPACE.fixed)


@pytest.mark.parametrize("secret", SECRETS)
def test_eight_usable_variants_every_answer_differs_from_the_book(secret):
    book = l03.answers(l03.DEFAULTS)
    for k, p in enumerate(class_variants(secret), start=1):
        assert list(p) == l03.SPACE.names()
        assert l03.problems(p) == [], (k, p)
        mine = l03.answers(p)
        assert [n for n in mine if same(mine[n], book[n])] == [], (k, p)
        # every model is shipped, of the kind its question counts
        assert model_shape(load_config(p["block_model"])).intermediate_size == \
            4 * model_shape(load_config(p["block_model"])).hidden_size
        for name in ("share_model", "gap_model"):
            c = count_params(load_config(p[name]))
            assert c.tied and c.position_embedding > 0, (name, p[name])


@pytest.mark.parametrize("secret", SECRETS)
def test_two_learners_of_one_class_share_at_most_one_answer(secret):
    """So A's answers handed in as B's earn at most 1 of the 5 value points (plus the function's 2: 3 of 7)."""
    answers = [l03.answers(p) for p in class_variants(secret)]
    for a, b in itertools.combinations(answers, 2):
        assert sum(same(a[n], b[n]) for n in a) <= 1, (a, b)


def test_each_pool_gives_different_answers():
    def answer(**change):
        return l03.answers(dict(l03.DEFAULTS, **change))

    pools = {
        "linear_params": [answer(linear_in=m, linear_out=n) for m, n in l03.LINEARS],
        "block_params": [answer(block_model=m) for m in l03.BLOCK_MODELS],
        "interview": [answer(interview_V=V, interview_d=d) for V, d in l03.INTERVIEWS],
        "embedding_share": [answer(share_model=m) for m in l03.SHARE_MODELS],
        "estimate_gap": [answer(gap_model=m) for m in l03.GAP_MODELS],
    }
    for name, values in pools.items():
        got = [v[name] for v in values]
        assert len(set(got)) == len(got), name


def test_problems_rejects_a_degenerate_or_book_valued_variant():
    p = dict(l03.DEFAULTS, linear_in=2048, linear_out=2048)
    assert any("square" in s for s in l03.problems(p))
    assert any("no position table" in s for s in l03.problems(dict(l03.DEFAULTS, share_model="pythia-70m")))
    assert any("untied" in s for s in l03.problems(dict(l03.DEFAULTS, gap_model="pythia-160m")))
    # Pythia-410m's blocks are as wide as GPT-2 medium's: the book's block_params
    assert l03.problems(dict(parameters_of(LESSON, 1, SECRETS[0]), block_model="pythia-410m")) == \
        ["block_params equals the book's"]


def lesson_03_slips(p: dict) -> list:
    """Lesson 03's slips for one variant: (question, wrong value, words its hint must contain)."""
    want = l03.answers(p)
    m, n = p["linear_in"], p["linear_out"]
    d = model_shape(load_config(p["block_model"])).hidden_size
    V, d_i = p["interview_V"], p["interview_d"]
    share = count_params(load_config(p["share_model"]))
    gap = count_params(load_config(p["gap_model"]))
    return [
        ("linear_params", m * n, "bias for each output"),
        ("linear_params", m * n + m, "not per input"),
        ("block_params", 12 * d * d, "12·d²"),
        ("block_params", want["block_params"] - 12 * d, "scale and a shift"),
        ("interview", 2 * V * d_i, "tied"),
        ("interview", V + d_i, "rows × columns"),
        ("embedding_share", float(f"{want['embedding_share']:.3g}"), "digits"),
        ("embedding_share", float(f"{100 * want['embedding_share']:.3g}"), "percentage"),
        ("embedding_share", 2 * want["embedding_share"], "tied"),
        ("embedding_share", (share.token_embedding + share.position_embedding) / share.total, "position table"),
        ("embedding_share", share.token_embedding / (share.total - share.token_embedding), "whole model"),
        ("estimate_gap", -want["estimate_gap"], "exact minus estimate"),
        ("estimate_gap", gap.position_embedding, "only the position table"),
    ]


@pytest.mark.parametrize("variant", range(9))
def test_lesson_03_hints_hold_in_every_class_variant(variant):
    """The same slips get the same words in the book's variant 0 and in drawn ones."""
    p = parameters_of(LESSON, variant, b"hint-corpus-secret-for-variants")
    questions = {q.name: q for q in questions_for(LESSON, p)}
    want = l03.answers(p)
    for name, value, words in lesson_03_slips(p):
        verdict = evaluate(questions[name], value, want[name])
        assert verdict.status == "incorrect" and words in verdict.detail, (variant, name, value, verdict)


def pool_items():
    """The book's parameters with one pool item changed, for every item of every pool."""
    for m, n in l03.LINEARS:
        yield dict(l03.DEFAULTS, linear_in=m, linear_out=n)
    for V, d in l03.INTERVIEWS:
        yield dict(l03.DEFAULTS, interview_V=V, interview_d=d)
    for name, pool in (("block_model", l03.BLOCK_MODELS), ("share_model", l03.SHARE_MODELS),
                       ("gap_model", l03.GAP_MODELS)):
        for item in pool:
            yield dict(l03.DEFAULTS, **{name: item})


def test_lesson_03_hints_hold_for_every_item_of_every_pool():
    """Beyond the nine variants drawn above: no pool item whose slip reads as another mistake
    (a count without a bias that looks like the right one typed rounded, say)."""
    failed = []
    for p in pool_items():
        questions = {q.name: q for q in questions_for(LESSON, p)}
        want = l03.answers(p)
        for name, value, words in lesson_03_slips(p):
            verdict = evaluate(questions[name], value, want[name])
            if not (verdict.status == "incorrect" and words in verdict.detail):
                failed.append((name, value, verdict.detail))
    assert failed == []
