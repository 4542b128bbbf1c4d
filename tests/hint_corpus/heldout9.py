"""Held-out corpus 9: plausible wrong answers written BLIND, to measure the hints on mistakes
nobody wrote them for.

Written on 2026-12-06, 22:20-22:35 UTC, by a helper session on branch `blind`, without reading
lib/embedlab/grading/, any tests/test_*.py, any other file of tests/hint_corpus/ (only
`__init__.py` for the `Wrong` format and `check_wrong.py` for how an entry runs), the issue
tracker or git log messages. Read: /work/shared/COURSE.md, the exercise notebooks
(exercises/*.ipynb), the solution notebooks' answer cells and import cells (solutions/*.ipynb)
and a few public library signatures (lib/embedlab/params.py, compute.py, memory.py, sizing.py,
resize.py, tinylm.py; not grading/). The lessons (notebooks/) were not opened; the mistakes are
written from the questions as a learner reads them: precedence slips, wrong config field,
GB vs GiB, off-by-one, transposes, forgotten biases/norms/position table, a tied head counted
twice, percentages vs fractions,
wrong axis, whole-matrix vs per-row norms, sort direction, scores instead of ids, ratios vs
differences, estimates instead of exact counts, arguments ignored in a function, etc.

`words`: phrases any correct hint for that mistake would contain (one suffices);
`wrong_words`: phrases that would mean a hint blames a mistake not made.

Proven wrong with `cd tests && ../.venv/bin/python -m hint_corpus.check_wrong heldout9`.

Check result: 120 entries, 10 per lesson, every question of every exercise at least once, all
120 proven wrong (`problems: 0`; `--same` finds no two entries of a question with one value).
182 were written; one was ACCEPTED by the check and dropped:
    05-weight-tying count_unique, "deduplicated by size instead of by storage":
        def count_unique(storage, sizes):
            return int(np.unique(sizes).sum())
    On every input check_wrong gives, entries sharing a storage share a size and different
    storages have different sizes, so deduplicating sizes gives the right count there
    (it fails only when two distinct matrices have the same size, e.g. two equal blocks).
The other 61, all proven wrong, were left out to keep 9-10 per lesson (repeats of a question
or of a kind of mistake already in the lesson). No entry errors unintentionally; one raises on
some inputs by design (10 unused_score, the mean over the wrong axis: a shape mismatch).
"""

from hint_corpus import Wrong

L01 = "01-toy-table"
L02 = "02-lookup-vs-matmul"
L03 = "03-counting-gpt2"
L04 = "04-modern-blocks"
L05 = "05-weight-tying"
L06 = "06-params-vs-compute"
L07 = "07-memory"
L08 = "08-vocabulary-size"
L09 = "09-what-rows-learn"
L10 = "10-glitch-tokens"
L11 = "11-size-a-model"
L12 = "12-change-a-vocabulary"

ENTRIES = [
    # ------------------------------------------------------------------ 01 toy table
    Wrong(L01, "E", """\
rows = []
for f in features:
    rows.append([1 if f in traits[w] else 0 for w in words])
E = np.array(rows)
""", "Built one row per feature and one column per word: the table transposed.",
          ("transpose", "one row per word", "shape", "rows and columns"), ("cosine",)),
    Wrong(L01, "n_params", """\
n_params = len(words) + len(features)
""", "Added the number of rows and the number of columns instead of multiplying them.",
          ("rows × columns", "multiply", "product", "times", "rows * columns"), ("bias",)),
    Wrong(L01, "batch", """\
ids = sorted({word_to_id[w] for w in sentence})
batch = table[ids]
""", "Looked up each distinct word once, sorted, instead of every word of the sentence in order.",
          ("repeat", "every word", "order", "duplicate", "one row per word of the sentence"), ('transpose',)),
    Wrong(L01, "batch", """\
ids = [word_to_id[w] for w in sentence]
batch = table[:, ids]
""", "Indexed the columns (features) instead of the rows (words).",
          ("row", "axis", "column"), ('duplicate',)),
    Wrong(L01, "cosine", """\
def cosine(a, b):
    return float(np.dot(a, b))
""", "Returned the dot product without dividing by the two lengths.",
          ("norm", "length", "divide", "magnitude"), ()),
    Wrong(L01, "cosine", """\
def cosine(a, b):
    na = np.sqrt((a ** 2).sum())
    nb = np.sqrt((b ** 2).sum())
    return float(a @ b / na + nb)
""", "Precedence slip: divided by the first norm and then added the second instead of dividing by the product.",
          ("product of", "parenthes", "precedence", "both norms", "|a| |b|", "|a|·|b|"), ()),
    Wrong(L01, "cos_pair", """\
i = word_to_id[pair[0]]
cos_pair = cosine_similarity(table[i], table[i])
""", "Compared the first word of the pair with itself (a slip: pair[0] twice).",
          ("pair[1]", "second word", "itself", "both words", "two words"), ()),
    Wrong(L01, "model_table", """\
shape = model_shape(load_config(model))
model_table = 2 * shape.vocab_size * shape.hidden_size   # the table and the head
""", "Counted the tied head as a second table.",
          ("tied", "once", "token embedding table", "only the table"), ()),
    Wrong(L01, "extra_dim_cost", """\
shape = model_shape(load_config(model))
extra_dim_cost = shape.vocab_size * (shape.hidden_size + extra_features)
""", "Gave the size of the whole widened table instead of what it gains.",
          ("gain", "difference", "extra", "new", "minus", "only the added"), ()),
    Wrong(L01, "extra_dim_cost", """\
shape = model_shape(load_config(model))
extra_dim_cost = extra_features * shape.hidden_size
""", "Multiplied the extra features by the width d instead of by the number of rows V.",
          ("vocab", "every token", "rows", "V ×", "V *", "V·"), ()),

    # ------------------------------------------------------------------ 02 lookup vs matmul
    Wrong(L02, "one_hot", """\
def one_hot(ids, V):
    out = np.zeros((V, len(ids)))
    out[ids, np.arange(len(ids))] = 1
    return out
""", "Built the one-hot matrix transposed: (V, len(ids)) instead of (len(ids), V).",
          ("transpose", "shape", "(len(ids), V)", "one row per id"), ('off by one',)),
    Wrong(L02, "one_hot", """\
def one_hot(ids, V):
    ids = np.asarray(ids)
    return (np.arange(1, V + 1)[None, :] == ids[:, None]).astype(float)
""", "Numbered the columns from 1: the 1 lands one column to the left of ids[t] (and id 0 gets none).",
          ("column ids[t]", "off by one", "from 0", "index", "zero-based"), ('transpose',)),
    Wrong(L02, "rows_lookup", """\
rows_lookup = E[np.unique(ids)]
""", "Selected each distinct id once, sorted, instead of one row per id in order.",
          ("repeat", "every id", "duplicate", "order", "one row per id"), ()),
    Wrong(L02, "rows_matmul", """\
onehot = np.eye(table_V, dtype=np.float32)[ids]
rows_matmul = E.T @ onehot.T
""", "Computed the product transposed: one column per id instead of one row per id.",
          ("transpose", "shape", "one row per id", "order of the product"), ()),
    Wrong(L02, "keeps_sign", """\
keeps_sign = "both"
""", "Thought both paths keep -0.0: the matmul adds 1·(-0.0) to 0·(positive numbers), +0.0, "
          "and -0.0 + 0.0 is +0.0.",
          ("sum", "add", "+0", "positive zero", "-0.0 + 0.0", "0.0 + -0.0", "copies"), ()),
    Wrong(L02, "embedding_backward", """\
def embedding_backward(ids, grad_out, V):
    grad = np.zeros((V, grad_out.shape[1]))
    grad[ids] += grad_out
    return grad
""", "Used fancy-index += , which keeps only one contribution for a repeated id.",
          ("np.add.at", "accumulate", "repeat", "twice", "buffered"), ()),
    Wrong(L02, "updated_rows", """\
updated_rows = np.arange(batch_V)
""", "Answered every row, as for a tied head; untied, only the rows looked up get a gradient.",
          ("untied", "only the", "appear", "looked up", "in the batch"), ()),
    Wrong(L02, "batch_flops", """\
batch_flops = n_tokens * V * d
""", "Counted one FLOP per multiply-add instead of two.",
          ("2", "multiply and add", "two FLOPs", "multiply-add", "twice"), ()),
    Wrong(L02, "one_hot_batch_bytes", """\
one_hot_batch_bytes = n_tokens * V
""", "Counted one byte per number, ignoring the dtype's size.",
          ("itemsize", "4 bytes", "bytes per", "dtype", "float32"), ()),
    Wrong(L02, "one_hot_batch_bytes", """\
one_hot_batch_bytes = n_tokens * d * np.dtype(precision).itemsize
""", "Gave the size of the looked-up rows (n_tokens × d), not of the one-hot matrix (n_tokens × V).",
          ("V", "vocab", "one-hot", "columns"), ()),

    # ------------------------------------------------------------------ 03 counting GPT-2
    Wrong(L03, "linear_params", """\
linear_params = linear_in * linear_out
""", "Left out the bias.",
          ("bias",), ()),
    Wrong(L03, "block_params", """\
block_params = 12 * d * d
""", "Gave the 12d² estimate: the biases and LayerNorms are left out.",
          ("bias", "LayerNorm", "13d", "13 * d", "estimate"), ()),
    Wrong(L03, "block_params", """\
attention = (d * 3 * d + 3 * d) + (d * d + d)
mlp = (d * 4 * d + 4 * d) + (4 * d * d + d)
block_params = attention + mlp + 2 * d
""", "Counted one parameter per feature for each LayerNorm pair, forgetting that a LayerNorm has a weight and a bias.",
          ("LayerNorm", "weight and bias", "gain and bias", "2d each", "scale and shift"), ()),
    Wrong(L03, "block_params", """\
qkv = 3 * d * d + 3 * d
proj = d * d + d
mlp = 4 * d * d + 4 * d          # d -> 4d
norms = 2 * 2 * d
block_params = qkv + proj + mlp + norms
""", "Counted only the first MLP layer (d → 4d), the seed's '4·d²' MLP: the 4d → d layer is missing.",
          ("two MLP", "8d", "4d → d", "second", "both", "down"), ()),
    Wrong(L03, "interview", """\
interview = interview_V * interview_d * 2   # embedding + head
""", "Counted the tied head as a second matrix.",
          ("tied", "once", "same matrix", "shared"), ()),
    Wrong(L03, "embedding_share", """\
counts = count_params(load_config(share_model))
embedding_share = counts.token_embedding / (counts.total - counts.token_embedding)
""", "Divided by the rest of the model instead of the whole model (a ratio, not a share).",
          ("total", "whole model", "fraction of all", "every parameter"), ()),
    Wrong(L03, "estimate_gap", """\
estimate = V * d + 12 * L * d ** 2
estimate_gap = estimate - exact
""", "Subtracted the wrong way round: estimate − exact, a negative number.",
          ("exact − estimate", "sign", "negative", "exact - estimate", "other way"), ()),
    Wrong(L03, "estimate_gap", """\
estimate_gap = exact - (V * d + 12 * L * d * 2)
""", "Typed d * 2 for d squared.",
          ("d²", "square", "d**2", "d ** 2", "d * d"), ('sign', 'negative')),
    Wrong(L03, "gpt2_params", """\
def gpt2_params(V, d, L, T):
    block = 12 * d * d + 13 * d
    return V * d + L * block + 2 * d
""", "Left out the learned position table (T × d).",
          ("position", "T·d", "T * d", "T × d"), ()),
    Wrong(L03, "gpt2_params", """\
def gpt2_params(V, d, L, T):
    embeddings = V * d + T * d
    blocks = L * (12 * d * d + 13 * d)
    head = V * d
    return embeddings + blocks + head + 2 * d
""", "Counted the head as its own V × d matrix although it is tied.",
          ("tied", "head", "once"), ()),

    # ------------------------------------------------------------------ 04 modern blocks
    Wrong(L04, "attn_layer", """\
attn_layer = 4 * d * d
""", "Counted four d × d projections, as if every query head had its own key/value head.",
          ("h_kv", "key/value heads", "grouped", "kv heads", "GQA"), ()),
    Wrong(L04, "attn_layer", """\
q = d * h * head_dim
kv = d * h_kv * head_dim          # k and v
o = h * head_dim * d
attn_layer = q + kv + o
""", "Counted the k and v projections as one matrix: they are two.",
          ("k and v", "two", "both", "2 ·", "2 *", "keys and values"), ()),
    Wrong(L04, "mlp_layer", """\
mlp_layer = 2 * d * d_ff
""", "Counted two MLP matrices: a SwiGLU MLP has three (gate, up, down).",
          ("three", "gate", "SwiGLU", "3"), ()),
    Wrong(L04, "vocab_share", """\
c = count_params(load_config(share_model))
vocab_share = c.token_embedding / c.total
""", "Counted only the token table, not the untied head.",
          ("head", "untied", "both", "lm_head"), ()),
    Wrong(L04, "padding_params", """\
V_padded = (V // pad_multiple) * pad_multiple
padding_params = abs(V - V_padded) * d
""", "Rounded down to the previous multiple instead of up to the next.",
          ("up", "next multiple", "ceil", "round up"), ()),
    Wrong(L04, "padding_params", """\
V_padded = -(-V // pad_multiple) * pad_multiple
padding_params = V_padded - V
""", "Gave the number of padded rows, not the parameters they hold (× d).",
          ("× d", "width", "hidden_size", "* d", "rows"), ()),
    Wrong(L04, "padding_params", """\
V_padded = -(-V // pad_multiple) * pad_multiple
padding_params = 2 * (V_padded - V) * d     # table and head
""", "Counted the padded rows twice, as if the tied head were a second matrix.",
          ("tied", "once"), ('round up', 'ceil')),
    Wrong(L04, "llama_params", """\
def llama_params(V, d, L, h, h_kv, d_ff, tied):
    hd = d // h
    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d
    return V * d + L * layer + d + (V * d if tied else 0)
""", "Inverted the tying: added the head's V × d when tied and nothing when untied.",
          ("tied", "untied", "separate"), ()),
    Wrong(L04, "llama_params", """\
def llama_params(V, d, L, h, h_kv, d_ff, tied):
    head_dim = d // h
    attention = 2 * d * h * head_dim + 2 * d * h_kv * head_dim
    layer = attention + 3 * d * d_ff + d
    return V * d + L * layer + d + (0 if tied else V * d)
""", "Counted one RMSNorm per layer instead of two.",
          ("two RMSNorm", "2d", "2 * d", "two norms", "norm"), ()),
    Wrong(L04, "llama_params", """\
def llama_params(V, d, L, h, h_kv, d_ff, tied):
    layer = 4 * d * d + 3 * d * d_ff + 2 * d
    total = V * d + L * layer + d
    if not tied:
        total += V * d
    return total
""", "Ignored h_kv: counted the k and v projections d × d as without grouped-query attention.",
          ("h_kv", "grouped", "key/value", "kv heads", "GQA"), ()),

    # ------------------------------------------------------------------ 05 weight tying
    Wrong(L05, "tied_count", """\
tied_count = untied - V
""", "Took away V, one number per token, instead of the head's V × d parameters.",
          ("V · d", "V*d", "V * d", "V × d", "whole matrix", "d"), ()),
    Wrong(L05, "tied_count", """\
tied_count = untied + V * d
""", "Added the head's size instead of taking it away: tying saves parameters.",
          ("fewer", "subtract", "remove", "minus", "saves", "take away"), ()),
    Wrong(L05, "tied_count", """\
tied_count = untied - 2 * V * d
""", "Took away both the table and the head: tied, the one table remains.",
          ("embedding stays", "one", "head only", "keep", "once"), ()),
    Wrong(L05, "grad_E", """\
grad_E = dlogits.T @ x
""", "Kept only the head's gradient; the lookup's path (dx0 into the rows of ids) is missing.",
          ("both", "lookup", "dx0", "sum of", "input"), ()),
    Wrong(L05, "grad_E", """\
grad_E = np.zeros((V, d))
np.add.at(grad_E, ids, dx0)
""", "Kept only the lookup's gradient; the head's path (dlogits.T @ x) is missing.",
          ("head", "output", "logits", "both", "dlogits"), ()),
    Wrong(L05, "grad_E", """\
grad_E = dlogits.T @ x
grad_E[ids] += dx0
""", "Fancy-index += keeps only one contribution of the repeated id.",
          ("np.add.at", "repeat", "accumulate", "twice"), ()),
    Wrong(L05, "count_unique", """\
def count_unique(storage, sizes):
    return int(np.sum(sizes))
""", "Summed every entry, counting a shared storage as many times as it is named.",
          ("storage", "once", "shared", "tied", "twice"), ()),
    Wrong(L05, "count_unique", """\
def count_unique(storage, sizes):
    return len(np.unique(storage))
""", "Counted the distinct storages instead of the parameters they hold.",
          ("sizes", "parameters", "number of parameters"), ()),
    Wrong(L05, "ties", """\
ties = "llama-3-8b"
""", "Named Llama-3-8B (the seed's claim); its head is untied.",
          ("tie_word_embeddings", "small", "1b", "config", "untied"), ()),
    Wrong(L05, "state_dict_sum", """\
state_dict_sum = count_params(load_config(tied_model)).total
""", "Gave the true count: summing the state dict counts the tied table twice.",
          ("twice", "two names", "both", "two entries"), ()),

    # ------------------------------------------------------------------ 06 params vs compute
    Wrong(L06, "head_flops", """\
head_flops = d * V
""", "Counted one FLOP per weight instead of two (a multiply and an add).",
          ("2", "multiply and add", "two FLOPs", "multiply-add", "2·d·V"), ()),
    Wrong(L06, "lookup_flops", """\
lookup_flops = 2 * V * d
""", "Priced the lookup as a one-hot matmul: selecting a row costs no arithmetic.",
          ("lookup", "copy", "0", "zero", "no arithmetic", "indexing"), ()),
    Wrong(L06, "kaplan_n", """\
kaplan_n = counts.total - counts.token_embedding - counts.position_embedding
""", "Forgot to take away the untied head.",
          ("head", "lm_head", "untied"), ()),
    Wrong(L06, "head_share_training", """\
per_position = c.input + c.blocks + c.head
head_share_training = c.head / per_position
""", "Left the attention over the context out of the total.",
          ("attention", "T(T+1)/2", "keys", "context"), ()),
    Wrong(L06, "head_share_training", """\
attention = c.attention_per_key * T * T
total = T * (c.input + c.blocks + c.head) + attention
head_share_training = T * c.head / total
""", "Counted T² keys instead of T(T+1)/2 (token t attends to t positions).",
          ("T(T+1)/2", "T + 1", "keys", "(T+1)", "half"), ()),
    Wrong(L06, "head_share_prompt", """\
attention = c.attention_per_key * T * (T + 1) // 2
total = T * (c.input + c.blocks + c.head) + attention
head_share_prompt = c.head / total
""", "Put the head in the total T times although it runs once when reading a prompt.",
          ("once", "total", "denominator", "last position"), ()),
    Wrong(L06, "forward_flops_per_token", """\
def forward_flops_per_token(V, d, L, d_ff, context):
    blocks = 2 * L * (4 * d * d + 2 * d * d_ff)
    return blocks + 4 * context * d + 2 * d * V
""", "Counted the attention over the context once instead of once per block (× L).",
          ("per block", "L", "every block", "each block"), ()),
    Wrong(L06, "forward_flops_per_token", """\
def forward_flops_per_token(V, d, L, d_ff, context):
    mlp = d * d_ff
    return 2 * L * (4 * d * d + mlp) + 4 * L * context * d + 2 * d * V
""", "Counted one MLP matrix instead of two (d × d_ff and d_ff × d).",
          ("two MLP", "both", "d_ff × d", "2 * d * d_ff", "second"), ()),
    Wrong(L06, "flop_rate", """\
flop_rate = 6 * N * D / GPU_HOURS
""", "Divided by hours instead of seconds.",
          ("3600", "second"), ('TFLOP',)),
    Wrong(L06, "active_params", """\
skipped = moe_layers * (n_experts - k) * 2 * d * d_ff
active_params = counts.total - skipped
""", "Counted two matrices per expert instead of three (gate, up, down).",
          ("three", "3", "gate"), ()),

    # ------------------------------------------------------------------ 07 memory
    Wrong(L07, "weights_gb_4bit", """\
weights_gb_4bit = N * 4 / 1e9
""", "Used 4 bytes per parameter for 4 bits.",
          ("0.5", "half a byte", "bits", "8 bits"), ('GiB', '2**30')),
    Wrong(L07, "weights_gb_4bit", """\
weights_gb_4bit = N * 0.5 / 2**30
""", "Divided by 2³⁰ (GiB) instead of 10⁹ (GB).",
          ("10⁹", "1e9", "GiB", "10**9"), ()),
    Wrong(L07, "adam_parts", """\
adam_parts = np.array([2, 2, 4, 4]) * n_params
""", "Gave Adam one moment instead of two (m and v).",
          ("two moments", "m and v", "both", "8 bytes"), ()),
    Wrong(L07, "kv_bytes_per_token", """\
kv_bytes_per_token = L * h_kv * head_dim * 2
""", "Forgot that the cache holds keys and values (× 2).",
          ("keys and values", "K and V", "2 ·", "both"), ()),
    Wrong(L07, "kv_bytes_per_token", """\
kv_bytes_per_token = 2 * L * h * head_dim * 2
""", "Used the query heads h instead of the key/value heads h_kv.",
          ("h_kv", "key/value heads", "grouped", "kv heads"), ()),
    Wrong(L07, "gqa_saving_gib", """\
per = 2 * L * head_dim * 2 * context
gqa_saving_gib = (per * h - per * h_kv) / 1e9
""", "Gave GB (10⁹) instead of GiB (2³⁰).",
          ("GiB", "2**30", "2³⁰", "1024"), ()),
    Wrong(L07, "gqa_saving_gib", """\
gqa_saving_gib = h / h_kv
""", "Gave the ratio of the two caches instead of the memory saved.",
          ("difference", "subtract", "minus", "saves", "GiB"), ()),
    Wrong(L07, "kv_cache_gb", """\
def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):
    return 2 * L * h_kv * head_dim * bytes_per_number * context / 1e9
""", "Ignored the batch argument.",
          ("batch",), ('GiB', '1024')),
    Wrong(L07, "max_batch", """\
max_batch = round((memory - weights) / per_sequence)
""", "Rounded to the nearest whole number instead of down: the last sequence does not fit.",
          ("whole", "floor", "round down", "down", "//"), ()),
    Wrong(L07, "max_batch", """\
max_batch = int(memory // per_sequence)
""", "Forgot that the weights take part of the GPU.",
          ("weights",), ()),

    # ------------------------------------------------------------------ 08 vocabulary size
    Wrong(L08, "embedding_params", """\
embedding_params = 2 * V_big * d    # input table and output head
""", "Counted the tied head as a second table.",
          ("tied", "once", "same matrix"), ()),
    Wrong(L08, "embedding_share", """\
embedding_share = table / rest
""", "Divided the table by the rest of the model instead of the whole (table + rest).",
          ("whole model", "table + rest", "total", "whole"), ()),
    Wrong(L08, "embedding_share", """\
embedding_share = round(100 * table / (table + rest), 1)
""", "Gave a rounded percentage instead of a fraction between 0 and 1.",
          ("fraction", "between 0 and 1", "percent", "100", "round"), ()),
    Wrong(L08, "extra_head_flops", """\
extra_head_flops = d * (V_big - V_small)
""", "Counted one FLOP per head weight instead of two.",
          ("2·d", "2 FLOPs", "2 *", "two FLOPs", "multiply and add"), ()),
    Wrong(L08, "extra_head_flops", """\
extra_head_flops = 2 * d * V_big
""", "Gave the big head's whole cost instead of how much more it costs than the small one.",
          ("more", "difference", "V_small", "minus", "extra"), ()),
    Wrong(L08, "break_even_r", """\
per_token_small = blocks + 2 * d * V_small
per_token_big = blocks + 2 * d * V_big
break_even_r = per_token_big / per_token_small
""", "Inverted the ratio: the big vocabulary costs more per token, so it must use fewer tokens (r < 1).",
          ("invert", "upside", "r < 1", "fewer tokens", "below 1", "less than 1"), ()),
    Wrong(L08, "tokens_per_word", """\
def tokens_per_word(counts, n_tokens):
    return float(np.mean(n_tokens))
""", "Averaged over the distinct words, ignoring how often each occurs.",
          ("weight", "counts", "running", "how often", "frequen"), ()),
    Wrong(L08, "hindi_single_token_share", """\
single = [w for w in top_hindi if bpe.count_tokens(w) == 1]
hindi_single_token_share = len(single) / len(hindi)
""", "Divided by all the Hindi training words instead of the n_top words asked about.",
          ("n_top", "top", "the words you checked"), ()),
    Wrong(L08, "hindi_r", """\
def per_word(tokenizer):
    total = sum(len(tokenizer.encode(" " + w)) * n for w, n in hindi.items())
    return total / sum(hindi.values())

hindi_r = per_word(gpt2) / per_word(cl100k)
""", "Inverted the ratio: GPT-2's tokens per word over cl100k's.",
          ("cl100k's tokens per word divided by", "invert", "upside", "cl100k over", "other way"), ('space',)),
    Wrong(L08, "hindi_r", """\
def per_word(tokenizer):
    total = sum(len(tokenizer.encode(w)) * n for w, n in hindi.items())
    return total / sum(hindi.values())

hindi_r = per_word(cl100k) / per_word(gpt2)
""", "Encoded the words without the leading space they have in running text.",
          ("space", '" " +'), ('invert', 'upside')),

    # ------------------------------------------------------------------ 09 what rows learn
    Wrong(L09, "n_params", """\
n_params = V * d + d * d + d + V * d
""", "Made W d × d: the two context rows side by side make 2d inputs.",
          ("2d", "two context rows", "2 * d", "2·d", "side by side"), ()),
    Wrong(L09, "n_params", """\
n_params = V * d + 2 * d * d + V * d
""", "Left out the bias b.",
          ("bias",), ()),
    Wrong(L09, "n_params", """\
n_params = V * d + (2 * d) * d + d
""", "Left out the untied output matrix U.",
          ("untied", "U", "output matrix", "V × d"), ()),
    Wrong(L09, "embedding_grad", """\
def embedding_grad(contexts, dx0, vocab_size):
    dE = np.zeros((vocab_size, dx0.shape[-1]))
    dE[contexts] += dx0
    return dE
""", "Fancy-index += drops repeated contributions.",
          ("np.add.at", "twice", "accumulate", "repeat"), ()),
    Wrong(L09, "embedding_grad", """\
def embedding_grad(contexts, dx0, vocab_size):
    dE = np.zeros((vocab_size, dx0.shape[-1]))
    np.add.at(dE, contexts[:, 0], dx0[:, 0])
    return dE
""", "Added only the first context slot of each example.",
          ("every slot", "both context", "slot", "all positions", "each k"), ()),
    Wrong(L09, "gap", """\
unit = E / np.linalg.norm(E, axis=1, keepdims=True)
C = unit @ unit.T
within = np.mean([C[np.ix_(g, g)].mean() for g in (animals, vehicles)])
gap = within - C[np.ix_(animals, vehicles)].mean()
""", "Averaged the within-group blocks whole, including each word with itself (cos 1).",
          ("different", "i < j", "itself", "diagonal", "56 pairs"), ('dot product',)),
    Wrong(L09, "gap", """\
G = E @ E.T
within = [G[i, j] for grp in (animals, vehicles) for i in grp for j in grp if i < j]
gap = np.mean(within) - G[np.ix_(animals, vehicles)].mean()
""", "Used dot products instead of cosines (rows not normalized).",
          ("cosine", "norm", "normalize", "length"), ('diagonal',)),
    Wrong(L09, "cos_cat", """\
rows = E[animals + vehicles]
unit = rows / np.linalg.norm(rows, axis=0, keepdims=True)
cos_cat = unit @ unit[0]
""", "Normalized the columns (axis=0) instead of the rows.",
          ("axis", "row", "axis=1"), ()),
    Wrong(L09, "cos_cat", """\
others = [i for i in animals + vehicles if i != cat]
rows = E[others]
cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))
""", "Left cat itself out: 15 values instead of 16.",
          ("16", "cat itself", "first entry", "itself"), ()),
    Wrong(L09, "rotation_changes_cosines", """\
rotation_changes_cosines = "yes"
""", "Thought rotating the columns changes the cosines; an orthogonal matrix keeps lengths and angles.",
          ("orthogonal", "preserv", "rotation", "angles", "unchanged"), ()),

    # ------------------------------------------------------------------ 10 glitch tokens
    Wrong(L10, "padding_rows", """\
padding_rows = V % pad_multiple
""", "Gave the remainder past the last full multiple, not the rows needed to reach the next one.",
          ("round up", "next multiple", "up to", "ceil"), ()),
    Wrong(L10, "invalid_bytes", """\
seen = set()
for c in range(0x10000):
    if not 0xD800 <= c <= 0xDFFF:
        seen.update(chr(c).encode("utf-8"))
invalid_bytes = 256 - len(seen)
""", "Stopped at 0xFFFF (the BMP), so the four-byte lead bytes F0-F4 were never seen.",
          ("0x110000", "four-byte", "4 bytes", "F0", "beyond 0xFFFF", "every code point"), ()),
    Wrong(L10, "invalid_bytes", """\
first_bytes = set()
for c in range(0x110000):
    if 0xD800 <= c <= 0xDFFF:
        continue
    first_bytes.add(chr(c).encode("utf-8")[0])
invalid_bytes = 256 - len(first_bytes)
""", "Collected only each character's first byte, so the continuation bytes 0x80-0xBF look unused.",
          ("every byte", "continuation", "all the bytes", "not only the first"), ()),
    Wrong(L10, "unused_score", """\
def unused_score(M, reference_ids):
    mean = M[reference_ids].mean(axis=0)
    return M @ mean / np.linalg.norm(mean)
""", "Did not divide by each row's norm: a projection, not a cosine.",
          ("norm of every row", "each row", "cosine", "row norm", "axis=1"), ()),
    Wrong(L10, "unused_score", """\
def unused_score(M, reference_ids):
    mean = M[reference_ids].mean(axis=0)
    return M @ mean / (np.linalg.norm(M) * np.linalg.norm(mean))
""", "Divided by the norm of the whole matrix instead of each row's.",
          ("axis=1", "per row", "each row", "every row"), ()),
    Wrong(L10, "never_cos", """\
rows = run.model.E[never]
unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
never_cos = (unit @ unit.T).mean()
""", "Averaged the whole similarity matrix, including each row with itself.",
          ("different", "diagonal", "itself", "pairs", "k=1"), ('dot product',)),
    Wrong(L10, "top7", """\
from embedlab import unused_scores
scores = unused_scores(run.model.E, reference)
top7 = np.argsort(-scores, kind="stable")[:7]
""", "Did not leave the four reference rows out.",
          ("leave", "reference rows", "exclude", "reference"), ('ascending', 'lowest')),
    Wrong(L10, "top7", """\
from embedlab import unused_scores
scores = unused_scores(run.model.E, reference)
order = [i for i in np.argsort(scores, kind="stable") if i not in reference]
top7 = np.array(order[:7])
""", "Sorted ascending: the 7 lowest scores instead of the highest.",
          ("highest", "descending", "largest", "reverse"), ()),
    Wrong(L10, "top7", """\
from embedlab import unused_scores
scores = unused_scores(run.model.E, reference)
keep = np.array([i not in reference for i in range(len(scores))])
top7 = np.sort(scores[keep])[::-1][:7]
""", "Returned the 7 highest scores instead of the ids of their rows.",
          ("ids", "argsort", "indices", "index", "which rows"), ('ascending', 'lowest')),
    Wrong(L10, "partial_tokens", """\
partial_tokens = sum(1 for b in ordinary if len(b) == 1 and b[0] >= 0x80)
""", "Counted only the single high bytes, not the merged tokens that split a character.",
          ("merged", "multi-byte", "decode", "every token", "partway"), ()),

    # ------------------------------------------------------------------ 11 size a model
    Wrong(L11, "design", """\
design = llama_config(vocab_size=64000, d=1024, num_layers=12, num_heads=8,
                      num_kv_heads=4, d_ff=4096, tied=True)
""", "Fits every budget but its heads are 1024 / 8 = 128 wide, not head_dim.",
          ("head_dim", "d / h", "heads", "64"), ("too many parameters", "too much memory")),
    Wrong(L11, "design", """\
design = llama_config(vocab_size=30000, d=1024, num_layers=12, num_heads=16,
                      num_kv_heads=4, d_ff=4096, tied=True)
""", "A vocabulary below min_vocab_size.",
          ("vocab", "min_vocab_size", "32,000", "32000"), ()),
    Wrong(L11, "design", """\
design = llama_config(vocab_size=64000, d=1024, num_layers=14, num_heads=16,
                      num_kv_heads=16, d_ff=4096, tied=True)
""", "One key/value head per query head: the KV cache blows the serving memory.",
          ("memory", "KV cache", "kv", "num_kv_heads", "cache"), ()),
    Wrong(L11, "design_params", """\
cfg = design
design_params = count_params(cfg).total + cfg["vocab_size"] * cfg["hidden_size"]
""", "Added the tied head as a second table.",
          ("tied", "once"), ()),
    Wrong(L11, "design_serving_gb", """\
design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,
                                   batch=BUDGET.batch, kv=BUDGET.kv)["total"] / 2**30
""", "Divided by 2³⁰ (GiB) instead of 10⁹ (GB).",
          ("GB", "10⁹", "GiB", "1e9"), ()),
    Wrong(L11, "design_serving_gb", """\
design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,
                                   batch=BUDGET.batch, kv=BUDGET.kv)["weights"] / GB
""", "Gave the weights only, without the KV cache.",
          ("KV cache", "cache", "together", "both"), ()),
    Wrong(L11, "design_serving_gb", """\
design_serving_gb = serving_memory(design, context=BUDGET.context, kv=BUDGET.kv)["total"] / GB
""", "Left the weights at the default bf16 instead of the job's precision.",
          ("weights=", "int4", "precision", "weights precision"), ()),
    Wrong(L11, "design_train_flops", """\
design_train_flops = training_flops(design, T_train).total * D
""", "Multiplied the cost of one sequence by the number of tokens instead of sequences.",
          ("sequences", "D // T", "number of sequences", "train_context", "//"), ()),
    Wrong(L11, "tightest_budget", """\
used = {"parameters": design_params / BUDGET.max_params,
        "memory": design_serving_gb / BUDGET.max_serving_gb,
        "compute": design_train_flops / BUDGET.max_train_flops}
tightest_budget = min(used, key=used.get)
""", "Picked the budget with the smallest fraction used instead of the largest.",
          ("largest", "max", "most", "highest"), ('GiB',)),
    Wrong(L11, "other_tying_params", """\
other_tying_params = design_params - design["vocab_size"] * design["hidden_size"]
""", "Took the head away although the design is tied: untying adds a V × d head.",
          ("untied", "add", "more", "flip", "plus"), ()),

    # ------------------------------------------------------------------ 12 change a vocabulary
    Wrong(L12, "added_params", """\
rows = max(V, n_tok + n_new)
added_params = 2 * (rows - V) * d      # the table and the head
""", "Counted the new rows twice, as if the tied head were a second matrix.",
          ("tied", "once"), ()),
    Wrong(L12, "padding_rows", """\
rows = max(V, n_tok + n_new)
padding_rows = padded_size(rows, pad_multiple) - V
""", "Subtracted the old row count V instead of the T + n_new rows the tokens own.",
          ("T + n_new", "new tokens", "tokens own", "new ids"), ()),
    Wrong(L12, "p_new_token", """\
grown = resize_tinylm(run.model, n_new, "mean")
p_new_token = float(np.exp(grown.logits(context))[0, corpus.vocab_size])
""", "Exponentiated the logit without normalizing: not a probability.",
          ("softmax", "normaliz", "sum to 1", "probabilit"), ('off by one',)),
    Wrong(L12, "p_new_token", """\
grown = resize_tinylm(run.model, n_new, "mean")
probs = np.exp(log_softmax(grown.logits(context)))[0]
p_new_token = float(probs[corpus.vocab_size - 1])
""", "Off by one: read the last old token's probability, not the first new one's.",
          ("corpus.vocab_size", "first new", "id", "off by one"), ()),
    Wrong(L12, "kl_mean", """\
grown = resize_tinylm(run.model, n_new, "mean")
kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).sum())
""", "Summed the KL over the positions instead of averaging it.",
          ("mean", "average", "positions"), ('zeros',)),
    Wrong(L12, "trimmed_rows", """\
trimmed_rows = len(used)
""", "Kept only the words' tokens, not the 256 byte tokens and end-of-text.",
          ("256", "byte", "end-of-text", "eot"), ()),
    Wrong(L12, "trimmed_rows", """\
trimmed_rows = len(used) + 256 + 1
""", "Added the byte tokens and end-of-text without removing those already in `used`.",
          ("overlap", "union", "set", "twice", "already"), ()),
    Wrong(L12, "saved_params", """\
saved_params = (tok.n_vocab - n_keep) * d_trim * 2
""", "Counted the tied head's rows as well: tied, they are the same rows.",
          ("tied", "once"), ()),
    Wrong(L12, "coverage", """\
kept = used | set(range(256)) | {tok.eot_token}
covered = [set(tok.encode_ordinary(" " + w)) <= kept for w in next_words]
coverage = float(np.mean(covered))
""", "Did not weight the words by their frequency.",
          ("weight", "frequenc"), ('space',)),
    Wrong(L12, "coverage", """\
kept = used | set(range(256)) | {tok.eot_token}
hit = np.array([any(t in kept for t in tok.encode_ordinary(" " + w)) for w in next_words])
freq = np.array([frequencies[w] for w in next_words])
coverage = float((freq * hit).sum() / freq.sum())
""", "Counted a word as covered when any of its tokens is kept, not all of them.",
          ("every token", "all", "subset", "each token"), ()),
]
