"""embedlab.calculator: the pure function under the widget, and the widget wiring."""

import html

import pytest

from embedlab import count_params, load_config
from embedlab.calculator import calculate, calculator_report, configure, param_calculator


def test_defaults_are_gpt2_small():
    assert calculate().total == 124_439_808
    report = calculator_report()
    assert "V=50,257  d=768  L=12" in report
    assert "124,439,808" in report
    assert "E is 31.0% of all parameters" in report


def test_no_change_is_the_shipped_model():
    for name in ("llama-3-8b", "pythia-70m", "opt-350m", "phi-2"):
        assert calculate(name) == count_params(load_config(name))
        assert "modified" not in configure(name)["_name"]


def test_tying_llama_3_8b_saves_one_table():
    assert calculate("llama-3-8b", tied=True).total == 8_030_261_248 - 128_256 * 4096 == 7_504_924_672
    assert "(modified)" in configure("llama-3-8b", tied=True)["_name"]


def test_sizes_go_to_each_familys_own_keys():
    config = configure("gpt2", hidden_size=1024, num_layers=24, num_heads=16)
    assert (config["n_embd"], config["n_layer"], config["n_head"]) == (1024, 24, 16)
    assert calculate("gpt2", hidden_size=1024, num_layers=24, num_heads=16).total == 354_823_168  # GPT-2 medium
    assert configure("opt-125m", intermediate_size=1000)["ffn_dim"] == 1000


def test_grouped_query_attention_from_the_calculator():
    full = calculate("llama-3-8b", num_kv_heads=32)
    assert full.block.attention == 4 * 4096 * 4096
    assert calculate("llama-3-8b").block.attention == 41_943_040


def test_families_without_gqa_refuse_fewer_kv_heads():
    assert calculate("gpt2", num_kv_heads=12).total == 124_439_808
    with pytest.raises(ValueError, match="num_kv_heads=4"):
        calculate("gpt2", num_kv_heads=4)


def test_bad_sizes_name_the_field():
    with pytest.raises(ValueError, match="n_embd=-5"):
        calculate("gpt2", hidden_size=-5)
    with pytest.raises(ValueError, match="width=3"):
        calculate("gpt2", width=3)
    with pytest.raises(ValueError, match="name='nope'"):
        calculate("nope")


def test_widget_shows_the_report_and_follows_the_menu():
    widget = param_calculator()
    menu, row1, row2, tied, out = widget.children
    assert out.value == "<pre>" + html.escape(calculator_report()) + "</pre>"
    menu.value = "llama-3-8b"
    assert row1.children[0].value == 128_256 and tied.value is False
    assert "8,030,261,248" in out.value
    tied.value = True
    assert "7,504,924,672" in out.value
    row1.children[1].value = 4097  # d = 4097 is not divisible by h = 32
    assert "not a valid model" in out.value


def test_package_exports_the_function_not_the_module():
    import embedlab
    from embedlab import calculator_report as report  # loads the module first
    assert report is calculator_report
    assert callable(embedlab.param_calculator) and embedlab.param_calculator is param_calculator


def test_experts_in_the_calculator():
    # Mixtral with 4 experts instead of 8: half the expert weights gone, the active count unchanged
    base, half = calculate("mixtral-8x7b"), calculate("mixtral-8x7b", num_experts=4)
    assert base.total - half.total == 32 * 4 * (3 * 4096 * 14_336 + 4096)  # experts and their router rows
    assert half.active == base.active - 32 * 4 * 4096  # only the router shrinks for a token
    assert configure("qwen3-30b-a3b", expert_intermediate_size=512)["moe_intermediate_size"] == 512
    assert configure("deepseek-v3", num_experts=64)["n_routed_experts"] == 64
    with pytest.raises(ValueError, match="num_experts_per_tok=9"):
        calculate("mixtral-8x7b", experts_per_token=9)
    with pytest.raises(ValueError, match="num_experts=8"):
        calculate("llama-3-8b", num_experts=8)
    report = calculator_report("mixtral-8x7b")
    assert "experts: E=8, k=2 per token" in report and "a token uses 12,879,925,248" in report


def test_widget_shows_experts_for_moe_models_only():
    widget = param_calculator()
    menu, row1, row2, tied, out = widget.children
    experts, k = row2.children[3], row2.children[4]
    assert experts.disabled and k.disabled
    menu.value = "mixtral-8x7b"
    assert (experts.value, k.value) == (8, 2) and not experts.disabled
    k.value = 8
    assert "46,702,792,704" in out.value and "a token uses 46,702,792,704" in out.value
