"""Lesson 07 in class mode: its variant space draws usable variants, every answer but the
function's moves away from the book's, and the solution computes what the module expects.

No kernel: the solution's code cells run in this process (its check cells left out).
"""

import numpy as np
import pytest

from embedlab.grading.kinds import Function
from embedlab.grading.lessons import questions_for
from embedlab.grading.questions import l07
from embedlab.grading.variants import parameters_of, read_parameters, render_parameters
from embedlab.params import load_config

from solution_runner import assert_computes, solution_parameters

LESSON = "07-memory"
SECRETS = [b"test-secret-for-the-class-mode-tests", b"a-second-instructor-secret!", b"0123456789abcdef"]
POOLS = {"weights_model": l07.WEIGHTS_MODELS, "adam_model": l07.ADAM_MODELS, "cache_model": l07.CACHE_MODELS,
         "gqa_model": l07.GQA_MODELS, "serve_model": l07.SERVE_MODELS}


def differs(a, b):
    return not (np.shape(a) == np.shape(b) and np.allclose(a, b, rtol=1e-9, atol=0))


@pytest.mark.parametrize("secret", SECRETS)
def test_every_class_variant_is_usable_and_differs_from_the_book(secret):
    book = l07.answers(l07.DEFAULTS)
    varying = [q.name for q in questions_for(LESSON) if q.name not in l07.SPACE.fixed]
    seen = {name: set() for name in POOLS}
    for variant in range(1, 9):
        p = parameters_of(LESSON, variant, secret)
        assert p == parameters_of(LESSON, variant, secret)  # reproducible
        assert l07.problems(p) == []
        mine = l07.answers(p)
        assert sorted(mine) == sorted(varying)
        for name in varying:
            assert differs(mine[name], book[name]), (variant, name)
        for name, pool in POOLS.items():
            assert p[name] in pool and p[name] != l07.DEFAULTS[name]
            seen[name].add(p[name])
        assert all(len(line) <= 88 for line in render_parameters(p).splitlines())
        assert read_parameters(render_parameters(p)) == p
    for name, pool in POOLS.items():  # picked without repeats, up to the pool's size
        assert len(seen[name]) == min(8, len(pool)), name
    assert set(l07.SPACE.fixed) == {q.name for q in questions_for(LESSON) if isinstance(q, Function)}


def test_every_model_of_every_pool_is_drawable():
    """pick() gives variant k the k-th model of a shuffled pool: a model no draw of the rest can
    make usable would make parameters_of fail for that variant, so every one is reached once."""
    for name, pool in POOLS.items():
        got = {parameters_of(LESSON, v, SECRETS[0])[name] for v in range(1, len(pool) + 1)}
        assert got == set(pool), name


def test_problems_rejects_the_book_and_degenerate_variants():
    assert any("equals the book's" in p for p in l07.problems(l07.DEFAULTS))
    p = dict(parameters_of(LESSON, 1, SECRETS[0]), serve_model="llama-3.2-3b", gpu_gb=80, serve_context=8192)
    assert l07.problems(p) == []
    # Qwen3-0.6B in fp8 caches exactly what Qwen2.5-7B does in bf16
    assert any("kv_bytes_per_token equals" in x for x in l07.problems(dict(p, cache_model="qwen3-0.6b",
                                                                          cache_precision="fp8")))
    # h = 2 h_kv: "the cache with grouping" would be the saving itself
    assert any("half the full one" in x for x in l07.problems(dict(p, gqa_model="qwen3-0.6b")))
    assert any("over the model's maximum" in x for x in l07.problems(dict(p, gqa_model="smollm2-135m",
                                                                         gqa_context=131_072)))
    # Gemma-2B: 8 query heads per kv head, so caching them all looks like bits for bytes
    assert any("does not get its hint" in x for x in l07.problems(dict(p, cache_model="gemma-2b")))
    assert any("max_batch is" in x for x in l07.problems(dict(p, serve_model="mixtral-8x7b", gpu_gb=80,
                                                              weights_precision="fp32")))


@pytest.mark.parametrize("variant", [0, 1, 2, 3])
def test_the_solution_computes_the_modules_answers(variant, capsys):
    p = parameters_of(LESSON, variant, SECRETS[0])
    assert_computes(LESSON, p, l07.answers(p))
    assert all(len(line) <= 88 for line in capsys.readouterr().out.splitlines())


def test_the_solutions_parameters_cell_is_the_defaults():
    assert solution_parameters(LESSON) == l07.DEFAULTS
    for name in ("cache_model", "gqa_model", "serve_model"):
        for model in POOLS[name]:
            assert "num_key_value_heads" in load_config(model)  # the solution reads it from the config


def test_the_draws_cover_the_pools():
    """problems() rejects a variant whose slip its hint does not name: a hint broken for most
    values (one quoting a book value, say) would quietly shrink the space to the book's values."""
    drawn = [parameters_of(LESSON, v, s) for s in SECRETS for v in range(1, 9)]
    values = {name: {p[name] for p in drawn} for name in l07.DEFAULTS}
    assert values["cache_precision"] == set(l07.CACHE_PRECISIONS)
    assert values["weights_precision"] == set(l07.WEIGHT_PRECISIONS)
    assert len(values["gpu_gb"]) >= 5 and len(values["gqa_context"]) >= 4 and len(values["serve_context"]) >= 4
