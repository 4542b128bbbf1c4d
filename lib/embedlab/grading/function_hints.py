"""Writing the hint of a wrong function: what its failing calls say, in one sentence.

A function question (kinds.Function) is judged call by call; when calls fail, the
hint is chosen here, from the plain data of every call (the learner's results and
the reference's, with the arguments):

* `changed_arguments`: the reference, called on changed arguments, gives the
  learner's result on every call (a number typed where an argument belongs, an
  argument ignored, two swapped, a range one short, only the first item used);
* `broken_invariant`: the first property of any right result that it breaks
  (Function.invariants), or what a right cell always or never uses;
* `most_telling`: of the failing calls' hints, the one that fits the most calls;
* `matching_slips`: a wrong function the question declares (kinds.Slip: a tie broken the other
  way, a gradient transposed) whose results are the learner's on every input drawn.

It reads a question only through what every kind has (`kind`, `_hint`, `to_data`,
`accepts`, `close`), so the kinds import it, never the other way round.
"""

from __future__ import annotations

import inspect
import math
import re
import warnings

import numpy as np

from embedlab.grading import code, diagnose, explain, parts
from embedlab.grading.values import copy_args, data_to_array, is_plain_number, read_real, undefined


def changed_arguments(question, data, expected) -> str | None:
    """The learner's results are the reference's on changed arguments, on every input: a number
    typed where an argument belongs (the released 1,024 for T), an argument ignored (as 1), two
    arguments swapped, the last or first position left out (a range one short), only the first
    item used. Named with the first failing call, unless the result's own hints name it there."""
    if question.reference is None or any("raised" in g or "wrong_form" in g for g in data):
        return None
    cases = []
    for got, want in zip(data, expected):
        call, want, args = case_parts(want, question.name)
        if args is None:
            return None
        cases.append((got, want, tuple(args), call, question._result_question()))
    failing = [i for i, (got, want, args, call, inner) in enumerate(cases) if not same_result(inner, got, want)]
    if not failing:
        return None
    found = _changes_that_explain(question, cases, failing)
    if not found or _own_hints_fit(question, cases, failing):
        return None
    got, want, args, call, inner = cases[failing[0]]
    found = [w(args) if callable(w) else w for w in found]  # words that name the failing call's own values
    words = found[0] if len(found) == 1 else f"two slips give exactly your results: either {found[0]}, or {found[1]}"
    result = shown(inner, got)
    return f"on input {failing[0] + 1} of {len(cases)}, {call}{' returned ' + result if result else ''}: {words}"


def matching_slips(question, data, expected) -> str | None:
    """The declared slips (Function.slips: wrong functions a learner may write) whose results equal
    the learner's on every input drawn, the learner's wrong on at least one: named with the first
    failing call. Two that fit every input alike are both named ("either … or"); more say nothing (the
    inputs cannot tell them apart). None when no slip fits, or a call raised."""
    if not question.slips or any(not isinstance(g, dict) or "raised" in g or "wrong_form" in g for g in data):
        return None
    inner = question._result_question()
    cases = []
    for got, want in zip(data, expected):
        call, want, args = case_parts(want, question.name)
        if args is None:
            return None
        cases.append((got, want, tuple(args), call))
    failing = [i for i, (got, want, _, _) in enumerate(cases) if not same_result(inner, got, want)]
    if not failing:
        return None
    order = failing + [i for i in range(len(cases)) if i not in failing]
    found = []
    for slip in question.slips:
        if slip.says in found:
            continue
        fits = True
        for i in order:
            got, _, args, _ = cases[i]
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    value = inner.to_data(slip.func(*copy_args(args)))
            except Exception:  # noqa: BLE001 - a slip that cannot run on an input does not explain it
                fits = False
                break
            if not same_result(inner, got, value):
                fits = False
                break
        if fits:
            found.append(slip.says)
    if not found or len(found) > 2:
        return None
    got, want, args, call = cases[failing[0]]
    words = found[0] if len(found) == 1 else f"two slips give exactly your results: either {found[0]}, or {found[1]}"
    result = shown(inner, got)
    row = _first_row_apart(inner, got, want) if result else ""
    return f"on input {failing[0] + 1} of {len(cases)}, {call}{' returned ' + result if result else ''}{row}: {words}"


def _first_row_apart(question, got, want) -> str:
    """Where a short-rowed array of whole numbers (ids, pairs of ids) first parts from the reference's, of the same
    shape: that row of the learner's and the one expected (", its row 0 (counting from 0) (122, 121) where (97, 98) is
    expected", rows counted from 0 as the question counts merges and array_hint counts rows), so a
    slip that picks another row (a tie broken another way) shows what it picked. "" for any other result."""
    if question.kind != "array":
        return ""
    try:
        g, w = data_to_array(got), data_to_array(want)
    except Exception:  # noqa: BLE001 - the learner's data, malformed: nothing shown
        return ""
    if g.shape != w.shape or g.ndim != 2 or not 1 < g.shape[1] <= 4 or g.dtype.kind not in "iuf" \
            or w.dtype.kind not in "iuf" or not np.all(np.isfinite(g)) or not np.all(g == np.round(g)) \
            or not np.all(w == np.round(w)):
        return ""
    apart = [i for i in range(len(g)) if not np.array_equal(g[i], w[i])]
    if not apart:
        return ""
    i = apart[0]

    def pair(r):
        return "(" + ", ".join(str(int(x)) for x in r) + ")"
    return f", its row {i} (counting from 0) {pair(g[i])} where {pair(w[i])} is expected"


def _changes_that_explain(question, cases, failing) -> list:
    """The words of the (one or two) argument changes that give the learner's results on every call;
    [] when none does, or more than two do equally."""
    names = arg_names(question.reference, len(cases[0][2]))
    typed = []
    if question.source:
        reading = code.read(code.own_part(question.source))
        typed = [n for n in dict.fromkeys(list(reading.numbers) + list(reading.constants))
                 if isinstance(n, (int, float)) and not isinstance(n, bool) and math.isfinite(n) and abs(n) >= 2]
    found = []
    for change, words in argument_changes(names, [c[2] for c in cases], typed,
                                          {**question.factor_hints, **question._result_question().factor_hints}):
        if words not in found and _explains(question.reference, change, cases, failing):
            found.append(words)
            if len(found) > 2:  # more than two fit equally: none is named
                return []
    return found


def _own_hints_fit(question, cases, failing) -> bool:
    """The result's own hint fits every failing call: it was written for this, so it speaks instead."""
    owns = []
    for i in failing:
        g, w, a, _, q = cases[i]
        try:
            owns.append(question._case_question(a)._hint(plain_value(q, g), plain_value(q, w), ""))
        except Exception:  # noqa: BLE001
            owns.append("")
    return bool(owns) and all(owns)


def _explains(reference, change, cases, failing) -> bool:
    """Does the reference, on the changed arguments, give the learner's result on every input
    (failing ones first: most changes fail there at once)?"""
    order = failing + [i for i in range(len(cases)) if i not in failing]
    for i in order:
        got, want, args, call, inner = cases[i]
        changed = change(args)
        if changed is None:
            if i in failing:
                return False
            continue
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):  # a changed case may be empty (a list
                warnings.simplefilter("ignore")  # cut to nothing: counts summing to 0): no warning printed
                value = reference(*copy_args(changed))
            if not same_result(inner, got, inner.to_data(value)):
                return False
        except Exception:  # noqa: BLE001 - a change the reference refuses explains nothing, unless the
            if isinstance(got, dict) and "real" in got and undefined(got["real"]):  # learner's is
                continue  # undefined too (a cosine of a zero vector: nan where the reference refuses)
            return False
    return True


def rows_left_empty(question, got, want) -> str:
    """Rows left all zeros where the answer's are not, every other row right: measured (which rows), and "a loop
    one short" only when they are the last rows and the learner's own lines move a count by one (range(n - 1))."""
    try:
        g, w = np.asarray(got), np.asarray(want)
        if g.shape != w.shape or g.ndim != 2 or g.shape[0] < 2 or g.dtype.kind not in "biuf":
            return ""
        empty = np.flatnonzero(~g.any(axis=1) & w.any(axis=1))
        rest = np.setdiff1d(np.arange(g.shape[0]), empty)
        if not len(empty) or len(empty) == g.shape[0] or not np.array_equal(g[rest], w[rest]):
            return ""
    except Exception:  # noqa: BLE001
        return ""
    n = g.shape[0]
    last = list(empty) == list(range(n - len(empty), n))
    which = (f"row {empty[0]}" if len(empty) == 1 else f"rows {', '.join(str(int(i)) for i in empty[:6])}") + \
        (", the last," if last and len(empty) == 1 else ", the last ones," if last else "")
    said = f"{which} {'is' if len(empty) == 1 else 'are'} all zeros, never filled; every other row is right"
    if last and _shift_written(question):
        said += f": your loop stops {'one' if len(empty) == 1 else len(empty)} short (range(len(…) − 1)?); go " \
                "through every position"
    return said


def _shift_written(question) -> bool:
    """Do the learner's own lines move a count by one (range(n - 1), i + 1)?"""
    try:
        source = getattr(question, "source", None)
        return bool(source) and bool(explain._construct_count(code.own_part(source), "shift"))
    except Exception:  # noqa: BLE001
        return False


def broken_invariant(question, inner, got, want, args) -> str | None:
    """The first invariant the result breaks, unless the result question's own hints name the
    mistake (they were written for it); before the invariants, what a right cell always or never
    uses (Question.needs, Question.avoids), read from the answer cell."""
    if not (question.invariants or question.needs or question.avoids) or args is None:
        return None
    try:
        value, wanted = plain_value(inner, got), plain_value(inner, want)
    except Exception:  # noqa: BLE001
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None  # nan or inf breaks every invariant: the result's own not-finite hint says what it is
    if inner._hint(value, wanted, ""):
        return None
    empty = rows_left_empty(question, value, wanted)  # rows never filled: which ones, before a property they break
    if empty:
        return empty
    moved = diagnose.shifted(value, wanted)  # every value one place off: seen on the result, before a property it breaks
    if moved:
        return moved
    if question.source and (question.needs or question.avoids):
        said = explain.needs_and_avoids(question)
        if said:
            return said
    for invariant in question.invariants:
        try:
            if not invariant.holds(value, *copy_args(args)):
                return _without_calls_made(invariant.says, question.source)
        except Exception:  # noqa: BLE001 - an invariant that cannot be checked says nothing
            continue
    return None


def _without_calls_made(says: str, source: str | None) -> str:
    """An invariant's words without a clause (", and …" or "; …" after its first) that sends the learner to a call
    their own function already makes (", and words start as their UTF-8 bytes (word.encode('utf-8'))" beside
    `w.encode("utf-8")`): a cause their code refutes, not theirs. The words as they are when the code is not read."""
    import ast

    try:
        tree = ast.parse(source) if isinstance(source, str) and len(source) <= code.SOURCE_LIMIT else None
    except (SyntaxError, ValueError, RecursionError):
        tree = None
    if tree is None:
        return says
    made = {n.func.attr if isinstance(n.func, ast.Attribute) else n.func.id for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, (ast.Attribute, ast.Name))}
    pieces = re.split(r"(, and |; )", says)
    kept = pieces[:1]
    for sep, clause in zip(pieces[1::2], pieces[2::2]):
        called = set(re.findall(r"\.([A-Za-z_]\w*)\(", clause))
        if called and called <= made:
            continue
        kept += [sep, clause]
    return "".join(kept)


def most_telling(failures, explained=None, generic=None, plain=None, facts=()) -> str:
    """The detail of a wrong function from its failing calls [(index, where, hint)]: one input can fit
    two mistakes (1.07 GB floored and 1.07 GB read as GiB both give 1.0), so the hint that fits the
    most failing inputs is said (a direction only, last), on the first input it fits.

    A slip is named by the calls it explains: `explained(k)` is every explanation of the k-th failing
    call (not only the one said there), so L + 1 blocks, "the blocks counted twice" where L = 1 and on no
    other input, is not named from that one call. A call that names no cause of its own (`generic(k)`)
    and does not fit the slip contradicts it (a slip that is real would have been found there too): a
    slip that fits one call only, where such a call contradicts it, is not named, and a story of two slips at
    once that such a call contradicts is not named however many other calls it fits. When no named slip is left,
    the general words are said: a direction-only hint of a failing call, else `plain(k)` (what is known
    of the first). `facts` (an invariant a result breaks) are observed, not inferred: never weighed so."""
    counts = {}
    for _, _, hint in failures:
        counts[hint] = counts.get(hint, 0) + 1
    cache = {}

    def fits(h, k) -> bool:
        said = failures[k][2]
        if said == h or h in said:
            return True
        if explained is None:
            return False
        if k not in cache:
            cache[k] = explained(k)
        return any(e and (e in h or h in e) for e in cache[k])

    support = {h: sum(fits(h, k) for k in range(len(failures))) for h in counts}
    # "either A, or B" on one input (4·d² = d·d_ff where d_ff = 4·d): another failing input that parts them
    # names the one that fits more inputs, alone
    for h in list(counts):
        for a, b in _either(h):
            na, nb = (sum(fits(piece, k) for k in range(len(failures))) for piece in (a, b))
            if na != nb and max(na, nb) >= 1:  # the inputs part the two: the one that fits more is said
                piece, n = (a, na) if na > nb else (b, nb)
                counts[piece] = counts.get(piece, 0) + counts.pop(h, 0)
                support[piece] = max(support.get(piece, 0), n)
                support.pop(h, None)
                break

    def kept_(h) -> bool:
        if diagnose.direction_only(h) or h in facts or generic is None:
            return True
        against = sum(1 for k in range(len(failures)) if generic(k) and not fits(h, k))
        if against and _two_slips(h):
            # two slips at once fit many values by chance: such a story must give the learner's result on every
            # failing call that names no cause of its own; two calls it fits do not outweigh one it does not
            # (L·h·d = 1,024·d on two of Llama's shapes, and on no random one)
            return False
        return against == 0 or support[h] >= 2

    kept = [h for h in counts if kept_(h)]
    if not kept and plain is not None:
        words = plain(0)
        if words:
            return f"{failures[0][1]}: {words}"
    best = max(kept or counts, key=lambda h: (not diagnose.direction_only(h), support[h],
                                              not h.endswith(parts.LAST_WORDS), counts[h],
                                              -next(i for i, _, x in failures if x == h)))
    i, where, hint = next((f for f in failures if f[2] == best), (None, None, None))
    if where is None:  # one of an "either … or" parted by the other inputs: said on the first input it fits
        k = next(k for k in range(len(failures)) if fits(best, k))
        return f"{failures[k][1]}: {best}"
    return f"{where}: {hint}"


EITHER = "two slips give exactly your number: either "


def _two_slips(hint: str) -> bool:
    """Does a call's words tell a story of two slips at once: the search's two changes ("X; and Y"), or two such
    stories framed as "two slips give exactly your number"?"""
    return bool(parts.two_changes(hint) or hint.startswith((parts.TWO_SLIPS, EITHER))
                or any(parts.two_changes(a) for pair in _either(hint) for a in pair))


def _either(hint: str) -> list:
    """The (A, B) an "either A; or B" (parts.either) may be read as; the registered pair when the search built it,
    else each place its separator may split it (", or " in the older frame)."""
    known = parts.alternatives(hint)
    if known:
        return [known]
    for lead, sep in ((parts.EITHER_LEAD, parts.EITHER_SEP), (EITHER, ", or ")):
        if hint.startswith(lead):
            rest = hint[len(lead):]
            out, at = [], rest.find(sep)
            while at > 0:
                out.append((rest[:at], rest[at + len(sep):]))
                at = rest.find(sep, at + 1)
            return out
    return []


def call_explanations(question, inner, got, want, args) -> set:
    """What one failing call's result can be explained by: every hint of the result question that
    fits it, every nearest explanation of its named parts, every invariant it breaks."""
    out = set()
    try:
        value, wanted = plain_value(inner, got), plain_value(inner, want)
    except Exception:  # noqa: BLE001
        return out
    for hint in inner.hints:
        try:
            if hint.when(value, wanted, *args) if hint.args else hint.when(value, wanted):
                out.add(hint.message)
        except Exception:  # noqa: BLE001
            continue
    if inner.parts is not None and inner.kind in ("integer", "real"):
        try:
            out |= explain.explanations(inner, value, wanted)
        except Exception:  # noqa: BLE001
            pass
    case = getattr(inner, "case", None)
    if inner.kind in ("integer", "real") and case is not None and inner.source:
        # the learner's own function put right by one edit (a number one off, an
        # operator), on this call's arguments: a counterfactual that holds on every
        # call where the slip is the learner's, said there or not
        try:
            out |= set(explain._one_edit_undone(inner, value, wanted))
        except Exception:  # noqa: BLE001
            pass
    for invariant in question.invariants:
        try:
            if not invariant.holds(value, *copy_args(args)):
                out.add(invariant.says)
        except Exception:  # noqa: BLE001
            continue
    return out


# --------------------------------------------------------------------------
# An exception read into a cause


_OUT_OF_BOUNDS = re.compile(r"index (-?\d+) is out of bounds for (?:axis (\d+) with )?size (\d+)")
_BROADCAST = re.compile(r"operands could not be broadcast together with shapes ((?:\([\d, ]*\) ?)+)")
_SHAPE = re.compile(r"\(([\d, ]*)\)")
# Two sizes that should have matched, in numpy's other shape errors: matmul's core dimension, np.dot's
# "shapes (a,b) and (c,) not aligned: b (dim 1) != c (dim 0)", a reshape's "array of size a into shape (b,)"
_SIZES = [re.compile(r"mismatch in its core dimension \d+.*?\(size (\d+) is different from (\d+)\)"),
          re.compile(r"not aligned: (\d+) \(dim \d+\) != (\d+) \(dim \d+\)"),
          re.compile(r"cannot reshape array of size (\d+) into shape \((\d+),?\)")]


def _arrays(args, names):
    out = []
    for name, a in zip(names, args):
        try:
            v = np.asarray(a)
        except Exception:  # noqa: BLE001
            continue
        if v.dtype.kind in "iuf" and v.ndim >= 1:
            out.append((name, v))
    return out


def product_error(raised) -> bool:
    """Is `raised` numpy's error for a matrix product whose inner sizes differ (matmul's or np.dot's)?"""
    return isinstance(raised, str) and any(p.search(raised) for p in _SIZES[:2])


def _product_sizes(cols: int, rows: int, args, names) -> str:
    """A @ B whose A has `cols` columns and B `rows` rows: each size named by what it is among the call's
    arguments (an int argument, an array's rows or columns), where one is."""
    what = {}
    for name, v in zip(names, args):
        if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            what.setdefault(int(v), f"`{name}`")
    for name, v in _arrays(args, names):
        what.setdefault(v.shape[0], f"`{name}`'s {'length' if v.ndim == 1 else 'rows'}")
        if v.ndim == 2:
            what.setdefault(v.shape[1], f"`{name}`'s columns")

    def said(n):
        return f"{n} ({what[n]})" if n in what else str(n)

    return f"in A @ B, A's columns must match B's rows: here {said(cols)} and {said(rows)}"


def _wrong_axis(a: int, b: int, arrays) -> str | None:
    """Two sizes a shape error says differ, read against the arguments: a table's number of rows (or of the
    rows an ids argument selects) against its width d is a mean, sum or norm taken along the wrong axis."""
    if a == b:
        return None
    tables = [(name, v) for name, v in arrays if v.ndim == 2 and v.shape[0] != v.shape[1]]
    if not tables:
        return None
    rows = {v.shape[0]: f"the {v.shape[0]} rows of `{name}`" for name, v in tables}
    rows.update({len(v): f"the {len(v)} id{'s' * (len(v) != 1)} of `{name}`" for name, v in arrays
                 if v.ndim == 1 and v.dtype.kind in "iu" and len(v) not in rows})
    widths = {v.shape[1]: f"the width of `{name}` ({v.shape[1]} columns)" for name, v in tables}
    for n_rows, width in ((a, b), (b, a)):
        if n_rows in rows and width in widths and n_rows not in widths:
            return (f"a wrong axis: the sizes {a} and {b} are {rows[n_rows]} against {widths[width]}: your mean, "
                    f"sum or norm has one value per row instead of one per column; reduce along the other axis "
                    f"(axis=0 averages the rows into one vector of the width; axis=1 gives one value per row)")
    return None


def _indexes_with(source, index: int) -> set | None:
    """The names a function's code indexes with (`x[ids]`, `x[ids[i]]`, `for i in ids: x[i]`), or None
    when the code itself writes `index` inside a subscript (`x[:, 1]`, `x[j + 1]`: then that index is a
    position of the code's own, whatever the arguments hold). An empty set when the code does not parse."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, TypeError):
        return set()
    names, loops = set(), {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.comprehension)):  # a loop variable stands for the values it walks
            looped = _index_names(node.iter)  # `for t in ids`, not `for i in range(len(ids))`
            for target in ast.walk(node.target):
                if isinstance(target, ast.Name):
                    loops.setdefault(target.id, set()).update(looped)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            # a name that holds the values of another (`kept = np.unique(storage)`) stands for them too
            loops.setdefault(node.targets[0].id, set()).update(_index_names(node.value))
    for _ in range(3):  # names made from names made from the arguments (`u = np.unique(s)`, `k = sorted(u)`)
        for name, held in list(loops.items()):
            loops[name] = held | set().union(*(loops.get(h, set()) for h in held))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Subscript):
            continue
        for sub in ast.walk(node.slice):
            if isinstance(sub, ast.Constant) and type(sub.value) is int and sub.value == index:
                return None
        for name in _index_names(node.slice):
            names |= {name} | loops.get(name, set())
    return names


def _index_names(node) -> set:
    """The names whose values an index expression is: `ids`, `(rows, ids)`, `ids[i]` (not `len(ids) + 2`)."""
    import ast

    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Tuple):
        return set().union(*(_index_names(e) for e in node.elts)) if node.elts else set()
    if isinstance(node, ast.Subscript):
        return _index_names(node.value)
    if isinstance(node, ast.Call) and node.args:
        # a call that keeps its argument's values (np.unique(storage), sorted(ids), set(ids), np.asarray(ids)):
        # the index is still those values; not one that makes a size or a position of them (len, range, argsort)
        func = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if func in _VALUE_KEEPING:
            return _index_names(node.args[0])
    return set()


_VALUE_KEEPING = {"unique", "sorted", "set", "list", "tuple", "asarray", "array", "fromkeys", "ravel", "flatten",
                  "concatenate", "int", "int64", "astype"}


def exception_cause(raised: str, args, names, source: str | None = None) -> str | None:
    """What a common exception of a learner's function says, read against the call's arguments: an index
    out of bounds that is a value of an argument (an id, not a position: said only when the function's
    `source` indexes with that argument and never writes that index itself), a broadcast between the two sizes
    of one table (a sum or norm along the wrong axis), an operation on None (a missing return, or a method
    that works in place and returns None), a division by zero."""
    if not isinstance(raised, str) or args is None:
        return None
    arrays = _arrays(args, names)
    m = _OUT_OF_BOUNDS.search(raised)
    if m:
        index, size = int(m.group(1)), int(m.group(3))
        indexed = _indexes_with(source, index) if isinstance(source, str) else None
        holders = [name for name, v in arrays if v.dtype.kind in "iu" and index in v.ravel().tolist()
                   and indexed is not None and name in indexed]
        if holders:
            return (f"the index {index} is a value of `{holders[0]}` (an id), not a position: only positions 0 to "
                    f"{size - 1} exist there; index by position (enumerate, or np.unique(..., return_index=True)), "
                    "or map each id to its position first")
        return (f"an index past the end: only positions 0 to {size - 1} exist (an off-by-one, len(...) where "
                "len(...) - 1 is the last, or an index from another array?)")
    m = _BROADCAST.search(raised)
    if m:
        shapes = [tuple(int(x) for x in g.replace(" ", "").split(",") if x) for g in _SHAPE.findall(m.group(1))]
        for name, v in arrays:
            if v.ndim == 2 and v.shape[0] != v.shape[1] and len(shapes) == 2 \
                    and {shapes[0][-1:], shapes[1][-1:]} == {(v.shape[0],), (v.shape[1],)}:
                return (f"shapes {shapes[0]} and {shapes[1]} are the two sizes of `{name}` ({v.shape[0]} rows, "
                        f"{v.shape[1]} columns): a sum, mean or norm along the wrong axis (axis=0 gives one value per "
                        f"column, axis=1 one per row; keepdims=True keeps it aligned with the rows)")
        return None
    for k, pattern in enumerate(_SIZES):
        m = pattern.search(raised)
        if m:
            axis = _wrong_axis(int(m.group(1)), int(m.group(2)), arrays)
            if axis or k == 2:
                return axis
            # a matrix product whose inner sizes differ: matmul names B's rows first, np.dot A's columns first
            rows, cols = (int(m.group(1)), int(m.group(2))) if k == 0 else (int(m.group(2)), int(m.group(1)))
            return _product_sizes(cols, rows, args, names)
    if "NoneType" in raised:
        return ("a None where a value is expected: a function without `return`, or a method that works in place "
                "and returns None (list.sort(), list.append(), arr.sort()): use its result only if it returns one")
    if raised.startswith("ZeroDivisionError"):
        return ("a division by zero on this input: a total or a count of 0 (an empty input?): check what the "
                "question says such an input gives")
    return None


# --------------------------------------------------------------------------
# One call's result, as plain data


def same_result(question, got, want) -> bool:
    """Is one result (plain data) the reference's (plain data), as the result question judges, without
    its hints?"""
    try:
        if question.kind == "integer":
            g = got.get("int", got.get("float"))
            return g is not None and g == want.get("int", want.get("float"))
        if question.kind == "real":
            if undefined(got.get("real")) and undefined(want.get("real")):
                return True
            return question.accepts(read_real(got["real"]), read_real(want["real"]))
        if question.kind == "array":
            g, w = data_to_array(got), data_to_array(want)
            return g.shape == w.shape and bool(question.close(g, w).all())
        if question.kind == "choice":
            return got.get("str") == want.get("str")
        if question.kind == "arrays":  # several arrays (kinds.Arrays): each as an Array judges it
            pairs = [(data_to_array(g), data_to_array(w)) for g, w in zip(got["arrays"], want["arrays"])]
            return len(got["arrays"]) == len(want["arrays"]) and all(
                g.shape == w.shape and bool(question.close(g, w).all()) for g, w in pairs)
    except Exception:  # noqa: BLE001
        return False
    return False


def plain_value(question, data):
    """A result's plain data as the value its hints read (an array, a number, a word)."""
    if question.kind == "array":
        return data_to_array(data)
    if question.kind == "arrays":
        return [data_to_array(a) for a in data["arrays"]]
    if isinstance(data, dict):
        for tag in ("int", "float", "real", "str"):
            if tag in data:
                return data[tag]
    return data


def case_parts(want, name):
    """(call text, reference output, arguments) of one expected case (older keys: output only)."""
    if isinstance(want, dict) and "out" in want and "call" in want:
        return want["call"], want["out"], want.get("args")
    return None, want, None


def arg_names(func, n: int) -> list[str]:
    try:
        params = [p.name for p in inspect.signature(func).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    return (params + [f"arg{i + 1}" for i in range(len(params), n)])[:n]


def shown(question, data) -> str:
    """The learner's own result, compact (never the expected one)."""
    if isinstance(data, dict):
        if "int" in data and question.kind == "integer":
            return diagnose.compact(data["int"])
        if "float" in data and question.kind == "integer":
            return diagnose.compact(data["float"])
        if "real" in data:
            value = read_real(data["real"])
            return f"{value:.6g}" if isinstance(value, (int, float)) and not isinstance(value, bool) else ""
        if "hex" in data:
            shape = tuple(data.get("shape", ()))
            return f"an array of shape {shape}" if len(shape) != 0 else ""
        if "arrays" in data and isinstance(data["arrays"], list):
            shapes = ", ".join(str(tuple(a.get("shape", ()))) for a in data["arrays"] if isinstance(a, dict))
            return f"arrays of shapes {shapes}"
    return ""


# --------------------------------------------------------------------------
# The usual slips of a function's arguments


def one_change(build):
    """A parts builder whose answers are searched for one change only (depth 1)."""
    def built(*args):
        answer = build(*args)
        for one in answer if isinstance(answer, (list, tuple)) else [answer]:
            one.depth = 1
        return answer
    return built


def _length(a):
    if isinstance(a, (list, tuple)) or (isinstance(a, np.ndarray) and a.ndim >= 1):
        return len(a)
    return None


def argument_changes(names, all_args, typed, own_words=None):
    """(change(args) -> changed args or None, words) for the usual slips of a function's arguments."""
    n = len(names)
    out = []
    for i in range(n):
        if all(is_plain_number(a[i]) for a in all_args):
            for c in typed:
                out.append((lambda args, i=i, c=c: args[:i] + (type(args[i])(c) if float(c).is_integer() else c,)
                            + args[i + 1:] if args[i] != c else None,
                            f"it gives the result for {names[i]} = {diagnose.compact(c)} whatever `{names[i]}` is "
                            f"passed: a number is typed in the body where the argument `{names[i]}` belongs"))
    for i in range(n):
        if all(is_plain_number(a[i]) for a in all_args):
            out.append((lambda args, i=i: args[:i] + (type(args[i])(1),) + args[i + 1:] if args[i] != 1 else None,
                        (own_words or {}).get(f"/{names[i]}")
                        or (lambda args, i=i: f"yours is divided by {names[i]} (= {diagnose.compact(args[i])}): it "
                                              f"gives the result for {names[i]} = 1, the argument `{names[i]}` "
                                              f"ignored (a factor {names[i]} left out?)")))
    for i, j in ((i, i + 1) for i in range(n - 1)):  # neighbours in the signature (h and h_kv, d and d_ff)
        if all(is_plain_number(a[i]) and is_plain_number(a[j]) for a in all_args):
            out.append((lambda args, i=i, j=j: tuple(args[j] if k == i else args[i] if k == j else a
                                                     for k, a in enumerate(args)) if args[i] != args[j] else None,
                        f"`{names[i]}` and `{names[j]}` swapped: it gives the result for {names[i]} and {names[j]} "
                        "exchanged"))

    def vector(a):
        try:
            v = np.asarray(a)
        except Exception:  # noqa: BLE001
            return False
        return v.ndim == 1 and v.dtype.kind in "iuf" and v.size >= 1  # length 1 centred: 0, undefined

    arrays = [i for i in range(n) if all(vector(a[i]) for a in all_args)]
    if len(arrays) >= 2:  # every vector centred: a correlation coefficient where a cosine is asked
        out.append((lambda args: tuple(np.asarray(a, dtype=np.float64) - np.mean(a) if k in arrays else a
                                       for k, a in enumerate(args)),
                    "it gives the result for the vectors with their mean subtracted (a correlation coefficient, "
                    "np.corrcoef): use the vectors as they are"))

    def cut(args, i, how, least=1):
        first = _length(args[i])
        if not first or first < least:
            return None
        return tuple(how(a) if _length(a) == first else a for a in args)

    for i in range(n):  # an input where the argument is empty (or not a sequence) is left as it is
        if not any(_length(a[i]) for a in all_args) or not all(_length(a[i]) is not None for a in all_args):
            continue
        together = [names[k] for k in range(n) if all(_length(a[k]) == _length(a[i]) for a in all_args)]
        listed = " and ".join(f"`{s}`" for s in together[:2])
        out.append((lambda args, i=i: cut(args, i, lambda a: a[:-1]),
                    f"it leaves out the last item of {listed}: a loop or range one short (an off-by-one, "
                    "range(len(...) - 1)?): every position counts"))
        out.append((lambda args, i=i: cut(args, i, lambda a: a[1:]),
                    f"it leaves out the first item of {listed}: an off-by-one (range starting at 1?): every "
                    "position counts"))
        out.append((lambda args, i=i: cut(args, i, lambda a: a[:1], least=2),
                    f"it uses only the first item of {listed}, not all of them: take every item (the mean, the sum, "
                    "each position)"))
    return out


def forbidden_reference(source: str | None, names) -> str | None:
    """The first of `names` (library functions the question asks the learner to write themselves) that the
    answer cell refers to: called, aliased (`f = train_bpe`), imported (`from embedlab import train_bpe as t`)
    or read as an attribute (`embedlab.train_bpe`), anywhere in the cell, a helper of its own included. Read
    from the source, never run; None when the cell names none of them (or cannot be read)."""
    import ast

    if not names or not isinstance(source, str) or len(source) > code.SOURCE_LIMIT:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load):
            return node.id
        if isinstance(node, ast.Attribute) and node.attr in names:
            return node.attr
        if isinstance(node, ast.ImportFrom) and any(a.name in names for a in node.names):
            return next(a.name for a in node.names if a.name in names)
    return None


def unused_arguments(source: str | None, name: str) -> list[str]:
    """The arguments the learner's function `name` takes and never reads (its body never loads them, nor
    passes them on): read from the answer cell's source, never run. [] when the function is not found, takes
    *args or **kwargs (an argument may arrive there), or reads them all."""
    import ast

    if not isinstance(source, str) or len(source) > code.SOURCE_LIMIT:
        return []
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return []
    found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if not found:
        return []
    func = found[-1]
    if func.args.vararg or func.args.kwarg:
        return []
    names = [a.arg for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs]
    loaded = {n.id for stmt in func.body for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("locals", "vars", "eval")
           for stmt in func.body for n in ast.walk(stmt)):
        return []
    return [a for a in names if (a not in loaded or a in _overwritten_first(func.body, names))
            and not a.startswith("_")]


def _overwritten_first(body, names) -> set:
    """The arguments among `names` whose first use in the function's body, statement by statement, is a plain
    assignment that does not read them (`a, b = table[0], table[1]` first thing): the value passed in is never read.
    A statement with a block (an `if`, a loop) that names one decides nothing for it: counted as read there."""
    import ast

    out, decided = set(), set()
    for stmt in body:
        loads = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        stores = set()
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                parts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
                stores |= {t.id for t in parts if isinstance(t, ast.Name)}
        for a in names:
            if a in decided:
                continue
            if a in loads:
                decided.add(a)
            elif a in stores:
                decided.add(a)
                out.add(a)
            elif any(isinstance(n, ast.Name) and n.id == a for n in ast.walk(stmt)):
                decided.add(a)  # named some other way (a loop's target, an augmented assignment): not decided here
    return out


# --------------------------------------------------------------------------
# How many results: counted before what each one holds


def _lengths(question, data, expected) -> list:
    """(the learner's length, the reference's, the arguments) of each call whose results are both arrays
    of one dimension or more (a call that raised, or a result of another form, is left out)."""
    if getattr(question._result_question(), "kind", "") != "array":
        return []
    out = []
    for got, w in zip(data, expected):
        _, want, args = case_parts(w, question.name)
        if not isinstance(got, dict) or "raised" in got or "wrong_form" in got or args is None:
            continue
        try:
            g, wa = data_to_array(got), data_to_array(want)
        except Exception:  # noqa: BLE001
            continue
        if g.ndim >= 1 and wa.ndim >= 1:
            out.append((g.shape[0], wa.shape[0], g.shape[1:], wa.shape[1:], args))
    return out


def _counts_asked(question, args) -> list:
    """(name, value) of the call's whole-number arguments: the counts a result's length may be asked by."""
    names = arg_names(question.reference, len(args))
    return [(n, int(a)) for n, a in zip(names, args)
            if isinstance(a, (int, np.integer)) and not isinstance(a, (bool, np.bool_)) and a >= 0]


def _tracks(question, args, name: str, made: int) -> bool:
    """Is argument `name` a count the result's length follows? The reference asked for one less than `made`
    (the length it gives on `args`) gives exactly one entry less: n_merges is (asked for 1 merge, 1 merge), a
    vocabulary size V is not (asked for a smaller V, the same rows or an error)."""
    if made < 1 or question.reference is None:
        return False
    names = arg_names(question.reference, len(args))
    if name not in names:
        return False
    changed = list(copy_args(args))
    changed[names.index(name)] = made - 1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return len(np.asarray(question.reference(*changed))) == made - 1
    except Exception:  # noqa: BLE001 - a reference that refuses the smaller count: not a count it follows
        return False


def _noun(name: str, rows: bool) -> str:
    return name[2:].replace("_", " ") if name.startswith("n_") and len(name) > 2 else ("rows" if rows else "entries")


def count_relation(question, data, expected) -> dict | None:
    """The learner's result length against a count the call asks for, proven on every call that asks it:
    {"name", "k"} when on every call whose reference result has exactly `name` entries the learner's has
    `name` + k (k ≠ 0, the same k everywhere; at least one call), and never more than the reference's on a
    call where the reference stops early. None when no count argument explains the lengths so."""
    lengths = _lengths(question, data, expected)
    if not any(g != w for g, w, *_ in lengths):
        return None
    found = None
    for name in dict.fromkeys(n for *_, args in lengths for n, _ in _counts_asked(question, args)):
        ks, ok, asked = set(), True, []
        for g, w, _, _, args in lengths:
            value = dict(_counts_asked(question, args)).get(name)
            if value is None:
                ok = False
                break
            if w == value:
                ks.add(g - value)
                asked.append((args, w))
            elif g > w:
                ok = False
                break
        # the count asked on most calls (two at least), and one the reference's length follows
        if ok and len(ks) == 1 and 0 not in ks and len(asked) >= max(2, len(lengths) // 2) \
                and _tracks(question, asked[0][0], name, asked[0][1]):
            found = {"name": name, "k": ks.pop()}
            break
    return found


def count_words(question, got, want, args, relation) -> str | None:
    """What one call's result length says, before what its entries hold: `relation` (count_relation) proven over
    every call, or, where the reference makes fewer than a count argument asks (nothing left) and the learner's
    makes that many, that; None otherwise (a length off by nothing a count explains: the shape's own words)."""
    lengths = _lengths(question, [got], [{"call": "", "out": want, "args": args}]) if args is not None else []
    if not lengths:
        return None
    g, w, g_rest, w_rest, _ = lengths[0]
    if g == w:
        return None
    rows = len(w_rest) > 0
    if relation is not None:
        name, k = relation["name"], relation["k"]
        value = dict(_counts_asked(question, args)).get(name)
        if value is not None and w == value:
            more = f"{name} {'+' if k > 0 else '−'} {abs(k)}"
            return (f"{more} {_noun(name, rows)} where {name} are asked (on every input that has {name} to make): "
                    f"count what your loop makes")
    if g and tuple(g_rest) != tuple(w_rest):
        return None  # entries of another form: what they hold is the first thing to say
    for name, value in _counts_asked(question, args):
        if g == value and w < value and _tracks(question, args, name, w):
            noun = _noun(name, rows)
            return (f"{name} {noun} where only {w} can be made on this input: nothing is left after that, so "
                    f"stop when nothing is left rather than making up more")
    return None  # a length off with no count argument to explain it: the shape's own words say it (Array's judge)


# --------------------------------------------------------------------------
# An exception, read against the input it was raised on

_EMPTY = re.compile(r"empty sequence|iterable argument is empty|zero-size array|with size 0\b|"
                    r"index out of range|out of bounds for axis \d+ with size 0")
_NOTHING_LEFT = re.compile(r"empty sequence|iterable argument is empty|zero-size array")
_PLAIN_TYPES = {"list": list, "tuple": tuple}


def exception_context(question, raised: str, want, args) -> str | None:
    """One true line on the input an exception was raised on, proven from that input: the plain lists it
    holds (an error that names `list` on a call given lists: the inputs may be plain lists), the argument
    that is empty, or, for an error of an empty sequence on a call whose reference result is shorter than a
    count the call asks for, where nothing is left. None when the input shows none of these."""
    if not isinstance(raised, str) or args is None:
        return None
    names = arg_names(question.reference, len(args))
    for word, kind in _PLAIN_TYPES.items():
        if re.search(rf"'{word}'|\b{word} (indices|object)|sequence", raised):
            plain = [n for n, a in zip(names, args) if type(a) is kind]
            if plain and (f"'{word}'" in raised or f"{word} " in raised or "sequence" in raised):
                which = " and ".join(f"`{n}`" for n in plain)
                # np.asarray mends only what an array has: a dict's method (`.values()`) or a word as an index
                # is a list used as a dict, said as what the code did to it
                missing = re.search(rf"'{word}' object has no attribute '(\w+)'", raised)
                by_word = re.search(rf"{word} indices must be integers or slices, not str", raised)
                if (missing and not hasattr(np.ndarray, missing.group(1))) or by_word:
                    what = f"are {word}s" if len(plain) > 1 else f"is a {word}"
                    if by_word:
                        did = f"your code indexes a {word} by a word, as a dict is indexed"
                    elif hasattr(dict, missing.group(1)):
                        did = f"your code calls `.{missing.group(1)}`, a dict's method, on a {word}"
                    else:
                        did = f"your code reads `.{missing.group(1)}` of a {word}, which has none"
                    dicts = "dicts" if len(plain) > 1 else "a dict"
                    return f"here {which} {what}, indexed by position, not {dicts}: {did}"
                what = f"are {word}s, not numpy arrays" if len(plain) > 1 else f"is a {word}, not a numpy array"
                return (f"the inputs may be plain {word}s (here {which} {what}): turn each into an array first "
                        f"(np.asarray), or write code that works on both")
    if not _EMPTY.search(raised):
        return None
    empty = [n for n, a in zip(names, args) if hasattr(a, "__len__") and not isinstance(a, str) and _length(a) == 0]
    if empty:
        return (f"here `{empty[0]}` is empty (no entry at all), which the question allows: handle that input "
                f"without taking anything out of it")
    if not _NOTHING_LEFT.search(raised):
        return None
    try:
        made = data_to_array(want)
    except Exception:  # noqa: BLE001
        return None
    if made.ndim < 1:
        return None
    for name, value in _counts_asked(question, args):
        if made.shape[0] < value and _tracks(question, args, name, made.shape[0]):
            noun = _noun(name, made.ndim > 1)
            return (f"on this input only {made.shape[0]} {noun} can be made ({name} = {value}): after them "
                    f"nothing is left, and your code takes something out of an empty sequence; stop when nothing "
                    f"is left")
    return None


# --------------------------------------------------------------------------
# A term the learner's function adds, proven on every failing call


def _position_tables() -> dict:
    """{rows: model} of the learned position tables of the shipped configs (their rows, as count_params counts the
    table): a typed number of rows times d that is one of them is named."""
    from embedlab.params import available_models, count_params, load_config, model_shape

    out = {}
    for name in available_models():
        try:
            config = load_config(name)
            table = count_params(config).position_embedding
            width = model_shape(config).hidden_size
            rows = table // width if table and table % width == 0 else None  # OPT's 2,048 positions are 2,050 rows
        except Exception:  # noqa: BLE001 - a config the counter cannot read names nothing
            continue
        if isinstance(rows, int) and rows >= 2:
            out.setdefault(rows, name)
    return out


def added_term(question, calls) -> str | None:
    """A term of the learner's own function (a product of a number it types and its parameters, `1024 * d`) whose
    value, on each failing call's arguments, is exactly what the result has too many there, on two calls or more:
    taken out, every one of them is right. Named with its size; a typed number of rows times d that is a shipped
    model's learned position table (GPT-2's 1,024) is named as that table. None otherwise."""
    import ast

    source = getattr(question, "source", None)
    if not source or len(calls) < 2:
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == question.name]
    if not found:
        return None
    params = [a.arg for a in found[-1].args.args]
    terms = []
    for node in ast.walk(found[-1]):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
            continue
        names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        typed = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and type(n.value) is int]
        if names and names <= set(params) and typed and all(
                isinstance(n, (ast.BinOp, ast.Name, ast.Constant, ast.Load, ast.Mult)) for n in ast.walk(node)):
            terms.append((node, typed))
    inner = question._result_question()
    gaps = []
    for got, want, args, _ in calls:
        try:
            g, w = plain_value(inner, got), plain_value(inner, want)
        except Exception:  # noqa: BLE001
            return None
        if not (is_plain_number(g) and is_plain_number(w)) or args is None:
            return None
        gaps.append((g - w, dict(zip(params, args))))
    for node, typed in terms:
        code_ = compile(ast.Expression(node), "<term>", "eval")
        try:
            values = [eval(code_, {"__builtins__": {}}, dict(env)) for _, env in gaps]  # noqa: S307 - numbers only
        except Exception:  # noqa: BLE001
            continue
        if any(v == 0 or v != gap for v, (gap, _) in zip(values, gaps)):
            continue
        segment = ast.get_source_segment(source, node) or ast.unparse(node)
        said = (f"your function adds `{segment}` on every input, exactly what each failing result has too many: "
                f"taken out, every one is right; the count asked has no such term")
        read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        tables = _quiet_tables()
        rows = [t for t in typed if t in tables]
        if read == {"d"} and len(typed) == 1 and rows and inner.unit_of() == "parameters":  # a table holds weights
            said += (f" ({rows[0]:,} rows of d numbers is a learned position table, n_positions × d, as "
                     f"{tables[rows[0]]}'s: a model without one counts none)")
        return said
    return None


def _quiet_tables() -> dict:
    try:
        return _position_tables_cached()
    except Exception:  # noqa: BLE001
        return {}


_TABLES: dict = {}


def _position_tables_cached() -> dict:
    if "tables" not in _TABLES:
        _TABLES["tables"] = _position_tables()
    return _TABLES["tables"]
