"""A blind corpus of RIGHT answers written differently: can the checks' second look be fooled into
refusing a correct answer? (Written without reading lib/embedlab/grading/ or tests/test_elsewhere.py.)

Every entry is correct for ANY values of the parameters cell: it computes its answer from the names the
question gives (the parameters cell's, the given objects, earlier answers), never from a number read
off the book's values. It differs from the solution the way real learners' code differs: other names,
another route to the same figure, loops for numpy, a helper defined in an earlier cell, the answer in a
cell of its own below the given one, earlier answers reused, types converted. Function questions are
out of scope. `run_right.py` runs them in real kernels (see there how an entry is put in a notebook).

Measured on main at 0db5659 (`cd tests && ../.venv/bin/python -m hint_corpus.run_right`): 180 entries,
165 ✅ and 15 refused, of two kinds (the grader, `embedlab-grade`, gave the same verdicts on the 8
notebooks graded):
- the answer finished in a later cell that reads the answer's own earlier value (`x = int(x)`,
  `x -= ...`, `x /= ...`, `x = np.array(x)`, a list filtered into its own name, `m = x; x = m`):
  the second look runs that cell alone and it raises NameError or gives a part of the answer
  (entries 137, 161-167, 169);
- the variant gives inputs that break what the question states: lesson 02's `batch` holds ids 10
  and 12 with `batch_V` = 10; lesson 01's `words` changes and `traits` keeps the book's words
  (entries 18, 133, 159, 160; 129, 158; 158 and 159 assert the stated relation, so the refusal
  line shows the variant's values).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Right:
    lesson: str          # e.g. "03-counting-gpt2"
    name: str            # the answer variable the question asks for
    source: str          # replaces `# YOUR CODE HERE` of the answer cell (the given lines above kept);
                         # with `whole`, the whole answer cell
    note: str            # how it differs from the solution
    before: tuple = ()   # cells the learner added above the answer cell (helpers, own variables)
    after: tuple = ()    # cells the learner added below it (the answer in a cell of its own)
    whole: bool = False  # `source` replaces the whole answer cell, the given lines included
    alone: bool = False  # run with every other answer the solution's (it reads an earlier answer cell's names)


R = Right
ENTRIES = [
    # ---------------------------------------------------------------- 01 toy table
    R("01-toy-table", "E",
      "E = np.zeros((len(words), len(features)), dtype=int)\n"
      "for i, w in enumerate(words):\n    for f in traits[w]:\n        E[i, features.index(f)] = 1\n",
      "zeros then an in-place loop over the traits"),
    R("01-toy-table", "n_params", "n_params = E.size\n",
      "reads question 1's answer E (rows x columns of the learner's own table)"),
    R("01-toy-table", "n_params", "rows, cols = E.shape\nn_params = int(rows * cols)\n",
      "E's shape unpacked, int()"),
    R("01-toy-table", "n_params", "", "answer in a cell of its own below the given one",
      after=("n_words = len(words)\nn_features = len(features)\nn_params = n_words * n_features\n"
             "print(f'{n_params} parameters')\n",)),
    R("01-toy-table", "batch",
      "ids = [words.index(w) for w in sentence]\nbatch = table[ids]\n",
      "words.index instead of the given word_to_id"),
    R("01-toy-table", "batch",
      "batch = np.array([table[word_to_id[w]] for w in sentence])\n",
      "a list comprehension of rows, stacked"),
    R("01-toy-table", "cos_pair",
      "a = table[words.index(pair[0])]\nb = table[words.index(pair[1])]\ncos_pair = cosine(a, b)\n",
      "the learner's own cosine (question 4) on the given table"),
    R("01-toy-table", "cos_pair",
      "cos_pair = float(row(pair[0]) @ row(pair[1]) / (np.linalg.norm(row(pair[0])) * np.linalg.norm(row(pair[1]))))\n",
      "a helper defined in a cell above, called in the answer",
      before=("def row(word):\n    return table[word_to_id[word]]\n",)),
    R("01-toy-table", "model_table",
      "V = model_shape(load_config(model)).vocab_size\nd = model_shape(load_config(model)).hidden_size\n"
      "model_table = int(V) * int(d)\n", "two reads of model_shape, int()"),
    R("01-toy-table", "extra_dim_cost",
      "extra_dim_cost = shape.vocab_size * extra_features\n",
      "V * extra (simplified), reading `shape` of question 6's cell", alone=True),
    R("01-toy-table", "extra_dim_cost",
      "extra_dim_cost = model_table // model_shape(load_config(model)).hidden_size * extra_features\n",
      "V recovered from question 6's answer model_table"),
    R("01-toy-table", "model_table", "", "answer in a cell of its own below the given imports",
      after=("s = model_shape(load_config(model))\nmodel_table = s.vocab_size * s.hidden_size\nmodel_table\n",)),

    # ---------------------------------------------------------------- 02 lookup vs matmul
    R("02-lookup-vs-matmul", "rows_lookup",
      "rows_lookup = np.stack([E[i] for i in ids])\n", "a loop over the ids, stacked"),
    R("02-lookup-vs-matmul", "rows_lookup",
      "rows_lookup = np.take(E, ids, axis=0)\n", "np.take"),
    R("02-lookup-vs-matmul", "rows_matmul",
      "rows_matmul = one_hot(np.array(ids), table_V).astype(E.dtype) @ E\n",
      "the learner's one_hot of question 1, cast to E's dtype"),
    R("02-lookup-vs-matmul", "rows_matmul",
      "oh = np.zeros((len(ids), E.shape[0]), dtype=np.float32)\nfor t, i in enumerate(ids):\n    oh[t, i] = 1\n"
      "rows_matmul = oh @ E\n", "one-hot built in a loop, E.shape[0] for table_V"),
    R("02-lookup-vs-matmul", "keeps_sign",
      "via_lookup = np.signbit(E_zero[[0]])[0, 0]\nvia_matmul = np.signbit(np.eye(3)[[0]] @ E_zero)[0, 0]\n"
      "keeps_sign = 'both' if via_lookup and via_matmul else ('lookup' if via_lookup else 'matmul')\n",
      "found by running both paths"),
    R("02-lookup-vs-matmul", "updated_rows",
      "updated_rows = np.array(sorted({i for seq in batch for i in seq}))\n", "a set, sorted"),
    R("02-lookup-vs-matmul", "updated_rows",
      "seen = np.zeros(batch_V, dtype=bool)\nfor seq in batch:\n    seen[seq] = True\nupdated_rows = np.flatnonzero(seen)\n",
      "a mask of rows set in place"),
    R("02-lookup-vs-matmul", "batch_flops",
      "per_token = 2 * V * d\nbatch_flops = int(per_token * n_tokens)\n", "intermediate variable, int()"),
    R("02-lookup-vs-matmul", "batch_flops", "", "answer in its own cell, with the library's matmul_flops",
      after=("from embedlab import matmul_flops\nbatch_flops = int(matmul_flops(V, d, n_tokens))\n",)),
    R("02-lookup-vs-matmul", "one_hot_batch_bytes",
      "one_hot_batch_bytes = np.zeros((n_tokens, V), dtype=precision).nbytes\n",
      "allocates the matrix and reads .nbytes"),
    R("02-lookup-vs-matmul", "one_hot_batch_bytes",
      "itemsize = np.empty(1, dtype=precision).itemsize\none_hot_batch_bytes = int(n_tokens * V * itemsize)\n",
      "itemsize of a one-element array"),

    # ---------------------------------------------------------------- 03 counting gpt2
    R("03-counting-gpt2", "linear_params",
      "weights = linear_in * linear_out\nbiases = linear_out\nlinear_params = weights + biases\n",
      "intermediate variables"),
    R("03-counting-gpt2", "linear_params",
      "linear_params = (linear_in + 1) * linear_out\n", "factored"),
    R("03-counting-gpt2", "block_params",
      "attn = 4 * d * d + 4 * d\nmlp = 8 * d * d + 5 * d\nnorms = 4 * d\nblock_params = attn + mlp + norms\n",
      "parts summed"),
    R("03-counting-gpt2", "block_params",
      "def linear(n_in, n_out):\n    return n_in * n_out + n_out\n"
      "block_params = linear(d, 3 * d) + linear(d, d) + linear(d, 4 * d) + linear(4 * d, d) + 2 * 2 * d\n",
      "a linear-layer helper in the answer cell"),
    R("03-counting-gpt2", "block_params",
      "block_params = linear(d, 3 * d) + linear(d, d) + linear(d, 4 * d) + linear(4 * d, d) + 4 * d\n",
      "the helper defined in a cell above",
      before=("def linear(n_in, n_out):\n    return n_in * n_out + n_out\n",)),
    R("03-counting-gpt2", "block_params", "", "answer in its own cell below the given lines",
      after=("block_params = 12 * d**2 + 13 * d\nprint(block_params)\n",)),
    R("03-counting-gpt2", "interview",
      "table = interview_V * interview_d\nhead = 0  # tied: the same matrix\ninterview = table + head\n",
      "table + head spelled out"),
    R("03-counting-gpt2", "embedding_share",
      "config = load_config(share_model)\nembedding_share = count_params(config).token_embedding / count_params(config).total\n",
      "two count_params calls"),
    R("03-counting-gpt2", "embedding_share",
      "s = model_shape(load_config(share_model))\n"
      "embedding_share = s.vocab_size * s.hidden_size / count_params(load_config(share_model)).total\n",
      "V*d from model_shape over the total"),
    R("03-counting-gpt2", "estimate_gap",
      "rule = V * d + 12 * L * d * d\nestimate_gap = int(exact - rule)\nassert estimate_gap > 0\n",
      "intermediate, int(), an assert"),
    R("03-counting-gpt2", "estimate_gap",
      "from embedlab import estimate_params\nestimate_gap = exact - estimate_params(V, d, L)\n",
      "the library's estimate_params (the same rule)"),
    R("03-counting-gpt2", "estimate_gap", "", "answer in its own cell below the given lines",
      after=("estimate = V * d + 12 * L * d**2\nestimate_gap = exact - estimate\nprint(f'{estimate_gap:,}')\n",)),

    # ---------------------------------------------------------------- 04 modern blocks
    R("04-modern-blocks", "attn_layer",
      "q = d * h * head_dim\nk = d * h_kv * head_dim\nv = d * h_kv * head_dim\no = h * head_dim * d\n"
      "attn_layer = q + k + v + o\n", "one variable per projection"),
    R("04-modern-blocks", "attn_layer",
      "attn_layer = 2 * d * head_dim * (h + h_kv)\n", "factored"),
    R("04-modern-blocks", "attn_layer", "", "answer in its own cell, shape read again from the config",
      after=("sh = model_shape(load_config(attn_model))\n"
             "attn_layer = 2 * sh.hidden_size * sh.head_dim * (sh.num_heads + sh.num_kv_heads)\n",)),
    R("04-modern-blocks", "mlp_layer",
      "gate = up = d * d_ff\ndown = d_ff * d\nmlp_layer = gate + up + down\n", "three matrices named"),
    R("04-modern-blocks", "mlp_layer",
      "import math\nmlp_layer = 3 * math.prod([d, d_ff])\n", "math.prod"),
    R("04-modern-blocks", "mlp_layer", "", "answer in its own cell reading the config dict",
      after=("cfg = load_config(mlp_model)\nmlp_layer = 3 * cfg['hidden_size'] * cfg['intermediate_size']\n",)),
    R("04-modern-blocks", "vocab_share",
      "counts = count_params(load_config(share_model))\nvocab = counts.token_embedding + counts.lm_head\n"
      "vocab_share = float(vocab) / float(counts.total)\n", "intermediate, float()"),
    # was the ParamCount's own `.vocab_share` field: question 3 now asks for the share added up from the parts and
    # refuses the ready-made one (its own_work, tests/test_own_work_shortcuts.py); the parts read by name instead
    R("04-modern-blocks", "vocab_share",
      "pc = count_params(load_config(share_model))\n"
      "vocab_share = sum(getattr(pc, f) for f in ('token_embedding', 'lm_head')) / pc.total\n",
      "the parts read by getattr"),
    R("04-modern-blocks", "padding_params",
      "rows = V\nwhile rows % pad_multiple:\n    rows += 1\npadding_params = (rows - V) * d\n",
      "a loop rounding up"),
    R("04-modern-blocks", "padding_params",
      "import math\npadded = math.ceil(V / pad_multiple) * pad_multiple\npadding_params = int((padded - V) * d)\n",
      "math.ceil"),
    R("04-modern-blocks", "padding_params",
      "from embedlab import padded_size\npadding_params = (padded_size(V, pad_multiple) - V) * d\n",
      "the library's padded_size"),
    R("04-modern-blocks", "padding_params",
      "extra_rows = (pad_multiple - V % pad_multiple) % pad_multiple\npadding_params = extra_rows * d\n",
      "modulo (the outer % keeps a multiple at 0)"),

    # ---------------------------------------------------------------- 05 weight tying
    R("05-weight-tying", "tied_count",
      "tied_count = untied - count_params(config).lm_head\n", "the head's own count"),
    R("05-weight-tying", "tied_count",
      "head = V * d\ntied_count = int(untied - head)\n", "intermediate, int()"),
    R("05-weight-tying", "tied_count", "", "answer in its own cell",
      after=("tied_count = count_params(load_config(untied_model)).total - V * d\nprint(f'{tied_count:,}')\n",)),
    R("05-weight-tying", "grad_E",
      "grad_E = np.zeros((V, d))\ngrad_E += dlogits.T @ x\nfor pos, i in enumerate(ids):\n    grad_E[i] += dx0[pos]\n",
      "a loop adds the lookup path"),
    R("05-weight-tying", "grad_E",
      "from embedlab import embedding_backward\ngrad_E = x.T.dot(dlogits).T + embedding_backward(ids, dx0, V)\n",
      "the library's embedding_backward, the head path transposed"),
    R("05-weight-tying", "grad_E",
      "head_path = np.einsum('tv,td->vd', dlogits, x)\nlookup_path = np.zeros_like(head_path)\n"
      "np.add.at(lookup_path, ids, dx0)\ngrad_E = head_path + lookup_path\n", "einsum"),
    R("05-weight-tying", "ties",
      "ties = [m for m in candidates if model_shape(load_config(m)).tied][0]\n", "model_shape's tied"),
    R("05-weight-tying", "ties",
      "for name in candidates:\n    if load_config(name).get('tie_word_embeddings'):\n        ties = name\n",
      "a loop"),
    R("05-weight-tying", "state_dict_sum",
      "counts = count_params(load_config(tied_model))\nstate_dict_sum = counts.total + counts.token_embedding\n",
      "the table counted a second time from count_params"),
    R("05-weight-tying", "state_dict_sum",
      "cfg = load_config(tied_model)\nsh = model_shape(cfg)\ntable = sh.vocab_size * sh.hidden_size\n"
      "state_dict_sum = int(count_params(cfg).total) + table\n", "intermediates"),

    # ---------------------------------------------------------------- 06 params vs compute
    R("06-params-vs-compute", "head_flops",
      "head_flops = 2 * (V * d)\n", "weights then 2 per weight"),
    R("06-params-vs-compute", "head_flops",
      "head_flops = int(token_costs(load_config(head_model)).head)\n", "the library's token_costs"),
    R("06-params-vs-compute", "lookup_flops",
      "lookup_flops = 0 * V * d  # a copy, no multiply-add\n", "0 written as a product"),
    R("06-params-vs-compute", "kaplan_n",
      "kaplan_n = counts.non_embedding\n", "ParamCount.non_embedding"),
    R("06-params-vs-compute", "kaplan_n",
      "excluded = counts.token_embedding + counts.position_embedding + counts.lm_head\nkaplan_n = int(counts.total - excluded)\n",
      "intermediate"),
    R("06-params-vs-compute", "head_share_training",
      "keys = T * (T + 1) / 2\nhead = T * c.head\nrest = T * (c.input + c.blocks) + c.attention_per_key * keys\n"
      "head_share_training = head / (head + rest)\n", "float keys, head over head + rest"),
    R("06-params-vs-compute", "head_share_training",
      "total = 0\nfor t in range(1, T + 1):\n    total += c.input + c.blocks + c.head + c.attention_per_key * t\n"
      "head_share_training = T * c.head / total\n", "a loop over the positions"),
    R("06-params-vs-compute", "head_share_prompt",
      "attn = c.attention_per_key * sum(range(1, T + 1))\n"
      "head_share_prompt = c.head / (T * (c.input + c.blocks) + attn + c.head)\n", "sum(range())"),
    R("06-params-vs-compute", "head_share_prompt", "", "answer in its own cell below the given one",
      after=("per_position = c.input + c.blocks\nkeys = T * (T + 1) // 2\n"
             "head_share_prompt = c.head / (T * per_position + c.attention_per_key * keys + c.head)\n",)),
    R("06-params-vs-compute", "flop_rate",
      "C = 6 * N * D\nseconds = GPU_HOURS * 60 * 60\nflop_rate = C / seconds\n", "intermediates"),
    R("06-params-vs-compute", "flop_rate",
      "flop_rate = float(6 * N * D / GPU_HOURS / 3600)\nprint(f'{flop_rate / 1e12:.0f} TFLOP/s')\n",
      "divided twice, printed in TFLOP/s"),
    R("06-params-vs-compute", "active_params",
      "skipped = (n_experts - k) * 3 * d * d_ff\nactive_params = counts.total - skipped * moe_layers\n",
      "per-layer skipped experts"),
    R("06-params-vs-compute", "active_params",
      "expert = 3 * d * d_ff\nactive_params = int(counts.total)\nfor layer in range(moe_layers):\n"
      "    active_params -= (n_experts - k) * expert\n", "a loop subtracting layer by layer"),

    # ---------------------------------------------------------------- 07 memory
    R("07-memory", "weights_gb_4bit",
      "weights_gb_4bit = N / 2 / 1e9\n", "N/2"),
    R("07-memory", "weights_gb_4bit",
      "bits = 4\nweights_gb_4bit = N * bits / 8 / 10**9\n", "bits to bytes"),
    R("07-memory", "adam_parts",
      "weights = 2 * n_params\ngrads = 2 * n_params\nmaster = 4 * n_params\nmoments = 2 * 4 * n_params\n"
      "adam_parts = np.array([weights, grads, master, moments])\n", "one variable per part"),
    R("07-memory", "adam_parts",
      "bytes_each = [2, 2, 4, 8]\nadam_parts = np.array([b * n_params for b in bytes_each], dtype=np.int64)\n",
      "a list comprehension, int64"),
    R("07-memory", "kv_bytes_per_token",
      "size = {'fp32': 4, 'fp16': 2, 'bf16': 2, 'fp8': 1, 'int8': 1}\n"
      "per_layer = 2 * h_kv * head_dim * size[cache_precision]\nkv_bytes_per_token = L * per_layer\n",
      "per layer, then layers"),
    R("07-memory", "kv_bytes_per_token", "", "answer in its own cell, reading the config again",
      after=("nbytes = 4 if cache_precision == 'fp32' else 2 if cache_precision in ('fp16', 'bf16') else 1\n"
             "kv_bytes_per_token = int(2 * config['num_hidden_layers'] * config['num_key_value_heads'] * head_dim * nbytes)\n",)),
    R("07-memory", "gqa_saving_gib",
      "b = {'fp32': 4, 'fp16': 2, 'bf16': 2, 'fp8': 1, 'int8': 1}[cache_precision]\n"
      "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * b * context / 1024**3\n", "the difference factored"),
    R("07-memory", "gqa_saving_gib",
      "b = {'fp32': 4, 'fp16': 2, 'bf16': 2, 'fp8': 1, 'int8': 1}[cache_precision]\n"
      "GiB = 2 ** 30\nper_token_saved = 2 * L * head_dim * b * (h - h_kv)\ngqa_saving_gib = per_token_saved * gqa_context / GiB\n",
      "gqa_context read from the parameters, not the given `context`"),
    R("07-memory", "max_batch",
      "free = memory - weights\nmax_batch = 0\nwhile (max_batch + 1) * per_sequence <= free:\n    max_batch += 1\n",
      "counting up in a loop"),
    R("07-memory", "max_batch",
      "import math\nmax_batch = math.floor((memory - weights) / per_sequence)\n", "math.floor"),

    # ---------------------------------------------------------------- 08 vocabulary size
    R("08-vocabulary-size", "embedding_params",
      "rows, width = V_big, d\nembedding_params = int(rows * width)\n", "renamed"),
    R("08-vocabulary-size", "embedding_share",
      "embedding_share = embedding_params / (embedding_params + rest)\n", "question 1's answer"),
    R("08-vocabulary-size", "embedding_share",
      "total = table + rest\nembedding_share = float(table) / total\n", "intermediate"),
    R("08-vocabulary-size", "extra_head_flops",
      "extra_head_flops = 2 * d * (V_big - V_small)\n", "factored"),
    R("08-vocabulary-size", "extra_head_flops",
      "def head(V):\n    return 2 * d * V\nextra_head_flops = head(V_big) - head(V_small)\n", "a helper"),
    R("08-vocabulary-size", "break_even_r",
      "cost_small = blocks + 2 * d * V_small\ncost_big = blocks + 2 * d * V_big\nbreak_even_r = cost_small / cost_big\n",
      "intermediates"),
    R("08-vocabulary-size", "break_even_r",
      "break_even_r = 1 / ((blocks + 2 * d * V_big) / (blocks + 2 * d * V_small))\n", "inverted ratio"),
    R("08-vocabulary-size", "hindi_single_token_share",
      "singles = 0\nfor w in top_hindi:\n    if len(bpe.encode_word(w)) == 1:\n        singles += 1\n"
      "hindi_single_token_share = singles / n_top\n", "encode_word in a loop, divided by n_top"),
    R("08-vocabulary-size", "hindi_single_token_share",
      "hindi_single_token_share = float(np.mean([bpe.count_tokens(w) == 1 for w in top_hindi]))\n", "np.mean"),
    R("08-vocabulary-size", "hindi_r",
      "def tpw(tok):\n    lengths = np.array([len(tok.encode(' ' + w)) for w in hindi])\n"
      "    counts = np.array(list(hindi.values()))\n    return (lengths * counts).sum() / counts.sum()\n"
      "hindi_r = tpw(cl100k) / tpw(gpt2)\n", "numpy arrays"),

    # ---------------------------------------------------------------- 09 what rows learn
    R("09-what-rows-learn", "n_params",
      "E_params = V * d\nW_params = 2 * d * d\nb_params = d\nU_params = V * d\n"
      "n_params = E_params + W_params + b_params + U_params\n", "one variable per matrix"),
    R("09-what-rows-learn", "n_params",
      "n_params = int(2 * V * d + 2 * d**2 + d)\n", "collected terms, int()"),
    R("09-what-rows-learn", "n_params", "", "V read from the corpus in a cell of its own",
      after=("vocab = make_corpus(n_sentences=n_sentences, seed=corpus_seed).vocab_size\n"
             "n_params = vocab * d * 2 + 2 * d * d + d\n",)),
    R("09-what-rows-learn", "gap", "", "the answer in its own cell below the training cell, pairs in loops",
      after=("from itertools import combinations, product\n"
             "def cos(a, b):\n    return a @ b / (np.linalg.norm(a) * np.linalg.norm(b))\n"
             "inside = [cos(E[i], E[j]) for g in (animals, vehicles) for i, j in combinations(g, 2)]\n"
             "across = [cos(E[i], E[j]) for i, j in product(animals, vehicles)]\n"
             "gap = sum(inside) / len(inside) - sum(across) / len(across)\n",)),
    R("09-what-rows-learn", "gap",
      "from embedlab import cosine_similarity\n"
      "same, diff = [], []\nfor i in animals + vehicles:\n    for j in animals + vehicles:\n"
      "        if i < j:\n            same_group = (i in animals) == (j in animals)\n"
      "            (same if same_group else diff).append(cosine_similarity(E[i], E[j]))\n"
      "gap = float(np.mean(same) - np.mean(diff))\n", "one double loop, embedlab's cosine_similarity"),
    R("09-what-rows-learn", "cos_cat",
      "cos_cat = np.array([E[cat] @ E[j] / np.linalg.norm(E[cat]) / np.linalg.norm(E[j]) for j in animals + vehicles])\n",
      "a list comprehension"),
    R("09-what-rows-learn", "cos_cat", "", "its own cell, normalised table",
      after=("U = E / np.linalg.norm(E, axis=1)[:, None]\ncos_cat = U[animals + vehicles] @ U[cat]\n",)),
    R("09-what-rows-learn", "rotation_changes_cosines",
      "def cosines(M):\n    U = M / np.linalg.norm(M, axis=1, keepdims=True)\n    return U @ U.T\n"
      "rotation_changes_cosines = 'no' if np.allclose(cosines(E), cosines(E @ Q)) else 'yes'\n",
      "found by trying it on the trained E"),
    R("09-what-rows-learn", "rotation_changes_cosines",
      "rotation_changes_cosines = 'No'  # an orthogonal Q keeps dot products and norms\n", "capitalised"),

    # ---------------------------------------------------------------- 10 glitch tokens
    R("10-glitch-tokens", "padding_rows",
      "padding_rows = (-V) % pad_multiple\n", "negative modulo"),
    R("10-glitch-tokens", "padding_rows",
      "from embedlab import padded_size\npadding_rows = padded_size(V, pad_multiple) - V\n", "padded_size"),
    R("10-glitch-tokens", "padding_rows", "", "its own cell, V through model_shape, a loop",
      after=("from embedlab import model_shape\nvocab = model_shape(load_config(vocab_model)).vocab_size\n"
             "padding_rows = 0\nwhile (vocab + padding_rows) % pad_multiple != 0:\n    padding_rows += 1\n",)),
    R("10-glitch-tokens", "invalid_bytes",
      "valid = set()\nfor c in range(0x110000):\n    try:\n        valid |= set(chr(c).encode('utf-8'))\n"
      "    except UnicodeEncodeError:  # the surrogates\n        pass\ninvalid_bytes = 256 - len(valid)\n",
      "encoding every code point, surrogates caught"),
    R("10-glitch-tokens", "invalid_bytes",
      "never = [0xC0, 0xC1] + list(range(0xF5, 0x100))  # RFC 3629\ninvalid_bytes = len(never)\n",
      "counted from RFC 3629 (no parameter involved)"),
    R("10-glitch-tokens", "never_cos", "", "its own cell below the training cell, pairs in a loop",
      after=("from itertools import combinations\nM = run.model.E\nsims = []\n"
             "for i, j in combinations(never, 2):\n"
             "    sims.append(M[i] @ M[j] / (np.linalg.norm(M[i]) * np.linalg.norm(M[j])))\n"
             "never_cos = float(np.mean(sims))\n",)),
    R("10-glitch-tokens", "top7", "", "its own cell, the learner's unused_score, a loop",
      after=("s = unused_score(run.model.E, reference)\nranked = sorted(range(len(s)), key=lambda i: -s[i])\n"
             "top7 = np.array([i for i in ranked if i not in reference][:7], dtype=int)\n",)),
    R("10-glitch-tokens", "top7",
      "scores = unused_score(run.model.E, reference)\nscores[reference] = -np.inf\n"
      "top7 = np.argsort(scores, kind='stable')[::-1][:7]\n",
      "reference rows masked to -inf (ties would order differently; none here)"),
    R("10-glitch-tokens", "partial_tokens",
      "def decodes(b):\n    try:\n        b.decode('utf-8')\n        return True\n    except UnicodeDecodeError:\n        return False\n"
      "partial_tokens = sum(not decodes(b) for b in ordinary)\n", "a helper, sum()"),
    R("10-glitch-tokens", "partial_tokens", "", "its own cell, reading the tokenizer again",
      after=("count = 0\nfor b in load_tokenizer(tokenizer).token_byte_values():\n"
             "    try:\n        b.decode()\n    except UnicodeDecodeError:\n        count += 1\npartial_tokens = count\n",)),

    # ---------------------------------------------------------------- 11 size a model
    R("11-size-a-model", "design",
      "design = None\nfor n_heads in (16, 12, 8, 4, 2, 1):\n    width = n_heads * head_dim\n"
      "    for layers in range(24, 0, -1):\n"
      "        cfg = llama_config(vocab_size=min_vocab_size, d=width, num_layers=layers, num_heads=n_heads,\n"
      "                           num_kv_heads=1, d_ff=4 * width, tied=True)\n"
      "        if not over_budget(cfg, BUDGET):\n            design = cfg\n            break\n"
      "    if design is not None:\n        break\nprint(design)\n",
      "a hand-written search: the widest, then deepest, design that fits"),
    R("11-size-a-model", "design_params",
      "V, d, L = design['vocab_size'], design['hidden_size'], design['num_hidden_layers']\n"
      "h, h_kv, d_ff = design['num_attention_heads'], design['num_key_value_heads'], design['intermediate_size']\n"
      "hd = d // h\nlayer = d * h * hd * 2 + d * h_kv * hd * 2 + 3 * d * d_ff + 2 * d\n"
      "design_params = V * d + L * layer + d + (0 if design['tie_word_embeddings'] else V * d)\n",
      "counted by hand from the design dict"),
    R("11-size-a-model", "design_serving_gb",
      "mem = serving_memory(design, weights=weights, context=context, batch=1, kv=kv)\n"
      "design_serving_gb = (mem['weights'] + mem['kv_cache']) / 1e9\n",
      "the parameters cell's names, weights + cache, 1e9"),
    R("11-size-a-model", "design_train_flops",
      "n_sequences = train_tokens // train_context\n"
      "design_train_flops = n_sequences * training_flops(design, train_context).total\n",
      "the parameters cell's names instead of BUDGET's"),
    R("11-size-a-model", "tightest_budget",
      "fractions = [(count_params(design).total / max_params, 'parameters'),\n"
      "             (design_serving_gb / max_serving_gb, 'memory'),\n"
      "             (design_train_flops / max_train_flops, 'compute')]\n"
      "tightest_budget = max(fractions)[1]\n", "tuples, max, recounted parameters"),
    R("11-size-a-model", "tightest_budget", "", "its own cell, a loop",
      after=("best, tightest_budget = -1.0, None\n"
             "for name, used, cap in [('parameters', design_params, BUDGET.max_params),\n"
             "                        ('memory', design_serving_gb, BUDGET.max_serving_gb),\n"
             "                        ('compute', design_train_flops, BUDGET.max_train_flops)]:\n"
             "    if used / cap > best:\n        best, tightest_budget = used / cap, name\n",)),
    R("11-size-a-model", "other_tying_params",
      "table = design['vocab_size'] * design['hidden_size']\n"
      "other_tying_params = design_params + table if design['tie_word_embeddings'] else design_params - table\n",
      "question 2's answer plus or minus the table"),
    R("11-size-a-model", "other_tying_params",
      "flipped = dict(design)\nflipped['tie_word_embeddings'] = not flipped['tie_word_embeddings']\n"
      "other_tying_params = int(count_params(flipped).total)\n", "a copied dict flipped in place"),

    # ---------------------------------------------------------------- 12 change a vocabulary
    R("12-change-a-vocabulary", "added_params",
      "cfg = load_config(vocab_model)\nnew_rows = max(V, n_tok + n_new)\n"
      "added_params = count_params({**cfg, 'vocab_size': new_rows}).total - count_params(cfg).total\n",
      "count_params on an edited config"),
    R("12-change-a-vocabulary", "added_params", "", "its own cell, calculate both times",
      after=("from embedlab.calculator import calculate\n"
             "grown_rows = V if n_tok + n_new <= V else n_tok + n_new\n"
             "added_params = int(calculate(vocab_model, vocab_size=grown_rows).total\n"
             "                   - calculate(vocab_model, vocab_size=V).total)\n",)),
    R("12-change-a-vocabulary", "padding_rows",
      "rows = max(V, n_tok + n_new)\nrounded = -(-rows // pad_multiple) * pad_multiple\npadding_rows = rounded - n_tok - n_new\n",
      "ceil division by hand"),
    R("12-change-a-vocabulary", "padding_rows",
      "owned = n_tok + n_new\nrows = max(V, owned)\nwhile rows % pad_multiple:\n    rows += 1\npadding_rows = rows - owned\n",
      "a loop"),
    R("12-change-a-vocabulary", "p_new_token", "", "its own cell below the training cell, softmax by hand",
      after=("bigger = resize_tinylm(run.model, n_new, 'mean')\nz = bigger.logits(context)[0]\n"
             "p = np.exp(z - z.max())\np = p / p.sum()\np_new_token = float(p[corpus.vocab_size])\n",)),
    R("12-change-a-vocabulary", "kl_mean", "", "its own cell, KL by hand",
      after=("new_model = resize_tinylm(run.model, n_new, 'mean')\n"
             "lp_old = log_softmax(run.model.logits(contexts))\nlp_new = log_softmax(new_model.logits(contexts))\n"
             "V_old = lp_old.shape[1]\nkl = (np.exp(lp_old) * (lp_old - lp_new[:, :V_old])).sum(axis=1)\n"
             "kl_mean = float(kl.mean())\n",)),
    R("12-change-a-vocabulary", "trimmed_rows",
      "keep = set(used)\nkeep.update(range(256))\nkeep.add(tok.eot_token)\ntrimmed_rows = len(keep)\n",
      "a set updated in place"),
    R("12-change-a-vocabulary", "trimmed_rows",
      "trimmed_rows = len(set(used).union(range(256), [tok.eot_token]))\n", "set.union"),
    R("12-change-a-vocabulary", "saved_params",
      "removed_rows = tok.n_vocab - n_keep\nmatrices = 1 if trim_tied else 2\nsaved_params = removed_rows * d_trim * matrices\n",
      "intermediates"),
    R("12-change-a-vocabulary", "saved_params",
      "saved_params = (tok.n_vocab - n_keep) * d_trim\nif not trim_tied:\n    saved_params *= 2\n", "in-place doubling"),
    R("12-change-a-vocabulary", "coverage",
      "kept = used | set(range(256)) | {tok.eot_token}\ncovered = total = 0.0\n"
      "for w in next_words:\n    f = frequencies[w]\n    total += f\n"
      "    if all(i in kept for i in tok.encode_ordinary(' ' + w)):\n        covered += f\ncoverage = covered / total\n",
      "a loop with running sums"),
    R("12-change-a-vocabulary", "coverage", "", "its own cell, a helper",
      after=("keep = set(used) | set(range(256)) | {tok.eot_token}\n"
             "def ok(word):\n    return set(tok.encode_ordinary(' ' + word)).issubset(keep)\n"
             "coverage = sum(frequencies[w] for w in next_words if ok(w)) / sum(frequencies[w] for w in next_words)\n",)),

    # ---------------------------------------------------------------- second round: harder shapes
    R("01-toy-table", "n_params", "n_params = len(traits) * len(features)\n",
      "traits has one entry per word of `words`: rows counted through it"),
    R("01-toy-table", "n_params", "n_params = np.prod(E.shape)\n",
      "np.prod of question 1's table: an np.int64, not converted to int (borderline: the question says int)"),
    R("01-toy-table", "model_table", "model_table = table_size(model)\n",
      "a helper defined in a cell above, reading the config of its argument",
      before=("def table_size(name):\n    s = model_shape(load_config(name))\n    return s.vocab_size * s.hidden_size\n",)),
    R("01-toy-table", "extra_dim_cost", "extra_dim_cost = extra_rows_cost()\n",
      "a helper defined above that reads the parameters `model` and `extra_features` as globals",
      before=("def extra_rows_cost():\n    s = model_shape(load_config(model))\n    return s.vocab_size * extra_features\n",)),
    R("02-lookup-vs-matmul", "updated_rows",
      "updated_rows = np.arange(batch_V)[np.isin(np.arange(batch_V), batch)]\n",
      "the rows of the vocabulary (batch_V of them) that occur in the batch"),
    R("02-lookup-vs-matmul", "updated_rows",
      "updated_rows = np.flatnonzero(np.bincount(np.ravel(batch), minlength=batch_V))\n",
      "bincount over the vocabulary, nonzero counts"),
    R("02-lookup-vs-matmul", "rows_matmul", "rows_matmul = one_hot(ids, table_V) @ E\n",
      "the learner's one_hot (float64) times the float32 E: float64 result, same values"),
    R("02-lookup-vs-matmul", "rows_lookup",
      "table = np.random.default_rng(table_seed).standard_normal((table_V, table_d)).astype(np.float32)\n"
      "rows_lookup = table[np.array(ids)]\n",
      "given lines deleted and retyped under another name", whole=True),
    R("03-counting-gpt2", "linear_params", "linear_params = linear_in * linear_out + linear_out\n",
      "converted to int in a cell of its own below the answer cell",
      after=("linear_params = int(linear_params)\nprint(linear_params)\n",)),
    R("03-counting-gpt2", "embedding_share", "embedding_share = share_of_table()\n",
      "a helper defined above, reading the parameter share_model as a global",
      before=("def share_of_table():\n    c = count_params(load_config(share_model))\n    return c.token_embedding / c.total\n",)),
    R("03-counting-gpt2", "block_params",
      "from embedlab import load_config, model_shape\ncfg = load_config(block_model)\nwidth = model_shape(cfg).hidden_size\n"
      "block_params = 12 * width * width + 13 * width\n",
      "given lines deleted, the width read under another name", whole=True),
    R("04-modern-blocks", "padding_params",
      "V_padded = -(-V // pad_multiple) * pad_multiple\n",
      "an intermediate in the answer cell, the answer line in a cell below",
      after=("padding_params = (V_padded - V) * d\n",)),
    R("04-modern-blocks", "attn_layer", "attn_layer = attention_params(d, h, h_kv, head_dim)\n",
      "a helper defined in a cell above, called with the given names",
      before=("def attention_params(d, h, h_kv, head_dim):\n    return 2 * d * h * head_dim + 2 * d * h_kv * head_dim\n",)),
    R("05-weight-tying", "grad_E",
      "grad_E = np.zeros((toy_V, toy_d))\nnp.add.at(grad_E, token_ids, dx0)\ngrad_E += dlogits.T @ x\n",
      "the parameters' own names toy_V, toy_d, token_ids for the given V, d, ids"),
    R("05-weight-tying", "tied_count", "tied_count = untied - table_of(untied_model)\n",
      "a helper defined above",
      before=("def table_of(name):\n    s = model_shape(load_config(name))\n    return s.vocab_size * s.hidden_size\n",)),
    R("06-params-vs-compute", "head_share_prompt",
      "head_share_prompt = c.head / (total - T * c.head + c.head)\n",
      "reads `total` of question 4's cell (the same model and T): the training total less T-1 heads"),
    R("06-params-vs-compute", "head_share_prompt",
      "head_share_prompt = c.head / (T * c.head / head_share_training - (T - 1) * c.head)\n",
      "from question 4's answer: its total is T*c.head/share"),
    R("06-params-vs-compute", "flop_rate", "flop_rate = rate(N)\n",
      "a helper defined above, reading D and GPU_HOURS as globals",
      before=("def rate(n_params):\n    return 6 * n_params * D / (GPU_HOURS * 3600)\n",)),
    R("06-params-vs-compute", "kaplan_n",
      "c_all = count_params(load_config(model))\nkaplan_n = c_all.total - c_all.token_embedding - c_all.position_embedding - c_all.lm_head\n",
      "given line deleted, counted again under another name", whole=True),
    R("07-memory", "weights_gb_4bit", "", "the answer in its own cell",
      after=("half_bytes = 0.5\nweights_gb_4bit = N * half_bytes / 1e9\nprint(f'{weights_gb_4bit:.2f} GB')\n",)),
    R("07-memory", "max_batch", "max_batch = fit(memory, weights, per_sequence)\n",
      "a helper defined above",
      before=("def fit(memory, weights, per_sequence):\n    n = int((memory - weights) // per_sequence)\n    return max(n, 0)\n",)),
    R("07-memory", "adam_parts",
      "adam_parts = np.full(4, n_params, dtype=np.int64)\nadam_parts *= np.array([2, 2, 4, 8])\n",
      "in-place multiply of the learner's own array"),
    R("08-vocabulary-size", "break_even_r",
      "break_even_r = (blocks + 2 * d * V_small) / (blocks + 2 * d * V_small + extra_head_flops)\n",
      "question 3's answer reused"),
    R("08-vocabulary-size", "extra_head_flops", "extra_head_flops = head(V_big) - head(V_small)\n",
      "a helper defined above, reading the parameter d as a global",
      before=("def head(V):\n    return 2 * d * V\n",)),
    R("09-what-rows-learn", "n_params", "n_params = count(V)\n",
      "a helper defined above, reading d as a global",
      before=("def count(vocab):\n    return 2 * vocab * d + 2 * d * d + d\n",)),
    R("10-glitch-tokens", "never_cos", "", "its own cell; pairs counted from n_reserved",
      after=("M = run.model.E[never]\nU = M / np.linalg.norm(M, axis=1, keepdims=True)\nC = U @ U.T\n"
             "n = n_reserved + 1  # the glitch word and the reserved rows\n"
             "never_cos = (C.sum() - np.trace(C)) / 2 / (n * (n - 1) / 2)\n",)),
    R("10-glitch-tokens", "padding_rows", "padding_rows = pad_of(V)\n",
      "a helper defined above, reading pad_multiple as a global",
      before=("def pad_of(rows):\n    return (pad_multiple - rows % pad_multiple) % pad_multiple\n",)),
    R("12-change-a-vocabulary", "padding_rows",
      "padding_rows = padded_size(rows, pad_multiple) - (n_tok + n_new)\n",
      "reads `rows` of question 1's cell (the same max(V, T + n_new))", alone=True),
    R("12-change-a-vocabulary", "saved_params", "saved_params = saving(n_keep)\n",
      "a helper defined above, reading tok, d_trim, trim_tied as globals",
      before=("def saving(keep):\n    per_row = d_trim if trim_tied else 2 * d_trim\n    return (tok.n_vocab - keep) * per_row\n",)),

    # ---------------------------------------------------------------- third round: the kinds found
    R("01-toy-table", "n_params",
      "assert len(traits) == len(words), (words, list(traits))  # one entry per word\n"
      "n_params = len(words) * len(features)\n",
      "the solution's line, after an assert that traits has one entry per word (it shows the variant)"),
    R("02-lookup-vs-matmul", "updated_rows",
      "assert np.max(batch) < batch_V, (batch, batch_V)  # ids of a vocabulary of batch_V tokens\n"
      "updated_rows = np.unique(batch)\n",
      "the solution's line, after an assert that the ids are below batch_V (it shows the variant)"),
    R("02-lookup-vs-matmul", "updated_rows",
      "updated_rows = np.array([v for v in range(batch_V) if v in np.ravel(batch)])\n",
      "every id of the vocabulary that the batch holds"),
    R("01-toy-table", "E", "E = np.array([[int(f in traits[w]) for f in features] for w in words])\n",
      "converted again in a cell of its own below",
      after=("E = E.astype(int)\nprint(E)\n",)),
    R("06-params-vs-compute", "head_share_training",
      "attention = c.attention_per_key * T * (T + 1) // 2\ntotal = T * (c.input + c.blocks + c.head) + attention\n"
      "head_share_training = T * c.head / total\n",
      "converted to float in a cell of its own below", after=("head_share_training = float(head_share_training)\n",)),
    R("06-params-vs-compute", "active_params", "active_params = counts.total\n",
      "started in the answer cell, the skipped experts taken away in a cell below (in place)",
      after=("active_params -= moe_layers * (n_experts - k) * 3 * d * d_ff\n",)),
    R("07-memory", "adam_parts", "adam_parts = [2 * n_params, 2 * n_params, 4 * n_params, 8 * n_params]\n",
      "a list first, made an array in a cell below",
      after=("adam_parts = np.array(adam_parts)\n",)),
    R("08-vocabulary-size", "embedding_params", "embedding_params = V_big * d\n",
      "printed and made an int again in a cell below",
      after=("embedding_params = int(embedding_params)\nprint(f'{embedding_params:,}')\n",)),
    R("12-change-a-vocabulary", "coverage",
      "kept = used | set(range(256)) | {tok.eot_token}\n"
      "coverage = sum(frequencies[w] for w in next_words if set(tok.encode_ordinary(' ' + w)) <= kept)\n",
      "the covered frequency first, divided by the total in a cell below",
      after=("coverage /= sum(frequencies[w] for w in next_words)\n",)),
    R("10-glitch-tokens", "partial_tokens", "partial_tokens = [b for b in ordinary]\n",
      "the list of tokens first, filtered and counted in a cell below",
      after=("def bad(b):\n    try:\n        b.decode('utf-8')\n    except UnicodeDecodeError:\n        return True\n    return False\n"
             "partial_tokens = len([b for b in partial_tokens if bad(b)])\n",)),
    R("03-counting-gpt2", "interview", "interview = interview_V * interview_d\n",
      "checked by an assert in a cell below that names the answer (it does not define it)",
      after=("assert interview == interview_V * interview_d  # tied: the head adds nothing\n",)),
    R("04-modern-blocks", "mlp_layer", "mlp_layer = 3 * d * d_ff\n",
      "the answer renamed in a cell below (the learner first typed another name)",
      after=("mlp = mlp_layer\nmlp_layer = mlp\n",)),

    R("03-counting-gpt2", "embedding_share", "embedding_share = my_share\n",
      "computed in a scratch cell above, assigned in the answer cell",
      before=("cnt = count_params(load_config(share_model))\nmy_share = cnt.token_embedding / cnt.total\nprint(my_share)\n",)),
    R("08-vocabulary-size", "break_even_r", "break_even_r = r\n",
      "computed in a scratch cell above, assigned in the answer cell",
      before=("small = blocks + 2 * d * V_small\nbig = blocks + 2 * d * V_big\nr = small / big\n",)),
    R("01-toy-table", "extra_dim_cost", "extra_dim_cost = V * extra_features\n",
      "V, d read in a cell of the learner's own above",
      before=("V = model_shape(load_config(model)).vocab_size\nd = model_shape(load_config(model)).hidden_size\n",)),
    R("05-weight-tying", "ties", "ties = tied_ones[0]\n",
      "a scratch cell above lists the candidates that tie",
      before=("tied_ones = [m for m in candidates if load_config(m)['tie_word_embeddings']]\nprint(tied_ones)\n",)),

    R("10-glitch-tokens", "invalid_bytes",
      "%%time\nseen = set()\nfor c in range(0x110000):\n    if not 0xD800 <= c <= 0xDFFF:\n        seen.update(chr(c).encode('utf-8'))\n"
      "invalid_bytes = 256 - len(seen)\n",
      "the solution's loop timed with the %%time cell magic (the loop takes a second or so)", whole=True),
    R("03-counting-gpt2", "linear_params", "%time linear_params = linear_in * linear_out + linear_out\n",
      "the answer line timed with the %time line magic"),
    R("08-vocabulary-size", "embedding_share", "table = V_big * d\n",
      "answered in a cell of its own ABOVE the answer cell (the answer cell keeps only its given line)",
      whole=True, before=("embedding_share = V_big * d / (V_big * d + rest)\n",)),
    R("06-params-vs-compute", "head_share_prompt", "c = token_costs(load_config(share_model))\n# answered with question 4, above\n",
      "both shares computed in question 4's cell (an entry of its own there: 'alone' keeps Q4's solution)",
      whole=True, alone=True,
      before=("attention = c.attention_per_key * T * (T + 1) // 2\n"
              "head_share_prompt = c.head / (T * (c.input + c.blocks) + attention + c.head)\n",)),

    R("11-size-a-model", "design",
      "width = 8 * head_dim\n"
      "def make(n_layers):\n    return llama_config(vocab_size=min_vocab_size, d=width, num_layers=n_layers, num_heads=8,\n"
      "                        num_kv_heads=2, d_ff=3 * width, tied=True)\n"
      "depth = deepest_fit(make, BUDGET).layers\ndesign = make(depth)\nassert over_budget(design, BUDGET) == []\n",
      "deepest_fit at 8 heads, d_ff = 3d, a helper making the config"),
    R("11-size-a-model", "design_serving_gb",
      "from embedlab import weight_bytes, kv_cache_bytes\n"
      "design_serving_gb = (weight_bytes(design, weights) + kv_cache_bytes(design, context, 1, kv)) / GB\n",
      "weights and cache from the library's two calculators"),
]
