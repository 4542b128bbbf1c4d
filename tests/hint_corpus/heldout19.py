"""Blind corpus 19: wrong answers written without reading the hint code (lab notebook).

Who and when. Helper "blind19" of session 9, in the worktree /work/wt-blind19 (branch
blind19). Started 2026-12-08 00:36 UTC (`date -u`: Tue Dec 8 00:36:38 UTC 2026), entries
written 00:38-00:49, checked and rewritten until 00:53 UTC.

What I read. /work/notes/RULES.md and my brief; tests/hint_corpus/__init__.py (the
`Wrong` record) and tests/hint_corpus/check_wrong.py (how an entry runs and is proved
wrong); the question texts, parameters cells and given lines of the answer cells of
exercises/*.ipynb; the answer cells of solutions/*.ipynb (read as JSON, printed by a
throw-away script that also listed each solution's check cells, to cover every
question); the public API of embedlab by calling it (signatures and docstrings of
serving_memory and training_flops, the printed tables of count_params and
training_flops, BYTES_PER_PARAM) and a few book values (Llama-3-8B's exact count
8,030,261,248 and its cache of 1,073,741,824 bytes per 8,192-token sequence, to see
which slips coincide).

What I never opened, listed, grepped, imported or ran: lib/embedlab/grading/ (no file of
it), lib/embedlab/grade.py, tests/test_*.py, any other file of tests/hint_corpus/ (the
folder was not listed), the `issues` command, git log/show/diff, other notes, other
worktrees. No `ex.check`, no grader, no `embedlab-grade`; no hint was printed.
check_wrong only says wrong/CORRECT/ERROR and the two values, never a hint.

Counts. 356 entries, every question of the 12 exercises (79, lesson 11's design and
defence included) at least 3 times, checked by script against the solutions' check
cells. Per lesson and style:

    01-toy-table              33   X  8  L  7  O 10  D  8
    02-lookup-vs-matmul       34   X  9  L 11  O  6  D  8
    03-counting-gpt2          27   X  7  L  5  O  6  D  9
    04-modern-blocks          22   X  6  L  6  O  5  D  5
    05-weight-tying           22   X  6  L  5  O  5  D  6
    06-params-vs-compute      36   X 12  L  7  O  8  D  9
    07-memory                 34   X  9  L  7  O  7  D 11
    08-vocabulary-size        34   X 11  L  7  O  7  D  9
    09-what-rows-learn        26   X  5  L  8  O  7  D  6
    10-glitch-tokens          27   X  5  L  9  O  8  D  5
    11-size-a-model           29   X  7  L  7  O  7  D  8
    12-change-a-vocabulary    32   X  7  L  9  O  9  D  7

Styles: X 92 (25.8 %) L 88 (24.7 %) O 85 (23.9 %) D 91 (25.6 %).

HARD: 94 of 356 (26.4 %): two mistakes at once, or a value that coincides with the right
one on some of the checked inputs or in the book (the mistake sentence says which: e.g.
mlp_layer's two-matrix MLP equals 8·d² because d_ff = 4·d; head_share_prompt with the
head run T times equals question 4's answer; gqa_saving_gib's ratio h / h_kv equals the
full cache in GiB; llama_params without grouping is right when h_kv = h;
forward_flops_per_token with 12·d² is right on GPT-2 small and XL).

Dropped or rewritten, and why (all found by check_wrong, none by reading a hint):

- cosine via scipy's distance: scipy is not installed (ERROR); rewritten as 1 - cos.
- cos_pair with cat typed for dog: right in the book (their rows are equal); a rounding
  was added so it is wrong and HARD by coincidence.
- tied_count in int32 by np.int32(untied): numpy raises OverflowError; now wraps through
  astype.
- count_unique de-duplicated by size: right on every checked input (sizes never repeat
  there); replaced by ids sorted without their sizes.
- design with d = 1,000: llama_config raises ValueError (16 heads must divide d); now d
  = 1,040 (65-wide heads).
- design_train_flops with true division: 600e9 / 2,048 is whole, so it was right;
  replaced by a range(1, n) sequence count.
- kl_mean with the arguments swapped: raised (ERROR), the grown logits being n_new
  columns wider; replaced by a loop over positions that starts at 1.
- kaplan_n: "total - lm_head" gave the same value as "total - token_embedding"
  (Llama-3-8B's head and table have one size), dropped; "total - 2·table - position" was
  right, replaced.
- invalid_bytes counted by hand as 256-128-64-30-16-5: that is right (13); now leaves E0
  out.
- same-value pairs rewritten (no hint could tell them apart): embedding_backward's
  assignment loop from 1 equalled buffered +=; max_batch's ceil equalled the model
  card's 8B rounded to nearest; partial_tokens typed 128 equalled the single-byte count;
  lesson 12's padding of V + n_new equalled padding the old table; top7 ascending with
  the reference kept equalled ascending alone; weights rounded each step equalled floor
  division.
- HARD taken off the entries with one mistake only, and off kv_cache_gb in float32,
  whose claimed coincidence on a power-of-two input was false (wrong on every input);
  about ten others were given a second mistake instead.

Final check (`cd tests && nice ../.venv/bin/python -m hint_corpus.check_wrong heldout19
--same`), run at 00:52 UTC: 356 lines "wrong", none CORRECT or ERROR, exit status 0,
"problems: 0" and no "same value" line.
"""

from . import Wrong

A1 = "01-toy-table"
A2 = "02-lookup-vs-matmul"
A3 = "03-counting-gpt2"
A4 = "04-modern-blocks"
A5 = "05-weight-tying"
A6 = "06-params-vs-compute"
A7 = "07-memory"
A8 = "08-vocabulary-size"
A9 = "09-what-rows-learn"
A10 = "10-glitch-tokens"
A11 = "11-size-a-model"
A12 = "12-change-a-vocabulary"

# Each entry's comment gives its learner style (X spreadsheet user, L C/Java
# programmer, O over-engineer, D paper reader) and HARD when it is one.
ENTRIES = [
    # -------------------------------------------------- 01-toy-table
    # X
    Wrong(A1, "E",
          "E = np.array([[0, 0, 0, 1], [1, 1, 1, 0], [1, 1, 0, 0]])\n",
          "Typed the table with one row per feature and one column per word "
          "(transposed).",
          ("transpose", "row per word", "one row per", "shape", "swapped", "column"),
          ("normalis", "dtype", "float")),
    # L HARD
    Wrong(A1, "E",
          "E = np.zeros((len(words), len(features)), dtype=int)\n"
          "for i in range(1, len(words)):\n"
          "    for j in range(len(features) - 1):\n"
          "        if features[j] in traits[words[i]]:\n"
          "            E[i, j] = 1\n",
          "Loops skip the first word and the last feature (two off-by-one bounds), "
          "leaving those cells 0.",
          ("range", "first", "last", "off by one", "loop", "missing", "skip",
           "every word"),
          ("transpose", "normalis")),
    # O
    Wrong(A1, "E",
          "raw = np.array([[f in traits[w] for f in features] for w in words], "
          "float)\n"
          "E = raw / np.linalg.norm(raw, axis=1, keepdims=True)\n",
          "Normalised each row to unit length instead of keeping 1s and 0s.",
          ("normalis", "unit", "0 and 1", "1 where", "ones and zeros", "scale",
           "length"),
          ("transpose", "order")),
    # D
    Wrong(A1, "E",
          "E = np.eye(len(words), dtype=int)\n",
          "Gave the one-hot identity table of the papers' lookup instead of the "
          "feature table.",
          ("feature", "traits", "one-hot", "identity", "eye", "shape", "column"),
          ("normalis", "transpose")),
    # X
    Wrong(A1, "n_params",
          "n_params = int(np.array(table).sum())\n",
          "Counted the cells that hold a 1 instead of every cell of the table.",
          ("every", "cell", "entries", "ones", "nonzero", "zero",
           "rows times columns", "shape", "size"),
          ("bias", "duplicate")),
    # L
    Wrong(A1, "n_params",
          "n_params = 0\n"
          "for w in words:\n"
          "    for f in range(1, len(features)):\n"
          "        n_params += 1\n",
          "The inner loop starts at 1, so it counts one feature too few per word.",
          ("range", "off by one", "loop", "feature", "column", "start"),
          ("bias", "duplicate", "ones")),
    # D
    Wrong(A1, "n_params",
          "n_params = len(words) * len(features) + len(features)\n",
          "Added a bias per feature as in a linear layer; a lookup table has none.",
          ("bias", "linear", "extra", "lookup", "only the table", "rows times columns"),
          ("ones", "duplicate")),
    # O HARD
    Wrong(A1, "n_params",
          "n_params = len({tuple(r) for r in table}) * len(features)\n",
          "De-duplicated the identical rows of cat and dog before counting (9 instead "
          "of 12), and counted the given table rather than one built from words and "
          "features.",
          ("duplicate", "unique", "identical", "every row", "each word", "same row",
           "set"),
          ("bias", "ones")),
    # L
    Wrong(A1, "batch",
          "batch = np.array([table[word_to_id[w]] for w in sentence[:-1]])\n",
          "Slicing sentence[:-1] drops the last word, so one row is missing.",
          ("last", "missing", "one row", "every word", "slice", "length", "shape",
           "off by one"),
          ("sort", "duplicate", "column")),
    # O
    Wrong(A1, "batch",
          "batch = table[sorted(set(word_to_id[w] for w in sentence))]\n",
          "De-duplicated and sorted the ids, so the repeated horse is lost and the "
          "order changes.",
          ("duplicate", "repeat", "order", "sort", "unique", "set", "every word",
           "one row per"),
          ("column", "transpose")),
    # D
    Wrong(A1, "batch",
          "batch = table[[word_to_id[w] + 1 for w in sentence]]\n",
          "Counted ids from 1 as in a paper's notation, shifting every lookup one row "
          "down.",
          ("from 0", "zero", "index", "off by one", "shift", "word_to_id"),
          ("sort", "duplicate")),
    # X HARD
    Wrong(A1, "batch",
          "batch = table[:, [word_to_id[w] for w in sentence[:3]]]\n",
          "Picked columns instead of rows and only took the first three words of the "
          "sentence.",
          ("column", "axis", "index", "shape", "every word", "missing", "first index"),
          ("sort", "normalis")),
    # L
    Wrong(A1, "cosine",
          "def cosine(a, b):\n"
          "    dot = na = nb = 0.0\n"
          "    for i in range(len(a)):\n"
          "        dot += a[i] * b[i]\n"
          "        na += a[i] * a[i]\n"
          "        nb += b[i] * b[i]\n"
          "    return float(dot / (na * nb))\n",
          "Divided by the squared norms: the square root of each sum of squares is "
          "missing.",
          ("square root", "sqrt", "norm", "length", "squared", "magnitude"),
          ("centre", "round", "distance")),
    # O
    Wrong(A1, "cosine",
          "def cosine(a, b):\n"
          "    a = a - a.mean()\n"
          "    b = b - b.mean()\n"
          "    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))\n",
          "Centred both vectors first, which gives the Pearson correlation, not the "
          "cosine.",
          ("centre", "center", "mean", "subtract", "correlation", "pearson",
           "as given"),
          ("sqrt", "round", "distance")),
    # D
    Wrong(A1, "cosine",
          "def cosine(a, b):\n"
          "    return float(1 - a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))\n",
          "Returned the cosine distance 1 - similarity, scipy's convention.",
          ("distance", "1 -", "one minus", "similarity", "dissimilar"),
          ("sqrt", "centre", "round")),
    # X
    Wrong(A1, "cosine",
          "def cosine(a, b):\n"
          "    return round(float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b))), "
          "2)\n",
          "Rounded the cosine to two decimals.",
          ("round", "decimal", "exact", "precision", "full"),
          ("sqrt", "centre", "distance")),
    # O HARD
    Wrong(A1, "cosine",
          "def cosine(a, b):\n"
          "    a, b = a.astype(np.float16), b.astype(np.float16)\n"
          "    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-6))\n",
          "Cast the vectors to float16 and added an epsilon to the denominator, both "
          "of which move the result off the exact cosine.",
          ("float16", "precision", "cast", "epsilon", "eps", "exact", "dtype", "half"),
          ("distance", "centre", "round")),
    # X
    Wrong(A1, "cos_pair",
          "cos_pair = 0.71\n",
          "Typed the rounded printed value instead of computing it exactly.",
          ("round", "typed", "exact", "compute", "decimal", "printed", "code"),
          ("centre", "distance")),
    # L
    Wrong(A1, "cos_pair",
          "a = table[word_to_id[pair[0]]]\n"
          "b = table[word_to_id[pair[1]]]\n"
          "dot = 0\n"
          "for i in range(len(a)):\n"
          "    dot += a[i] * b[i]\n"
          "cos_pair = dot // (np.sqrt(a @ a) * np.sqrt(b @ b))\n",
          "Used floor division, which rounds the cosine down to 0.",
          ("floor", "integer", "//", "division", "divide", "rounds down", "truncat"),
          ("centre", "distance", "round to")),
    # O
    Wrong(A1, "cos_pair",
          "a = table[word_to_id[pair[0]]] - table.mean(axis=0)\n"
          "b = table[word_to_id[pair[1]]] - table.mean(axis=0)\n"
          "cos_pair = cosine_similarity(a, b)\n",
          "Centred the rows on the table's column means before taking the cosine.",
          ("centre", "center", "mean", "subtract", "raw rows", "as given"),
          ("distance", "round")),
    # D
    Wrong(A1, "cos_pair",
          "cos_pair = 1 - cosine_similarity(table[word_to_id[pair[0]]],\n"
          "                                table[word_to_id[pair[1]]])\n",
          "Gave the cosine distance 1 - cos, the convention of a retrieval paper.",
          ("distance", "1 -", "one minus", "similarity"),
          ("centre", "round")),
    # X HARD
    Wrong(A1, "cos_pair",
          "cos_pair = round(cosine_similarity(table[word_to_id['horse']],\n"
          "                                   table[word_to_id['cat']]), 3)\n",
          "Typed the pair's words by hand, cat for dog (harmless in the book, where "
          "their rows are equal), and rounded the cosine to three decimals.",
          ("round", "decimal", "exact", "pair", "typed", "hard-code"),
          ("centre", "distance")),
    # D
    Wrong(A1, "model_table",
          "shape = model_shape(load_config(model))\n"
          "model_table = 50304 * shape.hidden_size\n",
          "Used nanoGPT's padded vocabulary 50,304 instead of the config's vocab_size.",
          ("vocab_size", "padded", "config", "50304", "50,304", "vocabulary"),
          ("position", "head", "twice")),
    # O
    Wrong(A1, "model_table",
          "shape = model_shape(load_config(model))\n"
          "model_table = 2 * shape.vocab_size * shape.hidden_size\n",
          "Counted the table twice, as if the output head were a separate copy.",
          ("twice", "tied", "head", "double", "once", "only the table"),
          ("padded", "position")),
    # X
    Wrong(A1, "model_table",
          "model_table = 50000 * 768\n",
          "Used a rounded vocabulary of 50,000 instead of the config's exact size.",
          ("vocab_size", "exact", "round", "config", "50,257", "50257", "typed"),
          ("twice", "position")),
    # D HARD
    Wrong(A1, "model_table",
          "shape = model_shape(load_config(model))\n"
          "model_table = (shape.vocab_size + 1024) * shape.hidden_size / 1e6\n",
          "Two mistakes: added GPT-2's 1,024-row position table, and gave millions as "
          "the paper's table does.",
          ("position", "token table", "only", "wpe", "million", "unit"),
          ("padded", "twice")),
    # X
    Wrong(A1, "extra_dim_cost",
          "shape = model_shape(load_config(model))\n"
          "extra_dim_cost = shape.vocab_size * (shape.hidden_size + extra_features)\n",
          "Gave the whole new table instead of what it gains (the difference).",
          ("difference", "gain", "new minus old", "subtract", "extra",
           "only the added", "more"),
          ("head", "padded")),
    # L
    Wrong(A1, "extra_dim_cost",
          "shape = model_shape(load_config(model))\n"
          "extra_dim_cost = extra_features * shape.hidden_size\n",
          "Multiplied the extra features by the width d instead of by the vocabulary "
          "V.",
          ("vocab", "rows", "every token", "width", "d instead"),
          ("difference", "head")),
    # O HARD
    Wrong(A1, "extra_dim_cost",
          "shape = model_shape(load_config(model))\n"
          "extra_dim_cost = 2 * 50304 * extra_features\n",
          "Counted an untied head too and used nanoGPT's padded vocabulary: two "
          "mistakes.",
          ("tied", "head", "twice", "double", "padded", "vocab_size", "config"),
          ("difference", "width")),
    # D
    Wrong(A1, "extra_dim_cost",
          "extra_dim_cost = 50257 * 16 / 1e6\n",
          "Gave the gain in millions of parameters, as papers report it, instead of an"
          " int.",
          ("million", "unit", "whole number", "scale", "count"),
          ("head", "padded")),
    # L HARD
    Wrong(A1, "cosine",
          "def cosine(a, b):\n"
          "    dot = na = nb = 0.0\n"
          "    for i in range(1, len(a)):\n"
          "        dot += a[i] * b[i]\n"
          "        na += a[i] * a[i]\n"
          "        nb += b[i] * b[i]\n"
          "    return float(dot / (na * nb))\n",
          "Two mistakes: the loop skips element 0 and the sums of squares are not "
          "square-rooted.",
          ("range", "first", "off by one", "sqrt", "square root", "norm"),
          ("centre", "distance")),
    # O HARD
    Wrong(A1, "E",
          "E = np.array([[int(f in traits[w]) for f in sorted(features)]\n"
          "              for w in sorted(words)])\n",
          "Sorted both the words and the features alphabetically, reordering rows and "
          "columns.",
          ("order", "sort", "words", "features", "as given", "column"),
          ("normalis", "transpose")),
    # O HARD
    Wrong(A1, "cos_pair",
          "a = table[word_to_id[pair[0]]].astype(np.float16)\n"
          "b = table[word_to_id[pair[1]]].astype(np.float16)\n"
          "cos_pair = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-3))\n",
          "Cast to float16 (harmless on these 0/1 rows) and added an epsilon to the "
          "denominator (not harmless).",
          ("epsilon", "eps", "exact", "denominator", "1e-3", "float16", "extra"),
          ("centre", "distance")),
    # -------------------------------------------------- 02-lookup-vs-matmul
    # L
    Wrong(A2, "one_hot",
          "def one_hot(ids, V):\n"
          "    out = np.zeros((len(ids), V))\n"
          "    for t in range(len(ids) - 1):\n"
          "        out[t, ids[t]] = 1\n"
          "    return out\n",
          "The loop stops one early, so the last row stays all zeros.",
          ("last", "range", "off by one", "loop", "every row", "missing", "zero row"),
          ("sort", "transpose", "unique")),
    # O
    Wrong(A2, "one_hot",
          "def one_hot(ids, V):\n"
          "    return np.eye(V)[np.unique(ids)]\n",
          "Took np.unique of the ids, which de-duplicates and sorts them: rows lost "
          "and reordered.",
          ("unique", "duplicate", "repeat", "order", "sort", "one row per", "len(ids)"),
          ("transpose", "off by one")),
    # X
    Wrong(A2, "one_hot",
          "def one_hot(ids, V):\n"
          "    return np.eye(V)[ids].T\n",
          "Laid the vectors out as columns: shape (V, len(ids)) instead of (len(ids), "
          "V).",
          ("transpose", "shape", "column", "row per", "(len(ids), v)", "swapped"),
          ("unique", "off by one")),
    # D HARD
    Wrong(A2, "one_hot",
          "def one_hot(ids, V):\n"
          "    out = np.zeros((len(ids), V))\n"
          "    for t, i in enumerate(ids):\n"
          "        out[t, i - 1] = 1\n"
          "    return out.T\n",
          "Two mistakes: numbered ids from 1 as in the paper (every 1 one column left,"
          " id 0 wrapping to the last) and returned the transpose, shape (V, "
          "len(ids)).",
          ("column", "from 0", "zero", "index", "shift", "off by one"),
          ("transpose", "unique")),
    # X
    Wrong(A2, "rows_lookup",
          "rows_lookup = np.round(E[ids], 2)\n",
          "Rounded the looked-up rows to two decimals, as printed.",
          ("round", "decimal", "exact", "printed", "precision"),
          ("order", "sort", "scale")),
    # L
    Wrong(A2, "rows_lookup",
          "rows_lookup = np.array([E[ids[t]] for t in range(1, len(ids))])\n",
          "The loop starts at 1, so the first id's row is missing.",
          ("first", "range", "off by one", "missing", "one row per", "shape"),
          ("round", "sort")),
    # O
    Wrong(A2, "rows_lookup",
          "rows_lookup = E[sorted(set(ids))]\n",
          "De-duplicated and sorted the ids before the lookup.",
          ("duplicate", "repeat", "sort", "order", "unique", "set", "one row per"),
          ("round", "scale")),
    # D
    Wrong(A2, "rows_lookup",
          "rows_lookup = E[ids] * np.sqrt(table_d)\n",
          "Scaled the rows by sqrt(d) as the Transformer paper's embedding layer does.",
          ("scale", "sqrt", "multipl", "as they are", "plain lookup", "factor"),
          ("round", "sort")),
    # L
    Wrong(A2, "rows_matmul",
          "rows_matmul = E.T @ np.eye(table_V, dtype=np.float32)[ids].T\n",
          "Multiplied in the transposed order and got the transpose of the rows.",
          ("transpose", "order", "shape", "one_hot @ e", "left", "swapped"),
          ("normalis", "round")),
    # O
    Wrong(A2, "rows_matmul",
          "En = E / np.linalg.norm(E, axis=1, keepdims=True)\n"
          "rows_matmul = np.eye(table_V, dtype=np.float32)[ids] @ En\n",
          "Normalised the rows of E before the product.",
          ("normalis", "unit", "scale", "as it is", "unchanged", "norm"),
          ("transpose", "round")),
    # X
    Wrong(A2, "rows_matmul",
          "rows_matmul = np.round(np.eye(table_V)[ids] @ E, 3)\n",
          "Rounded the product to three decimals.",
          ("round", "decimal", "exact", "precision"),
          ("transpose", "normalis")),
    # D HARD
    Wrong(A2, "rows_matmul",
          "rows_matmul = np.round(np.eye(table_V)[np.array(ids) - 1] @ E, 4)\n",
          "Two mistakes: one-hot rows from 1-based ids (each selects the previous row,"
          " id 0 wraps to the last) and the product rounded to four decimals.",
          ("from 0", "index", "shift", "off by one", "one-hot"),
          ("transpose", "round", "normalis")),
    # X
    Wrong(A2, "keeps_sign",
          "keeps_sign = \"both\"\n",
          "Judged by the printed values, where -0. and 0. look alike, and answered "
          "both.",
          ("signbit", "sign", "-0.0", "negative zero", "matmul", "0.0 +"),
          ("lookup loses",)),
    # D
    Wrong(A2, "keeps_sign",
          "keeps_sign = \"matmul\"\n",
          "Took the matmul as the exact path a paper describes, the reverse of what "
          "happens.",
          ("signbit", "sign", "lookup", "copies", "adds", "0.0 +", "-0.0"),
          ()),
    # L
    Wrong(A2, "embedding_backward",
          "def embedding_backward(ids, grad_out, V):\n"
          "    g = np.zeros((V, grad_out.shape[1]))\n"
          "    g[ids] += grad_out\n"
          "    return g\n",
          "Used buffered fancy-index +=, so a repeated id keeps only its last row.",
          ("repeat", "add.at", "accumulat", "buffer", "duplicate", "overwrit", "last"),
          ("mean", "divide", "range")),
    # O
    Wrong(A2, "embedding_backward",
          "def embedding_backward(ids, grad_out, V):\n"
          "    g = np.zeros((V, grad_out.shape[1]))\n"
          "    np.add.at(g, ids, grad_out)\n"
          "    n = np.bincount(ids, minlength=V)\n"
          "    return g / np.maximum(n, 1)[:, None]\n",
          "Averaged the gradient of a repeated id instead of summing it.",
          ("average", "mean", "divide", "count", "repeat", "add up"),
          ("buffer", "range")),
    # D
    Wrong(A2, "embedding_backward",
          "def embedding_backward(ids, grad_out, V):\n"
          "    g = np.zeros((V, grad_out.shape[1]))\n"
          "    np.add.at(g, ids, grad_out)\n"
          "    return g / len(ids)\n",
          "Divided by the batch length as if the loss were a mean; grad_out already "
          "holds that.",
          ("divide", "batch", "mean", "len", "scale", "as given", "factor"),
          ("buffer", "repeat")),
    # L HARD
    Wrong(A2, "embedding_backward",
          "def embedding_backward(ids, grad_out, V):\n"
          "    g = np.zeros((V, grad_out.shape[1]))\n"
          "    for t in range(len(ids) - 1):\n"
          "        g[ids[t]] = grad_out[t]\n"
          "    return g\n",
          "Assigned instead of adding and stopped the loop one early: a repeated id "
          "keeps one row and the last position is dropped.",
          ("add", "accumulat", "+=", "overwrit", "first", "range", "repeat"),
          ("mean", "divide")),
    # X
    Wrong(A2, "updated_rows",
          "updated_rows = np.array([2, 4, 7, 9])\n",
          "Read the ids off by eye and missed id 0.",
          ("every id", "missing", "all ids", "unique", "compute", "typed"),
          ("tied", "sort")),
    # L
    Wrong(A2, "updated_rows",
          "updated_rows = np.array(batch).flatten()\n",
          "Listed every position's id: repeats kept and not sorted.",
          ("once", "unique", "duplicate", "repeat", "sort", "increasing", "order"),
          ("tied", "missing")),
    # D
    Wrong(A2, "updated_rows",
          "updated_rows = np.arange(batch_V)\n",
          "Answered every row, as for a tied head; this table is untied and only "
          "looked up.",
          ("untied", "tied", "every row", "all rows", "only looked up",
           "zero gradient", "head"),
          ("duplicate", "sort")),
    # L HARD
    Wrong(A2, "updated_rows",
          "seen = []\n"
          "for r in range(1, len(batch)):\n"
          "    for t in batch[r]:\n"
          "        if t not in seen:\n"
          "            seen.append(t)\n"
          "updated_rows = np.array(seen)\n",
          "Skipped the first sequence (loop from 1) and kept the ids in order of "
          "appearance, not sorted.",
          ("first", "range", "sequence", "first row", "sort", "increasing", "order",
           "missing"),
          ("tied", "every row")),
    # D
    Wrong(A2, "batch_flops",
          "batch_flops = V * d * n_tokens\n",
          "Counted a multiply-add as one FLOP; the course counts two.",
          ("multiply-add", "two", "factor", "flop per", "mac", "fma"),
          ("bytes", "round")),
    # X
    Wrong(A2, "batch_flops",
          "batch_flops = 2 * V * d * 1000\n",
          "Rounded the batch to 1,000 tokens instead of n_tokens.",
          ("n_tokens", "1024", "1,024", "batch", "round", "typed"),
          ("multiply-add", "int32")),
    # L
    Wrong(A2, "batch_flops",
          "batch_flops = int(np.int32(2) * np.int32(V) * np.int32(d)\n"
          "                  * np.int32(n_tokens))\n",
          "Computed in int32, which overflows and wraps around.",
          ("overflow", "int32", "wrap", "negative", "python int", "large"),
          ("multiply-add", "round")),
    # O
    Wrong(A2, "batch_flops",
          "batch_flops = (2 * V - 1) * d * n_tokens\n",
          "Counted V multiplies and V - 1 adds per output exactly instead of the "
          "course's 2·V.",
          ("two", "per weight", "flop", "convention", "exact count", "minus one"),
          ("bytes", "int32")),
    # X
    Wrong(A2, "one_hot_batch_bytes",
          "one_hot_batch_bytes = n_tokens * V * 4 / 1e6\n",
          "Gave megabytes instead of bytes.",
          ("mb", "megabyte", "unit", "1e6", "million"),
          ("int64", "float16")),
    # L
    Wrong(A2, "one_hot_batch_bytes",
          "oh = np.zeros((n_tokens, V), dtype=int)\n"
          "one_hot_batch_bytes = oh.size * oh.itemsize\n",
          "Sized it with the default int dtype (8 bytes) instead of the precision "
          "given.",
          ("precision", "dtype", "itemsize", "float32", "4 bytes", "int64", "8 bytes"),
          ("mb", "bits")),
    # D
    Wrong(A2, "one_hot_batch_bytes",
          "one_hot_batch_bytes = n_tokens * V * 32\n",
          "Used the 32 bits of float32 as if they were bytes.",
          ("bits", "bytes", "itemsize"),
          ("mb", "int64")),
    # O HARD
    Wrong(A2, "one_hot_batch_bytes",
          "one_hot_batch_bytes = n_tokens * d * np.dtype('float16').itemsize\n",
          "Sized the looked-up rows (n_tokens × d) instead of the one-hot matrix "
          "(n_tokens × V), and switched to float16 to save memory.",
          ("vocab", "one-hot", "width", "d instead", "float16", "precision", "dtype"),
          ("bits", "mb")),
    # L HARD
    Wrong(A2, "keeps_sign",
          "keeps_sign = \"lookup\" if np.signbit(E_zero[0, 1]) else \"neither\"\n",
          "Tested column 1 instead of the -0.0 in column 0, and answered neither, "
          "which is not one of the words offered.",
          ("column", "signbit", "-0.0", "lookup", "matmul", "both", "one of the words"),
          ()),
    # X HARD
    Wrong(A2, "batch_flops",
          "batch_flops = 2 * 32000 * 512 * 1000 / 1e9\n",
          "Rounded the batch to 1,000 tokens and gave GFLOPs instead of FLOPs.",
          ("n_tokens", "1024", "batch", "gflop", "unit", "round"),
          ("multiply-add", "overflow")),
    # X HARD
    Wrong(A2, "one_hot_batch_bytes",
          "one_hot_batch_bytes = round(n_tokens * V * 4 / 1e6)\n",
          "Gave megabytes rounded to a whole number instead of bytes.",
          ("bytes", "mb", "megabyte", "unit", "round", "1e6"),
          ("int64", "float16")),
    # L HARD
    Wrong(A2, "rows_lookup",
          "rows_lookup = np.array([E[ids[t]] for t in range(len(ids) - 1)],\n"
          "                       dtype=np.int32)\n",
          "Two mistakes: the loop stops one early (last row missing) and the rows are "
          "truncated to int32.",
          ("last", "range", "off by one", "dtype", "truncat", "float"),
          ("sort", "scale")),
    # -------------------------------------------------- 03-counting-gpt2
    # D
    Wrong(A3, "linear_params",
          "linear_params = linear_in * linear_out\n",
          "Left out the bias, as a paper's weight count does.",
          ("bias", "plus", "out"),
          ("round", "layernorm")),
    # L
    Wrong(A3, "linear_params",
          "linear_params = linear_in * linear_out + linear_in\n",
          "Gave the bias linear_in entries; it has one per output feature.",
          ("bias", "output", "linear_out", "per output", "in instead"),
          ("round", "layernorm")),
    # X
    Wrong(A3, "linear_params",
          "linear_params = 4200000\n",
          "Typed a rounded 4.2 million instead of the exact count.",
          ("exact", "round", "typed", "compute"),
          ("bias", "layernorm")),
    # O
    Wrong(A3, "linear_params",
          "linear_params = linear_in * linear_out + linear_out + 2 * linear_out\n",
          "Added a LayerNorm (gain and bias) after the layer, which the question does "
          "not have.",
          ("layernorm", "norm", "extra", "only", "weight and bias"),
          ("round", "in instead")),
    # D
    Wrong(A3, "block_params",
          "block_params = 12 * d * d\n",
          "Used the 12·d² rule of thumb, leaving out the biases and LayerNorms.",
          ("bias", "layernorm", "norm", "13", "exact", "rule of thumb", "approximat"),
          ("768", "final")),
    # X
    Wrong(A3, "block_params",
          "block_params = ((d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d)\n"
          "                + (4 * d * d + d) + 2 * d)\n",
          "Gave each LayerNorm only its gain (d), not its gain and bias (2d).",
          ("layernorm", "norm", "gain", "bias", "2d", "two vectors", "beta"),
          ("final", "768")),
    # L
    Wrong(A3, "block_params",
          "block_params = ((d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d)\n"
          "                + (4 * d * d + 4 * d) + 2 * (2 * d))\n",
          "Gave the second MLP layer a 4d bias; its output, and bias, is d wide.",
          ("bias", "mlp", "second", "output", "d wide", "4d"),
          ("final", "layernorm gain")),
    # O
    Wrong(A3, "block_params",
          "block_params = ((d * 3 * d + 3 * d) + (d * d + d) + (d * 4 * d + 4 * d)\n"
          "                + (4 * d * d + d) + 3 * (2 * d))\n",
          "Added a third LayerNorm (the model's final one) to the block.",
          ("layernorm", "two", "final", "extra", "norm", "per block"),
          ("bias", "768")),
    # D HARD
    Wrong(A3, "block_params",
          "dd = 768\n"
          "block_params = 12 * dd * dd + 11 * dd\n",
          "Two mistakes: GPT-2 small's width 768 from the paper's table instead of the"
          " config's d, and each LayerNorm given only its gain (d, not 2d).",
          ("width", "config", "hidden_size", "768", "layernorm", "bias", "gain"),
          ("final", "position")),
    # O
    Wrong(A3, "interview",
          "interview = 2 * interview_V * interview_d\n",
          "Counted the tied head as a second matrix.",
          ("tied", "once", "same matrix", "twice", "double", "shared", "reuse"),
          ("position", "bias")),
    # X
    Wrong(A3, "interview",
          "interview = interview_V * interview_d / 1e6\n",
          "Gave the count in millions.",
          ("million", "unit", "whole", "exact"),
          ("tied", "twice")),
    # L
    Wrong(A3, "interview",
          "interview = interview_V * interview_d + interview_V\n",
          "Added a bias of V entries to the head.",
          ("bias", "no bias", "extra", "head", "only the table"),
          ("twice", "million")),
    # D HARD
    Wrong(A3, "interview",
          "interview = (interview_V + 1024) * interview_d * 2\n",
          "Added GPT-2's 1,024-row position table and counted the tied head twice.",
          ("position", "tied", "twice", "once", "shared", "table", "head"),
          ("bias", "million")),
    # O
    Wrong(A3, "embedding_share",
          "counts = count_params(load_config(share_model))\n"
          "embedding_share = 2 * counts.token_embedding / counts.total\n",
          "Counted the tied head as a second copy of the table.",
          ("tied", "once", "twice", "double", "head", "only e"),
          ("position", "percent")),
    # D
    Wrong(A3, "embedding_share",
          "counts = count_params(load_config(share_model))\n"
          "embedding_share = (counts.token_embedding + counts.position_embedding) / "
          "counts.total\n",
          "Included the position table with the token table.",
          ("position", "token table", "only", "wpe", "token_embedding"),
          ("tied", "percent")),
    # X
    Wrong(A3, "embedding_share",
          "counts = count_params(load_config(share_model))\n"
          "embedding_share = round(100 * counts.token_embedding / counts.total, 1)\n",
          "Gave a percentage rounded to one decimal instead of a fraction.",
          ("percent", "fraction", "100", "between 0 and 1", "round"),
          ("tied", "position")),
    # D HARD
    Wrong(A3, "embedding_share",
          "counts = count_params(load_config(share_model))\n"
          "embedding_share = 100 * counts.token_embedding / 1.5e9\n",
          "Two mistakes: divided by the paper's rounded 1.5B instead of the exact "
          "total, and gave a percentage.",
          ("total", "exact", "round", "count_params", "1.5", "percent", "fraction"),
          ("tied", "position")),
    # L
    Wrong(A3, "estimate_gap",
          "estimate_gap = (V * d + 12 * L * d**2) - exact\n",
          "Subtracted the wrong way round (estimate - exact), so the sign is flipped.",
          ("sign", "negative", "exact minus", "order", "reverse", "the other way"),
          ("position", "square")),
    # X
    Wrong(A3, "estimate_gap",
          "estimate_gap = exact - 12 * L * d**2\n",
          "Left the V·d term out of the rule of thumb.",
          ("v·d", "v*d", "table", "embedding", "term", "missing", "rule"),
          ("sign", "position")),
    # O
    Wrong(A3, "estimate_gap",
          "estimate_gap = exact - (V * d + 1024 * d + 12 * L * d**2)\n",
          "Added the position table to the rule of thumb before subtracting.",
          ("rule", "v·d + 12", "as given", "position", "estimate", "formula"),
          ("sign", "square")),
    # D
    Wrong(A3, "estimate_gap",
          "estimate_gap = int(exact - (V * d + 12 * L * d**2) / 1e6)\n",
          "Mixed units: divided the estimate alone by 10^6, as in a paper's millions "
          "table.",
          ("unit", "million", "scale", "1e6", "parameters", "exact"),
          ("sign", "position")),
    # D
    Wrong(A3, "gpt2_params",
          "def gpt2_params(V, d, L, T):\n"
          "    return V * d + T * d + L * (12 * d * d + 13 * d)\n",
          "Left out the final LayerNorm.",
          ("final", "layernorm", "ln_f", "2d", "norm"),
          ("untied", "bias")),
    # O
    Wrong(A3, "gpt2_params",
          "def gpt2_params(V, d, L, T):\n"
          "    return 2 * V * d + T * d + L * (12 * d * d + 13 * d) + 2 * d\n",
          "Counted the head as a separate V × d matrix; GPT-2 ties it.",
          ("tied", "head", "once", "twice", "shared", "double"),
          ("final", "position")),
    # L
    Wrong(A3, "gpt2_params",
          "def gpt2_params(V, d, L, T):\n"
          "    n = V * d + T * d + 2 * d\n"
          "    for layer in range(1, L):\n"
          "        n += 12 * d * d + 13 * d\n"
          "    return n\n",
          "The block loop starts at 1 and counts one block too few.",
          ("range", "block", "off by one", "every layer", "loop", "l blocks"),
          ("tied", "final")),
    # X HARD
    Wrong(A3, "gpt2_params",
          "def gpt2_params(V, d, L, T):\n"
          "    return V * d + L * 12 * d * d + 2 * d\n",
          "Left out the position table and every bias and LayerNorm of the blocks.",
          ("position", "t·d", "bias", "layernorm", "13", "norm", "missing"),
          ("tied", "untied")),
    # X HARD
    Wrong(A3, "interview",
          "interview = round(interview_V * interview_d / 1e6, 1)\n",
          "Gave millions rounded to one decimal instead of the exact count.",
          ("million", "exact", "round", "whole", "unit"),
          ("tied", "twice")),
    # D HARD
    Wrong(A3, "estimate_gap",
          "estimate_gap = int(355e6) - (V * d + 12 * L * d)\n",
          "Two mistakes: the paper's rounded 355M instead of the exact count, and the "
          "rule of thumb remembered as 12·L·d without the square.",
          ("d²", "square", "d**2", "exact", "count_params", "355", "round"),
          ("sign", "position")),
    # -------------------------------------------------- 04-modern-blocks
    # D
    Wrong(A4, "attn_layer",
          "attn_layer = 4 * d * d\n",
          "Used the 4·d² of full multi-head attention; grouped k and v are smaller.",
          ("grouped", "h_kv", "key/value", "kv heads", "gqa", "4d", "full"),
          ("bias", "head_dim instead")),
    # L
    Wrong(A4, "attn_layer",
          "attn_layer = d * h * head_dim + d * h_kv * head_dim + h * head_dim * d\n",
          "Counted the k projection but forgot v.",
          ("value", "two", "k and v", "2 ·", "missing", "both"),
          ("bias", "full")),
    # O
    Wrong(A4, "attn_layer",
          "attn_layer = (d * h * head_dim + 2 * d * h_kv * head_dim + h * head_dim * "
          "d\n"
          "              + h * head_dim + 2 * h_kv * head_dim + d)\n",
          "Added biases to the four projections; this attention has none.",
          ("bias", "no bias", "without"),
          ("grouped", "value")),
    # X HARD
    Wrong(A4, "attn_layer",
          "attn_layer = 4 * d * h_kv * head_dim\n",
          "Used the key/value head count for q and o too, giving every projection the "
          "small grouped width.",
          ("query", "output", "heads", "h_kv", "num_heads"),
          ("bias", "full")),
    # D HARD
    Wrong(A4, "mlp_layer",
          "mlp_layer = 2 * d * d_ff\n",
          "Counted a classic two-matrix MLP; SwiGLU has three (gate, up, down). The "
          "value equals GPT-2's 8·d² here because d_ff is 4·d.",
          ("three", "gate", "swiglu", "down", "two matrices"),
          ("bias", "million")),
    # O
    Wrong(A4, "mlp_layer",
          "mlp_layer = 3 * d * d_ff + 2 * d_ff + d\n",
          "Added biases to the SwiGLU matrices; it has none.",
          ("bias", "no bias", "without"),
          ("three", "gate")),
    # X
    Wrong(A4, "mlp_layer",
          "mlp_layer = 3 * d * d_ff / 1e6\n",
          "Gave the count in millions.",
          ("million", "unit", "whole"),
          ("bias", "gate")),
    # L HARD
    Wrong(A4, "mlp_layer",
          "mlp_layer = 3 * d * 4 * d + 3 * d\n",
          "Typed d_ff as 4·d (it coincides with this config's intermediate_size) and "
          "added a d-wide bias to each of the three matrices.",
          ("bias", "no bias", "without", "d_ff", "intermediate_size"),
          ("two matrices", "gate")),
    # D
    Wrong(A4, "vocab_share",
          "c = count_params(load_config(share_model))\n"
          "vocab_share = c.token_embedding / c.total\n",
          "Counted only the token table, not the untied head.",
          ("head", "lm_head", "untied", "both", "output", "two matrices"),
          ("percent", "integer")),
    # X
    Wrong(A4, "vocab_share",
          "c = count_params(load_config(share_model))\n"
          "vocab_share = 100 * (c.token_embedding + c.lm_head) / c.total\n",
          "Gave a percentage instead of a fraction.",
          ("percent", "fraction", "100", "between 0 and 1"),
          ("head", "integer")),
    # O
    Wrong(A4, "vocab_share",
          "c = count_params(load_config(share_model))\n"
          "vocab_share = (c.token_embedding + c.lm_head) / (c.total - "
          "c.token_embedding - c.lm_head)\n",
          "Divided by the rest of the model instead of by the total.",
          ("total", "whole", "denominator", "divide", "rest"),
          ("percent", "head")),
    # L
    Wrong(A4, "vocab_share",
          "c = count_params(load_config(share_model))\n"
          "vocab_share = (c.token_embedding + c.lm_head) // c.total\n",
          "Used floor division, which gives 0.",
          ("floor", "integer", "//", "division", "float", "zero"),
          ("percent", "head")),
    # L
    Wrong(A4, "padding_params",
          "padding_params = (V % pad_multiple) * d\n",
          "Used the remainder V mod 64 instead of the rows up to the next multiple.",
          ("remainder", "modulo", "next multiple", "round up", "rows added"),
          ("tied", "twice")),
    # D
    Wrong(A4, "padding_params",
          "V_padded = -(-V // pad_multiple) * pad_multiple\n"
          "padding_params = 2 * (V_padded - V) * d\n",
          "Doubled the padding for the head; the head is tied and counts once.",
          ("tied", "once", "twice", "head", "double", "shared"),
          ("remainder", "rows only")),
    # X
    Wrong(A4, "padding_params",
          "padding_params = 50304 - 50257\n",
          "Gave the number of padded rows, not their parameters (times d).",
          ("times d", "width", "parameters", "rows", "× d", "*d"),
          ("tied", "remainder")),
    # O
    Wrong(A4, "padding_params",
          "V_padded = 1 << (int(V) - 1).bit_length()\n"
          "padding_params = (V_padded - V) * d\n",
          "Rounded up to the next power of two instead of the next multiple of "
          "pad_multiple.",
          ("multiple", "pad_multiple", "power of two", "round up"),
          ("tied", "remainder")),
    # D
    Wrong(A4, "llama_params",
          "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    hd = d // h\n"
          "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + (0 if tied else V * d)\n",
          "Left out the final RMSNorm.",
          ("final", "rmsnorm", "norm", "+ d", "last norm"),
          ("bias", "tied")),
    # O
    Wrong(A4, "llama_params",
          "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    hd = d // h\n"
          "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 4 * d\n"
          "    return V * d + L * layer + 2 * d + (0 if tied else V * d)\n",
          "Counted each RMSNorm with a bias, like a LayerNorm (2d each).",
          ("rmsnorm", "gain", "no bias", "layernorm", "norm", "d each", "one vector"),
          ("final", "tied")),
    # L
    Wrong(A4, "llama_params",
          "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    hd = d // h\n"
          "    layer = 2 * d * h * hd + 2 * d * h_kv * hd + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + d + (V * d if tied else 0)\n",
          "Inverted the tied test: adds the head when tied and leaves it out when "
          "untied.",
          ("tied", "untied", "head", "condition", "invert", "swapped", "separate"),
          ("final", "norm")),
    # X HARD
    Wrong(A4, "llama_params",
          "def llama_params(V, d, L, h, h_kv, d_ff, tied):\n"
          "    layer = 4 * d * d + 3 * d * d_ff + 2 * d\n"
          "    return V * d + L * layer + d + (0 if tied else V * d)\n",
          "Counted k and v as full d × d matrices (no grouping); equal to the right "
          "count only when h_kv = h, as in one of the random shapes.",
          ("grouped", "h_kv", "kv", "key/value", "gqa", "head_dim", "k and v"),
          ("final", "bias")),
    # X HARD
    Wrong(A4, "vocab_share",
          "c = count_params(load_config(share_model))\n"
          "vocab_share = round(100 * c.token_embedding / c.total, 1)\n",
          "Two mistakes: only the token table (head left out) and a rounded "
          "percentage.",
          ("head", "lm_head", "untied", "percent", "fraction", "100", "round"),
          ("integer", "denominator")),
    # L HARD
    Wrong(A4, "padding_params",
          "padding_params = 2 * (V % pad_multiple) * d\n",
          "Two mistakes: the remainder V mod 64 instead of the rows to the next "
          "multiple, and the tied head counted again.",
          ("remainder", "next multiple", "round up", "tied", "once", "twice"),
          ("power of two",)),
    # -------------------------------------------------- 05-weight-tying
    # O
    Wrong(A5, "tied_count",
          "tied_count = untied - 2 * V * d\n",
          "Took away both the head and the table; tying removes only the head's copy.",
          ("once", "one copy", "table stays", "head only", "v × d", "twice", "keeps"),
          ("model card", "8b")),
    # D
    Wrong(A5, "tied_count",
          "tied_count = int(8.0e9) - V * d\n",
          "Started from the model card's rounded 8B instead of the exact count.",
          ("exact", "untied", "count_params", "round", "8b", "model card", "total"),
          ("twice", "width")),
    # X
    Wrong(A5, "tied_count",
          "tied_count = untied - V\n",
          "Took away V instead of V × d: the head's width is missing.",
          ("v × d", "v*d", "width", "rows times", "matrix"),
          ("twice", "model card")),
    # L
    Wrong(A5, "tied_count",
          "a = np.array([untied, V, d]).astype(np.int32)\n"
          "tied_count = int(a[0] - a[1] * a[2])\n",
          "Computed in int32, which overflows on 8 billion.",
          ("overflow", "int32", "wrap", "python int", "large"),
          ("twice", "model card")),
    # L
    Wrong(A5, "grad_E",
          "grad_E = dlogits.T @ x\n",
          "Kept only the head's gradient, leaving out the lookup's rows dx0.",
          ("lookup", "dx0", "both", "two", "input", "embedding side", "add.at"),
          ("buffer", "transpose")),
    # D
    Wrong(A5, "grad_E",
          "grad_E = np.zeros((V, d))\n"
          "np.add.at(grad_E, ids, dx0)\n",
          "Kept only the lookup's gradient, as for an untied table; the head's "
          "dlogits.T @ x is missing.",
          ("head", "dlogits", "both", "two", "tied", "output", "logits"),
          ("buffer", "transpose")),
    # O
    Wrong(A5, "grad_E",
          "grad_E = dlogits.T @ x\n"
          "grad_E[ids] += dx0\n",
          "Used buffered fancy-index +=, so the repeated id 4 gets only one of its dx0"
          " rows.",
          ("repeat", "add.at", "buffer", "duplicate", "accumulat", "both", "twice"),
          ("head", "transpose")),
    # X HARD
    Wrong(A5, "grad_E",
          "grad_E = np.zeros((V, d))\n"
          "grad_E[ids] += dx0\n",
          "Two mistakes: left out the head's term and added the lookup rows with "
          "buffered +=, so the repeated id counts once.",
          ("head", "dlogits", "both", "repeat", "add.at", "duplicate", "tied"),
          ("transpose", "mean")),
    # D
    Wrong(A5, "grad_E",
          "grad_E = (dlogits.T @ x) / len(ids)\n"
          "np.add.at(grad_E, ids, dx0 / len(ids))\n",
          "Divided by the number of tokens as for a mean loss; the given gradients "
          "already are.",
          ("divide", "mean", "scale", "len", "as given", "factor", "already"),
          ("repeat", "head")),
    # L
    Wrong(A5, "count_unique",
          "def count_unique(storage, sizes):\n"
          "    total = 0\n"
          "    for n in sizes:\n"
          "        total += n\n"
          "    return int(total)\n",
          "Summed every entry, counting a shared storage twice.",
          ("once", "storage", "shared", "tied", "twice", "duplicate", "unique"),
          ("size", "first")),
    # O
    Wrong(A5, "count_unique",
          "def count_unique(storage, sizes):\n"
          "    s = np.sort(storage)\n"
          "    first = np.r_[True, s[1:] != s[:-1]]\n"
          "    return int(sizes[first].sum())\n",
          "Sorted the storage ids without sorting the sizes with them, so they no "
          "longer line up.",
          ("sort", "line up", "align", "storage", "pair", "each entry", "zip"),
          ("twice", "first")),
    # D
    Wrong(A5, "count_unique",
          "def count_unique(storage, sizes):\n"
          "    return int(sum(set(storage.tolist())))\n",
          "Summed the distinct storage ids themselves instead of their sizes.",
          ("size", "parameters", "ids", "sum the sizes", "storage id", "value"),
          ("twice", "sort")),
    # X HARD
    Wrong(A5, "count_unique",
          "def count_unique(storage, sizes):\n"
          "    return int(sizes.sum() - sizes.max())\n",
          "Took the biggest entry off, assuming the tied copy is the largest; right on"
          " the question's own example (96 - 40 = 56) but not in general.",
          ("storage", "once", "each storage", "unique", "shared", "general", "assum"),
          ("equal size",)),
    # L
    Wrong(A5, "ties",
          "ties = next(name for name in candidates\n"
          "            if not load_config(name)[\"tie_word_embeddings\"])\n",
          "Inverted the test and picked the first model that does not tie.",
          ("not", "invert", "true", "flag", "condition", "tie_word_embeddings",
           "untied"),
          ("typed", "list")),
    # D
    Wrong(A5, "ties",
          "ties = \"mistral-7b\"\n",
          "Typed a name from memory instead of reading the flags.",
          ("flag", "tie_word_embeddings", "config", "loop", "read", "typed", "memory"),
          ("invert", "list")),
    # O
    Wrong(A5, "ties",
          "ties = [name for name in candidates\n"
          "        if load_config(name)[\"tie_word_embeddings\"]]\n",
          "Returned a list of the tying names instead of the name itself.",
          ("list", "string", "name", "one", "single", "str", "[0]"),
          ("invert", "typed")),
    # D
    Wrong(A5, "state_dict_sum",
          "state_dict_sum = count_params(load_config(tied_model)).total\n",
          "Gave count_params's total, which counts the tied table once; the naive sum "
          "counts it twice.",
          ("twice", "both names", "naive", "each entry", "tied", "v × d", "duplicate"),
          ("position", "width")),
    # X
    Wrong(A5, "state_dict_sum",
          "state_dict_sum = 2 * count_params(load_config(tied_model)).total\n",
          "Doubled the whole model instead of adding one more copy of the table.",
          ("table", "v × d", "only the table", "one copy", "double", "whole"),
          ("position", "width")),
    # L
    Wrong(A5, "state_dict_sum",
          "s = model_shape(load_config(tied_model))\n"
          "state_dict_sum = count_params(load_config(tied_model)).total + "
          "s.vocab_size\n",
          "Added V instead of V × d for the second name.",
          ("v × d", "width", "matrix", "rows times"),
          ("position", "double")),
    # O
    Wrong(A5, "state_dict_sum",
          "c = count_params(load_config(tied_model))\n"
          "state_dict_sum = c.total + c.token_embedding + c.position_embedding\n",
          "Counted the position table a second time as well as the token table.",
          ("position", "only the token", "token table", "wte", "tied", "head"),
          ("width", "double")),
    # X HARD
    Wrong(A5, "ties",
          "flagged = [load_config(n)[\"tie_word_embeddings\"] for n in candidates]\n"
          "ties = flagged.index(True) + 1\n",
          "Gave the row number of the tying model, counted from 1 as in a spreadsheet,"
          " instead of its name: a number where a word is wanted, and one off as an "
          "index too.",
          ("name", "word", "string", "candidates", "spells", "not a number", "index"),
          ("invert", "typed")),
    # X HARD
    Wrong(A5, "tied_count",
          "tied_count = round(untied / 1e9, 2) * 1e9 - V\n",
          "Two mistakes: rounded the untied count to 8.03 billion, and took away V "
          "instead of V × d.",
          ("exact", "round", "decimal", "v × d", "width", "matrix"),
          ("twice", "model card")),
    # -------------------------------------------------- 06-params-vs-compute
    # D
    Wrong(A6, "head_flops",
          "head_flops = d * V\n",
          "Counted a multiply-add as one FLOP.",
          ("two", "multiply-add", "factor", "per weight", "mac"),
          ("bias", "giga")),
    # X
    Wrong(A6, "head_flops",
          "head_flops = 2 * d * V / 1e9\n",
          "Gave GFLOPs instead of FLOPs.",
          ("gflop", "unit", "1e9", "flops", "billion"),
          ("multiply-add", "bias")),
    # O
    Wrong(A6, "head_flops",
          "head_flops = 2 * d * V + V\n",
          "Added V FLOPs for a bias or softmax the question does not count.",
          ("bias", "softmax", "extra", "only the matrix", "2·d·v"),
          ("multiply-add", "giga")),
    # L HARD
    Wrong(A6, "head_flops",
          "head_flops = (2 * d - 1) * V * T\n",
          "Counted exact adds (2d - 1 per output) and multiplied by a context length: "
          "one position was asked.",
          ("one position", "per position", "2·d·v", "two per weight", "single",
           "context"),
          ("giga", "bias")),
    # D
    Wrong(A6, "lookup_flops",
          "lookup_flops = 2 * d\n",
          "Priced the copy of a row as d multiply-adds; a lookup does no arithmetic.",
          ("zero", "no arithmetic", "copy", "free", "index"),
          ("one-hot", "matmul")),
    # O
    Wrong(A6, "lookup_flops",
          "lookup_flops = 2 * V * d\n",
          "Priced the lookup as the one-hot matmul; indexing costs no FLOPs.",
          ("zero", "index", "no arithmetic", "matmul", "one-hot", "copy"),
          ("per number",)),
    # X
    Wrong(A6, "lookup_flops",
          "lookup_flops = d\n",
          "Counted one FLOP per number copied.",
          ("zero", "copy", "no arithmetic", "free", "index"),
          ("one-hot", "matmul")),
    # D HARD
    Wrong(A6, "kaplan_n",
          "kaplan_n = counts.total - counts.token_embedding\n",
          "Left the untied head in; the value coincides with leaving the table in "
          "instead, since Llama-3-8B's head and table have the same size.",
          ("head", "lm_head", "untied", "position", "all three", "embedding"),
          ("round", "twice")),
    # X
    Wrong(A6, "kaplan_n",
          "kaplan_n = int(7e9)\n",
          "Typed a rounded 7B non-embedding figure instead of computing it.",
          ("compute", "exact", "count_params", "typed", "round", "parts"),
          ("head", "twice")),
    # O
    Wrong(A6, "kaplan_n",
          "kaplan_n = (counts.total - 2 * counts.token_embedding - counts.lm_head\n"
          "            - counts.position_embedding)\n",
          "Took the token table away twice (as input and as embedding) as well as the "
          "head.",
          ("once", "twice", "token_embedding", "each part", "double"),
          ("round", "position")),
    # D
    Wrong(A6, "head_share_training",
          "head_share_training = c.head / (c.input + c.blocks + c.head)\n",
          "Left attention over the context out of the total.",
          ("attention", "context", "keys", "t(t+1)/2", "total", "missing"),
          ("percent", "causal")),
    # L
    Wrong(A6, "head_share_training",
          "attention = c.attention_per_key * T * T // 2\n"
          "total = T * (c.input + c.blocks + c.head) + attention\n"
          "head_share_training = T * c.head / total\n",
          "Counted T²/2 keys instead of T(T+1)/2.",
          ("t(t+1)/2", "+1", "keys", "t + 1", "diagonal", "itself", "count of keys"),
          ("percent", "full")),
    # O
    Wrong(A6, "head_share_training",
          "attention = c.attention_per_key * T * T\n"
          "total = T * (c.input + c.blocks + c.head) + attention\n"
          "head_share_training = T * c.head / total\n",
          "Counted full T² attention, not causal: each token attends only to earlier "
          "ones.",
          ("causal", "t(t+1)/2", "half", "earlier", "keys", "mask"),
          ("percent", "missing")),
    # X
    Wrong(A6, "head_share_training",
          "attention = c.attention_per_key * T * (T + 1) // 2\n"
          "total = T * (c.input + c.blocks + c.head) + attention\n"
          "head_share_training = round(100 * T * c.head / total, 2)\n",
          "Gave a rounded percentage instead of the fraction.",
          ("percent", "fraction", "100", "round"),
          ("causal", "keys")),
    # L HARD
    Wrong(A6, "head_share_prompt",
          "attention = c.attention_per_key * T * (T + 1) // 2\n"
          "total = T * (c.input + c.blocks + c.head) + attention\n"
          "head_share_prompt = T * c.head / total\n",
          "Ran the head at every position as in training; the value equals question "
          "4's answer.",
          ("once", "last position", "one position", "prompt", "only the last",
           "t times"),
          ("percent", "causal")),
    # D
    Wrong(A6, "head_share_prompt",
          "head_share_prompt = c.head / (T * (c.input + c.blocks) + c.head)\n",
          "Left attention over the context out of the total.",
          ("attention", "context", "keys", "t(t+1)/2", "missing"),
          ("once", "percent")),
    # O
    Wrong(A6, "head_share_prompt",
          "attention = c.attention_per_key * T * (T + 1) // 2\n"
          "total = T * (c.input + c.blocks) + attention + c.head\n"
          "head_share_prompt = T * c.head / total\n",
          "Multiplied the head by T in the numerator while counting it once in the "
          "total.",
          ("once", "numerator", "t times", "same", "consistent", "last position"),
          ("causal", "missing")),
    # X
    Wrong(A6, "head_share_prompt",
          "attention = c.attention_per_key * T * (T + 1) // 2\n"
          "total = T * (c.input + c.blocks) + attention + c.head\n"
          "head_share_prompt = round(c.head / total, 4)\n",
          "Rounded the fraction to four decimals.",
          ("round", "exact", "decimal", "precision"),
          ("once", "attention")),
    # D
    Wrong(A6, "forward_flops_per_token",
          "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 2 * L * context * d + 2 * "
          "d * V\n",
          "Counted attention over the context as 2·context·d per block instead of "
          "4·context·d.",
          ("four", "attention", "context", "scores and values", "qk and av",
           "4·context·d"),
          ("head", "block")),
    # L
    Wrong(A6, "forward_flops_per_token",
          "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    total = 2 * d * V\n"
          "    for layer in range(L - 1):\n"
          "        total += 2 * (4 * d * d + 2 * d * d_ff) + 4 * context * d\n"
          "    return total\n",
          "The block loop runs L - 1 times.",
          ("range", "block", "off by one", "every layer", "l blocks", "loop"),
          ("4·context", "head")),
    # O
    Wrong(A6, "forward_flops_per_token",
          "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + 4 * "
          "d * V\n",
          "Priced the input lookup as a matmul too, doubling the head's term.",
          ("lookup", "zero", "free", "input", "head only", "once"),
          ("block", "4·context")),
    # X HARD
    Wrong(A6, "forward_flops_per_token",
          "def forward_flops_per_token(V, d, L, d_ff, context):\n"
          "    return 2 * L * 12 * d * d + 4 * L * context * d + 2 * d * V\n",
          "Used 12·d² per block, which assumes d_ff = 4d: right on GPT-2 small and XL,"
          " wrong on the other shapes.",
          ("d_ff", "4d", "mlp", "intermediate", "width"),
          ("lookup", "attention")),
    # X
    Wrong(A6, "flop_rate",
          "flop_rate = 6 * N * D / (GPU_HOURS * 3600) / 1e12\n",
          "Gave TFLOP/s instead of FLOP/s.",
          ("tflop", "unit", "1e12", "flop/s", "tera"),
          ("minutes", "total")),
    # D
    Wrong(A6, "flop_rate",
          "flop_rate = 6 * 8e9 * D / (GPU_HOURS * 3600)\n",
          "Used the model card's 8B for N instead of the lesson's N_mult.",
          ("n_mult", "exact", "looked up", "8b", "model card", "computed"),
          ("tflop", "minutes")),
    # L
    Wrong(A6, "flop_rate",
          "flop_rate = 6 * N * D / (GPU_HOURS * 60)\n",
          "Converted hours with 60 (minutes) instead of 3600 seconds.",
          ("3600", "seconds", "hour", "unit", "per second"),
          ("tflop", "8b")),
    # O HARD
    Wrong(A6, "flop_rate",
          "flop_rate = 2 * counts.total * D / (GPU_HOURS * 3600)\n",
          "Two mistakes: used 2·N (forward only) instead of 6·N, and counts.total "
          "instead of N_mult.",
          ("six", "backward", "forward", "n_mult", "looked up", "total"),
          ("tflop", "minutes")),
    # D
    Wrong(A6, "active_params",
          "active_params = int(counts.total * k / n_experts)\n",
          "Scaled the whole model by k / n_experts; only the experts are skipped.",
          ("experts", "only the experts", "attention", "shared", "skip", "mlp"),
          ("three", "table")),
    # L
    Wrong(A6, "active_params",
          "active_params = counts.total - moe_layers * (n_experts - k) * d * d_ff\n",
          "Counted one d × d_ff matrix per skipped expert instead of three.",
          ("three", "gate", "down", "swiglu", "matrices"),
          ("table", "k / n")),
    # O
    Wrong(A6, "active_params",
          "active_params = (counts.total - moe_layers * (n_experts - k) * 3 * d * "
          "d_ff\n"
          "                 - counts.token_embedding)\n",
          "Also took away the token table as only looked up; the question counts "
          "stored parameters a token uses, the table's row included.",
          ("table", "token_embedding", "embedding", "keep", "only experts", "lookup"),
          ("three", "k / n")),
    # D HARD
    Wrong(A6, "active_params",
          "active_params = int(46.7e9 * k / n_experts)\n",
          "Two mistakes: started from the published rounded 46.7B total and scaled the"
          " whole model by k / n_experts, though only the experts are skipped.",
          ("counts.total", "exact", "published", "experts", "only the experts",
           "attention"),
          ("three", "table")),
    # X
    Wrong(A6, "active_params",
          "active_params = counts.total - moe_layers * (n_experts - k - 1) * 3 * d * "
          "d_ff\n",
          "Skipped one expert too few (n_experts - k - 1).",
          ("n_experts - k", "skipped", "off by one", "experts", "count"),
          ("table", "three")),
    # L
    Wrong(A6, "lookup_flops",
          "lookup_flops = V + d\n",
          "Priced a linear search over the V rows plus a copy of d numbers; indexing "
          "is free.",
          ("zero", "index", "no arithmetic", "free", "copy", "search"),
          ("matmul", "one-hot")),
    # X HARD
    Wrong(A6, "kaplan_n",
          "kaplan_n = round((counts.total - counts.token_embedding\n"
          "                  - counts.lm_head) / 1e9, 2)\n",
          "Gave billions rounded to two decimals instead of the exact int.",
          ("billion", "exact", "round", "unit", "whole number"),
          ("head", "twice")),
    # X HARD
    Wrong(A6, "head_flops",
          "head_flops = round(2 * d * V / 1e9, 2)\n",
          "Gave GFLOPs rounded to two decimals instead of FLOPs.",
          ("gflop", "unit", "round", "flops", "exact"),
          ("multiply-add", "bias")),
    # X HARD
    Wrong(A6, "flop_rate",
          "flop_rate = round(6 * N * D / (GPU_HOURS * 3600) / 1e12)\n",
          "Gave TFLOP/s rounded to a whole number instead of FLOP/s.",
          ("tflop", "unit", "1e12", "flop/s", "round", "exact"),
          ("minutes", "8b")),
    # X HARD
    Wrong(A6, "head_share_training",
          "head_share_training = 100 * c.head / (c.input + c.blocks + c.head)\n",
          "Two mistakes: a percentage instead of a fraction, and attention left out of"
          " the total.",
          ("percent", "fraction", "100", "attention", "keys", "context"),
          ("causal",)),
    # -------------------------------------------------- 07-memory
    # D
    Wrong(A7, "weights_gb_4bit",
          "weights_gb_4bit = N * 0.5 / 2**30\n",
          "Divided by 2^30 (GiB) instead of 10^9 (GB).",
          ("gib", "gb", "10^9", "1e9", "2^30", "2**30", "unit"),
          ("4 bytes", "scales")),
    # X
    Wrong(A7, "weights_gb_4bit",
          "weights_gb_4bit = N * 4 / 1e9\n",
          "Used 4 bytes per parameter instead of 4 bits (half a byte).",
          ("bit", "half a byte", "0.5", "byte", "4 bits", "int4"),
          ("gib", "scales")),
    # L
    Wrong(A7, "weights_gb_4bit",
          "weights_gb_4bit = N // 2 // 10**9\n",
          "Used integer division, dropping the fraction of a GB.",
          ("floor", "integer", "//", "division", "float", "fraction"),
          ("gib", "4 bytes")),
    # O
    Wrong(A7, "weights_gb_4bit",
          "weights_gb_4bit = (N * 0.5 + N / 32 * 2) / 1e9\n",
          "Added fp16 scales per group of 32, which the question says to ignore.",
          ("scale", "ignore", "quantization", "only the weights", "group", "extra"),
          ("gib", "4 bytes")),
    # D HARD
    Wrong(A7, "weights_gb_4bit",
          "weights_gb_4bit = 8e9 * 4 / 8 / 2**30\n",
          "Two mistakes: the model card's rounded 8B instead of count_params, and GiB "
          "instead of GB.",
          ("count_params", "exact", "8b", "round", "gib", "gb", "1e9", "unit"),
          ("4 bytes", "scales")),
    # D
    Wrong(A7, "adam_parts",
          "adam_parts = np.array([4, 4, 4, 8]) * n_params\n",
          "Stored weights and gradients in fp32 (4 bytes) instead of fp16.",
          ("fp16", "2 bytes", "16-bit", "half", "weights", "gradients", "mixed"),
          ("m and v",)),
    # L
    Wrong(A7, "adam_parts",
          "adam_parts = np.array([2, 2, 4, 4]) * n_params\n",
          "Counted only one Adam moment (m) instead of m and v.",
          ("m and v", "two moments", "both", "8 bytes", "moments"),
          ("fp16",)),
    # O
    Wrong(A7, "adam_parts",
          "adam_parts = np.array([16 * n_params])\n",
          "Gave the total 16 bytes per parameter instead of the four parts.",
          ("parts", "four", "separate", "array of four", "each part"),
          ("fp16", "moments")),
    # X
    Wrong(A7, "adam_parts",
          "adam_parts = np.array([2, 2, 4, 8]) * n_params / 1e9\n",
          "Gave GB instead of bytes.",
          ("bytes", "gb", "unit", "1e9", "integer"),
          ("fp16", "moments")),
    # D HARD
    Wrong(A7, "adam_parts",
          "adam_parts = np.array([2, 4, 4, 4]) * n_params\n",
          "Two mistakes: gradients in fp32 (4 bytes) and only one Adam moment; the "
          "sum, 14 bytes per parameter, hides both.",
          ("gradient", "fp16", "2 bytes", "m and v", "two moments", "both"),
          ("sum", "total")),
    # D
    Wrong(A7, "kv_bytes_per_token",
          "kv_bytes_per_token = int(2 * L * h * head_dim * 2)\n",
          "Used the query heads h instead of the key/value heads h_kv.",
          ("h_kv", "key/value", "kv heads", "grouped", "gqa", "query heads"),
          ("factor 2", "fp32")),
    # L
    Wrong(A7, "kv_bytes_per_token",
          "kv_bytes_per_token = int(L * h_kv * head_dim\n"
          "                         * BYTES_PER_PARAM[cache_precision])\n",
          "Left out the factor 2: keys and values are both cached.",
          ("two", "keys and values", "k and v", "both", "factor"),
          ("h_kv", "fp32")),
    # X
    Wrong(A7, "kv_bytes_per_token",
          "kv_bytes_per_token = 2 * L * h_kv * head_dim * 2 / 1024\n",
          "Gave KiB instead of bytes.",
          ("bytes", "kib", "kb", "1024", "unit"),
          ("h_kv", "factor")),
    # O
    Wrong(A7, "kv_bytes_per_token",
          "kv_bytes_per_token = 2 * L * h_kv * head_dim * 4\n",
          "Stored the cache in fp32 to be safe; the question says cache_precision.",
          ("precision", "bytes per number", "bf16", "2 bytes", "cache_precision",
           "fp32"),
          ("h_kv", "factor")),
    # D HARD
    Wrong(A7, "kv_bytes_per_token",
          "kv_bytes_per_token = int(L * h * head_dim * 2)\n",
          "Two mistakes: the query heads h instead of h_kv and no factor 2 for keys "
          "and values.",
          ("h_kv", "key/value", "grouped", "both", "keys and values"),
          ("fp32", "kib")),
    # D
    Wrong(A7, "gqa_saving_gib",
          "b = BYTES_PER_PARAM[cache_precision]\n"
          "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * b * context / 1e9\n",
          "Gave GB (10^9) instead of GiB (2^30).",
          ("gib", "2^30", "2**30", "gb", "unit", "1e9"),
          ("ratio", "grouped")),
    # X
    Wrong(A7, "gqa_saving_gib",
          "b = BYTES_PER_PARAM[cache_precision]\n"
          "gqa_saving_gib = 2 * L * h_kv * head_dim * b * context / 2**30\n",
          "Gave the grouped cache itself, not what grouping saves.",
          ("save", "difference", "full minus", "compared", "one head per query",
           "h - h_kv"),
          ("gib", "ratio")),
    # L HARD
    Wrong(A7, "gqa_saving_gib",
          "gqa_saving_gib = h / h_kv\n",
          "Gave the ratio h / h_kv; in the book it equals the full cache in GiB (4.0),"
          " another mistake's value.",
          ("gib", "bytes", "difference", "save", "ratio", "size", "full minus"),
          ("gb", "fp32")),
    # O
    Wrong(A7, "gqa_saving_gib",
          "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * 4 * context / 2**30\n",
          "Priced the cache at fp32 (4 bytes) instead of cache_precision.",
          ("precision", "bf16", "2 bytes", "bytes per number", "cache_precision"),
          ("gb", "ratio")),
    # D
    Wrong(A7, "kv_cache_gb",
          "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / "
          "2**30\n",
          "Returned GiB instead of GB.",
          ("gib", "gb", "1e9", "2^30", "unit"),
          ("factor", "round")),
    # L
    Wrong(A7, "kv_cache_gb",
          "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    total = 0\n"
          "    for layer in range(L):\n"
          "        total += h_kv * head_dim * bytes_per_number * context\n"
          "    return total * batch / 1e9\n",
          "Left out the factor 2 for keys and values.",
          ("two", "keys and values", "k and v", "both", "factor"),
          ("gib", "round")),
    # O
    Wrong(A7, "kv_cache_gb",
          "import math\n"
          "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    b = math.ceil(bytes_per_number)\n"
          "    return 2 * L * h_kv * head_dim * b * context * batch / 1e9\n",
          "Rounded bytes per number up to a whole byte, which breaks 4-bit caches.",
          ("half", "0.5", "fraction", "bytes per number", "round", "ceil", "as given"),
          ("gib", "factor")),
    # X
    Wrong(A7, "kv_cache_gb",
          "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return round(2 * L * h_kv * head_dim * bytes_per_number * context * "
          "batch / 1e9, 2)\n",
          "Rounded the result to two decimals.",
          ("round", "decimal", "exact", "precision"),
          ("gib", "factor")),
    # D HARD
    Wrong(A7, "kv_cache_gb",
          "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    return L * h_kv * head_dim * bytes_per_number * context * batch / "
          "2**30\n",
          "Two mistakes: no factor 2 for keys and values, and GiB instead of GB.",
          ("keys and values", "both", "factor", "gib", "gb", "1e9"),
          ("round", "ceil")),
    # X
    Wrong(A7, "max_batch",
          "max_batch = round((memory - weights) / per_sequence, 2)\n",
          "Gave the fractional number of sequences, rounded to two decimals, not whole"
          " ones.",
          ("whole", "floor", "round down", "fraction", "partial"),
          ("weights", "gib")),
    # D
    Wrong(A7, "max_batch",
          "max_batch = int((gpu_gb * 2**30 - weights) // per_sequence)\n",
          "Took the GPU as 80 GiB instead of 80·10^9 bytes.",
          ("gb", "gib", "1e9", "10^9", "2^30", "unit", "memory"),
          ("ceil", "weights")),
    # L
    Wrong(A7, "max_batch",
          "max_batch = int(memory // per_sequence)\n",
          "Forgot to take the weights out of the memory first.",
          ("weights", "subtract", "left", "remaining", "minus"),
          ("ceil", "gib")),
    # O
    Wrong(A7, "max_batch",
          "max_batch = int((0.9 * memory - weights) // per_sequence)\n",
          "Kept 10 % headroom the question does not ask for.",
          ("headroom", "whole memory", "exactly", "0.9", "margin"),
          ("ceil", "gib")),
    # D HARD
    Wrong(A7, "max_batch",
          "max_batch = round((memory - 8e9 * 2) / per_sequence)\n",
          "Two mistakes: weights from the model card's rounded 8B (alone harmless in "
          "the book: still 59) and rounding to the nearest whole sequence instead of "
          "down.",
          ("exact", "count_params", "8b", "round", "floor", "whole"),
          ("gib", "headroom")),
    # X HARD
    Wrong(A7, "weights_gb_4bit",
          "n_b = round(N / 1e9, 2)\n"
          "weights_gb_4bit = round(n_b * 0.5, 3)\n",
          "Rounded N to 8.03 billion and the result again: rounding at each step.",
          ("round", "exact", "decimal", "precision", "each step"),
          ("gib", "4 bytes")),
    # X HARD
    Wrong(A7, "gqa_saving_gib",
          "b = BYTES_PER_PARAM[cache_precision]\n"
          "full = round(2 * L * h * head_dim * b * context / 1e9, 2)\n"
          "grouped = round(2 * L * h_kv * head_dim * b * context / 1e9, 2)\n"
          "gqa_saving_gib = full - grouped\n",
          "Worked in GB instead of GiB and rounded each cache to two decimals before "
          "subtracting.",
          ("gib", "2^30", "2**30", "gb", "unit", "round"),
          ("ratio", "fp32")),
    # X HARD
    Wrong(A7, "kv_bytes_per_token",
          "kv_bytes_per_token = round(2 * L * h_kv * head_dim * 2 / 1000, 1)\n",
          "Gave kilobytes (10^3) rounded to one decimal instead of bytes.",
          ("bytes", "kb", "unit", "round", "1000"),
          ("h_kv", "factor")),
    # L HARD
    Wrong(A7, "max_batch",
          "max_batch = int((memory - weights) / 1e9) // int(per_sequence / 1e9)\n",
          "Truncated both the free memory and the sequence's cache to whole GB with "
          "int() before dividing (63 // 1).",
          ("truncat", "exact", "bytes", "per_sequence", "round"),
          ("gib", "headroom")),
    # O
    Wrong(A7, "kv_cache_gb",
          "def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
          "    n = np.float32(2 * L * h_kv * head_dim) * "
          "np.float32(bytes_per_number)\n"
          "    return float(n * np.float32(context * batch) / np.float32(1e9))\n",
          "Cast the factors to float32 to save memory, which rounds the result off in "
          "the eighth digit.",
          ("float32", "precision", "cast", "float64", "rounding", "dtype"),
          ("gib", "factor")),
    # -------------------------------------------------- 08-vocabulary-size
    # D
    Wrong(A8, "embedding_params",
          "embedding_params = 2 * V_big * d\n",
          "Counted the tied head as a second table.",
          ("tied", "once", "twice", "shared", "double", "head"),
          ("v_small", "off by one")),
    # X
    Wrong(A8, "embedding_params",
          "embedding_params = V_small * d\n",
          "Used V_small instead of V_big.",
          ("v_big", "vocabulary", "256", "bigger", "wrong vocabulary"),
          ("tied", "twice")),
    # L
    Wrong(A8, "embedding_params",
          "embedding_params = 0\n"
          "for v in range(1, V_big):\n"
          "    embedding_params += d\n",
          "The row loop starts at 1 and counts one row too few.",
          ("range", "off by one", "loop", "every row"),
          ("tied", "v_small")),
    # D
    Wrong(A8, "embedding_share",
          "embedding_share = table / rest\n",
          "Divided by the rest of the model instead of by the whole model.",
          ("whole", "total", "table + rest", "denominator"),
          ("percent", "twice")),
    # X
    Wrong(A8, "embedding_share",
          "embedding_share = 100 * table / (table + rest)\n",
          "Gave a percentage instead of a fraction.",
          ("percent", "fraction", "100", "between 0 and 1"),
          ("denominator", "twice")),
    # O
    Wrong(A8, "embedding_share",
          "embedding_share = 2 * table / (2 * table + rest)\n",
          "Counted the tied head as a second table in both places.",
          ("tied", "once", "twice", "double", "head", "shared"),
          ("percent", "denominator")),
    # X HARD
    Wrong(A8, "embedding_share",
          "embedding_share = round(table / rest, 2)\n",
          "Two mistakes: divided by the rest instead of the whole, and rounded to two "
          "decimals.",
          ("whole", "total", "denominator", "table + rest", "round", "decimal"),
          ("percent", "tied")),
    # D
    Wrong(A8, "extra_head_flops",
          "extra_head_flops = d * (V_big - V_small)\n",
          "Counted a multiply-add as one FLOP.",
          ("two", "multiply-add", "factor", "per weight"),
          ("lookup", "difference")),
    # X
    Wrong(A8, "extra_head_flops",
          "extra_head_flops = 2 * d * V_big\n",
          "Gave the big head's whole cost instead of the difference.",
          ("difference", "more", "minus", "subtract", "v_small", "extra"),
          ("multiply-add", "lookup")),
    # O
    Wrong(A8, "extra_head_flops",
          "extra_head_flops = 2 * 2 * d * (V_big - V_small)\n",
          "Also priced the input lookup as a matmul; a lookup is free.",
          ("lookup", "zero", "free", "input", "head only"),
          ("difference", "multiply-add")),
    # L
    Wrong(A8, "break_even_r",
          "break_even_r = (blocks + 2 * d * V_big) / (blocks + 2 * d * V_small)\n",
          "Inverted the ratio.",
          ("invert", "upside", "reciprocal", "ratio", "swap", "order", "below 1"),
          ("blocks",)),
    # D
    Wrong(A8, "break_even_r",
          "break_even_r = (blocks + d * V_small) / (blocks + d * V_big)\n",
          "Priced the head at d·V (a multiply-add as one FLOP) while blocks are in "
          "real FLOPs.",
          ("two", "2·d·v", "multiply-add", "factor", "head"),
          ("invert", "blocks")),
    # X
    Wrong(A8, "break_even_r",
          "break_even_r = V_small / V_big\n",
          "Left out the blocks' cost and took the ratio of vocabularies.",
          ("blocks", "per token", "cost", "fixed", "total", "whole pass"),
          ("invert",)),
    # O HARD
    Wrong(A8, "break_even_r",
          "break_even_r = round(blocks / (blocks + 2 * d * (V_big - V_small)), 2)\n",
          "Generalised the formula with the head difference only (dropping the small "
          "head from the numerator) and rounded to two decimals.",
          ("formula", "2·d·v_small", "numerator", "small head", "round", "exact",
           "both heads"),
          ("invert", "multiply-add")),
    # L
    Wrong(A8, "tokens_per_word",
          "def tokens_per_word(counts, n_tokens):\n"
          "    total = 0\n"
          "    for n in n_tokens:\n"
          "        total += n\n"
          "    return total / len(n_tokens)\n",
          "Averaged over distinct words, ignoring how often each occurs.",
          ("weight", "count", "frequency", "running", "occurrence", "weighted"),
          ("round", "invert")),
    # L
    Wrong(A8, "tokens_per_word",
          "def tokens_per_word(counts, n_tokens):\n"
          "    t = w = 0\n"
          "    for c, n in zip(counts, n_tokens):\n"
          "        t += int(c) * int(n)\n"
          "        w += int(c)\n"
          "    return t // w\n",
          "Used floor division, losing the fraction.",
          ("floor", "integer", "//", "division", "float", "fraction"),
          ("weight", "invert")),
    # D
    Wrong(A8, "tokens_per_word",
          "def tokens_per_word(counts, n_tokens):\n"
          "    c, n = np.asarray(counts, float), np.asarray(n_tokens, float)\n"
          "    return float(c.sum() / (c * n).sum())\n",
          "Returned words per token, the inverse.",
          ("invert", "words per token", "reciprocal", "upside", "tokens per word"),
          ("weight", "round")),
    # X
    Wrong(A8, "tokens_per_word",
          "def tokens_per_word(counts, n_tokens):\n"
          "    c, n = np.asarray(counts, float), np.asarray(n_tokens, float)\n"
          "    return round(float((c * n).sum() / c.sum()), 2)\n",
          "Rounded the mean to two decimals.",
          ("round", "decimal", "exact", "precision"),
          ("weight", "invert")),
    # O HARD
    Wrong(A8, "tokens_per_word",
          "def tokens_per_word(counts, n_tokens):\n"
          "    c = np.asarray(counts, np.float16)\n"
          "    n = np.asarray(n_tokens, np.float16)\n"
          "    return float((c * n).sum() / c.sum())\n",
          "Cast to float16, which loses precision: right where the mean is exact in "
          "float16 (1.5 on two fixed inputs), wrong elsewhere.",
          ("float16", "precision", "dtype", "float64", "cast"),
          ("weight", "invert")),
    # X
    Wrong(A8, "hindi_single_token_share",
          "hindi_single_token_share = 100 * sum(\n"
          "    bpe.count_tokens(w) == 1 for w in top_hindi) / len(top_hindi)\n",
          "Gave a percentage instead of a fraction.",
          ("percent", "fraction", "100", "between 0 and 1"),
          ("number", "space")),
    # O
    Wrong(A8, "hindi_single_token_share",
          "kept = [w for w in top_hindi if not any(ch.isdigit() for ch in w)]\n"
          "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in kept) / "
          "len(kept)\n",
          "Left out the number shapes; the question audits all n_top words.",
          ("number", "digit", "every", "n_top", "shapes"),
          ("percent", "space")),
    # L
    Wrong(A8, "hindi_single_token_share",
          "hindi_single_token_share = sum(\n"
          "    bpe.count_tokens(w) == 1 for w in top_hindi) / n_train\n",
          "Divided by n_train instead of the n_top words audited.",
          ("n_top", "denominator", "audited", "len(top_hindi)", "divide", "100"),
          ("percent", "number")),
    # D HARD
    Wrong(A8, "hindi_single_token_share",
          "hindi_single_token_share = sum(\n"
          "    bpe.count_tokens(w) <= 2 for w in top_hindi[1:]) / n_top\n",
          "Counted words of up to two tokens as whole and skipped the first word.",
          ("single", "one token", "== 1", "first", "every word"),
          ("percent", "number")),
    # L
    Wrong(A8, "hindi_r",
          "def per_word(tokenizer):\n"
          "    total = sum(len(tokenizer.encode_ordinary(\" \" + w)) * n for w, n in "
          "hindi.items())\n"
          "    return total / sum(hindi.values())\n"
          "hindi_r = per_word(gpt2) / per_word(cl100k)\n",
          "Inverted the ratio: GPT-2's over cl100k's.",
          ("invert", "ratio", "cl100k", "divided by gpt", "order", "swap",
           "reciprocal"),
          ("weight", "space")),
    # O
    Wrong(A8, "hindi_r",
          "def per_word(tokenizer):\n"
          "    lens = [len(tokenizer.encode_ordinary(\" \" + w)) for w in hindi]\n"
          "    return sum(lens) / len(lens)\n"
          "hindi_r = per_word(cl100k) / per_word(gpt2)\n",
          "Averaged over the word list without weighting by counts.",
          ("weight", "count", "running", "frequency", "occurrence"),
          ("invert", "space")),
    # D
    Wrong(A8, "hindi_r",
          "def per_word(tokenizer):\n"
          "    total = sum(len(tokenizer.encode_ordinary(w)) * n for w, n in "
          "hindi.items())\n"
          "    return total / sum(hindi.values())\n"
          "hindi_r = per_word(cl100k) / per_word(gpt2)\n",
          "Encoded the words without the leading space.",
          ("space", "\" \" +", "leading", "as in a sentence", "prefix"),
          ("invert", "weight")),
    # X
    Wrong(A8, "hindi_r",
          "hindi_r = 0.55\n",
          "Typed a rounded value instead of computing it.",
          ("compute", "exact", "typed", "round", "code"),
          ("invert", "space")),
    # L
    Wrong(A8, "bpe_merges",
          "def bpe_merges(counts, n_merges):\n"
          "    words = [list(w.encode('utf-8')) for w in counts]\n"
          "    freqs = list(counts.values())\n"
          "    merges = []\n"
          "    for k in range(n_merges):\n"
          "        pairs = {}\n"
          "        for t, n in zip(words, freqs):\n"
          "            for p in zip(t, t[1:]):\n"
          "                pairs[p] = pairs.get(p, 0) + n\n"
          "        if not pairs:\n"
          "            break\n"
          "        best = max(pairs, key=lambda p: (pairs[p], p))\n"
          "        merges.append(best)\n"
          "        for i, t in enumerate(words):\n"
          "            out, j = [], 0\n"
          "            while j < len(t):\n"
          "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n"
          "                    out.append(256 + k)\n"
          "                    j += 2\n"
          "                else:\n"
          "                    out.append(t[j])\n"
          "                    j += 1\n"
          "            words[i] = out\n"
          "    return merges\n",
          "Broke ties by the largest pair instead of the smallest.",
          ("tie", "smallest", "ties", "lowest", "min"),
          ("weight", "256")),
    # O
    Wrong(A8, "bpe_merges",
          "def bpe_merges(counts, n_merges):\n"
          "    words = [list(w.encode('utf-8')) for w in counts]\n"
          "    merges = []\n"
          "    for k in range(n_merges):\n"
          "        pairs = {}\n"
          "        for t in words:\n"
          "            for p in zip(t, t[1:]):\n"
          "                pairs[p] = pairs.get(p, 0) + 1\n"
          "        if not pairs:\n"
          "            break\n"
          "        best = min(pairs, key=lambda p: (-pairs[p], p))\n"
          "        merges.append(best)\n"
          "        for i, t in enumerate(words):\n"
          "            out, j = [], 0\n"
          "            while j < len(t):\n"
          "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n"
          "                    out.append(256 + k)\n"
          "                    j += 2\n"
          "                else:\n"
          "                    out.append(t[j])\n"
          "                    j += 1\n"
          "            words[i] = out\n"
          "    return merges\n",
          "Counted pairs once per distinct word, ignoring the word counts.",
          ("weight", "count", "frequency", "occurrence", "how often"),
          ("tie", "256")),
    # X HARD
    Wrong(A8, "bpe_merges",
          "def bpe_merges(counts, n_merges):\n"
          "    words = [list(w.encode('utf-8')) for w in counts]\n"
          "    freqs = list(counts.values())\n"
          "    merges = []\n"
          "    for k in range(n_merges):\n"
          "        pairs = {}\n"
          "        for t, n in zip(words, freqs):\n"
          "            for p in zip(t, t[1:]):\n"
          "                pairs[p] = pairs.get(p, 0) + n\n"
          "        if not pairs:\n"
          "            break\n"
          "        best = min(pairs, key=lambda p: (-pairs[p], p))\n"
          "        merges.append(best)\n"
          "        for i, t in enumerate(words):\n"
          "            out, j = [], 0\n"
          "            while j < len(t):\n"
          "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n"
          "                    out.append(256)\n"
          "                    j += 2\n"
          "                else:\n"
          "                    out.append(t[j])\n"
          "                    j += 1\n"
          "            words[i] = out\n"
          "    return merges\n",
          "Gave every merge the id 256 instead of 256 + k: right on inputs where no "
          "later merge meets an earlier merged token (several checked ones), wrong "
          "where one does.",
          ("256 + k", "new id", "each merge", "token id"),
          ("tie", "weight")),
    # D
    Wrong(A8, "bpe_merges",
          "def bpe_merges(counts, n_merges):\n"
          "    words = [list(w.encode('utf-8')) for w in counts]\n"
          "    freqs = list(counts.values())\n"
          "    merges = []\n"
          "    for k in range(n_merges):\n"
          "        pairs = {}\n"
          "        for t, n in zip(words, freqs):\n"
          "            for p in zip(t, t[1:]):\n"
          "                pairs[p] = pairs.get(p, 0) + n\n"
          "        if not pairs:\n"
          "            break\n"
          "        best = min(pairs, key=lambda p: (-pairs[p], p))\n"
          "        merges.append(best)\n"
          "        for i, t in enumerate(words):\n"
          "            out = []\n"
          "            for j in range(len(t)):\n"
          "                if j + 1 < len(t) and (t[j], t[j + 1]) == best:\n"
          "                    out.append(256 + k)\n"
          "                elif not (j > 0 and (t[j - 1], t[j]) == best):\n"
          "                    out.append(t[j])\n"
          "            words[i] = out\n"
          "    return merges\n",
          "Merged overlapping occurrences (aaa gives two merged tokens), unlike the "
          "left-to-right rule without overlaps.",
          ("overlap", "left to right", "left-to-right", "skip", "aaa", "once",
           "non-overlapping"),
          ("tie", "weight")),
    # X HARD
    Wrong(A8, "embedding_params",
          "embedding_params = round(V_big * d / 1e9, 1)\n",
          "Gave billions rounded to one decimal instead of the exact int.",
          ("billion", "exact", "round", "unit", "whole number"),
          ("tied", "v_small")),
    # D HARD
    Wrong(A8, "extra_head_flops",
          "extra_head_flops = d * V_big\n",
          "Two mistakes: a multiply-add as one FLOP and the big head's whole cost "
          "instead of the difference.",
          ("two", "multiply-add", "difference", "minus", "v_small", "more"),
          ("lookup",)),
    # X HARD
    Wrong(A8, "break_even_r",
          "break_even_r = round(V_small / V_big, 2)\n",
          "Two mistakes: the blocks' cost left out (ratio of vocabularies) and rounded"
          " to two decimals.",
          ("blocks", "per token", "cost", "round", "exact", "whole pass"),
          ("invert",)),
    # -------------------------------------------------- 09-what-rows-learn
    # D
    Wrong(A9, "n_params",
          "n_params = V * d + (2 * d) * d + d\n",
          "Counted the head as tied; this model's U is its own matrix.",
          ("untied", "own", "head", "output", "second", "v × d"),
          ("bias", "context")),
    # L
    Wrong(A9, "n_params",
          "n_params = V * d + d * d + d + V * d\n",
          "Gave W one context row as input (d × d) instead of two side by side (2d × "
          "d).",
          ("two", "2d", "context", "side by side", "both rows", "input"),
          ("bias", "untied")),
    # X
    Wrong(A9, "n_params",
          "n_params = V * d + (2 * d) * d + V * d\n",
          "Left out the bias b.",
          ("bias", "+ d", "missing"),
          ("untied", "context")),
    # O HARD
    Wrong(A9, "n_params",
          "n_params = 2 * (V * d + (2 * d) * d + d) + V\n",
          "Counted W and b twice (one per context slot) and gave U a bias of V.",
          ("once", "shared", "bias", "u has no", "twice", "one hidden layer"),
          ("tied",)),
    # L
    Wrong(A9, "embedding_grad",
          "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
          "    dE[contexts] += dx0\n"
          "    return dE\n",
          "Used buffered fancy-index +=, so a repeated token gets one contribution.",
          ("repeat", "add.at", "buffer", "twice", "both", "accumulat", "duplicate"),
          ("slot", "mean")),
    # L
    Wrong(A9, "embedding_grad",
          "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
          "    for b in range(contexts.shape[0]):\n"
          "        dE[contexts[b, 0]] += dx0[b, 0]\n"
          "    return dE\n",
          "Added only context slot 0 and forgot the second slot.",
          ("slot", "every slot", "both", "context", "second", "all positions"),
          ("buffer", "mean")),
    # O
    Wrong(A9, "embedding_grad",
          "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
          "    np.add.at(dE, contexts, dx0)\n"
          "    n = np.bincount(contexts.ravel(), minlength=vocab_size)\n"
          "    return dE / np.maximum(n, 1)[:, None]\n",
          "Averaged the contributions of a repeated token instead of summing them.",
          ("average", "mean", "divide", "both contributions", "add"),
          ("slot", "buffer")),
    # D HARD
    Wrong(A9, "embedding_grad",
          "def embedding_grad(contexts, dx0, vocab_size):\n"
          "    dE = np.zeros((vocab_size, dx0.shape[-1]))\n"
          "    for b in range(contexts.shape[0]):\n"
          "        for k in range(contexts.shape[1]):\n"
          "            dE[contexts[b, k]] = dx0[b, k] / contexts.shape[0]\n"
          "    return dE\n",
          "Assigned instead of adding and divided by the batch size as for a mean "
          "loss.",
          ("add", "accumulat", "+=", "overwrit", "divide", "batch", "scale"),
          ("slot",)),
    # O
    Wrong(A9, "gap",
          "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\n"
          "C = unit @ unit.T\n"
          "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
          "Included each word with itself (cosine 1) and both orders in the within-"
          "group mean.",
          ("different", "itself", "diagonal", "self", "pairs", "56", "i < j"),
          ("normalis", "vehicles")),
    # L
    Wrong(A9, "gap",
          "C = E @ E.T\n"
          "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i "
          "< j]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
          "Used dot products without dividing by the norms.",
          ("norm", "cosine", "normalis", "length", "dot product", "unit"),
          ("itself", "vehicles")),
    # D
    Wrong(A9, "gap",
          "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\n"
          "C = unit @ unit.T\n"
          "within = [C[i, j] for i in animals for j in animals if i < j]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
          "Took the within-group mean over animals only, leaving the vehicle pairs "
          "out.",
          ("vehicle", "both groups", "56", "each group", "within"),
          ("itself", "norm")),
    # X HARD
    Wrong(A9, "gap",
          "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\n"
          "C = unit @ unit.T\n"
          "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i "
          "< j]\n"
          "gap = round(np.mean(within), 2) - round(C[np.ix_(animals, "
          "animals)].mean(), 2)\n",
          "Two mistakes: the across mean taken over animal-animal pairs instead of "
          "animal-vehicle ones, and each mean rounded to two decimals.",
          ("round", "decimal", "exact", "vehicle", "across", "animal-vehicle"),
          ("norm",)),
    # L
    Wrong(A9, "cos_cat",
          "rows = E[animals + vehicles]\n"
          "cos_cat = rows @ E[cat]\n",
          "Gave dot products without dividing by the norms.",
          ("norm", "cosine", "normalis", "length", "divide", "dot product"),
          ("itself", "order")),
    # O
    Wrong(A9, "cos_cat",
          "rows = E[[i for i in animals + vehicles if i != cat]]\n"
          "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * "
          "np.linalg.norm(E[cat]))\n",
          "Left cat itself out, giving 15 values instead of 16.",
          ("itself", "first entry", "cat with", "include", "shape"),
          ("norm", "order")),
    # D
    Wrong(A9, "cos_cat",
          "rows = E[animals + vehicles]\n"
          "cos_cat = 1 - rows @ E[cat] / (np.linalg.norm(rows, axis=1) * "
          "np.linalg.norm(E[cat]))\n",
          "Gave cosine distances 1 - cos instead of similarities.",
          ("distance", "1 -", "similarity", "one minus"),
          ("norm", "itself")),
    # X HARD
    Wrong(A9, "cos_cat",
          "rows = E[vehicles + animals]\n"
          "cos_cat = np.round(rows @ E[cat] / (np.linalg.norm(rows, axis=1)\n"
          "                   * np.linalg.norm(E[cat])), 3)\n",
          "Put the vehicles first and rounded to three decimals.",
          ("order", "animals first", "animals + vehicles", "round", "decimal", "exact"),
          ("norm", "distance")),
    # D
    Wrong(A9, "rotation_changes_cosines",
          "rotation_changes_cosines = \"yes\"\n",
          "Thought a rotation changes the angles; an orthogonal matrix keeps dot "
          "products and norms.",
          ("orthogonal", "rotation", "preserve", "keeps", "angle", "dot product",
           "norm"),
          ()),
    # O
    Wrong(A9, "rotation_changes_cosines",
          "R = E @ Q\n"
          "rotation_changes_cosines = bool(\n"
          "    not np.allclose(R @ R.T, E @ E.T))\n",
          "Answered with a boolean (False) instead of one of the words yes or no.",
          ("yes", "word", "string", "answer"),
          ("orthogonal",)),
    # L
    Wrong(A9, "tinylm_grads",
          "def tinylm_grads(E, W, b, U, contexts, targets):\n"
          "    B, C = contexts.shape\n"
          "    x0 = E[contexts].reshape(B, -1)\n"
          "    x = np.tanh(x0 @ W + b)\n"
          "    z = x @ U.T\n"
          "    p = np.exp(z - z.max(1, keepdims=True))\n"
          "    p /= p.sum(1, keepdims=True)\n"
          "    p[np.arange(B), targets] -= 1.0\n"
          "    dU = p.T @ x\n"
          "    dx0 = (((p @ U) * (1 - x**2)) @ W.T).reshape(B, C, -1)\n"
          "    dE = np.zeros_like(E)\n"
          "    np.add.at(dE, contexts, dx0)\n"
          "    return dE, dU\n",
          "Forgot to divide by the batch size: the loss is a mean.",
          ("mean", "batch", "divide", "/ b", "average", "scale"),
          ("tanh", "repeat")),
    # D
    Wrong(A9, "tinylm_grads",
          "def tinylm_grads(E, W, b, U, contexts, targets):\n"
          "    B, C = contexts.shape\n"
          "    x0 = E[contexts].reshape(B, -1)\n"
          "    x = np.tanh(x0 @ W + b)\n"
          "    z = x @ U.T\n"
          "    p = np.exp(z - z.max(1, keepdims=True))\n"
          "    p /= p.sum(1, keepdims=True)\n"
          "    p[np.arange(B), targets] -= 1.0\n"
          "    p /= B\n"
          "    dU = p.T @ x\n"
          "    dx0 = ((p @ U) @ W.T).reshape(B, C, -1)\n"
          "    dE = np.zeros_like(E)\n"
          "    np.add.at(dE, contexts, dx0)\n"
          "    return dE, dU\n",
          "Left out tanh's derivative (1 - x²) on the way back.",
          ("tanh", "derivative", "1 - x", "activation", "chain rule", "nonlinearity"),
          ("mean", "repeat")),
    # O
    Wrong(A9, "tinylm_grads",
          "def tinylm_grads(E, W, b, U, contexts, targets):\n"
          "    B, C = contexts.shape\n"
          "    x0 = E[contexts].reshape(B, -1)\n"
          "    x = np.tanh(x0 @ W + b)\n"
          "    z = x @ U.T\n"
          "    p = np.exp(z - z.max(1, keepdims=True))\n"
          "    p /= p.sum(1, keepdims=True)\n"
          "    p[np.arange(B), targets] -= 1.0\n"
          "    p /= B\n"
          "    dU = p.T @ x\n"
          "    dx0 = (((p @ U) * (1 - x**2)) @ W.T).reshape(B, C, -1)\n"
          "    dE = np.zeros_like(E)\n"
          "    dE[contexts] += dx0\n"
          "    return dE, dU\n",
          "Scattered dE with buffered +=, so an id used twice in the batch gets one "
          "contribution.",
          ("repeat", "add.at", "buffer", "twice", "duplicate", "accumulat"),
          ("tanh", "mean")),
    # X HARD
    Wrong(A9, "tinylm_grads",
          "def tinylm_grads(E, W, b, U, contexts, targets):\n"
          "    B, C = contexts.shape\n"
          "    x0 = E[contexts].reshape(B, -1)\n"
          "    x = np.tanh(x0 @ W + b)\n"
          "    z = x @ U.T\n"
          "    p = np.exp(z - z.max(1, keepdims=True))\n"
          "    p /= p.sum(1, keepdims=True)\n"
          "    p[np.arange(B), targets] -= 1.0\n"
          "    dU = p.T @ x\n"
          "    dx0 = (((p @ U) * (1 - x**2)) @ W.T).reshape(B, C, -1)\n"
          "    dE = np.zeros_like(E)\n"
          "    dE[contexts] += dx0\n"
          "    return dE, dU\n",
          "Two mistakes: no division by the batch size and buffered += for repeated "
          "ids.",
          ("mean", "batch", "divide", "repeat", "add.at", "buffer", "duplicate"),
          ("tanh",)),
    # X HARD
    Wrong(A9, "rotation_changes_cosines",
          "rotation_changes_cosines = (\n"
          "    \"yes, slightly\" if not np.allclose(E @ Q, E) else \"no\")\n",
          "Compared the rotated table's values, not its cosines, and answered with a "
          "phrase instead of yes or no.",
          ("cosine", "orthogonal", "angle", "preserve", "rotation", "norm",
           "dot product"),
          ()),
    # L HARD
    Wrong(A9, "n_params",
          "n_params = V * d + d * d + V * d\n",
          "Two mistakes: W takes one context row (d × d) instead of two (2d × d), and "
          "the bias b is left out.",
          ("two", "2d", "context", "side by side", "bias"),
          ("untied", "tied")),
    # L HARD
    Wrong(A9, "cos_cat",
          "rows = animals + vehicles\n"
          "cos_cat = np.zeros(len(rows) - 1)\n"
          "for i in range(1, len(rows)):\n"
          "    cos_cat[i - 1] = E[rows[i]] @ E[cat]\n",
          "Two mistakes: the loop skips cat itself (15 values, not 16) and the dot "
          "products are not divided by the norms.",
          ("itself", "first", "norm", "cosine", "divide", "shape"),
          ("distance", "order")),
    # O HARD
    Wrong(A9, "gap",
          "Ec = E - E.mean(axis=0)\n"
          "unit = Ec / np.linalg.norm(Ec, axis=1, keepdims=True)\n"
          "C = unit @ unit.T\n"
          "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
          "Two mistakes: centred the table on its mean row, and kept each word with "
          "itself in the within-group mean.",
          ("centre", "center", "mean row", "itself", "diagonal", "different", "i < j"),
          ("vehicle",)),
    # -------------------------------------------------- 10-glitch-tokens
    # L
    Wrong(A10, "padding_rows",
          "padding_rows = V % pad_multiple\n",
          "Gave the remainder V mod 64 instead of the rows up to the next multiple.",
          ("remainder", "modulo", "next multiple", "round up", "difference"),
          ("power of two", "total")),
    # X
    Wrong(A10, "padding_rows",
          "padding_rows = 50304\n",
          "Gave the padded size instead of the rows added.",
          ("difference", "minus", "added", "extra rows", "padded - v", "subtract"),
          ("remainder", "power")),
    # O
    Wrong(A10, "padding_rows",
          "padding_rows = (1 << (V - 1).bit_length()) - V\n",
          "Padded to the next power of two instead of the next multiple of "
          "pad_multiple.",
          ("multiple", "pad_multiple", "power of two"),
          ("remainder", "total")),
    # L
    Wrong(A10, "padding_rows",
          "padding_rows = pad_multiple - V % pad_multiple + 1\n",
          "Added one row too many after the remainder formula.",
          ("off by one", "+ 1", "one too many", "next multiple", "exact"),
          ("power of two",)),
    # D
    Wrong(A10, "invalid_bytes",
          "invalid_bytes = 256 - 0xF5\n",
          "Counted only F5 to FF from memory, forgetting C0 and C1.",
          ("c0", "c1", "overlong", "13", "two more", "lead", "rfc"),
          ("ascii", "surrogate")),
    # X
    Wrong(A10, "invalid_bytes",
          "invalid_bytes = 128\n",
          "Took every non-ASCII byte as invalid; most occur inside multi-byte "
          "characters.",
          ("multi-byte", "continuation", "lead", "ascii", "appear", "utf-8"),
          ("c0", "surrogate")),
    # L
    Wrong(A10, "invalid_bytes",
          "seen = set()\n"
          "for c in range(0x800):\n"
          "    seen.update(chr(c).encode('utf-8'))\n"
          "invalid_bytes = 256 - len(seen)\n",
          "Looped only to 0x7FF, so the lead bytes of 3- and 4-byte characters were "
          "never seen.",
          ("range", "0x110000", "every code point", "loop", "bound", "3-byte",
           "4-byte"),
          ("surrogate", "ascii")),
    # O
    Wrong(A10, "invalid_bytes",
          "invalid_bytes = 256 - 128 - 64 - 30 - 15 - 5\n",
          "Counted the valid bytes by hand and took the three-byte leads as E1 to EF "
          "(15), leaving E0 out.",
          ("continuation", "lead", "count", "c0", "c1", "rfc", "range"),
          ("surrogate",)),
    # D
    Wrong(A10, "unused_score",
          "def unused_score(M, reference_ids):\n"
          "    return M @ M[reference_ids].mean(axis=0)\n",
          "Returned dot products without dividing by the norms.",
          ("norm", "cosine", "normalis", "divide", "length"),
          ("reference", "centre")),
    # O
    Wrong(A10, "unused_score",
          "def unused_score(M, reference_ids):\n"
          "    mean = M[reference_ids].mean(axis=0)\n"
          "    keep = [i for i in range(len(M)) if i not in set(reference_ids)]\n"
          "    R = M[keep]\n"
          "    return R @ mean / (np.linalg.norm(R, axis=1) * np.linalg.norm(mean))\n",
          "Left the reference rows out of the result; every row needs a score.",
          ("every row", "reference rows", "include", "one score per row", "shape",
           "all rows"),
          ("norm", "centre")),
    # O
    Wrong(A10, "unused_score",
          "def unused_score(M, reference_ids):\n"
          "    Mc = M - M.mean(axis=0)\n"
          "    mean = Mc[reference_ids].mean(axis=0)\n"
          "    return Mc @ mean / (np.linalg.norm(Mc, axis=1) * "
          "np.linalg.norm(mean))\n",
          "Centred the matrix on its mean row before scoring.",
          ("centre", "center", "subtract", "mean row", "raw", "as it is"),
          ("norm", "reference rows")),
    # L
    Wrong(A10, "unused_score",
          "def unused_score(M, reference_ids):\n"
          "    mean = np.zeros(M.shape[1])\n"
          "    for i in reference_ids[1:]:\n"
          "        mean += M[i]\n"
          "    out = np.zeros(len(M))\n"
          "    for r in range(len(M)):\n"
          "        out[r] = M[r] @ mean / (np.linalg.norm(M[r]) * "
          "np.linalg.norm(mean))\n"
          "    return out\n",
          "The loop over the reference ids skips the first one; summing instead of "
          "averaging would not matter to a cosine, but the missing row does.",
          ("first", "every reference", "range", "off by one", "mean of the reference",
           "skip"),
          ("norm", "centre")),
    # O
    Wrong(A10, "never_cos",
          "rows = run.model.E[never]\n"
          "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
          "never_cos = (unit @ unit.T).mean()\n",
          "Averaged the whole matrix, the diagonal 1s included.",
          ("different", "diagonal", "itself", "pairs", "triu", "self"),
          ("norm", "reserved")),
    # L
    Wrong(A10, "never_cos",
          "rows = run.model.E[never]\n"
          "C = rows @ rows.T\n"
          "never_cos = C[np.triu_indices(len(never), k=1)].mean()\n",
          "Used dot products without dividing by the norms.",
          ("norm", "cosine", "normalis", "length", "unit"),
          ("diagonal", "reserved")),
    # D
    Wrong(A10, "never_cos",
          "ids = list(corpus.groups['reserved'])\n"
          "rows = run.model.E[ids]\n"
          "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
          "never_cos = (unit @ unit.T)[np.triu_indices(len(ids), k=1)].mean()\n",
          "Took only the reserved rows and left the glitch word out of never.",
          ("glitch", "never", "every", "word", "n_reserved + 1"),
          ("diagonal", "norm")),
    # X HARD
    Wrong(A10, "never_cos",
          "rows = run.model.E[never]\n"
          "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
          "never_cos = round(float((unit @ unit.T).mean()), 2)\n",
          "Two mistakes: the diagonal (each row with itself) included, and rounded to "
          "two decimals.",
          ("round", "decimal", "exact", "diagonal", "itself", "different", "pairs"),
          ("norm", "glitch")),
    # X
    Wrong(A10, "top7",
          "from embedlab import unused_scores\n"
          "s = unused_scores(run.model.E, reference)\n"
          "top7 = np.argsort(-s, kind='stable')[:7]\n",
          "Kept the reference rows in the ranking.",
          ("reference", "leave out", "exclude", "remove", "four", "without"),
          ("order", "lowest")),
    # L
    Wrong(A10, "top7",
          "from embedlab import unused_scores\n"
          "s = unused_scores(run.model.E, reference)\n"
          "order = [i for i in np.argsort(s, kind='stable') if i not in reference]\n"
          "top7 = np.array(order[:7])\n",
          "Sorted ascending, so it gave the lowest scores.",
          ("highest", "descending", "order", "lowest", "reverse", "-scores"),
          ("reference", "sort the ids")),
    # O
    Wrong(A10, "top7",
          "from embedlab import unused_scores\n"
          "s = unused_scores(run.model.E, reference)\n"
          "order = [i for i in np.argsort(-s, kind='stable') if i not in reference]\n"
          "top7 = np.sort(np.array(order[:7]))\n",
          "Sorted the seven ids by number instead of by score.",
          ("highest first", "order", "score", "sort", "rank"),
          ("reference", "lowest")),
    # D HARD
    Wrong(A10, "top7",
          "from embedlab import unused_scores\n"
          "s = unused_scores(run.model.E, list(corpus.groups['reserved']))\n"
          "order = [i for i in np.argsort(-s, kind='stable')\n"
          "         if i not in corpus.groups['reserved']]\n"
          "top7 = np.array(order[:7])\n",
          "Used all reserved rows as the reference and left all of them out, not the "
          "first four.",
          ("first four", "reference", "four", "[:4]", "reserved"),
          ("lowest", "sort")),
    # L
    Wrong(A10, "partial_tokens",
          "partial_tokens = sum(1 for b in ordinary if len(b) == 1 and b[0] >= 0x80)\n",
          "Counted only the single bytes from 0x80 up, not merged tokens that split a "
          "character.",
          ("merged", "multi-byte", "partial", "split", "decode", "longer",
           "every token"),
          ("ascii", "latin")),
    # D
    Wrong(A10, "partial_tokens",
          "partial_tokens = sum(1 for b in ordinary if any(x >= 0x80 for x in b))\n",
          "Counted every token holding a non-ASCII byte, including whole characters.",
          ("decode", "whole character", "valid", "utf-8", "non-ascii", "complete"),
          ("single byte", "latin")),
    # O
    Wrong(A10, "partial_tokens",
          "partial_tokens = 0\n"
          "for b in ordinary:\n"
          "    try:\n"
          "        b.decode('utf-8', errors='ignore')\n"
          "    except UnicodeDecodeError:\n"
          "        partial_tokens += 1\n",
          "Decoded with errors='ignore', so nothing ever fails and the count is 0.",
          ("errors", "ignore", "strict", "raise", "decode"),
          ("single byte", "non-ascii")),
    # X
    Wrong(A10, "partial_tokens",
          "partial_tokens = invalid_bytes\n",
          "Copied question 2's 13 never-valid bytes, leaving out the other bytes from "
          "0x80 up and the merged partial tokens.",
          ("merged", "partial", "decode", "compute", "multi-byte", "typed"),
          ("latin",)),
    # L HARD
    Wrong(A10, "never_cos",
          "rows = run.model.E[never]\n"
          "never_cos = float((rows @ rows.T).mean())\n",
          "Two mistakes: dot products without the norms, and the diagonal (each row "
          "with itself) included.",
          ("norm", "cosine", "different", "diagonal", "itself", "pairs"),
          ("reserved", "glitch")),
    # L HARD
    Wrong(A10, "top7",
          "from embedlab import unused_scores\n"
          "s = unused_scores(run.model.E, reference)\n"
          "top7 = np.argsort(-s)[1:8]\n",
          "Two mistakes: the reference rows not left out, and the slice [1:8] drops "
          "the top row.",
          ("reference", "leave out", "exclude", "top row", "off by one", "slice",
           "[:7]"),
          ("first four",)),
    # O HARD
    Wrong(A10, "unused_score",
          "def unused_score(M, reference_ids):\n"
          "    M32 = M.astype(np.float32)\n"
          "    mean = M32[reference_ids].mean(axis=0)\n"
          "    return M32 @ mean / (np.linalg.norm(M32, axis=1) * "
          "np.linalg.norm(mean) + 1e-8)\n",
          "Two mistakes: cast to float32 and added an epsilon to the denominator.",
          ("float32", "precision", "epsilon", "eps", "exact", "cast", "denominator"),
          ("reference rows", "centre")),
    # -------------------------------------------------- 11-size-a-model
    # D
    Wrong(A11, "design",
          "design = llama_config(128256, 2048, 16, 32, 8, 8192, True)\n",
          "Took Llama 3.2 1B's published config as it is, far over the parameter and "
          "memory budgets.",
          ("budget", "over_budget", "parameters", "memory", "too big", "shrink", "fit"),
          ("head_dim", "vocab")),
    # X
    Wrong(A11, "design",
          "design = llama_config(32000, 1040, 8, 16, 4, 4160, True)\n",
          "Chose a width of 1,040 for 16 heads, so the heads are 65 wide, not "
          "head_dim.",
          ("head_dim", "head width", "d / h", "multiple", "heads"),
          ("vocab", "too big")),
    # O
    Wrong(A11, "design",
          "design = llama_config(30000, 1024, 8, 16, 4, 4096, True)\n",
          "Trimmed the vocabulary to 30,000, below the job's minimum.",
          ("vocab", "min_vocab_size", "minimum", "32000", "32,000", "vocabulary"),
          ("head_dim", "too big")),
    # L
    Wrong(A11, "design",
          "design = llama_config(32000, 1024, 200, 16, 4, 4096, True)\n",
          "Made the model 200 layers deep, over every budget.",
          ("budget", "over_budget", "deep", "layers", "depth", "fit", "too"),
          ("head_dim", "vocab")),
    # D HARD
    Wrong(A11, "design",
          "design = llama_config(32000, 960, 40, 16, 4, 3840, False)\n",
          "Two faults: d = 960 with 16 heads gives 60-wide heads, and 40 untied layers"
          " break the budgets.",
          ("head_dim", "head width", "d / h", "budget", "over_budget", "fit"),
          ("vocab",)),
    # O
    Wrong(A11, "design_params",
          "design_params = count_params(design).total\n"
          "design_params += design['vocab_size'] * design['hidden_size']\n",
          "Counted the tied head again as a second table.",
          ("tied", "once", "twice", "head", "count_params", "double"),
          ("million", "non-embedding")),
    # X
    Wrong(A11, "design_params",
          "design_params = count_params(design).total / 1e6\n",
          "Gave millions instead of an int count.",
          ("million", "unit", "whole", "exact"),
          ("tied", "non-embedding")),
    # D
    Wrong(A11, "design_params",
          "c = count_params(design)\n"
          "design_params = c.total - c.token_embedding\n",
          "Gave the non-embedding count the papers use instead of every parameter.",
          ("every", "total", "embedding", "non-embedding", "table"),
          ("million", "twice")),
    # D
    Wrong(A11, "design_serving_gb",
          "design_serving_gb = serving_memory(design, weights=BUDGET.weights,\n"
          "    context=BUDGET.context, batch=BUDGET.batch, kv=BUDGET.kv)['total'] / "
          "2**30\n",
          "Divided by 2^30 (GiB) instead of GB.",
          ("gib", "gb", "1e9", "2^30", "unit"),
          ("cache", "precision")),
    # X
    Wrong(A11, "design_serving_gb",
          "design_serving_gb = serving_memory(design, weights=BUDGET.weights,\n"
          "    context=BUDGET.context, batch=BUDGET.batch, kv=BUDGET.kv)['weights'] / "
          "GB\n",
          "Gave the weights only, without the KV cache.",
          ("cache", "kv", "total", "together", "both", "weights only"),
          ("gib", "precision")),
    # O
    Wrong(A11, "design_serving_gb",
          "design_serving_gb = serving_memory(design, weights='bf16',\n"
          "    context=BUDGET.context, batch=BUDGET.batch, kv=BUDGET.kv)['total'] / "
          "GB\n",
          "Served the weights in bf16 instead of the job's precision.",
          ("precision", "weights", "int4", "budget.weights", "bytes per"),
          ("gib", "cache")),
    # L HARD
    Wrong(A11, "design_serving_gb",
          "design_serving_gb = round(serving_memory(design, weights=BUDGET.weights,\n"
          "    context=2048, batch=BUDGET.batch, kv=BUDGET.kv)['total'] / GB, 2)\n",
          "Used the training context for the cache and rounded to two decimals.",
          ("context", "8192", "conversation", "round", "decimal", "budget.context"),
          ("gib", "precision")),
    # L
    Wrong(A11, "design_train_flops",
          "n_seq = len(range(1, D // T_train))\n"
          "design_train_flops = training_flops(design, T_train).total * n_seq\n",
          "Counted the sequences as range(1, n), one too few.",
          ("off by one", "range", "sequences", "d // t", "one too few", "count"),
          ("6nd", "tokens")),
    # D
    Wrong(A11, "design_train_flops",
          "design_train_flops = int(6 * count_params(design).total * D)\n",
          "Used the 6·N·D rule of thumb instead of training_flops.",
          ("training_flops", "6nd", "6·n·d", "rule", "approximat", "count"),
          ("whole", "tokens")),
    # O
    Wrong(A11, "design_train_flops",
          "design_train_flops = training_flops(design, T_train).total * D\n",
          "Multiplied by the token count instead of the number of sequences.",
          ("sequences", "d // t", "per sequence", "tokens", "train_context", "divide"),
          ("6nd", "whole")),
    # X HARD
    Wrong(A11, "design_train_flops",
          "design_train_flops = int(training_flops(design, 4096).total\n"
          "                         * round(D / 4096))\n",
          "Used a 4,096-token sequence instead of train_context and rounded the "
          "sequence count.",
          ("train_context", "2048", "sequence", "length", "t_train", "whole"),
          ("6nd",)),
    # L
    Wrong(A11, "tightest_budget",
          "used = {'parameters': design_params / BUDGET.max_params,\n"
          "        'memory': design_serving_gb / BUDGET.max_serving_gb,\n"
          "        'compute': design_train_flops / BUDGET.max_train_flops}\n"
          "tightest_budget = min(used, key=used.get)\n",
          "Took the smallest fraction instead of the largest.",
          ("largest", "max", "most", "smallest", "min", "fullest"),
          ("raw", "fraction")),
    # D HARD
    Wrong(A11, "tightest_budget",
          "used = {'parameters': design_params,\n"
          "        'memory': design_serving_gb, 'compute': design_train_flops}\n"
          "tightest_budget = min(used, key=used.get)\n",
          "Compared raw amounts instead of fractions of each budget, and took the "
          "smallest.",
          ("fraction", "over its own budget", "divide", "budget", "raw", "largest",
           "max"),
          ()),
    # X
    Wrong(A11, "tightest_budget",
          "tightest_budget = 'params'\n",
          "Typed a word the question does not give (params for parameters), without "
          "computing.",
          ("parameters", "memory", "compute", "word", "typed", "computed"),
          ("min",)),
    # L
    Wrong(A11, "other_tying_params",
          "other_tying_params = count_params(design).total\n",
          "Did not flip the tying: gave the design's own count.",
          ("flip", "other", "not", "tie_word_embeddings", "untied", "opposite"),
          ("v × d", "twice")),
    # O
    Wrong(A11, "other_tying_params",
          "other_tying_params = count_params(design).total - design['vocab_size'] * "
          "design['hidden_size']\n",
          "Took V × d away instead of adding it: untying adds a head.",
          ("add", "untied", "head", "more", "plus", "sign", "v × d"),
          ("flip",)),
    # X
    Wrong(A11, "other_tying_params",
          "other_tying_params = design_params + design['vocab_size']\n",
          "Added V instead of V × d.",
          ("v × d", "width", "matrix", "rows times"),
          ("flip",)),
    # D HARD
    Wrong(A11, "other_tying_params",
          "other_tying_params = 2 * design_params\n",
          "Doubled the whole model instead of adding one V × d head.",
          ("v × d", "head", "only the table", "one matrix", "double", "whole"),
          ("flip",)),
    # X
    Wrong(A11, "defence",
          "defence = \"\"\"\n"
          "Which budget binds, and by how much:\n"
          "My design uses {design_params:,} parameters, so parameters bind.\n"
          "\n"
          "Why this width and depth:\n"
          "The deepest that fits.\n"
          "\n"
          "What the tying choice costs:\n"
          "Tied saves V x d.\n"
          "\"\"\"\n",
          "Wrote a plain string without the f, so the braces stay unfilled.",
          ("f-string", "f\"", "braces", "unfilled", "format"),
          ("heading",)),
    # D
    Wrong(A11, "defence",
          "defence = \"\"\"\n"
          "Which budget binds, and by how much:\n"
          "Memory binds, as for most on-device models.\n"
          "\n"
          "Why this width and depth:\n"
          "Deeper beats wider, as MobileLLM found.\n"
          "\n"
          "What the tying choice costs:\n"
          "Tying saves a lot, as in the paper.\n"
          "\"\"\"\n",
          "Argued from papers with no figure of the design under any heading.",
          ("figure", "number", "own", "your design", "fraction", "v × d"),
          ("braces", "f-string")),
    # L
    Wrong(A11, "defence",
          "defence = f\"\"\"\n"
          "Which budget binds, and by how much:\n"
          "{tightest_budget} binds; the design has {design_params:,} parameters.\n"
          "\n"
          "Why this width and depth:\n"
          "\n"
          "What the tying choice costs:\n"
          "\"\"\"\n",
          "Left two headings empty.",
          ("heading", "empty", "width", "depth", "tying", "each heading"),
          ("braces",)),
    # O HARD
    Wrong(A11, "defence",
          "defence = f\"\"\"\n"
          "Which budget binds, and by how much:\n"
          "Compute binds at {design_train_flops / 1e21:.1f}e21 FLOPs.\n"
          "\n"
          "Why this width and depth:\n"
          "d = {design['hidden_size']} because d = h * head_dim.\n"
          "\n"
          "What the tying choice costs:\n"
          "Tied, as every small model is.\n"
          "\"\"\"\n",
          "Gave a raw amount instead of fractions, argued d only by d = h · head_dim, "
          "and named the tying with no V × d figure.",
          ("fraction", "each budget", "other number of heads", "v × d", "objective",
           "compare"),
          ("braces",)),
    # L HARD
    Wrong(A11, "design_params",
          "V_, d_ = design['vocab_size'], design['hidden_size']\n"
          "L_, f_ = design['num_hidden_layers'], design['intermediate_size']\n"
          "design_params = V_ * d_ + L_ * (4 * d_ * d_ + 3 * d_ * f_ + 2 * d_)\n",
          "Counted by hand with full-width k and v (no grouping) and without the final"
          " norm.",
          ("grouped", "kv", "key/value", "final", "norm", "count_params", "recount"),
          ("million", "tied")),
    # O HARD
    Wrong(A11, "design_serving_gb",
          "design_serving_gb = serving_memory(design, weights='bf16',\n"
          "    context=BUDGET.context, batch=BUDGET.batch, kv='fp32')['total'] / GB\n",
          "Two mistakes: weights in bf16 and the cache in fp32 instead of the job's "
          "precisions.",
          ("precision", "int4", "bf16", "budget.weights", "budget.kv", "weights",
           "cache"),
          ("gib", "context")),
    # -------------------------------------------------- 12-change-a-vocabulary
    # O
    Wrong(A12, "added_params",
          "added_params = 2 * n_new * d\n",
          "Counted a head copy of each new row; the head is tied.",
          ("tied", "once", "twice", "head", "double", "shared"),
          ("padded", "spare")),
    # L
    Wrong(A12, "added_params",
          "rows = max(V, n_tok + n_new)\n"
          "added_params = (rows - V + 1) * d\n",
          "Counted one row too many (an inclusive-range +1).",
          ("off by one", "+ 1", "one row too many", "rows", "count_params"),
          ("tied", "padded")),
    # D
    Wrong(A12, "added_params",
          "added_params = (50304 - V) * d\n",
          "Assumed the table is padded to nanoGPT's 50,304 rows.",
          ("padded", "50304", "max", "n_tok + n_new", "rows", "grows"),
          ("tied", "off by one")),
    # X
    Wrong(A12, "added_params",
          "added_params = n_new\n",
          "Counted new rows instead of parameters (times d).",
          ("times d", "width", "parameters", "× d", "rows"),
          ("tied", "padded")),
    # L
    Wrong(A12, "padding_rows",
          "padding_rows = -(-V // pad_multiple) * pad_multiple - V\n",
          "Padded the old table and ignored the new tokens.",
          ("new", "n_new", "n_tok + n_new", "resized", "tokens"),
          ("remainder", "power")),
    # X
    Wrong(A12, "padding_rows",
          "padding_rows = (n_tok + n_new) % pad_multiple\n",
          "Gave the remainder instead of the rows up to the next multiple.",
          ("remainder", "modulo", "next multiple", "round up", "difference"),
          ("new", "power")),
    # O
    Wrong(A12, "padding_rows",
          "rows = max(V, n_tok + n_new)\n"
          "padding_rows = (1 << (rows - 1).bit_length()) - (n_tok + n_new)\n",
          "Padded to the next power of two instead of a multiple of pad_multiple.",
          ("multiple", "pad_multiple", "power of two"),
          ("remainder", "new")),
    # D
    Wrong(A12, "padding_rows",
          "rows = max(V, n_tok + n_new)\n"
          "padding_rows = padded_size(rows, 256) - (n_tok + n_new)\n",
          "Padded to Megatron's 256 (128 times two-way tensor parallel) instead of "
          "pad_multiple.",
          ("pad_multiple", "multiple", "given"),
          ("power",)),
    # D
    Wrong(A12, "p_new_token",
          "p_new_token = 1 / (corpus.vocab_size + n_new)\n",
          "Assumed a mean-initialised row gives a uniform probability.",
          ("compute", "logits", "softmax", "model", "uniform", "resize_tinylm"),
          ("index", "exp")),
    # L
    Wrong(A12, "p_new_token",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p = np.exp(log_softmax(grown.logits(context)))[0]\n"
          "p_new_token = float(p[corpus.vocab_size - 1])\n",
          "Read index vocab_size - 1, the last old token, not the first new one.",
          ("index", "vocab_size", "first new", "off by one"),
          ("uniform", "log")),
    # O
    Wrong(A12, "p_new_token",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p_new_token = float(log_softmax(grown.logits(context))[0][corpus.vocab_size"
          "])\n",
          "Gave the log-probability, without the exp.",
          ("exp", "log", "probability", "log-probability", "softmax"),
          ("index", "uniform")),
    # X HARD
    Wrong(A12, "p_new_token",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p = np.exp(log_softmax(run.model.logits(context)))[0]\n"
          "p_new_token = round(float(p.mean()), 4)\n",
          "Used the old model's mean probability and rounded it.",
          ("grown", "new token", "resized", "round", "exact"),
          ("log",)),
    # L
    Wrong(A12, "kl_mean",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "vals = kl_divergence(run.model.logits(contexts), grown.logits(contexts))\n"
          "total = 0.0\n"
          "for i in range(1, len(vals)):\n"
          "    total += vals[i]\n"
          "kl_mean = float(total / len(vals))\n",
          "The loop over positions starts at 1, leaving the first position out of the "
          "sum.",
          ("first", "every position", "range", "off by one", "all positions", "mean"),
          ("probabilit",)),
    # O
    Wrong(A12, "kl_mean",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "kl_mean = float(kl_divergence(run.model.logits(contexts),\n"
          "                              grown.logits(contexts)).sum())\n",
          "Summed over positions instead of taking the mean.",
          ("mean", "average", "per position", "positions"),
          ("order", "probabilit")),
    # D
    Wrong(A12, "kl_mean",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "old = np.exp(log_softmax(run.model.logits(contexts)))\n"
          "new = np.exp(log_softmax(grown.logits(contexts)))\n"
          "kl_mean = float(kl_divergence(old, new).mean())\n",
          "Passed probabilities where kl_divergence takes logits, so softmax runs "
          "twice.",
          ("logits", "probabilit", "softmax", "twice", "raw"),
          ("order",)),
    # X HARD
    Wrong(A12, "kl_mean",
          "grown = resize_tinylm(run.model, n_new, 'zeros')\n"
          "kl_mean = round(float(kl_divergence(run.model.logits(contexts),\n"
          "                                    grown.logits(contexts)).mean()), 3)\n",
          "Started the new rows at zero instead of the mean, and rounded to three "
          "decimals.",
          ("mean", "init", "initialis", "zero", "round", "decimal"),
          ("order",)),
    # L
    Wrong(A12, "trimmed_rows",
          "trimmed_rows = len(used) + 256 + 1\n",
          "Added the counts, so tokens in both sets are counted twice.",
          ("union", "overlap", "twice", "both", "set", "duplicate"),
          ("eot", "sort")),
    # O
    Wrong(A12, "trimmed_rows",
          "trimmed_rows = len(used | set(range(256)))\n",
          "Left out the end-of-text token.",
          ("eot", "end-of-text", "endoftext", "eot_token", "special"),
          ("union", "twice")),
    # D
    Wrong(A12, "trimmed_rows",
          "trimmed_rows = len(used) + 1\n",
          "Left out the 256 byte tokens.",
          ("byte", "256", "fallback", "range(256)"),
          ("eot", "twice")),
    # L HARD
    Wrong(A12, "trimmed_rows",
          "trimmed_rows = len(used | set(range(255)))\n",
          "Used range(255), missing byte 255, and forgot the end-of-text token.",
          ("256", "255", "range", "byte", "eot", "end-of-text", "off by one"),
          ("twice",)),
    # D
    Wrong(A12, "saved_params",
          "saved_params = (tok.n_vocab - n_keep) * d_trim * 2\n",
          "Counted the head too; it is tied, so the rows go once.",
          ("tied", "once", "trim_tied", "head", "twice", "shared"),
          ("rounded", "sign")),
    # X
    Wrong(A12, "saved_params",
          "saved_params = (50000 - n_keep) * d_trim\n",
          "Used a rounded 50,000 for the tokenizer's size.",
          ("n_vocab", "exact", "50257", "50,257", "round", "tokenizer"),
          ("tied", "sign")),
    # L
    Wrong(A12, "saved_params",
          "saved_params = (n_keep - tok.n_vocab) * d_trim\n",
          "Subtracted the wrong way round, giving a negative count.",
          ("sign", "negative", "order", "minus", "removed"),
          ("tied", "rounded")),
    # O HARD
    Wrong(A12, "saved_params",
          "saved_params = (tok.n_vocab - trimmed_rows) * d_trim * 2\n",
          "Two mistakes: question 5's trimmed_rows instead of the given n_keep, and "
          "the tied head counted as a second matrix.",
          ("n_keep", "given", "separate", "trimmed_rows", "tied", "once", "twice"),
          ("sign", "rounded")),
    # O
    Wrong(A12, "coverage",
          "kept = used | set(range(256)) | {tok.eot_token}\n"
          "coverage = float(np.mean([set(tok.encode_ordinary(' ' + w)) <= kept\n"
          "                          for w in next_words]))\n",
          "Took the share of words, not weighted by frequency.",
          ("weight", "frequency", "occurrence", "weighted"),
          ("all tokens", "space")),
    # L
    Wrong(A12, "coverage",
          "kept = used | set(range(256)) | {tok.eot_token}\n"
          "cov = np.array([set(tok.encode_ordinary(' ' + w)) <= kept for w in "
          "next_words])\n"
          "wts = np.array([frequencies[w] for w in next_words])\n"
          "coverage = float(wts @ ~cov / wts.sum())\n",
          "Gave the uncovered share instead of the covered one.",
          ("covered", "uncovered", "complement", "1 -", "invert", "share"),
          ("weight", "space")),
    # D
    Wrong(A12, "coverage",
          "kept = used | set(range(256)) | {tok.eot_token}\n"
          "cov = np.array([bool(set(tok.encode_ordinary(' ' + w)) & kept) for w in "
          "next_words])\n"
          "wts = np.array([frequencies[w] for w in next_words])\n"
          "coverage = float(wts @ cov / wts.sum())\n",
          "Counted a word covered when any of its tokens is kept, instead of all of "
          "them.",
          ("every token", "subset", "any", "each token"),
          ("weight", "uncovered")),
    # X HARD
    Wrong(A12, "coverage",
          "kept = used | {tok.eot_token}\n"
          "cov = np.array([set(tok.encode_ordinary(w)) <= kept for w in next_words])\n"
          "wts = np.array([frequencies[w] for w in next_words])\n"
          "coverage = float(wts @ cov / wts.sum())\n",
          "Encoded the words without the leading space and left the byte tokens out of"
          " the kept set.",
          ("space", "\" \" +", "leading", "byte", "256", "kept"),
          ("weight", "uncovered")),
    # X HARD
    Wrong(A12, "saved_params",
          "saved_params = (50000 - 12000) * 768 * 2\n",
          "Typed a rounded 50,000 vocabulary and counted the tied head as a second "
          "matrix.",
          ("n_vocab", "exact", "50257", "round", "tied", "once", "twice"),
          ("sign", "trimmed_rows")),
    # O HARD
    Wrong(A12, "trimmed_rows",
          "trimmed_rows = len(sorted(set(used))) + 256\n",
          "Two mistakes: added the 256 bytes instead of a union (overlap counted "
          "twice) and left out the end-of-text token.",
          ("union", "overlap", "twice", "eot", "end-of-text", "set"),
          ("space",)),
    # L HARD
    Wrong(A12, "coverage",
          "kept = used | set(range(256)) | {tok.eot_token}\n"
          "n_bad = 0\n"
          "for w in next_words:\n"
          "    if not set(tok.encode_ordinary(' ' + w)) <= kept:\n"
          "        n_bad += 1\n"
          "coverage = n_bad / len(next_words)\n",
          "Two mistakes: counted the uncovered words, and did not weight them by "
          "frequency.",
          ("covered", "uncovered", "weight", "frequency", "invert", "complement"),
          ("space", "byte")),
    # O HARD
    Wrong(A12, "p_new_token",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "z = grown.logits(context)[0]\n"
          "z = (z - z.mean()).astype(np.float16)\n"
          "p_new_token = float(np.exp(z[corpus.vocab_size]) / np.exp(z).sum())\n",
          "Centred the logits (harmless: a softmax ignores a shift) and cast them to "
          "float16 (not harmless).",
          ("float16", "precision", "cast", "exact", "dtype", "rounding"),
          ("uniform", "index")),
]
