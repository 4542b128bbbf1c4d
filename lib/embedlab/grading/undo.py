"""A slip undone in the learner's own code, run in the learner's kernel: the proof a hint needs to name it.

A hint names a mistake only when it can prove it on the learner's own code (issue 46). Some slips cannot be
read from a value, nor from the cell read as arithmetic (embedlab.grading.explain): a reduction along the
other axis, a list sorted where its own order was asked, a test inverted, an elementwise function applied to
a value that already is its result, a length squared where two lengths belong. Each is one edit of the code,
so the counterfactual is that edit: the learner's own lines (an answer cell's, or a function's body) with the
one piece changed are run again in their kernel, on the notebook's own inputs (a function: on the question's
cases), and what they give is reported as plain data beside the answer ({"undone": the edit in words,
"kind", "got"}). The judge names the edit only when that value is the answer (`proven`); an edit whose
value is not the answer says nothing, and so does one that raises, hangs past SECONDS or cannot be run.

Edits are read from the syntax only (`edits`), whatever the learner calls things, at most EDITS of them per
answer; they run in the learner's own kernel (embedlab.grading.elsewhere.run_cell_edits, run_function_edits),
never in the checking process, and the namespace is put back as it was. This module reads and judges only.
"""

from __future__ import annotations

import ast
import copy
import pickle


__all__ = ["edits", "first", "proven", "UNDONE", "FLIP", "CONTROL", "DIRECTION", "EDITS", "SECONDS", "BYTES",
           "PROBE_BYTES"]

EDITS = 8  # edits run per answer at most
SECONDS = 3.0  # CPU seconds all the edits of one answer get together (elsewhere._bounded)
UNDONE = "undone"  # the key of an edit's report, beside "kind" and "got"
FILTER_LEAD = "your comprehension's"  # the words of the edit that takes a comprehension's filter out
STEP = "step"  # the key of a solution step's report (elsewhere.solution_steps): what comes after that step
BYTES = 96_000  # characters of JSON the edits of one answer report at most (the sandbox's channel is 1 MiB in all) …
PROBE_BYTES = 320_000  # … and of all the answers of one probe together (embedlab.grading.wire)

# functions applied entry by entry: one applied to its own result is applied twice
ELEMENTWISE = {"tanh", "exp", "log", "sqrt", "sin", "cos", "abs", "fabs", "sigmoid", "arctanh", "log1p", "expm1",
               "square", "exp2", "log2", "log10", "relu", "gelu", "silu", "softmax", "log_softmax"}


# reductions: along an axis they give one value per row (axis=1) or per column (axis=0)
REDUCTIONS = {"sum", "mean", "norm", "max", "min", "std", "var", "prod", "argmax", "argmin", "any", "all", "median",
              "average", "nansum", "nanmean", "amax", "amin", "ptp", "logsumexp", "count_nonzero", "nanmax", "nanmin"}


def _name_of(func) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _seg(source: str, node) -> str:
    try:
        text = (ast.get_source_segment(source, node) if source else None) or ast.unparse(node)
    except (IndexError, ValueError):  # a node made by an edit: no place in the source
        text = ast.unparse(node)
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "…"


def _copy_tree(tree):
    """copy.deepcopy(tree), made by pickling it (the same protocol, __reduce_ex__, run in C: about a third of the
    time; every edit of an answer copies the whole cell); deepcopy itself where the tree holds what pickle refuses."""
    try:
        return pickle.loads(pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL))
    except Exception:  # noqa: BLE001 - an attribute pickle cannot write: deepcopy copies or shares it
        return copy.deepcopy(tree)


def _replaced(tree, k: int, make):
    """A copy of `tree` with its k-th node (ast.walk order) replaced by make(that node) (None: the statement left
    out, as `pass`), or None when the node has no parent to hold the new one."""
    tree = _copy_tree(tree)
    nodes = list(ast.walk(tree))
    target = nodes[k]
    new = make(target)
    for parent in nodes:
        for field, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, field, new if new is not None else ast.Pass())
                return ast.fix_missing_locations(tree)
            if isinstance(value, list) and any(v is target for v in value):
                value[[i for i, v in enumerate(value) if v is target][0]] = new if new is not None else ast.Pass()
                return ast.fix_missing_locations(tree)
    return None


def _axis_words(k: int) -> str:
    return "one value per column" if k == 0 else "one value per row" if k in (1, -1) else f"axis {k}"


# a choice made by the largest or the smallest: each name and the one that takes the other end
EXTREMES = {"max": "min", "min": "max", "argmax": "argmin", "argmin": "argmax", "nanargmax": "nanargmin",
            "nanargmin": "nanargmax", "idxmax": "idxmin", "idxmin": "idxmax"}
DIRECTION = "undo_direction"  # an edit that takes the other end (min made max): the end it takes ("max", "min")


def _extreme_edits(source: str, nodes: list) -> list:
    """The edits of a choice taken at one end (a choice among a few words: which budget binds): `min` made `max`
    (and argmin argmax, each way), and `max(d)` over a dict's keys made `max(d, key=d.get)` (the keys compared as
    names, not the values): [(words, the node's place, make, rank, meta)]."""
    out = []
    for k, node in enumerate(nodes):
        if not isinstance(node, ast.Call) or _name_of(node.func) not in EXTREMES:
            continue
        name = _name_of(node.func)
        other = EXTREMES[name]

        def flipped(n, other=other):
            n = copy.deepcopy(n)
            if isinstance(n.func, ast.Name):
                n.func.id = other
            else:
                n.func.attr = other
            return n
        shown = _seg(None, flipped(node))
        end = "largest" if other.endswith("max") else "smallest"
        out.append((f"`{_seg(source, node)}` takes the {'smallest' if end == 'largest' else 'largest'}: with "
                    f"`{shown}` (the {end}), your own code gives the answer", k, flipped, 1,
                    {DIRECTION: other.replace("arg", "").replace("nan", "").replace("idx", "")}))
        if name in ("max", "min") and isinstance(node.func, ast.Name) and len(node.args) == 1 and not node.keywords                 and isinstance(node.args[0], ast.Name):
            table = node.args[0].id

            def keyed(n, table=table):
                n = copy.deepcopy(n)
                n.keywords.append(ast.keyword("key", ast.Attribute(ast.Name(table, ast.Load()), "get", ast.Load())))
                return n
            out.append((f"`{_seg(source, node)}` compares the keys of `{table}` (its names, in alphabetical order), "
                        f"not their values: with `{name}({table}, key={table}.get)`, your own code gives the answer",
                        k, keyed, 0, None))
    return out


def edits(source: str, params: tuple = (), values: dict | None = None,
          extremes: bool = False) -> list[tuple[str, ast.AST]]:
    """[(the edit in words, the code's tree with it made)] for each slip one edit of `source` undoes: an axis
    swapped (0 and 1), a sort left out (sorted, np.sort, .sort()), a `not` left out or put in, a comparison
    inverted (`in` for `not in`, `==` for `!=`, `<` for `>=`, `is` for `is not`), an elementwise function applied
    once where it is applied to its own result, `X[idx] += v` (a repeated index adds once) made `np.add.at(X, idx,
    v)`, a function's `/` made `//` (a whole number divided), two positional arguments of a call swapped, a number typed as a call's argument replaced by 1 or by a
    value of `values` ({name: number}: the notebook's parameters) of its type, and, among a function's
    parameters (`params`), one read for another or a square whose second factor is another parameter's (‖a‖²
    where ‖a‖·‖b‖ belongs)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    nodes = list(ast.walk(tree))
    made = {}  # name -> the elementwise function its (last) assignment applies
    for node in nodes:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and _name_of(node.value.func) in ELEMENTWISE:
            for target in node.targets:
                if isinstance(target, ast.Name):
                    made[target.id] = _name_of(node.value.func)
    out = []

    def add(words, k, make, rank=0, meta=None):
        new = _replaced(tree, k, make)
        if new is not None and words not in [w for w, _, _ in out]:
            for key, value in (meta or {}).items():  # read by the runs, reported beside the edit (FLIP, CONTROL)
                setattr(new, key, value)
            out.append((words, new, rank))

    for k, node in enumerate(nodes):
        if isinstance(node, ast.Call):
            name = _name_of(node.func)
            for j, kw in enumerate(node.keywords):
                if kw.arg == "axis" and isinstance(kw.value, ast.Constant) and kw.value.value in (0, 1, -1) \
                        and not isinstance(kw.value.value, bool):
                    old = kw.value.value
                    new = 1 if old == 0 else 0
                    if name not in REDUCTIONS:  # np.stack, np.concatenate, np.sort: no value per row or column
                        add(f"`{_seg(source, node)}` works along axis {old}: with axis={new} there, your own code "
                            f"gives the answer", nodes.index(kw.value), lambda n, new=new: ast.Constant(new), 1)
                        continue
                    words = (f"`{_seg(source, node)}` works along axis {old} ({_axis_words(old)}): along axis {new} "
                             f"({_axis_words(new)}), your own code gives the answer")
                    add(words, nodes.index(kw.value), lambda n, new=new: ast.Constant(new), 1)
                    if not any(other.arg == "keepdims" for other in node.keywords):
                        # the reduced axis kept (keepdims=True), so that the result still lines up with the array
                        def keep(n, j=j, new=new):
                            n = copy.deepcopy(n)
                            n.keywords[j].value = ast.Constant(new)
                            n.keywords.append(ast.keyword("keepdims", ast.Constant(True)))
                            return n
                        add(f"`{_seg(source, node)}` works along axis {old} ({_axis_words(old)}): along axis {new} "
                            f"({_axis_words(new)}, with keepdims=True so that it lines up with the array), your own "
                            f"code gives the answer", k, keep, 1)
            if name in REDUCTIONS and name not in ("norm", "argmax", "argmin", "count_nonzero", "logsumexp") \
                    and not (isinstance(node.func, ast.Name) and name in ("max", "min", "sum")):
                # a reduction that should not be there at all (rows averaged into one where one row per id is asked):
                # the call left out, its array in its place
                inner = node.func.value if isinstance(node.func, ast.Attribute) and not node.args \
                    and _name_of(node.func.value) not in ("np", "numpy") else node.args[0] if node.args \
                    and isinstance(node.func, ast.Attribute) and _name_of(node.func.value) in ("np", "numpy") else None
                if inner is not None:
                    array = _seg(source, inner)
                    add(f"`{_seg(source, node)}` reduces with {name}: without the {name} "
                        f"({f'`{array}` itself' if len(array) <= 30 else 'its array itself'}), your own code gives the "
                        f"answer", k,
                        lambda n, at=ast.dump(inner): copy.deepcopy(n.func.value if isinstance(n.func, ast.Attribute)
                                                                    and ast.dump(n.func.value) == at else n.args[0]),
                        2)
            if name in ("sorted", "sort") and node.args and not isinstance(node.func, ast.Attribute) or \
                    name == "sort" and isinstance(node.func, ast.Attribute) and node.args and len(node.args) == 1 \
                    and _name_of(node.func.value) in ("np", "numpy"):
                add(f"`{_seg(source, node)}` puts them in sorted order: in their own order (without the sort), your "
                    f"own code gives the answer", k, lambda n: n.args[0])
            if name in ELEMENTWISE and len(node.args) == 1 and not node.keywords:
                arg = node.args[0]
                twice = (isinstance(arg, ast.Call) and _name_of(arg.func) == name) or \
                    (isinstance(arg, ast.Name) and made.get(arg.id) == name)
                if twice:
                    add(f"`{_seg(source, node)}` applies {name} to `{_seg(source, arg)}`, which already is "
                        f"{name}(…): applied once, your own code gives the answer", k, lambda n: n.args[0])
        if isinstance(node, ast.Call) and _name_of(node.func) in ("sum", "dot", "vdot", "inner") and _squares(node):
            add(f"`{_seg(source, node)}` is a sum of squares (a squared length): with its square root, "
                f"`np.sqrt({_seg(source, node)})`, your own code gives the answer", k, _sqrt_of)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult) and ast.dump(node.left) == ast.dump(node.right):
            add(f"`{_seg(source, node)}` is a squared length (x·x): with its square root, your own code gives the "
                f"answer", k, _sqrt_of)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and isinstance(node.right, ast.Constant) \
                and node.right.value == 2 and isinstance(node.left, ast.Call) and _name_of(node.left.func) == "norm":
            add(f"`{_seg(source, node)}` squares a length: without `** 2`, your own code gives the answer", k,
                lambda n: n.left)
        other = _squared_norm_divisor(node)
        if other is not None:
            # x @ c / ‖c‖²: one length twice where each x's own length times c's belongs (a cosine per row)
            right = _seg(source, node.right)

            def per_row(n, other=other):
                n = copy.deepcopy(n)
                rows = ast.Call(ast.Attribute(ast.Attribute(ast.Name("np", ast.Load()), "linalg", ast.Load()), "norm",
                                              ast.Load()), [copy.deepcopy(other)],
                                [ast.keyword("axis", ast.UnaryOp(ast.USub(), ast.Constant(1)))])
                n.right = ast.BinOp(rows, ast.Mult(), copy.deepcopy(n.right.left))
                return n
            add(f"`{right}` divides by one length twice: divide by each one's own length times that one, "
                f"`np.linalg.norm({ast.unparse(other)}, axis=-1) * {_seg(source, node.right.left)}`, and your own "
                f"code gives the answer", k, per_row, 1)
        if params and isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div):
            # a function's whole number divided with `/` is a float, even where it divides exactly (d / h for
            # head_dim); an answer cell's float is explain.float_cause's, its rounding the other hints'
            def floor(n):
                n = copy.deepcopy(n)
                n.op = ast.FloorDiv()
                return n
            add(f"`{_seg(source, node)}` gives a float, even where it divides exactly: with `//` there (floor "
                f"division), your own code gives the answer", k, floor, 1)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and _name_of(node.value.func) == "sort" \
                and isinstance(node.value.func, ast.Attribute) and not node.value.args:
            add(f"`{_seg(source, node.value)}` puts them in sorted order: in their own order (without the sort), "
                f"your own code gives the answer", k, lambda n: None)
        whole = node.value if isinstance(node, (ast.Assign, ast.Return)) else None
        while isinstance(whole, ast.BinOp) and isinstance(whole.op, (ast.Mult, ast.Div)) and not any(
                isinstance(n, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) for n in ast.walk(whole.right)):
            whole = whole.left  # a unit the whole is scaled by (`/ 2**30`): the value it scales
        if isinstance(whole, ast.BinOp) and isinstance(whole.op, (ast.Sub, ast.Div)):
            # the whole value a difference where a ratio is asked, or the reverse: the one operator swapped
            sub = isinstance(whole.op, ast.Sub)
            other = ast.BinOp(whole.left, ast.Div() if sub else ast.Sub(), whole.right)
            add(f"`{_seg(source, whole)}` is a {'difference' if sub else 'ratio'}: the question asks for a "
                f"{'ratio (divide, do not subtract)' if sub else 'difference (subtract, do not divide)'}; with "
                f"`{_seg(None, other)}`, your own code gives the answer",
                nodes.index(whole), lambda n: ast.BinOp(n.left, ast.Div() if isinstance(n.op, ast.Sub) else ast.Sub(),
                                                         n.right), 1)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            add(f"`{_seg(source, node)}` inverts the test: without `not`, your own code gives the answer", k,
                lambda n: n.operand)
        if isinstance(node, ast.Subscript) and isinstance(node.value, (ast.ListComp, ast.GeneratorExp)) \
                and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int and node.slice.value != 0:
            # an item picked from a list the filter inverted (`[n for n in xs if not test(n)][1]`): the list the test
            # keeps holds other items, so the pick is undone with the `not`, the first item of the right list
            tests = [t for comp in node.value.generators for t in comp.ifs
                     if isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not)]
            if len(tests) == 1:
                test = tests[0]

                def kept(n, at=ast.dump(test)):
                    n = copy.deepcopy(n)
                    for comp in n.value.generators:
                        comp.ifs = [t.operand if ast.dump(t) == at else t for t in comp.ifs]
                    n.slice = ast.Constant(0)
                    return n
                add(f"`{_seg(source, test)}` keeps the items where the test is false (the filter inverted): the "
                    f"question asks for those where `{_seg(source, test.operand)}` is true; without `not`, the first "
                    f"of them is the answer", k, kept)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and isinstance(node.right, ast.Constant) \
                and node.right.value == 2 and params:
            names = {n.id for n in ast.walk(node.left) if isinstance(n, ast.Name) and n.id in params}
            if len(names) == 1:
                (old,) = names
                for other in params:
                    if other == old:
                        continue
                    second = copy.deepcopy(node.left)
                    for n in ast.walk(second):
                        if isinstance(n, ast.Name) and n.id == old:
                            n.id = other
                    factor = ast.unparse(node.left)
                    add(f"`{_seg(source, node)}` is `{factor}` times itself: with its second factor of `{other}`, "
                        f"`{factor} * {ast.unparse(second)}`, your own code gives the answer", k,
                        lambda n, second=second: ast.BinOp(n.left, ast.Mult(), second))
    for k, node in enumerate(nodes):
        try:
            made = _test_and_call_edits(source, nodes, k, node, values)
        except (ValueError, TypeError, IndexError, AttributeError, RecursionError):
            continue  # a node these edits cannot read: the others are still made
        for words, at, make, rank, meta in made:
            add(words, at, make, rank, meta)
    for k, node in enumerate(nodes):  # after the constructs above (a function twice, `+=`)
        if params and isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) \
                and 2 <= len(node.value.elts) <= 3 and not any(isinstance(e, ast.Starred) for e in node.value.elts):
            # the results returned in another order (`return dU, dE` where (dE, dU) is asked): each pair swapped
            elts = node.value.elts
            for i in range(len(elts)):
                for j in range(i + 1, len(elts)):
                    if ast.dump(elts[i]) == ast.dump(elts[j]):
                        continue
                    order = ast.Tuple([copy.deepcopy(e) for e in elts], ast.Load())
                    order.elts[i], order.elts[j] = order.elts[j], order.elts[i]
                    add(f"your function returns `{_seg(source, node.value)}`: the results are right, in another "
                        f"order: with `return {_seg(None, order).strip('()')}`, your own code gives the answer", k,
                        lambda n, i=i, j=j: ast.Return(_swapped_elts(n.value, i, j)))
    if extremes:  # a choice answer: the end it is taken at (min for max), or a dict's keys compared for its values
        for words, at, make, rank, meta in _extreme_edits(source, nodes):
            add(words, at, make, rank, meta)
    for k, node in enumerate(nodes):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) \
                and any(comp.ifs for comp in node.generators):
            # a comprehension's filter (`if …`): without it, every item is kept; a code reading that names the filter
            # ("your code leaves some words out") is shown only where this edit gives the answer (explain)
            tests = [t for comp in node.generators for t in comp.ifs]

            def unfiltered(n):
                n = copy.deepcopy(n)
                for comp in n.generators:
                    comp.ifs = []
                return n
            add(f"{FILTER_LEAD} `if {_seg(source, tests[0])}` leaves items out: without that filter, your own code "
                f"gives the answer", k, unfiltered, 1)
            for test in tests:  # one test of an `and` left out (`if count_tokens(w) == 1 and w.isalpha()`)
                if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
                    for i, operand in enumerate(test.values):
                        def fewer(n, at=ast.dump(test), i=i):
                            n = copy.deepcopy(n)
                            for comp in n.generators:
                                for j, t in enumerate(comp.ifs):
                                    if ast.dump(t) == at:
                                        rest = [v for m, v in enumerate(t.values) if m != i]
                                        comp.ifs[j] = rest[0] if len(rest) == 1 else ast.BoolOp(ast.And(), rest)
                            return n
                        add(f"{FILTER_LEAD} `if` also tests `{_seg(source, operand)}`, which leaves items out: without "
                            f"that test, your own code gives the answer", k, fewer, 1)
    # a count the cell makes (`n = len(never)`, `n = 9`) used in a product or a quotient where one less (or one more)
    # belongs: `n * n / 2` pairs where n·(n − 1)/2 are, each use in turn
    counts = {t.id for n in nodes if isinstance(n, ast.Assign) and len(n.targets) == 1
              and isinstance(t := n.targets[0], ast.Name) and (
                  isinstance(n.value, ast.Call) and _name_of(n.value.func) == "len"
                  or isinstance(n.value, ast.Constant) and type(n.value.value) is int and n.value.value >= 2)}
    for k, node in enumerate(nodes):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in counts:
            parent = _parent(nodes, node)
            if not (isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.Mult, ast.Div, ast.FloorDiv))):
                continue
            for sign, op in (("-", ast.Sub()), ("+", ast.Add())):
                add(f"`{_seg(source, parent)}` uses `{node.id}` where `{node.id} {sign} 1` belongs: with "
                    f"`{node.id} {sign} 1` there, your own code gives the answer", k,
                    lambda n, op=op: ast.BinOp(ast.Name(n.id, ast.Load()), op, ast.Constant(1)), 1)
    sequences = sorted(n for n, v in (values or {}).items() if isinstance(v, (list, tuple)) or hasattr(v, "ndim"))
    assigned = {t.id for n in nodes if isinstance(n, (ast.Assign, ast.AugAssign, ast.For, ast.comprehension))
                for t in ast.walk(n.target if hasattr(n, "target") else ast.Tuple(n.targets, ast.Store()))
                if isinstance(t, ast.Name)}
    for k, node in enumerate(nodes):
        # a list the notebook gives (its words, its ids) read where another list it gives belongs (`pair` for
        # `sentence`, question 2's `ids` for `batch`): each other one put in its place
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in sequences \
                and node.id not in assigned and not _length_of(nodes, node):
            for other in sequences:
                if other != node.id:
                    add(f"your cell reads `{node.id}` where `{other}` belongs (at `{_seg(source, _parent(nodes, node))}`"
                        f"): with `{other}` there, your own code gives the answer", k,
                        lambda n, other=other: ast.Name(other, ast.Load()), 2)
    if params:
        for k, node in enumerate(nodes):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in params:
                for other in params:
                    if other != node.id:
                        add(f"your code reads `{node.id}` where `{other}` belongs (at `{_seg(source, _parent(nodes, node))}`): "
                            f"with `{other}` there, your own code gives the answer", k,
                            lambda n, other=other: ast.Name(other, ast.Load()), 2)
    # the slips one construct makes first (a function twice, a root, a sort, a `not`), then an axis, then a name read
    # for another (many of them in a long body): what is reported within undo.BYTES is what can be named
    return [(words, new) for words, new, _ in sorted(out, key=lambda item: item[2])]


def _squared_norm_divisor(node):
    """For `a @ c / norm(c) ** 2` (or np.dot(a, c), c @ a, a dot product over c's squared length), the other
    operand `a`; None for anything else."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.right, ast.BinOp)
            and isinstance(node.right.op, ast.Pow) and isinstance(node.right.right, ast.Constant)
            and node.right.right.value == 2 and isinstance(node.right.left, ast.Call)
            and _name_of(node.right.left.func) == "norm" and len(node.right.left.args) == 1
            and not node.right.left.keywords):
        return None
    squared = ast.dump(node.right.left.args[0])
    top = node.left
    if isinstance(top, ast.BinOp) and isinstance(top.op, ast.MatMult):
        pair = (top.left, top.right)
    elif isinstance(top, ast.Call) and _name_of(top.func) in ("dot", "inner") and len(top.args) == 2:
        pair = tuple(top.args)
    else:
        return None
    same = [ast.dump(p) == squared for p in pair]
    if same.count(True) != 1:
        return None
    return pair[same.index(False)]


def _test_and_call_edits(source: str, nodes: list, k: int, node, values: dict | None) -> list:
    """The edits of one node that invert a test, scatter with np.add.at, swap two arguments of a call, or put 1 (or
    a parameter's name) where the call has a number typed: [(words, the node's place, make, rank)]."""
    out = []

    def add(words, at, make, rank=0, meta=None):
        out.append((words, at, make, rank, meta))

    flip = {FLIP: True}
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in BOUNDARY:
        # the boundary kept or left out (`i <= j` where `i < j` belongs: the diagonal): tried before the inversion,
        # which a symmetric table would also prove (`i > j` holds the same pairs as `i < j`)
        moved = BOUNDARY[type(node.ops[0])]()
        shown = _seg(None, ast.Compare(node.left, [moved], node.comparators))
        add(f"`{_seg(source, node)}` {'keeps' if type(node.ops[0]) in (ast.LtE, ast.GtE) else 'leaves out'} the "
            f"boundary (where the two sides are equal): with `{shown}`, your own code gives the answer", k,
            lambda n, moved=moved: ast.Compare(n.left, [moved], n.comparators), 1, flip)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in INVERSE:
        flipped = INVERSE[type(node.ops[0])]()
        inverse = ast.Compare(node.left, [flipped], node.comparators)
        add(f"`{_seg(source, node)}` inverts the test, so your code keeps its complement (what the test should "
            f"leave out): with `{_seg(None, inverse)}`, your own code gives the answer", k,
            lambda n, flipped=flipped: ast.Compare(n.left, [flipped], n.comparators), 1, flip)
    for test in _tests(node):
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) or \
                isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in INVERSE:
            continue  # a `not` left out, or a comparison inverted, above: the same edit
        negated = _seg(None, ast.UnaryOp(ast.Not(), test))
        add(f"the test `{_seg(source, test)}` is the wrong way round, so your code keeps its complement: with "
            f"`{negated}`, your own code gives the answer", nodes.index(test), lambda n: ast.UnaryOp(ast.Not(), n), 1,
            flip)
    if isinstance(node, ast.AugAssign) and isinstance(node.op, (ast.Add, ast.Sub)) \
            and isinstance(node.target, ast.Subscript) and _may_repeat(node.target.slice):
        ufunc = "add" if isinstance(node.op, ast.Add) else "subtract"
        target = _seg(source, node.target.value)
        index = _seg(None, _at_index(node.target.slice, shown=True))
        add(f"`{_seg(source, node)}` adds a repeated index once: with `np.{ufunc}.at({target}, {index}, …)`, "
            f"your own code gives the answer", k, lambda n, ufunc=ufunc: _at(n, ufunc))
    if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript) \
            and _may_repeat(node.targets[0].slice) and _starts_at_zero(nodes, node.targets[0].value):
        # rows written into a table of zeros (`dE[ids] = dx0`): a repeated index keeps its last value only
        target = _seg(source, node.targets[0].value)
        index = _seg(None, _at_index(node.targets[0].slice, shown=True))
        add(f"`{_seg(source, node)}` keeps one value per repeated index (the last written): with "
            f"`np.add.at({target}, {index}, …)`, your own code gives the answer", k, lambda n: _at(n, "add"))
    if isinstance(node, ast.Call) and _name_of(node.func) not in SYMMETRIC | UNSWAPPED:
        args = node.args
        if 2 <= len(args) <= 4 and not any(isinstance(a, ast.Starred) for a in args):
            pairs = [(i, j) for i in range(len(args)) for j in range(i + 1, len(args))] if len(args) <= 3 \
                else [(i, i + 1) for i in range(len(args) - 1)]
            for i, j in pairs:
                if ast.dump(args[i]) == ast.dump(args[j]):
                    continue
                swapped = copy.deepcopy(node)
                swapped.args[i], swapped.args[j] = swapped.args[j], swapped.args[i]
                words = (f"`{_seg(source, node)}` gets `{_seg(source, args[i])}` and `{_seg(source, args[j])}` the "
                         f"other way round: with them swapped, `{_seg(None, swapped)}`, your own code gives the "
                         f"answer")
                add(words, k, lambda n, i=i, j=j: _swapped(n, i, j), 1)
                # the controls: the call left out, one of its arguments in its place; when that gives the answer too,
                # the swap only made the call do nothing (padded_size(64, n) is n), and proves no order
                for a in (i, j):
                    add(f"{CONTROL_PREFIX}{a}: {words}", k, lambda n, a=a: copy.deepcopy(n.args[a]), 1,
                        {CONTROL: words})
        numbers = [] if _name_of(node.func) in SETTINGS else [*args, *(kw.value for kw in node.keywords
                                                                           if kw.arg not in KEPT_KEYWORDS)]
        for arg in numbers:
            if not (isinstance(arg, ast.Constant) and isinstance(arg.value, (int, float))
                    and not isinstance(arg.value, bool) and arg.value != 0):
                continue  # (a 1 typed may stand for a parameter; 1 in its place is no edit, skipped below)
            typed = _seg(source, arg)
            for name, value in [("1", 1), *sorted((values or {}).items())]:
                if type(value) is not type(arg.value) and name != "1" or value == arg.value:
                    continue
                put = ast.Constant(1 if isinstance(arg.value, int) else 1.0) if name == "1" \
                    else ast.Name(name, ast.Load())
                words = (f"`{_seg(source, node)}` is given the number {typed} you typed: with "
                         f"{'1' if name == '1' else f'`{name}`'} in its place, your own code gives the answer")
                rank = 1 if name == "1" else 2  # a parameter's name after the edits of one construct
                add(words, nodes.index(arg), lambda n, put=put: copy.deepcopy(put), rank)
                # the control: another number there must not give the answer too (a rounding's digits, a cap
                # past every value: any large number would do, so the name proves nothing)
                other = value + 1
                add(f"{CONTROL_PREFIX}{words}", nodes.index(arg), lambda n, other=other: ast.Constant(other), rank,
                    {CONTROL: words})
    return out


FLIP = "undo_flip"  # an edit that inverts a test: on a choice among a few words any flip reaches another word
CONTROL = "undo_control"  # an edit run only to check another's: the words of the edit it checks
CONTROL_PREFIX = "(control) "
# a comparison and its boundary moved: the same test with the equal case kept or left out
BOUNDARY = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt}
# calls whose first two arguments are a start and a stop: swapped, they give nothing (an empty range), which is
# leaving the range out, not the order of the arguments
UNSWAPPED = {"range", "arange", "slice", "linspace", "randint", "integers", "uniform", "clip"}
# a comparison and its inverse: the test that keeps what the other leaves out
INVERSE = {ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Lt: ast.GtE,
           ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Is: ast.IsNot, ast.IsNot: ast.Is}
# calls whose positional arguments give the same in either order: a swap undoes nothing
SYMMETRIC = {"max", "min", "maximum", "minimum", "fmax", "fmin", "add", "multiply", "hypot", "gcd", "lcm", "isclose",
             "allclose", "array_equal", "logaddexp", "print", "zip", "union", "intersection"}
# keyword arguments whose number is a setting, not a quantity of the question (axis has its own edit)
SETTINGS = {"round", "around", "format", "set_printoptions", "printoptions", "seed", "default_rng", "RandomState",
            "sleep", "reshape", "transpose", "astype", "view"}  # calls whose numbers are settings or shapes
KEPT_KEYWORDS = {"axis", "keepdims", "ddof", "ord", "seed", "decimals", "ndigits", "dtype", "base", "step"}


def _tests(node) -> list:
    """The tests a statement or expression keeps or leaves out by: an `if`'s, a `while`'s, a conditional
    expression's, a comprehension's filters."""
    if isinstance(node, (ast.If, ast.While, ast.IfExp)):
        return [node.test]
    if isinstance(node, ast.comprehension):
        return list(node.ifs)
    return []


def _may_repeat(index) -> bool:
    """Can a subscript's index hold one position twice (an array or list of ids), not a slice or one number?"""
    items = index.elts if isinstance(index, ast.Tuple) else [index]
    if not any(not isinstance(i, (ast.Slice, ast.Constant)) for i in items):
        return False
    # a single name or expression read as one position (E[i] in a loop) is as likely: the edit's value decides
    return True


def _at(node, ufunc: str):
    """`X[idx] += v` (or `X[idx] = v`) as `np.add.at(X, idx, v)` (`-=`: np.subtract.at), a slice as slice(…)."""
    numpy = ast.Call(ast.Name("__import__", ast.Load()), [ast.Constant("numpy")], [])
    subscript = node.target if isinstance(node, ast.AugAssign) else node.targets[0]  # `X[idx] = v` too
    target = copy.deepcopy(subscript.value)
    target.ctx = ast.Load()
    call = ast.Call(ast.Attribute(ast.Attribute(numpy, ufunc, ast.Load()), "at", ast.Load()),
                    [target, _at_index(subscript.slice), node.value], [])
    return ast.Expr(call)


def _at_index(index, shown: bool = False):
    """A subscript's index as np.add.at takes it: its trailing whole slices (`ids, :`) left out, any other slice
    as slice(…) (`shown`: written `slice(…)` for the words, else the builtin itself, which no name can hide)."""
    items = list(index.elts) if isinstance(index, ast.Tuple) else [index]
    while len(items) > 1 and isinstance(items[-1], ast.Slice) and not (items[-1].lower or items[-1].upper
                                                                           or items[-1].step):
        items.pop()

    def plain(i):
        if not isinstance(i, ast.Slice):
            return i
        builtin = ast.Name("slice", ast.Load()) if shown else ast.Attribute(
            ast.Call(ast.Name("__import__", ast.Load()), [ast.Constant("builtins")], []), "slice", ast.Load())
        return ast.Call(builtin, [i.lower or ast.Constant(None), i.upper or ast.Constant(None),
                                  i.step or ast.Constant(None)], [])
    return plain(items[0]) if len(items) == 1 else ast.Tuple([plain(i) for i in items], ast.Load())


def _starts_at_zero(nodes: list, target) -> bool:
    """Is the table a subscript writes into made as zeros in the same code (`dE = np.zeros(…)`, np.zeros_like)?"""
    if not isinstance(target, ast.Name):
        return False
    for node in nodes:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == target.id for t in node.targets) \
                and isinstance(node.value, ast.Call) and _name_of(node.value.func) in ("zeros", "zeros_like"):
            return True
    return False


def _length_of(nodes, node) -> bool:
    """Is `node` read only for its length (`len(words)`, `np.size(x)`)? A length is a count, whose swap for another
    list's proves nothing of the list read (3 features for 4 words may fit any count the value needs)."""
    parent = _parent(nodes, node)
    return isinstance(parent, ast.Call) and _name_of(parent.func) in ("len", "size") and node in parent.args


def _swapped_elts(node, i: int, j: int):
    node = copy.deepcopy(node)
    node.elts[i], node.elts[j] = node.elts[j], node.elts[i]
    return node


def _swapped(node, i: int, j: int):
    node = copy.deepcopy(node)
    node.args[i], node.args[j] = node.args[j], node.args[i]
    return node


def first(made: list, n: int) -> list:
    """The first n edits of `made` (edits' list), each with its controls (undo.CONTROL): what is run."""
    out, count = [], 0
    for words, tree in made:
        if getattr(tree, CONTROL, None) is None:
            count += 1
            if count > n:
                break
        out.append((words, tree))
    return out


def _squares(call) -> bool:
    """Does a sum (np.sum(x ** 2), (x * x).sum(), np.dot(x, x)) add squares?"""
    def square(n) -> bool:
        return isinstance(n, ast.BinOp) and (
            isinstance(n.op, ast.Pow) and isinstance(n.right, ast.Constant) and n.right.value == 2
            or isinstance(n.op, ast.Mult) and ast.dump(n.left) == ast.dump(n.right))

    if _name_of(call.func) in ("dot", "vdot", "inner"):
        return len(call.args) == 2 and ast.dump(call.args[0]) == ast.dump(call.args[1])
    if call.args:
        return square(call.args[0])
    return isinstance(call.func, ast.Attribute) and square(call.func.value)


def _sqrt_of(node):
    numpy = ast.Call(ast.Name("__import__", ast.Load()), [ast.Constant("numpy")], [])
    return ast.Call(ast.Attribute(numpy, "sqrt", ast.Load()), [node], [])


def _parent(nodes, node):
    for parent in nodes:
        for child in ast.iter_child_nodes(parent):
            if child is node:
                return parent if not isinstance(parent, (ast.Module, ast.stmt)) else node
    return node


YES_NO = {"yes", "no", "true", "false"}  # a choice of two: any flip of a wrong one gives the right one


def proven(question, elsewhere, right) -> str | None:
    """The words of the first edit reported in `elsewhere` whose value `right(got)` says is the answer, or None.
    Never for a yes/no answer: any edit that flips a wrong yes/no gives the answer, so it proves nothing about the
    slip (a `not` removed from a test of the wrong thing). A choice among models is proven as a number is."""
    cases = [c for c in (elsewhere if isinstance(elsewhere, (list, tuple)) else ()) if isinstance(c, dict)]
    # an edit whose control (another number in the same place) gives the answer too: that number does not matter
    loose = set()
    for case in cases:
        if isinstance(case.get(CONTROL), str) and case.get("kind") == question.kind and "got" in case:
            try:
                if right(case["got"]):
                    loose.add(case[CONTROL])
            except Exception:  # noqa: BLE001 - a malformed report proves nothing, nor disproves
                continue
    for case in cases:
        if not isinstance(case.get(UNDONE), str) or "got" not in case or case.get(CONTROL) is not None:
            continue
        if case.get("kind") != question.kind or case[UNDONE] in loose:
            continue
        if str(case[UNDONE]).startswith(FILTER_LEAD) and not any(
                "filter" in str(tokens).split("|") for tokens in (getattr(question, "avoids", None) or {})):
            continue  # a filter taken out weighs a question's own words for filters (`avoids`); elsewhere the filter
            # may be the way the answer's own part is written (cat left out of its own row), not the slip
        got = case["got"]
        if question.kind == "choice" and isinstance(got, dict) and str(got.get("str", "")).strip().lower() in YES_NO:
            continue
        if question.kind == "choice" and case.get(FLIP):
            continue  # a test inverted in a choice among a few words: any flip reaches another of them
        try:
            if right(case["got"]):
                return case[UNDONE][:300]
        except Exception:  # noqa: BLE001 - the kernel's report is the learner's: a malformed one proves nothing
            continue
    return None
