"""Under-trained row detection: cosine to the mean of known-unused rows, precision@k, first-PC removal."""

import numpy as np
import pytest

from embedlab.undertrained import (first_principal_component, precision_at_k, rank_candidates, unused_scores,
                                   without_first_pc)


def planted(seed=0, n=40, d=6, n_unused=6, noise=0.05):
    """Random rows, plus `n_unused` rows that all point one way (with some noise)."""
    rng = np.random.default_rng(seed)
    M = rng.normal(size=(n, d))
    direction = rng.normal(size=d)
    unused = list(range(n - n_unused, n))
    M[unused] = 3 * direction / np.linalg.norm(direction) + noise * rng.normal(size=(n_unused, d))
    return M, unused


def test_scores_are_cosines_to_the_reference_mean():
    M, unused = planted()
    ref = unused[:3]
    s = unused_scores(M, ref)
    mean = M[ref].mean(axis=0)
    for i in (0, 7, unused[-1]):
        want = M[i] @ mean / (np.linalg.norm(M[i]) * np.linalg.norm(mean))
        assert s[i] == pytest.approx(want, rel=1e-12)
    assert np.all(s[unused] > 0.99)


def test_precision_at_k_finds_the_planted_rows():
    M, unused = planted()
    ref, hidden = unused[:3], unused[3:]
    s = unused_scores(M, ref)
    ranked = rank_candidates(s, exclude=ref)
    assert set(ranked[:3]) == set(hidden)
    assert not set(ranked) & set(ref)
    assert precision_at_k(s, hidden, 3, exclude=ref) == 1.0
    # a scorer that knows nothing: the planted rows are not on top
    assert precision_at_k(-s, hidden, 3, exclude=ref) == 0.0


def test_removing_the_first_pc_hurts_when_the_unused_direction_is_the_first_pc():
    M, unused = planted(n_unused=6, noise=0.3)  # a tight cluster far out: its direction is the main variance
    ref, hidden = unused[:4], unused[4:]
    pc = first_principal_component(M)
    direction = M[unused].mean(axis=0) - M.mean(axis=0)
    assert abs(pc @ direction) / np.linalg.norm(direction) > 0.95
    assert precision_at_k(unused_scores(M, ref), hidden, 2, exclude=ref) == 1.0
    assert precision_at_k(unused_scores(M, ref, remove_first_pc=True), hidden, 2, exclude=ref) == 0.0


def test_without_first_pc_leaves_rows_orthogonal_to_it():
    M, _ = planted(seed=2)
    pc = first_principal_component(M)
    assert np.linalg.norm(pc) == pytest.approx(1.0)
    np.testing.assert_allclose(without_first_pc(M) @ pc, 0.0, atol=1e-12)
    # the sign is fixed, so the same matrix always gives the same vector
    np.testing.assert_array_equal(first_principal_component(M), first_principal_component(M.copy()))


def test_bad_input_raises_naming_the_field():
    M, unused = planted()
    with pytest.raises(ValueError, match="M must be"):
        unused_scores(M[0], unused)
    with pytest.raises(ValueError, match="reference_ids"):
        unused_scores(M, [])
    with pytest.raises(ValueError, match="reference_ids"):
        unused_scores(M, [len(M)])
    with pytest.raises(ValueError, match="zero vector"):
        unused_scores(np.vstack([M, [np.ones(6)], [-np.ones(6)]]), [len(M), len(M) + 1])
    s = unused_scores(M, unused)
    with pytest.raises(ValueError, match="k must"):
        precision_at_k(s, unused, 0)
    with pytest.raises(ValueError, match="k must"):
        precision_at_k(s, unused, len(M) + 1)
