"""Exercise 08 `vocabulary-size`: the table, its share, the bigger head, the break-even, BPE's merge loop, tokens
per word, an audit, and doubling a real vocabulary for Hindi (GPT-2 against cl100k_base).

Parameterised (class mode, embedlab.grading.variants): SPACE declares the
variant space, `questions(params)` the questions with hints for one variant.
"""

import functools
import math

import numpy as np

from embedlab.grading.elsewhere import Elsewhere
from embedlab.grading.kinds import Array, Function, Hint, Integer, Invariant, Real, Slip, ratio, ratio_of_sizes
from embedlab.grading.parts import Alt, Answer, Extra, Part, Prod, Ratio, Scale, Sum
from embedlab.grading.space import FRESH_INPUTS, Space, equal_to_book
from embedlab.grading.verdicts import untold_slips

LESSON = "08-vocabulary-size"

# --------------------------------------------------------------------------
# The variant space

# Questions 1-4: the blocks of a shipped model with rotary positions and no projection (so that
# "everything but the table" is its blocks and final norm); the book's is Llama-3.2-1B's.
MODELS = ["llama-3.2-3b", "qwen2.5-0.5b", "qwen3-0.6b", "gemma-2-2b", "gemma-3-1b", "smollm2-135m",
          "qwen3-8b", "mistral-7b"]
V_BIGS = [100_000, 128_000, 150_000, 200_000, 256_000, 300_000]  # round thousands: "K" is 1,000 tokens
V_SMALLS = [32_000, 40_000, 50_000, 64_000]
# Question 6: a language trained with Hindi (wordfreq's small lists) other than the book's English:
# Latin, Cyrillic, Arabic and Indian scripts
PARTNERS = ["fr", "es", "de", "ru", "ar", "bn", "ta", "ur"]
N_TRAINS = [300, 400, 500, 600]       # top words of each language the tokenizer trains on
V_BPES = [300, 400, 600, 800]         # the audited tokenizer's vocabulary
N_TOPS = [50, 80, 100, 120, 150, 200]  # top Hindi words audited (at most n_train)
# Question 7: how many of the top Hindi words are measured
N_WORDS = [200, 300, 400, 600, 800, 1000]

DEFAULTS = {
    "d": 2048,
    "rest": 973_146_112,
    "blocks": 1_946_157_056,
    "V_small": 50_000,
    "V_big": 256_000,
    "partner": "en",
    "n_train": 500,
    "V_bpe": 500,
    "n_top": 100,
    "n_words": 500,
}


@functools.lru_cache(maxsize=None)
def model_figures(model: str) -> tuple[int, int, int]:
    """(d, rest, blocks) of a shipped model: its width, its parameters outside the token table and
    head (blocks and final norm), and its blocks' matmul FLOPs per token."""
    from embedlab.compute import token_costs
    from embedlab.params import count_params, load_config, model_shape

    config = load_config(model)
    return model_shape(config).hidden_size, count_params(config).non_embedding, token_costs(config).blocks


@functools.lru_cache(maxsize=None)
def audit(partner: str, n_train: int, V_bpe: int, n_top: int) -> tuple[float, float]:
    """Question 6: the share of the top `n_top` Hindi words, and of the partner's, that are one token."""
    from embedlab.bpe import add_counts, train_bpe, word_counts

    other, hindi = word_counts(partner, n_train), word_counts("hi", n_train)
    bpe = train_bpe(add_counts(other, hindi), V_bpe)
    return tuple(sum(bpe.count_tokens(w) == 1 for w in list(words)[:n_top]) / n_top for words in (hindi, other))


@functools.lru_cache(maxsize=8)
def audit_weighted(partner: str, n_train: int, V_bpe: int, n_top: int) -> float:
    """Question 6 weighted by the words' counts: the share of the running words (each of the top `n_top` Hindi
    words counted as often as it occurs) that are one token; the audit asks for each word once."""
    from embedlab.bpe import add_counts, train_bpe, word_counts

    other, hindi = word_counts(partner, n_train), word_counts("hi", n_train)
    bpe = train_bpe(add_counts(other, hindi), V_bpe)
    top = list(hindi)[:n_top]
    return sum(hindi[w] for w in top if bpe.count_tokens(w) == 1) / sum(hindi[w] for w in top)


def hindi_share_elsewhere(ns: dict) -> list:
    """Question 6 on the n_top // 2 most frequent Hindi words (n_top and top_hindi both halved): a share
    divided by a typed count (the book's 100) is off by half there, one divided by len(top_hindi) or n_top
    is not. Then on more of them (twice n_top, at most the n_train the tokenizer trained on, from the
    parameters: the same in the notebook and the grader): a slice typed from these inputs (top_hindi[:100])
    keeps the book's words there. The tokenizer is the notebook's own `bpe` (trained once, not again)."""
    from embedlab.bpe import word_counts

    n_top, top = int(ns["n_top"]), list(ns["top_hindi"])
    half = top[: max(1, n_top // 2)]
    out = []
    for words in (half, list(word_counts("hi", int(ns["n_train"])))[: 2 * n_top]):
        if len(words) == n_top and words == top:
            continue
        share = sum(ns["bpe"].count_tokens(w) == 1 for w in words) / len(words)
        out.append(Elsewhere({"n_top": len(words), "top_hindi": words}, share,
                             f"with the {len(words)} most frequent Hindi words (n_top = {len(words)})",
                             "a share divides by the number of words audited: len(top_hindi) (or n_top), never a "
                             "count typed from these inputs", kind="real"))
    return out


def vocabulary_sizes() -> dict:
    """The two tokenizers' vocabulary sizes (n_vocab) question 7's cell prints."""
    from embedlab.tokenizers import load_tokenizer

    return {f"{name}'s n_vocab": load_tokenizer(name).n_vocab for name in ("gpt2", "cl100k_base")}


# What each number of the parameters cell counts (said when one is read where another belongs)
INPUT_MEANINGS = {"rest": "the rest of the model's parameters", "blocks": "the blocks' FLOPs per token, not parameters",
                  "d": "the width", "V_small": "the smaller vocabulary", "V_big": "the bigger vocabulary"}


def described_inputs(p: dict) -> dict:
    """The parameters cell's numbers a count may read, by the names the cell gives them: one read where another
    belongs (`blocks`, FLOPs per token, where `rest`, parameters, belongs) is one change (parts.changes_of)."""
    return {name: p[name] for name in ("d", "rest", "blocks", "V_small", "V_big")}


@functools.lru_cache(maxsize=None)
def hindi_r_figures(n_words=500, space=True, weighted=True):
    """r = cl100k tokens per Hindi word / GPT-2 tokens per word, computed the way a wrong answer might."""
    from embedlab.bpe import word_counts
    from embedlab.tokenizers import load_tokenizer

    hindi = word_counts("hi", n_words)
    prefix = " " if space else ""
    means = []
    for name in ("gpt2", "cl100k_base"):
        lengths = [len(ids) for ids in load_tokenizer(name).encode_ordinary_batch([prefix + w for w in hindi])]
        weights = list(hindi.values()) if weighted else [1] * len(hindi)
        means.append(sum(n * c for n, c in zip(lengths, weights)) / sum(weights))
    return means[1] / means[0], means


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: a shipped model's blocks, a vocabulary pair, the audit's partner language
    and sizes, and question 7's word count."""
    d, rest, blocks = model_figures(pick("model", MODELS))
    n_train = int(rng.choice(N_TRAINS))
    return {
        "d": d,
        "rest": rest,
        "blocks": blocks,
        "V_small": int(rng.choice(V_SMALLS)),
        "V_big": int(rng.choice(V_BIGS)),
        "partner": pick("partner", PARTNERS),
        "n_train": n_train,
        "V_bpe": int(rng.choice(V_BPES)),
        "n_top": int(rng.choice([n for n in N_TOPS if n <= n_train])),
        "n_words": pick("n_words", N_WORDS),
    }


def answers(p: dict) -> dict:
    """Every non-function answer of a variant, computed here only to vet the variant (`problems`)
    and to make the slips; the answer key itself is harvested by running the solution notebook."""
    d, table = p["d"], p["V_big"] * p["d"]
    return {
        "embedding_params": table,
        "embedding_share": table / (table + p["rest"]),
        "extra_head_flops": 2 * d * p["V_big"] - 2 * d * p["V_small"],
        "break_even_r": (p["blocks"] + 2 * d * p["V_small"]) / (p["blocks"] + 2 * d * p["V_big"]),
        "hindi_single_token_share": audit(p["partner"], p["n_train"], p["V_bpe"], p["n_top"])[0],
        "hindi_r": hindi_r_figures(p["n_words"])[0],
    }


def _rounded(x: float) -> float:
    return float(f"{x:.2g}")


def slips(p: dict) -> list:
    """The learner's usual slips in variant `p`: (question, wrong value, words its hint must contain).
    `problems` rejects a variant where one of them is not told apart; the tests judge them all."""
    want = answers(p)
    d, V_small, V_big = p["d"], p["V_small"], p["V_big"]
    table, share = want["embedding_params"], want["embedding_share"]
    out = [
        ("embedding_params", 2 * table, "tied"),
        ("embedding_params", V_big // 1000 * 1024 * d, "K here means"),
        # units: the count in millions; its size in bytes (bf16) where parameters are asked
        ("embedding_params", float(f"{table / 1e6:.3g}"), "in millions"),
        ("embedding_params", 2 * table, "size in bytes", "embedding_params = V_big * d * 2  # bf16: 2 bytes"),
        ("embedding_share", share / (1 - share), "whole model"),
        ("embedding_share", 100 * share, "percentage"),
        ("extra_head_flops", want["extra_head_flops"] // 2, "2 FLOPs per weight"),
        ("extra_head_flops", 2 * d * V_big, "how much more"),
        ("break_even_r", 1 / want["break_even_r"], "upside down"),
        ("break_even_r", V_small / V_big, "include them"),
        ("hindi_single_token_share", 100 * want["hindi_single_token_share"], "percentage"),
        ("hindi_single_token_share", audit(p["partner"], p["n_train"], p["V_bpe"], p["n_top"])[1],
         "audit the Hindi ones"),
        ("hindi_r", 1 / want["hindi_r"], "upside down"),
        ("hindi_r", hindi_r_figures(p["n_words"], weighted=False)[0], "weight each word"),
        ("hindi_r", hindi_r_figures(p["n_words"], space=False)[0], "after a space"),
        ("hindi_r", hindi_r_figures(p["n_words"])[1][0], "one tokenizer's"),
        ("hindi_r", hindi_r_figures(p["n_words"])[1][1], "one tokenizer's"),
    ]
    total = table + p["rest"]
    if _rounded(total) != total:
        out.append(("embedding_share", table / _rounded(total), "exact total"))
    return out


def problems(p: dict) -> list[str]:
    """What makes a drawn variant unusable: a degenerate question, an answer equal to the book's,
    or a usual slip its hint does not name (two slips that give the same value)."""
    out = []
    if not p["V_small"] < p["V_big"]:
        out.append("V_small is not below V_big")
    if not p["n_top"] <= p["n_train"]:
        out.append("n_top is over n_train")
    if out:
        return out
    want = answers(p)
    if not 0 < want["hindi_single_token_share"] < 1:
        out.append(f"hindi_single_token_share is {want['hindi_single_token_share']}, not strictly between 0 and 1")
    book = answers(DEFAULTS)
    out += equal_to_book(want, book)
    out += untold_slips(questions(p), want, slips(p))
    return out


def _describe() -> str:
    return (f"d, rest and blocks: the width, parameters outside the table and blocks' FLOPs per token of one "
            f"of {len(MODELS)} shipped models ({', '.join(MODELS)}); V_big: one of {V_BIGS}; V_small: one of "
            f"{V_SMALLS}, below V_big; partner: one of {PARTNERS} (wordfreq); n_train: one of {N_TRAINS}; "
            f"V_bpe: one of {V_BPES}; n_top: one of {N_TOPS} up to n_train; n_words: one of {N_WORDS}; every "
            f"model, partner and n_words different in every variant up to its pool's size, every answer "
            f"different from the book's, and every usual slip told apart by its hint")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe(),
              fixed={"tokens_per_word": FRESH_INPUTS, "bpe_merges": FRESH_INPUTS})

# --------------------------------------------------------------------------
# The questions


def tokens_per_word(counts, n_tokens):
    """Mean tokens per running word: each word weighted by how often it occurs."""
    counts = np.asarray(counts, dtype=np.float64)
    n_tokens = np.asarray(n_tokens, dtype=np.float64)
    return float((counts * n_tokens).sum() / counts.sum())


def bpe_merges(counts, n_merges):
    """Reference: the first `n_merges` merges of byte-level BPE on word counts, as embedlab.bpe trains
    them (the most frequent pair, weighted by the words' counts; ties to the smallest pair of ids; every
    occurrence merged, left to right; stops early when no pair is left)."""
    from embedlab.bpe import BASE_VOCAB, train_bpe

    return [tuple(int(t) for t in pair) for pair in train_bpe(dict(counts), BASE_VOCAB + int(n_merges)).merges]


def _merge_loop(counts, n_merges, tie="smallest", weighted=True, every=True, as_bytes=True, numbered=True,
                order="left", overlap=False):
    """The merge loop written plainly, with the usual slips as switches: `tie` "largest" (the other way),
    "first" or "last" (the first or last pair counted, as max(pairs, key=pairs.get) or a stable sort
    leaves it); `weighted` False (each word's pairs counted once); `every` False (only a word's first
    occurrence of the pair merged); `as_bytes` False (words start as characters, ord(), not bytes); `numbered`
    False (every merge's new token given the same id, 256, not 256 + k); `order` "right" (a word's occurrences
    merged from its end: `a a a` made `a N`); `overlap` True (every position the pair starts at, or ends at, used:
    `a a a` made `N N`)."""
    words = [list(w.encode("utf-8")) if as_bytes else [ord(ch) for ch in w] for w in counts]
    freqs = [int(n) for n in counts.values()]
    merges = []
    for k in range(int(n_merges)):
        pairs = {}
        for tokens, n in zip(words, freqs):
            for pair in zip(tokens, tokens[1:]):
                pairs[pair] = pairs.get(pair, 0) + (n if weighted else 1)
        if not pairs:
            break
        top = max(pairs.values())
        tied = [pair for pair in pairs if pairs[pair] == top]  # in the order they were counted
        best = {"smallest": min(tied), "largest": max(tied), "first": tied[0], "last": tied[-1]}[tie]
        merges.append(best)
        for i, tokens in enumerate(words):
            if order == "right":  # the word scanned from its end: the same rule, mirrored
                out, j = [], len(tokens) - 1
                while j >= 0:
                    if j >= 1 and (tokens[j - 1], tokens[j]) == best:
                        out.insert(0, 256 + k if numbered else 256)
                        j -= 2
                    else:
                        out.insert(0, tokens[j])
                        j -= 1
                words[i] = out
                continue
            if overlap:  # a token that ends a merged pair and starts another is merged twice
                out = []
                for j in range(len(tokens)):
                    if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best:
                        out.append(256 + k if numbered else 256)
                    elif not (j > 0 and (tokens[j - 1], tokens[j]) == best):
                        out.append(tokens[j])
                words[i] = out
                continue
            out, j, done = [], 0, False
            while j < len(tokens):
                if j + 1 < len(tokens) and (tokens[j], tokens[j + 1]) == best and not done:
                    out.append(256 + k if numbered else 256)
                    j += 2
                    done = not every
                else:
                    out.append(tokens[j])
                    j += 1
            words[i] = out
    return merges


TIE_WORDS = ("a tie broken another way: when pairs are equally frequent, merge the smallest pair of ids, "
             "comparing the pairs as tuples ((97, 98) before (97, 99) before (98, 0)), as embedlab.bpe does; "
             "not the first or last pair counted, not the largest")
UNWEIGHTED_WORDS = ("each word's pairs are counted once: weight every pair by how often its word occurs (add the "
                    "word's count, not 1)")
CHARS_WORDS = ("your words start as characters (ord), not bytes: byte-level BPE starts every word as its UTF-8 "
               "bytes, list(word.encode('utf-8')), so a letter outside ASCII is two or three tokens")
SAME_ID_WORDS = ("every merge's new token gets the same id, 256: merge k makes a token of its own, id 256 + k (k "
                 "from 0), so a later merge can tell the new tokens apart")
RIGHT_TO_LEFT_WORDS = ("your loop merges a word's occurrences from its end: merge them left to right, without "
                       "overlaps (`a a a` becomes `N a`, not `a N`)")
OVERLAP_WORDS = ("overlapping occurrences merged twice: a token used by one merged pair is not free for the next; "
                 "merge left to right, without overlaps (`a a a` becomes `N a`, not `N N`)")
FIRST_ONLY_WORDS = ("only the first occurrence of the pair in a word is merged: merge every occurrence, left to "
                    "right, without overlaps (`a a a` becomes `N a`)")


def _merge_slips() -> list:
    """The usual slips of the merge loop, alone and two at a time."""
    one = [({"tie": tie}, TIE_WORDS) for tie in ("largest", "first", "last")] + [
        ({"weighted": False}, UNWEIGHTED_WORDS), ({"every": False}, FIRST_ONLY_WORDS),
        ({"as_bytes": False}, CHARS_WORDS), ({"numbered": False}, SAME_ID_WORDS),
        ({"order": "right"}, RIGHT_TO_LEFT_WORDS), ({"overlap": True}, OVERLAP_WORDS)]
    out = [Slip(functools.partial(_merge_loop, **kw), words) for kw, words in one]
    for i, (kw1, w1) in enumerate(one):
        for kw2, w2 in one[i + 1:]:
            if set(kw1) & set(kw2):  # two tie rules at once: not a slip
                continue
            if {"every", "order", "overlap"} & set(kw1) and {"every", "order", "overlap"} & set(kw2):
                continue  # two ways of replacing one occurrence at once: one rule of the replacement, not two slips
            out.append(Slip(functools.partial(_merge_loop, **kw1, **kw2), f"two slips: {w1}; and {w2}"))
    return out


def _merge_cases(rng):
    """Fixed word counts, each there for a kind of bug (every seed tests them), then random ones.

    * ``{"zy": 3, "ab": 3}``, 1 merge: two pairs tied: the smallest pair of ids, (97, 98), wins;
      ties to the largest pair, or to the first pair counted, take (122, 121).
    * ``{"ab": 3, "zy": 3}``, 1 merge: the same tie counted in the other order: ties to the last pair
      counted take (122, 121) (the case above parts first from smallest).
    * ``{"zy": 10, "ab": 1, "abc": 1}``, 1 merge: weighted, (122, 121) wins 10 to 2; each word once,
      (97, 98) wins 2 to 1.
    * ``{"abab": 1}``, 2 merges: (97, 98) occurs twice in one word: both merged, then (256, 256);
      merging only the first leaves 256 a b, and the second merge is (97, 98) again.
    * ``{"aaa": 2, "b": 1}``, 3 merges: overlapping occurrences, (97, 97) counted twice but merged
      once (N a), then (256, 97); then no pair is left: 2 merges, not 3 (a loop that does not stop
      raises, or makes up a merge).
    * ``{"के": 3, "है": 2}``, 4 merges: Devanagari, three bytes a letter: BPE works on UTF-8 bytes
      (ord() of a letter gives ids past 255).
    * ``{"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}``, 6 merges: a worked example with
      merged tokens merged again (ids 256 + k).
    * thirty ten-letter words, 60 merges: ids past 300 (a table of pair counts of a fixed size, 300 × 300
      or 256 + a few, overflows or misses them).
    * ``{"AB": 4, "¥B": 2}``, 3 merges, and ``{"aa88": 4, "aa": 5}``, 3 merges: ids whose decimal forms
      overlap (cases.blind_spots): ¥ is the bytes 194 165, and "194 165 66" holds "65 66", the pair AB;
      the first merge's token 256 ends with the digits of 8 (56), and "256 56 56" holds "56 56". Ids
      written as text and merged with str.replace merge inside a neighbour there.
    Then random counts over 3 to 5 letters (small alphabets: repeats and ties), one letter sometimes
    two bytes in UTF-8.
    """
    cases = [({"zy": 3, "ab": 3}, 1), ({"ab": 3, "zy": 3}, 1), ({"zy": 10, "ab": 1, "abc": 1}, 1),
             ({"abab": 1}, 2), ({"aaa": 2, "b": 1}, 3), ({"के": 3, "है": 2}, 4),
             ({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, 6),
             ({"".join(chr(97 + (7 * i + 3 * j) % 26) for j in range(10)): i + 1 for i in range(30)}, 60),
             ({"AB": 4, "¥B": 2}, 3), ({"aa88": 4, "aa": 5}, 3)]
    for n_words, n_merges in ((5, 4), (8, 8), (12, 12)):
        letters = list(rng.choice(list("abcdefgh"), size=int(rng.integers(3, 6)), replace=False))
        if rng.random() < 0.5:
            letters.append("é")
        counts = {}
        while len(counts) < n_words:
            word = "".join(rng.choice(letters, size=int(rng.integers(1, 8))))
            counts.setdefault(word, int(rng.integers(1, 31)))
        cases.append((counts, n_merges))
    return cases


def _merges_in_order(got, counts, n_merges) -> bool:
    """Merge k joins ids that exist before it: bytes (0-255) and the tokens of merges 0 to k - 1."""
    got = np.asarray(got)
    if got.size == 0:
        return True
    return got.ndim == 2 and got.shape[1] == 2 and all(
        0 <= a < 256 + k and 0 <= b < 256 + k for k, (a, b) in enumerate(got.tolist()))


def _no_text_merge(got, counts, n_merges) -> bool:
    """No merge joins an id that no merge made whose decimal form holds a made token's digits after others
    (1256 = "1" + "256"): the signature of ids merged as text ("165 66" holds "65 66", replaced by "256")."""
    got = np.asarray(got)
    if got.ndim != 2 or got.shape[1:] != (2,):
        return True
    if not np.all(np.isfinite(got)) or not np.all(got == np.round(got)):
        return True
    for k, pair in enumerate(got.astype(np.int64).tolist()):
        for x in pair:
            if not 0 <= x < 256 + k and any(str(x) != str(256 + j) and str(x).endswith(str(256 + j))
                                            for j in range(k)):
                return False
    return True


TEXT_MERGE_WORDS = ("a merge joins an id no merge made, whose digits end with a merged token's id (for example 1256, "
                    "which ends with 256): a pair was merged inside the text of a neighbouring id (as \"165 66\" "
                    "holds \"65 66\"); keep each word as a list of int ids and merge whole ids, never their "
                    "decimal text")

def _each_pair_once(got, counts, n_merges) -> bool:
    """No pair is merged twice: a merge replaces every occurrence of its pair in every word, and later merges
    only put new ids (256 + k) in place of pairs, so no two old ids become neighbours again."""
    got = np.asarray(got)
    if got.ndim != 2 or got.shape[1:] != (2,):
        return True
    pairs = [tuple(p) for p in got.tolist()]
    return len(set(pairs)) == len(pairs)


LEFT_BEHIND_WORDS = ("a merge repeats the pair of an earlier merge, so that merge left the pair behind somewhere "
                     "(a later occurrence in the same word, or a word not rewritten): replace every occurrence of the "
                     "pair, in every word, left to right, before counting the pairs again")

MERGE_INVARIANTS = [
    Invariant(_no_text_merge, TEXT_MERGE_WORDS),
    Invariant(_each_pair_once, LEFT_BEHIND_WORDS),
    Invariant(lambda got, counts, n_merges: np.asarray(got).ndim == 2 and np.asarray(got).shape[1] == 2,
              "each merge is a pair of two token ids: return a list of (a, b) pairs, one per merge"),
    Invariant(lambda got, counts, n_merges: len(np.asarray(got)) <= n_merges,
              "at most n_merges merges: stop after n_merges, or earlier when no pair is left"),
    Invariant(_merges_in_order,
              "merge k (counting from 0) can only join bytes (0-255) and tokens made by earlier merges "
              "(256 to 255 + k): the token merge k makes gets id 256 + k, and words start as their UTF-8 bytes "
              "(word.encode('utf-8')), not as characters"),
]


def _is(got, value):
    return math.isclose(got, value, rel_tol=1e-6)


def _word_lists(rng):
    """Fixed lists, each there for a kind of bug (every seed tests them), then random ones.

    * ``[5, 1]``, ``[1, 7]``: 2: the unweighted mean of n_tokens (4), weights on n_tokens (1.5).
    * ``[1, 1, 1]``, ``[1, 2, 3]``: 2: every word once: tokens over types, not running words.
    * ``[1000]``, ``[4]``: one word: code that assumes several.
    * ``[2, 1]``, ``[1, 2]``: 4/3: ``//`` or ``int(...)`` (the cases above all come out whole).
    * ``[3_000_000_000, 1]``, ``[1, 3]``: a count past 2**31 (a web-scale corpus): counts in int32
      wrap (or refuse).
    * 1,000 words: a loop over a fixed number of words.
    """
    cases = [([5, 1], [1, 7]), ([1, 1, 1], [1, 2, 3]), ([1000], [4]), ([2, 1], [1, 2]),
             ([3_000_000_000, 1], [1, 3]), (list(range(1, 1001)), [1 + i % 5 for i in range(1000)])]
    for size in (3, 10, 200):
        cases.append((rng.integers(1, 10_000, size).tolist(), rng.integers(1, 20, size).tolist()))
    return cases


PER_WORD_INVARIANTS = [
    Invariant(lambda got, counts, n_tokens: min(n_tokens) - 1e-9 <= got <= max(n_tokens) + 1e-9,
              "tokens per word is a mean of the words' token counts, so it lies between the fewest and the most "
              "tokens of a word: the tokens of every running word, Σ counts · n_tokens, divided by the number of "
              "running words, Σ counts (not the inverse, not by the tokens)"),
]


def head_recheck(name: str) -> tuple[dict, object, str]:
    """Questions 3 and 4 on vocabularies that are no multiple of each other: a variant may draw
    V_big = 2·V_small (100,000 and 50,000) or 4·V_small, where a cell that writes V_big as a multiple
    of V_small gives the variant's answer."""
    d, V_small, V_big, blocks = 1000, 30_000, 77_000, 5_000_000_000
    inputs = {"d": d, "V_small": V_small, "V_big": V_big, "blocks": blocks}
    want = (2 * d * V_big - 2 * d * V_small if name == "extra_head_flops"
            else (blocks + 2 * d * V_small) / (blocks + 2 * d * V_big))
    return inputs, want, f"for d = {d:,}, V_small = {V_small:,}, V_big = {V_big:,}, blocks = {blocks:,}"


def questions(p: dict) -> list:
    """The questions of variant `p` (the hints know its parameters; none states an answer)."""
    d, V_small, V_big, n_words = p["d"], p["V_small"], p["V_big"], p["n_words"]
    k = V_big // 1000
    total = V_big * d + p["rest"]
    round_total = _rounded(total)

    table = V_big * d

    def small_alt():
        return [Alt(V_small * d, "that is the table with V_small: this model has the bigger vocabulary, V_big")]

    def ratio_parts():
        def side(V, name):
            return Sum(f"a token's FLOPs with {name}", [
                Part("blocks", p["blocks"], "the blocks' FLOPs per token", key="blocks", alts=[
                    Alt(p["rest"], "`rest` counts parameters: the blocks' FLOPs per token are `blocks`")],
                     missing="the blocks cost the same per token with either vocabulary: include them"),
                Prod("the head", key="the head", twice=(
                    "the input lookup is free (a copy, zero FLOPs): only the head's matmul costs, 2·d·V per token, "
                    "so a tied table is priced once"), children=[Part("2 FLOPs per weight", 2, key="two", alts=[
                    Alt(1, "the head costs 2 FLOPs per weight (a multiply and an add): 2·d·V")]),
                    Part("d", d), Part(name, V)])])
        return Answer(Ratio("r", side(V_small, "V_small"), side(V_big, "V_big"),
                            upside_down="upside down: r is tokens with V_big over tokens with V_small, so it is "
                                        "below 1"), context="your ratio")

    def partner_share():
        return audit(p["partner"], p["n_train"], p["V_bpe"], p["n_top"])[1]

    return [
        Integer("embedding_params", hints=[
            ratio(2, "the head is tied: it reuses E and adds no parameters"),
            Hint(lambda got, want: got == k * 1024 * d, f"{k}K here means {V_big:,} tokens, not {k} × 1,024"),
        ], parts=lambda: Answer(Sum("the table", [
            Prod("the table", [Part("V_big", V_big, alts=[
                Alt(V_small, "that is V_small: the table of this model has the bigger vocabulary, V_big")]),
                Part("d", d)]),
            Extra("head", table, "the head is tied: it reuses E and adds no parameters (the table counted once)"),
            Extra("the rest", p["rest"], "only the table: the rest of the model is not part of it")]))),
        Real("embedding_share", exact=True, hints=[
            # Written in terms of the expected share, so the table's size is not readable here.
            Hint(lambda got, want: round_total != total and abs(got - want * total / round_total) < 1e-9,
                 "use the exact total (table + the rest), not a rounded one"),
            Hint(lambda got, want: abs(got - want / (1 - want)) < 1e-9, "the share is of the whole model: table plus the rest"),
            ratio(100, "give a fraction, not a percentage"),
        ], parts=lambda: Answer(Ratio("the share", Sum("the table", [
            Part("table", table, key="E", can_drop=False, alts=small_alt()),
            Extra("head", table, "the head is tied: the table is counted once, not twice", key="head"),
            Extra("head again", table, "the head is tied: the table is counted once, not twice")]),
            Sum("the whole model", [Part("table", table, key="E", alts=small_alt(), missing="the share is of the whole model: "
                                                                          "table plus the rest"),
                                    Extra("head", table, "", key="head"),
                                    Part("rest", p["rest"], "the rest of the model's parameters", can_drop=False)]),
            upside_down="upside down: the share is the table over the whole model"), context="your share",
            inputs=described_inputs(p), meanings=INPUT_MEANINGS)),
        Integer("extra_head_flops", recheck=lambda: [head_recheck("extra_head_flops")], parts=lambda: Answer(Sum("the extra head FLOPs", [
            Prod("the head with V_big", [Part("2", 2, key="two"), Part("d", d, key="d"), Part("V_big", V_big)]),
            Prod("minus the head with V_small", [Part("minus", -1, can_drop=False, can_double=False),
                                                 Part("2", 2, key="two"), Part("d", d, key="d"),
                                                 Part("V_small", V_small)],
                 missing="that is the whole head with V_big; the question asks how much more than the one with "
                         "V_small")]), scales=[
            # twice the answer is a lookup priced, a backward pass counted, or 4 FLOPs per weight: the value cannot say
            # which, so the words give the rule each breaks, and blame none
            Scale(2, "exactly twice the expected: per generated token the head's matmul is priced once, forward only, "
                     "2 FLOPs per weight, and the input lookup is free (a copy, zero FLOPs)")]), hints=[
            ratio(0.5, "a matmul costs 2 FLOPs per weight: one multiply and one add"),
            Hint(lambda got, want: got == 2 * d * V_big,
                 "that is the whole head with V_big; the question asks how much more than the one with V_small"),
        ]),
        Real("break_even_r", exact=True, unit="ratio",  # tokens over tokens
             recheck=lambda: [head_recheck("break_even_r")], hints=[
            Hint(lambda got, want: abs(got * want - 1) < 1e-9,
                 "upside down: r is tokens with V_big over tokens with V_small, so it is below 1"),
            Hint(lambda got, want: abs(got - V_small / V_big) < 1e-9,
                 "the blocks cost the same per token with either vocabulary: include them"),
        ], parts=ratio_parts),
        Function("tokens_per_word", reference=tokens_per_word, cases=_word_lists, invariants=PER_WORD_INVARIANTS,
                 quantities=("counts", "n_tokens"),
                 result=Real("tokens_per_word", exact=True, hints=[
            Hint(lambda got, want, counts, n_tokens: _is(got, float(np.mean(n_tokens))),
                 "that is the plain mean over the word list: weight each word by how often it occurs (its count)", args=True),
            Hint(lambda got, want, counts, n_tokens: _is(got, float(np.dot(counts, n_tokens)) / len(counts)),
                 "divide by the number of running words, sum(counts), not by the number of distinct words", args=True),
            Hint(lambda got, want, counts, n_tokens: _is(got, float(np.sum(n_tokens)) / float(np.sum(counts))),
                 "the tokens are not weighted: the numerator adds each word's tokens once (a word type), the "
                 "denominator counts every occurrence: weight the tokens by the counts too, Σ counts · n_tokens / "
                 "Σ counts", args=True),
            Hint(lambda got, want, counts, n_tokens: _is(got, float(np.dot(counts, n_tokens))),
                 "that is the total number of tokens: divide by the number of running words, sum(counts)", args=True),
        ])),
        Real("hindi_single_token_share", exact=True, hints=[
            ratio(100, "give a fraction, not a percentage"),
            Hint(lambda got, want: got > 1, "a share is a fraction between 0 and 1"),
            Hint(lambda got, want: got != want and abs(got - audit_weighted(
                p["partner"], p["n_train"], p["V_bpe"], p["n_top"])) <= 1e-9 * abs(got),
                 "that is the share of running words (each word weighted by how often it occurs): the audit counts "
                 "each of the n_top words of `top_hindi` once"),
            Hint(lambda got, want: abs(got - partner_share()) < 1e-9,
                 f"that is the share of the partner language's words ({p['partner']!r}, `other`), the other "
                 "language of the training mix: audit the Hindi ones (`top_hindi`)"),
        ], needs={"top_hindi|n_top": "audit the n_top most frequent Hindi words (`top_hindi`), not every word",
                  "count_tokens|encode|encode_word|encode_ordinary": (
                      "a word is one token when the tokenizer makes it one (bpe.count_tokens(word) == 1), whatever "
                      "its characters: tokenize each word")},
            avoids={"filter": "your code leaves some words out (a comprehension with `if …`): audit all n_top words of "
                              "`top_hindi`, number shapes such as '00' included"},
            other_inputs=hindi_share_elsewhere),
        # cl100k's tokens per word over GPT-2's: a ratio, no share
        Real("hindi_r", exact=True, unit="ratio", hints=[
            ratio_of_sizes(vocabulary_sizes, "r is tokens per running word with cl100k_base over tokens per word "
                                             "with GPT-2: encode the words with each tokenizer and count"),
            Hint(lambda got, want: abs(got * want - 1) < 1e-6,
                 "upside down: r is cl100k's tokens per word over GPT-2's, below 1 when cl100k is shorter"),
            Hint(lambda got, want: _is(got, hindi_r_figures(n_words, weighted=False)[0]),
                 "that is the mean over the n_words list entries; weight each word by its count (running words)"),
            Hint(lambda got, want: _is(got, hindi_r_figures(n_words, space=False)[0]),
                 "encode each word after a space, \" \" + word, as it stands in running text"),
            Hint(lambda got, want: any(_is(got, m) for m in hindi_r_figures(n_words)[1]),
                 "that is one tokenizer's tokens per word; r is the ratio of the two"),
        ], needs={"encode|encode_ordinary|encode_ordinary_batch|count_tokens": (
            "count tokens with the two tokenizers (len(tok.encode_ordinary(' ' + w))), not characters or words")},
            avoids={"filter": "your code leaves some words out (a comprehension with `if …`): keep all of them, "
                             "all n_words words, as the question asks"}),
        Function("bpe_merges", reference=bpe_merges, cases=_merge_cases, invariants=MERGE_INVARIANTS,
                 slips=_merge_slips(), result=Array("bpe_merges", exact=True, ids=True), own_work={
                     name: "the merge loop is the question: write it yourself (train_bpe is the lesson's own "
                           "loop; call it after your cell to compare)"
                     for name in ("train_bpe", "BPE", "_shipped_merges")}),
    ]


QUESTIONS = questions(DEFAULTS)

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/08-vocabulary-size.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "embedding_params": "1. The design in numbers",
    "embedding_share": "1. The design in numbers",
    "extra_head_flops": "2. What the bigger head costs per token",
    "break_even_r": "3. Where the trade breaks even",
    "bpe_merges": "4. Byte-pair encoding on real word counts",
    "tokens_per_word": "5. Tokens per word as the vocabulary grows",
    "hindi_single_token_share": "6. The audit: a row for each language's common words?",
    "hindi_r": "7. Back to the trade, with real tokenizers",
}
