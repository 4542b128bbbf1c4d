"""Run the course's float-sensitive checks again as older CPUs would run them.

    python tools/other_cpus.py            # CI runs it after `make test` (.ci/run)
    python tools/other_cpus.py --cpu sse  # one of embedlab.numerics.OLDER_CPUS

numpy picks its SIMD kernels by the CPU it runs on (embedlab.numerics), and so does the
OpenBLAS inside numpy's wheels, which TinyLM's matrix products run in. This machine can stand
in for older ones: NPY_DISABLE_CPU_FEATURES switches off numpy's kernels they lack, and
OPENBLAS_CORETYPE picks the OpenBLAS kernel they get (numerics.OPENBLAS_KERNELS: Haswell for
an AVX2 CPU, Sandybridge for an AVX one, Nehalem for an SSE4.2 one; the kernel OpenBLAS then
reports is printed, and a CPU that cannot run one fails the run rather than passing unseen).
For each older CPU this CPU can emulate, it runs

1. the tests of what the course ships from training (TinyLM runs, BPE merges), the
   kernel fingerprint itself, and the lessons, solutions and exercises that train or read
   those runs (08, 09, 10, 12) under nbval strict: every printed number as stored;
2. class mode end to end on lesson 12 (which trains): `embedlab-assign` of three learners
   with a fixed secret, whose handouts must be byte for byte the ones this CPU's own
   kernels write, and whose instructor keys must be the same but for the last bits of the
   floats that come from training (within numerics.KEY_RTOL, 1,000 times tighter than the
   grader's tightest comparison); then `embedlab-grade` of each learner's honest work (the
   solution with their variant) against those keys, whose scores.csv must be identical (the
   grader passes NPY_DISABLE_CPU_FEATURES and OPENBLAS_CORETYPE into its sandbox, so the
   work runs on the emulated kernels as well).

A CPU that lacks what an emulation switches off has nothing to emulate: that is said,
not hidden, and the run goes on with the others.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from embedlab.grading.keys import KEYS_DIR, load_keys
from embedlab.grading.variants import with_parameters
from embedlab.numerics import KEY_RTOL, OLDER_CPUS, OPENBLAS_KERNELS, disable_features, openblas_kernel, simd_targets

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
LESSON = "12-change-a-vocabulary"
SECRET = "a fixed secret for the other-CPU check, not a real class's\n"
TESTS = ["tests/test_tinylm.py", "tests/test_bpe.py",
         *[f"{folder}/{name}" for folder in ("notebooks", "solutions", "exercises")
           for name in ("08-vocabulary-size.ipynb", "09-what-rows-learn.ipynb", "10-glitch-tokens.ipynb",
                        f"{LESSON}.ipynb")]]


def run(command: list[str], env: dict, **kwargs) -> subprocess.CompletedProcess:
    print("  $", " ".join(str(c) for c in command), flush=True)
    return subprocess.run(command, env=env, cwd=ROOT, **kwargs)


def assign(env: dict, out: Path) -> Path:
    """Assign lesson 12 to three learners with the fixed secret; the class folder."""
    out.mkdir(parents=True)
    (out / "roster.csv").write_text("learner\nada\nben\ncy\n", encoding="utf-8")
    (out / "secret.txt").write_text(SECRET, encoding="utf-8")
    done = run([str(BIN / "embedlab-assign"), LESSON, "--roster", str(out / "roster.csv"),
                "--secret-file", str(out / "secret.txt"), "--out", str(out / "class"), "-j", "2"], env)
    if done.returncode:
        raise SystemExit(f"embedlab-assign failed (exit {done.returncode})")
    return out / "class"


def honest_work(klass: Path, folder: Path) -> Path:
    """Each learner's honest work: the book's solution with their variant, in their metadata."""
    keys = load_keys(klass / KEYS_DIR)[LESSON]
    solution = nbformat.read(ROOT / "solutions" / f"{LESSON}.ipynb", as_version=4)
    for learner, variant in sorted(keys.learners.items()):
        nb = with_parameters(solution, keys.keys[variant].parameters)
        nb.metadata["embedlab"] = {"lesson": LESSON, "learner": learner, "variant": variant}
        (folder / learner).mkdir(parents=True)
        nbformat.write(nb, folder / learner / f"{LESSON}.ipynb")
    return folder


def grade(env: dict, klass: Path, work: Path, scores: Path) -> None:
    done = run([str(BIN / "embedlab-grade"), str(work), "--keys", str(klass / KEYS_DIR), "--out", str(scores)],
               env, stdout=subprocess.DEVNULL)
    if done.returncode:
        raise SystemExit(f"embedlab-grade failed (exit {done.returncode})")


def differences(a, b, where="") -> list[str]:
    """Where two JSON values differ: anything but a float exactly, floats by more than KEY_RTOL."""
    if isinstance(a, float) and isinstance(b, float):
        return [] if math.isclose(a, b, rel_tol=KEY_RTOL, abs_tol=0.0) else [f"{where}: {a!r} vs {b!r}"]
    if type(a) is not type(b):
        return [f"{where}: {type(a).__name__} vs {type(b).__name__}"]
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return [f"{where}: keys {sorted(a)} vs {sorted(b)}"]
        return [d for k in a for d in differences(a[k], b[k], f"{where}/{k}")]
    if isinstance(a, list):
        if len(a) != len(b):
            return [f"{where}: {len(a)} vs {len(b)} items"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{where}[{i}]")]
    return [] if a == b else [f"{where}: {a!r} vs {b!r}"]


def compare_classes(native: Path, other: Path) -> list[str]:
    """Handouts byte for byte; keys equal but for training floats' last bits (KEY_RTOL)."""
    problems = []
    names = sorted({p.relative_to(native) for p in native.rglob("*") if p.is_file()}
                   | {p.relative_to(other) for p in other.rglob("*") if p.is_file()})
    for name in names:
        a, b = native / name, other / name
        if not (a.is_file() and b.is_file()):
            problems.append(f"{name}: written on one CPU only")
        elif name.parts[0] == KEYS_DIR:
            found = differences(json.loads(a.read_text(encoding="utf-8")), json.loads(b.read_text(encoding="utf-8")))
            problems += [f"{name} {d}" for d in found[:5]]
        elif not filecmp.cmp(a, b, shallow=False):
            problems.append(f"{name}: not byte for byte the same")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpu", action="append", choices=sorted(OLDER_CPUS), help="emulate only this CPU")
    args = parser.parse_args(argv)
    print(f"this CPU runs numpy's kernels for: {' '.join(simd_targets())}; OpenBLAS's {openblas_kernel()}")
    failures = []
    with tempfile.TemporaryDirectory(prefix="other-cpus-") as scratch:
        native = None
        for cpu in args.cpu or sorted(OLDER_CPUS):
            off = disable_features(cpu)
            if not off:
                print(f"[{cpu}] this CPU has nothing an {cpu} CPU lacks: nothing to emulate")
                continue
            kernel = OPENBLAS_KERNELS[cpu]
            env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": off, "OPENBLAS_CORETYPE": kernel}
            ran = subprocess.run([sys.executable, "-c", "from embedlab.numerics import openblas_kernel; "
                                  "print(openblas_kernel())"], env=env, capture_output=True, text=True).stdout.strip()
            print(f"[{cpu}] NPY_DISABLE_CPU_FEATURES={off} OPENBLAS_CORETYPE={kernel}: OpenBLAS runs {ran}",
                  flush=True)
            if ran.lower() != kernel.lower():
                failures.append(f"{cpu}: OpenBLAS runs {ran}, not {kernel}")
            start = time.perf_counter()
            if run([sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadfile", *TESTS], env).returncode:
                failures.append(f"{cpu}: tests")
            if native is None:
                here = {k: v for k, v in os.environ.items()
                        if k not in ("NPY_DISABLE_CPU_FEATURES", "OPENBLAS_CORETYPE")}
                native = assign(here, Path(scratch, "native"))
                work = honest_work(native, Path(scratch, "work"))
                grade(here, native, work, Path(scratch, "native-scores.csv"))
            klass = assign(env, Path(scratch, cpu))
            grade(env, klass, work, Path(scratch, f"{cpu}-scores.csv"))
            differ = compare_classes(native, klass)
            if not filecmp.cmp(Path(scratch, "native-scores.csv"), Path(scratch, f"{cpu}-scores.csv"), shallow=False):
                differ.append("scores.csv differs")
            if differ:
                failures.append(f"{cpu}: class mode differs from this CPU's: {differ}")
            print(f"[{cpu}] done in {time.perf_counter() - start:.0f} s: "
                  f"{'handouts, keys and scores the same' if not differ else 'DIFFERENT: ' + '; '.join(differ)}",
                  flush=True)
    for failure in failures:
        print("FAILED", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
