"""embedlab.params: exact counts of real models, the estimate, and every ValueError."""

import re

import pytest

from embedlab import available_models, count_params, estimate_params, load_config, model_shape
from embedlab.params import FAMILIES, ParamCount


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
                           + c.num_blocks * c.block.total + c.final_norm)


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
