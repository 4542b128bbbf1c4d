"""Text that comes from outside the grader (a file name, anything a submission prints or
reports), made safe to print on a terminal and to write in a CSV: the one escaping used
for all of it (embedlab.grading.cli writes labels and details with it, and
embedlab.grading.sandbox passes every text of a run through it).
"""

from __future__ import annotations

import os
import unicodedata

UNPRINTABLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")  # Unicode categories escaped in labels and details


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


def _escaped(ch: str) -> str:
    return f"\\x{ord(ch):02x}" if ord(ch) <= 0xFF else f"\\u{ord(ch):04x}"
