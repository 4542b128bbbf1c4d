"""Exercise 07 `memory`: weights in 4 bits, Adam's bytes, a GQA cache, a cache calculator, a batch that fits."""

import math

from embedlab.grading.kinds import Function, Hint, Integer, Real, ratio

LESSON = "07-memory"


def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):
    """KV cache in GB (10**9 bytes): keys and values, per layer, per kv head, per token, per sequence."""
    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / 1e9


def _cache_shapes(rng):
    cases = [(32, 8, 128, 2, 8192, 1), (12, 12, 64, 4, 1024, 8), (28, 4, 128, 1, 32_768, 3)]
    for _ in range(4):
        cases.append((int(rng.integers(1, 96)), int(rng.choice([1, 2, 4, 8, 16, 32])), int(rng.choice([64, 80, 128, 256])),
                      float(rng.choice([0.5, 1, 2, 4])), int(rng.integers(1, 200_000)), int(rng.integers(1, 64))))
    return cases


GIB_PER_GB = 1e9 / 2**30  # a value in GiB is this many times the same value in GB

QUESTIONS = [
    Real("weights_gb_4bit", exact=True, hints=[
        ratio(8, "4 bits is half a byte: that looks like bits, not bytes"),
        ratio(2, "4 bits is half a byte, not one byte"),
        ratio(4, "that is bf16 (2 bytes); 4 bits is half a byte"),
        ratio(GIB_PER_GB, "that is GiB (2**30 bytes); the question asks for GB (10**9 bytes)"),
        ratio(1e9, "give it in GB: divide the bytes by 10**9"),
    ]),
    Integer("adam_bytes", hints=[
        ratio(12 / 16, "12 bytes per parameter: something is missing (two Adam moments? the fp32 master copy?)"),
        ratio(20 / 16, "20 bytes per parameter also keeps fp32 gradients; this recipe keeps gradients in fp16 only"),
        ratio(1 / 16 * 2, "that is only the fp16 weights: training also stores gradients, a master copy and Adam's moments"),
    ]),
    Integer("kv_bytes_per_token", factors={"L": 28}, factor_hints={
        "/L": "that is one layer: each of the L layers caches its own keys and values",
    }, hints=[
        ratio(7, "only the key/value heads are cached: 4 of them, not all 28 query heads"),
        ratio(0.5, "the cache holds keys AND values: two vectors per kv head per layer"),
        ratio(8, "bf16 is 2 bytes: that looks like bits"),
        ratio(2, "bf16 is 2 bytes per number, not 4"),
    ]),
    Real("gqa_saving_gib", exact=True, factors={"L": 32}, factor_hints={
        "/L": "that is one layer: each of the L layers caches its own keys and values",
    }, hints=[
        ratio(1 / GIB_PER_GB, "that is GB; the question asks for GiB (2**30 bytes)"),
        ratio(4 / 3, "that is the whole cache without grouping; the saving is the difference"),
        ratio(1 / 3, "that is the cache with grouping; the saving is what the full cache would add"),
    ]),
    Function("kv_cache_gb", reference=kv_cache_gb, cases=_cache_shapes, factor_hints={
        "/L": "that is one layer's cache: each of the L layers keeps its own",
        "/batch": "that is one sequence: the batch holds `batch` of them, each with its own cache",
        "/context": "that is one token: the cache grows with every token of the context",
    }, result=Real("kv_cache_gb", exact=True, hints=[
        Hint(lambda got, want: got != want and got == math.floor(want) and got == int(got),
             "a whole number of GB: `//` rounds down; divide with `/`"),
        ratio(0.5, "keys and values: the factor 2"),
        ratio(GIB_PER_GB, "that is GiB; return GB (10**9 bytes)"),
    ])),
    Integer("max_batch", hints=[
        Hint(lambda got, want: got == want + 1, "round down: part of a sequence's cache is no use"),
        Hint(lambda got, want: got == 74, "the weights are in memory too: subtract them first"),
        Hint(lambda got, want: got == 65, "80 GB is 80·10**9 bytes, not 80 GiB"),
    ]),
]
