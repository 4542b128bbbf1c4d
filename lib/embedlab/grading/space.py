"""A lesson's variant space, as its question module declares it (``SPACE``).

The question modules (questions/lNN.py) import this, and nothing of the grader: how
a variant is drawn from the space, kept apart from the others and handed out is
embedlab.grading.variants, which loads the question modules by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

FRESH_INPUTS = "a function, checked on the question's own inputs (fixed ones for the usual bugs, then random ones)"  # why a function cannot vary


@dataclass
class Space:
    """A lesson's variant space.

    defaults  the parameters of variant 0 (the book's), in the parameters cell's order
    draw      (rng, pick) -> one class variant's parameters (the pools and ranges live here);
              pick(name, pool) is this variant's item of a pool, distinct across variants
    problems  parameters -> what makes that variant unusable (a degenerate case, an answer
              equal to variant 0's); [] when it is fine. Applied to every drawn variant.
    fixed     question names that cannot vary, with the reason (e.g. a function checked on
              fresh random inputs): the others must differ from variant 0 in every variant
    describe  the pools and ranges in words (for the instructor's guide)
    look_draw (rng, pick) -> the parameters of a second look (embedlab.grading.elsewhere runs every
              answer cell again on them), where the class pools are narrower than what the solution's
              cells compute right: a pool kept free of a feature so every variant asks the same question
              (no learned position table) also hides a method that forgets that feature; a look, never
              anyone's variant, may have it. None: looks are drawn as variants are.
    """

    defaults: dict
    draw: Callable[[np.random.Generator, Callable], dict]
    problems: Callable[[dict], list] = lambda p: []
    fixed: dict = field(default_factory=dict)
    describe: str = ""
    look_draw: Callable[[np.random.Generator, Callable], dict] | None = None

    def names(self) -> list[str]:
        return list(self.defaults)


def equal_to_book(mine: dict, book: dict, skip=(), rtol: float = 1e-9) -> list[str]:
    """The problems `problems(params)` reports for answers equal to the book's (variant 0's):
    a class variant must change every answer that can vary. Numbers and arrays compare to
    `rtol` (1 part in 10**9, as an exact question is judged; 1e-6 for one judged to 6
    significant figures): an answer the check would accept as the book's. Strings exactly."""
    out = []
    for name, value in mine.items():
        if name in skip:
            continue
        other = book[name]
        if isinstance(value, str) or isinstance(other, str):
            same = value == other
        else:
            same = np.shape(value) == np.shape(other) and bool(np.allclose(value, other, rtol=rtol, atol=0))
        if same:
            out.append(f"{name} equals the book's")
    return out
