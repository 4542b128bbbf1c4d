"""The hints built in code, rendered over every lesson's questions and read before any learner sees them.

tests/test_hint_rendering.py renders the templates a question declares (its hints, its named parts). Many
hints are built in code instead, from what the learner's cell does: a slip undone in the learner's own
expression, a size used for another, a division without its denominator's parentheses, a function argument
never read, an edited line of the given code, an error carried forward, a number typed by hand, an axis, an
index moved by one, a wrong input read, the general words on arrays and calls. Here, for every lesson, on the
book's parameters, two class variants and the second looks, each question is built for those parameters and
driven through every such builder with inputs made from the question itself (its name, its function's
arguments and cases, its answer, its model's config fields, the lesson's sizes, its given lines); every string
a builder returns is read by embedlab.grading.text.hint_problems (a placeholder left in, an empty slot, a doubled
or missing word, a word where a size belongs, a unit on a quantity without one, a clause
that presumes what the question's own text does not give:
test_hint_rendering.text_grants reads that text from the exercise notebook).

That every builder is reached is not left to care: `hint_builders` reads the grading modules and lists every
function that writes prose into an f-string (a hint's words with slots); the builders' returns are watched
(sys.setprofile) while the questions are driven, and a builder never seen returning words fails the test.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from embedlab.grading import (carried, code, counterfactual, diagnose, earlier, elsewhere, explain, function_hints, kinds,
                              labels, parts, undo)
from embedlab.grading.cases import rng_for
from embedlab.grading.kinds import Array, Choice, Design, Function, Integer, Real, Written
from embedlab.grading.lessons import known_lessons, load_key, questions_for
from embedlab.grading.text import hint_problems
from embedlab.grading.values import data_to_array

from test_hint_rendering import parameter_sets, space_for, text_grants

GRADING = Path(explain.__file__).resolve().parent
MODULES = {m.__name__.rsplit(".", 1)[1]: m for m in (code, carried, counterfactual, diagnose, earlier, elsewhere,
                                                     explain, function_hints, kinds, labels, parts, undo)}
# Functions of those modules that write prose into an f-string but build no hint a learner reads for a wrong
# answer: how an answer is judged (statements), a question declared wrongly (ValueError), the form of a value
# (WrongForm, shown before any hint), a file's or a key's name, a row's line. Each with its reason.
NOT_HINTS = {
    "code.handed_out": "a notebook's path",
    "explain.book_inputs": "a module's name", "explain.book_envs": "a module's name",
    "explain._second_envs": "a module's name", "explain._second_answers_of": "a module's name",
    "explain._count_fields": "the names of a count's terms, said through explain.count_field_gap (driven)",
    "explain._float_envs": "a module's name", "explain._book_sizes": "a size's key, len(name)",
    "kinds.Verdict.line": "a summary line", "kinds.Integer.to_data": "the value's form",
    "kinds.Real.__post_init__": "a question declared wrongly", "kinds.Real.statement": "how it is judged",
    "kinds.Real.result_phrase": "how it is judged", "kinds.Real.to_data": "the value's form",
    "kinds.Array.__post_init__": "a question declared wrongly", "kinds.Array.statement": "how it is judged",
    "kinds.Array.result_phrase": "how it is judged", "kinds.Array.public_problems": "class mode's form check",
    "kinds.Arrays.to_data": "the value's form", "kinds.Choice.to_data": "the value's form",
    "kinds.Function.statement": "how it is judged", "kinds.Function.run_cases": "the exception, as raised",
    "kinds.Design.statement": "how it is judged", "kinds.Design.to_data": "the value's form",
    "kinds._plain": "the value's form", "kinds.Criterion.__post_init__": "a rubric declared wrongly",
    "kinds.Written.__post_init__": "a rubric declared wrongly", "kinds.Written.to_data": "the value's form",
    "kinds.Written.judge": "the instructor marks it", "kinds.padding_recheck": "lesson 12's recheck, rendered "
    "through _formula_slip", "kinds.padding_rechecks": "lesson 12's rechecks, rendered through _formula_slip",
    "parts.Ratio.__init__": "a tree declared wrongly", "function_hints.shown": "a value written compactly",
    "elsewhere._words_of": "names joined, said by foreign_cases",
    "elsewhere._value_words": "a look's value, written as typed (test_hint_proof_rs reads its words)", "elsewhere._judge_as": "an exception, as raised",
    "kinds.Integer.judge": "rendered through _number_hint (its own words are constants)",
}


def _prose(node: ast.JoinedStr) -> bool:
    text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    return len(re.findall(r"[A-Za-z]{2,}", text)) >= 3


def hint_builders() -> dict:
    """{"module.Class.function": code object's (file, first line)} of every function of the hint modules that
    writes prose into an f-string."""
    out = {}
    for short, module in MODULES.items():
        path = Path(module.__file__)
        out.update({f"{short}.{name}": (str(path), name.rsplit(".", 1)[-1])
                    for name in _prose_functions(path.read_text())})
    return {k: v for k, v in out.items() if k not in NOT_HINTS}


@functools.lru_cache(maxsize=None)
def _prose_functions(text: str) -> tuple:
    """The "Class.function" names of a module's functions that write prose into an f-string, read from the
    module's text: parsed and walked once per text (every lesson's watch asks again for the same eleven
    modules), so a module that reads otherwise is read anew."""
    found = []

    def visit(node, prefix=""):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.FunctionDef):
                if any(isinstance(n, ast.JoinedStr) and _prose(n) for n in ast.walk(child)):
                    found.append(f"{prefix}{child.name}")
    visit(ast.parse(text))
    return tuple(found)


# --------------------------------------------------------------------------
# Watching what the builders return


class Watch:
    """Every string a hint builder returns (a Verdict's detail, the strings of a list) while on: each builder, and
    the judges whose verdicts carry the words they put together, wrapped in its module or class for the while."""

    JUDGES = (("kinds.Integer.judge", kinds.Integer, "judge"), ("kinds.Real.judge", kinds.Real, "judge"),
              ("kinds.Array.judge", kinds.Array, "judge"), ("kinds.Function.judge", kinds.Function, "judge"),
              ("function_hints.most_telling", function_hints, "most_telling"))

    def __init__(self):
        # builder's name -> [(a string it returned, the unit of the question driven
        # then, what its text gives)]
        self.seen: dict = {}
        self.patched = []
        self.unit = ""  # what the question being driven counts (Question.unit_of): a unit on a share is garbled
        # what its text gives (text_grants): a clause presuming anything else is garbled
        self.grants = None

    def _record(self, name, value):
        def said(v):  # the words a value carries: a string, a verdict's or a row's detail, a scale's or a case's
            if isinstance(v, str):
                return [v]
            if isinstance(v, tuple):  # (change, words, ids) of the named parts' search
                return [w for w in v if isinstance(w, str)]
            return [w for a in ("detail", "says", "words", "why", "message") for w in [getattr(v, a, None)]
                    if isinstance(w, str)]
        if isinstance(value, dict):
            value = list(value.values())
        items = list(value) if isinstance(value, (list, tuple, set)) else [value]
        words = [w for v in items for w in said(v)]
        words = [w for w in words if w and w.strip()]
        kept = self.seen.setdefault(name, []) if words else []
        kept.extend((w, self.unit, self.grants) for w in words[:4]
                    if (w, self.unit, self.grants) not in kept and len(kept) < 60)

    def _wrap(self, name, owner, attr):
        original = owner.__dict__[attr]
        if isinstance(original, (staticmethod, classmethod)):
            return
        watch = self

        def wrapped(*args, **kw):
            value = original(*args, **kw)
            watch._record(name, value)
            return value
        wrapped.__wrapped__ = original
        setattr(owner, attr, wrapped)
        self.patched.append((owner, attr, original))
        for module in [m for k, m in list(sys.modules.items()) if k.startswith("embedlab.grading") and m is not owner]:
            for key, value in list(vars(module).items()):  # the same builder imported by name elsewhere
                if value is original:
                    setattr(module, key, wrapped)
                    self.patched.append((module, key, original))

    def __enter__(self):
        for name in hint_builders():
            short, *rest = name.split(".")
            owner = MODULES[short]
            for part in rest[:-1]:
                owner = getattr(owner, part)
            self._wrap(name, owner, rest[-1])
        for name, owner, attr in self.JUDGES:
            if attr in owner.__dict__:
                self._wrap(name, owner, attr)
        return self

    def __exit__(self, *exc):
        for owner, attr, original in reversed(self.patched):
            setattr(owner, attr, original)
        self.patched.clear()


# --------------------------------------------------------------------------
# Driving each question through the builders


def _quiet(f, *args, **kw):
    try:
        return f(*args, **kw)
    except Exception:  # noqa: BLE001 - a builder that cannot take these inputs says nothing
        return None


def _numbers_near(want) -> list:
    """Values a slip gives: the answer times each factor the general words name, and off by one."""
    if not isinstance(want, (int, float)) or isinstance(want, bool) or not math.isfinite(want):
        return []
    out = [want * f for f, _ in diagnose.FACTORS if f] + [want + 1, want - 1, -want, want * 1.37]
    return [int(v) if isinstance(want, int) and float(v).is_integer() else v for v in out]


def _sources(q) -> list[str]:
    """Cells that make each code reading speak, written with the question's own name."""
    n = q.name
    return [
        f"{n} = round(x / y, 2)\n", f"{n} = x // y\n", f"{n} = 100 * x / y\n", f"{n} = int(x / y)\n",
        f"{n} = np.count_nonzero(x)\n", f"{n} = 12_345\n", f"{n} = np.degrees(np.arccos(x))\n",
        f"{n} = E[:, 0]\n", f"{n} = E[ids + 1]\n", f"{n} = np.random.default_rng(1).normal(size=3)\n",
        f"{n} = np.round(E.sum(axis=0), 2)\n",
        f"na = np.linalg.norm(a)\nnb = np.linalg.norm(b)\n{n} = a @ b / na + nb\n",
        f"d = 777\nL = 3\nV = 1000\n{n} = 12 * L * d * d + V * d\n",
        f"{n} = count_params(load_config('gpt2-xl')).total * 3\n",
        f"{n} = 128_000 * 4096 * 2 // 3\n",
    ]


def _function_sources(q) -> list[str]:
    """A function of the question's own signature whose body reads none of its arguments, and one that divides
    without parentheses."""
    names = function_hints.arg_names(q.reference, 8) if q.reference is not None else []
    args = ", ".join(names) or "x"
    return [f"def {q.name}({args}):\n    return 3\n",
            f"def {q.name}({args}):\n    na = np.linalg.norm({names[0] if names else 'x'})\n"
            f"    nb = np.linalg.norm({names[-1] if names else 'x'})\n    return 1.0 / na + nb\n"]


# every kind of edit embedlab.grading.undo reads, in a cell and in a function of two parameters (a, b)
UNDO_SOURCES = (
    "pick = [w for w in words if not w.isupper()][2]\nscores = np.dot(table, q) / np.linalg.norm(q) ** 2\n",
    "unit = E / np.linalg.norm(E, axis=0)\nrows = np.stack([E[i] for i in ids], axis=1)\nm = X.mean(axis=-1)\n",
    "ids = sorted(set(words))\norder = np.sort(ids)\nlisted = list(ids)\nlisted.sort()\n",
    "ok = [m for m in names if not tied[m]]\nh = np.tanh(np.tanh(a))\ny = np.exp(x)\nz = np.exp(y)\n",
    "n = np.sum(v ** 2)\nm = (v * v).sum()\nk = v @ v\nj = np.dot(v, v)\nl = np.linalg.norm(v) ** 2\n",
    # a test inverted (a comparison, a bare test), a scatter with +=, two arguments swapped, a number typed
    "k = [w for w in words if w in seen and n != 2]\nif ok:\n    c += 1\nG[ids, :] += g\nG[ids[1:3]] -= g\n"
    "p = padded_size(pad_multiple, rows)\nb = kv_cache_bytes(config, 8192, precision='bf16')\n"
    "G = np.zeros((V, d))\nG[ids] = g\nm = [x for x in C if x <= 3]\n",
    # a choice taken at one end, and a dict's keys compared (made for choice answers only: extremes=True)
    "best = max(scores, key=scores.get)\nfirst = min(scores)\nk = np.argmax(v)\n",
    # constructs one edit undoes: a rounding, an angle, a range from 1 or one short, ^, //, precedence, a codec
    "r = round(x * y, -3)\nq = (x / y).round(2)\nm = np.degrees(np.arccos(c))\nfor i in range(1, L):\n    t += 1\n"
    "for j in range(n - 1):\n    t += 1\ne = 12 * d ^ 2 + 13 * d\nw = a - b // c\ns = a / b + c\n"
    "b.decode('latin-1')\n",
    # values typed where an input belongs (read with UNDO_NAMES), a name read twice, a line adapted once
    "n = 2 * d * 50257\nrows = E[[1, 2, 0, 1]]\nc = w2i['car'] + w2i[pair[0]]\nk = 50257 * 768 / (50257 * 768 + x)\n"
    "g = C[np.ix_(animals, animals)]\nmean = M[r].mean(axis=0)\nu = M @ mean / np.linalg.norm(M[r])\n",
    # a whole value scaled by a factor the lines compute (factors=True), a set, a sum where a count belongs
    "rows = E[ids] * np.sqrt(d)\nshare = x / len(pair)\nn = len({tuple(r) for r in table}) * len(set(words))\n"
    "k = np.array(table).sum() + sum(r)\n",
)
UNDO_NAMES = {"V": 50_000, "d": 2048, "ids": [3, 1, 4], "pair": ["horse", "dog"], "animals": [1, 2],
              "vehicles": [3, 4]}
UNDO_FUNCTION = "def f(a, b):\n    return float(a @ b / np.linalg.norm(a) ** 2 + np.sum(b))\n"


def drive_undo(q, lesson):
    """The edits of embedlab.grading.undo on the solution's own code of the question and on every kind of edit;
    a function's proven edit as its judge words it, on a wrong result and on a call that raised."""
    from embedlab.grading.verdicts import evaluate

    solved = _quiet(code.solution_source, lesson, q.name)
    for source in (solved, *UNDO_SOURCES) if isinstance(solved, str) else UNDO_SOURCES:
        _quiet(undo.edits, source, (), {"n_tokens": 1024, "gqa_context": 8192})
        _quiet(undo.edits, source, (), {}, extremes=True)
        _quiet(undo.edits, source, (), {}, False, UNDO_NAMES)
        _quiet(undo.edits, source, (), {}, factors=True)  # an array answer's whole value scaled
    _quiet(undo.edits, UNDO_FUNCTION, ("a", "b"))
    # the work the question asks for handed to a library function (own_work): the cell that calls it
    for handed in [k for k in (getattr(q, "own_work", None) or {}) if isinstance(k, str)][:1]:
        _quiet(dataclasses.replace(q, source=f"{q.name} = {handed}(1)\n")._own_work_slip)
    if not isinstance(q, Function) or q.reference is None:
        return
    names = function_hints.arg_names(q.reference, 8)
    if isinstance(solved, str):
        _quiet(undo.edits, solved, tuple(names))
    cases = q.cases(rng_for(lesson, q.name))[:3]
    ref = q.reference
    right = _quiet(q.run_cases, ref, cases)
    if not right:
        return
    for words in [w for w, _ in (_quiet(undo.edits, solved or "", tuple(names)) or [])][:2] or \
            [w for w, _ in undo.edits(UNDO_FUNCTION, ("a", "b"))][:2]:
        undone = [{"undone": words, "kind": "function", "got": right}]
        for wrong in (lambda *a: 2 * np.asarray(ref(*a)) if np.ndim(ref(*a)) else 2 * ref(*a),
                      lambda *a: np.zeros(2)[7]):
            _quiet(evaluate, q, wrong, None, cases, source=solved, elsewhere=undone)


def drive_config_slips(q, want):
    """A config's field read for another, and a rule of thumb typed where the config gives a value, each written
    so that the slip undone gives the answer: explain.slip_undone's words for every field of the book's models."""
    if not isinstance(want, (int, float)) or isinstance(want, bool) or not want:
        return
    for model, fields, env, readable in explain.book_inputs(q)[:2]:
        names = sorted(fields)[:12]
        for a in names:
            for b in names:
                if fields[a] != fields[b] and fields[b] >= 2:
                    source = f"{q.name} = {want!r} * shape.{a} / shape.{b}\n"
                    explain.slip_undone(dataclasses.replace(q, source=source), want * fields[a] / fields[b], want)
                    break
        if "intermediate_size" in readable and "hidden_size" in readable:
            d, dff = readable["hidden_size"], readable["intermediate_size"]
            source = f"{q.name} = {want!r} / shape.intermediate_size * (8 * shape.hidden_size / 3)\n"
            explain.slip_undone(dataclasses.replace(q, source=source), want / dff * (8 * d / 3), want)
            # a ratio typed by hand (7 // 2 · d) where the config gives intermediate_size: the answer typed above makes
            # no look hold, so its words are built with the book's inputs as the one look
            source = f"{q.name} = {want!r} / shape.intermediate_size * (shape.hidden_size * 7 // 2)\n"
            node = ast.parse(source).body[0].value.right
            explain._ratio_for_field(source, "", q.name, node, ast.get_source_segment(source, node), d * 7 // 2,
                                     model, fields, env, want, [(env, want)])


def drive_value(q, want, lesson, key, full=True):
    """A number or an array question, through the code readings, the named parts, the general words."""
    if WATCH[0] is not None:  # the words a question declares for its code readings
        WATCH[0]._record("explain.model_reads", list(q.not_reads.values()))
        WATCH[0]._record("needs and avoids", list(q.needs.values()) + list(q.avoids.values()))
    drive_config_slips(q, want)
    if full and isinstance(want, (int, float)) and not isinstance(want, bool):
        # one number one off in the learner's expression (2 for 1), and an operator swapped: each undone gives it
        for mine, got in ((f"{q.name} = ({want!r}) + 3 - 3 * 2\n", want - 3),
                          (f"{q.name} = ({want!r}) + 1 - 1 - 2\n", want + 1 - 1 - 2)):
            _quiet(explain.slip_undone, dataclasses.replace(q, source=mine), got, want)
    for source in _sources(q)[-3:]:
        asked = dataclasses.replace(q, source=source)
        answer = _quiet(explain.searched_answer, asked, want if isinstance(want, (int, float)) else 1.0)
        for one in (answer if isinstance(answer, (list, tuple)) else [answer] if answer is not None else []):
            if full:  # every words the search can name for one change, as it builds them
                _quiet(parts.templates, one)
            if WATCH[0] is not None:
                WATCH[0]._record("explain._typed_for_inputs", [a.says for n in one.tree.nodes()
                                                               for a in getattr(n, "alts", []) if a.swap])
    _quiet(explain._config_scales, q)
    drive_loaded_model(q, want, lesson)
    drive_term_dropped(q, want, lesson)
    drive_count_terms(q, want, lesson)
    drive_name_swapped(q, want, lesson, key)
    others = {k: v for k, v in key.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    if isinstance(q, (Integer, Real)) and isinstance(want, (int, float)):
        for source in _sources(q):
            asked = dataclasses.replace(q, source=source, others=others)
            got = want * 2 if want else 3
            for f in (explain.code_first, explain.code_features, explain.slip_undone, explain.size_swapped) + (
                    (explain.number,) if full else ()):
                _quiet(f, asked, got, want)
            _quiet(explain.precedence_slip, source)
            _quiet(asked._formula_slip)
        q = dataclasses.replace(q, others=others)
        for got in _numbers_near(want)[:10] if full else ():
            _quiet(q.judge, q.to_data(got), want)
            _quiet(explain.size_swapped, q, got, want)
        for name, value in others.items():
            if name != q.name and value != want:
                _quiet(q._other_answer, value, want)
        for x, vx in explain._book_sizes(q).items():
            for y, vy in explain._book_sizes(q).items():
                if vx != vy:
                    _quiet(explain.size_swapped, q, want * vx / vy, want)
        _quiet(q.judge, {"float": float(want) + 0.5} if isinstance(q, Integer) else {"real": float("nan")}, want)
        _quiet(q.judge, {"float": float(want) * 2}, want) if isinstance(q, Integer) else None
        if isinstance(q, Integer) and full:  # a whole number as a float: what in the cell makes it one (explain.float_cause)
            for source in (f"{q.name} = {want!r} * 1.0\n", f"{q.name} = {want!r} * 2 / 2\n",
                           f"{q.name} = np.floor({want!r} * 1)\n",
                           f"from embedlab import BYTES_PER_PARAM as B\n{q.name} = {want!r} * B['fp32'] // 4\n",
                           f"{q.name} = {want!r} * 4.0 / 2 / 2.0\n"):
                asked = dataclasses.replace(q, source=source)
                _quiet(asked.judge, {"float": float(want)}, want)
                _quiet(asked.public_problems, {"float": float(want)}, None)
        drive_typed_stands_for(q, want)
    if isinstance(q, Array) and want is not None:
        w = np.asarray(want)
        if w.ndim == 2 and w.size and np.issubdtype(w.dtype, np.number) and np.all(w == np.round(w)) \
                and np.all(np.abs(w).sum(axis=1) > 0):  # each row divided by its own length (kinds._rows_scaled)
            _quiet(q.judge, q.to_data(w / np.linalg.norm(w, axis=1, keepdims=True)), q.to_data(w))
        for source in _sources(q):
            asked = dataclasses.replace(q, source=source)
            for got in (w + 1, w[:-1] if w.ndim else w, np.round(w, 2)):
                _quiet(explain.array, asked, got, w)
        for got in _arrays_near(w):
            _quiet(diagnose.array_hint, got, w, q.close)
            if full:
                _quiet(q.judge, q.to_data(got), q.to_data(w))



def drive_typed_stands_for(q, want):
    """A number typed rounded from one of the question's inputs (or from a total), that the learner's own value
    puts where the exact one belongs, alone and with a percentage after it (explain._typed_stands_for)."""
    if not isinstance(want, (int, float)) or isinstance(want, bool) or not want:
        return
    inputs = (_quiet(explain._call, q.inputs, q) or {}) if q.inputs else {}
    inputs = {k: v for k, v in dict(inputs).items() if isinstance(v, (int, float)) and not isinstance(v, bool)
              and abs(v) >= 1000 and float(f"{v:.2g}") != v}
    for words, value in (list(inputs.items())[:1] or [("the total", 1_557_611_200)]):
        typed = float(f"{value:.2g}")
        asked = dataclasses.replace(q, source=f"{q.name} = x / {typed!r}\n")
        for factor in (1, 100):
            _quiet(explain._typed_stands_for, asked, want * factor * typed / value, want, {words: value})


def drive_loaded_model(q, want, lesson):
    """Another shipped model loaded by name (explain.loaded_model_figure): for each of the lesson's model parameters,
    the first other shipped model, its same quantity and its parameter count given as the learner's value."""
    import importlib

    from embedlab.params import available_models, count_params, load_config

    if not isinstance(q, (Integer, Real)) or not isinstance(want, (int, float)) or isinstance(want, bool):
        return
    try:
        module = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")
        defaults = dict(module.SPACE.defaults)
    except Exception:  # noqa: BLE001
        return
    known = list(available_models())
    asked = dataclasses.replace(q, lesson=lesson)
    for param, model in defaults.items():
        if not isinstance(model, str) or model not in known:
            continue
        other = next(m for m in known if m != model)
        source = f"{q.name} = figure({other!r})\n"
        for value in (_quiet(lambda: module.answers({**defaults, param: other})[q.name]),
                      count_params(load_config(other)).total):
            _quiet(explain.loaded_model_figure, dataclasses.replace(asked, source=source), value, want)


def drive_count_terms(q, want, lesson):
    """A count exactly one term of its model's count short, and one over (explain.count_field_gap): lines that read
    the count's total and token table, each term of the answer taken away, each other term added."""
    if not isinstance(q, Integer) or not isinstance(want, int) or isinstance(want, bool):
        return
    found = _quiet(explain._question_model, q)
    terms = _quiet(explain._answer_terms, found[1], want) if found else None
    if not terms:
        return
    asked = dataclasses.replace(q, lesson=lesson)
    for pool, sign in ((terms[0], -1), (terms[1], 1)):
        for words, value in list(pool.items())[:4]:
            path = re.search(r"`((?:block\.)?\w+)", words).group(1)
            if path in ("total", "token_embedding"):
                continue
            source = f"{q.name} = counts.total - counts.token_embedding" + (f" + counts.{path}\n" if sign > 0 else "\n")
            _quiet(explain.count_field_gap, dataclasses.replace(asked, source=source), want + sign * value, want)


def drive_name_swapped(q, want, lesson, key):
    """Another question's answer read where one of the question's inputs belongs (explain.name_swapped)."""
    if not isinstance(q, (Integer, Real)) or not isinstance(want, (int, float)) or not q.inputs:
        return
    inputs = _quiet(q.inputs) or {}
    ys = [(k, v) for k, v in inputs.items() if k.isidentifier() and isinstance(v, (int, float))
          and not isinstance(v, bool)]
    xs = [(k, v) for k, v in key.items() if k != q.name and isinstance(v, (int, float)) and not isinstance(v, bool)]
    for (y, vy), (x, vx) in [(a, b) for a in ys[:1] for b in xs if b[1] != a[1]][:1]:
        source = f"{q.name} = {want!r} - {x} + {y}\n"
        asked = dataclasses.replace(q, lesson=lesson, source=source, others=dict(xs))
        _quiet(explain.name_swapped, asked, want - vx + vy, want)


def drive_term_dropped(q, want, lesson):
    """A term added to the solution's own cell (explain.term_dropped): the answer and 1024 · 3 more."""
    from embedlab.grading import code

    if not isinstance(q, (Integer, Real)) or not isinstance(want, (int, float)) or isinstance(want, bool):
        return
    solved = _quiet(code.solution_source, lesson, q.name)
    if solved:
        source = f"{solved}\n{q.name} = {q.name} + 1024 * 3\n"
        _quiet(explain.term_dropped, dataclasses.replace(q, lesson=lesson, source=source), want + 3072, want)


def _arrays_near(w):
    out = [w * 2, -w, w + 1, np.asarray(w, dtype=np.float32).astype(float) * (1 + 1e-7)]
    if w.ndim >= 1 and len(w) > 1:
        out += [w[::-1], w[1:], np.append(w, w[:1], axis=0), np.roll(w, 1, axis=0), w[:1]]
        out += [np.delete(w, 0, axis=0), np.concatenate([w, w])]
    if w.ndim == 2:
        out += [w.T, w[:, ::-1], w[:, 1:], w.sum(axis=0), np.round(w, 1), w * np.arange(1, w.shape[0] + 1)[:, None]]
        if len(w) > 1:  # the last row never filled (a loop one short)
            out.append(np.where(np.arange(len(w))[:, None] == len(w) - 1, 0, w))
        out += [np.vstack([w[1:], np.zeros((1, w.shape[1]))])]
        if len(w) > 1 and w.dtype.kind in "biuf":  # the last row alone; a row and a column of zeros in front
            out += [w[-1], np.pad(w, ((1, 0), (1, 0)))]
    if w.ndim == 1 and len(w) > 1 and w.dtype.kind in "biuf":  # two entries given together in the first, the other 0
        out.append(np.concatenate([[w[0] + w[1], 0], w[2:]]).astype(w.dtype))
        out.append(np.concatenate([w[:-2], [w[-2] + w[-1], 0]]).astype(w.dtype))
    if w.ndim == 1 and w.dtype.kind in "iu":
        out += [np.sort(w), w.astype(float) + 0.5, np.unique(w)]
    if w.ndim == 0:
        out += [np.array([w, w])]
    return out


def drive_function(q, lesson):
    """A function question on its own cases: wrong functions of its own signature (an argument ignored, a
    constant, a transposed or scaled result, one that raises an IndexError), judged as the check judges."""
    from embedlab.grading.verdicts import evaluate

    cases = q.cases(rng_for(lesson, q.name))[:4]
    ref = q.reference
    wrongs = [
        lambda *a: 2 * np.asarray(ref(*a)) if np.ndim(ref(*a)) else 2 * ref(*a),
        lambda *a: ref(*a[:-1], 3) if len(a) > 1 else ref(*a),
        lambda *a: ref(*a[1:], a[0]) if len(a) > 1 else ref(*a),
        lambda *a: np.asarray(ref(*a)).T,
        lambda *a: np.zeros((5,))[np.asarray(a[-1]).ravel()[:1].astype(int) + 5]
        if isinstance(a[-1], np.ndarray) else np.zeros(2)[7],
        lambda *a: tuple(2 * np.asarray(x) for x in ref(*a)) if isinstance(ref(*a), tuple) else ref(*a) + 1,
        # a mean where a sum is asked: the result divided by the first argument's length (the batch)
        lambda *a: np.asarray(ref(*a), dtype=float) / len(a[0]) if np.ndim(a[0]) and len(a[0]) > 1 else ref(*a),
        # an array result off by a low precision's rounding (summed in float16): kinds._low_precision
        lambda *a: (np.asarray(ref(*a), dtype=float) * (1 + 2.0 ** -10)) if np.ndim(ref(*a)) else ref(*a),
    ]
    for source in _function_sources(q):
        for wrong in wrongs:
            _quiet(evaluate, q, wrong, None, cases, source=source)
        _quiet(explain.precedence_slip, source)
    for slip in q.slips:
        _quiet(evaluate, q, lambda *a, s=slip: s.func(*a), None, cases, source=None)
    names = function_hints.arg_names(ref, len(cases[0])) if cases else []
    if "d" in names and q._result_question().kind == "integer":  # a term added on every call (function_hints.added_term)
        at = names.index("d")
        added = f"def {q.name}({', '.join(names)}):\n    return reference({', '.join(names)}) + 1024 * d\n"
        _quiet(evaluate, q, lambda *a: ref(*a) + 1024 * a[at], None, cases, source=added)
    for case in cases[:2]:
        for i, name in enumerate(names):
            _quiet(function_hints.exception_cause, f"IndexError: index {99} is out of bounds for axis 0 with size 3",
                   case, names, f"def {q.name}({', '.join(names)}):\n    return {name}[{name}]\n")
            _quiet(function_hints.exception_cause, "KeyError: 'x'", case, names, None)
            _quiet(function_hints.exception_cause, "ValueError: shapes (3,4) and (5,4) not aligned", case, names,
                   None)
        # a result's length off by a count argument (n_merges − 1 merges), and as many as asked where fewer can be made
        for i, (arg_name, a) in enumerate(zip(names, case)):
            if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)) and a > 1:
                out = q.expected_outputs([case])[0]["out"]
                short = list(case)
                short[i] = a - 1
                got = _quiet(lambda: q._result_question().to_data(ref(*short)))
                if got is not None:
                    _quiet(function_hints.count_words, q, got, out, case, {"name": arg_name, "k": -1})
                made = _quiet(data_to_array, out)
                if made is not None and made.ndim >= 1:
                    padded = q._result_question().to_data(np.zeros((int(a),) + made.shape[1:], dtype=int))
                    _quiet(function_hints.count_words, q, padded, out, case, None)
        # an exception read against its input: plain lists, an empty argument, nothing left to take
        listed = tuple(np.asarray(a).tolist() if isinstance(a, np.ndarray) else a for a in case)
        want = q.expected_outputs([case])[0]["out"]
        for raised in ("TypeError: can't multiply sequence by non-int of type 'list'",
                       "AttributeError: 'list' object has no attribute 'shape'",
                       "ValueError: min() arg is an empty sequence",
                       "ValueError: zero-size array to reduction operation maximum which has no identity"):
            _quiet(function_hints.exception_context, q, raised, want, listed)
            _quiet(function_hints.exception_context, q, raised, want, case)
        emptied = tuple(a[:0] if isinstance(a, (np.ndarray, list)) else a for a in case)
        _quiet(function_hints.exception_context, q, "ValueError: max() arg is an empty sequence", want, emptied)
        for v in case:  # a shape error whose two sizes are a 2-D argument's rows and width
            shape = np.shape(v)
            if len(shape) == 2 and shape[0] != shape[1]:
                a, b = shape
                for raised in (f"ValueError: operands could not be broadcast together with shapes ({a},) ({b},)",
                               f"ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, with "
                               f"gufunc signature (n?,k),(k,m?)->(n?,m?) (size {a} is different from {b})"):
                    _quiet(function_hints.exception_cause, raised, case, names, None)


def drive_typed_in_function(q, lesson):
    """The solution's own function with a number typed in: in place of an argument it reads, and in place of a value
    it computes from them (explain.typed_in_function), judged on the question's first cases."""
    import copy

    solved = code.solution_source(lesson, q.name)
    tree = _quiet(ast.parse, solved) if solved else None
    fn = next((n for n in (tree.body if tree else []) if isinstance(n, ast.FunctionDef) and n.name == q.name), None)
    if fn is None:
        return
    params = [a.arg for a in fn.args.args]

    class Typed(ast.NodeTransformer):
        def __init__(self, name, number):
            self.name, self.number = name, number

        def visit_Name(self, node):
            return ast.Constant(self.number) if node.id == self.name and isinstance(node.ctx, ast.Load) else node

    for case in q.cases(rng_for(lesson, q.name))[:2]:
        variants = [Typed(p, 2 * a + 1).visit(copy.deepcopy(tree)) for p, a in zip(params, case)
                    if isinstance(a, int) and not isinstance(a, bool) and a >= 2]
        for k, stmt in enumerate(fn.body):
            if isinstance(stmt, ast.Assign) and not code._number_expr(stmt.value):
                changed = copy.deepcopy(tree)
                target = next(n for n in changed.body if isinstance(n, ast.FunctionDef) and n.name == q.name)
                target.body[k].value = ast.Constant(7)
                variants.append(changed)
        for variant in variants:
            source = ast.unparse(ast.fix_missing_locations(variant))
            namespace = {"np": np}
            try:
                exec(compile(source, "<typed>", "exec"), namespace)  # noqa: S102 - the solution, one number typed
                got, want = namespace[q.name](*case), q.reference(*case)
            except Exception:  # noqa: BLE001 - a variant that cannot run says nothing
                continue
            inner = dataclasses.replace(q._case_question(tuple(case)), source=source)
            _quiet(explain.typed_in_function, inner, got, want)


def drive_given(lesson, name, key, q):
    """The code the exercise gives for `name`, each line edited: the edit blamed, mentioned after the answer's
    own hint, or after another wrong answer's."""
    above, given = code.given_code(lesson).get(name, ((), ()))
    for line in list(given)[:3] + list(above)[-2:]:
        edit = code.Edit(line, line.replace("=", "= 1 +", 1) if "=" in line else line + "  # x", True)
        for how in (code.RIGHT, code.SAME, code.OTHER, None):
            code.edit_hint("your count has no LayerNorms", [edit], how, "too big: between 2 and 3 times the "
                                                                         "expected value")
            code.edit_hint("", [edit], how, None)
    others = [n for n in key if n != name][:2]
    if others:
        kinds.carried_note(others, "recounted")


def drive_carried(lesson):
    from embedlab.grading.judge import Row

    names = [q.name for q in questions_for(lesson)]
    rows = []
    for i, n in enumerate(names):
        rows.append(Row(submission="s.ipynb", lesson=lesson, question=n, points=1.0, max_points=1.0,
                        status="correct" if i % 2 else "incorrect", detail=""))
    _quiet(carried.note, rows)


def drive_counterfactual(q, want, lesson):
    """The slips undone in the learner's own cell read as arithmetic (embedlab.grading.counterfactual), planted in
    the solution's own cell of every number question: a factor 7 the answer lacks, a given name's defining
    expression doubled where the name belongs, the answer as two rounded pieces, one piece 10**9 off; then a look's
    value explained (a typed number, a term that is 0 on the book's inputs) and a step of the solution's own."""
    import ast as _ast

    if not isinstance(q, (Integer, Real, Array)):
        return
    solved = _quiet(code.solution_source, lesson, q.name)
    asked = dataclasses.replace(q, lesson=lesson)
    data = _quiet(q.to_data, want)
    if data is not None:  # the learner's value is a step the solution's steps report
        stepped = dataclasses.replace(asked, elsewhere=({elsewhere.STEP: "… @ E", "kind": q.kind, "got": data},))
        _quiet(stepped._step_short, data)
    if not solved or not isinstance(want, (int, float)) or isinstance(want, bool) or not want:
        return
    head, _, own = solved.rpartition("# BEGIN SOLUTION")
    _quiet(counterfactual.factor_dropped, dataclasses.replace(asked, source=f"{solved}\n{q.name} = {q.name} * 7\n"),
           want * 7, want)
    given = _quiet(_ast.parse, head) or _ast.Module(body=[], type_ignores=[])
    for stmt in given.body:  # a name the given lines define, recomputed (twice over) where it belongs
        if isinstance(stmt, _ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], _ast.Name):
            name, value = stmt.targets[0].id, _ast.unparse(stmt.value)
            if re.search(rf"\b{name}\b", own):
                mine = head + "# YOUR CODE HERE\n" + re.sub(rf"\b{name}\b", f"(({value}) * 2)", own, count=1)
                got = _quiet(code.evaluate, mine, q.name, next(iter(explain._float_envs(asked)), {}))
                for env in _quiet(explain._float_envs, asked) or []:
                    got = _quiet(code.evaluate, mine, q.name, env)
                    if isinstance(got, (int, float)) and got != want:
                        _quiet(counterfactual.name_in_place, dataclasses.replace(asked, source=mine), got, want)
                        break
    # an input the solution reads once, written as its book value twice (counterfactual.solution_name_in_place)
    envs = _quiet(explain._float_envs, asked) or []
    read = [n for n in dict.fromkeys(re.findall(r"\b[A-Za-z_]\w*\b", own)) if envs and type(envs[0].get(n)) is int
            and len(re.findall(rf"\b{n}\b", own)) == 1]
    if read:
        value = envs[0][read[0]]
        mine = head + "# YOUR CODE HERE\n" + re.sub(rf"\b{read[0]}\b", f"({value} + {value})", own)
        got = _quiet(code.evaluate, mine, q.name, envs[0])
        if isinstance(got, (int, float)) and got != want:
            _quiet(counterfactual.solution_name_in_place, dataclasses.replace(asked, source=mine), got, want)
    # a factor of the solution's own product left out once (counterfactual.factor_missing)
    for name in dict.fromkeys(re.findall(r" \* ([A-Za-z_]\w*)\b", own)):
        mine = head + "# YOUR CODE HERE\n" + re.sub(rf" \* {name}\b", "", own, count=1)
        for env in envs[:1]:
            got = _quiet(code.evaluate, mine, q.name, env)
            if isinstance(got, (int, float)) and got != want:
                _quiet(counterfactual.factor_missing, dataclasses.replace(asked, source=mine), got, want)
    if isinstance(q, Integer):
        for mine in (f"{solved}\nwhole_ = {q.name}\n{q.name} = int(whole_ / 3) + int(whole_ * 2 / 3)\n",
                     f"{solved}\nwhole_ = {q.name}\n{q.name} = int(whole_ // 7) + int(whole_ * 6 // 7)\n"):
            for env in _quiet(explain._float_envs, asked) or []:
                got = _quiet(code.evaluate, mine, q.name, env)
                if isinstance(got, (int, float)) and got != want:
                    _quiet(counterfactual.rounding_placed, dataclasses.replace(asked, source=mine), got, want)
                    _quiet(counterfactual.units_mixed, dataclasses.replace(asked, source=mine), got, want)
    mixed = f"{solved}\n{q.name} = {q.name} / 1e9 + {q.name} * 0\n"
    _quiet(counterfactual.units_mixed, dataclasses.replace(asked, source=f"{solved}\nhalf_ = {q.name} / 2\n"
                                                                          f"{q.name} = half_ + half_ / 1e9\n"),
           want / 2 + want / 2e9, want)
    _quiet(counterfactual.units_mixed, dataclasses.replace(asked, source=mixed), want / 1e9, want)
    # right on the book's inputs only: the look's value explained, as the check renders a case
    from embedlab.grading.variants import look_question

    looked = dataclasses.replace(asked, at_look=look_question(lesson, q.name))
    for k in range(3):
        found = _quiet(looked.at_look, k)
        if not found:
            continue
        there, params, _ = found
        for mine in (f"{solved}\n{q.name} = {q.name} * 3 // 3 * 1\n", f"{solved}\n{q.name} = {q.name} + 0\n"):
            wrong = dataclasses.replace(looked, source=mine)
            for env in counterfactual._look_env(wrong, params):
                theirs = _quiet(code.evaluate, solved, q.name, env)
                if isinstance(theirs, (int, float)) and theirs:
                    got = theirs * 2 if q.kind == "real" else int(theirs) * 2
                    datum = {"int": got, "kind": "int"} if q.kind == "integer" else {"real": float(got)}
                    wanted = {"int": int(theirs)} if q.kind == "integer" else {"real": float(theirs)}
                    _quiet(kinds._elsewhere_case, wrong, {"kind": q.kind, "got": datum, "want": wanted,
                                                          "words": "with other parameters", "why": "", "look": k})
                    _quiet(counterfactual.typed_number_there, wrong, got, theirs, params)
                    _quiet(counterfactual.term_left_out_there, wrong, got, theirs, params)
                    _quiet(kinds._zero_part_there, wrong, got, theirs, there, params, {})
                    break
    looked_at = {  # a term 0 for the book's model; a number typed for the book's inputs: each on a look
        ("06-params-vs-compute", "kaplan_n"): ("integer", "kaplan_n = counts.total - counts.token_embedding - "
                                                          "counts.lm_head\n"),
        ("07-memory", "gqa_saving_gib"): ("real", "b = BYTES_PER_PARAM[cache_precision]\n"
                                                  "grouped = 2 * L * h_kv * head_dim * b * context\n"
                                                  "gqa_saving_gib = grouped * 3 / 2**30\n"),
    }
    if (lesson, q.name) in looked_at:
        kind, lines = looked_at[lesson, q.name]
        mine = dataclasses.replace(looked, source=head + "# YOUR CODE HERE\n" + lines)
        for k in range(3):
            found = _quiet(looked.at_look, k)
            if found:
                for env in counterfactual._look_env(mine, found[1]):
                    got, theirs = _quiet(code.evaluate, mine.source, q.name, env), _quiet(code.evaluate, solved,
                                                                                          q.name, env)
                    key, typ = ("int", int) if kind == "integer" else ("real", float)
                    if isinstance(got, typ) and isinstance(theirs, typ) and got != theirs:
                        _quiet(kinds._elsewhere_case, mine, {"kind": kind, "got": {key: got}, "want": {key: theirs},
                                                             "words": "with other parameters", "why": "", "look": k})
    # a whole number typed that is two of the book's whole-number inputs multiplied (counterfactual.typed_literal_named)
    found = _quiet(looked.at_look, 0)
    book = found[2] if found else {}
    ints = [(k, v) for k, v in (book or {}).items() if type(v) is int and v >= 2]
    if len(ints) >= 2:
        (_, x), (_, y) = ints[:2]
        typed = dataclasses.replace(asked, source=f"{head}# YOUR CODE HERE\n{q.name} = {max(x * y, 100)} + 0\n")
        _quiet(counterfactual.typed_literal_named, typed, book)


def drive_elsewhere(lesson, q):
    names = list(code.foreign_inputs(lesson))[:3]
    for case in _quiet(elsewhere.foreign_cases, q, {q.name: 1, **{n: 2 for n in names}}, names,
                       frozenset(names)) or []:
        _quiet(kinds._elsewhere_case, q, {"kind": "integer", "got": {"int": 2}, "want": {"int": 1},
                                          "words": case.words, "why": case.why})
    data = {"integer": ({"int": 3}, {"int": 4}), "real": ({"real": 3.0}, {"real": 4.0})}.get(q.kind)
    if data is None:
        return
    for why in ("", "the vocabulary's padding is counted on V"):
        for same in (False, True):
            case = {"kind": q.kind, "got": data[0], "want": data[1], "words": "with n_top = 80 words",
                    "why": why, "same": same}
            _quiet(kinds._elsewhere_case, q, case)
    for raised in ("KeyError: 'gpt2'", "IndexError: index 9 is out of bounds", "NameError: name 'x' is not defined"):
        _quiet(kinds._elsewhere_case, q, {"kind": q.kind, "got": data[0], "want": data[1], "words": "with L = 7",
                                          "raised": raised})
    # an input of another question read, its change moving the learner's answer (kinds.Question._foreign_moved)
    for case in _quiet(elsewhere.foreign_cases, q, {q.name: 1, **{n: 2 for n in names}}, names,
                       frozenset(names)) or []:
        moved = {"kind": q.kind, "got": data[0], "want": data[1], "words": case.words, "why": case.why, "own": True}
        _quiet(dataclasses.replace(q, elsewhere=(moved,))._foreign_moved)
    # the cell raising on the notebook's own inputs too (elsewhere.raises_here), said before anything else
    here = {"kind": q.kind, "raised_here": "AttributeError: 'ModelShape' object has no attribute 'd_ff'",
            "words": "", "why": ""}
    _quiet(kinds._elsewhere_case, dataclasses.replace(q, elsewhere=(here,)), here)
    # a typed value where no input changes the answer (Question.fixed): read as typed
    _quiet(dataclasses.replace(q, fixed=True, source=f"{q.name} = 13\n").judge, data[1],
           kinds.expected_value(q, data[1]))
    drive_typed_parameter(q)
    drive_earlier(lesson, q)
    # a name the cell reads and never sets, one of the question's inputs by name, still holding an earlier cell's value
    for stale in ({"V": 6}, {"V": 6, "d": 3}):
        _quiet(elsewhere.stale_input_edits, dataclasses.replace(q, inputs=lambda: {"V": 50_257, "d": 768}), stale,
               f"{q.name} = V * d\n")
    # an object the learner's lines make where the notebook holds another of its class (elsewhere.object_edits)
    _quiet(elsewhere.object_edits, {"mine": Tokenizer(), "bpe": Tokenizer()},
           f"mine = train_bpe(words, 300)\n{q.name} = mine.count_tokens('cat')\n")


class Tokenizer:
    """An object of a class of its own (not plain data): elsewhere.object_edits' driver."""


def drive_labels(q):
    """A word none of the allowed ones, a dict the answer is picked from without one of them (labels, on a case
    and on the book's inputs), an earlier answer a case put at another value than the learner's own
    (kinds.Design._not_own_there), and a key set on a config's copy that the config does not have."""
    options = [str(o) for o in getattr(q, "options", ()) or ()]
    if len(options) >= 2:
        _quiet(labels.not_allowed, "params", options)
        picked = f"used = {{{options[0]!r}: 1, {options[-1]!r}: 2}}\n{q.name} = max(used, key=used.get)\n"
        _quiet(labels.left_out, picked, q.name, options, options[1])
        for got in ("params", options[-1]):
            _quiet(kinds._elsewhere_case, dataclasses.replace(q, source=picked),
                   {"kind": "choice", "got": {"str": got}, "want": {"str": options[1]}, "words": "with L = 7",
                    "why": ""})
    if q.kind == "design":
        for name in [c for c in getattr(q, "carries", ()) if c not in getattr(q, "uses", ())]:
            for got in (9, 5):
                _quiet(q._not_own_there, {name: 4}, {"kind": "integer", "got": {"int": got}, "want": {"int": 3},
                                                     "words": "with the design untied", "why": "flip the tying",
                                                     "put": {name: 5}})
    base = {"vocab_size": 10, "hidden_size": 4, "tie_word_embeddings": True}
    for source in ("n = count(dict(design, vocab=3))\n", "n = count({**design, 'tie_embeddings': False})\n"):
        _quiet(labels.unread_key, source, "design", base, lambda c: c["vocab_size"] * c["hidden_size"], 40)


def drive_typed_parameter(q):
    """A number typed where an input belongs (elsewhere._typed_parameter_run), the input a count and a list's
    length, the lines giving another value there and raising there; each report rendered as the check renders it."""
    import ast as _ast

    if q.kind not in ("integer", "real"):
        return
    for inputs, namespace, source in (({"n_top": 50}, {"n_top": 100}, f"{q.name} = 100 * 1\n"),
                                      ({"never": [1, 2]}, {"never": [1, 2, 3]}, f"{q.name} = [0, 1, 2][3 - 1]\n"),
                                      ({"n_top": 50}, {"n_top": 100}, f"{q.name} = [1] * 100\n{q.name} = {q.name}[99]\n")):
        want = 50 if "n_top" in inputs else 1
        case = elsewhere.Elsewhere(inputs, want if q.kind == "integer" else float(want), "with other inputs")
        module = _ast.parse(source)
        report = _quiet(elsewhere._typed_parameter_run, q, dict(namespace), module, case,
                        frozenset(namespace), None, None)
        if report:
            _quiet(kinds._elsewhere_case, q, report)


def drive_earlier(lesson, q):
    """An answer reading earlier answers not right yet (earlier.words): one and two of them, with no rerun, a rerun
    that raises, one that gives the answer and one that gives another."""
    names = [x.name for x in questions_for(lesson)][:2]
    wrong = [(i + 1, n) for i, n in enumerate(names)]
    right = kinds.Verdict("correct", 1.0, 1.0, "")
    other = kinds.Verdict("incorrect", 0.0, 1.0, "too big: between 2 and 3 times the expected value")
    for some in (wrong[:1], wrong):
        for again in (None, {"names": [n for _, n in some], "raised": "TypeError: x"},
                      {"names": [n for _, n in some], "data": {"int": 1}}):
            for verdict in (right, other):
                _quiet(earlier.words, some, again, lambda data, v=verdict: v)
        # judged on the learner's own values of them (error carried forward), and still not right
        _quiet(earlier.carried_words, some, other.detail)


def drive_own_work(q):
    """The work a question asks for (`own_work`) handed to the library, or not done: each declared work's words,
    for a cell that calls the library function by name and for one that computes its answer without the work."""
    for work in getattr(q, "own_work", None) or {}:
        sources = ([f"{q.name} = {work}()\n"] if isinstance(work, str) else
                   [f"{q.name} = 0\n", f"def {q.name}(*args):\n    return 0\n"])
        for source in sources:
            _quiet(dataclasses.replace(q, source=source)._own_work_slip)


def render_lesson(lesson):
    """Drive every question of `lesson` on each parameter set; the strings returned are collected by the
    watch the caller holds on."""
    key = load_key(lesson)
    book = [None] if parameter_sets(lesson) == [None] else parameter_sets(lesson)
    for params in book:
        module = _module(lesson)
        if params is not None:  # what a variant's draw checks (its untold slips): a kept draw skips it, so driven here
            if WATCH[0] is not None:  # every question of the variant at once: no one question's unit to hold them to
                WATCH[0].unit, WATCH[0].grants = "", None
            _quiet(space_for(lesson).problems, params)
        want_of = _quiet(module.answers, params) if params is not None and hasattr(module, "answers") else None
        want_of = want_of or key
        for q in questions_for(lesson, params):
            if isinstance(q, (Design, Choice)) and (params is None or params == book[0]):
                if WATCH[0] is not None:  # a word answer, or a design's: its labels and carried answers
                    WATCH[0].unit, WATCH[0].grants = q.unit_of(), text_grants(lesson, q.name)
                drive_labels(q)
            if isinstance(q, (Design, Written, Choice)):
                continue
            if WATCH[0] is not None:
                WATCH[0].unit = (q.result if isinstance(q, Function) and q.result is not None else q).unit_of()
                WATCH[0].grants = text_grants(lesson, q.name)
            if params is None or params == book[0]:
                drive_undo(q, lesson)
                drive_own_work(q)
            if isinstance(q, Function):
                if params is None or params == book[0]:
                    drive_function(q, lesson)
                    drive_typed_in_function(q, lesson)
                continue
            want = want_of.get(q.name)
            if isinstance(want, dict) and "hex" in want:
                want = data_to_array(want)
            drive_value(q, want, lesson, {k: v for k, v in key.items()}, full=params is None or params == book[0])
            if params is None or params == book[0]:
                drive_given(lesson, q.name, key, q)
                drive_elsewhere(lesson, q)
                drive_counterfactual(q, want, lesson)
    if WATCH[0] is not None:  # notes on many questions at once: no one question's text
        WATCH[0].grants = None
    drive_carried(lesson)


def _module(lesson):
    import importlib

    return importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")


# --------------------------------------------------------------------------
# The tests


LESSONS = known_lessons()
_SEEN: dict = {}
WATCH = [None]  # the watch on, for drivers that record words a builder puts into a structure


def seen_in(lesson) -> dict:
    if lesson not in _SEEN:
        with Watch() as watch, np.errstate(all="ignore"):
            WATCH[0] = watch
            try:
                render_lesson(lesson)
            finally:
                WATCH[0] = None
        _SEEN[lesson] = watch.seen
    return _SEEN[lesson]


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_code_built_hint_renders_whole(lesson):
    bad = []
    for function, said in seen_in(lesson).items():
        for w, unit, grants in said:
            for problem in hint_problems(w, unit, diagnose.UNITLESS, grants):
                bad.append((function, problem, w[:160]))
    assert not list(dict.fromkeys(bad)), "\n".join(map(str, dict.fromkeys(bad)))


def test_every_hint_builder_is_reached():
    """Every function of the hint modules that writes a hint's words into an f-string returned words while the
    lessons' questions were driven (a new builder fails here until a driver reaches it)."""
    reached = set()
    for lesson in LESSONS:
        reached |= set(seen_in(lesson))
    missing = [name for name in hint_builders() if name not in reached]
    assert not missing, missing
