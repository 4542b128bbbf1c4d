"""How long each notebook takes in a real JupyterLab: open it (a new kernel), Run All, until idle.

    python benchmarks/lab_times.py                          # every lesson, solution and exercise
    python benchmarks/lab_times.py notebooks/07-memory.ipynb

What a learner waits for in the browser, measured the way tools/check_lab.py drives
JupyterLab (headless Chromium over the DevTools protocol); it prints the seconds per
notebook and the total, and fails (exit 1) on any notebook that shows an error. A
figure, not a test: tests/test_lab.py checks behaviour, never time.
"""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    spec = importlib.util.spec_from_file_location("check_lab", ROOT / "tools" / "check_lab.py")
    check_lab = importlib.util.module_from_spec(spec)
    sys.modules["check_lab"] = check_lab
    spec.loader.exec_module(check_lab)
    sys.exit(check_lab.main(sys.argv[1:]))
