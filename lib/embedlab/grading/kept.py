"""Work kept by the hash of every input that makes it, for a program that makes the same work again and
again: the course's tests (tests/conftest.py points CACHE_ENV at _build/test-cache/class). embedlab-assign
and embedlab-grade never set it: an instructor's run always draws its variants and runs its solutions.

What is kept is only what a pure function of its inputs gives: a variant's parameters (embedlab.grading.
variants, from the lesson, the secret and the variants before it), a solution run's answers
(embedlab.grading.assign.harvest, from the notebook and the limits), and, where a test asks for it
(GRADES_ENV), the rows of a submission every one of whose answers was judged (from the file's bytes, its
name and folders, the keys, the limits and the seed; a time-out, a crash or anything not judged is graded
again every time). Every key holds `code_digest()`:
any change to embedlab, the Python, an installed package, the numeric environment or the CPU is new work.
Only a success is kept; a file that cannot be read counts as not kept.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import sys
import threading
from pathlib import Path

CACHE_ENV = "EMBEDLAB_CLASS_CACHE"
# Grades too (embedlab.grading.grader.grade_submission), when this is also "1": only a test whose submissions are
# honest notebooks sets it, for its own runs (never the hostile ones: their point is the sandbox's run).
GRADES_ENV = "EMBEDLAB_KEEP_GRADES"
NUMERIC_ENV = ("NPY_", "OPENBLAS_", "MKL_", "OMP_")  # what changes which kernels numpy and BLAS run
PACKAGE = Path(__file__).resolve().parent.parent  # the embedlab package


def folder() -> Path | None:
    """The cache's folder for this code (`code_digest()`), made if needed; None when CACHE_ENV is unset
    or "0". Folders of other code are removed as a new one is made."""
    root = os.environ.get(CACHE_ENV, "")
    if root in ("", "0"):
        return None
    here = Path(root) / code_digest()[:20]
    if not here.is_dir():
        here.mkdir(parents=True, exist_ok=True)
        for old in here.parent.iterdir():
            if old.is_dir() and old != here:
                shutil.rmtree(old, ignore_errors=True)
    return here


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """sha256 of what kept work depends on besides its own inputs: every file of the embedlab package (its
    code, questions, answer keys and data), the Python and every installed distribution's version, the
    numeric environment (NUMERIC_ENV's variables) and the CPU's flags."""
    import importlib.metadata

    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0"
                          + hashlib.sha256(path.read_bytes()).digest())
    digest.update(sys.version.encode())
    digest.update("\n".join(sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()
                                   if d.metadata["Name"])).encode())
    digest.update(json.dumps(sorted((k, v) for k, v in os.environ.items() if k.startswith(NUMERIC_ENV))).encode())
    try:
        flags = next((line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("flags")), "")
    except OSError:
        flags = ""
    digest.update(flags.encode())
    return digest.hexdigest()


def path_for(kind: str, *inputs) -> Path | None:
    """Where the work of `kind` made from `inputs` (JSON-able) is kept, or None when nothing is kept."""
    here = folder()
    if here is None:
        return None
    name = hashlib.sha256(json.dumps([kind, *inputs]).encode()).hexdigest()
    return here / f"{kind}-{name}.json"


def read(path: Path | None):
    """What was kept at `path` (JSON), or None."""
    if path is None:
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def keep(path: Path | None, value) -> None:
    """Keep `value` at `path`, written whole then renamed (a reader never sees half of it)."""
    if path is None:
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    try:
        tmp.write_text(json.dumps(value), encoding="utf-8")
        os.replace(tmp, path)
    except (OSError, TypeError, ValueError):
        tmp.unlink(missing_ok=True)
