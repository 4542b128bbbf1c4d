"""A notebook's `parameters` cell read as `name = literal` lines (Python's ast, nothing run).

Its own module, apart from embedlab.grading.variants (which draws the variants and needs numpy and
the lessons' questions), so that the sandbox's worker reads a submission's parameters cell without
importing them: each submission's worker is a fresh process, and those imports cost it about a sixth
of its CPU. embedlab.grading.variants gives the same names.
"""

from __future__ import annotations

import ast

PARAMETERS_TAG = "parameters"


class VariantError(ValueError):
    """A lesson's variant space, or a notebook's parameters cell, is not usable."""


def read_parameters(source: str) -> dict:
    """{name: value} of a parameters cell; VariantError if it holds anything but `name = literal`."""
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise VariantError(f"the parameters cell is not valid Python ({exc.msg}, line {exc.lineno})") from None
    out = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            raise VariantError(f"the parameters cell may hold only `name = literal` lines (line {node.lineno})")
        try:
            out[node.targets[0].id] = ast.literal_eval(node.value)
        except ValueError:
            raise VariantError(f"the parameters cell's {node.targets[0].id} is not a literal (line {node.lineno})") \
                from None
    return out
