"""Keys and words of the learner's own code: a label slip proven, never guessed.

Issue 46: a hint names a mistake only when it can prove it. An answer that is one
word out of a few (question 5 of lesson 11: "parameters", "memory" or "compute") is
often picked from a dict the cell writes out: `max(used, key=used.get)`. Two slips
there give a right value on the book's inputs and a wrong one elsewhere, and neither
is a number typed: a key spelled otherwise than the allowed word (the value names
it: it is none of the words), and a key left out (the syntax names it: the answer
is one of the dict's keys, so a word that is not one of them can never come out).
A config dict copied with one key changed (`{**design, "tie_embeddings": …}`) whose
key the config does not have changes nothing the calculators read: said only where
the answer is the unchanged config's own figure.

Everything here reads the source (`ast`), never runs it; an unparsable or hostile
source gives no finding.
"""

from __future__ import annotations

import ast
import difflib

from embedlab.grading import code

__all__ = ["picked_from", "not_allowed", "left_out", "unknown_keys", "unread_key"]

_PICKERS = {"max", "min"}


def _tree(source):
    own = code.own_part(source) if isinstance(source, str) else None
    if not own or len(own) > code.SOURCE_LIMIT:
        return None
    try:
        return ast.parse(own)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _dict_keys(node) -> tuple | None:
    """The keys of a dict display whose keys are all written-out strings (no `**`)."""
    if not isinstance(node, ast.Dict) or not node.keys:
        return None
    keys = []
    for k in node.keys:
        if not isinstance(k, ast.Constant) or not isinstance(k.value, str):
            return None
        keys.append(k.value)
    return tuple(keys)


def _named(node) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _method_of(node, method: str) -> str | None:
    """X of `X.method()`, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr == method and not node.args:
        return _named(node.func.value)
    return None


def _picker(node) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        and node.func.id in _PICKERS and len(node.args) == 1


def _picked_name(node) -> str | None:
    """X of `max(X, key=…)`, `max(X.keys(), key=…)`, `max(X.items(), key=…)[0]`
    (min alike), else None."""
    if isinstance(node, ast.Subscript):
        index = node.slice
        if isinstance(index, ast.Constant) and index.value == 0 and _picker(node.value):
            return _method_of(node.value.args[0], "items")
        return None
    if not _picker(node) or not any(k.arg == "key" for k in node.keywords):
        return None
    arg = node.args[0]
    return _method_of(arg, "keys") or _named(arg)


def _changes(node, name: str) -> bool:
    """Does `node` change the dict `name` other than by assigning it whole?"""
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return _named(node.target) == name
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return _named(node.value) == name
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return _named(node.func.value) == name and node.func.attr in (
            "update", "pop", "setdefault", "popitem", "clear")
    return False


def picked_from(source, name: str) -> tuple[str, tuple] | None:
    """(the dict's name, its keys) when the learner's own lines set `name` to a key
    picked from a dict they write out in full (`used = {"memory": …}`, then
    `max(used, key=used.get)`) that nothing else in the cell sets or changes; None
    otherwise (a dict built another way: headroom(...), a comprehension)."""
    tree = _tree(source)
    if tree is None:
        return None
    picked = None
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) \
                and any(_named(t) == name for t in stmt.targets):
            picked = _picked_name(stmt.value)
    if picked is None:
        return None
    keys, made = None, 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) \
                and any(_named(t) == picked for t in node.targets):
            keys, made = _dict_keys(node.value), made + 1
        elif _changes(node, picked):
            return None
    if made != 1 or keys is None:
        return None
    return picked, keys


def _words(options) -> str:
    return ", ".join(repr(o) for o in options)


def _allowed(options) -> list:
    return [str(o).strip().lower() for o in options or ()]


def not_allowed(got, options) -> str | None:
    """The words for an answer that is none of the words the question allows
    (measured on the value itself); None when it is one, or none are declared."""
    allowed = _allowed(options)
    if not allowed or not isinstance(got, str) or got.strip().lower() in allowed:
        return None
    word = got.strip().lower()
    return f"{word!r} is not one of the answers the question allows ({_words(allowed)})"


def left_out(source, name: str, options, want) -> str | None:
    """The words for an answer picked from a dict the cell writes out (`picked_from`)
    that lacks the allowed word `want` (the answer on some input): the cell can never
    give it. None otherwise."""
    found = picked_from(source, name)
    allowed = _allowed(options)
    if found is None or not isinstance(want, str) \
            or want.strip().lower() not in allowed:
        return None
    dict_name, keys = found
    held = {k.strip().lower() for k in keys}
    if want.strip().lower() in held:
        return None
    missing = [o for o in allowed if o not in held]
    entry = "entry" if len(missing) == 1 else "entries"
    return (f"your lines pick the answer from `{dict_name}`, which has no "
            f"{_words(missing)} {entry}, so they can never answer "
            f"{want.strip().lower()!r}")


def _set_on_copy(node, base_name: str) -> list:
    """The keys one node sets on a copy of the dict `base_name`: `{**base, "k": v}`,
    `dict(base, k=v)`, `base | {"k": v}`."""
    if isinstance(node, ast.Dict) and any(
            k is None and _named(v) == base_name
            for k, v in zip(node.keys, node.values)):
        return [k.value for k in node.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str)]
    if isinstance(node, ast.Call) and _named(node.func) == "dict" and node.args \
            and _named(node.args[0]) == base_name:
        return [k.arg for k in node.keywords if k.arg]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr) \
            and _named(node.left) == base_name:
        return list(_dict_keys(node.right) or ())
    return []


def unknown_keys(source, base_name: str, base: dict) -> list[tuple[str, str | None]]:
    """[(key, the base's nearest key or None)] of the keys the learner's own lines set
    on a copy of the dict `base_name` that `base` (its value) does not have. [] when
    none, or the source does not parse."""
    tree = _tree(source)
    if tree is None or not isinstance(base, dict):
        return []
    set_keys = [key for node in ast.walk(tree) for key in _set_on_copy(node, base_name)]
    known = [k for k in base if isinstance(k, str)]
    out = []
    for key in dict.fromkeys(set_keys):
        if key in base:
            continue
        near = difflib.get_close_matches(key, known, n=2, cutoff=0.5)
        one = len(near) == 1 or (near and key in near[0])
        out.append((key, near[0] if one else None))
    return out


def unread_key(source, base_name: str, base: dict, figure, got) -> str | None:
    """The words for a key the cell sets on a copy of `base` that `base` does not
    have, proven: the figure (`figure(config) -> number`, the calculator the question
    counts with) of the copy with that key set is the base's own, and the learner's
    answer is that figure. None when no such key is set, or it is not proven."""
    try:
        own = figure(base)
    except Exception:  # noqa: BLE001 - a config the calculator refuses proves nothing
        return None
    if got != own:
        return None
    for key, near in unknown_keys(source, base_name, base):
        try:
            unread = all(figure({**base, key: value}) == own
                         for value in (True, False, 0, 1))
        except Exception:  # noqa: BLE001
            continue
        if unread:
            meant = f" (the key it has is {near!r})" if near else ""
            return (f"your cell sets {key!r}, which is not a key of "
                    f"`{base_name}`{meant}: "
                    f"the count never reads it, so your answer is `{base_name}`'s own "
                    "count, unchanged")
    return None
