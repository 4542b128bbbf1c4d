"""Lesson 10 in class mode: its variant space draws usable variants (the never-seen rows still
end up alike and at the top of the under-training score), every answer that can vary moves
away from the book's, and the solution computes what the module expects.

No kernel: the solution's code cells run in this process (its check cells left out).
"""


import numpy as np
import pytest

from embedlab.grading.kinds import Function
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.questions import l10
from embedlab.grading.variants import parameters_of, read_parameters, render_parameters

from solution_runner import assert_computes, solution_parameters, remember_runs  # noqa: F401 (a fixture)

LESSON = "10-glitch-tokens"
SECRETS = [b"test-secret-for-the-class-mode-tests", b"a-second-instructor-secret!", b"0123456789abcdef"]



def differs(a, b):
    return not (np.shape(a) == np.shape(b) and np.allclose(a, b, rtol=1e-6, atol=0))


@pytest.mark.parametrize("secret", SECRETS)
def test_every_class_variant_is_usable_and_differs_from_the_book(secret):
    book = l10.answers(l10.DEFAULTS)
    varying = [q.name for q in questions_for(LESSON) if q.name not in l10.SPACE.fixed]
    rows = set()
    for variant in range(1, 9):
        p = parameters_of(LESSON, variant, secret)
        assert p == parameters_of(LESSON, variant, secret)  # reproducible
        assert l10.problems(p) == []
        mine = l10.answers(p)
        assert sorted(mine) == sorted(varying)
        for name in varying:
            assert differs(mine[name], book[name]), (variant, name)
        assert p["vocab_model"] in l10.VOCAB_MODELS and p["tokenizer"] in l10.TOKENIZERS
        rows.add(mine["padding_rows"])
        assert (p["vocab_model"], p["pad_multiple"]) in l10.PADDINGS[mine["padding_rows"]]
        assert all(len(line) <= 88 for line in render_parameters(p).splitlines())
        assert read_parameters(render_parameters(p)) == p
    assert len(rows) == 8  # picked without repeats: a classmate's padding_rows is never yours
    assert set(l10.SPACE.fixed) == {"invalid_bytes", "unused_score"}
    assert {q.name for q in questions_for(LESSON) if isinstance(q, Function)} == {"unused_score"}


def test_every_padding_of_the_pool_is_drawable_and_right():
    """pick() gives variant k the k-th padding of a shuffled pool; each one's pairs must be usable
    and give it. The pool holds every usable pair of a shipped config and a multiple."""
    assert len(l10.PADDINGS) >= 8
    for rows, pairs in l10.PADDINGS.items():
        for model, multiple in pairs:
            p = dict(l10.DEFAULTS, vocab_model=model, pad_multiple=multiple)
            assert l10._padding_problems(p) == [] and l10.padding(p)[1] - l10.padding(p)[0] == rows
    assert ("llama-2-7b", 1024) in l10.PADDINGS[768] and ("gpt2-xl", 256) in l10.PADDINGS[175]


def test_problems_rejects_the_book_and_degenerate_variants():
    assert any("equals the book's" in x for x in l10.problems(l10.DEFAULTS))
    p = parameters_of(LESSON, 1, SECRETS[0])
    assert l10.problems(p) == []
    assert any("no padding" in x for x in l10.problems(dict(p, vocab_model="gemma-2b")))
    # Llama-3's 128,256 is 256 past a multiple of 512 and 256 short of the next one
    assert any("cannot tell" in x for x in l10.problems(dict(p, vocab_model="llama-3-8b", pad_multiple=512)))
    # GPT-2 XL has GPT-2's vocabulary: padded to 64 it is the book's answer
    assert any("padding_rows equals" in x for x in l10.problems(dict(p, vocab_model="gpt2-xl", pad_multiple=64)))
    # trained for a few steps only, the never-seen rows have not moved together: not the lesson's point
    short = dict(p, steps=5)
    assert any("did not become alike" in x or "not the top candidates" in x for x in l10.problems(short))


@pytest.mark.parametrize("variant", [0, 1, 2])
def test_the_solution_computes_the_modules_answers(variant, capsys):
    p = parameters_of(LESSON, variant, SECRETS[0])
    namespace = assert_computes(LESSON, p, l10.answers(p))
    assert namespace["invalid_bytes"] == load_key(LESSON)["invalid_bytes"]
    assert all(len(line) <= 88 for line in capsys.readouterr().out.splitlines())


def test_the_solutions_parameters_cell_is_the_defaults():
    assert solution_parameters(LESSON) == l10.DEFAULTS
    assert l10.answers(l10.DEFAULTS)["padding_rows"] == load_key(LESSON)["padding_rows"]


def test_the_draws_cover_the_ranges():
    drawn = [parameters_of(LESSON, v, s) for s in SECRETS for v in range(1, 9)]
    values = {name: {p[name] for p in drawn} for name in l10.DEFAULTS}
    assert values["n_reserved"] == set(l10.N_RESERVED) and values["steps"] == set(l10.STEPS)
    assert len(values["pad_multiple"]) >= 3 and len(values["corpus_seed"]) >= 12 and len(values["seed"]) >= 12
