"""Hints the blind heldout9 judge found not specific (issue 46), by kind.

1. "that is X" (a question's own hint, a named part's words) is shown only when a second look finds X again:
   exact on the book's inputs alone is a coincidence of those inputs (lesson 07's ratio h / h_kv equals the
   whole cache without grouping in GiB; lesson 12's padded table less V equals V padded when V = n_tokens).
   The slips those words were written for are still named.
2. A dynamically built "you used X where Y belongs" never puts a part's name in a size slot.
"""

from __future__ import annotations

import contextlib
import io

from embedlab.grading import parts
from embedlab.grading.exercise import Exercise
from embedlab.grading.parts import Answer, Part, Prod, Sum
from embedlab.grading.text import hint_problems

from hint_corpus import Wrong, check_wrong


def _detail(lesson, name, source):
    """The notebook check's hint for `source` as the learner's lines (the answer cell in IPython's history)."""
    entry = Wrong(lesson, name, source, "", (), ())
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(entry)
    ns["_ih"] = ["", source]
    verdict = Exercise(lesson).verdict(name, ns)
    return verdict.detail


# --------------------------------------------------------------------------
# 1. "that is X" needs a look that finds X again


def test_a_ratio_is_not_told_it_is_the_whole_cache():
    detail = _detail("07-memory", "gqa_saving_gib", "gqa_saving_gib = h / h_kv\n")
    assert "whole cache without grouping" not in detail, detail
    assert "ratio" in detail and "subtract" in detail, detail  # the ratio for a difference, found on the looks too


def test_the_whole_cache_without_grouping_is_still_named():
    source = ("bytes_per_number = {\"fp32\": 4, \"fp16\": 2, \"bf16\": 2, \"fp8\": 1, \"int8\": 1,\n"
              "                    \"int4\": 0.5}[cache_precision]\n"
              "gqa_saving_gib = 2 * L * h * head_dim * bytes_per_number * context / 2**30\n")
    detail = _detail("07-memory", "gqa_saving_gib", source)
    assert "whole cache without grouping" in detail, detail


def test_the_padded_table_less_v_is_not_told_it_pads_v():
    source = "rows = max(V, T + n_new)\npadding_rows = padded_size(rows, pad_multiple) - V\n"
    detail = _detail("12-change-a-vocabulary", "padding_rows", source)
    assert "that pads V" not in detail and "before the new tokens are in" not in detail, detail


def test_padding_v_itself_is_still_named():
    source = "padding_rows = padded_size(V, pad_multiple) - V\n"
    detail = _detail("12-change-a-vocabulary", "padding_rows", source)
    assert "that pads V" in detail, detail


# --------------------------------------------------------------------------
# 2. A part's name is never put in a size slot


def test_a_name_in_a_size_slot_is_caught():
    assert hint_problems("you used d where RMSNorms belongs (RMSNorms: two per layer, d each)")
    assert not hint_problems("you used d where d_ff belongs (the MLP's width)")
    assert not hint_problems("you used `h` where `h_kv` belongs")


def test_every_swap_the_parts_build_reads_as_written():
    """The swaps changes_of builds from the answer's own named sizes: a sibling named by a word (RMSNorms) is
    said by its name, never put in a size slot."""
    tree = Answer(Sum("the count", [Part("RMSNorms", 2 * 64, "two per layer, d each"),
                                   Prod("the MLP", [Part("d", 64), Part("d_ff", 256)])]))
    tree.context = {}
    said = [a.says for node in tree.tree.nodes() for a in getattr(node, "alts", [])]
    parts.changes_of(tree)
    said = [a.says for node in tree.tree.nodes() for a in getattr(node, "alts", []) if a.swap]
    assert said, "no swap built"
    for words in said:
        assert not hint_problems(words), words


def test_a_norm_counted_once_is_readable():
    source = ("def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    head_dim = d // h\n"
              "    attention = 2 * d * h * head_dim + 2 * d * h_kv * head_dim\n"
              "    layer = attention + 3 * d * d_ff + d\n"
              "    return V * d + L * layer + d + (0 if tied else V * d)\n")
    detail = _detail("04-modern-blocks", "llama_params", source)
    assert not hint_problems(detail), detail
    assert "RMSNorm" in detail, detail
