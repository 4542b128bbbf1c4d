"""How long each notebook takes to run top to bottom, kernel start included.

    python benchmarks/lesson_times.py                 # lessons in notebooks/
    python benchmarks/lesson_times.py solutions exercises
    python benchmarks/lesson_times.py --write      # lessons, and save book/lesson_times.json

Runs a copy of each notebook in a fresh kernel the way tools/run_notebooks.py
does (the stored notebooks are not touched) and prints the seconds per
notebook, then the total. A figure, not a test: compare it with the lesson's
budget of a few seconds on a 2-core laptop.
"""

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from from_file import load

ROOT = Path(__file__).resolve().parent.parent


execute = load("run_notebooks", "tools/run_notebooks.py").execute  # its runner, loaded from its file


def main(folders, write=None):
    total = 0.0
    measured = {}
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
            measured[f"{folder}/{path.stem}"] = round(seconds, 1)
            print(f"{seconds:6.1f} s  {folder}/{path.name}")
    print(f"{total:6.1f} s  in all")
    if write:
        # The landing page's "running" column (tools/book_theme.py): kernel start included,
        # measured on this machine; the load average says how busy it was.
        Path(write).write_text(json.dumps({"load_average": round(os.getloadavg()[0], 1),
                                           "cores": os.cpu_count(), "seconds": measured}, indent=1) + "\n")
        print(f"wrote {write}")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--write"]
    main(args or ["notebooks"], write=ROOT / "book" / "lesson_times.json" if "--write" in sys.argv else None)
