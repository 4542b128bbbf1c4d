"""The kinds judge15 found in the blind corpus heldout15 (issue 46: a hint names a mistake only when it can prove it),
each planted here as a NEW instance, in another question or lesson than the one reported:

(1) a swap ("you used X where Y belongs", "uses `X` where `Y` belongs", "your answer uses 1024 where T belongs") is a
    claim about the learner's lines: shown only when the swap undone there gives the answer on the book's inputs and
    on a second look (explain.swap_unproven, reached by every source through explain.refuted_by_cell);
(2) of several stories that give one value ("the first bias is d wide, and no LayerNorms" against "no MLP biases,
    and half the LayerNorms"), the one whose terms the learner's own lines write (explain.own_terms,
    parts.agreement); a story the lines contradict is not told, in a value's hint and in a function's;
(3) the generic kinds: an exact gap that is one named term of the model's count (the final norm) is named, for lines
    that read the count's terms; a two-slip frame is weighed on the lines (a factor they already multiply by, a
    measured gap beside a named part); a named answer's own hints are said for every entry they hold of.
"""

from __future__ import annotations

import numpy as np

from embedlab.grading import explain
from embedlab.grading.kinds import Array, Hint
from embedlab.grading.lessons import questions_for
from embedlab.grading.values import array_to_data
from hint_corpus import check_wrong
from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines


def _question(lesson, name, own):
    """The question with the answer cell as the notebook holds it: the exercise's given lines, then `own`."""
    question = next(q for q in questions_for(lesson) if q.name == name)
    prelude = check_wrong.exercise_prelude(lesson, name)
    return explain.with_source(question, prelude + "# YOUR CODE HERE\n" + own)


# --------------------------------------------------------------------------
# (1) a swap is proven on the learner's own lines


def test_1_a_swap_that_holds_by_the_books_sizes_only_is_withheld():
    # 4 FLOPs per weight and d where V belongs: 4·n·d·d = 2·n·V·d × n/V because 2·d = n_tokens on the book's inputs;
    # the lines read n_tokens as n_tokens, and V·d·d·4 put back is right by the same coincidence only
    detail = _detail("02-lookup-vs-matmul", "batch_flops", "batch_flops = 4 * n_tokens * d * d\n")
    assert "n_tokens where V belongs" not in detail, detail


def test_1_a_swap_the_lines_make_is_still_named():
    # d read twice, once rightly and once where V belongs: one read put back is the answer, here and on a look
    detail = _detail("02-lookup-vs-matmul", "batch_flops", "batch_flops = 2 * n_tokens * d * d\n")
    assert "you used d where V belongs" in detail, detail


def test_1_swap_words_are_weighed_on_the_lines_in_another_lesson():
    name = "kv_bytes_per_token"  # lesson 07: qwen2.5-7b has h = L = 28 and head_dim 128 on the book's inputs
    want = 2 * 28 * 4 * 128 * 2
    right_swap = _question("07-memory", name, "kv_bytes_per_token = int(2 * h * h_kv * head_dim * "
                                              "BYTES_PER_PARAM[cache_precision])\n")
    assert not explain.swap_unproven(right_swap, "you used h where L belongs", None, want)
    typed = _question("07-memory", name, "kv_bytes_per_token = int(2 * 28 * h_kv * head_dim * "
                                         "BYTES_PER_PARAM[cache_precision])\n")
    assert explain.swap_unproven(typed, "you used h where L belongs", None, want)  # the lines never read h
    assert not explain.swap_unproven(typed, "your answer uses 28 where L (the layers) belongs", None, want)
    # h for L put back is right on the book's model only: the typed 128 is head_dim there, not on the look's model
    two = _question("07-memory", name, "kv_bytes_per_token = int(2 * h * h_kv * 128 * "
                                       "BYTES_PER_PARAM[cache_precision])\n")
    assert explain.swap_unproven(two, "you used h where L belongs", None, want)
    # and the one check every source reaches
    assert explain.refuted_by_cell(two, "you used h where L belongs", None, want)


def test_1_every_wording_of_a_swap_is_read_as_a_claim():
    said = {  # the engine's wordings of a swap: parts' siblings, a typed number, size_swapped, a code reading
        "you used n_tokens where V belongs (V: one column per vocabulary entry)": ("n_tokens", "V"),
        "your answer uses 1024 where T (the context) belongs: a number typed by hand": ("1024", "T"),
        "yours is exactly the answer × n_top / n_train: your value uses `n_train` where `n_top` belongs":
            ("n_train", "n_top"),
        "your code reads `h` where `L` belongs (at `2 * h`)": ("h", "L"),
        "you used d_ff instead of d here": ("d_ff", "d"),
    }
    for words, claim in said.items():
        assert explain.swap_claims(words) == [claim], words
    assert explain.swap_claims("the one-hot matrix has V columns, not d") == []


# --------------------------------------------------------------------------
# (2) the story the lines write


def test_2_a_functions_story_is_the_one_its_lines_write():
    # no MLP biases and half of each LayerNorm, in a function: the value alone fits five two-slip stories
    source = ("def gpt2_params(V, d, L, T):\n"
              "    attn = 3 * d * d + 3 * d + d * d + d\n"
              "    mlp = 4 * d * d + 4 * d * d\n"
              "    ln = 2 * d\n"
              "    return V * d + T * d + L * (attn + mlp + ln) + 2 * d\n")
    detail = _detail("03-counting-gpt2", "gpt2_params", source)
    assert "no MLP biases" in detail and "half of the LayerNorms" in detail, detail
    assert "no LayerNorms" not in detail and "a little too small" not in detail, detail


def test_2_a_story_the_lines_contradict_is_not_told():
    # 4d short: the MLP's first bias, or the LayerNorms; the lines write both LayerNorms (`norms = 2 * d + 2 * d`)
    source = ("attention = 4 * d * d + 3 * d + d\n"
              "mlp = 8 * d * d\n"
              "norms = 2 * d + 2 * d\n"
              "block_params = attention + mlp + norms + d\n")
    detail = _detail("03-counting-gpt2", "block_params", source)
    assert "no LayerNorms" not in detail, detail
    assert "MLP first-layer bias" in detail, detail


def test_2_the_lines_terms_are_read_through_names_and_counts():
    question = _question("03-counting-gpt2", "block_params",
                         "D = d\nw = 12 * D * D\nb = 3 * D + D\nblock_params = w + b + 2 * (2 * D)\n")
    d = 1024  # gpt2-medium, the book's block_model
    terms = explain.own_terms(question, 12 * d * d + 8 * d)
    assert sorted(terms) == sorted([12 * d * d, 3 * d, d, 4 * d]), terms


# --------------------------------------------------------------------------
# (3) the generic kinds


def test_3_an_exact_gap_is_named_as_the_count_term_the_lines_never_read():
    # one block's attention and MLP read from the model's own count: the norms, 4·d, never read
    detail = _detail("03-counting-gpt2", "block_params",
                     "counts = count_params(load_config(block_model))\n"
                     "block_params = counts.block.attention + counts.block.mlp\n")
    assert "norms" in detail and "exactly" in detail and "recheck the terms" not in detail, detail


def test_3_a_term_of_the_same_size_outside_the_answer_is_not_named():
    # one block is 2·d short (half its LayerNorms): the model's final norm is 2·d too, but no block holds it
    source = ("attn = (d * 3 * d + 3 * d) + (d * d + d)\n"
              "mlp = (d * 4 * d + 4 * d) + (4 * d * d + d)\n"
              "block_params = attn + mlp + 2 * d\n")
    detail = _detail("03-counting-gpt2", "block_params", source)
    assert "final norm" not in detail and "half of the LayerNorms" in detail, detail


def test_3_a_measured_gap_is_no_second_slip_beside_a_named_part():
    detail = _detail("03-counting-gpt2", "estimate_gap",
                     "counts = count_params(load_config(gap_model))\n"
                     "d = counts.block.norms // 4\n"
                     "estimate_gap = counts.position_embedding + counts.num_blocks * (counts.block.total - 12 * d * d)\n")
    assert "final LayerNorm" in detail and "two slips" not in detail and "recheck the terms" not in detail, detail


def test_3_a_factor_the_lines_multiply_by_is_not_said_missing():
    question = _question("07-memory", "kv_bytes_per_token",
                         "kv_bytes_per_token = int(L * h_kv * head_dim * BYTES_PER_PARAM[cache_precision])\n")
    assert explain.multiplies_what_is_read(question, "that counts numbers, not bytes: multiply by head_dim")
    assert not explain.multiplies_what_is_read(question, "keys and values: multiply by 2 (the cache holds both)")
    divided = _question("07-memory", "kv_bytes_per_token",
                        "kv_bytes_per_token = int(2 * L * h_kv * BYTES_PER_PARAM[cache_precision] / head_dim)\n")
    assert not explain.multiplies_what_is_read(divided, "multiply by head_dim")


def test_3_a_named_answers_hints_are_said_for_every_entry_they_hold_of():
    # the fp32 gradients and a master copy that holds them too (another pair than the weights and gradients)
    detail = _detail("07-memory", "adam_parts", "adam_parts = np.array([2, 4, 8, 8]) * n_params\n")
    assert detail.startswith("gradients:") and "master copy:" in detail, detail
    # any named answer: a made-up question whose two entry hints both hold
    question = Array("parts", exact=True, entries=("rows", "columns", "bias"), hints=[
        Hint(lambda got, want: got[0] == 2 * want[0], "rows: counted twice"),
        Hint(lambda got, want: got[2] == 0, "bias: left out"),
        Hint(lambda got, want: got[0] != want[0], "rows: not the rows")])
    want = np.array([3.0, 4.0, 1.0])
    verdict = question.judge(array_to_data(np.array([6.0, 4.0, 0.0])), array_to_data(want))
    assert verdict.detail == "rows: counted twice; and bias: left out", verdict.detail


def test_3_a_dot_product_over_one_squared_length_is_undone_per_row():
    import ast

    from embedlab.grading import undo

    # any code: scores of a table's rows against one vector, over that vector's squared length
    source = "scores = np.dot(table, q) / np.linalg.norm(q) ** 2\n"
    made = {w: ast.unparse(t) for w, t in undo.edits(source)}
    said = [w for w in made if "one length twice" in w]
    assert len(said) == 1, made
    assert made[said[0]] == "scores = np.dot(table, q) / (np.linalg.norm(table, axis=-1) * np.linalg.norm(q))", made
    # lesson 09's cosines of many rows with one: each row's own length, not the one row's twice
    detail = _detail("09-what-rows-learn", "cos_cat",
                     "group = E[animals + vehicles]\ncos_cat = group @ E[cat] / np.linalg.norm(E[cat]) ** 2\n")
    assert "np.linalg.norm(group, axis=-1)" in detail and "values differ" not in detail, detail


def test_3_a_pick_from_a_list_the_filter_inverted_is_undone_with_the_filter():
    from embedlab.grading import undo

    source = "pick = [w for w in words if not w.isupper()][2]\n"
    made = {words: ast_text for words, ast_text in ((w, __import__("ast").unparse(t)) for w, t in undo.edits(source))}
    said = [w for w in made if "filter inverted" in w]
    assert len(said) == 1 and made[said[0]] == "pick = [w for w in words if w.isupper()][0]", made
    # the notebook check names it where it gives the answer: lesson 05's tied model, picked from the untied ones
    detail = _detail("05-weight-tying", "ties",
                     "flags = {m: load_config(m)['tie_word_embeddings'] for m in candidates}\n"
                     "ties = [m for m in candidates if not flags[m]][1]\n")
    assert "filter inverted" in detail and "look at tie_word_embeddings" not in detail, detail


def test_3_another_questions_answer_read_where_an_input_belongs_is_named():
    # lesson 06: question 3's Kaplan N read where this question's given N belongs (a stale variable)
    question = _question("06-params-vs-compute", "flop_rate", "flop_rate = 6 * kaplan_n * D / (GPU_HOURS * 3600)\n")
    import importlib

    module = importlib.import_module("embedlab.grading.questions.l06")
    answers = module.answers(module.SPACE.defaults)
    question = explain.with_source(question, question.source, others=answers)
    got = 6 * answers["kaplan_n"] * module.SPACE.defaults["D"] / (module.SPACE.defaults["GPU_HOURS"] * 3600)
    said = explain.name_swapped(question, got, answers["flop_rate"])
    assert said and "`kaplan_n`" in said[0] and "where `N` belongs" in said[0], said
    # the notebook check, lesson 12: question 5's trimmed rows where this example's n_keep belongs
    detail = _detail("12-change-a-vocabulary", "saved_params",
                     "kept = n_keep\nsaved_params = (tok.n_vocab - trimmed_rows) * d_trim\n")
    assert "`trimmed_rows`" in detail and "`n_keep`" in detail, detail


def test_an_operator_swap_that_only_drops_its_operand_is_not_named():
    """`x - 1` made `x / 1` is `x`: the swap gives the answer because the operand is the new operator's identity,
    which proves the term does not belong, not that the operator is wrong (heldout15's padding rows, one row taken
    off, were told "subtracts where the formula divides"). New instances: a count one too small, a product by a
    term 0 would need; the operator is named only where the operand is not an identity."""
    for lesson, name, source in (
            ("01-toy-table", "n_params", "n_params = len(words) * len(features) - 1\n"),
            ("10-glitch-tokens", "padding_rows",   # another style than heldout15's: ceiling by negation
             "rows = -(-V // pad_multiple) * pad_multiple\npadding_rows = rows - V - 1\n"),
            ("03-counting-gpt2", "interview", "interview = interview_V * interview_d + 0 * 1 + 2\n")):
        detail = _detail(lesson, name, source)
        assert "where the formula" not in detail, (name, detail)
