"""Write lib/embedlab/data/shipped/tinylm-runs.json: the training runs lessons 09, 10 and 12 make, trained here.

    python tools/ship_tinylm_runs.py

Each run is given by its corpus (make_corpus's arguments) and train_tinylm's settings.
train_tinylm reads a shipped run instead of training it again, which keeps the lessons
within a few seconds; tests/test_tinylm.py retrains every shipped run and compares it, so
the file can never say something a fresh run would not: bit for bit where numpy and its
SIMD kernels are the ones recorded in the file's `made_with` (embedlab.numerics), within
numerics.RUN_TOLERANCE on any other CPU or numpy. Add a run here when a
lesson trains a new one without an on_step hook, and run this script again.
"""

import json

from embedlab import make_corpus
from embedlab import tinylm
from embedlab.numerics import fingerprint
from embedlab.tinylm import SHIPPED_RUNS, encode_array, run_key

DEFAULTS = dict(d=16, context=2, tied=False, optimizer="adam", lr=1e-2, weight_decay=0.0, steps=2000,
                batch_size=256, seed=0, init_std=0.1)
RUNS = [
    # lesson 09, section 7: the seeds besides 0 (seed 0 is the run section 3 times)
    *[({"n_sentences": 3000, "seed": 0}, dict(tied=False, steps=1000, batch_size=128, seed=s)) for s in (1, 2, 3, 4)],
    # lesson 10: weight decay, SGD, tied, and tied with 32 reserved ids (section 6)
    ({"n_sentences": 3000, "seed": 0}, dict(tied=False, optimizer="adam", lr=1e-2, weight_decay=0.1, steps=1000,
                                            batch_size=128, seed=0)),
    ({"n_sentences": 3000, "seed": 0}, dict(tied=False, optimizer="sgd", lr=1.0, steps=1000, batch_size=128, seed=0)),
    ({"n_sentences": 3000, "seed": 0}, dict(tied=True, optimizer="adam", lr=1e-2, steps=1000, batch_size=128, seed=0)),
    ({"n_sentences": 3000, "seed": 0, "n_reserved": 32}, dict(tied=True, steps=1000, batch_size=128, seed=0)),
    # lesson 12, section 1: three seeds, untied and tied (exercise 12's book run is the untied seed 0)
    *[({"n_sentences": 3000, "seed": 0}, dict(tied=t, steps=400, batch_size=64, seed=s))
      for t in (False, True) for s in (0, 1, 2)],
]


def build() -> dict:
    tinylm.use_shipped_runs = False
    runs = []
    for corpus_args, given in RUNS:
        corpus = make_corpus(**corpus_args)
        settings = DEFAULTS | given
        run = tinylm.train_tinylm(corpus, **settings)
        contexts, targets = corpus.training_pairs(settings["context"])
        runs.append({"key": run_key(contexts, targets, corpus.vocab_size, settings), "corpus": corpus_args,
                     "settings": settings, "params": {k: encode_array(v) for k, v in run.model.params.items()},
                     "losses": encode_array(run.losses)})
    return {"about": "train_tinylm results for the runs lessons 09, 10 and 12 make; written by "
                     "tools/ship_tinylm_runs.py, checked by tests/test_tinylm.py: bit for bit with the "
                     "numpy and SIMD kernels of made_with, within embedlab.numerics.RUN_TOLERANCE elsewhere",
            "made_with": fingerprint(), "runs": runs}


if __name__ == "__main__":
    SHIPPED_RUNS.write_text(json.dumps(build(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {SHIPPED_RUNS}")
