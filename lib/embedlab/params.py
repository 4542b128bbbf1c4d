"""Count the parameters of a real transformer from its config.json, exactly.

A model page lists a handful of sizes (vocabulary V, width d, layers L, heads h,
key/value heads h_kv, MLP width d_ff, and for a mixture-of-experts model the
number of experts E and how many of them each token uses) and a few switches
(tied head, biases). Those fix every matrix in the model, so the parameter count
follows by multiplication alone: no weights, no framework. Each family is one
entry of the table ``FAMILY_TABLE`` (how it spells its keys, its MLP, attention,
norms, biases, head_dim rule, tying default and expert layout) plus one small
function that lays out its blocks. Every other module (compute, memory, the
calculator) reads the same table. The tests check the totals against counts
obtained by instantiating the real architecture.

    >>> count_params(load_config("gpt2")).total
    124439808

Conventions:

* a tied matrix counts once: with a tied head, ``lm_head`` is 0;
* ``non_embedding = total - token_embedding - position_embedding - lm_head``,
  the N of Kaplan et al. (2020) and of the Pythia and Qwen model cards;
* ``active`` is what one token uses: the total minus the experts it is not
  routed to, input table included (the convention of Mistral AI's Mixtral
  announcement and the Qwen3 model cards). ``active_without_embedding`` leaves
  the input table out. DeepSeek-V3's README_WEIGHTS.md exists in two versions:
  the one released with the model (December 2024) gives "36.7B" activated
  "including 0.9B for Embedding and 0.9B for the output Head", which matches
  neither count; a later revision gives "36.6B (including 0.9B for the output
  Head)", which is ``active_without_embedding``. For a dense model
  ``active == total``;
* a linear layer ``m -> n`` has ``m * n`` weights plus ``n`` biases when it has a bias;
* a LayerNorm has a scale and a shift (2 per channel), an RMSNorm a scale only (1 per channel);
* parameters only, as ``model.parameters()`` yields them: buffers (DeepSeek-V3's
  router score-correction biases) and modules a checkpoint ships but the model
  class does not build (DeepSeek-V3's multi-token-prediction layer) are counted
  apart, by ``checkpoint_extras``.
"""

from __future__ import annotations

import html
import functools
import json
import numbers
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

DATA_DIR = Path(__file__).parent / "data"


# --------------------------------------------------------------------------
# One validation helper for every size the package reads


def positive_int(name: str, value, *, allow_zero: bool = False) -> int:
    """``value`` as an int if it is a positive integer (or 0 with allow_zero); else ValueError naming it.

    Booleans and floats are refused, even 768.0: a size is a count.
    """
    ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if not ok or value < 0 or (value == 0 and not allow_zero):
        kind = "a non-negative integer" if allow_zero else "a positive integer"
        raise ValueError(f"{name} must be {kind}, got {name}={value!r}")
    return int(value)


def positive_number(name: str, value) -> float:
    """``value`` if it is a real number above 0 (not a bool); else ValueError naming it."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool) or not value > 0:
        raise ValueError(f"{name} must be a positive number, got {name}={value!r}")
    return value


# --------------------------------------------------------------------------
# The family table

# our name for a size -> how most families spell it in config.json (first found wins)
_COMMON_KEYS = {
    "vocab_size": ("vocab_size",),
    "hidden_size": ("hidden_size",),
    "num_layers": ("num_hidden_layers",),
    "num_heads": ("num_attention_heads",),
    "num_kv_heads": ("num_key_value_heads",),
    "head_dim": ("head_dim",),
    "intermediate_size": ("intermediate_size",),
    "max_positions": ("max_position_embeddings",),
    "tied": ("tie_word_embeddings",),
}


@dataclass(frozen=True)
class Family:
    """What one model_type's config means: read by params, compute, memory and the calculator.

    * ``gated_mlp``: three d × d_ff matrices (SwiGLU/GeGLU) instead of two;
    * ``attention``: "mha" (one key/value head per query head), "gqa" (reads
      num_key_value_heads) or "mla" (DeepSeek's multi-head latent attention);
    * ``norm``: "layernorm" (scale and shift) or "rmsnorm" (scale only);
      ``block_norms``: how many d-wide norms a block has; ``qk_norm``: "" (none),
      "head" (one head_dim-wide norm each for q and k) or "width" (OLMo 2: over
      all query / all key channels);
    * ``head_dim``: "d/h" (heads tile the width), "config" (read, required),
      "config or d/h", or "mla" (qk_nope_head_dim + qk_rope_head_dim);
    * ``moe``: "" for a dense model, else the expert layout ("mixtral",
      "qwen3_moe", "deepseek");
    * ``keys``: our size names -> the config.json spellings this family uses.
    """

    model_type: str
    layout: Callable  # (config, shape) -> tuple of (number of layers, BlockCount)
    tied_default: bool
    gated_mlp: bool
    attention: str
    norm: str
    block_norms: int
    head_dim: str
    qk_norm: str = ""
    moe: str = ""
    head_bias: bool = False
    keys: dict = field(default_factory=dict)

    def key(self, size: str) -> tuple[str, ...]:
        """The spellings of one of our sizes in this family's config.json (first found wins)."""
        return self.keys.get(size, _COMMON_KEYS.get(size, (size,)))

    @property
    def norm_width(self) -> int:
        """Parameters per channel of one norm: 2 for a LayerNorm, 1 for an RMSNorm."""
        return 2 if self.norm == "layernorm" else 1


def families() -> tuple[str, ...]:
    """Every model_type count_params knows."""
    return tuple(FAMILY_TABLE)


def family(model_type: str) -> Family:
    """The family table's entry for a model_type (ValueError naming it if unknown)."""
    if model_type not in FAMILY_TABLE:
        raise ValueError(f"model_type must be one of {', '.join(FAMILY_TABLE)}; got model_type={model_type!r}")
    return FAMILY_TABLE[model_type]


def config_key(config: dict, size: str) -> str:
    """The key under which this config stores one of our sizes (its family's spelling).

    The first spelling the config already uses, else the family's first one:
    what the calculator writes to when it changes a size.
    """
    fam = family(config.get("model_type"))
    spellings = fam.key(size)
    return next((k for k in spellings if k in config), spellings[0])


# --------------------------------------------------------------------------
# Reading a config


def _size(config: dict, fam: Family, size: str, *, required: bool = True, default=None, allow_zero: bool = False):
    """Read one size (under any of its family's spellings) and check it is a positive integer."""
    spellings = fam.key(size)
    key = next((k for k in spellings if config.get(k) is not None), None)
    if key is None:
        if required:
            raise ValueError(f"config is missing the field {' or '.join(spellings)} (model_type={fam.model_type!r})")
        return default
    return positive_int(key, config[key], allow_zero=allow_zero)


def _flag(config: dict, key: str, default: bool) -> bool:
    value = config.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ValueError(f"{key} must be true or false, got {key}={value!r}")
    return value


@dataclass(frozen=True)
class MoEShape:
    """A mixture-of-experts layout: E experts of width d_ff_expert, k used per token.

    ``moe_layers`` are the indices of the layers whose MLP is the expert block
    (the others keep a dense MLP of width ``intermediate_size``).
    ``shared_experts`` (DeepSeek) is the number of always-used experts, fused
    into one MLP ``shared_experts`` times as wide.
    """

    num_experts: int
    experts_per_token: int
    expert_intermediate_size: int
    moe_layers: tuple[int, ...]
    shared_experts: int = 0


@dataclass(frozen=True)
class MLAShape:
    """DeepSeek's multi-head latent attention: queries and keys/values through low-rank bottlenecks."""

    q_lora_rank: int  # 0: queries projected directly (DeepSeek-V2-Lite)
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int

    @property
    def qk_head_dim(self) -> int:
        return self.qk_nope_head_dim + self.qk_rope_head_dim


@dataclass(frozen=True)
class ModelShape:
    """The sizes that fix every matrix of a model, in the course's notation.

    V = vocab_size, d = hidden_size, L = num_layers, h = num_heads,
    h_kv = num_kv_heads, d_ff = intermediate_size (the dense MLP's width).
    ``learned_positions`` is the number of rows of a learned position table (0
    for rotary positions). ``moe`` and ``mla`` are None for dense models with
    ordinary attention.
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
    moe: MoEShape | None = None
    mla: MLAShape | None = None

    def __iter__(self):
        # `V, d = model_shape(config)` would unpack all twelve fields in order, or fail with Python's
        # "too many values to unpack": say how to read the two it wants instead
        raise TypeError("model_shape(...) gives one object with named sizes, not a pair to unpack: read them by "
                        "name, e.g. shape = model_shape(config); V, d = shape.vocab_size, shape.hidden_size")

    @property
    def kv_cache_width(self) -> int:
        """Numbers a token leaves in the cache of one layer: 2·h_kv·head_dim (keys and values).

        With latent attention (MLA) the cache holds the compressed key/value
        vector and the rotary key part instead: kv_lora_rank + qk_rope_head_dim.
        """
        if self.mla is not None:
            return self.mla.kv_lora_rank + self.mla.qk_rope_head_dim
        return 2 * self.num_kv_heads * self.head_dim


def _moe_shape(config: dict, fam: Family, L: int, d_ff: int) -> MoEShape:
    """Read and check the expert layout of a mixture-of-experts family."""
    E = _size(config, fam, "num_experts", allow_zero=True)
    if E == 0:
        raise ValueError(f"a {fam.model_type} model needs experts, got {fam.key('num_experts')[0]}=0")
    k = _size(config, fam, "experts_per_token")
    if k > E:
        raise ValueError(f"num_experts_per_tok={k} is larger than the number of experts "
                         f"{fam.key('num_experts')[0]}={E}")
    width = _size(config, fam, "expert_intermediate_size", required=fam.moe != "mixtral", default=d_ff)
    shared = 0
    if fam.moe == "mixtral":
        layers = tuple(range(L))
    elif fam.moe == "qwen3_moe":
        step = _size(config, fam, "decoder_sparse_step", required=False, default=1)
        dense = config.get("mlp_only_layers") or []
        if not isinstance(dense, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in dense):
            raise ValueError(f"mlp_only_layers must be a list of layer indices, got mlp_only_layers={dense!r}")
        skipped = set(dense)
        layers = tuple(i for i in range(L) if i not in skipped and (i + 1) % step == 0)
        if not layers:
            raise ValueError(f"no layer has experts: decoder_sparse_step={step} and mlp_only_layers={dense!r} "
                             f"skip every one of num_hidden_layers={L}")
    else:  # deepseek: dense first, then experts every moe_layer_freq layers (DeepSeek's own rule)
        first = _size(config, fam, "first_k_dense_replace", required=False, default=0, allow_zero=True)
        freq = _size(config, fam, "moe_layer_freq", required=False, default=1)
        layers = tuple(i for i in range(L) if i >= first and i % freq == 0)
        if not layers:
            raise ValueError(f"no layer has experts: first_k_dense_replace={first} and moe_layer_freq={freq} "
                             f"skip every one of num_hidden_layers={L}")
        shared = _size(config, fam, "shared_experts", required=False, default=0, allow_zero=True)
    return MoEShape(E, k, width, layers, shared)


MAX_LAYERS = 100_000  # more than any model has; bounds the work of reading a config (the grader reads learners')


def model_shape(config: dict) -> ModelShape:
    """The sizes of a model from its config.json dict, validated.

    Raises ValueError naming the field and the value for an unknown model_type,
    a missing size, a size that is not a positive integer, more than MAX_LAYERS
    layers, heads that do not
    divide the width, a head_dim that does not fit, or an impossible expert
    layout (no experts, more experts per token than experts, a layer frequency
    that leaves no layer with experts).
    """
    if not isinstance(config, dict):
        raise ValueError(f"config must be a dict (a parsed config.json), got config={config!r}")
    fam = family(config.get("model_type"))

    V = _size(config, fam, "vocab_size")
    d = _size(config, fam, "hidden_size")
    L = _size(config, fam, "num_layers")
    if L > MAX_LAYERS:  # an expert layout is walked layer by layer: 10**29 layers would never finish
        raise ValueError(f"{fam.key('num_layers')[0]}={L} is more layers than any model has "
                         f"(at most {MAX_LAYERS:,} here; published models have a few hundred at most)")
    h = _size(config, fam, "num_heads")
    h_kv = h if fam.attention == "mha" else _size(config, fam, "num_kv_heads", required=False, default=h)
    if fam.attention == "mha":
        given = config.get("num_key_value_heads")
        if given is not None and given != h:
            raise ValueError(f"{fam.model_type} has no grouped-query attention, got num_key_value_heads={given!r} "
                             f"with num_attention_heads={h}")

    head_dim = None
    if fam.attention == "mla":  # heads are set by qk_nope_head_dim + qk_rope_head_dim, read below
        head_dim = 0
    elif fam.head_dim == "config":
        head_dim = _size(config, fam, "head_dim")
    elif fam.head_dim == "config or d/h":
        head_dim = _size(config, fam, "head_dim", required=False)
    if head_dim is None:
        if d % h:
            raise ValueError(f"num_attention_heads={h} must divide hidden_size={d} (head_dim = hidden_size / heads)")
        if fam.head_dim == "d/h" and config.get("head_dim") is not None and config["head_dim"] != d // h:
            raise ValueError(f"head_dim={config['head_dim']!r} does not fit: {fam.model_type} heads are "
                             f"hidden_size / num_attention_heads = {d} / {h} = {d // h} wide")
        head_dim = d // h
    if h % h_kv:
        raise ValueError(f"num_key_value_heads={h_kv} must divide num_attention_heads={h} "
                         "(each key/value head serves a group of query heads)")

    if fam.model_type == "gpt2":
        d_ff = _size(config, fam, "intermediate_size", required=False, default=4 * d)  # n_inner: null means 4d
    else:
        d_ff = _size(config, fam, "intermediate_size")

    positions = 0
    if fam.model_type == "gpt2":
        positions = _size(config, fam, "max_positions")
    elif fam.model_type == "opt":
        positions = _size(config, fam, "max_positions") + 2  # OPT's position ids start at 2: two extra rows

    mla = None
    if fam.attention == "mla":
        mla = MLAShape(_size(config, fam, "q_lora_rank", required=False, default=0),
                       _size(config, fam, "kv_lora_rank"), _size(config, fam, "qk_nope_head_dim"),
                       _size(config, fam, "qk_rope_head_dim"), _size(config, fam, "v_head_dim"))
        head_dim = mla.qk_head_dim
    moe = _moe_shape(config, fam, L, d_ff) if fam.moe else None

    tied = _flag(config, "tie_word_embeddings", fam.tied_default)
    return ModelShape(fam.model_type, V, d, L, h, h_kv, head_dim, d_ff, tied, positions, moe, mla)


# --------------------------------------------------------------------------
# Blocks and the count


def linear(m: int, n: int, bias: bool = True) -> int:
    """Parameters of a linear layer from m to n features: m·n weights, plus n biases."""
    return m * n + (n if bias else 0)


def _moe_parts(block: "BlockCount") -> str:
    """What a table's MLP row of a block with experts holds besides them: the router always (d ×
    experts, which a reader adding up the experts alone would miss), and DeepSeek's shared MLP."""
    return f" ({block.experts} experts" + (" + shared" if block.shared_mlp else "") + " + router)"


@dataclass(frozen=True)
class BlockCount:
    """Parameters of one transformer block, by part.

    ``mlp_active`` is the part of the MLP one token uses (the router, the shared
    experts and k of the E routed experts); for a dense MLP it is the MLP.
    ``matmul_weights`` counts the matrix weights one token multiplies in this
    block (attention and the MLP it uses; biases and norms are not matrices):
    what compute.token_costs charges 2 FLOPs each.
    """

    attention: int
    mlp: int
    norms: int
    mlp_active: int | None = None
    matmul_weights: int | None = None
    experts: int = 0  # routed experts in this block's MLP (0: a dense MLP)
    shared_mlp: bool = False  # the MLP also holds a shared MLP that every token uses (DeepSeek)
    total: int = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "total", self.attention + self.mlp + self.norms)
        if self.mlp_active is None:
            object.__setattr__(self, "mlp_active", self.mlp)

    @property
    def active(self) -> int:
        """Parameters of this block one token uses."""
        return self.attention + self.mlp_active + self.norms


@dataclass(frozen=True)
class ParamCount:
    """Every trainable parameter of a model once, by where it lives.

    ``groups`` lists the blocks as (number of layers, BlockCount): one group
    for most models, two when some layers keep a dense MLP and the others have
    experts (DeepSeek's first layers). ``block`` is the block most layers have.
    ``total = token_embedding + position_embedding + lm_head + embedding_projection
    + blocks + final_norm``.
    """

    model_type: str
    tied: bool
    token_embedding: int
    position_embedding: int
    lm_head: int
    groups: tuple[tuple[int, BlockCount], ...]
    final_norm: int
    embedding_projection: int = 0  # OPT-350m projects its 512-wide embeddings to d = 1024 and back
    name: str = ""
    # derived, filled in by __post_init__:
    num_blocks: int = field(init=False)     # L
    block: BlockCount = field(init=False)   # the block most layers have
    total: int = field(init=False)          # every trainable parameter once
    non_embedding: int = field(init=False)  # Kaplan et al.'s N: all but the token and position tables and the head
    active: int = field(init=False)         # what one token uses: total minus the experts it is not routed to

    def __post_init__(self):
        blocks = sum(n * b.total for n, b in self.groups)
        total = (self.token_embedding + self.position_embedding + self.lm_head
                 + self.embedding_projection + blocks + self.final_norm)
        object.__setattr__(self, "num_blocks", sum(n for n, _ in self.groups))
        object.__setattr__(self, "block", max(self.groups, key=lambda g: g[0])[1])
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "non_embedding", total - self.token_embedding - self.position_embedding - self.lm_head)
        object.__setattr__(self, "active", total - sum(n * (b.mlp - b.mlp_active) for n, b in self.groups))

    @property
    def blocks(self) -> int:
        """All blocks together."""
        return sum(n * b.total for n, b in self.groups)

    @property
    def embedding_share(self) -> float:
        """Fraction of all parameters in the token embedding matrix E."""
        return self.token_embedding / self.total

    @property
    def vocab_share(self) -> float:
        """Fraction in the vocabulary-sized matrices: E plus an untied head."""
        return (self.token_embedding + self.lm_head) / self.total

    @property
    def active_without_embedding(self) -> int:
        """The active count without the input table, which a token only looks up (0 FLOPs).

        With an untied head, 2 × this is the matmul FLOPs per token; with a tied
        head the table is also the head, so it stays in (use ``active``).
        """
        return self.active - self.token_embedding

    @property
    def is_moe(self) -> bool:
        """Whether some blocks route tokens to experts."""
        return any(b.experts for _, b in self.groups)

    def rows(self) -> list[tuple[str, int | None, int]]:
        """(part, per-block count or None, count) rows of the breakdown, for tables."""
        rows = [("token embedding", None, self.token_embedding)]
        if self.position_embedding:
            rows.append(("position embedding", None, self.position_embedding))
        if self.embedding_projection:
            rows.append(("embedding projections", None, self.embedding_projection))
        for n, b in self.groups:
            label = f"{n} blocks" if len(self.groups) == 1 else (
                f"{n} blocks with experts" if b.experts else f"{n} dense blocks")
            rows += [
                (label, b.total, n * b.total),
                ("  attention", b.attention, n * b.attention),
                ("  MLP" + (_moe_parts(b) if b.experts else ""), b.mlp, n * b.mlp),
                ("  norms", b.norms, n * b.norms),
            ]
        rows += [
            ("final norm", None, self.final_norm),
            ("LM head" + (" (tied: counted in E)" if self.tied else ""), None, self.lm_head),
        ]
        return rows

    def _footer(self) -> list[tuple[str, int]]:
        rows = [("total", self.total), ("non-embedding", self.non_embedding)]
        if self.is_moe:
            rows.append(("active (used per token)", self.active))
        return rows

    def table(self) -> str:
        """The breakdown as a fixed-width text table (70 characters wide; a few more where a part's name
        is longer, as DeepSeek's MLP row)."""
        title = f"{self.name or self.model_type} ({self.model_type}, head {'tied' if self.tied else 'untied'})"
        w = max([32] + [len(part) + 1 for part, _, _ in self.rows()])
        lines = [title, f"{'part':<{w}}{'per block':>14}{'parameters':>16}{'share':>8}"]
        for part, per_block, count in self.rows():
            per = f"{per_block:,}" if per_block is not None else ""
            lines.append(f"{part:<{w}}{per:>14}{count:>16,}{count / self.total:>8.1%}")
        for part, count in self._footer():
            lines.append(f"{part:<{w}}{'':>14}{count:>16,}{count / self.total:>8.1%}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def _repr_html_(self) -> str:
        title = html.escape(f"{self.name or self.model_type} ({self.model_type}, head {'tied' if self.tied else 'untied'})")
        head = "<tr><th style='text-align:left'>part</th><th>per block</th><th>parameters</th><th>share</th></tr>"
        body = []
        for part, per_block, count in self.rows() + [(p, None, c) for p, c in self._footer()]:
            per = f"{per_block:,}" if per_block is not None else ""
            style = " style='font-weight:bold'" if part == "total" else ""
            label = html.escape(part.strip()) if not part.startswith("  ") else "&nbsp;&nbsp;" + html.escape(part.strip())
            body.append(f"<tr{style}><td style='text-align:left'>{label}</td><td>{per}</td>"
                        f"<td>{count:,}</td><td>{count / self.total:.1%}</td></tr>")
        return f"<table><caption>{title}</caption>{head}{''.join(body)}</table>"


# -- the pieces blocks are made of ------------------------------------------


def _mlp(d: int, d_ff: int, gated: bool, bias: bool = False) -> tuple[int, int]:
    """(parameters, matrix weights) of one MLP: gate, up and down when gated, else up and down."""
    weights = (3 if gated else 2) * d * d_ff
    return weights + ((2 * d_ff if gated else d_ff) + d if bias else 0), weights


def _gqa(s: ModelShape, qkv_bias: bool, out_bias: bool) -> tuple[int, int]:
    """(parameters, matrix weights) of q, k, v and output projections with h_kv key/value heads."""
    q, kv, d = s.num_heads * s.head_dim, s.num_kv_heads * s.head_dim, s.hidden_size
    weights = d * q + 2 * d * kv + q * d
    return weights + ((q + 2 * kv) if qkv_bias else 0) + (d if out_bias else 0), weights


def _qk_norms(fam: Family, s: ModelShape) -> int:
    if fam.qk_norm == "head":
        return 2 * s.head_dim * fam.norm_width
    if fam.qk_norm == "width":
        return (s.num_heads + s.num_kv_heads) * s.head_dim * fam.norm_width
    return 0


def _block(fam: Family, s: ModelShape, attention: tuple[int, int], mlp: tuple[int, int], extra_norms: int = 0) -> BlockCount:
    return BlockCount(attention=attention[0], mlp=mlp[0],
                      norms=fam.block_norms * s.hidden_size * fam.norm_width + _qk_norms(fam, s) + extra_norms,
                      matmul_weights=attention[1] + mlp[1])


def _experts(fam: Family, s: ModelShape, bias: bool = False) -> tuple[int, int, int]:
    """(parameters, parameters one token uses, matrix weights one token multiplies) of an expert block.

    A router (d × E, no bias), E gated experts of width d_ff_expert, and the
    shared experts fused into one MLP, which every token uses.
    """
    m, d = s.moe, s.hidden_size
    router = d * m.num_experts
    expert, expert_weights = _mlp(d, m.expert_intermediate_size, fam.gated_mlp)
    # DeepSeek always builds the shared MLP (a bias survives even with n_shared_experts = 0)
    shared, shared_weights = _mlp(d, m.shared_experts * m.expert_intermediate_size, fam.gated_mlp, bias) \
        if fam.moe == "deepseek" else (0, 0)
    return (router + m.num_experts * expert + shared,
            router + m.experts_per_token * expert + shared,
            router + m.experts_per_token * expert_weights + shared_weights)


def _uniform(block: BlockCount, s: ModelShape) -> tuple[tuple[int, BlockCount], ...]:
    return ((s.num_layers, block),)


def _split(fam: Family, s: ModelShape, attention: tuple[int, int], dense: tuple[int, int], extra_norms: int = 0,
           mlp_bias: bool = False) -> tuple[tuple[int, BlockCount], ...]:
    """Layers with experts and (if any) layers with a dense MLP, as two groups."""
    total, active, weights = _experts(fam, s, mlp_bias)
    norms = fam.block_norms * s.hidden_size * fam.norm_width + _qk_norms(fam, s) + extra_norms
    moe_block = BlockCount(attention[0], total, norms, mlp_active=active, matmul_weights=attention[1] + weights,
                           experts=s.moe.num_experts, shared_mlp=fam.moe == "deepseek")
    n_moe = len(s.moe.moe_layers)
    groups = []
    if s.num_layers > n_moe:
        groups.append((s.num_layers - n_moe, _block(fam, s, attention, dense, extra_norms)))
    groups.append((n_moe, moe_block))
    return tuple(groups)


# -- one small function per family: its blocks, from its config ------------------


def _gpt2(config, s, fam):
    # fused q,k,v (d -> 3d) and output projection, both biased; GELU MLP with biases; 2 LayerNorms
    d = s.hidden_size
    return _uniform(_block(fam, s, (linear(d, 3 * d) + linear(d, d), 4 * d * d), _mlp(d, s.intermediate_size, False, True)), s)


def _llama(config, s, fam):
    # grouped-query attention, SwiGLU MLP (gate, up, down), RMSNorm before attention and MLP
    bias = _flag(config, "attention_bias", False)
    return _uniform(_block(fam, s, _gqa(s, bias, bias), _mlp(s.hidden_size, s.intermediate_size, True,
                                                             _flag(config, "mlp_bias", False))), s)


def _mistral(config, s, fam):
    return _uniform(_block(fam, s, _gqa(s, False, False), _mlp(s.hidden_size, s.intermediate_size, True)), s)


def _qwen2(config, s, fam):
    # Qwen2: biases on q, k, v only
    return _uniform(_block(fam, s, _gqa(s, True, False), _mlp(s.hidden_size, s.intermediate_size, True)), s)


def _attention_bias_gated(config, s, fam):
    # Gemma 1-3, Qwen3, OLMo 2: attention_bias switches every attention bias; no MLP biases
    bias = _flag(config, "attention_bias", False)
    return _uniform(_block(fam, s, _gqa(s, bias, bias), _mlp(s.hidden_size, s.intermediate_size, True)), s)


def _gpt_neox(config, s, fam):
    # Pythia: fused q,k,v and dense output, GELU MLP, all biased; 2 LayerNorms; rotary (no parameters)
    d, bias = s.hidden_size, _flag(config, "attention_bias", True)
    return _uniform(_block(fam, s, (linear(d, 3 * d, bias) + linear(d, d, bias), 4 * d * d),
                           _mlp(d, s.intermediate_size, False, True)), s)


def _opt(config, s, fam):
    d, bias = s.hidden_size, _flag(config, "enable_bias", True)
    block = _block(fam, s, (4 * linear(d, d, bias), 4 * d * d), _mlp(d, s.intermediate_size, False, bias))
    if not _flag(config, "layer_norm_elementwise_affine", True):
        block = BlockCount(block.attention, block.mlp, 0, matmul_weights=block.matmul_weights)
    return _uniform(block, s)


def _phi(config, s, fam):
    # attention and MLP side by side after one LayerNorm; biases everywhere; optional q/k LayerNorms
    qk = 2 * 2 * s.head_dim if _flag(config, "qk_layernorm", False) else 0
    return _uniform(_block(fam, s, _gqa(s, True, True), _mlp(s.hidden_size, s.intermediate_size, False, True), qk), s)


def _phi3(config, s, fam):
    # q, k, v fused into one qkv_proj and gate, up into one gate_up_proj: the same matrices, no biases
    return _uniform(_block(fam, s, _gqa(s, False, False), _mlp(s.hidden_size, s.intermediate_size, True)), s)


def _mixtral(config, s, fam):
    return _split(fam, s, _gqa(s, False, False), (0, 0))


def _qwen3_moe(config, s, fam):
    bias = _flag(config, "attention_bias", False)
    return _split(fam, s, _gqa(s, bias, bias), _mlp(s.hidden_size, s.intermediate_size, True))


def _deepseek(config, s, fam):
    # multi-head latent attention: queries through an optional low-rank bottleneck (q_a -> norm -> q_b),
    # keys and values through a shared one (kv_a -> norm -> kv_b), plus a small rotary key part
    m, d, h = s.mla, s.hidden_size, s.num_heads
    bias = _flag(config, "attention_bias", False)
    if m.q_lora_rank:
        q = linear(d, m.q_lora_rank, bias) + linear(m.q_lora_rank, h * m.qk_head_dim, False)
        q_weights = d * m.q_lora_rank + m.q_lora_rank * h * m.qk_head_dim
    else:
        q = q_weights = d * h * m.qk_head_dim
    kv_a = m.kv_lora_rank + m.qk_rope_head_dim
    kv = linear(d, kv_a, bias) + linear(m.kv_lora_rank, h * (m.qk_nope_head_dim + m.v_head_dim), False)
    kv_weights = d * kv_a + m.kv_lora_rank * h * (m.qk_nope_head_dim + m.v_head_dim)
    out = linear(h * m.v_head_dim, d, bias)
    attention = (q + kv + out, q_weights + kv_weights + h * m.v_head_dim * d)
    latent_norms = m.kv_lora_rank + m.q_lora_rank  # the bottlenecks' RMSNorms
    mlp_bias = fam.model_type == "deepseek_v2" and _flag(config, "mlp_bias", False)
    return _split(fam, s, attention, _mlp(d, s.intermediate_size, True, mlp_bias), latent_norms, mlp_bias)


_GPT2_KEYS = {"hidden_size": ("n_embd", "hidden_size"), "num_layers": ("n_layer", "num_hidden_layers"),
              "num_heads": ("n_head", "num_attention_heads"), "intermediate_size": ("n_inner", "intermediate_size"),
              "max_positions": ("n_positions", "max_position_embeddings")}
_MOE_KEYS = {"experts_per_token": ("num_experts_per_tok",), "decoder_sparse_step": ("decoder_sparse_step",)}
_DEEPSEEK_KEYS = _MOE_KEYS | {"num_experts": ("n_routed_experts",), "shared_experts": ("n_shared_experts",),
                              "expert_intermediate_size": ("moe_intermediate_size",)}

FAMILY_TABLE: dict[str, Family] = {f.model_type: f for f in (
    Family("gpt2", _gpt2, True, False, "mha", "layernorm", 2, "d/h", keys=_GPT2_KEYS),
    Family("llama", _llama, False, True, "gqa", "rmsnorm", 2, "config or d/h"),
    Family("mistral", _mistral, False, True, "gqa", "rmsnorm", 2, "config or d/h"),
    Family("qwen2", _qwen2, False, True, "gqa", "rmsnorm", 2, "d/h"),
    Family("gemma", _attention_bias_gated, True, True, "gqa", "rmsnorm", 2, "config"),
    Family("gpt_neox", _gpt_neox, False, False, "mha", "layernorm", 2, "d/h"),
    Family("opt", _opt, True, False, "mha", "layernorm", 2, "d/h", keys={"intermediate_size": ("ffn_dim",)}),
    Family("phi", _phi, False, False, "gqa", "layernorm", 1, "d/h", head_bias=True),
    # Gemma 2 and 3: a norm before and after both attention and MLP (four per block)
    Family("gemma2", _attention_bias_gated, True, True, "gqa", "rmsnorm", 4, "config"),
    Family("gemma3_text", _attention_bias_gated, True, True, "gqa", "rmsnorm", 4, "config", qk_norm="head"),
    Family("qwen3", _attention_bias_gated, False, True, "gqa", "rmsnorm", 2, "config", qk_norm="head"),
    # OLMo 2: norms after attention and after the MLP only, and q/k norms over all their channels
    Family("olmo2", _attention_bias_gated, False, True, "gqa", "rmsnorm", 2, "config or d/h", qk_norm="width"),
    Family("phi3", _phi3, False, True, "gqa", "rmsnorm", 2, "config or d/h"),
    Family("mixtral", _mixtral, False, True, "gqa", "rmsnorm", 2, "config or d/h", moe="mixtral",
           keys=_MOE_KEYS | {"num_experts": ("num_local_experts",),
                             "expert_intermediate_size": ("intermediate_size",)}),
    Family("qwen3_moe", _qwen3_moe, False, True, "gqa", "rmsnorm", 2, "config", qk_norm="head", moe="qwen3_moe",
           keys=_MOE_KEYS | {"num_experts": ("num_experts",), "expert_intermediate_size": ("moe_intermediate_size",)}),
    Family("deepseek_v2", _deepseek, False, True, "mla", "rmsnorm", 2, "mla", moe="deepseek",
           keys=_DEEPSEEK_KEYS),
    Family("deepseek_v3", _deepseek, False, True, "mla", "rmsnorm", 2, "mla", moe="deepseek",
           keys=_DEEPSEEK_KEYS),
)}

FAMILIES = families()


def count_params(config: dict) -> ParamCount:
    """Count every trainable parameter of the model a config.json describes.

    Exact for the families in FAMILIES: equal to the number of parameters of the
    Hugging Face model instantiated from the same config.
    """
    s = model_shape(config)
    fam = FAMILY_TABLE[s.model_type]
    V, d = s.vocab_size, s.hidden_size
    groups = fam.layout(config, s, fam)
    token_embedding = V * d
    head_width = d
    projection = 0
    final_norm = d * fam.norm_width
    if s.model_type == "opt":
        # embeddings narrower than d (OPT-350m) are projected in and out, without bias
        e = _size(config, fam, "word_embed_proj_dim", required=False, default=d)
        token_embedding, head_width = V * e, e
        projection = 0 if e == d else 2 * e * d
        affine = _flag(config, "layer_norm_elementwise_affine", True)
        pre_norm = _flag(config, "do_layer_norm_before", True)
        final_norm = 2 * d if affine and pre_norm and not _flag(config, "_remove_final_layer_norm", False) else 0
    # a tied head reuses E, but a head bias (Phi) is its own parameter either way
    lm_head = (0 if s.tied else head_width * V) + (V if fam.head_bias else 0)
    return ParamCount(model_type=s.model_type, tied=s.tied, token_embedding=token_embedding,
                      position_embedding=s.learned_positions * d, lm_head=lm_head, groups=groups,
                      final_norm=final_norm, embedding_projection=projection, name=str(config.get("_name", "")))


def checkpoint_extras(config: dict) -> dict[str, int]:
    """Numbers a released checkpoint stores that ``count_params`` (like ``model.parameters()``) leaves out.

    * "multi-token prediction module": DeepSeek-V3 ships ``num_nextn_predict_layers``
      extra blocks for predicting a second token ahead (used in training and for
      speculative decoding). Each is one more expert block plus two RMSNorms
      (enorm, hnorm) on the token and hidden inputs, a 2d -> d projection
      (eh_proj) and a norm before the head, which it shares with the main model
      along with the embedding. Transformers does not build it.
    * "router score-correction biases (buffers)": DeepSeek-V3's router keeps one
      bias per expert per expert layer, adjusted by a rule rather than by
      gradients, so the model class holds it as a buffer, not a parameter. The
      multi-token-prediction block is an expert layer too, with its own router
      and bias: 58 + 1 layers of 256, 15,104 numbers (transformers' model class,
      which has no such block, holds the main model's 58 × 256 = 14,848).

    An empty dict for every other family.
    """
    s = model_shape(config)
    extras = {}
    if s.model_type == "deepseek_v3":
        fam = FAMILY_TABLE[s.model_type]
        mtp_layers = _size(config, fam, "num_nextn_predict_layers", required=False, default=0, allow_zero=True)
        if mtp_layers:
            moe_block = next(b for _, b in fam.layout(config, s, fam) if b.experts)
            d = s.hidden_size
            extras["multi-token prediction module"] = mtp_layers * (moe_block.total + 3 * d + 2 * d * d)
        # one bias per expert in each expert layer, the multi-token-prediction blocks' included
        extras["router score-correction biases (buffers)"] = (len(s.moe.moe_layers) + mtp_layers) * s.moe.num_experts
    return extras


def estimate_params(vocab_size: int, d: int, num_layers: int, *, num_experts: int = 1,
                    experts_per_token: int | None = None, active: bool = False) -> int:
    """The rule of thumb V·d + 12·L·d²: the embedding plus 4d² attention and 8d² MLP per block.

    With ``num_experts`` E, each block holds E MLPs (V·d + L·(4d² + 8E·d²));
    ``active=True`` counts only the ``experts_per_token`` MLPs a token uses.
    It leaves out biases, norms, a learned position table, an untied head and
    routers, and assumes a 4d MLP with full attention, so compare it with count_params.
    """
    V, d, L = positive_int("vocab_size", vocab_size), positive_int("d", d), positive_int("num_layers", num_layers)
    E = positive_int("num_experts", num_experts)
    k = E if experts_per_token is None else positive_int("experts_per_token", experts_per_token)
    if k > E:
        raise ValueError(f"experts_per_token={k} is larger than num_experts={E}")
    if not isinstance(active, bool):
        raise ValueError(f"active must be True or False, got active={active!r}")
    return V * d + L * (4 * d * d + 8 * (k if active else E) * d * d)


# --------------------------------------------------------------------------
# The configs of real models, shipped with the package


def available_models() -> list[str]:
    """Names of the shipped model configs, for load_config."""
    return list(_shipped())


@functools.lru_cache(maxsize=1)
def _shipped() -> tuple[str, ...]:
    # The shipped files never change while the package is loaded: listed once (class mode's
    # variant draws load configs thousands of times).
    return tuple(sorted(p.stem for p in DATA_DIR.glob("*.json")))


@functools.lru_cache(maxsize=None)
def _config_text(name: str) -> str:
    return (DATA_DIR / f"{name}.json").read_text()


def load_config(name: str) -> dict:
    """The config.json dict of a shipped real model (a fresh copy you may edit).

    Each has a "_source" field saying where its values come from and a "_name"
    field with the model's name.
    """
    if name not in _shipped():
        raise ValueError(f"no shipped config called name={name!r}; available: {', '.join(available_models())}")
    return json.loads(_config_text(name))


TOKENIZER_SIZES = DATA_DIR / "shipped" / "tokenizer-sizes.json"


@functools.lru_cache(maxsize=1)
def _tokenizer_sizes() -> dict:
    return json.loads(TOKENIZER_SIZES.read_text())


def n_tokens(name: str) -> int:
    """len(tokenizer) of a shipped model's own tokenizer: its tokens have the ids 0 .. n_tokens - 1.

    The config's vocab_size counts the table's rows, which may be padded past the tokens
    (Pythia: 50,277 tokens in 50,304 rows); a token added to the tokenizer gets the id
    len(tokenizer), so it may land in a padding row. Each count names its source
    (``token_source``); ValueError naming the model when the course has none to cite.
    """
    load_config(name)  # an unknown name: the error lists the shipped configs
    entry = _tokenizer_sizes()["tokens"].get(name)
    if entry is None:
        raise ValueError(f"no cited tokenizer size for name={name!r}; the course has one for "
                         f"{', '.join(_tokenizer_sizes()['tokens'])}")
    return int(entry[0])


def token_source(name: str) -> str:
    """Where ``n_tokens(name)`` comes from, in words."""
    n_tokens(name)
    data = _tokenizer_sizes()
    return data["sources"][data["tokens"][name][1]]


# --------------------------------------------------------------------------
# Lesson 03's pattern within a family, checked on every shipped pair


@dataclass(frozen=True)
class ShareRise:
    """Two shipped models of one ``model_type`` where the larger one (more parameters) spends the
    larger share on its vocabulary matrices (``count_params(...).vocab_share``: E and an untied head),
    and what else differs between them (``differences``; empty if nothing but their size does)."""

    family: str
    smaller: str
    larger: str
    smaller_share: float
    larger_share: float
    differences: tuple[str, ...]


def _tokens_or_rows(name: str) -> int:
    """The tokenizer's tokens where the course cites them, else the table's rows."""
    try:
        return n_tokens(name)
    except ValueError:
        return model_shape(load_config(name)).vocab_size


def share_differences(smaller: str, larger: str) -> tuple[str, ...]:
    """What a shipped model `larger` changes from `smaller` besides its size, of the three things
    that set the vocabulary's share: the tokenizer (its tokens, ``n_tokens``, else the rows), tying,
    and a table narrower than the model's width ``d`` (OPT-350M's)."""
    out = []
    tokens = _tokens_or_rows(smaller), _tokens_or_rows(larger)
    if tokens[0] != tokens[1]:
        out.append(f"tokens {tokens[0]:,} vs {tokens[1]:,}")
    counts = [count_params(load_config(name)) for name in (smaller, larger)]
    if counts[0].tied != counts[1].tied:
        out.append("head " + " vs ".join("tied" if c.tied else "untied" for c in counts))
    for name, c in zip((smaller, larger), counts):
        s = model_shape(load_config(name))
        width = c.token_embedding // s.vocab_size
        if width != s.hidden_size:
            out.append(f"{name}'s E is {width:,} wide, d = {s.hidden_size:,}")
    return tuple(out)


def share_rises(names: list[str] | None = None) -> list[ShareRise]:
    """Every pair of models of one ``model_type`` (of `names`, default every shipped model) where the
    larger spends the larger share of its parameters on E and its head: the exceptions to lesson 03's
    "the larger the model, the smaller its vocabulary's share", each with ``share_differences``.
    Sorted by family, then by the smaller model's size. ValueError naming an unknown model."""
    names = available_models() if names is None else list(names)
    models = []
    for name in names:
        config = load_config(name)  # an unknown name: ValueError listing the shipped ones
        models.append((config["model_type"], count_params(config).total, name,
                       count_params(config).vocab_share))
    rises = []
    models.sort()
    for i, (family, total_a, a, share_a) in enumerate(models):
        for family_b, total_b, b, share_b in models[i + 1:]:
            if family_b == family and total_b > total_a and share_b > share_a:
                rises.append(ShareRise(family, a, b, share_a, share_b, share_differences(a, b)))
    return rises
