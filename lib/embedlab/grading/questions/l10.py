"""Exercise 10 `glitch-tokens`: padding rows, impossible bytes, the under-training score, never-seen rows of a tied model,
and a real tokenizer's tokens that are fragments of a character.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import functools
import math

import numpy as np

from embedlab.grading.elsewhere import Elsewhere
from embedlab.grading.kinds import (Array, Function, Hint, Integer, Real, offset, padding_blocks, padding_rechecks,
                                    related)
from embedlab.grading.parts import Alt, Answer, Part, Sum
from embedlab.grading.space import FRESH_INPUTS, Space, equal_to_book
from embedlab.grading.verdicts import untold_slips
from embedlab.params import available_models, load_config
from embedlab.undertrained import unused_scores

LESSON = "10-glitch-tokens"


def _score_cases(rng):
    """Fixed matrices, each there for a kind of bug (every seed tests them), then random matrices
    with a planted cluster of alike rows; the reference is part of the cluster.

    * a 4 × 2 matrix of rows of lengths 1, 2, 4.24 and 1, reference row 0: a dot product not
      divided (by the rows' lengths, the mean's or both), the mean of every row.
    * the same matrix as ints: a row divided in place (numpy refuses on an int array).
    * 5 × 3, reference rows 1 and 4 (the last row): only the first reference row used, the
      reference read as ``M[ids[0]:ids[-1]]`` (a range, one short).
    * a single row (1 × 3), its own reference: score 1: code that assumes several rows.
    * 170 × 4 (drawn once, the same on every seed), reference rows [165, 65, 5]: ids whose decimal forms
      overlap (cases.blind_spots), out of order: a reference taken as a range or as text.
    """
    cases = [(np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [-1.0, 0.0]]), [0]),
             (np.array([[1, 0], [0, 2], [3, 3], [-1, 0]]), [0]),
             (np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 2.0], [0.0, 2.0, 2.0]]), [1, 4]),
             (np.array([[0.5, -1.0, 2.0]]), [0]),
             (np.random.default_rng(165).normal(size=(170, 4)), [165, 65, 5])]
    for n, d, n_unused in ((10, 3, 3), (30, 8, 5), (74, 16, 9)):
        M = rng.normal(size=(n, d))
        direction = rng.normal(size=d)
        M[n - n_unused:] = 2 * direction + 0.3 * rng.normal(size=(n_unused, d))
        reference = list(range(n - n_unused, n - n_unused + 2))
        cases.append((M, reference))
    return cases


def _cosines_with(M, mean):
    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))


def _mean_of_cosines(M, ref):
    unit = M / np.linalg.norm(M, axis=1, keepdims=True)
    return (unit @ unit[ref].T).mean(axis=1)


def _with_unit_mean(M, ref):
    """Question 3 with the reference rows normalised before their mean is taken."""
    M = np.asarray(M, dtype=float)
    unit = M / np.linalg.norm(M, axis=1, keepdims=True)
    return _cosines_with(M, unit[ref].mean(axis=0))


def _same(got, value):
    got, value = np.asarray(got), np.asarray(value)
    return got.shape == value.shape and np.allclose(got, value, rtol=1e-9, atol=1e-12)


# Hints on one call unused_score(M, reference_ids): (got, want, M, reference_ids) -> bool.
SCORE_HINTS = [
    # a cell that takes a norm did not return the bare dot product, though on a mean of length 1 its value
    # is the same as one divided by the mean's length only: then the next hint names it
    Hint(lambda got, want, M, ref: _same(got, M @ M[ref].mean(axis=0)),
         "that is the dot product with the mean: a cosine divides by both lengths (row and mean)", args=True,
         unless="norm|normalize|sqrt|cosine|cosine_similarity"),
    Hint(lambda got, want, M, ref: _same(got, M @ M[ref].mean(axis=0) / np.linalg.norm(M[ref].mean(axis=0))),
         "divide by each row's length too, not only the mean's", args=True),
    Hint(lambda got, want, M, ref: _same(got, M @ M[ref].mean(axis=0) / np.linalg.norm(M, axis=1)),
         "divide by the mean's length too, not only each row's", args=True),
    Hint(lambda got, want, M, ref: _same(got, _cosines_with(M, M.mean(axis=0))),
         "that is the mean of every row; take the mean of the reference rows only, M[reference_ids]", args=True),
    Hint(lambda got, want, M, ref: np.abs(np.asarray(got)).max() > 1 + 1e-9,
         "a cosine lies between -1 and 1: normalise (divide by the lengths)"),
]


# --------------------------------------------------------------------------
# The variant space

PAD_MULTIPLES = [64, 128, 256, 512, 1024]
TOKENIZERS = ["cl100k_base"]      # the other real tokenizer shipped (embedlab.tokenizers)
N_RESERVED = [6, 7, 9, 10]         # which rows never occur: the reserved ids at the table's end
STEPS = [800, 1000, 1200]
SEEDS = range(1, 100)

DEFAULTS = {
    "vocab_model": "gpt2",
    "pad_multiple": 64,
    "corpus_seed": 0,
    "n_reserved": 8,
    "steps": 1000,
    "seed": 0,
    "tokenizer": "gpt2",
}


def padding(p: dict) -> tuple[int, int]:
    """(V, padded V) of question 1: the shipped config's vocabulary rounded up to pad_multiple."""
    V, m = load_config(p["vocab_model"])["vocab_size"], p["pad_multiple"]
    return V, -(-V // m) * m


def _padding_problems(p: dict) -> list[str]:
    V, padded = padding(p)
    m = p["pad_multiple"]
    if padded == V:
        return [f"{p['vocab_model']}'s V is a multiple of {m}: no padding"]
    if V % m == padded - V:
        return ["padding_rows equals V % pad_multiple: the hint cannot tell them apart"]
    if padded - V == padding(DEFAULTS)[1] - padding(DEFAULTS)[0]:
        return ["padding_rows equals the book's"]
    return []


# Question 1's models and multiples, grouped by the padding they give: every usable pair of a
# shipped config (not the book's) and a multiple, under its answer. A variant picks an answer
# first, so that up to len(PADDINGS) variants all have different padding_rows.
PADDINGS: dict[int, list[tuple[str, int]]] = {}
for _model in available_models():
    for _multiple in PAD_MULTIPLES:
        _p = dict(DEFAULTS, vocab_model=_model, pad_multiple=_multiple)
        if _model != DEFAULTS["vocab_model"] and not _padding_problems(_p):
            PADDINGS.setdefault(padding(_p)[1] - padding(_p)[0], []).append((_model, _multiple))
PADDINGS = dict(sorted(PADDINGS.items()))
VOCAB_MODELS = sorted({model for pairs in PADDINGS.values() for model, _ in pairs})


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: question 1's padding (a different number of rows per variant, up to
    len(PADDINGS)) and a model and multiple that give it, the corpus and training seeds, how many
    reserved rows never occur, the steps, and the other real tokenizer."""
    pairs = PADDINGS[pick("padding_rows", list(PADDINGS))]
    model, multiple = pairs[int(rng.integers(len(pairs)))]
    return {"vocab_model": model, "pad_multiple": multiple,
            "corpus_seed": int(rng.choice(SEEDS)), "n_reserved": int(rng.choice(N_RESERVED)),
            "steps": int(rng.choice(STEPS)), "seed": int(rng.choice(SEEDS)),
            "tokenizer": pick("tokenizer", TOKENIZERS)}


@functools.lru_cache(maxsize=64)
def _corpus(corpus_seed: int, n_reserved: int):
    from embedlab import make_corpus

    return make_corpus(n_sentences=3000, seed=corpus_seed, n_reserved=n_reserved)


@functools.lru_cache(maxsize=64)
def _trained(corpus_seed: int, n_reserved: int, steps: int, seed: int):
    """Questions 4 and 5's corpus and trained tied model (as the solution trains it)."""
    from embedlab import train_tinylm

    corpus = _corpus(corpus_seed, n_reserved)
    run = train_tinylm(corpus, tied=True, optimizer="adam", lr=1e-2, steps=steps, batch_size=128, seed=seed)
    return corpus, run


def trained(p: dict):
    return _trained(p["corpus_seed"], p["n_reserved"], p["steps"], p["seed"])


def reference_ids(p: dict) -> list:
    """The reference rows of question 5: the first four reserved tokens."""
    corpus = _corpus(p["corpus_seed"], p["n_reserved"])
    return [int(i) for i in list(corpus.groups["reserved"])[:4]]


@functools.lru_cache(maxsize=4)
def partial_count(tokenizer: str) -> tuple[int, int]:
    """(fragments, ordinary tokens) of a real tokenizer: tokens whose bytes are not UTF-8 on their own."""
    from embedlab import load_tokenizer

    tokens = load_tokenizer(tokenizer).token_byte_values()
    bad = 0
    for b in tokens:
        try:
            b.decode("utf-8")
        except UnicodeDecodeError:
            bad += 1
    return bad, len(tokens)


@functools.lru_cache(maxsize=8)
def single_byte_fragments(tokenizer: str) -> int:
    """The ordinary tokens of one byte that do not decode on their own (the bytes from 0x80 up)."""
    from embedlab import load_tokenizer

    return sum(len(b) == 1 and b[0] >= 0x80 for b in load_tokenizer(tokenizer).token_byte_values())


@functools.lru_cache(maxsize=8)
def high_byte_count(tokenizer: str) -> int:
    """The ordinary tokens of a real tokenizer with any byte from 0x80 up (fragments and whole characters alike)."""
    from embedlab import load_tokenizer

    return sum(any(x >= 0x80 for x in b) for b in load_tokenizer(tokenizer).token_byte_values())


@functools.lru_cache(maxsize=8)
def bytes_never_used(top: int) -> int:
    """Question 2 with only the code points below `top` encoded: the byte values none of them uses."""
    used = {b for c in range(top) if not 0xD800 <= c <= 0xDFFF for b in chr(c).encode("utf-8")}
    return 256 - len(used)


def top7_with_all_reserved(p: dict) -> list:
    """Question 6 ranked against the mean of every reserved row (not the first four), leaving out the first
    four or every reserved row: the top 7 a learner gets who takes the whole reserved group as reference."""
    corpus, run = trained(p)
    reserved = [int(i) for i in corpus.groups["reserved"]]
    scores = unused_scores(run.model.E, reserved)
    out = []
    for left_out in (reference_ids(p), reserved):
        order = [i for i in np.argsort(-scores, kind="stable") if i not in left_out]
        out.append(np.array(order[:7]))
    return out


def top7_ranked(p: dict, start: int) -> np.ndarray:
    """Question 5's ranking with the reference rows left out, 7 rows from position `start` (0: the answer)."""
    corpus, run = trained(p)
    reference = reference_ids(p)
    scores = unused_scores(run.model.E, reference)
    return np.array([i for i in np.argsort(-scores, kind="stable") if i not in reference][start:start + 7])


def top7_dropped_after(p: dict) -> np.ndarray:
    """Question 5's top 7 taken first and the reference rows dropped from it after: fewer than seven ids."""
    corpus, run = trained(p)
    reference = reference_ids(p)
    scores = unused_scores(run.model.E, reference)
    return np.array([i for i in np.argsort(-scores, kind="stable")[:7] if i not in reference])


def answers(p: dict) -> dict:
    """Every answer that varies, computed here only to vet the variant (`problems`); the key
    itself is harvested by running the solution notebook."""
    V, padded = padding(p)
    corpus, run = trained(p)
    never = list(corpus.groups["never"])
    unit = run.model.E[never] / np.linalg.norm(run.model.E[never], axis=1, keepdims=True)
    C = unit @ unit.T
    reference = reference_ids(p)
    scores = unused_scores(run.model.E, reference)
    order = [i for i in np.argsort(-scores, kind="stable") if i not in reference]
    return {"padding_rows": padded - V, "never_cos": float(C[np.triu_indices(len(never), k=1)].mean()),
            "top7": np.array(order[:7]), "partial_tokens": partial_count(p["tokenizer"])[0]}


def problems(p: dict) -> list[str]:
    """What makes a variant unusable: the lesson's point not shown (the never-seen rows not alike, or
    not the top candidates), slips the hints cannot tell apart, or an answer equal to the book's."""
    out = _padding_problems(p)
    if p["vocab_model"] not in VOCAB_MODELS + [DEFAULTS["vocab_model"]] or p["tokenizer"] not in TOKENIZERS + ["gpt2"]:
        out.append("a model or tokenizer outside its pool")
    if out:
        return out
    mine = answers(p)
    corpus, _ = trained(p)
    candidates = set(corpus.groups["never"]) - set(reference_ids(p))
    if not mine["never_cos"] > 0.5:
        out.append(f"never_cos is {mine['never_cos']:.3f}: the never-seen rows did not become alike")
    if set(mine["top7"][:len(candidates)].tolist()) != candidates:
        out.append("the never-seen rows are not the top candidates")
    if out:
        return out
    book = answers(DEFAULTS)
    out += equal_to_book(mine, book, skip=("never_cos", "padding_rows"))  # padding_rows: checked above
    out += equal_to_book({"never_cos": mine["never_cos"]}, book, rtol=1e-6)  # judged to 6 significant figures
    out += untold_slips(questions(p), mine, slips(p))
    return out


def _describe() -> str:
    return (f"vocab_model and pad_multiple: one of {len(VOCAB_MODELS)} shipped configs "
            f"({', '.join(VOCAB_MODELS)}) and one of {PAD_MULTIPLES}, giving one of {len(PADDINGS)} padding_rows "
            f"({', '.join(map(str, PADDINGS))}), a different one in every variant up to that number (a pair with "
            f"no padding, or padding equal to V % pad_multiple or to the book's, is never used); corpus_seed and "
            f"seed: 1 to 99; n_reserved: one of {N_RESERVED}; "
            f"steps: one of {STEPS}; tokenizer: {', '.join(TOKENIZERS)} (the other real tokenizer shipped). "
            f"A variant whose never-seen rows do not end up alike (mean cosine above 0.5) and at the top of "
            f"the under-training score is drawn again")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(), fixed={
    "invalid_bytes": "a property of UTF-8 itself (RFC 3629): the same 256-byte alphabet in every variant",
    "unused_score": FRESH_INPUTS,
})

# --------------------------------------------------------------------------
# The questions


ONE_NORM = ("each dot product divided by one row's length only: a cosine divides by both lengths (normalise every "
            "row first, then take the dot products)")


def one_norm_cosines(p: dict) -> tuple[float, float]:
    """Question 4 with each pair's dot product divided by one of the two lengths only (the row's, or the
    column's: `D / norms` broadcast one way or the other), its pairs i < j averaged as asked."""
    corpus, run = trained(p)
    rows = run.model.E[list(corpus.groups["never"])]
    dots, norms = rows @ rows.T, np.linalg.norm(rows, axis=1)
    pairs = np.triu_indices(len(rows), k=1)
    return float((dots / norms[None, :])[pairs].mean()), float((dots / norms[:, None])[pairs].mean())


def pair_cosines(p: dict, initial: bool = False, every_row: bool = False) -> float:
    """Question 4's mean cosine over pairs i < j, of the never-seen rows (or of every row), of the trained run's
    table (or of its rows as initialised, run.initial: the run's own, so no second model is trained)."""
    corpus, run = trained(p)
    table = run.initial["E"] if initial else run.model.E
    rows = table if every_row else table[list(corpus.groups["never"])]
    unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    return float((unit @ unit.T)[np.triu_indices(len(rows), k=1)].mean())


# A row's length is taken along axis 1: norms along axis 0 measure the columns (lessons 09 and 10).
ROW_NORMS = {"norm(axis=0)|normalize(axis=0)": "your code takes norms along axis=0, down the columns: a row's length "
                                               "is along axis=1 (normalise each row on its own)"}


def never_cos_elsewhere(ns: dict) -> list:
    """Question 2 with one reserved row fewer (never and n_reserved both one smaller, as a corpus with one
    reserved token fewer has them): a count of rows typed from these inputs (the pairs of 9 rows) is
    wrong there; len(never), or n_reserved + 1, is not. The corpus and the trained run stay the notebook's
    (`keeps`): the rows left are the same rows."""
    never, reserved = list(ns["never"]), set(ns["corpus"].groups["reserved"])
    dropped = next((i for i in reversed(never) if i in reserved), None)
    if dropped is None or len(never) < 3:
        return []
    never.remove(dropped)
    rows = np.asarray(ns["run"].model.E)[never]
    unit = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    want = float((unit @ unit.T)[np.triu_indices(len(never), k=1)].mean())
    return [Elsewhere({"never": never, "n_reserved": int(ns["n_reserved"]) - 1}, want,
                      f"with one reserved row fewer ({len(never)} never-seen rows)",
                      "count the rows from the list itself (len(never)), not a number typed from these inputs",
                      kind="real", keeps=("corpus", "run"))]


def top7_elsewhere(ns: dict) -> list:
    """Question 3 with other reference rows: three of the four, and the row the notebook's ranking puts
    last. A cell that takes the highest rows first and drops the reference ones after assumes every
    reference row is among them; here one is not."""
    E, reference = np.asarray(ns["run"].model.E), list(ns["reference"])
    last = int(np.argsort(-unused_scores(E, reference), kind="stable")[-1])
    other = reference[:3] + [last]
    scores = unused_scores(E, other)
    want = np.array([i for i in np.argsort(-scores, kind="stable") if i not in other][:7])
    return [Elsewhere({"reference": other}, want, "with other reference rows (one of them scoring low)",
                      "leave the reference rows out of the ranking first, then take the 7 highest: a reference row "
                      "need not be among the highest")]


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    V, padded = padding(p)
    m = p["pad_multiple"]
    n = len(_corpus(p["corpus_seed"], p["n_reserved"]).groups["never"])
    ordinary = lambda: partial_count(p["tokenizer"])[1]  # noqa: E731 - read only when a hint is tried
    return [
        Integer("padding_rows", hints=[
            Hint(lambda got, want: got == padded, "that is the padded size; the question asks how many rows were added"),
            padding_blocks(V, m, "V"),
            Hint(lambda got, want: got == V % m,
                 "that is the remainder V % pad_multiple, how far V is past a multiple: the padding is what is "
                 "missing up to the next multiple (round up)"),
        ], parts=lambda: Answer(Sum("the rows added", alts=[Alt(V % m, (
            "that is the remainder V % pad_multiple, how far V is past a multiple: the padding is what is missing "
            "up to the next multiple (round up)"))], children=[
            Part("the padded size", padded, "V rounded up to a multiple of pad_multiple", alts=[
                Alt(V // m * m, "that rounds down: the padded size is V rounded up to the next multiple of "
                                "pad_multiple"),
                Alt(2 ** math.ceil(math.log2(V)), "that pads to the next power of two: pad to the next multiple "
                                                  "of pad_multiple")]),
            Part("minus V", -V, can_double=False, missing="that is the padded size; the question asks how many rows "
                                                          "were added (the difference)")])),
            reads=("vocab_model", p["vocab_model"]), recheck=lambda: padding_rechecks(V, m)),
        Integer("invalid_bytes", hints=[
            Hint(lambda got, want: got == 2, "C0 and C1 are two of them; count F5 to FF too"),
            related(lambda want: 256 - want, "that counts the byte values UTF-8 does use: the question asks for "
                                             "the others, the ones that never appear (256 minus those)"),
            offset(-2, "you left out C0 and C1 (they would only start over-long encodings)"),
            offset(-1, "F5 to FF is 11 values, both ends included: range(0xF5, 0xFF) stops before 0xFF "
                       "(an off-by-one; range(0xF5, 0x100))"),
            offset(5, "the lead bytes F0 to F4 of four-byte sequences are valid too: encode every code point up "
                      "to 0x10FFFF (range(0x110000), surrogates left out)"),
            *[related(lambda want, top=top: bytes_never_used(top), f"that encodes only the code points below {top:#x}: "
                      "encode every code point below 0x110000 (surrogates left out): each byte value some code "
                      "point uses is valid") for top in (0x100, 0x800, 0x10000)],
            related(128, "that counts every byte from 0x80 up (the bytes ASCII, the code points below 0x80, never "
                         "uses): most of those appear in UTF-8's multi-byte characters (0x80-0xBF are continuation bytes, "
                         "0xC2-0xF4 lead bytes); "
                         "only the byte values no encoding ever uses count"),
            Hint(lambda got, want: got > want + 5, "too many: some of the bytes you count do appear in UTF-8 text (a "
                                                   "byte that any code point's encoding uses is valid): recheck which "
                                                   "byte values you counted (the lead and continuation bytes of "
                                                   "multi-byte characters appear too)"),
        ]),
        Function("unused_score", reference=unused_scores, cases=_score_cases, quantities=("M",),
                 distinct=("reference_ids",),
                 own_work={"unused_scores": "the question asks you to write the score yourself, with numpy "
                                            "(call `unused_scores` afterwards, in a cell of your own, to compare)"},
                 result=Array("unused_score", hints=[
                     Hint(lambda got, want, M, ref: _same(got, _mean_of_cosines(M, ref)),
                          "that averages the cosines with each reference row: take the mean row first (the mean "
                          "of the rows M[reference_ids]), then one cosine with it", args=True),
                     Hint(lambda got, want, M, ref: _same(got, _with_unit_mean(M, ref)),
                          "that takes the mean of the reference rows normalised first (each made length 1): the "
                          "reference direction is the mean of the rows as they are, M[reference_ids].mean(axis=0)",
                          args=True),
                     Hint(lambda got, want: np.allclose(np.asarray(got), 1 - np.asarray(want)),
                          "that is the cosine distance (1 − cosine); return the cosine itself"),
                     *SCORE_HINTS,
                     Hint(lambda got, want: np.asarray(got).ndim != 1,
                          "return one score per row: a 1-D array of length M.shape[0]"),
                 ])),
        Real("never_cos", sig=6, reads=("never",), other_inputs=never_cos_elsewhere, not_reads={
            "reserved": "your code reads `reserved`: the never-seen rows are `never`, the reserved rows and the "
                        "glitch word"},
             needs={"norm|normalize|cosine_similarity|cosine": "average cosines, not dot products: normalise each "
                                                               "row (divide by its length, np.linalg.norm)",
                    "<|>|!=|triu_indices|triu": "leave out each row's cosine with itself (the diagonal): only pairs "
                                                "of different rows"}, avoids=ROW_NORMS, hints=[
            Hint(lambda got, want: math.isclose(got, (n + n * (n - 1) * want) / n ** 2, rel_tol=1e-6)
                 or math.isclose(got, (n + n * (n - 1) / 2 * want) / (n * (n + 1) / 2), rel_tol=1e-6),
                 "leave out each row's cosine with itself (the diagonal): only pairs of different rows"),
            # "before training" only when the value is the untrained rows' (the run at step 0), and "every row" only
            # when it is the mean over all pairs of run.model.E: each proven by its value, never "near 0"
            related(lambda want: pair_cosines(p, initial=True), "that is the value before training, the rows as "
                                                            "initialised: take the rows of the trained run, run.model.E",
                    rel=1e-6),
            related(lambda want: pair_cosines(p, every_row=True), "that averages the pairs of every row of "
                                                                  "run.model.E: take only the never-seen rows, "
                                                                  "run.model.E[never]", rel=1e-6),
            *[related(lambda want, i=i: one_norm_cosines(p)[i], ONE_NORM, rel=1e-6) for i in (0, 1)],
        ]),
        Array("top7", exact=True, shape=lambda p: (7,), ids=True, avoids=ROW_NORMS, other_inputs=top7_elsewhere, needs={
            "norm|normalize|unused_scores|unused_score|cosine|cosine_similarity": (
                "rank by the cosine with the reference mean (unused_scores, or normalise each row): a dot product "
                "lets long rows win")}, hints=[
            Hint(lambda got, want: np.asarray(got).shape == (7,) and (np.asarray(got) == np.asarray(want)[::-1]).all(),
                 "reversed: the most suspicious row (highest cosine) comes first"),
            Hint(lambda got, want: np.asarray(got).shape == (7,) and any(
                np.array_equal(np.asarray(got), other) for other in top7_with_all_reserved(p)),
                 "that ranks against the mean of every reserved row: the reference rows are the first four reserved "
                 "tokens only (reference_ids), and only those are left out of the ranking"),
            Hint(lambda got, want: np.asarray(got).shape == (7,)
                 and set(np.asarray(got).tolist()) == set(np.asarray(want).tolist()),
                 # the set of the top 7 with another order: not proven to be a sort direction (the exact reversal is
                 # named above), so the order is said to be not the score's, and which score
                 "the right rows in the wrong order: not the order of their scores; rank them by the cosine with the "
                 "reference rows' mean, highest first"),
            Hint(lambda got, want: np.isin(np.asarray(got), reference_ids(p)).any(),
                 "leave the four reference rows out: they score high against their own mean"),
            # "after" only when the ids are exactly the top 7 with the reference rows then dropped; other ids of the
            # answer, fewer than seven, are said as measured
            Hint(lambda got, want: np.asarray(got).ndim == 1 and np.asarray(got).size < 7
                 and np.array_equal(np.asarray(got), top7_dropped_after(p)),
                 "fewer than seven: exclude the reference rows before taking the top 7, not after"),
            Hint(lambda got, want: np.asarray(got).ndim == 1 and np.asarray(got).size < 7
                 and np.isin(np.asarray(got), np.asarray(want)).all(),
                 "fewer than seven: the question asks for the 7 highest-scoring rows"),
            *[Hint(lambda got, want, k=k: np.array_equal(np.asarray(got), top7_ranked(p, k)),
                   f"those are the rows ranked {k + 1} to {k + 7} once the reference rows are left out: the top 7 "
                   f"start at the highest score (your slice skips the first {k})") for k in range(1, 8)],
            Hint(lambda got, want: np.asarray(got).shape == (7,) and not np.isin(np.asarray(got), np.asarray(want)).any(),
                 "none of these is among the highest scores: sort highest first (np.argsort(-scores), or reverse)"),
        ]),
        Integer("partial_tokens", avoids={
            "errors=ignore|errors=replace|errors=backslashreplace|errors=surrogateescape": (
                "errors='ignore' never raises, so nothing fails: decode strictly (the default, errors='strict') "
                "and count the tokens that raise")},
            needs={"decode|UnicodeDecodeError": (
                "a fragment is a token whose bytes do not decode as UTF-8 on their own: decode each token (merged "
                "multi-byte ones too, not only single bytes) and count those that fail")}, hints=[
            # a byte from 0x80 up is in every multi-byte character: the tokens holding one whole still decode
            Hint(lambda got, want: got == high_byte_count(p["tokenizer"]) and got != want,
                 "that counts every token with a byte from 0x80 up; a token that holds whole multi-byte characters "
                 "decodes fine: count only those whose bytes fail .decode('utf-8')", proven=True),
            Hint(lambda got, want: got == single_byte_fragments(p["tokenizer"]) and got != want,
                 "those are only the single-byte tokens (0x80-0xFF): merged tokens that stop or start partway "
                 "through a character do not decode on their own either: decode every token of `ordinary`",
                 proven=True),
            offset(-128, "you left out the 128 single-byte tokens 0x80-0xFF: none decodes on its own (most are "
                         "pieces of a character; the others, question 2's bytes, never occur in valid UTF-8 at "
                         "all)"),
            Hint(lambda got, want: got == 13, "those are the byte values that never occur at all; count every token "
                                              "whose bytes are not valid UTF-8 on their own"),
            offset(-13, "you left out the 13 single-byte tokens that never occur in valid UTF-8 (0xC0, 0xC1, "
                        "0xF5-0xFF): they do not decode on their own either, so they count"),
            Hint(lambda got, want: got in (ordinary() - want, ordinary() + 1 - want),
                 "that counts the tokens that do decode; count the ones that fail"),
            Hint(lambda got, want: got > want, "too many: count only the tokens of `tokenizer` (its ordinary "
                                               "tokens, tok.token_byte_values()) whose bytes fail .decode('utf-8')"),
        ]),
    ]


QUESTIONS = questions(DEFAULTS)


def slips(p: dict) -> list:
    """Usual slips for one variant: (question, wrong value, words its hint must contain)."""
    want = answers(p)
    V, padded = padding(p)
    corpus, run = trained(p)
    n = len(corpus.groups["never"])
    reference = reference_ids(p)
    scores = unused_scores(run.model.E, reference)
    fragments, ordinary = partial_count(p["tokenizer"])
    top7 = want["top7"]
    return [
        ("padding_rows", padded, "padded size"),
        ("padding_rows", V % p["pad_multiple"], "past a multiple"),
        ("invalid_bytes", 2, "count F5 to FF"),
        ("invalid_bytes", 11, "C0 and C1"),
        ("invalid_bytes", 12, "11 values"),
        ("never_cos", (n + n * (n - 1) * want["never_cos"]) / n ** 2, "diagonal"),
        ("never_cos", pair_cosines(p, initial=True), "before training"),  # the rows as initialised
        ("never_cos", pair_cosines(p, every_row=True), "every row"),
        ("top7", top7[::-1], "reversed"),
        ("top7", top7[[1, 0, 2, 3, 4, 5, 6]], "wrong order"),
        ("top7", np.argsort(-scores, kind="stable")[:7], "reference rows out"),
        ("top7", np.array([i for i in np.argsort(scores, kind="stable") if i not in reference][:7]),
         "sort highest first"),
        ("partial_tokens", fragments - 128, "single-byte tokens"),
        ("partial_tokens", 13, "never occur at all"),
        ("partial_tokens", ordinary - fragments, "do decode"),
        ("partial_tokens", fragments + 1, "too many"),
    ]

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/10-glitch-tokens.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "padding_rows": "6. The same rows in GPT-2's vocabulary",
    "invalid_bytes": "6. The same rows in GPT-2's vocabulary",
    "unused_score": "5. Detecting under-trained rows from the matrix alone",
    "never_cos": "4. Tied: the softmax moves rows that never occur",
    "top7": "5. Detecting under-trained rows from the matrix alone",
    "partial_tokens": "6. The same rows in GPT-2's vocabulary",
}
