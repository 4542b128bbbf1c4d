"""Exercise 04 `modern-blocks`: count grouped-query attention, SwiGLU, padding and any Llama.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import math

import numpy as np

from embedlab.grading.kinds import Function, Hint, Integer, Real, offset, ratio
from embedlab.grading.variants import Space
from embedlab.params import count_params, load_config, model_shape

LESSON = "04-modern-blocks"

# --------------------------------------------------------------------------
# The variant space (every model a shipped config in embedlab/data)

# Questions 1-2 (one layer's attention and MLP): grouped-query attention (h_kv < h), a gated
# SwiGLU MLP (three matrices), no biases in either (Qwen3's per-head q/k norms are not among the
# projections the question counts). Not Qwen2.5 (q, k and v have biases), not
# Gemma (its gate is GeGLU), not Mixtral (its MLP is experts), not the models without GQA; not
# Mistral-7B (its layer is Llama-3-8B's, so two variants would share both answers).
LAYER_MODELS = ["llama-3-8b", "llama-3.2-3b", "smollm2-135m", "qwen3-0.6b", "qwen3-8b"]
# Question 3 (the vocabulary's share): dense modern models with an untied head (two V x d
# matrices) and no head bias (Phi-1.5/2 have one); not the mixtures of experts.
SHARE_MODELS = ["llama-2-7b", "mistral-7b", "qwen2.5-7b", "qwen3-8b", "olmo-2-1124-7b", "phi-3-mini-4k"]
# Question 4 (padding): tied heads whose V is not already a multiple of 64 (the vocabularies of
# Llama 3.2, Gemma, Qwen and SmolLM2 are multiples of 128); not OPT-350m (its table is 512 wide,
# projected up to 1,024).
PAD_MODELS = ["gpt2-medium", "gpt2-large", "gpt2-xl", "opt-125m", "opt-1.3b"]
PAD_MULTIPLES = [64, 128, 256, 512]  # rows a vocabulary is rounded up to a multiple of

DEFAULTS = {
    "layer_model": "llama-3.2-1b",
    "share_model": "llama-3-8b",
    "pad_model": "gpt2",
    "pad_multiple": 64,
}


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: each model and the padding picked so that variants differ (up to the
    pools' sizes); `problems` rejects a padding that gives the book's answer."""
    return {"layer_model": pick("layer_model", LAYER_MODELS), "share_model": pick("share_model", SHARE_MODELS),
            "pad_model": pick("pad_model", PAD_MODELS),
            "pad_multiple": PAD_MULTIPLES[int(rng.integers(len(PAD_MULTIPLES)))]}


def padded(V: int, multiple: int) -> int:
    """V rounded up to a multiple of `multiple`."""
    return -(-V // multiple) * multiple


def answers(p: dict) -> dict:
    """Every non-function answer of a variant, computed here only to vet the variant (`problems`);
    the answer key itself is harvested by running the solution notebook."""
    s = model_shape(load_config(p["layer_model"]))
    d, h, h_kv, head_dim, d_ff = s.hidden_size, s.num_heads, s.num_kv_heads, s.head_dim, s.intermediate_size
    c = count_params(load_config(p["share_model"]))
    pad = model_shape(load_config(p["pad_model"]))
    return {"attn_layer": 2 * d * h * head_dim + 2 * d * h_kv * head_dim, "mlp_layer": 3 * d * d_ff,
            "vocab_share": (c.token_embedding + c.lm_head) / c.total,
            "padding_params": (padded(pad.vocab_size, p["pad_multiple"]) - pad.vocab_size) * pad.hidden_size}


def problems(p: dict) -> list[str]:
    """What makes a drawn variant unusable: a degenerate question, or an answer equal to the book's."""
    out = []
    layer = model_shape(load_config(p["layer_model"]))
    if layer.num_kv_heads >= layer.num_heads or layer.moe is not None:
        out.append(f"{p['layer_model']} has no grouped-query attention, or its MLP is experts")
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
    for name, value in mine.items():
        if math.isclose(value, book[name], rel_tol=1e-9, abs_tol=0):
            out.append(f"{name} equals the book's")
    return out


def _describe() -> str:
    return (f"layer_model (questions 1-2): one of {', '.join(LAYER_MODELS)}; share_model (question 3): one of "
            f"{', '.join(SHARE_MODELS)}; pad_model (question 4): one of {', '.join(PAD_MODELS)}; each "
            f"different in every variant up to its pool's size; pad_multiple: one of {PAD_MULTIPLES} "
            f"(never one that leaves pad_model's vocabulary unpadded)")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(),
              fixed={"llama_params": "a function, checked on Llama-3-8B, Llama 3.2 1B and shapes drawn fresh "
                                     "at every grading"})

# --------------------------------------------------------------------------
# The questions


def llama_params(V, d, L, h, h_kv, d_ff, tied):
    """Reference: the exact count of a Llama-style model (head_dim = d / h, no biases)."""
    config = {"model_type": "llama", "vocab_size": V, "hidden_size": d, "num_hidden_layers": L,
              "num_attention_heads": h, "num_key_value_heads": h_kv, "intermediate_size": d_ff,
              "tie_word_embeddings": tied}
    return count_params(config).total


def _llama_shapes(rng):
    """Llama-3-8B, Llama 3.2 1B, then random Llama shapes, tied and untied."""
    cases = [(128_256, 4096, 32, 32, 8, 14_336, False), (128_256, 2048, 16, 32, 8, 8192, True)]
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


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    s = model_shape(load_config(p["layer_model"]))
    d, h, h_kv, head_dim, d_ff = s.hidden_size, s.num_heads, s.num_kv_heads, s.head_dim, s.intermediate_size
    pad = model_shape(load_config(p["pad_model"]))
    V_pad, d_pad = pad.vocab_size, pad.hidden_size
    rows = padded(V_pad, p["pad_multiple"]) - V_pad
    attn_hints = [
        Hint(lambda got, want: got == 4 * d * h * head_dim,
             "that is full multi-head attention: k and v have only h_kv heads (num_kv_heads), fewer than q's h"),
        Hint(lambda got, want: got == 2 * d * h * head_dim,
             "q and o are there; add the (narrower) k and v matrices"),
    ]
    if h * head_dim != d:
        attn_hints.append(Hint(lambda got, want: got == 2 * d * d + 2 * d * h_kv * (d // h),
                               f"{p['layer_model']}'s heads are head_dim wide (its config says so): "
                               "h · head_dim is not d here"))
    return [
        Integer("attn_layer", hints=attn_hints),
        Integer("mlp_layer", hints=[
            ratio(2 / 3, "SwiGLU has three matrices: gate, up and down"),
            offset(2 * d_ff + d, "Llama's SwiGLU has no biases: three d × d_ff matrices, nothing else"),
            Hint(lambda got, want: got == 8 * d * d and got != want,
                 "that is a GPT-2 MLP (8·d²): use the config's intermediate_size as d_ff, and three matrices"),
        ]),
        Real("vocab_share", exact=True, hints=[
            ratio(0.5, f"{p['share_model']}'s head is untied: count both vocabulary matrices"),
            Hint(lambda got, want: 1 < got <= 100 and abs(got / 100 - want) < 0.01,
                 "give a fraction between 0 and 1, not a percentage"),
        ]),
        Integer("padding_params", hints=[
            ratio(2, f"{p['pad_model']}'s head is tied: the padded rows exist once"),
            Hint(lambda got, want: got == rows, "that is the number of rows; each row holds d numbers"),
            Hint(lambda got, want: got == (V_pad + rows) * d_pad,
                 "that is the whole padded table; count only what the padded rows add"),
        ]),
        Function("llama_params", reference=llama_params, cases=_llama_shapes,
                 result=Integer("llama_params", hints=LLAMA_HINTS), points=2),
    ]


QUESTIONS = questions(DEFAULTS)
