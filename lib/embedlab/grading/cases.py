"""Which inputs a function question is tested on: the same in the notebook and in the grader.

A function answer (``def cosine(a, b): ...``) is called on a list of inputs,
some fixed and some random (each question's ``cases(rng)``). Where the random
ones come from decides three things an instructor must be able to defend:

* **One verdict for one answer.** The inputs depend on the question and, with
  ``--seed N``, on N: never on the answer's text. Two learners who wrote the same
  function under other names, spacing or comments are tested on the same inputs
  and get the same grade; a regrade gives the same grade; nothing else in the
  folder (other files, their order, ``-j``, the time of day) counts.
* **The notebook and the grader agree.** A learner whose check printed ✅ on an
  untampered notebook gets the question right from the grader (in its default
  mode), and ❌ stays ❌: both call the function on the same inputs.
* **A bug fails on every seed.** Each question's fixed inputs come first and are
  chosen for the kinds of bug its function invites (the edges of its domain: the
  largest ids, the longest and shortest inputs, repeats, empty or single elements,
  sizes past 2**31, dtype extremes); its module says which bug each one is there
  for. The random ones add breadth; ``--seed N`` draws others, and a function
  wrong on the fixed ones is wrong whatever N is (tests/test_function_cases.py).

The default inputs are the same for every learner, so a learner could hard-code
the outputs of the calls a check shows; an instructor who fears that grades with
``--seed N`` (random inputs no notebook has seen, the fixed ones unchanged).
"""

from __future__ import annotations

import hashlib

import numpy as np


def rng_for(lesson: str, question: str, seed: int | None = None) -> np.random.Generator:
    """The generator of one function question's random inputs: a pure function of the lesson,
    the question and, when the instructor gives one, a seed (never of the answer's code)."""
    text = "\0".join(["embedlab-cases", lesson, question, "" if seed is None else str(int(seed))])
    return np.random.default_rng(int.from_bytes(hashlib.sha256(text.encode()).digest()[:16], "big"))
