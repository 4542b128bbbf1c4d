"""Newcomer S (session 6): a right answer is ✅ wherever the learner writes it, and a cell whose latest run raised is
said to have raised, whatever its name still holds.

(1) A rerun compared with a value computed outside it. Exercise 11's learner built `design` from the parameters in
    the same cell as its count (`design = llama_config(min_vocab_size, …)`, then `design_params = …`): the second
    look reran the cell on other parameters, rebuilt the design there, counted it, and compared the count with the
    expected value of the notebook's design: ❌ "right for these inputs only" on a right answer (a number typed in
    the design passed). Whatever reruns a cell (a second look, a question's declared other inputs, a typed number put
    back, a slip undone) now takes the answer expected there from the rerun's own values of the earlier answers the
    cell makes again before this one (`elsewhere.rebinds`, `elsewhere.earlier_work`): the solution's cell run on
    them. A declared case that puts an earlier answer in place (the design with its tying flipped) runs the learner's
    lines without the statements that make it again, so a wrong method is still caught in one cell.
    Planted as the arrangements a learner uses (one cell for all, in the earlier answer's cell, in the later one's,
    a new cell, the earlier answer redefined later), in exercise 11 and in lessons 08 and 12 where a later answer
    reads an earlier one; through the notebook's check, a real kernel, and the grader.
(2) A stale name: the latest run of the cell that defines the answer (or one it is judged with) raised, and the name
    still held an earlier run's value, which the check judged silently. book/how-to-use.md promises ❌ "your answer
    cell was run and raised": said first now, from the runs the kernel watched (`exercise.watch_runs`), and by the
    grader from the defining cell's error.
(3) Exercise 11's question 1 lists every failure: a design over budget with heads of the wrong width hears both.
"""

from __future__ import annotations

import contextlib
import io
import json
import queue
from pathlib import Path

import nbformat
import pytest
from solution_runner import grade_by_learner

from embedlab.grading.exercise import Exercise
from embedlab.grading.status import CORRECT, ERROR, INCORRECT

ROOT = Path(__file__).resolve().parent.parent
L11 = "11-size-a-model"


def exercise_cells(lesson: str) -> list[str]:
    nb = nbformat.read(ROOT / "exercises" / f"{lesson}.ipynb", as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code"]


def check_name(cell: str):
    text = cell.strip()
    if text.startswith("ex.check(") and text.endswith(")"):
        return text[len("ex.check("):-1].strip("\"'")
    return None


def arranged(lesson: str, own: dict[str, str], extra: tuple[str, ...] = ()) -> list[str]:
    """The exercise's code cells in order, each answer cell named in `own` with the learner's lines after its given
    ones (the others as handed out), the check cells kept, then the learner's `extra` cells: what a learner runs."""
    cells = exercise_cells(lesson)
    out = []
    for i, cell in enumerate(cells):
        name = check_name(cells[i + 1]) if i + 1 < len(cells) else None
        if name in own:
            head = cell.split("# YOUR CODE HERE")[0]
            cell = head + "# YOUR CODE HERE\n" + own[name]
        out.append(cell)
    return out + list(extra)


def run_cells(cells: list[str]) -> dict:
    """The namespace the cells leave, run in this process as a kernel runs them (IPython's history `In` kept; the
    checks' own calls recorded, not run)."""
    from embedlab.grading.code import without_checks

    namespace = {"In": [""], "__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in cells:
            namespace["In"].append(cell)
            exec(compile(without_checks(cell), "<cell>", "exec"), namespace)  # noqa: S102 - the course's cells and ours
    return namespace


def verdicts(lesson: str, cells: list[str], names) -> dict:
    namespace = run_cells(cells)
    ex = Exercise(lesson)
    return {n: ex.verdict(n, namespace) for n in names}


# --------------------------------------------------------------------------
# (1) right answers, every arrangement

DESIGN = "design = llama_config(min_vocab_size, 1024, 30, 16, 4, 4096, True)\n"  # newcomer S's, from the parameters
FITTED = ("V, d = min_vocab_size, 16 * head_dim\n"  # another learner's: the deepest depth that fits the job
          "design = deepest_fit(lambda n: llama_config(V, d, n, 16, 4, 4 * d, True), BUDGET).design\n")
FIGURES = {
    "design_params": "design_params = count_params(design).total\n",
    "design_serving_gb": ("design_serving_gb = serving_memory(design, weights=weights, context=context, batch=1, "
                          "kv=kv)['total'] / GB\n"),
    "design_train_flops": ("design_train_flops = training_flops(design, BUDGET.train_context).total * "
                           "(BUDGET.train_tokens // BUDGET.train_context)\n"),
    "tightest_budget": ("used = headroom(design_figures(design, BUDGET), BUDGET)\n"
                        "tightest_budget = max(used, key=used.get)\n"),
    "other_tying_params": ("flipped = {**design, 'tie_word_embeddings': not design['tie_word_embeddings']}\n"
                           "other_tying_params = count_params(flipped).total\n"),
}
ALL = "".join(FIGURES.values())


def arrangements(lesson: str, earlier: str, a: str, later: str, b: str) -> dict[str, list[str]]:
    """The ways a learner lays out an earlier answer `a` (of `earlier`) and a later one `b` that reads it."""
    return {
        "each in its own cell": arranged(lesson, {earlier: a, later: b}),
        "both in the later answer's cell": arranged(lesson, {later: a + b}),
        "both in the earlier answer's cell": arranged(lesson, {earlier: a + b}),
        "both in a new cell": arranged(lesson, {}, (a + b,)),
        "both in a new cell, the check called in it": arranged(lesson, {}, (a + b + f'ex.check("{later}")\n',)),
        "the earlier answer made again in a later cell": arranged(lesson, {earlier: a, later: b}, (a,)),
        "the earlier answer made again in the later cell": arranged(lesson, {earlier: a, later: a + b}),
    }


@pytest.mark.parametrize("design", [DESIGN, FITTED], ids=["from the parameters", "by deepest_fit"])
def test_exercise_11s_figures_are_right_in_every_arrangement_of_cells(design):
    names = ["design", *FIGURES]
    for how, cells in arrangements(L11, "design", design, "design_params", ALL).items():
        got = verdicts(L11, cells, names)
        wrong = {n: v.detail for n, v in got.items() if v.status != CORRECT}
        assert not wrong, (how, wrong)


def test_newcomer_s_exact_cells_design_and_count_in_one_cell():
    """newcomer S's ex11_run4: the design from min_vocab_size and its count in question 1's answer cell."""
    cells = arranged(L11, {"design": DESIGN + "design_params = count_params(design).total     # the two in one cell\n"})
    got = verdicts(L11, cells, ["design", "design_params"])
    assert all(v.status == CORRECT for v in got.values()), got


# Lessons where a later answer may read an earlier one: (lesson, earlier, its lines, later, its lines reading it)
PAIRS = [
    ("08-vocabulary-size", "embedding_params", "embedding_params = V_big * d\n",
     "embedding_share", "embedding_share = embedding_params / (embedding_params + rest)\n"),
    ("08-vocabulary-size", "extra_head_flops", "extra_head_flops = 2 * d * V_big - 2 * d * V_small\n",
     "break_even_r", "break_even_r = (blocks + 2 * d * V_small) / (blocks + 2 * d * V_small + extra_head_flops)\n"),
    ("12-change-a-vocabulary", "added_params",
     "rows = max(V, n_tok + n_new)\nconfig = load_config(vocab_model)\n"
     "added_params = count_params(dict(config, vocab_size=rows)).total - count_params(config).total\n",
     "padding_rows", "padding_rows = padded_size(rows, pad_multiple) - (n_tok + n_new)\n"),
]


@pytest.mark.parametrize("lesson,earlier,a,later,b", PAIRS, ids=[f"{p[0][:2]} {p[3]}" for p in PAIRS])
def test_a_later_answer_that_reads_an_earlier_one_is_right_in_every_arrangement(lesson, earlier, a, later, b):
    for how, cells in arrangements(lesson, earlier, a, later, b).items():
        got = verdicts(lesson, cells, [earlier, later])
        wrong = {n: v.detail for n, v in got.items() if v.status != CORRECT}
        assert not wrong, (how, wrong)


# --------------------------------------------------------------------------
# (1) ... and a wrong method is still caught in one cell


@pytest.mark.parametrize("design", [DESIGN, FITTED], ids=["from the parameters", "by deepest_fit"])
def test_a_wrong_method_beside_the_design_it_reads_is_still_refused(design):
    """The look now counts the design the cell builds there: a count typed beside it gives itself, and a head added
    whatever the tying (right for a tied design only) is refused by the case that flips the design's tying, its own
    design statement left out so the flipped one is what the lines read."""
    typed = design + "design_params = 488_961_024\n"
    got = verdicts(L11, arranged(L11, {"design_params": typed}), ["design_params"])["design_params"]
    assert got.status == INCORRECT and "right for these inputs only" in got.detail, got
    added = design + ("design_params = count_params(design).total\n"
                      "other_tying_params = design_params + design['vocab_size'] * design['hidden_size']\n")
    for cells in (arranged(L11, {"other_tying_params": added}), arranged(L11, {}, (added,))):
        got = verdicts(L11, cells, ["other_tying_params"])["other_tying_params"]
        assert got.status == INCORRECT and "with the design untied" in got.detail, got
        assert "flip the tying" in got.detail.lower(), got


def test_an_earlier_answer_made_again_after_the_answer_is_not_read_as_its_input():
    """`rebinds` reads the cell's order: an earlier answer set after the answer (made from it) is not one the
    answer was computed from, so the rerun's value of it does not make the answer expected there."""
    import ast

    from embedlab.grading.elsewhere import rebinds

    tree = ast.parse("V = 3\ndesign = f(V)\nx = count(design)\ndesign = g(x)\nn = x + 1\n")
    assert rebinds(tree, "x", {"design", "V", "n"}) == {"V"}
    assert rebinds(tree, "n", {"design", "V", "x"}) == {"V", "x", "design"}  # its last making comes before n
    assert rebinds(ast.parse("y = 1\n"), "x", {"y"}) == frozenset()


# --------------------------------------------------------------------------
# (2) a cell whose latest run raised


class Kernel:
    """Cells run one by one as a kernel runs them, IPython's run events watched by the check (solution_runner's
    KernelEvents)."""

    def __init__(self, namespace):
        from solution_runner import KernelEvents

        self.user_ns = namespace
        self.events = KernelEvents(namespace)

    def run(self, cell):
        from embedlab.grading.code import without_checks

        self.user_ns["_ih"].append(cell)

        def execute():
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(without_checks(cell), "<cell>", "exec"), self.user_ns)  # noqa: S102
        self.events.run(cell, len(self.user_ns["_ih"]) - 1, execute)


@pytest.fixture
def shell(monkeypatch):
    import IPython

    made = Kernel({"_ih": [""], "__name__": "__main__"})
    monkeypatch.setattr(IPython, "get_ipython", lambda: made.events)
    yield made
    made.events.forget()


def test_a_raise_after_an_earlier_run_is_said_not_the_stale_value_judged(shell):
    """newcomer S's ex11_run2: a design with 128-wide heads, then h_kv = 3, which raises in llama_config: the check
    said the old design's head width. Planted also in lesson 08 (a value question) and for a Design's `uses`."""
    cells = arranged(L11, {"design": "design = llama_config(min_vocab_size, 1024, 30, 8, 2, 4096, True)\n"})
    for cell in cells:
        shell.run(cell)
    ex = Exercise(L11)
    assert "yours are 128" in ex.verdict("design", shell.user_ns).detail
    shell.run("design = llama_config(min_vocab_size, 1024, 30, 16, 3, 4096, True)\n")  # raises ValueError
    v = ex.verdict("design", shell.user_ns)
    assert v.status == ERROR and v.points == 0 and "your answer cell was run and raised ValueError" in v.detail, v
    assert "num_key_value_heads=3" in v.detail and "the value `design` holds now is not judged" in v.detail, v
    assert "yours are 128" not in v.detail, v
    shell.run("design_params = count_params(design).total\n")
    v = ex.verdict("design_params", shell.user_ns)
    assert v.status == ERROR and "the cell that defines `design` was run and raised ValueError" in v.detail, v
    shell.run("design = llama_config(min_vocab_size, 1024, 30, 16, 4, 4096, True)\nprint(1 / 0)\n")
    v = ex.verdict("design", shell.user_ns)
    assert v.status == ERROR and "ZeroDivisionError" in v.detail, v  # set before the error: not judged either
    shell.run("design = llama_config(min_vocab_size, 1024, 30, 16, 4, 4096, True)\n")  # put right: judged again
    assert ex.verdict("design", shell.user_ns).status == CORRECT
    assert ex.verdict("design_params", shell.user_ns).status == CORRECT
    text = " ".join((ROOT / "book" / "how-to-use.md").read_text(encoding="utf-8").split())
    assert '"your answer cell was run and raised", with the error\'s last line, also when the answer still holds a ' \
           "value from an earlier run" in text, "book/how-to-use.md no longer promises it"


def test_a_value_answer_whose_cell_raised_later_is_said_to_have_raised(shell):
    lesson = "08-vocabulary-size"
    for cell in arranged(lesson, {"embedding_params": "embedding_params = V_big * d\n"}):
        shell.run(cell)
    ex = Exercise(lesson)
    assert ex.verdict("embedding_params", shell.user_ns).status == CORRECT
    shell.run("embedding_params = V_big * d_model\n")  # NameError: the right value from before stays
    v = ex.verdict("embedding_params", shell.user_ns)
    assert v.status == ERROR and "raised NameError" in v.detail and "`embedding_params` holds now" in v.detail, v
    # a check inside the cell that is running has not raised: judged as it stands
    shell.run("embedding_params = V_big * d\nex.check('embedding_params')\n")
    assert ex.verdict("embedding_params", shell.user_ns).status == CORRECT


# --------------------------------------------------------------------------
# (3) every failure of a design in one hint


def test_a_design_over_budget_with_heads_of_another_width_hears_both():
    """newcomer S: 8 heads of 128 on d = 1,024 and over two budgets got the budgets only. Planted on a class variant
    with another head width too."""
    from embedlab.grading.questions import l11
    from embedlab.sizing import llama_config, over_budget

    book = next(q for q in l11.questions(l11.DEFAULTS) if q.name == "design")
    detail = book.judge({"design": llama_config(32000, 1024, 30, 8, 4, 4096, True)}, None).detail
    assert "memory:" in detail and "compute:" in detail and "yours are 128" in detail, detail
    p = {**l11.DEFAULTS, "head_dim": 96, "min_vocab_size": 24_000, "max_serving_gb": 0.75}  # a class variant's job
    q = next(q for q in l11.questions(p) if q.name == "design")
    wide = 2 * p["head_dim"]
    heads = 8
    design = llama_config(p["min_vocab_size"], heads * wide, 200, heads, 4, 4 * heads * wide, True)
    assert over_budget(design, l11.budget(p))
    detail = q.judge({"design": design}, None).detail
    assert f"head_dim = {p['head_dim']} wide" in detail and f"yours are {wide}" in detail, detail
    assert detail.index("yours are") > detail.index(over_budget(design, l11.budget(p))[0][:10]), detail


# --------------------------------------------------------------------------
# (1) and (2) in a real kernel, as a learner runs the notebook, and through the grader (embedlab-grade)


def handout(own: dict[str, str], above: str = ""):
    """Exercise 11 as handed out, the answer cells of `own` filled in, `above` a cell of the learner's own right
    after the job's BUDGET cell (exploring)."""
    nb = nbformat.read(ROOT / "exercises" / f"{L11}.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    for cell, after in zip(code, code[1:]):
        name = check_name(after.source)
        if name in own:
            cell.source = cell.source.split("# YOUR CODE HERE")[0] + "# YOUR CODE HERE\n" + own[name]
    if above:
        at = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and "BUDGET = Budget(" in c.source)
        nb.cells.insert(at + 1, nbformat.v4.new_code_cell(above))
    return nb


EXPLORED = "design = llama_config(min_vocab_size, 1024, 30, 8, 2, 4096, True)   # a first try: heads 128 wide\n"
RAISES = "design = llama_config(min_vocab_size, 1024, 30, 16, 3, 4096, True)   # h_kv = 3 does not divide 16\n"
# newcomer S's ex11_run2, as written: the design and every figure in question 1's answer cell
NEWCOMER_ONE_CELL = """design = llama_config(min_vocab_size, 1024, 30, 16, 4, 4096, True)
design_params = count_params(design).total
design_serving_gb = serving_memory(design, weights=weights, context=context, batch=1, kv=kv)["total"] / GB
D, T_train = BUDGET.train_tokens, BUDGET.train_context
design_train_flops = training_flops(design, T_train).total * (D // T_train)
used = headroom(design_figures(design, BUDGET), BUDGET)
tightest_budget = max(used, key=used.get)
flipped = {**design, "tie_word_embeddings": not design["tie_word_embeddings"]}
other_tying_params = count_params(flipped).total
"""
NOTEBOOKS = {
    "onecell": ({"design": NEWCOMER_ONE_CELL}, ""),
    "raised": ({"design": RAISES, "design_params": FIGURES["design_params"]}, EXPLORED),
}


@pytest.fixture(scope="module")
def kernel_and_grader(tmp_path_factory):
    """Each notebook run top to bottom in a fresh kernel of this Python (its check cells' printed lines), and graded
    by embedlab-grade (its CSV rows)."""
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

    tmp = tmp_path_factory.mktemp("newcomer_s")
    said = {}
    for label, (own, above) in NOTEBOOKS.items():
        nb = handout(own, above)
        nbformat.write(nb, tmp / f"{label}-{L11}.ipynb")
        ran = nbformat.reads(nbformat.writes(nb), as_version=4)
        km = AsyncKernelManager(kernel_name=CURRENT_ENV_KERNEL_NAME, kernel_spec_manager=NbvalKernelspecManager())
        NotebookClient(ran, km=km, timeout=180, allow_errors=True,
                       resources={"metadata": {"path": str(tmp)}}).execute(cwd=str(tmp))
        said[label] = {check_name(c.source): " ".join("".join(o.get("text", "") for o in c.outputs).split())
                       for c in ran.cells if c.cell_type == "code" and check_name(c.source)}
    return said, grade_by_learner([tmp / f"{label}-{L11}.ipynb" for label in NOTEBOOKS], tmp,
                                  cell_timeout=60, timeout=300)


def test_a_design_and_its_figures_in_one_cell_score_full_in_the_kernel_and_the_grader(kernel_and_grader):
    said, rows = kernel_and_grader
    for name in ["design", *FIGURES]:
        assert said["onecell"][name].startswith(f"✅ {name}"), (name, said["onecell"][name])
        assert rows["onecell"][name]["status"] == "correct", (name, rows["onecell"][name])
        assert float(rows["onecell"][name]["points"]) == float(rows["onecell"][name]["max_points"]), name


def test_a_raising_answer_cell_is_said_to_have_raised_in_the_kernel_and_the_grader(kernel_and_grader):
    said, rows = kernel_and_grader
    for where, text in (("kernel", said["raised"]["design"]), ("grader", rows["raised"]["design"]["detail"])):
        assert "your answer cell" in text and "was run and raised ValueError" in text, (where, text)
        assert "num_key_value_heads=3" in text and "yours are 128" not in text, (where, text)
    assert said["raised"]["design"].startswith("❌ design"), said["raised"]["design"]
    # the same words in both (the check's line folded, the row's not)
    assert rows["raised"]["design"]["detail"] in said["raised"]["design"], (said["raised"], rows["raised"])
    assert rows["raised"]["design_params"]["detail"] in said["raised"]["design_params"], said["raised"]
    assert rows["raised"]["design"]["status"] == "error" and float(rows["raised"]["design"]["points"]) == 0
    for where, text in (("kernel", said["raised"]["design_params"]), ("grader", rows["raised"]["design_params"]["detail"])):
        assert "the cell that defines `design`" in text and "was run and raised ValueError" in text, (where, text)
    assert rows["raised"]["design_params"]["status"] == "error"
    table = " ".join((ROOT / "book" / "grading.md").read_text(encoding="utf-8").split())
    assert "the cell that defines it (or an answer it is judged with) raised though the name holds a value" in table


def test_the_grader_says_a_defining_cell_raised_and_leaves_a_stopped_cell_to_the_time_limit():
    """judge.score: the defining cell's error (or that of the cell defining an answer it is judged with) is said
    before any judging of the value the name holds; a cell the sandbox stopped at the cell limit is not called
    raised (at_the_limit says that)."""
    from embedlab.grading import wire
    from embedlab.grading.judge import score
    from embedlab.grading.lessons import load_key, questions_for
    from embedlab.grading.sandbox import Limits, RunResult

    lesson = "08-vocabulary-size"
    q = next(q for q in questions_for(lesson) if q.name == "embedding_params")
    key = load_key(lesson)
    entry = {wire.DATA: q.to_data(key["embedding_params"])}  # the right value
    right = score(q, key, {}, RunResult("finished", {"errors": [], "timeouts": [], "defines": {"embedding_params": 5}},
                                        {"embedding_params": entry}), Limits(), lesson)
    assert right[2] == CORRECT, right
    for stopped, want in (([], ERROR), ([5], CORRECT)):
        report = {"errors": [{"cell": 5, "ename": "NameError", "evalue": "name 'd_model' is not defined"}],
                  "timeouts": stopped, "defines": {"embedding_params": 5}}
        got = score(q, key, {}, RunResult("finished", report, {"embedding_params": entry}), Limits(), lesson)
        assert got[2] == want, (stopped, got)
        if want == ERROR:
            assert "your answer cell" in got[3] and "was run and raised NameError" in got[3] and got[0] == 0, got
    # a Design judged with the learner's own design: the cell that defines `design` raised
    d = next(q for q in questions_for(L11) if q.name == "design_params")
    report = {"errors": [{"cell": 7, "ename": "ValueError", "evalue": "num_key_value_heads=3 must divide"}],
              "timeouts": [], "defines": {"design": 7, "design_params": 9}}
    got = score(d, load_key(L11), {}, RunResult("finished", report, {"design_params": {wire.DATA: {}}}), Limits(), L11)
    assert got[2] == ERROR and "the cell that defines `design`" in got[3], got


def test_an_edit_that_changes_the_design_the_cell_builds_is_no_slip_of_its_count():
    """A slip undone in the learner's lines is judged against the answer for the notebook's design: an edit of the
    design line in the same cell (a 30 made 1) counts another design, so it is not run as a slip of the count."""
    from embedlab.grading import elsewhere, undo
    from embedlab.grading.lessons import questions_for

    namespace = run_cells(arranged(L11, {"design": DESIGN}))
    q = next(q for q in questions_for(L11) if q.name == "design_params")
    text = DESIGN + "design_params = count_params(design).total + 2\n"
    read = frozenset({"llama_config", "min_vocab_size", "count_params", "design"})
    every = elsewhere.run_cell_edits(q, namespace, text, read, None, None, {}, "integer")
    kept = elsewhere.run_cell_edits(q, namespace, text, read, None, None, {}, "integer", frozenset({"design"}))
    assert any("llama_config" in e[undo.UNDONE] for e in every), every  # such edits exist, and ran before
    assert not any("llama_config" in e[undo.UNDONE] for e in kept), kept
