"""Blind corpus 18's garbled kind: a clause rendered on a question it cannot apply to,
planted as new instances (other questions, lessons and code than the corpus's). A clause
that presumes something of the question is said only where the question's own
description grants it (kinds.Question.described; text.PRESUMED):

1. "(…, from your table's own sizes)" after a typed number: only where the learner built
   the table counted (lesson 01's n_params, `own_table`), not on break_even_r or
   added_params, whose inputs are parameters.
2. "as the question's formula does" after an argument never read: only where the
   question's text writes out a formula reading it (`formula`: forward_flops_per_token),
   not on count_unique, whose text has none.
3. "what the part counts (the numerator) and what the whole is (the denominator)": only
   on a share, not on a ratio of two amounts (break_even_r: tokens with one vocabulary
   over tokens with the other).
4. "one number too many for each of the X": X counts items (rows, layers) or is a
   symbol; a size's word ("width", "head", "batch") is never put there: its symbol is
   (d_trim), or nothing is said.

The planted tests were red on fix18c's base (93a4a97, its lib on PYTHONPATH), green
here; the controls (n_params, vocab_share, the general words) passed on both.
"""

from __future__ import annotations


from embedlab.grading import diagnose, parts
from embedlab.grading.lessons import questions_for
from embedlab.grading.parts import Answer, Part, Prod
from embedlab.grading.text import hint_problems
from solution_runner import incorrect_detail


_verdict = incorrect_detail  # tests/solution_runner.py


def _question(lesson, name):
    return {q.name: q for q in questions_for(lesson)}[name]


def test_1_a_typed_number_is_not_told_of_a_table_the_learner_has_not():
    for lesson, name, source in (
            ("08-vocabulary-size", "break_even_r", "break_even_r = 0.6\n"),
            ("12-change-a-vocabulary", "added_params", "added_params = 123_456\n")):
        detail = _verdict(lesson, name, source)
        assert "typed by hand" in detail, detail  # the diagnosis itself is kept
        assert "your table" not in detail, detail


def test_1_where_the_learner_built_the_table_it_is_still_said():
    detail = _verdict("01-toy-table", "n_params", "n_params = 20\n")
    assert "typed by hand" in detail, detail
    assert "from your table's own sizes" in detail, detail


def test_2_an_argument_never_read_points_at_no_formula_the_question_has_not():
    detail = _verdict("05-weight-tying", "count_unique",
                      "def count_unique(storage, sizes):\n"
                      "    return int(np.sum(sizes)) // 2\n")
    assert "never reads its argument `storage`" in detail, detail
    assert "formula" not in detail, detail


def test_2_where_the_text_writes_the_formula_out_it_is_granted():
    flops = _question("06-params-vs-compute", "forward_flops_per_token")
    assert "formula" in flops.described()
    assert "formula" not in _question("05-weight-tying", "count_unique").described()
    assert "formula" not in _question("07-memory", "kv_cache_gb").described()


def test_3_a_ratio_of_two_amounts_is_not_told_of_a_part_and_a_whole():
    # the blocks' FLOPs left out of the numerator: far too small, a measured fallback
    detail = _verdict("08-vocabulary-size", "break_even_r",
                      "break_even_r = (2 * d * V_small + 100)"
                      " / (blocks + 2 * d * V_big)\n")
    assert "far too small" in detail, detail
    assert "part" not in detail and "whole" not in detail, detail
    assert "numerator" in detail and "denominator" in detail, detail


def test_3_a_share_keeps_its_part_and_whole():
    detail = _verdict("04-modern-blocks", "vocab_share",
                      "c = count_params(load_config(share_model))\n"
                      "vocab_share = c.token_embedding / c.total * 1.5\n")
    assert ("what the part counts (the numerator) and what the whole is (the "
            "denominator)") in detail, detail


def test_3_the_general_words_follow_the_declared_unit():
    ratio = diagnose.number_hint(0.7, 1.0, unit="ratio")
    share = diagnose.number_hint(0.7, 1.0, unit="share")
    assert "whole" not in ratio and "whole" in share, (ratio, share)


def test_4_a_count_off_by_one_row_names_the_width_by_its_symbol():
    # one dropped row too few: d_trim short, never "for each of the width"
    detail = _verdict("12-change-a-vocabulary", "saved_params",
                      "saved_params = (tok.n_vocab - n_keep - 1) * d_trim\n")
    assert "d_trim" in detail and "each of the width" not in detail, detail


def test_4_a_size_word_is_never_the_items_of_an_offset():
    # a made-up answer: heads × a width named in words, the width's symbol an input
    width = Part("width", 64, "head_dim numbers per head")
    answer = Answer(Prod("the weights", [Part("heads", 12, "h"), width]),
                    inputs={"head_dim": 64})
    said = parts.templates(answer)
    assert any("exactly head_dim too many" in w for w in said), said
    assert not any("each of the width" in w for w in said), said
    for words in said:
        assert not hint_problems(words), (words, hint_problems(words))
    # no symbol for it: the width is not named at all; items (rows) still are
    bare = Answer(Prod("the table", [Part("rows", 40, "one per word"),
                                     Part("width", 96, "numbers per row")]))
    said = parts.templates(bare)
    assert not any("width" in w and "too many" in w for w in said), said
    assert any("one number too many for each of the rows" in w for w in said), said


def test_the_reader_finds_each_presumed_clause_where_it_is_not_granted():
    hint = ("compute it in code from the question's inputs (the token table, from your "
            "table's own sizes)")
    assert hint_problems(hint, grants=frozenset())
    assert not hint_problems(hint, grants=frozenset({"own table"}))
    hint = ("your function never reads its argument `batch`: its result must depend on "
            "it, as the question's formula does")
    assert hint_problems(hint, grants=frozenset({"share"}))
    assert not hint_problems(hint, grants=frozenset({"formula"}))
    hint = ("too small; recheck what the part counts (the numerator) and what the "
            "whole is (the denominator)")
    assert hint_problems(hint, "ratio", diagnose.UNITLESS, frozenset())
    assert not hint_problems(hint, "share", diagnose.UNITLESS, frozenset({"share"}))
    assert hint_problems("your count has exactly one number too many for each of the "
                         "width: recheck")
    assert not hint_problems("your count has exactly one number too many for each of "
                             "the rows, twice: recheck")
