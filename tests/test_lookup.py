"""The lookup two ways, its backward pass, and the cost counts (embedlab.lookup)."""

import numpy as np
import pytest

from embedlab import (
    embedding_backward,
    lookup_bytes,
    lookup_index,
    lookup_matmul,
    matmul_flops,
    one_hot,
    one_hot_bytes,
)


def test_one_hot_has_a_single_one_in_each_ids_column():
    got = one_hot([2, 0, 2], 4)
    want = np.array([[0, 0, 1, 0], [1, 0, 0, 0], [0, 0, 1, 0]], dtype=np.float64)
    assert got.dtype == np.float64
    assert np.array_equal(got, want)


def test_one_hot_keeps_the_shape_of_ids_and_the_dtype_asked_for():
    ids = np.array([[1, 3], [0, 1]])
    got = one_hot(ids, 5, dtype=np.float32)
    assert got.shape == (2, 2, 5) and got.dtype == np.float32
    assert np.array_equal(got.argmax(axis=-1), ids)
    assert np.array_equal(got.sum(axis=-1), np.ones((2, 2)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matmul_and_lookup_agree_bit_for_bit(dtype):
    rng = np.random.default_rng(1)
    E = rng.standard_normal((50, 7)).astype(dtype)
    ids = rng.integers(0, 50, size=30)
    by_index, by_matmul = lookup_index(E, ids), lookup_matmul(E, ids)
    assert by_index.dtype == by_matmul.dtype == dtype
    assert by_index.tobytes() == by_matmul.tobytes()
    assert np.array_equal(by_index, E[ids])


def test_negative_zero_is_the_one_bit_pattern_the_matmul_changes():
    E = np.array([[-0.0, 1.5], [2.0, -3.0], [0.25, 4.0]])
    ids = np.array([0, 2])
    by_index, by_matmul = lookup_index(E, ids), lookup_matmul(E, ids)
    assert np.array_equal(by_index, by_matmul)  # -0.0 == 0.0 as numbers
    assert by_index.tobytes() != by_matmul.tobytes()  # but not as bits
    assert np.signbit(by_index[0, 0]) and not np.signbit(by_matmul[0, 0])


def test_inf_in_an_unselected_row_poisons_only_the_matmul():
    E = np.arange(12, dtype=np.float64).reshape(4, 3)
    E[3, 1] = np.inf  # row 3 is never looked up
    ids = np.array([0, 1, 2, 1])
    assert np.isfinite(lookup_index(E, ids)).all()
    with np.errstate(invalid="ignore"):
        out = lookup_matmul(E, ids)
    assert np.isnan(out[:, 1]).all()  # 0 * inf = nan in every token's column 1
    assert np.isfinite(out[:, [0, 2]]).all()


def test_backward_accumulates_repeats_and_leaves_other_rows_zero():
    ids = np.array([1, 3, 1, 1])
    grad_out = np.array([[1.0, 2.0], [10.0, 20.0], [100.0, 200.0], [1000.0, 2000.0]])
    got = embedding_backward(ids, grad_out, 5)
    want = np.zeros((5, 2))
    want[1] = [1101.0, 2202.0]
    want[3] = [10.0, 20.0]
    assert np.array_equal(got, want)


def test_backward_equals_one_hot_transpose_times_grad_out():
    rng = np.random.default_rng(2)
    ids = rng.integers(0, 6, size=(3, 4))  # a batch of sequences, with repeats
    grad_out = rng.standard_normal((3, 4, 5))
    want = one_hot(ids, 6).reshape(-1, 6).T @ grad_out.reshape(-1, 5)
    assert np.allclose(embedding_backward(ids, grad_out, 6), want, rtol=1e-12, atol=1e-12)


def test_backward_matches_a_numerical_gradient():
    rng = np.random.default_rng(3)
    V, d = 5, 3
    E = rng.standard_normal((V, d))
    ids = np.array([4, 0, 4, 2])  # row 4 twice, rows 1 and 3 never
    W = rng.standard_normal((len(ids), d))

    def loss(table):
        return float(np.sum(W * np.tanh(table[ids])))

    grad_out = W * (1 - np.tanh(E[ids]) ** 2)
    analytic = embedding_backward(ids, grad_out, V)
    numeric = np.zeros_like(E)
    eps = 1e-6
    for v in range(V):
        for j in range(d):
            up, down = E.copy(), E.copy()
            up[v, j] += eps
            down[v, j] -= eps
            numeric[v, j] = (loss(up) - loss(down)) / (2 * eps)
    assert np.allclose(analytic, numeric, rtol=1e-6, atol=1e-8)
    assert np.array_equal(analytic[[1, 3]], np.zeros((2, d)))


def test_costs_count_what_each_path_does():
    assert matmul_flops(50_257, 768) == 2 * 50_257 * 768 == 77_194_752
    assert matmul_flops(50_257, 768, n_tokens=512) == 512 * 77_194_752
    assert lookup_bytes(768) == 3_072  # 768 float32 numbers
    assert lookup_bytes(768, n_tokens=512, dtype=np.float64) == 512 * 768 * 8
    assert one_hot_bytes(50_257) == 201_028
    assert one_hot_bytes(50_257, n_tokens=512) == 102_926_336


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: one_hot([0, 1], 0), "V"),
        (lambda: one_hot([0, 1], 2.0), "V"),
        (lambda: one_hot([0, 2], 2), "ids"),
        (lambda: one_hot([-1], 2), "ids"),
        (lambda: one_hot([0.0], 2), "ids"),
        (lambda: lookup_index(np.zeros(3), [0]), "E"),
        (lambda: lookup_matmul(np.zeros((3, 2), dtype=int), [0]), "E"),
        (lambda: embedding_backward([0, 1], np.zeros((3, 2)), 4), "grad_out"),
        (lambda: embedding_backward([0, 1], np.zeros((2, 2), dtype=int), 4), "grad_out"),
        (lambda: embedding_backward([0, 5], np.zeros((2, 2)), 4), "ids"),
        (lambda: matmul_flops(50_257, 0), "d"),
        (lambda: lookup_bytes(768, n_tokens=-1), "n_tokens"),
        (lambda: one_hot_bytes(True), "V"),
    ],
)
def test_bad_input_names_the_field(call, field):
    with pytest.raises(ValueError, match=rf"\b{field}\b"):
        call()
