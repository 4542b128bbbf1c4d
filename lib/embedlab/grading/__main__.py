"""`python -m embedlab.grading ...` is embedlab-grade."""

import sys

from embedlab.grading.cli import main

sys.exit(main())
