"""What is off about a wrong answer, in words that never give the expected value away.

The question kinds (embedlab.grading.kinds) call these after a question's own
hints found nothing. They compare the learner's value with the expected one and
name the symptom a learner can act on:

* numbers: the digits that are right (a typed, rounded number), the direction
  (too big or too small), a ratio (×2, ×8, ×100, ×1,000, ×1,024, GB/GiB,
  hours/seconds, TFLOP/s/FLOP/s, and the question's own factors such as ×L or
  ×batch) or its inverse, a wrong sign;
* arrays: a transposition, a row too many or too few, a shift by one row, a
  constant factor, a reversed or reordered result, which rows or entries
  differ, a dtype that differs;
* function calls: the call that failed, its arguments written compactly
  (``cosine([2, 2], [1, 1])``; a large array by shape, dtype and a few values).

Every message here describes the learner's value relative to the expected one
(a factor, a direction, a count of digits); none prints the expected value.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

GIB_PER_GB = 2**30 / 1e9  # bytes / 1e9 is this many times bytes / 2**30

# (factor, message): the learner's value is `factor` times the expected one.
FACTORS = [
    (2, "twice the expected value: something counted twice?"),
    (1 / 2, "half the expected value: a factor 2 left out"),  # its causes by kind: FACTOR_CAUSES
    (8, "8 times the expected value: bits where bytes are asked?"),
    (1 / 8, "an eighth of the expected value: divided by 8 once too often (bits to bytes twice?)"),
    (4, "4 times the expected value: a factor 4 too many (4 bytes per float32?)"),
    (1 / 4, "a quarter of the expected value: a factor 4 left out (4 bytes per float32?)"),
    (100, "100 times the expected value: a percentage? give a fraction between 0 and 1"),
    (1 / 100, "a hundredth of the expected value: divided by 100 once too often?"),
    (GIB_PER_GB, "that is GB (10**9 bytes) where GiB (2**30 bytes) is asked"),
    (1 / GIB_PER_GB, "that is GiB (2**30 bytes) where GB (10**9 bytes) is asked"),
    (1024 / 1000, "1,024 where 1,000 is meant? (KiB vs kB, a factor 1.024)"),
    (1000 / 1024, "1,000 where 1,024 is meant? (kB vs KiB, a factor 1.024)"),
    (1024, "1,024 times the expected value: check the units (bytes vs KiB?)"),
    (1 / 1024, "1,024 times too small: check the units (KiB vs bytes?)"),
    (2**20, "2**20 times the expected value: check the units (bytes vs MiB?)"),
    (1 / 2**20, "2**20 times too small: check the units (MiB vs bytes?)"),
    (2**30, "2**30 times the expected value: bytes where GiB is asked?"),
    (1 / 2**30, "2**30 times too small: GiB where bytes are asked?"),
    (1 / math.log(2), "in bits (log base 2) where nats (the natural log) are asked"),
    (math.log(2), "in nats (the natural log) where bits (log base 2) are asked"),
    (3, "3 times the expected value: 6 FLOPs per weight (a training step) where a forward pass (2) is asked?"),
    (1 / 3, "a third of the expected value: a forward pass (2 FLOPs per weight) where training (6) is asked?"),
    (1e3, "1,000 times the expected value: check the units (thousands, kB vs MB, ms vs s)"),
    (1e-3, "1,000 times too small: check the units (thousands, MB vs kB, s vs ms)"),
    (1e6, "10**6 times the expected value: check the units (millions, bytes vs MB)"),
    (1e-6, "10**6 times too small: check the units (millions, MB vs bytes)"),
    (1e9, "10**9 times the expected value: bytes where GB is asked?"),
    (1e-9, "10**9 times too small: GB where bytes (or billions where units) are asked?"),
    (1e12, "10**12 times the expected value: check the units (FLOP/s vs TFLOP/s)"),
    (1e-12, "10**12 times too small: that looks like TFLOP/s (or T-anything) where the plain unit is asked"),
    (3600, "3,600 times the expected value: seconds where hours are asked?"),
    (1 / 3600, "3,600 times too small: hours where seconds are asked?"),
    (-1, "the sign is wrong: subtracted the other way round?"),
]


# A factor's candidate causes, each named only for a quantity it can apply to: the kind the question's answer
# counts (kinds.Question.unit_of: "flops", "parameters", a unitless one of UNITLESS, "" when not known) or the
# words of its name (what a cache, an attention layer or a memory holds). A mean of cosines is never asked about a
# multiply-add or keys and values; what is left is the measured factor itself.
KV_WORDS = {"kv", "cache", "attn", "attention", "gqa"}  # what holds keys and values (a weights' GB holds none)
# a lesson has keys and values where one of its questions' names says so (an attention layer, a KV cache): a
# count of parameters in a lesson without any (a table's cells) has no keys and values to count twice
KV_LESSON = KV_WORDS
LESSON_WORD = "lesson:"  # a word of `name` that is a word of another question of the lesson (factor_words)
FACTOR_CAUSES = {
    1 / 2: [("a multiply and an add", lambda unit, words: unit == "flops" or bool(words & {"flop", "flops"})),
            ("keys and values", lambda unit, words: has_keys_and_values(unit, words) or (
                unit == "parameters" and bool({w.removeprefix(LESSON_WORD) for w in words
                                               if w.startswith(LESSON_WORD)} & KV_LESSON)))],
}


def has_keys_and_values(unit: str, words) -> bool:
    """Can a quantity hold keys and values: its name says a cache or attention (KV_WORDS), and it has units?
    A parameter count of anything else (an embedding table, a padding) and the memory of weights have none
    to leave out (kinds.Question.described grants the clause by the same words)."""
    return unit not in UNITLESS and bool(set(words) & KV_WORDS)


def factor_words(factor: float, message: str, unit: str = "", name: str = "",
                 lesson_names: tuple = ()) -> str:
    """FACTORS' `message` of `factor` with the causes FACTOR_CAUSES gives it that can apply to the question's
    answer (its `unit`, the words of its `name`; `lesson_names`: the names of its lesson's questions), as a
    question in parentheses; none when none can."""
    words = set(name.lower().split("_")) if name else set()
    words |= {LESSON_WORD + w for n in lesson_names for w in str(n).lower().split("_")}
    causes = [cause for cause, applies in FACTOR_CAUSES.get(factor, ()) if applies(unit, words)]
    return f"{message} ({'? '.join(causes)}?)" if causes else message


# The openings of the general words below: a direction or a place, not a mistake named. A function's
# failing calls prefer any other hint to these (kinds.Function.judge).
DIRECTION_ONLY = ("too big", "too small", "a little too big", "a little too small", "far too big", "far too small",
                  "the sign is wrong (and the size", "right shape, but", "the values differ")


def direction_only(hint: str) -> bool:
    return hint.startswith(DIRECTION_ONLY)


# --------------------------------------------------------------------------
# Digits


def digits_right(got: float, want: float) -> int:
    """How many significant figures of `want` the value `got` gets right (0 to 15): the largest
    n with |got - want| at most half a unit in want's n-th significant figure."""
    if not (math.isfinite(got) and math.isfinite(want)):
        return 0
    if want == 0:
        return 15 if got == 0 else 0
    err = abs(got - want)
    top = math.floor(math.log10(abs(want)))
    n = 0
    for k in range(1, 16):
        if err > 0.5 * 10.0 ** (top - k + 1) * (1 + 1e-9):
            break
        n = k
    return n


def within_sig(got: float, want: float, sig: int) -> bool:
    """`got` equals `want` to `sig` significant figures (half a unit in the last one)."""
    return digits_right(got, want) >= sig


def typed_digits(value: float, limit: int = 9) -> int | None:
    """The number of significant digits of `value` when it is a short decimal (at most
    `limit` digits, the length of a number typed by hand), else None."""
    if not math.isfinite(value) or value == 0:
        return None
    for k in range(1, limit + 1):
        if float(f"{value:.{k}g}") == value:
            return k
    return None


def _cut(value: float, k: int) -> float:
    """`value` truncated (not rounded) to k significant digits."""
    top = math.floor(math.log10(abs(value)))
    scale = 10.0 ** (top - k + 1)
    return math.trunc(value / scale) * scale


def rounded_from(got: float, want: float) -> int | None:
    """k when `got` is `want` rounded or cut to k significant digits (a number typed from a
    printed, rounded output), else None."""
    k = typed_digits(got)
    if k is None or want == 0 or not math.isfinite(want):
        return None
    if math.isclose(got, float(f"{want:.{k}g}"), rel_tol=1e-12) or math.isclose(got, _cut(want, k), rel_tol=1e-12):
        return k
    return None


def same(got: float, target: float) -> bool:
    """`got` is `target`, computed (to 1 part in 10**6) or typed rounded to 3 or more digits."""
    if target == 0 or not math.isfinite(target):
        return got == target
    if math.isclose(got, target, rel_tol=1e-6):
        return True
    k = rounded_from(got, target)
    return k is not None and k >= 3


# --------------------------------------------------------------------------
# Numbers


# Factors whose words guess a unit (bits, float32, KiB, GiB): when the learner's cell is known, the
# guess is made only if the cell types a constant of that unit; else the words would blame a unit
# the learner never wrote (16 layers × a part counted twice is also 8 × 4).
UNIT_EVIDENCE = {
    8: {8, 16, 32, 64, 4, 2}, 1 / 8: {8, 16, 32, 64, 4, 2},
    4: {4, 32, 0.25}, 1 / 4: {4, 32, 0.25},
    1024 / 1000: {1024, 1000, 1e3, 1e6, 1e9, 2**20, 2**30, 10}, 1000 / 1024: {1024, 1000, 1e3, 1e6, 1e9, 2**20, 2**30, 10},
    GIB_PER_GB: {1e9, 2**30, 1024, 1000, 10, 2}, 1 / GIB_PER_GB: {1e9, 2**30, 1024, 1000, 10, 2},
    3: {6}, 1 / 3: {2},
}
NEEDS_CODE = {3, 1 / 3}  # guesses made only on the learner's own constants

# The whole answer passed through a function a learner may apply by mistake: (f(want), words).
TRANSFORMS = [
    (lambda w: math.log(w) if w > 0 else None,
     "that is the log of the asked value (a log-probability?): the question asks for the value itself, exp of it"),
    (lambda w: math.exp(w) if w < 700 else None, "that is exp of the asked value: the question asks for its log"),
    (lambda w: 1 - w if 0 < w < 1 else None,
     "that is the complement, 1 minus the asked share: the share of the other part (the rest)"),
    # a share s = part / whole taken over the wrong whole: the rest (part / (whole − part) = s / (1 − s)), or
    # the whole with the part added again (part / (whole + part) = s / (1 + s))
    (lambda w: w / (1 - w) if 0 < w < 1 else None,
     "that is the part over the rest (the whole less the part): a share divides by the whole, which holds the part "
     "too"),
    (lambda w: w / (1 + w) if 0 < w < 1 else None,
     "that divides by the whole with the part added to it again: the whole already holds the part once"),
    (lambda w: w * w if abs(w) not in (0, 1) else None, "that is the asked value squared: a square where none belongs"),
    (lambda w: math.sqrt(w) if w > 0 and w != 1 else None, "that is the square root of the asked value: a sqrt too many"),
    (lambda w: 1 / w if w not in (0, 1, -1) else None, "upside down: that is the inverse of the asked ratio"),
]


# 1 − x of a ratio that is no share (r*, tokens with one tokenizer over another's): no part and no rest to name
RATIO_COMPLEMENT = ("that is 1 minus the asked ratio: how far the ratio falls short of 1 (how much shorter or "
                    "cheaper), not the ratio itself")


# 1 − x of a value that is neither a share nor a ratio (a cosine, a probability): measured, no part, no rest
PLAIN_COMPLEMENT = "that is 1 minus the asked value: the question asks for the value itself, not 1 minus it"
COSINE_COMPLEMENT = ("that is 1 minus the asked cosine (1 − cosine, a distance): the question asks for the "
                     "cosine itself")


def transform_hint(got: float, want: float, ratio: bool = False,
                   unit: str | None = None) -> str | None:
    """The answer passed through log, exp, 1 − x, x², √x or 1/x: named (computed values only). `ratio`: the
    answer is a ratio of two amounts, not a share of a whole (its 1 − x is said without a part and a rest).
    `unit` (kinds.Question.unit_of, None when not known): 1 − x is said as a share's rest only of a share."""
    for f, words in TRANSFORMS:
        if ratio and words.startswith("that is the complement"):
            words = RATIO_COMPLEMENT
        elif unit is not None and unit != "share" and words.startswith("that is the complement"):
            words = COSINE_COMPLEMENT if unit == "cosine" else PLAIN_COMPLEMENT
        try:
            target = f(want)
        except (ArithmeticError, ValueError):
            continue
        if target is not None and math.isfinite(target) and not math.isclose(target, want, rel_tol=1e-6) \
                and math.isclose(got, target, rel_tol=1e-7, abs_tol=1e-12):
            return words
    return None


_BYTES_A_NUMBER = {2: "2 bytes a number (bf16 or fp16)", 4: "4 bytes a number (float32)",
                   8: "8 bytes a number (float64)", 0.5: "half a byte a number (4-bit)"}
_SCALES = {1e3: "thousands", 1e6: "millions", 1e9: "billions", 1e12: "trillions"}


def units_hint(got: float, want: float, unit: str = "", typed: set | None = None,
               bytes_named: bool = False) -> str | None:
    """A count given in other units, named as units: bytes where a count of parameters is asked (when
    the cell types that many bytes and names bytes or a dtype), or the count written in thousands,
    millions, billions (a short number that, scaled, is the count to within its rounding)."""
    if want == 0 or not math.isfinite(got) or got == 0:
        return None
    if unit == "parameters":
        for factor, words in _BYTES_A_NUMBER.items():
            if same(got, factor * want) and bytes_named and typed is not None and factor in typed:
                return f"that is the size in bytes, at {words}: a count of parameters is asked, not its bytes"
    # FLOPs and parameters: a matmul costs 2 FLOPs per weight (a forward pass); the cell types the 2 (or is unknown)
    if unit == "parameters" and same(got, 2 * want) and (typed is None or 2 in typed):
        return ("twice the count: 2 per parameter is a matmul's FLOPs (a multiply and an add per weight), a cost: "
                "a count of parameters has one per weight (or something counted twice?)")
    slip = flop_slip(got, want, unit)
    if slip:
        return slip
    digits = len(f"{abs(got):.6g}".replace(".", "").replace("-", "").strip("0"))
    for scale, name in _SCALES.items():  # exactly the count divided by the scale: computed, then scaled
        if abs(want) >= scale and got != want and math.isclose(got * scale, want, rel_tol=1e-12):
            what = "count" if unit == "parameters" or not unit else "value"
            return (f"that is the {what} in {name} (yours × {scale:.0e} is exactly it): give the whole number "
                    "itself, not divided by a unit")
    for scale, name in _SCALES.items():
        if abs(want) >= scale and digits <= 5 and math.isclose(got * scale, want, rel_tol=0.005):
            what = "count" if unit == "parameters" or not unit else "value"
            return (f"that looks like the {what} in {name} (yours × {scale:.0e} is within rounding of it): "
                    "give the whole number, every digit (no unit scale, nothing rounded)")
    return None


def flop_slip(got: float, want: float, unit: str, twice: bool = True) -> str | None:
    """A FLOP count exactly half (or, with `twice`, exactly twice) the expected one, named as the learner's
    slip: each multiply-add counted as 1 FLOP instead of 2 (or as 2 FLOPs twice, 4 per weight)."""
    if unit != "flops" or not want or not math.isfinite(got):
        return None
    if math.isclose(got, want / 2, rel_tol=1e-9) or same(got, want / 2):
        return ("exactly half the expected FLOPs: you counted each multiply-add as 1 FLOP instead of 2 (a factor "
                "of 2 left out: 2 FLOPs per weight, a multiply and an add)")
    if twice and (math.isclose(got, 2 * want, rel_tol=1e-9) or same(got, 2 * want)):
        return ("exactly twice the expected FLOPs: the factor of 2 for a multiply-add counted twice (4 FLOPs per "
                "weight where a multiply and an add make 2), or the same matmul counted twice")
    return None


# What to recheck for a quantity without units (a cosine, a share, a probability, a divergence): none of
# "units" or "every factor" applies to it.
RECHECK = {
    "cosine": "recheck each step against what a cosine is, the dot product of two rows divided by both lengths",
    "share": "recheck what the part counts (the numerator) and what the whole is (the denominator), and that "
             "both count the same things",
    # two amounts divided (tokens per word with one tokenizer over the
    # other's): no part and no whole
    "ratio": "recheck each of the two amounts divided (the numerator and "
             "the denominator) against the question's definition of each",
    "probability": "recheck each step against what a probability is here, an entry of the softmax of the logits",
    "divergence": "recheck each step against what the divergence compares, two distributions (the softmax of the "
                  "logits before and after, in that order)",
}
# The lesson's own function for a quantity, and (what it is given, what it returns): where the learner's lines call
# it, the fallback points at its inputs and at what is done with its result (kinds._recheck_the_call)
LESSON_FUNCTION = {"cosine": "cosine_similarity", "divergence": "kl_divergence"}
LESSON_FUNCTION_INPUTS = {
    "cosine": ("which two rows: the ids looked up", "one number, the cosine itself"),
    "divergence": ("the logits before, then after", "one value per position, in nats"),
}
# (a fallback names no cause: each says what the quantity is, for the learner to hold their steps against; a cause
# is named only where a proof shows it, by the sources before these words)
UNITLESS = tuple(RECHECK)


def number_hint(got: float, want: float, factors: dict | None = None, factor_hints: dict | None = None,
                typed: set | None = None, unit: str = "", bytes_named: bool = False, name: str = "",
                ratio: bool = False, lesson_names: tuple = ()) -> str:
    """What is off about a number: digits, a ratio, a sign, a direction. Never the value. `typed` is the
    set of constants the learner's cell types (None when the cell is unknown): a factor that guesses a
    unit is named only when the cell types one of that unit's constants. A quantity without units (`unit`
    one of UNITLESS) is never told to check its units or factors: what is known, and what to recheck for it.
    A factor's candidate causes are named only where they can apply (`factor_words`: its `unit`, its `name`)."""
    if not math.isfinite(got):
        return "your value is not finite (inf or nan)"
    if want == 0:
        return "too big" if got > 0 else "too small"
    found = factor_hint(got, want, factors or {}, factor_hints or {})  # the question's own first (×L, ÷batch)
    if found:
        return found
    found = transform_hint(got, want, ratio, unit) or units_hint(got, want, unit, typed, bytes_named)
    if found:
        return found
    for factor, message in FACTORS:
        if same(got, factor * want):
            if unit in UNITLESS and factor not in (-1, 100, 1 / 100, 2, 1 / 2) + (
                    (1 / math.log(2), math.log(2)) if unit == "divergence" else ()):
                continue  # bits, bytes, GiB, seconds: units a cosine or a share does not have (a divergence: bits)
            if unit in ("flops", "parameters") and factor in (8, 1 / 8) or unit == "flops" and factor in (4, 1 / 4):
                continue  # bits and bytes (and 4 bytes per float32): units a FLOP count or a parameter count has not
            if factor in NEEDS_CODE and typed is None:
                continue
            if typed is not None and factor in UNIT_EVIDENCE and not (UNIT_EVIDENCE[factor] & typed):
                continue
            return factor_words(factor, message, unit, name, lesson_names)
    return measured_hint(got, want, unit, typed, name)


# words of a name that counts things (rows, tokens, merges): a count with no units
COUNTED = {"rows", "tokens", "token", "count", "words", "merges", "pairs", "ids", "batch", "sequences", "layers", "heads",
           "entries"}


def measured_hint(got: float, want: float, unit: str = "", typed: set | None = None, name: str = "") -> str:
    """Only what is measurably true of a wrong number, no cause guessed: its sign, the digits that are right,
    which way and how far (a band, never the value), and what to recheck."""
    if want == 0:
        return "too big" if got > 0 else "too small"
    ratio = got / want  # sizes are compared: for a negative expected value, "too small" is nearer 0
    if math.isclose(ratio, -1, rel_tol=1e-9):  # measured: the size is right, only the sign is not
        return ("the sign is wrong, the size is right: recheck what makes your result "
                + ("negative" if got < 0 else "positive"))
    if ratio < 0:  # measured: the sign; which term or which number makes it is not (a typed number, a term too big)
        return "the sign is wrong (and the size too): recheck each term and factor against the question"
    n = digits_right(got, want)
    if n >= 6 and (typed is None or typed & {"float"}):
        return (f"right to {n} digits, but not exact: a rounding step or float32 somewhere? "
                "compute in float64, unrounded")
    if abs(ratio - 1) < 0.05:
        right = f" (right to {n} digit{'s' * (n != 1)})" if n else ""
        side = "below" if ratio < 1 else "above"
        # only what is measured: no cause guessed (a small term, a count off by one), unless the value shows it:
        # two whole numbers exactly one apart are a count off by one
        whole = float(got).is_integer() and float(want).is_integer()
        step = ("; check each count for one that is off by one (a range's end, a `+ 1` or `- 1`)"
                if whole and abs(got - want) == 1 else "; recheck each step against the question")
        return f"a little too {'small' if ratio < 1 else 'big'}{right}: within 5% {side} the expected value{step}"
    if unit in UNITLESS:
        recheck = RECHECK[unit]
        if ratio > 10:
            return f"far too big (more than 10 times the expected value): {recheck}"
        if ratio < 0.1:
            return f"far too small (under a tenth of the expected value): {recheck}"
        return f"too {'big' if ratio > 1 else 'small'}: {how_far(ratio)}; {recheck}"
    # units only where the answer may have some (a count of tokens or rows has none: its factors and what it counts)
    counted = not unit and bool(set(str(name or "").lower().split("_")) & COUNTED)
    check = "check every factor, and what is counted" if counted else "check the units and every factor"
    if ratio > 10:
        return f"far too big (more than 10 times the expected value): {check}"
    if ratio < 0.1:
        return f"far too small (under a tenth of the expected value): {check}"
    # what is known, and no guessed cause: how far off, which way, what to recheck
    return (f"too {'big' if ratio > 1 else 'small'}: {how_far(ratio)}; recheck each term and factor against the "
            "question (what your count chose, added and left out)")


_BANDS = [(0.1, 0.2, "between a tenth and a fifth of"), (0.2, 1 / 3, "between a fifth and a third of"),
          (1 / 3, 0.5, "between a third and half of"), (0.5, 2 / 3, "between half and two thirds of"),
          (2 / 3, 0.8, "between two thirds and 80% of"), (0.8, 0.95, "between 80% and 95% of"),
          (1.05, 1.25, "between 1.05 and 1.25 times"), (1.25, 1.5, "between 1.25 and 1.5 times"),
          (1.5, 2, "between 1.5 and 2 times"), (2, 3, "between 2 and 3 times"), (3, 5, "between 3 and 5 times"),
          (5, 10, "between 5 and 10 times")]


def how_far(ratio: float) -> str:
    """How far a value is from the expected one, in a band (never the expected value itself)."""
    for lo, hi, words in _BANDS:
        if lo <= ratio < hi:
            return f"{words} the expected value"
    if 1e-3 <= ratio < 1e4:  # 10 exactly (the bands stop below it): "10 times", never "1e+01 times"
        return f"{ratio:.2g} times the expected value"
    return f"about 10^{round(math.log10(ratio))} times the expected value" if ratio > 0 else "not the expected value"


def factor_hint(got: float, want: float, factors: dict, factor_hints: dict) -> str | None:
    """×name or ÷name for the question's own factors (e.g. L, batch), or None."""
    if not factors or want == 0:
        return None
    for sign, pick in (("/", lambda v: 1 / v), ("*", lambda v: v)):
        names = [name for name, value in factors.items() if same(got, pick(value) * want)]
        if not names:
            continue
        for name in names:
            if f"{sign}{name}" in factor_hints:
                return factor_hints[f"{sign}{name}"]
        shown = " or ".join(f"{name} (= {_num(factors[name])})" for name in names)
        if sign == "/":
            return f"yours is the expected value divided by {shown}: a factor {names[0]} left out?"
        return f"yours is {shown} times the expected value: multiplied by {names[0]} once too often?"
    return None


def precision_hint(got: float, want: float, percent: bool = True, computed: bool = False) -> str | None:
    """The hint for a number typed from a printed, rounded output (or such a percentage). `computed`: the cell
    computes its value (not typed): then it is said to be rounded, never typed."""
    k = rounded_from(got, want)
    if k is not None:
        if computed:
            return (f"right to {k} digit{'s' * (k != 1)}, then rounded: your code rounds its value or a number it "
                    "uses; keep every digit, the check wants it exact")
        return f"right to {k} digit{'s' * (k != 1)}: compute it rather than typing a rounded number"
    if percent and rounded_from(got, 100 * want) is not None and not math.isclose(got, 100 * want, rel_tol=1e-9):
        if computed:
            return ("a percentage, rounded: give the fraction (between 0 and 1), every digit: neither × 100 nor "
                    "rounded")
        return "a percentage, typed rounded: compute the fraction (between 0 and 1) in code"
    return None


# --------------------------------------------------------------------------
# Arrays


def array_hint(got: np.ndarray, want: np.ndarray, close, got_kind: str | None = None,
               want_kind: str | None = None, quantities: bool = True, unit: str | None = None,
               sorts: bool | None = None, dedups: bool | None = None) -> str:
    """What is off about an array: its shape, a factor, an order, which entries differ. An array of ids, not
    quantities (`quantities` False: token ids, rows), is never said to be too big or too small, nor off by a
    factor."""
    whole = _whole_for_rows(got, want)  # one number for the whole array where one per row is asked
    if whole:
        return whole
    if got.shape != want.shape:
        # repeats dropped only where the learner's code drops them (`dedups`: a set, np.unique, a dict; None: the
        # code is not known): rows merely equal in value (cat's and dog's) are no repeated items
        return (_repeats_dropped(got, want) if dedups is not False else None) or _added_not_joined(got, want) \
            or _shape_hint(got, want)
    if got.size == 0:
        return "right shape, but the values differ"
    ok = close(got, want)
    if ok.all():
        return "the values differ"
    with np.errstate(all="ignore"):
        flat_w, flat_g = want.ravel(), got.ravel()
        denom = float(flat_w @ flat_w)
        if denom > 0 and quantities:
            c = float(flat_g @ flat_w) / denom
            # a nan among the values makes c nan, and nan "close" to nan: no factor is measured then
            if c != 0 and math.isfinite(c) and close(got, c * want).all():
                for factor, message in FACTORS:
                    if math.isclose(c, factor, rel_tol=1e-6):
                        return f"every value: {factor_words(factor, message)}"
                direction = "too big" if abs(c) > 1 else "too small"
                sign = ", and of the wrong sign" if c < 0 else ""
                if unit is not None and unit not in UNITLESS and not _normalisable(want):
                    # amounts (bytes, parameters, counts): nothing there is normalised; what all of them multiply is off
                    return (f"every value is off by the same factor ({direction}{sign}): the entries are right "
                            "against each other, so the one number they all multiply is off (the count they share?)")
                return f"every value is off by the same factor ({direction}{sign}): a scale or a normalisation missing?"
        if want.dtype.kind in "biuf" and np.isin(want, (0, 1)).all() and np.isin(got, (0, 1)).all() \
                and close(got, 1 - want).all():
            return "every 0 and 1 swapped (inverted): a 1 goes where the feature (or id) is, a 0 elsewhere"
        if want.dtype.kind == "f" and close(got, 1 - want).all():
            return "every value is 1 minus the asked one: a distance (1 − cosine) where the similarity is asked?"
        if want.dtype.kind == "f" and (want > 0).all() and close(got, np.log(want)).all():
            return "every value is the log of the asked one (log-probabilities?): take exp"
        moved = shifted(got, want)
        if moved:
            return moved
        if got.ndim >= 1 and got.shape[0] > 1:
            if close(got, want[::-1]).all():
                return "in reverse order: check the sort direction"
            if got.ndim == 1 and close(np.sort(got), np.sort(want)).all():
                return "the right values in another order"
            # a sort is guessed only where the learner's code sorts (`sorts`; None: the code is not known)
            guess = sorts is not False
            if got.ndim == 2 and sorted(_rows(got)) == sorted(_rows(want)):
                return ("the right rows in another order: rows must follow the order of the input"
                        + (" (sorted? reordered?)" if guess else ""))
            # columns in another order: one order of the columns that puts two rows or more right (one row whose
            # two entries are swapped is that row's own story: a pair merged from its other end, not a column order)
            if got.ndim == 2 and sorted(_rows(got.T)) == sorted(_rows(want.T)) \
                    and sum(a != b for a, b in zip(_rows(got), _rows(want))) >= 2:
                return ("the right columns in another order: columns must follow the order the question gives"
                        + (" (sorted?)" if guess else ""))
            if got.ndim == 2 and want.dtype.kind == "f" and got.shape[0] > 2 and (want != 0).any() \
                    and close(got.sum(axis=0), want.sum(axis=0)).all() and np.abs(got.sum(axis=0)).max() > 0:
                moved = np.flatnonzero(~ok.reshape(got.shape[0], -1).all(axis=1))
                return (f"the right total (every column adds up as expected), but spread over other rows: rows "
                        f"{_list(moved)} get values that belong to other rows: each value must go to its own row (ids "
                        "and values paired in the same order?)")
        if want.dtype.kind == "f" and np.isfinite(want).all():
            for k in range(0, 7):
                if np.array_equal(got, np.round(want, k)) and not np.array_equal(got, want):
                    return f"every value rounded to {k} decimals: keep them exact (no round)"
            # seen on three rows or more (on two, one row alike is no shift), and said as seen: which index moved,
            # and why, is the learner's code's to prove (undo), not a guess here
            if got.shape[0] >= 3 and (close(got[1:], want[:-1]).all() or close(got[:-1], want[1:]).all()):
                return "shifted by one row: each row holds the values of the row next to it"
            if got.ndim == 2 and _rows_scaled(got, want, close):
                return "each row is off by its own factor: normalise each row (or divide each by its own length)"
    if want.dtype.kind == "f" and np.isfinite(want).all():
        with np.errstate(all="ignore"):
            for kind, digits in ((np.float16, "3"), (np.float32, "7")):
                if np.array_equal(got, want.astype(kind).astype(want.dtype)) and not np.array_equal(got, want):
                    return (f"every value rounded to {kind.__name__} (about {digits} digits): keep the table's own "
                            "precision, no cast")
    if want.dtype.kind == "f" and np.allclose(got, want, rtol=1e-6, atol=0) and not np.allclose(got, want, rtol=1e-9, atol=0):
        return "right to about 7 digits only, the precision of float32: compute in float64"
    if want.dtype.kind == "f" and np.allclose(got, want, rtol=1e-3, atol=0):
        return "right to about 3 digits only (float16 precision? a rounding?): keep every digit"
    bad = ~ok
    if want.dtype.kind == "f" and quantities and np.isfinite(want).all() and np.isfinite(got).all() \
            and np.count_nonzero(bad & (want != 0)) * 2 >= max(np.count_nonzero(want), 1):
        # most values off, every one by less than a low precision's rounding of the largest: measured, said so
        # both ways (a rounding's errors have either sign; an amount added or a factor has one)
        top, err, off = float(np.abs(want).max()), float(np.abs(got - want).max()), (got - want)[bad]
        if top and 1e-9 * top < err <= 2.0 ** -8 * top and (off > 0).any() and (off < 0).any():
            return (f"every value right to within {err / top:.1e} times the largest, but most not exact: what "
                    f"rounding to a low precision leaves (float16 keeps about 3 digits); compute and add in float64")
    kinds = ""
    if got_kind and want_kind and got_kind != want_kind:
        kinds = f" (yours holds {got_kind}s, the expected array {want_kind}s)"
    if got.ndim >= 2:
        rows = np.flatnonzero(bad.reshape(got.shape[0], -1).any(axis=1))
        where = f"row{'s' * (len(rows) != 1)} {_list(rows)} differ{'s' * (len(rows) == 1)}"
        pair = _row_pair(got, want, rows)
        if pair:  # the learner's row beside the one expected (a merge, a pair of ids), counted from 0
            i, mine, expected = pair
            first = "" if len(rows) == 1 else f" row {i}"
            where += f" (counting from 0), yours{first} {mine} where {expected} is expected"
        count = f"{len(rows)} of {got.shape[0]} rows"
    else:
        idx = np.flatnonzero(bad.ravel())
        where = f"entr{'ies' if len(idx) != 1 else 'y'} {_list(idx)} differ{'s' * (len(idx) == 1)}"
        count = f"{len(idx)} of {got.size} values"
    diff = (got - want)[bad]
    if got.dtype.kind == "f" and np.isnan(got[bad]).all() and not np.isnan(want[bad]).any():
        way = "; there yours are nan (not a number)"  # measured, no cause guessed: not too big, not too small
    elif not quantities:
        way = ""
    elif (diff > 0).all():
        way = "; there yours are too big"
    elif (diff < 0).all():
        way = "; there yours are too small"
    else:
        way = ""
    return f"right shape, but {count} differ: {where}{way}{kinds}"


def _row_pair(got: np.ndarray, want: np.ndarray, rows):
    """(row, the learner's, the one expected), each row written "(256, 97)", of the first differing row of short
    rows of whole numbers (pairs of ids, merges), rows counted from 0 as the row numbers are; None for any other
    array."""
    try:
        whole = all(a.dtype.kind in "iuf" and np.isfinite(a).all() and (a == np.round(a)).all() for a in (got, want))
    except TypeError:
        return None
    if not len(rows) or got.ndim != 2 or not 1 < got.shape[1] <= 4 or not whole:
        return None
    i = int(rows[0])
    return (i, *("(" + ", ".join(str(int(x)) for x in r) + ")" for r in (got[i], want[i])))


def _whole_for_rows(got: np.ndarray, want: np.ndarray) -> str | None:
    """A single number (or the same number in every entry) that is a reduction of the whole array of per-row
    values the answer holds: the norm of the whole matrix for each row's norm, the sum or mean of everything
    for each row's. Measured exactly (to 1 part in 10**9) from the answer's own entries."""
    try:
        if want.ndim != 1 or want.size < 2 or want.dtype.kind != "f" or got.size == 0:
            return None
        flat = got.ravel()
        if not (got.size == 1 or (got.shape == want.shape and np.all(flat == flat[0]))):
            return None
        value = float(flat[0])
        with np.errstate(all="ignore"):
            for target, what in ((float(np.sqrt(np.sum(want ** 2))), "the norm of the whole array (every row at once)"),
                                 (float(np.sum(want)), "the sum over the whole array"),
                                 (float(np.mean(want)), "the mean over the whole array"),
                                 (float(np.max(want)), "the largest value of the whole array")):
                if math.isfinite(target) and target and math.isclose(value, target, rel_tol=1e-9):
                    return (f"one number for every row: that is {what}, where one value per row is asked: reduce "
                            f"along each row (axis=1, keepdims=True where it divides), not over the whole array")
    except (TypeError, ValueError):
        return None
    return None


def _added_not_joined(got: np.ndarray, want: np.ndarray) -> str | None:
    """Two lists added entry by entry (numpy's +) where they are joined one after the other (the answer is
    the first followed by the second): half as many entries, each the sum of one of each."""
    try:
        if want.ndim < 1 or want.shape[0] < 2 or want.shape[0] % 2 or got.shape != (want.shape[0] // 2,) + want.shape[1:]:
            return None
        half = want.shape[0] // 2
        if np.array_equal(got, want[:half] + want[half:]):
            return ("your two lists were added entry by entry (numpy arrays add each pair of entries), where the "
                    "answer joins them one after the other: np.concatenate([a, b]), or list(a) + list(b)")
    except (TypeError, ValueError):
        return None
    return None


def _rows_scaled(got, want, close) -> bool:
    """Every row of `got` is its own positive multiple of the row of `want`, not all the same."""
    norms_w = np.linalg.norm(want, axis=1)
    if (norms_w == 0).any():
        return False
    c = np.einsum("ij,ij->i", got, want) / norms_w**2
    return bool(close(got, c[:, None] * want).all() and (c > 0).all() and not np.allclose(c, c[0]))


def shifted(got, want) -> str | None:
    """Every value one place off along an axis, the place it leaves empty 0 (a one-hot's 1 a column to the left:
    columns numbered from 1; or to the right: an index + 1). Exact: observed, not a guess."""
    try:
        got, want = np.asarray(got), np.asarray(want)
        if got.shape != want.shape or got.ndim < 1 or got.dtype.kind not in "biuf" or want.dtype.kind not in "biuf":
            return None
        if np.array_equal(got, want):
            return None
        for axis in reversed(range(got.ndim)):
            n = got.shape[axis]
            if n < 3:
                continue
            where = "column" if got.ndim >= 2 and axis == got.ndim - 1 else "row" if got.ndim >= 2 else "place"
            for step in (-1, 1):
                moved = np.zeros_like(want)
                src = [slice(None)] * got.ndim
                dst = [slice(None)] * got.ndim
                src[axis], dst[axis] = (slice(1, None), slice(0, n - 1)) if step < 0 else (slice(0, n - 1), slice(1, None))
                moved[tuple(dst)] = want[tuple(src)]
                if not np.any(want[tuple(src)]) or not np.array_equal(got, moved):
                    continue
                if step < 0:
                    return (f"every value sits one {where} to the left of where it belongs (index i − 1 for i), and "
                            f"what belongs in {where} 0 is lost: indices counted from 1 where Python counts from 0? "
                            f"(index i is the {where} i, the first is 0)")
                return (f"every value sits one {where} to the right of where it belongs (index i + 1 for i), and "
                        f"{where} 0 is left empty: 1 added to the index? (index i is the {where} i, the first is 0)")
    except (TypeError, ValueError):
        return None
    return None


def _rows(a: np.ndarray) -> list:
    return [tuple(np.asarray(r).ravel().tolist()) for r in a]


def _repeats_dropped(got: np.ndarray, want: np.ndarray) -> str | None:
    """Fewer rows than asked, which are exactly the asked rows without their repeats (a set, np.unique, a
    dict keyed by the word): each repeated item looked up once."""
    try:
        if got.ndim != want.ndim or got.ndim < 1 or got.shape[1:] != want.shape[1:] or got.shape[0] >= want.shape[0]:
            return None
        rows = [tuple(np.asarray(r).ravel().tolist()) for r in want]
        mine = [tuple(np.asarray(r).ravel().tolist()) for r in got]
    except (TypeError, ValueError):
        return None
    distinct = list(dict.fromkeys(rows))
    if len(distinct) == len(rows) or len(mine) != len(distinct) or sorted(mine) != sorted(distinct):
        return None
    order = "" if mine == distinct else " (and in another order: a set, or sorting, loses the order)"
    return (f"your rows are the asked rows with each repeat dropped{order}: an item that appears twice (a word used "
            f"twice) needs its row twice, one per occurrence; a set, np.unique or a dict drops repeats: look up "
            f"every item in order, repeats included")


def _one_removed(short: np.ndarray, long: np.ndarray):
    """The one index k with `short` equal to `long` without its entry k (to 1 part in 10**9), else None: a
    row left out (the word itself, the first position), or one row too many."""
    try:
        if not (np.issubdtype(short.dtype, np.number) and np.issubdtype(long.dtype, np.number)):
            return None
        found = [k for k in range(long.shape[0])
                 if np.allclose(np.delete(long, k, axis=0), short, rtol=1e-9, atol=1e-12, equal_nan=True)]
    except (TypeError, ValueError):
        return None
    if len(found) > 1:  # rows equal in value: the first or the last left out (a slice, [1:] or [:-1]) reads so
        ends = [k for k in (0, long.shape[0] - 1) if k in found]
        return ends[0] if ends else None
    return found[0] if found else None


def _which(k: int, n: int) -> str:
    return " (the first)" if k == 0 else " (the last)" if k == n - 1 else ""


def _shape_hint(got: np.ndarray, want: np.ndarray) -> str:
    shapes = f"yours is {got.shape}, the expected shape is {want.shape}"
    if got.ndim == want.ndim and got.ndim >= 1 and got.shape[1:] == want.shape[1:]:
        # the expected with exactly one entry left out, or one added: which one, the others right
        if got.shape[0] == want.shape[0] - 1:
            k = _one_removed(got, want)
            if k is not None:
                return (f"one row too few: entry {k}{_which(k, want.shape[0])} of the expected is missing, the "
                        f"others are right: {shapes}")
        if got.shape[0] == want.shape[0] + 1:
            k = _one_removed(want, got)
            if k is not None:
                return (f"one row too many: yours is the expected with an extra entry at index {k}"
                        f"{_which(k, got.shape[0])}: {shapes}")
    if got.ndim == want.ndim and got.ndim >= 1 and got.shape[1:] == want.shape[1:] and got.shape[0] < want.shape[0]:
        mine, theirs = _rows(got), _rows(want)
        if len(set(mine)) == len(mine) and set(mine) == set(theirs):
            return (f"each distinct row once, but a repeated id (or word) must give its row every time it "
                    f"appears, in order (one row per id): {shapes}")
        if set(mine) < set(theirs):
            return f"only some of the rows (a part of the input left out?): {shapes}"
    if got.ndim == 1 and want.ndim == 1 and got.size < want.size and set(got.tolist()) < set(want.tolist()):
        return f"only some of the right values: the others are missing (all of the input taken in?): {shapes}"
    if got.ndim == want.ndim == 2 and got.shape == want.shape[::-1]:
        return f"transposed: {shapes}"
    if got.ndim == want.ndim and got.ndim >= 1 and got.shape[1:] == want.shape[1:]:
        # one row more or fewer, but not the expected rows with one added or left out (above): only the count is
        # measured, so no row is said to be missing (the rows may come from another input altogether)
        if abs(got.shape[0] - want.shape[0]) == 1:
            return (f"the wrong number of rows, one {'more' if got.shape[0] > want.shape[0] else 'fewer'} than "
                    f"expected, and not the expected rows with one {'added' if got.shape[0] > want.shape[0] else 'left out'}"
                    f": {shapes}")
        return f"the wrong number of rows: {shapes}"
    if got.ndim != want.ndim:
        return f"wrong number of dimensions: {shapes}"
    return f"wrong shape: {shapes}"


def _list(indices, limit: int = 6) -> str:
    shown = ", ".join(str(int(i)) for i in indices[:limit])
    return shown + (", …" if len(indices) > limit else "")


# --------------------------------------------------------------------------
# Calls


def call_text(name: str, args, limit: int = 110) -> str:
    """`name(arg, ...)` with every argument compact; long arrays by shape, dtype and a few values. A small
    array argument is written as code (`np.array([2.0, 2.0])`), as the check passes it, so the call pasted
    into the notebook runs as the check ran it (a list there would not have `.shape`)."""
    # every digit where it fits (the call pasted runs on the same numbers), else rounded, then fewer values shown
    for room, code in ((8, True), (8, "rounded"), (3, True), (3, "rounded"), (0, "rounded")):
        text = f"{name}({', '.join(compact(a, room, code=code) for a in args)})"
        if len(text) <= limit:
            return text
    return text[: limit - 2] + "…)"


def compact(value, room: int = 8, code=False) -> str:
    """One argument or result, short: [2, 2] for a small array, array(50×8 float64: 0.13, …) for a big one;
    with `code`, a small array as the code that makes it (np.array([2.0, 2.0]): floats with every digit)."""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (numbers.Integral, np.integer)):
        return f"{int(value):_}" if abs(int(value)) >= 10_000 else str(int(value))
    if isinstance(value, (numbers.Real, np.floating)):
        return _num(float(value))
    if isinstance(value, str):
        return repr(value) if len(value) <= 30 else repr(value[:27] + "...")
    if isinstance(value, dict):  # word counts: the first few items, then how many more
        items = list(value.items())
        shown = ", ".join(f"{compact(k, room)}: {compact(v, room)}" for k, v in items[:max(room // 2, 2)])
        more = len(items) - max(room // 2, 2)
        return "{" + shown + (f", … {more} more" if more > 0 else "") + "}"
    if isinstance(value, (list, tuple)) and not all(_is_number(v) for v in value):
        inner = ", ".join(compact(v, room, code) for v in value)
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    try:
        arr = np.asarray(value)
    except Exception:  # noqa: BLE001 - anything else is shown by its type
        return type(value).__name__
    if arr.dtype == object:
        return type(value).__name__
    label = "list" if isinstance(value, (list, tuple)) else "array"
    if arr.size <= room and arr.ndim <= 2:
        if code and isinstance(value, np.ndarray) and arr.size == 0:  # its shape is not in its (empty) values
            return f"np.zeros({arr.shape!r}" + ("" if arr.dtype == np.float64 else f", dtype=np.{arr.dtype.name}") + ")"
        if code and isinstance(value, np.ndarray):
            inferred = np.array(arr.tolist()).dtype  # what np.array makes of the values written: else named
            dtype = "" if inferred == arr.dtype else f", dtype=np.{arr.dtype.name}"
            floats = (code if code == "rounded" else True) if arr.dtype.kind == "f" else False
            return f"np.array({_nested(arr.tolist(), floats=floats)}{dtype})"
        return _nested(arr.tolist())
    shape = "×".join(str(n) for n in arr.shape)
    head = ", ".join(_num(v) if isinstance(v, float) else str(v) for v in arr.ravel()[:3].tolist())
    kind = f"{len(value)} numbers" if label == "list" else f"{shape} {arr.dtype}"
    return f"{label}({kind}: {head}, …)" if arr.size > 3 else f"{label}({kind}: {head})"


def _normalisable(want: np.ndarray) -> bool:
    """Values a normalisation could make: floats within [-1, 1] (cosines, shares, probabilities, unit vectors)."""
    return want.dtype.kind == "f" and bool(np.all(np.abs(want) <= 1))


def _nested(items, floats=False) -> str:
    if isinstance(items, list):
        return "[" + ", ".join(_nested(v, floats) for v in items) + "]"
    if isinstance(items, bool):
        return str(items)
    if isinstance(items, float):
        if floats == "rounded":  # as code, to 4 digits: a float literal still (2.0, not 2)
            shown = _num(items)
            return shown + ".0" if shown.lstrip("-").isdigit() else shown
        if floats:  # as code: every digit (repr gives back the same float), so the call pasted runs on the same numbers
            return repr(items)
        return _num(items)
    return str(items)


def _num(x: float) -> str:
    if isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, bool):
        return str(int(x))
    x = float(x)
    if x.is_integer() and abs(x) < 1e6:
        return str(int(x))
    return f"{x:.4g}"


def _is_number(v) -> bool:
    return isinstance(v, (numbers.Real, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
