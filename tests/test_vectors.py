import math

import numpy as np
import pytest

from embedlab import cosine_similarity


def test_cosine_of_known_angles():
    assert cosine_similarity([1, 0], [0, 5]) == 0.0
    assert cosine_similarity([2, 2], [1, 1]) == pytest.approx(1.0, abs=1e-15)
    assert cosine_similarity([1, 0], [-3, 0]) == -1.0
    assert cosine_similarity([1, 0], [1, 1]) == pytest.approx(1 / math.sqrt(2), rel=1e-15)


def test_cosine_ignores_length():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=8), rng.normal(size=8)
    assert cosine_similarity(3 * a, 0.5 * b) == pytest.approx(cosine_similarity(a, b), rel=1e-12)


@pytest.mark.parametrize(
    "a, b, field",
    [([0, 0], [1, 1], "a="), ([1, 1], [0, 0], "b="), ([1, 2], [1, 2, 3], "len(a)=2"), ([[1, 2]], [1, 2], "a.shape=")],
)
def test_cosine_rejects_bad_input_naming_it(a, b, field):
    with pytest.raises(ValueError, match=field.replace("(", r"\(").replace(")", r"\)")):
        cosine_similarity(a, b)
