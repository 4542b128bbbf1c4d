"""Exercise 09 `what-rows-learn`: count TinyLM, write the embedding gradient and the model's gradients of the
embedding and the head, measure what the rows learned.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
A variant trains its own model (its own width d, corpus and training run);
`problems` trains it once to check the lesson's point still shows.
"""

import functools
import math

import numpy as np

from embedlab.grading.elsewhere import Elsewhere
from embedlab.grading.kinds import (Array, Arrays, Choice, Function, Hint, Integer, Invariant, Real, Slip, offset,
                                    related, whole_norm_hint)
from embedlab.grading.parts import Alt, Answer, Part, Prod, Sum
from embedlab.grading.space import FRESH_INPUTS, Space, equal_to_book
from embedlab.grading.verdicts import untold_slips

LESSON = "09-what-rows-learn"

# --------------------------------------------------------------------------
# The variant space

V = 74  # make_corpus().vocab_size: its words, the end token and 8 reserved ids, in every variant
D_POOL = [8, 10, 12, 14, 18, 20, 24, 28]  # widths d, not the book's 16: one per variant (K = 8)
N_SENTENCES = [1500, 2000, 2500]      # corpus sizes
STEPS = [400, 500, 600]               # short runs: the grader harvests one run per variant
BATCH_SIZES = [64, 96]
SEEDS = (1, 1000)                     # corpus_seed and seed: integers in [1, 1000)
# The lesson's point, demanded of every variant: words used alike end up close. Within-group
# pairs beat animal-vehicle pairs by at least MIN_GAP in mean cosine, and cat is closer to the
# other animals than to the vehicles by at least MIN_GAP on average.
MIN_GAP = 0.3

DEFAULTS = {
    "d": 16,
    "n_sentences": 3000,
    "corpus_seed": 0,
    "steps": 1000,
    "batch_size": 128,
    "seed": 0,
}


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: a width from D_POOL (a different one per variant, up to its size), a
    corpus size and seed, a short training run and its seed."""
    return {
        "d": int(pick("d", D_POOL)),
        "n_sentences": int(rng.choice(N_SENTENCES)),
        "corpus_seed": int(rng.integers(*SEEDS)),
        "steps": int(rng.choice(STEPS)),
        "batch_size": int(rng.choice(BATCH_SIZES)),
        "seed": int(rng.integers(*SEEDS)),
    }


@functools.lru_cache(maxsize=64)
def _model(d, n_sentences, corpus_seed, steps, batch_size, seed):
    """(corpus, E) of one variant's trained model."""
    from embedlab import make_corpus, train_tinylm

    corpus = make_corpus(n_sentences=n_sentences, seed=corpus_seed)
    run = train_tinylm(corpus, d=d, context=2, tied=False, steps=steps, batch_size=batch_size, seed=seed)
    return corpus, run.model.E


def axis_slips(p: dict) -> list:
    """Question 4 with the lengths taken along the wrong axis: the columns' norms (axis=0) of the 16 rows,
    or of all of E. numpy raises for neither when the shapes happen to line up (16 rows and d = 16)."""
    corpus, E = _model(*(p[name] for name in ("d", "n_sentences", "corpus_seed", "steps", "batch_size", "seed")))
    animals, vehicles = list(corpus.groups["animals"]), list(corpus.groups["vehicles"])
    cat = corpus.id_of("cat")
    rows = E[animals + vehicles]
    out = []
    if rows.shape[0] == rows.shape[1]:
        out.append(rows @ E[cat] / (np.linalg.norm(rows, axis=0) * np.linalg.norm(E[cat])))
        unit = rows / np.linalg.norm(rows, axis=0, keepdims=True)
        out.append(unit @ unit[0])
    return out


def cos_cat_rows(p: dict) -> np.ndarray:
    """Question 4's 16 rows (the animals', then the vehicles'), as trained for variant `p`."""
    corpus, E = _model(*(p[name] for name in ("d", "n_sentences", "corpus_seed", "steps", "batch_size", "seed")))
    return E[list(corpus.groups["animals"]) + list(corpus.groups["vehicles"])]


def gap_means(p: dict) -> tuple[float, float]:
    """Question 3's two means (within the groups, across them), as trained for variant `p`."""
    corpus, E = _model(*(p[name] for name in ("d", "n_sentences", "corpus_seed", "steps", "batch_size", "seed")))
    animals, vehicles = list(corpus.groups["animals"]), list(corpus.groups["vehicles"])
    unit = E / np.linalg.norm(E, axis=1, keepdims=True)
    C = unit @ unit.T
    within = [C[i, j] for group in (animals, vehicles) for i in group for j in group if i < j]
    return float(np.mean(within)), float(C[np.ix_(animals, vehicles)].mean())


def _with_self_gap(p: dict) -> float:
    """Question 3's gap with each word's pair with itself in the within-group mean (the usual slip)."""
    return trained(p)[2]


def gap_of(E: np.ndarray, animals, vehicles) -> float:
    """Question 3's gap, as the solution computes it: the mean cosine over every pair of different
    words inside one group, minus the mean over every animal-vehicle pair."""
    unit = E / np.linalg.norm(E, axis=1, keepdims=True)
    C = unit @ unit.T
    within = [C[i, j] for group in (animals, vehicles) for i in group for j in group if i < j]
    return float(np.mean(within) - C[np.ix_(animals, vehicles)].mean())


@functools.lru_cache(maxsize=4)
def _untrained_gap(d, n_sentences, corpus_seed, batch_size, seed) -> float:
    """Question 3's gap on the model's table before any step (train_tinylm with steps=0): its rows as drawn."""
    corpus, E = _model(d, n_sentences, corpus_seed, 0, batch_size, seed)
    return gap_of(E, list(corpus.groups["animals"]), list(corpus.groups["vehicles"]))


def untrained_gap(p: dict) -> float:
    return _untrained_gap(*(p[name] for name in ("d", "n_sentences", "corpus_seed", "batch_size", "seed")))


def gap_elsewhere(ns: dict) -> list:
    """Question 3 with one animal fewer: with groups of one size (8 and 8, 28 pairs each) the mean of
    the two groups' means is the mean over all 56 pairs; with 7 and 8 it is not."""
    animals, vehicles = list(ns["animals"]), list(ns["vehicles"])
    fewer = animals[:-1]
    return [Elsewhere({"animals": fewer}, gap_of(np.asarray(ns["E"]), fewer, vehicles),
                      f"with one animal fewer (groups of {len(fewer)} and {len(vehicles)} words)",
                      "with groups of different sizes the mean of the two groups' means is not the mean over all "
                      "their pairs: average every within-group pair at once")]


def cos_cat_elsewhere(ns: dict) -> list:
    """Question 4 with the animals in another order (cat moved from first to last): a cell that takes
    cat's row from its place in the list (animals[0], rows[0]) compares with another animal there; one
    that reads `cat`, its own id, does not. The trained table stays the notebook's."""
    E, animals, vehicles, cat = np.asarray(ns["E"]), list(ns["animals"]), list(ns["vehicles"]), ns["cat"]
    moved = animals[1:] + animals[:1]
    rows = E[moved + vehicles]
    want = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))
    return [Elsewhere({"animals": moved}, want, "with the animals listed in another order (cat last)",
                      "cat's row is E[cat], cat's own id: its place in the list is not part of the question",
                      why_reads=("animals",))]


@functools.lru_cache(maxsize=64)
def _trained(d, n_sentences, corpus_seed, steps, batch_size, seed):
    """The solution's questions 3 and 4 for one variant, computed the same way (so exactly equal)."""
    corpus, E = _model(d, n_sentences, corpus_seed, steps, batch_size, seed)
    animals, vehicles = list(corpus.groups["animals"]), list(corpus.groups["vehicles"])
    gap = gap_of(E, animals, vehicles)
    unit = E / np.linalg.norm(E, axis=1, keepdims=True)
    C = unit @ unit.T
    between = C[np.ix_(animals, vehicles)].mean()
    cat = corpus.id_of("cat")
    rows = E[animals + vehicles]
    cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]))
    with_self = np.mean([C[np.ix_(g, g)].mean() for g in (animals, vehicles)]) - between
    unnormalised_cat = rows @ E[cat] / np.linalg.norm(rows, axis=1)
    return float(gap), cos_cat, float(with_self), unnormalised_cat


def trained(p: dict):
    return _trained(*(p[name] for name in ("d", "n_sentences", "corpus_seed", "steps", "batch_size", "seed")))


def n_params(p: dict) -> int:
    d = p["d"]
    return V * d + (2 * d) * d + d + V * d


def answers(p: dict) -> dict:
    """Every non-function answer of a variant, computed here to vet the variant (`problems`) and
    to make the slips; the key itself is harvested by running the solution notebook."""
    gap, cos_cat, _, _ = trained(p)
    return {"n_params": n_params(p), "gap": gap, "cos_cat": cos_cat, "rotation_changes_cosines": "no"}


def slips(p: dict) -> list:
    """The learner's usual slips in variant `p`: (question, wrong value, words its hint must contain)."""
    d, want = p["d"], answers(p)
    _, _, with_self, unnormalised_cat = trained(p)
    return [
        ("n_params", V * d + 2 * d * d + d, "tied count"),  # also n_params - V·d: one V × d matrix left out
        ("n_params", want["n_params"] - d, "left out the bias"),
        ("n_params", 2 * V * d + d * d + d, "2d rows"),
        ("n_params", float(f"{want['n_params'] / 1e3:.3g}"), "in thousands"),  # units: the count in thousands
        ("gap", -want["gap"], "within minus between"),
        ("gap", with_self, "itself"),
        ("cos_cat", unnormalised_cat, "normalize every row"),
        # the wrong axis, silent where the rows are square (16 rows, d = 16): named from the code
        *[("cos_cat", value, "axis=0", source) for value, source in zip(axis_slips(p), (
            "rows = E[animals + vehicles]\n"
            "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=0) * np.linalg.norm(E[cat]))\n",
            "unit = E[animals + vehicles] / np.linalg.norm(E[animals + vehicles], axis=0, keepdims=True)\n"
            "cos_cat = unit @ unit[0]\n"))],
        ("rotation_changes_cosines", "yes", "orthogonal"),
    ]


def problems(p: dict) -> list[str]:
    """What makes a drawn variant unusable: the lesson's point not shown, an answer equal to the
    book's, or a usual slip its hint does not name."""
    out = []
    if p["d"] < 2:
        return [f"d must be at least 2, got d={p['d']!r}"]
    want = answers(p)
    cos_cat = want["cos_cat"]
    if not want["gap"] >= MIN_GAP:
        out.append(f"gap is {want['gap']:.3f}: the groups are not clearly tighter inside (< {MIN_GAP})")
    if not cos_cat[1:8].mean() - cos_cat[8:].mean() >= MIN_GAP:
        out.append(f"cat is not clearly closer to the animals than to the vehicles (< {MIN_GAP})")
    if out:
        return out
    book = answers(DEFAULTS)
    # judged to 6 significant figures (trained values), so compared at that precision
    out += equal_to_book({name: want[name] for name in ("n_params", "gap", "cos_cat")}, book, rtol=1e-6)
    out += untold_slips(questions(p), want, slips(p))
    return out


def _describe() -> str:
    return (f"d: one of {D_POOL} (a different width per variant up to {len(D_POOL)}); n_sentences: one of "
            f"{N_SENTENCES}; corpus_seed and seed: integers from {SEEDS[0]} to {SEEDS[1] - 1}; steps: one of "
            f"{STEPS}; batch_size: one of {BATCH_SIZES}; every variant's trained rows show the lesson's point "
            f"(within-group minus animal-vehicle mean cosine >= {MIN_GAP}, and cat closer to the other "
            f"animals than to the vehicles by >= {MIN_GAP}) and every usual slip is told apart by its hint")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(), fixed={
    "embedding_grad": FRESH_INPUTS,
    "tinylm_grads": FRESH_INPUTS,
    "rotation_changes_cosines": "a fact: an orthogonal Q keeps every angle, whatever the table",
})

# --------------------------------------------------------------------------
# The questions


def embedding_grad(contexts, dx0, vocab_size):
    """Reference: add dx0[b, k] into row contexts[b, k]; repeated ids add up, other rows stay 0."""
    contexts = np.asarray(contexts)
    dx0 = np.asarray(dx0, dtype=np.float64)
    dE = np.zeros((vocab_size, dx0.shape[-1]))
    np.add.at(dE, contexts, dx0)
    return dE


def _grad_cases(rng):
    """Fixed batches, each there for a kind of bug (every seed tests them), then random small
    batches with repeated ids (within a pair and across pairs), plus ids that never appear.

    * ``[[1, 1], [1, 3]]``, V = 5: id 1 three times, within a pair and across pairs:
      ``dE[contexts] += dx0`` keeps one repeat; a table of ``max + 1`` rows (4, not 5).
    * ``[[4, 0], [4, 4]]``, V = 5: the largest id, three times: a table of V - 1 rows.
    * one position per pair (C = 1) and three (C = 3): code written for C = 2
      (``contexts[:, 0]`` and ``contexts[:, 1]``).
    * ``[[1_499, 2]]``, V = 1,500: a larger vocabulary's last id: a table of a fixed size. (Not an
      id past int16's 32,767: a one-hot matmul, a right answer, would need a V × V identity.)
    * ``[[65, 165], [5, 65]]``, V = 170: ids whose decimal forms overlap (cases.blind_spots): 165 ends with 65, 65 with 5, out of order, 65 twice: ids handled as text.
    """
    cases = [(np.array([[1, 1], [1, 3]]), np.ones((2, 2, 3)), 5),
             (np.array([[4, 0], [4, 4]]), np.arange(1.0, 9.0).reshape(2, 2, 2), 5),
             (np.array([[2], [2], [0]]), np.arange(1.0, 7.0).reshape(3, 1, 2), 4),
             (np.array([[0, 1, 2], [2, 2, 2]]), np.arange(1.0, 13.0).reshape(2, 3, 2), 4),
             (np.array([[1_499, 2]]), np.array([[[1.0], [2.0]]]), 1_500),
             (np.array([[65, 165], [5, 65]]), np.arange(1.0, 9.0).reshape(2, 2, 2), 170)]
    for B, C, d, V_ in ((4, 2, 3, 6), (8, 2, 5, 10), (16, 1, 4, 7), (32, 2, 16, 74)):
        contexts = rng.integers(0, max(2, V_ // 2), size=(B, C))  # only the lower half of ids: the rest get 0
        cases.append((contexts, rng.normal(size=(B, C, d)), V_))
    return cases


def _looks_overwritten(got, want):
    """Fancy-index `dE[ids] += dx0` keeps only one contribution per repeated id: values smaller in size."""
    got, want = np.asarray(got), np.asarray(want)
    return got.shape == want.shape and not np.allclose(got, want) and np.allclose(got[want == 0], 0)


def _overwritten(got, contexts, dx0, vocab_size):
    """`got` is what `dE[contexts] = dx0` (or `+=`, the same from zeros) leaves: one repeat kept."""
    dx0 = np.asarray(dx0, dtype=float)
    dE = np.zeros((vocab_size, dx0.shape[-1]))
    dE[np.asarray(contexts)] = dx0
    return np.asarray(got).shape == dE.shape and np.allclose(got, dE)


def _every_id_gets_one(got, contexts, dx0, vocab_size):
    got = np.asarray(got)
    ids = np.unique(np.asarray(contexts))
    return got.shape[0] == vocab_size and bool((np.abs(got[ids]).sum(axis=1) > 0).all())


GRAD_INVARIANTS = [
    Invariant(lambda got, c, g, V: np.asarray(got).shape == (V, np.asarray(g).shape[-1]),
              "one row per vocabulary id: the shape is (vocab_size, d)"),
    Invariant(lambda got, c, g, V: np.allclose(np.delete(np.asarray(got), np.unique(c), axis=0), 0),
              "a row whose id is in no context gets exactly zero gradient: only the ids in contexts get one"),
    Invariant(_every_id_gets_one,
              "every id in contexts, in each slot, gets a gradient in its own row: an id seen only in one context "
              "slot still receives that slot's dx0 (each slot adds to its own id's row)"),
    Invariant(lambda got, c, g, V: np.allclose(np.asarray(got).sum(axis=0),
                                               np.asarray(g).reshape(-1, np.asarray(g).shape[-1]).sum(axis=0)),
              "every gradient row must be added in full: a repeated id accumulates the sum of its rows "
              "(np.add.at), so the result's rows sum to all of dx0's"),
]


def tinylm_grads(E, W, b, U, contexts, targets):
    """Reference: (d(loss)/dE, d(loss)/dU) of an untied TinyLM with these parameters on one batch, as
    embedlab.tinylm computes them (loss_and_grads: the mean cross-entropy over the batch)."""
    from embedlab.tinylm import TinyLM

    E, U = np.asarray(E, dtype=np.float64), np.asarray(U, dtype=np.float64)
    contexts = np.asarray(contexts)
    model = TinyLM(E.shape[0], d=E.shape[1], context=contexts.shape[1], tied=False)
    model.params = {"E": E, "W": np.asarray(W, dtype=np.float64), "b": np.asarray(b, dtype=np.float64), "U": U}
    _, grads = model.loss_and_grads(contexts, np.asarray(targets))
    return grads["E"], grads["U"]


def _backward(E, W, b, U, contexts, targets, minus_one=True, accumulate=True, head_transposed=False,
              mean=True, tanh_slope=True):
    """The backward pass written plainly, with the usual slips as switches: the softmax's minus one at
    the target left out, repeated ids overwritten (dE[ids] += ...) instead of accumulated (np.add.at),
    the head's gradient transposed (x.T @ dlogits, d × V), the batch summed instead of averaged, the
    tanh's slope 1 - x² left out."""
    contexts, targets = np.asarray(contexts), np.asarray(targets)
    B, C = contexts.shape
    x0 = E[contexts].reshape(B, -1)
    x = np.tanh(x0 @ W + b)
    logits = x @ U.T
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    dlogits = p.copy()
    if minus_one:
        dlogits[np.arange(B), targets] -= 1.0
    if mean:
        dlogits /= B
    dU = dlogits.T @ x
    da = (dlogits @ U) * ((1.0 - x * x) if tanh_slope else 1.0)
    dx0 = (da @ W.T).reshape(B, C, -1)
    dE = np.zeros_like(E)
    if accumulate:
        np.add.at(dE, contexts, dx0)
    else:
        dE[contexts] += dx0
    return dE, (dU.T if head_transposed else dU)


BACKWARD_SLIPS = [
    ({"minus_one": False}, "the softmax's minus one at the target is missing: d(loss)/d(logits) is the "
                           "probabilities minus 1 at each example's target (p - one_hot(target)), then / B"),
    ({"accumulate": False}, "a repeated id must receive every contribution: dE[contexts] += dx0 keeps only one "
                            "per id; accumulate with np.add.at(dE, contexts, dx0)"),
    ({"head_transposed": True}, "the head's gradient is transposed: U is V × d, so dU = dlogits.T @ x (V × d), "
                                "one row per token, not x.T @ dlogits"),
    ({"mean": False}, "the gradient is summed over the batch, B times too big: the loss is the mean over the "
                      "B examples, so divide d(loss)/d(logits) by B"),
    ({"tanh_slope": False}, "the tanh's slope is missing: on the way back through x = tanh(x0 @ W + b), multiply "
                            "by 1 - x**2 before the product with W.T"),
]


def _backward_slips() -> list:
    """The usual slips of the backward pass, alone and two at a time."""
    out = [Slip(functools.partial(_backward, **kw), words) for kw, words in BACKWARD_SLIPS]
    for i, (kw1, w1) in enumerate(BACKWARD_SLIPS):
        for kw2, w2 in BACKWARD_SLIPS[i + 1:]:
            out.append(Slip(functools.partial(_backward, **kw1, **kw2), f"two slips: {w1}; and {w2}"))
    return out


def _model_cases(rng):
    """Fixed batches, each there for a kind of bug (every seed tests them), then random ones; the
    parameters are drawn (float64, rows of size about 0.5, so that no logit is tiny).

    * V = 6, d = 3, three examples: id 1 three times (twice in one context, once in another), a target
      that is also a context id, ids 4 and 5 nowhere: overwriting repeated ids, the minus one, the batch
      mean (B = 3), the head transposed (V ≠ d), zero rows for unseen ids.
    * one context slot (C = 1), V = 5, d = 4: code written for two slots.
    * one example (B = 1), V = 4, d = 2: the mean and the sum agree; the rest does not.
    * V = 74, d = 16, 32 examples: the lesson's sizes.
    Then random sizes with ids from the lower half of the vocabulary (the upper half unseen).
    """
    def params(g, V, d, C):
        return (g.normal(0, 0.5, (V, d)), g.normal(0, 0.5, (C * d, d)), g.normal(0, 0.1, d),
                g.normal(0, 0.5, (V, d)))

    fixed = np.random.default_rng(9)  # the fixed cases' parameters: the same on every seed
    cases = [(*params(fixed, 6, 3, 2), np.array([[1, 1], [2, 1], [0, 3]]), np.array([1, 3, 2])),
             (*params(fixed, 5, 4, 1), np.array([[2], [2], [0], [4]]), np.array([0, 2, 2, 1])),
             (*params(fixed, 4, 2, 2), np.array([[3, 0]]), np.array([3])),
             (*params(fixed, 74, 16, 2), fixed.integers(0, 74, size=(32, 2)), fixed.integers(0, 74, size=32))]
    for V, d, C, B in ((7, 5, 2, 6), (10, 4, 1, 12), (20, 8, 2, 16)):
        cases.append((*params(rng, V, d, C), rng.integers(0, V // 2, size=(B, C)), rng.integers(0, V, size=B)))
    return cases


def _unseen_rows_zero(got, E, W, b, U, contexts, targets) -> bool:
    dE = np.asarray(got[0])
    return dE.shape == np.shape(E) and bool(np.allclose(np.delete(dE, np.unique(contexts), axis=0), 0))


MODEL_INVARIANTS = [
    Invariant(lambda got, E, W, b, U, c, t: [np.shape(g) for g in got] == [np.shape(E), np.shape(U)],
              "each gradient has its parameter's shape: dE is V × d like E, dU is V × d like U"),
    Invariant(_unseen_rows_zero, "a row of E whose id is in no context gets exactly zero gradient: only the looked-up "
                                 "rows (np.add.at over contexts) get one"),
    Invariant(lambda got, E, W, b, U, c, t: bool(np.allclose(np.asarray(got[1]).sum(axis=0), 0, atol=1e-9)),
              "dU's rows add up to zero: each example's d(loss)/d(logits), p - one_hot(target), sums to 0 over the "
              "vocabulary"),
]


# The rows a question about the embedding is asked of: E, never the untied output matrix U.
READS_U = {".U": "your code reads the output matrix U (run.model.U): the question is about the embedding table "
                 "E, the input rows (run.model.E)"}


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its width d; none states an answer)."""
    d = p["d"]
    return [
        Integer("n_params", hints=[
            Hint(lambda got, want: got == V * d + 2 * d * d + d,
                 "that is the tied count: this model has its own output matrix U"),
            offset(-d, "you left out the bias b (one number per hidden unit)"),
            offset(-V * d, "one V × d matrix is missing: E and U are both there"),
            Hint(lambda got, want: got == 2 * V * d + d * d + d,
                 "W takes both context rows side by side: it has 2d rows"),
        ], parts=lambda: Answer(Sum("TinyLM", [
            Part("E", V * d, "the input table, V × d",
                 missing="the embedding table E (the input table, V × d) is missing: E and U are both there"),
            Prod("W", [Part("W's inputs", 2 * d, "the two context rows side by side: 2·d", alts=[
                Alt(d, "W takes both context rows side by side: it has 2d rows (2·d inputs), not d"),
                Alt(3 * d, "W reads the two previous tokens' rows side by side: 2·d inputs (context = 2), not 3·d")]),
                Part("hidden units", d, "d")]),
            Part("b", d, "one number per hidden unit", missing="you left out the bias b (one number per hidden unit)"),
            Part("U", V * d, "its own output matrix, untied",
                 missing="that is the tied count: this model has its own output matrix U (untied)")])),
            inputs=lambda: {"V": V, "d": d}),
        Function("embedding_grad", reference=embedding_grad, cases=_grad_cases,
                 result=Array("embedding_grad", hints=[
                     Hint(lambda got, want, c, g, V: _overwritten(got, c, g, V),
                          "a repeated id must receive every contribution: `dE[ids] += dx0` "
                                              "keeps only one; use np.add.at", args=True),
                     Hint(lambda got, want: np.asarray(got).shape == np.asarray(want).shape[::-1],
                          "one row per vocabulary id: the shape is (vocab_size, d)"),
                 ]), invariants=GRAD_INVARIANTS,
                 avoids={".T": "your code transposes (.T) one array before flattening: the ids and the gradient "
                               "rows must line up, example by example and slot by slot (reshape both in the same "
                               "order)"}),
        Real("gap", sig=6, needs={
            "norm|normalize|cosine_similarity|cosine": "use cosine similarities: normalise each row (divide by its "
                                                       "length, np.linalg.norm) before the dot products",
            "<|>|!=|triu_indices|triu": "take only pairs of different words (i < j): a word with itself, the "
                                        "diagonal, has cosine 1 and raises the within-group mean"},
             avoids={**READS_U, "axis=0": "your code normalises along axis=0, the columns: normalise each row (a word's "
                               "vector) on its own, axis=1"}, hints=[
            # The order of the subtraction is named only when the value is the gap turned round (to the figures
            # the check keeps); any other negative gap says what is measurably true, not which slip made it.
            Hint(lambda got, want: math.isclose(got, -want, rel_tol=1e-5),
                 "within minus between: the animal and vehicle groups are tighter inside"),
            related(lambda want: untrained_gap(p), "that is the gap of the untrained table (the model before any "
                                                   "step, its rows as drawn): use the trained table, run.model.E "
                                                   "of the cell that trains it"),
            Hint(lambda got, want: got < 0 < want,
                 "your gap is below 0, though in the trained table words of one group are closer to each other than "
                 "to the other group's (the within-group mean is the larger): recheck the table you use (the trained "
                 "run.model.E) and which pairs' cosine similarities each of your two means takes"),
            # Proven by the value, not guessed from a band: the gap with every word's pair with itself taken
            # in is one exact number for these parameters (trained(p)'s third value).
            Hint(lambda got, want: math.isclose(got, _with_self_gap(p), rel_tol=1e-9),
                 "each word is paired with itself too: a word's cosine with itself is 1 and raises the "
                 "within-group mean; take only pairs of different words (i < j)"),
            # (A band above the answer is no proof of a cause: a word paired with itself, one group's pairs alone,
            # a rounding all land there. The `needs` above name the pairs' test where the cell has none; a rounding,
            # a copied index, are proven by undoing them in the learner's own code: embedlab.grading.undo.)
        ], other_inputs=gap_elsewhere, parts=lambda: Answer(Sum("the gap", [
            Part("the within-group mean", gap_means(p)[0], "the mean cosine of pairs inside a group"),
            Part("minus the across mean", -gap_means(p)[1], "the mean cosine of animal-vehicle pairs")]),
            offsets=False)),
        Array("cos_cat", sig=6, shape=lambda q: (16,), needs={
            "norm|normalize|cosine_similarity|cosine": "a cosine divides each dot product by both lengths: "
                                                       "normalise (np.linalg.norm) every row and cat's"},
              avoids={**READS_U, "axis=0": "your code takes norms along axis=0, the columns: each row's length is along "
                                "axis=1"}, hints=[
            whole_norm_hint(lambda: cos_cat_rows(p)),
            Hint(lambda got, want: any(np.asarray(got).shape == (16,) and np.allclose(got, slip, rtol=1e-6)
                                       for slip in axis_slips(p)),
                 "your lengths are the columns' (axis=0), not the rows': the 16 rows are 16 numbers wide here "
                 "(d = 16), so numpy matched the shapes without a complaint; each row's length is along axis=1"),
            Hint(lambda got, want: np.asarray(got).shape == (16,) and abs(np.asarray(got)[0] - 1) > 1e-9
                 and bool(np.isclose(np.asarray(got), 1, atol=1e-9).any()),
                 "cat (cosine 1 with itself) is there, but not first: the rows go in the order animals + vehicles, "
                 "animals first (cat is the first animal)"),
            Hint(lambda got, want: np.asarray(got).shape == (16,) and abs(np.asarray(got)[0] - 1) > 1e-9
                 and not np.allclose(np.asarray(got), 1 - np.asarray(want)),
                 "the first entry is cat with itself: a cosine there is exactly 1, and yours is not: divide each "
                 "dot product by both lengths (normalize every row, cat's included)"),
        ], other_inputs=cos_cat_elsewhere),
        Choice("rotation_changes_cosines", options=("yes", "no"), hints=[
            Hint(lambda got, want: got == "yes",
                 "compute the cosines of a few pairs of rows before and after `E @ Q` and compare them with a "
                 "tolerance (np.allclose), not exactly: floats differ in their last digits; section 6 says what an "
                 "orthogonal Q does to lengths and angles"),
        ]),
        Function("tinylm_grads", reference=tinylm_grads, cases=_model_cases, invariants=MODEL_INVARIANTS,
                 slips=_backward_slips(), result=Arrays("tinylm_grads", names=("dE", "dU")),
                 own_work={"loss_and_grads": "the question asks you to write the backward pass yourself, as section "
                                             "2 does it (call `TinyLM.loss_and_grads` afterwards, in a cell of your "
                                             "own, to compare)"}),
    ]


QUESTIONS = questions(DEFAULTS)

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/09-what-rows-learn.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "n_params": "2. The model, forward and backward",
    "embedding_grad": "2. The model, forward and backward",
    "tinylm_grads": "2. The model, forward and backward",
    "gap": "4. Rows of words used alike end up close",
    "cos_cat": "4. Rows of words used alike end up close",
    "rotation_changes_cosines": "6. The columns are not features",
}
