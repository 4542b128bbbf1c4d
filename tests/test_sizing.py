"""Sizing a design against a job's budgets: the figures are the calculators' own, the reasons name the budget."""

import dataclasses

import pytest

from embedlab.compute import training_flops
from embedlab.memory import GB, kv_cache_bytes
from embedlab.params import count_params
from embedlab.sizing import Budget, design_figures, headroom, llama_config, over_budget

# lesson 11's job and the lesson 08 team's design (256,000 tokens, d = 2048, tied)
JOB = Budget(max_params=1_500_000_000, max_serving_gb=8.0, context=8192, batch=16, max_train_flops=4e21,
             train_tokens=400_000_000_000, train_context=4096, min_vocab_size=128_000)
TEAM = llama_config(256_000, 2048, 16, 32, 8, 8192, True)


def test_team_design_figures_by_hand():
    f = design_figures(TEAM, JOB)
    assert f.params == 1_497_434_112 == count_params(TEAM).total
    assert f.non_embedding == f.params - 256_000 * 2048
    assert f.weights_gb == 2 * 1_497_434_112 / GB
    # 2 (k, v) x 16 layers x 8 kv heads x 64 dims x 2 bytes, for 16 x 8192 tokens
    assert f.kv_cache_gb == 2 * 16 * 8 * 64 * 2 * 8192 * 16 / GB == kv_cache_bytes(TEAM, 8192, 16) / GB
    assert f.serving_gb == pytest.approx(f.weights_gb + f.kv_cache_gb, rel=1e-12)
    assert f.train_flops == training_flops(TEAM, 4096).total * (400_000_000_000 // 4096)
    assert f.train_flops_6nd == 6 * 1_497_434_112 * 400_000_000_000
    assert f.train_flops > f.train_flops_6nd  # attention over the context is not in 6·N·D
    assert over_budget(TEAM, JOB) == []
    assert all(0 < used <= 1 for used in headroom(f, JOB).values())


def test_each_budget_gives_its_reason():
    untied = {**TEAM, "tie_word_embeddings": False}
    assert [r.split(":")[0] for r in over_budget(untied, JOB)] == ["parameters", "memory"]
    mha = {**TEAM, "num_key_value_heads": 32}
    reasons = over_budget(mha, JOB)
    assert reasons[1] == "memory: 3.20 GB weights + 17.18 GB KV cache = 20.38 GB > 8 GB"
    assert reasons[2].startswith("compute: ")
    long = dataclasses.replace(JOB, train_context=8192)
    assert over_budget(TEAM, long) == ["compute: 4.24e+21 FLOPs > 4e+21"]
    small_vocab = llama_config(64_000, 2560, 14, 40, 8, 10_240, True)
    assert over_budget(small_vocab, JOB) == ["vocabulary too small: V = 64,000 < 128,000"]


def test_a_config_the_calculators_cannot_count_is_a_reason_not_a_crash():
    bad = {**TEAM, "num_key_value_heads": 3}
    (reason,) = over_budget(bad, JOB)
    assert reason.startswith("not a model the calculators can count") and "num_key_value_heads=3" in reason
    assert over_budget({"model_type": "bert"}, JOB)[0].startswith("not a model")


@pytest.mark.parametrize("field, value", [("max_params", 0), ("batch", -1), ("context", 1.5),
                                          ("max_serving_gb", 0), ("weights", "fp8"), ("train_tokens", 1000)])
def test_budget_rejects_bad_fields_by_name(field, value):
    with pytest.raises(ValueError, match=field):
        dataclasses.replace(JOB, **{field: value})


def test_llama_config_is_validated():
    with pytest.raises(ValueError, match="num_key_value_heads=5"):
        llama_config(32_000, 1024, 4, 16, 5, 4096, True)
    with pytest.raises(ValueError, match="vocab_size"):
        llama_config(0, 1024, 4, 16, 4, 4096, True)


def test_a_mixture_of_experts_design_stores_every_expert_and_computes_with_the_active_ones():
    from embedlab.params import load_config
    mixtral = load_config("mixtral-8x7b")
    n = count_params(mixtral)
    f = design_figures(mixtral, JOB)
    assert f.params == n.total and f.weights_gb == 2 * n.total / GB
    assert f.train_flops_6nd == 6 * n.active * 400_000_000_000
    assert f.train_flops < 6 * n.total * 400_000_000_000 / 3  # the arithmetic follows the 12.9B, not the 46.7B
