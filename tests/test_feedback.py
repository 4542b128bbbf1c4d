"""Feedback handed back (embedlab-grade --feedback DIR, embedlab.grading.feedback): a page and a text per
learner per lesson, the Canvas and Moodle zips named so that each LMS's own upload rule (lms.
canvas_reupload_ids, lms.moodle_feedback_id) gives every file to the learner it is about, nothing of
the key or of another learner on any page, hostile text escaped, nothing overwritten without --force
(a submission never), the policy's adjustments shown, and axe-core on a page, light and dark.

Downloads are named by test_lms's builders, which follow each LMS's code step by step; rows are built
here (judge.Row as the grader makes them): no sandbox runs.
"""

import dataclasses
import html
import html.parser
import io
import json
import os
import re
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from embedlab.grading import cli as grade
from embedlab.grading import feedback, lms
from embedlab.grading.judge import Row
from embedlab.grading.keys import LessonKeys, Variant, write_lesson_keys
from embedlab.grading.lessons import known_lessons, load_key, questions_for, reread_for, reread_where
from embedlab.grading.status import STATUSES, TOTAL_STATUSES
from embedlab.grading.submissions import find_submissions, identify
from embedlab.grading.values import written_forms

from test_lms import canvas_name, canvas_resubmitted, moodle_path
from tools_loader import load_tool, needs_chromium, open_offline

ROOT = Path(__file__).resolve().parent.parent
LESSON = "01-toy-table"
LESSON2 = "03-counting-gpt2"


def rows_for(label, learner, lesson=LESSON, wrong=(), detail="the dot product, not divided by the lengths",
             status="incorrect"):
    """A graded file's rows: every question right but those in `wrong` (given `status` and `detail`)."""
    out = []
    for q in questions_for(lesson):
        bad = q.name in wrong
        out.append(Row(label, lesson, q.name, 0.0 if bad else q.points, q.points, status if bad else "correct",
                       detail if bad else "", learner, source=f"SOURCE-OF-{learner}", answer=f"fp{learner}0000"))
    return out


def class_keys(learners: dict, lessons=(LESSON,)) -> dict:
    """Keys with two variants whose every value is distinctive (a page holding one cannot be by chance)."""
    out = {}
    for lesson in lessons:
        key = load_key(lesson)
        variants = {n: Variant(n, {}, {name: 987_654_321 + 1000 * n + i for i, name in enumerate(key)})
                    for n in (1, 2)}
        out[lesson] = LessonKeys(lesson, 2, dict(learners), variants)
    return out


def every_file(folder: Path) -> dict[str, str]:
    """Every file written under `folder`, zips opened: name -> text."""
    out = {}
    for path in folder.rglob("*"):
        if path.is_file() and path.suffix == ".zip":
            with zipfile.ZipFile(path) as z:
                for name in z.namelist():
                    out[f"{path.name}:{name}"] = z.read(name).decode("utf-8")
        elif path.is_file():
            out[str(path.relative_to(folder))] = path.read_text(encoding="utf-8")
    return out


def zip_entries(path: Path) -> dict[str, str]:
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name).decode("utf-8") for name in z.namelist()}


def who(page: str) -> str:
    """The learner a page or text says it is for."""
    found = re.search(r"For <strong>([^<]*)</strong>|^For (.*)$", page, re.M)
    return found.group(1) or found.group(2)


# --------------------------------------------------------------------------
# What to reread, and plain words for every status


def _headings(lesson: str) -> set[str]:
    nb = json.loads((ROOT / "notebooks" / f"{lesson}.ipynb").read_text(encoding="utf-8"))
    return {line[3:].strip() for c in nb["cells"] if c["cell_type"] == "markdown"
            for line in "".join(c["source"]).splitlines() if line.startswith("## ")}


def test_every_question_names_a_section_its_lesson_notebook_has():
    """Each question's reread names a `## ` heading of a lesson notebook: its own lesson's, or, where its entry
    names another lesson (`("04-modern-blocks", section)`), that lesson's."""
    elsewhere = []
    for lesson in known_lessons():
        reread = reread_where(lesson)
        assert set(reread) == {q.name for q in questions_for(lesson)}, lesson
        for name, (where, section) in reread.items():
            assert where in known_lessons(), (lesson, name, where)
            assert section in _headings(where), (lesson, name, where, section)
            if where != lesson:
                elsewhere.append((lesson, name, where))
        assert reread_for(lesson) == {name: section for name, (_, section) in reread.items()}
    # exercise 06's question 8 counts a token's active parameters, taught matrix by matrix in lesson 04 (newcomer T)
    assert ("06-params-vs-compute", "active_params", "04-modern-blocks") in elsewhere


def test_a_reread_in_another_lesson_is_named_and_linked_there():
    """The feedback page names the other lesson and links its page; the hint that points at a section names the
    lesson too (not "the lesson's section", which would be the exercise's own)."""
    from embedlab.grading.lessons import questions_for as qs

    lesson = "06-params-vs-compute"
    keys = class_keys({"ann": 1}, lessons=(lesson,))
    rows = rows_for(f"subs/ann/{lesson}.ipynb", "ann", lesson=lesson, wrong=("active_params",),
                    detail="a little too small")
    page = feedback.feedback_pages(rows, keys, {"rule": "best"}, book_url="https://book.example/course/")[0]
    assert "Reread: lesson 04-modern-blocks, section “8. A mixture of experts: Mixtral-8x7B” " \
           "(notebooks/04-modern-blocks.ipynb) https://book.example/course/notebooks/04-modern-blocks.html" in page.text
    assert 'href="https://book.example/course/notebooks/04-modern-blocks.html"' in page.html
    assert "06-params-vs-compute.html" not in page.html
    q = next(q for q in qs(lesson) if q.name == "active_params")
    assert q.reread_lesson == "04-modern-blocks"
    assert q._pointed("too small") == "too small; reread lesson 04's section “8. A mixture of experts: Mixtral-8x7B”"
    own = next(q for q in qs(lesson) if q.name == "kaplan_n")
    assert own._pointed("too small") == "too small; reread the lesson's section “6. The other counts called N”"


def test_every_status_is_explained_in_plain_words():
    assert set(feedback.QUESTION_WORDS) == set(STATUSES)
    assert set(feedback.TOTAL_WORDS) == set(TOTAL_STATUSES)
    for words in list(feedback.QUESTION_WORDS.values()) + list(feedback.TOTAL_WORDS.values()):
        assert "_" not in words  # no status code shown as the explanation


def test_a_page_shows_points_hints_the_section_to_reread_and_the_total():
    keys = class_keys({"ann": 1, "bob": 2})
    rows = rows_for("subs/ann/01-toy-table.ipynb", "ann", wrong=("cosine",)) + [
        Row("subs/ann/01-toy-table.ipynb", LESSON, "n_params", 0.0, 1.0, "timeout", "cell 6 ran past 30 s", "ann")]
    rows = [r for r in rows if not (r.question == "n_params" and r.status == "correct")]
    pages = {p.learner: p for p in feedback.feedback_pages(rows, keys, {"rule": "best"})}
    ann = pages["ann"]
    assert ann.status == "graded" and "Total: 5 / 7 points" in ann.text and "Total: 5 / 7 points" in ann.html
    assert "cosine: 0 / 1, not right yet" in ann.text
    assert "The grader says: the dot product, not divided by the lengths" in ann.text
    assert "Reread: lesson 01-toy-table, section “4. The geometry carries the meaning”" in ann.text
    assert "n_params: 0 / 1, the notebook ran past the time limit" in ann.text and "cell 6 ran past 30 s" in ann.text
    assert "E: 1 / 1, correct" in ann.text and "Reread" not in ann.text.split("E: 1 / 1")[1].split("\n\n")[0]
    # no file of bob's: a page that says missing, no points
    assert pages["bob"].status == "missing" and "missing: no file of yours" in pages["bob"].text
    assert "Total: no points yet (7 possible)" in pages["bob"].html
    # a file judged as a whole (not a notebook, a run that timed out, set aside): one line, not one per question
    for status, detail, words in (("unreadable", "not a notebook (a .pdf file): not graded", "could not be read"),
                                  ("timeout", "the whole run passed its 300 s", "ran past the time limit"),
                                  ("identity_mismatch", "names learner 'bob'", "names another learner")):
        whole = [Row("s/ann/a.pdf", LESSON, q.name, 0.0, q.points, status, detail, "ann")
                 for q in questions_for(LESSON)]
        page = feedback.feedback_pages(whole, keys, {"rule": "best"})[0]
        assert page.text.count(words) == 1 and ": 0 / 1" not in page.text, page.text
        assert (detail in page.text) == (status != "identity_mismatch") and "'bob'" not in page.text
    # with the book's address each reread links to the lesson's page; without it nothing is linked
    linked = feedback.feedback_pages(rows, keys, {"rule": "best"}, book_url="https://book.example/course/")
    assert 'href="https://book.example/course/notebooks/01-toy-table.html"' in linked[0].html
    assert "href=\"http" not in ann.html


# --------------------------------------------------------------------------
# Names each LMS reads back


ROSTER = """learner,name,canvas_id,moodle_id:01-toy-table,moodle_id:03-counting-gpt2,email
ada,"Lovelace, Ada",101,5001,6001,ada@uni.example
ben,"Okafor, Ben",102,5002,6002,ben@uni.example
zoe,"O'Neil, Zoë",103,5003,6003,zoe@uni.example
jim,"Agent_007_, Jim",104,5004,6004,jim@uni.example
ann,"O_Brien, Ann",105,5005,6005,ann@uni.example
lou,"Ng, Lou",106,5006,6006,lou@uni.example
"""
LEARNERS = ("ada", "ben", "zoe", "jim", "ann", "lou")


@pytest.fixture
def roster(tmp_path) -> lms.Roster:
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    return lms.read_roster(path)


def graded_download(root: Path, files: dict, layout: str, roster, lessons=(LESSON,)):
    """The download's files as embedlab-grade finds and identifies them, and rows for each: the learner
    the LMS names, one wrong answer each (so the pages differ), the lesson from the file name."""
    for relative in files:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}", encoding="utf-8")
    subs = identify(find_submissions([str(root)], every_file=True), layout, roster)
    rows = []
    for sub in subs:
        assert sub.submitter == files[str(sub.path.relative_to(root))], sub
        lesson = next(x for x in lessons if x in sub.path.name)
        rows += rows_for(sub.label, sub.submitter, lesson, wrong=(questions_for(lesson)[1].name,),
                         detail=f"hint for {sub.submitter} on {sub.path.name}")
    return subs, rows


def test_canvas_zip_names_give_each_file_to_its_learner_by_canvas_own_rule(tmp_path, roster):
    files = {
        canvas_name("Lovelace, Ada", 101, 9001, "01-toy-table.ipynb"): "ada",
        canvas_name("Okafor, Ben", 102, 9002, "01-toy-table.ipynb", late=True): "ben",  # marked late
        canvas_name("Okafor, Ben", 102, 9013, canvas_resubmitted("01-toy-table.ipynb", 1)): "ben",  # again
        canvas_name("O'Neil, Zoë", 103, 9004, "Zoë's 01-toy-table (final).ipynb"): "zoe",  # unicode, spaces
        canvas_name("Agent_007_, Jim", 104, 9005, "01-toy-table.ipynb"): "jim",  # digits in the name
        canvas_name("O_Brien, Ann", 105, 9006, "01-toy-table.ipynb"): "ann",  # an underscore kept
        # lou handed in nothing
    }
    root = tmp_path / "download"
    subs, rows = graded_download(root, files, "canvas", roster)
    keys = class_keys({learner: 1 + i % 2 for i, learner in enumerate(LEARNERS)})
    out = tmp_path / "feedback"
    written = feedback.write_feedback(out, rows, keys, {"rule": "latest", "mtimes": {
        s.label: (s.order, 0) for s in subs}}, submissions=subs, roster=roster, layout="canvas")
    entries = zip_entries(out / "canvas" / f"{LESSON}-feedback.zip")
    assert len(entries) == 2 * 5  # an HTML page and its text for each learner who handed a file in
    counted = {"ada": 9001, "ben": 9013, "zoe": 9004, "jim": 9005, "ann": 9006}  # ben: the newest (--latest)
    for name, content in entries.items():
        user, attachment = lms.canvas_reupload_ids(name)  # what Canvas's re-upload reads
        learner = roster.by_lms_id("canvas", user)
        assert who(content) == learner, name
        assert int(attachment) == counted[learner], name
        assert f"hint for {learner} on " in content  # that learner's own rows
        # our own download parser reads it the same single way (the download's own prefix is kept)
        assert lms.parse_download(name, "canvas").lms_id == user
    late = [n for n in entries if roster.by_lms_id("canvas", lms.canvas_reupload_ids(n)[0]) == "ben"]
    assert all(n.startswith("okaforben_") for n in late), late
    assert any(n.startswith("oneilzoë_103_9004_") for n in entries)
    # lou: no file in the zip (Canvas attaches feedback to a submitted file), a page in the folder
    assert ("Canvas", LESSON, "lou", "no file handed in: Canvas attaches feedback to a submitted file only") \
        in written.without
    assert "missing" in (out / "learners" / "lou" / f"{LESSON}-feedback.txt").read_text(encoding="utf-8")
    assert "lou" in written.summary(out) and "no file in an LMS zip" in written.summary(out)
    assert sorted(p.name for p in (out / "learners").iterdir()) == sorted(LEARNERS)


def test_a_canvas_prefix_canvas_would_misread_is_replaced_by_one_it_reads_right(tmp_path):
    # a learner whose sortable name is all digits: the download's name part is one more digits-only
    # piece, which Canvas's re-upload would take as the user id; the feedback file is named
    # feedback_<user id>_<attachment id>_ instead, which Canvas reads right
    path = tmp_path / "x" / canvas_name("12", 101, 9001, "01-toy-table.ipynb")
    path.parent.mkdir()
    path.write_text("{}", encoding="utf-8")
    sub = find_submissions([str(path.parent)], every_file=True)[0]
    assert lms.parse_download(path.name, "canvas").lms_id == "101"  # the download reads one way: user 101
    assert lms.canvas_reupload_ids(path.name) == ("12", "101")  # Canvas's re-upload would misread it
    name = feedback.canvas_name(sub, LESSON, ".html")
    assert name == "feedback_101_9001_01-toy-table-feedback.html"
    assert lms.canvas_reupload_ids(name) == ("101", "9001")


@pytest.mark.parametrize("form", ["folders", "folders_3.1", "flat"])
def test_moodle_zip_names_give_each_file_to_its_participant_by_moodles_own_rule(tmp_path, roster, form):
    folders, trailing = form != "flat", form == "folders_3.1"
    files = {
        moodle_path("Ada Lovelace", 5001, "01-toy-table.ipynb", folders, trailing): "ada",
        moodle_path("Ben Okafor", 5002, "01-toy-table.ipynb", folders, trailing): "ben",
        moodle_path("Ben Okafor", 5002, "01-toy-table (2).ipynb", folders, trailing): "ben",  # two files
        moodle_path("Zoë O'Neil", 5003, "Zoë 01-toy-table.ipynb", folders, trailing): "zoe",
        moodle_path("Jim Agent_007_", 5004, "01-toy-table.ipynb", folders, trailing): "jim",  # _ made a space
        moodle_path("Ann O_Brien", 6005, "03-counting-gpt2.ipynb", folders, trailing): "ann",  # lesson 03's id
        # lou handed in nothing; ann nothing of lesson 01
    }
    root = tmp_path / "download"
    subs, rows = graded_download(root, files, "moodle", roster, lessons=(LESSON, LESSON2))
    keys = class_keys({learner: 1 + i % 2 for i, learner in enumerate(LEARNERS)}, (LESSON, LESSON2))
    out = tmp_path / "feedback"
    written = feedback.write_feedback(out, rows, keys, {"rule": "best"}, submissions=subs, roster=roster,
                                      layout="moodle")
    for lesson in (LESSON, LESSON2):
        entries = zip_entries(out / "moodle" / f"{lesson}-feedback.zip")
        assert len(entries) == 2 * len(LEARNERS), lesson  # Moodle takes feedback for every participant
        column = f"moodle_id:{lesson}"
        for name, content in entries.items():
            participant = lms.moodle_feedback_id(name)  # what Moodle's importer reads
            learner = next(x for x in LEARNERS if roster.value(x, column) == participant)
            assert who(content) == learner, name
            assert f"Feedback on exercise {lesson}" in content
            handed_in = any(v == learner and lesson in k for k, v in files.items())
            assert ("missing" in content) != handed_in, name
            if handed_in:  # the download's own folder (or prefix) is kept
                prefix = next(k for k, v in files.items() if v == learner and lesson in k).split("/")[0]
                assert name.startswith(prefix.rsplit("_assignsubmission_file", 1)[0]), (name, prefix)
                assert name.split("/")[0] == prefix if folders else True
    assert written.without == []


def test_moodle_learners_without_an_id_for_the_lesson_are_listed_not_guessed(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text("learner,name,moodle_id:03-counting-gpt2\nada,Ada,6001\nben,Ben,6002\n", encoding="utf-8")
    roster = lms.read_roster(path)
    root = tmp_path / "download"
    subs, rows = graded_download(root, {moodle_path("Ada Lovelace", 6001, "03-counting-gpt2.ipynb"): "ada"},
                                 "moodle", roster, lessons=(LESSON2,))
    keys = class_keys({"ada": 1, "ben": 2}, (LESSON, LESSON2))
    rows += rows_for("elsewhere/ben-01-toy-table.ipynb", "ben", LESSON)
    written = feedback.write_feedback(tmp_path / "fb", rows, keys, {"rule": "best"}, submissions=subs,
                                      roster=roster, layout="moodle")
    assert {(lesson, learner) for _, lesson, learner, _ in written.without} == {(LESSON, "ada"), (LESSON, "ben")}
    assert len(zip_entries(tmp_path / "fb" / "moodle" / f"{LESSON2}-feedback.zip")) == 4


def test_the_lms_readers_follow_each_lms_code():
    # Canvas: the first two all-digit pieces of the base name; '._' and a last piece 'link…' give nothing
    assert lms.canvas_reupload_ids("lovelaceada_LATE_101_9001_01-toy-table-feedback.html") == ("101", "9001")
    assert lms.canvas_reupload_ids("dir/smith2john_7_8_a_9_b.txt") == ("7", "8")
    assert lms.canvas_reupload_ids("._lovelaceada_101_9001_x.html") is None
    assert lms.canvas_reupload_ids("richards_david_2_link.html") is None
    assert lms.canvas_reupload_ids("lovelaceada_101_x.html") is None
    # Moodle: fullname_id_plugintype_pluginname[_rest], any path part; hidden names skipped
    assert lms.moodle_feedback_id("Ada Lovelace_5001_assignsubmission_file/f.html") == "5001"
    assert lms.moodle_feedback_id("Ada Lovelace_5001_assignsubmission_file_/f.html") == "5001"
    assert lms.moodle_feedback_id("Ada Lovelace_5001_assignsubmission_file_f.html") == "5001"
    assert lms.moodle_feedback_id("top/Ada_5001_assignfeedback_file/sub/f.html") == "5001"
    assert lms.moodle_feedback_id("Ada_Lovelace_5001_assignsubmission_file/f.html") is None  # a _ in the name
    assert lms.moodle_feedback_id("Ada Lovelace_5001_assignsubmission_file/.f.html") is None
    assert lms.moodle_feedback_id("Ada Lovelace_5001_assignsubmission_file/~f.html") is None


# --------------------------------------------------------------------------
# Secrets: never the key, another learner's rows, or the grader's evidence


def test_no_feedback_file_holds_a_key_value_another_learners_hint_or_the_graders_evidence(tmp_path, roster):
    """An attack: hints that quote key values (in every form a value can be written), another learner's
    recognisable hint, a set-aside file whose detail names a classmate, and the answer cells' source
    and fingerprints on every row. None of it may reach a page of anyone but its owner."""
    keys = class_keys({learner: 1 + i % 2 for i, learner in enumerate(LEARNERS)})
    secrets = [v for variant in keys[LESSON].keys.values() for v in variant.key.values()]
    leaky = []
    for n, value in enumerate(secrets[:6]):
        forms = written_forms(value)
        leaky.append(f"yours is off: the expected value is {forms[n % len(forms)]}")
    leaky.append(f"expected {float(secrets[0]) / 7:.12g} here")  # a float of the key
    leaky.append(f"about {secrets[1]:.5g}, to 5 figures")  # a whole number of the key, written as a float
    rows = []
    for i, learner in enumerate(("ada", "ben", "zoe")):
        label = f"subs/{learner}/01-toy-table.ipynb"
        rows += rows_for(label, learner, wrong=("E", "n_params", "cosine"), detail=f"PRIVATE-HINT-OF-{learner}")
    # ada's hints quote her own variant's key (variant 1); ben's (variant 2) quote variant 1's, another's answers
    for j, text in enumerate(leaky):
        rows.append(Row("subs/ada/01-toy-table.ipynb", LESSON, f"extra{j}", 0.0, 1.0, "incorrect", text, "ada"))
        rows.append(Row("subs/ben/01-toy-table.ipynb", LESSON, f"extra{j}", 0.0, 1.0, "incorrect", text, "ben"))
    assert [keys[LESSON].learners[x] for x in ("ada", "ben")] == [1, 2]
    keys[LESSON].keys[1].key["float_secret"] = float(secrets[0]) / 7
    # jim's slot holds a notebook naming ben: set aside, its detail never shown
    rows += [Row("subs/jim/01-toy-table.ipynb", LESSON, "", 0.0, 7.0, "identity_mismatch",
                 "this notebook names learner 'ben' (PRIVATE-HINT-OF-ben), not jim", "jim")]
    out = tmp_path / "feedback"
    feedback.write_feedback(out, rows, keys, {"rule": "best"}, submissions=[], roster=roster)
    files = every_file(out)
    assert len(files) == 2 * len(LEARNERS)
    for name, content in files.items():
        owner = who(content)
        for value in list(secrets) + [float(secrets[0]) / 7]:
            for form in written_forms(value) + written_forms(float(value)):
                assert form not in content, (name, form)
        for learner in LEARNERS:
            if learner != owner:
                assert f"PRIVATE-HINT-OF-{learner}" not in content, (name, learner)
        assert "SOURCE-OF-" not in content and "0000" not in content  # the report's evidence, never here
    ada = files[f"learners/ada/{LESSON}-feedback.txt"]
    assert ada.count(feedback.WITHHELD) == len(leaky) == files[f"learners/ben/{LESSON}-feedback.txt"].count(
        feedback.WITHHELD)  # each leaking hint withheld, not just reworded
    assert "PRIVATE-HINT-OF-ada" in ada  # her own, harmless hints are shown (the check is not vacuous)
    jim = files[f"learners/jim/{LESSON}-feedback.txt"]
    assert "set aside" in jim and "ben" not in jim


def test_the_withheld_check_finds_what_values_written_in_finds():
    from embedlab.grading.values import written_in

    values = [987_654_321, 123_456, 0.123456789, 2.5e-07, 1234.5678]
    texts = ["987654321", "x987654321", "987,654,321.", "9876543210", "1.2346e+05 or so", "0.12346", "0.123456789",
             "2.5e-07", "v=1234.5678;", "1234.56789", "123,456", "123_456_7", "-987654321", "[987654321]", "nothing"]
    for text in texts:
        for value in values:
            expected = bool(written_in(text, value))
            assert (feedback.safe_detail(text, [value]) == feedback.WITHHELD) == expected, (text, value)


# --------------------------------------------------------------------------
# Hostile text from one submission


HOSTILE = ('</p></td><script>alert("x")</script><img src=x onerror=alert(1)><a href="javascript:x">'
           '[click](javascript:alert(1)) **bold** <!-- \x1b[31m\u202e\u2066\x00\x07 `<b>` &amp; ')


class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += attrs

    def handle_endtag(self, tag):
        self.tags.append("/" + tag)


def structure(page: str):
    parser = Tags()
    parser.feed(page)
    return parser.tags, parser.attrs


def test_one_hostile_submission_cannot_inject_markup_or_change_another_learners_page():
    keys = class_keys({"ada": 1, "ben": 1})
    calm = rows_for("subs/ada/01-toy-table.ipynb", "ada", wrong=("E", "cosine"), detail="rows 1, 2 differ")
    ben = rows_for("subs/ben/01-toy-table.ipynb", "ben", wrong=("E",), detail="rows 1, 3 differ")
    huge = HOSTILE * 20_000  # ~2 MB of it
    hostile = rows_for("subs/ada/01-toy-table.ipynb", "ada", wrong=("E", "cosine"), detail=huge)
    hostile = [r if r.question != "cosine" else Row(r.submission, r.lesson, r.question, r.points, r.max_points,
                                                    "error", HOSTILE, r.learner) for r in hostile]
    quiet = {p.learner: p for p in feedback.feedback_pages(calm + ben, keys, {"rule": "best"})}
    loud = {p.learner: p for p in feedback.feedback_pages(hostile + ben, keys, {"rule": "best"})}
    assert loud["ben"].html == quiet["ben"].html and loud["ben"].text == quiet["ben"].text
    page, text = loud["ada"].html, loud["ada"].text
    assert structure(page)[0] == structure(quiet["ada"].html)[0]  # the same elements: nothing injected
    assert {name for name, _ in structure(page)[1]} <= {"lang", "charset", "name", "content", "class", "role",
                                                         "tabindex", "aria-label", "scope", "id", "href"}
    assert not [v for k, v in structure(page)[1] if k == "href" and not v.startswith("#")]
    assert "<script" not in page and "<img" not in page and "javascript:x\"" not in page
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]", page + text)
    assert "\\u202e" in text and "\\x1b" in text  # shown as escapes, not obeyed
    assert len(page) < 20_000 and len(text) < 10_000  # a hint is cut, not copied whole


# --------------------------------------------------------------------------
# Files: never overwritten without --force, never a submission, written atomically


def test_no_zip_entry_leaves_its_folder_and_no_page_is_written_without_keys(tmp_path):
    for name in ("../x.html", "/etc/x.html", "a//b.html", "a/./b", "a\\b", "a\x1bb.html"):
        with pytest.raises(ValueError, match="zip entry"):
            feedback._zip({name: b""})
    assert zipfile.ZipFile(io.BytesIO(feedback._zip({"Zoë O Neil_5003_assignsubmission_file/x.html": b"1"}))).namelist()
    with pytest.raises(ValueError, match="needs --keys"):
        feedback.write_feedback(tmp_path / "fb", rows_for("a.ipynb", "ada"), None)
    assert not (tmp_path / "fb").exists()


def test_earlier_feedback_is_replaced_only_with_force_and_atomically(tmp_path, monkeypatch):
    keys = class_keys({"ada": 1, "ben": 2})
    out = tmp_path / "fb"
    feedback.write_feedback(out, rows_for("s/ada/x-01-toy-table.ipynb", "ada"), keys, {"rule": "best"})
    page = out / "learners" / "ada" / f"{LESSON}-feedback.html"
    first = page.read_bytes()
    again = rows_for("s/ada/x-01-toy-table.ipynb", "ada", wrong=("E",))
    with pytest.raises(ValueError, match="--force"):
        feedback.write_feedback(out, again, keys, {"rule": "best"})
    assert page.read_bytes() == first
    assert "already holds feedback" in feedback.check_feedback_dir(out, [], [], force=False)
    assert "already holds feedback on 01-toy" in feedback.check_feedback_dir(out, [], [], False, LESSON)
    # another lesson's feedback (an earlier week's) is no obstacle when the run names its lesson
    assert feedback.check_feedback_dir(out, [], [], False, LESSON2) == ""
    week2 = feedback.write_feedback(out, rows_for("s/ada/x-03-counting-gpt2.ipynb", "ada", LESSON2),
                                    class_keys({"ada": 1, "ben": 2}, (LESSON2,)), {"rule": "best"})
    assert len(week2.files) == 4 and page.read_bytes() == first
    # a write that fails half-way leaves no temporary file and the earlier file whole
    from embedlab.grading import text

    real = text.os.replace
    calls = []

    def fail_second(src, dst):
        calls.append(dst)
        if len(calls) == 2:
            raise OSError("disk full")
        return real(src, dst)

    monkeypatch.setattr(text.os, "replace", fail_second)
    with pytest.raises(OSError):
        feedback.write_feedback(out, again, keys, {"rule": "best"}, force=True)
    monkeypatch.setattr(text.os, "replace", real)
    assert not [p for p in out.rglob(".*.tmp")]
    (out / "learners" / "ada" / "notes.txt").write_text("the instructor's own", encoding="utf-8")
    feedback.write_feedback(out, again, keys, {"rule": "best"}, force=True)
    assert page.read_bytes() != first and "0 / 1" in page.read_text(encoding="utf-8")
    assert (out / "learners" / "ada" / "notes.txt").read_text(encoding="utf-8") == "the instructor's own"
    # a link inside the folder that leads out of it is not written through
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(out / "learners" / "ben")
    (out / "learners" / "ben").symlink_to(elsewhere)
    with pytest.raises(ValueError, match="outside"):
        feedback.write_feedback(out, again + rows_for("s/ben/x-01-toy-table.ipynb", "ben"), keys, {"rule": "best"},
                                force=True)
    assert list(elsewhere.iterdir()) == []


def test_feedback_that_fails_loses_no_grade(tmp_path, monkeypatch, capsys):
    """book/grading.md: the CSVs are written first; feedback that cannot be written says why and the run
    ends with 1 (grading replaced by rows: the sandbox is not this test's)."""
    import nbformat
    from solution_runner import notebook
    from embedlab.grading import grader

    subs = tmp_path / "subs"
    (subs / "ada").mkdir(parents=True)
    nbformat.write(notebook("exercises", LESSON), subs / "ada" / f"{LESSON}.ipynb")
    keys = tmp_path / "class" / "instructor-keys"
    write_lesson_keys(keys, LESSON, 1, {"ada": 1}, {1: ({}, load_key(LESSON))})
    label = str(subs / "ada" / f"{LESSON}.ipynb")
    monkeypatch.setattr(grader, "grade_all", lambda *a, **k: (rows_for(label, "ada", wrong=("E",)), []))
    csv, out = tmp_path / "scores.csv", tmp_path / "fb"
    argv = [str(subs), "--keys", str(keys), "--out", str(csv), "--feedback", str(out), "--no-sandbox", "-q"]
    monkeypatch.setattr(feedback, "build_page", lambda *a, **k: 1 / 0)
    assert grade.main(argv) == 1
    assert csv.exists() and not out.exists()
    assert "--feedback not written: grader fault: ZeroDivisionError" in capsys.readouterr().err


def test_the_limits_book_grading_md_states_are_the_codes():
    page = " ".join((ROOT / "book" / "grading.md").read_text(encoding="utf-8").split())
    assert f"(a hint to {feedback.DETAIL_LIMIT:,} characters)" in page
    assert "counts under 100 and short ratios are not searched" in page
    assert written_forms(99) == [] and written_forms(100) != []
    assert feedback._key_values({LESSON: LessonKeys(LESSON, 1, {"a": 1}, {1: Variant(1, {}, {
        "x": 0.5, "y": 1.25, "z": 0.1234, "w": 99, "v": 100})})}, "a", LESSON) == [0.1234, 100]


def test_the_command_line_refuses_a_feedback_folder_in_or_holding_submissions(tmp_path, capsys):
    import nbformat
    from solution_runner import notebook

    subs = tmp_path / "subs"
    (subs / "ada").mkdir(parents=True)
    sub = subs / "ada" / f"{LESSON}.ipynb"
    nbformat.write(notebook("exercises", LESSON), sub)
    keys = tmp_path / "class" / "instructor-keys"
    write_lesson_keys(keys, LESSON, 1, {"ada": 1}, {1: ({}, {})})
    handed_in = sub.read_bytes()
    done = tmp_path / "done"
    (done / "learners").mkdir(parents=True)
    (done / "learners" / "old.txt").write_text("earlier", encoding="utf-8")
    cases = [([str(subs), "--feedback", str(subs / "fb")], "inside the submissions folder"),
             ([str(subs), "--feedback", str(subs)], "inside the submissions folder"),
             ([str(sub), "--feedback", str(subs / "ada"), "--force"], "holds a submission"),
             ([str(subs), "--feedback", str(done)], "already holds feedback"),
             ([str(subs), "--feedback", str(sub)], "is a file"),
             ([str(subs), "--feedback", str(tmp_path / "fb"), "--report", str(tmp_path / "fb" / "r.html")],
              "keep grades out of it"),  # the class report (everyone's points) is not handed out
             ([str(subs), "--feedback", str(tmp_path / "fb"), "--out", str(tmp_path / "fb" / "s.csv")],
              "keep grades out of it")]  # nor the scores
    for argv, why in cases:
        with pytest.raises(SystemExit) as stop:
            grade.main(["--keys", str(keys), "--out", str(tmp_path / "s.csv"), "--no-sandbox", "-q"] + argv)
        assert stop.value.code == 2, argv
        assert why in capsys.readouterr().err, argv
    for url in ("javascript:alert(1)", "book.example", 'https://x.example/"><script>'):
        with pytest.raises(SystemExit) as stop:
            grade.main([str(subs), "--keys", str(keys), "--feedback", str(tmp_path / "fb"), "--book-url", url,
                        "--out", str(tmp_path / "s.csv"), "--no-sandbox"])
        assert stop.value.code == 2 and "--book-url must be an http" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        grade.main([str(subs), "--feedback", str(tmp_path / "fb"), "--out", str(tmp_path / "s.csv"), "--no-sandbox"])
    assert stop.value.code == 2 and "--feedback needs --keys" in capsys.readouterr().err
    assert sub.read_bytes() == handed_in and not (tmp_path / "s.csv").exists()
    assert sorted(p.name for p in subs.rglob("*")) == sorted(["ada", f"{LESSON}.ipynb"])


def test_a_canvas_run_end_to_end_writes_the_zip_and_says_who_got_none(tmp_path, roster, monkeypatch, capsys):
    """The command line with --layout canvas (grading replaced by rows: the sandbox is not this test's)."""
    from embedlab.grading import grader

    root = tmp_path / "download"
    files = {canvas_name("Lovelace, Ada", 101, 9001, "01-toy-table.ipynb"): "ada",
             canvas_name("Okafor, Ben", 102, 9002, "01-toy-table.ipynb", late=True): "ben"}
    subs, rows = graded_download(root, files, "canvas", roster)
    keys = tmp_path / "class" / "instructor-keys"
    write_lesson_keys(keys, LESSON, 2, {x: 1 + i % 2 for i, x in enumerate(LEARNERS)},
                      {n: ({}, load_key(LESSON)) for n in (1, 2)})
    monkeypatch.setattr(grader, "grade_all", lambda *a, **k: (rows, []))
    out = tmp_path / "fb"
    argv = [str(root), "--layout", "canvas", "--roster", roster.path, "--keys", str(keys), "--feedback", str(out),
            "--out", str(tmp_path / "scores.csv"), "--no-sandbox", "-q"]
    assert grade.main(argv) == 0
    said = capsys.readouterr().out
    assert f"canvas/{LESSON}-feedback.zip: 2 learner(s)" in said and "4 learner(s) get no file" in said
    assert sorted(zip_entries(out / "canvas" / f"{LESSON}-feedback.zip")) == [
        "lovelaceada_101_9001_01-toy-table-feedback.html", "lovelaceada_101_9001_01-toy-table-feedback.txt",
        "okaforben_LATE_102_9002_01-toy-table-feedback.html", "okaforben_LATE_102_9002_01-toy-table-feedback.txt"]
    ben = (out / "learners" / "ben" / f"{LESSON}-feedback.txt").read_text(encoding="utf-8")
    assert "The course's site marked this file late." in ben
    with pytest.raises(SystemExit) as stop:  # a second run: earlier feedback kept unless --force
        grade.main(argv)
    assert stop.value.code == 2
    capsys.readouterr()
    # a run of another lesson may start (week 2 into the same folder); had its rows been lesson 01's after
    # all, the files already there are refused when written: the grades are kept, the run ends with 1
    zipped = (out / "canvas" / f"{LESSON}-feedback.zip").read_bytes()
    assert grade.main(argv + ["--lesson", LESSON2]) == 1
    assert "--feedback not written" in capsys.readouterr().err
    assert (out / "canvas" / f"{LESSON}-feedback.zip").read_bytes() == zipped
    assert grade.main(argv + ["--force"]) == 0


# --------------------------------------------------------------------------
# The policy (embedlab-grade --policy): each adjustment and late penalty on that learner's page


@dataclass(frozen=True)
class Adjustment:  # the interface ISSUE37_PLAN.md fixes; policy.py's own class is not needed here
    learner: str
    lesson: str
    question: str | None
    points: float | None
    delta: float | None
    reason: str

    def __str__(self):
        what = self.question or "the lesson's total"
        change = f"set to {self.points:g}" if self.points is not None else f"{self.delta:+g} points"
        return f"{what}: {change} ({self.reason})"


@dataclass(frozen=True)
class Late:
    days: int
    penalty_points: float
    rule: str

    def __str__(self):
        return f"{self.days} day(s) late: -{self.penalty_points:g} points ({self.rule})"


class StandInPolicy:
    def adjustments_for(self, learner, lesson):
        if (learner, lesson) == ("ada", LESSON):
            return [Adjustment("ada", LESSON, "cosine", 1.0, None, "regrade: <b>accepted</b> the float32 answer"),
                    Adjustment("ada", LESSON, None, None, 0.5, "class participation")]
        return []

    def late_for(self, learner, lesson):
        return Late(2, 1.0, "1 point per day after a 1-day grace") if learner == "ben" else None


def test_the_policys_adjustments_and_late_penalty_show_on_that_learners_page_only():
    keys = class_keys({"ada": 1, "ben": 2, "zoe": 1})
    rows = rows_for("s/ada/01-toy-table.ipynb", "ada", wrong=("cosine",)) + rows_for("s/ben/01-toy-table.ipynb", "ben")
    pages = {p.learner: p for p in feedback.feedback_pages(rows, keys, {"rule": "best"}, policy=StandInPolicy())}
    ada, ben, zoe = pages["ada"], pages["ben"], pages["zoe"]
    assert "cosine: set to 1 (regrade: <b>accepted</b> the float32 answer)" in ada.text
    assert "&lt;b&gt;accepted&lt;/b&gt;" in ada.html and "<b>" not in ada.html
    assert "the lesson's total: +0.5 points (class participation)" in ada.text
    assert "  - 2 day(s) late: -1 points (1 point per day after a 1-day grace)" in ben.text
    assert "instructor's decisions" not in zoe.text and "Late" not in ada.text and "regrade" not in ben.text
    assert feedback.feedback_pages(rows, keys, {"rule": "best"})[0].text != ada.text  # without: none shown
    # the policy's totals (results.totals with a policy gives each Total a `final`): the gradebook's number
    # is the page's total, the grader's own beside it when they differ
    total = dataclasses.replace(feedback.totals(rows, keys)[0], final=6.5)
    assert total.learner == "ada" and total.points == 6.0
    page = feedback.build_page(total, [r for r in rows if r.learner == "ada"], keys, StandInPolicy())
    assert "Total: 6.5 / 7 points (the grader gave 6; your instructor's decisions below make it 6.5)" in page.text
    total = dataclasses.replace(total, final=6.0)
    assert "Total: 6 / 7 points\n" in feedback.build_page(total, rows[:7], keys).text


def test_the_real_policys_sentences_and_final_points_reach_the_page(tmp_path):
    """embedlab.grading.policy as built (load_policy, totals merged with it): its str() on the page, escaped,
    and the lesson's final points, the gradebook's number."""
    from embedlab.grading.policy import load_policy

    keys = class_keys({"ada": 1, "ben": 2})
    path = tmp_path / "policy.toml"
    path.write_text('[[adjustment]]\nlearner = "ada"\nlesson = "01-toy-table"\nquestion = "cosine"\npoints = 1\n'
                    'reason = "regrade: <b>float32</b> accepted"\n', encoding="utf-8")
    policy = load_policy(path, None, keys)
    rows = rows_for("s/ada/01-toy-table.ipynb", "ada", wrong=("cosine", "E"))
    pages = {p.learner: p for p in feedback.feedback_pages(rows, keys, {"rule": "best", "policy": policy}, policy)}
    said = str(policy.adjustments_for("ada", LESSON)[0])
    assert said in pages["ada"].text and html.escape(said) in pages["ada"].html and "<b>" not in pages["ada"].html
    assert "Total: 6 / 7 points (the grader gave 5; your instructor's decisions below make it 6)" in pages["ada"].text
    assert "instructor's decisions" not in pages["ben"].text


# --------------------------------------------------------------------------
# axe-core, light and dark

check_site = load_tool("check_site")
CHROMIUM = check_site.find_chromium()


@needs_chromium(CHROMIUM)
def test_a_feedback_page_passes_axe_in_light_and_dark(tmp_path):
    """A graded page (hostile hints, a 300-character word, the policy, links to the book) and a missing one:
    no serious or critical axe finding in either theme at either width, nothing fetched, and nothing wider
    than a phone's screen."""
    keys = class_keys({"ada": 1, "ben": 2})
    rows = rows_for("s/ada/01-toy-table.ipynb", "ada", wrong=("cosine", "E"), detail=HOSTILE * 3 + "x" * 300)
    pages = feedback.feedback_pages(rows, keys, {"rule": "best"}, policy=StandInPolicy(),
                                    book_url="https://book.example")
    assert [p.status for p in pages] == ["graded", "missing"]
    found, wide = {}, {}
    with check_site.Chromium(CHROMIUM) as browser:
        tab = browser.tab
        for page in pages:
            out = tmp_path / f"{page.learner}.html"
            out.write_text(page.html, encoding="utf-8")
            open_offline(tab, browser, out)
            found[page.learner] = tab.axe(check_site.load_axe())
            tab.set_width(check_site.WIDTHS[-1])
            tab.frame()
            wide[page.learner] = tab.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            tab.set_width(check_site.WIDTHS[0])
    for learner, pairs in found.items():
        assert set(pairs) == {(theme, w) for theme in ("light", "dark") for w in check_site.WIDTHS}
        bad = [(pair, v["id"], v["impact"], v["target"]) for pair, violations in pairs.items() for v in violations
               if v["impact"] in check_site.AXE_FAILS]
        assert bad == [], learner
    assert wide == {"ada": 0, "ben": 0}


def test_a_set_aside_file_decided_by_the_instructor_is_worded_as_it_is(tmp_path):
    """issue 45, item 8: a set-aside learner's page said "see their decision below" (it is above, under
    "Your instructor's decisions") and "the grader gave 0" for a file the guide says is not a zero. The
    page points where the decision is and never calls the set-aside file a 0."""
    from embedlab.grading.policy import load_policy

    keys = class_keys({"ada": 1, "ben": 2})
    path = tmp_path / "policy.toml"
    path.write_text('[[adjustment]]\nlearner = "ben"\nlesson = "01-toy-table"\npoints = 3\n'
                    'reason = "graded by hand from your draft"\n', encoding="utf-8")
    policy = load_policy(path, None, keys)
    rows = rows_for("s/ada/01-toy-table.ipynb", "ada") + [
        dataclasses.replace(r, status="identity_mismatch", points=0.0, detail="x")
        for r in rows_for("s/ben/01-toy-table.ipynb", "ben")]
    how = {"rule": "best", "policy": policy}
    page = {p.learner: p for p in feedback.feedback_pages(rows, keys, how, policy)}["ben"]
    for text in (page.text, page.html):
        decided = text.index("your instructor has decided")
        said = text.index("graded by hand from your draft")
        where = text[decided:decided + 200]
        assert ("above" in where) == (said < decided) and ("below" in where) == (said > decided), where
        assert "the grader gave 0" not in text and "set aside for review" in text
    assert "Total: 3 / 7 points (" in page.text


def test_an_extension_is_shown_on_its_learners_page(tmp_path):
    """issue 45, item 8: the learner's page shows their extension: their own due date and its reason."""
    from embedlab.grading.policy import load_policy

    keys = class_keys({"ada": 1, "ben": 2})
    (tmp_path / "dates.csv").write_text("learner,submitted\nada,2026-10-07T10:00:00\nben,2026-10-05T20:00:00\n",
                                        encoding="utf-8")
    path = tmp_path / "policy.toml"
    path.write_text('[late]\ntimezone = "Europe/London"\nper_day_percent = 10\n\n[lesson."01-toy-table"]\n'
                    'due = 2026-10-05T23:59:00\nsubmitted = "dates.csv"\n\n[[extension]]\nlearner = "ada"\n'
                    'lesson = "01-toy-table"\ndue = 2026-10-08T23:59:00\nreason = "ill, <b>note</b> seen"\n',
                    encoding="utf-8")
    policy = load_policy(path, None, keys)
    rows = rows_for("s/ada/01-toy-table.ipynb", "ada") + rows_for("s/ben/01-toy-table.ipynb", "ben")
    how = {"rule": "best", "policy": policy}
    pages = {p.learner: p for p in feedback.feedback_pages(rows, keys, how, policy)}
    assert "Your own due date: Thursday 8 October 2026, 23:59 (Europe/London) (an extension: ill, <b>note</b> seen)" \
        in pages["ada"].text
    assert "ill, &lt;b&gt;note&lt;/b&gt; seen" in pages["ada"].html and "<b>note" not in pages["ada"].html
    assert "due date" not in pages["ben"].text
