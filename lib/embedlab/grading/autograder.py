"""A Gradescope autograder for class mode: the bundle, and the grading of one submission.

``embedlab-assign ... --gradescope BUNDLE.zip`` writes (`write_bundle`), at the
root of the zip as Gradescope's autograder specification asks:

    setup.sh          installs Python, bubblewrap, the pinned requirements and embedlab
    run_autograder    runs ``python -m embedlab.grading.autograder``
    requirements.txt  the grader's dependencies, pinned to this environment's versions
    embedlab/         the course library, installed by setup.sh
    instructor-keys/  the class's keys (embedlab.grading.keys)

A bundle holds one lesson's keys (a Gradescope assignment is one lesson), so
``embedlab-assign all`` writes one bundle per lesson (`bundle_paths`).

On Gradescope, ``run_autograder`` grades the one notebook in
``$ROOT/submission/`` with embedlab-grade's own judge against the keys of the
learner its metadata names, and writes ``$ROOT/results/results.json``: one test
per question (name, score, max_score, status, output = the grader's hint).
Where the roster's learner ids are the learners' Gradescope emails (or student
ids), a notebook whose learner is not the one Gradescope says submitted it is
``identity_mismatch``, 0 points (`who_submitted`): a classmate's notebook
handed in unchanged earns nothing.
``$ROOT`` is /autograder unless the environment variable
EMBEDLAB_AUTOGRADER_ROOT names another folder (how the tests run it locally).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sys
import time
import zipfile
from importlib import metadata
from pathlib import Path

from embedlab.grading import sandbox
from embedlab.grading import grader
from embedlab.grading.judge import GraderFault
from embedlab.grading.keys import KEYS_DIR, KeysError, load_keys
from embedlab.grading.sandbox import Limits
from embedlab.grading.lessons import questions_for
from embedlab.grading.status import (
    CORRECT,
    IDENTITY_MISMATCH,
    MARKED,
    TO_MARK,
    NEEDS_KEYS,
    NOT_ATTEMPTED,
    UNKNOWN_SUBMITTER,
    UNREADABLE,
    WRONG_LESSON,
    WRONG_PARAMETERS,
    format_points,
)
from embedlab.grading.status import NOT_GRADED as STOPPED
from embedlab.grading.submissions import find_submissions
from embedlab.grading.text import atomic_output, printable

ROOT_VAR = "EMBEDLAB_AUTOGRADER_ROOT"
DEFAULT_ROOT = "/autograder"
GRADER_PACKAGES = ("numpy", "nbformat", "nbclient", "ipykernel", "jupyter_client")
LIBRARY = Path(__file__).resolve().parents[1]  # lib/embedlab
RESULTS_VISIBILITY = ("after_due_date", "after_published", "visible")  # Gradescope's names
LEARNER_ID_KINDS = ("email", "sid", "other")  # what a roster's learner ids are (embedlab-assign --learner-ids)
SETTINGS_FILE = "embedlab-autograder.json"  # in the bundle: {"results": one of RESULTS_VISIBILITY}
NOT_GRADED = (IDENTITY_MISMATCH, WRONG_LESSON, NEEDS_KEYS, UNREADABLE, WRONG_PARAMETERS, UNKNOWN_SUBMITTER,
              STOPPED)  # about the file, not the answers

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image. ROOT is
# /autograder unless EMBEDLAB_AUTOGRADER_ROOT says otherwise (a local trial run).
# The pinned requirements need Python 3.11 or newer. Gradescope's Ubuntu 22.04 image
# has 3.10, so there Ubuntu's python3.11 is installed; where apt has none (an older
# image), a standalone CPython 3.11 is fetched with uv.
set -euo pipefail
ROOT="${EMBEDLAB_AUTOGRADER_ROOT:-/autograder}"
export DEBIAN_FRONTEND=noninteractive
if [ "$(id -u)" = 0 ]; then
    apt-get update
    apt-get install -y --no-install-recommends python3 python3-venv python3-pip bubblewrap
    apt=yes
else  # a local trial as a user: the system's python3 (3.11 or newer) and bwrap are used as they are
    echo "setup.sh: not root, so apt-get is skipped" >&2
    apt=no
fi
new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }
PY=python3
if ! new_enough python3; then
    if [ "$apt" = yes ] && apt-get install -y --no-install-recommends python3.11 python3.11-venv; then
        PY=python3.11
    else
        python3 -m pip install --no-cache-dir uv
        python3 -m uv python install 3.11
        PY="$(python3 -m uv python find 3.11)"
    fi
fi
if ! new_enough "$PY"; then
    echo "setup.sh: no Python 3.11 or newer could be installed (the pinned requirements need it)" >&2
    exit 1
fi
"$PY" -m venv "$ROOT/venv"
"$ROOT/venv/bin/pip" install --no-cache-dir -r "$ROOT/source/requirements.txt"
"$ROOT/venv/bin/pip" install --no-cache-dir "$ROOT/source/embedlab"
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for each submission. ROOT is /autograder unless
# EMBEDLAB_AUTOGRADER_ROOT says otherwise (a local trial run).
set -u
ROOT="${EMBEDLAB_AUTOGRADER_ROOT:-/autograder}"
PY="$ROOT/venv/bin/python"
if [ ! -x "$PY" ]; then
    echo "run_autograder: no $ROOT/venv (setup.sh makes it): using python3 from PATH" >&2
    PY=python3
fi
export EMBEDLAB_AUTOGRADER_ROOT="$ROOT"
exec "$PY" -m embedlab.grading.autograder
"""

PYPROJECT = """[build-system]
requires = ["setuptools>=64"]
build-backend = "setuptools.build_meta"

[project]
name = "embedlab"
version = "{version}"
requires-python = ">=3.11"
dependencies = ["numpy"]

[tool.setuptools]
package-dir = {{ "" = "lib" }}

[tool.setuptools.packages.find]
where = ["lib"]

[tool.setuptools.package-data]
embedlab = ["data/*.json"]
"embedlab.grading" = ["answers/*.key", "answers/*.code.json"]
"""


# --------------------------------------------------------------------------
# The bundle


def pinned_requirements(roots=GRADER_PACKAGES) -> list[str]:
    """`name==version` for the grader's packages and everything they need, as installed here."""
    from packaging.requirements import Requirement

    pins, todo = {}, list(roots)
    while todo:
        name = todo.pop()
        key = re.sub(r"[-_.]+", "-", name).lower()
        if key in pins:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        pins[key] = f"{dist.metadata['Name']}=={dist.version}"
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return sorted(pins.values(), key=str.lower)


def library_files() -> list[tuple[Path, str]]:
    """(file, path in the bundle) for the course library's code and data."""
    out = []
    for path in sorted(LIBRARY.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".py", ".json", ".key"):
            out.append((path, f"embedlab/lib/embedlab/{path.relative_to(LIBRARY).as_posix()}"))
    return out


def bundle_paths(bundle: Path, lessons: list[str]) -> dict[str, Path]:
    """{lesson: its bundle}: a Gradescope assignment grades one lesson, so each lesson gets its
    own zip: `bundle` itself for one lesson, else `bundle`'s name with -NN-slug before .zip."""
    bundle = Path(bundle)
    if len(lessons) == 1:
        return {lessons[0]: bundle}
    return {lesson: bundle.with_name(f"{bundle.stem}-{lesson}{bundle.suffix}") for lesson in lessons}


def write_bundle(bundle: Path, keys_dir: Path, lesson: str, results: str = RESULTS_VISIBILITY[0],
                 learner_ids: str | None = None) -> Path:
    """Write the Gradescope autograder zip of one lesson, with that lesson's keys only, so that
    another lesson's notebook handed in to its assignment is `wrong_lesson` (atomically: a
    temporary file renamed over `bundle`)."""
    import embedlab

    if results not in RESULTS_VISIBILITY:
        raise ValueError(f"results must be one of {', '.join(RESULTS_VISIBILITY)}, got results={results!r}")
    bundle = Path(bundle)
    keys_file = Path(keys_dir) / f"{lesson}.json"
    if not keys_file.is_file():
        raise KeysError(f"no keys of {lesson} in {keys_dir}")
    with atomic_output(bundle, "wb", flag="--gradescope") as f, \
            zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text, mode in (("setup.sh", SETUP_SH, 0o755), ("run_autograder", RUN_AUTOGRADER, 0o755),
                                 ("requirements.txt", "\n".join(pinned_requirements()) + "\n", 0o644),
                                 ("embedlab/pyproject.toml", PYPROJECT.format(version=embedlab.__version__),
                                  0o644),
                                 (SETTINGS_FILE, json.dumps({"results": results, "learner_ids": learner_ids})
                                  + "\n", 0o644)):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, text)
        for path, name in library_files():
            z.write(path, name)
        z.write(keys_file, f"{KEYS_DIR}/{keys_file.name}")
    return bundle


# --------------------------------------------------------------------------
# run_autograder


def results_for(rows, note: str = "", visibility: str = "after_due_date") -> dict:
    """Gradescope's results.json from the grader's rows: one test per question, shown to the
    learner as `visibility` says (by default after the due date: each question's result, shown
    at once to a learner who can resubmit, would let them search for their variant's answers),
    and first a test always shown that says what was received and what is not answered yet,
    which gives nothing away (as the handout's own checks)."""
    tests = []
    written = [r for r in rows if r.status in (TO_MARK, MARKED) or (r.question and r.question in _written(r.lesson))]
    for r in rows:
        if r in written:  # marked by hand in Gradescope (its own rubric), never by this autograder: 0 of 0 here
            tests.append({"name": r.question, "score": 0.0, "max_score": 0.0, "status": "passed" if r.status in (
                TO_MARK, MARKED) else "failed", "output": f"{WRITTEN_NOTE} ({r.detail or r.status})"})
            continue
        tests.append({"name": r.question or "submission", "score": r.points or 0.0, "max_score": r.max_points,
                      "status": "passed" if r.status == CORRECT else "failed",
                      "output": f"{r.status}: {r.detail}" if r.detail else r.status})
    rows = [r for r in rows if r not in written]
    got, best = sum(r.points or 0.0 for r in rows), sum(r.max_points for r in rows)
    lines = [f"{format_points(got)} / {format_points(best)} points"
             + (f" (learner {rows[0].learner}, {rows[0].lesson})" if rows and rows[0].learner else "")]
    if note:
        lines.append(note)
    results = {"score": got, "output": "\n".join(lines), "tests": tests}
    if visibility == "visible":
        return results
    when = "after the due date" if visibility == "after_due_date" else "when your instructor publishes the grades"
    said = [f"Received {rows[0].lesson if rows else 'a notebook'}"
            + (f" for learner {rows[0].learner}" if rows and rows[0].learner else "") + "."]
    stopped = next((r for r in rows if r.status in NOT_GRADED), None)
    if stopped is not None:
        said.append(f"Not graded: {stopped.detail or stopped.status}")
    else:
        missing = [r.question for r in rows if r.status == NOT_ATTEMPTED and r.question]
        if missing:
            said.append(f"Not attempted yet: {', '.join(missing)}.")
        said.append(f"Your score and each question's result are shown {when}.")
    for test in tests:  # said on each test too, whichever of the two Gradescope applies
        test["visibility"] = visibility
    tests.insert(0, {"name": "submission received", "score": 0.0, "max_score": 0.0,
                     "status": "failed" if stopped is not None else "passed",
                     "output": " ".join(said), "visibility": "visible"})
    results.update(visibility=visibility, stdout_visibility="hidden")
    return results


WRITTEN_NOTE = ("written: your instructor marks it by hand in Gradescope, with the rubric your notebook shows; "
                "this autograder's score leaves it out")


def _written(lesson: str) -> set:
    """The written questions of a lesson (kinds.Written): marked by hand, in Gradescope by its own rubric."""
    try:
        return {q.name for q in questions_for(lesson) if q.kind == "written"}
    except ValueError:
        return set()


def settings(root: Path) -> dict:
    """The bundle's settings (embedlab-assign --gradescope-results, --learner-ids), {} if unreadable."""
    try:
        value = json.loads((root / "source" / SETTINGS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def results_visibility(root: Path) -> str:
    """How the bundle was told to show results (embedlab-assign --gradescope-results)."""
    value = settings(root).get("results")
    return value if value in RESULTS_VISIBILITY else RESULTS_VISIBILITY[0]


def learner_id_kind(learners: list[str]) -> str:
    """What a roster's learner ids are, guessed from them: email, sid (student ids) or other."""
    if learners and all("@" in name for name in learners):
        return "email"
    if learners and all(name.isdigit() for name in learners):
        return "sid"
    return "other"


def learner_ids(root: Path, keys: dict) -> str:
    """What the roster's learner ids are (email, sid or other): as the bundle records it, else
    guessed from the ids themselves (a bundle written before it recorded this)."""
    value = settings(root).get("learner_ids")
    if value in LEARNER_ID_KINDS:
        return value
    return learner_id_kind(sorted({name for lesson_keys in keys.values() for name in lesson_keys.learners}))


def who_submitted(keys: dict, who: set[str] | None, ids: str) -> tuple[str | None, str, str]:
    """(roster learner who submitted or None, why the file is not graded or "", note) from
    Gradescope's record of the submitter. Where the roster's ids are Gradescope identities
    (`ids` email or sid), a submitter not on the roster is not graded: a notebook is credited
    only to the learner who handed it in. Where they are not (`other`), nothing is compared."""
    if who is None:  # a local run: no record of who submitted
        return None, "", ""
    roster = {name.lower(): name for lesson_keys in keys.values() for name in lesson_keys.learners}
    matched = sorted({roster[w] for w in who if w in roster})
    if not matched and ids in ("email", "sid"):
        shown = ", ".join(sorted(who)) or "nobody Gradescope named"
        return None, (f"submitted by {printable(shown)[:200]}, who is not on this class's roster (its ids are "
                      f"{'emails' if ids == 'email' else 'student ids'}): not graded; the instructor adds the "
                      "learner to the roster and a new bundle"), ""
    if not matched:
        return None, "", ("Gradescope's record of who submitted (email, student id) is not on the roster, whose "
                          "ids are neither (embedlab-assign --learner-ids), so it was not compared with the "
                          "notebook's learner: the instructor checks it.")
    if len(matched) > 1:  # Gradescope gives a group's score to every member: a copier in a group would share it
        return None, (f"a group submission ({', '.join(matched)}): each learner's notebook is graded against their "
                      "own variant, so hand in alone (the instructor turns group submission off); not graded"), ""
    return matched[0], "", ""


def write_results(root: Path, results: dict) -> Path:
    """Write results.json atomically (a temporary file renamed over it: a file or link a submission
    left there is replaced, never written through), then read it back: a file that is not what was
    written raises GraderFault (something outside the grader changed it)."""
    folder = root / "results"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "results.json"
    text = json.dumps(results, indent=1) + "\n"
    with atomic_output(path, "w", encoding="utf-8", flag="results.json") as f:
        f.write(text)
    try:
        back = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        back = None
    if back != text:
        raise GraderFault("results.json changed after the grader wrote it")
    return path


def submitters(root: Path) -> set[str] | None:
    """Who Gradescope says made this submission: its users' emails (and student ids, where
    given), lowercased, from ROOT/submission_metadata.json; None when there is no such file
    (a local run), an empty set when it cannot be read."""
    try:
        data = json.loads((root / "submission_metadata.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return set()
    users = data.get("users") if isinstance(data, dict) else None
    found = set()
    for user in users if isinstance(users, list) else []:
        for field in ("email", "sid"):
            value = user.get(field) if isinstance(user, dict) else None
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value).strip():
                found.add(str(value).strip().lower())
    return found


def main() -> int:
    """run_autograder: grade the one submitted notebook and write results.json. Whatever the
    submission starts is re-parented to this process (sandbox.adopt_orphans) and is gone before
    results.json is written (sandbox.settle), with or without the sandbox and control groups; where
    that cannot be seen, the results say so and give no points."""
    sandbox.adopt_orphans()
    try:
        return _main()
    finally:
        sandbox.release_groups()
        sandbox.disown_orphans()


def _main() -> int:
    started = time.monotonic()
    root = Path(os.environ.get(ROOT_VAR) or DEFAULT_ROOT)
    submission = root / "submission"
    found = sorted(p for p in submission.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts) \
        if submission.is_dir() else []
    if len(found) != 1:
        write_results(root, {"score": 0.0, "output": f"Submit exactly one notebook (.ipynb): found {len(found)}.",
                             "tests": []})
        return 0
    try:
        keys = load_keys(root / "source" / KEYS_DIR)
    except KeysError as exc:
        print(f"autograder: {exc}", file=sys.stderr)
        return 1
    bwrap, note = sandbox.bwrap_path(), ""
    why = "bubblewrap is not installed" if bwrap is None else sandbox.check_sandbox(bwrap)
    if why:
        bwrap = None
        note = f"Graded without the sandbox ({printable(why)[:200]})."
        print(f"autograder: no sandbox: {why}", file=sys.stderr)
    who = submitters(root)
    learner, refused, unchecked = who_submitted(keys, who, learner_ids(root, keys))
    subs = find_submissions([str(found[0])])
    if learner is not None:
        subs = [dataclasses.replace(sub, submitter=learner, submitter_source="Gradescope's record") for sub in subs]
    elif refused:
        subs = [dataclasses.replace(sub, problem_status=IDENTITY_MISMATCH, problem=refused) for sub in subs]
    rows, faults = grader.grade_all(subs, None, Limits(), bwrap=bwrap, keys=keys)
    alive = sandbox.settle()
    if alive:  # something the submission started may still be running: its results could be forged
        faults = [*faults, alive]
        rows = [dataclasses.replace(r, points=0.0 if r.points is not None else None, status=STOPPED,
                                    detail=f"not graded: {alive}") for r in rows]
    results = results_for(rows, " ".join(filter(None, [note, unchecked])), results_visibility(root))
    results["execution_time"] = round(time.monotonic() - started)
    try:
        write_results(root, results)
    except GraderFault as exc:
        print(f"autograder: {exc}", file=sys.stderr)
        return 1
    for fault in faults:
        print(f"autograder: grader fault: {fault}", file=sys.stderr)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
