"""The real-tokenizer questions of exercises 08 (hindi_r) and 10 (partial_tokens): key, and a hint per usual mistake."""

import re

from embedlab.exercise import Exercise
from embedlab.grading.lessons import load_key
from embedlab.grading.questions import l08
from embedlab.tokenizers import load_tokenizer


def line(lesson, name, value):
    return Exercise(lesson).verdict(name, {name: value}).line(name)


def test_hindi_r_key_is_the_weighted_ratio_and_below_the_exercises_break_even():
    """Question 7 sets hindi_r against question 4's formula for this pair on the exercise's own model
    (its d and blocks): below it, as lesson 08's section 7 finds for the book's values."""
    r, (gpt2_per_word, cl100k_per_word) = l08.hindi_r_figures()
    assert load_key("08-vocabulary-size")["hindi_r"] == r
    p = l08.DEFAULTS
    bar = (p["blocks"] + 2 * p["d"] * 50_257) / (p["blocks"] + 2 * p["d"] * 100_277)
    assert cl100k_per_word < gpt2_per_word and r < bar


def test_hindi_r_hints():
    r, means = l08.hindi_r_figures()
    assert "✅" in line("08-vocabulary-size", "hindi_r", r)
    assert "upside down" in line("08-vocabulary-size", "hindi_r", 1 / r)
    assert "weight each word by its count" in line("08-vocabulary-size", "hindi_r", l08.hindi_r_figures(weighted=False)[0])
    assert "after a space" in line("08-vocabulary-size", "hindi_r", l08.hindi_r_figures(space=False)[0])
    assert "one tokenizer's tokens per word" in line("08-vocabulary-size", "hindi_r", means[0])


def partial(tokenizer):
    count = 0
    for i in range(tokenizer.n_vocab):
        try:
            tokenizer.decode_single_token_bytes(i).decode("utf-8")
        except UnicodeDecodeError:
            count += 1
        except KeyError:          # cl100k_base leaves ids 100261-100275 unassigned
            pass
    return count


def test_partial_tokens_key_and_the_magikarp_report():
    gpt2 = load_tokenizer("gpt2")
    n = partial(gpt2)
    assert load_key("10-glitch-tokens")["partial_tokens"] == n
    # cohere-ai/magikarp, results/reports/openai_community_gpt2.md: "non-single-byte UTF-fragment tokens: 216"
    assert n - 128 == 216


def test_partial_tokens_hints():
    n = partial(load_tokenizer("gpt2"))
    assert "✅" in line("10-glitch-tokens", "partial_tokens", n)
    assert "single-byte tokens" in line("10-glitch-tokens", "partial_tokens", n - 128)
    # some of those 128 bytes can never be part of a character (lesson 10, section 6): the hint says so,
    # naming them as question 2's bytes without giving question 2's count away
    left_out = line("10-glitch-tokens", "partial_tokens", n - 128)
    assert "question 2's bytes, never occur in valid UTF-8" in left_out
    assert not re.search(r"(?<![\d,.])13(?![\d,.])", left_out), left_out
    assert "each is a fragment" not in line("10-glitch-tokens", "partial_tokens", n - 128)
    assert "never occur at all" in line("10-glitch-tokens", "partial_tokens", 13)
    assert "do decode" in line("10-glitch-tokens", "partial_tokens", 50_256 - n)
    assert "count only the tokens of `tokenizer`" in line("10-glitch-tokens", "partial_tokens",
                                                          partial(load_tokenizer("cl100k_base")))
