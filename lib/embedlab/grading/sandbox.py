"""Run one submission in a fresh kernel, fenced in, and bring back plain data (grader side).

The grader (embedlab.grading.cli) never runs student code in its own process. For each
submission it calls `run_submission`, which

* copies the notebook into a private temporary folder (the original is never
  opened for writing);
* starts a worker (`python -m embedlab.grading.worker job.json`) in a new session,
  with a memory limit (RLIMIT_AS, inherited by the kernel), a file-size limit and
  one BLAS thread;
* the worker runs the code cells in a fresh kernel with nbclient: errors do not
  stop the run, a cell past the cell timeout is interrupted, outputs are dropped
  (only error names are kept, truncated), so a huge print cannot fill memory;
* after the student's cells the worker runs the probe cell (embedlab.grading.wire)
  that turns each answer into plain JSON (with the question's `to_data`; function
  answers are called on inputs the grader drew and sent as data);
* past the whole-run limit the grader kills the worker's and the kernel's process
  groups (SIGKILL: a loop that ignores Ctrl-C cannot hold it).

What comes back is data only: the worker's run report and the probe's answers.
Judging them against the key happens in the grader's process (embedlab.grading.cli).
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

from embedlab.grading.status import CRASHED, FAULT, FINISHED, MEMORY, TIMEOUT
from embedlab.grading.wire import REFUSED, TEXT_LIMIT

REPORT_LIMIT = 20 * 2**20  # bytes: a larger report is refused, not read
LOG_TAIL = 4000  # bytes of the worker's log read back for a crash report

# Environment for the worker and the kernel: one thread per numeric library,
# no GUI backend, and IPython's profile/history kept inside the temp folder.
THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS",
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
            "kernel_pid": str(tmp / "kernel.pid"),
        }
        (tmp / "job.json").write_text(json.dumps(job))
        result = _supervise(tmp, job, limits)
        result.seconds = time.monotonic() - start
        return result


def _supervise(tmp: Path, job: dict, limits: Limits) -> RunResult:
    env = dict(os.environ)
    env.update({name: "1" for name in THREAD_VARS})
    env.update({"MPLBACKEND": "Agg", "IPYTHONDIR": str(tmp / "ipython"), "MPLCONFIGDIR": str(tmp / "mpl"),
                "JUPYTER_RUNTIME_DIR": str(tmp / "runtime"), "JUPYTER_CONFIG_DIR": str(tmp / "jupyter"),
                "MALLOC_ARENA_MAX": "2", "PYDEVD_DISABLE_FILE_VALIDATION": "1", "PYTHONDONTWRITEBYTECODE": "1"})
    log_path = tmp / "worker.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "embedlab.grading.worker", str(tmp / "job.json")],
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

    report = _read_json(Path(job["report"]), limit=REPORT_LIMIT) or {}
    if timed_out:
        return RunResult(TIMEOUT, report, None, f"the whole run passed the {limits.timeout:g} s limit and was stopped")
    if proc.returncode != 0 or report.get("state") is None:
        log_tail = _tail(log_path)
        state = MEMORY if "MemoryError" in log_tail else (FAULT if report.get("state") == FAULT else CRASHED)
        detail = report.get("detail") or f"the grading worker stopped (exit status {proc.returncode})"
        return RunResult(state, report, None, detail + _last_line(log_tail))
    state = report["state"]
    if state == CRASHED and any(e.get("ename") == "MemoryError" for e in report.get("errors", [])):
        state = MEMORY
    answers = report.get("answers") if state == FINISHED else None
    if answers is not None and not isinstance(answers, dict):
        answers = None
    return RunResult(state, report, answers, report.get("detail", ""))


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
            return {REFUSED: f"file larger than {limit} bytes"}
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
