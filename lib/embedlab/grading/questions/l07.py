"""Exercise 07 `memory`: weights in int4, Adam's bytes part by part, a GQA cache, a cache calculator, a batch that fits.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import functools
import math

import numpy as np

from embedlab.grading.kinds import Array, Function, Hint, Integer, Real, ratio
from embedlab.grading.parts import Alt, Answer, Part, Prod, Ratio, Sum
from embedlab.grading.space import FRESH_INPUTS, Space, equal_to_book
from embedlab.grading.verdicts import untold_slips
from embedlab.params import count_params, load_config, model_shape

LESSON = "07-memory"

# --------------------------------------------------------------------------
# The variant space

BYTES = {"fp32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1, "int4": 0.5}  # bytes per number
# Models whose every layer caches keys and values for the whole context with grouped (or multi-)
# query attention: no sliding window (Mistral-7B, Gemma-2, Gemma-3, Phi-3), no latent cache
# (DeepSeek), so 2 · L · h_kv · head_dim · bytes per token is their cache.
GQA = ["llama-3.2-1b", "llama-3.2-3b", "llama-3-8b", "mixtral-8x7b", "qwen2.5-0.5b", "qwen2.5-7b",
       "qwen3-0.6b", "qwen3-8b", "qwen3-30b-a3b", "smollm2-135m", "gemma-2b"]
# Question 1: any shipped model but the book's (Llama-3-8B).
WEIGHTS_MODELS = ["gpt2-xl", "llama-2-7b", "llama-3.2-1b", "llama-3.2-3b", "mistral-7b", "mixtral-8x7b",
                  "gemma-7b", "gemma-2-9b", "olmo-2-1124-7b", "phi-2", "phi-3-mini-4k", "pythia-12b",
                  "qwen2.5-7b", "qwen3-8b", "qwen3-30b-a3b", "deepseek-v2-lite"]
# Question 2: dense models one might train, not the book's GPT-2 small.
ADAM_MODELS = ["gpt2-medium", "gpt2-large", "gpt2-xl", "opt-125m", "opt-1.3b", "pythia-70m", "pythia-160m",
               "pythia-410m", "pythia-1b", "smollm2-135m", "qwen2.5-0.5b", "llama-3.2-1b", "phi-1.5"]
# Question 3: not the book's Qwen2.5-7B; not Gemma-2B nor Qwen3-30B-A3B (8 query heads per kv head:
# caching every query head would look like bits for bytes) nor Llama-3-8B / Mixtral (the same cache per token
# as each other: a class may get both under other names), nor Qwen3-0.6B (in fp8 its cache per token
# is the book's answer, and in bf16 caching every query head would look like fp32)
CACHE_MODELS = ["llama-3.2-1b", "llama-3.2-3b", "mixtral-8x7b", "qwen2.5-0.5b", "qwen3-8b", "smollm2-135m"]
CACHE_PRECISIONS = ["bf16", "fp16", "fp8", "int8"]
# Question 4: grouped models where the grouped cache is not half the full one (h = 2 h_kv would make
# "the cache with grouping" equal to the saving); not the book's Llama-3-8B.
GQA_MODELS = ["llama-3.2-1b", "llama-3.2-3b", "mixtral-8x7b", "qwen2.5-0.5b", "qwen2.5-7b", "qwen3-8b",
              "qwen3-30b-a3b", "smollm2-135m", "gemma-2b"]
CONTEXTS = [2048, 4096, 8192, 16_384, 32_768, 65_536, 131_072]  # tokens; up to the model's own maximum
# Question 6: GPU memory sizes that are sold (GB): L4/RTX 4090, A100 40 GB, L40S, A100/H100 80 GB,
# H100 NVL, H200, MI300X/B200
GPUS = [24, 40, 48, 80, 94, 141, 192]
SERVE_MODELS = ["llama-3.2-1b", "llama-3.2-3b", "mixtral-8x7b", "qwen2.5-0.5b", "qwen2.5-7b", "qwen3-0.6b",
                "qwen3-8b", "qwen3-30b-a3b", "smollm2-135m", "gemma-2b"]
WEIGHT_PRECISIONS = ["fp32", "bf16", "int8", "int4"]
MAX_BATCH = (2, 1000)  # question 6's answer, inclusive: a batch, not 1 nor thousands

DEFAULTS = {
    "weights_model": "llama-3-8b",
    "adam_model": "gpt2",
    "cache_model": "qwen2.5-7b",
    "cache_precision": "bf16",
    "gqa_model": "llama-3-8b",
    "gqa_context": 8192,
    "gpu_gb": 80,
    "serve_model": "llama-3-8b",
    "weights_precision": "bf16",
    "serve_context": 8192,
}


@functools.lru_cache(maxsize=None)
def _shape(model: str) -> tuple:
    c = load_config(model)
    s = model_shape(c)
    return (("L", s.num_layers), ("h", s.num_heads), ("h_kv", s.num_kv_heads), ("head_dim", s.head_dim),
            ("context", c.get("max_position_embeddings", 0)), ("N", count_params(c).total))


def shape(model: str) -> dict:
    """L, h, h_kv, head_dim, the maximum context and N of a shipped model."""
    return dict(_shape(model))


def _context(rng, model: str) -> int:
    fits = [n for n in CONTEXTS if n <= shape(model)["context"]]
    return int(rng.choice(fits))


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: each question's model picked from its pool (a different one per variant,
    up to the pool's size), precisions, contexts and the GPU drawn to fit."""
    gqa_model, serve_model = pick("gqa_model", GQA_MODELS), pick("serve_model", SERVE_MODELS)
    return {
        "weights_model": pick("weights_model", WEIGHTS_MODELS),
        "adam_model": pick("adam_model", ADAM_MODELS),
        "cache_model": pick("cache_model", CACHE_MODELS),
        "cache_precision": str(rng.choice(CACHE_PRECISIONS)),
        "gqa_model": gqa_model,
        "gqa_context": _context(rng, gqa_model),
        "gpu_gb": int(rng.choice(GPUS)),
        "serve_model": serve_model,
        "weights_precision": str(rng.choice(WEIGHT_PRECISIONS)),
        "serve_context": _context(rng, serve_model),
    }


def _kv_per_token(s: dict, b: float, heads: str = "h_kv") -> float:
    return 2 * s["L"] * s[heads] * s["head_dim"] * b


def kv_recheck(c: dict, precision: str) -> tuple[dict, int, str]:
    """Question 3 in another cache precision: a cell that types the bytes per number (2 for bf16) rather
    than reading them from cache_precision gives the book's bytes for every precision."""
    other = "fp32" if BYTES[precision] != 4 else "int8"
    inputs = {"L": c["L"], "h": c["h"], "h_kv": c["h_kv"], "head_dim": c["head_dim"], "cache_precision": other,
              "['num_hidden_layers']": c["L"], "['num_attention_heads']": c["h"],
              "['num_key_value_heads']": c["h_kv"], ".num_layers": c["L"], ".num_heads": c["h"],
              ".num_kv_heads": c["h_kv"], ".head_dim": c["head_dim"],
              # a width that is not h · head_dim: a cell that takes d / h for a head_dim the config states parts
              "['hidden_size']": c["h"] * (c["head_dim"] + 1), ".hidden_size": c["h"] * (c["head_dim"] + 1)}
    return inputs, int(_kv_per_token(c, BYTES[other])), f"with cache_precision = {other!r}"


def gqa_recheck(precision: str) -> tuple[dict, float, str]:
    """Question 4 on a made-up shape in another precision: h_kv is not 1 (Gemma-2B's is: leaving h_kv
    out passes there), the bytes per number are not 1 (int8: leaving them out passes) nor the
    variant's, head_dim is not d / h (a cell that takes d / h for the head_dim a config states passes
    on Llama-3-8B), and the saving is no whole number of GiB (Llama-3-8B's 3.0 passes `//`)."""
    other = "fp32" if BYTES[precision] != 4 else "bf16"
    s = {"L": 7, "h": 12, "h_kv": 3, "head_dim": 40}
    context = 1000
    inputs = {**s, "cache_precision": other, "gqa_context": context, "context": context,
              "['num_hidden_layers']": s["L"], "['num_attention_heads']": s["h"],
              "['num_key_value_heads']": s["h_kv"], "['head_dim']": s["head_dim"], ".num_layers": s["L"],
              ".num_heads": s["h"], ".num_kv_heads": s["h_kv"], ".head_dim": s["head_dim"],
              "['hidden_size']": 1000, ".hidden_size": 1000}  # d / h = 83, not head_dim
    saving = (_kv_per_token(s, BYTES[other], "h") - _kv_per_token(s, BYTES[other])) * context / 2**30
    return inputs, saving, (f"for L = 7, h = 12, h_kv = 3, head_dim = 40 (d = 1,000), {other}, a context of "
                            f"{context:,}")


def max_batch_recheck() -> tuple[dict, int, str]:
    """Question 6 where the weights' bytes matter: a small model on a large GPU (Qwen2.5-0.5B on
    192 GB) leaves the same whole batch whether its weights take 1, 2 or 4 bytes each; fp32, so that
    the book's bf16 typed as 2 parts from it."""
    N, per_sequence, gpu = 10 * 10**9, 10**9, 80
    weights = BYTES["fp32"] * N
    inputs = {"gpu_gb": gpu, "memory": gpu * 1e9, "weights": weights, ".total": N, "weights_precision": "fp32",
              "per_sequence": per_sequence, "N": N}
    return inputs, int((gpu * 1e9 - weights) // per_sequence), (
        f"for {gpu} GB, N = {N:,} in fp32 and {per_sequence:,} bytes of cache per sequence")


def _serve(p: dict) -> tuple[float, float, float]:
    """Question 6's memory, weights and cache per sequence, in bytes."""
    s = shape(p["serve_model"])
    return (p["gpu_gb"] * 1e9, BYTES[p["weights_precision"]] * s["N"],
            _kv_per_token(s, BYTES[p["cache_precision"]]) * p["serve_context"])


def answers(p: dict) -> dict:
    """Every non-function answer of a variant, computed here only to vet the variant (`problems`)
    and to make the slips; the answer key itself is harvested by running the solution notebook."""
    N1, N2 = shape(p["weights_model"])["N"], shape(p["adam_model"])["N"]
    c, g = shape(p["cache_model"]), shape(p["gqa_model"])
    b = BYTES[p["cache_precision"]]
    memory, weights, per_sequence = _serve(p)
    return {
        "weights_gb_4bit": N1 * 0.5 / 1e9,
        "adam_parts": np.array([2, 2, 4, 4 + 4]) * N2,
        "kv_bytes_per_token": int(_kv_per_token(c, b)),
        "gqa_saving_gib": (_kv_per_token(g, b, "h") - _kv_per_token(g, b)) * p["gqa_context"] / 2**30,
        "max_batch": int((memory - weights) // per_sequence),
    }


def slips(p: dict) -> list:
    """The learner's usual slips in variant `p`: (question, wrong value, words its hint must contain).
    `problems` rejects a variant where one of them is not told apart; the tests judge them all."""
    want = answers(p)
    c, g = shape(p["cache_model"]), shape(p["gqa_model"])
    b, precision = BYTES[p["cache_precision"]], p["cache_precision"]
    unit = f"{b} byte{'s' * (b != 1)}"
    memory, weights, per_sequence = _serve(p)
    kv, saving = want["kv_bytes_per_token"], want["gqa_saving_gib"]
    n = shape(p["adam_model"])["N"]
    out = [
        ("weights_gb_4bit", want["weights_gb_4bit"] * 8, "bits, not bytes"),
        ("weights_gb_4bit", want["weights_gb_4bit"] * 2, "not one byte"),
        ("weights_gb_4bit", want["weights_gb_4bit"] * 4, "bf16 (2 bytes)"),
        ("weights_gb_4bit", want["weights_gb_4bit"] * 1e9 / 2**30, "GiB"),
        ("weights_gb_4bit", want["weights_gb_4bit"] * 1e9, "divide the bytes by 10**9"),
        ("adam_parts", np.array([4, 4, 0, 8]) * n, "weights: the forward and backward passes use the fp16"),
        ("adam_parts", np.array([2, 4, 4, 8]) * n, "gradients: this recipe keeps them in fp16"),
        ("adam_parts", np.array([2, 2, 0, 8]) * n, "master copy: mixed precision keeps an fp32 copy"),
        ("adam_parts", np.array([2, 2, 8, 8]) * n, "master copy: it holds the weights only"),
        ("adam_parts", np.array([2, 2, 4, 4]) * n, "Adam keeps two, m and v"),
        ("adam_parts", np.array([2, 2, 8, 4]) * n, "right parts, wrong order"),
        ("adam_parts", np.array([16 * n]), "that is the total"),
        ("adam_parts", np.array([2, 2, 4, 8]), f"bytes per parameter: multiply each by {p['adam_model']}'s"),
        ("adam_parts", np.array([2, 2, 4, 8]) * n / 1e9, "give bytes, not GB"),
        ("kv_bytes_per_token", kv // c["L"], "one layer"),
        ("kv_bytes_per_token", int(_kv_per_token(c, b, "h")), f"{c['h_kv']} of them, not all {c['h']} query heads"),
        ("kv_bytes_per_token", kv // 2, "keys AND values"),
        ("kv_bytes_per_token", kv * 8, f"{precision} is {unit} per number: that looks like bits"),
        ("kv_bytes_per_token", int(_kv_per_token(c, 4)), f"{precision} is {unit} per number, not 4 (fp32)"),
        ("gqa_saving_gib", saving * 2**30 / 1e9, "that is GB; the question asks for GiB"),
        ("gqa_saving_gib", _kv_per_token(g, b, "h") * p["gqa_context"] / 2**30, "whole cache without grouping"),
        ("gqa_saving_gib", _kv_per_token(g, b) * p["gqa_context"] / 2**30, "the cache with grouping"),
        ("gqa_saving_gib", saving / g["L"], "one layer"),
        ("max_batch", int(memory // per_sequence), "the weights are in memory too"),
        ("max_batch", int((p["gpu_gb"] * 2**30 - weights) // per_sequence), f"{p['gpu_gb']}·10**9 bytes"),
    ]
    if b == 4:  # no fp32 slip for an fp32 cache
        out = [s for s in out if not s[2].endswith("not 4 (fp32)")]
    return out


def problems(p: dict) -> list[str]:
    """What makes a drawn variant unusable: a degenerate question, an answer equal to the book's,
    or a usual slip its hint does not name (two slips that give the same value)."""
    out = []
    for name in ("gqa_model", "serve_model"):
        context = p[name.replace("model", "context")]
        if context > shape(p[name])["context"]:
            out.append(f"{name}'s context of {context} tokens is over the model's maximum")
    g = shape(p["gqa_model"])
    if not g["h_kv"] < g["h"] or g["h"] == 2 * g["h_kv"]:
        out.append("gqa_model does not group, or its grouped cache is half the full one")
    want = answers(p)
    if not MAX_BATCH[0] <= want["max_batch"] <= MAX_BATCH[1]:
        out.append(f"max_batch is {want['max_batch']}, not {MAX_BATCH[0]} to {MAX_BATCH[1]}")
    if out:
        return out
    book = answers(DEFAULTS)
    out += equal_to_book(want, book)
    out += untold_slips(questions(p), want, slips(p))
    return out


def _describe() -> str:
    return (f"weights_model: one of {len(WEIGHTS_MODELS)} shipped configs ({', '.join(WEIGHTS_MODELS)}); "
            f"adam_model: one of {len(ADAM_MODELS)} ({', '.join(ADAM_MODELS)}); cache_model: one of "
            f"{len(CACHE_MODELS)} grouped-query models ({', '.join(CACHE_MODELS)}); cache_precision: one of "
            f"{CACHE_PRECISIONS}; gqa_model: one of {len(GQA_MODELS)} ({', '.join(GQA_MODELS)}), gqa_context "
            f"and serve_context: one of {CONTEXTS} tokens up to the model's maximum; gpu_gb: one of {GPUS}; "
            f"serve_model: one of {len(SERVE_MODELS)} ({', '.join(SERVE_MODELS)}); weights_precision: one of "
            f"{WEIGHT_PRECISIONS}; max_batch between {MAX_BATCH[0]} and {MAX_BATCH[1]}; every model different "
            f"in every variant up to its pool's size, and every usual slip told apart by its hint")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(),
              fixed={"kv_cache_gb": FRESH_INPUTS})

# --------------------------------------------------------------------------
# The questions


def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):
    """KV cache in GB (10**9 bytes): keys and values, per layer, per kv head, per token, per sequence."""
    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / 1e9


def _cache_shapes(rng):
    """Fixed shapes, each there for a kind of bug (every seed tests them), then random ones.

    * Llama-3-8B at 8,192 tokens, fp16, one sequence: the lesson's figure: K or V left out,
      bits for bytes, GiB for GB, h for h_kv, the batch left out.
    * GPT-2 small's shape, fp32, 8 sequences: a batch that is not 1, 4 bytes a number.
    * 28 layers, 4 kv heads, 1 byte, 32,768 tokens, 3 sequences: a context or depth typed as a
      number.
    * Llama-3-8B at 4 bits (0.5 bytes a number): ``int(bytes_per_number)`` or ``//`` (0 GB).
    * one layer, one kv head, one token, one sequence (256 bytes, 2.56e-7 GB): a result rounded
      (``round(gb, 2)`` is 0) or in MB.
    * Llama-3.1-405B at 131,072 tokens, 64 sequences, fp16 (4,329 GB): past 2**32 bytes: a
      count in int32 wraps.
    """
    cases = [(32, 8, 128, 2, 8192, 1), (12, 12, 64, 4, 1024, 8), (28, 4, 128, 1, 32_768, 3),
             (32, 8, 128, 0.5, 8192, 1), (1, 1, 64, 2, 1, 1), (126, 8, 128, 2, 131_072, 64)]
    for _ in range(4):
        cases.append((int(rng.integers(1, 96)), int(rng.choice([1, 2, 4, 8, 16, 32])), int(rng.choice([64, 80, 128, 256])),
                      float(rng.choice([0.5, 1, 2, 4])), int(rng.integers(1, 200_000)), int(rng.integers(1, 64))))
    return cases


GIB_PER_GB = 1e9 / 2**30  # a value in GiB is this many times the same value in GB


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    c, g = shape(p["cache_model"]), shape(p["gqa_model"])
    b, precision = BYTES[p["cache_precision"]], p["cache_precision"]
    memory, weights, per_sequence = _serve(p)
    gpu = p["gpu_gb"]
    N1, serve = shape(p["weights_model"])["N"], shape(p["serve_model"])
    wb = BYTES[p["weights_precision"]]

    def cache_parts(s, bytes_, precision, heads="h_kv"):
        """Bytes of KV cache per token: keys and values, per layer, per kv head, per head dim, per byte."""
        return Prod("the cache per token", [
            Part("keys and values", 2, "×2", missing="the cache holds keys AND values: two vectors per kv head "
                                                     "per layer"),
            Part("layers", s["L"], "L", missing="that is one layer: each of the L layers caches its own keys "
                                                "and values"),
            Part("key/value heads", s[heads], "h_kv", missing=(
                "only one head cached: each layer caches keys and values for all h_kv key/value heads"),
                 alts=[Alt(s["h"], f"only the key/value heads are cached: {s['h_kv']} of them, not all {s['h']} "
                                   "query heads")] if heads == "h_kv" else []),
            Part("head_dim", s["head_dim"], "numbers per head"),
            Part("bytes per value", bytes_, f"{precision} is {bytes_:g} byte{'s' * (bytes_ != 1)} per number",
                 missing=f"that counts numbers, not bytes: {precision} is {bytes_:g} byte{'s' * (bytes_ != 1)} "
                         "per number",
                 alts=[Alt(v, f"{precision} is {bytes_:g} byte{'s' * (bytes_ != 1)} per number, not {v:g} ({name})")
                       for name, v in (("fp32", 4), ("fp16/bf16", 2), ("int8", 1)) if v != bytes_]),
        ])
    kv_hints = [
        Hint(lambda got, want: got == _kv_per_token(c, b, "h"),
             f"only the key/value heads are cached: {c['h_kv']} of them, not all {c['h']} query heads"),
        ratio(0.5, "the cache holds keys AND values: two vectors per kv head per layer"),
        ratio(8, f"{precision} is {b} byte{'s' * (b != 1)} per number: that looks like bits"),
    ]
    if b != 4:
        kv_hints.append(Hint(lambda got, want: got == _kv_per_token(c, 4),
                             f"{precision} is {b} byte{'s' * (b != 1)} per number, not 4 (fp32)"))
    return [
        Real("weights_gb_4bit", exact=True, parts=lambda: Answer(Prod("the weights", [
            Part("N", N1, "every parameter (count_params)"),
            Part("bytes per weight", 0.5, "4 bits is half a byte", alts=[
                Alt(0.25, "divided by 4 (the bits): 4 bits is half a byte, multiply by 0.5"),
                Alt(4, "that looks like bits: 4 bits is half a byte (0.5)"),
                Alt(1, "4 bits is half a byte (0.5), not one byte"),
                Alt(2, "that is bf16 (2 bytes); 4 bits is half a byte (0.5)")]),
            Part("GB", 1e-9, "10**9 bytes", missing="give it in GB: divide the bytes by 10**9")]), units=True),
            inputs=lambda: {"the parameter count N (count_params)": N1}, hints=[
            ratio(8, "4 bits is half a byte: that looks like bits, not bytes"),
            ratio(2, "4 bits is half a byte, not one byte"),
            ratio(4, "that is bf16 (2 bytes); 4 bits is half a byte"),
            ratio(GIB_PER_GB, "that is GiB (2**30 bytes); the question asks for GB (10**9 bytes)"),
            ratio(1e9, "give it in GB: divide the bytes by 10**9"),
        ]),
        Array("adam_parts", exact=True, shape=lambda q: (4,),
              entries=("weights", "gradients", "master copy", "moments (m and v)"), hints=[
            # judged part by part: recipes with different parts can share a total (4 + 4 + 4 + 4 = 2 + 2 + 12)
            Hint(lambda got, want: got.size == 1 and got.ravel()[0] == want.sum(),
                 "that is the total: give the four parts, in the order the question asks"),
            Hint(lambda got, want: got.shape == want.shape and np.array_equal(np.sort(got), np.sort(want)),
                 "right parts, wrong order: [weights, gradients, master copy, moments]"),
            Hint(lambda got, want: got.shape == want.shape and np.allclose(got * want[0] / 2, want),
                 f"those are bytes per parameter: multiply each by {p['adam_model']}'s parameter count"),
            Hint(lambda got, want: got.shape == want.shape and np.allclose(got, want / 1e9),
                 "give bytes, not GB"),
            Hint(lambda got, want: got.shape == want.shape and got[0] == 2 * want[0],
                 "weights: the forward and backward passes use the fp16 copy (2 bytes); "
                 "the fp32 copy is the master copy, a part of its own"),
            Hint(lambda got, want: got.shape == want.shape and got[1] == 2 * want[1],
                 "gradients: this recipe keeps them in fp16 only; fp32 gradients are the 18- and 20-byte recipes"),
            Hint(lambda got, want: got.shape == want.shape and got[2] == 0,
                 "master copy: mixed precision keeps an fp32 copy of the weights for the optimizer to update"),
            Hint(lambda got, want: got.shape == want.shape and got[2] == 2 * want[2],
                 "master copy: it holds the weights only (4 bytes); this recipe keeps no fp32 gradients"),
            Hint(lambda got, want: got.shape == want.shape and got[3] == want[3] / 2,
                 "moments: Adam keeps two, m and v, each in fp32 (4 bytes); give both together"),
        ]),
        Integer("kv_bytes_per_token", factors={"L": c["L"]}, factor_hints={
            "/L": "that is one layer: each of the L layers caches its own keys and values",
        }, hints=kv_hints, parts=lambda: Answer(cache_parts(c, b, precision)),
            inputs=lambda: {"L": c["L"], "head_dim": c["head_dim"]}, recheck=lambda: [kv_recheck(c, precision)]),
        Real("gqa_saving_gib", exact=True, recheck=lambda: [gqa_recheck(precision)], factors={"L": g["L"]}, factor_hints={
            "/L": "that is one layer: each of the L layers caches its own keys and values",
        }, hints=[
            ratio(1 / GIB_PER_GB, "that is GB; the question asks for GiB (2**30 bytes)"),
            ratio(g["h"] / (g["h"] - g["h_kv"]), "that is the whole cache without grouping; the saving is the "
                                                 "difference"),
            ratio(g["h_kv"] / (g["h"] - g["h_kv"]), "that is the cache with grouping; the saving is what the "
                                                    "full cache would add"),
        ], parts=lambda: Answer(Prod("the saving", [
            Part("keys and values", 2, "×2", missing="the cache holds keys AND values: two vectors per kv head "
                                                     "per layer"),
            Part("layers", g["L"], "L", missing="that is one layer: each of the L layers caches its own keys and "
                                                "values"),
            Sum("heads no longer cached", [
                Part("h", g["h"], "the query heads", can_drop=False, can_double=False),
                Part("minus h_kv", -g["h_kv"], "the key/value heads still cached", can_double=False,
                     missing="that is the whole cache without grouping; the saving is the difference (h − h_kv)")],
                alts=[Alt(g["h_kv"], "that is the cache with grouping; the saving is what the full cache would "
                                     "add (h − h_kv heads)")]),
            Part("head_dim", g["head_dim"], "numbers per head"),
            Part("bytes per value", b, f"{precision}", missing=f"that counts numbers, not bytes: {precision} is "
                                                              f"{b:g} bytes per number",
                 alts=[Alt(v, f"{precision} is {b:g} byte{'s' * (b != 1)} per number, not {v:g}")
                       for v in (4, 2, 1) if v != b]),
            Part("context", p["gqa_context"], "tokens", missing="that is one token: the cache grows with every "
                                                                "token of the context (gqa_context)"),
            Part("GiB", 1 / 2**30, "2**30 bytes", alts=[Alt(1e-9, "that is GB; the question asks for GiB (2**30 "
                                                                  "bytes)")])]),
            inputs={"L": g["L"], "h": g["h"], "h_kv": g["h_kv"], "head_dim": g["head_dim"]})),
        Function("kv_cache_gb", reference=kv_cache_gb, cases=_cache_shapes, avoids={
            "//": "a whole number of GB: `//` rounds down; divide with `/`"}, factor_hints={
            "/L": "that is one layer's cache: each of the L layers keeps its own",
            "/batch": "that is one sequence: the batch holds `batch` of them, each with its own cache",
            "/context": "that is one token: the cache grows with every token of the context",
        }, result=Real("kv_cache_gb", exact=True, hints=[
            Hint(lambda got, want: got != want and got == math.floor(want) and got == int(got),
                 "a whole number of GB: `//` rounds down; divide with `/`"),
            ratio(0.5, "keys and values: the factor 2 is missing (the cache holds both)"),
            ratio(GIB_PER_GB, "that is GiB; return GB (10**9 bytes)"),
        ], parts=lambda L, h_kv, head_dim, b, context, batch: Answer(Prod("the cache", [
            Part("keys and values", 2, "×2", missing="keys and values: the factor 2 (the cache holds both)"),
            Part("L", L, missing="that is one layer's cache: each of the L layers keeps its own"),
            Part("h_kv", h_kv, missing="that is one kv head: each layer caches all h_kv key/value heads"),
            Part("head_dim", head_dim), Part("bytes_per_number", b, missing="that counts numbers, not bytes: "
                                                                            "multiply by bytes_per_number"),
            Part("context", context, missing="that is one token: the cache grows with every token of the context"),
            Part("batch", batch, missing="that is one sequence: the batch holds `batch` of them, each with its "
                                         "own cache"),
            Part("GB", 1e-9, "10**9 bytes", missing="give it in GB: divide the bytes by 10**9")]),
            inputs={"L": L, "h_kv": h_kv, "head_dim": head_dim, "context": context, "batch": batch}))),
        Integer("max_batch", recheck=lambda: [max_batch_recheck()], parts=lambda: Answer(Ratio("the batch", Sum("the memory left", [
            Part("GPU memory", memory, f"{gpu}·10**9 bytes", can_drop=False, alts=[
                Alt(gpu * 2**30, f"{gpu} GB is {gpu}·10**9 bytes, not {gpu} GiB")]),
            Prod("minus the weights", [Part("minus", -1, can_drop=False, can_double=False), Part("N", serve["N"]),
                                       Part("bytes per weight", wb, "weights_precision", alts=[
                                           Alt(v, f"the weights are served in weights_precision, {p['weights_precision']} "
                                                  f"({wb:g} bytes each), not {v:g} bytes ({name})")
                                           for name, v in (("fp32", 4), ("bf16", 2), ("int8", 1), ("int4", 0.5))
                                           if v != wb])],
                 missing="the weights are in memory too: subtract them first")]),
            Part("one sequence's cache", per_sequence, can_drop=False, alts=[Alt(
                per_sequence * serve["h"] / serve["h_kv"], "the cache holds only the key/value heads: h_kv "
                                                           "(num_key_value_heads) of them, not all h query heads")]
                 if serve["h"] != serve["h_kv"] else [])), floor=True, units=False), hints=[
            Hint(lambda got, want: got == want + 1, "round down: part of a sequence's cache is no use"),
            Hint(lambda got, want: got == memory // per_sequence, "the weights are in memory too: subtract them first"),
            Hint(lambda got, want: got == (gpu * 2**30 - weights) // per_sequence,
                 f"{gpu} GB is {gpu}·10**9 bytes, not {gpu} GiB"),
        ]),
    ]


QUESTIONS = questions(DEFAULTS)

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/07-memory.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "weights_gb_4bit": "1. Bytes per number",
    "adam_parts": "2. Training with Adam: what is stored per parameter",
    "kv_bytes_per_token": "3. The KV cache",
    "gqa_saving_gib": "3. The KV cache",
    "kv_cache_gb": "5. A calculator",
    "max_batch": "4. Batch × context",
}
