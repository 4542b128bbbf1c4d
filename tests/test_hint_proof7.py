"""Nameable mistakes the blind heldout11 judge found told only generically (issue 46), by kind; each mechanism names
its kind only when a counterfactual holds on the learner's own code or value, and each is planted here as NEW
instances (other questions, other code styles than the corpus's entries).

(a) a ratio typed by hand (`3.5 * d`, `d // 16`) where the config gives the value: the config's field put in the
    ratio's place makes the learner's own cell give the answer exactly (explain.slip_undone);
(b)-(f) one edit of the learner's own code (embedlab.grading.undo), run in their kernel on the notebook's inputs (a
    function: on the question's cases), gives the answer: (b) a reduction along the other axis, (c) an elementwise
    function applied to its own result, (d) a squared length where the length belongs (a sum of squares without its
    root, ‖a‖² where ‖a‖·‖b‖ belongs), (e) a sort where the own order belongs, (f) an inverted test; an edit whose
    value is still wrong is never named;
(g) an index past the end that is a value of an argument, held by a name made from it (`u = np.unique(storage)`):
    the argument's values used as positions (function_hints.exception_cause).
"""

from __future__ import annotations

from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines


def test_a_a_ratio_typed_where_the_config_gives_the_width_is_named():
    for source in ("width = int(d * 2.75)\nmlp_layer = 3 * d * width\n",
                   "mlp_layer = 3 * shape.hidden_size * (shape.hidden_size * 7 // 2)\n"):
        detail = _detail("04-modern-blocks", "mlp_layer", source)
        assert "ratio typed by hand" in detail and "`intermediate_size`" in detail, (source, detail)


def test_a_a_head_width_typed_as_a_ratio_is_named_as_the_configs_head_dim():
    source = "hd = d // 16   # a head is d/16 wide\nattn_layer = 2 * d * h * hd + 2 * d * h_kv * hd\n"
    detail = _detail("04-modern-blocks", "attn_layer", source)
    assert "ratio typed by hand" in detail and "`head_dim`" in detail, detail


def test_a_a_ratio_whose_field_does_not_give_the_answer_is_not_named():
    # a ratio added where nothing belongs: no field of the config put in its place gives the answer
    detail = _detail("04-modern-blocks", "mlp_layer", "mlp_layer = 3 * d * d_ff + 3.5 * d\n")
    assert "ratio typed by hand" not in detail, detail


# --------------------------------------------------------------------------
# (b)-(f): one edit of the learner's own code, run in their kernel (embedlab.grading.undo), gives the answer


def test_b_a_reduction_along_the_other_axis_is_named_in_a_cell():
    for lesson, name, source in (
            ("09-what-rows-learn", "gap",
             "unit = E / np.linalg.norm(E, axis=0)\nC = unit @ unit.T\n"
             "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
             "gap = np.mean(within) - C[np.ix_(animals, vehicles)].mean()\n"),
            ("09-what-rows-learn", "cos_cat",
             "rows = E[animals + vehicles]\nlengths = np.sqrt((rows ** 2).sum(axis=0))\n"
             "cos_cat = rows @ E[cat] / (lengths * np.linalg.norm(E[cat]))\n")):
        detail = _detail(lesson, name, source)
        assert "along axis 0" in detail and "along axis 1" in detail and "your own code gives the answer" in detail, \
            (name, detail)


def test_b_a_function_averaging_along_the_other_axis_is_named():
    source = ("def unused_score(M, reference_ids):\n"
              "    mean = M[reference_ids].mean(axis=1)\n"
              "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n")
    detail = _detail("10-glitch-tokens", "unused_score", source)
    assert "`M[reference_ids].mean(axis=1)` works along axis 1" in detail, detail


def test_b_an_axis_whose_swap_does_not_give_the_answer_is_not_named():
    # the wrong axis and cat's length left out: the axis put right alone is still wrong
    source = "rows = E[animals + vehicles]\ncos_cat = rows @ E[cat] / np.linalg.norm(rows, axis=0)\n"
    detail = _detail("09-what-rows-learn", "cos_cat", source)
    assert "your own code gives the answer" not in detail, detail


def test_c_a_function_applied_to_its_own_result_is_named():
    for lesson, name, source, f in (
            ("01-toy-table", "cosine",
             "def cosine(a, b):\n    return float(a @ b / np.sqrt(np.sqrt((a @ a) * (b @ b))))\n", "sqrt"),
            ("09-what-rows-learn", "tinylm_grads",
             "def tinylm_grads(E, W, b, U, contexts, targets):\n"
             "    B, C = contexts.shape\n"
             "    x0 = E[contexts].reshape(B, -1)\n"
             "    h = np.tanh(np.tanh(x0 @ W + b))   # the hidden layer\n"
             "    logits = h @ U.T\n"
             "    p = np.exp(logits - logits.max(axis=1, keepdims=True))\n"
             "    p = p / p.sum(axis=1, keepdims=True)\n"
             "    p[np.arange(B), targets] -= 1.0\n"
             "    p = p / B\n"
             "    dU = p.T @ h\n"
             "    da = (p @ U) * (1 - h ** 2)\n"
             "    dE = np.zeros_like(E)\n"
             "    np.add.at(dE, contexts, (da @ W.T).reshape(B, C, -1))\n"
             "    return dE, dU\n", "tanh")):
        detail = _detail(lesson, name, source)
        assert f"applies {f} to" in detail and f"already is {f}(…)" in detail, (name, detail)


def test_c_twice_deep_in_a_long_backward_pass_is_reported_before_its_axes():
    # the slip sits after several reductions along an axis: its edit is still run and reported (undo.BYTES)
    source = ("def tinylm_grads(E, W, b, U, contexts, targets):\n"
              "    n, width = contexts.shape\n"
              "    h = np.tanh(E[contexts].reshape(n, -1) @ W + b)\n"
              "    z = h @ U.T\n"
              "    z = z - z.max(axis=1, keepdims=True)\n"
              "    q = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)\n"
              "    q[np.arange(n), targets] -= 1\n"
              "    q /= n\n"
              "    da = (q @ U) * (1.0 - np.square(np.tanh(h)))\n"
              "    dE = np.zeros_like(E)\n"
              "    np.add.at(dE, contexts, (da @ W.T).reshape(n, width, -1))\n"
              "    return dE, q.T @ h\n")
    detail = _detail("09-what-rows-learn", "tinylm_grads", source)
    assert "applies tanh to `h`" in detail and "already is tanh(…)" in detail, detail


def test_c_twice_is_not_named_when_once_is_still_wrong():
    source = ("def cosine(a, b):\n    return float(a @ b / np.sqrt(np.sqrt((a @ a) * (b @ b))) + 1)\n")
    detail = _detail("01-toy-table", "cosine", source)
    assert "already is sqrt" not in detail, detail


def test_d_a_squared_length_is_named_where_the_length_belongs():
    for lesson, name, source, says in (
            ("01-toy-table", "cosine",
             "def cosine(a, b):\n    return float(a @ b / (np.sum(a ** 2) * np.linalg.norm(b)))\n", "sum of squares"),
            ("09-what-rows-learn", "cos_cat",
             "rows = E[animals + vehicles]\n"
             "cos_cat = rows @ E[cat] / (np.linalg.norm(rows, axis=1) * np.linalg.norm(E[cat]) ** 2)\n",
             "squares a length"),
            ("10-glitch-tokens", "unused_score",
             "def unused_score(M, reference_ids):\n"
             "    mean = M[reference_ids].mean(axis=0)\n"
             "    return M @ mean / (np.linalg.norm(M, axis=1) * (mean @ mean))\n", "squared length"),
            ("01-toy-table", "cosine",
             "def cosine(a, b):\n    return float(a.dot(b) / (np.linalg.norm(b) ** 2))\n", "times itself")):
        detail = _detail(lesson, name, source)
        assert says in detail and "your own code gives the answer" in detail, (name, detail)


def test_e_a_sort_where_the_own_order_belongs_is_named():
    for lesson, name, source in (
            ("01-toy-table", "batch", "ids = np.sort([words.index(w) for w in sentence])\nbatch = table[ids]\n"),
            ("02-lookup-vs-matmul", "rows_lookup", "in_order = sorted(ids)\nrows_lookup = E[in_order]\n"),
            ("02-lookup-vs-matmul", "rows_lookup", "order = list(ids)\norder.sort()\nrows_lookup = E[order]\n")):
        detail = _detail(lesson, name, source)
        assert "sorted order" in detail and "your own code gives the answer" in detail, (source, detail)


def test_f_an_inverted_test_is_named():
    source = 'ties = next(m for m in reversed(candidates) if not load_config(m)["tie_word_embeddings"])\n'
    detail = _detail("05-weight-tying", "ties", source)
    assert "inverts the test" in detail, detail


# --------------------------------------------------------------------------
# (g) an index past the end that is a value of an argument, held by a name made from it


def test_g_ids_used_as_positions_through_a_name_made_from_them():
    for source in ("def count_unique(storage, sizes):\n    u = np.unique(storage)\n    total = 0\n"
                   "    for s in u:\n        total += sizes[s]\n    return int(total)\n",
                   "def count_unique(storage, sizes):\n    ids = sorted(set(storage))\n"
                   "    return int(sum(sizes[i] for i in ids))\n"):
        detail = _detail("05-weight-tying", "count_unique", source)
        assert "is a value of `storage` (an id), not a position" in detail, (source, detail)


# --------------------------------------------------------------------------
# The grader names the same edits: its probe runs them in the submission's kernel and reports them beside the answer


def _graded(lesson, name, source):
    import contextlib
    import io

    from hint_corpus import Wrong, check_wrong
    from solution_runner import grader_scoring

    entry = Wrong(lesson, name, source, "", (), ())
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(entry)
    prelude = check_wrong.exercise_prelude(lesson, name)
    cell = (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source
    ns = {k: v for k, v in ns.items() if k != "_ih"}
    ns["_ih"] = ["", cell]
    return grader_scoring(lesson, name, ns, cell)


def test_the_grader_names_a_proven_edit_as_the_notebook_check_does():
    for lesson, name, source in (
            ("02-lookup-vs-matmul", "rows_lookup", "in_order = sorted(ids)\nrows_lookup = E[in_order]\n"),
            ("01-toy-table", "cosine",
             "def cosine(a, b):\n    return float(a @ b / (np.sum(a ** 2) * np.linalg.norm(b)))\n")):
        status, detail = _graded(lesson, name, source)
        assert status == "incorrect" and "your own code gives the answer" in detail, (name, detail)
        assert detail == _detail(lesson, name, source), (detail, _detail(lesson, name, source))


def test_an_edit_that_flips_a_choice_proves_nothing():
    """A yes/no answer testing the wrong thing: removing its `not` gives the answer as any flip would; the edit is
    not named (lesson 09: whether the matrix changes, where the question asks whether the cosines do)."""
    from embedlab.grading import undo
    from embedlab.grading.lessons import questions_for

    q = next(q for q in questions_for("09-what-rows-learn") if q.name == "rotation_changes_cosines")
    report = [{"kind": q.kind, "got": {"str": "no"}, undo.UNDONE: "`not x` inverts the test"}]
    assert undo.proven(q, report, lambda got: True) is None
    integer = next(q for q in questions_for("09-what-rows-learn") if q.name == "n_params")
    assert undo.proven(integer, [{**report[0], "kind": integer.kind}], lambda got: True)
