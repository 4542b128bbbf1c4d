"""Held-out corpus 8: coincidences, written blind.

Written without opening the grader or hint code (lib/embedlab/grading/), the tests
(tests/test_*.py) or the other corpus files (learners.py, right_answers.py, coincidences.py,
heldout*.py). What was read: the lesson, exercise and solution notebooks, the public library
lib/embedlab/*.py (not its grading/ package), and tests/hint_corpus/__init__.py and
check_wrong.py (the entry format and how an entry is run).

A coincidence is an answer-cell method that is WRONG IN GENERAL but gives EXACTLY the right
value with the book's own parameters (the exercise notebooks as handed out): an input used
where another belongs because the two are equal in the book, a number typed from the book's
values, a list's order, a tied/untied or no-position-table assumption that the book's model
happens to satisfy, a default that matches the book's value, and so on. Each
entry's `mistake` says why it is wrong and for which other parameter values it would differ.

`check_wrong.judge(entry)` should say CORRECT for every entry of COINCIDENCES (equal on the
book's inputs); ENTRIES is empty (no plainly wrong answers in this file). When written, all
51 were judged CORRECT on the book's inputs, and each was also run (with the same machinery)
on another set of parameter values, where it differs from the solution or raises; the two
lesson-11 entries that assume a tied design were checked by hand on an untied one, since the
solution's design is tied.

Measured blind (`cd tests && python -m hint_corpus.coincidences heldout8`) at a51ea99-c16c8a0, by a
session that had not read it before: 44 of 51 refused (0 misleading); after two declared cases made
for kinds it showed (lesson 11's design_params on the design with its tying flipped, lesson 12's
p_new_token with three new tokens more), 46. The five accepted: three assume a model kind the
lesson's pool never holds (a table as wide as d, a head as large as the table, h · head_dim = d:
what the lessons themselves teach for the models they use), the seeds swapped in lesson 09 (a
trained run is never drawn again), and a design typed from the book's job (a design is judged by
its own rule, which a typed design that fits passes).
"""

from . import Wrong

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

ENTRIES = []

COINCIDENCES = [
    # ------------------------------------------------------------------ 01 toy table
    Wrong(L01, "n_params",
          "n_params = len(sentence) * len(features)\n",
          "Counts the rows as the words of `sentence` instead of the vocabulary `words`; the two "
          "lists both have 4 entries in the book, but a sentence of another length gives another count.",
          ("words", "vocabulary", "rows", "sentence"), ()),
    Wrong(L01, "batch",
          "batch = E[[word_to_id[w] for w in sentence]]\n",
          "Looks the sentence up in its own table E of question 1 instead of the given `table`; the "
          "two hold the same numbers in the book only, a class variant's `table` differs.",
          ("table", "given", "parameters"), ()),
    Wrong(L01, "cos_pair",
          "a = table[word_to_id[pair[0]]]\n"
          "b = table[word_to_id[pair[1]]]\n"
          "cos_pair = float(a @ b / np.linalg.norm(b))\n",
          "Divides the dot product by the length of only one of the two rows; right only because "
          "the first word's row (horse, [0, 1, 0]) has length 1 in the book.",
          ("norm", "length", "both", "divide"), ()),
    Wrong(L01, "model_table",
          "from embedlab import count_params\n"
          "c = count_params(load_config(model))\n"
          "model_table = c.total - c.non_embedding - c.position_embedding\n",
          "Takes everything that is not a block or a position table, which also counts an untied "
          "output head; GPT-2 ties its head so nothing extra is counted, but for an untied model "
          "(Llama-3-8B) it gives twice the table.",
          ("head", "tied", "untied", "token_embedding", "table"), ()),
    Wrong(L01, "extra_dim_cost",
          "from embedlab import n_tokens\n"
          "extra_dim_cost = n_tokens(model) * extra_features\n",
          "Uses the tokenizer's size where the table's rows (the config's vocab_size) belong; they "
          "are equal for GPT-2, but a padded table (Pythia: 50,277 tokens, 50,304 rows) has more rows.",
          ("vocab_size", "rows", "config", "v"), ()),

    # ------------------------------------------------------------------ 02 lookup vs matmul
    Wrong(L02, "rows_matmul",
          "rows_matmul = np.eye(max(ids) + 1, dtype=np.float32)[ids] @ E\n",
          "Sizes the one-hot matrix by the largest id instead of the table's `table_V` rows; the "
          "book's ids happen to include the last row (7), other ids give a one-hot matrix too "
          "narrow to multiply by E.",
          ("table_v", "rows", "width", "shape", "v"), ()),
    Wrong(L02, "updated_rows",
          "updated_rows = np.unique(batch[0] + batch[1])\n",
          "Joins only the first two sequences of the batch; the book's batch has exactly two, a "
          "batch of more sequences has ids this misses.",
          ("every", "all", "sequence", "batch"), ()),
    Wrong(L02, "batch_flops",
          "batch_flops = 2 * V * d * 1024\n",
          "Types the book's batch of 1024 tokens instead of reading `n_tokens`; another batch size "
          "gives another count.",
          ("n_tokens", "batch", "tokens"), ()),
    Wrong(L02, "one_hot_batch_bytes",
          "one_hot_batch_bytes = n_tokens * V * 4\n",
          "Assumes 4 bytes a number (float32, the book's `precision`) instead of reading the "
          "dtype's itemsize; float64 or float16 give another size.",
          ("precision", "itemsize", "dtype", "bytes"), ()),

    # ------------------------------------------------------------------ 03 counting GPT-2
    Wrong(L03, "linear_params",
          "linear_params = linear_in * linear_out + 4 * linear_in\n",
          "Counts the bias as 4·linear_in, as for an MLP's first layer; right only because the "
          "book's layer goes from 1024 to 4096 = 4·1024, the bias has `linear_out` entries.",
          ("bias", "linear_out", "output"), ()),
    Wrong(L03, "block_params",
          "attention = (d * 3 * d + 3 * d) + (d * d + d)\n"
          "mlp = (linear_in * linear_out + linear_out) + (linear_out * d + d)\n"
          "block_params = attention + mlp + 2 * (2 * d)\n",
          "Reuses question 1's layer (linear_in -> linear_out) as the MLP's first layer; it is "
          "GPT-2 medium's d -> 4d in the book, but the MLP's width comes from the block's own d.",
          ("4d", "4 * d", "mlp", "width", "d"), ()),
    Wrong(L03, "embedding_share",
          "from embedlab import model_shape\n"
          "counts = count_params(load_config(share_model))\n"
          "s = model_shape(load_config(share_model))\n"
          "embedding_share = s.vocab_size * s.hidden_size / counts.total\n",
          "Assumes the token table is `hidden_size` wide instead of reading its size "
          "(counts.token_embedding); true for GPT-2, but OPT-350M's table is 512 wide at d = 1024.",
          ("token_embedding", "table", "width", "count_params"), ()),
    Wrong(L03, "estimate_gap",
          "estimate_gap = 1024 * d + 13 * L * d + 2 * d\n",
          "Types 1024 for the rows of the position table instead of reading the config's context; "
          "GPT-2's is 1024, a model with another context (OPT, 2048) has another table.",
          ("position", "context", "n_positions", "exact"), ()),

    # ------------------------------------------------------------------ 04 modern blocks
    Wrong(L04, "attn_layer",
          "attn_layer = 2 * d * d + 2 * d * h_kv * (d // h)\n",
          "Takes the head width as d // h and the q and o projections as d × d instead of using "
          "the config's head_dim; they agree for Llama 3.2 1B, not for Gemma 7B or Gemma 2.",
          ("head_dim",), ()),
    Wrong(L04, "mlp_layer",
          "s = model_shape(load_config(attn_model))\n"
          "mlp_layer = 3 * s.hidden_size * s.intermediate_size\n",
          "Reads the attention question's model `attn_model` instead of `mlp_model`; both are "
          "Llama 3.2 1B in the book, a class may give two different models.",
          ("mlp_model", "model"), ()),
    Wrong(L04, "vocab_share",
          "c = count_params(load_config(share_model))\n"
          "vocab_share = 2 * c.token_embedding / c.total\n",
          "Counts the head as a copy of the table (2 × token_embedding) instead of reading "
          "c.lm_head; right for Llama-3-8B, wrong for an untied head of another size (a head with "
          "a bias, as Phi-2's).",
          ("lm_head", "head"), ()),
    Wrong(L04, "padding_params",
          "padding_params = (pad_multiple - V % pad_multiple) * d\n",
          "Pads by pad_multiple - V % pad_multiple, which adds a whole pad_multiple of rows when V "
          "is already a multiple (it should add none); GPT-2's 50,257 is not a multiple of 64.",
          ("multiple", "already", "round", "ceil"), ()),

    # ------------------------------------------------------------------ 05 weight tying
    Wrong(L05, "tied_count",
          "tied_count = untied - V * shape.num_heads * shape.head_dim\n",
          "Takes the table's width as h · head_dim instead of d; they are equal for Llama-3-8B "
          "(32 × 128 = 4096), not for a model whose head_dim is its own (Qwen3-30B-A3B: "
          "32 × 128 at d = 2048).",
          ("d", "hidden_size", "width"), ()),
    Wrong(L05, "ties",
          "ties = candidates[-1]\n",
          "Relies on the tied model being the last candidate, as it is in the book; another order "
          "or other candidates give another name.",
          ("tie_word_embeddings", "config", "load_config"), ()),
    Wrong(L05, "ties",
          "ties = min(candidates, key=lambda name: count_params(load_config(name)).total)\n",
          "Picks the smallest model, assuming small models tie their head; true of these three, "
          "but a small untied model (Pythia) or a big tied one (Gemma 7B) breaks it.",
          ("tie_word_embeddings", "config", "tied"), ()),
    Wrong(L05, "state_dict_sum",
          "s = model_shape(load_config(tied_model))\n"
          "V, d, L = s.vocab_size, s.hidden_size, s.num_layers\n"
          "state_dict_sum = 2 * V * d + 1024 * d + L * (12 * d * d + 13 * d) + 2 * d\n",
          "Rebuilds the count with GPT-2's formula and a typed 1024-row position table instead of "
          "count_params; right for GPT-2 small, wrong for a tied model of another family or "
          "context (Gemma, OPT).",
          ("count_params", "total", "position"), ()),

    # ------------------------------------------------------------------ 06 params vs compute
    Wrong(L06, "head_flops",
          "from embedlab import n_tokens\n"
          "head_flops = 2 * d * n_tokens(head_model)\n",
          "Uses the tokenizer's size where the head's rows (the config's vocab_size) belong; equal "
          "for Llama 3.2 1B, but a padded table (Pythia) has more rows than tokens.",
          ("vocab_size", "rows", "v"), ()),
    Wrong(L06, "kaplan_n",
          "kaplan_n = counts.total - 2 * counts.token_embedding\n",
          "Assumes an untied head the size of the table and no position table; right for "
          "Llama-3-8B, wrong for GPT-2 (tied, learned positions).",
          ("lm_head", "position", "tied", "head"), ()),
    Wrong(L06, "head_share_training",
          "n = load_config(share_model)[\"n_ctx\"]\n"
          "attention = c.attention_per_key * n * (n + 1) // 2\n"
          "total = n * (c.input + c.blocks + c.head) + attention\n"
          "head_share_training = n * c.head / total\n",
          "Takes the pass's length from the model's context (n_ctx) instead of the parameter `T`; "
          "GPT-2's context is 1024 = T in the book, another T gives another share.",
          ("t", "tokens", "context"), ()),
    Wrong(L06, "head_share_prompt",
          "attention = c.attention_per_key * 1024 * 1025 // 2\n"
          "total = 1024 * (c.input + c.blocks) + attention + c.head\n"
          "head_share_prompt = c.head / total\n",
          "Types the book's 1024 tokens instead of reading `T`; another prompt length gives "
          "another share.",
          ("t", "tokens"), ()),
    Wrong(L06, "active_params",
          "active_params = counts.total - s.num_layers * (n_experts - k) * 3 * d * d_ff\n",
          "Counts every layer as an expert layer instead of the `moe_layers`; Mixtral's are all "
          "expert layers, a model with dense layers (DeepSeek-V2-Lite's first) skips fewer.",
          ("moe_layers", "layers", "dense"), ()),

    # ------------------------------------------------------------------ 07 memory
    Wrong(L07, "weights_gb_4bit",
          "weights_gb_4bit = count_params(load_config(serve_model)).total * 0.5 / 1e9\n",
          "Counts the serving question's model `serve_model` instead of `weights_model`; both are "
          "Llama-3-8B in the book only.",
          ("weights_model", "model"), ()),
    Wrong(L07, "kv_bytes_per_token",
          "kv_bytes_per_token = 2 * L * h_kv * head_dim * 2\n",
          "Types 2 bytes a number (bf16) instead of reading `cache_precision`; an fp32 or fp8 "
          "cache gives another size.",
          ("cache_precision", "precision", "bytes"), ()),
    Wrong(L07, "gqa_saving_gib",
          "context = config[\"max_position_embeddings\"]\n"
          "full = 2 * L * h * head_dim * 2 * context\n"
          "grouped = 2 * L * h_kv * head_dim * 2 * context\n"
          "gqa_saving_gib = (full - grouped) / 2**30\n",
          "Takes the sequence length from the model's maximum context instead of `gqa_context` "
          "(and types bf16's 2 bytes); Llama-3-8B's maximum is 8192 = gqa_context in the book only.",
          ("gqa_context", "context", "precision"), ()),
    Wrong(L07, "max_batch",
          "max_batch = int((memory - 2 * 8e9) // per_sequence)\n",
          "Prices the weights from the model's nominal '8B' instead of its exact count; the "
          "rounding happens not to change the whole number of sequences here, but it does for "
          "other GPUs or models.",
          ("weights", "count_params", "exact"), ()),

    # ------------------------------------------------------------------ 08 vocabulary size
    Wrong(L08, "embedding_params",
          "embedding_params = 256000 * d\n",
          "Types the book's big vocabulary 256,000 (Gemma's) instead of reading `V_big`; another "
          "vocabulary size gives another table.",
          ("v_big", "vocabulary"), ()),
    Wrong(L08, "extra_head_flops",
          "extra_head_flops = 2 * 2048 * (V_big - V_small)\n",
          "Types the book's width 2048 instead of reading `d`; another width gives another cost.",
          ("d", "width"), ()),
    Wrong(L08, "hindi_single_token_share",
          "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top_hindi) / 100\n",
          "Divides by a typed 100 instead of the number of words checked (n_top); another n_top "
          "gives a share that is not a fraction of the words.",
          ("n_top", "len", "words"), ()),
    Wrong(L08, "hindi_r",
          "hindi = word_counts(\"hi\", n_train)\n"
          "def per_word(tokenizer):\n"
          "    total = sum(len(tokenizer.encode(\" \" + w)) * n for w, n in hindi.items())\n"
          "    return total / sum(hindi.values())\n"
          "hindi_r = per_word(cl100k) / per_word(gpt2)\n",
          "Rebuilds the Hindi word list with `n_train` (question 6's training size) instead of "
          "`n_words`; both are 500 in the book only.",
          ("n_words", "words"), ()),

    # ------------------------------------------------------------------ 09 what rows learn
    Wrong(L09, "n_params",
          "n_params = 2 * V * 16 + (2 * 16 + 1) * 16\n",
          "Types the book's width 16 instead of reading `d`; another width gives another count.",
          ("d", "width"), ()),
    Wrong(L09, "cos_cat",
          "cos_cat = np.zeros(d)\n"
          "for i, w in enumerate(animals + vehicles):\n"
          "    cos_cat[i] = E[cat] @ E[w] / (np.linalg.norm(E[cat]) * np.linalg.norm(E[w]))\n",
          "Sizes the result by the width d instead of the 16 words of animals + vehicles; d is 16 "
          "in the book, another width gives trailing zeros or an IndexError.",
          ("16", "animals", "vehicles", "length", "shape"), ()),
    Wrong(L09, "gap",
          "corpus = make_corpus(n_sentences=n_sentences, seed=seed)\n"
          "run = train_tinylm(corpus, d=d, context=2, tied=False, steps=steps,\n"
          "                   batch_size=batch_size, seed=corpus_seed)\n"
          "E = run.model.E\n"
          "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\n"
          "C = unit @ unit.T\n"
          "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
          "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n",
          "Retrains with the two seeds swapped (the corpus drawn with `seed`, the training with "
          "`corpus_seed`); both are 0 in the book, different seeds give another model.",
          ("seed", "corpus_seed"), ()),

    # ------------------------------------------------------------------ 10 glitch tokens
    Wrong(L10, "padding_rows",
          "padding_rows = 50304 - V\n",
          "Types nanoGPT's padded size 50,304 instead of rounding V up to `pad_multiple`; right "
          "for GPT-2 and 64 only.",
          ("pad_multiple", "round", "multiple"), ()),
    Wrong(L10, "never_cos",
          "rows = run.model.E[-9:]\n"
          "unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
          "C = unit @ unit.T\n"
          "never_cos = C[np.triu_indices(9, k=1)].mean()\n",
          "Takes the last 9 rows (the book's glitch word and 8 reserved rows) instead of `never`; "
          "another n_reserved gives another set of rows.",
          ("never", "n_reserved"), ()),
    Wrong(L10, "partial_tokens",
          "partial_tokens = 0\n"
          "for i in range(tok.n_vocab - 1):\n"
          "    try:\n"
          "        tok.decode_single_token_bytes(i).decode(\"utf-8\")\n"
          "    except UnicodeDecodeError:\n"
          "        partial_tokens += 1\n",
          "Assumes the one special token is the last id (GPT-2's <|endoftext|>) instead of using "
          "token_byte_values(); a tokenizer with several special tokens or gaps (cl100k_base) breaks it.",
          ("special", "token_byte_values", "ordinary"), ()),
    Wrong(L10, "partial_tokens",
          "tok = load_tokenizer(vocab_model)\n"
          "partial_tokens = 0\n"
          "for b in tok.token_byte_values():\n"
          "    try:\n"
          "        b.decode(\"utf-8\")\n"
          "    except UnicodeDecodeError:\n"
          "        partial_tokens += 1\n",
          "Loads the tokenizer named by `vocab_model` (question 1's config) instead of `tokenizer`; "
          "both are GPT-2 in the book, a class may be given cl100k_base.",
          ("tokenizer",), ()),

    # ------------------------------------------------------------------ 11 size a model
    Wrong(L11, "design",
          "V, d = 64000, 1024\n"
          "L = deepest_fit(lambda n: llama_config(vocab_size=V, d=d, num_layers=n, num_heads=16,\n"
          "                                       num_kv_heads=4, d_ff=4 * d, tied=True),\n"
          "                BUDGET).layers\n"
          "design = llama_config(vocab_size=V, d=d, num_layers=L, num_heads=16, num_kv_heads=4,\n"
          "                      d_ff=4 * d, tied=True)\n",
          "Types d = 1024 with 16 heads (64-wide heads) and V = 64,000 from the book's job instead "
          "of building d from `head_dim` and V from `min_vocab_size`; a job with 128-wide heads or "
          "a bigger minimum vocabulary breaks it.",
          ("head_dim", "heads", "min_vocab_size"), ()),
    Wrong(L11, "design_params",
          "design_params = count_params(design).non_embedding + "
          "design[\"vocab_size\"] * design[\"hidden_size\"]\n",
          "Adds the table once to the non-embedding count, which is the total only for a tied "
          "head; an untied design has a second V × d matrix.",
          ("head", "tied", "untied", "total"), ()),
    Wrong(L11, "design_serving_gb",
          "design_serving_gb = serving_memory(design, weights=weights, context=context)[\"total\"] / GB\n",
          "Leaves the cache's precision to serving_memory's default (bf16 for int4 weights) "
          "instead of passing `kv`; an fp8 or fp16 cache in the job gives another size.",
          ("kv", "cache", "precision"), ()),
    Wrong(L11, "design_train_flops",
          "design_train_flops = training_flops(design, 2048).total * (600_000_000_000 // 2048)\n",
          "Types the book's job (600e9 tokens in sequences of 2048) instead of reading "
          "`train_tokens` and `train_context`; another job's training run costs another amount.",
          ("train_tokens", "train_context"), ()),
    Wrong(L11, "other_tying_params",
          "other_tying_params = design_params + design[\"vocab_size\"] * design[\"hidden_size\"]\n",
          "Always adds a head, assuming the design is tied; for an untied design the other tying "
          "removes the head.",
          ("tied", "untied", "tie_word_embeddings"), ()),
    Wrong(L11, "tightest_budget",
          "memory_used = design_serving_gb / BUDGET.max_serving_gb\n"
          "compute_used = design_train_flops / BUDGET.max_train_flops\n"
          "tightest_budget = \"compute\" if compute_used > memory_used else \"memory\"\n",
          "Leaves the parameter budget out of the comparison; a design near its parameter limit "
          "gets the wrong answer.",
          ("parameters", "three", "all"), ()),

    # ------------------------------------------------------------------ 12 change a vocabulary
    Wrong(L12, "added_params",
          "added_params = n_new * d\n",
          "Assumes the table has no spare rows (V = T), a tied head without a bias and rows "
          "hidden_size wide; all true of GPT-2, not of Pythia (padded) or an untied model.",
          ("calculate", "count_params", "padded", "tied", "spare"), ()),
    Wrong(L12, "padding_rows",
          "padding_rows = padded_size(V + n_new, pad_multiple) - (V + n_new)\n",
          "Uses the table's rows V where the tokenizer's size T belongs; GPT-2's are equal, a "
          "padded table (Pythia) has spare rows that take the new ids first.",
          ("t", "n_tokens", "tokens", "spare"), ()),
    Wrong(L12, "p_new_token",
          "grown = resize_tinylm(run.model, 4, \"mean\")\n"
          "probabilities = np.exp(log_softmax(grown.logits(context)))[0]\n"
          "p_new_token = float(probabilities[corpus.vocab_size])\n",
          "Types the book's 4 new tokens instead of reading `n_new`; with another number of new "
          "tokens the softmax shares the mass differently and the probability changes.",
          ("n_new",), ()),
    Wrong(L12, "saved_params",
          "saved_params = (tok.n_vocab - n_keep) * d_trim\n",
          "Ignores `trim_tied`: removes the rows from the table only, right for a tied head, half "
          "the saving for an untied one.",
          ("trim_tied", "tied", "head"), ()),
]
