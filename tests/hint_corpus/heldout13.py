"""Held-out corpus 13: wrong answers to the twelve exercises, written blind (lab notebook below).

Who: helper blind13. When (Mon 7 Dec 2026, UTC, from `date -u`): started 08:07; first
full run of check_wrong 08:14; trimmed to 14 per lesson and first commit 08:18; API
entries swapped in 08:17-08:18; words tightened and wrong_words added 08:19-08:20, second
commit 08:20; lesson prose read and this notebook finished 08:21-08:24.

What I read: /work/notes/RULES.md; /work/shared/COURSE.md; the exercise notebooks
exercises/*.ipynb (questions, parameters cells, the given lines of each answer cell); the
answer cells of solutions/*.ipynb (to know what each question computes); in the lesson
notebooks notebooks/*.ipynb, the code cells of 01-03 (first 600 characters of each), the
section headings of 04-12, and the markdown of 04, 05, 06 (to section 5), 07, 08 (its
start), 09, 10 (its start), 11 (to section 4); lesson 12 only through its headings and
its exercise (the markdown was read after the first commit, to check the entries
against what a reader of each lesson is told; no entry had to change for it);
tests/hint_corpus/__init__.py and tests/hint_corpus/check_wrong.py; the signatures and
docstrings of public embedlab helpers (count_params, model_shape, token_costs,
serving_memory, training_flops, llama_config, deepest_fit, design_figures, resize_tinylm,
kl_divergence, unused_scores, one_hot_bytes, matmul_flops, kv_cache_bytes, padded_size,
forward_flops, adam_training_memory, ...), called from a python shell on the book's inputs.

What I never opened, listed, grepped or ran: lib/embedlab/grading/, tests/test_*.py,
tests/hint_corpus/learners.py, coincidences.py, right_answers.py, run_right.py, the other
heldout*.py corpora, the `issues` command, git log/show of other commits, /work/notes/*
other than RULES.md. No `ex.check(...)` cell was run and no hint text was read.
Slips: none. (The listing of tests/hint_corpus/ I ran filtered out learners, coincidences,
right_*, run_right and heldout* names before printing, so no other corpus name was shown.)

Counts: 168 entries, 14 per lesson (01 to 12), every question of every exercise at least
once (functions and lesson 11's design and defence included). 35 marked `# restructured`
(own helpers, loops, dicts, comprehensions, the math module, pure python; 2-3 per
lesson), 33 marked `# hard` (two slips at once, a right answer on the question's own
example, a value close to right, the lesson's number for another model, a bound typed in
place of the measured value), 5 marked `# API` (an embedlab helper called with a missing
or swapped argument, a default left as it is, or the wrong field of model_shape).

Entries that raise: none, neither as a cell nor on any input of a function question
(checked: no judge detail says "raises").

check_wrong: `cd tests && nice ../.venv/bin/python -m hint_corpus.check_wrong heldout13
--same`: 168 entries, problems 0, no two entries of one question with the same value.

Words: chosen with each entry, from the mistake alone (no hint was ever seen). After the
first commit I removed fragments so generic that almost any hint of that question would
contain them ("2", "0", "k", "u", "id", "row", "order", "both", "model", "total", ...),
replacing them by phrasings a tutor would use ("factor 2", "2·d·v", "every layer", ...).
21 entries carry wrong_words: the tempting wrong diagnosis for that value (e.g. the GPT-2
small block count typed for GPT-2 medium must not be blamed on missing biases).

Dropped and why: my first draft had 226 entries; the brief asks 12-14 per lesson, so I
kept 14 per lesson, keeping every question covered and the restructured and hard ones,
and dropped 58 plainer duplicates of a kind already present (e.g. a second "forgot the
factor 2", a second GB/GiB slip, a second "divided by the wrong total"). Fixed before
the trim: 4 entries check_wrong proved right or erroring: 04 attn_layer with h and h_kv
swapped (the count is symmetric in them, so it is right), 05 count_unique deduplicating
by size (right on every test input: random sizes never collide), 11 tightest_budget by
raw amounts (happens to give the right budget on the book's design), 12 kl_mean with
the KL reversed (raises: kl_divergence wants logits_after at least as wide as
logits_before, and the grown model has 4 more columns); each replaced by
another mistake. 01 cos_pair by Euclidean distance computed 1.0, the same value as the
rows-0-and-1 entry, so it became the angle (arccos) instead. Then swapped in 5 API-misuse
entries for 5 plainer ones, to cover embedlab helpers the lessons show.
"""

from . import Wrong

L01, L02, L03, L04 = "01-toy-table", "02-lookup-vs-matmul", "03-counting-gpt2", "04-modern-blocks"
L05, L06, L07, L08 = "05-weight-tying", "06-params-vs-compute", "07-memory", "08-vocabulary-size"
L09, L10, L11, L12 = "09-what-rows-learn", "10-glitch-tokens", "11-size-a-model", "12-change-a-vocabulary"

ENTRIES = [
    # ------------------------------------------------------------------ 01 toy table
    # restructured
    Wrong(L01, "E",
          "E = np.zeros((len(features), len(words)), dtype=int)\n"
          "for j, w in enumerate(words):\n"
          "    for i, f in enumerate(features):\n"
          "        if f in traits[w]:\n"
          "            E[i, j] = 1\n",
          "Built the table transposed, one row per feature and one column per word.",
          ("transpos", "shape", "one row per word", "swapped"), ()),
    Wrong(L01, "E",
          "vocab = ['cat', 'dog', 'car']\n"
          "E = np.array([[int(f in traits[w]) for f in features] for w in vocab])\n",
          "Kept the lesson's three words and left out `horse`, so the table has 3 rows, not 4.",
          ("horse", "every word", "shape", "one row per word", "missing"), ("order",)),
    Wrong(L01, "n_params",
          "n_params = len(words) + len(features)\n",
          "Added the number of rows and columns instead of multiplying them.",
          ("multipl", "×", "times", "product", "rows * columns"), ()),
    # hard: 6, the lesson's own toy count, and the number of ones in E
    Wrong(L01, "n_params",
          "n_params = int(E.sum())\n",
          "Counted only the 1 entries of the table; every entry, zeros too, is a parameter.",
          ("every entry", "zeros", "entries", ".size", "not only the ones"), ("bias",)),
    Wrong(L01, "batch",
          "batch = table[[word_to_id[w] for w in sorted(set(sentence))]]\n",
          "Looked up each distinct word once, sorted, losing the repeats and the sentence order.",
          ("repeat", "twice", "every word", "one row per word", "duplicate", "sentence order"), ()),
    # hard: ids taken from the wrong list
    Wrong(L01, "batch",
          "batch = table[[sentence.index(w) for w in sentence]]\n",
          "Used each word's position in the sentence as its id instead of its id in `words`.",
          ("word_to_id", "position in", "sentence.index", "its id"), ()),
    Wrong(L01, "cosine",
          "def cosine(a, b):\n"
          "    return float(a @ b / (np.sum(a ** 2) * np.sum(b ** 2)))\n",
          "Divided by the squared lengths: forgot the square root in the norms.",
          ("sqrt", "square root", "squared", "np.linalg.norm"), ()),
    # restructured
    Wrong(L01, "cosine",
          "import math\n"
          "def cosine(a, b):\n"
          "    dot = sum(x * y for x, y in zip(a, b))\n"
          "    na = math.sqrt(sum(x * x for x in a))\n"
          "    nb = math.sqrt(sum(y * y for y in b))\n"
          "    return float(dot / (na + nb))\n",
          "Divided by the sum of the two norms instead of their product.",
          ("product", "multipl", "times", "not their sum", "plus"), ()),
    Wrong(L01, "cos_pair",
          "a, b = table[word_to_id[pair[0]]], table[word_to_id[pair[1]]]\n"
          "cos_pair = float(np.arccos(cosine_similarity(a, b)))\n",
          "Gave the angle between the rows (arccos, in radians) instead of its cosine.",
          ("arccos", "radian", "angle"), ()),
    # hard: 1.0, cat and dog share a row
    Wrong(L01, "cos_pair",
          "cos_pair = cosine_similarity(table[0], table[1])\n",
          "Took rows 0 and 1 instead of the rows of the two words of `pair`.",
          ("pair", "word_to_id", "rows 0 and 1", "horse"), ()),
    Wrong(L01, "model_table",
          "from embedlab import count_params\n"
          "model_table = count_params(load_config(model)).total\n",
          "Gave the whole model's parameter count instead of the token table's.",
          ("token table", "whole model", "only the table", "v × d", "v·d", "vocab_size * hidden_size", "count_params"), ()),
    # API: the wrong field of model_shape
    Wrong(L01, "model_table",
          "shape = model_shape(load_config(model))\n"
          "model_table = shape.vocab_size * shape.intermediate_size\n",
          "Read the MLP width `intermediate_size` instead of the model width `hidden_size` for d.",
          ("hidden_size", "intermediate", "mlp width", "d_ff"), ()),
    Wrong(L01, "extra_dim_cost",
          "shape = model_shape(load_config(model))\n"
          "extra_dim_cost = extra_features * shape.hidden_size\n",
          "Multiplied the new features by the width d instead of the vocabulary V: a new column has one entry per token.",
          ("every token", "vocab_size", "one per token", "each row", "v ×", "× v"), ()),
    # restructured
    Wrong(L01, "extra_dim_cost",
          "s = model_shape(load_config(model))\n"
          "def table_size(v, width):\n"
          "    return v * width\n"
          "extra_dim_cost = table_size(s.vocab_size, s.hidden_size + extra_features)\n",
          "Gave the size of the widened table instead of how many parameters it gains.",
          ("gain", "differen", "added", "extra", "only the new", "minus"), ()),

    # ------------------------------------------------------------------ 02 lookup vs matmul
    Wrong(L02, "one_hot",
          "def one_hot(ids, V):\n"
          "    out = np.zeros((len(ids), V))\n"
          "    out[:, ids] = 1.0\n"
          "    return out\n",
          "Set every id's column in every row, instead of one 1 per row.",
          ("row t", "each row", "one 1", "arange", "every row", "per row"), ()),
    # restructured
    Wrong(L02, "one_hot",
          "def one_hot(ids, V):\n"
          "    rows = []\n"
          "    for i in ids:\n"
          "        row = [0.0] * V\n"
          "        row[i - 1] = 1.0\n"
          "        rows.append(row)\n"
          "    return np.array(rows)\n",
          "Put the 1 in column ids[t] - 1, treating ids as counted from 1.",
          ("off by one", "ids[t]", "minus 1", "- 1", "from 0", "zero-based"), ()),
    Wrong(L02, "rows_lookup",
          "rows_lookup = E[np.unique(ids)]\n",
          "Looked each id up once, sorted, so the repeated id 5 gives one row and the order is lost.",
          ("repeat", "every id", "duplicate", "one row per id", "twice", "np.unique", "sorted"), ()),
    Wrong(L02, "rows_matmul",
          "rows_matmul = np.eye(table_V)[ids]\n",
          "Built the one-hot matrix but never multiplied it by E.",
          ("multipl", "@ e", "times e", "product", "matmul"), ()),
    Wrong(L02, "keeps_sign",
          "keeps_sign = \"both\"\n",
          "Assumed both paths return the same bits, but the matmul adds +0.0 products and loses the sign of -0.0.",
          ("+0", "positive zero", "signbit", "sign bit", "adds", "loses the sign", "sum of", "zero products"), ()),
    # hard: computed, with the test inverted
    Wrong(L02, "keeps_sign",
          "by_matmul = np.eye(3)[[0]] @ E_zero\n"
          "keeps_sign = \"matmul\" if not np.signbit(by_matmul[0, 0]) else \"lookup\"\n",
          "Ran the test but read np.signbit the wrong way round: False means the sign was lost.",
          ("signbit", "true means", "false means", "invert", "the other way", "sign bit", "copies"), ()),
    Wrong(L02, "embedding_backward",
          "def embedding_backward(ids, grad_out, V):\n"
          "    grad_E = np.zeros((V, grad_out.shape[1]))\n"
          "    grad_E[ids] = grad_out\n"
          "    return grad_E\n",
          "Assigned the gradients by fancy indexing, so a repeated id keeps only its last row instead of the sum.",
          ("add.at", "repeat", "accumul", "overwrit", "twice", "last one", "sum of"), ()),
    # restructured
    Wrong(L02, "embedding_backward",
          "def embedding_backward(ids, grad_out, V):\n"
          "    grad_E = np.zeros((V, grad_out.shape[1]))\n"
          "    for v in set(np.asarray(ids).tolist()):\n"
          "        grad_E[v] = grad_out[np.asarray(ids) == v].mean(axis=0)\n"
          "    return grad_E\n",
          "Averaged the rows of a repeated id instead of summing them.",
          ("average", "mean", "divid"), ()),
    Wrong(L02, "updated_rows",
          "updated_rows = np.arange(batch_V)\n",
          "Said every row changes, which is the tied case; untied, only the looked-up rows get a gradient.",
          ("untied", "looked up", "appear", "in the batch", "only the rows", "tied case", "every row"), ()),
    # restructured
    Wrong(L02, "updated_rows",
          "rows = set()\n"
          "for token in batch[0]:\n"
          "    rows.add(token)\n"
          "updated_rows = np.array(sorted(rows))\n",
          "Took the ids of the first sequence only, not of the whole batch.",
          ("every sequence", "all sequences", "whole batch", "second sequence", "both sequences", "batch[0]", "first sequence"), ()),
    # API: the lesson's helper without its n_tokens argument
    Wrong(L02, "batch_flops",
          "from embedlab import matmul_flops\n"
          "batch_flops = matmul_flops(V, d)\n",
          "Called matmul_flops without n_tokens, so it priced one token instead of the batch.",
          ("n_tokens", "per token", "every token", "one token", "1024"), ()),
    Wrong(L02, "batch_flops",
          "batch_flops = V * d * n_tokens\n",
          "Counted one FLOP per weight instead of two (a multiply and an add).",
          ("2 flops", "two", "multiply-add", "multiply and add", "2·v·d", "2 *", "factor 2", "factor of 2"), ()),
    # hard: the dtype numpy would give by default
    Wrong(L02, "one_hot_batch_bytes",
          "one_hot_batch_bytes = n_tokens * V * np.zeros(1).itemsize\n",
          "Used numpy's default float64 (8 bytes) instead of the dtype named in `precision`.",
          ("float32", "4 bytes", "precision", "dtype", "itemsize"), ("bits",)),
    Wrong(L02, "one_hot_batch_bytes",
          "one_hot_batch_bytes = n_tokens * V * 32\n",
          "Counted bits (32 per float32) instead of bytes.",
          ("bits", "itemsize", "/ 8", "divide by 8", "4 bytes"), ("float64",)),

    # ------------------------------------------------------------------ 03 counting GPT-2
    Wrong(L03, "linear_params",
          "linear_params = linear_in * linear_out\n",
          "Forgot the bias vector.",
          ("bias",), ()),
    Wrong(L03, "block_params",
          "attn = d * 3 * d + 3 * d\n"
          "mlp = (d * 4 * d + 4 * d) + (4 * d * d + d)\n"
          "block_params = attn + mlp + 2 * 2 * d\n",
          "Left out attention's output projection (d × d + d).",
          ("output projection", "c_proj", "proj", "d × d", "four", "attention"), ()),
    Wrong(L03, "block_params",
          "attention = 4 * d * d + 4 * d\n"
          "mlp = 4 * d * d + 5 * d\n"
          "block_params = attention + mlp + 4 * d\n",
          "Counted the MLP as 4·d² (one d × 4d matrix), but d → 4d → d has two such matrices, 8·d².",
          ("8·d²", "8d²", "8 * d", "two matrices", "second", "c_proj", "4d → d", "both mlp"), ()),
    # restructured
    Wrong(L03, "block_params",
          "def linear(m, n):\n"
          "    return m * n + n\n"
          "layers = [linear(d, 3 * d), linear(d, d), linear(d, 4 * d), linear(4 * d, d)]\n"
          "norms = 2 * d   # two LayerNorms, one vector each\n"
          "block_params = sum(layers) + norms\n",
          "Gave each LayerNorm one vector of d numbers; it has a scale and a shift, 2·d.",
          ("layernorm", "scale", "shift", "two vectors", "2·d", "2 * d", "gain", "beta"), ()),
    # hard: GPT-2 small's block, the lesson's printed 7,087,872
    Wrong(L03, "block_params",
          "block_params = 7_087_872\n",
          "Typed the lesson's block count of GPT-2 small (d = 768) instead of counting the block of `block_model`.",
          ("block_model", "medium", "1024", "gpt-2 small", "7,087,872", "7087872", "768"), ("bias", "layernorm")),
    Wrong(L03, "interview",
          "interview = 2 * interview_V * interview_d\n",
          "Counted the tied table twice, once for the input and once for the head.",
          ("tied", "once", "twice", "shared", "same matrix"), ("position",)),
    # hard: adds GPT-2's position table, a real part of GPT-2 but not asked
    Wrong(L03, "interview",
          "interview = interview_V * interview_d + 1024 * interview_d\n",
          "Added a 1024-position table, which the question does not ask about (only the table and the head).",
          ("position", "table and the head", "not asked", "only the table", "v × d", "v·d"), ("twice",)),
    Wrong(L03, "embedding_share",
          "counts = count_params(load_config(share_model))\n"
          "embedding_share = (counts.token_embedding + counts.position_embedding) / counts.total\n",
          "Counted the position table in the share too; the question asks for the token table alone.",
          ("position", "token table", "token_embedding", "only e", "alone"), ()),
    # restructured, hard: the lesson's model
    Wrong(L03, "embedding_share",
          "shares = {}\n"
          "for name in ['gpt2']:\n"
          "    c = count_params(load_config(name))\n"
          "    shares[name] = c.token_embedding / c.total\n"
          "embedding_share = shares['gpt2']\n",
          "Computed the share for GPT-2 small, the lesson's model, instead of `share_model`.",
          ("share_model", "gpt2-xl", "xl", "gpt-2 xl", "another model"), ()),
    Wrong(L03, "estimate_gap",
          "estimate_gap = (V * d + 12 * L * d**2) - exact\n",
          "Subtracted the wrong way round (estimate − exact), so the gap is negative.",
          ("sign", "negative", "exact − estimate", "exact - estimate", "short"), ()),
    # hard: one term of the gap, the largest
    Wrong(L03, "estimate_gap",
          "estimate_gap = config['n_positions'] * d\n",
          "Gave only the position table, leaving out the block biases, LayerNorms and final LayerNorm.",
          ("bias", "layernorm", "13", "final"), ()),
    Wrong(L03, "gpt2_params",
          "def gpt2_params(V, d, L, T):\n"
          "    return V * d + L * (12 * d * d + 13 * d) + 2 * d\n",
          "Forgot the learned position table, T × d.",
          ("position", "wpe", "t × d", "t·d", "t * d"), ()),
    Wrong(L03, "gpt2_params",
          "def gpt2_params(V, d, L, T):\n"
          "    return V * d + T * d + L * (12 * d * d + 13 * d)\n",
          "Forgot the final LayerNorm (2·d).",
          ("final", "ln_f", "layernorm", "norm"), ()),
    # restructured
    Wrong(L03, "gpt2_params",
          "def gpt2_params(V, d, L, T):\n"
          "    def lin(m, n):\n"
          "        return m * n + n\n"
          "    block = lin(d, 3 * d) + lin(d, d) + lin(d, 4 * d) + (4 * d * d) + 4 * d\n"
          "    total = V * d + T * d\n"
          "    for _ in range(L):\n"
          "        total += block\n"
          "    return total + 2 * d\n",
          "Dropped the bias of the MLP's second layer (4d → d) in every block.",
          ("bias", "c_proj", "13", "second mlp"), ()),

    # ------------------------------------------------------------------ 04 modern blocks
    Wrong(L04, "attn_layer",
          "attn_layer = 4 * d * d\n",
          "Counted four d × d matrices, ignoring that k and v have only h_kv heads.",
          ("h_kv", "key/value", "kv heads", "grouped", "fewer", "gqa"), ()),
    Wrong(L04, "attn_layer",
          "attn_layer = d * h * head_dim + d * h_kv * head_dim + h * head_dim * d\n",
          "Counted the k and v projections as one matrix instead of two.",
          ("k and v", "key and value", "both k", "two matrices", "value", "2 *"), ()),
    Wrong(L04, "attn_layer",
          "attn_layer = 4 * d * h_kv * head_dim\n",
          "Gave all four projections the h_kv key/value heads; q and o have the h query heads.",
          ("query", "q and o", "query heads", "h query", "num_heads"), ()),
    # hard: every layer, not one
    Wrong(L04, "attn_layer",
          "per_layer = d * h * head_dim + 2 * d * h_kv * head_dim + h * head_dim * d\n"
          "attn_layer = shape.num_layers * per_layer\n",
          "Multiplied by the number of layers; the question asks for one layer.",
          ("one layer", "per layer", "layers", "num_layers"), ("h_kv", "bias")),
    Wrong(L04, "mlp_layer",
          "mlp_layer = 2 * d * d_ff\n",
          "Counted two matrices; a SwiGLU MLP has three (gate, up, down).",
          ("gate", "three", "swiglu", "3 *", "3·d"), ()),
    Wrong(L04, "vocab_share",
          "c = count_params(load_config(share_model))\n"
          "vocab_share = c.token_embedding / c.total\n",
          "Counted only the token table, not the untied output head.",
          ("head", "untied", "lm_head", "both", "two"), ()),
    # restructured, hard: the tied 1B model of questions 1 and 2
    Wrong(L04, "vocab_share",
          "def share(name):\n"
          "    c = count_params(load_config(name))\n"
          "    return (c.token_embedding + c.lm_head) / c.total\n"
          "vocab_share = share(attn_model)\n",
          "Computed it for `attn_model` (Llama 3.2 1B) instead of `share_model`.",
          ("share_model", "llama-3-8b", "8b", "attn_model"), ()),
    # restructured
    Wrong(L04, "padding_params",
          "import math\n"
          "rows_added = math.ceil(V / pad_multiple) * pad_multiple - V\n"
          "padding_params = rows_added\n",
          "Gave the number of padded rows, not their parameters (rows × d).",
          ("× d", "* d", "times d", "hidden_size", "parameters per row", "768"), ("tied", "twice")),
    Wrong(L04, "padding_params",
          "padding_params = (V % pad_multiple) * d\n",
          "Used the remainder V mod 64 as the number of added rows instead of rounding up to the next multiple.",
          ("round up", "next multiple", "ceil", "remainder", "64 -", "up to"), ()),
    # hard: two slips, tied head counted twice and the whole padded table
    Wrong(L04, "padding_params",
          "import math\n"
          "V_padded = math.ceil(V / pad_multiple) * pad_multiple\n"
          "padding_params = 2 * (V_padded - V) * d\n",
          "Counted the padded rows twice, for the table and the head, though the head is tied.",
          ("tied", "once", "twice"), ("remainder", "round up")),
    Wrong(L04, "llama_params",
          "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    head_dim = d // h_kv\n"
          "    attention = 2 * d * h * head_dim + 2 * d * h_kv * head_dim\n"
          "    layer = attention + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + d + (0 if tied else V * d)\n",
          "Computed head_dim as d // h_kv instead of d // h.",
          ("head_dim", "d // h", "query heads", "h_kv"), ()),
    Wrong(L04, "llama_params",
          "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    hd = d // h\n"
          "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + (0 if tied else V * d)\n",
          "Forgot the final RMSNorm (d).",
          ("final", "final norm", "+ d", "before the head"), ()),
    Wrong(L04, "llama_params",
          "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    hd = d // h\n"
          "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + d + (V * d if tied else 0)\n",
          "Inverted the tying test: added the head when it is tied and left it out when untied.",
          ("tied", "untied", "invert", "the other way", "reversed"), ()),
    # restructured
    Wrong(L04, "llama_params",
          "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    parts = {\n"
          "        'embed': V * d,\n"
          "        'attention': L * 4 * d * d,\n"
          "        'mlp': L * 3 * d * d_ff,\n"
          "        'norms': L * 2 * d + d,\n"
          "        'head': 0 if tied else V * d,\n"
          "    }\n"
          "    return sum(parts.values())\n",
          "Counted attention as 4·d² per layer, ignoring grouped-query attention's h_kv key/value heads.",
          ("h_kv", "grouped", "key/value", "kv heads", "gqa", "4·d²", "4 * d * d"), ()),

    # ------------------------------------------------------------------ 05 weight tying
    Wrong(L05, "tied_count",
          "tied_count = untied - 2 * V * d\n",
          "Took away both the table and the head; tying keeps one V × d matrix.",
          ("once", "keep", "shared", "table stays", "one v × d", "only the head", "twice"), ()),
    # hard: the lesson's tied model of the same family
    Wrong(L05, "tied_count",
          "tied_count = count_params(load_config('llama-3.2-1b')).total\n",
          "Gave the count of Llama 3.2 1B, a tied model, instead of this model with its head tied.",
          ("same", "untied_model", "llama-3-8b", "v × d", "only the head", "subtract"), ()),
    Wrong(L05, "grad_E",
          "grad_E = dlogits.T @ x\n",
          "Kept only the head's gradient and forgot the lookup path.",
          ("lookup", "dx0", "two paths", "both paths", "input path", "add.at"), ()),
    Wrong(L05, "grad_E",
          "grad_E = np.zeros((V, d))\n"
          "np.add.at(grad_E, ids, dx0)\n",
          "Kept only the lookup's gradient and forgot the head path.",
          ("dlogits", "head path", "two paths", "both paths", "output", "logits"), ()),
    Wrong(L05, "grad_E",
          "grad_E = dlogits.T @ x\n"
          "grad_E[ids] += dx0\n",
          "Added the lookup gradient with +=, which adds a repeated id only once.",
          ("add.at", "repeat", "accumul", "twice", "buffer"), ()),
    # restructured
    Wrong(L05, "grad_E",
          "head_part = np.einsum('tv,td->vd', dlogits, x) / len(ids)\n"
          "lookup_part = np.zeros_like(head_part)\n"
          "for t, i in enumerate(ids):\n"
          "    lookup_part[i] += dx0[t]\n"
          "grad_E = head_part + lookup_part\n",
          "Divided the head's gradient by the batch size; dlogits is already the gradient of the loss.",
          ("divide", "mean", "scale", "len(ids)", "already"), ()),
    Wrong(L05, "count_unique",
          "def count_unique(storage, sizes):\n"
          "    return int(np.sum(sizes))\n",
          "Summed every entry, so a storage shared by two entries is counted twice.",
          ("storage", "once", "shared", "unique", "twice"), ()),
    Wrong(L05, "count_unique",
          "def count_unique(storage, sizes):\n"
          "    return len(np.unique(storage))\n",
          "Counted the distinct storages instead of the parameters they hold.",
          ("size", "parameters", "sizes", "number of storages"), ()),
    # hard: right on the question's own example
    Wrong(L05, "count_unique",
          "def count_unique(storage, sizes):\n"
          "    shared = storage == storage[0]\n"
          "    return int(sizes.sum() - sizes[shared][1:].sum())\n",
          "Removed only the repeats of the first entry's storage (the embedding), not of every shared storage.",
          ("every storage", "each storage", "other shared", "first entry", "only the first"), ()),
    # restructured
    Wrong(L05, "count_unique",
          "def count_unique(storage, sizes):\n"
          "    seen, total = set(), 0\n"
          "    for s, n in zip(storage, sizes):\n"
          "        if s in seen:\n"
          "            total += n\n"
          "        seen.add(s)\n"
          "    return total\n",
          "Inverted the test: adds an entry's size only when its storage was already seen.",
          ("first time", "invert", "already seen", "new storage", "not seen", "only when"), ()),
    Wrong(L05, "ties",
          "ties = \"llama-3-8b\"\n",
          "Named Llama-3-8B, which does not tie; the small Llama 3.2 1B does.",
          ("tie_word_embeddings", "config", "1b", "small", "3.2"), ()),
    Wrong(L05, "ties",
          "ties = \"mistral-7b\"\n",
          "Named Mistral-7B, which has an untied head.",
          ("tie_word_embeddings", "config", "1b", "small", "3.2"), ()),
    # restructured
    Wrong(L05, "state_dict_sum",
          "counts = count_params(load_config(tied_model))\n"
          "state = {'transformer.wte.weight': counts.token_embedding,\n"
          "         'everything else': counts.total - counts.token_embedding}\n"
          "state_dict_sum = sum(state.values())\n",
          "Listed the table under one name only, giving the true count; the state dict lists it twice.",
          ("twice", "two names", "double", "state dict", "both names", "wte", "lm_head"), ()),
    # hard: subtracting instead of adding
    Wrong(L05, "state_dict_sum",
          "shape = model_shape(load_config(tied_model))\n"
          "state_dict_sum = count_params(load_config(tied_model)).total - shape.vocab_size * shape.hidden_size\n",
          "Subtracted the table instead of counting it a second time.",
          ("subtract", "plus", "twice", "second", "add the table"), ()),

    # ------------------------------------------------------------------ 06 params vs compute
    # hard: the other model of the exercise
    Wrong(L06, "head_flops",
          "s = model_shape(load_config(model))\n"
          "head_flops = 2 * s.hidden_size * s.vocab_size\n",
          "Used `model` (Llama-3-8B, d = 4096) instead of `head_model`.",
          ("head_model", "llama-3.2-1b", "1b", "2048", "llama-3-8b", "4096"), ()),
    Wrong(L06, "lookup_flops",
          "lookup_flops = 2 * V * d\n",
          "Priced the lookup as the one-hot matmul.",
          ("zero", "copy", "copies", "no multipl", "no arithmetic", "0 flops"), ()),
    # restructured
    Wrong(L06, "kaplan_n",
          "skip = ['token_embedding', 'position_embedding']\n"
          "kaplan_n = counts.total - sum(getattr(counts, part) for part in skip)\n",
          "Forgot to take away the untied head.",
          ("lm_head", "untied", "output head", "head"), ()),
    # hard: close to right, also removed the final norm
    Wrong(L06, "kaplan_n",
          "kaplan_n = (counts.total - counts.token_embedding - counts.lm_head\n"
          "            - counts.final_norm)\n",
          "Also took away the final norm, which is not an embedding and stays in N.",
          ("norm", "final_norm", "final"), ("lm_head", "untied head")),
    Wrong(L06, "head_share_training",
          "head_share_training = c.head / (c.input + c.blocks + c.head)\n",
          "Left attention over the context out of the total.",
          ("attention", "t(t+1)/2", "keys", "attention_per_key"), ()),
    # hard: close to right
    Wrong(L06, "head_share_training",
          "attention = c.attention_per_key * T * T\n"
          "head_share_training = T * c.head / (T * (c.input + c.blocks + c.head) + attention)\n",
          "Counted T² keys instead of T(T+1)/2: each token attends only to itself and the ones before.",
          ("t(t+1)/2", "(t + 1)", "keys", "triang", "half", "before"), ()),
    # API: forward_flops left at its default logits="all"
    Wrong(L06, "head_share_prompt",
          "from embedlab import forward_flops\n"
          "f = forward_flops(load_config(share_model), T)\n"
          "head_share_prompt = f.head / f.total\n",
          "Used forward_flops with its default logits='all', which prices the head at every position; reading a prompt needs it once.",
          ("once", "last", "only the last", "logits='last'", 'logits="last"', "logits="), ()),
    # restructured
    Wrong(L06, "head_share_prompt",
          "runs = {'input': T, 'blocks': T, 'head': 1}\n"
          "cost = sum(getattr(c, part) * n for part, n in runs.items())\n"
          "cost += c.attention_per_key * T * (T + 1) / 2\n"
          "head_share_prompt = 100 * c.head / cost\n",
          "Gave the share as a percentage instead of a fraction.",
          ("fraction", "percent", "100", "between 0 and 1"), ()),
    # hard: right whenever d_ff = 4d, as in GPT-2 small and XL
    Wrong(L06, "forward_flops_per_token",
          "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * 12 * d * d + 4 * L * context * d + 2 * d * V\n",
          "Used GPT-2's 12·d² per block, assuming d_ff = 4d, instead of the given d_ff.",
          ("d_ff", "4d", "intermediate", "4 * d"), ()),
    # restructured
    Wrong(L06, "forward_flops_per_token",
          "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    per_block = 2 * (4 * d * d + 2 * d * d_ff) + 4 * context * d\n"
          "    embedding = 0   # a lookup, no FLOPs (the head reuses it)\n"
          "    return L * per_block + embedding\n",
          "Left out the LM head, 2·d·V, taking the tied table's cost to be the lookup's 0.",
          ("head", "2·d·v", "logits", "2 * d * v"), ()),
    Wrong(L06, "flop_rate",
          "flop_rate = 6 * N * D / GPU_HOURS\n",
          "Divided by GPU hours, not GPU seconds.",
          ("second", "3600", "hour"), ()),
    # hard: two slips, the total and TFLOP/s
    Wrong(L06, "flop_rate",
          "flop_rate = 6 * counts.total * D / (GPU_HOURS * 3600) / 1e12\n",
          "Used every parameter instead of N_mult and gave TFLOP/s instead of FLOP/s.",
          ("n_mult", "looked up", "input table", "tflop", "1e12", "flop/s"), ()),
    Wrong(L06, "active_params",
          "active_params = counts.total - (n_experts - k) * 3 * d * d_ff\n",
          "Took away the skipped experts of one layer instead of every expert layer.",
          ("every layer", "moe_layers", "each layer", "all layers", "32 layers"), ()),
    Wrong(L06, "active_params",
          "active_params = moe_layers * k * 3 * d * d_ff\n",
          "Counted only the experts a token uses, forgetting attention, the norms and the embeddings.",
          ("attention", "everything else", "start from", "counts.total", "shared", "norms"), ()),

    # ------------------------------------------------------------------ 07 memory
    Wrong(L07, "weights_gb_4bit",
          "weights_gb_4bit = N * 4 / 1e9\n",
          "Took int4 as 4 bytes per parameter instead of 4 bits (half a byte).",
          ("half", "0.5", "bits", "byte"), ()),
    # hard: the lesson's bf16 line
    Wrong(L07, "weights_gb_4bit",
          "weights_gb_4bit = N * 2 / 1e9\n",
          "Used bf16's 2 bytes per parameter instead of int4's half byte.",
          ("int4", "4 bits", "half", "0.5"), ("gib",)),
    Wrong(L07, "adam_parts",
          "adam_parts = np.array([2, 2, 4, 4]) * n_params\n",
          "Counted one Adam moment instead of two (m and v).",
          ("two moments", "m and v", "both moments", "8 bytes", "moment"), ()),
    # restructured
    Wrong(L07, "adam_parts",
          "bits = {'weights': 16, 'gradients': 16, 'master': 32, 'moments': 2 * 32}\n"
          "adam_parts = np.array([bits[k] * n_params for k in bits])\n",
          "Counted bits per parameter instead of bytes.",
          ("bits", "/ 8", "divide by 8", "not bytes"), ()),
    Wrong(L07, "kv_bytes_per_token",
          "kv_bytes_per_token = int(2 * L * h * head_dim * BYTES_PER_PARAM[cache_precision])\n",
          "Used the h query heads instead of the h_kv key/value heads.",
          ("h_kv", "key/value heads", "grouped", "kv heads"), ("bf16", "precision")),
    # hard
    Wrong(L07, "kv_bytes_per_token",
          "kv_bytes_per_token = 2 * L * h_kv * head_dim * 4\n",
          "Stored the cache in fp32 (4 bytes) instead of `cache_precision`.",
          ("bf16", "2 bytes", "precision", "cache_precision"), ("h_kv", "key/value heads")),
    # restructured
    # API: the whole-cache helper instead of per token
    Wrong(L07, "kv_bytes_per_token",
          "from embedlab import kv_cache_bytes\n"
          "kv_bytes_per_token = int(kv_cache_bytes(config, 8192, precision=cache_precision))\n",
          "Used kv_cache_bytes with a context of 8192, giving a whole sequence's cache instead of one token's.",
          ("per token", "one token", "8192", "whole sequence", "context of"), ()),
    Wrong(L07, "gqa_saving_gib",
          "def cache(heads):\n"
          "    return 2 * L * heads * head_dim * BYTES_PER_PARAM[cache_precision] * context\n"
          "gqa_saving_gib = cache(h_kv) / 2**30\n",
          "Gave the grouped cache itself instead of the difference from one key/value head per query head.",
          ("saving", "difference", "full", "minus", "compared"), ("10⁹", "1e9")),
    # hard
    Wrong(L07, "gqa_saving_gib",
          "b = BYTES_PER_PARAM[cache_precision]\n"
          "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * b / 2**30\n",
          "Computed the saving for one token instead of the whole sequence of `gqa_context` tokens.",
          ("context", "8192", "tokens", "sequence"), ()),
    Wrong(L07, "kv_cache_gb",
          "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / 2**30\n",
          "Divided by 2³⁰ (GiB) instead of 10⁹ (GB).",
          ("gb", "1e9", "10⁹", "gib"), ()),
    # restructured
    Wrong(L07, "kv_cache_gb",
          "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    per_token = 2 * L * h_kv * head_dim * bytes_per_number\n"
          "    total_gb = per_token * context * batch / 1e9\n"
          "    return round(total_gb, 2)\n",
          "Rounded the result to two decimals.",
          ("round", "exact", "decimal"), ()),
    Wrong(L07, "max_batch",
          "max_batch = int(memory // per_sequence)\n",
          "Forgot that the weights take part of the GPU.",
          ("weights", "subtract", "left", "remaining"), ()),
    Wrong(L07, "max_batch",
          "import math\n"
          "max_batch = math.ceil((memory - weights) / per_sequence)\n",
          "Rounded up; a partial sequence does not fit, so round down.",
          ("floor", "round down", "ceil", "whole sequences", "//"), ()),
    # hard
    Wrong(L07, "max_batch",
          "max_batch = int((gpu_gb * 2**30 - weights) // per_sequence)\n",
          "Took the GPU's 80 GB as GiB (2³⁰ bytes each).",
          ("gb", "10⁹", "1e9", "gib"), ()),

    # ------------------------------------------------------------------ 08 vocabulary size
    Wrong(L08, "embedding_params",
          "embedding_params = 2 * V_big * d\n",
          "Counted the tied head as a second table.",
          ("tied", "once", "twice"), ()),
    Wrong(L08, "embedding_share",
          "embedding_share = rest / (table + rest)\n",
          "Gave the share of everything but the table.",
          ("complement", "1 -", "rest /", "everything but"), ()),
    Wrong(L08, "extra_head_flops",
          "extra_head_flops = d * (V_big - V_small)\n",
          "Counted 1 FLOP per head weight instead of 2.",
          ("2·d", "2 *", "two flops", "factor 2", "multiply-add"), ()),
    Wrong(L08, "break_even_r",
          "break_even_r = (blocks + 2 * d * V_big) / (blocks + 2 * d * V_small)\n",
          "Inverted the ratio: fewer tokens are needed with V_big, so r is below 1.",
          ("invert", "inverse", "fewer", "below 1", "less than 1", "upside"), ()),
    # hard: close to right
    Wrong(L08, "break_even_r",
          "break_even_r = (blocks + d * V_small) / (blocks + d * V_big)\n",
          "Priced the head at d·V instead of 2·d·V.",
          ("2·d", "2 *", "two flops", "factor 2", "2·d·v"), ("invert", "upside")),
    Wrong(L08, "tokens_per_word",
          "def tokens_per_word(counts, n_tokens):\n"
          "    return float(np.mean(n_tokens))\n",
          "Averaged over distinct words without weighting by how often each occurs.",
          ("weight", "running", "frequen", "how often", "occurrence"), ()),
    # restructured
    Wrong(L08, "tokens_per_word",
          "def tokens_per_word(counts, n_tokens):\n"
          "    total_tokens = 0\n"
          "    total_words = 0\n"
          "    for c, n in zip(counts, n_tokens):\n"
          "        total_tokens += int(c) * int(n)\n"
          "        total_words += int(c)\n"
          "    return float(total_tokens // total_words)\n",
          "Used integer division, dropping the fraction.",
          ("integer", "//", "float", "division", "truncat"), ()),
    # restructured
    Wrong(L08, "hindi_single_token_share",
          "n_single = 0\n"
          "for w in top_hindi:\n"
          "    if len(bpe.encode_word(w)) == 1:\n"
          "        n_single += 1\n"
          "hindi_single_token_share = n_single\n",
          "Gave the number of single-token words instead of the fraction.",
          ("fraction", "divide", "n_top", "share"), ()),
    Wrong(L08, "hindi_single_token_share",
          "singles = [w for w in hindi if bpe.count_tokens(w) == 1]\n"
          "hindi_single_token_share = len(singles) / len(hindi)\n",
          "Measured all n_train Hindi words instead of the n_top most frequent.",
          ("n_top", "top", "100", "most frequent"), ()),
    Wrong(L08, "hindi_r",
          "def per_word(t):\n"
          "    return sum(len(t.encode(' ' + w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
          "hindi_r = per_word(gpt2) / per_word(cl100k)\n",
          "Inverted the ratio: GPT-2's tokens per word over cl100k's.",
          ("invert", "cl100k", "divided by", "upside", "inverse"), ()),
    # hard: no leading space
    Wrong(L08, "hindi_r",
          "def per_word(t):\n"
          "    return sum(len(t.encode(w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
          "hindi_r = per_word(cl100k) / per_word(gpt2)\n",
          "Encoded each word without the leading space it has in running text.",
          ("space", "\" \"", "' '", "after a space"), ()),
    # hard: breaks ties the other way
    Wrong(L08, "bpe_merges",
          "def bpe_merges(counts, n_merges):\n"
          "    words = [list(w.encode('utf-8')) for w in counts]\n"
          "    freqs = list(counts.values())\n"
          "    merges = []\n"
          "    for k in range(n_merges):\n"
          "        pairs = {}\n"
          "        for toks, n in zip(words, freqs):\n"
          "            for p in zip(toks, toks[1:]):\n"
          "                pairs[p] = pairs.get(p, 0) + n\n"
          "        if not pairs:\n"
          "            break\n"
          "        best = max(pairs, key=lambda p: (pairs[p], p))\n"
          "        merges.append(best)\n"
          "        new = []\n"
          "        for toks in words:\n"
          "            out, j = [], 0\n"
          "            while j < len(toks):\n"
          "                if j + 1 < len(toks) and (toks[j], toks[j + 1]) == best:\n"
          "                    out.append(256 + k)\n"
          "                    j += 2\n"
          "                else:\n"
          "                    out.append(toks[j])\n"
          "                    j += 1\n"
          "            new.append(out)\n"
          "        words = new\n"
          "    return merges\n",
          "Broke ties by the largest pair instead of the smallest.",
          ("tie", "smallest", "ties"), ()),
    # restructured
    Wrong(L08, "bpe_merges",
          "from collections import Counter\n"
          "def bpe_merges(counts, n_merges):\n"
          "    words = [list(w.encode('utf-8')) for w in counts]\n"
          "    merges = []\n"
          "    for k in range(n_merges):\n"
          "        pairs = Counter(p for toks in words for p in zip(toks, toks[1:]))\n"
          "        if not pairs:\n"
          "            break\n"
          "        best = min(pairs, key=lambda p: (-pairs[p], p))\n"
          "        merges.append(best)\n"
          "        for i, toks in enumerate(words):\n"
          "            out, j = [], 0\n"
          "            while j < len(toks):\n"
          "                if toks[j:j + 2] == list(best):\n"
          "                    out.append(256 + k)\n"
          "                    j += 2\n"
          "                else:\n"
          "                    out.append(toks[j])\n"
          "                    j += 1\n"
          "            words[i] = out\n"
          "    return merges\n",
          "Counted each pair once per word, not weighted by the word's count.",
          ("weight", "frequen", "word's count", "by its count", "how often"), ()),
    Wrong(L08, "bpe_merges",
          "def bpe_merges(counts, n_merges):\n"
          "    words = {w: list(w.encode('utf-8')) for w in counts}\n"
          "    merges = []\n"
          "    for k in range(n_merges):\n"
          "        pairs = {}\n"
          "        for w, toks in words.items():\n"
          "            for p in zip(toks, toks[1:]):\n"
          "                pairs[p] = pairs.get(p, 0) + counts[w]\n"
          "        if not pairs:\n"
          "            break\n"
          "        best = min(pairs, key=lambda p: (-pairs[p], p))\n"
          "        merges.append(best)\n"
          "        for w, toks in words.items():\n"
          "            out, j = [], 0\n"
          "            while j < len(toks):\n"
          "                if j + 1 < len(toks) and (toks[j], toks[j + 1]) == best:\n"
          "                    out.append(256)\n"
          "                    j += 2\n"
          "                else:\n"
          "                    out.append(toks[j])\n"
          "                    j += 1\n"
          "            words[w] = out\n"
          "    return merges\n",
          "Gave every merge the id 256 instead of 256 + k.",
          ("256 + k", "new id", "token id", "same id", "every merge"), ()),

    # ------------------------------------------------------------------ 09 what rows learn
    # restructured
    Wrong(L09, "n_params",
          "shapes = [(V, d), (2 * d, d), (d,)]\n"
          "n_params = int(sum(np.prod(s) for s in shapes))\n",
          "Left out the untied output matrix U.",
          ("untied", "output matrix", "output", "head", " u"), ()),
    Wrong(L09, "n_params",
          "n_params = V * d + d * d + d + V * d\n",
          "Gave W d × d inputs instead of the two context rows side by side (2d).",
          ("2 * d", "2d", "2·d", "two context", "side by side", "two rows"), ()),
    # hard: a bias on U too
    Wrong(L09, "n_params",
          "sizes = {'E': V * d, 'W': 2 * d * d, 'b': d, 'U': V * d, 'U_bias': V}\n"
          "n_params = sum(sizes.values())\n",
          "Added an output bias of V numbers the model does not have.",
          ("no bias", "extra", "output bias", "u has", "too many", "bias"), ()),
    Wrong(L09, "embedding_grad",
          "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
          "    dE[contexts] = dx0\n"
          "    return dE\n",
          "Assigned instead of accumulating, so a repeated token keeps one contribution.",
          ("add.at", "repeat", "twice", "accumul", "both contributions"), ()),
    Wrong(L09, "embedding_grad",
          "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
          "    np.add.at(dE, contexts[:, 0], dx0[:, 0])\n"
          "    return dE\n",
          "Added only the first context slot's gradients.",
          ("slot", "every slot", "both slots", "contexts[:, 0]", "second slot", "all context"), ()),
    # restructured
    Wrong(L09, "embedding_grad",
          "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    B, C, d = dx0.shape\n"
          "    dE = np.zeros((vocab_size, d))\n"
          "    for b in range(B):\n"
          "        for k in range(C):\n"
          "            dE[contexts[b, k]] += dx0[b, k]\n"
          "    return dE / B\n",
          "Divided the summed gradient by the batch size.",
          ("mean", "divide", "sum", "scale", "already"), ()),
    Wrong(L09, "gap",
          "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\n"
          "C = unit @ unit.T\n"
          "within = np.mean([C[np.ix_(g, g)].mean() for g in (animals, vehicles)])\n"
          "gap = within - C[np.ix_(animals, vehicles)].mean()\n",
          "Included each word with itself (cosine 1) in the within-group mean.",
          ("different", "itself", "diagonal", "i < j", "self", "56"), ()),
    Wrong(L09, "gap",
          "S = E @ E.T\n"
          "within = [S[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
          "gap = np.mean(within) - S[np.ix_(animals, vehicles)].mean()\n",
          "Used raw dot products instead of cosine similarities.",
          ("cosine", "normali", "length", "dot product", "unit"), ()),
    # hard
    Wrong(L09, "gap",
          "U_ = run.model.U\n"
          "unit = U_ / np.linalg.norm(U_, axis=1, keepdims=True)\n"
          "C = unit @ unit.T\n"
          "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
          "Measured the output matrix U instead of the embedding E.",
          ("run.model.e", "output matrix", "input table", "run.model.u", "embedding table", "not u"), ("diagonal", "itself")),
    Wrong(L09, "cos_cat",
          "others = [i for i in animals + vehicles if i != cat]\n"
          "rows = E[others]\n"
          "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))\n",
          "Left cat out, giving 15 values instead of 16 (the first is cat with itself).",
          ("itself", "16", "first entry", "shape"), ()),
    Wrong(L09, "rotation_changes_cosines",
          "rotation_changes_cosines = \"yes\"\n",
          "Said yes; an orthogonal matrix keeps every dot product and norm, so the cosines do not change.",
          ("orthogonal", "preserv", "rotation", "angle", "unchanged"), ()),
    Wrong(L09, "tinylm_grads",
          "def tinylm_grads(E, W, b, U, contexts, targets):\n"
          "    B, C = contexts.shape\n"
          "    x0 = E[contexts].reshape(B, -1)\n"
          "    x = np.tanh(x0 @ W + b)\n"
          "    logits = x @ U.T\n"
          "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n"
          "    p /= p.sum(axis=1, keepdims=True)\n"
          "    dlogits = p.copy()\n"
          "    dlogits[np.arange(B), targets] -= 1.0\n"
          "    dU = dlogits.T @ x\n"
          "    da = (dlogits @ U) * (1.0 - x**2)\n"
          "    dx0 = (da @ W.T).reshape(B, C, -1)\n"
          "    dE = np.zeros_like(E)\n"
          "    np.add.at(dE, contexts, dx0)\n"
          "    return dE, dU\n",
          "Forgot to divide by the batch size: the loss is the mean over the batch.",
          ("mean over", "divide", "/ b", "batch size", "average"), ()),
    Wrong(L09, "tinylm_grads",
          "def tinylm_grads(E, W, b, U, contexts, targets):\n"
          "    B, C = contexts.shape\n"
          "    x0 = E[contexts].reshape(B, -1)\n"
          "    x = np.tanh(x0 @ W + b)\n"
          "    logits = x @ U.T\n"
          "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n"
          "    p /= p.sum(axis=1, keepdims=True)\n"
          "    dlogits = (p - np.eye(U.shape[0])[targets]) / B\n"
          "    dU = dlogits.T @ x\n"
          "    dx0 = ((dlogits @ U) @ W.T).reshape(B, C, -1)\n"
          "    dE = np.zeros_like(E)\n"
          "    np.add.at(dE, contexts, dx0)\n"
          "    return dE, dU\n",
          "Forgot the tanh's derivative (1 − x²) on the way back to E.",
          ("tanh", "1 - x", "derivative", "activation", "1 − x"), ()),
    # restructured
    Wrong(L09, "tinylm_grads",
          "def softmax(z):\n"
          "    z = z - z.max(axis=-1, keepdims=True)\n"
          "    e = np.exp(z)\n"
          "    return e / e.sum(axis=-1, keepdims=True)\n"
          "\n"
          "def tinylm_grads(E, W, b, U, contexts, targets):\n"
          "    n = len(targets)\n"
          "    h = np.tanh(np.concatenate([E[contexts[:, k]] for k in range(contexts.shape[1])], axis=1) @ W + b)\n"
          "    g = softmax(h @ U.T)\n"
          "    g[np.arange(n), targets] -= 1\n"
          "    g /= n\n"
          "    dU = g.T @ h\n"
          "    dx = ((g @ U) * (1 - h * h)) @ W.T\n"
          "    dE = np.zeros(E.shape)\n"
          "    for k in range(contexts.shape[1]):\n"
          "        dE[contexts[:, k]] += dx[:, k * E.shape[1]:(k + 1) * E.shape[1]]\n"
          "    return dE, dU\n",
          "Scattered the rows with +=, so an id repeated within one slot's column gets one contribution.",
          ("add.at", "repeat", "accumul", "twice"), ()),

    # ------------------------------------------------------------------ 10 glitch tokens
    Wrong(L10, "padding_rows",
          "padding_rows = -(-V // pad_multiple) * pad_multiple\n",
          "Gave the padded size instead of the number of rows added.",
          ("differen", "spare", "minus", "extra", "belong to no", "added"), ()),
    # restructured
    Wrong(L10, "padding_rows",
          "n = V\n"
          "while n % pad_multiple:\n"
          "    n -= 1\n"
          "padding_rows = n - V\n",
          "Rounded V down to a multiple instead of up, giving a negative number.",
          ("round up", "ceil", "down", "next multiple", "negative"), ()),
    Wrong(L10, "invalid_bytes",
          "invalid_bytes = 2   # 0xC0 and 0xC1, overlong\n",
          "Counted only the overlong lead bytes 0xC0 and 0xC1, forgetting 0xF5 to 0xFF.",
          ("f5", "245", "ff", "13", "above"), ()),
    # restructured
    Wrong(L10, "invalid_bytes",
          "seen = set()\n"
          "for c in range(0x10000):\n"
          "    if 0xD800 <= c <= 0xDFFF:\n"
          "        continue\n"
          "    seen |= set(chr(c).encode('utf-8'))\n"
          "invalid_bytes = 256 - len(seen)\n",
          "Encoded only the Basic Multilingual Plane (below 0x10000), so the four-byte lead bytes never appear.",
          ("0x110000", "four-byte", "4-byte", "every code point", "above", "plane"), ()),
    Wrong(L10, "unused_score",
          "def unused_score(M, reference_ids):\n"
          "    mean = M[reference_ids].mean(axis=0)\n"
          "    keep = [i for i in range(len(M)) if i not in set(reference_ids)]\n"
          "    R = M[keep]\n"
          "    return R @ mean / (np.linalg.norm(R, axis=1) * np.linalg.norm(mean))\n",
          "Left the reference rows out of the scores; the question wants one score per row.",
          ("every row", "reference rows", "include", "shape", "one score per row"), ()),
    Wrong(L10, "unused_score",
          "def unused_score(M, reference_ids):\n"
          "    mean = M.mean(axis=0)\n"
          "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n",
          "Took the mean of all rows instead of the reference rows.",
          ("reference", "reference_ids", "mean of the reference"), ()),
    # hard: same ranking as the right score
    Wrong(L10, "unused_score",
          "def unused_score(M, reference_ids):\n"
          "    mean = np.mean(M[reference_ids], axis=0)\n"
          "    return (M @ mean) / np.linalg.norm(M, axis=1)\n",
          "Divided by the rows' norms but not by the mean's norm.",
          ("norm of the mean", "mean's norm", "both norms", "norm"), ("reference rows", "mean of all")),
    Wrong(L10, "never_cos",
          "rows = run.model.E[never]\n"
          "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
          "never_cos = (unit @ unit.T).mean()\n",
          "Averaged the whole matrix, each row with itself included.",
          ("different", "diagonal", "itself", "pairs", "k=1"), ()),
    Wrong(L10, "never_cos",
          "reserved = list(corpus.groups['reserved'])\n"
          "rows = run.model.E[reserved]\n"
          "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
          "C = unit @ unit.T\n"
          "never_cos = C[np.triu_indices(len(reserved), k=1)].mean()\n",
          "Used only the reserved rows and left out the glitch word.",
          ("never", "glitch", "zorblox", "all of"), ()),
    Wrong(L10, "top7",
          "from embedlab import unused_scores\n"
          "scores = unused_scores(run.model.E, reference)\n"
          "top7 = np.argsort(-scores, kind='stable')[:7]\n",
          "Did not leave the reference rows out of the ranking.",
          ("leave out", "reference", "left out", "exclude"), ()),
    Wrong(L10, "top7",
          "from embedlab import unused_scores\n"
          "scores = unused_scores(run.model.E, reference)\n"
          "order = [i for i in np.argsort(scores, kind='stable') if i not in reference]\n"
          "top7 = np.array(order[:7])\n",
          "Sorted ascending, so it gave the 7 lowest scores.",
          ("highest", "descend", "reverse", "-scores", "ascending", "lowest"), ()),
    # restructured
    Wrong(L10, "top7",
          "from embedlab import unused_scores\n"
          "scores = unused_scores(run.model.E, reference)\n"
          "best = sorted(range(len(scores)), key=lambda i: -scores[i])[:7]\n"
          "top7 = np.array([i for i in best if i not in reference])\n",
          "Took the top 7 first and removed the references afterwards, leaving fewer than 7.",
          ("seven", "fewer than", "shape", "leave out first", "then take"), ()),
    Wrong(L10, "partial_tokens",
          "partial_tokens = sum(1 for b in ordinary if len(b) == 1 and b[0] >= 0x80)\n",
          "Counted only the single high bytes, not merged tokens cut inside a character.",
          ("merged", "multi-byte", "partial", "longer", "every token"), ()),
    Wrong(L10, "partial_tokens",
          "partial_tokens = 0\n"
          "for b in ordinary:\n"
          "    try:\n"
          "        b.decode('utf-8')\n"
          "        partial_tokens += 1\n"
          "    except UnicodeDecodeError:\n"
          "        pass\n",
          "Counted the tokens that decode instead of those that do not.",
          ("invert", "raise", "fail", "do not decode", "not decode"), ()),

    # ------------------------------------------------------------------ 11 size a model
    Wrong(L11, "design",
          "design = llama_config(vocab_size=32000, d=768, num_layers=8, num_heads=16,\n"
          "                      num_kv_heads=4, d_ff=4 * 768, tied=True)\n",
          "Chose 16 heads of a 768-wide model, so each head is 48 wide, not head_dim.",
          ("head_dim", "64", "heads", "d / h", "head width"), ()),
    Wrong(L11, "design",
          "design = llama_config(vocab_size=16000, d=1024, num_layers=8, num_heads=16,\n"
          "                      num_kv_heads=4, d_ff=4096, tied=True)\n",
          "Picked a vocabulary below `min_vocab_size`.",
          ("vocab", "32000", "min_vocab", "vocabulary"), ()),
    Wrong(L11, "design",
          "L = deepest_fit(lambda n: llama_config(32000, 1024, n, 16, 4, 4096, True), BUDGET).layers\n"
          "design = llama_config(32000, 1024, L, 16, 16, 4096, True)\n",
          "Searched the depth with 4 key/value heads, then built the design with 16 (no grouping): the KV cache breaks the memory budget, the wider k and v matrices the compute one.",
          ("kv", "key/value", "cache", "memory", "grouped"), ()),
    # hard: one layer past the deepest fit
    Wrong(L11, "design",
          "build = lambda n: llama_config(32000, 1024, n, 16, 4, 4096, True)\n"
          "L = deepest_fit(build, BUDGET).layers\n"
          "design = build(L + 1)\n",
          "Took one layer more than the deepest design that fits.",
          ("one layer", "deepest", "layers", "too deep", "over budget"), ("head_dim", "vocab")),
    # restructured
    Wrong(L11, "design_params",
          "figs = design_figures(design, BUDGET)\n"
          "design_params = figs.non_embedding\n",
          "Gave the non-embedding count instead of every parameter.",
          ("total", "every parameter", "embedding"), ()),
    Wrong(L11, "design_serving_gb",
          "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
          "                                   batch=BUDGET.batch, kv=BUDGET.kv)['weights'] / GB\n",
          "Gave the weights alone and left out the KV cache.",
          ("kv", "cache", "total"), ()),
    Wrong(L11, "design_serving_gb",
          "design_serving_gb = serving_memory(design, context=context)['total'] / GB\n",
          "Left the precisions at serving_memory's defaults (bf16) instead of the job's int4 weights.",
          ("int4", "weights", "precision"), ()),
    # restructured
    Wrong(L11, "design_train_flops",
          "def six_nd(cfg, tokens):\n"
          "    return 6 * count_params(cfg).total * tokens\n"
          "design_train_flops = int(six_nd(design, D))\n",
          "Used the 6·N·D approximation instead of counting with training_flops.",
          ("training_flops", "6·n·d", "6nd", "6 *", "attention", "count it"), ()),
    Wrong(L11, "design_train_flops",
          "design_train_flops = training_flops(design, T_train).total\n",
          "Gave the FLOPs of one sequence, not of all train_tokens // train_context sequences.",
          ("sequences", "train_tokens", "//", "number of sequences"), ()),
    # hard: two slips
    Wrong(L11, "design_train_flops",
          "design_train_flops = training_flops(design, T_train).total * D\n",
          "Multiplied one sequence's FLOPs by the number of tokens instead of the number of sequences.",
          ("sequence", "//", "train_context", "per sequence"), ()),
    Wrong(L11, "tightest_budget",
          "left = {'parameters': BUDGET.max_params - design_params,\n"
          "        'memory': BUDGET.max_serving_gb - design_serving_gb,\n"
          "        'compute': BUDGET.max_train_flops - design_train_flops}\n"
          "tightest_budget = min(left, key=left.get)\n",
          "Compared the raw amounts left under each budget (in different units) instead of each budget's fraction used.",
          ("fraction", "divide", "share", "ratio", "units"), ()),
    Wrong(L11, "other_tying_params",
          "other_tying_params = count_params(design).total\n",
          "Recounted the design as it is, without flipping the tying.",
          ("flip", "other tying", "untied", "tie_word_embeddings", "same design"), ()),
    Wrong(L11, "other_tying_params",
          "other_tying_params = design_params - design['vocab_size'] * design['hidden_size']\n",
          "Always subtracted V × d; untying a tied head adds it.",
          ("tied", "add", "untied", "flip"), ()),
    Wrong(L11, "defence",
          "defence = f\"\"\"\n"
          "Which budget binds, and by how much:\n"
          "The {tightest_budget} budget binds.\n"
          "\n"
          "Why this width and depth:\n"
          "\n"
          "What the tying choice costs:\n"
          "Tying saves parameters.\n"
          "\"\"\"\n",
          "Named the budget without figures and wrote nothing under the width and depth heading.",
          ("figure", "width", "depth", "heading", "empty"), ()),

    # ------------------------------------------------------------------ 12 change a vocabulary
    # restructured
    Wrong(L12, "added_params",
          "added_rows = max(V, n_tok + n_new) - V\n"
          "added_params = sum(added_rows * d for matrix in ('table', 'head'))\n",
          "Counted the new rows twice, for the table and the head, though GPT-2's head is tied.",
          ("tied", "once", "head"), ()),
    Wrong(L12, "added_params",
          "added_params = 0\n",
          "Assumed the new tokens fit in spare rows; GPT-2's table has none past its tokenizer.",
          ("spare", "n_tok", "grow", "no spare", "new rows"), ()),
    Wrong(L12, "padding_rows",
          "padding_rows = padded_size(V, pad_multiple) - V\n",
          "Padded the old table and left out the new tokens.",
          ("n_new", "old and new", "new tokens", "n_tok + n_new"), ()),
    # API: padded_size's arguments swapped
    Wrong(L12, "padding_rows",
          "rows = max(V, n_tok + n_new)\n"
          "padding_rows = padded_size(pad_multiple, rows) - rows\n",
          "Swapped padded_size's arguments (it takes the size first, then the multiple), so it pads nothing.",
          ("argument", "padded_size(", "swap", "order of", "the other way"), ()),
    Wrong(L12, "p_new_token",
          "grown = resize_tinylm(run.model, n_new, 'zeros')\n"
          "p_new_token = float(np.exp(log_softmax(grown.logits(context)))[0][corpus.vocab_size])\n",
          "Started the new rows at zero instead of the mean.",
          ("mean", "init", "zeros"), ("log-prob",)),
    Wrong(L12, "p_new_token",
          "p = np.exp(log_softmax(run.model.logits(context)))[0]\n"
          "p_new_token = float(p[corpus.vocab_size - 1])\n",
          "Read the last old token's probability from the model before resizing.",
          ("resize", "first new", "corpus.vocab_size", "new token", "grown", "before resizing"), ()),
    # hard: the lesson's bound, not the value
    Wrong(L12, "p_new_token",
          "p_new_token = 1 / (corpus.vocab_size + n_new)\n",
          "Gave the bound 1/(V+k) instead of computing the model's probability.",
          ("bound", "at most", "actual", "compute it"), ()),
    Wrong(L12, "kl_mean",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "train_contexts, _ = corpus.training_pairs(context=2)\n"
          "kl_mean = float(kl_divergence(run.model.logits(train_contexts),\n"
          "                              grown.logits(train_contexts)).mean())\n",
          "Measured on the training corpus's positions instead of those of `ordinary`.",
          ("ordinary", "training corpus", "training_pairs", "wrong positions"), ()),
    Wrong(L12, "kl_mean",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).sum())\n",
          "Summed over the positions instead of averaging.",
          ("mean", "average", "sum"), ("direction", "reverse")),
    Wrong(L12, "trimmed_rows",
          "trimmed_rows = len(used)\n",
          "Left out the 256 byte tokens and the end-of-text token.",
          ("byte", "256", "eot", "end-of-text"), ()),
    # restructured
    Wrong(L12, "saved_params",
          "removed_rows = tok.n_vocab - n_keep\n"
          "matrices = 2   # the table and the head\n"
          "saved_params = removed_rows * d_trim * matrices\n",
          "Counted the removed rows in the head too, though the head is tied.",
          ("tied", "once", "trim_tied"), ()),
    Wrong(L12, "saved_params",
          "saved_params = n_keep * d_trim\n",
          "Gave the parameters kept instead of those removed.",
          ("remov", "n_vocab", "differen", "minus"), ()),
    Wrong(L12, "coverage",
          "kept = used | set(range(256)) | {tok.eot_token}\n"
          "covered = [set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words]\n"
          "coverage = float(np.mean(covered))\n",
          "Counted each word once instead of weighting by its frequency.",
          ("weight", "frequen", "occurrence"), ()),
    # restructured
    Wrong(L12, "coverage",
          "kept = used | set(range(256)) | {tok.eot_token}\n"
          "hit = total = 0.0\n"
          "for w in next_words:\n"
          "    for t in tok.encode_ordinary(' ' + w):\n"
          "        total += frequencies[w]\n"
          "        hit += frequencies[w] * (t in kept)\n"
          "coverage = hit / total\n",
          "Counted kept tokens instead of words whose every token is kept.",
          ("whole word", "every token", "all its tokens", "words, not tokens", "per word"), ()),
]


# --------------------------------------------------------------------------
# Added by the lead after the independent judge (judge13, 2026-12-07 08:30 UTC), not by the corpus's author:
# where the corpus classifier's reading of a hint on main before any fix (e1a3a89) differed from the judge's,
# the entry's word lists are calibrated to the judge, entry by entry: (wrong words added, words added, words
# dropped). A wrong word added is the false clause the judge found (a construct the code does not hold, a slip
# not made); a word added is the hint's own naming of the real mistake; a word dropped is one a generic hint
# matched by chance. With them the classifier gives the judge's counts on the hints before any fix: 147
# specific, 12 generic, 9 misleading (tests/test_hint_corpus_learners.py's docstring).
from . import calibrated  # noqa: E402
CALIBRATED = {
    ('cos_pair', 'Gave the angle between the rows (arccos,'): (('degrees',), (), ()),  # judge13 #8: radians
    ('cos_pair', 'Took rows 0 and 1 instead of the rows of'): ((), ('the right rows?',), ()),  # #9
    ('model_table', 'Read the MLP width `intermediate_size` i'): (("read `n_embd`",), (), ()),  # #11
    ('extra_dim_cost', 'Multiplied the new features by the width'): ((), ('new words (rows)',), ()),  # #12
    ('block_params', 'Counted the MLP as 4·d² (one d × 4d matr'): ((), ('two d × 4d matrices',), ()),  # #30
    ('block_params', 'Gave each LayerNorm one vector of d numb'): (('3 · d wide, not d',), (), ()),  # #31
    ('gpt2_params', "Dropped the bias of the MLP's second lay"): (('no attention output bias',), (), ()),  # #41
    ('attn_layer', 'Counted the k and v projections as one m'): (('the value projection v is missing',), (), ()),
    ('padding_params', 'Gave the number of padded rows, not thei'): ((), ('each row holds d numbers',), ()),  # #49
    ('kaplan_n', 'Also took away the final norm, which is '): ((), ('exactly d short',), ()),  # #73
    ('kv_bytes_per_token', 'Used kv_cache_bytes with a context of 81'): (('no head_dim', '2**20 times'), (), ()),
    ('break_even_r', 'Priced the head at d·V instead of 2·d·V.'): (('counted twice',), (), ()),  # #102
    ('embedding_grad', 'Assigned instead of accumulating, so a r'): (('keeps only one',), (), ()),  # #115
    ('unused_score', "Divided by the rows' norms but not by th"): ((), ("mean's length",), ()),  # #132
    ('design', 'Searched the depth with 4 key/value head'): ((), (), ('memory', 'cache', 'kv')),  # #142: generic
    ('padding_rows', "Swapped padded_size's arguments (it take"): (('does not subtract',), (), ()),  # #157
}


ENTRIES = calibrated(ENTRIES, CALIBRATED, ("add_wrong", "add", "drop"))
