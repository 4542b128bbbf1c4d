"""The generated corpus: known never-occurring and rare words, separate contexts, same seed same text."""

import numpy as np
import pytest

from embedlab.corpus import (ANIMAL_VERBS, ANIMALS, END, GLITCH_WORD, RARE_ANIMAL, RARE_VEHICLE, RESERVED,
                             VEHICLE_VERBS, VEHICLES, make_corpus)


@pytest.fixture(scope="module")
def corpus():
    return make_corpus(3000, seed=0)


def test_vocabulary_size_and_groups(corpus):
    assert corpus.vocab_size == 74
    assert len(corpus.groups["animals"]) == len(corpus.groups["vehicles"]) == 8
    assert corpus.groups["never"] == corpus.groups["glitch"] + corpus.groups["reserved"]
    assert corpus.vocab[corpus.groups["glitch"][0]] == GLITCH_WORD
    assert [corpus.vocab[i] for i in corpus.groups["reserved"]] == list(RESERVED)


def test_never_and_rare_counts_are_exact(corpus):
    counts = corpus.counts()
    assert counts[list(corpus.groups["never"])].sum() == 0
    assert counts[corpus.id_of(RARE_ANIMAL)] == 3
    assert counts[corpus.id_of(RARE_VEHICLE)] == 1
    # every other word occurs often
    others = [i for i in range(corpus.vocab_size) if i not in corpus.groups["never"] + corpus.groups["rare"]]
    assert counts[others].min() > 50
    assert counts[corpus.id_of(END)] == len(corpus.sentences) + 1


def test_rare_counts_can_be_chosen():
    c = make_corpus(200, seed=1, rare_counts={RARE_ANIMAL: 7, RARE_VEHICLE: 0})
    counts = c.counts()
    assert counts[c.id_of(RARE_ANIMAL)] == 7
    assert counts[c.id_of(RARE_VEHICLE)] == 0
    assert c.id_of(RARE_VEHICLE) in c.groups["never"]


def test_animals_and_vehicles_live_in_different_sentences(corpus):
    animals = set(corpus.ids(ANIMALS + (RARE_ANIMAL,)))
    vehicles = set(corpus.ids(VEHICLES + (RARE_VEHICLE,)))
    animal_verbs, vehicle_verbs = set(corpus.ids(ANIMAL_VERBS)), set(corpus.ids(VEHICLE_VERBS))
    n_animal = 0
    for sentence in corpus.sentences:
        s = set(sentence)
        has_animal, has_vehicle = bool(s & animals), bool(s & vehicles)
        assert has_animal != has_vehicle  # exactly one of the two
        if has_animal:
            n_animal += 1
            assert not s & vehicle_verbs
        else:
            assert not s & animal_verbs
    assert n_animal == len(corpus.sentences) // 2


def test_same_seed_same_corpus_other_seed_other_corpus():
    a, b, c = make_corpus(300, seed=5), make_corpus(300, seed=5), make_corpus(300, seed=6)
    assert a.sentences == b.sentences
    assert a.sentences != c.sentences


def test_training_pairs_line_up_with_the_stream(corpus):
    stream = corpus.stream()
    for context in (1, 2):
        x, y = corpus.training_pairs(context)
        assert x.shape == (len(stream) - 1, context) and y.shape == (len(stream) - 1,)
        np.testing.assert_array_equal(y, stream[1:])
        np.testing.assert_array_equal(x[:, -1], stream[:-1])  # the token just before
    x, _ = corpus.training_pairs(2)
    np.testing.assert_array_equal(x[1:, 0], stream[:-2])
    assert x[0, 0] == corpus.id_of(END)  # left padding


def test_text_and_ids_round_trip(corpus):
    words = corpus.text(0).split(" ")
    assert tuple(corpus.ids(words)) == corpus.sentences[0]


@pytest.mark.parametrize("kwargs, field", [
    (dict(n_sentences=5), "n_sentences"),
    (dict(n_sentences=2.5), "n_sentences"),
    (dict(rare_counts={"cat": 1}), "rare_counts"),
    (dict(rare_counts={RARE_ANIMAL: -1}), "rare_counts"),
])
def test_bad_input_raises_naming_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        make_corpus(**kwargs)


def test_unknown_word_and_bad_context_raise(corpus):
    with pytest.raises(ValueError, match="word"):
        corpus.id_of("unicorn")
    with pytest.raises(ValueError, match="context"):
        corpus.training_pairs(3)
