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
    # Qwen2.5-7B: 152,064 rows (a multiple of 256) for 151,665 tokens; 143 new ones leave 256 rows of
    # padding, a number question 5's text states
    assert any("text states" in x for x in l12.problems(dict(p, vocab_model="qwen2.5-7b", n_new=143,
                                                             pad_multiple=256)))


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


def test_questions_1_and_2_count_tokens_not_rows_in_a_padded_table(capsys):
    """Pythia's 50,277 tokens sit in 50,304 rows (embedlab.params.n_tokens): new ids start at 50,277,
    so a few new tokens fill spare rows (no parameter added) and every row past the tokens is padding;
    a thousand outgrow the table. The solution computes the same, and the old row-based formulas get
    a hint about the spare rows."""
    from embedlab.grading.exercise import evaluate

    p = dict(parameters_of(LESSON, 1, SECRETS[0]), vocab_model="pythia-70m", n_new=4, pad_multiple=64)
    assert l12.problems(p) == [] or all("book" in x for x in l12.problems(p))
    a = l12.answers(p)
    assert a["added_params"] == 0 and a["padding_rows"] == 50_304 - (50_277 + 4)
    assert_computes(LESSON, p, {k: a[k] for k in ("added_params", "padding_rows")})
    qs = {q.name: q for q in l12.questions(p)}
    old_added = evaluate(qs["added_params"], 4 * 512 * 2, 0)     # every new token given two new rows
    old_padding = evaluate(qs["padding_rows"], 50_368 - 50_308, a["padding_rows"], source=(
        "padding_rows = padded_size(V + n_new, pad_multiple) - (V + n_new)"))
    assert "fit in the rows the table already has" in old_added.detail
    assert "more rows than its tokenizer has tokens" in old_padding.detail
    big = dict(p, vocab_model="pythia-12b", n_new=1000, pad_multiple=128)  # 51,277 > 50,688 rows
    b = l12.answers(big)
    assert b["added_params"] == (50_277 + 1000 - 50_688) * 5120 * 2
    assert b["padding_rows"] == 51_328 - 51_277
    partly = evaluate({q.name: q for q in l12.questions(big)}["added_params"], 1000 * 5120 * 2, b["added_params"])
    assert "n_tok + n_new − V" in partly.detail
    capsys.readouterr()


def test_the_pool_holds_only_models_with_a_cited_tokenizer_size():
    from embedlab.params import available_models, n_tokens

    for model in l12.VOCAB_MODELS:
        assert n_tokens(model) <= l12.shape_of(dict(l12.DEFAULTS, vocab_model=model))[0]
    left_out = set(available_models()) - set(l12.VOCAB_MODELS) - {"gpt2"}
    assert left_out and all(not l12._cited(m) for m in left_out)
    assert {"pythia-70m", "qwen2.5-7b", "phi-2", "opt-350m", "qwen3-8b"} <= set(l12.VOCAB_MODELS)
