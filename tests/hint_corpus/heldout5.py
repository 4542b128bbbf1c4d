"""Held-out corpus 5: wrong answers written blind, to measure the hints on mistakes nobody
wrote them for.

How it was written: by one helper (H8, issue 35) who read only the exercise questions
(solutions/ and exercises/ notebooks), the lessons, the book, the public library
(lib/embedlab/*.py, not lib/embedlab/grading/), `hint_corpus/__init__.py` (the `Wrong`
format) and `check_wrong.py` (how an entry runs); never the hint code, the hint tests,
nor any other corpus file. Each entry is a mistake a learner could make on reading the
question, imagined as five learners: one weak at numpy ("numpy": axis, broadcasting,
in-place updates, integer division, shapes), one who answers a neighbouring quantity
("misread": FLOPs for parameters, bytes for GB, the other field), one who leaves a part out
("forgot": a bias, a norm, the head, the factor 2 of k and v), one off by a factor or by one
("factor": units, percent, 2 vs 1, rounding) and one whose functions break at the edges
("edge": repeated ids, lists for arrays, wrong return type, hard-coded sizes).

`words` were written from the mistake (what any correct hint for it would have to say), not
from hints; `wrong_words` name a mistake the entry does not make. `KINDS[i]` is the kind of
`ENTRIES[i]`. Every entry was proven wrong on the handed-out exercise by
`check_wrong.py heldout5`; wrong answers that the check accepted were taken out and reported
(issue 35), not kept here.
"""

from hint_corpus import Wrong

ENTRIES = []
KINDS = []


def _add(kind, lesson, name, source, mistake, words, wrong_words=()):
    assert kind in ("numpy", "misread", "forgot", "factor", "edge"), kind
    ENTRIES.append(Wrong(lesson, name, source, mistake, tuple(words), tuple(wrong_words)))
    KINDS.append(kind)


# ------------------------------------------------------------------ 01 toy table
L01 = "01-toy-table"
_add("numpy", L01, "E",
     "E = np.array([[int(f in traits[w]) for w in words] for f in features])\n",
     "builds one row per feature and one column per word: the table transposed",
     ("transpose", "one row per word", "shape", "rows and columns", "swapped", "(4, 3)"),
     ("cosine",))
_add("misread", L01, "n_params",
     "E = np.array([[int(f in traits[w]) for f in features] for w in words])\n"
     "n_params = int(E.sum())\n",
     "counts the ones in the table instead of every entry: a zero is a parameter too",
     ("zero", "every entry", "every number", "rows × columns"),
     ("bias",))
_add("factor", L01, "n_params",
     "n_params = len(words) + len(features)\n",
     "adds the number of words and of features instead of multiplying them",
     ("multiply", "times", "product", "rows × columns"))
_add("edge", L01, "n_params",
     "E = np.array([[int(f in traits[w]) for f in features] for w in words])\n"
     "n_params = E.shape\n",
     "gives the shape tuple, not the number of parameters",
     ("tuple", "shape", "product", "multiply", ".size"))
_add("misread", L01, "batch",
     "batch = np.array([word_to_id[w] for w in sentence])\n",
     "gives the ids of the sentence's words, not their rows of the table",
     ("ids", "rows", "look up", "index the table", "table["))
_add("edge", L01, "batch",
     "batch = table[sorted({word_to_id[w] for w in sentence})]\n",
     "looks each distinct word up once (a set), losing the repeated word and the order",
     ("repeat", "every word", "duplicate", "once per word", "order", "twice"))
_add("numpy", L01, "batch",
     "batch = table[:, [word_to_id[w] for w in sentence]]\n",
     "indexes the columns (features) with the ids instead of the rows",
     ("column", "rows", "axis", "first index", "shape", "table[ids]"))
_add("forgot", L01, "cosine",
     "def cosine(a, b):\n    return float(a @ b / np.linalg.norm(a))\n",
     "divides the dot product by the norm of a only, forgetting the norm of b",
     ("norm", "length", "each vector"))
_add("numpy", L01, "cosine",
     "def cosine(a, b):\n    return float(a @ b / ((a @ a) * (b @ b)))\n",
     "divides by the squared lengths: forgot the square root of a·a and b·b",
     ("square root", "sqrt", "squared", "norm", "length"))
_add("misread", L01, "cos_pair",
     "cos_pair = float(np.arccos(cosine(table[word_to_id[pair[0]]], table[word_to_id[pair[1]]])))\n",
     "gives the angle (arccos) instead of its cosine",
     ("angle", "arccos", "radian", "cosine, not", "cosine itself"))
_add("edge", L01, "cos_pair",
     "cos_pair = cosine(table[0], table[1])\n",
     "takes rows 0 and 1 (the first two words) instead of the rows of the words in `pair`",
     ("pair", "row of", "the words", "word_to_id", "hard-coded", "ids"))
_add("forgot", L01, "model_table",
     "from embedlab import count_params\n"
     "shape = model_shape(load_config(model))\n"
     "model_table = shape.vocab_size * shape.hidden_size + shape.learned_positions * shape.hidden_size\n",
     "adds the position table to the token table",
     ("position", "token table only", "only the token", "v × d", "v·d"))
_add("misread", L01, "extra_dim_cost",
     "shape = model_shape(load_config(model))\n"
     "extra_dim_cost = shape.vocab_size * (shape.hidden_size + extra_features)\n",
     "gives the new table's size instead of what it gains",
     ("difference", "new size", "minus", "added", "v × extra"))

# ------------------------------------------------------------------ 02 lookup vs matmul
L02 = "02-lookup-vs-matmul"
_add("numpy", L02, "one_hot",
     "def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n    out[:, ids] = 1.0\n    return out\n",
     "sets every id's column in every row (out[:, ids]) instead of one 1 per row",
     ("every row", "row t", "np.arange", "one 1 per row", "pairs", "each row", "only one"))
_add("edge", L02, "one_hot",
     "def one_hot(ids, V):\n    ids = np.asarray(ids)\n    return np.eye(ids.max() + 1)[ids]\n",
     "takes the width from the largest id instead of V: too narrow when the largest id is not V - 1",
     ("columns", "width", "shape", "largest id"))
_add("edge", L02, "rows_lookup",
     "rows_lookup = E[np.unique(ids)]\n",
     "selects each distinct id once, sorted, instead of one row per id in order",
     ("repeat", "every id", "one row per id", "order", "duplicate", "unique"))
_add("numpy", L02, "rows_matmul",
     "rows_matmul = E.T @ np.eye(table_V, dtype=np.float32)[ids].T\n",
     "multiplies in column form: the rows come out as columns, shape (d, n)",
     ("transpose", "shape", "one row per id", "(len(ids), d)", "order of the product"))
_add("misread", L02, "keeps_sign",
     "keeps_sign = 'both'\n",
     "thinks the matmul keeps the sign too, but 0 × x + (-0.0) sums to +0.0",
     ("matmul", "+0.0", "positive zero", "0 ×", "products"), ("nan",))
_add("numpy", L02, "embedding_backward",
     "def embedding_backward(ids, grad_out, V):\n    grad_E = np.zeros((V, grad_out.shape[1]))\n"
     "    grad_E[ids] += grad_out\n    return grad_E\n",
     "grad_E[ids] += grad_out keeps only one contribution of a repeated id (buffered fancy indexing)",
     ("repeated", "add.at", "accumulate", "buffered", "twice", "duplicate", "once"))
_add("misread", L02, "embedding_backward",
     "def embedding_backward(ids, grad_out, V):\n    grad_E = np.zeros((V, grad_out.shape[1]))\n"
     "    np.add.at(grad_E, ids, grad_out)\n    counts = np.bincount(ids, minlength=V)\n"
     "    return grad_E / np.maximum(counts, 1)[:, None]\n",
     "averages the rows of a repeated id instead of summing them",
     ("sum", "average", "mean", "divide", "not the mean"))
_add("edge", L02, "updated_rows",
     "updated_rows = np.unique(batch[0])\n",
     "takes the ids of the first sequence only",
     ("every sequence", "all rows", "whole batch", "flatten", "each sequence", "second"))
_add("misread", L02, "updated_rows",
     "updated_rows = np.arange(batch_V)\n",
     "answers every row, as with a tied head; untied, only the looked-up rows change",
     ("untied", "looked up", "only the ids", "in the batch", "not every row", "tied"))
_add("factor", L02, "batch_flops",
     "batch_flops = V * d * n_tokens\n",
     "counts one FLOP per multiply-add instead of two",
     ("multiply and add", "multiply-add", "factor of 2", "twice"))
_add("forgot", L02, "batch_flops",
     "batch_flops = 2 * V * d\n",
     "gives the FLOPs of one token, not of the n_tokens of the batch",
     ("n_tokens", "batch", "every token", "per token", "each token"))
_add("factor", L02, "one_hot_batch_bytes",
     "one_hot_batch_bytes = n_tokens * V * 32\n",
     "multiplies by 32 bits instead of 4 bytes per float32",
     ("bits", "bytes", "itemsize", "4 bytes"))
_add("misread", L02, "one_hot_batch_bytes",
     "one_hot_batch_bytes = n_tokens * d * np.dtype(precision).itemsize\n",
     "gives the bytes of the looked-up embeddings (d wide), not of the one-hot matrix (V wide)",
     ("one-hot", "v columns", "v wide", "width v", "vocabulary", "v,"))

# ------------------------------------------------------------------ 03 counting GPT-2
L03 = "03-counting-gpt2"
_add("forgot", L03, "linear_params",
     "linear_params = linear_in * linear_out\n",
     "leaves out the bias",
     ("bias", "+ linear_out", "one per output"))
_add("misread", L03, "linear_params",
     "linear_params = 2 * linear_in * linear_out\n",
     "gives the layer's FLOPs per token instead of its parameters",
     ("flops", "parameters", "weights", "bias"))
_add("forgot", L03, "block_params",
     "block_params = ((d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + 2 * (2 * d))\n",
     "counts the MLP as one d×4d layer (4d², as seed 001 says): forgot the second layer 4d → d",
     ("second", "8d", "4d → d", "both layers"))
_add("factor", L03, "interview",
     "interview = interview_V * interview_d / 1e6\n",
     "answers in millions of parameters",
     ("million", "exact", "units", "whole number", "1e6"))
_add("factor", L03, "embedding_share",
     "counts = count_params(load_config(share_model))\n"
     "embedding_share = 100 * counts.token_embedding / counts.total\n",
     "gives a percentage instead of a fraction between 0 and 1",
     ("percent", "fraction", "0 and 1", "100"))
_add("misread", L03, "embedding_share",
     "counts = count_params(load_config(share_model))\n"
     "embedding_share = (counts.token_embedding + counts.position_embedding) / counts.total\n",
     "adds the position table to the token table",
     ("position", "only the token", "token table", "e only", "wpe"))
_add("factor", L03, "estimate_gap",
     "estimate_gap = (V * d + 12 * L * d**2) - exact\n",
     "subtracts the other way round: estimate − exact, a negative number",
     ("sign", "negative", "exact −", "exact -", "minus", "other way", "order"))
_add("edge", L03, "estimate_gap",
     "estimate_gap = exact - (V * d + 12 * 12 * d**2)\n",
     "hard-codes GPT-2 small's 12 blocks instead of the model's L",
     ("layers", "blocks", "num_layers", "hard-coded"))
_add("forgot", L03, "gpt2_params",
     "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n    return V * d + L * block + 2 * d\n",
     "leaves out the learned position table (T × d)",
     ("position", "t·d", "t * d", "wpe", "context", "t × d"))
_add("forgot", L03, "gpt2_params",
     "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n    return V * d + T * d + L * block\n",
     "leaves out the final LayerNorm",
     ("final", "layernorm", "2d", "ln_f", "last norm"))
_add("misread", L03, "gpt2_params",
     "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n"
     "    return 2 * V * d + T * d + L * block + 2 * d\n",
     "adds a separate head V·d although the head is tied",
     ("tied", "head", "once", "twice", "shared"))
_add("factor", L03, "gpt2_params",
     "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n"
     "    return V * d + T * d + (L + 1) * block + 2 * d\n",
     "counts L + 1 blocks",
     ("blocks", "one too many", "off by one", "extra block", "l + 1"))

# ------------------------------------------------------------------ 04 modern blocks
L04 = "04-modern-blocks"
_add("forgot", L04, "attn_layer",
     "attn_layer = 4 * d * d\n",
     "counts four d × d matrices as in multi-head attention, ignoring the fewer key/value heads",
     ("grouped", "kv heads", "h_kv", "key/value heads", "fewer", "num_kv_heads"))
_add("factor", L04, "attn_layer",
     "attn_layer = d * h * head_dim + d * h_kv * head_dim + h * head_dim * d\n",
     "counts one of the k and v projections, not both",
     ("k and v", "value", "keys and values"))
_add("misread", L04, "attn_layer",
     "attn_layer = (d * h * head_dim + h * head_dim) + 2 * (d * h_kv * head_dim + h_kv * head_dim) \\\n"
     "    + (h * head_dim * d + d)\n",
     "adds biases to a Llama attention that has none",
     ("bias", "no bias", "without bias"))
_add("factor", L04, "mlp_layer",
     "mlp_layer = 2 * d * d_ff\n",
     "counts two matrices as in GPT-2's MLP; SwiGLU has three (gate, up, down)",
     ("three", "gate", "swiglu", "third"))
_add("misread", L04, "mlp_layer",
     "mlp_layer = 2 * 3 * d * d_ff\n",
     "gives the MLP's FLOPs per token (2 per weight) instead of its parameters",
     ("flops", "parameters", "weights", "twice"))
_add("forgot", L04, "vocab_share",
     "c = count_params(load_config(share_model))\n"
     "vocab_share = c.token_embedding / c.total\n",
     "counts the token table but forgets the untied output head",
     ("head", "lm_head", "untied", "output"))
_add("factor", L04, "padding_params",
     "V_padded = -(-V // pad_multiple) * pad_multiple\n"
     "padding_params = 2 * (V_padded - V) * d\n",
     "counts the padded rows twice (table and head) although the head is tied",
     ("tied", "once", "head", "same matrix", "twice"))
_add("misread", L04, "padding_params",
     "V_padded = -(-V // pad_multiple) * pad_multiple\n"
     "padding_params = V_padded - V\n",
     "gives the number of padded rows, not their parameters",
     ("width", "rows ×", "each row", "parameters"))
_add("numpy", L04, "padding_params",
     "padding_params = ((V // pad_multiple) * pad_multiple - V) * d\n",
     "rounds V down to a multiple (floor division), so the 'padding' is negative",
     ("round up", "ceil", "negative", "next multiple"))
_add("misread", L04, "padding_params",
     "V_padded = -(-V // pad_multiple) * pad_multiple\n"
     "padding_params = V_padded * d\n",
     "gives the whole padded table instead of only what the padding adds",
     ("added", "only the new", "difference", "minus", "padded rows only"))
_add("forgot", L04, "llama_params",
     "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    head_dim = d // h\n"
     "    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 3 * d * d_ff + 2 * d\n"
     "    return V * d + L * layer + (0 if tied else V * d)\n",
     "leaves out the final RMSNorm",
     ("final", "norm", "rmsnorm", "last norm"))
_add("factor", L04, "llama_params",
     "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    head_dim = d // h\n"
     "    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 3 * d * d_ff + d\n"
     "    return V * d + L * layer + d + (0 if tied else V * d)\n",
     "counts one RMSNorm per layer instead of two",
     ("norms", "2d", "per layer", "both norms", "rmsnorm"))
_add("edge", L04, "llama_params",
     "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    head_dim = d // h\n"
     "    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 3 * d * d_ff + 2 * d\n"
     "    return V * d + L * layer + d + (V * d if tied else 0)\n",
     "reads the tied flag the wrong way round: adds a head when it is tied",
     ("tied", "head", "inverted", "wrong way", "flag", "untied"))

# ------------------------------------------------------------------ 05 weight tying
L05 = "05-weight-tying"
_add("factor", L05, "tied_count",
     "tied_count = untied - 2 * V * d\n",
     "takes away both the table and the head; tying removes only the head",
     ("only the head", "table stays", "once", "keeps the table", "v·d once"))
_add("factor", L05, "tied_count",
     "tied_count = untied + V * d\n",
     "adds the head's V·d instead of taking it away",
     ("subtract", "fewer", "removes", "minus", "sign", "smaller"))
_add("misread", L05, "tied_count",
     "tied_count = V * d\n",
     "gives the saving (one V × d matrix) instead of the tied model's count",
     ("count", "total", "saving", "whole model", "untied -"))
_add("forgot", L05, "grad_E",
     "grad_E = dlogits.T @ x\n",
     "keeps the head's gradient only, forgetting the lookup path dx0",
     ("lookup", "dx0", "input", "sum of", "two paths", "add.at"))
_add("forgot", L05, "grad_E",
     "grad_E = np.zeros((V, d))\nnp.add.at(grad_E, ids, dx0)\n",
     "keeps the lookup's gradient only, forgetting the head's dlogits.T @ x",
     ("head", "logits", "dlogits", "output", "two paths"))
_add("numpy", L05, "grad_E",
     "grad_E = dlogits.T @ x\ngrad_E[ids] += dx0\n",
     "grad_E[ids] += dx0 keeps one contribution of the repeated id",
     ("repeated", "add.at", "accumulate", "duplicate", "twice", "buffered"))
_add("misread", L05, "grad_E",
     "grad_E = dlogits.T @ x\nnp.add.at(grad_E, ids, dx0)\ngrad_E = grad_E / 2\n",
     "averages the two paths instead of summing them",
     ("sum", "average", "not the average", "/ 2", "halve"))
_add("misread", L05, "count_unique",
     "def count_unique(storage, sizes):\n    return int(np.sum(sizes))\n",
     "sums every entry, counting a tied matrix twice",
     ("once", "storage", "same storage", "unique", "twice", "shared"))
_add("edge", L05, "count_unique",
     "def count_unique(storage, sizes):\n    return int(sizes[np.unique(storage)].sum())\n",
     "uses the storage ids as positions into sizes",
     ("index", "position", "storage id", "entry", "not an index"))
_add("misread", L05, "ties",
     "ties = 'llama-3-8b'\n",
     "guesses the big Llama ties; its config says tie_word_embeddings false",
     ("tie_word_embeddings", "config", "false", "does not tie", "untied", "small"))
_add("edge", L05, "ties",
     "ties = [name for name in candidates if load_config(name)['tie_word_embeddings']]\n",
     "gives a list holding the name instead of the name",
     ("string", "list", "one name", "a name", "[0]"))
_add("forgot", L05, "state_dict_sum",
     "config = load_config(tied_model)\nstate_dict_sum = count_params(config).total\n",
     "gives the count that counts the tied matrix once; the state dict lists it twice",
     ("twice", "two names", "both entries", "double", "two entries", "again"))

# ------------------------------------------------------------------ 06 params vs compute
L06 = "06-params-vs-compute"
_add("factor", L06, "head_flops",
     "head_flops = d * V\n",
     "counts one FLOP per multiply-add instead of two",
     ("multiply-add", "multiply and add", "factor of 2"))
_add("misread", L06, "lookup_flops",
     "lookup_flops = 2 * V * d\n",
     "prices the lookup as the one-hot matmul",
     ("lookup", "zero", "no arithmetic", "index"))
_add("forgot", L06, "kaplan_n",
     "kaplan_n = counts.total - counts.token_embedding - counts.position_embedding\n",
     "forgets to take away the untied head",
     ("head", "lm_head", "untied", "output"))
_add("forgot", L06, "head_share_training",
     "head_share_training = T * c.head / (T * (c.input + c.blocks + c.head))\n",
     "leaves the attention over the context out of the total",
     ("attention", "context", "t(t+1)/2", "keys", "attention_per_key"))
_add("factor", L06, "head_share_training",
     "attention = c.attention_per_key * T * T\n"
     "head_share_training = T * c.head / (T * (c.input + c.blocks + c.head) + attention)\n",
     "counts T² keys instead of T(T+1)/2",
     ("t(t+1)/2", "triangle", "t positions", "causal", "t²", "t**2"))
_add("misread", L06, "head_share_prompt",
     "attention = c.attention_per_key * T * (T + 1) // 2\n"
     "head_share_prompt = T * c.head / (T * (c.input + c.blocks + c.head) + attention)\n",
     "runs the head at every position, as in training; reading a prompt runs it once",
     ("once", "last position", "only the last", "one position", "not t times"))
_add("misread", L06, "head_share_prompt",
     "head_share_prompt = c.head / (c.input + c.blocks + c.head + c.attention_per_key * T)\n",
     "prices one token (the last): the blocks run for every position of the prompt",
     ("t times", "every position", "blocks run", "keys and values", "each position", "all positions"),
     ("t²", "t**2", "t^2", "not t times"))
_add("edge", L06, "forward_flops_per_token",
     "def forward_flops_per_token(V, d, L, d_ff, context):\n"
     "    return 2 * L * (4 * d * d + 8 * d * d) + 4 * L * context * d + 2 * d * V\n",
     "uses 4d for the MLP width instead of the given d_ff",
     ("d_ff", "4d", "given width", "mlp width", "hard-coded"))
_add("forgot", L06, "forward_flops_per_token",
     "def forward_flops_per_token(V, d, L, d_ff, context):\n"
     "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * context * d + 2 * d * V\n",
     "counts the attention over the context once instead of in each of the L blocks",
     ("per block", "each block", "every block"))
_add("factor", L06, "flop_rate",
     "flop_rate = 6 * N * D / GPU_HOURS\n",
     "divides by GPU hours, not seconds",
     ("3600", "seconds", "hours", "per second"))
_add("factor", L06, "flop_rate",
     "flop_rate = 6 * N * D / (GPU_HOURS * 3600) / 1e12\n",
     "answers in TFLOP/s",
     ("tflop", "flop/s", "1e12", "units", "10¹²"))
_add("misread", L06, "active_params",
     "active_params = moe_layers * k * 3 * d * d_ff\n",
     "counts only the experts a token uses, forgetting attention, embeddings and norms",
     ("total", "start from", "attention", "everything else", "shared", "the rest"))
_add("forgot", L06, "active_params",
     "active_params = counts.total - (n_experts - k) * 3 * d * d_ff\n",
     "takes away the skipped experts of one layer only",
     ("every layer", "moe_layers", "per layer", "all layers", "each layer"))

# ------------------------------------------------------------------ 07 memory
L07 = "07-memory"
_add("factor", L07, "weights_gb_4bit",
     "weights_gb_4bit = N * 4 / 1e9\n",
     "takes 4 bits as 4 bytes",
     ("bits", "bytes", "half a byte"))
_add("misread", L07, "weights_gb_4bit",
     "weights_gb_4bit = N * 0.5\n",
     "gives bytes, not GB",
     ("1e9", "bytes", "10⁹", "units"))
_add("factor", L07, "adam_parts",
     "adam_parts = np.array([4, 4, 4, 8]) * n_params\n",
     "stores the weights and gradients in fp32 instead of fp16",
     ("fp16", "2 bytes", "mixed precision"))
_add("forgot", L07, "adam_parts",
     "adam_parts = np.array([2, 2, 4, 4]) * n_params\n",
     "counts one Adam moment instead of two",
     ("two moments", "m and v", "second moment"))
_add("misread", L07, "adam_parts",
     "adam_parts = np.array([16 * n_params])\n",
     "gives the total instead of the four parts",
     ("parts", "not the sum", "separately", "each part"))
_add("forgot", L07, "kv_bytes_per_token",
     "bytes_per_number = {'fp32': 4, 'fp16': 2, 'bf16': 2, 'fp8': 1, 'int8': 1}[cache_precision]\n"
     "kv_bytes_per_token = L * h_kv * head_dim * bytes_per_number\n",
     "counts the keys only; the cache holds keys and values",
     ("k and v", "keys and values", "values"))
_add("misread", L07, "kv_bytes_per_token",
     "kv_bytes_per_token = 2 * L * h * head_dim * 2\n",
     "uses the query heads h instead of the key/value heads",
     ("kv heads", "h_kv", "grouped", "key/value heads", "num_key_value_heads"))
_add("factor", L07, "gqa_saving_gib",
     "full = 2 * L * h * head_dim * 2 * context\ngrouped = 2 * L * h_kv * head_dim * 2 * context\n"
     "gqa_saving_gib = (full - grouped) / 1e9\n",
     "divides by 10⁹ (GB) instead of 2³⁰ (GiB)",
     ("gib", "2**30", "1024", "2³⁰"))
_add("misread", L07, "gqa_saving_gib",
     "gqa_saving_gib = 2 * L * h_kv * head_dim * 2 * context / 2**30\n",
     "gives the grouped cache's size instead of what grouping saves",
     ("saving", "difference", "minus", "saves", "one key/value head per query head"))
_add("forgot", L07, "kv_cache_gb",
     "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
     "    return 2 * L * h_kv * head_dim * bytes_per_number * context / 1e9\n",
     "leaves the batch out",
     ("batch", "sequences", "each sequence"))
_add("numpy", L07, "kv_cache_gb",
     "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
     "    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch // 1e9\n",
     "uses floor division by 10⁹, dropping the fraction of a GB",
     ("//", "floor", "integer division", "rounded", "fraction", "true division"))
_add("forgot", L07, "max_batch",
     "max_batch = int(memory // per_sequence)\n",
     "forgets that the weights take their share of the GPU first",
     ("weights", "subtract", "minus", "what is left"))
_add("factor", L07, "max_batch",
     "max_batch = int((80 * 2**30 - weights) // per_sequence)\n",
     "takes 80 GiB (2³⁰) for the GPU instead of 80·10⁹ bytes",
     ("10⁹", "gib", "1e9", "memory", "2**30"))

# ------------------------------------------------------------------ 08 vocabulary size
L08 = "08-vocabulary-size"
_add("factor", L08, "embedding_params",
     "embedding_params = 2 * V_big * d\n",
     "counts a head as well although it is tied",
     ("tied", "once", "head", "same matrix", "twice"))
_add("misread", L08, "embedding_share",
     "embedding_share = table / rest\n",
     "divides by the rest of the model instead of the whole (table + rest)",
     ("whole", "table + rest", "total", "denominator", "all parameters"))
_add("factor", L08, "embedding_share",
     "embedding_share = 100 * table / (table + rest)\n",
     "gives a percentage, not a fraction",
     ("percent", "fraction", "0 and 1", "100"))
_add("misread", L08, "extra_head_flops",
     "extra_head_flops = 2 * d * V_big\n",
     "gives the big head's whole cost, not how much more it costs",
     ("difference", "minus", "v_small", "extra"))
_add("factor", L08, "break_even_r",
     "break_even_r = (blocks + 2 * d * V_big) / (blocks + 2 * d * V_small)\n",
     "gives the ratio upside down (big over small)",
     ("invert", "upside down", "other way", "reciprocal", "below 1", "smaller"))
_add("forgot", L08, "break_even_r",
     "break_even_r = V_small / V_big\n",
     "leaves the blocks' cost out: only the heads are compared",
     ("blocks", "per token cost", "the rest", "cost of the blocks"))
_add("misread", L08, "tokens_per_word",
     "def tokens_per_word(counts, n_tokens):\n    return float(np.mean(n_tokens))\n",
     "averages over distinct words, not over running words (not weighted by counts)",
     ("weighted", "counts", "occurrences", "running", "frequency", "how often"))
_add("edge", L08, "tokens_per_word",
     "def tokens_per_word(counts, n_tokens):\n    return float((counts * n_tokens).sum() / counts.sum())\n",
     "assumes numpy arrays: with plain lists, counts * n_tokens raises",
     ("list", "np.asarray", "array", "np.array", "plain"))
_add("numpy", L08, "tokens_per_word",
     "def tokens_per_word(counts, n_tokens):\n"
     "    return float(sum(c * n for c, n in zip(counts, n_tokens)) // sum(counts))\n",
     "uses floor division, dropping the fraction",
     ("//", "floor", "integer division", "rounded", "fraction", "true division"))
_add("misread", L08, "hindi_single_token_share",
     "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top_hindi)\n",
     "gives the number of single-token words instead of their fraction",
     ("fraction", "divide", "share", "n_top"))
_add("edge", L08, "hindi_single_token_share",
     "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in hindi) / len(hindi)\n",
     "uses every Hindi word the tokenizer was trained on instead of the n_top most frequent",
     ("n_top", "most frequent", "top_hindi", "first"))
_add("factor", L08, "hindi_r",
     "def per_word(tokenizer):\n"
     "    return sum(len(tokenizer.encode(' ' + w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
     "hindi_r = per_word(gpt2) / per_word(cl100k)\n",
     "divides GPT-2's tokens per word by cl100k's: the ratio upside down",
     ("invert", "upside down", "other way", "reciprocal", "cl100k's", "divided by gpt-2"))
_add("forgot", L08, "hindi_r",
     "def per_word(tokenizer):\n"
     "    return sum(len(tokenizer.encode(w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
     "hindi_r = per_word(cl100k) / per_word(gpt2)\n",
     "encodes each word without the space before it",
     ("space", "\" \" +", "' ' +", "running text", "after a space"))

# ------------------------------------------------------------------ 09 what rows learn
L09 = "09-what-rows-learn"
_add("misread", L09, "n_params",
     "n_params = V * d + (2 * d) * d + d\n",
     "counts the model as tied: forgets the output matrix U",
     ("untied", "output matrix", "head"))
_add("forgot", L09, "n_params",
     "n_params = V * d + (2 * d) * d + V * d\n",
     "leaves out the hidden layer's bias b",
     ("bias", "the bias b", "+ d for b"))
_add("factor", L09, "n_params",
     "n_params = V * d + d * d + d + V * d\n",
     "makes W d × d: forgets the two context rows go in side by side (2d inputs)",
     ("2d", "context rows", "side by side", "both context"))
_add("numpy", L09, "embedding_grad",
     "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
     "    dE[contexts] += dx0\n    return dE\n",
     "dE[contexts] += dx0 keeps one contribution of a repeated token",
     ("add.at", "repeated", "twice", "accumulate", "buffered", "duplicate"))
_add("forgot", L09, "embedding_grad",
     "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
     "    np.add.at(dE, contexts[:, 0], dx0[:, 0])\n    return dE\n",
     "adds the first context slot only",
     ("both slots", "every slot", "context slot", "all slots", "slot k", "each slot"))
_add("numpy", L09, "embedding_grad",
     "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
     "    for b in range(contexts.shape[0]):\n        for k in range(contexts.shape[1]):\n"
     "            dE[contexts[b, k]] = dx0[b, k]\n    return dE\n",
     "assigns (=) instead of adding (+=), so a repeated token keeps its last contribution",
     ("+=", "sum", "overwrite", "accumulate", "repeated"))
_add("forgot", L09, "gap",
     "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
     "within = [C[i, j] for group in (animals, vehicles) for i in group for j in group]\n"
     "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
     "includes each word with itself (cosine 1) and both orders in the within mean",
     ("different", "diagonal", "itself", "i < j", "pairs"))
_add("numpy", L09, "gap",
     "unit = E / np.linalg.norm(E, axis=0, keepdims=True)\nC = unit @ unit.T\n"
     "within = [C[i, j] for group in (animals, vehicles) for i in group for j in group if i < j]\n"
     "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
     "normalises the columns (axis=0) instead of the rows",
     ("axis", "rows", "axis=1", "column", "each row"))
_add("misread", L09, "gap",
     "C = E @ E.T\n"
     "within = [C[i, j] for group in (animals, vehicles) for i in group for j in group if i < j]\n"
     "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
     "uses dot products, not cosines: forgot to normalise the rows",
     ("normalise", "cosine", "norm", "length", "unit"))
_add("factor", L09, "gap",
     "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
     "within = [C[i, j] for group in (animals, vehicles) for i in group for j in group if i < j]\n"
     "gap = C[np.ix_(animals, vehicles)].mean() - np.mean(within)\n",
     "subtracts the other way round (across − within)",
     ("sign", "minus", "order", "other way", "within −", "within -", "negative"))
_add("numpy", L09, "cos_cat",
     "rows = E[animals + vehicles]\n"
     "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=0) * np.linalg.norm(E[cat]))\n",
     "takes the norms of the columns (axis=0) of the 16 × 16 block instead of its rows: it runs, the shapes agree",
     ("axis", "rows", "axis=1", "column", "each row"))
_add("edge", L09, "cos_cat",
     "rows = E[animals[1:] + vehicles]\n"
     "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))\n",
     "leaves cat out, so there are 15 values, not 16",
     ("itself", "first", "cat with itself", "shape"))
_add("misread", L09, "rotation_changes_cosines",
     "rotation_changes_cosines = 'yes'\n",
     "thinks a rotation changes the cosines; an orthogonal matrix keeps every angle and length",
     ("orthogonal", "angle", "preserve", "rotation", "length", "dot product", "unchanged"))
_add("edge", L09, "rotation_changes_cosines",
     "rotation_changes_cosines = False\n",
     "answers with a bool instead of the word the question asks for",
     ('\"no\"', "'no'", "string", "yes or no"))

# ------------------------------------------------------------------ 10 glitch tokens
L10 = "10-glitch-tokens"
_add("misread", L10, "padding_rows",
     "padding_rows = V % pad_multiple\n",
     "gives the remainder (rows past the last multiple) instead of the rows added to reach the next",
     ("round up", "remainder", "up to", "next multiple", "added"))
_add("misread", L10, "invalid_bytes",
     "invalid_bytes = 256 - 128\n",
     "thinks only ASCII bytes are valid UTF-8, forgetting multi-byte characters",
     ("multi-byte", "continuation", "0x80", "lead", "several bytes", "non-ascii"))
_add("edge", L10, "invalid_bytes",
     "seen_bytes = set()\nfor c in range(0x10000):\n    if not 0xD800 <= c <= 0xDFFF:\n"
     "        seen_bytes.update(chr(c).encode('utf-8'))\ninvalid_bytes = 256 - len(seen_bytes)\n",
     "stops at 0x10000 (the basic plane), so the lead bytes of 4-byte characters look unused",
     ("0x110000", "4-byte", "four bytes", "beyond", "supplementary", "f0", "every code point"))
_add("forgot", L10, "unused_score",
     "def unused_score(M, reference_ids):\n    mean = M.mean(axis=0)\n"
     "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n",
     "takes the mean of all rows instead of the reference rows",
     ("reference", "reference_ids", "mean of the reference", "known-unused", "m[reference_ids]"))
_add("numpy", L10, "unused_score",
     "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=1)\n"
     "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n",
     "averages each reference row over its columns (axis=1) instead of averaging the rows (axis=0)",
     ("axis=0", "axis", "mean of the rows", "column", "shape"))
_add("forgot", L10, "never_cos",
     "rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
     "never_cos = (unit @ unit.T).mean()\n",
     "averages the whole matrix, the diagonal (each row with itself) included",
     ("different", "diagonal", "itself", "k=1", "pairs", "triu"))
_add("numpy", L10, "never_cos",
     "rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=0, keepdims=True)\n"
     "C = unit @ unit.T\nnever_cos = C[np.triu_indices(len(never), k=1)].mean()\n",
     "normalises the columns (axis=0) instead of the rows",
     ("axis", "rows", "axis=1", "column", "each row"))
_add("misread", L10, "never_cos",
     "ids = list(corpus.groups['reserved'])\nrows = run.model.E[ids]\n"
     "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
     "C = unit @ unit.T\nnever_cos = C[np.triu_indices(len(ids), k=1)].mean()\n",
     "uses the reserved rows only, leaving the glitch word out of `never`",
     ("never", "glitch", "all of never", "the glitch word"))
_add("forgot", L10, "top7",
     "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
     "top7 = np.argsort(-scores, kind='stable')[:7]\n",
     "keeps the reference rows among the candidates",
     ("leave out", "reference", "exclude", "remove", "the four"))
_add("numpy", L10, "top7",
     "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
     "order = [i for i in np.argsort(scores, kind='stable') if i not in reference]\n"
     "top7 = np.array(order[:7])\n",
     "sorts ascending: gives the 7 lowest scores",
     ("highest", "descending", "-scores", "reverse", "lowest", "[::-1]"))
_add("misread", L10, "partial_tokens",
     "partial_tokens = sum(1 for b in ordinary if len(b) == 1 and b[0] >= 0x80)\n",
     "counts only the single bytes from 0x80 up, forgetting merged tokens cut inside a character",
     ("merged", "multi-byte", "partway", "every token", "longer tokens", "not only single"))
_add("forgot", L10, "partial_tokens",
     "partial_tokens = 0\nfor b in ordinary:\n    try:\n        b.decode('utf-8')\n"
     "    except UnicodeDecodeError:\n        partial_tokens += 1\n"
     "partial_tokens -= 13\n",
     "leaves out the 13 bytes valid UTF-8 never uses, which the question says to count",
     ("13", "count them", "include", "never uses", "single bytes"))

# ------------------------------------------------------------------ 11 size a model
L11 = "11-size-a-model"
_add("forgot", L11, "design",
     "design = llama_config(vocab_size=64000, d=1024, num_layers=20, num_heads=16, num_kv_heads=16,\n"
     "                      d_ff=4096, tied=True)\n",
     "one key/value head per query head: the KV cache of a long conversation breaks the memory budget",
     ("memory", "kv cache", "serving", "kv heads", "num_kv_heads", "grouped"))
_add("forgot", L11, "design",
     "design = llama_config(vocab_size=64000, d=1536, num_layers=20, num_heads=24, num_kv_heads=2,\n"
     "                      d_ff=4096, tied=True)\n",
     "checks the parameter budget only; the training compute is over budget",
     ("compute", "training flops", "train", "flops", "max_train_flops"))
_add("misread", L11, "design",
     "design = llama_config(vocab_size=64000, d=1024, num_layers=16, num_heads=8, num_kv_heads=4,\n"
     "                      d_ff=4096, tied=True)\n",
     "8 heads of width 1024: heads 128 wide, not head_dim",
     ("head_dim", "d / h", "head width", "heads", "num_heads"))
_add("edge", L11, "design",
     "design = count_params(llama_config(vocab_size=64000, d=1024, num_layers=16, num_heads=16,\n"
     "                                   num_kv_heads=4, d_ff=4096, tied=True))\n",
     "gives the count of the config instead of the config dict",
     ("dict", "llama_config", "plain dict", "config", "not a count"))
_add("factor", L11, "design_params",
     "design_params = count_params(design).total + design['vocab_size'] * design['hidden_size']\n",
     "counts the tied table twice",
     ("tied", "once", "twice", "head", "same matrix"))
_add("forgot", L11, "design_serving_gb",
     "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
     "                                   batch=BUDGET.batch, kv=BUDGET.kv)['weights'] / GB\n",
     "counts the weights only, leaving out the KV cache",
     ("cache", "total", "together"))
_add("misread", L11, "design_serving_gb",
     "design_serving_gb = serving_memory(design, context=BUDGET.context, batch=BUDGET.batch,\n"
     "                                   kv=BUDGET.kv)['total'] / GB\n",
     "leaves the weights at the default bf16 instead of the job's int4",
     ("int4", "weights precision", "budget.weights", "precision", "4-bit", "weights"))
_add("forgot", L11, "design_train_flops",
     "design_train_flops = training_flops(design, T_train).total\n",
     "prices one sequence, not all D // T_train of them",
     ("sequences", "d // t", "times", "number of sequences"))
_add("factor", L11, "design_train_flops",
     "design_train_flops = training_flops(design, T_train).total * D\n",
     "multiplies one sequence's FLOPs by the tokens instead of the sequences",
     ("sequences", "d // t_train", "per sequence", "tokens", "t_train"))
_add("misread", L11, "design_train_flops",
     "design_train_flops = 6 * count_params(design).total * D\n",
     "uses the 6·N·D rule of thumb instead of training_flops (attention and the lookup differ)",
     ("training_flops", "attention", "rule of thumb", "6n", "6·n", "exact"))
_add("factor", L11, "tightest_budget",
     "used = {'parameters': design_params / BUDGET.max_params,\n"
     "        'memory': design_serving_gb / BUDGET.max_serving_gb,\n"
     "        'compute': design_train_flops / BUDGET.max_train_flops}\n"
     "tightest_budget = min(used, key=used.get)\n",
     "picks the budget with the smallest fraction used",
     ("largest", "max", "most", "highest"))
_add("misread", L11, "other_tying_params",
     "other_tying_params = count_params(design).total\n",
     "gives the design's own count, tying not flipped",
     ("flip", "other", "tying", "untied", "tied", "v·d"))
_add("factor", L11, "other_tying_params",
     "other_tying_params = count_params(design).total - design['vocab_size'] * design['hidden_size']\n",
     "takes a table away on untying; untying adds a head",
     ("direction", "untied", "sign"))

# ------------------------------------------------------------------ 12 change a vocabulary
L12 = "12-change-a-vocabulary"
_add("factor", L12, "added_params",
     "added_params = n_new * d * 2\n",
     "counts a head row per new token although the head is tied",
     ("tied", "once", "head", "same matrix", "twice"))
_add("misread", L12, "added_params",
     "added_params = n_new * d + n_new\n",
     "adds a head bias per new token to a model whose head has none",
     ("bias", "no bias", "head bias"))
_add("forgot", L12, "padding_rows",
     "padding_rows = padded_size(max(V, n_tok + n_new), pad_multiple) - V\n",
     "counts the rows past the old table, forgetting the new tokens own rows",
     ("new tokens", "n_new", "t + n_new", "own rows", "owned"))
_add("misread", L12, "p_new_token",
     "grown = resize_tinylm(run.model, n_new, 'mean')\n"
     "p_new_token = float(grown.logits(context)[0, corpus.vocab_size])\n",
     "gives the new token's logit, not its probability",
     ("softmax", "probability", "logit", "normalise"))
_add("factor", L12, "p_new_token",
     "grown = resize_tinylm(run.model, n_new, 'mean')\n"
     "probabilities = np.exp(log_softmax(grown.logits(context)))[0]\n"
     "p_new_token = float(probabilities[corpus.vocab_size - 1])\n",
     "reads the last old token's probability (id vocab_size − 1) instead of the first new one",
     ("first new", "vocab_size", "off by one", "new token", "index"))
_add("misread", L12, "kl_mean",
     "grown = resize_tinylm(run.model, n_new, 'mean')\n"
     "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).sum())\n",
     "sums the KL over the positions instead of averaging",
     ("mean", "average", "positions", "sum", "divide"))
_add("edge", L12, "kl_mean",
     "grown = resize_tinylm(run.model, 1, 'mean')\n"
     "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).mean())\n",
     "adds one token instead of n_new",
     ("n_new", "tokens", "how many", "hard-coded"))
_add("factor", L12, "kl_mean",
     "grown = resize_tinylm(run.model, n_new, 'mean')\n"
     "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).mean()) / np.log(2)\n",
     "converts the KL to bits; the question wants nats (natural log)",
     ("nats", "natural log", "bits", "log 2"))
_add("forgot", L12, "trimmed_rows",
     "trimmed_rows = len(used)\n",
     "counts the words' tokens only, forgetting the 256 byte tokens and the end-of-text token",
     ("256", "byte tokens", "end-of-text", "eot", "bytes"))
_add("numpy", L12, "trimmed_rows",
     "trimmed_rows = len(used) + 256 + 1\n",
     "adds the byte tokens without the union: tokens already in `used` count twice",
     ("overlap", "union", "twice", "already"))
_add("forgot", L12, "trimmed_rows",
     "trimmed_rows = len(used | set(range(256)))\n",
     "leaves out the end-of-text token",
     ("end-of-text", "eot", "eot_token", "special"))
_add("factor", L12, "saved_params",
     "saved_params = (tok.n_vocab - n_keep) * d_trim * 2\n",
     "counts a head's rows as well although the head is tied",
     ("tied", "once", "head", "trim_tied", "twice"))
_add("misread", L12, "coverage",
     "kept = used | set(range(256)) | {tok.eot_token}\n"
     "coverage = float(np.mean([set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words]))\n",
     "counts each word once instead of weighting by its frequency",
     ("weighted", "frequency", "occurrences", "weight", "how often"))
