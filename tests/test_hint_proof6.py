"""Hints the blind heldout11 judge found misleading (or a proven slip lost), by kind (issue 46); each planted here
as a NEW instance (another question, or another form of the mistake than the corpus's entry). The one proof rule:
a named slip is shown only if its counterfactual holds on the learner's own cell.

(a) a term of another part of the layer (parts.belongs_elsewhere) is named only when the learner's value is the
    asked part plus that term, exactly: paired with another change it proves nothing (a value too small is not
    "something added");
(b) rows "one after the word's own" (an off-by-one in the ids) are named only when the learner's own cell moves an
    index by one: ids made another way (a sorted word list) that happen to give the next rows are not an off-by-one;
(c) a result that equals the answer transposed is named as transposed ((d, n) for (n, d)); "index the rows, not the
    columns" only when the columns at the ids are the learner's value;
(d) the same quantity for another shipped model of the lesson, typed in or computed, is named as that model's: never
    a slip of a part whose ratio is a coincidence of two models' sizes;
(e) an array rounded by the learner's own code is named as rounded when the answer rounded in the learner's own
    dtype (float32) is the learner's array exactly.
"""

from __future__ import annotations

from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines


def test_a_a_term_of_another_part_is_not_named_when_paired_with_another_change():
    # two matrices and one width more: an RMSNorm (d) added is one reading, and only paired with another change
    source = "mlp_layer = 2 * d * d_ff + d\n"
    detail = _detail("04-modern-blocks", "mlp_layer", source)
    assert "belong to the layer" not in detail, detail
    # and a value too small (q and o only, k and v left out) with the MLP added is not "something added" either
    source = "attn_layer = 2 * d * h * head_dim + 3 * d * shape.intermediate_size\n"
    detail = _detail("04-modern-blocks", "attn_layer", source)
    assert "belong to the layer" not in detail, detail


def test_a_a_term_of_another_part_alone_is_still_named():
    source = "mlp_layer = 3 * d * d_ff + 2 * d   # the MLP and its norms\n"
    detail = _detail("04-modern-blocks", "mlp_layer", source)
    assert "belong to the layer" in detail, detail


def test_b_ids_from_a_sorted_list_are_not_called_an_off_by_one():
    source = "ids = [sorted(words).index(w) for w in sentence]\nbatch = table[ids]\n"
    detail = _detail("01-toy-table", "batch", source)
    assert "off-by-one" not in detail and "one after" not in detail, detail
    # the sort left out of the learner's own code gives the answer (embedlab.grading.undo, proven in their kernel)
    assert "sorted order" in detail and "your own code gives the answer" in detail, detail


def test_b_an_index_moved_by_one_is_still_an_off_by_one():
    for source in ("ids = [words.index(w) + 1 for w in sentence]\nbatch = table[ids]\n",
                   "row = {w: i for i, w in enumerate(words, start=1)}\nbatch = table[[row[w] for w in sentence]]\n"):
        detail = _detail("01-toy-table", "batch", source)
        assert "off-by-one" in detail, (source, detail)


def test_c_the_rows_stacked_as_columns_are_named_transposed():
    source = "rows_lookup = np.stack([E[i] for i in ids], axis=1)\n"
    detail = _detail("02-lookup-vs-matmul", "rows_lookup", source)
    assert "transposed" in detail and "not its columns" not in detail, detail


def test_d_another_models_head_computed_by_hand_is_named_as_that_model():
    source = "head_flops = 2 * 4096 * 128256   # d and V of the model in the lesson\n"
    detail = _detail("06-params-vs-compute", "head_flops", source)
    assert "llama-3-8b" in detail and "another model" in detail, detail
    assert "tied table" not in detail, detail


def test_e_an_array_rounded_in_float32_is_named_rounded():
    source = "rows_lookup = np.round(E[ids], 3)\n"
    detail = _detail("02-lookup-vs-matmul", "rows_lookup", source)
    assert "round" in detail, detail
