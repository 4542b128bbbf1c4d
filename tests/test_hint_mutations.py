"""A sample of systematic mutants of the solutions (tests/hint_mutants.py), judged by the notebook's check: no
hint may be garbled (a placeholder, an empty slot, a doubled word: text.hint_problems), and none may blame a
construct of the code the mutation did not touch (hint_mutants.contradicting: the construct reads the same in the
mutant as in the right solution, so its counterfactual fails). benchmarks/hint_mutations.py prints the figures
on every mutant; here one mutant of each kind per lesson, drawn with a fixed seed.
"""

from __future__ import annotations

import ast

import pytest

import hint_mutants

SAMPLE = {lesson: hint_mutants.sample(hint_mutants.mutants(lesson), per_kind=1, seed=46)
          for lesson in hint_mutants.lessons()}


@pytest.mark.parametrize("lesson", [l for l in SAMPLE if SAMPLE[l]])
def test_no_sampled_mutant_gets_a_garbled_or_contradicted_hint(lesson):
    bad = []
    for m in SAMPLE[lesson]:
        r = hint_mutants.judge(m)
        if r["garbled"] or r["contradicting"] or r["class"] in ("accepted", "error"):
            bad.append((m.name, m.kind, m.where, r["class"], r["garbled"], r["contradicting"], r["detail"][:300]))
    assert not bad, "\n".join(map(str, bad))


def test_the_mutants_are_what_they_say():
    """Each mutant parses, differs from the solution in one place, and the sample holds every kind the lessons'
    cells allow; the contradiction reader sees a construct the mutation left alone, and not one it changed."""
    all_kinds = set()
    for lesson, items in SAMPLE.items():
        for m in items:
            ast.parse(m.source)
            all_kinds.add(m.kind)
    assert {"binop", "floordiv", "const", "drop_term", "swap_names", "axis", "round_early", "transpose",
            "arg_const"} <= all_kinds, all_kinds
    m = hint_mutants.Mutant("x", "y", "const", "2 -> 3", "y = a // b + 3\n",
                            hint_mutants._signatures("y = a // b + 2\n", "y = a // b + 3\n"))
    assert hint_mutants.contradicting(m, "your code divides with `//`, which rounds down") == ["floor"]
    m = hint_mutants.Mutant("x", "y", "floordiv", "/ -> //", "y = a // b + 2\n",
                            hint_mutants._signatures("y = a / b + 2\n", "y = a // b + 2\n"))
    assert hint_mutants.contradicting(m, "your code divides with `//`, which rounds down") == []
    # an argument given a new value before any read is never read, however often the name is read after
    right, overwritten = "def f(a, b):\n    return a * b\n", "def f(a, b):\n    a = 3\n    return a * b\n"
    m = hint_mutants.Mutant("f", "f", "arg_const", "a -> 3", overwritten,
                            hint_mutants._signatures(right, overwritten))
    assert hint_mutants.contradicting(m, "your function never reads its argument `a`") == []
