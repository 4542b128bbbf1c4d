"""Exercise 07 question 2: judged part by part, so a wrong recipe with the right total is still wrong."""

import numpy as np
import pytest

from embedlab import count_params, load_config
from embedlab.exercise import Exercise

N = count_params(load_config("gpt2")).total
RIGHT = np.array([2, 2, 4, 8]) * N  # ZeRO: fp16 weights and gradients, fp32 master copy, fp32 m and v


def line(value):
    return Exercise("07-memory").verdict("adam_parts", {"adam_parts": value}).line("adam_parts")


def test_the_zero_recipe_is_correct():
    assert line(RIGHT).startswith("✅")
    assert line(list(RIGHT)).startswith("✅")


@pytest.mark.parametrize("wrong, words", [
    (np.array([4, 4, 0, 8]) * N, "weights: the forward and backward passes use the fp16 copy"),  # all fp32: also 16
    (np.array([2, 4, 4, 8]) * N, "gradients: this recipe keeps them in fp16"),
    (np.array([2, 2, 0, 8]) * N, "master copy: mixed precision keeps an fp32 copy"),
    (np.array([2, 2, 8, 8]) * N, "master copy: it holds the weights only"),
    (np.array([2, 2, 4, 4]) * N, "Adam keeps two, m and v"),
    (np.array([2, 2, 8, 4]) * N, "right parts, wrong order"),
    (16 * N, "that is the total"),
    (np.array([2, 2, 4, 8]), "bytes per parameter"),
    (RIGHT / 1e9, "give bytes, not GB"),
])
def test_wrong_recipes_are_wrong_and_say_which_part(wrong, words):
    got = line(wrong)
    assert got.startswith("❌") and words in got, got


def test_a_wrong_recipe_with_the_same_total_is_still_wrong():
    all_fp32 = np.array([4, 4, 0, 8]) * N
    assert all_fp32.sum() == RIGHT.sum()  # 4 + 4 + 4 + 4 = 2 + 2 + 12: why the question asks for parts
    assert line(all_fp32).startswith("❌")
