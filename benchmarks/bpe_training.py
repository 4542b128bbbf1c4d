"""How long lesson 08's tokenizers take to train and measure, on this machine.

    .venv/bin/python benchmarks/bpe_training.py

Prints seconds (process CPU time, best of 3) for: loading the word counts,
training the all-languages and the English-only tokenizer, and measuring tokens
per word at 30 vocabulary sizes (with fresh, uncached tokenizers). The lesson
uses the same settings.
"""

import time

import numpy as np

from embedlab.bpe import BPE, add_counts, train_bpe, word_counts

LANGS = ["en", "hi", "bn", "ta", "ur"]
N_WORDS = 2000  # per language
MAX_VOCAB = 8000
SIZES = np.unique(np.geomspace(256, MAX_VOCAB, 30).astype(int))


def best_of(n, fn):
    best, out = float("inf"), None
    for _ in range(n):
        start = time.process_time()
        out = fn()
        best = min(best, time.process_time() - start)
    return best, out


def main():
    # the first call reads wordfreq's files; later ones hit wordfreq's own cache
    t_load, counts = best_of(1, lambda: {lang: word_counts(lang, N_WORDS) for lang in LANGS})
    everything = add_counts(*counts.values())
    english = counts["en"]  # the lesson's English-only tokenizer sees the English slice of the same data
    t_all, bpe_all = best_of(3, lambda: train_bpe(everything, MAX_VOCAB))
    t_en, bpe_en = best_of(3, lambda: train_bpe(english, MAX_VOCAB))
    # fresh tokenizers each time: a BPE caches the words it has encoded
    t_eval, _ = best_of(3, lambda: [BPE(b.merges).tokens_per_word(counts[lang], [s for s in SIZES if s <= b.vocab_size])
                                    for b in (bpe_all, bpe_en) for lang in LANGS])
    print(f"word types: all languages {len(everything):,}, English only {len(english):,}")
    print(f"load word counts, first call ({len(LANGS)} languages x {N_WORDS:,}): {t_load:.2f} s")
    print(f"train all languages to V={bpe_all.vocab_size:,}: {t_all:.2f} s")
    print(f"train English only to V={bpe_en.vocab_size:,}: {t_en:.2f} s")
    print(f"tokens per word, {len(SIZES)} sizes x {len(LANGS)} languages x 2 tokenizers: {t_eval:.2f} s")


if __name__ == "__main__":
    main()
