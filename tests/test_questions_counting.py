"""Exercises 03-05 (counting): the references agree with the library, and the hints fire on the usual mistakes."""

import numpy as np

from embedlab.grading.exercise import Exercise
from embedlab.grading.lessons import load_key
from embedlab.grading.questions import l03, l04, l05
from embedlab.grading.values import data_to_array


def line(lesson, name, value):
    return Exercise(lesson).verdict(name, {name: value}).line(name)


def test_l03_reference_counts_released_gpt2():
    assert l03.gpt2_params(50_257, 768, 12, 1024) == 124_439_808
    assert l03.gpt2_params(50_257, 1600, 48, 1024) == 1_557_611_200
    assert all(len(case) == 4 for case in l03._gpt2_shapes(np.random.default_rng(1)))


def test_l03_hints():
    assert "tied" in line("03-counting-gpt2", "interview", 2 * 40_000 * 768)
    assert "bias" in line("03-counting-gpt2", "linear_params", 1024 * 4096)
    assert "12·d²" in line("03-counting-gpt2", "block_params", 12 * 1024**2)
    assert "position table" in line("03-counting-gpt2", "embedding_share", (80_411_200 + 1_638_400) / 1_557_611_200)
    assert "✅" in line("03-counting-gpt2", "interview", 30_720_000)


def test_l03_function_rejects_a_count_without_the_position_table():
    def forgot_positions(V, d, L, T):
        return V * d + L * (12 * d * d + 13 * d) + 2 * d
    assert line("03-counting-gpt2", "gpt2_params", forgot_positions).startswith("❌")


def test_l04_reference_counts_the_llamas():
    assert l04.llama_params(128_256, 4096, 32, 32, 8, 14_336, False) == 8_030_261_248
    assert l04.llama_params(128_256, 2048, 16, 32, 8, 8192, True) == 1_235_814_400


def test_l04_hints():
    assert "multi-head" in line("04-modern-blocks", "attn_layer", 4 * 2048 * 2048)
    assert "three matrices" in line("04-modern-blocks", "mlp_layer", 2 * 2048 * 8192)
    assert "untied" in line("04-modern-blocks", "vocab_share", 525_336_576 / 8_030_261_248)
    assert "tied" in line("04-modern-blocks", "padding_params", 2 * 47 * 768)


def test_l05_problem_matches_the_answer_key():
    out, inp, _ = l05.gradient_paths()
    key = load_key("05-weight-tying")
    assert np.allclose(data_to_array(key["grad_E"]), out + inp)
    assert key["tied_count"] == 8_030_261_248 - 128_256 * 4096


def test_l05_hints_and_reference():
    out, inp, overwritten = l05.gradient_paths()
    assert "output path only" in line("05-weight-tying", "grad_E", out)
    assert "input path only" in line("05-weight-tying", "grad_E", inp)
    assert "np.add.at" in line("05-weight-tying", "grad_E", out + overwritten)
    assert l05.count_unique(np.array([0, 1, 0]), np.array([40, 16, 40])) == 56
    assert line("05-weight-tying", "count_unique", lambda storage, sizes: int(sizes.sum())).startswith("❌")
    assert "true count" in line("05-weight-tying", "state_dict_sum", 124_439_808)
