"""Changing a vocabulary: new rows by each initialisation, a resized TinyLM, the KL of the predictions,
padding and trimming with an id map."""

import numpy as np
import pytest

from embedlab.resize import (INITS, MEAN_RESIZING_COV_SCALE, add_rows, kl_divergence, new_rows, pad_rows,
                             padded_size, remap_ids, resize_tinylm, trim_rows)
from embedlab.tinylm import TinyLM


def table(V=40, d=6, seed=0):
    return np.random.default_rng(seed).normal(1.0, 0.5, size=(V, d))


def test_each_initialisation_makes_its_rows():
    M = table()
    assert np.array_equal(new_rows(M, 3, "zeros"), np.zeros((3, 6)))
    assert np.allclose(new_rows(M, 3, "mean"), M.mean(axis=0))
    small, large = new_rows(M, 2000, "small"), new_rows(M, 2000, "large")
    assert small.std() == pytest.approx(0.02, rel=0.05) and large.std() == pytest.approx(1.0, rel=0.05)
    assert new_rows(M, 5, "small", std=0.3).shape == (5, 6)
    # transformers' mean_resizing: the mean plus a spread of sqrt(1e-9) times the rows' own
    drawn = new_rows(M, 3, "mean_cov")
    assert MEAN_RESIZING_COV_SCALE == 1e-9
    assert 0 < np.abs(drawn - M.mean(axis=0)).max() < 1e-3
    wide = new_rows(M, 4000, "mean_cov", cov_scale=1.0, seed=1)   # the rows' own spread (neither's choice)
    assert np.allclose(np.cov(wide.T, bias=True), np.cov(M.T, bias=True), atol=0.02)
    assert np.allclose(wide.mean(axis=0), M.mean(axis=0), atol=0.03)


def test_seeded_and_zero_rows():
    M = table()
    for init in INITS:
        assert np.array_equal(new_rows(M, 4, init, seed=3), new_rows(M, 4, init, seed=3))
        assert new_rows(M, 0, init).shape == (0, 6)
    assert not np.array_equal(new_rows(M, 4, "large", seed=3), new_rows(M, 4, "large", seed=4))


def test_mean_cov_falls_back_to_the_mean_when_the_covariance_is_singular():
    M = table(V=4, d=6)   # 4 rows span at most 3 directions around their mean: no density in 6-D
    assert np.allclose(new_rows(M, 2, "mean_cov"), M.mean(axis=0))


def test_add_rows_keeps_the_old_rows_and_does_not_touch_the_input():
    M = table()
    before = M.copy()
    grown = add_rows(M, 3, "large")
    assert grown.shape == (43, 6) and np.array_equal(grown[:40], before) and np.array_equal(M, before)


def test_resize_tinylm_untied_and_tied():
    untied = TinyLM(30, d=8, tied=False, seed=1)
    grown = resize_tinylm(untied, 4, "mean")
    assert grown.vocab_size == 34 and grown.E.shape == (34, 8) and grown.U.shape == (34, 8)
    assert np.array_equal(grown.E[:30], untied.E) and np.array_equal(grown.U[:30], untied.U)
    assert np.allclose(grown.U[30:], untied.U.mean(axis=0)) and np.allclose(grown.E[30:], untied.E.mean(axis=0))
    assert np.array_equal(grown.params["W"], untied.params["W"]) and grown.params["W"] is not untied.params["W"]
    forgot = resize_tinylm(untied, 4, "mean", head_init="zeros")
    assert np.array_equal(forgot.U[30:], np.zeros((4, 8)))
    tied = TinyLM(30, d=8, tied=True, seed=1)
    grown_tied = resize_tinylm(tied, 2, "small")
    assert grown_tied.U is grown_tied.E and grown_tied.E.shape == (32, 8) and "U" not in grown_tied.params
    contexts = np.array([[0, 1], [5, 7]])
    assert np.array_equal(grown.logits(contexts)[:, :30], untied.logits(contexts))


def test_mean_rows_obey_the_bound_random_rows_do_not():
    """The logit of a row at the mean of U is the average logit: each new token gets <= 1/(V + k)
    and the old distribution moves by at most log(1 + k/V)."""
    model = TinyLM(30, d=8, tied=False, seed=2, init_std=1.0)
    contexts = np.random.default_rng(0).integers(0, 30, size=(200, 2))
    before = model.logits(contexts)
    k = 3
    mean = resize_tinylm(model, k, "mean")
    after = mean.logits(contexts)
    assert np.allclose(after[:, 30], before.mean(axis=1))
    p = np.exp(after - after.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    assert p[:, 30:].max() <= 1 / (30 + k) + 1e-12
    kl = kl_divergence(before, after)
    assert kl.max() <= np.log(1 + k / 30) + 1e-12 and kl.min() > 0
    large = resize_tinylm(model, k, "large", std=3.0)
    assert kl_divergence(before, large.logits(contexts)).max() > np.log(1 + k / 30)


def test_kl_divergence():
    logits = np.array([[1.0, 2.0, 0.5], [0.0, 0.0, 0.0]])
    assert np.allclose(kl_divergence(logits, logits), 0.0)
    assert np.allclose(kl_divergence(logits, logits + 7.0), 0.0)    # a shift of every logit changes nothing
    # one new token with logit log 3 next to three of logit 0: the old ones keep 3/6 in all
    kl = kl_divergence(np.zeros((1, 3)), np.array([[0.0, 0.0, 0.0, np.log(3.0)]]))
    assert kl[0] == pytest.approx(np.log(2.0), rel=1e-12)
    with pytest.raises(ValueError, match=r"logits_after must have the rows of logits_before .* "
                                         r"logits_after.shape=\(2, 2\)"):
        kl_divergence(logits, logits[:, :2])


def test_padding():
    assert padded_size(50_257, 64) == 50_304 and padded_size(50_257, 128) == 50_304
    assert padded_size(128_256, 64) == 128_256 and padded_size(100_277, 128) == 100_352
    M = table(V=37)
    assert pad_rows(M, 8).shape == (40, 6) and pad_rows(M, 37).shape == (37, 6)
    assert np.array_equal(pad_rows(M, 8, "zeros")[37:], np.zeros((3, 6)))
    assert np.allclose(pad_rows(M, 8)[37:], M.mean(axis=0))  # by default at the mean, as lesson 12 advises


def test_trim_rows_and_the_id_map():
    M = table(V=10)
    small, id_map = trim_rows(M, [7, 2, 2, 5])
    assert np.array_equal(small, M[[2, 5, 7]])
    assert id_map.tolist() == [-1, -1, 0, -1, -1, 1, -1, 2, -1, -1]
    ids = np.array([[7, 5], [2, 2]])
    assert np.array_equal(small[remap_ids(ids, id_map)], M[ids])   # the same rows, looked up by new ids
    with pytest.raises(ValueError, match=r"ids holds a token the trimmed vocabulary dropped, got id=3"):
        remap_ids([2, 3, 4], id_map)
    with pytest.raises(ValueError, match=r"ids must be integer ids from 0 to 9, got ids=\[12\]"):
        remap_ids([12], id_map)


@pytest.mark.parametrize("call, message", [
    (lambda: new_rows(table(), 2, "normal"), r"init must be one of \['zeros', 'small', 'large', 'mean', "
                                            r"'mean_cov'\], got init='normal'"),
    (lambda: new_rows(table(), -1), r"n_new must be an integer >= 0, got n_new=-1"),
    (lambda: new_rows(table(), 2.0), r"n_new must be an integer >= 0, got n_new=2.0"),
    (lambda: new_rows(table(), 2, "small", std=0), r"std must be a positive number, got std=0"),
    (lambda: new_rows(table(), 2, "mean_cov", cov_scale=-1), r"cov_scale must be a positive number, got cov_scale=-1"),
    (lambda: new_rows(np.zeros(5), 2), r"M must be a non-empty 2-D matrix .*got M.shape=\(5,\)"),
    (lambda: padded_size(0, 64), r"vocab_size must be a positive integer, got vocab_size=0"),
    (lambda: padded_size(100, True), r"multiple must be a positive integer, got multiple=True"),
    (lambda: trim_rows(table(V=10), [1, 10]), r"keep_ids must hold row ids from 0 to 9, got the id 10"),
    (lambda: trim_rows(table(V=10), []), r"keep_ids must be a non-empty 1-D list of integer row ids"),
    (lambda: resize_tinylm(table(), 2), r"model must be a TinyLM, got model=ndarray"),
    (lambda: resize_tinylm(TinyLM(5), 2, head_init="avg"), r"head_init must be one of .*got head_init='avg'"),
])
def test_bad_input_names_the_field_and_value(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_two_published_covariance_scales_and_what_the_docstring_says_of_them():
    """transformers' mean_resizing draws from N(mean, 1e-9 Σ), Hewitt (2021) from N(mean, 1e-5 Σ);
    a scale of 1 (the rows' full spread) is neither, and the module says so."""
    import embedlab.resize as resize

    assert resize.MEAN_RESIZING_COV_SCALE == 1e-9 and resize.HEWITT_COV_SCALE == 1e-5
    doc = " ".join(resize.__doc__.split())
    assert "Hewitt (2021)'s snippet samples N(mean, 1e-5 · Σ)" in doc and "cov_scale = 1e-9, is transformers'" in doc
    assert "Hewitt's suggestion" not in doc and "neither of them suggests" in doc
    M = table()
    centred = M - M.mean(axis=0)
    for scale in (resize.MEAN_RESIZING_COV_SCALE, resize.HEWITT_COV_SCALE):  # the spread is sqrt(scale) of the rows'
        drawn = new_rows(M, 4000, "mean_cov", cov_scale=scale, seed=2)
        assert np.allclose(np.cov(drawn.T, bias=True) / scale, centred.T @ centred / len(M), atol=0.02), scale
