"""Exercise 06 `params-vs-compute`: price a head, a lookup, a forward pass; shares; a FLOP/s figure; stored against used.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import math

import numpy as np

from embedlab.compute import token_costs
from embedlab.grading.kinds import Function, Hint, Integer, Real, Shortcut, ratio
from embedlab.grading.parts import Alt, Answer, Extra, Part, Prod, Ratio, Scale, Sum
from embedlab.grading.space import FRESH_INPUTS, Space, equal_to_book
from embedlab.params import count_params, load_config, model_shape

LESSON = "06-params-vs-compute"

# --------------------------------------------------------------------------
# The variant space (models only from the configs shipped in embedlab/data)

# Question 1's head: any shipped model but the book's and OPT-350m (its 512-wide table is
# projected up to d = 1,024 and back, so its head is not the d × V matmul the question prices).
HEAD_MODELS = ["deepseek-v2-lite", "deepseek-v3", "gemma-2-2b", "gemma-2-9b", "gemma-2b", "gemma-3-1b",
               "gemma-7b", "gpt2", "gpt2-large", "gpt2-medium", "gpt2-xl", "llama-2-7b", "llama-3-8b",
               "llama-3.2-3b", "mistral-7b", "mixtral-8x7b", "olmo-2-1124-7b", "opt-1.3b", "opt-125m",
               "phi-1.5", "phi-2", "phi-3-mini-4k", "pythia-1.4b", "pythia-12b", "pythia-160m", "pythia-1b",
               "pythia-2.8b", "pythia-410m", "pythia-6.9b", "pythia-70m", "qwen2.5-0.5b", "qwen2.5-7b",
               "qwen3-0.6b", "qwen3-30b-a3b", "qwen3-8b", "smollm2-135m"]
# Questions 2, 3 and 7's model: dense, untied (Kaplan's N has a head to leave out in every
# variant), no learned position table and no scaled lookup (Gemma multiplies the row by √d).
# Not Mistral-7B: its blocks are Llama-3-8B's, so its Kaplan N is the book's answer.
MODELS = ["llama-2-7b", "olmo-2-1124-7b", "phi-1.5", "phi-2", "phi-3-mini-4k", "pythia-70m",
          "pythia-160m", "pythia-410m", "pythia-1b", "pythia-1.4b", "pythia-2.8b", "pythia-6.9b", "pythia-12b",
          "qwen2.5-7b", "qwen3-8b"]
# Questions 4 and 5's model: any shipped model but the book's and OPT-350m (see above).
SHARE_MODELS = [m for m in HEAD_MODELS if m != "gpt2"] + ["llama-3.2-1b"]
CONTEXTS = [256, 512, 1024, 2048, 4096, 8192]  # T, cut to what the share model was trained on
# Question 7: tokens of pretraining, and the rate a GPU sustains from which the GPU hours are
# made (rounded to 2 significant figures); the answer is computed from the rounded hours.
TOKENS = [0.3e12, 1e12, 2e12, 3e12, 6e12, 9e12, 18e12, 36e12]
RATE = (1.0e14, 4.0e14)  # FLOP/s per GPU, a realistic 30-50 % of an A100's or H100's bf16 peak
# Question 8: the shipped mixtures of experts other than the book's Mixtral.
MOE_MODELS = ["qwen3-30b-a3b", "deepseek-v2-lite", "deepseek-v3"]

DEFAULTS = {
    "head_model": "llama-3.2-1b",
    "model": "llama-3-8b",
    "share_model": "gpt2",
    "T": 1024,
    "D": 15e12,
    "GPU_HOURS": 1.3e6,
    "moe_model": "mixtral-8x7b",
}


def context_of(name: str) -> int:
    """The context a shipped model was trained for (its config's position count)."""
    config = load_config(name)
    return config.get("max_position_embeddings") or config["n_positions"]


def n_mult(counts) -> int:
    """Question 7's N, lesson 06's N_mult: the weights a token multiplies, every parameter one token
    uses but an untied input table (only looked up) and a position table (only added)."""
    return counts.active - (0 if counts.tied else counts.token_embedding) - counts.position_embedding


def draw(rng: np.random.Generator, pick, models=MODELS) -> dict:
    """One class variant: each model picked so that variants differ (up to a pool's size), T among
    the contexts the share model was trained for, the GPU hours from a realistic rate."""
    model, share_model = pick("model", models), pick("share_model", SHARE_MODELS)
    T = int(rng.choice([t for t in CONTEXTS if t <= context_of(share_model)]))
    D = pick("D", TOKENS)
    N = n_mult(count_params(load_config(model)))
    hours = 6 * N * D / (float(rng.uniform(*RATE)) * 3600)
    return {"head_model": pick("head_model", HEAD_MODELS), "model": model, "share_model": share_model, "T": T,
            "D": D, "GPU_HOURS": float(f"{hours:.2g}"), "moe_model": pick("moe_model", MOE_MODELS)}


# The second looks' models for questions 2, 3 and 7 (embedlab.grading.variants): the class pool keeps
# every variant's question the same (a head to leave out, no position table), which also keeps a method
# that forgets the position table or the head right in every variant; a look may have both.
LOOK_MODELS = MODELS + ["gpt2", "gpt2-medium", "opt-125m", "opt-1.3b"]


def look_draw(rng: np.random.Generator, pick) -> dict:
    return draw(rng, pick, LOOK_MODELS)


def share(p: dict, head_positions: int, attention: bool = True, square: bool = False,
          head_in_total: int | None = None) -> float:
    """The head's share of a pass of `share_model` over T tokens, right (the defaults) or as a
    learner might slip: the head at `head_positions` positions, attention left out or over T², the
    head counted at `head_in_total` positions in the whole (T where it runs once: the part once, the whole T times)."""
    c, T = token_costs(load_config(p["share_model"])), p["T"]
    keys = T * T if square else T * (T + 1) // 2
    in_total = head_positions if head_in_total is None else head_in_total
    total = T * (c.input + c.blocks) + in_total * c.head + (c.attention_per_key * keys if attention else 0)
    return head_positions * c.head / total


def one_position(p: dict) -> float:
    """The head's share of one position of `share_model` alone: head / (input + blocks + head)."""
    c = token_costs(load_config(p["share_model"]))
    return c.head / (c.input + c.blocks + c.head)


BLOCKS_T_TIMES = ("reading a prompt, every one of the T positions goes through the lookup and the blocks (the "
                  "tokens after it attend to its keys and values in every layer, and a layer's keys and values "
                  "are made from what the layers below give): those run T times; only the head runs once, at "
                  "the last position")


# T² keys in all, said of the count (T keys at every position), not of a form: a
# learner who prices every position at the last one's T keys never writes T², and one
# who writes T * T is told the same count
SQUARE_KEYS = ("your attention counts T keys at every position, T² in all: token t "
               "attends to t positions, T(T+1)/2 keys in all")


def blocks_once(p: dict, keys: int) -> float:
    """Question 5 as a learner may slip: the lookup and blocks for one token only, the head once,
    attention over `keys` keys."""
    c = token_costs(load_config(p["share_model"]))
    return c.head / (c.input + c.blocks + c.head + c.attention_per_key * keys)


def expert_layout(name: str) -> dict:
    """What question 8 gives about a mixture of experts: layers with experts, experts, k, d, d_ff."""
    s = model_shape(load_config(name))
    return {"moe_layers": len(s.moe.moe_layers), "n_experts": s.moe.num_experts, "k": s.moe.experts_per_token,
            "d": s.hidden_size, "d_ff": s.moe.expert_intermediate_size}


def answers(p: dict) -> dict:
    """Every non-function answer of a variant, computed here only to vet the variant (`problems`);
    the answer key itself is harvested by running the solution notebook."""
    head = model_shape(load_config(p["head_model"]))
    counts = count_params(load_config(p["model"]))
    moe, e = count_params(load_config(p["moe_model"])), expert_layout(p["moe_model"])
    return {"head_flops": 2 * head.hidden_size * head.vocab_size, "lookup_flops": 0,
            "kaplan_n": counts.total - counts.token_embedding - counts.position_embedding - counts.lm_head,
            "head_share_training": share(p, p["T"]), "head_share_prompt": share(p, 1),
            "flop_rate": 6 * n_mult(counts) * p["D"] / (p["GPU_HOURS"] * 3600),
            "active_params": moe.total - e["moe_layers"] * (e["n_experts"] - e["k"]) * 3 * e["d"] * e["d_ff"]}


def problems(p: dict) -> list[str]:
    """What makes a drawn variant unusable: a degenerate question, or an answer equal to the book's."""
    out = []
    if p["T"] > context_of(p["share_model"]):
        out.append(f"T={p['T']} is longer than {p['share_model']} was trained for")
    if p["model"] not in MODELS or p["moe_model"] not in MOE_MODELS + ["mixtral-8x7b"]:
        out.append("a model outside its pool")
    if out:
        return out
    mine, book = answers(p), answers(DEFAULTS)
    if not mine["head_share_prompt"] < share(p, 1, attention=False) < mine["head_share_training"] / 2:
        out.append("question 5's slips are not told apart")
    return out + equal_to_book(mine, book, skip=SPACE.fixed)


def _describe() -> str:
    return (f"head_model: one of {len(HEAD_MODELS)} shipped configs ({', '.join(HEAD_MODELS)}); model (questions "
            f"2, 3, 7): one of {len(MODELS)} dense untied configs ({', '.join(MODELS)}); share_model: one of "
            f"{len(SHARE_MODELS)} configs (every one but OPT-350m and GPT-2 small); T: one of {CONTEXTS} up to the "
            f"share model's context; D: one of {TOKENS} tokens; GPU_HOURS: 6·N·D at a rate drawn from "
            f"{RATE[0]:.1e} to {RATE[1]:.1e} FLOP/s, to 2 significant figures; moe_model: one of {MOE_MODELS}; "
            f"each model and D different in every variant up to its pool's size")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(), look_draw=look_draw, fixed={
    "lookup_flops": "a lookup costs 0 FLOPs for every table: that is the question's point (its model still varies)",
    "forward_flops_per_token": FRESH_INPUTS,
})

# --------------------------------------------------------------------------
# The questions


def _is(got, value):
    return math.isclose(got, value, rel_tol=1e-9)


def gpt_forward_flops(V, d, L, d_ff, context):
    """FLOPs for one token of a GPT-2-style model (tied head) that attends to `context` positions.

    Matmuls at 2 FLOPs per weight: attention q, k, v, out (4·d²) and the MLP (2·d·d_ff)
    in each of L blocks; attention over the context 4·context·d per block; head 2·d·V;
    the lookup 0. Biases, norms and the position add are left out.
    """
    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + 2 * d * V


def _model_shapes(rng):
    """Fixed shapes, each there for a kind of bug (every seed tests them), then random small
    shapes (d a multiple of 64, d_ff = 4d or not).

    * GPT-2 small at a context of 1,024: the lesson's figure: a matmul left out or counted once
      (not 2 FLOPs per weight), the head left out, the lookup counted, the attention term off.
    * GPT-2 XL at a context of 1: the attention over the context nearly gone: a width or depth
      typed as a number.
    * Llama-2-7B-like (32,000, 4,096, 32, d_ff 11,008, context 4,096): d_ff is not 4d: the MLP
      written as 8·d² (both GPT-2s have d_ff = 4d).
    * a tiny one (10, 64, 1, 100, 3): V, L and the context typed as numbers (50,257, 12, 1,024).
    * GPT-3 (50,257, 12,288, 96, 49,152, 2,048): 350 billion FLOPs, past 2**32: a count in
      int32 wraps, a float32 one rounds.
    """
    cases = [(50_257, 768, 12, 3072, 1024), (50_257, 1600, 48, 6400, 1), (32_000, 4096, 32, 11_008, 4096),
             (10, 64, 1, 100, 3), (50_257, 12_288, 96, 49_152, 2048)]
    for _ in range(4):
        d = 64 * int(rng.integers(1, 40))
        cases.append((int(rng.integers(1000, 200_000)), d, int(rng.integers(1, 48)),
                      int(rng.integers(d, 6 * d)), int(rng.integers(1, 32_768))))
    return cases


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


def forward_parts(V, d, L, d_ff, context) -> Answer:
    """forward_flops_per_token(V, d, L, d_ff, context) as named parts."""
    two = "a matmul costs 2 FLOPs per weight (multiply and add)"
    return Answer(Sum("one token's forward pass", [
        Prod("the blocks' matmuls", [
            Part("2 FLOPs per weight", 2, missing="every matmul costs 2 FLOPs per weight (multiply and add)", key="two"),
            Part("layers", L, "L", missing="that is one block's matmuls: the model has L blocks"),
            Sum("one block's weights", [
                Part("attention matrices", 4 * d * d, "q, k, v and out: 4 · d²",
                     alts=[Alt(3 * d * d, "the attention's output projection is missing: four d × d matrices, "
                                          "q, k, v and out")]),
                Part("MLP matrices", 2 * d * d_ff, "two d × d_ff matrices: 2 · d · d_ff",
                     alts=[Alt(8 * d * d, "use the d_ff given, not 4·d"), Alt(d * d_ff, "one MLP matrix only: the MLP has two, "
                                                                                       "d × d_ff (up) and d_ff × d "
                                                                                       "(down): count both")]),
            ])]),
        Prod("attention over the context", [
            Part("layers", L, "L", missing="every one of the L blocks attends over the context"),
            Part("4 · d per key", 4 * d, "scores (q·k) and the weighted sum of v, 2 · d each",
                 alts=[Alt(2 * d, "attention over the context is 4·context·d per block: scores (q·k) and the "
                                  "weighted sum of v, 2·context·d each")]),
            Part("context", context, "the positions attended to")],
            missing="attention over the context is missing: 4·context·d per block (scores and the weighted sum)"),
        Prod("the head", [Part("2 FLOPs per weight", 2, key="two", missing=two), Part("d", d), Part("V", V)],
             missing="the head (a d × V matmul, 2·d·V) is missing: only the lookup is free"),
        Extra("the lookup", 2 * d * V, "the lookup costs 0: a row is copied, not multiplied"),
    ]), context="your count")


def active_parts(total, n_moe, E, k, d, d_ff, name) -> list:
    """Mixture of experts' active parameters, the two ways a learner computes it: every parameter
    stored minus the experts a token skips, or what every token uses plus its k experts."""
    def expert(count_part):
        return [Part("MoE layers", n_moe, "moe_layers",
                     missing=f"each of {name}'s {n_moe} expert layers, those whose MLP holds experts, has its own "
                             "experts"),
                count_part,
                Part("matrices per expert", 3, "gate, up and down",
                     alts=[Alt(2, "each expert is a gated MLP: three matrices (gate, up, down), not two"),
                           Alt(1, "each expert is a gated MLP: three d × d_ff matrices (gate, up, down), not one")]),
                Part("d", d), Part("d_ff", d_ff, "the expert's width")]
    skipped = Prod("the experts a token skips", [Part("minus", -1, can_drop=False, can_double=False), *expert(
        Part("experts skipped", E - k, "E − k", alts=[
            Alt(E, f"you took away all {E} experts of each expert layer: the token still uses {k} of them, the "
                   "ones it is routed to (experts_per_token)", tag="all E"),
            Alt(k, f"you took away the {k} experts the token uses; it skips the other {E - k}", tag="k for E-k")]))],
        missing="that is every parameter stored; a token skips most experts")
    scaled = Alt(total * k / E, f"scaling the whole model by k / n_experts shrinks attention, embeddings and norms "
                                f"too: every token uses those (shared); only the experts are used {k} of {E}")
    stored_minus_skipped = Answer(Sum("active parameters", [
        Part("every parameter stored", total, can_drop=False, can_double=False), skipped], alts=[scaled]))
    used = total - n_moe * E * 3 * d * d_ff
    shared_plus_used = Answer(Sum("active parameters", [
        Part("what every token uses", used, "attention, router, norms and both vocabulary tables",
             missing="those are only the experts a token uses: its attention, router, norms and both vocabulary "
                     "tables work on it too"),
        Prod("the experts a token uses", tag="all E", missing=(
            f"you took away all {E} experts of each expert layer: the token still uses {k} of them, the ones it "
            f"is routed to (experts_per_token)"), children=expert(Part("experts used", k, "k (experts_per_token)", alts=[
            Alt(E, f"a token uses {k} of the {E} experts of each expert layer, not all", tag="all E"),
            Alt(E - k, f"a token uses its {k} experts, not the {E - k} it skips", tag="k for E-k")])))]))
    return [stored_minus_skipped, shared_plus_used]


# Questions 4 and 5 ask for the head's share built from `c`'s parts: the library's whole answer (forward_flops, its
# Flops.share) is refused with why, and may be used beside the answer to check it (work.Shortcut)
_BUILD_WHY = ("the question asks you to build the share from `c`'s parts, as its table sets them out: "
              "`forward_flops` adds them up for you, so use it afterwards, to check yours")
BUILD_SHARE = {Shortcut("forward_flops"): _BUILD_WHY, Shortcut("share", attribute=True): _BUILD_WHY}


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    table = model_shape(load_config(p["model"]))
    counts = count_params(load_config(p["model"]))
    name = load_config(p["model"])["_name"]
    train_share = share(p, p["T"])
    moe, e = count_params(load_config(p["moe_model"])), expert_layout(p["moe_model"])
    moe_name, n_moe, E, k = load_config(p["moe_model"])["_name"], e["moe_layers"], e["n_experts"], e["k"]
    expert = 3 * e["d"] * e["d_ff"]
    head = model_shape(load_config(p["head_model"]))
    costs = token_costs(load_config(p["share_model"]))
    T = p["T"]
    models = {"head_model": ("head_flops",), "model": ("kaplan_n", "flop_rate", "lookup_flops"),
              "share_model": ("head_share_training", "head_share_prompt"), "moe_model": ("active_params",)}

    def reads(name):
        own = next(k for k, v in models.items() if name in v)
        others = {k: f"your code reads `{k}` ({p[k]}), the model of another question: this one is about "
                     f"`{own}` ({p[own]})" for k in models if k != own and p[k] != p[own]}
        others.update({p[k]: f"your code loads {p[k]!r}: this question is about `{own}` ({p[own]})"
                       for k in models if k != own and p[k] != p[own]})
        return {"reads": (own, p[own]), "not_reads": others}

    def share_parts(prompt: bool):
        """The head's share of a pass over T tokens: the head at T positions (training) or 1 (a prompt)."""
        def head_positions():
            if prompt:
                return Part("positions that need logits", 1, key="positions", alts=[Alt(T, (
                    "reading a prompt, only the last position needs logits: the head runs once, not T times"))])
            return Part("positions that need logits", T, key="positions", alts=[Alt(1, (
                "in training every position needs logits: the head runs T times, not once"))])
        keys = T * (T + 1) // 2
        return Answer(Ratio("the head's share", Prod("the head", [head_positions(), Part("head", costs.head)]), Sum(
            "the whole pass", [
                Prod("the blocks and lookup", [Part("T", T, key="T", alts=[Alt(1, BLOCKS_T_TIMES)] if prompt else []),
                                               Part("per token", costs.input + costs.blocks)]),
                Prod("the head", [head_positions(), Part("head", costs.head)],
                     missing="the share is of the whole pass: put the head in the total you divide by (the "
                             "denominator)"),
                Part("attention over the context", costs.attention_per_key * keys, "grows with every position",
                     missing="too big: you left out attention over the context, which grows with every position",
                     alts=[Alt(costs.attention_per_key * T * T, SQUARE_KEYS),
                           # half the T × T score matrix: the diagonal (each token's key of its own) left out
                           *[Alt(costs.attention_per_key * k, f"{words}: token t attends to t positions, itself "
                                                              "included, so T(T+1)/2 keys in all; the diagonal of "
                                                              "the T × T scores belongs in")
                             for k, words in ((T * T / 2, "T²/2 keys is half the T × T scores"),
                                              (T * (T - 1) // 2, "T(T−1)/2 keys leaves out each token's own key"))]])]),
            upside_down="upside down: the share is the head's FLOPs over the whole pass's"), context="your share",
            # a share has no unit: bytes, KiB or GB cannot be its slip (units=False); a percentage can
            units=False, scales=[Scale(100, "a percentage: give the fraction (between 0 and 1)")] + ([Scale(
                T, "the head at T positions in the part only: reading a prompt, only the last position needs "
                   "logits, so the head runs once")] if prompt else []))

    N = n_mult(counts)
    return [
        Integer("head_flops", hints=[
            ratio(0.5, "a matmul costs 2 FLOPs per weight: one multiply and one add"),
            Hint(lambda got, want: got == 0, "0 is the input lookup; the head is a real d × V matmul"),
        ], parts=lambda: Answer(Prod("the head's matmul", [
            Part("2 FLOPs per weight", 2, missing="a matmul costs 2 FLOPs per weight: one multiply and one add"),
            Part("d", head.hidden_size, "the width"), Part("V", head.vocab_size, "the vocabulary")]), scales=[
            Scale(T, f"that is the head at T = {T} positions: the question prices one position"),
            Scale(2, "the head is the only matmul: the input lookup is free, so a tied table is multiplied once, "
                     "in the head only")]),
            inputs=lambda: {"the vocabulary size V": head.vocab_size, "the width d": head.hidden_size},
            **reads("head_flops")),
        Integer("lookup_flops", hints=[
            Hint(lambda got, want: got > 0 and got % table.hidden_size == 0 and got // table.hidden_size <= 4,
                 "a lookup copies d numbers: copying moves data but does no arithmetic; a FLOP is one multiply "
                 "or one add"),
            Hint(lambda got, want: got == 2 * table.vocab_size * table.hidden_size,
                 "that is what the one-hot matmul would cost; the lookup only copies a row"),
            Hint(lambda got, want: want == 0 and got != 0,
                 "a lookup copies a row of the table: it moves data and does no arithmetic, whatever the table's "
                 "size (only the head is a matmul); a FLOP is one multiply or one add"),
        ]),
        Integer("kaplan_n", hints=[
            Hint(lambda got, want: got == counts.total - counts.token_embedding,
                 f"you removed the input table only: {name}'s untied head is a second vocabulary-sized matrix"),
            Hint(lambda got, want: got == counts.total,
                 "that is every parameter; non-embedding N leaves out the vocabulary-sized matrices"),
        ], parts=lambda: Answer(Sum("non-embedding N", [
            Part("every parameter", counts.total, can_drop=False, can_double=False),
            Part("the input table", -counts.token_embedding, "V × d", twice="the input table taken away twice",
                 missing="you kept the input table: non-embedding N leaves out the vocabulary-sized matrices"),
            Part("the head", -counts.lm_head, "d × V, untied", twice="the head taken away twice",
                 missing=f"you removed the input table only: {name}'s untied head is a second vocabulary-sized "
                         "matrix"),
        ]), whole=(counts.total, "those are the embedding parameters: non-embedding N is everything except "
                                 "them (the blocks and norms)"),
            scales=[Scale(1 / table.num_layers, "that is one layer's share: N is the whole model's non-embedding "
                                                "count, all L blocks")]), **reads("kaplan_n")),
        Real("head_share_training", exact=True, hints=[
            Hint(lambda got, want: _is(got, share(p, p["T"], attention=False)),
                 "too big: you left out attention over the context, which grows with every position"),
            Hint(lambda got, want: _is(got, share(p, p["T"], square=True)),
                 SQUARE_KEYS),
            Hint(lambda got, want: got > 1, "a share is a fraction between 0 and 1"),
        ], parts=lambda: share_parts(False), own_work=BUILD_SHARE, **reads("head_share_training")),
        Real("head_share_prompt", exact=True, hints=[
            # one position priced alone (T = 1 everywhere): two slips at once in the parts' terms, one in the
            # learner's (newcomer O was told two slips, each repeating the attention left out)
            Hint(lambda got, want: _is(got, one_position(p)),
                 "that is the share of one position, head / (input + blocks + head): the pass reads all T "
                 "positions, so the lookup, the blocks and attention over the context run for each of them, and "
                 "the head once, at the last"),
            Hint(lambda got, want: _is(got, share(p, 1, attention=False)),
                 "too big: you left out attention over the context, which grows with every position"),
            Hint(lambda got, want: any(_is(got, blocks_once(p, keys)) for keys in (1, T, T * (T + 1) // 2, T * T)),
                 BLOCKS_T_TIMES),
            Hint(lambda got, want: _is(got, share(p, 1, head_in_total=p["T"])),
                 "your whole counts the head at all T positions: reading a prompt, the head runs once, at the "
                 "last position, in the whole as in the part (the lookup and the blocks run T times)"),
        ], parts=lambda: share_parts(True), own_work=BUILD_SHARE, **reads("head_share_prompt")),
        # its text writes the count out, term by term, in every argument
        # (`4·context·d`, `d × V`, …)
        Function("forward_flops_per_token", reference=gpt_forward_flops, cases=_model_shapes,
                 formula=("V", "d", "L", "d_ff", "context"),
                 result=Integer("forward_flops_per_token", hints=[
                     ratio(0.5, "every matmul costs 2 FLOPs per weight (multiply and add), the head included"),
                     *FORWARD_HINTS,
                 ], parts=forward_parts)),
        Real("flop_rate", exact=True, hints=[
            ratio(1e-12, "that is TFLOP/s: the question asks for FLOP/s, 10¹² times more"),
            ratio(3600, "GPU hours are hours: a rate in FLOP/s needs seconds"),
            ratio(1 / 3, "training is forward and backward: 6·N·D, not 2·N·D"),
        ], parts=lambda: Answer(Prod("the rate", [
            Part("6 FLOPs per parameter per token", 6, "forward and backward",
                 alts=[Alt(2, "training is forward and backward: 6·N·D, not 2·N·D")]),
            Part("N", N, "N_mult, the weights a token multiplies", alts=[
                Alt(counts.non_embedding, "that uses Kaplan's non-embedding N, which leaves out the head: the "
                                          "question's N is N_mult, the weights a token multiplies (the given N)"),
                Alt(counts.total, "that is every parameter (N_all): the input table is only looked up, 0 FLOPs; "
                                  "the question's N is N_mult, the weights a token multiplies (the given N)")]),
            Part("D", p["D"], "training tokens"),
            Part("per GPU hour", 1 / p["GPU_HOURS"], "GPU_HOURS",
                 missing="divide by the time: GPU_HOURS × 3,600 seconds"),
            Part("hours to seconds", 1 / 3600, missing="GPU hours are hours: a rate in FLOP/s needs seconds",
                 alts=[Alt(1 / 60, "an hour is 3,600 seconds (60 × 60): × 60 gives minutes, not seconds")])]),
            context="your rate"), inputs=lambda: {"N": N, "D": p["D"], "GPU_HOURS": p["GPU_HOURS"]},
            **reads("flop_rate")),
        Integer("active_params", parts=lambda: active_parts(moe.total, n_moe, E, k, e["d"], e["d_ff"], moe_name),
                own_work={Shortcut("active", attribute=True): (
                    "the question asks you to start from the total and take away the experts a token skips: "
                    "`counts.active` holds the answer, so use it afterwards, to check yours")},
                **reads("active_params")),
    ]


QUESTIONS = questions(DEFAULTS)

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/06-params-vs-compute.ipynb, its `## ` heading as written) each question practises, or
# ("NN-slug", heading) where another lesson teaches it (lessons.reread_where); the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "head_flops": "1. A matmul costs 2 FLOPs per weight, a lookup costs 0",
    "lookup_flops": "1. A matmul costs 2 FLOPs per weight, a lookup costs 0",
    "kaplan_n": "6. The other counts called N",
    "head_share_training": "5. The head's share: training against generation",
    "head_share_prompt": "5. The head's share: training against generation",
    "forward_flops_per_token": "4. Attention over the context: work without parameters",
    "flop_rate": "7. FLOPs are counts, FLOP/s are rates",
    # counted matrix by matrix in lesson 04 (section 6 here only names N_active): the reread points there
    "active_params": ("04-modern-blocks", "8. A mixture of experts: Mixtral-8x7B"),
}
