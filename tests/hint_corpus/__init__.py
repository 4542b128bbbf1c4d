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
