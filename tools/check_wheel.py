"""embedlab as a distribution: build it, check it, and run the course against the installed wheel.

    python tools/check_wheel.py              # CI runs it (.ci/run): build, check, install, nbval
    python tools/check_wheel.py --build-only # the wheel and sdist in _build/dist, checked; no lessons run

1. Builds the wheel and the sdist (`python -m build`, in _build/wheel-tools/, a venv of
   tools/wheel-tools.txt, never .venv/) into _build/dist/, and runs `twine check --strict`
   on both (their metadata renders on PyPI).
2. Checks the wheel's file list (wheel_problems): every file of lib/embedlab that is not
   bytecode is inside (the modules, the shipped runs, configs, tokenizer sizes, the
   licence, the answer keys), nothing else is, and its version is embedlab.__version__
   (the course's release, which every lesson's first cell pins).
3. Installs the wheel into a bare virtual environment (`python -m venv`, nothing from the
   clone), its dependencies held to requirements.txt's pins (so nbval can compare the
   stored outputs) and nbval to run them; copies notebooks/ and exercises/ (--all: solutions/
   too) to a temporary folder with no lib/ beside them (and no repository above them); and runs
   every lesson and blank exercise under nbval strict there, against the installed package.

Nothing is published: CONTRIBUTING.md, "Releasing embedlab", has the steps.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "_build" / "dist"
TOOLS_VENV = ROOT / "_build" / "wheel-tools"
PACKAGE = ROOT / "lib" / "embedlab"
FOLDERS = ("notebooks", "exercises", "solutions")
# what CI runs against the wheel: the lessons, and the blank exercises (their checks read the answer
# keys inside the wheel); --all adds the solutions (make test and other_pythons.py run them anyway)
DEFAULT_FOLDERS = ("notebooks", "exercises")
# what the bare venv needs to run the notebooks, beside the wheel and what it depends on
RUNNERS = ("pytest", "pytest-xdist", "nbval", "ipykernel")


def release() -> str:
    found = re.search(r'^__version__ = "([^"]+)"$', (PACKAGE / "__init__.py").read_text(encoding="utf-8"), re.M)
    if not found:
        raise ValueError("lib/embedlab/__init__.py: no __version__ line")
    return found.group(1)


def expected_files(package: Path = PACKAGE) -> set[str]:
    """The wheel's files under embedlab/: every file of the package folder but bytecode."""
    return {p.relative_to(package.parent).as_posix() for p in package.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}


def wheel_problems(wheel: Path, package: Path = PACKAGE, version: str | None = None) -> list[str]:
    """What is wrong with a built wheel: files of the package it lacks or it has and the package
    has not, a version other than the course's release, no licence or entry points. [] if none."""
    version = release() if version is None else version
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        info = f"embedlab-{version}.dist-info"
        metadata = z.read(f"{info}/METADATA").decode() if f"{info}/METADATA" in names else ""
    inside = {n for n in names if not n.startswith("embedlab-") or ".dist-info/" not in n}
    want = expected_files(package)
    problems = [f"missing from the wheel: {n}" for n in sorted(want - inside)]
    problems += [f"in the wheel but not in lib/: {n}" for n in sorted(inside - want)]
    if not metadata:
        problems.append(f"no {info}/METADATA: the wheel's version is not the course's release {version}")
    elif f"\nVersion: {version}\n" not in metadata:
        problems.append(f"METADATA's version is not the course's release {version}")
    for needed in (f"{info}/licenses/LICENSE", f"{info}/entry_points.txt"):
        if needed not in names:
            problems.append(f"missing from the wheel: {needed}")
    return problems


def run(command: list, **kwargs) -> None:
    print("  $", " ".join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], check=True, **kwargs)


def tools_python() -> Path:
    python = TOOLS_VENV / "bin" / "python"
    stamp = TOOLS_VENV / ".installed"
    spec = ROOT / "tools" / "wheel-tools.txt"
    if not stamp.exists() or stamp.read_text() != spec.read_text():
        run([sys.executable, "-m", "venv", "--clear", TOOLS_VENV])
        run([python, "-m", "pip", "install", "--quiet", "-r", spec])
        stamp.write_text(spec.read_text())
    return python


def build(out: Path = DIST) -> tuple[Path, Path]:
    """The wheel and the sdist of the clone as it is, in `out`, both past `twine check --strict`."""
    python = tools_python()
    shutil.rmtree(out, ignore_errors=True)
    run([python, "-m", "build", "--outdir", out, ROOT], stdout=subprocess.DEVNULL)
    wheel, = out.glob("embedlab-*.whl")
    sdist, = out.glob("embedlab-*.tar.gz")
    run([python, "-m", "twine", "check", "--strict", wheel, sdist])
    return wheel, sdist


def constraints(path: Path) -> Path:
    """requirements.txt's pins as a constraints file (without its `-e .`: the wheel stands for it)."""
    lines = [line for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.lstrip().startswith(("#", "-e"))]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def lessons_against(wheel: Path, scratch: Path, workers: int = 2, folders=DEFAULT_FOLDERS) -> int:
    """Install `wheel` in a bare venv and run every notebook under nbval strict in a folder with no
    lib/ beside it; pytest's exit code."""
    venv = scratch / "venv"
    run([sys.executable, "-m", "venv", venv])
    python = venv / "bin" / "python"
    run([python, "-m", "pip", "install", "--quiet", "-c", constraints(scratch / "constraints.txt"),
         wheel, *RUNNERS])
    found = subprocess.run([python, "-c", "import embedlab; print(embedlab.__file__)"], cwd=scratch,
                           capture_output=True, text=True, check=True).stdout.strip()
    if not found.startswith(str(venv)):
        raise SystemExit(f"embedlab imported from {found}, not from the bare venv")
    course = scratch / "course"
    for folder in folders:
        shutil.copytree(ROOT / folder, course / folder)
    shutil.copy(ROOT / "tests" / "sanitize.cfg", course / "sanitize.cfg")
    (course / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")   # not the clone's settings
    assert not (course / "lib").exists() and not (course.parent / "lib").exists()
    return subprocess.run([python, "-m", "pytest", "-q", "-p", "embedlab._test_command", "-p", "no:cacheprovider",
                           "--nbval", "--nbval-current-env", "--nbval-sanitize-with", "sanitize.cfg",
                           "-n", str(workers), "--dist", "loadfile", *folders], cwd=course).returncode


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-only", action="store_true", help="build and check; run no lesson")
    parser.add_argument("-n", type=int, default=2, help="pytest-xdist workers (2)")
    parser.add_argument("--all", action="store_true", help="the solutions too")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    wheel, sdist = build()
    problems = wheel_problems(wheel)
    for problem in problems:
        print("WHEEL:", problem, file=sys.stderr)
    if problems:
        return 1
    print(f"{wheel.name} ({wheel.stat().st_size:,} bytes) and {sdist.name}: twine check passed, "
          f"every file of lib/embedlab inside ({time.perf_counter() - start:.0f} s)", flush=True)
    if args.build_only:
        return 0
    with tempfile.TemporaryDirectory(prefix="check-wheel-") as scratch:
        code = lessons_against(wheel, Path(scratch), args.n, FOLDERS if args.all else DEFAULT_FOLDERS)
    print(f"check_wheel: {'every notebook reproduced' if code == 0 else 'FAILED'} against the installed "
          f"wheel in {time.perf_counter() - start:.0f} s", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
