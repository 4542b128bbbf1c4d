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
