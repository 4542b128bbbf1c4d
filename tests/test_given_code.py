"""A wrong answer computed from edited given code says so (issue 32): the code the exercise
gives (the lines above `# YOUR CODE HERE` in an answer cell, and the cells it gives whole) is
compared with the exercise as handed out (exercises/), by the notebook's check and by the
grader, for every lesson; an edited line is named instead of a guessed slip.
"""

import re

import nbformat
import pytest

from embedlab.grading import cli, wire
from embedlab.grading.code import _line, answer_source, given_changed, given_code
from embedlab.grading.exercise import Exercise
from embedlab.grading.lessons import known_lessons, load_key, questions_for
from embedlab.grading.sandbox import Limits, RunResult
from embedlab.grading.status import INCORRECT
from solution_runner import ROOT

LESSON_12 = "12-change-a-vocabulary"


def code_cells(folder, lesson):
    nb = nbformat.read(ROOT / folder / f"{lesson}.ipynb", as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code"]


def edited(sources, question, lesson):
    """The cells with one given line of `question` edited (a number in it changed), and that line:
    the answer cell's own given lines first, else a cell above it; (None, None) when no given
    line holds a number."""
    above, own = given_code(lesson)[question]
    answer = answer_source(question, {"In": sources})
    for line in own + tuple(reversed(above)):
        number = re.search(r"(?<![\w.])[0-9]+(?![\w.])", line)
        if number is None or line.startswith("print("):
            continue
        changed = str(int(number.group()) * 10 + 7)
        for k, source in enumerate(sources):
            if line in own and source != answer:
                continue
            lines = source.splitlines()
            for i, raw in enumerate(lines):
                if _line(raw) == line:
                    at = raw.index(number.group(), len(raw) - len(raw.lstrip()) + number.start())
                    lines[i] = raw[:at] + changed + raw[at + len(number.group()):]
                    return sources[:k] + ["\n".join(lines)] + sources[k + 1:], line
    return None, None


def test_lesson_12_training_steps_edited_is_named_only_when_putting_it_back_gives_the_answer():
    """The judge blames an edit of the given code only on its counterfactual (issue 46): the kernel runs the
    cells again with the edited lines put back as handed out (wire.HANDED_OUT) and the judge judges that
    answer: right, the edit is blamed; the same answer, the answer's own hint alone; another wrong answer
    or not known, the answer's own hint with the edit mentioned after it."""
    sources = code_cells("solutions", LESSON_12)
    cells = [s.replace("steps=400,", "steps=40000,", 1) if "p_new_token =" in s else s for s in sources]
    answer = next(s for s in cells if "p_new_token =" in s)
    said = given_changed(LESSON_12, "p_new_token", cells, answer)
    assert said and "steps=400," in said and "steps=40000," in said and "exercise gives was changed" in said
    q = next(q for q in questions_for(LESSON_12) if q.name == "p_new_token")
    key = load_key(LESSON_12)
    report = {"errors": [], "timeouts": [], "code": cells, "sources": {"p_new_token": answer}}

    def scored(counter, lesson=LESSON_12):
        entry = {"data": q.to_data(0.987654), **({wire.HANDED_OUT: counter} if counter is not None else {})}
        return cli.score(q, key, {}, RunResult("finished", report, {"p_new_token": entry}), Limits(), lesson)

    own = scored(None, lesson=None)[3]  # no lesson: the answer's own hint
    assert own != said and "exercise gives" not in own
    assert scored({"data": q.to_data(key["p_new_token"])})[2:] == (INCORRECT, said)
    assert scored({"same": True})[3] == own
    for counter in ({"data": q.to_data(0.5)}, {"raised": "NameError: corpus"}, None):
        mentioned = scored(counter)[3]
        assert mentioned.startswith(own[:40]) and "you also changed a line the exercise gives" in mentioned \
            and "put that line back" not in mentioned, mentioned


@pytest.mark.parametrize("lesson", known_lessons())
def test_the_solution_changes_no_given_line_and_an_edited_one_is_named(lesson):
    """Every lesson: the solution (which keeps the given code) is never told its given code
    changed; with a number of a given line multiplied by ten, plus seven, the line is named."""
    sources = code_cells("solutions", lesson)
    named = 0
    for question in given_code(lesson):
        assert given_changed(lesson, question, sources, answer_source(question, {"In": sources})) is None
        cells, line = edited(sources, question, lesson)
        if cells is None:
            continue  # no given line with a number to edit
        said = given_changed(lesson, question, cells, answer_source(question, {"In": cells}))
        assert said and line[:60] in said, (question, line, said)
        named += 1
    assert set(given_code(lesson)) == {q.name for q in questions_for(lesson)}
    assert named >= 1


def test_the_submitted_code_reaches_the_judge_through_the_sandbox_report():
    """The worker reports every code cell's source ("code"); the grader's check of that report kept
    "sources" but dropped "code", so in embedlab-grade the edited-given-code hint never fired (found by
    a blind attack, round 4). clean_report keeps it, as plain strings only, bounded."""
    from embedlab.grading import sandbox

    cells = code_cells("solutions", LESSON_12)
    kept = sandbox.clean_report({"state": "finished", "code": cells + [17, None, {"x": 1}]})
    assert kept["code"] == cells
    assert sandbox.clean_report({"state": "finished", "code": "not a list"})["code"] == []
    assert len(sandbox.clean_report({"state": "finished", "code": ["x"] * 10**5})["code"]) == sandbox.REPORTED_CELLS
    edited_cells = [s.replace("steps=400,", "steps=40000,", 1) if "p_new_token =" in s else s for s in cells]
    report = sandbox.clean_report({"state": "finished", "code": edited_cells,
                                   "sources": {"p_new_token": next(s for s in edited_cells if "p_new_token =" in s)}})
    q = next(q for q in questions_for(LESSON_12) if q.name == "p_new_token")
    right = {wire.HANDED_OUT: {"data": q.to_data(load_key(LESSON_12)["p_new_token"])}}  # as the kernel reports it
    result = RunResult("finished", report, {"p_new_token": {"data": q.to_data(0.987654), **right}})
    assert "exercise gives was changed" in cli.score(q, load_key(LESSON_12), {}, result, Limits(), LESSON_12)[3]


# --------------------------------------------------------------------------
# The counterfactual run: the notebook's check and the grader's kernel put the edited lines back

LESSON_07 = "07-memory"
SOLUTION_07 = "N = count_params(load_config(weights_model)).total\nweights_gb_4bit = N * 0.5 / 1e9\n"
EDITS_07 = {
    # a harmless rewrite of the given line, and the real mistake elsewhere (GiB for GB): its own hint
    "harmless": ("counts = count_params(load_config(weights_model))\nN = counts.total\n"
                 "weights_gb_4bit = N * 0.5 / 2**30\n", "own"),
    # the given line read for another model, the rest right: put back, the answer is right: blamed
    "explains": ("N = count_params(load_config('gpt2')).total\nweights_gb_4bit = N * 0.5 / 1e9\n", "blamed"),
    # the given line edited and a mistake of its own: put back, still wrong: its own hint, the edit mentioned
    "both": ("N = count_params(load_config('gpt2')).total\nweights_gb_4bit = N * 0.5 / 2**30\n", "mentioned"),
}


def with_answer(lesson: str, name: str, answer: str) -> list[str]:
    """The solution's code cells with the answer cell of `name` replaced by `answer`."""
    cells = code_cells("solutions", lesson)
    at = next(i for i, c in enumerate(cells) if re.search(rf"^{name} =", c, re.M))
    return cells[:at] + [answer] + cells[at + 1:]


def ran(cells: list[str]) -> dict:
    """The namespace the cells leave, run as a kernel runs them (IPython's history `In` kept)."""
    import contextlib
    import io

    namespace = {"In": [""]}
    with contextlib.redirect_stdout(io.StringIO()):
        for cell in cells:
            namespace["In"].append(cell)
            if "ex.check" not in cell and "ex.summary" not in cell:
                exec(compile(cell, "<cell>", "exec"), namespace)  # noqa: S102 - our own cells, edited
    return namespace


def kind_of(detail: str, own: str) -> str:
    if "exercise gives was changed" in detail and "put that line back" in detail:
        return "blamed"
    if "you also changed a line the exercise gives" in detail:
        return "mentioned"
    return "own" if detail == own else f"other: {detail}"


def test_an_edit_of_the_given_code_is_blamed_only_when_putting_it_back_gives_the_answer_notebook_and_grader():
    """Issue 46: `N = count_params(…).total` rewritten as `counts = count_params(…)` then `counts.total` is
    no mistake; the notebook's check and the grader's kernel each run the cell again with the given line
    put back, and blame the edit only when that gives the right answer; both say the same words."""
    from jupyter_client.session import json_packer, json_unpacker

    from embedlab.grading import grader

    q = next(q for q in questions_for(LESSON_07) if q.name == "weights_gb_4bit")
    questions = questions_for(LESSON_07)
    own = Exercise(LESSON_07).verdict("weights_gb_4bit", ran(with_answer(
        LESSON_07, "weights_gb_4bit", SOLUTION_07.replace("1e9", "2**30")))).detail  # GiB, the given line kept
    assert "exercise gives" not in own
    for name, (answer, want) in EDITS_07.items():
        cells = with_answer(LESSON_07, "weights_gb_4bit", answer)
        namespace = ran(cells)
        assert given_changed(LESSON_07, "weights_gb_4bit", cells, answer)  # each edits the given line
        notebook = Exercise(LESSON_07).verdict("weights_gb_4bit", namespace)
        assert notebook.status == INCORRECT
        answers = json_unpacker(json_packer(dict(wire.probe(LESSON_07, namespace, {}, given=grader.given_lines(
            LESSON_07, questions)))))
        result = RunResult("finished", {"errors": [], "timeouts": [], "code": cells,
                                        "sources": {"weights_gb_4bit": answer}}, answers)
        graded = cli.score(q, load_key(LESSON_07), {}, result, Limits(), LESSON_07)
        assert graded[2] == INCORRECT and graded[3] == notebook.detail, (name, graded, notebook)
        mine = own if name != "explains" else None
        assert kind_of(notebook.detail, mine) == want, (name, notebook.detail)
        if want == "mentioned":
            assert notebook.detail.startswith(own), (notebook.detail, own)


def test_a_hint_reads_only_the_learners_lines_when_they_typed_over_the_marker():
    """A learner types their answer over `# YOUR CODE HERE`: the given lines above it are still the
    exercise's, and no hint reads them as the learner's (lesson 02's given `default_rng` line was read
    as "your code draws random numbers itself"). The notebook's check and the grader say the same."""
    from jupyter_client.session import json_packer, json_unpacker

    from embedlab.grading import grader
    from embedlab.grading.code import with_marker

    lesson, name = "02-lookup-vs-matmul", "rows_lookup"
    given = ("E = np.random.default_rng(table_seed).standard_normal((table_V,\n"
             "                                                       table_d)).astype(np.float32)\n")
    for answer in (given + "rows_lookup = E[ids] * 2\n", given + "# mine\nrows_lookup = 2 * E[ids]\n"):
        assert with_marker(answer, given_code(lesson)[name][1]).split("\n")[2:4] in (
            ["# YOUR CODE HERE", "rows_lookup = E[ids] * 2"], ["# YOUR CODE HERE", "# mine"])
        cells = with_answer(lesson, name, answer)
        namespace = ran(cells)
        notebook = Exercise(lesson).verdict(name, namespace)
        answers = json_unpacker(json_packer(dict(wire.probe(lesson, namespace, {}, given=grader.given_lines(
            lesson, questions_for(lesson))))))
        q = next(q for q in questions_for(lesson) if q.name == name)
        result = RunResult("finished", {"errors": [], "timeouts": [], "code": cells, "sources": {name: answer}}, answers)
        graded = cli.score(q, load_key(lesson), {}, result, Limits(), lesson)
        assert notebook.status == INCORRECT and graded[3] == notebook.detail
        assert "random" not in notebook.detail and "twice" in notebook.detail, notebook.detail


@pytest.mark.parametrize("lesson", known_lessons())
def test_what_a_class_handout_gives_is_what_embedlab_assign_writes(lesson, monkeypatch):
    """One definition of what the learner was given (issue 45): in class mode, given_code is read from the
    exercise made a handout by embedlab-assign's own class_notebook, line for line, also where only
    `make exercises`' code facts are installed (Gradescope's bundle); its setup line is the handout's."""
    import json

    from embedlab.grading import assign, code

    handout = assign.class_notebook(nbformat.read(ROOT / "exercises" / f"{lesson}.ipynb", as_version=4), lesson)
    written = code.given_code_of(json.loads(nbformat.writes(handout))["cells"])
    assert code.given_code(lesson, code.CLASS) == written
    setup = f'ex = Exercise("{lesson}", mode="class")'
    assert all(setup in above for above, _ in written.values())
    assert not any(f'ex = Exercise("{lesson}")' in above for above, _ in written.values())
    monkeypatch.setattr(code, "EXERCISES", ROOT / "no-such-folder")  # the library without the course
    code.given_code.cache_clear()
    try:
        assert code.given_code(lesson, code.CLASS) == written
    finally:
        code.given_code.cache_clear()
