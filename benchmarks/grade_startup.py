"""Where one submission's seconds go in embedlab-grade: start-up costs first, then whole runs.

    .venv/bin/python benchmarks/grade_startup.py                 # lesson 01, best of 3
    .venv/bin/python benchmarks/grade_startup.py --lesson 03-counting-gpt2 --repeat 5

Each step is timed alone (wall time, best of --repeat, and its CPU time): a bare Python, the worker's
imports, a kernel started until it answers, each outside and inside a fresh bubblewrap sandbox, the
grader's trial sandbox (`check_sandbox`, once per grader run), one control group made and removed;
then the lesson's blank exercise and its solution graded at -j 1, split by the worker's own clock
into start-up (until its kernel is ready) and the notebook's cells with the probe, with the CPU
seconds of the whole grading (grader, sandbox, worker, kernel). The CPU seconds come from a cpuacct
control group this process moves itself into where the machine lets it (cgroup v1, as root): it
counts every process a step starts, the sandboxes too, which their own pid namespace keeps out of the
times a parent collects; elsewhere they are those times, and a sandboxed step shows -. Figures
depend on the machine's load (printed first and last) and are printed, never asserted; on a busy
machine compare the CPU seconds.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from embedlab.grading import budget, grader, sandbox, submissions
from embedlab.grading.sandbox import Limits

ROOT = Path(__file__).resolve().parent.parent
QUIET_IMPORT = "import sys; sys.modules.setdefault('rfc3987_syntax', None); "  # as the worker does


CPUACCT = Path("/sys/fs/cgroup/cpuacct")
GROUP = {"path": None}  # this process's own cpuacct group, when one could be made (`metered`)


def metered() -> bool:
    """Move this process into a cpuacct group of its own (its children follow); whether it could."""
    group = CPUACCT / f"embedlab-grade-startup-{os.getpid()}"
    try:
        group.mkdir()
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        return False
    GROUP["path"] = group
    return True


def unmetered() -> None:
    """Back to the root group, and the group removed."""
    group = GROUP["path"]
    if group is None:
        return
    try:
        (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
        for _ in range(50):  # a sandbox of the last step may take a moment to end
            try:
                group.rmdir()
                break
            except OSError:
                time.sleep(0.1)
    except OSError:
        pass


def children_cpu() -> float:
    """CPU seconds so far: of this process and all it started (its cpuacct group), else of the children
    it waited for."""
    if GROUP["path"] is not None:
        return int((GROUP["path"] / "cpuacct.usage").read_text()) / 1e9
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_of(repeat: int, step) -> tuple[float, float]:
    """(best wall seconds, CPU seconds of waited-for children in that run) of `step()`."""
    best = None
    for _ in range(repeat):
        cpu, start = children_cpu(), time.perf_counter()
        step()
        wall, used = time.perf_counter() - start, children_cpu() - cpu
        if best is None or wall < best[0]:
            best = (wall, used)
    return best


def python(code: str, bwrap: str | None = None):
    argv = [sys.executable, "-c", code]
    if bwrap:
        argv = sandbox.sandbox_command(bwrap, argv)
    return lambda: subprocess.run(argv, env=sandbox.worker_env("/tmp") if bwrap else None, check=True,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)


def kernel_ready(bwrap: str | None = None):
    """A kernel as the worker starts it (KERNEL_LAUNCHER), until it answers, then killed."""
    code = (QUIET_IMPORT + "import sys\n"
            "from jupyter_client.kernelspec import KernelSpec, KernelSpecManager\n"
            "from jupyter_client.manager import KernelManager\n"
            "from embedlab.grading.worker import KERNEL_LAUNCHER\n"
            "class Spec(KernelSpecManager):\n"
            "    def get_kernel_spec(self, name):\n"
            "        return KernelSpec(argv=[sys.executable, '-c', KERNEL_LAUNCHER, '-f', '{connection_file}',\n"
            "                                '--HistoryManager.enabled=False'], display_name='k', language='python')\n"
            "km = KernelManager(kernel_name='k', kernel_spec_manager=Spec())\n"
            "km.start_kernel()\n"
            "kc = km.client()\n"
            "kc.start_channels()\n"
            "kc.wait_for_ready(timeout=120)\n"
            "km.shutdown_kernel(now=True)\n")
    return python(code, bwrap)


def group_made_and_removed():
    grader_budget = budget.budget()
    group = grader_budget.group(2048, sandbox.MAX_PROCESSES)
    grader_budget.done(group)


def graded(path: Path, bwrap: str | None):
    """(wall seconds, worker start-up until its kernel is ready, cells and probe) of one submission."""
    seen = {}
    real_end = sandbox.Run.end

    def end(run, message):
        report = (message or {}).get("report") if isinstance(message, dict) else None
        if isinstance(report, dict):
            seen.update(ready=report.get("kernel_ready_s"), finished=report.get("finished_s"))
        return real_end(run, message)

    sandbox.Run.end = end
    try:
        cpu, start = children_cpu(), time.perf_counter()
        rows, faults = grader.grade_all(submissions.find_submissions([str(path)]), None, Limits(), bwrap=bwrap)
        wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    finally:
        sandbox.Run.end = real_end
    if faults:
        raise SystemExit(f"grader faults: {faults}")
    return wall, seen.get("ready"), seen.get("finished"), sorted({r.status for r in rows}), cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lesson", default="01-toy-table")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each step; the best is shown (default 3)")
    parser.add_argument("--no-sandbox", action="store_true", help="grade without bubblewrap")
    args = parser.parse_args()
    bwrap = None if args.no_sandbox else sandbox.bwrap_path()
    meter = metered()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} (1 min) at start; CPU seconds "
          f"from {'a cpuacct control group (the sandboxes counted)' if meter else 'the children waited for'}")
    worker_imports = QUIET_IMPORT + "import nbformat, nbclient, jupyter_client.manager, embedlab.grading.worker"
    steps = [("python -c pass", python("pass")),
             ("python: import the worker's modules (nbformat, nbclient, jupyter_client)", python(worker_imports)),
             ("a kernel started until it answers (jupyter_client + the kernel)", kernel_ready())]
    in_sandbox = ["bubblewrap: python -c pass in a fresh sandbox",
                  "bubblewrap: import the worker's modules",
                  "bubblewrap: a kernel started until it answers",
                  "check_sandbox (once per grader process)"]
    sandboxed = set() if meter else set(in_sandbox)
    if bwrap:
        steps += list(zip(in_sandbox, [python("pass", bwrap), python(worker_imports, bwrap), kernel_ready(bwrap),
                                       lambda: (sandbox._SANDBOX_WORKS.clear(), sandbox.check_sandbox(bwrap))]))
    if budget.budget() is not None:
        steps.append(("one control group made and removed", group_made_and_removed))
    print(f"\n{'step':<92} {'wall s':>7} {'cpu s':>6}")
    for name, step in steps:
        wall, cpu = best_of(args.repeat, step)
        shown = f"{'-':>6}" if name in sandboxed else f"{cpu:6.2f}"
        print(f"{name:<92} {wall:7.2f} {shown}", flush=True)

    print(f"\nlesson {args.lesson} graded at -j 1 ({'bubblewrap' if bwrap else 'no sandbox'}), best of {args.repeat}:")
    print(f"{'submission':<24} {'wall s':>7} {'worker until kernel ready':>26} {'cells + probe':>14} "
          f"{'cpu s':>6}  statuses")
    with tempfile.TemporaryDirectory(prefix="embedlab-bench-") as tmp:
        for kind in ("exercises", "solutions"):
            path = Path(tmp) / f"{kind}-{args.lesson}.ipynb"
            path.write_bytes((ROOT / kind / f"{args.lesson}.ipynb").read_bytes())
            runs = [graded(path, bwrap) for _ in range(args.repeat)]
            wall, ready, finished, statuses, _ = min(runs, key=lambda r: r[0])
            cpu = min(r[4] for r in runs)
            cells = finished - ready if ready is not None and finished is not None else None
            shown = f"{cpu:6.2f}" if meter or not bwrap else f"{'-':>6}"
            print(f"{kind[:-1]:<24} {wall:7.2f} {ready if ready is not None else float('nan'):26.2f} "
                  f"{cells if cells is not None else float('nan'):14.2f} {shown}  {', '.join(statuses)}", flush=True)
    print(f"\nload average {os.getloadavg()[0]:.2f} (1 min) at the end")
    unmetered()
    return 0


if __name__ == "__main__":
    sys.exit(main())
