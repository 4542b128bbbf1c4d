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
import re
import copy
import pickle


__all__ = ["edits", "first", "proven", "UNDONE", "FLIP", "CONTROL", "DIRECTION", "EDITS", "SECONDS", "BYTES",
           "PROBE_BYTES"]

EDITS = 8  # edits run per answer at most
# the words of edits that name a slip the value may also show another way (a one left out, two sizes added, a whole
# array reduced): proven as every edit is, but said after the question's own stories (kinds: Question._proven_edit)
ONE_LEFT_OUT, SIZES_ADDED, WHOLE_REDUCED = ("one: without the", "adds two sizes where their product belongs",
                                            "reduces the whole array to one number")
FIRST_ITEM = "tests only the first item"
LATE = (ONE_LEFT_OUT, SIZES_ADDED, WHOLE_REDUCED, FIRST_ITEM)
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
    # a big whole float as the learner most likely typed it (the cell is run unparsed: 8e9 reads 8000000000.0)
    text = re.sub(r"(?<![\w.])([1-9](?:\d?[1-9])?)(0{6,})\.0(?![\w.])",
                  lambda m: f"{m.group(1)}e{len(m.group(2))}", text)
    return text if len(text) <= 60 else text[:57] + "…"


def _seg_operator(source: str | None, node, op: str) -> str | None:
    """The learner's own text of a binary operation with its operator written `op` instead (`a // b` as
    `a / b`), every other character as they typed it (a generator's parentheses are not doubled, as
    ast.unparse doubles them); None where the text cannot be cut there."""
    try:
        text = ast.get_source_segment(source, node) if source else None
        left = ast.get_source_segment(source, node.left) if source else None
    except (IndexError, ValueError):
        return None
    if not text or left is None:
        return None
    lines = source.splitlines(keepends=True)
    # the text from the operation's start to its left operand's end, then the operator in what follows
    def at(line: int, col: int) -> int:  # a (line, byte column) as an index in the text
        return sum(len(x) for x in lines[:line - 1]) + len(lines[line - 1].encode()[:col].decode())
    start, end = at(node.lineno, node.col_offset), at(node.left.end_lineno, node.left.end_col_offset)
    head, tail = text[:end - start], text[end - start:]
    symbol = {ast.FloorDiv: "//", ast.Div: "/", ast.Mult: "*", ast.Add: "+", ast.Sub: "-"}.get(type(node.op))
    if symbol is None or symbol not in tail:
        return None
    cut_at = tail.index(symbol)
    if tail[:cut_at].strip(" \t\n)\\"):
        return None  # something else stands between the left operand and the operator
    edited = " ".join((head + tail[:cut_at] + op + tail[cut_at + len(symbol):]).split())
    return edited if len(edited) <= 60 else edited[:57] + "…"


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
          extremes: bool = False, names: dict | None = None,
          belongs: frozenset | None = None, factors: bool = False) -> list[tuple[str, ast.AST]]:
    """[(the edit in words, the code's tree with it made)] for each slip one edit of `source` undoes: an axis
    swapped (0 and 1), a sort left out (sorted, np.sort, .sort()), a `not` left out or put in, a comparison
    inverted (`in` for `not in`, `==` for `!=`, `<` for `>=`, `is` for `is not`), an elementwise function applied
    once where it is applied to its own result, `X[idx] += v` (a repeated index adds once) made `np.add.at(X, idx,
    v)`, a function's `/` made `//` (a whole number divided), two positional arguments of a call swapped, a number typed as a call's argument replaced by 1 or by a
    value of `values` ({name: number}: the notebook's parameters) of its type, and, among a function's
    parameters (`params`), one read for another or a square whose second factor is another parameter's (‖a‖²
    where ‖a‖·‖b‖ belongs). `belongs`: the names the solution's own lines read, where known: a list the notebook
    gives is tried in another's place only where the solution reads it (`words` for `pair[0]` is no slip where the
    answer never reads `words`: that it gives the answer is the book's data, a symmetric cosine)."""
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
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) \
                and all(isinstance(side, (ast.Subscript, ast.Call)) for side in (node.left, node.right)):
            # two arrays added entry by entry where they belong one after the other (E[animals] + E[vehicles] for the
            # rows of both lists, np.array(a) + np.array(b) for both lists of ids): joined, np.concatenate
            left, right = _seg(source, node.left), _seg(source, node.right)
            add(f"`{_seg(source, node)}` adds two arrays entry by entry: joined one after the other, "
                f"np.concatenate([{left}, {right}]), your own code gives the answer", k,
                lambda n: ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "concatenate", ast.Load()),
                                   [ast.List([n.left, n.right], ast.Load())], []), 2)
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
            counted = _counted_not_summed(source, node)
            if counted:  # the values of the entries added where their number is asked (a table's 1s)
                add(counted[0], k, counted[1], 1)
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
        if isinstance(whole, ast.BinOp) and isinstance(whole.op, (ast.Sub, ast.Div)) and not (
                isinstance(whole.right, ast.Constant) and whole.right.value in (0, 1)):
            # the whole value a difference where a ratio is asked, or the reverse: the one operator swapped (not of
            # `x - 1`: `x / 1` is x itself, the `- 1` dropped, no ratio; the question's kind is not borne out)
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
    try:
        for words, at, make, rank, meta in _adapted_once(source, nodes):
            add(words, at, make, rank, meta)
    except (ValueError, TypeError, IndexError, AttributeError, RecursionError):
        pass
    for k, node in enumerate(nodes):
        try:
            made = _construct_edits(source, nodes, k, node)
        except (ValueError, TypeError, IndexError, AttributeError, RecursionError):
            continue
        for words, at, make, rank, meta in made:
            add(words, at, make, rank, meta)
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
    if names:  # a value typed where an input of the notebook belongs (the lesson's 50257 for this question's V)
        for k, node in enumerate(nodes):
            try:
                made = _literal_edits(source, nodes, k, node, names)
            except (ValueError, TypeError, IndexError, AttributeError, RecursionError):
                continue
            for words, at, make, rank, meta in made:
                add(words, at, make, rank, meta)
        for words, at, make, rank, meta in _literal_pairs(source, nodes, names):
            add(words, at, make, rank, meta)
        for words, at, make, rank, meta in _twice_edits(source, nodes, names):
            add(words, at, make, rank, meta)
    if factors:  # an array answer: the whole of it scaled by a factor its lines compute (`* np.sqrt(d)`)
        for words, at, make, rank, meta in _factor_edits(source, nodes):
            add(words, at, make, rank, meta)
    if extremes:  # a choice answer: the end it is taken at (min for max), or a dict's keys compared for its values
        for words, at, make, rank, meta in _extreme_edits(source, nodes):
            add(words, at, make, rank, meta)
    for k, node in enumerate(nodes):
        # a set that keeps one of each repeated item (two equal rows, a word twice): as a list, every item kept
        if isinstance(node, ast.SetComp):
            add(f"`{_seg(source, node)}` is a set, which keeps one of each repeated item: as a list (in "
                f"square brackets), your own code gives the answer", k,
                lambda n: ast.ListComp(copy.deepcopy(n.elt), copy.deepcopy(n.generators)), 1)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "set" \
                and len(node.args) == 1 and not node.keywords:
            add(f"`{_seg(source, node)}` is a set, which keeps one of each repeated item: as a list, "
                f"`list({_seg(source, node.args[0])})`, your own code gives the answer", k,
                lambda n: ast.Call(ast.Name("list", ast.Load()), [copy.deepcopy(n.args[0])], []), 1)
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
                and node.id not in assigned and not _length_of(nodes, node) \
                and not isinstance(_parent(nodes, node), ast.Attribute):  # `sentence.index(w)`: a position, read so
            for other in sequences:
                # only a list of the same kind (words for words, ids for ids, a table for a table): a list of
                # words read for a table's rows lands on the answer, where it does, by what its items happen to be
                if other != node.id and (belongs is None or other in belongs) \
                        and _kind_of(values[other]) == _kind_of(values[node.id]):
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
    for k, node in enumerate(nodes):
        # a one added or taken away where none belongs (`n_tok + n_new - 1`, the last id where the count of ids is
        # asked; `b - a + 1`, a range's ends both counted): the one left out
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) \
                and isinstance(node.right, ast.Constant) and type(node.right.value) is int and node.right.value == 1:
            sign = "+" if isinstance(node.op, ast.Add) else "-"
            add(f"`{_seg(source, node)}` {'adds' if sign == '+' else 'takes away'} {ONE_LEFT_OUT} `{sign} 1`, "
                f"`{_seg(source, node.left)}`, your own code gives the answer", k, lambda n: n.left, 2)
    for k, node in enumerate(nodes):
        # a reduction of the whole array where one value per column (or per row) belongs (`M[ids].mean()` for the
        # mean row, R's mean of a matrix): with an axis
        if isinstance(node, ast.Call) and _name_of(node.func) in REDUCTIONS and not node.keywords \
                and _name_of(node.func) not in ("count_nonzero", "logsumexp") and (
                    isinstance(node.func, ast.Attribute) and _name_of(node.func.value) not in ("np", "numpy", "math")
                    and not node.args
                    or isinstance(node.func, ast.Attribute) and _name_of(node.func.value) in ("np", "numpy")
                    and len(node.args) == 1):
            for axis in (0, 1):
                def along(n, axis=axis):
                    n = copy.deepcopy(n)
                    n.keywords.append(ast.keyword("axis", ast.Constant(axis)))
                    return n
                add(f"`{_seg(source, node)}` {WHOLE_REDUCED}: along axis {axis} "
                    f"({_axis_words(axis)}), your own code gives the answer", k, along, 2)
    for k, node in enumerate(nodes):
        # a sequence's first item tested where every item belongs (`encode(w)[0] in kept`: the word covered when its
        # first token is): each item tested, all(...)
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)) \
                and isinstance(node.left, ast.Subscript) and isinstance(node.left.slice, ast.Constant) \
                and node.left.slice.value == 0 and type(node.left.slice.value) is int:
            def every(n):
                item = ast.Name("_item", ast.Load())
                test = ast.Compare(item, [ast.In()], [copy.deepcopy(n.comparators[0])])
                made = ast.Call(ast.Name("all", ast.Load()), [ast.GeneratorExp(test, [ast.comprehension(
                    ast.Name("_item", ast.Store()), copy.deepcopy(n.left.value), [], 0)])], [])
                return made if isinstance(n.ops[0], ast.In) else ast.UnaryOp(ast.Not(), made)
            seq, where = _seg(source, node.left.value), _seg(source, node.comparators[0])
            add(f"`{_seg(source, node)}` {FIRST_ITEM} of `{seq}`: with every item tested, `all(t in {where} for t "
                f"in …)`, your own code gives the answer", k, every, 2)
    sums = {}  # two names added (`V + d`): where the table's size V × d belongs, each place it is written
    for node in nodes:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) \
                and all(isinstance(side, ast.Name) for side in (node.left, node.right)):
            sums.setdefault(ast.dump(node), node)
    for at, node in list(sums.items())[:2]:
        product = _copy_tree(tree)
        for n in ast.walk(product):
            if isinstance(n, ast.BinOp) and ast.dump(n) == at:
                n.op = ast.Mult()
        words = (f"`{_seg(source, node)}` {SIZES_ADDED}: with "
                 f"`{node.left.id} * {node.right.id}`, your own code gives the answer")
        if words not in [w for w, _, _ in out]:
            out.append((words, product, 2))
    # the slips one construct makes first (a function twice, a root, a sort, a `not`), then an axis, then a name read
    # for another (many of them in a long body): what is reported within undo.BYTES is what can be named
    return [(words, new) for words, new, _ in sorted(out, key=lambda item: item[2])]


def _counted_not_summed(source: str, node) -> tuple | None:
    """(words, make) for a sum of entries' values (`X.sum()`, `np.sum(X)`, `sum(r)`) made their number
    (`X.size`, `np.size(X)`, `len(r)`), or None for any other call."""
    name = _name_of(node.func)
    if name != "sum" or node.keywords:
        return None
    if isinstance(node.func, ast.Attribute) and not node.args \
            and _name_of(node.func.value) not in ("np", "numpy", "math", "torch"):
        array = node.func.value
        new = ast.Attribute(copy.deepcopy(array), "size", ast.Load())
    elif isinstance(node.func, ast.Attribute) and len(node.args) == 1 \
            and _name_of(node.func.value) in ("np", "numpy"):
        array = node.args[0]
        new = ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "size", ast.Load()), [copy.deepcopy(array)], [])
    elif isinstance(node.func, ast.Name) and len(node.args) == 1 \
            and not isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp, ast.Starred)):
        array = node.args[0]
        new = ast.Call(ast.Name("len", ast.Load()), [copy.deepcopy(array)], [])
    else:
        return None
    words = (f"`{_seg(source, node)}` adds up the values of `{_seg(source, array)}`: their number, "
             f"`{_seg(None, new)}`, is what is counted; with it, your own code gives the answer")
    return words, lambda n, new=new: copy.deepcopy(new)


def _factor_edits(source: str, nodes: list) -> list:
    """The edits of a whole value scaled by a factor the lines compute (`E[ids] * np.sqrt(d)`, `x / len(pair)`,
    not a typed unit such as `/ 1e9`): the value assigned (or returned) with that factor left out. Proven only
    where the learner's own code, so run, gives the answer (a factor of 2 is then no part counted twice):
    [(words, the node's place, make, rank, meta)]."""
    out = []
    for node in nodes:
        whole = node.value if isinstance(node, (ast.Assign, ast.Return)) else None
        while isinstance(whole, ast.BinOp) and isinstance(whole.op, (ast.Mult, ast.Div)):
            sides = [(whole.right, 0)] + ([(whole.left, 1)] if isinstance(whole.op, ast.Mult) else [])
            for factor, kept in sides:
                if not any(isinstance(n, (ast.Name, ast.Call, ast.Attribute, ast.Subscript))
                           for n in ast.walk(factor)):
                    continue  # a typed constant: a unit, a percentage, its own stories
                verb = "multiplies" if isinstance(whole.op, ast.Mult) else "divides"
                what = "factor" if verb == "multiplies" else "division"
                out.append((f"your code {verb} the whole value by `{_seg(source, factor)}`: without that "
                            f"{what}, your own code gives the answer", nodes.index(whole),
                            lambda n, kept=kept: copy.deepcopy(n.left if kept == 0 else n.right), 2, None))
            whole = whole.left
    return out


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


EVERY_BYTE = {"latin-1", "latin1", "iso-8859-1", "iso8859-1", "l1", "cp1252", "windows-1252", "cp437"}
ROUNDING = {"round", "around", "rint"}  # calls that drop digits of a computed value (floor and ceil choose a side)
ANGLES = {"arccos", "acos", "degrees", "rad2deg", "arcsin", "asin"}  # calls that make a cosine an angle


def _peel(node, names: set):
    """`node` with every call of `names` wrapped round it taken off (np.degrees(np.arccos(x)) -> x)."""
    while isinstance(node, ast.Call) and _name_of(node.func) in names and node.args \
            and not isinstance(node.args[0], ast.Starred):
        node = node.args[0]
    return copy.deepcopy(node)


def _binds(op) -> int:
    return 1 if isinstance(op, (ast.Add, ast.Sub)) else 2 if isinstance(op, (ast.Mult, ast.Div, ast.FloorDiv, ast.Mod,
                                                                             ast.MatMult)) else 0


def _under_xor(nodes: list, node) -> bool:
    parent = _parent(nodes, node)
    return parent is not node and isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.BitXor)


def _xor_as_power(node, source: str | None = None):
    """`a * b ^ 2` (Python reads it as (a * b) ^ 2, an XOR) as the power it was meant to be, `a * b ** 2`: the
    learner's own text with each `^` written `**`, read again (`12 * d ^ 2 + 13 * d`, which Python groups as
    (12 * d) ^ (2 + 13 * d), is 12 * d ** 2 + 13 * d); where the text cannot be read, the exponent taken by the last
    factor of the left side."""
    text = None
    try:
        text = ast.get_source_segment(source, node) if source else None
    except (IndexError, ValueError):
        text = None
    if text and "^" in text:
        try:
            return ast.parse(text.replace("^", "**"), mode="eval").body
        except SyntaxError:
            pass
    left = copy.deepcopy(node.left)
    exponent = copy.deepcopy(node.right)
    if not isinstance(left, ast.BinOp) or isinstance(left.op, ast.Pow):
        return ast.BinOp(left, ast.Pow(), exponent)
    spine = left
    while isinstance(spine.right, ast.BinOp) and not isinstance(spine.right.op, ast.Pow) \
            and _binds(spine.right.op) >= _binds(spine.op):  # a child that binds less was written in parentheses
        spine = spine.right
    spine.right = ast.BinOp(spine.right, ast.Pow(), exponent)
    return left


def _shape(source: str, node) -> str:
    """A call as its shape, the value it takes left out: `round(…, -6)`, `np.degrees(np.arccos(…))`, `x.round(2)`
    as `….round(2)`: the construct named, not the learner's whole expression again."""
    if not isinstance(node, ast.Call):
        return "…"
    func = _seg(source, node.func)
    if isinstance(node.func, ast.Attribute) and not (isinstance(node.func.value, ast.Name)
                                                     and node.func.value.id in ("np", "numpy", "math")):
        func = "…." + node.func.attr
        inner, rest = None, list(node.args)
    else:
        inner, rest = (node.args[0] if node.args else None), list(node.args[1:])
    first = _shape(source, inner) if isinstance(inner, ast.Call) and _name_of(inner.func) in ANGLES | ROUNDING \
        else "…" if inner is not None else ""
    others = [_seg(source, a) for a in rest] + [f"{k.arg}={_seg(source, k.value)}" for k in node.keywords if k.arg]
    return f"{func}({', '.join(([first] if first else []) + others)})"


def _verb(op) -> str:
    return "multiplies" if isinstance(op, ast.Mult) else "divides"


def _parenthesised(source: str, node) -> bool:
    """Did the learner write `node` in parentheses of its own (then the grouping is theirs, not precedence's)?"""
    try:
        lines = source.splitlines()
        before = lines[node.lineno - 1][:node.col_offset].rstrip()
        return before.endswith("(") and not before[:-1].rstrip()[-1:].isidentifier()
    except (AttributeError, IndexError, TypeError):
        return False


def _adapted_once(source: str, nodes: list) -> list:
    """A value made from an expression once (`mean = M[ids].mean(axis=0)`) and the expression read again later
    where the made value belongs (`norm(M[ids])` for `norm(mean)`: a copied line adapted in one place, not the
    other): [(words, place, make, rank, meta)], the later reading put back as the made name."""
    out = []
    for stmt in nodes:
        if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
            continue
        made = stmt.targets[0].id
        inside = {id(n) for n in ast.walk(stmt)}
        for part in ast.walk(stmt.value):
            if part is stmt.value or not isinstance(part, (ast.Subscript, ast.Call)):
                continue
            dump = ast.dump(part)
            for k, node in enumerate(nodes):
                if id(node) in inside or not isinstance(node, type(part)) or ast.dump(node) != dump \
                        or getattr(node, "lineno", 0) <= stmt.lineno:
                    continue
                out.append((f"`{_seg(source, node)}` is what `{made}` is made from (`{_seg(source, stmt)}`): with "
                            f"`{made}` in its place, your own code gives the answer", k,
                            lambda n, made=made: ast.Name(made, ast.Load()), 2, None))
                if len(out) >= 4:
                    return out
    return out


def _construct_edits(source: str, nodes: list, k: int, node) -> list:
    """The edits of one construct a learner writes by habit from another language or from a printed figure, each
    undone as one edit: a rounding of a computed value (`round(x, -6)`, `np.round(x, 2)`, `x.round(2)`) left out,
    a cosine turned into an angle (np.degrees(np.arccos(c))) left as the cosine, `^` (bitwise XOR in Python)
    made `**`, `//` made `/`, and a range that starts at 1 or stops one short or over (`range(1, n)`,
    `range(n - 1)`, `range(n + 1)`) made `range(n)`: [(words, the node's place, make, rank, meta)]."""
    out = []

    def add(words, make, at=k, rank=0):
        out.append((words, at, make, rank, None))

    if isinstance(node, ast.Call):
        name = _name_of(node.func)
        parent = _parent(nodes, node)
        inside = isinstance(parent, ast.Call) and parent is not node and _name_of(parent.func) in ANGLES \
            and parent.args and parent.args[0] is node
        method = isinstance(node.func, ast.Attribute) and not (isinstance(node.func.value, ast.Name)
                                                               and node.func.value.id in ("np", "numpy", "math"))
        if name in ROUNDING and (name != "round" or not method) and node.args \
                and not isinstance(node.args[0], ast.Starred):
            add(f"your code rounds a computed value (`{_shape(source, node)}`): it drops digits the check "
                f"compares; without the rounding, your own code gives the answer", lambda n: copy.deepcopy(n.args[0]))
        elif name == "round" and method and not node.keywords and len(node.args) <= 1:
            add(f"your code rounds a computed value (`{_shape(source, node)}`): it drops digits the check "
                f"compares; without the rounding, your own code gives the answer",
                lambda n: copy.deepcopy(n.func.value))
        if name in ANGLES and not inside and node.args:
            calls = ", ".join(sorted({_name_of(c.func) for c in ast.walk(node) if isinstance(c, ast.Call)} & ANGLES))
            add(f"your code turns the cosine into an angle ({calls}) with `{_shape(source, node)}`: the question asks "
                f"for the cosine itself; without the angle, your own code gives the answer", lambda n: _peel(n, ANGLES))
        if name == "range" and not node.keywords and 1 <= len(node.args) <= 2:
            args = node.args
            start, stop = (args[0], args[1]) if len(args) == 2 else (None, args[0])
            made = []
            if start is not None and isinstance(start, ast.Constant) and start.value == 1:
                made.append((ast.Call(node.func, [copy.deepcopy(stop)], []), "starts at 1"))
            if start is None and isinstance(stop, ast.BinOp) and isinstance(stop.op, (ast.Sub, ast.Add)) \
                    and isinstance(stop.right, ast.Constant) and stop.right.value == 1:
                made.append((ast.Call(node.func, [copy.deepcopy(stop.left)], []),
                             "stops one short" if isinstance(stop.op, ast.Sub) else "runs one step too many"))
            for new, why in made:
                add(f"`{_seg(source, node)}` {why}: with `{_seg(None, new)}`, one step for each of "
                    f"`{_seg(None, new.args[0])}`, your own code gives the answer", lambda n, new=new: copy.deepcopy(new))
    if isinstance(node, ast.Call) and _name_of(node.func) in ("decode", "encode") and isinstance(node.func,
                                                                                          ast.Attribute):
        # a codec that maps every byte to a character (latin-1) never raises: the test it was to be is gone
        for j, arg in enumerate([*node.args, *(kw.value for kw in node.keywords if kw.arg == "encoding")]):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                    and arg.value.lower().replace("_", "-") in EVERY_BYTE:
                def utf8(n, j=j):
                    n = copy.deepcopy(n)
                    places = [*n.args, *(kw.value for kw in n.keywords if kw.arg == "encoding")]
                    places[j].value = "utf-8"
                    return n
                add(f"`{_seg(source, node)}` uses {arg.value!r}, a codec that maps every byte to a character and "
                    f"never fails: with 'utf-8' there, your own code gives the answer", utf8, rank=1)
    for place, key, rename in _config_key_places(node):
        meant = config_key_meant(key)
        if meant:
            add(f"`{key}` is not a key of a model config (the configs call it "
                f"`{meant}`), so the copy keeps the value it had: with `{meant}`, "
                "your own code gives the answer",
                lambda n, at=place, to=meant, how=rename: how(n, at, to), rank=1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitXor) and not _under_xor(nodes, node):
        power = _xor_as_power(node, source)
        written = _seg(None, power)
        add(f"`^` is a bitwise XOR in Python, not a power (and it binds more loosely than + and *): with `**`, "
            f"`{written}` for `{_seg(source, node)}`, your own code gives the answer",
            lambda n, power=power: copy.deepcopy(power))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        # operator precedence: `a - b // c` divides b only; `(a - b) // c` was meant (and `a / b + c`, a / (b + c))
        inner = node.right
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, (ast.Div, ast.FloorDiv, ast.Mult)) \
                and not _parenthesised(source, inner):
            grouped = ast.BinOp(ast.BinOp(node.left, node.op, inner.left), inner.op, inner.right)
            out.append((f"operator precedence: `{_seg(source, node)}` {_verb(inner.op)} `{_seg(source, inner.left)}` "
                        f"only; with `{_seg(None, grouped)}`, your own code gives the answer", k,
                        lambda n: ast.BinOp(ast.BinOp(n.left, n.op, n.right.left), n.right.op, n.right.right), 1, None))
        inner = node.left
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, (ast.Div, ast.FloorDiv)) \
                and not _parenthesised(source, inner):
            grouped = ast.BinOp(inner.left, inner.op, ast.BinOp(inner.right, node.op, node.right))
            out.append((f"operator precedence: `{_seg(source, node)}` divides by `{_seg(source, inner.right)}` "
                        f"only; with `{_seg(None, grouped)}`, your own code gives the answer", k,
                        lambda n: ast.BinOp(n.left.left, n.left.op, ast.BinOp(n.left.right, n.op, n.right)), 1, None))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
        divided = _seg_operator(source, node, "/") or _seg(None, ast.BinOp(node.left, ast.Div(), node.right))
        add(f"`{_seg(source, node)}` divides with `//`, which rounds down to a whole number: with "
            f"`{divided}`, your own code gives the answer", lambda n: ast.BinOp(n.left, ast.Div(), n.right))
    return out


def _config_key_places(node) -> list:
    """[(its place, the key, how to rename it)] of each key a config copy sets:
    `dict(config, key=…)`'s keywords and the written-out string keys of
    `{**config, "key": …}` (a dict display that unpacks another)."""
    out = []
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "dict" and node.args:
        def keyword(n, j, meant):
            n = copy.deepcopy(n)
            n.keywords[j].arg = meant
            return n
        out += [(j, kw.arg, keyword) for j, kw in enumerate(node.keywords) if kw.arg]
    if isinstance(node, ast.Dict) and any(k is None for k in node.keys):
        def entry(n, j, meant):
            n = copy.deepcopy(n)
            n.keys[j] = ast.Constant(meant)
            return n
        out += [(j, k.value, entry) for j, k in enumerate(node.keys)
                if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    return out


_CONFIG_KEYS: list = []


def _config_keys() -> frozenset:
    """Every key of the course's model configs: the shipped models' and
    llama_config's (read once)."""
    if not _CONFIG_KEYS:
        from embedlab.params import available_models, load_config
        from embedlab.sizing import llama_config

        keys = set(llama_config(1000, 64, 1, 1, 1, 256, True))
        for name in available_models():
            try:
                keys |= {k for k in load_config(name) if isinstance(k, str)}
            except Exception:  # noqa: BLE001 - a config that cannot be read adds no key
                continue
        _CONFIG_KEYS.append(frozenset(keys))
    return _CONFIG_KEYS[0]


def config_key_meant(key) -> str | None:
    """The one config key a key that no config of the course has was most likely
    meant to be (close in spelling, or the only key that starts with it and an
    underscore: `vocab` for `vocab_size`); None for a key some config has, or none
    close."""
    import difflib

    if not isinstance(key, str) or not key:
        return None
    try:
        keys = _config_keys()
    except Exception:  # noqa: BLE001 - the library cannot list its configs: no edit
        return None
    if key in keys or key.startswith("_"):
        return None
    close = difflib.get_close_matches(key, sorted(keys), n=2, cutoff=0.75)
    if len(close) == 1:
        return close[0]
    started = [k for k in keys if k.startswith(key + "_")]
    return started[0] if len(started) == 1 else None


def _plain_items(value):
    """The items of a list, tuple or 1-d array of plain numbers or words, as a tuple; None for anything else."""
    try:
        items = value.tolist() if hasattr(value, "tolist") and getattr(value, "ndim", 1) == 1 else value
    except Exception:  # noqa: BLE001
        return None
    if not isinstance(items, (list, tuple)) or not items or len(items) > 64:
        return None
    if all(isinstance(i, str) for i in items) or all(type(i) is int for i in items):
        return tuple(items)
    return None


def _literal_of(node):
    """A value typed in the code as a literal: a number, a word, or a list/tuple of numbers or of words."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, str):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) >= 2 \
            and all(isinstance(e, ast.Constant) for e in node.elts):
        return _plain_items([e.value for e in node.elts])
    return None


def _unit_like(value) -> bool:
    """Is a typed number a unit's constant: a power of ten or of two (1e9, 1024, 2**30), or seconds (60, 3600)?"""
    import math

    v = abs(float(value))
    if v in (60.0, 3600.0, 86400.0) or not math.isfinite(v) or v == 0:
        return v != 0 and math.isfinite(v)
    ten, two = math.log10(v), math.log2(v)
    return abs(ten - round(ten)) < 1e-12 or abs(two - round(two)) < 1e-12


TYPED = "typed by hand"  # the words of an edit that puts an input where a value is typed (kinds: code_first first)
LITERAL_TRIES = 3  # names tried in the place of one typed value, the nearest in size first
NEAR = 16  # a typed number stands for an input at most this many times bigger or smaller than it


def _literal_edits(source: str, nodes: list, k: int, node, names: dict, only_tries: bool = False) -> list:
    """The edits that put one of `names` ({name: value}: the notebook's inputs, and the names the learner's own lines
    read) where the learner's lines type a value of its kind that is not its value: a number of two or more digits
    (the lesson's 50257 where this question's V belongs), a list of ids or words (the lesson's [1, 2, 0, 1] where
    `ids` belongs), or a word used as a key (`word_to_id['car']` where `pair[1]` belongs: an item of a named tuple
    of words). A number's edit has its control (another number there must not give the answer too)."""
    value = _literal_of(node)
    if value is None or isinstance(value, bool):
        return []
    parent = _parent(nodes, node)
    if isinstance(value, (int, float)):
        if abs(value) < 10 or (isinstance(parent, ast.Call) and _name_of(parent.func) in SETTINGS):
            return []  # a small number (2, 4, 8) is a factor of a formula as often as an input: not tried
        if isinstance(parent, ast.Call) and _name_of(parent.func) in UNSWAPPED or isinstance(parent, ast.Slice):
            return []  # a range's or a slice's bound (range(128, 192)): a position, not an input of the question
        if _unit_like(value):
            return []  # 1e9, 2**30, 1024, 3600: a unit's constant, which an input equals only by chance
        if any(isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is node for n in nodes):
            return []  # `d = 768`: a size set by hand, named as such by the code reading (explain.code_first)
    if isinstance(value, str):
        keyed = isinstance(parent, ast.Subscript) and parent.slice is node
        if not keyed:
            return []
    tries = []
    for name, held in names.items():
        if isinstance(value, (int, float)):
            if type(held) not in (int, float) or held == value or not held or abs(held) < 10:
                continue  # an input of under 10 (a width of 4) equals a factor of a formula too often
            import math
            ratio = abs(held / value)
            # the input rounded, as the code reading names it (code.typed_input: within 3%); a rounding that
            # moves it further (8e9 for 7.5e9, one digit kept) is a value typed where the input belongs
            rounded = abs(held - value) < 0.03 * abs(held) and (any(round(held, -k) == value for k in range(1, 16))
                                                               or any(float(f"{held:.{k}g}") == value
                                                                      for k in range(1, 6)))
            if rounded or (round(math.log10(ratio)) != 0 and abs(math.log10(ratio) - round(math.log10(ratio))) < 0.005):
                continue  # the input rounded (128,000 for 128,256) or in other units (1.3e3 for 1.3e6): code_first's
            if not 1 / NEAR <= ratio <= NEAR:
                continue  # another model's size of the same kind is near it (768 for 4,096); a V for a d is not
            tries.append((abs(math.log(abs(held) / abs(value))) if held and value else 99, name, ast.Name(name, ast.Load()),
                          held))
        elif isinstance(value, tuple):
            items = _plain_items(held)
            if items is not None and items != value and type(items[0]) is type(value[0]):
                tries.append((0, name, ast.Name(name, ast.Load()), None))
        elif isinstance(value, str):
            if isinstance(held, str) and held != value and held:
                tries.append((0, name, ast.Name(name, ast.Load()), None))
            items = _plain_items(held) if isinstance(held, (tuple, list)) else None
            if items and isinstance(items[0], str) and value not in items and len(items) <= 4:
                for i in range(len(items)):
                    tries.append((1, f"{name}[{i}]", ast.Subscript(ast.Name(name, ast.Load()), ast.Constant(i),
                                                                   ast.Load()), None))
    read = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    # the names the learner's own lines read first (pair[0] read, pair[1] typed), then the nearest in size
    # (a number: the nearest in size first, then the names read; a word or a list: the names read first)
    tries.sort(key=lambda t: (t[0], t[1].split("[")[0] not in read, t[1]) if isinstance(value, (int, float))
               else (t[1].split("[")[0] not in read, t[0], t[1]))
    if isinstance(value, (int, float)):  # names that hold one value give one edit: the first (a name read) is kept
        kept, values = [], set()
        for t in sorted(tries, key=lambda t: (t[1].split("[")[0] not in read, t[1])):
            if t[3] not in values:
                values.add(t[3])
                kept.append(t)
        tries = [t for t in tries if t in kept]
    if only_tries:
        return tries
    out = []
    typed = _seg(source, node)
    where = _seg(source, parent) if parent is not node else typed
    for _, shown, put, held in tries[:LITERAL_TRIES]:
        words = (f"`{typed}` is a value typed by hand (at `{where}`) where `{shown}` belongs: with `{shown}` in its "
                 f"place, your own code gives the answer")
        out.append((words, k, lambda n, put=put: copy.deepcopy(put), 2, None))
        if isinstance(value, (int, float)):
            other = value + 1
            out.append((f"{CONTROL_PREFIX}{words}", k, lambda n, other=other: ast.Constant(other), 2,
                        {CONTROL: words}))
    return out


def _kind_of(value) -> str | None:
    """What a value is, for a name read in its place: a number, a word, a list of ids, a list of words."""
    if type(value) in (int, float):
        return "number"
    if isinstance(value, str):
        return "word"
    items = _plain_items(value)
    if items is not None:
        return "words" if isinstance(items[0], str) else "ids"
    return None


def _twice_edits(source: str, nodes: list, names: dict) -> list:
    """A call given one name twice (`np.ix_(animals, animals)`, a cell copied and adapted once), each reading of
    it put back as another name of `names` of its kind (a list of ids for a list of ids): [(words, place, make,
    rank, meta)]."""
    out = []
    for k, node in enumerate(nodes):
        if not isinstance(node, ast.Call) or _name_of(node.func) in SYMMETRIC:
            continue
        args = node.args
        for i in range(len(args)):
            for j in range(i + 1, len(args)):
                a, b = args[i], args[j]
                if not (isinstance(a, ast.Name) and isinstance(b, ast.Name) and a.id == b.id and a.id in names):
                    continue
                kind = _kind_of(names[a.id])
                for other, held in names.items():
                    if other == a.id or kind is None or _kind_of(held) != kind:
                        continue
                    for at in (j, i):
                        def make(n, at=at, other=other):
                            n = copy.deepcopy(n)
                            n.args[at] = ast.Name(other, ast.Load())
                            return n
                        made = make(node)
                        out.append((f"`{_seg(source, node)}` reads `{a.id}` twice: with `{_seg(None, made)}`, your own "
                                    f"code gives the answer", k, make, 1, None))
    return out[:6]


def _literal_pairs(source: str, nodes: list, names: dict) -> list:
    """Two or three numbers typed in one statement, each where a name of `names` belongs (the lesson's
    `50257 * 768` where this model's `V * d` belongs): put back together, the nearest two candidates of each (the
    names the lines read first), each name once: [(words, the statement's place, make, rank, meta)]."""
    import itertools

    out = []
    for k, stmt in enumerate(nodes):
        if not isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Return)):
            continue
        typed, seen = [], {}  # one value typed twice (50257 * 768 in a numerator and a denominator) is one input
        for node in ast.walk(stmt):
            if isinstance(node, ast.Constant) and type(node.value) in (int, float) and not isinstance(node.value, bool):
                if (type(node.value), node.value) in seen:
                    continue
                tries = _literal_edits(source, nodes, nodes.index(node), node, names, only_tries=True)
                if tries:
                    seen[(type(node.value), node.value)] = len(typed)
                    typed.append((node, [(shown, put) for _, shown, put, _ in tries[:2]]))
        if not 2 <= len(typed) <= 3:
            continue
        values = [(type(n.value), n.value) for n, _ in typed]
        for combo in itertools.product(*[c for _, c in typed]):
            shown = [c[0] for c in combo]
            if len(set(shown)) < len(shown):
                continue

            def make(n, combo=combo, values=values):
                n = copy.deepcopy(n)
                for parent in ast.walk(n):
                    for field, value in ast.iter_fields(parent):
                        if isinstance(value, ast.Constant) and (type(value.value), value.value) in values:
                            setattr(parent, field, copy.deepcopy(combo[values.index((type(value.value),
                                                                                      value.value))][1]))
                        elif isinstance(value, list):
                            for i, item in enumerate(value):
                                if isinstance(item, ast.Constant) and (type(item.value), item.value) in values:
                                    value[i] = copy.deepcopy(combo[values.index((type(item.value), item.value))][1])
                return n
            numbers = " and ".join(f"`{_seg(source, n)}`" for n, _ in typed)
            where = " and ".join(f"`{s}`" for s in shown)
            out.append((f"{numbers} are values typed by hand where {where} belong: with them in their places, your "
                        f"own code gives the answer", k, make, 2, None))
            if len(out) >= 4:
                return out
    return out


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
