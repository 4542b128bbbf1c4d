"""Promises of book/grading.md the blind attack (branch `attack`, attacks/FINDINGS.md) found broken,
each attacked here by its kind, not by the one case the attack used:

* B1 "nothing one submission does changes another's score": a classmate hands in a blank copy of
  another learner's handout (anyone can make it from the public bundle), newer than the learner's own,
  graded with --latest. In a learner's folder it is identity_mismatch; in a shared folder, where only
  metadata names the learner, the learner's files are set aside for review (both listed, no points),
  never resolved by recency to the blank one; --best and --trust-metadata do what their help says.
* B3 "a page never shows your folders' paths": a learner's own error text made of what the sandbox can
  read (the interpreter's prefix, embedlab's path, PATH, the sandbox's bind sources from /proc/1/cmdline)
  reaches their feedback page and the CSV with every grading-machine folder replaced.
* M2: a cell whose exception text the kernel cannot send (a lone surrogate) is `error`, not
  `not_attempted`.
* B4 "every file of the download ends in a row": a folder the walk cannot list (nested past
  PATH_MAX, or unreadable) gets an `unreadable` row and is named in the summary, never skipped.
"""

import csv
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from embedlab.grading import assign
from embedlab.grading.judge import Row
from embedlab.grading.results import totals

from solution_runner import notebook

ROOT = Path(__file__).resolve().parent.parent
LESSON = "01-toy-table"


def grade(*args, cwd):
    return subprocess.run([sys.executable, "-m", "embedlab.grading", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def rows_of(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def deep_folder(top: Path, levels: int, name: str) -> None:
    """`levels` folders under `top`, made one at a time through folder descriptors (the whole path is
    past PATH_MAX, so no single path names it), and a notebook `name` at the bottom."""
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(levels):
            os.mkdir("dddd", dir_fd=fd)
            below = os.open("dddd", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = below
        out = os.open(name, os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(out, nbformat.writes(notebook("exercises", LESSON)).encode())
        os.close(out)
    finally:
        os.close(fd)


def test_a_folder_the_walk_cannot_read_ends_in_a_row_and_the_summary_names_it(tmp_path, request):
    sub = tmp_path / "sub"
    sub.mkdir()
    # GNU rm walks by descriptors; pytest's own clean-up of old temp folders would recurse past Python's limit
    request.addfinalizer(lambda: subprocess.run(["rm", "-rf", str(sub)], check=True))
    deep_folder(sub, 1500, "gus_107_9419_deep-01-toy-table.ipynb")  # 7,500 bytes of path: past PATH_MAX
    shut = sub / "shut"
    shut.mkdir()
    (shut / "ben_102_9420_ben-01-toy-table.ipynb").write_text("{}")
    shut.chmod(0)
    try:
        readable = os.access(shut, os.R_OK)  # root reads a folder of mode 0: then only the deep one is unread
        done = grade(sub, "--out", tmp_path / "scores.csv", "-q", cwd=tmp_path)
    finally:
        shut.chmod(0o755)
    assert (tmp_path / "scores.csv").exists(), (done.returncode, done.stdout[-2000:], done.stderr[-3000:])
    rows = rows_of(tmp_path / "scores.csv")
    unread = {r["submission"] for r in rows if r["status"] == "unreadable" and "could not be read" in r["detail"]}
    assert any(label.count("dddd/") > 500 for label in unread), (done.stdout, done.stderr)
    assert readable or any(label.endswith("shut") for label in unread), unread
    assert "could not be read" in done.stdout + done.stderr



def test_the_summary_lines_up_full_width_names_and_caps_a_deep_label():
    from embedlab.grading.judge import Row
    from embedlab.grading.results import SUMMARY_WIDTH, summary
    from embedlab.grading.text import display_width

    labels = ["hal\uff3f\uff11\uff10\uff11-01-toy-table.ipynb", "ada-01-toy-table.ipynb", "x/" * 400 + "a.ipynb"]
    rows = [Row(label, LESSON, "E", 1.0, 1.0, "correct", "") for label in labels]
    lines = summary(rows).splitlines()
    starts = {display_width(line[:line.index(f"  {LESSON}  ") + 2]) for line in lines[1:3]}
    assert starts == {display_width(lines[0][:lines[0].index("lesson")])}, lines[:3]
    assert max(display_width(line) for line in lines[:3]) < SUMMARY_WIDTH + 60


SECRET = b"test-secret-of-the-grade-promises"
# What a submission can read of the machine, in the error text the grader reports back to its learner
RECON = """import os, sys, embedlab
binds = [a for a in open('/proc/1/cmdline', 'rb').read().decode('utf-8', 'replace').split(chr(0))
         if a.startswith('/') and not a.startswith(('/usr', '/bin', '/lib', '/sbin', '/etc', '/proc', '/dev', '/tmp'))]
raise RuntimeError(' '.join([sys.prefix, embedlab.__file__, os.environ.get('PATH', '')] + binds))
"""


@pytest.fixture(scope="module")
def latest(tmp_path_factory):
    """One assign (K = 2) of ada, ben and hal, and ONE --latest grading run of: ada's solved notebook and
    hal's blank copy of ada's handout, newer, in a shared folder (inbox/); ben's solved notebook in his
    folder and hal's blank copy of ben's handout, newer, in hal's folder."""
    tmp = tmp_path_factory.mktemp("latest")
    (tmp / "roster.csv").write_text("learner\nada\nben\nhal\n")
    (tmp / "secret.txt").write_bytes(SECRET + b"\n")
    assert assign.main([LESSON, "--roster", str(tmp / "roster.csv"), "--secret-file", str(tmp / "secret.txt"),
                        "--variants", "2", "--out", str(tmp / "class"), "--solutions", str(tmp / "released"),
                        "-j", "2"]) == 0
    solved = lambda who: (tmp / "released" / who / assign.solution_name(LESSON)).read_bytes()  # noqa: E731
    blank = lambda who: (tmp / "class" / who / f"{LESSON}.ipynb").read_bytes()  # noqa: E731
    sub = tmp / "sub"
    surrogate = nbformat.reads(solved("ada").decode(), as_version=4)  # n_params's cell raises a lone surrogate
    cell = next(c for c in surrogate.cells if c.cell_type == "code"
                and any(line.startswith("n_params =") for line in c.source.splitlines()))
    cell.source = "raise ValueError('\\ud800')\n" + cell.source
    recon = nbformat.reads(blank("hal").decode(), as_version=4)
    recon.cells.insert(3, nbformat.v4.new_code_cell(RECON))
    files = {"inbox/ada-01-toy-table.ipynb": solved("ada"), "inbox/zz-hal-01-toy-table.ipynb": blank("ada"),
             "ben/01-toy-table.ipynb": solved("ben"), "hal/01-toy-table.ipynb": blank("ben"),
             "hal/recon-01-toy-table.ipynb": nbformat.writes(recon).encode(),
             "ada/surrogate-01-toy-table.ipynb": nbformat.writes(surrogate).encode()}
    for i, (name, data) in enumerate(files.items()):
        (sub / name).parent.mkdir(parents=True, exist_ok=True)
        (sub / name).write_bytes(data)
        os.utime(sub / name, (1_700_000_000 + 3600 * (i % 2), 1_700_000_000 + 3600 * (i % 2)))  # the copy newer
    done = grade(sub, "--keys", tmp / "class" / "instructor-keys", "--latest", "--out", tmp / "scores.csv",
                 "--totals", tmp / "totals.csv", "--gradebook", tmp / "gradebook.csv", "--feedback", tmp / "feedback", "-j", "2", cwd=tmp)
    assert done.returncode == 0, done.stderr[-3000:]
    return {"tmp": tmp, "done": done, "rows": rows_of(tmp / "scores.csv"),
            "totals": {(t["learner"], t["lesson"]): t for t in rows_of(tmp / "totals.csv")},
            "gradebook": {r["learner"]: r for r in rows_of(tmp / "gradebook.csv")}}


def points_of(rows, label_end):
    return sum(float(r["points"] or 0) for r in rows if r["submission"].endswith(label_end))


def test_the_honest_files_score_full_and_the_copies_zero(latest):
    assert points_of(latest["rows"], "inbox/ada-01-toy-table.ipynb") == 7
    assert points_of(latest["rows"], "ben/01-toy-table.ipynb") == 7
    assert points_of(latest["rows"], "inbox/zz-hal-01-toy-table.ipynb") == 0


def test_a_copy_in_a_classmates_folder_never_replaces_the_learners_file(latest):
    copy = {r["status"] for r in latest["rows"] if r["submission"].endswith("hal/01-toy-table.ipynb")}
    assert copy == {"identity_mismatch"}
    ben = latest["totals"]["ben", LESSON]
    assert (ben["status"], ben["points"], ben["counted"][-len("ben/01-toy-table.ipynb"):]) == (
        "graded", "7", "ben/01-toy-table.ipynb")


def test_a_newer_copy_in_a_shared_folder_is_not_resolved_by_recency(latest):
    ada = latest["totals"]["ada", LESSON]
    assert ada["status"] == "review" and ada["points"] == "" and ada["final"] == ""
    assert "ada-01-toy-table.ipynb" in ada["counted"] and "zz-hal-01-toy-table.ipynb" in ada["counted"]
    assert latest["gradebook"]["ada"][next(c for c in latest["gradebook"]["ada"] if c.startswith(LESSON))] == ""
    page = (latest["tmp"] / "feedback" / "learners" / "ada" / f"{LESSON}-feedback.txt").read_text()
    assert "set aside for review" in page and " 0 / 7" not in page, page
    said = latest["done"].stderr
    assert "set aside for review" in said and "ada, 01-toy-table:" in said and "zz-hal-01-toy-table" in said


def rows(label, points, learner):
    return [Row(label, LESSON, "E", points, 7.0, "correct" if points else "not_attempted", "", learner)]


def test_best_and_trust_metadata_resolve_a_shared_folder_as_documented(latest):
    from embedlab.grading.keys import load_keys

    keys = load_keys(latest["tmp"] / "class" / "instructor-keys")
    found = rows("in/ada.ipynb", 7.0, "ada") + rows("in/zz.ipynb", 0.0, "ada")
    how = dict(mtimes={"in/ada.ipynb": (-1, 1.0), "in/zz.ipynb": (-1, 2.0)}, placed=frozenset())
    pick = {(t.learner, t.status, t.points, t.counted) for t in totals(found, keys, rule="best", **how)}
    assert ("ada", "graded", 7.0, "in/ada.ipynb") in pick  # --best: a file never lowers another's points
    pick = {(t.learner, t.status, t.points, t.counted)
            for t in totals(found, keys, rule="latest", trust_metadata=True, **how)}
    assert ("ada", "graded", 0.0, "in/zz.ipynb") in pick  # the instructor's choice: the newest counts
    placed = dict(how, placed=frozenset({"in/ada.ipynb", "in/zz.ipynb"}))  # one learner's own folder
    pick = {(t.learner, t.status, t.points) for t in totals(found, keys, rule="latest", **placed)}
    assert ("ada", "graded", 0.0) in pick  # their own newer file counts, as --latest says


def test_a_feedback_page_never_shows_the_grading_machines_folders(latest):
    from embedlab.grading import sandbox
    from embedlab.grading.text import MACHINE_PATH, machine_paths

    tmp = latest["tmp"]
    page = (tmp / "feedback" / "learners" / "hal" / f"{LESSON}-feedback.txt").read_text()
    details = " ".join(r["detail"] for r in latest["rows"] if r["submission"].endswith("recon-01-toy-table.ipynb"))
    assert "RuntimeError" in page and MACHINE_PATH in page and MACHINE_PATH in details, page
    folders = set(machine_paths()) | set(sandbox.python_roots()) | {str(tmp), str(ROOT), sys.prefix}
    for text in (page, details):
        for folder in folders:
            if folder not in ("/", "/usr", "/tmp"):
                assert folder not in text, (folder, text[:2000])


def test_explain_never_says_an_undefined_answer_was_submitted(capsys):
    from embedlab.grading import regrade, wire
    from embedlab.grading.grader import Trace

    trace = Trace()
    trace.submitted = {"n_params": {wire.MISSING: True}, "E": {wire.NOT_ATTEMPTED: "`E` is still None"},
                       "batch": {wire.DATA: 3}}
    for name in trace.submitted:
        regrade._explain_row(Row("f.ipynb", LESSON, name, 0.0, 1.0, "error", "", "ada"), trace)
    out = capsys.readouterr().out
    assert "submitted: nothing (the answer is not defined)" in out and "submitted: True" not in out, out
    assert "submitted: no value (not_attempted: `E` is still None)" in out and "submitted: 3" in out, out


def test_an_error_whose_text_the_kernel_cannot_send_is_an_error_not_not_attempted(latest):
    got = {r["question"]: (r["status"], r["detail"]) for r in latest["rows"]
           if r["submission"].endswith("ada/surrogate-01-toy-table.ipynb")}
    assert got["n_params"][0] == "error" and "no error output came" in got["n_params"][1], got
    assert got["E"][0] == "correct", got  # the other answers are judged as ever
