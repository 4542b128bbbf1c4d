"""One helper the benchmarks share: a module of the course loaded from its file.

A benchmark runs as a script (`python benchmarks/NAME.py`), so this folder is on its path and
`from from_file import load` works; the tools and the tests' helpers it times are loaded from
their files, with no edit of sys.path (tests/test_setup.py forbids one).
"""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load(name: str, relative: str):
    """The module `name` from ROOT/`relative` (e.g. "tools/run_notebooks.py"), registered under its name."""
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
