"""Newcomers R and S (session 6): kinds of hint that claimed more than the learner's value proves, each planted here
as a NEW instance (another question or lesson than the reports' rows, or the mechanism itself with made-up calls).

(1) A story proven on some inputs only: exercise 04's `+ 1024*d` was told "two slips give exactly your number" on
    Llama-3-8B, where L·h·d = 1,024·d, and the story fitted Llama-2-7B by the same coincidence and no other input.
    A function's story must give the learner's result on every failing call that names no cause of its own
    (function_hints.most_telling): the "two slips give exactly your number" frame of one call included. A term the
    learner's function writes that is exactly every failing call's excess is named (function_hints.added_term), as a
    learned position table where it is a shipped model's rows × d in a parameter count.
(2) A pattern of the learner's source named only when undoing it gives the answer: a comprehension's `if` filter is
    named ("your code leaves some words out") only where the kernel's run of the lines without it (undo: the whole
    filter, or one test of its `and`) does not refute it; a count-weighted share is named as such; bpe_merges' merge
    order and overlapping merges are declared slips (the left-to-right rule), and "columns in another order" needs
    one order of the columns that puts two rows or more right.
(3) A hint "with other parameters" says which inputs changed and to what (elsewhere._words_of), so that the learner
    can run the cell as the check did: lesson 06's look was `model` = 'opt-125m', said only as "`model` changed".
(4) An aside in parentheses inside another ("(… every block (each of the L) attends)") fails the rendering reader
    (text.hint_problems, which test_hint_rendering runs on every template), and the layer-count template of
    parts.py says its part's own words as a clause of their own.
"""

from __future__ import annotations


from embedlab.grading import elsewhere, function_hints, parts
from embedlab.grading.text import hint_problems, nested_aside

from solution_runner import notebook_verdict


_verdict = notebook_verdict  # tests/solution_runner.py


# (1) --------------------------------------------------------------------------------------------------------------

def test_a_two_slips_story_two_calls_fit_is_not_named_when_a_call_that_names_nothing_contradicts_it():
    # made-up failing calls of any function: the two-slips story fits calls 1 and 3 (a coincidence of their shapes),
    # calls 2 and 4 name no cause and are not explained by it; the old rule (two calls fit: named) named it
    story = (f"{parts.TWO_SLIPS}. One: the bias counted twice; and the norm left out. The other: the norm counted "
             "twice; and the bias left out")
    failures = [(0, "on input 1", story), (2, "on input 3", "a little too big: recheck the small terms"),
                (4, "on input 5", story), (6, "on input 7", "too big: recheck each term")]
    explained = {0: {story}, 1: set(), 2: {story}, 3: {"another story"}}
    said = function_hints.most_telling(failures, explained=lambda k: explained[k],
                                       generic=lambda k: k in (1, 3), plain=lambda k: "too big, by 0.1 %")
    assert story not in said, said
    # the same story where every failing call fits it is named
    fitting = {k: {story} for k in range(4)}
    said = function_hints.most_telling(failures, explained=lambda k: fitting[k], generic=lambda k: k in (1, 3),
                                       plain=lambda k: "too big, by 0.1 %")
    assert story in said, said
    # one slip that two calls fit is still named where a call's own search misses it (context + batch where batch = 1)
    one = "you added context and batch where they multiply (context × batch, not context + batch)"
    failures = [(0, "on input 1", one), (2, "on input 3", "a little too big"), (4, "on input 5", one)]
    said = function_hints.most_telling(failures, explained=lambda k: {one} if k != 1 else set(),
                                       generic=lambda k: k == 1, plain=lambda k: "too big")
    assert one in said, said


def test_gpt2_params_with_a_term_added_is_not_told_a_story_of_one_shape():
    # exercise 03 (another lesson): GPT-2's count with an untied head added on every call (V·d too many): the hint
    # may name the head or the measured excess, never a "two slips" story the other shapes do not give
    source = ("def gpt2_params(V, d, L, T):\n    block = 12 * d * d + 13 * d\n"
              "    return V * d + T * d + L * block + 2 * d + 1024 * d\n")
    v = _verdict("03-counting-gpt2", "gpt2_params", source)
    assert v.status == "incorrect", v
    assert "two slips" not in v.detail, v.detail


def test_a_two_slips_frame_of_one_shape_is_not_named_for_a_function():
    # the newcomer's row, as the mechanism's regression: the frame fitted Llama-3-8B and Llama-2-7B (L·h = 1,024 on
    # both) and none of the other calls, two of which name nothing
    source = ("def llama_params(V, d, L, h, h_kv, d_ff, tied):\n    head_dim = d // h\n"
              "    attention = 2 * d * h * head_dim + 2 * d * h_kv * head_dim\n    mlp = 3 * d * d_ff\n"
              "    layer = attention + mlp + 2 * d\n"
              "    return V * d + L * layer + d + (0 if tied else V * d) + 1024 * d\n")
    v = _verdict("04-modern-blocks", "llama_params", source)
    assert v.status == "incorrect", v
    assert "two slips" not in v.detail and "head_dim" not in v.detail, v.detail
    # the term the learner's function adds is the excess on every call: named, as the position table it is
    assert "adds `1024 * d` on every input" in v.detail and "position table" in v.detail, v.detail


def test_a_term_a_function_adds_on_every_call_is_named_and_a_table_only_where_it_holds_weights():
    # exercise 06 (another lesson, a FLOP count): the typed term is the excess on every call; no position table is
    # named for FLOPs (a lookup costs none)
    source = ("def forward_flops_per_token(V, d, L, d_ff, context):\n"
              "    blocks = 2 * L * (4 * d * d + 2 * d * d_ff)\n    attention = 4 * L * context * d\n"
              "    head = 2 * d * V\n    return blocks + attention + head + EXTRA\n")
    for term in ("10 * L * d", "1024 * d"):
        v = _verdict("06-params-vs-compute", "forward_flops_per_token", source.replace("EXTRA", term))
        assert v.status == "incorrect" and f"adds `{term}` on every input" in v.detail, v.detail
        assert "position table" not in v.detail, v.detail


# (3) --------------------------------------------------------------------------------------------------------------

def test_other_parameters_are_said_with_the_values_they_were_given():
    words = elsewhere._words_of({"model": "opt-125m", "T": 512, "D": 3e12, "ids": list(range(300)), "tied": True})
    assert "`model` = 'opt-125m'" in words and "`T` = 512" in words and "`D` = 3e+12" in words, words
    assert "`ids` = a list of 300 items" in words, words
    assert "changed)" not in words, words


def test_a_look_of_lesson_07_names_the_model_it_used():
    # exercise 07 (another lesson): the model typed by name; the look loads another model, and the hint says which,
    # so that `weights_model = '…'` in the notebook gives the learner the same numbers
    v = _verdict("07-memory", "weights_gb_4bit",
                 "weights_gb_4bit = count_params(load_config('llama-3-8b')).total * 0.5 / 1e9\n")
    assert v.status == "incorrect", v
    assert "with other parameters (`weights_model` = '" in v.detail, v.detail


# (4) --------------------------------------------------------------------------------------------------------------

def test_an_aside_inside_another_fails_the_rendering_reader_and_a_formula_does_not():
    bad = ("the head counted for one layer only: multiply this part by L (the blocks (each of the L) of the model)")
    assert nested_aside(bad) == "(each of the L)"
    assert any("inside another" in p for p in hint_problems(bad)), hint_problems(bad)
    for fine in ("that counts the head exactly, (2·d − 1)·V: the course counts 2 FLOPs per weight",
                 "a matmul priced exactly (n·(2m − 1) FLOPs) against 2 per weight",
                 "your cell uses `np.sum(x * (y + 1))` (a sum of products)"):
        assert nested_aside(fine) is None, fine
        assert not any("inside another" in p for p in hint_problems(fine)), (fine, hint_problems(fine))


def test_the_layer_count_template_says_its_part_once_without_an_aside_inside_an_aside():
    # lesson 07's cache (another lesson than 06): a per-layer term left one layer only, its part's own words given
    answer = parts.Answer(parts.Sum("the cache", [
        parts.Prod("keys and values", [parts.Part("layers", 28, "L", missing="every one of the L layers keeps its own"),
                                       parts.Part("numbers each", 4096)]),
        parts.Part("the rest", 100)]))
    said = [w for w in parts.templates(answer) if "one layer only" in w]
    assert said, parts.templates(answer)
    for words in said:
        assert "(L, every layer" not in words and " (every one of" not in words, words
        assert "multiply this part by L" in words and "the rest of your formula is right" in words, words
        assert "every one of the L layers keeps its own" in words, words


# (2) --------------------------------------------------------------------------------------------------------------

_HINDI_R = """def per_word(tok):
    total = sum(len(tok.encode_ordinary(" " + w)) * n for w, n in hindi.items() if FILTER)
    return total / sum(n for w, n in hindi.items() if FILTER)
hindi_r = per_word(cl100k) / per_word(gpt2)
"""


def test_a_filter_is_named_only_where_its_undoing_gives_the_answer():
    # exercise 08's question 7 (the newcomer's was question 6): a filter that is the slip is named, proven
    v = _verdict("08-vocabulary-size", "hindi_r", _HINDI_R.replace("FILTER", "w.isalpha()"))
    assert v.status == "incorrect" and "leaves some words out" in v.detail, v.detail  # the question's words, proven
    # one test of an `and` filter that is the slip, beside the test the question asks for: that test named
    v = _verdict("08-vocabulary-size", "hindi_single_token_share",
                 "hindi_single_token_share = sum(1 for w in top_hindi if bpe.count_tokens(w) == 1 and w.isalpha())"
                 " / len(top_hindi)\n")
    assert v.status == "incorrect" and "`w.isalpha()`" in v.detail and "without that test" in v.detail, v.detail
    # a count-weighted share over all of Hindi's words: its filter is the asked test; without it the lines are still
    # wrong, so the filter is not blamed
    v = _verdict("08-vocabulary-size", "hindi_single_token_share",
                 "hindi_single_token_share = sum(hindi[w] for w in top_hindi if bpe.count_tokens(w) == 1) "
                 "/ sum(hindi.values())\n")
    assert v.status == "incorrect" and "leaves some words out" not in v.detail, v.detail


def test_a_share_weighted_by_counts_is_named_as_weighted():
    # written without a filter (the newcomer's had one): the value is the count-weighted share, and says so
    v = _verdict("08-vocabulary-size", "hindi_single_token_share",
                 "ones = [w for w in top_hindi if bpe.count_tokens(w) == 1]\n"
                 "hindi_single_token_share = sum(map(hindi.get, ones)) / sum(map(hindi.get, top_hindi))\n")
    assert v.status == "incorrect" and "weighted by how often it occurs" in v.detail, v.detail
    assert "leaves some words out" not in v.detail, v.detail


_MERGES = """def bpe_merges(counts, n_merges):
    words = [list(w.encode("utf-8")) for w in counts]
    freqs = list(counts.values())
    merges = []
    for k in range(n_merges):
        pairs = {}
        for tokens, n in zip(words, freqs):
            for a, b in zip(tokens, tokens[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + n
        if not pairs:
            break
        best = min(pairs, key=lambda p: (-pairs[p], p))
        merges.append(best)
        words = [REPLACE for tokens in words]
    return merges

def replace_right(tokens, pair, new):
    out = list(tokens)
    i = len(out) - 2
    while i >= 0:
        if (out[i], out[i + 1]) == pair:
            out[i:i + 2] = [new]
        i -= 1
    return out

def replace_every(tokens, pair, new):
    out = []
    for i, t in enumerate(tokens):
        if i + 1 < len(tokens) and (t, tokens[i + 1]) == pair:
            out.append(new)
        elif not (i and (tokens[i - 1], t) == pair):
            out.append(t)
    return out
"""


def test_merge_order_and_overlaps_are_named_by_the_rule_not_as_columns():
    # written otherwise than the newcomer's (a helper that scans from the end, one that keeps every position)
    v = _verdict("08-vocabulary-size", "bpe_merges",
                 _MERGES.replace("REPLACE", "replace_right(tokens, best, 256 + k)"))
    assert v.status == "incorrect" and "left to right" in v.detail and "not `a N`" in v.detail, v.detail
    assert "columns" not in v.detail, v.detail
    v = _verdict("08-vocabulary-size", "bpe_merges",
                 _MERGES.replace("REPLACE", "replace_every(tokens, best, 256 + k)"))
    assert v.status == "incorrect" and "overlapping occurrences" in v.detail, v.detail


def test_a_column_order_is_named_only_when_it_puts_two_rows_or_more_right():
    # any array answer (a made-up one): one row whose two entries are swapped is no column order of the array
    import numpy as np

    from embedlab.grading import diagnose

    def close(a, b):
        return np.isclose(a, b)
    want = np.array([[3, 3], [4, 9], [7, 7]])
    one = np.array([[3, 3], [9, 4], [7, 7]])
    assert "columns in another order" not in diagnose.array_hint(one, want, close), diagnose.array_hint(one, want, close)
    want = np.array([[3, 3], [4, 9], [7, 1]])
    assert "columns in another order" in diagnose.array_hint(want[:, ::-1].copy(), want, close)
