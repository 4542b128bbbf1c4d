"""Bytes of weights, Adam training and the KV cache, pinned on hand-checked cases."""

import pytest

from embedlab.memory import (
    ADAM_RECIPES,
    GB,
    GiB,
    adam_training_memory,
    bytes_per_param,
    kv_cache_bytes,
    kv_cache_bytes_per_token,
    serving_memory,
    weight_bytes,
)
from embedlab.params import load_config

GPT2 = load_config("gpt2")
LLAMA = load_config("llama-3-8b")


def test_a_7b_model_in_each_precision():
    got = {p: weight_bytes(7_000_000_000, p) / GB for p in ("fp32", "fp16", "bf16", "int8", "int4")}
    assert got == {"fp32": 28.0, "fp16": 14.0, "bf16": 14.0, "int8": 7.0, "int4": 3.5}


def test_weights_of_a_config():
    assert weight_bytes(LLAMA, "bf16") == 2 * 8_030_261_248
    assert weight_bytes(GPT2, "fp32") == 4 * 124_439_808


def test_adam_recipes_add_up_to_the_published_rules_of_thumb():
    totals = {name: r.total for name, r in ADAM_RECIPES.items()}
    assert totals == {"fp32": 16, "mixed": 16, "mixed, fp32 gradients": 18, "mixed, fp32 copies of both": 20}
    m = adam_training_memory(LLAMA, "mixed")
    assert m.total == 16 * 8_030_261_248
    assert sum(m.parts.values()) == m.total
    assert m.parts["Adam moments (m, v)"] == 8 * 8_030_261_248
    assert "activations" in m.table()  # what the figure leaves out is said next to it


def test_kv_cache_llama_3_8b_grouped_query_saves_three_quarters():
    # 2 (k and v) x 32 layers x 8 kv heads x 128 dims x 2 bytes
    assert kv_cache_bytes_per_token(LLAMA) == 2 * 32 * 8 * 128 * 2 == 131_072
    assert kv_cache_bytes(LLAMA, 8192) == GiB  # exactly 1 GiB at 8k context
    full = {**LLAMA, "num_key_value_heads": 32}  # the same model with one kv head per query head
    assert kv_cache_bytes(full, 8192) == 4 * GiB
    assert kv_cache_bytes(LLAMA, 8192, batch=16) == 16 * GiB


def test_kv_cache_gpt2_small():
    assert kv_cache_bytes_per_token(GPT2, "fp32") == 2 * 12 * 12 * 64 * 4 == 73_728
    assert kv_cache_bytes(GPT2, 1024, batch=4, precision="fp16") == 36_864 * 1024 * 4


def test_serving_memory_adds_weights_and_cache():
    s = serving_memory(LLAMA, weights="int4", context=8192, batch=2)
    assert s["weights"] == 0.5 * 8_030_261_248
    assert s["kv_cache"] == 2 * GiB  # int4 weights keep a bf16 cache by default
    assert s["total"] == s["weights"] + s["kv_cache"]
    assert serving_memory(LLAMA, weights="int4", kv="int8")["kv_cache"] == GiB / 2


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: bytes_per_param("fp6"), "precision"),
        (lambda: weight_bytes(-5), "model"),
        (lambda: weight_bytes(7e9), "model"),
        (lambda: weight_bytes(GPT2, "int3"), "precision"),
        (lambda: adam_training_memory(GPT2, "sgd"), "recipe"),
        (lambda: kv_cache_bytes(GPT2, 0), "context"),
        (lambda: kv_cache_bytes(GPT2, 10, batch=0), "batch"),
        (lambda: kv_cache_bytes({**LLAMA, "num_key_value_heads": 5}, 10), "num_key_value_heads"),
    ],
)
def test_bad_input_names_the_field(call, field):
    with pytest.raises(ValueError, match=field):
        call()


def test_a_mixture_of_experts_holds_every_expert():
    from embedlab.params import count_params
    mixtral = load_config("mixtral-8x7b")
    n = count_params(mixtral)
    assert weight_bytes(mixtral, "bf16") == 2 * n.total == 2 * 46_702_792_704  # not 2 x the 12.9B active
    assert adam_training_memory(mixtral).total == 16 * n.total
    # its attention is Mistral's: the same 128 KiB of cache per token in bf16
    assert kv_cache_bytes_per_token(mixtral) == kv_cache_bytes_per_token(load_config("mistral-7b")) == 131_072


def test_latent_attention_caches_the_compressed_vector():
    # DeepSeek-V3: 61 layers x (512 latent + 64 rotary) numbers x 2 bytes, against 2 x 128 heads x 192 if expanded
    v3 = load_config("deepseek-v3")
    assert kv_cache_bytes_per_token(v3) == 61 * (512 + 64) * 2 == 70_272
    assert kv_cache_bytes_per_token(v3) < 61 * 2 * 128 * 192 * 2 / 50
