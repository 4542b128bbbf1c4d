"""The JupyterLab a learner starts: `make lab`, and the by-hand command the pages give.

It serves the course's top folder, so its file browser holds notebooks/, exercises/,
solutions/ and book/, and every relative link out of a lesson resolves
(../exercises/01-toy-table.ipynb, ../book/how-to-use.md); and it opens lesson 01.
`jupyter lab FILE` alone serves FILE's folder (jupyter_server sets root_dir to it when
root_dir is not given): that was `make lab` until issue 48's newcomer found exercises/
and book/ answering 404 from inside the lab the README opens.

The server is started by `make lab` itself, on a copy of the course (what git tracks),
with the venv of this test run and a "browser" that only records the page JupyterLab
asks it to open. It waits for events, not for time (CONTRIBUTING.md, "Tests that
wait"): the page recorded, the status API answering; each within check_lab's
SERVER_SECONDS.
"""

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit
from urllib.request import url2pathname

import pytest
from tools_loader import load_tool

ROOT = Path(__file__).resolve().parent.parent
check_lab = load_tool("check_lab")
pytestmark = pytest.mark.waits

# a "browser" that writes the page it is asked to open into a file
RECORD_BROWSER = ("import sys, pathlib\n"
                  "pathlib.Path(sys.argv[1]).write_text(sys.argv[2])\n")
LESSON_01 = "notebooks/01-toy-table.ipynb"
# what a lesson or the README sends a learner to, from inside the lab
REACHABLE = ("api/contents/notebooks/01-toy-table.ipynb",
             "api/contents/exercises/01-toy-table.ipynb",
             "api/contents/solutions/01-toy-table.ipynb",
             "files/book/how-to-use.md", "files/book/glossary.md")


def wait_for(what: str, found):
    """found()'s first true value, polled every 0.2 s; past SERVER_SECONDS, fail naming
    `what`."""
    deadline = time.monotonic() + check_lab.SERVER_SECONDS
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        time.sleep(0.2)
    raise TimeoutError(f"waited for {what}: not within {check_lab.SERVER_SECONDS} s")


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def lab_recipe() -> str:
    """The command `make lab` runs, as a learner's shell sees it: `jupyter lab ...`
    with the venv's folder and LAB_ARGS left out."""
    done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), "lab",
                           "LAB_ARGS="], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if "jupyter lab" in line)
    return " ".join(line[line.index("jupyter lab"):].split())


def test_make_lab_serves_the_course_folder_and_opens_lesson_01(tmp_path):
    """`make lab`'s JupyterLab reaches exercises/, solutions/ and book/ (the README's
    steps and lesson 01's links) and opens lesson 01. Seen red on the recipe as it was
    (`jupyter lab notebooks/01-toy-table.ipynb`): the page opened was
    lab/tree/01-toy-table.ipynb and every path of REACHABLE answered 404."""
    course = tmp_path / "course"
    for path in check_lab.course_files():
        (course / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, course / path)
    stamp = tmp_path / "installed"       # this run's venv: make must not set up another
    stamp.touch()
    opened = tmp_path / "opened"
    port, token = check_lab.free_port(), "make-lab-test"
    (tmp_path / "browser.py").write_text(RECORD_BROWSER)
    browser = f"{sys.executable} {tmp_path / 'browser.py'} {opened} %s"
    lab_args = (f"--ServerApp.open_browser=True --ServerApp.browser='{browser}' "
                f"--allow-root --ip=127.0.0.1 --port={port} --ServerApp.port_retries=0 "
                f"--IdentityProvider.token={token} --LabApp.news_url= "
                "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate")
    dirs = ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR",
            "IPYTHONDIR")
    env = {**os.environ, **{name: str(tmp_path / name.lower()) for name in dirs},
           "JUPYTER_PLATFORM_DIRS": "1"}
    with open(tmp_path / "lab.log", "w") as log:
        make = subprocess.Popen(
            ["make", "--no-print-directory", "lab", f"STAMP={stamp}",
             f"BIN={Path(sys.executable).parent}", f"LAB_ARGS={lab_args}"],
            cwd=course, env=env, stdin=subprocess.DEVNULL, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        def page():
            if make.poll() is not None:
                raise RuntimeError(f"make lab exited ({make.returncode}): "
                                   f"{(tmp_path / 'lab.log').read_text()[-2000:]}")
            return opened.exists() and opened.read_text()
        asked = wait_for("make lab's JupyterLab to ask a browser to open a page", page)
        # the page it opens: a file that sends the browser on to the notebook
        redirect = Path(url2pathname(urlsplit(asked).path)).read_text(encoding="utf-8")
        url = re.search(r'<a href="([^"]+)"', redirect)[1]
        base = f"http://127.0.0.1:{port}/"
        wait_for("the server's status API",
                 lambda: status(f"{base}api/status?token={token}") == 200)
        seen = {"opened": urlsplit(url).path,
                **{path: status(f"{base}{path}?token={token}") for path in REACHABLE}}
        wanted = {"opened": f"/lab/tree/{LESSON_01}", **dict.fromkeys(REACHABLE, 200)}
        assert seen == wanted, lab_recipe()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(make.pid, signal.SIGTERM)
        try:
            make.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(make.pid, signal.SIGKILL)
            make.wait()


def test_every_page_gives_the_command_make_lab_runs():
    """The by-hand setup (README's "Setting up"; book/how-to-use.md sends a learner
    there rather than repeating it) starts JupyterLab as `make lab` does, and no page
    names `jupyter lab` otherwise: a page that still said `jupyter lab notebooks/01-...`
    would serve notebooks/ alone. Seen red with README's line as it was."""
    recipe = lab_recipe()
    assert "--ServerApp.root_dir=." in recipe and recipe.endswith(LESSON_01), recipe
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md",
             *sorted((ROOT / "book").glob("*.md"))]
    given = {}
    for page in pages:
        for line in page.read_text(encoding="utf-8").splitlines():
            found = re.match(r"^\s*(?:\$\s+|>\s+)?(jupyter lab\b[^#`]*)", line)
            if found:
                command = " ".join(found[1].split())
                given.setdefault(page.relative_to(ROOT).as_posix(), []).append(command)
    assert "README.md" in given, given
    others = {page: [c for c in commands if c != recipe]
              for page, commands in given.items()}
    assert others == dict.fromkeys(given, []), recipe
