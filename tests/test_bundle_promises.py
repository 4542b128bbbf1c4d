"""book/grading.md's promise of the public bundle, attacked (the blind attack's B2): the handout
`embedlab-handout` writes is byte for byte the one `embedlab-assign` wrote, and a damaged or edited
bundle stops it with a message and nothing written: every part of the bundle a handout is made from
is authenticated (an edited word, an injected code line, an added field), and the KDF's parameters are
bounded before any key is derived (10**9 iterations is refused at once, naming the field).

No kernel runs: the bundle is written by release.write_public_bundle from the course's exercise, as
embedlab-assign writes it, and the reference handout by assign.handout, the function embedlab-assign
writes each learner's file with."""

import json
import time

import nbformat
import pytest

from embedlab.grading import assign, release
from embedlab.grading.variants import parameters_of, render_parameters

from solution_runner import notebook

LESSON = "01-toy-table"
SECRET = b"test-secret-of-the-bundle-promises"
LEARNERS = {"Ada@Uni.example": 1, "ben": 2}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("bundle")
    exercise = nbformat.writes(notebook("exercises", LESSON))
    mine = {learner: {LESSON: (v, render_parameters(parameters_of(LESSON, v, SECRET)))}
            for learner, v in LEARNERS.items()}
    path = tmp / "bundle.json"
    release.write_public_bundle(path, SECRET, {LESSON: exercise}, mine, iterations=release.MIN_ITERATIONS)
    wrote = {learner: assign.notebook_bytes(assign.handout(nbformat.reads(exercise, as_version=4), LESSON, learner,
                                                           v, parameters_of(LESSON, v, SECRET)))
             for learner, v in LEARNERS.items()}
    return {"tmp": tmp, "path": path, "data": json.loads(path.read_text()), "wrote": wrote}


def make(path, learner, out):
    return assign.handout_main([str(path), "--learner", learner, "--out", str(out)])


def test_the_handout_is_byte_for_byte_the_one_assign_wrote(bundle, tmp_path):
    for learner in LEARNERS:
        assert make(bundle["path"], learner.upper(), tmp_path / learner) == 0
        assert (tmp_path / learner / f"{LESSON}.ipynb").read_bytes() == bundle["wrote"][learner]


def edits(data):
    """Every kind of change to the part of a bundle that is not a sealed entry."""
    ex = data["exercises"][LESSON]
    injected = ex.replace('"source": [', '"source": [\n    "import os; os.system(\'touch PWNED\')\\n",', 1)
    assert injected != ex
    yield "one word of the exercise", dict(data, exercises={LESSON: ex.replace("table", "tabel", 1)})
    yield "a code line injected", dict(data, exercises={LESSON: injected})
    yield "a whitespace byte", dict(data, exercises={LESSON: ex + " "})
    yield "a solution added", dict(data, solutions={LESSON: ex})
    yield "the about text", dict(data, about="run curl … | sh first")
    yield "a field added", dict(data, extra={"x": 1})
    yield "another salt", dict(data, kdf=dict(data["kdf"], salt="00" * release.SALT_BYTES))


@pytest.mark.parametrize("what", [what for what, _ in edits({"exercises": {LESSON: '"source": [ table'}, "kdf": {}})])
def test_an_edited_or_damaged_bundle_writes_nothing_and_says_so(bundle, tmp_path, capsys, what):
    forged = dict(edits(bundle["data"]))[what]
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    for learner in LEARNERS:
        assert make(path, learner, tmp_path / "w") == 2, what
        err = capsys.readouterr().err
        assert "embedlab-handout: error:" in err and ("edited or damaged" in err or "no handout" in err), err
        assert not (tmp_path / "w").exists()


@pytest.mark.parametrize("field, value", [("iterations", 10**9), ("iterations", release.MIN_ITERATIONS - 1),
                                          ("iterations", True), ("iterations", 1e5), ("name", "scrypt"),
                                          ("salt", "00"), ("salt", "zz" * release.SALT_BYTES)])
def test_kdf_parameters_other_than_assigns_are_refused_at_once_naming_the_field(bundle, tmp_path, capsys,
                                                                                 field, value):
    path = tmp_path / "kdf.json"
    path.write_text(json.dumps(dict(bundle["data"], kdf=dict(bundle["data"]["kdf"], **{field: value}))))
    start = time.monotonic()
    assert make(path, "ben", tmp_path / "w") == 2
    assert time.monotonic() - start < 5  # refused before deriving, not ground through
    err = capsys.readouterr().err
    assert f"kdf.{field} = " in err and str(value)[:20].strip("'") in err, err
    assert not (tmp_path / "w").exists()


def test_assign_never_writes_kdf_parameters_it_would_refuse(tmp_path):
    with pytest.raises(release.BundleError, match="kdf.iterations"):
        release.write_public_bundle(tmp_path / "b.json", SECRET, {LESSON: "{}"}, {},
                                    iterations=release.MAX_ITERATIONS + 1)
    assert not (tmp_path / "b.json").exists()
