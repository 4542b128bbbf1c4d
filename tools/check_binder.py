"""Binder: the image repo2docker would build installs the learner's set on the pinned Python.

    python tools/check_binder.py      # CI runs it (.ci/run); about 10 s once its venv exists

binder/requirements.txt lists the learner's packages (embedlab's own dependencies,
pyproject.toml) and everything they need in turn (learner_tree(): their installed
metadata, on binder/runtime.txt's Python on Linux), each at requirements.txt's pin for
that Python, then the course (`.`): so Binder installs the tree the tests ran, not
whatever release of wordfreq's or tiktoken's dependencies is newest on the day it
builds. binder/runtime.txt pins a Python the lock covers (tools/check_wheels.PYTHONS).
Without them Binder would install the whole requirements.txt (pytest, nbval,
jupyter-book and the rest) on its default Python.

    python tools/check_binder.py --write   # binder/requirements.txt, from the lock

1. binder_problems(): the files say that (also a unit test in `make test`, tests/test_binder.py).
2. `repo2docker --no-build --debug` (PyPI `jupyter-repo2docker`, pinned in tools/binder-tools.txt,
   installed in _build/binder-tools/) prints the Dockerfile Binder would build; dockerfile_problems()
   checks that it builds its environment on that Python and that its one pip install is
   `-r binder/requirements.txt`: not requirements.txt, not the repository by another route.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS_VENV = ROOT / "_build" / "binder-tools"
BINDER = ROOT / "binder"


def name(requirement: str) -> str:
    return re.split(r"[\s=<>!~;\[]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def runtime_python(binder: Path = BINDER) -> str:
    text = (binder / "runtime.txt").read_text(encoding="utf-8").strip()
    found = re.fullmatch(r"python-(3\.\d+)", text)
    if not found:
        raise ValueError(f"binder/runtime.txt: {text!r} is not python-3.N")
    return found.group(1)


def lock_pins(python: str, lock: Path = ROOT / "requirements.txt") -> dict[str, str]:
    """{name: version} of requirements.txt for that Python (its markers evaluated)."""
    from packaging.markers import Marker
    env = {"python_version": python, "python_full_version": python + ".0", "sys_platform": "linux",
           "platform_system": "Linux", "platform_machine": "x86_64", "implementation_name": "cpython",
           "platform_python_implementation": "CPython", "os_name": "posix"}
    pins = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "-")):
            continue
        spec, _, marker = line.partition(";")
        if marker.strip() and not Marker(marker.strip()).evaluate(env):
            continue
        pkg, _, version = spec.strip().partition("==")
        pins[name(pkg)] = version.strip()
    return pins


def learner_packages(pyproject: Path = ROOT / "pyproject.toml") -> set[str]:
    """The learner's packages: embedlab's dependencies."""
    return {name(r) for r in tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]}


def learner_tree(python: str,
                 pyproject: Path = ROOT / "pyproject.toml") -> dict[str, set[str]]:
    """{package: the packages of the tree that need it} for the learner's packages and,
    in turn, everything they need on `python` on Linux: read from the installed
    distributions' metadata (the course's venv holds the lock's versions), following the
    extras a requirement names."""
    from importlib import metadata

    from packaging.requirements import Requirement

    env = {"python_version": python, "python_full_version": python + ".0",
           "sys_platform": "linux", "platform_system": "Linux",
           "platform_machine": "x86_64", "implementation_name": "cpython",
           "platform_python_implementation": "CPython", "os_name": "posix"}
    learner = learner_packages(pyproject) - {"embedlab"}
    needed_by: dict[str, set[str]] = {pkg: set() for pkg in learner}
    extras: dict[str, set[str]] = {pkg: set() for pkg in needed_by}
    todo = sorted(needed_by)
    while todo:
        pkg = todo.pop()
        for line in metadata.requires(pkg) or []:
            req = Requirement(line)
            wanted = [{**env, "extra": extra} for extra in sorted(extras[pkg]) or [""]]
            if req.marker and not any(req.marker.evaluate(e) for e in wanted):
                continue
            dep = name(req.name)
            new = dep not in needed_by or not set(req.extras) <= extras[dep]
            needed_by.setdefault(dep, set()).add(pkg)
            extras.setdefault(dep, set()).update(req.extras)
            if new:
                todo.append(dep)
    return needed_by


def binder_lines(python: str, lock: Path = ROOT / "requirements.txt",
                 pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """binder/requirements.txt's pins: the learner's tree at the lock's versions, then
    `.`."""
    pins = lock_pins(python, lock)
    tree = sorted(learner_tree(python, pyproject))
    return [f"{pkg}=={pins[pkg]}" for pkg in tree] + ["."]


def binder_problems(binder: Path = BINDER, pyproject: Path = ROOT / "pyproject.toml",
                    lock: Path = ROOT / "requirements.txt", pythons: tuple[str, ...] | None = None) -> list[str]:
    """What binder/ gets wrong: a Python the lock does not cover, a package that is not the learner's,
    one of theirs missing, a version other than the lock's for that Python, no course line."""
    if pythons is None:
        import importlib.util  # check_wheels beside this file, loaded from it (no edit of sys.path)

        check_wheels = sys.modules.get("check_wheels")
        if check_wheels is None:
            spec = importlib.util.spec_from_file_location("check_wheels", ROOT / "tools" / "check_wheels.py")
            check_wheels = importlib.util.module_from_spec(spec)
            sys.modules["check_wheels"] = check_wheels
            spec.loader.exec_module(check_wheels)
        pythons = check_wheels.PYTHONS
    python = runtime_python(binder)
    problems = [] if python in pythons else [f"binder/runtime.txt: Python {python} is not one the lock covers"]
    lines = [line.split("#")[0].strip() for line in (binder / "requirements.txt").read_text(encoding="utf-8").splitlines()]
    lines = [line for line in lines if line]
    if lines[-1:] != ["."]:
        problems.append("binder/requirements.txt: its last line is not `.` (the course library from this repository)")
    pins = lock_pins(python, lock)
    learner = learner_packages(pyproject) - {"embedlab"}
    tree = learner_tree(python, pyproject)
    listed = {}
    for line in lines:
        if line == ".":
            continue
        pkg, _, version = line.partition("==")
        listed[name(pkg)] = version.strip()
    for pkg in sorted(set(listed) - set(tree)):
        problems.append(f"binder/requirements.txt: {pkg} is not a learner's package "
                        "(embedlab's dependencies and theirs)")
    for pkg in sorted(learner - set(listed)):
        problems.append(f"binder/requirements.txt: {pkg} (an embedlab dependency) is missing")
    for pkg in sorted(set(tree) - learner - set(listed)):
        needs = ", ".join(sorted(tree[pkg]))
        problems.append(f"binder/requirements.txt: {pkg} (needed by {needs}) "
                        "is not pinned")
    for pkg, version in sorted(listed.items()):
        if pkg in pins and version != pins[pkg]:
            problems.append(f"binder/requirements.txt: {pkg}=={version}, but requirements.txt pins "
                            f"{pins[pkg]} for Python {python}")
        elif pkg not in pins:
            problems.append(f"binder/requirements.txt: {pkg} is not in requirements.txt")
    return problems


def dockerfile_problems(text: str, python: str) -> list[str]:
    """What the Dockerfile repo2docker printed gets wrong: another Python, another install."""
    problems = []
    if f"Building conda environment for python={python}\n" not in text:
        found = re.findall(r"Building conda environment for python=(\S+)", text)
        problems.append(f"the image's Python is {found[0] if found else 'not named'}, not {python} (runtime.txt)")
    # repo2docker names the copied file with its path escaped (escapism: "-2e" for ".", "-2d" for "-")
    unescaped = re.sub(r"-([0-9a-f]{2})", lambda m: chr(int(m.group(1), 16)), text)
    if not re.search(rf"environment\.py-{re.escape(python)}-linux-64\.lock", unescaped):
        problems.append(f"the image's base environment is not the Python {python} one")
    installs = re.findall(r"^RUN .*\bpip install\b.*$", text, flags=re.M)
    wanted = [i for i in installs if re.search(r'-r "?binder/requirements\.txt"?', i)]
    if len(wanted) != 1:
        problems.append(f"the image does not pip install -r binder/requirements.txt once ({len(wanted)} times)")
    for other in installs:
        if other not in wanted:
            problems.append(f"the image installs something else: {other.strip()}")
    return problems


def repo2docker_dockerfile() -> str:
    python = TOOLS_VENV / "bin" / "python"
    stamp = TOOLS_VENV / ".installed"
    spec = ROOT / "tools" / "binder-tools.txt"
    if not stamp.exists() or stamp.read_text() != spec.read_text():
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(TOOLS_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-r", str(spec)], check=True)
        stamp.write_text(spec.read_text())
    done = subprocess.run([str(TOOLS_VENV / "bin" / "repo2docker"), "--no-build", "--debug", str(ROOT)],
                          capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise SystemExit(f"repo2docker --no-build failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout + done.stderr


def write(binder: Path = BINDER) -> None:
    """binder/requirements.txt: its comment kept, the pins made again from the lock."""
    path = binder / "requirements.txt"
    comment = [line for line in path.read_text(encoding="utf-8").splitlines()
               if line.startswith("#")]
    pins = binder_lines(runtime_python(binder))
    path.write_text("\n".join(comment + pins) + "\n", encoding="utf-8")


def main() -> int:
    if sys.argv[1:] == ["--write"]:
        write()
        return 0
    python = runtime_python()
    problems = binder_problems()
    text = repo2docker_dockerfile()
    problems += dockerfile_problems(text, python)
    for problem in problems:
        print("BINDER:", problem, file=sys.stderr)
    if not problems:
        names = [line for line in (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines()
                 if line and not line.startswith("#")]
        print(f"check_binder: repo2docker builds Python {python} and pip installs only binder/requirements.txt: "
              + ", ".join(names))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
