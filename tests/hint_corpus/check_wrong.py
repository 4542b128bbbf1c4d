"""Prove every entry of the hint corpus wrong, for the exercise as handed out (the book's parameters).

    cd tests && ../.venv/bin/python -m hint_corpus.check_wrong [learners|heldout|heldout2|heldout3] [-k LESSON_OR_NAME]

For each entry: run the solution notebook's code cells above the answer cell of `name`
(check and summary cells left out), then the exercise's own lines of that answer cell (those
above `# YOUR CODE HERE`; none for a function), then the entry's `source`; compare the value of
`name` with the one the solution's answer cell computes in the same namespace. A value answer
is wrong when it differs (ints exactly, floats by more than 1 part in 10⁵ so that it is wrong
under any of the checks' tolerances, arrays in shape or any value, words in any case); a function
is wrong when it gives a different result (or raises) on at least one of the inputs below, which
include the released sizes the questions name; a capstone design is wrong when it breaks the
job (over_budget, the head width, the vocabulary). Prints one line per entry; exits 1 if any
entry is correct, raises, or does not define `name`.

This reads only the notebooks and the public library, never lib/embedlab/grading/.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import io
import importlib
import sys
import traceback
import types
import weakref
from collections import Counter
from pathlib import Path

import nbformat
import numpy as np

from embedlab.corpus import Corpus

ROOT = Path(__file__).resolve().parents[2]  # run as a module from tests/ (above), so hint_corpus imports


def _check_name(cell_source: str):
    src = cell_source.strip()
    if src.startswith("ex.check(") and src.endswith(")"):
        return src[len("ex.check("):-1].strip("\"'")
    return None


@functools.lru_cache(maxsize=None)
def _code_cells(folder: str, lesson: str) -> tuple:
    """The sources of a notebook's code cells (read once: every entry of a lesson asks again)."""
    nb = nbformat.read(ROOT / folder / f"{lesson}.ipynb", as_version=4)
    return tuple(c.source for c in nb.cells if c.cell_type == "code")


def _answer_positions(cells):
    """name -> index (in the code cells) of its answer cell: the cell before its check cell."""
    out = {}
    for i, src in enumerate(cells):
        name = _check_name(src)
        if name:
            out[name] = i - 1
    return out


_BASE = {}


def base_namespace(lesson: str, name: str) -> dict:
    """The solution's code cells above the answer cell of `name`: the lesson's cells run once, in
    order, and the namespace kept (a deep copy) at each answer cell, so a lesson's model is trained
    or loaded once for all its questions."""
    key = (lesson, name)
    if key not in _BASE:
        cells = _code_cells("solutions", lesson)
        positions = _answer_positions(cells)
        ns, done = {"__name__": "__corpus__"}, 0
        for question, stop in sorted(positions.items(), key=lambda kv: kv[1]):
            for src in cells[done:stop]:
                if "ex.check(" in src or "ex.summary(" in src:
                    continue
                exec(compile(src, f"<{lesson} solution>", "exec"), ns)  # noqa: S102 - our own notebook
            done = stop
            _BASE[(lesson, question)] = snapshot(ns)
    return _BASE[key]


def snapshot(ns: dict) -> dict:
    """A copy of a namespace that later cells cannot change: every value deep-copied that can be
    (modules, functions and classes are shared)."""
    out = {}
    for k, v in ns.items():
        if not (isinstance(v, type) or callable(v) or type(v).__name__ == "module"):
            try:
                v = deep_copy(v)
            except Exception:  # noqa: BLE001 - shared as it is
                pass
        out[k] = v
    return out


def fresh(ns: dict) -> dict:
    """A copy an entry may change freely: arrays, containers and the lesson's own objects (a trained
    run, a corpus) deep-copied; modules, functions and other objects shared."""
    out = {}
    for k, v in ns.items():
        if isinstance(v, (np.ndarray, list, dict, set)) or (
                type(v).__module__.startswith("embedlab") and not isinstance(v, type) and not callable(v)):
            try:
                v = deep_copy(v)
            except Exception:  # noqa: BLE001
                pass
        out[k] = v
    return out


# What copy.deepcopy returns as it is (its atomic types): a container holding only these needs no walk.
_ATOMS = frozenset({type(None), int, float, bool, complex, bytes, str, type, range, type(Ellipsis),
                    type(NotImplemented), types.BuiltinFunctionType, types.FunctionType, types.CodeType,
                    property, weakref.ref})


def deep_copy(v, memo=None):
    """copy.deepcopy(v), the same copy, without calling deepcopy for each of the many atoms of a big
    dict or list (a word-frequency table, the builtins) nor walking a corpus's sentences, tuples of
    ints that deepcopy returns as they are (only its groups dict is copied): every entry of lessons
    09, 10 and 12 copies them."""
    memo = {} if memo is None else memo
    if id(v) in memo:
        return memo[id(v)]
    if type(v) is dict:
        out = memo[id(v)] = {}
        for key, value in v.items():
            out[key if type(key) in _ATOMS else copy.deepcopy(key, memo)] = (
                value if type(value) in _ATOMS else copy.deepcopy(value, memo))
        return out
    if type(v) is list:
        out = memo[id(v)] = []
        out.extend(x if type(x) in _ATOMS else copy.deepcopy(x, memo) for x in v)
        return out
    if (type(v) is Corpus and type(v.vocab) is tuple and all(type(w) in _ATOMS for w in v.vocab)
            and type(v.sentences) is tuple
            and all(type(s) is tuple and all(type(i) in _ATOMS for i in s) for s in v.sentences)):
        out = memo[id(v)] = dataclasses.replace(v, groups=copy.deepcopy(v.groups, memo))
        return out
    return copy.deepcopy(v, memo)


def exercise_prelude(lesson: str, name: str) -> str:
    """The exercise's own lines of the answer cell of `name`, above `# YOUR CODE HERE` ('' for a def)."""
    cells = _code_cells("exercises", lesson)
    src = cells[_answer_positions(cells)[name]]
    head = src.split("# YOUR CODE HERE")[0]
    return "" if head.lstrip().startswith("def ") else head


def solution_value(lesson: str, name: str):
    cells = _code_cells("solutions", lesson)
    ns = fresh(base_namespace(lesson, name))
    exec(compile(cells[_answer_positions(cells)[name]], f"<{lesson} answer>", "exec"), ns)  # noqa: S102
    return ns[name], ns


_PRELUDED = {}


def preluded(lesson: str, name: str) -> dict:
    """The base namespace of `name` with the exercise's own lines of its answer cell run (they may
    train or load the lesson's model): once per question, copied for each entry."""
    key = (lesson, name)
    if key not in _PRELUDED:
        ns = fresh(base_namespace(lesson, name))
        prelude = exercise_prelude(lesson, name)
        if prelude.strip():
            exec(compile(prelude, f"<{lesson} prelude>", "exec"), ns)  # noqa: S102
        _PRELUDED[key] = ns
    return _PRELUDED[key]


def run_entry(entry):
    """The value the entry's source leaves in `name` (and the namespace)."""
    ns = fresh(preluded(entry.lesson, entry.name))
    exec(compile(entry.source, f"<{entry.lesson} {entry.name} entry>", "exec"), ns)  # noqa: S102
    if entry.name not in ns:
        raise NameError(f"the source does not define {entry.name}")
    return ns[entry.name], ns


# --------------------------------------------------------------------------- function inputs

def _rng(seed):
    return np.random.default_rng(seed)


def _inputs(name):
    r = _rng(12345)
    if name == "cosine":
        cases = [(np.array([1.0, 0.0]), np.array([0.0, 1.0])),
                 (np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])),
                 (np.array([1.0, -2.0, 0.5]), np.array([-3.0, 1.0, 2.0]))]
        for n in (3, 5, 8):
            cases.append((r.normal(size=n), r.normal(size=n)))
        return cases
    if name == "one_hot":
        cases = [(np.array([3, 0, 3, 1]), 5), (np.array([0, 1, 2]), 3)]
        for _ in range(3):
            V = int(r.integers(4, 12))
            cases.append((r.integers(0, V, size=int(r.integers(2, 9))), V))
        return cases
    if name == "embedding_backward":
        cases = [(np.array([2, 0, 2]), np.arange(6.0).reshape(3, 2) + 1, 4)]
        for _ in range(3):
            V, d, n = int(r.integers(5, 10)), int(r.integers(2, 5)), int(r.integers(4, 9))
            ids = r.integers(0, V, size=n)
            ids[-1] = ids[0]
            cases.append((ids, r.normal(size=(n, d)), V))
        return cases
    if name == "gpt2_params":
        return [(50257, 768, 12, 1024), (50257, 1024, 24, 1024), (50257, 1600, 48, 1024),
                (1000, 64, 3, 128), (777, 96, 5, 300)]
    if name == "llama_params":
        return [(128256, 4096, 32, 32, 8, 14336, False), (128256, 2048, 16, 32, 8, 8192, True),
                (1000, 256, 3, 8, 2, 700, False), (5003, 384, 4, 6, 6, 1000, True), (999, 128, 2, 4, 1, 333, True)]
    if name == "count_unique":
        cases = [(np.array([0, 1, 0]), np.array([40, 16, 40])), (np.array([3, 1, 2]), np.array([5, 6, 7]))]
        for _ in range(3):
            n = int(r.integers(4, 9))
            storage = r.integers(0, n // 2 + 1, size=n)
            by_storage = {int(s): int(r.integers(1, 1000)) for s in storage}
            cases.append((storage, np.array([by_storage[int(s)] for s in storage])))
        return cases
    if name == "forward_flops_per_token":
        return [(50257, 768, 12, 3072, 1024), (50257, 1600, 48, 6400, 1024), (50257, 768, 12, 3072, 1),
                (1000, 64, 3, 200, 17), (32000, 512, 6, 1500, 333)]
    if name == "kv_cache_gb":
        return [(32, 8, 128, 2, 8192, 1), (28, 4, 128, 2, 32768, 8), (16, 8, 64, 1, 1000, 3),
                (40, 40, 128, 4, 2048, 2), (24, 2, 64, 0.5, 4096, 16)]
    if name == "tokens_per_word":
        cases = [(np.array([10, 5, 1]), np.array([1, 2, 4])), ([3, 1], [1, 3]), ([7, 2, 2, 9], [2, 1, 3, 1])]
        for _ in range(2):
            n = int(r.integers(3, 9))
            cases.append((r.integers(1, 100, size=n), r.integers(1, 6, size=n)))
        return cases
    if name == "embedding_grad":
        cases = [(np.array([[1, 1], [0, 3]]), np.arange(12.0).reshape(2, 2, 3), 5)]
        for _ in range(3):
            V, B, d = int(r.integers(5, 9)), int(r.integers(3, 7)), int(r.integers(2, 5))
            ctx = r.integers(0, V, size=(B, 2))
            ctx[0, 1] = ctx[0, 0]
            cases.append((ctx, r.normal(size=(B, 2, d)), V))
        return cases
    if name == "unused_score":
        cases = [(np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0], [-1.0, 3.0]]), [0, 1])]
        for _ in range(3):
            V, d = int(r.integers(6, 12)), int(r.integers(2, 6))
            M = r.normal(size=(V, d)) + r.normal(size=d)
            cases.append((M, list(r.choice(V, size=3, replace=False))))
        return cases
    if name == "bpe_merges":
        cases = [({"abab": 1}, 2), ({"zy": 3, "ab": 3}, 1), ({"zy": 10, "ab": 1, "abc": 1}, 1),
                 ({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 6), ({"aaaa": 2, "aa": 1}, 3)]
        letters = list("abcde")
        for _ in range(2):
            words = {"".join(r.choice(letters, size=int(r.integers(2, 7)))): int(r.integers(1, 9))
                     for _ in range(int(r.integers(3, 7)))}
            cases.append((words, int(r.integers(1, 5))))
        return cases
    if name == "tinylm_grads":
        cases = []
        for V, d, C, B in ((6, 3, 2, 4), (9, 4, 3, 7), (5, 2, 1, 5)):
            contexts = r.integers(0, V, size=(B, C))
            contexts[-1, 0] = contexts[0, 0]                 # an id used twice in the batch
            cases.append((r.normal(size=(V, d)), r.normal(size=(C * d, d)), r.normal(size=d),
                          r.normal(size=(V, d)), contexts, r.integers(0, V, size=B)))
        return cases
    raise KeyError(name)


def _same(a, b, rel=1e-5):
    if isinstance(b, tuple):
        return isinstance(a, (tuple, list)) and len(a) == len(b) and all(_same(x, y, rel) for x, y in zip(a, b))
    if isinstance(b, (str,)):
        return isinstance(a, str) and a.strip().lower() == b.strip().lower()
    if isinstance(b, (np.ndarray, list)) or isinstance(a, np.ndarray):
        try:
            a_, b_ = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        except (TypeError, ValueError):
            return False
        return a_.shape == b_.shape and np.allclose(a_, b_, rtol=rel, atol=1e-12)
    if isinstance(a, (bool, str)) or a is None:
        return a == b
    try:
        a_, b_ = float(a), float(b)
    except (TypeError, ValueError):
        return False
    if isinstance(b, (int, np.integer)) and not isinstance(b, bool):
        return a_ == b_
    return abs(a_ - b_) <= rel * abs(b_) + 1e-300


def _design_fault(design, ns):
    """Why a capstone design does not do the job ('' when it does)."""
    if not isinstance(design, dict):
        return f"not a dict: {type(design).__name__}"
    from embedlab import over_budget
    faults = over_budget(design, ns["BUDGET"])
    if design["hidden_size"] % design["num_attention_heads"] or \
            design["hidden_size"] // design["num_attention_heads"] != ns["head_dim"]:
        faults.append(f"heads {design['hidden_size']}/{design['num_attention_heads']} wide, not {ns['head_dim']}")
    return "; ".join(faults)


def fingerprint(entry):
    """A hashable summary of what the entry computes (its results on every input for a function)."""
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            got, _ = run_entry(entry)
            if entry.name == "design" or not callable(got):
                values = [got]
            else:
                values = []
                for args in _inputs(entry.name):
                    try:
                        values.append(got(*copy.deepcopy(args)))
                    except Exception as exc:  # noqa: BLE001
                        values.append(type(exc).__name__)
            return repr([np.round(np.asarray(v, dtype=float), 9).tolist() if isinstance(v, (np.ndarray, float, int))
                         and not isinstance(v, bool) else repr(v) for v in values])
        except Exception as exc:  # noqa: BLE001
            return f"error {exc!r}"


def judge(entry):
    """('wrong', detail) or ('CORRECT', detail) or ('ERROR', detail)."""
    with contextlib.redirect_stdout(io.StringIO()):
        return _judge(entry)


def _judge(entry):
    try:
        got, ns = run_entry(entry)
    except Exception:  # noqa: BLE001
        return "ERROR", traceback.format_exc(limit=3)
    if entry.name == "design":
        fault = _design_fault(got, ns)
        return ("wrong", fault) if fault else ("CORRECT", "the design fits")
    want, sol_ns = solution_value(entry.lesson, entry.name)
    if callable(want):
        diffs = []
        for args in _inputs(entry.name):
            expect = want(*copy.deepcopy(args))
            try:
                value = got(*copy.deepcopy(args))
            except Exception as exc:  # noqa: BLE001
                diffs.append(f"raises {type(exc).__name__}")
                continue
            if not _same(value, expect, rel=1e-9):
                diffs.append("differs")
        n = len(_inputs(entry.name))
        return ("wrong", f"{len(diffs)}/{n} inputs: {', '.join(sorted(set(diffs)))}") if diffs \
            else ("CORRECT", f"same on all {n} inputs")
    if _same(got, want):
        return "CORRECT", f"{got!r}"
    show = lambda v: np.array2string(np.asarray(v), threshold=8) if isinstance(v, np.ndarray) else repr(v)  # noqa: E731
    return "wrong", f"{show(got)} vs {show(want)}"


def main(argv):
    files = [a for a in argv if not a.startswith("-")] or ["learners", "heldout"]
    only = argv[argv.index("-k") + 1] if "-k" in argv else None
    if only:
        files = [f for f in files if f != only]
    bad = 0
    for file in files:
        module = importlib.import_module(f"hint_corpus.{file}")
        per = Counter()
        for i, e in enumerate(module.ENTRIES):
            per[e.lesson] += 1
            if only and only not in (e.lesson, e.name):
                continue
            verdict, detail = judge(e)
            bad += verdict != "wrong"
            print(f"{file}[{i}] {verdict:7} {e.lesson} {e.name}: {detail[:160]}".rstrip())
            if verdict != "wrong":
                print("    mistake:", e.mistake)
        print(f"{file}: {len(module.ENTRIES)} entries", dict(sorted(per.items())))
    if "--same" in argv:
        # entries of one question that compute the same thing but name different mistakes:
        # no hint can tell them apart, so a shared word is needed (reported, not counted as a problem)
        groups = {}
        for file in files:
            for i, e in enumerate(importlib.import_module(f"hint_corpus.{file}").ENTRIES):
                groups.setdefault((e.lesson, e.name, fingerprint(e)), []).append((f"{file}[{i}]", e))
        for (lesson, name, _), members in groups.items():
            if len(members) > 1:
                shared = set.intersection(*({w.lower() for w in e.words} for _, e in members))
                print(f"same value: {lesson} {name}: {[m for m, _ in members]} shared words {sorted(shared)}")
    print("problems:", bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
