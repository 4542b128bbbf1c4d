"""What every layer shares for text from outside and for the files the grader writes.

A leaf: it imports nothing of embedlab, so any module may import it.

* Text that comes from outside the grader (a file name, anything a submission prints or
  reports), made safe to print on a terminal and to write in a CSV: `display_name`,
  `printable`, `cut` (the one escaping used for all of it; the sandbox passes every text
  of a run through it).
* CSV cells no spreadsheet will run (`csv_cell`) and the course's CSV writer (`csv_writer`).
* Writing a file so that it replaces the old one only once complete (`atomic_output`).
* The grading machine's own folders (the course checkout, the Python environment, home, the run's
  input and output folders, the sandbox's binds) taken out of any text a learner will read
  (`redact_paths`, with `private_paths` registering a run's own).
"""

from __future__ import annotations

import contextlib
import csv
import os
import re
import sys
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


def display_width(text: str) -> int:
    """Columns `text` takes on a terminal: 2 for a wide or full-width character (East Asian W/F),
    0 for a combining mark, 1 otherwise (so a table's columns line up on any script)."""
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def pad(text: str, width: int) -> str:
    """`text` left-aligned in `width` terminal columns (display_width), never cut."""
    return text + " " * max(0, width - display_width(text))


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


# --------------------------------------------------------------------------
# The grading machine's paths: never in a text a learner reads

MACHINE_PATH = "[a folder of the grading machine]"
# Folders every Linux machine has (and the sandbox's own /tmp/work): naming them reveals nothing
GENERIC_DIRS = frozenset({"/", "/usr", "/usr/local", "/usr/lib", "/bin", "/sbin", "/lib", "/lib32", "/lib64",
                          "/etc", "/tmp", "/tmp/work", "/var", "/var/tmp", "/opt", "/home", "/proc", "/dev",
                          "/dev/shm", "/sys", "/run", "/mnt", "/srv", "/media"})
_PATH = re.compile(r"""/[^\s'"`\\:;,()\[\]{}<>|=*?]*""")  # a path-like run of text: it ends where a path would
_registered: set[str] = set()


def private_paths(*paths) -> None:
    """Add a run's own folders (its submissions, keys and outputs, the sandbox's binds) to those
    redact_paths takes out: each as given (absolute) and resolved."""
    for path in paths:
        if path:
            _registered.update({os.path.abspath(os.fsdecode(path)), os.path.realpath(os.fsdecode(path))})


def machine_paths() -> list[str]:
    """The folders redact_paths takes out, longest first: the course checkout this embedlab runs from,
    the Python environment and its base interpreter, home, the working folder, and those registered;
    never a folder every machine has (GENERIC_DIRS)."""
    course = Path(__file__).resolve().parents[3]  # lib/embedlab/grading/text.py -> the checkout
    try:
        here = os.getcwd()
    except OSError:  # the working folder was removed
        here = ""
    found = {str(course), os.path.expanduser("~"), os.environ.get("HOME", ""), here, sys.prefix,
             sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, os.path.dirname(sys.executable),
             *_registered}
    found = {os.path.abspath(p) for p in found if p} | {os.path.realpath(p) for p in found if p}
    return sorted((p.rstrip("/") for p in found if p.rstrip("/") and p.rstrip("/") not in GENERIC_DIRS),
                  key=len, reverse=True)


def redact_paths(text: str) -> str:
    """`text` with every path inside one of the grading machine's folders (machine_paths) replaced by
    MACHINE_PATH, whole: '/home/prof/course/.venv/bin/python' and 'file:///home/prof' alike, and a path
    cut short at the end of a text ('/home/pr', a prefix of a machine folder). What a learner's page
    shows from a submission passes through here (the grader applies it to every row's detail)."""
    if not text or "/" not in text:
        return text
    paths = machine_paths()

    def one(match: re.Match) -> str:
        token = "/" + match.group(0).lstrip("/")
        for path in paths:
            if token == path or token.startswith(path + "/"):
                return MACHINE_PATH
        if len(token) >= 4 and token not in GENERIC_DIRS and any(path.startswith(token) for path in paths) \
                and (match.end() == len(text) or not text[match.end()].isspace()):
            return MACHINE_PATH  # cut short by a length limit: the start of a machine folder
        return match.group(0)

    return _PATH.sub(one, text)


# --------------------------------------------------------------------------
# A hint's words, read before they are shown

import re  # noqa: E402 - the section's own

_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_.]*(?:![rsa])?(?::[^{}]*)?\}|%[sdr]\b|\bNone\b|<lambda>|object at 0x")
_EMPTY_SLOT = re.compile(r"(?<![\w.])\(\s*\)|\[\s*\]|\s[,;:.](?=\s|$)|[:;,]\s*[;,.]|\(\s*[:;,]|[:,;(]\s*$|^\s|\s$|\S {2,}\S|``")
_QUOTED = re.compile(r"`([^`\n]+)`")
_ITS_MESSAGE = re.compile(r"\(its message: .*\)$")
_RAISED = re.compile(r"\b(raised|raises) ([A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt)): (?!.*\(its message)"
                     r"(.+?)(?=: [a-z]|$)")
_DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.I)
# a determiner or preposition that needs a noun, followed by another determiner: "has no the table", "a the"
_TWO_DETERMINERS = re.compile(r"\b(?:a|an|the|no|each|every|of the|one)\s+(?:a|an|the|no)\b", re.I)
# "exactly X too many" / "a term of X numbers": X is a size, written as a symbol (d, V, d_ff, 2 · d) or a number
_SIZE_SLOT = re.compile(r"\bexactly ([^\s:;,]+(?: · [^\s:;,]+)?) (?:too many|short)\b|\ba term of ([^\s:;,]+(?: · [^\s:;,]+)?) "
                        r"numbers\b")
_USED_WHERE = re.compile(r"\byou used ([^\s:;,]+(?: · [^\s:;,]+)?) where ([^\s:;,]+(?: · [^\s:;,]+)?) belongs\b")
# units a quantity without units (a share, a cosine, a probability) cannot be in; a divergence may be in bits
# said of the answer itself ("in KiB", "where bytes are asked", "bits where bytes", "check the units"): a part
# that counts FLOPs or bytes inside a share is named so, and is no claim about the share's own unit
_CLAIM = r"(?:\b(?:in|where|as)\s+(?:units of \S+ \()?(?:{u})\b|\b(?:{u})\s+(?:where|is asked|are asked)\b)"
_UNIT_WORDS = {
    "memory": _CLAIM.format(u=r"bytes|KiB|MiB|GiB|kB|MB|GB|TB") + r"|\bcheck the units\b",
    "time": _CLAIM.format(u=r"seconds|hours|per hour|per second"),
    "compute": _CLAIM.format(u=r"FLOP/s|TFLOP/s"),
    "bits": _CLAIM.format(u=r"bits|nats"),
}
UNITLESS_ALLOWED = {"divergence": {"bits"}}  # an entropy or a divergence is in nats, or bits


def is_symbol(token: str) -> bool:
    """Is a size written as a symbol or a number (d, V, d_ff, h_kv, 2 · d, 768, n_new), not a word ("rows")?"""
    token = token.strip("`()")
    if re.fullmatch(r"[0-9][0-9_,.]*", token):
        return True
    if " · " in token:
        return all(is_symbol(t) for t in token.split(" · "))
    if re.fullmatch(r"[A-Za-z]\w*(?:\.\w+)+", token):  # an attribute read from code (tok.n_vocab)
        return True
    return bool(re.fullmatch(r"[A-Za-z]\w*", token)) and (
        len(token) <= 2 or "_" in token or any(c.isdigit() for c in token) or not token.islower())


def _size_like(token: str) -> bool:
    """A symbol that names a size (d, d_ff, h_kv, 2 · d, tok.n_vocab), not a part's name (RMSNorms, LayerNorm)."""
    bare = token.strip("`()")
    return is_symbol(bare) and (not re.search(r"[a-z]{3,}", bare) or bool(re.search(r"[_.\d]", bare)))


# A clause said twice in other words ("… (2 FLOPs per weight, a multiply and an add); a matmul costs 2 FLOPs per
# weight: one multiply and one add"): the hint's clauses are its "; "-separated segments; a later one whose content
# words (5 or more; code quoted is one word) are, 70 % or more, in an earlier one says nothing new. A segment that
# continues the sentence ("and …", "or …") is part of what the earlier one says, not a repeat.
_STOP_WORDS = frozenset("a an the and or of to in on at for by is are be it its this that these those your you one "
                        "per each as with from not no but if so than then into only all every any do does what which "
                        "where when how them they their has have".split())


def _content_words(segment: str) -> set:
    out = set(re.findall(r"`[^`]*`", segment))  # code quoted is one word (`num_hidden_layers`)
    for w in re.findall(r"[a-z0-9_]+", re.sub(r"`[^`]*`", " ", segment).lower()):
        if w in _STOP_WORDS or (len(w) < 2 and not w.isdigit()):  # a name (n_tok) is one word; a letter none
            continue
        out.add(w[:-1] if len(w) > 3 and w.endswith("s") else w)
    return out


def _repeats(later: str, earlier: str) -> bool:
    if re.match(r"\s*(and|or|either|but)\b", later):
        return False
    words = _content_words(later)
    return len(words) >= 5 and len(words & _content_words(earlier)) >= 0.7 * len(words)


def repeated_clause(text: str) -> str | None:
    """The first clause (a "; "-separated segment) that says again what an earlier one says, or None."""
    if not isinstance(text, str):
        return None
    segments = [x for x in text.split("; ") if x.strip()]
    for j in range(1, len(segments)):
        if any(_repeats(segments[j], segments[i]) for i in range(j)):
            return segments[j]
    return None


def _asides(text: str) -> list:
    """[(start, end, depth)] of each pair of parentheses in the words, code quoted in backticks left out (its own
    parentheses are the learner's); an unbalanced one ends the reading."""
    text = re.sub(r"`[^`\n]*`", lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", text)
    out, stack = [], []
    for i, ch in enumerate(text):
        if ch == "(":
            stack.append(i)
        elif ch == ")":
            if not stack:
                return out
            start = stack.pop()
            out.append((start, i + 1, len(stack)))
    return out


def _prose_aside(text: str, start: int, end: int) -> bool:
    """Is the pair at text[start:end] an aside in words ("(each of the L)"), not a formula's grouping ("n·(2m − 1)",
    "f(x)", "(q·k)")? An aside opens after a space and holds two words or more of letters."""
    if start > 0 and not text[start - 1].isspace():
        return False
    inner = re.sub(r"`[^`]*`", " ", text[start + 1:end - 1])
    return len(re.findall(r"[A-Za-z]{2,}", inner)) >= 2


def nested_aside(text: str) -> str | None:
    """An aside in parentheses written inside another aside ("(… every block (each of the L) attends)"), or None:
    one aside is read; an aside inside it makes the learner hold two asides at once, and says its clause twice as
    often as not. Formulas' own parentheses ("(2·d − 1)·V", "n·(2m − 1)") are no asides."""
    if not isinstance(text, str) or text.count("(") < 2:
        return None
    pairs = _asides(text)
    for start, end, depth in pairs:
        if depth == 0 or not _prose_aside(text, start, end):
            continue
        if any(s < start and end < e and _prose_aside(text, s, e) for s, e, _ in pairs):
            return text[start:end]
    return None


def repeated_aside(text: str) -> str | None:
    """The first aside in parentheses whose words say again what the words around it say (70 % of its content
    words there, as `repeated_clause` reads a clause), or None."""
    if not isinstance(text, str) or "(" not in text:
        return None
    for start, end, depth in _asides(text):
        if depth or not _prose_aside(text, start, end):
            continue
        inner, rest = text[start + 1:end - 1], text[:start] + " " + text[end:]
        if _repeats(inner, rest):
            return inner
    return None


def without_repeats(text: str) -> str:
    """The hint with each clause that repeats an earlier one left out (join_clauses after the fact)."""
    if not isinstance(text, str) or "; " not in text:
        return text
    kept = []
    for segment in text.split("; "):
        if segment.strip() and any(_repeats(segment, k) for k in kept):
            continue
        kept.append(segment)
    return "; ".join(kept)


def percents_apart(fractions, most: int = 6) -> list[str]:
    """Fractions written as percentages with the fewest decimals (none, up to `most`) at which they read as they
    compare: equal ones equal, a larger one larger. Words that compare them ("another uses more") can then be checked
    by the numbers they print: 99.2% beside 99.3%, never 99% beside 99%."""
    values = [float(f) for f in fractions]
    shown = []
    for places in range(most + 1):
        shown = [f"{v:.{places}%}" for v in values]
        read = [float(t[:-1]) for t in shown]
        if all((a < b) == (x < y) and (a == b) == (x == y)
               for i, (a, x) in enumerate(zip(values, read)) for b, y in zip(values[i + 1:], read[i + 1:])):
            return shown
    return shown


_OPEN, _CLOSE = "([{", ")]}"
_ERROR_NAME = re.compile(r"[A-Z]\w*(?:Error|Exception|Warning)$")


# The words that join an earlier answer's naming to this answer's own hint (embedlab.grading.earlier). Code
# reads the detail after them (carried.is_typed: "…too: typed, not computed"), so as_sentences keeps them whole
# and starts each side's clauses afresh.
OWN_TOO = ", and this answer's own lines too: "


def as_sentences(text: str) -> str:
    """Hint words whose clauses chain with colons ("A: B: C: D") read as sentences: in
    each sentence, and each item of a list (`;`), the first colon stays (a claim, then
    what it means) and the next one, outside code, brackets and quotes, starts a new
    sentence ("A: B. C: D"). An error's own colon (`IndexError: …`) is no clause's, nor
    OWN_TOO's, which joins two hints whose clauses are each read on their own."""
    if isinstance(text, str) and OWN_TOO in text:
        return OWN_TOO.join(as_sentences(part) for part in text.split(OWN_TOO))
    if not isinstance(text, str) or text.count(": ") < 2:
        return text
    out, depth, quoted, colons, i = [], 0, False, 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "`":
            quoted = not quoted
        elif not quoted and ch in _OPEN:
            depth += 1
        elif not quoted and ch in _CLOSE:
            depth = max(0, depth - 1)
        elif not quoted and not depth and (text.startswith("; ", i) or text.startswith(
                ". ", i) and text[i + 2:i + 3].isupper()):
            colons = 0  # a new sentence, or a list's item: its own first colon stays
        elif not quoted and not depth and text.startswith(": ", i) \
                and not _ERROR_NAME.search(text[:i].rsplit(" ", 1)[-1]):
            colons += 1
            # a list of alternatives ("either A: B; or C") read as one sentence: a full stop inside
            # an item would cut it from the items after it
            sentence = re.split(r"\. (?=[A-Z])", text[i + 2:], maxsplit=1)[0]
            if colons == 1 and re.search(r"; (?:or|and) ", sentence):
                colons = 0
            if colons == 2:
                rest = text[i + 2:]
                word = re.match(r"[a-z]+(?=[,;]| (?![-+*/=<>%@]))", rest)
                # a word: not a symbol (d, V), not a name quoted as code (`context`); "a" the article
                upper = word and (len(word.group()) > 1 or word.group() == "a") and not any(
                    re.search(rf"\b{word.group()}\b", q) for q in _QUOTED.findall(text))
                out.append(". " + rest[0].upper() if upper else ". ")
                colons, i = 0, i + (3 if upper else 2)  # a code quote after it: read
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def join_clauses(*clauses: str) -> str:
    """Clauses joined with "; ", each left out that says again what an earlier one says."""
    return without_repeats("; ".join(c for c in clauses if c))


_VALUE_WITH_UNIT = re.compile(r"(?<![\w.·×/^*])(-?\d[\d,_]*(?:\.\d+)?)\s*(FLOPs?|bytes?|parameters|params|GB|GiB|MB|MiB|KiB|"
                              r"rows|tokens|sequences)\b(?!\s*(?:per|each|a|an)\b)")


def states_answer(text: str, want) -> bool:
    """Do the words state the expected value itself, as a number with a unit ("0 FLOPs", "12 bytes")? A hint says
    what is off, never the answer. A number with "per …" after it is a rate of the reasoning (2 FLOPs per
    weight), not the answer."""
    if not isinstance(text, str):
        return False
    try:
        w = float(want)
    except (TypeError, ValueError):
        return False
    for found in _VALUE_WITH_UNIT.finditer(text):
        try:
            if float(found.group(1).replace(",", "").replace("_", "")) == w:
                return True
        except ValueError:
            continue
    return False


# Clauses that presume something of the question: each is said only of a
# question whose own description grants it (kinds.Question.described: its
# declared unit, its text's formula, the learner's own table)
PRESUMED = {
    "own table": re.compile(r"\byour table's own\b|\bfrom your table\b"),
    "formula": re.compile(r"\bthe question's formula\b"),
    "share": re.compile(r"\bwhat the part counts\b|\bwhat the whole is\b"),
    "keys and values": re.compile(r"\(keys and values\?\)|\bkeys and values\?"),
}
# "one number too many for each of the X": X counts items (rows, layers,
# tokens) or is a size's symbol, never a size word ("each of the width", "each
# of the batch"): one number per item presumes items
_EACH_OF = re.compile(r"\bfor each of the ([^:;,.()]+?)(?=\s*(?:[:;,.()]|$))")


# words that end in s and are one thing, not items counted: "one number
# for each of the bias" names no items
SINGULAR_S = re.compile(r"[a-z]*(?:ss|us|is|ias|as)")


def plural(word: str) -> bool:
    """Is `word` ("rows", "heads") a plural of items, not a singular that
    ends in s ("bias", "minus", "axis", "loss")?"""
    return bool(re.fullmatch(r"[a-z]+s", word)) and not (
        SINGULAR_S.fullmatch(word) and not word.endswith(("eas", "mas", "tas")))


def _items(words: str) -> bool:
    """Do `words` ("rows", "dropped rows", "L", "n_top words") name items
    counted, or a size's symbol?"""
    last = words.split()[-1] if words.split() else ""
    return is_symbol(last) or plural(last)


def hint_problems(text: str, unit: str = "", unitless: tuple = (),
                  grants=None) -> list[str]:
    """What is wrong with a hint's words as written: a placeholder left in, an empty slot, a doubled or
    a missing word, a size slot filled with a word where a symbol belongs ("exactly rows too many"), or a
    unit on a quantity without one (`unit` in `unitless`: bytes on a share).
    With `grants` (what the question's description supports:
    kinds.Question.described), a clause that presumes anything else
    (PRESUMED: the learner's own table, the question's formula, a share's part
    and whole). [] when none."""
    out = []
    if grants is not None and isinstance(text, str):
        for presumed, pattern in PRESUMED.items():
            found = pattern.search(text)
            if found and presumed not in grants:
                out.append(f"a clause that presumes {presumed}, which the "
                           f"question does not have: {found.group(0)!r}")
    if isinstance(text, str):
        for found in _EACH_OF.finditer(text):
            if not _items(found.group(1)):
                out.append(f"a size word where items belong: {found.group(0)!r}")
    if not isinstance(text, str) or not text.strip():
        return ["empty"]
    # the learner's own code quoted in backticks (`word_to_id = {w: i …}`, a comment, an import) is theirs, not
    # a template's: read as one word, but for a slot left whole in it (`{name}`) and an empty quote (``)
    for quoted in _QUOTED.findall(text):
        if _PLACEHOLDER.fullmatch(quoted.strip()):
            out.append(f"a placeholder left in: {quoted.strip()!r}")
    text = _QUOTED.sub(lambda m: m.group(0) if re.fullmatch(r"[\w.]+", m.group(1)) else "`code`", text)
    # an exception's own message ("raised ValueError: … shape=()", "(its message: …)") is the exception's text,
    # quoted as it was raised: read as one word too
    text = _ITS_MESSAGE.sub("(its message: `code`)", text)
    text = _RAISED.sub(lambda m: f"{m.group(1)} {m.group(2)}: `code`", text)
    found = _PLACEHOLDER.search(text)
    if found:
        out.append(f"a placeholder left in: {found.group(0)!r}")
    found = _EMPTY_SLOT.search(text)
    if found:
        out.append(f"an empty slot: {text[max(0, found.start() - 15):found.end() + 15]!r}")
    found = _DOUBLED.search(text)
    if found and not found.group(1).isdigit():
        out.append(f"a doubled word: {found.group(0)!r}")
    found = _TWO_DETERMINERS.search(text)
    if found:
        out.append(f"a missing word: {text[max(0, found.start() - 15):found.end() + 15]!r}")
    for found in _USED_WHERE.finditer(text):  # "you used d where RMSNorms belongs": a part's name in a size slot
        if not (_size_like(found.group(1)) and _size_like(found.group(2))):
            out.append(f"a word where a size belongs: {found.group(0)!r}")
    for found in _SIZE_SLOT.finditer(text):
        slot = found.group(1) or found.group(2)
        if not is_symbol(slot):
            out.append(f"a word where a size belongs: {found.group(0)!r}")
    out += _contradictions(text) + _repetitions(text)
    again = repeated_clause(text)
    if again:
        out.append(f"a clause said twice in other words: {again[:60]!r}")
    nested = nested_aside(text)
    if nested:
        out.append(f"an aside in parentheses inside another: {nested[:60]!r}")
    if unit in unitless:
        for family, pattern in _UNIT_WORDS.items():
            if family in UNITLESS_ALLOWED.get(unit, ()):
                continue
            found = re.search(pattern, text)
            if found:
                out.append(f"a unit ({found.group(0)}) on a {unit}, which has none")
    return out


# --------------------------------------------------------------------------
# Clauses of one hint that contradict each other or say the same thing twice. Two explanations of one number
# ("either A, or B"; "… The other: B") are read apart: each alternative is its own claim.

_ALTERNATIVES = re.compile(r"\. The other: |\beither |, or (?=that is |your |the |you )|; or ")
_NEVER_READS = re.compile(r"never reads (?:its arguments? )?((?:`\w+`(?:, | and )?)+)")
_BELONGS = re.compile(r"(?P<part>(?:[\w'·]+ ){1,4}[\w'·]+)(?: \([^()]*\))? belongs? to (?:the )?[\w' ]+?, "
                      r"not (?:to |in |of )?(?:the )?(?P<asked>[\w' -]+?)(?=[:;,.]|$)")


def _alternatives(text: str) -> list[str]:
    return [a for a in _ALTERNATIVES.split(text) if a.strip()]


def _contradictions(text: str) -> list[str]:
    """Two clauses that cannot both hold: an argument the function never reads then said to be read (the other
    way round); the value too big and too small; one part both counted twice and left out."""
    out = []
    for found in _NEVER_READS.finditer(text):
        for name in re.findall(r"`(\w+)`", found.group(1)):
            if re.search(rf"`{re.escape(name)}`[^.;:]*\bread\b", text[found.end():]):
                out.append(f"a contradiction: `{name}` is never read, then said to be read")
    for alt in _alternatives(text):
        if re.search(r"\btoo big\b", alt) and re.search(r"\btoo small\b", alt):
            out.append(f"a contradiction: too big and too small in {alt[:60]!r}")
        for found in re.finditer(r"((?:[\w']+ ){0,2}[\w']+) (?:is |are )?counted twice", alt):
            part = " ".join(found.group(1).split()[-2:])
            if re.search(rf"\b{re.escape(part)} (?:is |are )?(?:missing|left out)\b", alt):
                out.append(f"a contradiction: {part!r} counted twice and left out")
    return out


def _repetitions(text: str) -> list[str]:
    """One rule said twice in other words: a part said to belong elsewhere, then told to be left out by name, or
    the asked part then said to be asked "only"."""
    out = []
    for alt in _alternatives(text):
        for found in _BELONGS.finditer(alt):
            part = re.sub(r"^(?:the|a|an) ", "", found.group("part"))
            rest = alt[found.end():]
            if re.search(rf"\bleave (?:the |a |an )?{re.escape(part)} out\b", rest):
                out.append(f"a clause repeated: {found.group('part')!r} belongs elsewhere, then left out by name")
            if re.search(rf"\basks for (?:the )?{re.escape(found.group('asked'))} only\b", rest):
                out.append(f"a clause repeated: not {found.group('asked')!r}, then asked for it only")
    return out


COMPILE_ERRORS = ("SyntaxError", "IndentationError", "TabError")  # a cell that fails to parse: it never ran a line


def error_line(ename: str, evalue: str) -> str:
    """The last line of a cell's error as the check and the grader say it ("ValueError: …"). A cell that did not
    parse is named by its error and line only: "SyntaxError: invalid syntax (line 7)", without the file name the
    kernel gave the cell (a temporary name that differs between kernels)."""
    ename, evalue = str(ename), " ".join(str(evalue).split())
    if ename in COMPILE_ERRORS:
        evalue = re.sub(r"\s*\((?:[^()]*?,\s*)?line (\d+)\)\s*$", r" (line \1)", evalue)
    return f"{ename}: {evalue}" if evalue else ename


def did_not_parse(error: str) -> bool:
    """Is this error line (`error_line`) that of a cell that failed to compile?"""
    return isinstance(error, str) and error.split(":", 1)[0].strip() in COMPILE_ERRORS


def broken_definition(name: str) -> re.Pattern:
    """A line of a cell that did not parse which reads as the learner's try at defining `name`: the name first on
    the line (`attn_layer 2 * d`, `attn_layer = (2 * d`, `def f(x)`), not read through (`name.x`, `name[0]`,
    `name(…)`). A cell that fails to parse defines nothing, so its definition is found by its words."""
    n = re.escape(name)
    return re.compile(rf"^[ \t]*(?:def[ \t]+{n}\b|{n}\b(?![ \t]*[.(\[,)]))", re.M)


def fails_to_parse(cell: str) -> bool:
    """Does this cell fail to compile as IPython compiles it (its magics and shell lines turned into calls first,
    where IPython is installed; top-level await allowed)? Read only: nothing is run."""
    import ast

    def parses(source: str) -> bool:
        try:
            compile(source, "<cell>", "exec", flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
                    dont_inherit=True)
        except SyntaxError:  # IndentationError and TabError are SyntaxErrors
            return False
        except Exception:  # noqa: BLE001 - too deep, too large, a NUL: not a parse failure a learner made
            return True
        return True

    if not isinstance(cell, str) or parses(cell):
        return False
    try:  # only a cell plain Python refuses pays for IPython's import (the grader's worker starts light)
        from IPython.core.inputtransformer2 import TransformerManager

        source = TransformerManager().transform_cell(cell)
    except Exception:  # noqa: BLE001 - no IPython, or a cell it cannot transform: as plain Python said
        return True
    return not parses(source)


def compiled_from(cell, error: str) -> int | None:
    """The first line of the top-level statement that failed to compile, for a cell
    whose run failed with a SyntaxError (`did_not_parse(error)`) though it parses whole:
    `return` or `yield` outside a function, `break` outside a loop, `nonlocal` at module
    level. IPython compiles and runs a cell's top-level statements one by one, so those
    above that line ran (a `def` among them defined its function); 0 where it is the
    first statement (none ran). None where the cell does not parse (none ran either),
    where the error names no line, or where the cell is not known."""
    import ast

    found = re.search(r"\(line (\d+)\)\s*$", error) if isinstance(error, str) else None
    if not isinstance(cell, str) or not found or not error.startswith("SyntaxError"):
        return None
    source = cell
    try:  # magics and shell lines turned into calls first, as IPython does (lines kept)
        from IPython.core.inputtransformer2 import TransformerManager

        source = TransformerManager().transform_cell(cell)
    except Exception:  # noqa: BLE001 - no IPython: the cell as plain Python
        pass
    try:
        tree = compile(source, "<cell>", "exec", dont_inherit=True,
                       flags=ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    except Exception:  # noqa: BLE001 - the cell does not parse: nothing ran
        return None
    line = int(found.group(1))
    at = next((i for i, node in enumerate(tree.body)
               if node.lineno <= line <= (node.end_lineno or node.lineno)), None)
    return None if at is None else 0 if at == 0 else tree.body[at].lineno


def _ran(error: str, cell: str | None = None) -> str:
    if did_not_parse(error):
        at = compiled_from(cell, error)
        if at:  # parses, one statement does not compile: those above it ran
            return (f"was run and stopped at line {at}, a statement that does not "
                    f"compile ({error}); the statements above it ran, that one and "
                    "those below it did not")
        if at == 0:  # parses, but its first statement does not compile
            return f"was run and did not compile: {error} (so none of its lines ran)"
        if cell is None and error.startswith("SyntaxError"):  # which ran: not known
            return f"was run and did not parse: {error}"
        return f"was run and did not parse: {error} (so none of its lines ran)"
    return f"was run and raised {error} (the last line of its error)"


def raised_words(which: str, error: str, name: str, cell: str | None = None) -> str:
    """The words for an answer whose defining cell's latest run raised (or did not parse) while `name` still holds
    a value (left from an earlier run, or set before the error): not judged. The notebook's check and the grader
    say the same. `cell`: that cell's source, where known (`compiled_from`)."""
    return (f"{which} {_ran(error, cell)}: the value `{name}` holds now is not judged; "
            "fix that cell and run it again")


def missing_words(which: str, error: str, name: str, cell: str | None = None) -> str:
    """The words for an answer not defined because its defining cell's latest run raised (or did not parse). The
    notebook's check and the grader say the same. `cell`: as `raised_words`."""
    return (f"{which} {_ran(error, cell)}: `{name}` is not defined; fix that cell and "
            "run it again")
