"""Blind corpus 19's misleading, garbled and revealing hints of lessons 05-11 (fix19b), planted as new instances
(other code, other values, other questions than the corpus's), each with a near-miss that keeps its story:

1. An array of nans is never "off by the same factor" (a nan factor is "close" to nan entries): the entries that
   differ are said, and that they are nan there (measured, no cause).
2. A nan's list of causes names an overflow too (a value too large for its float type is inf; inf / inf is nan).
3. Two explanations one of which is itself two slips ("X; and Y") are never shown framed as "put right the one [slip]
   you made": a slip both share is said once, then the one slip more; none shared, a frame for explanations.
4. A design over budget whose one-field fix is the worked solution's design says the field to change, never the
   value (that would be the answer whole); a fix that is not the solution's design keeps its value.
5. A wrong value equal to another answer of 3 digits or fewer (0.54) is named as that answer only where the cell
   reads that answer's name; a longer one (matched to 1e-9) or one the cell reads still is.
6. A typed rounded input ("you typed 8,000,000,000 where N is …") is put back to its exact value in the learner's
   own lines (read as arithmetic on the book's inputs): where that gives the same value, the typed number is not
   the slip and is not named; where it gives another value, not the answer, "one slip more" is said with it; where
   it gives the answer, the story alone.
7. count_unique's "shared storages still counted more than once" only where the value is the right count plus
   some repeats' sizes; a value too big by no such sum gets the measured words.

Each planted instance was red at 2cf0e28 (the near-misses green there and here), green here.
"""

from __future__ import annotations

import dataclasses

from solution_runner import incorrect_detail


_verdict = incorrect_detail  # tests/solution_runner.py


# 1. nan entries: no factor -------------------------------------------------------------------------------------


def test_1_an_array_of_nans_is_not_off_by_a_factor():
    from embedlab.grading import diagnose

    got = [float("nan")] * 3
    import numpy as np

    def close(a, b):
        return np.isclose(a, b, equal_nan=True)

    words = diagnose.array_hint(np.array(got), np.array([0.5, 0.25, 2.0]), close)
    assert "same factor" not in words, words
    assert "nan" in words and "3 of 3 values differ" in words, words


def test_1_a_cosine_of_a_zero_vector_in_a_function_is_said_nan_not_scaled():
    source = ("def unused_score(M, reference_ids):\n    M = np.asarray(M, float)\n"
              "    mean = M[list(reference_ids)].mean(axis=0) * 0.0\n"
              "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n")
    detail = _verdict("10-glitch-tokens", "unused_score", source)
    assert "same factor" not in detail and "normalisation missing" not in detail, detail
    assert "nan" in detail, detail


def test_1_near_miss_a_real_factor_is_still_said():
    import numpy as np

    from embedlab.grading import diagnose

    words = diagnose.array_hint(np.array([1.0, 0.5, 4.0]), np.array([0.5, 0.25, 2.0]),
                                lambda a, b: np.isclose(a, b))
    assert "every value" in words and ("2" in words or "twice" in words or "double" in words), words


# 2. nan from an overflow -------------------------------------------------------------------------------------


def test_2_a_nan_from_an_overflow_names_the_overflow():
    source = ("a = np.float16(70000.0)\n"
              "weights_gb_4bit = float(a - a)\n")
    detail = _verdict("07-memory", "weights_gb_4bit", source)
    assert "nan" in detail and "overflow" in detail, detail


# 3. two explanations, one of two slips ------------------------------------------------------------------------


def test_3_compound_alternatives_are_not_framed_as_one_slip():
    from embedlab.grading import parts

    shared = parts.worded(parts.either("the bias counted twice; and the head left out",
                                       "the bias counted twice; and d for V"))
    assert "put right the one you made" not in shared, shared
    assert shared.startswith("the bias counted twice; and one slip more"), shared
    apart = parts.worded(parts.either("the bias counted twice; and the head left out", "the norm left out"))
    assert "put right the one you made" not in apart and apart.startswith(parts.TWO_WAYS_LEAD), apart


def test_3_a_design_figure_of_two_compound_explanations_is_not_framed_as_one_slip():
    from embedlab.grading import parts

    source = ("design_serving_gb = serving_memory(design, weights='fp32', context=BUDGET.context,\n"
              "    batch=BUDGET.batch, kv='int4')['total'] / GB\n")
    detail = _verdict("11-size-a-model", "design_serving_gb", source)
    assert not detail.startswith(parts.TWO_SLIPS), detail


def test_3_near_miss_two_single_slips_keep_their_frame():
    from embedlab.grading import parts

    words = parts.worded(parts.either("the head left out", "the norm left out"))
    assert words.startswith(parts.EITHER_LEAD), words


# 4. a one-field fix that is the solution's design ---------------------------------------------------------------


def test_4_a_fix_that_makes_the_solution_design_is_said_without_its_value():
    detail = _verdict("11-size-a-model", "design", "design = llama_config(32000, 1024, 80, 16, 4, 4096, True)\n")
    assert "num_layers = 30" not in detail, detail
    assert "a smaller num_layers" in detail, detail


def test_4_near_miss_a_fix_that_is_not_the_solution_design_keeps_its_value():
    detail = _verdict("11-size-a-model", "design", "design = llama_config(32000, 1024, 80, 16, 8, 4096, True)\n")
    assert "num_layers = " in detail and "a smaller" not in detail, detail


# 5. another answer's value met by chance ------------------------------------------------------------------------


def _real(lesson: str, name: str, source: str, others: dict):
    import importlib

    module = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")
    q = next(q for q in module.questions(module.SPACE.defaults) if q.name == name)
    return dataclasses.replace(q, source=source, others=others)


def test_5_a_short_value_met_by_chance_is_not_named_as_another_answer():
    q = _real("06-params-vs-compute", "head_share_prompt", "head_share_prompt = round(c.head / c.blocks, 2)\n",
              {"other_share": 0.37})
    assert q._other_answer(0.37, 0.1234) == ""


def test_5_near_miss_a_short_value_the_cell_reads_is_named():
    q = _real("06-params-vs-compute", "head_share_prompt", "head_share_prompt = other_share\n",
              {"other_share": 0.37})
    assert "`other_share`" in q._other_answer(0.37, 0.1234)


def test_5_near_miss_a_long_value_is_named():
    q = _real("06-params-vs-compute", "head_share_prompt", "head_share_prompt = c.head / c.blocks\n",
              {"other_share": 0.3712345678})
    assert "`other_share`" in q._other_answer(0.3712345678, 0.1234)


# 6. a typed input that is not the slip --------------------------------------------------------------------------


def test_6_a_typed_input_that_changes_nothing_is_not_named():
    detail = _verdict("07-memory", "max_batch", "max_batch = int((memory - 8e9 * 2) // per_sequence) + 1\n")
    assert "you typed 8,000,000,000" not in detail, detail


def test_6_near_miss_a_typed_input_that_is_the_slip_keeps_its_story():
    detail = _verdict("07-memory", "weights_gb_4bit", "weights_gb_4bit = 8.03e9 * 0.5 / 1e9\n")
    assert "you typed 8,030,000,000" in detail and "one slip more" not in detail, detail


def test_6_a_typed_input_with_a_second_slip_says_one_more():
    detail = _verdict("07-memory", "weights_gb_4bit", "weights_gb_4bit = 8.03e9 * 0.5 / 1e6\n")
    assert "you typed 8,030,000,000" in detail, detail
    assert "one slip more" in detail or "; and " in detail, detail


# 7. count_unique: repeats counted, proven ----------------------------------------------------------------------


def test_7_too_big_by_no_repeats_sizes_is_said_as_measured():
    source = ("def count_unique(storage, sizes):\n    storage, sizes = np.asarray(storage), np.asarray(sizes)\n"
              "    u, idx = np.unique(storage, return_index=True)\n    return int(sizes[::-1][idx].sum())\n")
    detail = _verdict("05-weight-tying", "count_unique", source)
    assert "counted more than once" not in detail, detail


def test_7_near_miss_repeats_of_one_storage_only_removed_keep_the_story():
    source = ("def count_unique(storage, sizes):\n    storage, sizes = np.asarray(storage), np.asarray(sizes)\n"
              "    if len(storage) == 0:\n        return 0\n    keep = storage != storage[0]\n"
              "    keep[0] = True\n    return int(sizes[keep].sum())\n")
    detail = _verdict("05-weight-tying", "count_unique", source)
    assert "counted more than once" in detail, detail
