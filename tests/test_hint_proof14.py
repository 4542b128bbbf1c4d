"""A field named as the learner's own object spells it (issue 46; judge13 #11 and judge14 #6 found "read `n_embd`"
told to a learner who reads model_shape's result, which has no `n_embd`: following the hint raises AttributeError).

When a hint proves that one field was read for another of the same model (explain.slip_undone), the field to read
instead is one the learner's own object has: an attribute (`shape.x`) of model_shape's result is named by
ModelShape's attributes (num_layers, hidden_size), a key (`config['x']`) of the config by the config's own keys
(gpt2's n_layer, n_embd). Planted here in lesson 01's model_table with other fields and other code than the two
reports (the kind arises where a config's own names differ from ModelShape's: the GPT-2 family), both ways.
"""

from __future__ import annotations

import dataclasses

from embedlab.params import ModelShape, load_config
from test_hint_proof5 import _detail  # the notebook check's hint for a learner's lines

SHAPE = {f.name for f in dataclasses.fields(ModelShape)}


def _named(detail: str) -> str:
    assert "read `" in detail, detail
    return detail.rsplit("read `", 1)[1].split("`", 1)[0]


def test_an_attribute_read_for_another_is_named_as_an_attribute_of_the_same_object():
    # gpt2: d = 768; the shape's num_heads (12) read where hidden_size belongs, the shape kept in a variable
    detail = _detail("01-toy-table", "model_table",
                     "s = model_shape(load_config(model))\nmodel_table = s.vocab_size * s.num_heads\n")
    assert "`num_heads`" in detail, detail
    name = _named(detail)
    assert name in SHAPE and name == "hidden_size", detail  # not the config's own `n_embd`: s.n_embd fails
    assert hasattr(ModelShape, "__dataclass_fields__") and not hasattr(ModelShape, "n_layer")


def test_a_key_read_for_another_is_named_as_a_key_of_the_config():
    detail = _detail("01-toy-table", "model_table",
                     "config = load_config(model)\nmodel_table = config['vocab_size'] * config['n_layer']\n")
    assert "`n_layer`" in detail, detail
    assert _named(detail) in load_config("gpt2"), detail  # config['hidden_size'] would be a KeyError


def test_lengths_of_another_norm_are_named_not_a_missing_division():
    """judge14 #1: lengths as sums of absolute values were told "a cosine is scale-free (divide the dot product by
    both lengths)", though the code divides by both. Planted: the largest entry as the length (another norm than
    the report's), and L1 written as a loop (another style)."""
    from test_hint_proof5 import _detail as detail

    by_max = "def cosine(a, b):\n    return float(a @ b) / (np.max(np.abs(a)) * np.max(np.abs(b)))\n"
    assert "max norm" in detail("01-toy-table", "cosine", by_max)
    by_loop = ("def cosine(a, b):\n    la = lb = 0.0\n    for x, y in zip(a, b):\n        la += abs(x)\n"
               "        lb += abs(y)\n    return float(a @ b) / (la * lb)\n")
    text = detail("01-toy-table", "cosine", by_loop)
    assert "l1 norm" in text.lower() and "divide the dot product by both lengths" not in text, text


def test_a_negative_gap_is_blamed_on_the_order_only_when_it_is_the_gap_turned_round():
    """judge14 #107: Euclidean distances (a negative gap) were told "within minus between", though the code
    subtracts in that order. Planted: distances written another way (squared distances); and the order
    really turned round still gets its hint."""
    from test_hint_proof5 import _detail as detail

    squared = ("D = ((E[:, None, :] - E[None, :, :]) ** 2).sum(axis=-1)\n"
               "a, v = list(range(8)), list(range(8, 16))\n"
               "within = np.mean([D[i, j] for g in (a, v) for i in g for j in g if i < j])\n"
               "between = np.mean([D[i, j] for i in a for j in v])\n"
               "gap = float(within - between)\n")
    text = detail("09-what-rows-learn", "gap", squared)
    assert "within minus between: the animal" not in text and "cosine similarities" in text, text


def test_a_function_that_hands_the_asked_work_to_the_library_is_not_the_learners():
    """newcomerE: `return list(train_bpe(c, 256 + n).merges)` got ✅ for exercise 08's merge loop, the one question
    that asks the learner to write the algorithm. A Function's own_work names what the question asks to write:
    an answer cell that calls it, aliases it, imports it under another name or reaches it as an attribute is
    refused with why, in every form; the solution, and a cell that names it only in a comment, are not."""
    from embedlab.grading.exercise import Exercise
    from hint_corpus import check_wrong
    from hint_corpus import Wrong
    from solution_runner import grader_scoring

    forms = [
        "def bpe_merges(counts, n_merges):\n    return [tuple(p) for p in train_bpe(counts, 256 + n_merges).merges]\n",
        "run = train_bpe\n\ndef bpe_merges(counts, n_merges):\n    return list(run(counts, 256 + n_merges).merges)\n",
        "import embedlab\n\ndef bpe_merges(counts, n_merges):\n"
        "    return list(embedlab.train_bpe(counts, 256 + n_merges).merges)\n",
        "from embedlab.bpe import train_bpe as fit\n\ndef helper(c, n):\n    return fit(c, 256 + n)\n\n"
        "def bpe_merges(counts, n_merges):\n    return list(helper(counts, n_merges).merges)\n",
    ]
    for source in forms:
        entry = Wrong("08-vocabulary-size", "bpe_merges", source, "", (), ())
        _, ns = check_wrong.run_entry(entry)
        ns["_ih"] = ["", source]
        verdict = Exercise("08-vocabulary-size").verdict("bpe_merges", ns)
        assert verdict.status == "incorrect" and "Write it yourself" in verdict.detail, (source, verdict)
        assert grader_scoring("08-vocabulary-size", "bpe_merges", ns, source) == (verdict.status, verdict.detail)
    # the solution's own loop, with a comment that names train_bpe, is still right
    from embedlab.grading import code

    solution = code.solution_source("08-vocabulary-size", "bpe_merges")
    assert "def bpe_merges" in solution
    source = "# compare with train_bpe afterwards\n" + solution
    _, ns = check_wrong.run_entry(Wrong("08-vocabulary-size", "bpe_merges", source, "", (), ()))
    ns["_ih"] = ["", source]
    assert Exercise("08-vocabulary-size").verdict("bpe_merges", ns).status == "correct"
