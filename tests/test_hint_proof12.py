"""Wrong answers the checks accepted, and hints that blamed the wrong answer, found by two newcomers (issue 46);
each kind is planted here as a NEW instance (another question, lesson or code style than the one reported).

(1) a function question whose fixed inputs cannot tell a wrong method from the right one: ids handled as text
    (merged with str.replace, remembered in a string) pass unless two ids' decimal forms overlap; every
    function question's fixed inputs are held to cases.blind_spots (several digits, overlapping digits,
    repeats, disorder, a table that is not square);
(2) a value typed where a parameter belongs, in any syntactic place (a slice, range(), an index, a keyword):
    the learner's lines run on the question's other inputs with the typed number put back as the parameter
    they stand for;
(3) an answer computed with the learner's own earlier answer that is itself wrong: said first, and proven by
    running the lines again with the right earlier answer; never "too small" for ids;
(4) a function result of the wrong length: its count is said before what its entries hold;
(5) an exception: kept, with one true line of what the input is (plain lists, empty) or where it happens
    (nothing left), proven from that input.
"""

from __future__ import annotations

import numpy as np
import pytest

from embedlab.grading.cases import blind_spots, fixed_cases, rng_for
from embedlab.grading.kinds import Array, Function, status_only
from embedlab.grading.lessons import known_lessons, questions_for
from embedlab.grading.text import hint_problems

from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines


def _raw_detail(lesson, name, source):
    """The notebook check's hint, as _detail reads it, without its rendering check: the call's own text may be
    read as an empty slot (`one_hot([], 5)`), which is the call, not the hint's words."""
    import contextlib
    import io

    from embedlab.grading.exercise import Exercise
    from hint_corpus import Wrong, check_wrong

    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(Wrong(lesson, name, source, "", (), ()))
    prelude = check_wrong.exercise_prelude(lesson, name)
    ns["_ih"] = ["", (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source]
    verdict = Exercise(lesson).verdict(name, ns)
    assert verdict.status == "incorrect", verdict
    return verdict.detail


def _question(lesson, name):
    return next(q for q in questions_for(lesson) if q.name == name)


def _status(lesson, name, source, seed=None):
    q = _question(lesson, name)
    namespace = {"np": np}
    exec(source, namespace)  # noqa: S102 - the planted answers are ours
    cases = q.cases(rng_for(lesson, name, seed))
    with status_only():
        return q.judge(q.run_cases(namespace[name], cases), q.expected_outputs(cases)).status


# --------------------------------------------------------------------------
# (1) inputs too regular to tell a wrong method from the right one


def test_1_every_function_question_has_fixed_inputs_without_blind_spots():
    found = [spot for lesson in known_lessons() for q in questions_for(lesson) if isinstance(q, Function)
             for spot in blind_spots(q)]
    assert found == []


def test_1_blind_spots_are_found_in_regular_inputs():
    # a question drawn only from ids below 10, each once, in order, with a square table: every spot named
    q = Function("f", reference=lambda table, ids: table[ids].sum(axis=0),
                 cases=lambda rng: [(np.eye(3), np.array([0, 1, 2])), (np.ones((2, 2)), np.array([1]))])
    spots = " ".join(blind_spots(q))
    for words in ("two digits", "ends or begins", "never repeats", "out of order", "square"):
        assert words in spots, spots
    assert fixed_cases(q) and len(fixed_cases(q)) == 2


# storages remembered as text: `str(s) in seen` finds 65 inside " 165" (lesson 05, another question than BPE)
TEXT_STORAGES = ("def count_unique(storage, sizes):\n    seen = ''\n    total = 0\n"
                 "    for s, n in zip(storage, sizes):\n        if str(s) not in seen:\n"
                 "            seen += ' ' + str(s)\n            total += int(n)\n    return total\n")
# the merge loop on words written as text, the pair merged with str.replace (another style than the newcomer's:
# a list of strings, the pair counted on split words, an f-string pattern)
TEXT_MERGES = ("def bpe_merges(counts, n_merges):\n"
               "    words = [' '.join(map(str, w.encode('utf-8'))) for w in counts]\n    merges = []\n"
               "    for k in range(n_merges):\n        pairs = {}\n"
               "        for w, n in zip(words, counts.values()):\n            t = [int(x) for x in w.split()]\n"
               "            for p in zip(t, t[1:]):\n                pairs[p] = pairs.get(p, 0) + n\n"
               "        if not pairs:\n            break\n        best = min(pairs, key=lambda p: (-pairs[p], p))\n"
               "        merges.append(best)\n"
               "        words = [w.replace(f'{best[0]} {best[1]}', str(256 + k)) for w in words]\n"
               "    return merges\n")
# ids of a one-hot batch turned to text and back, a set of ids found by substring (lesson 02)
TEXT_ONE_HOT = ("def one_hot(ids, V):\n    text = ' '.join(str(i) for i in ids)\n    out = np.zeros((len(ids), V))\n"
                "    for v in range(V):\n        if str(v) in text:\n"
                "            for row, i in enumerate(ids):\n                if i == v:\n"
                "                    out[row, v] = 1\n    return out\n")


@pytest.mark.parametrize("lesson, name, source", [("05-weight-tying", "count_unique", TEXT_STORAGES),
                                                  ("08-vocabulary-size", "bpe_merges", TEXT_MERGES)])
def test_1_ids_handled_as_text_fail_on_every_seed(lesson, name, source):
    for seed in (None, 1, 2, 3):
        assert _status(lesson, name, source, seed) == "incorrect", seed


def test_1_a_text_method_that_is_right_on_every_input_stays_right():
    # the substring test only skips ids absent from the batch, so it is right: overlapping digits do not refute it
    assert _status("02-lookup-vs-matmul", "one_hot", TEXT_ONE_HOT) == "correct"


# --------------------------------------------------------------------------
# (4) a result's count before what each entry holds


def test_4_a_loop_one_short_is_counted_before_the_entries_are_judged():
    # another style than range(n_merges - 1): a while loop that stops one merge early
    source = ("def bpe_merges(counts, n_merges):\n    from embedlab.bpe import merge_word\n"
              "    words = [list(w.encode('utf-8')) for w in counts]\n    merges = []\n"
              "    while len(merges) < n_merges - 1:\n        pairs = {}\n"
              "        for t, n in zip(words, counts.values()):\n            for p in zip(t, t[1:]):\n"
              "                pairs[p] = pairs.get(p, 0) + n\n        if not pairs:\n            break\n"
              "        best = min(pairs, key=lambda p: (-pairs[p], p))\n        merges.append(best)\n"
              "        words = [merge_word(t, best, 255 + len(merges)) for t in words]\n    return merges\n")
    detail = _detail("08-vocabulary-size", "bpe_merges", source)
    # the count said, or the learner's own test edited into the answer (embedlab.grading.undo, proven by a
    # rerun): either names the loop that stops one merge early, never the entries' form
    assert "n_merges − 1 merges where n_merges are asked" in detail \
        or "`len(merges) <= n_merges - 1`, your own code gives the answer" in detail, detail
    assert "(a, b) pairs" not in detail, detail


def test_4_a_count_asked_by_another_argument_is_named_by_it():
    # a question nobody wrote: the k highest scores' positions, written with range(k + 1)
    q = Function("top_k", reference=lambda scores, k: np.argsort(-np.asarray(scores), kind="stable")[:k],
                 cases=lambda rng: [(np.array([0.5, 2.0, 1.0, -1.0]), 2), (np.array([3.0, 1.0, 2.0]), 1)],
                 result=Array("top_k", exact=True))

    def top_k(scores, k):
        order = np.argsort(-np.asarray(scores), kind="stable")
        return order[:k + 1]

    cases = q.cases(None)
    detail = q.judge(q.run_cases(top_k, cases), q.expected_outputs(cases)).detail
    assert "k + 1 entries where k are asked" in detail, detail
    assert not hint_problems(detail), detail


def test_4_a_count_off_on_one_input_only_is_not_said_to_be_the_loop():
    # the text merge loop makes one merge too few on one input and the right number on another: no count relation
    detail = _detail("08-vocabulary-size", "bpe_merges", TEXT_MERGES)
    assert "n_merges − 1" not in detail and "where n_merges are asked" not in detail, detail


def test_4_a_count_does_not_displace_a_slip_proven_on_the_arguments():
    # the last id left out: the reference on the arguments changed so names it; the bare count comes after
    source = "def one_hot(ids, V):\n    return np.eye(V)[np.asarray(ids)[:-1]]\n"
    detail = _detail("02-lookup-vs-matmul", "one_hot", source)
    assert "leaves out the last item of `ids`" in detail and "too few" not in detail, detail


def test_4_a_short_result_no_count_explains_keeps_the_shape_words():
    # every row right but the batch's repeats dropped (np.unique): fewer rows than ids, and no count argument
    # explains the length (V is a size): the question's own words on the shape stand, no count is guessed
    source = "def one_hot(ids, V):\n    return np.eye(V)[np.unique(np.asarray(ids))]\n"
    detail = _detail("02-lookup-vs-matmul", "one_hot", source)
    assert "one row per id" in detail and "where" not in detail, detail


def test_4_a_made_up_merge_is_counted_where_nothing_is_left():
    # a loop that never stops early: when no pair is left it merges the last pair again
    source = ("def bpe_merges(counts, n_merges):\n    from embedlab.bpe import merge_word\n"
              "    words = [list(w.encode('utf-8')) for w in counts]\n    merges, best = [], None\n"
              "    for k in range(n_merges):\n        pairs = {}\n"
              "        for t, n in zip(words, counts.values()):\n            for p in zip(t, t[1:]):\n"
              "                pairs[p] = pairs.get(p, 0) + n\n"
              "        if pairs:\n            best = min(pairs, key=lambda p: (-pairs[p], p))\n"
              "        merges.append(best)\n        words = [merge_word(t, best, 256 + k) for t in words]\n"
              "    return merges\n")
    detail = _detail("08-vocabulary-size", "bpe_merges", source)
    assert "n_merges merges where only 2 can be made on this input" in detail, detail


# --------------------------------------------------------------------------
# (5) an exception, with one true line on its input


def test_5_a_list_argument_is_said_to_be_a_list():
    # lesson 10: reference_ids arrives as a list; .astype is a numpy array's
    source = ("def unused_score(M, reference_ids):\n    ref = M[reference_ids.astype(int)].mean(axis=0)\n"
              "    return M @ ref / (np.linalg.norm(M, axis=1) * np.linalg.norm(ref))\n")
    detail = _detail("10-glitch-tokens", "unused_score", source)
    assert "AttributeError" in detail and "'list' object has no attribute 'astype'" in detail, detail
    assert "plain lists" in detail and "`reference_ids` is a list" in detail, detail


def test_5_an_empty_input_is_said_to_be_empty():
    source = ("def one_hot(ids, V):\n    assert ids.max() < V\n    out = np.zeros((len(ids), V))\n"
              "    out[np.arange(len(ids)), ids] = 1\n    return out\n")
    detail = _raw_detail("02-lookup-vs-matmul", "one_hot", source)
    assert "ValueError" in detail and "zero-size array" in detail, detail
    assert "`ids` is empty" in detail, detail
    said = detail[detail.index("here `ids`"):detail.index(" (its message")]
    assert not hint_problems(said), said


def test_5_nothing_left_to_merge_is_said_where_the_input_has_no_pair_left():
    # another style: max(pairs, key=pairs.get) on an empty dict
    source = ("def bpe_merges(counts, n_merges):\n    from embedlab.bpe import merge_word\n"
              "    words = {w: list(w.encode('utf-8')) for w in counts}\n    merges = []\n"
              "    for k in range(n_merges):\n        pairs = {}\n        for w, t in words.items():\n"
              "            for p in zip(t, t[1:]):\n                pairs[p] = pairs.get(p, 0) + counts[w]\n"
              "        top = max(pairs.values())\n"
              "        best = min(p for p in pairs if pairs[p] == top)\n        merges.append(best)\n"
              "        words = {w: merge_word(t, best, 256 + k) for w, t in words.items()}\n    return merges\n")
    detail = _detail("08-vocabulary-size", "bpe_merges", source)
    assert "ValueError" in detail and "empty" in detail, detail
    assert "only 2 merges can be made (n_merges = 3)" in detail and "nothing is left" in detail, detail


def test_5_no_line_is_added_where_the_input_does_not_prove_it():
    # an exception on a call given arrays only, with nothing empty: the exception alone
    source = ("def unused_score(M, reference_ids):\n    raise ValueError('not done')\n")
    detail = _detail("10-glitch-tokens", "unused_score", source)
    assert "plain lists" not in detail and "is empty" not in detail and "nothing is left" not in detail, detail


# --------------------------------------------------------------------------
# (2) a number typed where a parameter belongs, in any syntactic place


@pytest.mark.parametrize("source", [
    # a function's argument (itertools.islice), a comparison in a comprehension, a slice of the right list
    "import itertools\nhindi_single_token_share = np.mean([bpe.count_tokens(w) == 1 for w in itertools.islice(hindi, 100)])\n",
    "hindi_single_token_share = np.mean([bpe.count_tokens(w) == 1 for i, w in enumerate(hindi) if i < 100])\n",
    "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top_hindi[:100]) / len(top_hindi)\n",
])
def test_2_a_typed_count_in_any_place_is_named_as_the_parameter(source):
    detail = _detail("08-vocabulary-size", "hindi_single_token_share", source)
    assert detail.startswith("right for these inputs only") and "`n_top`'s value" in detail, detail


def test_2_a_typed_length_is_named_in_another_lesson():
    # lesson 10: the 9 never-seen rows' pairs typed into triu_indices; on one row fewer the cell raises
    source = ("rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
              "C = unit @ unit.T\nnever_cos = C[np.triu_indices(9, k=1)].mean()\n")
    detail = _detail("10-glitch-tokens", "never_cos", source)
    assert "The 9 your lines type is len(never)" in detail, detail


def test_2_the_right_cells_stay_right():
    from test_hint_proof5 import check_wrong, Wrong  # noqa: F401 - the same runner as _detail
    import contextlib
    import io

    from embedlab.grading.exercise import Exercise

    for lesson, name, source in [
        ("08-vocabulary-size", "hindi_single_token_share",
         "hindi_single_token_share = sum(bpe.count_tokens(w) == 1 for w in top_hindi) / len(top_hindi)\n"),
        ("08-vocabulary-size", "hindi_single_token_share",
         "hindi_single_token_share = np.mean([bpe.count_tokens(w) == 1 for w in list(hindi)[:n_top]])\n"),
        ("10-glitch-tokens", "never_cos",
         "rows = run.model.E[never]\nunit = rows / np.linalg.norm(rows, axis=1, keepdims=True)\n"
         "C = unit @ unit.T\nnever_cos = C[np.triu_indices(len(rows), k=1)].mean()\n")]:
        with contextlib.redirect_stdout(io.StringIO()):
            _, ns = check_wrong.run_entry(Wrong(lesson, name, source, "", (), ()))
        prelude = check_wrong.exercise_prelude(lesson, name)
        ns["_ih"] = ["", prelude + "# YOUR CODE HERE\n" + source]
        assert Exercise(lesson).verdict(name, ns).status == "correct", source


def test_2_typed_numbers_are_found_in_every_syntactic_place():
    import ast

    from embedlab.grading.elsewhere import typed_parameters

    module = ast.parse("a = x[:100]\nb = range(100)\nc = np.arange(stop=100)\nd = y[100]\ne = 2 * z\n"
                       "f = [w for i, w in enumerate(v) if i < 100]\n")
    found = typed_parameters(module, {"n_top": 100, "d": 2}, {"n_top": 50, "d": 3}, solution="e = 2 * z\n")
    assert [(v, n, there, len(nodes)) for v, n, there, nodes in found] == [(100, "n_top", 50, 5)]


# --------------------------------------------------------------------------
# (3) an answer computed with the learner's own earlier answer that is not right yet


def _notebook_and_grader(lesson, cells: dict, name):
    """(the notebook check's verdict, the grader's (status, detail)) of `name` in a namespace where the solution's
    cells ran and then each of `cells` ({question: the learner's own lines}) replaced that question's own, in order;
    the grader's scoring as embedlab-grade's, on its probe of that namespace (every function's inputs drawn)."""
    import contextlib
    import io
    import warnings

    from jupyter_client.session import json_packer, json_unpacker

    from embedlab.grading import wire
    from embedlab.grading.code import SOURCE_LIMIT
    from embedlab.grading.exercise import Exercise
    from embedlab.grading.judge import score
    from embedlab.grading.lessons import load_key
    from embedlab.grading.sandbox import Limits, RunResult
    from embedlab.grading.values import encode_value
    from hint_corpus import check_wrong

    first = next(iter(cells))
    with contextlib.redirect_stdout(io.StringIO()):
        ns = check_wrong.fresh(check_wrong.preluded(lesson, name))
    sources = {}
    for q_name, own in cells.items():
        prelude = check_wrong.exercise_prelude(lesson, q_name)
        sources[q_name] = (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + own
        with contextlib.redirect_stdout(io.StringIO()):
            exec(sources[q_name], ns)  # noqa: S102 - the planted answers are ours
    ns["_ih"] = [""] + [sources[q] for q in cells]
    notebook = Exercise(lesson).verdict(name, ns)
    cases, reference = {}, {}
    for q in questions_for(lesson):
        if isinstance(q, Function):
            args = q.cases(rng_for(lesson, q.name))
            cases[q.name] = encode_value(list(args))
            reference[q.name] = q.expected_outputs(args)
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        answers = json_unpacker(json_packer(dict(wire.probe(lesson, ns, json_unpacker(json_packer(cases))))))
    result = RunResult("finished", report={"sources": {q: s[:SOURCE_LIMIT] for q, s in sources.items()}},
                       answers=answers)
    _, _, status, detail = score(_question(lesson, name), load_key(lesson), reference, result, Limits(), lesson)
    assert first  # the cells are applied in order
    return notebook, (status, detail)


# lesson 10's question 3 with the mean of every row (not the reference rows'), written as a loop
MEAN_OF_ALL = ("def unused_score(M, reference_ids):\n    mean = sum(M[i] for i in range(len(M))) / len(M)\n"
               "    return (M @ mean) / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n")


def test_3_a_right_ranking_with_a_wrong_earlier_function_blames_the_function():
    # another code style than the newcomer's: the ranking with np.setdiff1d-free filtering in a loop
    top7 = ("s = unused_score(run.model.E, reference)\ntop7 = []\nfor i in np.argsort(-s, kind='stable'):\n"
            "    if i not in reference and len(top7) < 7:\n        top7.append(int(i))\ntop7 = np.array(top7)\n")
    notebook, (status, detail) = _notebook_and_grader(
        "10-glitch-tokens", {"unused_score": MEAN_OF_ALL, "top7": top7}, "top7")
    assert notebook.status == status == "incorrect", (notebook, detail)
    assert notebook.detail == detail, (notebook.detail, detail)
    assert detail.startswith("your `unused_score` (question 3) is not right yet, and this answer uses it"), detail
    assert "With a right `unused_score` your lines give the answer" in detail, detail
    assert "too small" not in detail and "too big" not in detail, detail


def test_3_a_ranking_wrong_on_its_own_too_gets_its_own_hint_after():
    # lowest first, with the same wrong function: fixing question 3 is not enough, and the rest is said
    top7 = ("s = unused_score(run.model.E, reference)\n"
            "top7 = np.array([i for i in np.argsort(s, kind='stable') if i not in reference][:7])\n")
    notebook, (status, detail) = _notebook_and_grader(
        "10-glitch-tokens", {"unused_score": MEAN_OF_ALL, "top7": top7}, "top7")
    assert notebook.detail == detail, (notebook.detail, detail)
    # the earlier answer named first (book/how-to-use.md), then its own mistake as its own (what its lines give with a
    # right unused_score; test_hint_proof17: the earlier answer is the cause only where putting it right gives it)
    lead = ("your `unused_score` (question 3) is not right yet, and this answer uses it: fix question 3, and this "
            "answer's own lines too: with a right `unused_score` they give another answer: ")
    assert detail.startswith(lead) and "highest first" in detail[len(lead):].split(";")[0], detail


def test_3_a_right_earlier_function_changes_nothing():
    top7 = ("s = unused_score(run.model.E, reference)\n"
            "top7 = np.array([i for i in np.argsort(s, kind='stable') if i not in reference][:7])\n")
    right = ("def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0)\n"
             "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n")
    notebook, (status, detail) = _notebook_and_grader(
        "10-glitch-tokens", {"unused_score": right, "top7": top7}, "top7")
    assert "question 3" not in detail and notebook.detail == detail, detail


def test_3_ids_are_never_too_small():
    from embedlab.grading.kinds import Array

    q = Array("top", exact=True, ids=True)
    detail = q.judge(q.to_data(np.array([3, 1, 2])), q.to_data(np.array([9, 8, 7]))).detail
    assert "too small" not in detail and "too big" not in detail, detail
    assert "too small" in Array("n", exact=True).judge(Array("n").to_data(np.array([3, 1, 2])),
                                                       Array("n").to_data(np.array([9, 8, 7]))).detail


def test_3_a_matmul_with_a_wrong_earlier_one_hot_blames_the_one_hot():
    # lesson 02: the learner's own one_hot (question 1), one column off, used for rows_matmul
    one_hot = ("def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n"
               "    out[np.arange(len(ids)), (np.asarray(ids) + 1) % V] = 1.0\n    return out\n")
    notebook, (status, detail) = _notebook_and_grader(
        "02-lookup-vs-matmul", {"one_hot": one_hot, "rows_matmul": "rows_matmul = one_hot(ids, table_V) @ E\n"},
        "rows_matmul")
    assert notebook.detail == detail and status == "incorrect", (notebook.detail, detail)
    assert detail.startswith("your `one_hot` (question 1) is not right yet, and this answer uses it"), detail
    assert "your lines give the answer" in detail, detail


def test_3_a_count_from_a_wrong_earlier_table_blames_the_table():
    # lesson 01: the learner's own table E (question 1) with a feature left out, then n_params read from it: a
    # value, which no rerun can put right, so only what is known is said
    table = "E = np.array([[int(f in traits[w]) for f in features[:-1]] for w in words])\n"
    notebook, (status, detail) = _notebook_and_grader(
        "01-toy-table", {"E": table, "n_params": "n_params = E.shape[0] * E.shape[1]\n"}, "n_params")
    assert notebook.detail == detail and status == "incorrect", (notebook.detail, detail)
    assert detail == ("your `E` (question 1) is not right yet, and this answer uses it: fix question 1 first, then "
                      "check this answer again"), detail


# --------------------------------------------------------------------------
# newcomer A's first defect, by kind: an order said to be a sort direction where no direction is proven


def test_the_right_rows_ranked_by_another_measure_are_not_told_to_sort_highest_first():
    # ranked by length, shortest first, ascending (another style than -norm sorted highest first): the same seven
    # rows, in the order of another measure; the sort direction is not the slip
    source = ("lengths = np.linalg.norm(run.model.E, axis=1)\n"
              "order = [int(i) for i in np.argsort(lengths, kind='stable') if i not in reference]\n"
              "top7 = np.array(order[:7])\n")
    detail = _detail("10-glitch-tokens", "top7", source)
    assert "not the order of their scores" in detail and "cosine with the reference rows' mean" in detail, detail


def test_4_5_a_size_argument_is_not_taken_for_a_count_asked():
    # one_hot(ids, V): V is a size, not a count the result's length follows, even where len(ids) == V ([0], 1)
    from embedlab.grading import function_hints

    q = _question("02-lookup-vs-matmul", "one_hot")
    cases = q.cases(rng_for("02-lookup-vs-matmul", "one_hot"))
    data = q.run_cases(lambda ids, V: np.eye(V)[np.asarray(ids)[:-1]], cases)
    assert function_hints.count_relation(q, data, q.expected_outputs(cases)) is None
    args = (np.array([2, 0, 2]), 4)
    want = q.expected_outputs([args])[0]["out"]
    said = function_hints.exception_context(q, "ValueError: max() arg is an empty sequence", want, args)
    assert said is None, said


def test_2_the_grader_says_the_same_words():
    source = ("import itertools\n"
              "hindi_single_token_share = np.mean([bpe.count_tokens(w) == 1 for w in itertools.islice(hindi, 100)])\n")
    notebook, (status, detail) = _notebook_and_grader(
        "08-vocabulary-size", {"hindi_single_token_share": source}, "hindi_single_token_share")
    from embedlab.grading.text import cut

    # the grader's row holds the detail cut to the CSV's 300 characters: the same words, as far as they go
    assert status == notebook.status == "incorrect" and cut(notebook.detail) == detail, (notebook.detail, detail)
    assert "`n_top`'s value" in detail, detail


# the newcomer's own merge loop (their code style and input), kept as the reported instance
REPORTED_TEXT_MERGES = (
    "def bpe_merges(counts, n_merges):\n"
    "    seqs = {w: ' '.join(str(b) for b in w.encode('utf-8')) for w in counts}\n    merges = []\n"
    "    for k in range(n_merges):\n        pairs = {}\n        for w, s in seqs.items():\n"
    "            t = [int(x) for x in s.split()]\n            for p in zip(t, t[1:]):\n"
    "                pairs[p] = pairs.get(p, 0) + counts[w]\n        if not pairs:\n            break\n"
    "        best = min(pairs, key=lambda p: (-pairs[p], p))\n        merges.append(best)\n"
    "        pat = f'{best[0]} {best[1]}'\n        seqs = {w: s.replace(pat, str(256 + k)) for w, s in seqs.items()}\n"
    "    return merges\n")


def test_1_the_reported_merge_loop_is_refused_too():
    assert _status("08-vocabulary-size", "bpe_merges", REPORTED_TEXT_MERGES) == "incorrect"
    q = _question("08-vocabulary-size", "bpe_merges")
    namespace = {}
    exec(REPORTED_TEXT_MERGES, namespace)  # noqa: S102
    assert namespace["bpe_merges"]({"AB": 5, "ĥB": 1, "ĥX": 1}, 4) != q.reference({"AB": 5, "ĥB": 1, "ĥX": 1}, 4)


def test_3_a_function_built_on_a_wrong_earlier_function_blames_that_function():
    # lesson 02: the gradient written as one_hot(ids, V).T @ grad_out with the learner's own one_hot (question 1),
    # one column off: a function answer reading an earlier function answer
    one_hot = ("def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n"
               "    out[np.arange(len(ids)), (np.asarray(ids) + 1) % V] = 1.0\n    return out\n")
    backward = "def embedding_backward(ids, grad_out, V):\n    return one_hot(ids, V).T @ grad_out\n"
    notebook, (status, detail) = _notebook_and_grader(
        "02-lookup-vs-matmul", {"one_hot": one_hot, "embedding_backward": backward}, "embedding_backward")
    assert notebook.detail == detail and status == "incorrect", (notebook.detail, detail)
    assert detail.startswith("your `one_hot` (question 1) is not right yet, and this answer uses it"), detail
    assert "your lines give the answer" in detail, detail


@pytest.mark.parametrize("source", [TEXT_MERGES, REPORTED_TEXT_MERGES])
def test_1_a_merge_made_on_text_is_named_as_such(source):
    detail = _detail("08-vocabulary-size", "bpe_merges", source)
    assert "merged inside the text of a neighbouring id" in detail and "not as characters" not in detail, detail
