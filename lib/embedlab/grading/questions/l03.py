"""Exercise 03 `counting-gpt2`: count layers, blocks and whole GPT-2 models exactly."""

from embedlab.grading.kinds import Function, Hint, Integer, Real, offset, ratio
from embedlab.params import count_params

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
    Real("share_xl", rtol=1e-6, hints=[
        Hint(lambda got, want: 1 < got <= 100 and abs(got / 100 - want) < 0.01, "give a fraction between 0 and 1, not a percentage"),
        Hint(lambda got, want: got > want and got < want * 1.03, "only the token table E: leave the position table out"),
    ]),
    Integer("gap_medium", hints=[
        ratio(-1, "exact minus estimate: the exact count is the larger one"),
        Hint(lambda got, want: got == 1024 * 1024, "that is only the position table: the biases and LayerNorms are missing"),
    ]),
    Function("gpt2_params", reference=gpt2_params, cases=_gpt2_shapes, result=Integer("gpt2_params"), points=2),
]
