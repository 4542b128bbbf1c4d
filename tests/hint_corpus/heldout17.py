"""Held-out corpus 17: plausible wrong answers to the 12 exercises, written blind to the hints.

Lab notebook
------------
Who: helper "blind17" (brief /work/notes/s7/brief_blind17.md), branch blind17, worktree /work/wt-blind17.
When: started 2026-12-07 18:06 UTC (`date -u`), entries verified 18:17 UTC, committed shortly after.

What I read: /work/notes/RULES.md and my brief; tests/hint_corpus/__init__.py (the Wrong record) and
tests/hint_corpus/check_wrong.py (how entries run); every exercises/*.ipynb (markdown and code: the
question texts, parameters and the given lines of each answer cell); the answer cells of every
solutions/*.ipynb (the cell above each `ex.check`); the public API by calling it: the docstring and
source of embedlab.resize.resize_tinylm and resize.INITS, the keys of serving_memory's result, the
attribute names of count_params's result, and the tie_word_embeddings of the three candidates of
exercise 05. I did not read the lesson notebooks (notebooks/*.ipynb) nor /work/shared/COURSE.md
(no time spent there; the exercises' own texts were enough).

What I never opened, listed, grepped, imported or ran: lib/embedlab/grading/ (any file),
lib/embedlab/grade.py, tests/test_*.py, any file of tests/hint_corpus/ other than __init__.py and
check_wrong.py (the folder was never listed), the `issues` command, git log/show of other commits,
/work/notes/* other than RULES.md and my brief. I never called ex.check, the grader or
embedlab-grade and never printed a hint. The only test run was the brief's check_wrong command.
Slips: one, after the entries were final. To confirm my commit I ran `git log --oneline -3` on
my branch, which also printed the subject lines of main's two commits below mine (45fb774, already
shown by `git worktree add`, and f6e69b7: a test helper, grade_by_learner, for the kernel-and-grader
tests). No hint text or grading logic was in them, and no entry was written or changed after.

Counts: 309 entries, every question of every exercise at least once (a script compared the
(lesson, name) pairs with the solutions' check cells: none missing, lesson 11's design and defence
included). Per lesson: 01: 24, 02: 27, 03: 26, 04: 21, 05: 19, 06: 33, 07: 26, 08: 29, 09: 24,
10: 24, 11: 26, 12: 30. Styles: S 78, M 70, H 82, A 79. HARD: 74 (24 %): 65 entries that make two
mistakes at once (the last block of the file, which also holds two single-mistake entries) and 9 whose value coincides with something on the
book's inputs: gpt2_params with T hard-coded to 1024 and forward_flops_per_token with a 4d MLP
(right on every released size, wrong on the random ones), count_unique deduplicating only the first
storage (right on the question's own example), bpe_merges numbering merge k as 257 + k (right
whenever one merge is asked), 12 added_params padded first (equals lesson 04's padding_params,
47·768), the defence with hand-typed figures (its V × d, 32,768,000, is the book design's), and
three two-mistake singles written earlier (block_params without LayerNorms and the output bias, the
over-deep untied design, top7 from argsort's tail). At first I had marked 45 single mistakes HARD
as "subtle"; on rereading the brief's definition I set them False.

check_wrong (cd tests && nice ../.venv/bin/python -m hint_corpus.check_wrong heldout17 --same):
final run "problems: 0", no "same value" line.

Dropped or rewritten while verifying:
- run 1 (242 entries): problems 2. tightest_budget = "compute" was right for the book's design
  (rewritten to "memory"); kl_mean with the arguments swapped raised (the grown model has
  n_new more columns, so the swapped call cannot run; replaced by a KL converted to bits). Four
  same-value pairs: cos_pair (pair[0] with itself and the raw dot product are both 1.0 for horse and
  dog: the first rewritten to hard-coded ids 2 and 3); block_params (LayerNorms without biases and
  one LayerNorm both give 12d² + 11d: the second rewritten); kaplan_n (total − lm_head equals
  total − token table for the untied Llama-3-8B, which has no position table: rewritten to billions);
  12 padding_rows (padded_size(V) − V and padded_size(n_tok + n_new) − V are both 47: rewritten).
- run 3 (310 entries, after the two-mistake block): three same-value pairs. A grad_E entry
  whose code was the hurried one's in other clothes: dropped. top7 ascending with the reference
  rows kept equals ascending without them (the reference rows score highest): rewritten to a
  slice that assumes the reference rows rank first. 12 padding_rows padded_size(V) equals the
  padded size of the resized table (both 50304): rewritten.
- Not written at all, because they are right on the book's inputs or equal under check_wrong's
  comparison: a boolean table E (same values); the matmul in float64 (same values); d // h for
  Llama 3.2 1B (equals head_dim); 2·token_embedding for an untied vocab_share (the head has the
  same size); 12 added_params = n_new·d (GPT-2's V equals n_tok, so the table grows); the
  "pad_multiple − V % pad_multiple" padding (right unless V is a multiple); a BPE over characters
  (the test words are ASCII); the mean of the two groups' means in gap (8 and 8 words: equal
  weights); the probability of the last new token (all new rows equal); D / T_train as a float
  (exact division); other_tying_params = design_params + V·d (right on the book's tied design).
"""
from hint_corpus import Wrong

_ROWS = []


def W(lesson, name, style, hard, source, mistake, words, wrong_words=()):
    _ROWS.append((Wrong(lesson, name, source, mistake, tuple(words), tuple(wrong_words)), style, hard))


L1, L2, L3, L4, L5, L6 = ("01-toy-table", "02-lookup-vs-matmul", "03-counting-gpt2", "04-modern-blocks",
                          "05-weight-tying", "06-params-vs-compute")
L7, L8, L9, L10, L11, L12 = ("07-memory", "08-vocabulary-size", "09-what-rows-learn", "10-glitch-tokens",
                             "11-size-a-model", "12-change-a-vocabulary")

# ----------------------------------------------------------------------------- 01 toy table
W(L1, "E", "M", False,
  "E = np.array([[int(f in traits[w]) for w in words] for f in features])",
  "Builds the table with one row per feature and one column per word: the transpose.",
  ("transpose", "one row per word", "rows and columns", "shape"), ("order of the words", "sorted"))
W(L1, "E", "S", False,
  "feats = sorted(features)   # like a one-hot encoder's sorted columns\n"
  "E = np.array([[int(f in traits[w]) for f in feats] for w in words])",
  "Orders the feature columns alphabetically (as an encoder would) instead of in the order of `features`.",
  ("column order", "order of the features", "features, in that order", "sorted", "alphabetical"),
  ("transpose", "order of the words"))
W(L1, "E", "H", False,
  "E = np.array([[int(f in traits[w]) for f in features] for w in sorted(words)])",
  "Iterates over the words sorted, so the row ids no longer follow the order of `words`.",
  ("row order", "order of the words", "words, in that order", "sorted", "ids"), ("transpose", "column"))
W(L1, "n_params", "S", False,
  "n_params = int(np.count_nonzero(E))",
  "Counts only the nonzero entries (the 1s) instead of every number in the table.",
  ("every entry", "every number", "zeros", "nonzero", "all entries", "rows times columns"), ("bias",))
W(L1, "n_params", "M", False,
  "n_params = len(words) + len(features)",
  "Adds the two dimensions of the table instead of multiplying them.",
  ("multiply", "product", "times", "rows times columns", "V × d", "V·d"), ("bias", "nonzero"))
W(L1, "n_params", "A", False,
  "n_params = len(words) * len(features) + len(features)   # weights + a bias per output",
  "Treats the table as a linear layer and adds a bias per feature; a lookup table has no bias.",
  ("bias", "no bias", "only the table"), ("nonzero", "add the two"))
W(L1, "batch", "H", False,
  "batch = table[[word_to_id[w] for w in pair]]",
  "Looks up the words of `pair` (a later question's input) instead of `sentence`.",
  ("sentence", "one row per word of the sentence"), ("unique", "duplicate"))
W(L1, "batch", "S", False,
  "batch = table[[word_to_id[w] for w in dict.fromkeys(sentence)]]",
  "Drops the repeated word (deduplicates like drop_duplicates), so 'horse' appears once instead of twice.",
  ("repeat", "duplicate", "twice", "every word", "one row per word"), ("pair",))
W(L1, "batch", "M", False,
  "batch = table[[sentence.index(w) for w in sentence]]",
  "Uses each word's position in the sentence as its id instead of its id in `words`.",
  ("word_to_id", "id", "position", "index in words"), ("duplicate", "pair"))
W(L1, "cosine", "S", False,
  "def cosine(a, b):\n    return float(np.corrcoef(a, b)[0, 1])",
  "Computes Pearson's correlation, which centres the vectors on their means, instead of the cosine.",
  ("centre", "center", "mean", "correlation", "pearson"), ("square root", "squared"))
W(L1, "cosine", "M", False,
  "def cosine(a, b):\n    return float(a @ b / ((a @ a) * (b @ b)))",
  "Divides by the squared norms instead of the norms (forgets the square roots).",
  ("square root", "sqrt", "squared", "norm", "length"), ("centre", "center", "correlation"))
W(L1, "cosine", "A", False,
  "def cosine(a, b):\n    # cosine distance, as scipy.spatial.distance.cosine returns it\n"
  "    return float(1 - a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))",
  "Returns the cosine distance 1 - cos (scipy's `cosine`), not the similarity.",
  ("distance", "1 -", "one minus", "similarity"), ("square root", "correlation"))
W(L1, "cos_pair", "H", False,
  "cos_pair = cosine_similarity(table[2], table[3])   # horse and dog",
  "Hard-codes the ids from a glance at `words`, taking 3 (car) for dog instead of looking the ids up.",
  ("id", "word_to_id", "dog", "hard-code", "look up"), ("normalis", "normaliz"))
W(L1, "cos_pair", "M", False,
  "cos_pair = float(table[word_to_id[pair[0]]] @ table[word_to_id[pair[1]]])",
  "Takes the dot product of the two rows without dividing by their norms.",
  ("norm", "normalis", "normaliz", "length", "dot product", "divide"), ("pair[1]", "itself"))
W(L1, "model_table", "A", False,
  "model_table = 50_000 * 768   # GPT-2 small: 50k tokens, 768 wide",
  "Types GPT-2's vocabulary as a round 50,000 from memory instead of reading vocab_size (50,257) from the config.",
  ("vocab_size", "config", "50257", "50,257", "load_config", "model_shape"), ("position",))
W(L1, "model_table", "M", False,
  "shape = model_shape(load_config(model))\n"
  "model_table = shape.vocab_size * shape.hidden_size + 1024 * shape.hidden_size",
  "Adds GPT-2's position table (1024 × d) to the token table.",
  ("position", "token table only", "only the token"), ("50,000", "round"))
W(L1, "extra_dim_cost", "H", False,
  "shape = model_shape(load_config(model))\nV, d = shape.vocab_size, shape.hidden_size\n"
  "extra_dim_cost = V * (d + extra_features)",
  "Gives the size of the whole widened table instead of what it gains (forgets to subtract V·d).",
  ("gain", "difference", "subtract", "minus", "more", "extra"), ("twice", "head"))
W(L1, "extra_dim_cost", "A", False,
  "shape = model_shape(load_config(model))\n"
  "extra_dim_cost = 2 * shape.vocab_size * extra_features   # table and output head",
  "Counts the growth twice, for the table and the tied head, though the question asks about the token table.",
  ("token table", "only the table", "tied", "once", "twice"), ("subtract", "whole table"))
W(L1, "extra_dim_cost", "S", False,
  "shape = model_shape(load_config(model))\n"
  "extra_dim_cost = extra_features * shape.hidden_size",
  "Multiplies the extra features by the width d instead of by the number of rows V.",
  ("V", "vocab", "every token", "rows", "each row"), ("twice", "subtract"))

# ----------------------------------------------------------------------------- 02 lookup vs matmul
W(L2, "one_hot", "S", False,
  "def one_hot(ids, V):\n    cats = np.unique(ids)   # like pd.get_dummies: one column per seen id\n"
  "    return np.eye(len(cats))[np.searchsorted(cats, ids)]",
  "Makes one column per id that occurs (get_dummies) instead of V columns.",
  ("V columns", "shape", "(len(ids), V)", "every id", "unused", "missing"), ("transpose",))
W(L2, "one_hot", "M", False,
  "def one_hot(ids, V):\n    return np.eye(V)[ids].T",
  "Returns the transpose, shape (V, len(ids)), columns as one-hot vectors as in a maths text.",
  ("transpose", "shape", "(len(ids), V)", "row t"), ("get_dummies", "unique"))
W(L2, "one_hot", "H", False,
  "def one_hot(ids, V):\n    return np.eye(V)[:len(ids)]",
  "Takes the first len(ids) rows of the identity, ignoring which ids were given.",
  ("ids[t]", "ids", "column ids", "which id"), ("transpose",))
W(L2, "rows_lookup", "H", False,
  "rows_lookup = E[np.unique(ids)]",
  "Looks up each distinct id once, sorted, instead of one row per id in order.",
  ("repeat", "duplicate", "unique", "order", "one row per id"), ("mean", "average"))
W(L2, "rows_lookup", "S", False,
  "rows_lookup = E[ids].mean(axis=0)",
  "Averages the looked-up rows (a pooled vector) instead of keeping one row per id.",
  ("mean", "average", "pool", "one row per id", "shape"), ("unique",))
W(L2, "rows_matmul", "M", False,
  "rows_matmul = E.T @ np.eye(table_V, dtype=np.float32)[ids].T",
  "Computes the product in column convention, E^T·onehot^T, which gives the transposed rows (d × n).",
  ("transpose", "shape", "one row per id"), ("seed", "float16"))
W(L2, "rows_matmul", "A", False,
  "rows_matmul = np.eye(table_V, dtype=np.float16)[ids] @ E.astype(np.float16)   # half precision is faster",
  "Casts the table to float16 for speed, which rounds its values.",
  ("float16", "precision", "dtype", "float32", "round"), ("transpose", "seed"))
W(L2, "rows_matmul", "H", False,
  "rows_matmul = np.eye(table_V, dtype=np.float32)[ids] @ np.random.default_rng(0).standard_normal(\n"
  "    (table_V, table_d)).astype(np.float32)",
  "Redraws the table with seed 0 (typed from an earlier cell) instead of `table_seed`, so it multiplies another table.",
  ("seed", "table_seed", "another table", "same E", "the given E"), ("transpose", "float16"))
W(L2, "keeps_sign", "A", False,
  "keeps_sign = \"both\"   # a one-hot product reproduces the row exactly",
  "Believes the matmul reproduces -0.0, but -0.0·1 + 0·2.0 + 0·4.0 sums to +0.0.",
  ("+0.0", "adds", "sum", "0.0 +", "signbit", "lookup"), ())
W(L2, "keeps_sign", "M", False,
  "keeps_sign = \"matmul\"",
  "Gets it backwards: the lookup copies the entry with its sign, the matmul's sum loses it.",
  ("copies", "copy", "lookup", "sum", "adds"), ())
W(L2, "embedding_backward", "S", False,
  "def embedding_backward(ids, grad_out, V):\n    g = np.zeros((V, grad_out.shape[1]))\n"
  "    g[ids] += grad_out\n    return g",
  "Uses fancy-index `+=`, which is buffered: a repeated id keeps one contribution instead of their sum.",
  ("add.at", "repeat", "buffered", "accumulate", "twice", "sum"), ("transpose", "mean"))
W(L2, "embedding_backward", "M", False,
  "def embedding_backward(ids, grad_out, V):\n    return grad_out.T @ np.eye(V)[ids]",
  "Writes dE = g^T·onehot, which is (d, V): the transpose of the gradient.",
  ("transpose", "shape", "(V, d)"), ("add.at", "buffered"))
W(L2, "embedding_backward", "S", False,
  "def embedding_backward(ids, grad_out, V):\n    g = np.zeros((V, grad_out.shape[1]))\n"
  "    np.add.at(g, ids, grad_out)\n    n = np.bincount(ids, minlength=V)\n"
  "    return g / np.maximum(n, 1)[:, None]",
  "Averages the contributions of a repeated id instead of summing them.",
  ("sum", "mean", "average", "divide"), ("buffered", "transpose"))
W(L2, "updated_rows", "S", False,
  "updated_rows = np.unique(np.array(batch)[:, :-1])   # the last column is the target",
  "Drops each sequence's last id as if it were only a target, though every id is looked up.",
  ("every id", "target", "last", "input position"), ("tied", "every row"))
W(L2, "updated_rows", "A", False,
  "updated_rows = np.arange(batch_V)   # the softmax touches every row",
  "Answers every row, as for a tied table; this table is untied and only looked up.",
  ("untied", "tied", "only looked up", "every row", "looked up"), ("target", "last"))
W(L2, "updated_rows", "H", False,
  "updated_rows = np.unique(ids)",
  "Uses `ids` of question 2 instead of `batch`.",
  ("batch", "the batch"), ("tied", "target"))
W(L2, "batch_flops", "M", False,
  "batch_flops = V * d * n_tokens",
  "Counts one FLOP per multiply-add instead of two.",
  ("2", "two", "multiply-add", "multiply and add", "FLOPs per"), ("zeros", "nonzero"))
W(L2, "batch_flops", "M", False,
  "batch_flops = (2 * V - 1) * d * n_tokens   # V products and V - 1 sums per output",
  "Counts the exact additions (V - 1 per dot product) instead of the lesson's 2 FLOPs per weight.",
  ("2·V·d", "2 FLOPs per", "convention", "per weight", "2 * V * d"), ("zeros",))
W(L2, "batch_flops", "A", False,
  "batch_flops = 2 * d * n_tokens   # only the nonzero entry of each one-hot row matters",
  "Counts only the one nonzero product per row; a dense matmul multiplies all V entries, zeros included.",
  ("zeros", "whole", "dense", "every entry", "V"), ("multiply-add",))
W(L2, "one_hot_batch_bytes", "A", False,
  "one_hot_batch_bytes = n_tokens * V * 8   # numpy's default float64",
  "Uses 8 bytes per number (float64) instead of the itemsize of `precision`.",
  ("float32", "precision", "4 bytes", "itemsize", "dtype"), ("MB", "d"))
W(L2, "one_hot_batch_bytes", "M", False,
  "one_hot_batch_bytes = n_tokens * V * d * np.dtype(precision).itemsize",
  "Multiplies in the width d: the one-hot matrix is n_tokens × V.",
  ("n_tokens × V", "one-hot", "not d", "shape", "width"), ("float64",))
W(L2, "one_hot_batch_bytes", "S", False,
  "one_hot_batch_bytes = n_tokens * V * np.dtype(precision).itemsize / 2**20   # MiB",
  "Reports MiB instead of bytes.",
  ("bytes", "MiB", "MB", "unit", "int"), ("float64", "d"))

# ----------------------------------------------------------------------------- 03 counting GPT-2
W(L3, "linear_params", "M", False,
  "linear_params = linear_in * linear_out + linear_in",
  "Gives the bias one entry per input feature instead of one per output.",
  ("bias", "output", "linear_out"), ("no bias",))
W(L3, "linear_params", "S", False,
  "linear_params = linear_in * linear_out",
  "Leaves the bias out.",
  ("bias",), ("input",))
W(L3, "linear_params", "A", False,
  "linear_params = (linear_in + 1) * (linear_out + 1)",
  "Augments both sides with a constant 1, adding one row and one column too many.",
  ("bias", "output", "only the output"), ())
W(L3, "block_params", "A", False,
  "block_params = 12 * d * d + 13 * d - 2 * d   # LayerNorms have a scale only",
  "Leaves out the LayerNorm biases (treats them like RMSNorm), but GPT-2's LayerNorms have a weight and a bias.",
  ("layernorm", "bias", "beta", "2·d", "weight and bias"), ("mlp",))
W(L3, "block_params", "M", False,
  "block_params = 12 * d**2",
  "Uses the rule of thumb 12·d², leaving out every bias and LayerNorm.",
  ("bias", "layernorm", "exact", "12"), ())
W(L3, "block_params", "H", False,
  "block_params = ((d * 3 * d + 3 * d) + (d * d + d) + 2 * (d * 4 * d + 4 * d) + 2 * (2 * d))",
  "Copies the first MLP layer for the second, so its bias is 4d wide instead of d.",
  ("second", "bias", "4d → d", "output", "d, not 4d"), ("layernorm",))
W(L3, "block_params", "S", True,
  "block_params = ((d * 3 * d + 3 * d) + (d * d) + (d * 4 * d + 4 * d) + (4 * d * d + d))",
  "Leaves out both LayerNorms and the attention output projection's bias.",
  ("layernorm", "bias", "two layernorm", "output projection"), ("mlp's second",))
W(L3, "interview", "M", False,
  "interview = 2 * interview_V * interview_d",
  "Counts the tied table twice, as table and head.",
  ("tied", "once", "shared", "twice", "same matrix"), ("position",))
W(L3, "interview", "A", False,
  "interview = interview_V * interview_d + 1024 * interview_d   # GPT-2-style wpe too",
  "Adds a position table of 1024 rows that the question does not ask about.",
  ("position", "only the table", "table and the head"), ("twice",))
W(L3, "interview", "S", False,
  "interview = interview_V * interview_d / 1e6   # in millions",
  "Reports millions of parameters as a float instead of the count.",
  ("int", "million", "unit", "whole number"), ("twice",))
W(L3, "embedding_share", "H", False,
  "counts = count_params(load_config(share_model))\n"
  "embedding_share = (counts.token_embedding + counts.position_embedding) / counts.total",
  "Adds the position table to the token table E.",
  ("position", "token table", "only E"), ("denominator", "twice"))
W(L3, "embedding_share", "S", False,
  "counts = count_params(load_config(share_model))\n"
  "embedding_share = counts.token_embedding / (counts.total - counts.token_embedding)",
  "Divides by the rest of the model (an odds ratio) instead of the total.",
  ("total", "fraction of", "whole", "denominator", "odds"), ("position", "twice"))
W(L3, "embedding_share", "M", False,
  "counts = count_params(load_config(share_model))\n"
  "embedding_share = 2 * counts.token_embedding / counts.total   # table and head",
  "Counts the tied table twice (as head as well) in the numerator.",
  ("tied", "once", "twice", "head"), ("position",))
W(L3, "estimate_gap", "M", False,
  "estimate_gap = (V * d + 12 * L * d**2) - exact",
  "Subtracts the wrong way round (estimate − exact), giving the negative.",
  ("sign", "exact − estimate", "negative", "other way", "exact minus"), ("L", "layers"))
W(L3, "estimate_gap", "H", False,
  "estimate_gap = exact - (V * d + 12 * d**2)",
  "Leaves L out of the rule of thumb: 12·d² for one block instead of 12·L·d².",
  ("L", "layers", "blocks", "every block"), ("sign",))
W(L3, "estimate_gap", "A", False,
  "estimate_gap = 345_000_000 - (V * d + 12 * L * d**2)   # GPT-2 medium: 345M parameters",
  "Uses the quoted '345M' for GPT-2 medium instead of `exact`, its true count from count_params.",
  ("exact", "count_params", "345", "quoted", "true count"), ("sign", "L"))
W(L3, "gpt2_params", "M", False,
  "def gpt2_params(V, d, L, T):\n    return V * d + T * d + L * (12 * d * d + 13 * d)",
  "Leaves out the final LayerNorm (2·d).",
  ("final", "layernorm", "ln_f", "2·d", "2 * d"), ("tied", "position"))
W(L3, "gpt2_params", "A", False,
  "def gpt2_params(V, d, L, T):\n    return 2 * V * d + T * d + L * (12 * d * d + 13 * d) + 2 * d",
  "Counts a separate head matrix; GPT-2's head is tied.",
  ("tied", "head", "once", "twice"), ("final",))
W(L3, "gpt2_params", "H", True,
  "def gpt2_params(V, d, L, T):\n    return V * d + 1024 * d + L * (12 * d * d + 13 * d) + 2 * d",
  "Hard-codes GPT-2's 1024 positions instead of T: right on the released sizes, wrong for any other context.",
  ("T", "context", "position", "1024"), ("final", "tied"))
W(L3, "gpt2_params", "M", False,
  "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 9 * d\n    return V * d + T * d + L * block + 2 * d",
  "Forgets the 4d-wide bias of the MLP's first layer (13d of biases and norms per block, not 9d).",
  ("bias", "4d", "4·d", "mlp", "13"), ("final", "tied", "position"))

# ----------------------------------------------------------------------------- 04 modern blocks
W(L4, "attn_layer", "M", False,
  "attn_layer = 4 * d * d",
  "Uses full multi-head attention: k and v are d × h_kv·head_dim under grouped-query attention.",
  ("h_kv", "key/value", "grouped", "kv heads", "gqa"), ("bias",))
W(L4, "attn_layer", "H", False,
  "attn_layer = d * h * head_dim + d * h_kv * head_dim + h * head_dim * d",
  "Counts the k projection but forgets v.",
  ("v", "value", "both k and v", "2 ·", "four projections"), ("bias", "multi-head"))
W(L4, "attn_layer", "A", False,
  "attn_layer = (d * h * head_dim + 2 * d * h_kv * head_dim + h * head_dim * d\n"
  "              + h * head_dim + 2 * h_kv * head_dim)   # q, k, v biases as in Qwen",
  "Adds q/k/v biases (as Qwen2 has); this attention has none.",
  ("bias", "no bias"), ("h_kv", "grouped"))
W(L4, "mlp_layer", "A", False,
  "mlp_layer = 2 * d * d_ff   # up and down projections",
  "Counts two matrices as in GPT-2's MLP; SwiGLU has three (gate, up, down).",
  ("three", "gate", "swiglu", "3"), ("bias", "norm"))
W(L4, "mlp_layer", "M", False,
  "mlp_layer = 3 * d * int(8 * d / 3)   # SwiGLU keeps the 4d MLP's size: d_ff = 8d/3",
  "Uses the paper's d_ff = 8d/3 instead of the config's intermediate_size.",
  ("intermediate_size", "d_ff", "config", "8d/3"), ("gate", "bias"))
W(L4, "mlp_layer", "S", False,
  "mlp_layer = 3 * d * d_ff + 2 * d   # plus the layer's two RMSNorm weights",
  "Adds the two RMSNorms of the layer to the MLP.",
  ("norm", "rmsnorm", "only the mlp", "mlp only"), ("gate", "three"))
W(L4, "vocab_share", "H", False,
  "c = count_params(load_config(share_model))\nvocab_share = c.token_embedding / c.total",
  "Counts only the token table; the untied head is a second vocabulary-sized matrix.",
  ("head", "lm_head", "untied", "both"), ("percent", "denominator"))
W(L4, "vocab_share", "S", False,
  "c = count_params(load_config(share_model))\nvocab_share = 100 * (c.token_embedding + c.lm_head) / c.total",
  "Gives a percentage instead of a fraction between 0 and 1.",
  ("fraction", "percent", "between 0 and 1", "100"), ("head",))
W(L4, "vocab_share", "A", False,
  "c = count_params(load_config(share_model))\n"
  "vocab_share = (c.token_embedding + c.lm_head) / (c.total + c.lm_head)",
  "Adds the head to the total again, though `total` already includes the untied head.",
  ("total", "already", "denominator", "counted", "twice"), ("percent",))
W(L4, "padding_params", "S", False,
  "V_padded = -(-V // pad_multiple) * pad_multiple\npadding_params = V_padded - V",
  "Gives the number of padded rows, not their parameters (forgets × d).",
  ("d", "width", "rows times", "per row", "× d"), ("tied", "round up"))
W(L4, "padding_params", "A", False,
  "V_padded = -(-V // pad_multiple) * pad_multiple\npadding_params = 2 * (V_padded - V) * d   # table and head",
  "Counts the padding twice, in the table and the head, though the head is tied.",
  ("tied", "once", "twice"), ("round up",))
W(L4, "padding_params", "H", False,
  "padding_params = (V - V // pad_multiple * pad_multiple) * d",
  "Uses the remainder of rounding down instead of the rows added by rounding up.",
  ("round up", "up", "next multiple", "ceil"), ("tied", "twice"))
W(L4, "llama_params", "A", False,
  "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d // h\n"
  "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + d\n"
  "    return V * d + L * layer + d + (0 if tied else V * d)",
  "Counts one RMSNorm per layer instead of two.",
  ("two rmsnorm", "norm", "2·d", "2 * d", "two norms"), ("final", "h_kv"))
W(L4, "llama_params", "M", False,
  "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
  "    layer = 4 * d * d + 3 * d * d_ff + 2 * d\n"
  "    return V * d + L * layer + d + (0 if tied else V * d)",
  "Uses 4·d² attention (one k/v head per query head), ignoring grouped-query attention.",
  ("h_kv", "grouped", "key/value", "kv heads", "gqa"), ("norm", "final"))
W(L4, "llama_params", "H", False,
  "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d // h\n"
  "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d\n"
  "    return V * d + L * layer + (0 if tied else V * d)",
  "Forgets the final RMSNorm.",
  ("final", "final norm", "d"), ("two rmsnorm", "h_kv"))
W(L4, "llama_params", "S", False,
  "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d // h\n"
  "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d\n"
  "    return V * d + L * layer + d + (V * d if tied else 0)",
  "Inverts the tied flag: adds the head matrix when it is tied and leaves it out when it is not.",
  ("tied", "untied", "head", "invert", "the other way"), ("final", "norm"))

# ----------------------------------------------------------------------------- 05 weight tying
W(L5, "tied_count", "M", False,
  "tied_count = untied - 2 * V * d",
  "Removes the table and the head; tying removes only the head's copy.",
  ("one table", "only the head", "once", "keeps the table", "one V × d"), ("vocab",))
W(L5, "tied_count", "H", False,
  "tied_count = untied",
  "Leaves the count unchanged, forgetting to take the head's V·d away.",
  ("head", "subtract", "V × d", "V·d", "remove"), ("twice",))
W(L5, "tied_count", "A", False,
  "tied_count = untied - 32000 * d   # Llama's 32k vocabulary",
  "Uses Llama 2's 32,000-token vocabulary instead of this model's V (128,256).",
  ("vocab", "128256", "128,256", "V", "vocab_size"), ("twice",))
W(L5, "grad_E", "M", False,
  "grad_E = dlogits.T @ x",
  "Keeps only the head's gradient; the tied table also gets the lookup's gradient dx0.",
  ("both", "input", "lookup", "dx0", "two jobs", "embedding path"), ("add.at", "transpose"))
W(L5, "grad_E", "S", False,
  "grad_E = np.zeros((V, d))\nnp.add.at(grad_E, ids, dx0)",
  "Keeps only the lookup's gradient; the tied table is the head too (dlogits.T @ x).",
  ("head", "dlogits", "both", "two jobs", "logits"), ("buffered",))
W(L5, "grad_E", "H", False,
  "grad_E = dlogits.T @ x\ngrad_E[ids] += dx0",
  "Adds dx0 with fancy-index `+=`, which keeps only one contribution for the repeated id.",
  ("add.at", "repeat", "twice", "accumulate", "buffered"), ("head", "dlogits"))
W(L5, "grad_E", "S", False,
  "grad_E = dlogits.T @ x / len(ids)\nnp.add.at(grad_E, ids, dx0 / len(ids))",
  "Divides by the number of positions again, though dlogits and dx0 are already the loss's gradients.",
  ("already", "divide", "mean", "average", "len(ids)"), ("buffered", "dx0"))
W(L5, "count_unique", "S", False,
  "def count_unique(storage, sizes):\n    return int(sizes.sum())",
  "Sums every entry, counting a shared storage twice.",
  ("storage", "once", "unique", "duplicate", "shared"), ("index",))
W(L5, "count_unique", "H", False,
  "def count_unique(storage, sizes):\n    return len(np.unique(storage))",
  "Returns the number of distinct storages, not their parameters.",
  ("sizes", "parameters", "number of storages", "sum"), ("shared",))
W(L5, "count_unique", "A", False,
  "def count_unique(storage, sizes):\n    return int(sizes[np.unique(storage)].sum())",
  "Indexes `sizes` by the storage ids, as if storage id i were entry i.",
  ("index", "entry", "storage id", "first occurrence", "position"), ("number of storages",))
W(L5, "count_unique", "M", True,
  "def count_unique(storage, sizes):\n    first = storage[0]\n"
  "    return int(sizes.sum() - sizes[storage == first][1:].sum())",
  "Removes the duplicates of the first storage only (right on the example), not of every shared storage.",
  ("every storage", "each storage", "once", "all duplicates", "unique"), ("index",))
W(L5, "ties", "A", False,
  "ties = \"mistral-7b\"   # Mistral shares its embedding and output matrix",
  "Names Mistral 7B from memory; its config says tie_word_embeddings false.",
  ("tie_word_embeddings", "config", "load_config", "look"), ())
W(L5, "ties", "H", False,
  "ties = candidates[0]",
  "Takes the first candidate without looking at the configs.",
  ("tie_word_embeddings", "config", "load_config", "look"), ())
W(L5, "state_dict_sum", "M", False,
  "state_dict_sum = count_params(load_config(tied_model)).total",
  "Gives count_params's total, which counts the tied table once; the state dict lists it twice.",
  ("twice", "two names", "both entries", "double", "lm_head.weight"), ("stale",))
W(L5, "state_dict_sum", "H", False,
  "state_dict_sum = count_params(load_config(tied_model)).total + V * d",
  "Adds V·d with the stale V and d of question 2's toy table instead of the model's own.",
  ("stale", "vocab_size", "hidden_size", "model's own", "toy", "V and d"), ("twice", "once"))
W(L5, "state_dict_sum", "S", False,
  "state_dict_sum = 2 * count_params(load_config(tied_model)).total",
  "Doubles the whole model instead of only the shared table.",
  ("only the table", "table", "V × d", "V·d"), ("once",))

# ----------------------------------------------------------------------------- 06 params vs compute
W(L6, "head_flops", "M", False,
  "head_flops = d * V",
  "Counts one FLOP per weight instead of two (multiply and add).",
  ("2", "two", "multiply-add", "multiply and add"), ("position",))
W(L6, "head_flops", "S", False,
  "head_flops = 2 * d * V * 1024   # over a context",
  "Multiplies by a 1024-token context; the question asks for one position.",
  ("one position", "per position", "one", "single"), ("two",))
W(L6, "head_flops", "A", False,
  "head_flops = 2 * d * 32000   # Llama vocabulary",
  "Uses a 32,000 vocabulary from memory instead of the config's V.",
  ("vocab", "V", "128256", "vocab_size"), ("one position",))
W(L6, "lookup_flops", "A", False,
  "lookup_flops = 2 * V * d   # the one-hot matmul",
  "Prices the lookup as the one-hot matmul; a lookup is an index, 0 FLOPs.",
  ("zero", "0", "no multiplication", "index", "copy"), ())
W(L6, "lookup_flops", "M", False,
  "lookup_flops = d   # one copy per number",
  "Counts a copy per number as a FLOP; copying does no arithmetic.",
  ("zero", "0", "no arithmetic", "copy", "index"), ())
W(L6, "kaplan_n", "H", False,
  "kaplan_n = counts.total - counts.token_embedding - counts.position_embedding",
  "Forgets to take away the untied head.",
  ("head", "untied", "lm_head"), ("position",))
W(L6, "kaplan_n", "S", False,
  "kaplan_n = (counts.total - counts.token_embedding - counts.position_embedding - counts.lm_head) / 1e9   # in B",
  "Reports billions as a float instead of the count.",
  ("int", "billion", "unit", "whole number"), ("lm_head", "head"))
W(L6, "kaplan_n", "A", False,
  "s = model_shape(load_config(model))\nkaplan_n = 12 * s.num_layers * s.hidden_size**2   # Kaplan's N = 12·L·d²",
  "Uses Kaplan's approximation 12·L·d², which does not fit a GQA/SwiGLU model, instead of the exact parts.",
  ("exact", "parts", "count_params", "approximation", "12·L·d²"), ("lm_head",))
W(L6, "head_share_training", "S", False,
  "head_share_training = c.head / (c.input + c.blocks + c.head)",
  "Leaves attention over the context out of the total.",
  ("attention", "T(T+1)/2", "keys", "context"), ("once",))
W(L6, "head_share_training", "M", False,
  "attention = c.attention_per_key * T * T\ntotal = T * (c.input + c.blocks + c.head) + attention\n"
  "head_share_training = T * c.head / total",
  "Counts T² keys instead of T(T+1)/2 (causal attention sees only earlier positions).",
  ("T(T+1)/2", "causal", "triangle", "T + 1", "half"), ("once",))
W(L6, "head_share_training", "H", False,
  "attention = c.attention_per_key * T * (T - 1) // 2\ntotal = T * (c.input + c.blocks + c.head) + attention\n"
  "head_share_training = T * c.head / total",
  "Counts T(T−1)/2 keys, leaving out each token attending to itself.",
  ("T(T+1)/2", "T + 1", "itself", "t positions"), ("T²", "attention left out"))
W(L6, "head_share_prompt", "H", False,
  "attention = c.attention_per_key * T * (T + 1) // 2\ntotal = T * (c.input + c.blocks) + attention + c.head\n"
  "head_share_prompt = T * c.head / total",
  "Keeps question 4's T·head in the numerator though the head now runs once.",
  ("once", "last position", "numerator"), ("denominator",))
W(L6, "head_share_prompt", "S", False,
  "attention = c.attention_per_key * T * (T + 1) // 2\ntotal = T * (c.input + c.blocks + c.head) + attention\n"
  "head_share_prompt = c.head / total",
  "Runs the head once in the numerator but T times in the denominator.",
  ("once", "denominator", "only the last", "total"), ("numerator",))
W(L6, "head_share_prompt", "M", False,
  "head_share_prompt = c.head / (T * (c.input + c.blocks) + c.head)",
  "Leaves attention over the context out of the prompt's total.",
  ("attention", "keys", "T(T+1)/2", "context"), ("numerator",))
W(L6, "forward_flops_per_token", "M", False,
  "def forward_flops_per_token(V, d, L, d_ff, context):\n"
  "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 2 * L * context * d + 2 * d * V",
  "Counts attention as 2·context·d per block instead of 4·context·d (scores and the weighted sum).",
  ("4·context·d", "4 *", "attention", "scores and"), ("d_ff", "head"))
W(L6, "forward_flops_per_token", "A", True,
  "def forward_flops_per_token(V, d, L, d_ff, context):\n"
  "    return 2 * L * (4 * d * d + 8 * d * d) + 4 * L * context * d + 2 * d * V   # MLP is 4d wide",
  "Assumes the MLP is 4d wide instead of using d_ff (right on GPT-2's sizes only).",
  ("d_ff", "MLP width", "4d"), ("attention", "head"))
W(L6, "forward_flops_per_token", "S", False,
  "def forward_flops_per_token(V, d, L, d_ff, context):\n"
  "    return L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + d * V",
  "Counts 1 FLOP per weight on the matrices instead of 2.",
  ("2 FLOPs", "two", "per weight", "multiply-add"), ("d_ff",))
W(L6, "forward_flops_per_token", "H", False,
  "def forward_flops_per_token(V, d, L, d_ff, context):\n"
  "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d",
  "Forgets the head's 2·d·V.",
  ("head", "d × V", "2·d·V", "logits"), ("d_ff", "attention"))
W(L6, "flop_rate", "S", False,
  "flop_rate = 6 * N * D / (GPU_HOURS * 3600) / 1e12",
  "Reports TFLOP/s instead of FLOP/s.",
  ("FLOP/s", "TFLOP", "unit", "1e12"), ("3600",))
W(L6, "flop_rate", "H", False,
  "flop_rate = 6 * N * D / GPU_HOURS",
  "Divides by GPU hours, not GPU seconds.",
  ("seconds", "3600", "hour"), ("TFLOP",))
W(L6, "flop_rate", "M", False,
  "flop_rate = 2 * N * D / (GPU_HOURS * 3600)",
  "Uses the forward pass's 2·N·D instead of training's 6·N·D.",
  ("6", "backward", "forward and backward", "6·N·D"), ("3600",))
W(L6, "flop_rate", "A", False,
  "flop_rate = 6 * 8e9 * D / (GPU_HOURS * 3600)   # N = 8B",
  "Uses the name's 8B instead of N_mult computed from the config.",
  ("N", "exact", "N_mult", "count", "8e9"), ("3600", "TFLOP"))
W(L6, "active_params", "S", False,
  "active_params = int(counts.total * k / n_experts)",
  "Scales the whole model by k/n_experts, though attention, embeddings and norms work on every token.",
  ("attention", "shared", "only the experts", "not every", "every token"), ("three",))
W(L6, "active_params", "M", False,
  "active_params = counts.total - moe_layers * (n_experts - k) * 2 * d * d_ff",
  "Counts an expert as two matrices; a SwiGLU expert has three.",
  ("three", "gate", "3", "swiglu"), ("n_experts − k",))
W(L6, "active_params", "H", False,
  "active_params = counts.total - moe_layers * k * 3 * d * d_ff",
  "Takes away the k experts a token uses instead of the n_experts − k it skips.",
  ("skips", "n_experts − k", "unused", "not used"), ("three",))
W(L6, "active_params", "A", False,
  "active_params = 12_900_000_000   # Mixtral's published 12.9B active parameters",
  "Types the quoted '12.9B active' instead of computing it from the config.",
  ("compute", "count", "exact", "config", "quoted"), ("three",))

# ----------------------------------------------------------------------------- 07 memory
W(L7, "weights_gb_4bit", "S", False,
  "weights_gb_4bit = N * 0.5 / 2**30",
  "Divides by 2³⁰ (GiB) instead of 10⁹ (GB).",
  ("GB", "10⁹", "1e9", "GiB", "2³⁰"), ("half",))
W(L7, "weights_gb_4bit", "M", False,
  "weights_gb_4bit = N * 4 / 1e9",
  "Takes the 4 bits as 4 bytes per parameter.",
  ("half", "0.5", "bits", "bytes", "half a byte"), ("GiB",))
W(L7, "weights_gb_4bit", "A", False,
  "weights_gb_4bit = (N * 0.5 + N / 32 * 2) / 1e9   # int4 with an fp16 scale per 32 weights",
  "Adds quantization scales the question says to ignore.",
  ("ignoring", "scales", "quantization", "ignore"), ("GiB", "bits"))
W(L7, "adam_parts", "A", False,
  "adam_parts = np.array([4, 4, 4, 8]) * n_params",
  "Stores the working weights and gradients in fp32, not fp16.",
  ("fp16", "2 bytes", "16-bit", "half"), ("order", "m and v"))
W(L7, "adam_parts", "M", False,
  "adam_parts = np.array([2, 2, 4, 4]) * n_params",
  "Counts one Adam moment instead of two (m and v).",
  ("two moments", "m and v", "both", "8"), ("fp16",))
W(L7, "adam_parts", "S", False,
  "adam_parts = np.array([16 * n_params])",
  "Gives the total 16 bytes per parameter instead of the four parts.",
  ("parts", "four", "each part"), ("fp16",))
W(L7, "adam_parts", "H", False,
  "adam_parts = np.array([2, 2, 8, 4]) * n_params",
  "Swaps the master copy and the moments: the order asked is weights, gradients, master copy, moments.",
  ("order", "master copy", "swap"), ("fp16", "m and v"))
W(L7, "kv_bytes_per_token", "M", False,
  "kv_bytes_per_token = int(2 * L * h * head_dim * BYTES_PER_PARAM[cache_precision])",
  "Uses the query heads h instead of the key/value heads h_kv.",
  ("h_kv", "key/value heads", "grouped", "kv heads"), ("2",))
W(L7, "kv_bytes_per_token", "S", False,
  "kv_bytes_per_token = int(L * h_kv * head_dim * BYTES_PER_PARAM[cache_precision])",
  "Forgets the factor 2 for keys and values.",
  ("keys and values", "2", "both", "k and v"), ("h_kv",))
W(L7, "kv_bytes_per_token", "A", False,
  "kv_bytes_per_token = int(2 * L * h_kv * head_dim * 4)   # fp32 cache",
  "Uses 4 bytes per number instead of `cache_precision`'s.",
  ("bf16", "2 bytes", "precision", "BYTES_PER_PARAM", "cache_precision"), ("h_kv",))
W(L7, "kv_bytes_per_token", "H", False,
  "kv_bytes_per_token = int(2 * h_kv * head_dim * BYTES_PER_PARAM[cache_precision])",
  "Gives one layer's cache, forgetting the L layers.",
  ("layers", "L", "every layer"), ("h_kv", "2 bytes"))
W(L7, "gqa_saving_gib", "S", False,
  "b = BYTES_PER_PARAM[cache_precision]\n"
  "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * b * context / 1e9",
  "Divides by 10⁹ (GB) instead of 2³⁰ (GiB).",
  ("GiB", "2³⁰", "2**30", "1024"), ("saving",))
W(L7, "gqa_saving_gib", "M", False,
  "b = BYTES_PER_PARAM[cache_precision]\n"
  "gqa_saving_gib = 2 * L * h * head_dim * b * context / 2**30",
  "Gives the full multi-head cache instead of what grouping saves (full − grouped).",
  ("saving", "difference", "minus", "saves"), ("GiB",))
W(L7, "gqa_saving_gib", "A", False,
  "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * 2 * context / 2**30 * 8 / 32   # GQA keeps h_kv/h",
  "Scales the saving again by h_kv/h after already using h − h_kv.",
  ("h − h_kv", "full − grouped", "difference", "twice"), ("GiB",))
W(L7, "kv_cache_gb", "S", False,
  "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
  "    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / 2**30",
  "Divides by 2³⁰ (GiB) instead of 10⁹ (GB).",
  ("GB", "1e9", "10⁹", "GiB"), ("batch",))
W(L7, "kv_cache_gb", "M", False,
  "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
  "    return L * h_kv * head_dim * bytes_per_number * context * batch / 1e9",
  "Forgets the factor 2 for keys and values.",
  ("keys and values", "2", "both", "k and v"), ("batch",))
W(L7, "kv_cache_gb", "H", False,
  "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
  "    return 2 * L * h_kv * head_dim * bytes_per_number * context / 1e9",
  "Leaves out the batch.",
  ("batch", "sequences"), ("GiB",))
W(L7, "max_batch", "S", False,
  "max_batch = int(np.ceil((memory - weights) / per_sequence))",
  "Rounds the number of sequences up; only whole sequences that fit count (round down).",
  ("whole", "floor", "round down", "fit"), ("weights",))
W(L7, "max_batch", "M", False,
  "max_batch = int(memory // per_sequence)",
  "Forgets that the weights take part of the GPU.",
  ("weights", "subtract", "minus"), ("floor",))
W(L7, "max_batch", "A", False,
  "max_batch = int((gpu_gb * 2**30 - weights) // per_sequence)   # 80 GB card = 80 GiB",
  "Takes the GPU as 80 GiB instead of exactly 80·10⁹ bytes.",
  ("10⁹", "GB", "exactly", "1e9"), ("weights",))

# ----------------------------------------------------------------------------- 08 vocabulary size
W(L8, "embedding_params", "A", False,
  "embedding_params = 2 * V_big * d   # table plus head",
  "Counts the head too; it is tied, so the table is counted once.",
  ("tied", "once", "one table"), ("V_small",))
W(L8, "embedding_params", "H", False,
  "embedding_params = V_small * d",
  "Uses V_small instead of V_big.",
  ("V_big",), ("tied",))
W(L8, "embedding_share", "S", False,
  "embedding_share = table / rest",
  "Divides by the rest instead of by the whole model (table + rest).",
  ("whole", "total", "table + rest", "denominator"), ("tied",))
W(L8, "embedding_share", "M", False,
  "embedding_share = 2 * table / (2 * table + rest)   # table and head",
  "Counts the tied table twice, in numerator and denominator.",
  ("tied", "once", "twice"), ("V_small",))
W(L8, "embedding_share", "H", False,
  "embedding_share = table / (V_small * d + rest)",
  "Puts the V_small table in the denominator (a line left from a first try).",
  ("V_big", "denominator", "same table", "table + rest"), ("tied",))
W(L8, "extra_head_flops", "M", False,
  "extra_head_flops = d * (V_big - V_small)",
  "Counts one FLOP per head weight instead of two.",
  ("2", "two", "2·d·V", "multiply-add"), ("ratio",))
W(L8, "extra_head_flops", "S", False,
  "extra_head_flops = V_big / V_small",
  "Gives the ratio of the two vocabularies instead of the extra FLOPs.",
  ("more", "difference", "minus", "FLOPs", "2·d"), ())
W(L8, "extra_head_flops", "A", False,
  "extra_head_flops = 2 * d * (V_big - V_small) * 2   # the head runs forward and backward",
  "Doubles it for a backward pass; generating a token runs the head forward only.",
  ("generated", "forward", "generating", "no backward"), ("two",))
W(L8, "break_even_r", "M", False,
  "break_even_r = (blocks + 2 * d * V_big) / (blocks + 2 * d * V_small)",
  "Inverts the ratio (V_big's cost over V_small's).",
  ("invert", "reciprocal", "upside", "other way"), ("blocks",))
W(L8, "break_even_r", "S", False,
  "break_even_r = V_small / V_big",
  "Ignores the blocks' FLOPs: compares head costs only.",
  ("blocks",), ("invert",))
W(L8, "break_even_r", "H", False,
  "break_even_r = (blocks + d * V_small) / (blocks + d * V_big)",
  "Prices the head at d·V instead of 2·d·V.",
  ("2·d·V", "2", "two"), ("invert", "blocks"))
W(L8, "tokens_per_word", "S", False,
  "def tokens_per_word(counts, n_tokens):\n    return float(np.mean(n_tokens))",
  "Averages over distinct words, unweighted, instead of over running words (weighted by counts).",
  ("weighted", "counts", "running", "frequency"), ("divide",))
W(L8, "tokens_per_word", "M", False,
  "def tokens_per_word(counts, n_tokens):\n"
  "    return float(np.dot(counts, n_tokens) / len(counts))",
  "Divides by the number of distinct words instead of the total count.",
  ("total count", "sum of counts", "divide by", "running words"), ("swap",))
W(L8, "tokens_per_word", "A", False,
  "def tokens_per_word(counts, n_tokens):\n    return float(np.average(counts, weights=n_tokens))",
  "Swaps np.average's arguments: averages the counts weighted by the token lengths.",
  ("weights", "swap", "weighted by the counts", "average of n_tokens"), ("unweighted",))
W(L8, "hindi_single_token_share", "S", False,
  "hindi_single_token_share = 100 * sum(bpe.count_tokens(w) == 1 for w in top_hindi) / len(top_hindi)",
  "Gives a percentage instead of a fraction.",
  ("fraction", "percent", "0 and 1", "100"), ("partner",))
W(L8, "hindi_single_token_share", "H", False,
  "top = list(other)[:n_top]\n"
  "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top) / len(top)",
  "Audits the partner language's words instead of the Hindi ones.",
  ("hindi", "top_hindi"), ("percent",))
W(L8, "hindi_single_token_share", "M", False,
  "hindi_single_token_share = sum(bpe.count_tokens(w) <= 2 for w in top_hindi) / len(top_hindi)",
  "Counts words of at most two tokens as whole: a word has a row of its own only as one token.",
  ("single token", "one token", "== 1", "exactly one"), ("hindi",))
W(L8, "hindi_r", "S", False,
  "per = lambda t: np.mean([len(t.encode_ordinary(' ' + w)) for w in hindi])\n"
  "hindi_r = per(cl100k) / per(gpt2)",
  "Averages tokens per distinct word, unweighted by the counts in running text.",
  ("weighted", "counts", "running"), ("invert", "space"))
W(L8, "hindi_r", "M", False,
  "per = lambda t: sum(len(t.encode_ordinary(' ' + w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
  "hindi_r = per(gpt2) / per(cl100k)",
  "Inverts the ratio: GPT-2's tokens per word over cl100k's.",
  ("invert", "cl100k's", "divided by GPT-2", "reciprocal", "other way"), ("weighted", "space"))
W(L8, "hindi_r", "H", False,
  "per = lambda t: sum(len(t.encode_ordinary(w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
  "hindi_r = per(cl100k) / per(gpt2)",
  "Encodes each word without the leading space.",
  ("space", "\" \" +", "after a space", "leading"), ("invert", "weighted"))
W(L8, "bpe_merges", "A", False,
  "def bpe_merges(counts, n_merges):\n"
  "    words = [list(w.encode('utf-8')) for w in counts]\n    freqs = list(counts.values())\n    merges = []\n"
  "    for k in range(n_merges):\n        pairs = {}\n"
  "        for t, n in zip(words, freqs):\n            for p in zip(t, t[1:]):\n"
  "                pairs[p] = pairs.get(p, 0) + n\n        if not pairs:\n            break\n"
  "        best = max(pairs, key=pairs.get)   # ties: first seen\n        merges.append(best)\n"
  "        for i, t in enumerate(words):\n            out, j = [], 0\n            while j < len(t):\n"
  "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n                    out.append(256 + k); j += 2\n"
  "                else:\n                    out.append(t[j]); j += 1\n            words[i] = out\n    return merges",
  "Breaks ties by the first pair seen (max over the dict) instead of the smallest pair of ids.",
  ("tie", "smallest", "ties"), ("weight", "overlap"))
W(L8, "bpe_merges", "S", False,
  "def bpe_merges(counts, n_merges):\n"
  "    words = [list(w.encode('utf-8')) for w in counts]\n    merges = []\n"
  "    for k in range(n_merges):\n        pairs = {}\n"
  "        for t in words:\n            for p in zip(t, t[1:]):\n"
  "                pairs[p] = pairs.get(p, 0) + 1\n        if not pairs:\n            break\n"
  "        best = min(pairs, key=lambda p: (-pairs[p], p))\n        merges.append(best)\n"
  "        for i, t in enumerate(words):\n            out, j = [], 0\n            while j < len(t):\n"
  "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n                    out.append(256 + k); j += 2\n"
  "                else:\n                    out.append(t[j]); j += 1\n            words[i] = out\n    return merges",
  "Counts each pair once per distinct word, not weighted by the word's count.",
  ("weight", "count", "frequency", "how often"), ("tie", "smallest"))
W(L8, "bpe_merges", "H", True,
  "def bpe_merges(counts, n_merges):\n"
  "    words = [list(w.encode('utf-8')) for w in counts]\n    freqs = list(counts.values())\n    merges = []\n"
  "    for k in range(n_merges):\n        pairs = {}\n"
  "        for t, n in zip(words, freqs):\n            for p in zip(t, t[1:]):\n"
  "                pairs[p] = pairs.get(p, 0) + n\n        if not pairs:\n            break\n"
  "        best = min(pairs, key=lambda p: (-pairs[p], p))\n        merges.append(best)\n"
  "        new = 256 + len(merges)\n"
  "        for i, t in enumerate(words):\n            out, j = [], 0\n            while j < len(t):\n"
  "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n                    out.append(new); j += 2\n"
  "                else:\n                    out.append(t[j]); j += 1\n            words[i] = out\n    return merges",
  "Numbers the new token after appending the merge, so merge k makes 257 + k (wrong from the second merge on).",
  ("256 + k", "id", "new token", "off by one", "257"), ("tie", "weight"))

# ----------------------------------------------------------------------------- 09 what rows learn
W(L9, "n_params", "M", False,
  "n_params = V * d + d * d + d + V * d",
  "Makes W d × d; its input is the two context rows side by side, 2d wide.",
  ("2·d", "2d", "two context", "context rows", "side by side"), ("bias", "untied"))
W(L9, "n_params", "A", False,
  "n_params = V * d + (2 * d) * d + d   # output reuses E",
  "Ties the output matrix to E; this model's U is its own.",
  ("untied", "U", "own", "output matrix"), ("bias", "2d"))
W(L9, "n_params", "S", False,
  "n_params = V * d + (2 * d) * d + V * d",
  "Leaves out the hidden layer's bias b.",
  ("bias", "b"), ("untied", "2d"))
W(L9, "embedding_grad", "S", False,
  "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
  "    dE[contexts] += dx0\n    return dE",
  "Uses fancy-index `+=`, which keeps one contribution for a repeated token.",
  ("add.at", "repeat", "twice", "buffered", "accumulate"), ("slot",))
W(L9, "embedding_grad", "M", False,
  "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
  "    np.add.at(dE, contexts[:, 0], dx0.sum(axis=1))\n    return dE",
  "Sums the gradients of both slots into the token of the first slot.",
  ("slot", "each slot", "contexts[b, k]", "both slots", "own row"), ("buffered",))
W(L9, "embedding_grad", "H", False,
  "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
  "    np.add.at(dE, contexts[:, -1], dx0[:, -1])\n    return dE",
  "Keeps only the last context slot (a line from a one-token context), dropping the others.",
  ("slot", "every slot", "all slots", "both slots", "contexts[b, k]"), ("buffered",))
W(L9, "gap", "S", False,
  "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
  "within = np.concatenate([C[np.ix_(g, g)].ravel() for g in (animals, vehicles)])\n"
  "gap = within.mean() - C[np.ix_(animals, vehicles)].mean()",
  "Includes each word with itself (the diagonal's 1s) and both orders in the within-group mean.",
  ("different", "diagonal", "itself", "self", "pairs"), ("cosine", "normalis"))
W(L9, "gap", "M", False,
  "G = E @ E.T\nwithin = [G[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
  "gap = np.mean(within) - G[np.ix_(animals, vehicles)].mean()",
  "Uses dot products instead of cosine similarities.",
  ("cosine", "normalis", "normaliz", "norm", "length"), ("diagonal",))
W(L9, "gap", "H", False,
  "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
  "within = [C[i, j] for i in animals for j in animals if i < j]\n"
  "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()",
  "Takes the within-group mean over the animals only, leaving the vehicle pairs out.",
  ("vehicles", "both groups", "56"), ("diagonal", "cosine"))
W(L9, "gap", "S", False,
  "C = np.corrcoef(E)\nwithin = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
  "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()",
  "Uses np.corrcoef (rows centred on their means: Pearson) instead of cosines.",
  ("centre", "center", "mean", "correlation", "pearson", "cosine"), ("diagonal",))
W(L9, "cos_cat", "H", False,
  "rows = E[vehicles + animals]\n"
  "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))",
  "Puts the vehicles first instead of animals + vehicles.",
  ("order", "animals + vehicles", "animals first"), ("axis",))
W(L9, "cos_cat", "S", False,
  "Z = E / np.linalg.norm(E, axis=0)\ncos_cat = Z[animals + vehicles] @ Z[cat]",
  "Normalises the columns (axis=0) instead of the rows.",
  ("axis", "rows", "row norm", "each row"), ("order",))
W(L9, "cos_cat", "M", False,
  "rows = E[animals[1:] + vehicles]\n"
  "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))",
  "Leaves out cat with itself: 15 values instead of 16.",
  ("16", "itself", "first entry", "cat with itself"), ("axis", "order"))
W(L9, "rotation_changes_cosines", "A", False,
  "rotation_changes_cosines = \"yes\"   # every coordinate changes",
  "Thinks changing the coordinates changes the cosines; an orthogonal Q keeps dot products and norms.",
  ("orthogonal", "dot product", "norm", "preserve", "unchanged", "Q Qᵀ"), ())
W(L9, "tinylm_grads", "M", False,
  "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
  "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
  "    p = np.exp(logits - logits.max(axis=1, keepdims=True)); p /= p.sum(axis=1, keepdims=True)\n"
  "    dl = p.copy(); dl[np.arange(B), targets] -= 1.0\n"
  "    dU = dl.T @ x\n    dx0 = ((dl @ U) * (1 - x**2) @ W.T).reshape(B, C, -1)\n"
  "    dE = np.zeros_like(E); np.add.at(dE, contexts, dx0)\n    return dE, dU",
  "Differentiates the summed loss: forgets to divide by B for the mean.",
  ("mean", "B", "batch size", "divide"), ("add.at", "tanh"))
W(L9, "tinylm_grads", "S", False,
  "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
  "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
  "    p = np.exp(logits - logits.max(axis=1, keepdims=True)); p /= p.sum(axis=1, keepdims=True)\n"
  "    dl = p.copy(); dl[np.arange(B), targets] -= 1.0; dl /= B\n"
  "    dU = dl.T @ x\n    dx0 = ((dl @ U) * (1 - x**2) @ W.T).reshape(B, C, -1)\n"
  "    dE = np.zeros_like(E); dE[contexts] += dx0\n    return dE, dU",
  "Scatters dE with fancy-index `+=`, losing the repeated ids' extra contributions.",
  ("add.at", "repeat", "buffered", "twice", "accumulate"), ("mean", "tanh"))
W(L9, "tinylm_grads", "A", False,
  "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
  "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
  "    p = np.exp(logits - logits.max(axis=1, keepdims=True)); p /= p.sum(axis=1, keepdims=True)\n"
  "    dl = p.copy(); dl[np.arange(B), targets] -= 1.0; dl /= B\n"
  "    dU = dl.T @ x\n    dx0 = ((dl @ U) * (x > 0) @ W.T).reshape(B, C, -1)   # ReLU gate\n"
  "    dE = np.zeros_like(E); np.add.at(dE, contexts, dx0)\n    return dE, dU",
  "Back-propagates through a ReLU mask instead of tanh's derivative 1 − x².",
  ("tanh", "1 − x²", "1 - x**2", "derivative"), ("mean", "add.at"))
W(L9, "tinylm_grads", "H", False,
  "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
  "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
  "    p = np.exp(logits - logits.max(axis=1, keepdims=True)); p /= p.sum(axis=1, keepdims=True)\n"
  "    dl = p.copy(); dl[np.arange(B), targets] -= 1.0; dl /= B\n"
  "    dU = dl.T @ x\n    dx0 = ((dl @ U) * (1 - x**2) @ W.T).reshape(B, C, -1)\n"
  "    dE = np.zeros_like(E); np.add.at(dE, contexts, dx0)\n    return dU, dE",
  "Returns (dU, dE) instead of (dE, dU).",
  ("order", "(dE, dU)", "swap"), ("mean", "tanh"))

# ----------------------------------------------------------------------------- 10 glitch tokens
W(L10, "padding_rows", "S", False,
  "padding_rows = V % pad_multiple",
  "Gives the remainder (rows past the last full multiple) instead of the rows added to reach the next one.",
  ("round up", "next multiple", "ceil", "up to"), ("total",))
W(L10, "padding_rows", "H", False,
  "padding_rows = -(-V // pad_multiple) * pad_multiple",
  "Gives the padded size, not the rows beyond V.",
  ("minus V", "subtract", "beyond", "no token", "padded size"), ("round up",))
W(L10, "padding_rows", "M", False,
  "padding_rows = 2 ** int(np.ceil(np.log2(V))) - V",
  "Pads to the next power of two instead of the next multiple of pad_multiple.",
  ("multiple", "pad_multiple", "power of two"), ("subtract",))
W(L10, "invalid_bytes", "A", False,
  "invalid_bytes = 2   # 0xC0 and 0xC1, the overlong leads",
  "Remembers only the overlong leads C0 and C1, forgetting F5–FF.",
  ("F5", "0xF5", "F5–FF", "13", "above F4"), ("continuation",))
W(L10, "invalid_bytes", "M", False,
  "invalid_bytes = 0xFF - 0xF5 + 1   # beyond U+10FFFF",
  "Counts only F5–FF (past U+10FFFF), forgetting the overlong leads C0 and C1.",
  ("C0", "C1", "overlong", "13"), ("continuation",))
W(L10, "invalid_bytes", "S", False,
  "invalid_bytes = 256 - 128   # only ASCII bytes stand alone",
  "Counts every byte from 0x80 up, though continuation and lead bytes do appear inside valid UTF-8.",
  ("anywhere", "continuation", "multi-byte", "inside", "appear"), ("C0",))
W(L10, "unused_score", "S", False,
  "def unused_score(M, reference_ids):\n    mean = M.mean(axis=0)\n"
  "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))",
  "Takes the mean over all rows instead of the reference rows.",
  ("reference", "reference rows", "reference_ids"), ("norm",))
W(L10, "unused_score", "M", False,
  "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0)\n"
  "    return M @ mean / np.linalg.norm(M, axis=1)",
  "Divides by the rows' norms but not by the mean's norm.",
  ("norm", "normalis", "normaliz", "cosine", "mean's norm"), ("reference",))
W(L10, "unused_score", "H", False,
  "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0)\n"
  "    keep = [i for i in range(len(M)) if i not in set(reference_ids)]\n"
  "    return M[keep] @ mean / (np.linalg.norm(M[keep], axis=1) * np.linalg.norm(mean))",
  "Leaves the reference rows out of the result; the score is wanted for every row.",
  ("every row", "one score per row", "included", "reference rows included"), ("norm",))
W(L10, "unused_score", "A", False,
  "def unused_score(M, reference_ids):\n    R = M[reference_ids]\n"
  "    Mn = M / np.linalg.norm(M, axis=1, keepdims=True); Rn = R / np.linalg.norm(R, axis=1, keepdims=True)\n"
  "    return (Mn @ Rn.T).mean(axis=1)",
  "Averages the cosines with each reference row instead of taking the cosine with the reference rows' mean.",
  ("mean of the reference rows", "cosine with the mean", "mean first", "mean vector"), ("every row",))
W(L10, "never_cos", "S", False,
  "rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
  "never_cos = (unit @ unit.T).mean()",
  "Averages the whole similarity matrix, diagonal 1s included.",
  ("different", "diagonal", "self", "itself", "pairs"), ("reserved",))
W(L10, "never_cos", "H", False,
  "rows = run.model.E[list(corpus.groups[\"reserved\"])]\n"
  "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\nC = unit @ unit.T\n"
  "never_cos = C[np.triu_indices(len(rows), k=1)].mean()",
  "Uses the reserved rows only, leaving out the glitch word of `never`.",
  ("never", "glitch"), ("diagonal",))
W(L10, "never_cos", "M", False,
  "rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
  "C = unit @ unit.T\nn = len(never)\nnever_cos = C[np.triu_indices(n, k=1)].sum() / (n * n / 2)",
  "Divides the sum over pairs by n²/2 instead of n(n−1)/2.",
  ("n(n-1)/2", "n(n − 1)/2", "pairs", "number of pairs", "count"), ("diagonal", "glitch"))
W(L10, "top7", "H", False,
  "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
  "top7 = np.argsort(-scores, kind=\"stable\")[:7]",
  "Does not leave the reference rows out before taking the top 7.",
  ("leave", "reference", "out", "exclude"), ("highest first",))
W(L10, "top7", "S", False,
  "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
  "order = [i for i in np.argsort(scores, kind=\"stable\") if i not in reference]\ntop7 = np.array(order[:7])",
  "Sorts ascending, giving the 7 lowest scores.",
  ("highest", "descending", "order", "highest first"), ("reference",))
W(L10, "top7", "A", True,
  "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
  "top7 = np.argsort(scores)[-7:]",
  "Takes argsort's last 7 (lowest of them first) and keeps the reference rows.",
  ("highest first", "reference", "order", "leave"), ())
W(L10, "partial_tokens", "S", False,
  "partial_tokens = sum(1 for b in ordinary if len(b) == 1 and b[0] >= 0x80)",
  "Counts only the single-byte tokens from 0x80 up, missing merged tokens that stop inside a character.",
  ("merged", "multi-byte", "partway", "decode", "longer"), ("valid",))
W(L10, "partial_tokens", "A", False,
  "partial_tokens = sum(1 for b in ordinary if any(x >= 0x80 for x in b))",
  "Counts every non-ASCII token, including ones that decode to whole characters.",
  ("decode", "valid", "whole character", "UnicodeDecodeError"), ("merged",))
W(L10, "partial_tokens", "H", False,
  "partial_tokens = 0\nfor b in ordinary:\n    try:\n        b.decode(\"latin-1\")\n    except UnicodeDecodeError:\n"
  "        partial_tokens += 1",
  "Decodes as latin-1 (a leftover from a first try), which never fails, instead of UTF-8.",
  ("utf-8", "UTF-8", "latin", "encoding"), ("merged",))

# ----------------------------------------------------------------------------- 11 size a model
W(L11, "design", "A", False,
  "design = llama_config(128256, 2048, 16, 32, 8, 8192, True)   # Llama 3.2 1B as released",
  "Takes Llama 3.2 1B as released, which is far over the parameter and memory budgets.",
  ("budget", "over", "parameters", "too big", "over_budget"), ("head_dim", "vocabulary"))
W(L11, "design", "H", False,
  "design = llama_config(32000, 1024, 12, 8, 2, 4096, True)",
  "Picks 8 heads for d = 1024, so each head is 128 wide instead of head_dim.",
  ("head_dim", "head width", "64", "d / h", "heads"), ("vocabulary",))
W(L11, "design", "S", False,
  "design = llama_config(16000, 1024, 12, 16, 4, 4096, True)   # smaller vocabulary, more room",
  "Shrinks the vocabulary below min_vocab_size to make room for blocks.",
  ("vocabulary", "min_vocab_size", "32000", "vocab"), ("head_dim",))
W(L11, "design", "M", True,
  "design = llama_config(32000, 1024, 40, 16, 4, 4096, False)",
  "Untied and too deep: over the parameter, memory and compute budgets at once.",
  ("budget", "over", "parameters", "compute", "memory"), ("head_dim", "vocabulary"))
W(L11, "design_params", "S", False,
  "design_params = count_params(design).total - design[\"vocab_size\"] * design[\"hidden_size\"]",
  "Gives the non-embedding count instead of every parameter.",
  ("every parameter", "embedding", "total", "table"), ("twice",))
W(L11, "design_params", "A", False,
  "design_params = count_params(design).total + design[\"vocab_size\"] * design[\"hidden_size\"]   # head",
  "Adds the head's V·d, though the design ties it and count_params counts it once.",
  ("tied", "once", "twice", "head"), ("embedding",))
W(L11, "design_serving_gb", "S", False,
  "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
  "                                   batch=BUDGET.batch, kv=BUDGET.kv)[\"total\"] / 2**30",
  "Divides by 2³⁰ (GiB) instead of GB.",
  ("GB", "10⁹", "GiB"), ("cache",))
W(L11, "design_serving_gb", "H", False,
  "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
  "                                   batch=BUDGET.batch, kv=BUDGET.kv)[\"weights\"] / GB",
  "Takes the weights' entry only, leaving out the KV cache.",
  ("cache", "KV", "total", "together"), ("GiB",))
W(L11, "design_serving_gb", "A", False,
  "design_serving_gb = serving_memory(design, weights=\"bf16\", context=BUDGET.context,\n"
  "                                   batch=BUDGET.batch, kv=BUDGET.kv)[\"total\"] / GB",
  "Serves the weights in bf16 instead of the job's `weights` precision.",
  ("int4", "weights precision", "precision", "BUDGET.weights"), ("cache", "GiB"))
W(L11, "design_train_flops", "M", False,
  "design_train_flops = 6 * count_params(design).total * D",
  "Uses 6·N·D instead of the course's training_flops (attention and the looked-up table priced differently).",
  ("training_flops", "attention", "lesson", "per sequence"), ("sequences",))
W(L11, "design_train_flops", "H", False,
  "design_train_flops = training_flops(design, T_train).total",
  "Prices one sequence only, forgetting to multiply by the number of sequences.",
  ("sequences", "train_tokens //", "number of sequences", "multiply"), ("6·N·D",))
W(L11, "design_train_flops", "S", False,
  "design_train_flops = training_flops(design, T_train).total * D",
  "Multiplies the per-sequence cost by the tokens instead of the sequences.",
  ("sequences", "per sequence", "//", "train_context"), ("6·N·D",))
W(L11, "tightest_budget", "S", False,
  "tightest_budget = \"parameters\"   # the biggest raw number",
  "Names the parameter budget without comparing fractions of each budget.",
  ("fraction", "largest fraction", "share", "each budget"), ())
W(L11, "tightest_budget", "H", False,
  "tightest_budget = \"memory\"   # the phone is the hard part",
  "Names memory from the job's story without computing the three fractions.",
  ("fraction", "largest fraction", "each budget", "share"), ())
W(L11, "other_tying_params", "M", False,
  "other_tying_params = design_params - design[\"vocab_size\"] * design[\"hidden_size\"]",
  "Subtracts V·d, as if untying saved a table; untying a tied head adds one.",
  ("untied", "adds", "more", "flip", "tying"), ("twice",))
W(L11, "other_tying_params", "H", False,
  "other_tying_params = design_params",
  "Gives the same count, not flipping the tying.",
  ("flip", "tying", "V × d", "other tying"), ())
W(L11, "other_tying_params", "A", False,
  "other_tying_params = design_params + 2 * design[\"vocab_size\"] * design[\"hidden_size\"]",
  "Adds two tables: untying adds one V·d head.",
  ("one", "V × d", "once", "twice", "head"), ("subtract",))
W(L11, "defence", "H", False,
  "figs = design_figures(design, BUDGET)\nshares = headroom(figs, BUDGET)\n"
  "defence = \"\"\"\nWhich budget binds, and by how much:\n"
  "My design uses {shares['parameters']:.1%} of the parameters, so {tightest_budget} binds.\n\n"
  "Why this width and depth:\nThe deepest that fits: {design['num_hidden_layers']} layers.\n\n"
  "What the tying choice costs:\nTied, it saves {design['vocab_size'] * design['hidden_size']:,} parameters.\n\"\"\"",
  "Drops the f before the string, so the braces stay unfilled.",
  ("f-string", "brace", "f prefix", "unfilled", "{"), ("heading",))
W(L11, "defence", "S", False,
  "defence = f\"\"\"\nWhich budget binds, and by how much:\n"
  "{tightest_budget} binds: {design_params:,} parameters, {design_serving_gb:.3f} GB, {design_train_flops:.3g} FLOPs.\n\n"
  "Why this width and depth:\n\n"
  "What the tying choice costs:\nUntied it would have {other_tying_params:,} parameters.\n\"\"\"",
  "Compares raw amounts, not fractions, and leaves the width-and-depth heading empty.",
  ("heading", "empty", "width and depth", "fraction", "no words"), ("brace",))
W(L11, "defence", "A", True,
  "defence = f\"\"\"\nWhich budget binds, and by how much:\n"
  "Memory binds at 98% of the budget; one layer more would break it.\n\n"
  "Why this width and depth:\n"
  "d = 1024 with 16 heads of 64, and 16 layers, the deepest that fits.\n\n"
  "What the tying choice costs:\n"
  "Tying saves 32,768,000 parameters.\n\"\"\"",
  "Pastes figures of a worked example typed by hand instead of the design's own computed figures.",
  ("your own figures", "own figures", "computed", "worked example", "design's"), ("brace", "heading"))

# ----------------------------------------------------------------------------- 12 change a vocabulary
W(L12, "added_params", "A", False,
  "added_params = 2 * n_new * d   # new rows in the table and the head",
  "Adds rows to a head too; GPT-2's head is tied, the one table grows once.",
  ("tied", "once", "one table"), ("padding",))
W(L12, "added_params", "M", False,
  "added_params = (n_tok + n_new) * d",
  "Gives the size of the whole resized table, not what it gains.",
  ("gain", "difference", "new rows", "before and after", "added"), ("tied",))
W(L12, "added_params", "H", False,
  "added_params = n_new",
  "Counts the new rows, not their parameters (× d).",
  ("d", "width", "parameters", "× d", "per row"), ("tied",))
W(L12, "added_params", "S", True,
  "added_params = (padded_size(n_tok + n_new, pad_multiple) - V) * d",
  "Pads the table to a multiple (question 2's step) before counting; the resize itself does not pad.",
  ("padding", "pad", "question 2", "no padding"), ("tied",))
W(L12, "padding_rows", "H", False,
  "padding_rows = padded_size(V, pad_multiple) - V",
  "Pads the old vocabulary, ignoring the n_new tokens that now own rows.",
  ("new tokens", "n_new", "resized", "n_tok + n_new"), ("subtract",))
W(L12, "padding_rows", "S", False,
  "padding_rows = padded_size(max(V, n_tok + n_new), pad_multiple)",
  "Gives the padded size, not the rows that belong to no token.",
  ("no token", "minus", "subtract", "beyond"), ("n_new",))
W(L12, "padding_rows", "M", False,
  "padding_rows = padded_size(n_new, pad_multiple) - n_new   # pad the added block",
  "Pads the block of new rows on its own instead of rounding the whole resized table up.",
  ("whole table", "resized table", "all rows", "n_tok + n_new", "max(V"), ("padded size",))
W(L12, "p_new_token", "S", False,
  "p_new_token = 1 / (corpus.vocab_size + n_new)",
  "Assumes a uniform distribution instead of computing the resized model's softmax.",
  ("logits", "softmax", "compute", "resize_tinylm", "uniform"), ("normalis",))
W(L12, "p_new_token", "M", False,
  "grown = resize_tinylm(run.model, n_new, \"mean\")\n"
  "p_new_token = float(np.exp(grown.logits(context))[0][corpus.vocab_size])",
  "Exponentiates the logit without normalising by the softmax's sum.",
  ("softmax", "normalis", "normaliz", "sum to 1", "log_softmax"), ("uniform", "mean"))
W(L12, "p_new_token", "A", False,
  "grown = resize_tinylm(run.model, n_new, \"zeros\")   # new embeddings start at zero\n"
  "p_new_token = float(np.exp(log_softmax(grown.logits(context)))[0][corpus.vocab_size])",
  "Initialises the new rows with zeros (a common default) instead of the mean the question asks for.",
  ("mean", "init", "\"mean\"", "initialis"), ("softmax",))
W(L12, "kl_mean", "S", False,
  "grown = resize_tinylm(run.model, n_new, \"mean\")\n"
  "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).mean() / np.log(2))   # in bits",
  "Converts the KL to bits (log base 2); kl_divergence gives nats, the natural log, as the lesson uses.",
  ("nats", "natural log", "log base", "bits", "log 2"), ("sum", "logits"))
W(L12, "kl_mean", "M", False,
  "grown = resize_tinylm(run.model, n_new, \"mean\")\n"
  "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).sum())",
  "Sums over the positions instead of taking the mean.",
  ("mean", "average", "positions"), ("direction",))
W(L12, "kl_mean", "H", False,
  "grown = resize_tinylm(run.model, n_new, \"mean\")\n"
  "old_p = np.exp(log_softmax(run.model.logits(contexts)))\nnew_p = np.exp(log_softmax(grown.logits(contexts)))\n"
  "kl_mean = float(kl_divergence(old_p, new_p).mean())",
  "Passes probabilities to kl_divergence, which takes logits and applies the softmax itself.",
  ("logits", "softmax", "probabilities", "twice"), ("direction",))
W(L12, "trimmed_rows", "S", False,
  "trimmed_rows = len(used) + 256 + 1",
  "Adds the three counts, double-counting byte tokens that are already in `used`.",
  ("union", "overlap", "twice", "set", "already"), ("end-of-text",))
W(L12, "trimmed_rows", "H", False,
  "trimmed_rows = len(used)",
  "Keeps only the words' tokens, leaving out the 256 bytes and the end-of-text token.",
  ("256", "byte", "end-of-text", "eot"), ("union",))
W(L12, "trimmed_rows", "M", False,
  "trimmed_rows = len(used | set(range(256)))",
  "Forgets the end-of-text token.",
  ("eot", "end-of-text", "eot_token"), ("union", "256"))
W(L12, "saved_params", "A", False,
  "saved_params = 2 * (tok.n_vocab - n_keep) * d_trim   # table and head",
  "Counts the head too, though it is tied to the table.",
  ("tied", "once", "trim_tied"), ("n_keep",))
W(L12, "saved_params", "S", False,
  "saved_params = (tok.n_vocab - n_keep) * (1 if trim_tied else 2)",
  "Counts removed rows, not parameters (forgets × d_trim).",
  ("d_trim", "width", "parameters", "× d"), ("tied",))
W(L12, "saved_params", "H", False,
  "saved_params = (tok.n_vocab - trimmed_rows) * d_trim * (1 if trim_tied else 2)",
  "Uses question 5's trimmed_rows instead of n_keep.",
  ("n_keep", "separate example", "question 5"), ("tied",))
W(L12, "saved_params", "M", False,
  "saved_params = (50_000 - n_keep) * d_trim * (1 if trim_tied else 2)   # GPT-2's 50k vocabulary",
  "Uses a rounded 50,000 for the vocabulary instead of tok.n_vocab.",
  ("n_vocab", "vocab", "50257", "50,257"), ("tied",))
W(L12, "coverage", "S", False,
  "kept = used | set(range(256)) | {tok.eot_token}\n"
  "coverage = float(np.mean([set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words]))",
  "Takes the unweighted share of words instead of weighting each by its frequency.",
  ("weighted", "frequency", "occurrences", "weights"), ("token",))
W(L12, "coverage", "M", False,
  "kept = used | set(range(256)) | {tok.eot_token}\n"
  "ids = [i for w in next_words for i in tok.encode_ordinary(' ' + w)]\n"
  "coverage = float(np.mean([i in kept for i in ids]))",
  "Measures the share of tokens kept instead of the frequency-weighted share of words encoded with kept tokens only.",
  ("word", "whole word", "every token", "occurrences", "weighted"), ("unweighted",))
W(L12, "coverage", "H", False,
  "covered = np.array([set(tok.encode_ordinary(' ' + w)) <= used for w in next_words])\n"
  "weights = np.array([frequencies[w] for w in next_words])\ncoverage = float(weights @ covered / weights.sum())",
  "Checks against `used` alone, forgetting the 256 byte tokens and the end-of-text token that are kept too.",
  ("256", "byte", "kept", "end-of-text"), ("weighted",))

# ----------------------------------------------------------------------------- two mistakes at once (HARD)
W(L1, "E", "M", True,
  "E = np.array([[int(f in traits[w]) for w in words] for f in sorted(features)])",
  "Two mistakes: builds the transpose (one row per feature) and sorts the features alphabetically.",
  ("transpose", "one row per word", "shape", "order of the features", "sorted"), ())
W(L1, "n_params", "S", True,
  "n_params = int(np.count_nonzero(E)) + len(features)",
  "Two mistakes: counts only the nonzero entries and adds a bias per feature.",
  ("every entry", "zeros", "nonzero", "bias", "all entries"), ())
W(L1, "cosine", "A", True,
  "def cosine(a, b):\n    return float(1 - a @ b / ((a @ a) * (b @ b)))",
  "Two mistakes: returns a distance (1 − similarity) and divides by squared norms.",
  ("distance", "1 -", "similarity", "square root", "norm"), ("correlation",))
W(L1, "extra_dim_cost", "H", True,
  "shape = model_shape(load_config(model))\n"
  "extra_dim_cost = 2 * shape.vocab_size * (shape.hidden_size + extra_features)",
  "Two mistakes: gives the widened size instead of the gain, and counts it twice for a tied head.",
  ("gain", "difference", "subtract", "twice", "tied", "once"), ())
W(L1, "model_table", "A", True,
  "model_table = 50_000 * 768 + 1024 * 768   # GPT-2 small, tokens and positions",
  "Two mistakes: a rounded vocabulary of 50,000 typed from memory and the position table added.",
  ("vocab_size", "config", "50,257", "position", "token table"), ())
W(L2, "one_hot", "S", True,
  "def one_hot(ids, V):\n    cats = np.unique(ids)\n    return np.eye(len(cats))[np.searchsorted(cats, ids)].T",
  "Two mistakes: one column per seen id instead of V, and the result transposed.",
  ("shape", "transpose", "V columns", "(len(ids), V)"), ())
W(L2, "embedding_backward", "H", True,
  "def embedding_backward(ids, grad_out, V):\n    g = np.zeros((V, grad_out.shape[1]))\n"
  "    g[ids] += grad_out\n    return g.T",
  "Two mistakes: buffered fancy-index `+=` loses repeated ids, and the result is transposed.",
  ("add.at", "repeat", "buffered", "transpose", "shape"), ())
W(L2, "batch_flops", "A", True,
  "batch_flops = d * n_tokens   # one multiply-add per token and feature",
  "Two mistakes: counts only the nonzero product of each one-hot row and one FLOP per multiply-add.",
  ("2", "zeros", "whole", "dense", "V"), ())
W(L2, "one_hot_batch_bytes", "H", True,
  "one_hot_batch_bytes = n_tokens * V * 8 / 2**20",
  "Two mistakes: 8 bytes per number (float64) instead of `precision`'s, and MiB instead of bytes.",
  ("float32", "itemsize", "precision", "bytes", "MiB"), ())
W(L2, "updated_rows", "H", True,
  "updated_rows = np.unique(batch[0][:-1])",
  "Two mistakes: only the first sequence, and its last id dropped as a target.",
  ("every id", "batch", "each sequence", "target", "every sequence"), ())
W(L3, "linear_params", "S", True,
  "linear_params = linear_in * linear_out / 1e6",
  "Two mistakes: no bias, and millions as a float.",
  ("bias", "int", "million", "whole number"), ())
W(L3, "block_params", "M", True,
  "block_params = 12 * d**2 + 2 * d   # plus a LayerNorm",
  "Two mistakes: no linear biases and one LayerNorm instead of two.",
  ("bias", "layernorm", "two layernorm"), ())
W(L3, "interview", "H", True,
  "interview = 2 * interview_V * interview_d + 1024 * interview_d",
  "Two mistakes: counts the tied table twice and adds a position table.",
  ("tied", "once", "twice", "position"), ())
W(L3, "embedding_share", "A", True,
  "counts = count_params(load_config(share_model))\n"
  "embedding_share = (2 * counts.token_embedding + counts.position_embedding) / counts.total",
  "Two mistakes: counts the tied table twice and adds the position table.",
  ("tied", "once", "twice", "position", "only E"), ())
W(L3, "estimate_gap", "S", True,
  "estimate_gap = (V * d + 12 * d**2) - exact",
  "Two mistakes: subtracts the wrong way round and leaves L out of 12·L·d².",
  ("sign", "exact − estimate", "L", "layers", "negative"), ())
W(L3, "gpt2_params", "A", True,
  "def gpt2_params(V, d, L, T):\n    return 2 * V * d + T * d + L * (12 * d * d + 13 * d)",
  "Two mistakes: an untied head and no final LayerNorm.",
  ("tied", "head", "final", "layernorm"), ())
W(L4, "attn_layer", "A", True,
  "attn_layer = 4 * d * d + 4 * d   # q, k, v, o with biases",
  "Two mistakes: full multi-head attention ignoring h_kv, and biases the model does not have.",
  ("h_kv", "grouped", "key/value", "bias"), ())
W(L4, "mlp_layer", "H", True,
  "mlp_layer = 2 * d * d_ff + d_ff + d",
  "Two mistakes: two matrices instead of SwiGLU's three, and biases it does not have.",
  ("three", "gate", "swiglu", "bias"), ())
W(L4, "vocab_share", "S", True,
  "c = count_params(load_config(share_model))\nvocab_share = 100 * c.token_embedding / c.total",
  "Two mistakes: leaves the untied head out and gives a percentage.",
  ("head", "lm_head", "untied", "percent", "fraction"), ())
W(L4, "padding_params", "H", True,
  "padding_params = V - V // pad_multiple * pad_multiple",
  "Two mistakes: rounds down (the remainder) and forgets to multiply the rows by d.",
  ("round up", "next multiple", "d", "width"), ())
W(L4, "llama_params", "H", True,
  "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    hd = d // h\n"
  "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + d\n"
  "    return V * d + L * layer + (0 if tied else V * d)",
  "Two mistakes: one RMSNorm per layer instead of two, and no final RMSNorm.",
  ("norm", "final", "two rmsnorm", "2·d"), ())
W(L5, "tied_count", "S", True,
  "tied_count = untied - 2 * 32000 * d",
  "Two mistakes: a remembered 32,000 vocabulary and both the table and head removed.",
  ("vocab", "V", "once", "one table", "only the head"), ())
W(L5, "grad_E", "A", True,
  "grad_E = np.zeros((V, d))\ngrad_E[ids] += dx0",
  "Two mistakes: leaves out the head's gradient and loses the repeated id with buffered `+=`.",
  ("head", "dlogits", "both", "add.at", "repeat"), ())
W(L5, "state_dict_sum", "A", False,
  "state_dict_sum = count_params(load_config(tied_model)).total + 50_000 * 768",
  "Adds the second copy of the table with a rounded 50,000-token vocabulary instead of the model's V.",
  ("vocab_size", "50,257", "config", "V"), ("twice",))
W(L6, "head_flops", "H", True,
  "head_flops = d * V * 1024",
  "Two mistakes: one FLOP per weight and a whole 1024-token context instead of one position.",
  ("2", "two", "one position", "per position"), ())
W(L6, "kaplan_n", "S", True,
  "kaplan_n = (counts.total - counts.token_embedding - counts.position_embedding) / 1e9",
  "Two mistakes: keeps the untied head and reports billions as a float.",
  ("head", "lm_head", "untied", "int", "billion"), ())
W(L6, "head_share_training", "A", True,
  "head_share_training = c.head / (c.input + c.blocks)",
  "Two mistakes: leaves attention and the head itself out of the denominator.",
  ("attention", "total", "denominator", "T(T+1)/2"), ())
W(L6, "head_share_prompt", "A", True,
  "head_share_prompt = T * c.head / (T * (c.input + c.blocks) + c.head)",
  "Two mistakes: T·head in the numerator though the head runs once, and no attention in the total.",
  ("once", "numerator", "attention", "keys"), ())
W(L6, "forward_flops_per_token", "H", True,
  "def forward_flops_per_token(V, d, L, d_ff, context):\n"
  "    return L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d",
  "Two mistakes: one FLOP per weight on the matrices and no head.",
  ("2 FLOPs", "two", "per weight", "head", "d × V"), ())
W(L6, "flop_rate", "H", True,
  "flop_rate = 2 * N * D / GPU_HOURS",
  "Two mistakes: forward-only 2·N·D and GPU hours instead of seconds.",
  ("6", "backward", "3600", "seconds"), ())
W(L6, "active_params", "M", True,
  "active_params = counts.total - moe_layers * k * 2 * d * d_ff",
  "Two mistakes: takes away the k used experts instead of the skipped ones, and counts an expert as two matrices.",
  ("skips", "n_experts − k", "three", "gate"), ())
W(L7, "weights_gb_4bit", "H", True,
  "weights_gb_4bit = N * 4 / 2**30",
  "Two mistakes: 4 bytes per parameter instead of half a byte, and GiB instead of GB.",
  ("half", "0.5", "bits", "GB", "10⁹"), ())
W(L7, "adam_parts", "A", True,
  "adam_parts = np.array([4, 4, 4, 4]) * n_params",
  "Two mistakes: fp32 working weights and gradients, and one Adam moment instead of two.",
  ("fp16", "2 bytes", "m and v", "two moments"), ())
W(L7, "kv_bytes_per_token", "A", True,
  "kv_bytes_per_token = int(L * h * head_dim * BYTES_PER_PARAM[cache_precision])",
  "Two mistakes: query heads h instead of h_kv, and no factor 2 for keys and values.",
  ("h_kv", "key/value heads", "keys and values", "2"), ())
W(L7, "gqa_saving_gib", "H", True,
  "b = BYTES_PER_PARAM[cache_precision]\ngqa_saving_gib = 2 * L * h * head_dim * b * context / 1e9",
  "Two mistakes: the full cache instead of the saving, and GB instead of GiB.",
  ("saving", "difference", "GiB", "2³⁰"), ())
W(L7, "kv_cache_gb", "A", True,
  "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
  "    return L * h_kv * head_dim * bytes_per_number * context / 1e9",
  "Two mistakes: no factor 2 for keys and values, and the batch left out.",
  ("keys and values", "2", "batch"), ())
W(L7, "max_batch", "H", True,
  "max_batch = int(gpu_gb * 2**30 // per_sequence)",
  "Two mistakes: forgets the weights and takes the GPU as GiB.",
  ("weights", "10⁹", "GB", "exactly"), ())
W(L8, "embedding_params", "S", True,
  "embedding_params = 2 * V_small * d",
  "Two mistakes: V_small instead of V_big, and the tied head counted again.",
  ("V_big", "tied", "once"), ())
W(L8, "embedding_share", "A", True,
  "embedding_share = 2 * table / rest",
  "Two mistakes: the tied table counted twice and divided by the rest instead of the whole.",
  ("tied", "once", "whole", "total", "denominator"), ())
W(L8, "extra_head_flops", "H", True,
  "extra_head_flops = d * V_big",
  "Two mistakes: the big head's cost instead of the difference, at one FLOP per weight.",
  ("more", "difference", "minus", "2", "V_small"), ())
W(L8, "break_even_r", "A", True,
  "break_even_r = (blocks + d * V_big) / (blocks + d * V_small)",
  "Two mistakes: the ratio inverted and the head priced at d·V.",
  ("invert", "reciprocal", "2·d·V", "2"), ())
W(L8, "hindi_r", "A", True,
  "per = lambda t: np.mean([len(t.encode_ordinary(' ' + w)) for w in hindi])\nhindi_r = per(gpt2) / per(cl100k)",
  "Two mistakes: unweighted by the counts, and the ratio inverted.",
  ("weighted", "counts", "invert", "reciprocal"), ())
W(L8, "hindi_single_token_share", "A", True,
  "top = list(other)[:n_top]\nhindi_single_token_share = 100 * sum(bpe.count_tokens(w) == 1 for w in top) / len(top)",
  "Two mistakes: audits the partner language's words, and gives a percentage.",
  ("hindi", "top_hindi", "percent", "fraction"), ())
W(L9, "n_params", "H", True,
  "n_params = V * d + d * d + d",
  "Two mistakes: W is d × d instead of 2d × d, and the output matrix U left out.",
  ("2d", "two context", "side by side", "untied", "U"), ())
W(L9, "n_params", "A", True,
  "n_params = V * d + (2 * d) * d   # E and W; the head reuses E",
  "Two mistakes: no bias b, and U taken as tied to E.",
  ("bias", "untied", "U", "own"), ())
W(L9, "gap", "A", True,
  "G = E @ E.T\nwithin = np.concatenate([G[np.ix_(g, g)].ravel() for g in (animals, vehicles)])\n"
  "gap = within.mean() - G[np.ix_(animals, vehicles)].mean()",
  "Two mistakes: dot products instead of cosines, and the diagonal (self pairs) in the within mean.",
  ("cosine", "norm", "diagonal", "different", "itself"), ())
W(L9, "cos_cat", "A", True,
  "Z = E / np.linalg.norm(E, axis=0)\ncos_cat = Z[vehicles + animals] @ Z[cat]",
  "Two mistakes: columns normalised instead of rows, and vehicles before animals.",
  ("axis", "rows", "order", "animals + vehicles"), ())
W(L9, "embedding_grad", "A", True,
  "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
  "    dE[contexts[:, 0]] += dx0[:, 0]\n    return dE",
  "Two mistakes: only the first slot, scattered with buffered `+=`.",
  ("slot", "every slot", "add.at", "repeat"), ())
W(L9, "tinylm_grads", "H", True,
  "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
  "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
  "    p = np.exp(logits - logits.max(axis=1, keepdims=True)); p /= p.sum(axis=1, keepdims=True)\n"
  "    dl = p.copy(); dl[np.arange(B), targets] -= 1.0\n"
  "    dU = dl.T @ x\n    dx0 = ((dl @ U) * (1 - x**2) @ W.T).reshape(B, C, -1)\n"
  "    dE = np.zeros_like(E); dE[contexts] += dx0\n    return dE, dU",
  "Two mistakes: the summed loss (no division by B) and buffered `+=` for dE.",
  ("mean", "B", "divide", "add.at", "repeat"), ())
W(L10, "padding_rows", "H", True,
  "padding_rows = 2 ** int(np.ceil(np.log2(V)))",
  "Two mistakes: pads to a power of two and gives the padded size, not the rows beyond V.",
  ("multiple", "pad_multiple", "subtract", "minus V"), ())
W(L10, "unused_score", "H", True,
  "def unused_score(M, reference_ids):\n    mean = M.mean(axis=0)\n    return M @ mean / np.linalg.norm(M, axis=1)",
  "Two mistakes: the mean of every row instead of the reference rows, and no division by the mean's norm.",
  ("reference", "norm", "cosine", "normalis"), ())
W(L10, "never_cos", "A", True,
  "rows = run.model.E[list(corpus.groups[\"reserved\"])]\n"
  "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\nnever_cos = (unit @ unit.T).mean()",
  "Two mistakes: the reserved rows only (no glitch word), and the diagonal included.",
  ("never", "glitch", "diagonal", "different"), ())
W(L10, "top7", "H", False,
  "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
  "top7 = np.argsort(-scores, kind=\"stable\")[4:11]   # the 4 reference rows rank first",
  "Slices off the first four ranked rows, assuming they are the reference rows, instead of removing the reference ids.",
  ("reference", "ids", "remove", "leave out", "not the top four"), ("highest first",))
W(L10, "partial_tokens", "S", True,
  "partial_tokens = sum(1 for b in ordinary if len(b) == 1 and b[0] >= 0xC0)",
  "Two mistakes: only single-byte tokens, and only lead bytes from 0xC0 (continuation bytes 0x80–0xBF missed).",
  ("merged", "continuation", "multi-byte", "decode", "0x80"), ())
W(L11, "design", "H", True,
  "design = llama_config(16000, 1024, 12, 8, 2, 4096, True)",
  "Two mistakes: a vocabulary below min_vocab_size and heads 128 wide instead of head_dim.",
  ("vocabulary", "min_vocab_size", "head_dim", "head width"), ())
W(L11, "design_params", "H", True,
  "design_params = count_params(design).non_embedding / 1e6",
  "Two mistakes: the non-embedding count instead of every parameter, in millions as a float.",
  ("every parameter", "total", "int", "million", "embedding"), ())
W(L11, "design_serving_gb", "M", True,
  "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
  "                                   batch=BUDGET.batch, kv=BUDGET.kv)[\"weights\"] / 2**30",
  "Two mistakes: the weights only (no KV cache), in GiB.",
  ("cache", "KV", "total", "GB", "GiB"), ())
W(L11, "design_train_flops", "A", True,
  "design_train_flops = 6 * count_params(design).total * T_train",
  "Two mistakes: 6·N·D instead of training_flops, and one sequence instead of all of them.",
  ("training_flops", "sequences", "train_tokens", "number of sequences"), ())
W(L11, "other_tying_params", "S", True,
  "other_tying_params = design_params - 2 * design[\"vocab_size\"] * design[\"hidden_size\"]",
  "Two mistakes: subtracts instead of adding, and two tables instead of one.",
  ("adds", "untied", "flip", "one", "V × d"), ())
W(L11, "defence", "M", True,
  "defence = \"\"\"\nWhich budget binds, and by how much:\n{tightest_budget} binds.\n\n"
  "Why this width and depth:\n\nWhat the tying choice costs:\nIt saves {design_params:,} parameters.\n\"\"\"",
  "Two mistakes: no f before the string (braces unfilled) and an empty heading.",
  ("brace", "f-string", "f prefix", "heading", "empty"), ())
W(L12, "added_params", "H", True,
  "added_params = 2 * (n_tok + n_new) * d",
  "Two mistakes: the whole resized table instead of the gain, counted twice though the head is tied.",
  ("gain", "difference", "added", "tied", "once"), ())
W(L12, "padding_rows", "A", True,
  "padding_rows = padded_size(V, pad_multiple) - V + n_new",
  "Two mistakes: pads the old V (ignoring the new tokens) and then counts the new tokens' rows as padding too.",
  ("n_new", "new tokens", "own rows", "belong", "n_tok + n_new"), ())
W(L12, "p_new_token", "H", True,
  "grown = resize_tinylm(run.model, n_new, \"zeros\")\n"
  "p_new_token = float(np.exp(grown.logits(context))[0][corpus.vocab_size])",
  "Two mistakes: zero-initialised rows instead of the mean, and the logit exponentiated without the softmax's sum.",
  ("mean", "init", "softmax", "normalis"), ())
W(L12, "kl_mean", "A", True,
  "grown = resize_tinylm(run.model, n_new, \"mean\")\n"
  "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).sum() / np.log(2))",
  "Two mistakes: the sum over positions instead of the mean, converted to bits.",
  ("mean", "average", "nats", "bits", "log base"), ())
W(L12, "trimmed_rows", "A", True,
  "trimmed_rows = len(used) + 256",
  "Two mistakes: adds 256 without the union (bytes already in `used` counted twice) and forgets the end-of-text token.",
  ("union", "overlap", "set", "eot", "end-of-text"), ())
W(L12, "saved_params", "H", True,
  "saved_params = 2 * (tok.n_vocab - n_keep)",
  "Two mistakes: removed rows without × d_trim, and doubled though the head is tied.",
  ("d_trim", "width", "tied", "once"), ())
W(L12, "coverage", "A", True,
  "coverage = float(np.mean([set(tok.encode_ordinary(' ' + w)) <= used for w in next_words]))",
  "Two mistakes: unweighted share of words, and only `used` kept (no byte tokens, no end-of-text).",
  ("weighted", "frequency", "256", "byte", "kept"), ())

ENTRIES = [r[0] for r in _ROWS]
STYLES = [r[1] for r in _ROWS]
HARD = [r[2] for r in _ROWS]
