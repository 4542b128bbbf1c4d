"""The written defence's check says, per heading, what is missing (newcomer AB, exercise 11, defect 4).

The check of a written answer (status to_mark) notes only what it can prove (book/how-to-use.md: "notes what it
can prove (a heading not found, nothing written under a heading, a heading without a figure, braces left
unfilled)"). A heading of the template that is not at the start of any line is provably missing, and so is
anything written under a heading that is there: each is said for that heading ("heading “X” not found", "nothing
written under “X”"), never "no figure" for a heading with nothing under it. The defence cell is a real answer cell
run after the solution's cells, judged by the notebook's check and by the grader's scoring on its probe of the
same kernel.
"""

from __future__ import annotations

from pathlib import Path

from embedlab.grading.text import cut, hint_problems

from test_hint_proof12 import _notebook_and_grader

LESSON = "11-size-a-model"
DESIGN = "design = llama_config(32000, 1024, 30, 16, 4, 4096, True)\n"
PARAMS = "design_params = count_params(design).total\n"
BINDS, SHAPE, TYING = "Which budget binds, and by how much", "Why this width and depth", "What the tying choice costs"
SAID = {
    BINDS: "Compute binds: my design uses {design_params / BUDGET.max_params:.1%} of the parameters.",
    SHAPE: "Thirty layers of width 1,024 are the deepest that fit.",
    TYING: "Tying saves 32,768,000 parameters.",
}


def _defence(sections: list[tuple[str, str]]) -> str:
    body = "\n\n".join(f"{head}\n{text}" for head, text in sections)
    return f'defence = f"""\n{body}\n"""\n'


def _judged(defence: str):
    notebook, (status, detail) = _notebook_and_grader(
        LESSON, {"design": DESIGN, "design_params": PARAMS, "defence": defence}, "defence")
    assert notebook.status == status == "to_mark", (notebook, status, detail)
    assert cut(notebook.detail) == detail, (notebook.detail, detail)
    assert not hint_problems(notebook.detail), notebook.detail
    return notebook.detail


def test_every_heading_with_its_figures_gets_no_note():
    detail = _judged(_defence([(f"{h}:", SAID[h]) for h in (BINDS, SHAPE, TYING)]))
    assert "not found" not in detail and "nothing written" not in detail and "no figure" not in detail, detail


def test_a_renamed_and_a_deleted_heading_are_each_named():
    # the newcomer's: the first heading shortened, the second left out with its text
    detail = _judged(_defence([("Which budget binds:", SAID[BINDS]), (f"{TYING}:", SAID[TYING])]))
    assert f"headings “{BINDS}” and “{SHAPE}” not found" in detail, detail
    assert f"“{TYING}” not found" not in detail, detail


def test_a_heading_left_empty_is_said_to_have_nothing_under_it():
    detail = _judged(_defence([(f"{BINDS}:", SAID[BINDS]), (f"{SHAPE}:", SAID[SHAPE]), (f"{TYING}:", "")]))
    assert f"nothing written under “{TYING}”" in detail, detail
    assert "no figure" not in detail and "not found" not in detail, detail


def test_a_heading_with_words_and_no_figure_keeps_its_own_note():
    detail = _judged(_defence([(f"{BINDS}:", SAID[BINDS]), (f"{SHAPE}:", "Wide enough for the heads."),
                               (f"{TYING}:", SAID[TYING])]))
    assert f"under “{SHAPE}” no figure of your design" in detail, detail
    assert "nothing written" not in detail and "not found" not in detail, detail


def test_a_heading_written_on_the_line_of_its_sentences_or_as_markdown_is_found():
    detail = _judged(_defence([(f"## {BINDS}: {SAID[BINDS]}", ""), (f"**{SHAPE}:**", SAID[SHAPE]),
                               (f"{TYING.lower()}", SAID[TYING])]))
    assert "not found" not in detail and "nothing written" not in detail and "no figure" not in detail, detail


def test_the_learners_guide_promises_these_notes():
    guide = " ".join((Path(__file__).resolve().parent.parent / "book" / "how-to-use.md").read_text().split())
    assert "(a heading not found, nothing written under a heading, a heading without a figure, braces left " \
           "unfilled)" in guide


def test_a_text_with_none_of_the_headings_names_each_once():
    detail = _judged(_defence([("Budgets:", SAID[BINDS]), ("Shape:", SAID[SHAPE]), ("Tying:", SAID[TYING])]))
    assert f"headings “{BINDS}”, “{SHAPE}” and “{TYING}” not found" in detail, detail
