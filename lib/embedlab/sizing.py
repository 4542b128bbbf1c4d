"""Size a model for a job: check a design against a parameter, a serving-memory and a compute budget.

A design is a config dict, the same kind `count_params` reads. A job states
its budgets once (`Budget`); `design_figures` prices a design with the
course's own calculators, and `over_budget` says, in words and numbers, which
budget a design breaks. Nothing here is new arithmetic: it is
`count_params`, `serving_memory` and `training_flops` asked the three
questions a model proposal has to answer.

* **parameters**: every trainable parameter once (a tied head counts once);
* **serving memory**: the weights plus the KV cache of `batch` sequences of
  `context` tokens, in GB (10**9 bytes), activations and overhead left out;
* **training compute**: the FLOPs of training on `train_tokens` tokens in
  sequences of `train_context`, counted by `training_flops` (every matmul of
  the blocks and the head, attention over the context; the lookup is free).
  The rule of thumb 6·N·D (`Figures.train_flops_6nd`) takes for N lesson 06's
  N_mult, the weights a token multiplies: the active parameters without an
  untied input table (only looked up) or a position table (only added); a tied
  table is also the head, so it stays in. It leaves out attention, so the budget
  uses the count. (For a mixture-of-experts design the weights hold every
  expert, the arithmetic only the ones a token is routed to.)
"""

from __future__ import annotations

from dataclasses import dataclass

from .compute import training_flops
from .memory import BYTES_PER_PARAM, GB, serving_memory
from .params import count_params, model_shape, positive_int, positive_number


@dataclass(frozen=True)
class Budget:
    """What a job allows. Sizes in the course's notation: T = context, B = batch, D = train_tokens."""

    max_params: int  # parameters, every one once
    max_serving_gb: float  # weights + KV cache, GB (10**9 bytes)
    context: int  # T: tokens per sequence when serving
    batch: int  # B: sequences served at once
    max_train_flops: float  # FLOPs for the whole training run
    train_tokens: int  # D: training tokens
    train_context: int  # tokens per training sequence
    weights: str = "bf16"  # precision of the served weights
    kv: str = "bf16"  # precision of the KV cache
    min_vocab_size: int = 1  # the job's tokenizer needs at least this many rows

    def __post_init__(self):
        for name in ("max_params", "context", "batch", "train_tokens", "train_context", "min_vocab_size"):
            positive_int(name, getattr(self, name))
        for name in ("max_serving_gb", "max_train_flops"):
            positive_number(name, getattr(self, name))
        if self.train_tokens % self.train_context:
            raise ValueError(f"train_tokens must be a whole number of sequences of train_context={self.train_context}, "
                             f"got train_tokens={self.train_tokens}")
        for name in ("weights", "kv"):
            if getattr(self, name) not in BYTES_PER_PARAM:
                raise ValueError(f"{name} must be one of {', '.join(BYTES_PER_PARAM)}, got {name}={getattr(self, name)!r}")


@dataclass(frozen=True)
class Figures:
    """A design priced by the course's calculators."""

    params: int  # count_params(config).total
    non_embedding: int  # Kaplan's N: all but the token table, position table and head
    embedding_share: float  # token table / params
    weights_gb: float
    kv_cache_gb: float
    serving_gb: float  # weights_gb + kv_cache_gb
    train_flops: int  # training_flops(config, train_context).total × sequences
    train_flops_6nd: int  # the rule of thumb 6·N·D with N = N_mult (lesson 06, `n_mult`), for comparison


def n_mult(n) -> int:
    """Lesson 06's N_mult of a `count_params(...)` result: the weights one token multiplies.

    The active count without an untied input table (a lookup, 0 FLOPs) and a position
    table (an addition); a tied table is also the head, so it stays in.
    """
    return n.active - (0 if n.tied else n.token_embedding) - n.position_embedding


def design_figures(config: dict, budget: Budget) -> Figures:
    """Count, weigh and price one design for the job (ValueError if the config is not a valid model)."""
    n = count_params(config)
    memory = serving_memory(config, weights=budget.weights, context=budget.context, batch=budget.batch, kv=budget.kv)
    sequences = budget.train_tokens // budget.train_context
    return Figures(
        params=n.total,
        non_embedding=n.non_embedding,
        embedding_share=n.embedding_share,
        weights_gb=memory["weights"] / GB,
        kv_cache_gb=memory["kv_cache"] / GB,
        serving_gb=memory["total"] / GB,
        train_flops=training_flops(config, budget.train_context).total * sequences,
        train_flops_6nd=6 * n_mult(n) * budget.train_tokens,
    )


def headroom(figures: Figures, budget: Budget) -> dict[str, float]:
    """Fraction of each budget a design uses: above 1 means over budget."""
    return {
        "parameters": figures.params / budget.max_params,
        "memory": figures.serving_gb / budget.max_serving_gb,
        "compute": figures.train_flops / budget.max_train_flops,
    }


# --------------------------------------------------------------------------
# Budget messages: a figure over its budget must print as more than the budget.
# "0.50 GB > 0.5 GB" would be a true statement that reads as a false one, so the
# figures get as many digits as it takes for the printed value to be over too.


def exact_text(limit: float, style: str = "g") -> str:
    """The budget as written: shortest form that reads back as the same number (0.5, 8, 4e+21)."""
    text = f"{limit:{style}}"
    return text if float(text) == limit else repr(float(limit))


def _places_to_show_over(value: float, limit: float, least: int = 2) -> int:
    """Decimal places (at least `least`) at which `value` > `limit` also prints as more than `limit`."""
    places = least
    while places < 17 and not float(f"{value:.{places}f}") > limit:
        places += 1
    return places


def digits_to_show_over(value: float, limit: float, least: int = 3) -> int:
    """Significant digits (at least `least`) at which `value` > `limit` also prints as more than `limit`."""
    digits = least
    while digits < 17 and not float(f"{value:.{digits}g}") > limit:
        digits += 1
    return digits


def over_budget(config: dict, budget: Budget) -> list[str]:
    """Every reason this design does not do the job, with its numbers; an empty list means it fits."""
    try:
        model_shape(config)
        f = design_figures(config, budget)
    except (ValueError, OverflowError) as exc:
        return [f"not a model the calculators can count: {exc}"]
    reasons = []
    V = config.get("vocab_size")
    if V < budget.min_vocab_size:
        reasons.append(f"vocabulary too small: V = {V:,} < {budget.min_vocab_size:,}")
    if f.params > budget.max_params:
        reasons.append(f"parameters: {f.params:,} > {budget.max_params:,}")
    if f.serving_gb > budget.max_serving_gb:
        places = _places_to_show_over(f.serving_gb, budget.max_serving_gb)
        reasons.append(f"memory: {f.weights_gb:.{places}f} GB weights + {f.kv_cache_gb:.{places}f} GB KV cache = "
                       f"{f.serving_gb:.{places}f} GB > {exact_text(budget.max_serving_gb)} GB")
    if f.train_flops > budget.max_train_flops:
        digits = digits_to_show_over(f.train_flops, budget.max_train_flops)
        reasons.append(f"compute: {f.train_flops:.{digits}g} FLOPs > {exact_text(budget.max_train_flops, 'g')}")
    return reasons


# llama_config's argument for each config field a single change may fix
_ONE_FIELD = (("num_key_value_heads", "num_kv_heads"), ("num_hidden_layers", "num_layers"),
              ("intermediate_size", "d_ff"), ("tie_word_embeddings", "tied"), ("vocab_size", "vocab_size"))


def one_field_fixes(config: dict, budget: Budget) -> list[str]:
    """The fields (llama_config's names) whose change alone brings a design over budget within every budget,
    each with the nearest value that does (kv heads a divisor of the heads, layers, d_ff a multiple of 64
    below, the table tied, V down to the job's minimum); the heads' width is kept. [] when no single field does."""
    try:
        shape = model_shape(config)
    except (ValueError, OverflowError):
        return []
    if not over_budget(config, budget):
        return []
    h, now = shape.num_heads, dict(config)

    def fits(field, value):
        try:
            return not over_budget({**now, field: value}, budget)
        except (ValueError, OverflowError, TypeError, ZeroDivisionError):
            return False

    tries = {
        "num_key_value_heads": [k for k in range(int(now.get("num_key_value_heads") or h) - 1, 0, -1) if h % k == 0],
        "num_hidden_layers": list(range(int(now.get("num_hidden_layers") or 1) - 1, 0, -1)),
        "intermediate_size": list(range((int(now.get("intermediate_size") or 0) - 1) // 64 * 64, 0, -64)),
        "tie_word_embeddings": [True] if now.get("tie_word_embeddings") is False else [],
        "vocab_size": [budget.min_vocab_size] if int(now.get("vocab_size") or 0) > budget.min_vocab_size else [],
    }
    out = []
    for field, arg in _ONE_FIELD:
        value = next((v for v in tries[field] if fits(field, v)), None)
        if value is not None:
            out.append(f"{arg} = {value!r}" if isinstance(value, bool) else f"{arg} = {value:,}")
    return out


def llama_config(vocab_size: int, d: int, num_layers: int, num_heads: int, num_kv_heads: int,
                 d_ff: int, tied: bool) -> dict:
    """A Llama-style config dict (GQA, SwiGLU, RMSNorm, no biases) that count_params reads.

    Heads are d / num_heads wide. Validated by model_shape, so a bad size raises
    ValueError naming it.
    """
    config = {
        "model_type": "llama",
        "vocab_size": vocab_size,
        "hidden_size": d,
        "num_hidden_layers": num_layers,
        "num_attention_heads": num_heads,
        "num_key_value_heads": num_kv_heads,
        "intermediate_size": d_ff,
        "tie_word_embeddings": tied,
    }
    model_shape(config)
    return config


# --------------------------------------------------------------------------
# Searching depth: the deepest design that fits every budget


@dataclass(frozen=True)
class DepthSearch:
    """What `deepest_fit` found for one family of designs `build(L)`."""

    layers_by_params: int  # the deepest L within the parameter budget alone (0: not even one layer)
    reasons: tuple  # what build(layers_by_params) breaks: why the search backed off (empty: nothing)
    layers: int  # the deepest L within every budget (0: no depth fits)
    design: dict | None  # build(layers), or None when no depth fits


def deepest_fit(build, budget: Budget, max_layers: int = 512) -> DepthSearch:
    """The deepest design `build(L)` (L = 1, 2, ...) that fits every budget of the job.

    Go as deep as the parameter budget allows, then back off one layer at a
    time until memory and compute fit as well. Parameters, KV cache and FLOPs
    all grow with L, so the first depth that fits on the way down is the
    deepest that fits at all; stopping at the parameter budget alone would
    keep designs that break the other two. A requirement that depth cannot
    fix (a vocabulary below the job's minimum) means no depth fits.
    """
    positive_int("max_layers", max_layers)
    by_params = 0
    while by_params < max_layers and count_params(build(by_params + 1)).total <= budget.max_params:
        by_params += 1
    if by_params == max_layers:
        raise ValueError(f"max_layers={max_layers} is not enough: the design still fits the parameter budget "
                         f"at {max_layers} layers")
    reasons = tuple(over_budget(build(max(by_params, 1)), budget))
    layers = by_params
    while layers > 0 and over_budget(build(layers), budget):
        layers -= 1
    return DepthSearch(by_params, reasons, layers, build(layers) if layers else None)
