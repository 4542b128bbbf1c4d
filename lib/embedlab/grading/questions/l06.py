"""Exercise 06 `params-vs-compute`: price a head, a lookup, a forward pass; shares; a FLOP/s figure; stored against used."""

import math

from embedlab.compute import token_costs
from embedlab.grading.kinds import Function, Hint, Integer, Real, ratio
from embedlab.params import count_params, load_config

LESSON = "06-params-vs-compute"
_LLAMA_3_8B = count_params(load_config("llama-3-8b"))   # for hints on kaplan_n
_MIXTRAL = count_params(load_config("mixtral-8x7b"))     # for hints on active_mixtral
_EXPERT = 3 * 4096 * 14_336                              # one expert: gate, up, down


def gpt_forward_flops(V, d, L, d_ff, context):
    """FLOPs for one token of a GPT-2-style model (tied head) that attends to `context` positions.

    Matmuls at 2 FLOPs per weight: attention q, k, v, out (4·d²) and the MLP (2·d·d_ff)
    in each of L blocks; attention over the context 4·context·d per block; head 2·d·V;
    the lookup 0. Biases, norms and the position add are left out.
    """
    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + 2 * d * V


def _model_shapes(rng):
    """GPT-2 small and XL, then random small shapes (d a multiple of 64, d_ff = 4d or not)."""
    cases = [(50_257, 768, 12, 3072, 1024), (50_257, 1600, 48, 6400, 1)]
    for _ in range(4):
        d = 64 * int(rng.integers(1, 40))
        cases.append((int(rng.integers(1000, 200_000)), d, int(rng.integers(1, 48)),
                      int(rng.integers(d, 6 * d)), int(rng.integers(1, 32_768))))
    return cases


_GPT2 = token_costs(load_config("gpt2"))   # for hints on the head's shares
_T = 1024


def _is(got, value):
    return math.isclose(got, value, rel_tol=1e-9)


def _share(head_positions, attention=True, square=False):
    """The head's share of a pass over _T tokens, as a learner might compute it."""
    c, T = _GPT2, _T
    keys = T * T if square else T * (T + 1) // 2
    total = T * (c.input + c.blocks) + head_positions * c.head + (c.attention_per_key * keys if attention else 0)
    return head_positions * c.head / total


# Hints on one call forward_flops_per_token(V, d, L, d_ff, context): (got, want, *args) -> bool.
FORWARD_HINTS = [
    Hint(lambda got, want, V, d, L, d_ff, context: got == want - 4 * L * context * d,
         "attention over the context is missing: 4·context·d per block (scores and the weighted sum)", args=True),
    Hint(lambda got, want, V, d, L, d_ff, context: got == want - 2 * L * d * d,
         "the attention's output projection is missing: four d × d matrices, q, k, v and out", args=True),
    Hint(lambda got, want, V, d, L, d_ff, context: got == want - 2 * d * V,
         "the head (a d × V matmul, 2·d·V) is missing: only the lookup is free", args=True),
    Hint(lambda got, want, V, d, L, d_ff, context: got == want + 2 * d * V,
         "the lookup costs 0: a row is copied, not multiplied", args=True),
    Hint(lambda got, want, V, d, L, d_ff, context: got == want - 2 * L * d * context,
         "attention over the context is 4·context·d per block: scores (q·k) and the weighted sum of v, 2·context·d each",
         args=True),
]

QUESTIONS = [
    Integer("head_flops", hints=[
        ratio(0.5, "a matmul costs 2 FLOPs per weight: one multiply and one add"),
        Hint(lambda got, want: got == 0, "0 is the input lookup; the head is a real d × V matmul"),
    ]),
    Integer("lookup_flops", hints=[
        Hint(lambda got, want: got == 4096, "copying d numbers moves data but does no arithmetic"),
        Hint(lambda got, want: got == 2 * 128_256 * 4096, "that is what the one-hot matmul would cost; the lookup only copies a row"),
    ]),
    Integer("kaplan_n", hints=[
        Hint(lambda got, want: got == _LLAMA_3_8B.total - _LLAMA_3_8B.token_embedding,
             "you removed the input table only: Llama-3-8B's untied head is a second vocabulary-sized matrix"),
        Hint(lambda got, want: got == _LLAMA_3_8B.total, "that is every parameter; non-embedding N leaves out the vocabulary-sized matrices"),
    ]),
    Real("head_share_training", exact=True, hints=[
        Hint(lambda got, want: _is(got, _share(_T, attention=False)),
             "too big: you left out attention over the context, which grows with every position"),
        Hint(lambda got, want: _is(got, _share(_T, square=True)),
             "token t attends to t positions: T(T+1)/2 keys in all, not T²"),
        Hint(lambda got, want: got > 1, "a share is a fraction between 0 and 1"),
    ]),
    Real("head_share_prompt", exact=True, hints=[
        Hint(lambda got, want: _is(got, _share(1, attention=False)),
             "too big: you left out attention over the context, which grows with every position"),
        Hint(lambda got, want: got > 0.2, "reading a prompt, only the last position needs logits: the head runs once, not T times"),
    ]),
    Function("forward_flops_per_token", reference=gpt_forward_flops, cases=_model_shapes, result=Integer("forward_flops_per_token", hints=[
        ratio(0.5, "every matmul costs 2 FLOPs per weight (multiply and add), the head included"),
        *FORWARD_HINTS,
    ])),
    Real("flop_rate", exact=True, hints=[
        ratio(1e-12, "that is TFLOP/s: the question asks for FLOP/s, 10¹² times more"),
        ratio(3600, "GPU hours are hours: a rate in FLOP/s needs seconds"),
        ratio(1 / 3, "training is forward and backward: 6·N·D, not 2·N·D"),
    ]),
    Integer("active_mixtral", hints=[
        Hint(lambda got, want: got == _MIXTRAL.total, "that is every parameter stored; a token skips most experts"),
        Hint(lambda got, want: got == _MIXTRAL.total - 32 * 8 * _EXPERT,
             "you took away all 8 experts of each layer: the token still uses 2 of them"),
        Hint(lambda got, want: got == _MIXTRAL.total - 32 * 2 * _EXPERT,
             "you took away the 2 experts the token uses; it skips the other 6"),
        Hint(lambda got, want: got == _MIXTRAL.total - 32 * 6 * 2 * 4096 * 14_336,
             "each expert is a gated MLP: three matrices (gate, up, down), not two"),
        Hint(lambda got, want: got == 32 * 2 * _EXPERT,
             "those are only the experts a token uses: its attention, router, norms and both vocabulary tables work on it too"),
        Hint(lambda got, want: got == _MIXTRAL.total - 6 * _EXPERT,
             "every one of the 32 layers has its own experts"),
    ]),
]
