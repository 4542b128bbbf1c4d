"""Exercise 01 `toy-table`: build a table, count it, look rows up, compare them.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import math

import numpy as np

from embedlab.grading.elsewhere import Elsewhere
from embedlab.grading.kinds import Array, Function, Hint, Integer, Invariant, Real, lesson_example, ratio, related, rows_by, step
from embedlab.grading.parts import Alt, Answer, Extra, Part, Prod, Sum
from embedlab.params import count_params
from embedlab.grading.space import FRESH_INPUTS, Space, equal_to_book
from embedlab.params import load_config, model_shape
from embedlab.vectors import cosine_similarity

LESSON = "01-toy-table"

# --------------------------------------------------------------------------
# The variant space

# What each word of the pool is; a variant's `traits` are these, cut to its features.
FACTS = {
    "cat": ["animal", "pet"], "dog": ["animal", "pet"], "horse": ["animal", "farm"],
    "cow": ["animal", "farm"], "wolf": ["animal", "wild"], "eagle": ["animal", "wild", "flies"],
    "parrot": ["animal", "pet", "flies"], "hen": ["animal", "farm", "flies"],
    "car": ["object", "wheels"], "bike": ["object", "wheels"], "plane": ["object", "flies", "wheels"],
    "kite": ["object", "flies"], "hammer": ["object"],
    "apple": ["food", "fruit", "sweet"], "lemon": ["food", "fruit"], "cake": ["food", "sweet"],
    "bread": ["food"],
}
FEATURES = ["object", "animal", "pet", "farm", "wild", "flies", "wheels", "food", "fruit", "sweet"]
WORDS = (4, 6)  # words per table, inclusive
FEATURE_COUNT = (3, 5)  # features per table, inclusive
SENTENCE = (3, 5)  # words in the sentence to look up, inclusive
STRENGTH = (0, 3)  # the values of question 3's table, inclusive
# Real configs shipped in embedlab/data; not GPT-2 small (the book's), not OPT-350m (its table
# is 512 wide, projected up to its 1,024-wide blocks: which width counts is not this lesson's point)
MODELS = ["gpt2-medium", "gpt2-large", "gpt2-xl", "pythia-70m", "pythia-160m", "pythia-410m",
          "pythia-1b", "opt-125m", "opt-1.3b", "llama-2-7b", "llama-3.2-1b", "llama-3-8b", "mistral-7b",
          "gemma-2b", "phi-2", "qwen2.5-0.5b", "smollm2-135m"]
EXTRA_FEATURES = [8, 12, 24, 32, 48, 64, 96, 128]  # not the book's 16 (GPT-2 medium's V × 16 is the book's answer)

# The tables the lesson notebook (notebooks/01-toy-table.ipynb) builds itself: a learner may type one in
LESSON_E = np.array([[0, 1], [0, 1], [1, 0]])
LESSON_E2 = np.array([[0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 0]])

DEFAULTS = {
    "words": ["cat", "dog", "horse", "car"],
    "features": ["object", "animal", "pet"],
    "traits": {"cat": ["animal", "pet"], "dog": ["animal", "pet"], "horse": ["animal"], "car": ["object"]},
    "sentence": ["horse", "cat", "horse", "dog"],
    "table": [[0, 1, 1], [0, 1, 1], [0, 1, 0], [1, 0, 0]],
    "pair": ["horse", "dog"],
    "model": "gpt2",
    "extra_features": 16,
}


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: words and features from the pools, the rest drawn to fit them; the
    model and the extra features picked so that variants differ (up to the pools' sizes)."""
    n_features = int(rng.integers(FEATURE_COUNT[0], FEATURE_COUNT[1] + 1))
    features = sorted(rng.choice(FEATURES, n_features, replace=False).tolist(), key=FEATURES.index)
    usable = [w for w in FACTS if set(FACTS[w]) & set(features)]
    n_words = min(len(usable), int(rng.integers(WORDS[0], WORDS[1] + 1)))
    words = rng.choice(usable, n_words, replace=False).tolist()
    traits = {w: [f for f in features if f in FACTS[w]] for w in words}
    sentence = rng.choice(words, int(rng.integers(SENTENCE[0], SENTENCE[1] + 1))).tolist()
    table = rng.integers(STRENGTH[0], STRENGTH[1] + 1, size=(n_words, n_features)).tolist()
    pair = rng.choice(words, 2, replace=False).tolist()
    return {"words": words, "features": features, "traits": traits, "sentence": sentence, "table": table,
            "pair": pair, "model": pick("model", MODELS), "extra_features": pick("extra_features", EXTRA_FEATURES)}


def answers(p: dict) -> dict:
    """Every non-function answer of a variant, computed here only to vet the variant (`problems`);
    the answer key itself is harvested by running the solution notebook."""
    E = np.array([[int(f in p["traits"][w]) for f in p["features"]] for w in p["words"]])
    table = np.array(p["table"])
    row = {w: i for i, w in enumerate(p["words"])}
    shape = model_shape(load_config(p["model"]))
    return {"E": E, "n_params": E.size, "batch": table[[row[w] for w in p["sentence"]]],
            "cos_pair": cosine_similarity(table[row[p["pair"][0]]], table[row[p["pair"][1]]]),
            "model_table": shape.vocab_size * shape.hidden_size,
            "extra_dim_cost": shape.vocab_size * p["extra_features"]}


def problems(p: dict) -> list[str]:
    """What makes a drawn variant unusable: a degenerate question, or an answer equal to the book's."""
    out = []
    E = np.array([[int(f in p["traits"][w]) for f in p["features"]] for w in p["words"]])
    if not E.any(axis=1).all():
        out.append("a word has none of the features")
    if not E.any(axis=0).all():
        out.append("a feature no word has")
    if len({tuple(col) for col in E.T}) < E.shape[1]:
        out.append("two features that no word tells apart")
    table = np.array(p["table"])
    if not table.any(axis=1).all() or table.max() < 2:
        out.append("question 3's table has an empty row, or is a 0/1 table")
    # a square table hides the commonest numpy slip: a transposed E, or the batch built down the columns,
    # keeps its shape and runs silently (tests/test_formula_separation.py: the shape audit)
    for name, shape in (("E", E.shape), ("batch", (len(p["sentence"]), table.shape[1]))):
        if shape[0] == shape[1]:
            out.append(f"{name} is square ({shape[0]} × {shape[1]}): a transposed answer keeps its shape")
    if out:
        return out
    mine, book = answers(p), answers(DEFAULTS)
    if not 0.05 < mine["cos_pair"] < 0.95:
        out.append("the pair's cosine is near 0 or 1 (a row of zeros, or parallel rows)")
    return out + equal_to_book(mine, book)


def _describe() -> str:
    return (f"words: {WORDS[0]} to {WORDS[1]} of {len(FACTS)} ({', '.join(FACTS)}); features: "
            f"{FEATURE_COUNT[0]} to {FEATURE_COUNT[1]} of {len(FEATURES)} ({', '.join(FEATURES)}), every word "
            f"having one and no two features alike; sentence: {SENTENCE[0]} to {SENTENCE[1]} of the words; "
            f"question 3's table: whole numbers {STRENGTH[0]} to {STRENGTH[1]}; pair: two of the words, cosine "
            f"between 0.05 and 0.95; model: one of {len(MODELS)} shipped configs ({', '.join(MODELS)}), and "
            f"extra_features: one of {EXTRA_FEATURES}, each different in every variant up to the pool's size")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(),
              fixed={"cosine": FRESH_INPUTS})

# --------------------------------------------------------------------------
# The questions


def _is(got, value):
    return math.isclose(got, value, rel_tol=1e-9, abs_tol=1e-12)


def _norm(v):
    return float(np.linalg.norm(v))


# Hints on one call cosine(a, b): (got, want, a, b) -> bool, the learner's usual slips.
COSINE_HINTS = [
    Hint(lambda got, want, a, b: _is(got, float(a @ b) / (_norm(a) + _norm(b))),
         "divide by the product of the two lengths, not their sum: np.linalg.norm(a) * np.linalg.norm(b)", args=True),
    Hint(lambda got, want, a, b: not _is(_norm(b) ** 2, 1) and _is(got, float(a @ b) / _norm(a) * _norm(b)),
         "operator precedence: x / y * z is (x / y) * z, so the second length multiplied; "
         "divide by the product of both lengths, x / (y * z)", args=True),
    Hint(lambda got, want, a, b: not _is(_norm(a) * _norm(b), 1) and _is(got, float(a @ b)),
         "that is the dot product a @ b: a cosine divides it by both lengths (np.linalg.norm)", args=True,
         unless="norm|normalize|sqrt"),
    Hint(lambda got, want, a, b: _is(got, float(a @ b) / _norm(a)) or _is(got, float(a @ b) / _norm(b)),
         "divided by one length only: divide by both, np.linalg.norm(a) * np.linalg.norm(b)", args=True),
    Hint(lambda got, want, a, b: _is(got, float(a @ b) / (float(a @ a) * float(b @ b))),
         "a @ a is the squared length: take the square root (np.linalg.norm does)", args=True),
    Hint(lambda got, want: abs(got - (1 - want)) <= 1e-9,
         "that is 1 - cosine, the cosine distance: return the similarity itself, a @ b / (|a| |b|)"),
    Hint(lambda got, want, a, b: _other_lengths(got, a, b, 1),
         "your lengths are sums of absolute values (the L1 norm): a vector's length is the square root of the "
         "sum of its squares, np.linalg.norm(a)", args=True),
    Hint(lambda got, want, a, b: _counted_lengths(got, a, b),
         "your lengths are the vectors' numbers of entries (len): a vector's length is the square root of the sum "
         "of its squares, np.linalg.norm(a)", args=True),
    Hint(lambda got, want, a, b: _other_lengths(got, a, b, np.inf),
         "your lengths are each vector's largest entry (the max norm): a vector's length is the square root of "
         "the sum of its squares, np.linalg.norm(a)", args=True),
]


def _other_lengths(got, a, b, order) -> bool:
    """Is `got` the dot product divided by the lengths of another norm (`order`: 1, np.inf), where that norm
    differs from the Euclidean length of a or b (else the two readings are one value)?"""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    other = float(np.linalg.norm(a, order)) * float(np.linalg.norm(b, order))
    return other > 0 and not _is(other, _norm(a) * _norm(b)) and _is(got, float(a @ b) / other)


def _counted_lengths(got, a, b) -> bool:
    """Is `got` the dot product divided by the numbers of entries of a and b (len), where that product differs from
    the product of their Euclidean lengths (else the two readings are one value)?"""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    other = float(a.size * b.size)
    return other > 0 and not _is(other, _norm(a) * _norm(b)) and _is(got, float(a @ b) / other)


def _vector_pairs(rng):
    """Fixed pairs, each there for a kind of bug (every seed tests them), then random pairs.

    * ``[1, 0]·[0, 3]``: orthogonal, 0, and lengths 1 and 3.
    * ``[2, 2]·[1, 1]``: 1 with lengths ≠ 1: ``a @ b / |a| * |b|`` (precedence) gives 2, no
      normalisation 4, one length only √2.
    * ``[1, -2, 3]·[-2, 4, -6]``: opposite, -1: ``abs`` anywhere, a clip to [0, 1], a distance.
    * ``[3, 4]·[4, 3]`` as int arrays: 24/25 = 0.96: ``//`` (0) and dividing an int array in
      place (numpy refuses) — lesson 01's table is an int array.
    * ``[-2]·[5]``: length 1, -1: code written for 2-d or 4-d vectors (``a[0]*b[0] + a[1]*b[1]``).
    * 1..768 against 768..1: GPT-2's width, 0.5: a loop over ``range(4)`` (the toy table's
      width) or over a fixed length.
    """
    pairs = [(np.array([1.0, 0.0]), np.array([0.0, 3.0])), (np.array([2.0, 2.0]), np.array([1.0, 1.0])),
             (np.array([1.0, -2.0, 3.0]), np.array([-2.0, 4.0, -6.0])),
             (np.array([3, 4]), np.array([4, 3])),
             (np.array([-2.0]), np.array([5.0])),
             (np.arange(1.0, 769.0), np.arange(768.0, 0.0, -1.0))]
    pairs += [(rng.normal(size=n), rng.normal(size=n)) for n in (2, 3, 5, 16)]
    return pairs


def pair_rows(p: dict) -> tuple[np.ndarray, np.ndarray]:
    """The two rows of question 3's table that question 5 compares (as floats)."""
    table = np.array(p["table"], dtype=float)
    return table[p["words"].index(p["pair"][0])], table[p["words"].index(p["pair"][1])]


def _parallel(a, b) -> bool:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    na, nb = np.linalg.norm(a), np.linalg.norm(b)
    return na > 0 and nb > 0 and bool(np.isclose(abs(a @ b), na * nb, rtol=1e-12))


COSINE_INVARIANTS = [
    Invariant(lambda got, a, b: -1 - 1e-9 <= got <= 1 + 1e-9,
              "a cosine lies between -1 and 1: it is the cosine of the angle between a and b (their dot "
              "product divided by both lengths, np.linalg.norm(a) * np.linalg.norm(b))"),
    Invariant(lambda got, a, b: not _parallel(a, b) or np.isclose(abs(got), 1, rtol=1e-9),
              "a and b point the same way (or opposite ways) here, so their cosine is ±1 whatever their lengths: "
              "a cosine is scale-free (divide the dot product by both lengths)"),
]


# What a cell that computes a cosine shows: a cell that does cannot have returned the bare dot product.
NORMS = "norm|normalize|sqrt|cosine|cosine_similarity"


def other_selections(p: dict, n: int) -> list:
    """Question 4's batch taken from other rows of `table`: its first n rows, its last n, the sentence's
    distinct words in the table's order, the rows of the sentence's ids counted from 1 (the next rows)."""
    table = np.array(p["table"])
    row = {w: i for i, w in enumerate(p["words"])}
    ids = [row[w] for w in p["sentence"]]
    out = [table[:n], table[-n:], table[sorted(ids)]]
    return [o for o in out if o.shape[0] == n and not np.array_equal(o, table[ids])]


def next_rows(p: dict):
    """Question 4's batch with every id one too big (words numbered from 1): the next rows, or None."""
    table = np.array(p["table"])
    row = {w: i for i, w in enumerate(p["words"])}
    ids = [row[w] + 1 for w in p["sentence"]]
    return table[ids] if all(i < len(table) for i in ids) else None


def pair_slips(p: dict) -> list:
    """(value, words) of the quantities a learner may give for cos_pair instead, from the same table:
    a word compared with itself (either word of the pair twice: 1.0 whenever its row is not zero), and
    the cosine of the pair's rows in the 0/1 table E of question 1 (the other table)."""
    table = np.array(p["table"], dtype=float)
    E = np.array([[int(f in p["traits"][w]) for f in p["features"]] for w in p["words"]], dtype=float)
    i, j = p["words"].index(p["pair"][0]), p["words"].index(p["pair"][1])
    out = [(cosine_similarity(table[i], table[i]), "that is the cosine of a row with itself (one word of the pair "
                                                   "twice): compare the pair's two words, pair[0] with pair[1]")]
    if E[i].any() and E[j].any():
        out.append((cosine_similarity(E[i], E[j]), "that compares the rows of E, the 0/1 table of question 1: "
                                                   "compare the pair's rows in question 3's table, `table`"))
    for k, where in ((1, "after"), (-1, "before")):  # the same formula on the neighbouring rows: an off-by-one
        if 0 <= i + k < len(table) and 0 <= j + k < len(table) and table[i + k].any() and table[j + k].any():
            out.append((cosine_similarity(table[i + k], table[j + k]), (
                f"that is the cosine of the rows just {where} the pair's (another pair of words): ids count from 0, "
                "and word number i of the list is row i (an off-by-one in the ids)")))
    # any other two rows (an id typed from a glance at `words`, one word's id for another's): the same formula on
    # rows that are not the pair's, measured exactly; the words name no word, so a look with other words says them too
    for a in range(len(table)):
        for b in range(a + 1, len(table)):
            if {a, b} == {i, j} or not (table[a].any() and table[b].any()):
                continue
            out.append((cosine_similarity(table[a], table[b]), (
                "that is the cosine of another two rows of `table`, not the pair's: recheck the ids, one per "
                "word of `pair` (word_to_id[w], the word's position in `words`)")))
    return out


# Questions 3 and 5 on another `table`: in the book's values (and whenever a variant's traits give it)
# the given table holds question 1's E, so a cell that reads E, or types the rows, is right there and
# only there. Another table of the same shape, every entry different, tells them apart.
TABLE_WORDS = "with another given `table` (other numbers)"
TABLE_WHY = "`E` is question 1's table: this question asks for the given `table`, the parameters cell's"


def other_table(ns: dict) -> np.ndarray:
    """`table` of the notebook with other numbers: entry (i, j) is 10·i + j² + 1, so every row differs
    from every other and from any table of 0s and 1s."""
    rows, cols = np.asarray(ns["table"]).shape
    return 10 * np.arange(rows)[:, None] + np.arange(cols)[None, :] ** 2 + 1


def _ids(ns: dict, words) -> list:
    return [list(ns["words"]).index(w) for w in words]


def batch_elsewhere(ns: dict) -> Elsewhere:
    table = other_table(ns)
    return Elsewhere({"table": table}, table[_ids(ns, ns["sentence"])], TABLE_WORDS, TABLE_WHY, ("E",))


def cos_pair_elsewhere(ns: dict) -> Elsewhere:
    table = other_table(ns)
    a, b = table[_ids(ns, ns["pair"])]
    return Elsewhere({"table": table}, cosine_similarity(a, b), TABLE_WORDS, TABLE_WHY, ("E",))


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    shape = model_shape(load_config(p["model"]))
    config = load_config(p["model"])
    ones = int(np.sum([[int(f in p["traits"][w]) for f in p["features"]] for w in p["words"]]))
    positions = count_params(config).position_embedding
    V, d = shape.vocab_size, shape.hidden_size
    n_words, n_features, extra = len(p["words"]), len(p["features"]), p["extra_features"]
    a, b = pair_rows(p)
    dot, na, nb = float(a @ b), _norm(a), _norm(b)
    return [
        Array("E", exact=True, shape=lambda q: (len(q["words"]), len(q["features"])), hints=[
            *lesson_example([(LESSON_E, "the lesson's cat/dog/car table"),
                             (LESSON_E2, "the lesson's cat/dog/car/truck table (with 'barks')")],
                            "`words`, `features` and `traits`"),
            Hint(lambda got, want: got.shape == want.shape[::-1],
                 "rows are words and columns are features: transpose it"),
        ]),
        # "How many parameters does your table have?": the learner's own E
        Integer("n_params", own_table="E", hints=[
            *lesson_example([(LESSON_E.size, "the count of the lesson's cat/dog/car table (3 × 2)"),
                             (LESSON_E2.size, "the count of the lesson's cat/dog/car/truck table (4 × 3)")],
                            "the table `E` you built: its rows × its columns"),
            Hint(lambda got, want: got == n_words + n_features,
                 "add or multiply? every cell of the table is a parameter: rows × columns"),
            Hint(lambda got, want: got == ones and ones != want,
                 "that counts the 1s only: every entry of the table is a parameter, the zeros too (rows × columns)"),
        ], parts=lambda: Answer(Sum("the table", [
            Prod("the table", [Part("rows", n_words, "one per word"), Part("columns", n_features, "one per feature")]),
            Extra("a bias", n_features, "a lookup table has no bias: only the table, rows × columns"),
            Extra("a bias", n_words, "a lookup table has no bias: only the table, rows × columns")]))),
        Array("batch", exact=True, shape=lambda q: (len(q["sentence"]), len(q["table"][0])), hints=[
            step(lambda: [p["words"].index(w) for w in p["sentence"]], "the ids of the sentence's words (word_to_id "
                 "of each)", "look their rows up in `table`, table[ids]: one row per word"),
            rows_by(lambda: p["table"], lambda: [p["sentence"].index(w) for w in p["sentence"]],
                    "each word's position in the sentence (sentence.index(w))", "its id in `words` (word_to_id[w])"),
            Hint(lambda got, want: got.ndim == 1, "look up all the words at once: the result has one row per word"),
            Hint(lambda got, want: len(set(p["sentence"])) < len(p["sentence"]) and any(
                np.array_equal(got, np.array(p["table"])[[p["words"].index(w) for w in words]])
                for words in (list(dict.fromkeys(p["sentence"])), sorted(set(p["sentence"])))),
                 "a word used twice in the sentence gets one row here: each repeat needs its row again, one per "
                 "occurrence; a set, np.unique or a dict drops repeats (and a set or sorting loses the order): "
                 "look up every word of the sentence, in order, repeats included"),
            Hint(lambda got, want: next_rows(p) is not None and np.array_equal(got, next_rows(p)),
                 "every row is the one after the word's own: ids count from 0 (the first word is row 0): an "
                 "off-by-one"),
            Hint(lambda got, want: got.shape == want.shape and not np.array_equal(got, want) and any(
                np.array_equal(got, rows) for rows in other_selections(p, len(want))),
                 "those are other rows of the table (the first rows, or the rows of the words in the table's own "
                 "order): look up the rows of the sentence's words, in the sentence's order (one id per word)"),
        ], other_inputs=lambda ns: [batch_elsewhere(ns)]),
        Function("cosine", reference=cosine_similarity, cases=_vector_pairs, invariants=COSINE_INVARIANTS,
                 quantities=("a", "b"),
                 result=Real("cosine", exact=True, hints=COSINE_HINTS)),
        Real("cos_pair", exact=True, hints=[
            Hint(lambda got, want: _is(got, dot),
                 "that is the dot product of the two rows: divide by both lengths (np.linalg.norm)", unless=NORMS),
            *[related(value, words) for value, words in pair_slips(p)],
            Hint(lambda got, want: got == 1.0, "1.0 means the two rows point the same way, and these do not: "
                                               "divide their dot product by both lengths"),
            Hint(lambda got, want: _is(got, dot / na * nb) or _is(got, dot / nb * na),
                 "operator precedence: x / y * z is (x / y) * z; divide by the product of both lengths, x / (y * z)"),
            Hint(lambda got, want: _is(got, dot / (na * na * nb * nb)),
                 "a @ a is the squared length: take the square root (np.linalg.norm does)"),
            Hint(lambda got, want: len(a) * len(b) > 0 and not _is(len(a) * len(b), na * nb)
                 and _is(got, dot / (len(a) * len(b))),
                 "your lengths are the rows' numbers of entries (len): a row's length is the square root of the sum "
                 "of its squares, np.linalg.norm(row)"),
            Hint(lambda got, want: _is(got, dot / (na + nb)),
                 "divide by the product of the two lengths, not their sum: np.linalg.norm(a) * np.linalg.norm(b)"),
            Hint(lambda got, want: _is(got, dot / na) or _is(got, dot / nb),
                 "divided by one length only: divide by both, np.linalg.norm(a) * np.linalg.norm(b)"),
        ], reads=("pair",), other_inputs=lambda ns: [cos_pair_elsewhere(ns)]),
        Integer("model_table", hints=[
            ratio(2, "that is twice the table: the head counted too (tied, it is the same table; untied, another "
                     "one): the question asks for the token table only, one V × d table, counted once"),
            Hint(lambda got, want: got == round(V, -3) * d,
                 f"close: use {p['model']}'s exact vocabulary size, not a round number"),
        ], parts=lambda: Answer(Sum("the token table", [
            Prod("the token table", [Part("V", V, "rows, one per token"), Part("d", d, "columns")],
                 alts=[Alt(count_params(config).total, "that is every parameter of the model (the total): the "
                                                       "question asks for the token table only")]),
            Extra("position table", positions, "only the token table: the position table is another table"),
            Extra("head", V * d, "the question asks for the token table only: one V × d table, counted once")])),
            inputs=lambda: {"the vocabulary size V": V, "the width d": d}),
        Integer("extra_dim_cost", hints=[
            Hint(lambda got, want: got == extra * d,
                 f"that is what {extra} new words (rows) cost; a new feature is a new column"),
            Hint(lambda got, want: got * extra == want and extra != 1,
                 f"that is one new feature; the question adds {extra}"),
        ], parts=lambda: Answer(Sum("the growth", [Prod("the new columns", [
            Part("V", V, "one new entry per row (token)"),
            Part("new columns", extra, "extra_features", alts=[
                Alt(d + extra, "that is the size of the whole new table: the question asks how much it grows "
                               "(the difference, new minus old)")])]),
            Extra("head", V * extra, f"{p['model']}'s head is tied: it is E itself, so the new columns are counted "
                                     "once, not twice")]))),
    ]


QUESTIONS = questions(DEFAULTS)

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/01-toy-table.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "E": "2. The same table as a matrix",
    "n_params": "3. Counting parameters",
    "batch": "2. The same table as a matrix",
    "cosine": "4. The geometry carries the meaning",
    "cos_pair": "4. The geometry carries the meaning",
    "model_table": "3. Counting parameters",
    "extra_dim_cost": "5. One more word, one more dimension",
}
