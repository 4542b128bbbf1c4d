"""Issue 34: every CSV the course writes is safe to open in a spreadsheet that splits on `,` and in one
that splits on `;` (Excel and LibreOffice in most of Europe): no cell of either reading starts a formula.

A `;` spreadsheet reading a `,` file honours a field's quotes only where the cell starts with one; after
a field's closing quote, the rest of the line up to the next `;` is one cell, quotes and all. Python's
csv reader with delimiter ';' reads exactly so (shown below on one line), so it stands for that
spreadsheet here; with delimiter ',' it stands for the other. The texts come from learners (file names,
roster names an LMS lets them edit, what a submission makes the grader's hints say): every formula
starter (= + - @, fullwidth and small forms) after every place a spreadsheet may split (start, `;`, tab,
CR, LF, with spaces or quotes between). Written: scores.csv and totals.csv (its `counted` column) by
embedlab-grade's writers, and the gradebooks in each LMS form.
"""

import csv
import io
import sys
import unicodedata

import pytest

from embedlab.grading import cli
from embedlab.grading.keys import LessonKeys
from embedlab.grading.lms import GRADEBOOK_FORMATS, read_roster, write_gradebook
from embedlab.grading.lessons import questions_for
from embedlab.grading.status import CORRECT, INCORRECT

LESSON = "01-toy-table"
# every character a spreadsheet may fold (NFKC) to a text starting = + - @: fullwidth and small
# forms, super- and subscript signs, ⩵ (==) and ⩶ (===): computed, not listed by hand
STARTERS = "".join(chr(c) for c in range(sys.maxunicode + 1)
                   if unicodedata.normalize("NFKC", chr(c))[:1] in ("=", "+", "-", "@"))
BREAKS = ["", ";", "; ", ';"', "\t", "\n", "\r", ";\t "]


def hostile_texts() -> list[str]:
    return [f"x{brk}{start}2+3;y" if brk else f"{start}2+3;y" for brk in BREAKS for start in STARTERS]


def runs_a_formula(cell: str) -> bool:
    """Whether a spreadsheet would read this cell as a formula: it starts, after spaces and quotes,
    with = + - @ (or a form that folds to one) and has more after it (a lone '-' is text)."""
    if cell[:1] in ("\t", "\r"):
        return True
    rest = cell.lstrip(' "')
    return len(rest) > 1 and unicodedata.normalize("NFKC", rest[0])[:1] in ("=", "+", "-", "@")


def cells(path, delimiter):
    with open(path, newline="", encoding="utf-8") as f:
        return [cell for row in csv.reader(f, delimiter=delimiter) for cell in row]


def test_the_semicolon_reading_is_the_one_that_split_the_formula_out():
    """The model of a `;` spreadsheet: a bare `;` in a `,` file's field ends the cell, quoted or not
    once the line's first field closed its quotes (how issue 34's `=2+3` became a cell)."""
    line = '"a","sub/x;=2+3;y"'
    assert list(csv.reader(io.StringIO(line), delimiter=";")) == [['a,"sub/x', "=2+3", 'y"']]
    assert runs_a_formula("=2+3") and not runs_a_formula("'=2+3") and not runs_a_formula("-")


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("csv")
    texts = hostile_texts()
    names = [q.name for q in questions_for(LESSON)]
    learners = [f"ada{i}{text}" for i, text in enumerate(texts)]
    rows = []
    for i, (learner, text) in enumerate(zip(learners, texts)):
        label = f"sub/{text}-{LESSON}.ipynb"
        for q in names:
            rows.append(cli.Row(label, LESSON, q, 1.0 if q == names[0] else 0.0, 1.0,
                                CORRECT if q == names[0] else INCORRECT, f"got {text}", learner))
    keys = {LESSON: LessonKeys(LESSON, 1, {learner: 0 for learner in learners}, {})}
    files = {"scores": tmp / "scores.csv", "totals": tmp / "totals.csv"}
    cli.write_csv(rows, files["scores"])
    cli.write_totals(rows, keys, files["totals"])
    roster = tmp / "roster.csv"
    with open(roster, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["learner", "name", "email", "canvas_id", "sid"])
        for i, text in enumerate(texts):  # ids are safe (read_roster checks them); names are free text
            writer.writerow([f"l{i}", text, f"l{i}@s.example", str(100 + i), f"s{i}"])
    read = read_roster(roster)
    points = {(f"l{i}", LESSON): 1.0 for i in range(len(texts))}
    for fmt in GRADEBOOK_FORMATS:
        files[fmt] = tmp / f"gradebook-{fmt}.csv"
        write_gradebook(files[fmt], read, points, [LESSON], {LESSON: 7.0}, fmt, titles={LESSON: f"L {texts[1]}"})
    return {"files": files, "texts": texts, "learners": learners, "rows": rows}


@pytest.mark.parametrize("delimiter", [",", ";"], ids=["comma-locale", "semicolon-locale"])
@pytest.mark.parametrize("which", ["scores", "totals", *GRADEBOOK_FORMATS])
def test_no_cell_of_any_csv_runs_a_formula_in_either_locale(written, which, delimiter):
    path = written["files"][which]
    found = [cell for cell in cells(path, delimiter) if runs_a_formula(cell)]
    assert found == [], (which, delimiter, found[:5])


def test_in_a_comma_locale_every_text_reads_back_as_written_with_only_its_guards(written):
    """Quoting every field keeps each text whole; the guard adds a `'` and nothing else."""
    with open(written["files"]["scores"], newline="", encoding="utf-8") as f:
        got = list(csv.DictReader(f))
    assert [r["submission"].replace("'", "") for r in got] == [r.submission for r in written["rows"]]
    assert [r["learner"].replace("'", "") for r in got] == [cli.printable(r.learner) for r in written["rows"]]
    with open(written["files"]["totals"], newline="", encoding="utf-8") as f:
        counted = {r["learner"].replace("'", ""): r["counted"] for r in csv.DictReader(f)}
    assert all(counted[learner].replace("'", "") == f"sub/{text}-{LESSON}.ipynb"
               for learner, text in zip(written["learners"], written["texts"]))


def test_every_field_is_quoted(written):
    """Each file is exactly its own rows written with every field quoted (csv.QUOTE_ALL)."""
    for which, path in written["files"].items():
        with open(path, newline="", encoding="utf-8") as f:
            text = f.read()
        again = io.StringIO()
        csv.writer(again, quoting=csv.QUOTE_ALL).writerows(csv.reader(io.StringIO(text, newline="")))
        assert again.getvalue() == text, which
