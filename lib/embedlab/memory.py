"""What parameters cost in memory: weights, training with Adam, and the KV cache.

Every figure here is bytes = count × bytes per number. The disagreements in
published rules of thumb ("16 bytes per parameter to train", "20 bytes") are
disagreements about which numbers are kept and in which precision, so each
recipe below lists its parts instead of quoting one total.

A mixture-of-experts model must hold every expert in memory, whichever ones a
token is routed to: its weights cost its total parameters (count_params(...).total),
not the active ones that set its compute per token.

Units: GB = 10**9 bytes (what disk and GPU vendors print), GiB = 2**30 bytes
(what many tools report). A 1 GiB cache is 1.07 GB.
"""

from __future__ import annotations

from dataclasses import dataclass

from .params import count_params, model_shape, positive_int

GB = 10**9
GiB = 2**30

# bytes per stored number
BYTES_PER_PARAM = {
    "fp32": 4.0,
    "fp16": 2.0,
    "bf16": 2.0,
    "fp8": 1.0,   # 8-bit floats (e4m3 or e5m2): a KV cache or weights served on recent GPUs
    "int8": 1.0,
    "int4": 0.5,  # 4 bits: two numbers per byte (quantization scales come on top)
}


def bytes_per_param(precision: str) -> float:
    """Bytes for one number stored in `precision` (fp32, fp16, bf16, fp8, int8, int4)."""
    if precision not in BYTES_PER_PARAM:
        raise ValueError(f"precision must be one of {', '.join(BYTES_PER_PARAM)}, got precision={precision!r}")
    return BYTES_PER_PARAM[precision]


def _n_params(model) -> int:
    """A parameter count, or a config dict to count (every parameter, all experts included)."""
    if isinstance(model, dict):
        return count_params(model).total
    try:
        return positive_int("model", model)
    except ValueError:
        raise ValueError(f"model must be a config dict or a positive parameter count, got model={model!r}") from None


def weight_bytes(model, precision: str = "bf16") -> float:
    """Bytes to hold the weights: parameters × bytes per parameter. `model`: a count or a config."""
    return _n_params(model) * bytes_per_param(precision)


# --------------------------------------------------------------------------
# Training with Adam: what is stored per parameter


@dataclass(frozen=True)
class AdamRecipe:
    """Bytes per parameter of each thing training with Adam keeps, and where the recipe comes from."""

    name: str
    weights: float  # the weights the forward and backward passes use
    gradients: float  # gradients in the working precision
    master_weights: float  # an fp32 copy the optimizer updates (mixed precision)
    master_gradients: float  # an fp32 copy of the gradients (some frameworks keep one)
    moments: float  # Adam's two running averages, m and v
    source: str

    @property
    def total(self) -> float:
        return self.weights + self.gradients + self.master_weights + self.master_gradients + self.moments

    def parts(self) -> dict[str, float]:
        return {"weights": self.weights, "gradients": self.gradients, "master weights": self.master_weights,
                "master gradients": self.master_gradients, "Adam moments (m, v)": self.moments}


ADAM_RECIPES = {
    # everything fp32: 4 weights + 4 gradients + 4 m + 4 v
    "fp32": AdamRecipe("fp32", 4, 4, 0, 0, 8, "plain fp32 training"),
    # fp16/bf16 weights and gradients, fp32 master weights and moments: 2 + 2 + 12 = 16
    "mixed": AdamRecipe("mixed", 2, 2, 4, 0, 8,
                        "Rajbhandari et al. 2020 (ZeRO), Sec. 3.1: 2 + 2 + 12 bytes per parameter"),
    # as "mixed" but gradients kept in fp32 only: 6 bytes of weights + 4 of gradients + 8 of moments = 18
    "mixed, fp32 gradients": AdamRecipe("mixed, fp32 gradients", 2, 0, 4, 4, 8,
                                        "Hugging Face Transformers docs, 'Model training anatomy'"),
    # bf16 weights and gradients plus fp32 copies of both: 2 + 2 + 4 + 4 + 8 = 20
    "mixed, fp32 copies of both": AdamRecipe("mixed, fp32 copies of both", 2, 2, 4, 4, 8,
                                             "Hugging Face Ultra-Scale Playbook (2025), mixed precision section"),
}


@dataclass(frozen=True)
class TrainingMemory:
    """Bytes of one training setup, by part. Activations are NOT included (see `note`)."""

    n_params: int
    recipe: AdamRecipe

    @property
    def parts(self) -> dict[str, float]:
        return {k: v * self.n_params for k, v in self.recipe.parts().items()}

    @property
    def total(self) -> float:
        return self.recipe.total * self.n_params

    note = ("activations (what the forward pass saves for the backward pass) come on top: they grow with "
            "batch × context and are not counted here")

    def table(self, unit: int = GB) -> str:
        name = "GB" if unit == GB else "GiB" if unit == GiB else f"x{unit}"
        lines = [f"Adam, recipe {self.recipe.name!r} ({self.recipe.source})",
                 f"{'part':<22}{'bytes/param':>12}{name:>12}"]
        for part, per in self.recipe.parts().items():
            if per:
                lines.append(f"{part:<22}{per:>12g}{per * self.n_params / unit:>12.1f}")
        lines.append(f"{'total':<22}{self.recipe.total:>12g}{self.total / unit:>12.1f}")
        lines.append(f"(+ {self.note})")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def adam_training_memory(model, recipe: str = "mixed") -> TrainingMemory:
    """Memory for weights, gradients and Adam's state when training `model` (a count or a config)."""
    if recipe not in ADAM_RECIPES:
        raise ValueError(f"recipe must be one of {list(ADAM_RECIPES)}, got recipe={recipe!r}")
    return TrainingMemory(_n_params(model), ADAM_RECIPES[recipe])


# --------------------------------------------------------------------------
# The KV cache: what generation keeps per token


def kv_cache_bytes_per_token(config: dict, precision: str = "bf16") -> float:
    """2 (keys and values) · L · h_kv · head_dim · bytes: what each token of context keeps.

    Only the key/value heads are cached, so grouped-query attention (h_kv < h)
    shrinks the cache by h / h_kv. Latent attention (DeepSeek's MLA) caches one
    compressed vector and a rotary key part per layer instead,
    L · (kv_lora_rank + qk_rope_head_dim) numbers, as DeepSeek's own inference
    code does (transformers expands it to full keys and values).
    """
    s = model_shape(config)
    return s.num_layers * s.kv_cache_width * bytes_per_param(precision)


def kv_cache_bytes(config: dict, context: int, batch: int = 1, precision: str = "bf16") -> float:
    """The whole cache: per token × context × batch (every sequence keeps its own)."""
    return kv_cache_bytes_per_token(config, precision) * positive_int("context", context) * positive_int("batch", batch)


def serving_memory(config: dict, weights: str = "bf16", context: int = 8192, batch: int = 1,
                   kv: str | None = None) -> dict[str, float]:
    """Bytes to serve a model: its weights plus the KV cache for `batch` sequences of `context` tokens.

    `kv` is the cache's precision. By default it is the weights' precision for
    fp32/fp16/bf16 weights, and bf16 for int8/int4 weights (quantizing the
    weights does not quantize the cache). Pass `kv` to change it.
    Activations and the framework's own overhead are left out.
    """
    kv = kv if kv is not None else (weights if weights in ("fp32", "fp16", "bf16") else "bf16")
    w = weight_bytes(config, weights)
    cache = kv_cache_bytes(config, context, batch, kv)
    return {"weights": w, "kv_cache": cache, "total": w + cache}
