"""Kept so that `python -m embedlab.grade` and the `embedlab-grade` script (pyproject) keep
working: the grader is embedlab.grading.cli."""

import sys

from embedlab.grading.cli import main, run

__all__ = ["main", "run"]

if __name__ == "__main__":
    sys.exit(run())
