"""An interactive parameter calculator: pick a real model, change its sizes, watch the count.

The widget is a thin shell over one pure function, ``calculate``, which the tests
check: it takes a shipped model's config.json, replaces whichever sizes you set,
and counts the result with ``count_params``. ``calculator_report`` turns that
count into the text the widget shows, so a static page (which cannot run
widgets) can print the same thing for the default values.
"""

from __future__ import annotations

import html

from .params import ParamCount, available_models, config_key, count_params, family, load_config, model_shape

DEFAULT_MODEL = "gpt2"

# the sizes the calculator changes; each family's spelling of them comes from params' family table
SIZES = ("vocab_size", "hidden_size", "num_layers", "num_heads", "num_kv_heads", "intermediate_size", "tied",
         "num_experts", "experts_per_token", "expert_intermediate_size")
_EXPERT_SIZES = ("num_experts", "experts_per_token", "expert_intermediate_size")


def configure(model: str = DEFAULT_MODEL, **sizes) -> dict:
    """A shipped model's config.json with some sizes replaced (the name gains "(modified)").

    ``sizes`` may set vocab_size, hidden_size, num_layers, num_heads, num_kv_heads,
    intermediate_size and tied, and for a mixture-of-experts model num_experts,
    experts_per_token and expert_intermediate_size; a size left out (or None)
    keeps the model's value.
    """
    config = load_config(model)
    fam = family(config["model_type"])
    before = model_shape(config)
    for name, value in sizes.items():
        if name not in SIZES:
            raise ValueError(f"unknown size {name}={value!r}; choose from {', '.join(SIZES)}")
        if value is None:
            continue
        if name == "num_kv_heads" and fam.attention != "gqa":
            heads = sizes.get("num_heads") or before.num_heads
            if value != heads:
                raise ValueError(f"{fam.model_type} has no grouped-query attention: num_kv_heads={value!r} must equal num_heads={heads}")
            continue
        if name in _EXPERT_SIZES and not fam.moe:
            raise ValueError(f"{fam.model_type} has no experts: {name}={value!r} does not apply")
        config[config_key(config, name)] = value
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
    ]
    if s.moe:
        lines.append(f"experts: E={s.moe.num_experts}, k={s.moe.experts_per_token} per token, "
                     f"width {s.moe.expert_intermediate_size:,}, in {len(s.moe.moe_layers)} of {s.num_layers} layers")
    lines += [
        count.table(),
        f"embedding share: E is {count.embedding_share:.1%} of all parameters; "
        f"E plus the head {count.vocab_share:.1%}",
    ]
    if count.is_moe:
        lines.append(f"a token uses {count.active:,} of them ({count.active / count.total:.1%}): "
                     f"E is {count.token_embedding / count.active:.1%} of those")
    return "\n".join(lines)


def param_calculator(model: str = DEFAULT_MODEL):
    """The ipywidgets calculator: a model menu, one box per size, a tied switch, and the report."""
    import ipywidgets as widgets

    names = available_models()
    menu = widgets.Dropdown(options=names, value=model, description="model")
    boxes = {name: widgets.BoundedIntText(min=1, max=10**7, description=label, layout=widgets.Layout(width="220px"))
             for name, label in (("vocab_size", "V"), ("hidden_size", "d"), ("num_layers", "L"), ("num_heads", "h"),
                                 ("num_kv_heads", "h_kv"), ("intermediate_size", "d_ff"),
                                 ("num_experts", "experts"), ("experts_per_token", "k"))}
    tied = widgets.Checkbox(description="tied head")
    out = widgets.HTML()
    loading = {"now": False}

    def fill(*_):
        """Copy the chosen model's sizes into the boxes."""
        loading["now"] = True
        s = model_shape(load_config(menu.value))
        for name, box in boxes.items():
            if name in _EXPERT_SIZES:
                box.value = getattr(s.moe, name) if s.moe else 1
            else:
                box.value = getattr(s, name)
        boxes["num_kv_heads"].disabled = family(s.model_type).attention != "gqa"
        for name in _EXPERT_SIZES[:2]:
            boxes[name].disabled = s.moe is None
        tied.value = s.tied
        loading["now"] = False
        show()

    def show(*_):
        if loading["now"]:
            return
        sizes = {name: box.value for name, box in boxes.items()}
        for name, box in boxes.items():
            if box.disabled:
                sizes[name] = None
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
