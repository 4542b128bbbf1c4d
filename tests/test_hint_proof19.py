"""Newcomers P and O (session 5): the same code gets the same verdict and hint wherever the learner writes it, and a
hint says only what the learner's cell does.

1. An answer written in a cell of the learner's own, with the check called in that same cell (`x = …; ex.check("x")`,
   a common habit), was read with the check's call as the learner's code: the call reads the checker, so the cell
   was never run again on other inputs (a hand-picked answer got ✅ there and "right for these inputs only" in the
   answer cell), and its string `"x"` was read as a name the code types ("your code types its own names ('cos_pair')
   instead of reading `pair`"). code.inputs_history reads IPython's history with the check's own calls taken out,
   for every reader of the history (the answer's cell, the cells above it, the given code's edits).
Planted in other questions and lessons than the reports (exercise 01's cos_pair, exercise 10's padding_rows).
"""

from __future__ import annotations

import contextlib
import io

from embedlab.grading.exercise import Exercise
from hint_corpus import Wrong, check_wrong


def _namespace(lesson, name, source):
    """The notebook's namespace after `source` ran (the solution's cells above, the exercise's given lines)."""
    with contextlib.redirect_stdout(io.StringIO()):
        _, ns = check_wrong.run_entry(Wrong(lesson, name, source, "", (), ()))
    return ns


def _answer_cell(lesson, name, own="") -> str:
    prelude = check_wrong.exercise_prelude(lesson, name)
    return (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + own


def _verdict(lesson, name, source, *, where, check_call="ex.check({!r})"):
    """The check's verdict on `source`: written in the question's answer cell (where="answer"), or in a new cell
    below its check cell, the answer cell left as handed out (where="new"), with the check called in that same
    cell after a `;` or on its own line (`check_call`, '' for none)."""
    ns = _namespace(lesson, name, source)
    call = check_call.format(name) if check_call else ""
    if where == "answer":
        ns["_ih"] = ["", _answer_cell(lesson, name, source)]
    else:
        cell = source.rstrip("\n") + ("; " + call if call else "") + "\n"
        ns["_ih"] = ["", _answer_cell(lesson, name), f"ex.check({name!r})", cell]
    return Exercise(lesson).verdict(name, ns)


def _same(lesson, name, source):
    a = _verdict(lesson, name, source, where="answer")
    b = _verdict(lesson, name, source, where="new")
    return a, b


def test_a_hand_picked_answer_in_a_new_cell_with_its_check_is_held_to_other_inputs_too():
    # 'dog' is word 1 and 'cat' word 0 in the book's words: the rows typed by position, not read from `pair`
    source = "from embedlab import cosine_similarity\ncos_pair = cosine_similarity(table[1], table[2])\n"
    a, b = _same("01-toy-table", "cos_pair", source)
    # held to other inputs either way: "right for these inputs only" where the lines type their value, "right on
    # your inputs, but not on others" where they follow the inputs by a method that is not the question's (fix11)
    assert a.status == "incorrect" and ("right for these inputs only" in a.detail
                                        or "right on your inputs, but not on others" in a.detail), a
    assert b.status == a.status and b.detail == a.detail, (a, b)


def test_a_wrong_formula_in_a_new_cell_with_its_check_gets_the_answer_cells_hint_not_its_own_name_as_typed():
    # the new cell reads `d` and `d_ff`, which the answer cell's given lines set (P wrote the same of exercise 10's V)
    a, b = _same("04-modern-blocks", "mlp_layer", "mlp_layer = 2 * d * d_ff\n")
    assert a.status == "incorrect" and "three matrices" in a.detail, a
    assert b.detail == a.detail, (a, b)
    assert "'mlp_layer'" not in b.detail and "types its own names" not in b.detail, b.detail


def test_the_check_call_is_taken_out_of_a_cell_and_nothing_else():
    from embedlab.grading.code import without_checks

    assert without_checks("x = 1; ex.check('x')") == "x = 1"
    assert without_checks("ex.check('x'); x = 1\n") == "x = 1\n"
    assert without_checks("# YOUR CODE HERE\nx = f(a)  # mine\nex.check(\"x\")\nex.summary()\n") == \
        "# YOUR CODE HERE\nx = f(a)  # mine\n"
    for kept in ("x = ex.check('x')", "check('x')", "ex.check(name)", "x = 1\nprint(ex.check('x'))", "def f(:"):
        assert without_checks(kept) == kept


def _raising(lesson, name, earlier, cell, where="answer"):
    """The verdict on a cell that raises, `name` still holding the value of an `earlier` run."""
    ns = _namespace(lesson, name, earlier)
    ns["_ih"] = (["", _answer_cell(lesson, name, earlier), _answer_cell(lesson, name, cell)] if where == "answer" else
                 ["", _answer_cell(lesson, name, earlier), f"ex.check({name!r})", cell])
    return Exercise(lesson).verdict(name, ns)


def test_a_cell_that_raises_on_the_books_inputs_too_is_told_so_with_its_error_not_right_for_these_inputs_only():
    # newcomer O: exercise 01's batch indexed by the words raised IndexError, and was told "right for these inputs
    # only … a position or length that fits these inputs only". Planted: a field the shape does not have (lesson 04)
    v = _raising("04-modern-blocks", "mlp_layer", "mlp_layer = 3 * d * d_ff\n", "mlp_layer = 3 * d * shape.d_ff\n")
    assert "right for these inputs only" not in v.detail, v
    assert "raises AttributeError" in v.detail and "d_ff" in v.detail and "on these inputs too" in v.detail, v
    # and a wrong value left from the earlier run, the cell raising now, in a new cell of the learner's own
    v = _raising("01-toy-table", "batch", "batch = table[[0, 1]]\n", "batch = table[sentence]\n", where="new")
    assert v.status == "incorrect" and "right for these inputs only" not in v.detail, v
    assert "raises IndexError" in v.detail and "on these inputs too" in v.detail, v


def test_a_typed_value_is_read_as_typed_where_no_input_changes_the_answer():
    """newcomer P: exercise 10's `invalid_bytes = 13` got ✅: the question's answer is a property of UTF-8, the same
    in every variant (its Space's `fixed`), so a rerun on other inputs gives the same value and cannot tell typed
    from computed. Such a question, where the course's solution computes the answer, reads the cell instead; one whose
    solution types it (lesson 06's lookup_flops = 0, the question's point) is not refused for it."""
    from embedlab.grading.kinds import TYPED

    typed = _verdict("10-glitch-tokens", "invalid_bytes", "invalid_bytes = 2 + 11\n", where="new")
    assert typed.status == "incorrect" and typed.detail.startswith(TYPED), typed
    counted = "invalid_bytes = len([0xC0, 0xC1]) + len(range(0xF5, 0x100))\n"  # counted from RFC 3629, in code
    assert _verdict("10-glitch-tokens", "invalid_bytes", counted, where="answer").status == "correct"
    assert _verdict("06-params-vs-compute", "lookup_flops", "lookup_flops = 0\n", where="answer").status == "correct"


def test_gpt2s_8_d_squared_rule_is_named_where_the_value_is_that_rule_not_only_the_matrices():
    """newcomer O: exercise 04's `mlp_layer = 8 * d * d` was told "SwiGLU has three matrices", the words for two
    d × d_ff matrices; 8·d² is GPT-2's rule (d_ff = 4d), and Llama 3.2 1B's d_ff is 4·d, so both give the value.
    Planted written otherwise; two matrices of the config's d_ff keep their own hint (the looks part them)."""
    for source in ("mlp_layer = 8 * d ** 2\n", "mlp_layer = 2 * d * (4 * d)\n"):
        detail = _verdict("04-modern-blocks", "mlp_layer", source, where="answer").detail
        assert "GPT-2's MLP rule, 8·d²" in detail and "intermediate_size" in detail, detail
    detail = _verdict("04-modern-blocks", "mlp_layer", "mlp_layer = 2 * d * d_ff\n", where="answer").detail
    assert "GPT-2" not in detail and "three matrices" in detail, detail


def test_a_failing_call_is_shown_as_code_that_runs_as_the_check_ran_it():
    """newcomer O: exercise 02's hint showed `embedding_backward([1, 3, 1, 1], [[0.5, -1], …], 5)`, lists where the
    check passes arrays: pasted into the notebook, the course's own solution raises on it ('list' object has no
    attribute 'shape'). Every call a function question's hint can show in full, in every lesson, written as code
    (np.array for an array, floats with their point), runs through the course's reference and gives its value."""
    import numpy as np

    from embedlab.grading.cases import rng_for
    from embedlab.grading.kinds import Function
    from embedlab.grading.lessons import known_lessons, questions_for

    shown = 0
    for lesson in known_lessons():
        for q in questions_for(lesson):
            if not isinstance(q, Function) or q.reference is None:
                continue
            cases = q.cases(rng_for(lesson, q.name))
            for args, out in zip(cases, q.expected_outputs(cases)):
                call = out["call"]
                if "…" in call or "array(" in call.replace("np.array(", "") or not any(
                        isinstance(a, np.ndarray) for a in args):
                    continue  # a large argument is shown by its shape: not code
                seen = []
                got = eval(call, {"np": np, q.name: lambda *a, f=q.reference: seen.append(a) or f(*a)})  # noqa: S307
                same = all(type(x) is type(y) and (np.array_equal(x, y) and x.dtype == y.dtype
                                                   if isinstance(x, np.ndarray) else x == y)
                           for x, y in zip(seen[0], args))
                if same:  # written with every digit: the same inputs, so the same result
                    assert q._result_question().to_data(got) == out["out"], (lesson, call)
                    shown += 1
                else:  # too long for every digit: rounded, but still arrays of the same shape and kind
                    assert all(isinstance(x, np.ndarray) == isinstance(y, np.ndarray) and np.shape(x) == np.shape(y)
                               for x, y in zip(seen[0], args)), (lesson, call)
    assert shown >= 10, shown


def test_a_common_factor_on_amounts_names_the_count_they_share_not_a_normalisation():
    """newcomer P: exercise 07's adam_parts computed on N without the token table was told "a scale or a
    normalisation missing?": bytes are normalised by nothing. A normalisation is named only where one could make
    the values (floats within ±1: cosines, shares); amounts are told that the number they all multiply is off.
    Planted with lesson 06's other N (no token and no position table) and at the general words' level."""
    import numpy as np

    from embedlab.grading import diagnose

    source = ("c = count_params(load_config(adam_model))\n"
              "n = c.total - c.token_embedding - c.position_embedding\n"
              "adam_parts = np.array([2 * n, 2 * n, 4 * n, 8 * n])\n")
    detail = _verdict("07-memory", "adam_parts", source, where="answer").detail
    assert "normalisation" not in detail and "they all multiply" in detail, detail
    close = lambda a, b: np.isclose(a, b, rtol=1e-9)  # noqa: E731
    amounts = diagnose.array_hint(np.array([6, 9, 3]) * 7, np.array([4, 6, 2]) * 7, close, unit="bytes")
    assert "normalisation" not in amounts and "they all multiply" in amounts, amounts
    cosines = diagnose.array_hint(np.array([0.2, 0.3]), np.array([0.3, 0.45]), close, unit="")
    assert "normalisation" in cosines, cosines


RIGHT_TO_LEFT = '''def bpe_merges(counts, n_merges):
    words = [list(w.encode("utf-8")) for w in counts]
    freqs = list(counts.values())
    merges = []
    for k in range(n_merges):
        pairs = {}
        for tokens, n in zip(words, freqs):
            for pair in zip(tokens, tokens[1:]):
                pairs[pair] = pairs.get(pair, 0) + n
        if not pairs:
            break
        best = min(pairs, key=lambda pair: (-pairs[pair], pair))
        merges.append(best)
        for i, tokens in enumerate(words):
            j = len(tokens) - 1          # from the end of the word backwards
            while j > 0:
                if (tokens[j - 1], tokens[j]) == best:
                    tokens[j - 1:j + 1] = [256 + k]
                    j -= 2
                else:
                    j -= 1
    return merges
'''


def test_an_order_slip_of_ids_guesses_a_sort_only_where_the_code_sorts():
    """newcomer P: exercise 08's merges taken right to left were told "the right columns in another order … (sorted?)";
    the code sorts nothing. Planted: the word scanned from its end, in place (P's went otherwise), and the general
    words where the code is known not to sort, known to sort, and not known."""
    import numpy as np

    from embedlab.grading import diagnose

    detail = _verdict("08-vocabulary-size", "bpe_merges", RIGHT_TO_LEFT, where="answer").detail
    assert "sorted?" not in detail, detail
    close = lambda a, b: a == b  # noqa: E731
    got, want = np.array([[1, 2], [3, 4]]), np.array([[2, 1], [4, 3]])
    assert "sorted?" not in diagnose.array_hint(got, want, close, quantities=False, sorts=False)
    assert "sorted?" in diagnose.array_hint(got, want, close, quantities=False, sorts=True)
    assert "sorted?" in diagnose.array_hint(got, want, close, quantities=False, sorts=None)


def test_one_positions_share_is_named_as_one_position_not_two_slips_each_repeating_a_third():
    """newcomer O: exercise 06's head_share_prompt as head / (input + blocks + head) was told "two slips give exactly
    your number … One: … and too big: you left out attention … The other: … and too big: you left out attention".
    Planted written otherwise (the parts summed first, in another order)."""
    source = "one = c.head + c.blocks + c.input\nhead_share_prompt = c.head / one\n"
    detail = _verdict("06-params-vs-compute", "head_share_prompt", source, where="answer").detail
    assert "the share of one position" in detail and "two slips" not in detail, detail
    assert detail.count("left out attention") <= 1, detail


def test_a_new_cell_reading_sizes_a_later_questions_cell_set_again_is_told_so():
    """newcomer P: a retry of exercise 07's question 3 in a new cell, after question 4's cell ran, read `L`, `h` and
    `h_kv` as question 4's cell set them (another model's) and got only a generic hint. Planted with the right formula
    (the learner's lines are right with the question's own sizes, and are told so) and a wrong one."""
    lesson, name, later = "07-memory", "kv_bytes_per_token", "gqa_saving_gib"
    for own, right in (("kv_bytes_per_token = int(2 * L * h_kv * head_dim * BYTES_PER_PARAM[cache_precision])\n", True),
                       ("kv_bytes_per_token = int(2 * L * h * head_dim * BYTES_PER_PARAM[cache_precision])\n", False)):
        ns = _namespace(lesson, name, "kv_bytes_per_token = 0\n")  # the answer cell as handed out, run
        with contextlib.redirect_stdout(io.StringIO()):
            exec(check_wrong.exercise_prelude(lesson, later), ns)  # noqa: S102 - question 4's given lines
            exec(own, ns)  # noqa: S102
        ns["_ih"] = ["", _answer_cell(lesson, name), f"ex.check({name!r})", _answer_cell(lesson, later),
                     f"ex.check({later!r})", own]
        v = Exercise(lesson).verdict(name, ns)
        assert v.status == "incorrect" and "not the question's answer cell" in v.detail, v
        assert "`L`" in v.detail and ("`h_kv`" if right else "`h`") in v.detail, v.detail
        assert ("your lines give the right answer" in v.detail) == right, v.detail
        # the same lines in the answer cell itself are judged as they are
        ns["_ih"] = ["", _answer_cell(lesson, name, own)]
        assert "not the question's answer cell" not in Exercise(lesson).verdict(name, ns).detail
