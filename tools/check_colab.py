"""Every lesson opened alone as Colab opens it: its first cell installs the course, every cell runs.

    python tools/check_colab.py                  # CI runs it (.ci/run), after tools/check_wheel.py
    python tools/check_colab.py 06 07            # some lessons (by number)

A Colab reader opens one notebook from the book's launch button, with none of the course beside it,
in Colab's own Python and packages. This does that here:

1. A fresh venv on Colab's Python (COLAB_PYTHON, else this one, said) with Colab's own numpy,
   matplotlib, ipywidgets, ipykernel and IPython (COLAB, read from Colab's published package list,
   googlecolab/backend-info's pip-freeze.txt), not requirements.txt's pins; no embedlab.
2. Each lesson copied alone into a temporary folder and run there top to bottom in that venv's
   kernel, with `google.colab` imported at the kernel's start (an IPython startup file) so the
   course cell takes its Colab path: it pip installs the release's wheel from the
   course's own repository. Here its course cell is the one tools/import_guard.py writes
   once _config.yml names the repository (an example address while it names none), with
   the wheel that tools/check_wheel.py built (_build/dist/) in place of the release's
   URL, which exists only once the release is out. embedlab is uninstalled before each
   lesson, so every lesson installs it itself.
3. Every cell must run without an error. The text outputs (streams, text/plain, HTML) that differ
   from the stored ones are listed, cell by cell, with what differs; book/how-to-use.md says which
   differ on Colab and why. Images are not compared (matplotlib's versions draw other pixels).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
DIST = ROOT / "_build" / "dist"
EXAMPLE_URL = "https://github.com/example/embedding-lab"  # while _config.yml names none
# Colab's runtime as published on 2026-08-19 (googlecolab/backend-info, pip-freeze.txt and
# os-info.txt at a72407924822ea377410b69f0a290150bcb5c9c2): Python 3.13, and these.
COLAB_PYTHON = "3.13"
COLAB = ["numpy==2.1.3", "matplotlib==3.10.0", "ipywidgets==7.7.1", "ipykernel==6.17.1", "ipython==7.34.0",
         "nbformat==5.11.1", "tiktoken==0.14.0"]
RUNNER = ["nbclient"]           # runs the notebooks (Colab has its own front end)
TEXT = ("text/plain", "text/html")
HOST_CA = "/etc/ssl/certs/ca-certificates.crt"

RUN_ONE = r'''
import json, sys, time
import nbformat
from nbclient import NotebookClient
path, out = sys.argv[1], sys.argv[2]
nb = nbformat.read(path, as_version=4)
start = time.perf_counter()
error = None
try:
    NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=False,
                   resources={"metadata": {"path": str(__import__("pathlib").Path(path).parent)}}).execute()
except Exception as exc:  # the first cell that failed: its error
    error = f"{type(exc).__name__}: {str(exc)[-1500:]}"
nbformat.write(nb, out)
print(json.dumps({"error": error, "seconds": round(time.perf_counter() - start, 1)}))
'''


def import_guard():
    """tools/import_guard.py, the module beside this file (loaded from it: no edit of
    sys.path, so tests can load this tool alone)."""
    import importlib.util

    module = sys.modules.get("import_guard")
    if module is None:
        path = Path(__file__).with_name("import_guard.py")
        spec = importlib.util.spec_from_file_location("import_guard", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["import_guard"] = module
        spec.loader.exec_module(module)
    return module


def colab_python() -> tuple[str, bool]:
    """An interpreter of Colab's Python version if this machine has one, else this one (False)."""
    for candidate in (shutil.which(f"python{COLAB_PYTHON}"),
                      str(Path.home() / ".pyenv" / "versions" / f"{COLAB_PYTHON}.0" / "bin" / f"python{COLAB_PYTHON}")):
        if candidate and Path(candidate).exists():
            done = subprocess.run([candidate, "-c", "import sys, venv; print(sys.version_info[:2])"],
                                  capture_output=True, text=True)
            if done.returncode == 0:
                return candidate, True
    return sys.executable, False


def texts(cell) -> list[str]:
    """A code cell's text outputs, as the reader sees them."""
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            text = "".join(o.get("text", ""))
            if out and isinstance(out[-1], tuple) and out[-1][0] == o.get("name"):
                out[-1] = (o.get("name"), out[-1][1] + text)   # one stream, however the kernel split it
            else:
                out.append((o.get("name"), text))
        elif o.get("output_type") in ("execute_result", "display_data"):
            data = o.get("data", {})
            if "application/vnd.jupyter.widget-view+json" in data:
                out.append("<a widget>")
            else:
                out += ["".join(data[k]) for k in TEXT if k in data][:1]
        elif o.get("output_type") == "error":
            out.append(f"{o.get('ename')}: {o.get('evalue')}")
    return [item[1] if isinstance(item, tuple) else item for item in out]


def differences(stored: dict, ran: dict) -> list[str]:
    """Cells whose text outputs differ: '<cell index>: the first differing lines'."""
    a = [c for c in stored["cells"] if c["cell_type"] == "code"]
    b = [c for c in ran["cells"] if c["cell_type"] == "code"]
    out = []
    for index, (x, y) in enumerate(zip(a, b)):
        if "nbval-ignore-output" in x.get("metadata", {}).get("tags", []):
            continue            # timings: they differ on any two runs (make test does not compare them)
        tx, ty = texts(x), texts(y)
        if tx != ty:
            diff = [line for line in difflib.unified_diff("\n".join(tx).splitlines(), "\n".join(ty).splitlines(),
                                                           lineterm="", n=0) if line[:1] in "+-"
                    and not line.startswith(("+++", "---"))]
            out.append(f"code cell {index}: " + " | ".join(repr(line) for line in diff[:4]))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lessons", nargs="*", help="lesson numbers (default: all)")
    args = parser.parse_args(argv)
    wheels = sorted(DIST.glob("embedlab-*.whl"))
    if not wheels:
        raise SystemExit("no wheel in _build/dist: run python tools/check_wheel.py --build-only first")
    lessons = sorted(p for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb")
                     if not args.lessons or p.name[:2] in args.lessons)
    python, colab = colab_python()
    start = time.perf_counter()
    failures, report = [], {}
    with tempfile.TemporaryDirectory(prefix="check-colab-") as scratch_dir:
        scratch = Path(scratch_dir)
        venv = scratch / "venv"
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        py = str(venv / "bin" / "python")
        subprocess.run([py, "-m", "pip", "install", "--quiet", *COLAB, *RUNNER], check=True)
        versions = subprocess.run([py, "-c", "import sys, numpy, matplotlib, ipywidgets; "
                                   "print(sys.version.split()[0], numpy.__version__, matplotlib.__version__, "
                                   "ipywidgets.__version__)"], capture_output=True, text=True, check=True).stdout
        print(f"Colab-like venv: Python, numpy, matplotlib, ipywidgets = {versions.strip()}"
              + ("" if colab else f" (this machine has no Python {COLAB_PYTHON})"), flush=True)
        ipython_dir = scratch / "ipython"
        startup = ipython_dir / "profile_default" / "startup"
        startup.mkdir(parents=True)
        # Colab's kernel has google.colab imported: the course cell looks for it in sys.modules
        (startup / "00-colab.py").write_text("import sys, types\nsys.modules['google'] = types.ModuleType('google')\n"
                                             "sys.modules['google.colab'] = types.ModuleType('google.colab')\n",
                                             encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}   # Colab draws inline
        env.update({"IPYTHONDIR": str(ipython_dir), "PIP_FIND_LINKS": str(DIST), "PIP_DISABLE_PIP_VERSION_CHECK": "1",
                    # pip as Colab's: none of this machine's pip settings (its local indexes), only its
                    # trusted certificates where it has them (a proxy's own CA)
                    "PIP_CONFIG_FILE": os.devnull,
                    **({"PIP_CERT": HOST_CA} if Path(HOST_CA).exists() else {})})
        for lesson in lessons:
            subprocess.run([py, "-m", "pip", "uninstall", "--quiet", "--yes", "embedlab"], capture_output=True)
            alone = scratch / lesson.stem
            alone.mkdir()
            copy = nbformat.read(lesson, as_version=4)  # its course cell: our wheel
            guard = import_guard()
            guard.setup_cell(copy).source = guard.guard(
                guard.repository_url() or EXAMPLE_URL, wheel=str(wheels[-1]))
            nbformat.write(copy, alone / lesson.name)
            done = subprocess.run([py, "-c", RUN_ONE, str(alone / lesson.name), str(alone / "ran.ipynb")],
                                  env=env, cwd=alone, capture_output=True, text=True)
            result = json.loads(done.stdout.strip().splitlines()[-1]) if done.returncode == 0 and done.stdout.strip() \
                else {"error": done.stderr[-1500:], "seconds": None}
            installed = subprocess.run([py, "-m", "pip", "show", "embedlab"], capture_output=True,
                                       text=True).returncode == 0
            differ = differences(json.loads(lesson.read_text(encoding="utf-8")),
                                 json.loads((alone / "ran.ipynb").read_text(encoding="utf-8"))) \
                if (alone / "ran.ipynb").exists() else []
            report[lesson.stem] = {**result, "installed": installed, "differ": differ}
            state = "every cell ran" if not result["error"] and installed else "FAILED"
            if state == "FAILED":
                failures.append(f"{lesson.stem}: {result['error'] or 'embedlab was not installed by its first cell'}")
            print(f"[{lesson.stem}] {state} in {result['seconds']} s (embedlab installed by its first cell: "
                  f"{installed}); {len(differ)} cells' text differs", flush=True)
            for line in differ:
                print("    " + line[:300], flush=True)
    print(f"check_colab: {len(lessons) - len(failures)} of {len(lessons)} lessons ran every cell in "
          f"{time.perf_counter() - start:.0f} s", flush=True)
    for failure in failures:
        print("FAILED", failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
