"""heldout14: a blind corpus of wrong answers to the twelve exercises (lab notebook).

Who and when: helper blind14, on branch blind14, Mon 7 Dec 2026, 08:32-08:41 UTC (times from `date -u`).

Read: /work/notes/RULES.md; /work/shared/COURSE.md; tests/hint_corpus/__init__.py and check_wrong.py;
the exercise notebooks exercises/*.ipynb (question texts, parameters cells, the given lines of each
answer cell) and the answer cells of solutions/*.ipynb; the lesson notebooks notebooks/*.ipynb only
by their section headings and by grepping them for the figures the "half-remembering" learner copies
(907,776, 21.3%, 0.76, 524M, 262,668,288, 1/(V+k), log(1+k/V), 16 bytes, multiple of 64: each is in
the lesson named by its entry); the public API by calling it (signatures of count_params,
token_costs, serving_memory, training_flops, padded_size, resize_tinylm, kl_divergence, ...; the
docstrings of resize_tinylm and serving_memory; the printed ParamCount of gpt2).
Time box (report by 09:10) left no time to read the lessons' prose in full: the mistakes are
those the exercise texts, the solutions and COURSE.md's lesson summaries invite.

Never opened, listed, grepped or run: lib/embedlab/grading/, lib/embedlab/grade.py (kept away from
as possibly hint-related), tests/test_*.py, any other file of tests/hint_corpus/, the `issues`
command, other commits' log/show, /work/notes/* but RULES.md; no `ex.check(...)`, no grader, no
hint text. Slips: none in reading; `git merge main` (08:40, after the first commit) printed the
name of another corpus file it merged, tests/hint_corpus/heldout13.py, with "40 insertions", nothing of
its content. (check_wrong's own output prints the solution's value next to each entry's:
seen, as the brief's verification requires.)

Counts: 144 entries, 12 per lesson (01-12), every one of the 79 questions at least once (lesson
11's `design` and `defence` included). Learner styles (STYLES, parallel to ENTRIES), 4 per lesson
each: C careful (long explicit code, one conceptual slip) 48, H hurried (one-liners, wrong field,
argument, unit, precedence, stale variable) 48, R half-remembering (another lesson's formula, a
figure copied from a lesson's output for another model, a rule of thumb, a bound for the value,
right only on the simpler case) 48. Hard (HARD, marked `# hard`: two mistakes at once, or a value
that coincides with another quantity on the book's inputs): 33 (23 %).

Verified: `cd tests && nice ../.venv/bin/python -m hint_corpus.check_wrong heldout14 --same`:
problems 0, no two entries of one question compute the same value. No entry raises at top level;
function entries that raise on some inputs: 05 count_unique (H, sizes indexed by storage id: an
IndexError where a storage id exceeds the entries), as it would in a notebook.

Dropped or rewritten while verifying (first run: 5 problems, 2 same-value pairs):
- 05 count_unique "deduplicate by size": correct on every checked input (random sizes never repeat)
  -> replaced by "only compares with the previous entry".
- 10 padding_rows "multiple of 128": 50,304 is also a multiple of 128, so correct on the book's V
  -> multiple of 256.
- 11 design "Llama 3.2 1B's 16 layers at d = 1024": fits every budget -> Llama 3.2 1B's own sizes.
- 12 kl_mean with kl_divergence's arguments swapped: raises (the resized logits have more columns),
  twice -> replaced by "KL in bits" (C) and "sum, zeros init" (H, hard).
- 04 mlp_layer "two d x d_ff matrices" and "8d²" gave the same value (d_ff = 4d in Llama 3.2 1B)
  -> the second became GPT-2's MLP with its biases, 8d² + 5d.
- Not written (correct on the book's inputs, so not wrong): forgetting `kv=` in serving_memory (the
  default is bf16 for int4 weights), `d // h` for head_dim in 04 (equal for Llama 3.2 1B), a
  float64 one-hot in 02 (same values), growing the table to n_tok + n_new rows in 12 (V = n_tok for
  gpt2), an always-untied other_tying_params in 11 (the book's design is tied), n_new * d in 12.
"""

import numpy as np  # noqa: F401

from . import Wrong

_ENTRIES = []  # (style, hard, Wrong)


def _w(style, hard, lesson, name, source, mistake, words, wrong_words=()):
    _ENTRIES.append((style, hard, Wrong(lesson, name, source, mistake, tuple(words), tuple(wrong_words))))


# ============================================================== 01-toy-table
L = "01-toy-table"
_w("C", False, L, "E", '''\
# one row per feature, one column per word: I fill it feature by feature
n_words = len(words)
n_features = len(features)
E = np.zeros((n_features, n_words), dtype=int)
for j, w in enumerate(words):
    for i, f in enumerate(features):
        if f in traits[w]:
            E[i, j] = 1
''', "Built the table with one row per feature and one column per word, the transpose of the table asked for.",
   ("transpos", "one row per word", "rows and columns", "shape", "swapped"))
_w("C", False, L, "cosine", '''\
def cosine(a, b):
    # the length of a vector: I add up the sizes of its entries
    def length(v):
        total = 0.0
        for x in v:
            total += abs(x)
        return total
    dot = 0.0
    for x, y in zip(a, b):
        dot += x * y
    return float(dot / (length(a) * length(b)))
''', "Measured each vector's length as the sum of absolute values (L1) instead of the Euclidean norm.",
   ("norm", "square root", "euclid", "sqrt", "squares"))
_w("C", False, L, "cos_pair", '''\
# look up the two words, then compare their vectors
first = word_to_id[pair[0]]
second = word_to_id[pair[1]]
vec_first = table[:, first]      # the word's vector
vec_second = table[:, second]
cos_pair = cosine_similarity(vec_first, vec_second)
''', "Took columns of the table (features) at the words' ids instead of the words' rows.",
   ("row", "column", "table[word", "one row per word"))
_w("C", False, L, "extra_dim_cost", '''\
shape = model_shape(load_config(model))
vocab = shape.vocab_size
width = shape.hidden_size
new_width = width + extra_features
# the table after the change
extra_dim_cost = vocab * new_width
''', "Gave the size of the whole widened table instead of the parameters it gains.",
   ("gain", "difference", "only the added", "extra", "increase", "more than before"))
_w("H", False, L, "n_params", "n_params = len(words) + len(features)\n",
   "Added the number of rows and columns instead of multiplying them.",
   ("multipl", "times", "rows × columns", "product", "×"))
_w("H", False, L, "batch", "batch = table[[word_to_id[w] for w in dict.fromkeys(sentence)]]\n",
   "Dropped the repeated word of the sentence, so the batch has one row per distinct word instead of per position.",
   ("repeat", "every word of the sentence", "duplicate", "each position", "one row per word", "length"))
_w("H", False, L, "model_table",
   "model_table = model_shape(load_config(model)).vocab_size * model_shape(load_config(model)).num_layers\n",
   "Multiplied the vocabulary by the number of layers instead of the width (hidden_size).",
   ("hidden_size", "width"))
_w("H", False, L, "cosine", "def cosine(a, b):\n    return float(a @ b / np.linalg.norm(a) * np.linalg.norm(b))\n",
   "Operator precedence: divided by the first norm and then multiplied by the second instead of dividing by their product.",
   ("parenthes", "bracket", "precedence", "product of the norms", "both norms", "multiplied"))
_w("R", True, L, "n_params", "# parameters = the entries that hold something\nn_params = int(np.sum(E))\n",
   "Counted the ones in the table instead of every entry (zeros are parameters too); on the book's table the sum is 6, the lesson's 3×2 count.",  # hard: 6 = the lesson's toy count
   ("every entry", "zero", "rows × columns", "size", "all entries", "shape"))
_w("R", False, L, "model_table", '''\
shape = model_shape(load_config(model))
# the embedding is the token table plus the position table (1024 positions)
model_table = shape.vocab_size * shape.hidden_size + 1024 * shape.hidden_size
''', "Added the position table to the token table.",
   ("position", "token table only", "token embedding", "only the token"))
_w("R", False, L, "extra_dim_cost", "extra_dim_cost = len(words) * extra_features\n",
   "Used the toy table's four words as the rows instead of the real model's vocabulary.",
   ("vocab_size", "every token", "v ×", "50,257", "model's vocabulary", "real model"))
_w("R", False, L, "cos_pair", "cos_pair = float(table[word_to_id[pair[0]]] @ table[word_to_id[pair[1]]])\n",
   "Gave the plain dot product of the two rows without dividing by their lengths.",
   ("normalis", "normaliz", "norm", "length", "divide"), ("column",))

# ============================================================== 02-lookup-vs-matmul
L = "02-lookup-vs-matmul"
_w("C", False, L, "embedding_backward", '''\
def embedding_backward(ids, grad_out, V):
    d = grad_out.shape[1]
    grad_E = np.zeros((V, d))
    already = set()
    for t, v in enumerate(ids):
        if v in already:        # this row already has its gradient
            continue
        grad_E[v] = grad_out[t]
        already.add(v)
    return grad_E
''', "Kept only the first occurrence of a repeated id instead of adding the gradients of every occurrence.",
   ("accumul", "add", "sum", "repeat", "every position", "each occurrence"))
_w("C", False, L, "one_hot", '''\
def one_hot(ids, V):
    n = len(ids)
    out = np.zeros((V, n))
    for t in range(n):
        column = t
        out[ids[t], column] = 1.0   # a 1 in the id's place
    return out
''', "Built the transposed matrix, (V, len(ids)), one column per id instead of one row.",
   ("shape", "transpos", "one row per id", "(len(ids), v)", "rows"))
_w("C", False, L, "updated_rows", '''\
# every id that the batch looks up gets a gradient
all_ids = []
for sequence in batch:
    for token in sequence:
        all_ids.append(token)
updated_rows = np.sort(np.array(all_ids))
''', "Listed every looked-up id, repeats included, instead of each row once.",
   ("once", "unique", "duplicate", "repeat"))
_w("C", False, L, "one_hot_batch_bytes", '''\
# float32: 32 per number
size_of_number = 32
n_numbers = n_tokens * V          # the one-hot matrix is n_tokens x V
one_hot_batch_bytes = n_numbers * size_of_number
''', "Used 32 bits as if they were bytes: float32 is 4 bytes a number.",
   ("bytes", "bit", "itemsize", "4 bytes"))
_w("H", False, L, "rows_lookup", "rows_lookup = E[np.unique(ids)]\n",
   "Looked up each distinct id once and sorted, losing the batch's order and its repeated id.",
   ("repeat", "order", "every id", "one row per id", "duplicate"))
_w("H", True, L, "batch_flops", "batch_flops = V * d\n",
   "Gave one token's multiplications only: neither the 2 FLOPs per multiply-add nor the n_tokens of the batch.",  # hard: two mistakes
   ("n_tokens", "batch", "every token", "two flops", "2 flops", "multiply-add", "multiply and add"))
_w("H", False, L, "rows_matmul", "rows_matmul = E.T @ np.eye(table_V)[ids].T\n",
   "Multiplied in the other order and got the transposed result (d, len(ids)).",
   ("transpos", "shape", "order", "one-hot on the left", "one_hot(ids) @ e"))
_w("H", False, L, "keeps_sign", 'keeps_sign = "both"\n',
   "Said both paths keep -0.0, but the matmul's sum with +0.0 products gives +0.0.",
   ("matmul", "sum", "+0", "positive zero", "adds"))
_w("R", False, L, "batch_flops", "batch_flops = V * d * n_tokens\n",
   "Counted one FLOP per multiply-add instead of two.",
   ("two flops", "2 flops", "multiply-add", "multiply and add", "factor of 2", "2·v·d", "2 · v · d"))
_w("R", True, L, "one_hot_batch_bytes", "one_hot_batch_bytes = n_tokens * d * 4\n",
   "Sized the looked-up rows (n_tokens × d) instead of the one-hot matrix (n_tokens × V); the value is the output embeddings' bytes.",  # hard: another quantity
   ("one-hot", "one hot", "v columns", "vocab", "32,000", "n_tokens × v"))
_w("R", False, L, "updated_rows", "updated_rows = np.arange(batch_V)\n",
   "Answered every row (the tied case) although the table is untied and only looked up.",
   ("untied", "only", "appear", "in the batch", "looked up"))
_w("R", False, L, "embedding_backward", '''\
def embedding_backward(ids, grad_out, V):
    grad_E = np.zeros((V, grad_out.shape[1]))
    grad_E[ids] += grad_out
    return grad_E
''', "Used fancy-index += which does not accumulate repeated ids (np.add.at does).",
   ("np.add.at", "add.at", "repeat", "accumul", "buffer"))

# ============================================================== 03-counting-gpt2
L = "03-counting-gpt2"
_w("C", False, L, "block_params", '''\
attention_qkv = d * 3 * d + 3 * d        # fused q, k, v with bias
attention_out = d * d + d
mlp_up = d * 4 * d + 4 * d
mlp_down = 4 * d * d + d
layernorms = 2 * d                        # two LayerNorms, one scale vector each
block_params = attention_qkv + attention_out + mlp_up + mlp_down + layernorms
''', "Gave each LayerNorm only its scale, d, forgetting its bias (shift): 2d each.",
   ("layernorm", "bias", "shift", "beta", "two vectors", "2d each", "scale and"), ("final layernorm", "position"))
_w("C", False, L, "gpt2_params", '''\
def gpt2_params(V, d, L, T):
    token_table = V * d
    position_table = T * d
    attention = 3 * d * d + 3 * d + d * d + d
    mlp = 4 * d * d + 4 * d + 4 * d * d + d
    norms = 2 * 2 * d
    one_block = attention + mlp + norms
    return token_table + position_table + L * one_block
''', "Left out the final LayerNorm (2d).",
   ("final", "last layernorm", "ln_f", "final norm", "after the last block"))
_w("C", False, L, "estimate_gap", '''\
estimate = V * d + 12 * L * d ** 2
# how far apart the two are
estimate_gap = estimate - exact
''', "Computed estimate minus exact, the negative of the shortfall.",
   ("sign", "negative", "exact − estimate", "exact - estimate", "exact minus", "other way"))
_w("C", False, L, "embedding_share", '''\
counts = count_params(load_config(share_model))
table = counts.token_embedding
everything_else = counts.total - table
embedding_share = table / everything_else
''', "Divided the table by the rest of the model instead of by the total.",
   ("total", "whole model", "denominator", "all parameters", "all the parameters"))
_w("H", True, L, "linear_params", "linear_params = linear_in * linear_out\n",
   "Left out the bias; on the book's sizes the value also equals 4d² for d = 1024, the attention of a GPT-2 medium block.",  # hard: coincides
   ("bias",), ("4d",))
_w("H", True, L, "interview", "interview = 2 * interview_V * interview_d\n",  # hard: the value is an untied table + head
   "Counted the tied head as a second matrix.",
   ("tied", "once", "same matrix", "shared", "twice", "one matrix"))
_w("H", False, L, "embedding_share",
   "embedding_share = count_params(load_config(share_model)).token_embedding / count_params(load_config(share_model)).total * 100\n",
   "Gave a percentage instead of a fraction between 0 and 1.",
   ("percent", "fraction", "between 0 and 1", "100", "%"))
_w("H", False, L, "gpt2_params", "def gpt2_params(V, d, L, T):\n    return V * d + L * (12 * d * d + 13 * d) + 2 * d\n",
   "Left out the learned position table, T × d.",
   ("position", "t × d", "t * d", "context", "wpe"))
_w("R", False, L, "gpt2_params", "def gpt2_params(V, d, L, T):\n    return V * d + 12 * L * d ** 2\n",
   "Returned the rule of thumb V·d + 12·L·d² instead of the exact count (positions, biases, norms).",
   ("position", "bias", "layernorm", "exact", "rule of thumb", "estimate", "13d", "13·d"))
_w("R", True, L, "block_params", "# attention 4d², MLP 4d²\nblock_params = 4 * d * d + 4 * d * d\n",
   "Took the MLP as 4d² (it is two d×4d matrices, 8d²) and left out every bias and LayerNorm.",  # hard: two mistakes
   ("8d²", "8d^2", "two matrices", "d × 4d", "mlp", "bias", "12d²"))
_w("R", False, L, "interview", "interview = 38597376   # V·d, from the lesson\n",
   "Typed GPT-2 small's table size from the lesson instead of computing interview_V × interview_d.",
   ("interview_v", "40000", "40,000", "parameters cell", "your v", "compute"))
_w("R", False, L, "estimate_gap", "estimate_gap = 907776   # the gap the lesson found\n",
   "Typed GPT-2 small's gap from the lesson instead of computing it for gap_model.",
   ("gap_model", "gpt2-medium", "medium", "this model", "compute", "exact -"))

# ============================================================== 04-modern-blocks
L = "04-modern-blocks"
_w("C", False, L, "attn_layer", '''\
q_proj = d * h * head_dim
k_proj = d * h * head_dim
v_proj = d * h * head_dim
o_proj = h * head_dim * d
attn_layer = q_proj + k_proj + v_proj + o_proj
''', "Gave k and v one head per query head (h) instead of the h_kv key/value heads of grouped-query attention.",
   ("h_kv", "key/value heads", "grouped", "kv heads", "num_kv_heads"))
_w("C", True, L, "llama_params", '''\
def llama_params(V, d, L, h, h_kv, d_ff, tied):
    head_dim = d // h
    q_and_o = 2 * d * h * head_dim
    k_and_v = 2 * d * h_kv * head_dim
    mlp = 3 * d * d_ff
    norms = 2 * (2 * d)            # two norms, each a weight and a bias
    layer = q_and_o + k_and_v + mlp + norms
    table = V * d
    head = 0 if tied else V * d
    return table + L * layer + head
''', "Gave each RMSNorm a bias (2d) and left out the final norm.",  # hard: two mistakes
   ("rmsnorm", "bias", "final", "scale only", "only a weight", "d each"))
_w("C", True, L, "padding_params", '''\
import math
padded_V = math.ceil(V / pad_multiple) * pad_multiple
extra_rows = padded_V - V
embedding_part = extra_rows * d
head_part = extra_rows * d        # the head gets the same rows
padding_params = embedding_part + head_part
''', "Counted the padded rows twice, for table and head, though the head is tied (one matrix).",  # hard: the value is the untied answer
   ("tied", "once", "shared", "same matrix", "one matrix"))
_w("C", False, L, "mlp_layer", '''\
up = d * d_ff
down = d_ff * d
mlp_layer = up + down
''', "Counted two matrices (up and down) and forgot SwiGLU's gate: three d × d_ff matrices.",
   ("three", "gate", "swiglu", "3 ×", "3·d"))
_w("H", False, L, "vocab_share",
   "c = count_params(load_config(share_model)); vocab_share = c.token_embedding / c.total\n",
   "Counted only the token table and left out the untied output head.",
   ("head", "lm_head", "output", "untied", "both"))
_w("H", True, L, "padding_params", "padding_params = (V % pad_multiple) * d * 2\n",
   "Used the remainder V mod 64 instead of the rows missing to the next multiple, and counted the tied head's rows again.",  # hard: two mistakes
   ("round up", "next multiple", "remainder", "ceil", "missing"))
_w("H", False, L, "attn_layer", "attn_layer = 2 * d * d + 2 * d * h_kv\n",
   "Left head_dim out of the key/value projections: each is d × (h_kv · head_dim).",
   ("head_dim", "width of each head", "h_kv × head_dim", "h_kv * head_dim", "head width"))
_w("H", False, L, "llama_params",
   "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    return V * d * (1 if tied else 2) + L * (4 * d * d + 3 * d * d_ff + 2 * d) + d\n",
   "Counted the attention as 4d², ignoring grouped-query attention's smaller k and v.",
   ("h_kv", "grouped", "key/value", "kv heads"))
_w("R", False, L, "mlp_layer", "mlp_layer = 8 * d * d + 5 * d   # 4x MLP with its biases, as GPT-2\n",
   "Counted GPT-2's MLP (two matrices and their biases) instead of a SwiGLU MLP: three d × d_ff matrices, no biases.",
   ("bias", "swiglu", "three matrices", "gate", "three"))
_w("R", True, L, "vocab_share", "vocab_share = 0.213   # the lesson's share\n",
   "Typed Llama 3.2 1B's share from the lesson (another model, and rounded) instead of computing share_model's.",  # hard: another model's number
   ("share_model", "llama-3-8b", "this model", "compute", "rounded", "count_params"))
_w("R", False, L, "padding_params", "from embedlab import padded_size\npadding_params = padded_size(V, pad_multiple) * d\n",
   "Gave the padded table's whole size instead of the parameters the padding rows add.",
   ("added", "only the padded", "difference", "extra rows", "minus", "padding rows"))
_w("R", False, L, "llama_params", '''\
def llama_params(V, d, L, h, h_kv, d_ff, tied):
    head_dim = d // h
    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 3 * d * d_ff + 2 * d
    return 2 * V * d + L * layer + d
''', "Always counted a separate head, right only for untied models.",
   ("tied", "tie"))

# ============================================================== 05-weight-tying
L = "05-weight-tying"
_w("C", False, L, "grad_E", '''\
# the rows looked up get their gradient back
grad_E = np.zeros((V, d))
for position, token in enumerate(ids):
    grad_E[token] += dx0[position]
''', "Kept only the lookup path and left out the head's gradient dlogits.T @ x.",
   ("both", "head", "logits", "sum of", "two paths", "output", "dlogits"))
_w("C", False, L, "count_unique", '''\
def count_unique(storage, sizes):
    # a tied entry points at the storage of the entry just before it: skip it
    total = 0
    previous = None
    for s, n in zip(storage.tolist(), sizes.tolist()):
        if s != previous:
            total += n
        previous = s
    return total
''', "Looked for a shared storage only in the entry just before, so a tied head listed after other entries is counted again.",
   ("storage", "every earlier", "any earlier", "already counted", "seen", "once"))
_w("C", True, L, "tied_count", '''\
table = V * d
head = V * d
tied_count = untied - table - head      # tying removes the vocabulary matrices
''', "Took away both the table and the head; tying removes only the head's separate copy.",  # hard: the value is Kaplan's non-embedding N (lesson 06)
   ("once", "table stays", "only the head", "keeps", "one v × d", "one v×d"))
_w("C", False, L, "state_dict_sum", '''\
config = load_config(tied_model)
counts = count_params(config)
# the state dict holds every parameter, so its sum is the total
state_dict_sum = counts.total
''', "Gave the true count; the naive sum counts the tied table under both names, adding V × d.",
   ("twice", "both names", "again", "v × d", "two names", "double"))
_w("H", False, L, "ties", "ties = candidates[0]\n",
   "Took the first candidate without looking at tie_word_embeddings.",
   ("tie_word_embeddings", "config", "llama-3.2-1b", "look"))
_w("H", True, L, "grad_E", "grad_E = x.T @ dlogits\n",
   "Multiplied in the wrong order (shape (d, V)) and left out the lookup path dx0.",  # hard: two mistakes
   ("transpos", "shape", "dlogits.t", "order", "dx0", "lookup"))
_w("H", True, L, "count_unique",
   "def count_unique(storage, sizes):\n    return int(sizes[np.unique(storage)].sum())\n",
   "Indexed sizes by storage id instead of by entry; right on the question's example only.",  # hard: right on the example
   ("position", "index", "storage id", "entry", "first entry"))
_w("H", True, L, "state_dict_sum", "state_dict_sum = count_params(load_config(tied_model)).total + V * d\n",
   "Used V and d left over from the toy of question 2 instead of tied_model's vocabulary and width.",  # hard: stale variable
   ("tied_model", "vocab_size", "hidden_size", "gpt2", "50,257", "toy"))
_w("R", False, L, "tied_count", "from embedlab import estimate_params\ntied_count = estimate_params(V, d, shape.num_layers)\n",
   "Used lesson 03's rule-of-thumb estimate instead of the exact count minus the head.",
   ("exact", "estimate", "untied −", "untied -", "count_params", "subtract"))
_w("R", False, L, "grad_E", "grad_E = dlogits.T @ x\n",
   "Kept only the head's gradient, as for an untied head, and left out the lookup rows' dx0.",
   ("lookup", "dx0", "input", "both", "add.at", "two paths"))
_w("R", False, L, "ties", 'ties = "mistral-7b"\n',
   "Named Mistral-7B, which does not tie its head.",
   ("tie_word_embeddings", "config", "does not tie", "untied", "mistral"))
_w("R", False, L, "count_unique", "def count_unique(storage, sizes):\n    return int(np.sum(sizes))\n",
   "Summed every entry, counting a shared storage twice (right only when nothing is tied).",
   ("storage", "once", "twice", "shared", "tied"))

# ============================================================== 06-params-vs-compute
L = "06-params-vs-compute"
_w("C", False, L, "forward_flops_per_token", '''\
def forward_flops_per_token(V, d, L, d_ff, context):
    attention_weights = 4 * d * d          # q, k, v, o
    mlp_weights = 2 * d * d_ff             # up and down
    per_block = 2 * (attention_weights + mlp_weights)
    head = 2 * d * V
    return L * per_block + head
''', "Left out the attention over the context, 4·context·d per block.",
   ("context", "attention over", "4·context·d", "keys", "4 * context"))
_w("C", False, L, "head_share_training", '''\
per_position = c.input + c.blocks + c.head
whole_pass = T * per_position
head_part = T * c.head
head_share_training = head_part / whole_pass
''', "Left the attention over the context, attention_per_key × T(T+1)/2, out of the pass's total.",
   ("attention", "t(t+1)/2", "keys", "context", "attention_per_key"))
_w("C", False, L, "active_params", '''\
one_expert = 3 * d * d_ff
used_experts_per_layer = k
skipped = moe_layers * used_experts_per_layer * one_expert
active_params = counts.total - skipped
''', "Took away the k routed experts instead of the n_experts − k the token skips.",
   ("skip", "n_experts − k", "n_experts - k", "not routed", "unused experts", "other experts"))
_w("C", False, L, "flop_rate", '''\
total_flops = 6 * N * D
seconds = GPU_HOURS * 60         # hours to seconds
flop_rate = total_flops / seconds
''', "Converted hours to seconds with 60 instead of 3600.",
   ("3600", "3,600", "seconds", "hour"), ("backward", "2·n·d"))
_w("H", True, L, "lookup_flops", "lookup_flops = 2 * V * d\n",
   "Priced the lookup as a one-hot matmul, 2·V·d, which is the head's cost, not a row copy's (0).",  # hard: equals a head's FLOPs
   ("lookup", "copy", "no multipl", "zero", "0 flops", "nothing"))
_w("H", True, L, "head_flops", "head_flops = d * V\n",  # hard: the value is the head's parameter count
   "Counted one FLOP per multiply-add; the head costs 2·d·V.",
   ("multiply-add", "multiply and add", "2·d·v", "2 flops", "two flops", "factor of 2"))
_w("H", False, L, "kaplan_n", "kaplan_n = counts.total - counts.token_embedding\n",
   "Left the untied head (lm_head) in N.",
   ("head", "lm_head", "untied", "output"))
_w("H", True, L, "head_share_prompt",
   "head_share_prompt = c.head / (T * (c.input + c.blocks + c.head) + c.attention_per_key * T * (T + 1) // 2)\n",
   "Kept the training pass's denominator (the head T times) while counting the head once on top.",  # hard: half right
   ("once", "last position", "denominator", "total of this pass", "only the last"))
_w("R", False, L, "flop_rate", "flop_rate = 2 * N * D / (GPU_HOURS * 3600)\n",
   "Used the forward-only 2·N·D instead of training's 6·N·D.",
   ("6·n·d", "6nd", "6 n d", "backward", "training"))
_w("R", False, L, "active_params", "active_params = int(counts.total * k / n_experts)\n",
   "Scaled every parameter by k/n_experts, though attention, norms and tables are used by every token.",
   ("attention", "shared", "only the experts", "not every parameter", "embedding", "expert"))
_w("R", True, L, "forward_flops_per_token",
   "def forward_flops_per_token(V, d, L, d_ff, context):\n    return 2 * (V * d + 12 * L * d * d)\n",
   "Used 2N with the 12d² rule of thumb, ignoring d_ff and the attention over the context.",  # hard: two mistakes
   ("d_ff", "context", "attention", "exact", "rule of thumb"))
_w("R", False, L, "head_share_prompt",
   "head_share_prompt = c.head / (c.input + c.blocks + c.head + c.attention_per_key)\n",
   "Priced a single position (T = 1): the prompt's T positions and their attention are missing.",
   ("t times", "every position", "prompt", "all t", "t positions"))

# ============================================================== 07-memory
L = "07-memory"
_w("C", False, L, "adam_parts", '''\
fp16 = 2
fp32 = 4
weights_bytes = fp16 * n_params
gradient_bytes = fp16 * n_params
master_bytes = fp32 * n_params
moment_bytes = fp32 * n_params         # Adam's moment
adam_parts = np.array([weights_bytes, gradient_bytes, master_bytes, moment_bytes])
''', "Stored one fp32 moment instead of Adam's two, m and v (8 bytes a parameter).",
   ("two moments", "m and v", "both moments", "8 bytes", "second moment"))
_w("C", False, L, "kv_cache_gb", '''\
def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):
    per_token_per_layer = h_kv * head_dim * bytes_per_number
    per_token = L * per_token_per_layer
    total_bytes = per_token * context * batch
    return total_bytes / 1e9
''', "Stored only one of keys and values: the cache holds both, a factor 2.",
   ("keys and values", "k and v", "both k", "factor of 2", "2 ·", "2 ×"))
_w("C", False, L, "gqa_saving_gib", '''\
bytes_per_number = BYTES_PER_PARAM[cache_precision]
per_token_full = 2 * L * h * head_dim * bytes_per_number
per_token_grouped = 2 * L * h_kv * head_dim * bytes_per_number
saving_bytes = (per_token_full - per_token_grouped) * context
gqa_saving_gib = saving_bytes / 1e9
''', "Divided by 10⁹ (GB) instead of 2³⁰ (GiB).",
   ("gib", "2**30", "2^30", "1024", "binary", "1,073,741,824"), ("h_kv instead", "query heads"))
_w("C", False, L, "max_batch", '''\
free = memory - weights
how_many = free / per_sequence
max_batch = int(round(how_many))
''', "Rounded to the nearest whole number instead of down: the last sequence does not fit.",
   ("round down", "floor", "whole", "does not fit", "//", "rounded up"))
_w("H", True, L, "weights_gb_4bit", "weights_gb_4bit = N * 4 / 1e9\n",  # hard: the value is the weights in fp32
   "Took 4 bits as 4 bytes per parameter.",
   ("half a byte", "0.5", "bits", "4 bits", "bits, not bytes"))
_w("H", False, L, "kv_bytes_per_token", "kv_bytes_per_token = int(2 * L * h * head_dim * BYTES_PER_PARAM[cache_precision])\n",
   "Used the query heads h instead of the key/value heads h_kv.",
   ("h_kv", "key/value heads", "grouped", "kv heads", "num_key_value_heads"))
_w("H", False, L, "kv_cache_gb",
   "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / 2**30\n",
   "Divided by 2³⁰ (GiB) where GB (10⁹) was asked.",
   ("10⁹", "1e9", "not gib", "decimal", "10**9", "10^9"))
_w("H", False, L, "max_batch", "max_batch = int(memory // per_sequence)\n",
   "Forgot that the weights take part of the GPU first.",
   ("weights", "minus", "left", "remaining", "after the"))
_w("R", True, L, "weights_gb_4bit", "weights_gb_4bit = 8e9 * 0.5 / 1e9   # an 8B model\n",
   "Used the name's nominal 8B instead of the exact parameter count.",  # hard: right formula, rounded N
   ("count_params", "exact", "8,030", "nominal", "name", "n ="))
_w("R", True, L, "adam_parts", "adam_parts = np.array([4, 4, 4, 4]) * n_params   # 16 bytes a parameter\n",
   "Used the 16-bytes-a-parameter total split evenly as fp32 weights and gradients, instead of fp16 weights/gradients and 8 bytes of moments; the sum coincides.",  # hard: same total
   ("fp16", "half", "2 bytes", "mixed precision", "parts", "moments"))
_w("R", False, L, "gqa_saving_gib", "gqa_saving_gib = h / h_kv\n",
   "Gave the ratio of heads instead of the GiB the grouping saves.",
   ("gib", "difference", "bytes", "not a ratio", "saves"))
_w("R", False, L, "kv_bytes_per_token", "kv_bytes_per_token = int(2 * h_kv * head_dim * BYTES_PER_PARAM[cache_precision])\n",
   "Priced one layer: the cache holds keys and values in every layer.",
   ("layers", "every layer", "l ×", "num_hidden_layers", "each layer"))

# ============================================================== 08-vocabulary-size
L = "08-vocabulary-size"
_w("C", False, L, "bpe_merges", '''\
def bpe_merges(counts, n_merges):
    words = [list(w.encode("utf-8")) for w in counts]
    freqs = [counts[w] for w in counts]
    merges = []
    for k in range(n_merges):
        pair_counts = {}
        for tokens, n in zip(words, freqs):
            for a, b in zip(tokens, tokens[1:]):
                pair_counts[(a, b)] = pair_counts.get((a, b), 0) + n
        if not pair_counts:
            break
        # most frequent pair; on a tie, max picks between them
        best = max(pair_counts, key=lambda p: (pair_counts[p], p))
        merges.append(best)
        new_id = 256 + k
        for i, tokens in enumerate(words):
            merged, j = [], 0
            while j < len(tokens):
                if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:
                    merged.append(new_id)
                    j += 2
                else:
                    merged.append(tokens[j])
                    j += 1
            words[i] = merged
    return merges
''', "Broke ties by the largest pair instead of the smallest.",
   ("tie", "smallest", "ties", "lowest"), ("utf-8", "space", "overlap"))
_w("C", False, L, "tokens_per_word", '''\
def tokens_per_word(counts, n_tokens):
    # the mean over the words of the text
    total = 0.0
    for n in n_tokens:
        total += n
    return float(total / len(n_tokens))
''', "Averaged over distinct words, ignoring how often each occurs.",
   ("weight", "count", "running", "frequen", "occur"))
_w("C", False, L, "hindi_r", '''\
def tokens_per_running_word(tokenizer):
    token_total = 0
    word_total = 0
    for word, count in hindi.items():
        token_total += len(tokenizer.encode(word)) * count
        word_total += count
    return token_total / word_total

hindi_r = tokens_per_running_word(cl100k) / tokens_per_running_word(gpt2)
''', "Encoded each word without the leading space it has in running text.",
   ("space", '" " +', "leading", "after a space"))
_w("C", False, L, "break_even_r", '''\
cost_small = blocks + 2 * d * V_small      # per token, small vocabulary
cost_big = blocks + 2 * d * V_big
break_even_r = cost_big / cost_small
''', "Inverted the ratio: the big vocabulary breaks even with fewer tokens, small cost over big cost.",
   ("invert", "upside", "other way", "below 1", "less than 1", "small over big"))
_w("H", True, L, "embedding_params", "embedding_params = 2 * V_big * d\n",  # hard: the value is an untied table + head
   "Counted the tied head as a second table.",
   ("tied", "once", "shared", "same matrix"))
_w("H", False, L, "embedding_share", "embedding_share = table / rest\n",
   "Divided by the rest instead of by the whole model (table + rest).",
   ("whole model", "table + rest", "total", "denominator"))
_w("H", False, L, "extra_head_flops", "extra_head_flops = d * (V_big - V_small)\n",
   "Forgot the factor 2: a multiply-add is 2 FLOPs, the head 2·d·V.",
   ("2 flops", "multiply-add", "multiply and add", "2·d", "factor of 2", "factor 2"))
_w("H", False, L, "hindi_single_token_share", "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top_hindi)\n",
   "Gave the count of single-token words instead of their fraction.",
   ("fraction", "divide", "share", "n_top", "between 0 and 1"))
_w("R", True, L, "embedding_share", "embedding_share = 524e6 / 1.5e9   # the lesson's 524M of 1.5B\n",
   "Typed the lesson's rounded headline figures instead of computing from V_big, d and rest.",  # hard: rounded lesson figures
   ("compute", "exact", "rest", "v_big", "rounded"))
_w("R", True, L, "break_even_r", "break_even_r = 0.76\n",
   "Typed the lesson's break-even found at d = 768 instead of computing it for these blocks and d.",  # hard: another width's number
   ("compute", "d = 2048", "this width", "your numbers", "blocks", "768"))
_w("R", False, L, "tokens_per_word",
   "def tokens_per_word(counts, n_tokens):\n    return float(np.sum(np.array(counts) * np.array(n_tokens)) / len(counts))\n",
   "Divided the weighted token total by the number of distinct words instead of the total count.",
   ("total count", "counts.sum", "sum of the counts", "running words", "number of words"))
_w("R", False, L, "hindi_single_token_share", '''\
gpt2_tok = load_tokenizer("gpt2")
hindi_single_token_share = sum(len(gpt2_tok.encode(w)) == 1 for w in top_hindi) / n_top
''', "Asked GPT-2's tokenizer instead of the tokenizer the cell trained.",
   ("bpe", "trained", "the cell's", "this tokenizer", "count_tokens"))

# ============================================================== 09-what-rows-learn
L = "09-what-rows-learn"
_w("C", True, L, "gap", '''\
def cos(u, v):
    return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))

within = []
for group in (animals, vehicles):
    for i in group:
        for j in group:
            within.append(cos(E[i], E[j]))      # every pair in the group
across = [cos(E[i], E[j]) for i in animals for j in vehicles]
gap = np.mean(within) - np.mean(across)
''', "Included each word with itself (cosine 1) and each pair twice in the within-group mean.",  # hard: 128 terms vs 56
   ("different", "itself", "self", "diagonal", "i < j", "56 pairs"))
_w("C", False, L, "tinylm_grads", '''\
def tinylm_grads(E, W, b, U, contexts, targets):
    B, C = contexts.shape
    x0 = E[contexts].reshape(B, -1)
    x = np.tanh(x0 @ W + b)
    logits = x @ U.T
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    p = p / p.sum(axis=1, keepdims=True)
    dlogits = p.copy()
    dlogits[np.arange(B), targets] -= 1.0     # softmax minus one-hot
    dU = dlogits.T @ x
    da = (dlogits @ U) * (1 - x ** 2)
    dx0 = (da @ W.T).reshape(B, C, -1)
    dE = np.zeros_like(E, dtype=np.float64)
    np.add.at(dE, contexts, dx0)
    return dE, dU
''', "Gave the gradient of the summed loss: the mean over the batch needs a division by B.",
   ("mean", "divide by b", "batch size", "/ b", "average"), ("tanh", "add.at", "repeated"))
_w("C", False, L, "cos_cat", '''\
cat_row = E[cat]
cat_length = np.linalg.norm(cat_row)
values = []
for i in animals + vehicles:
    values.append(E[i] @ cat_row / cat_length)
cos_cat = np.array(values)
''', "Divided by the cat row's length only, not by each other row's length too.",
   ("norm", "both", "each row", "length", "normalis", "normaliz"))
_w("C", False, L, "embedding_grad", '''\
def embedding_grad(contexts, dx0, vocab_size):
    B, C = contexts.shape
    d = dx0.shape[-1]
    dE = np.zeros((vocab_size, d))
    for b_ in range(B):
        token = contexts[b_, 0]          # the row that sat in the context
        dE[token] += dx0[b_, 0]
    return dE
''', "Added only the first context slot's gradient; every slot's row gets its own.",
   ("every slot", "both context", "each slot", "slot", "all c"))
_w("H", True, L, "n_params", "n_params = V * d + 2 * d * d + d\n",  # hard: the value is the tied model's count
   "Left out the untied output matrix U (V × d).",
   ("output matrix", "untied", "head", "u (v × d)", "own matrix"))
_w("H", False, L, "embedding_grad",
   "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1])); dE[contexts] += dx0; return dE\n",
   "Used fancy-index += which keeps one contribution of a repeated token; np.add.at adds them all.",
   ("np.add.at", "add.at", "repeated", "twice", "accumul", "both contributions"))
_w("H", False, L, "rotation_changes_cosines", 'rotation_changes_cosines = "yes"\n',
   "Said a rotation changes the cosines; an orthogonal matrix keeps dot products and lengths.",
   ("orthogonal", "preserv", "angles", "lengths", "dot products", "unchanged"))
_w("H", True, L, "gap", '''\
u = E / np.linalg.norm(E, axis=1, keepdims=True); S = u @ u.T
gap = S[np.ix_(animals, animals)].mean() - S[np.ix_(animals, vehicles)].mean()
''', "Took the within mean over animals only and with the diagonal of ones included.",  # hard: two mistakes
   ("vehicles", "both groups", "diagonal", "different words", "itself"))
_w("R", False, L, "n_params", "n_params = V * d + d * d + d + V * d\n",
   "Gave W d × d, the one-token context; the model reads two tokens side by side, 2d inputs.",
   ("two previous", "2d", "two context", "side by side", "2 × d", "2·d"))
_w("R", False, L, "tinylm_grads", '''\
def tinylm_grads(E, W, b, U, contexts, targets):
    B, C = contexts.shape
    x0 = E[contexts].reshape(B, -1)
    x = np.tanh(x0 @ W + b)
    z = x @ U.T
    p = np.exp(z - z.max(axis=1, keepdims=True)); p /= p.sum(axis=1, keepdims=True)
    p[np.arange(B), targets] -= 1.0
    p /= B
    dU = p.T @ x
    dx0 = (((p @ U) * (1 - x ** 2)) @ W.T).reshape(B, C, -1)
    dE = dU.copy()                          # the head's gradient reaches E too
    np.add.at(dE, contexts, dx0)
    return dE, dU
''', "Added the head's gradient into dE as if the model were tied (lesson 05); U is its own matrix here.",
   ("untied", "u is its own", "own matrix", "tied", "separate"))
_w("R", False, L, "cos_cat", "cos_cat = E[animals + vehicles] @ E[cat]\n",
   "Gave dot products, not cosines: no division by the rows' lengths.",
   ("normalis", "normaliz", "norm", "length", "cosine"))
_w("R", False, L, "gap", '''\
dist = lambda i, j: np.linalg.norm(E[i] - E[j])
within = [dist(i, j) for g in (animals, vehicles) for i in g for j in g if i < j]
across = [dist(i, j) for i in animals for j in vehicles]
gap = np.mean(within) - np.mean(across)
''', "Used Euclidean distance instead of cosine similarity.",
   ("cosine", "angle", "distance", "normalis", "similarity"))

# ============================================================== 10-glitch-tokens
L = "10-glitch-tokens"
_w("C", False, L, "unused_score", '''\
def unused_score(M, reference_ids):
    reference_mean = M[reference_ids].mean(axis=0)
    scores = []
    for i in range(M.shape[0]):
        if i in list(reference_ids):     # the reference rows are not candidates
            continue
        row = M[i]
        scores.append(row @ reference_mean / (np.linalg.norm(row) * np.linalg.norm(reference_mean)))
    return np.array(scores)
''', "Left the reference rows out of the scores; the function returns one score per row, reference included.",
   ("every row", "reference rows included", "one score per row", "shape", "included"))
_w("C", False, L, "never_cos", '''\
rows = run.model.E[never]
unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
similarity = unit @ unit.T
never_cos = similarity.mean()          # mean over the pairs
''', "Averaged the whole similarity matrix: self-pairs (1) on the diagonal and each pair twice.",
   ("different", "itself", "diagonal", "pairs", "upper", "triu"))
_w("C", False, L, "top7", '''\
from embedlab import unused_scores
scores = unused_scores(run.model.E, reference)
order = np.argsort(-scores, kind="stable")
best = []
for i in order:
    best.append(int(i))
    if len(best) == 7:
        break
top7 = np.array(best)
''', "Did not leave the four reference rows out of the ranking.",
   ("reference", "leave", "exclude", "out", "remove"))
_w("C", False, L, "invalid_bytes", '''\
leading = set()
for c in range(0x110000):
    if 0xD800 <= c <= 0xDFFF:
        continue
    encoded = chr(c).encode("utf-8")
    leading.add(encoded[0])      # the byte a character starts with
invalid_bytes = 256 - len(leading)
''', "Counted only first bytes; continuation bytes 0x80-0xBF do appear in valid UTF-8.",
   ("continuation", "anywhere", "every byte", "not only the first", "0x80"))
_w("H", False, L, "padding_rows", "padding_rows = V % pad_multiple\n",
   "Used the remainder instead of the rows up to the next multiple.",
   ("round up", "next multiple", "remainder", "ceil", "missing"))
_w("H", False, L, "top7", "from embedlab import unused_scores\ntop7 = np.argsort(unused_scores(run.model.E, reference))[:7]\n",
   "Took the lowest scores (argsort ascends) instead of the highest.",
   ("highest", "descending", "reverse", "largest", "ascending"))
_w("H", False, L, "invalid_bytes", "invalid_bytes = 11   # 0xF5..0xFF\n",
   "Counted only 0xF5-0xFF and forgot 0xC0 and 0xC1 (overlong leads).",
   ("c0", "c1", "overlong", "0xc0"))
_w("H", False, L, "partial_tokens", "partial_tokens = sum(1 for b in ordinary if b[0] >= 0x80)\n",
   "Counted tokens that start with a non-ASCII byte instead of those that fail to decode.",
   ("decode", "multi-byte", "whole character", "unicodedecodeerror", "complete"))
_w("R", False, L, "padding_rows", "padding_rows = -(-V // 256) * 256 - V\n",
   "Rounded to a multiple of 256 instead of pad_multiple.",
   ("pad_multiple", "multiple of 64", "your multiple", "64"))
_w("R", False, L, "never_cos", '''\
reserved = list(corpus.groups["reserved"])
rows = run.model.E[reserved]
u = rows / np.linalg.norm(rows, axis=1, keepdims=True)
never_cos = (u @ u.T)[np.triu_indices(len(reserved), k=1)].mean()
''', "Used the reserved rows only and left out the glitch word of `never`.",
   ("glitch", "never", "len(never)", "all of"))
_w("R", False, L, "unused_score", '''\
def unused_score(M, reference_ids):
    mean = M.mean(axis=0)
    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))
''', "Used the mean of all rows instead of the mean of the reference rows.",
   ("reference", "reference_ids", "reference rows"))
_w("R", True, L, "invalid_bytes", "invalid_bytes = 128   # bytes 0x80 and up are never valid\n",
   "Claimed every byte from 0x80 is invalid; they are valid inside multi-byte characters (only 13 never appear).",  # hard: coincides with the non-ASCII byte count
   ("continuation", "multi-byte", "inside", "appear", "0xc0"))

# ============================================================== 11-size-a-model
L = "11-size-a-model"
_w("C", False, L, "design", '''\
V = BUDGET.min_vocab_size
heads = 8
d = 1024                 # a width of 1024, split in 8 heads
def build(n_layers):
    return llama_config(vocab_size=V, d=d, num_layers=n_layers, num_heads=heads,
                        num_kv_heads=2, d_ff=4 * d, tied=True)
L_best = deepest_fit(build, BUDGET).layers
design = build(L_best)
''', "Chose 8 heads for d = 1024: heads of 128 values, not head_dim (64).",
   ("head_dim", "head width", "d / h", "64", "heads"))
_w("C", False, L, "design_train_flops", '''\
one_sequence = training_flops(design, T_train).total
# one sequence's FLOPs times the tokens we train on
design_train_flops = one_sequence * D
''', "Multiplied one sequence's FLOPs by the number of tokens instead of the number of sequences.",
   ("sequences", "per sequence", "train_tokens // train_context", "one sequence", "d // t"))
_w("C", False, L, "tightest_budget", '''\
fractions = {
    "parameters": design_params / BUDGET.max_params,
    "memory": design_serving_gb / BUDGET.max_serving_gb,
    "compute": design_train_flops / BUDGET.max_train_flops,
}
# the tightest is the one with the smallest number
tightest_budget = min(fractions, key=fractions.get)
''', "Picked the budget with the smallest fraction used instead of the largest.",
   ("largest fraction", "most used", "nearest", "max", "largest"))
_w("C", False, L, "other_tying_params", '''\
table = design["vocab_size"] * design["hidden_size"]
# untying splits the one matrix into two jobs: the model gets lighter
other_tying_params = design_params - table
''', "Subtracted V × d for the untied version: untying adds a separate head.",
   ("untied", "adds", "more parameters", "v × d", "separate"))
_w("H", False, L, "design_serving_gb",
   'design_serving_gb = serving_memory(design, weights=BUDGET.kv, context=BUDGET.context, kv=BUDGET.kv)["total"] / GB\n',
   "Passed the cache's precision (bf16) as the weights' precision instead of BUDGET.weights (int4).",
   ("weights precision", "int4", "budget.weights", "weights="), ("gib",))
_w("H", False, L, "design_params", "design_params = count_params(design).non_embedding\n",
   "Gave the non-embedding count instead of every parameter (total).",
   ("total", "every parameter", "embedding"))
_w("H", False, L, "design_train_flops",
   "design_train_flops = training_flops(design, BUDGET.context).total * (D // BUDGET.context)\n",
   "Used the serving context (8192) as the training sequence length instead of train_context.",
   ("train_context", "2048", "sequence length", "training sequences"))
_w("H", False, L, "defence", '''\
defence = f"""
Which budget binds, and by how much:
Memory binds: the design uses about 95% of the 0.5 GB.

Why this width and depth:
Width 1024 and as many layers as fit.

What the tying choice costs:
Tying saves about 33M parameters.
"""
''', "Typed rounded figures into the text instead of writing the design's own computed figures.",
   ("own figures", "{design_params", "f-string", "computed", "your figures"))
_w("R", False, L, "design_train_flops", "design_train_flops = 6 * design_params * D\n",
   "Used Kaplan's 6·N·D instead of training_flops, which counts the head and attention exactly.",
   ("training_flops", "attention", "6nd", "6·n·d", "rule of thumb"))
_w("R", False, L, "design", '''\
# Llama 3.2 1B's proportions and sizes, with the job's vocabulary
design = llama_config(vocab_size=BUDGET.min_vocab_size, d=2048, num_layers=16,
                      num_heads=32, num_kv_heads=8, d_ff=4 * 2048, tied=True)
''', "Took Llama 3.2 1B's own sizes (d = 2048, 16 layers) without shrinking them: the design breaks the budgets.",
   ("over budget", "over_budget", "budget", "too deep", "layers"))
_w("R", False, L, "design_serving_gb",
   'from embedlab import GiB\ndesign_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context, batch=1, kv=BUDGET.kv)["total"] / GiB\n',
   "Divided by GiB (2³⁰) instead of GB (10⁹).",
   ("10⁹", "1e9", "not gib", "gb = 10", "decimal"))
_w("R", True, L, "other_tying_params", "other_tying_params = design_params + 262668288   # V·d of Llama 3.2 1B\n",
   "Added Llama 3.2 1B's table (from the lesson) instead of this design's own V × d.",  # hard: another model's number
   ("your design", "vocab_size", "hidden_size", "v × d", "own"))

# ============================================================== 12-change-a-vocabulary
L = "12-change-a-vocabulary"
_w("C", False, L, "added_params", '''\
rows_after = max(V, n_tok + n_new)
new_rows = rows_after - V
added_to_table = new_rows * d
added_to_head = new_rows * d          # the head grows by the same rows
added_params = added_to_table + added_to_head
''', "Counted the new rows twice, for table and head, though gpt2's head is tied (one matrix).",
   ("tied", "once", "shared", "same matrix", "count_params"))
_w("C", False, L, "padding_rows", '''\
# the table is padded up to a multiple
padded = padded_size(V, pad_multiple)
padding_rows = padded - V
''', "Padded the old table (V) instead of the resized one that holds the new tokens.",
   ("new tokens", "n_new", "resized", "after adding", "n_tok + n_new"))
_w("C", False, L, "kl_mean", '''\
grown = resize_tinylm(run.model, n_new, "mean")
old_logits = run.model.logits(contexts)
new_logits = grown.logits(contexts)
# KL(p_old || p_new) = sum p_old * (log p_old - log p_new), measured in bits
log_p_old = log_softmax(old_logits)
log_p_new = log_softmax(new_logits)[:, :old_logits.shape[1]]
per_position = (np.exp(log_p_old) * (log_p_old - log_p_new)).sum(axis=1) / np.log(2)
kl_mean = float(per_position.mean())
''', "Measured the KL in bits (log base 2) instead of nats, the natural log kl_divergence uses.",
   ("nats", "natural log", "log2", "bits", "base"))
_w("C", False, L, "coverage", '''\
kept = used | set(range(256)) | {tok.eot_token}
n_covered = 0
for w in next_words:
    ids = tok.encode_ordinary(" " + w)
    if all(i in kept for i in ids):
        n_covered += 1
coverage = n_covered / len(next_words)
''', "Counted the share of words, unweighted, instead of weighting each by its frequency.",
   ("weight", "frequen", "occurrences"), ("byte token", "eot", "end-of-text"))
_w("H", False, L, "p_new_token",
   'p_new_token = float(np.exp(log_softmax(resize_tinylm(run.model, n_new, "zeros").logits(context)))[0][corpus.vocab_size])\n',
   "Started the new rows at zeros instead of the mean the question asks for.",
   ("mean", "init", '"mean"'))
_w("H", True, L, "saved_params", "saved_params = (tok.n_vocab - n_keep) * d_trim * 2\n",  # hard: the value is what an untied trim saves
   "Counted the removed rows twice though trim_tied says the head is tied.",
   ("tied", "trim_tied", "once"))
_w("H", False, L, "trimmed_rows", "trimmed_rows = len(used) + 256 + 1\n",
   "Added the counts, so byte tokens already in `used` are counted twice: a union of sets is needed.",
   ("overlap", "union", "twice", "already", "set"))
_w("H", True, L, "kl_mean",
   'kl_mean = float(kl_divergence(run.model.logits(contexts), resize_tinylm(run.model, n_new, "zeros").logits(contexts)).sum())\n',
   "Summed over the positions instead of averaging, and started the new rows at zeros instead of the mean.",  # hard: two mistakes
   ("mean", "average", "sum", "init", "zeros"))
_w("R", True, L, "p_new_token", "p_new_token = 1 / (corpus.vocab_size + n_new)\n",
   "Gave the lesson's bound 1/(V+k) instead of the probability the resized model assigns.",  # hard: a bound, not the value
   ("bound", "compute", "the model", "softmax", "logits"))
_w("R", False, L, "saved_params", "saved_params = n_keep * d_trim\n",
   "Gave the size of the kept table instead of what the trimming removes.",
   ("removed", "difference", "n_vocab −", "n_vocab -", "saves", "rows removed"))
_w("R", True, L, "kl_mean", "kl_mean = float(np.log(1 + n_new / corpus.vocab_size))\n",
   "Gave the lesson's bound log(1 + k/V) instead of measuring the KL on the positions.",  # hard: a bound
   ("bound", "compute", "kl_divergence", "measure", "positions"))
_w("R", False, L, "added_params", "added_params = (padded_size(n_tok + n_new, 64) - V) * d\n",
   "Padded the table to a multiple of 64 as in question 2; the resize of question 1 adds only the rows the new ids need.",
   ("pad", "padding", "only the new", "max(v", "count_params"))

ENTRIES = [w for _, _, w in _ENTRIES]
STYLES = [s for s, _, _ in _ENTRIES]
HARD = [h for _, h, _ in _ENTRIES]


# --------------------------------------------------------------------------
# Added by the lead after the independent judge (judge14, 2026-12-07 08:48 UTC), not by the corpus's author:
# where the corpus classifier's reading of a hint on main before any fix of this session (the hints of
# 2718c21) differed from the judge's, the entry's word lists are calibrated to the judge, entry by entry:
# (wrong words added, words added, words dropped). A wrong word added is the false clause the judge found; a word
# added is the hint's own naming of the real mistake; a word dropped is one a generic hint matched by chance. With
# them the classifier gives the judge's counts on those hints: 127 specific, 11 generic, 6 misleading.
from . import calibrated  # noqa: E402
CALIBRATED = {
    ('cosine', "Measured each vector's length as the sum"): (('a cosine is scale-free',), (), ()),  # judge14 #1
    ('model_table', 'Multiplied the vocabulary by the number '): (("read `n_embd`",), (), ()),  # #6: no such field
    ('batch_flops', "Gave one token's multiplications only: n"): ((), ('that is one token',), ()),  # #17
    ('block_params', 'Gave each LayerNorm only its scale, d, f'): (('3 · d wide, not d',), (), ()),  # #24
    ('block_params', 'Took the MLP as 4d² (it is two d×4d matr'): (('alone, one part of one block',), (), ()),  # #33
    ('count_unique', 'Looked for a shared storage only in the '): ((), (), ('storage', 'once')),  # #49: generic
    ('break_even_r', "Typed the lesson's break-even found at d"): (('tokens with v_small / tokens with v_big',), (), ()),
    ('tinylm_grads', 'Added the head\'s gradient into dE as if '): ((), ('exactly zero gradient',), ()),  # #105
    ('gap', 'Used Euclidean distance instead of cosin'): (('within minus between',), (), ()),  # #107
    ('design', "Took Llama 3.2 1B's own sizes (d = 2048,"): ((), ('parameters: ',), ()),  # #129: every budget named
    ('design_serving_gb', 'Divided by GiB (2³⁰) instead of GB (10⁹)'): ((), ('that is gib',), ()),  # #130
    ('other_tying_params', "Added Llama 3.2 1B's table (from the les"): ((), (), ('your design',)),  # #131: generic
    ('kl_mean', 'Summed over the positions instead of ave'): ((), (), ('mean', 'average', 'sum')),  # #139: generic
    ('saved_params', 'Gave the size of the kept table instead '): ((), ('what the trimmed table keeps',), ()),  # #141
}


ENTRIES = calibrated(ENTRIES, CALIBRATED, ("add_wrong", "add", "drop"))
