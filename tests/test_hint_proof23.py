"""Hint defects a blind newcomer found (brief hints16b, 4), each kind planted here as a NEW instance:

(b) numbers a hint compares are printed with enough digits to tell them apart: exercise 11's tightest budget, on a
    design whose memory and compute shares are both 24 % (24.07 % and 24.08 %), never "uses 24 % of the memory
    budget; another uses more" with nothing to see it by;
(c) two alternatives that are one slip are said as one: a tied head counted (an Extra the size of the part it
    repeats) is that part counted twice, never "two slips give exactly your number. One: table counted twice. The
    other: the head is tied: the table is counted once, not twice";
(d) a tie broken another way shows the pair the learner's function merged and the one expected, and a hint never
    quotes the solution's own line (`min(pairs, key=lambda p: (-pairs[p], p))`).
Each red on 67a42c6.
"""

from __future__ import annotations

import re

from test_hint_proof5 import _detail
from test_hint_proof18 import _verdict

# (b) -------------------------------------------------------------------------------------------------------------

# a design (V 48,000, d 512, 34 layers, 8 heads, 1 key/value head, d_ff 1,024, tied) whose memory and compute shares
# of the book's budget round to the same whole percentage: compute binds, by 0.005 %
CLOSE_SHARES = (
    "design = llama_config(48000, 512, 34, 8, 1, 1024, True)\n"
    "design_params = count_params(design).total\n"
    "design_serving_gb = serving_memory(design, weights=BUDGET.weights, context=BUDGET.context, batch=1,\n"
    "                                   kv=BUDGET.kv)['total'] / GB\n"
    "design_train_flops = training_flops(design, BUDGET.train_context).total * (BUDGET.train_tokens //\n"
    "                                                                            BUDGET.train_context)\n")


def _percents(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"(\d+(?:\.\d+)?) ?%", text)]


def test_b_the_shares_a_tightest_budget_hint_compares_are_told_apart():
    verdict = _verdict("11-size-a-model", "tightest_budget", 'tightest_budget = "memory"\n', CLOSE_SHARES)
    assert verdict.status == "incorrect", verdict
    shown = _percents(verdict.detail)
    assert len(shown) >= 2 and shown[0] < max(shown[1:]), verdict.detail  # memory's share, then a larger one


def test_b_percents_apart_keeps_distinct_values_distinct_and_in_order():
    from embedlab.grading.text import percents_apart

    assert percents_apart([0.9923, 0.9933]) == ["99.2%", "99.3%"]
    assert percents_apart([0.24074906, 0.24079749]) == ["24.07%", "24.08%"]
    assert percents_apart([0.5, 0.25]) == ["50%", "25%"]
    low, high = percents_apart([0.12344, 0.12346])
    assert float(low[:-1]) < float(high[:-1])


# (c) -------------------------------------------------------------------------------------------------------------


def test_c_a_tied_head_counted_is_one_slip_with_the_table_counted_twice():
    # the table doubled in the share's numerator and its whole model alike: the tied head counted, one slip
    detail = _detail("08-vocabulary-size", "embedding_share", "embedding_share = 2 * V_big * d / (2 * V_big * d + rest)\n")
    assert "two slips" not in detail and "The other" not in detail, detail
    assert "tied" in detail, detail


def test_c_a_tied_heads_new_columns_counted_twice_is_one_slip():
    # lesson 01's growth of a tied model: the new columns counted for the head too
    source = ("shape = model_shape(load_config(model))\n"
              "V, d = shape.vocab_size, shape.hidden_size\n"
              "extra_dim_cost = 2 * (V * (d + extra_features) - V * d)\n")
    detail = _detail("01-toy-table", "extra_dim_cost", source)
    assert "two slips" not in detail and "The other" not in detail, detail
    assert "tied" in detail, detail


# (d) -------------------------------------------------------------------------------------------------------------

LARGEST_TIE = """def bpe_merges(counts, n_merges):
    words = [list(w.encode("utf-8")) for w in counts]
    weights = list(counts.values())
    merges = []
    for k in range(n_merges):
        pairs = {}
        for toks, n in zip(words, weights):
            for p in zip(toks, toks[1:]):
                pairs[p] = pairs.get(p, 0) + n
        if not pairs:
            break
        top = max(pairs.values())
        best = max(p for p in pairs if pairs[p] == top)
        merges.append(best)
        for i, toks in enumerate(words):
            out, j = [], 0
            while j < len(toks):
                if j + 1 < len(toks) and (toks[j], toks[j + 1]) == best:
                    out.append(256 + k)
                    j += 2
                else:
                    out.append(toks[j])
                    j += 1
            words[i] = out
    return merges
"""


def test_d_a_tie_broken_another_way_shows_both_pairs_and_no_solution_line():
    detail = _detail("08-vocabulary-size", "bpe_merges", LARGEST_TIE)
    assert "tie" in detail, detail
    assert "(122, 121)" in detail and "(97, 98)" in detail, detail  # the pair merged, and the one expected
    assert "key=lambda" not in detail and "min(pairs" not in detail, detail


def _code_shape(text: str) -> str:
    """Code or prose with every name made `_` and the spaces taken out: a line of code reads the same whatever its
    names (`min(pairs, key=lambda p: (-pairs[p], p))` is `_(_,_=lambda_:(-_[_],_))`)."""
    return re.sub(r"\s+", "", re.sub(r"\b(?!lambda\b)[A-Za-z_]\w*\b", "_", text))


def _solution_expressions(lesson: str) -> set:
    """The right-hand sides of the assignments and returns of the solution's own lines (between BEGIN and END
    SOLUTION), as code shapes, where they are long enough to be a line of the answer rather than a bare name."""
    import ast

    import nbformat

    from pathlib import Path

    nb = nbformat.read(Path(__file__).resolve().parent.parent / "solutions" / f"{lesson}.ipynb", as_version=4)
    out = set()
    for cell in nb.cells:
        if cell.cell_type != "code" or "# BEGIN SOLUTION" not in cell.source:
            continue
        for block in cell.source.split("# BEGIN SOLUTION")[1:]:
            for line in block.split("# END SOLUTION")[0].split("\n"):
                try:
                    tree = ast.parse(line.strip())
                except SyntaxError:
                    continue
                for node in ast.walk(tree):
                    value = getattr(node, "value", None) if isinstance(node, (ast.Assign, ast.Return)) else None
                    if isinstance(value, ast.Call):  # a call written out: the solution's own way of doing it
                        shape = _code_shape(ast.unparse(value))
                        if len(shape) >= 16:
                            out.add(shape)
    return out


def test_d_no_declared_hint_quotes_a_line_of_the_solution():
    """Every message a question declares (its hints, a function's result hints and slips) is read for the solution's
    own calls, whatever their names: a hint says what is off, and never ends in the line that puts it right."""
    from embedlab.grading import assign
    from embedlab.grading.lessons import questions_for

    quoted = []
    for lesson in assign.lessons_to_assign("all")[0]:
        lines = _solution_expressions(lesson)
        for q in questions_for(lesson):
            messages = [h.message for h in getattr(q, "hints", ()) or ()]
            result = getattr(q, "result", None)
            messages += [h.message for h in getattr(result, "hints", ()) or ()]
            messages += [s.says for s in getattr(q, "slips", ()) or ()]
            for message in messages:
                shape = _code_shape(message)
                quoted += [(lesson, q.name, message[:80]) for line in lines if line in shape]
    assert not quoted, quoted


# (a) -------------------------------------------------------------------------------------------------------------


def test_a_a_typed_sequence_count_is_named_with_what_it_equals_and_the_inputs_it_follows_first():
    # exercise 11's training FLOPs with the number of sequences typed (D // T_train on the book's inputs)
    source = "n_seq = 292968750\ndesign_train_flops = training_flops(design, T_train).total * n_seq\n"
    detail = _verdict("11-size-a-model", "design_train_flops", source).detail
    assert "292_968_750" in detail and "D // T_train" in detail, detail
    listed = re.search(r"with other parameters \((.*?)\)", detail).group(1)
    assert listed.startswith("`train_context`") and "`train_tokens`" in listed.split(", `context`")[0], listed


def test_a_a_typed_product_of_two_inputs_is_named():
    # lesson 12's saved rows: n_keep · d_trim typed as one number
    detail = _detail("12-change-a-vocabulary", "saved_params", "saved_params = tok.n_vocab * d_trim - 9216000\n")
    assert "9_216_000" in detail and "d_trim * n_keep" in detail, detail
    listed = re.search(r"with other parameters \((.*?)\)", detail)
    assert listed is None or not listed.group(1).startswith(("`lang`", "`n_words`", "`seed`")), detail
