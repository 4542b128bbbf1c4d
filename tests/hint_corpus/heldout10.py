"""Blind held-out corpus 10: wrong answers written without reading the hint code.

Lab notebook
------------
Written 2026-12-07 between 01:38 and 01:50 UTC by a helper session, in its own worktree
(branch blind10), in under an hour.

Read: /work/notes/RULES.md; /work/shared/COURSE.md; the exercise notebooks exercises/*.ipynb
(questions, parameters cells, given lines); the solution notebooks' answer cells
solutions/*.ipynb; the public library (signatures of lib/embedlab/sizing.py, resize.py,
memory.py, params.py and what `token_costs`/`count_params` print for gpt2);
tests/hint_corpus/__init__.py (the `Wrong` format) and tests/hint_corpus/check_wrong.py
(how an entry runs). The lesson notebooks (notebooks/*.ipynb) were not opened (time box): the
mistakes come from the exercises' question text, the solutions and the course design.

Never opened nor grepped: lib/embedlab/grading/, tests/test_*.py, any other file of
tests/hint_corpus/ (heldout*.py, learners.py, coincidences.py, right_answers.py, run_right.py),
the issues tracker, git log messages, /work/notes/* other than RULES.md. The hints were never
run while writing; only check_wrong (which proves an entry wrong) was run.

The learners: a hurried one, a loop writer, a helper-function writer, a restructurer (stores a
result in another variable first, renames), a PyTorch-habit one, a GB/GiB mixer, an early
rounder, a hard-coder of the lesson's numbers, a wrong-config-field reader, a confuser of
similar quantities (d vs d_ff, h vs h_kv, share vs count, ratio vs difference), a wrong-axis
one, an off-by-one one (plus precedence, integer division, sorting direction, scores for ids,
ignored arguments, partial sums).

Not covered: `bpe_merges` (lesson 08) and `tinylm_grads` (lesson 09): check_wrong.py has no
inputs for these two functions (its `_inputs` raises KeyError for them), so no entry for them
could be proven wrong without changing check_wrong.py, which this brief forbids touching.

Six entries for those two functions are in UNJUDGED below (three each), apart from ENTRIES so
that check_wrong still runs; each was proven wrong by a throw-away script (not committed) that
ran the entry as check_wrong's run_entry does and compared it with the solution notebook's own
function: bpe_merges on three word-count dicts (two hand-made with ties, word_counts("en", 60)),
tinylm_grads on four random parameter sets and batches with C = 1 and 2 and a repeated context;
all six differ on every input.

Counts (ENTRIES, after the drops): 225 entries. 01: 17, 02: 21, 03: 18, 04: 17, 05: 15, 06: 21,
07: 20, 08: 19, 09: 16, 10: 21, 11: 17, 12: 23. Every question of every exercise has at least
one entry except bpe_merges and tinylm_grads (in UNJUDGED, 3 each).

`cd tests && ../.venv/bin/python -m hint_corpus.check_wrong heldout10 --same` printed
"problems: 0" on the final file and no "same value" groups. On the first run (227 entries) it
printed "problems: 2" and two same-value groups; what was done:
- dropped, accepted as right: count_unique deduplicating by size (`sum(set(sizes))`): no input
  of the check has two different storages of the same size, so it gives the right sum on all 5;
- dropped, accepted as right: tightest_budget comparing raw amounts (params, GB, FLOPs) with
  max(): the FLOPs dwarf the others, and "compute" happens to be the solution design's binding
  budget too;
- replaced, same value as another entry: extra_dim_cost `(V + extra_features) * d - V * d`
  (rows grown instead of columns) equals `extra_features * d` exactly; now a different mistake
  (doubling the gain for a tied head);
- replaced, same value as another entry: kaplan_n `total - lm_head - position_embedding`
  equals `total - token_embedding` for Llama-3-8B (untied head as large as the table, no
  position table); now a different mistake (the rounded "8B" as the total).
One entry makes the learner's own function raise on some inputs, as the mistake would:
unused_score averaging along axis=1 gives a mean of the wrong length, so `M @ mean` raises
ValueError on non-square inputs (check_wrong counts that as wrong, it is not a crash of the run).
"""

from hint_corpus import Wrong as W

ENTRIES = [
    # ------------------------------------------------------------------ 01 toy table
    W("01-toy-table", "E",
      "E = np.array([[int(f in traits[w]) for w in words] for f in features])\n",
      "Builds the table transposed: one row per feature and one column per word.",
      ("transpose", "one row per word", "shape"), ("cosine", "dtype")),
    W("01-toy-table", "E",
      "E = np.array([[0 if f in traits[w] else 1 for f in features] for w in words])\n",
      "Swaps the 0 and the 1: marks 1 where a word does NOT have the feature.",
      ("swapped", "inverted", "0 where", "opposite", "1 where"), ("shape", "transpose")),
    W("01-toy-table", "E",
      "E = np.array([[0, 1], [0, 1], [1, 0]])   # the lesson's cat/dog/car table\n",
      "Copies the lesson's 3x2 cat/dog/car table instead of building it from words, features and traits.",
      ("words", "features", "traits", "shape"), ("transpose", "inverted")),
    W("01-toy-table", "n_params",
      "n_params = len(words) + len(features)\n",
      "Adds the number of rows and columns instead of multiplying them.",
      ("multiply", "times", "rows × columns", "×", "product"), ("bias", "tied")),
    W("01-toy-table", "n_params",
      "n_params = len(E)\n",
      "Counts only the rows (len of the array), not rows times columns.",
      ("columns", "features", "rows × columns", ".size", "every entry"), ("bias", "tied")),
    W("01-toy-table", "batch",
      "ids = sorted({word_to_id[w] for w in sentence})\nbatch = table[ids]\n",
      "Deduplicates the sentence through a set: a repeated word gets one row and the order is lost.",
      ("repeat", "every word", "order", "duplicate", "once per word"), ("axis", "column")),
    W("01-toy-table", "batch",
      "batch = table[:, [word_to_id[w] for w in sentence]]\n",
      "Indexes the columns (features) instead of the rows (words): the wrong axis.",
      ("axis", "column", "rows", "table[ids]"), ("repeat", "order")),
    W("01-toy-table", "cosine",
      "def cosine(a, b):\n    return float(a @ b / np.linalg.norm(a) * np.linalg.norm(b))\n",
      "Precedence slip: divides by |a| then multiplies by |b| (no parentheses around the product of norms).",
      ("parenthes", "bracket", "precedence", "multiplies by", "product of the norms"), ("sqrt", "square root")),
    W("01-toy-table", "cosine",
      "def cosine(a, b):\n    return float(np.dot(a, b))\n",
      "Returns the dot product, never divides by the two lengths.",
      ("norm", "length", "divide", "magnitude"), ("precedence", "square root")),
    W("01-toy-table", "cosine",
      "def cosine(a, b):\n    num = 0.0\n    na = 0.0\n    nb = 0.0\n    for x, y in zip(a, b):\n"
      "        num += x * y\n        na += x * x\n        nb += y * y\n    return float(num / (na * nb))\n",
      "Loop version that divides by the squared norms: forgets the square root.",
      ("square root", "sqrt", "squared"), ("precedence", "transpose")),
    W("01-toy-table", "cos_pair",
      "i, j = word_to_id[pair[0]], word_to_id[pair[1]]\ncos_pair = float(table[i] @ table[j])\n",
      "Gives the dot product of the two rows, not their cosine.",
      ("norm", "cosine", "dot product", "length"), ("id", "off by one")),
    W("01-toy-table", "cos_pair",
      "ids1 = {w: i for i, w in enumerate(words, start=1)}\n"
      "cos_pair = cosine_similarity(table[ids1[pair[0]]], table[ids1[pair[1]]])\n",
      "Numbers the words from 1: each id is off by one, so it compares the wrong rows.",
      ("0", "off by one", "ids", "word_to_id", "start"), ("norm", "dot product")),
    W("01-toy-table", "model_table",
      "model_table = 50_000 * 768   # GPT-2: 50K tokens, 768 wide\n",
      "Hard-codes a rounded vocabulary (50,000) instead of reading vocab_size from the config.",
      ("vocab_size", "50,257", "50257", "config", "model_shape"), ("tied", "head")),
    W("01-toy-table", "model_table",
      "shape = model_shape(load_config(model))\nmodel_table = 2 * shape.vocab_size * shape.hidden_size  # table + head\n",
      "Counts the table twice as if the head were a separate matrix; the question asks for the token table only.",
      ("table only", "tied", "head", "once", "twice"), ("vocab_size", "round")),
    W("01-toy-table", "extra_dim_cost",
      "shape = model_shape(load_config(model))\nV, d = shape.vocab_size, shape.hidden_size\nextra_dim_cost = extra_features * d\n",
      "Multiplies the new features by the width d instead of by the number of rows V.",
      ("V", "vocab", "every token", "row", "vocab_size"), ("difference", "total")),
    W("01-toy-table", "extra_dim_cost",
      "shape = model_shape(load_config(model))\nV, d = shape.vocab_size, shape.hidden_size\nextra_dim_cost = V * (d + extra_features)\n",
      "Gives the size of the whole new table, not what it gains.",
      ("gain", "difference", "subtract", "minus", "whole table"), ("width", "rows")),
    W("01-toy-table", "extra_dim_cost",
      "shape = model_shape(load_config(model))\nV, d = shape.vocab_size, shape.hidden_size\n"
      "extra_dim_cost = 2 * V * extra_features   # the table and GPT-2's head\n",
      "Doubles the gain for the head, though GPT-2's head is the same (tied) table and the question asks about the token table.",
      ("tied", "once", "head", "twice", "token table"), ("width", "difference")),

    # ------------------------------------------------------------------ 02 lookup vs matmul
    W("02-lookup-vs-matmul", "one_hot",
      "def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n    out[:, ids] = 1.0\n    return out\n",
      "Sets every id's column in every row (out[:, ids]) instead of one 1 per row.",
      ("every row", "np.arange", "row t", "one 1 per row", "pairs"), ("transpose", "dtype")),
    W("02-lookup-vs-matmul", "one_hot",
      "def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n    for t, i in enumerate(ids):\n"
      "        out[t, i - 1] = 1\n    return out\n",
      "Loop writer who treats ids as 1-based: the 1 lands one column to the left.",
      ("off by one", "column ids[t]", "i - 1", "0-based", "shifted"), ("transpose", "every row")),
    W("02-lookup-vs-matmul", "one_hot",
      "def one_hot(ids, V):\n    return np.eye(V)[ids].T\n",
      "Returns the one-hot matrix transposed, shape (V, len(ids)).",
      ("transpose", "shape", "(len(ids), V)", ".T"), ("off by one", "every row")),
    W("02-lookup-vs-matmul", "rows_lookup",
      "rows_lookup = E[np.unique(ids)]\n",
      "Looks up each distinct id once, sorted: a repeated id loses its second row and the order changes.",
      ("repeat", "order", "every id", "unique", "duplicate"), ("transpose", "dtype")),
    W("02-lookup-vs-matmul", "rows_lookup",
      "rows_lookup = np.stack([E[i] for i in range(len(ids))])\n",
      "Loops over the positions 0..len(ids)-1 instead of over the ids: takes the first rows of E.",
      ("ids", "E[ids]", "position", "the ids themselves"), ("unique", "transpose")),
    W("02-lookup-vs-matmul", "rows_matmul",
      "rows_matmul = E.T @ np.eye(table_V)[ids].T\n",
      "Multiplies in the transposed order (PyTorch-style weight layout): gets the rows as columns.",
      ("transpose", "shape", "order", "one_hot(ids) @ E"), ("dtype", "float16")),
    W("02-lookup-vs-matmul", "rows_matmul",
      "oh = np.eye(table_V, dtype=np.float16)[ids]\nrows_matmul = oh @ E.astype(np.float16)\n",
      "Casts the table to float16 (half precision habit) before the matmul: the rows lose digits.",
      ("float16", "precision", "dtype", "float32", "half"), ("transpose", "shape")),
    W("02-lookup-vs-matmul", "keeps_sign",
      'keeps_sign = "both"\n',
      "Thinks the matmul keeps -0.0 too; the sum 0*... + (-0.0) + ... gives +0.0 on the matmul path.",
      ("matmul", "sum", "adds", "+0.0", "0.0 +", "addition"), ()),
    W("02-lookup-vs-matmul", "keeps_sign",
      'keeps_sign = "matmul"\n',
      "Picks the matmul: it is the lookup (a copy) that keeps the sign bit.",
      ("copy", "lookup", "copies", "sum", "adds"), ()),
    W("02-lookup-vs-matmul", "embedding_backward",
      "def embedding_backward(ids, grad_out, V):\n    grad_E = np.zeros((V, grad_out.shape[1]))\n"
      "    grad_E[ids] += grad_out\n    return grad_E\n",
      "Uses grad_E[ids] += grad_out: with a repeated id only the last row counts (buffered fancy-index add).",
      ("np.add.at", "repeat", "accumulate", "add.at", "last"), ("transpose", "shape")),
    W("02-lookup-vs-matmul", "embedding_backward",
      "def embedding_backward(ids, grad_out, V):\n    return grad_out\n",
      "Returns the gradient of the looked-up rows, shape (len(ids), d), not the (V, d) table gradient.",
      ("shape", "(V, d)", "V rows", "scatter", "table"), ("repeat", "transpose")),
    W("02-lookup-vs-matmul", "embedding_backward",
      "def embedding_backward(ids, grad_out, V):\n    return grad_out.T @ one_hot(ids, V)\n",
      "Gets the matmul the wrong way round: (d, V) instead of (V, d).",
      ("transpose", "shape", "(V, d)"), ("repeat", "add.at")),
    W("02-lookup-vs-matmul", "updated_rows",
      "updated_rows = np.arange(batch_V)\n",
      "Answers every row, as for a tied head; the table is untied, only looked-up rows change.",
      ("untied", "looked up", "in the batch", "only the rows", "appear"), ("sorted", "unique")),
    W("02-lookup-vs-matmul", "updated_rows",
      "updated_rows = np.unique(batch[0])\n",
      "Takes the ids of the first sequence only, not of the whole batch.",
      ("every sequence", "whole batch", "all sequences", "second sequence", "both"), ("tied", "every row")),
    W("02-lookup-vs-matmul", "updated_rows",
      "updated_rows = np.array(batch).flatten()\n",
      "Lists every position's id: repeats kept and not sorted.",
      ("once", "unique", "increasing", "sorted", "repeat"), ("tied", "every row")),
    W("02-lookup-vs-matmul", "batch_flops",
      "batch_flops = V * d * n_tokens\n",
      "Counts one FLOP per weight per token: forgets the multiply and the add (factor 2).",
      ("2", "multiply-add", "two flops", "multiply and add", "twice"), ("n_tokens", "lookup")),
    W("02-lookup-vs-matmul", "batch_flops",
      "flops_per_token = 2 * V * d\nbatch_flops = flops_per_token\n",
      "Stores the per-token cost first and forgets to multiply by the n_tokens of the batch.",
      ("n_tokens", "batch", "every token", "per token"), ("multiply-add", "bytes")),
    W("02-lookup-vs-matmul", "batch_flops",
      "batch_flops = n_tokens * d\n",
      "Counts the lookup's copy (d numbers per token), not the matmul's 2·V·d.",
      ("matmul", "2·V·d", "V", "one-hot", "vocabulary"), ("bytes", "bits")),
    W("02-lookup-vs-matmul", "one_hot_batch_bytes",
      "one_hot_batch_bytes = n_tokens * V\n",
      "Counts numbers, not bytes: forgets the 4 bytes of each float32.",
      ("4 bytes", "itemsize", "float32", "bytes per", "precision"), ("bits", "table")),
    W("02-lookup-vs-matmul", "one_hot_batch_bytes",
      "one_hot_batch_bytes = n_tokens * V * 32\n",
      "Multiplies by the 32 bits of float32 instead of its 4 bytes.",
      ("bits", "8 bits", "bytes", "itemsize"), ("table", "n_tokens")),
    W("02-lookup-vs-matmul", "one_hot_batch_bytes",
      "one_hot_batch_bytes = V * d * np.dtype(precision).itemsize\n",
      "Gives the bytes of the table E (V × d), not of the (n_tokens × V) one-hot matrix.",
      ("n_tokens", "one-hot", "(n_tokens, V)", "table", "d"), ("bits", "itemsize")),

    # ------------------------------------------------------------------ 03 counting GPT-2
    W("03-counting-gpt2", "linear_params",
      "linear_params = linear_in * linear_out\n",
      "Forgets the bias.",
      ("bias",), ("input", "tied")),
    W("03-counting-gpt2", "linear_params",
      "linear_params = linear_in * linear_out + linear_in\n",
      "Gives the bias one number per input feature instead of one per output.",
      ("bias", "output", "linear_out", "one per output"), ("tied",)),
    W("03-counting-gpt2", "block_params",
      "block_params = 12 * d ** 2\n",
      "Gives the rule of thumb 12d² instead of the exact count (biases and LayerNorms left out).",
      ("bias", "LayerNorm", "exact", "13"), ("tied", "position")),
    W("03-counting-gpt2", "block_params",
      "attn = 3 * d * d + 3 * d + d * d + d\nmlp = d * 4 * d + 4 * d + 4 * d * d + d\nblock_params = attn + mlp\n",
      "Counts attention and MLP with biases but leaves out the two LayerNorms.",
      ("LayerNorm", "norm", "4 * d", "2 * (2 * d)"), ("tied", "position", "8d²")),
    W("03-counting-gpt2", "block_params",
      "attn = 3 * d * d + 3 * d + d * d + d\nmlp = d * 4 * d + 4 * d + 4 * d * d + d\nblock_params = attn + mlp + 2 * d\n",
      "Gives each LayerNorm only d parameters (its scale), forgetting its bias (shift).",
      ("LayerNorm", "bias", "2d", "weight and bias", "shift"), ("tied", "position")),
    W("03-counting-gpt2", "block_params",
      "attn = 4 * d * d + 4 * d\nmlp = 4 * d * d + 5 * d   # the FFN: 4·d² (as the source says)\n"
      "block_params = attn + mlp + 4 * d\n",
      "Follows the source's '4·d² for the FFN': a 4x MLP has two d×4d matrices, 8d².",
      ("8d²", "8 * d", "two matrices", "4d", "MLP", "d × 4d"), ("position", "tied")),
    W("03-counting-gpt2", "interview",
      "interview = 2 * interview_V * interview_d   # table + head\n",
      "Counts the tied head as a second matrix: a tied head adds 0 parameters.",
      ("tied", "once", "same matrix", "shared", "adds 0"), ("bias", "position")),
    W("03-counting-gpt2", "interview",
      "interview = interview_V * interview_d + interview_V   # the head's bias\n",
      "Gives the tied head a bias of V numbers; the head shares the table and has no bias.",
      ("bias", "no bias", "tied"), ("twice", "position")),
    W("03-counting-gpt2", "embedding_share",
      "counts = count_params(load_config(share_model))\n"
      "embedding_share = (counts.token_embedding + counts.position_embedding) / counts.total\n",
      "Adds the position table to the token table E; the question asks for E alone.",
      ("position", "token table", "only E", "E alone"), ("tied", "total")),
    W("03-counting-gpt2", "embedding_share",
      "counts = count_params(load_config(share_model))\n"
      "embedding_share = counts.token_embedding / (counts.total - counts.token_embedding)\n",
      "Divides by the rest of the model, not by the whole model: a ratio, not a share.",
      ("total", "whole", "fraction of all", "ratio", "rest"), ("position", "tied")),
    W("03-counting-gpt2", "embedding_share",
      "counts = count_params(load_config(share_model))\n"
      "embedding_share = 2 * counts.token_embedding / counts.total\n",
      "Counts the tied table twice (input and head) in the numerator.",
      ("tied", "once", "twice", "head"), ("position", "rest")),
    W("03-counting-gpt2", "estimate_gap",
      "estimate = V * d + 12 * L * d**2\nestimate_gap = estimate - exact\n",
      "Subtracts the wrong way: estimate − exact, a negative number.",
      ("sign", "negative", "exact − estimate", "exact - estimate", "the other way"), ("d²", "hard")),
    W("03-counting-gpt2", "estimate_gap",
      "estimate_gap = exact - (V * d + 12 * L * d)\n",
      "Writes 12·L·d instead of 12·L·d²: the block term misses a factor d.",
      ("d²", "d**2", "square", "d * d"), ("sign", "negative")),
    W("03-counting-gpt2", "estimate_gap",
      "estimate_gap = 907_776   # the lesson's gap\n",
      "Hard-codes the lesson's gap for GPT-2 small instead of computing it for gap_model.",
      ("gap_model", "compute", "this model", "gpt2-medium", "hard"), ("sign", "d²")),
    W("03-counting-gpt2", "gpt2_params",
      "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n    return V * d + L * block + 2 * d\n",
      "Leaves out the learned position table (T × d).",
      ("position", "T * d", "T × d", "context"), ("tied", "final")),
    W("03-counting-gpt2", "gpt2_params",
      "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n    return V * d + T * d + L * block\n",
      "Forgets the final LayerNorm (2d).",
      ("final", "LayerNorm", "2 * d", "2d"), ("position", "tied")),
    W("03-counting-gpt2", "gpt2_params",
      "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n"
      "    head = V * d\n    return V * d + T * d + L * block + 2 * d + head\n",
      "Adds a separate head matrix: GPT-2's head is tied and adds nothing.",
      ("tied", "head", "once", "V * d"), ("position", "final")),
    W("03-counting-gpt2", "gpt2_params",
      "def linear(n_in, n_out):\n    return n_in * n_out + n_out\n\n"
      "def gpt2_params(V, d, L, T):\n    attn = linear(d, 3 * d) + linear(d, d)\n"
      "    mlp = linear(d, 4 * d) + 4 * d * d   # second MLP layer\n    norms = 2 * 2 * d\n"
      "    return V * d + T * d + L * (attn + mlp + norms) + 2 * d\n",
      "Helper-function writer: the second MLP layer is written without its bias (d per block).",
      ("bias", "MLP", "second"), ("position", "tied", "final")),

    # ------------------------------------------------------------------ 04 modern blocks
    W("04-modern-blocks", "attn_layer",
      "attn_layer = 4 * d * d\n",
      "Counts four d×d matrices as in GPT-2: ignores grouped-query attention (k and v have h_kv heads).",
      ("h_kv", "key/value heads", "grouped", "GQA", "kv heads"), ("bias", "head_dim")),
    W("04-modern-blocks", "attn_layer",
      "q = d * h * head_dim\nkv = d * h_kv * head_dim\no = h * head_dim * d\nattn_layer = q + kv + o\n",
      "Counts the k and v projections as one matrix (kv once instead of twice).",
      ("k and v", "two", "2 *", "both", "value"), ("bias", "h_kv")),
    W("04-modern-blocks", "attn_layer",
      "attn_layer = (d * h * head_dim + h * head_dim) + 2 * (d * h_kv * head_dim + h_kv * head_dim) "
      "+ (h * head_dim * d + d)\n",
      "Adds biases to q, k, v and o: Llama's attention has none.",
      ("bias", "no biases"), ("h_kv", "grouped")),
    W("04-modern-blocks", "attn_layer",
      "attn_layer = d * (h + 2 * h_kv) * head_dim\n",
      "Counts q, k and v but forgets the output projection o.",
      ("output projection", "o", "four", "o_proj"), ("bias", "grouped")),
    W("04-modern-blocks", "mlp_layer",
      "mlp_layer = 2 * d * d_ff\n",
      "Counts two matrices as in a GPT-2 MLP: SwiGLU has three (gate, up, down).",
      ("three", "SwiGLU", "gate", "3"), ("bias", "norm")),
    W("04-modern-blocks", "mlp_layer",
      "mlp_layer = 3 * d * d_ff + 2 * d   # and the layer's two RMSNorms\n",
      "Adds the layer's two RMSNorms to the MLP count.",
      ("norm", "RMSNorm", "only the MLP", "MLP only"), ("three", "gate")),
    W("04-modern-blocks", "mlp_layer",
      "mlp_layer = 3 * d * d\n",
      "Uses d for both sides of the three matrices, not d × d_ff.",
      ("d_ff", "intermediate", "intermediate_size"), ("three", "bias")),
    W("04-modern-blocks", "vocab_share",
      "c = count_params(load_config(share_model))\nvocab_share = c.token_embedding / c.total\n",
      "Counts the token table only: the untied head is a second vocabulary-sized matrix.",
      ("head", "untied", "lm_head", "both", "output"), ("round", "rest")),
    W("04-modern-blocks", "vocab_share",
      "c = count_params(load_config(share_model))\nvocab = c.token_embedding + c.lm_head\n"
      "vocab_share = vocab / (c.total - vocab)\n",
      "Divides by the rest of the model instead of the total: a ratio, not a share.",
      ("total", "fraction", "whole", "ratio", "rest"), ("untied", "round")),
    W("04-modern-blocks", "vocab_share",
      "c = count_params(load_config(share_model))\nvocab_share = round((c.token_embedding + c.lm_head) / c.total, 3)\n",
      "Rounds the share to three decimals: the check wants it exact.",
      ("round", "exact", "decimals"), ("untied", "total")),
    W("04-modern-blocks", "padding_params",
      "V_padded = -(-V // pad_multiple) * pad_multiple\npadding_params = V_padded - V\n",
      "Gives the number of padded rows, not the parameters they hold (× d).",
      ("d", "hidden_size", "parameters", "× d", "times d", "width"), ("tied", "round up")),
    W("04-modern-blocks", "padding_params",
      "padding_params = (V // pad_multiple * pad_multiple - V) * d\n",
      "Rounds down to a multiple of pad_multiple instead of up: a negative number.",
      ("up", "next multiple", "ceil", "round up", "negative"), ("tied", "× d")),
    W("04-modern-blocks", "padding_params",
      "padded = (V // pad_multiple + 1) * pad_multiple\npadding_params = (padded - V) * d * 2   # table and head\n",
      "Counts the padded rows twice (table and head), but the head is tied.",
      ("tied", "once", "twice", "head"), ("round up", "ceil")),
    W("04-modern-blocks", "llama_params",
      "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    layer = 4 * d * d + 3 * d * d_ff + 2 * d\n"
      "    return V * d + L * layer + d + (0 if tied else V * d)\n",
      "Counts attention as 4d² (multi-head), ignoring h_kv.",
      ("h_kv", "grouped", "key/value", "GQA", "kv heads"), ("final", "tied")),
    W("04-modern-blocks", "llama_params",
      "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d // h\n"
      "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d\n"
      "    return V * d + L * layer + (0 if tied else V * d)\n",
      "Forgets the final RMSNorm (d).",
      ("final", "norm", "+ d"), ("h_kv", "tied")),
    W("04-modern-blocks", "llama_params",
      "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d // h\n"
      "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d\n"
      "    head = V * d if tied else 0\n    return V * d + L * layer + d + head\n",
      "Inverts the tying: adds a head matrix when tied and none when untied.",
      ("tied", "untied", "inverted", "head", "the other way"), ("final", "h_kv")),
    W("04-modern-blocks", "llama_params",
      "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d // h\n"
      "    attn = 2 * d * h * hd + 2 * d * h_kv * hd\n    mlp = 3 * d * d_ff\n    norms = 2 * (2 * d)   # weight and bias\n"
      "    return V * d + L * (attn + mlp + norms) + 2 * d + (0 if tied else V * d)\n",
      "Counts the RMSNorms as LayerNorms (weight and bias): RMSNorm has a weight only.",
      ("RMSNorm", "no bias", "weight only", "norm"), ("h_kv", "tied")),

    # ------------------------------------------------------------------ 05 weight tying
    W("05-weight-tying", "tied_count",
      "tied_count = untied - 2 * V * d\n",
      "Takes away both the table and the head: tying removes only the head's V × d.",
      ("once", "one V × d", "head only", "table stays", "only the head"), ("vocab_size", "add")),
    W("05-weight-tying", "tied_count",
      "tied_count = untied + V * d\n",
      "Adds V × d: tying shares the table, it removes the head's matrix.",
      ("subtract", "fewer", "saves", "removes", "minus"), ("twice", "vocab_size")),
    W("05-weight-tying", "tied_count",
      "tied_count = untied - 128_000 * d   # Llama 3: a 128K vocabulary\n",
      "Uses the rounded '128K' vocabulary from the text instead of V = 128,256.",
      ("vocab_size", "128,256", "128256", "V", "exact"), ("twice", "add")),
    W("05-weight-tying", "grad_E",
      "grad_E = dlogits.T @ x\n",
      "Keeps only the head's gradient: the lookup path (dx0 into the rows of ids) is missing.",
      ("both", "lookup", "dx0", "sum", "two paths", "input"), ("head", "transpose")),
    W("05-weight-tying", "grad_E",
      "grad_E = np.zeros((V, d))\nnp.add.at(grad_E, ids, dx0)\n",
      "Keeps only the lookup's gradient: the head's dlogits.T @ x is missing.",
      ("head", "dlogits", "both", "two paths", "output"), ("lookup", "repeat")),
    W("05-weight-tying", "grad_E",
      "grad_E = dlogits.T @ x\ngrad_E[ids] += dx0\n",
      "Adds the lookup path with grad_E[ids] += dx0: the repeated id gets only one contribution.",
      ("np.add.at", "repeat", "accumulate", "add.at", "twice"), ("head", "both paths")),
    W("05-weight-tying", "grad_E",
      "head_part = dlogits.T @ x / len(ids)   # average over the batch\ngrad_E = head_part.copy()\nnp.add.at(grad_E, ids, dx0)\n",
      "PyTorch-habit averaging: divides the head path by the batch size, though dlogits is already the loss's gradient.",
      ("divide", "mean", "average", "len(ids)", "scale"), ("repeat", "lookup")),
    W("05-weight-tying", "count_unique",
      "def count_unique(storage, sizes):\n    return int(sizes.sum())\n",
      "Sums every entry: a storage shared by two entries is counted twice.",
      ("storage", "once", "shared", "tied", "twice"), ("index", "sizes")),
    W("05-weight-tying", "count_unique",
      "def count_unique(storage, sizes):\n    return len(np.unique(storage))\n",
      "Counts the distinct storages, not their parameters.",
      ("sizes", "parameters", "sum", "number of storages"), ("twice", "tied")),
    W("05-weight-tying", "count_unique",
      "def count_unique(storage, sizes):\n    return int(sizes[np.unique(storage)].sum())\n",
      "Uses the storage ids as positions into sizes instead of finding the entry with that storage.",
      ("index", "position", "entry", "storage id", "first"), ("twice", "shared")),
    W("05-weight-tying", "ties",
      'ties = "llama-3-8b"\n',
      "Believes the source that Llama ties: Llama-3-8B's head is untied.",
      ("tie_word_embeddings", "config", "untied", "does not", "llama-3.2-1b"), ()),
    W("05-weight-tying", "ties",
      'ties = "mistral-7b"\n',
      "Picks Mistral-7B, which does not tie.",
      ("tie_word_embeddings", "config", "untied", "does not", "llama-3.2-1b"), ()),
    W("05-weight-tying", "state_dict_sum",
      "config = load_config(tied_model)\nstate_dict_sum = count_params(config).total\n",
      "Gives the true count: the naive sum counts the tied table under both names.",
      ("twice", "two names", "both entries", "naive", "V × d"), ("position",)),
    W("05-weight-tying", "state_dict_sum",
      "config = load_config(tied_model)\nstate_dict_sum = 2 * count_params(config).total\n",
      "Doubles the whole model instead of adding only the second copy of the table.",
      ("only the table", "V × d", "the head's entry", "table", "lm_head"), ("position",)),
    W("05-weight-tying", "state_dict_sum",
      "config = load_config(tied_model)\nshape = model_shape(config)\n"
      "state_dict_sum = count_params(config).total - shape.vocab_size * shape.hidden_size\n",
      "Subtracts the table instead of adding its second entry.",
      ("add", "twice", "plus", "both"), ("position",)),

    # ------------------------------------------------------------------ 06 params vs compute
    W("06-params-vs-compute", "head_flops",
      "head_flops = d * V\n",
      "Counts one FLOP per weight: forgets that a multiply-add is 2 FLOPs.",
      ("2", "multiply-add", "two flops", "2·d·V"), ("one position", "T")),
    W("06-params-vs-compute", "head_flops",
      "head_flops = 2 * d * V * T\n",
      "Multiplies by T positions; the question asks for one position.",
      ("one position", "per position", "T", "single"), ("multiply-add",)),
    W("06-params-vs-compute", "lookup_flops",
      "lookup_flops = 2 * d\n",
      "Prices the lookup's copy of d numbers as arithmetic; a copy costs 0 FLOPs.",
      ("0", "zero", "copy", "no arithmetic", "no multiplication"), ("V",)),
    W("06-params-vs-compute", "lookup_flops",
      "lookup_flops = 2 * V * d\n",
      "Prices the lookup as a one-hot matmul; indexing costs 0 FLOPs.",
      ("lookup", "0", "indexing", "zero", "copy"), ("bytes",)),
    W("06-params-vs-compute", "kaplan_n",
      "kaplan_n = counts.total - counts.token_embedding\n",
      "Takes away the token table but not the untied head.",
      ("lm_head", "head", "untied"), ("position",)),
    W("06-params-vs-compute", "kaplan_n",
      "kaplan_n = 8_000_000_000 - 2 * counts.token_embedding   # an 8B model\n",
      "Starts from the name's rounded '8B' instead of the exact total the counter gives.",
      ("total", "counts.total", "exact", "8,030,261,248", "count_params"), ("head", "untied")),
    W("06-params-vs-compute", "head_share_training",
      "head_share_training = c.head / (c.input + c.blocks + c.head)\n",
      "Leaves attention over the context out of the total.",
      ("attention", "T(T+1)/2", "context", "attention_per_key"), ("once", "last")),
    W("06-params-vs-compute", "head_share_training",
      "attention = c.attention_per_key * T * T\ntotal = T * (c.input + c.blocks + c.head) + attention\n"
      "head_share_training = T * c.head / total\n",
      "Counts T² keys instead of T(T+1)/2: each token attends to t positions.",
      ("T(T+1)/2", "T + 1", "keys", "half", "triangle"), ("once", "last")),
    W("06-params-vs-compute", "head_share_training",
      "attention = c.attention_per_key * T * (T + 1) // 2\n"
      "head_share_training = T * c.head / (T * (c.input + c.blocks) + attention)\n",
      "Leaves the head out of the denominator: head over the rest, not over the whole pass.",
      ("total", "denominator", "include the head", "whole"), ("T(T+1)/2", "once")),
    W("06-params-vs-compute", "head_share_prompt",
      "attention = c.attention_per_key * T * (T + 1) // 2\ntotal = T * (c.input + c.blocks + c.head) + attention\n"
      "head_share_prompt = T * c.head / total\n",
      "Reuses the training formula: the head runs T times instead of once.",
      ("once", "last position", "only one", "one position"), ("attention", "T(T+1)/2")),
    W("06-params-vs-compute", "head_share_prompt",
      "attention = c.attention_per_key * T * (T + 1) // 2\ntotal = T * (c.input + c.blocks + c.head) + attention\n"
      "head_share_prompt = c.head / total\n",
      "Puts the head once in the numerator but keeps it T times in the denominator.",
      ("denominator", "total", "once", "T times"), ("attention",)),
    W("06-params-vs-compute", "forward_flops_per_token",
      "def forward_flops_per_token(V, d, L, d_ff, context):\n"
      "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 2 * d * V\n",
      "Leaves out attention over the context (4·context·d per block).",
      ("context", "4·context·d", "attention"), ("head", "per block")),
    W("06-params-vs-compute", "forward_flops_per_token",
      "def forward_flops_per_token(V, d, L, d_ff, context):\n"
      "    return 2 * L * (4 * d * d + d * d_ff) + 4 * L * context * d + 2 * d * V\n",
      "Counts one MLP matrix instead of two (d × d_ff and d_ff × d).",
      ("two MLP", "d_ff × d", "both", "MLP"), ("context", "head")),
    W("06-params-vs-compute", "forward_flops_per_token",
      "def forward_flops_per_token(V, d, L, d_ff, context):\n"
      "    blocks = 2 * L * (4 * d * d + 2 * d * d_ff)\n    attention = 4 * context * d\n"
      "    return blocks + attention + 2 * d * V\n",
      "Counts attention over the context once instead of once per block.",
      ("per block", "L", "every block", "each layer"), ("head", "MLP")),
    W("06-params-vs-compute", "forward_flops_per_token",
      "def forward_flops_per_token(V, d, L, d_ff, context):\n"
      "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d\n",
      "Forgets the head (2·d·V).",
      ("head", "d × V", "2·d·V", "logits"), ("context", "MLP")),
    W("06-params-vs-compute", "flop_rate",
      "flop_rate = 6 * N * D / GPU_HOURS\n",
      "Divides by hours, not seconds: a rate per GPU-hour.",
      ("3600", "seconds", "hours", "per second"), ("TFLOP", "6")),
    W("06-params-vs-compute", "flop_rate",
      "flop_rate = 6 * N * D / (GPU_HOURS * 3600) / 1e12\n",
      "Gives TFLOP/s instead of FLOP/s.",
      ("FLOP/s", "TFLOP", "1e12", "tera"), ("3600", "hours")),
    W("06-params-vs-compute", "flop_rate",
      "flop_rate = 2 * N * D / (GPU_HOURS * 3600)\n",
      "Uses the forward pass's 2·N·D; training is 6·N·D.",
      ("6", "training", "6·N·D", "backward"), ("3600", "TFLOP")),
    W("06-params-vs-compute", "active_params",
      "active_params = counts.total - moe_layers * (n_experts - k) * 2 * d * d_ff\n",
      "Counts an expert as two matrices; a SwiGLU expert has three.",
      ("three", "3", "gate", "SwiGLU"), ("skips", "attention")),
    W("06-params-vs-compute", "active_params",
      "active_params = counts.total - moe_layers * k * 3 * d * d_ff\n",
      "Takes away the k experts a token uses instead of the n_experts − k it skips.",
      ("n_experts - k", "skips", "not used", "unused", "skipped"), ("three", "attention")),
    W("06-params-vs-compute", "active_params",
      "active_params = int(counts.total * k / n_experts)\n",
      "Scales the whole model by k/n_experts, attention and embeddings included.",
      ("attention", "embedding", "only the experts", "shared", "dense"), ("three", "gate")),

    # ------------------------------------------------------------------ 07 memory
    W("07-memory", "weights_gb_4bit",
      "weights_gb_4bit = N * 0.5 / 2**30\n",
      "Divides by 2³⁰ (GiB) where the question asks for GB (10⁹ bytes).",
      ("GB", "10⁹", "1e9", "GiB", "2**30"), ("bits", "round")),
    W("07-memory", "weights_gb_4bit",
      "weights_gb_4bit = N * 4 / 1e9\n",
      "Reads 4 bits as 4 bytes per parameter.",
      ("bits", "half a byte", "0.5", "byte"), ("GiB", "round")),
    W("07-memory", "weights_gb_4bit",
      "gb = N * 0.5 / 1e9\nweights_gb_4bit = round(gb, 2)\n",
      "Rounds the answer to two decimals before giving it.",
      ("round", "exact", "decimals"), ("GiB", "bits")),
    W("07-memory", "adam_parts",
      "adam_parts = np.array([4, 4, 4, 8]) * n_params\n",
      "Stores weights and gradients in fp32 (4 bytes); mixed precision keeps them in fp16.",
      ("fp16", "2 bytes", "half"), ("m and v", "master")),
    W("07-memory", "adam_parts",
      "adam_parts = np.array([2, 2, 4, 4]) * n_params\n",
      "Counts one Adam moment instead of two (m and v).",
      ("two moments", "m and v", "8", "both moments"), ("fp16", "master")),
    W("07-memory", "adam_parts",
      "adam_parts = 16 * n_params\n",
      "Gives the total (16 bytes per parameter) instead of the four parts.",
      ("parts", "four", "array", "not the sum"), ("fp16", "moments")),
    W("07-memory", "adam_parts",
      "weights = 2 * n_params\ngrads = 2 * n_params\nmaster = 0   # the weights are already stored\n"
      "moments = 8 * n_params\nadam_parts = np.array([weights, grads, master, moments])\n",
      "Leaves out the fp32 master copy of the weights.",
      ("master", "fp32 copy", "copy"), ("moments", "fp16")),
    W("07-memory", "kv_bytes_per_token",
      "kv_bytes_per_token = int(L * h_kv * head_dim * BYTES_PER_PARAM[cache_precision])\n",
      "Forgets the factor 2: the cache holds a key and a value.",
      ("K and V", "two", "keys and values", "2 ·", "key and a value"), ("h_kv", "bits")),
    W("07-memory", "kv_bytes_per_token",
      "kv_bytes_per_token = int(2 * L * h * head_dim * BYTES_PER_PARAM[cache_precision])\n",
      "Uses the query heads h instead of the key/value heads h_kv.",
      ("h_kv", "key/value heads", "grouped", "kv heads"), ("bits", "two")),
    W("07-memory", "kv_bytes_per_token",
      "kv_bytes_per_token = 2 * L * h_kv * head_dim * 16   # bf16\n",
      "Multiplies by the 16 bits of bf16 instead of its 2 bytes.",
      ("bits", "bytes", "2 bytes"), ("h_kv", "K and V")),
    W("07-memory", "gqa_saving_gib",
      "b = BYTES_PER_PARAM[cache_precision]\nfull = 2 * L * h * head_dim * b * context\n"
      "grouped = 2 * L * h_kv * head_dim * b * context\ngqa_saving_gib = (full - grouped) / 1e9\n",
      "Divides by 10⁹ (GB) instead of 2³⁰ (GiB).",
      ("GiB", "2**30", "2³⁰", "1024"), ("ratio", "context")),
    W("07-memory", "gqa_saving_gib",
      "b = BYTES_PER_PARAM[cache_precision]\ngrouped = 2 * L * h_kv * head_dim * b * context\n"
      "gqa_saving_gib = grouped / 2**30\n",
      "Gives the grouped cache's size, not what grouping saves.",
      ("saving", "difference", "full", "one key/value head per query head", "subtract"), ("GB", "ratio")),
    W("07-memory", "gqa_saving_gib",
      "b = BYTES_PER_PARAM[cache_precision]\nfull = 2 * L * h * head_dim * b * context\n"
      "grouped = 2 * L * h_kv * head_dim * b * context\ngqa_saving_gib = full / grouped\n",
      "Gives the ratio of the two caches instead of their difference in GiB.",
      ("difference", "GiB", "subtract", "ratio"), ("context", "GB")),
    W("07-memory", "gqa_saving_gib",
      "b = BYTES_PER_PARAM[cache_precision]\n"
      "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * b / 2**30\n",
      "Computes the saving for one token: forgets the context of gqa_context tokens.",
      ("context", "8192", "tokens", "sequence"), ("GB", "ratio")),
    W("07-memory", "kv_cache_gb",
      "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
      "    return 2 * L * h_kv * head_dim * bytes_per_number * context / 1e9\n",
      "Ignores the batch argument.",
      ("batch", "sequences"), ("GiB", "floor")),
    W("07-memory", "kv_cache_gb",
      "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
      "    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / 2**30\n",
      "Returns GiB instead of GB.",
      ("GB", "1e9", "10⁹", "GiB"), ("batch", "floor")),
    W("07-memory", "kv_cache_gb",
      "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
      "    n_bytes = 2 * L * h_kv * head_dim * bytes_per_number * context * batch\n    return n_bytes // 1e9\n",
      "Floor-divides by 10⁹: drops the fraction of a GB.",
      ("//", "floor", "integer division", "fraction", "whole"), ("batch", "GiB")),
    W("07-memory", "max_batch",
      "max_batch = int(memory // per_sequence)\n",
      "Forgets that the weights take part of the GPU.",
      ("weights", "subtract", "minus"), ("GiB", "round")),
    W("07-memory", "max_batch",
      "max_batch = round((memory - weights) / per_sequence)\n",
      "Rounds to the nearest whole number instead of down: the last sequence does not fit.",
      ("round down", "floor", "whole", "fit", "//"), ("weights", "GiB")),
    W("07-memory", "max_batch",
      "memory = gpu_gb * 2**30\nmax_batch = int((memory - weights) // per_sequence)\n",
      "Takes the GPU's 80 GB as 80 GiB.",
      ("GB", "10⁹", "1e9", "GiB"), ("weights", "round")),

    # ------------------------------------------------------------------ 08 vocabulary size
    W("08-vocabulary-size", "embedding_params",
      "embedding_params = 2 * V_big * d   # input and output\n",
      "Counts the tied head as a second matrix.",
      ("tied", "once", "twice", "shared"), ("V_small",)),
    W("08-vocabulary-size", "embedding_params",
      "embedding_params = V_small * d\n",
      "Uses the small vocabulary instead of V_big.",
      ("V_big", "256", "big"), ("tied", "twice")),
    W("08-vocabulary-size", "embedding_share",
      "embedding_share = table / rest\n",
      "Divides by the rest instead of the whole model (table + rest).",
      ("total", "table + rest", "whole", "fraction", "ratio"), ("blocks", "FLOPs")),
    W("08-vocabulary-size", "embedding_share",
      "embedding_share = table / (table + blocks)\n",
      "Reads the blocks' FLOPs per token as their parameter count.",
      ("blocks", "FLOPs", "rest", "parameters"), ("tied", "round")),
    W("08-vocabulary-size", "extra_head_flops",
      "extra_head_flops = d * (V_big - V_small)\n",
      "Forgets the 2 FLOPs per weight.",
      ("2", "multiply-add", "two flops", "2·d"), ("difference", "V_small")),
    W("08-vocabulary-size", "extra_head_flops",
      "head_big = 2 * d * V_big\nextra_head_flops = head_big\n",
      "Gives the big head's whole cost, not how much more it costs than the small one.",
      ("more", "difference", "V_small", "subtract", "minus"), ("multiply-add",)),
    W("08-vocabulary-size", "break_even_r",
      "break_even_r = (blocks + 2 * d * V_big) / (blocks + 2 * d * V_small)\n",
      "Inverts the ratio: the break-even r is the small vocabulary's cost over the big one's.",
      ("inverted", "upside", "reciprocal", "the other way", "swap", "below 1"), ("blocks",)),
    W("08-vocabulary-size", "break_even_r",
      "break_even_r = V_small / V_big\n",
      "Leaves out the blocks: compares the heads only.",
      ("blocks", "the rest", "per token"), ("inverted",)),
    W("08-vocabulary-size", "break_even_r",
      "break_even_r = 2 * d * V_small / (blocks + 2 * d * V_big)\n",
      "Forgets the blocks in the numerator: the small vocabulary's cost per token is blocks + head too.",
      ("blocks", "numerator", "both"), ("inverted",)),
    W("08-vocabulary-size", "tokens_per_word",
      "def tokens_per_word(counts, n_tokens):\n    return float(np.mean(n_tokens))\n",
      "Averages over distinct words, not weighted by how often each occurs.",
      ("weight", "counts", "running", "how often"), ("divide",)),
    W("08-vocabulary-size", "tokens_per_word",
      "def tokens_per_word(counts, n_tokens):\n    c = np.asarray(counts)\n    n = np.asarray(n_tokens)\n"
      "    return float((c * n).sum() / len(c))\n",
      "Divides the total tokens by the number of distinct words instead of the total count.",
      ("total count", "counts.sum", "sum of counts", "divide", "running words"), ("weight",)),
    W("08-vocabulary-size", "tokens_per_word",
      "def tokens_per_word(counts, n_tokens):\n    total = 0\n    words = 0\n"
      "    for c, n in zip(counts, n_tokens):\n        total += c * n\n        words += n\n    return total / words\n",
      "Loop writer who adds up n_tokens as the number of words instead of the counts.",
      ("counts", "number of words", "divide", "denominator"), ("mean",)),
    W("08-vocabulary-size", "hindi_single_token_share",
      "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top_hindi)\n",
      "Gives the count of single-token words, not their fraction.",
      ("fraction", "divide", "share", "n_top"), ("complement", "500")),
    W("08-vocabulary-size", "hindi_single_token_share",
      "all_hindi = list(hindi)\n"
      "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in all_hindi) / len(all_hindi)\n",
      "Uses all n_train Hindi words instead of the n_top most frequent ones.",
      ("n_top", "top", "most frequent", "top_hindi"), ("fraction", "complement")),
    W("08-vocabulary-size", "hindi_single_token_share",
      "hindi_single_token_share = sum(bpe.count_tokens(w) > 1 for w in top_hindi) / n_top\n",
      "Counts the words split into several tokens: the complement.",
      ("single token", "== 1", "complement", "one token", "own row"), ("n_top", "divide")),
    W("08-vocabulary-size", "hindi_r",
      "def per_word(tokenizer):\n    total = sum(len(tokenizer.encode(' ' + w)) * n for w, n in hindi.items())\n"
      "    return total / sum(hindi.values())\n\nhindi_r = per_word(gpt2) / per_word(cl100k)\n",
      "Inverts the ratio: GPT-2's tokens per word over cl100k's.",
      ("inverted", "reciprocal", "cl100k", "divided by GPT-2", "the other way"), ("space", "weight")),
    W("08-vocabulary-size", "hindi_r",
      "def per_word(tokenizer):\n    return np.mean([len(tokenizer.encode(' ' + w)) for w in hindi])\n\n"
      "hindi_r = per_word(cl100k) / per_word(gpt2)\n",
      "Averages over distinct words, not weighted by their counts in running text.",
      ("weight", "count", "running", "how often"), ("space", "inverted")),
    W("08-vocabulary-size", "hindi_r",
      "def per_word(tokenizer):\n    total = sum(len(tokenizer.encode(w)) * n for w, n in hindi.items())\n"
      "    return total / sum(hindi.values())\n\nhindi_r = per_word(cl100k) / per_word(gpt2)\n",
      "Encodes each word without the leading space it has in a sentence.",
      ("space", '" " +', "after a space"), ("weight", "inverted")),
    W("08-vocabulary-size", "hindi_r",
      "hindi_r = cl100k.n_vocab / gpt2.n_vocab\n",
      "Divides the vocabulary sizes instead of the tokens per word.",
      ("tokens per word", "encode", "per word"), ("space", "inverted")),

    # ------------------------------------------------------------------ 09 what rows learn
    W("09-what-rows-learn", "n_params",
      "n_params = V * d + (2 * d) * d + d\n",
      "Leaves out the output matrix U: the model is untied, U is a V × d matrix of its own.",
      ("untied", "U", "output matrix", "head"), ("bias", "2d")),
    W("09-what-rows-learn", "n_params",
      "n_params = 2 * V * d + d * d + d\n",
      "Gives W d × d inputs: two context rows side by side make 2d inputs.",
      ("2d", "two context rows", "2 * d", "side by side", "context"), ("bias", "untied")),
    W("09-what-rows-learn", "n_params",
      "E_size = V * d\nW_size = 2 * d * d\nU_size = V * d\nn_params = E_size + W_size + U_size\n",
      "Counts E, W and U in separate variables but forgets the bias b (d numbers).",
      ("bias", "b"), ("untied", "2d")),
    W("09-what-rows-learn", "n_params",
      "n_params = V * d + (2 * d) * d + d + V * d + V   # U and its bias\n",
      "Gives the output matrix a bias of V numbers; U has none.",
      ("no bias", "bias", "U has no"), ("2d", "untied")),
    W("09-what-rows-learn", "embedding_grad",
      "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
      "    dE[contexts] += dx0\n    return dE\n",
      "Uses dE[contexts] += dx0: a token that appears twice gets one contribution.",
      ("np.add.at", "repeat", "accumulate", "twice", "add.at"), ("slot", "mean")),
    W("09-what-rows-learn", "embedding_grad",
      "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
      "    np.add.at(dE, contexts[:, 0], dx0[:, 0])\n    return dE\n",
      "Adds the gradient of the first context slot only.",
      ("slot", "every slot", "both context", "k", "second"), ("repeat", "mean")),
    W("09-what-rows-learn", "embedding_grad",
      "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
      "    np.add.at(dE, contexts, dx0)\n    return dE / len(contexts)\n",
      "Divides by the batch size: dx0 already holds the gradient, it is to be added, not averaged.",
      ("mean", "divide", "sum", "average", "batch size"), ("slot", "repeat")),
    W("09-what-rows-learn", "embedding_grad",
      "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
      "    np.add.at(dE, contexts[:, 0], dx0.sum(axis=1))\n    return dE\n",
      "Sums the slots' gradients and gives them all to the first slot's token.",
      ("slot", "contexts[b, k]", "own row", "each slot", "axis"), ("mean", "repeat")),
    W("09-what-rows-learn", "gap",
      "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
      "within = np.mean([C[np.ix_(g, g)].mean() for g in (animals, vehicles)])\n"
      "gap = within - C[np.ix_(animals, vehicles)].mean()\n",
      "Takes the within-group mean over whole blocks, so each word's cosine with itself (1) is included.",
      ("different", "itself", "diagonal", "i < j", "56", "pairs"), ("norm", "difference")),
    W("09-what-rows-learn", "gap",
      "G = E @ E.T\nwithin = [G[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
      "gap = np.mean(within) - G[np.ix_(animals, vehicles)].mean()\n",
      "Uses dot products of the rows, not cosines.",
      ("normalize", "norm", "cosine", "length"), ("itself", "difference")),
    W("09-what-rows-learn", "gap",
      "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
      "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
      "gap = np.mean(within) / C[np.ix_(animals, vehicles)].mean()\n",
      "Divides the two means instead of subtracting them.",
      ("minus", "difference", "subtract", "ratio"), ("norm", "itself")),
    W("09-what-rows-learn", "gap",
      "unit = E / np.linalg.norm(E, axis=0, keepdims=True)\nC = unit @ unit.T\n"
      "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
      "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
      "Normalises the columns (axis=0) instead of the rows.",
      ("axis", "row", "axis=1", "each row"), ("difference", "itself")),
    W("09-what-rows-learn", "cos_cat",
      "others = animals[1:] + vehicles\nrows = E[others]\n"
      "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))\n",
      "Leaves cat itself out: 15 values instead of 16 (the first is cat with itself).",
      ("16", "itself", "first entry", "cat with itself", "shape"), ("norm", "axis")),
    W("09-what-rows-learn", "cos_cat",
      "cos_cat = E[animals + vehicles] @ E[cat]\n",
      "Gives dot products, not cosines.",
      ("norm", "cosine", "length", "divide"), ("itself", "16")),
    W("09-what-rows-learn", "cos_cat",
      "rows = E[animals + vehicles]\ncos_cat = rows @ E[cat] / (np.linalg.norm(rows) * np.linalg.norm(E[cat]))\n",
      "Divides by the norm of the whole block of rows (no axis) instead of each row's norm.",
      ("axis", "each row", "axis=1", "row's norm"), ("itself", "dot")),
    W("09-what-rows-learn", "rotation_changes_cosines",
      'rotation_changes_cosines = "yes"\n',
      "Thinks a rotation changes the cosines; an orthogonal matrix keeps dot products and lengths.",
      ("orthogonal", "preserve", "dot product", "angle", "length", "Q.T @ Q", "unchanged"), ()),

    # ------------------------------------------------------------------ 10 glitch tokens
    W("10-glitch-tokens", "padding_rows",
      "padding_rows = V % pad_multiple\n",
      "Gives the remainder of V over 64 (rows past the last full multiple), not the rows to the next multiple.",
      ("round up", "next multiple", "64 -", "remainder", "ceil"), ("subtract", "negative")),
    W("10-glitch-tokens", "padding_rows",
      "padded = -(-V // pad_multiple) * pad_multiple\npadding_rows = padded\n",
      "Gives the padded size, not the rows past V.",
      ("minus V", "subtract", "no token", "- V", "difference"), ("round up", "remainder")),
    W("10-glitch-tokens", "padding_rows",
      "padding_rows = V // pad_multiple * pad_multiple - V\n",
      "Rounds down instead of up: a negative number.",
      ("up", "ceil", "next multiple", "negative", "round up"), ("remainder",)),
    W("10-glitch-tokens", "invalid_bytes",
      "invalid_bytes = 128   # every byte from 0x80 is not ASCII\n",
      "Counts every non-ASCII byte as invalid; continuation and lead bytes do occur in UTF-8.",
      ("continuation", "lead", "0xC0", "0xF5", "multi-byte"), ("0x110000", "first byte")),
    W("10-glitch-tokens", "invalid_bytes",
      "invalid_bytes = 0xFF - 0xF5 + 1   # RFC 3629: F5..FF never appear\n",
      "Counts only 0xF5–0xFF, forgetting 0xC0 and 0xC1 (overlong leads).",
      ("0xC0", "0xC1", "overlong", "C0", "C1"), ("continuation", "0x110000")),
    W("10-glitch-tokens", "invalid_bytes",
      "seen = set()\nfor c in range(0x110000):\n    if not 0xD800 <= c <= 0xDFFF:\n"
      "        seen.add(chr(c).encode('utf-8')[0])\ninvalid_bytes = 256 - len(seen)\n",
      "Records only the first byte of each character, missing the continuation bytes.",
      ("every byte", "continuation", "all bytes", "first byte", "[0]"), ("0x110000", "overlong")),
    W("10-glitch-tokens", "invalid_bytes",
      "seen = set()\nfor c in range(0x10000):\n    if not 0xD800 <= c <= 0xDFFF:\n"
      "        seen.update(chr(c).encode('utf-8'))\ninvalid_bytes = 256 - len(seen)\n",
      "Stops at 0xFFFF: misses the four-byte characters and their lead bytes 0xF0–0xF4.",
      ("0x110000", "four bytes", "supplementary", "F0", "4-byte", "range"), ("first byte", "overlong")),
    W("10-glitch-tokens", "unused_score",
      "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0)\n    return M @ mean\n",
      "Returns dot products with the mean, not cosines.",
      ("norm", "cosine", "divide", "length"), ("axis", "distance")),
    W("10-glitch-tokens", "unused_score",
      "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=1)\n"
      "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n",
      "Averages along the wrong axis (axis=1, over each row's entries).",
      ("axis", "axis=0", "rows", "mean of the rows"), ("cosine", "distance")),
    W("10-glitch-tokens", "unused_score",
      "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0)\n"
      "    return M @ mean / (np.linalg.norm(M) * np.linalg.norm(mean))\n",
      "Divides by the norm of the whole matrix instead of each row's norm.",
      ("each row", "axis=1", "row's norm", "axis"), ("distance", "mean of the rows")),
    W("10-glitch-tokens", "unused_score",
      "def unused_score(M, reference_ids):\n    ref = M[reference_ids].mean(axis=0)\n"
      "    return np.linalg.norm(M - ref, axis=1)\n",
      "Scores by Euclidean distance to the mean instead of cosine similarity.",
      ("cosine", "distance", "angle"), ("axis=0",)),
    W("10-glitch-tokens", "never_cos",
      "rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
      "never_cos = (unit @ unit.T).mean()\n",
      "Averages the whole cosine matrix, the diagonal (each row with itself) and both triangles included.",
      ("different", "diagonal", "itself", "pairs", "triu"), ("norm", "reserved")),
    W("10-glitch-tokens", "never_cos",
      "rows = run.model.E[never]\nG = rows @ rows.T\nnever_cos = G[np.triu_indices(len(never), k=1)].mean()\n",
      "Averages dot products, not cosines.",
      ("norm", "cosine", "normalize", "length"), ("diagonal", "reserved")),
    W("10-glitch-tokens", "never_cos",
      "ids_ = list(corpus.groups['reserved'])\nrows = run.model.E[ids_]\n"
      "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
      "never_cos = (unit @ unit.T)[np.triu_indices(len(ids_), k=1)].mean()\n",
      "Uses only the reserved rows and forgets the glitch word (the group `never`).",
      ("glitch", "never", "len(never)"), ("diagonal", "norm")),
    W("10-glitch-tokens", "top7",
      "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
      "order = [i for i in np.argsort(scores) if i not in reference]\ntop7 = np.array(order[:7])\n",
      "Sorts ascending: gives the seven lowest scores.",
      ("highest", "descending", "sort", "lowest", "reverse"), ("reference", "scores")),
    W("10-glitch-tokens", "top7",
      "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
      "keep = np.array([i for i in range(len(scores)) if i not in reference])\n"
      "top7 = np.sort(scores[keep])[::-1][:7]\n",
      "Returns the seven highest scores instead of the ids of their rows.",
      ("ids", "argsort", "index", "scores"), ("reference", "lowest")),
    W("10-glitch-tokens", "top7",
      "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
      "top7 = np.argsort(-scores, kind='stable')[:7]\n",
      "Forgets to leave out the four reference rows.",
      ("reference", "leave out", "exclude", "remove"), ("lowest", "scores")),
    W("10-glitch-tokens", "top7",
      "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
      "best = np.argsort(-scores, kind='stable')[:7]\ntop7 = np.array([i for i in best if i not in reference])\n",
      "Takes the top 7 first and removes the references after: fewer than 7 ids left.",
      ("7", "seven", "after", "before", "shape"), ("lowest", "scores")),
    W("10-glitch-tokens", "partial_tokens",
      "partial_tokens = sum(1 for b in ordinary if len(b) == 1 and b[0] >= 0x80)\n",
      "Counts only the single bytes 0x80–0xFF, not the merged tokens cut inside a character.",
      ("merged", "multi-byte", "partway", "decode", "longer"), ("13", "raises")),
    W("10-glitch-tokens", "partial_tokens",
      "partial_tokens = 0\nfor b in ordinary:\n    try:\n        b.decode('utf-8')\n    except UnicodeDecodeError:\n"
      "        partial_tokens += 1\npartial_tokens -= 13   # the never-used bytes are not partial\n",
      "Takes away the 13 bytes valid UTF-8 never uses, which the question says count.",
      ("13", "count", "include", "they count"), ("merged", "single bytes")),
    W("10-glitch-tokens", "partial_tokens",
      "partial_tokens = 0\nfor b in ordinary:\n    try:\n        b.decode('utf-8')\n        partial_tokens += 1\n"
      "    except UnicodeDecodeError:\n        pass\n",
      "Counts the tokens that do decode: the complement.",
      ("raises", "UnicodeDecodeError", "do not decode", "complement", "fail"), ("13", "merged")),

    # ------------------------------------------------------------------ 11 size a model
    W("11-size-a-model", "design",
      "design = llama_config(64000, 1024, 8, 8, 2, 4096, True)\n",
      "Picks 8 heads for d = 1024: each head is 128 wide, not head_dim = 64.",
      ("head_dim", "64", "heads", "d / h", "num_heads"), ("vocabulary", "parameters")),
    W("11-size-a-model", "design",
      "design = llama_config(30000, 1024, 8, 16, 4, 4096, True)\n",
      "Takes a 30,000-token vocabulary, below min_vocab_size.",
      ("vocabulary", "min_vocab_size", "32,000", "32000", "V"), ("head_dim", "memory")),
    W("11-size-a-model", "design",
      "design = llama_config(128256, 2048, 16, 32, 8, 8192, True)   # Llama 3.2 1B as it is\n",
      "Takes Llama 3.2 1B unshrunk: over every budget.",
      ("parameters", "over", "budget", "shrink", "memory", "compute"), ("head_dim", "vocabulary")),
    W("11-size-a-model", "design",
      "design = llama_config(64000, 1024, 16, 16, 16, 4096, True)   # one kv head per query head\n",
      "Gives every query head its own key/value head: the KV cache breaks the memory budget.",
      ("memory", "KV cache", "h_kv", "kv heads", "grouped", "serving"), ("head_dim", "vocabulary")),
    W("11-size-a-model", "design_params",
      "design_params = count_params(design).total - design['vocab_size'] * design['hidden_size']\n",
      "Leaves the token table out (Kaplan's non-embedding N); the question counts every parameter.",
      ("every parameter", "total", "token table", "embedding"), ("tied", "round")),
    W("11-size-a-model", "design_params",
      "design_params = count_params(design).total + design['vocab_size'] * design['hidden_size']\n",
      "Counts the tied head as a second table.",
      ("tied", "once", "twice"), ("embedding", "round")),
    W("11-size-a-model", "design_serving_gb",
      "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context, "
      "batch=BUDGET.batch, kv=BUDGET.kv)['total']\n",
      "Gives bytes: forgets to divide by GB.",
      ("GB", "bytes", "divide", "10⁹"), ("GiB", "round", "cache")),
    W("11-size-a-model", "design_serving_gb",
      "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context, "
      "batch=BUDGET.batch, kv=BUDGET.kv)['total'] / 2**30\n",
      "Divides by 2³⁰ (GiB) instead of GB.",
      ("GB", "10⁹", "GiB", "2**30", "1e9"), ("round", "cache")),
    W("11-size-a-model", "design_serving_gb",
      "mem = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context, batch=BUDGET.batch, kv=BUDGET.kv)\n"
      "design_serving_gb = mem['weights'] / GB\n",
      "Counts the weights only, not the KV cache.",
      ("KV cache", "cache", "total", "kv"), ("GiB", "round")),
    W("11-size-a-model", "design_serving_gb",
      "mem = serving_memory(design, weights='bf16', context=BUDGET.context, batch=BUDGET.batch, kv=BUDGET.kv)\n"
      "design_serving_gb = mem['total'] / GB\n",
      "Serves the weights in bf16 (the function's default) instead of the job's int4.",
      ("int4", "weights", "precision", "BUDGET.weights"), ("GiB", "cache")),
    W("11-size-a-model", "design_train_flops",
      "design_train_flops = training_flops(design, T_train).total\n",
      "Gives one sequence's FLOPs, not the whole run's.",
      ("sequences", "D // T_train", "train_tokens", "whole run", "times"), ("6", "tokens")),
    W("11-size-a-model", "design_train_flops",
      "design_train_flops = training_flops(design, T_train).total * D\n",
      "Multiplies one sequence's FLOPs by the tokens instead of the number of sequences.",
      ("sequences", "per sequence", "// T_train", "D // T_train"), ("6",)),
    W("11-size-a-model", "design_train_flops",
      "design_train_flops = 6 * count_params(design).total * D\n",
      "Uses 6·N·D instead of the course's training_flops (attention and the head's true cost differ).",
      ("training_flops", "attention", "counted with", "6·N·D", "6ND"), ("per sequence",)),
    W("11-size-a-model", "tightest_budget",
      "used = {'parameters': design_params / BUDGET.max_params,\n"
      "        'memory': design_serving_gb / BUDGET.max_serving_gb,\n"
      "        'compute': design_train_flops / BUDGET.max_train_flops}\n"
      "tightest_budget = min(used, key=used.get)\n",
      "Picks the budget used least (min) instead of most.",
      ("largest", "max", "most", "highest"), ("fraction", "raw")),
    W("11-size-a-model", "other_tying_params",
      "other_tying_params = design_params\n",
      "Gives the design's own count: the tying is not flipped.",
      ("flip", "untied", "other", "V × d"), ("twice", "subtract")),
    W("11-size-a-model", "other_tying_params",
      "other_tying_params = design_params - design['vocab_size'] * design['hidden_size']\n",
      "Takes V × d away although the design is tied: untying adds a head matrix.",
      ("tied", "adds", "untied", "add", "plus"), ("flip", "same")),
    W("11-size-a-model", "defence",
      'defence = f"""\nWhich budget binds, and by how much:\nThe {tightest_budget} budget.\n\n'
      'Why this width and depth:\nIt fits.\n\nWhat the tying choice costs:\nNothing.\n"""\n',
      "Writes a few words under each heading with no figures from the design.",
      ("figure", "words", "number", "your own"), ()),

    # ------------------------------------------------------------------ 12 change a vocabulary
    W("12-change-a-vocabulary", "added_params",
      "added_params = 2 * n_new * d   # new rows in the table and the head\n",
      "Counts the new rows twice, as if the head were untied.",
      ("tied", "once", "twice"), ("d", "total")),
    W("12-change-a-vocabulary", "added_params",
      "added_params = n_new\n",
      "Gives the number of new rows, not their parameters.",
      ("d", "hidden_size", "width", "per row", "× d", "parameters"), ("tied",)),
    W("12-change-a-vocabulary", "added_params",
      "from embedlab.calculator import calculate\n"
      "rows = max(V, n_tok + n_new)\nadded_params = calculate(vocab_model, vocab_size=rows).total\n",
      "Gives the resized model's total, not what it gains.",
      ("difference", "before", "subtract", "gain", "minus"), ("tied", "d")),
    W("12-change-a-vocabulary", "added_params",
      "rows = padded_size(n_tok + n_new, 64)\nadded_params = (rows - V) * d\n",
      "Pads the resized table to a multiple of 64, which question 1 does not ask.",
      ("padding", "pad", "multiple", "rows"), ("tied", "total")),
    W("12-change-a-vocabulary", "padding_rows",
      "rows = max(V, n_tok + n_new)\npadding_rows = padded_size(rows, pad_multiple) - V\n",
      "Subtracts the old V instead of the T + n_new rows the tokens own.",
      ("new tokens", "T + n_new", "n_new", "own"), ("round up", "subtract")),
    W("12-change-a-vocabulary", "padding_rows",
      "rows = max(V, n_tok + n_new)\npadding_rows = padded_size(rows, pad_multiple)\n",
      "Gives the padded table's size, not its rows past the tokens.",
      ("subtract", "minus", "past", "no token"), ("round up", "new tokens")),
    W("12-change-a-vocabulary", "padding_rows",
      "rows = max(V, n_tok + n_new)\npadding_rows = rows % pad_multiple\n",
      "Takes the remainder modulo pad_multiple instead of the rows up to the next multiple.",
      ("round up", "next multiple", "remainder", "padded_size"), ("subtract", "new tokens")),
    W("12-change-a-vocabulary", "p_new_token",
      "grown = resize_tinylm(run.model, n_new, 'mean')\np_new_token = float(grown.logits(context)[0, corpus.vocab_size])\n",
      "Gives the new token's logit, not its probability (no softmax).",
      ("softmax", "probability", "exp", "logit"), ("id", "bound")),
    W("12-change-a-vocabulary", "p_new_token",
      "grown = resize_tinylm(run.model, n_new, 'mean')\nprobs = np.exp(log_softmax(grown.logits(context)))[0]\n"
      "p_new_token = float(probs[corpus.vocab_size - 1])\n",
      "Off by one: reads the last old token's probability, not the first new one's.",
      ("id", "corpus.vocab_size", "first new", "off by one", "last old"), ("softmax", "zeros")),
    W("12-change-a-vocabulary", "p_new_token",
      "grown = resize_tinylm(run.model, n_new, 'zeros')\nprobs = np.exp(log_softmax(grown.logits(context)))[0]\n"
      "p_new_token = float(probs[corpus.vocab_size])\n",
      "Initialises the new rows at zero instead of at the mean.",
      ("mean", "init", "zeros"), ("softmax", "off by one")),
    W("12-change-a-vocabulary", "p_new_token",
      "p_new_token = 1 / (corpus.vocab_size + n_new)\n",
      "Gives the bound 1/(V+k) from the lesson instead of computing the model's probability.",
      ("bound", "compute", "model", "logits"), ("softmax", "zeros")),
    W("12-change-a-vocabulary", "kl_mean",
      "grown = resize_tinylm(run.model, n_new, 'mean')\n"
      "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).sum())\n",
      "Sums the KL over the positions instead of averaging.",
      ("mean", "sum", "average", "positions"), ("bound", "zeros")),
    W("12-change-a-vocabulary", "kl_mean",
      "kl_mean = float(np.log(1 + n_new / corpus.vocab_size))\n",
      "Gives the bound log(1 + k/V) instead of the measured KL.",
      ("bound", "compute", "measure", "logits"), ("sum", "zeros")),
    W("12-change-a-vocabulary", "kl_mean",
      "grown = resize_tinylm(run.model, n_new, 'zeros')\n"
      "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).mean())\n",
      "Initialises the new rows at zero instead of the mean.",
      ("mean", "init", "zeros"), ("sum", "bound")),
    W("12-change-a-vocabulary", "trimmed_rows",
      "trimmed_rows = len(used)\n",
      "Keeps only the words' tokens: forgets the 256 byte tokens and the end-of-text token.",
      ("256", "byte", "end-of-text", "eot"), ("overlap", "twice")),
    W("12-change-a-vocabulary", "trimmed_rows",
      "trimmed_rows = len(used) + 256 + 1\n",
      "Adds the counts: byte tokens that are also in `used` are counted twice (no union).",
      ("overlap", "union", "twice", "set", "already"), ("end-of-text",)),
    W("12-change-a-vocabulary", "trimmed_rows",
      "trimmed_rows = len(used | set(range(256)))\n",
      "Forgets the end-of-text token.",
      ("end-of-text", "eot", "eot_token"), ("256", "overlap")),
    W("12-change-a-vocabulary", "saved_params",
      "saved_params = (tok.n_vocab - n_keep) * d_trim * 2   # table and head\n",
      "Counts a head matrix although the head is tied.",
      ("tied", "once", "trim_tied"), ("removed", "d_trim")),
    W("12-change-a-vocabulary", "saved_params",
      "saved_params = n_keep * d_trim\n",
      "Gives the kept table's size, not what the trimming removes.",
      ("removed", "n_vocab - n_keep", "difference", "kept"), ("tied",)),
    W("12-change-a-vocabulary", "saved_params",
      "saved_params = tok.n_vocab - n_keep\n",
      "Gives the removed rows, not their parameters (× d_trim).",
      ("d_trim", "width", "× d", "parameters"), ("tied", "kept")),
    W("12-change-a-vocabulary", "coverage",
      "kept = used | set(range(256)) | {tok.eot_token}\n"
      "covered = np.array([set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words])\n"
      "coverage = float(covered.mean())\n",
      "Counts each word once, not weighted by its frequency.",
      ("frequency", "weight", "occurrences"), ("space", "every token")),
    W("12-change-a-vocabulary", "coverage",
      "kept = used | set(range(256)) | {tok.eot_token}\n"
      "covered = np.array([bool(set(tok.encode_ordinary(' ' + w)) & kept) for w in next_words])\n"
      "weights = np.array([frequencies[w] for w in next_words])\ncoverage = float(weights @ covered / weights.sum())\n",
      "Counts a word as covered when any of its tokens is kept, not all of them.",
      ("every token", "all", "subset", "any"), ("frequency", "space")),
    W("12-change-a-vocabulary", "coverage",
      "kept = used | set(range(256)) | {tok.eot_token}\n"
      "covered = np.array([set(tok.encode_ordinary(w)) <= kept for w in next_words])\n"
      "weights = np.array([frequencies[w] for w in next_words])\ncoverage = float(weights @ covered / weights.sum())\n",
      "Encodes the words without the leading space.",
      ("space", "after a space", "' ' +"), ("frequency", "every token")),
]

# Entries for the two function questions check_wrong.py has no inputs for (its `_inputs` raises
# KeyError on `bpe_merges` and `tinylm_grads`): kept apart so that check_wrong still runs
# ENTRIES; each was proven wrong by hand against the solution's own function (see the docstring).
UNJUDGED = [
    W("08-vocabulary-size", "bpe_merges",
      "def bpe_merges(counts, n_merges):\n    words = [list(w.encode('utf-8')) for w in counts]\n"
      "    freqs = list(counts.values())\n    merges = []\n    for k in range(n_merges):\n        pairs = {}\n"
      "        for tokens, n in zip(words, freqs):\n            for pair in zip(tokens, tokens[1:]):\n"
      "                pairs[pair] = pairs.get(pair, 0) + n\n        if not pairs:\n            break\n"
      "        best = max(pairs, key=lambda p: (pairs[p], p))\n        merges.append(best)\n"
      "        for i, tokens in enumerate(words):\n            out, j = [], 0\n            while j < len(tokens):\n"
      "                if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:\n"
      "                    out.append(256 + k)\n                    j += 2\n                else:\n"
      "                    out.append(tokens[j])\n                    j += 1\n            words[i] = out\n    return merges\n",
      "Breaks ties towards the largest pair of ids (max over (count, pair)) instead of the smallest.",
      ("tie", "smallest", "ties"), ("weighted", "256 + k")),
    W("08-vocabulary-size", "bpe_merges",
      "def bpe_merges(counts, n_merges):\n    words = [list(w.encode('utf-8')) for w in counts]\n    merges = []\n"
      "    for k in range(n_merges):\n        pairs = {}\n        for tokens in words:\n"
      "            for pair in zip(tokens, tokens[1:]):\n                pairs[pair] = pairs.get(pair, 0) + 1\n"
      "        if not pairs:\n            break\n        best = min(pairs, key=lambda p: (-pairs[p], p))\n"
      "        merges.append(best)\n        for i, tokens in enumerate(words):\n            out, j = [], 0\n"
      "            while j < len(tokens):\n                if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:\n"
      "                    out.append(256 + k)\n                    j += 2\n                else:\n"
      "                    out.append(tokens[j])\n                    j += 1\n            words[i] = out\n    return merges\n",
      "Counts each pair once per distinct word, not weighted by how often the word occurs.",
      ("weight", "count", "frequency", "how often"), ("tie", "smallest")),
    W("08-vocabulary-size", "bpe_merges",
      "def bpe_merges(counts, n_merges):\n    words = [list(w.encode('utf-8')) for w in counts]\n"
      "    freqs = list(counts.values())\n    merges = []\n    for k in range(n_merges):\n        pairs = {}\n"
      "        for tokens, n in zip(words, freqs):\n            for pair in zip(tokens, tokens[1:]):\n"
      "                pairs[pair] = pairs.get(pair, 0) + n\n        if not pairs:\n            break\n"
      "        best = min(pairs, key=lambda p: (-pairs[p], p))\n        merges.append(best)\n"
      "        for i, tokens in enumerate(words):\n            out, j = [], 0\n            while j < len(tokens):\n"
      "                if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:\n"
      "                    out.append(255 + k)\n                    j += 2\n                else:\n"
      "                    out.append(tokens[j])\n                    j += 1\n            words[i] = out\n    return merges\n",
      "Off by one in the new token's id: merge k makes 255 + k instead of 256 + k.",
      ("256 + k", "256", "id", "off by one"), ("tie", "weighted")),
    W("09-what-rows-learn", "tinylm_grads",
      "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
      "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
      "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n    p /= p.sum(axis=1, keepdims=True)\n"
      "    dlogits = p.copy()\n    dlogits[np.arange(B), targets] -= 1.0\n    dU = dlogits.T @ x\n"
      "    da = (dlogits @ U) * (1.0 - x**2)\n    dx0 = (da @ W.T).reshape(B, C, -1)\n    dE = np.zeros_like(E)\n"
      "    np.add.at(dE, contexts, dx0)\n    return dE, dU\n",
      "Forgets to divide by the batch size: the gradient of the summed, not the mean, cross-entropy.",
      ("mean", "divide", "batch", "/ B", "B"), ("tanh", "add.at")),
    W("09-what-rows-learn", "tinylm_grads",
      "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
      "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
      "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n    p /= p.sum(axis=1, keepdims=True)\n"
      "    dlogits = p.copy()\n    dlogits[np.arange(B), targets] -= 1.0\n    dlogits /= B\n    dU = dlogits.T @ x\n"
      "    da = dlogits @ U\n    dx0 = (da @ W.T).reshape(B, C, -1)\n    dE = np.zeros_like(E)\n"
      "    np.add.at(dE, contexts, dx0)\n    return dE, dU\n",
      "Skips the tanh's derivative (1 − x²) on the way back.",
      ("tanh", "1 - x**2", "1 − x²", "derivative"), ("mean", "add.at")),
    W("09-what-rows-learn", "tinylm_grads",
      "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
      "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
      "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n    p /= p.sum(axis=1, keepdims=True)\n"
      "    dlogits = p.copy()\n    dlogits[np.arange(B), targets] -= 1.0\n    dlogits /= B\n    dU = dlogits.T @ x\n"
      "    da = (dlogits @ U) * (1.0 - x**2)\n    dx0 = (da @ W.T).reshape(B, C, -1)\n    dE = np.zeros_like(E)\n"
      "    dE[contexts] += dx0\n    return dE, dU\n",
      "Scatters with dE[contexts] += dx0: a token used twice in the batch gets one contribution.",
      ("np.add.at", "add.at", "repeat", "accumulate", "twice"), ("tanh", "mean")),
]

# Added after the corpus was written (by the lead, not its writer): check_wrong.py now has inputs
# for bpe_merges and tinylm_grads (and compares a solution's list or tuple of arrays), so the six
# entries above are proven wrong the same way as the rest and join the corpus.
ENTRIES += UNJUDGED


# Calibrated after the corpus was judged (issue 46, by the hints10 helper, not its writer): the independent
# judge (/work/notes/judge10-verdicts.jsonl) read every hint on main's grading code and found these 20 hints
# SPECIFIC, while the substring test of tests/test_hint_corpus_learners.classify called 18 of them misleading
# (a wrong word inside a right hint: "id" in "divide", "V" and "T" in any capital, "d" in any word, "rows" in
# "grows", "shape" in the call's own "returned an array of shape", "tied" in "(tied: E once)") and 2 other (a
# right hint in words the list lacks: "padded size", "keeps"). Each hint here is the very text the judge read
# (unchanged by the hints10 fixes). {(name, the mistake's first 40 characters): (wrong words dropped, words
# added)}; the author's entries above are left as written. Once the classifier matched wrong words as whole
# words (hints11), 7 of the first 20 were no longer needed and were removed: the 13 left are the hints the
# whole-word classifier still miscounts (a wrong word the right hint uses: "mean", "scores", "tied", …).
from hint_corpus import calibrated  # noqa: E402
CALIBRATED = {
    ('count_unique', 'Sums every entry: a storage shared by tw'): (('sizes',), ()),  # judge10 #80
    ('forward_flops_per_token', 'Leaves out attention over the context (4'): (('per block',), ()),  # judge10 #99
    ('adam_parts', 'Stores weights and gradients in fp32 (4 '): (('master',), ()),  # judge10 #112
    ('tokens_per_word', 'Loop writer who adds up n_tokens as the '): (('mean',), ()),  # judge10 #140
    ('cos_cat', 'Gives dot products, not cosines.'): (('itself',), ()),  # judge10 #161
    ('padding_rows', 'Gives the padded size, not the rows past'): ((), ('padded size',)),  # judge10 #165
    ('top7', 'Sorts ascending: gives the seven lowest '): (('scores',), ()),  # judge10 #178
    ('design_params', "Leaves the token table out (Kaplan's non"): (('tied',), ()),  # judge10 #189
    ('tightest_budget', 'Picks the budget used least (min) instea'): (('fraction',), ()),  # judge10 #198
    ('padding_rows', 'Subtracts the old V instead of the T + n'): (('subtract',), ()),  # judge10 #206
    ('p_new_token', 'Gives the bound 1/(V+k) from the lesson '): (('softmax',), ()),  # judge10 #212
    ('trimmed_rows', 'Forgets the end-of-text token.'): (('256',), ()),  # judge10 #218
    ('saved_params', "Gives the kept table's size, not what th"): ((), ('keeps',)),  # judge10 #220
}


ENTRIES = calibrated(ENTRIES, CALIBRATED, ("drop_wrong", "add"))
