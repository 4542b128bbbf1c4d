"""book/a-term.md, run as written: every command of the page, in its order, on a term of two sections.

The page is the instructor's walk through a term (assign, hand out, collect, grade, policy, hand
back, release) for a class in two sections, one on Canvas and one on Moodle, with one roster and one
policy. Its console blocks are read from the page itself and run in a folder of their own, with its
roster and its policy blocks as the files they name; between the steps the test plays the learners
and the two LMSs. The learners answer in the handouts `embedlab-assign` wrote (each answer cell
filled with the solution's lines, as a learner types them): in section canvas-A, Ada hands in a right
notebook, Ben one with a wrong answer, and Cy nothing until after the grading (a straggler, marked
LATE by Canvas); in section moodle-B, Di, Ed and Fay right ones, Ed's two days late by Moodle's
worksheet until his extension. What each step must have written is then checked, and what the page
says of it: each section's run holds its own learners only (never `missing` for the other section),
the policy's entries of the other section are kept and listed, Ben's adjustment and Ed's extension
reach their totals and pages, the straggler is graded alone and merged into the term's totals and the
Canvas gradebook. One change for time only: the first assign command gets `--variants 3` (the page
leaves K at its default, 8; K changes nothing in the steps); the release, as the page writes it,
takes K from the keys it is given. Another: the page's command makes the secret (checked: 32 random
bytes as hex), and the term then goes on with a fixed one (TERM_SECRET), so that its work is read from
the class cache on later runs.
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
from embedlab.grading.kept import GRADES_ENV

from solution_runner import ROOT, answer_cell

PAGE = ROOT / "book" / "a-term.md"
LESSON = "01-toy-table"
BIN = Path(sys.executable).parent
MARKERS = ("# BEGIN SOLUTION", "# END SOLUTION")
# The secret the term goes on with, after the page's own command has made one (and it is checked): fixed, so
# that the term's work is the same from one run to the next and is read from the class cache (embedlab.grading.
# kept: embedlab-assign's solution runs, the honest files' judged rows) rather than made again, about 10 s of
# CPU and half a minute of a run. A random one made them all anew on every run. Which variants secrets give,
# and that learners spread over them, is tested with fixed secrets in tests/test_classmode.py.
TERM_SECRET = "7e" * 32


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


def named(word: str) -> list[str]:
    found = [c for c in commands() if c.startswith(word)]
    assert len(found) >= 1, f"the page has no command starting {word!r}"
    return found


def run(command: str, cwd: Path, *extra: str) -> subprocess.CompletedProcess:
    argv = shlex.split(command) + list(extra)
    # honest notebooks: the grader keeps their judged rows (embedlab.grading.kept), so a step grading a file
    # an earlier step (or session) graded alike reads its rows; a time-out or a crash is graded every time
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", GRADES_ENV: "1"}
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def totals_of(home: Path) -> dict:
    return {row["learner"]: row for row in read_csv(home / "grades" / "totals.csv")}


def answered(handout: Path, solution, wrong: dict | None = None):
    """A learner's handout (as embedlab-assign wrote it) with every answer cell filled as a learner types it:
    the solution's lines of that cell (the cells keep their ids), without its BEGIN/END markers; `wrong`:
    {question: the cell's source} for the answers they get wrong."""
    nb = nbformat.read(handout, as_version=4)
    theirs = {cell.get("id"): cell for cell in solution.cells}
    for cell in nb.cells:
        if cell.cell_type == "code" and "# YOUR CODE HERE" in cell.source:
            source = theirs[cell.get("id")].source
            cell.source = "\n".join(line for line in source.split("\n") if line.strip() not in MARKERS)
    for name, source in (wrong or {}).items():
        answer_cell(nb, name).source = source
    return nb


def canvas_name(row: dict, attachment: int, late: bool = False) -> str:
    first, last = row["name"].split(" ", 1)
    return f"{last}{first}".lower() + ("_LATE" if late else "") + f"_{row['canvas_id']}_{attachment}_{LESSON}.ipynb"


WORKSHEET = ('Identifier,"Full name","Email address",Status,"Last modified (submission)"\n'
             '"Participant 5004","Di Moreau",di@uni.example,"Submitted for grading","Monday, 5 October 2026, 9:40 PM"\n'
             '"Participant 5005","Ed Novak",ed@uni.example,"Submitted for grading - 1 day 11 hours late",'
             '"Wednesday, 7 October 2026, 11:00 AM"\n'
             '"Participant 5006","Fay Lin",fay@uni.example,"Submitted for grading","Sunday, 4 October 2026, 6:05 PM"\n')


@pytest.fixture(scope="module")
def term(tmp_path_factory):
    """The term run as the page says, up to the release; what each step wrote."""
    home = tmp_path_factory.mktemp("term")
    texts, tomls = blocks("text"), blocks("toml")
    roster = next(b for b in texts if b.startswith("learner,"))
    (home / "roster.csv").write_text(roster, encoding="utf-8")
    rows = {row["learner"]: row for row in csv.DictReader(roster.splitlines())}
    sections = {}
    for learner, row in rows.items():
        sections.setdefault(row["section"], []).append(learner)
    (home / "policy.toml").write_text(tomls[0], encoding="utf-8")
    secret, = [c for c in commands() if "secrets" in c]
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    subprocess.run(secret, shell=True, cwd=home, env=env, check=True, timeout=60)  # noqa: S602 - the page's own line
    made = (home / "secret.txt").read_text().strip()
    assert len(made) == 64 and int(made, 16) >= 0, made       # 32 random bytes, as hex
    # for time only: the term goes on with this test's fixed secret of the same form (TERM_SECRET)
    (home / "secret.txt").write_text(TERM_SECRET + "\n", encoding="utf-8")

    # 1. assign, both sections from the one roster
    assign, release = named("embedlab-assign")
    run(assign, home, "--variants", "3")
    keys = load_keys(home / "class-01" / KEYS_DIR)[LESSON]

    # 2. hand out: Ada (Canvas) makes her handout from the bundle in her clone
    handout = next(c for c in named("embedlab-handout") if "--solution" not in c)
    clone = home / "ada-clone"
    clone.mkdir()
    run(handout.replace("handouts-01.json", str(home / "handouts-01.json")), clone)

    # 3. collect: the learners answer in their handouts and hand in; each LMS's download, named as it names it
    solution = nbformat.read(ROOT / "solutions" / f"{LESSON}.ipynb", as_version=4)
    ada, ben, cy = sections["canvas-A"]
    mine = lambda learner, **wrong: answered(home / "class-01" / learner / f"{LESSON}.ipynb", solution,  # noqa: E731
                                             wrong)
    canvas = home / "canvas-01"
    canvas.mkdir()
    nbformat.write(mine(ada), canvas / canvas_name(rows[ada], 9001))
    nbformat.write(mine(ben, n_params="n_params = 2 * len(words)"), canvas / canvas_name(rows[ben], 9002))
    moodle = home / "moodle-01"
    for learner in sections["moodle-B"]:
        folder = moodle / f"{rows[learner]['name']}_{rows[learner][f'moodle_id:{LESSON}']}_assignsubmission_file"
        folder.mkdir(parents=True)
        nbformat.write(mine(learner), folder / f"{LESSON}.ipynb")
    (home / "worksheet-01.csv").write_text(WORKSHEET, encoding="utf-8")

    # 4. grade, section by section
    canvas_run, moodle_run, explain, straggler = named("embedlab-grade")
    mkdir, = named("mkdir")
    run(mkdir, home)
    first = {"canvas": run(canvas_run, home).stdout}
    first["canvas totals"] = totals_of(home)
    first["canvas gradebook"] = read_csv(home / "grades" / "canvas-gradebook.csv")
    first["moodle"] = run(moodle_run, home).stdout
    first["totals"] = totals_of(home)

    # 5. Ben's regrade request, explained; the decisions into the policy, both runs again with --force
    first["explain"] = run(explain, home).stdout
    (home / "policy.toml").write_text(tomls[0] + "\n" + tomls[1], encoding="utf-8")
    again = {"canvas": run(canvas_run, home, "--force").stdout, "moodle": run(moodle_run, home, "--force").stdout}
    again["totals"] = (home / "grades" / "totals.csv").read_text(encoding="utf-8")

    # 6. the straggler: Cy's file, marked late by Canvas, after the grading
    late = home / "canvas-01-late"
    late.mkdir()
    nbformat.write(mine(cy), late / canvas_name(rows[cy], 9103, late=True))
    again["straggler"] = run(straggler, home).stdout

    # 7. release
    run(release, home)
    return {"home": home, "rows": rows, "sections": sections, "keys": keys, "first": first, "again": again}


def test_the_page_names_each_step_once_in_its_order():
    order = [c.split()[0] for c in commands()]
    assert order == ["source", "python", "embedlab-assign", "embedlab-handout", "mkdir", "embedlab-grade",
                     "embedlab-grade", "embedlab-grade", "embedlab-grade", "embedlab-assign"]
    text = PAGE.read_text(encoding="utf-8")
    steps = re.findall(r"^## (\d)\. (.+)$", text, flags=re.M)
    assert [n for n, _ in steps] == list("1234567")


def test_one_roster_for_two_lms_sections_and_each_gets_its_handouts(term):
    """The roster gives each learner their own LMS's ids only; assign takes it whole: every learner a
    handout, the Moodle zip the Moodle section's (byte for byte the files of class-01/), the bundle Ada's."""
    home, sections = term["home"], term["sections"]
    assert set(term["keys"].learners) == set(term["rows"])
    ada = sections["canvas-A"][0]
    assert (home / "ada-clone" / "my-work" / f"{LESSON}.ipynb").read_bytes() == \
        (home / "class-01" / ada / f"{LESSON}.ipynb").read_bytes()
    with zipfile.ZipFile(home / "handouts-01.zip") as z:
        got = {name: z.read(name) for name in z.namelist()}
    assert len(got) == len(sections["moodle-B"])
    for learner in sections["moodle-B"]:
        pid = term["rows"][learner][f"moodle_id:{LESSON}"]
        entry, = [n for n in got if f"_{pid}_" in n]
        assert got[entry] == (home / "class-01" / learner / f"{LESSON}.ipynb").read_bytes()


def test_each_sections_run_holds_its_own_learners_and_never_the_others_as_missing(term):
    home, sections, first = term["home"], term["sections"], term["first"]
    canvas, moodle = sections["canvas-A"], sections["moodle-B"]
    ada, ben, cy = canvas
    # the Canvas run: its three learners (Cy, with nothing handed in yet, missing), no Moodle learner
    got = {k: v["status"] for k, v in first["canvas totals"].items()}
    assert got == {ada: "graded", ben: "graded", cy: "missing"}
    assert [r["Student"] for r in first["canvas gradebook"][1:]] == [term["rows"][x]["name"] for x in canvas]
    # the Moodle run adds its section to the term's totals; only Cy is missing, in either section's files
    got = {k: v["status"] for k, v in first["totals"].items()}
    assert got == {ada: "graded", ben: "graded", cy: "missing", **{x: "graded" for x in moodle}}
    book = read_csv(home / "grades" / "moodle-gradebook.csv")
    assert [r["Email address"] for r in book] == [term["rows"][x]["email"] for x in moodle]
    for section, others in (("canvas", moodle), ("moodle", canvas)):
        report = (home / "grades" / f"{section}-01-report.html").read_text(encoding="utf-8")
        pages = {p.name for p in (home / f"feedback-{section}" / "learners").iterdir()}
        assert pages == set(canvas if section == "canvas" else moodle)
        assert not any(x in report for x in others), section
        assert f"learners in this run: 3 (the roster's learners with a {'canvas_id' if section == 'canvas' else 'Moodle id'}" \
            in first[section]
    # the term's policy names next week's lesson: kept, not in these runs
    assert '[lesson."02-lookup-vs-matmul"]: not in this run (kept)' in first["canvas"]


def test_one_policy_for_the_term_each_decision_reaches_its_section_only(term):
    home, sections, first, again = term["home"], term["sections"], term["first"], term["again"]
    ada, ben, cy = sections["canvas-A"]
    di, ed, fay = sections["moodle-B"]
    before, after = first["totals"], totals_of(home)
    # Ben: his wrong answer costs points; the adjustment gives one back, his raw points unchanged
    assert float(after[ben]["points"]) < float(after[ben]["max_points"])
    assert after[ben]["points"] == before[ben]["points"]
    assert float(after[ben]["final"]) == float(before[ben]["final"]) + 1
    assert float(after[ada]["final"]) == float(after[ada]["max_points"])
    # Ed: two started days late by Moodle's worksheet (20 %), on time with his extension, which his page shows
    assert float(before[ed]["late_penalty"]) == pytest.approx(0.2 * float(before[ed]["max_points"]))
    assert float(after[ed]["late_penalty"]) == 0 and float(after[ed]["final"]) == float(after[ed]["max_points"])
    page = (home / "feedback-moodle" / "learners" / ed / f"{LESSON}-feedback.txt").read_text(encoding="utf-8")
    assert "Your own due date: Wednesday 7 October 2026, 23:59 (Europe/London)" in page and "note seen" in page
    assert {after[x]["late_penalty"] for x in (di, fay)} == {"0"}
    # each run lists the other section's decision as not in this run, and applies its own
    assert re.search(rf"\[\[extension\]\] {re.escape(ed)} {LESSON}: not in this run \(kept\)", again["canvas"])
    assert re.search(rf"\[\[adjustment\]\] {re.escape(ben)} {LESSON}: not in this run \(kept\)", again["moodle"])
    assert "regrade request" in (home / "feedback-canvas" / "learners" / ben / f"{LESSON}-feedback.txt").read_text(
        encoding="utf-8")


def test_a_straggler_is_graded_alone_with_the_terms_policy_and_merged(term):
    home, again = term["home"], term["again"]
    ada, ben, cy = term["sections"]["canvas-A"]
    after = totals_of(home)
    assert after[cy]["status"] == "graded" and float(after[cy]["points"]) == float(after[cy]["max_points"])
    # Canvas's LATE mark: the per-file rule of the policy, 10 % of the lesson's points
    assert float(after[cy]["late_penalty"]) == pytest.approx(0.1 * float(after[cy]["max_points"]))
    # every other line of the term's totals is the one the section runs wrote
    lines = lambda text: [line for line in text.splitlines() if not line.startswith(f'"{cy}"')]  # noqa: E731
    assert lines((home / "grades" / "totals.csv").read_text(encoding="utf-8")) == lines(again["totals"])
    assert "learners in this run: 1 (the learners of the files given, graded alone)" in again["straggler"]
    # the Canvas gradebook, made from the merged totals: the whole section, Cy's final in it
    book = read_csv(home / "grades" / "canvas-gradebook.csv")[1:]
    assert [r["ID"] for r in book] == [term["rows"][x]["canvas_id"] for x in (ada, ben, cy)]
    assert {r["ID"]: float(r[LESSON]) for r in book} == {term["rows"][x]["canvas_id"]: float(after[x]["final"])
                                                        for x in (ada, ben, cy)}
    # its feedback: Cy's page only, and the zip Canvas takes back names Cy's upload
    assert {p.name for p in (home / "feedback-late" / "learners").iterdir()} == {cy}
    with zipfile.ZipFile(home / "feedback-late" / "canvas" / f"{LESSON}-feedback.zip") as z:
        assert z.namelist() and all("_103_9103_" in n for n in z.namelist())


def test_the_regrade_request_is_explained_for_the_right_learner(term):
    explained = term["first"]["explain"]
    ben = term["sections"]["canvas-A"][1]
    assert ben in explained and "n_params" in explained and "incorrect" in explained, explained[-2000:]


def test_each_learner_gets_their_own_solved_notebook(term):
    home = term["home"]
    for learner in term["rows"]:
        nb = nbformat.read(home / "released-01" / learner / f"{LESSON}-solution.ipynb", as_version=4)
        assert nb.metadata["embedlab"]["learner"] == learner
        assert nb.metadata["embedlab"]["variant"] == term["keys"].learners[learner]
    with zipfile.ZipFile(home / "solutions-01.zip") as z:
        assert len(z.namelist()) == len(term["sections"]["moodle-B"])
    assert (home / "solutions-01.json").exists()
