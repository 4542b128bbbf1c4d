"""Systematic mutants of every solution's answer cells, graded as the notebook check grades a learner's cell.

A mutant is the solution's own lines of one answer cell (those between `# BEGIN SOLUTION` and `# END SOLUTION`)
with exactly one change of one kind (KINDS): a binary operator swapped, `/` for `//` or back, a constant ±1,
one term of a sum dropped, two names swapped, axis 0 for 1 or back, a sort reversed, a value rounded early,
10⁹ for 2³⁰ or back, `.T` added or removed, an argument of a function replaced by a constant. It is run as
tests/hint_corpus/check_wrong.py runs a corpus entry (the solution's cells above, the exercise's own lines of the
answer cell, then the mutant), and judged by the notebook's own check (`Exercise.verdict`, the answer cell in
IPython's history), the path a learner's check takes.

Each verdict is sorted (`classify`):

* equal: the mutant computes the solution's value (on every input, for a function): nothing to hint;
* coincidence: the mutant computes the solution's value on the book's inputs only (a branch the book does not
  take: fp32's bytes changed where the book's cache is bf16), and the check refuses it on other inputs, as it must;
* accepted: a mutant that computes another value, marked right (a wrong answer accepted);
* specific / generic: the hint names a cause, or only says which way and how far (diagnose.direction_only);
* contradicting: the hint blames a construct of the code (CLAIMS: `//`, round, × 100, a transpose, an axis,
  a sort, an index moved by one, an argument never read, operator precedence, a unit constant, random numbers)
  that the mutation did not touch: the construct reads the same in the mutant and in the (right) solution, so
  putting it "right" as the hint says cannot be what makes the answer right. That is a slip claimed whose
  counterfactual fails, the issue-46 kind of misleading hint;
* garbled: the hint fails the rendering reader (text.hint_problems: a placeholder, an empty slot, a doubled word).

benchmarks/hint_mutations.py prints the figures per lesson; tests/test_hint_mutations.py holds a sample to
no garbled and no contradicting hint.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import random
import re
from dataclasses import dataclass

import numpy as np

from hint_corpus import Wrong, check_wrong

from embedlab.grading import diagnose
from embedlab.grading.exercise import Exercise
from embedlab.grading.kinds import Choice, Design, Function, Written
from embedlab.grading.lessons import known_lessons, questions_for
from embedlab.grading.status import CORRECT
from embedlab.grading.text import hint_problems

KINDS = ("binop", "floordiv", "const", "drop_term", "swap_names", "axis", "sort", "round_early", "giga",
         "transpose", "arg_const")


@dataclass(frozen=True)
class Mutant:
    lesson: str
    name: str
    kind: str
    where: str      # the piece changed, as written in the solution, and what it became
    source: str     # the learner's lines: the mutant (a whole def for a function)
    signatures: tuple = ()  # (family, the construct in the solution, in the mutant) per CLAIMS family


# --------------------------------------------------------------------------
# The solution's answer cells


def answer_cells(lesson: str) -> dict:
    """{name: the solution's answer cell} of a lesson's questions."""
    cells = check_wrong._code_cells("solutions", lesson)
    return {name: cells[i] for name, i in check_wrong._answer_positions(cells).items()}


def solution_lines(cell: str) -> tuple[str, bool]:
    """(the learner's part of a solution cell, whether it is a function): the lines between the markers, or
    the whole def with the marker lines left out."""
    lines = cell.split("\n")
    marks = [i for i, line in enumerate(lines) if line.strip() in ("# BEGIN SOLUTION", "# END SOLUTION")]
    if len(marks) < 2:
        return "", False
    begin, end = marks[0], marks[-1]
    head = "\n".join(lines[:begin])
    if re.search(r"^def \w+\(", head, re.M) and lines[begin].startswith((" ", "\t")):
        start = max(i for i, line in enumerate(lines[:begin]) if line.startswith("def "))
        return "\n".join(lines[start:begin] + lines[begin + 1:end] + lines[end + 1:]).rstrip() + "\n", True
    return "\n".join(lines[begin + 1:end]) + "\n", False


# --------------------------------------------------------------------------
# The mutations: each a list of (where, changed tree)


_SWAP = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.Pow: ast.Mult}
GIGA = {10**9: ("2**30", "2 ** 30"), 2**30: ("10**9", "10 ** 9")}


def _seg(node) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # noqa: BLE001
        return "?"


def _nodes(tree, only_body: bool):
    """The nodes a mutation may change: in a function, those of its body only (never its def line)."""
    if only_body:
        fn = next((n for n in tree.body if isinstance(n, ast.FunctionDef)), None)
        if fn is None:
            return []
        return [n for stmt in fn.body for n in ast.walk(stmt)]
    return list(ast.walk(tree))


def _variants(tree, only_body: bool):
    """Every single-change mutant of `tree`: (kind, where, new tree)."""
    out = []
    count = len(_nodes(tree, only_body))

    def each(kind, test, change):
        for k in range(count):
            node = _nodes(tree, only_body)[k]
            if not test(node):
                continue
            for where, make in change(node):
                new = copy.deepcopy(tree)
                target = _nodes(new, only_body)[k]
                try:
                    replaced = make(target)
                    if replaced is not None:  # the node replaced in its parent
                        _replace(new, target, replaced)
                    ast.fix_missing_locations(new)
                    out.append((kind, where, new))
                except Exception:  # noqa: BLE001 - a change that does not fit this node
                    continue

    def binop(node):
        op = type(node.op)
        if op not in _SWAP:
            return []
        new = _SWAP[op]
        return [(f"{_seg(node)}: {op.__name__} -> {new.__name__}", lambda t: setattr(t, "op", new()))]
    each("binop", lambda n: isinstance(n, ast.BinOp), binop)

    def floordiv(node):
        if isinstance(node.op, ast.Div):
            return [(f"{_seg(node)}: / -> //", lambda t: setattr(t, "op", ast.FloorDiv()))]
        if isinstance(node.op, ast.FloorDiv):
            return [(f"{_seg(node)}: // -> /", lambda t: setattr(t, "op", ast.Div()))]
        return []
    each("floordiv", lambda n: isinstance(n, ast.BinOp), floordiv)

    def const(node):
        v = node.value
        return [(f"{v!r} -> {v + d!r}", lambda t, d=d: setattr(t, "value", t.value + d)) for d in (1, -1)]
    each("const", lambda n: isinstance(n, ast.Constant) and type(n.value) in (int, float) and n.value not in GIGA,
         const)

    def drop(node):
        return [(f"{_seg(node)} -> {_seg(node.left)}", lambda t: t.left),
                (f"{_seg(node)} -> {_seg(node.right)}", lambda t: t.right)]
    each("drop_term", lambda n: isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub)), drop)

    def swap(node):
        names = [n for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        ids = list(dict.fromkeys(n.id for n in names))
        if len(ids) < 2:
            return []
        a, b = ids[0], ids[1]

        def make(t):
            for n in ast.walk(t):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in (a, b):
                    n.id = b if n.id == a else a
        return [(f"{_seg(node)}: {a} <-> {b}", make)]
    each("swap_names", lambda n: isinstance(n, ast.BinOp) and not isinstance(n.left, ast.BinOp), swap)

    def axis(node):
        return [(f"axis={node.value.value} -> {1 - node.value.value}",
                 lambda t: setattr(t.value, "value", 1 - t.value.value))]
    each("axis", lambda n: isinstance(n, ast.keyword) and n.arg == "axis" and isinstance(n.value, ast.Constant)
         and n.value.value in (0, 1), axis)

    def sort(node):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice) and _seg(node.slice) == "::-1":
            return [(f"{_seg(node)}: [::-1] removed", lambda t: t.value)]
        if isinstance(node, ast.Call) and _callee(node) in ("argsort", "sort", "sorted"):
            if any(k.arg == "reverse" for k in node.keywords):
                return [(f"{_seg(node)}: reverse flipped", lambda t: [setattr(k.value, "value", not k.value.value)
                                                                      for k in t.keywords if k.arg == "reverse"]
                         and None)]
            return [(f"{_seg(node)}: reversed", lambda t: ast.Subscript(
                value=t, slice=ast.Slice(step=ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1))), ctx=ast.Load()))]
        return []
    each("sort", lambda n: isinstance(n, (ast.Subscript, ast.Call)), sort)

    def round_early(node):
        return [(f"{_seg(node.value)} rounded to 2 places",
                 lambda t: setattr(t, "value", ast.Call(func=ast.Name("round", ast.Load()),
                                                        args=[t.value, ast.Constant(2)], keywords=[])))]
    each("round_early", lambda n: isinstance(n, (ast.Assign, ast.Return)) and n.value is not None
         and isinstance(n.value, ast.BinOp), round_early)

    def giga(node):
        v = node.value
        return [(f"{v!r} -> {GIGA[v][0]}", lambda t: ast.parse(GIGA[v][0], mode="eval").body)]
    each("giga", lambda n: isinstance(n, ast.Constant) and type(n.value) in (int, float) and n.value in GIGA, giga)

    def giga_pow(node):
        v = 2**30 if _seg(node).replace(" ", "") in ("2**30", "1024**3") else 10**9
        return [(f"{_seg(node)} -> {GIGA[v][0]}", lambda t: ast.parse(GIGA[v][0], mode="eval").body)]
    each("giga", lambda n: isinstance(n, ast.BinOp) and _seg(n).replace(" ", "") in ("2**30", "1024**3", "10**9"),
         giga_pow)

    def transpose(node):
        if isinstance(node, ast.Attribute) and node.attr == "T":
            return [(f"{_seg(node)}: .T removed", lambda t: t.value)]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            return [(f"{_seg(node)}: .T added on the right", lambda t: setattr(
                t, "right", ast.Attribute(value=t.right, attr="T", ctx=ast.Load())))]
        return []
    each("transpose", lambda n: isinstance(n, (ast.Attribute, ast.BinOp)), transpose)

    if only_body:
        fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef))
        for arg in [a.arg for a in fn.args.args]:
            new = copy.deepcopy(tree)
            hit = False
            for stmt in next(n for n in new.body if isinstance(n, ast.FunctionDef)).body:
                for n in ast.walk(stmt):
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id == arg:
                        _replace(new, n, ast.Constant(3))
                        hit = True
                        break
                if hit:
                    break
            if hit:
                ast.fix_missing_locations(new)
                out.append(("arg_const", f"the first read of `{arg}` -> 3", new))
    # the kinds that name a construct first: a change two kinds make (axis=1 -> 0 is also a constant - 1) is
    # counted under the construct's kind
    order = {k: i for i, k in enumerate(("floordiv", "axis", "sort", "giga", "transpose", "round_early", "arg_const",
                                         "binop", "drop_term", "swap_names", "const"))}
    return sorted(out, key=lambda item: order[item[0]])


def _callee(call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _replace(tree, old, new) -> None:
    for parent in ast.walk(tree):
        for fname, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, fname, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return
    raise LookupError("node not found")


def mutants(lesson: str, names=None) -> list[Mutant]:
    """Every single-change mutant of the lesson's value and function answers (not its choices, designs or
    written answers), each distinct source once."""
    questions = {q.name: q for q in questions_for(lesson)}
    out = []
    for name, cell in answer_cells(lesson).items():
        q = questions.get(name)
        if q is None or isinstance(q, (Choice, Design, Written)) or (names and name not in names):
            continue
        own, is_def = solution_lines(cell)
        if not own.strip():
            continue
        try:
            tree = ast.parse(own)
        except SyntaxError:
            continue
        solution = ast.unparse(tree) + "\n"
        seen = {solution}
        for kind, where, new in _variants(tree, is_def):
            try:
                text = ast.unparse(new) + "\n"
            except Exception:  # noqa: BLE001
                continue
            if text in seen:
                continue
            seen.add(text)
            out.append(Mutant(lesson, name, kind, where, text, _signatures(solution, text)))
    return out


def sample(items: list, per_kind: int, seed: int = 0) -> list:
    """At most `per_kind` mutants of each (lesson, kind), drawn with a fixed seed."""
    rng = random.Random(seed)
    by = {}
    for m in items:
        by.setdefault((m.lesson, m.kind), []).append(m)
    out = []
    for key in sorted(by):
        group = by[key]
        out += group if len(group) <= per_kind else rng.sample(group, per_kind)
    return out


# --------------------------------------------------------------------------
# Claims of a construct of the code, and how the construct reads in a source


def _family_nodes(tree, family):
    for n in ast.walk(tree):
        if family == "floor" and isinstance(n, ast.BinOp) and isinstance(n.op, ast.FloorDiv):
            yield _seg(n)
        elif family == "round" and isinstance(n, ast.Call) and _callee(n) in ("round", "around", "rint", "floor",
                                                                              "ceil"):
            yield _seg(n)
        elif family == "percent" and isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Mult, ast.Div)) and any(
                isinstance(s, ast.Constant) and s.value == 100 for s in (n.left, n.right)):
            yield _seg(n)
        elif family == "transpose" and ((isinstance(n, ast.Attribute) and n.attr == "T")
                                        or (isinstance(n, ast.Call) and _callee(n) == "transpose")):
            yield _seg(n)
        elif family == "axis" and isinstance(n, ast.keyword) and n.arg == "axis":
            yield _seg(n)
        elif family == "sort" and ((isinstance(n, ast.Call) and _callee(n) in ("sort", "argsort", "sorted"))
                                   or (isinstance(n, ast.Slice) and _seg(n) == "::-1")):
            yield _seg(n)
        elif family == "random" and isinstance(n, ast.Call) and _callee(n) in ("default_rng", "standard_normal",
                                                                               "normal", "rand", "randn",
                                                                               "random", "integers"):
            yield _seg(n)
        elif family == "shift" and isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub)) and any(
                isinstance(s, ast.Constant) and s.value == 1 for s in (n.left, n.right)):
            yield _seg(n)
        elif family == "precedence" and isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub, ast.Mult)) \
                and isinstance(n.left, ast.BinOp) and isinstance(n.left.op, ast.Div):
            yield _seg(n)
        elif family == "units" and isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Mult, ast.Div)) and any(
                _seg(s).replace(" ", "") in UNIT_CONSTANTS for s in (n.left, n.right)):
            yield f"{type(n.op).__name__} {_seg(n.right)}"
        elif family == "unused" and isinstance(n, ast.FunctionDef):
            # an argument never named, or one whose first use assigns it a new value (the value passed in
            # is then never read: the grader's own reading, function_hints._overwritten_first)
            from embedlab.grading.function_hints import _overwritten_first

            read = {x.id for stmt in n.body for x in ast.walk(stmt) if isinstance(x, ast.Name)}
            args = [a.arg for a in n.args.args]
            overwritten = _overwritten_first(n.body, args)
            yield from (a for a in args if a not in read or a in overwritten)


UNIT_CONSTANTS = {"1e9", "1000000000.0", "1000000000", "10**9", "2**30", "1024**3", "1073741824", "1e6", "10**6",
                  "2**20", "1024**2", "1024", "1e3", "1000", "8", "100", "1e12", "10**12", "3600"}

# A hint's words that claim a construct of the learner's code is the slip (the family whose construct it is).
CLAIMS = {
    "floor": ("divides with `//`", "`//` (floor division)", "rounds down to a whole number"),
    "round": ("your code rounds", "rounded to ", "round(...)"),
    "percent": ("multiplies by 100", "a percentage: give the fraction"),
    "transpose": ("transposed", "transpose", ".T "),
    "axis": ("passes an axis", "axis=0 where", "axis=1 where"),
    "sort": ("sort highest first", "sorted the wrong way", "lowest first", "reversed order", "in reverse"),
    "random": ("draws random numbers",),
    "shift": ("moves an index by one", "off-by-one"),
    "precedence": ("operator precedence",),
    "unused": ("never reads its argument",),
}


def _signatures(solution: str, mutant: str) -> tuple:
    out = []
    for family in CLAIMS:
        try:
            a = sorted(_family_nodes(ast.parse(solution), family))
            b = sorted(_family_nodes(ast.parse(mutant), family))
        except SyntaxError:
            continue
        out.append((family, tuple(a), tuple(b)))
    return tuple(out)


def contradicting(m: Mutant, detail: str) -> list[str]:
    """The families of construct the hint blames that the mutation left as the solution writes them."""
    text = detail.lower()
    out = []
    for family, before, after in m.signatures:
        if before == after and any(w.lower() in text for w in CLAIMS[family]):
            out.append(family)
    return out


# --------------------------------------------------------------------------
# Running and judging a mutant


class TookTooLong(Exception):
    """A mutant that runs past MUTANT_SECONDS (a loop whose bound a mutation changed)."""


MUTANT_SECONDS = 20


@contextlib.contextmanager
def time_box(seconds: float = MUTANT_SECONDS):
    """Raise TookTooLong in the main thread after `seconds` (SIGALRM; nothing on a platform without it)."""
    import signal

    if not hasattr(signal, "setitimer"):
        yield
        return

    def stop(*_):
        raise TookTooLong()
    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def run(m: Mutant):
    """(the namespace the mutant leaves, the learner's answer cell) or raises as the mutant does."""
    entry = Wrong(m.lesson, m.name, m.source, m.kind, ())
    with contextlib.redirect_stdout(io.StringIO()), np.errstate(all="ignore"), time_box():
        _, ns = check_wrong.run_entry(entry)
    prelude = check_wrong.exercise_prelude(m.lesson, m.name)
    cell = (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + m.source
    return ns, cell


def same_as_solution(m: Mutant, ns: dict) -> bool:
    """Does the mutant compute the solution's value, as the check's precision sees it (whole numbers and words
    exactly, floats and arrays to 1 part in 10⁹; a function: the same result on every input of check_wrong's list)?"""
    entry = Wrong(m.lesson, m.name, m.source, m.kind, ())
    with contextlib.redirect_stdout(io.StringIO()), np.errstate(all="ignore"), time_box():
        want, _ = check_wrong.solution_value(m.lesson, m.name)
        if callable(want):
            verdict, _ = check_wrong._judge(entry)  # every input, to 1 part in 10⁹
            return verdict == "CORRECT"
        return check_wrong._same(ns[m.name], want, rel=1e-9)


def judge(m: Mutant) -> dict:
    """{'class': equal|accepted|specific|generic|raised|error, 'detail', 'contradicting': [...],
    'garbled': [...]} for one mutant, judged by the notebook's check."""
    try:
        ns, cell = run(m)
    except Exception as exc:  # noqa: BLE001 - the mutant raises in the learner's kernel: no value to hint
        return {"class": "raised", "detail": f"{type(exc).__name__}", "contradicting": [], "garbled": []}
    ns["_ih"] = ["", cell]
    try:
        with contextlib.redirect_stdout(io.StringIO()), np.errstate(all="ignore"), time_box(4 * MUTANT_SECONDS):
            verdict = Exercise(m.lesson).verdict(m.name, ns)
    except Exception as exc:  # noqa: BLE001 - the check itself failed: reported
        return {"class": "error", "detail": repr(exc)[:200], "contradicting": [], "garbled": []}
    detail = verdict.detail or ""
    try:
        equal = same_as_solution(m, ns)
    except Exception:  # noqa: BLE001
        equal = False
    if verdict.status == CORRECT:
        kind = "equal" if equal else "accepted"
    elif equal:
        kind = "coincidence"
    elif generic(detail):
        kind = "generic"
    else:
        kind = "specific"
    q = next(q for q in questions_for(m.lesson) if q.name == m.name)
    unit = (q.result if isinstance(q, Function) and q.result is not None else q).unit_of()
    garbled = hint_problems(detail, unit, diagnose.UNITLESS) if detail else []
    return {"class": kind, "detail": detail, "contradicting": contradicting(m, detail) if detail else [],
            "garbled": garbled}


def generic(detail: str) -> bool:
    """Only which way and how far (diagnose.DIRECTION_ONLY), said of the value or of a function's failing call
    ("on input 2 of 5, f(…) returned 7: too big …"), or nothing."""
    text = detail.strip()
    return not text or diagnose.direction_only(text) or any(f": {w}" in text for w in diagnose.DIRECTION_ONLY)


def lessons() -> list[str]:
    return known_lessons()
