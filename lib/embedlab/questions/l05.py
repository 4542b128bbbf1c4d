"""Exercise 05 `weight-tying`: the tied gradient, counting shared arrays once, who ties."""

import numpy as np

from embedlab.exercise import Array, Choice, Function, Hint, Integer, offset

LESSON = "05-weight-tying"


def tied_problem():
    """The toy problem of question 2, exactly as the exercise notebook builds it (seed 5)."""
    rng = np.random.default_rng(5)
    V, d = 6, 3
    ids = np.array([4, 1, 4, 0])
    a = rng.normal(size=(len(ids), d))          # last hidden vectors
    dlogits = rng.normal(size=(len(ids), V))    # gradient of the loss w.r.t. the logits a @ E.T
    dx = rng.normal(size=(len(ids), d))         # gradient of the loss w.r.t. the looked-up rows E[ids]
    return V, d, ids, a, dlogits, dx


def _paths():
    V, d, ids, a, dlogits, dx = tied_problem()
    out = dlogits.T @ a
    inp = np.zeros((V, d))
    np.add.at(inp, ids, dx)
    overwritten = np.zeros((V, d))
    overwritten[ids] += dx                      # fancy-index += drops repeated ids
    return out, inp, overwritten


def _close(got, want):
    return got.shape == want.shape and np.allclose(got, want)


def count_unique(params):
    """Reference: parameters of a name -> array dict, each distinct array once."""
    return int(sum(a.size for a in {id(a): a for a in params.values()}.values()))


def _state_dicts(rng):
    """Dicts with tied entries, copies (which are separate arrays) and plain arrays."""
    cases = []
    for i in range(6):
        V, d = int(rng.integers(2, 50)), int(rng.integers(1, 20))
        E = rng.normal(size=(V, d))
        params = {"embed.weight": E, "block.weight": rng.normal(size=(d, d)), "norm.weight": np.ones(d)}
        if i % 3 == 0:
            params["head.weight"] = E                   # tied: the same array
        elif i % 3 == 1:
            params["head.weight"] = E.copy()            # a copy: a second matrix
        params["alias.block"] = params["block.weight"] if i % 2 else rng.normal(size=(d,))
        cases.append((params,))
    return cases


QUESTIONS = [
    Integer("tied_8b", hints=[
        offset(525_336_576, "that is Llama-3-8B as released, untied: take one V × d table away"),
        offset(-525_336_576, "tying removes the head's matrix once, not twice"),
    ]),
    Array("grad_E", rtol=1e-9, atol=1e-12, hints=[
        Hint(lambda got, want: _close(got, _paths()[0]), "that is the output path only: add what flows back through the lookup"),
        Hint(lambda got, want: _close(got, _paths()[1]), "that is the input path only: add the output path dlogits.T @ a"),
        Hint(lambda got, want: _close(got, _paths()[0] + _paths()[2]),
             "token 4 appears twice: `grad[ids] += dx` keeps only one of them, use np.add.at"),
    ]),
    Function("count_unique", reference=count_unique, cases=_state_dicts, result=Integer("count_unique"), points=2),
    Choice("ties", hints=[
        Hint(lambda got, want: got in ("llama-3-8b", "mistral-7b"), "look at tie_word_embeddings in that model's config"),
    ]),
    Integer("state_dict_sum", hints=[
        Hint(lambda got, want: got == 124_439_808, "that is the true count; the question asks what the naive sum over names gives"),
        Hint(lambda got, want: got == 163_009_536, "that figure belongs to a GPT-2 without q/k/v biases (lesson 03)"),
    ]),
]
