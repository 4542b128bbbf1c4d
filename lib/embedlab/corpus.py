"""A tiny generated corpus where animals and vehicles live in different sentences.

Lessons 09 and 10 train a small next-token model on it. The grammar is built so
that the interesting facts are known in advance, not guessed:

* animal words and vehicle words appear in different contexts ("the cat eats the
  hay ." against "the bus stops on the road ."), so a model that learns from
  contexts should put the two groups in different places;
* some vocabulary entries never occur at all: reserved ids (like the reserved
  special tokens of real tokenizers) and a made-up "glitch word", a string a
  tokenizer might have learned from other data (a username, say) that this
  model's training text never contains;
* a few words are rare: they occur in an exact, small number of sentences.

Everything is decided by one seed, so the same seed gives the same corpus.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

END = "<|endoftext|>"  # separates sentences, as GPT-2's end-of-text token does
GLITCH_WORD = "ZorbloxFan99"  # made up: in the vocabulary, never in the text
N_RESERVED = 8  # default number of reserved ids


def reserved_names(n: int) -> tuple[str, ...]:
    return tuple(f"<|reserved_{i}|>" for i in range(n))


RESERVED = reserved_names(N_RESERVED)

ANIMALS = ("cat", "dog", "horse", "cow", "sheep", "goat", "rabbit", "mouse")
VEHICLES = ("car", "bus", "truck", "van", "taxi", "tractor", "train", "bike")
RARE_ANIMAL = "ferret"
RARE_VEHICLE = "tram"

# words that go with one group only
ANIMAL_VERBS = ("eats", "chews", "sniffs", "licks", "likes")
ANIMAL_FOOD = ("hay", "grass", "seeds", "carrots", "apples")
ANIMAL_PLACES = ("barn", "field", "stable", "meadow")
ANIMAL_ADJECTIVES = ("young", "brown", "fluffy")
VEHICLE_VERBS = ("drives", "stops", "turns", "brakes", "speeds")
VEHICLE_ROADS = ("road", "street", "highway", "bridge")
VEHICLE_PLACES = ("garage", "depot", "lot")
VEHICLE_ADJECTIVES = ("red", "blue", "fast")
# words both groups use
SHARED_ADJECTIVES = ("big", "small", "little")
FUNCTION_WORDS = ("the", "a", ".", "on", "in", "is", "parked", "sleeps", "waits", "near", "and")


def _vocabulary(n_reserved: int = N_RESERVED) -> tuple[str, ...]:
    words = [END]
    words += ANIMALS + (RARE_ANIMAL,) + VEHICLES + (RARE_VEHICLE,)
    words += ANIMAL_VERBS + ANIMAL_FOOD + ANIMAL_PLACES + ANIMAL_ADJECTIVES
    words += VEHICLE_VERBS + VEHICLE_ROADS + VEHICLE_PLACES + VEHICLE_ADJECTIVES
    words += SHARED_ADJECTIVES + FUNCTION_WORDS
    words += (GLITCH_WORD,)
    words += reserved_names(n_reserved)  # at the end, like padded or reserved rows of real vocabularies
    assert len(set(words)) == len(words), "duplicate word in the vocabulary"
    return tuple(words)


VOCAB = _vocabulary()


def _noun_phrase(rng, noun, adjectives) -> list[str]:
    """'the cat', 'a small cat', 'the fluffy cat' ..."""
    words = [("the", "a")[rng.integers(2)]]
    if rng.random() < 0.5:
        words.append(adjectives[rng.integers(len(adjectives))])
    return words + [noun]


def _pick(rng, options):
    return options[rng.integers(len(options))]


def _animal_sentence(rng, noun) -> list[str]:
    adjectives = ANIMAL_ADJECTIVES + SHARED_ADJECTIVES
    subject = _noun_phrase(rng, noun, adjectives)
    kind = rng.integers(3)
    if kind == 0:
        return subject + [_pick(rng, ANIMAL_VERBS), "the", _pick(rng, ANIMAL_FOOD), "."]
    if kind == 1:
        return subject + ["sleeps", "in", "the", _pick(rng, ANIMAL_PLACES), "."]
    return subject + ["waits", "near", "the", _pick(rng, ANIMAL_PLACES), "and", _pick(rng, ANIMAL_VERBS), "the", _pick(rng, ANIMAL_FOOD), "."]


def _vehicle_sentence(rng, noun) -> list[str]:
    adjectives = VEHICLE_ADJECTIVES + SHARED_ADJECTIVES
    subject = _noun_phrase(rng, noun, adjectives)
    kind = rng.integers(3)
    if kind == 0:
        return subject + [_pick(rng, VEHICLE_VERBS), "on", "the", _pick(rng, VEHICLE_ROADS), "."]
    if kind == 1:
        return subject + ["is", "parked", "in", "the", _pick(rng, VEHICLE_PLACES), "."]
    return subject + ["waits", "near", "the", _pick(rng, VEHICLE_PLACES), "and", _pick(rng, VEHICLE_VERBS), "on", "the", _pick(rng, VEHICLE_ROADS), "."]


@dataclass(frozen=True)
class Corpus:
    """Sentences as lists of token ids, plus the vocabulary and what we know about it."""

    vocab: tuple[str, ...]
    sentences: tuple[tuple[int, ...], ...]
    seed: int
    groups: dict = field(default_factory=dict)

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def id_of(self, word: str) -> int:
        try:
            return self.vocab.index(word)
        except ValueError:
            raise ValueError(f"word is not in the vocabulary, got word={word!r}") from None

    def ids(self, words) -> np.ndarray:
        return np.array([self.id_of(w) for w in words], dtype=np.int64)

    def text(self, sentence_index: int) -> str:
        return " ".join(self.vocab[i] for i in self.sentences[sentence_index])

    def stream(self) -> np.ndarray:
        """All sentences in one token stream, each one preceded by the end-of-text token."""
        end = self.id_of(END)
        out = []
        for sentence in self.sentences:
            out.append(end)
            out.extend(sentence)
        out.append(end)
        return np.array(out, dtype=np.int64)

    def counts(self) -> np.ndarray:
        """How many times each vocabulary id occurs in the stream (length V)."""
        return np.bincount(self.stream(), minlength=self.vocab_size)

    def training_pairs(self, context: int = 2) -> tuple[np.ndarray, np.ndarray]:
        """(contexts, targets): the `context` tokens before each position, and the token there.

        The stream is padded on the left with end-of-text tokens, so the first word
        of the corpus is predicted from (end, end) when context = 2.
        """
        if context not in (1, 2):
            raise ValueError(f"context must be 1 or 2, got context={context!r}")
        stream = self.stream()
        padded = np.concatenate([np.full(context - 1, stream[0]), stream])
        n = len(stream) - 1
        contexts = np.stack([padded[i : i + n] for i in range(context)], axis=1)
        targets = stream[1:]
        return contexts, targets


def make_corpus(n_sentences: int = 3000, seed: int = 0, rare_counts: dict | None = None, n_reserved: int = N_RESERVED) -> Corpus:
    """Generate `n_sentences` sentences, half about animals and half about vehicles (in random order).

    `rare_counts` says in exactly how many sentences each rare word is the subject
    (default: 'ferret' in 3, 'tram' in 1). Reserved ids (`n_reserved` of them, at
    the end of the vocabulary) and the glitch word never occur.
    """
    if not isinstance(n_reserved, (int, np.integer)) or isinstance(n_reserved, bool) or n_reserved < 0:
        raise ValueError(f"n_reserved must be a non-negative integer, got n_reserved={n_reserved!r}")
    if not isinstance(n_sentences, (int, np.integer)) or isinstance(n_sentences, bool) or n_sentences < 10:
        raise ValueError(f"n_sentences must be an integer >= 10, got n_sentences={n_sentences!r}")
    if rare_counts is None:
        rare_counts = {RARE_ANIMAL: 3, RARE_VEHICLE: 1}
    for word, count in rare_counts.items():
        if word not in (RARE_ANIMAL, RARE_VEHICLE):
            raise ValueError(f"rare_counts may only name {RARE_ANIMAL!r} or {RARE_VEHICLE!r}, got word={word!r}")
        if not isinstance(count, (int, np.integer)) or count < 0 or count > n_sentences // 10:
            raise ValueError(f"rare_counts[{word!r}] must be an integer from 0 to n_sentences // 10, got {count!r}")
    rng = np.random.default_rng(seed)
    sentences = []
    for k in range(n_sentences):
        if k % 2 == 0:
            sentences.append(_animal_sentence(rng, _pick(rng, ANIMALS)))
        else:
            sentences.append(_vehicle_sentence(rng, _pick(rng, VEHICLES)))
    # rare words: replace the subject of a few sentences of their own group
    animal_slots = np.arange(0, n_sentences, 2)
    vehicle_slots = np.arange(1, n_sentences, 2)
    for word, slots, group in ((RARE_ANIMAL, animal_slots, ANIMALS), (RARE_VEHICLE, vehicle_slots, VEHICLES)):
        chosen = rng.choice(slots, size=rare_counts.get(word, 0), replace=False)
        for s in chosen:
            sentences[s] = [word if w in group else w for w in sentences[s]]
    order = rng.permutation(n_sentences)
    sentences = [sentences[i] for i in order]

    vocab = _vocabulary(n_reserved)
    index = {w: i for i, w in enumerate(vocab)}
    ids = tuple(tuple(index[w] for w in s) for s in sentences)
    groups = {
        "animals": tuple(index[w] for w in ANIMALS),
        "vehicles": tuple(index[w] for w in VEHICLES),
        "rare": tuple(index[w] for w in (RARE_ANIMAL, RARE_VEHICLE)),
        "reserved": tuple(index[w] for w in reserved_names(n_reserved)),
        "glitch": (index[GLITCH_WORD],),
    }
    counts = Counter(i for s in ids for i in s)
    groups["never"] = tuple(i for i in range(len(vocab)) if counts[i] == 0 and vocab[i] != END)
    return Corpus(vocab=vocab, sentences=ids, seed=int(seed), groups=groups)
