"""Run the course on the real CPython interpreters the README promises and this machine lacks,
each with the kernels of an older CPU.

    python tools/other_pythons.py                   # CI runs it (.ci/run)
    python tools/other_pythons.py --python 3.15     # one of them
    python tools/other_pythons.py --cpus none       # on this CPU's own kernels only
    python tools/other_pythons.py --cache DIR       # keep the Debian root in DIR (default below)

`make test` runs everything on the Python of .venv/ and this CPU's kernels; tools/check_wheels.py
proves that every pin has a wheel for every promised Python (check_wheels.PYTHONS). This goes
further, on the interpreters themselves and on older CPUs' kernels:

1. Builds, once, a Debian root with `debootstrap` (suite sid, from Debian's package registry,
   the mirror this machine's apt uses) and installs Debian's `pythonX.Y` and `pythonX.Y-venv`
   of every promised Python but this machine's own (`make test` runs that one), and
   bubblewrap for the grader's sandbox. It is cached in a git-ignored folder
   (_build/other-pythons/ in the clone, or --cache DIR) and rebuilt when PACKAGES change.
2. Pairs each of those Pythons with one older CPU this CPU can stand in for
   (embedlab.numerics.OLDER_CPUS, as tools/other_cpus.py emulates them: numpy's kernels switched
   off by NPY_DISABLE_CPU_FEATURES, OpenBLAS's picked by OPENBLAS_CORETYPE), in turn, so that
   every Python and every older CPU is run once (runs(): with fewer Pythons than CPUs, the
   newest runs again for the CPUs left). Every difference a Python or a CPU makes to a printed
   number shows in the run that has it; what is not run is a Python and a CPU together that each
   pass alone. The kernel OpenBLAS reports inside the root is checked before each run.
3. On each pair, inside the root (entered with bubblewrap, the clone bound at /course): a venv
   with the lock installed by plain pip (`pip install -r requirements.txt`, wheels only: a
   pin that would compile fails here), then
   - every notebook (lessons, exercises, solutions) under nbval strict, and the
     float-sensitive unit tests (FLOAT_TESTS): every printed number as stored;
   - class mode on lesson 12 (which trains): `embedlab-assign` of three learners with a
     fixed secret and `embedlab-grade` of their honest work, compared with the same class
     made on this machine's Python and kernels as tools/other_cpus.py compares CPUs (handouts
     byte for byte, keys but for the last bits of trained floats, scores.csv identical);
   - on the newest only, the book: `jupyter-book build . -W -n --keep-going` (its PDF is
     left out: the root has no Chromium).
4. Prints each step's time and exits 1 if any step failed.

A promised Python Debian's sid does not ship is named as untested here, never skipped in
silence (3.12 today: check_wheels.py alone covers it); so is an older CPU this one cannot
stand in for (one without AVX-512 has no AVX2 CPU to emulate).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _neighbour(name: str):
    """A script beside this one (tools/NAME.py), as loaded already or from its file: no edit of sys.path
    (run as a script, or loaded from its file by the tests)."""
    import importlib.util

    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


check_wheels = _neighbour("check_wheels")  # PYTHONS: the promised ones
other_cpus = _neighbour("other_cpus")  # class mode: assign, honest work, grade, compare

from embedlab.numerics import OLDER_CPUS, OPENBLAS_KERNELS, disable_features  # noqa: E402

SUITE = "sid"
CACHE = ROOT / "_build" / "other-pythons"
COURSE = "/course"          # where the clone is bound inside the root
FLOAT_TESTS = ["tests/test_tinylm.py", "tests/test_bpe.py", "tests/test_numerics.py", "tests/test_resize.py",
               "tests/test_undertrained.py", "tests/test_vectors.py", "tests/test_lookup.py"]
NOTEBOOKS = ["notebooks", "exercises", "solutions"]
CHROOT = shutil.which("chroot") or "/usr/sbin/chroot"
BWRAP = shutil.which("bwrap") or "/usr/bin/bwrap"
APT = ["apt-get", "-o", "Acquire::Check-Valid-Until=false", "-q"]   # a mirror snapshot's Release may be old


def host_python() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"


def mirror() -> str:
    """The Debian mirror this machine's apt uses (its sources), for debootstrap."""
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in
             [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
             if p.is_file() and p.suffix in ("", ".list", ".sources")]
    for text in texts:
        for found in re.findall(r"^URIs:\s*(\S+)", text, flags=re.M) + re.findall(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+)",
                                                                                   text, flags=re.M):
            if found.rstrip("/").endswith("/debian"):
                return found
    raise SystemExit("no Debian mirror in /etc/apt/sources.list(.d): debootstrap needs one")


def packages(versions: list[str]) -> list[str]:
    return sorted([f"python{v}-venv" for v in versions] + ["bubblewrap", "ca-certificates"])


def run(command: list, **kwargs) -> subprocess.CompletedProcess:
    print("  $", " ".join(str(c) for c in command), flush=True)
    return subprocess.run([str(c) for c in command], **kwargs)


def build_root(cache: Path, versions: list[str] | None) -> Path:
    """The Debian root with these Pythons, built once (debootstrap, then apt-get install); None: the
    root with its package lists only (to ask what it ships)."""
    root = cache / SUITE
    stamp = cache / "installed.txt"
    wanted = "\n".join(packages(versions or [])) + "\n"
    if not (root / "usr" / "bin" / "apt-get").exists():
        shutil.rmtree(root, ignore_errors=True)
        cache.mkdir(parents=True, exist_ok=True)
        if shutil.which("debootstrap") is None:
            install_host_package("debootstrap")
        if run(["debootstrap", "--variant=minbase", SUITE, root, mirror()], stdout=subprocess.DEVNULL).returncode:
            raise SystemExit("debootstrap failed")
        stamp.unlink(missing_ok=True)
    if versions is None:
        if not any((root / "var" / "lib" / "apt" / "lists").glob("*Packages*")):
            shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
            run([CHROOT, root, *APT, "update"], stdout=subprocess.DEVNULL, check=True)
        return root
    if not stamp.exists() or stamp.read_text() != wanted:
        shutil.copy("/etc/resolv.conf", root / "etc" / "resolv.conf")
        env = {"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
        for command in ([*APT, "update"], [*APT, "install", "-y", "--no-install-recommends", *packages(versions)]):
            if run([CHROOT, root, *command], env=env, stdout=subprocess.DEVNULL).returncode:
                raise SystemExit(f"apt-get in the Debian root failed: {command}")
        stamp.write_text(wanted)
    return root


def install_host_package(name: str) -> None:
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    run([*sudo, "apt-get", "update", "-qq"], check=True)
    run([*sudo, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", name], check=True)


def available(root: Path, versions: list[str]) -> tuple[list[str], list[str]]:
    """(versions sid ships, versions it does not), asked of the root's apt."""
    ships, lacks = [], []
    for v in versions:
        found = subprocess.run([CHROOT, root, "apt-cache", "show", f"python{v}-venv"], capture_output=True)
        (ships if found.returncode == 0 else lacks).append(v)
    return ships, lacks


HOST_CA = "/etc/ssl/certs/ca-certificates.crt"   # this machine's trusted certificates, as its pip uses
ROOT_CA = "/etc/embedlab-host-ca.crt"           # their copy inside the root


def runs(pythons: list[str], cpus: list[str]) -> list[tuple[str, str | None]]:
    """(Python, older CPU or None for this CPU's own kernels) pairs that run every Python and every CPU
    once: in turn, the newest Python again for CPUs left over, no CPU for Pythons left over."""
    if not pythons:
        return []
    pairs = [(python, cpus[i] if i < len(cpus) else None) for i, python in enumerate(pythons)]
    return pairs + [(pythons[-1], cpu) for cpu in cpus[len(pythons):]]


def cpu_env(cpu: str | None) -> dict:
    """The environment that makes numpy and OpenBLAS run an older `cpu`'s kernels ({} for this CPU's)."""
    if cpu is None:
        return {}
    return {"NPY_DISABLE_CPU_FEATURES": disable_features(cpu), "OPENBLAS_CORETYPE": OPENBLAS_KERNELS[cpu]}


def in_root(root: Path, command: list, extra_env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    if Path(HOST_CA).exists():   # reach PyPI as this machine does (a proxy's own CA included)
        shutil.copy(HOST_CA, root / ROOT_CA.lstrip("/"))
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8",
           **({"PIP_CERT": ROOT_CA, "SSL_CERT_FILE": ROOT_CA} if Path(HOST_CA).exists() else {}),
           "PYTHONDONTWRITEBYTECODE": "1",
           **{k: v for k, v in os.environ.items() if k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS")},
           **(extra_env or {})}
    # bubblewrap, not chroot: the grader's own sandbox (bubblewrap) runs inside, and the kernel refuses
    # a new user namespace to a chrooted process; as root this makes only a mount namespace
    (root / COURSE.lstrip("/")).mkdir(exist_ok=True)
    enter = [BWRAP, "--bind", root, "/", "--bind", ROOT, COURSE, "--proc", "/proc", "--dev", "/dev",
             "--ro-bind", "/sys", "/sys", "--chdir", COURSE, "--clearenv"]
    for key, value in env.items():
        enter += ["--setenv", key, value]
    return run([*enter, *command], **kwargs)


def venv(root: Path, version: str) -> str:
    """/opt/venv-X.Y inside the root, with the lock installed by plain pip (cached by the lock's text)."""
    where = f"/opt/venv-{version}"
    stamp = root / where.lstrip("/") / ".installed"
    lock = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    if not stamp.exists() or stamp.read_text() != lock:
        if in_root(root, [f"python{version}", "-m", "venv", "--clear", where]).returncode:
            raise SystemExit(f"python{version} -m venv failed")
        # --only-binary: the README promises every pin installs from a wheel, but for the pure-Python
        # source archives check_wheels.SOURCE_ONLY names; any other source build fails here
        if in_root(root, [f"{where}/bin/python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                          "--only-binary", ":all:", "--no-binary", ",".join(sorted(check_wheels.SOURCE_ONLY)),
                          "-r", "requirements.txt"]).returncode:
            raise SystemExit(f"the lock did not install on Python {version}")
        stamp.write_text(lock)
    return where


# Inside the root the grader runs without its own sandbox (--no-sandbox): the root is entered with
# bubblewrap already, and the kernel refuses the nested sandbox its /proc mount. What is compared here
# is the numbers each Python computes; the sandbox itself is make test's (tests/test_sandbox.py).
CLASS_SCRIPT = """\
import importlib.util, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("other_cpus", "tools/other_cpus.py")  # loaded from its file
other_cpus = importlib.util.module_from_spec(spec)
sys.modules["other_cpus"] = other_cpus
spec.loader.exec_module(other_cpus)
_run = other_cpus.run
other_cpus.run = lambda command, env, **kw: _run([*command, "--no-sandbox"], env, **kw)
klass = other_cpus.assign(dict(__import__("os").environ), Path(sys.argv[1]))
other_cpus.grade(dict(__import__("os").environ), klass, Path(sys.argv[2]), Path(sys.argv[3]))
"""


def class_mode(root: Path, where: str, version: str, native: Path, work: Path, scratch: Path,
               extra_env: dict | None = None) -> list[str]:
    """Lesson 12's class made and graded on this Python (and `extra_env`'s kernels), against this
    machine's (differences, or [])."""
    inside = Path(tempfile.mkdtemp(prefix=f"class-{version}-", dir=root / "tmp"))
    outside_work = inside / "work"
    shutil.copytree(work, outside_work)
    guest = "/" + inside.relative_to(root).as_posix()
    done = in_root(root, [f"{where}/bin/python", "-c", CLASS_SCRIPT, f"{guest}/made", f"{guest}/work",
                          f"{guest}/scores.csv"], extra_env)
    if done.returncode:
        return [f"class mode failed (exit {done.returncode})"]
    differ = other_cpus.compare_classes(native, inside / "made" / "class")
    # scores.csv names each submission by its path: the same work, in another folder here
    ours = (scratch / "native-scores.csv").read_text(encoding="utf-8").replace(str(work), "WORK")
    theirs = (inside / "scores.csv").read_text(encoding="utf-8").replace(f"{guest}/work", "WORK")
    if ours != theirs:
        differ.append("scores.csv differs: " + " | ".join(
            f"{a} vs {b}" for a, b in zip(ours.splitlines(), theirs.splitlines()) if a != b)[:300])
    shutil.rmtree(inside, ignore_errors=True)
    return differ


def emulable(wanted: list[str]) -> tuple[list[str], list[str]]:
    """(older CPUs this CPU can stand in for, those it cannot), of `wanted` (keys of OLDER_CPUS)."""
    can = [cpu for cpu in wanted if disable_features(cpu)]
    return can, [cpu for cpu in wanted if cpu not in can]


KERNEL_SCRIPT = "from embedlab.numerics import openblas_kernel; print(openblas_kernel())"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", choices=check_wheels.PYTHONS, help="only this Python")
    parser.add_argument("--cpus", default=",".join(sorted(OLDER_CPUS)),
                        help=f"older CPUs to pair with the Pythons, comma-separated, of {sorted(OLDER_CPUS)} "
                             "(default all), or none")
    parser.add_argument("--steps", default="tests,class,book",
                        help="which of tests, class, book to run (default all, comma-separated)")
    parser.add_argument("--cache", type=Path, default=Path(os.environ.get("EMBEDLAB_OTHER_PYTHONS", CACHE)),
                        help=f"where the Debian root is kept (default {CACHE.relative_to(ROOT)}/, "
                             "or $EMBEDLAB_OTHER_PYTHONS)")
    args = parser.parse_args(argv)
    asked = [] if args.cpus == "none" else args.cpus.split(",")
    for cpu in asked:
        if cpu not in OLDER_CPUS:
            parser.error(f"--cpus: {cpu!r} is not one of {sorted(OLDER_CPUS)} or none")
    if os.geteuid() != 0:
        raise SystemExit("other_pythons.py builds and enters a Debian root (debootstrap, chroot): run it as root")
    start = time.perf_counter()
    wanted = args.python or [v for v in check_wheels.PYTHONS if v != host_python()]
    print(f"this machine runs make test on Python {host_python()}; the others promised: {' '.join(wanted)}")
    cpus, cannot = emulable(asked)
    for cpu in cannot:
        print(f"[{cpu}] this CPU has nothing an {cpu} CPU lacks: its kernels are not run here")
    root = build_root(args.cache, None)   # the bare root first, to ask its apt what it ships
    ships, lacks = available(root, wanted)
    for v in lacks:
        print(f"[{v}] Debian {SUITE} ships no python{v}: NOT tested on a real interpreter here "
              "(tools/check_wheels.py checks its wheels only)")
    root = build_root(args.cache, ships)
    print(f"Debian root ready in {time.perf_counter() - start:.0f} s", flush=True)
    failures = []
    steps = args.steps.split(",")
    with tempfile.TemporaryDirectory(prefix="other-pythons-") as scratch_dir:
        scratch = Path(scratch_dir)
        here = {k: v for k, v in os.environ.items() if k not in ("NPY_DISABLE_CPU_FEATURES", "OPENBLAS_CORETYPE")}
        native = other_cpus.assign(here, scratch / "native")
        work = other_cpus.honest_work(native, scratch / "work")
        other_cpus.grade(here, native, work, scratch / "native-scores.csv")
        booked = False
        for version, cpu in runs(ships, cpus):
            name = f"{version} as {'this CPU' if cpu is None else f'an {cpu} CPU'}"
            t0 = time.perf_counter()
            where = venv(root, version)
            env = cpu_env(cpu)
            t1 = time.perf_counter()
            if cpu is not None:
                kernel = in_root(root, [f"{where}/bin/python", "-c", KERNEL_SCRIPT], env,
                                 capture_output=True, text=True).stdout.strip()
                print(f"[{name}] NPY_DISABLE_CPU_FEATURES={env['NPY_DISABLE_CPU_FEATURES']} "
                      f"OPENBLAS_CORETYPE={env['OPENBLAS_CORETYPE']}: OpenBLAS runs {kernel}", flush=True)
                if kernel.lower() != env["OPENBLAS_CORETYPE"].lower():
                    failures.append(f"{name}: OpenBLAS runs {kernel!r}, not {env['OPENBLAS_CORETYPE']}")
            # the one test about emulating a CPU asks for this CPU's own kernels: make test runs it
            deselect = ["--deselect", "tests/test_numerics.py::test_an_emulated_older_cpu_runs_only_the_older_kernels"]
            tests = in_root(root, [f"{where}/bin/python", "-m", "pytest", "-q", "-n", "2", "--dist", "loadfile",
                                   *(deselect if cpu else []), *NOTEBOOKS, *FLOAT_TESTS], env) \
                if "tests" in steps else subprocess.CompletedProcess([], 0)
            if tests.returncode:
                failures.append(f"{name}: notebooks or float-sensitive tests")
            t2 = time.perf_counter()
            differ = class_mode(root, where, version, native, work, scratch, env) if "class" in steps else []
            if differ:
                failures.append(f"{name}: class mode differs from Python {host_python()}'s on this CPU: {differ[:5]}")
            t3 = time.perf_counter()
            same = f"the same as Python {host_python()}'s on this CPU"
            line = (f"[{name}] lock {t1 - t0:.0f} s, notebooks and float tests {t2 - t1:.0f} s "
                    f"({'passed' if not tests.returncode else 'FAILED'}), class mode {t3 - t2:.0f} s "
                    f"({same if not differ else 'DIFFERENT'})")
            if version == ships[-1] and "book" in steps and not booked:
                booked = True
                out = f"/tmp/book-{version}"
                book = in_root(root, [f"{where}/bin/jupyter-book", "build", ".", "-W", "-n", "--keep-going",
                                      "--path-output", out], env, stdout=subprocess.DEVNULL)
                if book.returncode or not (root / out.lstrip("/") / "_build" / "html" / "index.html").exists():
                    failures.append(f"{version}: the book build")
                shutil.rmtree(root / out.lstrip("/"), ignore_errors=True)
                line += f", book {time.perf_counter() - t3:.0f} s ({'built' if not book.returncode else 'FAILED'})"
            print(line, flush=True)
    covered = sorted({cpu for _, cpu in runs(ships, cpus) if cpu})
    print(f"other_pythons: {len(ships)} Pythons and {len(covered)} older CPUs ({' '.join(covered) or 'none'}) "
          f"in {time.perf_counter() - start:.0f} s"
          + (f"; untested: {' '.join(lacks + cannot)}" if lacks or cannot else ""), flush=True)
    for failure in failures:
        print("FAILED", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
