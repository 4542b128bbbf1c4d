"""The memory calculator: its pure function on the defaults, and the widget around it."""

import pytest

from embedlab.memory_widget import DEFAULTS, memory_calculator, memory_report


def test_memory_report_for_the_defaults():
    text = memory_report(**DEFAULTS)
    assert "8,030,261,248 parameters" in text
    assert "16.06 GB" in text  # 2 x 8,030,261,248 bytes
    assert "1.07 GB" in text  # 1 GiB of cache
    assert "17.13 GB" in text
    assert "128.48 GB" in text  # 16 bytes per parameter


def test_the_widget_builds_with_the_defaults():
    w = memory_calculator()
    controls, out = w.children[:-1], w.children[-1]
    assert {c.description: c.value for c in controls} == DEFAULTS
    assert "17.13 GB" in out.value  # the report for the defaults
    controls[3].value = 2  # batch 2: one more GiB of cache
    assert "2.15 GB" in out.value and "18.21 GB" in out.value


def test_unknown_model_names_the_field():
    with pytest.raises(ValueError, match="name"):
        memory_report("gpt-5")


def test_package_names_stay_functions_after_the_module_is_imported():
    import embedlab

    embedlab.memory_report  # imports the module that defines both names
    assert callable(embedlab.memory_calculator) and not isinstance(embedlab.memory_calculator, type(embedlab))


def test_a_context_beyond_the_models_own_limit_is_warned_about():
    # GPT-2 has 1,024 position rows (n_positions in its config): 1,024 tokens fit, 1,025 do not
    assert "warning" not in memory_report("gpt2", context=1024)
    text = memory_report("gpt2", context=8192)
    assert "warning: GPT-2 small reads at most 1,024 tokens (n_positions in its config)" in text
    assert "priced for 8,192" in text
    # Llama configs state it as max_position_embeddings: 8,192 for Llama-3-8B
    assert "warning" not in memory_report("llama-3-8b", context=8192)
    assert "at most 8,192 tokens (max_position_embeddings" in memory_report("llama-3-8b", context=16384)


def test_the_widget_shows_the_warning_when_the_context_moves_past_the_limit():
    w = memory_calculator()
    controls = {c.description: c for c in w.children[:-1]}
    out = w.children[-1]
    controls["model"].value = "gpt2"
    assert "warning" in out.value  # the default 8,192 tokens is past GPT-2's 1,024
    controls["context"].value = 1024
    assert "warning" not in out.value


def test_a_config_with_no_stated_limit_gets_no_warning():
    from embedlab.memory_widget import context_limit, context_warning

    assert context_limit({"n_positions": 1024}) == ("n_positions", 1024)
    assert context_limit({"model_type": "llama"}) is None
    assert context_warning({"model_type": "llama"}, "a model", 10**6) is None


def test_every_report_line_fits_an_88_character_page():
    from embedlab.params import available_models

    for model in available_models():
        for context in (512, 131072):
            for line in memory_report(model, weights="int4", context=context, batch=64).splitlines():
                assert len(line) <= 88, line
