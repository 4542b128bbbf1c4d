"""Lesson 09 in class mode: its variant space draws usable variants (each trains a model that
shows the lesson's point), every answer but the fixed ones moves away from the book's, and the
solution computes what the module expects.

No kernel: the solution's code cells run in this process (its check cells left out). Each
variant trains one short run (a few tenths of a second); l09 caches them per process.
"""

import numpy as np
import pytest

from embedlab.grading.lessons import questions_for
from embedlab.grading.questions import l09
from embedlab.grading.variants import parameters_of, read_parameters, render_parameters

from solution_runner import assert_computes, solution_parameters, remember_runs  # noqa: F401 (a fixture)

LESSON = "09-what-rows-learn"
SECRETS = [b"test-secret-for-the-class-mode-tests", b"a-second-instructor-secret!", b"0123456789abcdef"]



def differs(a, b):
    return not (np.shape(a) == np.shape(b) and np.allclose(a, b, rtol=1e-6, atol=0))


@pytest.mark.parametrize("secret", SECRETS)
def test_every_class_variant_is_usable_and_differs_from_the_book(secret):
    book = l09.answers(l09.DEFAULTS)
    varying = [q.name for q in questions_for(LESSON) if q.name not in l09.SPACE.fixed]
    assert sorted(varying) == ["cos_cat", "gap", "n_params"]
    widths = set()
    for variant in range(1, 9):
        p = parameters_of(LESSON, variant, secret)
        assert p == parameters_of(LESSON, variant, secret)  # reproducible
        assert l09.problems(p) == []
        mine = l09.answers(p)
        for name in varying:
            assert differs(mine[name], book[name]), (variant, name)
        assert mine["gap"] >= l09.MIN_GAP  # the lesson's point shows in every variant
        assert p["d"] in l09.D_POOL and p["steps"] in l09.STEPS and p["batch_size"] in l09.BATCH_SIZES
        widths.add(p["d"])
        assert all(len(line) <= 88 for line in render_parameters(p).splitlines())
        assert read_parameters(render_parameters(p)) == p
    assert len(widths) == len(l09.D_POOL)  # picked without repeats, up to the pool's size
    assert set(l09.SPACE.fixed) == {"embedding_grad", "tinylm_grads", "rotation_changes_cosines"}


def test_problems_rejects_the_book_and_a_variant_that_does_not_show_the_point():
    assert any("equals the book's" in x for x in l09.problems(l09.DEFAULTS))
    p = parameters_of(LESSON, 1, SECRETS[0])
    # one step of training: the rows are still their random start, no group is tighter inside
    untrained = dict(p, steps=1)
    assert any("not clearly tighter" in x for x in l09.problems(untrained))


@pytest.mark.parametrize("variant", [0, 1])
def test_the_solution_computes_the_modules_answers(variant, capsys):
    p = parameters_of(LESSON, variant, SECRETS[0])
    assert_computes(LESSON, p, l09.answers(p))
    assert all(len(line) <= 88 for line in capsys.readouterr().out.splitlines())


def test_the_solutions_parameters_cell_is_the_defaults():
    assert solution_parameters(LESSON) == l09.DEFAULTS
    from embedlab import make_corpus

    assert make_corpus(n_sentences=30).vocab_size == l09.V  # V does not depend on the corpus's size
