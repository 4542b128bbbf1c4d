"""Regenerate requirements.txt from requirements.in: every package pinned, for every supported target.

    make lock                      # what to run: installs pinned uv into _build/lock-venv/ first
    make lock LOCK_ARGS=--upgrade  # also move every pin to the newest release that fits

requirements.in lists the direct dependencies (edit that file); requirements.txt
is the full set resolved from it, one `==` per package with a `# via` comment saying
who needs it, so `pip install -r requirements.txt` installs exactly the versions the
tests ran with. Without --upgrade, pins that still satisfy requirements.in are kept
and only new or conflicting packages move.

One lock serves CPython 3.11 to 3.15 on Linux, macOS and Windows: `uv pip compile
--universal` resolves for all of them at once and writes an environment marker on
the few lines that differ (numpy 2.4 for 3.11-3.14, numpy 2.5 for 3.15; appnope only on
macOS). The file stays a plain requirements file: pip reads the markers, so learners
need no uv. Then tools/check_wheels.py proves every pin a target installs has a
wheel there (a pin that would be compiled from source fails `make lock`).

Two things the resolver does not do the way this repository needs, fixed here:
- it writes the editable install of the course library near the top (pip-compile as an
  absolute path, `-e file:///home/you/embedding-lab`, which works on no other machine):
  it becomes `-e .`, the file's last line, as before;
- index settings (--extra-index-url, --find-links) are never copied into the file.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EDITABLE_LINE = "-e ."
EDITABLE_COMMENT = "# The course library embedlab from lib/, editable (its dependency numpy is pinned above)."


OLDEST_PYTHON = "3.11"     # the lowest the lock serves; check_wheels.PYTHONS lists them all


def compile_args(extra: list[str]) -> list[str]:
    exe = Path(sys.executable).with_name("uv")
    if not exe.exists():
        raise SystemExit(f"{exe} not found: run `make lock`, which installs uv (tools/lock-tools.txt) first")
    return [str(exe), "pip", "compile", "--quiet", "--universal", "--python-version", OLDEST_PYTHON,
            "--custom-compile-command", "make lock", "--output-file", "requirements.txt", "requirements.in", *extra]


def fix_editable(text: str) -> str:
    """Drop the resolver's editable entry near the top (`-e .` or pip-compile's absolute `-e file:///...`,
    with its `# via` lines) and end the file with `-e .`."""
    if not re.search(r"^-e (?:file:\S+|\.)$", text, flags=re.MULTILINE):
        raise SystemExit("the resolver wrote no editable install of embedlab: is `-e .` still in requirements.in?")
    text = re.sub(r"^-e (?:file:\S+|\.)\n(?:[ \t]+#.*\n)+", "", text, flags=re.MULTILINE)
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
    subprocess.run(compile_args(extra), cwd=ROOT, check=True)
    path = ROOT / "requirements.txt"
    text = fix_editable(path.read_text(encoding="utf-8"))
    check(text)
    path.write_text(text, encoding="utf-8")
    pins = sum(1 for line in text.splitlines() if "==" in line and not line.startswith("#"))
    print(f"requirements.txt: {pins} pins, then {EDITABLE_LINE}; checking every target installs from wheels")
    return subprocess.run([sys.executable, str(ROOT / "tools" / "check_wheels.py")], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
