"""Exercise 04 `modern-blocks`: count grouped-query attention, SwiGLU, padding and any Llama.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import math

import numpy as np

from embedlab.grading.kinds import (Function, Hint, Integer, Real, Shortcut, offset, padding_rechecks, ratio,
                                    rounded_down)
from embedlab.grading.parts import absent, Alt, Answer, belongs_elsewhere, Extra, Part, Prod, Ratio, Sum
from embedlab.grading.space import Space, equal_to_book
from embedlab.params import count_params, load_config, model_shape

LESSON = "04-modern-blocks"

# --------------------------------------------------------------------------
# The variant space (every model a shipped config in embedlab/data)

# Question 1 (one layer's attention): grouped-query attention (h_kv < h) and no biases in the q, k,
# v and o projections (Qwen3's per-head q/k norms are not projections). Not Qwen2.5 (q, k and v
# have biases), not the models without GQA; only one of the models whose attention is the same size
# (Llama-3-8B's is also Mistral-7B's, Mixtral's and Qwen3-8B's), so that every variant differs.
ATTN_MODELS = ["llama-3-8b", "llama-3.2-3b", "smollm2-135m", "qwen3-0.6b", "gemma-2b", "gemma-2-2b",
               "gemma-2-9b", "gemma-3-1b", "qwen3-30b-a3b"]
# Question 2 (one layer's MLP): a dense SwiGLU MLP without biases (not Gemma's GeGLU, not the
# experts of a mixture); only one of the models whose MLP is the same size (Mistral-7B's is Llama-3-8B's,
# OLMo-2's Llama-2-7B's, Phi-3-mini's Llama 3.2 3B's).
MLP_MODELS = ["llama-2-7b", "llama-3-8b", "llama-3.2-3b", "smollm2-135m", "qwen3-0.6b", "qwen3-8b",
              "qwen2.5-0.5b", "qwen2.5-7b"]
# Question 3 (the vocabulary's share): an untied head (two V x d matrices) and no head bias
# (Phi-1.5 and Phi-2 have one).
SHARE_MODELS = ["llama-2-7b", "mistral-7b", "mixtral-8x7b", "qwen2.5-7b", "qwen3-8b", "qwen3-30b-a3b",
                "olmo-2-1124-7b", "phi-3-mini-4k"]
# Question 4 (padding): a tied head whose V is not a multiple of 64 (the vocabularies of Llama 3.2,
# Gemma, Qwen and SmolLM2 are multiples of 128); not OPT-350m (its table is 512 wide, projected
# up to 1,024). 128 is left out: it pads these vocabularies exactly as 64 does.
PAD_MODELS = ["gpt2-medium", "gpt2-large", "gpt2-xl", "opt-125m", "opt-1.3b"]
PAD_MULTIPLES = [64, 256, 512]  # rows a vocabulary is rounded up to a multiple of
PAD_CASES = [(model, multiple) for model in PAD_MODELS for multiple in PAD_MULTIPLES]

DEFAULTS = {
    "attn_model": "llama-3.2-1b",
    "mlp_model": "llama-3.2-1b",
    "share_model": "llama-3-8b",
    "pad_model": "gpt2",
    "pad_multiple": 64,
}


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: each question's model (and the padding) picked from its pool, so that
    up to 8 variants all differ on every question (each pool has 8 or more items, no two with
    the same answer)."""
    pad_model, pad_multiple = pick("padding", PAD_CASES)
    return {"attn_model": pick("attn_model", ATTN_MODELS), "mlp_model": pick("mlp_model", MLP_MODELS),
            "share_model": pick("share_model", SHARE_MODELS), "pad_model": pad_model, "pad_multiple": pad_multiple}


def padded(V: int, multiple: int) -> int:
    """V rounded up to a multiple of `multiple`."""
    return -(-V // multiple) * multiple


def answers(p: dict) -> dict:
    """Every non-function answer of a variant, computed here only to vet the variant (`problems`);
    the answer key itself is harvested by running the solution notebook."""
    s = model_shape(load_config(p["attn_model"]))
    d, h, h_kv, head_dim = s.hidden_size, s.num_heads, s.num_kv_heads, s.head_dim
    m = model_shape(load_config(p["mlp_model"]))
    c = count_params(load_config(p["share_model"]))
    pad = model_shape(load_config(p["pad_model"]))
    return {"attn_layer": 2 * d * h * head_dim + 2 * d * h_kv * head_dim, "mlp_layer": 3 * m.hidden_size * m.intermediate_size,
            "vocab_share": (c.token_embedding + c.lm_head) / c.total,
            "padding_params": (padded(pad.vocab_size, p["pad_multiple"]) - pad.vocab_size) * pad.hidden_size}


def problems(p: dict) -> list[str]:
    """What makes a drawn variant unusable: a degenerate question, or an answer equal to the book's."""
    out = []
    attn = model_shape(load_config(p["attn_model"]))
    if attn.num_kv_heads >= attn.num_heads:
        out.append(f"{p['attn_model']} has no grouped-query attention")
    if model_shape(load_config(p["mlp_model"])).moe is not None:
        out.append(f"{p['mlp_model']}'s MLP is experts")
    if model_shape(load_config(p["share_model"])).tied:
        out.append(f"{p['share_model']}'s head is tied")
    pad = model_shape(load_config(p["pad_model"]))
    if not pad.tied:
        out.append(f"{p['pad_model']}'s head is untied")
    if pad.vocab_size % p["pad_multiple"] == 0:
        out.append(f"{p['pad_model']}'s vocabulary needs no padding to a multiple of {p['pad_multiple']}")
    if out:
        return out
    mine, book = answers(p), answers(DEFAULTS)
    return out + equal_to_book(mine, book)


def _describe() -> str:
    return (f"attn_model (question 1): one of {', '.join(ATTN_MODELS)}; mlp_model (question 2): one of "
            f"{', '.join(MLP_MODELS)}; share_model (question 3): one of {', '.join(SHARE_MODELS)}; "
            f"pad_model and pad_multiple (question 4): one of {', '.join(PAD_MODELS)} with one of "
            f"{PAD_MULTIPLES}; each different in every variant up to its pool's size (8 or more)")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(),
              fixed={"llama_params": "a function, checked on the question's own inputs: Llama-3-8B, Llama 3.2 1B, "
                                     "Llama-2-7B, Llama-3.1-405B, a one-kv-head shape, then random shapes"})

# --------------------------------------------------------------------------
# The questions


def llama_params(V, d, L, h, h_kv, d_ff, tied):
    """Reference: the exact count of a Llama-style model (head_dim = d / h, no biases)."""
    config = {"model_type": "llama", "vocab_size": V, "hidden_size": d, "num_hidden_layers": L,
              "num_attention_heads": h, "num_key_value_heads": h_kv, "intermediate_size": d_ff,
              "tie_word_embeddings": tied}
    return count_params(config).total


def _llama_shapes(rng):
    """Fixed shapes, each there for a kind of bug (every seed tests them), then random ones,
    tied and untied.

    * Llama-3-8B, untied (128,256, 4,096, 32, 32 heads, 8 kv heads, 14,336): the lesson's
      figure: a part left out (the head, a norm) or added (biases), kv heads as heads.
    * Llama 3.2 1B, tied (128,256, 2,048, 16, 32, 8, 8,192): the head counted when tied.
    * Llama-2-7B (32,000, 4,096, 32, 32, 32, 11,008, untied): as many kv heads as heads, so the
      kv width is d: a kv width written as ``d // 4`` (both models above have h / h_kv = 4).
    * one kv head (1,000, 256, 2, 8, 1, 512, tied): multi-query attention: the kv width
      ``h_kv * d // h`` with h and h_kv swapped, or ``d // h_kv``; V typed as 128,256.
    * Llama-3.1-405B (128,256, 16,384, 126, 128, 8, 53,248, untied): 405 billion, past 2**32:
      a count in int32 wraps, a float32 one rounds.
    """
    cases = [(128_256, 4096, 32, 32, 8, 14_336, False), (128_256, 2048, 16, 32, 8, 8192, True),
             (32_000, 4096, 32, 32, 32, 11_008, False), (1000, 256, 2, 8, 1, 512, True),
             (128_256, 16_384, 126, 128, 8, 53_248, False)]
    for i in range(6):
        h_kv = int(rng.choice([1, 2, 4, 8]))
        h = h_kv * int(rng.choice([1, 2, 4]))
        d = h * int(rng.choice([8, 16, 64]))
        cases.append((int(rng.integers(100, 200_000)), d, int(rng.integers(1, 40)), h, h_kv,
                      int(rng.integers(1, 8 * d)), bool(i % 2)))
    return cases


# Hints on one call llama_params(V, d, L, h, h_kv, d_ff, tied): (got, want, *args) -> bool.
LLAMA_HINTS = [
    Hint(lambda got, want, V, d, L, h, h_kv, d_ff, tied: got == want + L * (2 * d_ff + d),
         "Llama's SwiGLU has no biases: three matrices, nothing else", args=True),
    Hint(lambda got, want, V, d, L, h, h_kv, d_ff, tied: got == want + (2 * L + 1) * d,
         "RMSNorm has a scale and no bias: d numbers per norm, not the 2·d of a LayerNorm", args=True),
    Hint(lambda got, want, V, d, L, h, h_kv, d_ff, tied: tied and got == want + V * d,
         "tied=True: the head is E itself and adds nothing (the `tied` flag read the other way round?)", args=True),
    Hint(lambda got, want, V, d, L, h, h_kv, d_ff, tied: not tied and got == want - V * d,
         "tied=False: the head is its own d × V matrix; count it (the `tied` flag read the other way round?)", args=True),
    Hint(lambda got, want, V, d, L, h, h_kv, d_ff, tied: h != h_kv and got == want + 2 * L * d * (h - h_kv) * (d // h),
         "k and v have only h_kv heads (grouped-query attention): d × h_kv·head_dim each", args=True),
    Hint(lambda got, want, V, d, L, h, h_kv, d_ff, tied: got == want - L * d * d_ff,
         "SwiGLU has three matrices: gate, up and down", args=True),
    Hint(lambda got, want, V, d, L, h, h_kv, d_ff, tied: got == want - d,
         "the final RMSNorm (d numbers) is missing", args=True),
    Hint(lambda got, want, V, d, L, h, h_kv, d_ff, tied: got == want - 2 * L * d or got == want - (2 * L + 1) * d,
         "each layer has two RMSNorms of d numbers (and there is a final one)", args=True),
]


def attention_parts(d, h, h_kv, head_dim) -> Sum:
    """One layer's grouped-query attention, no biases: q and o with h heads, k and v with h_kv."""
    def q_heads():
        return Part("query heads", h, "h", key="h", alts=[Alt(h_kv, (
            "q and o have h query heads (num_attention_heads): grouping shares only k and v, which have "
            "h_kv heads"))])

    def kv_heads():
        return Part("key/value heads", h_kv, "h_kv", key="h_kv", alts=[Alt(h, (
            "that is full multi-head attention: k and v have only h_kv heads (num_kv_heads), fewer than "
            "q's h"))])
    def _head_dim():
        wrong = d // h_kv if h_kv and d % h_kv == 0 else None
        return Part("head_dim", head_dim, key="head_dim", alts=[Alt(wrong, (
            "a head is head_dim = d / h wide (the query heads): d / h_kv is not a head's width"))]
            if wrong and wrong != head_dim else [])
    return Sum("attention", [
        Prod("q", [Part("d", d), q_heads(), _head_dim()],
             missing="the query projection q is missing: four matrices, q, k, v and o"),
        Prod("k", [Part("d", d), kv_heads(), _head_dim()],
             missing="the key projection k is missing: four matrices, q, k, v and o"),
        Prod("v", [Part("d", d), kv_heads(), _head_dim()],
             missing="the value projection v is missing: four matrices, q, k, v and o"),
        Prod("o", [q_heads(), _head_dim(), Part("d", d)],
             missing="the output projection o is missing: four matrices, q, k, v and o (h · head_dim × d)"),
        Extra("biases", Sum("the biases", [
            Prod("q's bias", [q_heads(), _head_dim()], can_drop=False),
            Prod("k's bias", [kv_heads(), _head_dim()], can_drop=False),
            Prod("v's bias", [kv_heads(), _head_dim()], can_drop=False),
            Part("o's bias", d, can_drop=False)]),
              "this attention has no biases: q, k, v and o are matrices only"),
        # some of them (q, k and v only, as Qwen has), or each at one width
        *absent("biases", [h * head_dim, h_kv * head_dim, h_kv * head_dim, d],
                "this attention has no biases: q, k, v and o are matrices only"),
    ])


def mlp_parts(d, d_ff) -> Sum:
    return Sum("the MLP", [
        Prod("SwiGLU's matrices", [Part("matrices", 3, "gate, up and down", alts=[
            Alt(2, "SwiGLU has three matrices: gate, up and down")]), Part("d", d), Part("d_ff", d_ff, alts=[
                Alt(4 * d, "use the config's intermediate_size as d_ff, not 4·d")])]),
        # gate and up have d_ff outputs, down d: counted at those widths, at one width, or only some of them
        *absent("biases", [d_ff, d_ff, d], "Llama's SwiGLU has no biases: three d × d_ff matrices, nothing else"),
    ])


def llama_parts(V, d, L, h, h_kv, d_ff, tied) -> Answer:
    """llama_params(V, d, L, h, h_kv, d_ff, tied) as named parts."""
    head = (Extra("head", V * d, "tied=True: the head is E itself and adds nothing (the `tied` flag read the "
                                 "other way round?)") if tied else
            Part("head", V * d, "its own d × V matrix", missing="tied=False: the head is its own d × V matrix; count "
                                                                 "it (the `tied` flag read the other way round?)"))
    return Answer(Sum("a Llama", [
        Part("token table", V * d, "V × d"), head,
        Prod("the layers", [Part("layers", L, "L", missing="that is one layer: the model has L of them"), Sum(
            "one layer", [attention_parts(d, h, h_kv, d // h), mlp_parts(d, d_ff),
                          Part("RMSNorms", 2 * d, "two per layer, d each", alts=[Alt(4 * d, (
                              "RMSNorm has a scale and no bias: d numbers per norm, not the 2·d of a LayerNorm"))])])]),
        Part("final RMSNorm", d, "d numbers", missing="the final RMSNorm (d numbers) is missing", alts=[Alt(2 * d, (
            "RMSNorm has a scale and no bias: the final RMSNorm is d numbers, not the 2·d of a LayerNorm"))]),
    ]))


def _attention_count(shape) -> int:
    """A layer's attention weights (q, k, v, o) from a model's shape."""
    return 2 * shape.hidden_size * shape.num_heads * shape.head_dim \
        + 2 * shape.hidden_size * shape.num_kv_heads * shape.head_dim


def mlp_recheck(d: int, d_ff: int) -> tuple[dict, int, str]:
    """Question 2 with a d_ff that is not 4·d: Llama 3.2 1B's d_ff is exactly 4·d, so 3 · d · 4d passes
    on the book's model; the config's own d_ff is what the question asks the cell to read."""
    other = d_ff + 64 if d_ff + 64 != 4 * d else d_ff + 128
    return ({"d": d, ".hidden_size": d, "d_ff": other, ".intermediate_size": other}, 3 * d * other,
            f"for d_ff = {other:,} (a config whose d_ff is not 4·d)")


def attn_recheck() -> tuple[dict, int, str]:
    """Question 1 on a made-up shape whose sizes keep none of the relations real models share: h_kv
    is not 1 (Gemma-3 1B's is, so leaving h_kv out passes there), head_dim is neither d / h (most
    models) nor d / h_kv (Qwen3-0.6B's 1,024 / 8 is its head_dim, 128), h is not 4·h_kv. The cell is
    given the shape under every name it may read it by: its own names, the shape's fields, the
    config's keys."""
    d, h, h_kv, head_dim = 1000, 12, 3, 56
    inputs = {"d": d, "h": h, "h_kv": h_kv, "head_dim": head_dim, ".hidden_size": d, ".num_heads": h,
              ".num_kv_heads": h_kv, ".head_dim": head_dim, "['hidden_size']": d, "['num_attention_heads']": h,
              "['num_key_value_heads']": h_kv, "['head_dim']": head_dim}
    return (inputs, 2 * d * h * head_dim + 2 * d * h_kv * head_dim,
            f"for d = {d:,}, h = {h}, h_kv = {h_kv}, head_dim = {head_dim} (a shape whose head_dim is not d / h)")


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    s = model_shape(load_config(p["attn_model"]))
    d, h, h_kv, head_dim = s.hidden_size, s.num_heads, s.num_kv_heads, s.head_dim
    m = model_shape(load_config(p["mlp_model"]))
    d_m, d_ff = m.hidden_size, m.intermediate_size
    pad = model_shape(load_config(p["pad_model"]))
    V_pad, d_pad = pad.vocab_size, pad.hidden_size
    pad_tied = count_params(load_config(p["pad_model"])).tied
    rows = padded(V_pad, p["pad_multiple"]) - V_pad
    c = count_params(load_config(p["share_model"]))
    models = {"attn_model": "attn_layer", "mlp_model": "mlp_layer", "share_model": "vocab_share",
              "pad_model": "padding_params"}

    def reads(name):
        own = next(k for k, v in models.items() if v == name)
        others = {k: f"your code reads `{k}` ({p[k]}), the model of `{v}`: this question is about `{own}` "
                     f"({p[own]})" for k, v in models.items() if k != own and p[k] != p[own]}
        others.update({p[k]: f"your code loads {p[k]!r}: this question is about `{own}` ({p[own]})"
                       for k in models if k != own and p[k] != p[own]})
        return {"reads": (own, p[own]), "not_reads": others}

    def share_parts():
        return Answer(Ratio("the share", Sum("the vocabulary matrices", [
            Part("token table", c.token_embedding, "V × d", key="E"),
            Part("head", c.lm_head, "untied: d × V", key="head",
                 missing=f"{p['share_model']}'s head is untied: count both vocabulary matrices")]),
            Sum("the total", [
                Sum("the vocabulary matrices", [Part("token table", c.token_embedding, key="E"),
                                                Part("head", c.lm_head, key="head")],
                    missing="divide by the total, all parameters (the whole model): the vocabulary matrices are "
                            "part of it"),
                Part("the rest", c.total - c.token_embedding - c.lm_head, can_drop=False, can_double=False)]),
            upside_down="upside down: the share is the vocabulary matrices over the total"), context="your share")
    attn_hints = [
        Hint(lambda got, want: got == 4 * d * h * head_dim,
             "that is full multi-head attention: k and v have only h_kv heads (num_kv_heads), fewer than q's h"),
        Hint(lambda got, want: got == 2 * d * h * head_dim,
             "q and o are there; add the (narrower) k and v matrices"),
    ]
    if h * head_dim != d:
        attn_hints.append(Hint(lambda got, want: got == 2 * d * d + 2 * d * h_kv * (d // h),
                               f"{p['attn_model']}'s heads are head_dim wide (its config says so): "
                               "h · head_dim is not d here"))
    return [
        Integer("attn_layer", hints=attn_hints, parts=lambda: Answer(Sum("attention", [
            *attention_parts(d, h, h_kv, head_dim).children, *belongs_elsewhere(
                "the layer", "the attention", [("the layer's two RMSNorms", 2 * d, "d each: 2 · d"),
                                               ("an RMSNorm", d, "d"),
                                               ("the MLP", 3 * d * s.intermediate_size, "3 · d · d_ff")])])),
                recheck=lambda: [attn_recheck()], **reads("attn_layer")),
        Integer("mlp_layer", hints=[
            # first: where d_ff = 4·d (Llama 3.2 1B) two matrices give 8·d² too, and the rule is the likelier source;
            # said so that it holds of either code (newcomer O: `8 * d * d` was told only "three matrices")
            Hint(lambda got, want: got == 8 * d_m * d_m and got != want,
                 "that is GPT-2's MLP rule, 8·d² (two matrices of d × 4d): this MLP is SwiGLU, with three matrices "
                 "(gate, up and down) of d × d_ff, d_ff the config's intermediate_size"),
            ratio(2 / 3, "SwiGLU has three matrices: gate, up and down"),
            offset(2 * d_ff + d_m, "Llama's SwiGLU has no biases: three d × d_ff matrices, nothing else"),
        ], parts=lambda: Answer(Sum("the MLP", [*mlp_parts(d_m, d_ff).children, *belongs_elsewhere(
            "the layer", "the MLP", [("the layer's two RMSNorms", 2 * d_m, "d each: 2 · d"),
                                     ("an RMSNorm", d_m, "d"),
                                     ("the attention", _attention_count(m), "q, k, v and o")])])), recheck=lambda: [mlp_recheck(d_m, d_ff)], **reads("mlp_layer")),
        Real("vocab_share", exact=True, hints=[
            ratio(0.5, f"{p['share_model']}'s head is untied: count both vocabulary matrices"),
            Hint(lambda got, want: 0 < want < got <= 100 and math.isclose(got / 100, want, rel_tol=0.01),
                 "give a fraction between 0 and 1, not a percentage"),
        ], parts=share_parts, own_work={Shortcut("vocab_share", attribute=True): (
            "the question asks you to add up the vocabulary-sized matrices and divide by the total: use the "
            "ready-made share afterwards, to check yours")}, **reads("vocab_share")),
        Integer("padding_params", hints=[
            ratio(2, f"{p['pad_model']}'s head is tied: the padded rows exist once"),
            Hint(lambda got, want: got == rows, "that is the number of rows; each row holds d numbers"),
            Hint(lambda got, want: got == (V_pad + rows) * d_pad,
                 "that is the whole padded table; count only what the padded rows add"),
        ], parts=lambda: Answer(Sum("the padding", [Prod("the padded rows", [
            Part("rows added", rows, "up to the next multiple of pad_multiple", alts=[
                Alt(V_pad % p["pad_multiple"], "that is the remainder V mod pad_multiple, how far V is past a "
                                               "multiple: the padding is what is missing up to the next multiple "
                                               "(round up)"),
                Alt(V_pad // p["pad_multiple"] * p["pad_multiple"] - V_pad, rounded_down("V")),
                *[Alt(padded(V_pad, other) - V_pad, f"that pads to a multiple of {other}: the question's is "
                                                    f"pad_multiple = {p['pad_multiple']}")
                  for other in (8, 64, 128, 256, 512, 1024) if other != p["pad_multiple"]
                  and padded(V_pad, other) - V_pad not in (rows, 0)],
                *([Alt(2 ** math.ceil(math.log2(V_pad)) - V_pad, "that pads to the next power of two: pad to the next "
                                                                 "multiple of pad_multiple")]
                  if 2 ** math.ceil(math.log2(V_pad)) - V_pad not in (rows, 0) else [])]),
            Part("d", d_pad, "each row holds d numbers")]), *([Extra("head", rows * d_pad, (
                f"{p['pad_model']}'s head is tied: the padded rows exist once"))] if pad_tied else [])])),
            recheck=lambda: [({**inputs, "d": d_pad, ".hidden_size": d_pad}, rows * d_pad, words)
                             for inputs, rows, words in padding_rechecks(V_pad, p["pad_multiple"])],
            **reads("padding_params")),
        Function("llama_params", reference=llama_params, cases=_llama_shapes,
                 result=Integer("llama_params", hints=LLAMA_HINTS, parts=llama_parts), points=2,
                 own_work={"count_params": "the question asks you to build the count from the pieces, without "
                                           "`count_params` (call it afterwards, in a cell of your own, to compare)"}),
    ]


QUESTIONS = questions(DEFAULTS)

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/04-modern-blocks.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "attn_layer": "2. Grouped-query attention",
    "mlp_layer": "3. The SwiGLU MLP: three matrices",
    "vocab_share": "5. Llama-3-8B in all",
    "padding_params": "7. Padded vocabularies",
    "llama_params": "5. Llama-3-8B in all",
}
