"""Held-out corpus 16: plausible wrong answers to the 12 exercises, written blind (helper "blind16").

Lab notebook
------------
Who: helper "blind16", on branch blind16 (worktree /work/wt-blind16), from main at bdea087.
When: started Mon Dec 7 14:42 UTC 2026 (`date -u`), entries verified 14:54 UTC, committed after.

What I read: /work/notes/RULES.md and my brief; the exercise notebooks exercises/*.ipynb (question
texts, parameter cells, the given lines of each answer cell); the answer cells of solutions/*.ipynb;
the code cells of lessons 01 and 02 (notebooks/; lessons 03-12 not read, for time: their values
that copy-adapters leave behind are the ones the exercise texts quote, e.g. lesson 08 section 7's
GPT-2/cl100k pair and its number-shape filter, or lesson 02's ids and GPT-2 constants); tests/hint_corpus/__init__.py (the Wrong record)
and tests/hint_corpus/check_wrong.py; signatures and docstrings of public embedlab functions
(serving_memory, training_flops, resize_tinylm and embedlab/resize.py's INITS, llama_config,
kl_divergence, one_hot_bytes, matmul_flops, estimate_params) and calls to count_params, token_costs,
model_shape, over_budget, deepest_fit, headroom, design_figures on the book's inputs.

What I never opened: lib/embedlab/grading/ (no file), lib/embedlab/grade.py, tests/test_*.py, any
corpus module of tests/hint_corpus/ other than __init__.py and check_wrong.py (learners.py,
heldout*.py, coincidences.py, right_answers.py, run_right.py: never opened, grepped, imported or run),
the `issues` command, other commits (`git log`/`git show`), /work/shared/COURSE.md (not needed).
No ex.check, no grader, no embedlab-grade, no hint printed.

Slips (two, both directory listings, no file contents seen):
- my first command was `cat brief; ls /work/notes/s6/`, which listed the file names of that folder
  (brief_blind16.md and three brief_newcomer*.md); none of them was opened.
- setting up, `ls ... tests/hint_corpus` listed the names of the corpus modules in that folder
  (learners.py, heldout*.py, coincidences.py, right_answers.py, run_right.py); none was opened.
Neither told me anything about how the hints work.

Shape: ENTRIES (Wrong records), and STYLES and HARD, lists parallel to ENTRIES.
STYLES: "E" engineer/physicist (units, SI prefixes, 10**9 vs 2**30, bits vs bytes, rounding early,
a dropped factor); "C" copy-adapter (a lesson cell or an earlier answer copied with one value, name
or parameter left behind, or one occurrence adapted and the other not); "R" misreader (answers a
neighbouring question: per layer vs total, one token vs a batch, the untied case, the other model,
count vs share, rows vs parameters); "J" JavaScript/general programmer new to numpy (integer
division, lists vs arrays, axes, sort/argsort, buffered fancy-index +=, off-by-one slices and ranges,
operator precedence, ^ for a power). HARD True: two mistakes at once, or a value that coincides with
another quantity on the book's inputs, or a function right on some of the inputs (the example, the
released sizes) and wrong on others.

Counts: 265 entries, every question of every exercise at least once (lesson 11's design and
defence included); 65 HARD (24.5 %); styles R 73, C 69, J 62, E 61.

    lesson                 entries  styles                    hard   questions covered
    01-toy-table              19  E  4  C  6  R  4  J  5  hard  5  questions 7
    02-lookup-vs-matmul       25  E  4  C  7  R  6  J  8  hard  5  questions 8
    03-counting-gpt2          18  E  5  C  5  R  6  J  2  hard  4  questions 6
    04-modern-blocks          19  E  4  C  6  R  6  J  3  hard  5  questions 5
    05-weight-tying           19  E  4  C  4  R  5  J  6  hard  5  questions 5
    06-params-vs-compute      27  E 10  C  7  R  8  J  2  hard  7  questions 8
    07-memory                 26  E  9  C  6  R  7  J  4  hard  6  questions 6
    08-vocabulary-size        24  E  5  C  5  R  6  J  8  hard  5  questions 8
    09-what-rows-learn        21  E  4  C  5  R  5  J  7  hard  4  questions 6
    10-glitch-tokens          20  E  3  C  4  R  7  J  6  hard  5  questions 6
    11-size-a-model           22  E  5  C  7  R  6  J  4  hard  6  questions 7
    12-change-a-vocabulary    25  E  4  C  7  R  7  J  7  hard  8  questions 7

Verification: `cd tests && nice ../.venv/bin/python -m hint_corpus.check_wrong heldout16 --same`
prints problems: 0 and no "same value" line (every entry provably wrong on the book's parameters;
no two entries of one question compute the same value).

Dropped or rewritten while verifying (first run: 2 problems, 3 same-value pairs):
- count_unique `int(sum(set(sizes.tolist())))` (dedupe by size, not storage): judged CORRECT,
  since every input of check_wrong gives distinct storages distinct sizes. Dropped. A first
  replacement, summing the first len(unique(storage)) sizes, was also CORRECT on all 5 inputs;
  replaced by a loop one entry short (range(len(storage) - 1)), HARD: right on the example.
- kl_mean with the arguments swapped (new to old): kl_divergence raises when the first logits have
  more columns; replaced by a misreader who measures on the training corpus instead of `ordinary`.
- lesson 01 n_params `int(E.sum())` (the number of 1s, 6) equalled the copy-adapter's lesson
  V·d = 3·2 = 6; the misreader now counts rows only (len(E)); the copy-adapter keeps 6, HARD.
- lesson 06 active_params: total − k·3·d·d_ff (the used experts taken away) equalled the engineer's
  total − (n_experts − k)·d·d_ff (factor 3 dropped), as 2·3 = 6·1 for Mixtral; replaced by a
  misreader who takes away one layer's skipped experts.
- lesson 10 padding_rows rounding V/64 to the nearest multiple gave the same −17 as rounding down;
  replaced by the remainder V % 64 (17).
- second pass: never_cos with the rows cast to float16 was within 1e-5 (CORRECT): replaced by the
  mean angle in degrees; batch_flops matmul_flops(V, d, 512) equalled V·d·n_tokens (the engineer's
  missing factor 2, since n_tokens = 2·512): now the lesson's GPT-2 V is left behind instead;
  ties candidates[0] equalled the misreader's untied_model: now a copied filter on vocab_size
  (mistral-7b); hindi_single_token_share as a percentage equalled the count (n_top = 100): now
  rounded to one decimal.
- to even the styles I dropped five misreader entries from lessons 08, 10 and 12 (vocabulary V_small
  for the table, the partner language's words, the tokens that do decode, the padded table's size,
  the rows trimmed instead of the parameters), and marked HARD seven entries whose value coincides
  with another quantity (see their mistake sentences).
- word lists tightened: single letters and digits ("d", "V", "2", "T", ...) and words any hint
  would use ("total", "table", "both", "model") taken out of `words`; wrong_words that a correct
  hint for the real mistake could plausibly contain (formula terms such as "attention", "× d",
  "GiB" in a GB question's neighbour) removed, leaving only phrases that name a mistake not made.
"""

from hint_corpus import Wrong


ENTRIES, STYLES, HARD = [], [], []


def _w(style, hard, lesson, name, source, mistake, words, wrong_words=()):
    ENTRIES.append(Wrong(lesson, name, source, mistake, tuple(words), tuple(wrong_words)))
    STYLES.append(style)
    HARD.append(hard)


# ----------------------------------------------------------------------------- 01 toy table
L01 = "01-toy-table"
_w("J", False, L01, "E",
   "E = np.array([[int(f in traits[w]) for w in words] for f in features])\n",
   "Builds the table with one row per feature and one column per word: the transpose of E.",
   ("transpos", "one row per word", "rows and columns", "shape"),
   ("order of the features", "missing a feature", "dtype"))
_w("J", False, L01, "E",
   "E = np.array([[int(f in traits[w]) for f in sorted(features)] for w in words])\n",
   "Sorts the features alphabetically, so the columns are not in the order of `features`.",
   ("order", "column", "sorted", "features in"),
   ("transpos", "one row per word"))
_w("R", False, L01, "n_params",
   "n_params = len(E)\n",
   "Counts the rows (the words) only: every word has one parameter per feature.",
   ("columns", "features", "V × d", "every entry", "rows times columns", "size"),
   ("bias", "position"))
_w("C", True, L01, "n_params",
   "V, d = 3, 2   # from the lesson's table\nn_params = V * d\n",
   "Copies the lesson's V = 3, d = 2 instead of reading the shape of this exercise's table (6, which on "
   "the book's table is also the number of 1s in it).",
   ("shape", "len(words)", "your table", "E.shape", "4 × 3", "features"),
   ("bias", "zeros"))
_w("J", False, L01, "batch",
   "ids = [word_to_id[w] for w in sentence]\nbatch = table[ids[1:]]\n",
   "Slices off the first id (an off-by-one slice), so the first word of the sentence has no row.",
   ("every word", "one row per word", "missing", "first word", "slice"),
   ("transpos",))
_w("J", True, L01, "batch",
   "batch = table[np.unique([word_to_id[w] for w in sentence])]\n",
   "Two at once: np.unique drops the repeated 'horse' and also sorts the ids, so the rows are neither "
   "one per word nor in sentence order.",
   ("repeat", "twice", "horse", "order", "every word", "unique", "one row per word"),
   ("transpos", "columns"))
_w("R", False, L01, "batch",
   "batch = np.array([word_to_id[w] for w in sentence])\n",
   "Returns the ids of the sentence, not the rows those ids select from the table.",
   ("index the table", "look up", "table[", "ids are not"),
   ("repeat",))
_w("J", False, L01, "cosine",
   "def cosine(a, b):\n    return float(a @ b / np.linalg.norm(a) * np.linalg.norm(b))\n",
   "Operator precedence: divides by the norm of a, then multiplies by the norm of b.",
   ("parenthes", "precedence", "product of the norms", "divide by both", "multipl"),
   ("round", "integer division"))
_w("E", False, L01, "cosine",
   "def cosine(a, b):\n    return round(float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))), 4)\n",
   "Rounds the cosine to 4 significant decimals, as one would on a lab sheet; the check wants it exact.",
   ("round", "exact", "digits", "precision", "decimal"),
   ("parenthes", "norm of b"))
_w("C", True, L01, "cosine",
   "def cosine(a, b):\n    return float((a * b).sum() / (np.linalg.norm(a) * np.linalg.norm(a)))\n",
   "Adapts the norm product but leaves `a` in both places: divides by |a|² instead of |a|·|b| "
   "(right whenever the two vectors have the same length).",
   ("norm of b", "both vectors", "|b|", "each vector", "b's norm", "length of b"),
   ("round", "precedence"))
_w("C", False, L01, "cos_pair",
   "cos_pair = cosine_similarity(table[word_to_id['cat']], table[word_to_id['dog']])\n",
   "Copies the lesson's cos(cat, dog) and leaves its two words behind instead of the words in `pair`.",
   ("pair", "horse", "the two words", "pair[0]"),
   ("round", "your E"))
_w("E", False, L01, "cos_pair",
   "cos_pair = 0.707   # 1/sqrt(2), to three significant figures\n",
   "Types the value rounded to three significant figures instead of computing it.",
   ("exact", "round", "compute it", "in code", "digits", "typed"),
   ("pair", "horse"))
_w("R", False, L01, "model_table",
   "from embedlab import count_params\nmodel_table = count_params(load_config(model)).total\n",
   "Counts the whole model's parameters instead of only its token embedding table.",
   ("token table", "embedding table", "V × d", "only the table", "vocab_size * hidden_size"),
   ("position", "tied"))
_w("E", False, L01, "model_table",
   "shape = model_shape(load_config(model))\nmodel_table = round(shape.vocab_size * shape.hidden_size / 1e6)\n",
   "Gives the count in millions (rounded), as a physicist quotes a magnitude, not the whole number.",
   ("million", "whole count", "units", "1e6", "exact", "not rounded"),
   ("position", "tied"))
_w("R", False, L01, "extra_dim_cost",
   "shape = model_shape(load_config(model))\nV, d = shape.vocab_size, shape.hidden_size\n"
   "extra_dim_cost = extra_features * d\n",
   "Prices `extra_features` new tokens (rows of d) instead of new features (columns of V).",
   ("column", "every token", "V ×", "one per token", "each of the V"),
   ("bias", "subtract"))
_w("C", False, L01, "extra_dim_cost",
   "shape = model_shape(load_config(model))\nV, d = shape.vocab_size, shape.hidden_size\n"
   "extra_dim_cost = V * 1   # the lesson's growth(): a new dimension costs V\n",
   "Copies the lesson's one-new-column cost and forgets to multiply by `extra_features`.",
   ("extra_features", "each feature", "times", "per feature"),
   ())
_w("E", True, L01, "extra_dim_cost",
   "shape = model_shape(load_config(model))\n"
   "extra_dim_cost = round(shape.vocab_size * (shape.hidden_size + extra_features), -3)\n",
   "Two at once: gives the size of the whole grown table (total, not the gain) and rounds it to thousands.",
   ("gain", "difference", "subtract", "only the added", "increase", "minus"),
   ("per token",))

# ----------------------------------------------------------------------------- 02 lookup vs matmul
L02 = "02-lookup-vs-matmul"
_w("J", False, L02, "one_hot",
   "def one_hot(ids, V):\n    return np.eye(V)[ids].T\n",
   "Transposes the result: shape (V, len(ids)), one column per id instead of one row.",
   ("shape", "transpos", "one row per id", "(len(ids), V)", "row t"),
   ("every row gets", "max"))
_w("J", False, L02, "one_hot",
   "def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n    out[:, ids] = 1\n    return out\n",
   "Indexes columns with `:` for the rows, so every row gets a 1 in every column of the batch.",
   ("each row", "row t", "np.arange", "pair", "every row gets", "one 1 per row", "single 1"),
   ("transpos", "V columns"))
_w("J", True, L02, "one_hot",
   "def one_hot(ids, V):\n    ids = np.asarray(ids)\n    out = np.zeros((len(ids), ids.max() + 1))\n"
   "    out[np.arange(len(ids)), ids] = 1\n    return out\n",
   "Sizes the columns by the largest id instead of V: right only when the batch happens to hold id V − 1.",
   ("V columns", "width V", "max", "vocabulary size", "largest id", "shape"),
   ("transpos", "every row gets"))
_w("J", False, L02, "rows_lookup",
   "rows_lookup = E[sorted(ids)]\n",
   "Sorts the ids before the lookup, so the rows are not in the batch's order.",
   ("order", "sort", "in order", "position"),
   ("repeat", "unique", "transpos"))
_w("R", False, L02, "rows_lookup",
   "rows_lookup = np.array(ids)\n",
   "Returns the ids themselves instead of the rows of E they select.",
   ("E[ids]", "index", "look up", "select"),
   ("order", "sort"))
_w("C", False, L02, "rows_matmul",
   "from embedlab import one_hot\nrows_matmul = one_hot(np.array([1, 2, 0, 1]), table_V) @ E\n",
   "Copies the lesson's cell and leaves its ids [1, 2, 0, 1] behind instead of this exercise's `ids`.",
   ("ids", "the batch", "your ids", "which ids", "lesson's"),
   ("dtype", "float16", "transpos"))
_w("E", False, L02, "rows_matmul",
   "rows_matmul = (np.eye(table_V)[ids] @ E).astype(np.float16)\n",
   "Casts the product to half precision 'to save memory', which rounds every value.",
   ("float16", "precision", "dtype", "round", "float32"),
   ("transpos",))
_w("J", False, L02, "rows_matmul",
   "rows_matmul = (np.eye(table_V)[ids] @ E).T\n",
   "Transposes the product, so the result has one column per id.",
   ("shape", "transpos", "one row per id"),
   ("dtype", "float16"))
_w("R", False, L02, "keeps_sign",
   "keeps_sign = 'both'\n",
   "Takes np.array_equal's True for 'same bits': the matmul adds -0.0 to +0.0 terms and loses the sign.",
   ("sign bit", "signbit", "+0.0", "adds", "matmul"),
   ())
_w("C", False, L02, "keeps_sign",
   "keeps_sign = 'matmul'\n",
   "Swaps the two paths: the lookup copies the bits unchanged, the matmul's sum turns -0.0 into +0.0.",
   ("lookup copies", "copies", "unchanged", "+0.0", "signbit"),
   ())
_w("J", False, L02, "embedding_backward",
   "def embedding_backward(ids, grad_out, V):\n    grad_E = np.zeros((V, grad_out.shape[1]))\n"
   "    grad_E[ids] += grad_out\n    return grad_E\n",
   "Uses buffered `+=` with fancy indexing: a repeated id gets only one of its rows.",
   ("repeat", "add.at", "buffered", "twice", "add up", "once"),
   ("width",))
_w("C", False, L02, "embedding_backward",
   "def embedding_backward(ids, grad_out, V):\n    grad_E = np.zeros((V, 3))   # d_small in the lesson\n"
   "    np.add.at(grad_E, ids, grad_out)\n    return grad_E\n",
   "Copies the lesson's cell with its width d_small = 3 left behind instead of grad_out's width.",
   ("width", "grad_out.shape[1]", "columns", "shape"),
   ("repeat", "buffered"))
_w("R", False, L02, "embedding_backward",
   "def embedding_backward(ids, grad_out, V):\n    return grad_out\n",
   "Returns the gradient per position (shape (len(ids), d)) instead of scattering it into V rows.",
   ("shape (V, d)", "V rows", "scatter", "add.at", "one row per token"),
   ("width", "buffered"))
_w("J", False, L02, "updated_rows",
   "updated_rows = np.unique(batch[0])\n",
   "Takes the ids of the first sequence only (list indexing), not of the whole batch.",
   ("every sequence", "whole batch", "both sequences", "all the sequences", "flatten"),
   ("untied", "duplicate"))
_w("R", False, L02, "updated_rows",
   "updated_rows = np.arange(batch_V)\n",
   "Answers the tied case: every row, though the head is untied and only looked-up rows move.",
   ("untied", "looked up", "only the rows", "ids in the batch", "zero gradient"),
   ("duplicate", "first sequence"))
_w("J", True, L02, "updated_rows",
   "updated_rows = np.sort(np.array(batch).ravel())[1:]\n",
   "Two at once: keeps the repeated ids (sort instead of unique) and slices off the first one.",
   ("once", "duplicate", "unique", "repeat", "each row once"),
   ("untied", "first sequence only"))
_w("E", True, L02, "batch_flops",
   "batch_flops = V * d * n_tokens\n",
   "Counts one FLOP per multiply-add; a multiply and an add are two (the result equals 2·V·d for the "
   "lesson's batch of 512).",
   ("multiply and add", "two FLOPs", "multiply-add", "factor of 2"),
   ("per token",))
_w("R", False, L02, "batch_flops",
   "batch_flops = 2 * V * d\n",
   "Gives the cost of one token, not of the batch of `n_tokens`.",
   ("n_tokens", "whole batch", "every token", "per token", "1024"),
   ("multiply-add", "factor of 2"))
_w("E", True, L02, "batch_flops",
   "batch_flops = round(2 * V * d * n_tokens / 1e9, 1)\n",
   "Quotes GFLOPs to one decimal: the units are off by 10⁹ and the figure rounded.",
   ("giga", "units", "whole number", "1e9", "GFLOP", "not in billions"),
   ("per token", "multiply-add"))
_w("R", False, L02, "one_hot_batch_bytes",
   "one_hot_batch_bytes = V * d * np.dtype(precision).itemsize\n",
   "Prices the table E (V × d) instead of the one-hot matrix (n_tokens × V).",
   ("one-hot", "n_tokens × V", "not the table", "V columns", "n_tokens"),
   ("bits", "float64"))
_w("E", False, L02, "one_hot_batch_bytes",
   "one_hot_batch_bytes = n_tokens * V * 32\n",
   "Multiplies by 32 bits per float32 number: bits, not bytes.",
   ("bits", "bytes", "8 bits", "itemsize", "4 bytes"),
   ("table", "float64"))
_w("C", False, L02, "one_hot_batch_bytes",
   "one_hot_batch_bytes = n_tokens * V * np.zeros(1).itemsize\n",
   "Takes the itemsize of np.zeros' default float64 instead of the dtype named in `precision`.",
   ("float32", "precision", "dtype", "4 bytes", "float64"),
   ("bits", "table"))

# ----------------------------------------------------------------------------- 03 counting GPT-2
L03 = "03-counting-gpt2"
_w("R", False, L03, "linear_params",
   "linear_params = linear_in * linear_out\n",
   "Leaves out the bias the question asks for.",
   ("bias", "+ linear_out", "one per output"),
   ("transpos",))
_w("E", False, L03, "linear_params",
   "linear_params = linear_in * linear_out + linear_in\n",
   "Sizes the bias by the inputs: a bias has one entry per output feature.",
   ("output", "linear_out", "one per output", "bias size", "per output feature"),
   ("no bias", "forgot the bias", "leaves out the bias"))
_w("R", False, L03, "block_params",
   "block_params = (d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d) + (4 * d * d + d)\n",
   "Counts the four linear layers and forgets the two LayerNorms.",
   ("LayerNorm", "norm", "gain and bias", "2 · 2d", "4d"),
   ("rule of thumb",))
_w("C", False, L03, "block_params",
   "block_params = 12 * d * d   # the lesson's rule of thumb per block\n",
   "Copies the rule of thumb 12·d² instead of counting exactly: no biases, no LayerNorms.",
   ("biases", "LayerNorm", "13d", "rule of thumb", "exact"),
   ("position",))
_w("E", True, L03, "block_params",
   "block_params = (d * 3 * d + 3 * d) + (d * d) + (d * 4 * d + 4 * d) + (4 * d * d + d) + 2 * d\n",
   "Two at once: each LayerNorm counted with its gain only (d, not 2d) and the output projection's bias left out.",
   ("LayerNorm", "bias", "2d", "gain and bias", "output projection"),
   ("rule of thumb", "position"))
_w("R", False, L03, "interview",
   "interview = 2 * interview_V * interview_d\n",
   "Counts the head as a second matrix although it is tied (the same matrix as the table).",
   ("tied", "once", "shared", "same matrix", "reuses"),
   ("position", "bias"))
_w("E", False, L03, "interview",
   "interview = interview_V * interview_d / 1e6   # in M\n",
   "Answers in millions of parameters (30.72) instead of the whole count.",
   ("million", "whole number", "units", "1e6"),
   ("tied", "twice"))
_w("R", False, L03, "embedding_share",
   "counts = count_params(load_config(share_model))\n"
   "embedding_share = (counts.token_embedding + counts.position_embedding) / counts.total\n",
   "Adds the position table to the token table: the question asks for E only.",
   ("position", "token table only", "only E", "token_embedding"),
   ("percent", "gpt2-xl"))
_w("C", False, L03, "embedding_share",
   "counts = count_params(load_config('gpt2'))\nembedding_share = counts.token_embedding / counts.total\n",
   "Copies the lesson's GPT-2 small and leaves 'gpt2' in place of `share_model`.",
   ("share_model", "gpt2-xl", "XL", "the model named"),
   ("position", "percent"))
_w("E", False, L03, "embedding_share",
   "counts = count_params(load_config(share_model))\n"
   "embedding_share = 100 * counts.token_embedding / counts.total\n",
   "Gives a percentage instead of a fraction between 0 and 1.",
   ("percent", "fraction", "between 0 and 1", "100"),
   ("position", "gpt2-xl"))
_w("R", True, L03, "embedding_share",
   "counts = count_params(load_config(share_model))\n"
   "embedding_share = counts.token_embedding / (counts.total - counts.token_embedding - counts.position_embedding)\n",
   "Two at once: divides by the rest of the model instead of the whole, and also leaves the position table "
   "out of that rest.",
   ("whole model", "of all parameters", "divide by the total", "denominator"),
   ("percent", "gpt2-xl"))
_w("J", False, L03, "estimate_gap",
   "estimate_gap = (V * d + 12 * L * d**2) - exact\n",
   "Subtracts the other way round: estimate − exact, a negative number.",
   ("sign", "exact minus", "negative", "the other way", "exact −"),
   ("XOR",))
_w("J", False, L03, "estimate_gap",
   "estimate_gap = exact - (V * d + 12 * L * d^2)\n",
   "Writes d^2 for the square: in Python ^ is bitwise XOR, not a power.",
   ("**", "^", "XOR", "power", "square"),
   ("sign", "negative"))
_w("R", False, L03, "gpt2_params",
   "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n"
   "    return 2 * V * d + T * d + L * block + 2 * d\n",
   "Counts an untied head (a second V × d) although GPT-2's head is tied.",
   ("tied", "once", "shared"),
   ("final LayerNorm", "position"))
_w("C", False, L03, "gpt2_params",
   "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n    return V * d + T * d + L * block\n",
   "Adds up the blocks and tables but forgets the final LayerNorm.",
   ("final LayerNorm", "final norm", "2d", "ln_f"),
   ("tied", "position"))
_w("E", True, L03, "gpt2_params",
   "def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 10 * d\n    return V * d + L * block + 2 * d\n",
   "Two at once: no position table (T × d) and the 4d MLP bias counted as d (10d instead of 13d of biases "
   "and norms per block).",
   ("position", "T × d", "T · d", "T*d", "bias"),
   ("tied", "final LayerNorm"))

# ----------------------------------------------------------------------------- 04 modern blocks
L04 = "04-modern-blocks"
_w("R", False, L04, "attn_layer",
   "attn_layer = 4 * d * d\n",
   "Counts full multi-head attention (k and v as wide as q), ignoring the h_kv grouped key/value heads.",
   ("grouped", "h_kv", "key/value heads", "fewer", "GQA"),
   ("bias",))
_w("C", False, L04, "attn_layer",
   "attn_layer = (d * h * head_dim + 2 * d * h_kv * head_dim + h * head_dim * d\n"
   "              + (h + 2 * h_kv) * head_dim + d)\n",
   "Carries GPT-2's biases over from lesson 03: Llama's attention has none.",
   ("bias", "no biases"),
   ())
_w("E", True, L04, "attn_layer",
   "attn_layer = 2 * d * h * head_dim + d * h_kv * head_dim\n",
   "Drops a factor: one key/value matrix instead of two (k and v each h_kv·head_dim wide).",
   ("k and v", "two matrices", "key and value", "2 ·"),
   ("bias", "full multi-head"))
_w("C", False, L04, "mlp_layer",
   "mlp_layer = 2 * d * d_ff   # lesson 03's MLP: up and down\n",
   "Copies GPT-2's two-matrix MLP; a SwiGLU MLP has three (gate, up, down).",
   ("three", "gate", "SwiGLU", "3 ·"),
   ("bias",))
_w("E", False, L04, "mlp_layer",
   "mlp_layer = 3 * d * d_ff + 2 * d_ff + d\n",
   "Adds biases to the three matrices; this MLP has none.",
   ("bias", "no biases"),
   ())
_w("R", True, L04, "mlp_layer",
   "mlp_layer = 3 * d * d_ff * model_shape(load_config(mlp_model)).num_layers\n",
   "Gives the MLPs of all layers together instead of one layer's.",
   ("one layer", "per layer", "all layers", "num_layers"),
   ("bias",))
_w("R", False, L04, "vocab_share",
   "c = count_params(load_config(share_model))\nvocab_share = c.token_embedding / c.total\n",
   "Counts only the token table; the untied head is a second vocabulary-sized matrix.",
   ("lm_head", "untied", "output head", "LM head", "the head"),
   ("integer division", "percent"))
_w("J", False, L04, "vocab_share",
   "c = count_params(load_config(share_model))\nvocab_share = (c.token_embedding + c.lm_head) // c.total\n",
   "Uses integer division //, which floors the fraction to 0.",
   ("integer division", "//", "float", "floor"),
   ())
_w("R", False, L04, "padding_params",
   "V_padded = -(-V // pad_multiple) * pad_multiple\npadding_params = V_padded - V\n",
   "Gives the number of padded rows, not the parameters they hold (rows × d).",
   ("× d", "times d", "parameters, not rows", "width", "each row"),
   ("round up", "tied"))
_w("J", False, L04, "padding_params",
   "V_padded = (V // pad_multiple) * pad_multiple\npadding_params = (V_padded - V) * d\n",
   "Rounds down with // instead of up to the next multiple: a negative count.",
   ("round up", "ceil", "next multiple", "floor", "negative"),
   ("tied",))
_w("R", True, L04, "padding_params",
   "import math\nV_padded = math.ceil(V / pad_multiple) * pad_multiple\npadding_params = 2 * (V_padded - V) * d\n",
   "Counts the padded rows twice, as if the head were untied; this model's head is tied.",
   ("tied", "once", "head shares", "same matrix"),
   ("round up",))
_w("R", False, L04, "llama_params",
   "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    head_dim = d // h\n"
   "    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 3 * d * d_ff + 2 * d\n"
   "    return V * d + L * layer + (0 if tied else V * d)\n",
   "Forgets the final RMSNorm after the last layer.",
   ("final", "RMSNorm", "final norm", "+ d"),
   ("tied", "h_kv"))
_w("C", False, L04, "llama_params",
   "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
   "    layer = 4 * d * d + 3 * d * d_ff + 2 * d\n"
   "    return V * d + L * layer + d + (0 if tied else V * d)\n",
   "Copies GPT-2's 4·d² attention, ignoring the grouped key/value heads h_kv.",
   ("h_kv", "grouped", "key/value heads", "GQA"),
   ("final", "tied"))
_w("J", True, L04, "llama_params",
   "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    head_dim = d // h\n"
   "    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 3 * d * d_ff + d\n"
   "    return V * d + L * layer + d + (V * d if tied else 0)\n",
   "Two at once: the tied test is inverted (adds the head when it is tied) and each layer has one RMSNorm "
   "instead of two.",
   ("tied", "untied", "inverted", "the other way", "separate head", "two RMSNorms", "2d"),
   ("h_kv", "final norm"))
_w("E", False, L04, "llama_params",
   "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    head_dim = d / h\n"
   "    layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim + 3 * d * d_ff\n"
   "    return int(V * d + L * layer + d + (0 if tied else V * d))\n",
   "Leaves out the two RMSNorms of every layer (2d per layer).",
   ("two RMSNorms", "2d", "norms", "per layer", "RMSNorm"),
   ("h_kv",))

# ----------------------------------------------------------------------------- 05 weight tying
L05 = "05-weight-tying"
_w("R", False, L05, "tied_count",
   "tied_count = untied - 2 * V * d\n",
   "Removes both the head and the table; tying removes only the head, the table stays.",
   ("only the head", "table stays", "one V × d", "keeps the embedding", "once"),
   ("round", "vocab_size"))
_w("E", False, L05, "tied_count",
   "tied_count = round(untied - V * d, -6)\n",
   "Rounds the count to the nearest million.",
   ("exact", "round", "every parameter", "whole"),
   ("table stays", "both"))
_w("C", True, L05, "tied_count",
   "tied_count = untied - 50257 * 768   # the lesson's GPT-2 table\n",
   "Subtracts the lesson's GPT-2 table (50,257 × 768) instead of this model's V × d.",
   ("this model's", "vocab_size", "hidden_size", "untied_model"),
   ("round", "both"))
_w("R", False, L05, "grad_E",
   "grad_E = dlogits.T @ x\n",
   "Takes only the head's gradient; the tied table also gets the lookup's dx0.",
   ("dx0", "lookup", "two paths", "two jobs"),
   ("transpos",))
_w("J", False, L05, "grad_E",
   "grad_E = dlogits.T @ x\ngrad_E[ids] += dx0\n",
   "Adds dx0 with buffered +=: id 4, which repeats, gets only one of its two rows.",
   ("repeat", "add.at", "twice", "buffered"),
   ())
_w("J", True, L05, "grad_E",
   "grad_E = np.zeros((V, d))\ngrad_E[ids] = dx0\n",
   "Two at once: leaves out the head's dlogits.T @ x and overwrites the repeated id's rows instead of adding.",
   ("dlogits", "add.at", "repeat"),
   ("transpos",))
_w("J", False, L05, "count_unique",
   "def count_unique(storage, sizes):\n    return len(np.unique(storage))\n",
   "Counts the storages instead of the parameters they hold.",
   ("sizes", "parameters", "sum", "number of storages"),
   ("same size",))
_w("R", False, L05, "count_unique",
   "def count_unique(storage, sizes):\n    return int(sizes.sum())\n",
   "Sums every entry: the naive sum that counts a tied matrix twice.",
   ("once", "same storage", "shared", "duplicate", "twice"),
   ("index", "number of storages"))
_w("J", True, L05, "count_unique",
   "def count_unique(storage, sizes):\n    total = 0\n    for i in range(len(storage) - 1):\n"
   "        if storage[i] not in storage[:i]:\n            total += sizes[i]\n    return int(total)\n",
   "Loops to len(storage) − 1, one entry short: the last entry is never counted (right on the example, "
   "where the last entry is the tied copy).",
   ("last entry", "off by one", "range", "every entry", "len(storage)"),
   ("naive sum", "same size"))
_w("J", False, L05, "count_unique",
   "def count_unique(storage, sizes):\n    return int(sizes[np.unique(storage)].sum())\n",
   "Uses the storage ids as positions into `sizes`: a storage id is not the index of its entry.",
   ("index", "position", "storage id", "entry", "zip"),
   ("naive sum", "number of storages"))
_w("R", False, L05, "ties",
   "ties = untied_model\n",
   "Names the model of question 1, the untied one, without looking at the configs.",
   ("tie_word_embeddings", "config", "look"),
   ("spelled", "list"))
_w("C", False, L05, "ties",
   "ties = 'gpt2'\n",
   "Answers with the lesson's tied model, which is not among `candidates`.",
   ("candidates", "one of", "spelled", "the three"),
   ("list",))
_w("J", False, L05, "ties",
   "ties = [name for name in candidates if load_config(name)['tie_word_embeddings']]\n",
   "Leaves the answer as a list holding the name, not the name as a string.",
   ("string", "a list", "one name", "not a list", "[0]"),
   ("candidates", "config"))
_w("R", False, L05, "state_dict_sum",
   "state_dict_sum = count_params(load_config(tied_model)).total\n",
   "Gives count_params' count (each parameter once) instead of the naive sum that lists the table twice.",
   ("twice", "both names", "listed twice", "naive", "V × d"),
   ("position",))
_w("E", False, L05, "state_dict_sum",
   "state_dict_sum = 2 * count_params(load_config(tied_model)).total\n",
   "Doubles the whole model instead of only the tied table, which is the one entry listed twice.",
   ("only the table", "V × d", "shared table", "one matrix", "the table"),
   ("position",))
_w("E", True, L05, "state_dict_sum",
   "state_dict_sum = count_params(load_config(tied_model)).total + 50_000 * 768\n",
   "Adds the second copy of the table with the vocabulary rounded to 50,000 instead of this model's V.",
   ("exact", "vocab_size", "50,257", "round"),
   ("whole model",))

# ----------------------------------------------------------------------------- 06 params vs compute
L06 = "06-params-vs-compute"
_w("E", False, L06, "head_flops",
   "head_flops = d * V\n",
   "Counts one FLOP per weight; a multiply-add is two.",
   ("multiply-add", "two FLOPs", "factor of 2"),
   ("batch of T",))
_w("R", False, L06, "head_flops",
   "head_flops = 2 * d * V * T\n",
   "Prices T positions instead of one.",
   ("one position", "per position", "single position"),
   ("multiply-add",))
_w("C", False, L06, "lookup_flops",
   "lookup_flops = 2 * d * V\n",
   "Copies the head's formula: a lookup copies a row, it multiplies nothing.",
   ("lookup", "no multiplication", "indexing", "copies", "zero"),
   ("per token",))
_w("E", False, L06, "lookup_flops",
   "lookup_flops = d\n",
   "Counts the d numbers copied as FLOPs; a copy does no arithmetic.",
   ("copy", "no arithmetic", "not a FLOP", "zero"),
   ("2 · d · V",))
_w("R", True, L06, "kaplan_n",
   "kaplan_n = counts.total - counts.token_embedding - counts.position_embedding\n",
   "Keeps the untied head, which Kaplan's N leaves out too (the value is question 7's N_mult).",
   ("head", "untied", "lm_head"),
   ("round",))
_w("E", False, L06, "kaplan_n",
   "kaplan_n = int(round(counts.total - counts.token_embedding - counts.position_embedding\n"
   "                     - counts.lm_head, -9))\n",
   "Rounds N to one significant figure (7 billion).",
   ("exact", "round", "whole"),
   ())
_w("R", False, L06, "head_share_training",
   "head_share_training = c.head / (c.input + c.blocks + c.head)\n",
   "Leaves attention over the context out of the total.",
   ("attention", "context", "T(T+1)/2", "keys"),
   ("once", "last position"))
_w("J", False, L06, "head_share_training",
   "attention = c.attention_per_key * T * T // 2\n"
   "head_share_training = T * c.head / (T * (c.input + c.blocks + c.head) + attention)\n",
   "Counts T·T/2 keys instead of T(T+1)/2: off by one (a token attends to itself too).",
   ("T + 1", "T(T+1)/2", "off by one", "itself"),
   ("once", "attention is left out"))
_w("E", True, L06, "head_share_training",
   "attention = c.attention_per_key * T\n"
   "head_share_training = T * c.head / (T * (c.input + c.blocks + c.head) + attention)\n",
   "Drops a factor: prices attention as T keys in all (one key per position) instead of T(T+1)/2.",
   ("T(T+1)/2", "keys", "every position attends", "T + 1"),
   ("once", "last position"))
_w("R", False, L06, "head_share_prompt",
   "attention = c.attention_per_key * T * (T + 1) // 2\n"
   "head_share_prompt = T * c.head / (T * (c.input + c.blocks + c.head) + attention)\n",
   "Answers the training question: the head runs T times instead of once.",
   ("once", "last position", "only the last", "one position"),
   ())
_w("C", False, L06, "head_share_prompt",
   "attention = c.attention_per_key * T * (T + 1) // 2\n"
   "head_share_prompt = c.head / (T * (c.input + c.blocks + c.head) + attention)\n",
   "Adapts the numerator of question 4 to one head run but leaves T head runs in the total.",
   ("denominator", "once", "the head runs once"),
   ())
_w("C", True, L06, "head_share_prompt",
   "attention = c.attention_per_key * T * (T + 1) // 2\n"
   "head_share_prompt = T * c.head / (T * (c.input + c.blocks) + attention + c.head)\n",
   "Adapts the total to one head run but leaves T head runs in the numerator (a share above what it "
   "should be, near training's).",
   ("numerator", "once", "T times", "one head run"),
   ())
_w("E", False, L06, "forward_flops_per_token",
   "def forward_flops_per_token(V, d, L, d_ff, context):\n"
   "    return L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + 2 * d * V\n",
   "Counts the blocks' weights at one FLOP each instead of two.",
   ("2 FLOPs", "per weight", "two", "factor of 2", "multiply-add"),
   ())
_w("C", True, L06, "forward_flops_per_token",
   "def forward_flops_per_token(V, d, L, d_ff, context):\n"
   "    return 2 * L * (4 * d * d + 2 * d * 4 * d) + 4 * L * context * d + 2 * d * V\n",
   "Copies GPT-2's 4d MLP instead of the given d_ff: right on GPT-2's own sizes, wrong elsewhere.",
   ("d_ff", "4d", "given d_ff", "intermediate"),
   ())
_w("R", False, L06, "forward_flops_per_token",
   "def forward_flops_per_token(V, d, L, d_ff, context):\n"
   "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * context * d + 2 * d * V\n",
   "Counts attention over the context once instead of in every block.",
   ("per block", "every block", "each block"),
   ())
_w("J", False, L06, "forward_flops_per_token",
   "def forward_flops_per_token(V, d, L, d_ff, context):\n    total = 2 * d * V\n"
   "    for layer in range(1, L):\n        total += 2 * (4 * d * d + 2 * d * d_ff) + 4 * context * d\n"
   "    return total\n",
   "Loops range(1, L): one block short.",
   ("L blocks", "every block", "one block short", "off by one", "range"),
   ())
_w("E", False, L06, "flop_rate",
   "flop_rate = 6 * N * D / GPU_HOURS\n",
   "Divides by hours, not seconds: FLOP per hour.",
   ("3600", "seconds", "hours"),
   ("TFLOP", "N_mult"))
_w("E", False, L06, "flop_rate",
   "flop_rate = 6 * N * D / (GPU_HOURS * 3600) / 1e12\n",
   "Gives TFLOP/s, as a spec sheet quotes it, though FLOP/s is asked.",
   ("TFLOP", "FLOP/s", "10¹²", "1e12", "units"),
   ())
_w("R", False, L06, "flop_rate",
   "flop_rate = 6 * counts.total * D / (GPU_HOURS * 3600)\n",
   "Uses every parameter instead of N_mult: the untied input table is only looked up.",
   ("N_mult", "looked up", "input table", "counts.total"),
   ("TFLOP",))
_w("E", True, L06, "flop_rate",
   "flop_rate = 2 * N * D / (GPU_HOURS * 60)\n",
   "Two at once: 2·N·D (the forward pass only) instead of 6·N·D, and hours turned into minutes, not seconds.",
   ("backward", "3600", "seconds", "6·N·D"),
   ("TFLOP", "N_mult"))
_w("R", False, L06, "active_params",
   "active_params = moe_layers * k * 3 * d * d_ff\n",
   "Counts only the k experts a token uses, forgetting attention, the tables and the norms.",
   ("attention", "everything else", "start from the total"),
   ())
_w("R", False, L06, "active_params",
   "active_params = counts.total - (n_experts - k) * 3 * d * d_ff\n",
   "Takes away the skipped experts of one layer instead of all moe_layers layers.",
   ("moe_layers", "every layer", "each layer", "all layers", "per layer"),
   ())
_w("E", False, L06, "active_params",
   "active_params = counts.total - moe_layers * (n_experts - k) * d * d_ff\n",
   "Drops the factor 3: an expert has three d × d_ff matrices.",
   ("three", "gate", "3 ·", "SwiGLU", "3·d·d_ff"),
   ())
_w("E", True, L06, "active_params",
   "active_params = counts.total * k // n_experts\n",
   "Scales the whole model by k / n_experts, as if every parameter were an expert's.",
   ("attention", "not every parameter", "only the experts", "shared"),
   ())

# ----------------------------------------------------------------------------- 07 memory
L07 = "07-memory"
_w("E", False, L07, "weights_gb_4bit",
   "weights_gb_4bit = N * 0.5 / 2**30\n",
   "Divides by 2³⁰ (GiB) instead of 10⁹ (GB).",
   ("GiB", "10⁹", "1e9", "2**30"),
   ("bits",))
_w("E", False, L07, "weights_gb_4bit",
   "weights_gb_4bit = N * 4 / 1e9\n",
   "Multiplies by 4 (the bits) as if they were bytes: int4 is half a byte.",
   ("bits", "half a byte", "0.5", "4 bits", "bytes"),
   ("GiB",))
_w("R", False, L07, "weights_gb_4bit",
   "weights_gb_4bit = N * 2 / 1e9\n",
   "Answers for 16-bit weights (2 bytes) instead of int4.",
   ("int4", "4-bit", "half a byte", "0.5"),
   ("GiB",))
_w("C", True, L07, "weights_gb_4bit",
   "N = count_params(load_config('llama-3.2-1b')).total\nweights_gb_4bit = round(N * 0.5 / 1e9, 2)\n",
   "Two at once: the lesson's Llama 3.2 1B left in place of `weights_model`, and the result rounded to 2 decimals.",
   ("weights_model", "llama-3-8b", "round", "exact"),
   ("GiB", "bits"))
_w("R", False, L07, "adam_parts",
   "adam_parts = np.array([16 * n_params])\n",
   "Gives the total (16 bytes per parameter) instead of the four parts.",
   ("four", "parts", "not the sum", "each part", "shape"),
   ())
_w("C", False, L07, "adam_parts",
   "adam_parts = np.array([2, 2, 4, 4]) * n_params\n",
   "Counts one fp32 moment; Adam keeps two, m and v.",
   ("m and v", "two moments", "both moments", "8 bytes"),
   ("order",))
_w("E", True, L07, "adam_parts",
   "adam_parts = np.array([2, 2, 8, 4]) * n_params\n",
   "Swaps the master copy (4 bytes) and the moments (8 bytes): the total, 16 bytes a parameter, still comes out right.",
   ("master copy", "4 bytes", "moments", "order"),
   ())
_w("J", False, L07, "adam_parts",
   "adam_parts = np.array([n_params * 2, n_params * 4, n_params * 2, n_params * 8])\n",
   "Writes gradients and master copy in the wrong order.",
   ("order", "gradients", "master copy", "fp16 gradients"),
   ())
_w("R", False, L07, "kv_bytes_per_token",
   "kv_bytes_per_token = int(2 * L * h * head_dim * BYTES_PER_PARAM[cache_precision])\n",
   "Uses the h query heads instead of the h_kv key/value heads of a grouped-query model.",
   ("h_kv", "key/value heads", "grouped", "kv heads"),
   ("one layer",))
_w("E", False, L07, "kv_bytes_per_token",
   "kv_bytes_per_token = int(L * h_kv * head_dim * BYTES_PER_PARAM[cache_precision])\n",
   "Drops the factor 2: the cache holds both a key and a value.",
   ("k and v", "keys and values", "2 ·", "key and a value"),
   ("one layer", "query heads"))
_w("R", False, L07, "kv_bytes_per_token",
   "kv_bytes_per_token = int(2 * h_kv * head_dim * BYTES_PER_PARAM[cache_precision])\n",
   "Gives one layer's cache instead of all L layers'.",
   ("every layer", "layers", "per layer", "num_layers"),
   ("query heads",))
_w("E", True, L07, "kv_bytes_per_token",
   "kv_bytes_per_token = int(2 * L * h_kv * head_dim * 16)\n",
   "Multiplies by bf16's 16 bits, not its 2 bytes.",
   ("bits", "bytes", "16 bits", "2 bytes", "BYTES_PER_PARAM"),
   ("one layer", "query heads"))
_w("E", False, L07, "gqa_saving_gib",
   "b = BYTES_PER_PARAM[cache_precision]\n"
   "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * b * context / 1e9\n",
   "Divides by 10⁹ (GB), not 2³⁰ (GiB).",
   ("GiB", "2**30", "1024", "2³⁰"),
   ("one token",))
_w("R", False, L07, "gqa_saving_gib",
   "b = BYTES_PER_PARAM[cache_precision]\n"
   "gqa_saving_gib = 2 * L * h_kv * head_dim * b * context / 2**30\n",
   "Gives the grouped cache itself, not what grouping saves.",
   ("saving", "difference", "full minus", "saves", "h - h_kv"),
   ("one token",))
_w("C", False, L07, "gqa_saving_gib",
   "b = BYTES_PER_PARAM[cache_precision]\n"
   "gqa_saving_gib = (2 * L * h * head_dim * b - 2 * L * h_kv * head_dim * b) / 2**30\n",
   "Copies question 3's per-token cache and forgets to multiply by the context.",
   ("context", "8192", "tokens", "sequence", "gqa_context"),
   ())
_w("R", True, L07, "gqa_saving_gib",
   "b = BYTES_PER_PARAM[cache_precision]\ngqa_saving_gib = 2 * L * h * head_dim * b * context / 1e9\n",
   "Two at once: gives the full (ungrouped) cache instead of the saving, and in GB instead of GiB.",
   ("saving", "difference", "GiB", "2**30", "full minus"),
   ("one token",))
_w("J", False, L07, "kv_cache_gb",
   "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
   "    return 2 * L * h_kv * head_dim * bytes_per_number * context / 1e9\n",
   "Forgets the batch: the cache of one sequence.",
   ("batch", "sequences", "every sequence"),
   ("GiB",))
_w("E", False, L07, "kv_cache_gb",
   "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
   "    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / 2**30\n",
   "Returns GiB, not GB (10⁹ bytes).",
   ("10⁹", "1e9", "GiB", "2**30"),
   ())
_w("E", False, L07, "kv_cache_gb",
   "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
   "    return L * h_kv * head_dim * bytes_per_number * context * batch / 1e9\n",
   "Drops the factor 2 for keys and values.",
   ("k and v", "keys and values", "2 ·"),
   ("GiB",))
_w("J", False, L07, "max_batch",
   "max_batch = round((memory - weights) / per_sequence)\n",
   "Rounds to the nearest integer: 59.6 becomes 60, one sequence more than fits.",
   ("whole", "floor", "round down", "//"),
   ("GiB",))
_w("R", False, L07, "max_batch",
   "max_batch = int(memory // per_sequence)\n",
   "Forgets that the weights take their share of the GPU first.",
   ("weights", "subtract", "minus the weights", "what is left"),
   ("GiB",))
_w("E", False, L07, "max_batch",
   "max_batch = int((gpu_gb * 2**30 - weights) // per_sequence)\n",
   "Reads 80 GB as 80 GiB (2³⁰ bytes each), though the question says 10⁹.",
   ("10⁹", "GiB", "1e9", "gpu_gb"),
   ())
_w("J", True, L07, "max_batch",
   "max_batch = int(memory - weights // per_sequence)\n",
   "Precedence: divides only the weights by the per-sequence cache, then subtracts that from the memory.",
   ("parenthes", "precedence", "order of operations", "brackets"),
   ("GiB",))

# ----------------------------------------------------------------------------- 08 vocabulary size
L08 = "08-vocabulary-size"
_w("R", False, L08, "embedding_params",
   "embedding_params = 2 * V_big * d\n",
   "Counts the head as a second matrix although it is tied.",
   ("tied", "once", "shared"),
   ("V_small",))
_w("R", False, L08, "embedding_share",
   "embedding_share = table / rest\n",
   "Divides by the rest of the model instead of the whole (table + rest).",
   ("whole", "table + rest", "total", "denominator"),
   ("percent",))
_w("E", False, L08, "embedding_share",
   "embedding_share = round(100 * table / (table + rest), 1)\n",
   "A percentage rounded to one decimal, not a fraction between 0 and 1.",
   ("percent", "fraction", "between 0 and 1", "100", "round"),
   ())
_w("E", False, L08, "extra_head_flops",
   "extra_head_flops = d * (V_big - V_small)\n",
   "Counts one FLOP per weight; the head costs 2·d·V.",
   ("two FLOPs", "multiply-add", "2·d·V"),
   ())
_w("R", False, L08, "extra_head_flops",
   "extra_head_flops = 2 * d * V_big\n",
   "Gives the big head's whole cost instead of how much more it costs than the small one.",
   ("more", "difference", "minus", "extra", "V_small"),
   ())
_w("J", False, L08, "break_even_r",
   "break_even_r = (blocks + 2 * d * V_big) / (blocks + 2 * d * V_small)\n",
   "Inverts the ratio: small-vocabulary cost over big is the break-even, not big over small.",
   ("invert", "the other way", "upside", "reciprocal", "below 1", "V_small"),
   ())
_w("E", False, L08, "break_even_r",
   "break_even_r = V_small / V_big\n",
   "Takes the ratio of the vocabularies, leaving the blocks' FLOPs out.",
   ("blocks", "block FLOPs", "per token", "the blocks cost"),
   ("invert",))
_w("E", True, L08, "break_even_r",
   "break_even_r = (blocks + d * V_small) / (blocks + d * V_big)\n",
   "Drops the factor 2 of the head's 2·d·V in both costs.",
   ("2·d·V", "head costs", "two FLOPs", "multiply-add"),
   ("invert",))
_w("J", False, L08, "tokens_per_word",
   "def tokens_per_word(counts, n_tokens):\n    return float(np.mean(n_tokens))\n",
   "Takes the plain mean over distinct words instead of weighting each by its count.",
   ("weight", "counts", "running word", "how often"),
   ("list", "integer division"))
_w("J", False, L08, "tokens_per_word",
   "def tokens_per_word(counts, n_tokens):\n    return float(sum(counts * n_tokens) / sum(counts))\n",
   "Multiplies the inputs with * as if they were arrays: Python lists cannot be multiplied together.",
   ("list", "np.asarray", "array", "np.array"),
   ("weight", "integer division"))
_w("J", True, L08, "tokens_per_word",
   "def tokens_per_word(counts, n_tokens):\n"
   "    counts, n_tokens = np.asarray(counts), np.asarray(n_tokens)\n"
   "    return float((counts * n_tokens).sum() // counts.sum())\n",
   "Uses integer division //, which floors the mean to a whole number (right only when it is one).",
   ("integer division", "//", "float", "floor", "whole number"),
   ("weight", "list"))
_w("R", False, L08, "tokens_per_word",
   "def tokens_per_word(counts, n_tokens):\n"
   "    counts, n_tokens = np.asarray(counts, float), np.asarray(n_tokens, float)\n"
   "    return float(counts.sum() / (counts * n_tokens).sum())\n",
   "Gives words per token (the ratio upside down).",
   ("invert", "upside", "words per token", "the other way", "reciprocal"),
   ("weight", "list"))
_w("R", True, L08, "hindi_single_token_share",
   "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top_hindi)\n",
   "Gives the count of single-token words instead of the fraction (with n_top = 100 it reads like the "
   "percentage).",
   ("fraction", "divide", "share", "n_top"),
   ("digits",))
_w("C", False, L08, "hindi_single_token_share",
   "kept = [w for w in top_hindi if not any(ch.isdigit() for ch in w)]\n"
   "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in kept) / len(kept)\n",
   "Copies lesson 8's filter that leaves out number shapes such as '00'; the question audits all n_top words.",
   ("number", "'00'", "all n_top", "digits", "every word", "included"),
   ())
_w("R", False, L08, "hindi_r",
   "def per_word(t):\n    return sum(len(t.encode_ordinary(' ' + w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
   "hindi_r = per_word(gpt2) / per_word(cl100k)\n",
   "Divides GPT-2's tokens per word by cl100k's: the ratio inverted.",
   ("cl100k's", "divided by GPT-2's", "invert", "the other way", "upside"),
   ("space",))
_w("J", False, L08, "hindi_r",
   "def per_word(t):\n    return np.mean([len(t.encode_ordinary(' ' + w)) for w in hindi])\n"
   "hindi_r = per_word(cl100k) / per_word(gpt2)\n",
   "Averages over distinct words without weighting by their counts in running text.",
   ("weight", "running text", "how often"),
   ("space", "invert"))
_w("C", True, L08, "hindi_r",
   "def per_word(t):\n    return sum(len(t.encode_ordinary(w)) * n for w, n in hindi.items()) / sum(hindi.values())\n"
   "hindi_r = per_word(cl100k) / per_word(gpt2)\n",
   "Encodes each word without the leading space, so every word is tokenized as at the start of a text.",
   ("space", "after a space", '" " +', "leading space"),
   ("invert",))
_w("J", False, L08, "bpe_merges",
   "def bpe_merges(counts, n_merges):\n"
   "    words = [list(w.encode('utf-8')) for w in counts]\n    freqs = list(counts.values())\n    merges = []\n"
   "    for k in range(n_merges):\n        pairs = {}\n"
   "        for t, n in zip(words, freqs):\n            for p in zip(t, t[1:]):\n"
   "                pairs[p] = pairs.get(p, 0) + n\n"
   "        if not pairs:\n            break\n        best = max(pairs, key=pairs.get)\n        merges.append(best)\n"
   "        for i, t in enumerate(words):\n            out, j = [], 0\n            while j < len(t):\n"
   "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n                    out.append(256 + k)\n"
   "                    j += 2\n                else:\n                    out.append(t[j])\n                    j += 1\n"
   "            words[i] = out\n    return merges\n",
   "Breaks ties with max(), which keeps the first pair seen, instead of the smallest pair of ids.",
   ("tie", "smallest pair", "ties", "smallest"),
   ("weight", "overlap"))
_w("J", False, L08, "bpe_merges",
   "def bpe_merges(counts, n_merges):\n"
   "    words = [list(w.encode('utf-8')) for w in counts]\n    merges = []\n"
   "    for k in range(n_merges):\n        pairs = {}\n"
   "        for t in words:\n            for p in zip(t, t[1:]):\n"
   "                pairs[p] = pairs.get(p, 0) + 1\n"
   "        if not pairs:\n            break\n        best = min(pairs, key=lambda p: (-pairs[p], p))\n        merges.append(best)\n"
   "        for i, t in enumerate(words):\n            out, j = [], 0\n            while j < len(t):\n"
   "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n                    out.append(256 + k)\n"
   "                    j += 2\n                else:\n                    out.append(t[j])\n                    j += 1\n"
   "            words[i] = out\n    return merges\n",
   "Counts each pair once per word, not weighted by how often the word occurs.",
   ("weight", "how often", "frequency"),
   ("tie", "overlap"))
_w("C", False, L08, "bpe_merges",
   "def bpe_merges(counts, n_merges):\n"
   "    words = [list(w.encode('utf-8')) for w in counts]\n    freqs = list(counts.values())\n    merges = []\n"
   "    for k in range(n_merges):\n        pairs = {}\n"
   "        for t, n in zip(words, freqs):\n            for p in zip(t, t[1:]):\n"
   "                pairs[p] = pairs.get(p, 0) + n\n"
   "        if not pairs:\n            break\n        best = min(pairs, key=lambda p: (-pairs[p], p))\n        merges.append(best)\n"
   "        for i, t in enumerate(words):\n            out, j = [], 0\n            while j < len(t):\n"
   "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n                    out.append(257 + k)\n"
   "                    j += 2\n                else:\n                    out.append(t[j])\n                    j += 1\n"
   "            words[i] = out\n    return merges\n",
   "Numbers new tokens from 257 instead of 256 (the first merge makes token 256).",
   ("256 + k", "token id", "counting from 0", "256", "id of the new token"),
   ("tie", "weight"))
_w("J", False, L08, "bpe_merges",
   "def bpe_merges(counts, n_merges):\n"
   "    words = [list(w.encode('utf-8')) for w in counts]\n    freqs = list(counts.values())\n    merges = []\n"
   "    for k in range(n_merges):\n        pairs = {}\n"
   "        for t, n in zip(words, freqs):\n            for p in zip(t, t[1:]):\n"
   "                pairs[p] = pairs.get(p, 0) + n\n"
   "        if not pairs:\n            break\n        best = min(pairs, key=lambda p: (-pairs[p], p))\n        merges.append(best)\n"
   "        for i, t in enumerate(words):\n            out, j = [], 0\n            while j < len(t):\n"
   "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n                    out.append(256 + k)\n"
   "                else:\n                    out.append(t[j])\n                j += 1\n"
   "            words[i] = out\n    return merges\n",
   "Advances one token after a merge instead of two, so the pair's second token is kept and can start "
   "another, overlapping pair.",
   ("overlap", "skip", "left to right", "j += 2", "both tokens"),
   ("tie", "weight"))

# ----------------------------------------------------------------------------- 09 what rows learn
L09 = "09-what-rows-learn"
_w("R", False, L09, "n_params",
   "n_params = V * d + (2 * d) * d + d\n",
   "Counts one table, as if the output matrix were tied; U is a matrix of its own.",
   ("untied", "output matrix", "second table", "of its own"),
   ("two context",))
_w("E", False, L09, "n_params",
   "n_params = V * d + d * d + d + V * d\n",
   "Sizes W as d × d: the two context rows side by side make 2d inputs.",
   ("two context", "2d", "side by side", "2 · d", "context rows"),
   ())
_w("C", False, L09, "n_params",
   "n_params = V * d + (2 * d) * d + V * d\n",
   "Leaves out the hidden layer's bias b.",
   ("bias", "+ d"),
   ("untied", "two context"))
_w("E", True, L09, "n_params",
   "n_params = V * d + (2 * d) * d + 2 * d + V * d\n",
   "Sizes the bias b by W's input (2d) instead of its output (d).",
   ("bias", "output", "d numbers come out", "one per output"),
   ("untied", "leaves out the bias"))
_w("J", False, L09, "embedding_grad",
   "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
   "    dE[contexts] += dx0\n    return dE\n",
   "Buffered += with fancy indexing: a token that appears twice gets one contribution.",
   ("add.at", "repeat", "twice", "buffered", "both contributions"),
   ("shape",))
_w("J", False, L09, "embedding_grad",
   "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
   "    np.add.at(dE, contexts[:, 0], dx0[:, 0])\n    return dE\n",
   "Adds only context slot 0; the rows in slot 1 get no gradient.",
   ("both slots", "every slot", "context slot", "slot", "all C"),
   ("buffered", "repeat"))
_w("R", True, L09, "embedding_grad",
   "def embedding_grad(contexts, dx0, vocab_size):\n    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
   "    dE[contexts[:, 0]] = dx0.sum(axis=1)\n    return dE\n",
   "Two at once: sums the two slots of an example into the first slot's row, and assigns so repeats overwrite.",
   ("slot", "each dx0[b, k]", "contexts[b, k]", "add.at", "repeat"),
   ("shape",))
_w("R", False, L09, "gap",
   "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
   "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g]\n"
   "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
   "Includes each word with itself (cosine 1) in the within-group mean; only pairs of different words count.",
   ("different", "itself", "diagonal", "self", "i < j", "56 pairs"),
   ("normalis", "sign"))
_w("C", False, L09, "gap",
   "C = E @ E.T\nwithin = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
   "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
   "Uses raw dot products instead of cosine similarities (the rows are not normalised).",
   ("cosine", "normalis", "norm", "length", "unit"),
   ("itself", "sign"))
_w("J", False, L09, "gap",
   "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
   "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
   "gap = C[np.ix_(animals, vehicles)].mean() - np.mean(within)\n",
   "Subtracts the other way round: across minus within.",
   ("sign", "within minus across", "the other way", "negative"),
   ("itself", "normalis"))
_w("J", False, L09, "cos_cat",
   "rows = E[animals + vehicles]\ncos_cat = rows @ E[cat] / (np.linalg.norm(rows) * np.linalg.norm(E[cat]))\n",
   "Takes the norm of the whole block of rows (no axis) instead of each row's norm.",
   ("axis=1", "each row", "row norms", "axis", "per row"),
   ("cat itself",))
_w("R", False, L09, "cos_cat",
   "rows = E[(animals + vehicles)[1:]]\n"
   "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))\n",
   "Leaves cat itself out: 15 values, though the first entry is cat with itself.",
   ("cat itself", "first entry", "with itself", "shape"),
   ("axis",))
_w("E", False, L09, "cos_cat",
   "rows = E[animals + vehicles]\n"
   "cos_cat = np.round(rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat])), 3)\n",
   "Rounds each cosine to 3 decimals, fewer than the 6 significant figures the check wants.",
   ("round", "significant", "digits", "precision"),
   ("axis", "cat itself"))
_w("R", False, L09, "rotation_changes_cosines",
   "rotation_changes_cosines = 'yes'\n",
   "Thinks the rotation changes the cosines; an orthogonal Q keeps every dot product and length.",
   ("orthogonal", "angles", "lengths", "preserve", "dot product"),
   ())
_w("J", False, L09, "tinylm_grads",
   "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
   "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
   "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n    p /= p.sum(axis=1, keepdims=True)\n"
   "    dlogits = p.copy()\n    dlogits[np.arange(B), targets] -= 1.0\n"
   "    dU = dlogits.T @ x\n    da = (dlogits @ U) * (1.0 - x**2)\n    dx0 = (da @ W.T).reshape(B, C, -1)\n"
   "    dE = np.zeros_like(E)\n    np.add.at(dE, contexts, dx0)\n    return dE, dU\n",
   "Forgets to divide by B: the gradient of the summed loss, not of the mean.",
   ("mean", "divide by B", "batch size", "/ B"),
   ("tanh", "add.at"))
_w("J", False, L09, "tinylm_grads",
   "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
   "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
   "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n    p /= p.sum(axis=1, keepdims=True)\n"
   "    dlogits = p.copy()\n    dlogits[np.arange(B), targets] -= 1.0\n    dlogits /= B\n"
   "    dU = dlogits.T @ x\n    da = dlogits @ U\n    dx0 = (da @ W.T).reshape(B, C, -1)\n"
   "    dE = np.zeros_like(E)\n    np.add.at(dE, contexts, dx0)\n    return dE, dU\n",
   "Skips the tanh's derivative (1 − x²) on the way back.",
   ("tanh", "1 - x**2", "derivative", "1 − x²"),
   ("add.at",))
_w("C", False, L09, "tinylm_grads",
   "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
   "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
   "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n    p /= p.sum(axis=1, keepdims=True)\n"
   "    dlogits = p.copy()\n    dlogits[np.arange(B), targets] -= 1.0\n    dlogits /= B\n"
   "    dU = dlogits.T @ x\n    da = (dlogits @ U) * (1.0 - x**2)\n    dx0 = (da @ W.T).reshape(B, C, -1)\n"
   "    dE = np.zeros_like(E)\n    dE[contexts] += dx0\n    return dE, dU\n",
   "Scatters dx0 with buffered +=: an id used twice in the batch gets one contribution.",
   ("add.at", "repeat", "twice", "buffered"),
   ("tanh",))
_w("J", True, L09, "tinylm_grads",
   "def tinylm_grads(E, W, b, U, contexts, targets):\n    B, C = contexts.shape\n"
   "    x0 = E[contexts].reshape(B, -1)\n    x = np.tanh(x0 @ W + b)\n    logits = x @ U.T\n"
   "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n    p /= p.sum(axis=1, keepdims=True)\n"
   "    dlogits = p.copy()\n"
   "    dU = dlogits.T @ x\n    da = (dlogits @ U) * (1.0 - x**2)\n    dx0 = (da @ W.T).reshape(B, C, -1)\n"
   "    dE = np.zeros_like(E)\n    np.add.at(dE, contexts, dx0)\n    return dE, dU\n",
   "Two at once: the softmax's gradient without subtracting the one-hot of the target, and no division by B.",
   ("target", "one-hot", "minus 1", "- 1", "p - y", "divide by B", "mean"),
   ("tanh", "add.at"))

# ----------------------------------------------------------------------------- 10 glitch tokens
L10 = "10-glitch-tokens"
_w("R", False, L10, "padding_rows",
   "padding_rows = -(-V // pad_multiple) * pad_multiple\n",
   "Gives the padded size of the table, not the rows past V that belong to no token.",
   ("no token", "minus V", "padding", "extra rows", "- V"),
   ("floor",))
_w("J", False, L10, "padding_rows",
   "padding_rows = (V // pad_multiple) * pad_multiple - V\n",
   "Rounds down with // instead of up: a negative count.",
   ("round up", "ceil", "next multiple", "floor", "negative"),
   ("no token",))
_w("E", True, L10, "padding_rows",
   "padding_rows = V % pad_multiple\n",
   "Takes the remainder past the last multiple (the rows over it) instead of the gap up to the next "
   "multiple; the two agree only when the remainder is half of pad_multiple.",
   ("next multiple", "round up", "gap", "remainder", "up to"),
   ("no token", "negative"))
_w("R", False, L10, "invalid_bytes",
   "seen = set()\nfor c in range(0x110000):\n    if not 0xD800 <= c <= 0xDFFF:\n"
   "        seen.update(chr(c).encode('utf-8'))\ninvalid_bytes = len(seen)\n",
   "Counts the byte values that do appear, not the ones that never do.",
   ("never", "256 -", "invalid", "not appear", "do not occur"),
   ("C0",))
_w("E", False, L10, "invalid_bytes",
   "invalid_bytes = 0xFF - 0xF5 + 1   # F5..FF, past the last lead byte\n",
   "Remembers only F5–FF and forgets C0 and C1, the lead bytes only overlong encodings would use.",
   ("C0", "C1", "overlong", "0xC0", "0xC1"),
   ("256 -", "range"))
_w("J", True, L10, "invalid_bytes",
   "seen = set()\nfor c in range(0x10000):\n    if not 0xD800 <= c <= 0xDFFF:\n"
   "        seen.update(chr(c).encode('utf-8'))\ninvalid_bytes = 256 - len(seen)\n",
   "Loops only over range(0x10000), the Basic Multilingual Plane: the four-byte lead bytes F0–F4 never turn up.",
   ("0x110000", "four-byte", "above 0xFFFF", "range", "F0", "every code point"),
   ("C0",))
_w("J", False, L10, "unused_score",
   "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0)\n"
   "    return M @ mean / (np.linalg.norm(M) * np.linalg.norm(mean))\n",
   "Divides by the norm of the whole matrix instead of each row's norm.",
   ("axis=1", "each row", "row norm", "axis", "per row"),
   ("reference rows included", "mean of the rows"))
_w("R", False, L10, "unused_score",
   "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0)\n"
   "    s = M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n"
   "    return np.delete(s, reference_ids)\n",
   "Leaves the reference rows out of the result; the score is for every row, reference rows included.",
   ("every row", "reference rows included", "one score per row", "shape", "leave out only afterwards"),
   ("axis=1", "row norm"))
_w("J", False, L10, "unused_score",
   "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=1)\n"
   "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n",
   "Takes the mean along axis 1 (each reference row's mean) instead of the mean of the rows (axis 0).",
   ("axis=0", "mean of the rows", "axis", "mean row"),
   ("every row", "row norm"))
_w("R", False, L10, "never_cos",
   "rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
   "never_cos = (unit @ unit.T).mean()\n",
   "Averages the whole cosine matrix, each row with itself included (the diagonal of 1s).",
   ("different", "diagonal", "itself", "pairs", "triu"),
   ("reserved",))
_w("C", False, L10, "never_cos",
   "rows = run.model.E[never]\nC = rows @ rows.T\nnever_cos = C[np.triu_indices(len(never), k=1)].mean()\n",
   "Uses dot products, not cosine similarities: the rows are never normalised.",
   ("cosine", "normalis", "norm", "unit"),
   ("diagonal", "reserved"))
_w("R", False, L10, "never_cos",
   "ids = list(corpus.groups['reserved'])\nrows = run.model.E[ids]\n"
   "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
   "never_cos = (unit @ unit.T)[np.triu_indices(len(ids), k=1)].mean()\n",
   "Takes the reserved rows only and leaves out the glitch word, which is never seen too.",
   ("glitch", "never", "the glitch word", "all never-seen"),
   ("diagonal", "normalis"))
_w("J", False, L10, "top7",
   "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
   "order = [i for i in np.argsort(scores) if i not in reference]\ntop7 = np.array(order[:7])\n",
   "argsort sorts ascending: these are the 7 lowest scores, not the highest.",
   ("highest", "descending", "-scores", "reverse", "ascending"),
   ("reference", "leave out"))
_w("R", False, L10, "top7",
   "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
   "top7 = np.argsort(-scores, kind='stable')[:7]\n",
   "Forgets to leave the reference rows out of the ranking.",
   ("reference", "leave out", "the four reference rows", "exclude"),
   ("descending", "off by one"))
_w("J", True, L10, "top7",
   "from embedlab import unused_scores\nscores = unused_scores(run.model.E, reference)\n"
   "order = [i for i in np.argsort(-scores, kind='stable') if i not in reference]\ntop7 = np.array(order[1:8])\n",
   "Slices [1:8] as if index 0 were a header: drops the highest-scoring row.",
   ("first", "off by one", "[:7]", "highest", "slice"),
   ("reference", "ascending"))
_w("R", False, L10, "partial_tokens",
   "partial_tokens = sum(1 for b in ordinary if len(b) == 1 and b[0] >= 0x80)\n",
   "Counts only the single bytes from 0x80 up and forgets the merged tokens that stop mid-character.",
   ("merged", "multi-byte", "partway", "longer tokens", "decode"),
   ("latin", "decodable"))
_w("C", True, L10, "partial_tokens",
   "partial_tokens = 0\nfor b in ordinary:\n    try:\n        b.decode('latin-1')\n"
   "    except UnicodeDecodeError:\n        partial_tokens += 1\n",
   "Copies a decode line with 'latin-1', which decodes every byte, so nothing ever raises.",
   ("utf-8", "latin", "encoding", "codec"),
   ("merged", "single bytes"))

# ----------------------------------------------------------------------------- 11 size a model
L11 = "11-size-a-model"
_w("C", False, L11, "design",
   "design = llama_config(vocab_size=128256, d=2048, num_layers=16, num_heads=32, num_kv_heads=8,\n"
   "                      d_ff=8192, tied=True)   # Llama 3.2 1B, to start from\n",
   "Copies Llama 3.2 1B's config as it is, without shrinking it: over the parameter, memory and compute budgets.",
   ("over", "budget", "shrink", "parameters", "over_budget"),
   ("head_dim", "vocabulary"))
_w("J", False, L11, "design",
   "design = llama_config(vocab_size=BUDGET.min_vocab_size - 1, d=16 * head_dim, num_layers=20,\n"
   "                      num_heads=16, num_kv_heads=4, d_ff=64 * head_dim, tied=True)\n",
   "Off by one: a vocabulary of min_vocab_size − 1, one token short of the minimum.",
   ("vocabulary", "min_vocab_size", "at least", "32000", "32,000"),
   ("head_dim", "memory"))
_w("E", False, L11, "design",
   "design = llama_config(vocab_size=32000, d=1024, num_layers=20, num_heads=8, num_kv_heads=2,\n"
   "                      d_ff=4096, tied=True)\n",
   "Picks d = 1024 with 8 heads: heads 128 wide, not the phone's head_dim of 64.",
   ("head_dim", "d / h", "heads", "num_heads", "128"),
   ("vocabulary", "over budget"))
_w("C", True, L11, "design",
   "V, d = BUDGET.min_vocab_size, 16 * head_dim\n"
   "L = deepest_fit(lambda n: llama_config(vocab_size=V, d=d, num_layers=n, num_heads=16, num_kv_heads=4,\n"
   "                                       d_ff=4 * d, tied=True), BUDGET).layers\n"
   "design = llama_config(vocab_size=V, d=d, num_layers=L, num_heads=16, num_kv_heads=4, d_ff=4 * d,\n"
   "                      tied=False)\n",
   "Searches the depth with a tied head, then writes the final design untied: the second V × d breaks "
   "the memory budget.",
   ("tied", "untied", "memory", "serving", "V × d"),
   ("head_dim", "vocabulary"))
_w("R", True, L11, "design_params",
   "design_params = count_params(design).non_embedding\n",
   "Gives the non-embedding parameters instead of every parameter (for this tied design the same number "
   "as total − V·d).",
   ("every parameter", "embedding"),
   ("million",))
_w("E", False, L11, "design_params",
   "design_params = count_params(design).total / 1e6\n",
   "Gives millions of parameters, not the count.",
   ("million", "whole number", "1e6", "units"),
   ("non-embedding",))
_w("J", False, L11, "design_params",
   "design_params = count_params(design)\n",
   "Leaves count_params' result object instead of its .total.",
   (".total", "a number", "total"),
   ("non-embedding", "million"))
_w("E", False, L11, "design_serving_gb",
   "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
   "                                   batch=BUDGET.batch, kv=BUDGET.kv)['total'] / 2**30\n",
   "Divides by 2³⁰ (GiB) instead of GB = 10⁹.",
   ("10⁹", "GiB", "2**30", "1e9"),
   ("weights only",))
_w("R", False, L11, "design_serving_gb",
   "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context,\n"
   "                                   batch=BUDGET.batch, kv=BUDGET.kv)['weights'] / GB\n",
   "Gives the weights only, leaving out the KV cache.",
   ("KV cache", "cache", "together", "kv_cache"),
   ("GiB",))
_w("C", False, L11, "design_serving_gb",
   "design_serving_gb = serving_memory(design, context=BUDGET.context, batch=BUDGET.batch,\n"
   "                                   kv=BUDGET.kv)['total'] / GB\n",
   "Leaves serving_memory's default weights='bf16' instead of the job's int4 weights.",
   ("int4", "weights precision", "BUDGET.weights", "bf16", "precision"),
   ("GiB", "KV cache"))
_w("R", False, L11, "design_train_flops",
   "design_train_flops = training_flops(design, T_train).total\n",
   "Gives the FLOPs of one sequence, not of all D // T_train sequences.",
   ("sequences", "D // T", "number of sequences", "train_tokens", "times"),
   ("6ND", "attention"))
_w("E", False, L11, "design_train_flops",
   "design_train_flops = int(6 * count_params(design).total * D)\n",
   "Uses the 6·N·D rule of thumb instead of training_flops (which also prices attention and the head).",
   ("training_flops", "attention", "6ND", "6·N·D", "rule of thumb"),
   ())
_w("J", True, L11, "design_train_flops",
   "design_train_flops = training_flops(design, D).total\n",
   "Prices one sequence of all D tokens instead of D // T_train sequences of T_train tokens: "
   "the attention grows with the square of the length.",
   ("train_context", "sequences", "T_train", "sequence length", "one sequence of"),
   ("6ND",))
_w("R", False, L11, "tightest_budget",
   "used = {'parameters': design_params / BUDGET.max_params,\n"
   "        'memory': design_serving_gb / BUDGET.max_serving_gb,\n"
   "        'compute': design_train_flops / BUDGET.max_train_flops}\n"
   "tightest_budget = min(used, key=used.get)\n",
   "Takes the budget with the smallest fraction used instead of the largest.",
   ("largest", "max", "fullest", "most"),
   ("6ND", "raw amounts"))
_w("E", True, L11, "tightest_budget",
   "used = {'parameters': design_params / BUDGET.max_params,\n"
   "        'memory': design_serving_gb / BUDGET.max_serving_gb,\n"
   "        'compute': 6 * design_params * BUDGET.train_tokens / BUDGET.max_train_flops}\n"
   "tightest_budget = max(used, key=used.get)\n",
   "Estimates compute as 6·N·D instead of using design_train_flops; two budgets are nearly as full, so "
   "the rough estimate picks the wrong one.",
   ("design_train_flops", "training_flops", "6·N·D", "6ND", "compute", "attention"),
   ("smallest", "min"))
_w("R", False, L11, "other_tying_params",
   "other_tying_params = count_params(design).total\n",
   "Counts the design with its own tying instead of the other one.",
   ("flip", "other tying", "untied", "tie_word_embeddings", "V × d"),
   ("minus", "subtract"))
_w("J", True, L11, "other_tying_params",
   "other_tying_params = design_params - design['vocab_size'] * design['hidden_size']\n",
   "Subtracts the head for a tied design: untying adds a V × d head, it does not remove one.",
   ("plus", "untied adds", "untying adds", "separate head"),
   ("own tying",))
_w("C", False, L11, "defence",
   "defence = \"\"\"\nWhich budget binds, and by how much:\n"
   "Compute is the fullest budget at {design_train_flops:,} FLOPs; one layer more breaks it.\n\n"
   "Why this width and depth:\nHeads are {head_dim} wide, so d is 16 heads; the depth is the deepest that fits.\n\n"
   "What the tying choice costs:\nUntied, it would have {other_tying_params:,} parameters.\n\"\"\"\n",
   "Writes the template without its f: the braces stay unfilled, no figure of the design appears.",
   ("f-string", "braces", "f prefix", "unfilled"),
   ("heading", "worked example"))
_w("R", False, L11, "defence",
   "defence = f\"\"\"\nWhich budget binds, and by how much:\n"
   "{tightest_budget} binds; the design has {design_params:,} parameters and needs "
   "{design_serving_gb:.3f} GB.\n\n"
   "Why this width and depth:\n\n"
   "What the tying choice costs:\n\"\"\"\n",
   "Answers only the first heading and leaves the width-and-depth and tying headings empty.",
   ("heading", "width and depth", "tying", "empty", "no words"),
   ("braces", "f-string"))

# ----------------------------------------------------------------------------- 12 change a vocabulary
L12 = "12-change-a-vocabulary"
_w("R", False, L12, "added_params",
   "added_params = 2 * (max(V, n_tok + n_new) - V) * d\n",
   "Counts the new rows twice, as for an untied head; this model's head is tied.",
   ("tied", "once", "same matrix"),
   ("spare rows",))
_w("R", True, L12, "added_params",
   "added_params = max(V, n_tok + n_new) - V\n",
   "Gives the rows added, not the parameters (rows × d); the 4 rows equal n_new.",
   ("× d", "parameters", "width"),
   ("tied", "spare rows"))
_w("C", False, L12, "added_params",
   "added_params = 0   # as in the lesson: the new ids fit in the spare rows\n",
   "Carries over the lesson's case where the spare rows take the new ids; here n_tok = V, so nothing is spare.",
   ("spare rows", "do not fit", "n_tok", "grows", "no spare"),
   ("tied",))
_w("E", True, L12, "added_params",
   "config = load_config(vocab_model)\n"
   "added_params = count_params(dict(config, vocab_size=padded_size(n_tok + n_new, pad_multiple))).total \\\n"
   "    - count_params(config).total\n",
   "Pads the new size up to a multiple of 64 (question 2's step) before counting, so the padding rows are counted too.",
   ("n_tok + n_new", "padding", "no padding", "question 2", "not padded"),
   ("tied",))
_w("R", True, L12, "padding_rows",
   "padding_rows = padded_size(V, pad_multiple) - V\n",
   "Pads the old table and leaves the new tokens out of it (47: GPT-2's own padding rows, lesson 10's answer).",
   ("new tokens", "n_new", "after adding", "n_tok + n_new"),
   ("floor", "no token"))
_w("J", False, L12, "padding_rows",
   "rows = max(V, n_tok + n_new)\npadding_rows = (rows // pad_multiple) * pad_multiple - (n_tok + n_new)\n",
   "Rounds down with // instead of up: a negative count.",
   ("round up", "ceil", "next multiple", "floor", "negative"),
   ("new tokens",))
_w("J", False, L12, "p_new_token",
   "grown = resize_tinylm(run.model, n_new, 'mean')\n"
   "p = np.exp(log_softmax(grown.logits(context)))[0]\np_new_token = float(p[corpus.vocab_size - 1])\n",
   "Off by one: reads id vocab_size − 1, the last old token, not the first new one.",
   ("id corpus.vocab_size", "first new", "off by one", "vocab_size", "last old"),
   ("softmax",))
_w("J", False, L12, "p_new_token",
   "grown = resize_tinylm(run.model, n_new, 'mean')\np_new_token = float(grown.logits(context)[0, corpus.vocab_size])\n",
   "Gives the new token's logit, not its probability (no softmax).",
   ("softmax", "probability", "logit", "exp"),
   ("off by one",))
_w("C", False, L12, "p_new_token",
   "grown = resize_tinylm(run.model, n_new, 'zeros')\n"
   "p = np.exp(log_softmax(grown.logits(context)))[0]\np_new_token = float(p[corpus.vocab_size])\n",
   "Copies a lesson cell with init 'zeros' instead of the 'mean' the question asks for.",
   ("mean", "init", "zeros"),
   ("softmax", "off by one"))
_w("J", False, L12, "kl_mean",
   "grown = resize_tinylm(run.model, n_new, 'mean')\n"
   "old_p = np.exp(log_softmax(run.model.logits(contexts)))\nnew_p = np.exp(log_softmax(grown.logits(contexts)))\n"
   "kl_mean = float(kl_divergence(old_p, new_p).mean())\n",
   "Hands kl_divergence probabilities; it takes logits and applies the softmax itself, so the softmax runs twice.",
   ("logits", "not probabilities", "softmax twice", "softmax itself"),
   ("direction", "sum"))
_w("R", False, L12, "kl_mean",
   "grown = resize_tinylm(run.model, n_new, 'mean')\ntrain_contexts, _ = corpus.training_pairs(context=2)\n"
   "kl_mean = float(kl_divergence(run.model.logits(train_contexts), grown.logits(train_contexts)).mean())\n",
   "Measures on the training corpus's positions instead of those of `ordinary`.",
   ("ordinary", "positions of", "contexts", "the text given"),
   ("sum",))
_w("J", True, L12, "kl_mean",
   "grown = resize_tinylm(run.model, n_new, 'zeros')\n"
   "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).sum())\n",
   "Two at once: sums over the positions instead of taking the mean, and starts the new rows at zero, not the mean.",
   ("mean", "sum", "average", "init"),
   ("direction", "not probabilities"))
_w("R", False, L12, "trimmed_rows",
   "trimmed_rows = len(used)\n",
   "Counts the words' tokens only, without the 256 byte tokens and the end-of-text token.",
   ("256", "byte tokens", "end-of-text", "eot"),
   ("union", "twice"))
_w("J", True, L12, "trimmed_rows",
   "trimmed_rows = len(used) + 256 + 1\n",
   "Adds the 256 byte tokens and the end-of-text token to the count without a union: byte tokens the "
   "words already use are counted twice.",
   ("overlap", "union", "twice", "already", "set"),
   ("256 byte tokens are missing",))
_w("C", False, L12, "trimmed_rows",
   "trimmed_rows = len(used | set(range(256)))\n",
   "Keeps the byte tokens but forgets the end-of-text token.",
   ("end-of-text", "eot", "eot_token", "special"),
   ())
_w("R", False, L12, "saved_params",
   "saved_params = (tok.n_vocab - n_keep) * d_trim * 2\n",
   "Counts the trimmed rows twice, as for an untied head; this one is tied.",
   ("tied", "once", "trim_tied", "same matrix"),
   ("n_keep",))
_w("C", False, L12, "saved_params",
   "saved_params = (tok.n_vocab - trimmed_rows) * d_trim\n",
   "Carries question 5's trimmed_rows over instead of this question's own n_keep.",
   ("n_keep", "separate", "given", "12000"),
   ("tied",))
_w("E", True, L12, "saved_params",
   "saved_params = (50_000 - n_keep) * d_trim\n",
   "Rounds GPT-2's vocabulary to 50,000 instead of tok.n_vocab.",
   ("n_vocab", "tok.n_vocab", "50,257", "exact", "round"),
   ("tied", "n_keep"))
_w("J", False, L12, "coverage",
   "kept = used | set(range(256)) | {tok.eot_token}\n"
   "coverage = float(np.mean([set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words]))\n",
   "Averages over distinct words without weighting by their frequency.",
   ("weight", "frequency", "occurrences", "frequencies"),
   ("space",))
_w("C", False, L12, "coverage",
   "kept = used | set(range(256)) | {tok.eot_token}\n"
   "covered = np.array([set(tok.encode_ordinary(w)) <= kept for w in next_words])\n"
   "weights = np.array([frequencies[w] for w in next_words])\ncoverage = float(weights @ covered / weights.sum())\n",
   "Encodes the words without the leading space the question gives.",
   ("space", "after a space", '" " +', "leading space"),
   ("weight",))
_w("R", False, L12, "coverage",
   "kept = used | set(range(256)) | {tok.eot_token}\nfirst = words[:n_words]\n"
   "covered = np.array([set(tok.encode_ordinary(' ' + w)) <= kept for w in first])\n"
   "weights = np.array([frequencies[w] for w in first])\ncoverage = float(weights @ covered / weights.sum())\n",
   "Measures the words the table was built from instead of the next n_words.",
   ("next", "words[n_words:", "new words", "next_words", "held out"),
   ("space",))

# ----------------------------------------------------------------------------- second pass: more copy-adapters
# (and engineers), added to even out the styles; every lesson in order again
_w("C", False, L01, "E",
   "E = np.array([[int(f in traits[w]) for f in ['object', 'animal']] for w in words])\n",
   "Copies the lesson's cell with its two features ['object', 'animal'] left in place of `features`.",
   ("features", "pet", "every feature", "column", "three features"),
   ("transpos", "order"))
_w("C", True, L01, "cos_pair",
   "cos_pair = cosine_similarity(table[word_to_id[pair[0]]], table[word_to_id['car']])\n",
   "Adapts the first word of the lesson's cos(cat, car) to pair[0] but leaves 'car' as the second.",
   ("pair[1]", "pair", "the two words", "dog", "second word"),
   ("round", "your E"))
_w("C", False, L02, "embedding_backward",
   "def embedding_backward(ids, grad_out, V):\n    grad_E = np.zeros(grad_out.shape)\n"
   "    np.add.at(grad_E, ids, grad_out)\n    return grad_E\n",
   "Sizes the gradient like grad_out (one row per position) instead of one row per token of the vocabulary.",
   ("V rows", "shape (V, d)", "vocabulary", "one row per token"),
   ("buffered", "repeat"))
_w("C", False, L02, "batch_flops",
   "from embedlab import matmul_flops\nbatch_flops = matmul_flops(50257, d, n_tokens)   # the lesson's GPT-2 V\n",
   "Copies the lesson's call and adapts the width and batch but leaves GPT-2's 50,257 in place of V.",
   ("32000", "vocabulary", "this model", "32,000"),
   ("multiply-add", "factor of 2"))
_w("C", True, L02, "one_hot_batch_bytes",
   "from embedlab import one_hot_bytes\none_hot_batch_bytes = one_hot_bytes(50257, n_tokens)\n",
   "Copies the lesson's call and adapts the batch but leaves GPT-2's 50,257 in place of this model's V.",
   ("32000", "vocabulary", "this model", "columns"),
   ("bits", "float64"))
_w("C", False, L03, "interview",
   "interview = 50257 * interview_d   # GPT-2's vocabulary, from the lesson\n",
   "Adapts the width but leaves the lesson's GPT-2 vocabulary in place of interview_V.",
   ("interview_V", "40000", "vocabulary", "40,000"),
   ("tied", "million"))
_w("C", True, L03, "estimate_gap",
   "estimate_gap = exact - (V * d + 12 * L * 768**2)\n",
   "Adapts V·d to the model but leaves GPT-2 small's width 768 in the 12·L·d² term.",
   ("width", "hidden_size", "1024", "d²", "d**2"),
   ("sign", "XOR"))
_w("C", False, L04, "attn_layer",
   "attn_layer = d * h * head_dim + 2 * d * h_kv * head_dim\n",
   "Adapts the q, k and v projections from the cache formula and leaves out the output projection o.",
   ("output projection", "four", "o_proj", "h · head_dim × d"),
   ("bias", "grouped"))
_w("C", False, L04, "vocab_share",
   "c = count_params(load_config(attn_model))\nvocab_share = (c.token_embedding + c.lm_head) / c.total\n",
   "Copies question 1's load_config(attn_model) line and answers for that model instead of share_model.",
   ("share_model", "llama-3-8b", "the model named"),
   ("integer division",))
_w("C", True, L04, "llama_params",
   "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
   "    attention = 2 * d * h * head_dim + 2 * d * h_kv * head_dim   # head_dim as in question 1\n"
   "    layer = attention + 3 * d * d_ff + 2 * d\n"
   "    return V * d + L * layer + d + (0 if tied else V * d)\n",
   "Reuses question 1's head_dim (64, read from a config) instead of d // h: right for Llama 3.2 1B, wrong "
   "for Llama-3-8B and random shapes.",
   ("d // h", "head_dim", "from the arguments", "d / h"),
   ("final", "tied"))
_w("E", False, L04, "vocab_share",
   "c = count_params(load_config(share_model))\nvocab_share = round((c.token_embedding + c.lm_head) / c.total, 3)\n",
   "Rounds the share to three decimals.",
   ("round", "exact", "digits", "decimal"),
   ("integer division",))
_w("C", True, L05, "state_dict_sum",
   "state_dict_sum = count_params(load_config(tied_model)).total + V * d\n",
   "Reuses question 1's V and d, still in the namespace (the untied model's), instead of tied_model's own.",
   ("tied_model", "its own", "vocab_size", "this model", "V × d of"),
   ("whole model",))
_w("C", False, L05, "ties",
   "ties = next(n for n in candidates if load_config(n)['vocab_size'] == 32000)\n",
   "Copies a next(...) filter from a lesson cell that tested another config field (vocab_size) instead of "
   "tie_word_embeddings.",
   ("tie_word_embeddings", "config", "look", "check"),
   ("list", "spelled"))
_w("E", False, L05, "grad_E",
   "grad_E = dlogits.T @ x\nnp.add.at(grad_E, ids, dx0)\ngrad_E = np.round(grad_E, 4)\n",
   "Rounds every gradient to 4 decimals.",
   ("round", "exact", "digits", "decimal", "precision"),
   ("repeat",))
_w("C", False, L06, "head_flops",
   "s2 = model_shape(load_config(model))\nhead_flops = 2 * s2.hidden_size * s2.vocab_size\n",
   "Reads `model` (questions 2, 3 and 7's) instead of head_model.",
   ("head_model", "llama-3.2-1b", "the model named"),
   ("multiply-add",))
_w("C", False, L06, "forward_flops_per_token",
   "def forward_flops_per_token(V, d, L, d_ff, context):\n"
   "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + 2 * d * V + d\n",
   "Copies token_costs' input term and adds d for the position add the question leaves out.",
   ("position add", "leave out", "lookup costs 0", "input", "+ d"),
   ("per weight", "d_ff"))
_w("C", True, L06, "kaplan_n",
   "kaplan_n = counts.total - counts.token_embedding - counts.position_embedding - counts.lm_head \\\n"
   "    - 32 * 2 * 4096\n",
   "Copies the lesson's GPT-2 habit of taking the norms out too (here Llama-3-8B's 32 × 2 RMSNorms); "
   "Kaplan's N removes only the tables and the head.",
   ("norms", "only the tables", "RMSNorm", "everything except"),
   ("round",))
_w("C", False, L07, "kv_bytes_per_token",
   "kv_bytes_per_token = int(2 * L * h_kv * head_dim * BYTES_PER_PARAM[cache_precision] * gqa_context)\n",
   "Copies question 4's cell with its context multiplier: the cache of a whole sequence, not of one token.",
   ("one token", "per token", "context", "sequence"),
   ("h_kv", "bits"))
_w("C", True, L07, "max_batch",
   "max_batch = int((memory - 0.5 * count_params(config).total) // per_sequence)\n",
   "Copies question 1's int4 half byte for the weights instead of the given weights in weights_precision.",
   ("weights_precision", "bf16", "2 bytes", "weights", "precision"),
   ("round", "GiB"))
_w("C", False, L07, "kv_cache_gb",
   "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
   "    return int(2 * L * h_kv * head_dim * bytes_per_number * context * batch)\n",
   "Copies question 3's bytes cell (an int) and never converts to GB.",
   ("1e9", "bytes", "10⁹", "units"),
   ("batch", "k and v"))
_w("C", True, L08, "extra_head_flops",
   "extra_head_flops = 2 * embedding_params - 2 * V_small\n",
   "Reuses question 1's table (V_big·d) for the big head but forgets the d in the small one.",
   ("2·d·V", "V_small × d", "both heads", "width"),
   ())
_w("C", False, L08, "break_even_r",
   "break_even_r = (blocks + 2 * d * 50257) / (blocks + 2 * d * 100277)\n",
   "Copies the lesson's GPT-2/cl100k pair (section 7) instead of V_small and V_big.",
   ("V_small", "V_big", "256000", "50000", "your vocabularies"),
   ("invert",))
_w("E", False, L08, "hindi_single_token_share",
   "hindi_single_token_share = round(sum(bpe.count_tokens(w) == 1 for w in top_hindi) / len(top_hindi), 1)\n",
   "Rounds the share to one decimal, as a quick estimate.",
   ("round", "exact", "digits", "decimal"),
   ("number shapes",))
_w("C", False, L09, "cos_cat",
   "rows = E[vehicles + animals]\n"
   "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))\n",
   "Copies the groups in the order vehicles + animals, not animals + vehicles.",
   ("order", "animals + vehicles", "first entry", "cat itself"),
   ("axis", "round"))
_w("C", True, L09, "gap",
   "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
   "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
   "gap = np.mean(within) - C[np.ix_(animals, animals)].mean()\n",
   "Copy-pastes np.ix_(animals, ...) and adapts only the first index: the 'across' mean is animals with "
   "animals (diagonal included), not animals with vehicles.",
   ("vehicles", "across", "animal–vehicle", "np.ix_(animals, vehicles)", "64 pairs"),
   ("normalis", "sign"))
_w("E", False, L09, "gap",
   "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
   "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
   "gap = round(float(np.mean(within) - C[np.ix_(animals, vehicles)].mean()), 2)\n",
   "Rounds the gap to two decimals, fewer than the 6 significant figures the check judges.",
   ("round", "significant", "digits", "decimal"),
   ("itself", "normalis"))
_w("C", True, L10, "unused_score",
   "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0)\n"
   "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(M[reference_ids]))\n",
   "Adapts the numerator to the mean row but leaves the reference block in the second norm (the norm of "
   "the whole reference matrix, not of the mean).",
   ("norm of the mean", "mean", "np.linalg.norm(mean)", "the mean's norm"),
   ("axis=1", "every row"))
_w("C", False, L10, "top7",
   "from embedlab import unused_scores\nref = list(corpus.groups['reserved'])\n"
   "scores = unused_scores(run.model.E, ref)\n"
   "order = [i for i in np.argsort(-scores, kind='stable') if i not in ref]\ntop7 = np.array(order[:7])\n",
   "Copies the lesson's reference of every reserved row instead of the first four (`reference`).",
   ("first four", "reference", "[:4]", "four reserved"),
   ("descending", "off by one"))
_w("E", False, L10, "never_cos",
   "rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
   "pairs = (unit @ unit.T)[np.triu_indices(len(never), k=1)]\n"
   "never_cos = float(np.degrees(np.arccos(np.clip(pairs, -1, 1))).mean())\n",
   "Reports the mean angle between the rows in degrees instead of the mean cosine similarity.",
   ("cosine", "angle", "degrees", "not the angle"),
   ("diagonal", "normalis"))
_w("C", False, L11, "design_params",
   "design_params = count_params(load_config('llama-3.2-1b')).total\n",
   "Copies a lesson cell that counts Llama 3.2 1B and leaves its name in place of `design`.",
   ("design", "your design", "count_params(design)", "your own"),
   ("non-embedding", "million"))
_w("C", True, L11, "design_train_flops",
   "design_train_flops = training_flops(design, BUDGET.context).total * (D // T_train)\n",
   "Adapts the number of sequences to T_train but prices each at the serving context (8192) instead of "
   "train_context.",
   ("train_context", "T_train", "sequence length", "2048", "context"),
   ("6ND", "one sequence"))
_w("C", False, L11, "design_serving_gb",
   "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.train_context,\n"
   "                                   batch=BUDGET.batch, kv=BUDGET.kv)['total'] / GB\n",
   "Copies the training context (2048) into the cache instead of the serving context.",
   ("context", "8192", "serving context", "BUDGET.context", "conversation"),
   ("GiB", "int4"))
_w("C", True, L12, "p_new_token",
   "grown = resize_tinylm(run.model, 1, 'mean')\n"
   "p = np.exp(log_softmax(grown.logits(context)))[0]\np_new_token = float(p[corpus.vocab_size])\n",
   "Copies a lesson cell that adds one token and leaves its 1 in place of n_new: the new token shares the "
   "probability with no others.",
   ("n_new", "tokens added", "four new"),
   ("softmax", "off by one"))
_w("C", True, L12, "coverage",
   "kept = used | set(range(256)) | {tok.eot_token}\n"
   "covered = np.array([set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words])\n"
   "weights = np.array([frequencies[w] for w in next_words])\ncoverage = float(weights @ covered / len(next_words))\n",
   "Adapts the numerator to weights but leaves the plain mean's len(next_words) as the denominator.",
   ("weights.sum()", "total frequency", "denominator", "sum of the weights", "weighted"),
   ("space",))
_w("E", False, L12, "kl_mean",
   "grown = resize_tinylm(run.model, n_new, 'mean')\n"
   "kl_mean = float(kl_divergence(run.model.logits(contexts), grown.logits(contexts)).mean()) / np.log(2)\n",
   "Converts the KL to bits (divides by ln 2); kl_divergence gives nats, as the check does.",
   ("nats", "bits", "ln 2", "natural log", "units"),
   ("sum",))
_w("E", False, L12, "coverage",
   "kept = used | set(range(256)) | {tok.eot_token}\n"
   "covered = np.array([set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words])\n"
   "weights = np.array([frequencies[w] for w in next_words])\ncoverage = round(float(weights @ covered / weights.sum()), 3)\n",
   "Rounds the coverage to three decimals.",
   ("round", "exact", "digits", "decimal"),
   ("space",))


# Added by hints16 after judge16a and judge16b (independent judges who never saw the grading code) read every hint of
# this corpus on the code it was written against (main at 0d74614), before any fix: the word lists recalibrated so the
# test's classifier gives the judges' verdict on each of those hints (231 specific, 27 generic, 7 misleading of 265).
# {(name, the mistake's first characters): (drop_wrong, add_wrong, add, drop)}; "#n": the judges' entry id. #72 and
# #235 (generic before, and still generic with these words) get the words the judges said a specific hint would use.
from hint_corpus import calibrated  # noqa: E402

CALIBRATED = {
    ('n_params', "Copies the lesson's V = 3, d = 2 instead"): ((), (), ("the lesson's cat/dog/car table",), ()),  # #3
    ('cosine', 'Adapts the norm product but leaves `a` i'): ((), (), ('where `b` belongs',), ()),  # #9
    ('extra_dim_cost', "Copies the lesson's one-new-column cost "): ((), (), ('that is one new feature',), ()),  # #15
    ('rows_lookup', 'Returns the ids themselves instead of th'): ((), (), ('one step short of its end',), ()),  # #21
    ('embedding_backward', "Copies the lesson's cell with its width "): ((), (), (), ('shape',)),  # #28: generic
    ('embedding_backward', 'Returns the gradient per position (shape'): ((), (), ("the gradient of e has e's shape",),
                                                                          ()),  # #29
    ('batch_flops', 'Counts one FLOP per multiply-add; a mult'): (('per token',), (), (), ()),  # #33: 2·V·d per token
    ('batch_flops', 'Gives the cost of one token, not of the '): ((), (), ('that is one token',), ()),  # #34
    ('block_params', 'Two at once: each LayerNorm counted with'): ((), ('its bias is 4d wide',
                                                                        'your count has no q, k, v biases'), (), ()),
    # #43: both alternatives false of the code
    ('attn_layer', 'Drops a factor: one key/value matrix ins'): ((), (), ('the value projection v is missing',), ()),
    ('vocab_share', 'Uses integer division //, which floors t'): ((), ('your share has no token table',), (), ()),  # #62
    ('tied_count', 'Rounds the count to the nearest million.'): ((), ('rather than typing',), (), ()),  # #71: computed
    ('kaplan_n', 'Rounds N to one significant figure (7 bi'): ((), ('rather than typing',), (), ()),  # #91: computed
    ('tokens_per_word', 'Takes the plain mean over distinct words'): (('list',), (), (), ()),  # #141: "the word list"
    ('tokens_per_word', 'Gives words per token (the ratio upside '): ((), (), ('not the inverse',), ()),  # #144
    ('n_params', "Sizes the bias b by W's input (2d) inste"): ((), (), ('one number per hidden unit',), ()),  # #157
    ('gap', 'Subtracts the other way round: across mi'): ((), (), ('within minus between',), ()),  # #163
    ('padding_rows', 'Gives the padded size of the table, not '): ((), (), ('that is the padded size',), ()),  # #172
    ('top7', 'Slices [1:8] as if index 0 were a header'): (('reference',), (), (), ()),  # #186: "reference rows left out"
    ('design_params', "Leaves count_params' result object inste"): ((), (), ('holds a paramcount',), ()),  # #195
    ('other_tying_params', 'Subtracts the head for a tied design: un'): ((), (), ('add it, do not subtract it',),
                                                                         ()),  # #205
    ('kl_mean', 'Two at once: sums over the positions ins'): ((), (), (), ('average',)),  # #219: generic
    ('batch_flops', "Copies the lesson's call and adapts the "): ((), (), ('with `v` in its place',), ()),  # #232
    ('one_hot_batch_bytes', "Copies the lesson's call and adapts the "): ((), (), ('with `v` in its place',), ()),
    ('extra_head_flops', "Reuses question 1's table (V_big·d) for "): ((), (), ('minus the head with v_small',), ()),
    ('gap', 'Copy-pastes np.ix_(animals, ...) and ada'): ((), ('a distance is lower when closer',), (), ()),  # #253
    ('never_cos', 'Reports the mean angle between the rows '): ((), ('the right rows',), (), ()),  # #257
    ('design_params', 'Copies a lesson cell that counts Llama 3'): ((), (), (), ('design', 'your design')),  # #258
    ('design_train_flops', 'Adapts the number of sequences to T_trai'): ((), (), (), ('context',)),  # #259: generic
    ('design_serving_gb', 'Copies the training context (2048) into '): (('int4',), (), (), ()),  # #260
    ('coverage', 'Adapts the numerator to weights but leav'): ((), (), (), ('denominator',)),  # #262: generic
    ('tied_count', "Subtracts the lesson's GPT-2 table (50,2"): ((), (), ('where `v` and `d` belong',), ()),  # #72
    ('estimate_gap', "Adapts V·d to the model but leaves GPT-2"): ((), (), ('where `d` belongs',), ()),  # #235
}
ENTRIES = calibrated(ENTRIES, CALIBRATED, ("drop_wrong", "add_wrong", "add", "drop"))
