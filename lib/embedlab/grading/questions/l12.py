"""Exercise 12 `change-a-vocabulary`: the parameters a resize adds, padding rows, one new token's
probability and the KL on ordinary text after a mean initialisation, a trimmed table's size, what
it saves and what it still covers.

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import functools
import itertools
import math

import numpy as np

from embedlab.grading.elsewhere import Elsewhere
from embedlab.grading.kinds import Hint, Integer, Real, given_replaced, offset, padding_blocks, ratio, related
from embedlab.grading.parts import Alt, Answer, Part, Prod, Sum
from embedlab.grading.space import Space, equal_to_book
from embedlab.grading.verdicts import untold_slips
from embedlab.calculator import calculate
from embedlab.corpus import VOCAB
from embedlab.params import available_models, count_params, family, load_config, model_shape, n_tokens
from embedlab.resize import INITS, kl_divergence, log_softmax, padded_size, resize_tinylm

LESSON = "12-change-a-vocabulary"

DEFAULTS = {
    "vocab_model": "gpt2",
    "n_new": 4,
    "pad_multiple": 64,
    "seed": 0,
    "tokenizer": "gpt2",
    "lang": "en",
    "n_words": 2000,
    "d_trim": 768,
    "trim_tied": True,
    "n_keep": 12000,
}

# --------------------------------------------------------------------------
# The variant space

def _cited(model: str) -> bool:
    try:
        return n_tokens(model) > 0
    except ValueError:  # no tokenizer size the course can cite: questions 1 and 2 need it
        return False


# the shipped configs whose tokenizer size the course cites (embedlab.params.n_tokens), the book's left out
VOCAB_MODELS = [m for m in available_models() if m != DEFAULTS["vocab_model"] and _cited(m)]
# a few new tokens (which fit in a padded table's spare rows) up to a thousand (which outgrow them)
N_NEW = list(range(2, 17)) + [32, 64, 100, 300, 1000]
PAD_MULTIPLES = [64, 128, 256]
SEEDS = range(1, 100)
TOKENIZERS = ["gpt2", "cl100k_base"]
LANGS = ["fr", "de", "es", "it", "pt", "nl", "sv", "pl", "cs", "id", "tr", "da", "fi", "ro"]
N_WORDS = [1000, 1500, 2500, 3000]
D_TRIM = [512, 1024, 1536, 2048, 2560, 3584, 4096]
N_KEEP = range(8000, 30001, 500)


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: a shipped model and a language each its own (up to the pools' sizes),
    the number of new tokens, the multiple, the training seed, a real tokenizer, how many words
    the trimmed table keeps, and the width, tying and size of question 6's trimmed model."""
    return {"vocab_model": pick("vocab_model", VOCAB_MODELS), "n_new": int(rng.choice(N_NEW)),
            "pad_multiple": int(rng.choice(PAD_MULTIPLES)), "seed": int(rng.choice(SEEDS)),
            "tokenizer": str(rng.choice(TOKENIZERS)), "lang": pick("lang", LANGS),
            "n_words": int(rng.choice(N_WORDS)), "d_trim": int(rng.choice(D_TRIM)),
            "trim_tied": bool(rng.integers(2)), "n_keep": int(rng.choice(N_KEEP))}


def shape_of(p: dict) -> tuple[int, int, bool]:
    """(V, d, tied) of vocab_model."""
    s = model_shape(load_config(p["vocab_model"]))
    return s.vocab_size, s.hidden_size, s.tied


def grown_rows(p: dict) -> int:
    """The rows of vocab_model's table once n_new tokens are added (question 1): the new tokens get the
    ids n_tokens .. n_tokens + n_new - 1 (n_tokens = len(tokenizer)), so the table keeps its V rows
    while they fit (a padded table's spare rows take them) and grows to n_tokens + n_new rows if not."""
    return max(shape_of(p)[0], owned_rows(p))


def owned_rows(p: dict) -> int:
    """The rows that belong to a token once n_new tokens are added: n_tokens + n_new."""
    return n_tokens(p["vocab_model"]) + p["n_new"]


def padding_rows(p: dict) -> int:
    """Question 2's answer: the rows of the grown table, rounded up to pad_multiple, that no token owns."""
    return padded_size(grown_rows(p), p["pad_multiple"]) - owned_rows(p)


def added_params(p: dict) -> int:
    """Question 1's answer by the course's exact counter: the model with the grown table counted by
    count_params, less the model as it ships. It knows what n_new · d · (1 or 2) does not: OPT-350M's
    table is word_embed_proj_dim = 512 wide, not hidden_size, and Phi's head has a bias (a number per
    row of the head, so per new token)."""
    name = p["vocab_model"]
    return calculate(name, vocab_size=grown_rows(p)).total - count_params(load_config(name)).total


def table_width(p: dict) -> int:
    """The numbers in one row of vocab_model's input table (hidden_size, or OPT-350M's word_embed_proj_dim)."""
    config = load_config(p["vocab_model"])
    return count_params(config).token_embedding // model_shape(config).vocab_size


def head_bias(p: dict) -> bool:
    """Does vocab_model's head have a bias (one number per token)?"""
    return family(load_config(p["vocab_model"])["model_type"]).head_bias


@functools.lru_cache(maxsize=1)
def _corpus():
    """Lesson 12's corpus (every variant trains on the book's; only the seed of the run varies)."""
    from embedlab import make_corpus

    return make_corpus(n_sentences=3000, seed=0)


@functools.lru_cache(maxsize=64)
def _grown(seed: int, n_new: int):
    """Questions 3 and 4: lesson 12's tiny untied model with `seed`, and a copy with n_new mean rows."""
    from embedlab import train_tinylm

    corpus = _corpus()
    run = train_tinylm(corpus, tied=False, steps=400, batch_size=64, seed=seed)
    return corpus, run.model, resize_tinylm(run.model, n_new, "mean")


@functools.lru_cache(maxsize=64)
def _grown_answers(seed: int, n_new: int) -> tuple[float, float]:
    """Questions 3 and 4's answers (p_new_token, kl_mean), computed once per grown model: answers()
    is asked again and again while the variants are drawn and kept apart."""
    corpus, model, grown = _grown(seed, n_new)
    contexts = _ordinary_contexts()
    return (float(_probabilities(grown, corpus)[corpus.vocab_size]),
            float(kl_divergence(model.logits(contexts), grown.logits(contexts)).mean()))


def _probabilities(model, corpus) -> np.ndarray:
    context = corpus.ids(["<|endoftext|>", "the"])[None, :]
    return np.exp(log_softmax(model.logits(context)))[0]


@functools.lru_cache(maxsize=16)
def _ordinary_contexts() -> np.ndarray:
    from embedlab import make_corpus

    return make_corpus(n_sentences=100, seed=99).training_pairs(context=2)[0]


@functools.lru_cache(maxsize=64)
def kl_on_training(seed: int, n_new: int) -> float:
    """Question 4 measured on the training corpus's own positions (corpus.training_pairs) instead of
    `ordinary`'s: the figure a learner gets who passes the contexts the model was trained on."""
    corpus, model, grown = _grown(seed, n_new)
    contexts = corpus.training_pairs(context=2)[0]
    return float(kl_divergence(model.logits(contexts), grown.logits(contexts)).mean())


@functools.lru_cache(maxsize=64)
def p_new_share(seed: int, n_new: int) -> float:
    """Question 4's slip: the mean over the ordinary contexts of P_new, the new tokens' share of the grown model's
    probability, given for the KL (lesson 12 shows the two side by side, nearly equal: KL = −log(1 − P_new))."""
    _, _, grown = _grown(seed, n_new)
    V = _corpus().vocab_size
    p = np.exp(log_softmax(grown.logits(_ordinary_contexts())))
    return float(p[:, V:].sum(axis=1).mean())


@functools.lru_cache(maxsize=64)
def edited_setups(seed: int, n_new: int) -> tuple:
    """Questions 3 and 4 computed with the setup edited, the quantities a learner may give instead, from
    the same trained model: ((p_new_token, kl_mean) for each other way to start the new rows, in INITS' order,
    p at the neighbouring id (the last old token), the KL with the new tokens' columns cut off the new
    logits (0: their share of the probability is lost), the KL of the probabilities passed where logits
    belong (kl_divergence applies softmax itself))."""
    corpus, model, grown = _grown(seed, n_new)
    contexts = _ordinary_contexts()
    before = model.logits(contexts)
    inits = []
    for init in INITS:
        if init == "mean":
            continue
        other = resize_tinylm(model, n_new, init)
        inits.append((float(_probabilities(other, corpus)[corpus.vocab_size]),
                      float(kl_divergence(before, other.logits(contexts)).mean())))
    V = corpus.vocab_size
    last_old = float(_probabilities(grown, corpus)[V - 1])
    cut = float(kl_divergence(before, grown.logits(contexts)[:, :V]).mean())

    def softmax(z):
        z = np.asarray(z, dtype=np.float64)
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)

    probs = float(kl_divergence(softmax(before), softmax(grown.logits(contexts))).mean())
    return tuple(inits), last_old, cut, probs


@functools.lru_cache(maxsize=64)
def coverage_without_space(tokenizer: str, lang: str, n_words: int) -> tuple[float, float]:
    """Question 7 with the next words encoded without their leading space (the kept tokens as given, and
    the kept tokens' words without it too): the figures a learner gets who drops " " + w."""
    from embedlab import load_tokenizer

    tok = load_tokenizer(tokenizer)
    frequencies, words = _words(lang)
    nxt = words[n_words: 2 * n_words]
    weights = np.array([frequencies[w] for w in nxt], dtype=np.float64)
    out = []
    for first in (" ", ""):
        used = {i for w in words[:n_words] for i in tok.encode_ordinary(first + w)}
        kept = used | set(range(256)) | {tok.eot_token}
        covered = np.array([set(tok.encode_ordinary(w)) <= kept for w in nxt])
        out.append(float(weights @ covered / weights.sum()))
    return tuple(out)


COVERAGE_SLIPS = {  # question 7's usual slips, each in one short clause: two at once are named together
    "space": "the next words are encoded without the space before them (each word is encoded after a space, "
             "\" \" + w, as `used` was)",
    "bytes": "the 256 byte tokens and the end-of-text token are kept too, not only `used`",
    "unweighted": "weight each word by its frequency (its occurrences)",
}


@functools.lru_cache(maxsize=64)
def coverage_slips(tokenizer: str, lang: str, n_words: int) -> dict:
    """Question 7 with two of its usual slips at once (COVERAGE_SLIPS): {(slip, slip): the coverage}."""
    import itertools

    from embedlab import load_tokenizer

    tok = load_tokenizer(tokenizer)
    frequencies, words = _words(lang)
    used = {i for w in words[:n_words] for i in tok.encode_ordinary(" " + w)}
    nxt = words[n_words: 2 * n_words]
    out = {}
    for pair in itertools.combinations(sorted(COVERAGE_SLIPS), 2):
        kept = used if "bytes" in pair else used | set(range(256)) | {tok.eot_token}
        first = "" if "space" in pair else " "
        covered = np.array([set(tok.encode_ordinary(first + w)) <= kept for w in nxt], dtype=np.float64)
        weights = np.ones(len(nxt)) if "unweighted" in pair else np.array([frequencies[w] for w in nxt], float)
        out[pair] = float(weights @ covered / weights.sum())
    return out


@functools.lru_cache(maxsize=16)
def _words(lang: str) -> tuple[dict, list]:
    """A language's wordfreq list and its words without a digit, in order, as the solution reads
    them: filtered once per language, however many variants (tokenizers, n_words) use it."""
    import wordfreq

    frequencies = wordfreq.get_frequency_dict(lang, wordlist="small")
    return frequencies, [w for w in frequencies if not any(ch.isdigit() for ch in w)]


@functools.lru_cache(maxsize=64)
def trimming(tokenizer: str, lang: str, n_words: int) -> dict:
    """Questions 5 and 7: the words' tokens, the kept ids, and the next words' coverage figures."""
    from embedlab import load_tokenizer

    tok = load_tokenizer(tokenizer)
    frequencies, words = _words(lang)
    encoded = [tok.encode_ordinary(" " + w) for w in words[: 2 * n_words]]
    used = {i for ids in encoded[:n_words] for i in ids}
    kept = used | set(range(256)) | {tok.eot_token}
    nxt = encoded[n_words:]
    weights = np.array([frequencies[w] for w in words[n_words: 2 * n_words]], dtype=np.float64)
    covered = np.array([set(ids) <= kept for ids in nxt])
    by_words = np.array([set(ids) <= used for ids in nxt])
    any_token = np.array([bool(set(ids) & kept) for ids in nxt])
    first = np.array([frequencies[w] for w in words[:n_words]], dtype=np.float64)
    kept_words = float(first @ np.array([set(ids) <= kept for ids in encoded[:n_words]]) / first.sum())
    # the next words' TOKENS kept, each weighted by its word's frequency, over all their tokens: a count of tokens
    tokens = np.array([len(ids) for ids in nxt], dtype=np.float64)
    kept_tokens = np.array([sum(i in kept for i in ids) for ids in nxt], dtype=np.float64)
    return {"by_tokens": float(weights @ kept_tokens / (weights @ tokens)),
            "used": len(used), "kept": len(kept), "used_tokens": sum(len(ids) for ids in encoded[:n_words]),
            "n_vocab": tok.n_vocab, "coverage": float(weights @ covered / weights.sum()),
            "unweighted": float(covered.mean()), "without_bytes": float(weights @ by_words / weights.sum()),
            "n_next": len(nxt), "any_token": float(weights @ any_token / weights.sum()), "kept_words": kept_words}


def answers(p: dict) -> dict:
    """Every answer that varies, computed here to vet the variant (`problems`); the key itself is
    harvested by running the solution notebook."""
    V, d, tied = shape_of(p)
    p_new_token, kl_mean = _grown_answers(p["seed"], p["n_new"])
    t = trimming(p["tokenizer"], p["lang"], p["n_words"])
    return {
        "added_params": added_params(p),
        "padding_rows": padding_rows(p),
        "p_new_token": p_new_token,
        "kl_mean": kl_mean,
        "trimmed_rows": t["kept"],
        "saved_params": (t["n_vocab"] - p["n_keep"]) * p["d_trim"] * (1 if p["trim_tied"] else 2),
        "coverage": t["coverage"],
    }


STATED = (255, 256)  # numbers question 5's text states: an answer equal to one would show in the handout


def problems(p: dict) -> list[str]:
    """What makes a variant unusable: no padding, slips the hints cannot tell apart, a pool left, or
    an answer equal to the book's."""
    out = []
    if p["vocab_model"] not in VOCAB_MODELS + [DEFAULTS["vocab_model"]] or p["lang"] not in LANGS + ["en"]:
        out.append("a model or language outside its pool")
        return out
    if not _cited(p["vocab_model"]):
        out.append(f"{p['vocab_model']} has no cited tokenizer size")
        return out
    if padding_rows(p) == 0:
        out.append(f"{p['vocab_model']} with {p['n_new']} new tokens is a multiple of {p['pad_multiple']}: "
                   f"no padding")
    if not 0 < p["n_keep"] < load_tokenizer_size(p["tokenizer"]):
        out.append("n_keep is not below the tokenizer's size")
    if out:
        return out
    mine = answers(p)
    if mine["padding_rows"] in STATED or mine["added_params"] in STATED:
        out.append("an answer is a number the exercise's text states (the 256 byte tokens, ids 0 to 255)")
        return out
    book = answers(DEFAULTS)
    out += equal_to_book(mine, book, skip=("p_new_token", "kl_mean"))
    out += equal_to_book({k: mine[k] for k in ("p_new_token", "kl_mean")}, book, rtol=1e-6)
    out += untold_slips(questions(p), mine, slips(p))
    return out


@functools.lru_cache(maxsize=4)
def load_tokenizer_size(tokenizer: str) -> int:
    from embedlab import load_tokenizer

    return load_tokenizer(tokenizer).n_vocab


def _describe() -> str:
    return (f"vocab_model: one of the {len(VOCAB_MODELS)} other shipped configs whose tokenizer size the course "
            f"cites, a different one in every variant up to that number; n_new: one of {N_NEW}; pad_multiple: one of "
            f"{PAD_MULTIPLES} (a resized table already a multiple is never used); seed: 1 to 99; tokenizer: "
            f"one of {TOKENIZERS}; lang: one of {LANGS} (wordfreq), a different one in every variant up to "
            f"that number; n_words: one of {N_WORDS}; d_trim: one of {D_TRIM}; trim_tied: True or False; "
            f"n_keep: {N_KEEP.start:,} to {N_KEEP.stop - 1:,} in steps of {N_KEEP.step}")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe())

# --------------------------------------------------------------------------
# The questions


def p_new_elsewhere(ns: dict) -> list:
    """Question 3 with three new tokens more: a count of new tokens typed from these inputs (the book's 4)
    gives another probability there; n_new does not. The trained run stays the notebook's (`keeps`)."""
    n_new = int(ns["n_new"]) + 3
    grown = resize_tinylm(ns["run"].model, n_new, "mean")
    want = float(np.exp(log_softmax(grown.logits(ns["context"])))[0][ns["corpus"].vocab_size])
    return [Elsewhere({"n_new": n_new}, want, f"with {n_new} new tokens",
                      "grow the table by n_new rows, never by a number typed from these inputs", kind="real",
                      keeps=("corpus", "run", "context"))]


GROWN_BY = 5  # question 1's other inputs: as many new tokens as fill a model's spare rows, and 3 more


@functools.lru_cache(maxsize=None)
def _by_hand_parted() -> tuple:
    """Question 1's count by hand, new rows × d × (1 if tied else 2), against the course's count (count_params
    of the grown config less the shipped one), on every shipped model whose tokenizer size the course cites,
    each grown GROWN_BY rows past its table: ((model, n_new, what the by-hand count misses), ...), one model per
    kind of miss (a table narrower than d, a head bias, both), found by counting, not listed. The book's model
    may be of none of these kinds (GPT-2's count is the by-hand one), so its inputs cannot tell the two apart."""
    out, seen = [], set()
    for model in sorted(m for m in available_models() if _cited(m)):
        config = load_config(model)
        s = model_shape(config)
        n_new = s.vocab_size - n_tokens(model) + GROWN_BY
        added = calculate(model, vocab_size=s.vocab_size + GROWN_BY).total - count_params(config).total
        if added == GROWN_BY * s.hidden_size * (1 if s.tied else 2):
            continue
        width = count_params(config).token_embedding // s.vocab_size
        misses = tuple(w for w, holds in (
            (f"its table's rows are {width:,} numbers wide, word_embed_proj_dim, not d = {s.hidden_size:,}",
             width != s.hidden_size),
            ("its head has a bias, one number per new row", family(config["model_type"]).head_bias)) if holds)
        kind = (width != s.hidden_size, family(config["model_type"]).head_bias)
        if kind not in seen and misses:
            seen.add(kind)
            out.append((model, n_new, "; ".join(misses)))
    return tuple(out)


def added_elsewhere(ns: dict) -> list:
    """Question 1 on the shipped models where a count by hand (new rows × d × 1 or 2) is not the course's
    count (`_by_hand_parted`): the cell run there with vocab_model and n_new changed, and the names the
    exercise's given lines make from them (shape, V, d, tied, n_tok) made again, since the check runs the
    learner's own lines only. count_params gives the right count on every one; a formula by hand does not."""
    out = []
    for model, n_new, misses in _by_hand_parted():
        if model == ns.get("vocab_model"):
            continue
        config = load_config(model)
        shape = model_shape(config)
        rows = max(shape.vocab_size, n_tokens(model) + n_new)
        want = calculate(model, vocab_size=rows).total - count_params(config).total
        out.append(Elsewhere({"vocab_model": model, "n_new": n_new, "shape": shape, "V": shape.vocab_size,
                              "d": shape.hidden_size, "tied": shape.tied, "n_tok": n_tokens(model)}, want,
                             f"with vocab_model = {model!r} and n_new = {n_new:,} (its table grows by "
                             f"{rows - shape.vocab_size:,} rows)",
                             f"count the model before and after with count_params, as the question asks: a count "
                             f"by hand, new rows × d × (1 or 2), misses what {model}'s config holds ({misses})",
                             kind="integer"))
    return out


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    V, d, tied = shape_of(p)
    n, m = p["n_new"], p["pad_multiple"]
    grown_v, T, owned = grown_rows(p), n_tokens(p["vocab_model"]), owned_rows(p)

    def head_from_e():
        """Question 3's probability with the head's new rows at the mean of E (the wrong matrix)."""
        corpus, model, grown = _grown(p["seed"], n)
        wrong = resize_tinylm(model, n, "mean")
        wrong.params["U"][corpus.vocab_size:] = model.E.mean(axis=0)
        return float(_probabilities(wrong, corpus)[corpus.vocab_size])

    def all_new():
        corpus, _, grown = _grown(p["seed"], n)
        return float(_probabilities(grown, corpus)[corpus.vocab_size:].sum())

    def kl_sum():
        return len(_ordinary_contexts())

    trim = lambda: trimming(p["tokenizer"], p["lang"], p["n_words"])  # noqa: E731 - read when a hint is tried
    edited = lambda: edited_setups(p["seed"], n)  # noqa: E731 - trained and resized only when a hint is tried
    edited_words = [f"that is with the new rows started by {init!r}: the question starts every new row at the "
                    f"mean of the existing rows of its own matrix (resize_tinylm(run.model, n_new, \"mean\"))"
                    for init in INITS if init != "mean"]
    e, bias, new_rows = table_width(p), head_bias(p), grown_v - V
    whole = calculate(p["vocab_model"], vocab_size=grown_v)
    every_new = n * e * (1 if tied else 2) + (n if bias else 0)  # every new token given a new row
    spare = ("the new ids start at len(tokenizer) = n_tokens(vocab_model), and this table has spare rows past "
             "its tokens (V > n_tok): ")
    added = [
        Hint(lambda got, want: new_rows < n and got in {every_new, n * d * (1 if tied else 2)},
             spare + ("they all fit in the rows the table already has: it gains no parameter" if new_rows == 0
                      else "the first of them fit in the rows the table already has; only the ids past its last "
                           "row, n_tok + n_new − V of them, need new rows")),
        Hint(lambda got, want: want == 0 and got != 0,
             spare + "the new ids fit in the rows the table already has, so nothing is added"),
        # nothing added, where the table lacks spare rows for them: proven by the inputs (V − n_tok < n_new)
        Hint(lambda got, want: got == 0 and want != 0 and grown_v > V,
             "0 means the new ids all fit in spare rows past the tokenizer's tokens (rows past n_tok = len(tokenizer)); "
             + ("this table has none: V = n_tok, so every new id needs a new row" if V == T else
                "this table has only V − n_tok of them, fewer than n_new: the ids past its last row need new rows"),
             proven=True),
        Hint(lambda got, want: new_rows > 0 and got == new_rows,
             "each new row holds a row's width of numbers: multiply by the width of the table"),
        Hint(lambda got, want: got in {V * d, 2 * V * d, grown_v * d, 2 * grown_v * d, whole.token_embedding,
                                       whole.token_embedding + whole.lm_head},
             "that is the whole table after the resize; count only what the new tokens add (the new rows)"),
        related(whole.total, "that is the whole resized model's count: the question asks what the model gains, "
                             "the resized count less the count before (a difference)"),
        related(count_params(load_config(p["vocab_model"])).total,
                "that is the model's count before the resize: the question asks what it gains (the difference)"),
    ]
    tied_words = "the head is tied: the new rows of E are the head's new rows too, one array, counted once"
    if tied and d == 2 * e:  # OPT-350M: twice the count is either slip, so the hint names both
        tied_words = ("twice the count: either the head counted apart (it is tied: the new rows of E are the "
                      "head's too, one array, counted once) or each row taken hidden_size wide, where this "
                      "table's rows are word_embed_proj_dim wide")
    if not bias:  # with a head bias the count is not a multiple of the rows' numbers: the parts name it
        added.append(ratio(2, tied_words) if tied
                     else ratio(0.5, "the head is untied: it needs its own n_new new rows as well as E's"))

    def added_parts():
        width = Part("width", e, "numbers per row of the table",
                     missing="each new row holds a row's width of numbers: multiply by the width of the table",
                     alts=[Alt(d, "hidden_size is not this table's width: its rows are word_embed_proj_dim "
                                  "numbers wide (count_params(config).token_embedding / V)")] if e != d else [])
        row_alts = [Alt(n, spare + "only the ids past the table's last row, n_tok + n_new − V of them, need new "
                               "rows")] if new_rows != n else []
        padded_rows = padded_size(grown_v, p["pad_multiple"]) - V
        if padded_rows != new_rows:  # a step of question 2 (padding) taken in question 1: rows up to the padded size
            row_alts.append(Alt(padded_rows, "question 1 does not pad: the table grows to max(V, n_tok + n_new) "
                                             "rows, no more; padding to a multiple of pad_multiple is question 2's "
                                             "step"))
        rows = Prod("the new rows' numbers", [
            Part("new rows", new_rows, "n_tok + n_new − V, the new ids past the table's last row", alts=row_alts),
            width, matrices(tied, "new rows")])
        if not bias:
            return Answer(rows)
        return Answer(Sum("the new parameters", [rows, Part(
            "head biases", new_rows, "one head bias per new token", can_double=False,
            missing="the head has a bias (one number per row of the head): each new token adds its bias too")]))

    return [
        Integer("added_params", hints=added, parts=added_parts if new_rows else None, other_inputs=added_elsewhere,
                inputs=lambda: {"n_new": n, "d": d, **({"word_embed_proj_dim": e} if e != d else {})}),
        Integer("padding_rows", hints=padding_hints(p), parts=lambda: padding_parts(p),
                inputs=lambda: {"n_new": n, "pad_multiple": m, "n_tok": T},
                reads=("vocab_model", p["vocab_model"]), recheck=lambda: padding_rechecks(p)),
        Real("p_new_token", sig=6, other_inputs=p_new_elsewhere, inputs=lambda: {"n_new": n}, hints=[
            # each "that is X" said only of X itself, computed (to 1 part in 10^9), never of a value near it
            related(1 / (V_TINY + n), "that is the bound 1/(V + n_new), not the model's probability: compute the "
                                      "softmax"),
            related(1 / V_TINY, "that is 1/V, the mean of the old model's V probabilities (they sum to 1): a new "
                                "row at the mean gets the probability of the mean logit, exp(mean logit) / the "
                                "softmax's sum, which is below 1/V; take the softmax of the grown "
                                "model's logits and read id corpus.vocab_size"),
            Hint(lambda got, want: math.isclose(got, all_new(), rel_tol=1e-5),
                 "that is all n_new new tokens together; give the first one's probability"),
            Hint(lambda got, want: math.isclose(got, head_from_e(), rel_tol=1e-5),
                 "the head's new rows go at the mean of the head's own rows (U), not of E's"),
            related(lambda want: edited()[1], "that is the probability of id corpus.vocab_size − 1, the last old "
                                              "token: the first new token is id corpus.vocab_size (ids count from 0)",
                    rel=1e-6),
            *[related(lambda want, i=i: edited()[0][i][0], edited_words[i], rel=1e-6) for i in range(len(INITS) - 1)],
            Hint(lambda got, want: not 0 <= got <= 1, "a probability lies between 0 and 1: is this a logit "
                                                      "or a log-probability? Take the softmax of the logits"),
            *given_replaced(lambda n_new: _grown_answers(p["seed"], n_new)[0], {"n_new": n},
                            what={"n_new": "of a vocabulary grown by {literal} token"}),
            Hint(lambda got, want: got > 1 / (V_TINY + n), "more than a row at the mean can get (at most "
                                                         "1/(V + n_new)): a new row not at the mean of its own "
                                                         "matrix, or a value that is not the softmax's probability?"),
        ]),
        Real("kl_mean", sig=6, hints=[
            Hint(lambda got, want: math.isclose(got, want * kl_sum(), rel_tol=1e-5),
                 "that is the sum over the positions; give the mean"),
            Hint(lambda got, want: math.isclose(got, math.log1p(n / V_TINY), rel_tol=1e-6),
                 "that is the bound log(1 + n_new/V), not the model's KL: compute it from the logits"),
            Hint(lambda got, want: got < 0, "a KL divergence is never negative: KL(before ‖ after) = "
                                            "Σ p_before · (log p_before − log p_after)"),
            related(lambda want: p_new_share(p["seed"], n), "that is the mean of P_new, the new tokens' share of the "
                                                            "probability: under a mean initialisation the KL at each "
                                                            "position is −log(1 − P_new), close to it but not it; "
                                                            "compute the KL from the logits, before and after"),
            related(lambda want: edited()[2], "that is the KL with the new tokens' columns cut off the new logits: "
                                              "cut, the old tokens' probabilities are as before, and the share the "
                                              "new tokens take from them is lost; pass all of grown's logits "
                                              "(kl_divergence takes the extra columns)", rel=1e-6, abs_tol=1e-12),
            *[related(lambda want, i=i: edited()[0][i][1], edited_words[i], rel=1e-6) for i in range(len(INITS) - 1)],
            related(lambda want: kl_on_training(p["seed"], n),
                    "that is measured on the training corpus's positions (corpus.training_pairs): the question "
                    "measures on `ordinary`'s contexts, text the model was not trained on", rel=1e-6),
            related(lambda want: edited()[3], "that passes probabilities to kl_divergence, which takes logits (it "
                                              "applies softmax itself, so a softmax is taken twice): pass the logits, "
                                              "before and after", rel=1e-6),
            *given_replaced(lambda n_new: _grown_answers(p["seed"], n_new)[1], {"n_new": n},
                            what={"n_new": "of a vocabulary grown by {literal} token"}),
        ]),
        Integer("trimmed_rows", hints=[
            Hint(lambda got, want: got in (p["n_words"] + 257, p["n_words"] + 256, p["n_words"] + 1, p["n_words"]),
                 "that counts the words, not their tokens: a word may take several tokens and words share tokens; "
                 "keep the distinct ids of the words' tokens (a set), with the byte tokens and the end-of-text token"),
            Hint(lambda got, want: got in (trim()["used"], trim()["used"] + 1),
                 "keep the 256 byte tokens too: without them some text cannot be encoded at all"),
            offset(-1, "one row short: either the end-of-text token (tok.eot_token) is left out, or one of the 256 "
                       "byte tokens (range(256) holds 0 to 255)"),
            Hint(lambda got, want: got == trim()["used"] + 257 or got == trim()["used"] + 256,
                 "some byte tokens are already among the words' tokens: count the union, each id once"),
            related(lambda want: trim()["n_vocab"] - want, "that counts the rows trimmed away (tok.n_vocab less "
                                                          "those kept): the question asks how many rows the table "
                                                          "keeps"),
            # every occurrence counted: the slip's own values (with the byte tokens and the end-of-text token, or not),
            # exactly; a value merely as big tells no such story
            Hint(lambda got, want: got in {trim()["used_tokens"] + k for k in (0, 1, 256, 257)},
                 "count each token id once (a set), not every occurrence"),
        ]),
        Integer("saved_params", hints=[
            ratio(2, "the head is tied: one array, trimmed once") if p["trim_tied"]
            else ratio(0.5, "the head is untied: it loses the same rows as E"),
            Hint(lambda got, want: got == n_keep_params(p, kept=True),
                 "that is what the trimmed table keeps; the question asks what it removes"),
        ], parts=lambda: Answer(Prod("the parameters removed", [
            Part("dropped rows", load_tokenizer_size(p["tokenizer"]) - p["n_keep"], "tok.n_vocab − n_keep",
                 alts=[Alt(p["n_keep"], "that is what the trimmed table keeps; the question asks what it removes")]),
            Part("width", p["d_trim"], "d_trim numbers per row",
                 missing="each dropped row held d_trim numbers: multiply by the width"),
            matrices(p["trim_tied"], "dropped rows"),
        ])), inputs=lambda: {"tok.n_vocab": load_tokenizer_size(p["tokenizer"]), "n_keep": p["n_keep"],
                             "d_trim": p["d_trim"]}),
        Real("coverage", exact=True, hints=[
            Hint(lambda got, want: math.isclose(got, 1 - want, rel_tol=1e-9),
                 "that is the share that needs a dropped token; give the share that is covered"),
            Hint(lambda got, want: math.isclose(got, trim()["unweighted"], rel_tol=1e-9),
                 "that is the share of the words; weight each word by its frequency (its occurrences)"),
            Hint(lambda got, want: math.isclose(got, trim()["without_bytes"], rel_tol=1e-9),
                 "the 256 byte tokens and the end-of-text token are kept too, not only `used`"),
            *[related(lambda want, i=i: coverage_without_space(p["tokenizer"], p["lang"], p["n_words"])[i],
                      "that encodes the words without the space before them: each word is encoded after a space "
                      "(\" \" + w), as `used` was, and a word's tokens differ without it") for i in (0, 1)],
            ratio(100, "give a share between 0 and 1, not a percentage"),
            related(lambda want: trim()["by_tokens"],
                    "that counts tokens: the next words' kept tokens over all their tokens; the share asked counts "
                    "words, each covered only when every one of its tokens is kept (set(ids) <= kept), weighted by "
                    "its frequency"),
            related(lambda want: trim()["kept_words"], "that measures the kept words themselves, which are covered by "
                                                       "construction (their tokens are the kept ones): measure the next "
                                                       "n_words words of the list, the ones not used to build `used`"),
            related(lambda want: trim()["any_token"], "that counts a word as covered when any one of its tokens is kept: "
                                                      "it is covered only when all of them are (set(ids) <= kept)"),
            *[Hint(lambda got, want, pair=pair: math.isclose(
                got, coverage_slips(p["tokenizer"], p["lang"], p["n_words"])[pair], rel_tol=1e-9),
                f"two slips: {COVERAGE_SLIPS[pair[0]]}; and {COVERAGE_SLIPS[pair[1]]}")
              for pair in itertools.combinations(sorted(COVERAGE_SLIPS), 2)],
        ]),
    ]


ROWS_NOT_TOKENS = ("V counts the table's rows, and this table has more rows than its tokenizer has tokens "
                   "(n_tokens(vocab_model) = len(tokenizer)): the rows no token owns are the padded size less "
                   "n_tok + n_new")
REMAINDER = ("that is the remainder max(V, n_tok + n_new) % pad_multiple, how far the table is past a multiple: "
             "the padding is what is missing up to the next multiple (round up)")


def padding_hints(p: dict) -> list:
    """Question 2's own hints: the padded size itself, rows taken for tokens, the remainder."""
    V, _, _ = shape_of(p)
    n, m, T = p["n_new"], p["pad_multiple"], n_tokens(p["vocab_model"])
    rows, owned = grown_rows(p), owned_rows(p)
    out = [Hint(lambda got, want: got == padded_size(rows, m),
                "that is the padded size; the question asks how many of its rows no token owns: subtract the "
                "tokens' rows, n_tok + n_new")]
    if V > T:
        out.append(Hint(lambda got, want: got == padded_size(V + n, m) - (V + n), ROWS_NOT_TOKENS))
        if rows > owned:
            spare = "the table's spare rows past its tokens (V − n_tok − n_new of them) belong to no token either"
            if padded_size(rows, m) - rows == rows % m and rows % m:  # the remainder is the same number: name both
                spare = ("either the rows the rounding adds, or the remainder, how far the table is past a "
                         "multiple (the same number here): " + spare)
            out.append(Hint(lambda got, want: got == padded_size(rows, m) - rows,
                            "that counts only the rows the rounding adds; " + spare
                            if not spare.startswith("either") else "that counts " + spare))
    out.append(padding_blocks(rows, m, "the tokens' rows, n_tok + n_new"))
    out += [Hint(lambda got, want: got == padded_size(V, m) - V,
                 "that pads V, the table before the new tokens are in; pad it after, with n_tok + n_new "
                 "tokens"),
            Hint(lambda got, want: got == rows % m, REMAINDER)]
    return out


def padding_recheck(p: dict) -> tuple[dict, int, str]:
    """Question 2 with as many new tokens as bring the tokens to a multiple of pad_multiple past V, so
    that no row is padding: m - (n_tok + n_new) % m gives m there, not 0, though this variant cannot tell."""
    V, _, _ = shape_of(p)
    m, T = p["pad_multiple"], n_tokens(p["vocab_model"])
    n2 = max(V - T, 1) + (-(T + max(V - T, 1))) % m
    other = dict(p, n_new=n2)
    return ({"V": V, ".vocab_size": V, "['vocab_size']": V, "n_tok": T, "T": T, "n_tokens()": T, "n_new": n2,
             "pad_multiple": m}, padding_rows(other),
            f"for n_new = {n2:,} (n_tok + n_new = {T + n2:,}, a multiple of pad_multiple = {m})")


def padding_rechecks(p: dict) -> list[tuple[dict, int, str]]:
    """Question 2's other inputs: n_new bringing the tokens to a multiple (above); a table padded
    already, V a multiple of pad_multiple past the grown tokens (Pythia's, OPT's, Phi's kind), where
    padding n_tokens + n_new alone falls short; a table of exactly n_tokens rows (GPT-2's: V =
    n_tokens there, so the book cannot tell V from n_tokens) whose new tokens cross a multiple, where
    padding V alone gives a negative count; a table with a few spare rows whose new tokens cross one
    or two multiples, where V and n_tokens read for each other part. V and n_tokens are given under the names
    a cell reads them by (V, shape.vocab_size, config["vocab_size"]; n_tok, as the exercise names it, or T,
    n_tokens(…))."""
    m = p["pad_multiple"]
    out = [padding_recheck(p)]
    k = 1000 * m
    for V, T, n in ((k + m, k - 5, 2),          # padded already, V a multiple: the table keeps its V rows
                    (k + 1, k + 1, m),          # V = n_tokens, the new tokens cross a multiple
                    (k + 1, k - 2, m + 5),      # a few spare rows, the new tokens cross two multiples
                    (k + 1, k - 2, m)):         # a few spare rows, the new tokens cross one
        rows = max(V, T + n)
        out.append(({"V": V, ".vocab_size": V, "['vocab_size']": V, "n_tok": T, "T": T, "n_tokens()": T, "n_new": n,
                     "pad_multiple": m}, padded_size(rows, m) - (T + n),
                    f"for V = {V:,} rows, n_tok = {T:,} and n_new = {n}"))
    return out


def padding_parts(p: dict) -> Answer:
    """Question 2 as parts: the padded size less the rows the tokens own."""
    V, _, _ = shape_of(p)
    n, m, T = p["n_new"], p["pad_multiple"], n_tokens(p["vocab_model"])
    rows, owned = grown_rows(p), owned_rows(p)
    size_alts = [Alt(rows // m * m, "that rounds down: the padded size is the table's rows rounded up to the "
                                    "next multiple of pad_multiple"),
                 Alt(2 ** math.ceil(math.log2(rows)), "that pads to the next power of two: pad to the next "
                                                      "multiple of pad_multiple")]
    if padded_size(V + n, m) != padded_size(rows, m):
        size_alts.append(Alt(padded_size(V + n, m), "V + n_new is not the table's size here: the new ids start "
                                                    "at n_tok and fill the spare rows first, so the table has "
                                                    "max(V, n_tok + n_new) rows before the rounding"))
    owned_alts = [Alt(-T, "the new tokens own their rows too: subtract n_tok + n_new")]
    if V + n != owned:
        owned_alts.append(Alt(-(V + n), ROWS_NOT_TOKENS))
    return Answer(Sum("the rows no token owns", alts=[Alt(rows % m, REMAINDER)], children=[
        Part("the padded size", padded_size(rows, m), "max(V, n_tok + n_new) rounded up to a multiple of "
                                                      "pad_multiple", alts=size_alts),
        Part("minus the tokens' rows", -owned, "n_tok + n_new", can_double=False, alts=owned_alts,
             missing="that is the padded size; the question asks how many of its rows no token owns")]))


def matrices(tied: bool, rows: str) -> Part:
    """How many matrices hold the rows: E alone when tied, E and the head when untied."""
    if tied:
        return Part("matrices", 1, "E only: the head is E", can_drop=False, can_double=False,
                    alts=[Alt(2, f"the head is tied: the {rows} of E are the head's too, one array, counted once")])
    return Part("matrices", 2, "E and the head", can_drop=False, can_double=False,
                alts=[Alt(1, f"the head is untied: it has its own {rows} as well as E's")])


V_TINY = len(VOCAB)   # lesson 09's corpus: the tiny model's vocabulary (74 tokens)


def n_keep_params(p: dict, kept: bool) -> int:
    rows = p["n_keep"] if kept else load_tokenizer_size(p["tokenizer"]) - p["n_keep"]
    return rows * p["d_trim"] * (1 if p["trim_tied"] else 2)


QUESTIONS = questions(DEFAULTS)


def slips(p: dict) -> list:
    """Usual slips for one variant: (question, wrong value, words its hint must contain)."""
    want = answers(p)
    V, d, tied = shape_of(p)
    n, m = p["n_new"], p["pad_multiple"]
    t = trimming(p["tokenizer"], p["lang"], p["n_words"])
    corpus, _, grown = _grown(p["seed"], n)
    r, e, bias = grown_rows(p) - V, table_width(p), head_bias(p)  # rows the table gains, their width, a head bias
    return [
        *([("added_params", r * e * (2 if tied else 1) + (r if bias else 0), "tied" if tied else "untied"),
           ("added_params", r, "multiply by the width")] if r else []),
        *([("added_params", r * e * (1 if tied else 2), "bias", f"added_params = new_rows * d * {1 if tied else 2}")]
          if bias and r else []),
        *([("added_params", r * d * (1 if tied else 2), "word_embed_proj_dim")] if e != d and r else []),
        ("padding_rows", padded_size(grown_rows(p), m), "padded size"),
        *([("padding_rows", grown_rows(p) % m, "past a multiple")] if grown_rows(p) % m else []),
        *([("padding_rows", padded_size(V + n, m) - (V + n), "more rows than its tokenizer has tokens",
            "padding_rows = padded_size(V + n_new, pad_multiple) - (V + n_new)")]
          if padded_size(V + n, m) - (V + n) != want["padding_rows"] else []),
        *([("added_params", n * table_width(p) * (1 if tied else 2) + (n if head_bias(p) else 0), "spare rows")]
          if grown_rows(p) - V < n else []),
        ("p_new_token", 1 / (V_TINY + n), "bound"),
        ("p_new_token", float(_probabilities(grown, corpus)[corpus.vocab_size:].sum()), "all n_new"),
        ("kl_mean", want["kl_mean"] * len(_ordinary_contexts()), "sum over the positions"),
        ("kl_mean", math.log1p(n / V_TINY), "bound"),
        ("trimmed_rows", t["used"], "256 byte tokens"),
        ("trimmed_rows", t["kept"] - 1, "end-of-text"),
        ("trimmed_rows", t["used"] + 257, "union"),
        ("saved_params", n_keep_params(p, kept=True), "keeps"),
        # units: the count in millions; its size in bytes (fp32) where parameters are asked
        ("saved_params", float(f"{want['saved_params'] / 1e6:.3g}"), "in millions"),
        ("saved_params", 4 * want["saved_params"], "size in bytes",
         f"saved_params = (tok.n_vocab - n_keep) * d_trim * {1 if p['trim_tied'] else 2} * 4  # fp32 bytes"),
        ("saved_params", want["saved_params"] * 2 if p["trim_tied"] else want["saved_params"] // 2,
         "tied" if p["trim_tied"] else "untied"),
        ("coverage", 1 - want["coverage"], "dropped token"),
        ("coverage", t["unweighted"], "frequency"),
        ("coverage", t["without_bytes"], "byte tokens"),
        ("coverage", 100 * want["coverage"], "percentage"),
    ]

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/12-change-a-vocabulary.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "added_params": "4. Tokens are not rows",
    "padding_rows": "4. Tokens are not rows",
    "p_new_token": "1. Four new tokens, before any training",
    "kl_mean": "1. Four new tokens, before any training",
    "trimmed_rows": "5. Trimming a vocabulary to one language",
    "saved_params": "5. Trimming a vocabulary to one language",
    "coverage": "5. Trimming a vocabulary to one language",
}
