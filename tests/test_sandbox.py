"""The sandbox's file system: what a submission's kernel sees, wherever the course lives.

CI clones the course into a folder that may sit under /tmp, and the sandbox gives every
run a private /tmp: the course and its Python environment must still be there, on top of
the private folder, and nothing else of the host's /tmp.
"""

import shutil
import subprocess
import sys

from embedlab.grading import sandbox

BWRAP = shutil.which("bwrap")  # required, like every grader test (.ci/run installs bubblewrap)


def run_inside(code: str, monkeypatch, extra_roots=()):
    roots = sandbox.python_roots() + [str(p) for p in extra_roots]
    monkeypatch.setattr(sandbox, "python_roots", lambda: roots)
    command = sandbox.sandbox_command(BWRAP, [sys.executable, "-c", code])
    return subprocess.run(command, env=sandbox.worker_env("/tmp"), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


def test_a_course_under_tmp_stays_visible_inside_the_private_tmp(tmp_path, monkeypatch):
    course = tmp_path / "course"  # pytest's tmp_path is under /tmp, like a CI clone may be
    course.mkdir()
    (course / "lesson.txt").write_text("the course is here")
    (tmp_path / "other-submission.ipynb").write_text("not for the sandbox")
    code = (f"import os; print(open({str(course / 'lesson.txt')!r}).read()); "
            f"print(os.path.exists({str(tmp_path / 'other-submission.ipynb')!r})); "
            "open('/tmp/work/scratch', 'w').write('ok'); print(os.getcwd())")
    done = run_inside(code, monkeypatch, extra_roots=[course])
    assert done.returncode == 0, done.stderr[-1000:]
    assert done.stdout.splitlines() == ["the course is here", "False", "/tmp/work"]


def test_the_course_is_read_only_inside(tmp_path, monkeypatch):
    course = tmp_path / "course"
    course.mkdir()
    code = f"open({str(course / 'planted.py')!r}, 'w')"
    done = run_inside(code, monkeypatch, extra_roots=[course])
    assert done.returncode != 0 and "Read-only file system" in done.stderr
    assert not (course / "planted.py").exists()
