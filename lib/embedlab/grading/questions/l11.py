"""Exercise 11 `size-a-model`: design a model for a phone assistant, within three budgets.

The learner chooses the design, so there is no single expected value. Each
question is a `Design`: its rule recomputes the learner's own figures with
embedlab's calculators (in the grader's process, from plain data) and checks
the design against the job's budgets and the reported figures against the design.
"""

import math
import numbers

from embedlab.grading.kinds import Design
from embedlab.memory import GB, GiB
from embedlab.params import estimate_params, model_shape
from embedlab.sizing import Budget, design_figures, headroom, over_budget

LESSON = "11-size-a-model"

# The job of the exercise (the lesson works a different one): a Hindi-English
# assistant served on a phone, one conversation at a time.
BUDGET = Budget(
    max_params=600_000_000,
    max_serving_gb=0.5,  # weights + KV cache
    context=8192,
    batch=1,
    weights="int4",  # 4-bit weights; the cache stays bf16
    kv="bf16",
    max_train_flops=2e21,
    train_tokens=600_000_000_000,
    train_context=2048,
    min_vocab_size=32_000,  # Devanagari and Latin text, each with its common words as tokens
)
BUDGET_NAMES = ("parameters", "memory", "compute")


def _figures(answers):
    """(figures, None) for the learner's design, or (None, the problem) when it cannot be counted."""
    design = answers.get("design")
    if not isinstance(design, dict):
        return None, "`design` must be a config dict (use llama_config(...))"
    try:
        return design_figures(design, BUDGET), None
    except (ValueError, OverflowError) as exc:
        return None, f"fix `design` first: {exc}"[:250]


def _number(value, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        return f"`{name}` must be a number"
    return None


def _figures_for_number(answers, name):
    """As `_figures`, but first the reported figure `name` must be a number."""
    problem = _number(answers[name], name)
    return (None, problem) if problem else _figures(answers)


def _close(got, want, rtol=1e-6):
    return math.isclose(got, want, rel_tol=rtol)


def design_rule(answers):
    """The design does the job: a model the calculators can count, within every budget."""
    design = answers["design"]
    if not isinstance(design, dict):
        return ["`design` must be a config dict (use llama_config(...))"]
    return over_budget(design, BUDGET)


def params_rule(answers):
    got = answers["design_params"]
    f, problem = _figures(answers)
    if problem:
        return [problem]
    if isinstance(got, bool) or not isinstance(got, int):
        return ["`design_params` must be an int"]
    if got == f.params:
        return []
    s = model_shape(answers["design"])
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
    return ["not the parameter count of your design: count it with count_params"]


def _non_embedding_problem(got, f, s, table):
    """The hint for a count that leaves the vocabulary matrices out (Kaplan's non-embedding N)."""
    if got == f.non_embedding:
        return ("that is the non-embedding count (Kaplan's N): the budget counts every parameter, the table included"
                + (" (tied: E once)" if s.tied else ""))
    if s.tied and got == f.non_embedding - table:
        return ("a tied design has no separate head to take away: non_embedding = total - E, and the budget "
                "counts every parameter anyway")
    return None


def serving_rule(answers):
    got = answers["design_serving_gb"]
    f, problem = _figures_for_number(answers, "design_serving_gb")
    if problem:
        return [problem]
    if _close(got, f.serving_gb):
        return []
    if _close(got, f.weights_gb):
        return ["that is the weights only: the KV cache of the conversation comes on top"]
    if _close(got, f.serving_gb * GB / GiB):
        return ["that is GiB (2**30 bytes): give GB (10**9 bytes)"]
    if _close(got, f.serving_gb * GB):
        return ["give it in GB: divide the bytes by 10**9"]
    if _close(got, 4 * f.weights_gb + f.kv_cache_gb):
        return ["the weights are served in 4 bits (int4, half a byte each), not bf16"]
    if _close(got, f.weights_gb + f.kv_cache_gb / 4):
        return ["the KV cache stays in bf16 (2 bytes) when the weights are quantized"]
    return ["not the serving memory of your design at the job's context, batch and precisions"]


def train_flops_rule(answers):
    got = answers["design_train_flops"]
    f, problem = _figures_for_number(answers, "design_train_flops")
    if problem:
        return [problem]
    if _close(got, f.train_flops):
        return []
    sequences = BUDGET.train_tokens // BUDGET.train_context
    if _close(got, f.train_flops_6nd):
        return ["that is the rule of thumb 6·N·D: the budget counts with training_flops (attention in, lookup free)"]
    if _close(got, f.train_flops / sequences):
        return ["that is one training sequence: multiply by the number of sequences, D / T_train"]
    if _close(got, f.train_flops / 3):
        return ["that is a forward pass: training costs about three (forward and backward)"]
    return ["not the training FLOPs of your design for the job's D and training context"]


def tightest_rule(answers):
    got = answers["tightest_budget"]
    if not isinstance(got, str) or got.strip().lower() not in BUDGET_NAMES:
        return [f"answer one of {', '.join(repr(n) for n in BUDGET_NAMES)}"]
    f, problem = _figures(answers)
    if problem:
        return [problem]
    used = headroom(f, BUDGET)
    want = max(used, key=used.get)
    if got.strip().lower() == want:
        return []
    return [f"your design uses {used[got.strip().lower()]:.0%} of the {got.strip().lower()} budget; another uses more"]


def other_tying_rule(answers):
    got = answers["other_tying_params"]
    f, problem = _figures(answers)
    if problem:
        return [problem]
    if isinstance(got, bool) or not isinstance(got, int):
        return ["`other_tying_params` must be an int"]
    s = model_shape(answers["design"])
    table = s.vocab_size * s.hidden_size
    want = f.params + table if s.tied else f.params - table  # untying adds a head, tying drops it
    if got == want:
        return []
    if got == f.params:
        return ["that is your design as it is: flip tie_word_embeddings and count again"]
    return [_non_embedding_problem(got, f, s, table)
            or "not the count of your design with the tying flipped (same sizes, the other choice of head)"]


QUESTIONS = [
    Design("design", points=3, rule=design_rule),
    Design("design_params", rule=params_rule, uses=("design",)),
    Design("design_serving_gb", rule=serving_rule, uses=("design",)),
    Design("design_train_flops", rule=train_flops_rule, uses=("design",)),
    Design("tightest_budget", rule=tightest_rule, uses=("design",)),
    Design("other_tying_params", rule=other_tying_rule, uses=("design",)),
]
