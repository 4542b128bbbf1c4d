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


# --------------------------------------------------------------------------
# Blind spots: fixed inputs too regular to tell a wrong method from the right one
#
# A function's fixed inputs must part the right method from each plausible wrong one on every seed.
# Some wrong methods are right on every input of a regular kind, whatever the values: ids written as
# text and merged with str.replace are right unless a pair's digits occur inside two neighbouring ids
# ("165 66" holds "65 66"); code that reads a table's rows for its columns is right on a square table;
# code that assumes sorted or distinct ids is right on sorted, distinct ones. `blind_spots` reads a
# question's fixed inputs (those every seed draws) and names each such regularity in them, argument by
# argument: an argument of ids (an integer array or list, a sequence of them, or text whose ids are its
# UTF-8 bytes: a dict of word counts) needs, in some fixed input, ids of several digits, one id whose
# decimal form ends or begins with another's, a repeated id and ids out of order; a 2-D float array
# needs a fixed input that is not square. An integer argument that counts or sizes things, not ids, is
# named in the question's `quantities`. tests/test_function_cases.py holds every function question to it.


def fixed_cases(question) -> list:
    """The inputs `question.cases` draws first on every seed: the common prefix of two seeds' draws."""
    from embedlab.grading.values import copy_args

    first = question.cases(np.random.default_rng(12345))
    second = question.cases(np.random.default_rng(67890))
    out = []
    for a, b in zip(first, second):
        if not _same_args(a, b):
            break
        out.append(copy_args(a))
    return out


def _same_args(a, b) -> bool:
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        try:
            if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
                if not (np.shape(x) == np.shape(y) and np.array_equal(np.asarray(x), np.asarray(y))):
                    return False
            elif x != y:
                return False
        except Exception:  # noqa: BLE001
            return False
    return True


def _id_sequences(value) -> list | None:
    """The id sequences an argument holds (None: not ids): an integer array or list (each row of a 2-D
    one, as a sequence), or text, whose ids are its UTF-8 bytes (a dict of word counts: each word)."""
    if isinstance(value, dict) and value and all(isinstance(k, str) for k in value):
        return [list(k.encode("utf-8")) for k in value]
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return [list(v.encode("utf-8")) for v in value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                                for v in value):
        return [[int(v) for v in value]]
    if isinstance(value, np.ndarray) and value.dtype.kind in "iu" and value.ndim >= 1:
        rows = value.reshape(-1, value.shape[-1]) if value.ndim > 1 else value[None, :]
        return [[int(v) for v in row] for row in rows]
    return None


def _overlapping(ids) -> bool:
    """Does one id's decimal form end or begin with another's (165 and 65, 1499 and 14)?"""
    texts = {str(i) for i in ids}
    return any(a != b and (b.endswith(a) or b.startswith(a)) for a in texts for b in texts)


def blind_spots(question) -> list[str]:
    """What the question's fixed inputs never show, argument by argument (see above): [] when none."""
    from embedlab.grading.function_hints import arg_names

    cases = fixed_cases(question)
    if not cases:
        return [f"{question.name}: no fixed inputs (every seed must test the same ones first)"]
    names = arg_names(question.reference, len(cases[0]))
    quantities = set(getattr(question, "quantities", ()))
    out = []
    for k, name in enumerate(names):
        values = [c[k] for c in cases if k < len(c)]
        seqs = [_id_sequences(v) for v in values]
        if name not in quantities and any(s is not None for s in seqs):
            per_case = [[list(seq) for seq in s] for s in seqs if s is not None]
            flat = [i for s in per_case for seq in s for i in seq]
            if not any(i >= 10 for i in flat):
                out.append(f"{question.name}: `{name}` never holds an id of two digits or more")
            if not any(_overlapping([i for seq in s for i in seq]) for s in per_case):
                out.append(f"{question.name}: `{name}` never holds two ids of which one's decimal form ends or "
                           f"begins with the other's (165 and 65): ids handled as text pass")
            if name not in set(getattr(question, "distinct", ())) and \
                    not any(len(set(i for seq in s for i in seq)) < sum(len(seq) for seq in s) for s in per_case):
                out.append(f"{question.name}: `{name}` never repeats an id")
            if not any(any(seq != sorted(seq) for seq in s) for s in per_case):
                out.append(f"{question.name}: `{name}` never holds ids out of order")
        matrices = [v for v in values if isinstance(v, np.ndarray) and v.dtype.kind == "f" and v.ndim == 2]
        if matrices and all(m.shape[0] == m.shape[1] for m in matrices):
            out.append(f"{question.name}: `{name}` is square in every fixed input (rows read for columns pass)")
    return out
