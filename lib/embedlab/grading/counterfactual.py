"""Slips proven by undoing them in the learner's own cell, read as arithmetic (issue 46, hints19).

Each finder here names one piece of the learner's own lines, changes it, and reads the changed cell as arithmetic
(code.evaluate) on the book's inputs and on inputs that part the usual coincidences: the question's declared
`recheck` inputs and a second look (the lesson's numbers moved, its models replaced by other shipped ones). The
piece is named only when the cell, read so, gives the learner's value on the book's inputs, the changed cell gives
the answer there, and on every other input it can be read on the changed cell gives what the solution's own cell
gives there (exactly). A piece whose change fits the book's inputs only (L = h = 28) is a coincidence, not the slip.

- `factor_dropped`: a factor of the learner's own product (or divisor) the answer does not have (`* 8192` where one
  token is asked, `* (h_kv / h)`, `* 3`, `/ 8`, `per_sequence * 2`): taken out (1 in its place), the cell is right;
- `name_in_place`: a piece of the learner's expression where a name the exercise's given lines define belongs
  (`config['hidden_size'] // h_kv` where the given `head_dim` belongs): with that name in its place, right;
- `rounding_placed`: a whole number whose learner rounds terms before combining them (`int(a / p) - int(b / p)`):
  with every rounding taken off and the whole rounded once at the end, right;
- `units_mixed`: two sides of one operation in units 10**9 (2**30, 10**6 …) apart (`(gpu_gb - w / 1e9) // bytes`,
  GB against bytes): with one side scaled by that unit, right.
"""

from __future__ import annotations

import ast
import itertools
import math

from embedlab.grading import code

# unit factors two sides of one operation may be apart by, with what they usually are
UNITS = [(1e9, "10**9", "GB against bytes"), (2**30, "2**30", "GiB against bytes"), (1e6, "10**6", "millions against ones"),
         (2**20, "2**20", "MiB against bytes"), (1e12, "10**12", "tera against ones"), (1e3, "1000", "thousands against ones"),
         (1024, "1024", "KiB against bytes")]


def _exact(value, target) -> bool:
    try:
        if value is None or isinstance(value, bool) or isinstance(target, bool):
            return False
        value, target = float(value), float(target)
    except (TypeError, ValueError):
        return False
    return value == target or (math.isfinite(value) and math.isclose(value, target, rel_tol=1e-12, abs_tol=0.0))


def readings(question, got, want):
    """explain.cell_readings: kept there so that explain, which uses it too, never imports this module."""
    from embedlab.grading import explain

    return explain.cell_readings(question, got, want)


def _quiet_list(f, *args) -> list:
    try:
        return list(f(*args))
    except Exception:  # noqa: BLE001 - a source that cannot be read proves nothing
        return []


def _holds(head: str, changed: str, name: str, book: dict, others: list, want, extra: dict | None = None) -> bool:
    """Does the changed cell give the answer on the book's inputs, and the solution's value on every other input it
    reads on (at least one, or none read at all: the book's inputs alone then)?"""
    extra = extra or {}
    if not _exact(code.evaluate(head + "\n" + changed, name, {**book, **extra}), want):
        return False
    for env, theirs in others:
        mine = code.evaluate(head + "\n" + changed, name, {**env, **extra})
        if mine is None:
            continue
        if not _exact(mine, theirs):
            return False
    return True


def _segment(source: str, node) -> str:
    try:
        return ast.get_source_segment(source, node) or ast.unparse(node)
    except Exception:  # noqa: BLE001
        return ""


def _value(head: str, source: str, segment: str, env: dict):
    return code.evaluate(head + source + f"\nterm_ = {segment}\n", "term_", env) if segment else None


def _fmt(value) -> str:
    return code._fmt(value)


def _parse(source: str):
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None


# --------------------------------------------------------------------------
# a factor the answer does not have


def factor_dropped(question, got, want) -> list[str]:
    """A factor of a product (or of a divisor) in the learner's own lines that, taken out, makes the cell right on
    the book's inputs and on the others (see the module's docstring). A factor that is 1 or that is the whole
    expression says nothing."""
    from embedlab.grading import explain

    read = readings(question, got, want)
    if read is None or _exact(got, want):
        return []
    head, source, book, others = read
    tree = _parse(source)
    if tree is None:
        return []
    found = {}
    # a factor the solution's own lines write as often as the learner's (`2 * L`, the keys and values) is one the
    # question has, whatever taking it out gives: `2 * L * … * 4` is right without the 2 only as 4 = 2 · 2
    lesson = getattr(question, "lesson", "")
    solved = code.solution_source(lesson, question.name) if lesson else None
    theirs = _parse(solved.split("# BEGIN SOLUTION")[-1].split("# END SOLUTION")[0]) if isinstance(solved, str) else None
    written = _factor_counts(theirs) if theirs is not None else {}
    mine = _factor_counts(tree)
    for node in ast.walk(tree):
        if not isinstance(node, ast.BinOp) or not isinstance(node.op, (ast.Mult, ast.Div, ast.FloorDiv)):
            continue
        sides = [node.right] if not isinstance(node.op, ast.Mult) else [node.left, node.right]
        for side in sides:
            if isinstance(side, ast.BinOp) and isinstance(side.op, ast.Mult) and not isinstance(node.op, ast.Mult):
                continue  # a divisor that is a product: its own factors are tried one by one
            if ast.dump(side) in mine and mine[ast.dump(side)] <= written.get(ast.dump(side), 0):
                continue  # the solution writes this factor as often: a factor the question has
            segment = _segment(source, side)
            value = _value(head, source, segment, book)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or _exact(value, 1) or value == 0:
                continue
            patched = explain._patched(source, side, "1")
            if not patched or not _holds(head, patched, question.name, book, others, want):
                continue
            verb = "multiplies by" if isinstance(node.op, ast.Mult) else "divides by"
            where = _segment(source, node)
            notes = [f"{_fmt(value)} here"] if _fmt(value) != segment else []
            notes += [f"in `{where}`"] if where and where != segment and len(where) <= 60 else []
            said = f" ({', '.join(notes)})" if notes else ""
            found.setdefault(segment, f"your cell {verb} `{segment}`{said}, a factor the question "
                                      f"does not have: without it your own code gives the answer")
    if not found:
        # two neighbouring factors of one chain that together make a ratio the answer lacks (`… * 8 / 32`, h_kv / h
        # typed again after h − h_kv already took it): both taken out, right on the book's inputs and on the others
        for node in ast.walk(tree):
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div))
                    and isinstance(node.left, ast.BinOp) and isinstance(node.left.op, (ast.Mult, ast.Div))):
                continue
            first, second = node.left.right, node.right
            pair = f"{_segment(source, first)} {'*' if isinstance(node.op, ast.Mult) else '/'} {_segment(source, second)}"
            shown = ("* " if isinstance(node.left.op, ast.Mult) else "/ ") + pair
            value = _value(head, source, f"1 {shown}", book)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or _exact(value, 1) or value == 0:
                continue
            patched = explain._patched(source, second, "1")
            patched = explain._patched(patched, first, "1") if patched else None
            if not patched or not _holds(head, patched, question.name, book, others, want):
                continue
            found.setdefault(shown, f"your cell's `{shown}` is a factor of {_fmt(value)} here, which the question does "
                                    f"not have: without it your own code gives the answer")
    return list(found.values()) if len(found) == 1 else []


def _factor_counts(tree) -> dict:
    """{a factor's ast.dump: the most times one product chain of `tree` writes it} (`2 * d * V_big - 2 * d * V_small`
    writes 2 once per chain; `2 * d * (V_big - V_small) * 2` twice)."""
    out: dict = {}
    inner = set()
    chains = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div, ast.FloorDiv)) and id(node) not in inner:
            factors, stack = [], [node]
            while stack:
                n = stack.pop()
                if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Mult, ast.Div, ast.FloorDiv)):
                    inner.add(id(n))
                    stack += [n.left, n.right]
                else:
                    factors.append(ast.dump(n))
            chains.append(factors)
    for factors in chains:
        for f in set(factors):
            out[f] = max(out.get(f, 0), factors.count(f))
    return out


# --------------------------------------------------------------------------
# a piece of the expression where a name the given lines define belongs


def _given_names(head: str) -> dict:
    """{name: the line that assigns it} of the names the exercise's given lines assign."""
    tree = _parse(head) if head.strip() else None
    out = {}
    for stmt in (tree.body if tree is not None else []):
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        out[n.id] = _segment(head, stmt)
    return out


def _reads(tree, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in ast.walk(tree))


GIVEN_NAME = "which the exercise's given lines compute"


def name_in_place(question, got, want) -> list[str]:
    """A piece of the learner's own expression (an operation on what it reads) where a name the exercise's given
    lines define, and the solution's own lines read, belongs, the learner's lines never reading it: with the name
    in that piece's place, the cell is right on the book's inputs and on the others."""
    read = readings(question, got, want)
    if read is None or _exact(got, want):
        return []
    head, source, book, others = read
    tree = _parse(source)
    solved = code.solution_source(getattr(question, "lesson", ""), question.name)
    theirs = _parse(solved) if isinstance(solved, str) else None
    if tree is None or theirs is None:
        return []
    names = [n for n in _given_names(head) if _reads(theirs, n) and not _reads(tree, n)]
    if not names:
        return []
    from embedlab.grading import explain

    found = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.BinOp, ast.Subscript, ast.Attribute, ast.Call)):
            continue
        segment = _segment(source, node)
        if not segment or len(segment) > 60:
            continue
        for name in names:
            patched = explain._patched(source, node, name)
            if patched and _holds(head, patched, question.name, book, others, want):
                found.setdefault((segment, name), f"`{segment}` is not `{name}`, {GIVEN_NAME}: with `{name}` in its "
                                                  f"place, your own code gives the answer")
    return list(found.values()) if len(found) == 1 else []


# --------------------------------------------------------------------------
# rounding in the wrong place

ROUNDERS = {"int", "floor", "ceil", "round", "trunc", "rint", "around"}


def _rounding_off(tree):
    """The tree with every rounding taken off (int(x), floor(x), round(x), … made x; a // b made a / b), and how
    many it took off."""
    count = [0]

    class Off(ast.NodeTransformer):
        def visit_Call(self, node):
            self.generic_visit(node)
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name in ROUNDERS and len(node.args) == 1 and not node.keywords:
                count[0] += 1
                return node.args[0]
            return node

        def visit_BinOp(self, node):
            self.generic_visit(node)
            if isinstance(node.op, ast.FloorDiv):
                count[0] += 1
                node.op = ast.Div()
            return node
    new = Off().visit(tree)
    return ast.fix_missing_locations(new), count[0]


def rounding_placed(question, got, want) -> list[str]:
    """A whole-number answer whose learner rounds more than once, or before the last operation: with every rounding
    taken off and the whole rounded down once at the end, the cell gives the answer on the book's inputs and on the
    others; the cell as written gives another. Said with the pieces it rounds."""
    if getattr(question, "kind", "") != "integer" or not isinstance(want, (int, float)):
        return []
    read = readings(question, got, want)
    if read is None or _exact(got, want):
        return []
    head, source, book, others = read
    tree = _parse(source)
    if tree is None:
        return []
    def rounds(n) -> bool:
        return isinstance(n, ast.Call) and len(n.args) == 1 and (
            (isinstance(n.func, ast.Name) and n.func.id in ROUNDERS)
            or (isinstance(n.func, ast.Attribute) and n.func.attr in ROUNDERS)) \
            or isinstance(n, ast.BinOp) and isinstance(n.op, ast.FloorDiv)
    # the roundings of the answer's own (last) assignment that no other rounding holds: `int(np.ceil(x))` rounds
    # once, in one place; `int(a / p) - int(b / p)` rounds two pieces, each before they are combined
    last = next((stmt for stmt in reversed(tree.body) if isinstance(stmt, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == question.name for t in stmt.targets)), None)
    if last is None:
        return []
    direct = {id(n.args[0]) for n in ast.walk(last.value) if rounds(n) and isinstance(n, ast.Call)}
    rounded = [n for n in ast.walk(last.value) if rounds(n) and id(n) not in direct]
    if len(rounded) < 2:
        return []  # rounding once: its direction, not its place (the question's own words say that)
    off, count = _rounding_off(_parse(source))
    try:
        text = ast.unparse(off) + "\n"
    except Exception:  # noqa: BLE001
        return []
    changed = text + f"rounded_ = {question.name} // 1\n"
    if not _holds(head, changed, "rounded_", book, others, want):
        return []
    pieces = [_segment(source, n) for n in rounded if isinstance(n, ast.Call)]
    pieces = [p for p in pieces if p and len(p) <= 40][:3]
    shown = ", ".join(f"`{p}`" for p in pieces)
    return [f"your cell rounds {len(rounded)} times, each piece before they are combined"
            + (f" ({shown})" if shown else "")
            + ": the fractions each rounding drops add up; combine the exact values, then round down once, at "
              "the end"]


# --------------------------------------------------------------------------
# units mixed in one operation


def units_mixed(question, got, want) -> list[str]:
    """Two sides of one operation of the learner's own lines in units a factor of UNITS apart: one side scaled by
    that unit, the cell gives the answer on the book's inputs and on the others."""
    from embedlab.grading import explain

    read = readings(question, got, want)
    if read is None or _exact(got, want):
        return []
    head, source, book, others = read
    tree = _parse(source)
    if tree is None:
        return []
    found = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.BinOp) or not isinstance(node.op, (ast.Add, ast.Sub, ast.Div, ast.FloorDiv)):
            continue
        if isinstance(node.op, (ast.Div, ast.FloorDiv)) and not any(
                isinstance(n, (ast.Name, ast.Attribute, ast.Subscript)) for n in ast.walk(node.right)):
            continue  # divided by a typed number (`/ 2**20`): a factor (factor_dropped), not two sides' units
        for side in (node.left, node.right):
            segment = _segment(source, side)
            value = _value(head, source, segment, book) if segment else None
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not value:
                continue
            # a side that, left out (0 in a sum, 1 in a quotient), also gives the answer is a term or a divisor that
            # does not belong, whatever its size: scaled down by a unit it only vanishes (term_dropped says that)
            blank = "1" if isinstance(node.op, (ast.Div, ast.FloorDiv)) and side is node.right else "0"
            left_out = explain._patched(source, side, blank)
            if left_out and _exact(code.evaluate(head + "\n" + left_out, question.name, book), want):
                continue
            for factor, typed, what in UNITS:
                for op in ("*", "/"):
                    patched = explain._patched(source, side, f"({segment}) {op} {typed}")
                    if patched and _holds(head, patched, question.name, book, others, want):
                        whole = _segment(source, node)
                        found.setdefault(whole, f"`{whole}` mixes units: `{segment}` is in units {typed} times "
                                                f"{'larger' if op == '*' else 'smaller'} than the other side's "
                                                f"({what}?): with `({segment}) {op} {typed}` there, your own code "
                                                f"gives the answer")
    return list(found.values()) if len(found) == 1 else []


def _patched_all(source: str, places: list) -> str | None:
    """`source` with each (node, name) of `places` put in its node's place, the last place first."""
    from embedlab.grading import explain

    for node, name in sorted(places, key=lambda p: (p[0].lineno, p[0].col_offset), reverse=True):
        source = explain._patched(source, node, name) if source is not None else None
    return source


LEN = "len_of_"  # `len(words)` of a list the lesson's parameters give, read as the number it is (_list_readings)


def _list_readings(question, got, want):
    """readings() for a cell that reads the length of a list the lesson's parameters give (`len(words)`), which the
    arithmetic reading cannot follow: each `len(name)` read as a name LEN + name holding that length, on the book's
    inputs and the other inputs alike (a second look moves the model, not the lesson's lists)."""
    import dataclasses
    import importlib

    from embedlab.grading import explain

    whole = getattr(question, "source", None)
    own = code.own_part(whole) if isinstance(whole, str) else None
    tree = _parse(own) if own else None
    if tree is None:
        return None
    try:
        defaults = importlib.import_module("embedlab.grading.questions.l" + question.lesson[:2]).SPACE.defaults
    except Exception:  # noqa: BLE001 - a lesson without a variant space: no lists to read
        return None
    lists = {k: len(v) for k, v in defaults.items() if isinstance(v, (list, tuple))}
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    places = [(n, LEN + n.args[0].id) for n in ast.walk(tree) if isinstance(n, ast.Call)
              and isinstance(n.func, ast.Name) and n.func.id == "len" and len(n.args) == 1 and not n.keywords
              and isinstance(n.args[0], ast.Name) and n.args[0].id in lists and n.args[0].id not in stored]
    changed = _patched_all(own, places) if places else None
    if not changed:
        return None
    lengths = {LEN + k: v for k, v in lists.items()}
    head = whole[:len(whole) - len(own)]
    solved = code.solution_source(question.lesson, question.name)
    if not isinstance(solved, str):
        return None
    book = next((env for env in explain._float_envs(question)
                 if _exact(code.evaluate(head + changed, question.name, {**env, **lengths}), got)
                 and _exact(code.evaluate(solved, question.name, env), want)), None)
    if book is None:
        return None
    words = explain._words_of(question.lesson)
    others = []
    for env in explain._second_envs(dataclasses.replace(question, source=head + changed)):
        env = {**words, **env, **lengths}
        theirs = code.evaluate(solved, question.name, env)
        if isinstance(theirs, (int, float)) and not isinstance(theirs, bool):
            others.append((env, theirs))
    return head, changed, {**book, **lengths}, others


def _beside_solution(read, question, got, want):
    """(head, source, book, others, the learner's tree, the solution's own lines, their tree) for the LAST_FINDERS,
    from a reading of the learner's cell (readings); None where there is nothing to prove: no reading, the answer
    exact, no other look, or a cell or solution that does not parse."""
    if read is None or _exact(got, want):
        return None
    head, source, book, others = read
    tree = _parse(source)
    solved = code.solution_source(getattr(question, "lesson", ""), question.name)
    if tree is None or not isinstance(solved, str) or not others:
        return None
    own = solved.split("# BEGIN SOLUTION")[-1].split("# END SOLUTION")[0]
    theirs = _parse(own)
    return None if theirs is None else (head, source, book, others, tree, own, theirs)


def solution_name_in_place(question, got, want) -> list[str]:
    """A piece of the learner's own expression (at most two plain names at once) where a value the solution's own
    lines read or make belongs, the learner's lines never reading it: the toy table's `len(words)` for the model's
    `V`, question 2's `table_V` and `table_d` for `V` and `d`. With the value in its place (the solution's own lines
    that make it run first), the cell is right on the book's inputs and on at least one other input, exactly."""
    read = _beside_solution(readings(question, got, want) or _list_readings(question, got, want), question, got,
                            want)
    if read is None:
        return []
    head, source, book, others, tree, own, theirs = read
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    made = {}  # name -> the solution's statement that makes it (a statement that makes the answer left out)
    setup = []
    for stmt in theirs.body:
        targets = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        if question.name in targets:
            continue
        setup.append(_segment(own, stmt))
        made.update({t: _segment(own, stmt) for t in targets})
    inputs = {n.id for n in ast.walk(theirs) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
              and isinstance(book.get(n.id), (int, float)) and not isinstance(book.get(n.id), bool)}
    names = sorted(n for n in set(made) | inputs if n != question.name and n not in stored and not _reads(tree, n))
    # a field the solution reads (`shape.vocab_size`) on a name both lines make the same way, the learner's never
    made_alike = {t for t in set(made) & stored if made[t].replace(" ", "") in source.replace(" ", "")}
    names += sorted({_segment(own, n) for n in ast.walk(theirs) if isinstance(n, ast.Attribute)
                     and isinstance(n.value, ast.Name) and n.value.id in made_alike
                     and _segment(own, n) not in source})
    if not names:
        return []
    prefix = "\n".join(setup) + "\n"

    def right(changed: str) -> bool:
        text = head + "\n" + prefix + changed
        if not _exact(code.evaluate(text, question.name, book), want):
            return False
        seen = 0
        for env, theirs_there in others:
            mine = code.evaluate(text, question.name, env)
            if mine is None:
                continue
            if not _exact(mine, theirs_there):
                return False
            seen += 1
        return seen > 0

    def said(name: str) -> str:
        return f"`{name}` (as `{made[name]}` makes it)" if name in made and len(made[name]) <= 60 else f"`{name}`"

    def shown(node) -> str:  # a length read as a name (_list_readings) shown as the learner wrote it
        import re as _re

        text = _re.sub(rf"\({LEN}(\w+)\)", r"len(\1)", _segment(source, node))
        return _re.sub(rf"{LEN}(\w+)", r"len(\1)", text)

    found = {}
    pieces = [n for n in ast.walk(tree) if isinstance(n, (ast.BinOp, ast.Subscript, ast.Attribute, ast.Call, ast.Name))
              and not (isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load))
              and 0 < len(_segment(source, n)) <= 60]
    for node in pieces:
        for name in names:
            changed = _patched_all(source, [(node, name)])
            if changed and right(changed):
                found.setdefault((_segment(source, node),), (
                    f"`{shown(node)}` stands where {said(name)} belongs: with `{name}` in its place, your "
                    f"own code gives the answer"))
    if not found:  # two plain names read for two others at once (a smaller table's sizes for the model's)
        plain = sorted((n for n in pieces if isinstance(n, ast.Name) and n.id in book),
                       key=lambda n: (n.lineno, n.col_offset))
        for a, b in itertools.combinations(plain, 2):
            if a.id == b.id:
                continue
            fits = [(x, y) for x, y in itertools.permutations(names, 2)
                    if (changed := _patched_all(source, [(a, x), (b, y)])) and right(changed)]
            if len({frozenset(f) for f in fits}) != 1:
                continue
            (x, y), *rest = fits
            # both ways round (a product: V · d) say no pairing the value cannot tell
            found.setdefault((a.id, b.id), (
                f"your cell reads `{a.id}` and `{b.id}` where {said(x)} and {said(y)} belong: with those in their "
                f"places, your own code gives the answer" if rest else
                f"your cell reads `{a.id}` where {said(x)} belongs and `{b.id}` where {said(y)} belongs: with "
                f"`{x}` and `{y}` in their places, your own code gives the answer"))
    return list(found.values()) if len(found) == 1 else []


def factor_missing(question, got, want) -> list[str]:
    """A factor the answer has that a name of the learner's own expression lacks: a name the exercise's given lines
    (or the question's inputs) hold, that the solution reads and the learner's lines never set (`h_kv` where
    `h_kv * head_dim` belongs): with the name multiplied in at that one place, the cell gives the answer on the
    book's inputs and on at least one other look, exactly; named only where one place and one factor do."""
    read = _beside_solution(readings(question, got, want), question, got, want)
    if read is None:
        return []
    head, source, book, others, tree, _, theirs = read
    stored = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    factors = sorted({n.id for n in ast.walk(theirs) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
                      and (n.id in _given_names(head) or n.id in book) and n.id not in stored
                      and n.id != question.name})
    found = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)):
            continue
        for factor in factors:
            changed = _patched_all(source, [(node, f"{node.id} * {factor}")])
            if not changed or not _exact(code.evaluate(head + "\n" + changed, question.name, book), want):
                continue
            seen = [code.evaluate(head + "\n" + changed, question.name, env) for env, _ in others]
            if any(v is not None and not _exact(v, t) for v, (_, t) in zip(seen, others)) \
                    or all(v is None for v in seen):
                continue
            term = node  # the whole product the name is a factor of (`2 * d * h_kv`): any of its factors times
            # the missing one is the same change
            while True:
                up = next((p for p in ast.walk(tree) for c in ast.iter_child_nodes(p) if c is term), None)
                if not (isinstance(up, ast.BinOp) and isinstance(up.op, ast.Mult)):
                    break
                term = up
            where = _segment(source, term)
            found.setdefault((where, factor), (
                f"`{where}` lacks a factor `{factor}`: multiplied by `{factor}`, your own code gives the answer"))
    return list(found.values()) if len(found) == 1 else []


FINDERS = (name_in_place, rounding_placed, units_mixed)  # shown first: factor_dropped is weighed with the others


# tried last, where every other source of words found only a direction (kinds.Question._number_hint_of): a
# question's own words and the parts' stories say the same slip in the lesson's terms where they fit
LAST_FINDERS = (solution_name_in_place, factor_missing)


def last_proven(question, got, want) -> str | None:
    """proven() over LAST_FINDERS."""
    return proven(question, got, want, LAST_FINDERS)


def typed_piece(words: str) -> bool:
    """Does the piece a finder's words quote first (`gpu_gb * 2**30`) type a number other than 0, 1 or 2 (a unit, a
    size)? Such a piece is a unit or a constant typed, which the question's own words name in the lesson's terms; a
    piece made only of what it reads (`config['hidden_size'] // h_kv`) is where values coincide, and its proof comes
    first."""
    import re as _re

    found = _re.search(r"`([^`]+)`", words or "")
    tree = _parse(found.group(1)) if found else None
    return tree is not None and any(isinstance(n, ast.Constant) and isinstance(n.value, (int, float))
                                    and not isinstance(n.value, bool) and n.value not in (0, 1, 2)
                                    for n in ast.walk(tree))


def proven(question, got, want, finders=None) -> str | None:
    """The words of the first finder (of `finders`, FINDERS by default) whose one slip, undone in the learner's own
    cell, gives the answer (see the module's docstring); None when none does."""
    for finder in FINDERS if finders is None else finders:
        try:
            found = finder(question, got, want)
        except Exception:  # noqa: BLE001 - a cell these readings cannot follow proves nothing
            continue
        if found:
            return found[0]
    return None


# --------------------------------------------------------------------------
# Right on the book's inputs only: what the learner's lines do on a second look, said of their own code


def _look_env(question, params: dict):
    """The look's inputs as code.evaluate reads them: its numbers, its words, and the fields of the models it
    names (explain._book_inputs), one env per model."""
    from embedlab.grading import explain

    lesson = getattr(question, "lesson", "")
    items = tuple(sorted((k, v) for k, v in params.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)))
    words = {k: v for k, v in params.items() if isinstance(v, str)}
    envs = [{**words, **env} for _, _, env, _ in _quiet_list(explain._book_inputs, lesson, items)]
    return envs or [{k: v for k, v in params.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)}]


def typed_number_there(question, got, want, params: dict, book_want=None) -> str | None:
    """A number the learner's own lines type (`mha = gqa * 4`) that is right for the book's inputs only: read as
    arithmetic, the cell gives the answer on the book's inputs, and on the look's (`params`) it gives the
    learner's value there, while with that one number changed it gives the answer there too (solved for, then
    checked exactly). Said with the number, where it stands and what it would have to be there."""
    whole = getattr(question, "source", None)
    if not isinstance(whole, str) or getattr(question, "case", None) is not None:
        return None
    source = code.own_part(whole)
    tree = _parse(source) if source else None
    if tree is None:
        return None
    head = whole[:len(whole) - len(source)]
    from embedlab.grading import explain

    solved = code.solution_source(getattr(question, "lesson", ""), question.name)
    envs = [env for env in _look_env(question, params) if _exact(code.evaluate(whole, question.name, env), got)
            and (not isinstance(solved, str) or _exact(code.evaluate(solved, question.name, env), want))]
    if not envs:
        return None
    env = envs[0]
    nodes = list(ast.walk(tree))
    # the numbers the solution's own lines type (the 2 of keys and values, 2**30) are the course's constants
    theirs = _parse(solved) if isinstance(solved, str) else None
    constants = {n.value for n in ast.walk(theirs) if isinstance(n, ast.Constant)} if theirs is not None else set()
    found = []
    for node in nodes:
        if not isinstance(node, ast.Constant) or type(node.value) not in (int, float) or node.value in (0, 1) \
                or node.value in constants:
            continue
        patched = explain._patched(source, node, "typed_")
        if not patched:
            continue
        k = node.value

        def at(x):
            return code.evaluate(head + "\n" + patched, question.name, {**env, "typed_": x})
        a, b = at(k), at(k + 1)
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or a == b or not _exact(a, got):
            continue
        x = k + (want - a) / (b - a)  # the cell is linear in one typed number: the number that gives the answer
        # a whole number where the learner typed one (a count, a ratio of counts): a fraction the inputs make would
        # be no number to type, and any typed factor can be solved to one
        for guess in ((round(x),) if isinstance(k, int) and math.isfinite(x) else ()):
            if guess != k and guess > 0 and _exact(at(guess), want):
                enclosing = explain._enclosing(source, nodes, node)
                found.append(f"the {k} your lines type (in `{enclosing}`) fits your inputs only: there, with "
                             f"{code._fmt(guess)} in its place, your lines would give the answer; compute that number "
                             f"from the inputs the question names")
                break
    return found[0] if len(found) == 1 else None


def typed_literal_named(question, book: dict) -> str | None:
    """A whole number the learner's own lines type that is, exactly, one input of the book's or two combined by one
    operation (`292968750` = train_tokens // train_context): said with the number and what it equals, in the
    names the cell itself gives those inputs (`D, T_train = BUDGET.train_tokens, BUDGET.train_context`: D //
    T_train). Only a number nothing else equals: one the solution's own lines type (a constant of the course), 0, 1
    and numbers below 100 (a count of layers, a factor) are not tried. None when no number is one, or one is two."""
    whole = getattr(question, "source", None)
    if not isinstance(whole, str) or not isinstance(book, dict):
        return None
    own = code.own_part(whole)
    tree, full = _parse(own or ""), _parse(whole)
    if tree is None or full is None:
        return None
    solved = code.solution_source(getattr(question, "lesson", ""), question.name)
    theirs = _parse(solved) if isinstance(solved, str) else None
    constants = {n.value for n in ast.walk(theirs) if isinstance(n, ast.Constant)} if theirs is not None else set()
    typed = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and type(n.value) is int
             and abs(n.value) >= 100 and n.value not in constants}
    if not typed:
        return None
    inputs = {k: v for k, v in book.items() if type(v) in (int, float) and v not in (0, 1)}
    # the cell's own names for the inputs: a name set from one (`D = BUDGET.train_tokens`, `d = shape["d"]`)
    alias = {}
    for node in ast.walk(full):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        pairs = list(zip(target.elts, value.elts)) if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) \
            and len(target.elts) == len(value.elts) else [(target, value)]
        for t, v in pairs:
            field = v.attr if isinstance(v, ast.Attribute) else v.slice.value if isinstance(v, ast.Subscript) \
                and isinstance(v.slice, ast.Constant) else v.id if isinstance(v, ast.Name) else None
            if isinstance(t, ast.Name) and field in inputs:
                alias.setdefault(field, t.id)
    said = {k: alias.get(k, k) for k in inputs}
    ops = (("*", lambda a, b: a * b), ("//", lambda a, b: a // b if b else None), ("+", lambda a, b: a + b),
           ("-", lambda a, b: a - b))
    found = []
    for number in sorted(typed):
        ways = [said[k] for k, v in inputs.items() if v == number]
        for (a, x), (b, y) in ((p, q) for p in inputs.items() for q in inputs.items() if p[0] != q[0]):
            for op, f in ops:
                if op in ("*", "+") and a > b:
                    continue  # one order of a commutative pair
                try:
                    value = f(x, y)
                except (ArithmeticError, TypeError, ValueError):
                    continue
                if value is not None and value == number and float(value).is_integer():
                    ways.append(f"{said[a]} {op} {said[b]}")
        if len(ways) == 1:
            found.append(f"your lines type {number:_}, which is {ways[0]} on your inputs only: compute it from "
                         "them, so it follows any inputs")
    return found[0] if len(found) == 1 else None


def _zero_parts(question) -> list[str]:
    """The words each part of the question's answer (its named parts, on the book's inputs) says when left out,
    for the parts that are 0 there (a position table a Llama does not have, a bias it lacks): leaving one out
    changes nothing on the book's inputs."""
    from embedlab.grading import parts as parts_

    built = getattr(question, "parts", None)
    if built is None or getattr(question, "case", None) is not None:
        return []
    try:
        answers = built()
    except Exception:  # noqa: BLE001 - parts that cannot be built say nothing
        return []
    out = []
    for answer in answers if isinstance(answers, (list, tuple)) else [answers]:
        for node in answer.tree.nodes():
            amount = getattr(node, "amount", None)
            if isinstance(node, parts_.Part) and isinstance(amount, (int, float)) and not isinstance(amount, bool) \
                    and amount == 0:
                out.append(node.say_missing(answer.context))
    return out


def term_left_out_there(question, got, want, params: dict) -> str | None:
    """A term of a sum in the solution's own lines (`counts.position_embedding`, `c.lm_head` in a share's
    numerator) that the learner's lines never write, 0 on the book's inputs (so the cell is right there), and
    whose leaving out gives exactly the learner's value on the look: the solution with that one term 0 in its place,
    read as arithmetic on the look's inputs, is the learner's value there. Said as that term left out, with its
    value there, never the answer."""
    from embedlab.grading import explain

    whole = getattr(question, "source", None)
    solved = code.solution_source(getattr(question, "lesson", ""), question.name)
    if not isinstance(whole, str) or not isinstance(solved, str) or getattr(question, "case", None) is not None:
        return None
    mine = code.own_part(whole)
    head, _, own = solved.rpartition("# BEGIN SOLUTION")
    tree = _parse(own)
    written = {ast.dump(n) for n in ast.walk(_parse(mine or "") or ast.Module(body=[], type_ignores=[]))}
    if tree is None or not mine:
        return None
    leaves = []

    def walk(node, minus, in_sum):
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            walk(node.left, minus, True)
            walk(node.right, minus != isinstance(node.op, ast.Sub), True)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Mult)):
            walk(node.left, minus, False)
            walk(node.right, minus, False)
        elif in_sum:
            leaves.append((node, minus))
    for stmt in ast.walk(tree):
        if isinstance(stmt, ast.Assign):
            walk(stmt.value, False, False)
    envs = [env for env in _look_env(question, params) if _exact(code.evaluate(whole, question.name, env), got)
            and _exact(code.evaluate(solved, question.name, env), want)]
    book = next((env for env in _quiet_list(explain._float_envs, question)
                 if _exact(code.evaluate(solved, question.name, env), code.evaluate(whole, question.name, env))), None)
    if not envs or book is None:
        return None
    found = []
    for leaf, minus in leaves:
        if ast.dump(leaf) in written:
            continue
        segment = ast.unparse(leaf)
        there = code.evaluate(solved + f"\nterm_ = {segment}\n", "term_", envs[0])
        here = code.evaluate(solved + f"\nterm_ = {segment}\n", "term_", book)
        if not isinstance(there, (int, float)) or isinstance(there, bool) or not there or here != 0:
            continue
        patched = explain._patched(own, leaf, "0")
        if patched and _exact(code.evaluate(head + "\n" + patched, question.name, envs[0]), got):
            found.append(f"your lines leave out `{segment}`, a term the answer {'subtracts' if minus else 'adds'} "
                         f"({_fmt(abs(there))} there): it is 0 on your inputs, so leaving it out did not show on them")
    return found[0] if len(found) == 1 else None


# --------------------------------------------------------------------------
# An array of ids, found from the solution's own code


ID_MAKERS = {"argsort", "argmax", "argmin", "argpartition", "nonzero", "flatnonzero", "searchsorted", "encode",
             "encode_ordinary", "encode_word", "index", "unique_ids"}


def holds_ids(question, want) -> bool:
    """Does the answer hold ids (token ids, rows, positions) rather than quantities? Its expected entries are whole
    numbers from 0 up, and the solution's own code makes them with a call that returns positions or ids (argsort,
    argmax, nonzero, a tokenizer's encode, list.index): then "too big" or "too small" says nothing of them. A
    question may declare it (`Array(ids=True)`); this finds it for any question whose solution can be read."""
    import numpy as np

    try:
        values = np.asarray(want)
        if values.dtype.kind not in "iu" and not (values.dtype.kind == "f" and np.all(np.isfinite(values))
                                                  and np.all(values == np.round(values))):
            return False
        if values.size == 0 or np.any(values < 0):
            return False
    except (TypeError, ValueError):
        return False
    lesson = getattr(question, "lesson", "") or getattr(question, "solved_in", "")
    solved = code.solution_source(lesson, question.name) if lesson else None
    tree = _parse(solved.split("# BEGIN SOLUTION")[-1]) if isinstance(solved, str) else None
    if tree is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in ID_MAKERS:
                return True
            # a set of ids kept as ids (np.unique(ids), sorted(batch)): what it reads says what it holds
            if name in ("unique", "sort", "sorted") and node.args and isinstance(node.args[0], ast.Name) \
                    and IDS_NAMED.search(node.args[0].id):
                return True
    return False


import re  # noqa: E402

IDS_NAMED = re.compile(r"(^|_)(ids?|batch|tokens?|rows)$")
