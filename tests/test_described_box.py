"""A course widget's text form (what JupyterLab shows before its cell runs) is one sentence."""

import pytest

from embedlab.calculator import param_calculator
from embedlab.described_box import MAX_WIDTH, DescribedBox
from embedlab.memory_widget import memory_calculator

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@pytest.mark.parametrize("make", [param_calculator, memory_calculator])
def test_course_widgets_save_a_sentence_as_their_text_form(make):
    bundle = make()._repr_mimebundle_()
    text = bundle["text/plain"]
    assert WIDGET_VIEW in bundle                                   # still drawn where it can be
    assert not text.startswith("VBox(") and "children" not in text
    assert "\n" not in text and len(text) <= MAX_WIDTH and text.endswith("run this cell to use it.")


def test_a_described_box_is_a_vbox_with_its_children():
    import ipywidgets

    child = ipywidgets.IntSlider()
    box = DescribedBox([child], "A slider.")
    assert isinstance(box, ipywidgets.VBox) and box.children == (child,)
    assert repr(box) == "A slider." and box._repr_mimebundle_()["text/plain"] == "A slider."


@pytest.mark.parametrize("description", ["", "two\nlines", "x" * (MAX_WIDTH + 1), None])
def test_a_bad_description_names_the_field(description):
    with pytest.raises(ValueError, match="description="):
        DescribedBox([], description)
