"""Held-out corpus 18: wrong answers to the twelve exercises, written blind.

Lab notebook
------------
Who: helper blind18 of session 8 (Embedding Lab), worktree /work/wt-blind18, branch
blind18. When (date -u): started Mon Dec 7 21:29 UTC 2026; entries checked and frozen
by 21:59 UTC (final check_wrong run).

What I read: /work/notes/RULES.md and my brief (s8/brief_blind18.md); tests/hint_corpus/
__init__.py (the Wrong record) and tests/hint_corpus/check_wrong.py (how entries run);
the question texts, parameters and given lines of exercises/*.ipynb; the answer cells of
solutions/*.ipynb (to know what is right, and so what is wrong); notebooks/11 (the
worked example, for the stale-state entries) and skims of other lessons;
/work/shared/COURSE.md; embedlab's public API by calling it (help() of llama_config,
deepest_fit, over_budget, resize_tinylm, kl_divergence, new_rows; printed count_params,
model_shape, BYTES_PER_PARAM, available_models). Values were compared with
check_wrong's own run_entry/solution_value.

What I never opened, listed, grepped, imported or ran: lib/embedlab/grading/ (any file),
lib/embedlab/grade.py, lib/embedlab/exercise.py's source, tests/test_*.py, any other
file of tests/hint_corpus/ (the folder was never listed), the `issues` command, git
log/show/diff, other notes, other worktrees. No ex.check, no grader, no embedlab-grade;
no hint printed.

Styles (one comment per entry, "# R", "# P", "# Q" or "# K", plus "HARD"):
  R  a learner from R/MATLAB: 1-based ids and ranges, rows vs columns, len vs
     shape/norm, ^ for a power (XOR in Python), fancy-index += (a copy/buffer), a
     logical for a word;
  P  a physicist: rounding early, orders of magnitude, units (GB/GiB, bits/bytes,
     TFLOP/s, hours), multiply-adds instead of FLOPs, approximations (12d^2, 6ND);
  Q  the neighbouring question: the share instead of the count, per layer instead of
     all, per token instead of per sequence, the saving instead of the total, the other
     model;
  K  stale notebook state: a variable of an earlier question or lesson (table_V,
     kaplan_n, top_hindi, the lesson's JOB or worked design), a leaked loop variable, a
     parameter typed from the book's example instead of read.
HARD: two mistakes at once, or a value that coincides with the right one or with another
mistake on the book's inputs (the mistake sentence says which).

Counts: 334 entries, every one of the 79 questions at least once (checked by script
against the solutions' check cells, lesson 11's design and defence included).
  lesson                    R   P   Q   K  all  HARD
  01-toy-table             10   4   6   7   27     6
  02-lookup-vs-matmul      11   7   7   8   33     7
  03-counting-gpt2          4   5   7   7   23     6
  04-modern-blocks          3   5   6   6   20     5
  05-weight-tying           6   4   6   4   20     3
  06-params-vs-compute      6   9   9   7   31     9
  07-memory                 6   8  10   6   30    11
  08-vocabulary-size        6   9   8   7   30     7
  09-what-rows-learn        9   7   6   6   28     9
  10-glitch-tokens         10   7   7   6   30     5
  11-size-a-model           4   8   8   9   29     7
  12-change-a-vocabulary   10   9   6   8   33     9
  all                      85  82  86  81  334    84 (25.1 %)

What I dropped and why:
- before running: answers that are right on the book's inputs, so not wrong as handed
  out: batch looked up in question 1's E (same numbers as `table` in the book); `ties`
  from a leaked loop variable (the last candidate is the tied one); np.ceil padding (a
  float equal to the int); (V // m + 1) * m padding (equal when V is not a multiple); D
  / T_train (600e9 is a multiple of 2048); the tightest budget from raw amounts
  ("compute", right); rows_matmul = rows_lookup; hindi_r with len(hindi) as denominator
  (the ratio cancels it); 2 * token_embedding for vocab_share (Llama-3-8B's head equals
  its table); .vocab_share; a design with d = 1000 and 16 heads (llama_config raises:
  not a design at all).
- after the first check: `... / 2^30` and `... / 10^9` raise TypeError on floats, so
  the R entries now write GiB = 1024^3 and GB = 10^9 on a line of their own (1027 and
  3).
- after --same: three pairs computed the same thing (grad_E's fancy assignment is the
  same as +=; embedding_grad's first slot with += equals it with add.at on the test
  batches; kl_mean swapped-and-cut gives 0 whether summed or averaged): one of each pair
  rewritten.
- rebalancing: the first draft had 343 entries, 32 % Q and 16 % HARD; I removed 45
  single-mistake entries (mostly Q and P duplicates of a question's idea), demoted 13
  HARD tags whose entry had only one mistake, added 36 entries with two slips and
  rewrote 13 others to hold two.

Final check (cd tests && nice ../.venv/bin/python -m hint_corpus.check_wrong heldout18
--same): "problems: 0", no "same value" line.
"""

from textwrap import dedent

from hint_corpus import Wrong

# the given lines of exercise 11's defence cell (above the answer in a learner's cell)
DEFENCE_HELPER = dedent("""\
def deepest_with(heads):
    per_kv = design["num_attention_heads"] // design["num_key_value_heads"]
    if heads <= 0 or heads % per_kv:
        raise ValueError(f"heads={heads}: give a multiple of your {per_kv} heads "
                         "per key/value head")
    d = heads * head_dim
    d_ff = design["intermediate_size"] * heads // design["num_attention_heads"]
    V, tied = design["vocab_size"], design["tie_word_embeddings"]
    found = deepest_fit(lambda L: llama_config(V, d, L, heads, heads // per_kv, d_ff,
                                               tied), BUDGET, max_layers=4096).design
    if found is None:
        return 0, 0
    return found["num_hidden_layers"], design_figures(found, BUDGET).non_embedding

""")

ENTRIES = [
    # ---------------------------------------- 01 toy table
    # R
    Wrong("01-toy-table", "E",
          "E = np.array([[int(f in traits[w]) for w in words] for f in features])",
          "Built the table transposed, one row per feature and one column per word, "
          "as a column-major habit would.",
          ("transpose", "transposed", "one row per word", "rows", "columns", "shape",
           "swap"),
          ("cosine", "tied", "bias", "float")),
    # K
    Wrong("01-toy-table", "E",
          "E = np.array([[0, 1], [0, 1], [1, 0]])",
          "Typed the lesson's cat/dog/car table with its two features [object, animal] "
          "instead of building the one the parameters cell describes.",
          ("lesson", "parameters cell", "traits", "features", "words", "your own",
           "shape", "example"),
          ("transpose", "cosine", "float")),
    # R HARD
    Wrong("01-toy-table", "E",
          dedent("""\
          E = np.zeros((len(words) + 1, len(features) + 1), dtype=int)
          for i, w in enumerate(words, start=1):
              for j, f in enumerate(features, start=1):
                  E[i, j] = int(f in traits[w])
          """),
          "Counted ids and features from 1 as in R, so the table has an extra zero row "
          "and an extra zero column (two slips at once: shape and every row shifted).",
          ("0", "zero", "from 0", "1-based", "one-based", "extra row", "shape", "index",
           "start"),
          ("cosine", "transpose", "tied")),
    # R
    Wrong("01-toy-table", "n_params",
          "n_params = len(E)",
          "Used len(E), which gives the number of rows only, for the number of "
          "entries.",
          ("rows", "columns", "len", "shape", "size", "times", "multiply", "each"),
          ("bias", "tied", "head")),
    # K HARD
    Wrong("01-toy-table", "n_params",
          "n_params = 3 * 2",
          "Kept the lesson's 3 x 2 table count instead of counting this table; on the "
          "book's inputs 6 is also the number of ones in E, a second possible mistake.",
          ("rows", "columns", "words", "features", "your table", "lesson", "3 x 2",
           "every entry"),
          ("bias", "tied", "head")),
    # Q
    Wrong("01-toy-table", "n_params",
          "n_params = len(features)",
          "Counted the parameters of one word's row instead of the whole table.",
          ("rows", "every word", "whole table", "times", "one row", "words",
           "columns"),
          ("bias", "tied", "float")),
    # R
    Wrong("01-toy-table", "batch",
          "batch = table[[word_to_id[w] + 1 for w in sentence]]",
          "Added 1 to every id as if ids started at 1, so each row is the next word's.",
          ("0", "zero", "from 0", "1-based", "off by one", "index", "ids", "start"),
          ("transpose", "column", "cosine")),
    # Q
    Wrong("01-toy-table", "batch",
          "batch = table[sorted({word_to_id[w] for w in sentence})]",
          "Looked up each distinct word once, sorted, instead of one row per word of "
          "the sentence in order.",
          ("every word", "repeat", "repeated", "order", "once", "duplicate",
           "one row per", "each word"),
          ("transpose", "off by one", "cosine")),
    # R
    Wrong("01-toy-table", "batch",
          "batch = table[:, [word_to_id[w] for w in sentence]]",
          "Selected columns with the ids instead of rows, the column-major reflex.",
          ("rows", "columns", "axis", "first index", "row", "transpose", "shape"),
          ("off by one", "repeat", "cosine")),
    # K
    Wrong("01-toy-table", "batch",
          dedent("""\
          for w in sentence:
              batch = table[word_to_id[w]]
          """),
          "Overwrote batch inside a loop, so only the last word's row is left.",
          ("loop", "last", "overwrit", "one row per word", "every word", "list of ids",
           "indexing step", "shape"),
          ("transpose", "off by one", "cosine")),
    # R HARD
    Wrong("01-toy-table", "batch",
          "batch = table[[word_to_id[w] + 1 for w in sentence]].T",
          "Two R habits at once: ids shifted to 1-based, and the rows returned as "
          "columns (transposed).",
          ("0", "1-based", "off by one", "index", "transpose", "rows", "shape"),
          ("repeat", "cosine", "loop")),
    # R
    Wrong("01-toy-table", "cosine",
          dedent("""\
          def cosine(a, b):
              return float(a @ b / (len(a) * len(b)))
          """),
          "Divided by the vectors' lengths in elements (len) instead of their norms.",
          ("norm", "length", "magnitude", "np.linalg.norm", "divide", "len"),
          ("round", "angle", "global")),
    # Q
    Wrong("01-toy-table", "cosine",
          dedent("""\
          def cosine(a, b):
              c = a @ b / (np.linalg.norm(a) * np.linalg.norm(b))
              return float(np.arccos(np.clip(c, -1, 1)))
          """),
          "Returned the angle itself (arccos, in radians) instead of its cosine.",
          ("angle", "arccos", "cosine", "radians", "not the angle"),
          ("norm", "round", "global")),
    # K
    Wrong("01-toy-table", "cosine",
          dedent("""\
          def cosine(a, b):
              a, b = np.asarray(table[0], float), np.asarray(table[1], float)
              return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
          """),
          "Left the rows of the notebook's table inside the function, so it ignores "
          "its "
          "arguments and always returns cos(cat, dog) = 1; the formula itself is "
          "right.",
          ("argument", "arguments", "inputs", "a and b", "global", "any vectors",
           "ignores"),
          ("round", "angle", "len")),
    # R
    Wrong("01-toy-table", "cos_pair",
          "cos_pair = cosine_similarity(table[word_to_id[pair[0]] + 1],\n"
          "                             table[word_to_id[pair[1]] + 1])",
          "Shifted both ids by one (1-based habit), so it compares car with horse.",
          ("0", "zero", "1-based", "off by one", "index", "ids", "start", "rows"),
          ("round", "degrees", "E of question 1")),
    # P
    Wrong("01-toy-table", "cos_pair",
          "cos_pair = round(cosine_similarity(table[word_to_id[pair[0]]],\n"
          "                                   table[word_to_id[pair[1]]]), 2)",
          "Rounded the cosine to 0.71 before answering; the check wants it exact.",
          ("round", "exact", "decimals", "precision", "digits", "in code"),
          ("1-based", "degrees", "pair")),
    # Q
    Wrong("01-toy-table", "cos_pair",
          "c = cosine_similarity(table[word_to_id[pair[0]]], "
          "table[word_to_id[pair[1]]])\n"
          "cos_pair = float(np.degrees(np.arccos(c)))",
          "Answered the angle between the two rows in degrees (45) instead of its "
          "cosine.",
          ("angle", "degrees", "arccos", "cosine", "not the angle"),
          ("round", "1-based", "pair")),
    # K HARD
    Wrong("01-toy-table", "cos_pair",
          "cos_pair = cosine_similarity(table[word_to_id[words[0]]],\n"
          "                             table[word_to_id[words[1]]])",
          "Compared the lesson's pair (cat and dog, the first two words) instead of "
          "the "
          "words in `pair`; its 1.0 is also what the bare dot product of horse and dog "
          "gives on the book's table.",
          ("pair", "the two words", "horse", "which words", "parameters cell",
           "your pair"),
          ("round", "degrees", "1-based")),
    # K
    Wrong("01-toy-table", "model_table",
          "model_table = 32000 * 512",
          "Typed the sources' 32,000 x 512 example instead of reading `model`'s V and "
          "d.",
          ("vocab_size", "hidden_size", "config", "model_shape", "load_config", "model",
           "read"),
          ("position", "head", "round")),
    # P
    Wrong("01-toy-table", "model_table",
          "model_table = int(5e4 * 768)",
          "Rounded the vocabulary to 50,000 (an order-of-magnitude habit) before "
          "multiplying.",
          ("round", "exact", "vocab_size", "50,257", "50257", "config", "model_shape"),
          ("head", "position", "whole model")),
    # Q
    Wrong("01-toy-table", "model_table",
          "shape = model_shape(load_config(model))\n"
          "model_table = (shape.vocab_size + 1024) * shape.hidden_size",
          "Added GPT-2's 1,024-row position table to the token table, and typed the "
          "1,024 "
          "rather than reading it: the question asks for the token table only.",
          ("position", "token table", "only", "token embedding", "learned_positions",
           "1024"),
          ("head", "round", "32,000")),
    # Q
    Wrong("01-toy-table", "extra_dim_cost",
          "shape = model_shape(load_config(model))\n"
          "extra_dim_cost = shape.vocab_size * (shape.hidden_size + extra_features)",
          "Gave the size of the widened table instead of what it gains.",
          ("gain", "difference", "more", "extra", "minus", "added", "new table"),
          ("round", "rows", "words")),
    # K
    Wrong("01-toy-table", "extra_dim_cost",
          "extra_dim_cost = len(words) * extra_features",
          "Used the toy table's word count from question 1 instead of the model's "
          "vocabulary.",
          ("vocab_size", "model", "V", "config", "every token", "tokens", "real model"),
          ("round", "rows", "width")),
    # P
    Wrong("01-toy-table", "extra_dim_cost",
          "extra_dim_cost = int(5e4 * extra_features)",
          "Rounded V to 50,000 before multiplying by the extra features.",
          ("round", "exact", "vocab_size", "50,257", "50257", "config"),
          ("width", "words", "new table")),
    # R
    Wrong("01-toy-table", "extra_dim_cost",
          "shape = model_shape(load_config(model))\n"
          "V, d = shape.vocab_size, shape.hidden_size\n"
          "extra_dim_cost = (V + extra_features) * d - V * d",
          "Grew the rows (tokens) instead of the columns (features): rows and columns "
          "swapped.",
          ("columns", "width", "rows", "every token", "features", "d", "hidden_size",
           "dimension"),
          ("round", "new table", "words")),
    # R HARD
    Wrong("01-toy-table", "extra_dim_cost",
          "extra_dim_cost = ((len(words) + extra_features) * len(features)\n"
          "                  - len(words) * len(features))",
          "Two slips: priced the toy table of question 1 instead of the model's, and "
          "grew its rows instead of its columns.",
          ("model", "vocab_size", "config", "columns", "width", "features", "real "
           "model"),
          ("round", "new table")),
    # P HARD
    Wrong("01-toy-table", "model_table",
          "model_table = int(5e4 * 8e2)",
          "Two roundings at once, V to 50,000 and d to 800, an order-of-magnitude "
          "estimate.",
          ("exact", "round", "vocab_size", "hidden_size", "config", "768", "50257"),
          ("position", "head", "whole model")),
    # ---------------------------------------- 02 lookup vs matmul
    # R
    Wrong("02-lookup-vs-matmul", "one_hot",
          dedent("""\
          def one_hot(ids, V):
              out = np.zeros((len(ids), V))
              out[np.arange(len(ids)), np.asarray(ids) - 1] = 1.0
              return out
          """),
          "Subtracted 1 from every id as if ids were 1-based, so id 0 lands in the "
          "last "
          "column.",
          ("0", "zero", "1-based", "off by one", "column ids[t]", "index", "start"),
          ("transpose", "count", "global")),
    # R
    Wrong("02-lookup-vs-matmul", "one_hot",
          dedent("""\
          def one_hot(ids, V):
              out = np.zeros((V, len(ids)))
              out[ids, np.arange(len(ids))] = 1.0
              return out
          """),
          "Returned the one-hot matrix transposed, one column per position, shape "
          "(V, len(ids)).",
          ("transpose", "transposed", "shape", "rows", "columns", "(len(ids), v)",
           "one row per"),
          ("off by one", "count", "global")),
    # K
    Wrong("02-lookup-vs-matmul", "one_hot",
          dedent("""\
          def one_hot(ids, V):
              return np.eye(table_V)[ids]
          """),
          "Used the notebook's table_V instead of the argument V, so the width is 8 "
          "whatever V is asked.",
          ("argument", "V", "width", "shape", "columns", "parameter", "global",
           "table_v"),
          ("off by one", "transpose", "count")),
    # Q
    Wrong("02-lookup-vs-matmul", "one_hot",
          dedent("""\
          def one_hot(ids, V):
              return np.bincount(ids, minlength=V)
          """),
          "Returned one bag-of-words vector of counts for the whole batch instead of "
          "one "
          "row per id.",
          ("one row per", "row t", "each id", "shape", "(len(ids), v)", "counts",
           "bag"),
          ("off by one", "transpose", "global")),
    # R HARD
    Wrong("02-lookup-vs-matmul", "one_hot",
          dedent("""\
          def one_hot(ids, V):
              out = np.zeros((V, len(ids)))
              out[np.asarray(ids) - 1, np.arange(len(ids))] = 1.0
              return out
          """),
          "Two R habits: columns for positions (shape (V, len(ids))) and ids shifted "
          "to 1-based.",
          ("transpose", "shape", "(len(ids), v)", "1-based", "off by one", "0"),
          ("count", "global")),
    # R
    Wrong("02-lookup-vs-matmul", "rows_lookup",
          "rows_lookup = E[np.array(ids) - 1]",
          "Converted the ids to 1-based by subtracting 1, so every row is its "
          "neighbour's (id 0 wraps to the last row).",
          ("0", "zero", "1-based", "off by one", "index", "ids", "start"),
          ("unique", "seed", "round")),
    # K
    Wrong("02-lookup-vs-matmul", "rows_lookup",
          "E0 = np.random.default_rng(0).standard_normal((table_V, table_d))\n"
          "rows_lookup = E0.astype(np.float32)[ids]",
          "Redrew the table with the seed 0 of an earlier example instead of "
          "table_seed.",
          ("seed", "table_seed", "given", "E", "table", "the cell's"),
          ("off by one", "unique", "round")),
    # R HARD
    Wrong("02-lookup-vs-matmul", "rows_lookup",
          "rows_lookup = E[np.array(ids) - 1].T",
          "Two slips: ids made 1-based by subtracting 1, and the rows returned "
          "transposed as columns.",
          ("1-based", "off by one", "0", "index", "transpose", "rows", "shape"),
          ("unique", "seed", "round")),
    # P
    Wrong("02-lookup-vs-matmul", "rows_matmul",
          "rows_matmul = (np.eye(table_V, dtype=np.float16)[ids]\n"
          "               @ E.astype(np.float16))",
          "Cast the table to half precision to save memory before the product, so the "
          "rows come back rounded.",
          ("float16", "precision", "dtype", "float32", "round", "exact", "half"),
          ("transpose", "sum", "loop")),
    # R
    Wrong("02-lookup-vs-matmul", "rows_matmul",
          "rows_matmul = E.T @ np.eye(table_V, dtype=np.float32)[ids].T",
          "Multiplied in column order (E transposed times the one-hot transposed), "
          "which "
          "gives the rows as columns.",
          ("transpose", "transposed", "shape", "order", "rows", "columns",
           "one_hot(ids) @ e"),
          ("float16", "sum", "loop")),
    # K
    Wrong("02-lookup-vs-matmul", "rows_matmul",
          dedent("""\
          for i in ids:
              rows_matmul = np.eye(table_V, dtype=np.float32)[i] @ E
          """),
          "Computed the product inside a loop and kept only the last id's row.",
          ("loop", "last", "overwrit", "one row per id", "all ids", "shape", "whole"),
          ("float16", "transpose", "sum")),
    # Q
    Wrong("02-lookup-vs-matmul", "rows_matmul",
          "rows_matmul = np.eye(table_V, dtype=np.float32)[ids].sum(axis=0) @ E",
          "Summed the one-hot rows into one vector first, so it returns the sum of the "
          "rows instead of one row per id.",
          ("one row per id", "sum", "shape", "each id", "rows", "bag"),
          ("float16", "transpose", "loop")),
    # Q
    Wrong("02-lookup-vs-matmul", "keeps_sign",
          'keeps_sign = "both"',
          "Answered that both paths keep the sign, reading the question as whether "
          "both "
          "select row 0.",
          ("matmul", "sum", "+0.0", "0.0", "signbit", "adds", "positive zero",
           "lookup"),
          ("nan", "inf", "float16")),
    # P
    Wrong("02-lookup-vs-matmul", "keeps_sign",
          'keeps_sign = "matmul"',
          "Reasoned that 1 x (-0.0) is -0.0 and forgot the +0.0 terms the product "
          "adds, "
          "which make the sum +0.0.",
          ("sum", "+0.0", "adds", "positive zero", "signbit", "0 x", "copies",
           "lookup"),
          ("nan", "inf", "float16")),
    # R
    Wrong("02-lookup-vs-matmul", "embedding_backward",
          dedent("""\
          def embedding_backward(ids, grad_out, V):
              grad_E = np.zeros((V, grad_out.shape[1]))
              grad_E[ids] += grad_out
              return grad_E
          """),
          "Used fancy-index += , which writes a repeated id once instead of adding "
          "both "
          "contributions.",
          ("np.add.at", "add.at", "repeated", "accumulate", "both", "buffered", "+=",
           "add up"),
          ("transpose", "mean", "float16")),
    # K
    Wrong("02-lookup-vs-matmul", "embedding_backward",
          dedent("""\
          def embedding_backward(ids, grad_out, V):
              grad_E = np.zeros((table_V, grad_out.shape[1]))
              np.add.at(grad_E, ids, grad_out)
              return grad_E
          """),
          "Sized the gradient with the notebook's table_V instead of the argument V.",
          ("argument", "V", "shape", "(v, d)", "rows", "global", "table_v"),
          ("accumulate", "transpose", "mean")),
    # Q
    Wrong("02-lookup-vs-matmul", "embedding_backward",
          dedent("""\
          def embedding_backward(ids, grad_out, V):
              total = np.zeros((V, grad_out.shape[1]))
              np.add.at(total, ids, grad_out)
              n = np.bincount(ids, minlength=V)[:, None]
              return total / np.maximum(n, 1)
          """),
          "Averaged the rows of a repeated id instead of summing them.",
          ("sum", "add", "not the mean", "average", "repeated", "accumulate"),
          ("transpose", "float16", "shape")),
    # R HARD
    Wrong("02-lookup-vs-matmul", "embedding_backward",
          dedent("""\
          def embedding_backward(ids, grad_out, V):
              grad_E = np.zeros((grad_out.shape[1], V))
              grad_E[:, ids] += grad_out.T
              return grad_E
          """),
          "Two slips at once: the gradient is built column-wise, shape (d, V), and the "
          "fancy-index += drops a repeated id's second contribution.",
          ("transpose", "shape", "(v, d)", "add.at", "repeated", "accumulate", "+="),
          ("mean", "float16")),
    # P
    Wrong("02-lookup-vs-matmul", "embedding_backward",
          dedent("""\
          def embedding_backward(ids, grad_out, V):
              grad_E = np.zeros((V, grad_out.shape[1]), dtype=np.float16)
              np.add.at(grad_E, ids, grad_out.astype(np.float16))
              return grad_E
          """),
          "Accumulated the gradient in float16 to save memory, rounding every value.",
          ("float16", "precision", "dtype", "float64", "round", "exact"),
          ("repeated", "transpose", "mean")),
    # Q
    Wrong("02-lookup-vs-matmul", "updated_rows",
          "updated_rows = np.arange(batch_V)",
          "Gave every row, the tied head's answer, though the table here is untied.",
          ("untied", "only looked up", "ids in the batch", "unique", "zero gradient",
           "tied"),
          ("1-based", "first sequence", "sorted")),
    # R
    Wrong("02-lookup-vs-matmul", "updated_rows",
          "updated_rows = np.unique(batch) + 1",
          "Shifted the ids to 1-based row numbers.",
          ("0", "zero", "1-based", "off by one", "ids", "row numbers", "index"),
          ("tied", "first sequence", "every row")),
    # K
    Wrong("02-lookup-vs-matmul", "updated_rows",
          "updated_rows = np.unique(ids)",
          "Reused question 2's ids instead of the ids of `batch`.",
          ("batch", "the batch", "ids of batch", "sequences", "parameters cell",
           "question 2"),
          ("tied", "1-based", "sorted")),
    # R HARD
    Wrong("02-lookup-vs-matmul", "updated_rows",
          "updated_rows = np.sort(np.ravel(batch)) + 1",
          "Two slips: flattened without removing repeats, and shifted to 1-based row "
          "numbers.",
          ("once", "unique", "repeat", "duplicate", "1-based", "off by one", "0"),
          ("tied", "first sequence")),
    # Q
    Wrong("02-lookup-vs-matmul", "updated_rows",
          "updated_rows = np.setdiff1d(np.arange(batch_V), batch)",
          "Gave the rows that do not change (the complement) instead of those that "
          "can; "
          "it has the same length as the right answer on the book's batch (5 of 10).",
          ("complement", "can have changed", "in the batch", "looked up", "unique",
           "zero gradient", "not move"),
          ("tied", "1-based", "first sequence")),
    # P
    Wrong("02-lookup-vs-matmul", "batch_flops",
          "batch_flops = V * d * n_tokens",
          "Counted multiply-adds, one per weight per token, instead of 2 FLOPs each.",
          ("2", "two", "multiply-add", "multiply and add", "2·v·d", "factor"),
          ("per token", "table_v", "round")),
    # Q
    Wrong("02-lookup-vs-matmul", "batch_flops",
          "batch_flops = 2 * V * d",
          "Gave the FLOPs of one token instead of the batch of n_tokens.",
          ("n_tokens", "batch", "per token", "times", "every token", "all tokens"),
          ("factor", "table_v", "round")),
    # K
    Wrong("02-lookup-vs-matmul", "batch_flops",
          "batch_flops = 2 * table_V * table_d * n_tokens",
          "Used the small table's table_V and table_d from question 2 instead of V and "
          "d.",
          ("V", "d", "vocabulary", "width", "32000", "model", "parameters cell",
           "table_v"),
          ("factor", "per token", "round")),
    # K HARD
    Wrong("02-lookup-vs-matmul", "batch_flops",
          "batch_flops = 2 * table_V * table_d",
          "Two stale slips: the small table of question 2 (table_V, table_d) and one "
          "token instead of n_tokens.",
          ("V", "d", "table_v", "parameters cell", "n_tokens", "batch", "per token"),
          ("factor", "round")),
    # P HARD
    Wrong("02-lookup-vs-matmul", "batch_flops",
          "batch_flops = V * d * 1000",
          "Two slips: counted multiply-adds (no factor 2) and rounded the batch to "
          "1,000 tokens.",
          ("2", "two", "factor", "multiply-add", "n_tokens", "1024", "round", "exact"),
          ("per token", "table_v")),
    # P
    Wrong("02-lookup-vs-matmul", "one_hot_batch_bytes",
          "one_hot_batch_bytes = n_tokens * V * np.dtype(precision).itemsize * 8",
          "Counted bits instead of bytes (multiplied by 8).",
          ("bytes", "bits", "8", "itemsize", "unit"),
          ("table", "float64", "len")),
    # K
    Wrong("02-lookup-vs-matmul", "one_hot_batch_bytes",
          "one_hot_batch_bytes = np.eye(V)[:1].itemsize * n_tokens * V",
          "Took the itemsize of np.eye's default float64, as built in earlier cells, "
          "instead of the dtype named in `precision`.",
          ("precision", "dtype", "float32", "itemsize", "4", "float64", "8 bytes"),
          ("bits", "table", "len")),
    # R
    Wrong("02-lookup-vs-matmul", "one_hot_batch_bytes",
          "one_hot_batch_bytes = n_tokens * V * len(precision)",
          "Used len(precision), the length of the word 'float32', as the bytes per "
          "number.",
          ("itemsize", "bytes per", "np.dtype", "4", "dtype", "len"),
          ("bits", "table", "float64")),
    # P HARD
    Wrong("02-lookup-vs-matmul", "one_hot_batch_bytes",
          "one_hot_batch_bytes = n_tokens * V * 8 / 2**20",
          "Two slips: numpy's default 8-byte float64 instead of `precision`, and MiB "
          "instead of bytes.",
          ("bytes", "mib", "unit", "2**20", "precision", "float32", "itemsize"),
          ("table", "float64", "len")),
    # ---------------------------------------- 03 counting GPT-2
    # Q
    Wrong("03-counting-gpt2", "linear_params",
          "linear_params = linear_in * linear_out",
          "Left out the bias the question asks for.",
          ("bias", "biases", "+ n", "m·n + n", "one per output"),
          ("round", "input", "768")),
    # P
    Wrong("03-counting-gpt2", "linear_params",
          "linear_params = int(4.2e6)",
          "Rounded the count to two significant figures.",
          ("round", "exact", "int", "whole number", "significant", "digits"),
          ("bias", "768", "input")),
    # P
    Wrong("03-counting-gpt2", "block_params",
          "block_params = 12 * d**2",
          "Answered with the 12d^2 approximation, leaving out the biases and "
          "LayerNorms.",
          ("bias", "biases", "layernorm", "13d", "exact", "approximation", "norms"),
          ("768", "attention only", "seed")),
    # K
    Wrong("03-counting-gpt2", "block_params",
          "block_params = 7_087_872",
          "Typed GPT-2 small's block from the lesson instead of counting "
          "block_model's.",
          ("block_model", "d", "width", "config", "1024", "medium", "your model",
           "hidden_size"),
          ("bias", "approximation", "attention only")),
    # R
    Wrong("03-counting-gpt2", "block_params",
          "block_params = ((d * 3 * d + d) + (d * d + d) + (d * 4 * d + d)\n"
          "                + (4 * d * d + 4 * d) + 2 * (2 * d))",
          "Sized every bias by the layer's input side (rows) instead of its output "
          "side, so the q/k/v bias is d instead of 3d and the MLP's are swapped.",
          ("bias", "output", "3d", "4d", "out features", "rows", "columns"),
          ("768", "approximation", "attention only")),
    # K HARD
    Wrong("03-counting-gpt2", "block_params",
          "block_params = 4 * d**2 + 4 * d**2",
          "Two mistakes: took seed 001's 4d^2 for the MLP (it is 8d^2) and left out "
          "every bias and LayerNorm.",
          ("8d", "two matrices", "4d", "mlp", "bias", "layernorm", "12d"),
          ("768", "attention only")),
    # Q HARD
    Wrong("03-counting-gpt2", "block_params",
          "block_params = 4 * d**2",
          "Two mistakes: counted the attention only (the MLP left out) and no biases "
          "or LayerNorms.",
          ("mlp", "8d", "whole block", "bias", "layernorm", "12d"),
          ("768", "seed")),
    # Q
    Wrong("03-counting-gpt2", "interview",
          "interview = 2 * interview_V * interview_d",
          "Counted the head as a second V x d matrix though it is tied to the table.",
          ("tied", "shared", "same matrix", "once", "reuses", "counted twice",
           "one table"),
          ("round", "50257", "position")),
    # K
    Wrong("03-counting-gpt2", "interview",
          "interview = 50257 * interview_d",
          "Used GPT-2's vocabulary instead of interview_V.",
          ("interview_v", "vocabulary", "40000", "parameters cell", "your", "V"),
          ("tied", "round", "position")),
    # K HARD
    Wrong("03-counting-gpt2", "interview",
          "interview = 2 * 32000 * 512",
          "Two slips: seed 001's own numbers (32,000 x 512) instead of interview_V and "
          "interview_d, and the tied head counted as a second matrix.",
          ("interview_v", "interview_d", "parameters cell", "tied", "once", "shared"),
          ("round", "position")),
    # Q
    Wrong("03-counting-gpt2", "embedding_share",
          "counts = count_params(load_config(share_model))\n"
          "embedding_share = ((counts.token_embedding + counts.position_embedding)\n"
          "                   / counts.total)",
          "Added the position table to the token table.",
          ("token table", "only", "position", "token_embedding", "E"),
          ("round", "percent", "gpt2 small")),
    # P
    Wrong("03-counting-gpt2", "embedding_share",
          "counts = count_params(load_config(share_model))\n"
          "embedding_share = 100 * counts.token_embedding / counts.total",
          "Gave a percentage instead of a fraction between 0 and 1.",
          ("percent", "fraction", "between 0 and 1", "100"),
          ("position", "round", "rest")),
    # Q
    Wrong("03-counting-gpt2", "embedding_share",
          "counts = count_params(load_config(share_model))\n"
          "embedding_share = (counts.token_embedding\n"
          "                   / (counts.total - counts.token_embedding))",
          "Divided by the rest of the model instead of the whole, a ratio instead of a "
          "share.",
          ("total", "whole", "rest", "share", "of the whole", "ratio"),
          ("position", "percent", "round")),
    # Q
    Wrong("03-counting-gpt2", "estimate_gap",
          "estimate_gap = (V * d + 12 * L * d**2) - exact",
          "Subtracted the other way round: estimate minus exact, a negative number.",
          ("exact − estimate", "exact - estimate", "sign", "negative", "short",
           "order"),
          ("round", "l = 12", "xor")),
    # R
    Wrong("03-counting-gpt2", "estimate_gap",
          "estimate_gap = exact - (V * d + 12 * L * d^2)",
          "Wrote d^2 for the square as in R or MATLAB; in Python ^ is a bitwise XOR.",
          ("^", "xor", "**", "power", "square", "d**2"),
          ("sign", "round", "l = 12")),
    # K
    Wrong("03-counting-gpt2", "estimate_gap",
          "estimate_gap = exact - (V * d + 12 * 12 * d**2)",
          "Kept GPT-2 small's 12 blocks in the estimate instead of L.",
          ("L", "num_layers", "blocks", "depth", "config", "24"),
          ("sign", "xor", "round")),
    # K
    Wrong("03-counting-gpt2", "estimate_gap",
          "estimate_gap = 907_776",
          "Typed the course's gap for GPT-2 small (907,776) instead of computing "
          "gap_model's; it is also the right size for a different model, so it looks "
          "plausible.",
          ("gap_model", "compute", "medium", "your model", "in code", "config"),
          ("sign", "xor", "fraction")),
    # R HARD
    Wrong("03-counting-gpt2", "estimate_gap",
          "estimate_gap = (V * d + 12 * L * d^2) - exact",
          "Two slips: d^2 written as in R (XOR in Python), and the subtraction the "
          "other way round (estimate minus exact).",
          ("^", "xor", "**", "exact − estimate", "exact - estimate", "sign"),
          ("round", "l = 12")),
    # P
    Wrong("03-counting-gpt2", "gpt2_params",
          dedent("""\
          def gpt2_params(V, d, L, T):
              return V * d + T * d + L * 12 * d * d
          """),
          "Used the 12d^2 approximation per block and left out every bias and "
          "LayerNorm.",
          ("bias", "layernorm", "13d", "exact", "approximation", "norms"),
          ("tied", "1024", "range")),
    # K
    Wrong("03-counting-gpt2", "gpt2_params",
          dedent("""\
          def gpt2_params(V, d, L, T):
              block = 12 * d * d + 13 * d
              return V * d + 1024 * d + L * block + 2 * d
          """),
          "Hard-coded GPT-2's 1,024 positions instead of the argument T.",
          ("T", "context", "position", "argument", "1024", "positions"),
          ("tied", "bias", "range")),
    # R
    Wrong("03-counting-gpt2", "gpt2_params",
          dedent("""\
          def gpt2_params(V, d, L, T):
              total = V * d + T * d + 2 * d
              for layer in range(1, L):
                  total += 12 * d * d + 13 * d
              return total
          """),
          "Looped over range(1, L) as if it were R's 1:L, counting one block too few.",
          ("range", "l blocks", "one block", "off by one", "every block", "loop",
           "1-based"),
          ("tied", "bias", "1024")),
    # Q HARD
    Wrong("03-counting-gpt2", "gpt2_params",
          dedent("""\
          def gpt2_params(V, d, L, T):
              block = 12 * d * d + 13 * d
              return V * d + L * block
          """),
          "Two omissions: the position table (T x d) and the final LayerNorm (2d).",
          ("position", "T", "final layernorm", "final norm", "2d", "t·d"),
          ("tied", "range", "approximation")),
    # P HARD
    Wrong("03-counting-gpt2", "linear_params",
          "linear_params = int(4e6)",
          "Two approximations: the product rounded to 4 million and the bias dropped "
          "as negligible.",
          ("exact", "round", "bias", "+ n", "whole number", "digits"),
          ("768", "input")),
    # ---------------------------------------- 04 modern blocks
    # K
    Wrong("04-modern-blocks", "attn_layer",
          "attn_layer = 4 * d * d",
          "Used lesson 03's 4d^2 rule, as if every head had its own key and value.",
          ("grouped-query", "gqa", "h_kv", "key/value heads", "k and v", "smaller",
           "kv"),
          ("bias", "round", "all layers")),
    # R
    Wrong("04-modern-blocks", "attn_layer",
          "attn_layer = 2 * d * d + 2 * d * h_kv",
          "Sized k and v as d x h_kv, the number of key/value heads, forgetting each "
          "head's width head_dim.",
          ("head_dim", "h_kv · head_dim", "width", "per head", "shape", "512"),
          ("bias", "round", "all layers")),
    # Q
    Wrong("04-modern-blocks", "attn_layer",
          "attn_layer = d * h * head_dim + 2 * d * h_kv * head_dim",
          "Counted q, k and v but left out the output projection o.",
          ("o", "output projection", "o_proj", "four", "q, k, v and o"),
          ("bias", "round", "all layers")),
    # Q HARD
    Wrong("04-modern-blocks", "attn_layer",
          "L = model_shape(load_config(attn_model)).num_layers\n"
          "attn_layer = L * 4 * d * d",
          "Two mistakes: every layer instead of one, and lesson 03's 4d^2 as if each "
          "query head had its own key and value.",
          ("one layer", "per layer", "num_layers", "grouped-query", "h_kv", "gqa"),
          ("bias", "round")),
    # K
    Wrong("04-modern-blocks", "mlp_layer",
          "mlp_layer = 2 * d * d_ff",
          "Counted two matrices, the GPT-2 MLP of lesson 03, instead of SwiGLU's "
          "three.",
          ("three", "3", "gate", "swiglu", "up", "down", "matrices"),
          ("bias", "round", "all layers")),
    # P
    Wrong("04-modern-blocks", "mlp_layer",
          "mlp_layer = 3 * d * 8000",
          "Rounded d_ff to 8,000 before multiplying.",
          ("d_ff", "intermediate_size", "exact", "round", "8192"),
          ("bias", "three", "all layers")),
    # K HARD
    Wrong("04-modern-blocks", "mlp_layer",
          "mlp_layer = 2 * d * d_ff + d_ff + d",
          "Two mistakes from GPT-2's MLP: two matrices instead of three, and biases "
          "the "
          "SwiGLU MLP does not have.",
          ("three", "gate", "swiglu", "bias", "no biases", "matrices"),
          ("all layers", "round")),
    # Q
    Wrong("04-modern-blocks", "vocab_share",
          "c = count_params(load_config(share_model))\n"
          "vocab_share = c.token_embedding / c.total",
          "Counted only the token table, not the untied head as well.",
          ("head", "lm_head", "untied", "both", "output", "two matrices"),
          ("percent", "round", "rest")),
    # P
    Wrong("04-modern-blocks", "vocab_share",
          "c = count_params(load_config(share_model))\n"
          "vocab_share = round(100 * (c.token_embedding + c.lm_head) / c.total, 2)",
          "Gave a percentage rounded to two decimals instead of a fraction.",
          ("percent", "fraction", "between 0 and 1", "100", "round"),
          ("head", "untied", "rest")),
    # K
    Wrong("04-modern-blocks", "vocab_share",
          "c = count_params(load_config('llama-3.2-1b'))\n"
          "vocab_share = (c.token_embedding + c.lm_head) / c.total",
          "Kept the model of questions 1 and 2 (Llama 3.2 1B) instead of share_model.",
          ("share_model", "8b", "your model", "parameters cell", "which model"),
          ("percent", "untied", "complement")),
    # Q
    Wrong("04-modern-blocks", "padding_params",
          "padding_params = -(-V // pad_multiple) * pad_multiple - V",
          "Gave the number of padded rows instead of the parameters they add.",
          ("parameters", "d", "times d", "rows × d", "each row", "width", "768"),
          ("round", "tied", "128256")),
    # Q
    Wrong("04-modern-blocks", "padding_params",
          "padding_params = 2 * (-(-V // pad_multiple) * pad_multiple - V) * d",
          "Counted the padded rows twice, in the table and in a head, though the head "
          "is tied.",
          ("tied", "once", "shared", "same matrix", "head"),
          ("round", "rows only", "128256")),
    # P
    Wrong("04-modern-blocks", "padding_params",
          "padding_params = (round(V / pad_multiple) * pad_multiple - V) * d",
          "Rounded V to the nearest multiple instead of up, which here goes down and "
          "gives a negative count.",
          ("up", "ceil", "next multiple", "round up", "nearest", "negative"),
          ("tied", "rows only", "128256")),
    # K
    Wrong("04-modern-blocks", "padding_params",
          "V = 128256\n"
          "padding_params = (-(-V // pad_multiple) * pad_multiple - V) * d",
          "Typed Llama's vocabulary (128,256) from the earlier questions, already a "
          "multiple of 64, instead of pad_model's V.",
          ("pad_model", "V", "vocab_size", "50257", "config", "your model"),
          ("tied", "round", "rows only")),
    # P HARD
    Wrong("04-modern-blocks", "padding_params",
          "padding_params = round(V / pad_multiple) * pad_multiple - V",
          "Two slips: rounded V to the nearest multiple (down here, so negative) and "
          "gave rows instead of parameters.",
          ("round up", "ceil", "next multiple", "nearest", "parameters", "× d"),
          ("tied", "128256")),
    # K
    Wrong("04-modern-blocks", "llama_params",
          dedent("""\
          def llama_params(V, d, L, h, h_kv, d_ff, tied):
              head_dim = 128
              attention = 2 * d * h * head_dim + 2 * d * h_kv * head_dim
              layer = attention + 3 * d * d_ff + 2 * d
              return V * d + L * layer + d + (0 if tied else V * d)
          """),
          "Hard-coded Llama-3-8B's head_dim of 128 instead of d // h.",
          ("head_dim", "d // h", "128", "heads tile", "hard-coded"),
          ("tied", "bias", "final norm")),
    # R
    Wrong("04-modern-blocks", "llama_params",
          dedent("""\
          def llama_params(V, d, L, h, h_kv, d_ff, tied):
              attention = 2 * d * d + 2 * d * h_kv
              layer = attention + 3 * d * d_ff + 2 * d
              return V * d + L * layer + d + (0 if tied else V * d)
          """),
          "Sized k and v as d x h_kv, forgetting each key/value head's width.",
          ("head_dim", "width", "h_kv · head_dim", "d // h", "shape"),
          ("tied", "bias", "final norm")),
    # P
    Wrong("04-modern-blocks", "llama_params",
          dedent("""\
          def llama_params(V, d, L, h, h_kv, d_ff, tied):
              return V * d + L * 12 * d * d + (0 if tied else V * d)
          """),
          "Approximated every layer as 12d^2, ignoring grouped-query attention, the "
          "SwiGLU width and the norms.",
          ("12d", "approximation", "grouped-query", "swiglu", "d_ff", "exact",
           "norms"),
          ("tied", "head_dim = 128", "bias")),
    # Q HARD
    Wrong("04-modern-blocks", "llama_params",
          dedent("""\
          def llama_params(V, d, L, h, h_kv, d_ff, tied):
              head_dim = d // h
              attention = 2 * d * h * head_dim + 2 * d * h_kv * head_dim
              layer = attention + 3 * d * d_ff + d
              return V * d + L * layer + (0 if tied else V * d)
          """),
          "Two omissions: one RMSNorm per layer instead of two, and no final RMSNorm.",
          ("rmsnorm", "two norms", "norm", "final norm", "2d", "per layer"),
          ("tied", "head_dim", "12d")),
    # R HARD
    Wrong("04-modern-blocks", "llama_params",
          dedent("""\
          def llama_params(V, d, L, h, h_kv, d_ff, tied):
              total = V * d + d + (0 if tied else V * d)
              for layer in range(1, L):
                  total += 2 * d * d + 2 * d * h_kv + 3 * d * d_ff + 2 * d
              return total
          """),
          "Two slips: a range(1, L) loop one layer short (R's 1:L), and k and v sized "
          "d x h_kv without head_dim.",
          ("range", "every layer", "off by one", "head_dim", "h_kv · head_dim",
           "width"),
          ("tied", "bias")),
    # ---------------------------------------- 05 weight tying
    # Q
    Wrong("05-weight-tying", "tied_count",
          "tied_count = V * d",
          "Gave the saving (one V x d matrix) instead of the tied model's count.",
          ("total", "untied -", "minus", "model's count", "the whole model",
           "saving"),
          ("round", "gpt2", "twice")),
    # P
    Wrong("05-weight-tying", "tied_count",
          "tied_count = int(7.5e9)",
          "Rounded the tied count to 7.5 billion.",
          ("exact", "round", "int", "whole number", "digits"),
          ("saving", "gpt2", "twice")),
    # Q
    Wrong("05-weight-tying", "tied_count",
          "tied_count = untied - 2 * V * d",
          "Took away both the table and the head, as if tying removed both matrices; "
          "on this model the result equals Kaplan's non-embedding N of lesson 06.",
          ("one matrix", "table stays", "once", "shared", "only the head", "v·d"),
          ("round", "gpt2", "saving")),
    # Q
    Wrong("05-weight-tying", "grad_E",
          "grad_E = dlogits.T @ x",
          "Kept only the head's gradient, leaving out the lookup path.",
          ("both", "sum", "lookup", "dx0", "two paths", "input"),
          ("transpose", "+=", "float")),
    # R
    Wrong("05-weight-tying", "grad_E",
          "grad_E = dlogits.T @ x\n"
          "grad_E[ids] += dx0",
          "Added the lookup path with fancy-index +=, which keeps only one "
          "contribution "
          "of the repeated id.",
          ("add.at", "repeated", "accumulate", "+=", "both", "buffered", "twice"),
          ("only the head", "transpose", "float")),
    # K
    Wrong("05-weight-tying", "grad_E",
          "grad_E = np.zeros((V, d))\n"
          "np.add.at(grad_E, ids, dx0)",
          "Reused lesson 02's untied backward pass, the lookup path only, forgetting "
          "the "
          "head's gradient.",
          ("head", "dlogits", "both", "sum", "two paths", "tied", "output"),
          ("transpose", "+=", "float")),
    # P
    Wrong("05-weight-tying", "grad_E",
          "grad_E = (dlogits.T @ x).astype(np.float16).astype(float)\n"
          "np.add.at(grad_E, ids, dx0.astype(np.float16))",
          "Kept the gradient in half precision to save memory, rounding every value.",
          ("float16", "precision", "dtype", "exact", "round", "float64"),
          ("only the head", "repeated", "transpose")),
    # R HARD
    Wrong("05-weight-tying", "grad_E",
          "grad_E = x.T @ dlogits\n"
          "grad_E[:, ids] += dx0.T",
          "Two slips: the gradient built column-wise, shape (d, V), and the lookup "
          "path added with fancy-index +=, losing the repeated id's second part.",
          ("transpose", "shape", "(v, d)", "add.at", "repeated", "accumulate", "+="),
          ("only the head", "float")),
    # R HARD
    Wrong("05-weight-tying", "count_unique",
          dedent("""\
          def count_unique(storage, sizes):
              return int(sizes[np.unique(storage)].sum())
          """),
          "Indexed sizes by the storage ids instead of by the entries' positions; on "
          "the question's example [0, 1, 0] it gives the right 56 by coincidence.",
          ("position", "entry", "storage id", "index", "zip", "each storage once",
           "first"),
          ("naive", "distinct", "millions")),
    # K
    Wrong("05-weight-tying", "count_unique",
          dedent("""\
          def count_unique(storage, sizes):
              return int(sizes.sum())
          """),
          "Kept the naive sum of every entry from the lesson, counting a tied matrix "
          "twice.",
          ("once", "storage", "tied", "twice", "shared", "unique", "same storage"),
          ("distinct", "millions", "index")),
    # P
    Wrong("05-weight-tying", "count_unique",
          dedent("""\
          def count_unique(storage, sizes):
              seen = dict(zip(storage.tolist(), sizes.tolist()))
              return sum(seen.values()) / 1e6
          """),
          "Returned the count in millions of parameters.",
          ("millions", "1e6", "unit", "whole number", "int", "exact"),
          ("twice", "distinct", "index")),
    # R
    Wrong("05-weight-tying", "count_unique",
          dedent("""\
          def count_unique(storage, sizes):
              seen = {}
              for i in range(1, len(storage)):
                  seen[int(storage[i])] = int(sizes[i])
              return sum(seen.values())
          """),
          "Looped from index 1 as in R's 1:n, skipping the first entry.",
          ("first entry", "range", "0", "every entry", "index", "off by one",
           "1-based"),
          ("twice", "millions", "distinct")),
    # R HARD
    Wrong("05-weight-tying", "count_unique",
          dedent("""\
          def count_unique(storage, sizes):
              return int(sizes[1:].sum())
          """),
          "Two slips: started at index 1 (R's habit), skipping the first entry, and "
          "summed every other entry without checking storages.",
          ("first entry", "index", "0", "once", "storage", "tied", "unique"),
          ("millions", "distinct")),
    # K
    Wrong("05-weight-tying", "ties",
          "ties = tied_model",
          "Answered with tied_model, the other question's model, instead of looking "
          "through candidates.",
          ("candidates", "loop", "tie_word_embeddings", "load_config", "one of",
           "the three"),
          ("list", "untied", "type")),
    # Q
    Wrong("05-weight-tying", "ties",
          "ties = next(n for n in candidates\n"
          "            if not load_config(n)['tie_word_embeddings'])",
          "Picked the first candidate that does not tie its head.",
          ("ties", "tied", "tie_word_embeddings", "true", "not", "untied"),
          ("list", "tied_model", "type")),
    # R
    Wrong("05-weight-tying", "ties",
          "ties = [n for n in candidates if load_config(n)['tie_word_embeddings']]",
          "Gave a list (a logical-indexing result, as in R) instead of the name "
          "itself.",
          ("name", "string", "a list", "one name", "str", "[0]", "next"),
          ("untied", "tied_model", "loop")),
    # Q
    Wrong("05-weight-tying", "state_dict_sum",
          "state_dict_sum = count_params(load_config(tied_model)).total",
          "Gave the true count, each parameter once, instead of what the naive sum "
          "gives.",
          ("twice", "two names", "naive", "lm_head.weight", "both entries", "V × d",
           "extra"),
          ("round", "q/k/v", "position")),
    # K
    Wrong("05-weight-tying", "state_dict_sum",
          "state_dict_sum = 163_009_536",
          "Typed LLMs-from-scratch's figure (no q/k/v biases) from the lesson instead "
          "of computing this model's naive sum.",
          ("compute", "tied_model", "config", "count_params", "your model", "q/k/v"),
          ("position", "round", "true count")),
    # P
    Wrong("05-weight-tying", "state_dict_sum",
          "state_dict_sum = 1.63e8",
          "Gave the sum to three significant figures.",
          ("exact", "int", "round", "whole number", "digits"),
          ("true count", "position", "q/k/v")),
    # Q
    Wrong("05-weight-tying", "state_dict_sum",
          "state_dict_sum = 2 * count_params(load_config(tied_model)).total",
          "Doubled the whole count, as if every entry were listed twice, instead of "
          "adding the one V x d table.",
          ("v × d", "table", "only the tied", "twice", "one table", "two names",
           "embedding"),
          ("round", "q/k/v", "true count")),
    # ---------------------------------------- 06 params vs compute
    # P
    Wrong("06-params-vs-compute", "head_flops",
          "head_flops = d * V",
          "Counted multiply-adds, without the 2 FLOPs per weight.",
          ("2", "two", "factor", "multiply-add", "2·d·v", "per weight"),
          ("per position", "2n", "gpt2")),
    # K
    Wrong("06-params-vs-compute", "head_flops",
          "head_flops = 2 * 768 * 50257",
          "Kept GPT-2 small's V and d from the lesson instead of head_model's.",
          ("head_model", "V", "d", "config", "your model", "vocab_size"),
          ("factor", "2n", "per position")),
    # K HARD
    Wrong("06-params-vs-compute", "head_flops",
          "head_flops = 768 * 50257",
          "Two slips: GPT-2 small's V and d kept from the lesson, and multiply-adds "
          "without the factor 2.",
          ("head_model", "config", "V", "d", "2", "factor", "2·d·v"),
          ("2n", "per position")),
    # Q HARD
    Wrong("06-params-vs-compute", "head_flops",
          "head_flops = 2 * d * V * 1024",
          "Priced the head for a whole 1,024-token training pass instead of one "
          "position, with a context typed from GPT-2.",
          ("one position", "per position", "once", "not a sequence", "1024",
           "single"),
          ("factor", "2n", "gpt2")),
    # Q
    Wrong("06-params-vs-compute", "lookup_flops",
          "lookup_flops = 2 * V * d",
          "Priced the lookup as the one-hot matmul instead of a row copy.",
          ("0", "zero", "copy", "index", "no multiplication", "lookup"),
          ("d copies", "one op", "round")),
    # P
    Wrong("06-params-vs-compute", "lookup_flops",
          "lookup_flops = d",
          "Counted each copied number as a FLOP.",
          ("0", "zero", "copy", "not a flop", "no arithmetic", "moves"),
          ("matmul", "one op", "2·v·d")),
    # Q
    Wrong("06-params-vs-compute", "kaplan_n",
          "kaplan_n = counts.total - counts.token_embedding",
          "Left the untied head in N; Kaplan's N also excludes it.",
          ("head", "lm_head", "untied", "also", "output", "both"),
          ("position", "round", "total")),
    # K
    Wrong("06-params-vs-compute", "kaplan_n",
          "kaplan_n = counts.total",
          "Kept the total count of the earlier questions instead of taking the "
          "embeddings out.",
          ("token", "embedding", "head", "take away", "non-embedding", "minus",
           "except"),
          ("round", "position only", "twice")),
    # R
    Wrong("06-params-vs-compute", "kaplan_n",
          "kaplan_n = counts.total - 2 * counts.token_embedding - counts.lm_head",
          "Took the table away twice (as a tied table listed twice) and the head "
          "again: one matrix too many.",
          ("once", "token_embedding", "head", "twice", "each part once",
           "non-embedding"),
          ("round", "position", "total")),
    # Q
    Wrong("06-params-vs-compute", "head_share_training",
          "head_share_training = c.head / (c.input + c.blocks + c.head)",
          "Left attention over the context out of the total.",
          ("attention", "context", "t(t+1)/2", "keys", "attention_per_key"),
          ("prompt", "once", "round")),
    # P
    Wrong("06-params-vs-compute", "head_share_training",
          "attention = c.attention_per_key * T**2 / 2\n"
          "total = T * (c.input + c.blocks + c.head) + attention\n"
          "head_share_training = T * c.head / total",
          "Approximated the keys as T^2/2 instead of T(T+1)/2.",
          ("t(t+1)/2", "exact", "keys", "approximation", "t + 1"),
          ("prompt", "once", "attention out")),
    # R
    Wrong("06-params-vs-compute", "head_share_training",
          "attention = c.attention_per_key * T * (T - 1) // 2\n"
          "total = T * (c.input + c.blocks + c.head) + attention\n"
          "head_share_training = T * c.head / total",
          "Counted keys as T(T-1)/2, as if token t attended to t-1 positions (0-based "
          "vs 1-based slip).",
          ("t(t+1)/2", "keys", "itself", "t positions", "off by one", "t + 1"),
          ("prompt", "once", "round")),
    # P HARD
    Wrong("06-params-vs-compute", "head_share_training",
          "head_share_training = c.head / (c.input + c.blocks)",
          "Two slips: left attention out and divided by the rest instead of the whole "
          "(a ratio, not a share).",
          ("attention", "total", "whole", "share", "ratio", "include the head"),
          ("prompt", "t(t-1)")),
    # Q
    Wrong("06-params-vs-compute", "head_share_prompt",
          "attention = c.attention_per_key * T * (T + 1) // 2\n"
          "total = T * (c.input + c.blocks + c.head) + attention\n"
          "head_share_prompt = T * c.head / total",
          "Answered the training share again, the head at every position.",
          ("once", "last position", "only the last", "one position", "prompt"),
          ("attention", "round", "t = 1")),
    # P
    Wrong("06-params-vs-compute", "head_share_prompt",
          "head_share_prompt = c.head / (T * (c.input + c.blocks) + c.head)",
          "Dropped attention over the context as a small correction.",
          ("attention", "context", "t(t+1)/2", "keys", "attention_per_key"),
          ("every position", "t = 1", "precedence")),
    # K
    Wrong("06-params-vs-compute", "head_share_prompt",
          "T1 = 1\n"
          "total = T1 * (c.input + c.blocks) + c.attention_per_key + c.head\n"
          "head_share_prompt = c.head / total",
          "Priced a one-token prompt, with T = 1 kept from a generation step, instead "
          "of the T-token prompt.",
          ("T", "all T", "prompt", "every position", "T times", "1024"),
          ("attention", "every position's head", "precedence")),
    # R
    Wrong("06-params-vs-compute", "head_share_prompt",
          "attention = c.attention_per_key * T * T + 1 / 2\n"
          "total = T * (c.input + c.blocks) + attention + c.head\n"
          "head_share_prompt = c.head / total",
          "Typed T(T+1)/2 as T * T + 1 / 2, without the brackets an R formula "
          "would need too: operator precedence.",
          ("t(t+1)/2", "brackets", "parentheses", "precedence", "keys"),
          ("every position", "t = 1", "dropped")),
    # R HARD
    Wrong("06-params-vs-compute", "head_share_prompt",
          "attention = c.attention_per_key * T * T + 1 / 2\n"
          "total = T * (c.input + c.blocks + c.head) + attention\n"
          "head_share_prompt = T * c.head / total",
          "Two slips: T(T+1)/2 typed without brackets (precedence), and the head "
          "priced at every position as in training.",
          ("brackets", "precedence", "t(t+1)/2", "once", "last position", "prompt"),
          ("t = 1", "dropped")),
    # P
    Wrong("06-params-vs-compute", "forward_flops_per_token",
          dedent("""\
          def forward_flops_per_token(V, d, L, d_ff, context):
              return L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + 2 * d * V
          """),
          "Counted the block weights as multiply-adds, without the 2 FLOPs each.",
          ("2", "two", "factor", "per weight", "multiply-add"),
          ("context", "4d", "range")),
    # K
    Wrong("06-params-vs-compute", "forward_flops_per_token",
          dedent("""\
          def forward_flops_per_token(V, d, L, d_ff, context):
              d_ff = 4 * d
              return (2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d
                      + 2 * d * V)
          """),
          "Overwrote d_ff with GPT-2's 4d instead of using the argument.",
          ("d_ff", "argument", "4d", "mlp width", "given"),
          ("factor", "per token", "range")),
    # R
    Wrong("06-params-vs-compute", "forward_flops_per_token",
          dedent("""\
          def forward_flops_per_token(V, d, L, d_ff, context):
              total = 2 * d * V
              for layer in range(1, L):
                  total += 2 * (4 * d * d + 2 * d * d_ff) + 4 * context * d
              return total
          """),
          "Looped over range(1, L) as if it were R's 1:L, one block short.",
          ("range", "l blocks", "every block", "off by one", "one block", "loop"),
          ("factor", "per token", "4d")),
    # Q HARD
    Wrong("06-params-vs-compute", "forward_flops_per_token",
          dedent("""\
          def forward_flops_per_token(V, d, L, d_ff, context):
              return 2 * L * (4 * d * d + 2 * d * d_ff) + 2 * d * V + 2 * d * V
          """),
          "Two mistakes: priced the lookup as a matmul (a second 2dV) and left "
          "attention over the context out.",
          ("lookup", "0", "attention", "context", "4·context·d", "free"),
          ("factor", "range")),
    # R HARD
    Wrong("06-params-vs-compute", "forward_flops_per_token",
          dedent("""\
          def forward_flops_per_token(V, d, L, d_ff, context):
              total = 2 * d * V
              for layer in range(1, L):
                  total += (4 * d * d + 2 * d * d_ff) + 4 * context * d
              return total
          """),
          "Two slips: a range(1, L) loop one block short, and the block weights "
          "without their 2 FLOPs each.",
          ("range", "every block", "off by one", "2", "factor", "per weight"),
          ("per token", "4d")),
    # P HARD
    Wrong("06-params-vs-compute", "flop_rate",
          "flop_rate = 6 * kaplan_n * D / (GPU_HOURS * 3600) / 1e12",
          "Two slips: TFLOP/s instead of FLOP/s, and question 3's Kaplan N instead of "
          "the cell's N_mult.",
          ("tflop", "flop/s", "1e12", "unit", "n_mult", "head", "the cell's"),
          ("seconds", "total")),
    # K
    Wrong("06-params-vs-compute", "flop_rate",
          "flop_rate = 6 * kaplan_n * D / (GPU_HOURS * 3600)",
          "Reused question 3's Kaplan N, which leaves the untied head out, instead of "
          "N_mult computed in the cell.",
          ("N_mult", "N", "head", "multiplies", "the cell's", "not kaplan"),
          ("seconds", "tflop", "total")),
    # Q
    Wrong("06-params-vs-compute", "flop_rate",
          "flop_rate = 6 * N * D",
          "Gave the total training FLOPs C instead of the rate per GPU.",
          ("rate", "per second", "gpu hours", "divide", "flop/s", "3600"),
          ("tflop", "kaplan", "2nd")),
    # P HARD
    Wrong("06-params-vs-compute", "flop_rate",
          "flop_rate = 2 * N * D / GPU_HOURS",
          "Two slips: used 2ND, the forward pass only, instead of 6ND, and divided by "
          "hours instead of seconds.",
          ("6", "backward", "6·n·d", "training", "3600", "seconds"),
          ("tflop", "kaplan")),
    # Q
    Wrong("06-params-vs-compute", "active_params",
          "active_params = moe_layers * (n_experts - k) * 3 * d * d_ff",
          "Gave what a token skips instead of what it uses.",
          ("total", "minus", "take away", "uses", "what remains", "counts.total"),
          ("two matrices", "4d", "per layer")),
    # K
    Wrong("06-params-vs-compute", "active_params",
          "active_params = counts.total - moe_layers * (n_experts - k) * 2 * d * d_ff",
          "Sized an expert with GPT-2's two MLP matrices instead of SwiGLU's three.",
          ("three", "3", "gate", "swiglu", "up", "down", "matrices"),
          ("skips", "per layer", "proportion")),
    # P
    Wrong("06-params-vs-compute", "active_params",
          "active_params = int(counts.total * k / n_experts)",
          "Approximated by scaling the total by k / n_experts, as if every parameter "
          "were in the experts.",
          ("attention", "not experts", "shared", "exact", "take away", "embedding",
           "approximation"),
          ("two matrices", "skips", "per layer")),
    # Q HARD
    Wrong("06-params-vs-compute", "active_params",
          "active_params = counts.total - (n_experts - k) * 2 * d * d_ff",
          "Two mistakes: the skipped experts of one layer only, not all moe_layers, "
          "and an expert sized with two matrices instead of SwiGLU's three.",
          ("every layer", "moe_layers", "all layers", "three", "gate", "swiglu"),
          ("proportion", "skips")),
    # ---------------------------------------- 07 memory
    # P
    Wrong("07-memory", "weights_gb_4bit",
          "weights_gb_4bit = N * 0.5 / 2**30",
          "Divided by 2^30 (GiB) where the question asks for GB (10^9 bytes).",
          ("gb", "gib", "1e9", "10⁹", "2**30", "unit"),
          ("bits", "bytes per", "7b")),
    # P HARD
    Wrong("07-memory", "weights_gb_4bit",
          "weights_gb_4bit = N * 4 / 2**30",
          "Two unit slips at once: 4 bytes per parameter for 4 bits, and GiB for GB.",
          ("0.5", "half a byte", "bits", "gib", "1e9", "unit"),
          ("7b", "round")),
    # Q
    Wrong("07-memory", "adam_parts",
          "adam_parts = 16 * n_params",
          "Gave the total bytes instead of the four parts.",
          ("parts", "four", "array", "each part", "not the sum", "separately"),
          ("fp32 weights", "gb", "column")),
    # K
    Wrong("07-memory", "adam_parts",
          "adam_parts = np.array([4, 4, 4, 8]) * n_params",
          "Priced plain fp32 training's weights and gradients (4 bytes) from an "
          "earlier table instead of the fp16 ones of mixed precision.",
          ("fp16", "2 bytes", "mixed precision", "16-bit", "weights", "gradients"),
          ("sum", "order", "gb")),
    # R
    Wrong("07-memory", "adam_parts",
          "adam_parts = np.array([[2], [2], [4], [8]]) * n_params",
          "Gave a column vector of shape (4, 1), as a MATLAB habit, instead of a 1-D "
          "array.",
          ("shape", "1-d", "(4,)", "column", "flat", "ravel"),
          ("fp16", "sum", "gb")),
    # P
    Wrong("07-memory", "adam_parts",
          "adam_parts = np.array([2, 2, 4, 8]) * n_params / 1e9",
          "Gave GB instead of bytes.",
          ("bytes", "gb", "unit", "1e9", "integers"),
          ("fp16", "order", "column")),
    # Q HARD
    Wrong("07-memory", "adam_parts",
          "adam_parts = np.array([2, 2, 8, 4]) * n_params",
          "Swapped the master copy and the moments; the total is the right 16 bytes "
          "per parameter, so a check of the sum alone would pass.",
          ("order", "master copy", "moments", "swapped", "third", "fourth"),
          ("fp32 weights", "gb", "column")),
    # Q
    Wrong("07-memory", "adam_parts",
          "adam_parts = np.array([2, 2, 4, 4]) * n_params",
          "Counted one Adam moment instead of both m and v.",
          ("two moments", "m and v", "both", "8", "second moment"),
          ("order", "gb", "column")),
    # Q
    Wrong("07-memory", "kv_bytes_per_token",
          "kv_bytes_per_token = int(2 * L * h * head_dim * "
          "BYTES_PER_PARAM[cache_precision])",
          "Used the query heads h instead of the key/value heads h_kv.",
          ("h_kv", "key/value heads", "grouped-query", "kv heads", "gqa"),
          ("factor", "fp32", "per layer")),
    # P
    Wrong("07-memory", "kv_bytes_per_token",
          "kv_bytes_per_token = int(L * h_kv * head_dim * "
          "BYTES_PER_PARAM[cache_precision])",
          "Forgot the factor 2 for keys and values.",
          ("2", "keys and values", "k and v", "both", "factor"),
          ("h_kv", "fp32", "per layer")),
    # K
    Wrong("07-memory", "kv_bytes_per_token",
          "kv_bytes_per_token = 2 * L * h_kv * head_dim * 4",
          "Hard-coded 4 bytes (fp32) from an earlier example instead of "
          "cache_precision's.",
          ("cache_precision", "bf16", "2 bytes", "bytes_per_param", "precision"),
          ("factor", "h_kv", "per layer")),
    # Q HARD
    Wrong("07-memory", "kv_bytes_per_token",
          "kv_bytes_per_token = int(L * h * head_dim * "
          "BYTES_PER_PARAM[cache_precision])",
          "Two mistakes: query heads h for h_kv, and no factor 2 for keys and values.",
          ("h_kv", "key/value heads", "2", "keys and values", "factor"),
          ("fp32", "per layer")),
    # K HARD
    Wrong("07-memory", "kv_bytes_per_token",
          "kv_bytes_per_token = 2 * L * h * head_dim * 4",
          "Two stale slips: fp32's 4 bytes instead of cache_precision's, and the "
          "query heads h of the multi-head formula instead of h_kv.",
          ("cache_precision", "bf16", "2 bytes", "h_kv", "key/value heads", "gqa"),
          ("factor", "per layer")),
    # P HARD
    Wrong("07-memory", "gqa_saving_gib",
          "b = BYTES_PER_PARAM[cache_precision]\n"
          "gqa_saving_gib = 2 * L * h * head_dim * b * context / 1e9",
          "Two slips: the full multi-head cache instead of the saving, and GB "
          "instead of GiB.",
          ("saving", "difference", "minus", "grouped", "gib", "2**30", "unit"),
          ("xor", "fp32")),
    # Q
    Wrong("07-memory", "gqa_saving_gib",
          "b = BYTES_PER_PARAM[cache_precision]\n"
          "gqa_saving_gib = 2 * L * h_kv * head_dim * b * context / 2**30",
          "Gave the grouped cache itself instead of what grouping saves.",
          ("saving", "save", "difference", "full", "minus", "one per query head"),
          ("gb", "xor", "fp32")),
    # K
    Wrong("07-memory", "gqa_saving_gib",
          "b = BYTES_PER_PARAM['fp32']\n"
          "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * b * context / 2**30",
          "Priced the cache in fp32, an earlier example's precision, instead of "
          "cache_precision.",
          ("cache_precision", "bf16", "2 bytes", "precision", "bytes per number"),
          ("gb", "xor", "grouped")),
    # R
    Wrong("07-memory", "gqa_saving_gib",
          "b = BYTES_PER_PARAM[cache_precision]\n"
          "GiB = 1024^3\n"
          "gqa_saving_gib = 2 * L * (h - h_kv) * head_dim * b * context / GiB",
          "Wrote GiB = 1024^3 as in R or MATLAB; in Python ^ is XOR, so GiB is 1027.",
          ("^", "xor", "**", "2**30", "power", "1024**3"),
          ("gb", "grouped", "fp32")),
    # P HARD
    Wrong("07-memory", "gqa_saving_gib",
          "b = BYTES_PER_PARAM[cache_precision]\n"
          "gqa_saving_gib = L * (h - h_kv) * head_dim * b * context / 1e9",
          "Two slips: no factor 2 for keys and values, and GB instead of GiB.",
          ("2", "keys and values", "factor", "gib", "2**30", "unit"),
          ("grouped", "xor")),
    # P
    Wrong("07-memory", "kv_cache_gb",
          dedent("""\
          def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):
              cache = 2 * L * h_kv * head_dim * bytes_per_number * context * batch
              return cache / 2**30
          """),
          "Divided by 2^30 (GiB) instead of 10^9 (GB).",
          ("gb", "gib", "1e9", "10⁹", "unit"),
          ("batch", "xor", "bytes_per_number")),
    # Q
    Wrong("07-memory", "kv_cache_gb",
          dedent("""\
          def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):
              return 2 * L * h_kv * head_dim * bytes_per_number * context / 1e9
          """),
          "Priced one sequence, ignoring batch.",
          ("batch", "sequences", "times batch", "every sequence", "all sequences"),
          ("gib", "xor", "bytes_per_number")),
    # K
    Wrong("07-memory", "kv_cache_gb",
          dedent("""\
          def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):
              return 2 * L * h_kv * head_dim * 2 * context * batch / 1e9
          """),
          "Hard-coded 2 bytes (bf16) from the earlier questions instead of the "
          "argument bytes_per_number.",
          ("bytes_per_number", "argument", "precision", "hard-coded", "bytes"),
          ("gib", "batch", "xor")),
    # R
    Wrong("07-memory", "kv_cache_gb",
          dedent("""\
          def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):
              GB = 10^9
              return 2 * L * h_kv * head_dim * bytes_per_number * context * batch / GB
          """),
          "Wrote GB = 10^9 as in R; in Python ^ is XOR, so it divides by 3.",
          ("^", "xor", "**", "1e9", "power"),
          ("gib", "batch", "bytes_per_number")),
    # Q HARD
    Wrong("07-memory", "kv_cache_gb",
          dedent("""\
          def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):
              return L * h_kv * head_dim * bytes_per_number * context / 2**30
          """),
          "Three slips together: no factor 2 for keys and values, batch ignored, GiB "
          "for GB.",
          ("2", "keys and values", "batch", "gb", "gib", "unit"),
          ("xor", "bytes_per_number")),
    # R HARD
    Wrong("07-memory", "kv_cache_gb",
          dedent("""\
          def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):
              GB = 10^9
              return 2 * L * h_kv * head_dim * bytes_per_number * context / GB
          """),
          "Two slips: GB = 10^9 written as in R (XOR in Python, 3), and batch "
          "ignored.",
          ("^", "xor", "**", "1e9", "batch", "sequences"),
          ("gib", "bytes_per_number")),
    # P
    Wrong("07-memory", "max_batch",
          "max_batch = round((memory - weights) / per_sequence)",
          "Rounded to the nearest whole number, which rounds 59.5 up to a sequence "
          "that does not fit.",
          ("floor", "round down", "whole sequences", "fit", "//", "nearest"),
          ("weights", "4096", "float")),
    # Q
    Wrong("07-memory", "max_batch",
          "max_batch = int(memory // per_sequence)",
          "Forgot that the weights take their share of the GPU first.",
          ("weights", "memory - weights", "subtract", "minus", "remaining"),
          ("round", "4096", "float")),
    # K HARD
    Wrong("07-memory", "max_batch",
          "per_sequence = 2 * L * h_kv * head_dim * BYTES[cache_precision] * 4096\n"
          "max_batch = round((memory - weights) / per_sequence)",
          "Two slips: a context of 4,096 kept from an earlier cell instead of "
          "serve_context, and rounding to the nearest instead of down.",
          ("serve_context", "context", "8192", "floor", "round down", "//"),
          ("weights", "float")),
    # R
    Wrong("07-memory", "max_batch",
          "max_batch = (memory - weights) / per_sequence",
          "Used / as in R or MATLAB, which leaves a fraction of a sequence, instead of "
          "whole sequences.",
          ("whole", "int", "//", "floor", "fraction", "whole sequences"),
          ("weights", "4096", "round")),
    # Q HARD
    Wrong("07-memory", "max_batch",
          "max_batch = round(memory / per_sequence)",
          "Two mistakes: left the weights out and rounded to the nearest whole number "
          "instead of down.",
          ("weights", "subtract", "floor", "round down", "//", "fit"),
          ("4096", "float")),
    # R HARD
    Wrong("07-memory", "max_batch",
          "max_batch = memory / per_sequence",
          "Two slips: the weights left out, and / instead of // so the answer is a "
          "fraction of a sequence.",
          ("weights", "subtract", "whole", "//", "floor", "int"),
          ("4096", "round")),
    # ---------------------------------------- 08 vocabulary size
    # Q
    Wrong("08-vocabulary-size", "embedding_params",
          "embedding_params = 2 * V_big * d",
          "Counted the head as a second matrix though it is tied.",
          ("tied", "once", "shared", "same matrix", "head"),
          ("V_small", "round", "percent")),
    # K
    Wrong("08-vocabulary-size", "embedding_params",
          "embedding_params = V_small * d",
          "Used V_small, the other vocabulary, instead of V_big.",
          ("V_big", "256000", "bigger", "which vocabulary", "big"),
          ("tied", "round", "percent")),
    # P HARD
    Wrong("08-vocabulary-size", "embedding_params",
          "embedding_params = int(2.5e5 * 2e3)",
          "Two roundings: V_big to 250,000 and d to 2,000.",
          ("exact", "round", "256000", "2048", "V_big", "d"),
          ("tied", "V_small")),
    # Q
    Wrong("08-vocabulary-size", "embedding_share",
          "embedding_share = table / rest",
          "Divided by the rest of the model instead of the whole model.",
          ("whole", "table + rest", "total", "share", "fraction of the whole",
           "ratio"),
          ("percent", "V_small", "head")),
    # P
    Wrong("08-vocabulary-size", "embedding_share",
          "embedding_share = 100 * table / (table + rest)",
          "Gave a percentage instead of a fraction between 0 and 1.",
          ("percent", "fraction", "between 0 and 1", "100"),
          ("rest", "V_small", "head")),
    # Q
    Wrong("08-vocabulary-size", "embedding_share",
          "embedding_share = 2 * table / (2 * table + rest)",
          "Counted the tied head as a second table, in both the part and the whole.",
          ("tied", "once", "shared", "head", "same matrix"),
          ("percent", "V_small", "rest only")),
    # P
    Wrong("08-vocabulary-size", "extra_head_flops",
          "extra_head_flops = d * V_big - d * V_small",
          "Counted multiply-adds, without the 2 FLOPs per weight.",
          ("2", "two", "factor", "2·d·v", "per weight", "multiply-add"),
          ("difference", "768", "ratio")),
    # K
    Wrong("08-vocabulary-size", "extra_head_flops",
          "extra_head_flops = 2 * 768 * (V_big - V_small)",
          "Kept GPT-2's width 768 from an earlier lesson instead of d.",
          ("d", "width", "2048", "parameters cell", "your"),
          ("factor", "difference", "ratio")),
    # Q
    Wrong("08-vocabulary-size", "break_even_r",
          "break_even_r = (blocks + 2 * d * V_big) / (blocks + 2 * d * V_small)",
          "Inverted the ratio: big over small instead of small over big.",
          ("inverse", "upside down", "flip", "small over big", "below 1", "cost per "
           "token"),
          ("factor", "head only", "attention")),
    # P
    Wrong("08-vocabulary-size", "break_even_r",
          "break_even_r = (blocks + d * V_small) / (blocks + d * V_big)",
          "Left out the 2 of 2·d·V in the head costs.",
          ("2", "2·d·v", "factor", "head costs", "two"),
          ("inverse", "head only", "attention")),
    # K
    Wrong("08-vocabulary-size", "break_even_r",
          "break_even_r = V_small / V_big",
          "Kept question 3's view, the heads alone, and forgot the blocks' cost.",
          ("blocks", "per token", "whole cost", "blocks +", "the rest"),
          ("inverse", "factor", "attention")),
    # P HARD
    Wrong("08-vocabulary-size", "break_even_r",
          "break_even_r = (blocks + d * V_big) / (blocks + d * V_small)",
          "Two slips: inverted the ratio and dropped the 2 of the head cost.",
          ("inverse", "small over big", "2", "2·d·v", "factor"),
          ("head only", "attention")),
    # Q
    Wrong("08-vocabulary-size", "tokens_per_word",
          dedent("""\
          def tokens_per_word(counts, n_tokens):
              return float(np.mean(n_tokens))
          """),
          "Averaged over the distinct words instead of over running words (no "
          "weights).",
          ("weight", "weighted", "counts", "running", "occurrences", "how often"),
          ("len", "round", "floor")),
    # R
    Wrong("08-vocabulary-size", "tokens_per_word",
          dedent("""\
          def tokens_per_word(counts, n_tokens):
              counts, n_tokens = np.asarray(counts), np.asarray(n_tokens)
              return float((counts * n_tokens).sum() / len(counts))
          """),
          "Divided by len(counts), the number of distinct words, instead of the total "
          "count.",
          ("sum", "total count", "counts.sum", "running words", "len", "denominator"),
          ("round", "floor", "inverse")),
    # P
    Wrong("08-vocabulary-size", "tokens_per_word",
          dedent("""\
          def tokens_per_word(counts, n_tokens):
              counts, n_tokens = np.asarray(counts), np.asarray(n_tokens)
              return round(float((counts * n_tokens).sum() / counts.sum()), 2)
          """),
          "Rounded the mean to two decimals.",
          ("round", "exact", "decimals", "precision", "digits"),
          ("weight", "len", "inverse")),
    # P HARD
    Wrong("08-vocabulary-size", "tokens_per_word",
          dedent("""\
          def tokens_per_word(counts, n_tokens):
              counts, n_tokens = np.asarray(counts), np.asarray(n_tokens)
              return float((counts * n_tokens).sum() // counts.sum())
          """),
          "Used floor division, which truncates the mean to a whole number; on an "
          "input whose mean is whole it gives the right value.",
          ("floor", "//", "/", "whole number", "truncat", "division"),
          ("weight", "len", "inverse")),
    # R HARD
    Wrong("08-vocabulary-size", "tokens_per_word",
          dedent("""\
          def tokens_per_word(counts, n_tokens):
              counts, n_tokens = np.asarray(counts), np.asarray(n_tokens)
              return round(float((counts * n_tokens).sum() / len(counts)), 2)
          """),
          "Two slips: divided by len(counts) instead of the total count, and rounded "
          "to two decimals.",
          ("sum", "total count", "counts.sum", "len", "round", "exact"),
          ("inverse", "floor")),
    # K
    Wrong("08-vocabulary-size", "hindi_single_token_share",
          "hindi_single_token_share = (sum(bpe.count_tokens(w) == 1 for w in hindi)\n"
          "                            / len(hindi))",
          "Audited all n_train words of `hindi` instead of the n_top most frequent.",
          ("n_top", "top_hindi", "most frequent", "100", "top"),
          ("percent", "count", "characters")),
    # P
    Wrong("08-vocabulary-size", "hindi_single_token_share",
          "hindi_single_token_share = 100 * sum(bpe.count_tokens(w) == 1\n"
          "                                      for w in top_hindi) / len(top_hindi)",
          "Gave a percentage instead of a fraction.",
          ("percent", "fraction", "100", "between 0 and 1"),
          ("top_hindi", "count", "characters")),
    # R
    Wrong("08-vocabulary-size", "hindi_single_token_share",
          "hindi_single_token_share = sum(len(w) == 1 for w in top_hindi) / "
          "len(top_hindi)",
          "Measured each word's length in characters (len) instead of its tokens.",
          ("tokens", "count_tokens", "encode_word", "characters", "len", "bpe"),
          ("percent", "top_hindi", "count")),
    # Q
    Wrong("08-vocabulary-size", "hindi_r",
          dedent("""\
          def per_word(tokenizer):
              total = sum(len(tokenizer.encode_ordinary(" " + w)) * n
                          for w, n in hindi.items())
              return total / sum(hindi.values())

          hindi_r = per_word(gpt2) / per_word(cl100k)
          """),
          "Divided GPT-2's tokens per word by cl100k's, the inverse ratio.",
          ("inverse", "cl100k over gpt-2", "upside down", "flip", "cl100k's tokens"),
          ("space", "weights", "round")),
    # K
    Wrong("08-vocabulary-size", "hindi_r",
          dedent("""\
          def per_word(tokenizer):
              total = sum(len(tokenizer.encode_ordinary(w)) * n
                          for w, n in hindi.items())
              return total / sum(hindi.values())

          hindi_r = per_word(cl100k) / per_word(gpt2)
          """),
          "Encoded each word without the leading space, as question 6's audit of "
          "bare words did.",
          ("space", "\" \" + word", "leading space", "after a space", "sentence"),
          ("inverse", "weights", "round")),
    # P
    Wrong("08-vocabulary-size", "hindi_r",
          dedent("""\
          def per_word(tokenizer):
              return np.mean([len(tokenizer.encode_ordinary(" " + w)) for w in hindi])

          hindi_r = float(per_word(cl100k) / per_word(gpt2))
          """),
          "Approximated with the unweighted mean over distinct words.",
          ("weight", "weighted", "counts", "running text", "occurrences"),
          ("inverse", "space", "round")),
    # K HARD
    Wrong("08-vocabulary-size", "hindi_r",
          dedent("""\
          top = {w: hindi[w] for w in top_hindi}
          def per_word(tokenizer):
              total = sum(len(tokenizer.encode_ordinary(w)) * n for w, n in top.items())
              return total / sum(top.values())

          hindi_r = per_word(cl100k) / per_word(gpt2)
          """),
          "Two stale habits from question 6: only its n_top words (top_hindi), and "
          "the words encoded without the leading space.",
          ("n_words", "all", "top_hindi", "space", "after a space", "every word"),
          ("inverse", "round")),
    # Q
    Wrong("08-vocabulary-size", "bpe_merges",
          dedent("""\
          def bpe_merges(counts, n_merges):
              words = [list(w.encode("utf-8")) for w in counts]
              merges = []
              for k in range(n_merges):
                  pairs = {}
                  for tokens in words:
                      for pair in zip(tokens, tokens[1:]):
                          pairs[pair] = pairs.get(pair, 0) + 1
                  if not pairs:
                      break
                  best = min(pairs, key=lambda p: (-pairs[p], p))
                  merges.append(best)
                  for i, tokens in enumerate(words):
                      out, j = [], 0
                      while j < len(tokens):
                          if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:
                              out.append(256 + k)
                              j += 2
                          else:
                              out.append(tokens[j])
                              j += 1
                      words[i] = out
              return merges
          """),
          "Counted each pair once per word, ignoring how often the word occurs.",
          ("weight", "weighted", "count", "how often", "frequency", "word's count"),
          ("tie", "256", "overlap")),
    # R
    Wrong("08-vocabulary-size", "bpe_merges",
          dedent("""\
          def bpe_merges(counts, n_merges):
              words = [list(w.encode("utf-8")) for w in counts]
              freqs = list(counts.values())
              merges = []
              for k in range(1, n_merges + 1):
                  pairs = {}
                  for tokens, n in zip(words, freqs):
                      for pair in zip(tokens, tokens[1:]):
                          pairs[pair] = pairs.get(pair, 0) + n
                  if not pairs:
                      break
                  best = min(pairs, key=lambda p: (-pairs[p], p))
                  merges.append(best)
                  for i, tokens in enumerate(words):
                      out, j = [], 0
                      while j < len(tokens):
                          if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:
                              out.append(256 + k)
                              j += 2
                          else:
                              out.append(tokens[j])
                              j += 1
                      words[i] = out
              return merges
          """),
          "Counted merges from 1 (R's 1:n), so the first new token is 257 instead of "
          "256.",
          ("256", "256 + k", "from 0", "0", "off by one", "token id", "new id"),
          ("tie", "weight", "overlap")),
    # Q
    Wrong("08-vocabulary-size", "bpe_merges",
          dedent("""\
          def bpe_merges(counts, n_merges):
              words = [list(w.encode("utf-8")) for w in counts]
              freqs = list(counts.values())
              merges = []
              for k in range(n_merges):
                  pairs = {}
                  for tokens, n in zip(words, freqs):
                      for pair in zip(tokens, tokens[1:]):
                          pairs[pair] = pairs.get(pair, 0) + n
                  if not pairs:
                      break
                  best = max(pairs, key=lambda p: (pairs[p], p))
                  merges.append(best)
                  for i, tokens in enumerate(words):
                      out, j = [], 0
                      while j < len(tokens):
                          if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:
                              out.append(256 + k)
                              j += 2
                          else:
                              out.append(tokens[j])
                              j += 1
                      words[i] = out
              return merges
          """),
          "Broke ties by the largest pair instead of the smallest.",
          ("tie", "ties", "smallest", "smallest pair", "tuple", "min"),
          ("weight", "256", "overlap")),
    # K
    Wrong("08-vocabulary-size", "bpe_merges",
          dedent("""\
          def bpe_merges(counts, n_merges):
              words = [list(w.encode("utf-8")) for w in counts]
              freqs = list(counts.values())
              merges = []
              for k in range(n_merges):
                  pairs = {}
                  for tokens, n in zip(words, freqs):
                      for pair in zip(tokens, tokens[1:]):
                          pairs[pair] = pairs.get(pair, 0) + n
                  best = min(pairs, key=lambda p: (-pairs[p], p))
                  merges.append(best)
                  for i, tokens in enumerate(words):
                      out, j = [], 0
                      while j < len(tokens):
                          if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:
                              out.append(256 + k)
                              j += 2
                          else:
                              out.append(tokens[j])
                              j += 1
                      words[i] = out
              return merges
          """),
          "Dropped the early stop when no pair is left (the lesson's corpus never ran "
          "out), so a small input raises.",
          ("stop", "early", "no pair", "empty", "break", "when no word"),
          ("tie", "weight", "256")),
    # R HARD
    Wrong("08-vocabulary-size", "bpe_merges",
          dedent("""\
          def bpe_merges(counts, n_merges):
              words = [list(w.encode("utf-8")) for w in counts]
              freqs = list(counts.values())
              merges = []
              for k in range(n_merges):
                  pairs = {}
                  for tokens, n in zip(words, freqs):
                      for pair in zip(tokens, tokens[1:]):
                          pairs[pair] = pairs.get(pair, 0) + n
                  if not pairs:
                      break
                  best = min(pairs, key=lambda p: (-pairs[p], p))
                  merges.append(best)
                  for i, tokens in enumerate(words):
                      out = list(tokens)
                      for j in range(len(tokens) - 2, -1, -1):
                          if (tokens[j], tokens[j + 1]) == best and j + 1 < len(out):
                              out[j:j + 2] = [256 + k]
                      words[i] = out
              return merges
          """),
          "Merged occurrences scanning from the right and on a copy whose positions "
          "shift, so overlapping runs merge wrongly; on words without overlaps it "
          "matches the right loop.",
          ("left to right", "overlap", "without overlaps", "order", "scan",
           "replace"),
          ("tie", "weight", "256 + k")),
    # R HARD
    Wrong("08-vocabulary-size", "bpe_merges",
          dedent("""\
          def bpe_merges(counts, n_merges):
              words = [list(w.encode("utf-8")) for w in counts]
              merges = []
              for k in range(1, n_merges + 1):
                  pairs = {}
                  for tokens in words:
                      for pair in zip(tokens, tokens[1:]):
                          pairs[pair] = pairs.get(pair, 0) + 1
                  if not pairs:
                      break
                  best = min(pairs, key=lambda p: (-pairs[p], p))
                  merges.append(best)
                  for i, tokens in enumerate(words):
                      out, j = [], 0
                      while j < len(tokens):
                          if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:
                              out.append(256 + k)
                              j += 2
                          else:
                              out.append(tokens[j])
                              j += 1
                      words[i] = out
              return merges
          """),
          "Two slips: merges numbered from 1 (first new token 257), and pairs counted "
          "without the words' counts.",
          ("256", "256 + k", "from 0", "off by one", "weight", "count", "how often"),
          ("tie", "overlap")),
    # ---------------------------------------- 09 what rows learn
    # Q
    Wrong("09-what-rows-learn", "n_params",
          "n_params = V * d + (2 * d) * d + d",
          "Left out the output matrix U, as if the head were tied.",
          ("U", "untied", "output matrix", "head", "its own", "V × d"),
          ("bias", "d × d", "round")),
    # R
    Wrong("09-what-rows-learn", "n_params",
          "n_params = (V + d) + (2 * d) * d + d + (V + d)",
          "Added the dimensions of E and U (len plus width) instead of multiplying "
          "them.",
          ("V × d", "multiply", "times", "rows × columns", "shape", "size"),
          ("bias", "untied", "d × d")),
    # P HARD
    Wrong("09-what-rows-learn", "n_params",
          "n_params = V * d + d * d + V * d",
          "Two slips: the bias b dropped as negligible, and W sized for one context "
          "row (d x d) instead of two side by side.",
          ("bias", "b", "+ d", "2d", "two", "context", "side by side"),
          ("untied", "round")),
    # K
    Wrong("09-what-rows-learn", "n_params",
          "n_params = V * d + d * d + d + V * d",
          "Sized W for one context token (d x d), the lesson's first model, instead of "
          "two side by side (2d x d).",
          ("two", "2d", "context", "side by side", "two previous", "2·d"),
          ("bias", "untied", "round")),
    # Q HARD
    Wrong("09-what-rows-learn", "n_params",
          "n_params = V * d + d * d + d",
          "Two mistakes: W for one context row (d x d) and U left out as if tied.",
          ("2d", "two", "context", "U", "untied", "output matrix"),
          ("bias", "round")),
    # R HARD
    Wrong("09-what-rows-learn", "n_params",
          "n_params = (V + d) + (2 * d) * d + d",
          "Two slips: E counted as V + d (dimensions added, not multiplied) and U "
          "left out as if tied.",
          ("V × d", "multiply", "times", "U", "untied", "output matrix"),
          ("bias", "round")),
    # R
    Wrong("09-what-rows-learn", "embedding_grad",
          dedent("""\
          def embedding_grad(contexts, dx0, vocab_size):
              dE = np.zeros((vocab_size, dx0.shape[-1]))
              dE[contexts] += dx0
              return dE
          """),
          "Used fancy-index +=, which keeps one contribution of a repeated token.",
          ("add.at", "repeated", "twice", "both contributions", "accumulate", "+="),
          ("slot", "mean", "global")),
    # Q
    Wrong("09-what-rows-learn", "embedding_grad",
          dedent("""\
          def embedding_grad(contexts, dx0, vocab_size):
              dE = np.zeros((vocab_size, dx0.shape[-1]))
              np.add.at(dE, contexts[:, 0], dx0[:, 0])
              return dE
          """),
          "Added only the first context slot's gradient.",
          ("every slot", "both slots", "all slots", "slot", "C", "second"),
          ("+=", "mean", "global")),
    # K
    Wrong("09-what-rows-learn", "embedding_grad",
          dedent("""\
          def embedding_grad(contexts, dx0, vocab_size):
              dE = np.zeros((V, dx0.shape[-1]))
              np.add.at(dE, contexts, dx0)
              return dE
          """),
          "Sized the gradient with question 1's V = 74 instead of vocab_size.",
          ("vocab_size", "argument", "shape", "V", "global"),
          ("+=", "slot", "mean")),
    # P
    Wrong("09-what-rows-learn", "embedding_grad",
          dedent("""\
          def embedding_grad(contexts, dx0, vocab_size):
              dE = np.zeros((vocab_size, dx0.shape[-1]))
              np.add.at(dE, contexts, dx0)
              return dE / len(contexts)
          """),
          "Divided by the batch size, normalising a gradient that dx0 already carries.",
          ("divide", "batch size", "mean", "already", "sum", "scale"),
          ("+=", "slot", "global")),
    # R HARD
    Wrong("09-what-rows-learn", "embedding_grad",
          dedent("""\
          def embedding_grad(contexts, dx0, vocab_size):
              dE = np.zeros((vocab_size, dx0.shape[-1]))
              dE[contexts] += dx0
              return dE.T
          """),
          "Two R habits: fancy-index += that drops repeats, and the result returned "
          "column-wise, shape (d, vocab_size).",
          ("shape", "transpose", "(vocab_size, d)", "add.at", "repeated", "+="),
          ("mean", "global")),
    # K HARD
    Wrong("09-what-rows-learn", "embedding_grad",
          dedent("""\
          def embedding_grad(contexts, dx0, vocab_size):
              dE = np.zeros((V, dx0.shape[-1]))
              dE[contexts] += dx0
              return dE
          """),
          "Two slips: question 1's V = 74 instead of vocab_size, and fancy-index += "
          "that drops repeats.",
          ("vocab_size", "argument", "shape", "add.at", "repeated", "accumulate"),
          ("slot", "mean")),
    # Q
    Wrong("09-what-rows-learn", "gap",
          dedent("""\
          unit = E / np.linalg.norm(E, axis=1, keepdims=True)
          C = unit @ unit.T
          within = np.mean([C[np.ix_(g, g)].mean() for g in (animals, vehicles)])
          gap = within - C[np.ix_(animals, vehicles)].mean()
          """),
          "Kept each word paired with itself (cosine 1) in the within-group mean.",
          ("different", "itself", "diagonal", "self", "i < j", "56 pairs"),
          ("axis", "round", "dot")),
    # R
    Wrong("09-what-rows-learn", "gap",
          dedent("""\
          unit = E / np.linalg.norm(E, axis=0, keepdims=True)
          C = unit @ unit.T
          within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]
          gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()
          """),
          "Normalised the columns (axis=0) instead of the rows.",
          ("axis", "rows", "axis=1", "each row", "columns", "normalise"),
          ("diagonal", "round", "vehicles")),
    # P HARD
    Wrong("09-what-rows-learn", "gap",
          dedent("""\
          unit = E / np.linalg.norm(E, axis=1, keepdims=True)
          C = np.round(unit @ unit.T, 2)
          within = np.mean([C[np.ix_(g, g)].mean() for g in (animals, vehicles)])
          gap = within - C[np.ix_(animals, vehicles)].mean()
          """),
          "Two slips: each cosine rounded to two decimals, and the self-pairs "
          "(cosine 1) kept in the within mean.",
          ("round", "exact", "precision", "different", "itself", "diagonal"),
          ("axis", "vehicles")),
    # K
    Wrong("09-what-rows-learn", "gap",
          dedent("""\
          unit = E / np.linalg.norm(E, axis=1, keepdims=True)
          C = unit @ unit.T
          group = animals
          within = [C[i, j] for i in group for j in group if i < j]
          gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()
          """),
          "Kept `group` from an earlier loop, so the within mean covers the animals "
          "only, not the vehicles.",
          ("vehicles", "both groups", "56 pairs", "each group", "animals with "
           "animals"),
          ("diagonal", "axis", "round")),
    # P HARD
    Wrong("09-what-rows-learn", "gap",
          dedent("""\
          C = E @ E.T
          within = np.mean([C[np.ix_(g, g)].mean() for g in (animals, vehicles)])
          gap = within - C[np.ix_(animals, vehicles)].mean()
          """),
          "Two shortcuts: dot products instead of cosines, and the self-pairs left in.",
          ("cosine", "norm", "normalise", "dot", "different", "diagonal", "itself"),
          ("axis", "round")),
    # R
    Wrong("09-what-rows-learn", "cos_cat",
          "rows = E[animals + vehicles]\n"
          "cos_cat = rows @ E[cat] / (np.linalg.norm(rows) * np.linalg.norm(E[cat]))",
          "Took the norm of the whole matrix of rows (MATLAB's norm of a matrix) "
          "instead of each row's.",
          ("each row", "axis=1", "norm", "per row", "row norms", "matrix"),
          ("cat itself", "dot", "order")),
    # P
    Wrong("09-what-rows-learn", "cos_cat",
          "cos_cat = E[animals + vehicles] @ E[cat]",
          "Took dot products as if the rows had unit length.",
          ("norm", "cosine", "divide", "length", "normalise", "unit"),
          ("itself", "axis", "order")),
    # K
    Wrong("09-what-rows-learn", "cos_cat",
          "rows = E[vehicles + animals]\n"
          "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1)\n"
          "                          * np.linalg.norm(E[cat]))",
          "Kept the order of an earlier cell (vehicles first) instead of animals + "
          "vehicles.",
          ("order", "animals + vehicles", "animals first", "in that order"),
          ("norm", "dot", "itself")),
    # R HARD
    Wrong("09-what-rows-learn", "cos_cat",
          "others = [i for i in animals + vehicles if i != cat]\n"
          "rows = E[others]\n"
          "cos_cat = rows @ E[cat] / (np.linalg.norm(rows) * np.linalg.norm(E[cat]))",
          "Two slips: the norm of the whole matrix of rows instead of each row's, and "
          "cat itself left out (15 entries).",
          ("each row", "axis=1", "norm", "16", "itself", "first entry"),
          ("dot", "order")),
    # P
    Wrong("09-what-rows-learn", "rotation_changes_cosines",
          dedent("""\
          def cos_matrix(M):
              u = M / np.linalg.norm(M, axis=1, keepdims=True)
              return u @ u.T
          same = np.array_equal(cos_matrix(E), cos_matrix(E @ Q))
          rotation_changes_cosines = "no" if same else "yes"
          """),
          "Compared the cosines exactly, so rounding at the 16th digit made them look "
          "changed.",
          ("rounding", "allclose", "tolerance", "floating", "orthogonal", "exact"),
          ("string", "bool", "word")),
    # R
    Wrong("09-what-rows-learn", "rotation_changes_cosines",
          dedent("""\
          def cos_matrix(M):
              u = M / np.linalg.norm(M, axis=1, keepdims=True)
              return u @ u.T
          rotation_changes_cosines = not np.allclose(cos_matrix(E), cos_matrix(E @ Q))
          """),
          "Answered with a logical (False), as R's TRUE/FALSE, instead of the word.",
          ("word", "\"no\"", "string", "yes or no", "text"),
          ("rounding", "tolerance", "orthogonal")),
    # Q
    Wrong("09-what-rows-learn", "tinylm_grads",
          dedent("""\
          def tinylm_grads(E, W, b, U, contexts, targets):
              B, C = contexts.shape
              x0 = E[contexts].reshape(B, -1)
              x = np.tanh(x0 @ W + b)
              logits = x @ U.T
              p = np.exp(logits - logits.max(axis=1, keepdims=True))
              p /= p.sum(axis=1, keepdims=True)
              dlogits = p.copy()
              dlogits[np.arange(B), targets] -= 1.0
              dU = dlogits.T @ x
              dx0 = (((dlogits @ U) * (1.0 - x**2)) @ W.T).reshape(B, C, -1)
              dE = np.zeros_like(E)
              np.add.at(dE, contexts, dx0)
              return dE, dU
          """),
          "Took the gradient of the summed loss, not the mean over the batch (no / B).",
          ("mean", "divide", "batch", "/ b", "average", "b"),
          ("+=", "tanh", "tied")),
    # R
    Wrong("09-what-rows-learn", "tinylm_grads",
          dedent("""\
          def tinylm_grads(E, W, b, U, contexts, targets):
              B, C = contexts.shape
              x0 = E[contexts].reshape(B, -1)
              x = np.tanh(x0 @ W + b)
              logits = x @ U.T
              p = np.exp(logits - logits.max(axis=1, keepdims=True))
              p /= p.sum(axis=1, keepdims=True)
              dlogits = p.copy()
              dlogits[np.arange(B), targets] -= 1.0
              dlogits /= B
              dU = dlogits.T @ x
              dx0 = (((dlogits @ U) * (1.0 - x**2)) @ W.T).reshape(B, C, -1)
              dE = np.zeros_like(E)
              dE[contexts] += dx0
              return dE, dU
          """),
          "Scattered dE with fancy-index +=, losing repeated ids' extra contributions.",
          ("add.at", "repeated", "accumulate", "+=", "twice", "both"),
          ("mean", "tanh", "tied")),
    # P
    Wrong("09-what-rows-learn", "tinylm_grads",
          dedent("""\
          def tinylm_grads(E, W, b, U, contexts, targets):
              B, C = contexts.shape
              x0 = E[contexts].reshape(B, -1)
              x = np.tanh(x0 @ W + b)
              logits = x @ U.T
              p = np.exp(logits - logits.max(axis=1, keepdims=True))
              p /= p.sum(axis=1, keepdims=True)
              dlogits = p.copy()
              dlogits[np.arange(B), targets] -= 1.0
              dlogits /= B
              dU = dlogits.T @ x
              dx0 = ((dlogits @ U) @ W.T).reshape(B, C, -1)
              dE = np.zeros_like(E)
              np.add.at(dE, contexts, dx0)
              return dE, dU
          """),
          "Treated tanh as linear (its derivative as 1), a small-signal approximation.",
          ("tanh", "derivative", "1 - x**2", "1 − x²", "chain rule", "activation"),
          ("mean", "+=", "tied")),
    # K
    Wrong("09-what-rows-learn", "tinylm_grads",
          dedent("""\
          def tinylm_grads(E, W, b, U, contexts, targets):
              B, C = contexts.shape
              x0 = E[contexts].reshape(B, -1)
              x = np.tanh(x0 @ W + b)
              logits = x @ U.T
              p = np.exp(logits - logits.max(axis=1, keepdims=True))
              p /= p.sum(axis=1, keepdims=True)
              dlogits = p.copy()
              dlogits[np.arange(B), targets] -= 1.0
              dlogits /= B
              dU = dlogits.T @ x
              dx0 = (((dlogits @ U) * (1.0 - x**2)) @ W.T).reshape(B, C, -1)
              dE = dU.copy()
              np.add.at(dE, contexts, dx0)
              return dE, dU
          """),
          "Carried the tied model's backward pass over: added the head's gradient into "
          "dE though this model is untied.",
          ("untied", "own", "separate", "head", "dU", "not tied"),
          ("mean", "+=", "tanh")),
    # Q HARD
    Wrong("09-what-rows-learn", "tinylm_grads",
          dedent("""\
          def tinylm_grads(E, W, b, U, contexts, targets):
              B, C = contexts.shape
              x0 = E[contexts].reshape(B, -1)
              x = np.tanh(x0 @ W + b)
              logits = x @ U.T
              p = np.exp(logits - logits.max(axis=1, keepdims=True))
              p /= p.sum(axis=1, keepdims=True)
              dlogits = p.copy()
              dlogits[np.arange(B), targets] -= 1.0
              dU = dlogits.T @ x
              dx0 = (((dlogits @ U) * (1.0 - x**2)) @ W.T).reshape(B, C, -1)
              dE = np.zeros_like(E)
              dE[contexts] += dx0
              return dE, dU
          """),
          "Two slips: no / B for the mean, and fancy-index += for the scatter into dE.",
          ("mean", "/ b", "batch", "add.at", "repeated", "accumulate"),
          ("tanh", "tied")),
    # ---------------------------------------- 10 glitch tokens
    # Q
    Wrong("10-glitch-tokens", "padding_rows",
          "padding_rows = -(-V // pad_multiple) * pad_multiple",
          "Gave the padded size instead of the number of rows added.",
          ("minus", "difference", "rows added", "- V", "no token", "extra rows"),
          ("remainder", "nearest", "parameters")),
    # P
    Wrong("10-glitch-tokens", "padding_rows",
          "padding_rows = round(V / pad_multiple) * pad_multiple - V",
          "Rounded to the nearest multiple, which here goes down and gives a negative "
          "number.",
          ("up", "round up", "ceil", "next multiple", "nearest", "negative"),
          ("remainder", "padded size", "parameters")),
    # R
    Wrong("10-glitch-tokens", "padding_rows",
          "padding_rows = V % pad_multiple",
          "Took the remainder (R's %% or MATLAB's mod) instead of what is missing to "
          "the next multiple.",
          ("remainder", "mod", "next multiple", "missing", "pad_multiple -", "up to"),
          ("nearest", "padded size", "parameters")),
    # Q
    Wrong("10-glitch-tokens", "padding_rows",
          "padding_rows = (-(-V // pad_multiple) * pad_multiple - V) * 768",
          "Gave the parameters of the padded rows instead of the rows, and typed "
          "GPT-2's width instead of reading it.",
          ("rows", "not parameters", "how many rows", "count rows", "× d"),
          ("remainder", "nearest", "padded size")),
    # Q
    Wrong("10-glitch-tokens", "invalid_bytes",
          "invalid_bytes = 256 - 128",
          "Counted the non-ASCII bytes instead of the bytes that never appear.",
          ("never appear", "valid utf-8", "continuation", "c0", "f5", "rfc 3629",
           "13"),
          ("bmp", "range", "from memory")),
    # P
    Wrong("10-glitch-tokens", "invalid_bytes",
          "invalid_bytes = 0xFF - 0xF5 + 1",
          "Remembered only the F5-FF range from RFC 3629, forgetting C0 and C1.",
          ("c0", "c1", "overlong", "f5", "count it", "encode", "every code point"),
          ("ascii", "bmp", "range")),
    # K
    Wrong("10-glitch-tokens", "invalid_bytes",
          dedent("""\
          seen = set()
          for c in range(0x10000):
              if not 0xD800 <= c <= 0xDFFF:
                  seen.update(chr(c).encode("utf-8"))
          invalid_bytes = 256 - len(seen)
          """),
          "Stopped at 0x10000, the Basic Multilingual Plane of an earlier example, "
          "so the 4-byte lead bytes never appear.",
          ("0x110000", "every code point", "4 bytes", "f0", "planes", "range",
           "beyond"),
          ("ascii", "from memory", "1-based")),
    # R
    Wrong("10-glitch-tokens", "invalid_bytes",
          dedent("""\
          seen = set()
          for c in range(1, 0x110000):
              if not 0xD800 <= c <= 0xDFFF:
                  seen.update(chr(c).encode("utf-8"))
          invalid_bytes = 256 - len(seen)
          """),
          "Started the code points at 1 (R's 1:n), so byte 0x00 is never seen.",
          ("0", "from 0", "range", "every code point", "0x00", "off by one",
           "1-based"),
          ("ascii", "bmp", "from memory")),
    # R HARD
    Wrong("10-glitch-tokens", "invalid_bytes",
          dedent("""\
          seen = set()
          for c in range(1, 0x10000):
              if not 0xD800 <= c <= 0xDFFF:
                  seen.update(chr(c).encode("utf-8"))
          invalid_bytes = 256 - len(seen)
          """),
          "Two slips: code points from 1 (R's 1:n, so 0x00 is missed) and only up to "
          "0x10000 (no 4-byte characters).",
          ("0x110000", "every code point", "from 0", "range", "4 bytes", "0x00"),
          ("ascii", "from memory")),
    # R
    Wrong("10-glitch-tokens", "unused_score",
          dedent("""\
          def unused_score(M, reference_ids):
              mean = np.full(M.shape[1], M[reference_ids].mean())
              return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))
          """),
          "Took mean() of the reference block as one number, as R's mean of a matrix "
          "does, instead of the mean row (a mean per column).",
          ("axis", "axis=0", "mean row", "per column", "columns", "mean vector"),
          ("reference rows left", "dot", "all rows")),
    # Q
    Wrong("10-glitch-tokens", "unused_score",
          dedent("""\
          def unused_score(M, reference_ids):
              mean = M[reference_ids].mean(axis=0)
              keep = np.setdiff1d(np.arange(len(M)), reference_ids)
              return M[keep] @ mean / (np.linalg.norm(M[keep], axis=1)
                                       * np.linalg.norm(mean))
          """),
          "Left the reference rows out of the scores, which section 5 does only when "
          "it "
          "ranks.",
          ("every row", "reference rows included", "one score per row", "shape",
           "afterwards"),
          ("axis", "dot", "all rows mean")),
    # P
    Wrong("10-glitch-tokens", "unused_score",
          dedent("""\
          def unused_score(M, reference_ids):
              return M @ M[reference_ids].mean(axis=0)
          """),
          "Took dot products with the mean instead of cosines.",
          ("cosine", "norm", "normalise", "divide", "length", "dot"),
          ("axis", "reference rows left", "all rows")),
    # K
    Wrong("10-glitch-tokens", "unused_score",
          dedent("""\
          def unused_score(M, reference_ids):
              mean = M.mean(axis=0)
              return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))
          """),
          "Used the mean of all rows, an earlier centring step, instead of the mean of "
          "the reference rows.",
          ("reference", "reference rows", "reference_ids", "known-unused", "mean of"),
          ("axis", "dot", "left out")),
    # R
    Wrong("10-glitch-tokens", "unused_score",
          dedent("""\
          def unused_score(M, reference_ids):
              mean = M[reference_ids].mean(axis=0)
              return M @ mean / (np.linalg.norm(M) * np.linalg.norm(mean))
          """),
          "Divided by the norm of the whole matrix (MATLAB's norm of a matrix) "
          "instead of each row's: the scores become dot products over one constant, "
          "so they rank like dot products, not cosines.",
          ("each row", "axis=1", "row norms", "per row", "norm", "cosine"),
          ("reference rows left", "all rows")),
    # Q
    Wrong("10-glitch-tokens", "never_cos",
          dedent("""\
          rows = run.model.E[never]
          unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
          never_cos = (unit @ unit.T).mean()
          """),
          "Averaged the whole cosine matrix, each row with itself included.",
          ("different", "pairs", "itself", "diagonal", "triu", "self"),
          ("axis", "dot", "reserved")),
    # R
    Wrong("10-glitch-tokens", "never_cos",
          dedent("""\
          rows = run.model.E[never]
          unit = rows / np.linalg.norm(rows, axis=0, keepdims=True)
          C = unit @ unit.T
          never_cos = C[np.triu_indices(len(never), k=1)].mean()
          """),
          "Normalised the columns (axis=0) instead of the rows.",
          ("axis", "axis=1", "rows", "each row", "normalise"),
          ("diagonal", "dot", "reserved")),
    # P
    Wrong("10-glitch-tokens", "never_cos",
          dedent("""\
          rows = run.model.E[never]
          C = rows @ rows.T
          never_cos = C[np.triu_indices(len(never), k=1)].mean()
          """),
          "Used dot products instead of cosines, as if the rows had unit length.",
          ("cosine", "norm", "normalise", "unit", "length", "dot"),
          ("diagonal", "axis", "reserved")),
    # K
    Wrong("10-glitch-tokens", "never_cos",
          dedent("""\
          rows = run.model.E[list(corpus.groups["reserved"])]
          unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
          C = unit @ unit.T
          never_cos = C[np.triu_indices(len(rows), k=1)].mean()
          """),
          "Reused the lesson's reserved group, leaving the glitch word out of `never`.",
          ("never", "glitch word", "all never-seen", "zorblox", "the group never"),
          ("diagonal", "axis", "dot")),
    # P HARD
    Wrong("10-glitch-tokens", "never_cos",
          dedent("""\
          rows = run.model.E[never]
          never_cos = (rows @ rows.T).mean()
          """),
          "Two shortcuts: dot products for cosines and the diagonal left in.",
          ("cosine", "norm", "dot", "different", "diagonal", "itself"),
          ("axis", "reserved")),
    # Q
    Wrong("10-glitch-tokens", "top7",
          "from embedlab import unused_scores\n"
          "scores = unused_scores(run.model.E, reference)\n"
          "top7 = np.argsort(-scores, kind='stable')[:7]",
          "Kept the four reference rows in the ranking.",
          ("leave out", "reference", "without the reference", "exclude", "four"),
          ("1-based", "ascending", "dot")),
    # R
    Wrong("10-glitch-tokens", "top7",
          "from embedlab import unused_scores\n"
          "scores = unused_scores(run.model.E, reference)\n"
          "order = [i for i in np.argsort(-scores, kind='stable') if i not in "
          "reference]\n"
          "top7 = np.array(order[:7]) + 1",
          "Added 1 to the ids, as R's 1-based positions.",
          ("0", "ids", "1-based", "off by one", "index", "zero"),
          ("reference", "ascending", "dot")),
    # R
    Wrong("10-glitch-tokens", "top7",
          "from embedlab import unused_scores\n"
          "scores = unused_scores(run.model.E, reference)\n"
          "order = [i for i in np.argsort(scores) if i not in reference]\n"
          "top7 = np.array(order[:7])",
          "Sorted ascending (R's order() default), giving the lowest scores.",
          ("highest", "descending", "highest first", "-scores", "reverse", "order"),
          ("reference", "1-based", "dot")),
    # K
    Wrong("10-glitch-tokens", "top7",
          "from embedlab import unused_scores\n"
          "ref = list(corpus.groups['reserved'])\n"
          "scores = unused_scores(run.model.E, ref)\n"
          "order = [i for i in np.argsort(-scores, kind='stable') if i not in ref]\n"
          "top7 = np.array(order[:7])",
          "Used all eight reserved rows from the lesson as the reference instead of "
          "the first four in `reference`.",
          ("reference", "first four", "four", "the cell's reference", "given"),
          ("1-based", "ascending", "dot")),
    # P HARD
    Wrong("10-glitch-tokens", "top7",
          "M = run.model.E\n"
          "scores = M @ M[reference].mean(axis=0)\n"
          "top7 = np.argsort(-scores)[:7]",
          "Two shortcuts: dot products instead of cosines, and the reference rows "
          "left in the ranking.",
          ("cosine", "norm", "dot", "leave out", "reference", "exclude"),
          ("1-based", "ascending")),
    # R HARD
    Wrong("10-glitch-tokens", "top7",
          "from embedlab import unused_scores\n"
          "scores = unused_scores(run.model.E, reference)\n"
          "order = [i for i in np.argsort(scores) if i not in reference]\n"
          "top7 = np.array(order[:7]) + 1",
          "Two R habits: ascending order (R's order() default) and ids shifted to "
          "1-based.",
          ("highest", "descending", "-scores", "1-based", "off by one", "0"),
          ("reference", "dot")),
    # Q
    Wrong("10-glitch-tokens", "partial_tokens",
          dedent("""\
          partial_tokens = 0
          for b in ordinary:
              try:
                  b.decode("utf-8")
                  partial_tokens += 1
              except UnicodeDecodeError:
                  pass
          """),
          "Counted the tokens that do decode instead of those that do not.",
          ("do not decode", "raises", "unicodedecodeerror", "fail", "not decode",
           "inverse"),
          ("single byte", "cl100k", "first byte")),
    # P
    Wrong("10-glitch-tokens", "partial_tokens",
          "partial_tokens = sum(1 for b in ordinary if len(b) == 1 and b[0] >= 0x80)",
          "Approximated by the single high bytes alone, forgetting merged tokens that "
          "split a character.",
          ("merged", "multi-byte", "partway", "longer tokens", "every token",
           "decode"),
          ("decode", "cl100k", "inverse")),
    # K
    Wrong("10-glitch-tokens", "partial_tokens",
          dedent("""\
          partial_tokens = 0
          for b in load_tokenizer("cl100k_base").token_byte_values():
              try:
                  b.decode("utf-8")
              except UnicodeDecodeError:
                  partial_tokens += 1
          """),
          "Kept cl100k_base from lesson 08 instead of the tokenizer named in "
          "`tokenizer`.",
          ("tokenizer", "gpt2", "the parameters", "ordinary", "which tokenizer"),
          ("single byte", "inverse", "first byte")),
    # K HARD
    Wrong("10-glitch-tokens", "partial_tokens",
          dedent("""\
          partial_tokens = 0
          for b in load_tokenizer("cl100k_base").token_byte_values():
              try:
                  b.decode("utf-8")
                  partial_tokens += 1
              except UnicodeDecodeError:
                  pass
          """),
          "Two slips: lesson 08's cl100k_base instead of `tokenizer`, and the tokens "
          "that decode counted instead of those that do not.",
          ("tokenizer", "gpt2", "which tokenizer", "do not decode", "raises",
           "unicodedecodeerror"),
          ("single byte", "first byte")),
    # R
    Wrong("10-glitch-tokens", "partial_tokens",
          "partial_tokens = sum(1 for b in ordinary if b[0] >= 0x80)",
          "Looked at each token's first byte only, as if indexing one element told "
          "the whole token.",
          ("decode", "whole token", "every byte", "ends partway", "last bytes",
           "try"),
          ("cl100k", "inverse", "single byte only")),
    # ---------------------------------------- 11 size a model
    # K
    Wrong("11-size-a-model", "design",
          dedent("""\
          V, d = BUDGET.min_vocab_size, 16 * head_dim
          for L in range(1, 200):
              design = llama_config(V, d, L, 16, 4, 4 * d, True)
              if over_budget(design, BUDGET):
                  break
          """),
          "Searched depth with a loop and kept the loop's last design, the first one "
          "that breaks a budget, one layer too deep.",
          ("one layer", "too deep", "over budget", "l - 1", "deepest that fits",
           "loop", "compute"),
          ("vocabulary", "head", "tied")),
    # Q
    Wrong("11-size-a-model", "design",
          "design = llama_config(30_000, 1024, 30, 16, 4, 4096, True)",
          "Read min_vocab_size as a ceiling and chose a vocabulary below it.",
          ("vocabulary", "at least", "minimum", "min_vocab_size", "32000", "32,000"),
          ("head", "depth", "tied")),
    # P
    Wrong("11-size-a-model", "design",
          "design = llama_config(32_000, 1024, 32, 16, 4, 4096, True)",
          "Rounded the depth up to 32, a tidy power of two, past what the budgets "
          "allow.",
          ("compute", "memory", "over budget", "too deep", "fewer layers", "depth",
           "l"),
          ("vocabulary", "head", "tied")),
    # K
    Wrong("11-size-a-model", "design",
          "design = llama_config(32_000, 1024, 30, 8, 2, 4096, True)",
          "Used 8 heads of 128, Llama-3-8B's head width, instead of heads head_dim "
          "wide.",
          ("head_dim", "64", "heads", "d / h", "head width", "num_heads"),
          ("vocabulary", "compute", "depth")),
    # Q HARD
    Wrong("11-size-a-model", "design",
          dedent("""\
          V, d = BUDGET.min_vocab_size, 16 * head_dim
          L = 1
          while count_params(llama_config(V, d, L + 1, 16, 4, 4 * d, True)).total \\
                  <= BUDGET.max_params:
              L += 1
          design = llama_config(V, d, L, 16, 4, 4 * d, True)
          """),
          "Went as deep as the parameter budget allows without backing off, so both "
          "memory and compute break (two budgets at once).",
          ("back off", "memory", "compute", "over budget", "deepest_fit", "every "
           "budget"),
          ("vocabulary", "head", "tied")),
    # P
    Wrong("11-size-a-model", "design_params",
          "design_params = int(round(count_params(design).total, -6))",
          "Rounded the count to the nearest million.",
          ("exact", "round", "int", "digits", "whole number"),
          ("embedding", "lesson", "twice")),
    # K
    Wrong("11-size-a-model", "design_params",
          "design_params = 1_417_754_624",
          "Typed the lesson's worked design's count instead of counting this design.",
          ("your design", "count_params", "design", "your own", "recount"),
          ("round", "embedding", "twice")),
    # R
    Wrong("11-size-a-model", "design_params",
          "c = count_params(design)\n"
          "design_params = c.total + design['vocab_size'] * design['hidden_size']",
          "Treated the tied head as a copy of the table and counted it again.",
          ("tied", "once", "counts once", "shared", "copy", "same matrix"),
          ("round", "lesson", "non-embedding")),
    # R HARD
    Wrong("11-size-a-model", "design_params",
          "c = count_params(design)\n"
          "design_params = int(round(c.total + design['vocab_size'] * "
          "design['hidden_size'], -6))",
          "Two slips: the tied head counted again as if it were a copy, and the count "
          "rounded to millions.",
          ("tied", "once", "shared", "copy", "exact", "round"),
          ("lesson", "non-embedding")),
    # P
    Wrong("11-size-a-model", "design_serving_gb",
          "design_serving_gb = serving_memory(design, weights=BUDGET.weights,\n"
          "                                   context=BUDGET.context, "
          "batch=BUDGET.batch,\n"
          "                                   kv=BUDGET.kv)['total'] / 2**30",
          "Divided by 2^30 (GiB) instead of GB.",
          ("gb", "gib", "1e9", "10⁹", "unit"),
          ("weights only", "batch", "round")),
    # Q
    Wrong("11-size-a-model", "design_serving_gb",
          "design_serving_gb = serving_memory(design, weights=BUDGET.weights,\n"
          "                                   context=BUDGET.context, "
          "batch=BUDGET.batch,\n"
          "                                   kv=BUDGET.kv)['weights'] / GB",
          "Gave the weights alone, without the KV cache.",
          ("kv cache", "cache", "together", "total", "both"),
          ("gib", "batch", "round")),
    # K
    Wrong("11-size-a-model", "design_serving_gb",
          "design_serving_gb = serving_memory(design, weights=BUDGET.weights,\n"
          "                                   context=BUDGET.context, batch=16,\n"
          "                                   kv=BUDGET.kv)['total'] / GB",
          "Kept the lesson's 16 conversations instead of the job's one.",
          ("batch", "one conversation", "1", "budget.batch", "conversations"),
          ("gib", "weights only", "round")),
    # K HARD
    Wrong("11-size-a-model", "design_serving_gb",
          "design_serving_gb = serving_memory(design, weights=weights, "
          "context=context,\n"
          "                                   batch=1, kv=weights)['total'] / 2**30",
          "Two slips: the variable `weights` reused for the cache precision (int4 "
          "instead of bf16), and GiB instead of GB.",
          ("kv", "bf16", "cache precision", "budget.kv", "gb", "gib", "1e9"),
          ("batch", "weights only")),
    # P
    Wrong("11-size-a-model", "design_train_flops",
          "design_train_flops = 6 * count_params(design).total * D",
          "Used the 6·N·D estimate instead of the counted training_flops.",
          ("training_flops", "count", "attention", "estimate", "6·n·d", "6nd"),
          ("one sequence", "4096", "round")),
    # Q
    Wrong("11-size-a-model", "design_train_flops",
          "design_train_flops = training_flops(design, T_train).total",
          "Gave the FLOPs of one sequence instead of all D // T sequences.",
          ("sequences", "d // t", "train_tokens", "times", "all", "product"),
          ("6·n·d", "4096", "round")),
    # K
    Wrong("11-size-a-model", "design_train_flops",
          "design_train_flops = training_flops(design, 4096).total * (D // 4096)",
          "Kept the lesson's training context of 4,096 instead of train_context.",
          ("train_context", "2048", "context", "budget", "t_train"),
          ("6·n·d", "one sequence", "round")),
    # K HARD
    Wrong("11-size-a-model", "design_train_flops",
          "design_train_flops = training_flops(design, 4096).total",
          "Two slips: the lesson's training context of 4,096 and one sequence instead "
          "of all D // T of them.",
          ("train_context", "2048", "sequences", "d // t", "times", "all"),
          ("6·n·d", "round")),
    # P HARD
    Wrong("11-size-a-model", "design_train_flops",
          "design_train_flops = 6 * count_params(design).non_embedding * D",
          "Two mistakes: the 6·N·D estimate instead of the count, and N without the "
          "tied table, which multiplies as the head.",
          ("training_flops", "estimate", "count", "tied", "head", "n_mult"),
          ("one sequence", "4096")),
    # P HARD
    Wrong("11-size-a-model", "tightest_budget",
          dedent("""\
          used = {"parameters": round(design_params / BUDGET.max_params, 2),
                  "memory": round(design_serving_gb / BUDGET.max_serving_gb, 2),
                  "compute": round(design_train_flops / BUDGET.max_train_flops, 2)}
          tightest_budget = max(used, key=used.get)
          """),
          "Rounded the fractions to two decimals, which made memory and compute tie at "
          "0.99 so max kept the first; the word it gives is also the lesson's answer.",
          ("round", "exact", "fractions", "tie", "compute", "largest"),
          ("least", "raw", "name")),
    # Q
    Wrong("11-size-a-model", "tightest_budget",
          dedent("""\
          used = {"parameters": design_params / BUDGET.max_params,
                  "memory": design_serving_gb / BUDGET.max_serving_gb,
                  "compute": design_train_flops / BUDGET.max_train_flops}
          tightest_budget = min(used, key=used.get)
          """),
          "Picked the budget with the most room left (min) instead of the fullest.",
          ("largest", "max", "fullest", "most used", "binds"),
          ("round", "raw", "name")),
    # Q
    Wrong("11-size-a-model", "tightest_budget",
          dedent("""\
          used = {"parameters": design_params / BUDGET.max_params,
                  "memory": design_serving_gb / BUDGET.max_serving_gb,
                  "compute": design_train_flops / BUDGET.max_train_flops}
          tightest_budget = max(used.values())
          """),
          "Gave the largest fraction itself instead of the budget's name.",
          ("name", "word", "which budget", "\"parameters\"", "\"memory\"",
           "\"compute\""),
          ("round", "least", "raw")),
    # Q
    Wrong("11-size-a-model", "other_tying_params",
          "other_tying_params = design['vocab_size'] * design['hidden_size']",
          "Gave the V x d difference instead of the flipped design's count.",
          ("total", "count", "flipped", "whole", "design_params +", "parameters"),
          ("round", "always", "minus")),
    # K
    Wrong("11-size-a-model", "other_tying_params",
          "other_tying_params = count_params({**design, 'tie_word_embeddings': True})"
          ".total",
          "Set the tying to True, the lesson's choice, instead of flipping it.",
          ("flip", "not", "other", "opposite", "whatever design has", "untied"),
          ("round", "v × d only", "minus")),
    # R
    Wrong("11-size-a-model", "other_tying_params",
          "other_tying_params = design_params - design['vocab_size'] * "
          "design['hidden_size']",
          "Subtracted the table, as if flipping the tying dropped a copy, where "
          "untying a tied head adds one.",
          ("untied", "adds", "plus", "more", "head", "direction"),
          ("round", "always", "v × d only")),
    # P
    Wrong("11-size-a-model", "other_tying_params",
          "other_tying_params = int(round(count_params(\n"
          "    {**design, 'tie_word_embeddings': not design['tie_word_embeddings']}"
          ").total, -6))",
          "Rounded the flipped count to the nearest million.",
          ("exact", "round", "digits", "whole number"),
          ("always", "minus", "v × d only")),
    # R
    Wrong("11-size-a-model", "defence",
          DEFENCE_HELPER + dedent("""\
          figs = design_figures(design, BUDGET)
          shares = headroom(figs, BUDGET)
          defence = '''
          Which budget binds, and by how much:
          My design uses {shares['parameters']:.1%} of the parameters,
          {shares['memory']:.1%} of the memory and {shares['compute']:.1%} of
          the compute.

          Why this width and depth:
          {design['num_attention_heads']} heads of {head_dim} and the deepest fit.

          What the tying choice costs:
          Tied, it saves {design['vocab_size'] * design['hidden_size']:,} parameters.
          '''
          """),
          "Left out the f before the string (as in an R paste or a MATLAB string), so "
          "every brace stays unfilled.",
          ("f-string", "f\"", "braces", "unfilled", "{", "prefix"),
          ("lesson", "heading", "worked example")),
    # K
    Wrong("11-size-a-model", "defence",
          DEFENCE_HELPER + dedent("""\
          defence = f'''
          Which budget binds, and by how much:
          Memory binds: 99.2% of the serving memory, 94.5% of the parameters and 94.6%
          of the compute. One layer more (20) breaks memory.

          Why this width and depth:
          d = 2,048 (32 heads of 64) and 19 layers, the deepest that fits.

          What the tying choice costs:
          Tied, it saves 262,144,000 parameters.
          '''
          """),
          "Copied the lesson's worked example's figures (d = 2,048, 19 layers, memory "
          "binding) instead of computing this design's.",
          ("your own", "your design", "worked example", "lesson", "figures",
           "compute them"),
          ("f-string", "braces", "empty")),
    # Q
    Wrong("11-size-a-model", "defence",
          DEFENCE_HELPER + dedent("""\
          figs = design_figures(design, BUDGET)
          shares = headroom(figs, BUDGET)
          defence = f'''
          Which budget binds, and by how much:
          {tightest_budget} binds: {shares[tightest_budget]:.1%} of its budget.

          Why this width and depth:

          What the tying choice costs:
          '''
          """),
          "Answered only the first heading and left the other two empty.",
          ("heading", "empty", "width and depth", "tying", "every heading", "each "
           "heading"),
          ("f-string", "worked example", "braces")),
    # P HARD
    Wrong("11-size-a-model", "defence",
          DEFENCE_HELPER + dedent("""\
          defence = f'''
          Which budget binds, and by how much:
          All three budgets are about 100% used, so it does not matter which binds.

          Why this width and depth:
          About a thousand wide and about thirty deep, a sensible size.

          What the tying choice costs:
          Tying saves roughly thirty million parameters.
          '''
          """),
          "Wrote orders of magnitude instead of the design's figures and named no "
          "budget; the f-string has no field, so nothing of the design is in it.",
          ("figures", "your own", "numbers", "fraction", "which budget", "compute"),
          ("worked example", "braces unfilled")),
    # ---------------------------------------- 12 change a vocabulary
    # K
    Wrong("12-change-a-vocabulary", "added_params",
          "added_params = 2 * (max(V, n_tok + n_new) - V) * d",
          "Counted a second matrix for the head, as lesson 05's untied Llama, though "
          "this model is tied.",
          ("tied", "once", "shared", "head", "count_params", "same matrix"),
          ("rows", "off by one", "pad")),
    # R
    Wrong("12-change-a-vocabulary", "added_params",
          "added_params = (max(V, n_tok + n_new - 1) - V) * d",
          "Counted the last new id as the new size (ids to n_tok + n_new - 1, 1-based "
          "thinking), one row short.",
          ("n_tok + n_new", "rows", "off by one", "last id", "size", "ids from 0"),
          ("tied", "pad", "parameters")),
    # P
    Wrong("12-change-a-vocabulary", "added_params",
          "added_params = (padded_size(n_tok + n_new, 64) - V) * d",
          "Rounded the new size up to a tidy multiple of 64, which is question 2's "
          "padding, not this resize.",
          ("padding", "pad", "n_tok + n_new", "no rounding", "multiple", "question 2"),
          ("tied", "off by one", "rows only")),
    # K HARD
    Wrong("12-change-a-vocabulary", "added_params",
          "added_params = 2 * (max(V, n_tok + n_new) - V)",
          "Two slips: rows instead of parameters (no d), and a second matrix for a "
          "head that is tied.",
          ("parameters", "× d", "d", "tied", "once", "count_params"),
          ("off by one", "pad")),
    # K
    Wrong("12-change-a-vocabulary", "padding_rows",
          "padding_rows = padded_size(V, pad_multiple) - V",
          "Reused lesson 10's padding of the bare vocabulary, forgetting the new "
          "tokens.",
          ("new tokens", "n_new", "n_tok + n_new", "resized", "added"),
          ("padded size", "off by one", "nearest")),
    # Q
    Wrong("12-change-a-vocabulary", "padding_rows",
          "padding_rows = padded_size(max(V, n_tok + n_new), pad_multiple)",
          "Gave the padded table's size instead of its padding rows.",
          ("minus", "rows past", "no token", "difference", "padding rows"),
          ("n_new", "off by one", "nearest")),
    # R
    Wrong("12-change-a-vocabulary", "padding_rows",
          "padding_rows = padded_size(max(V, n_tok + n_new), pad_multiple) - (n_tok + "
          "n_new - 1)",
          "Took the last owned id for the number of owned rows, one off (1-based "
          "habit).",
          ("n_tok + n_new", "rows 0", "off by one", "owned rows", "last id", "count"),
          ("n_new", "padded size", "nearest")),
    # P
    Wrong("12-change-a-vocabulary", "padding_rows",
          "rows = max(V, n_tok + n_new)\n"
          "padding_rows = round(rows / pad_multiple) * pad_multiple - (n_tok + n_new)",
          "Rounded to the nearest multiple instead of up, which gives a negative "
          "count.",
          ("up", "round up", "ceil", "next multiple", "nearest", "negative",
           "padded_size"),
          ("n_new", "padded size", "off by one")),
    # R
    Wrong("12-change-a-vocabulary", "p_new_token",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p = np.exp(log_softmax(grown.logits(context)))[0]\n"
          "p_new_token = float(p[corpus.vocab_size - 1])",
          "Indexed the first new token at vocab_size - 1, the last old id, a 1-based "
          "correction Python does not need.",
          ("corpus.vocab_size", "first new", "id", "index", "off by one", "0-based"),
          ("most likely", "logit", "bound")),
    # P
    Wrong("12-change-a-vocabulary", "p_new_token",
          "p_new_token = 1 / (corpus.vocab_size + n_new)",
          "Answered with the bound 1/(V+k) instead of the model's probability.",
          ("bound", "compute", "the model's", "softmax", "logits", "not the bound"),
          ("most likely", "zeros", "off by one")),
    # K
    Wrong("12-change-a-vocabulary", "p_new_token",
          "grown = resize_tinylm(run.model, n_new, 'zeros')\n"
          "p = np.exp(log_softmax(grown.logits(context)))[0]\n"
          "p_new_token = float(p[corpus.vocab_size])",
          "Kept the zeros initialisation of the lesson's first example instead of the "
          "mean.",
          ("mean", "init", "\"mean\"", "initialis", "zeros"),
          ("most likely", "bound", "off by one")),
    # P HARD
    Wrong("12-change-a-vocabulary", "p_new_token",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p_new_token = float(grown.logits(context)[0, corpus.vocab_size - 1])",
          "Two slips: the raw logit taken for a probability (no softmax), and the last "
          "old id (vocab_size - 1) instead of the first new one.",
          ("softmax", "probability", "exp", "logit", "corpus.vocab_size", "first new",
           "off by one"),
          ("most likely", "bound", "zeros")),
    # Q
    Wrong("12-change-a-vocabulary", "kl_mean",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "kl_mean = kl_divergence(run.model.logits(contexts), grown.logits(contexts))",
          "Gave the KL at every position (an array) instead of its mean.",
          ("mean", "average", "one number", "float", ".mean()"),
          ("order", "bound", "random")),
    # R
    Wrong("12-change-a-vocabulary", "kl_mean",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "new = grown.logits(contexts)[:, :corpus.vocab_size]\n"
          "kl_mean = float(kl_divergence(new, run.model.logits(contexts)).mean())",
          "Swapped the arguments (new, then old), cutting the new tokens' columns to "
          "make the shapes agree, which leaves the old logits on both sides (KL 0).",
          ("order", "old", "new", "before", "after", "from the old", "arguments"),
          ("mean", "bound", "random")),
    # P
    Wrong("12-change-a-vocabulary", "kl_mean",
          "kl_mean = float(np.log(1 + n_new / corpus.vocab_size))",
          "Answered with the bound log(1 + k/V) instead of the measured KL.",
          ("bound", "measure", "compute", "kl_divergence", "not the bound"),
          ("order", "mean", "random")),
    # K
    Wrong("12-change-a-vocabulary", "kl_mean",
          "grown = resize_tinylm(run.model, n_new, 'small')\n"
          "kl_mean = float(kl_divergence(run.model.logits(contexts),\n"
          "                              grown.logits(contexts)).mean())",
          "Kept the random ('small') initialisation of an earlier cell instead of the "
          "mean.",
          ("mean", "init", "\"mean\"", "initialis", "same mean"),
          ("order", "bound", "array")),
    # Q HARD
    Wrong("12-change-a-vocabulary", "kl_mean",
          "grown = resize_tinylm(run.model, n_new, 'mean')\n"
          "p_old = np.exp(log_softmax(run.model.logits(contexts)))\n"
          "p_new = np.exp(log_softmax(grown.logits(contexts)))\n"
          "kl_mean = float(kl_divergence(p_old, p_new).sum())",
          "Two slips: passed probabilities where kl_divergence takes logits (it "
          "applies the softmax itself), and summed over positions instead of the mean.",
          ("logits", "not probabilities", "softmax", "mean", "average", "sum"),
          ("bound", "random", "order")),
    # Q
    Wrong("12-change-a-vocabulary", "trimmed_rows",
          "trimmed_rows = len(used)",
          "Counted only the words' tokens, not the 256 byte tokens and end-of-text.",
          ("256", "byte tokens", "eot", "end-of-text", "bytes", "union"),
          ("n_keep", "overlap", "one per word")),
    # R
    Wrong("12-change-a-vocabulary", "trimmed_rows",
          "trimmed_rows = len(used) + 256 + 1",
          "Added the sizes instead of taking the union, counting the byte tokens the "
          "words already use twice.",
          ("union", "overlap", "twice", "set", "|", "already"),
          ("n_keep", "one per word", "eot")),
    # K
    Wrong("12-change-a-vocabulary", "trimmed_rows",
          "trimmed_rows = n_keep",
          "Answered with question 6's n_keep, the other example.",
          ("used", "compute", "union", "256", "eot", "your"),
          ("overlap", "one per word", "byte")),
    # P HARD
    Wrong("12-change-a-vocabulary", "trimmed_rows",
          "trimmed_rows = n_words + 256 + 1",
          "Estimated one token per word and added the sizes, two approximations at "
          "once.",
          ("used", "tokens of", "union", "overlap", "several tokens", "set"),
          ("n_keep", "eot")),
    # R HARD
    Wrong("12-change-a-vocabulary", "trimmed_rows",
          "trimmed_rows = len(used) + 256",
          "Two slips: added sizes instead of taking the union (the byte tokens the "
          "words use counted twice) and forgot the end-of-text token.",
          ("union", "overlap", "twice", "set", "eot", "end-of-text"),
          ("n_keep", "one per word")),
    # Q
    Wrong("12-change-a-vocabulary", "saved_params",
          "saved_params = (tok.n_vocab - n_keep) * d_trim * 2",
          "Counted a head as well, ignoring that trim_tied says the head is tied.",
          ("tied", "trim_tied", "once", "head", "shared"),
          ("trimmed_rows", "round", "inclusive")),
    # K
    Wrong("12-change-a-vocabulary", "saved_params",
          "saved_params = (tok.n_vocab - trimmed_rows) * d_trim",
          "Used question 5's trimmed_rows instead of n_keep.",
          ("n_keep", "separate example", "given", "12000", "not question 5"),
          ("tied", "round", "inclusive")),
    # P
    Wrong("12-change-a-vocabulary", "saved_params",
          "saved_params = (50_000 - n_keep) * d_trim",
          "Rounded the vocabulary to 50,000.",
          ("n_vocab", "exact", "50257", "round", "tok.n_vocab"),
          ("tied", "trimmed_rows", "inclusive")),
    # R
    Wrong("12-change-a-vocabulary", "saved_params",
          "saved_params = (tok.n_vocab - n_keep + 1) * d_trim",
          "Counted the removed rows inclusively, as R's seq(n_keep, n_vocab) length.",
          ("n_vocab - n_keep", "off by one", "rows removed", "count", "exact"),
          ("tied", "round", "trimmed_rows")),
    # R HARD
    Wrong("12-change-a-vocabulary", "saved_params",
          "saved_params = (tok.n_vocab - n_keep + 1) * d_trim * 2",
          "Two slips: the removed rows counted inclusively (R's seq length), and a "
          "head counted though trim_tied says it is tied.",
          ("n_vocab - n_keep", "off by one", "tied", "trim_tied", "once"),
          ("trimmed_rows", "round")),
    # P HARD
    Wrong("12-change-a-vocabulary", "saved_params",
          "saved_params = (50_000 - n_keep) * d_trim * 2",
          "Two slips: the vocabulary rounded to 50,000, and the head counted though "
          "it is tied.",
          ("n_vocab", "exact", "round", "tied", "trim_tied", "once"),
          ("trimmed_rows", "inclusive")),
    # Q
    Wrong("12-change-a-vocabulary", "coverage",
          "kept = used | set(range(256)) | {tok.eot_token}\n"
          "covered = [set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words]\n"
          "coverage = float(np.mean(covered))",
          "Took the plain share of words covered, without weighting by frequency.",
          ("weight", "weighted", "frequency", "occurrences", "frequencies"),
          ("first token", "round", "bytes")),
    # P
    Wrong("12-change-a-vocabulary", "coverage",
          "coverage = 0.0232",
          "Typed the share rounded to three significant figures.",
          ("exact", "compute", "round", "in code", "digits"),
          ("weight", "first token", "bytes")),
    # R
    Wrong("12-change-a-vocabulary", "coverage",
          "kept = used | set(range(256)) | {tok.eot_token}\n"
          "covered = np.array([tok.encode_ordinary(' ' + w)[0] in kept\n"
          "                    for w in next_words])\n"
          "weights = np.array([frequencies[w] for w in next_words])\n"
          "coverage = float(weights @ covered / weights.sum())",
          "Checked only each word's first token, as if one element stood for the "
          "vector.",
          ("every token", "all tokens", "subset", "each token", "whole word", "<="),
          ("weight", "round", "bytes")),
    # R HARD
    Wrong("12-change-a-vocabulary", "coverage",
          "kept = used | set(range(256)) | {tok.eot_token}\n"
          "covered = [tok.encode_ordinary(' ' + w)[0] in kept for w in next_words]\n"
          "coverage = float(np.mean(covered))",
          "Two slips: only each word's first token checked, and no frequency "
          "weighting.",
          ("every token", "all tokens", "subset", "weight", "frequency",
           "occurrences"),
          ("round", "bytes")),
    # K HARD
    Wrong("12-change-a-vocabulary", "coverage",
          "covered = [set(tok.encode_ordinary(' ' + w)) <= used for w in "
          "words[:n_words]]\n"
          "coverage = float(np.mean(covered))",
          "Two stale slips: measured the first n_words words (question 5's, all "
          "covered by construction, so 1.0) and without weights.",
          ("next", "next_words", "words[n_words:", "the next", "weight", "frequency"),
          ("first token", "round")),
]
