"""Exercise 07 `memory`: weights in 4 bits, Adam's bytes part by part, a GQA cache, a cache calculator, a batch that fits."""

import math

import numpy as np

from embedlab.grading.kinds import Array, Function, Hint, Integer, Real, ratio

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
    Array("adam_parts", exact=True, hints=[
        # judged part by part: recipes with different parts can share a total (4 + 4 + 4 + 4 = 2 + 2 + 12)
        Hint(lambda got, want: got.size == 1 and got.ravel()[0] == want.sum(),
             "that is the total: give the four parts, in the order the question asks"),
        Hint(lambda got, want: got.shape == want.shape and np.array_equal(np.sort(got), np.sort(want)),
             "right parts, wrong order: [weights, gradients, master copy, moments]"),
        Hint(lambda got, want: got.shape == want.shape and np.allclose(got * want[0] / 2, want),
             "those are bytes per parameter: multiply each by GPT-2 small's parameter count"),
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
