"""Hints two newcomers and the heldout12 judge found misleading, generic or repetitive, by kind (issue 46); each
kind is planted here as a NEW instance (another question, lesson or code style than the one reported). The one
proof rule: a named slip is shown only if its counterfactual holds on the learner's own cell; otherwise the hint
says what is measurably true.

(a) every budget a design breaks is named (no "(and 1 more)" hiding the second);
(b) a hint quotes the argument the learner wrote (errors='replace'), never another of the same family it did not;
(c) an off-by-one ("context + 1 where context belongs") only when the learner's cell moves a count by one;
(d) a count exactly one input short is not blamed on a term the model does not have ("a norm's scale? a bias?");
    a matrix product counted exactly, n(2m − 1), is named as that convention;
(e) a hint that says "use X" is withheld from a cell that already uses X;
(f) a hint never states the expected value, nor says one clause twice in other words;
(g) an array's differing entries are named by what they hold, and a merged entry (12 bytes: master copy and
    moments together) is said as such;
(h) a hint's code names are the learner's: a name the exercise only calls (n_tokens(…)) is not a value to use;
(i) the judge's generic five, each named where it is provable.
"""

from __future__ import annotations

import numpy as np

from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines


def test_a_every_broken_budget_is_named():
    from embedlab.grading.questions.l11 import DEFAULTS, budget
    from embedlab.sizing import llama_config, over_budget

    # deep and wide, no kv heads shared, untied: every budget over, written with keywords
    source = ("design = llama_config(vocab_size=32000, d=1536, num_layers=48, num_heads=24, num_kv_heads=24,\n"
              "                      d_ff=6144, tied=False)\n")
    broken = over_budget(llama_config(vocab_size=32000, d=1536, num_layers=48, num_heads=24, num_kv_heads=24,
                                      d_ff=6144, tied=False), budget(DEFAULTS))
    assert len(broken) >= 2, broken  # the instance needs two budgets or more to name
    detail = _detail("11-size-a-model", "design", source)
    assert "more)" not in detail, detail
    for reason in broken:
        assert reason.split(":")[0] + ":" in detail, (reason, detail)


def test_b_the_argument_the_learner_wrote_is_quoted():
    # another lenient setting, another code style (a helper and a comprehension, double quotes)
    source = ("def fails(b):\n    try:\n        b.decode(\"utf-8\", errors=\"surrogateescape\")\n        return False\n"
              "    except UnicodeDecodeError:\n        return True\n\npartial_tokens = sum(fails(b) for b in ordinary)\n")
    detail = _detail("10-glitch-tokens", "partial_tokens", source)
    assert "surrogateescape" in detail and "'ignore'" not in detail, detail


def test_b_quoting_is_one_mechanism_for_every_avoids_entry():
    # a question's `avoids` words quote one value of a family; the cell wrote another: that one is quoted
    from embedlab.grading import code, explain
    from embedlab.grading.kinds import Integer

    q = Integer("n", avoids={"axis=0|axis=2": "your code sums along axis=0, not along the rows: sum each row, axis=1"})
    q.source = "import numpy as np\nn = int(np.sum(M, axis=2).max())\n"
    said = explain.needs_and_avoids(q)
    assert said and "axis=2" in said and "axis=0" not in said, said


def test_c_an_off_by_one_is_not_asserted_without_a_count_moved_by_one():
    # one more token's cache added as a term of its own (no count moved): the value is that of context + 1, the
    # code is not
    source = ("def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
              "    per_token = 2 * L * h_kv * head_dim * bytes_per_number\n"
              "    return (per_token * context * batch + per_token * batch) / 1e9\n")
    detail = _detail("07-memory", "kv_cache_gb", source)
    assert "off-by-one" not in detail and "context + 1" not in detail, detail
    # a per-block term of 4·d in a loop: the value of one more key's attention per block, no count moved
    source = ("def forward_flops_per_token(V, d, L, d_ff, context):\n    total = 2 * d * V\n"
              "    for layer in range(L):\n        total += 8 * d * d + 4 * d * d_ff + 4 * context * d + 4 * d\n"
              "    return total\n")
    detail = _detail("06-params-vs-compute", "forward_flops_per_token", source)
    assert "off-by-one" not in detail and "context + 1" not in detail, detail


def test_c_a_count_moved_by_one_is_still_named():
    source = ("def kv_cache_gb(L, h_kv, head_dim, bytes_per_number, context, batch):\n"
              "    return 2 * L * h_kv * head_dim * bytes_per_number * (context + 1) * batch / 1e9\n")
    detail = _detail("07-memory", "kv_cache_gb", source)
    assert "context + 1 where context belongs" in detail, detail


def test_d_a_matmul_counted_exactly_is_named_as_that_convention():
    # the head of the forward pass counted n·(2m − 1), in a function, with a comment
    source = ("def forward_flops_per_token(V, d, L, d_ff, context):\n"
              "    blocks = L * (2 * (4 * d * d + 2 * d * d_ff) + 4 * context * d)\n"
              "    head = V * (2 * d - 1)   # d multiplies, d - 1 adds per logit\n    return blocks + head\n")
    detail = _detail("06-params-vs-compute", "forward_flops_per_token", source)
    assert "exactly" in detail and "2 FLOPs per weight" in detail and "d − 1 adds" in detail, detail
    assert "bias" not in detail and "norm" not in detail, detail


def test_d_a_count_one_input_off_guesses_no_term():
    # exactly V short and exactly d too many: measured, so said as measured; no term of the model guessed
    for source, said in (("tied_count = untied - V * d - V\n", "exactly V short"),
                         ("tied_count = untied - V * d + d\n", "exactly d too many")):
        detail = _detail("05-weight-tying", "tied_count", source)
        assert said in detail, detail
        assert "?" not in detail and "bias" not in detail and "norm" not in detail, detail


def test_e_use_np_add_at_is_not_said_to_a_cell_that_uses_it():
    # np.add.at over each id's last slot only: one repeat kept, as `dE[ids] = dx0` keeps it, but the cell uses
    # np.add.at; telling it to use np.add.at sends it to what it already does
    source = ("import numpy as np\n\ndef embedding_grad(contexts, dx0, vocab_size):\n"
              "    ids = np.asarray(contexts).reshape(-1)\n    rows = np.asarray(dx0).reshape(len(ids), -1)\n"
              "    last = {int(i): k for k, i in enumerate(ids)}   # each id's slot\n"
              "    dE = np.zeros((vocab_size, rows.shape[1]))\n"
              "    np.add.at(dE, list(last), rows[list(last.values())])\n    return dE\n")
    detail = _detail("09-what-rows-learn", "embedding_grad", source)
    assert "use np.add.at" not in detail, detail


def test_e_the_mean_over_every_row_is_named_and_not_called_untrained():
    # every pair of rows of run.model.E, a double loop: the cell reads run.model.E
    source = ("import numpy as np\nE = run.model.E\nU = E / np.linalg.norm(E, axis=1)[:, None]\n"
              "total, pairs = 0.0, 0\nfor i in range(len(U)):\n    for j in range(i + 1, len(U)):\n"
              "        total += U[i] @ U[j]\n        pairs += 1\nnever_cos = total / pairs\n")
    detail = _detail("10-glitch-tokens", "never_cos", source)
    assert "before training" not in detail and "use the trained rows" not in detail, detail
    assert "every row" in detail and "never" in detail, detail


def test_f_a_hint_never_states_the_answer():
    from embedlab.grading.kinds import Hint, Integer
    from embedlab.grading.text import states_answer

    # the lookup's FLOPs, another wrong count (a multiply-add per number copied): the hint may not say the answer
    detail = _detail("06-params-vs-compute", "lookup_flops", "lookup_flops = 2 * d   # a multiply-add per number\n")
    assert not states_answer(detail, 0) and "0 FLOPs" not in detail, detail
    # any question's own hint whose words state the expected value is withheld (one mechanism)
    q = Integer("cache_bytes", hints=[Hint(lambda g, w: g == 2 * w, "each number is 2 bytes in fp16: the cache "
                                                                    "here is 4,096 bytes")])
    detail = q.judge(q.to_data(8192), 4096).detail
    assert "4,096 bytes" not in detail, detail
    assert states_answer("a lookup costs 0 FLOPs", 0) and not states_answer("2 FLOPs per weight", 2)


def test_f_a_clause_is_not_said_twice_in_other_words():
    from embedlab.grading.kinds import Integer, ratio
    from embedlab.grading.text import hint_problems

    # the half-FLOPs words and a question's own words for the same factor of 2, joined: said once
    q = Integer("matmul_flops", hints=[ratio(0.5, "each weight costs a multiply and an add: 2 FLOPs per weight")])
    detail = q.judge(q.to_data(3000), 6000).detail
    assert "each weight costs" not in detail and "half" in detail, detail
    assert not hint_problems(detail), detail
    # the reader finds a clause said again in other words, and leaves a continuation ("and …") alone
    assert hint_problems("the cache keeps a key and a value per layer per token; each token stores one key and "
                         "one value in every layer")
    assert not hint_problems("the head is missing; and the final LayerNorm is missing")


def test_g_entries_given_together_are_named_by_what_they_hold():
    # the moments put in with the gradients (another merge than the lesson's 2 + 2 + 12), written as a list
    source = ("import numpy as np\nN = n_params\nadam_parts = np.array([2 * N, 2 * N + 4 * N + 4 * N, 4 * N, 0])\n")
    detail = _detail("07-memory", "adam_parts", source)
    assert "gradients" in detail and "moments" in detail and "together" in detail, detail
    # one mechanism for any named 1-D answer: a cache's keys and values given as one entry
    from embedlab.grading.kinds import Array

    q = Array("kv_parts", exact=True, entries=("keys", "values"))
    detail = q.judge(q.to_data(np.array([4096, 0])), q.to_data(np.array([2048, 2048]))).detail
    assert "keys and values together" in detail, detail


def test_g_entries_that_differ_are_named():
    # a third optimizer state counted with the moments: the entry that differs, named by what it holds
    source = "import numpy as np\nadam_parts = np.array([2, 2, 4, 12]) * n_params   # m, v and a third state\n"
    detail = _detail("07-memory", "adam_parts", source)
    assert "(moments (m and v))" in detail, detail


def _called_only(lesson: str) -> set:
    """Names the exercise's code cells only call (`n_tokens(vocab_model)`), never hold as a value: a hint that
    says 'subtract n_tokens + n_new' names a function where the learner's cell has a number (n_tok)."""
    import ast
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).resolve().parents[1] / "exercises" / f"{lesson}.ipynb").read_text())
    called, held = set(), set()
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        try:
            tree = ast.parse("".join(cell["source"]))
        except SyntaxError:
            continue
        calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                (called if id(node) in calls else held).add(node.id)
    return called - held


def test_h_a_hint_names_values_the_exercise_holds_not_functions_it_calls():
    import re

    from embedlab.grading.lessons import known_lessons, load_key, questions_for
    from test_hint_rendering import rendered

    bad = []
    for lesson in known_lessons():
        functions = {n for n in _called_only(lesson) if "_" in n}
        if not functions:
            continue
        key = load_key(lesson)
        for q in questions_for(lesson, None):
            for words in rendered(q, key.get(q.name)):
                for name in functions:
                    # the name as a value: in arithmetic or alone, not called (`n_tokens(…)`) nor quoted as a call
                    # (a function named in parentheses, "(count_params)", is a mention of it, not a value)
                    if re.search(rf"(?<![\w.`(]){re.escape(name)}(?![\w(`])|\({re.escape(name)}(?![\w()`])", words):
                        bad.append((lesson, q.name, name, words[:120]))
    assert not bad, "\n".join(map(str, dict.fromkeys(bad)))


def test_i_rows_never_filled_are_named():
    # lesson 01's table filled by a loop one short (not a function: the array's own check)
    source = ("E = np.zeros((len(words), len(features)), dtype=int)\nfor i in range(len(words) - 1):\n"
              "    for j, f in enumerate(features):\n        E[i, j] = int(f in traits[words[i]])\n")
    detail = _detail("01-toy-table", "E", source)
    assert "the last, is all zeros" in detail and "one short" in detail, detail
    # a one-hot function that skips the first id (enumerate from the second): which row, no loop blamed
    source = ("import numpy as np\ndef one_hot(ids, V):\n    out = np.zeros((len(ids), V), dtype=int)\n"
              "    for t, i in enumerate(ids[1:]):\n        out[t + 1, i] = 1\n    return out\n")
    detail = _detail("02-lookup-vs-matmul", "one_hot", source)
    assert "row 0 is all zeros" in detail and "one short" not in detail, detail


def test_i_a_part_given_as_one_of_its_factors_is_named():
    # the head entry of the state dict added as its vocabulary only, written from the config dict
    source = ("cfg = load_config(tied_model)\nstate_dict_sum = count_params(cfg).total + cfg['vocab_size']\n")
    detail = _detail("05-weight-tying", "state_dict_sum", source)
    assert "V where V·d belongs" in detail, detail


def test_i_the_diagonal_left_out_of_the_keys_is_named():
    # reading a prompt (question 5, not 4), keys written T**2 // 2
    source = ("keys = T ** 2 // 2\n"
              "head_share_prompt = c.head / (T * (c.input + c.blocks) + c.head + c.attention_per_key * keys)\n")
    detail = _detail("06-params-vs-compute", "head_share_prompt", source)
    assert "T(T+1)/2" in detail and "diagonal" in detail, detail


def test_i_the_number_of_blocks_given_for_the_padding_is_named():
    # lesson 12's padding (not lesson 10's), the blocks of the grown table
    source = "import math\npadding_rows = math.ceil(max(V, n_tok + n_new) / pad_multiple)\n"
    detail = _detail("12-change-a-vocabulary", "padding_rows", source)
    assert "blocks of pad_multiple rows" in detail, detail


def test_i_every_high_byte_token_counted_as_partial_is_named():
    source = "partial_tokens = len([b for b in ordinary if max(b) > 127])\n"
    detail = _detail("10-glitch-tokens", "partial_tokens", source)
    assert "0x80" in detail and "whole multi-byte characters" in detail, detail
