"""Hints newcomer C found inverted, false, silent or catch-all in exercises 11 and 12 (issue 46), by kind; each
kind planted here as a NEW instance (another question, code style or form of the mistake than the one reported).

(a) two explanations of one number are each written as what puts it right ("the cache is sized at the serving
    context, not the training context"): the frame asks the learner to put right the one they made, never reads
    the fixes as the slips ("two slips give exactly your number: either <the right setting>");
(b) "that is X" is said only of X itself (to 1 part in 10⁹), never of a value near it: 1/V is named as 1/V, not as
    the bound 1/(V + n_new);
(c) a method right only on the book's inputs is refused on inputs that part it, also when the cell reads an earlier
    answer made from the input the case changes (design_params, read by question 6: the case gives it for the
    changed design), and a count by hand where the question asks for count_params is run on the shipped models
    where the two part (found by counting, not listed);
(d) the written defence's automatic note says what is true of its figures: an f-string's fields left as typed
    (the f missing) are named and hold no figure, and figures of lesson 11's worked example, not the learner's
    design's, are named;
(e) no catch-all that blames three right things: a serving memory in another unit or rounded is named as such,
    a KV cache a whole multiple of the design's is said as measured, and `design = None` says what None means
    (and the vocabulary below the minimum when the cell types it).
"""

from __future__ import annotations

import pytest

from embedlab.grading import parts
from embedlab.grading.exercise import Exercise
from embedlab.grading.lessons import questions_for
from embedlab.grading.status import CORRECT, INCORRECT
from embedlab.grading.text import hint_problems

from test_elsewhere import answered  # the solution's namespace, IPython's history holding every cell run
from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines

L11, L12 = "11-size-a-model", "12-change-a-vocabulary"


def _verdict(lesson, name, source):
    ns, _ = answered(lesson, name, source)
    verdict = Exercise(lesson).verdict(name, ns)
    assert verdict.status == CORRECT or not hint_problems(verdict.detail), verdict.detail
    return verdict


# --------------------------------------------------------------------------
# (a) an either/or never names the right setting as the slip


def test_a_two_fixes_of_one_number_are_framed_as_fixes():
    # a new instance: a table 8 wide by 6 rows, given as 4 wide or as 3 rows (both 24): each alternative is the
    # right setting first, the learner's second, and the frame asks to put right the one made
    from embedlab.grading.parts import Alt, Answer, Part, Prod

    answer = Answer(Prod("the table", [Part("width", 8, "numbers per row", alts=[Alt(4, "the rows are 8 wide, not 4")]),
                                       Part("rows", 6, "rows", alts=[Alt(3, "the table has 6 rows, not 3")])]))
    words = parts.search(answer, 24)
    assert words.startswith("two slips give exactly your number; put right the one you made: either "), words
    assert "the rows are 8 wide, not 4" in words and "the table has 6 rows, not 3" in words, words
    assert parts.alternatives(words) == ("the rows are 8 wide, not 4", "the table has 6 rows, not 3")
    assert not hint_problems(words), hint_problems(words)
    from embedlab.grading import function_hints

    assert ("the rows are 8 wide, not 4", "the table has 6 rows, not 3") in function_hints._either(words)


def test_a_the_serving_memory_either_is_framed_as_fixes_for_a_kv_cache_typed_as_int4():
    # the KV precision typed as a string (not `weights`): the same two explanations, each a fix
    source = ('mem = serving_memory(design, context=BUDGET.context, batch=1, weights="int4", kv="int4")\n'
              'design_serving_gb = mem["total"] / GB\n')
    detail = _detail(L11, "design_serving_gb", source)
    # since gen18b the call's own settings are read: the typed precision, proven by the call put back, is named
    assert "`kv='int4'` is typed by hand" in detail, detail
    assert "two slips give exactly your number: either the cache is sized at the serving" not in detail, detail


# --------------------------------------------------------------------------
# (b) "that is X" only of X


def test_b_one_over_v_typed_is_named_as_one_over_v_not_as_the_bound():
    # another code style than the mean of the old probabilities: 1/V written from the corpus' size
    detail = _detail(L12, "p_new_token", "p_new_token = 1 / corpus.vocab_size\n")
    assert "1/V" in detail and "the bound 1/(V + n_new)" not in detail, detail


def test_b_the_bound_is_still_named_and_a_value_near_it_is_not():
    from embedlab.grading.kinds import _own_hints
    from embedlab.grading.questions.l12 import V_TINY

    q = next(q for q in questions_for(L12) if q.name == "p_new_token")
    bound = 1 / (V_TINY + 4)
    assert any("the bound 1/(V + n_new)" in h for h in _own_hints(q, bound, 0.0012))
    for near in (bound * (1 + 1e-6), 1 / (V_TINY + 3), 1 / (V_TINY + 5)):  # within the old 1e-6, or a token off
        assert not any("that is the bound" in h for h in _own_hints(q, near, 0.0012)), near


# --------------------------------------------------------------------------
# (c) a method right only on the book's inputs, refused where they part


def test_c_question_6_always_adding_is_refused_when_it_reads_design_params():
    # the head's table taken from the count, not from V·d: still always added, read from question 2's answer
    got = _verdict(L11, "other_tying_params",
                   "other_tying_params = design_params + count_params(design).token_embedding\n")
    assert got.status == INCORRECT and "right for these inputs only" in got.detail, got.detail
    assert "untied" in got.detail, got.detail


def test_c_question_6_flipping_from_design_params_is_accepted():
    source = ("table = design['vocab_size'] * design['hidden_size']\n"
              "other_tying_params = design_params - table if not design['tie_word_embeddings'] "
              "else design_params + table\n")
    assert _verdict(L11, "other_tying_params", source).status == CORRECT


@pytest.mark.parametrize("source", [
    # the by-hand count in another form: the tying read as 2 - tied, the new rows as a max with 0
    "added_params = max(0, n_tok + n_new - V) * d * (2 - tied)\n",
    # by hand from the config's own fields
    "s = model_shape(load_config(vocab_model))\nnew = max(s.vocab_size, n_tok + n_new) - s.vocab_size\n"
    "added_params = new * s.hidden_size * (1 if s.tied else 2)\n",
])
def test_c_a_count_by_hand_is_refused_where_the_models_part_it(source):
    got = _verdict(L12, "added_params", source)
    assert got.status == INCORRECT and "right for these inputs only" in got.detail, got.detail
    assert "count_params" in got.detail, got.detail


def test_c_count_params_written_otherwise_is_accepted_on_every_parting_model():
    from embedlab.grading.questions.l12 import _by_hand_parted

    assert len(_by_hand_parted()) >= 2  # a narrow table and a head bias at least
    source = ("before = count_params(load_config(vocab_model))\n"
              "after = count_params({**load_config(vocab_model), 'vocab_size': max(V, n_tok + n_new)})\n"
              "added_params = after.total - before.total\n")
    assert _verdict(L12, "added_params", source).status == CORRECT


def test_c_the_parting_models_are_found_by_counting():
    from embedlab.calculator import calculate
    from embedlab.grading.questions.l12 import GROWN_BY, _by_hand_parted
    from embedlab.params import count_params, load_config, model_shape

    for model, n_new, misses in _by_hand_parted():
        s = model_shape(load_config(model))
        by_hand = GROWN_BY * s.hidden_size * (1 if s.tied else 2)
        assert calculate(model, vocab_size=s.vocab_size + GROWN_BY).total - count_params(
            load_config(model)).total != by_hand, model


# --------------------------------------------------------------------------
# (d) the written defence


def _defence(text, **answers):
    q = next(q for q in questions_for(L11) if q.name == "defence")
    from embedlab.grading.questions.l11 import DEFAULTS, solution_design
    from embedlab.sizing import design_figures
    from embedlab.grading.questions.l11 import budget

    design = answers.pop("design", solution_design(DEFAULTS))
    f = design_figures(design, budget(DEFAULTS))
    known = {"design": {"design": design}, "design_params": {"design_params": f.params, "design": design}}
    return q.with_known(known).judge(q.to_data(text), None).detail


def test_d_unfilled_fields_are_named_and_hold_no_figure():
    text = ("Which budget binds, and by how much:\nMemory: {f.serving_gb:.3f} GB of {BUDGET.max_serving_gb} GB.\n\n"
            "Why this width and depth:\nd = {design[\"hidden_size\"]} and L = 30, the deepest.\n\n"
            "What the tying choice costs:\nUntying adds {V * d} parameters.\n")
    detail = _defence(text)
    assert "{f.serving_gb:.3f}" in detail and "the f before the opening quotes is missing" in detail, detail
    assert "under “Which budget binds, and by how much” no figure" in detail, detail  # .3f holds no figure
    assert "Why this width" not in detail.split("missing")[-1], detail  # L = 30 is a figure


def test_d_unfilled_fields_that_compute_in_place_are_named_too():
    """A field is any expression, not only a name with an index or a format (newcomer Q: `{a / b:.1%}` got no
    note, or "no figure" under one heading): a defence written with computed fields and no `f` is told so, under
    every heading; prose in braces is not a field, and the same text with the `f` is told nothing of the kind."""
    a, b, kept = 3, 4, [1, 2]
    template = ("Which budget binds, and by how much:\nMemory is the fullest: {{a / b:.1%}} of it.\n\n"
                "Why this width and depth:\n{{len(kept) * 8}} heads, {{max(a, b) + 26}} layers (the deepest).\n\n"
                "What the tying choice costs:\nUntying adds {{a * b:,}} parameters {{the head}}.\n")
    typed = template.replace("{{", "{").replace("}}", "}")        # the f missing: the braces stay as typed
    detail = _defence(typed)
    assert "the f before the opening quotes is missing" in detail, detail
    for field in ("{a / b:.1%}", "{len(kept) * 8}", "{max(a, b) + 26}"):
        assert field in detail, (field, detail)
    assert "{the head}" not in detail.split("missing")[0], detail   # prose in braces is not a field
    filled = eval("f" + repr(typed.replace("{the head}", "{{the head}}")), {"a": a, "b": b, "kept": kept})  # noqa: S307
    assert "the f before the opening quotes" not in _defence(filled), _defence(filled)


def test_d_lesson_figures_pasted_are_named_and_the_learners_own_are_not():
    from embedlab.grading.questions.l11 import DEFAULTS, budget, solution_design
    from embedlab.sizing import design_figures, headroom

    # the lesson's team design's figures (another of its designs than the reported one), in other forms
    text = ("Which budget binds, and by how much:\nCompute: 3.916e21 FLOPs, and memory 7.29 GB.\n\n"
            "Why this width and depth:\nIt keeps 1,497,434,112 parameters.\n\n"
            "What the tying choice costs:\nTying saves 524,288,000 parameters.\n")
    detail = _defence(text)
    for figure in ("3.916e21", "7.29", "1,497,434,112"):
        assert figure in detail, (figure, detail)
    assert "worked example" in detail, detail
    # the same sentences with the learner's own figures: nothing said of them
    f = design_figures(solution_design(DEFAULTS), budget(DEFAULTS))
    used = headroom(f, budget(DEFAULTS))
    own = (f"Which budget binds, and by how much:\nCompute: {f.train_flops:.4g} FLOPs, {used['compute']:.1%}, and "
           f"memory {f.serving_gb:.3f} GB.\n\nWhy this width and depth:\nIt keeps {f.params:,} parameters.\n\n"
           f"What the tying choice costs:\nTying saves {f.params - f.non_embedding:,} parameters.\n")
    assert "worked example" not in _defence(own), _defence(own)


def test_d_the_lesson_prints_the_figures_called_its_own():
    import json
    from pathlib import Path

    from embedlab.grading.questions.l11 import _lesson_numbers

    nb = json.loads((Path(__file__).parents[1] / "notebooks" / f"{L11}.ipynb").read_text())
    printed = "".join("".join(o.get("text", "")) for c in nb["cells"] if c["cell_type"] == "code"
                      for o in c.get("outputs", []))
    for figure in ("7.94", "1,155,610,624", "1,497,434,112", "7.29"):
        assert figure in printed, figure
        assert any(f"{x:,.0f}" == figure or f"{x:.3g}" == figure for x in _lesson_numbers()), figure


def test_d_the_grader_and_the_check_read_the_same_carried_answers():
    # the notebook's check and the grader both build `known` from each carried question's to_data
    from embedlab.grading.kinds import answer_of, carried_data

    ns, _ = answered(L11, "defence", 'defence = "Which budget binds, and by how much:\\nIt is 7.94 GB.\\n"\n')
    ex = Exercise(L11)
    q = ex.questions["defence"]
    known = carried_data(q, lambda c: ex._data(c, ns))
    by_wire = carried_data(q, lambda c: ex.questions[c].to_data(answer_of(ex.questions[c], ns, Ellipsis)))
    assert known == by_wire and set(known) == set(q.carries)
    assert "7.94 is a figure of lesson 11's worked example" in ex.verdict("defence", ns).detail


# --------------------------------------------------------------------------
# (e) no catch-all that blames right things


@pytest.mark.parametrize("source, words", [
    ('mem = serving_memory(design, context=context, batch=1, weights=weights, kv=kv)\n'
     'design_serving_gb = mem["total"] / 2**20\n', "MiB"),
    ('mem = serving_memory(design, context=context, batch=1, weights=weights, kv=kv)\n'
     'design_serving_gb = float(f"{mem[\'total\'] / GB:.3g}")\n', "rounded"),
    # a batch typed in the call: named with the job's own (the call put back gives the answer; since gen18b)
    ('mem = serving_memory(design, context=context, batch=4, weights=weights, kv=kv)\n'
     'design_serving_gb = mem["total"] / GB\n', "`batch=4` is typed by hand"),
    ('mem = serving_memory(design, context=context, batch=3, weights=weights, kv=kv)\n'
     'design_serving_gb = mem["total"] / GB\n', "`batch=3` is typed by hand"),
    # the call not the value (its total scaled by a batch the call does not take): measured, as before
    ('mem = serving_memory(design, context=context, batch=1, weights=weights, kv=kv)\n'
     'design_serving_gb = (mem["weights"] + 3 * mem["kv_cache"]) / GB\n', "exactly 3 times"),
])
def test_e_a_serving_memory_slip_is_named_by_what_it_proves(source, words):
    detail = _detail(L11, "design_serving_gb", source)
    assert words in detail and "context, batch and precisions" not in detail, detail


def test_e_a_design_that_is_none_says_what_none_means():
    # a vocabulary below the minimum passed positionally
    source = ("fit = deepest_fit(lambda L: llama_config(24_000, 1024, L, 16, 4, 4096, True), BUDGET)\n"
              "design = fit.design\n")
    detail = _detail(L11, "design", source)
    assert "`design` holds no config" in detail and "24,000" in detail and "min_vocab_size" in detail, detail
    # no depth fits for another reason (an MLP far too wide): None said, no vocabulary blamed
    source = ("fit = deepest_fit(lambda L: llama_config(32_000, 1024, L, 16, 4, 400_000, True), BUDGET)\n"
              "design = fit.design\n")
    detail = _detail(L11, "design", source)
    assert "`design` holds no config" in detail and "vocab" not in detail, detail


def test_e_the_new_tokens_share_given_for_the_kl_is_named():
    # P_new from the model's own softmax, summed over the new columns, per position then averaged
    source = ("grown = resize_tinylm(run.model, n_new, 'mean')\n"
              "z = grown.logits(contexts)\nz = z - z.max(axis=1, keepdims=True)\n"
              "p = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)\n"
              "kl_mean = float(p[:, corpus.vocab_size:].sum(axis=1).mean())\n")
    detail = _detail(L12, "kl_mean", source)
    assert "P_new" in detail and "off by one" not in detail, detail


def test_e_words_counted_for_rows_are_named():
    source = "trimmed_rows = len(words[:n_words]) + 256 + 1\n"
    detail = _detail(L12, "trimmed_rows", source)
    assert "counts the words, not their tokens" in detail and "off by one" not in detail, detail


def test_d_sizes_a_learner_may_compare_are_never_called_the_lessons():
    # another number of heads compared (d = 2,048, 32 heads: the lesson's width) and a 128,000 vocabulary weighed:
    # sizes anyone may write, not figures of the lesson's designs
    text = ("Which budget binds, and by how much:\nCompute, 99.3%.\n\n"
            "Why this width and depth:\nd = 2,048 (32 heads) fits fewer layers; a 128,000 vocabulary fits fewer.\n\n"
            "What the tying choice costs:\nUntied, the head adds 32,768,000 parameters.\n")
    assert "worked example" not in _defence(text), _defence(text)


def test_d_a_class_handouts_check_reads_the_defence_on_the_variants_job(monkeypatch):
    # the note is made against the job of the variant the handout's parameters are (its context here)
    from embedlab.grading import variants
    from embedlab.grading.questions import l11

    params = variants.parameters_of(L11, 2, secret=b"probe")
    assert params["context"] != l11.DEFAULTS["context"]
    monkeypatch.setattr(l11, "defence_figures", lambda known, text, job: f"judged on a context of {job.context}")
    ns = {**params, "design": l11.solution_design(params), "defence": "Which budget binds, and by how much:\nMemory.\n"}
    detail = Exercise(L11, mode="class").verdict("defence", ns).detail
    assert f"judged on a context of {params['context']}" in detail, detail


def test_d_a_class_handouts_check_and_the_grader_agree_on_the_defence():
    # class mode: the check judges the written answer with the question made for the handout's parameters, as
    # the grader does for that learner's variant, so the two notes agree word for word
    from embedlab.grading import variants
    from embedlab.grading.kinds import carried_data
    from embedlab.grading.questions.l11 import solution_design
    from embedlab.sizing import design_figures
    from embedlab.grading.questions.l11 import budget

    params = variants.parameters_of(L11, 2, secret=b"probe")
    design = solution_design(params)
    f = design_figures(design, budget(params))
    text = ("Which budget binds, and by how much:\nMemory, 7.94 GB.\n\nWhy this width and depth:\n"
            f"It keeps {f.params:,} parameters.\n\nWhat the tying choice costs:\nTying saves 1,155,610,624.\n")
    ns = {**params, "design": design, "design_params": f.params, "defence": text}
    ex = Exercise(L11, mode="class")
    checked = ex.verdict("defence", ns).detail
    graded = next(q for q in questions_for(L11, params) if q.name == "defence")
    known = carried_data(graded, lambda c: ex._data(c, ns))
    assert graded.with_known(known).judge(graded.to_data(text), None).detail == checked
    assert "7.94" in checked and "1,155,610,624" in checked and f"{f.params:,}" not in checked.split("rubric")[-1]
