"""Held-out corpus 15: plausible wrong answers to the 12 exercises, written blind to the hints.

Lab notebook
------------
Who: helper "blind15" (brief /work/notes/s5/brief_blind15.md), branch blind15.
When: started 2026-12-07 11:15 UTC, written and verified by 11:24 UTC (`date -u`).

Read: /work/notes/RULES.md and the brief; the exercise notebooks exercises/*.ipynb (every cell:
parameters, question texts, the given lines of each answer cell); the answer cells of
solutions/*.ipynb (only the cells just above each check cell); tests/hint_corpus/__init__.py
(the Wrong record) and tests/hint_corpus/check_wrong.py. The public library only by calling it:
count_params (its fields and printed table), token_costs, BYTES_PER_PARAM, model_shape,
n_tokens, serving_memory / training_flops / design_figures on one throwaway design, padded_size,
the signatures of kl_divergence and resize_tinylm and the docstring of unused_scores. The lesson
notebooks notebooks/*.ipynb were not read (allowed, skipped for time): the mistakes come from the
exercises' texts and the way each style of learner reads them.

Never opened, listed, grepped, imported or run: lib/embedlab/grading/ (any file),
lib/embedlab/grade.py, tests/test_*.py, the `issues` command, git log/show of other commits,
/work/notes/* other than RULES.md and the brief, ex.check(...), the grader, embedlab-grade; no
hint was printed (check_wrong prints only values).

Slip (one, names only): the first setup command ran `ls exercises solutions notebooks
tests/hint_corpus`, which listed the file names in tests/hint_corpus (learners.py, heldout*.py,
coincidences.py, right_answers.py, run_right.py). No such file was opened, grepped or imported;
nothing in this corpus comes from them.

Counts: 168 entries, 14 per lesson 01-12, every question of every exercise at least once
(lesson 11's `design` and `defence` too). Styles (STYLES, parallel to ENTRIES): P 44, S 42,
T 41, M 41 ("P" PyTorch habits, "S" statistics/R habits, "T" test-driven, "M" mixed/messy).
HARD (parallel): 43 entries, two mistakes at once or a value that coincides with, or lies very
near, another quantity on the book's inputs (e.g. the prompt share equal to the training share,
a sign-flipped gap of the right magnitude, count_unique right on the question's own example).

Verify: cd tests && nice ../.venv/bin/python -m hint_corpus.check_wrong heldout15 --same
  -> all 168 "wrong", no "same value" line, problems: 0.

Dropped or rewritten while verifying:
- 11 tightest_budget, "compares raw amounts (params, GB, FLOPs) with max": came out CORRECT
  ('compute' is also the largest raw number); rewritten as "the least raw amount left over"
  (gives 'memory').
- 12 kl_mean, "KL the other way (new to old)": raised (the grown logits have V + n_new columns,
  the old ones V), so check_wrong counted an ERROR; replaced by "sums the KL over the positions
  instead of averaging".
- 06 kaplan_n, "total − lm_head only": the same value as "total − token − position" on
  Llama-3-8B (its table and head are both V × d, no position table); rewritten as "blocks only,
  final norm left out" (L × block, 4,096 short: marked HARD).
- Dropped ideas that turned out right on the book's values before they were entered: 04
  mlp_layer with d_ff = 4d (Llama 3.2 1B has d_ff = 4d exactly), 04 attn_layer with d // h
  (equal to head_dim there), 12 padding_rows padded − max(V, n_tok + n_new) (the same as the
  answer for GPT-2), 10 padding_rows as pad_multiple − V mod pad_multiple (right unless V is a
  multiple).
- `words` pruned of one-character and generic tokens ("2", "0", "V", "d", "k", "sum", "two",
  "both", "total", ...) that any hint would contain by chance; phrases added instead
  ("two FLOPs", "factor 2", "0 FLOPs", "only k", ...). Styles were rebalanced after the first run
  (18 entries relabelled, two sources reworded to match their style).
"""

from hint_corpus import Wrong

ENTRIES, STYLES, HARD = [], [], []


def W(lesson, name, style, hard, source, mistake, words, wrong_words=()):
    ENTRIES.append(Wrong(lesson, name, source, mistake, tuple(words), tuple(wrong_words)))
    STYLES.append(style)
    HARD.append(hard)


# ---------------------------------------------------------------- 01 toy table
L = "01-toy-table"
W(L, "E", "P", False,
  "E = np.array([[int(f in traits[w]) for w in words] for f in features])",
  "Builds the table the nn.Linear way, one row per feature and one column per word (transposed).",
  ('transpos', 'one row per word', 'shape', 'rows and columns'), ('dtype', 'float'))
W(L, "E", "M", False,
  "cols = sorted(features)\nE = np.zeros((len(words), len(cols)), dtype=int)\n"
  "for i in range(len(words)):\n    for j in range(len(cols)):\n"
  "        if cols[j] in traits[words[i]]:\n            E[i, j] = 1",
  "Orders the feature columns alphabetically instead of in the order of `features`.",
  ('order', 'column', 'in that order', 'features'), ('transpos', 'one row per word'))
W(L, "n_params", "P", False,
  "n_params = len(words) * len(features) + len(features)",
  "Adds a bias per feature, as if the table were an nn.Linear with bias=True.",
  ('bias', 'only the table', 'no bias', 'V × d', 'V·d'), ('ones', 'nonzero'))
W(L, "n_params", "S", False,
  "n_params = 0\nfor w in words:\n    n_params += len(traits[w])",
  "Counts only the 1 entries (the traits), not every entry of the table.",
  ('every entry', 'zeros', 'zero', 'each entry', 'rows × columns', 'V × d'), ('bias',))
W(L, "batch", "T", False,
  "batch = table[sorted({word_to_id[w] for w in sentence})]",
  "Looks up each distinct word once, sorted, so the repeated word and the sentence's order are lost.",
  ('repeat', 'twice', 'in order', 'every word', 'one row per word of the sentence', 'duplicate'), ('column',))
W(L, "batch", "M", True,
  "ids_ = np.arange(len(sentence))\nbatch = table[ids_]",
  "Indexes with the positions 0..3 of the sentence instead of the words' ids; with four words this just gives back the table itself.",
  ('word_to_id', 'position'), ('column', 'transpos'))
W(L, "cosine", "S", False,
  "def cosine(a, b):\n    num = 0.0\n    sa = 0.0\n    sb = 0.0\n    for i in range(len(a)):\n"
  "        num += a[i] * b[i]\n        sa += a[i] ** 2\n        sb += b[i] ** 2\n"
  "    return float(num / (sa * sb))",
  "Divides by the product of the squared lengths: the square root of the norms is missing.",
  ('square root', 'sqrt', 'norm', 'length'), ('abs',))
W(L, "cosine", "T", False,
  "def cosine(a, b):\n    return float(np.dot(a, b))",
  "Returns the plain dot product, without dividing by the two lengths (right only for unit vectors).",
  ('divide', 'norm', 'length', 'normalis', 'normaliz', 'magnitude'), ('square root', 'sqrt'))
W(L, "cos_pair", "P", False,
  "i, j = word_to_id[pair[0]], word_to_id[pair[1]]\n"
  "cos_pair = cosine_similarity(table[:, i], table[:, j])",
  "Takes the columns with the words' ids (dim=0 thinking) instead of the words' rows.",
  ('column', 'rows of', "each word's row"), ('sqrt', 'round'))
W(L, "cos_pair", "T", False,
  "cos_pair = 0.71",
  "Types the rounded value read off the lesson instead of computing it exactly.",
  ('exact', 'round', 'comput', 'digits', 'code'), ('column',))
W(L, "model_table", "M", False,
  "from embedlab import count_params\nparts = count_params(load_config(model))\n"
  "emb = parts.token_embedding\nmodel_table = emb + parts.position_embedding",
  "Counts the position table (wpe) as part of the token embedding table (wte).",
  ('position', 'token table only', 'wpe', 'token embedding'), ('tied', 'head'))
W(L, "model_table", "S", True,
  "shape = model_shape(load_config(model))\nV, d = shape.vocab_size, shape.hidden_size\n"
  "model_table = V * d + d * V",
  "Adds the output head's d × V to the table although GPT-2's head is tied (the same matrix).",
  ('tied', 'head', 'once', 'same matrix', 'shared'), ('position',))
W(L, "extra_dim_cost", "M", False,
  "s = model_shape(load_config(model))\nV, d = s.vocab_size, s.hidden_size\n"
  "d_new = d + extra_features\nextra_dim_cost = V * d_new",
  "Gives the size of the whole wider table instead of what it gains (the difference).",
  ('gain', 'difference', 'minus', 'only the new', 'extra', 'V × extra'), ('rows',))
W(L, "extra_dim_cost", "S", True,
  "s = model_shape(load_config(model))\nV, d = s.vocab_size, s.hidden_size\n"
  "extra_dim_cost = (V + extra_features) * d - V * d",
  "Adds `extra_features` rows (tokens) instead of columns: d × extra instead of V × extra.",
  ('every token', 'width', 'column', 'each row', 'per token', 'V × extra', 'every token gets'), ('difference', 'minus'))

# ---------------------------------------------------------------- 02 lookup vs matmul
L = "02-lookup-vs-matmul"
W(L, "one_hot", "T", True,
  "def one_hot(ids, V):\n    ids = np.asarray(ids)\n    return np.eye(ids.max() + 1)[ids]",
  "Sizes the matrix from the largest id present instead of V: right on a batch that uses the top id, short of columns otherwise.",
  ('width', 'columns', 'max', 'columns for every id'), ('-1', 'off by one'))
W(L, "one_hot", "S", False,
  "def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n    for t in range(len(ids)):\n"
  "        out[t, ids[t] - 1] = 1\n    return out",
  "Puts the 1 one column to the left (ids counted from 1, R style): off by one.",
  ('off by one', 'column ids[t]', 'from 0', 'zero-based', 'index', '0-based', 'shift'), ('width',))
W(L, "rows_lookup", "T", False,
  "rows_lookup = E[:len(ids)]",
  "Takes the first len(ids) rows of the table instead of the rows the ids name.",
  ('index', 'the rows of the ids', 'E[ids]'), ('sort', 'order'))
W(L, "rows_lookup", "M", False,
  "idx = sorted(ids)\nrows_lookup = E[idx]",
  "Sorts the ids before looking them up, so the rows come out in the wrong order.",
  ('order', 'sort', 'in order', 'one row per id'), ('repeat', 'duplicate'))
W(L, "rows_matmul", "P", False,
  "W = E.T                      # nn.Linear weight is (out, in)\n"
  "rows_matmul = W @ np.eye(table_V, dtype=np.float32)[ids].T",
  "Multiplies in nn.Linear's (out, in) layout and gets the rows back transposed, shape (d, n).",
  ('transpos', 'shape', 'one row per id', '(n, d)'), ('repeat', 'float64'))
W(L, "rows_matmul", "M", True,
  "oh = one_hot(np.unique(ids), table_V).astype(np.float32)\nrows_matmul = oh @ E",
  "Builds the one-hot matrix from the distinct ids only (and sorted), so the repeated id loses its row.",
  ('repeat', 'every id', 'duplicate', 'unique', 'one row per id', 'order'), ('transpos', 'float64'))
W(L, "keeps_sign", "T", False,
  "keeps_sign = \"both\"",
  "Assumes both paths return the same bits; the matmul adds 0*x terms and -0.0 + 0.0 gives +0.0.",
  ('matmul', '+0.0', 'adds', 'addition', '0.0', 'adds 0'), ())
W(L, "keeps_sign", "P", False,
  "keeps_sign = \"matmul\"",
  "Picks the matmul; it is the lookup that copies the stored -0.0 as it is.",
  ('lookup', 'copies', 'copy', 'adds'), ())
W(L, "embedding_backward", "P", False,
  "def embedding_backward(ids, grad_out, V):\n    g = np.zeros((V, grad_out.shape[1]))\n"
  "    g[ids] += grad_out\n    return g",
  "Uses buffered fancy-index += (like index_put without accumulate), so a repeated id keeps only one contribution.",
  ('repeat', 'add.at', 'accumulate', 'buffered', 'twice', 'index_add', 'add them'), ('mean', 'average'))
W(L, "embedding_backward", "S", False,
  "def embedding_backward(ids, grad_out, V):\n    g = np.zeros((V, grad_out.shape[1]))\n"
  "    n = np.zeros(V)\n    for t in range(len(ids)):\n        g[ids[t]] += grad_out[t]\n"
  "        n[ids[t]] += 1\n    n[n == 0] = 1\n    return g / n[:, None]",
  "Averages the gradients of a repeated id instead of summing them.",
  ('mean', 'average', 'divide', 'add up', 'summed'), ('buffered',))
W(L, "updated_rows", "P", False,
  "updated_rows = np.arange(batch_V)",
  "Answers every row, as for a tied head; untied, only the looked-up rows get a gradient.",
  ('untied', 'looked up', 'only the rows', 'unique', 'appear'), ('order', 'first sequence'))
W(L, "updated_rows", "T", False,
  "updated_rows = np.unique(batch[0])",
  "Takes the ids of the first sequence only, not of the whole batch.",
  ('every sequence', 'whole batch', 'both sequences', 'all sequences', 'second', 'each sequence'), ('tied', 'untied'))
W(L, "batch_flops", "S", False,
  "batch_flops = V * d * n_tokens",
  "Counts one FLOP per multiply-add instead of two (a multiply and an add).",
  ('multiply and', 'multiply-add', 'two FLOPs', 'factor 2', 'factor of 2', '2 FLOPs'), ('bytes',))
W(L, "one_hot_batch_bytes", "M", True,
  "itemsize = 8   # numpy's default float\none_hot_batch_bytes = n_tokens * d * itemsize",
  "Sizes the output rows (n × d) instead of the one-hot matrix (n × V), and takes float64's 8 bytes instead of the dtype named in `precision`.",
  ('vocabulary', 'one column per token', 'precision', 'itemsize', 'float32', '4 bytes'), ('bits',))

# ---------------------------------------------------------------- 03 counting gpt2
L = "03-counting-gpt2"
W(L, "linear_params", "T", False,
  "linear_params = linear_in * linear_out",
  "Counts the weight matrix only and leaves out the bias.",
  ('bias',), ('input', 'linear_in bias'))
W(L, "linear_params", "P", False,
  "linear_params = linear_in * linear_out + linear_in",
  "Gives the bias one entry per input feature instead of one per output feature.",
  ('output', 'linear_out', 'one per output', 'out_features'), ('forgot the bias', 'no bias'))
W(L, "block_params", "T", False,
  "block_params = 12 * d * d",
  "Uses the rule of thumb 12·d² instead of the exact count: biases and LayerNorms are missing.",
  ('bias', 'LayerNorm', 'exact', 'rule of thumb'), ())
W(L, "block_params", "P", False,
  "attn = (d * 3 * d + 3 * d) + (d * d + d)\nmlp = (d * 4 * d + 4 * d) + (4 * d * d + d)\n"
  "block_params = attn + mlp + 2 * d",
  "Gives each LayerNorm only its weight (d), not its weight and bias (2d each).",
  ('LayerNorm', 'bias', '2·d', 'gain', 'weight and bias', '2 * d'), ())
W(L, "block_params", "M", True,
  "D = d\nqkv = D * 3 * D + 3 * D\nproj = D * D + D\nfc = D * 4 * D\nfc2 = 4 * D * D\nln = 2 * D\n"
  "block_params = qkv + proj + fc + fc2 + ln",
  "Leaves out both MLP biases and counts only one LayerNorm (two slips).",
  ('bias', 'LayerNorm', 'norm', 'MLP'), ())
W(L, "interview", "S", False,
  "table = interview_V * interview_d\nhead = interview_d * interview_V\ninterview = table + head",
  "Counts the tied head as a second matrix: it is the same table, counted once.",
  ('tied', 'once', 'shared', 'twice'), ('bias', 'position'))
W(L, "interview", "P", False,
  "interview = interview_V * interview_d + interview_V",
  "Gives the tied head an nn.Linear bias of V; the tied head is the table and has no extra parameters.",
  ('bias', 'no bias', 'only the table', 'V × d', 'V·d'), ('twice', 'position'))
W(L, "embedding_share", "M", False,
  "counts = count_params(load_config(share_model))\n"
  "embedding_share = (counts.token_embedding + counts.position_embedding) / counts.total",
  "Counts the position table with the token table.",
  ('position', 'token table', 'only E', 'token_embedding'), ('percent', 'head'))
W(L, "embedding_share", "S", False,
  "counts = count_params(load_config(share_model))\n"
  "embedding_share = 100 * counts.token_embedding / counts.total",
  "Gives a percentage instead of a fraction between 0 and 1.",
  ('percent', 'fraction', 'between 0 and 1', '100'), ('position',))
W(L, "estimate_gap", "S", True,
  "estimate = V * d + 12 * L * d ** 2\nestimate_gap = estimate - exact",
  "Subtracts the wrong way round (estimate − exact), so the gap comes out negative.",
  ('sign', 'negative', 'exact − estimate', 'exact - estimate', 'the other way', 'order'), ('square',))
W(L, "estimate_gap", "T", False,
  "estimate_gap = exact - (V * d + 12 * L * d * 2)",
  "Types d*2 for d squared, so the estimate's block term is far too small.",
  ('d²', 'square', 'd**2', 'd ** 2', 'd*d', 'power'), ('sign', 'negative'))
W(L, "gpt2_params", "P", False,
  "def gpt2_params(V, d, L, T):\n    wte = V * d\n    wpe = T * d\n    lm_head = d * V\n"
  "    block = 12 * d * d + 13 * d\n    return wte + wpe + L * block + 2 * d + lm_head",
  "Adds a separate lm_head although GPT-2's head is tied.",
  ('tied', 'head', 'once', 'shared'), ('position',))
W(L, "gpt2_params", "T", False,
  "def gpt2_params(V, d, L, T):\n    return V * d + L * (12 * d * d + 13 * d) + 2 * d",
  "Leaves out the learned position table (T × d); T is never used.",
  ('position', 'T × d', 'T·d', 'wpe', 'context'), ('tied', 'head'))
W(L, "gpt2_params", "M", True,
  "def gpt2_params(V, d, L, T):\n    per_block = 12 * d * d + 11 * d\n"
  "    return V * d + T * d + L * per_block",
  "Gives each block's two LayerNorms d parameters instead of 2d (11d instead of 13d) and forgets the final LayerNorm.",
  ('LayerNorm', 'final', 'norm', 'bias', '13'), ('tied', 'position'))

# ---------------------------------------------------------------- 04 modern blocks
L = "04-modern-blocks"
W(L, "attn_layer", "P", False,
  "attn_layer = 4 * d * d",
  "Counts four d × d projections as in multi-head attention, ignoring that k and v have only h_kv heads.",
  ('grouped', 'h_kv', 'key/value heads', 'kv heads', 'smaller', 'GQA'), ('bias',))
W(L, "attn_layer", "S", False,
  "q = d * h * head_dim\nkv = d * h_kv * head_dim\no = h * head_dim * d\nattn_layer = q + kv + o",
  "Counts the k and v projections as one matrix: each is d × h_kv·head_dim, so there are two.",
  ('k and v', 'keys and values', '2·d·h_kv', 'two matrices', 'separate'), ('bias',))
W(L, "attn_layer", "P", True,
  "q_out, kv_out = h * head_dim, h_kv * head_dim\n"
  "attn_layer = (d * q_out + q_out) + 2 * (d * kv_out + kv_out) + (q_out * d + d)",
  "Adds nn.Linear biases to the four projections; this attention has no biases.",
  ('bias', 'no biases'), ('h_kv', 'grouped'))
W(L, "mlp_layer", "P", False,
  "mlp_layer = 2 * d * d_ff",
  "Counts a classic two-matrix MLP; SwiGLU has three (gate, up and down).",
  ('three', 'gate', 'SwiGLU'), ('bias',))
W(L, "mlp_layer", "T", False,
  "d_ff_rule = int(8 * d / 3)\nmlp_layer = 3 * d * d_ff_rule",
  "Uses the 8/3·d rule of thumb for the width instead of the config's intermediate_size.",
  ('intermediate_size', 'd_ff', 'config'), ('gate', 'bias'))
W(L, "mlp_layer", "M", True,
  "up = d * d_ff + d_ff\ngate = d * d_ff + d_ff\ndown = d_ff * d + d\nmlp_layer = up + gate + down",
  "Adds biases to the three SwiGLU matrices; they have none.",
  ('bias', 'no biases'), ('three', 'gate'))
W(L, "vocab_share", "T", False,
  "c = count_params(load_config(share_model))\nvocab_share = c.token_embedding / c.total",
  "Counts only the token table, not the untied output head as well.",
  ('head', 'untied', 'lm_head'), ('non-embedding', 'denominator'))
W(L, "vocab_share", "M", True,
  "c = count_params(load_config(share_model))\nvocab = c.token_embedding + c.lm_head\n"
  "vocab_share = vocab / c.non_embedding",
  "Divides by the non-embedding count instead of the whole model's total.",
  ('whole model', 'denominator', 'all parameters'), ('head', 'untied'))
W(L, "padding_params", "M", False,
  "n_blocks = V // pad_multiple          # whole blocks of 64 rows\n"
  "extra_rows = V - n_blocks * pad_multiple\npadding_params = extra_rows * d",
  "Rounds down (V mod 64 rows above the previous multiple) instead of up to the next multiple.",
  ('round up', 'next multiple', 'ceil', 'up to'), ('tied', 'once'))
W(L, "padding_params", "S", False,
  "import math\nV_pad = math.ceil(V / pad_multiple) * pad_multiple\n"
  "padding_params = (V_pad - V) * d * 2",
  "Counts the padded rows twice, in the table and the head, though the head is tied.",
  ('tied', 'once', 'same matrix', 'shared', 'twice'), ('round up', 'ceil'))
W(L, "padding_params", "T", False,
  "V_pad = -(-V // pad_multiple) * pad_multiple\npadding_params = V_pad - V",
  "Gives the number of padded rows, not their parameters (each row holds d).",
  ('× d', 'width', 'per row', 'each row'), ('round up', 'tied'))
W(L, "llama_params", "P", False,
  "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d // h\n"
  "    attn = 2 * d * h * hd + 2 * d * h_kv * hd\n    mlp = 3 * d * d_ff\n"
  "    return V * d + L * (attn + mlp + 2 * d) + d + V * d",
  "Always adds a separate head, ignoring `tied`.",
  ('tied', 'tie'), ('RMSNorm', 'h_kv'))
W(L, "llama_params", "S", True,
  "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d // h\n    total = V * d\n"
  "    for layer in range(L):\n        total += d * h * hd + 2 * d * h_kv * hd + h * hd * d\n"
  "        total += 3 * d * d_ff\n        total += d\n    if not tied:\n        total += V * d\n"
  "    return total",
  "Counts one RMSNorm per layer instead of two and forgets the final RMSNorm.",
  ('RMSNorm', 'norm', 'final'), ('tied', 'h_kv'))
W(L, "llama_params", "T", False,
  "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    layer = 4 * d * d + 3 * d * d_ff + 2 * d\n"
  "    return V * d + L * layer + d + (0 if tied else V * d)",
  "Counts full-width k and v (four d × d matrices), ignoring grouped-query attention's h_kv.",
  ('h_kv', 'grouped', 'key/value', 'kv heads', 'GQA'), ('tied', 'RMSNorm'))

# ---------------------------------------------------------------- 05 weight tying
L = "05-weight-tying"
W(L, "tied_count", "P", False,
  "tied_count = untied - 2 * V * d",
  "Removes both vocabulary-sized matrices; tying removes only the head's, the table stays.",
  ('only the head', 'table stays', 'once', 'one V × d', 'one V·d', 'only one', 'one matrix'), ('bias',))
W(L, "tied_count", "T", True,
  "tied_count = 8_000_000_000 - V * d",
  "Starts from the name's rounded 8B instead of the exact count `untied`.",
  ('exact', 'untied', 'count_params', '8B', 'rounded'), ('twice', 'both'))
W(L, "tied_count", "M", False,
  "tied_count = untied if shape.tied else untied + V * d",
  "Adds a V × d matrix when tying, as if the tied head were an extra copy; tying takes one away.",
  ('subtract', 'remove', 'fewer', 'minus', 'less', 'saves'), ('8B', 'rounded'))
W(L, "grad_E", "P", False,
  "grad_E = dlogits.T @ x",
  "Keeps only the head's gradient; the table was also looked up, so dx0 must be added into its rows.",
  ('lookup', 'dx0', 'two jobs', 'looked-up'), ('add.at', 'repeat'))
W(L, "grad_E", "S", False,
  "grad_E = np.zeros((V, d))\nfor t in range(len(ids)):\n    grad_E[ids[t]] += dx0[t]",
  "Keeps only the lookup's gradient; the tied table is also the head, whose gradient is dlogits.T @ x.",
  ('head', 'dlogits', 'two jobs', 'output'), ('repeat', 'buffered'))
W(L, "grad_E", "M", False,
  "g = dlogits.T @ x\ng[ids] += dx0\ngrad_E = g",
  "Adds the lookup's gradient with buffered fancy-index +=, so the repeated id 4 gets only one of its two rows.",
  ('repeat', 'add.at', 'twice', 'buffered', 'accumulate'), ('head', 'dlogits'))
W(L, "count_unique", "P", False,
  "def count_unique(storage, sizes):\n    return int(np.sum(sizes))",
  "Sums every entry, like summing p.numel() over a state dict: a shared storage is counted twice.",
  ('storage', 'once', 'shared', 'unique', 'twice'), ('position', 'index'))
W(L, "count_unique", "T", True,
  "def count_unique(storage, sizes):\n    return int(sum(sizes) - sizes[-1])",
  "Fits the question's example by dropping the last entry, instead of counting each storage once.",
  ('storage', 'each storage once', 'unique', 'once', 'shared'), ())
W(L, "count_unique", "S", True,
  "def count_unique(storage, sizes):\n    total = 0\n    for s in np.unique(storage):\n"
  "        total += sizes[s]\n    return int(total)",
  "Indexes `sizes` with the storage id instead of the position of an entry with that storage (right on the example, where they coincide).",
  ('position', 'index', 'entry', 'storage id'), ('sum every',))
W(L, "ties", "T", False,
  "ties = \"llama-3-8b\"",
  "Guesses the biggest model; its config says its head is untied.",
  ('tie_word_embeddings', 'config', 'load_config'), ())
W(L, "ties", "M", False,
  "cfg = {n: load_config(n) for n in candidates}\n"
  "ties = [n for n in candidates if not cfg[n].get('tie_word_embeddings', False)][1]",
  "Filters on the negated flag (the untied ones) and picks one of those.",
  ('tie_word_embeddings', 'config', 'True'), ())
W(L, "state_dict_sum", "P", False,
  "state_dict_sum = count_params(load_config(tied_model)).total",
  "Gives the unique count; the state dict lists the tied table under two names, so the naive sum counts it twice.",
  ('twice', 'two names', 'both entries', 'duplicate', 'V × d', 'V·d'), ('blocks',))
W(L, "state_dict_sum", "S", False,
  "s = model_shape(load_config(tied_model))\nstate_dict_sum = 2 * s.vocab_size * s.hidden_size",
  "Sums only the two vocabulary entries, not every entry of the state dict (blocks, positions, norms).",
  ('every entry', 'all entries', 'blocks', 'rest', 'whole'), ('once',))
W(L, "state_dict_sum", "T", True,
  "cfg = load_config(tied_model)\ns = model_shape(cfg)\n"
  "state_dict_sum = count_params(cfg).total - s.vocab_size * s.hidden_size",
  "Subtracts the shared table instead of adding its second listing: the naive sum is larger than the count.",
  ('twice', 'adds', 'larger', 'more', 'duplicate', 'plus'), ('blocks',))

# ---------------------------------------------------------------- 06 params vs compute
L = "06-params-vs-compute"
W(L, "head_flops", "S", False,
  "head_flops = d * V",
  "Counts one FLOP per weight instead of two (a multiply and an add).",
  ('multiply and', 'multiply-add', 'two FLOPs', 'factor 2', 'factor of 2', '2 FLOPs'), ('bias',))
W(L, "head_flops", "P", False,
  "head_flops = 2 * d * V + V",
  "Adds the FLOPs of an nn.Linear bias; the head has none.",
  ('bias', 'no bias', '2·d·V', '2 · d · V'), ('two FLOPs per',))
W(L, "lookup_flops", "P", False,
  "lookup_flops = 2 * d * V",
  "Prices the lookup as a one-hot matmul; a lookup copies a row and costs no FLOPs.",
  ('zero', 'no FLOP', 'copies', 'indexing', 'copy', '0 FLOPs', 'costs nothing', 'free'), ())
W(L, "lookup_flops", "T", False,
  "lookup_flops = d",
  "Counts one FLOP per copied number; copying is not arithmetic, so it is 0.",
  ('zero', 'no FLOP', 'copy', 'no arithmetic', '0 FLOPs', 'costs nothing', 'free'), ())
W(L, "kaplan_n", "P", False,
  "kaplan_n = counts.total - counts.token_embedding - counts.position_embedding",
  "Leaves the untied head in; Kaplan's N excludes it as well.",
  ('head', 'lm_head', 'untied'), ('position',))
W(L, "kaplan_n", "T", True,
  "kaplan_n = counts.num_blocks * counts.block.total",
  "Counts the blocks only (the lesson's L·12·d² picture), leaving out the final norm, which N includes.",
  ('final norm', 'norm', 'everything except', 'final'), ('head', 'position'))
W(L, "head_share_training", "S", False,
  "attn = c.attention_per_key * T * T\n"
  "head_share_training = T * c.head / (T * (c.input + c.blocks + c.head) + attn)",
  "Counts T² keys instead of T(T+1)/2 (each token attends only to itself and the ones before).",
  ('T(T+1)/2', 'T(T + 1)/2', 'keys', 'triangle', 'causal', '(T+1)'), ('once',))
W(L, "head_share_training", "T", False,
  "head_share_training = c.head / (c.input + c.blocks + c.head)",
  "Leaves the attention over the context out of the total.",
  ('attention', 'context', 'attention_per_key', 'keys'), ('once', 'last position'))
W(L, "head_share_prompt", "P", True,
  "attention = c.attention_per_key * T * (T + 1) // 2\n"
  "head_share_prompt = T * c.head / (T * (c.input + c.blocks + c.head) + attention)",
  "Runs the head at every position as in training (the result equals the training share); reading a prompt needs it once.",
  ('once', 'last position', 'only one', 'one position'), ('T(T+1)/2', 'keys'))
W(L, "head_share_prompt", "M", True,
  "attention = c.attention_per_key * T * (T + 1) // 2\n"
  "total = T * (c.input + c.blocks + c.head) + attention\nhead_share_prompt = c.head / total",
  "Counts the head once in the numerator but still T times in the total.",
  ('denominator', 'once', 'T times'), ('keys',))
W(L, "forward_flops_per_token", "P", False,
  "def forward_flops_per_token(V, d, L, d_ff, context):\n    lookup = 2 * V * d\n"
  "    blocks = L * 2 * (4 * d * d + 2 * d * d_ff)\n    attn = L * 4 * context * d\n"
  "    return lookup + blocks + attn + 2 * d * V",
  "Prices the input lookup as a matmul (2·V·d); a lookup costs 0.",
  ('lookup', 'zero', '0 FLOPs', 'costs nothing'), ('attention',))
W(L, "forward_flops_per_token", "S", False,
  "def forward_flops_per_token(V, d, L, d_ff, context):\n    total = 0\n    for l in range(L):\n"
  "        total += 2 * 4 * d * d + 2 * 2 * d * d_ff\n        total += 2 * context * d\n"
  "    total += 2 * d * V\n    return total",
  "Counts 2·context·d per block for attention instead of 4·context·d (scores and the weighted sum).",
  ('4·context·d', '4 · context · d', 'attention', 'scores', 'values'), ('lookup',))
W(L, "flop_rate", "S", False,
  "C = 6 * N * D\nflop_rate = C / GPU_HOURS",
  "Divides by GPU hours, not seconds: FLOP/s needs the hours times 3600.",
  ('second', '3600', 'hours'), ('TFLOP',))
W(L, "active_params", "M", False,
  "active_params = counts.total - moe_layers * n_experts * 3 * d * d_ff",
  "Takes away every expert, not only the n_experts − k the token skips.",
  ('experts_per_token', 'routed', 'n_experts - k', 'n_experts − k', 'skips', 'only k', 'k of them', 'k experts'), ('shared',))

# ---------------------------------------------------------------- 07 memory
L = "07-memory"
W(L, "weights_gb_4bit", "S", False,
  "weights_gb_4bit = N * 0.5 / 2 ** 30",
  "Divides by 2³⁰ (GiB) instead of 10⁹ (GB).",
  ('GB', '10⁹', '1e9', 'GiB', '2³⁰', '2**30'), ('bits', 'half a byte'))
W(L, "weights_gb_4bit", "P", False,
  "bits_per_param = 4\nweights_gb_4bit = N * bits_per_param / 1e9",
  "Multiplies by 4 bits as if they were bytes: int4 is half a byte per parameter.",
  ('half a byte', '0.5', 'bytes', 'bits'), ('GiB', '2³⁰'))
W(L, "weights_gb_4bit", "T", True,
  "weights_gb_4bit = 8e9 * 0.5 / 1e9",
  "Uses the name's rounded 8B instead of the exact count N.",
  ('count_params', 'exact', '8B', 'rounded'), ('GiB',))
W(L, "adam_parts", "P", False,
  "adam_parts = np.array([4, 4, 4, 8]) * n_params",
  "Stores the weights and gradients in fp32 (PyTorch's default); mixed precision keeps them in fp16, 2 bytes.",
  ('fp16', '2 bytes', '16-bit', 'half'), ('order', 'm and v'))
W(L, "adam_parts", "S", False,
  "adam_parts = np.array([2 * n_params, 2 * n_params, 4 * n_params, 4 * n_params])",
  "Counts one moment; Adam keeps two (m and v), 8 bytes per parameter together.",
  ('two moments', 'm and v', 'both moments'), ('fp16', 'order'))
W(L, "adam_parts", "M", True,
  "parts = {'weights': 2, 'grads': 2, 'moments': 8, 'master': 4}\n"
  "adam_parts = np.array(list(parts.values())) * n_params",
  "Lists the moments before the master copy (the order asked is weights, gradients, master, moments); the total is right.",
  ('order', 'master copy', 'third', 'fourth', 'moments'), ('fp16', 'two moments'))
W(L, "kv_bytes_per_token", "P", False,
  "kv_bytes_per_token = int(L * h_kv * head_dim * BYTES_PER_PARAM[cache_precision])",
  "Forgets the factor 2: the cache holds a key and a value per head.",
  ('keys and values', 'K and V', 'key and a value', 'factor 2', 'factor of 2'), ('h_kv', 'grouped'))
W(L, "kv_bytes_per_token", "T", False,
  "kv_bytes_per_token = int(2 * L * h * head_dim * BYTES_PER_PARAM[cache_precision])",
  "Uses the query heads h instead of the key/value heads h_kv.",
  ('h_kv', 'grouped', 'key/value heads', 'kv heads', 'num_key_value_heads'), ('keys and values',))
W(L, "gqa_saving_gib", "S", False,
  "b = BYTES_PER_PARAM[cache_precision]\nfull = 2 * L * h * head_dim * b * context\n"
  "grouped = 2 * L * h_kv * head_dim * b * context\ngqa_saving_gib = (full - grouped) / 1e9",
  "Divides by 10⁹ (GB) instead of 2³⁰ (GiB).",
  ('GiB', '2³⁰', '2**30', '1024'), ('difference', 'saving'))
W(L, "gqa_saving_gib", "T", False,
  "b = BYTES_PER_PARAM[cache_precision]\n"
  "gqa_saving_gib = 2 * L * h * head_dim * b * context / 2 ** 30",
  "Gives the full cache with one key/value head per query head, not what grouping saves (the difference).",
  ('saving', 'difference', 'minus', 'subtract', 'h_kv'), ('10⁹', '1e9', 'GB instead'))
W(L, "kv_cache_gb", "M", False,
  "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
  "    return 2 * L * h_kv * head_dim * bytes_per_number * context / 1e9",
  "Forgets to multiply by the batch.",
  ('batch', 'sequences'), ('GiB',))
W(L, "kv_cache_gb", "M", True,
  "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
  "    per_tok = L * h_kv * head_dim * bytes_per_number\n"
  "    return per_tok * context * batch / 2 ** 30",
  "Forgets the factor 2 for keys and values and divides by 2³⁰ instead of 10⁹.",
  ('keys and values', '1e9', '10⁹', 'factor 2', 'factor of 2'), ('batch',))
W(L, "max_batch", "M", False,
  "max_batch = round((memory - weights) / per_sequence)",
  "Rounds to the nearest whole number; the 60th sequence does not fit, so it must round down.",
  ('floor', 'round down', 'whole', '//'), ('weights',))
W(L, "max_batch", "P", True,
  "max_batch = round(memory / per_sequence)",
  "Forgets that the weights take memory too, and rounds to nearest instead of down.",
  ('weights', 'floor', 'round down'), ())

# ---------------------------------------------------------------- 08 vocabulary size
L = "08-vocabulary-size"
W(L, "embedding_params", "P", False,
  "embedding_params = V_big * d * 2",
  "Counts the tied head as a second matrix.",
  ('tied', 'once', 'shared'), ('V_small',))
W(L, "embedding_share", "M", False,
  "embedding_share = table / rest",
  "Divides by the rest instead of by the whole model (table + rest).",
  ('whole model', 'table + rest', 'denominator', 'whole'), ('V_small',))
W(L, "embedding_share", "T", False,
  "table = V_small * d\nembedding_share = table / (table + rest)",
  "Overwrites the table with the small vocabulary's; the question asks for V_big rows.",
  ('V_big', '256', '256,000', 'big vocabulary'), ('denominator',))
W(L, "extra_head_flops", "S", False,
  "extra_head_flops = d * (V_big - V_small)",
  "Counts one FLOP per head weight instead of two.",
  ('multiply and', 'multiply-add', 'two FLOPs', 'factor 2', 'factor of 2', '2 FLOPs'), ('V_small',))
W(L, "extra_head_flops", "P", True,
  "extra_head_flops = 2 * d * V_big + V_big",
  "Gives the big head's whole cost (with an nn.Linear bias) instead of how much more it costs than the small one.",
  ('more', 'difference', 'V_small', 'minus', 'extra'), ())
W(L, "break_even_r", "M", False,
  "break_even_r = (blocks + 2 * d * V_big) / (blocks + 2 * d * V_small)",
  "Inverts the ratio: cost per token with V_small over cost per token with V_big is the break-even.",
  ('invert', 'upside down', 'other way', 'reciprocal', 'swap'), ('blocks',))
W(L, "break_even_r", "T", False,
  "break_even_r = V_small / V_big",
  "Compares the heads only and leaves out the blocks' FLOPs, which both vocabularies pay.",
  ('blocks', 'whole cost', 'per token'), ('invert',))
W(L, "tokens_per_word", "S", False,
  "def tokens_per_word(counts, n_tokens):\n    return float(np.mean(n_tokens))",
  "Averages over distinct words instead of weighting each word by how often it occurs.",
  ('weight', 'count', 'running', 'how often', 'frequency'), ('float', 'integer'))
W(L, "tokens_per_word", "M", False,
  "def tokens_per_word(counts, n_tokens):\n    c = np.asarray(counts)\n    n = np.asarray(n_tokens)\n"
  "    return float(int((c * n).sum()) // int(c.sum()))",
  "Uses integer division, so the mean is truncated to a whole number.",
  ('integer division', '//', 'float', 'truncat', 'whole number'), ('weight',))
W(L, "hindi_single_token_share", "S", False,
  "hindi_single_token_share = 100 * sum(bpe.count_tokens(w) == 1 for w in top_hindi) / n_top",
  "Gives a percentage instead of a fraction.",
  ('percent', 'fraction', '100'), ('n_top',))
W(L, "hindi_single_token_share", "M", False,
  "single = [w for w in top_hindi if bpe.count_tokens(w) == 1]\n"
  "hindi_single_token_share = len(single) / len(hindi)",
  "Divides by all n_train Hindi words instead of the n_top it looked at.",
  ('n_top', 'denominator', '100'), ('percent',))
W(L, "hindi_r", "P", False,
  "def tpw(tk):\n    n = sum(hindi.values())\n"
  "    return sum(len(tk.encode_ordinary(' ' + w)) * c for w, c in hindi.items()) / n\n"
  "hindi_r = tpw(gpt2) / tpw(cl100k)",
  "Divides GPT-2's tokens per word by cl100k's, the inverse of the ratio asked.",
  ('invert', 'other way', "cl100k's", 'divided by GPT-2', 'reciprocal', 'swap'), ('weight',))
W(L, "hindi_r", "S", True,
  "g = [len(gpt2.encode_ordinary(' ' + w)) for w in hindi]\n"
  "c = [len(cl100k.encode_ordinary(' ' + w)) for w in hindi]\nhindi_r = np.mean(c) / np.mean(g)",
  "Averages the lengths over distinct words, without weighting them by their counts in running text.",
  ('weight', 'count', 'running', 'frequency'), ('invert',))
W(L, "bpe_merges", "T", True,
  "def bpe_merges(counts, n_merges):\n    words = [list(w.encode('utf-8')) for w in counts]\n"
  "    freq = list(counts.values())\n    merges = []\n    for k in range(n_merges):\n"
  "        pairs = {}\n        for tokens, n in zip(words, freq):\n"
  "            for p in zip(tokens, tokens[1:]):\n                pairs[p] = pairs.get(p, 0) + n\n"
  "        if not pairs:\n            break\n        best = max(pairs, key=lambda p: (pairs[p], p))\n"
  "        merges.append(best)\n        for i, tokens in enumerate(words):\n"
  "            out, j = [], 0\n            while j < len(tokens):\n"
  "                if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:\n"
  "                    out.append(256 + k)\n                    j += 2\n                else:\n"
  "                    out.append(tokens[j])\n                    j += 1\n"
  "            words[i] = out\n    return merges",
  "Breaks ties by the largest pair of ids instead of the smallest.",
  ('tie', 'smallest', 'ties'), ('overlap', 'weight'))

# ---------------------------------------------------------------- 09 what rows learn
L = "09-what-rows-learn"
W(L, "n_params", "P", False,
  "n_params = V * d + (2 * d) * d + d",
  "Counts the output matrix as tied to E; this model's U is a matrix of its own.",
  ('untied', 'output matrix', 'head', 'separate', 'its own matrix'), ('bias', '2d'))
W(L, "n_params", "S", False,
  "n_params = V * d + d * d + d + V * d",
  "Gives W one context row's input (d × d); the two rows side by side make it 2d × d.",
  ('two context', '2d', '2·d', 'side by side', '2 * d', '2·d × d', '2d × d'), ('bias', 'untied'))
W(L, "n_params", "M", True,
  "E_size = V * d\nW_size = d * d\nU_size = V * d\nn_params = E_size + W_size + U_size",
  "Gives W d × d instead of 2d × d and leaves out the bias b (two slips).",
  ('bias', '2d', '2·d', 'side by side', 'two context'), ('untied',))
W(L, "embedding_grad", "P", False,
  "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
  "    dE[contexts] += dx0\n    return dE",
  "Uses buffered fancy-index +=, so a token that appears twice keeps one contribution.",
  ('add.at', 'twice', 'repeat', 'buffered', 'accumulate', 'both contributions'), ('slot',))
W(L, "embedding_grad", "S", False,
  "def embedding_grad(contexts, dx0, vocab_size):\n    B = contexts.shape[0]\n"
  "    dE = np.zeros((vocab_size, dx0.shape[2]))\n    for b in range(B):\n"
  "        dE[contexts[b, 0]] += dx0[b, 0]\n    return dE",
  "Loops over the examples but adds only context slot 0, not every slot k.",
  ('every slot', 'both slots', 'slot', 'each context', 'second slot'), ('add.at', 'buffered'))
W(L, "embedding_grad", "M", False,
  "def embedding_grad(contexts, dx0, vocab_size):\n    B, C, dd = dx0.shape\n"
  "    dE = np.zeros((vocab_size, dd))\n    np.add.at(dE, contexts, dx0)\n    return dE / B",
  "Divides by the batch size; the mean is already in dx0, the table's gradient is the plain sum.",
  ('divide', 'mean', 'batch size'), ('slot', 'buffered'))
W(L, "gap", "S", True,
  "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
  "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i <= j]\n"
  "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()",
  "Keeps each word paired with itself (cosine 1) in the within-group mean; the pairs are of different words.",
  ('different', 'itself', 'diagonal', 'self', 'i < j', '56'), ('normalis', 'dot'))
W(L, "gap", "M", True,
  "S_ = E @ E.T\n"
  "win = [S_[i, j] for grp in (animals, vehicles) for i in grp for j in grp if i < j]\n"
  "gap = np.mean(win) - S_[np.ix_(animals, vehicles)].mean()",
  "Uses raw dot products instead of cosine similarities (the rows are not normalised).",
  ('cosine', 'normalis', 'normaliz', 'norm', 'length'), ('itself', 'diagonal'))
W(L, "cos_cat", "P", False,
  "rows = E[animals + vehicles]\ncos_cat = rows @ E[cat] / np.linalg.norm(E[cat]) ** 2",
  "Divides by the cat row's norm squared instead of the product of each row's norm and cat's.",
  ('norm of each row', 'both norms', 'each row', 'norm', 'length'), ('itself',))
W(L, "cos_cat", "T", False,
  "others = [i for i in animals + vehicles if i != cat]\nrows = E[others]\n"
  "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))",
  "Leaves cat itself out, so the array has 15 entries instead of 16.",
  ('16', 'itself', 'first entry', 'shape', 'cat with itself'), ('norm',))
W(L, "rotation_changes_cosines", "T", False,
  "rotation_changes_cosines = \"yes\"",
  "Thinks the rotation changes the angles; an orthogonal Q keeps every dot product and length.",
  ('orthogonal', 'angle', 'dot product', 'length', 'rotation', 'preserv'), ())
W(L, "tinylm_grads", "P", False,
  "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
  "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    z = x @ U.T\n"
  "    p = np.exp(z - z.max(1, keepdims=True))\n    p /= p.sum(1, keepdims=True)\n    g = p.copy()\n"
  "    g[np.arange(B), targets] -= 1\n    dU = g.T @ x\n    da = (g @ U) * (1 - x ** 2)\n"
  "    dx0 = (da @ W.T).reshape(B, C, -1)\n    dE = np.zeros_like(E)\n"
  "    np.add.at(dE, contexts, dx0)\n    return dE, dU",
  "Forgets to divide by the batch size: the loss is the mean over the batch (reduction='mean').",
  ('mean', 'divide by B', 'batch size', '/ B', 'average'), ('tanh', 'add.at'))
W(L, "tinylm_grads", "S", False,
  "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
  "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    z = x @ U.T\n"
  "    p = np.exp(z - z.max(1, keepdims=True))\n    p /= p.sum(1, keepdims=True)\n    g = p.copy()\n"
  "    g[np.arange(B), targets] -= 1\n    g /= B\n    dU = g.T @ x\n    da = g @ U\n"
  "    dx0 = (da @ W.T).reshape(B, C, -1)\n    dE = np.zeros_like(E)\n"
  "    np.add.at(dE, contexts, dx0)\n    return dE, dU",
  "Forgets the derivative of tanh (1 − x²) on the way back to the hidden layer's input.",
  ('tanh', '1 - x', '1 − x', 'derivative', 'chain rule'), ('mean', 'add.at'))
W(L, "tinylm_grads", "M", True,
  "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
  "    x0 = E[contexts].reshape(B, -1)\n    h_ = np.tanh(x0 @ W + b)\n    z = h_ @ U.T\n"
  "    p = np.exp(z - z.max(1, keepdims=True))\n    p /= p.sum(1, keepdims=True)\n    g = p.copy()\n"
  "    g[np.arange(B), targets] -= 1\n    g /= B\n    dU = h_.T @ g\n"
  "    da = (g @ U) * (1 - h_ ** 2)\n    dx0 = (da @ W.T).reshape(B, C, -1)\n"
  "    dE = np.zeros_like(E)\n    dE[contexts] += dx0\n    return dE, dU",
  "Returns dU transposed, shape (d, V), and adds into dE with buffered += so a repeated id loses a contribution.",
  ('transpos', 'shape', 'add.at', 'repeat', 'twice', '(V, d)'), ('tanh', 'mean'))

# ---------------------------------------------------------------- 10 glitch tokens
L = "10-glitch-tokens"
W(L, "padding_rows", "P", False,
  "padding_rows = -(-V // pad_multiple) * pad_multiple",
  "Gives the padded vocabulary size, not the rows past V that belong to no token.",
  ('minus', 'rows past', 'subtract', '- V', '− V', 'padding only'), ('round up',))
W(L, "padding_rows", "M", False,
  "padding_rows = V % pad_multiple",
  "Gives the remainder (rows above the previous multiple) instead of the rows up to the next multiple.",
  ('round up', 'next multiple', 'ceil', 'up to'), ('minus',))
W(L, "padding_rows", "M", True,
  "padded = (V // pad_multiple + 1) * pad_multiple\npadding_rows = padded - V - 1",
  "Takes one row off, as if the end-of-text token's row were padding to exclude again: off by one.",
  ('off by one', 'every row past', 'V rows', '- V', 'end-of-text'), ())
W(L, "invalid_bytes", "S", False,
  "invalid_bytes = 0xFF - 0xF5 + 1",
  "Counts only F5..FF and forgets C0 and C1, which could only start overlong encodings.",
  ('C0', 'C1', 'overlong', '0xC0', '0xc0', '13'), ('continuation',))
W(L, "invalid_bytes", "T", False,
  "invalid_bytes = 256 - 128",
  "Counts every byte from 0x80 up as never occurring; most of them occur inside multi-byte characters.",
  ('continuation', 'multi-byte', 'inside', 'lead', 'appear'), ('C0',))
W(L, "unused_score", "P", False,
  "def unused_score(M, reference_ids):\n    m = M[reference_ids].mean(axis=0)\n"
  "    return M @ m / np.linalg.norm(m)",
  "Divides by the mean's norm only, not by each row's norm as well.",
  ('row norm', 'each row', 'norm of every row', 'norm', 'length'), ('mean first',))
W(L, "unused_score", "S", False,
  "def unused_score(M, reference_ids):\n    un = M / np.linalg.norm(M, axis=1, keepdims=True)\n"
  "    return (un @ un[reference_ids].T).mean(axis=1)",
  "Averages the cosines with each reference row instead of taking the cosine with the mean of the reference rows.",
  ('mean of the reference rows', 'mean first', 'mean vector', 'average row'), ('each row',))
W(L, "unused_score", "M", True,
  "def unused_score(M, reference_ids):\n"
  "    keep = [i for i in range(len(M)) if i not in reference_ids]\n"
  "    m = M[reference_ids].mean(axis=0)\n    R = M[keep]\n"
  "    return R @ m / (np.linalg.norm(R, axis=1) * np.linalg.norm(m))",
  "Drops the reference rows from the result; the score is one per row, reference rows included.",
  ('reference rows included', 'every row', 'one score per row', 'shape', 'included'), ('norm',))
W(L, "never_cos", "S", True,
  "rows = run.model.E[never]\nu = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
  "never_cos = (u @ u.T).mean()",
  "Averages the whole cosine matrix, the diagonal of 1s and each pair twice included.",
  ('different', 'diagonal', 'itself', 'self', 'pairs'), ('normalis',))
W(L, "never_cos", "P", False,
  "rows = run.model.E[never]\nG = rows @ rows.T\n"
  "never_cos = G[np.triu_indices(len(never), k=1)].mean()",
  "Averages raw dot products instead of cosine similarities.",
  ('cosine', 'normalis', 'normaliz', 'norm', 'length'), ('diagonal',))
W(L, "top7", "T", False,
  "from embedlab import unused_scores\ns = unused_scores(run.model.E, reference)\n"
  "top7 = np.argsort(-s, kind='stable')[:7]",
  "Forgets to leave the four reference rows out of the ranking.",
  ('leave out', 'reference', 'exclude', 'four'), ('highest first', 'ascending'))
W(L, "top7", "M", True,
  "from embedlab import unused_scores\nscores_ = unused_scores(run.model.E, reference)\n"
  "order = [i for i in np.argsort(scores_) if i not in reference]\ntop7 = np.array(order[:7])",
  "Sorts ascending, so it gives the 7 lowest-scoring rows instead of the highest.",
  ('highest', 'descending', 'order', 'lowest', 'reverse'), ('exclude', 'leave out'))
W(L, "partial_tokens", "T", False,
  "partial_tokens = 0\nfor b in ordinary:\n    if len(b) == 1 and b[0] >= 0x80:\n"
  "        partial_tokens += 1",
  "Counts only the single-byte tokens from 0x80 up, not the merged tokens that cut a character.",
  ('merged', 'multi-byte', 'partway', 'every token', 'longer'), ('decode',))
W(L, "partial_tokens", "M", False,
  "ok = 0\nfor b in ordinary:\n    try:\n        b.decode('utf-8')\n        ok += 1\n"
  "    except UnicodeDecodeError:\n        pass\npartial_tokens = ok",
  "Counts the tokens that decode, the complement of those asked.",
  ('raise', 'not decode', 'fail', 'UnicodeDecodeError', 'do not'), ('merged',))

# ---------------------------------------------------------------- 11 size a model
L = "11-size-a-model"
W(L, "design", "P", False,
  "design = llama_config(vocab_size=32000, d=1024, num_layers=8, num_heads=8, num_kv_heads=2,\n"
  "                      d_ff=4096, tied=True)",
  "Picks heads 128 wide (d = 1024 with 8 heads, as in many PyTorch configs); the job needs heads head_dim wide.",
  ('head_dim', 'head width', 'd / h', '64', 'heads'), ('vocab',))
W(L, "design", "S", False,
  "design = llama_config(vocab_size=30000, d=1024, num_layers=8, num_heads=16, num_kv_heads=4,\n"
  "                      d_ff=4096, tied=True)",
  "Rounds the vocabulary to 30,000, below the job's minimum of min_vocab_size tokens.",
  ('vocab', 'min_vocab_size', '32,000', '32000', 'vocabulary'), ('head_dim', 'head width'))
W(L, "design_params", "P", False,
  "V_, d_ = design['vocab_size'], design['hidden_size']\n"
  "design_params = count_params(design).total + V_ * d_",
  "Adds the head's V × d although the design ties it (a tied head counts once).",
  ('tied', 'once', 'head'), ('non-embedding',))
W(L, "design_params", "T", False,
  "design_params = count_params(design).non_embedding",
  "Gives the non-embedding count; the question asks for every parameter.",
  ('embedding', 'table', 'every parameter'), ('tied',))
W(L, "design_serving_gb", "S", False,
  "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
  "                                   batch=BUDGET.batch, kv=BUDGET.kv)['total']",
  "Leaves the result in bytes instead of dividing by GB.",
  ('bytes', 'divide', '10⁹', '1e9'), ('cache',))
W(L, "design_serving_gb", "M", True,
  "mem = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
  "                     batch=BUDGET.batch, kv=BUDGET.kv)\n"
  "design_serving_gb = mem['weights'] / 2 ** 30",
  "Gives the weights only, without the KV cache, and divides by 2³⁰ instead of GB (two slips).",
  ('cache', 'KV', '10⁹', '1e9'), ())
W(L, "design_train_flops", "S", False,
  "design_train_flops = training_flops(design, T_train).total * D",
  "Multiplies the cost of one sequence by the number of tokens instead of the number of sequences.",
  ('sequences', 'D // T_train', 'per sequence', 'train_context', 'number of sequences'), ('6ND', '6·N·D'))
W(L, "design_train_flops", "T", False,
  "design_train_flops = int(6 * count_params(design).total * D)",
  "Uses the 6·N·D shortcut instead of training_flops (attention and the head's real cost differ).",
  ('training_flops', 'attention', '6ND', '6·N·D', '6 N D'), ('sequences',))
W(L, "tightest_budget", "T", False,
  "tightest_budget = \"parameters\"",
  "Names the parameter budget without comparing the fractions used.",
  ('fraction', 'compare', 'memory', 'compute', 'largest'), ())
W(L, "tightest_budget", "M", True,
  "left = {'parameters': BUDGET.max_params - design_params,\n"
  "        'memory': BUDGET.max_serving_gb - design_serving_gb,\n"
  "        'compute': BUDGET.max_train_flops - design_train_flops}\n"
  "tightest_budget = min(left, key=left.get)",
  "Compares the raw amounts left over (parameters, GB, FLOPs) instead of the fraction of each budget used.",
  ('fraction', 'raw', 'share'), ())
W(L, "other_tying_params", "P", False,
  "V_, d_ = design['vocab_size'], design['hidden_size']\n"
  "other_tying_params = design_params - V_ * d_",
  "Subtracts a V × d when flipping a tied design; untying adds the head's own matrix.",
  ('untied', 'adds', 'more', 'plus', 'head'), ('flip', 'tie_word_embeddings'))
W(L, "other_tying_params", "S", True,
  "other = dict(design)\nother['tied'] = not design.get('tied', True)\n"
  "other_tying_params = count_params(other).total",
  "Flips a key named 'tied' that the config does not read, so the count is unchanged (equals design_params).",
  ('tie_word_embeddings', 'flip', 'unchanged', 'key name', 'wrong key'), ('subtract',))
W(L, "defence", "T", False,
  "defence = \"\"\"\nWhich budget binds, and by how much:\n"
  "My design uses {design_params:,} parameters and {design_serving_gb:.3f} GB; the memory budget is the fullest.\n"
  "\nWhy this width and depth:\n"
  "The heads are {head_dim} wide so d is a number of heads, and the depth is the deepest that fits.\n"
  "\nWhat the tying choice costs:\n"
  "The tied head saves V x d parameters, {other_tying_params:,} untied.\n\"\"\"",
  "Writes the defence as a plain string, not an f-string: the braces are left unfilled.",
  ('f-string', 'brace', 'unfilled', 'f"'), ())
W(L, "defence", "M", False,
  "defence = f\"\"\"\nWhich budget binds, and by how much:\nIt fits.\n\nWhy this width and depth:\n"
  "It seemed a good size.\n\nWhat the tying choice costs:\nTied is cheaper.\n\"\"\"",
  "Writes sentences without any of the design's own figures under the headings.",
  ('figure', 'number', 'your own', 'fraction', 'no figure'), ('brace',))

# ---------------------------------------------------------------- 12 change a vocabulary
L = "12-change-a-vocabulary"
W(L, "added_params", "P", False,
  "added_params = n_new * d * 2",
  "Counts the new rows twice, table and head, though the head is tied.",
  ('tied', 'once', 'shared', 'same matrix'), ('n_tok', 'spare'))
W(L, "added_params", "T", True,
  "rows = max(V, n_tok)\nconfig = load_config(vocab_model)\n"
  "added_params = count_params(dict(config, vocab_size=rows)).total - count_params(config).total",
  "Sizes the table for the old tokens only (max(V, n_tok)), so it grows by nothing (right only when the new ids fit in spare rows).",
  ('n_tok + n_new', 'new ids', 'grow', 'new tokens'), ('tied', 'twice'))
W(L, "padding_rows", "S", False,
  "padding_rows = padded_size(V, pad_multiple) - V",
  "Pads the old vocabulary and forgets the n_new tokens that now own rows.",
  ('new tokens', 'n_new', 'resized', 'n_tok + n_new'), ('minus',))
W(L, "padding_rows", "T", False,
  "padding_rows = padded_size(max(V, n_tok + n_new), pad_multiple)",
  "Gives the padded table size, not the rows past the tokens.",
  ('minus', 'rows past', 'subtract', 'belong to no token'), ('n_new',))
W(L, "p_new_token", "P", False,
  "grown = resize_tinylm(run.model, n_new, 'mean')\n"
  "p_new_token = float(grown.logits(context)[0, corpus.vocab_size])",
  "Gives the raw logit instead of the probability (no softmax).",
  ('softmax', 'probability', 'logit'), ('resize',))
W(L, "p_new_token", "M", True,
  "lp = log_softmax(run.model.logits(context))[0]\n"
  "p_new_token = float(np.exp(lp[corpus.vocab_size - 1]))",
  "Uses the model before the resize and reads id vocab_size − 1, the last old token (two slips).",
  ('resize', 'new token', 'grown', 'vocab_size', 'first new'), ('softmax',))
W(L, "kl_mean", "S", False,
  "grown = resize_tinylm(run.model, n_new, 'mean')\n"
  "kl = kl_divergence(run.model.logits(contexts), grown.logits(contexts))\nkl_mean = 0.0\n"
  "for i in range(len(kl)):\n    kl_mean += kl[i]\nkl_mean = float(kl_mean)",
  "Sums the KL divergence over the positions instead of taking its mean.",
  ('mean', 'average', 'positions', 'divide', 'summed'), ('probabilit', 'logits'))
W(L, "kl_mean", "P", False,
  "grown = resize_tinylm(run.model, n_new, 'mean')\n"
  "p0 = np.exp(log_softmax(run.model.logits(contexts)))\n"
  "p1 = np.exp(log_softmax(grown.logits(contexts)))\nkl_mean = float(kl_divergence(p0, p1).mean())",
  "Passes probabilities to kl_divergence, which takes logits and applies the softmax itself.",
  ('logits', 'probabilit', 'softmax', 'twice'), ('direction',))
W(L, "trimmed_rows", "T", False,
  "trimmed_rows = len(used)",
  "Counts only the words' tokens, not the 256 byte tokens and the end-of-text token.",
  ('byte', '256', 'end-of-text', 'eot'), ('overlap', 'union'))
W(L, "trimmed_rows", "S", True,
  "trimmed_rows = len(used) + 256 + 1",
  "Adds the counts, so byte tokens the words already use are counted twice: the union is smaller.",
  ('overlap', 'union', 'twice', 'already', 'counted twice'), ('end-of-text',))
W(L, "saved_params", "T", False,
  "saved_params = (tok.n_vocab - n_keep) * d_trim * 2",
  "Counts the head's rows too although trim_tied says the head is tied.",
  ('tied', 'trim_tied', 'once'), ('n_keep', 'trimmed_rows'))
W(L, "saved_params", "M", True,
  "saved_params = (tok.n_vocab - trimmed_rows) * d_trim",
  "Uses question 5's trimmed_rows (a stale variable) instead of this example's n_keep.",
  ('n_keep', 'separate', 'question 5', 'trimmed_rows'), ('tied',))
W(L, "coverage", "S", True,
  "kept = used | set(range(256)) | {tok.eot_token}\n"
  "ok_ = [set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words]\n"
  "coverage = float(np.mean(ok_))",
  "Counts each word once instead of weighting it by its frequency.",
  ('weight', 'frequency', 'occurrences', 'how often'), ('space',))
W(L, "coverage", "M", False,
  "kept = used | set(range(256)) | {tok.eot_token}\n"
  "fr = np.array([frequencies[w] for w in next_words])\n"
  "cov = np.array([set(tok.encode_ordinary(w)) <= kept for w in next_words])\n"
  "coverage = float(fr @ cov / fr.sum())",
  "Encodes the words without the leading space, so they become different tokens from those in running text.",
  ('space', 'after a space', '" " +', 'leading'), ('weight',))


# Added by the lead after judge15 (an independent judge who never saw the grading code) read every hint of this
# corpus on the code it was written against (4704c63), before any fix: the word lists recalibrated so the test's
# classifier gives the judge's counts on those hints (156 specific, 10 generic, 2 misleading of 168).
# {(name, the mistake's first characters): (drop_wrong, add_wrong, add, drop)}; "#n": the judge's entry id.
from hint_corpus import calibrated  # noqa: E402

CALIBRATED = {
    ('batch', 'Indexes with the positions 0..3'): ((), (), ('other rows of the table',), ()),  # #5
    ('one_hot', 'Sizes the matrix from the largest id'): ((), (), ('never reads its argument',), ()),  # #14
    ('one_hot_batch_bytes', 'Sizes the output rows (n × d)'): ((), ('n_tokens where v belongs',), (), ()),  # #27
    ('block_params', 'Leaves out both MLP biases'): ((), ('its bias is 4d wide', 'your count has no layernorms'),
                                                     (), ()),  # #32
    ('interview', 'Gives the tied head an nn.Linear bias'): ((), (), ('a term of exactly that size',), ()),  # #34
    ('attn_layer', 'Counts the k and v projections as one'): ((), (), ('the key projection k is missing',), ()),  # #43
    ('mlp_layer', 'Adds biases to the three SwiGLU'): (('three',), (), (), ()),  # #47: "three matrices" is right
    ('vocab_share', 'Divides by the non-embedding count'): ((), (), ('you divided by the rest',), ()),  # #49
    ('ties', 'Filters on the negated flag'): ((), (), (), ('tie_word_embeddings', 'config')),  # #66: generic
    ('head_flops', 'Adds the FLOPs of an nn.Linear bias'): ((), (), ('a term of exactly v numbers',), ()),  # #71
    ('padding_rows', 'Gives the padded vocabulary size'): ((), (), ('that is the padded size',), ()),  # #126
    ('padding_rows', 'Takes one row off'): ((), (), ('subtracts `1`',), ()),  # #128
    ('unused_score', 'Averages the cosines with each'): ((), (), ('averages the cosines',), ()),  # #132
    ('partial_tokens', 'Counts only the single-byte tokens'): (('decode',), (), (), ()),  # #138
    ('design_params', 'Gives the non-embedding count'): (('tied',), (), (), ()),  # #143
    ('padding_rows', 'Gives the padded table size'): (('n_new',), (), (), ()),  # #157
    ('p_new_token', 'Uses the model before the resize'): (('softmax',), (), (), ('new token',)),  # #159: generic
}
ENTRIES = calibrated(ENTRIES, CALIBRATED, ("drop_wrong", "add_wrong", "add", "drop"))
