"""Nameable mistakes the blind heldout11 judge found told only generically (issue 46), by kind; each mechanism names
its kind only when a counterfactual holds on the learner's own code or value, and each is planted here as NEW
instances (other questions, other code styles than the corpus's entries).

(a) a ratio typed by hand (`3.5 * d`, `d // 16`) where the config gives the value: the config's field put in the
    ratio's place makes the learner's own cell give the answer exactly (explain.slip_undone);
"""

from __future__ import annotations

from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines


def test_a_a_ratio_typed_where_the_config_gives_the_width_is_named():
    for source in ("width = int(d * 2.75)\nmlp_layer = 3 * d * width\n",
                   "mlp_layer = 3 * shape.hidden_size * (shape.hidden_size * 7 // 2)\n"):
        detail = _detail("04-modern-blocks", "mlp_layer", source)
        assert "ratio typed by hand" in detail and "`intermediate_size`" in detail, (source, detail)


def test_a_a_head_width_typed_as_a_ratio_is_named_as_the_configs_head_dim():
    source = "hd = d // 16   # a head is d/16 wide\nattn_layer = 2 * d * h * hd + 2 * d * h_kv * hd\n"
    detail = _detail("04-modern-blocks", "attn_layer", source)
    assert "ratio typed by hand" in detail and "`head_dim`" in detail, detail


def test_a_a_ratio_whose_field_does_not_give_the_answer_is_not_named():
    # a ratio added where nothing belongs: no field of the config put in its place gives the answer
    detail = _detail("04-modern-blocks", "mlp_layer", "mlp_layer = 3 * d * d_ff + 3.5 * d\n")
    assert "ratio typed by hand" not in detail, detail
