"""The hints on systematic mutants of the solutions: a measure of how far they generalise beyond the corpora.

    PYTHONPATH=tests .venv/bin/python benchmarks/hint_mutations.py                 # every lesson, every mutant
    PYTHONPATH=tests .venv/bin/python benchmarks/hint_mutations.py 03 07 --per-kind 4   # a sample, two lessons
    PYTHONPATH=tests .venv/bin/python benchmarks/hint_mutations.py --show contradicting # list those mutants

Each solution's answer cells are mutated one change at a time (tests/hint_mutants.py: a binary operator
swapped, / for //, a constant ±1, a term dropped, two names swapped, axis 0 for 1, a sort reversed, a value
rounded early, 10⁹ for 2³⁰, .T added or removed, a function's argument replaced by a constant), each mutant run
and judged by the notebook's own check (Exercise.verdict). Printed per lesson: mutants graded, those that raise
(no value to hint), those equal to the solution, those equal on the book's inputs only and refused on others
(coincidence), those accepted though they compute another value, specific and generic hints, hints that blame
a construct the mutation did not touch (contradicting) and garbled ones. Figures, not asserted: tests/test_hint_mutations.py holds a sample.
"""

import sys
import time
from collections import Counter, defaultdict

import hint_mutants  # tests/hint_mutants.py: run with PYTHONPATH=tests, as the lines above say

COLUMNS = ("graded", "raised", "equal", "coincidence", "accepted", "specific", "generic", "contradicting",
           "garbled")


def main(argv):
    import resource

    limit = 6 * 2**30  # a mutant that grows an array without bound raises MemoryError (counted as raised)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    per_kind = int(argv[argv.index("--per-kind") + 1]) if "--per-kind" in argv else None
    show = argv[argv.index("--show") + 1] if "--show" in argv else None
    skip = {argv[i + 1] for i, a in enumerate(argv) if a in ("--per-kind", "--show")}
    only = [a for a in argv if not a.startswith("--") and a not in skip]
    lessons = [l for l in hint_mutants.lessons() if not only or any(l.startswith(o) for o in only)]
    table, shown, by_kind = {}, [], defaultdict(Counter)
    start = time.perf_counter()
    for lesson in lessons:
        items = hint_mutants.mutants(lesson)
        if per_kind:
            items = hint_mutants.sample(items, per_kind)
        c = Counter()
        for m in items:
            r = hint_mutants.judge(m)
            c["graded"] += 1
            c[r["class"]] += 1
            by_kind[m.kind][r["class"]] += 1
            if r["contradicting"]:
                c["contradicting"] += 1
                by_kind[m.kind]["contradicting"] += 1
            if r["garbled"]:
                c["garbled"] += 1
            wanted = show and (show == r["class"] or (show == "contradicting" and r["contradicting"])
                               or (show == "garbled" and r["garbled"]))
            if wanted:
                shown.append((m, r))
        table[lesson] = c
        print(f"  {lesson:24} " + "  ".join(f"{k} {c[k]}" for k in COLUMNS), flush=True)
    total = sum(table.values(), Counter())
    print("all lessons:", "  ".join(f"{k} {total[k]}" for k in COLUMNS))
    hinted = total["specific"] + total["generic"]
    if hinted:
        print(f"specific {100 * total['specific'] / hinted:.1f} % of the wrong mutants hinted; contradicting "
              f"{total['contradicting']}, garbled {total['garbled']}, accepted {total['accepted']}")
    print("by kind:")
    for kind in hint_mutants.KINDS:
        c = by_kind[kind]
        print(f"  {kind:12} " + "  ".join(f"{k} {c[k]}" for k in COLUMNS[1:]))
    print(f"({time.perf_counter() - start:.0f} s)")
    for m, r in shown:
        print(f"\n[{m.lesson} {m.name} {m.kind}] {m.where}\n  {r['detail'][:400]}"
              + (f"\n  contradicting: {r['contradicting']}" if r["contradicting"] else "")
              + (f"\n  garbled: {r['garbled']}" if r["garbled"] else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
