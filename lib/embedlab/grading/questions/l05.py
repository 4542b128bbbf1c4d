"""Exercise 05 `weight-tying`: the tied gradient, counting shared arrays once, who ties.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import numpy as np

from embedlab.grading.kinds import Array, Choice, Function, Hint, Integer, Invariant, divided_where_it_does_not_belong, offset
from embedlab.grading.parts import Alt, Answer, Part, Prod, Sum
from embedlab.grading.space import FRESH_INPUTS, Space, equal_to_book
from embedlab.params import count_params, load_config, model_shape

LESSON = "05-weight-tying"

# --------------------------------------------------------------------------
# The variant space

# Shipped configs that state tie_word_embeddings (question 4 tells learners to read that field).
# Untied dense models whose head is a plain V × d matrix (not Phi's: its head has a bias of its own,
# which tying would keep), for question 1 and as question 4's wrong choices.
UNTIED = ["llama-2-7b", "mistral-7b", "olmo-2-1124-7b", "phi-3-mini-4k", "pythia-70m", "pythia-160m",
          "pythia-410m", "pythia-1b", "pythia-1.4b", "pythia-2.8b", "pythia-6.9b", "pythia-12b",
          "qwen2.5-7b", "qwen3-8b", "llama-3-8b"]
# Tied models, for question 4's right choice and question 5. Not OPT-350m (its table is 512 wide,
# projected up to its 1,024-wide blocks: which width counts is not this lesson's point).
TIED = ["gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl", "opt-125m", "opt-1.3b", "gemma-2b", "gemma-7b",
        "llama-3.2-1b", "llama-3.2-3b", "qwen2.5-0.5b", "qwen3-0.6b", "smollm2-135m"]
TOY_V = (5, 9)  # question 2's vocabulary, inclusive
TOY_D = (2, 4)  # question 2's width, inclusive
TOY_IDS = (4, 6)  # how many ids question 2 looks up, inclusive (at least one repeated)
SEEDS = (0, 999)  # question 2's seed, inclusive

DEFAULTS = {
    "untied_model": "llama-3-8b",
    "seed": 5,
    "toy_V": 6,
    "toy_d": 3,
    "token_ids": [4, 1, 4, 0],
    "candidates": ["llama-3-8b", "mistral-7b", "llama-3.2-1b"],
    "tied_model": "gpt2",
}


def _others(pool: list, book: str) -> list:
    return [name for name in pool if name != book]


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: the models picked so that variants differ (up to the pools' sizes), the
    toy problem of question 2 drawn from its ranges, question 4's two wrong choices from UNTIED."""
    V = int(rng.integers(TOY_V[0], TOY_V[1] + 1))
    d = int(rng.integers(TOY_D[0], TOY_D[1] + 1))
    ids = rng.integers(0, V, size=int(rng.integers(TOY_IDS[0], TOY_IDS[1] + 1))).tolist()
    right = pick("ties", _others(TIED, "llama-3.2-1b"))
    candidates = rng.permutation(rng.choice(UNTIED, 2, replace=False).tolist() + [right]).tolist()
    return {"untied_model": pick("untied_model", _others(UNTIED, DEFAULTS["untied_model"])),
            "seed": int(rng.integers(SEEDS[0], SEEDS[1] + 1)), "toy_V": V, "toy_d": d, "token_ids": ids,
            "candidates": candidates, "tied_model": pick("tied_model", _others(TIED, DEFAULTS["tied_model"]))}


def tied_problem(p: dict = DEFAULTS):
    """The toy problem of question 2, exactly as the solution notebook builds it from `p`."""
    rng = np.random.default_rng(p["seed"])
    V, d = p["toy_V"], p["toy_d"]
    ids = np.array(p["token_ids"])
    x = rng.normal(size=(len(ids), d))          # last hidden vectors
    dlogits = rng.normal(size=(len(ids), V))    # gradient of the loss w.r.t. the logits x @ E.T
    dx0 = rng.normal(size=(len(ids), d))        # gradient of the loss w.r.t. the looked-up rows x0 = E[ids]
    return V, d, ids, x, dlogits, dx0


def gradient_paths(p: dict = DEFAULTS):
    """Question 2's output path, input path, and the input path with repeated ids overwritten."""
    V, d, ids, x, dlogits, dx0 = tied_problem(p)
    out = dlogits.T @ x
    inp = np.zeros((V, d))
    np.add.at(inp, ids, dx0)
    overwritten = np.zeros((V, d))
    overwritten[ids] += dx0                     # fancy-index += drops repeated ids
    return out, inp, overwritten


def _table(name: str) -> int:
    shape = model_shape(load_config(name))
    return shape.vocab_size * shape.hidden_size


def _table_shape(name: str) -> tuple[int, int]:
    """(V, d) of a model's token table."""
    shape = model_shape(load_config(name))
    return shape.vocab_size, shape.hidden_size


def ties_of(p: dict) -> str:
    """Question 4's answer: the one candidate whose config says tie_word_embeddings."""
    return next(name for name in p["candidates"] if load_config(name)["tie_word_embeddings"])


def answers(p: dict) -> dict:
    """Every non-function answer of a variant, computed here only to vet the variant (`problems`);
    the answer key itself is harvested by running the solution notebook."""
    V, d, ids, x, dlogits, dx0 = tied_problem(p)
    grad_E = dlogits.T @ x                      # as the solution sums it, to the last bit
    np.add.at(grad_E, ids, dx0)
    return {"tied_count": count_params(load_config(p["untied_model"])).total - _table(p["untied_model"]),
            "grad_E": grad_E, "ties": ties_of(p),
            "state_dict_sum": count_params(load_config(p["tied_model"])).total + _table(p["tied_model"])}


def problems(p: dict) -> list[str]:
    """What makes a drawn variant unusable: a degenerate question, or an answer equal to the book's."""
    out = []
    if len(set(p["token_ids"])) == len(p["token_ids"]):
        out.append("no id repeats (question 2 exists to catch `grad[ids] += dx0` dropping a repeat)")
    if len(set(p["token_ids"])) < 2:
        out.append("a single token looked up again and again")
    if not all(0 <= i < p["toy_V"] for i in p["token_ids"]):
        out.append("an id outside the vocabulary")
    tied = [name for name in p["candidates"] if load_config(name)["tie_word_embeddings"]]
    if len(p["candidates"]) != 3 or len(set(p["candidates"])) != 3 or len(tied) != 1:
        out.append("question 4 needs three different models, exactly one of them tied")
    if load_config(p["untied_model"])["tie_word_embeddings"] or not load_config(p["tied_model"])["tie_word_embeddings"]:
        out.append("question 1's model must be untied and question 5's tied")
    if out:
        return out
    mine, book = answers(p), answers(DEFAULTS)
    out += equal_to_book(mine, book)
    return out


def _describe() -> str:
    return (f"untied_model: one of {len(UNTIED) - 1} untied shipped configs ({', '.join(_others(UNTIED, 'llama-3-8b'))}); "
            f"question 2's toy problem: toy_V {TOY_V[0]} to {TOY_V[1]}, toy_d {TOY_D[0]} to {TOY_D[1]}, "
            f"{TOY_IDS[0]} to {TOY_IDS[1]} token_ids, at least two different and one repeated, seed {SEEDS[0]} to {SEEDS[1]}; "
            f"candidates: two of the untied configs and one of {len(TIED) - 1} tied ones "
            f"({', '.join(_others(TIED, 'llama-3.2-1b'))}), in a random order; tied_model: one of the "
            f"tied configs but GPT-2 small; each model different in every variant up to its pool's size")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(),
              fixed={"count_unique": FRESH_INPUTS})

# --------------------------------------------------------------------------
# The questions


def _letters(name: str) -> str:
    """A model name without case, spaces, dots or dashes: "Llama 3.2 1B" -> "llama321b"."""
    return "".join(ch for ch in str(name).lower() if ch.isalnum())


def _close(got, want):
    return got.shape == want.shape and np.allclose(got, want)


def count_unique(storage, sizes):
    """Reference: entry i points at storage[i] and has sizes[i] parameters; count each storage once."""
    storage, sizes = np.asarray(storage), np.asarray(sizes)
    _, first = np.unique(storage, return_index=True)
    return int(sizes[first].sum())


def _state_dicts(rng):
    """State dicts as (storage id per entry, size per entry): tied entries share a storage id.

    Fixed ones first, each there for a kind of bug (every seed tests them), then random ones
    whose storage ids range up to 10**6.

    * ``[0, 1, 0]``, ``[40, 16, 40]``: the head tied to the embedding: ``sum(sizes)`` (96).
    * ``[0, 1, 2]``, ``[40, 16, 40]``: the head copied, same size (96): each distinct *size* once (56).
    * ``[8, 3, 8]``: a storage id of 8: a table of 8 slots (``used = [False] * 8``) raises,
      one indexed by the entry's position counts wrong.
    * ``[1_048_583, 7, 1_048_583]``: a storage id past any table of fixed size, 16·2**16 + 7: a
      table of 256, 1,000 or 65,536 slots raises; ids cast to int16 or uint16 make it 7, one
      storage with the block's (50 instead of 59).
    * ``[3, 9, 3, 0, 9]``: repeats that are not side by side: comparing each id with the one before.
    * ``[5, 5, 5, 5]``: one storage four times: removing one repeat only.
    * one entry, and no entry at all (0): ``storage[0]``, ``max(storage)``, a table sized from the ids.
    * Llama-3.1-405B's table (2,101,346,304 > 2**31) tied, and a block: 2,101,346,304 +
      2,000,000,000 > 2**32: a running total in int32 (``np.int32``, ``np.zeros(n, np.int32)``) wraps.
    * ``[165, 65, 5, 165, 65]``: ids whose decimal forms overlap (cases.blind_spots): 165 ends with 65, 65 with 5, out of order, 65 twice: storages remembered as text (``str(s) in seen``) find 65 inside 165.
    """
    cases = [(np.array([0, 1, 0]), np.array([40, 16, 40])),            # embed, block, head tied to embed
             (np.array([0, 1, 2]), np.array([40, 16, 40])),            # head copied: its own storage
             (np.array([8, 3, 8]), np.array([40, 16, 40])),
             (np.array([1_048_583, 7, 1_048_583]), np.array([50, 9, 50])),
             (np.array([3, 9, 3, 0, 9]), np.array([5, 11, 5, 2, 11])),
             (np.array([5, 5, 5, 5]), np.array([7, 7, 7, 7])),
             (np.array([4]), np.array([12])),
             (np.array([], dtype=np.int64), np.array([], dtype=np.int64)),
             (np.array([0, 1, 0]), np.array([2_101_346_304, 2_000_000_000, 2_101_346_304])),
             (np.array([165, 65, 5, 165, 65]), np.array([3, 20, 7, 3, 20]))]
    for _ in range(5):
        n = int(rng.integers(1, 12))
        ids = rng.choice(1_000_000, size=max(1, n - 2), replace=False)  # the storages, anywhere
        storage = ids[rng.integers(0, len(ids), size=n)]                # some entries share storage
        sizes_of = dict(zip(ids.tolist(), rng.integers(1, 10_000, size=len(ids)).tolist()))
        cases.append((storage, np.array([sizes_of[int(s)] for s in storage])))
    return cases


def _gpt2_qkv_biases(name: str) -> int:
    """The q/k/v biases of a GPT-2 (lesson 03 leaves them out at first); 0 for other families."""
    config = load_config(name)
    return 3 * config["n_layer"] * config["n_embd"] if config["model_type"] == "gpt2" else 0


COUNT_INVARIANTS = [
    Invariant(lambda got, storage, sizes: got >= int(np.max(sizes)),
              "less than the largest tensor alone: a count of parameters adds the size of every storage, each "
              "once; recheck that you add sizes (not storage ids, not a count of storages) and drop no storage, "
              "a shared one included"),
    Invariant(lambda got, storage, sizes: got <= int(np.sum(sizes)),
              "more than all the sizes added: count each storage's size once"),
    Invariant(lambda got, storage, sizes: got <= count_unique(storage, sizes) or got >= int(np.sum(sizes))
              or not _repeats_added(got, storage, sizes),
              "some shared storages are still counted more than once: count each storage once, every repeat "
              "of every storage (not only some)", reads=("storage",)),
    # too big, but by no sum of repeats' sizes: the sizes added are not the storages' own (no repeat to blame)
    Invariant(lambda got, storage, sizes: got <= count_unique(storage, sizes) or got >= int(np.sum(sizes)),
              "more than each storage counted once, less than every entry's size added: count each "
              "storage's size exactly once (entries that share a storage are one tensor), and leave none out"),
]


def _repeats_added(got, storage, sizes, limit: int = 4096) -> bool:
    """Is `got` the right count plus the sizes of some repeats (entries whose storage came earlier), each storage
    repeated at most as often as it repeats? The proof that repeats are counted; False past `limit` sums."""
    extra = int(got) - count_unique(storage, sizes)
    repeats: dict = {}
    seen = set()
    for s, z in zip(np.asarray(storage).tolist(), np.asarray(sizes).tolist()):
        if s in seen:
            repeats[s] = (int(z), repeats.get(s, (0, 0))[1] + 1)
        seen.add(s)
    sums = {0}
    for z, r in repeats.values():
        sums = {t + k * z for t in sums for k in range(r + 1) if t + k * z <= extra}
        if len(sums) > limit:
            return False
    return extra > 0 and extra in sums


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    table = _table(p["untied_model"])
    out, inp, overwritten = gradient_paths(p)
    untied_choices = [name for name in p["candidates"] if not load_config(name)["tie_word_embeddings"]]
    tied_total, tied_table = count_params(load_config(p["tied_model"])).total, _table(p["tied_model"])
    qkv = _gpt2_qkv_biases(p["tied_model"])
    shape = model_shape(load_config(p["untied_model"]))
    untied = count_params(load_config(p["untied_model"])).total
    return [
        Integer("tied_count", hints=[
            offset(table, f"that is {p['untied_model']} as released, untied: remove the head, take one V × d "
                          "table away"),
            offset(-table, "you took both away, the head and the table (two V × d matrices): tying removes only the "
                           "head's matrix, once, not twice; the model keeps its one table E, which serves as the head too"),
        ], parts=lambda: Answer(Sum("the tied count", [
            Part("the untied count", untied, can_drop=False, can_double=False),
            Prod("minus the head", [Part("minus", -1, can_drop=False, can_double=False),
                                    Part("V", shape.vocab_size, "rows"),
                                    Part("d", shape.hidden_size, "the width", missing=(
                                        "that takes away V numbers: the head is a whole V × d matrix, V·d"))],
                 missing=f"that is {p['untied_model']} as released, untied: remove the head, subtract one V × d "
                         "table")])),
            inputs=lambda: {"the vocabulary size V (vocab_size)": shape.vocab_size, "the width d": shape.hidden_size}),
        Array("grad_E", shape=lambda q: (q["toy_V"], q["toy_d"]), hints=[
            Hint(lambda got, want: _close(got, out), "that is the output path only: add what flows back through the lookup"),
            Hint(lambda got, want: _close(got, inp), "that is the input path only: add the output path dlogits.T @ x"),
            Hint(lambda got, want: _close(got, out + overwritten),
                 "an id appears twice in ids: `grad[ids] += dx0` keeps only one of them, use np.add.at"),
            Hint(lambda got, want: _close(got, (out + inp) / 2),
                 "the tied gradient is the sum of both paths: add them, do not average them"),
            Hint(lambda got, want: _close(got, overwritten),
                 "that is the input path only, and `grad[ids] += dx0` keeps one repeat of an id: add the output "
                 "path dlogits.T @ x, and use np.add.at for the lookup's"),
            Hint(lambda got, want: _close(got, out - inp) or _close(got, inp - out),
                 "the tied gradient is the sum of both paths: add them, do not subtract one"),
            *divided_where_it_does_not_belong(
                {"the output path (dlogits.T @ x)": out, "the input path (the np.add.at of dx0)": inp},
                len(p["token_ids"]), "len(ids), the batch size",
                "dlogits and dx0 already are the loss's gradients (any mean is in them), so nothing divides here"),
        ]),
        Function("count_unique", reference=count_unique, cases=_state_dicts, invariants=COUNT_INVARIANTS,
                 quantities=("sizes",),
                 result=Integer("count_unique", hints=[
            Hint(lambda got, want, storage, sizes: got == int(np.sum(sizes)),
                 "that is sum(sizes), every entry: entries that share a storage are one tensor; count each storage once",
                 args=True),
            Hint(lambda got, want, storage, sizes: got == int(np.sum(np.unique(sizes))),
                 "that counts each distinct size once; count each distinct storage once (two tensors can have one size)",
                 args=True),
        ]), points=2),
        Choice("ties", hints=[
            Hint(lambda got, want: got in untied_choices, "look at tie_word_embeddings in that model's config"),
            Hint(lambda got, want: _letters(got) == _letters(want),
                 "the right model, spelled differently: give its name exactly as the question writes it"),
            Hint(lambda got, want: got not in p["candidates"],
                 "answer with one of the three names the question gives, spelled as it spells them"),
        ]),
        Integer("state_dict_sum", hints=[
            Hint(lambda got, want: got == tied_total,
                 "that is the true count; the question asks what the naive sum over names gives: it counts the "
                 "tied table twice, once under each of its two names"),
            Hint(lambda got, want: qkv > 0 and got == tied_total + tied_table - qkv,
                 "that figure is lesson 03's count of an untied GPT-2 without its q/k/v biases; "
                 "start from this model's own count (count_params)"),
        ], parts=lambda: Answer(Sum("the naive sum", [
            Part("the true count", tied_total, can_drop=False,
                 twice="the whole model counted twice: only the tied table appears under two names, so add V·d "
                       "(one matrix) once more"),
            Part("the tied table again", tied_table, "V·d, under its second name",
                 twice="your sum adds V·d twice to the true count, where the naive "
                       "sum adds it once (for the table's second name): the table is "
                       "then in it three times, not two",
                 missing="your sum counts the tied table once, as the true count does: the naive sum over the names "
                         "meets it under each of its two names, so it adds V·d a second time", alts=[
                Alt(-tied_table, "the naive sum adds the tied table a second time (its two names): add V·d, do not "
                                 "subtract it"),
                Alt(count_params(load_config(p["tied_model"])).position_embedding,
                    "the entry listed twice is the token table (V × d), the tied head's: not the position table")])])),
            inputs=lambda: dict(zip(("V", "d"), _table_shape(p["tied_model"])))),
    ]


QUESTIONS = questions(DEFAULTS)

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/05-weight-tying.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "tied_count": "2. What tying saves",
    "grad_E": "3. The gradient of a tied matrix",
    "count_unique": "5. Two counting traps",
    "ties": "4. Which real models tie",
    "state_dict_sum": "5. Two counting traps",
}
