# HELD OUT (4): the hint authors do not look at this file. It was written blind: its author
# read the lessons, the exercises' questions, the solutions and the public library
# (lib/embedlab/*.py), but not the hint code (lib/embedlab/grading/), not the hint tests
# (tests/test_hint*.py, test_function_cases.py, test_exercise.py, test_formula_recheck.py)
# and not the other corpora (learners.py, heldout.py, heldout2.py, heldout3.py). Each entry is a
# mistake its author thought a learner would plausibly make on reading the question. Only its
# counts (tests/test_hint_corpus_learners.py) may be shown to hint authors, never its entries:
# once read, it no longer measures how the hints do on mistakes nobody wrote them for.
from . import Wrong

L01, L02, L03, L04 = "01-toy-table", "02-lookup-vs-matmul", "03-counting-gpt2", "04-modern-blocks"
L05, L06, L07, L08 = "05-weight-tying", "06-params-vs-compute", "07-memory", "08-vocabulary-size"
L09, L10, L11, L12 = "09-what-rows-learn", "10-glitch-tokens", "11-size-a-model", "12-change-a-vocabulary"

TWO_FLOPS = ("multiply-add", "multiply and add", "multiply and an add", "2 flops", "two flops",
             "factor of 2", "factor 2", "2 flop", "two flop", "twice", "2·", "2 ×", "2 *", "half")
TIED = ("tied", "tying", "shared", "same matrix", "same array", "counted twice", "twice", "double",
        "once")
FRACTION = ("percent", "%", "fraction", "between 0 and 1", "× 100", "* 100", "100")
BYTES = ("bytes", "byte")
BITS = ("bits", "bit ", "8 bits", "bytes, not bits", "not bits")
MILLIONS = ("million", "1e6", "10**6", "10⁶", "unit", "whole number", "exact count", "not in millions",
            "scaled", "scale")
BIAS = ("bias",)
ROW_AXIS = ("axis", "row", "column", "axis=1", "axis=-1", "each row", "per row")
REPEATS = ("repeat", "duplicate", "add.at", "accumulat", "twice", "more than once", "buffer", "overwrit",
           "every occurrence", "both contributions", "sum")
ORDER = ("order", "sorted", "in order", "sequence")
NORM = ("norm", "normalis", "normaliz", "length", "divide", "magnitude", "cosine")
GB_GIB = ("gib", "2**30", "2^30", "1024", "10**9", "1e9", "10⁹", "gb", "1,073,741,824")

ENTRIES = [
    # ------------------------------------------------------------------ 01 toy table
    Wrong(L01, "E", "E = np.array([[int(f in traits[w]) for w in words] for f in features])",
          "built the table one row per feature instead of one row per word (transposed)",
          ("transpose", "shape", "one row per word", "rows and columns", "swapped", "(4, 3)", "row per word")),
    Wrong(L01, "E", "E = np.array([[int(f in traits[w]) for f in sorted(features)] for w in words])",
          "sorted the features alphabetically, so the columns are in the wrong order",
          ("order", "column", "sorted", "features, in that order", "feature")),
    Wrong(L01, "E", "E = np.array([[int(f in traits[w]) for f in ['object', 'animal']] for w in words])",
          "copied the lesson's two features and left out the third feature 'pet'",
          ("shape", "column", "feature", "pet", "(4, 3)", "width")),
    Wrong(L01, "n_params", "n_params = len(words) + len(features)",
          "added the number of rows and columns instead of multiplying",
          ("multiply", "rows × columns", "rows times columns", "product", "times", "×", "added")),
    Wrong(L01, "n_params", "n_params = int(E.sum())",
          "counted only the 1s in the table, not every entry",
          ("every entry", "zero", "all entries", "rows × columns", "not just the ones", "nonzero", "each entry",
           "every number", "sum")),
    Wrong(L01, "batch", "batch = table[[word_to_id[w] for w in dict.fromkeys(sentence)]]",
          "looked up each distinct word of the sentence once, dropping the repeat",
          REPEATS + ("once per word", "shape", "every word", "one row per word of the sentence")),
    Wrong(L01, "batch", "batch = table[:len(sentence)]",
          "took the first rows of the table instead of the rows of the sentence's words",
          ("id", "index", "word_to_id", "look up", "rows of the sentence", "the sentence's words", "which rows")),
    Wrong(L01, "cosine", "def cosine(a, b):\n    return float(a @ b)",
          "returned the dot product without dividing by the two lengths",
          NORM + ("dot product",)),
    Wrong(L01, "cosine", "def cosine(a, b):\n    return float(a @ b / np.linalg.norm(a) * np.linalg.norm(b))",
          "multiplied by the second norm instead of dividing by it (missing brackets)",
          ("parenthes", "bracket", "precedence", "multiplied", "divide by both", "product of the norms",
           "both norms", "norm")),
    Wrong(L01, "cosine", "def cosine(a, b):\n    return float(a @ b / (np.linalg.norm(a) + np.linalg.norm(b)))",
          "divided by the sum of the norms instead of their product",
          ("product", "multiply", "plus", "sum of the norms", "norm", "×")),
    Wrong(L01, "cos_pair", "cos_pair = float(table[word_to_id[pair[0]]] @ table[word_to_id[pair[1]]])",
          "gave the dot product of the two rows, not their cosine",
          NORM + ("dot product",)),
    Wrong(L01, "cos_pair", "cos_pair = cosine_similarity(table[word_to_id[pair[0]] + 1], table[word_to_id[pair[1]] + 1])",
          "counted the ids from 1, so each lookup took the row after the word's own (off by one)",
          ("id", "index", "row", "off by one", "off-by-one", "word_to_id", "which words", "+ 1", "0-based",
           "zero-based")),
    Wrong(L01, "model_table", "shape = model_shape(load_config(model))\n"
          "model_table = shape.vocab_size * shape.hidden_size + 1024 * shape.hidden_size",
          "added the position table to the token table",
          ("position", "token table only", "only the token", "wpe")),
    Wrong(L01, "model_table", "shape = model_shape(load_config(model))\n"
          "model_table = shape.vocab_size * shape.hidden_size * 4",
          "gave the table's size in bytes (float32) instead of its parameter count",
          BYTES + ("float32", "fp32", "4 bytes", "parameters, not")),
    Wrong(L01, "model_table", "shape = model_shape(load_config(model))\n"
          "model_table = shape.vocab_size * shape.hidden_size / 1e6",
          "gave the count in millions",
          MILLIONS),
    Wrong(L01, "extra_dim_cost", "shape = model_shape(load_config(model))\n"
          "extra_dim_cost = extra_features * shape.hidden_size",
          "multiplied the extra features by the width d instead of by the number of rows V",
          ("vocab", "v ", "rows", "every token", "each row", "token", "v×", "v ×", "v *")),

    # ------------------------------------------------------------------ 02 lookup vs matmul
    Wrong(L02, "one_hot", "def one_hot(ids, V):\n    out = np.zeros((V, len(ids)))\n"
          "    out[ids, np.arange(len(ids))] = 1\n    return out",
          "built the one-hot matrix transposed, shape (V, len(ids))",
          ("transpose", "shape", "(len(ids), v)", "rows", "axis", "one row per id")),
    Wrong(L02, "one_hot", "def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n    out[:, ids] = 1\n    return out",
          "set the columns of all ids in every row instead of one column per row",
          ("every row", "each row", "one 1 per row", "arange", "pair", "row t", "exactly one", "single 1",
           "only one")),
    Wrong(L02, "one_hot", "def one_hot(ids, V):\n    ids = np.asarray(ids)\n    out = np.zeros((len(ids), V))\n"
          "    out[np.arange(len(ids)), ids - 1] = 1\n    return out",
          "put each 1 one column to the left (ids - 1), an off-by-one",
          ("off by one", "off-by-one", "column ids[t]", "minus 1", "shift", "index", "- 1", "zero-based",
           "column")),
    Wrong(L02, "rows_lookup", "rows_lookup = E[ids].T",
          "returned the looked-up rows transposed",
          ("transpose", "shape", "one row per id", "axis")),
    Wrong(L02, "rows_matmul", "rows_matmul = E.T @ np.eye(table_V, dtype=np.float32)[ids].T",
          "multiplied in the other order, getting the rows as columns",
          ("transpose", "shape", "order", "one row per id", "one_hot(ids) @ e", "axis")),
    Wrong(L02, "keeps_sign", 'keeps_sign = "both"',
          "thought the matmul also returns -0.0, forgetting that adding +0.0 terms gives +0.0",
          ("matmul", "0 ×", "add", "sum", "+0", "positive zero", "signbit", "copies", "lookup")),
    Wrong(L02, "embedding_backward", "def embedding_backward(ids, grad_out, V):\n"
          "    grad_E = np.zeros((V, grad_out.shape[1]))\n    grad_E[ids] += grad_out\n    return grad_E",
          "used grad_E[ids] += grad_out, which keeps only one contribution of a repeated id",
          REPEATS),
    Wrong(L02, "embedding_backward", "def embedding_backward(ids, grad_out, V):\n"
          "    grad_E = np.zeros((V, grad_out.shape[1]))\n"
          "    for t, i in enumerate(ids):\n        grad_E[i] = grad_out[t]\n    return grad_E",
          "assigned each position's gradient to its row instead of adding, so repeats overwrite",
          REPEATS + ("+=", "assign")),
    Wrong(L02, "embedding_backward", "def embedding_backward(ids, grad_out, V):\n    return grad_out",
          "returned the gradient of the looked-up rows, shape (len(ids), d), not the table's (V, d)",
          ("shape", "(v, d)", "v rows", "every row of the table", "row per token", "one row per")),
    Wrong(L02, "embedding_backward", "def embedding_backward(ids, grad_out, V):\n"
          "    grad_E = np.zeros((V, grad_out.shape[1]))\n    np.add.at(grad_E, ids, grad_out)\n"
          "    counts = np.bincount(ids, minlength=V)\n    return grad_E / np.maximum(counts, 1)[:, None]",
          "averaged the contributions of a repeated id instead of summing them",
          ("mean", "average", "divide", "sum, not", "sum", "not the mean")),
    Wrong(L02, "updated_rows", "updated_rows = np.unique(batch[0])",
          "took the ids of the first sequence only",
          ("every sequence", "all sequences", "whole batch", "second", "both rows", "missing", "all rows of batch",
           "every row of batch", "each sequence")),
    Wrong(L02, "updated_rows", "updated_rows = np.arange(batch_V)",
          "answered every row, as if the head were tied",
          ("untied", "only the rows", "looked up", "tied", "in the batch", "appear")),
    Wrong(L02, "updated_rows", "updated_rows = np.setdiff1d(np.arange(batch_V), batch)",
          "listed the rows that do not change instead of the rows that do",
          ("not updated", "complement", "invert", "the other rows", "unchanged", "looked up", "appear",
           "in the batch", "opposite")),
    Wrong(L02, "batch_flops", "batch_flops = V * d * n_tokens",
          "counted one FLOP per weight instead of a multiply and an add",
          TWO_FLOPS),
    Wrong(L02, "batch_flops", "batch_flops = 0",
          "answered the lookup's cost (0) instead of the matmul's",
          ("matmul", "one_hot", "multiplication", "not the lookup", "one-hot", "product")),
    Wrong(L02, "one_hot_batch_bytes", "one_hot_batch_bytes = n_tokens * V",
          "counted one byte per entry, ignoring the dtype's size",
          ("itemsize", "4 bytes", "bytes per", "dtype", "float32", "precision", "byte")),
    Wrong(L02, "one_hot_batch_bytes", "one_hot_batch_bytes = n_tokens * V * 8",
          "used float64's 8 bytes (numpy's default) instead of the dtype in precision",
          ("float64", "float32", "dtype", "precision", "8 bytes", "itemsize", "default")),
    Wrong(L02, "one_hot_batch_bytes", "one_hot_batch_bytes = n_tokens * d * np.dtype(precision).itemsize",
          "sized the looked-up rows (d wide) instead of the one-hot matrix (V wide)",
          ("v ", "vocabulary", "one-hot", "v columns", "width", "v wide", "v ×", "v*", "v·")),

    # ------------------------------------------------------------------ 03 counting GPT-2
    Wrong(L03, "linear_params", "linear_params = linear_in * linear_out",
          "left out the layer's bias",
          BIAS),
    Wrong(L03, "linear_params", "linear_params = 2 * linear_in * linear_out",
          "gave the layer's FLOPs per token (2 per weight) instead of its parameters",
          ("flop", "2 ×", "factor 2", "twice", "parameters, not", "2·", "double")),
    Wrong(L03, "block_params", "block_params = (d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d)",
          "left out the two LayerNorms",
          ("layernorm", "norm", "gain", "4d", "4·d", "4 × d")),
    Wrong(L03, "block_params", "block_params = (d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d) + 2 * d",
          "gave each LayerNorm only its gain (d), not its gain and bias (2d)",
          ("layernorm", "norm", "bias", "shift", "beta", "two vectors", "gain and bias", "2d", "2·d", "2 × d",
           "4d")),
    Wrong(L03, "block_params", "block_params = (d * 3 * d + 3 * d) + (d * d + d) + 4 * d * d + 4 * d + d + 2 * (2 * d)",
          "counted the MLP as 4d² in all, as the seed does, instead of two d×4d matrices (8d²)",
          ("mlp", "8d", "8·d", "4d²", "two matrices", "4d", "d_ff", "both", "second")),
    Wrong(L03, "interview", "interview = 2 * interview_V * interview_d",
          "counted the tied head as a second matrix",
          TIED),
    Wrong(L03, "embedding_share", "counts = count_params(load_config(share_model))\n"
          "embedding_share = 2 * counts.token_embedding / counts.total",
          "counted the tied head's share on top of the table's",
          TIED + ("head",)),
    Wrong(L03, "embedding_share", "counts = count_params(load_config(share_model))\n"
          "embedding_share = counts.token_embedding / (counts.total - counts.token_embedding)",
          "divided by the rest of the model instead of the whole model",
          ("total", "whole model", "denominator", "divide by the total", "rest", "all parameters")),
    Wrong(L03, "embedding_share", "counts = count_params(load_config(share_model))\n"
          "from embedlab import model_shape\ns = model_shape(load_config(share_model))\n"
          "embedding_share = counts.token_embedding / (s.vocab_size * s.hidden_size + 12 * s.num_layers * s.hidden_size**2)",
          "divided by the rule-of-thumb estimate instead of the exact total",
          ("exact", "count_params", "total", "estimate", "rule of thumb", "12")),
    Wrong(L03, "estimate_gap", "estimate_gap = (V * d + 12 * L * d**2) - exact",
          "subtracted the other way round (estimate − exact)",
          ("sign", "exact − estimate", "exact - estimate", "exact minus", "negative", "order", "other way",
           "reverse")),
    Wrong(L03, "estimate_gap", "estimate_gap = exact - 12 * L * d**2",
          "left the V·d table out of the estimate",
          ("v·d", "token table", "embedding", "v * d", "vocab", "v × d", "table")),
    Wrong(L03, "estimate_gap", "estimate_gap = exact - (V * d + 12 * L * d)",
          "forgot to square d in 12·L·d²",
          ("d²", "d**2", "squared", "square", "d^2")),
    Wrong(L03, "gpt2_params", "def gpt2_params(V, d, L, T):\n"
          "    return V * d + L * (12 * d * d + 13 * d) + 2 * d",
          "left out the learned position table",
          ("position", "t × d", "t*d", "t·d", "t * d", "context", "wpe")),
    Wrong(L03, "gpt2_params", "def gpt2_params(V, d, L, T):\n"
          "    return V * d + T * d + L * (12 * d * d + 13 * d)",
          "left out the final LayerNorm",
          ("final", "layernorm", "ln_f", "2d", "final norm", "norm")),
    Wrong(L03, "gpt2_params", "def gpt2_params(V, d, L, T):\n"
          "    return 2 * V * d + T * d + L * (12 * d * d + 13 * d) + 2 * d",
          "counted the tied head as its own V × d matrix",
          TIED),
    Wrong(L03, "gpt2_params", "def gpt2_params(V, d, L, T):\n"
          "    return V * d + T * d + (L + 1) * (12 * d * d + 13 * d) + 2 * d",
          "counted one block too many (L + 1)",
          ("off by one", "l blocks", "number of blocks", "one block too many", "l + 1", "extra block",
           "one block"),
          ("counted twice",)),

    # ------------------------------------------------------------------ 04 modern blocks
    Wrong(L04, "attn_layer", "attn_layer = 4 * d * d",
          "counted four d×d matrices, ignoring that k and v have only h_kv heads",
          ("grouped", "h_kv", "key/value heads", "kv heads", "gqa", "fewer", "key-value")),
    Wrong(L04, "attn_layer", "attn_layer = 4 * d * h_kv * head_dim",
          "gave the q and o projections h_kv heads too",
          ("query", "q and o", "h query", "output", "h heads", "q ", "o ")),
    Wrong(L04, "attn_layer", "attn_layer = d * h * head_dim + d * h_kv * head_dim + h * head_dim * d",
          "counted one key/value projection instead of two (k and v)",
          ("k and v", "both", "two", "2 ×", "value", "key", "2·")),
    Wrong(L04, "mlp_layer", "mlp_layer = 2 * d * d_ff",
          "counted two MLP matrices, forgetting SwiGLU's gate",
          ("three", "3", "gate", "swiglu")),
    Wrong(L04, "mlp_layer", "mlp_layer = 3 * d * d_ff + 2 * d_ff + d",
          "added biases to an MLP that has none",
          BIAS + ("no bias",)),
    Wrong(L04, "mlp_layer", "mlp_layer = 8 * d * d",
          "used GPT-2's 8d² MLP instead of SwiGLU's three d×d_ff matrices",
          ("swiglu", "three", "gate", "d_ff", "intermediate", "3 ×", "3·")),
    Wrong(L04, "vocab_share", "c = count_params(load_config(share_model))\n"
          "vocab_share = c.token_embedding / c.total",
          "counted the token table but not the untied output head",
          ("head", "lm_head", "both", "untied", "output")),
    Wrong(L04, "vocab_share", "c = count_params(load_config(share_model))\n"
          "vocab_share = (c.token_embedding + c.lm_head) / (c.total - c.token_embedding - c.lm_head)",
          "divided by the rest of the model instead of the whole model",
          ("total", "denominator", "whole", "rest", "all parameters")),
    Wrong(L04, "padding_params", "padding_params = -(-V // pad_multiple) * pad_multiple - V",
          "gave the number of padded rows, not the parameters they hold",
          ("d", "width", "rows ×", "times d", "parameters, not rows", "hidden", "× d", "* d", "row")),
    Wrong(L04, "padding_params", "padding_params = -(-V // pad_multiple) * pad_multiple * d",
          "gave the whole padded table instead of what the padding adds",
          ("only the added", "difference", "padded rows", "subtract", "extra", "minus", "whole")),
    Wrong(L04, "padding_params", "padding_params = (V // pad_multiple * pad_multiple - V) * d",
          "rounded V down to a multiple instead of up",
          ("round up", "down", "ceil", "next multiple", "negative", "up to")),
    Wrong(L04, "llama_params", "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    head_dim = d // h\n    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + (0 if tied else V * d)",
          "left out the final RMSNorm",
          ("final", "norm", "+ d")),
    Wrong(L04, "llama_params", "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    head_dim = d // h\n    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 3 * d * d_ff + d\n"
          "    return V * d + L * layer + d + (0 if tied else V * d)",
          "gave each layer one RMSNorm instead of two",
          ("two", "norm", "rmsnorm", "2d", "2·d", "per layer", "2 × d")),
    Wrong(L04, "llama_params", "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    layer = 4 * d * d + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + d + (0 if tied else V * d)",
          "counted full multi-head attention (4d²), ignoring grouped-query k and v",
          ("grouped", "h_kv", "kv", "key/value", "gqa", "fewer")),
    Wrong(L04, "llama_params", "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    head_dim = d // h\n    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + d + (V * d if tied else 0)",
          "added the head's V × d when tied and not when untied (the condition inverted)",
          ("tied", "invert", "untied", "condition", "the other way", "swapped", "reverse")),
    Wrong(L04, "llama_params", "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    head_dim = d // h\n    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 2 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + d + (0 if tied else V * d)",
          "counted two MLP matrices instead of SwiGLU's three",
          ("three", "gate", "swiglu", "3")),

    # ------------------------------------------------------------------ 05 weight tying
    Wrong(L05, "tied_count", "tied_count = untied - 2 * V * d",
          "removed both the head and the table when tying",
          ("once", "one", "table stays", "only the head", "head", "keeps", "still")),
    Wrong(L05, "tied_count", "tied_count = untied",
          "thought tying leaves the count unchanged",
          ("head", "subtract", "remove", "saves", "v × d", "v*d", "v·d", "fewer", "less")),
    Wrong(L05, "grad_E", "grad_E = dlogits.T @ x",
          "kept the head's gradient and forgot the lookup's",
          ("lookup", "input", "both paths", "dx0", "sum of both", "two", "both")),
    Wrong(L05, "grad_E", "grad_E = dlogits.T @ x\ngrad_E[ids] += dx0",
          "added the lookup gradient with grad_E[ids] += dx0, losing a repeated id's second contribution",
          REPEATS),
    Wrong(L05, "grad_E", "grad_E = np.zeros((V, d))\nnp.add.at(grad_E, ids, dx0)",
          "kept the lookup's gradient and forgot the head's",
          ("head", "output", "logits", "both paths", "dlogits", "both", "two")),
    Wrong(L05, "grad_E", "grad_E = dlogits.T @ x\nnp.add.at(grad_E, ids, dx0)\ngrad_E = grad_E / 2",
          "averaged the two paths instead of adding them",
          ("sum", "add", "not the mean", "average", "half", "/ 2", "divide")),
    Wrong(L05, "count_unique", "def count_unique(storage, sizes):\n    return int(sizes.sum())",
          "summed every entry, counting a shared storage twice",
          TIED + ("each storage", "unique", "storage")),
    Wrong(L05, "count_unique", "def count_unique(storage, sizes):\n"
          "    return int(sizes[np.unique(storage)].sum())",
          "indexed sizes by the storage ids instead of by the entries' positions",
          ("indexed", "index by", "position", "storage id", "first occurrence", "return_index", "entry",
           "entries")),
    Wrong(L05, "count_unique", "def count_unique(storage, sizes):\n"
          "    s, c = np.unique(storage, return_counts=True)\n    shared = set(s[c > 1].tolist())\n"
          "    return int(sum(n for st, n in zip(storage.tolist(), sizes.tolist()) if st not in shared))",
          "left shared storages out entirely instead of counting them once",
          ("once", "drop", "shared", "at least once", "left out", "both", "each storage")),
    Wrong(L05, "count_unique", "def count_unique(storage, sizes):\n    storage.sort()\n"
          "    seen = {}\n    for s, n in zip(storage.tolist(), sizes.tolist()):\n        seen[s] = n\n"
          "    return sum(seen.values())",
          "sorted storage in place, so it no longer lines up with sizes (and the caller's array changed)",
          ("sort", "in place", "order", "modif", "align", "line up", "pair", "changes the input")),
    Wrong(L05, "ties", "ties = 'llama-3-8b'",
          "picked Llama-3-8B, which does not tie",
          ("tie_word_embeddings", "untied", "does not tie", "own head", "separate", "config", "small")),
    Wrong(L05, "ties", "ties = 'Llama 3.2 1B'",
          "named the right model but not spelled as in candidates",
          ("spell", "candidates", "as in", "exactly", "one of", "name")),
    Wrong(L05, "state_dict_sum", "state_dict_sum = count_params(load_config(tied_model)).total",
          "gave the exact count, not the naive sum that lists the tied table twice",
          ("twice", "two names", "both entries", "counted twice", "double", "naive", "both names")),

    # ------------------------------------------------------------------ 06 params vs compute
    Wrong(L06, "head_flops", "head_flops = d * V",
          "counted one FLOP per weight",
          TWO_FLOPS),
    Wrong(L06, "head_flops", "head_flops = 2 * d * V * T",
          "priced the head for T positions instead of one",
          ("one position", "per position", "t ", "once", "single", "one")),
    Wrong(L06, "lookup_flops", "lookup_flops = d",
          "counted copying the d numbers of the row as d FLOPs",
          ("copy", "no multipl", "0", "zero", "no arithmetic", "free", "nothing")),
    Wrong(L06, "kaplan_n", "kaplan_n = counts.total - counts.token_embedding",
          "took out the token table but kept the untied head",
          ("head", "lm_head", "untied", "output")),
    Wrong(L06, "kaplan_n", "kaplan_n = counts.total",
          "gave the total, not the non-embedding count",
          ("embedding", "token table", "non-embedding", "subtract", "except", "head")),
    Wrong(L06, "head_share_training", "head_share_training = c.head / (c.input + c.blocks + c.head)",
          "left attention over the context out of the pass",
          ("attention", "context", "t(t+1)/2", "keys", "attention_per_key")),
    Wrong(L06, "head_share_training",
          "attention = c.attention_per_key * T * T\n"
          "total = T * (c.input + c.blocks + c.head) + attention\nhead_share_training = T * c.head / total",
          "counted T² keys instead of T(T+1)/2",
          ("t(t+1)/2", "t²", "triangle", "causal", "t + 1", "t*(t+1)", "t × (t + 1)")),
    Wrong(L06, "head_share_training",
          "attention = c.attention_per_key * T * (T + 1) // 2\n"
          "total = T * (c.input + c.blocks) + attention + c.head\nhead_share_training = c.head / total",
          "ran the head once, as when reading a prompt, instead of at every position",
          ("every position", "t times", "training", "all positions", "each position")),
    Wrong(L06, "head_share_prompt",
          "attention = c.attention_per_key * T * (T + 1) // 2\n"
          "total = T * (c.input + c.blocks + c.head) + attention\nhead_share_prompt = T * c.head / total",
          "ran the head at every position, as in training",
          ("once", "last position", "one position", "only the last", "single")),
    Wrong(L06, "head_share_prompt",
          "head_share_prompt = c.head / (c.input + c.blocks + c.head + c.attention_per_key * T)",
          "ran the lookup and blocks for the last token only, not for all T positions",
          ("t times", "every position", "blocks", "lookup and blocks", "all positions", "each position"),
          ("not t²", "head runs once, not", "not t times")),
    Wrong(L06, "head_share_prompt",
          "head_share_prompt = c.head / (T * (c.input + c.blocks) + c.head)",
          "left attention over the context out",
          ("attention", "context", "t(t+1)/2", "keys", "attention_per_key")),
    Wrong(L06, "forward_flops_per_token", "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + 2 * d * V",
          "counted the blocks' weights once, not twice (forgot the 2 FLOPs per weight)",
          TWO_FLOPS + ("block",), ("head counted twice",)),
    Wrong(L06, "forward_flops_per_token", "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d",
          "left the head out",
          ("head", "d × v", "logits", "vocabulary", "2·d·v", "d·v")),
    Wrong(L06, "forward_flops_per_token", "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 2 * d * V",
          "left attention over the context out",
          ("attention", "context", "4·context·d", "4 × context")),
    Wrong(L06, "forward_flops_per_token", "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * context * d + 2 * d * V",
          "counted attention over the context for one block instead of every block",
          ("per block", "every block", "l ×", "each of the l", "times l", "l·", "each block", "all l")),
    Wrong(L06, "forward_flops_per_token", "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * (4 * d * d + 8 * d * d) + 4 * L * context * d + 2 * d * V",
          "assumed the MLP is 4d wide instead of using d_ff",
          ("d_ff", "intermediate", "4d", "not 4·d", "given", "mlp")),
    Wrong(L06, "flop_rate", "flop_rate = 6 * N * D / GPU_HOURS",
          "divided by hours, not seconds",
          ("3600", "second", "hour", "per second")),
    Wrong(L06, "flop_rate", "flop_rate = 6 * N * D / (GPU_HOURS * 3600) / 1e12",
          "gave TFLOP/s, not FLOP/s",
          ("tflop", "1e12", "flop/s, not", "unit", "10¹²", "tera")),
    Wrong(L06, "active_params", "active_params = counts.total - moe_layers * (n_experts - k) * 2 * d * d_ff",
          "took an expert as two d × d_ff matrices instead of three",
          ("three", "3", "gate", "swiglu")),
    Wrong(L06, "active_params", "active_params = counts.total - moe_layers * k * 3 * d * d_ff",
          "subtracted the k experts a token uses instead of the ones it skips",
          ("skip", "n_experts - k", "not routed", "the ones it uses", "unused experts", "n − k", "n - k",
           "other experts")),
    Wrong(L06, "active_params", "active_params = counts.total * k // n_experts",
          "scaled the whole model by k/n_experts, though attention and tables are used by every token",
          ("attention", "embedding", "shared", "only the experts", "everything else", "not all", "every token",
           "rest")),
    Wrong(L06, "active_params", "active_params = counts.total - (n_experts - k) * 3 * d * d_ff",
          "took away the skipped experts of one layer instead of every expert layer",
          ("every layer", "moe_layers", "layers", "per layer", "each layer", "all layers")),

    # ------------------------------------------------------------------ 07 memory
    Wrong(L07, "weights_gb_4bit", "weights_gb_4bit = N * 4 / 1e9",
          "took 4 bits as 4 bytes per parameter",
          ("0.5", "half a byte", "4 bits", "bits", "bytes per", "byte")),
    Wrong(L07, "weights_gb_4bit", "weights_gb_4bit = N * 0.5 / 2**30",
          "gave GiB instead of GB",
          GB_GIB),
    Wrong(L07, "adam_parts", "adam_parts = np.array([4, 4, 4, 8]) * n_params",
          "stored weights and gradients in fp32 instead of fp16",
          ("fp16", "2 bytes", "half", "weights", "gradients")),
    Wrong(L07, "adam_parts", "adam_parts = np.array([2, 2, 4, 4]) * n_params",
          "counted one Adam moment instead of two",
          ("two moments", "m and v", "8", "both moments", "moment")),
    Wrong(L07, "adam_parts", "adam_parts = np.array([2, 2, 0, 8]) * n_params",
          "left out the fp32 master copy",
          ("master",)),
    Wrong(L07, "adam_parts", "adam_parts = np.array([2, 2, 8, 4]) * n_params",
          "swapped the master copy and the moments",
          ("order", "master", "moments", "swap", "position")),
    Wrong(L07, "kv_bytes_per_token", "kv_bytes_per_token = 2 * L * h * head_dim * 2",
          "cached h query heads instead of the h_kv key/value heads",
          ("h_kv", "key/value heads", "kv heads", "grouped", "key-value heads", "num_key_value_heads")),
    Wrong(L07, "kv_bytes_per_token", "kv_bytes_per_token = L * h_kv * head_dim * 2",
          "cached the keys but forgot the values (no factor 2)",
          ("k and v", "keys and values", "both", "two tensors", "2 ×", "value", "factor 2", "twice")),
    Wrong(L07, "kv_bytes_per_token", "kv_bytes_per_token = 2 * L * h_kv * head_dim * 4",
          "stored the cache in fp32's 4 bytes instead of cache_precision",
          ("bf16", "2 bytes", "precision", "cache_precision", "bytes per")),
    Wrong(L07, "gqa_saving_gib", "full = 2 * L * h * head_dim * 2 * context\ngrouped = 2 * L * h_kv * head_dim * 2 * context\n"
          "gqa_saving_gib = (full - grouped) / 1e9",
          "gave GB instead of GiB",
          GB_GIB),
    Wrong(L07, "gqa_saving_gib", "gqa_saving_gib = 2 * L * h * head_dim * 2 * context / 2**30",
          "gave the full multi-head cache instead of the saving",
          ("saving", "difference", "minus", "grouped", "subtract", "saves")),
    Wrong(L07, "gqa_saving_gib", "gqa_saving_gib = 2 * L * h_kv * head_dim * 2 * context / 2**30",
          "gave the grouped cache instead of the saving",
          ("saving", "difference", "full", "one key/value head per query", "minus", "saves", "subtract")),
    Wrong(L07, "kv_cache_gb", "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / 2**30",
          "returned GiB instead of GB",
          GB_GIB),
    Wrong(L07, "kv_cache_gb", "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return 2 * L * h_kv * head_dim * bytes_per_number * context / 1e9",
          "forgot to multiply by the batch",
          ("batch", "sequences")),
    Wrong(L07, "kv_cache_gb", "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return float(2 * L * h_kv * head_dim * bytes_per_number * context * batch // 1e9)",
          "floor-divided by 1e9, dropping the fraction of a GB",
          ("floor", "integer division", "//", "round", "float", "fraction", "truncat")),
    Wrong(L07, "kv_cache_gb", "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return 2 * L * h_kv * head_dim * 2 * context * batch / 1e9",
          "assumed 2 bytes per number instead of using bytes_per_number",
          ("bytes_per_number", "precision", "argument", "bytes per number", "bf16")),
    Wrong(L07, "max_batch", "max_batch = int(memory // per_sequence)",
          "forgot that the weights take part of the GPU",
          ("weights", "subtract", "model")),
    Wrong(L07, "max_batch", "max_batch = round((memory - weights) / per_sequence)",
          "rounded to the nearest whole number instead of down",
          ("whole", "floor", "round down", "fit", "rounded up", "//", "partial")),
    Wrong(L07, "max_batch", "max_batch = int((memory - weights) // per_sequence) + 1",
          "added one sequence too many (counted a partial sequence)",
          ("floor", "round down", "whole", "fit", "ceil", "one too many", "off by one", "+ 1", "partial")),

    # ------------------------------------------------------------------ 08 vocabulary size
    Wrong(L08, "embedding_params", "embedding_params = 2 * V_big * d",
          "counted the tied head as a second table",
          TIED),
    Wrong(L08, "embedding_params", "embedding_params = V_small * d",
          "used the small vocabulary instead of V_big",
          ("v_big", "256", "bigger", "vocabulary", "big")),
    Wrong(L08, "embedding_share", "embedding_share = table / rest",
          "divided by the rest of the model instead of table + rest",
          ("total", "whole", "table + rest", "denominator", "all")),
    Wrong(L08, "embedding_share", "embedding_share = 2 * table / (2 * table + rest)",
          "counted the tied head as a second table",
          TIED),
    Wrong(L08, "extra_head_flops", "extra_head_flops = d * (V_big - V_small)",
          "counted one FLOP per head weight",
          TWO_FLOPS),
    Wrong(L08, "extra_head_flops", "extra_head_flops = 2 * d * V_big",
          "gave the big head's cost instead of how much more it costs",
          ("more", "difference", "minus", "extra", "v_small", "subtract")),
    Wrong(L08, "break_even_r", "break_even_r = (blocks + 2 * d * V_big) / (blocks + 2 * d * V_small)",
          "gave the ratio upside down (big cost over small cost)",
          ("inverse", "upside", "flip", "small over big", "< 1", "other way", "reciprocal", "invert",
           "below 1", "less than 1")),
    Wrong(L08, "break_even_r", "break_even_r = V_small / V_big",
          "left the blocks out, comparing the heads only",
          ("blocks", "the rest", "2·d·v", "per token", "whole token")),
    Wrong(L08, "tokens_per_word", "def tokens_per_word(counts, n_tokens):\n    return float(np.mean(n_tokens))",
          "averaged the token lengths without weighting them by the word counts",
          ("weight", "counts", "running", "how often", "frequenc")),
    Wrong(L08, "tokens_per_word", "def tokens_per_word(counts, n_tokens):\n"
          "    return float(np.sum(n_tokens) / np.sum(counts))",
          "divided the total token lengths by the total count without multiplying by the counts",
          ("weight", "multiply", "counts ×", "counts *", "times", "how often")),
    Wrong(L08, "tokens_per_word", "def tokens_per_word(counts, n_tokens):\n"
          "    c, n = np.asarray(counts), np.asarray(n_tokens)\n    return float((c * n).sum() // c.sum())",
          "used integer division, dropping the fraction",
          ("integer division", "//", "floor", "float", "fraction", "truncat", "round")),
    Wrong(L08, "tokens_per_word", "def tokens_per_word(counts, n_tokens):\n"
          "    return float(sum(counts * n_tokens) / sum(counts))",
          "multiplied the inputs directly, which fails when they come as lists",
          ("list", "np.asarray", "array", "convert", "raise", "error", "typeerror")),
    Wrong(L08, "hindi_single_token_share", "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top_hindi)",
          "gave the number of single-token words instead of a fraction",
          FRACTION + ("count", "divide", "n_top")),
    Wrong(L08, "hindi_single_token_share",
          "top = list(other)[:n_top]\n"
          "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top) / len(top)",
          "measured the partner language's words instead of the Hindi ones",
          ("hindi", "partner", "language", "top_hindi")),
    Wrong(L08, "hindi_r", "def per_word(t):\n"
          "    return sum(len(t.encode(' ' + w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
          "hindi_r = per_word(gpt2) / per_word(cl100k)",
          "divided GPT-2's tokens per word by cl100k's (upside down)",
          ("inverse", "flip", "cl100k over gpt-2", "other way", "upside", "reciprocal", "invert", "cl100k's")),
    Wrong(L08, "hindi_r", "def per_word(t):\n"
          "    return sum(len(t.encode(w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
          "hindi_r = per_word(cl100k) / per_word(gpt2)",
          "encoded the words without the leading space",
          ("space", '" " +', "' ' +", "after a space", "running text", "leading")),
    Wrong(L08, "hindi_r", "def per_word(t):\n"
          "    return np.mean([len(t.encode(' ' + w)) for w in hindi])\n"
          "hindi_r = per_word(cl100k) / per_word(gpt2)",
          "averaged over distinct words without weighting them by their counts",
          ("weight", "count", "running", "frequenc")),
    Wrong(L08, "hindi_r", "kept = {w: n for w, n in hindi.items() if not any(ch.isdigit() for ch in w)}\n"
          "def per_word(t):\n"
          "    return sum(len(t.encode(' ' + w)) * n for w, n in kept.items()) / sum(kept.values())\n"
          "hindi_r = per_word(cl100k) / per_word(gpt2)",
          "left out the number shapes as the lesson did, though the question keeps them",
          ("number", "digit", "keep all", "'00'", "all n_words", "every word", "all entries")),

    # ------------------------------------------------------------------ 09 what rows learn
    Wrong(L09, "n_params", "n_params = V * d + (2 * d) * d + d",
          "left out the untied output matrix U",
          ("untied", "u", "output matrix", "own", "separate", "head")),
    Wrong(L09, "n_params", "n_params = V * d + d * d + d + V * d",
          "made W d × d, as if one context row went in",
          ("two context", "2d", "2·d", "side by side", "context rows", "2 × d", "two rows")),
    Wrong(L09, "n_params", "n_params = V * d + (2 * d) * d + V * d",
          "left out the bias b",
          BIAS),
    Wrong(L09, "embedding_grad", "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    dE = np.zeros((vocab_size, dx0.shape[-1]))\n    dE[contexts] += dx0\n    return dE",
          "used fancy-index += , losing repeated tokens' contributions",
          REPEATS),
    Wrong(L09, "embedding_grad", "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    dE = np.zeros((vocab_size, dx0.shape[-1]))\n    np.add.at(dE, contexts[:, 0], dx0[:, 0])\n    return dE",
          "added the first context slot only",
          ("slot", "both", "every slot", "context", "all slots", "k", "second")),
    Wrong(L09, "embedding_grad", "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    d = dx0.shape[-1]\n    dE = np.zeros((vocab_size, d))\n"
          "    np.add.at(dE, contexts.ravel(), dx0.transpose(1, 0, 2).reshape(-1, d))\n    return dE",
          "flattened the ids and the gradients in different orders, so rows go to the wrong tokens",
          ("order", "align", "reshape", "flatten", "transpose", "pair", "ravel", "match")),
    Wrong(L09, "gap", "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
          "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i <= j]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()",
          "included each word's similarity with itself in the within-group mean",
          ("different", "self", "diagonal", "itself", "i < j", "pairs", "56")),
    Wrong(L09, "gap", "C = E @ E.T\n"
          "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()",
          "used dot products instead of cosines",
          NORM + ("dot product",)),
    Wrong(L09, "gap", "unit = E / np.linalg.norm(E, axis=0, keepdims=True)\nC = unit @ unit.T\n"
          "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()",
          "normalised the columns (axis=0) instead of the rows",
          ROW_AXIS),
    Wrong(L09, "gap", "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
          "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
          "gap = C[np.ix_(animals, vehicles)].mean() - np.mean(within)",
          "subtracted within from across (the sign flipped)",
          ("sign", "minus", "order", "other way", "negative", "reverse", "within minus", "within −")),
    Wrong(L09, "cos_cat", "cos_cat = E[animals + vehicles] @ E[cat]",
          "gave dot products instead of cosines",
          NORM + ("dot product",)),
    Wrong(L09, "cos_cat", "rows = E[animals + vehicles]\n"
          "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=0) * np.linalg.norm(E[cat]))",
          "took the norms of the columns (axis=0) instead of the rows; it runs because the block is 16 × 16",
          ROW_AXIS),
    Wrong(L09, "cos_cat", "rows = E[vehicles + animals]\n"
          "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))",
          "put the vehicles first",
          ORDER + ("animals first", "animals + vehicles")),
    Wrong(L09, "rotation_changes_cosines", 'rotation_changes_cosines = "yes"',
          "thought rotating the columns changes the cosines",
          ("orthogonal", "rotation", "length", "angle", "preserv", "qᵀ", "dot product", "q q", "unchanged",
           "no")),

    # ------------------------------------------------------------------ 10 glitch tokens
    Wrong(L10, "padding_rows", "padding_rows = V % pad_multiple",
          "gave the remainder of V instead of the rows up to the next multiple",
          ("round up", "up", "next multiple", "remainder", "ceil", "missing to")),
    Wrong(L10, "padding_rows", "padding_rows = -(-V // pad_multiple) * pad_multiple",
          "gave the padded size instead of the padding rows",
          ("padding", "padded size", "difference", "minus v", "belong", "subtract", "minus", "only the",
           "added")),
    Wrong(L10, "invalid_bytes", "invalid_bytes = 128",
          "counted every byte from 0x80 up as never used",
          ("continuation", "lead", "0x80", "multi-byte", "appear", "used", "two-byte")),
    Wrong(L10, "invalid_bytes", "invalid_bytes = 2",
          "counted only 0xC0 and 0xC1, forgetting 0xF5 to 0xFF",
          ("0xf5", "f5", "0xff", "0x10ffff", "u+10ffff", "4-byte", "four-byte", "above")),
    Wrong(L10, "invalid_bytes", "invalid_bytes = 11",
          "counted 0xF5 to 0xFF but not the overlong leads 0xC0 and 0xC1",
          ("0xc0", "c0", "c1", "overlong", "0xc1")),
    Wrong(L10, "unused_score", "def unused_score(M, reference_ids):\n    mean = M.mean(axis=0)\n"
          "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))",
          "took the mean of all rows instead of the reference rows",
          ("reference", "reference_ids", "the rows given", "m[reference_ids]")),
    Wrong(L10, "unused_score", "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0)\n"
          "    return M @ mean / (np.linalg.norm(M, axis=0) * np.linalg.norm(mean))",
          "took the norms along the wrong axis (columns)",
          ROW_AXIS),
    Wrong(L10, "unused_score", "def unused_score(M, reference_ids):\n    R = M[reference_ids]\n"
          "    C = (M @ R.T) / (np.linalg.norm(M, axis=1)[:, None] * np.linalg.norm(R, axis=1)[None, :])\n"
          "    return C.mean(axis=1)",
          "averaged the cosines to each reference row instead of taking the cosine to their mean",
          ("mean of the rows", "cosine to the mean", "mean first", "average row", "mean row", "mean vector")),
    Wrong(L10, "never_cos", "rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
          "never_cos = (unit @ unit.T).mean()",
          "averaged the whole similarity matrix, diagonal included",
          ("different", "diagonal", "itself", "pairs", "self", "k=1", "triu")),
    Wrong(L10, "never_cos", "res = list(corpus.groups['reserved'])\nrows = run.model.E[res]\n"
          "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
          "never_cos = (unit @ unit.T)[np.triu_indices(len(res), k=1)].mean()",
          "left the glitch word out, using the reserved rows only",
          ("glitch", "never", "n_reserved + 1", "all never-seen", "len(never)")),
    Wrong(L10, "never_cos", "rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=0, keepdims=True)\n"
          "never_cos = (unit @ unit.T)[np.triu_indices(len(never), k=1)].mean()",
          "normalised the columns instead of the rows",
          ROW_AXIS),
    Wrong(L10, "top7", "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
          "order = [i for i in np.argsort(scores, kind='stable') if i not in reference]\ntop7 = np.array(order[:7])",
          "sorted the scores from lowest to highest",
          ("highest", "descending", "order", "reverse", "-scores", "largest", "lowest")),
    Wrong(L10, "top7", "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
          "top7 = np.argsort(-scores, kind='stable')[:7]",
          "did not leave the reference rows out",
          ("reference", "leave out", "exclude", "left out", "leave the four")),
    Wrong(L10, "top7", "from embedlab import unused_scores\nref = list(corpus.groups['reserved'])\n"
          "scores = unused_scores(run.model.E, ref)\n"
          "order = [i for i in np.argsort(-scores, kind='stable') if i not in ref]\ntop7 = np.array(order[:7])",
          "used every reserved row as the reference instead of the first four",
          ("first four", "reference", "four", "[:4]")),
    Wrong(L10, "partial_tokens", "partial_tokens = 0\nfor b in ordinary:\n    if len(b) == 1:\n        continue\n"
          "    try:\n        b.decode('utf-8')\n    except UnicodeDecodeError:\n        partial_tokens += 1",
          "skipped the single-byte tokens",
          ("single byte", "0x80", "one byte", "single bytes", "count them", "include", "single-byte")),
    Wrong(L10, "partial_tokens", "partial_tokens = 0\nfor b in ordinary:\n    try:\n        b.decode('utf-8', errors='ignore')\n"
          "    except UnicodeDecodeError:\n        partial_tokens += 1",
          "decoded with errors='ignore', so nothing ever raises",
          ("errors", "ignore", "raise", "strict", "0")),
    Wrong(L10, "partial_tokens", "partial_tokens = 0\nfor b in ordinary:\n    try:\n        b.decode('utf-8')\n"
          "        partial_tokens += 1\n    except UnicodeDecodeError:\n        pass",
          "counted the tokens that decode instead of those that do not",
          ("decode", "not decode", "raise", "complement", "invert", "the others", "fail")),

    # ------------------------------------------------------------------ 11 size a model
    Wrong(L11, "design", "design = llama_config(vocab_size=16000, d=1024, num_layers=24, num_heads=16,\n"
          "                      num_kv_heads=4, d_ff=4096, tied=True)",
          "chose a 16,000-token vocabulary, below the job's minimum",
          ("vocab", "min_vocab_size", "32000", "32,000", "vocabulary")),
    Wrong(L11, "design", "design = llama_config(vocab_size=64000, d=1024, num_layers=24, num_heads=8,\n"
          "                      num_kv_heads=2, d_ff=4096, tied=True)",
          "chose 8 heads of 128 values instead of heads head_dim wide",
          ("head_dim", "heads", "d / h", "64", "head width", "num_heads")),
    Wrong(L11, "design", "design = llama_config(vocab_size=64000, d=1024, num_layers=24, num_heads=16,\n"
          "                      num_kv_heads=16, d_ff=4096, tied=True)",
          "gave every query head its own key/value head, so the KV cache breaks the memory budget",
          ("memory", "serving", "kv", "cache", "gb")),
    Wrong(L11, "design", "design = llama_config(vocab_size=64000, d=1024, num_layers=24, num_heads=16,\n"
          "                      num_kv_heads=4, d_ff=6144, tied=True)",
          "widened the MLP to 6d, which breaks the compute budget",
          ("compute", "flops", "training", "train")),
    Wrong(L11, "design_params", "design_params = count_params(design).total + design['vocab_size'] * design['hidden_size']",
          "counted the tied head as a second table",
          TIED),
    Wrong(L11, "design_params", "design_params = (design['vocab_size'] * design['hidden_size']\n"
          "                 + 12 * design['num_hidden_layers'] * design['hidden_size'] ** 2)",
          "used the GPT-2 rule of thumb V·d + 12·L·d² instead of counting",
          ("exact", "count_params", "estimate", "swiglu", "rule of thumb", "count")),
    Wrong(L11, "design_serving_gb", "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
          "                                   batch=BUDGET.batch, kv=BUDGET.kv)['weights'] / GB",
          "gave the weights only, without the KV cache",
          ("kv", "cache", "together", "both")),
    Wrong(L11, "design_serving_gb", "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
          "                                   batch=BUDGET.batch, kv=BUDGET.kv)['total'] / 2**30",
          "gave GiB instead of GB",
          GB_GIB),
    Wrong(L11, "design_serving_gb", "design_serving_gb = serving_memory(design, weights='bf16', context=BUDGET.context,\n"
          "                                   batch=BUDGET.batch, kv=BUDGET.kv)['total'] / GB",
          "served the weights in bf16 instead of the job's precision",
          ("int4", "precision", "weights", "0.5", "bf16")),
    Wrong(L11, "design_train_flops", "design_train_flops = 6 * count_params(design).total * D",
          "used the rule of thumb 6·N·D instead of training_flops",
          ("training_flops", "attention", "rule of thumb", "6nd", "exact", "6·n·d", "head")),
    Wrong(L11, "design_train_flops", "design_train_flops = training_flops(design, T_train).total",
          "gave one sequence's FLOPs, not the whole run's",
          ("sequences", "train_tokens // train_context", "number of sequences", "times", "d // t", "one sequence")),
    Wrong(L11, "design_train_flops", "design_train_flops = training_flops(design, T_train).total * D",
          "multiplied one sequence's FLOPs by the tokens instead of the number of sequences",
          ("sequences", "per sequence", "train_context", "divide", "number of sequences", "// ")),
    Wrong(L11, "tightest_budget",
          "used = {'parameters': design_params / BUDGET.max_params,\n"
          "        'memory': design_serving_gb / BUDGET.max_serving_gb,\n"
          "        'compute': design_train_flops / BUDGET.max_train_flops}\n"
          "tightest_budget = min(used, key=used.get)",
          "picked the budget with the smallest fraction used",
          ("largest", "most", "max", "closest", "fraction", "least", "smallest")),
    Wrong(L11, "other_tying_params", "other_tying_params = design_params",
          "gave the design's own count, as if tying changed nothing",
          ("flip", "tying", "head", "v × d", "v·d", "untied", "tied")),
    Wrong(L11, "other_tying_params", "other_tying_params = design_params - design['vocab_size'] * design['hidden_size']",
          "subtracted the head though the design is tied, so untying adds it",
          ("untied", "adds", "direction", "more", "tied", "other way", "plus", "add")),

    # ------------------------------------------------------------------ 12 change a vocabulary
    Wrong(L12, "added_params", "added_params = n_new * d * 2",
          "counted the new rows twice, once for the tied head",
          TIED),
    Wrong(L12, "added_params", "added_params = n_new",
          "counted one parameter per new token instead of a row",
          ("d", "width", "row", "parameters", "hidden_size", "× d")),
    Wrong(L12, "added_params", "from embedlab.calculator import calculate\n"
          "added_params = calculate(vocab_model, vocab_size=max(V, n_tok + n_new)).total",
          "gave the resized model's total instead of what it gains",
          ("difference", "gain", "minus", "before", "subtract", "total")),
    Wrong(L12, "padding_rows", "padding_rows = padded_size(V, pad_multiple) - V",
          "padded the old table, ignoring the new tokens",
          ("new", "n_new", "t + n_new", "resized", "question 1")),
    Wrong(L12, "padding_rows", "padding_rows = padded_size(max(V, n_tok + n_new), pad_multiple)",
          "gave the padded size instead of the padding rows",
          ("minus", "padding", "subtract", "belong", "difference", "only the")),
    Wrong(L12, "padding_rows", "padding_rows = padded_size(max(V, n_tok + n_new), pad_multiple) - n_tok",
          "counted the new tokens' rows as padding",
          ("new tokens", "own", "n_new", "t + n_new", "belong")),
    Wrong(L12, "p_new_token", "grown = resize_tinylm(run.model, n_new, 'zeros')\n"
          "p_new_token = float(np.exp(log_softmax(grown.logits(context)))[0][corpus.vocab_size])",
          "started the new rows at zero instead of the mean",
          ("mean", "init", "zeros")),
    Wrong(L12, "p_new_token", "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p_new_token = float(grown.logits(context)[0][corpus.vocab_size])",
          "gave the new token's logit instead of its probability",
          ("probability", "softmax", "exp", "logit")),
    Wrong(L12, "p_new_token", "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p_new_token = float(np.exp(log_softmax(grown.logits(context)))[0][corpus.vocab_size - 1])",
          "read the last old token's probability (off by one) instead of the first new one's",
          ("id", "corpus.vocab_size", "first new", "off by one", "index", "- 1")),
    Wrong(L12, "kl_mean", "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).sum())",
          "summed the KL over positions instead of averaging",
          ("mean", "average", "sum")),
    Wrong(L12, "kl_mean", "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p_old = np.exp(log_softmax(run.model.logits(contexts)))\np_new = np.exp(log_softmax(grown.logits(contexts)))\n"
          "kl_mean = float(kl_divergence(p_old, p_new).mean())",
          "passed probabilities to kl_divergence, which takes logits",
          ("logits", "probabilit", "softmax", "takes logits")),
    Wrong(L12, "trimmed_rows", "trimmed_rows = len(used) + 256 + 1",
          "added the three sets' sizes, counting tokens in more than one set twice",
          ("overlap", "union", "twice", "already", "set", "double", "both")),
    Wrong(L12, "trimmed_rows", "trimmed_rows = len(used)",
          "kept only the words' tokens, forgetting the byte tokens and end-of-text",
          ("byte", "256", "end-of-text", "eot")),
    Wrong(L12, "trimmed_rows", "trimmed_rows = len(used | set(range(256)))",
          "forgot the end-of-text token",
          ("end-of-text", "eot", "endoftext", "special")),
    Wrong(L12, "saved_params", "saved_params = (tok.n_vocab - n_keep) * d_trim * 2",
          "counted the removed rows twice though the head is tied",
          TIED),
    Wrong(L12, "saved_params", "saved_params = n_keep * d_trim",
          "gave the kept table's size instead of what trimming removes",
          ("removed", "removes", "saves", "n_vocab - n_keep", "difference", "cut", "kept", "keeps")),
    Wrong(L12, "coverage", "kept = used | set(range(256)) | {tok.eot_token}\n"
          "coverage = float(np.mean([set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words]))",
          "averaged over words without weighting by frequency",
          ("weight", "frequenc", "occurrence")),
    Wrong(L12, "coverage", "kept = used | set(range(256)) | {tok.eot_token}\nsame = words[:n_words]\n"
          "covered = np.array([set(tok.encode_ordinary(' ' + w)) <= kept for w in same])\n"
          "weights = np.array([frequencies[w] for w in same])\ncoverage = float(weights @ covered / weights.sum())",
          "measured the kept words themselves instead of the next n_words",
          ("next", "n_words:", "other words", "unseen", "same words", "next_words")),
    Wrong(L12, "coverage", "kept = used | set(range(256)) | {tok.eot_token}\n"
          "covered = np.array([bool(set(tok.encode_ordinary(' ' + w)) & kept) for w in next_words])\n"
          "weights = np.array([frequencies[w] for w in next_words])\ncoverage = float(weights @ covered / weights.sum())",
          "counted a word as covered when any of its tokens is kept, not all",
          ("all", "every token", "each token", "subset", "any")),
]
