"""book/a-term.md, run as written: every command of the page, in its order, on a class of three.

The page is the instructor's walk through a term (assign, hand out, collect, grade, policy, hand
back, release). Its console blocks are read from the page itself and run in a folder of their own,
with its roster and its policy blocks as the files they name; between the steps the test plays the
learners and the LMS: Ada hands in a right notebook, Ben one with a wrong answer, Cy a right one that
Canvas marked late. What each step must have written is then checked, and what the page says of it
(Ben's adjustment in his total and his feedback, Cy's late penalty, the zips named for each LMS, the
handout made from the bundle byte for byte). One change for time only: the first assign command
gets `--variants 3` (the page leaves K at its default, 8; K changes nothing in the steps); the
release, as the page writes it, takes K from the keys it is given.
"""

from __future__ import annotations

import csv
import os
import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from embedlab.grading.keys import KEYS_DIR, load_keys
from embedlab.grading.variants import with_parameters

from solution_runner import ROOT, answer_cell

PAGE = ROOT / "book" / "a-term.md"
LESSON = "01-toy-table"
BIN = Path(sys.executable).parent


def blocks(kind: str) -> list[str]:
    """The page's fenced blocks of one kind (console, toml, text), in order."""
    text = PAGE.read_text(encoding="utf-8")
    return re.findall(rf"^```{kind}\n(.*?)^```", text, flags=re.S | re.M)


def commands() -> list[str]:
    """Every `$ ` command of the page's console blocks, continuation lines joined."""
    out = []
    for block in blocks("console"):
        for command in re.split(r"^\$ ", block, flags=re.M)[1:]:
            out.append(" ".join(line.rstrip("\\").strip() for line in command.strip().splitlines()))
    return out


def named(word: str) -> str:
    found = [c for c in commands() if c.startswith(word)]
    assert len(found) >= 1, f"the page has no command starting {word!r}"
    return found


def run(command: str, cwd: Path, *extra: str) -> subprocess.CompletedProcess:
    argv = shlex.split(command) + list(extra)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    """The term run as the page says, up to the release; what each step wrote."""
    home = tmp_path_factory.mktemp("term")
    texts, tomls = blocks("text"), blocks("toml")
    roster = next(b for b in texts if b.startswith("learner,"))
    (home / "roster.csv").write_text(roster, encoding="utf-8")
    learners = [row["learner"] for row in csv.DictReader(roster.splitlines())]
    (home / "policy.toml").write_text(tomls[0], encoding="utf-8")
    secret, = [c for c in commands() if "secrets" in c]
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run(secret, shell=True, cwd=home, env=env, check=True, timeout=60)  # noqa: S602 - the page's own line
    assert len((home / "secret.txt").read_text().strip()) == 64

    # 1. assign
    assign, release = named("embedlab-assign")
    run(assign, home, "--variants", "3")
    keys = load_keys(home / "class" / KEYS_DIR)[LESSON]

    # 2. hand out: Ada makes her handout from the bundle in her clone
    handout = next(c for c in named("embedlab-handout") if "--solution" not in c)
    clone = home / "ada-clone"
    clone.mkdir()
    run(handout.replace("handouts-01.json", str(home / "handouts-01.json")), clone)

    # 3. collect: the learners hand in; Canvas's download, named as Canvas names it
    solution = nbformat.read(ROOT / "solutions" / f"{LESSON}.ipynb", as_version=4)
    rows = {row["learner"]: row for row in csv.DictReader(roster.splitlines())}
    download = home / "canvas-01"
    download.mkdir()
    for i, learner in enumerate(learners):
        nb = with_parameters(solution, keys.keys[keys.learners[learner]].parameters)
        nb.metadata["embedlab"] = {"lesson": LESSON, "learner": learner, "variant": keys.learners[learner]}
        if i == 1:  # Ben: a wrong parameter count
            cell = answer_cell(nb, "n_params")
            cell.source = "n_params = 2 * len(words)"
        first, last = rows[learner]["name"].split(" ", 1)
        late = "_LATE" if i == 2 else ""
        name = f"{last}{first}".lower() + f"{late}_{rows[learner]['canvas_id']}_{9001 + i}_{LESSON}.ipynb"
        nbformat.write(nb, download / name)

    # 4. grade
    grade, explain = named("embedlab-grade")
    mkdir, = named("mkdir")
    run(mkdir, home)
    run(grade, home)
    first = {"totals": read_csv(home / "grades" / "totals.csv"),
             "report": (home / "grades" / "report.html").stat().st_size}

    # 5. Ben's regrade request, explained
    first["explain"] = run(explain, home).stdout

    # 5. the policy: the page's adjustment, then the same command with --force
    (home / "policy.toml").write_text(tomls[0] + "\n" + tomls[1], encoding="utf-8")
    run(grade, home, "--force")

    # 7. release (6, handing back, is the LMS's: the files are checked below)
    run(release, home)
    return {"home": home, "learners": learners, "keys": keys, "first": first, "rows": rows}


def test_the_page_names_each_step_once_in_its_order():
    order = [c.split()[0] for c in commands()]
    assert order == ["source", "python", "embedlab-assign", "embedlab-handout", "mkdir", "embedlab-grade",
                     "embedlab-grade", "embedlab-assign"]
    text = PAGE.read_text(encoding="utf-8")
    steps = re.findall(r"^## (\d)\. (.+)$", text, flags=re.M)
    assert [n for n, _ in steps] == list("1234567")


def test_the_bundle_handout_is_the_one_assign_wrote(term):
    home, ada = term["home"], term["learners"][0]
    assert (home / "ada-clone" / "my-work" / f"{LESSON}.ipynb").read_bytes() == \
        (home / "class" / ada / f"{LESSON}.ipynb").read_bytes()
    with zipfile.ZipFile(home / "handouts-01.zip") as z:
        assert len(z.namelist()) == len(term["learners"])


def test_the_grades_follow_the_policy_and_the_raw_points_stay(term):
    home = term["home"]
    totals = {row["learner"]: row for row in read_csv(home / "grades" / "totals.csv")}
    before = {row["learner"]: row for row in term["first"]["totals"]}
    ada, ben, cy = term["learners"]
    assert {r["status"] for r in totals.values()} == {"graded"}
    assert float(totals[ada]["final"]) == float(totals[ada]["max_points"])
    # Ben: his wrong answer costs points; the page's adjustment gives one back, his raw points unchanged
    assert float(totals[ben]["points"]) < float(totals[ben]["max_points"])
    assert totals[ben]["points"] == before[ben]["points"]
    assert float(totals[ben]["final"]) == float(before[ben]["final"]) + 1
    # Cy: Canvas's LATE mark: the per-file rule of the page's policy, 10 % of the lesson's points
    assert float(totals[cy]["late_penalty"]) == pytest.approx(0.1 * float(totals[cy]["max_points"]))
    gradebook = (home / "grades" / "gradebook.csv").read_text(encoding="utf-8")
    assert all(term["rows"][learner]["canvas_id"] in gradebook for learner in term["learners"])


def test_each_learner_has_feedback_and_the_canvas_zip_names_their_files(term):
    home = term["home"]
    ben = term["learners"][1]
    page = (home / "feedback" / "learners" / ben / f"{LESSON}-feedback.txt").read_text(encoding="utf-8")
    assert "regrade request" in page           # the adjustment's reason, as the policy wrote it
    with zipfile.ZipFile(home / "feedback" / "canvas" / f"{LESSON}-feedback.zip") as z:
        names = z.namelist()
    for learner in term["learners"]:
        assert any(f"_{term['rows'][learner]['canvas_id']}_" in n for n in names), (learner, names)
    assert (home / "grades" / "report.html").stat().st_size > 0


def test_each_learner_gets_their_own_solved_notebook(term):
    home = term["home"]
    for learner in term["learners"]:
        nb = nbformat.read(home / "released-01" / learner / f"{LESSON}-solution.ipynb", as_version=4)
        assert nb.metadata["embedlab"]["learner"] == learner
        assert nb.metadata["embedlab"]["variant"] == term["keys"].learners[learner]
    assert (home / "solutions-01.zip").exists() and (home / "solutions-01.json").exists()


def test_the_regrade_request_is_explained_for_the_right_learner(term):
    explained = term["first"]["explain"]
    ben = term["learners"][1]
    assert ben in explained and "n_params" in explained and "incorrect" in explained, explained[-2000:]
