"""The package is importable from anywhere once installed, without sys.path edits."""

import importlib.metadata
import importlib.util
import re
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_embedlab_imports_from_any_folder(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", "import embedlab, pathlib; print(pathlib.Path(embedlab.__file__).resolve())"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    )
    assert Path(out.stdout.strip()) == ROOT / "lib" / "embedlab" / "__init__.py"


def test_notebooks_do_not_edit_sys_path():
    for folder in ("notebooks", "exercises", "solutions"):
        for path in (ROOT / folder).glob("*.ipynb"):
            assert "sys.path" not in path.read_text(encoding="utf-8"), path


SYS_PATH_EDIT = re.compile(r"sys\.path\s*(\.\s*(insert|append|extend)\s*\(|\[[^\]]*\]\s*=|\s*[+]?=)")


@pytest.mark.parametrize("folder", ["lib", "tools", "tests", "benchmarks"])
def test_python_code_does_not_edit_sys_path(folder):
    assert SYS_PATH_EDIT.search("sys.path" + ".insert(0, str(ROOT))")  # the pattern catches an edit
    for path in (ROOT / folder).rglob("*.py"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not SYS_PATH_EDIT.search(line), f"{path.relative_to(ROOT)}:{number}: {line.strip()}"


def test_every_export_resolves():
    import embedlab

    for name in embedlab.__all__:
        assert getattr(embedlab, name) is not None, name


def test_requirements_are_pinned():
    for path in (ROOT / "requirements.txt", ROOT / "requirements.in", ROOT / "tools" / "lock-tools.txt"):
        for line in path.read_text().splitlines():
            line = line.split("#")[0].strip()
            if line and not line.startswith("-e"):
                assert "==" in line, f"{path.name}: not pinned: {line}"


# -- the pinned install (requirements.in -> `make lock` -> requirements.txt) ---------------------

def canonical(name: str) -> str:
    """A package name as PyPI compares them (PEP 503): `Jinja2`, `jinja_2` -> `jinja2`."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned_in(path: Path) -> dict[str, str]:
    """The pins that apply on this interpreter: a line whose environment marker fails here (numpy 2.5
    for Python 3.15, appnope on macOS) is another target's, not this one's."""
    from packaging.markers import Marker

    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = re.match(r"([A-Za-z0-9._-]+)==([^\s;#]+)\s*(?:;([^#]*))?", line)
        if match and (match[3] is None or Marker(match[3].strip()).evaluate()):
            assert canonical(match[1]) not in pins, f"{path.name}: {match[1]} pinned twice for this Python"
            pins[canonical(match[1])] = match[2]
    return pins


def test_pinned_in_keeps_only_this_interpreters_lines(tmp_path):
    lock = tmp_path / "requirements.txt"
    lock.write_text('numpy==2.4.6 ; python_full_version < "3.99"\nnumpy==9.0 ; python_full_version >= "3.99"\n'
                    "appnope==1.0.0 ; sys_platform == 'nonesuch'\nsix==1.16.0\n", encoding="utf-8")
    assert pinned_in(lock) == {"numpy": "2.4.6", "six": "1.16.0"}


# What a venv may hold beyond requirements.txt's pins: pip, the installer (the venv's own, which
# `make` upgrades), and embedlab itself, installed from lib/ by requirements.txt's last line `-e .`.
# setuptools and wheel are pinned like any package (jupyter-server and sphinx-togglebutton need them).
NOT_PINNED = {"pip", "embedlab"}


def test_every_installed_package_is_pinned_at_its_installed_version():
    """The venv the tests run in holds exactly requirements.txt: a package installed by hand, or one
    that requirements.in gained without `make lock`, fails here."""
    pins = pinned_in(ROOT / "requirements.txt")
    installed: dict[str, set] = {}
    for dist in importlib.metadata.distributions():
        installed.setdefault(canonical(dist.metadata["Name"]), set()).add(dist.version)
    missing = sorted(f"{name}=={'/'.join(sorted(v))}" for name, v in installed.items()
                     if name not in pins and name not in NOT_PINNED)
    differ = sorted(f"{name}: installed {'/'.join(sorted(v))}, pinned {pins[name]}" for name, v in installed.items()
                    if name in pins and v != {pins[name]})
    assert not missing, ("installed but not pinned in requirements.txt (add it to requirements.in, then "
                         f"`make lock`): {missing}")
    assert not differ, f"installed versions that are not requirements.txt's (run `make test` to reinstall): {differ}"
    assert "embedlab" in installed


def test_pins_are_closed_under_dependencies():
    """Every package a pinned package needs on this Python (extras included where asked for) is pinned,
    at a version it accepts: `pip install -r requirements.txt` has nothing left to choose."""
    from packaging.requirements import Requirement

    pins = pinned_in(ROOT / "requirements.txt")
    todo = [(name, "") for name in pins]
    seen, problems = set(), []
    while todo:
        name, extra = todo.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        for text in importlib.metadata.distribution(name).requires or []:
            req = Requirement(text)
            if req.marker and not req.marker.evaluate({"extra": extra}):
                continue
            if extra and not (req.marker and "extra" in str(req.marker)):
                continue                                       # a base requirement, seen with extra ""
            dep = canonical(req.name)
            if dep not in pins:
                problems.append(f"{name}{'[' + extra + ']' if extra else ''} needs {req}, which is not pinned")
            elif not req.specifier.contains(pins[dep], prereleases=True):
                problems.append(f"{name} needs {req}, but {dep}=={pins[dep]} is pinned")
            todo += [(dep, e) for e in req.extras] + [(dep, "")]
    assert not problems, "\n".join(problems)


def test_requirements_txt_is_compiled_from_requirements_in():
    """requirements.in's direct pins are requirements.txt's, each pin says who needs it (`# via`), and
    the file still ends by installing embedlab: editing requirements.in without `make lock` fails here."""
    direct = pinned_in(ROOT / "requirements.in")
    locked_text = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    locked = pinned_in(ROOT / "requirements.txt")
    assert direct and set(direct) <= set(locked), f"not in requirements.txt: {sorted(set(direct) - set(locked))}"
    assert {n: locked[n] for n in direct} == direct
    blocks = re.findall(r"^([A-Za-z0-9._-]+)==[^\n]+\n((?:    #.*\n)+)", locked_text, flags=re.MULTILINE)
    pin_lines = re.findall(r"^[A-Za-z0-9._-]+==", locked_text, flags=re.MULTILINE)
    assert len(blocks) == len(pin_lines), "every pin is followed by its `# via` lines, as the resolver writes them"
    for name, via in blocks:
        assert (canonical(name) in direct) == ("-r requirements.in" in via), name
    lines = [line for line in locked_text.splitlines() if line.strip() and not line.startswith("#")]
    assert lines[-1] == "-e ." and "-e ." in (ROOT / "requirements.in").read_text(encoding="utf-8").splitlines()
    assert "file://" not in locked_text and "--index-url" not in locked_text and "--find-links" not in locked_text


def test_lock_makes_the_editable_install_relative_and_last():
    """The resolver writes the editable install near the top (uv as `-e .`, pip-compile as
    `-e file:///absolute/path`); tools/lock.py makes it `-e .` at the end."""
    spec = importlib.util.spec_from_file_location("lock", ROOT / "tools" / "lock.py")
    lock = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lock)
    compiled = ("#    make lock\n#\n-e file:///home/someone/embedding-lab\n    # via -r requirements.in\n"
                "numpy==2.2.6\n    # via\n    #   -r requirements.in\n    #   embedlab\n")
    fixed = lock.fix_editable(compiled)
    assert "file:" not in fixed and fixed.endswith("\n-e .\n") and fixed.count("-e .") == 1
    assert lock.fix_editable(fixed) == fixed                    # a second `make lock` changes nothing
    lock.check(fixed)
    with pytest.raises(SystemExit, match="not fully pinned"):
        lock.check(fixed.replace("numpy==2.2.6", "numpy>=2"))
    by_uv = ("#    make lock\n-e .\n    # via -r requirements.in\nnumpy==2.4.6 ; python_full_version < '3.15'\n"
             "    # via\n    #   -r requirements.in\n    #   embedlab\n")
    fixed = lock.fix_editable(by_uv)
    assert fixed.count("-e .") == 1 and fixed.endswith("\n-e .\n") and lock.fix_editable(fixed) == fixed
    lock.check(fixed)


FAKE_PYTHON = """#!/bin/bash
# a stand-in Python: `-c` (the version check) passes or fails as told; `-m venv DIR` makes a venv of stand-ins
echo "python $*" >> "{log}"
case "$1" in
  -c) exit {too_old} ;;
  --version) echo "Python {version}" ;;
  -m) mkdir -p "$3/bin"; printf '#!/bin/bash\\necho "venv python $*" >> "{log}"\\n' > "$3/bin/python"
      chmod +x "$3/bin/python" ;;
esac
"""


@pytest.mark.parametrize("version", ["3.10.12", "3.11.2"])
def test_make_refuses_a_python_older_than_the_pins_need(version, tmp_path):
    """The pinned requirements need Python 3.11 (ipykernel, IPython, tornado): on 3.10, `make lab` says so
    and names PYTHON=, instead of failing halfway through pip with 'No matching distribution'."""
    for name in ("Makefile", "requirements.txt", "pyproject.toml"):
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    log = tmp_path / "log"
    too_old = version.startswith("3.10")
    fake = tmp_path / "fakepython"
    fake.write_text(FAKE_PYTHON.format(log=log, too_old=int(too_old), version=version))
    fake.chmod(0o755)
    done = subprocess.run(["make", "-C", str(tmp_path), ".venv/.installed", f"PYTHON={fake}"],
                          capture_output=True, text=True, timeout=60)
    calls = log.read_text().splitlines()
    if too_old:
        assert done.returncode != 0 and not (tmp_path / ".venv").exists()
        assert "needs Python 3.11 or newer" in done.stderr and "Python 3.10.12" in done.stderr
        assert "PYTHON=python3.11" in done.stderr
    else:
        assert done.returncode == 0, done.stderr
        assert "python -m venv .venv" in calls and (tmp_path / ".venv" / ".installed").exists()
        assert "venv python -m pip install --quiet -r requirements.txt" in calls


def test_make_grade_writes_into_the_ignored_grades_folder_with_each_keys_folder():
    """book/grading.md, "Where grades go": `make grade SUBMISSIONS=… KEYS=…` grades a class with its keys
    (one --keys per folder) into grades/ (scores, totals, gradebook), which git ignores; ROSTER and
    LAYOUT pass an LMS download's roster and naming, POLICY the course policy, REPORT and FEEDBACK the
    class report and the learners' feedback; without KEYS it grades as self-study."""
    def recipe(*args):
        done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), "grade", *args],
                              capture_output=True, text=True, timeout=60)
        command = next(line for line in done.stdout.replace("\\\n", " ").splitlines() if "embedlab-grade" in line)
        return " ".join(command.split())

    assert recipe("SUBMISSIONS=subs", "KEYS=w1/instructor-keys w2/instructor-keys").endswith(
        "embedlab-grade subs --out grades/scores.csv --keys w1/instructor-keys --keys w2/instructor-keys "
        "--totals grades/totals.csv --gradebook grades/gradebook.csv")
    assert recipe("SUBMISSIONS=subs", "KEYS=k", "ROSTER=r.csv", "LAYOUT=moodle").endswith(
        "--roster r.csv --layout moodle")
    assert recipe("SUBMISSIONS=subs", "KEYS=k", "POLICY=policy.toml").endswith("--policy policy.toml")
    assert recipe("SUBMISSIONS=subs").endswith("embedlab-grade subs --out grades/scores.csv")
    assert recipe("SUBMISSIONS=subs", "KEYS=k", "REPORT=r.html", "FEEDBACK=fb").endswith(
        "--report r.html --feedback fb")
    ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "grades/scores.csv", "grades/totals.csv",
                              "class/instructor-keys/01-toy-table.json", "secret.txt", "totals.csv"],
                             capture_output=True, text=True, timeout=60)
    assert len(ignored.stdout.split()) == 5, ignored.stdout



def test_the_instructors_page_names_only_commands_and_flags_that_exist():
    """book/instructors.md (where the README's "For instructors" sends an instructor): each `make grade` and
    `make handout` line expands (make -n) to the grader's or the handout's command, every value it passes
    reaching that command; every `VAR=` it names is one the Makefile reads; each `embedlab-assign` line
    parses; and every --flag it names is one embedlab-grade, embedlab-assign or embedlab-handout accepts.
    Seen red with a flag renamed on the page (--public-bundles) and with KEY= for KEYS=."""
    import shlex

    from embedlab.grading import assign, cli

    page = (ROOT / "book" / "instructors.md").read_text(encoding="utf-8")
    parsers = (cli.build_parser(), assign.build_parser(), assign.build_handout_parser())
    known = {flag for parser in parsers for action in parser._actions for flag in action.option_strings}
    named = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", page))
    assert len(named) > 10 and not named - known, f"flags no tool accepts: {sorted(named - known)}"
    makes = re.findall(r"^make (grade|handout)((?: [A-Z]+=\S+)+)", page, re.M)
    assert {target for target, _ in makes} == {"grade", "handout"}
    for target, args in makes:
        done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), target, *args.split()],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        command = next(line for line in done.stdout.replace("\\\n", " ").splitlines()
                       if f"embedlab-{'grade' if target == 'grade' else 'handout'}" in line)
        for arg in args.split():
            assert arg.split("=", 1)[1] in command, (target, arg, command)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    variables = set(re.findall(r"\b([A-Z]+)=", page))
    assert {"SUBMISSIONS", "KEYS", "GRADES", "POLICY", "FEEDBACK"} <= variables
    assert all(f"$({v})" in makefile for v in variables), [v for v in variables if f"$({v})" not in makefile]
    lines = re.findall(r"^embedlab-assign (.+?)\s*$", page, re.M)
    assert lines
    for line in lines:
        assign.build_parser().parse_args(shlex.split(line))

def test_every_file_names_the_same_oldest_python():
    """pyproject.toml's requires-python, the Makefile's check, the README and requirements.in's comment
    name one oldest Python (requirements.in once said 3.10 while the rest said 3.11)."""
    wanted = re.search(r'requires-python = ">=(3\.\d+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert f"sys.version_info < ({wanted.replace('.', ', ')})" in (ROOT / "Makefile").read_text()
    stated = re.findall(r"Python (3\.\d+) to 3\.\d+", (ROOT / "requirements.in").read_text())
    assert stated == [wanted], stated
    assert f"Python {wanted} to " in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_test_command_does_not_build_the_iri_parsers():
    """pyproject.toml's addopts load embedlab._test_command first, so nbformat's jsonschema leaves out
    rfc3987_syntax (about 3 s of CPU per pytest process, building parsers nothing here uses)."""
    assert "rfc3987_syntax" in sys.modules and sys.modules["rfc3987_syntax"] is None
    assert "nbformat" in sys.modules  # imported, with jsonschema, all the same


def test_the_test_command_compiles_the_library_for_the_kernels_it_starts():
    """embedlab._test_command writes the library's bytecode (its sandboxed grading kernels, which
    cannot write it, then load it instead of compiling every module again): each module's cached
    bytecode exists and is current for its source (seen red with compile_library() not called)."""
    import importlib.util

    import embedlab.grading.kinds

    from embedlab import _test_command

    assert "embedlab._test_command" in sys.modules
    library = Path(embedlab.__file__).resolve().parent
    modules = sorted(library.rglob("*.py"))
    assert len(modules) > 30
    for source in modules:
        cached = Path(importlib.util.cache_from_source(str(source)))
        assert cached.is_file(), source
        header = cached.read_bytes()[:16]
        stat = source.stat()
        assert header[:4] == importlib.util.MAGIC_NUMBER
        assert int.from_bytes(header[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF, source
        assert int.from_bytes(header[12:16], "little") == stat.st_size & 0xFFFFFFFF, source
    assert _test_command.compile_library()  # all current: only checked


def _check_wheels():
    from tools_loader import load_tool

    return load_tool("check_wheels")


def test_the_wheel_check_finds_a_pin_with_no_wheel_for_a_target():
    """tools/check_wheels.py (run by `make lock` and CI, on the network) decides offline from a release's
    file names, as pip does: numpy 2.2.6's wheels stop at cp313, so on 3.14 it would be compiled; a
    pure-Python wheel serves every target; a marker keeps a pin off the targets it is not for."""
    from packaging.requirements import Requirement

    check = _check_wheels()
    files = {
        "numpy==2.2.6": [{"filename": f"numpy-2.2.6-cp3{m}-cp3{m}-{plat}.whl", "kind": "wheel",
                          "requires_python": ">=3.10"}
                         for m in (11, 12, 13) for plat in ("manylinux_2_17_x86_64.manylinux2014_x86_64",
                                                             "macosx_14_0_arm64", "win_amd64")],
        "six==1.16.0": [{"filename": "six-1.16.0-py2.py3-none-any.whl", "kind": "wheel", "requires_python": None}],
        "appnope==1.0.0": [],
    }
    pins = [Requirement("numpy==2.2.6"), Requirement("six==1.16.0"), Requirement("appnope==1.0.0 ; sys_platform == 'darwin'")]
    assert check.missing_wheels(pins, files, "3.13", "linux-x86_64") == []
    assert check.missing_wheels(pins, files, "3.14", "linux-x86_64") == ["numpy==2.2.6"]
    assert check.missing_wheels(pins, files, "3.13", "linux-aarch64") == ["numpy==2.2.6"]
    assert check.missing_wheels(pins, files, "3.13", "macos-arm64") == ["appnope==1.0.0"]
    assert check.missing_wheels(pins, files, "3.13", "windows-amd64") == []
    files["six==1.16.0"][0]["requires_python"] = "<3.12"
    assert check.missing_wheels(pins, files, "3.12", "windows-amd64") == ["six==1.16.0"]


def test_the_lock_serves_every_python_the_readme_promises():
    """README, pyproject, the lock's resolver and the wheel check name the same Pythons: 3.11 to 3.15."""
    from tools_loader import load_tool

    check = _check_wheels()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert check.PYTHONS == ("3.11", "3.12", "3.13", "3.14", "3.15")
    assert load_tool("lock").OLDEST_PYTHON == check.PYTHONS[0]
    wanted = re.search(r'requires-python = ">=(3\.\d+)"', (ROOT / "pyproject.toml").read_text()).group(1)
    assert wanted == check.PYTHONS[0]
    assert "3.11 to 3.15" in readme
    # the book's pages say the same range, never an open "or newer" the lock does not serve
    span = f"{check.PYTHONS[0]} to {check.PYTHONS[-1]}"
    for page in ("how-to-use.md", "a-term.md", "grading.md"):
        text = (ROOT / "book" / page).read_text(encoding="utf-8")
        assert f"Python {span}" in text and not re.search(r"Python 3\.\d+ or newer", text), page
