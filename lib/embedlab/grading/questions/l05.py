"""Exercise 05 `weight-tying`: the tied gradient, counting shared arrays once, who ties."""

import numpy as np

from embedlab.grading.kinds import Array, Choice, Function, Hint, Integer, offset

LESSON = "05-weight-tying"


def tied_problem():
    """The toy problem of question 2, exactly as the exercise notebook builds it (seed 5)."""
    rng = np.random.default_rng(5)
    V, d = 6, 3
    ids = np.array([4, 1, 4, 0])
    x = rng.normal(size=(len(ids), d))          # last hidden vectors
    dlogits = rng.normal(size=(len(ids), V))    # gradient of the loss w.r.t. the logits x @ E.T
    dx0 = rng.normal(size=(len(ids), d))        # gradient of the loss w.r.t. the looked-up rows x0 = E[ids]
    return V, d, ids, x, dlogits, dx0


def _paths():
    V, d, ids, x, dlogits, dx0 = tied_problem()
    out = dlogits.T @ x
    inp = np.zeros((V, d))
    np.add.at(inp, ids, dx0)
    overwritten = np.zeros((V, d))
    overwritten[ids] += dx0                     # fancy-index += drops repeated ids
    return out, inp, overwritten


def _letters(name: str) -> str:
    """A model name without case, spaces, dots or dashes: "Llama 3.2 1B" -> "llama321b"."""
    return "".join(ch for ch in str(name).lower() if ch.isalnum())


def _close(got, want):
    return got.shape == want.shape and np.allclose(got, want)


def count_unique(storage, sizes):
    """Reference: entry i points at storage[i] and has sizes[i] parameters; count each storage once."""
    storage, sizes = np.asarray(storage), np.asarray(sizes)
    _, first = np.unique(storage, return_index=True)
    return int(sizes[first].sum())


def _state_dicts(rng):
    """State dicts as (storage id per entry, size per entry): tied entries share a storage id."""
    cases = [(np.array([0, 1, 0]), np.array([40, 16, 40])),            # embed, block, head tied to embed
             (np.array([0, 1, 2]), np.array([40, 16, 40]))]            # head copied: its own storage
    for _ in range(5):
        n = int(rng.integers(1, 12))
        storage = rng.integers(0, max(1, n - 2), size=n)               # some entries share storage
        sizes_of = rng.integers(1, 10_000, size=int(storage.max()) + 1)
        cases.append((storage, sizes_of[storage]))
    return cases


QUESTIONS = [
    Integer("tied_8b", hints=[
        offset(525_336_576, "that is Llama-3-8B as released, untied: take one V × d table away"),
        offset(-525_336_576, "tying removes the head's matrix once, not twice"),
    ]),
    Array("grad_E", hints=[
        Hint(lambda got, want: _close(got, _paths()[0]), "that is the output path only: add what flows back through the lookup"),
        Hint(lambda got, want: _close(got, _paths()[1]), "that is the input path only: add the output path dlogits.T @ x"),
        Hint(lambda got, want: _close(got, _paths()[0] + _paths()[2]),
             "token 4 appears twice: `grad[ids] += dx0` keeps only one of them, use np.add.at"),
    ]),
    Function("count_unique", reference=count_unique, cases=_state_dicts, result=Integer("count_unique", hints=[
        Hint(lambda got, want, storage, sizes: got == int(np.sum(sizes)),
             "that is sum(sizes), every entry: entries that share a storage are one tensor; count each storage once",
             args=True),
        Hint(lambda got, want, storage, sizes: got == int(np.sum(np.unique(sizes))),
             "that counts each distinct size once; count each distinct storage once (two tensors can have one size)",
             args=True),
    ]), points=2),
    Choice("ties", hints=[
        Hint(lambda got, want: got in ("llama-3-8b", "mistral-7b"), "look at tie_word_embeddings in that model's config"),
        Hint(lambda got, want: _letters(got) == _letters(want),
             "the right model, spelled differently: give its name exactly as the question writes it"),
        Hint(lambda got, want: got not in ("llama-3-8b", "mistral-7b", "llama-3.2-1b"),
             "answer with one of the three names the question gives, spelled as it spells them"),
    ]),
    Integer("state_dict_sum", hints=[
        Hint(lambda got, want: got == 124_439_808, "that is the true count; the question asks what the naive sum over names gives"),
        Hint(lambda got, want: got == 163_009_536, "that figure belongs to a GPT-2 without q/k/v biases and with an untied head (lesson 03); start from this model's own count"),
    ]),
]
