"""The sandbox and the budget of one submission (book/grading.md, "Limits" and the threat model).

The sandbox's file system: what a submission's kernel sees, wherever the course lives. CI
clones the course into a folder that may sit under /tmp, and the sandbox gives every run a
private /tmp: the course and its Python environment must still be there, on top of the
private folder, and nothing else of the host's /tmp. Only /tmp and /dev/shm are writable.

The budget: a class of hostile submissions graded by one run of the command line under a
small memory and process limit, watched from outside (each submission's control group); and
--no-sandbox runs that a background process must not hold past their time. (The hostile
class of test_grade_hostile.py runs in another test worker, so the two grader runs overlap.)
"""

import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from embedlab.grading import budget, sandbox

from solution_runner import after_setup
from test_grade_hostile import LESSON, MARK, by_label, marked_processes, read_csv, run_cli, solution_nb

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

    from embedlab.grading.grader import RETRY_WAIT_SHARE
    from embedlab.grading.worker import FILE_LIMIT, INTERRUPT_GRACE

    page = " ".join((Path(__file__).resolve().parent.parent / "book" / "grading.md").read_text("utf-8").split())
    for phrase in (f"| `--max-processes N` | {sandbox.MAX_PROCESSES} |", f"(default {sandbox.MAX_PROCESSES};",
                   f"`/tmp` (at most {sandbox.TMPFS_BYTES // 2**20} MB)",
                   f"`/dev/shm` (at most {sandbox.SHM_BYTES // 2**20} MB)",
                   f"Each file is at most {FILE_LIMIT // 2**20} MB",
                   f"does not stop within {INTERRUPT_GRACE:g} s of its interrupt",
                   f"`--cell-timeout` plus {INTERRUPT_GRACE:g} s, not `--timeout`",
                   f"Where that cannot be seen within {sandbox.SETTLE_SECONDS:g} s,",
                   f"waited for a CPU for at least {RETRY_WAIT_SHARE:.0%} of `--cell-timeout`".replace("%", " %"),
                   f"needed over {1 - RETRY_WAIT_SHARE:.0%} of its limit alone".replace("%", " %"),
                   f"less than {RETRY_WAIT_SHARE:.0%} of its cell limit".replace("%", " %")):
        assert phrase in page, phrase
    assert sandbox.WATCH_SECONDS == 0.25 and "within a quarter of a second" in page



# --------------------------------------------------------------------------
# One budget per submission (book/grading.md, "Limits"): a class graded by one run under a small
# memory and process limit, while this test watches the grader's control groups from outside.

# A whole submission's memory here, between two bounds: each process's address space is limited to it
# too (RLIMIT_AS), and lesson 01's solution needs more than 300 MB of that (7 crashed at 300, full marks at
# 320); the files a submission can write are at most 320 MB (/tmp 256 + /dev/shm 64), so files-everywhere
# passes the budget only with its processes (an honest run holds about 80 MB resident, book/grading.md).
# At 400 that left about 5 MB: once the worker stopped importing numpy (35 MB less), the files and the
# kernel fit under it and the run was never stopped (seen red: files-everywhere `correct`).
BUDGET_MB = 360
BUDGET_PROCESSES = 40
BUDGET_LIMITS = ["--cell-timeout", "20", "--timeout", "40", "-j", "2", "--memory-mb", str(BUDGET_MB),
                 "--max-processes", str(BUDGET_PROCESSES)]
FORGED = f"FORGED-{secrets.token_hex(4)}"
RAW = "\x1b[2K\r./honest-01-toy-table.ipynb,01-toy-table,E,1,1,correct,,\x07\x00\x7f\u202e"


def files_everywhere():
    """Write the whole budget (BUDGET_MB) into each of /dev/shm, /, /etc, /dev and /tmp, keeping what could
    be written: two of them are more than the submission may hold."""
    return after_setup(solution_nb(), (
        "import os\n"
        "chunk = b'x' * 2**20\n"
        "for folder in ('/dev/shm', '/', '/etc', '/dev', '/tmp'):\n"
        "    try:\n"
        "        with open(os.path.join(folder, 'filler'), 'wb') as f:\n"
        f"            for _ in range({BUDGET_MB}):\n"
        "                f.write(chunk)\n"
        "    except OSError:\n"
        "        pass"
    ))


def children_450():
    """Four children, each taking up to 450 MB 10 MB at a time and holding it."""
    return after_setup(solution_nb(), (
        "import os, time\n"
        "kids = []\n"
        "for _ in range(4):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        held = []\n"
        "        try:\n"
        "            for _ in range(45):\n"
        "                held.append(bytearray(10 * 2**20))\n"
        "        except MemoryError:\n"
        "            pass\n"
        "        time.sleep(8)\n"
        "        os._exit(0)\n"
        "    kids.append(pid)\n"
        "for pid in kids:\n"
        "    os.waitpid(pid, 0)"
    ))


def thousand_processes():
    return after_setup(solution_nb(), (
        "import subprocess\n"
        "started = []\n"
        "for _ in range(1000):\n"
        f"    started.append(subprocess.Popen(['/bin/sh', '-c', 'sleep 60; : {MARK}']))"
    ))


def raw_output():
    """Write terminal sequences and a forged CSV row to the worker's output, then kill the worker.
    Written to the kernel's own stdout (ipykernel's copy of fd 1, where it has one): fd 1 itself is
    ipykernel's capture pipe, whose thread forwards it later, and on a loaded machine the kill came
    first and nothing reached the worker's output (the test failed so about once in five)."""
    return after_setup(solution_nb(), (
        "import os, signal, sys\n"
        "out = getattr(sys.stdout, '_original_stdstream_copy', None) or 1\n"
        f"os.write(out, {RAW.encode()!r} + b'\\n')\n"
        f"os.write(out, {RAW.encode()!r})\n"
        "os.kill(os.getppid(), signal.SIGKILL)"
    ))


def forged_report():
    """Open the worker's channel through /proc and send a report of its own, then kill the worker."""
    return after_setup(solution_nb(), (
        "import json, os, signal\n"
        "worker = os.getppid()\n"
        "fd = int(open(f'/proc/{worker}/cmdline', 'rb').read().split(b'\\0')[-2])\n"
        f"report = {{'report': {{'state': 'crashed', 'detail': {FORGED + RAW!r}}}}}\n"
        "with open(f'/proc/{worker}/fd/{fd}', 'w') as channel:\n"
        "    channel.write(json.dumps(report) + '\\n')\n"
        "os.kill(worker, signal.SIGKILL)"
    ))


def watch_groups(found: dict, stop):
    """Record, until `stop`, the most memory and tasks each submission's control group held."""
    import glob

    own = next(line.split(":", 2)[2] for line in open("/proc/self/cgroup").read().splitlines()
               if line.split(":")[1] == "memory")
    memory = f"/sys/fs/cgroup/memory{own.rstrip('/')}/embedlab-grade-*/run-*"
    while not stop.is_set():
        for folder in glob.glob(memory):
            for name, file in (("peak", "memory.max_usage_in_bytes"), ("usage", "memory.usage_in_bytes")):
                try:
                    value = int(open(f"{folder}/{file}").read())
                except (OSError, ValueError):
                    continue
                entry = found.setdefault(folder.rsplit("/", 1)[1], {})
                entry[name] = max(entry.get(name, 0), value)
        for folder in glob.glob("/sys/fs/cgroup/pids/**/embedlab-grade-*/run-*", recursive=True):
            try:
                value = int(open(f"{folder}/pids.current").read())
            except (OSError, ValueError):
                continue
            found["tasks"] = max(found.get("tasks", 0), value)
        time.sleep(0.05)


BUDGET_CLASS = {  # file name -> (builder, expected status of every question, a word of the detail)
    "honest-01-toy-table.ipynb": (solution_nb, "correct", ""),
    "files-everywhere-01-toy-table.ipynb": (files_everywhere, "memory", f"{BUDGET_MB} MB memory limit"),
    "children-450-01-toy-table.ipynb": (children_450, "memory", f"{BUDGET_MB} MB memory limit"),
    "thousand-processes-01-toy-table.ipynb": (thousand_processes, "crashed", "--max-processes"),
    "raw-output-01-toy-table.ipynb": (raw_output, "crashed", "the grading worker stopped"),
    "forged-report-01-toy-table.ipynb": (forged_report, "correct", ""),  # the channel cannot be opened
}


@pytest.fixture(scope="module")
def budget_class(tmp_path_factory):
    import threading

    if budget.problem():
        pytest.skip(f"no control group can be made here ({budget.problem()}): see book/grading.md, Limits")
    base = tmp_path_factory.mktemp("budget")
    folder = base / "class"
    folder.mkdir()
    for name, (build, _, _) in BUDGET_CLASS.items():
        nbformat.write(build(), folder / name)
    found, stop = {}, threading.Event()
    watcher = threading.Thread(target=watch_groups, args=(found, stop), daemon=True)
    watcher.start()
    start = time.monotonic()
    done = run_cli([".", "--out", str(base / "scores.csv"), *BUDGET_LIMITS], folder)
    seconds = time.monotonic() - start
    stop.set()
    watcher.join()
    marked = marked_processes()
    for pid in marked:
        os.kill(pid, signal.SIGKILL)
    print(f"\nbudget class graded in {seconds:.1f} s; groups seen: {found}")
    return {"done": done, "rows": by_label(read_csv(base / "scores.csv")),
            "csv_bytes": (base / "scores.csv").read_bytes(), "found": found, "marked": marked}


@pytest.mark.waits
@pytest.mark.parametrize("name", list(BUDGET_CLASS))
def test_a_submission_is_bounded_as_a_whole(budget_class, name):
    _, status, word = BUDGET_CLASS[name]
    rows = budget_class["rows"][f"./{name}"]
    assert {r["status"] for r in rows} == {status}, rows
    assert all(word in r["detail"] for r in rows), rows[0]["detail"]


@pytest.mark.waits
def test_no_submission_held_more_than_its_budget(budget_class):
    found = budget_class["found"]
    groups = {name: entry for name, entry in found.items() if name.startswith("run-")}
    assert len(groups) >= len(BUDGET_CLASS)  # one control group per submission
    assert max(entry["peak"] for entry in groups.values()) <= BUDGET_MB * 2**20
    assert 0 < found["tasks"] <= BUDGET_PROCESSES  # 1,000 processes tried: never more than the limit at once
    assert budget_class["marked"] == []  # nothing it started is alive


def test_nothing_a_submission_prints_or_forges_reaches_the_csv_or_the_terminal_raw(budget_class):
    data, printed = budget_class["csv_bytes"], budget_class["done"].stdout + budget_class["done"].stderr
    assert not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", data.replace(b"\r\n", b""))
    assert "\u202e".encode() not in data and "\u202e".encode() not in printed
    assert not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", printed.replace(b"\n", b""))
    raw = {r["detail"] for r in budget_class["rows"]["./raw-output-01-toy-table.ipynb"]}
    assert any("correct,,\\x07\\x00\\x7f\\u202e" in d for d in raw), raw  # shown escaped
    assert FORGED.encode() not in data  # the kernel could not reach the worker's channel


def background_holder(seconds):
    """A double-forked, `setsid` process that holds the worker's output open for `seconds`."""
    return after_setup(solution_nb(), (
        "import os, sys\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        os.execv('/bin/sh', ['/bin/sh', '-c', 'sleep {seconds}; : {MARK}'])\n"
        "    os._exit(0)\n"
        "os.waitpid(pid, 0)"
    ))


NO_GROUP = """
import sys
from embedlab.grading import budget
budget._BUDGET = (None, "turned off by the test")
from embedlab.grading import cli
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.waits
@pytest.mark.parametrize("groups", [True, False], ids=["with-groups", "without-groups"])
def test_no_sandbox_still_ends_on_time(tmp_path, groups):
    """--no-sandbox: a background process holding the worker's output cannot make the run outlive --timeout
    plus the stop grace; with a control group it is killed, and a forged report (the kernel runs as the
    grader's user here, so it can open the worker's channel) is refused. (The forged report is graded in
    the run with groups only: the channel's token refuses it, whatever the control groups.)"""
    folder = tmp_path / "class"
    folder.mkdir()
    nbformat.write(background_holder(60), folder / f"a-holder-{LESSON}.ipynb")
    if groups:
        nbformat.write(forged_report(), folder / f"b-forged-{LESSON}.ipynb")
    start = time.monotonic()
    command = [sys.executable, "-m", "embedlab.grade"] if groups else [sys.executable, "-c", NO_GROUP]
    try:
        done = subprocess.run([*command, str(folder), "--out", str(tmp_path / "s.csv"), "--no-sandbox",
                               "--timeout", "20", "--cell-timeout", "10", "-j", "2"],
                              capture_output=True, timeout=120)
    finally:
        seconds = time.monotonic() - start
        marked = marked_processes()
        for pid in marked:
            os.kill(pid, signal.SIGKILL)
    assert done.returncode == 0, done.stderr[-2000:]
    assert seconds < 40, seconds  # the holder sleeps 60 s
    assert marked == []  # the holder was killed: with its control group, or as an orphan of the grader
    rows = by_label(read_csv(tmp_path / "s.csv"))
    holder = rows[str(folder / f"a-holder-{LESSON}.ipynb")]
    assert {r["status"] for r in holder} == {"correct"}, holder
    assert len(rows) == 1 + groups
    if groups:
        forged = rows[str(folder / f"b-forged-{LESSON}.ipynb")]
        assert {r["status"] for r in forged} == {"error"} and all("refused" in r["detail"] for r in forged), forged
        assert FORGED not in (tmp_path / "s.csv").read_text()


def test_a_source_checkout_on_pythonpath_is_the_embedlab_the_sandbox_runs(tmp_path):
    """Run from a source checkout with PYTHONPATH=lib, the grader used to drop PYTHONPATH for the
    sandbox: its kernel imported another embedlab (an installed one) or none, and the grader said
    "install bubblewrap" though bubblewrap was there. The kernel now imports the grader's own code,
    and the trial that checks the sandbox proves it (seen failing with PYTHONPATH left out)."""
    checkout = tmp_path / "checkout" / "lib"
    shutil.copytree(sandbox.embedlab_root() + "/embedlab", checkout / "embedlab",
                    ignore=shutil.ignore_patterns("__pycache__"))
    code = ("import embedlab\nfrom embedlab.grading import sandbox\n"
            f"assert embedlab.__file__.startswith({str(checkout)!r}), embedlab.__file__\n"
            "print(repr(sandbox.check_sandbox(sandbox.bwrap_path())))\n")
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(checkout)},
                          capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "None", done.stdout + done.stderr


def test_the_trial_names_an_embedlab_the_sandbox_cannot_import(monkeypatch, tmp_path):
    """Where the sandbox's Python cannot import the grader's embedlab, the reason says so (not
    "install bubblewrap") and says what to do."""
    monkeypatch.setattr(sandbox, "embedlab_root", lambda: str(tmp_path / "nowhere"))
    why = sandbox.check_sandbox(BWRAP)
    assert why and "cannot import the grader's embedlab" in why and "make test" in why, why
    assert "install bubblewrap" not in why


def test_numpys_kernel_choice_reaches_the_kernel_and_nothing_else_of_the_graders_environment(monkeypatch):
    monkeypatch.setenv("NPY_DISABLE_CPU_FEATURES", "X86_V4")
    monkeypatch.setenv("OPENBLAS_CORETYPE", "Nehalem")
    monkeypatch.setenv("EMBEDLAB_SECRETISH", "grader only")
    env = sandbox.worker_env("/tmp")
    assert env["NPY_DISABLE_CPU_FEATURES"] == "X86_V4" and "EMBEDLAB_SECRETISH" not in env
    assert env["OPENBLAS_CORETYPE"] == "Nehalem"
    assert env["PYTHONPATH"] == sandbox.embedlab_root()


# --------------------------------------------------------------------------
# Nothing a run started outlives it (issue 34): sandbox.settle on its own

CHAIN = r"""
import os, sys, time
depth = int(sys.argv[1])
for i in range(depth):  # each process forks the next and stays alive: a chain `depth` deep
    if os.fork() != 0:
        time.sleep(120)
        os._exit(0)
os.setsid()  # the deepest: a new session, double-forked, so only a subreaper finds it
if os.fork() != 0:
    os._exit(0)
time.sleep(120)
"""

SETTLE = r"""
import os, subprocess, sys, time
from pathlib import Path
from embedlab.grading import sandbox
mark = sys.argv[1]

def marked():  # the chain's processes (not this one, whose command line holds the mark too)
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if mark.encode() in cmdline.read_bytes() and int(cmdline.parent.name) != os.getpid():
                found.append(int(cmdline.parent.name))
        except OSError:
            pass
    return found

print(bool(sandbox.settle()))  # not a subreaper yet: settle cannot promise anything, and says so
sandbox.adopt_orphans()
subprocess.Popen([sys.executable, "-c", sys.argv[2], "30", mark], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def sid(pid):
    try:
        return os.getsid(pid)
    except OSError:  # gone meanwhile
        return None

def built():  # the whole chain, the deepest already double-forked: 30 here, 1 in a session no one leads
    found = marked()
    away = [p for p in found if sid(p) != os.getsid(0)]
    return len(found) == 31 and len(away) == 1 and sid(away[0]) not in (None, away[0])

end = time.monotonic() + 240  # the event waited for is the chain built; the deadline is only a backstop
while not built() and time.monotonic() < end:
    time.sleep(0.05)
if not built():
    sys.exit(f"the chain was not built in 240 s: {len(marked())} of its 31 processes seen")
print(len(marked()))
print(repr(sandbox.settle()))
print(len(marked()))
"""


@pytest.mark.waits
def test_settle_kills_every_process_below_the_grader_however_deep_or_detached():
    """A chain of 30 processes, the last one double-forked into a new session: settle sees them, kills them
    and returns "" only once none is alive; before adopt_orphans it refuses to promise."""
    mark = f"settle-{secrets.token_hex(6)}"
    done = subprocess.run([sys.executable, "-c", SETTLE, mark, CHAIN], capture_output=True, text=True, timeout=400)
    try:
        assert done.returncode == 0, done.stderr[-2000:]
        refused, before, said, after = done.stdout.split()
        assert (refused, before, said, after) == ("True", "31", "''", "0")
    finally:  # (on failure: what is left of the chain)
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                if mark.encode() in cmdline.read_bytes():
                    os.kill(int(cmdline.parent.name), signal.SIGKILL)
            except OSError:
                pass


@pytest.mark.waits
def test_the_last_output_before_the_run_ended_is_kept_however_late_the_drain_reads_it():
    """Under load, the run's end could stop the drain between the worker's last write and its read,
    and a crash report lost the worker's last line ("the grading worker stopped (exit status -9)"
    without it: seen in a CI run). What is in the pipe when the drain stops is read then, bounded."""
    import threading
    import types

    read_fd, write_fd = os.pipe()
    os.write(write_fd, b"a line before\nthe last line\n")
    stopped = threading.Event()
    stopped.set()                      # the end came before the drain read anything
    fake = types.SimpleNamespace(proc=types.SimpleNamespace(stdout=os.fdopen(read_fd, "rb")), stopped=stopped,
                                 group=None, passed=None, tail=sandbox._Tail(), kill=lambda: None)
    sandbox.Run._drain(fake)
    assert sandbox.last_line(fake.tail.text()) == ": the last line"
    os.write(write_fd, b"x" * 60000)
    tail = sandbox._Tail()
    sandbox.read_now(read_fd, tail, limit=1000)           # bounded: one read, then it stops
    assert 1000 <= tail.size <= 65536
    fake.proc.stdout.close()
    os.close(write_fd)
