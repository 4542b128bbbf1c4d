"""Do a question's inputs tell the right formula from plausible wrong ones?  The formula-mutation audit.

    .venv/bin/python tools/formula_audit.py [LESSON ...] [--all]

For every value question (an int or a float) of every lesson, the solution's answer cell is
parsed (ast) and read as a program over its *leaves*: the numbers it reads (a parameter, a name
an earlier line set, `shape.hidden_size`, `c.total`, `config["vocab_size"]`, a call such as
`count_params(...).total`). Wrong formulas are then made mechanically from the lines the learner
writes (those between `# BEGIN SOLUTION` and `# END SOLUTION`):

* drop one additive term (`a + b` -> `a`, `b`), or a factor (`a * b` -> `a`, `b`);
* replace one number read by another of the cell's scope: any other number the namespace holds
  (a parameter, an earlier answer), a field of a config or shape the cell reads (the config's field
  for the computed one and back), k times another (`d_ff` -> `4 * d`), one divided by another
  (`head_dim` -> `d // h`), the number plus or minus one (`L` -> `L + 1`);
* replace a constant (2 <-> 1, 4 <-> 3, 12 <-> 8, c ± 1, 2c, c / 2);
* swap an operator (`//` <-> `/`, `+` <-> `-`, `%` -> `//`), drop a parenthesis (precedence:
  `(a + b) * c` -> `a + b * c`), drop a call of `max`/`min`/`int`/`round` for one argument;
* the remainder forms of a rounding: a sub-expression using `//` or `%` on two numbers X and m
  replaced by `m - X % m`, `X % m`, `(X // m + 1) * m - X`, `(X // m + 1) * m`.

Each mutant is evaluated on the question's inputs in the book's variant and in every class variant
its space draws (the cell's given lines run in the solution's namespace with that variant's
parameters: one solution run per lesson, cached), and on random inputs (every leaf drawn at
random; the names that read one field share its value). A mutant that equals the key on every
random input is equivalent (a commutation), not wrong. One that differs on random inputs but
that the question *accepts* (same value, and its `recheck` does not catch it) on some variant's
inputs is INSEPARABLE: those inputs cannot tell the wrong formula from the right one.

A cell that is not arithmetic over its leaves (a loop, arrays) is listed as `not read`, with the
reason; the tests keep that list to the questions that are not formulas of numbers.
Prints a table: questions x mutants x inseparable, then each inseparable mutant with its inputs.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import functools
import importlib
import io
import math
import re
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

# nbformat imports jsonschema, which imports rfc3987_syntax where installed: some forty parsers built
# on import, about 3 s of CPU, for two format checks no notebook's schema uses. Run as a script, the
# audit leaves it out as the test command does (embedlab._test_command's docstring).
sys.modules.setdefault("rfc3987_syntax", None)
import nbformat  # noqa: E402
import numpy as np

ROOT = Path(__file__).resolve().parent.parent

BEGIN, END = "# BEGIN SOLUTION", "# END SOLUTION"
CONSTANT_SWAPS = {1: (2,), 2: (1, 3, 4), 3: (2, 4), 4: (3, 2, 8), 6: (2, 4, 8), 8: (4, 12, 6), 12: (8, 13, 6),
                  13: (12,), 100: (1,), 0.5: (1, 0.25), 1e9: (2**30,), 2**30: (1e9,), 1e6: (2**20,)}
FACTORS = (2, 3, 4)
N_RANDOM = 4
DRAWS = 40          # class variants drawn per lesson (each pool's items all come up: pools hold <= 36)
# lessons whose `problems` trains or tokenises to vet a variant: fewer draws (their formulas read few parameters)
DRAWS_OF = {"08": 12, "09": 4, "10": 4, "12": 16}
FEW_DRAWS = 8
# A cell that trains or tokenises is read on the book's inputs, its leaves drawn at random. What marks
# one is the number of calls it makes (Python and C functions, counted by a profile hook), not the
# seconds it takes: seconds depend on the machine and its load, and a cell read one way on an idle
# machine and the other way on a busy one gave the audit two verdicts. The counts of the cells the
# audit reads fall in two groups, with caches cold or warm: at most ~9,000 (arithmetic, a config
# read) and at least ~75,000 (a model trained, a tokenizer run); the bound sits between them.
SLOW_CELL = 30_000  # calls


# --------------------------------------------------------------------------- the solution, run once

def code_cells(lesson: str) -> tuple:
    nb = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    return tuple(c.source for c in nb.cells if c.cell_type == "code")


def _check_of(src: str):
    m = re.fullmatch(r"""\s*ex\.check\(\s*["']([A-Za-z_]\w*)["']\s*\)\s*""", src)
    return m.group(1) if m else None


def _parameters_index(cells) -> int:
    return next(i for i, s in enumerate(cells) if s.lstrip().startswith("# Parameters"))


@functools.lru_cache(maxsize=None)
def book_run(lesson: str) -> dict:
    """{question: (index of its answer cell, a copy of the namespace before that cell, one after it,
    the calls the cell made, see SLOW_CELL)}: the solution's code cells run once, in order, check
    and summary cells left out."""

    cells = code_cells(lesson)
    positions = {_check_of(s): i - 1 for i, s in enumerate(cells) if _check_of(s)}
    ns, out = {"__name__": "__audit__"}, {}
    stops = {i: name for name, i in positions.items()}
    with _quiet():
        for i, src in enumerate(cells):
            if "ex.check(" in src or "ex.summary(" in src:
                continue
            before = dict(ns)
            code = compile(src, f"<{lesson} cell {i}>", "exec")
            if i in stops:
                calls = _calls_of(code, ns)
                out[stops[i]] = (i, before, dict(ns), calls)
            else:
                exec(code, ns)  # noqa: S102 - our own solution
    return out


def _calls_of(code, ns: dict) -> int:
    """Runs `code` in `ns` and counts the calls it makes, up to just past SLOW_CELL (then the hook
    stops: a cell that trains is not slowed down further by counting)."""
    count = 0

    def hook(frame, event, arg):
        nonlocal count
        if event in ("call", "c_call"):
            count += 1
            if count > SLOW_CELL:
                sys.setprofile(None)
    sys.setprofile(hook)
    try:
        exec(code, ns)  # noqa: S102 - our own solution
    finally:
        sys.setprofile(None)
    return count


@contextlib.contextmanager
def _quiet():
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# --------------------------------------------------------------------------- reading a cell as a program

PURE_CALLS = {"max", "min", "abs", "int", "round", "float", "ceil", "floor", "padded_size"}
ARITH_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def _number(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))


def _pure_call(node) -> bool:
    if not isinstance(node, ast.Call) or node.keywords:
        return False
    f = node.func
    if isinstance(f, ast.Name):
        return f.id in PURE_CALLS
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in ("math", "np") \
        and f.attr in ("ceil", "floor")


class NotArithmetic(Exception):
    pass


def _padded_size(n, m):
    return -(-n // m) * m


RUN_GLOBALS = {"math": math, "np": np, "padded_size": _padded_size, "__builtins__": {
    "max": max, "min": min, "abs": abs, "int": int, "round": round, "float": float}}


class Program:
    """A cell's arithmetic statements over its leaves; compiled to `f(_L)` for a leaf table."""

    def __init__(self, stmts: list, locals_: set, leaves: set, name: str):
        self.stmts, self.locals, self.leaves, self.name = stmts, locals_, leaves, name

    def compile(self, stmts=None):
        body = []
        for s in (stmts or self.stmts):
            body.append(_LeafToTable(self.locals).visit(copy.deepcopy(s)))
        body.append(ast.Return(value=ast.Name(id=self.name, ctx=ast.Load())))
        fn = ast.FunctionDef(name="_f", args=ast.arguments(posonlyargs=[], args=[ast.arg(arg="_L")], vararg=None,
                                                           kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
                             body=body, decorator_list=[], returns=None, type_params=[])
        mod = ast.fix_missing_locations(ast.Module(body=[fn], type_ignores=[]))
        g = dict(RUN_GLOBALS)
        exec(compile(mod, "<mutant>", "exec"), g)  # noqa: S102 - arithmetic over a table of numbers
        return g["_f"]


class _LeafToTable(ast.NodeTransformer):
    """Leaves (anything not arithmetic, not a local) read from the table `_L` by their source."""

    def __init__(self, locals_):
        self.locals = locals_

    def generic_visit(self, node):
        return super().generic_visit(node)

    def visit_Assign(self, node):
        node.value = self.visit(node.value)
        return node

    def visit(self, node):
        if isinstance(node, (ast.Assign, ast.Module)):
            return super().visit(node)
        if isinstance(node, ast.Constant) or (isinstance(node, ast.Name) and node.id in self.locals):
            return node
        if _pure_call(node):
            node.args = [self.visit(a) for a in node.args]
            return node
        if isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Tuple)):
            return self.generic_visit(node)
        if isinstance(node, ast.expr_context) or isinstance(node, (ast.operator, ast.unaryop)):
            return node
        return ast.Subscript(value=ast.Name(id="_L", ctx=ast.Load()), slice=ast.Constant(ast.unparse(node)),
                             ctx=ast.Load())


def _leaf_nodes(expr, locals_):
    """The leaf sub-expressions of an arithmetic expression (raises NotArithmetic on anything else)."""
    out = []

    def walk(n):
        if isinstance(n, ast.Constant):
            if not _number(n.value):
                raise NotArithmetic(f"constant {n.value!r}")
            return
        if isinstance(n, ast.Name) and n.id in locals_:
            return
        if isinstance(n, ast.BinOp):
            if not isinstance(n.op, ARITH_OPS):
                raise NotArithmetic(type(n.op).__name__)
            walk(n.left), walk(n.right)
            return
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            walk(n.operand)
            return
        if isinstance(n, ast.Tuple):
            for e in n.elts:
                walk(e)
            return
        if _pure_call(n):
            for a in n.args:
                walk(a)
            return
        if isinstance(n, (ast.Lambda, ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp, ast.NamedExpr)):
            raise NotArithmetic(type(n).__name__)
        out.append(n)
    walk(expr)
    return out


def _targets(t):
    if isinstance(t, ast.Name):
        return [t.id]
    if isinstance(t, (ast.Tuple, ast.List)):
        return [x for e in t.elts for x in _targets(e)]
    raise NotArithmetic("target")


def solution_span(source: str) -> tuple[int, int]:
    lines = source.splitlines()
    b = next((i for i, l in enumerate(lines) if l.strip() == BEGIN), None)
    e = next((i for i, l in enumerate(lines) if l.strip() == END), None)
    if b is None or e is None:
        raise NotArithmetic("no solution block")
    return b + 2, e  # 1-based line numbers of the first and last solution line


@dataclass
class Cell:
    lesson: str
    name: str
    source: str
    tree: ast.Module
    span: tuple
    program: Program
    mutable: list       # indexes (in program.stmts) of the learner's statements
    leaves: list        # leaf sources of the original program
    scope: list         # other leaf sources a mutant may read instead
    field: dict         # leaf source -> the field it reads (aliases share a random value)
    reads: set          # the parameters the cell (and the cells it needs) read
    env: dict = field(default_factory=dict)  # the namespace after the cell, on the book's inputs
    cost: int = 0       # calls the cell makes (SLOW_CELL): one that trains a model is read on the book's inputs


def read_cell(lesson: str, name: str, after: dict, source: str, cost: int = 0) -> Cell:
    """The answer cell of `name` as a Program (raises NotArithmetic when it is not one): its leaves
    read in `after`, the namespace the cell left (a name it sets twice is caught below: the program
    must give the cell's own answer)."""
    tree = ast.parse(source)
    span = solution_span(source)
    if tree.body and isinstance(tree.body[0], ast.FunctionDef):
        raise NotArithmetic("a function")
    env = after
    locals_, stmts, mutable, leaves = set(), [], [], []
    field_of = {}
    with _quiet():
        for stmt in tree.body:
            learner = span[0] <= stmt.lineno <= span[1]
            arith = False
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                try:
                    found = _leaf_nodes(stmt.value, locals_)
                    values = [eval(compile(ast.Expression(n), "<leaf>", "eval"), env) for n in found]  # noqa: S307
                    arith = all(_number(v) for v in values)
                    targets = _targets(stmt.targets[0])
                    if isinstance(stmt.targets[0], ast.Tuple) and not isinstance(stmt.value, ast.Tuple):
                        arith = False
                except NotArithmetic:
                    arith = False
                except Exception:  # noqa: BLE001 - a leaf that does not evaluate: not arithmetic
                    arith = False
                if arith:
                    for n in found:
                        leaves.append(ast.unparse(n))
                    if isinstance(stmt.targets[0], ast.Tuple):  # d, h = shape.hidden_size, shape.num_heads
                        for t, v in zip(stmt.targets[0].elts, stmt.value.elts):
                            if isinstance(t, ast.Name):
                                field_of[t.id] = _field(v, field_of)
                    elif isinstance(stmt.targets[0], ast.Name):
                        field_of[stmt.targets[0].id] = _field(stmt.value, field_of)
            if arith:
                if learner:
                    mutable.append(len(stmts))
                stmts.append(stmt)
                locals_.update(_targets(stmt.targets[0]))
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                # a non-arithmetic statement: the names it sets are leaves read from the namespace
                for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
                    for n in _targets(t) if not isinstance(t, ast.Attribute | ast.Subscript) else []:
                        locals_.discard(n)
                        field_of[n] = _field(stmt.value, field_of) if isinstance(stmt, ast.Assign) else n
    if name not in locals_ or not any(name in _targets(stmts[i].targets[0]) for i in mutable):
        raise NotArithmetic("its answer is not a formula of numbers")
    program = Program(stmts, set(locals_), set(leaves), name)
    # the original program reads its own value back
    table = leaf_table(program, env, [])
    got = program.compile()(table)
    if not _same(got, env[name]):
        raise NotArithmetic(f"read as arithmetic it gives {got!r}, the cell {env[name]!r}")
    # the scope: every other number in the namespace, every numeric field of the objects the cell reads
    scope = []
    read_names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    for k, v in env.items():
        if k.startswith("_") or k in locals_ or k in ("In", "Out") or not _number(v) or k not in read_names:
            continue
        scope.append(k)
    objects = {n.id for s in stmts for n in ast.walk(s) if isinstance(n, ast.Name)} | {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    for obj in sorted(objects):
        value = env.get(obj)
        if isinstance(value, dict) and len(value) <= 64:
            for k, v in value.items():
                if isinstance(k, str) and _number(v):
                    scope.append(f"{obj}[{k!r}]")
                    field_of[f"{obj}[{k!r}]"] = k
        elif value is not None and hasattr(value, "__dataclass_fields__"):
            for k in value.__dataclass_fields__:
                if not k.startswith("_") and _number(getattr(value, k, None)):
                    scope.append(f"{obj}.{k}")
                    field_of[f"{obj}.{k}"] = k
    cells = "\n".join(code_cells(lesson))
    for leaf in leaves:
        m = re.fullmatch(r"len\((\w+)\)", leaf)  # len(top) where top = list(...)[:n_top] reads n_top
        cut = m and re.search(rf"^{m.group(1)}\s*=.*\[:\s*(\w+)\]", cells, re.M)
        if cut:
            field_of[leaf] = field_of.get(cut.group(1), cut.group(1))
        field_of.setdefault(leaf, _field(ast.parse(leaf, mode="eval").body, field_of))
    for s in scope:
        field_of.setdefault(s, s)
    reads = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return Cell(lesson, name, source, tree, span, program, mutable, sorted(set(leaves)),
                [s for s in dict.fromkeys(scope) if s not in leaves], field_of, reads, env, cost)


def _field(node, field_of: dict) -> str:
    """The field a leaf reads: `shape.vocab_size` and V = shape.vocab_size both read vocab_size."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return str(node.slice.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and node.args and isinstance(node.args[0], ast.Constant):
        return str(node.args[0].value)  # config.get("head_dim", …)
    if isinstance(node, ast.Name):
        return field_of.get(node.id, node.id)
    return ast.unparse(node)


def _same(a, b, rel=1e-9) -> bool:
    try:
        return a == b or math.isclose(float(a), float(b), rel_tol=rel, abs_tol=1e-12)
    except (TypeError, ValueError, OverflowError):
        return False


def leaf_table(program: Program, env: dict, scope: list) -> dict:
    out = {}
    with _quiet():
        for src in sorted(program.leaves) + list(scope):  # one order in every process (random draws follow it)
            try:
                v = eval(src, dict(env))  # noqa: S307 - our own cell's expressions
            except Exception:  # noqa: BLE001
                continue
            if _number(v):
                out[src] = v.item() if isinstance(v, np.generic) else v
    return out


# --------------------------------------------------------------------------- mutants

@dataclass
class Mutant:
    stmts: list
    what: str
    changed: str = ""  # the learner's statement as the mutant writes it

    @functools.cached_property
    def text(self) -> str:
        return "; ".join(ast.unparse(s) for s in self.stmts)


def _name(src: str):
    return ast.parse(src, mode="eval").body


def _replacements(node, cell: Cell):
    """(new node, words) for one node of a learner's statement."""
    out = []
    locals_ = cell.program.locals
    src = ast.unparse(node)
    is_leaf = src in cell.leaves or (isinstance(node, ast.Name) and node.id in locals_)
    if isinstance(node, ast.Constant) and _number(node.value) and not isinstance(node.value, bool):
        c = node.value
        alts = set(CONSTANT_SWAPS.get(c, ())) | ({c + 1, c - 1, c * 2} if abs(c) <= 100 else set())
        if isinstance(c, int) and c % 2 == 0:
            alts.add(c // 2)
        for a in alts:
            if a != c and a >= 0:
                out.append((ast.Constant(a), f"{c} -> {a}"))
    if is_leaf:
        own = cell.leaves
        me = cell.field.get(src, src)
        mine = kind(me)
        for s in own + cell.scope:
            f = cell.field.get(s, s)
            if s != src and f != me and kind(f) == mine:
                out.append((_name(s), f"{src} -> {s}"))
        for s in own + cell.scope:
            f = cell.field.get(s, s)
            if f == me or kind(f) != mine or mine not in ("width", "vocab", "params", "tokens"):
                continue
            for k in FACTORS:
                out.append((ast.BinOp(ast.Constant(k), ast.Mult(), _name(s)), f"{src} -> {k} * {s}"))
            for t in own + cell.scope:
                if kind(cell.field.get(t, t)) == "heads" and re.search(MODEL_WIDTH, f):
                    out.append((ast.BinOp(_name(s), ast.FloorDiv(), _name(t)), f"{src} -> {s} // {t}"))
        value = cell.env.get(src) if isinstance(node, ast.Name) else None
        small = not _number(value) or abs(value) <= 10**6  # ±1 on a count of millions is within a check's tolerance
        if mine in ("heads", "vocab", "layers", "tokens", "experts") and small:
            for k in (1, -1):
                out.append((ast.BinOp(copy.deepcopy(node), ast.Add(), ast.Constant(k)), f"{src} -> {src} {k:+d}"))
    if isinstance(node, ast.BinOp):
        op = type(node.op)
        if op in (ast.Add, ast.Sub):
            out.append((node.left, f"drop the term {ast.unparse(node.right)}"))
            out.append((node.right if op is ast.Add else ast.UnaryOp(ast.USub(), node.right),
                        f"drop the term {ast.unparse(node.left)}"))
        if op is ast.Mult:
            out.append((node.left, f"drop the factor {ast.unparse(node.right)}"))
            out.append((node.right, f"drop the factor {ast.unparse(node.left)}"))
        swaps = {ast.FloorDiv: [ast.Div, ast.Mod], ast.Div: [ast.FloorDiv], ast.Add: [ast.Sub, ast.Mult],
                 ast.Sub: [ast.Add], ast.Mod: [ast.FloorDiv], ast.Mult: [ast.Add], ast.Pow: [ast.Mult]}
        for new in swaps.get(op, []):
            out.append((ast.BinOp(node.left, new(), node.right),
                        f"{type(node.op).__name__} -> {new.__name__} in {src}"))
        # precedence: (a + b) * c -> a + b * c, a * (b + c) -> a * b + c
        for side in ("left", "right"):
            child = getattr(node, side)
            if isinstance(child, ast.BinOp) and _prec(child.op) < _prec(node.op):
                if side == "left":
                    new = ast.BinOp(child.left, child.op, ast.BinOp(child.right, node.op, node.right))
                else:
                    new = ast.BinOp(ast.BinOp(node.left, node.op, child.left), child.op, child.right)
                out.append((new, f"no parentheses: {ast.unparse(new)}"))
        # the remainder forms of a rounding on X and m: in an expression that rounds, or that reads a
        # name an earlier line set by rounding (V_padded - V, where V_padded = -(-V // m) * m)
        rounding = {t: st.value for st in cell.program.stmts for t in _targets(st.targets[0])
                    if any(isinstance(n, ast.BinOp) and isinstance(n.op, (ast.FloorDiv, ast.Mod)) for n in ast.walk(st.value))}
        inner = [n for n in ast.walk(node) if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.FloorDiv, ast.Mod))]
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id in rounding and rounding[n.id] is not node:
                inner += [x for x in ast.walk(rounding[n.id]) if isinstance(x, ast.BinOp)
                          and isinstance(x.op, (ast.FloorDiv, ast.Mod))]
        if inner:
            pairs = set()
            for n in inner:
                xs = [x for x in ast.walk(n.left) if ast.unparse(x) in cell.leaves or (
                    isinstance(x, ast.Name) and x.id in locals_)]
                ms = [x for x in ast.walk(n.right) if ast.unparse(x) in cell.leaves or (
                    isinstance(x, ast.Name) and x.id in locals_)]
                pairs |= {(ast.unparse(x), ast.unparse(m)) for x in xs for m in ms}
            for x, m in sorted(pairs):
                for form in (f"{m} - {x} % {m}", f"{x} % {m}", f"({x} // {m} + 1) * {m} - {x}",
                             f"({x} // {m} + 1) * {m}", f"{x} // {m} * {m}"):
                    out.append((_name(form), f"{src} -> {form}"))
    if _pure_call(node) and node.args:
        for a in node.args:
            out.append((a, f"{ast.unparse(node.func)}(…) left out: {ast.unparse(a)}"))
    return out


KINDS = [  # what a number counts, read from the field's name: a mutant swaps numbers of one kind only
    ("layers", r"layer|^L$"),
    ("experts", r"expert|^k$"),
    ("heads", r"^num_(attention_|key_value_|kv_)?heads$|^n_head$|^h$|^h_kv$|attention_heads"),
    ("width", r"hidden|embd|^d$|^d_|_d$|dim|intermediate|ffn|inner|width"),
    ("vocab", r"vocab|^V|^T$|rows|padded|n_new|n_keep|n_tokens|n_vocab"),
    ("params", r"total|embedding|lm_head|active|param|^N$|blocks|rest|table|head$|untied|counts?$"),
    ("tokens", r"context|tokens|^D$|positions|batch"),
    ("bytes", r"bytes|precision|memory|weights|gb|per_"),
]
MODEL_WIDTH = r"hidden_size|n_embd|d_model|^d$"  # the width a head_dim is mistaken for d // h of


def kind(name: str) -> str:
    for k, pattern in KINDS:
        if re.search(pattern, name, re.I):
            return k
    return "other"


def _prec(op) -> int:
    return {ast.Add: 1, ast.Sub: 1, ast.Mult: 2, ast.Div: 2, ast.FloorDiv: 2, ast.Mod: 2, ast.Pow: 3}.get(type(op), 9)


def mutants(cell: Cell) -> list[Mutant]:
    out, seen = [], set()
    for i in cell.mutable:
        stmt = cell.program.stmts[i]
        nodes = [n for n in ast.walk(stmt.value)]
        for k, node in enumerate(nodes):
            for new, what in _replacements(node, cell):
                mutated = _replace(stmt, k, new)
                stmts = list(cell.program.stmts)
                stmts[i] = mutated
                key = ast.unparse(mutated)
                if key in seen or key == ast.unparse(stmt):
                    continue
                seen.add(key)
                out.append(Mutant(stmts, what, key))
    return out


def _replace(stmt, k, new):
    """A copy of `stmt` whose k-th node (ast.walk order of its value) is `new`."""
    stmt = copy.deepcopy(stmt)
    nodes = list(ast.walk(stmt.value))
    target = nodes[k]
    if target is stmt.value:
        stmt.value = copy.deepcopy(new)
        return stmt
    for parent in nodes:
        for fname, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, fname, copy.deepcopy(new))
                return stmt
            if isinstance(value, list):
                for j, item in enumerate(value):
                    if item is target:
                        value[j] = copy.deepcopy(new)
                        return stmt
    raise AssertionError("node not found")


# --------------------------------------------------------------------------- variants and verdicts

def question_module(lesson: str):
    return importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")


def drawn_variants(lesson: str, draws: int = DRAWS, seed: int = 0, reads=None) -> list[dict]:
    """Class variants the lesson's space can draw: `draws` draws (every pool's item picked at random),
    those its `problems` rejects left out, each once; with `reads` (the parameters the audited cells
    read), once per value of those (a lesson's `problems` may train a model to vet a variant)."""
    module = question_module(lesson)
    space = module.SPACE
    rng = np.random.default_rng(seed)
    out, seen = [], set()

    def pick(name, pool):
        return pool[int(rng.integers(len(pool)))]
    for i in range(draws):
        p = space.draw(rng, pick)
        key = repr(p if reads is None else {k: v for k, v in p.items() if k in reads})
        if key in seen:
            continue
        seen.add(key)
        with _quiet():
            if space.problems(p):
                continue
        out.append(p)
    return out


@dataclass
class Env:
    label: str
    params: dict
    table: dict
    want: object
    question: object


@dataclass
class Finding:
    lesson: str
    name: str
    mutant: str
    what: str
    inputs: str


@dataclass
class Audit:
    lesson: str
    name: str
    n_mutants: int = 0
    n_equivalent: int = 0
    n_envs: int = 0
    inseparable: list = field(default_factory=list)
    not_read: str = ""


def variant_env(lesson, name, cell: Cell, base: dict, params: dict, label: str):
    """The leaf table of one variant: the cell run on the book's namespace with `params`."""
    from embedlab.grading.lessons import questions_for

    ns = dict(base)
    ns.update(params)
    with _quiet():
        try:
            exec(compile(cell.source, f"<{lesson} {name}>", "exec"), ns)  # noqa: S102
        except Exception:  # noqa: BLE001 - the variant's inputs do not suit the cell read this way
            return None
    table = leaf_table(cell.program, ns, cell.scope)
    q = next(q for q in questions_for(lesson, params if label != "book" else None) if q.name == name)
    return Env(label, params, table, ns[name], q)


def _short(params: dict, reads: set) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in params.items() if k in reads) or "the book's"


def audit_question(lesson: str, name: str, variants: list[dict], rng) -> Audit:
    from embedlab.grading.kinds import Integer, Real
    from embedlab.grading.lessons import questions_for
    from embedlab.grading.verdicts import evaluate

    result = Audit(lesson, name)
    q = next(q for q in questions_for(lesson) if q.name == name)
    if not isinstance(q, (Integer, Real)):
        result.not_read = f"a {q.kind} question"
        return result
    index, base, after, cost = book_run(lesson)[name]
    source = code_cells(lesson)[index]
    try:
        cell = read_cell(lesson, name, after, source, cost)
    except NotArithmetic as exc:
        result.not_read = str(exc)
        return result
    params_names = set(question_module(lesson).SPACE.defaults)
    book = {k: base[k] for k in params_names if k in base}
    envs, seen = [], set()
    slow = cell.cost > SLOW_CELL
    if slow:
        envs.append(Env("book", book, leaf_table(cell.program, cell.env, cell.scope), cell.env[name], q))
    for label, p in ([] if slow else [("book", book)]) + ([] if slow else [(f"variant {i + 1}", v) for i, v in enumerate(variants)]):
        env = variant_env(lesson, name, cell, base, p, label)
        if env is None:
            continue
        key = tuple(sorted((k, repr(v)) for k, v in env.table.items()))
        if key in seen:
            continue
        seen.add(key)
        envs.append(env)
    result.n_envs = len(envs)
    original = cell.program.compile()
    randoms = {}

    def random_of(env):
        """Random inputs around one variant: its models' families, its parameters redrawn."""
        if env.label not in randoms:
            tables = _leaf_random_tables(cell, env.table, rng) if slow else \
                _random_tables(cell, base, {**book, **env.params}, rng)
            # inputs outside the question's domain left out: a count the right formula makes negative
            # there (memory below the weights) is no model's, and int(x / y) and x // y part only there
            randoms[env.label] = [(t, v) for t in tables for v in [_call(original, t)]
                                  if v is not None and not (v < 0 <= env.want)]
        return randoms[env.label]
    for m in mutants(cell):
        try:
            f = cell.program.compile(m.stmts)
        except Exception:  # noqa: BLE001 - a mutant that does not compile
            continue
        result.n_mutants += 1
        accepted = []
        for env in envs:
            got = _call(f, env.table)
            if got is None or not _close(env.question, got, env.want):
                continue
            verdict = evaluate(env.question, got, env.want, source=mutant_source(cell, m))
            if verdict.status == "correct":
                accepted.append(env)
        if not accepted:
            continue
        wrong = [env for env in accepted if any(
            want is not None and not _close(env.question, _call(f, t), want) for t, want in random_of(env))]
        if not wrong:
            result.n_equivalent += 1
            continue
        env = wrong[0]
        result.inseparable.append(Finding(lesson, name, m.changed, m.what,
                                          f"{env.label}: {_short(env.params, cell.reads)}"))
    return result


def _close(q, got, want) -> bool:
    from embedlab.grading.kinds import Real

    if got is None or not _number(got):
        return False
    if isinstance(q, Real):
        return q.accepts(float(got), float(want))
    return got == want


def _call(f, table):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = f(table)
    except Exception:  # noqa: BLE001 - a mutant that fails on these inputs
        return None
    return v if _number(v) and (not isinstance(v, float) or math.isfinite(v)) else None


HEADS = ("num_attention_heads", "n_head", "encoder_attention_heads")
KV_HEADS = ("num_key_value_heads",)
WIDTHS = ("hidden_size", "n_embd", "d_model", "word_embed_proj_dim")


def _align(v: int) -> int:
    """A round number near v: a multiple of 1,024 from 1,024 up, else a power of two (the edge
    cases a rounding formula gets wrong: a size already a multiple)."""
    if v >= 1024:
        return max(1024, round(v / 1024) * 1024)
    return 2 ** max(1, round(math.log2(max(v, 2))))


def random_config(config: dict, rng, aligned: bool = False) -> dict:
    """Another model of the same family: every size drawn at random (heads still tile the width,
    kv heads the heads), so that no two sizes keep a relation the family does not impose
    (d_ff = 4·d, h = 4·h_kv, V a multiple of 64 …); a head_dim the config states, drawn apart."""
    out = dict(config)
    h_kv = int(rng.integers(1, 6))
    h = h_kv * int(rng.choice([2, 3, 5, 7]))
    d = h * int(rng.integers(5, 40))
    for k, v in config.items():
        if isinstance(v, bool) or not isinstance(v, int) or k.endswith("_id") or k.startswith("_"):
            continue
        if k in HEADS:
            out[k] = h
        elif k in KV_HEADS:
            out[k] = h_kv if config.get(k) != config.get("num_attention_heads") else h
        elif k in WIDTHS:
            out[k] = d
        elif k == "head_dim":
            out[k] = int(rng.integers(9, 200))
        elif v > 1:
            out[k] = int(rng.integers(max(2, v // 3), 3 * v + 7))
            if aligned:
                out[k] = _align(out[k])
    return out


def random_env(cell: Cell, base: dict, params: dict, rng, aligned: bool = False):
    """The leaf table of random inputs: the cell run with each numeric parameter drawn at random and
    `load_config` giving random models of the same families (count_params and model_shape then
    keep the family's own relations: an untied head as large as the table)."""
    ns = dict(base)
    ns.update(params)
    for k, v in params.items():
        if isinstance(v, bool) or not _number(v):
            continue
        ns[k] = int(rng.integers(max(2, int(v) // 3), max(8, 3 * int(v)))) if isinstance(v, (int, np.integer)) \
            else float(v) * float(rng.uniform(0.3, 3.0))
        if aligned and isinstance(ns[k], int):
            ns[k] = _align(ns[k])
    real = base.get("load_config")
    if real is not None:
        from embedlab.params import count_params
        made = {}

        def load_config(name, *a, **k):
            if name not in made:
                for _ in range(20):
                    c = random_config(real(name, *a, **k), rng, aligned)
                    try:
                        count_params(c)
                    except Exception:  # noqa: BLE001 - an impossible model: draw again
                        continue
                    made[name] = c
                    break
                else:
                    made[name] = real(name, *a, **k)
            return dict(made[name])
        ns["load_config"] = load_config
    import embedlab
    import embedlab.params

    # a cell that imports load_config itself gets the random one too (put back at once)
    saved = embedlab.load_config, embedlab.params.load_config
    try:
        if real is not None:
            embedlab.load_config = embedlab.params.load_config = ns["load_config"]
        with _quiet():
            try:
                exec(compile(cell.source, "<random>", "exec"), ns)  # noqa: S102
            except Exception:  # noqa: BLE001
                return None
    finally:
        embedlab.load_config, embedlab.params.load_config = saved
    return leaf_table(cell.program, ns, cell.scope)


def _random_tables(cell: Cell, base: dict, params: dict, rng) -> list[dict]:
    out = []
    for i in range(N_RANDOM * 3):
        t = random_env(cell, base, params, rng, aligned=i % 2 == 1)  # every other one round numbers
        if t is not None:
            out.append(t)
        if len(out) == N_RANDOM:
            break
    return out


def _leaf_random_tables(cell: Cell, table: dict, rng) -> list[dict]:
    """Random inputs for a slow cell: each field its leaves read drawn at random (aliases share it)."""
    out = []
    for i in range(N_RANDOM):
        by_field, t = {}, {}
        for src, v in table.items():
            f = cell.field.get(src, src)
            if f not in by_field:
                if isinstance(v, (int, np.integer)):
                    by_field[f] = int(rng.integers(max(2, abs(int(v)) // 3), max(8, 3 * abs(int(v))))) * (1 if v >= 0 else -1)
                    if i % 2:
                        by_field[f] = _align(abs(by_field[f])) * (1 if v >= 0 else -1)
                else:
                    by_field[f] = float(v) * float(rng.uniform(0.3, 3.0)) if v else float(rng.uniform(0.1, 1))
            t[src] = by_field[f]
        out.append(t)
    return out


def mutant_source(cell: Cell, m: Mutant) -> str:
    """The answer cell with the learner's lines replaced by the mutant's (the given lines kept)."""
    lines = cell.source.splitlines()
    first, last = cell.span
    mutated = [ast.unparse(m.stmts[i]) for i in cell.mutable]
    others = [ast.unparse(s) for s in cell.tree.body if first <= s.lineno <= last and s not in cell.program.stmts]
    return "\n".join(lines[:first - 1] + others + mutated + lines[last:]) + "\n"


# --------------------------------------------------------------------------- square tables

def square_tables(lesson: str, variants=()) -> list[tuple[str, str, str, tuple]]:
    """(label, question, name, shape) of every 2-D array an answer cell reads or makes whose rows and
    columns are as many, on the book's inputs and each variant's: there a transposed table, or an
    axis slip (norms along axis=0), keeps its shape and runs silently. A symmetric or orthogonal
    one (a Gram matrix, a rotation) is square by nature, and no axis slip changes it: left out."""
    out = []
    runs = [("book", book_run(lesson))]
    for i, p in enumerate(variants):
        runs.append((f"variant {i + 1}", _variant_run(lesson, p)))
    for label, run in runs:
        for name, (index, before, after, cost) in run.items():
            reads = {n.id for n in ast.walk(ast.parse(code_cells(lesson)[index])) if isinstance(n, ast.Name)}
            for n in sorted(reads):
                v = after.get(n, before.get(n))
                if not n.startswith("_") and isinstance(v, np.ndarray) and v.ndim == 2 and v.shape[0] == v.shape[1] > 1 \
                        and np.issubdtype(v.dtype, np.number) and not _by_nature(v):
                    out.append((label, name, n, v.shape))
    return out


def _by_nature(a) -> bool:
    a = a.astype(float)
    return bool(np.allclose(a, a.T) or np.allclose(a @ a.T, np.eye(len(a)), atol=1e-8))


def _variant_run(lesson: str, params: dict) -> dict:
    """book_run for one variant's parameters (the parameters cell replaced)."""
    cells = list(code_cells(lesson))
    from embedlab.grading.variants import render_parameters

    at = _parameters_index(cells)
    cells[at] = render_parameters(params)
    positions = {_check_of(s): i - 1 for i, s in enumerate(cells) if _check_of(s)}
    stops = {i: name for name, i in positions.items()}
    ns, out = {"__name__": "__audit__"}, {}
    with _quiet():
        for i, src in enumerate(cells):
            if "ex.check(" in src or "ex.summary(" in src:
                continue
            before = dict(ns)
            exec(compile(src, f"<{lesson} cell {i}>", "exec"), ns)  # noqa: S102 - our own solution
            if i in stops:
                out[stops[i]] = (i, before, dict(ns), 0.0)
    return out


# --------------------------------------------------------------------------- the whole course

def value_questions(lesson: str) -> list[str]:
    from embedlab.grading.kinds import Function
    from embedlab.grading.lessons import questions_for

    return [q.name for q in questions_for(lesson) if not isinstance(q, Function)]


def audit_lesson(lesson: str, draws: int | None = None) -> list[Audit]:
    reads = set()
    for name in value_questions(lesson):
        index, before, after, cost = book_run(lesson)[name]
        try:
            cell = read_cell(lesson, name, after, code_cells(lesson)[index], cost)
        except (NotArithmetic, SyntaxError):
            continue
        if cell.cost <= SLOW_CELL:
            reads |= cell.reads
    variants = drawn_variants(lesson, draws or DRAWS_OF.get(lesson[:2], DRAWS), reads=reads)
    rng = np.random.default_rng(1)
    return [audit_question(lesson, name, variants, rng) for name in value_questions(lesson)]


def audit_all(lessons=None, draws: int | None = None) -> list[Audit]:
    from embedlab.grading.lessons import known_lessons

    return [a for lesson in (lessons or known_lessons()) for a in audit_lesson(lesson, draws)]


def table(audits: list[Audit]) -> str:
    rows = [f"{'lesson':<24} {'question':<26} {'inputs':>6} {'mutants':>7} {'equiv':>5} {'insep':>5}  note"]
    for a in audits:
        rows.append(f"{a.lesson:<24} {a.name:<26} {a.n_envs:>6} {a.n_mutants:>7} {a.n_equivalent:>5} "
                    f"{len(a.inseparable):>5}  {('not read: ' + a.not_read) if a.not_read else ''}")
    read = [a for a in audits if not a.not_read]
    rows.append(f"{len(read)} value questions read as formulas ({len(audits) - len(read)} not), "
                f"{sum(a.n_mutants for a in read)} mutants, {sum(len(a.inseparable) for a in read)} inseparable")
    for a in audits:
        for f in a.inseparable:
            rows.append(f"  INSEPARABLE {f.lesson} {f.name}: `{f.mutant}` ({f.what}) is accepted on {f.inputs}")
    return "\n".join(rows)


def main(argv=None) -> int:
    from embedlab import tinylm
    from embedlab.grading.lessons import known_lessons

    # a variant's tiny model is asked for by the solution's run, the variant's vetting (`problems`)
    # and its audit: trained once, then remembered (a remembered run is that training to the bit, as
    # in tests/test_formula_separation.py): 11.3 -> 9.7 s of CPU for --all
    tinylm.remember_runs = True

    argv = list(sys.argv[1:] if argv is None else argv)
    lessons = [a for a in argv if not a.startswith("-")] or None
    audits = audit_all(lessons)
    print(table(audits))
    squares = [(lesson, *s) for lesson in (lessons or known_lessons()) for s in square_tables(lesson)]
    for lesson, label, name, array, shape in squares:
        print(f"  SQUARE {lesson} {name}: `{array}` is {shape[0]} × {shape[1]} on {label}'s inputs")
    return 1 if any(a.inseparable for a in audits) else 0


if __name__ == "__main__":
    sys.exit(main())
