"""Measure a blind corpus's COINCIDENCES: methods wrong in general that give the right value on the book's
inputs. Does the notebook's check refuse them, and does its hint name the real mistake?

    cd tests && ../.venv/bin/python -m hint_corpus.coincidences heldout7 [--show] [--entries]

Each entry runs as check_wrong runs it (the solution's cells above, the exercise's own lines of the answer
cell, then the entry), first proven to give the solution's value there (check_wrong's judge says "CORRECT";
an entry it proves wrong is no coincidence and is reported), then judged by the notebook's check
(`Exercise.verdict`) with IPython's input history holding the answer cell, as
tests/test_hint_corpus_learners.py does it. Counts: refused (any status but correct) against accepted, and
among the refused, the hint's words as tests/test_hint_corpus_learners.classify sorts them.
`--show` prints one line per entry; `--entries` prints the ordinary ENTRIES that the notebook's check does
not answer with a specific hint (for the corpus author's report: a blind corpus's entries are otherwise
never printed).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
from collections import Counter
from pathlib import Path

import test_hint_corpus_learners as T  # run from tests/ (`python -m`): that folder is on the path

from hint_corpus import check_wrong


def main(argv):
    file = next((a for a in argv if not a.startswith("-")), "heldout7")
    module = importlib.import_module(f"hint_corpus.{file}")
    kinds, not_coincident = Counter(), []
    for i, e in enumerate(getattr(module, "COINCIDENCES", [])):
        verdict, detail = check_wrong.judge(e)
        if verdict != "CORRECT":
            not_coincident.append((i, e, verdict, detail))
            continue
        with contextlib.redirect_stdout(io.StringIO()):
            status, hint = T.notebook_verdict(e)
        kind = T.classify(e, status, hint)
        kinds[kind] += 1
        if kind != "accepted":
            kinds["refused"] += 1
        if "--show" in argv:
            print(f"{file}.COINCIDENCES[{i}] {kind:14} {e.lesson} {e.name}: {e.mistake}\n"
                  f"    -> {status}: {hint[:300]!r}")
    n = sum(kinds[k] for k in ("refused", "accepted"))
    print(f"{file} COINCIDENCES: {n} judged; refused {kinds['refused']}, accepted {kinds['accepted']}; "
          "of the refused: " + ", ".join(f"{k} {kinds[k]}" for k in T.KINDS if k != "accepted"))
    for i, e, verdict, detail in not_coincident:
        print(f"  not a coincidence: COINCIDENCES[{i}] {e.lesson} {e.name} {verdict}: {detail[:120]}")
    if "--entries" in argv:
        for e, status, hint in T.notebook_results(file):
            kind = T.classify(e, status, hint)
            if kind != "specific":
                print(f"{file}.ENTRIES {kind:14} {e.lesson} {e.name}: {e.mistake}\n    -> {status}: {hint[:300]!r}")
    return 1 if not_coincident else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
