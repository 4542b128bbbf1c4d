"""A next-token model small enough to train in about a second, with its gradients written out by hand.

    x0     = [E[t-2], E[t-1]]          the rows of the previous `context` tokens, side by side
    x      = tanh(x0 @ W + b)          one hidden layer of width d: the final hidden state
    logits = x @ U.T                   U is its own V × d matrix (untied) or E itself (tied)
    loss   = cross-entropy(logits, next token)

Lessons 09 and 10 use it to watch what the rows of E learn, and which rows never
learn anything. Everything is float64 and every random draw comes from a seed, so
one seed gives the same numbers on every run. The backward pass is written out by
hand (and checked against finite differences in the tests) so that a reader can
see exactly which rows receive gradient: the input side touches only the rows of
tokens in the batch (np.add.at), the output side touches every row of U.

The output matrix U is stored V × d, one row per token, as nanoGPT stores
lm_head.weight; that is what makes tying literally `U is E`.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np


class TinyLM:
    """Embedding → one tanh layer → logits, untied (own output matrix U) or tied (U is E)."""

    def __init__(self, vocab_size: int, d: int = 16, context: int = 2, tied: bool = False, seed: int = 0, init_std: float = 0.1):
        for name, value in (("vocab_size", vocab_size), ("d", d)):
            if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {name}={value!r}")
        if context not in (1, 2):
            raise ValueError(f"context must be 1 or 2, got context={context!r}")
        if not init_std > 0:
            raise ValueError(f"init_std must be positive, got init_std={init_std!r}")
        self.vocab_size, self.d, self.context, self.tied = int(vocab_size), int(d), int(context), bool(tied)
        rng = np.random.default_rng(seed)
        self.params = {
            "E": rng.normal(0.0, init_std, size=(vocab_size, d)),
            "W": rng.normal(0.0, 1.0 / np.sqrt(context * d), size=(context * d, d)),
            "b": np.zeros(d),
        }
        if not tied:
            self.params["U"] = rng.normal(0.0, init_std, size=(vocab_size, d))

    @property
    def E(self) -> np.ndarray:
        return self.params["E"]

    @property
    def U(self) -> np.ndarray:
        """The output matrix: its own array when untied, the very same array as E when tied."""
        return self.params["E"] if self.tied else self.params["U"]

    def _check(self, contexts, targets=None):
        contexts = np.asarray(contexts)
        if contexts.ndim != 2 or contexts.shape[1] != self.context:
            raise ValueError(f"contexts must have shape (B, {self.context}), got contexts.shape={contexts.shape}")
        if contexts.size and (contexts.min() < 0 or contexts.max() >= self.vocab_size):
            raise ValueError(f"contexts must hold ids from 0 to {self.vocab_size - 1}, got ids from {contexts.min()} to {contexts.max()}")
        if targets is not None:
            targets = np.asarray(targets)
            if targets.shape != (contexts.shape[0],):
                raise ValueError(f"targets must have shape ({contexts.shape[0]},), got targets.shape={targets.shape}")
            if targets.size and (targets.min() < 0 or targets.max() >= self.vocab_size):
                raise ValueError(f"targets must hold ids from 0 to {self.vocab_size - 1}, got ids from {targets.min()} to {targets.max()}")
        return contexts, targets

    def logits(self, contexts) -> np.ndarray:
        """Scores for the next token, shape (B, V)."""
        contexts, _ = self._check(contexts)
        x0 = self.E[contexts].reshape(len(contexts), -1)
        x = np.tanh(x0 @ self.params["W"] + self.params["b"])
        return x @ self.U.T

    def loss(self, contexts, targets) -> float:
        """Mean cross-entropy of the next token (natural log).

        The forward half of loss_and_grads, the same operations in the same order
        (so the same float), without the backward pass.
        """
        contexts, targets = self._check(contexts, targets)
        B = len(targets)
        x0 = self.params["E"][contexts].reshape(B, -1)
        x = np.tanh(x0 @ self.params["W"] + self.params["b"])
        logits = x @ self.U.T
        shifted = logits - logits.max(axis=1, keepdims=True)
        log_z = np.log(np.exp(shifted).sum(axis=1))
        return float(np.mean(log_z - shifted[np.arange(B), targets]))

    def loss_and_grads(self, contexts, targets) -> tuple[float, dict]:
        """The loss and the gradient of every parameter, by hand.

        Untied, E gets gradient only through the lookup: a row whose token is in no
        context of the batch gets exactly 0. Tied, E also gets the output gradient
        dlogitsᵀ @ x, which is non-zero for every row: the softmax pushes down the
        logit of every token that is not the target.
        """
        contexts, targets = self._check(contexts, targets)
        return self._loss_and_grads(contexts, targets)

    def _loss_and_grads(self, contexts: np.ndarray, targets: np.ndarray) -> tuple[float, dict]:
        """loss_and_grads on arrays already checked (train checks its pairs once, not every step)."""
        E, W, b = self.params["E"], self.params["W"], self.params["b"]
        U = self.U
        B = len(targets)
        rows = np.arange(B)

        # forward
        x0 = E[contexts].reshape(B, -1)
        x = np.tanh(x0 @ W + b)
        logits = x @ U.T
        shifted = logits - logits.max(axis=1, keepdims=True)
        log_z = np.log(np.exp(shifted).sum(axis=1))
        loss = float(np.mean(log_z - shifted[rows, targets]))

        # backward
        dlogits = np.exp(shifted - log_z[:, None])  # softmax probabilities
        dlogits[rows, targets] -= 1.0
        dlogits /= B
        dU = dlogits.T @ x  # (V, d): every row, seen or not
        dx = dlogits @ U
        da = dx * (1.0 - x * x)  # tanh' = 1 - tanh²
        grads = {"W": x0.T @ da, "b": da.sum(axis=0)}
        dx0 = da @ W.T  # (B, context * d): the rows of the batch's context tokens, side by side
        # Only rows in the batch get gradient; repeated ids add up. This is np.add.at(dE, contexts,
        # dx0 as (B, context, d)) in one bincount: each entry (row, column) starts at 0 and adds its
        # contributions in the order they come in the batch, as add.at does, so the same float.
        flat = (contexts * self.d)[:, :, None] + np.arange(self.d)
        dE = np.bincount(flat.ravel(), weights=dx0.ravel(), minlength=E.size).reshape(E.shape)
        if self.tied:
            dE += dU  # one array, two jobs: the two gradients add
        else:
            grads["U"] = dU
        grads["E"] = dE
        return loss, grads

    def copy_params(self) -> dict:
        return {k: v.copy() for k, v in self.params.items()}


# --------------------------------------------------------------------------
# Optimizers. Both update the arrays in place. Weight decay applies to the
# matrices only (E, W, U), not to the bias, as nanoGPT's configure_optimizers does.


class SGD:
    """p ← p − lr · (g + weight_decay · p): a row with zero gradient stays put (or shrinks, with decay)."""

    def __init__(self, lr: float = 0.1, weight_decay: float = 0.0):
        if not lr > 0:
            raise ValueError(f"lr must be positive, got lr={lr!r}")
        if not weight_decay >= 0:
            raise ValueError(f"weight_decay must be >= 0, got weight_decay={weight_decay!r}")
        self.lr, self.weight_decay = float(lr), float(weight_decay)

    def step(self, params: dict, grads: dict) -> None:
        for name, p in params.items():
            g = grads[name]
            if self.weight_decay and p.ndim >= 2:
                g = g + self.weight_decay * p
            p -= self.lr * g


class Adam:
    """Adam with decoupled weight decay (AdamW when weight_decay > 0).

    Each coordinate moves by about lr per step whatever the size of its gradient
    (m̂/√v̂ ≈ ±1): a row that gets one gradient, once, still takes a full-size step,
    and keeps moving for a while on its momentum. A row whose gradient has always
    been exactly 0 has m = v = 0 and its update 0/(0 + eps) is exactly 0.
    """

    def __init__(self, lr: float = 1e-2, betas: tuple = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0.0):
        if not lr > 0:
            raise ValueError(f"lr must be positive, got lr={lr!r}")
        if not (0 <= betas[0] < 1 and 0 <= betas[1] < 1):
            raise ValueError(f"betas must lie in [0, 1), got betas={betas!r}")
        if not weight_decay >= 0:
            raise ValueError(f"weight_decay must be >= 0, got weight_decay={weight_decay!r}")
        self.lr, self.betas, self.eps, self.weight_decay = float(lr), tuple(betas), float(eps), float(weight_decay)
        self.t = 0
        self.m: dict = {}
        self.v: dict = {}
        self._layout = None  # the parameters' names and shapes, once the flat moments are laid out

    def step(self, params: dict, grads: dict) -> None:
        self.t += 1
        b1, b2 = self.betas
        layout = [(name, p.shape) for name, p in params.items()]
        # the flat path only for float64 arrays throughout (TinyLM's): other types take the loop below,
        # whose arithmetic their types set
        flat = all(getattr(p, "dtype", None) == getattr(grads[name], "dtype", None) == np.float64
                   for name, p in params.items())
        if flat and self._layout is None and not self.m:
            # every moment lives in one flat buffer (self.m[name] is a view of it), so that a step
            # is a few operations on one array instead of a few per parameter
            self._layout = layout
            size = sum(p.size for p in params.values())
            self._m, self._v = np.zeros(size), np.zeros(size)
            at = 0
            for name, p in params.items():
                self.m[name] = self._m[at:at + p.size].reshape(p.shape)
                self.v[name] = self._v[at:at + p.size].reshape(p.shape)
                at += p.size
        if flat and layout == self._layout:
            # the same operations, element by element, as the loop below, on all parameters at once
            g = np.concatenate([grads[name].ravel() for name in params])
            m, v = self._m, self._v
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            update = m / (1 - b1**self.t)
            update *= self.lr  # lr * m_hat: multiplication commutes exactly
            v_hat = v / (1 - b2**self.t)
            update /= np.sqrt(v_hat, out=v_hat) + self.eps
            at = 0
            for name, p in params.items():
                if self.weight_decay and p.ndim >= 2:
                    p *= 1 - self.lr * self.weight_decay
                p -= update[at:at + p.size].reshape(p.shape)
                at += p.size
            return
        for name, p in params.items():
            g = grads[name]
            if name not in self.m:
                self.m[name] = np.zeros_like(p)
                self.v[name] = np.zeros_like(p)
            m, v = self.m[name], self.v[name]
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            m_hat = m / (1 - b1**self.t)
            v_hat = v / (1 - b2**self.t)
            if self.weight_decay and p.ndim >= 2:
                p *= 1 - self.lr * self.weight_decay
            p -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


def make_optimizer(name: str, lr: float, weight_decay: float = 0.0):
    if name == "adam":
        return Adam(lr=lr, weight_decay=weight_decay)
    if name == "sgd":
        return SGD(lr=lr, weight_decay=weight_decay)
    raise ValueError(f"optimizer must be 'adam' or 'sgd', got optimizer={name!r}")


# --------------------------------------------------------------------------
# Training


@dataclass
class TrainRun:
    """What one training run leaves behind: the model, its starting parameters, the loss per step."""

    model: TinyLM
    initial: dict
    losses: np.ndarray

    def moved(self, name: str = "E") -> np.ndarray:
        """How far each row travelled from its initial value (L2 norm of the difference)."""
        return np.linalg.norm(self.model.params[name] - self.initial[name], axis=1)


def train(model: TinyLM, contexts, targets, *, steps: int = 2000, batch_size: int = 256, optimizer="adam",
          lr: float = 1e-2, weight_decay: float = 0.0, seed: int = 0, on_step=None) -> TrainRun:
    """Train `model` in place on random mini-batches of (context, target) pairs.

    `optimizer` is 'adam', 'sgd' or an optimizer object. `on_step(step, model, grads)`
    is called after the gradients of each step are computed and before the update,
    so a lesson can watch, for example, the gradient of a row that never occurs.
    """
    contexts, targets = model._check(contexts, targets)
    if not isinstance(steps, (int, np.integer)) or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got steps={steps!r}")
    if not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer, got batch_size={batch_size!r}")
    opt = make_optimizer(optimizer, lr, weight_decay) if isinstance(optimizer, str) else optimizer
    initial = model.copy_params()
    rng = np.random.default_rng(seed)
    losses = np.empty(steps)
    for step in range(steps):
        batch = rng.integers(0, len(targets), size=batch_size)
        loss, grads = model._loss_and_grads(contexts[batch], targets[batch])  # pairs checked above
        if on_step is not None:
            on_step(step, model, grads)
        opt.step(model.params, grads)
        losses[step] = loss
    return TrainRun(model=model, initial=initial, losses=losses)


# --------------------------------------------------------------------------
# Shipped runs: the results of the training runs lessons 09 and 10 make, so that the
# lessons stay within a few seconds. A run is looked up by its training pairs and every
# setting; any other run (and any run with an on_step hook) trains for real.
# tests/test_tinylm.py retrains every shipped run and checks that it is the same to the bit;
# tools/ship_tinylm_runs.py writes the file.

SHIPPED_RUNS = Path(__file__).parent / "data" / "shipped" / "tinylm-runs.json"
use_shipped_runs = True  # False: always train (the test and the tool switch it off)

# With remember_runs, runs trained in this process are remembered by the same key: a run asked for
# again (class mode's tests train a variant's run for the question module, then again in the
# solution notebook) is given a copy of the arrays its first training left, which is what a second
# training computes to the bit (float64, every draw from the seed; tests/test_tinylm.py compares a
# remembered run with a fresh one). Off by default: a lesson that times a run and is run again
# must train again. Runs with an on_step hook always train.
remember_runs = False
REMEMBERED_RUNS = 64  # the most recent runs kept (each a few tens of kB)
_remembered: dict = {}  # run_key -> (final params, losses), oldest first


def run_key(contexts, targets, vocab_size: int, settings: dict) -> str:
    """One string naming a run: a digest of its training pairs, the vocabulary size, every setting."""
    pairs = np.ascontiguousarray(contexts, dtype=np.int64).tobytes() + np.ascontiguousarray(targets, dtype=np.int64).tobytes()
    digest = hashlib.sha256(pairs).hexdigest()[:16]
    return f"{digest} V={vocab_size} " + " ".join(f"{k}={settings[k]!r}" for k in sorted(settings))


def encode_array(a: np.ndarray) -> dict:
    a = np.ascontiguousarray(a, dtype=np.float64)
    return {"shape": list(a.shape), "float64": base64.b64encode(a.tobytes()).decode("ascii")}


def decode_array(entry: dict) -> np.ndarray:
    return np.frombuffer(base64.b64decode(entry["float64"]), dtype=np.float64).reshape(entry["shape"]).copy()


@functools.lru_cache(maxsize=1)
def _shipped() -> dict:
    if not SHIPPED_RUNS.exists():
        return {}
    return {run["key"]: run for run in json.loads(SHIPPED_RUNS.read_text(encoding="utf-8"))["runs"]}


def train_tinylm(corpus, *, d: int = 16, context: int = 2, tied: bool = False, optimizer: str = "adam",
                 lr: float = 1e-2, weight_decay: float = 0.0, steps: int = 2000, batch_size: int = 256,
                 seed: int = 0, init_std: float = 0.1, on_step=None) -> TrainRun:
    """Build a TinyLM for `corpus` and train it; one seed decides the initial rows and the batches.

    A run the lessons make is shipped with the package (``SHIPPED_RUNS``): with no
    ``on_step`` hook, it is read instead of recomputed, which gives the same arrays
    (the tests retrain each one and compare them bit for bit). Any other run trains
    (with ``remember_runs``, once per process: asked for again, it is a copy of what
    that training left).
    """
    model = TinyLM(corpus.vocab_size, d=d, context=context, tied=tied, seed=seed, init_std=init_std)
    contexts, targets = corpus.training_pairs(context)
    key = None
    if on_step is None and (use_shipped_runs or remember_runs):
        settings = dict(d=d, context=context, tied=tied, optimizer=optimizer, lr=lr, weight_decay=weight_decay,
                        steps=steps, batch_size=batch_size, seed=seed, init_std=init_std)
        key = run_key(contexts, targets, corpus.vocab_size, settings)
        shipped = _shipped().get(key) if use_shipped_runs else None
        if shipped is not None:
            initial = model.copy_params()
            for name, entry in shipped["params"].items():
                model.params[name][...] = decode_array(entry)
            return TrainRun(model=model, initial=initial, losses=decode_array(shipped["losses"]))
        if remember_runs and key in _remembered:
            params, losses = _remembered[key]
            initial = model.copy_params()
            for name, value in params.items():
                model.params[name][...] = value
            return TrainRun(model=model, initial=initial, losses=losses.copy())
    run = train(model, contexts, targets, steps=steps, batch_size=batch_size, optimizer=optimizer,
                lr=lr, weight_decay=weight_decay, seed=seed + 1, on_step=on_step)
    if key is not None and remember_runs:
        _remembered[key] = (run.model.copy_params(), run.losses.copy())
        while len(_remembered) > REMEMBERED_RUNS:
            del _remembered[next(iter(_remembered))]
    return run


train_tinylm.costly = 'trains a model'  # embedlab.grading.elsewhere: a cell that calls it gets no second look
