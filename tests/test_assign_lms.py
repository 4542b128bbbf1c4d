"""Per-learner files through an LMS (issue 37, items 2 and 6): embedlab-assign's --moodle-handouts,
--public-bundle (and the learner's embedlab-handout), --solutions and --moodle-solutions.

The kernels are few: one `embedlab-assign` of lesson 01 (K = 3 solution runs) writing every output,
one `embedlab-grade` run over the released solutions (one per learner), and one --force run of one
variant. Everything else works on the files they write, or is refused before any kernel starts.
"""

import base64
import csv
import hashlib
import json
import os
import re
import zipfile
from pathlib import Path

import nbformat
import pytest

from embedlab.grading import assign, cli, lms, release
from embedlab.grading.keys import KEYS_DIR, load_keys
from embedlab.grading.lessons import questions_for
from embedlab.grading.variants import parameters_of, render_parameters, space_for, variant_of

LESSON = "01-toy-table"
SECRET = b"test-secret-for-the-lms-handout-tests"
K = 3
CANDIDATES = ["Ada@Uni.example", "ben", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo", "kim", "lee"]
NAMES = {"Ada@Uni.example": "Ada Lovelace", "ben": "Ben_K. Okafor", "cy": "Zoë O'Neil", "dee": ".Dee ~Dot"}


def chosen_learners():
    """Candidates until every variant has one, plus one who shares a variant with an earlier one."""
    chosen, used = [], set()
    for name in CANDIDATES:
        v = variant_of(SECRET, LESSON, name, K)
        if v not in used or (len(used) == K and len(chosen) == K):
            chosen.append(name)
            used.add(v)
        if len(chosen) == K + 1:
            return chosen
    raise AssertionError("the test secret does not cover every variant with these candidates")


def write_roster(path, learners):
    """Moodle ids: a plain moodle_id (another assignment's) and the lesson's own column, which must win."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["learner", "name", "email", "moodle_id", f"moodle_id:{LESSON}"])
        for i, learner in enumerate(learners):
            w.writerow([learner, NAMES.get(learner, learner.title()), f"{learner.split('@')[0]}@school.example",
                        str(9000 + i), str(5001 + i)])
    return path


def run_assign(tmp, *extra):
    return assign.main([LESSON, "--roster", str(tmp / "roster.csv"), "--secret-file", str(tmp / "secret.txt"),
                        "--variants", str(K), "-j", "2", *extra])


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lms")
    learners = chosen_learners()
    write_roster(tmp / "roster.csv", learners)
    (tmp / "secret.txt").write_bytes(SECRET + b"\n")
    out = tmp / "class"
    code = run_assign(tmp, "--out", str(out), "--moodle-handouts", str(tmp / "handouts.zip"),
                      "--public-bundle", str(tmp / "bundle.json"), "--solutions", str(tmp / "released"),
                      "--public-solutions", str(tmp / "released.json"),
                      "--moodle-solutions", str(tmp / "solutions.zip"))
    assert code == 0
    keys = load_keys(out / KEYS_DIR)[LESSON]
    assert set(keys.learners.values()) == set(range(1, K + 1))  # every variant has a learner
    return {"tmp": tmp, "out": out, "learners": learners, "keys": keys,
            "roster": lms.read_roster(tmp / "roster.csv")}


def handout_bytes(klass, learner):
    return (klass["out"] / learner / f"{LESSON}.ipynb").read_bytes()


# --------------------------------------------------------------------------
# Moodle: "Upload multiple feedback files in a zip"

MOODLE_NAME = re.compile(r"^[^_/]+_(?P<id>[0-9]+)_assignfeedback_file_(?P<file>[^/]+)$")


@pytest.mark.parametrize("which, filename, source", [
    ("handouts.zip", f"{LESSON}.ipynb", lambda k, learner: handout_bytes(k, learner)),
    ("solutions.zip", f"{LESSON}-solution.ipynb",
     lambda k, learner: (k["tmp"] / "released" / learner / f"{LESSON}-solution.ipynb").read_bytes())])
def test_each_learner_gets_their_own_file_as_moodles_import_reads_the_zip(klass, which, filename, source):
    roster, column = klass["roster"], f"moodle_id:{LESSON}"
    participants = [roster.value(learner, column) for learner in roster.learners]
    with zipfile.ZipFile(klass["tmp"] / which) as z:
        names = z.namelist()
        assert len(names) == len(klass["learners"]) and all(not n.endswith("/") for n in names)
        got = {}
        for name in names:
            assert MOODLE_NAME.match(name), name  # no `_` in the name part: Moodle splits on it
            assert not name.startswith((".", "~"))  # Moodle skips such files
            pid, plugin, stored = lms.moodle_upload_reading(name, participants)
            assert (plugin, stored) == ("assignfeedback_file", filename)
            learner = roster.by_lms_id("moodle", pid, LESSON)  # the lesson's column, not the plain moodle_id
            assert learner is not None and learner not in got
            got[learner] = z.read(name)
            # Moodle's own download names it the same way (assignsubmission_file): lms.py reads the same id
            download = name.replace("_assignfeedback_file_", "_assignsubmission_file_", 1)
            assert lms.submitter_id(download, "moodle") == pid
    assert set(got) == set(klass["learners"])
    for learner, content in got.items():
        assert content == source(klass, learner)
        assert nbformat.reads(content.decode(), as_version=4).metadata["embedlab"]["learner"] == learner


def test_the_moodle_import_port_skips_what_moodle_skips():
    good = lms.moodle_feedback_name("Ada", "5001", "01-toy-table.ipynb")
    assert lms.moodle_upload_reading(good, ["5001"]) == ("5001", "assignfeedback_file", "01-toy-table.ipynb")
    assert lms.moodle_upload_reading(good, ["5002"]) is None  # not a participant of the assignment
    assert lms.moodle_upload_reading("Ada_5001_assignfeedback_nofile_x.ipynb") is None  # no such plugin
    assert lms.moodle_upload_reading("Ada_abc_assignfeedback_file_x.ipynb") is None  # the id is not a number
    assert lms.moodle_upload_reading("A_da_5001_assignfeedback_file_x.ipynb") is None  # a `_` in the name
    assert lms.moodle_upload_reading(".Ada_5001_assignfeedback_file_x.ipynb") is None  # hidden
    # Moodle's own unit test (importziplib_test.php): a folder form, with more path after it
    assert lms.moodle_upload_reading("some_path_here/Student Name_5001_assignsubmission_file_/some_path/My File.txt",
                                     ["5001"]) == ("5001", "assignsubmission_file", "/some_path/My File.txt")
    for name in ("Ben_K.", "a/b\\c", "..~x", "\t", "Zoë_\u200bO'Neil"):
        part = lms.moodle_name_part(name)
        assert "_" not in part and "/" not in part and "\\" not in part and not part.startswith((".", "~"))
        entry = lms.moodle_feedback_name(name, "77", "f.ipynb")
        assert lms.moodle_upload_reading(entry, ["77"]) == ("77", "assignfeedback_file", "f.ipynb")
    for pid, filename in (("12a", "f.ipynb"), ("", "f.ipynb"), ("1", "a/f.ipynb"), ("1", ".f.ipynb"), ("1", "")):
        with pytest.raises(ValueError):
            lms.moodle_feedback_name("Ada", pid, filename)


def test_moodle_outputs_need_the_rosters_moodle_ids_checked_before_anything_is_written(tmp_path, capsys):
    (tmp_path / "roster.csv").write_text("learner,name\nada,Ada\n")
    (tmp_path / "secret.txt").write_bytes(SECRET)
    for flag in ("--moodle-handouts", "--moodle-solutions"):
        code = run_assign(tmp_path, "--out", str(tmp_path / "class"), flag, str(tmp_path / "m.zip"))
        assert code == 2 and "moodle_id" in capsys.readouterr().err
        assert sorted(p.name for p in tmp_path.iterdir()) == ["roster.csv", "secret.txt"]


# --------------------------------------------------------------------------
# The public bundle and embedlab-handout


def make_handout(klass, tmp_path, learner, *extra):
    return assign.handout_main([str(klass["tmp"] / "bundle.json"), "--learner", learner, "--out", str(tmp_path),
                                *extra])


def test_each_learner_makes_their_handout_byte_for_byte_whatever_the_case_of_their_id(klass, tmp_path, capsys):
    for i, learner in enumerate(klass["learners"]):
        typed = [learner.upper(), f"  {learner.lower()} ", learner][i % 3]
        folder = tmp_path / str(i)
        assert make_handout(klass, folder, typed) == 0
        assert (folder / f"{LESSON}.ipynb").read_bytes() == handout_bytes(klass, learner)
        assert [p.name for p in folder.iterdir()] == [f"{LESSON}.ipynb"]
    assert "your handout of 01-toy-table" in capsys.readouterr().out


def test_each_learner_makes_their_released_solution_byte_for_byte_from_the_solutions_bundle(klass, tmp_path, capsys):
    learner = klass["learners"][0]
    assert make_handout(klass, tmp_path / "early", learner, "--solution") == 2  # the handouts' bundle: no solution
    assert "no solution of 01-toy-table" in capsys.readouterr().err and not (tmp_path / "early").exists()
    for learner in klass["learners"]:
        assert assign.handout_main([str(klass["tmp"] / "released.json"), "--learner", learner.swapcase(),
                                    "--out", str(tmp_path / learner), "--solution"]) == 0
        assert (tmp_path / learner / f"{LESSON}-solution.ipynb").read_bytes() == \
            (klass["tmp"] / "released" / learner / f"{LESSON}-solution.ipynb").read_bytes()


def test_a_wrong_id_is_told_clearly_and_nothing_is_written(klass, tmp_path, capsys):
    learner = klass["learners"][0]
    for wrong in (learner + "x", learner[:-1], learner.replace("@", "."), "dan", ""):
        assert make_handout(klass, tmp_path / "w", wrong) == 2
        err = capsys.readouterr().err
        assert "no handout for learner" in err and "case does not matter" in err
        assert not (tmp_path / "w").exists()
    assert make_handout(klass, tmp_path / "w", learner, "--lesson", "05-weight-tying") == 2
    assert "no lesson '05-weight-tying'" in capsys.readouterr().err and not (tmp_path / "w").exists()


def test_a_handout_already_there_is_kept_unless_forced(klass, tmp_path, capsys):
    learner = klass["learners"][1]
    mine = tmp_path / f"{LESSON}.ipynb"
    mine.write_text("my work")
    assert make_handout(klass, tmp_path, learner) == 2
    assert "already exists" in capsys.readouterr().err and mine.read_text() == "my work"
    assert make_handout(klass, tmp_path, learner, "--force") == 0
    assert mine.read_bytes() == handout_bytes(klass, learner)


def test_a_damaged_or_forged_bundle_is_refused(klass, tmp_path, capsys):
    data = json.loads((klass["tmp"] / "bundle.json").read_text())
    learner = klass["learners"][0]
    salt = bytes.fromhex(data["kdf"]["salt"])
    index = release.entry_index(release.learner_key(learner, salt, data["kdf"]["iterations"]))
    blob = bytearray(base64.b64decode(data["entries"][index]))
    blob[5] ^= 1  # one bit of the sealed body
    tampered = dict(data, entries=dict(data["entries"], **{index: base64.b64encode(bytes(blob)).decode()}))
    cheap = dict(data, kdf=dict(data["kdf"], iterations=1))  # a forged bundle, quick to search
    for bundle, says in ((tampered, "damaged"), (cheap, "damaged"), ({"format": "x"}, "not a public bundle")):
        path = tmp_path / "b.json"
        path.write_text(json.dumps(bundle))
        assert assign.handout_main([str(path), "--learner", learner, "--out", str(tmp_path / "w")]) == 2
        assert says in capsys.readouterr().err and not (tmp_path / "w").exists()


def secret_forms(secret: bytes) -> list[str]:
    """The secret as a bundle could hold it: raw, hex, base64, and each 12-character piece of those."""
    forms = [secret.decode(), secret.hex(), base64.b64encode(secret).decode()]
    return sorted({form[i:i + 12] for form in forms for i in range(0, len(form) - 11)})


def test_the_bundle_holds_no_secret_no_list_of_the_class_and_no_variants_parameters_or_keys(klass):
    data = json.loads((klass["tmp"] / "bundle.json").read_text(encoding="utf-8"))
    assert set(data) == {"format", "version", "about", "lessons", "exercises", "solutions", "kdf", "entries"}
    assert data["solutions"] == {}  # handed out before the due date: no solution in it
    released = json.loads((klass["tmp"] / "released.json").read_text(encoding="utf-8"))
    # the same learners at the same indexes (parameters only), plus the book's solution; each sealed body
    # differs, as it vouches for its own bundle's shared part (release.shared_digest)
    assert set(released["entries"]) == set(data["entries"])
    for learner in klass["learners"]:
        mine, theirs = release.open_public_bundle(data, learner), release.open_public_bundle(released, learner)
        assert dict(mine, shared=None) == dict(theirs, shared=None) and mine["shared"] != theirs["shared"]
    # the entries are an index (64 hex digits) and sealed bytes each; all else is searched as text
    for index, blob in data["entries"].items():
        assert re.fullmatch(r"[0-9a-f]{64}", index) and base64.b64decode(blob, validate=True)
    text = "\n".join(json.dumps(dict(d, entries=None), ensure_ascii=False) for d in (data, released))
    low = text.casefold()
    for piece in secret_forms(SECRET):
        assert piece.casefold() not in low
    roster = klass["roster"]
    for learner in klass["learners"]:
        for value in (learner, roster.value(learner, "name"), roster.value(learner, "email")):
            assert value.casefold() not in low, value
    for learner in klass["learners"]:  # ids Moodle or Canvas know them by, as whole numbers
        assert not re.search(rf"(?<![0-9]){roster.value(learner, f'moodle_id:{LESSON}')}(?![0-9])", text)
    defaults = space_for(LESSON).defaults
    keys = klass["keys"]
    for n in range(1, K + 1):
        params = keys.keys[n].parameters
        assert render_parameters(parameters_of(LESSON, n, SECRET)) not in text
        for name, value in params.items():
            if value != defaults[name] and isinstance(value, (list, str)) and len(json.dumps(value)) > 8:
                assert json.dumps(value) not in text and repr(value) not in text, (n, name)
        for question, value in keys.keys[n].key.items():
            if isinstance(value, dict) or (isinstance(value, (int, float)) and abs(value) >= 1000):
                assert json.dumps(value) not in text, (n, question)
    # the notebooks in it are the public exercise and the book's solution: the book's parameters, no learner's
    exercise = nbformat.reads(data["exercises"][LESSON], as_version=4)
    assert "embedlab" not in exercise.metadata or "learner" not in exercise.metadata["embedlab"]
    assert all(q.name in data["exercises"][LESSON] for q in questions_for(LESSON))
    solution = nbformat.reads(released["solutions"][LESSON], as_version=4)
    assert solution.cells == assign.without_outputs(assign.solution_of(LESSON)).cells


def test_without_an_id_the_entries_say_nothing_more_than_guessing_ids_would(klass):
    data = json.loads((klass["tmp"] / "bundle.json").read_text())
    entries, salt, rounds = data["entries"], bytes.fromhex(data["kdf"]["salt"]), data["kdf"]["iterations"]
    assert rounds >= release.KDF_ITERATIONS
    learners = klass["learners"]
    # the count does not give the class size, and every entry is as long as every other
    assert len(entries) % release.DECOY_ROUNDING == 0 and len(entries) > len(learners)
    assert len({len(blob) for blob in entries.values()}) == 1
    # no fast, unsalted hash of an id is an index (a dictionary of emails would find them at once)
    for learner in learners:
        for ident in (learner, learner.lower(), learner.upper()):
            for h in (hashlib.sha256, hashlib.sha1, hashlib.md5, hashlib.blake2b):
                assert h(ident.encode()).hexdigest() not in entries
    # ids that are not a learner's open nothing, the learners' own open exactly theirs, and the
    # decoys no id of the class: one key per guess, and each guess is a guess at one id
    opened = {}
    for guess in [*learners, *(s.upper() for s in learners), "ada", "ada@uni.example.", "ben ", "Ben", "x" * 64]:
        index = release.entry_index(release.learner_key(guess, salt, rounds))
        if index in entries:
            body = release.unseal(release.learner_key(guess, salt, rounds), base64.b64decode(entries[index]))
            opened.setdefault(index, set()).add(json.loads(body)["learner"])
    assert sorted(next(iter(v)) for v in opened.values()) == sorted(learners)
    assert all(len(v) == 1 for v in opened.values())
    # one learner's key opens no one else's entry (not even a classmate on the same variant)
    variant = klass["keys"].learners
    pair = next((a, b) for a in learners for b in learners if a != b and variant[a] == variant[b])
    key_a = release.learner_key(pair[0], salt, rounds)
    index_b = release.entry_index(release.learner_key(pair[1], salt, rounds))
    assert release.unseal(key_a, base64.b64decode(entries[index_b])) is None
    blobs = [base64.b64decode(entries[release.entry_index(release.learner_key(s, salt, rounds))]) for s in pair]
    assert blobs[0] != blobs[1] and blobs[0][:64] != blobs[1][:64]  # the same variant does not look the same


def test_another_secret_makes_another_bundle_and_the_same_one_the_same_bytes(tmp_path):
    exercise = {LESSON: "{}"}
    mine = {"ada": {LESSON: (2, "x = 1")}, "ben": {LESSON: (1, "x = 2")}}
    paths = [tmp_path / f"{n}.json" for n in range(3)]
    release.write_public_bundle(paths[0], SECRET, exercise, mine, iterations=release.MIN_ITERATIONS)
    release.write_public_bundle(paths[1], SECRET, exercise, mine, iterations=release.MIN_ITERATIONS)
    release.write_public_bundle(paths[2], b"another-instructors-secret", exercise, mine,
                                iterations=release.MIN_ITERATIONS)
    a, b, c = (json.loads(p.read_text()) for p in paths)
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert a["kdf"]["salt"] != c["kdf"]["salt"] and not set(a["entries"]) & set(c["entries"])
    assert release.open_public_bundle(c, "ADA")["lessons"][LESSON] == {"variant": 2, "parameters": "x = 1"}


# --------------------------------------------------------------------------
# Solutions


def test_each_released_solution_is_its_learners_variant_solved_graded_full_marks_on_every_variant(klass):
    """Each learner's solved notebook, handed to the grader as that learner's, scores every point
    against the instructor's keys: for every variant of the lesson (K = 3, each held by a learner)."""
    tmp, keys = klass["tmp"], klass["keys"]
    released = tmp / "released"
    assert sorted(p.name for p in released.iterdir()) == sorted(klass["learners"])
    for learner in klass["learners"]:
        nb = nbformat.read(released / learner / f"{LESSON}-solution.ipynb", as_version=4)
        variant = keys.learners[learner]
        assert nb.metadata["embedlab"] == {"lesson": LESSON, "learner": learner, "variant": variant,
                                           "solution": True}
        ran = assign.variant_solution(assign.solution_of(LESSON), LESSON, keys.keys[variant].parameters)
        assert [c.source for c in nb.cells if c.cell_type == "code"] == \
            [c.source for c in ran.cells if c.cell_type == "code"]  # the code whose run made the keys
        others = [o for o in klass["learners"] if o != learner]
        assert not any(f"`{o}`" in cell.source for o in others for cell in nb.cells)
    scores = tmp / "solution-scores.csv"
    code = cli.main([str(released), "--keys", str(klass["out"] / KEYS_DIR), "--out", str(scores), "-q", "-j", "2"])
    assert code == 0
    with open(scores, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    maximum = sum(q.points for q in questions_for(LESSON))
    by_learner = {}
    for row in rows:
        assert row["status"] == "correct", row
        by_learner[row["learner"]] = by_learner.get(row["learner"], 0) + float(row["points"])
    assert by_learner == {learner: maximum for learner in klass["learners"]}
    assert {keys.learners[learner] for learner in by_learner} == set(range(1, K + 1))


def test_a_solution_that_is_not_the_variants_is_not_full_marks(klass, tmp_path):
    """The check above can fail: a learner's solved notebook with another variant's parameters."""
    keys, learners = klass["keys"], klass["learners"]
    a, b = next((a, b) for a in learners for b in learners if keys.learners[a] != keys.learners[b])
    nb = assign.learner_solution(assign.variant_solution(assign.solution_of(LESSON), LESSON,
                                                         keys.keys[keys.learners[b]].parameters),
                                 LESSON, a, keys.learners[a])
    (tmp_path / a).mkdir()
    nbformat.write(nb, tmp_path / a / f"{LESSON}-solution.ipynb")
    scores = tmp_path / "s.csv"
    assert cli.main([str(tmp_path / a), "--keys", str(klass["out"] / KEYS_DIR), "--out", str(scores), "-q"]) == 0
    rows = list(csv.DictReader(open(scores, newline="", encoding="utf-8")))
    assert rows and all(r["status"] == "wrong_parameters" for r in rows)


# --------------------------------------------------------------------------
# Never overwrite without --force


def test_outputs_that_exist_are_refused_before_anything_runs_and_replaced_only_with_force(klass, tmp_path, capsys):
    tmp = klass["tmp"]
    (tmp_path / "roster.csv").write_bytes((tmp / "roster.csv").read_bytes())
    (tmp_path / "secret.txt").write_bytes(SECRET)
    learner = klass["learners"][0]
    zips = {flag: tmp_path / f"{flag.strip('-')}.zip" for flag in ("--moodle-handouts", "--moodle-solutions")}
    bundle, solved = tmp_path / "bundle.json", tmp_path / "released" / learner / f"{LESSON}-solution.ipynb"
    for path in (*zips.values(), bundle):
        path.write_text("an earlier release")
    earlier = assign.learner_solution(assign.solution_of(LESSON), LESSON, learner, 1)  # an earlier --solutions
    earlier.cells[0].source = "an earlier release"
    solved.parent.mkdir(parents=True)
    nbformat.write(earlier, solved)
    args = ["--moodle-handouts", str(zips["--moodle-handouts"]), "--moodle-solutions",
            str(zips["--moodle-solutions"]), "--public-bundle", str(bundle), "--solutions", str(tmp_path / "released")]
    for drop in range(0, len(args), 2):  # each output alone that exists stops the run
        assert run_assign(tmp_path, *args[drop:drop + 2]) == 2
        assert "already exists" in capsys.readouterr().err
    assert all(p.read_text() == "an earlier release" for p in (*zips.values(), bundle))
    assert "an earlier release" in solved.read_text()
    # a file there that --solutions did not write (a learner's own, in a folder shared with submissions)
    # is not replaced, even with --force
    theirs = tmp_path / "released" / klass["learners"][1] / f"{LESSON}-solution.ipynb"
    theirs.parent.mkdir()
    mine = nbformat.v4.new_notebook(metadata={"embedlab": {"lesson": LESSON, "learner": klass["learners"][1]}})
    nbformat.write(mine, theirs)
    assert run_assign(tmp_path, "--solutions", str(tmp_path / "released"), "--force") == 2
    assert "not replaced, even with --force" in capsys.readouterr().err
    theirs.unlink()
    theirs.parent.rmdir()
    # refused too: an output inside --out, one file named twice, no --out and nothing to release
    (tmp_path / "empty").mkdir()
    for bad, says in ((["--out", str(tmp_path / "empty"), "--moodle-handouts", str(tmp_path / "empty" / "h.zip")],
                       "inside --out"),
                      (["--moodle-handouts", str(tmp_path / "a.zip"), "--moodle-solutions", str(tmp_path / "a.zip")],
                       "the same file"),
                      (["--public-bundle", str(tmp_path / "b.zip")], ".json"),
                      ([], "give --out")):
        assert run_assign(tmp_path, *bad) == 2
        assert says in capsys.readouterr().err
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())  # no temporary file left
    # --force replaces them (one variant: one solution run), with no --out: nothing else kept
    assert assign.main([LESSON, "--roster", str(tmp_path / "roster.csv"), "--secret-file",
                        str(tmp_path / "secret.txt"), "--variants", "1", *args, "--force"]) == 0
    assert all(p.read_bytes() != b"an earlier release" for p in (*zips.values(), bundle))
    assert "an earlier release" not in solved.read_text()
    assert all(zipfile.is_zipfile(p) for p in zips.values())
    assert json.loads(bundle.read_text())["format"] == release.FORMAT
    assert sorted(os.listdir(tmp_path)) == sorted(["roster.csv", "secret.txt", "empty", "released", bundle.name,
                                                   *(p.name for p in zips.values())])


def test_what_book_grading_md_states_of_the_bundle_and_the_zip_is_the_codes():
    page = " ".join((Path(__file__).resolve().parent.parent / "book" / "grading.md").read_text("utf-8").split())
    assert f"PBKDF2-HMAC-SHA256, {release.KDF_ITERATIONS:,} rounds" in page
    assert f"pad their number to a multiple of {release.DECOY_ROUNDING}" in page
    named = lms.moodle_feedback_name("Ada Lovelace", "5001", f"{LESSON}.ipynb")
    assert f"`{named}`" in page and lms.MOODLE_FEEDBACK_PLUGIN in named
    for flag in ("--moodle-handouts", "--public-bundle", "--solutions", "--moodle-solutions", "--public-solutions"):
        assert f"`{flag}" in page and flag in assign.build_parser().format_help()
    assert "make handout BUNDLE=" in page and "--solution" in assign.build_handout_parser().format_help()


def test_solutions_released_later_are_checked_against_the_keys_graded_with(tmp_path, capsys):
    """--keys: a later run's keys must be those the grades came from; keys of another course state
    (here one expected value changed) stop it before anything is written. One variant: one run each."""
    (tmp_path / "roster.csv").write_text("learner\nada\nben\n")
    (tmp_path / "secret.txt").write_bytes(SECRET)
    base = [LESSON, "--roster", str(tmp_path / "roster.csv"), "--secret-file", str(tmp_path / "secret.txt"),
            "--variants", "1"]
    assert assign.main([*base, "--out", str(tmp_path / "class")]) == 0
    keys = tmp_path / "class" / KEYS_DIR
    assert assign.main([*base, "--keys", str(keys), "--solutions", str(tmp_path / "released")]) == 0
    assert sorted(p.name for p in (tmp_path / "released").iterdir()) == ["ada", "ben"]
    changed = tmp_path / "changed"
    changed.mkdir()
    data = json.loads((keys / f"{LESSON}.json").read_text())
    data["keys"]["1"]["key"]["n_params"] += 1  # the course's solution gave another answer then
    (changed / f"{LESSON}.json").write_text(json.dumps(data))
    assert assign.main([*base, "--keys", str(changed), "--solutions", str(tmp_path / "later")]) == 2
    assert "variant 1's parameters or expected values differ" in capsys.readouterr().err
    assert not (tmp_path / "later").exists()
    assert assign.main([*base, "--keys", str(tmp_path), "--solutions", str(tmp_path / "later")]) == 2  # not keys
    assert "--keys" in capsys.readouterr().err and not (tmp_path / "later").exists()


def test_a_run_that_only_hands_out_runs_no_solution_and_makes_the_same_files(klass, tmp_path, monkeypatch, capsys):
    """Handouts hold no key, so a run that writes only --moodle-handouts and --public-bundle (no --out,
    --keys, Gradescope bundle or solutions) starts no solution run (a few seconds a variant), and its
    zip and bundle are byte for byte the ones the full assign run wrote."""
    def no_runs(*args, **kwargs):
        raise AssertionError("a handouts-only run ran the solutions")

    monkeypatch.setattr(assign, "harvest", no_runs)
    tmp = klass["tmp"]
    assert run_assign(tmp, "--moodle-handouts", str(tmp_path / "h.zip"), "--public-bundle", str(tmp_path / "b.json")) == 0
    assert "no solution run (handouts only)" in capsys.readouterr().err
    assert (tmp_path / "h.zip").read_bytes() == (tmp / "handouts.zip").read_bytes()
    assert (tmp_path / "b.json").read_bytes() == (tmp / "bundle.json").read_bytes()
    # anything that holds or checks keys still runs them
    with pytest.raises(AssertionError, match="ran the solutions"):
        run_assign(tmp, "--solutions", str(tmp_path / "released"))


def test_a_release_takes_k_from_the_keys_and_refuses_keys_of_several_k(klass, tmp_path, capsys):
    """Without --variants, a run given --keys uses the K those keys were assigned with (a release
    months later need not remember it; book/a-term.md step 7); keys of lessons assigned with
    different K cannot give one, and the run says so before any solution runs."""
    import json

    parser = assign.build_parser()
    args = parser.parse_args([LESSON, "--roster", str(klass["tmp"] / "roster.csv"), "--secret-file",
                              str(klass["tmp"] / "secret.txt"), "--keys", str(klass["out"] / KEYS_DIR),
                              "--solutions", str(tmp_path / "released")])
    assert args.variants is None
    assign._checked(args)
    assert args.variants == K
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    for i, lesson in enumerate(assign.lessons_to_assign("all")[0]):
        (mixed / f"{lesson}.json").write_text(json.dumps(
            {"format": 1, "lesson": lesson, "variants": 3 + i % 2, "learners": {}, "keys": {}}))
    code = assign.main(["all", "--roster", str(klass["tmp"] / "roster.csv"), "--secret-file",
                        str(klass["tmp"] / "secret.txt"), "--keys", str(mixed), "--solutions", str(tmp_path / "r2")])
    assert code == 2 and "different K" in capsys.readouterr().err
    assert not (tmp_path / "r2").exists()


@pytest.mark.parametrize("forged", ["../escaped", "sub/../../escaped", "ABSOLUTE", "01-toy-table/../../escaped",
                                    "99-no-such-lesson"])
def test_a_forged_bundle_naming_a_lesson_outside_the_course_writes_nothing_anywhere(klass, tmp_path, forged, capsys):
    """A classmate can post a bundle of their own (any secret makes one): its lesson names decide the file
    names embedlab-handout writes. A name that is not one of the course's lessons (a path up, an absolute
    path, a lesson the course does not have) is refused, and nothing is written, in --out or anywhere."""
    home = tmp_path / "home"
    out = home / "clone" / "my-work"
    home.mkdir()
    name = str(tmp_path / "abs" / "escaped") if forged == "ABSOLUTE" else forged
    (tmp_path / "abs").mkdir()
    exercise = json.loads((klass["tmp"] / "bundle.json").read_text())["exercises"][LESSON]
    exercise = exercise.replace(LESSON, name)  # its setup line and metadata name the forged lesson too
    learner = klass["learners"][0]
    params = render_parameters(parameters_of(LESSON, 1, SECRET))
    bundle = tmp_path / "forged.json"
    release.write_public_bundle(bundle, b"a classmate's own secret", {name: exercise},
                                {learner: {name: (1, params)}}, iterations=release.MIN_ITERATIONS)
    before = sorted(p for p in tmp_path.rglob("*"))
    code = assign.handout_main([str(bundle), "--learner", learner, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "not one of the course's lessons" in err
    assert sorted(p for p in tmp_path.rglob("*")) == before  # nothing written: not outside --out, nor in it


def test_every_path_made_from_a_files_content_stays_inside_its_folder(tmp_path):
    """text.inside, which assign, the release outputs and embedlab-handout build every learner's and
    lesson's path with: one plain name per level, and no link on the way leading out."""
    from embedlab.grading.text import inside

    (tmp_path / "out").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out" / "link").symlink_to(tmp_path / "elsewhere")
    assert inside(tmp_path / "out", "ada", "01-toy-table.ipynb") == tmp_path / "out" / "ada" / "01-toy-table.ipynb"
    for names in (("..",), ("../x",), ("a/b",), ("a\\b",), ("",), (".",), (str(tmp_path / "abs"),), ("a\0b",),
                  ("link", "x.ipynb")):
        with pytest.raises(ValueError, match="cannot name a file|leads outside"):
            inside(tmp_path / "out", *names, what="lesson")


@pytest.mark.parametrize("lesson", sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "exercises")
                                          .glob("[0-9][0-9]-*.ipynb")))
def test_no_class_handout_promises_a_check_mark_its_checks_never_print(lesson):
    """issue 45, item 8: a class handout's checks print 📝 (the form only), never ✅; lesson 04's handout
    still opened "✅ means correct". Whatever words a lesson's legend uses, the handout's markdown says 📝."""
    exercise = nbformat.read(Path(__file__).resolve().parent.parent / "exercises" / f"{lesson}.ipynb", as_version=4)
    nb = assign.class_notebook(exercise, lesson)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "✅" not in text, [line for line in text.splitlines() if "✅" in line]
    assert "📝 answered in the right form" in " ".join(text.split())
