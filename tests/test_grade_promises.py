"""Promises of book/grading.md the blind attack (branch `attack`, attacks/FINDINGS.md) found broken,
each attacked here by its kind, not by the one case the attack used:

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
