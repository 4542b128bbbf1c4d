"""What every layer shares for text from outside and for the files the grader writes.

A leaf: it imports nothing of embedlab, so any module may import it.

* Text that comes from outside the grader (a file name, anything a submission prints or
  reports), made safe to print on a terminal and to write in a CSV: `display_name`,
  `printable`, `cut` (the one escaping used for all of it; the sandbox passes every text
  of a run through it).
* CSV cells no spreadsheet will run (`csv_cell`) and the course's CSV writer (`csv_writer`).
* Writing a file so that it replaces the old one only once complete (`atomic_output`).
"""

from __future__ import annotations

import contextlib
import csv
import os
import tempfile
import unicodedata
from pathlib import Path

UNPRINTABLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")  # Unicode categories escaped in labels and details
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet reads a cell starting so as a formula
# Where a spreadsheet may start a new cell inside a text: a `;` (Excel and LibreOffice in a `;` locale
# split a `,` file's lines on it, quoted fields or not, once a line's first field has closed its quotes),
# a tab, a line break. Before a formula starter there, and at the text's start, csv_cell puts a `'`.
CELL_BREAKS = ";\t\r\n"


# --------------------------------------------------------------------------
# Text from outside: printed and written safely


def display_name(path) -> str:
    """A path as text that prints and writes safely: bytes that are not UTF-8 become \\xNN,
    control and format characters \\xNN or \\uNNNN, and a backslash \\\\ (so two names
    never share one label)."""
    text = os.fsencode(path).decode("utf-8", "surrogateescape")
    out = []
    for ch in text:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch == "\\":
            out.append("\\\\")
        elif unicodedata.category(ch) in UNPRINTABLE:
            out.append(_escaped(ch))
        else:
            out.append(ch)
    return "".join(out)


def printable(text: str) -> str:
    """Text with every control or format character (newlines too) escaped (the same escapes
    as display_name); printable text comes back unchanged, so escaping twice is harmless."""
    return "".join(_escaped(ch) if unicodedata.category(ch) in UNPRINTABLE else ch for ch in text)


def cut(value, limit: int = 300) -> str:
    """Text from a submission, cut to `limit` characters, every control character escaped."""
    return printable(str(value)[:limit])


def _escaped(ch: str) -> str:
    return f"\\x{ord(ch):02x}" if ord(ch) <= 0xFF else f"\\u{ord(ch):04x}"


# --------------------------------------------------------------------------
# CSV cells


def _formula_start(ch: str) -> bool:
    """Whether `ch` starts a formula: = + - @ and every character whose compatibility form (NFKC)
    starts with one (fullwidth ＝ ＋ － ＠, small ﹦ ﹢ ﹣ ﹫, ⩵ and ⩶, which fold to == and ===),
    which a spreadsheet may fold to them."""
    return ch in FORMULA_START or unicodedata.normalize("NFKC", ch)[:1] in FORMULA_START[:4]


def csv_cell(text: str) -> str:
    """A text cell no spreadsheet will run, in a `,` or a `;` locale: a `'` goes before every formula
    starter (= + - @, their fullwidth forms) that begins the text or a piece a spreadsheet may split it
    into (after a `;`, tab or line break), spaces and quotes in between ignored; a text starting with a
    tab or CR gets one too. The writers quote every field (csv_writer), so a `,` never splits one."""
    out, at_start = [], True
    for ch in text:
        if at_start and _formula_start(ch):
            out.append("'")
            at_start = False
        elif ch in CELL_BREAKS:
            at_start = True
        elif not (ch.isspace() or ch == '"'):
            at_start = False
        out.append(ch)
    return "".join(out)


def csv_writer(f):
    """The course's CSV writer: every field quoted (csv.QUOTE_ALL), `,` between them, so that a `,` in
    a text never splits it; each text cell goes through csv_cell, which guards the `;` locales."""
    return csv.writer(f, quoting=csv.QUOTE_ALL)


# --------------------------------------------------------------------------
# Files the grader writes


def inside(folder, *names: str, what: str = "a name") -> Path:
    """`folder / names[0] / names[1] …`, each name one plain path component, checked to stay inside
    `folder` (links on the way followed): every path a tool derives from a file's content (a bundle's
    lessons, a roster's learner ids) goes through here. ValueError naming `what` and the value of a
    name that is empty, `.` or `..`, holds a separator or a NUL, or leads outside."""
    folder = Path(folder)
    path = folder
    for name in names:
        text = str(name)
        if (not text or text in (".", "..") or any(ch in text for ch in "/\\\0")
                or Path(text).is_absolute() or Path(text).drive):
            raise ValueError(f"{what} {text!r} cannot name a file inside {display_name(folder)}: "
                             "not one plain file or folder name")
        path = path / text
    top = os.path.realpath(folder)
    if os.path.commonpath([top, os.path.realpath(path)]) != top:
        raise ValueError(f"{what} {'/'.join(map(str, names))!r} leads outside {display_name(folder)} "
                         "(a link on the way): not written")
    return path


def open_output(out: Path, flag: str = "--out"):
    """A temporary file next to `out`, to be renamed over it: raises ValueError (naming the
    command-line `flag` that gave `out`) if `out` cannot be written."""
    if out.is_dir():
        raise ValueError(f"{flag} is a folder: {display_name(out)}")
    folder = out.parent if str(out.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise ValueError(f"cannot write {flag} {display_name(out)} ({type(exc).__name__}: {exc.strerror})") from None
    return fd, tmp


@contextlib.contextmanager
def atomic_output(out: Path, mode: str = "w", flag: str = "--out", **open_args):
    """An open file that replaces `out` only once it is complete: written to a temporary
    file in the same folder, synced, then renamed over `out` (a link at `out` is replaced,
    never written through). On any error or interrupt the temporary file is removed."""
    fd, tmp = open_output(out, flag)
    try:
        with open(fd, mode, **open_args) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
