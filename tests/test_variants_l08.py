"""Lesson 08 in class mode: its variant space draws usable variants, every answer but the
function's moves away from the book's, and the solution computes what the module expects.

No kernel: the solution's code cells run in this process (its check cells left out).
"""


import numpy as np
import pytest

from embedlab.grading.kinds import Function
from embedlab.grading.lessons import questions_for
from embedlab.grading.questions import l08
from embedlab.grading.variants import parameters_of, read_parameters, render_parameters

from solution_runner import run_solution, solution_parameters

LESSON = "08-vocabulary-size"
SECRETS = [b"test-secret-for-the-class-mode-tests", b"a-second-instructor-secret!", b"0123456789abcdef"]


@pytest.mark.parametrize("secret", SECRETS)
def test_every_class_variant_is_usable_and_differs_from_the_book(secret):
    book = l08.answers(l08.DEFAULTS)
    varying = [q.name for q in questions_for(LESSON) if q.name not in l08.SPACE.fixed]
    seen = {"model": set(), "partner": set(), "n_words": set()}
    for variant in range(1, 9):
        p = parameters_of(LESSON, variant, secret)
        assert p == parameters_of(LESSON, variant, secret)  # reproducible
        assert l08.problems(p) == []
        mine = l08.answers(p)
        assert sorted(mine) == sorted(varying)
        for name in varying:
            assert not np.isclose(mine[name], book[name], rtol=1e-9, atol=0), (variant, name)
        assert 0 < mine["hindi_single_token_share"] < 1 and p["V_small"] < p["V_big"] <= 300_000
        model = [m for m in l08.MODELS if l08.model_figures(m) == (p["d"], p["rest"], p["blocks"])]
        assert len(model) == 1, p  # d, rest and blocks are one shipped model's, not a mix
        seen["model"].add(model[0])
        seen["partner"].add(p["partner"])
        seen["n_words"].add(p["n_words"])
        assert p["partner"] in l08.PARTNERS and p["partner"] != l08.DEFAULTS["partner"]
        assert p["n_words"] in l08.N_WORDS and p["n_top"] <= p["n_train"]
        assert all(len(line) <= 88 for line in render_parameters(p).splitlines())
        assert read_parameters(render_parameters(p)) == p
    for name, pool in (("model", l08.MODELS), ("partner", l08.PARTNERS), ("n_words", l08.N_WORDS)):
        assert len(seen[name]) == min(8, len(pool)), name  # picked without repeats, up to the pool's size
    assert set(l08.SPACE.fixed) == {q.name for q in questions_for(LESSON) if isinstance(q, Function)}


def test_the_books_figures_are_llama_3_2_1b():
    """The book's rest and blocks are computed, not typed: Llama-3.2-1B's (d = 2,048, 16 blocks)."""
    assert l08.model_figures("llama-3.2-1b") == (l08.DEFAULTS["d"], l08.DEFAULTS["rest"], l08.DEFAULTS["blocks"])
    assert "llama-3.2-1b" not in l08.MODELS  # every class variant has other blocks than the book's


def test_problems_rejects_the_book_and_degenerate_variants():
    assert any("equals the book's" in x for x in l08.problems(l08.DEFAULTS))
    p = parameters_of(LESSON, 1, SECRETS[0])
    assert l08.problems(p) == []
    assert any("V_small is not below" in x for x in l08.problems(dict(p, V_small=p["V_big"])))
    assert any("n_top is over" in x for x in l08.problems(dict(p, n_top=p["n_train"] + 1)))
    # the most frequent Hindi word is one token of any tokenizer: a share of 1 is no audit
    assert any("not strictly between" in x for x in l08.problems(dict(p, partner="ar", n_train=300, V_bpe=300,
                                                                       n_top=1)))
    # the book's sizes with the book's partner give the book's audit
    assert any("hindi_single_token_share equals" in x for x in l08.problems(
        dict(p, partner="en", n_train=500, V_bpe=500, n_top=100)))


@pytest.mark.parametrize("variant", [0, 1, 2, 3])
def test_the_solution_computes_the_modules_answers(variant, capsys):
    p = parameters_of(LESSON, variant, SECRETS[0])
    namespace = run_solution(LESSON, p)
    for name, value in l08.answers(p).items():
        got = namespace[name]
        assert type(got) is type(value) and got == value, (variant, name, got, value)
    assert all(len(line) <= 88 for line in capsys.readouterr().out.splitlines())


def test_the_solutions_parameters_cell_is_the_defaults():
    assert solution_parameters(LESSON) == l08.DEFAULTS


def test_the_draws_cover_the_pools():
    """problems() rejects a variant whose slip its hint does not name: a hint broken for most
    values would quietly shrink the space to a few values."""
    drawn = [parameters_of(LESSON, v, s) for s in SECRETS for v in range(1, 9)]
    values = {name: {p[name] for p in drawn} for name in l08.DEFAULTS}
    assert values["V_small"] >= set(l08.V_SMALLS) - {50_000} and len(values["V_big"]) >= 4
    assert len(values["n_train"]) >= 3 and len(values["V_bpe"]) >= 3 and len(values["n_top"]) >= 4
    assert values["partner"] == set(l08.PARTNERS)
