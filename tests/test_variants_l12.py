"""Lesson 12 in class mode: its variant space draws usable variants (the resized table needs padding,
every usual slip gets its hint), every answer moves away from the book's, and the solution computes
what the module expects.

No kernel: the solution's code cells run in this process (its check cells left out).
"""

import numpy as np
import pytest

from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.questions import l12
from embedlab.grading.variants import parameters_of, read_parameters, render_parameters

from solution_runner import assert_computes, solution_parameters, remember_runs  # noqa: F401 (a fixture)

LESSON = "12-change-a-vocabulary"
SECRETS = [b"test-secret-for-the-class-mode-tests", b"a-second-instructor-secret!", b"0123456789abcdef"]



def differs(a, b):
    return not (np.shape(a) == np.shape(b) and np.allclose(a, b, rtol=1e-6, atol=0))


@pytest.mark.parametrize("secret", SECRETS)
def test_every_class_variant_is_usable_and_differs_from_the_book(secret):
    book = l12.answers(l12.DEFAULTS)
    varying = [q.name for q in questions_for(LESSON)]
    models, langs = set(), set()
    for variant in range(1, 9):
        p = parameters_of(LESSON, variant, secret)
        assert p == parameters_of(LESSON, variant, secret)  # reproducible
        assert l12.problems(p) == []
        mine = l12.answers(p)
        assert sorted(mine) == sorted(varying)
        for name in varying:
            assert differs(mine[name], book[name]), (variant, name)
        assert mine["padding_rows"] > 0 and 0 < mine["coverage"] < 1
        models.add(p["vocab_model"])
        langs.add(p["lang"])
        assert all(len(line) <= 88 for line in render_parameters(p).splitlines())
        assert read_parameters(render_parameters(p)) == p
    assert len(models) == 8 and len(langs) == 8  # picked without repeats
    assert l12.SPACE.fixed == {}


def test_problems_rejects_the_book_and_degenerate_variants():
    assert any("equals the book's" in x for x in l12.problems(l12.DEFAULTS))
    p = parameters_of(LESSON, 1, SECRETS[0])
    assert l12.problems(p) == []
    # Llama-3's 128,256 is a multiple of 256: with no new token there would be no padding; with
    # 256 new tokens neither
    assert any("no padding" in x for x in l12.problems(dict(p, vocab_model="llama-3-8b", n_new=256,
                                                            pad_multiple=256)))
    assert any("n_keep" in x for x in l12.problems(dict(p, tokenizer="gpt2", n_keep=60_000)))
    assert any("outside its pool" in x for x in l12.problems(dict(p, lang="xx")))


@pytest.mark.parametrize("variant", [0, 1, 2])
def test_the_solution_computes_the_modules_answers(variant, capsys):
    p = parameters_of(LESSON, variant, SECRETS[0])
    assert_computes(LESSON, p, l12.answers(p))
    assert all(len(line) <= 88 for line in capsys.readouterr().out.splitlines())


def test_the_solutions_parameters_cell_is_the_defaults():
    assert solution_parameters(LESSON) == l12.DEFAULTS
    key = load_key(LESSON)
    book = l12.answers(l12.DEFAULTS)
    for name in ("added_params", "padding_rows", "trimmed_rows", "saved_params"):
        assert key[name] == book[name], name
    assert key["added_params"] == 4 * 768 and key["padding_rows"] == 50_304 - 50_261


def test_the_mean_initialisation_obeys_the_lessons_bound():
    """Question 3's probability is at most 1/(V + n_new) and question 4's KL at most log(1 + n_new/V)."""
    for variant in range(4):
        p = parameters_of(LESSON, variant, SECRETS[1])
        a = l12.answers(p)
        assert 0 < a["p_new_token"] <= 1 / (l12.V_TINY + p["n_new"])
        assert 0 < a["kl_mean"] <= np.log1p(p["n_new"] / l12.V_TINY)


def test_the_draws_cover_the_ranges():
    drawn = [parameters_of(LESSON, v, s) for s in SECRETS for v in range(1, 9)]
    values = {name: {p[name] for p in drawn} for name in l12.DEFAULTS}
    assert values["tokenizer"] == set(l12.TOKENIZERS) and values["trim_tied"] == {True, False}
    assert len(values["pad_multiple"]) >= 2 and len(values["seed"]) >= 12 and len(values["n_new"]) >= 6
