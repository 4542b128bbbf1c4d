"""embedlab.params: exact counts of real models, the estimate, and every ValueError."""

import math
import re

import pytest

from embedlab import available_models, count_params, estimate_params, load_config, model_shape
from embedlab.params import FAMILIES, FAMILY_TABLE, ParamCount, checkpoint_extras, config_key, family, positive_int


def count(name: str) -> ParamCount:
    return count_params(load_config(name))


# -- exact totals, published or counted by instantiating the real architecture ---------------

# COURSE.md "Verified numbers" (counted by instantiating the Hugging Face models)
def test_gpt2_small_exact():
    c = count("gpt2")
    assert c.total == 124_439_808
    assert c.token_embedding == 50_257 * 768 == 38_597_376
    assert c.position_embedding == 1024 * 768 == 786_432
    assert c.lm_head == 0 and c.tied
    assert c.block.total == 7_087_872
    assert c.final_norm == 1_536
    assert c.non_embedding == 124_439_808 - 38_597_376 - 786_432


def test_llama_3_8b_exact():
    c = count("llama-3-8b")
    assert c.total == 8_030_261_248
    assert c.block.attention == 41_943_040
    assert c.block.mlp == 176_160_768
    assert c.block.norms == 8_192
    assert c.block.total == 218_112_000
    assert c.token_embedding == c.lm_head == 525_336_576
    assert not c.tied


def test_estimate_gpt2_small_and_its_gap():
    est = estimate_params(50_257, 768, 12)
    assert est == 123_532_032
    c = count("gpt2")
    # the gap: position table, 12 x (biases + LayerNorms) of a block, final LayerNorm
    assert c.total - est == 907_776 == 786_432 + 12 * 9_984 + 1_536


def test_shape_of_llama_3_8b():
    s = model_shape(load_config("llama-3-8b"))
    assert (s.vocab_size, s.hidden_size, s.num_layers, s.num_heads, s.num_kv_heads, s.head_dim,
            s.intermediate_size, s.tied, s.learned_positions) == (128_256, 4096, 32, 32, 8, 128, 14_336, False, 0)


def test_shape_of_gpt2():
    s = model_shape(load_config("gpt2"))
    assert (s.model_type, s.intermediate_size, s.head_dim, s.learned_positions, s.tied) == ("gpt2", 3072, 64, 1024, True)


def test_available_models_and_sources():
    names = available_models()
    assert {"gpt2", "llama-3-8b"} <= set(names)
    for name in names:
        config = load_config(name)
        assert config["_source"].strip(), name
        assert config["model_type"] in FAMILIES, name
        c = count_params(config)
        assert c.total == (c.token_embedding + c.position_embedding + c.lm_head + c.embedding_projection
                           + sum(n * b.total for n, b in c.groups) + c.final_norm)
        assert c.num_blocks == sum(n for n, _ in c.groups) == model_shape(config).num_layers


def test_load_config_returns_a_fresh_copy():
    a = load_config("gpt2")
    a["n_layer"] = 1
    assert load_config("gpt2")["n_layer"] == 12


def test_table_lists_every_part():
    text = count("llama-3-8b").table()
    for figure in ("525,336,576", "218,112,000", "41,943,040", "176,160,768", "8,192", "8,030,261,248"):
        assert figure in text
    html = count("gpt2")._repr_html_()
    assert "124,439,808" in html and html.startswith("<table>")


# Exact totals for every shipped model. Each equals the count of the Hugging Face model
# instantiated from the same config (torch 2.13 + transformers 5.24, meta device:
# tools/verify_params_against_transformers.py).
# Published: Pythia's model card lists exact totals and non-embedding counts (Biderman et al. 2023);
# COURSE.md's verified table has GPT-2 small/XL and the Llamas.
EXACT = {
    "gpt2": 124_439_808,
    "gpt2-medium": 354_823_168,
    "gpt2-large": 774_030_080,
    "gpt2-xl": 1_557_611_200,
    "llama-2-7b": 6_738_415_616,
    "llama-3-8b": 8_030_261_248,
    "llama-3.2-1b": 1_235_814_400,
    "llama-3.2-3b": 3_212_749_824,
    "smollm2-135m": 134_515_008,
    "mistral-7b": 7_241_732_096,
    "qwen2.5-0.5b": 494_032_768,
    "qwen2.5-7b": 7_615_616_512,
    "gemma-2b": 2_506_172_416,
    "gemma-7b": 8_537_680_896,
    "pythia-70m": 70_426_624,
    "pythia-160m": 162_322_944,
    "pythia-410m": 405_334_016,
    "pythia-1b": 1_011_781_632,
    "pythia-1.4b": 1_414_647_808,
    "pythia-2.8b": 2_775_208_960,
    "pythia-6.9b": 6_857_302_016,
    "pythia-12b": 11_846_072_320,
    "opt-125m": 125_239_296,
    "opt-350m": 331_196_416,
    "opt-1.3b": 1_315_758_080,
    "phi-1.5": 1_418_270_720,
    "phi-2": 2_779_683_840,
    # issue 15's families, counted with the same script (38 shipped configs and 340 random ones agree)
    "gemma-2-2b": 2_614_341_888,
    "gemma-2-9b": 9_241_705_984,
    "gemma-3-1b": 999_885_952,
    "qwen3-0.6b": 596_049_920,
    "qwen3-8b": 8_190_735_360,
    "qwen3-30b-a3b": 30_532_122_624,
    "olmo-2-1124-7b": 7_298_617_344,
    "phi-3-mini-4k": 3_821_079_552,
    "mixtral-8x7b": 46_702_792_704,
    "deepseek-v2-lite": 15_706_484_224,
    "deepseek-v3": 671_026_404_352,
}

# Pythia model card, "Non-Embedding Params" column
PYTHIA_NON_EMBEDDING = {
    "pythia-70m": 18_915_328,
    "pythia-160m": 85_056_000,
    "pythia-410m": 302_311_424,
    "pythia-1b": 805_736_448,
    "pythia-1.4b": 1_208_602_624,
    "pythia-2.8b": 2_517_652_480,
    "pythia-6.9b": 6_444_163_072,
    "pythia-12b": 11_327_027_200,
}


@pytest.mark.parametrize("name", sorted(EXACT))
def test_exact_total(name):
    assert count(name).total == EXACT[name]


def test_every_shipped_model_has_an_exact_total_and_every_family_is_shipped():
    assert set(available_models()) == set(EXACT)
    assert {load_config(n)["model_type"] for n in EXACT} == set(FAMILIES)


@pytest.mark.parametrize("name", sorted(PYTHIA_NON_EMBEDDING))
def test_pythia_non_embedding(name):
    assert count(name).non_embedding == PYTHIA_NON_EMBEDDING[name]


def test_qwen_card_rounding():
    # Qwen2.5-0.5B card: "0.49B (0.36B non-embedding)"
    c = count("qwen2.5-0.5b")
    assert round(c.total / 1e9, 2) == 0.49 and round(c.non_embedding / 1e9, 2) == 0.36


def test_llama_3_2_1b_is_tied():
    c = count("llama-3.2-1b")
    assert c.tied and c.lm_head == 0 and c.token_embedding == 262_668_288


def test_qwen2_biases_on_qkv_only():
    c = count("qwen2.5-0.5b")
    d, q, kv = 896, 14 * 64, 2 * 64
    assert c.block.attention == d * q + q + 2 * (d * kv + kv) + q * d


def test_opt_position_table_has_two_extra_rows():
    c = count("opt-125m")
    assert c.position_embedding == (2048 + 2) * 768
    assert model_shape(load_config("opt-125m")).learned_positions == 2050


def test_opt_350m_projects_embeddings_and_has_no_final_norm():
    c = count("opt-350m")
    assert c.token_embedding == 50_272 * 512
    assert c.embedding_projection == 2 * 512 * 1024
    assert c.final_norm == 0


def test_phi_head_has_a_bias_even_when_tied():
    config = load_config("phi-2")
    assert count_params(config).lm_head == 51_200 * 2560 + 51_200
    config["tie_word_embeddings"] = True
    assert count_params(config).lm_head == 51_200


def test_gemma_heads_need_not_divide_width():
    s = model_shape(load_config("gemma-7b"))
    assert (s.num_heads, s.head_dim, s.hidden_size) == (16, 256, 3072)


def test_untying_gpt2_adds_a_second_table():
    config = load_config("gpt2")
    config["tie_word_embeddings"] = False
    assert count_params(config).total == 124_439_808 + 38_597_376 == 163_037_184


# -- every ValueError names the field and the value -----------------------------------------


def _raises(config, *needles):
    with pytest.raises(ValueError) as info:
        count_params(config)
    message = str(info.value)
    for needle in needles:
        assert needle in message, message


def test_unknown_model_type():
    config = load_config("gpt2")
    config["model_type"] = "bert"
    _raises(config, "model_type", "'bert'")


def test_missing_model_type():
    config = load_config("gpt2")
    del config["model_type"]
    _raises(config, "model_type", "None")


@pytest.mark.parametrize("field", ["vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size"])
def test_missing_field(field):
    config = load_config("llama-3-8b")
    del config[field]
    _raises(config, field)


@pytest.mark.parametrize("field", ["vocab_size", "n_embd", "n_layer", "n_head", "n_positions"])
def test_missing_field_gpt2_spelling(field):
    config = load_config("gpt2")
    del config[field]
    _raises(config, field)


@pytest.mark.parametrize("value", [-3, 0, 768.5, 768.0, "768", True])
def test_bad_size(value):
    config = load_config("gpt2")
    config["n_embd"] = value
    _raises(config, "n_embd", f"n_embd={value!r}")


@pytest.mark.parametrize("field,value", [("vocab_size", -1), ("num_hidden_layers", 2.5), ("num_key_value_heads", 0),
                                         ("intermediate_size", -14_336), ("num_attention_heads", None)])
def test_bad_size_llama(field, value):
    config = load_config("llama-3-8b")
    config[field] = value
    if value is None:  # null in config.json is a missing field
        _raises(config, field, "missing")
    else:
        _raises(config, field, f"{field}={value!r}")


def test_heads_must_divide_width():
    config = load_config("gpt2")
    config["n_head"] = 7
    _raises(config, "num_attention_heads=7", "hidden_size=768")


def test_kv_heads_must_divide_heads():
    config = load_config("llama-3-8b")
    config["num_key_value_heads"] = 5
    _raises(config, "num_key_value_heads=5", "num_attention_heads=32")


def test_tie_flag_must_be_boolean():
    config = load_config("gpt2")
    config["tie_word_embeddings"] = "yes"
    _raises(config, "tie_word_embeddings", "'yes'")


def test_not_a_dict():
    with pytest.raises(ValueError, match="config"):
        count_params("gpt2")


@pytest.mark.parametrize("args,field", [((0, 768, 12), "vocab_size=0"), ((50_257, -768, 12), "d=-768"),
                                        ((50_257, 768, 1.5), "num_layers=1.5")])
def test_estimate_rejects_bad_sizes(args, field):
    with pytest.raises(ValueError, match=re.escape(field)):
        estimate_params(*args)


@pytest.mark.parametrize("name", ["gpt-5", "../data/gpt2", None, ["gpt2"]])
def test_unknown_shipped_config(name):
    with pytest.raises(ValueError, match=re.escape(f"name={name!r}")):
        load_config(name)


def test_gemma_needs_head_dim():
    config = load_config("gemma-2b")
    del config["head_dim"]
    _raises(config, "head_dim")


def test_no_grouped_query_attention_in_gpt2():
    config = load_config("gpt2")
    config["num_key_value_heads"] = 4
    _raises(config, "num_key_value_heads=4")


def test_total_and_non_embedding_are_fields():
    import dataclasses
    data = dataclasses.asdict(count("gpt2"))
    assert data["total"] == 124_439_808 and data["non_embedding"] == 85_056_000
    assert data["block"]["total"] == 7_087_872


# -- issue 15: today's families, mixture-of-experts, total against active ---------------------

# Published cross-checks: OLMo-2-1124-7B's Hugging Face page lists 7,298,617,344 parameters;
# Gemma 3 1B is announced as 1B (999,885,952 here). Active counts, rounded as published: Mistral AI (2023),
# "Mixtral of experts": 46.7B total, 12.9B used per token; Qwen3-30B-A3B model card (Hugging Face, 2025):
# 30.5B total, 3.3B activated. DeepSeek-V3 has its own test below (two versions of its file).
@pytest.mark.parametrize("name,total_b,active_b", [("mixtral-8x7b", 46.7, 12.9), ("qwen3-30b-a3b", 30.5, None)])
def test_active_matches_the_model_cards(name, total_b, active_b):
    c = count(name)
    assert round(c.total / 1e9, 1) == total_b
    if active_b is not None:  # Qwen's 3.3B is not a rounding: next test
        assert round(c.active / 1e9, 1) == active_b


def test_qwen3_30b_a3b_card_needs_truncation_or_no_routers():
    """The card's "3.3B activated" is not 3.35B rounded (that is 3.4): it is 3.35B cut to one decimal, or
    the count without the 48 routers (3.340B). The card does not say which, so the lesson says both."""
    c = count("qwen3-30b-a3b")
    routers = 48 * 128 * 2048
    assert c.active == 3_353_032_704 and round(c.active / 1e9, 1) == 3.4 != 3.3
    assert math.floor(c.active / 1e8) / 10 == 3.3
    assert c.active - routers == 3_340_449_792 and round((c.active - routers) / 1e9, 1) == 3.3


# DeepSeek-V3's README_WEIGHTS.md in two versions (quoted by version, never as "the card"):
# * as released in deepseek-ai/DeepSeek-V3 (December 2024): main model "671B" total, "36.7B" activated
#   "(including 0.9B for Embedding and 0.9B for the output Head)"; MTP module "11.5B unique parameters,
#   excluding the shared 0.9B Embedding and 0.9B output Head", "2.4B" activated "(including the shared 0.9B
#   Embedding and 0.9B output Head)";
# * a later revision (the copy in tenstorrent/tt-metal, models/demos/deepseek_v3/reference/): "36.6B
#   (including 0.9B for the output Head)"; MTP "1.5B (including 0.9B for the output Head)".
def test_deepseek_v3_readme_weights_both_versions_against_the_exact_counts():
    v3 = count("deepseek-v3")
    assert round(v3.total / 1e9) == 671
    assert round(v3.token_embedding / 1e9, 1) == round(v3.lm_head / 1e9, 1) == 0.9
    # the later revision's 36.6B "including the output Head" is the active count without the input table
    assert v3.active_without_embedding == 36_625_603_584 and round(v3.active_without_embedding / 1e9, 1) == 36.6
    # the released version's 36.7B "including" both tables matches neither count, rounded or cut
    assert v3.active == 37_552_282_624
    for exact in (v3.active, v3.active_without_embedding):
        assert 36.7 not in (round(exact / 1e9, 1), math.floor(exact / 1e8) / 10)
    # the MTP module: one more expert block, two norms, a 2d -> d projection (eh_proj) and a norm
    d = 7168
    mtp = checkpoint_extras(load_config("deepseek-v3"))["multi-token prediction module"]
    skipped = (256 - 8) * 3 * d * 2048                       # the routed experts a token does not use
    eh_proj = 2 * d * d
    used = mtp - skipped                                     # without the shared tables
    assert (mtp, used) == (11_610_067_968, 688_100_352)
    assert round((mtp - eh_proj) / 1e9, 1) == 11.5 != round(mtp / 1e9, 1)   # both versions' 11.5B: no eh_proj
    # released: 2.4B with both tables; later: 1.5B with the head. Exact: 2.54B and 1.61B; both versions'
    # figures come out only if eh_proj is left out (neither file says so).
    assert used + v3.token_embedding + v3.lm_head == 2_541_458_432 and used + v3.lm_head == 1_614_779_392
    assert round((used + v3.token_embedding + v3.lm_head) / 1e9, 1) == 2.5
    assert round((used - eh_proj + v3.token_embedding + v3.lm_head) / 1e9, 1) == 2.4
    assert round((used + v3.lm_head) / 1e9, 1) == 1.6
    assert round((used - eh_proj + v3.lm_head) / 1e9, 1) == 1.5


def test_active_is_total_minus_the_experts_a_token_skips():
    # Mixtral: 32 layers of 8 experts (gate, up, down of 4,096 x 14,336), 2 used per token
    c = count("mixtral-8x7b")
    assert c.total - c.active == 32 * (8 - 2) * 3 * 4096 * 14_336
    assert c.active == 12_879_925_248
    # DeepSeek-V3: 58 expert layers of 256 experts of width 2,048, 8 used
    v3 = count("deepseek-v3")
    assert v3.total - v3.active == 58 * (256 - 8) * 3 * 7168 * 2048
    assert v3.active_without_embedding == v3.active - 129_280 * 7168
    # Qwen3-30B-A3B: 48 layers of 128 experts of width 768, 8 used
    q = count("qwen3-30b-a3b")
    assert q.total - q.active == 48 * 120 * 3 * 2048 * 768


@pytest.mark.parametrize("name", [n for n in EXACT if load_config(n)["model_type"] not in
                                  ("mixtral", "qwen3_moe", "deepseek_v2", "deepseek_v3")])
def test_dense_models_use_every_parameter(name):
    c = count(name)
    assert c.active == c.total and not c.is_moe


def test_deepseek_first_layers_are_dense():
    c = count("deepseek-v3")
    (n_dense, dense), (n_moe, moe) = c.groups
    assert (n_dense, n_moe) == (3, 58) and dense.experts == 0 and moe.experts == 256
    assert dense.mlp == 3 * 7168 * 18_432
    # router 256 x 7,168, 256 experts and one shared expert of 3 x 7,168 x 2,048 each
    assert moe.mlp == 256 * 7168 + 257 * 3 * 7168 * 2048
    assert c.block is moe  # the block most layers have
    lite = count("deepseek-v2-lite")
    assert [n for n, _ in lite.groups] == [1, 26]


def test_multi_head_latent_attention_with_and_without_a_query_low_rank():
    # DeepSeek-V3: q 7,168 -> 1,536 -> 128 x 192; kv 7,168 -> 512 + 64, 512 -> 128 x (128 + 128); out 128 x 128 -> 7,168
    v3 = count("deepseek-v3").block
    assert v3.attention == (7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 128 * 128 * 7168)
    assert v3.norms == 2 * 7168 + 1536 + 512  # two block norms and the two bottlenecks' norms
    # DeepSeek-V2-Lite: no query low-rank, q projected directly 2,048 -> 16 x 192
    lite = count("deepseek-v2-lite").block
    assert lite.attention == 2048 * 16 * 192 + 2048 * 576 + 512 * 16 * 256 + 16 * 128 * 2048
    assert lite.norms == 2 * 2048 + 512


def test_quirks_of_the_new_dense_families():
    # Gemma 2: four norms per block, head_dim 256 with 8 heads on d = 2,304
    g2 = count("gemma-2-2b")
    assert g2.block.norms == 4 * 2304 and g2.tied
    assert model_shape(load_config("gemma-2-2b")).head_dim == 256 != 2304 // 8
    # Gemma 3 and Qwen3: a head_dim-wide norm on queries and one on keys
    assert count("gemma-3-1b").block.norms == 4 * 1152 + 2 * 256
    assert count("qwen3-0.6b").block.norms == 2 * 1024 + 2 * 128
    # OLMo 2: norms after attention and MLP only, q and k norms over all their channels
    assert count("olmo-2-1124-7b").block.norms == 2 * 4096 + (32 + 32) * 128
    # Phi-3: fused q,k,v and gate,up: the same matrices as apart; vocabulary padded to a multiple of 64
    p3 = count("phi-3-mini-4k")
    assert p3.block.attention == 4 * 3072 * 3072 and p3.block.mlp == 3 * 3072 * 8192
    assert load_config("phi-3-mini-4k")["vocab_size"] % 64 == 0


def test_checkpoint_extras_of_deepseek_v3():
    extras = checkpoint_extras(load_config("deepseek-v3"))
    d, moe = 7168, count("deepseek-v3").block
    assert extras["multi-token prediction module"] == moe.total + 3 * d + 2 * d * d == 11_610_067_968
    # one bias per expert per expert layer: 58 in the main model and the MTP block's own router
    assert extras["router score-correction biases (buffers)"] == (58 + 1) * 256 == 15_104
    no_mtp = load_config("deepseek-v3") | {"num_nextn_predict_layers": 0}
    assert "multi-token prediction module" not in checkpoint_extras(no_mtp)
    assert checkpoint_extras(no_mtp)["router score-correction biases (buffers)"] == 58 * 256 == 14_848
    assert checkpoint_extras(load_config("mixtral-8x7b")) == {}


def test_table_shows_active_for_moe_only():
    assert "active (used per token)" in count("mixtral-8x7b").table()
    assert "12,879,925,248" in count("mixtral-8x7b").table()
    assert "active" not in count("llama-3-8b").table()
    assert max(len(line) for line in count("deepseek-v3").table().splitlines()) <= 88


def test_a_moe_tables_mlp_row_names_all_it_holds():
    """The MLP row of a block with experts holds the router (and DeepSeek's shared MLP) besides the
    experts: its label says so, so the row is not read as n_experts x one expert (lesson 04, Mixtral)."""
    for name in ("mixtral-8x7b", "qwen3-30b-a3b", "deepseek-v2-lite", "deepseek-v3"):
        c = count(name)
        s = model_shape(load_config(name))
        _, block = next(g for g in c.groups if g[1].experts)
        one = 3 * s.hidden_size * s.moe.expert_intermediate_size
        router = s.hidden_size * s.moe.num_experts
        shared = block.mlp - router - s.moe.num_experts * one
        row = next(line for line in c.table().splitlines() if line.startswith("  MLP ("))
        assert f"({s.moe.num_experts} experts" in row and "+ router)" in row, row
        assert ("+ shared" in row) == (shared > 0), (name, shared, row)
        assert f"{block.mlp:,}" in row


def test_the_family_table_is_the_one_source():
    assert FAMILIES == tuple(FAMILY_TABLE)
    for name, fam in FAMILY_TABLE.items():
        assert fam.model_type == name and fam.attention in ("mha", "gqa", "mla")
        assert fam.norm in ("layernorm", "rmsnorm") and fam.head_dim in ("d/h", "config", "config or d/h", "mla")
    assert family("mixtral").key("num_experts") == ("num_local_experts",)
    assert config_key(load_config("gpt2"), "hidden_size") == "n_embd"
    assert config_key(load_config("qwen3-30b-a3b"), "expert_intermediate_size") == "moe_intermediate_size"
    with pytest.raises(ValueError, match="model_type='bert'"):
        family("bert")


@pytest.mark.parametrize("value", [0, -1, 2.0, True, "3"])
def test_positive_int_names_the_field(value):
    with pytest.raises(ValueError, match=re.escape(f"n_layer={value!r}")):
        positive_int("n_layer", value)


@pytest.mark.parametrize("name,field,value,needles", [
    ("mixtral-8x7b", "num_experts_per_tok", 9, ("num_experts_per_tok=9", "num_local_experts=8")),
    ("qwen3-30b-a3b", "num_experts_per_tok", 129, ("num_experts_per_tok=129", "num_experts=128")),
    ("deepseek-v3", "num_experts_per_tok", 257, ("num_experts_per_tok=257", "n_routed_experts=256")),
    ("mixtral-8x7b", "num_local_experts", 0, ("num_local_experts=0",)),
    ("deepseek-v3", "n_routed_experts", 0, ("n_routed_experts=0",)),
    ("qwen3-30b-a3b", "decoder_sparse_step", 49, ("decoder_sparse_step=49", "num_hidden_layers=48")),
    ("qwen3-30b-a3b", "mlp_only_layers", list(range(48)), ("mlp_only_layers=", "num_hidden_layers=48")),
    ("deepseek-v3", "first_k_dense_replace", 61, ("first_k_dense_replace=61", "num_hidden_layers=61")),
    ("deepseek-v3", "moe_layer_freq", 0, ("moe_layer_freq=0",)),
    ("mixtral-8x7b", "num_experts_per_tok", 1.5, ("num_experts_per_tok=1.5",)),
    ("phi-3-mini-4k", "num_attention_heads", 7, ("num_attention_heads=7", "hidden_size=3072")),
    ("gpt2", "head_dim", 32, ("head_dim=32", "64")),
    ("qwen3-8b", "head_dim", 0, ("head_dim=0",)),
    ("deepseek-v3", "kv_lora_rank", None, ("kv_lora_rank",)),
])
def test_bad_moe_and_head_dim_configs(name, field, value, needles):
    config = load_config(name)
    config[field] = value
    _raises(config, *needles)


def test_estimate_with_experts():
    # Mixtral's sizes: the rule counts 8 MLPs per layer in storage, 2 in use
    total = estimate_params(32_000, 4096, 32, num_experts=8, experts_per_token=2)
    active = estimate_params(32_000, 4096, 32, num_experts=8, experts_per_token=2, active=True)
    assert total == 32_000 * 4096 + 32 * (4 + 8 * 8) * 4096 ** 2
    assert active == 32_000 * 4096 + 32 * (4 + 8 * 2) * 4096 ** 2
    assert estimate_params(50_257, 768, 12) == estimate_params(50_257, 768, 12, active=True) == 123_532_032
    with pytest.raises(ValueError, match="experts_per_token=3 is larger than num_experts=2"):
        estimate_params(100, 8, 1, num_experts=2, experts_per_token=3)
    with pytest.raises(ValueError, match="num_experts=0"):
        estimate_params(100, 8, 1, num_experts=0)


# The Qwen3 model cards give total and non-embedding counts; the DeepSeek-V2-Lite model card (Hugging Face,
# deepseek-ai/DeepSeek-V2-Lite) 15.7B total, 2.4B activated, which fits the active count without the input
# table, cut to one decimal (the card says neither). Gemma-2-9B's Hugging Face page: 9.24B.
@pytest.mark.parametrize("name,total_b,non_embedding_b", [("qwen3-0.6b", 0.6, 0.44), ("qwen3-8b", 8.2, 6.95),
                                                          ("qwen3-30b-a3b", 30.5, 29.9)])
def test_qwen3_cards(name, total_b, non_embedding_b):
    c = count(name)
    assert round(c.total / 1e9, 1) == total_b
    assert round(c.non_embedding / 1e9, len(str(non_embedding_b).split(".")[1])) == non_embedding_b


def test_deepseek_v2_lite_card_and_gemma_2_9b():
    lite = count("deepseek-v2-lite")
    assert round(lite.total / 1e9, 1) == 15.7
    assert math.floor(lite.active_without_embedding / 1e8) / 10 == 2.4  # 2,451,435,008, cut
    assert round(lite.active / 1e9, 1) != 2.4 != round(lite.active_without_embedding / 1e9, 1)
    assert round(count("gemma-2-9b").total / 1e7) / 100 == 9.24


def test_model_shape_refuses_more_layers_than_any_model_has():
    """The grader counts learners' designs (lesson 11) in its own process: a config of 10**29 layers must
    be refused, not walked layer by layer (that never finished, and 3·10**7 Mixtral layers held 2.3 GB)."""
    from embedlab.params import MAX_LAYERS

    llama = load_config("llama-3.2-1b")
    for layers in (MAX_LAYERS + 1, 10**29):
        with pytest.raises(ValueError, match=rf"num_hidden_layers={layers} is more layers than any model has"):
            model_shape(dict(llama, num_hidden_layers=layers))
    qwen = load_config("qwen3-30b-a3b")  # its expert layers are walked one by one, skipping mlp_only_layers
    shape = model_shape(dict(qwen, num_hidden_layers=MAX_LAYERS, mlp_only_layers=list(range(1000))))
    assert len(shape.moe.moe_layers) == MAX_LAYERS - 1000


def test_which_n_goes_into_2n():
    """Lesson 06's box: of the five Ns, 2·N matches the matmul FLOPs per token only with what a token
    multiplies: active without the input table when untied (Mixtral), active when tied (Llama 3.2 1B)."""
    from embedlab.compute import token_costs

    for name, right, wrong in (("mixtral-8x7b", "active_without_embedding", "active"),
                               ("llama-3.2-1b", "active", "active_without_embedding")):
        config = load_config(name)
        n, c = count_params(config), token_costs(config)
        flops = c.input + c.blocks + c.head
        assert abs(2 * getattr(n, right) / flops - 1) < 0.001 < abs(2 * getattr(n, wrong) / flops - 1)
    n = count("mixtral-8x7b")
    assert (n.total, n.non_embedding, n.total - n.token_embedding, n.active, n.active_without_embedding) == (
        46_702_792_704, 46_440_648_704, 46_571_720_704, 12_879_925_248, 12_748_853_248)


def test_tokenizer_sizes_are_cited_and_fit_their_tables():
    """n_tokens: len(tokenizer) of a shipped model, each count with its source (which states it),
    never more than the table's rows; the padded tables are the ones lesson 12's questions name."""
    import json

    from embedlab import load_tokenizer, n_tokens
    from embedlab.params import TOKENIZER_SIZES, token_source

    data = json.loads(TOKENIZER_SIZES.read_text())
    assert set(data["tokens"]) <= set(available_models())
    for name in data["tokens"]:
        V, T = model_shape(load_config(name)).vocab_size, n_tokens(name)
        assert 0 < T <= V, name
        assert f"{T:,}" in token_source(name), name  # the source states the count
        assert (T == V) == (data["tokens"][name][1] in ("filled", "tiktoken")), name
    padded = {name: model_shape(load_config(name)).vocab_size - n_tokens(name) for name in data["tokens"]
              if n_tokens(name) < model_shape(load_config(name)).vocab_size}
    assert padded["pythia-70m"] == 50_304 - 50_277 and padded["pythia-12b"] == 50_688 - 50_277
    assert padded["qwen2.5-0.5b"] == 151_936 - 151_665 and padded["qwen2.5-7b"] == 152_064 - 151_665
    assert padded["phi-2"] == 51_200 - 50_295 and padded["opt-350m"] == 50_272 - 50_265
    assert padded["phi-3-mini-4k"] == 32_064 - 32_011 and padded["qwen3-8b"] == 151_936 - 151_669
    assert n_tokens("gpt2") == load_tokenizer("gpt2").n_vocab  # the real tokenizer the course ships
    lesson_04 = __import__("pathlib").Path(__file__).parent.parent / "notebooks" / "04-modern-blocks.ipynb"
    assert "tokenizer of 50,277 tokens" in lesson_04.read_text()  # lesson 04 states Pythia's count from the same source
    for missing in ("olmo-2-1124-7b", "gemma-3-1b", "deepseek-v3"):  # no count the course can cite yet
        with pytest.raises(ValueError, match=f"no cited tokenizer size for name='{missing}'"):
            n_tokens(missing)
    with pytest.raises(ValueError, match="no shipped config called name='nope'"):
        n_tokens("nope")


def test_a_shape_unpacked_like_a_pair_says_how_to_read_its_sizes():
    """Exercise 01 asks for V·d from model_shape: `V, d = model_shape(config)` names the fields to read."""
    shape = model_shape(load_config("gpt2"))
    with pytest.raises(TypeError, match=r"shape\.vocab_size, shape\.hidden_size"):
        V, d = shape  # noqa: F841
    assert (shape.vocab_size, shape.hidden_size) == (50_257, 768)


def test_the_references_published_figures_section_states_only_counted_numbers():
    """book/references.md, "Published figures against the exact counts" (moved there from lesson 06):
    every number of four or more digits it states is one embedlab counts, and each count it reconciles
    is there."""
    from pathlib import Path

    refs = (Path(__file__).resolve().parent.parent / "book" / "references.md").read_text(encoding="utf-8")
    section = refs.split("## Published figures against the exact counts", 1)[1].split("\n## ", 1)[0]
    mixtral, qwen, v3 = count("mixtral-8x7b"), count("qwen3-30b-a3b"), count("deepseek-v3")
    extras = checkpoint_extras(load_config("deepseek-v3"))
    mtp, biases = extras["multi-token prediction module"], extras["router score-correction biases (buffers)"]
    d = load_config("deepseek-v3")["hidden_size"]
    eh_proj, used = 2 * d * d, mtp - (v3.block.mlp - v3.block.mlp_active)
    routers = 48 * 128 * 2048
    counted = {mixtral.total, mixtral.active, qwen.active, routers, qwen.active - routers, 2048,
               v3.active_without_embedding, v3.active, biases, mtp, mtp - eh_proj,
               used + v3.token_embedding + v3.lm_head, used + v3.lm_head,
               used - eh_proj + v3.token_embedding + v3.lm_head, used - eh_proj + v3.lm_head}
    stated = {int(n.replace(",", "")) for n in re.findall(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\d.])", section)}
    assert stated and stated <= counted, f"numbers no count gives: {sorted(stated - counted)}"
    assert counted - {2048} <= stated, f"counts the section leaves out: {sorted(counted - stated)}"


def test_share_rises_finds_every_pair_of_a_family_whose_larger_model_spends_the_larger_share():
    """Lesson 04, section 9: share_rises() is exactly the pairs of one model_type where the larger
    model spends the larger share on E and its head (every pair compared here, independently), and
    each names what else differs; a pair that changes nothing but its size names nothing."""
    from embedlab.params import share_differences, share_rises

    counts = {name: count_params(load_config(name)) for name in available_models()}
    family = {name: load_config(name)["model_type"] for name in counts}
    expected = {(a, b) for a in counts for b in counts
                if family[a] == family[b] and counts[b].total > counts[a].total
                and counts[b].vocab_share > counts[a].vocab_share}
    rises = share_rises()
    assert len(rises) == len(expected) and {(r.smaller, r.larger) for r in rises} == expected
    for r in rises:
        assert r.family == family[r.smaller] == family[r.larger]
        assert (r.smaller_share, r.larger_share) == (counts[r.smaller].vocab_share, counts[r.larger].vocab_share)
        assert r.differences == share_differences(r.smaller, r.larger) and r.differences  # the lesson's claim
    assert share_differences("gpt2", "gpt2-xl") == () and share_rises(["gpt2-xl", "gpt2"]) == []
    assert share_differences("llama-3.2-3b", "llama-3-8b") == ("head tied vs untied",)
    assert share_differences("llama-2-7b", "llama-3-8b") == ("tokens 32,000 vs 128,256",)
    assert share_differences("opt-350m", "opt-1.3b") == ("opt-350m's E is 512 wide, d = 1,024",)
    assert share_differences("pythia-70m", "gemma-2b") == ("tokens 50,277 vs 256,000", "head untied vs tied")
    with pytest.raises(ValueError, match="no shipped config called name='nope'"):
        share_rises(["gpt2", "nope"])
