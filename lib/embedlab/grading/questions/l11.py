"""Exercise 11 `size-a-model`: design a model for a phone assistant, within three budgets.

The learner chooses the design, so there is no single expected value. Each
question is a `Design`: its rule recomputes the learner's own figures with
embedlab's calculators (in the grader's process, from plain data) and checks
the design against the job's budgets and the reported figures against the design.

Parameterised (class mode, embedlab.grading.variants): the job's budget is the
variant (SPACE); `questions(params)` makes rules that close over that budget.
"""

import dataclasses
import functools
import math
import numbers
import re

import numpy as np

from embedlab.grading import diagnose, labels
from embedlab.grading import parts as named
from embedlab.grading.elsewhere import Elsewhere
from embedlab.grading.kinds import Claim, Criterion, Design, Level, Measured, Written
from embedlab.grading.parts import Alt, Answer, Part, Prod, Sum
from embedlab.grading.space import Space
from embedlab.grading.text import percents_apart
from embedlab.memory import GB, GiB, bytes_per_param, serving_memory
from embedlab.params import count_params, estimate_params, model_shape
from embedlab.compute import training_flops
from embedlab.sizing import (Budget, deepest_fit, design_figures, headroom, llama_config, one_field_fixes,
                             over_budget)

LESSON = "11-size-a-model"

# --------------------------------------------------------------------------
# The variant space: the job's budget

# The job of the exercise (the lesson works a different one): a Hindi-English
# assistant served on a phone, one conversation at a time (batch 1 in every variant).
DEFAULTS = {
    "max_params": 600_000_000,
    "max_serving_gb": 0.5,  # weights + KV cache, GB
    "context": 8192,
    "weights": "int4",  # 4-bit weights
    "kv": "bf16",
    "max_train_flops": 2e21,
    "train_tokens": 600_000_000_000,
    "train_context": 2048,
    "min_vocab_size": 32_000,  # Devanagari and Latin text, each with its common words as tokens
    "head_dim": 64,  # the phone's attention kernels run heads of exactly this width (d / h)
}
BATCH = 1

# Pools and ranges of a class variant (every one a different job from the book's)
MAX_PARAMS = (200, 1200)  # millions, in steps of 50
SERVING_GB = [0.25, 0.3, 0.4, 0.6, 0.75, 0.8, 1.0, 1.2, 1.5]
# Contexts: not the book's 8,192, and no two a factor of 2 apart, so that no two variants (one
# picked per variant) keep the same bytes of KV cache per conversation, whatever their KV precisions
# (bf16 or int8, 2 or 1 bytes): a classmate's serving memory is never yours.
CONTEXTS = [1024, 3072, 5120, 7168, 12288, 20480, 28672, 32768]
WEIGHTS = ["int4", "int8"]
KV = ["bf16", "int8"]
TRAIN_FLOPS = [3e20, 5e20, 8e20, 1e21, 1.5e21, 3e21, 4e21, 6e21, 1e22, 2e22]
# Training tokens, billions (whole sequences of every train_context), one picked per variant: a
# classmate's training FLOPs are never yours.
TRAIN_TOKENS = [128, 192, 256, 384, 512, 768, 1024, 1536]
TRAIN_CONTEXTS = [1024, 4096]  # not the book's 2,048
MIN_VOCAB = [16_000, 24_000, 40_000, 48_000, 64_000, 96_000]
HEAD_DIMS = [32, 40, 48, 56, 72, 80, 96, 128]  # not the book's 64: a design is made for one width

# The solution's design: Llama 3.2 1B's proportions (16 heads of head_dim, 4 kv heads,
# d_ff = 4·d), twice the job's minimum vocabulary, and the deepest depth that leaves an eighth
# of every budget unused.
MIN_LAYERS = 6


def budget(p: dict) -> Budget:
    """The job of variant `p` as a Budget."""
    return Budget(max_params=p["max_params"], max_serving_gb=p["max_serving_gb"], context=p["context"],
                  batch=BATCH, weights=p["weights"], kv=p["kv"], max_train_flops=p["max_train_flops"],
                  train_tokens=p["train_tokens"], train_context=p["train_context"],
                  min_vocab_size=p["min_vocab_size"])


BUDGET = budget(DEFAULTS)
BUDGET_NAMES = ("parameters", "memory", "compute")


def solution_design(p: dict) -> dict | None:
    """The design the worked solution makes for variant `p` (None when none fits)."""
    job = budget(p)
    vocab, d = job.min_vocab_size, 16 * p["head_dim"]
    return deepest_fit(lambda L: llama_config(vocab_size=vocab, d=d, num_layers=L, num_heads=16, num_kv_heads=4,
                                              d_ff=4 * d, tied=True), job).design


def draw(rng: np.random.Generator, pick) -> dict:
    """One class variant: every limit and setting drawn from its pool; the context, the training
    tokens and the head width picked so that variants differ (up to the pools' sizes): a design
    made for one variant's heads breaks every other variant's job, and its serving memory and
    training FLOPs are other figures there."""
    train_context = int(rng.choice(TRAIN_CONTEXTS))
    return {
        "max_params": int(rng.integers(MAX_PARAMS[0] // 50, MAX_PARAMS[1] // 50 + 1)) * 50_000_000,
        "max_serving_gb": float(rng.choice(SERVING_GB)),
        "context": pick("context", CONTEXTS),
        "weights": str(rng.choice(WEIGHTS)),
        "kv": str(rng.choice(KV)),
        "max_train_flops": float(rng.choice(TRAIN_FLOPS)),
        "train_tokens": pick("train_tokens", TRAIN_TOKENS) * 1_000_000_000,
        "train_context": train_context,
        "min_vocab_size": int(rng.choice(MIN_VOCAB)),
        "head_dim": pick("head_dim", HEAD_DIMS),
    }


def answers(p: dict) -> dict:
    """The worked solution's answers for variant `p` (computed here only to vet the variant;
    the key itself is harvested by running the solution notebook)."""
    design = solution_design(p)
    job = budget(p)
    f = design_figures(design, job)
    used = headroom(f, job)
    flipped = {**design, "tie_word_embeddings": not design["tie_word_embeddings"]}
    return {"design": design, "design_params": f.params, "design_serving_gb": f.serving_gb,
            "design_train_flops": f.train_flops, "tightest_budget": max(used, key=used.get),
            "other_tying_params": count_params(flipped).total}


def problems(p: dict) -> list[str]:
    """What makes a drawn variant unusable: no design of the solution's family fits with room
    to spare, a solution's answer equal to the book's, or the published solution, copied,
    still right here: its serving memory or training FLOPs the same on this job as on the
    book's. (The book's design itself breaks every class job: its heads are 64 wide.)"""
    job = budget(p)
    design = solution_design(p)
    if design is None or design["num_hidden_layers"] < MIN_LAYERS:
        return [f"the solution's design fits in fewer than {MIN_LAYERS} layers"]
    out = []
    book_design = solution_design(DEFAULTS)  # it breaks every class job: its heads are 64 wide
    theirs, book_figures = design_figures(book_design, job), design_figures(book_design, BUDGET)
    if math.isclose(theirs.serving_gb, book_figures.serving_gb, rel_tol=1e-9):
        out.append("the book's design takes the book's serving memory here (the same bytes of cache)")
    if math.isclose(theirs.train_flops, book_figures.train_flops, rel_tol=1e-9):
        out.append("the book's design takes the book's training FLOPs here")
    mine, book = answers(p), answers(DEFAULTS)
    for name, value in mine.items():
        if value == book[name] or (isinstance(value, float) and math.isclose(value, book[name], rel_tol=1e-9)):
            out.append(f"{name} equals the book's")
    return out


def _describe() -> str:
    return (f"max_params: {MAX_PARAMS[0]}M to {MAX_PARAMS[1]}M in steps of 50M; max_serving_gb: one of "
            f"{SERVING_GB}; context: one of {CONTEXTS}, different in every variant up to the pool's size; "
            f"weights: {WEIGHTS}; kv: {KV}; max_train_flops: one of {TRAIN_FLOPS}; train_tokens: one of "
            f"{TRAIN_TOKENS} billion, different in every variant up to the pool's size; train_context: one of "
            f"{TRAIN_CONTEXTS}; min_vocab_size: one of {MIN_VOCAB}; head_dim: one of {HEAD_DIMS}, different in "
            f"every variant up to the pool's size (so the book's design, and a classmate's, break the job); "
            f"batch 1. A variant is kept when the solution's design (the minimum vocabulary, 16 heads, "
            f"the deepest depth within every budget) has at least {MIN_LAYERS} layers, the "
            f"book's design takes other serving memory and training FLOPs there than on the "
            f"book's job, and every answer of the solution (its binding budget included) differs from the book's")


SPACE = Space(defaults=DEFAULTS, draw=draw, problems=problems, describe=_describe())

# --------------------------------------------------------------------------
# The questions (each rule closes over its variant's budget)


def _number(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        return f"`{name}` must be a number"
    return None


def _close(got, want, rtol=1e-6):
    return math.isclose(got, want, rel_tol=rtol)


def _non_embedding_problem(got, f, s, table, flipped=False):
    """The hint for a count that leaves the vocabulary matrices out (Kaplan's non-embedding N). A tied design's
    total less two tables is its non-embedding count less a head it does not have by the same number, whatever the
    cell computes: said as the head taken away, which both are, never as a non-embedding count the cell may not
    read; `flipped` (the count with the tying flipped): untying adds the head."""
    if got == f.non_embedding:
        return ("that is the non-embedding count (Kaplan's N): the budget counts every parameter, the table included"
                + (" (tied: E once)" if s.tied else ""))
    if s.tied and got == f.non_embedding - table:
        return ("a tied design has no separate head to take away: " + (
            "untying it adds one, a V × d matrix" if flipped else "its table is its head, counted once, and the "
                                                                   "budget counts every parameter"))
    return None


# llama_config's arguments, in order, and the config field each one sets
LLAMA_ARGS = (("vocab_size", "vocab_size"), ("d", "hidden_size"), ("num_layers", "num_hidden_layers"),
              ("num_heads", "num_attention_heads"), ("num_kv_heads", "num_key_value_heads"),
              ("d_ff", "intermediate_size"), ("tied", "tie_word_embeddings"))


def _fits(design: dict, job, field: str, value) -> bool:
    try:
        return not over_budget({**design, field: value}, job)
    except (ValueError, OverflowError, TypeError, ZeroDivisionError):
        return False


def _config_calls(source: str | None) -> list:
    """[(the literal fields of one llama_config call in the cell: {config field: (argument, value)}, whether
    deepest_fit searches it)] for every llama_config call of the learner's own lines; [] when they do not parse."""
    import ast

    from embedlab.grading import code

    try:
        tree = ast.parse(code.own_part(source or ""))
    except (SyntaxError, ValueError, RecursionError, TypeError):
        return []

    def called(node, name):
        f = node.func if isinstance(node, ast.Call) else None
        return isinstance(f, ast.Name) and f.id == name or isinstance(f, ast.Attribute) and f.attr == name

    # what deepest_fit searches: the calls inside its arguments, or inside a function (def, lambda assigned to a
    # name) it is handed by name
    searched_names = {a.id for n in ast.walk(tree) if called(n, "deepest_fit") for a in n.args + [k.value for k in
                      n.keywords] if isinstance(a, ast.Name)}
    searched = set()
    for n in ast.walk(tree):
        inside = called(n, "deepest_fit") or (isinstance(n, ast.FunctionDef) and n.name in searched_names) or (
            isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id in searched_names for t in n.targets))
        if inside:
            searched |= {id(c) for c in ast.walk(n) if called(c, "llama_config")}
    out = []
    for n in ast.walk(tree):
        if not called(n, "llama_config"):
            continue
        fields = {}
        pairs = list(zip(LLAMA_ARGS, n.args)) + [(a, k.value) for k in n.keywords for a in LLAMA_ARGS
                                                 if k.arg == a[0]]
        for (arg, field), node in pairs:
            try:
                fields[field] = (arg, ast.literal_eval(node))
            except (ValueError, TypeError, SyntaxError, RecursionError):
                continue
        out.append((fields, id(n) in searched))
    return out


def _proven_change(design: dict, job, source: str | None) -> str:
    """One change of the learner's own design that makes it fit every budget, named only when the changed design
    is counted and fits: (1) a field the cell's other llama_config call (the family its depth search was built
    from) sets to another value, the only field they differ in; (2) one layer fewer (then the design is one layer
    past the deepest of its family that fits: every budget grows with depth). "" when neither holds."""
    for fields, searched in _config_calls(source):
        differ = [(field, arg, value) for field, (arg, value) in fields.items()
                  if field in design and value != design[field] and not isinstance(design[field], (list, dict))]
        if len(differ) != 1:
            continue
        field, arg, value = differ[0]
        if type(value) is not type(design[field]) or not _fits(design, job, field, value):
            continue
        mine, theirs = (repr(design[field]), repr(value)) if isinstance(value, bool) else (
            f"{design[field]:,}", f"{value:,}")
        where = ("the llama_config call your depth search (deepest_fit) was built from" if searched
                 else "your cell's other llama_config call")
        return (f"your design has {arg} = {mine}, where {where} has {arg} = {theirs}: with {arg} = {theirs}, the "
                f"rest as it is, your design fits every budget")
    layers = design.get("num_hidden_layers")
    if isinstance(layers, int) and not isinstance(layers, bool) and layers > 1 \
            and _fits(design, job, "num_hidden_layers", layers - 1):
        return (f"one layer fewer (num_layers = {layers - 1:,}, the rest as it is) fits every budget: your design is "
                f"one layer deeper than the deepest of its kind that fits")
    return ""


def _layers_fewer(design: dict, job, p: dict | None = None) -> str:
    """A design a few layers past the deepest of its kind that fits: how many fewer fit every budget, the rest as it
    is (the design recounted), at most a quarter of its layers (past that the depth is not what overruns); ""
    else. Where those fewer layers make the worked solution's design (variant `p`), the depth is not said: that
    would be the answer whole (as _unrevealed)."""
    layers = design.get("num_hidden_layers")
    if not isinstance(layers, int) or isinstance(layers, bool) or layers < 3:
        return ""
    for fewer in range(2, max(1, layers // 4) + 1):
        if _fits(design, job, "num_hidden_layers", layers - fewer):
            try:
                whole = p is not None and {**design, "num_hidden_layers": layers - fewer} == solution_design(p)
            except (ValueError, TypeError, OverflowError, KeyError):
                whole = False
            if whole:
                return ("fewer layers (the rest as it is) fit every budget: your design is deeper than the deepest "
                        "of its kind that fits")
            return (f"{fewer} layers fewer (num_layers = {layers - fewer:,}, the rest as it is) fit every budget: "
                    f"your design is {fewer} layers deeper than the deepest of its kind that fits")
    return ""


def _unrevealed(fix: str, design: dict, p: dict) -> str:
    """One of one_field_fixes' "arg = value" words, as said: the same, unless the design with that one change is
    the worked solution's design (the answer given whole): then "a smaller arg", no value."""
    from embedlab.sizing import _ONE_FIELD

    arg, _, value = fix.partition(" = ")
    field = {a: f for f, a in _ONE_FIELD}.get(arg)
    if field is None or value in ("True", "False"):
        return fix
    try:
        changed = {**design, field: int(value.replace(",", ""))}
        solution = solution_design(p)
    except (ValueError, TypeError, OverflowError, KeyError):
        return fix
    if solution is None or changed != solution:
        return fix
    return f"a smaller {arg}"


def _not_a_design(design, job: Budget, source=None) -> str:
    """Why `design` cannot be judged: None is what deepest_fit(...).design gives when not even one layer fits,
    and the cell's own vocabulary below the job's minimum is named when the cell types it (a number passed as
    vocab_size, or as llama_config's first argument); anything else is asked to be a config dict."""
    if design is not None:
        return "`design` must be a config dict (use llama_config(...))"
    said = ("`design` holds no config: deepest_fit(...).design is left empty when not even one layer fits every "
            "budget (its .reasons say what one layer breaks)")
    small = [v for v in _typed_vocab(source) if v < job.min_vocab_size]
    if small:
        return (f"{said}; your cell passes vocab_size = {small[0]:,}, below the job's minimum, min_vocab_size = "
                f"{job.min_vocab_size:,}: no depth fixes a vocabulary that small")
    return said + ": print them, and change what they name"


def _typed_vocab(source) -> list:
    """The whole numbers the cell passes as a vocabulary: vocab_size=N, or llama_config(N, ...)."""
    import ast

    if not isinstance(source, str):
        return []
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        values = [k.value for k in node.keywords if k.arg == "vocab_size"]
        if getattr(node.func, "id", getattr(node.func, "attr", "")) == "llama_config" and node.args:
            values.append(node.args[0])
        out += [v.value for v in values if isinstance(v, ast.Constant) and isinstance(v.value, int)
                and not isinstance(v.value, bool)]
    return out


# serving_memory's settings, each with the job's field it is (Budget's: the parameters cell's names too)
_SERVING_FIELDS = ("weights", "context", "batch", "kv")


def _serving_fields(design, got, f, job, source) -> str:
    """Question 3's words where the cell's own serving_memory call gives its value exactly and a setting is passed
    something other than the job's own field for it (another field of the budget, `context=BUDGET.train_context`;
    a value typed, kv='fp32'), and the call with those settings put back gives the right memory: each such setting
    named with the field it reads; "" where the call cannot be read, does not give the value, or the settings put
    back do not give the answer (the slip is elsewhere)."""
    import ast
    import inspect

    try:
        tree = ast.parse(source) if isinstance(source, str) else None
    except (SyntaxError, ValueError):
        tree = None
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
             and getattr(n.func, "id", getattr(n.func, "attr", "")) == "serving_memory"] if tree is not None else []
    if len(calls) != 1:
        return ""
    call = calls[0]
    fields = {x.name for x in dataclasses.fields(Budget)}

    def resolved(node):  # (value, the budget field read or None), or None where the value cannot be read
        if isinstance(node, ast.Constant) and type(node.value) in (int, float, str):
            return node.value, None
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr in fields:
            return getattr(job, node.attr), node.attr
        if isinstance(node, ast.Name) and node.id in fields:
            return getattr(job, node.id), node.id
        return None

    try:
        bound = inspect.signature(serving_memory).bind(None, *call.args[1:], **{
            k.arg: k.value for k in call.keywords if k.arg})
    except TypeError:
        return ""
    if any(k.arg is None for k in call.keywords) or set(bound.arguments) - {"config", *_SERVING_FIELDS}:
        return ""
    passed = {}
    for name, node in bound.arguments.items():
        if name != "config":
            value = resolved(node)
            if value is None:
                return ""
            passed[name] = (value, node)
    own = {name: getattr(job, name) for name in _SERVING_FIELDS}
    mine = {name: v[0][0] for name, v in passed.items()}

    def total(settings) -> float | None:
        try:
            return serving_memory(design, **settings)["total"] / GB
        except (ValueError, TypeError, KeyError, OverflowError):
            return None

    if total(mine) is None or not _close(got, total(mine)):
        return ""
    off = [name for name, value in mine.items() if value != own[name]
           and total({**mine, name: own[name]}) != total(mine)]
    if not off or total({**mine, **{name: own[name] for name in off}}) is None \
            or not _close(total({**mine, **{name: own[name] for name in off}}), f.serving_gb):
        return ""
    said = []
    for name in off:
        (value, field), node = passed[name]
        shown = ast.unparse(node)
        what = f"reads another field of the budget, BUDGET.{field} ({_shown(value)})" if field else "is typed by hand"
        said.append(f"`{name}={shown}` {what}: the job's {name} is BUDGET.{name} = {_shown(own[name])}")
    return "; and ".join(said) + " (put back, your own call gives the answer)"


def _shown(value) -> str:
    return f"{value:,}" if type(value) is int else repr(value)


def _typed_context(design, got, job, source) -> str:
    """Question 4's words for training FLOPs priced at a sequence length the cell types (the lesson's 4,096) in place
    of the job's train_context: exactly the FLOPs of D // T sequences of that length, or of one of them; "" when no
    whole number the cell types gives the value so."""
    import ast

    try:
        tree = ast.parse(source) if isinstance(source, str) else None
    except (SyntaxError, ValueError):
        tree = None
    typed = sorted({n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and type(n.value) is int}
                   if tree is not None else set())
    for t in typed:
        if t == job.train_context or not 16 <= t < job.train_tokens:
            continue
        try:
            one = training_flops(design, t).total
        except (ValueError, OverflowError, MemoryError):
            continue
        said = (f"your sequences are {t:,} tokens long, a number your cell types: training sequences are "
                f"train_context = {job.train_context:,} tokens long (BUDGET.train_context)")
        if _close(got, one * (job.train_tokens // t)):
            return f"{said}, and D is cut into D // T_train of them"
        if _close(got, one):
            return (f"{said}; and yours is one sequence: multiply one sequence's FLOPs by the number of sequences, "
                    "D // T_train (a whole number)")
    return ""


# Units a serving memory may be given in by mistake, each with the bytes it stands for
_MEMORY_UNITS = (("bytes", 1), ("kB (10**3 bytes)", 10**3), ("MB (10**6 bytes)", 10**6), ("TB (10**12 bytes)", 10**12),
                 ("KiB (2**10 bytes)", 2**10), ("MiB (2**20 bytes)", 2**20))


def _cache_multiple(got, f) -> str:
    """The words for a serving memory whose weights are the design's and whose KV cache is a whole multiple (2 or
    more) of the design's, exactly: measured, so said as measured (a batch, a context or a precision may make it)."""
    if not f.kv_cache_gb > 0:
        return ""
    k = (got - f.weights_gb) / f.kv_cache_gb
    if k > 1.5 and abs(k - round(k)) < 1e-9:
        return (f"your weights are right, and your KV cache is exactly {round(k)} times your design's at the job's "
                "context, batch and KV precision (one conversation of BUDGET.context tokens in BUDGET.kv): recheck "
                "what you pass to serving_memory for each")
    return ""


def _serving_measured(got, f) -> str:
    """Question 3's words when no named slip explains the value: each only when the value proves it (the
    design's serving memory in another unit, or rounded; its weights right with a whole multiple of its KV
    cache), else what is measured, no cause guessed."""
    total = f.serving_gb * GB
    for unit, size in _MEMORY_UNITS:
        if _close(got, total / size, 1e-9):
            return f"that is your design's serving memory in {unit}: give it in GB (10**9 bytes), divide the bytes by GB"
    if any(got == round(f.serving_gb, k) for k in range(7)) or any(
            got == float(f"{f.serving_gb:.{k}g}") for k in range(1, 7)):
        return ("that is your design's serving memory rounded: the question asks for it not rounded (the check "
                "wants it to 1 part in 10^9)")
    multiple = _cache_multiple(got, f)
    if multiple:
        return multiple
    from embedlab.grading import diagnose

    return "not the serving memory of your design: " + diagnose.measured_hint(got, f.serving_gb)


def questions(p: dict) -> list:
    """The questions of variant `p`: every rule judges against that variant's budget."""
    job = budget(p)
    weight_bytes, kv_bytes = bytes_per_param(job.weights), bytes_per_param(job.kv)

    def figures(answers):
        """(figures, None) for the learner's design, or (None, the problem) when it cannot be counted."""
        design = answers.get("design")
        if not isinstance(design, dict):
            return None, _not_a_design(design, job)
        try:
            return design_figures(design, job), None
        except (ValueError, OverflowError) as exc:
            return None, f"fix `design` first: {exc}"[:250]

    def figures_for_number(answers, name):
        """As `figures`, but first the reported figure `name` must be a number."""
        problem = _number(answers[name], name)
        return (None, problem) if problem else figures(answers)

    def design_rule(answers, source=None):
        """The design does the job: a model the calculators can count, within every budget."""
        design = answers["design"]
        if not isinstance(design, dict):
            return [_not_a_design(design, job, source)]
        problems = over_budget(design, job)
        # the head width is said with the budgets a design breaks, in the same hint (not one round trip later)
        try:
            width = model_shape(design).head_dim
        except (ValueError, KeyError, TypeError, ZeroDivisionError, OverflowError):
            width = None
        heads = [] if width is None or width == p["head_dim"] else [
            f"the job's heads are head_dim = {p['head_dim']} wide (d / h); yours are {width}"]
        if problems:
            problems = [*problems, *heads]
            # a one-field change the learner's own cell shows (the value its search was built with), or one layer
            # fewer, proven by the changed design fitting every budget
            proven = _proven_change(design, job, source)
            if proven:
                return [*problems, proven]
            # the one field whose change alone does it, when only one does (two would be a guess between them)
            try:
                fixes = one_field_fixes(design, job)
                f = design_figures(design, job)
            except (ValueError, OverflowError):  # a design the calculators refuse to count: its problems only
                return problems
            # a fix whose changed design is the worked solution's design is the answer itself: the field and
            # the way to change it are said, never the value (sizing's nearest fitting value is the solution's)
            fixes = [_unrevealed(fix, design, p) for fix in fixes]
            kv = [x for x in fixes if x.startswith("num_kv_heads = ")]
            budgets = len(problems) - len(heads)  # the budgets broken (the head width said after them)
            if kv and budgets == 1 and problems[0].startswith("memory:") and f.kv_cache_gb > f.weights_gb:
                # only the memory over, and most of it the cache: the kv heads are what the cache is made of
                problems = [problems[0] + f"; most of it is the KV cache, one key and one value vector per kv head "
                                          f"per layer per token: {kv[0]} alone (query heads sharing a kv head) "
                                          "fits every budget", *problems[1:]]
            elif len(fixes) == 1:  # after every budget it breaks, each named
                problems = [*problems, f"one change alone would fit every budget: {fixes[0]} (the rest of the "
                                       "design as it is)"]
            else:
                fewer = _layers_fewer(design, job, p)
                problems = [*problems, fewer] if fewer else problems
            return problems
        return heads

    def params_rule(answers):
        got = answers["design_params"]
        f, problem = figures(answers)
        if problem:
            return [problem]
        if isinstance(got, bool) or not isinstance(got, numbers.Real):
            return ["`design_params` must be an int"]
        if not isinstance(got, numbers.Integral):  # a float: in millions (count / 1e6)? said as units, then the int
            units = diagnose.units_hint(float(got), f.params, "parameters") if got != f.params else None
            return [units or "`design_params` must be an int"]
        if got == f.params:
            return []
        s = model_shape(answers["design"])
        other = _shipped_count(got, answers["design"])
        if other:  # a shipped model counted (a lesson's cell copied with its name left in)
            return [f"that is the count of the shipped model {other!r} (load_config({other!r})), not of your "
                    "`design`: count_params(design)"]
        table = s.vocab_size * s.hidden_size
        non_embedding = _non_embedding_problem(got, f, s, table)  # before the head: tied, N = total - E
        if non_embedding:
            return [non_embedding]
        if s.tied and got == f.params + table:
            return ["that counts a second V × d table: a tied head reuses E and adds 0"]
        if not s.tied and got == f.params - table:
            return ["that leaves out the head: untied, it is a second V × d matrix"]
        if got == estimate_params(s.vocab_size, s.hidden_size, s.num_layers):
            return ["that is the rule of thumb V·d + 12·L·d²: count the real config (GQA, SwiGLU, norms)"]
        from embedlab.grading.questions.l04 import llama_parts

        try:
            found = named.search(llama_parts(s.vocab_size, s.hidden_size, s.num_layers, s.num_heads,
                                             s.num_kv_heads, s.intermediate_size, s.tied), got)
        except Exception:  # noqa: BLE001 - a design the Llama parts do not describe
            found = None
        return [found or Measured("not the parameter count of your design: count it with count_params")]

    def serving_rule(answers, source=None):
        got = answers["design_serving_gb"]
        f, problem = figures_for_number(answers, "design_serving_gb")
        if problem:
            return [problem]
        if _close(got, f.serving_gb):
            return []
        read = _serving_fields(answers["design"], got, f, job, source)
        if read:
            return [read]
        if _close(got, f.weights_gb):
            return ["that is the weights only: the KV cache of the conversation comes on top"]
        if _close(got, f.serving_gb * GB / GiB):
            return ["that is GiB (2**30 bytes): give GB (10**9 bytes)"]
        if _close(got, f.serving_gb * GB):
            return ["give it in GB: divide the bytes by 10**9"]
        if weight_bytes != 2 and _close(got, 2 / weight_bytes * f.weights_gb + f.kv_cache_gb):
            return [f"the weights are served in {job.weights} ({weight_bytes:g} bytes each), not bf16"]
        n = f.weights_gb / weight_bytes
        cache = f.kv_cache_gb / kv_bytes / job.context
        found = named.search(Answer(Sum("the serving memory", [
            Prod("the weights", [Part("parameters", n, "every parameter, in GB", can_drop=False),
                                 Part("bytes per weight", weight_bytes, job.weights, alts=[
                                     Alt(v, f"the weights are served in {job.weights} ({weight_bytes:g} bytes each), "
                                            f"not {name} ({v:g})")
                                     for name, v in (("fp32", 4), ("bf16", 2), ("int8", 1), ("int4", 0.5))
                                     if v != weight_bytes])],
                 missing="that is the KV cache only: the weights are in memory too"),
            Prod("the KV cache", [Part("values cached", cache, "2 · L · h_kv · head_dim per token, at the job's "
                                                               "batch", can_drop=False),
                                  Part("context", job.context, "the serving context", can_drop=False, alts=[
                                      Alt(job.train_context, f"the cache is sized at the serving context "
                                                             f"(BUDGET.context, {job.context:,} tokens), not the "
                                                             "training context")]
                                       if job.train_context != job.context else []),
                                  Part("bytes per value", kv_bytes, job.kv, alts=[
                                      Alt(v, f"the KV cache is kept in {job.kv} ({kv_bytes:g} bytes a value), not "
                                             + (f"in the weights' {job.weights}" if v == weight_bytes else
                                                f"{name} ({v:g})"))
                                      for name, v in (("fp32", 4), ("bf16", 2), ("int8", 1), ("int4", 0.5))
                                      if v != kv_bytes])],
                 missing="that is the weights only: the KV cache of the conversation comes on top")]),
            context="your memory"), got)
        if found and ("; and " in found or named.alternatives(found)):
            # two changes guessed at once, or two stories of one change (a cache in fp32, or counted twice): a whole
            # multiple of the cache is measured, which of them the cell made is not
            multiple = _cache_multiple(got, f)
            found = multiple or found
        return [found or Measured(_serving_measured(got, f))]

    def train_flops_rule(answers, source=None):
        got = answers["design_train_flops"]
        f, problem = figures_for_number(answers, "design_train_flops")
        if problem:
            return [problem]
        if _close(got, f.train_flops):
            return []
        sequences = job.train_tokens // job.train_context
        # 6·N·D with lesson 06's N_mult (train_flops_6nd), or with every parameter (an untied design's lookup
        # table counted as if it were multiplied): the same rule of thumb either way
        if _close(got, f.train_flops_6nd) or _close(got, 6 * f.params * job.train_tokens):
            return ["that is the rule of thumb 6·N·D: the budget counts with training_flops (attention in, "
                    "lookup free)"]
        if _close(got, f.train_flops / sequences):
            return ["that is one training sequence: multiply by the number of sequences, D // T_train (a whole number)"]
        if _close(got, f.train_flops / 3):
            return ["that is a forward pass: training costs about three (forward and backward)"]
        try:  # one sequence of every D token: attention grows with the square of a sequence's length
            whole = training_flops(answers["design"], job.train_tokens).total
        except (ValueError, OverflowError, MemoryError):
            whole = None
        if whole is not None and _close(got, whole):
            return [f"that prices one sequence of all D tokens, whose attention grows with the square of its length: "
                    f"price sequences of train_context = {job.train_context:,} tokens and multiply by their number, "
                    "D // T_train"]
        if job.context != job.train_context:
            try:
                other = training_flops(answers["design"], job.context).total * (job.train_tokens // job.context)
            except (ValueError, OverflowError):
                other = None
            if other is not None and _close(got, other):
                return [f"that cuts D into sequences of the serving context: training sequences are "
                        f"train_context = {job.train_context:,} tokens long (BUDGET.train_context)"]
            try:  # as many sequences as D // T_train, each priced at the serving context
                mixed = training_flops(answers["design"], job.context).total * sequences
            except (ValueError, OverflowError):
                mixed = None
            if mixed is not None and _close(got, mixed):
                return [f"each sequence is priced at the serving context, BUDGET.context = {job.context:,} tokens: "
                        f"training sequences are train_context = {job.train_context:,} tokens long "
                        "(BUDGET.train_context), the number of them right"]
        typed = _typed_context(answers["design"], got, job, source)
        if typed:
            return [typed]
        found = named.search(Answer(Prod("the training FLOPs", [
            Part("sequences", sequences, "D // T_train", alts=[
                Alt(job.train_tokens, "multiply one sequence's FLOPs by the number of sequences (D // T_train), not "
                                      "by the tokens D")],
                 missing="that is one training sequence: multiply by the number of sequences, "
                         "D // T_train (a whole number)"),
            Part("one sequence", f.train_flops / sequences)], alts=[
            Alt(6 * f.non_embedding * job.train_tokens, "that is 6·N·D with the non-embedding N, a rule of thumb: "
                                                         "count with training_flops (every parameter, attention in)"),
            Alt(f.train_flops_6nd, "that is the rule of thumb 6·N·D: the budget counts with training_flops "
                                   "(attention in, lookup free)")]),
            scales=[named.Scale(1 / 3, "a forward pass only (2 FLOPs per weight): training adds the backward "
                                       "pass, three times the forward")],
            context="your FLOPs"), got)
        return [found or Measured("not the training FLOPs of your design for the job's D and training context")]

    def tightest_rule(answers, source=None):
        got = answers["tightest_budget"]
        if not isinstance(got, str) or got.strip().lower() not in BUDGET_NAMES:
            return [f"answer one of {', '.join(repr(n) for n in BUDGET_NAMES)}"]
        f, problem = figures(answers)
        if problem:
            return [problem]
        used = headroom(f, job)
        want = max(used, key=used.get)
        if got.strip().lower() == want:
            return []
        rough = dict(used, compute=f.train_flops_6nd / job.max_train_flops)
        mine, most = percents_apart([used[got.strip().lower()], used[want]])  # digits enough to tell them apart
        share = f"your design uses {mine} of the {got.strip().lower()} budget; another uses more ({most})"
        if got.strip().lower() == min(used, key=used.get):
            # a cause named only where the learner's own min, made max, gives the answer (kinds.Claim)
            return [Claim(f"{share}: that is the budget your design uses the least of (the smallest fraction); the "
                          "tightest is the one it uses the most of, the largest fraction (max)", "max",
                          f"{share}: the tightest budget is the one with the largest fraction used, each figure "
                          "divided by its own budget")]
        # 6·N·D with lesson 06's N (train_flops_6nd) or with every parameter (design_params): the same rule of thumb
        roughs = [rough, dict(used, compute=6 * f.params * job.train_tokens / job.max_train_flops)]
        if any(got.strip().lower() == max(r, key=r.get) for r in roughs) and _counts_6nd(source):
            return [f"{share}: that is the tightest if compute is 6·N·D; count compute with training_flops "
                    "(attention included), which the budget uses"]
        return [f"{share}: the tightest budget is the one with the largest fraction used, each figure divided "
                "by its own budget"]

    def other_tying_rule(answers, source=None):
        got = answers["other_tying_params"]
        f, problem = figures(answers)
        if problem:
            return [problem]
        if isinstance(got, bool) or not isinstance(got, numbers.Real):
            return ["`other_tying_params` must be an int"]
        s = model_shape(answers["design"])
        table = s.vocab_size * s.hidden_size
        want = f.params + table if s.tied else f.params - table  # untying adds a head, tying drops it
        if not isinstance(got, numbers.Integral):  # a float: in millions? said as units, then the int
            units = diagnose.units_hint(float(got), want, "parameters") if got != want else None
            return [units or "`other_tying_params` must be an int"]
        if got == want:
            return []
        if got == f.params:  # a key the design lacks, set on its copy: proven unread
            unread = labels.unread_key(source, "design", answers["design"],
                                       lambda c: count_params(c).total, got)
            return [unread or "that is your design as it is: flip "
                              "tie_word_embeddings and count again"]
        head = (Part("the head", table, "untying adds a head, V × d", twice=(
            "untying adds one head, V·d, once: yours adds two V × d matrices"), alts=[
            Alt(-table, "untying a tied design adds a head, one V × d matrix: add it, do not subtract it")])
            if s.tied else
            Part("minus the head", -table, "tying removes the head, V × d", alts=[
                Alt(table, "tying an untied design removes the head: subtract one V × d matrix, do not add it")]))
        found = named.search(Answer(Sum("the other tying", [
            Part("your design", f.params, can_drop=False, twice="the whole model counted twice: flipping the tying "
                                                                "changes only the head, one V × d matrix"),
            head, *([named.Extra("a head bias", s.vocab_size, "Llama's head has no bias: untying adds one V × d "
                                                               "matrix, nothing else")] if s.tied else [])])), got)
        if found:
            return [found]
        return [_non_embedding_problem(got, f, s, table, flipped=True)
                or Measured("not the count of your design with the tying flipped (same sizes, the other choice "
                            "of head)")]

    def of_design(value):
        """`expects`: what a rule wants for the learner's own design (--explain shows it as expected)."""
        def expects(answers):
            f, problem = figures(answers)
            return None if problem else value(f, answers["design"])
        return expects

    def flipped(f, design):
        table = model_shape(design).vocab_size * model_shape(design).hidden_size
        return f.params + table if model_shape(design).tied else f.params - table

    def tightest(f, design):
        used = headroom(f, job)
        return max(used, key=used.get)

    def tightest_carried(answers):
        """Question 5 on the learner's own figures (error carried forward): the budget their reported
        parameters, GB and FLOPs use the largest fraction of. The figures they were judged on when that is
        their answer (those off from the recount: [] when none is), else None. A figure not given as a positive
        number is the recount's."""
        got = answers["tightest_budget"]
        f, problem = figures(answers)
        if problem or not isinstance(got, str):
            return None
        own, off = {}, []
        for budget_name, figure, recount in (("parameters", "design_params", f.params),
                                             ("memory", "design_serving_gb", f.serving_gb),
                                             ("compute", "design_train_flops", f.train_flops)):
            value = answers.get(figure)
            if _number(value, figure) or not value > 0:
                value = recount
            elif not _close(value, recount):
                off.append(figure)
            own[budget_name] = value / getattr(job, LIMIT_OF[budget_name])
        return off if got.strip().lower() == max(own, key=own.get) else None

    def other_tying_carried(answers):
        """Question 6 from the learner's own `design_params` (error carried forward): their count with the
        head's V × d added (untying) or taken away (tying). ["design_params"] when that is the answer and
        their count (an int) is off, [] when it is the answer and their count is the recount's in value (a
        float of it, or not given as a number: the recount's), else None."""
        got, counted = answers["other_tying_params"], answers.get("design_params")
        f, problem = figures(answers)
        if problem or isinstance(got, bool) or not isinstance(got, int):
            return None
        if _number(counted, "design_params") or counted == f.params:
            counted, off = f.params, []
        elif isinstance(counted, int):
            off = ["design_params"]
        else:
            return None
        s = model_shape(answers["design"])
        table = s.vocab_size * s.hidden_size
        return off if got == (counted + table if s.tied else counted - table) else None

    figures_of = ("design_params", "design_serving_gb", "design_train_flops")
    return [
        Design("design", points=3, rule=design_rule),
        Design("design_params", rule=params_rule, uses=("design",), other_inputs=design_params_elsewhere,
               carries=("design",), expects=of_design(lambda f, d: f.params)),
        Design("design_serving_gb", rule=serving_rule, uses=("design",), carries=("design",),
               expects=of_design(lambda f, d: f.serving_gb)),
        Design("design_train_flops", rule=train_flops_rule, uses=("design",), carries=("design",),
               expects=of_design(lambda f, d: f.train_flops)),
        Design("tightest_budget", rule=tightest_rule, uses=("design",), other_inputs=tightest_elsewhere,
               carries=("design", *figures_of), carry=tightest_carried,
               expects=of_design(tightest), options=BUDGET_NAMES),
        Design("other_tying_params", rule=other_tying_rule, uses=("design",), other_inputs=other_tying_elsewhere,
               carries=("design", "design_params"), carry=other_tying_carried, expects=of_design(flipped)),
        dataclasses.replace(DEFENCE, figures=lambda known, text: defence_figures(known, text, job)),
    ]


# Question 7: the design defended in writing, marked by the instructor against this rubric
# (embedlab-grade --manual; book/grading.md "Written answers, marked by hand").
DEFENCE = Written("defence", carries=("design", "design_params", "design_serving_gb", "design_train_flops",
                                      "tightest_budget", "other_tying_params"), criteria=(
    Criterion("binding", "Which budget binds, and by how much:",
              "name the budget your design uses the largest fraction of, with your own figures, and every "
              "budget that one layer more would break, with the fraction of it that L + 1 layers would use.", (
                  Level(0, "no budget named, or one named with no figure"),
                  Level(1, "the fullest budget named with its fraction, but the other two budgets not compared "
                           "(or raw amounts compared instead of fractions), or no check of what one layer more "
                           "would break, or the budgets it breaks named without the fraction L + 1 layers "
                           "would use"),
                  Level(2, "the fraction of each of the three budgets your own figures use, and every budget "
                           "that one layer more would break, each with the fraction of it that L + 1 layers would "
                           "use (over 100%): those are the ones to relax for a bigger model (when two "
                           "break, relaxing one alone buys nothing)")), figures=True),
    Criterion("shape", "Why this width and depth:",
              "argue d and L from the job and an objective, not from taste. The job fixes the head width, "
              "so choosing d is choosing the number of heads h (d = h · head_dim).", (
                  Level(0, "width and depth stated without a reason, or d argued only by d = h · head_dim "
                           "(that says which widths are allowed, not which one to pick)"),
                  Level(1, "one of the two argued: L as the deepest depth within every budget, with the "
                           "fraction (over 100%) of a budget that L + 1 layers would use, or d compared with "
                           "another number of heads"),
                  Level(2, "both: L the deepest depth within every budget, with the fraction (over 100%) of a "
                           "budget that L + 1 layers would use; and d compared with at least one other number of "
                           "heads, each at its own deepest depth, by a stated objective (lesson 11, section 6: "
                           "the most "
                           "non-embedding parameters)")), figures=True),
    Criterion("tying", "What the tying choice costs:",
              "say what tying (or not) the output head costs or saves, in your design's own numbers.", (
                  Level(0, "the choice not discussed"),
                  Level(1, "the choice named with the V × d parameters it saves or costs"),
                  Level(2, "the V × d count and what it moves in the budgets (parameters and serving GB), "
                           "from your other_tying_params")), figures=True),
))


# The budget each share is a fraction of, by the name question 5 gives it: a Budget field, also a
# name of the parameters cell.
LIMIT_OF = {"parameters": "max_params", "memory": "max_serving_gb", "compute": "max_train_flops"}


NEAR_TIE = 0.02  # how far apart question 5's near-tie cases put the two tightest budgets' fractions


def tightest_elsewhere(ns: dict) -> list:
    """Question 5 with the budget that binds made 1,000 times larger, so another binds: a cell that
    compares the raw amounts (FLOPs are always the biggest number) or types its choice gives the
    same word there. The job is the notebook's `BUDGET`, and each limit is also given under its
    parameters-cell name, whichever the cell reads. The design and its figures stay as they are (the
    solution chose the design with the budget: that does not make the question's answer follow it).

    Each case is worked out on the figures the question judges the cell on: lines that read the learner's own
    figures on those (error carried forward), lines that read none of them (a typed word, a recount of their
    own) on the recounted figures, as the rule judges them. Where the two differ, both sets of cases are made,
    each for its lines (Elsewhere.when_reads, unless_reads): a typed word is never told "the answer there is
    another" of an answer that is another only on a figure it does not read."""
    job = ns["BUDGET"]
    own, recount = _used(ns, job), _used(ns, job, own=False)
    if all(math.isclose(own[b], recount[b], rel_tol=1e-9) for b in own):
        return _tightest_cases(ns, job, True)
    return [*(dataclasses.replace(c, when_reads=FIGURES_OF) for c in _tightest_cases(ns, job, True)),
            *(dataclasses.replace(c, unless_reads=FIGURES_OF) for c in _tightest_cases(ns, job, False))]


FIGURES_OF = ("design_params", "design_serving_gb", "design_train_flops")  # question 5's carried figures


def _tightest_cases(ns: dict, job: Budget, own: bool) -> list:
    """Question 5's cases (tightest_elsewhere), each answer worked out on the learner's own figures (`own`) or on
    the recounted ones."""
    used = _used(ns, job, own)
    binds = max(used, key=used.get)
    field = LIMIT_OF[binds]
    roomier = dataclasses.replace(job, **{field: getattr(job, field) * 1000})
    after = _used(ns, roomier, own)
    inputs = {"BUDGET": roomier, **{name: getattr(roomier, name) for name in LIMIT_OF.values()}}
    keeps = ("design", *FIGURES_OF)
    raw = ("the tightest budget is the largest *fraction* used (each figure over its own budget), not the largest "
           "raw number (FLOPs always are)")
    # the raw amounts are said only of lines that read the design or its figures: a word typed compares nothing
    out = [Elsewhere(inputs, max(after, key=after.get), f"with the {binds} budget 1,000 times larger", raw,
                     why_reads=keeps, kind="choice", keeps=keeps)]
    if binds != "compute":
        # the raw amounts' pick (FLOPs are always the largest number) is compute whatever the fractions: with the
        # compute budget 1,000 times larger compute is the emptiest budget, so that pick is wrong there whichever
        # budget binds (with the binding one grown, the raw pick is right wherever compute binds next)
        roomy = dataclasses.replace(job, max_train_flops=job.max_train_flops * 1000)
        there = _used(ns, roomy, own)
        out.append(Elsewhere({"BUDGET": roomy, **{name: getattr(roomy, name) for name in LIMIT_OF.values()}},
                             max(there, key=there.get), "with the compute budget 1,000 times larger", raw,
                             why_reads=keeps, kind="choice", keeps=keeps))
    # Near ties: the binding budget set so that its fraction is only NEAR_TIE above the next one's, then
    # NEAR_TIE below it. A figure off by a few per cent either way (fractions rounded, a figure recomputed
    # in other units) picks the other budget in one of them; the words say what the case is, not which.
    runner_up = sorted(used, key=used.get)[-2]
    ties = ((1 + NEAR_TIE, binds), (1 / (1 + NEAR_TIE), runner_up))
    for margin, want in ties:
        if not used[runner_up] > 0:
            break
        scaled = getattr(job, field) * used[binds] / (used[runner_up] * margin)
        near = dataclasses.replace(job, **{field: round(scaled) if field == "max_params" else scaled})
        close = _used(ns, near, own)
        if max(close, key=close.get) == want and max(close[binds], close[runner_up]) < 1.05 * min(
                close[binds], close[runner_up]):
            inputs = {"BUDGET": near, **{name: getattr(near, name) for name in LIMIT_OF.values()}}
            # said by what the case does, on the figures the question is judged on (the learner's own where they
            # gave them: error carried forward), and no cause guessed: the lines' pick is all that is measured
            fuller, other = (binds, runner_up) if want == binds else (runner_up, binds)
            out.append(Elsewhere(inputs, want, f"with `{field}` set so that your figures use {NEAR_TIE * 100:g} % "
                                 f"more of the {fuller} budget than of the {other} budget",
                                 f"there the {fuller} budget is the fuller by only {NEAR_TIE * 100:g} %: the tightest "
                                 "budget is the largest fraction used, each figure divided by its own budget",
                                 kind="choice", keeps=keeps))
    return out


def _used(ns: dict, job: Budget, own: bool = True) -> dict:
    """Each budget's fraction used, from the learner's own figures where the notebook holds them as positive
    numbers (error carried forward: question 5 is judged on them, so its other inputs are too), else (and with
    `own` False) from the design's recount on `job`."""
    recount = design_figures(ns["design"], job)
    out = {}
    for name, figure, value in (("parameters", "design_params", recount.params),
                                ("memory", "design_serving_gb", recount.serving_gb),
                                ("compute", "design_train_flops", recount.train_flops)):
        mine = ns.get(figure)
        if own and not _number(mine, figure) and mine > 0:
            value = mine
        out[name] = value / getattr(job, LIMIT_OF[name])
    return out


# The figures earlier questions report, each as the design's recount gives it: a case that changes the design
# gives the ones its question carries (reads from the notebook) as they are for the changed design, so a cell that
# reads them (design_params + V·d) runs on a world that agrees with itself, and is not passed over as reading a
# figure made from the design before it changed (elsewhere.derived_names).
FIGURES = {"design_params": lambda f: f.params, "design_serving_gb": lambda f: f.serving_gb,
           "design_train_flops": lambda f: f.train_flops}


def _tying_flipped(ns: dict, why: str, own_count: bool, carried: tuple = ()) -> list:
    """One case: the learner's design with its tying flipped. The count expected there is the flipped
    design's (`own_count` False) or the design's own (True: flipping the flipped one back). The figures of
    `carried` (names of FIGURES) are given for the flipped design, recounted on the notebook's job."""
    design = ns["design"]
    if not isinstance(design, dict) or not isinstance(design.get("tie_word_embeddings"), bool):
        return []
    flipped = {**design, "tie_word_embeddings": not design["tie_word_embeddings"]}
    try:
        want = count_params(design if own_count else flipped).total
        inputs = {"design": flipped}
        if set(carried) - {"design_params"}:  # serving GB and FLOPs are the job's too
            f = design_figures(flipped, ns["BUDGET"])
            inputs.update({name: FIGURES[name](f) for name in carried})
        elif carried:  # a count is the design's alone: no job needed
            inputs["design_params"] = count_params(flipped).total
    except (ValueError, OverflowError, KeyError, TypeError):
        return []
    tying = "untied" if design["tie_word_embeddings"] else "tied"
    # an earlier answer of the learner's that is not the recount (their count off):
    # the case's value of it is not theirs
    try:
        if set(carried) - {"design_params"}:
            mine = design_figures(design, ns["BUDGET"])
            own = {name: FIGURES[name](mine) for name in carried}
        else:
            own = {"design_params": count_params(design).total}
    except (ValueError, OverflowError, KeyError, TypeError):
        own = {}
    not_own = tuple(n for n in carried if n not in own or ns.get(n) != own[n])
    return [Elsewhere(inputs, want, f"with the design {tying}", why, kind="integer",
                      not_own=not_own)]


def design_params_elsewhere(ns: dict) -> list:
    """Question 2 on the design with its tying flipped: a count that adds the table once whatever the design
    (right for a tied head only), or twice, gives another count there; count_params does not."""
    return _tying_flipped(ns, "count what the design holds: an untied head is a second V × d matrix, a tied "
                              "one none", own_count=False)


def other_tying_elsewhere(ns: dict) -> list:
    """Question 6 on the design with its tying flipped: flipping it back gives the design's own count. A
    cell that always adds a head (or always drops one) is right for one tying only."""
    return _tying_flipped(ns, "flip the tying the design has (not design['tie_word_embeddings']): untying adds "
                              "a head, tying takes one away", own_count=True, carried=("design_params",))


def _shipped_count(got, design) -> str | None:
    """The shipped model (load_config's name) whose parameter count is exactly `got`, when that is not `design`'s
    own config; None when none is, or two are."""
    from embedlab.params import available_models, load_config

    found = []
    for name in available_models():
        try:
            config = load_config(name)
            if config == design:
                continue
            if count_params(config).total == got:
                found.append(name)
        except Exception:  # noqa: BLE001 - a config the counter refuses: not this one
            continue
    return found[0] if len(found) == 1 else None


def _counts_6nd(source) -> bool:
    """Does the answer cell count compute as 6·N·D (a 6 typed, or the figure's 6·N·D field read)? Only then
    is a choice that 6·N·D would make blamed on it: typed or picked another way, the same word is not."""
    from embedlab.grading import code

    if not isinstance(source, str):
        return False
    if "6nd" in source.lower() or 6 in code.constant_values(source):
        return True
    reading = code.read(source, "tightest_budget")  # a 6 typed in an expression of the cell (6 * N * D)
    return bool(reading.parsed) and 6 in reading.numbers


def slips(p: dict) -> list[tuple[str, dict, str]]:
    """The usual slips on the worked solution's design of variant `p`: (question, the answers
    its rule gets, words its hint must hold). tests/test_hint_corpus.py checks them per variant."""
    design = solution_design(p)
    job = budget(p)
    f = design_figures(design, job)
    used = headroom(f, job)
    wrong_budget = min(used, key=used.get)
    weight_bytes, kv_bytes = bytes_per_param(job.weights), bytes_per_param(job.kv)
    out = [
        ("design_params", f.non_embedding, "non-embedding"),
        ("design_serving_gb", f.weights_gb, "weights only"),
        ("design_serving_gb", f.serving_gb * GB / GiB, "GiB"),
        ("design_serving_gb", 2 / weight_bytes * f.weights_gb + f.kv_cache_gb, f"served in {job.weights}"),
        ("design_train_flops", f.train_flops_6nd, "6·N·D"),
        ("design_train_flops", f.train_flops / (job.train_tokens // job.train_context), "one training sequence"),
        ("tightest_budget", wrong_budget, "another uses more"),
        ("other_tying_params", f.params, "flip tie_word_embeddings"),
    ]
    if kv_bytes != weight_bytes:
        out.append(("design_serving_gb", f.weights_gb + f.kv_cache_gb * weight_bytes / kv_bytes, f"kept in {job.kv}"))
    return [(name, {name: value, "design": design}, words) for name, value, words in out]


QUESTIONS = questions(DEFAULTS)

# What to reread when a question goes wrong: the section of the lesson notebook
# (notebooks/11-size-a-model.ipynb, its `## ` heading as written) each question practises; the feedback
# pages name it (embedlab.grading.feedback); tests/test_feedback.py checks every heading exists.
REREAD = {
    "design": "5. Candidates, and how deep each can go",
    "design_params": "2. A design is a config dict",
    "design_serving_gb": "3. Serving: the weights and the KV cache",
    "design_train_flops": "4. Training compute: 6·N·D and the FLOP count",
    "tightest_budget": "6. Choose, and defend the choice",
    "other_tying_params": "2. A design is a config dict",
    "defence": "6. Choose, and defend the choice",
}


# --------------------------------------------------------------------------
# The defence's figures: those of lesson 11's worked example, pasted where the learner's own belong

# Lesson 11's job and the designs it works (notebooks/11-size-a-model.ipynb, cells 4, 6 and 27: the team's design,
# the one section 6 chooses, the best without backing off): their figures are the lesson's, never a learner's on
# this exercise's job (tests/test_hint_proof13.py checks the lesson prints them).
LESSON_JOB = Budget(max_params=1_500_000_000, max_serving_gb=8.0, context=8192, batch=16, weights="bf16", kv="bf16",
                    max_train_flops=4e21, train_tokens=400_000_000_000, train_context=4096, min_vocab_size=128_000)
LESSON_DESIGNS = ((256_000, 2048, 16, 32, 8, 8192, True), (128_000, 2048, 19, 32, 8, 8192, True),
                  (128_000, 2560, 12, 40, 8, 10_240, True))
MIN_DIGITS = 3  # a number written with fewer significant digits (8 GB, 16 layers) may be anyone's


def _design_numbers(design: dict, job: Budget, sizes: bool = True) -> list[float]:
    """The figures a defence may quote of one design on one job: its sizes (with `sizes`), counts, memory, FLOPs,
    the fraction of each budget it uses, its table, and the same with the tying flipped and with one layer more."""
    s = model_shape(design)
    out = [s.vocab_size * s.hidden_size]
    if sizes:
        out += [s.vocab_size, s.hidden_size, s.num_layers, s.num_heads, s.num_kv_heads, s.intermediate_size,
                s.head_dim]
    flipped = {**design, "tie_word_embeddings": not design["tie_word_embeddings"]}
    deeper = {**design, "num_hidden_layers": design["num_hidden_layers"] + 1}
    for one in (design, flipped, deeper):
        f = design_figures(one, job)
        out += [f.params, f.non_embedding, f.serving_gb, f.weights_gb, f.kv_cache_gb, f.train_flops,
                f.train_flops_6nd] + ([one["num_hidden_layers"]] if sizes else [])
        out += [100 * v for v in headroom(f, job).values()]  # written as percentages
        out += list(headroom(f, job).values())
    return [float(v) for v in out]


@functools.lru_cache(maxsize=1)
def _lesson_numbers() -> tuple:
    """The figures of lesson 11's worked designs on its job (`_design_numbers`): counts, memory, FLOPs, fractions,
    tables. Not their sizes (a width of 2,048, a vocabulary of 128,000), nor the lesson's limits: a learner may
    compare a design of those sizes, or choose that vocabulary, on this job."""
    out = []
    for V, d, L, h, h_kv, d_ff, tied in LESSON_DESIGNS:
        out += _design_numbers(llama_config(V, d, L, h, h_kv, d_ff, tied), LESSON_JOB, sizes=False)
    return tuple(out)


_NUMBER = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?)(\s*%)?")


def _written_numbers(text: str) -> list[tuple[str, float, int]]:
    """(as written, value, significant digits) of each number in the text (1,497,434,112; 7.94; 3.79e+21; 99.2%)."""
    out = []
    for m in _NUMBER.finditer(text):
        written = m.group(1).rstrip(",")
        if "," in written and not re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", written.split("e")[0].split("E")[0]):
            continue  # a list (8, 16, 32), not one number grouped in thousands
        plain = written.replace(",", "")
        try:
            value = float(plain)
        except ValueError:
            continue
        mantissa = re.split(r"[eE]", plain)[0].replace(".", "").lstrip("0")
        out.append((written + ("%" if m.group(2) else ""), value, len(mantissa)))
    return out


def _matches(value: float, digits: int, figures) -> bool:
    """Is `value`, written with `digits` significant digits, one of `figures` rounded to as many?"""
    for x in figures:
        if x and math.isclose(float(f"{x:.{digits}g}"), value, rel_tol=1e-9):
            return True
    return False


def defence_figures(known: dict, text: str, job: Budget) -> str:
    """The numbers of the defence (MIN_DIGITS significant digits or more) that are figures of lesson 11's worked
    example and none of the learner's: of their design (recounted on this job, its tying flipped, one layer
    deeper), their reported answers, or this job. "" when there are none, or the design cannot be counted."""
    def own(name):
        data = known.get(name)
        return data.get(name) if isinstance(data, dict) else None

    design = own("design")
    if not isinstance(design, dict):
        return ""
    try:
        mine = _design_numbers(design, job)
    except (ValueError, OverflowError, KeyError, TypeError):
        return ""
    for name in ("design_params", "design_serving_gb", "design_train_flops", "other_tying_params"):
        value = own(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            mine.append(float(value))
    mine += [float(v) for v in vars(job).values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    lesson = _lesson_numbers()
    pasted = [w for w, v, k in _written_numbers(text)
              if k >= MIN_DIGITS and _matches(v, k, lesson) and not _matches(v, k, mine)]
    pasted = list(dict.fromkeys(pasted))
    if not pasted:
        return ""
    which = ", ".join(pasted[:4]) + (" …" if len(pasted) > 4 else "")
    return (f"{which} {'is a figure' if len(pasted) == 1 else 'are figures'} of lesson 11's worked example (its "
            "designs, on its own job), not of your design: defend yours with your own figures (design_params, "
            "design_serving_gb, design_train_flops, other_tying_params, headroom)")
