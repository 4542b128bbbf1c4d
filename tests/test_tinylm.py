"""TinyLM: hand-written gradients against finite differences, the exact zero of unseen rows, determinism."""

import numpy as np
import pytest

from embedlab.corpus import make_corpus
from embedlab.tinylm import SGD, Adam, TinyLM, train, train_tinylm


def numerical_grad(model, name, contexts, targets, eps=1e-6):
    """Central differences of the loss with respect to every entry of one parameter."""
    p = model.params[name]
    out = np.zeros_like(p)
    for idx in np.ndindex(p.shape):
        old = p[idx]
        p[idx] = old + eps
        up = model.loss(contexts, targets)
        p[idx] = old - eps
        down = model.loss(contexts, targets)
        p[idx] = old
        out[idx] = (up - down) / (2 * eps)
    return out


@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("context", [1, 2])
def test_gradients_match_finite_differences(tied, context):
    rng = np.random.default_rng(3)
    model = TinyLM(vocab_size=9, d=4, context=context, tied=tied, seed=1, init_std=0.5)
    contexts = rng.integers(0, 9, size=(6, context))
    targets = rng.integers(0, 9, size=6)
    contexts[0, 0] = contexts[1, 0] = 2  # a repeated id: its row gradient must add up
    _, grads = model.loss_and_grads(contexts, targets)
    assert set(grads) == set(model.params)
    for name in model.params:
        num = numerical_grad(model, name, contexts, targets)
        np.testing.assert_allclose(grads[name], num, rtol=1e-6, atol=1e-9, err_msg=name)


def test_untied_unseen_rows_get_exactly_zero_gradient():
    model = TinyLM(vocab_size=10, d=4, context=2, tied=False, seed=0)
    contexts = np.array([[1, 2], [2, 3], [3, 1]])
    targets = np.array([4, 5, 6])
    _, grads = model.loss_and_grads(contexts, targets)
    unseen = [0, 4, 5, 6, 7, 8, 9]  # not in any context (targets touch only U)
    assert np.all(grads["E"][unseen] == 0.0)
    assert np.all(np.abs(grads["E"][[1, 2, 3]]).sum(axis=1) > 0)
    # the output matrix gets gradient in every row, seen or not
    assert np.all(np.abs(grads["U"]).sum(axis=1) > 0)


def test_tied_unseen_rows_do_get_gradient():
    model = TinyLM(vocab_size=10, d=4, context=2, tied=True, seed=0)
    _, grads = model.loss_and_grads(np.array([[1, 2], [2, 3]]), np.array([4, 5]))
    assert np.all(np.abs(grads["E"]).sum(axis=1) > 0)
    assert "U" not in model.params and model.U is model.E


@pytest.fixture(scope="module")
def corpus():
    return make_corpus(600, seed=0)


def test_untied_never_seen_rows_end_bit_for_bit_equal(corpus):
    run = train_tinylm(corpus, tied=False, steps=150, batch_size=64, seed=0)
    never = list(corpus.groups["never"])
    assert np.array_equal(run.model.E[never], run.initial["E"][never])
    assert np.all(run.moved("E")[never] == 0.0)
    seen = [i for i in range(corpus.vocab_size) if i not in never]
    assert np.all(run.moved("E")[seen] > 0)
    assert run.losses[-20:].mean() < run.losses[:20].mean()


def test_tied_never_seen_rows_move(corpus):
    run = train_tinylm(corpus, tied=True, steps=150, batch_size=64, seed=0)
    assert np.all(run.moved("E")[list(corpus.groups["never"])] > 0)


def test_weight_decay_shrinks_never_seen_rows_geometrically(corpus):
    lr, wd, steps = 1e-2, 0.5, 100
    run = train_tinylm(corpus, tied=False, steps=steps, batch_size=64, lr=lr, weight_decay=wd, seed=0)
    never = list(corpus.groups["never"])
    np.testing.assert_allclose(run.model.E[never], run.initial["E"][never] * (1 - lr * wd) ** steps, rtol=1e-12)


def test_same_seed_gives_identical_bytes(corpus, monkeypatch):
    from embedlab import tinylm

    monkeypatch.setattr(tinylm, "remember_runs", False)  # b must train again, not be remembered
    a = train_tinylm(corpus, tied=True, steps=60, batch_size=32, seed=4)
    b = train_tinylm(corpus, tied=True, steps=60, batch_size=32, seed=4)
    c = train_tinylm(corpus, tied=True, steps=60, batch_size=32, seed=5)
    for name in a.model.params:
        assert a.model.params[name].tobytes() == b.model.params[name].tobytes()
    assert a.losses.tobytes() == b.losses.tobytes()
    assert a.model.E.dtype == np.float64
    assert a.model.E.tobytes() != c.model.E.tobytes()


def test_adam_leaves_a_zero_gradient_exactly_alone_and_steps_lr_on_a_single_one():
    p = {"E": np.array([[0.3, -0.2], [0.5, 0.1]])}
    before = p["E"].copy()
    opt = Adam(lr=0.01)
    opt.step(p, {"E": np.array([[0.0, 0.0], [1e-4, -3.0]])})
    assert np.array_equal(p["E"][0], before[0])
    # first Adam step is lr * sign(g) (up to eps), whatever the size of g
    np.testing.assert_allclose(p["E"][1] - before[1], [-0.01, 0.01], rtol=1e-3)


def test_sgd_step_is_proportional_to_the_gradient():
    p = {"W": np.array([[1.0, 2.0]]), "b": np.array([1.0])}
    SGD(lr=0.1, weight_decay=0.5).step(p, {"W": np.array([[1.0, 0.0]]), "b": np.array([2.0])})
    np.testing.assert_allclose(p["W"], [[1.0 - 0.1 * (1.0 + 0.5), 2.0 - 0.1 * 1.0]])
    np.testing.assert_allclose(p["b"], [1.0 - 0.2])  # no decay on the bias


@pytest.mark.parametrize("kwargs, field", [
    (dict(vocab_size=0), "vocab_size"),
    (dict(vocab_size=5, d=-1), "d"),
    (dict(vocab_size=5, context=3), "context"),
    (dict(vocab_size=5, init_std=0.0), "init_std"),
])
def test_bad_model_input_raises_naming_the_field(kwargs, field):
    with pytest.raises(ValueError, match=field):
        TinyLM(**kwargs)


def test_bad_batch_and_training_input_raise():
    model = TinyLM(vocab_size=5, d=2, context=2)
    with pytest.raises(ValueError, match="contexts"):
        model.loss(np.array([[1, 2, 3]]), np.array([0]))
    with pytest.raises(ValueError, match="contexts"):
        model.loss(np.array([[1, 7]]), np.array([0]))
    with pytest.raises(ValueError, match="targets"):
        model.loss(np.array([[1, 2]]), np.array([5]))
    with pytest.raises(ValueError, match="optimizer"):
        train(model, np.array([[1, 2]]), np.array([0]), steps=1, optimizer="rmsprop")
    with pytest.raises(ValueError, match="lr"):
        Adam(lr=0)
    with pytest.raises(ValueError, match="weight_decay"):
        SGD(lr=0.1, weight_decay=-1)


def test_every_shipped_run_is_what_training_gives(monkeypatch):
    """train_tinylm reads the runs lessons 09, 10 and 12 make from the shipped file instead of training
    them (to keep the lessons quick): each must be what a fresh run gives, arrays and losses alike.
    Bit for bit where numpy and its SIMD kernels are the ones the file was made with (its made_with);
    on another CPU or numpy within numerics.RUN_TOLERANCE: the kernels alone move the weights by ~1e-14
    in 1,000 steps, any real change (model, optimiser, data) by 1e-4 or more.
    If this fails after a change to the model or the optimizer, run tools/ship_tinylm_runs.py."""
    import json

    from embedlab import tinylm
    from embedlab.numerics import RUN_TOLERANCE, max_difference, same_kernels
    from embedlab.tinylm import SHIPPED_RUNS, decode_array, run_key

    shipped = json.loads(SHIPPED_RUNS.read_text(encoding="utf-8"))
    runs = shipped["runs"]
    assert len(runs) >= 8 and {"numpy", "machine", "simd"} <= set(shipped["made_with"])
    exact = same_kernels(shipped["made_with"])
    monkeypatch.setattr(tinylm, "use_shipped_runs", False)
    monkeypatch.setattr(tinylm, "remember_runs", False)
    worst = 0.0
    for run in runs:
        corpus = make_corpus(**run["corpus"])
        contexts, targets = corpus.training_pairs(run["settings"]["context"])
        assert run["key"] == run_key(contexts, targets, corpus.vocab_size, run["settings"])
        fresh = tinylm.train_tinylm(corpus, **run["settings"])
        assert sorted(run["params"]) == sorted(fresh.model.params)
        pairs = [(decode_array(entry), fresh.model.params[name], name) for name, entry in run["params"].items()]
        pairs.append((decode_array(run["losses"]), fresh.losses, "losses"))
        for stored, again, name in pairs:
            assert stored.dtype == again.dtype and stored.shape == again.shape, (run["key"], name)
            if exact:
                assert stored.tobytes() == again.tobytes(), (run["key"], name)
            else:
                worst = max(worst, max_difference(stored, again))
                assert max_difference(stored, again) <= RUN_TOLERANCE, (run["key"], name)
    print(f"shipped runs {'bit for bit' if exact else f'within {worst:.1e} (other kernels)'}")


def test_a_run_with_one_step_more_is_outside_the_tolerance(corpus):
    """RUN_TOLERANCE lets other SIMD kernels through but not a change to training: one Adam step more,
    or a learning rate 1e-6 off, moves the weights far past it."""
    from embedlab.numerics import RUN_TOLERANCE, max_difference

    base = train_tinylm(corpus, tied=False, steps=60, batch_size=32, seed=5)
    longer = train_tinylm(corpus, tied=False, steps=61, batch_size=32, seed=5)
    nudged = train_tinylm(corpus, tied=False, steps=60, batch_size=32, seed=5, lr=1e-2 * (1 + 1e-6))
    for other in (longer, nudged):
        assert max_difference(base.model.E, other.model.E) > 100 * RUN_TOLERANCE


def test_a_shipped_run_is_read_and_any_other_run_trains(monkeypatch):
    from embedlab import tinylm

    corpus = make_corpus(n_sentences=3000, seed=0)
    calls = []
    real_train = tinylm.train
    monkeypatch.setattr(tinylm, "train", lambda *a, **k: calls.append(k) or real_train(*a, **k))
    monkeypatch.setattr(tinylm, "_remembered", {})                 # nothing trained yet in this process
    monkeypatch.setattr(tinylm, "remember_runs", True)
    shipped = tinylm.train_tinylm(corpus, tied=True, steps=1000, batch_size=128, seed=0)
    assert calls == [] and shipped.losses.shape == (1000,)
    assert np.array_equal(shipped.initial["E"], tinylm.TinyLM(corpus.vocab_size, tied=True, seed=0).E)
    assert shipped.model.U is shipped.model.E                      # still tied: one array
    tinylm.train_tinylm(corpus, tied=True, steps=3, batch_size=128, seed=0)          # not shipped: trains
    tinylm.train_tinylm(corpus, tied=True, steps=1000, batch_size=128, seed=0, on_step=lambda *a: None)
    assert len(calls) == 2
    again = tinylm.train_tinylm(corpus, tied=True, steps=3, batch_size=128, seed=0)  # remembered
    assert len(calls) == 2 and again.model.U is again.model.E
    monkeypatch.setattr(tinylm, "remember_runs", False)          # the default: a lesson's timed run trains
    tinylm.train_tinylm(corpus, tied=True, steps=3, batch_size=128, seed=0)
    assert len(calls) == 3


def test_a_remembered_run_is_what_training_again_gives_to_the_bit(corpus, monkeypatch):
    """A run asked for twice in one process trains once; the second is a copy of what it left, the
    very arrays a second training computes, and changing one run's model leaves the next alone."""
    from embedlab import tinylm

    monkeypatch.setattr(tinylm, "_remembered", {})
    monkeypatch.setattr(tinylm, "remember_runs", True)
    settings = dict(tied=False, steps=40, batch_size=32, seed=7)
    first = train_tinylm(corpus, **settings)
    remembered = train_tinylm(corpus, **settings)
    monkeypatch.setattr(tinylm, "remember_runs", False)
    fresh = train_tinylm(corpus, **settings)
    for run in (first, remembered):
        assert sorted(run.model.params) == sorted(fresh.model.params)
        for name, value in fresh.model.params.items():
            assert run.model.params[name].tobytes() == value.tobytes(), name
            assert run.initial[name].tobytes() == fresh.initial[name].tobytes(), name
        assert run.losses.tobytes() == fresh.losses.tobytes()
    assert remembered.model.E is not first.model.E and remembered.losses is not first.losses
    monkeypatch.setattr(tinylm, "remember_runs", True)
    first.model.E[:] = 0.0
    remembered.losses[:] = 0.0
    after = train_tinylm(corpus, **settings)
    assert after.model.E.tobytes() == fresh.model.E.tobytes() and after.losses.tobytes() == fresh.losses.tobytes()


@pytest.mark.parametrize("tied", [False, True])
def test_loss_is_the_forward_half_of_loss_and_grads_to_the_bit(corpus, tied):
    """loss() skips the backward pass (lesson 09 evaluates the whole corpus twice) but must give the very
    float loss_and_grads gives."""
    run = train_tinylm(corpus, tied=tied, steps=50, batch_size=64, seed=3)
    contexts, targets = corpus.training_pairs(2)
    assert run.model.loss(contexts, targets) == run.model.loss_and_grads(contexts, targets)[0]
    assert run.model.loss(contexts[:7], targets[:7]) == run.model.loss_and_grads(contexts[:7], targets[:7])[0]
