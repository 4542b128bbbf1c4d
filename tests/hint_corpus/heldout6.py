"""heldout6: a blind corpus of plausible wrong answers, for measuring the hints on mistakes
nobody wrote them for.

Written blind on 2026-12-03 (18:38-18:45 UTC) by a helper (H12) for issue 35, WITHOUT reading
the hint code: nothing under lib/embedlab/grading/, no tests/test_hint*.py, no other corpus file
of tests/hint_corpus/ (learners.py, heldout*.py), none of the formula or exercise tests. What was
read: the exercises' questions and the solution notebooks (solutions/NN-*.ipynb), a few names
in the public library (a grep of lib/embedlab/*.py, not grading/, for the signatures of
resize_tinylm, kl_divergence, padded_size and the keys serving_memory returns),
tests/hint_corpus/__init__.py (the `Wrong` format) and tests/hint_corpus/check_wrong.py (how an
entry runs). Every entry is proven wrong on the handed-out exercise by
`cd tests && ../.venv/bin/python -m hint_corpus.check_wrong heldout6`.

`words`: phrases any correct hint for the mistake would contain (one is enough), written from the
mistake; `wrong_words`: phrases that would mean the hint blames a mistake not made.

Two pairs compute the same value on the book's parameters, so no hint can tell them apart (they
share a word): lesson 07 Q3, the K/V factor 2 left out and the 2 bytes of bf16 left out; lesson
07 Q6, rounding to the nearest and adding one. Wrong answers the check ACCEPTS on the book's
parameters were left out of the corpus (listed in H12's report): e.g. lesson 04 Q2 with
d_ff = 4·d, lesson 04 Q4 / lesson 10 Q1 with m - V % m.
"""

from hint_corpus import Wrong

L01, L02, L03, L04 = "01-toy-table", "02-lookup-vs-matmul", "03-counting-gpt2", "04-modern-blocks"
L05, L06, L07, L08 = "05-weight-tying", "06-params-vs-compute", "07-memory", "08-vocabulary-size"
L09, L10, L11, L12 = "09-what-rows-learn", "10-glitch-tokens", "11-size-a-model", "12-change-a-vocabulary"

TIED = ("tied", "once", "shared", "same matrix", "twice", "double")
TWO = ("2", "two", "factor", "multiply and add", "multiply-add", "half")
BIAS = ("bias",)
GB_NOT_GIB = ("gib", "2**30", "2^30", "1e9", "10⁹", "10**9", "gb")
NORM = ("norm", "normalis", "normaliz", "length", "unit", "divide")
REPEAT = ("repeat", "twice", "duplicate", "add.at", "accumulate", "more than once", "same id", "overwrit")
INVERTED = ("invert", "inverse", "upside", "reciprocal", "other way", "swap", "flip", "the wrong way round")

ENTRIES = [
    # ------------------------------------------------------------------ 01 toy table
    Wrong(L01, "E", "E = np.array([[int(f in traits[w]) for w in words] for f in features])",
          "built one row per feature instead of one row per word (the transpose)",
          ("transpose", "shape", "one row per word", "rows", "columns", ".t")),
    Wrong(L01, "E", "E = np.array([[int(f in traits[w]) for f in sorted(features)] for w in words])",
          "sorted the features alphabetically instead of keeping the given order",
          ("order", "column", "sorted", "features")),
    Wrong(L01, "n_params", "n_params = len(words) + len(features)",
          "added the rows and the columns instead of multiplying them",
          ("multiply", "product", "times", "×", "rows times", "every entry")),
    Wrong(L01, "n_params", "n_params = len(words) * len(features) + len(features)",
          "added a bias row as if the table were a linear layer",
          ("bias", "extra", "added", "only the table", "too many", "too large", "too big")),
    Wrong(L01, "batch", "batch = table[[word_to_id[w] for w in dict.fromkeys(sentence)]]",
          "looked up each distinct word once, dropping the repeated horse",
          REPEAT + ("every word of the sentence", "one row per word", "horse", "distinct", "row too few",
                    "rows too few")),
    Wrong(L01, "batch", "batch = table[sorted(word_to_id[w] for w in sentence)]",
          "sorted the ids, so the rows are not in the sentence's order",
          ("order", "sorted", "sentence")),
    Wrong(L01, "cosine", "def cosine(a, b):\n    return float(a @ b / np.linalg.norm(a))",
          "divided by the norm of a only, not by both norms",
          ("norm", "both", "length", "b", "divide")),
    Wrong(L01, "cosine", "def cosine(a, b):\n    return float(a @ b / (a @ a * (b @ b)))",
          "divided by the squared norms (no square root)",
          ("square root", "sqrt", "squared", "norm")),
    Wrong(L01, "cos_pair", "cos_pair = float(table[word_to_id[pair[0]]] @ table[word_to_id[pair[1]]])",
          "gave the dot product of the two rows, not normalised by their lengths",
          NORM + ("dot product", "cosine")),
    Wrong(L01, "cos_pair", "cos_pair = float(np.arccos(cosine_similarity(table[word_to_id[pair[0]]],\n"
          "                                                 table[word_to_id[pair[1]]])))",
          "gave the angle (arccos, in radians) instead of its cosine",
          ("cosine", "arccos", "angle", "radians", "not the angle")),
    Wrong(L01, "model_table", "shape = model_shape(load_config(model))\n"
          "model_table = shape.vocab_size * shape.hidden_size * 2",
          "counted a tied head as a second table",
          TIED + ("head", "table only")),
    Wrong(L01, "model_table", "shape = model_shape(load_config(model))\n"
          "model_table = shape.vocab_size + shape.hidden_size",
          "added V and d instead of multiplying",
          ("multiply", "product", "times", "×")),
    Wrong(L01, "extra_dim_cost", "extra_dim_cost = extra_features * model_shape(load_config(model)).hidden_size",
          "multiplied the new features by d instead of by the number of rows V",
          ("v", "vocab", "every token", "rows", "each token", "tokens")),
    Wrong(L01, "extra_dim_cost", "s = model_shape(load_config(model))\n"
          "extra_dim_cost = s.vocab_size * (s.hidden_size + extra_features)",
          "gave the size of the whole grown table, not what it gains",
          ("gain", "difference", "increase", "minus", "subtract", "added", "only the new", "whole table", "extra")),

    # ------------------------------------------------------------------ 02 lookup vs matmul
    Wrong(L02, "one_hot", "def one_hot(ids, V):\n    out = np.zeros((V, len(ids)))\n"
          "    out[ids, np.arange(len(ids))] = 1.0\n    return out",
          "returned the transpose: one column per id",
          ("transpose", "shape", "rows", "columns", "(len(ids), v)")),
    Wrong(L02, "one_hot", "def one_hot(ids, V):\n    return np.eye(max(ids) + 1)[ids]",
          "took the width from the largest id instead of V",
          ("v", "columns", "width", "shape", "max", "largest")),
    Wrong(L02, "one_hot", "def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n    out[:, ids] = 1.0\n"
          "    return out",
          "set every row's columns of all ids (out[:, ids]) instead of one 1 per row",
          ("every row", "each row", "one 1 per row", "arange", "pair", "row t", "only one", "single 1")),
    Wrong(L02, "rows_lookup", "rows_lookup = E[np.unique(ids)]",
          "looked each id up once and in sorted order",
          REPEAT + ("order", "unique", "every id", "one row per id")),
    Wrong(L02, "rows_lookup", "rows_lookup = E[np.array(ids) - 1]",
          "treated the ids as 1-based",
          ("off by one", "zero-based", "0-based", "index from 0", "ids start at 0", "- 1", "shifted")),
    Wrong(L02, "rows_matmul", "rows_matmul = E.T @ np.eye(table_V, dtype=np.float32)[ids].T",
          "multiplied in the other order, getting the transpose (d × n)",
          ("transpose", "order", "shape", "rows", "one_hot @ e")),
    Wrong(L02, "rows_matmul", "rows_matmul = np.eye(table_V, dtype=np.float32)[sorted(ids)] @ E",
          "built the one-hot matrix of the sorted ids",
          ("order", "sorted")),
    Wrong(L02, "keeps_sign", 'keeps_sign = "both"',
          "thought the matmul keeps -0.0 too; its sum adds +0.0 terms and loses the sign",
          ("matmul", "sum", "add", "+0.0", "0.0 +", "positive zero", "lookup")),
    Wrong(L02, "keeps_sign", 'keeps_sign = "matmul"',
          "picked the matmul; the lookup copies the entry, sign bit included",
          ("lookup", "copies", "copy", "indexing")),
    Wrong(L02, "embedding_backward", "def embedding_backward(ids, grad_out, V):\n"
          "    grad_E = np.zeros((V, grad_out.shape[1]))\n    grad_E[ids] += grad_out\n    return grad_E",
          "used buffered += with fancy indexing, so a repeated id keeps only one contribution",
          REPEAT + ("buffer", "sum")),
    Wrong(L02, "embedding_backward", "def embedding_backward(ids, grad_out, V):\n"
          "    grad_E = np.zeros((max(ids) + 1, grad_out.shape[1]))\n    np.add.at(grad_E, ids, grad_out)\n"
          "    return grad_E",
          "sized the gradient by the largest id instead of V, so rows no id selects are missing",
          ("v", "rows no id selects", "zero rows", "shape", "every row", "(v, d)", "rows too few", "missing rows")),
    Wrong(L02, "updated_rows", "updated_rows = np.array(batch).ravel()",
          "listed every id of the batch, repeats included and unsorted",
          REPEAT + ("unique", "once", "sorted", "increasing")),
    Wrong(L02, "updated_rows", "updated_rows = np.arange(batch_V)",
          "answered for a tied head (every row); the table is untied",
          ("untied", "tied", "only the rows", "looked up", "in the batch", "ids that occur")),
    Wrong(L02, "updated_rows", "updated_rows = np.unique(batch[0])",
          "took only the first sequence of the batch",
          ("every sequence", "all sequences", "both", "whole batch", "second", "all rows of batch", "each sequence")),
    Wrong(L02, "batch_flops", "batch_flops = V * d * n_tokens",
          "counted one FLOP per multiply-add instead of two",
          TWO),
    Wrong(L02, "batch_flops", "batch_flops = 2 * V * d",
          "gave the FLOPs of one token, not of the batch",
          ("n_tokens", "per token", "batch", "every token", "each token", "one token")),
    Wrong(L02, "one_hot_batch_bytes", "one_hot_batch_bytes = n_tokens * V",
          "counted the numbers, not their bytes",
          ("bytes", "itemsize", "4", "dtype", "precision", "float32", "per number")),
    Wrong(L02, "one_hot_batch_bytes", "one_hot_batch_bytes = n_tokens * V * 32",
          "used 32 bits per number as if it were bytes",
          ("bits", "8", "bytes")),
    Wrong(L02, "one_hot_batch_bytes", "one_hot_batch_bytes = n_tokens * d * np.dtype(precision).itemsize",
          "sized the looked-up embeddings (n × d) instead of the one-hot matrix (n × V)",
          ("v", "one-hot", "vocab", "columns", "n_tokens × v", "width")),

    # ------------------------------------------------------------------ 03 counting GPT-2
    Wrong(L03, "linear_params", "linear_params = linear_in * linear_out",
          "left out the bias", BIAS),
    Wrong(L03, "linear_params", "linear_params = linear_in * linear_out + linear_in",
          "gave the bias the input size instead of the output size",
          ("bias", "output", "linear_out", "out features", "one per output")),
    Wrong(L03, "block_params", "block_params = 12 * d * d + 2 * 2 * d",
          "left out every bias of the linear layers",
          BIAS),
    Wrong(L03, "block_params", "block_params = ((d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d)\n"
          "                + (4 * d * d + d) + 2 * d)",
          "counted each LayerNorm with d parameters (forgot its bias/shift)",
          ("layernorm", "layer norm", "norm", "shift", "beta", "2d", "2·d", "two vectors", "scale and")),
    Wrong(L03, "block_params", "block_params = ((d * d + d) + (d * d + d) + (d * 4 * d + 4 * d)\n"
          "                + (4 * d * d + d) + 2 * (2 * d))",
          "counted the fused q/k/v layer as one d × d layer",
          ("q/k/v", "qkv", "q, k", "three", "3d", "3·d", "fused", "query, key")),
    Wrong(L03, "interview", "interview = 2 * interview_V * interview_d",
          "counted the tied head as a second matrix", TIED + ("head",)),
    Wrong(L03, "interview", "interview = interview_V * interview_d + interview_V",
          "added a bias to the tied head", BIAS + ("too many", "too large")),
    Wrong(L03, "embedding_share", "counts = count_params(load_config(share_model))\n"
          "embedding_share = counts.token_embedding / (counts.total - counts.token_embedding)",
          "divided by the rest of the model, not the whole",
          ("total", "whole", "denominator", "all parameters", "ratio", "the rest")),
    Wrong(L03, "embedding_share", "counts = count_params(load_config(share_model))\n"
          "embedding_share = (counts.token_embedding + counts.position_embedding) / counts.total",
          "included the position table", ("position",)),
    Wrong(L03, "embedding_share", "counts = count_params(load_config(share_model))\n"
          "embedding_share = 2 * counts.token_embedding / counts.total",
          "counted the table twice for the tied head", TIED + ("head",)),
    Wrong(L03, "estimate_gap", "estimate_gap = (V * d + 12 * L * d**2) - exact",
          "subtracted the wrong way round (estimate − exact)",
          ("sign", "negative", "exact − estimate", "exact - estimate", "exact minus", "order") + INVERTED),
    Wrong(L03, "estimate_gap", "estimate_gap = exact - (V * d + 12 * L * d)",
          "forgot to square d in the rule of thumb",
          ("d²", "squared", "d**2", "square", "d^2")),
    Wrong(L03, "gpt2_params", "def gpt2_params(V, d, L, T):\n    return V * d + L * (12 * d * d + 13 * d) + 2 * d",
          "left out the learned position table", ("position", "t × d", "t·d", "t * d", "context")),
    Wrong(L03, "gpt2_params", "def gpt2_params(V, d, L, T):\n"
          "    return 2 * V * d + T * d + L * (12 * d * d + 13 * d) + 2 * d",
          "counted the tied head as its own matrix", TIED + ("head",)),
    Wrong(L03, "gpt2_params", "def gpt2_params(V, d, L, T):\n    return V * d + T * d + L * (12 * d * d + 13 * d)",
          "left out the final LayerNorm", ("final", "layernorm", "layer norm", "ln_f", "2d", "norm")),
    Wrong(L03, "gpt2_params", "def gpt2_params(V, d, L, T):\n    return V * d + T * d + L * 12 * d * d + 2 * d",
          "left out the biases and LayerNorms of the blocks",
          BIAS + ("13d", "13·d", "norm", "layernorm")),

    # ------------------------------------------------------------------ 04 modern blocks
    Wrong(L04, "attn_layer", "attn_layer = 4 * d * d",
          "counted k and v as full d × d matrices (no grouped-query attention)",
          ("h_kv", "key/value heads", "kv heads", "grouped", "gqa", "fewer", "num_kv_heads")),
    Wrong(L04, "attn_layer", "attn_layer = 3 * d * h_kv * head_dim + h * head_dim * d",
          "gave q only h_kv heads, like k and v",
          ("query", "q ", "h query heads", "num_heads", "h heads", "q has h")),
    Wrong(L04, "attn_layer", "attn_layer = d * h * head_dim + d * h_kv * head_dim + h * head_dim * d",
          "counted k but forgot v",
          ("v", "value", "k and v", "both", "two", "2 ×", "2·")),
    Wrong(L04, "attn_layer", "attn_layer = (d * h * head_dim + 2 * d * h_kv * head_dim + h * head_dim * d\n"
          "              + h * head_dim + 2 * h_kv * head_dim + d)",
          "added biases the question says it does not have", BIAS),
    Wrong(L04, "mlp_layer", "mlp_layer = 2 * d * d_ff",
          "counted two MLP matrices, forgetting SwiGLU's gate",
          ("gate", "three", "3", "swiglu")),
    Wrong(L04, "mlp_layer", "mlp_layer = 3 * d * d_ff + 2 * d_ff + d",
          "added biases the MLP does not have", BIAS),
    Wrong(L04, "vocab_share", "c = count_params(load_config(share_model))\nvocab_share = c.token_embedding / c.total",
          "counted only the token table, not the untied head",
          ("head", "lm_head", "untied", "both", "output")),
    Wrong(L04, "vocab_share", "c = count_params(load_config(share_model))\n"
          "vocab_share = (c.token_embedding + c.lm_head) / (c.total - c.token_embedding - c.lm_head)",
          "divided by the rest of the model instead of the total",
          ("total", "whole", "denominator", "all parameters", "the rest")),
    Wrong(L04, "padding_params", "V_padded = -(-V // pad_multiple) * pad_multiple\npadding_params = V_padded - V",
          "gave the number of padded rows, not their parameters",
          ("d", "width", "parameters", "rows", "times d", "×", "hidden_size", "per row")),
    Wrong(L04, "padding_params", "padding_params = V % pad_multiple * d",
          "used the remainder V mod m as the number of rows to add",
          ("remainder", "rows to add", "up to", "next multiple", "pad_multiple -", "round up", "mod")),
    Wrong(L04, "padding_params", "V_padded = -(-V // pad_multiple) * pad_multiple\n"
          "padding_params = 2 * (V_padded - V) * d",
          "counted the padded rows twice for a tied head", TIED + ("head",)),
    Wrong(L04, "padding_params", "V_padded = (V // pad_multiple + 1) * pad_multiple\n"
          "padding_params = (V_padded - V) * d + pad_multiple * d",
          "added a whole extra block of pad_multiple rows",
          ("next multiple", "one multiple", "too many", "too large", "extra", "rows")),
    Wrong(L04, "llama_params", "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    layer = 4 * d * d + 3 * d * d_ff + 2 * d\n    return V * d + L * layer + d + (0 if tied else V * d)",
          "ignored grouped-query attention: k and v as full d × d",
          ("h_kv", "key/value heads", "kv heads", "grouped", "gqa", "num_kv_heads")),
    Wrong(L04, "llama_params", "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    hd = d // h\n    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + (0 if tied else V * d)",
          "left out the final RMSNorm", ("final", "norm", "rmsnorm")),
    Wrong(L04, "llama_params", "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    hd = d // h\n    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + d + (V * d if tied else 0)",
          "added the head's V·d when tied and left it out when untied (inverted)",
          ("tied", "untied", "head") + INVERTED),
    Wrong(L04, "llama_params", "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    hd = d // h\n    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + d\n"
          "    return V * d + L * layer + d + (0 if tied else V * d)",
          "counted one RMSNorm per layer instead of two",
          ("norm", "two", "rmsnorm", "2d", "2·d", "per layer")),

    # ------------------------------------------------------------------ 05 weight tying
    Wrong(L05, "tied_count", "tied_count = untied",
          "gave the untied count unchanged",
          ("subtract", "head", "remove", "minus", "v·d", "v × d", "fewer", "smaller")),
    Wrong(L05, "tied_count", "tied_count = untied - 2 * V * d",
          "removed the table as well as the head",
          ("one", "only the head", "table stays", "once", "twice", "kept", "one matrix")),
    Wrong(L05, "tied_count", "tied_count = untied + V * d",
          "added the head's size instead of removing it",
          ("subtract", "minus", "fewer", "remove", "sign", "smaller")),
    Wrong(L05, "grad_E", "grad_E = dlogits.T @ x",
          "kept only the head's path; forgot the lookup's dx0",
          ("dx0", "lookup", "both", "input", "two paths", "add.at", "embedding path", "both jobs")),
    Wrong(L05, "grad_E", "grad_E = dlogits.T @ x\ngrad_E[ids] += dx0",
          "added dx0 with buffered +=, losing the second contribution of the repeated id",
          REPEAT + ("buffer",)),
    Wrong(L05, "grad_E", "grad_E = dlogits.T @ x\nnp.add.at(grad_E, ids, dx0)\ngrad_E = grad_E / len(ids)",
          "averaged over the positions (divided by the number of ids)",
          ("divide", "average", "mean", "len(ids)", "scale", "factor")),
    Wrong(L05, "count_unique", "def count_unique(storage, sizes):\n    return int(np.sum(sizes))",
          "summed every entry, counting a shared storage twice",
          ("once", "storage", "shared", "tied", "unique", "twice", "same storage")),
    Wrong(L05, "count_unique", "def count_unique(storage, sizes):\n    return len(set(storage.tolist()))",
          "counted the storages instead of their parameters",
          ("sizes", "parameters", "number of parameters", "size")),
    Wrong(L05, "count_unique", "def count_unique(storage, sizes):\n    return int(sizes[np.unique(storage)].sum())",
          "indexed sizes by the storage id instead of by the entry's position",
          ("index", "position", "storage id", "entry", "first entry", "where")),
    Wrong(L05, "ties", "ties = candidates[0]",
          "picked the first candidate without reading the configs",
          ("tie_word_embeddings", "config", "look", "load_config")),
    Wrong(L05, "state_dict_sum", "config = load_config(tied_model)\nstate_dict_sum = count_params(config).total",
          "gave the count of unique parameters; the state dict lists the table twice",
          ("twice", "two names", "head", "again", "both entries", "lm_head", "both names")),
    Wrong(L05, "state_dict_sum", "config = load_config(tied_model)\nstate_dict_sum = 2 * count_params(config).total",
          "doubled the whole model instead of only the tied table",
          ("only the table", "table", "v·d", "v × d", "once", "not the whole", "only")),

    # ------------------------------------------------------------------ 06 params vs compute
    Wrong(L06, "head_flops", "head_flops = d * V",
          "counted one FLOP per multiply-add", TWO),
    Wrong(L06, "head_flops", "head_flops = 2 * d * V * T",
          "multiplied by the T tokens; the question asks for one position",
          ("one position", "once", "per position", "single", "t", "one")),
    Wrong(L06, "lookup_flops", "lookup_flops = 2 * V * d",
          "priced the lookup as a one-hot matmul",
          ("lookup", "index", "copy", "no multiplication", "zero", "0", "no arithmetic")),
    Wrong(L06, "lookup_flops", "lookup_flops = d",
          "counted one FLOP per copied number",
          ("copy", "no arithmetic", "zero", "0", "no multiplication", "indexing")),
    Wrong(L06, "kaplan_n", "kaplan_n = counts.total - counts.token_embedding",
          "forgot to remove the untied head", ("head", "lm_head", "untied")),
    Wrong(L06, "kaplan_n", "kaplan_n = counts.total",
          "gave the total, nothing removed",
          ("token", "table", "embedding", "subtract", "non-embedding", "remove")),
    Wrong(L06, "head_share_training", "attention = c.attention_per_key * T * T\n"
          "total = T * (c.input + c.blocks + c.head) + attention\nhead_share_training = T * c.head / total",
          "counted T² keys instead of T(T+1)/2",
          ("t(t+1)/2", "keys", "triangle", "t²", "t**2", "causal", "(t + 1)")),
    Wrong(L06, "head_share_training", "head_share_training = c.head / (c.input + c.blocks + c.head)",
          "left attention over the context out",
          ("attention", "context", "keys", "attention_per_key")),
    Wrong(L06, "head_share_training", "attention = c.attention_per_key * T * (T + 1) // 2\n"
          "total = T * (c.input + c.blocks) + attention + c.head\nhead_share_training = c.head / total",
          "ran the head once (the prompt case) instead of at every position",
          ("every position", "t times", "training", "each position", "all positions")),
    Wrong(L06, "head_share_prompt", "attention = c.attention_per_key * T * (T + 1) // 2\n"
          "total = T * (c.input + c.blocks + c.head) + attention\nhead_share_prompt = T * c.head / total",
          "ran the head at every position, as in training",
          ("once", "last position", "only the last", "one position"),
          ("blocks run once", "blocks once")),
    Wrong(L06, "head_share_prompt", "attention = c.attention_per_key * T * (T + 1) // 2\n"
          "head_share_prompt = c.head / (c.input + c.blocks + c.head + attention)",
          "ran the lookup and blocks once too, not at every position",
          ("t times", "every position", "blocks", "each position", "all positions"),
          ("head runs once, not", "head once, not")),
    Wrong(L06, "head_share_prompt", "head_share_prompt = c.head / (T * (c.input + c.blocks) + c.head)",
          "left attention over the context out",
          ("attention", "context", "keys", "attention_per_key"),
          ("t(t+1)/2, not t²",)),
    Wrong(L06, "forward_flops_per_token", "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + 2 * d * V",
          "forgot the 2 FLOPs per weight in the blocks", TWO),
    Wrong(L06, "forward_flops_per_token", "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * (4 * d * d + 8 * d * d) + 4 * L * context * d + 2 * d * V",
          "assumed d_ff = 4·d instead of using d_ff",
          ("d_ff", "4d", "4·d", "4 * d", "mlp width")),
    Wrong(L06, "forward_flops_per_token", "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * context * d + 2 * d * V",
          "counted attention over the context once, not in every block",
          ("l", "every block", "per block", "layers", "each block", "l ×")),
    Wrong(L06, "forward_flops_per_token", "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d",
          "left the head out", ("head", "d × v", "logits", "2·d·v", "lm head")),
    Wrong(L06, "flop_rate", "flop_rate = 6 * N * D / (GPU_HOURS * 3600) / 1e12",
          "gave TFLOP/s instead of FLOP/s",
          ("tflop", "1e12", "units", "flop/s", "10¹²", "10^12", "tera")),
    Wrong(L06, "flop_rate", "flop_rate = 6 * N * D / GPU_HOURS",
          "did not convert hours to seconds", ("3600", "seconds", "hours", "second")),
    Wrong(L06, "flop_rate", "flop_rate = 2 * N * D / (GPU_HOURS * 3600)",
          "used 2·N·D (forward only) instead of 6·N·D",
          ("6", "backward", "training", "three times", "6·n·d", "6nd")),
    Wrong(L06, "active_params", "active_params = counts.total - moe_layers * (n_experts - k) * 2 * d * d_ff",
          "counted an expert as two matrices, forgetting the gate",
          ("three", "3", "gate", "swiglu")),
    Wrong(L06, "active_params", "active_params = moe_layers * k * 3 * d * d_ff",
          "counted only the routed experts, leaving out attention, the table and the rest",
          ("total", "attention", "the rest", "everything else", "start from", "embedding", "shared")),
    Wrong(L06, "active_params", "active_params = counts.total - moe_layers * n_experts * 3 * d * d_ff",
          "removed every expert, including the k the token uses",
          ("k", "experts_per_token", "n_experts - k", "used experts", "routed", "the token uses")),

    # ------------------------------------------------------------------ 07 memory
    Wrong(L07, "weights_gb_4bit", "weights_gb_4bit = N * 4 / 1e9",
          "used 4 bytes per parameter for 4 bits",
          ("bits", "bytes", "8", "half a byte", "0.5")),
    Wrong(L07, "weights_gb_4bit", "weights_gb_4bit = N * 0.5 / 2**30",
          "gave GiB instead of GB", GB_NOT_GIB),
    Wrong(L07, "weights_gb_4bit", "weights_gb_4bit = N * 0.5",
          "gave bytes, not GB", ("gb", "1e9", "10⁹", "bytes", "units", "10^9")),
    Wrong(L07, "adam_parts", "adam_parts = np.array([4, 4, 4, 8]) * n_params",
          "stored the weights and gradients in fp32 instead of fp16",
          ("fp16", "2 bytes", "half precision", "16-bit", "mixed precision")),
    Wrong(L07, "adam_parts", "adam_parts = np.array([2, 2, 4, 4]) * n_params",
          "counted one moment instead of m and v",
          ("two moments", "m and v", "both", "8", "v")),
    Wrong(L07, "adam_parts", "adam_parts = np.array([16, 16, 32, 64]) * n_params",
          "gave bits instead of bytes", ("bits", "bytes", "8")),
    Wrong(L07, "adam_parts", "adam_parts = np.array([2, 2, 4, 4 + 4])",
          "gave bytes per parameter, not multiplied by the parameter count",
          ("n_params", "parameters", "per parameter", "count_params", "times")),
    Wrong(L07, "kv_bytes_per_token", "kv_bytes_per_token = 2 * L * h * head_dim * 2",
          "used the query heads h instead of the key/value heads",
          ("h_kv", "key/value heads", "kv heads", "grouped", "num_key_value_heads")),
    Wrong(L07, "kv_bytes_per_token", "kv_bytes_per_token = L * h_kv * head_dim * 2",
          "cached keys but not values",
          ("k and v", "keys and values", "both", "2", "two", "values")),
    Wrong(L07, "kv_bytes_per_token", "kv_bytes_per_token = 2 * L * h_kv * head_dim",
          "counted numbers, not bytes", ("bytes", "precision", "2 bytes", "bf16", "per number", "2")),
    Wrong(L07, "gqa_saving_gib", "full = 2 * L * h * head_dim * 2 * context\ngqa_saving_gib = full / 2**30",
          "gave the full cache, not what grouping saves",
          ("saving", "difference", "minus", "subtract", "grouped", "saves")),
    Wrong(L07, "gqa_saving_gib", "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * 2 * context / 1e9",
          "gave GB instead of GiB", ("gib", "2**30", "2^30", "1024", "gb")),
    Wrong(L07, "gqa_saving_gib", "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * 2 / 2**30",
          "gave the saving for one token, not the whole sequence",
          ("context", "tokens", "sequence", "gqa_context", "per token")),
    Wrong(L07, "kv_cache_gb", "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return 2 * L * h_kv * head_dim * bytes_per_number * context / 1e9",
          "forgot the batch", ("batch", "sequences")),
    Wrong(L07, "kv_cache_gb", "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / 2**30",
          "gave GiB instead of GB", GB_NOT_GIB),
    Wrong(L07, "kv_cache_gb", "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return L * h_kv * head_dim * bytes_per_number * context * batch / 1e9",
          "forgot the factor 2 for keys and values",
          ("k and v", "keys and values", "2", "two", "both")),
    Wrong(L07, "max_batch", "max_batch = int(memory // per_sequence)",
          "forgot the weights take memory too", ("weights", "subtract", "minus")),
    Wrong(L07, "max_batch", "max_batch = int((memory - weights) // per_sequence) + 1",
          "rounded up: one sequence too many",
          ("off by one", "one too many", "floor", "whole", "round down", "fit", "too many")),
    Wrong(L07, "max_batch", "max_batch = round((memory - weights) / per_sequence)",
          "rounded to the nearest whole number instead of down",
          ("round down", "floor", "whole", "//", "fit", "nearest", "one too many", "off by one")),
    Wrong(L07, "max_batch", "max_batch = int((gpu_gb * 2**30 - weights) // per_sequence)",
          "took the GPU's GB as GiB", GB_NOT_GIB),

    # ------------------------------------------------------------------ 08 vocabulary size
    Wrong(L08, "embedding_params", "embedding_params = 2 * V_big * d",
          "counted the tied head as a second table", TIED + ("head",)),
    Wrong(L08, "embedding_params", "embedding_params = V_small * d",
          "used the small vocabulary", ("v_big", "bigger", "256", "big vocabulary", "larger")),
    Wrong(L08, "embedding_share", "embedding_share = table / rest",
          "divided by the rest, not by table + rest",
          ("total", "whole", "table + rest", "denominator", "whole model")),
    Wrong(L08, "embedding_share", "embedding_share = V_small * d / (V_small * d + rest)",
          "used the small vocabulary", ("v_big", "bigger", "256", "larger")),
    Wrong(L08, "extra_head_flops", "extra_head_flops = d * V_big - d * V_small",
          "counted one FLOP per multiply-add", TWO),
    Wrong(L08, "extra_head_flops", "extra_head_flops = 2 * d * V_big",
          "gave the big head's cost, not the difference",
          ("more", "difference", "minus", "subtract", "v_small", "extra")),
    Wrong(L08, "break_even_r", "break_even_r = (blocks + 2 * d * V_big) / (blocks + 2 * d * V_small)",
          "inverted the ratio", INVERTED + ("less than 1", "below 1", "fewer tokens")),
    Wrong(L08, "break_even_r", "break_even_r = V_small / V_big",
          "left the blocks' cost out", ("blocks", "per token", "whole cost")),
    Wrong(L08, "break_even_r", "break_even_r = (blocks + d * V_small) / (blocks + d * V_big)",
          "priced the head at d·V instead of 2·d·V", TWO + ("2·d·v", "2dv")),
    Wrong(L08, "tokens_per_word", "def tokens_per_word(counts, n_tokens):\n    return float(np.mean(n_tokens))",
          "took the plain mean over word types, unweighted by counts",
          ("weight", "count", "running", "frequency", "how often", "occurrence")),
    Wrong(L08, "tokens_per_word", "def tokens_per_word(counts, n_tokens):\n"
          "    return float(np.dot(counts, n_tokens) / len(counts))",
          "divided by the number of word types instead of the number of running words",
          ("total count", "sum of counts", "counts.sum", "running words", "divide", "denominator", "occurrences")),
    Wrong(L08, "tokens_per_word", "def tokens_per_word(counts, n_tokens):\n"
          "    return np.dot(counts, n_tokens) // np.sum(counts)",
          "used integer division",
          ("integer division", "//", "float", "truncat", "round", "whole number")),
    Wrong(L08, "tokens_per_word", "def tokens_per_word(counts, n_tokens):\n"
          "    return float(np.sum(counts) / np.dot(counts, n_tokens))",
          "gave words per token (the inverse)", INVERTED + ("words per token",)),
    Wrong(L08, "hindi_single_token_share", "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top_hindi)",
          "gave the count, not the fraction",
          ("fraction", "share", "divide", "n_top", "proportion", "between 0 and 1")),
    Wrong(L08, "hindi_single_token_share", "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in hindi) / len(hindi)",
          "took all the Hindi training words, not the n_top most frequent",
          ("n_top", "top", "most frequent", "first", "top_hindi")),
    Wrong(L08, "hindi_r", "def per_word(tokenizer):\n"
          "    return sum(len(tokenizer.encode(' ' + w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
          "hindi_r = per_word(gpt2) / per_word(cl100k)",
          "divided GPT-2's by cl100k's (inverted)", INVERTED),
    Wrong(L08, "hindi_r", "def per_word(tokenizer):\n"
          "    return np.mean([len(tokenizer.encode(' ' + w)) for w in hindi])\n"
          "hindi_r = per_word(cl100k) / per_word(gpt2)",
          "averaged over word types, not weighted by counts",
          ("weight", "count", "running", "frequency", "occurrence")),
    Wrong(L08, "hindi_r", "def per_word(tokenizer):\n"
          "    return sum(len(tokenizer.encode(w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
          "hindi_r = per_word(cl100k) / per_word(gpt2)",
          "encoded the words without the leading space",
          ("space", "\" \" +", "' ' +", "leading")),

    # ------------------------------------------------------------------ 09 what rows learn
    Wrong(L09, "n_params", "n_params = V * d + (2 * d) * d + d",
          "left out the untied output matrix U",
          ("untied", "u", "output matrix", "own", "head", "output")),
    Wrong(L09, "n_params", "n_params = V * d + d * d + d + V * d",
          "gave W only d inputs, not the two context rows side by side",
          ("2d", "2·d", "two", "context", "both rows", "side by side", "2 * d")),
    Wrong(L09, "n_params", "n_params = V * d + (2 * d) * d + V * d",
          "left out the bias b", BIAS),
    Wrong(L09, "embedding_grad", "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    dE = np.zeros((vocab_size, dx0.shape[-1]))\n    dE[contexts] = dx0\n    return dE",
          "assigned the gradients: a repeated token keeps only one contribution",
          REPEAT + ("assign", "sum", "both contributions")),
    Wrong(L09, "embedding_grad", "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    dE = np.zeros((vocab_size, dx0.shape[-1]))\n    np.add.at(dE, contexts[:, 0], dx0[:, 0])\n    return dE",
          "added only the first context slot",
          ("slot", "each slot", "both", "second", "every position", "all slots", "c slots", "k")),
    Wrong(L09, "gap", "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
          "within = [C[i, j] for group in (animals, vehicles) for i in group for j in group]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()",
          "included each word with itself (cosine 1) in the within-group mean",
          ("different", "itself", "diagonal", "i < j", "same word", "56", "pairs")),
    Wrong(L09, "gap", "C = E @ E.T\n"
          "within = [C[i, j] for group in (animals, vehicles) for i in group for j in group if i < j]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()",
          "used dot products, not cosines", NORM + ("cosine",)),
    Wrong(L09, "gap", "unit = E / np.linalg.norm(E, axis=0, keepdims=True)\nC = unit @ unit.T\n"
          "within = [C[i, j] for group in (animals, vehicles) for i in group for j in group if i < j]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()",
          "normalised the columns (axis=0) instead of the rows",
          ("axis", "row", "each row", "axis=1", "columns")),
    Wrong(L09, "gap", "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
          "within = [C[i, j] for group in (animals, vehicles) for i in group for j in group if i < j]\n"
          "gap = C[np.ix_(animals, vehicles)].mean() - np.mean(within)",
          "subtracted the wrong way round (across − within)",
          ("sign", "order", "within minus", "negative", "within − across") + INVERTED),
    Wrong(L09, "cos_cat", "cos_cat = E[animals + vehicles] @ E[cat]",
          "gave dot products, not cosines", NORM + ("cosine",)),
    Wrong(L09, "cos_cat", "rows = E[animals + vehicles]\n"
          "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=0) * np.linalg.norm(E[cat]))",
          "took the norms along axis 0 (columns); the 16 × 16 block hides it",
          ("axis", "each row", "row", "axis=1", "columns"),
          ("only cat", "just cat")),
    Wrong(L09, "cos_cat", "rows = E[animals + vehicles]\n"
          "cos_cat = rows @ E[cat] / (np.linalg.norm(rows) * np.linalg.norm(E[cat]))",
          "divided by the norm of the whole block (one number) instead of each row's norm",
          ("each row", "row", "axis", "axis=1", "per row", "whole matrix", "frobenius")),
    Wrong(L09, "cos_cat", "rows = E[vehicles + animals]\n"
          "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))",
          "put the vehicles first", ("order", "animals first", "animals + vehicles", "first entry")),
    Wrong(L09, "rotation_changes_cosines", 'rotation_changes_cosines = "yes"',
          "thought a rotation changes the cosines",
          ("orthogonal", "rotation", "angle", "preserve", "length", "dot product", "q.t", "unchanged")),

    # ------------------------------------------------------------------ 10 glitch tokens
    Wrong(L10, "padding_rows", "padding_rows = V % pad_multiple",
          "gave the remainder instead of the rows needed to reach the next multiple",
          ("remainder", "up to", "next multiple", "rows to add", "round up", "mod")),
    Wrong(L10, "padding_rows", "padding_rows = -(-V // pad_multiple) * pad_multiple",
          "gave the padded size, not the padding rows",
          ("minus", "subtract", "padding only", "extra rows", "difference", "belong to no token", "- v")),
    Wrong(L10, "padding_rows", "padding_rows = round(V / pad_multiple) * pad_multiple - V",
          "rounded V to the nearest multiple instead of up (a negative count here)",
          ("round up", "ceil", "nearest", "next multiple", "negative", "up to")),
    Wrong(L10, "invalid_bytes", "invalid_bytes = 128",
          "thought every byte from 0x80 up is invalid",
          ("continuation", "lead", "multi-byte", "0x80", "rfc", "appear")),
    Wrong(L10, "invalid_bytes", "seen_bytes = set()\nfor c in range(0x110000):\n"
          "    if not 0xD800 <= c <= 0xDFFF:\n        seen_bytes.update(chr(c).encode('utf-8'))\n"
          "invalid_bytes = len(seen_bytes)",
          "gave the bytes that appear, not those that never do",
          ("never", "256 -", "subtract", "invalid", "complement", "do not appear")),
    Wrong(L10, "invalid_bytes", "seen_bytes = set()\nfor c in range(0x10000):\n"
          "    if not 0xD800 <= c <= 0xDFFF:\n        seen_bytes.update(chr(c).encode('utf-8'))\n"
          "invalid_bytes = 256 - len(seen_bytes)",
          "stopped at 0xFFFF, missing the 4-byte characters",
          ("0x110000", "4-byte", "four", "0xffff", "supplementary", "every code point", "range")),
    Wrong(L10, "unused_score", "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=1)\n"
          "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))",
          "averaged along axis 1 instead of over the rows",
          ("axis", "mean of the rows", "axis=0", "over rows")),
    Wrong(L10, "unused_score", "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0)\n"
          "    return M @ mean / np.linalg.norm(mean)",
          "did not divide by each row's norm", NORM + ("each row", "cosine")),
    Wrong(L10, "unused_score", "def unused_score(M, reference_ids):\n    mean = M.mean(axis=0)\n"
          "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))",
          "took the mean of all rows, not of the reference rows",
          ("reference", "reference_ids")),
    Wrong(L10, "never_cos", "rows = run.model.E[never]\n"
          "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\nnever_cos = (unit @ unit.T).mean()",
          "averaged the whole matrix, the diagonal (each row with itself) included",
          ("different", "diagonal", "itself", "pairs", "triu", "i < j")),
    Wrong(L10, "never_cos", "rows = run.model.E[never]\nC = rows @ rows.T\n"
          "never_cos = C[np.triu_indices(len(never), k=1)].mean()",
          "used dot products, not cosines", NORM + ("cosine",)),
    Wrong(L10, "never_cos", "reserved = list(corpus.groups['reserved'])\nrows = run.model.E[reserved]\n"
          "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\nC = unit @ unit.T\n"
          "never_cos = C[np.triu_indices(len(reserved), k=1)].mean()",
          "took only the reserved rows, leaving the glitch word out",
          ("glitch", "never", "all of never", "len(never)")),
    Wrong(L10, "top7", "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
          "top7 = np.argsort(-scores, kind='stable')[:7]",
          "did not leave the reference rows out",
          ("reference", "leave out", "exclude", "leave the four")),
    Wrong(L10, "top7", "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
          "order = [i for i in np.argsort(scores, kind='stable') if i not in reference]\ntop7 = np.array(order[:7])",
          "sorted ascending: the lowest scores",
          ("highest", "descending", "order", "reverse", "largest", "lowest")),
    Wrong(L10, "partial_tokens", "partial_tokens = 0\nfor b in ordinary:\n    if len(b) == 1:\n        continue\n"
          "    try:\n        b.decode('utf-8')\n    except UnicodeDecodeError:\n        partial_tokens += 1",
          "left the single bytes 0x80-0xFF out",
          ("single byte", "0x80", "single bytes", "one byte", "length 1", "count them")),
    Wrong(L10, "partial_tokens", "partial_tokens = sum(any(x >= 0x80 for x in b) for b in ordinary)",
          "counted every token with a non-ASCII byte, including ones that decode",
          ("decode", "whole character", "valid", "complete", "non-ascii")),

    # ------------------------------------------------------------------ 11 size a model
    Wrong(L11, "design", "design = llama_config(vocab_size=32000, d=1024, num_layers=8, num_heads=8,\n"
          "                      num_kv_heads=4, d_ff=4096, tied=True)",
          "8 heads over d = 1024 makes them 128 wide, not head_dim",
          ("head_dim", "head width", "heads", "64", "wide", "num_heads")),
    Wrong(L11, "design", "design = llama_config(vocab_size=16000, d=1024, num_layers=8, num_heads=16,\n"
          "                      num_kv_heads=4, d_ff=4096, tied=True)",
          "a vocabulary below min_vocab_size",
          ("vocab", "min_vocab_size", "vocabulary", "32000", "32,000")),
    Wrong(L11, "design", "design = llama_config(vocab_size=32000, d=1024, num_layers=64, num_heads=16,\n"
          "                      num_kv_heads=4, d_ff=4096, tied=True)",
          "far too deep: over the parameter budget",
          ("parameter", "max_params", "too many", "budget", "fewer layers", "too big", "over", "memory",
           "compute")),
    Wrong(L11, "design_params", "design_params = count_params(design).total + design['vocab_size'] * design['hidden_size']",
          "counted the tied head as a second table", TIED + ("head",)),
    Wrong(L11, "design_params", "design_params = 12 * design['num_hidden_layers'] * design['hidden_size'] ** 2",
          "used GPT-2's rule of thumb instead of counting",
          ("exact", "count_params", "estimate", "rule of thumb", "12·l·d²", "count")),
    Wrong(L11, "design_serving_gb", "design_serving_gb = serving_memory(design, weights=BUDGET.weights,\n"
          "    context=BUDGET.context, batch=BUDGET.batch, kv=BUDGET.kv)['weights'] / GB",
          "left the KV cache out", ("cache", "kv", "together", "both")),
    Wrong(L11, "design_serving_gb", "design_serving_gb = serving_memory(design, weights=BUDGET.weights,\n"
          "    context=BUDGET.context, batch=BUDGET.batch, kv=BUDGET.kv)['total'] / 2**30",
          "gave GiB instead of GB", GB_NOT_GIB),
    Wrong(L11, "design_serving_gb", "design_serving_gb = serving_memory(design, weights='bf16',\n"
          "    context=BUDGET.context, batch=BUDGET.batch, kv=BUDGET.kv)['total'] / GB",
          "priced the weights in bf16 instead of the job's weights precision",
          ("precision", "weights", "int4", "4-bit", "bits")),
    Wrong(L11, "design_train_flops", "design_train_flops = training_flops(design, T_train).total",
          "gave one sequence's FLOPs, not all the training tokens'",
          ("sequences", "number of sequences", "d // t_train", "times", "train_tokens", "all")),
    Wrong(L11, "design_train_flops", "design_train_flops = training_flops(design, T_train).total * D",
          "multiplied one sequence's FLOPs by the tokens, not the sequences",
          ("sequences", "t_train", "divide", "per sequence", "d // t_train", "too large")),
    Wrong(L11, "tightest_budget", "used = {'parameters': design_params / BUDGET.max_params,\n"
          "        'memory': design_serving_gb / BUDGET.max_serving_gb,\n"
          "        'compute': design_train_flops / BUDGET.max_train_flops}\n"
          "tightest_budget = min(used, key=used.get)",
          "took the budget with the smallest used fraction",
          ("largest", "most", "max", "highest", "tightest")),
    Wrong(L11, "other_tying_params", "other_tying_params = design_params",
          "gave the design's own count, tying not flipped",
          ("flip", "untied", "other", "head", "v·d", "v × d")),
    Wrong(L11, "other_tying_params", "other_tying_params = design_params - design['vocab_size'] * design['hidden_size']",
          "subtracted the head for a tied design instead of adding it",
          ("add", "more", "plus", "sign", "untied adds", "larger") + INVERTED),

    # ------------------------------------------------------------------ 12 change a vocabulary
    Wrong(L12, "added_params", "added_params = 2 * n_new * d",
          "counted the new rows twice for a tied head", TIED + ("head",)),
    Wrong(L12, "added_params", "added_params = n_new",
          "gave the new rows, not their parameters",
          ("d", "width", "parameters", "times", "hidden_size", "per row", "rows")),
    Wrong(L12, "added_params", "added_params = (V + n_new) * d",
          "gave the whole grown table, not the gain",
          ("gain", "added", "difference", "minus", "only the new", "whole table", "increase")),
    Wrong(L12, "padding_rows", "rows = max(V, n_tok + n_new)\npadding_rows = padded_size(rows, pad_multiple) - V",
          "subtracted the old rows, so the new tokens' rows count as padding",
          ("new tokens", "own", "n_new", "t + n_new", "owned")),
    Wrong(L12, "padding_rows", "padding_rows = (n_tok + n_new) % pad_multiple",
          "gave the remainder instead of the rows up to the next multiple",
          ("remainder", "round up", "next multiple", "up to", "mod")),
    Wrong(L12, "padding_rows", "padding_rows = padded_size(max(V, n_tok + n_new), pad_multiple)",
          "gave the padded table's size, not its padding rows",
          ("minus", "subtract", "padding only", "belong to no token", "difference", "extra rows")),
    Wrong(L12, "p_new_token", "grown = resize_tinylm(run.model, n_new, 'zeros')\n"
          "p_new_token = float(np.exp(log_softmax(grown.logits(context)))[0][corpus.vocab_size])",
          "started the new rows at zeros instead of the mean",
          ("mean", "init", "zeros", "initialis")),
    Wrong(L12, "p_new_token", "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p_new_token = float(grown.logits(context)[0][corpus.vocab_size])",
          "gave the logit, not the probability",
          ("probability", "softmax", "exp", "logit")),
    Wrong(L12, "p_new_token", "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p_new_token = float(log_softmax(grown.logits(context))[0][corpus.vocab_size])",
          "gave the log-probability", ("exp", "log", "probability")),
    Wrong(L12, "kl_mean", "grown = resize_tinylm(run.model, n_new, 'zeros')\n"
          "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).mean())",
          "started the new rows at zeros, not at the mean the question asks for",
          ("mean", "init", "zeros", "initialis", "same mean")),
    Wrong(L12, "kl_mean", "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).sum())",
          "summed over the positions instead of averaging",
          ("mean", "average", "sum", "positions")),
    Wrong(L12, "trimmed_rows", "trimmed_rows = len(used)",
          "kept only the words' tokens, forgetting the byte tokens and end-of-text",
          ("256", "byte", "end-of-text", "eot")),
    Wrong(L12, "trimmed_rows", "trimmed_rows = len(used) + 256 + 1",
          "added the counts, counting tokens both in used and among the bytes twice",
          ("overlap", "union", "twice", "double", "already", "set", "|")),
    Wrong(L12, "trimmed_rows", "trimmed_rows = len(used | set(range(256)))",
          "forgot the end-of-text token", ("end-of-text", "eot", "eot_token", "endoftext", "+ 1", "one")),
    Wrong(L12, "saved_params", "saved_params = (tok.n_vocab - n_keep) * d_trim * 2",
          "counted the removed rows twice though the head is tied", TIED + ("head",)),
    Wrong(L12, "saved_params", "saved_params = n_keep * d_trim",
          "gave the kept table's size, not what trimming removes",
          ("removed", "n_vocab -", "difference", "saves", "kept", "minus")),
    Wrong(L12, "coverage", "kept = used | set(range(256)) | {tok.eot_token}\n"
          "coverage = float(np.mean([set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words]))",
          "counted word types, unweighted by frequency",
          ("weight", "frequency", "occurrence", "running")),
    Wrong(L12, "coverage", "kept = used | set(range(256)) | {tok.eot_token}\n"
          "covered = np.array([any(t in kept for t in tok.encode_ordinary(' ' + w)) for w in next_words])\n"
          "weights = np.array([frequencies[w] for w in next_words])\ncoverage = float(weights @ covered / weights.sum())",
          "counted a word covered when any of its tokens is kept, not all",
          ("every token", "all tokens", "subset", "all of", "all its tokens", "each token")),
]
