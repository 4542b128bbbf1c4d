"""Sizing a design against a job's budgets: the figures are the calculators' own, the reasons name the budget."""

import dataclasses

import pytest

from embedlab.compute import training_flops
from embedlab.memory import GB, kv_cache_bytes
from embedlab.params import count_params
from embedlab.sizing import Budget, digits_to_show_over, exact_text, deepest_fit, design_figures, headroom, llama_config, over_budget

# lesson 11's job and the lesson 08 team's design (256,000 tokens, d = 2048, tied)
JOB = Budget(max_params=1_500_000_000, max_serving_gb=8.0, context=8192, batch=16, max_train_flops=4e21,
             train_tokens=400_000_000_000, train_context=4096, min_vocab_size=128_000)
TEAM = llama_config(256_000, 2048, 16, 32, 8, 8192, True)


def test_team_design_figures_by_hand():
    f = design_figures(TEAM, JOB)
    assert f.params == 1_497_434_112 == count_params(TEAM).total
    assert f.non_embedding == f.params - 256_000 * 2048
    assert f.weights_gb == 2 * 1_497_434_112 / GB
    # 2 (k, v) x 16 layers x 8 kv heads x 64 dims x 2 bytes, for 16 x 8192 tokens
    assert f.kv_cache_gb == 2 * 16 * 8 * 64 * 2 * 8192 * 16 / GB == kv_cache_bytes(TEAM, 8192, 16) / GB
    assert f.serving_gb == pytest.approx(f.weights_gb + f.kv_cache_gb, rel=1e-12)
    assert f.train_flops == training_flops(TEAM, 4096).total * (400_000_000_000 // 4096)
    assert f.train_flops_6nd == 6 * 1_497_434_112 * 400_000_000_000
    assert f.train_flops > f.train_flops_6nd  # attention over the context is not in 6·N·D
    assert over_budget(TEAM, JOB) == []
    assert all(0 < used <= 1 for used in headroom(f, JOB).values())


def test_six_n_d_counts_the_weights_a_token_multiplies():
    """6·N·D with lesson 06's N_mult: an untied input table (looked up) and a position table (added) are
    left out, a tied table (also the head) kept; so 2·N_mult is a token's forward matmul FLOPs (to 0.1%)."""
    from embedlab.compute import token_costs
    from embedlab.params import load_config
    designs = [TEAM, {**TEAM, "tie_word_embeddings": False}] + [
        load_config(name) for name in ("gpt2", "llama-3-8b", "mixtral-8x7b", "opt-350m", "phi-2")]
    for config in designs:
        n, c = count_params(config), token_costs(config)
        n_mult = n.active - (0 if n.tied else n.token_embedding) - n.position_embedding
        f = design_figures(config, JOB)
        assert f.train_flops_6nd == 6 * n_mult * JOB.train_tokens, config.get("_name", config)
        assert abs(2 * n_mult / (c.input + c.blocks + c.head) - 1) < 1e-3, config.get("_name", config)
    untied = design_figures({**TEAM, "tie_word_embeddings": False}, JOB)
    assert untied.train_flops_6nd == design_figures(TEAM, JOB).train_flops_6nd  # the head's matmul either way


def test_each_budget_gives_its_reason():
    untied = {**TEAM, "tie_word_embeddings": False}
    assert [r.split(":")[0] for r in over_budget(untied, JOB)] == ["parameters", "memory"]
    mha = {**TEAM, "num_key_value_heads": 32}
    reasons = over_budget(mha, JOB)
    assert reasons[1] == "memory: 3.20 GB weights + 17.18 GB KV cache = 20.38 GB > 8 GB"
    assert reasons[2].startswith("compute: ")
    long = dataclasses.replace(JOB, train_context=8192)
    assert over_budget(TEAM, long) == ["compute: 4.24e+21 FLOPs > 4e+21"]
    small_vocab = llama_config(64_000, 2560, 14, 40, 8, 10_240, True)
    assert over_budget(small_vocab, JOB) == ["vocabulary too small: V = 64,000 < 128,000"]


def test_a_config_the_calculators_cannot_count_is_a_reason_not_a_crash():
    bad = {**TEAM, "num_key_value_heads": 3}
    (reason,) = over_budget(bad, JOB)
    assert reason.startswith("not a model the calculators can count") and "num_key_value_heads=3" in reason
    assert over_budget({"model_type": "bert"}, JOB)[0].startswith("not a model")


@pytest.mark.parametrize("field, value", [("max_params", 0), ("batch", -1), ("context", 1.5),
                                          ("max_serving_gb", 0), ("weights", "fp6"), ("train_tokens", 1000)])
def test_budget_rejects_bad_fields_by_name(field, value):
    with pytest.raises(ValueError, match=field):
        dataclasses.replace(JOB, **{field: value})


def test_llama_config_is_validated():
    with pytest.raises(ValueError, match="num_key_value_heads=5"):
        llama_config(32_000, 1024, 4, 16, 5, 4096, True)
    with pytest.raises(ValueError, match="vocab_size"):
        llama_config(0, 1024, 4, 16, 4, 4096, True)


# --------------------------------------------------------------------------
# Budget messages print enough digits to be over the budget in print too


def _printed(reason):
    """The figure and the budget as printed at the end of a reason: '... = 0.5004 GB > 0.5 GB'."""
    left, right = reason.rsplit(" > ", 1)
    figure = left.split()[-2] if left.endswith("GB") else left.split()[-2]
    return float(figure), float(right.split()[0])


@pytest.mark.parametrize("excess", [1e-3, 1e-6, 1e-9, 1e-12])
def test_a_design_just_over_budget_prints_as_over(excess):
    f = design_figures(TEAM, JOB)
    tight = dataclasses.replace(JOB, max_serving_gb=round(f.serving_gb * (1 - excess), 15),
                                max_train_flops=f.train_flops * (1 - excess))
    memory, compute = over_budget(TEAM, tight)
    assert memory.startswith("memory: ") and compute.startswith("compute: ")
    for reason in (memory, compute):
        shown, limit = _printed(reason)
        assert shown > limit, reason


def test_no_figure_prints_as_equal_to_the_budget_it_breaks():
    # batch 3: the team design needs 3.8002 GB; at two places that would print "3.80 GB > 3.8 GB"
    three = dataclasses.replace(JOB, batch=3, max_serving_gb=3.8)
    assert design_figures(TEAM, three).serving_gb == pytest.approx(3.80017, abs=1e-5)
    (memory,) = over_budget(TEAM, three)
    assert memory.endswith("= 3.8002 GB > 3.8 GB"), memory
    # the same for FLOPs: 4.0004e21 against 4e21 needs five significant digits, not three
    assert f"{4.0004e21:.{digits_to_show_over(4.0004e21, 4e21)}g}" == "4.0004e+21"
    assert exact_text(0.5) == "0.5" and exact_text(8.0) == "8" and exact_text(4e21) == "4e+21"
    assert exact_text(0.123456789) == "0.123456789"  # never rounded: the budget is printed as written


# --------------------------------------------------------------------------
# The depth search backs off until every budget fits


def lesson_family(V, d, tied):
    return lambda L: llama_config(V, d, L, d // 64, 8, 4 * d, tied)


def test_depth_backs_off_from_the_parameter_budget_until_memory_fits():
    found = deepest_fit(lesson_family(128_000, 2048, True), JOB)
    assert found.layers_by_params == 20 and found.reasons[0].startswith("memory: ")
    assert found.layers == 19 and found.design == lesson_family(128_000, 2048, True)(19)
    assert over_budget(found.design, JOB) == []
    assert over_budget(lesson_family(128_000, 2048, True)(20), JOB) != []
    # it beats the best design that fits at the parameter budget's own depth (V 128,000, d 2,560, L 12, tied)
    assert (design_figures(found.design, JOB).non_embedding
            > design_figures(lesson_family(128_000, 2560, True)(12), JOB).non_embedding)


@pytest.mark.parametrize("V", [64_000, 128_000, 256_000])
@pytest.mark.parametrize("d", [1536, 2048, 2560])
@pytest.mark.parametrize("tied", [True, False])
def test_depth_search_agrees_with_trying_every_depth(V, d, tied):
    build = lesson_family(V, d, tied)
    every = [L for L in range(1, 61) if not over_budget(build(L), JOB)]
    found = deepest_fit(build, JOB)
    assert found.layers == (max(every) if every else 0)
    assert (found.design is None) == (not every)


def test_no_depth_fits_a_vocabulary_below_the_minimum():
    found = deepest_fit(lesson_family(64_000, 2560, True), JOB)
    assert found.layers == 0 and found.design is None
    assert found.reasons == ("vocabulary too small: V = 64,000 < 128,000",)


def test_depth_search_limits():
    huge = dataclasses.replace(JOB, max_params=10**12)
    with pytest.raises(ValueError, match="max_layers=8"):
        deepest_fit(lesson_family(128_000, 2048, True), huge, max_layers=8)
    with pytest.raises(ValueError, match="max_layers"):
        deepest_fit(lesson_family(128_000, 2048, True), JOB, max_layers=0)
    tiny = dataclasses.replace(JOB, max_params=1000)
    found = deepest_fit(lesson_family(128_000, 2048, True), tiny)
    assert found.layers_by_params == 0 and found.layers == 0 and found.reasons[0].startswith("parameters: ")


def test_a_mixture_of_experts_design_stores_every_expert_and_computes_with_the_active_ones():
    from embedlab.params import load_config
    mixtral = load_config("mixtral-8x7b")
    n = count_params(mixtral)
    f = design_figures(mixtral, JOB)
    assert f.params == n.total and f.weights_gb == 2 * n.total / GB
    # N_mult: the active weights, but the untied input table is only looked up
    assert f.train_flops_6nd == 6 * (n.active - n.token_embedding) * 400_000_000_000
    assert f.train_flops < 6 * n.total * 400_000_000_000 / 3  # the arithmetic follows the 12.9B, not the 46.7B


def test_lesson_11_freeing_h_kv_beats_the_grids_choice():
    """Lesson 11's grid keeps h_kv = 8; with h_kv = 4 memory stops binding and two designs beat its choice."""
    choice = llama_config(128_000, 2048, 19, 32, 8, 8192, True)
    same_width = llama_config(128_000, 2048, 20, 32, 4, 8192, True)
    narrower = llama_config(128_000, 1792, 27, 28, 4, 7168, True)
    assert design_figures(choice, JOB).non_embedding == 1_155_610_624
    assert over_budget(llama_config(128_000, 2048, 20, 32, 8, 8192, True), JOB)   # memory: why the choice is 19
    for design, non_embedding in ((same_width, 1_195_460_608), (narrower, 1_238_728_960)):
        assert not over_budget(design, JOB) and design_figures(design, JOB).non_embedding == non_embedding
    assert round(1_238_728_960 / 1_155_610_624 - 1, 3) == 0.072
    assert headroom(design_figures(narrower, JOB), JOB)["compute"] > 0.999   # compute binds instead


def test_lesson_11_cache_room_beside_the_weights():
    """The team's design keeps 1.188 times less cache per token, but its heavier weights leave less room:
    152,744 tokens of cache against 132,722, so its texts may be 15.1% longer (not 18.8%)."""
    choice = llama_config(128_000, 2048, 19, 32, 8, 8192, True)
    room = {name: (JOB.max_serving_gb * GB - design_figures(c, JOB).weights_gb * GB) / (2 * c["num_hidden_layers"] * 8 * 64 * 2)
            for name, c in (("ours", choice), ("theirs", TEAM))}
    assert (int(room["ours"]), int(room["theirs"])) == (132_722, 152_744)
    assert round(room["theirs"] / room["ours"] - 1, 3) == 0.151
    assert round(19 / 16 - 1, 3) == 0.188
