"""FLOPs per token, pinned on hand-checked GPT-2 small and Llama-3-8B figures."""

import pytest

from embedlab.compute import (
    break_even_ratio,
    decode_step_flops,
    forward_flops,
    rule_of_thumb_flops,
    token_costs,
    training_flops,
)
from embedlab.params import available_models, count_params, load_config

GPT2 = load_config("gpt2")
LLAMA = load_config("llama-3-8b")


def test_gpt2_small_per_token_by_hand():
    c = token_costs(GPT2)
    d, L, V = 768, 12, 50_257
    assert c.input == d  # the lookup is free; adding the position row is d additions
    assert c.blocks == 2 * L * (4 * d * d + 2 * d * 4 * d) == 169_869_312  # 2 FLOPs per matrix weight
    assert c.head == 2 * d * V == 77_194_752
    assert c.attention_per_key == 4 * L * 12 * 64 == 36_864


def test_llama_3_8b_per_token_by_hand():
    c = token_costs(LLAMA)
    assert c.input == 0  # rotary positions: nothing to add
    # per layer 41,943,040 attention weights (grouped-query) + 176,160,768 SwiGLU weights
    assert c.blocks == 2 * 32 * (41_943_040 + 176_160_768) == 13_958_643_712
    assert c.head == 2 * 4096 * 128_256 == 1_050_673_152
    # grouped-query attention does not cut the score FLOPs: all 32 query heads attend
    assert c.attention_per_key == 4 * 32 * 32 * 128


def test_block_flops_are_twice_the_matrix_weights_of_the_counter():
    gpt2 = count_params(GPT2)
    biases_and_norms = 12 * (4 * 768 + (3072 + 768) + 4 * 768)  # qkv+out biases, MLP biases, 2 LayerNorms
    assert token_costs(GPT2).blocks == 2 * (gpt2.blocks - biases_and_norms)
    llama = count_params(LLAMA)
    assert token_costs(LLAMA).blocks == 2 * (llama.blocks - 32 * 8192)  # minus the RMSNorm scales


def test_attention_sums_over_a_causal_sequence():
    T = 1024
    f = forward_flops(GPT2, T)
    assert f.attention == 36_864 * sum(range(1, T + 1))
    assert f.blocks == T * 169_869_312 and f.head == T * 77_194_752 and f.input == T * 768
    assert f.total == f.input + f.blocks + f.attention + f.head
    last = forward_flops(GPT2, T, logits="last")
    assert last.head == 77_194_752 and last.blocks == f.blocks


def test_head_share_training_against_generation():
    train = forward_flops(GPT2, 1024, logits="all")
    prompt = forward_flops(GPT2, 1024, logits="last")
    assert 0.28 < train.share("head") < 0.30  # GPT-2 small: over a quarter of a training pass
    assert prompt.share("head") < 0.001
    llama = forward_flops(LLAMA, 8192)
    assert 0.06 < llama.share("head") < 0.08


def test_training_is_three_forwards_and_close_to_6n():
    t = training_flops(LLAMA, 2048)
    f = forward_flops(LLAMA, 2048)
    assert t.total == 3 * f.total
    n = count_params(LLAMA)
    # without attention, training per token is exactly 6 x the matmul parameters: blocks' matrices and the head
    matmul_params = n.total - n.token_embedding - 32 * 8192 - n.final_norm
    assert (t.total - t.attention) // t.tokens == 6 * matmul_params
    # the 525M input table is in N but costs no FLOPs: 6N overshoots by about 6 x 525M per token
    assert 6 * n.total - (t.total - t.attention) // t.tokens == 6 * (n.token_embedding + 32 * 8192 + n.final_norm)


def test_decode_step_is_one_token_of_the_forward_pass():
    step = decode_step_flops(LLAMA, 8192)
    c = token_costs(LLAMA)
    assert step.total == c.blocks + c.head + 8192 * c.attention_per_key
    # summing the steps of a whole sequence gives the forward pass over it
    T = 50
    assert sum(decode_step_flops(GPT2, t).total for t in range(1, T + 1)) == forward_flops(GPT2, T).total


@pytest.mark.parametrize("name", available_models())
def test_every_shipped_model_costs_about_2n_per_token(name):
    config = load_config(name)
    n = count_params(config)
    c = token_costs(config)
    per_token = c.input + c.blocks + c.head
    # the parameters a token multiplies: the active ones (every one for a dense model), not the tables it looks up
    used = n.active - n.token_embedding - n.position_embedding + (n.token_embedding if n.tied else 0)
    assert 0.95 < per_token / (2 * used) < 1.01, name


def test_a_mixture_of_experts_costs_what_a_token_uses():
    # Mixtral: per layer the attention (as Mistral's), the router (4,096 x 8) and 2 of the 8 experts
    c = token_costs(load_config("mixtral-8x7b"))
    assert c.blocks == 2 * 32 * (41_943_040 + 4096 * 8 + 2 * 3 * 4096 * 14_336)
    n = count_params(load_config("mixtral-8x7b"))
    assert c.blocks + c.head < 2 * n.active < 2 * n.total / 3  # a third of the stored weights, or less
    # DeepSeek-V3: 3 dense layers, 58 with a router, one shared and 8 routed experts of width 2,048
    v3 = token_costs(load_config("deepseek-v3"))
    d, h = 7168, 128
    attention = d * 1536 + 1536 * h * 192 + d * 576 + 512 * h * 256 + h * 128 * d
    assert v3.blocks == 2 * (3 * (attention + 3 * d * 18_432) + 58 * (attention + d * 256 + 9 * 3 * d * 2048))
    # latent attention: 192 numbers per head for a score, 128 per head for the weighted value
    assert v3.attention_per_key == 61 * 2 * h * (192 + 128)


def test_rule_of_thumb():
    assert rule_of_thumb_flops(124_439_808) == 6 * 124_439_808
    assert rule_of_thumb_flops(10, tokens=3, training=False) == 60


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: forward_flops(GPT2, 0), "seq_len"),
        (lambda: forward_flops(GPT2, 2.5), "seq_len"),
        (lambda: forward_flops(GPT2, 8, logits="first"), "logits"),
        (lambda: decode_step_flops(GPT2, -1), "context"),
        (lambda: forward_flops({**GPT2, "n_embd": -768}, 8), "n_embd"),
        (lambda: forward_flops(GPT2, 8).share("lookup"), "part"),
        (lambda: rule_of_thumb_flops(0), "n_params"),
        (lambda: rule_of_thumb_flops(10, tokens=True), "tokens"),
        (lambda: rule_of_thumb_flops(10, training="yes"), "training"),
        (lambda: break_even_ratio(GPT2, GPT2, 0), "n_tokens"),
    ],
)
def test_bad_input_names_the_field(call, field):
    with pytest.raises(ValueError, match=field):
        call()


def test_break_even_ratio_for_the_vocabulary_example():
    base = load_config("llama-3.2-1b")
    small, big = {**base, "vocab_size": 50_000}, {**base, "vocab_size": 256_000}
    blocks = 1_946_157_056  # 2 x 16 layers x (10,485,760 attention + 50,331,648 MLP weights)
    assert token_costs(small).blocks == blocks
    r = break_even_ratio(small, big)
    assert r == (blocks + 2 * 2048 * 50_000) / (blocks + 2 * 2048 * 256_000)
    # with attention over a 1,500-token text: the token count just below r·n is cheaper, just above is dearer
    n = 1500
    r_text = break_even_ratio(small, big, n)
    target = forward_flops(small, n).total
    assert forward_flops(big, int(r_text * n)).total <= target < forward_flops(big, int(r_text * n) + 1).total
    assert r < r_text < 1  # attention does not grow with V, so it dilutes the bigger head
    assert break_even_ratio(small, small, n) == pytest.approx(1.0)


def test_lesson_08_break_even_with_attention_stays_inside_gpt2s_context():
    """break_even_ratio with attention over a text GPT-2 small can read, at most 1,024 tokens, at both widths."""
    pairs = {name: [{**load_config(name), "vocab_size": V} for V in (50_257, 100_277)]
             for name in ("gpt2", "llama-3.2-1b")}
    assert GPT2["n_positions"] == 1024
    assert round(break_even_ratio(*pairs["gpt2"]), 3) == 0.763
    assert round(break_even_ratio(*pairs["gpt2"], 1024), 3) == 0.785
    assert round(break_even_ratio(*pairs["llama-3.2-1b"], 1024), 3) == 0.918


def test_a_tied_heads_flops_share_is_the_tables_parameter_share_but_for_the_norms():
    """Lesson 08: 35.0% of the parameters and 35.0% of the matmul FLOPs, for one reason (the tied head is
    E at 2 FLOPs per entry, the blocks 2 per weight); only the 67,584 norm parameters part them."""
    big = {**load_config("llama-3.2-1b"), "vocab_size": 256_000}
    n, c = count_params(big), token_costs(big)
    norms = n.total - n.token_embedding - c.blocks // 2
    assert norms == 16 * 2 * 2048 + 2048 == 67_584
    assert c.head / (c.blocks + c.head) == n.token_embedding / (n.token_embedding + n.total - n.token_embedding - norms)
    assert round(n.embedding_share, 6) == 0.350124 and round(c.head / (c.blocks + c.head), 6) == 0.350140
