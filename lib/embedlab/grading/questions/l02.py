"""Exercise 02 `lookup-vs-matmul`: one-hot vectors, the lookup two ways, the backward pass, the cost.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import numpy as np

from embedlab.grading.kinds import (Array, Choice, Function, Hint, Integer, Invariant, Work, positions_hint, ratio,
                                    step)
from embedlab.grading.parts import Alt, Answer, Part, Prod
from embedlab.grading.space import FRESH_INPUTS, Space, equal_to_book
from embedlab.lookup import embedding_backward, one_hot
from embedlab.params import load_config, model_shape

LESSON = "02-lookup-vs-matmul"

# --------------------------------------------------------------------------
# The variant space

TABLE_V = (6, 12)  # rows of questions 2-3's table, inclusive
TABLE_D = (3, 6)  # its columns, inclusive
IDS = (4, 7)  # ids looked up in questions 2-3, inclusive (at least one repeated)
BATCH_B = (2, 3)  # question 6: sequences in the batch, inclusive
BATCH_T = (3, 5)  # tokens per sequence, inclusive
BATCH_V = (8, 16)  # the batch's vocabulary, inclusive (some rows never selected)
# Questions 7-8 count a real model's V and d (shipped configs), not the book's made-up small model;
# not mistral-7b (the same V and d as llama-2-7b)
MODELS = ["gpt2", "gpt2-medium", "pythia-70m", "pythia-160m", "pythia-410m", "pythia-1b", "opt-125m",
          "opt-1.3b", "llama-2-7b", "llama-3.2-1b", "llama-3-8b", "gemma-2b", "phi-2",
          "qwen2.5-0.5b", "smollm2-135m"]
N_TOKENS = [128, 256, 512, 2_048, 4_096, 8_192]  # not the book's 1,024
PRECISIONS = ["float16", "float64", "int8"]  # not the book's float32 (a one-hot matrix fits in int8)

DEFAULTS = {
    "table_seed": 2,
    "table_V": 8,
    "table_d": 4,
    "ids": [5, 1, 5, 7, 0],
    "batch": [[7, 2, 7, 9], [2, 0, 7, 4]],
    "batch_V": 10,
    "V": 32_000,
    "d": 512,
    "n_tokens": 1_024,
    "precision": "float32",
}


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: the small tables, the batches and the token count drawn from the ranges
    and pools; the model and the precision picked so that variants differ (up to the pools' sizes).
    The token count is drawn, not picked: with a model whose V is the book's (llama-2-7b), some
    token counts and precisions give the book's answer, and only a fresh draw can avoid them."""
    table_V = int(rng.integers(TABLE_V[0], TABLE_V[1] + 1))
    ids = rng.integers(0, table_V, size=int(rng.integers(IDS[0], IDS[1] + 1))).tolist()
    batch_V = int(rng.integers(BATCH_V[0], BATCH_V[1] + 1))
    shape = (int(rng.integers(BATCH_B[0], BATCH_B[1] + 1)), int(rng.integers(BATCH_T[0], BATCH_T[1] + 1)))
    model = model_shape(load_config(pick("model", MODELS)))
    return {"table_seed": int(rng.integers(3, 1_000)), "table_V": table_V,
            "table_d": int(rng.integers(TABLE_D[0], TABLE_D[1] + 1)), "ids": ids,
            "batch": rng.integers(0, batch_V, size=shape).tolist(), "batch_V": batch_V,
            "V": model.vocab_size, "d": model.hidden_size, "n_tokens": int(rng.choice(N_TOKENS)),
            "precision": pick("precision", PRECISIONS)}


def table(p: dict) -> np.ndarray:
    """Questions 2-3's table, as the solution builds it."""
    return np.random.default_rng(p["table_seed"]).standard_normal((p["table_V"], p["table_d"])).astype(np.float32)


def answers(p: dict) -> dict:
    """Every non-function answer of a variant, computed here only to vet the variant (`problems`);
    the answer key itself is harvested by running the solution notebook."""
    rows = table(p)[np.array(p["ids"])]
    return {"rows_lookup": rows, "rows_matmul": rows, "updated_rows": np.unique(p["batch"]),
            "batch_flops": 2 * p["V"] * p["d"] * p["n_tokens"],
            "one_hot_batch_bytes": p["n_tokens"] * p["V"] * np.dtype(p["precision"]).itemsize}


def ratio_hints(p: dict) -> dict:
    """{question: [(factor, message), ...]}: the ratio hints of questions 7 and 8 for variant `p`
    (the questions use them, and `problems` checks that no two fire on the same answer)."""
    n, precision = p["n_tokens"], p["precision"]
    b = np.dtype(precision).itemsize
    flops = [(0.5, "a dot product of length V is V multiplications and V additions: 2 FLOPs per weight, "
                   "2·V·d per token"),
             (1 / n, f"that is one token; the batch has {n:,}"),
             (1 / (2 * n), "that is one token, and a dot product is a multiply and an add per term")]
    nbytes = [(8, "that is bits: a byte holds 8 of them")]
    if b != 1:
        nbytes.append((1 / b, f"a {precision} entry takes {b} bytes, not 1"))
    if b not in (1, 8):
        nbytes.append((8 / b, f"{precision}, not float64: {b} bytes per entry"))
    nbytes.append((p["d"] / p["V"], "the one-hot matrix has V columns, not d"))
    return {"batch_flops": flops, "one_hot_batch_bytes": nbytes}


def problems(p: dict) -> list[str]:
    """What makes a drawn variant unusable: a degenerate question, or an answer equal to the book's."""
    out = []
    if not all(0 <= i < p["table_V"] for i in p["ids"]):
        out.append("questions 2-3's ids: one outside the table")
    if len(set(p["ids"])) == len(p["ids"]):
        out.append("questions 2-3's ids: none repeated")
    if len(set(p["ids"])) < 3:
        out.append("questions 2-3's ids: fewer than 3 different rows")
    flat = [i for row in p["batch"] for i in row]
    first_seen = list(dict.fromkeys(flat))
    if not all(0 <= i < p["batch_V"] for i in flat):
        out.append("question 6's batch holds an id outside its vocabulary")
    if len(first_seen) == len(flat):
        out.append("question 6's batch repeats no id")
    if len(first_seen) >= p["batch_V"] - 1:
        out.append("question 6's batch updates (nearly) every row")
    if first_seen == sorted(first_seen):
        out.append("question 6's ids first appear in increasing order")
    for name, hints in ratio_hints(p).items():
        factors = [factor for factor, _ in hints]
        if len({round(f, 12) for f in factors}) < len(factors) or any(np.isclose(f, 1) for f in factors):
            out.append(f"two of {name}'s hints would fire on the same answer")
    if out:
        return out
    mine, book = answers(p), answers(DEFAULTS)
    out += equal_to_book(mine, book)
    for name, hints in ratio_hints(p).items():  # the book's value copied must not earn a hint's advice
        if any(np.isclose(book[name], factor * mine[name], rtol=1e-9, atol=0) for factor, _ in hints):
            out.append(f"the book's {name} is a hinted multiple of this variant's")
    return out


def _describe() -> str:
    return (f"questions 2-3: a float32 table of {TABLE_V[0]} to {TABLE_V[1]} rows and {TABLE_D[0]} to "
            f"{TABLE_D[1]} columns from a seed in 3..999, and {IDS[0]} to {IDS[1]} ids into it, at least "
            f"one repeated and 3 different; question 6: {BATCH_B[0]} to {BATCH_B[1]} sequences of "
            f"{BATCH_T[0]} to {BATCH_T[1]} ids in a vocabulary of {BATCH_V[0]} to {BATCH_V[1]}, with a repeat, "
            f"at least two rows never selected, and ids not first met in increasing order; questions 7-8: "
            f"V and d of one of {len(MODELS)} shipped configs ({', '.join(MODELS)}) and precision one of "
            f"{PRECISIONS}, each different in every variant up to the pool's size, and n_tokens one of "
            f"{N_TOKENS}")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(), fixed={
    "one_hot": FRESH_INPUTS,
    "embedding_backward": FRESH_INPUTS,
    "keeps_sign": "IEEE 754 arithmetic, not the table: a lookup copies -0.0, while the matmul adds "
                  "0 × (other rows) = +0.0 to it and -0.0 + +0.0 is +0.0, so 'lookup' in every variant",
})

# --------------------------------------------------------------------------
# The questions


def _one_hot_cases(rng):
    """Fixed batches, each there for a kind of bug (every seed tests them), then random ones.

    * ``[2, 0, 2]``, V = 4: a repeat, and V past the largest id: a width of ``max(ids) + 1``,
      one column per id (V × n), a loop that sets each id once.
    * ``[0]``, V = 1: a single id in a one-row vocabulary: code that assumes several ids or V > 1.
    * ``[0, 6]``, V = 7: the first and the last row: an off-by-one at V - 1 (``np.eye(V - 1)``).
    * no id at all, V = 5: an empty batch is 0 × V: ``ids.max()``, ``ids[0]``, a shape from the ids.
    * ``[1_499, 0, 1_499]``, V = 1,500: a larger vocabulary's last id, twice: a table of a fixed
      size (``np.eye(1000)``, 1,024 columns). (Not an id past int16's 32,767: np.eye(V)[ids], a
      right answer, would then build a V × V matrix of 8.6 GB.)
    * ``[255, 0]`` as uint8, V = 256: the dtype's largest value: ``ids + 1`` or ``max(ids) + 1``
      computed in uint8 wraps to 0.
    * ``[65, 165, 5, 65]``, V = 170: ids whose decimal forms overlap (cases.blind_spots): 165 ends with 65, 65 with 5, out of order, 65 twice: ids handled as text.
    """
    cases = [(np.array([2, 0, 2]), 4), (np.array([0]), 1), (np.array([0, 6]), 7),
             (np.array([], dtype=np.int64), 5), (np.array([1_499, 0, 1_499]), 1_500),
             (np.array([255, 0], dtype=np.uint8), 256), (np.array([65, 165, 5, 65]), 170)]
    for V, n in ((5, 8), (30, 12), (200, 3)):
        cases.append((rng.integers(0, V, size=n), V))
    return cases


def _backward_cases(rng):
    """Fixed cases, each there for a kind of bug (every seed tests them), then random ones: every
    random case repeats an id too, so a version that drops repeats cannot pass on any seed.

    * ``[1, 3, 1, 1]``, V = 5: an id three times, not side by side: ``G[ids] += grad_out`` or
      ``G[ids] = grad_out`` (one repeat kept), a table of ``max(ids) + 1`` rows (4, not 5).
    * ``[4, 0, 4]``, V = 5: the largest id, twice: a table of V - 1 rows, an off-by-one at V - 1.
    * one id, V = 3: a single position (``grad_out`` of one row): code that assumes several.
    * no id, V = 4: an empty batch leaves every row 0: ``ids.max()``, a shape from the ids.
    * ``[1_499, 7, 1_499]``, V = 1,500: a larger vocabulary's last id, twice: a table of a fixed
      size. (Not past int16: one_hot(ids, V).T @ grad_out, a right answer, would need np.eye of
      V × V.)
    * ``[0, 2, 0, 2]`` with d = 1: a single column: code that assumes a wider ``grad_out``.
    * ``[65, 165, 5, 65]``, V = 170: ids whose decimal forms overlap (cases.blind_spots): 165 ends with 65, 65 with 5, out of order, 65 twice: ids handled as text.
    """
    cases = [(np.array([1, 3, 1, 1]), np.array([[0.5, -1.0], [2.0, 0.25], [-1.5, 1.0], [1.0, 3.0]]), 5),
             (np.array([4, 0, 4]), np.arange(1.0, 7.0).reshape(3, 2), 5),
             (np.array([2]), np.array([[0.5, -1.0, 2.0]]), 3),
             (np.array([], dtype=np.int64), np.zeros((0, 3)), 4),
             (np.array([1_499, 7, 1_499]), np.array([[1.0], [3.0], [5.0]]), 1_500),
             (np.array([0, 2, 0, 2]), np.array([[1.0], [2.0], [3.0], [4.0]]), 3),
             (np.array([65, 165, 5, 65]), np.array([[1.0, -2.0, 0.5], [3.0, 0.0, 1.0], [-1.0, 1.0, 2.0],
                                                    [0.5, 0.5, -4.0]]), 170)]
    for V, n, d in ((4, 10, 3), (6, 6, 2), (50, 60, 4)):
        ids = rng.integers(0, V, size=n)
        ids[-1] = ids[0]                                   # at least one repeat
        cases.append((ids, rng.standard_normal((n, d)), V))
    return cases


def _drops_repeats(got, want):
    """Right rows non-zero, wrong sums: the signature of G[ids] = g or G[ids] += g."""
    return got.shape == want.shape and np.array_equal(got != 0, want != 0) and not np.allclose(got, want)


def _overwritten(got, ids, g, V):
    """`got` is what G[ids] = g (or G[ids] += g, the same from zeros) leaves: one repeat kept."""
    g = np.asarray(g, dtype=float)
    G = np.zeros((V, g.shape[-1]))
    G[np.asarray(ids)] = g
    return np.asarray(got).shape == G.shape and np.allclose(got, G)


def _is_transposed(got, want):
    return got.ndim == 2 and got.shape == want.shape[::-1]


def _proven_columns(got, E, ids) -> bool:
    """Is `got` the columns of E at the ids (E[:, ids], or its transpose), exactly? Only then are columns indexed."""
    try:
        cols = np.asarray(E)[:, list(ids)]
    except (IndexError, TypeError, ValueError):
        return False
    got = np.asarray(got)
    return any(got.shape == c.shape and np.array_equal(got, c) for c in (cols, cols.T))


def _rows_one_hot(got, ids, V):
    got = np.asarray(got)
    return got.ndim == 2 and got.shape[0] == len(ids) and np.isin(got, (0, 1)).all() and (got.sum(axis=1) == 1).all()


ONE_HOT_INVARIANTS = [
    Invariant(lambda got, ids, V: np.asarray(got).shape == (len(ids), V),
              "one row per id and one column per vocabulary entry: shape (len(ids), V)"),
    Invariant(lambda got, ids, V: np.isin(np.asarray(got), (0, 1)).all(), "a one-hot matrix holds only 0s and 1s"),
    Invariant(lambda got, ids, V: (np.asarray(got).sum(axis=1) == 1).all(),
              "each row holds exactly one 1: row t is all 0s but a 1 in column ids[t] (index rows and columns "
              "together: pair row t with column ids[t])"),
    Invariant(lambda got, ids, V: (np.asarray(got)[np.arange(len(ids)), np.asarray(ids)] == 1).all(),
              "each row has its one 1 in the wrong column: row t's 1 goes in column ids[t] (ids count from 0)"),
]


def _gradient_invariants(ids_of, grads_of):
    """What every embedding gradient holds: E's shape, zero rows for ids not in the batch, and every
    gradient row added in full (the rows of the result sum to the rows of the upstream gradient)."""
    return [
        Invariant(lambda got, *a: np.asarray(got).shape == (a[-1], grads_of(*a).shape[-1]),
                  "the gradient of E has E's shape: (vocabulary size, d)"),
        Invariant(lambda got, *a: np.allclose(np.delete(np.asarray(got), np.unique(ids_of(*a)), axis=0), 0),
                  "a row whose id is not in the batch gets exactly zero gradient: only the rows looked up get one"),
        Invariant(lambda got, *a: np.allclose(np.asarray(got).sum(axis=0),
                                              grads_of(*a).reshape(-1, grads_of(*a).shape[-1]).sum(axis=0)),
                  "every gradient row must be added in full to its id's row: a repeated id gets the sum of its "
                  "rows (not their mean, nor one of them), so the result's rows sum to the incoming gradient's"),
    ]


BACKWARD_INVARIANTS = _gradient_invariants(lambda ids, g, V: np.asarray(ids), lambda ids, g, V: np.asarray(g))


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    hints = ratio_hints(p)
    rows_shape = lambda q: (len(q["ids"]), q["table_d"])  # noqa: E731
    return [
        Function("one_hot", reference=one_hot, cases=_one_hot_cases, invariants=ONE_HOT_INVARIANTS,
                 result=Array("one_hot", exact=True, hints=[
            Hint(_is_transposed, "one row per id and one column per vocabulary entry: shape (len(ids), V)"),
        ])),
        Array("rows_lookup", exact=True, shape=rows_shape, hints=[
            Hint(lambda got, want: _is_transposed(got, want) and np.array_equal(got, np.asarray(want).T),
                 f"that is the right rows transposed: yours has shape (d, n) = ({p['table_d']}, {len(p['ids'])}), one "
                 f"column per id; the answer is (n, d) = ({len(p['ids'])}, {p['table_d']}), one row per id (E[ids] "
                 f"as it is, no .T)"),
            Hint(lambda got, want: _proven_columns(got, table(p), p["ids"]),
                 "one row per id: index the rows of E, not its columns"),
            positions_hint(lambda: table(p), p["ids"]),
        ]),
        Array("rows_matmul", exact=True, shape=rows_shape, hints=[
            step(lambda: np.eye(p["table_V"])[p["ids"]], "the one-hot matrix of the ids (a row per id, a 1 in the "
                 "id's column)", "multiply it by E, one_hot @ E: the product picks each id's row of E"),
            Hint(_is_transposed, "transposed: one_hot(ids, V) goes on the left, one_hot @ E: "
                                 "(len(ids) × V) @ (V × d)"),
            Hint(lambda got, want: got.shape[-1] != want.shape[-1],
                 "the result has d columns, one per feature of a row"),
            positions_hint(lambda: table(p), p["ids"]),
        ], own_work={Work("@", "E"): (
            "rows picked by index are the lookup of question 2 again; this question asks for the other path, the "
            "one-hot matrix of the ids times the whole table")}),
        Choice("keeps_sign", options=("lookup", "matmul", "both"), hints=[
            Hint(lambda got, want: got == "both",
                 "-0.0 == 0.0 is True, so == cannot tell the two zeros apart: look at the sign bit (np.signbit); "
                 "the matmul's sum also holds 0 × (a positive number) = +0.0, and -0.0 + +0.0 is +0.0"),
            Hint(lambda got, want: got == "matmul",
                 "the matmul's sum holds 0 × (a positive number) = +0.0 beside the 1 × -0.0, and -0.0 + +0.0 is "
                 "+0.0: a sum does not copy the bits of -0.0; look at the sign bit of its result (np.signbit), "
                 "not at =="),
            Hint(lambda got, want: got not in ("lookup", "matmul", "both"),
                 "answer with one word: lookup, matmul or both"),
        ]),
        Function("embedding_backward", reference=embedding_backward, cases=_backward_cases,
                 invariants=BACKWARD_INVARIANTS, product="one_hot(ids, V)ᵀ @ grad_out, (V × n) @ (n × d)",
                 result=Array("embedding_backward", hints=[
                     Hint(lambda got, want, ids, g, V: _overwritten(got, ids, g, V),
                          "the right rows, but a repeated id lost part of its gradient: "
                          "G[ids] = g and G[ids] += g keep one repeat; np.add.at adds them all", args=True),
                     Hint(_is_transposed, "the gradient of E has E's shape: (V, d)"),
                 ])),
        Array("updated_rows", exact=True, hints=[
            Hint(lambda got, want: got.ndim == 1 and np.unique(got).size < got.size,
                 "list each updated row once, however many times its id occurs"),
            Hint(lambda got, want: got.ndim == 1 and got.size > want.size and np.isin(want, got).all(),
                 "a row whose id is not in the batch gets a gradient of exactly zero: it cannot change; "
                 "with an untied head only the rows looked up change"),
            # the complement said only where the rows are exactly it; rows merely outside the batch, as measured
            Hint(lambda got, want: got.ndim == 1 and got.size and np.array_equal(
                np.sort(got), np.setdiff1d(np.arange(p["batch_V"]), want)),
                 "none of these is in the batch: those are the rows that do not appear (the complement); "
                 "give the rows whose ids the batch holds"),
            Hint(lambda got, want: got.ndim == 1 and got.size and not np.isin(got, want).any(),
                 "none of these is in the batch: give the rows whose ids the batch holds"),
            Hint(lambda got, want: got.ndim == 1 and 0 < got.size < want.size and np.isin(got, want).all(),
                 "only some of the rows: take the ids of the whole batch, every sequence"),
            Hint(lambda got, want: got.shape == want.shape and not np.array_equal(np.sort(got), got),
                 "give the rows in increasing order"),
        ]),
        Integer("batch_flops", hints=[
            Hint(lambda got, want: got == 0, "0 FLOPs is the lookup's cost (a row copied: no multiply, no add): the "
                                             "question asks for the one-hot matmul's, one_hot @ E"),
            *[ratio(*hint) for hint in hints["batch_flops"]]], parts=lambda: Answer(Prod(
            "the one-hot matmul", [
                Part("FLOPs per weight", 2, "a multiply and an add: 2 FLOPs per weight",
                     missing="a multiply and an add per weight: 2 FLOPs, so 2·V·d per token (you have 1)"),
                Part("V", p["V"], "the one-hot row's length: the matmul sums over the vocabulary",
                     missing="the one-hot matmul sums over the whole vocabulary: 2·V·d per token, not what the "
                             "lookup copies (d)",
                     alts=[Alt(p["V"] - 0.5, "the course counts 2 FLOPs per weight (a multiply-add each): "
                                             "2·V·d per token, not V multiplies and V − 1 adds")]),
                Part("d", p["d"]), Part("tokens", p["n_tokens"], "n_tokens",
                                        missing=f"that is one token; the batch has {p['n_tokens']:,}")],
            # another formula of the lesson given whole (the lookup's copy): one change, named as that formula,
            # never as two slips of this one ("you have 1 FLOP per weight" where no weight is multiplied)
            alts=[Alt(p["n_tokens"] * p["d"], "n_tokens · d is what the lookup copies (d numbers per token), not "
                                              "arithmetic: the one-hot matmul sums over all V rows, 2·V·d FLOPs per "
                                              "token, times n_tokens")])),
            inputs=lambda: {"V": p["V"], "d": p["d"], "n_tokens": p["n_tokens"]}),
        Integer("one_hot_batch_bytes", hints=[ratio(*hint) for hint in hints["one_hot_batch_bytes"]],
                parts=lambda: Answer(Prod("the one-hot batch", [
                    Part("tokens", p["n_tokens"], "n_tokens rows", missing=(
                        "that is one token's one-hot row: the batch has n_tokens rows")),
                    Part("V", p["V"], "one column per vocabulary entry", alts=[
                        Alt(p["d"], "the one-hot matrix has V columns, not d")]),
                    Part("bytes per entry", np.dtype(p["precision"]).itemsize, p["precision"], missing=(
                        f"that counts entries, not bytes: a {p['precision']} entry takes "
                        f"{np.dtype(p['precision']).itemsize} bytes"), alts=[
                        Alt(v, f"a {p['precision']} entry takes {np.dtype(p['precision']).itemsize} bytes, not {v}")
                        for v in (1, 2, 4, 8) if v != np.dtype(p["precision"]).itemsize])]),
                    inputs={"n_tokens": p["n_tokens"], "V": p["V"], "d": p["d"]}),
                recheck=lambda: [one_hot_recheck(p)]),
    ]


def one_hot_recheck(p: dict) -> tuple[dict, int, str]:
    """Question 6 in another precision: a cell that types the bytes per entry (4 for float32) rather
    than reading them from precision gives the book's bytes for every precision."""
    size = np.dtype(p["precision"]).itemsize
    other = "float64" if size != 8 else "float16"
    n = np.dtype(other).itemsize
    return ({"n_tokens": p["n_tokens"], "V": p["V"], "d": p["d"], "precision": other, ".itemsize": n},
            p["n_tokens"] * p["V"] * n, f"with precision = {other!r}")


QUESTIONS = questions(DEFAULTS)

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/02-lookup-vs-matmul.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "one_hot": "1. A one-hot vector selects a row",
    "rows_lookup": "2. The same rows, bit for bit",
    "rows_matmul": "2. The same rows, bit for bit",
    "keeps_sign": "2. The same rows, bit for bit",
    "embedding_backward": "6. The backward pass: which rows get a gradient",
    "updated_rows": "6. The backward pass: which rows get a gradient",
    "batch_flops": "3. What each path costs, counted",
    "one_hot_batch_bytes": "3. What each path costs, counted",
}
