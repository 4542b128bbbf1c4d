"""How long each notebook takes in a real JupyterLab: open it (a new kernel), Run All, until idle.

    python benchmarks/lab_times.py                          # every lesson, solution and exercise
    python benchmarks/lab_times.py notebooks/07-memory.ipynb

What a learner waits for in the browser, measured the way tools/check_lab.py drives
JupyterLab (headless Chromium over the DevTools protocol); it prints the seconds per
notebook and the total, and fails (exit 1) on any notebook that shows an error. A
figure, not a test: tests/test_lab.py checks behaviour, never time.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    from from_file import load

    sys.exit(load("check_lab", "tools/check_lab.py").main(sys.argv[1:]))
