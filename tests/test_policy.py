"""The course policy (embedlab-grade --policy, embedlab.grading.policy): the example book/grading.md
shows loads and means what the book says; every kind of bad entry is refused naming the file, line
and field; the policy merges into the totals, each gradebook form and the report with the same
final number; a rerun gives the same totals; a refused policy writes nothing.

Most of it is tested on Row objects (no grading). The command line is run with grader.grade_all
replaced by rows (as tests/test_report.py does): what is tested is what the run writes, not grading.
"""

import csv
from dataclasses import replace as dataclasses_replace
import re
from pathlib import Path

import nbformat
import pytest

from embedlab.grading import cli, grader, lms, results
from embedlab.grading import report as class_report
from embedlab.grading.judge import Row
from embedlab.grading.keys import KEYS_DIR, LessonKeys, Variant, write_lesson_keys
from embedlab.grading.lessons import questions_for
from embedlab.grading.policy import Late, PolicyError, load_policy, read_submitted

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "book" / "policy-example.toml"
L1, L2 = "01-toy-table", "02-lookup-vs-matmul"
LEARNERS = {"ada": 1, "ben": 2, "cy": 1, "dee": 2}
PEOPLE = {"ada": ("Ada Lovelace", 101, 5001), "ben": ("Ben Okafor", 102, 5002), "cy": ("Cy Smith", 103, 5003),
          "dee": ("Dee Mensah", 104, 5004), "eve": ("Eve Late-Enrolled", 105, 5005)}  # Eve: no variant in the keys


def best(lesson, question=None):
    qs = questions_for(lesson)
    return float(sum(q.points for q in qs if question in (None, q.name)))


@pytest.fixture
def roster(tmp_path) -> lms.Roster:
    path = tmp_path / "roster.csv"
    path.write_text("learner,name,email,canvas_id,moodle_id:02-lookup-vs-matmul\n" + "".join(
        f"{who},{name},{who}@school.example,{canvas},{moodle}\n" for who, (name, canvas, moodle) in PEOPLE.items()))
    return lms.read_roster(path)


def class_keys(lessons=(L1, L2)) -> dict:
    return {lesson: LessonKeys(lesson, 2, dict(LEARNERS), {}) for lesson in lessons}


def lesson_rows(who, lesson, wrong=(), file=None):
    """The rows of one graded file: every question right but those in `wrong` (0 points)."""
    file = file or f"{who}-{lesson}.ipynb"
    return [Row(file, lesson, q.name, 0.0 if q.name in wrong else q.points, q.points,
                "incorrect" if q.name in wrong else "correct", "wrong" if q.name in wrong else "", who)
            for q in questions_for(lesson)]


def example(tmp_path, replace=()):
    """The book's example policy (with its Moodle worksheet beside it), each (old, new) of `replace` made."""
    text = EXAMPLE.read_text(encoding="utf-8")
    for old, new in replace:
        assert old in text, old
        text = text.replace(old, new, 1)
    (tmp_path / "policy-example-moodle-worksheet.csv").write_bytes(
        (EXAMPLE.parent / "policy-example-moodle-worksheet.csv").read_bytes())
    path = tmp_path / "policy.toml"
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------
# The book's example


def test_the_books_example_loads_and_means_what_the_book_says(tmp_path, roster):
    policy = load_policy(EXAMPLE, roster, class_keys())
    assert policy.weights == {L1: 1.0, L2: 2.0}
    (ada,) = policy.adjustments_for("ada", L1)
    assert (ada.question, ada.points, ada.delta) == ("cosine", 1.0, None) and "regrade request" in str(ada)
    assert str(policy.adjustments_for("cy", L1)[0]).startswith("Adjusted by the instructor: the lesson's total −1 point")
    # Moodle's worksheet: Cy handed lesson 02 in 1 day 11 h 31 min after its due date: 2 started days (the 15
    # minutes' grace do not make it 1), 10 % of 8 points each; Ben's extension makes his on time; Dee: no date
    cy = policy.late_for("cy", L2)
    assert (cy.days, cy.penalty_points) == (2, 1.6)
    assert str(cy).startswith("Handed in 2 days late (Wednesday 14 October 2026, 11:30 (Europe/Berlin); due Monday "
                              "12 October 2026, 23:59 (Europe/Berlin)): 1.6 points off (10 % of the lesson's points "
                              "per started day late, after 15 minutes' grace, at most 50 %)")
    assert policy.late_for("ben", L2) is None and policy.late_for("ada", L2) is None
    assert policy.late_for("dee", L2) is None
    book = (ROOT / "book" / "grading.md").read_text(encoding="utf-8")
    assert "policy-example.toml" in book and str(cy).split(" (")[0] in book


def test_moodle_worksheet_dates_in_moodles_english_form_and_iso(tmp_path, roster):
    from zoneinfo import ZoneInfo

    zone = ZoneInfo("Europe/Berlin")
    sheet = tmp_path / "w.csv"
    sheet.write_text('Identifier,"Full name","Email address","Last modified (submission)"\n'
                     '"Participant 5001",Ada,ada@school.example,"Tuesday, 13 October 2026, 12:05 AM"\n'
                     '"Participant 9999",Ben,BEN@school.example,"Tuesday, 13 October 2026, 12:30 PM"\n'
                     '"Participant 5003",Cy,,2026-10-13T08:00:00+00:00\n'
                     '"Participant 5004",Dee,dee@school.example,-\n', encoding="utf-8")
    got = read_submitted(sheet, roster, LEARNERS, L2, zone)
    assert {k: v.isoformat() for k, v in got.items()} == {
        "ada": "2026-10-13T00:05:00+02:00", "ben": "2026-10-13T12:30:00+02:00",  # Ben by his email
        "cy": "2026-10-13T08:00:00+00:00"}
    sheet.write_text('Identifier,"Nom complet","Dernière modification (travail remis)"\n'
                     '"Participant 5001",Ada,"mardi 13 octobre 2026, 00:05"\n', encoding="utf-8")
    with pytest.raises(PolicyError, match=r"w\.csv:1: .*language set to English"):
        read_submitted(sheet, roster, LEARNERS, L2, zone)
    sheet.write_text('learner,submitted\nada,13/10/2026 00:05\n', encoding="utf-8")
    with pytest.raises(PolicyError, match=r"w\.csv:2: column 'submitted': cannot read the date '13/10/2026 00:05'"):
        read_submitted(sheet, roster, LEARNERS, L2, zone)
    sheet.write_text('learner,submitted\nzed,2026-10-13T00:05\n', encoding="utf-8")
    with pytest.raises(PolicyError, match=r"w\.csv:2: a submission date for 'zed'"):
        read_submitted(sheet, roster, LEARNERS, L2, zone)


# --------------------------------------------------------------------------
# Refused: file, line and field named

# (text replaced in the example, the field named, a word of the message); "<<" marks the line to be named
REFUSED = [
    ('learner = "ada"\nlesson = "01-toy-table"\nquestion', 'learner = "zed"  #<<\nlesson = "01-toy-table"\nquestion',
     "field 'learner'", "'zed' is not on the roster"),
    ('lesson = "01-toy-table"\nquestion = "cosine"', 'lesson = "99-nope"  #<<\nquestion = "cosine"',
     "field 'lesson'", "there is no lesson '99-nope'"),
    ('question = "cosine"', 'question = "cosinus"  #<<', "field 'question'", "has no question 'cosinus'"),
    ('points = 1\n', 'points = 2  #<<\n', "field 'points'", "from 0 to 1, got 2"),
    ('points = 1\n', 'points = -0.5  #<<\n', "field 'points'", "from 0 to 1, got -0.5"),
    ('delta = -1\n', 'delta = -8  #<<\n', "field 'delta'", "from -7 to 7, got -8"),
    ('reason = "regrade request', 'reasons = "regrade request', "field 'reasons'", "unknown field"),
    ('reason = "the notebook', 'reason = "  "  #<<\n# "the notebook', "field 'reason'", "give the reason"),
    ('points = 1\n', 'points = 1\ndelta = 0.5\n', "[[adjustment]]:", "not both"),
    ('weight = 2\n', 'weight = -2  #<<\n', "field 'weight'", "from 0"),
    ('weight = 1 ', '# weight = 1 ', "weights: lesson 01-toy-table", "has no weight"),
    ('due = 2026-10-05T23:59:00 ', 'due = "2026-10-05 23:59"  #<<', "field 'due'", "must be a date and time"),
    ('due = 2026-10-05T23:59:00 ', 'due = 2026-10-05  #<<', "field 'due'", "has no time"),
    ('timezone = "Europe/Berlin"   #', 'timezone = "Europe/Berln"  #<<', "field 'timezone'", "not a timezone"),
    ('timezone = "Europe/Berlin"   #', '# timezone', "field 'due'", "has no offset and [late] gives no timezone"),
    ('per_day_percent = 10 ', 'per_day_percent = 110  #<<', "field 'per_day_percent'", "from 0 to 100"),
    ('cap_percent = 50 ', 'cap_percent = "50 %"  #<<', "field 'cap_percent'", "must be a number"),
    ('lesson = "02-lookup-vs-matmul"\ndue = 2026-10-15T23:59:00', 'lesson = "01-toy-table"  #<<\ndue = 2026-10-15T23:59:00',
     "field 'lesson'", "has no submission dates"),
    ('[[extension]]', '[[extensions]]  #<<', "unknown table or field 'extensions'", "write [[extension]]"),
    ('[lesson."01-toy-table"]', '[lesson."99-nope"]  #<<', "[lesson.'99-nope']", "there is no lesson '99-nope'"),
    ('[[extension]]', '[[extension]]\nlearner = "ben"\nlesson = "02-lookup-vs-matmul"\ndue = 2026-10-16T23:59:00\n'
     'reason = "twice"\n\n[[extension]]  #<<', "[[extension]]:", "a second extension of ben's 02-lookup-vs-matmul"),
    # a lesson of another run is kept, but checked as any: its questions and points
    ("course's rules\"", "course's rules\"\n\n[[adjustment]]\nlearner = \"ben\"\nlesson = \"11-size-a-model\"\n"
     'question = "design_cost"  #<<\ndelta = 1\nreason = "x"', "field 'question'",
     "11-size-a-model has no question 'design_cost'"),
]


@pytest.mark.parametrize("old, new, field, words", REFUSED, ids=[r[3][:30] for r in REFUSED])
def test_each_bad_entry_is_refused_naming_the_file_line_and_field(tmp_path, roster, old, new, field, words):
    path = example(tmp_path, [(old, new)])
    lines = path.read_text(encoding="utf-8").splitlines()
    marked = [i + 1 for i, line in enumerate(lines) if "#<<" in line]
    with pytest.raises(PolicyError) as refused:
        load_policy(path, roster, class_keys())
    message = str(refused.value)
    assert field in message and words in message, message
    line = int(re.match(r".*policy\.toml:(\d+): ", message).group(1))
    if marked:
        assert line == marked[0], (message, marked)


def test_the_refusal_the_book_shows_is_the_one_given(tmp_path, roster, capsys):
    path = example(tmp_path, [('learner = "cy"', 'learner = "zed"')])
    book = (ROOT / "book" / "grading.md").read_text(encoding="utf-8")
    shown = re.search(r"embedlab-grade: error: (policy\.toml:\d+: .*)", book).group(1)
    with pytest.raises(PolicyError) as refused:
        load_policy(path, roster, class_keys())
    assert str(refused.value) == str(tmp_path / shown)


def test_a_second_adjustment_of_the_same_target_names_both_lines(tmp_path, roster):
    text = EXAMPLE.read_text(encoding="utf-8")
    first = next(i + 1 for i, line in enumerate(text.splitlines()) if line == "[[adjustment]]")
    path = example(tmp_path, [('[[adjustment]]\nlearner = "cy"',
                               '[[adjustment]]\nlearner = "ada"\nlesson = "01-toy-table"\nquestion = "cosine"\n'
                               'delta = 1\nreason = "again"\n\n[[adjustment]]\nlearner = "cy"')])
    second = [i + 1 for i, line in enumerate(path.read_text().splitlines()) if line == "[[adjustment]]"][1]
    with pytest.raises(PolicyError, match=rf"policy\.toml:{second}: \[\[adjustment\]\]: a second adjustment of "
                                          rf"ada's cosine in 01-toy-table \(the first is at .*policy\.toml:{first}\)"):
        load_policy(path, roster, class_keys())


def test_line_numbers_are_tomls_whatever_a_text_holds(tmp_path, roster):
    """A reason holding a line separator (U+2028), a next line (U+0085) or a \"\"\" string spanning lines does not
    shift the line named (Python's splitlines would split on the first two; TOML does not)."""
    path = example(tmp_path, [('reason = "regrade request', 'reason = """\u2028\x85\n[[adjustment]]\nregrade request'),
                              ('norms"', 'norms"""'), ('learner = "cy"', 'learner = "zed"')])
    line = next(i + 1 for i, text in enumerate(path.read_text(encoding="utf-8").split("\n")) if 'learner = "zed"' in text)
    with pytest.raises(PolicyError, match=rf"policy\.toml:{line}: \[\[adjustment\]\] field 'learner': 'zed'"):
        load_policy(path, roster, class_keys())


def test_a_reason_is_required_and_not_toml_is_refused(tmp_path, roster):
    path = tmp_path / "p.toml"
    path.write_text('[[adjustment]]\nlearner = "ada"\nlesson = "01-toy-table"\ndelta = 1\n', encoding="utf-8")
    with pytest.raises(PolicyError, match=r"p\.toml:1: \[\[adjustment\]\] has no field 'reason'"):
        load_policy(path, roster, class_keys([L1]))
    path.write_text('[[adjustment]\nlearner = "ada"\n', encoding="utf-8")
    with pytest.raises(PolicyError, match=r"p\.toml: not TOML: .*line 1"):
        load_policy(path, roster, class_keys([L1]))


# --------------------------------------------------------------------------
# The merge: totals, gradebooks, report


def merged(tmp_path, roster, rows, late=frozenset(), replace=()):
    policy = load_policy(example(tmp_path, replace), roster, class_keys())
    return policy, results.totals(rows, class_keys(), policy=policy, late=late)


def class_rows():
    """Ada: cosine wrong in 01 (the example sets it to 1), 4 of 8 in 02; Ben: all right, 01's file
    marked LATE by Canvas; Cy: all right (01: −1 by the example; 02: 2 days late by the worksheet);
    Dee: nothing handed in."""
    return (lesson_rows("ada", L1, {"cosine"}) + lesson_rows("ada", L2, {"one_hot", "rows_lookup", "keeps_sign",
                                                                          "batch_flops"})
            + lesson_rows("ben", L1) + lesson_rows("ben", L2) + lesson_rows("cy", L1) + lesson_rows("cy", L2))


def test_final_is_raw_plus_adjustment_minus_late_penalty_for_each_kind(tmp_path, roster):
    policy, found = merged(tmp_path, roster, class_rows(), late={f"ben-{L1}.ipynb"})
    got = {(t.learner, t.lesson): (t.points, t.adjustment, t.late_penalty, t.final) for t in found}
    assert got["ada", L1] == (6, 1, 0, 7)  # question set to 1
    assert got["ada", L2] == (4, 0, 0, 4)  # on time
    assert got["ben", L1] == (7, 0, 0.7, 6.3)  # Canvas's LATE, no date: the per-file rule, 10 % of 7
    assert got["ben", L2] == (8, 0, 0, 8)  # late by the due date, on time by his extension
    assert got["cy", L1] == (7, -1, 0, 6)  # the total's delta
    assert got["cy", L2] == (8, 0, 1.6, 6.4)  # 2 started days late, 10 % of 8 each
    assert got["dee", L1] == (None, 0, 0, None)  # missing stays empty, never 0
    ben = policy.late_for("ben", L1)
    assert ben == Late(0, 0.7, "10 % of the lesson's points per late file, at most 50 %") and ben.marked_only
    assert str(ben) == ("The LMS marked your file late (it gives no date): 0.7 points off (10 % of the lesson's "
                        "points per late file, at most 50 %).")
    # the cap, and "not accepted after": Cy 2 days late at 40 % a day is capped at 50 %; at 1 day's cutoff, 0 points
    _, found = merged(tmp_path, roster, class_rows(), replace=[("per_day_percent = 10 ", "per_day_percent = 40 ")])
    assert next(t.final for t in found if (t.learner, t.lesson) == ("cy", L2)) == 4
    policy, found = merged(tmp_path, roster, class_rows(),
                           replace=[("not_accepted_after_days = 7", "not_accepted_after_days = 1")])
    cy = next(t for t in found if (t.learner, t.lesson) == ("cy", L2))
    assert (cy.points, cy.late_penalty, cy.final) == (8, 8, 0)
    assert str(policy.late_for("cy", L2)).endswith("not accepted, 0 points (not accepted more than 1 days after the "
                                                   "due date).")


def test_the_grace_period_and_the_days_started(tmp_path, roster):
    """Ada hands lesson 02 in 11 minutes after its due date: on time with 15 minutes' grace, 1 day late
    (10 % of 8) with 5; 1 day and 1 minute after the grace: 2 days."""
    for when, grace, late in (("Tuesday, 13 October 2026, 12:10 AM", 15, None), ("Tuesday, 13 October 2026, 12:10 AM",
                              5, (1, 0.8)), ("Wednesday, 14 October 2026, 12:15 AM", 15, (2, 1.6))):
        policy = example(tmp_path, [("grace_minutes = 15", f"grace_minutes = {grace}")])
        sheet = tmp_path / "policy-example-moodle-worksheet.csv"
        sheet.write_text(sheet.read_text(encoding="utf-8").replace("Monday, 12 October 2026, 9:40 PM", when),
                         encoding="utf-8")
        got = load_policy(policy, roster, class_keys()).late_for("ada", L2)
        assert (None if got is None else (got.days, got.penalty_points)) == late, (when, grace)


def test_a_delta_out_of_range_or_a_question_without_a_graded_file_is_refused_whole(tmp_path, roster):
    rows = class_rows()
    for old, new, words in (
            ('learner = "cy"\nlesson = "01-toy-table"\ndelta = -1', 'learner = "ada"\nlesson = "02-lookup-vs-matmul"\n'
             'question = "one_hot"\ndelta = -1', "ada's one_hot in 02-lookup-vs-matmul would be -1"),
            ('learner = "cy"\nlesson = "01-toy-table"\ndelta = -1', 'learner = "cy"\nlesson = "01-toy-table"\n'
             'delta = 1', "cy's total of 01-toy-table would be 8 (7 +1), outside 0 to 7"),
            ('learner = "cy"\nlesson = "01-toy-table"\ndelta = -1', 'learner = "dee"\nlesson = "01-toy-table"\n'
             'delta = 1', "dee has no graded file of 01-toy-table (status missing)")):
        with pytest.raises(PolicyError, match=r"policy\.toml:\d+: \[\[adjustment\]\]") as refused:
            merged(tmp_path, roster, rows, replace=[(old, new)])
        assert words in str(refused.value) and "nothing was written" in str(refused.value)
    # a run stopped (Ctrl-C) or a grader fault before Dee's file: her adjustment waits, the rows graded are kept
    stopped = rows + [Row(f"dee-{L1}.ipynb", L1, "", None, 7.0, "not_graded", "stopped", "dee")]
    _, found = merged(tmp_path, roster, stopped, replace=[('learner = "cy"\nlesson = "01-toy-table"\ndelta = -1',
                                                           'learner = "dee"\nlesson = "01-toy-table"\ndelta = 1')])
    dee = next(t for t in found if (t.learner, t.lesson) == ("dee", L1))
    assert (dee.status, dee.final) == ("not_graded", None)
    # a total set for a learner whose lesson was not graded is the instructor's number
    _, found = merged(tmp_path, roster, rows, replace=[('learner = "cy"\nlesson = "01-toy-table"\ndelta = -1',
                                                        'learner = "dee"\nlesson = "01-toy-table"\npoints = 5')])
    dee = next(t for t in found if (t.learner, t.lesson) == ("dee", L1))
    assert (dee.status, dee.points, dee.adjustment, dee.final) == ("missing", None, 5, 5)


def test_weights_change_the_weighted_total_exactly_as_the_book_says(tmp_path, roster):
    policy, found = merged(tmp_path, roster, class_rows())
    weighted = results.weighted_totals(found, policy)
    # Ada: 7 of 7 in 01 (weight 1), 4 of 8 in 02 (weight 2): 100 · (1 · 7/7 + 2 · 4/8) / 3 = 66.67
    assert weighted["ada"] == 66.67
    assert weighted["dee"] == 0  # nothing handed in counts 0
    assert "100 × (1 × 7/7 + 2 × 4/8) / 3 = 66.67" in (ROOT / "book" / "grading.md").read_text(encoding="utf-8")
    zero, found = merged(tmp_path, roster, class_rows(), replace=[("weight = 2", "weight = 0")])
    assert results.weighted_totals(found, zero)["ada"] == 100  # lesson 02 left out
    unweighted, plain = merged(tmp_path, roster, class_rows(), replace=[("weight = 1 ", "# "), ("weight = 2", "# ")])
    assert results.weighted_totals(plain, unweighted) is None


@pytest.mark.parametrize("fmt, header", [("plain", "weighted_total"), ("canvas", "Final Score"),
                                         ("moodle", "Weighted total (%)")])
def test_every_gradebook_form_shows_the_final_points_and_the_weighted_total(tmp_path, roster, fmt, header):
    policy = load_policy(example(tmp_path), roster, class_keys())
    how = {"policy": policy, "late": frozenset({f"ben-{L1}.ipynb"})}
    path = tmp_path / f"{fmt}.csv"
    results.write_class_gradebook(path, class_rows(), class_keys(), roster, fmt, how)
    with open(path, newline="", encoding="utf-8") as f:
        book = list(csv.reader(f))
    head = book[0]
    assert head[-1] == header and head[-2] in ("total", "Final Points", "Total")
    body = book[2:] if fmt == "canvas" else book[1:]
    rows = {row[0]: row for row in body}
    name = {"plain": "ben", "canvas": "Ben Okafor", "moodle": "Ben Okafor"}[fmt]
    ben = rows[name]
    assert ben[head.index(L1)] == "6.3" and ben[head.index(L2)] == "8" and ben[-2] == "14.3"
    assert ben[-1] == "96.67"  # 100 · (6.3/7 + 2 · 8/8) / 3
    dee = rows["dee" if fmt == "plain" else "Dee Mensah"]
    assert dee[head.index(L1)] == ("-" if fmt == "moodle" else "") and dee[-1] == "0"


def test_the_totals_keep_the_raw_points_and_say_why_each_number_moved(tmp_path, roster):
    policy = load_policy(example(tmp_path, [("regrade request: the answer", "=HYPERLINK(\\\"http://x\\\");=1+1\t@SUM(A1) "
                                                                            "<script>alert(1)</script> the answer")]),
                         roster, class_keys())
    out = tmp_path / "totals.csv"
    results.write_totals(class_rows(), class_keys(), out, policy=policy, late=frozenset({f"ben-{L1}.ipynb"}))
    with open(out, newline="", encoding="utf-8") as f:
        got = {(r["learner"], r["lesson"]): r for r in csv.DictReader(f)}
    ada = got["ada", L1]
    assert (ada["points"], ada["adjustment"], ada["late_penalty"], ada["final"], ada["weight"]) == ("6", "1", "0", "7", "1")
    assert (got["cy", L2]["late"], got["cy", L2]["late_penalty"], got["cy", L2]["final"]) == ("late", "1.6", "6.4")
    assert got["cy", L2]["policy"].startswith("Handed in 2 days late")
    # a hostile reason: no cell piece a spreadsheet would run, no control character
    cell = ada["policy"]
    assert "Reason: '=HYPERLINK" not in cell and ";'=1+1 @SUM(A1)" in cell and "\t" not in cell
    for piece in re.split(r"[;\t\r\n]", cell):
        assert not piece.lstrip(' "').startswith(("=", "+", "-", "@")), piece
    page = class_report.render(class_rows(), class_keys(), {"policy": policy,
                                                            "late": frozenset({f"ben-{L1}.ipynb"})}, figures=False)
    assert "<script>alert" not in page


def test_the_reports_learner_line_shows_the_same_final_points(tmp_path, roster):
    policy = load_policy(example(tmp_path), roster, class_keys())
    how = {"policy": policy, "late": frozenset({f"ben-{L1}.ipynb"})}
    page = class_report.render(class_rows(), class_keys(), how, figures=False)
    learners = page[page.index('id="learners"'):]
    assert "<th scope=\"col\">weighted total</th>" in learners
    assert re.search(r"<td>ben</td><td class=\"n\">6\.3 / 7</td><td class=\"n\">8 / 8</td>"
                     r"<td class=\"n\">14\.3 / 15</td><td class=\"n\">96.67 %</td>", learners), learners
    assert re.search(r"<td>cy</td><td class=\"n\">6 / 7</td><td class=\"n\">6\.4 / 8</td>", learners)


# --------------------------------------------------------------------------
# The command line: refused before writing, and the same totals on every rerun


def canvas_class(tmp_path, monkeypatch):
    """A Canvas download of lesson 01 (Ben's file marked LATE), the keys and the roster on disk; grading
    replaced by rows: every question right but cosine for Ada."""
    keys_dir = tmp_path / "class" / KEYS_DIR
    for lesson in (L1, L2):
        write_lesson_keys(keys_dir, lesson, 2, LEARNERS, {1: ({}, {}), 2: ({}, {})})
    roster = tmp_path / "roster.csv"
    roster.write_text("learner,name,email,canvas_id,moodle_id:02-lookup-vs-matmul\n" + "".join(
        f"{who},{name},{who}@school.example,{canvas},{moodle}\n" for who, (name, canvas, moodle) in PEOPLE.items()))
    download = tmp_path / "download"
    download.mkdir()
    for i, who in enumerate(("ada", "ben", "cy")):
        late = "_LATE" if who == "ben" else ""
        nbformat.write(nbformat.v4.new_notebook(), download / f"{who}x{late}_{PEOPLE[who][1]}_{900 + i}_{L1}.ipynb")

    def graded(submissions, *args, **kwargs):
        return [row for s in submissions for row in lesson_rows(s.submitter, L1, {"cosine"} if s.submitter == "ada"
                                                                 else (), file=s.label)], []

    monkeypatch.setattr(grader, "grade_all", graded)
    return keys_dir, roster, download


def grade(tmp_path, keys_dir, roster, download, policy, out="out"):
    folder = tmp_path / out
    folder.mkdir(exist_ok=True)
    argv = [str(download), "--keys", str(keys_dir), "--roster", str(roster), "--layout", "canvas", "--no-sandbox",
            "-q", "--out", str(folder / "scores.csv"), "--totals", str(folder / "totals.csv"),
            "--gradebook", str(folder / "gradebook.csv"), "--report", str(folder / "report.html"), "--force",
            "--policy", str(policy)]
    return cli.main(argv), folder


def test_a_rerun_with_the_same_policy_gives_the_same_totals_and_scores_stay_raw(tmp_path, monkeypatch, capsys):
    keys_dir, roster, download = canvas_class(tmp_path, monkeypatch)
    policy = example(tmp_path)
    code, first = grade(tmp_path, keys_dir, roster, download, policy, "first")
    assert code == 0
    assert (f"policy {policy}: 2 lesson total(s) adjusted, 1 late penalty, weights for 2 lesson(s) (the weighted "
            "total); --totals keeps the raw points beside the final ones") in capsys.readouterr().out
    code, second = grade(tmp_path, keys_dir, roster, download, policy, "second")
    assert code == 0
    for name in ("scores.csv", "totals.csv", "gradebook.csv"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    with open(first / "totals.csv", newline="", encoding="utf-8") as f:
        got = {r["learner"]: r for r in csv.DictReader(f) if r["lesson"] == L1}
    assert [got[w]["final"] for w in ("ada", "ben", "cy", "dee")] == ["7", "6.3", "6", ""]
    with open(first / "scores.csv", newline="", encoding="utf-8") as f:
        cosine = [r for r in csv.DictReader(f) if r["learner"] == "ada" and r["question"] == "cosine"]
    assert cosine[0]["points"] == "0"  # the raw grading: the adjustment lives in the policy, not here
    with open(first / "gradebook.csv", newline="", encoding="utf-8") as f:
        book = list(csv.reader(f))
    assert book[0][-1] == "Final Score" and {r[0]: r[5] for r in book[2:]}["Ben Okafor"] == "6.3"
    assert "<td>ben</td><td class=\"n\">6.3 / 7</td>" in (first / "report.html").read_text(encoding="utf-8")
    # the policy is read again on every run: the adjustment taken out, the totals follow
    text = policy.read_text(encoding="utf-8")
    policy.write_text(text[:text.index("[[adjustment]]")], encoding="utf-8")
    assert grade(tmp_path, keys_dir, roster, download, policy, "third")[0] == 0
    with open(tmp_path / "third" / "totals.csv", newline="", encoding="utf-8") as f:
        assert {r["learner"]: r["final"] for r in csv.DictReader(f) if r["lesson"] == L1}["ada"] == "6"


def test_a_refused_policy_writes_nothing_and_exits_2(tmp_path, monkeypatch, capsys):
    keys_dir, roster, download = canvas_class(tmp_path, monkeypatch)
    code, folder = grade(tmp_path, keys_dir, roster, download, example(tmp_path))
    assert code == 0
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    # refused when read (before grading): an unknown learner, named with its line
    bad = example(tmp_path, [('learner = "cy"', 'learner = "zed"')])
    with pytest.raises(SystemExit) as stop:
        grade(tmp_path, keys_dir, roster, download, bad)
    assert stop.value.code == 2 and re.search(r"policy\.toml:\d+: \[\[adjustment\]\] field 'learner': 'zed'",
                                              capsys.readouterr().err)
    # refused once the grades are known (a delta past the maximum): after grading, before any file is written
    bad = example(tmp_path, [('learner = "cy"\nlesson = "01-toy-table"\ndelta = -1',
                              'learner = "cy"\nlesson = "01-toy-table"\ndelta = 1')])
    code, _ = grade(tmp_path, keys_dir, roster, download, bad)
    assert code == 2 and "outside 0 to 7: refused" in capsys.readouterr().err
    # Canvas's LATE with a late rule that has no per-file penalty: refused before grading
    bad = example(tmp_path, [("per_file_percent = 10 ", "# per_file_percent = 10 ")])
    with pytest.raises(SystemExit) as stop:
        grade(tmp_path, keys_dir, roster, download, bad)
    assert stop.value.code == 2 and "has no per_file_percent, but the LMS marked" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert not list(folder.glob(".*.tmp"))


def test_a_file_set_aside_then_decided_reads_as_decided_on_the_page_and_in_the_summary(tmp_path, roster):
    """An instructor's trial: Dee hands in Ada's notebook (identity_mismatch: set aside), the instructor sets
    her lesson total to 0 with a reason; her feedback must not still say "your instructor will look at it",
    and the run's policy line says how many set-aside lessons are decided and how many are still to decide."""
    from embedlab.grading import feedback

    mismatch = [Row(f"dee-{L1}.ipynb", L1, q.name, 0.0, q.points, "identity_mismatch",
                    "the notebook names learner 'ada'", "dee") for q in questions_for(L1)]
    ben = [dataclasses_replace(r, submission=f"ben-x-{L1}.ipynb", status="identity_mismatch", points=0.0)
           for r in lesson_rows("ben", L1)]
    decided = ('\n[[adjustment]]\nlearner = "dee"\nlesson = "01-toy-table"\npoints = 0\n'
               'reason = "handed in a classmate\'s notebook: 0 points"\n')
    path = example(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + decided, encoding="utf-8")
    policy = load_policy(path, roster, class_keys())
    rows = [r for r in class_rows() if (r.learner, r.lesson) != ("ben", L1)] + mismatch + ben
    found = results.totals(rows, class_keys(), policy=policy)
    dee = next(t for t in found if (t.learner, t.lesson) == ("dee", L1))
    assert (dee.status, dee.final) == ("review", 0)
    page = feedback.build_page(dee, mismatch, class_keys(), policy).text
    assert "your instructor has decided" in page and "will look at it" not in page
    assert "classmate's notebook: 0 points" in page
    still = next(t for t in found if (t.learner, t.lesson) == ("ben", L1))
    assert "will look at it" in feedback.build_page(still, ben, class_keys(), policy).text
    assert "of the 2 lesson(s) set aside for review, 1 decided" in policy.summary(found)
    assert "1 still to decide" in policy.summary(found)


# --------------------------------------------------------------------------
# One policy for the term: what is not in this run is kept, reported, never refused


TERM = """
[lesson."11-size-a-model"]
due = 2026-12-01T23:59:00
weight = 3

[[extension]]
learner = "eve"
lesson = "02-lookup-vs-matmul"
due = 2026-10-16T23:59:00
reason = "joined late"

[[adjustment]]
learner = "ada"
lesson = "11-size-a-model"
question = "design_params"
points = 1
reason = "the count is right for the design in the markdown cell"

[[adjustment]]
learner = "eve"
lesson = "01-toy-table"
delta = 1
reason = "a section of its own"
"""


def test_a_terms_policy_keeps_entries_of_other_runs_and_reports_them(tmp_path, roster, capsys):
    """issue 45, item 4: one policy.toml for a term with sections and lessons graded run by run. An
    extension or adjustment of a learner without a variant in this run's keys (another section's, a late
    enrolment), a lesson table and an adjustment of a lesson these keys do not hold, are kept, applied to
    nothing here, and listed as not in this run; the entries of the run are applied as before."""
    path = example(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + TERM, encoding="utf-8")
    policy = load_policy(path, roster, class_keys())  # no refusal: eve has no variant, lesson 11 no keys
    rows = [r for who in LEARNERS for lesson in (L1, L2) for r in lesson_rows(who, lesson)]
    found = results.totals(rows, class_keys(), policy=policy)
    assert {t.learner for t in found} == set(LEARNERS)
    cy = next(t for t in found if (t.learner, t.lesson) == ("cy", L1))
    assert cy.adjustment == -1  # the run's own entries are applied
    lines = policy.not_in_run(found)
    text = "\n".join(lines)
    assert len(lines) == 4 and all(line.endswith("not in this run (kept)") for line in lines), text
    for who, lesson in (("eve", L2), ("ada", "11-size-a-model"), ("eve", L1)):
        assert f"{who} {lesson}" in text
    assert '[lesson."11-size-a-model"]' in text
    # each names its file and line, in the file's order
    numbers = [int(re.match(r".*policy\.toml:(\d+): ", line).group(1)) for line in lines[:3]]
    assert numbers == sorted(numbers)


def test_a_canvas_file_marked_late_in_a_lesson_moodle_dates_is_judged_by_its_marker(tmp_path, roster):
    """A lesson collected through both LMSs: Moodle's worksheet dates its learners, Canvas only marks a
    late file. A learner the worksheet does not date (Canvas's section) whose file Canvas marked late gets
    the per-file rule; one the worksheet dates is judged by the dates, whatever the marker."""
    policy = load_policy(example(tmp_path), roster, class_keys())
    rows = [r for who in LEARNERS for r in lesson_rows(who, L2)]
    found = {t.learner: t for t in results.totals(rows, class_keys(), policy=policy,
                                                   late=frozenset({"dee-02-lookup-vs-matmul.ipynb",
                                                                   "ada-02-lookup-vs-matmul.ipynb"}))}
    assert found["dee"].late_penalty == pytest.approx(0.1 * best(L2))  # no date: Canvas's marker, 10 %
    assert found["ada"].late_penalty == 0  # dated on time by the worksheet: the marker changes nothing
    assert found["cy"].late_penalty == pytest.approx(1.6)  # dated 2 days late


def sections_class(tmp_path, monkeypatch):
    """Lesson 01's keys; a roster of two sections (A on Canvas, B on Moodle: each learner only their own LMS's
    id); a folder per learner for Ada (A) and Cy (B); grading replaced by rows (every answer right)."""
    keys_dir = tmp_path / "class" / KEYS_DIR
    write_lesson_keys(keys_dir, L1, 2, LEARNERS, {1: ({}, {}), 2: ({}, {})})
    roster = tmp_path / "roster.csv"
    roster.write_text("learner,name,email,section,canvas_id,moodle_id:01-toy-table\n"
                      "ada,Ada,ada@school.example,A,101,\nben,Ben,ben@school.example,A,102,\n"
                      "cy,Cy,cy@school.example,B,,5003\ndee,Dee,dee@school.example,B,,5004\n", encoding="utf-8")
    download = tmp_path / "download"
    for who in ("ada", "cy"):
        (download / who).mkdir(parents=True)
        nbformat.write(nbformat.v4.new_notebook(), download / who / f"{L1}.ipynb")

    def graded(submissions, *args, **kwargs):
        return [row for s in submissions for row in lesson_rows(s.submitter or s.path.parent.name, L1,
                                                                file=s.label)], []

    monkeypatch.setattr(grader, "grade_all", graded)
    return keys_dir, roster, download


def test_a_run_of_one_section_holds_its_learners_and_merges_into_the_terms_totals(tmp_path, monkeypatch, capsys):
    """embedlab-grade --section NAME: the run's totals and gradebook hold that section's learners only (Ben,
    who handed nothing in, missing; Cy and Dee of section B not at all), and --merge adds a second section's
    run to the same totals file, keeping the first's lines as they were."""
    keys_dir, roster, download = sections_class(tmp_path, monkeypatch)
    out = tmp_path / "grades"
    out.mkdir()

    def grade_section(*extra):
        return cli.main([str(download), "--keys", str(keys_dir), "--roster", str(roster), "--no-sandbox", "-q",
                         "--out", str(out / "scores.csv"), "--totals", str(out / "totals.csv"), "--merge",
                         "--gradebook", str(out / "gradebook.csv"), *extra])

    assert grade_section("--section", "A") == 0
    said = capsys.readouterr().out
    assert "learners in this run: 2 (section A of the roster); 2 other learner(s)" in said
    assert "1 learner(s) of another section had a file here: in --out's rows, not in this run's totals (cy)" in said
    first = (out / "totals.csv").read_text(encoding="utf-8")
    got = {r["learner"]: r["status"] for r in csv.DictReader(first.splitlines())}
    assert got == {"ada": "graded", "ben": "missing"}
    assert [r["learner"] for r in csv.DictReader((out / "gradebook.csv").read_text().splitlines())] == ["ada", "ben"]
    assert grade_section("--section", "b") == 0  # sections are named without case
    merged = (out / "totals.csv").read_text(encoding="utf-8")
    got = {r["learner"]: r["status"] for r in csv.DictReader(merged.splitlines())}
    assert got == {"ada": "graded", "ben": "missing", "cy": "graded", "dee": "missing"}
    assert [line for line in merged.splitlines() if line.startswith(('"ada"', '"ben"'))] == first.splitlines()[1:]
    # the gradebook made from the merged totals lists the section of the run
    assert [r["learner"] for r in csv.DictReader((out / "gradebook.csv").read_text().splitlines())] == ["cy", "dee"]
    # without --section, a folder run holds every learner of the keys, as before
    assert cli.main([str(download), "--keys", str(keys_dir), "--no-sandbox", "-q", "--out", str(out / "s.csv"),
                     "--totals", str(out / "all.csv")]) == 0
    assert len(read_rows(out / "all.csv")) == 4


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("extra, words", [
    (["--section", "C"], "has no section 'C' (its sections: A, B)"),
    (["--merge"], "--merge needs --totals"),
])
def test_a_section_or_a_merge_that_cannot_be_is_a_usage_error(tmp_path, monkeypatch, capsys, extra, words):
    keys_dir, roster, download = sections_class(tmp_path, monkeypatch)
    with pytest.raises(SystemExit) as stop:
        cli.main([str(download), "--keys", str(keys_dir), "--roster", str(roster), "--no-sandbox", "-q",
                  "--out", str(tmp_path / "scores.csv"), *extra])
    assert stop.value.code == 2 and words in capsys.readouterr().err
    assert not (tmp_path / "scores.csv").exists()


def test_merge_refuses_a_file_that_is_not_a_totals_file_and_writes_nothing(tmp_path, monkeypatch, capsys):
    keys_dir, roster, download = sections_class(tmp_path, monkeypatch)
    totals = tmp_path / "totals.csv"
    totals.write_text("learner,lesson,points\nada,01-toy-table,7\n", encoding="utf-8")
    with pytest.raises(SystemExit) as stop:
        cli.main([str(download), "--keys", str(keys_dir), "--roster", str(roster), "--no-sandbox", "-q",
                  "--out", str(tmp_path / "scores.csv"), "--totals", str(totals), "--merge"])
    assert stop.value.code == 2 and "is not a totals file of embedlab-grade" in capsys.readouterr().err
    assert totals.read_text(encoding="utf-8") == "learner,lesson,points\nada,01-toy-table,7\n"
    assert not (tmp_path / "scores.csv").exists()
