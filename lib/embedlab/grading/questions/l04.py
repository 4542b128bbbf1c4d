"""Exercise 04 `modern-blocks`: count grouped-query attention, SwiGLU, padding and any Llama."""

from embedlab.grading.kinds import Function, Hint, Integer, Real, offset, ratio
from embedlab.params import count_params

LESSON = "04-modern-blocks"


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

QUESTIONS = [
    Integer("attn_1b", hints=[
        Hint(lambda got, want: got == 4 * 2048 * 2048, "that is full multi-head attention: k and v have only h_kv = 8 heads"),
        Hint(lambda got, want: got == 2 * 2048 * 2048, "q and o are there; add the (narrower) k and v matrices"),
    ]),
    Integer("mlp_1b", hints=[
        ratio(2 / 3, "SwiGLU has three matrices: gate, up and down"),
        offset(2 * 8192 + 2048, "Llama's SwiGLU has no biases: three d × d_ff matrices, nothing else"),
        Hint(lambda got, want: got == 8 * 2048 * 2048, "that is a GPT-2 MLP (8·d²): use d_ff = 8,192 and three matrices"),
    ]),
    Real("vocab_share_8b", exact=True, hints=[
        ratio(0.5, "Llama-3-8B's head is untied: count both vocabulary matrices"),
        Hint(lambda got, want: 1 < got <= 100 and abs(got / 100 - want) < 0.01, "give a fraction between 0 and 1, not a percentage"),
    ]),
    Integer("padding_params", hints=[
        ratio(2, "GPT-2's head is tied: the padded rows exist once"),
        Hint(lambda got, want: got == 47, "that is the number of rows; each row holds d numbers"),
    ]),
    Function("llama_params", reference=llama_params, cases=_llama_shapes, result=Integer("llama_params", hints=LLAMA_HINTS),
             points=2),
]
