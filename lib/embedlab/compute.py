"""What a forward pass costs in FLOPs, and where they go, from a model's config.

Parameters and compute are different budgets. A matrix used in a matmul costs
2 FLOPs per weight per token (a multiply and an add); a table that is only
looked up costs nothing. So the same config gives:

* **input**: the embedding lookup copies d numbers per token: 0 FLOPs, however
  large V is. Adding a learned position row costs d additions (GPT-2); a
  narrow embedding projected up to d (OPT-350m) is a real matmul, counted here.
* **blocks**: every matrix of every block, 2 FLOPs per weight per token.
  Biases, norms and activation functions (a few FLOPs per number, not per
  weight) are left out, as in Kaplan et al. (2020).
* **attention**: a token attending to t positions computes t scores and a
  weighted sum of t values in each head: 4·t·h·head_dim FLOPs per block. This
  grows with the context, it has no parameters, and grouped-query attention
  (h_kv < h) does not reduce it: every query head still does its dot products.
  The softmax (a few FLOPs per score) is left out.
* **head**: the LM head is a d × V matmul, 2·d·V FLOPs for every position that
  needs logits: all of them in training, only the last one when generating.
* **experts**: a mixture-of-experts block costs only what a token uses: its
  router, the shared experts and the k experts it is sent to. Compute per token
  follows the active parameters, while memory holds every expert.

Training costs about 3 forward passes (the backward pass computes gradients for
the activations and for the weights, each about one forward), hence ≈ 6·N FLOPs
per token, against ≈ 2·N for a forward pass.

Write FLOPs for a count of operations; FLOP/s for a rate.
"""

from __future__ import annotations

from dataclasses import dataclass

from .params import count_params, model_shape, positive_int as _positive_int

@dataclass(frozen=True)
class Flops:
    """FLOPs of one pass, by where they are spent. `tokens` is how many tokens it covers."""

    input: int
    blocks: int
    attention: int
    head: int
    tokens: int = 1

    @property
    def total(self) -> int:
        return self.input + self.blocks + self.attention + self.head

    @property
    def per_token(self) -> float:
        return self.total / self.tokens

    def share(self, part: str) -> float:
        """Fraction of the total spent in one part ("input", "blocks", "attention", "head")."""
        if part not in ("input", "blocks", "attention", "head"):
            raise ValueError(f"part must be one of input, blocks, attention, head, got part={part!r}")
        return getattr(self, part) / self.total

    def __mul__(self, k: int) -> "Flops":
        return Flops(self.input * k, self.blocks * k, self.attention * k, self.head * k, self.tokens)

    __rmul__ = __mul__

    def table(self) -> str:
        rows = [(p, getattr(self, p)) for p in ("input", "blocks", "attention", "head")] + [("total", self.total)]
        lines = [f"{'part':<10}{'FLOPs':>22}{'share':>8}"]
        lines += [f"{p:<10}{v:>22,}{v / self.total:>8.1%}" for p, v in rows]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


@dataclass(frozen=True)
class TokenCosts:
    """The per-token pieces every count below is built from (see the module docstring)."""

    input: int  # per token
    blocks: int  # per token, matmuls of all L blocks
    attention_per_key: int  # per token, per position attended to: 4·L·h·head_dim
    head: int  # per position that needs logits


def token_costs(config: dict) -> TokenCosts:
    """FLOPs per token of each part, from the config (matmul weights × 2).

    The blocks' matrices come from count_params (each BlockCount knows the
    matrix weights one token multiplies), so a mixture-of-experts model is
    charged for the experts a token is routed to, the shared experts and the
    router, not for the experts it skips. With latent attention (DeepSeek) the
    scores use qk_nope_head_dim + qk_rope_head_dim numbers per head and the
    values v_head_dim, computed as transformers does (keys and values expanded
    per head).
    """
    s = model_shape(config)
    count = count_params(config)
    width = count.token_embedding // s.vocab_size  # the embedding's width (d, except OPT-350m)
    # a narrow embedding is projected up to d at the input and back down before the head
    project = count.embedding_projection // 2
    input_flops = (s.hidden_size if s.learned_positions else 0) + 2 * project
    if s.mla is not None:
        per_key = 2 * s.num_heads * (s.mla.qk_head_dim + s.mla.v_head_dim)  # scores, then the weighted values
    else:
        per_key = 4 * s.num_heads * s.head_dim
    return TokenCosts(
        input=input_flops,
        blocks=2 * sum(n * b.matmul_weights for n, b in count.groups),
        attention_per_key=s.num_layers * per_key,
        head=2 * width * s.vocab_size + 2 * project,
    )


def forward_flops(config: dict, seq_len: int, logits: str = "all") -> Flops:
    """FLOPs of one causal forward pass over `seq_len` tokens.

    Token t (1-based) attends to t positions, so the attention term sums to
    4·L·h·head_dim · T(T+1)/2. `logits="all"` computes the head at every position
    (training, scoring a text); `logits="last"` only at the last one (reading a
    prompt to generate the next token).
    """
    T = _positive_int("seq_len", seq_len)
    if logits not in ("all", "last"):
        raise ValueError(f"logits must be 'all' or 'last', got logits={logits!r}")
    c = token_costs(config)
    return Flops(
        input=T * c.input,
        blocks=T * c.blocks,
        attention=c.attention_per_key * T * (T + 1) // 2,
        head=c.head * (T if logits == "all" else 1),
        tokens=T,
    )


def decode_step_flops(config: dict, context: int) -> Flops:
    """FLOPs to generate one token that attends to `context` positions (itself included).

    With a KV cache the earlier tokens are not recomputed: the new token goes
    through the input, the blocks, attention over the cache, and the head once.
    """
    n = _positive_int("context", context)
    c = token_costs(config)
    return Flops(input=c.input, blocks=c.blocks, attention=c.attention_per_key * n, head=c.head, tokens=1)


def training_flops(config: dict, seq_len: int) -> Flops:
    """FLOPs of one training step on one sequence: forward with logits everywhere, ×3 for backward."""
    return 3 * forward_flops(config, seq_len, logits="all")


def rule_of_thumb_flops(n_params: int, tokens: int = 1, training: bool = True) -> int:
    """C ≈ 6·N·D for training, 2·N·D for a forward pass (Kaplan et al. 2020, Sec. 2.1)."""
    N = _positive_int("n_params", n_params)
    D = _positive_int("tokens", tokens)
    if not isinstance(training, bool):
        raise ValueError(f"training must be True or False, got training={training!r}")
    return (6 if training else 2) * N * D


def break_even_ratio(config_small: dict, config_big: dict, n_tokens: int | None = None) -> float:
    """The token ratio r = tokens(big) / tokens(small) at which generating a text costs the same FLOPs.

    Two models that differ in vocabulary (or in anything else): the bigger one
    must cut a text to fewer than r times as many tokens to be cheaper. Without
    `n_tokens`, only the per-token work counts (input, blocks, head): r is the
    ratio of the per-token costs. With `n_tokens` (the small model's tokens for
    the text), attention over the context is included, every position needing
    logits, as in generation; r then solves
    forward_flops(big, r·n) = forward_flops(small, n) with the token count
    treated as continuous.
    """
    small, big = token_costs(config_small), token_costs(config_big)
    per_small = small.input + small.blocks + small.head
    per_big = big.input + big.blocks + big.head
    if n_tokens is None:
        return per_small / per_big
    n = _positive_int("n_tokens", n_tokens)
    target = forward_flops(config_small, n).total
    # big model on m tokens: a·m(m+1)/2 + per_big·m = target, a quadratic in m
    a = big.attention_per_key
    half = a / 2 + per_big
    m = (-half + (half * half + 2 * a * target) ** 0.5) / a if a else target / per_big
    return m / n
