"""Exercise 03 `counting-gpt2`: count layers, blocks and whole GPT-2 models exactly."""

import math

from embedlab.grading.kinds import Function, Hint, Integer, Real, offset, ratio
from embedlab.params import count_params, load_config

LESSON = "03-counting-gpt2"


def gpt2_params(V, d, L, T):
    """Reference: the exact parameter count of a GPT-2 (tied head, 4d MLP, all biases)."""
    config = {"model_type": "gpt2", "vocab_size": V, "n_embd": d, "n_layer": L, "n_head": 1, "n_positions": T}
    return count_params(config).total


def _gpt2_shapes(rng):
    """GPT-2 sizes: the released small and XL, a tiny one, then random ones."""
    cases = [(50_257, 768, 12, 1024), (50_257, 1600, 48, 1024), (10, 4, 1, 8)]
    for _ in range(5):
        cases.append((int(rng.integers(2, 60_000)), int(rng.integers(1, 64)) * 16, int(rng.integers(1, 40)),
                      int(rng.integers(1, 4096))))
    return cases


_XL = count_params(load_config("gpt2-xl"))  # for hints on share_xl


def _is(got, value):
    return math.isclose(got, value, rel_tol=1e-9)


# Hints on one call gpt2_params(V, d, L, T): (got, want, V, d, L, T) -> bool.
GPT2_HINTS = [
    Hint(lambda got, want, V, d, L, T: got == want - T * d, "the learned position table (T × d) is missing", args=True),
    Hint(lambda got, want, V, d, L, T: got == want + V * d, "the head is tied: it is E itself and adds nothing", args=True),
    Hint(lambda got, want, V, d, L, T: got == want - 2 * d, "the final LayerNorm (a scale and a shift, 2·d) is missing",
         args=True),
    Hint(lambda got, want, V, d, L, T: got == want - 13 * d * L,
         "that is 12·d² per block, the matrices alone: add each block's biases and LayerNorms (13·d)", args=True),
    Hint(lambda got, want, V, d, L, T: got == want - 4 * d * L,
         "each block's two LayerNorms have a scale and a shift: 2·d each", args=True),
]

QUESTIONS = [
    Integer("linear_params", hints=[
        offset(-4096, "a linear layer has a bias for each output too: m·n + n"),
        offset(-3072, "the bias has one entry per output (n), not per input (m)"),
    ]),
    Integer("block_params", hints=[
        offset(-13 * 1024, "that is the 12·d² of the matrices alone: add the biases and the two LayerNorms"),
        offset(-12 * 1024, "LayerNorms have a scale and a shift: 2·d each"),
    ]),
    Integer("interview", hints=[
        ratio(2, "the head is tied: it is the same matrix, so it adds no parameters"),
        Hint(lambda got, want: got == 32_000 + 512, "a table has rows × columns cells, not rows + columns"),
    ]),
    Real("share_xl", exact=True, hints=[
        Hint(lambda got, want: 1 < got <= 100 and abs(got / 100 - want) < 0.01, "give a fraction between 0 and 1, not a percentage"),
        Hint(lambda got, want: _is(got, (_XL.token_embedding + _XL.position_embedding) / _XL.total),
             "only the token table E: leave the position table out"),
        ratio(2, "GPT-2's head is tied: E is one table, counted once (the head is the same matrix)"),
        Hint(lambda got, want: _is(got, _XL.token_embedding / (_XL.total - _XL.token_embedding)),
             "the share is of the whole model: divide by the total, the table included"),
    ]),
    Integer("gap_medium", hints=[
        ratio(-1, "exact minus estimate: the exact count is the larger one"),
        Hint(lambda got, want: got == 1024 * 1024, "that is only the position table: the biases and LayerNorms are missing"),
    ]),
    Function("gpt2_params", reference=gpt2_params, cases=_gpt2_shapes, result=Integer("gpt2_params", hints=GPT2_HINTS),
             points=2),
]
