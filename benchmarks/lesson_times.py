"""How long each notebook takes to run top to bottom, kernel start included.

    python benchmarks/lesson_times.py                 # lessons in notebooks/
    python benchmarks/lesson_times.py solutions exercises

Runs a copy of each notebook in a fresh kernel the way tools/run_notebooks.py
does (the stored notebooks are not touched) and prints the seconds per
notebook, then the total. A figure, not a test: compare it with the lesson's
budget of a few seconds on a 2-core laptop.
"""

import importlib.util
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent


def load_execute():
    """tools/run_notebooks.py's runner, loaded from its file (no sys.path edit)."""
    spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "tools" / "run_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["run_notebooks"] = module
    spec.loader.exec_module(module)
    return module.execute


execute = load_execute()


def main(folders):
    total = 0.0
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for folder in folders:
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            with tempfile.TemporaryDirectory() as tmp:
                copy = Path(tmp) / path.name
                shutil.copy(path, copy)
                nb = nbformat.read(copy, as_version=4)
                start = time.perf_counter()
                execute(nb, path.parent)
                seconds = time.perf_counter() - start
            total += seconds
            print(f"{seconds:6.1f} s  {folder}/{path.name}")
    print(f"{total:6.1f} s  in all")


if __name__ == "__main__":
    main(sys.argv[1:] or ["notebooks"])
