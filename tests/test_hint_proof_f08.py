"""Issue 46's kinds, as the newcomer of report 08 met them, planted on other questions and lessons.

1. An edited parameters cell: a parameter the question reads holds another value than the one
   handed out, and the learner computed correctly from it. The hint says which parameter, its
   value and the handed-out one, and to put it back, before any story; where the answer is not
   right for the changed value either, the change and no story built on the handed-out values.
   The notebook's check and the grader say the same words (embedlab.grading.changed).
"""

from __future__ import annotations

import contextlib
import io

import pytest

from embedlab.grading.exercise import Exercise
from embedlab.grading.text import hint_problems
from hint_corpus import check_wrong
from solution_runner import grader_scoring, incorrect_detail, run_solution, solution_parameters


def _changed_run(lesson: str, name: str, changes: dict, source: str, scratch: bool = False):
    """(namespace, source): the solution run with `changes` in its parameters cell (or, with
    `scratch`, with the book's there and `changes` set again in a cell of the learner's own), then
    `source` in the answer cell, as a learner's kernel holds it."""
    params = solution_parameters(lesson)
    with contextlib.redirect_stdout(io.StringIO()):
        ns = run_solution(lesson, params if scratch else {**params, **changes})
    ns.pop(name, None)
    if scratch:
        ns.update(changes)
    prelude = check_wrong.exercise_prelude(lesson, name)  # the answer cell's given lines, as handed out
    source = (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source
    exec(compile(source, "<answer>", "exec"), ns)  # noqa: S102 - the test's own lines
    ns["_ih"] = ["", source]
    return ns, source


def _both(lesson, name, changes, source, scratch=False):
    """The check's detail and the grader's, which must be the same words (and say incorrect)."""
    ns, source = _changed_run(lesson, name, changes, source, scratch)
    verdict = Exercise(lesson).verdict(name, ns)
    status, detail = grader_scoring(lesson, name, ns, source)
    assert verdict.status == status == "incorrect", (verdict, status, detail)
    assert verdict.detail == detail, (verdict.detail, detail)
    assert not hint_problems(detail), detail
    return detail


@pytest.mark.parametrize("lesson, name, changes, source, scratch", [
    # the newcomer's own (lesson 08, question 1), planted in a scratch cell this time
    ("08-vocabulary-size", "extra_head_flops", {"V_small": 64_000},
     "extra_head_flops = 2 * d * (V_big - V_small)\n", True),
    # new instances: other lessons and questions, the parameters cell edited
    ("03-counting-gpt2", "linear_params", {"linear_in": 2048},
     "linear_params = linear_in * linear_out + linear_out\n", False),
    ("03-counting-gpt2", "interview", {"interview_d": 1024},
     "interview = interview_V * interview_d\n", False),
    ("02-lookup-vs-matmul", "batch_flops", {"n_tokens": 2048},
     "batch_flops = 2 * V * d * n_tokens\n", True),
    ("07-memory", "kv_bytes_per_token", {"cache_precision": "fp32"},
     "kv_bytes_per_token = 2 * L * h_kv * head_dim * 4\n", False),
])
def test_1_right_for_the_changed_parameter_is_told_so_first(lesson, name, changes, source, scratch):
    detail = _both(lesson, name, changes, source, scratch)
    (param, value), = changes.items()
    handed = solution_parameters(lesson)[param]

    def said(v):
        return f"{v:_}" if isinstance(v, int) else repr(v)
    assert detail.lower().startswith("your notebook holds"), detail
    assert f"`{param}` = {said(value)}" in detail and f"`{param}` = {said(handed)}" in detail, detail
    assert "right for that value" in detail and "Put it back" in detail, detail
    # no story built on the handed-out values
    for story in ("factor", "twice", "half", "too small", "too big", "by hand", "keys and values"):
        assert story not in detail, (story, detail)


def test_1_not_right_for_the_changed_value_either_says_the_change_and_no_story():
    # 2·V·d where V·d is asked, with an edited interview_d: wrong on either value
    detail = _both("03-counting-gpt2", "interview", {"interview_d": 1024},
                   "interview = 2 * interview_V * interview_d\n")
    assert detail.lower().startswith("your notebook holds `interview_d` = 1_024, not the `interview_d` = 768"), detail
    assert "not right for that value either" in detail, detail
    for story in ("twice", "factor", "double"):
        assert story not in detail, (story, detail)


def test_1_a_parameter_the_question_never_reads_is_not_named():
    # question 1 of lesson 03 reads linear_in and linear_out only: interview_d changed is not its business,
    # and its own slip (the bias left out) keeps its story
    detail = _both("03-counting-gpt2", "linear_params", {"interview_d": 1024},
                   "linear_params = linear_in * linear_out\n")
    assert "interview_d" not in detail and "notebook holds" not in detail, detail
    assert "bias" in detail, detail


def test_1_unchanged_parameters_keep_the_story():
    # near-miss: the parameters as handed out, a real slip: its own hint, no word of parameters
    detail = _both("08-vocabulary-size", "embedding_params", {}, "embedding_params = 2 * V_big * d\n")
    assert "tied" in detail and "notebook holds" not in detail, detail


def test_1_a_parameter_set_in_the_answer_cell_keeps_its_own_hint():
    # near-miss: the answer cell sets V_big itself: the hint that says so stands
    detail = _both("08-vocabulary-size", "embedding_params", {},
                   "V_big = 128_000\nembedding_params = V_big * d\n")
    assert "by hand" in detail and "notebook holds" not in detail, detail


def test_1_keys_and_values_only_where_the_question_has_them():
    from embedlab.grading import diagnose
    from embedlab.grading.lessons import questions_for

    # a parameter count of an embedding table or a padding, halved: no keys and values to leave out
    for lesson, name in (("08-vocabulary-size", "embedding_params"), ("04-modern-blocks", "padding_params"),
                         ("12-change-a-vocabulary", "added_params")):
        q = {q.name: q for q in questions_for(lesson)}[name]
        said = diagnose.number_hint(1000.0, 2000.0, unit=q.unit_of(), name=name)
        assert said.startswith("half the expected value") and "keys and values" not in said, said
        assert "keys and values" not in q.described(), name
        assert hint_problems("half the expected value: a factor 2 left out (keys and values?)",
                             grants=q.described()), name
    # where they are (an attention layer, a cache), still said and granted
    attn = {q.name: q for q in questions_for("04-modern-blocks")}["attn_layer"]
    assert "keys and values" in diagnose.number_hint(1000.0, 2000.0, unit=attn.unit_of(), name="attn_layer")
    assert "keys and values" in attn.described()


# 4. Exercise 08 question 8's rows counted from 0 everywhere, the "row N differs" hint showing the
# returned and the expected pair; a `//` hint echoing the learner's own text (no doubled parenthesis).

_MERGES = '''def bpe_merges(counts, n_merges):
    words = [list(word.encode("utf-8")) for word in counts]
    freqs = list(counts.values())
    merges = []
    for k in range(n_merges):
        pairs = {}
        for w, f in zip(words, freqs):
            for p in zip(w, w[1:]):
                pairs[p] = pairs.get(p, 0) + f
        if not pairs:
            break
        best = BEST
        merges.append(best)
        out = []
        for w in words:
            i, r = 0, []
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                    r.append(256 + k)
                    i += STEP
                else:
                    r.append(w[i])
                    i += 1
            out.append(r)
        words = out
    return np.array(merges, dtype=np.int64).reshape(-1, 2)
'''


def _merges(best, step):
    return _MERGES.replace("BEST", best).replace("STEP", step)


def test_4_a_row_that_differs_shows_both_pairs_counted_from_0():
    # after a merge, the scan moves on by one token, not two (the newcomer's stride slip)
    detail = incorrect_detail("08-vocabulary-size", "bpe_merges",
                              _merges("min(pairs, key=lambda p: (-pairs[p], p))", "1"))
    assert "Row 1 differs (counting from 0), yours (256, 98) where (256, 256) is expected" in detail, detail


def test_4_the_tie_hint_counts_its_row_from_0_too():
    detail = incorrect_detail("08-vocabulary-size", "bpe_merges", _merges("max(pairs, key=pairs.get)", "2"))
    assert "its row 0 (counting from 0) (122, 121) where (97, 98) is expected" in detail, detail
    assert "its row 1" not in detail, detail


def test_4_rows_of_pairs_in_general_and_not_of_quantities():
    import numpy as np

    from embedlab.grading import diagnose

    def close(a, b):
        return np.isclose(a, b)
    ids = diagnose.array_hint(np.array([[1, 2], [5, 6], [3, 4]]), np.array([[1, 2], [5, 7], [3, 4]]), close,
                              quantities=False)
    assert "row 1 differs (counting from 0), yours (5, 6) where (5, 7) is expected" in ids, ids
    # floats that are not whole, or long rows, keep the plain words
    reals = diagnose.array_hint(np.array([[0.5, 1.5], [2.5, 3.5]]), np.array([[0.5, 1.5], [2.5, 3.25]]), close)
    assert "where" not in reals and "row 1 differs" in reals, reals


def test_4_a_floor_division_is_echoed_in_the_learners_own_text():
    # a generator inside sum(): ast.unparse writes sum((x for …)), which the learner never wrote
    detail = incorrect_detail("01-toy-table", "cosine",
                              "def cosine(a, b):\n"
                              "    return sum(x * y for x, y in zip(a, b)) // (np.linalg.norm(a)"
                              " * np.linalg.norm(b))\n")
    assert "divides with `//`" in detail, detail
    assert "With `sum(x * y for x, y in zip(a, b)) / (np.linalg.norm(a)" in detail, detail
    assert "sum((" not in detail, detail
    detail = incorrect_detail("08-vocabulary-size", "tokens_per_word",
                              "def tokens_per_word(counts, n_tokens):\n"
                              "    return sum(c * n for c, n in zip(counts, n_tokens)) // sum(counts)\n")
    assert "With `sum(c * n for c, n in zip(counts, n_tokens)) / sum(counts)`" in detail, detail


# 2. A right operation applied to the wrong object: the hint names what the code did to which object,
# proven by the code itself (the notebook's object in its place gives the answer; the error's message and
# the argument's type), never "tokenize each word" to one who did, nor np.asarray for a dict's method.

def test_2_an_object_of_the_learners_own_where_the_notebooks_belongs():
    for source, mine, made, theirs in (
            # the newcomer's: a Hindi-only tokenizer audited with the library's own share
            ("mine = train_bpe(hindi, V_bpe)\nhindi_single_token_share = mine.single_token_share(top_hindi)\n",
             "mine", "train_bpe(hindi, V_bpe)", "bpe"),
            # new: the partner's words only, counted word by word
            ("own = train_bpe(other, V_bpe)\nhindi_single_token_share = sum(own.count_tokens(w) == 1 "
             "for w in top_hindi) / len(top_hindi)\n", "own", "train_bpe(other, V_bpe)", "bpe")):
        detail = incorrect_detail("08-vocabulary-size", "hindi_single_token_share", source)
        assert f"your code uses `{mine}`, a BPE your own lines make (`{made}`)" in detail, detail
        assert f"the notebook's `{theirs}` belongs" in detail, detail
        assert "tokenize each word" not in detail and "whatever its characters" not in detail, detail


def test_2_another_lesson_another_class():
    # question 7: GPT-2's tokenizer loaded again and used where cl100k belongs (an Encoding, not a BPE)
    source = ('again = load_tokenizer("gpt2")\n'
              "def per_word(tokenizer):\n"
              '    total = sum(len(tokenizer.encode_ordinary(" " + w)) * n for w, n in hindi.items())\n'
              "    return total / sum(hindi.values())\n"
              "hindi_r = per_word(again) / per_word(gpt2)\n")
    detail = incorrect_detail("08-vocabulary-size", "hindi_r", source)
    assert "your code uses `again`, an Encoding your own lines make" in detail, detail
    assert "the notebook's `cl100k` belongs" in detail, detail


def test_2_the_object_story_only_where_it_gives_the_answer():
    # near-miss: the right tokenizer made again, the wrong words audited (all of Hindi, not the top n_top):
    # bpe in its place does not give the answer, so no object story; the words' own hint stands
    detail = incorrect_detail("08-vocabulary-size", "hindi_single_token_share",
                              "mine = train_bpe(hindi, V_bpe)\n"
                              "hindi_single_token_share = sum(mine.count_tokens(w) == 1 for w in hindi)"
                              " / len(hindi)\n")
    assert "your code uses `mine`" not in detail, detail


@pytest.mark.parametrize("lesson, name, source, did", [
    # the newcomer's: Q5's counts read as a dict
    ("08-vocabulary-size", "tokens_per_word",
     "def tokens_per_word(counts, n_tokens):\n"
     "    return sum(c * n for c, n in zip(counts.values(), n_tokens)) / sum(counts.values())\n",
     "your code calls `.values`, a dict's method, on a list"),
    # new: a list indexed by a word, as a dict is (lesson 01's cosine is given arrays; lesson 08's Q5 lists)
    ("08-vocabulary-size", "tokens_per_word",
     "def tokens_per_word(counts, n_tokens):\n"
     "    return sum(counts[w] * n_tokens[w] for w in ['a']) / sum(counts)\n",
     "your code indexes a list by a word, as a dict is indexed"),
])
def test_2_an_error_names_what_the_code_did_to_the_object(lesson, name, source, did):
    detail = _error_detail(lesson, name, source)
    assert did in detail and "np.asarray" not in detail, detail
    assert "not dicts" in detail or "not a dict" in detail, detail


def test_2_an_array_method_on_a_list_keeps_the_asarray_story():
    # near-miss: `.sum()` is an array's: np.asarray mends it, and that story stands
    detail = _error_detail("08-vocabulary-size", "tokens_per_word",
                           "def tokens_per_word(counts, n_tokens):\n"
                           "    return (counts * n_tokens).sum() / counts.sum()\n")
    assert "np.asarray" in detail, detail


def _error_detail(lesson, name, source):
    from solution_runner import notebook_verdict

    verdict = notebook_verdict(lesson, name, source)
    assert verdict.status in ("incorrect", "error"), verdict
    assert not hint_problems(verdict.detail), verdict.detail
    return verdict.detail


@pytest.mark.parametrize("lesson, name, source", [
    ("08-vocabulary-size", "hindi_single_token_share",
     "mine = train_bpe(hindi, V_bpe)\nhindi_single_token_share = mine.single_token_share(top_hindi)\n"),
    ("08-vocabulary-size", "tokens_per_word",
     "def tokens_per_word(counts, n_tokens):\n"
     "    return sum(c * n for c, n in zip(counts.values(), n_tokens)) / sum(counts.values())\n"),
    ("01-toy-table", "cosine",
     "def cosine(a, b):\n"
     "    return sum(x * y for x, y in zip(a, b)) // (np.linalg.norm(a) * np.linalg.norm(b))\n"),
])
def test_the_grader_says_the_same_words(lesson, name, source):
    from hint_corpus import Wrong
    from solution_runner import notebook_verdict

    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(Wrong(lesson, name, source, "", (), ()))
    prelude = check_wrong.exercise_prelude(lesson, name)
    cell = (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source
    ns["_ih"] = ["", cell]
    status, detail = grader_scoring(lesson, name, ns, cell)
    assert detail == notebook_verdict(lesson, name, source).detail, detail


# 3. A slice dropping the first (or last) item is said as that, never as repeats dropped; the
# de-duplication story only where the learner's code drops repeats (a set, np.unique, a dict).

@pytest.mark.parametrize("lesson, name, source, which", [
    # the newcomer's kind (exercise 01 Q1): cat's and dog's rows are equal, no word is repeated
    ("01-toy-table", "E", "E = np.array([[int(f in traits[w]) for f in features] for w in words[1:]])\n",
     "entry 0 (the first) of the expected is missing"),
    ("01-toy-table", "E", "E = np.array([[int(f in traits[w]) for f in features] for w in words[:-1]])\n",
     "entry 3 (the last) of the expected is missing"),
    # new: lesson 02's ids do repeat (5 twice), but the slice drops the first, not a repeat
    ("02-lookup-vs-matmul", "rows_lookup", "rows_lookup = E[ids[1:]]\n",
     "entry 0 (the first) of the expected is missing"),
])
def test_3_a_slice_is_said_as_the_item_it_drops(lesson, name, source, which):
    detail = incorrect_detail(lesson, name, source)
    assert which in detail, detail
    assert "repeat" not in detail and "twice" not in detail, detail


@pytest.mark.parametrize("lesson, name, source", [
    ("02-lookup-vs-matmul", "rows_lookup", "rows_lookup = E[list(dict.fromkeys(ids))]\n"),
    ("01-toy-table", "E", "E = np.unique(np.array([[int(f in traits[w]) for f in features] for w in words]),"
                          " axis=0)\n"),
])
def test_3_code_that_drops_repeats_keeps_its_story(lesson, name, source):
    detail = incorrect_detail(lesson, name, source)
    assert "each repeat dropped" in detail, detail


def test_1_the_grader_compares_with_what_was_handed_out_a_class_variant_too():
    """The grader sends the parameters handed out (given["__parameters__"]: a class notebook's
    variant, or the book's): a notebook holding its variant's values is told nothing when the
    variant is what was handed out, and each question reading a value that differs from the
    book's is reported when the book's was."""
    from embedlab.grading import changed, code, grader, wire
    from embedlab.grading.lessons import questions_for
    from embedlab.grading.variants import parameters_of

    lesson = "08-vocabulary-size"
    variant = parameters_of(lesson, 1, secret=b"f08")
    book = solution_parameters(lesson)
    assert variant != book
    with contextlib.redirect_stdout(io.StringIO()):
        ns = run_solution(lesson, variant)
    ns["_ih"] = [""]
    questions = questions_for(lesson, variant)
    for handed, expect in ((variant, False), (book, True)):
        given = grader.given_lines(lesson, questions, code.CLASS, handed)
        assert given[changed.PARAMETERS] == handed
        with contextlib.redirect_stdout(io.StringIO()):
            entries = wire.probe(lesson, ns, {}, functions=False, given=given)
        told = {n for n, e in entries.items() if changed.CHANGED in e}
        reads = {q.name for q in questions if q.kind != "function" and q.name in given
                 and any(variant[p] != book[p] for p in variant
                         if p not in given[q.name]["foreign"])}
        assert reads and told == (reads if expect else set()), (handed == variant, told, reads)
