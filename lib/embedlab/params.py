"""Count the parameters of a real transformer from its config.json, exactly.

A model page lists a handful of sizes (vocabulary V, width d, layers L, heads h,
key/value heads h_kv, MLP width d_ff) and a few switches (tied head, biases).
Those fix every matrix in the model, so the parameter count follows by
multiplication alone: no weights, no framework. Each family below is written
from its Hugging Face implementation, quirks included, and the tests check the
totals against counts obtained by instantiating the real architecture.

    >>> count_params(load_config("gpt2")).total
    124439808

Conventions:

* a tied matrix counts once: with a tied head, ``lm_head`` is 0;
* ``non_embedding = total - token_embedding - position_embedding - lm_head``,
  the N of Kaplan et al. (2020) and of the Pythia and Qwen model cards;
* a linear layer ``m -> n`` has ``m * n`` weights plus ``n`` biases when it has a bias;
* a LayerNorm has a scale and a shift (2 per channel), an RMSNorm a scale only (1 per channel).
"""

from __future__ import annotations

import html
import json
import numbers
from dataclasses import dataclass, field
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"

# --------------------------------------------------------------------------
# Reading a config: each family spells the same sizes differently.

# what each family calls the sizes (first name found wins) -> our name
_NAMES = {
    "vocab_size": ("vocab_size",),
    "hidden_size": ("hidden_size", "n_embd"),
    "num_layers": ("num_hidden_layers", "n_layer"),
    "num_heads": ("num_attention_heads", "n_head"),
    "num_kv_heads": ("num_key_value_heads",),
    "head_dim": ("head_dim",),
    "intermediate_size": ("intermediate_size", "n_inner", "ffn_dim"),
    "max_positions": ("max_position_embeddings", "n_positions"),
}

# Whether the head is tied when config.json does not say (the defaults of the
# Hugging Face config classes).
_TIED_BY_DEFAULT = {
    "gpt2": True,
    "llama": False,
    "mistral": False,
    "qwen2": False,
    "gemma": True,
    "gpt_neox": False,
    "opt": True,
    "phi": False,
}

FAMILIES = tuple(_TIED_BY_DEFAULT)


def _size(config: dict, field: str, *, required: bool = True, default=None, allow_zero: bool = False):
    """Read one size (under any of its spellings) and check it is a positive integer."""
    key = next((k for k in _NAMES.get(field, (field,)) if config.get(k) is not None), None)
    if key is None:
        if required:
            spellings = " or ".join(_NAMES.get(field, (field,)))
            raise ValueError(f"config is missing the field {spellings} (model_type={config.get('model_type')!r})")
        return default
    value = config[key]
    ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if not ok or value < 0 or (value == 0 and not allow_zero):
        kind = "a non-negative integer" if allow_zero else "a positive integer"
        raise ValueError(f"{key} must be {kind}, got {key}={value!r}")
    return int(value)


def _flag(config: dict, key: str, default: bool) -> bool:
    value = config.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false, got {key}={value!r}")
    return value


@dataclass(frozen=True)
class ModelShape:
    """The sizes that fix every matrix of a model, in the course's notation.

    V = vocab_size, d = hidden_size, L = num_layers, h = num_heads,
    h_kv = num_kv_heads, d_ff = intermediate_size. ``learned_positions`` is the
    number of rows of a learned position table (0 for rotary positions).
    """

    model_type: str
    vocab_size: int
    hidden_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    head_dim: int
    intermediate_size: int
    tied: bool
    learned_positions: int = 0


def model_shape(config: dict) -> ModelShape:
    """The sizes of a model from its config.json dict, validated.

    Raises ValueError naming the field and the value for an unknown model_type,
    a missing size, a size that is not a positive integer, or heads that do not
    divide the width.
    """
    if not isinstance(config, dict):
        raise ValueError(f"config must be a dict (a parsed config.json), got config={config!r}")
    model_type = config.get("model_type")
    if model_type not in _TIED_BY_DEFAULT:
        raise ValueError(f"model_type must be one of {', '.join(FAMILIES)}; got model_type={model_type!r}")

    V = _size(config, "vocab_size")
    d = _size(config, "hidden_size")
    L = _size(config, "num_layers")
    h = _size(config, "num_heads")
    h_kv = _size(config, "num_kv_heads", required=False, default=h)
    if model_type == "gemma":
        # Gemma's heads are not d / h wide (Gemma-7B: 16 heads of 256 on d = 3072)
        head_dim = _size(config, "head_dim")
    elif model_type in ("llama", "mistral"):
        head_dim = _size(config, "head_dim", required=False)
    else:
        head_dim = None
    if head_dim is None:
        if d % h:
            raise ValueError(f"num_attention_heads={h} must divide hidden_size={d} (head_dim = hidden_size / heads)")
        head_dim = d // h
    if h % h_kv:
        raise ValueError(f"num_key_value_heads={h_kv} must divide num_attention_heads={h} (each key/value head serves a group of query heads)")
    if model_type in ("gpt2", "gpt_neox", "opt") and h_kv != h:
        raise ValueError(f"{model_type} has no grouped-query attention, got num_key_value_heads={h_kv} with num_attention_heads={h}")

    if model_type == "gpt2":
        d_ff = _size(config, "intermediate_size", required=False, default=4 * d)  # n_inner: null means 4d
    else:
        d_ff = _size(config, "intermediate_size")

    positions = 0
    if model_type == "gpt2":
        positions = _size(config, "max_positions")
    elif model_type == "opt":
        positions = _size(config, "max_positions") + 2  # OPT's position ids start at 2: two extra rows

    tied = _flag(config, "tie_word_embeddings", _TIED_BY_DEFAULT[model_type])
    return ModelShape(model_type, V, d, L, h, h_kv, head_dim, d_ff, tied, positions)


# --------------------------------------------------------------------------
# The count


def linear(m: int, n: int, bias: bool = True) -> int:
    """Parameters of a linear layer from m to n features: m·n weights, plus n biases."""
    return m * n + (n if bias else 0)


@dataclass(frozen=True)
class BlockCount:
    """Parameters of one transformer block, by part."""

    attention: int
    mlp: int
    norms: int
    total: int = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "total", self.attention + self.mlp + self.norms)


@dataclass(frozen=True)
class ParamCount:
    """Every trainable parameter of a model once, by where it lives.

    ``total = token_embedding + position_embedding + lm_head + embedding_projection
    + num_blocks * block.total + final_norm``.
    """

    model_type: str
    tied: bool
    token_embedding: int
    position_embedding: int
    lm_head: int
    num_blocks: int
    block: BlockCount
    final_norm: int
    embedding_projection: int = 0  # OPT-350m projects its 512-wide embeddings to d = 1024 and back
    name: str = ""
    # derived, filled in by __post_init__:
    total: int = field(init=False)           # every trainable parameter once
    non_embedding: int = field(init=False)   # Kaplan et al.'s N: all but the token and position tables and the head

    def __post_init__(self):
        total = (self.token_embedding + self.position_embedding + self.lm_head
                 + self.embedding_projection + self.num_blocks * self.block.total + self.final_norm)
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "non_embedding", total - self.token_embedding - self.position_embedding - self.lm_head)

    @property
    def blocks(self) -> int:
        """All blocks together."""
        return self.num_blocks * self.block.total

    @property
    def embedding_share(self) -> float:
        """Fraction of all parameters in the token embedding matrix E."""
        return self.token_embedding / self.total

    @property
    def vocab_share(self) -> float:
        """Fraction in the vocabulary-sized matrices: E plus an untied head."""
        return (self.token_embedding + self.lm_head) / self.total

    def rows(self) -> list[tuple[str, int | None, int]]:
        """(part, per-block count or None, count) rows of the breakdown, for tables."""
        b = self.block
        rows = [("token embedding", None, self.token_embedding)]
        if self.position_embedding:
            rows.append(("position embedding", None, self.position_embedding))
        if self.embedding_projection:
            rows.append(("embedding projections", None, self.embedding_projection))
        rows += [
            (f"{self.num_blocks} blocks", b.total, self.blocks),
            ("  attention", b.attention, self.num_blocks * b.attention),
            ("  MLP", b.mlp, self.num_blocks * b.mlp),
            ("  norms", b.norms, self.num_blocks * b.norms),
            ("final norm", None, self.final_norm),
            ("LM head" + (" (tied: counted in E)" if self.tied else ""), None, self.lm_head),
        ]
        return rows

    def table(self) -> str:
        """The breakdown as a fixed-width text table."""
        title = f"{self.name or self.model_type} ({self.model_type}, head {'tied' if self.tied else 'untied'})"
        lines = [title, f"{'part':<32}{'per block':>14}{'parameters':>16}{'share':>8}"]
        for part, per_block, count in self.rows():
            per = f"{per_block:,}" if per_block is not None else ""
            lines.append(f"{part:<32}{per:>14}{count:>16,}{count / self.total:>8.1%}")
        lines.append(f"{'total':<32}{'':>14}{self.total:>16,}{1:>8.1%}")
        lines.append(f"{'non-embedding':<32}{'':>14}{self.non_embedding:>16,}{self.non_embedding / self.total:>8.1%}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def _repr_html_(self) -> str:
        title = html.escape(f"{self.name or self.model_type} ({self.model_type}, head {'tied' if self.tied else 'untied'})")
        head = "<tr><th style='text-align:left'>part</th><th>per block</th><th>parameters</th><th>share</th></tr>"
        body = []
        for part, per_block, count in self.rows() + [("total", None, self.total), ("non-embedding", None, self.non_embedding)]:
            per = f"{per_block:,}" if per_block is not None else ""
            style = " style='font-weight:bold'" if part == "total" else ""
            label = html.escape(part.strip()) if not part.startswith("  ") else "&nbsp;&nbsp;" + html.escape(part.strip())
            body.append(f"<tr{style}><td style='text-align:left'>{label}</td><td>{per}</td>"
                        f"<td>{count:,}</td><td>{count / self.total:.1%}</td></tr>")
        return f"<table><caption>{title}</caption>{head}{''.join(body)}</table>"


def count_params(config: dict) -> ParamCount:
    """Count every trainable parameter of the model a config.json describes.

    Exact for the families in FAMILIES: equal to the number of parameters of the
    Hugging Face model instantiated from the same config.
    """
    s = model_shape(config)
    V, d, L, h, h_kv, hd, d_ff = (s.vocab_size, s.hidden_size, s.num_layers, s.num_heads,
                                  s.num_kv_heads, s.head_dim, s.intermediate_size)
    q_width, kv_width = h * hd, h_kv * hd  # query and key/value projection widths
    token_embedding = V * d
    position_embedding = s.learned_positions * d
    projection = 0
    final_norm = 0

    if s.model_type == "gpt2":
        # fused q,k,v (d -> 3d) and output projection, both biased; GELU MLP with biases; 2 LayerNorms
        block = BlockCount(attention=linear(d, 3 * d) + linear(d, d),
                           mlp=linear(d, d_ff) + linear(d_ff, d),
                           norms=2 * 2 * d)
        final_norm = 2 * d
        head_bias = False
    elif s.model_type in ("llama", "mistral", "qwen2", "gemma"):
        # grouped-query attention, SwiGLU MLP (gate, up, down), RMSNorm before attention and MLP
        if s.model_type == "llama":
            qkv_bias = out_bias = _flag(config, "attention_bias", False)
            mlp_bias = _flag(config, "mlp_bias", False)
        elif s.model_type == "qwen2":
            qkv_bias, out_bias, mlp_bias = True, False, False  # Qwen2: biases on q, k, v only
        elif s.model_type == "gemma":
            qkv_bias = out_bias = _flag(config, "attention_bias", False)
            mlp_bias = False
        else:
            qkv_bias = out_bias = mlp_bias = False
        block = BlockCount(attention=linear(d, q_width, qkv_bias) + 2 * linear(d, kv_width, qkv_bias)
                           + linear(q_width, d, out_bias),
                           mlp=2 * linear(d, d_ff, mlp_bias) + linear(d_ff, d, mlp_bias),
                           norms=2 * d)
        final_norm = d
        head_bias = False
    elif s.model_type == "gpt_neox":
        # Pythia: fused q,k,v and dense output, GELU MLP, all biased; 2 LayerNorms; rotary (no parameters)
        bias = _flag(config, "attention_bias", True)
        block = BlockCount(attention=linear(d, 3 * d, bias) + linear(d, d, bias),
                           mlp=linear(d, d_ff) + linear(d_ff, d),
                           norms=2 * 2 * d)
        final_norm = 2 * d
        head_bias = False
    elif s.model_type == "opt":
        bias = _flag(config, "enable_bias", True)
        affine = _flag(config, "layer_norm_elementwise_affine", True)
        ln = 2 * d if affine else 0
        block = BlockCount(attention=4 * linear(d, d, bias),
                           mlp=linear(d, d_ff, bias) + linear(d_ff, d, bias),
                           norms=2 * ln)
        # embeddings narrower than d (OPT-350m) are projected in and out, without bias
        e = _size(config, "word_embed_proj_dim", required=False, default=d)
        token_embedding = V * e
        projection = 0 if e == d else 2 * e * d
        pre_norm = _flag(config, "do_layer_norm_before", True)
        final_norm = ln if pre_norm and not _flag(config, "_remove_final_layer_norm", False) else 0
        head_bias = False
        head_width = e
    elif s.model_type == "phi":
        # attention and MLP side by side after one LayerNorm; biases everywhere; biased untied head
        qk_norm = _flag(config, "qk_layernorm", False)
        block = BlockCount(attention=linear(d, q_width) + 2 * linear(d, kv_width) + linear(q_width, d),
                           mlp=linear(d, d_ff) + linear(d_ff, d),
                           norms=2 * d + (2 * 2 * hd if qk_norm else 0))
        final_norm = 2 * d
        head_bias = True
    else:  # pragma: no cover - model_shape has already rejected it
        raise ValueError(f"model_type={s.model_type!r} is not supported")

    if s.model_type != "opt":
        head_width = d
    # a tied head reuses E, but a head bias (Phi) is its own parameter either way
    lm_head = (0 if s.tied else head_width * V) + (V if head_bias else 0)
    return ParamCount(model_type=s.model_type, tied=s.tied, token_embedding=token_embedding,
                      position_embedding=position_embedding, lm_head=lm_head, num_blocks=L,
                      block=block, final_norm=final_norm, embedding_projection=projection,
                      name=str(config.get("_name", "")))


def estimate_params(vocab_size: int, d: int, num_layers: int) -> int:
    """The rule of thumb V·d + 12·L·d²: the embedding plus 4d² attention and 8d² MLP per block.

    It leaves out biases, norms, a learned position table and an untied head,
    and assumes a 4d MLP with full attention, so compare it with count_params.
    """
    for name, value in (("vocab_size", vocab_size), ("d", d), ("num_layers", num_layers)):
        if not isinstance(value, numbers.Integral) or isinstance(value, bool) or value <= 0:
            raise ValueError(f"{name} must be a positive integer, got {name}={value!r}")
    return int(vocab_size) * int(d) + 12 * int(num_layers) * int(d) ** 2


# --------------------------------------------------------------------------
# The configs of real models, shipped with the package


def available_models() -> list[str]:
    """Names of the shipped model configs, for load_config."""
    return sorted(p.stem for p in DATA_DIR.glob("*.json"))


def load_config(name: str) -> dict:
    """The config.json dict of a shipped real model (a fresh copy you may edit).

    Each has a "_source" field saying where its values come from and a "_name"
    field with the model's name.
    """
    if name not in available_models():
        raise ValueError(f"no shipped config called name={name!r}; available: {', '.join(available_models())}")
    return json.loads((DATA_DIR / f"{name}.json").read_text())
