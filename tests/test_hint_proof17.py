"""Non-specific hints newcomer M found in exercise 10 (issue 46), fixed by kind; each kind planted here as NEW
instances in other questions and lessons than the report's.

(1) An answer built on the learner's own wrong earlier answer is framed as "your earlier answer" only when its
    lines, run again with the earlier answer put right, give the answer. Otherwise this answer's own mistake (what
    its lines give with the earlier answer put right) is said first, and the earlier answer after it as wrong too.
    And the check never changes what the learner made: an undo edit (`s = run.model.E` for `s = f(run.model.E)`)
    that writes into a lent object (a trained run's table) is put back (elsewhere.keeping), so every later probe,
    the grader's included, sees the learner's own objects (the report's "leave the four reference rows out" came
    from a table the check itself had filled with -inf).
(2) An exception hint names what the code did (the call that raised, the key or id missing, where it came from),
    never "a table (a dict) your cell reads" for a cell that builds no dict.
(3) The check prints no warnings of its own probing (a rerun, an undo edit, the learner's function on the check's
    inputs, the course's code on other inputs): only its verdict.
(4) A factor hint names a cause only if it can apply to the question's kind; otherwise it says what is measured.
"""

from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pytest

from embedlab.grading.exercise import Exercise
from embedlab.grading.text import cut, hint_problems

from hint_corpus import Wrong, check_wrong
from test_hint_proof12 import _notebook_and_grader


def _namespace(lesson: str, name: str, source: str) -> dict:
    """The notebook's namespace after the solution's cells above and `source` as the learner's answer cell (the
    exercise's given lines above it, as in IPython's history)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, ns = check_wrong.run_entry(Wrong(lesson, name, source, "", (), ()))
    prelude = check_wrong.exercise_prelude(lesson, name)
    ns["_ih"] = ["", (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + source]
    return ns


def _checked(lesson: str, name: str, source: str):
    """(the notebook check's verdict, the namespace after it, what the check printed on stderr, its warnings)."""
    ns = _namespace(lesson, name, source)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        verdict = Exercise(lesson).verdict(name, ns)
    return verdict, ns, err.getvalue(), [f"{w.category.__name__}: {w.message} ({w.filename})" for w in caught]


# --------------------------------------------------------------------------
# (1) the earlier answer is the cause only when putting it right gives the answer

# lesson 02's question 1 one column off (another slip than the report's question 3)
ONE_HOT_OFF = ("def one_hot(ids, V):\n    out = np.zeros((len(ids), V))\n"
               "    out[np.arange(len(ids)), (np.asarray(ids) + 1) % V] = 1.0\n    return out\n")


def test_1_a_lookup_wrong_on_its_own_says_its_own_mistake_first():
    # rows_matmul (a value) with the learner's own wrong one_hot, and a slip of its own: the last row left out
    notebook, (status, detail) = _notebook_and_grader(
        "02-lookup-vs-matmul", {"one_hot": ONE_HOT_OFF, "rows_matmul": "rows_matmul = (one_hot(ids, table_V) @ E)[:-1]\n"},
        "rows_matmul")
    assert status == notebook.status == "incorrect" and cut(notebook.detail) == detail, (notebook.detail, detail)
    detail = notebook.detail
    # the earlier answer named first (book/how-to-use.md), never as the cause: this answer's own mistake after it
    assert "fix question 1 first" not in detail, detail
    assert detail.startswith("your `one_hot` (question 1) is not right yet, and this answer uses it: fix question 1, "
                             "and this answer's own lines too: with a right `one_hot` they give another answer: "
                             "one row too few"), detail  # what its lines give with one_hot put right
    assert not hint_problems(detail), detail


def test_1_a_function_wrong_on_its_own_says_its_own_mistake_first():
    # embedding_backward (a function) built on the wrong one_hot, with a slip of its own: the gradient rows reversed
    backward = "def embedding_backward(ids, grad_out, V):\n    return one_hot(ids, V).T @ grad_out[::-1]\n"
    notebook, (status, detail) = _notebook_and_grader(
        "02-lookup-vs-matmul", {"one_hot": ONE_HOT_OFF, "embedding_backward": backward}, "embedding_backward")
    assert status == "incorrect" and cut(notebook.detail) == detail, (notebook.detail, detail)  # the CSV's cut
    detail = notebook.detail
    assert "first" not in detail, detail
    lead = ("your `one_hot` (question 1) is not right yet, and this answer uses it: fix question 1, and this answer's "
            "own lines too: with a right `one_hot` they give another answer: ")
    assert detail.startswith(lead) and "belong to other rows" in detail[len(lead):].split(";")[0], detail


def test_1_the_earlier_answer_is_still_the_cause_where_it_is():
    # the same function with no slip of its own: putting one_hot right gives the answer, so it is the cause
    backward = "def embedding_backward(ids, grad_out, V):\n    return one_hot(ids, V).T @ grad_out\n"
    notebook, (status, detail) = _notebook_and_grader(
        "02-lookup-vs-matmul", {"one_hot": ONE_HOT_OFF, "embedding_backward": backward}, "embedding_backward")
    assert detail.startswith("your `one_hot` (question 1) is not right yet, and this answer uses it"), detail
    assert "your lines give the answer" in detail and "either" not in detail, detail


@pytest.mark.parametrize("lesson, name, source, table", [
    # lesson 09: rows taken with np.take and normalised down the columns; the control edit `rows = run.model.E`
    # then divides the trained table in place
    ("09-what-rows-learn", "cos_cat",
     "rows = np.take(run.model.E, animals + vehicles, axis=0)\nrows /= np.linalg.norm(rows, axis=0)\n"
     "cos_cat = rows @ (E[cat] / np.linalg.norm(E[cat]))\n", lambda ns: ns["run"].model.E),
    # lesson 12: the table grown with zero rows, then the new rows set by hand (to the largest entries): the control
    # edit `grown = run.model` writes them into the trained model's own table
    ("12-change-a-vocabulary", "p_new_token",
     "grown = resize_tinylm(run.model, n_new, 'zeros')\ngrown.E[-n_new:] = grown.E[:-n_new].max(axis=0)\n"
     "p_new_token = float(np.exp(log_softmax(grown.logits(context)))[0][corpus.vocab_size])\n",
     lambda ns: ns["run"].model.E),
])
def test_1_the_check_never_changes_the_learners_objects(lesson, name, source, table):
    ns = _namespace(lesson, name, source)
    before = np.array(table(ns), copy=True)
    with contextlib.redirect_stderr(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        verdict = Exercise(lesson).verdict(name, ns)
    assert verdict.status == "incorrect", verdict
    assert np.array_equal(table(ns), before), "the check changed the learner's trained table"


def test_1_an_object_an_edit_changes_is_put_back_whole():
    from embedlab.grading import elsewhere

    class Model:
        pass

    model = Model()
    model.E = np.arange(6.0).reshape(3, 2)
    model.state = {"step": 3, "rows": [np.zeros(2)]}
    kept_E, kept_rows = model.E, model.state["rows"][0]
    ns = {"model": model, "np": np}
    code = compile("m = model\nm.E[0] = -np.inf\nm.state['step'] = 0\nm.state['rows'][0][:] = 7\n"
                   "m.extra = 1\nm.E = None\nx = 1\n", "<edit>", "exec")
    assert elsewhere._run(code, "x", ns, {}, frozenset({"model", "np"})) == 1
    assert model.E is kept_E and np.array_equal(model.E, np.arange(6.0).reshape(3, 2))
    assert model.state["step"] == 3 and not kept_rows.any() and not hasattr(model, "extra")


# --------------------------------------------------------------------------
# (3) no warnings of the check's own probing


@pytest.mark.parametrize("lesson, name, source", [
    # lesson 01's cosine with the vectors centred: the check's own inputs ([1, 1]) make a zero vector
    ("01-toy-table", "cosine",
     "def cosine(a, b):\n    a = a - a.mean()\n    b = b - b.mean()\n    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))\n"),
    # lesson 10's question 3 with the mean taken away from the reference mean: a single row gives a zero vector
    ("10-glitch-tokens", "unused_score",
     "def unused_score(M, reference_ids):\n    mean = M[reference_ids].mean(axis=0) - M.mean(axis=0)\n"
     "    return M @ mean / (np.linalg.norm(M, axis=1) * np.linalg.norm(mean))\n"),
])
def test_3_the_check_prints_no_warnings_of_its_probing(lesson, name, source):
    verdict, _, err, caught = _checked(lesson, name, source)
    assert verdict.status == "incorrect", verdict
    assert not caught and "Warning" not in err, (caught, err)


# --------------------------------------------------------------------------
# (2) an exception hint names what the code did, never a guessed dict


@pytest.mark.parametrize("lesson, name, source, said", [
    # lesson 12's saved_params (not the report's partial_tokens): ids counted by decoding every id of a range; the
    # other tokenizer has gaps, and tiktoken raises KeyError inside the call
    ("12-change-a-vocabulary", "saved_params",
     "n = len([tok.decode_single_token_bytes(i) for i in range(tok.n_vocab)])\n"
     "saved_params = (n - n_keep) * d_trim * (1 if trim_tied else 2)\n",
     ["`tok.decode_single_token_bytes(i)`", "tiktoken", "`i` comes from `range(tok.n_vocab)`"]),
    # lesson 12's trimmed_rows: the same call in a comprehension after the given lines' own comprehension over
    # another `i` (the loop named is the one around the call)
    ("12-change-a-vocabulary", "trimmed_rows",
     "first = [tok.decode_single_token_bytes(i) for i in range(tok.n_vocab)][:256]\n"
     "trimmed_rows = len(used | set(range(len(first))) | {tok.eot_token})\n",
     ["`tok.decode_single_token_bytes(i)`", "`i` comes from `range(tok.n_vocab)`"]),
    # lesson 07: a dict of bytes per number the cell types, with the book's precisions only: that one is a dict of
    # the cell's, and named as such
    ("07-memory", "max_batch",
     "per_number = {'bf16': 2, 'fp16': 2}\nmax_batch = int((memory - weights) // (2 * L * h_kv * head_dim * "
     "per_number[cache_precision] * serve_context))\n",
     ["`per_number[cache_precision]`", "`per_number`, the dict your cell types"]),
])
def test_2_an_exception_is_said_as_the_code_raised_it(lesson, name, source, said):
    verdict, _, _, _ = _checked(lesson, name, source)
    assert verdict.status == "incorrect" and "raises KeyError" in verdict.detail, verdict
    for words in said:
        assert words in verdict.detail, (words, verdict.detail)
    if "dict your cell types" not in said[-1]:
        assert "dict" not in verdict.detail, verdict.detail
    assert not hint_problems(verdict.detail), verdict.detail


def _site(source: str, namespace: dict):
    from embedlab.grading import elsewhere

    compiled = compile(source, "<a cell, on other parameters>", "exec")
    try:
        exec(compiled, dict(namespace))  # noqa: S102 - our own planted lines
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {exc}", elsewhere.raise_site(exc, source, "<a cell, on other parameters>")
    raise AssertionError("the planted lines did not raise")


def test_2_a_missing_config_field_and_an_index_past_a_library_end_are_named_by_the_code():
    from embedlab.grading.kinds import raised_there
    from embedlab.params import load_config

    # a config field a model's config does not have (llama-3-8b states no head_dim), read with .get elsewhere
    raised, site = _site("config = load_config(model)\nhd = config['head_dim']\nx = 2 * hd\n",
                         {"load_config": load_config, "model": "llama-3-8b"})
    text = raised_there(raised, site)
    assert "`config['head_dim']`" in text and "'head_dim'" in text and "dict" not in text, text
    # an index past the end inside numpy, from a loop over a range one too long
    raised, site = _site("rows = np.arange(6).reshape(3, 2)\nout = [np.take(rows, k, axis=0) for k in range(4)]\n",
                         {"np": np})
    text = raised_there(raised, site)
    assert raised.startswith("IndexError") and "`np.take(rows, k, axis=0)`" in text and "numpy" in text, text
    assert "`k` comes from `range(4)`" in text and "array your cell reads" not in text, text
    # with no site (a report from an older kernel) nothing is guessed about a dict either
    assert "dict" not in raised_there("KeyError: '7'"), raised_there("KeyError: '7'")


# --------------------------------------------------------------------------
# (4) a factor's causes only where they can apply


@pytest.mark.parametrize("lesson, name, source", [
    # lesson 09's gap, a difference of mean cosines, halved
    ("09-what-rows-learn", "gap",
     "unit = E / np.linalg.norm(E, axis=1, keepdims=True)\nC = unit @ unit.T\n"
     "within = [C[i, j] for g in (animals, vehicles) for i in g for j in g if i < j]\n"
     "gap = (np.mean(within) - C[np.ix_(animals, vehicles)].mean()) / 2\n"),
    # lesson 12's coverage, a share, halved
    ("12-change-a-vocabulary", "coverage",
     "kept = used | set(range(256)) | {tok.eot_token}\n"
     "covered = np.array([set(tok.encode_ordinary(' ' + w)) <= kept for w in next_words])\n"
     "weights = np.array([frequencies[w] for w in next_words])\ncoverage = float(weights @ covered / weights.sum()) / 2\n"),
])
def test_4_half_a_quantity_without_flops_or_a_cache_is_said_as_measured(lesson, name, source):
    verdict, _, _, _ = _checked(lesson, name, source)
    assert verdict.status == "incorrect" and verdict.detail.startswith("half the expected value"), verdict
    assert "multiply" not in verdict.detail and "keys and values" not in verdict.detail, verdict.detail


def test_4_a_factors_causes_follow_the_kind_of_the_answer():
    from embedlab.grading import diagnose

    # the same value half the answer, asked of five kinds of quantity: each cause only where it can apply
    said = {name: diagnose.number_hint(1000.0, 2000.0, unit=unit, name=name)
            for name, unit in (("head_flops", "flops"), ("kv_cache_gb", ""), ("attn_params", "parameters"),
                               ("mean_cos", "cosine"), ("n_rows", ""))}
    assert all(text.startswith(("half the expected value", "exactly half")) for text in said.values()), said
    assert "a multiply and an add" in said["head_flops"] and "keys and values" not in said["head_flops"], said
    assert diagnose.factor_words(1 / 2, "half", "flops", "head_flops") == "half (a multiply and an add?)"
    assert "keys and values" in said["kv_cache_gb"] and "multiply" not in said["kv_cache_gb"], said
    assert "keys and values" in said["attn_params"], said
    assert "(" not in said["mean_cos"] and "(" not in said["n_rows"], said
