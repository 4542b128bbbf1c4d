"""One budget per submission: a control group with a memory limit and a process limit.

Where the grader may make control groups nested under its own, each submission's
worker (and so its sandbox, its kernel and everything they start) runs in a group
made for it alone, one per hierarchy:

* memory: `--memory-mb` for everything the submission holds at once: the pages
  of all its processes, and every page of the tmpfs files it writes (the
  sandbox's `/tmp` and `/dev/shm`), which the kernel charges to the group of the
  process that wrote them. At the limit the kernel's OOM killer acts inside the
  group, and the grader then kills the whole group;
* pids: `--max-processes` tasks (processes and threads) at once. A fork past it
  fails, and the grader then kills the whole group.

Two kinds of control groups are supported: cgroup v1 with the `memory` and
`pids` controllers mounted (writable by root only; the machine this course is
built on and its CI), and cgroup v2 where the grader's own group lets it enable
both controllers for a child (a delegated subtree). The grader makes one folder
`embedlab-grade-PID-XXXX` inside its own group of each hierarchy and the
submissions' groups inside that; nothing is created or moved anywhere else.
Where no group can be made, `problem()` says why, and the weaker bounds of
book/grading.md hold (per-process address space, sized tmpfs).

The groups are removed when each run ends, and the grader's folder when it
stops (`release`, also called at exit); a grader killed with SIGKILL leaves its
empty folders behind.
"""

from __future__ import annotations

import atexit
import errno
import os
import secrets
import shlex
import signal
import threading
import time

MEMORY, PROCESSES = "memory", "processes"  # what a group passed (`Group.passed`)


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def _write(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def _counter(text: str | None, name: str) -> int:
    """The value of `name` in a flat keyed file (`oom_kill 1`, `max 3`), 0 if absent."""
    for line in (text or "").splitlines():
        key, _, value = line.partition(" ")
        if key == name and value.strip().isdigit():
            return int(value)
    return 0


def own_groups(cgroup_text: str, mountinfo_text: str) -> dict:
    """{"memory": folder, "pids": folder} of this process's own v1 groups, or {"v2": folder}
    of its own v2 group, as far as they are mounted here (a group whose folder cannot be told
    is left out)."""
    mounts = {}  # controller name, or "v2" -> (mount root inside the hierarchy, mount point)
    for line in mountinfo_text.splitlines():
        left, sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if not sep or len(fields) < 5 or len(tail) < 3:
            continue
        root, point = fields[3], fields[4].replace("\\040", " ")
        if tail[0] == "cgroup2":
            mounts.setdefault("v2", (root, point))
        elif tail[0] == "cgroup":
            for option in tail[2].split(","):
                if option in ("memory", "pids"):
                    mounts.setdefault(option, (root, point))
    found = {}
    for line in cgroup_text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        names = ["v2"] if parts[0] == "0" and parts[1] == "" else parts[1].split(",")
        for name in names:
            if name not in mounts:
                continue
            root, point = mounts[name]
            path = parts[2]
            if root != "/" and not (path == root or path.startswith(root.rstrip("/") + "/")):
                continue  # a group outside what is mounted here
            rest = path[len(root.rstrip("/")):] if root != "/" else path
            found[name] = os.path.normpath(point + "/" + rest.lstrip("/"))
    return found


class Group:
    """One submission's control group (one folder per hierarchy)."""

    def __init__(self, version: int, folders: list[str], memory_mb: int, max_processes: int):
        self.version, self.folders = version, folders
        self.memory_mb, self.max_processes = memory_mb, max_processes
        self.removed = False

    def _file(self, controller: str, name: str) -> str:
        if self.version == 2:
            return os.path.join(self.folders[0], name)
        return os.path.join(self.folders[0 if controller == MEMORY else 1], name)

    def limit(self) -> None:
        size = str(int(self.memory_mb) * 2**20)
        if self.version == 2:
            _write(self._file(MEMORY, "memory.max"), size)
            for name, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
                if os.path.exists(self._file(MEMORY, name)):
                    _write(self._file(MEMORY, name), value)
        else:
            _write(self._file(MEMORY, "memory.limit_in_bytes"), size)
            if os.path.exists(self._file(MEMORY, "memory.memsw.limit_in_bytes")):  # no escape into swap
                _write(self._file(MEMORY, "memory.memsw.limit_in_bytes"), size)
        _write(self._file(PROCESSES, "pids.max"), str(int(self.max_processes)))

    def command(self, argv: list[str]) -> list[str]:
        """`argv` run by a shell that first moves itself into this group (so that nothing of
        the run ever starts outside it: no fork happens before the move)."""
        moves = " && ".join(f"echo $$ > {shlex.quote(os.path.join(folder, 'cgroup.procs'))}"
                            for folder in self.folders)
        return ["/bin/sh", "-c", f"{moves} || exit 125; exec \"$@\"", "sh", *argv]

    def passed(self) -> str | None:
        """MEMORY if the kernel had to kill in the group at its memory limit, PROCESSES if a fork
        failed at its process limit, else None."""
        if self.version == 2:
            memory = _counter(_read(self._file(MEMORY, "memory.events")), "oom_kill")
        else:
            memory = _counter(_read(self._file(MEMORY, "memory.oom_control")), "oom_kill")
        if memory:
            return MEMORY
        if _counter(_read(self._file(PROCESSES, "pids.events")), "max"):
            return PROCESSES
        return None

    def peak_bytes(self) -> int | None:
        """The most memory the group held at once (None where the kernel does not say)."""
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        text = _read(self._file(MEMORY, name))
        return int(text) if text and text.strip().isdigit() else None

    def pids(self) -> list[int]:
        pids = set()
        for folder in self.folders:
            text = _read(os.path.join(folder, "cgroup.procs")) or ""
            pids.update(int(p) for p in text.split() if p.isdigit())
        return sorted(pids)

    def kill(self) -> None:
        """SIGKILL every process in the group (each through a pidfd opened while it is still
        in the group, so a number reused meanwhile is never signalled)."""
        if self.removed:
            return
        if self.version == 2 and os.path.exists(self._file(MEMORY, "cgroup.kill")):
            try:
                _write(self._file(MEMORY, "cgroup.kill"), "1")
                return
            except OSError:
                pass
        for _ in range(100):  # a fork bomb refills it at most `max_processes` at a time
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    fd = os.pidfd_open(pid)
                except OSError:
                    continue
                try:
                    if pid in self.pids():
                        signal.pidfd_send_signal(fd, signal.SIGKILL)
                except OSError:
                    pass
                finally:
                    os.close(fd)

    def remove(self, wait: float = 2.0) -> bool:
        """Kill what is left and remove the group's folders; False if one is still busy."""
        if self.removed:
            return True
        end = time.monotonic() + wait
        while True:
            self.kill()
            left = []
            for folder in self.folders:
                try:
                    os.rmdir(folder)
                except FileNotFoundError:
                    pass
                except OSError:
                    left.append(folder)
            self.folders = left or self.folders
            if not left:
                self.removed = True
                return True
            if time.monotonic() >= end:
                return False
            time.sleep(0.02)


class Budget:
    """The grader's own folder in each hierarchy, and the submissions' groups made in it."""

    def __init__(self, version: int, parents: list[str]):
        self.version, self.parents = version, parents
        self.groups: set[Group] = set()
        self.lock = threading.Lock()
        self.count = 0

    def group(self, memory_mb: int, max_processes: int) -> Group:
        with self.lock:
            self.count += 1
            name = f"run-{self.count}"
        folders = [os.path.join(parent, name) for parent in self.parents]
        made = []
        try:
            for folder in folders:
                os.mkdir(folder)
                made.append(folder)
            group = Group(self.version, folders, memory_mb, max_processes)
            group.limit()
        except BaseException:
            for folder in made:
                try:
                    os.rmdir(folder)
                except OSError:
                    pass
            raise
        with self.lock:
            self.groups.add(group)
        return group

    def done(self, group: Group) -> None:
        if group.remove():
            with self.lock:
                self.groups.discard(group)

    def release(self) -> None:
        """Kill and remove every group left, then the grader's own folders."""
        with self.lock:
            groups = list(self.groups)
        for group in groups:
            self.done(group)
        for parent in self.parents:
            try:
                os.rmdir(parent)
            except OSError:
                pass


def make_budget(cgroup_text: str, mountinfo_text: str) -> tuple[Budget | None, str]:
    """The grader's budget (its folders made and a trial group limited), or (None, why not)."""
    own = own_groups(cgroup_text, mountinfo_text)
    name = f"embedlab-grade-{os.getpid()}-{secrets.token_hex(3)}"
    if "memory" in own and "pids" in own:
        version, parents = 1, [os.path.join(own["memory"], name), os.path.join(own["pids"], name)]
    elif "v2" in own:
        version, parents = 2, [os.path.join(own["v2"], name)]
        enabled = (_read(os.path.join(own["v2"], "cgroup.subtree_control")) or "").split()
        available = (_read(os.path.join(own["v2"], "cgroup.controllers")) or "").split()
        if not {"memory", "pids"} <= set(available):
            return None, "cgroup v2 without the memory and pids controllers for the grader's own group"
        if not {"memory", "pids"} <= set(enabled):
            try:  # fails where the grader's own group holds processes (not delegated to it)
                _write(os.path.join(own["v2"], "cgroup.subtree_control"), "+memory +pids")
            except OSError as exc:
                return None, f"cgroup v2: cannot enable memory and pids below the grader's own group ({exc.strerror})"
    else:
        return None, "no cgroup memory and pids controllers mounted for the grader's own group"
    made = []
    try:
        for parent in parents:
            os.mkdir(parent)
            made.append(parent)
        if version == 2:
            _write(os.path.join(parents[0], "cgroup.subtree_control"), "+memory +pids")
        budget = Budget(version, parents)
        budget.done(budget.group(64, 64))  # a trial: the limits can be written
    except OSError as exc:
        for parent in reversed(made):
            try:
                os.rmdir(parent)
            except OSError:
                pass
        why = exc.strerror or type(exc).__name__
        where = "v1" if version == 1 else "v2"
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            why += ": making control groups takes root (v1) or a delegated subtree (v2)"
        return None, f"cannot make a cgroup {where} group under the grader's own ({why})"
    return budget, ""


_BUDGET: tuple[Budget | None, str] | None = None
_LOCK = threading.Lock()


def budget() -> Budget | None:
    """This process's budget, made on first use (None where no group can be made)."""
    global _BUDGET
    with _LOCK:
        if _BUDGET is None:
            _BUDGET = make_budget(_read("/proc/self/cgroup") or "", _read("/proc/self/mountinfo") or "")
            if _BUDGET[0] is not None:
                atexit.register(release)
        return _BUDGET[0]


def problem() -> str:
    """Why no group per submission can be made here ("" when they can)."""
    budget()
    return _BUDGET[1] if _BUDGET else ""


def leftover() -> list[int]:
    """Processes still in a run's control group (a group whose removal failed, or a run in progress)."""
    with _LOCK:
        made = _BUDGET[0] if _BUDGET else None
    if made is None:
        return []
    with made.lock:
        groups = list(made.groups)
    return sorted({pid for group in groups if not group.removed for pid in group.pids()})


def kill_leftover() -> None:
    """Kill every process in the runs' control groups, and remove the groups that empty."""
    with _LOCK:
        made = _BUDGET[0] if _BUDGET else None
    if made is not None:
        with made.lock:
            groups = list(made.groups)
        for group in groups:
            group.kill()
            if group.remove(wait=0):
                with made.lock:
                    made.groups.discard(group)


def release() -> None:
    """Remove every group this process made (the runs are over, or being stopped)."""
    global _BUDGET
    with _LOCK:
        made, _BUDGET = _BUDGET, None
    if made and made[0] is not None:
        made[0].release()
