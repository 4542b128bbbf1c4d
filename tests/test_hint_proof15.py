"""Kinds of misleading or generic hints the newcomers' own wrong answers showed that no earlier round attempted
(issue 46, hints19); each planted here as a NEW instance (another question or lesson, another code style than the
newcomer's row), and each seen red before its mechanism (embedlab.grading.counterfactual and the kernel's undo
edits and solution steps):

(a) a factor or symbol the learner's code uses right, blamed through a coincidence of values: a piece of the
    learner's expression where a name the given lines define belongs is named as that piece (proven on the
    book's inputs and on inputs that part the coincidence), and a factor the answer lacks is named as that factor,
    never as "h where h_kv" or "V_small where V_big" or two slips at once; a factor whose removal fits the book's
    inputs only is never named;
(b) rounding in the wrong place (each term rounded, then combined) is said as such, never "round down";
(c) a 0 (or a far-off value) from one operation on two sides in different units (GB against bytes) is said as
    units mixed in that operation, never two slips the learner did not make; a term that merely vanishes when
    scaled is not units;
(d) "right for these inputs only" where the learner's lines leave out a term that is 0 on the book's inputs
    names the term (proven: the solution with that term 0 gives the learner's value on the look);
(e) a number typed that fits the book's inputs only is pointed at, with the number that fits the look; the look's
    words list only the parameters the answer depends on (a `print` makes no parameter an input of later answers);
(f) a difference where a ratio is asked (or the reverse) is said as such, never "the sign is wrong";
(g) a step short of the end is found from the solution's own steps (no question declares it), and an array of ids
    is found from the solution's own code (no `ids=True` needed): never "too big" for ids.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from embedlab.grading import code
from embedlab.grading.lessons import questions_for
from embedlab.grading.text import hint_problems

from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines

L02, L03, L06, L07, L08, L10 = ("02-lookup-vs-matmul", "03-counting-gpt2", "06-params-vs-compute", "07-memory",
                                "08-vocabulary-size", "10-glitch-tokens")


# --------------------------------------------------------------------------
# (a) a coincidence of values never blames what the code does right


def test_a_a_given_name_recomputed_wrongly_is_named_not_the_query_heads():
    # question 6 (not question 3): the cache per sequence made again with d // h_kv for head_dim; on Llama-3-8B
    # h_kv · (d / h_kv) = h · head_dim, so the value is exactly "every query head cached"
    source = ("per_seq = 2 * L * h_kv * (config['hidden_size'] // h_kv) * BYTES[cache_precision] * serve_context\n"
              "max_batch = int((memory - weights) // per_seq)\n")
    detail = _detail(L07, "max_batch", source)
    assert "`config['hidden_size'] // h_kv` is not `head_dim`" in detail, detail
    assert "query heads" not in detail and "not all" not in detail, detail


def test_a_a_factor_of_another_lesson_is_named_not_a_swapped_size():
    # lesson 08: the share multiplied by V_big / V_small is exactly "V_small where V_big belongs" on the book's
    # numbers; the code reads both where they belong, and the factor is what it adds
    detail = _detail(L08, "embedding_share", "embedding_share = table / (table + rest) * (V_big / V_small)\n")
    assert "multiplies by `V_big / V_small`" in detail and "a factor the question does not have" in detail, detail
    assert "where `V_big` belongs" not in detail, detail


def test_a_a_context_multiplied_in_by_name_is_that_factor():
    # the context read by name (not typed) where one token is asked
    source = "kv_bytes_per_token = int(2 * L * h_kv * head_dim * BYTES_PER_PARAM[cache_precision] * gqa_context)\n"
    detail = _detail(L07, "kv_bytes_per_token", source)
    assert "multiplies by `gqa_context`" in detail, detail
    assert "MiB" not in detail and "has no head_dim" not in detail, detail


def test_a_a_factor_whose_removal_fits_the_book_only_is_not_named():
    # L · L / 7 is h_kv · L on Qwen2.5-7B only (L = 28, h_kv = 4): without the 8192 the cell is right there and
    # nowhere else, so the 8192 is not proven to be the slip
    source = "kv_bytes_per_token = int(2 * L * L * head_dim * BYTES_PER_PARAM[cache_precision] / 7 * 8192)\n"
    detail = _detail(L07, "kv_bytes_per_token", source)
    assert "8192" not in detail and "a factor the question does not have" not in detail, detail


# --------------------------------------------------------------------------
# (b) rounding in the wrong place


def test_b_floor_division_of_each_term_is_rounding_in_the_wrong_place():
    detail = _detail(L07, "max_batch", "max_batch = int(memory // per_sequence - weights // per_sequence)\n")
    assert "rounds 3 times, each piece before they are combined" in detail, detail
    assert not detail.startswith("round down"), detail


def test_b_rounding_twice_is_not_blamed_when_rounding_once_is_still_wrong():
    source = "max_batch = int(memory // per_sequence) - int(weights // per_sequence) + 1\n"
    detail = _detail(L07, "max_batch", source)
    assert "each piece before they are combined" not in detail, detail


# --------------------------------------------------------------------------
# (c) units mixed in one operation


def test_c_gb_against_mb_in_one_division_is_units_mixed():
    # GB left over divided by a cache in millions of bytes (a factor of 1,000, not the newcomer's 10**9)
    source = "max_batch = int((gpu_gb - weights / 1e9) / (per_sequence / 1e6))\n"
    detail = _detail(L07, "max_batch", source)
    assert "mixes units" in detail and "1000" in detail, detail
    assert "two slips" not in detail and "upside down" not in detail, detail


def test_c_a_term_that_only_vanishes_when_scaled_is_not_units():
    # a position table added to the token table: scaled by 10**-12 it is gone, as left out it is: not units
    source = ("shape = model_shape(load_config(model))\nconfig = load_config(model)\n"
              "model_table = shape.vocab_size * shape.hidden_size + config['n_positions'] * shape.hidden_size\n")
    detail = _detail("01-toy-table", "model_table", source)
    assert "mixes units" not in detail, detail


# --------------------------------------------------------------------------
# (d) a term that is 0 on the book's inputs, left out


def test_d_a_term_zero_for_the_book_model_is_named_on_the_look():
    # the newcomer's `total - token_embedding - lm_head`, written as one subtraction of a sum
    detail = _detail(L06, "kaplan_n", "kaplan_n = counts.total - (counts.token_embedding + counts.lm_head)\n")
    assert "right for these inputs only" in detail, detail
    assert "leave out `counts.position_embedding`" in detail and "0 on your inputs" in detail, detail
    assert "compute it from the inputs the question names" not in detail, detail


def test_d_a_term_named_only_when_the_solution_without_it_is_the_learners_value_there():
    from embedlab.grading import counterfactual

    # planted: a question whose look leaves the learner 2 off the answer, where the term that is 0 on the book
    # is worth more: the term is not named
    q = next(q for q in questions_for(L06) if q.name == "kaplan_n")
    q = dataclasses.replace(q, source="kaplan_n = counts.total - (counts.token_embedding + counts.lm_head)\n",
                            lesson=L06)
    params = {"model": "gpt2", "head_model": "gpt2"}
    env = counterfactual._look_env(q, params)
    solved = code.solution_source(L06, "kaplan_n")
    want = next(code.evaluate(solved, "kaplan_n", e) for e in env if code.evaluate(solved, "kaplan_n", e))
    got = next(code.evaluate(q.source, "kaplan_n", e) for e in env if code.evaluate(q.source, "kaplan_n", e))
    assert counterfactual.term_left_out_there(q, got, want, params) is not None
    assert counterfactual.term_left_out_there(q, got + 2, want, params) is None


# --------------------------------------------------------------------------
# (e) a number typed for the book's inputs, and the parameters the look names


def test_e_a_typed_ratio_is_pointed_at_with_the_number_that_fits_the_look():
    # the saving as the grouped cache times 3 (h / h_kv − 1 on Llama-3-8B): another form than `mha = gqa * 4`
    source = ("b = BYTES_PER_PARAM[cache_precision]\ngrouped = 2 * L * h_kv * head_dim * b * context\n"
              "gqa_saving_gib = grouped * 3 / 2**30\n")
    detail = _detail(L07, "gqa_saving_gib", source)
    assert "The 3 your lines type (in `grouped * 3 / 2**30`) fits your inputs only" in detail, detail
    assert "`cache_model`" not in detail, detail


def test_e_a_parameter_only_printed_is_no_input_of_later_answers():
    foreign = code.foreign_inputs(L07)
    assert "cache_model" in foreign["gqa_saving_gib"] and "cache_model" in foreign["max_batch"]
    assert "cache_model" not in foreign["kv_bytes_per_token"]  # question 3's own cell reads it
    assert "gqa_model" not in foreign["gqa_saving_gib"]


# --------------------------------------------------------------------------
# (f) a difference where a ratio is asked, or the reverse


def test_f_a_difference_of_two_named_costs_is_a_difference_not_the_sign():
    source = ("def tpw(tok):\n    return sum(len(tok.encode(' ' + w)) * c for w, c in hindi.items()) / "
              "sum(hindi.values())\na = tpw(cl100k)\nb = tpw(gpt2)\nhindi_r = a - b\n")
    detail = _detail(L08, "hindi_r", source)
    assert "`a - b` is a difference: the question asks for a ratio (divide, do not subtract)" in detail, detail
    assert "sign" not in detail, detail


def test_f_a_ratio_where_a_difference_is_asked_is_named_under_a_unit():
    source = ("b = BYTES_PER_PARAM[cache_precision]\nfull = 2 * L * h * head_dim * b * context\n"
              "grouped = 2 * L * h_kv * head_dim * b * context\ngqa_saving_gib = (full / grouped) / 2**30\n")
    detail = _detail(L07, "gqa_saving_gib", source)
    assert "`full / grouped` is a ratio: the question asks for a difference (subtract" in detail, detail


# --------------------------------------------------------------------------
# (g) a step short of the end, and ids, found for any question


def test_g_a_step_short_of_the_end_is_found_where_no_question_declares_it():
    # question 2 of lesson 02 declares no step: the ids themselves, before their rows are looked up
    detail = _detail(L02, "rows_lookup", "rows_lookup = np.array(ids)\n")
    assert "one step short of its end" in detail and "`E[…]`" in detail, detail


def test_g_the_one_hot_step_is_found_with_the_questions_own_hints_taken_away(monkeypatch):
    from embedlab.grading import lessons

    original = lessons.questions_for

    def bare(lesson, *args, **kwargs):
        out = original(lesson, *args, **kwargs)
        return [dataclasses.replace(q, hints=()) if q.name == "rows_matmul" else q for q in out]
    monkeypatch.setattr(lessons, "questions_for", bare)
    import embedlab.grading.exercise as exercise

    monkeypatch.setattr(exercise, "questions_for", bare, raising=False)
    source = "one_hot = np.zeros((len(ids), table_V))\none_hot[np.arange(len(ids)), ids] = 1\nrows_matmul = one_hot\n"
    detail = _detail(L02, "rows_matmul", source)
    assert "one step short of its end" in detail and "`… @ E`" in detail, detail


def test_g_ids_are_found_from_the_solutions_code_and_never_too_big():
    from embedlab.grading import counterfactual

    q = next(q for q in questions_for(L10) if q.name == "top7")
    undeclared = dataclasses.replace(q, ids=False, hints=(), source=None, lesson=L10)
    want = np.array([5, 9, 2, 7, 11, 3, 8])
    assert counterfactual.holds_ids(undeclared, want)
    verdict = undeclared.judge(undeclared.to_data(want + 3), undeclared.to_data(want))
    assert "too big" not in verdict.detail and "too small" not in verdict.detail, verdict.detail
    # a quantity's solution makes no ids: adam_parts keeps its direction words
    adam = next(q for q in questions_for(L07) if q.name == "adam_parts")
    assert not counterfactual.holds_ids(dataclasses.replace(adam, lesson=L07), np.array([2, 2, 4, 8]))


def test_every_hint_here_reads_as_written():
    for lesson, name, source in [
            (L07, "max_batch", "max_batch = int(memory // per_sequence - weights // per_sequence)\n"),
            (L07, "max_batch", "max_batch = int((gpu_gb - weights / 1e9) / (per_sequence / 1e6))\n"),
            (L08, "embedding_share", "embedding_share = table / (table + rest) * (V_big / V_small)\n")]:
        detail = _detail(lesson, name, source)
        assert not hint_problems(detail), (detail, hint_problems(detail))
