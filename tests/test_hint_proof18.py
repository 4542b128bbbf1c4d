"""Newcomer N's six kinds (issue 46: a hint names a mistake only when it can prove it), each planted here as a NEW
instance: another form of the mistake, another question or another lesson than the report's rows.

(1) A wrong method that scored: exercise 11's `tightest_budget` compared raw amounts and got ✅. Two holes of the
    kind: the learner's `lambda kv: kv[1]` was read as a read of the notebook's `kv` (lesson 11's KV-cache
    precision, an input the budgets are made from), so every other-inputs case was passed over; and an answer right
    from the learner's own (wrong) earlier figures (error carried forward) was never held to other inputs at all.
(2) "Typed, not computed" said of a cell that types nothing: said only of a cell seen to type its answer, or of a
    typed number proven (the parameter put back gives the answer).
(3) A cause named for a choice ("the smallest fraction: max") only when the learner's own min, made max, gives the
    answer; `max(d)` over a dict's keys is named as comparing the keys.
(4) An answer cell that was run and raised is "raised", with the error's last line, never "not attempted".
(5) A merge loop that leaves its pair behind is named from the result (a pair merged twice); a row shift is said as
    seen, never guessed as an off-by-one, and never seen on two rows.
(6) 1 − x of a ratio that is no share is not "the share of the other part (the rest)".
"""

from __future__ import annotations

import contextlib
import io
import linecache
import sys

import numpy as np

from embedlab.grading import code, diagnose, undo
from embedlab.grading.elsewhere import learner_lines
from embedlab.grading.exercise import Exercise
from embedlab.grading.kinds import Choice, _elsewhere_case
from embedlab.grading.status import CORRECT, ERROR, INCORRECT, NOT_ATTEMPTED
from embedlab.grading.text import hint_problems

from hint_corpus import Wrong, check_wrong


def _verdict(lesson, name, source, above=""):
    """The notebook check's verdict for `source` as the learner's answer cell, `above` the learner's own earlier
    cells (their own figures), IPython's history holding both."""
    entry = Wrong(lesson, name, above + source, "", (), ())
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(entry)
    prelude = check_wrong.exercise_prelude(lesson, name)
    ns["_ih"] = ["", above, (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source]
    verdict = Exercise(lesson).verdict(name, ns)
    assert not hint_problems(verdict.detail), verdict.detail
    return verdict


# --------------------------------------------------------------------------
# (1) a wrong method is refused wherever an input the question allows separates it

# A design whose recounted figures bind on memory (multi-head attention: a large KV cache), with the learner's own
# training FLOPs counted per token instead of per sequence (×2,048): on their own figures compute binds, and the
# raw amounts (FLOPs always the largest number) give that same word.
MHA_WITH_OWN_FIGURES = (
    "design = llama_config(32000, 1024, 10, 16, 16, 4096, True)\n"
    "design_params = count_params(design).total\n"
    "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context, batch=1,\n"
    "                                   kv=BUDGET.kv)['total'] / GB\n"
    "design_train_flops = training_flops(design, BUDGET.train_context).total * BUDGET.train_tokens\n")


def test_raw_amounts_right_from_the_learners_own_figures_are_refused():
    source = ("ranked = sorted([(design_train_flops, 'compute'), (design_serving_gb, 'memory'),\n"
              "                 (design_params, 'parameters')])\n"
              "tightest_budget = ranked[-1][1]\n")
    verdict = _verdict("11-size-a-model", "tightest_budget", source, MHA_WITH_OWN_FIGURES)
    assert verdict.status == INCORRECT and verdict.points == 0, verdict
    assert "fraction" in verdict.detail and "raw number" in verdict.detail, verdict.detail


def test_fractions_right_from_the_learners_own_figures_are_still_carried():
    source = ("shares = {'parameters': design_params / max_params, 'memory': design_serving_gb / max_serving_gb,\n"
              "          'compute': design_train_flops / max_train_flops}\n"
              "tightest_budget = max(shares, key=shares.get)\n")
    verdict = _verdict("11-size-a-model", "tightest_budget", source, MHA_WITH_OWN_FIGURES)
    assert verdict.status == CORRECT and "error carried forward" in verdict.detail, verdict


def test_a_lambda_parameter_named_like_an_input_is_no_read_of_that_input():
    # `context` is a parameter of exercise 11 (the serving context, an input of BUDGET), here a lambda's own name
    source = ("tightest_budget = max({'memory': design_serving_gb, 'compute': design_train_flops,\n"
              "                      'parameters': design_params}.items(), key=lambda context: context[1])[0]\n")
    verdict = _verdict("11-size-a-model", "tightest_budget", source)
    assert verdict.status == INCORRECT and "raw number" in verdict.detail, verdict
    found = learner_lines("11-size-a-model", "tightest_budget", source)
    assert found is not None and "context" not in found[2] and "context" not in found[1], found[1:]


def test_inner_scope_names_are_not_the_notebooks():
    import ast

    tree = ast.parse("y = [w for w in words if w in keep]\nf = lambda kv: kv[1] + d\ndef g(a):\n    b = a\n    return b\n")
    local = code.inner_locals(tree)
    assert {"w", "kv", "a", "b"} <= local, local
    assert not {"words", "keep", "d", "y", "f", "g"} & local, local
    # a name used both at the top and inside a lambda is the notebook's
    assert "kv" not in code.inner_locals(ast.parse("z = kv\nf = lambda kv: kv\n"))


# --------------------------------------------------------------------------
# (2) "typed" said only where proven


def _same_case(source):
    question = Choice("ties", source=source)
    case = {"kind": "choice", "got": {"str": "yes"}, "want": {"str": "no"}, "words": "with another model",
            "why": "", "same": True}
    return _elsewhere_case(question, case)


def test_the_same_answer_elsewhere_is_called_typed_only_of_a_typed_cell():
    computed = _same_case("ties = 'yes' if shape.tied or shape.vocab_size > 0 else 'no'\n")
    assert computed and "typed" not in computed and "do not follow" in computed, computed
    typed = _same_case("ties = 'yes'\n")
    assert typed and "typed" in typed, typed


# --------------------------------------------------------------------------
# (3) a cause of a choice named only where the learner's own code proves it


USED = ("used = {'parameters': design_params / BUDGET.max_params,\n"
        "        'memory': design_serving_gb / BUDGET.max_serving_gb,\n"
        "        'compute': design_train_flops / BUDGET.max_train_flops}\n")


def test_the_smallest_fraction_by_a_sort_is_not_blamed_on_min():
    verdict = _verdict("11-size-a-model", "tightest_budget", USED + "tightest_budget = sorted(used, key=used.get)[0]\n")
    assert verdict.status == INCORRECT, verdict
    assert "(max)" not in verdict.detail and "largest fraction used" in verdict.detail, verdict.detail


def test_the_smallest_fraction_by_min_is_named_where_max_gives_the_answer():
    source = USED + "tightest_budget = min(used.items(), key=lambda item: item[1])[0]\n"
    verdict = _verdict("11-size-a-model", "tightest_budget", source)
    assert "least of" in verdict.detail and "(max)" in verdict.detail, verdict.detail


def test_a_dicts_keys_compared_are_named():
    source = ("fractions = dict(compute=design_train_flops / max_train_flops, memory=design_serving_gb / "
              "max_serving_gb,\n                 parameters=design_params / max_params)\n"
              "tightest_budget = min(fractions)\n")  # 'compute' by the alphabet: right by chance; max gives 'parameters'
    verdict = _verdict("11-size-a-model", "tightest_budget", source.replace("min(", "max("))
    assert "compares the keys" in verdict.detail and "least of" not in verdict.detail, verdict.detail


def test_the_extreme_edits_are_made_for_choices_only():
    src = "best = max(scores, key=scores.get)\nworst = np.argmin(x)\n"
    plain = [w for w, _ in undo.edits(src)]
    assert not any("the largest" in w or "the smallest" in w for w in plain), plain
    made = [w for w, _ in undo.edits(src, extremes=True)]
    assert any("`min(scores, key=scores.get)`" in w for w in made), made
    assert any("`np.argmax(x)`" in w for w in made), made


# --------------------------------------------------------------------------
# (4) a cell that raised says so


def _run_like_ipython(cell: str, ns: dict, number: int) -> None:
    """Run `cell` as IPython does: its text cached under the file name its frames carry, the error kept in
    sys.last_value (and shown, not raised)."""
    name = f"/tmp/ipykernel_test/{number}.py"
    linecache.cache[name] = (len(cell), None, cell.splitlines(True), name)
    try:
        exec(compile(cell, name, "exec"), ns)  # noqa: S102
    except Exception as exc:  # noqa: BLE001
        sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, exc.__traceback__


def test_an_answer_cell_that_raised_is_said_to_have_raised():
    lesson, name = "07-memory", "weights_gb_4bit"
    ns = check_wrong.fresh(check_wrong.preluded(lesson, name))
    cell = "weights_gb_4bit = count_params(load_config(weights_model)).total * {'int4': 0.5}['int3'] / 1e9\n"
    ns["_ih"] = ["", cell, f'ex.check("{name}")']
    _run_like_ipython(cell, ns, 1)
    verdict = Exercise(lesson).verdict(name, ns)
    assert verdict.status == ERROR and verdict.points == 0, verdict
    assert "raised KeyError: 'int3'" in verdict.detail and "not attempted" not in verdict.line(name), verdict
    # book/how-to-use.md's words: ❌ "your answer cell was run and raised", with the error's last line
    assert verdict.line(name).startswith("❌") and "your answer cell was run and raised" in verdict.detail, verdict
    text = open(__file__.replace("tests/test_hint_proof18.py", "book/how-to-use.md"), encoding="utf-8").read()
    assert "your answer cell was run and raised" in " ".join(text.split()), "book/how-to-use.md no longer says it"


def test_a_cell_not_run_is_still_not_attempted():
    lesson, name = "07-memory", "weights_gb_4bit"
    ns = check_wrong.fresh(check_wrong.preluded(lesson, name))
    other = "x = {}['missing']\n"
    ns["_ih"] = ["", other]
    _run_like_ipython(other, ns, 2)  # another cell's error is not the answer's
    verdict = Exercise(lesson).verdict(name, ns)
    assert verdict.status == NOT_ATTEMPTED, verdict


# --------------------------------------------------------------------------
# (5) a merge loop that leaves its pair behind


def test_a_merge_that_rewrites_only_the_first_word_holding_the_pair_is_named():
    source = ("def bpe_merges(counts, n_merges):\n"
              "    words = {w: list(w.encode('utf-8')) for w in counts}\n"
              "    merges = []\n"
              "    for k in range(n_merges):\n"
              "        pairs = {}\n"
              "        for w, toks in words.items():\n"
              "            for p in zip(toks, toks[1:]):\n"
              "                pairs[p] = pairs.get(p, 0) + counts[w]\n"
              "        if not pairs:\n"
              "            break\n"
              "        best = min(pairs, key=lambda p: (-pairs[p], p))\n"
              "        for w, toks in words.items():\n"
              "            if any(q == best for q in zip(toks, toks[1:])):\n"
              "                out, i = [], 0\n"
              "                while i < len(toks):\n"
              "                    if i + 1 < len(toks) and (toks[i], toks[i + 1]) == best:\n"
              "                        out.append(256 + k)\n"
              "                        i += 2\n"
              "                    else:\n"
              "                        out.append(toks[i])\n"
              "                        i += 1\n"
              "                words[w] = out\n"
              "                break   # the first word holding the pair only\n"
              "        merges.append(best)\n"
              "    return merges\n")
    verdict = _verdict("08-vocabulary-size", "bpe_merges", source)
    assert verdict.status == INCORRECT and "left the pair behind" in verdict.detail, verdict.detail
    assert "off-by-one" not in verdict.detail, verdict.detail


def test_a_row_shift_is_said_as_seen_and_not_on_two_rows():
    def close(a, b):
        return np.isclose(a, b)

    want = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    got = np.array([[3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [7.0, 8.0]])
    said = diagnose.array_hint(got, want, close) or ""
    assert "shifted by one row" in said and "off-by-one" not in said, said
    two = diagnose.array_hint(np.array([[1.0, 2.0], [1.0, 2.0]]), np.array([[1.0, 2.0], [7.0, 8.0]]), close) or ""
    assert "shifted" not in two and "off-by-one" not in two, two


# --------------------------------------------------------------------------
# (6) the complement of a ratio


def test_one_minus_a_ratio_is_not_called_the_share_of_the_rest():
    source = ("gpt2, cl100k = load_tokenizer('gpt2'), load_tokenizer('cl100k_base')\n"
              "hindi = word_counts('hi', n_words)\n"
              "ws = list(hindi)\ncs = np.array([hindi[w] for w in ws])\n"
              "per = {name: (cs * np.array([len(tok.encode_ordinary(' ' + w)) for w in ws])).sum() / cs.sum()\n"
              "       for name, tok in (('gpt2', gpt2), ('cl100k', cl100k))}\n"
              "hindi_r = 1 - per['cl100k'] / per['gpt2']\n")
    verdict = _verdict("08-vocabulary-size", "hindi_r", source)
    assert verdict.status == INCORRECT and "1 minus the asked ratio" in verdict.detail, verdict.detail
    assert "the rest" not in verdict.detail and "share" not in verdict.detail, verdict.detail


def test_words_left_out_of_the_audit_are_named():
    """Exercise 08 Q6 keeps number shapes (its text says so since newcomer N); a filter written another way than
    the report's (a new list, another test) is named, not told 'a little too small'."""
    source = ("kept = [w for w in top_hindi if not w.isdigit()]\n"
              "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in kept) / len(kept)\n")
    verdict = _verdict("08-vocabulary-size", "hindi_single_token_share", source)
    assert verdict.status == INCORRECT and "leaves some words out" in verdict.detail, verdict.detail
    assert "'00'" in verdict.detail, verdict.detail
