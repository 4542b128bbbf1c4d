"""The operation a question asks the learner's cell to do (a question's `own_work`, embedlab.grading.kinds).

A question may ask for a value *by a given route*: exercise 02's question 3 asks for the rows of `ids` as a matrix
product, one-hot times `E`, so that its check can say "the two paths agree". The value alone cannot tell that route
from the lookup (`E[ids]` gives the same rows), so the question declares the work, `Work("@", "E")`, and a right
value whose cell does not do it is refused with why (the notebook check and the grader alike: both judge with
`Question.judge`). The answer cell is read, never run: `Work.missing` follows the answer back through the names
the cell assigns (a variable, a helper function, a loop that fills an array) and asks whether the operation is
among what it comes from, taking the operand whole.
"""

from __future__ import annotations

import ast
import dataclasses

from embedlab.grading.code import SOURCE_LIMIT  # a longer cell is not read (nor sent by the grader's worker)

# Calls that are a matrix product of their first two arguments, as `a @ b` is
_PRODUCTS = {"matmul", "dot"}
# Calls that multiply and sum arrays in a way this reader does not orient (tensordot's axes, inner's last axes):
# one that takes the operand whole is taken as the product asked
_OTHER_PRODUCTS = {"tensordot", "inner", "vdot", "multi_dot", "kron"}
# What keeps an array as it is (a copy, a cast, a view) or transposes it: the operand is still whole
_KEEPS = {"astype", "copy", "view", "asarray", "array", "asanyarray", "ascontiguousarray", "float32", "float64",
          "squeeze"}
_FLIPS = {"transpose"}


@dataclasses.dataclass(frozen=True)
class Work:
    """An operation a value question asks for, as a key of its `own_work` ({Work: why}).

    `op` is "@" for a matrix product (`a @ b`, np.matmul, np.dot, `a.dot(b)`, np.einsum, …), else the name of a
    function the cell must call (`"add.at"` for np.add.at). `operand`, when given, is a name the operation must
    take whole (itself, an alias, a cast or a transpose of it, not rows or a copy of part of it); for a product,
    `axis` says which of the operand's axes the product sums over (0: its rows, as in `one_hot @ E`; 1: its
    columns, as in `x @ E.T`), so a product over the other axis followed by a lookup is not the work asked."""

    op: str
    operand: str | None = None
    axis: int = 0

    def says(self) -> str:
        """The operation in words, for the hint."""
        if self.op != "@":
            return f"a call of `{self.op}`" + (f" on `{self.operand}`" if self.operand else "")
        if not self.operand:
            return "a matrix product"
        side = f"… @ {self.operand}" if self.axis == 0 else f"… @ {self.operand}.T"
        return f"a matrix product that sums over the {'rows' if self.axis == 0 else 'columns'} of `{self.operand}` " \
               f"({side})"

    def missing(self, source: str | None, name: str) -> bool | None:
        """Does the answer `name` of this cell come from no such operation? True when the cell assigns it (or
        defines it, a function) and nothing it is made from does the operation; False when something does;
        None when the cell cannot be read or does not make `name` (nothing is said then)."""
        return _over_reach(source, name, lambda cell, nodes: not any(self._done(cell, node) for node in nodes))

    # ------------------------------------------------------------------

    def _done(self, cell: _Cell, node) -> bool:
        """Is `node` itself the operation, on the operand?"""
        if self.op == "@":
            return self._product(cell, node)
        if isinstance(node, ast.Call) and _dotted(node.func).endswith(self.op):
            args = list(node.args) + [k.value for k in node.keywords]
            if isinstance(node.func, ast.Attribute) and _dotted(node.func) == self.op:
                args.append(node.func.value)  # a method of the operand itself
            return self.operand is None or any(cell.whole(a, self.operand) for a in args)
        return False

    def _product(self, cell: _Cell, node) -> bool:
        pairs = []  # (left factor, right factor) of a product a @ b
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            pairs.append((node.left, node.right))
        elif isinstance(node, ast.Call):
            called = _dotted(node.func).rsplit(".", 1)[-1]
            if called in _PRODUCTS and len(node.args) >= 2:
                pairs.append((node.args[0], node.args[1]))
            elif called == "dot" and isinstance(node.func, ast.Attribute) and len(node.args) == 1:
                pairs.append((node.func.value, node.args[0]))  # a.dot(b)
            elif called == "einsum":
                return self._einsum(cell, node)
            elif called in _OTHER_PRODUCTS:
                return self.operand is None or any(cell.whole(a, self.operand) for a in ast.walk(node))
        for left, right in pairs:
            if self.operand is None:
                return True
            # a @ b sums over a's last axis and b's first: the operand's own axis there, turned by a transpose
            summed = {1 - flip for flip in cell.orientations(left, self.operand)} | \
                set(cell.orientations(right, self.operand))
            if self.axis in summed:
                return True
        return False

    def _einsum(self, cell: _Cell, node) -> bool:
        if self.operand is None:
            return True
        spec = node.args[0] if node.args else None
        operands = node.args[1:]
        if not (isinstance(spec, ast.Constant) and isinstance(spec.value, str) and "->" in spec.value):
            return any(cell.whole(a, self.operand) for a in operands)  # not read: taken as the product
        inputs, output = spec.value.replace(" ", "").split("->", 1)
        for letters, operand in zip(inputs.split(","), operands):
            for flip in cell.orientations(operand, self.operand):
                own = letters[::-1] if flip else letters  # the operand's own axes, before a transpose
                if len(own) == 2 and own[self.axis] not in output:
                    return True
        return False


@dataclasses.dataclass(frozen=True)
class Shortcut:
    """A ready-made answer a value question asks the learner not to take, as a key of its `own_work`
    ({Shortcut: why}): exercise 06's question 4 asks for the head's share built part by part, where
    `forward_flops(…).share('head')` gives it whole.

    `name` is a library function (`forward_flops`: called, aliased, or read as `embedlab.forward_flops`) or, with
    `attribute=True`, an attribute of a library object (`counts.active`, `.vocab_share`; a name of the learner's own
    spelled the same is not it). The answer is followed back through the names the cell assigns (`Work`'s reading):
    a right value that comes from the shortcut is refused; the shortcut used beside it, to check the answer
    (`assert … == forward_flops(…).share('head')`), is not."""

    name: str
    attribute: bool = False

    def says(self) -> str:
        return f"`.{self.name}`" if self.attribute else f"`{self.name}`"

    def taken(self, source: str | None, name: str) -> bool | None:
        """Does the answer `name` of this cell come from the shortcut? None when the cell cannot be read or does not
        make `name` (nothing is said then)."""
        return _over_reach(source, name, lambda cell, nodes: any(self._is(node) for node in nodes))

    def _is(self, node) -> bool:
        if isinstance(node, ast.Attribute) and node.attr == self.name:
            return True
        return not self.attribute and isinstance(node, ast.Name) and node.id == self.name \
            and isinstance(node.ctx, ast.Load)


def _over_reach(source, name: str, verdict) -> bool | None:
    """`verdict(cell, nodes)` over every node the answer `name` of the cell `source` is made from; None when
    the cell cannot be read (not a string, too long, not Python) or does not make `name`."""
    if not isinstance(source, str) or len(source) > SOURCE_LIMIT:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    try:
        cell = _Cell(tree)
        roots = cell.roots(name)
        if not roots:
            return None
        return verdict(cell, cell.reach(roots))
    except RecursionError:
        return None


def _dotted(node) -> str:
    """`np.add.at` for the call's function, "" for what is not a dotted name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _names(target) -> list[str]:
    """The names an assignment's target writes, a subscript's or attribute's array included (`out[t, i] = 1`)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for t in target.elts for n in _names(t)]
    if isinstance(target, ast.Starred):
        return _names(target.value)
    if isinstance(target, (ast.Subscript, ast.Attribute)):
        return _names(target.value)
    return []


class _Cell:
    """What each name of a cell is made from: every expression assigned to it, anywhere in the cell (a loop, a
    helper's body), with the arrays filled in place (`out[t, i] = x`, `out.append(x)`, `np.add.at(out, i, x)`)
    and a function's returned expressions under the function's name."""

    def __init__(self, tree: ast.Module):
        self.tree = tree
        self.made: dict[str, list] = {}
        for node in ast.walk(tree):
            for target, value in _writes(node):
                for n in _names(target):
                    self.made.setdefault(n, []).append(value)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                returns = [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None]
                self.made.setdefault(node.name, []).extend(returns)

    def roots(self, name: str) -> list:
        """What the answer `name` is made from: a function's returns, else the cell's last plain assignment of it
        at the top level and every write of it after (all writes when there is no plain one at the top)."""
        for stmt in reversed(self.tree.body):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
                return [r.value for r in ast.walk(stmt) if isinstance(r, ast.Return) and r.value is not None]
        body = self.tree.body
        last = max((i for i, stmt in enumerate(body) if isinstance(stmt, (ast.Assign, ast.AnnAssign))
                    and any(isinstance(t, ast.Name) and t.id == name
                            for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]))),
                   default=0)
        out = []
        for stmt in body[last:]:
            for node in ast.walk(stmt):
                out += [value for target, value in _writes(node) if name in _names(target)]
        return out

    def reach(self, roots: list):
        """Every node the roots are made from, following the names they read through what the cell makes them."""
        seen, todo = set(), list(roots)
        while todo:
            expr = todo.pop()
            if id(expr) in seen:
                continue
            seen.add(id(expr))
            for node in ast.walk(expr):
                yield node
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    todo += self.made.get(node.id, [])

    def orientations(self, expr, operand: str, seen=None) -> set:
        """{0} when `expr` is the operand whole as it is, {1} transposed (both when aliases differ); empty when it
        is not the operand whole (rows of it, another array)."""
        seen = set() if seen is None else seen
        if id(expr) in seen:
            return set()
        seen.add(id(expr))
        if isinstance(expr, ast.Name):
            if expr.id == operand:
                return {0}
            return {o for value in self.made.get(expr.id, []) for o in self.orientations(value, operand, seen)}
        if isinstance(expr, ast.Attribute) and expr.attr in ("T", "mT"):
            return {1 - o for o in self.orientations(expr.value, operand, seen)}
        if isinstance(expr, ast.Call):
            called = _dotted(expr.func).rsplit(".", 1)[-1]
            method = isinstance(expr.func, ast.Attribute) and not _dotted(expr.func).startswith(("np.", "numpy."))
            inner = expr.func.value if method else (expr.args[0] if expr.args else None)
            if inner is not None and called in _KEEPS | _FLIPS:
                found = self.orientations(inner, operand, seen)
                return {1 - o for o in found} if called in _FLIPS else found
        return set()

    def whole(self, expr, operand: str) -> bool:
        return bool(self.orientations(expr, operand))


def _writes(node):
    """(target, value) of what `node` writes: an assignment, an augmented one (the name keeps its value too), a
    loop's or comprehension's variable, a walrus, and a call that fills its first argument or its receiver in
    place (`np.add.at(G, ids, g)`, `np.copyto(out, x)`, `out=` given, `rows.append(x)`, `out.fill(1)`)."""
    if isinstance(node, ast.Assign):
        return [(t, node.value) for t in node.targets]
    if isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
        return [(node.target, node.value)]
    if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        return [(node.target, node.iter)]
    if isinstance(node, ast.NamedExpr):
        return [(node.target, node.value)]
    if isinstance(node, ast.withitem) and node.optional_vars is not None:
        return [(node.optional_vars, node.context_expr)]
    if isinstance(node, ast.Call):
        out = [(k.value, node) for k in node.keywords if k.arg == "out"]  # np.matmul(a, b, out=rows)
        called = _dotted(node.func)
        if node.args and (called.endswith(".at") or called.rsplit(".", 1)[-1] in _FILLS):
            out.append((node.args[0], node))
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
                and not called.startswith(("np.", "numpy.")):
            out.append((node.func.value, node))  # a method of the array: rows.append(x), out.fill(1)
        return out
    return []


# numpy functions that write into their first argument (a ufunc's .at too: np.add.at)
_FILLS = {"copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis"}
