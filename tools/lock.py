"""Regenerate requirements.txt from requirements.in with pip-compile: every package pinned.

    make lock                      # what to run: installs pinned pip-tools into _build/lock-venv/ first
    make lock LOCK_ARGS=--upgrade  # also move every pin to the newest release that fits

requirements.in lists the direct dependencies (edit that file); requirements.txt
is the full set pip-compile resolves from it, one `==` per package with a
`# via` comment saying who needs it, so `pip install -r requirements.txt`
installs exactly the versions the tests ran with. Without --upgrade, pins that
still satisfy requirements.in are kept and only new or conflicting packages move.

Two things pip-compile does not do the way this repository needs, fixed here:
- it writes the editable install of the course library as an absolute path
  (`-e file:///home/you/embedding-lab`), which works on no other machine: it is
  replaced by `-e .`, the file's last line, as before;
- it would copy this machine's pip index settings (--extra-index-url,
  --find-links) into the file: --no-emit-index-url/--no-emit-find-links.
setuptools is pinned like any package (--allow-unsafe): jupyter-server and
sphinx-togglebutton need it at run time, and a venv on Python >= 3.12 ships none.
pip itself is left out: it is the installer, not something the course imports.

The pins are resolved for the Python that runs this (the header says which).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EDITABLE_LINE = "-e ."
EDITABLE_COMMENT = "# The course library embedlab from lib/, editable (its dependency numpy is pinned above)."


def pip_compile_args(extra: list[str]) -> list[str]:
    exe = Path(sys.executable).with_name("pip-compile")
    if not exe.exists():
        raise SystemExit(f"{exe} not found: run `make lock`, which installs pip-tools (tools/pip-tools.txt) first")
    return [str(exe), "--quiet", "--strip-extras", "--allow-unsafe", "--no-emit-index-url",
            "--no-emit-find-links", "--output-file", "requirements.txt", "requirements.in", *extra]


def fix_editable(text: str) -> str:
    """Drop pip-compile's absolute `-e file:///...` entry (and its `# via` lines) and end with `-e .`."""
    if not re.search(r"^-e file:\S+$", text, flags=re.MULTILINE) and not text.rstrip().endswith(EDITABLE_LINE):
        raise SystemExit("pip-compile wrote no editable install of embedlab: is `-e .` still in requirements.in?")
    text = re.sub(r"^-e file:\S+\n(?:[ \t]+#.*\n)*", "", text, flags=re.MULTILINE)
    text = re.sub(rf"\n*(?:{re.escape(EDITABLE_COMMENT)}\n)?{re.escape(EDITABLE_LINE)}\n*\Z", "\n", text)
    return text.rstrip("\n") + f"\n\n{EDITABLE_COMMENT}\n{EDITABLE_LINE}\n"


def check(text: str) -> None:
    """Every requirement line is `name==version` (the last is `-e .`): else fail loudly."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    loose = [line for line in lines[:-1] if not re.fullmatch(r"[A-Za-z0-9._-]+==\S+", line.split(" ;")[0].strip())]
    if loose or lines[-1] != EDITABLE_LINE:
        raise SystemExit(f"requirements.txt is not fully pinned: {loose or lines[-1:]}")


def main(argv=None) -> int:
    extra = list(sys.argv[1:] if argv is None else argv)
    env = {**os.environ, "CUSTOM_COMPILE_COMMAND": "make lock"}   # the command the file's header names
    subprocess.run(pip_compile_args(extra), cwd=ROOT, check=True, env=env)
    path = ROOT / "requirements.txt"
    text = fix_editable(path.read_text(encoding="utf-8"))
    check(text)
    path.write_text(text, encoding="utf-8")
    pins = sum(1 for line in text.splitlines() if "==" in line and not line.startswith("#"))
    print(f"requirements.txt: {pins} packages pinned, then {EDITABLE_LINE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
