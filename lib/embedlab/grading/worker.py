"""The grading worker: runs one submission's cells and the probe in a fresh kernel.

Started by the grader (embedlab.grading.sandbox), inside the submission's
sandbox, as ``python -m embedlab.grading.worker CHANNEL_FD``. It talks to the
grader over two pipes the grader owns, never through a file:

* standard input, from the grader: one JSON line (the notebook's size, the
  lesson the grader expects, the limits), the notebook's bytes, then, once the
  grader has decided the lesson, one JSON line with the lesson and the inputs
  of its function questions;
* CHANNEL_FD, to the grader: one JSON line per message (`frame`): what the
  notebook says it is, the kernel's process group (used only without a
  sandbox), and the final report with the probe's answers as plain data.
  Every message carries the token the grader sent on standard input; the
  worker makes itself not dumpable before it reads it, so the kernel can
  neither open the channel through /proc/<worker>/fd nor read the token (a
  message without it is refused).

It limits itself first (memory, file size, no core files; the kernel inherits
the limits), then runs every code cell in a fresh kernel with nbclient (errors
do not stop the run, a cell past the cell timeout is interrupted, outputs are
dropped except error names; a cell that does not stop within INTERRUPT_GRACE
of its interrupt, counted in the kernel's own time (`held_back`: its waits for
a CPU left out), ends the run as a timeout, its kernel killed; in the sandbox,
the report says how long a timed-out cell's tasks waited for a CPU, see
`waits_now`), then the probe
cell (embedlab.grading.wire), whose published result it keeps. Everything it sends is untrusted by the grader: the
submission's code runs in this sandbox too.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from dataclasses import dataclass

from embedlab.grading.status import CRASHED, FAULT, FINISHED, TIMEOUT
from embedlab.grading.wire import PROBE_MIME, TEXT_LIMIT, answer_sources, code_sources, probe_cell

FILE_LIMIT = 256 * 2**20  # bytes: RLIMIT_FSIZE for the worker and the kernel
HEADER_LIMIT = 2**16  # bytes of the grader's first line
JOB_LIMIT = 64 * 2**20  # bytes of the grader's job line (the function questions' inputs)
TIMEOUT_ENAME = "CellTimeout"
INTERRUPT_GRACE = 5.0  # seconds a cell interrupted at the cell limit has to stop before its kernel is killed
# (the kernel's own seconds: its waits for a CPU are not counted, see `held_back`)
GRACE_POLL = 0.2  # seconds between two looks at the kernel's waits while the grace runs


# `python -m ipykernel_launcher`, with the kernel's debugger left out: ipykernel imports debugpy (and
# its vendored pydevd) when the kernel object is made, only to serve Jupyter's debug requests, which
# the grader never sends (about 0.08 s of CPU of a kernel's 0.5 s start). debugpy is marked absent
# while ipykernel.debugger is first imported (it then records the debugger as unavailable), and the
# mark is removed before any cell runs, so a submission that imports debugpy gets it as in any
# kernel. Then ipykernel_launcher runs as `-m` runs it (runpy: its sys.argv[0], its __main__).
KERNEL_LAUNCHER = (
    "import sys\n"
    "sys.modules['debugpy'] = None\n"
    "try:\n"
    "    import ipykernel.debugger\n"
    "finally:\n"
    "    del sys.modules['debugpy']\n"
    "import runpy\n"
    "runpy.run_module('ipykernel_launcher', run_name='__main__', alter_sys=True)\n"
)


def apply_limits(memory_mb: int) -> None:
    """Limit this process and every process it starts (the kernel inherits the limits).

    Set by the worker itself, first thing, rather than in a preexec_fn: the grader
    runs several workers from threads, and code between fork and exec is unsafe there.
    """
    import resource

    size = int(memory_mb) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


TOKEN = {"token": None}  # the grader's token for this run (from its first line), sent with every message


def not_dumpable() -> bool:
    """Make this process not dumpable: /proc/<worker>/fd (the channel), /proc/<worker>/mem and
    ptrace are then closed to every process without CAP_SYS_PTRACE, the kernel included (the
    sandbox drops every capability). Done first, before the grader's token is read."""
    import ctypes

    PR_SET_DUMPABLE = 4
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


# How long a timed-out cell waited for a CPU: the grader grades a submission again alone only when
# its time-out may be its neighbours' doing (embedlab.grading.grader.neighbours_may_have_slowed).
# Linux counts, for every task (process or thread), the nanoseconds it spent runnable but waiting
# for a CPU: the 2nd field of /proc/<pid>/task/<tid>/schedstat (its run_delay; the kernel's own
# accounting, which no code of the submission can write). Read in the sandbox, whose pid namespace
# holds only this worker and what it started, the sum over every task is the wait of the whole
# submission: its kernel, its threads, its child processes. A task that ends takes its count with
# it: when one ended during the cell (present at its start and gone, or started and gone: the pid
# namespace's last pid says how many started), the wait is not known, and the grader grades it
# again, as it does without a sandbox (the worker then sees every process of the machine).
PID_NS_LAST = "/proc/sys/kernel/ns_last_pid"


def waits_now() -> tuple[dict[int, int], int] | None:
    """({tid: nanoseconds it has waited for a CPU} of every task this worker can see, the last pid
    handed out in its pid namespace), or None when /proc cannot tell (not Linux, not readable)."""
    try:
        with open(PID_NS_LAST, "rb") as f:
            last = int(f.read())
        waited = {}
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                tids = os.listdir(f"/proc/{pid}/task")
            except OSError:  # ended meanwhile: its tasks are missed, so the wait is not known (wait_between)
                continue
            for tid in tids:
                try:
                    with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as f:
                        waited[int(tid)] = int(f.read().split()[1])
                except (OSError, IndexError, ValueError):
                    continue
        return waited, last
    except (OSError, ValueError):
        return None


def wait_between(start, end) -> float | None:
    """Seconds the tasks waited for a CPU between two `waits_now` readings; None when not known:
    a reading failed, a task present at the start is gone at the end, or a task started and ended
    in between (the pid namespace handed out more pids than the new tasks alive at the end)."""
    if start is None or end is None:
        return None
    (before, last_before), (after, last_after) = start, end
    if last_after < last_before or any(tid not in after for tid in before):
        return None  # pids wrapped around, or a task ended: what it waited is gone with it
    new = [tid for tid in after if tid > last_before]  # the pids handed out in between, still alive
    if len(new) != last_after - last_before or any(tid > last_after for tid in new):
        return None  # a task started and ended in between (or one started while a reading was made)
    return sum(max(0, after[tid] - before.get(tid, 0)) for tid in after) / 1e9


# How long an interrupted cell takes to stop is the kernel's own work plus its waits for
# a CPU. The work is small but not nothing: IPython formats the KeyboardInterrupt's
# traceback in its "Context" mode, parsing the source file of every frame (lesson 01's
# `ex.summary()`, stopped inside a function answer that never returns: 0.33 s of the
# kernel's CPU, through exercise.py, verdicts.py and the 2,800 lines of kinds.py). On a
# busy machine the waits are what grows: beside eight busy processes of their own
# sessions on two cores (at load 9 from other work) that stop took 2.5 s on the clock,
# of which its main thread waited 2.2 s for a CPU; `make test` once made it more than
# 5 s, and a submission lost the points of every answer it had right. So the grace
# counts the kernel's own time only: the seconds on the clock since the interrupt, less
# the longest any of the kernel's threads waited for a CPU meanwhile (Linux's run_delay,
# /proc/<kernel>/task/<tid>/schedstat, which the submission's code cannot write). It is
# at most the seconds on the clock, so a kernel that ignores the interrupt still ends
# the run; a starved one does so later, and the whole run's limit bounds every case.


def thread_waits(pid: int) -> dict[int, int] | None:
    """{tid: nanoseconds it has waited for a CPU} of every thread of process `pid`, or
    None when /proc cannot tell (not Linux, the process gone)."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    waited = {}
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat", "rb") as f:
                waited[int(tid)] = int(f.read().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return waited or None


def held_back(start: dict[int, int] | None, end: dict[int, int] | None) -> float:
    """Seconds the thread that waited longest for a CPU between two `thread_waits`
    readings waited (a thread started in between: all its waits); 0 when either reading
    is missing. Never more than the seconds between the readings: one thread waits at
    most all of them."""
    if not start or not end:
        return 0.0
    return max(0, max(waited - start.get(tid, 0) for tid, waited in end.items())) / 1e9


def frame(channel: int, message: dict) -> None:
    """Send one message to the grader: a JSON line with the run's token, written whole."""
    data = (json.dumps({**message, "token": TOKEN["token"]}) + "\n").encode()
    while data:
        data = data[os.write(channel, data):]


def read_exactly(stream, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = stream.read(min(left, 2**20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_notebook(raw: bytes):
    """The notebook (nbformat) or a ValueError saying why it cannot be read."""
    # nbformat imports jsonschema, which imports rfc3987_syntax if installed (the Jupyter
    # stack installs it); that builds a URI grammar at import time: ~2.5 s of CPU per
    # worker, for a format check the worker never runs. Mark it absent: jsonschema skips it.
    sys.modules.setdefault("rfc3987_syntax", None)
    import nbformat

    try:
        nb = nbformat.reads(raw.decode("utf-8"), as_version=4)
    except Exception as exc:  # noqa: BLE001 - any failure to parse is "unreadable"
        # Say where, never quote the file: its bytes are not the grader's to repeat in the CSV.
        cause = exc.__cause__ or exc.__context__ or exc
        where = f" at line {cause.lineno} column {cause.colno}" if isinstance(cause, json.JSONDecodeError) else ""
        raise ValueError(f"not a readable notebook ({type(exc).__name__}{where})") from None
    if not isinstance(nb.get("cells"), list) or not isinstance(nb.get("metadata"), dict):
        raise ValueError("not a readable notebook (no list of cells)")
    return nb


def notebook_says(nb) -> dict:
    """What the notebook's metadata says it is: lesson, and for a class handout learner and
    variant (each None when absent or not of its type; text cut to 80 characters)."""
    meta = nb.metadata.get("embedlab")
    meta = meta if isinstance(meta, dict) else {}
    out = {}
    for name, kind in (("lesson", str), ("learner", str), ("variant", int)):
        value = meta.get(name)
        out[name] = (value[:80] if kind is str else value) if type(value) is kind else None
    return out


PARAMETERS_LIMIT = 2**16  # bytes of a parameters cell's values as JSON (more: not reported)
LABEL_PART = 60  # characters of a heading or of a cell's first line in a cell's label


def _cut(text: str, limit: int = LABEL_PART) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def cell_labels(nb) -> dict[int, str]:
    """{index of a code cell in the notebook: how a learner finds it in JupyterLab}: the heading
    above it (the question it answers, as the table of contents shows it), its first line, and
    its execution count as the file holds it (``[12]``; none when the file holds no run of it).
    Never "cell 16": JupyterLab numbers no cells, and that count includes the markdown ones."""
    labels, heading = {}, None
    for index, cell in enumerate(nb.cells):
        source = cell.get("source") if isinstance(cell.get("source"), str) else ""
        if cell.get("cell_type") == "markdown":
            lines = [line.strip().lstrip("#").strip() for line in source.splitlines() if line.strip().startswith("#")]
            if lines and lines[0]:
                heading = _cut(lines[0])
            continue
        if cell.get("cell_type") != "code":
            continue
        first = next((line for line in source.splitlines() if line.strip()), "")
        count = cell.get("execution_count")
        run = f"shown as [{count}]" if isinstance(count, int) and not isinstance(count, bool) else "no run of it saved"
        where = f' under "{heading}"' if heading else " above the first heading"
        labels[index] = f'the code cell{where} that starts "{_cut(first)}" ({run})'
    return labels


def notebook_code(nb) -> dict:
    """What the grader needs from the cells before any of them runs (read here, in the sandbox):
    `parameters`, the values of the cell tagged `parameters` ({name: literal}; None when there
    is no such cell or it holds anything else)."""
    from embedlab.grading.parameters import PARAMETERS_TAG, read_parameters

    code = [c for c in nb.cells if c.get("cell_type") == "code" and isinstance(c.get("source"), str)]
    tagged = [c for c in code if PARAMETERS_TAG in _tags(c)]
    parameters = None
    # the tagged cell; a notebook that lost the tag (cells pasted into a new one): its first
    # cell of nothing but `name = literal` lines
    for cell in tagged if len(tagged) == 1 else code:
        try:
            values = read_parameters(cell.source)
            text = json.dumps(_plain(values))
        except (ValueError, TypeError, RecursionError, MemoryError):  # VariantError is a ValueError
            continue
        if values:
            parameters = json.loads(text) if len(text) <= PARAMETERS_LIMIT else None
            break
    return {"parameters": parameters}


def _tags(cell) -> list:
    meta = cell.get("metadata")
    tags = meta.get("tags") if isinstance(meta, dict) else None
    return [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []


def _plain(value):
    """A literal as JSON data: tuples and sets become lists (sets sorted), as the keys hold them."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def run(channel: int) -> int:
    not_dumpable()
    os.set_inheritable(channel, False)  # the kernel and what it starts do not get the channel
    for name in ("HOME", "IPYTHONDIR", "MPLCONFIGDIR", "JUPYTER_RUNTIME_DIR", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR"):
        if os.environ.get(name):
            os.makedirs(os.environ[name], exist_ok=True)
    stdin = sys.stdin.buffer
    header = json.loads(stdin.readline(HEADER_LIMIT))
    TOKEN["token"] = header.get("token")
    apply_limits(header["memory_mb"])
    raw = read_exactly(stdin, header["size"])
    try:
        if len(raw) != header["size"]:
            raise ValueError("the file changed while it was read")
        source = read_notebook(raw)
    except ValueError as exc:
        frame(channel, {"unreadable": str(exc)})
        return 0
    del raw
    frame(channel, {"notebook": {**notebook_says(source), **notebook_code(source)}})
    line = stdin.readline(JOB_LIMIT)
    if not line:
        return 0  # the grader will not run it (another lesson, or no lesson)
    job = json.loads(line)
    names = job.get("names")
    names = [n for n in names if isinstance(n, str)] if isinstance(names, list) else None
    return execute(channel, source, job["lesson"], job["cases"], header["cell_timeout"], job.get("given") or {},
                   header.get("sandboxed") is True, names)


def defining_cells(lesson: str, cells, names: list[str] | None = None) -> dict:
    """{question name: index of the last cell that assigns it at top level (`name = …`, `def name(`)}:
    where to look when an answer is missing. `names`: the lesson's question names, in order, as the
    grader sends them in the job (the worker then imports none of the questions, nor numpy); without
    them, read from the lesson's questions here."""
    if names is None:
        from embedlab.grading.lessons import questions_for

        names = [q.name for q in questions_for(lesson)]
    from embedlab.grading.text import broken_definition, fails_to_parse

    found = {}
    broken = {}  # index of a cell that does not parse: it defines nothing, and may be the learner's try at one
    for name in names:
        pattern = re.compile(rf"^(?:{re.escape(name)}\s*(?::[^=\n]*)?=(?!=)|def\s+{re.escape(name)}\s*\()", re.M)
        loose = broken_definition(name)
        for index, cell in cells:
            if pattern.search(cell.source) or (loose.search(cell.source) and broken.setdefault(
                    index, fails_to_parse(cell.source))):
                found[name] = index
    return found


def execute(channel: int, source, lesson: str, cases: dict, cell_timeout: float, given: dict | None = None,
            sandboxed: bool = False, names: list[str] | None = None) -> int:
    """Run the submission's code cells, then the probe, in a fresh kernel; send the report.
    `sandboxed`: this worker is alone in its pid namespace, so its timed-out cells' waits for a
    CPU are measured (see `waits_now`); else they are not known. `names`: the lesson's question
    names (`defining_cells`)."""
    started = time.monotonic()
    progress = _Progress({"state": None, "cells_run": 0, "errors": [], "timeouts": [], "cpu_wait": 0.0,
                          "answers": None}, measure=sandboxed)
    report = progress.report
    cells = fresh_cells(source, lesson, cases, report, given, names)
    del source
    client = _grading_client(cells, cell_timeout, progress)

    def finish(**update):
        report.update(update)
        frame(channel, {"report": report})

    try:
        client.start_new_kernel(cwd=os.getcwd())
        provisioner = client.km.provisioner
        pgid = getattr(provisioner, "pgid", None) or os.getpgid(provisioner.pid)
        progress.kernel_pid = provisioner.pid
        frame(channel, {"kernel": {"pgid": pgid}})  # sent before any of the submission's code runs
        client.start_new_kernel_client()
    except Exception as exc:  # the grader's environment, not the submission
        finish(state=FAULT, detail=f"could not start a kernel ({type(exc).__name__}: {exc})"[:TEXT_LIMIT])
        return 1

    report["kernel_ready_s"] = round(time.monotonic() - started, 2)
    try:
        ended = _run_cells(client, cells, progress, cell_timeout)
        finish(**(ended or {"state": FINISHED, "finished_s": round(time.monotonic() - started, 2)}))
    finally:
        # No polite shutdown: nothing in the kernel is worth waiting for (jupyter_client's
        # shutdown took seconds per submission), and the sandbox ends with this process.
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass
    return 0


@dataclass
class _Progress:
    """What the kernel's hooks and the cell loop share while a submission runs."""
    report: dict  # sent to the grader at the end
    index: int | None = None  # the submitted notebook's index of the cell running (None: the probe)
    interrupted_id: str | None = None  # the request the cell limit interrupted last ...
    interrupted_at: float | None = None  # ... and when
    interrupted_waits: dict | None = None  # ... and the kernel's `thread_waits` then
    kernel_pid: int | None = None  # the kernel's pid (in the worker's pid namespace)
    measure: bool = False  # whether the waits for a CPU are measured (the sandbox: see `waits_now`)
    cell_start: tuple | None = None  # `waits_now` when the running cell started

    def kernel_waits(self) -> dict[int, int] | None:
        return thread_waits(self.kernel_pid) if self.kernel_pid is not None else None

    def cell_starts(self) -> None:
        self.cell_start = waits_now() if self.measure else None

    def cell_timed_out(self) -> None:
        """At the cell limit, before the interrupt: the report's `cpu_wait` becomes the most seconds
        any timed-out cell waited for a CPU, or None once one such wait is not known."""
        waited = wait_between(self.cell_start, waits_now()) if self.measure else None
        most = self.report["cpu_wait"]
        self.report["cpu_wait"] = None if waited is None or most is None else round(max(most, waited), 3)


def fresh_cells(source, lesson: str, cases: dict, report: dict, given: dict | None = None,
                names: list[str] | None = None) -> list:
    """[(index in the submitted notebook, a fresh code cell holding only its source)], then the probe
    (index None); the report gets what the grader reads of the cells without running them: each
    cell's label, which cell defines each answer, the answer cells' source and the code cells."""
    import nbformat

    cells = []
    for index, cell in enumerate(source.cells):
        if cell.get("cell_type") == "code" and isinstance(cell.get("source"), str) and cell.source.strip():
            cells.append((index, nbformat.v4.new_code_cell(cell.source)))
    labels = cell_labels(source)
    report["labels"] = {str(index): labels.get(index, f"code cell {index + 1}") for index, _ in cells}
    report["defines"] = defining_cells(lesson, cells, names)
    report["sources"] = answer_sources(report["defines"], cells)  # read by the judge, never run
    report["code"] = code_sources(cells)  # read by the judge for edits of the given code, never run
    cells.append((None, nbformat.v4.new_code_cell(probe_cell(lesson, cases, given=given))))
    return cells


def _grading_client(cells: list, cell_timeout: float, progress: _Progress):
    """An nbclient client for the cells, on a kernel of this Python, that keeps no outputs but error
    names and the probe's result, and notes each cell the cell limit interrupts in `progress`."""
    import nbformat
    from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient

    report = progress.report

    class ThisPython(KernelSpecManager):
        """The kernel is this Python (the grader's environment), with history off, started by
        KERNEL_LAUNCHER (ipykernel_launcher without its debugger)."""

        def get_kernel_spec(self, kernel_name):
            argv = [sys.executable, "-c", KERNEL_LAUNCHER, "-f", "{connection_file}",
                    "--HistoryManager.enabled=False"]
            return KernelSpec(argv=argv, display_name="embedlab-grade", language="python", resource_dir="")

    class GradingClient(NotebookClient):
        """Keeps no outputs but error names (a huge print costs nothing) and, from the probe
        cell only, the probe's result."""

        failed = None  # (ename, evalue) of the last cell's execute_reply when it says the cell raised

        async def _check_raise_for_error(self, cell, cell_index, exec_reply):
            # the reply's own word that the cell raised: the kernel can fail to send the error output
            # itself (an exception text it cannot encode, a lone surrogate), and the cell must not then
            # look as if it ran through
            content = (exec_reply or {}).get("content") or {}
            if content.get("status") == "error":
                self.failed = (str(content.get("ename", ""))[:TEXT_LIMIT], str(content.get("evalue", ""))[:TEXT_LIMIT])
            return await super()._check_raise_for_error(cell, cell_index, exec_reply)

        async def _async_handle_timeout(self, timeout, cell=None):
            progress.cell_timed_out()  # what the cell waited for a CPU, up to its limit
            # the grace is counted from the interrupt, in the kernel's own time
            progress.interrupted_at = time.monotonic()
            progress.interrupted_waits = progress.kernel_waits()
            return await super()._async_handle_timeout(timeout, cell)

        def output(self, outs, msg, display_id, cell_index):
            content = msg["content"]
            if msg["msg_type"] == "error":
                outs.append(nbformat.from_dict({"output_type": "error", "traceback": [],
                                                "ename": str(content.get("ename", ""))[:TEXT_LIMIT],
                                                "evalue": str(content.get("evalue", ""))[:TEXT_LIMIT]}))
            elif (progress.index is None and msg["msg_type"] == "display_data"
                  and isinstance(content.get("data"), dict) and PROBE_MIME in content["data"]):
                entries = content["data"][PROBE_MIME]
                if isinstance(entries, dict):
                    report["answers"] = {**(report["answers"] or {}), **entries}
            return None

    def on_cell_executed(cell, cell_index, execute_reply):
        """nbclient's hook: the execute reply it makes up on a cell timeout names TIMEOUT_ENAME."""
        content = (execute_reply or {}).get("content", {})
        if content.get("status") == "error" and content.get("ename") == TIMEOUT_ENAME:
            report["timeouts"].append(progress.index)
            progress.interrupted_id = (execute_reply.get("parent_header") or {}).get("msg_id")

    cwd = os.getcwd()
    km = AsyncKernelManager(kernel_name="embedlab-grade", kernel_spec_manager=ThisPython(),
                            connection_file=os.path.join(os.environ.get("JUPYTER_RUNTIME_DIR", cwd), "kernel.json"))
    return GradingClient(
        nbformat.v4.new_notebook(cells=[c for _, c in cells]), km=km,
        timeout=cell_timeout, allow_errors=True, interrupt_on_timeout=True,
        error_on_timeout={"ename": TIMEOUT_ENAME, "evalue": "the cell ran past the time limit"},
        on_cell_executed=on_cell_executed,
        record_timing=False, store_widget_state=False, shutdown_kernel="immediate",
        iopub_timeout=2, resources={"metadata": {"path": cwd}},
    )


def _run_cells(client, cells: list, progress: _Progress, cell_timeout: float) -> dict | None:
    """Run every cell in turn (errors do not stop the run); None when all ran, else how the run
    ended: the kernel died (CRASHED), or a cell did not stop when the cell limit interrupted it
    (TIMEOUT: its kernel is killed, so no answer can be read)."""
    from nbclient.exceptions import DeadKernelError

    report = progress.report
    for position, (index, _) in enumerate(cells):
        cell = client.nb.cells[position]
        progress.index = index
        progress.cell_starts()
        client.failed = None
        try:
            client.execute_cell(cell, position)
        except DeadKernelError:
            where = report["labels"].get(str(index), "a cell") if index is not None else "the grader's probe"
            return {"state": CRASHED, "detail": f"the kernel died while running {where}"}
        raised = [out for out in cell.outputs if out.get("output_type") == "error"]
        for out in raised:
            report["errors"].append({"cell": index, "ename": out.ename, "evalue": out.evalue})
        if not raised and client.failed is not None:  # it raised, but its error output never came
            report["errors"].append({"cell": index, "ename": client.failed[0] or "Exception", "evalue": (
                (f"{client.failed[1]} " if client.failed[1] else "")
                + "(the kernel's reply: the cell raised, and no error output came; its exception text may "
                "not have been sendable, or the notebook hid it)")})
        cell.outputs = []
        if index is not None:
            report["cells_run"] += 1
            msg_id = progress.interrupted_id
            if msg_id is not None and not _stopped_when_interrupted(client, progress, INTERRUPT_GRACE):
                return {"state": TIMEOUT, "detail": (
                    f"{report['labels'].get(str(index), 'a cell')} ran past the {cell_timeout:g} s cell limit "
                    "and did not stop when "
                    f"interrupted (within {INTERRUPT_GRACE:g} s of the kernel's own "
                    "time, its waits for a CPU not counted): its kernel was killed, so "
                    "no answer could be read")}
            progress.interrupted_id = progress.interrupted_at = None
            progress.interrupted_waits = None
    return None


def _stopped_when_interrupted(client, progress: _Progress, grace: float) -> bool:
    """Whether the kernel answered the interrupted cell's request within `grace`
    seconds of the kernel's own time since the interrupt (it stopped, with a
    KeyboardInterrupt or not): seconds on the clock less the kernel's waits for a CPU
    (`held_back`), so that a busy machine does not make a cell that stops look like one
    that does not. nbclient made up that cell's reply without waiting for the real one;
    a kernel that ignores the interrupt (SIGINT ignored, the KeyboardInterrupt caught in
    a loop) never sends it, and would make every later cell wait for its own cell limit
    until the whole run's limit."""
    from queue import Empty

    from nbclient.util import ensure_async, run_sync

    msg_id = progress.interrupted_id
    start = progress.interrupted_at or time.monotonic()

    def left() -> float:
        waited = held_back(progress.interrupted_waits, progress.kernel_waits())
        return grace - (time.monotonic() - start - waited)

    async def reply(timeout: float) -> bool | None:
        """True: the interrupted request's reply came; False: another message; None:
        nothing within `timeout` seconds."""
        try:
            msg = await ensure_async(client.kc.shell_channel.get_msg(timeout=timeout))
        except Empty:
            return None
        return (msg.get("parent_header") or {}).get("msg_id") == msg_id

    async def wait() -> bool:
        while (seconds := left()) > 0:
            if await reply(min(seconds, GRACE_POLL)):
                return True
        # a last look, without waiting: what came while this worker waited for a CPU
        while (came := await reply(0)) is not None:
            if came:
                return True
        return False

    return run_sync(wait)()


if __name__ == "__main__":
    code = run(int(sys.argv[1]))
    sys.stdout.flush()
    os._exit(code)  # skip interpreter teardown (zmq threads, atexit): the report is already sent
