"""Exercise 03 `counting-gpt2`: count layers, blocks and whole GPT-2 models exactly.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import math

import numpy as np

from embedlab.grading.kinds import Function, Hint, Integer, Real, ratio
from embedlab.grading.parts import Alt, Answer, Extra, Layer, Part, Prod, Ratio, Scale, Sum
from embedlab.grading.space import FRESH_INPUTS, Space, equal_to_book
from embedlab.params import count_params, load_config, model_shape

LESSON = "03-counting-gpt2"

# --------------------------------------------------------------------------
# The variant space. Every pool has distinct answers and none equal to the book's, so two
# learners share an answer only where a pool repeats (more variants than items); the pools'
# sizes (10, 7, 10, 5, 4) differ, so no two of the first 8 variants share two answers. No answer
# of questions 1-3 is printed in a lesson (GPT-2 small's block and MLP layers are, in lesson 03).

# Question 1: (features in, features out) of one linear layer; in != out, so a bias counted per
# input is a different number from the right one, and no count without a bias reads as the right
# one typed rounded (1,600 → 6,400 did: 10,240,000 is 10,246,400 cut to 4 digits).
LINEARS = [(1536, 6144), (6144, 1536), (1280, 5120), (512, 2048), (1792, 7168), (640, 2560),
           (4096, 11008), (2560, 10240), (8192, 2048), (896, 4864)]
# Question 2: shipped models whose blocks are GPT-2's (fused q/k/v, a 4d MLP, every bias, two
# LayerNorms: 12·d² + 13·d): GPT-2 large and XL, and Pythia (GPT-NeoX), widths all different and
# none GPT-2 medium's or small's (OPT's blocks count the same but have separate q, k, v layers;
# OPT-350m and Pythia-410m are as wide as GPT-2 medium, Pythia-160m as GPT-2 small, Pythia-1.4b
# as Pythia-1b)
BLOCK_MODELS = ["gpt2-large", "gpt2-xl", "pythia-70m", "pythia-1b", "pythia-2.8b", "pythia-6.9b", "pythia-12b"]
# Question 3: (V, d) of the interview's small tied model. The book's is (40,000, 768), not the sources'
# headline 32,000 x 512, which lesson 05 works out in full: no exercise's book answer may be that one.
INTERVIEWS = [(32_000, 768), (32_000, 1024), (50_000, 512), (16_000, 512), (24_000, 640), (48_000, 384),
              (60_000, 384), (100_000, 512), (32_768, 576), (49_152, 576)]
# Questions 4 and 5: shipped models with a tied head and a learned position table, as GPT-2
# (OPT-350m left out: its table is 512 wide, projected up to 1,024-wide blocks). Lesson 03's
# table of the GPT-2 family prints each size's gap (the book's too): only OPT's is not printed.
SHARE_MODELS = ["gpt2", "gpt2-medium", "gpt2-large", "opt-125m", "opt-1.3b"]
GAP_MODELS = ["gpt2", "gpt2-large", "gpt2-xl", "opt-125m"]

DEFAULTS = {
    "linear_in": 1024,
    "linear_out": 4096,
    "block_model": "gpt2-medium",
    "interview_V": 40_000,
    "interview_d": 768,
    "share_model": "gpt2-xl",
    "gap_model": "gpt2-medium",
}


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: an item of each pool, different in every variant up to the pool's size."""
    linear_in, linear_out = pick("linear", LINEARS)
    interview_V, interview_d = pick("interview", INTERVIEWS)
    return {"linear_in": linear_in, "linear_out": linear_out, "block_model": pick("block_model", BLOCK_MODELS),
            "interview_V": interview_V, "interview_d": interview_d,
            "share_model": pick("share_model", SHARE_MODELS), "gap_model": pick("gap_model", GAP_MODELS)}


def answers(p: dict) -> dict:
    """Every non-function answer of a variant, computed here only to vet the variant (`problems`);
    the answer key itself is harvested by running the solution notebook."""
    m, n = p["linear_in"], p["linear_out"]
    d = model_shape(load_config(p["block_model"])).hidden_size
    share = count_params(load_config(p["share_model"]))
    gap = load_config(p["gap_model"])
    s = model_shape(gap)
    return {"linear_params": m * n + n, "block_params": 12 * d * d + 13 * d,
            "interview": p["interview_V"] * p["interview_d"],
            "embedding_share": share.token_embedding / share.total,
            "estimate_gap": count_params(gap).total - (s.vocab_size * s.hidden_size
                                                       + 12 * s.num_layers * s.hidden_size**2)}


def problems(p: dict) -> list[str]:
    """What makes a variant unusable: a degenerate question, or an answer equal to the book's."""
    out = []
    if p["linear_in"] == p["linear_out"]:
        out.append("a square linear layer: a bias per input looks right")
    if p["interview_V"] == p["interview_d"]:
        out.append("the interview's V equals its d: rows + columns is ambiguous")
    if count_params(load_config(p["share_model"])).position_embedding == 0:
        out.append("share_model has no position table")
    gap = count_params(load_config(p["gap_model"]))
    if gap.position_embedding == 0 or not gap.tied:
        out.append("gap_model has no position table, or an untied head (the rule of thumb counts E once)")
    if out:
        return out
    mine, book = answers(p), answers(DEFAULTS)
    return equal_to_book(mine, book)


def _describe() -> str:
    return (f"linear_in, linear_out: one of {LINEARS}; block_model: one of {BLOCK_MODELS}; "
            f"interview_V, interview_d: one of {INTERVIEWS}; share_model: one of {SHARE_MODELS}; "
            f"gap_model: one of {GAP_MODELS}; each different in every variant up to the pool's size")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(),
              fixed={"gpt2_params": FRESH_INPUTS})

# --------------------------------------------------------------------------
# The questions


def gpt2_params(V, d, L, T):
    """Reference: the exact parameter count of a GPT-2 (tied head, 4d MLP, all biases)."""
    config = {"model_type": "gpt2", "vocab_size": V, "n_embd": d, "n_layer": L, "n_head": 1, "n_positions": T}
    return count_params(config).total


def _gpt2_shapes(rng):
    """Fixed shapes, each there for a kind of bug (every seed tests them), then random ones.

    * GPT-2 small (50,257, 768, 12, 1,024): the lesson's figure: a part left out (a bias, a
      norm, the final norm, the position table) or counted twice (the tied head).
    * GPT-2 XL (50,257, 1,600, 48, 1,024): a width or depth typed as a number (768, 12).
    * a tiny one (10, 4, 1, 8): V and T typed as numbers (50,257, 1,024), one block only.
    * a GPT-3-sized one (50,257, 12,288, 96, 2,048): 175 billion, past 2**32: a count in
      int32 (``np.int32``, ``np.prod`` of an int32 array) wraps, a float32 one rounds.
    * V = 1, T = 1 (1, 64, 2, 1): a one-row table and a one-position context: ``V - 1`` or
      ``T - 1`` rows, an off-by-one at the smallest sizes.
    """
    cases = [(50_257, 768, 12, 1024), (50_257, 1600, 48, 1024), (10, 4, 1, 8), (50_257, 12_288, 96, 2048),
             (1, 64, 2, 1)]
    for _ in range(5):
        cases.append((int(rng.integers(2, 60_000)), int(rng.integers(1, 64)) * 16, int(rng.integers(1, 40)),
                      int(rng.integers(1, 4096))))
    return cases


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


LN_HALF = ("your count has half of the LayerNorms: each of the two has a scale and a shift (beta), d numbers each "
           "(2 · d of scales and 2 · d of shifts per block)")


def block_parts(d: int) -> list:
    """One GPT-2 block as the lesson counts it: matrices, biases and LayerNorms, each a part (the
    biases and the LayerNorms also as groups: leaving all of them out is one slip)."""
    return [
        Part("attention weights", 4 * d * d, "q, k, v and out, four d × d matrices: 4 · d²",
             alts=[Alt(3 * d * d, "attention has four d × d matrices: q, k, v and the output projection")]),
        Part("MLP matrices", 8 * d * d, "two d × 4d matrices: 8 · d²",
             alts=[Alt(4 * d * d, "a 4d MLP has two d × 4d matrices: 8 · d², not 4 · d²"),
                   Alt(12 * d * d, "GPT-2's MLP has two matrices (d × 4d and 4d × d), not three")]),
        Sum("biases", [
            Part("q, k, v biases", 3 * d, "3 · d per block", alts=[Alt(d, (
                "the fused q, k, v layer has 3 · d outputs (q, k and v, d each), so its bias is 3 · d wide, not d"))]),
            Part("attention output bias", d, "d per block"),
            # the MLP's two biases as two parts: the second (d) is as large as the attention output's, so a bias
            # of d left out is named as either of the two (the search's "either …, or …"), never as one of them
            Sum("MLP biases", [
                Part("MLP first-layer bias", 4 * d, "4d per block (d → 4d)", alts=[
                    Alt(d, "the MLP's first layer has 4d outputs, so its bias is 4d wide, not d: 4d + d per block")]),
                Part("MLP second-layer bias", d, "d per block (4d → d: 4·d·d + d)", alts=[
                    Alt(4 * d, "the MLP's second layer has d outputs, so its bias is d wide, not 4d: 4d + d per "
                               "block")]),
            ], "4d + d per block"),
        ], "one per output of each of the four linear layers: 9 · d per block",
            missing="the biases are missing: each linear layer has one per output, 9 · d per block"),
        Sum("LayerNorms", [
            # a scale or a shift left out gives the same number on every d: one mistake (a tag), said once
            Part("LayerNorm scales", 2 * d, "two LayerNorms, d each: 2 · d per block", key="ln-scale", tag="ln-half",
                 missing=LN_HALF),
            Part("LayerNorm shifts", 2 * d, "two LayerNorms, d each: 2 · d per block", key="ln-shift", tag="ln-half",
                 missing=LN_HALF),
        ], "two per block, a scale and a shift each: 4 · d",
            missing="your count has no LayerNorms: two per block, a scale and a shift each, 4 · d per block"),
    ]


def block_layers(d: int, times: int = 1) -> list:
    """The four linear layers of a GPT-2 block, each with its bias: one left out whole is one slip."""
    return [Layer("attention's fused q, k, v layer", d, 3 * d, "d → 3d", times=times),
            Layer("attention's output projection", d, d, "d → d", times=times),
            Layer("the MLP's first layer", d, 4 * d, "d → 4d", times=times),
            Layer("the MLP's second layer", 4 * d, d, "4d → d", times=times)]


def gpt2_parts(V, d, L, T) -> Answer:
    """gpt2_params(V, d, L, T) as named parts."""
    return Answer(Sum("a GPT-2", [
        Part("token table", V * d, "V × d"),
        Extra("head", V * d, "the head is tied: it is E itself and adds nothing"),
        Part("position table", T * d, "T × d", missing="the learned position table (T × d) is missing"),
        Prod("the blocks", [Part("layers", L, "L", missing="that is one block: the model has L of them"),
                            Sum("one block", block_parts(d))]),
        Sum("final LayerNorm", [Part("final scale", d, key="ln-scale"), Part("final shift", d, key="ln-shift")],
            "a scale and a shift, 2 · d", missing="the final LayerNorm (a scale and a shift, 2·d) is missing"),
    ]), context="your count", layers=block_layers(d, L))


def estimate_parts(exact, V, d, L) -> Answer:
    """The gap written as the learner computes it: exact − (V·d + 12·L·d²)."""
    return Answer(Sum("the gap", [
        Part("the exact count", exact, can_drop=False, can_double=False),
        Prod("minus the estimate", [Part("minus", -1, can_drop=False, can_double=False), Sum("the estimate", [
            Part("V·d", V * d, "the token table", twice="the head is tied: the rule of thumb counts E once, "
                                                         "V·d + 12·L·d²"),
            Prod("12·L·d²", [Part("12", 12, alts=[
                Alt(8, "the rule of thumb is 12·d² per block: 4d² attention and 8d² MLP, not the MLP alone"),
                Alt(4, "the rule of thumb is 12·d² per block: 4d² attention and 8d² MLP, not attention alone")]),
                Part("L", L), Part("d²", d * d, alts=[
                Alt(2 * d, "d**2 is d squared (d²), not d * 2"), Alt(d, "the rule of thumb has d squared, d²")])]),
        ])], missing="exact minus estimate: subtract the rule of thumb V·d + 12·L·d²"),
    ]), context="your gap")


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    m, n = p["linear_in"], p["linear_out"]
    d = model_shape(load_config(p["block_model"])).hidden_size
    V_i, d_i = p["interview_V"], p["interview_d"]
    share = count_params(load_config(p["share_model"]))
    positions = count_params(load_config(p["gap_model"])).position_embedding
    block_L = model_shape(load_config(p["block_model"])).num_layers
    gap_s = model_shape(load_config(p["gap_model"]))
    models = {"block_model": "block_params", "share_model": "embedding_share", "gap_model": "estimate_gap"}

    def reads(name):
        """This question's model (its `parameters` name), and what to say when another's is read."""
        own = next(k for k, v in models.items() if v == name)
        others = {k: f"your code reads `{k}` (the model of `{v}`): this question is about `{own}` "
                     f"({p[own]})" for k, v in models.items() if k != own and p[k] != p[own]}
        others.update({p[k]: f"your code loads {p[k]!r}: this question is about `{own}` ({p[own]})"
                       for k in models if k != own and p[k] != p[own]})
        return {"reads": (own, p[own]), "not_reads": others}

    def share_parts():
        E, pos, rest = share.token_embedding, share.position_embedding, share.total - share.token_embedding - share.position_embedding
        s_ = model_shape(load_config(p["share_model"]))
        estimate = s_.vocab_size * s_.hidden_size + 12 * s_.num_layers * s_.hidden_size ** 2
        return Answer(Ratio("the share", Sum("the token table", [
            Part("token table", E, "V × d", key="E", can_drop=False, can_double=False),
            Extra("position table", pos, "only the token table E: leave the position table out"),
            Extra("head", E, "the head is tied: E is one table, counted once (the head is the same matrix)", key="head"),
            Extra("head again", E, "the head is tied: E is one table, counted once (the head is the same matrix)"),
        ]), Sum("the total", [
            Part("token table", E, key="E", can_drop=False, can_double=False),
            Part("position table", pos, "T × d", missing="divide by the whole model: its total includes the position table"),
            Part("the rest", rest, "blocks and final LayerNorm", can_drop=False, can_double=False),
            Extra("head", E, "", key="head"),
        ], alts=[Alt(estimate, "that divides by the rule-of-thumb estimate V·d + 12·L·d²: the share is of the exact "
                               "total, count_params(...).total")]), upside_down="upside down: the share is the table over the whole model"), context="your share")

    def gap_parts():
        """The gap as what the rule of thumb leaves out."""
        L_, d_ = gap_s.num_layers, gap_s.hidden_size
        return Answer(Sum("what the rule of thumb leaves out", [
            Part("position table", positions, "T × d"),
            Prod("the blocks' biases", [Part("layers", L_, "L", missing="the biases of one block only: each of the "
                                                                         "L blocks has its own"),
                                        Part("biases", 9 * d_, "3d + d + 4d + d per block")]),
            Prod("the blocks' LayerNorms", [Part("layers", L_, "L", missing="the LayerNorms of one block only: each "
                                                                             "of the L blocks has its own"),
                                            Part("LayerNorms", 4 * d_, "two, a scale and a shift each: 4 · d per block")]),
            Part("final LayerNorm", 2 * d_, "a scale and a shift, 2 · d"),
        ]), context="your gap")

    def total_without_E():
        return share.token_embedding / (share.total - share.token_embedding)

    return [
        Integer("linear_params", hints=[
            Hint(lambda got, want: got == m * n, "a linear layer has a bias for each output too: m·n + n"),
            Hint(lambda got, want: got == m * n + m, "the bias has one entry per output (n), not per input (m)"),
            Hint(lambda got, want: got in (2 * m * n, 2 * m * n + n, 2 * (m * n + n)),
                 "that is the layer's FLOPs per token (a multiply and an add per weight, 2·m·n), a cost: the question "
                 "asks for its parameters, m·n weights and n biases, one number each"),
        ], parts=lambda: Answer(Sum("a linear layer", [
            Part("weights", m * n, "m · n", alts=[Alt(m * m, "the weights are m × n (in × out), not m × m"),
                                                  Alt(n * n, "the weights are m × n (in × out), not n × n"),
                                                  Alt(m, "the weights are a matrix: multiply in × out, m·n, not "
                                                         "add them")],
                 twice="the weights counted twice (2 per weight is a matmul's FLOPs, its compute): a parameter "
                       "count has one parameter per weight"),
            Part("bias", n, "one per output, n", missing="a linear layer has a bias for each output too: m·n + n",
                 alts=[Alt(m, "the bias has one entry per output (n), not per input (m)")]),
        ])), inputs=lambda: {"linear_in": m, "linear_out": n}),
        Integer("block_params", hints=[
            Hint(lambda got, want: got == want - 13 * d,
                 "that is the 12·d² of the matrices alone: add the biases and the two LayerNorms"),
            Hint(lambda got, want: got == want - 12 * d, "LayerNorms have a scale and a shift: 2·d each"),
        ], parts=lambda: Answer(Sum("one block", block_parts(d)), layers=block_layers(d), scales=[
            Scale(block_L, f"that is all {block_L} blocks of {p['block_model']}: the question asks for one")]),
           **reads("block_params")),
        Integer("interview", hints=[
            ratio(2, "the head is tied: it is the same matrix, so it adds no parameters"),
            Hint(lambda got, want: got == V_i + d_i, "a table has rows × columns cells: multiply them, not add (rows + columns)"),
        ], parts=lambda: Answer(Sum("the model's vocabulary parameters", [
            Prod("the table", [Part("rows", V_i, "V"), Part("columns", d_i, "d")],
                 alts=[Alt(V_i + d_i, "a table has rows × columns cells: multiply them, not add (rows + columns)")]),
            Extra("head", V_i * d_i, "the head is tied: it is the same matrix, so it adds no parameters")])),
           inputs=lambda: {"interview_V": V_i, "interview_d": d_i}),
        Real("embedding_share", exact=True, hints=[
            Hint(lambda got, want: 1 < got <= 100 and abs(got / 100 - want) < 0.01,
                 "give a fraction between 0 and 1, not a percentage"),
            Hint(lambda got, want: _is(got, (share.token_embedding + share.position_embedding) / share.total),
                 "only the token table E: leave the position table out"),
            ratio(2, "the head is tied: E is one table, counted once (the head is the same matrix)"),
            Hint(lambda got, want: _is(got, total_without_E()),
                 "the share is of the whole model: divide by the total, the table included"),
        ], parts=share_parts, **reads("embedding_share")),
        Integer("estimate_gap", hints=[
            ratio(-1, "the sign is wrong (negative): exact minus estimate, the exact count is the larger one"),
            Hint(lambda got, want: got == positions,
                 "that is only the position table: the biases and LayerNorms are missing"),
        ], parts=lambda: [gap_parts(), estimate_parts(count_params(load_config(p["gap_model"])).total,
                                                      gap_s.vocab_size, gap_s.hidden_size, gap_s.num_layers)],
            **reads("estimate_gap")),
        Function("gpt2_params", reference=gpt2_params, cases=_gpt2_shapes,
                 result=Integer("gpt2_params", hints=GPT2_HINTS, parts=gpt2_parts), points=2,
                 own_work={"count_params": "the question asks you to build the count from the pieces, without "
                                           "`count_params` (call it afterwards, in a cell of your own, to compare)"}),
    ]


QUESTIONS = questions(DEFAULTS)

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/03-counting-gpt2.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "linear_params": "1. One linear layer: `m·n + n`",
    "block_params": "2. One GPT-2 block, from its shapes",
    "interview": "3. The whole model",
    "embedding_share": "7. The embedding's share against width and depth",
    "estimate_gap": "4. The rule of thumb, term by term",
    "gpt2_params": "3. The whole model",
}
