"""How long does one TinyLM training run take? (lessons 09 and 10 train several)

    .venv/bin/python benchmarks/train_tinylm.py

Prints the best of three wall-clock times for the settings the lessons use and for
the prototype's (2,000 steps of batch 256), and the time per step. Figures depend
on the machine and on its load; nothing here is asserted.
"""

import time

import numpy as np

from embedlab.corpus import make_corpus
from embedlab.timing import best_time, blas_threads
from embedlab.tinylm import train_tinylm


def main():
    corpus = make_corpus(3000, seed=0)
    print(f"V = {corpus.vocab_size}, training pairs = {len(corpus.training_pairs(2)[1]):,}, "
          f"numpy {np.__version__}, BLAS threads = {blas_threads()}")
    t = best_time(lambda: make_corpus(3000, seed=0), repeat=3)
    print(f"make_corpus(3000): {t * 1e3:.0f} ms")
    for label, kwargs in (
        ("lessons: 1,000 steps x batch 128", dict(steps=1000, batch_size=128)),
        ("prototype: 2,000 steps x batch 256", dict(steps=2000, batch_size=256)),
    ):
        for tied in (False, True):
            for optimizer, lr in (("adam", 1e-2), ("sgd", 1.0)):
                if optimizer == "sgd" and tied:
                    continue
                t = best_time(lambda: train_tinylm(corpus, tied=tied, optimizer=optimizer, lr=lr, seed=0, **kwargs), repeat=3)
                per_step = t / kwargs["steps"] * 1e6
                print(f"{label:36s} tied={tied!s:5s} {optimizer:4s}: {t:6.2f} s  ({per_step:5.0f} us/step)")
    try:
        load = open("/proc/loadavg").read().split()[0]
    except OSError:
        load = "unknown"
    print(f"(run at {time.strftime('%Y-%m-%d %H:%M:%S')}; 1-minute load average {load})")


if __name__ == "__main__":
    main()
