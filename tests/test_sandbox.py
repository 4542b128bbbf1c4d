"""The sandbox's file system: what a submission's kernel sees, wherever the course lives.

CI clones the course into a folder that may sit under /tmp, and the sandbox gives every
run a private /tmp: the course and its Python environment must still be there, on top of
the private folder, and nothing else of the host's /tmp.
"""

import shutil
import subprocess
import sys

import pytest

from embedlab.grading import budget, sandbox

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


def test_only_tmp_and_dev_shm_are_writable_and_each_is_sized(monkeypatch):
    code = ("import os\n"
            "for folder in ('/', '/etc', '/dev', '/usr', '/dev/shm', '/tmp'):\n"
            "    try:\n"
            "        open(os.path.join(folder, 'planted'), 'w').write('x')\n"
            "        print(folder, 'writable', os.statvfs(folder).f_blocks * os.statvfs(folder).f_frsize)\n"
            "    except OSError as exc:\n"
            "        print(folder, type(exc).__name__)\n")
    done = run_inside(code, monkeypatch)
    assert done.returncode == 0, done.stderr[-1000:]
    assert done.stdout.splitlines() == [
        "/ OSError", "/etc OSError", "/dev OSError", "/usr OSError",
        f"/dev/shm writable {sandbox.SHM_BYTES}", f"/tmp writable {sandbox.TMPFS_BYTES}"]


CHANNEL_PROBE = """
import os, subprocess, sys
from embedlab.grading import worker
read_end, write_end = os.pipe()
if sys.argv[1] == "not-dumpable":
    assert worker.not_dumpable()
os.set_inheritable(write_end, False)
child = ("import sys\\n"
         "try:\\n"
         "    open(f'/proc/{sys.argv[1]}/fd/{sys.argv[2]}', 'w').write('forged')\\n"
         "    print('opened')\\n"
         "except OSError as exc:\\n"
         "    print(type(exc).__name__)\\n")
subprocess.run([sys.executable, "-c", child, str(os.getpid()), str(write_end)])
"""


@pytest.mark.parametrize("mode, result", [("dumpable", "opened"), ("not-dumpable", "PermissionError")])
def test_the_kernel_cannot_open_the_workers_channel_through_proc(mode, result, monkeypatch):
    """The worker's channel is a pipe its child (the kernel) does not inherit; as a dumpable process the
    worker's /proc/<pid>/fd would still let the child open it. Not dumpable, it cannot, inside the sandbox's
    user namespace (bubblewrap drops every capability)."""
    done = run_inside(CHANNEL_PROBE.replace("sys.argv[1]", repr(mode), 1), monkeypatch)
    assert done.returncode == 0, done.stderr[-1000:]
    assert done.stdout.split() == [result]


V1 = ("9:name=systemd:/\n8:pids:/\n4:memory:/process_api/abc\n0::/\n")
V1_MOUNTS = (
    "30 25 0:26 / /sys/fs/cgroup/memory rw,relatime shared:9 - cgroup cgroup rw,memory\n"
    "31 25 0:27 / /sys/fs/cgroup/pids rw,relatime shared:10 - cgroup cgroup rw,pids\n"
    "32 25 0:28 / /sys/fs/cgroup/unified rw,relatime shared:11 - cgroup2 cgroup2 rw\n")
V2_CONTAINER = "0::/docker/abc/grader\n"
V2_MOUNTS = "40 35 0:30 /docker/abc /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n"


def test_own_groups_are_found_where_they_are_mounted():
    assert budget.own_groups(V1, V1_MOUNTS) == {"memory": "/sys/fs/cgroup/memory/process_api/abc",
                                                "pids": "/sys/fs/cgroup/pids", "v2": "/sys/fs/cgroup/unified"}
    assert budget.own_groups(V2_CONTAINER, V2_MOUNTS) == {"v2": "/sys/fs/cgroup/grader"}
    assert budget.own_groups("0::/elsewhere\n", V2_MOUNTS) == {}  # not under what is mounted: never guessed


def test_the_limits_book_grading_md_states_are_the_codes():
    """The sizes and limits the page types in prose are the constants the code uses (seen red with
    SHM_BYTES changed)."""
    from pathlib import Path

    from embedlab.grading.worker import FILE_LIMIT

    page = " ".join((Path(__file__).resolve().parent.parent / "book" / "grading.md").read_text("utf-8").split())
    for phrase in (f"| `--max-processes N` | {sandbox.MAX_PROCESSES} |", f"(default {sandbox.MAX_PROCESSES};",
                   f"`/tmp` (at most {sandbox.TMPFS_BYTES // 2**20} MB)",
                   f"`/dev/shm` (at most {sandbox.SHM_BYTES // 2**20} MB)",
                   f"Each file is at most {FILE_LIMIT // 2**20} MB"):
        assert phrase in page, phrase
    assert sandbox.WATCH_SECONDS == 0.25 and "within a quarter of a second" in page
