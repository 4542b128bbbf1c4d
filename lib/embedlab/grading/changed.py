"""A parameter the question reads that holds another value than the one handed out.

A learner may edit the parameters cell (or set a parameter again in a cell of their
own) and compute correctly from the new value. Judged against the handed-out values
(self-study: the book's; a class handout: the learner's variant), the answer is
wrong, and a hint built on the handed-out values blames slips nobody made. So before
any story the hint says which parameter holds what, what was handed out, and whether
the answer is right for the value it holds (the solution's cells run again on the
learner's own parameters: elsewhere.world_for).

One mechanism for every lesson and both checks: `report` runs in the learner's kernel
(the notebook's check, and the grader's probe, embedlab.grading.wire, whose entry
carries it under CHANGED), and `hint` words it from that plain data wherever it is
judged, so that the check and the grader say the same words.
"""

from __future__ import annotations

import ast

CHANGED = "changed_parameters"  # beside DATA in a probe entry: the report below
PARAMETERS = "__parameters__"  # the grader's `given` entry: the parameters handed out
# the grader cuts a hint at 300 characters (judge.score): the words fit whole, as the
# check says them
HINT_CHARS = 290


def _parameters_cell(prefix) -> str | None:
    try:
        cells, _ = prefix
        found = [str(c[0]) for c in cells if c[1]]
    except (TypeError, ValueError):
        return None
    return found[0] if len(found) == 1 else None


def handed_parameters(lesson: str, prefix=None) -> dict | None:
    """The book's parameters (the solution's parameters cell), or None where they
    cannot be read."""
    from embedlab.grading import code
    from embedlab.grading.parameters import VariantError, read_parameters

    try:
        cells = prefix if prefix is not None else code.solution_prefix(lesson)
        source = _parameters_cell(cells)
        return read_parameters(source) if source is not None else None
    except (VariantError, OSError, LookupError, TypeError, ValueError):
        return None


def _set_again(prefix, solutions) -> frozenset:
    """The names the solution's own cells set (besides the parameters cell): a
    parameter set again there (lesson 01's `table`) legitimately holds another value
    than the one handed out."""
    from embedlab.grading.elsewhere import _cell_sets

    out = set()
    try:
        sources = [str(c[0]) for c in prefix[0] if not c[1]]
        sources += [str(s) for s in solutions]
    except (TypeError, IndexError):
        return frozenset()
    for source in sources:
        try:
            out |= _cell_sets(ast.parse(source))
        except (SyntaxError, ValueError, RecursionError):
            continue
    return frozenset(out)


def report(question, namespace: dict, lesson: str, handed: dict | None, prefix=None,
           solution: str | None = None, foreign=None, solutions=None,
           source=None) -> dict | None:
    """{"changed": [[name, its value's words, the handed-out value's words]], "want":
    the solution's answer on the learner's own parameters (plain data, where it can be
    computed)} for the parameters the question's answer reads (all but `foreign`) that
    hold another value than `handed`; None when none does, and for one the answer cell
    (`source`) sets itself (its own hint says so). Runs in the learner's kernel; never
    raises (a KeyboardInterrupt goes through)."""
    from embedlab.grading import code
    from embedlab.grading.elsewhere import (LOOK_SECONDS, OutOfTime, _compiled, _costly,
                                            _NONE, _run, _seconds, _value_words,
                                            world_for)
    from embedlab.grading.kinds import Function
    from embedlab.grading.variants import _same_value

    if isinstance(question, Function) or getattr(question, "kind", "") == "written" \
            or not isinstance(handed, dict):
        return None
    try:
        if prefix is None:
            prefix = code.solution_prefix(lesson)
        if solution is None:
            solution = code.solution_cells(lesson).get(question.name)
        if foreign is None:
            foreign = code.foreign_inputs(lesson).get(question.name, ())
        if solutions is None:
            solutions = list(code.solution_cells(lesson).values())
        again = _set_again(prefix, solutions)
        if source is None:
            source = code.answer_source(question.name, namespace)
        if isinstance(source, str):
            again |= _set_again(((), {}), [source])
        changed = [n for n in sorted(handed)
                   if n in namespace and n not in set(foreign) and n not in again
                   and not _same_value(namespace[n], handed[n])]
        if not changed:
            return None
        out = {"changed": [[n, _value_words(namespace[n]), _value_words(handed[n])]
                           for n in changed]}
        sol = _compiled(solution) if isinstance(solution, str) and solution else None
        if sol is None or _costly(solution, namespace):
            return out
        world = world_for(lesson, question.name, namespace, {}, prefix)
        if world is None:
            return out
        inputs = {n: world[0][n] for n in world[1] if n in sol[1]}
        try:
            with _seconds(LOOK_SECONDS):
                expected = _run(sol[0], question.name, namespace, inputs, sol[1],
                                bound=False)
        except (Exception, SystemExit, OutOfTime):  # noqa: BLE001 - cannot run there
            return out
        if expected is not _NONE:
            out["want"] = question.to_data(expected)
        return out
    except Exception:  # noqa: BLE001 - the check never stops the notebook
        return None


def _listed(pairs) -> str:
    words = [f"`{n}`" + ("" if v is None else f" = {v}") for n, v in pairs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def hint(question, found, data) -> str | None:
    """The words for a wrong answer whose question reads a parameter changed from the
    value handed out (`found`: `report`'s plain data, as the kernel sent it), or None.
    `data`: the answer as plain data."""
    from embedlab.grading.kinds import expected_value
    from embedlab.grading.status import CORRECT
    from embedlab.grading.text import cut

    if not isinstance(found, dict) or not isinstance(found.get("changed"), list):
        return None
    rows = [r for r in found["changed"] if isinstance(r, list) and len(r) == 3
            and all(isinstance(x, str) for x in r)]
    if not rows or len(rows) != len(found["changed"]):
        return None
    rows = [[cut(x, 60) for x in r] for r in rows[:4]]  # the kernel's words, held short
    right = None
    if "want" in found:
        try:
            want = expected_value(question, found["want"])
            right = question.judge(data, want).status == CORRECT
        except Exception:  # noqa: BLE001 - malformed data from the kernel: not known
            right = None
    one = len(rows) == 1
    it, value, ones = ("it", "that value", "one") if one else \
        ("them", "those values", "ones")
    yours = _listed((n, v) for n, v, _ in rows)
    handed = _listed((n, h) for n, _, h in rows)
    names = _listed((n, None) for n, _, _ in rows)
    words = ""
    for said in (f"your notebook holds {yours}, not the {handed} handed out",
                 f"your notebook holds {yours}, not the {'value' if one else 'values'} "
                 "handed out",
                 f"your notebook holds {'another value' if one else 'other values'} of "
                 f"{names} than {'the one' if one else 'those'} handed out"):
        said += " (changed in its cell or in one of yours)"
        back = f"put {it} back, and run the cells below the parameters cell again"
        if right:
            words = (f"{said}: your answer is right for {value}, but the question asks "
                     f"for the handed-out {ones}: {back}")
        elif right is False:
            words = (f"{said}: your answer is not right for {value} either: {back}, "
                     "then check your answer")
        else:
            words = f"{said}: the question asks for the handed-out {ones}: {back}"
        if len(words) <= HINT_CHARS:
            return words
    return words
