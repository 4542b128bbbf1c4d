"""A corpus of plausible wrong answers to the exercises, written as learners would err,
without reading the hint code (lib/embedlab/grading/): material to test the hints against.

`learners.ENTRIES` is the main corpus; `heldout.ENTRIES` was a held-out part, measured blind
(50 % specific) and then opened as training material (see its header); a new blind corpus is
the held-out measure. `check_wrong.py` runs every entry and proves it wrong for the
exercise as handed out (the book's parameters).

How an entry runs: the code cells of the lesson's *solution* notebook above the answer cell
of `name` run first (so earlier answers are the correct ones, as the brief allows), then the
exercise's own lines of that answer cell (the lines above `# YOUR CODE HERE`, e.g. the
reading of a config; none for a function question), then `source`, which defines `name`.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Wrong:
    lesson: str        # e.g. "03-counting-gpt2"
    name: str          # the answer variable / function the question asks for
    source: str        # the learner's code in the answer cell; it defines `name`
    mistake: str       # one sentence: what the learner did wrong, in plain words
    words: tuple       # a correct hint contains at least one of these (case-insensitive)
    wrong_words: tuple = ()  # a hint containing one of these blames a mistake not made


def calibrated(entries: list, table: dict, slots: tuple) -> list:
    """`entries` with the word lists of those `table` names recalibrated to an independent judge's verdicts (a
    corpus's CALIBRATED, added after the judge read the hints, never by the corpus's author). `table` maps
    (name, the mistake's first characters) to a tuple whose slots `slots` names, each a tuple of words:
    "drop_wrong" (wrong words a right hint uses), "add_wrong" (the false clause the judge found), "add"
    (the hint's own naming of the real mistake), "drop" (words a generic hint matched by chance)."""
    out = []
    for entry in entries:
        key = next((k for k in table if k[0] == entry.name and entry.mistake.startswith(k[1])), None)
        if key is None:
            out.append(entry)
            continue
        change = dict(zip(slots, table[key]))
        words = tuple(w for w in entry.words if w not in change.get("drop", ())) + tuple(change.get("add", ()))
        wrong = tuple(w for w in entry.wrong_words if w not in change.get("drop_wrong", ())) \
            + tuple(change.get("add_wrong", ()))
        out.append(Wrong(entry.lesson, entry.name, entry.source, entry.mistake, words, wrong))
    return out
