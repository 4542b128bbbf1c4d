"""Which inputs a function question is tested on: the same in the notebook and in the grader.

A function answer (``def cosine(a, b): ...``) is called on a list of inputs,
some fixed and some random (each question's ``cases(rng)``). Where the random
ones come from decides two things an instructor must be able to defend:

* **A regrade gives the same grade.** The inputs may depend on nothing but the
  submission itself (and, with ``--seed N``, on N): not on the other files in
  the folder, their order, ``-j`` or the time of day.
* **The notebook and the grader agree.** A learner whose check printed ✅ on an
  untampered notebook must get the question right from the grader, and ❌ must
  stay ❌. That holds when both call the function on the same inputs.

So the generator is seeded by the function's own code: the last top-level
statement of the notebook that binds the name (``def cosine`` or
``cosine = lambda ...``), as a syntax tree without positions (comments, blank
lines and spacing do not count). The notebook check reads it from the cells the
kernel ran (IPython's input history, ``In``); the grader's worker reads it from
the submitted cells, in the sandbox, before any of them runs. Both hash the same
tree, so both draw the same inputs; and hard-coding the outputs of the inputs one
has seen changes the code, and with it the inputs.

Without a binding found (a function made by ``exec``, a plain-Python test) the
digest is empty and the inputs are those of that empty digest: still fixed,
still the same on both sides.
"""

from __future__ import annotations

import ast
import hashlib

import numpy as np

MAX_NAMES = 500  # bindings reported per notebook (a notebook defining more keeps its first ones)
MAX_SOURCE = 2**20  # characters of one cell parsed for its bindings (a longer cell is skipped)


def _transformed(source: str) -> str:
    """A cell's source as IPython runs it (magics and shell escapes turned into calls)."""
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # plain Python: the source as it is
        return source
    try:
        return TransformerManager().transform_cell(source)
    except Exception:  # noqa: BLE001 - a cell IPython cannot read has no binding either
        return source


def bindings(sources) -> dict[str, str]:
    """{name: digest} of every function a list of cell sources binds at top level, the last
    binding of each name winning (as running the cells in order would)."""
    found: dict[str, str] = {}
    for source in sources:
        if not isinstance(source, str) or len(source) > MAX_SOURCE:
            continue
        try:
            tree = ast.parse(_transformed(source))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in tree.body:
            for name in _bound_names(node):
                if name not in found and len(found) >= MAX_NAMES:
                    continue
                value = getattr(node, "value", None)
                if isinstance(value, ast.Name) and value.id in found:
                    found[name] = found[value.id]  # `cosine = my_cosine`: the code of my_cosine
                    continue
                try:
                    found[name] = _digest(ast.dump(node, include_attributes=False))
                except (RecursionError, MemoryError):
                    continue
    return found


def _bound_names(node) -> list[str]:
    """Names a top-level statement binds: `def f`, `f = lambda ...`, `f = g`, `x: int = 3`."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
        return [node.target.id]
    return []


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def history_digest(namespace: dict, name: str) -> str:
    """The digest of `name`'s binding among the cells a notebook's kernel has run (IPython's
    input history, `In`), or "" outside IPython."""
    history = namespace.get("In")
    if not isinstance(history, list):
        history = namespace.get("_ih")
    if not isinstance(history, list):
        return ""
    return bindings(history).get(name, "")


def rng_for(lesson: str, question: str, digest: str, seed: int | None = None) -> np.random.Generator:
    """The generator of one function question's random inputs: a pure function of the lesson,
    the question, the function's code (its digest) and, when the instructor gives one, a seed."""
    text = "\0".join(["embedlab-cases", lesson, question, digest or "", "" if seed is None else str(int(seed))])
    return np.random.default_rng(int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big"))
