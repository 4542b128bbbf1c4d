"""Every class-mode key that counts a real model's parameters is the course's exact counter's count.

A lesson draws its class variants' models from pools (lists of shipped configs). A key computed
from a model by a formula (n_new · d · 2, 12d² + 13d, V · d) is right only for the models the formula
fits: OPT-350M's table is word_embed_proj_dim = 512 wide, not hidden_size; Phi's head has a bias.
So, for every model every pool can draw, each key that counts parameters is checked here against
`count_params` (or `calculate`, which counts a config with one size changed). The key is the
question module's `answers`, which each lesson's tests/test_variants_lNN.py ties to its solution.

A pool of models this file does not know fails the last test: a new pool is checked here, or named
with what its questions compute instead of a parameter count.
"""

import importlib

import pytest

from embedlab.calculator import calculate
from embedlab.params import available_models, count_params, family, load_config, model_shape


def module(number: str):
    return importlib.import_module(f"embedlab.grading.questions.l{number}")


def counts(model: str):
    return count_params(load_config(model))


def one_block(model: str):
    (layers, block), = counts(model).groups  # a dense model: one kind of block
    return block


def head_weights(model: str) -> int:
    """The head's weight matrix (its bias left out): the input table when tied."""
    c, s = counts(model), model_shape(load_config(model))
    if c.tied:
        return c.token_embedding
    return c.lm_head - (s.vocab_size if family(c.model_type).head_bias else 0)


def answers_with(number: str, **changes) -> dict:
    m = module(number)
    return m.answers(dict(m.DEFAULTS, **changes))


# (lesson, pool constant, parameter it fills) -> {key: the exact count for model m}
CHECKED = {
    ("01", "MODELS", "model"): {"model_table": lambda m: counts(m).token_embedding},
    ("03", "BLOCK_MODELS", "block_model"): {"block_params": lambda m: one_block(m).total},
    ("03", "SHARE_MODELS", "share_model"): {
        "embedding_share": lambda m: counts(m).token_embedding / counts(m).total},
    ("03", "GAP_MODELS", "gap_model"): {"estimate_gap": lambda m: counts(m).total - (
        model_shape(load_config(m)).vocab_size * model_shape(load_config(m)).hidden_size
        + 12 * model_shape(load_config(m)).num_layers * model_shape(load_config(m)).hidden_size ** 2)},
    ("04", "ATTN_MODELS", "attn_model"): {"attn_layer": lambda m: one_block(m).attention},
    ("04", "MLP_MODELS", "mlp_model"): {"mlp_layer": lambda m: one_block(m).mlp},
    ("04", "SHARE_MODELS", "share_model"): {
        "vocab_share": lambda m: (counts(m).token_embedding + counts(m).lm_head) / counts(m).total},
    ("05", "UNTIED", "untied_model"): {"tied_count": lambda m: calculate(m, tied=True).total},
    ("05", "TIED", "tied_model"): {  # a state dict lists the tied table twice: as E and as the head
        "state_dict_sum": lambda m: counts(m).total + counts(m).token_embedding},
    ("06", "HEAD_MODELS", "head_model"): {"head_flops": lambda m: 2 * head_weights(m)},
    ("06", "MODELS", "model"): {"kaplan_n": lambda m: counts(m).non_embedding},
    # the second looks' models (never a variant): GPT-2 and OPT bring a position table and a tied head
    ("06", "LOOK_MODELS", "model"): {"kaplan_n": lambda m: counts(m).non_embedding},
    ("06", "MOE_MODELS", "moe_model"): {"active_params": lambda m: counts(m).active},
    ("07", "WEIGHTS_MODELS", "weights_model"): {"weights_gb_4bit": lambda m: counts(m).total * 0.5 / 1e9},
    ("07", "ADAM_MODELS", "adam_model"): {"adam_parts": lambda m: [2 * counts(m).total, 2 * counts(m).total,
                                                                   4 * counts(m).total, 8 * counts(m).total]},
}

# Pools whose questions compute no parameter count of the drawn model (checked elsewhere).
NOT_COUNTS = {
    ("02", "MODELS"): "its V and d are copied into the parameters cell (test_lesson_02_table_is_the_models below)",
    ("04", "PAD_MODELS"): "drawn as PAD_CASES (test_padding_params_is_the_counters_difference below)",
    ("06", "SHARE_MODELS"): "the head's share of a pass's FLOPs (embedlab.compute), not a count",
    ("07", "GQA"): "key/value cache widths (h_kv · head_dim), not parameters",
    ("07", "CACHE_MODELS"): "key/value cache bytes, not parameters",
    ("07", "GQA_MODELS"): "key/value cache bytes, not parameters",
    ("07", "SERVE_MODELS"): "serving memory, read from N = count_params(config).total (shape()['N'])",
    ("08", "MODELS"): "a hypothetical table on the model's blocks: rest (test_lesson_08_rest_is_the_counters below)",
    ("10", "VOCAB_MODELS"): "rows of padding (a count of rows, not of parameters)",
    ("12", "VOCAB_MODELS"): "question 1 (test_lesson_12_added_params_is_the_counters_difference below)",
}


@pytest.mark.parametrize("where", sorted(CHECKED))
def test_every_count_key_of_every_pool_model_is_the_exact_counters(where):
    number, pool, name = where
    m = module(number)
    for model in getattr(m, pool):
        got = answers_with(number, **{name: model})
        for key, exact in CHECKED[where].items():
            want = exact(model)
            assert list(map(float, got[key] if hasattr(got[key], "__len__") else [got[key]])) == \
                list(map(float, want if isinstance(want, list) else [want])), (number, key, model, got[key], want)


def test_lesson_02_table_is_the_models():
    m = module("02")
    for model in m.MODELS:
        s = model_shape(load_config(model))
        assert s.vocab_size * s.hidden_size == counts(model).token_embedding, model


def test_lesson_08_rest_is_the_counters():
    m = module("08")
    for model in m.MODELS:
        assert m.model_figures(model)[:2] == (model_shape(load_config(model)).hidden_size,
                                               counts(model).non_embedding), model


def test_padding_params_is_the_counters_difference():
    m = module("04")
    for model, multiple in m.PAD_CASES:
        V = model_shape(load_config(model)).vocab_size
        got = answers_with("04", pad_model=model, pad_multiple=multiple)["padding_params"]
        assert got == calculate(model, vocab_size=m.padded(V, multiple)).total - counts(model).total, model


def test_lesson_12_added_params_is_the_counters_difference():
    """Every model the pool can draw and every n_new: OPT-350M's 512-wide table and Phi's head bias included."""
    m = module("12")
    assert {"opt-350m", "phi-1.5", "phi-2"} <= set(m.VOCAB_MODELS)
    for model in m.VOCAB_MODELS:
        before = counts(model).total
        for n_new in m.N_NEW:
            p = dict(m.DEFAULTS, vocab_model=model, n_new=n_new)
            assert m.added_params(p) == calculate(model, vocab_size=m.grown_rows(p)).total - before, (model, n_new)
    p = dict(m.DEFAULTS, vocab_model="phi-2", n_new=3)  # a head bias: 2d + 1 per new token, untied
    rows = m.grown_rows(p) - model_shape(load_config("phi-2")).vocab_size
    assert m.added_params(p) == rows * (2 * 2560 + 1)
    p = dict(m.DEFAULTS, vocab_model="opt-350m", n_new=3)  # tied, its table 512 wide: 512 per new row
    assert m.added_params(p) == (m.grown_rows(p) - model_shape(load_config("opt-350m")).vocab_size) * 512


def test_every_pool_of_shipped_models_is_checked_or_named():
    shipped = set(available_models())
    found = set()
    for number in [f"{i:02d}" for i in range(1, 13)]:
        m = module(number)
        for attr, value in vars(m).items():
            if attr.isupper() and isinstance(value, list) and value and all(isinstance(v, str) for v in value) \
                    and set(value) <= shipped:
                found.add((number, attr))
    checked = {(number, pool) for number, pool, _ in CHECKED}
    assert found == checked | set(NOT_COUNTS), found ^ (checked | set(NOT_COUNTS))
