"""The grading worker: runs one submission's cells and the probe in a fresh kernel (worker side).

Started by the grader (embedlab.grading.sandbox) as `python -m embedlab.grading.worker job.json`.
It limits itself first (memory, file size, no core files; the kernel inherits the
limits), runs every code cell in a fresh kernel with nbclient (errors do not stop
the run, a cell past the cell timeout is interrupted, outputs are dropped except
error names), then runs the probe cell (embedlab.grading.wire) and keeps the
probe's published result, which it reports to the grader as plain data.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

from embedlab.grading.status import CRASHED, FAULT, FINISHED
from embedlab.grading.wire import PROBE_MIME, TEXT_LIMIT, probe_cell

FILE_LIMIT = 256 * 2**20  # bytes: RLIMIT_FSIZE for the worker and the kernel
TIMEOUT_ENAME = "CellTimeout"


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


def run(job_path: str) -> int:
    job = json.loads(Path(job_path).read_text())
    apply_limits(job["memory_mb"])
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
    report = {"state": None, "cells_run": 0, "errors": [], "timeouts": [], "answers": None}
    current = {"index": None}  # the submitted notebook's index of the cell running (None: the probe)

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
        """Keeps no outputs but error names (a huge print costs nothing) and, from the probe
        cell only, the probe's result."""

        def output(self, outs, msg, display_id, cell_index):
            content = msg["content"]
            if msg["msg_type"] == "error":
                outs.append(nbformat.from_dict({"output_type": "error", "traceback": [],
                                                "ename": str(content.get("ename", ""))[:TEXT_LIMIT],
                                                "evalue": str(content.get("evalue", ""))[:TEXT_LIMIT]}))
            elif (current["index"] is None and msg["msg_type"] == "display_data"
                  and isinstance(content.get("data"), dict) and PROBE_MIME in content["data"]):
                report["answers"] = content["data"][PROBE_MIME]
            return None

    def on_cell_executed(cell, cell_index, execute_reply):
        """nbclient's hook: an execute reply it made up on a cell timeout names TIMEOUT_ENAME."""
        content = (execute_reply or {}).get("content", {})
        if content.get("status") == "error" and content.get("ename") == TIMEOUT_ENAME:
            report["timeouts"].append(current["index"])

    source = nbformat.read(job["notebook"], as_version=4)
    cells = []  # (index in the submitted notebook, fresh cell holding only the source)
    for index, cell in enumerate(source.cells):
        if cell.get("cell_type") == "code" and isinstance(cell.get("source"), str) and cell.source.strip():
            cells.append((index, nbformat.v4.new_code_cell(cell.source)))
    cells.append((None, nbformat.v4.new_code_cell(probe_cell(job["lesson"], job["cases"]))))
    nb = nbformat.v4.new_notebook(cells=[c for _, c in cells])

    km = AsyncKernelManager(kernel_name="embedlab-grade", kernel_spec_manager=ThisPython(),
                            connection_file=str(Path(job["kernel_pid"]).parent / "kernel.json"))
    client = GradingClient(
        nb, km=km,
        timeout=job["cell_timeout"], allow_errors=True, interrupt_on_timeout=True,
        error_on_timeout={"ename": TIMEOUT_ENAME, "evalue": "the cell ran past the time limit"},
        on_cell_executed=on_cell_executed,
        record_timing=False, store_widget_state=False, shutdown_kernel="immediate",
        iopub_timeout=2, resources={"metadata": {"path": job["cwd"]}},
    )
    try:
        client.start_new_kernel(cwd=job["cwd"])
        provisioner = client.km.provisioner
        pgid = getattr(provisioner, "pgid", None) or os.getpgid(provisioner.pid)
        Path(job["kernel_pid"]).write_text(str(pgid))
        client.start_new_kernel_client()
    except Exception as exc:  # the grader's environment, not the submission
        save(state=FAULT, detail=f"could not start a kernel ({type(exc).__name__}: {exc})"[:TEXT_LIMIT])
        return 1

    save(state="running", kernel_ready_s=round(time.monotonic() - started, 2))
    try:
        for position, (index, _) in enumerate(cells):
            cell = nb.cells[position]
            current["index"] = index
            try:
                client.execute_cell(cell, position)
            except DeadKernelError:
                where = f"cell {index + 1}" if index is not None else "the grader's probe"
                save(state=CRASHED, detail=f"the kernel died while running {where}")
                return 0
            for out in cell.outputs:
                if out.get("output_type") == "error":
                    report["errors"].append({"cell": index, "ename": out.ename, "evalue": out.evalue})
            if index is not None:
                report["cells_run"] += 1
            save()
        save(state=FINISHED, finished_s=round(time.monotonic() - started, 2))
    finally:
        # No polite shutdown: nothing in the kernel is worth waiting for (jupyter_client's
        # shutdown took seconds per submission), and the grader kills both groups anyway.
        try:
            os.killpg(pgid, signal.SIGKILL)
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    code = run(sys.argv[1])
    sys.stdout.flush()
    os._exit(code)  # skip interpreter teardown (zmq threads, atexit): the report is already written
