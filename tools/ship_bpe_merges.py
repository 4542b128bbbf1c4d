"""Write lib/embedlab/data/shipped/bpe-merges.json: the BPE trainings lesson 08 makes, trained here.

    python tools/ship_bpe_merges.py

train_bpe reads a shipped training (by its word counts and V) instead of training again,
which keeps lesson 08 within a few seconds; tests/test_bpe.py retrains each one and
compares the merges, so the file can never say something a fresh training would not.
"""

import json

from embedlab import bpe
from embedlab.bpe import SHIPPED_MERGES, add_counts, training_key, word_counts

# lesson 08, section 4: the 2,000 most frequent words of five languages, up to V = 8,000
TRAININGS = [{"languages": ["en", "hi", "bn", "ta", "ur"], "n_words": 2000, "vocab_size": 8000}]


def counts_of(training: dict) -> dict:
    return add_counts(*(word_counts(lang, training["n_words"]) for lang in training["languages"]))


def build() -> dict:
    bpe.use_shipped_merges = False
    trainings = {}
    for training in TRAININGS:
        counts = counts_of(training)
        merges = bpe.train_bpe(counts, training["vocab_size"]).merges
        trainings[training_key(counts, training["vocab_size"])] = {"training": training,
                                                                   "merges": [list(p) for p in merges]}
    return {"about": "train_bpe merges for the trainings lesson 08 makes; written by tools/ship_bpe_merges.py, "
                     "checked against a fresh training by tests/test_bpe.py", "trainings": trainings}


if __name__ == "__main__":
    SHIPPED_MERGES.write_text(json.dumps(build()) + "\n", encoding="utf-8")
    print(f"wrote {SHIPPED_MERGES}")
