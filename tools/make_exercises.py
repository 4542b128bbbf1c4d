"""Generate exercises/ and the answer keys from solutions/ (the generator is embedlab.grading.generate).

    python tools/make_exercises.py                  # every solutions/*.ipynb   (or: make exercises)
    python tools/make_exercises.py 01-toy-table     # some lessons (NN-slug or a path)

Run as a script, this folder is on Python's path, so run_notebooks (the runner that
re-executes and normalizes notebooks, as `make notebooks` does) imports directly.
"""

import sys
from pathlib import Path

import run_notebooks

from embedlab.grading.generate import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:], runner=run_notebooks, root=Path(__file__).resolve().parent.parent))
