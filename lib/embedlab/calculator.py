"""An interactive parameter calculator: pick a real model, change its sizes, watch the count.

The widget is a thin shell over one pure function, ``calculate``, which the tests
check: it takes a shipped model's config.json, replaces whichever sizes you set,
and counts the result with ``count_params``. ``calculator_report`` turns that
count into the text the widget shows, so a static page (which cannot run
widgets) can print the same thing for the default values.
"""

from __future__ import annotations

import html

from .params import ParamCount, available_models, count_params, load_config, model_shape

DEFAULT_MODEL = "gpt2"

# our name -> the config.json key each family uses for it
_KEYS = {
    "vocab_size": {"default": "vocab_size"},
    "hidden_size": {"gpt2": "n_embd", "default": "hidden_size"},
    "num_layers": {"gpt2": "n_layer", "default": "num_hidden_layers"},
    "num_heads": {"gpt2": "n_head", "default": "num_attention_heads"},
    "num_kv_heads": {"default": "num_key_value_heads"},
    "intermediate_size": {"gpt2": "n_inner", "opt": "ffn_dim", "default": "intermediate_size"},
    "tied": {"default": "tie_word_embeddings"},
}
SIZES = tuple(_KEYS)

# families whose attention has one key/value head per query head (no grouped-query attention)
_NO_GQA = ("gpt2", "gpt_neox", "opt")


def configure(model: str = DEFAULT_MODEL, **sizes) -> dict:
    """A shipped model's config.json with some sizes replaced (the name gains "(modified)").

    ``sizes`` may set vocab_size, hidden_size, num_layers, num_heads, num_kv_heads,
    intermediate_size and tied; a size left out (or None) keeps the model's value.
    """
    config = load_config(model)
    family = config["model_type"]
    before = model_shape(config)
    for name, value in sizes.items():
        if name not in _KEYS:
            raise ValueError(f"unknown size {name}={value!r}; choose from {', '.join(SIZES)}")
        if value is None:
            continue
        if name == "num_kv_heads" and family in _NO_GQA:
            heads = sizes.get("num_heads") or before.num_heads
            if value != heads:
                raise ValueError(f"{family} has no grouped-query attention: num_kv_heads={value!r} must equal num_heads={heads}")
            continue
        config[_KEYS[name].get(family, _KEYS[name]["default"])] = value
    if model_shape(config) != before:
        config["_name"] = f"{config.get('_name', model)} (modified)"
    return config


def calculate(model: str = DEFAULT_MODEL, **sizes) -> ParamCount:
    """Count a shipped model's parameters after replacing some of its sizes (see ``configure``).

    >>> calculate("llama-3-8b", tied=True).total   # Llama-3-8B with its head tied
    7504924672

    Bad sizes raise ValueError naming the field, as count_params does.
    """
    return count_params(configure(model, **sizes))


def calculator_report(model: str = DEFAULT_MODEL, **sizes) -> str:
    """The calculator's output as text: the sizes, the breakdown table and the embedding share."""
    config = configure(model, **sizes)
    count = count_params(config)
    s = model_shape(config)
    lines = [
        f"V={s.vocab_size:,}  d={s.hidden_size:,}  L={s.num_layers}  h={s.num_heads}  h_kv={s.num_kv_heads}  "
        f"head_dim={s.head_dim}  d_ff={s.intermediate_size:,}  tied={s.tied}",
        count.table(),
        f"embedding share: E is {count.embedding_share:.1%} of all parameters; "
        f"E plus the head {count.vocab_share:.1%}",
    ]
    return "\n".join(lines)


def param_calculator(model: str = DEFAULT_MODEL):
    """The ipywidgets calculator: a model menu, one box per size, a tied switch, and the report."""
    import ipywidgets as widgets

    names = available_models()
    menu = widgets.Dropdown(options=names, value=model, description="model")
    boxes = {name: widgets.BoundedIntText(min=1, max=10**7, description=label, layout=widgets.Layout(width="220px"))
             for name, label in (("vocab_size", "V"), ("hidden_size", "d"), ("num_layers", "L"), ("num_heads", "h"),
                                 ("num_kv_heads", "h_kv"), ("intermediate_size", "d_ff"))}
    tied = widgets.Checkbox(description="tied head")
    out = widgets.HTML()
    loading = {"now": False}

    def fill(*_):
        """Copy the chosen model's sizes into the boxes."""
        loading["now"] = True
        s = model_shape(load_config(menu.value))
        for name, box in boxes.items():
            box.value = getattr(s, name)
        boxes["num_kv_heads"].disabled = s.model_type in _NO_GQA
        tied.value = s.tied
        loading["now"] = False
        show()

    def show(*_):
        if loading["now"]:
            return
        sizes = {name: box.value for name, box in boxes.items()}
        if boxes["num_kv_heads"].disabled:
            sizes["num_kv_heads"] = None
        try:
            text = calculator_report(menu.value, tied=tied.value, **sizes)
        except ValueError as exc:
            text = f"not a valid model: {exc}"
        out.value = f"<pre>{html.escape(text)}</pre>"

    menu.observe(fill, names="value")
    for box in boxes.values():
        box.observe(show, names="value")
    tied.observe(show, names="value")
    fill()
    from .described_box import DescribedBox   # its text form, shown where the widget is not drawn

    return DescribedBox([menu, widgets.HBox(list(boxes.values())[:3]), widgets.HBox(list(boxes.values())[3:]), tied, out],
                        "Parameter calculator (an interactive widget): run this cell to use it.")
