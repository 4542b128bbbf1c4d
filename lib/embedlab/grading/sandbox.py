"""Run one submission fenced in, and bring back plain data (the grader's side of a run).

The grader (embedlab.grading.grader) never runs a submission's code in its own
process. For each submission it starts a worker (embedlab.grading.worker):

* in a bubblewrap sandbox (`bwrap`, the sandbox Flatpak uses): its own user,
  pid, mount, network, IPC and UTS namespaces, a new session, a private
  writable tmpfs as /tmp (its working folder), and read-only views of the
  system's /usr, the Python environment and embedlab's own code, with the
  answer keys' folder covered by an empty tmpfs. Nothing else of the machine
  is there: no other submission, no instructor's folder, no grader process,
  no network (only the sandbox's own loopback);
* or, with --no-sandbox, as a plain child process in a temporary folder, with
  the same limits but none of the isolation (for machines without bubblewrap).

The notebook's bytes go to the worker's standard input; everything comes back
over a pipe the grader creates and owns (`Channel`), read with a byte limit
and against the run's deadline: never a path the submission could replace,
never a pid or a file the submission could write. At the deadline the sandbox
is killed; its pid namespace ends with it, and every process in it (double
forks, `setsid`, ignored signals included). What comes back is plain data that
the grader validates and judges in its own process.

On every path (sandbox or not, control group or not) the grader is the subreaper
of what its runs start (`adopt_orphans`), and writes no result until `settle` has
seen every process of its runs gone: nothing a submission started can change a
result once written.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import math
import os
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from embedlab.grading import budget
from embedlab.grading.code import SOURCE_LIMIT
from embedlab.grading.lessons import ANSWERS_DIR
from embedlab.grading.status import CRASHED, ERROR, FAULT, FINISHED, MEMORY, TIMEOUT
from embedlab.grading.text import printable
from embedlab.grading.wire import TEXT_LIMIT

CHANNEL_LIMIT = 2**20  # bytes a submission's run may send back, in all (each lesson's solution: under 25 kB)
# The grader's memory per submission in progress is bounded by this: the bytes, and at most
# about 25 MB once parsed (the worst case, 1 MB of "{},{},…"), plus LOG_TAIL of the worker's output.
LOG_TAIL = 4000  # bytes of the worker's output kept for a crash report
FINAL_READ = 1 << 20  # bytes still read from the output once a run has ended (its last moments)
TMPFS_BYTES = 256 * 2**20  # size of the sandbox's private /tmp
SHM_BYTES = 64 * 2**20  # size of the sandbox's /dev/shm (the only other writable place in it)
MAX_PROCESSES = 64  # default --max-processes: tasks (processes and threads) of one submission at once
MAX_MAX_PROCESSES = 2**22  # largest --max-processes accepted (the kernel's own pid_max)
WATCH_SECONDS = 0.25  # how often a run's control group is checked against its limits
MAX_SECONDS = 7 * 24 * 3600.0  # largest --timeout / --cell-timeout accepted
MAX_MEMORY_MB = 2**20  # largest --memory-mb accepted (1 TiB)
REPORTED_ERRORS = 100  # error entries kept from one run
REPORTED_CELLS = 2000  # code cells' sources kept from one run (the judge reads them for edits of the given code)

# Environment of the worker and the kernel: nothing of the grader's own environment
# but PATH's basics; one thread per numeric library, no GUI backend, and IPython's and
# Jupyter's folders in the private temp folder.
THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS",
               "VECLIB_MAXIMUM_THREADS")
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64")
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/fonts",
             "/etc/passwd", "/etc/group", "/etc/nsswitch.conf")


@dataclass
class Limits:
    cell_timeout: float = 30.0  # seconds per cell, then the kernel is interrupted
    timeout: float = 300.0  # seconds for the whole run, then everything is killed
    memory_mb: int = 2048  # the submission's memory: its control group's limit, and each process's address space
    max_processes: int = MAX_PROCESSES  # tasks at once in its control group

    def __post_init__(self):
        for name, top in (("cell_timeout", MAX_SECONDS), ("timeout", MAX_SECONDS), ("memory_mb", MAX_MEMORY_MB),
                          ("max_processes", MAX_MAX_PROCESSES)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or not 0 < value <= top:
                raise ValueError(f"{name} must be a finite number above 0 and at most {top:g}, got {name}={value!r}")


@dataclass
class RunResult:
    """What one submission's run produced: the worker's report and the probe's answers (plain data)."""

    state: str  # finished | timeout | crashed | memory | error (refused) | fault
    report: dict = field(default_factory=dict)  # cells run, errors, timeouts (validated)
    answers: dict | None = None  # question name -> probe entry, None if the probe did not report
    detail: str = ""
    seconds: float = 0.0
    peak_bytes: int | None = None  # the most memory its control group held at once (None: no group)


class NotRun(Exception):
    """The worker read the notebook and the grader decided not to run it, or it is unreadable."""


# --------------------------------------------------------------------------
# The sandbox


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


def embedlab_root() -> str:
    """The folder the grader's own embedlab is imported from (lib/ in a source checkout)."""
    import embedlab

    return str(Path(embedlab.__file__).resolve().parent.parent)


def python_roots() -> list[str]:
    """Folders the kernel's Python needs: the environment, its base interpreter, its packages
    and embedlab's code (never the grader's working folder, which may hold submissions)."""
    import site

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             os.path.dirname(os.path.realpath(sys.executable)), embedlab_root(), *site.getsitepackages()}
    roots = {os.path.realpath(p) for p in roots} | {os.path.abspath(p) for p in roots}
    keep = sorted(p for p in roots if os.path.isdir(p) and p != "/"
                  and not any(p == d or p.startswith(d + "/") for d in SYSTEM_DIRS))
    return [p for p in keep if not any(p.startswith(q + "/") for q in keep if q != p)]


def sandbox_command(bwrap: str, argv: list[str]) -> list[str]:
    """The bwrap command line that runs `argv` in a fresh sandbox."""
    cmd = [bwrap, "--unshare-all", "--unshare-user", "--die-with-parent", "--new-session",
           "--uid", "1000", "--gid", "1000", "--hostname", "sandbox"]
    for d in SYSTEM_DIRS:
        if os.path.islink(d):
            cmd += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            cmd += ["--ro-bind", d, d]
    for f in ETC_FILES:
        cmd += ["--ro-bind-try", f, f]
    # The private /tmp comes before the Python environment and the course, which are
    # mounted on top of it: a course cloned under /tmp (as CI may do) stays visible.
    # /dev (bubblewrap's own tmpfs, with the device nodes) and / are made read-only below:
    # /tmp and /dev/shm are the only writable places, each sized.
    cmd += ["--proc", "/proc", "--dev", "/dev",
            "--size", str(SHM_BYTES), "--perms", "1777", "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
            "--size", str(TMPFS_BYTES), "--perms", "1777", "--tmpfs", "/tmp"]
    for root in python_roots():
        cmd += ["--ro-bind", root, root]
    answers = os.path.realpath(ANSWERS_DIR)
    if os.path.isdir(answers):  # hidden: an empty read-only folder in its place
        cmd += ["--tmpfs", answers, "--remount-ro", answers]
    cmd += ["--dir", "/tmp/work", "--chdir", "/tmp/work", "--remount-ro", "/", "--"]
    return cmd + argv


# Passed through from the grader's environment when set: which SIMD kernels numpy runs and which
# kernel OpenBLAS runs (embedlab.numerics: CI grades as an older CPU would). None reveals anything.
PASSED_VARS = ("NPY_DISABLE_CPU_FEATURES", "NPY_ENABLE_CPU_FEATURES", "OPENBLAS_CORETYPE")


def worker_env(tmp: str) -> dict:
    """The whole environment of the worker and the kernel. PYTHONPATH is the folder of the
    grader's own embedlab: the kernel imports the very code that grades it, also from a source
    checkout run with PYTHONPATH=lib, where no installed embedlab exists to fall back on."""
    env = {name: "1" for name in THREAD_VARS}
    env.update({name: os.environ[name] for name in PASSED_VARS if name in os.environ})
    env["PYTHONPATH"] = embedlab_root()
    env.update({"PATH": os.path.dirname(sys.executable) + ":/usr/local/bin:/usr/bin:/bin",
                "HOME": f"{tmp}/home", "LANG": "C.UTF-8", "MPLBACKEND": "Agg",
                "IPYTHONDIR": f"{tmp}/ipython", "MPLCONFIGDIR": f"{tmp}/mpl",
                "JUPYTER_RUNTIME_DIR": f"{tmp}/runtime", "JUPYTER_CONFIG_DIR": f"{tmp}/jupyter",
                "JUPYTER_DATA_DIR": f"{tmp}/jupyter-data", "JUPYTER_PLATFORM_DIRS": "1",
                "MALLOC_ARENA_MAX": "2", "PYDEVD_DISABLE_FILE_VALIDATION": "1", "PYTHONDONTWRITEBYTECODE": "1"})
    return env


_SANDBOX_WORKS: set = set()  # sandbox command lines check_sandbox saw work in this process


def check_sandbox(bwrap: str) -> str | None:
    """None if a sandbox starts here and imports embedlab without seeing the keys; else why not.

    A success is remembered for this process, per command line (bubblewrap, the folders
    mounted): a program that grades several times in one process (the course's tests, a
    library caller) starts the trial sandbox once. A failure is tried again each time."""
    root = embedlab_root()
    code = ("import os, sys\n"
            "try:\n"
            "    import embedlab, embedlab.grading.lessons as l\n"
            "except ImportError as e:\n"
            "    sys.exit(f'IMPORT {type(e).__name__}: {e}')\n"
            "found = os.path.dirname(os.path.dirname(os.path.realpath(embedlab.__file__)))\n"
            f"if found != {root!r}:\n"
            "    sys.exit(f'IMPORT it imports another embedlab, from {found}')\n"
            "assert not any(os.scandir(l.ANSWERS_DIR)), 'the answer keys are visible'\n")
    command = sandbox_command(bwrap, [sys.executable, "-c", code])
    if tuple(command) in _SANDBOX_WORKS:
        return None
    try:
        done = subprocess.run(command, env=worker_env("/tmp"), stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap cannot start a sandbox here ({type(exc).__name__}: {exc})"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip()
        if said.startswith("IMPORT "):
            return (f"bubblewrap starts, but the sandbox's Python ({sys.executable}) cannot import the grader's "
                    f"embedlab from {root} ({said[7:][-300:]}): install the course with `make test` or "
                    f"`pip install -r requirements.txt`, or run the grader from the course's own .venv")
        return f"bubblewrap cannot start a sandbox here ({said[-500:] or f'exit status {done.returncode}'})"
    _SANDBOX_WORKS.add(tuple(command))
    return None


def budget_problem() -> str:
    """Why no control group per submission can be made here ("" when one can): see embedlab.grading.budget."""
    return budget.problem()


def release_groups() -> None:
    """Kill and remove every control group this process made for its runs (the grader is done)."""
    budget.release()


# --------------------------------------------------------------------------
# The channel


class Channel:
    """The read end of a pipe the grader owns: JSON lines, with a byte limit and a deadline."""

    def __init__(self, fd: int, limit: int, deadline: float):
        self.fd, self.limit, self.deadline = fd, limit, deadline
        self.buffer = b""
        self.received = 0
        self.over = False  # more than `limit` bytes came
        self.eof = False
        os.set_blocking(fd, False)

    def read(self) -> dict | None:
        """The next message, or None at the end, past the deadline or past the byte limit."""
        while True:
            line, sep, rest = self.buffer.partition(b"\n")
            if sep:
                self.buffer = rest
                try:
                    message = json.loads(line)
                except (ValueError, RecursionError):
                    message = None
                return message if isinstance(message, dict) else {}
            if self.eof or self.over:
                return None
            left = self.deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], min(left, 1.0))
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                self.eof = True
                continue
            self.received += len(chunk)
            if self.received > self.limit:
                self.over, self.buffer = True, b""
                return None
            self.buffer += chunk


# --------------------------------------------------------------------------
# One run

_LIVE: set = set()  # runs in progress, so that Ctrl-C can stop them all
_LIVE_LOCK = threading.Lock()
_STOPPING = threading.Event()
_ORPHANS = {"adopted": False, "before": set(), "was": False}  # subreaper of what its runs start (adopt_orphans)
PR_SET_CHILD_SUBREAPER, PR_GET_CHILD_SUBREAPER = 36, 37
SETTLE_SECONDS = 10.0  # how long `settle` tries to see every process of the runs gone


def _prctl():
    import ctypes

    return ctypes.CDLL(None, use_errno=True).prctl


def adopt_orphans() -> bool:
    """Make this process the subreaper of everything its runs start, so that a process a submission
    sets loose (a double fork, `setsid`, a sandbox's init outliving bubblewrap's parent) is re-parented
    here, not to init: `kill_orphans` kills it when a run ends, and `settle` sees it before any result
    is written. Every path that grades calls it (the command line, the Gradescope autograder), and
    `disown_orphans` when done; a library caller's own children started meanwhile would count as
    orphans, those it had before do not."""
    import ctypes

    try:
        prctl = _prctl()
        was = ctypes.c_int(0)
        _ORPHANS["was"] = prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(was), 0, 0, 0) == 0 and was.value != 0
        adopted = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        adopted = False
    _ORPHANS["adopted"], _ORPHANS["before"] = adopted, set(_children(os.getpid()))  # those are not orphans
    return adopted


def disown_orphans() -> None:
    """Kill what is left (kill_orphans), then stop being a subreaper unless this process was one before."""
    kill_orphans()
    if _ORPHANS["adopted"] and not _ORPHANS["was"]:
        try:
            _prctl()(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    _ORPHANS["adopted"] = False


def _parents() -> dict[int, tuple[int, str]]:
    """{pid: (parent pid, state)} of every process in /proc (one scan)."""
    found = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            found[int(entry.name)] = (int(fields[1]), fields[0].decode("ascii", "replace"))
        except (OSError, IndexError, ValueError):
            continue
    return found


def _children(pid: int) -> list[int]:
    return [child for child, (parent, _) in _parents().items() if parent == pid]


def descendants(pid: int | None = None, exclude=()) -> dict[int, int]:
    """{pid: parent} of every living process below `pid` (this process by default), leaving out the
    children in `exclude` and everything below them; zombies (dead, not yet reaped) left out."""
    me = os.getpid() if pid is None else pid
    table = _parents()
    below: dict[int, list[int]] = {}
    for child, (parent, _) in table.items():
        below.setdefault(parent, []).append(child)
    found, todo = {}, [me]
    while todo:
        parent = todo.pop()
        for child in below.get(parent, []):
            if child in found or (parent == me and child in exclude):
                continue
            found[child] = parent
            todo.append(child)
    return {child: parent for child, parent in found.items() if table[child][1] not in ("Z", "X")}


def _reap_children(me: int, exclude) -> None:
    """Reap every dead child of this process (not those in `exclude`), without waiting."""
    for pid in _children(me):
        if pid in exclude:
            continue
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass


def settle(seconds: float = SETTLE_SECONDS) -> str:
    """Kill every process the runs started (their workers too: call it when no run is in progress, or
    when stopping) and wait until none is left: "" once that is seen, else why not.

    Seen means: no living process below this one but those it had before adopt_orphans (a scan of
    /proc; with this process the subreaper, a double-forked or `setsid` process is below it too),
    and no process in a run's control group. Each is killed through a pidfd opened while its parent
    is still one of the tree's, so a number reused meanwhile is never signalled. Whoever writes a
    result calls this first; a "" is the promise that nothing a submission started can still change
    what is written."""
    if not _ORPHANS["adopted"]:
        return ("this process could not be made the subreaper of what its runs start (prctl "
                "PR_SET_CHILD_SUBREAPER), so a process a submission set loose cannot be found")
    me, exclude = os.getpid(), _ORPHANS["before"]
    end = time.monotonic() + seconds
    while True:
        tree = descendants(me, exclude)
        grouped = budget.leftover()
        if not tree and not grouped:
            _reap_children(me, exclude)
            return ""
        if time.monotonic() >= end:
            shown = ", ".join(str(p) for p in sorted(set(tree) | set(grouped))[:10])
            return (f"{len(set(tree) | set(grouped))} process(es) a submission started still ran {seconds:g} s after "
                    f"they were killed (pid {shown})")
        budget.kill_leftover()
        for pid, parent in tree.items():
            try:
                fd = os.pidfd_open(pid)
            except OSError:
                continue
            try:
                now = _parents().get(pid)
                if now is not None and (now[0] == parent or now[0] == me):  # still the same process
                    signal.pidfd_send_signal(fd, signal.SIGKILL)
            except OSError:
                pass
            finally:
                os.close(fd)
        _reap_children(me, exclude)
        time.sleep(0.01)


def kill_orphans() -> None:
    """Kill and reap every child of this process that is not a run's worker: after adopt_orphans, what a
    submission left behind. Each is this process's own child, so its number cannot be reused before it
    is reaped here."""
    if not _ORPHANS["adopted"]:
        return
    me = os.getpid()
    for _ in range(100):  # orphans of orphans are re-parented here as their parents die
        with _LIVE_LOCK:  # (held while a worker starts, so a new worker is never taken for an orphan)
            workers = {run.proc.pid for run in _LIVE}
            orphans = [pid for pid in _children(me) if pid not in workers and pid not in _ORPHANS["before"]]
            for pid in orphans:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        if not orphans:
            return
        for pid in orphans:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def stop_all() -> None:
    """Kill every run in progress, and any started from now on (the grader is stopping)."""
    with _LIVE_LOCK:
        _STOPPING.set()
        runs = list(_LIVE)
    for run in runs:
        run.kill()


def reset_stop() -> None:
    """Allow runs again (a new grading in the same process)."""
    _STOPPING.clear()


class _Tail:
    """The last LOG_TAIL bytes of the worker's (and kernel's) output; the rest is dropped."""

    def __init__(self):
        self.chunks = collections.deque()
        self.size = 0

    def add(self, chunk: bytes) -> None:
        self.chunks.append(chunk)
        self.size += len(chunk)
        while self.size - len(self.chunks[0]) >= LOG_TAIL:
            self.size -= len(self.chunks.popleft())

    def text(self) -> str:
        return b"".join(self.chunks)[-LOG_TAIL:].decode("utf-8", "replace")


def read_now(fd: int, tail: _Tail, limit: int = FINAL_READ) -> None:
    """What is in the (non-blocking) pipe `fd` now, into `tail`, without waiting for more and at
    most `limit` bytes. The run's end stops the drain, maybe between the worker's last write and
    its read (a loaded machine: the worker's last line, which a crash report quotes, was lost);
    a process left behind may still be writing, hence the bound."""
    taken = 0
    while taken < limit:
        try:
            chunk = os.read(fd, 65536)
        except OSError:          # BlockingIOError: nothing more there now
            return
        if not chunk:
            return
        taken += len(chunk)
        tail.add(chunk)


def outcome(message: dict | None, limits: Limits, *, passed: str | None, forged: bool, timed_out: bool,
            over: bool, returncode: int, tail: str, kernel_started: bool) -> RunResult:
    """How a run went, from its last message (the report, or None) and what the grader saw: a limit
    of its control group passed, a forged message, the deadline, the channel's byte limit, the
    worker's exit status and last output. A fault is believed only before the submission's kernel
    started (`kernel_started`): after that, the submission's code could have made it."""
    if passed == budget.MEMORY:
        return RunResult(MEMORY, {}, None, f"the submission passed its {limits.memory_mb:,} MB memory limit "
                         "(all its processes and the files it wrote, together) and was stopped")
    if passed == budget.PROCESSES:
        return RunResult(CRASHED, {}, None, f"the submission tried to run more than {limits.max_processes:,} "
                         "processes and threads at once (--max-processes) and was stopped")
    if forged:
        return RunResult(ERROR, {}, None, "a message on the grader's channel did not come from the grading "
                         "worker: refused")
    if timed_out and message is None:
        return RunResult(TIMEOUT, {}, None, f"the whole run passed the {limits.timeout:g} s limit and was stopped")
    if over:
        return RunResult(ERROR, {}, None, f"the run sent more than {CHANNEL_LIMIT:,} bytes back: refused")
    if message is None:
        state = MEMORY if "MemoryError" in tail else CRASHED
        return RunResult(state, {}, None, f"the grading worker stopped (exit status {returncode})" + last_line(tail))
    report = clean_report(message.get("report"))
    state = report["state"]
    if state == FAULT and kernel_started:
        state = CRASHED  # a fault is only believed before the submission's code could run
    if state == CRASHED and any(e["ename"] == "MemoryError" for e in report["errors"]):
        state = MEMORY
    answers = report.pop("answers")
    return RunResult(state, report, answers if state == FINISHED else None, report.get("detail", ""))


class Run:
    """One submission's worker: started, fed, read and killed by the grader."""

    def __init__(self, limits: Limits, sandbox: str | None):
        self.limits, self.sandbox = limits, sandbox
        self.started = time.monotonic()
        self.deadline = self.started + limits.timeout
        self.killed = threading.Event()
        self.stopped = threading.Event()  # the run is over: stop reading its output
        self.kernel_pgid = None
        self.passed = None  # budget.MEMORY or budget.PROCESSES: what its control group passed
        self.forged = False  # a message on the channel did not carry the worker's token
        self.token = secrets.token_hex(16)  # given to the worker only, on its standard input
        self.tail = _Tail()
        self.tmp = None if sandbox else tempfile.TemporaryDirectory(prefix="embedlab-grade-",
                                                                     ignore_cleanup_errors=True)
        self.group = None
        grader_budget = budget.budget()
        if grader_budget is not None:
            self.group = grader_budget.group(limits.memory_mb, limits.max_processes)
        read_end = self._start(grader_budget)
        self.channel = Channel(read_end, CHANNEL_LIMIT, self.deadline)
        with _LIVE_LOCK:
            stopping = _STOPPING.is_set()
        self.drain = threading.Thread(target=self._drain, daemon=True)
        self.drain.start()
        self.watchdog = threading.Timer(limits.timeout, self.kill)
        self.watchdog.daemon = True
        self.watchdog.start()
        if stopping:
            self.kill()

    def _start(self, grader_budget) -> int:
        """Start the worker (in the sandbox, in its control group) and return the read end of its
        channel; on failure, free what was made for it and raise."""
        read_end, write_end = os.pipe()
        sandbox = self.sandbox
        tmp = "/tmp" if sandbox else self.tmp.name
        argv = [sys.executable, "-m", "embedlab.grading.worker", str(write_end)]
        if sandbox:
            argv = sandbox_command(sandbox, argv)
        else:
            os.makedirs(f"{tmp}/work")
        if self.group is not None:
            argv = self.group.command(argv)
        try:
            with _LIVE_LOCK:  # started and known as a worker at once (see kill_orphans)
                self.proc = subprocess.Popen(
                    argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                    env=worker_env(tmp), cwd=None if sandbox else f"{tmp}/work", pass_fds=(write_end,),
                    start_new_session=True,  # its own process group; Ctrl-C in the terminal does not reach it
                )
                _LIVE.add(self)
        except BaseException:
            os.close(read_end)
            self.close_tmp()
            if self.group is not None:
                grader_budget.done(self.group)
            raise
        finally:
            os.close(write_end)
        return read_end

    def _drain(self) -> None:
        """Keep the last LOG_TAIL bytes of the worker's (and kernel's) output, drop the rest, and
        watch the control group's limits. Never waits for the output's end: a process the
        submission started may hold it open; the run's end stops this thread."""
        fd = self.proc.stdout.fileno()
        os.set_blocking(fd, False)
        eof = False
        while not self.stopped.is_set():
            if self.group is not None and self.passed is None:
                self.passed = self.group.passed()
                if self.passed:
                    self.kill()
            if eof:
                self.stopped.wait(WATCH_SECONDS)
                continue
            ready, _, _ = select.select([fd], [], [], WATCH_SECONDS)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                return
            if not chunk:
                eof = True
                if self.group is None:
                    return
                continue
            self.tail.add(chunk)
        if not eof:
            read_now(fd, self.tail)

    def log_tail(self) -> str:
        return self.tail.text()

    def send(self, data: bytes) -> bool:
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, ValueError, OSError):
            return False

    def send_notebook(self, fd: int, size: int) -> bool:
        header = {"size": size, "memory_mb": int(self.limits.memory_mb), "cell_timeout": self.limits.cell_timeout,
                  "token": self.token, "sandboxed": bool(self.sandbox)}  # alone in a pid namespace: waits measured
        if not self.send((json.dumps(header) + "\n").encode()):
            return False
        left = size
        while left > 0:
            chunk = os.read(fd, min(left, 2**20))
            if not chunk:
                break
            left -= len(chunk)
            if not self.send(chunk):
                return False
        return True

    def receive(self, *kinds: str):
        """The next message of one of `kinds` (others in between are noted or skipped), or None
        at the end of the run, past its deadline, or past the channel's byte limit."""
        while True:
            message = self.channel.read()
            if message is None:
                return None
            if message.pop("token", None) != self.token:  # not from the worker (the kernel has no token)
                self.forged = True
                return None
            if "kernel" in message and self.kernel_pgid is None:
                pgid = message["kernel"].get("pgid") if isinstance(message["kernel"], dict) else None
                self.kernel_pgid = pgid if type(pgid) is int and pgid > 1 else -1
            if any(kind in message for kind in kinds):
                return message

    def finish(self, job: dict) -> RunResult:
        """Send the job, wait for the report, and end the run."""
        self.send((json.dumps(job) + "\n").encode())
        self.close_stdin()
        return self.end(self.receive("report"))

    def end(self, message: dict | None) -> RunResult:
        """End the run (kill what is left, reap it) and say how it went, from its last message."""
        timed_out = self.killed.is_set() or time.monotonic() >= self.deadline
        self.kill()
        returncode = self.proc.wait()
        self.stopped.set()
        self.drain.join(timeout=5)
        seconds = time.monotonic() - self.started
        peak = self.group.peak_bytes() if self.group is not None else None
        passed = self.passed or (self.group.passed() if self.group is not None else None)
        result = outcome(message, self.limits, passed=passed, forged=self.forged, timed_out=timed_out,
                         over=self.channel.over, returncode=returncode, tail=self.log_tail(),
                         kernel_started=self.kernel_pgid is not None)
        return dataclasses.replace(result, seconds=seconds, peak_bytes=peak)

    def close_stdin(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def kill(self) -> None:
        """End the run: every process of its control group; the sandbox (its pid namespace ends
        with it), or without one the worker's and the kernel's process groups."""
        self.killed.set()
        if self.group is not None:
            self.group.kill()
        if self.proc.poll() is None:  # not yet reaped, so its pid cannot have been reused
            try:
                if self.sandbox:
                    self.proc.kill()
                else:
                    os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if not self.sandbox and self.kernel_pgid and self.kernel_pgid > 1:
            try:
                os.killpg(self.kernel_pgid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def close(self) -> None:
        """Kill whatever is left, reap it and free everything (safe to call twice)."""
        self.watchdog.cancel()
        self.kill()
        self.close_stdin()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        self.stopped.set()
        self.drain.join(timeout=5)
        if not self.drain.is_alive():  # (a close while it reads would wait for it)
            try:
                self.proc.stdout.close()
            except OSError:
                pass
        try:
            os.close(self.channel.fd)
        except OSError:
            pass
        self.close_tmp()
        if self.group is not None:
            grader_budget = budget.budget()
            if grader_budget is not None:
                grader_budget.done(self.group)
            else:
                self.group.remove()
        with _LIVE_LOCK:
            _LIVE.discard(self)
        kill_orphans()

    def close_tmp(self) -> None:
        if self.tmp is not None:
            self.tmp.cleanup()


def clean_report(report) -> dict:
    """The worker's report as checked plain data: unknown or malformed parts are dropped."""
    report = report if isinstance(report, dict) else {}
    state = report.get("state")
    out = {"state": state if state in (FINISHED, CRASHED, FAULT, TIMEOUT) else CRASHED, "errors": [],
           "timeouts": []}
    detail = report.get("detail")
    out["detail"] = printable(detail[:TEXT_LIMIT]) if isinstance(detail, str) else ""
    if out["state"] != FINISHED and not out["detail"]:
        out["detail"] = "the grading worker reported no result"
    errors = report.get("errors")
    for e in (errors if isinstance(errors, list) else [])[:REPORTED_ERRORS]:
        if isinstance(e, dict) and (e.get("cell") is None or type(e.get("cell")) is int):
            out["errors"].append({"cell": e.get("cell"), "ename": printable(str(e.get("ename"))[:TEXT_LIMIT]),
                                  "evalue": printable(str(e.get("evalue"))[:TEXT_LIMIT])})
    timeouts = report.get("timeouts")
    out["timeouts"] = [t for t in (timeouts if isinstance(timeouts, list) else [])[:REPORTED_ERRORS]
                       if t is None or type(t) is int]
    # the most seconds a timed-out cell waited for a CPU (embedlab.grading.worker.waits_now): a number
    # of seconds at least 0, else not known (None), and then the grader grades a time-out again alone
    wait = report.get("cpu_wait")
    try:
        wait = float(wait) if type(wait) in (int, float) else None
    except OverflowError:  # an int past any float
        wait = None
    out["cpu_wait"] = wait if wait is not None and math.isfinite(wait) and wait >= 0 else None
    defines = report.get("defines")
    out["defines"] = {k: v for k, v in defines.items() if type(v) is int} if isinstance(defines, dict) else {}
    sources = report.get("sources")  # answer cells' source, for the judge to read (never to run)
    out["sources"] = {k: v[:SOURCE_LIMIT] for k, v in sources.items() if isinstance(k, str) and isinstance(v, str)} \
        if isinstance(sources, dict) else {}
    code = report.get("code")  # every code cell's source, for the judge to compare with the given code
    out["code"] = [c[:SOURCE_LIMIT] for c in code[:REPORTED_CELLS] if isinstance(c, str)] \
        if isinstance(code, list) else []
    answers = report.get("answers")
    out["answers"] = answers if isinstance(answers, dict) else None
    return out


def last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip() and "WARNING" not in ln]
    return f": {printable(lines[-1][:TEXT_LIMIT])}" if lines else ""
