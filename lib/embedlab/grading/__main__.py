"""`python -m embedlab.grading ...` is embedlab-grade."""

import sys

from embedlab.grading.cli import run

sys.exit(run())
