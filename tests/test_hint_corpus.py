"""A corpus of plausible wrong answers, every exercise, each with the words its hint must contain.

Each entry is the code a learner might write for one question (a slip the
question exists to catch: a bias left out, bits for bytes, the head counted
twice, `//` for `/`, ...). It is judged two ways:

* in this process by the notebook's own check (`Exercise.verdict`), every entry;
* by the grader's scoring (`cli.score` on what its probe reads, through Jupyter's
  JSON, with the cell's source), in this process, for the first entry of each
  question: none may be marked correct and each must get its hint there too;
  and by the real grader (`embedlab-grade`), sandbox and all, in one run over
  one generated submission for three exercises (built from the solution's setup
  cell, then the entries, one per question): the same hints as in this process. The issue's bar is 90 % with a hint that
  names the mistake or its symptom; here every entry asserts its own words.

A value answer is computed here (it may read `want`, the key's value, and run
the lesson's code) and written into the submission as a literal; a function
or a design is written as its source.
"""

import dataclasses
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import nbformat
import numpy as np
import pytest

from embedlab.grading import generate
from embedlab.grading.exercise import Exercise
from embedlab.grading.kinds import Array, Design, Function, Real
from embedlab.grading.lessons import known_lessons, load_key, questions_for
from embedlab.grading.status import CORRECT
from embedlab.grading.values import data_to_array

from solution_runner import grade_folder, grader_scoring  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


# Right answers the corpus makes its function slips from (one replacement each)
MERGE_LOOP = """def bpe_merges(counts, n_merges):
    words = [list(word.encode("utf-8")) for word in counts]
    freqs = list(counts.values())
    merges = []
    for k in range(n_merges):
        pairs = {}
        for tokens, n in zip(words, freqs):
            for pair in zip(tokens, tokens[1:]):
                pairs[pair] = pairs.get(pair, 0) + n
        if not pairs:
            break
        best = min(pairs, key=lambda pair: (-pairs[pair], pair))
        merges.append(best)
        for i, tokens in enumerate(words):
            out, j = [], 0
            while j < len(tokens):
                if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:
                    out.append(256 + k)
                    j += 2
                else:
                    out.append(tokens[j])
                    j += 1
            words[i] = out
    return merges
"""
BACKWARD = """def tinylm_grads(E, W, b, U, contexts, targets):
    B, C = contexts.shape
    x0 = E[contexts].reshape(B, -1)
    x = np.tanh(x0 @ W + b)
    logits = x @ U.T
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    dlogits = p.copy()
    dlogits[np.arange(B), targets] -= 1.0
    dlogits /= B
    dU = dlogits.T @ x
    da = (dlogits @ U) * (1.0 - x**2)
    dx0 = (da @ W.T).reshape(B, C, -1)
    dE = np.zeros_like(E)
    np.add.at(dE, contexts, dx0)
    return dE, dU
"""


@dataclass
class Wrong:
    lesson: str
    name: str
    source: str  # defines `name`; may read `want` (a value question's expected value)
    words: str  # what its hint must contain
    mistake: str  # what the learner did


# Code every entry of a lesson runs first (in this process and in the submission).
PRELUDE = {
    "11-size-a-model": (
        "from embedlab import count_params, design_figures, llama_config\n"
        "from embedlab.grading.questions.l11 import BUDGET\n"
        "# over the memory and compute budgets; compute is the tightest\n"
        "design = llama_config(vocab_size=64_000, d=1024, num_layers=32, num_heads=16, num_kv_heads=4,\n"
        "                      d_ff=4096, tied=True)\n"
    ),
}

COSINE_PRECEDENCE = "def cosine(a, b):\n    return float(a @ b / np.linalg.norm(a) * np.linalg.norm(b))"
FORWARD = ("def forward_flops_per_token(V, d, L, d_ff, context):\n"
           "    return 2 * L * ({attn} * d * d + 2 * d * d_ff) + {ctx} * L * context * d + 2 * d * V")
LLAMA = ("def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
         "    head_dim = d // h\n"
         "    attention = 2 * d * h * head_dim + 2 * d * h_kv * head_dim\n"
         "    mlp = 3 * d * d_ff{mlp_bias}\n"
         "    layer = attention + mlp + 2 * {norm}\n"
         "    return V * d + L * layer + {norm} + (0 if {tied} else V * d)")
KV = ("def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
      "    return 2 * {L}h_kv * head_dim * bytes_per_number * context{batch} {div} {unit}")

CORPUS = [
    # 01 · toy table
    Wrong("01-toy-table", "E", "E = np.array([[0, 0, 0, 1], [1, 1, 1, 0], [1, 1, 0, 0]])", "transpose",
          "features as rows"),
    Wrong("01-toy-table", "n_params", "n_params = 4 + 3", "rows × columns", "added rows and columns"),
    Wrong("01-toy-table", "batch", "batch = np.array([0, 1, 0])", "one row per word", "looked up one word"),
    Wrong("01-toy-table", "cosine", COSINE_PRECEDENCE, "cosine(np.array([2.0, 2.0]), np.array([1.0, 1.0])) returned 2: operator precedence",
          "a @ b / |a| * |b|"),
    Wrong("01-toy-table", "cosine", "def cosine(a, b):\n    return float(a @ b)", "dot product", "no normalisation"),
    Wrong("01-toy-table", "cos_pair", "cos_pair = 0.707", "right to 3 digits", "typed the printed value"),
    Wrong("01-toy-table", "cos_pair", "cos_pair = 1.0", "divide by both lengths", "the dot product"),
    Wrong("01-toy-table", "model_table", "model_table = 2 * 50_257 * 768", "token table only", "table and head"),
    Wrong("01-toy-table", "model_table", "model_table = 50_000 * 768", "exact vocabulary size", "a round V"),
    Wrong("01-toy-table", "extra_dim_cost", "extra_dim_cost = 16 * 768", "new feature is a new column",
          "16 new rows"),
    # 02 · lookup vs matmul
    Wrong("02-lookup-vs-matmul", "one_hot",
          "def one_hot(ids, V):\n    out = np.zeros((V, len(ids)))\n    out[ids, np.arange(len(ids))] = 1\n    return out",
          "one_hot(np.array([2, 0, 2]), 4)", "one column per id"),
    Wrong("02-lookup-vs-matmul", "rows_matmul",
          "E = np.random.default_rng(2).standard_normal((8, 4)).astype(np.float32)\n"
          "rows_matmul = E.T @ np.eye(8, dtype=np.float32)[[5, 1, 5, 7, 0]].T", "goes on the left",
          "one-hot on the right"),
    Wrong("02-lookup-vs-matmul", "keeps_sign", 'keeps_sign = "both"', "-0.0 + +0.0", "thought the matmul keeps -0.0"),
    Wrong("02-lookup-vs-matmul", "embedding_backward",
          "def embedding_backward(ids, grad_out, V):\n    G = np.zeros((V, grad_out.shape[1]))\n"
          "    G[ids] += grad_out\n    return G", "np.add.at", "fancy-index += drops repeats"),
    Wrong("02-lookup-vs-matmul", "updated_rows", "updated_rows = np.array([7, 2, 7, 9, 2, 0, 7, 4])",
          "each updated row once", "every position, repeats included"),
    Wrong("02-lookup-vs-matmul", "batch_flops", "batch_flops = 32_000 * 512 * 1_024", "2·V·d per token",
          "one FLOP per weight"),
    Wrong("02-lookup-vs-matmul", "one_hot_batch_bytes", "one_hot_batch_bytes = 1_024 * 32_000 * 32", "bits",
          "bits, not bytes"),
    Wrong("02-lookup-vs-matmul", "one_hot_batch_bytes", "one_hot_batch_bytes = 1_024 * 32_000 * 8",
          "float32, not float64", "8-byte floats"),
    # 03 · counting GPT-2
    Wrong("03-counting-gpt2", "linear_params", "linear_params = 1024 * 4096", "bias", "no bias"),
    Wrong("03-counting-gpt2", "embedding_share", "embedding_share = 0.0516", "right to 3 digits",
          "typed from the rounded 5.16 %"),
    Wrong("03-counting-gpt2", "embedding_share", "embedding_share = 5.16", "percentage", "a rounded percentage"),
    Wrong("03-counting-gpt2", "embedding_share", "embedding_share = 2 * want", "tied",
          "counted E twice (as if untied)"),
    Wrong("03-counting-gpt2", "interview", "interview = 2 * 40_000 * 768", "tied", "untied head"),
    Wrong("03-counting-gpt2", "estimate_gap", "estimate_gap = -want", "exact minus estimate", "estimate minus exact"),
    Wrong("03-counting-gpt2", "gpt2_params",
          "def gpt2_params(V, d, L, T):\n    return V * d + L * (12 * d * d + 13 * d) + 2 * d",
          "position table", "no position table"),
    Wrong("03-counting-gpt2", "gpt2_params",
          "def gpt2_params(V, d, L, T):\n    return 2 * V * d + T * d + L * (12 * d * d + 13 * d) + 2 * d",
          "head is tied", "an untied head"),
    # 04 · modern blocks
    Wrong("04-modern-blocks", "attn_layer", "attn_layer = 4 * 2048 * 2048", "multi-head", "h_kv ignored"),
    Wrong("04-modern-blocks", "mlp_layer", "mlp_layer = 3 * 2048 * 8192 + 2 * 8192 + 2048", "no biases",
          "SwiGLU with biases"),
    Wrong("04-modern-blocks", "vocab_share", "vocab_share = want / 2", "untied", "tied head assumed"),
    Wrong("04-modern-blocks", "vocab_share", "vocab_share = 0.131", "right to 3 digits", "typed 13.1 %"),
    Wrong("04-modern-blocks", "padding_params", "padding_params = 2 * 47 * 768", "tied", "padded rows twice"),
    Wrong("04-modern-blocks", "llama_params", LLAMA.format(mlp_bias=" + 2 * d_ff + d", norm="d", tied="tied"),
          "SwiGLU has no biases", "SwiGLU with biases"),
    Wrong("04-modern-blocks", "llama_params", LLAMA.format(mlp_bias="", norm="2 * d", tied="tied"),
          "RMSNorm has a scale and no bias", "LayerNorm-style norms with a bias"),
    Wrong("04-modern-blocks", "llama_params", LLAMA.format(mlp_bias="", norm="d", tied="not tied"),
          "the `tied` flag read the other way round", "tied flag inverted"),
    # 05 · weight tying
    Wrong("05-weight-tying", "tied_count", "tied_count = 8_030_261_248 - 2 * 128_256 * 4096", "once, not twice",
          "removed two tables"),
    Wrong("05-weight-tying", "grad_E",
          "rng = np.random.default_rng(5)\nV, d = 6, 3\nids = np.array([4, 1, 4, 0])\n"
          "x = rng.normal(size=(len(ids), d))\ndlogits = rng.normal(size=(len(ids), V))\n"
          "grad_E = dlogits.T @ x", "output path only", "forgot the lookup's path"),
    Wrong("05-weight-tying", "count_unique", "def count_unique(storage, sizes):\n    return int(sum(sizes))",
          "count each storage once", "sum(sizes)"),
    Wrong("05-weight-tying", "ties", 'ties = "Llama 3.2 1B"', "spelled differently", "the name spelled its own way"),
    Wrong("05-weight-tying", "ties", 'ties = "llama-3-8b"', "tie_word_embeddings", "the wrong model"),
    Wrong("05-weight-tying", "state_dict_sum", "state_dict_sum = 124_439_808", "true count", "the true count"),
    # 06 · parameters vs compute
    Wrong("06-params-vs-compute", "head_flops", "head_flops = 2048 * 128_256", "2 FLOPs per weight",
          "one FLOP per weight"),
    Wrong("06-params-vs-compute", "lookup_flops", "lookup_flops = 4096", "no arithmetic", "a FLOP per number copied"),
    Wrong("06-params-vs-compute", "kaplan_n",
          "from embedlab import count_params, load_config\nc = count_params(load_config('llama-3-8b'))\n"
          "kaplan_n = c.total - c.token_embedding", "untied head", "kept the untied head"),
    Wrong("06-params-vs-compute", "head_share_training",
          "from embedlab import load_config, token_costs\nc = token_costs(load_config('gpt2'))\n"
          "head_share_training = c.head / (c.input + c.blocks + c.head)", "attention over the context",
          "attention over the context left out"),
    Wrong("06-params-vs-compute", "head_share_training", "head_share_training = 0.2903", "right to 4 digits",
          "typed from the printed 29.03 %"),
    Wrong("06-params-vs-compute", "forward_flops_per_token", FORWARD.format(attn=4, ctx=0),
          "attention over the context is missing", "attention over the context left out"),
    Wrong("06-params-vs-compute", "forward_flops_per_token", FORWARD.format(attn=3, ctx=4), "output projection",
          "the output projection left out"),
    Wrong("06-params-vs-compute", "flop_rate", "flop_rate = 6 * 7_504_924_672 * 15e12 / (1.3e6 * 3600) / 1e12",
          "TFLOP/s", "TFLOP/s instead of FLOP/s"),
    Wrong("06-params-vs-compute", "flop_rate", "flop_rate = 6 * 7_504_924_672 * 15e12 / 1.3e6", "hours",
          "per hour"),
    Wrong("06-params-vs-compute", "flop_rate", "flop_rate = 6 * 8_030_261_248 * 15e12 / (1.3e6 * 3600)", "N_all",
          "every parameter (N_all) where lesson 06 takes N_mult: the input table is only looked up"),
    # 07 · memory (question 2's recipes, and every slip in each class variant: l07.slips)
    Wrong("07-memory", "weights_gb_4bit", "weights_gb_4bit = 8_030_261_248 * 4 / 1e9", "bits", "bits, not bytes"),
    Wrong("07-memory", "weights_gb_4bit", "weights_gb_4bit = 8_030_261_248 * 0.5 / 2**30", "GiB", "GiB, not GB"),
    Wrong("07-memory", "kv_bytes_per_token", "kv_bytes_per_token = 2 * 4 * 128 * 2", "one layer",
          "the cache of one layer"),
    Wrong("07-memory", "kv_bytes_per_token", "kv_bytes_per_token = 2 * 28 * 28 * 128 * 2", "key/value heads",
          "every query head cached"),
    Wrong("07-memory", "gqa_saving_gib", "gqa_saving_gib = 2 * 32 * (32 - 8) * 128 * 2 * 8192 / 1e9", "GiB",
          "GB, not GiB"),
    Wrong("07-memory", "kv_cache_gb", KV.format(L="L * ", batch="", div="/", unit="1e9"), "one sequence",
          "the batch left out"),
    Wrong("07-memory", "kv_cache_gb", KV.format(L="", batch=" * batch", div="/", unit="1e9"), "one layer",
          "one layer instead of L"),
    Wrong("07-memory", "kv_cache_gb", KV.format(L="L * ", batch=" * batch", div="//", unit="1e9"), "`//` rounds down",
          "// instead of /"),
    Wrong("07-memory", "kv_cache_gb", KV.format(L="L * ", batch=" * batch", div="/", unit="2**30"), "GiB",
          "GiB instead of GB"),
    Wrong("07-memory", "gqa_saving_gib", "gqa_saving_gib = 2 * (32 - 8) * 128 * 2 * 8192 / 2**30", "one layer",
          "one layer instead of L"),
    Wrong("07-memory", "max_batch", "max_batch = (80e9 - 2 * 8_030_261_248) / 2**30", "floor division",
          "/ instead of //"),
    Wrong("07-memory", "max_batch", "max_batch = int((80 * 2**30 - 2 * 8_030_261_248) // 2**30)", "80·10**9",
          "80 GiB, not 80 GB"),
    # 08 · vocabulary size
    Wrong("08-vocabulary-size", "embedding_params", "embedding_params = 2 * 256_000 * 2048", "tied",
          "counted the head"),
    Wrong("08-vocabulary-size", "embedding_share", "embedding_share = 256_000 * 2048 / 973_146_112", "whole model",
          "table over the rest"),
    Wrong("08-vocabulary-size", "embedding_share", "embedding_share = 35.01", "percentage", "a rounded percentage"),
    Wrong("08-vocabulary-size", "extra_head_flops", "extra_head_flops = 2 * 2048 * 256_000", "how much more",
          "the whole 256K head"),
    Wrong("08-vocabulary-size", "break_even_r", "break_even_r = 1 / want", "upside down",
          "the ratio inverted"),
    Wrong("08-vocabulary-size", "tokens_per_word",
          "def tokens_per_word(counts, n_tokens):\n    return float(np.mean(n_tokens))", "weight each word",
          "an unweighted mean"),
    Wrong("08-vocabulary-size", "hindi_single_token_share", "hindi_single_token_share = 54", "percentage",
          "a percentage"),
    # the merge loop: each usual slip a function of its own (l08._merge_loop), named when its results are the
    # learner's on every input drawn
    *[Wrong("08-vocabulary-size", "bpe_merges", MERGE_LOOP.replace(*change), words, mistake) for change, words, mistake in (
        (("min(pairs, key=lambda pair: (-pairs[pair], pair))", "max(pairs, key=pairs.get)"), "smallest pair of ids",
         "ties to the first pair counted"),
        (("min(pairs, key=lambda pair: (-pairs[pair], pair))", "max(pairs, key=lambda pair: (pairs[pair], pair))"),
         "smallest pair of ids", "ties to the largest pair"),
        (("pairs.get(pair, 0) + n", "pairs.get(pair, 0) + 1"), "how often its word occurs", "pairs counted once per word"),
        (("out.append(256 + k)\n                    j += 2", "out.append(256 + k)\n                    j += 2\n"
          "                    out.extend(tokens[j:])\n                    break"), "first occurrence",
         "only the first occurrence merged"),
        (("list(word.encode(\"utf-8\"))", "[ord(ch) for ch in word]"), "UTF-8 bytes", "characters for bytes"))],
    # 09 · what rows learn
    Wrong("09-what-rows-learn", "n_params", "n_params = 74 * 16 + 32 * 16 + 16", "tied count", "no U"),
    Wrong("09-what-rows-learn", "embedding_grad",
          "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
          "    dE[contexts] += dx0\n    return dE", "np.add.at", "fancy-index += drops repeats"),
    Wrong("09-what-rows-learn", "gap",
          "from embedlab import make_corpus, train_tinylm\n"
          "corpus = make_corpus(n_sentences=3000, seed=0)\n"
          "run = train_tinylm(corpus, d=16, context=2, tied=False, steps=1000, batch_size=128, seed=0)\n"
          "E = run.model.E\nanimals, vehicles = list(corpus.groups['animals']), list(corpus.groups['vehicles'])\n"
          "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
          "gap = np.mean([C[np.ix_(g, g)].mean() for g in (animals, vehicles)]) - C[np.ix_(animals, vehicles)].mean()",
          "itself", "self-pairs included"),
    Wrong("09-what-rows-learn", "gap", "gap = -want", "within minus between", "between minus within"),
    # the backward pass: each usual slip a function of its own (l09._backward)
    *[Wrong("09-what-rows-learn", "tinylm_grads", BACKWARD.replace(*change), words, mistake) for change, words, mistake in (
        (("    dlogits[np.arange(B), targets] -= 1.0\n", ""), "minus one at the target", "no minus one"),
        (("np.add.at(dE, contexts, dx0)", "dE[contexts] += dx0"), "np.add.at", "repeated ids overwritten"),
        (("dU = dlogits.T @ x", "dU = x.T @ dlogits"), "transposed", "the head's gradient transposed"),
        (("    dlogits /= B\n", ""), "summed over the batch", "a sum for the mean"),
        (("(dlogits @ U) * (1.0 - x**2)", "dlogits @ U"), "tanh's slope", "tanh's slope left out"))],
    Wrong("09-what-rows-learn", "tinylm_grads", BACKWARD.replace("    dlogits /= B\n", "").replace(
        "np.add.at(dE, contexts, dx0)", "dE[contexts] += dx0"), "two slips", "a sum for the mean, and overwritten ids"),
    Wrong("09-what-rows-learn", "rotation_changes_cosines", 'rotation_changes_cosines = "yes"', "orthogonal",
          "thought a rotation changes angles"),
    # 10 · glitch tokens
    Wrong("10-glitch-tokens", "padding_rows", "padding_rows = 50_304", "padded size", "the padded size"),
    Wrong("10-glitch-tokens", "invalid_bytes", "invalid_bytes = 11", "C0 and C1", "only F5 to FF"),
    Wrong("10-glitch-tokens", "unused_score",
          "def unused_score(M, reference_ids):\n    return M @ M[reference_ids].mean(axis=0)", "dot product",
          "scores without normalisation"),
    Wrong("10-glitch-tokens", "never_cos", "never_cos = (9 + 72 * want) / 81", "diagonal", "self-pairs included"),
    Wrong("10-glitch-tokens", "top7",
          "from embedlab import make_corpus, train_tinylm, unused_scores\n"
          "corpus = make_corpus(n_sentences=3000, seed=0)\n"
          "run = train_tinylm(corpus, tied=True, optimizer='adam', lr=1e-2, steps=1000, batch_size=128, seed=0)\n"
          "scores = unused_scores(run.model.E, list(corpus.groups['reserved'])[:4])\n"
          "top7 = np.argsort(-scores, kind='stable')[:7]", "reference rows out", "reference rows not excluded"),
    Wrong("10-glitch-tokens", "top7", "top7 = want[::-1]", "highest", "ascending order"),
    Wrong("10-glitch-tokens", "top7",
          "from embedlab import make_corpus, train_tinylm, unused_scores\n"
          "corpus = make_corpus(n_sentences=3000, seed=0)\n"
          "run = train_tinylm(corpus, tied=True, optimizer='adam', lr=1e-2, steps=1000, batch_size=128, seed=0)\n"
          "reference = list(corpus.groups['reserved'])[:4]\n"
          "scores = unused_scores(run.model.E, reference)\n"
          "top7 = np.array([i for i in np.argsort(scores) if i not in reference][:7])", "sort highest first",
          "ascending order: the lowest scores"),
    Wrong("10-glitch-tokens", "unused_score",
          "def unused_score(M, reference_ids):\n    mean = M.mean(axis=0)\n"
          "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))", "reference rows only",
          "the mean of every row"),
    # 12 · change a vocabulary
    Wrong("12-change-a-vocabulary", "added_params", "added_params = 2 * 4 * 768", "tied",
          "the tied head counted as a second matrix"),
    Wrong("12-change-a-vocabulary", "added_params", "added_params = 4", "multiply by the width",
          "rows counted, not parameters"),
    Wrong("12-change-a-vocabulary", "padding_rows", "padding_rows = 50_304", "padded size", "the padded size"),
    Wrong("12-change-a-vocabulary", "padding_rows", "padding_rows = 50_304 - 50_257", "pads V",
          "padded V, before the new tokens"),
    Wrong("12-change-a-vocabulary", "p_new_token", "p_new_token = 1 / (74 + 4)", "bound",
          "the bound instead of the model's probability"),
    Wrong("12-change-a-vocabulary", "p_new_token",
          "from embedlab import make_corpus, resize_tinylm, train_tinylm\n"
          "from embedlab.resize import log_softmax\n"
          "corpus = make_corpus(n_sentences=3000, seed=0)\n"
          "run = train_tinylm(corpus, tied=False, steps=400, batch_size=64, seed=0)\n"
          "grown = resize_tinylm(run.model, 4, 'mean')\n"
          "p = np.exp(log_softmax(grown.logits(corpus.ids(['<|endoftext|>', 'the'])[None, :])))[0]\n"
          "p_new_token = float(p[corpus.vocab_size:].sum())", "all n_new", "every new token's probability summed"),
    Wrong("12-change-a-vocabulary", "kl_mean",
          "from embedlab import make_corpus\n"
          "kl_mean = want * len(make_corpus(n_sentences=100, seed=99).training_pairs(context=2)[1])",
          "sum over the positions", "summed instead of averaged"),
    Wrong("12-change-a-vocabulary", "trimmed_rows",
          "import wordfreq\nfrom embedlab import load_tokenizer\ntok = load_tokenizer('gpt2')\n"
          "words = [w for w in wordfreq.get_frequency_dict('en', wordlist='small') if not any(c.isdigit() for c in w)]\n"
          "trimmed_rows = len({i for w in words[:2000] for i in tok.encode_ordinary(' ' + w)})",
          "256 byte tokens", "the byte tokens dropped"),
    Wrong("12-change-a-vocabulary", "trimmed_rows", "trimmed_rows = want - 1", "end-of-text",
          "the end-of-text token dropped"),
    Wrong("12-change-a-vocabulary", "saved_params", "saved_params = 12_000 * 768", "keeps",
          "what the table keeps, not what it saves"),
    Wrong("12-change-a-vocabulary", "coverage", "coverage = 1 - want", "dropped token", "the share not covered"),
    Wrong("12-change-a-vocabulary", "coverage", "coverage = 100 * want", "percentage", "a percentage"),
    # 11 · size a model (every entry judged against the same over-budget design)
    Wrong("11-size-a-model", "design", "", "memory", "over the memory and compute budgets"),
    Wrong("11-size-a-model", "design_params", "design_params = count_params(design).non_embedding",
          "non-embedding", "non_embedding on a tied design"),
    Wrong("11-size-a-model", "design_serving_gb",
          "design_serving_gb = design_figures(design, BUDGET).weights_gb", "weights only", "no KV cache"),
    Wrong("11-size-a-model", "design_train_flops",
          "design_train_flops = 6 * count_params(design).total * BUDGET.train_tokens", "6·N·D", "the rule of thumb"),
    Wrong("11-size-a-model", "tightest_budget", 'tightest_budget = "parameters"', "another uses more",
          "not the binding budget"),
    Wrong("11-size-a-model", "other_tying_params", "other_tying_params = count_params(design).total",
          "flip tie_word_embeddings", "the design as it is"),
    Wrong("11-size-a-model", "design_params",
          "c = count_params(design)\ndesign_params = c.total - c.token_embedding - design['vocab_size'] * design['hidden_size']",
          "no separate head", "took a head away from a tied design"),
    Wrong("11-size-a-model", "design_serving_gb",
          "design_serving_gb = design_figures(design, BUDGET).serving_gb * 1e9 / 2**30", "GiB", "GiB, not GB"),
]

IDS = [f"{w.lesson[:2]}-{w.name}-{i}" for i, w in enumerate(CORPUS)]


def question(lesson, name):
    return next(q for q in questions_for(lesson) if q.name == name)


def expected(lesson, name):
    """The key's value as a learner's code would hold it (an array as an array)."""
    value = load_key(lesson).get(name)
    if isinstance(question(lesson, name), Array):
        arr = data_to_array(value)
        return arr.astype(np.int64) if value["kind"] == "int" else arr
    return value


def run_entry(wrong: Wrong) -> dict:
    """The namespace the entry's code leaves behind (its prelude first); run once per entry
    (some train the lesson's model), shared by the check and the submission."""
    key = CORPUS.index(wrong)
    if key not in _RUN:
        _RUN[key] = _run(wrong)
    return _RUN[key]


_RUN: dict = {}


def _run(wrong: Wrong) -> dict:
    namespace = {"np": np}
    if not isinstance(question(wrong.lesson, wrong.name), (Function, Design)):
        namespace["want"] = expected(wrong.lesson, wrong.name)
    exec(PRELUDE.get(wrong.lesson, "") + wrong.source, namespace)  # noqa: S102 - the corpus is ours
    return namespace


# --------------------------------------------------------------------------
# The corpus itself


def test_corpus_covers_every_exercise_four_times_over():
    counts = Counter(w.lesson for w in CORPUS)
    assert set(counts) == set(known_lessons())
    assert min(counts.values()) >= 4, counts
    for w in CORPUS:
        question(w.lesson, w.name)  # a question of that exercise


def test_every_real_states_its_precision():
    """Real(sig=N) or Real(exact=True), as the question module writes it, for every number
    (a function's result too): the generator prints it under the question."""
    silent = []
    for lesson in known_lessons():
        for q in questions_for(lesson):
            real = q.result if isinstance(q, Function) else q
            if isinstance(real, Real) and not real.stated:
                silent.append(f"{lesson}: {q.name}")
    assert not silent, f"write sig=N or exact=True for {silent}"


def lesson_01_slips(p: dict) -> list:
    """Lesson 01's slips for one variant's parameters: (question, wrong value, words its hint must contain)."""
    from embedlab.grading.questions import l01
    from embedlab.params import load_config, model_shape

    want = l01.answers(p)
    shape = model_shape(load_config(p["model"]))
    V, d, extra = shape.vocab_size, shape.hidden_size, p["extra_features"]
    a, b = (r.astype(float) for r in l01.pair_rows(p))
    slips = [
        ("E", want["E"].T, "transpose"),
        ("n_params", len(p["words"]) + len(p["features"]), "rows × columns"),
        ("batch", want["batch"][0], "one row per word"),
        ("cos_pair", float(f"{want['cos_pair']:.3g}"), "digits: compute it"),
        ("cos_pair", float(a @ b), "divide by both lengths"),
        ("cos_pair", float(a @ b) / float(a @ a * (b @ b)), "squared length"),
        ("model_table", 2 * V * d, "token table only"),
        ("extra_dim_cost", extra * d, "new feature is a new column"),
        ("extra_dim_cost", V, f"the question adds {extra}"),
    ]
    if round(V, -3) != V:
        slips.append(("model_table", round(V, -3) * d, "exact vocabulary size"))
    return slips


@pytest.mark.parametrize("variant", range(9))
def test_lesson_01_hints_hold_in_every_class_variant(variant):
    """Lesson 01 is parameterised (class mode): its hints are made from each variant's parameters,
    so the same slips get the same words in the book's variant 0 and in drawn ones."""
    from embedlab.grading.exercise import evaluate
    from embedlab.grading.questions import l01
    from embedlab.grading.variants import parameters_of

    p = parameters_of("01-toy-table", variant, b"hint-corpus-secret-for-variants")
    questions = {q.name: q for q in questions_for("01-toy-table", p)}
    want = l01.answers(p)
    for name, value, words in lesson_01_slips(p):
        verdict = evaluate(questions[name], value, questions[name].to_data(want[name]) if isinstance(
            questions[name], Array) else want[name])
        assert verdict.status == "incorrect" and words in verdict.detail, (variant, name, value, verdict)


def test_standard_line_is_replaced_not_repeated():
    nb = nbformat.read(ROOT / "solutions" / "01-toy-table.ipynb", as_version=4)
    questions = questions_for("01-toy-table")
    once = generate.with_standard_lines(nb, questions)
    assert generate.with_standard_lines(once, questions) == once
    cell = once.cells[generate.question_cells(once, questions)["cos_pair"]]
    assert cell.source.endswith("\n\n**1 point** · compute it in code: the check wants it exact (to 1 part in 10⁹)")
    worth_two = [dataclasses.replace(q, points=2) if q.name == "cos_pair" else q for q in questions]
    again = generate.with_standard_lines(once, worth_two).cells[generate.question_cells(once, questions)["cos_pair"]]
    assert again.source.count(" · compute it in code") == 1 and again.source.endswith("**2 points** · compute it in code: the check "
                                                                   "wants it exact (to 1 part in 10⁹)")


# --------------------------------------------------------------------------
# In this process: the notebook's check


@pytest.mark.parametrize("wrong", CORPUS, ids=IDS)
def test_the_check_names_the_mistake(wrong):
    verdict = Exercise(wrong.lesson).verdict(wrong.name, run_entry(wrong))
    assert verdict.status == "incorrect", (wrong.mistake, verdict)
    assert wrong.words.lower() in verdict.detail.lower(), (wrong.mistake, verdict.detail)  # a sentence may start with it
    assert "not the expected value" not in verdict.detail


# --------------------------------------------------------------------------
# Through the real grader: one run, one submission per exercise


def literal(value) -> str:
    """Python source that rebuilds a value answer exactly."""
    if isinstance(value, np.ndarray):
        return f"np.array({value.tolist()!r}, dtype=np.{value.dtype.name})"
    if isinstance(value, (bool, np.bool_, str)):
        return repr(value)
    if isinstance(value, (int, np.integer)):
        return repr(int(value))
    return repr(float(value))


def graded_entries():
    """The entries the grader sees: the first one for each question of each exercise."""
    seen, out = set(), []
    for w in CORPUS:
        if (w.lesson, w.name) not in seen:
            seen.add((w.lesson, w.name))
            out.append(w)
    return out


def submission(lesson, entries):
    """The solution's setup cell, the lesson's prelude, then one cell per wrong answer."""
    solution = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    setup = next(c for c in solution.cells if c.cell_type == "code" and "Exercise(" in c.source)
    nb = nbformat.v4.new_notebook(metadata=solution.metadata)
    nb.metadata["embedlab"] = {"lesson": lesson, "kind": "exercise"}
    nb.cells = [nbformat.v4.new_code_cell(setup.source),
                nbformat.v4.new_code_cell("import numpy as np\n" + PRELUDE.get(lesson, ""))]
    for w in entries:
        if isinstance(question(lesson, w.name), (Function, Design)):
            source = w.source
        else:
            source = f"{w.name} = {literal(run_entry(w)[w.name])}"
        nb.cells.append(nbformat.v4.new_code_cell(source))
    return nb


def cell_source(w: Wrong) -> str:
    """The entry's cell in the submission: a value written as a literal, a function or design as its source."""
    if isinstance(question(w.lesson, w.name), (Function, Design)):
        return w.source
    return f"{w.name} = {literal(run_entry(w)[w.name])}"


def grader_path_row(w: Wrong) -> dict:
    """The grader's scoring of one entry in this process (solution_runner.grader_scoring: what
    embedlab-grade does after the sandbox)."""
    namespace = {k: v for k, v in run_entry(w).items() if k != "want"}
    status, detail = grader_scoring(w.lesson, w.name, namespace, cell_source(w))
    return {"status": status, "detail": detail}


@pytest.fixture(scope="module")
def grader_rows():
    """The grader's scoring of the first entry of every question (in this process: see grader_path_row)."""
    return {(w.lesson, w.name): grader_path_row(w) for w in graded_entries()}


def test_the_grader_marks_none_correct_and_names_nine_in_ten(grader_rows):
    rows = grader_rows
    entries = graded_entries()
    judged = [rows[(w.lesson, w.name)] for w in entries]
    assert not [r for r in judged if r["status"] == CORRECT]
    named = [w for w, r in zip(entries, judged) if r["status"] == "incorrect" and w.words.lower() in r["detail"].lower()]
    assert len(named) >= math.ceil(0.9 * len(entries)), [(w.mistake, rows[(w.lesson, w.name)]["detail"])
                                                         for w in entries if w not in named]


@pytest.mark.parametrize("wrong", graded_entries(), ids=lambda w: f"{w.lesson[:2]}-{w.name}")
def test_the_grader_gives_each_its_hint(grader_rows, wrong):
    row = grader_rows[(wrong.lesson, wrong.name)]
    assert row["status"] == "incorrect" and wrong.words.lower() in row["detail"].lower(), (wrong.mistake, row)


# The sandboxed grader, end to end, on three exercises: a function and arrays (01), sizes in bytes (07),
# and designs judged with the learner's own design (11). Every exercise's solution and blank exercise go
# through it in tests/test_grade_lessons.py; a wrong answer's source through it in tests/test_hint_parts.py.
SANDBOXED = ("01-toy-table", "07-memory", "11-size-a-model")


def test_the_sandboxed_grader_gives_the_same_hints(tmp_path, grader_rows):
    """One embedlab-grade run (sandbox, kernel, probe, worker) over one submission per exercise of
    SANDBOXED: the same status and hint as its scoring in this process (a function's: the same words;
    the sandboxed grader draws its inputs from the function's code, so the failing call differs)."""
    by_lesson = {}
    for w in graded_entries():
        if w.lesson in SANDBOXED:
            by_lesson.setdefault(w.lesson, []).append(w)
    for lesson, entries in by_lesson.items():
        nbformat.write(submission(lesson, entries), tmp_path / f"corpus-{lesson}.ipynb")
    rows = {(r["lesson"], r["question"]): r for r in grade_folder(tmp_path, timeout=300)}
    differ = []
    for entries in by_lesson.values():
        for w in entries:
            real, here = rows[(w.lesson, w.name)], grader_rows[(w.lesson, w.name)]
            same = real["status"] == here["status"] and (
                w.words.lower() in real["detail"].lower() if isinstance(question(w.lesson, w.name), Function)
                else real["detail"] == here["detail"])
            if not same:
                differ.append((w.lesson, w.name, real["detail"], here["detail"]))
    assert not differ, differ


SLIP_LESSONS = ["07-memory", "08-vocabulary-size", "09-what-rows-learn", "10-glitch-tokens",
                "12-change-a-vocabulary"]


@pytest.mark.parametrize("variant", range(9))
@pytest.mark.parametrize("lesson", SLIP_LESSONS)
def test_usual_slips_get_their_hints_in_every_class_variant(lesson, variant):
    """Lessons whose question module lists its usual slips for a variant, `slips(p)` (07: bits for
    bytes, every query head cached, GB for GiB, Adam part by part; 08: the head counted, the ratio
    upside down, the partner language audited; 09: the tied count, self-pairs in the within mean;
    10: the padded size, the diagonal kept, the reference rows left in ...): each gets its words in
    the book's variant 0 and in drawn ones, none is marked correct, and every answer that varies
    has a slip."""
    import importlib

    from embedlab.grading.exercise import evaluate
    from embedlab.grading.variants import parameters_of

    module = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")
    p = parameters_of(lesson, variant, b"hint-corpus-secret-for-variants")
    questions = {q.name: q for q in questions_for(lesson, p)}
    varying = module.answers(p)
    want = {**load_key(lesson), **varying}  # a fixed question's answer is the book's
    slips = module.slips(p)
    assert set(varying) <= {name for name, *_ in slips} <= set(want)
    for name, value, words, *source in slips:  # a source: the slip judged with the code that makes it
        q = questions[name]
        verdict = evaluate(q, value, q.to_data(want[name]) if isinstance(q, Array) else want[name],
                           source=source[0] if source else None)
        assert verdict.status == "incorrect" and words in verdict.detail, (lesson, variant, name, value, verdict)


@pytest.mark.parametrize("variant", range(9))
def test_lesson_11_hints_hold_in_every_class_variant(variant):
    """Lesson 11 is parameterised: each variant's rules judge against its own budget, and the
    usual slips on that variant's solution design (l11.slips: the non-embedding count, the
    weights only, GiB, the wrong precision, 6·N·D ...) get their words; none is marked correct."""
    from embedlab.grading.questions import l11
    from embedlab.grading.variants import parameters_of

    p = parameters_of("11-size-a-model", variant, b"hint-corpus-secret-for-variants")
    questions = {q.name: q for q in questions_for("11-size-a-model", p)}
    assert questions["design"].judge(questions["design"].to_data(l11.solution_design(p)), None).status == "correct"
    for name, answers, words in l11.slips(p):
        verdict = questions[name].judge(answers, None)
        assert verdict.status == "incorrect" and words in verdict.detail, (variant, name, answers[name], verdict)
