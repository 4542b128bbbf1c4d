"""A pytest plugin for the course's test command (pyproject.toml's addopts: `-p embedlab._test_command`).

nbformat, which nbval and the course's tests import, imports jsonschema, and jsonschema imports
`rfc3987_syntax` when it is installed (jupyter-events asks for it): that module builds some forty
Earley parsers as it is imported, about 3 s of CPU in every process that imports nbformat, which is
every pytest process (and each xdist worker). It only serves jsonschema's "iri" and "iri-reference"
format checks, which nothing the tests run asks for (a notebook's schema has no such format). `-p`
loads this module before pytest's other plugins, so marking the module absent here makes jsonschema
leave those two checks out, as it does when the package is not installed. Nothing else changes.

It also compiles the library's own modules (lib/embedlab, installed editable) to bytecode in their
__pycache__ folders, as Python does on import unless PYTHONDONTWRITEBYTECODE is set (the machines the
course is tested on set it). The grader's sandboxed workers and kernels, and nbval's kernels, import
embedlab in fresh processes that may not write bytecode (the sandbox mounts the course read-only), so
without it each of them compiles the library from source again: about 0.3 s of CPU per graded
submission (lesson 01's solution graded six times: 12.6/11.3 -> 10.6/9.6 s, two runs each). A
module already compiled is only checked (its source's time and size, as import checks them);
__pycache__ is git-ignored, and the bytecode is what importing the source would build.
"""

import sys

sys.modules.setdefault("rfc3987_syntax", None)  # None: `import rfc3987_syntax` raises ImportError


def compile_library() -> bool:
    """Write the bytecode of every module of embedlab that lacks it or has a stale one (True: all
    compiled; False where the folder cannot be written, e.g. an installed copy: import then compiles)."""
    import compileall
    from pathlib import Path

    return bool(compileall.compile_dir(str(Path(__file__).resolve().parent), quiet=2))


compile_library()


KERNEL_STARTS = 3  # tries at starting a notebook's kernel (see pytest_configure)


def pytest_configure(config):
    """nbval starts a kernel for each notebook. jupyter_client picks the kernel's five ports free, closes
    them, and the kernel binds them a moment later: with three workers, the graders' kernels and
    JupyterLab starting processes beside it, another process can take a port in between, and the kernel
    dies before its first reply (seen once in a full run: a whole exercise notebook errored at setup,
    'Kernel died before replying to kernel_info'). Such a start is tried again, with new ports, up to
    KERNEL_STARTS times; a kernel that cannot start at all still fails the notebook."""
    try:
        import nbval.kernel as kernel
    except ImportError:  # nbval not installed: nothing to wrap
        return
    first = kernel.start_new_kernel
    if getattr(first, "retried", False):
        return

    def start_new_kernel(*args, **kwargs):
        for attempt in range(KERNEL_STARTS):
            try:
                return first(*args, **kwargs)
            except RuntimeError:
                if attempt == KERNEL_STARTS - 1:
                    raise

    start_new_kernel.retried = True
    kernel.start_new_kernel = start_new_kernel
