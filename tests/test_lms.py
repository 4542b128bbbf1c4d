"""embedlab.grading.lms: rosters (`,` and `;`, BOM), the names Canvas and Moodle give downloaded
submissions, and gradebooks for their imports. Pure functions: no grader runs.

The downloads are built in tmp_path by `canvas_name` and `moodle_path`, which follow the LMSs'
own code step by step (cited in each), and are pinned to literal names first, so a test
does not only agree with the parser it checks.
"""

import csv
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from embedlab.grading import assign, cli, lms

# --------------------------------------------------------------------------
# Names as the LMSs make them


def canvas_name(sortable_name: str, user_id: int, attachment_id: int, display_name: str, late=False) -> str:
    """A file of Canvas's "Download Submissions" zip (lib/content_zipper.rb of canvas-lms)."""
    name = re.sub(r"_(\d+)_", r"\1", sortable_name).lower()  # sanitize_user_name
    prefix = "_".join(part for part in (name, "LATE" if late else None, str(user_id)) if part is not None)
    prefix = re.sub(r"[^\w]", "", prefix)  # sanitize_file_name: gsub(/[^[[:word:]]]/, "")
    display = re.sub(r'[\x00/\\:*?"<>|]+', "_", display_name)  # sanitize_attachment_filename
    return f"{prefix}_{attachment_id}_{display}"  # add_upload_submission


def canvas_resubmitted(display_name: str, n: int) -> str:
    """The name Canvas gives a file uploaded again under a name already used (Attachment.make_unique_filename)."""
    stem, ext = os.path.splitext(display_name)
    return f"{stem}-{n}{ext}"


def moodle_clean_filename(text: str) -> str:
    """Moodle's clean_filename (PARAM_FILE): control characters and & < > " ` | ' : \\ / removed."""
    return re.sub(r"[\x00-\x1f\x7f&<>\"`|':\\/]", "", text)


def moodle_path(full_name: str, participant_id: int, file_name: str, folders=True, trailing_underscore=False) -> str:
    """A file of Moodle's "Download all submissions" (mod/assign/classes/downloader.php, 4.1+;
    mod/assign/locallib.php before it: `trailing_underscore`, Moodle 3.1 to 4.0)."""
    prefix = moodle_clean_filename(full_name.replace("_", " ") + "_" + str(participant_id))
    if folders:
        folder = moodle_clean_filename(prefix + "_assignsubmission_file" + ("_" if trailing_underscore else ""))
        return folder + "/" + file_name
    return moodle_clean_filename(prefix + "_assignsubmission_file_" + file_name)


def test_the_name_builders_give_the_names_the_lms_give():
    # as seen in real downloads (and the issue): name_12345_67890_file.ipynb, Full Name_12345_assignsubmission_file_/
    assert canvas_name("Lovelace, Ada", 101, 9001, "01-toy-table.ipynb") == "lovelaceada_101_9001_01-toy-table.ipynb"
    assert canvas_name("Lovelace, Ada", 101, 9001, "x.ipynb", late=True) == "lovelaceada_LATE_101_9001_x.ipynb"
    assert canvas_name("O_Brien, Ann", 7, 8, "a.ipynb") == "o_brienann_7_8_a.ipynb"
    assert canvas_name("Agent_007_, Jim", 7, 8, "a.ipynb") == "agent007jim_7_8_a.ipynb"
    assert canvas_name("Zoë, Ünal", 7, 8, "my: work?.ipynb") == "zoëünal_7_8_my_ work_.ipynb"
    assert canvas_resubmitted("01-toy-table.ipynb", 1) == "01-toy-table-1.ipynb"
    assert moodle_path("Ada Lovelace", 5001, "01-toy-table.ipynb") == \
        "Ada Lovelace_5001_assignsubmission_file/01-toy-table.ipynb"
    assert moodle_path("Ada Lovelace", 5001, "x.ipynb", trailing_underscore=True) == \
        "Ada Lovelace_5001_assignsubmission_file_/x.ipynb"
    assert moodle_path("Zoë O'Neil_2", 5003, "x.ipynb", folders=False) == \
        "Zoë ONeil 2_5003_assignsubmission_file_x.ipynb"


def build(tmp_path: Path, files: dict) -> Path:
    """A downloaded folder: each relative path -> the learner it is expected to be credited to
    ('' when its LMS id is on no roster row, None when its name gives no LMS id)."""
    root = tmp_path / "download"
    for relative in files:
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}", encoding="utf-8")
    return root


def credited(root: Path, roster: lms.Roster, layout: str) -> dict:
    """Each file under `root` -> the learner its name credits ('' for an id on no row, None for no id)."""
    out = {}
    for top, _dirs, names in os.walk(root):
        for name in names:
            relative = Path(top, name).relative_to(root).as_posix()
            found = lms.submitter_id(relative, layout)
            out[relative] = (roster.by_lms_id(layout, found) or "") if found is not None else None
    return out


ROSTER = """learner,name,canvas_id,moodle_id,email,sid
ada,"Lovelace, Ada",101,5001,ada@uni.example,S1
ben,"Okafor, Ben",102,5002,ben@uni.example,S2
zoe,"O'Neil, Zoë",103,5003,zoe@uni.example,S3
jim,"Agent_007_, Jim",104,5004,jim@uni.example,S4
ann,"O_Brien, Ann",105,5005,ann@uni.example,S5
"""


@pytest.fixture
def roster(tmp_path) -> lms.Roster:
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    return lms.read_roster(path)


# --------------------------------------------------------------------------
# Canvas


def test_canvas_download_credits_each_file_to_the_learner_its_user_id_names(tmp_path, roster):
    files = {
        canvas_name("Lovelace, Ada", 101, 9001, "01-toy-table.ipynb"): "ada",
        canvas_name("Okafor, Ben", 102, 9002, "01-toy-table.ipynb", late=True): "ben",  # LATE
        canvas_name("Okafor, Ben", 102, 9003, canvas_resubmitted("01-toy-table.ipynb", 1)): "ben",  # uploaded again
        canvas_name("O'Neil, Zoë", 103, 9004, "Zoë's 01-toy-table.ipynb"): "zoe",  # accents, apostrophe
        canvas_name("Agent_007_, Jim", 104, 9005, "01-toy-table.ipynb"): "jim",  # digits in the name
        # two readings (the second: a name ending _104_9005_hw, user 123): credited to no one
        canvas_name("Agent_007_, Jim", 104, 9005, "hw_123_456_01-toy-table.ipynb"): None,
        canvas_name("O_Brien, Ann", 105, 9006, "copy_102_9002_01-toy-table.ipynb"): None,  # ben's ids in the file name
        "lovelaceada_late_101_9007_01-toy-table.ipynb": "ada",  # late written in lower case (older downloads)
        canvas_name("Stranger, Sam", 999, 9008, "01-toy-table.ipynb"): "",  # a user id not on the roster
        "anon_Xk29q_9009_01-toy-table.ipynb": None,  # anonymous grading: no user id in the name
        "LATE_anon_12345_9010_1_2_x.ipynb": None,  # anonymous and late, ids that look like a user's
        "01-toy-table.ipynb": None,  # not named by Canvas
        "lovelace ada_101_9011_x.ipynb": None,  # a space: Canvas never keeps one in the name part
    }
    root = build(tmp_path, files)
    assert credited(root, roster, "canvas") == files


def test_canvas_names_are_read_every_way_and_one_with_two_readings_gives_no_id():
    got = lms.parse_download(canvas_name("Agent_007_, Jim", 104, 9005, "hw_x.ipynb", late=True), "canvas")
    assert got == lms.Download("104", "hw_x.ipynb", late=True)
    assert lms.readings(canvas_name("Agent_007_, Jim", 104, 9005, "hw_123_456_x.ipynb", late=True), "canvas") == [
        lms.Download("104", "hw_123_456_x.ipynb", late=True), lms.Download("123", "x.ipynb")]
    assert lms.readings("smith2john_7_8_a_9_10_b.ipynb", "canvas") == [lms.Download("7", "a_9_10_b.ipynb"),
                                                                       lms.Download("9", "b.ipynb")]
    assert lms.parse_download("smith2john_7_8_a_9_10_b.ipynb", "canvas") is None
    assert lms.parse_download("12345_7_8_a.ipynb", "canvas") == lms.Download("7", "a.ipynb")  # a name of digits
    assert lms.parse_download("some/folder/ada_7_8_a.ipynb", "canvas").lms_id == "7"  # the file's name counts
    assert lms.readings("lovelaceada_late_101_9007_x.ipynb", "canvas") == [lms.Download("101", "x.ipynb", late=True)]
    # the lesson is still found in the name Canvas gives (cli.lesson_from_name)
    for name in (canvas_name("Lovelace, Ada", 101, 9001, "01-toy-table.ipynb"),
                 canvas_name("Lovelace, Ada", 101, 9001, canvas_resubmitted("01-toy-table.ipynb", 2), late=True)):
        assert cli.lesson_from_name(Path(name)) == "01-toy-table"


def test_a_download_name_that_reads_two_ways_is_credited_to_no_one_and_says_why(tmp_path, roster):
    """Issue 34: a learner whose sortable name ends in `_101` (ada's Canvas id) uploads a file Canvas names
    `oneilzoë_101_103_9903_…`, which reads as ada's upload too. Every name with more than one reading
    (the name side, the file side, a learner on no roster row, a patched Moodle keeping underscores)
    is set aside by embedlab-grade (unknown_submitter, credited to no one), each reading named."""
    ambiguous = {
        "canvas": [
            canvas_name("O'Neil, Zoë_101", 103, 9903, "01-toy-table.ipynb"),  # the case
            canvas_name("O'Neil, Zoë_101 _9", 103, 9904, "01-toy-table.ipynb"),  # _101_9 survives: three readings
            canvas_name("Okafor, Ben", 102, 9905, "x_101_9001_01-toy-table.ipynb"),  # ada's ids on the file side
            canvas_name("Stranger, Sam_101", 999, 9906, "01-toy-table.ipynb"),  # its author on no row
        ],
        "moodle": ["Zoë_ONeil_5003_assignsubmission_file_x_5001_assignsubmission_file_01-toy-table.ipynb"],
    }
    honest = {"canvas": canvas_name("Lovelace, Ada", 101, 9001, "01-toy-table.ipynb"),
              "moodle": moodle_path("Ada Lovelace", 5001, "01-toy-table.ipynb", folders=False)}
    for layout, names in ambiguous.items():
        root = build(tmp_path / layout, dict.fromkeys(names + [honest[layout]]))
        subs = {s.path.name: s for s in cli.identify(cli.find_submissions([str(root)]), layout, roster)}
        assert subs[Path(honest[layout]).name].submitter == "ada"
        for name in names:
            sub = subs[name]
            assert (sub.submitter, sub.problem_status) == (None, "unknown_submitter"), (name, sub.submitter)
            assert "reads" in sub.problem and "credited to no one" in sub.problem
            assert "learner ada's" in sub.problem, sub.problem  # the reading that would have credited ada
    three = cli.identify(cli.find_submissions([str(tmp_path / "canvas" / "download" / ambiguous["canvas"][1])]),
                         "canvas", roster)[0]
    assert "reads 3 ways" in three.problem and three.problem.count("Canvas id") == 3


# --------------------------------------------------------------------------
# Moodle


def test_moodle_download_in_folders_credits_each_folder_to_its_participant(tmp_path, roster):
    files = {
        moodle_path("Ada Lovelace", 5001, "01-toy-table.ipynb"): "ada",  # Moodle 4.1+
        moodle_path("Ben Okafor", 5002, "01-toy-table.ipynb", trailing_underscore=True): "ben",  # Moodle 3.1-4.0
        moodle_path("Zoë O'Neil", 5003, "work/01-toy-table.ipynb"): "zoe",  # a folder inside the submission
        moodle_path("Agent_007_ Jim", 5004, "01-toy-table.ipynb"): "jim",  # underscores and digits in the name
        moodle_path("Participant", 5005, "01-toy-table.ipynb"): "ann",  # blind marking
        # a learner's own file or folder inside their folder, named as another's: the outer folder is Moodle's
        moodle_path("Ada Lovelace", 5001, moodle_path("Ben Okafor", 5002, "x.ipynb", folders=False)): "ada",
        moodle_path("Ada Lovelace", 5001, moodle_path("Ben Okafor", 5002, "y.ipynb")): "ada",
        moodle_path("Sam Stranger", 9999, "01-toy-table.ipynb"): "",  # not on the roster
        "Ada Lovelace_5001_assignsubmission_onlinetext/onlinetext.html": None,  # another plugin: not a file submission
        "notes/01-toy-table.ipynb": None,
    }
    root = build(tmp_path, files)
    assert credited(root, roster, "moodle") == files


def test_moodle_download_without_folders_reads_the_prefix_of_each_file(tmp_path, roster):
    files = {
        moodle_path("Ada Lovelace", 5001, "01-toy-table.ipynb", folders=False): "ada",
        moodle_path("Zoë O'Neil_2", 5003, "01-toy-table.ipynb", folders=False): "zoe",
        moodle_path("Ben Okafor", 5002, "my_7_assignsubmission_file_01-toy-table.ipynb", folders=False): "ben",
        moodle_path("Jim 2", 5004, "01-toy-table.ipynb", folders=False): "jim",
        moodle_path("Participant", 5005, "01-toy-table.ipynb", folders=False): "ann",
        "Ada Lovelace_5001_01-toy-table.ipynb": None,  # no plugin part: not Moodle's naming
    }
    root = build(tmp_path, files)
    assert credited(root, roster, "moodle") == files
    assert lms.parse_download(moodle_path("Ben Okafor", 5002, "my_7_assignsubmission_file_x.ipynb", folders=False),
                              "moodle").original == "my_7_assignsubmission_file_x.ipynb"


def test_moodle_ids_per_lesson(tmp_path):
    # Moodle's participant id is per assignment: one column per lesson's assignment
    path = tmp_path / "roster.csv"
    path.write_text("learner,moodle_id:01-toy-table,Moodle ID:02-lookup-vs-matmul\nada,11,21\nben,12,22\n",
                    encoding="utf-8")
    roster = lms.read_roster(path, layout="moodle")
    assert roster.by_lms_id("moodle", "21", lesson="02-lookup-vs-matmul") == "ada"
    assert roster.by_lms_id("moodle", "21", lesson="01-toy-table") is None
    assert roster.by_lms_id("moodle", "12", lesson="01-toy-table") == "ben"
    with pytest.raises(ValueError, match="moodle_id:03-counting-gpt2"):
        roster.by_lms_id("moodle", "12", lesson="03-counting-gpt2")
    path.write_text("learner,moodle_id:01-toy-tabel\nada,11\n", encoding="utf-8")
    with pytest.raises(ValueError, match="moodle_id:01-toy-tabel"):
        lms.read_roster(path)


def test_folders_layout_and_unknown_layouts(roster):
    assert lms.submitter_id("Ada/01-toy-table.ipynb", "folders") == "Ada"
    assert roster.by_lms_id("folders", "Ada") == "ada"  # folders are matched without case
    assert lms.submitter_id("01-toy-table.ipynb", "folders") is None
    assert lms.submitter_id("../ada/x.ipynb", "folders") is None
    assert lms.LAYOUTS == ("folders", "canvas", "moodle")
    with pytest.raises(ValueError, match="'blackboard'"):
        lms.submitter_id("x.ipynb", "blackboard")
    with pytest.raises(ValueError, match="'blackboard'"):
        roster.by_lms_id("blackboard", "1")


# --------------------------------------------------------------------------
# Rosters


def test_roster_with_commas_and_with_semicolons_and_bom_read_the_same(tmp_path):
    rows = [["learner", "name", "Canvas ID", "email"], ["ada", "Lovelace, Ada", "101", "Ada@Uni.example"],
            ["ben", "Okafor; Ben", "102", "ben@uni.example"], ["", "", "", ""], ["zoe", "Zoë", "103", "zoe@u.example"]]
    read = []
    for sep, name in ((",", "comma.csv"), (";", "semicolon.csv")):
        path = tmp_path / name
        with open(path, "w", newline="", encoding="utf-8-sig") as f:  # a BOM, as Excel's "CSV UTF-8" writes
            csv.writer(f, delimiter=sep).writerows(rows)
        assert path.read_bytes().startswith(b"\xef\xbb\xbflearner" + sep.encode())
        read.append(lms.read_roster(path))
    path = tmp_path / "excel.csv"  # an Excel "sep=;" line first
    path.write_text("sep=;\n" + "\n".join(";".join(f'"{c}"' for c in row) for row in rows) + "\n", encoding="utf-8")
    read.append(lms.read_roster(path))
    for roster in read:
        assert roster.learners == ("ada", "ben", "zoe")
        assert roster.columns == ("learner", "name", "canvas_id", "email")
        assert roster.value("ben", "name") == "Okafor; Ben"
        assert roster.value("ada", "name") == "Lovelace, Ada"
        assert roster.by_lms_id("canvas", "103") == "zoe"
        assert roster.has("email") and not roster.has("moodle_id")


@pytest.mark.parametrize("text, message", [
    ("learner,email,Email\nada,a@x.org,b@x.org\n", "column 'Email' twice"),
    ("learner;name;learner\nada;A;ada\n", "column 'learner' twice"),
    ("name,canvas_id\nAda,101\n", "no 'learner' column"),
    ("learner,canvas_id\nada,101\nAda,102\n", "line 3: learner 'Ada' repeats line 2"),
    ("learner,canvas_id\nada,101\nben,101\n", "line 3: canvas_id '101' repeats line 2"),
    ("learner,email\nada,a@x.org\nben,A@X.org\n", "line 3: email 'A@X.org' repeats line 2"),
    ("learner,canvas_id\nada,101\nben,\n", "line 3: empty canvas_id for learner 'ben'"),
    ("learner,canvas_id\nada,101\n,102\n", "line 3: empty learner"),
    # a term with sections on two LMSs: an id of the other LMS may be empty, not every id, nor one that the
    # rest of the learner's section has, nor the section itself
    ("learner,canvas_id,moodle_id:04-modern-blocks\nada,101,\nben,,\n",
     "line 3: empty canvas_id and moodle_id:04-modern-blocks for learner 'ben'"),
    ("learner,section,canvas_id,moodle_id\nada,A,101,\nben,B,,5002\ncy,A,,5003\n",
     "line 4: canvas_id is empty for learner 'cy' of section 'A', unlike the section's first learner \\(line 2\\)"),
    ("learner,section,canvas_id,moodle_id\nada,A,101,\ncy,A,103,5003\n",
     "line 3: moodle_id is given for learner 'cy' of section 'A'"),
    ("learner,section,canvas_id\nada,A,101\nben,,102\n", "line 3: empty section for learner 'ben'"),
    ("learner,canvas_id\nada,1.01E+13\n", "canvas_id '1.01E\\+13' is not a number"),
    ("learner,email\nada,ada\n", "email 'ada' is not an email address"),
    ("learner,canvas_id,name\nada,101,Lovelace, Ada\n", "line 2, has 4 cells but the header 3"),
    ("learner\n", "lists no learner"),
    ("", "is empty"),
])
def test_bad_rosters_are_refused_naming_what_is_wrong(tmp_path, text, message):
    path = tmp_path / "roster.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        lms.read_roster(path)


def test_rosters_not_in_utf8_are_refused_saying_how_to_save_them(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_bytes("learner,name\nzoe,Zoë\n".encode("cp1252"))
    with pytest.raises(ValueError, match="not UTF-8.*CSV UTF-8"):
        lms.read_roster(path)
    path.write_text("learner,name\nzoe,Zoë\n", encoding="utf-16")
    with pytest.raises(ValueError, match="UTF-16.*CSV UTF-8"):
        lms.read_roster(path)
    with pytest.raises(ValueError, match="cannot read the roster"):
        lms.read_roster(tmp_path / "missing.csv")


def test_a_layout_needs_its_id_column(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text("learner,email\nada,a@x.org\n", encoding="utf-8")
    roster = lms.read_roster(path, layout="folders")
    for layout, column in (("canvas", "canvas_id"), ("moodle", "moodle_id")):
        with pytest.raises(ValueError, match=f"layout '{layout}' needs a '{column}' column"):
            lms.read_roster(path, layout=layout)
        with pytest.raises(ValueError, match=f"'{column}'"):
            roster.by_lms_id(layout, "101")


@pytest.mark.parametrize("learner", ["ada", "a.b-c+d@x.org", "-ada", "ada lovelace", "instructor-keys",
                                     "Instructor-Keys", "x" * 64, "x" * 65, "élise"])
def test_learner_ids_follow_embedlab_assign(tmp_path, learner):
    """The roster accepts a learner id exactly when embedlab-assign's roster does."""
    path = tmp_path / "roster.csv"
    path.write_text(f"learner\n{learner}\n", encoding="utf-8")
    try:
        assign.read_roster(path)
        assign_ok = True
    except assign.AssignError:
        assign_ok = False
    try:
        lms.read_roster(path)
        lms_ok = True
    except ValueError as exc:
        assert f"learner {learner!r} is not a safe learner id" in str(exc)
        lms_ok = False
    assert lms_ok == assign_ok


# --------------------------------------------------------------------------
# Gradebooks

LESSONS = ["01-toy-table", "02-lookup-vs-matmul"]
MAX = {"01-toy-table": 7, "02-lookup-vs-matmul": 6.5}
POINTS = {("ada", "01-toy-table"): 7.0, ("ada", "02-lookup-vs-matmul"): 2.5,
          ("ben", "01-toy-table"): 0.0, ("ben", "02-lookup-vs-matmul"): None,  # None: not graded
          ("zoe", "02-lookup-vs-matmul"): 6.5}  # zoe has no 01 entry: not graded either


def read_back(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


@pytest.fixture
def small_roster(tmp_path) -> lms.Roster:
    path = tmp_path / "roster.csv"
    path.write_text("learner;name;canvas_id;email;sid\nada;Lovelace, Ada;101;ada@u.example;S1\n"
                    "ben;=HYPERLINK(\"x\");102;ben@u.example;S2\nzoe;;103;zoe@u.example;-3\n"
                    "jim;Jim;104;jim@u.example;S4\n",
                    encoding="utf-8-sig")
    return lms.read_roster(path)


def test_canvas_gradebook(tmp_path, small_roster):
    out = tmp_path / "canvas.csv"
    lms.write_gradebook(out, small_roster, POINTS, LESSONS, MAX, "canvas")
    rows = read_back(out)
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
                       "01-toy-table", "02-lookup-vs-matmul", "Final Points"]
    assert rows[1] == ["Points Possible", "", "", "", "", "7", "6.5", "(read only)"]
    students = rows[2:]
    assert [r[0] for r in students] == ["Lovelace, Ada", "'=HYPERLINK(\"x\")", "zoe", "Jim"]  # name, or the id
    assert [r[1] for r in students] == ["101", "102", "103", "104"]  # ID: Canvas's user id
    assert [r[2] for r in students] == ["S1", "S2", "'-3", "S4"]  # SIS User ID
    assert [r[3] for r in students] == ["", "", "", ""] and [r[4] for r in students] == ["", "", "", ""]
    assert [r[5] for r in students] == ["7", "0", "", ""]  # 0 is a grade; not graded stays empty
    assert [r[6] for r in students] == ["2.5", "", "6.5", ""]
    assert [r[7] for r in students] == ["9.5", "0", "6.5", ""]


def test_moodle_gradebook(tmp_path, small_roster):
    out = tmp_path / "moodle.csv"
    lms.write_gradebook(out, small_roster, POINTS, LESSONS, MAX, "moodle",
                        titles={"01-toy-table": "Lesson 1: a toy table"})
    rows = read_back(out)
    assert rows[0] == ["Full name", "Email address", "ID number", "Lesson 1: a toy table", "02-lookup-vs-matmul",
                       "Total"]
    assert [r[1] for r in rows[1:]] == ["ada@u.example", "ben@u.example", "zoe@u.example", "jim@u.example"]
    assert [r[2] for r in rows[1:]] == ["S1", "S2", "'-3", "S4"]
    assert [r[3] for r in rows[1:]] == ["7", "0", "-", "-"]  # '-': Moodle's "no grade"
    assert [r[4] for r in rows[1:]] == ["2.5", "-", "6.5", "-"]
    assert [r[5] for r in rows[1:]] == ["9.5", "0", "6.5", "-"]


def test_plain_gradebook(tmp_path, small_roster):
    out = tmp_path / "plain.csv"
    lms.write_gradebook(out, small_roster, POINTS, LESSONS, MAX, "plain")
    assert read_back(out) == [["learner", "01-toy-table", "02-lookup-vs-matmul", "total"],
                              ["ada", "7", "2.5", "9.5"], ["ben", "0", "", "0"], ["zoe", "", "6.5", "6.5"],
                              ["jim", "", "", ""]]
    assert lms.GRADEBOOK_FORMATS == ("plain", "canvas", "moodle")
    # numbers as numpy gives them are numbers
    numpy_points = {("ada", "01-toy-table"): np.int64(7), ("ben", "01-toy-table"): np.float32(1.5)}
    lms.write_gradebook(out, small_roster, numpy_points,
                        LESSONS, {"01-toy-table": np.float64(7), "02-lookup-vs-matmul": 6.5}, "plain")
    assert [row[1] for row in read_back(out)] == ["01-toy-table", "7", "1.5", "", ""]


@pytest.mark.parametrize("change, message", [
    ({"points": {("sam", "01-toy-table"): 1.0}}, "learner 'sam', who is not on the roster"),
    ({"points": {("ada", "03-counting-gpt2"): 1.0}}, "lesson '03-counting-gpt2' for 'ada'"),
    ({"points": {("ada", "01-toy-table"): 7.5}}, "points of 'ada' in '01-toy-table' must be a number from 0 to 7"),
    ({"points": {("ada", "01-toy-table"): -1}}, "got -1"),
    ({"points": {("ada", "01-toy-table"): float("nan")}}, "got nan"),
    ({"points": {("ada", "01-toy-table"): "7"}}, "got '7'"),
    ({"points": {("ada", "01-toy-table"): True}}, "got True"),
    ({"max_points": {"01-toy-table": 7}}, "max_points has no entry for lesson '02-lookup-vs-matmul'"),
    ({"fmt": "blackboard"}, "'blackboard'"),
    ({"lessons": []}, "lessons is empty"),
    ({"titles": {"01-toy-table": "total"}}, "repeat a name"),
])
def test_bad_gradebook_input_is_refused_and_nothing_is_written(tmp_path, small_roster, change, message):
    out = tmp_path / "gradebook.csv"
    out.write_text("the previous gradebook\n", encoding="utf-8")
    args = {"points": POINTS, "lessons": LESSONS, "max_points": MAX, "fmt": "plain", "titles": None} | change
    with pytest.raises(ValueError, match=message):
        lms.write_gradebook(out, small_roster, args["points"], args["lessons"], args["max_points"], args["fmt"],
                            titles=args["titles"])
    assert out.read_text(encoding="utf-8") == "the previous gradebook\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gradebook.csv", "roster.csv"]


def test_an_lms_gradebook_needs_the_ids_that_lms_matches_on(tmp_path):
    path = tmp_path / "roster.csv"
    path.write_text("learner,name,moodle_id\nada,Ada,5001\n", encoding="utf-8")
    roster = lms.read_roster(path)
    with pytest.raises(ValueError, match="'canvas' needs a canvas_id .* or sid"):
        lms.write_gradebook(tmp_path / "g.csv", roster, {}, LESSONS, MAX, "canvas")
    with pytest.raises(ValueError, match="'moodle' needs an email or sid"):
        lms.write_gradebook(tmp_path / "g.csv", roster, {}, LESSONS, MAX, "moodle")
    assert not (tmp_path / "g.csv").exists()


def test_a_canvas_gradebook_refuses_a_learner_canvas_cannot_find(tmp_path):
    """A term's roster: Moodle's learners have no canvas_id. A Canvas gradebook holding one of them (a run
    that did not keep to the Canvas section) is refused, naming the learner: Canvas's import would find
    them by name, or not at all. The Canvas section's own learners are written."""
    path = tmp_path / "roster.csv"
    path.write_text("learner,name,email,section,canvas_id,moodle_id\nada,Ada,a@x.org,A,101,\n"
                    "di,Di,d@x.org,B,,5004\n", encoding="utf-8")
    roster = lms.read_roster(path)
    with pytest.raises(ValueError, match="learner 'di' has no canvas_id or sid"):
        lms.write_gradebook(tmp_path / "g.csv", roster, {}, LESSONS, MAX, "canvas")
    assert not (tmp_path / "g.csv").exists()
    lms.write_gradebook(tmp_path / "g.csv", roster.only(roster.in_section(["A"])), {}, LESSONS, MAX, "canvas")
    assert "101" in (tmp_path / "g.csv").read_text(encoding="utf-8")


def test_lms_does_not_import_the_cli_when_imported():
    """cli imports lms (to wire --roster, --layout, --gradebook), so lms reaches cli's
    atomic_output and csv_cell only when writing: a module-level import would be a cycle."""
    code = "import sys, embedlab.grading.lms; print('embedlab.grading.cli' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_one_file_or_one_learners_folder_of_a_moodle_download_is_credited_as_in_the_whole_download(tmp_path,
                                                                                                    roster):
    """A regrade request (--explain) names one file, or the learner's folder: Moodle's naming is on the
    folder, so it is read there too, as in a run over the whole download; a download folder whose own name
    does not follow the naming changes nothing."""
    files = {moodle_path("Ada Lovelace", 5001, "01-toy-table.ipynb"): "ada",
             moodle_path("Ben Okafor", 5002, "01-toy-table.ipynb", trailing_underscore=True): "ben",
             moodle_path("Zoë O'Neil", 5003, "work/01-toy-table.ipynb"): "zoe",
             moodle_path("Ann OBrien", 5005, "01-toy-table.ipynb", folders=False): "ann"}
    root = build(tmp_path, files)
    whole = {s.path: s.submitter for s in cli.identify(cli.find_submissions([str(root)]), "moodle", roster)}
    assert sorted(whole.values()) == sorted(files.values())
    for relative, learner in files.items():
        path = root / relative
        alone = cli.identify(cli.find_submissions([str(path)]), "moodle", roster)
        assert [s.submitter for s in alone] == [learner], relative
        folder = root / Path(relative).parts[0]
        if folder.is_dir():
            assert [s.submitter for s in cli.identify(cli.find_submissions([str(folder)]), "moodle", roster)] == \
                [learner], relative
