"""Run one submission in a fresh kernel, fenced in, and bring back plain data.

The grader (embedlab.grade) never runs student code in its own process. For each
submission it calls `run_submission`, which

* copies the notebook into a private temporary folder (the original is never
  opened for writing);
* starts a worker (`python -m embedlab.grade_worker job.json`) in a new session,
  with a memory limit (RLIMIT_AS, inherited by the kernel), a file-size limit and
  one BLAS thread;
* the worker runs the code cells in a fresh kernel with nbclient: errors do not
  stop the run, a cell past the cell timeout is interrupted, outputs are dropped
  (only error names are kept, truncated), so a huge print cannot fill memory;
* after the student's cells the worker runs a probe cell that turns each answer
  into plain JSON (with the question's `to_data`; function answers are called on
  inputs the grader drew and sent as data) and writes it to a file;
* past the whole-run limit the grader kills the worker's and the kernel's process
  groups (SIGKILL: a loop that ignores Ctrl-C cannot hold it).

What comes back is data only: the worker's run report and the probe's answers.
Judging them against the key happens in the grader's process (embedlab.grade).
A student's code runs with the grader's privileges: see book/grading.md for
running it under another user or in a container.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

TEXT_LIMIT = 300  # characters kept of an error message
PROBE_LIMIT = 20 * 2**20  # bytes: a larger probe file is refused, not read
FILE_LIMIT = 256 * 2**20  # bytes: RLIMIT_FSIZE for the worker and the kernel
LOG_TAIL = 4000  # bytes of the worker's log read back for a crash report

# Environment for the worker and the kernel: one thread per numeric library,
# no GUI backend, and IPython's profile/history kept inside the temp folder.
_THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS",
                "VECLIB_MAXIMUM_THREADS")


@dataclass
class Limits:
    cell_timeout: float = 30.0  # seconds per cell, then the kernel is interrupted
    timeout: float = 300.0  # seconds for the whole run, then everything is killed
    memory_mb: int = 2048  # address-space limit of the worker and of the kernel

    def __post_init__(self):
        for name in ("cell_timeout", "timeout", "memory_mb"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and value > 0):
                raise ValueError(f"{name} must be a positive number, got {name}={value!r}")


@dataclass
class RunResult:
    """What one submission's run produced: the worker's report and the probe's answers (plain data)."""

    state: str  # finished | timeout | crashed | memory | fault
    report: dict = field(default_factory=dict)  # cells run, errors, timeouts (from the worker)
    answers: dict | None = None  # question name -> probe entry, None if the probe did not report
    detail: str = ""
    seconds: float = 0.0


# --------------------------------------------------------------------------
# Grader side


def run_submission(notebook_path: Path, lesson: str, cases: dict, limits: Limits) -> RunResult:
    """Run a copy of one notebook under the limits and return what it reported. Never raises
    for anything the submission does; raises only if the grader itself cannot work."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="embedlab-grade-", ignore_cleanup_errors=True) as tmp:
        tmp = Path(tmp)
        work = tmp / "work"  # the kernel's working directory
        work.mkdir()
        shutil.copyfile(notebook_path, work / "submission.ipynb")
        job = {
            "notebook": str(work / "submission.ipynb"),
            "cwd": str(work),
            "lesson": lesson,
            "cases": cases,
            "cell_timeout": limits.cell_timeout,
            "memory_mb": limits.memory_mb,
            "report": str(tmp / "report.json"),
            "probe": str(work / f"probe-{os.urandom(8).hex()}.json"),
            "kernel_pid": str(tmp / "kernel.pid"),
        }
        (tmp / "job.json").write_text(json.dumps(job))
        result = _supervise(tmp, job, limits)
        result.seconds = time.monotonic() - start
        return result


def _supervise(tmp: Path, job: dict, limits: Limits) -> RunResult:
    env = dict(os.environ)
    env.update({name: "1" for name in _THREAD_VARS})
    env.update({"MPLBACKEND": "Agg", "IPYTHONDIR": str(tmp / "ipython"), "MPLCONFIGDIR": str(tmp / "mpl"),
                "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"), "JUPYTER_CONFIG_DIR": str(tmp / "jupyter"),
                "MALLOC_ARENA_MAX": "2", "PYDEVD_DISABLE_FILE_VALIDATION": "1", "PYTHONDONTWRITEBYTECODE": "1"})
    log_path = tmp / "worker.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "embedlab.grade_worker", str(tmp / "job.json")],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=job["cwd"],
            start_new_session=True,  # its own process group, killed as one
        )
        try:
            proc.wait(timeout=limits.timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            _kill_groups(proc, Path(job["kernel_pid"]))
            proc.wait()

    report = _read_json(Path(job["report"]), limit=PROBE_LIMIT) or {}
    if timed_out:
        return RunResult("timeout", report, None, f"the whole run passed the {limits.timeout:g} s limit and was stopped")
    if proc.returncode != 0 or report.get("state") is None:
        log_tail = _tail(log_path)
        state = "memory" if "MemoryError" in log_tail else ("fault" if report.get("state") == "fault" else "crashed")
        detail = report.get("detail") or f"the grading worker stopped (exit status {proc.returncode})"
        return RunResult(state, report, None, detail + _last_line(log_tail))
    state = report["state"]
    if state == "crashed" and any(e.get("ename") == "MemoryError" for e in report.get("errors", [])):
        state = "memory"
    answers = None
    if state == "finished":
        answers = _read_json(Path(job["probe"]), limit=PROBE_LIMIT)
    return RunResult(state, report, answers, report.get("detail", ""))


def _apply_limits(memory_mb: int) -> None:
    """Limit this process and every process it starts (the kernel inherits the limits).

    Set by the worker itself, first thing, rather than in a preexec_fn: the grader
    runs several workers from threads, and code between fork and exec is unsafe there.
    """
    import resource

    size = int(memory_mb) * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (size, size))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _kill_groups(proc: subprocess.Popen, kernel_pid_file: Path) -> None:
    """SIGKILL the worker's process group and the kernel's (jupyter_client starts the
    kernel in a session of its own, so one killpg does not reach it)."""
    groups = [proc.pid]
    try:
        groups.append(int(kernel_pid_file.read_text().strip()))
    except (OSError, ValueError):
        pass
    for pgid in groups:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _read_json(path: Path, limit: int):
    """Plain data from a file the submission could have touched: None if missing, too big or not JSON."""
    try:
        if path.stat().st_size > limit:
            return {"_refused": f"file larger than {limit} bytes"}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _tail(path: Path) -> str:
    try:
        with open(path, "rb") as f:
            f.seek(max(0, path.stat().st_size - LOG_TAIL))
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip() and "WARNING" not in ln]
    return f": {lines[-1][:TEXT_LIMIT]}" if lines else ""


# --------------------------------------------------------------------------
# Worker side (a separate process; the kernel it starts runs the student's code)

_PROBE = """\
def _embedlab_probe(lesson, cases_json, path):
    import json
    cases = json.loads(cases_json)
    from embedlab.exercise import Function, NotAttempted, WrongForm, answer_of, decode_value, questions_for
    namespace = globals()
    out = {{}}
    for q in questions_for(lesson):
        value = answer_of(q, namespace, Ellipsis)
        if value is Ellipsis:
            out[q.name] = {{"missing": True}}
            continue
        try:
            if isinstance(q, Function):
                out[q.name] = {{"data": q.run_cases(value, decode_value(cases[q.name]))}}
            else:
                out[q.name] = {{"data": q.to_data(value)}}
        except NotAttempted as exc:
            out[q.name] = {{"not_attempted": str(exc)[:300]}}
        except WrongForm as exc:
            out[q.name] = {{"wrong_form": str(exc)[:300]}}
        except BaseException as exc:
            out[q.name] = {{"raised": f"{{type(exc).__name__}}: {{exc}}"[:300]}}
    with open(path, "w") as f:
        json.dump(out, f)
_embedlab_probe({lesson!r}, {cases!r}, {path!r})
"""


def _worker(job_path: str) -> int:
    job = json.loads(Path(job_path).read_text())
    _apply_limits(job["memory_mb"])
    # nbformat imports jsonschema, which imports rfc3987_syntax if installed (the Jupyter
    # stack installs it); that builds a URI grammar at import time: ~2.5 s of CPU per
    # worker, for a format check the worker never runs. Mark it absent: jsonschema skips it.
    sys.modules.setdefault("rfc3987_syntax", None)
    import nbformat
    from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import DeadKernelError

    started = time.monotonic()
    report = {"state": None, "cells_run": 0, "errors": [], "timeouts": []}

    def save(**update):
        report.update(update)
        Path(job["report"]).write_text(json.dumps(report))

    class ThisPython(KernelSpecManager):
        """The kernel is this Python (the grader's environment), with history off."""

        def get_kernel_spec(self, kernel_name):
            argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}",
                    "--HistoryManager.enabled=False"]
            return KernelSpec(argv=argv, display_name="embedlab-grade", language="python", resource_dir="")

    class GradingClient(NotebookClient):
        """Keeps no outputs but error names (a huge print costs nothing), records timeouts."""

        def output(self, outs, msg, display_id, cell_index):
            if msg["msg_type"] == "error":
                content = msg["content"]
                outs.append(nbformat.from_dict({"output_type": "error", "traceback": [],
                                                "ename": str(content.get("ename", ""))[:TEXT_LIMIT],
                                                "evalue": str(content.get("evalue", ""))[:TEXT_LIMIT]}))
            return None

        async def _async_handle_timeout(self, timeout, cell=None):
            report["timeouts"].append(self._current_index)
            save()
            return await super()._async_handle_timeout(timeout, cell)

    source = nbformat.read(job["notebook"], as_version=4)
    cells = []  # (index in the submitted notebook, fresh cell holding only the source)
    for index, cell in enumerate(source.cells):
        if cell.get("cell_type") == "code" and isinstance(cell.get("source"), str) and cell.source.strip():
            cells.append((index, nbformat.v4.new_code_cell(cell.source)))
    probe = _PROBE.format(lesson=job["lesson"], cases=json.dumps(job["cases"]), path=job["probe"])
    cells.append((None, nbformat.v4.new_code_cell(probe)))
    nb = nbformat.v4.new_notebook(cells=[c for _, c in cells])

    km = AsyncKernelManager(kernel_name="embedlab-grade", kernel_spec_manager=ThisPython(),
                            connection_file=str(Path(job["kernel_pid"]).parent / "kernel.json"))
    client = GradingClient(
        nb, km=km,
        timeout=job["cell_timeout"], allow_errors=True, interrupt_on_timeout=True,
        error_on_timeout={"ename": "CellTimeout", "evalue": "the cell ran past the time limit"},
        record_timing=False, store_widget_state=False, shutdown_kernel="immediate",
        iopub_timeout=2, resources={"metadata": {"path": job["cwd"]}},
    )
    client._current_index = None
    try:
        client.start_new_kernel(cwd=job["cwd"])
        provisioner = client.km.provisioner
        pgid = getattr(provisioner, "pgid", None) or os.getpgid(provisioner.pid)
        Path(job["kernel_pid"]).write_text(str(pgid))
        client.start_new_kernel_client()
    except Exception as exc:  # the grader's environment, not the submission
        save(state="fault", detail=f"could not start a kernel ({type(exc).__name__}: {exc})"[:TEXT_LIMIT])
        return 1

    save(state="running", kernel_ready_s=round(time.monotonic() - started, 2))
    try:
        for position, (index, _) in enumerate(cells):
            cell = nb.cells[position]
            client._current_index = index
            try:
                client.execute_cell(cell, position)
            except DeadKernelError:
                where = f"cell {index + 1}" if index is not None else "the grader's probe"
                save(state="crashed", detail=f"the kernel died while running {where}")
                return 0
            for out in cell.outputs:
                if out.get("output_type") == "error":
                    report["errors"].append({"cell": index, "ename": out.ename, "evalue": out.evalue})
            if index is not None:
                report["cells_run"] += 1
            save()
        save(state="finished", finished_s=round(time.monotonic() - started, 2))
    finally:
        # No polite shutdown: nothing in the kernel is worth waiting for (jupyter_client's
        # shutdown took seconds per submission), and the grader kills both groups anyway.
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    code = _worker(sys.argv[1])
    sys.stdout.flush()
    os._exit(code)  # skip interpreter teardown (zmq threads, atexit): the report is already written
