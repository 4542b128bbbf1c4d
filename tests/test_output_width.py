"""No printed output line in a lesson is wider than 88 characters (CONTRIBUTING).

What a learner reads in JupyterLab, and what the book shows in a box that must
not scroll sideways, is the text a cell printed (stream output) and the plain
text of a result that has no richer form (a widget's text form counts: it is
what JupyterLab shows before the widget's cell has run). Width is counted in
columns of a monospace display: East Asian wide characters and emoji take
two, combining marks none, a tab runs to the next multiple of 8, and terminal
colour codes nothing.
"""

import re
import unicodedata
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
MAX_WIDTH = 88
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# Shown instead of text/plain where present (in JupyterLab and in the book).
RICHER = ("text/html", "text/markdown", "text/latex", "image/png", "image/jpeg", "image/svg+xml")


def display_width(line: str) -> int:
    """The columns `line` takes in a monospace display."""
    columns = 0
    for ch in ANSI.sub("", line):
        if ch == "\t":
            columns += 8 - columns % 8
        elif unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            columns += 2
        else:
            columns += 1
    return columns


def printed_lines(notebook: Path):
    """(cell index, line) for every line of text a reader sees printed in `notebook`."""
    for index, cell in enumerate(nbformat.read(notebook, as_version=4).cells):
        if cell.cell_type != "code":
            continue
        for output in cell.outputs:
            if output.output_type == "stream":
                text = output.text
            elif output.output_type in ("execute_result", "display_data"):
                data = output.get("data", {})
                if "text/plain" not in data or any(kind in data for kind in RICHER):
                    continue
                text = data["text/plain"]
            else:
                continue                     # errors: tracebacks of cells tagged raises-exception
            for line in text.splitlines():
                yield index, line


def too_wide(notebook: Path) -> list[tuple[int, int, str]]:
    return [(index, display_width(line), line) for index, line in printed_lines(notebook)
            if display_width(line) > MAX_WIDTH]


@pytest.mark.parametrize("notebook", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.stem)
def test_printed_lines_fit_in_88_columns(notebook):
    wide = too_wide(notebook)
    assert not wide, (f"{notebook.name}: {len(wide)} printed lines wider than {MAX_WIDTH} columns "
                      "(lay the table out to fit, wrap the list):\n"
                      + "\n".join(f"  cells[{i}], {w} columns: {line[:100]}" for i, w, line in wide))


def test_display_width_counts_columns():
    assert display_width("x" * 88) == 88
    assert display_width("token 日本") == 10                  # wide characters take two columns
    assert display_width("✅ ok") == 5                          # so does an emoji
    assert display_width("cafe\u0301") == 4                     # a combining accent takes none
    assert display_width("\x1b[31mred\x1b[0m") == 3            # colour codes take none
    assert display_width("a\tb") == 9
    assert display_width("× · — ≈") == 7


def test_the_check_sees_a_long_line(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print('x' * 89)", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="x" * 89 + "\nshort\n"),
        nbformat.v4.new_output("execute_result", data={"text/plain": "y" * 90}, execution_count=1),
        nbformat.v4.new_output("display_data", data={"text/plain": "<Figure " + "z" * 90 + ">",
                                                     "image/png": "iVBORw0KGgo="})])])
    path = tmp_path / "wide.ipynb"
    nbformat.write(nb, path)
    assert [(i, w) for i, w, _ in too_wide(path)] == [(0, 89), (0, 90)]     # the figure's text is not shown
