"""Newcomer T (session 6): an answer cell that fails to parse (SyntaxError, IndentationError) is a cell whose run
failed, said so by the notebook's check and by the grader in the same words, and never ✅ from a value an earlier
version of the cell set.

Before: the check said ⏳ "not attempted yet … run that cell first" to a learner who had run the cell, or, with the
kernel's watched runs, quoted the kernel's temporary file name, the line and a caret ("raised File
"/tmp/ipykernel_…/….py", line 7 attn_layer = … ^ SyntaxError: invalid syntax"), while the grader said another
sentence ("`attn_layer` is not defined; a code cell raised SyntaxError: invalid syntax (….py, line 7)").
Now both say "your answer cell was run and did not parse: SyntaxError: invalid syntax (line 7)", and, where the name
still holds an earlier run's value, that the value is not judged. Planted in four lessons and four question kinds
(a value, a function, a table, an array), and an edit that breaks the assignment itself (`head_flops 2 * d * V`), through a real kernel and through embedlab-grade.
"""

from __future__ import annotations

import linecache
import sys
from pathlib import Path

import nbformat
import pytest
from solution_runner import grade_by_learner

from embedlab.grading.status import ERROR

ROOT = Path(__file__).resolve().parent.parent

# lesson, question, a right cell, a first try that does not parse, a later edit of the right cell that does not
# parse (the learner's own lines; a function's cell is the whole cell), the error and line each gives
CASES = {
    "value": ("04-modern-blocks", "attn_layer",
              "attn_layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim\n",
              "attn_layer = 2 * d * h * head_dim + 2 * d * h_kv * head_dim +\n",
              "attn_layer = (2 * d * h * head_dim + 2 * d * h_kv * head_dim\n",
              "SyntaxError", "SyntaxError"),
    "function": ("06-params-vs-compute", "forward_flops_per_token",
                 "def forward_flops_per_token(V, d, L, d_ff, context):\n"
                 "    blocks = 2 * L * (4 * d * d + 2 * d * d_ff)\n"
                 "    attention = 4 * L * context * d\n"
                 "    head = 2 * d * V\n"
                 "    return blocks + attention + head\n",
                 "def forward_flops_per_token(V, d, L, d_ff, context)\n"
                 "    return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + 2 * d * V\n",
                 "def forward_flops_per_token(V, d, L, d_ff, context):\n"
                 "return 2 * L * (4 * d * d + 2 * d * d_ff) + 4 * L * context * d + 2 * d * V\n",
                 "SyntaxError", "IndentationError"),
    "table": ("01-toy-table", "E",
              "E = np.array([[int(f in traits[w]) for f in features] for w in words])\n",
              "E = np.array([[int(f in traits[w]) for f in features] for w in words]]\n",
              "if True:\nE = np.array([[int(f in traits[w]) for f in features] for w in words])\n",
              "SyntaxError", "IndentationError"),
    # the edit breaks the assignment itself: the cell no longer reads as defining the name, but it is its try
    "assignment": ("06-params-vs-compute", "head_flops",
                   "head_flops = 2 * d * V\n",
                   "head_flops = 2 * d * V)\n",
                   "head_flops 2 * d * V\n",
                   "SyntaxError", "SyntaxError"),
    "array": ("05-weight-tying", "grad_E",
              "grad_E = dlogits.T @ x\nnp.add.at(grad_E, ids, dx0)\n",
              "grad_E = dlogits.T @ x\n  np.add.at(grad_E, ids, dx0)\n",
              "grad_E == dlogits.T @ x\nfor i, t in enumerate(ids)\n    grad_E[t] += dx0[i]\n",
              "IndentationError", "SyntaxError"),
}


def check_name(cell: str):
    text = cell.strip()
    if text.startswith("ex.check(") and text.endswith(")"):
        return text[len("ex.check("):-1].strip("\"'")
    return None


def filled(cell: str, own: str) -> str:
    """The answer cell with the learner's lines: after the given lines, or the whole cell for a function."""
    if cell.lstrip().startswith("def "):
        return own
    return cell.split("# YOUR CODE HERE")[0] + "# YOUR CODE HERE\n" + own


def notebook(lesson: str, name: str, right: str, first: str, later: str, rerun: bool = True):
    """The handout, the answer cell run first as `first` (does not parse), then, at the end, the cell put right and
    checked, then edited to `later` (does not parse) and checked: what a learner runs."""
    nb = nbformat.read(ROOT / "exercises" / f"{lesson}.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    answer = next(cell for cell, after in zip(code, code[1:]) if check_name(after.source) == name)
    given = answer.source
    answer.source = filled(given, first)
    check = f'ex.check("{name}")'
    if rerun:
        nb.cells += [nbformat.v4.new_code_cell(filled(given, right)), nbformat.v4.new_code_cell(check),
                     nbformat.v4.new_code_cell(filled(given, later)), nbformat.v4.new_code_cell(check)]
    return nb


@pytest.fixture(scope="module")
def kernel_and_grader(tmp_path_factory):
    """Each notebook run top to bottom in a fresh kernel of this Python (the lines each check cell printed, in
    order), and graded by embedlab-grade (its CSV rows)."""
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

    tmp = tmp_path_factory.mktemp("did_not_parse")
    said, paths = {}, []
    for kind, (lesson, name, right, first, later, _, _) in CASES.items():
        nb = notebook(lesson, name, right, first, later)
        path = tmp / f"{kind}-{lesson}.ipynb"
        nbformat.write(nb, path)
        paths.append(str(path))
        ran = nbformat.reads(nbformat.writes(nb), as_version=4)
        km = AsyncKernelManager(kernel_name=CURRENT_ENV_KERNEL_NAME, kernel_spec_manager=NbvalKernelspecManager())
        NotebookClient(ran, km=km, timeout=300, allow_errors=True,
                       resources={"metadata": {"path": str(tmp)}}).execute(cwd=str(tmp))
        said[kind] = [" ".join("".join(o.get("text", "") for o in c.outputs).split())
                      for c in ran.cells if c.cell_type == "code" and check_name(c.source) == name]
        first_only = tmp / f"first{kind}-{lesson}.ipynb"  # graded as handed in after the first try
        nbformat.write(notebook(lesson, name, right, first, later, rerun=False), first_only)
        paths.append(str(first_only))
    return said, grade_by_learner(paths, tmp, cell_timeout=120, timeout=600)


@pytest.mark.parametrize("kind", list(CASES))
def test_a_cell_that_did_not_parse_is_said_so_in_the_kernel_never_a_stale_tick(kind, kernel_and_grader):
    said, _ = kernel_and_grader
    lesson, name, _, _, _, first_error, later_error = CASES[kind]
    first, right, later = said[kind]
    # run first as it does not parse: not "not attempted", the error and its line, no file name of the kernel's
    assert first.startswith(f"❌ {name}"), first
    assert f"your answer cell was run and did not parse: {first_error}:" in first and "(line " in first, first
    assert f"`{name}` is not defined; fix that cell and run it again" in first, first
    assert "ipykernel" not in first and ".py" not in first and "not attempted" not in first, first
    assert right.startswith(f"✅ {name}"), right
    # put right (✅), then edited so it does not parse: the value from the right run is not judged
    assert later.startswith(f"❌ {name}") and "✅" not in later, later
    assert f"your answer cell was run and did not parse: {later_error}:" in later, later
    assert f"the value `{name}` holds now is not judged" in later, later


@pytest.mark.parametrize("kind", list(CASES))
def test_the_grader_says_the_same_words_as_the_check(kind, kernel_and_grader):
    said, rows = kernel_and_grader
    lesson, name, *_ = CASES[kind]
    row = rows[kind][name]
    assert row["status"] == "error" and float(row["points"]) == 0, row
    # the grader's fresh kernel runs the notebook as saved: the cell that defines the answer last is the later edit
    assert f"your answer cell was run and did not parse: {CASES[kind][6]}:" in row["detail"], row
    assert row["detail"] in said[kind][2].replace(f"❌ {name}", ""), (row["detail"], said[kind][2])
    first = rows["first" + kind][name]  # not defined: the answer cell's first try did not parse
    assert first["status"] == "error" and float(first["points"]) == 0, first
    assert f"your answer cell was run and did not parse: {CASES[kind][5]}:" in first["detail"], first
    assert first["detail"] in said[kind][0], (first["detail"], said[kind][0])


def test_a_cell_that_fails_to_parse_is_told_from_ipython_syntax_and_a_use_of_the_name():
    from embedlab.grading.text import broken_definition, fails_to_parse

    assert fails_to_parse("x = 1 +\n") and fails_to_parse("def f(x):\nreturn x\n")
    for fine in ("%matplotlib inline\nx = 1\n", "!ls\nx = 2\n", "x?\n", "await f()\n", "x = 1\n"):
        assert not fails_to_parse(fine), fine
    loose = broken_definition("attn_layer")
    for tried in ("attn_layer 2 * d\n", "attn_layer == 2 * d +\n", "  attn_layer = (2\n", "def attn_layer(x)\n"):
        assert loose.search(tried), tried
    for read in ("attn_layer.bit_length(\n", "attn_layer[0\n", "print(attn_layer\n", "attn_layers = 2\n"):
        assert not loose.search(read), read


def test_the_books_promise_it():
    for page, words in (("how-to-use.md", 'a cell that does not parse, a SyntaxError or an IndentationError, is told '
                                          '"your answer cell was run and did not parse", with the error and its line'),
                        ("grading.md", 'an answer cell that did not parse, a SyntaxError or an IndentationError: in '
                                       'the notebook check\'s words, "your answer cell was run and did not parse", '
                                       'with the error and its line')):
        text = " ".join((ROOT / "book" / page).read_text(encoding="utf-8").split())
        assert words in text, page


def test_the_words_name_the_error_and_line_only():
    """The kernel's and the grader's forms of one error give one line; a runtime error's words are kept."""
    from embedlab.grading.text import did_not_parse, error_line, missing_words, raised_words

    assert error_line("SyntaxError", "invalid syntax (1605140326.py, line 7)") == "SyntaxError: invalid syntax (line 7)"
    assert error_line("IndentationError", "expected an indented block after 'if' statement on line 3 "
                      "(/tmp/ipykernel_9/3.py, line 4)") == \
        "IndentationError: expected an indented block after 'if' statement on line 3 (line 4)"
    assert error_line("ValueError", "bad (a, line 3)") == "ValueError: bad (a, line 3)"
    assert did_not_parse("TabError: x (line 2)") and not did_not_parse("NameError: name 'x' is not defined")
    assert "did not parse" in raised_words("your answer cell", "SyntaxError: invalid syntax (line 2)", "x")
    assert "raised NameError" in missing_words("your answer cell", "NameError: name 'd' is not defined", "x")


def test_without_the_watched_runs_the_last_error_tells_a_cell_that_did_not_parse(monkeypatch):
    """A kernel whose runs were not watched (the check made after the cell ran): IPython's last error, a
    SyntaxError with no frame of the cell, is matched by the text IPython keeps under the cell's file name."""
    from embedlab.grading.exercise import Exercise

    cell = "attn_layer = 2 * d * h * head_dim +\n"
    filename = "/tmp/ipykernel_1/123456.py"
    linecache.cache[filename] = (len(cell), None, cell.splitlines(True), filename)
    try:
        try:
            compile(cell, filename, "exec")
        except SyntaxError as exc:
            error = exc
        monkeypatch.setattr(sys, "last_value", error, raising=False)
        monkeypatch.setattr(sys, "last_traceback", None, raising=False)
        for namespace in ({"In": ["", cell]}, {"In": ["", "attn_layer = 10_485_760\n", cell], "attn_layer": 10_485_760}):
            v = Exercise("04-modern-blocks").verdict("attn_layer", namespace)
            assert v.status == ERROR and "did not parse: SyntaxError: invalid syntax (line 1)" in v.detail, v
    finally:
        linecache.cache.pop(filename, None)
