"""An interactive memory calculator: model, precision, context, batch -> GB.

The arithmetic is the pure function `memory_report` (tested, and printed as
static text for readers of the book, who have no kernel); the widget only
calls it again when a control changes and shows its text.
"""

from __future__ import annotations

import html
import textwrap

from .memory import BYTES_PER_PARAM, GB, adam_training_memory, kv_cache_bytes_per_token, serving_memory
from .params import available_models, count_params, load_config

DEFAULTS = {"model": "llama-3-8b", "weights": "bf16", "context": 8192, "batch": 1}
CONTEXTS = (512, 1024, 2048, 4096, 8192, 16384, 32768, 131072)
# where a config states the longest context its model was built for (GPT-2: n_positions)
CONTEXT_LIMIT_KEYS = ("n_positions", "max_position_embeddings", "n_ctx")
REPORT_WIDTH = 85  # characters: the report fits an 88-character page


def context_limit(config: dict) -> tuple[str, int] | None:
    """(key, tokens): the model's own context limit as its config states it, or None if it states none."""
    for key in CONTEXT_LIMIT_KEYS:
        value = config.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return key, value
    return None


def context_warning(config: dict, model: str, context: int) -> str | None:
    """A warning when `context` is longer than the model can read; None when it fits or no limit is stated.

    The cache is still priced (the arithmetic holds for any context), but a
    model with 1,024 position rows, like GPT-2, cannot use a 1,025th token.
    """
    limit = context_limit(config)
    if limit is None or context <= limit[1]:
        return None
    key, tokens = limit
    name = config.get("_name", model)
    text = (f"warning: {name} reads at most {tokens:,} tokens ({key} in its config); the cache "
            f"below is priced for {context:,}, a context it cannot use")
    return "\n".join(textwrap.wrap(text, width=REPORT_WIDTH, subsequent_indent="  "))


def memory_report(model: str = DEFAULTS["model"], weights: str = DEFAULTS["weights"],
                  context: int = DEFAULTS["context"], batch: int = DEFAULTS["batch"]) -> str:
    """A text table: weights, KV cache and total to serve `model`, plus Adam training for comparison."""
    config = load_config(model)
    n = count_params(config).total
    serve = serving_memory(config, weights=weights, context=context, batch=batch)
    kv = "bf16" if weights not in ("fp32", "fp16", "bf16") else weights
    per_token = kv_cache_bytes_per_token(config, kv)
    train = adam_training_memory(config, "mixed")
    rows = [
        (f"weights ({weights}, {BYTES_PER_PARAM[weights]:g} bytes/param)", serve["weights"]),
        (f"KV cache ({kv}, {per_token:,.0f} bytes/token × {context:,} tokens × {batch})", serve["kv_cache"]),
        ("total to serve (activations and overhead not included)", serve["total"]),
        ("training with Adam, mixed precision, 16 bytes/param (no activations)", train.total),
    ]
    lines = [f"{config.get('_name', model)}: {n:,} parameters"]
    warning = context_warning(config, model, context)
    if warning:
        lines.append(warning)
    lines += [f"{label:<{REPORT_WIDTH - 13}}{value / GB:>10.2f} GB" for label, value in rows]
    return "\n".join(lines)


def memory_calculator():
    """The widget: menus and sliders whose every change re-runs `memory_report`. Needs a live kernel."""
    import ipywidgets as widgets

    controls = {
        "model": widgets.Dropdown(options=available_models(), value=DEFAULTS["model"], description="model"),
        "weights": widgets.Dropdown(options=list(BYTES_PER_PARAM), value=DEFAULTS["weights"], description="weights"),
        "context": widgets.SelectionSlider(options=CONTEXTS, value=DEFAULTS["context"], description="context"),
        "batch": widgets.IntSlider(value=DEFAULTS["batch"], min=1, max=64, description="batch"),
    }
    out = widgets.HTML()

    def show(*_):
        text = memory_report(**{name: control.value for name, control in controls.items()})
        out.value = f"<pre>{html.escape(text)}</pre>"

    for control in controls.values():
        control.observe(show, names="value")
    show()
    from .described_box import DescribedBox   # its text form, shown where the widget is not drawn

    return DescribedBox([*controls.values(), out], "Memory calculator (an interactive widget): run this cell to use it.")
