"""tools/under_load.py: every run is reported, the check is red unless every run is green, and the
busy processes it starts are gone when it returns (CONTRIBUTING.md, "The load check")."""

import os
import time
from pathlib import Path

from tools_loader import load_tool

under_load = load_tool("under_load")

# Green on its first run, red on its second: a counter in a file beside it.
FLAKY = '''
from pathlib import Path

def test_green_once():
    count = Path(__file__).with_suffix(".count")
    runs = int(count.read_text()) + 1 if count.exists() else 1
    count.write_text(str(runs))
    assert runs == 1, "second run"
'''


def test_each_run_is_reported_and_one_red_run_makes_the_check_red(tmp_path, capsys, monkeypatch):
    test = tmp_path / "test_flaky_under_load.py"
    test.write_text(FLAKY)
    started = []
    monkeypatch.setattr(under_load, "start_hogs", lambda count: started.append(count) or [])
    code = under_load.main(["--runs", "2", "--hogs", "3", "--workers", "0", "--", str(test), "-p", "no:nbval",
                            "--rootdir", str(tmp_path), "-c", "/dev/null"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert started == [3], started                       # the busy processes, started once for all runs
    assert "run 1 of 2: green" in out and "1 passed" in out, out
    assert "run 2 of 2: RED" in out and "FAILED" in out, out
    assert "under load: 1 of 2 run(s) green" in out, out
    assert test.with_suffix(".count").read_text() == "2"


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])          # utime + stime (fields 14 and 15 of stat)


def test_the_busy_processes_use_a_cpu_and_are_ended():
    hogs = under_load.start_hogs(2)
    try:
        # each leads a session of its own: Linux's autogroups share the CPUs between sessions
        # first, so in this one they would take one session's share (under_load.start_hogs)
        assert all(os.getsid(hog.pid) == hog.pid for hog in hogs)
        deadline = time.monotonic() + 60            # each has used CPU time: waited for, up to a minute
        while not all(cpu_ticks(hog.pid) > 0 for hog in hogs):
            assert time.monotonic() < deadline, "waited for the busy processes to use a CPU: not within 60 s"
            assert all(hog.poll() is None for hog in hogs)
            time.sleep(0.05)
    finally:
        under_load.stop_hogs(hogs)
    assert all(hog.returncode is not None for hog in hogs)
