"""The exercise generator's text rules, on small in-memory notebooks (no kernel)."""

import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from embedlab.grading.generate import AuthoringError, check_contract, make_exercise, strip_solution
from embedlab.grading.kinds import Integer


def test_top_level_block_becomes_a_prompt():
    src = "x = 1\n# BEGIN SOLUTION\nn_params = 3 * 2\nm = 4\n# END SOLUTION\nprint(x)"
    assert strip_solution(src) == "x = 1\n# YOUR CODE HERE\nprint(x)"


def test_block_in_a_function_raises_not_implemented_at_its_indentation():
    src = 'def f(a):\n    """doc"""\n    # BEGIN SOLUTION\n    return a + 1\n    # END SOLUTION'
    assert strip_solution(src) == 'def f(a):\n    """doc"""\n    # YOUR CODE HERE\n    raise NotImplementedError()'


def test_two_blocks_and_nbgrader_style_markers():
    src = "### BEGIN SOLUTION\na = 1\n### END SOLUTION\nb = 2\n# BEGIN SOLUTION\nc = 3\n# END SOLUTION"
    assert strip_solution(src) == "# YOUR CODE HERE\nb = 2\n# YOUR CODE HERE"


@pytest.mark.parametrize("src, message", [
    ("# BEGIN SOLUTION\na = 1", "never closed"),
    ("a = 1\n# END SOLUTION", "without a BEGIN"),
    ("# BEGIN SOLUTION\n# BEGIN SOLUTION\n# END SOLUTION", "inside another"),
])
def test_bad_markers_name_the_cell(src, message):
    with pytest.raises(AuthoringError, match=message):
        strip_solution(src, where="01-x cell 4")


def solution_notebook():
    return new_notebook(cells=[
        new_markdown_cell("# 01 · Toy table: Solution\n\nSolution text stays."),
        new_code_cell('from embedlab.exercise import Exercise\nex = Exercise("01-toy-table")'),
        new_code_cell("# BEGIN SOLUTION\nn = 6\n# END SOLUTION", outputs=[], execution_count=2),
        new_code_cell('ex.check("n")'),
        new_code_cell("print('only in the solution')", metadata={"tags": ["solution-only"]}),
    ])


def test_exercise_notebook():
    exercise = make_exercise(solution_notebook(), "01-toy-table")
    assert exercise.metadata["embedlab"] == {"lesson": "01-toy-table", "kind": "exercise"}
    assert [c.source for c in exercise.cells] == [
        "# 01 · Toy table: Exercise\n\nSolution text stays.",
        'from embedlab.exercise import Exercise\nex = Exercise("01-toy-table")',
        "# YOUR CODE HERE",
        'ex.check("n")',
    ]
    assert all(c.outputs == [] and c.execution_count is None for c in exercise.cells if c.cell_type == "code")


def test_contract_wants_a_check_cell_per_question():
    check_contract(solution_notebook(), "01-toy-table", [Integer("n")])
    with pytest.raises(AuthoringError, match="'m' has no check cell"):
        check_contract(solution_notebook(), "01-toy-table", [Integer("n"), Integer("m")])


def test_contract_wants_a_solution_block():
    nb = solution_notebook()
    nb.cells[2].source = "n = 6"
    with pytest.raises(AuthoringError, match="no '# BEGIN SOLUTION'"):
        check_contract(nb, "01-toy-table", [Integer("n")])


def question_texts_without_their_answer_name(notebook) -> list[str]:
    """The checks whose question (the markdown cell above) never names the variable the answer goes in."""
    import re

    missing = []
    for i, cell in enumerate(notebook.cells):
        found = re.search(r'ex\.check\("([^"]+)"\)', cell.source) if cell.cell_type == "code" else None
        if not found:
            continue
        name = found.group(1)
        # the question a learner reads: a solution's own reasoning (tagged solution-only) is not it
        text = next(c.source for c in reversed(notebook.cells[:i]) if c.cell_type == "markdown"
                    and "solution-only" not in c.get("metadata", {}).get("tags", []))
        if f"`{name}`" not in text and f"`{name}(" not in text:
            missing.append(name)
    return missing


def test_every_question_names_the_variable_its_answer_goes_in():
    """A learner reads the question, not the check cell below the answer: the question's own text
    names the answer's variable (`n_params`) or the function to write (`cosine(a, b)`)."""
    from pathlib import Path

    import nbformat

    root = Path(__file__).resolve().parent.parent
    ask = new_notebook(cells=[new_markdown_cell("How many? Give an `int`."), new_code_cell("n = 6"),
                              new_code_cell('ex.check("n")')])
    assert question_texts_without_their_answer_name(ask) == ["n"]
    for path in sorted((root / "solutions").glob("*.ipynb")):
        assert not question_texts_without_their_answer_name(nbformat.read(path, as_version=4)), path.name


def test_standard_line_goes_under_the_question_not_a_reasoning_cell():
    """A solution's reasoning (a markdown cell tagged solution-only between the question and its
    answer) is not the question: the standard line (points, how judged) stays under the question's
    text, which the exercise keeps, and the reasoning cell gets none."""
    from embedlab.grading.generate import question_cells, standard_line, with_standard_lines

    question = Integer("n")
    nb = solution_notebook()
    nb.cells[2:2] = [new_markdown_cell("## Question 1\n\nHow many? Your answer goes in `n`."),
                     new_markdown_cell("**Why.** Rows × columns.", metadata={"tags": ["solution-only"]})]
    assert question_cells(nb, [question]) == {"n": 2}
    stamped = with_standard_lines(nb, [question])
    assert stamped.cells[2].source.endswith(standard_line(question))
    assert stamped.cells[3].source == "**Why.** Rows × columns."
    assert with_standard_lines(stamped, [question]) == stamped                   # idempotent
    exercise = make_exercise(stamped, "01-toy-table")
    assert [c.source for c in exercise.cells if c.cell_type == "markdown"][1].endswith(standard_line(question))
    assert "**Why.**" not in "".join(c.source for c in exercise.cells)
