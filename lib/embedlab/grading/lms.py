"""Class mode with an LMS: rosters, the names of downloaded submissions, and gradebooks to import.

An instructor who collects notebooks through Canvas or Moodle gets them back
in that LMS's "download all" archive, named by the LMS, and wants the scores
back in the LMS's gradebook. This module holds the three pieces that connect
embedlab-grade to that round trip; each is a pure function of its inputs (no
grading here):

    read_roster(path) -> Roster         the class list: learner ids and each learner's LMS ids
    submitter_id(relative_path, layout) the LMS id a downloaded file's name gives, or None
    readings(relative_path, layout)     every way that name can be read (more than one: credited to no one)
    write_gradebook(path, roster, ...)  one row per learner, a column per lesson, for the LMS import
    canvas_reupload_ids(name)           the ids Canvas's "Re-upload submissions" reads from a feedback file
    moodle_feedback_id(path)            the participant Moodle's "Upload multiple feedback files" reads

Rosters
-------
A CSV with a ``learner`` column (the id embedlab-assign gives handouts by) and
optional ``canvas_id``, ``moodle_id``, ``email``, ``sid`` and ``name``
columns. Other columns are ignored. UTF-8 with or without a BOM (Excel's "CSV
UTF-8" writes one); separated by ``,`` or by ``;`` (what spreadsheets save
under European locales, where ``,`` is the decimal mark); the separator is
read from the header line (an Excel ``sep=;`` first line is honoured).
Column names are read without case, and spaces or hyphens in them count as
``_`` ("Canvas ID" is ``canvas_id``). Learner ids follow embedlab-assign's
rule (variants.SAFE_LEARNER; they name folders). A repeated column, an
empty or repeated id, or a row with more cells than the header (an unquoted
comma in a name) is refused with a ValueError naming it: a roster that
silently credited the wrong learner would be worse than none.

Moodle's id in a download is a *per-assignment* participant id (below), so a
roster may carry one ``moodle_id:NN-slug`` column per lesson (each Moodle
assignment's ids) besides, or instead of, a plain ``moodle_id``.

One roster serves a whole term, sections on different LMSs included: a learner's
LMS ids (``canvas_id``, ``moodle_id``, ``moodle_id:NN-slug``) may be empty where
they belong to another LMS's section, and an optional ``section`` column names
each learner's section (`Roster.sections`, embedlab-grade ``--section``). What is
refused, naming the line and the column: a learner with no LMS id at all in a
roster that has LMS id columns (no download could find their file), and, with a
``section`` column, an empty section or a learner whose LMS ids are not those of
the rest of their section (one section is one LMS course: a missing id there is
a slip, not another LMS).

Download layouts (`LAYOUTS`)
----------------------------
``folders``: a folder per learner, named as their learner id (embedlab's own
layout, and an export by student): the id is the path's first folder.

``canvas``: the flat folder of Canvas's "Download Submissions". Canvas names
each uploaded file, in ``ContentZipper#add_submission`` / ``#get_filename`` /
``#add_upload_submission`` (lib/content_zipper.rb of instructure/canvas-lms,
https://github.com/instructure/canvas-lms/blob/master/lib/content_zipper.rb)::

    <name>[_LATE]_<user id>_<attachment id>_<display name>

- ``<name>`` is the learner's sortable name ("Lovelace, Ada"), lower-cased,
  with every ``_<digits>_`` run collapsed to its digits (``sanitize_user_name``:
  "necessary because we use /_\\d+_/ to infer the user/attachment ids"), then
  every character that is not a word character removed (``sanitize_file_name``:
  ``gsub(/[^[[:word:]]]/, "")``): so ``lovelaceada``, ``müllerjörg``,
  ``o_brienann`` (an underscore survives), ``smith2john`` (digits survive).
- ``LATE`` is added for a late submission (upper case today; accepted in any
  case, as older downloads wrote it lower case).
- ``<user id>`` is Canvas's user id: the ``ID`` column of a Canvas gradebook
  export, the roster's ``canvas_id``.
- ``<display name>`` is the file's name in Canvas with ``/ \\ : * ? " < > |``
  replaced by ``_`` (``sanitize_attachment_filename``). A learner who uploads
  a file whose name they already used gets it renamed ``name-1.ipynb``,
  ``name-2.ipynb``, ... (``Attachment.make_unique_filename`` in
  app/models/attachment.rb: ``"#{basename}-#{addition}#{extname}"``), and the
  zip itself renames a repeated entry the same way.
- With anonymous grading the name is left out and the id is
  ``anon_<anonymous id>`` (``get_filename``): no Canvas user id, so such a file
  gives None (and so does a learner whose whole sortable name is "Anon": the
  two cannot be told apart, and None is reported, never misattributed).

  Neither side is unambiguous. The display name is the learner's own and can
  hold anything, ``_123_456_`` included; and so can the name side: Canvas
  collapses ``_<digits>_`` runs of the raw name *before* it removes the
  characters that are not word characters, so "Smith, Cy_101" gives
  ``smithcy_101`` and "Cy_101 _5" gives ``cy_101_5`` (issue 34: a learner whose
  name ends in ``_101``, a classmate's Canvas id, uploads a file Canvas names
  ``smithcy_101_90103_9903_01-toy-table.ipynb``, which reads as the classmate's
  upload too). So every ``_<digits>_<digits>_`` run (after an optional
  ``_late``) with only word characters before it is one reading (`readings`);
  a name with more than one reading is credited to no one (`parse_download`
  gives None, and embedlab-grade sets the file aside as ``unknown_submitter``,
  naming each reading). Names of learners without digits in their name and
  files without ``_<digits>_<digits>_`` in theirs, the usual case, read one way.

``moodle``: Moodle's assignment "Download all submissions". Moodle names the
prefix in ``downloader::get_student_prefix`` (mod/assign/classes/downloader.php
of https://github.com/moodle/moodle, Moodle 4.1+; in
``assign::download_submissions`` of mod/assign/locallib.php before): ``clean_filename(str_replace('_', ' ', fullname) . '_' .
get_uniqueid_for_user(userid))``, then, per file-submission plugin::

    with "Download submissions in folders" (the default since Moodle 3.1):
        <Full Name>_<participant id>_assignsubmission_file/<path in submission>/<file name>   (4.1+)
        <Full Name>_<participant id>_assignsubmission_file_/<path in submission>/<file name>  (3.1 to 4.0)
    without folders:
        <Full Name>_<participant id>_assignsubmission_file_<file name>

- Underscores in the full name are replaced by spaces *before* the id is added,
  so the name holds none: names with spaces, accents, digits or apostrophes
  ("Zoë O'Neil 2", which clean_filename turns into "Zoë ONeil 2") are the part
  before the first ``_<digits>_assignsubmission_file``. The file's own name,
  after it, can hold anything. So of a file name's readings (each
  ``_<digits>_assignsubmission_file_`` run is one), only one whose name part
  holds no ``_`` can be Moodle's: the leftmost. A name from a patched Moodle
  that keeps underscores gives readings that all hold one: each is then a
  reading, and a name with more than one is credited to no one, as for Canvas.
  (In folders, the outermost folder that follows the naming is Moodle's; what
  is inside it is the learner's.)
- With blind marking the full name is the word "Participant" (translated in
  other languages) and the id is the same participant id.
- The participant id is *not* the Moodle user id: it is the row id of
  ``assign_user_mapping``, keyed by assignment and user
  (``get_uniqueid_for_user``): one per learner *per assignment*. The assignment's "Download grading worksheet" lists it
  ("Participant 1234567") with the learner's email. Hence ``moodle_id:NN-slug``.
- Team submissions are named by group (``<group name>_<group id>_...``): the
  id is a group's, and matches no learner.

Any other name gives None (the caller reports it; the file is never guessed at), and so
does a name with more than one reading (`readings` lists them).

Files back to Moodle (`moodle_feedback_name`, `moodle_upload_reading`)
----------------------------------------------------------------------
Moodle's assignment takes files back per learner in one zip: "Upload multiple
feedback files in a zip" (assignfeedback_file, mod/assign/feedback/file/importziplib.php,
``assignfeedback_file_zip_importer::is_valid_filename_for_import``). For each file
of the zip (a name starting with ``.`` or ``~`` is skipped), each part of its path
in turn is split on ``_`` into at most five pieces, ``explode('_', $part, 5)``:
a part with fewer than four is skipped; piece 2 must be a number, the
participant id of one of the assignment's participants (`moodle_id`, or
``moodle_id:NN-slug``: above); pieces 3 and 4 a plugin's type and name
(``assignsubmission_file`` as in a download, or ``assignfeedback_file``); piece 5
and the rest of the path are the file's name as the learner will see it. So the
name part must hold no ``_`` (it is ignored otherwise), and embedlab writes

    <Full Name>_<participant id>_assignfeedback_file_<file name>

at the zip's root. ``assignfeedback_file``: Moodle compares the file with the
learner's feedback file of the same name and skips it when unchanged, so a zip
uploaded again (after a late learner joined) changes, and notifies, only the
learners whose file is new.

Gradebooks (`GRADEBOOK_FORMATS`)
--------------------------------
``canvas``: the CSV Canvas's Grades > Import reads (``GradebookImporter`` in
lib/gradebook_importer.rb of canvas-lms): a header ``Student, ID, SIS User ID, SIS
Login ID, Section`` (the first cell must contain "Student", the second "ID",
the last identifying one "Section"), then one column per assignment, matched
to an existing assignment by title (or "Title (id)"), else created; a second
row starting "Points Possible" gives each column's points. A learner is found
by ``ID`` (canvas_id), else ``SIS User ID`` (sid), else name. The total is
written as ``Final Points``, a column Canvas reads as read-only and skips on
import (``NON_ASSIGNMENT_COLUMN_HEADERS``), so it never becomes an assignment.

``moodle``: for Moodle's Grades > Import > CSV file (gradeimport_csv,
grade/import/csv/classes/load_data.php): any header; on import the instructor
maps one identifying column ("Map from") to a user field ("Map to": email
address, ID number, ...) and each other column to a grade item or to Ignore.
Written: ``Full name``, ``Email address`` (from ``email``) and/or ``ID number``
(from ``sid``), one column per lesson, ``Total`` (to be mapped to Ignore). A
lesson not graded is ``-``, which Moodle reads as "no grade" (an empty cell
is read so for an existing grade item too, but as a grade for a new one).

``plain``: ``learner``, one column per lesson, ``total``.

Points are written as embedlab writes them (status.format_points); a lesson
not graded is left empty (``-`` for Moodle), never 0; the total sums the
lessons graded. With a course policy's weights (embedlab.grading.policy), one
more column after the total holds the weighted total in percent: ``Final
Score`` for Canvas (read-only on import, as ``Final Points``), ``Weighted
total (%)`` for Moodle (mapped to Ignore), ``weighted_total`` in the plain form. Every field is quoted and every text cell goes through text.csv_cell
(no spreadsheet formulas, in a `,` or a `;` locale: text.csv_writer), and the file is
written atomically (text.atomic_output). Canvas's and Moodle's importers read quoted
fields as any CSV reader does.
"""

from __future__ import annotations

import csv
import io
import math
import numbers
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from embedlab.grading.keys import KEYS_DIR
from embedlab.grading.lessons import known_lessons
from embedlab.grading.status import format_points
from embedlab.grading.text import atomic_output, csv_cell, csv_writer
from embedlab.grading.variants import SAFE_LEARNER

LAYOUTS = ("folders", "canvas", "moodle")
GRADEBOOK_FORMATS = ("plain", "canvas", "moodle")

LEARNER = "learner"
ROSTER_COLUMNS = ("learner", "canvas_id", "moodle_id", "email", "sid", "name", "section")
ID_COLUMNS = ("learner", "canvas_id", "moodle_id", "email", "sid")  # repeated: refused; empty: refused but LMS ids
SECTION = "section"  # optional: which section (an LMS course of the term) a learner belongs to
LAYOUT_COLUMN = {"folders": "learner", "canvas": "canvas_id", "moodle": "moodle_id"}
PER_LESSON = "moodle_id:"  # a column moodle_id:NN-slug: that lesson's Moodle assignment's participant ids
RESERVED_LEARNERS = {KEYS_DIR.casefold()}  # as embedlab-assign: a learner's folder sits next to the keys'
SEPARATORS = (",", ";")

CANVAS_IDENTITY = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
CANVAS_POINTS_ROW = "Points Possible"
CANVAS_TOTAL = "Final Points"  # read-only for Canvas's import: never made an assignment
MOODLE_NAME, MOODLE_EMAIL, MOODLE_IDNUMBER, MOODLE_TOTAL = "Full name", "Email address", "ID number", "Total"
MOODLE_NO_GRADE = "-"
PLAIN_TOTAL = "total"
# The weighted total (a policy's weights), in percent: Canvas reads "Final Score" as read-only and skips
# it on import (NON_ASSIGNMENT_COLUMN_HEADERS); map Moodle's to Ignore, as its Total.
WEIGHTED = {"canvas": "Final Score", "moodle": "Weighted total (%)", "plain": "weighted_total"}

_DIGITS = re.compile(r"[0-9]+")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+")
# Canvas: <name>[_late]_<user id>_<attachment id>_<display name>; every such run is a reading
_CANVAS_IDS = re.compile(r"(?P<late>_late)?_(?P<user>[0-9]+)_(?P<attachment>[0-9]+)_(?P<original>.+)",
                         re.IGNORECASE | re.DOTALL)  # after the name part (any length: `readings`)
_CANVAS_ANONYMOUS = re.compile(r"(?:late_)?anon_[A-Za-z0-9]+_[0-9]+_", re.IGNORECASE)
_WORD = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Pc"}  # Ruby's [[:word:]]
# Moodle: <Full Name>_<participant id>_assignsubmission_file, a folder (with or without a trailing _)
# or a prefix of the file's own name
_MOODLE_FOLDER = re.compile(r"(?P<name>.*?)_(?P<id>[0-9]+)_assignsubmission_file_?", re.DOTALL)
_MOODLE_IDS = re.compile(r"_(?P<id>[0-9]+)_assignsubmission_file_(?P<original>.+)", re.DOTALL)  # after the name


# --------------------------------------------------------------------------
# Rosters


@dataclass(frozen=True)
class Roster:
    """A class list: the learners in the roster's order and, per learner, the value of each column.

    `columns` names the roster's known columns in the file's order (ROSTER_COLUMNS and any
    ``moodle_id:NN-slug``): which LMS ids the roster can match.
    """

    path: str
    learners: tuple[str, ...]
    columns: tuple[str, ...]
    rows: dict = field(repr=False)  # learner -> {column: value}
    _index: dict = field(repr=False)  # (column, normalised id) -> learner

    def has(self, column: str) -> bool:
        return column in self.columns

    def sections(self) -> list[str]:
        """The sections the `section` column names, in the roster's order ([] without the column)."""
        return list(dict.fromkeys(self.rows[n].get(SECTION, "") for n in self.learners)) if self.has(SECTION) else []

    def in_section(self, names) -> list[str]:
        """The learners of the sections `names` (compared without case), in the roster's order;
        ValueError naming the roster and its sections for a roster without a `section` column or a
        section it does not have."""
        if not self.has(SECTION):
            raise ValueError(f"--section needs a 'section' column in the roster {self.path!r} "
                             f"(its columns: {', '.join(self.columns)})")
        known = {x.casefold(): x for x in self.sections()}
        for name in names:
            if str(name).strip().casefold() not in known:
                raise ValueError(f"the roster {self.path!r} has no section {name!r} (its sections: "
                                 f"{', '.join(known.values())})")
        wanted = {str(n).strip().casefold() for n in names}
        return [n for n in self.learners if self.rows[n].get(SECTION, "").casefold() in wanted]

    def with_ids(self, layout: str, lesson: str | None = None) -> list[str]:
        """The learners who have an id in `layout`'s column (for Moodle, `lesson`'s own column when
        there is one, else any Moodle column), in the roster's order: those an LMS's download can hold."""
        if layout == "folders":
            return list(self.learners)
        if layout == "moodle" and (lesson is None or not self.has(PER_LESSON + lesson)):
            columns = [c for c in self.columns if c == "moodle_id" or c.startswith(PER_LESSON)]
        else:
            columns = [self.id_column(layout, lesson)]
        return [n for n in self.learners if any(self.rows[n].get(c, "") for c in columns)]

    def only(self, learners) -> "Roster":
        """This roster with only `learners` (in its own order): a run's gradebook holds the learners
        of the sections it graded."""
        keep = set(learners)
        order = tuple(n for n in self.learners if n in keep)
        return Roster(self.path, order, self.columns, {n: self.rows[n] for n in order},
                      {k: v for k, v in self._index.items() if v in keep})

    def value(self, learner: str, column: str) -> str:
        """The learner's cell in `column` ('' when the roster has no such column)."""
        if learner not in self.rows:
            raise ValueError(f"learner {learner!r} is not on the roster {self.path!r}")
        return self.rows[learner].get(column, "")

    def id_column(self, layout: str, lesson: str | None = None) -> str:
        """The roster column that holds `layout`'s ids (for Moodle, `lesson`'s own column when there
        is one); ValueError naming the layout and the missing column if the roster has none."""
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
        column = LAYOUT_COLUMN[layout]
        if layout == "moodle" and lesson is not None and self.has(PER_LESSON + lesson):
            return PER_LESSON + lesson
        if self.has(column):
            return column
        if layout == "moodle" and any(c.startswith(PER_LESSON) for c in self.columns):
            which = f"no {PER_LESSON}{lesson} column" if lesson else "no lesson given"
            raise ValueError(f"the roster {self.path!r} has Moodle ids per lesson "
                             f"({', '.join(c for c in self.columns if c.startswith(PER_LESSON))}) but "
                             f"{which}, and no moodle_id column")
        raise ValueError(f"layout {layout!r} needs a {column!r} column in the roster {self.path!r} "
                         f"(its columns: {', '.join(self.columns)})")

    def require(self, layout: str) -> None:
        """ValueError, naming the layout and the column, unless the roster has ids for `layout`
        (for Moodle, a moodle_id column or at least one moodle_id:NN-slug): checked before grading."""
        if layout == "moodle" and any(c.startswith(PER_LESSON) for c in self.columns):
            return
        self.id_column(layout)

    def by_lms_id(self, layout: str, lms_id: str, lesson: str | None = None) -> str | None:
        """The learner whose `layout` id is `lms_id`, or None if no learner has it.

        folders: the learner id itself (case ignored, as folders are named); canvas: canvas_id;
        moodle: moodle_id, or moodle_id:<lesson> when the roster has that column (Moodle's
        participant ids differ from one assignment to the next). ValueError if the roster
        has no column for the layout.
        """
        column = self.id_column(layout, lesson)
        return self._index.get((column, _key(column, str(lms_id))))

    def moodle_matches(self, lms_id: str) -> list[tuple[str | None, str]]:
        """(lesson, learner) for every Moodle column holding `lms_id`: a moodle_id:NN-slug column gives
        its lesson, the plain moodle_id column None. A Moodle participant id is one row of Moodle's
        assign_user_mapping, one per learner per assignment, so an id found in one lesson's column
        says both who handed the file in and to which lesson's assignment, whatever the file is called."""
        out = []
        for column in self.columns:
            if column == "moodle_id" or column.startswith(PER_LESSON):
                learner = self._index.get((column, _key(column, str(lms_id))))
                if learner is not None:
                    out.append((column[len(PER_LESSON):] if column.startswith(PER_LESSON) else None, learner))
        return out


def _key(column: str, value: str) -> str:
    """How ids of a column are compared: learner ids and emails without case, the others exactly."""
    value = value.strip()
    return value.casefold() if column in (LEARNER, "email") else value


def _column_name(cell: str) -> str:
    """A header cell as a column name: case ignored, spaces and hyphens as '_' ('Canvas ID' -> 'canvas_id')."""
    name = re.sub(r"[\s\-]+", "_", cell.strip().casefold())
    if name.startswith(PER_LESSON):
        return PER_LESSON + cell.strip().split(":", 1)[1].strip()  # the lesson as written
    return name


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read the roster {str(path)!r} ({type(exc).__name__}: {exc.strerror})") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ValueError(f"the roster {str(path)!r} is UTF-16 (a spreadsheet's \"Unicode text\"): save it as "
                         "\"CSV UTF-8\" instead")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"the roster {str(path)!r} is not UTF-8 (byte {exc.start}): save it as \"CSV UTF-8\" "
                         "(Excel: File > Save As > CSV UTF-8; LibreOffice: character set Unicode (UTF-8))") from None


def _separator(text: str, where: str) -> tuple[str, str, int]:
    """(separator, the text from the header on, the header's line number - 1): the separator is
    ',' or ';', whichever splits the header into a 'learner' column (an Excel 'sep=;' line
    before the header names it)."""
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise ValueError(f"the roster {where} is empty")
    line = lines[first].strip()
    sep = None
    if line.lower().startswith("sep=") and len(line) == 5:
        if line[4] not in SEPARATORS:
            raise ValueError(f"the roster {where} asks for separator {line[4]!r} (sep=): use ',' or ';'")
        sep, first = line[4], first + 1
    rest = "\n".join(lines[first:])
    seen = {}
    for candidate in ([sep] if sep else SEPARATORS):
        cells = next(csv.reader([lines[first] if first < len(lines) else ""], delimiter=candidate), [])
        seen[candidate] = [cell.strip() for cell in cells]
        if LEARNER in (_column_name(cell) for cell in cells):
            return candidate, rest, first
    read = "; ".join(f"read with {s!r}: {cells}" for s, cells in seen.items())
    raise ValueError(f"the roster {where} has no 'learner' column (its header {read})")


def read_roster(path, layout: str | None = None) -> Roster:
    """The roster CSV at `path` (see the module docstring); ValueError naming the row, column and
    value of anything wrong. With `layout`, also refuse a roster without that layout's id column."""
    path = Path(path)
    where = repr(str(path))
    sep, text, header_at = _separator(_read_text(path), where)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    try:
        header = next(reader, [])
    except csv.Error as exc:
        raise ValueError(f"the roster {where}: its header is not CSV ({exc})") from None
    names = [_column_name(cell) for cell in header]
    known: dict[str, int] = {}
    for i, name in enumerate(names):
        if not name:
            continue  # an unnamed column (a spreadsheet's trailing separators)
        if name in known:
            raise ValueError(f"the roster {where} has column {header[i].strip()!r} twice "
                             f"(columns {known[name] + 1} and {i + 1}; names are read without case)")
        known[name] = i
    for name in known:
        if name.startswith(PER_LESSON):
            _check_lesson_column(name, where)
    columns = tuple(name for name in names if name in ROSTER_COLUMNS or name.startswith(PER_LESSON))

    learners, rows, index, seen_at = [], {}, {}, {}
    first_of_section: dict = {}  # section -> (line, the LMS id columns its first learner has)
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise ValueError(f"the roster {where}, line {reader.line_num + header_at}: not CSV ({exc})") from None
        line = reader.line_num + header_at
        if not any(cell.strip() for cell in row):
            continue  # a blank line
        if any(cell.strip() for cell in row[len(header):]):
            raise ValueError(f"the roster {where}, line {line}, has {len(row)} cells but the header {len(header)} "
                             f"(a {sep!r} inside a name must be in double quotes)")
        values = {name: (row[i].strip() if i < len(row) else "") for name, i in known.items() if name in columns}
        learner = values[LEARNER]
        for column in columns:
            value = values[column]
            if column not in ID_COLUMNS and not column.startswith(PER_LESSON):
                if column == SECTION and not value:
                    raise ValueError(f"the roster {where}, line {line}: empty section for learner {learner!r} "
                                     "(every learner of a roster with a section column belongs to one)")
                continue  # a name or a section: free text, may repeat
            if not value and _lms_column(column):
                continue  # an id of another LMS's section: checked below, per learner and per section
            if not value:
                raise ValueError(f"the roster {where}, line {line}: empty {column}"
                                 + (f" for learner {learner!r}" if learner and column != LEARNER else ""))
            _check_id(column, value, where, line)
            key = (column, _key(column, value))
            if key in seen_at:
                raise ValueError(f"the roster {where}, line {line}: {column} {value!r} repeats line {seen_at[key]}"
                                 + (" (compared without case)" if column in (LEARNER, "email") else ""))
            seen_at[key] = line
            index[key] = learner
        _check_lms_ids(values, columns, where, line, first_of_section)
        learners.append(learner)
        rows[learner] = values
    if not learners:
        raise ValueError(f"the roster {where} lists no learner")
    roster = Roster(str(path), tuple(learners), columns, rows, index)
    if layout is not None:
        roster.require(layout)
    return roster


def _lms_column(column: str) -> bool:
    """An LMS's id column (canvas_id, moodle_id, moodle_id:NN-slug): empty for a learner of another LMS."""
    return column in ("canvas_id", "moodle_id") or column.startswith(PER_LESSON)


def _check_lms_ids(values: dict, columns, where: str, line: int, first_of_section: dict) -> None:
    """A learner's LMS ids: at least one where the roster has LMS id columns, and with a section
    column the same columns filled as for the first learner of their section; ValueError naming
    the line and the column otherwise."""
    lms = [c for c in columns if _lms_column(c)]
    if not lms:
        return
    learner, have = values[LEARNER], tuple(c for c in lms if values[c])
    if not have:
        raise ValueError(f"the roster {where}, line {line}: empty {' and '.join(lms)} for learner {learner!r}: no "
                         "id of any LMS, so no download can find their file; give the id of their LMS")
    if SECTION not in values:
        return
    section = values[SECTION]
    if section.casefold() not in first_of_section:
        first_of_section[section.casefold()] = (line, have)
        return
    first, theirs = first_of_section[section.casefold()]
    if have != theirs:
        column = next(c for c in lms if (c in have) != (c in theirs))
        state = "empty" if column not in have else "given"
        raise ValueError(f"the roster {where}, line {line}: {column} is {state} for learner {learner!r} of section "
                         f"{section!r}, unlike the section's first learner (line {first}): one section is one LMS "
                         "course, whose learners all have its ids")


def _check_id(column: str, value: str, where: str, line: int) -> None:
    if column == LEARNER:
        if not SAFE_LEARNER.match(value) or value.casefold() in RESERVED_LEARNERS:
            raise ValueError(f"the roster {where}, line {line}: learner {value!r} is not a safe learner id "
                             "(letters, digits and . _ @ + -, starting with a letter or digit, at most 64; "
                             f"not {KEYS_DIR!r}), as embedlab-assign requires: learner ids name folders")
    elif column == "canvas_id" or column.startswith("moodle_id"):
        if not _DIGITS.fullmatch(value):
            raise ValueError(f"the roster {where}, line {line}: {column} {value!r} is not a number "
                             "(the LMS's ids are digits; a spreadsheet may have shown a long one as 1.2E+13: "
                             "format that column as text)")
    elif column == "email" and not _EMAIL.fullmatch(value):
        raise ValueError(f"the roster {where}, line {line}: email {value!r} is not an email address")


def _check_lesson_column(name: str, where: str) -> None:
    lesson = name[len(PER_LESSON):]
    if lesson not in known_lessons():
        raise ValueError(f"the roster {where} has column {name!r}, but there is no lesson {lesson!r} "
                         f"(known: {', '.join(known_lessons())})")


# --------------------------------------------------------------------------
# Download layouts


@dataclass(frozen=True)
class Download:
    """What a downloaded file's name says: the submitter's LMS id, the file's name as the learner
    uploaded it (as the LMS kept it), and whether the LMS marked it late (Canvas only)."""

    lms_id: str
    original: str
    late: bool = False
    order: int | None = field(default=None, compare=False)  # Canvas's attachment id: a later upload has a larger one


def readings(relative_path, layout: str) -> list[Download]:
    """Every way `relative_path` (a file's path inside the downloaded folder) can be read under
    `layout`, leftmost first: [] when its name does not follow that layout, more than one when it
    can be read as more than one learner's upload (see the module docstring for each LMS's naming)."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(LAYOUTS)}, got {layout!r}")
    parts = [unicodedata.normalize("NFC", p) for p in PurePath(relative_path).parts if p not in ("", ".")]
    if not parts or any(p == ".." for p in parts) or PurePath(relative_path).is_absolute():
        return []
    if layout == "folders":
        return [Download(parts[0], "/".join(parts[1:]))] if len(parts) >= 2 else []
    if layout == "canvas":
        return _canvas(parts[-1])
    return _moodle(parts)


def parse_download(relative_path, layout: str) -> Download | None:
    """What `relative_path` (a file's path inside the downloaded folder) says under `layout`: its one
    reading (`readings`), or None when its name does not follow that layout or can be read more than
    one way (never a guess at whose it is). See the module docstring for each LMS's naming."""
    found = readings(relative_path, layout)
    return found[0] if len(found) == 1 else None


def submitter_id(relative_path, layout: str) -> str | None:
    """The LMS id `relative_path`'s name gives under `layout` (the learner's folder for
    ``folders``, the Canvas user id for ``canvas``, the Moodle participant id for ``moodle``),
    or None when the name does not follow the layout."""
    found = parse_download(relative_path, layout)
    return None if found is None else found.lms_id


def _canvas(name: str) -> list[Download]:
    if _CANVAS_ANONYMOUS.match(name):
        return []  # anonymous grading: no user id in the name
    found = []
    for i in range(len(name)):
        match = _CANVAS_IDS.fullmatch(name, i)
        # Canvas keeps only word characters in the name part; anything else is not Canvas's naming.
        if match is None or not all(ch == "_" or unicodedata.category(ch) in _WORD for ch in name[:i]):
            continue
        reading = Download(match["user"], match["original"], match["late"] is not None, int(match["attachment"]))
        if not any((r.lms_id, r.order, r.original) == (reading.lms_id, reading.order, reading.original)
                   for r in found):  # `x_late_1_2_y`: late, or a name ending in _late: one upload
            found.append(reading)
    return found


def _moodle(parts: list[str]) -> list[Download]:
    # The folder Moodle made is the outermost one that follows its naming (a learner's own
    # subfolders are inside it); without folders, the prefix is on the file's own name.
    for i, part in enumerate(parts[:-1]):
        match = _MOODLE_FOLDER.fullmatch(part)
        if match:
            return [Download(match["id"], "/".join(parts[i + 1:]))]
    name = parts[-1]
    found = [(name[:i], match) for i in range(len(name)) if (match := _MOODLE_IDS.fullmatch(name, i))]
    moodles = [(head, match) for head, match in found if "_" not in head]  # Moodle's names hold no _
    return [Download(match["id"], match["original"]) for _, match in (moodles or found)]


# --------------------------------------------------------------------------
# Files back to the LMS: the names each LMS's bulk upload reads (feedback, handouts, solutions)

MOODLE_FEEDBACK_PLUGIN = "assignfeedback_file"
MOODLE_PLUGINS = ("assignsubmission_file", "assignfeedback_file")  # the file plugins a name may give
MOODLE_NO_NAME = "Participant"  # what Moodle itself writes for a name under blind marking


def moodle_name_part(full_name: str) -> str:
    """A learner's name as the first part of a Moodle upload name: NFC, with every `_`, `/`, `\\` and
    control or format character a space (Moodle splits on `_`), runs of spaces one, no leading `.`
    or `~` (Moodle skips such files); "Participant" when nothing is left."""
    text = unicodedata.normalize("NFC", str(full_name))
    text = "".join(" " if ch in "_/\\" or unicodedata.category(ch)[0] in "CZ" else ch for ch in text)
    return " ".join(text.split()).lstrip(".~ ").strip() or MOODLE_NO_NAME


def moodle_feedback_name(full_name: str, participant_id: str, filename: str) -> str:
    """The zip entry that Moodle's "Upload multiple feedback files in a zip" gives, as a feedback
    file called `filename`, to the participant `participant_id` (see the module docstring).
    ValueError naming the value for an id that is not digits or a file name Moodle would not keep
    as given (empty, a path, starting with `.` or `~`)."""
    participant_id = str(participant_id).strip()
    if not _DIGITS.fullmatch(participant_id):
        raise ValueError(f"participant_id must be Moodle's participant id (digits), got {participant_id!r}")
    if not filename or any(ch in filename for ch in "/\\") or filename.startswith((".", "~")):
        raise ValueError(f"filename must be a plain file name (no folder, not starting with . or ~), "
                         f"got {filename!r}")
    return f"{moodle_name_part(full_name)}_{participant_id}_{MOODLE_FEEDBACK_PLUGIN}_{filename}"


def moodle_upload_reading(path: str, participants=None, plugins=MOODLE_PLUGINS) -> tuple[str, str, str] | None:
    """(participant id, plugin, file name) that Moodle's feedback-zip import reads from a zip entry's
    `path`, or None when it would skip the entry: a port of
    ``assignfeedback_file_zip_importer::is_valid_filename_for_import`` (module docstring).
    `participants` (ids as text, compared as numbers, as Moodle does) and `plugins` stand for the
    assignment's participants and installed plugins: a part naming neither is passed over, as there."""
    base = path.rsplit("/", 1)[-1]
    if not base or base.startswith((".", "~")):
        return None
    wanted = None if participants is None else {int(p) for p in participants}
    parts = path.split("/")
    while parts:
        info = parts.pop(0).split("_", 4)
        if len(info) < 4 or not _DIGITS.fullmatch(info[1]):
            continue
        if wanted is not None and int(info[1]) not in wanted:
            continue
        plugin = f"{info[2]}_{info[3]}"
        if plugin not in plugins:
            continue
        return info[1], plugin, "/".join([info[4] if len(info) == 5 else "", *parts])
    return None


def canvas_reupload_ids(file_name: str) -> tuple[str, str] | None:
    """(user id, attachment id) that Canvas's "Re-upload submissions" reads from a file of the zip,
    or None when it ignores the file. Canvas (``Assignment#infer_comment_context_from_filename`` in
    app/models/assignment.rb of canvas-lms) takes the file's base name, splits it on ``_`` and keeps
    the first two pieces that are all digits: the user id, then the attachment id; a name starting
    ``._`` or whose last piece starts ``link`` gives no attachment. The file becomes a comment on
    that user's submission only if the attachment is one of its files: so a feedback file keeps the
    download's ``<name>[_LATE]_<user id>_<attachment id>_`` prefix, and a learner who handed in
    nothing cannot get one."""
    base = PurePath(str(file_name).replace("\\", "/")).name
    pieces = base.split("_")
    ids = [p for p in pieces if re.fullmatch(r"[0-9]+", p)][:2]
    if len(ids) < 2 or base.startswith("._") or pieces[-1].startswith("link"):
        return None
    return ids[0], ids[1]


def moodle_feedback_id(path: str) -> str | None:
    """The participant id (as a number's text: no leading zeros) that Moodle's "Upload multiple
    feedback files in a zip" reads from a file's path in the zip, or None when it skips the file:
    `moodle_upload_reading`, the port of Moodle's importer, for any participant. So
    ``Full Name_<participant id>_assignsubmission_file/<file>`` (the download's own folder, Moodle
    4.1+), ``..._file_/<file>`` (3.1 to 4.0), ``..._file_<file>`` (no folders) and
    ``..._assignfeedback_file_<file>`` all reach that participant, with or without a submission."""
    reading = moodle_upload_reading(path)
    return None if reading is None else str(int(reading[0]))


# --------------------------------------------------------------------------
# Gradebooks


def write_gradebook(path, roster: Roster, per_learner_lesson_points: dict, lessons: list[str],
                    max_points: dict, fmt: str, *, titles: dict | None = None, weighted: dict | None = None) -> None:
    """Write the gradebook CSV for `fmt` (GRADEBOOK_FORMATS; see the module docstring) atomically.

    One row per roster learner, in the roster's order; one column per lesson of `lessons`
    (titled by `titles[lesson]` when given, e.g. the LMS assignment's name, else the lesson);
    a total. `per_learner_lesson_points[(learner, lesson)]` is the points, or None when the
    lesson was not graded for that learner (a missing key means the same): its cell is left
    empty (Moodle: '-'), never 0. ValueError, naming it, for a learner off the roster, a lesson
    not in `lessons`, points outside 0..max_points, or a roster without the ids the LMS matches on.
    With `weighted` ({learner: percent}, the policy's weighted total), one more column after the
    total holds it (WEIGHTED: Canvas's read-only "Final Score", never imported as an assignment).
    """
    if fmt not in GRADEBOOK_FORMATS:
        raise ValueError(f"gradebook format must be one of {', '.join(GRADEBOOK_FORMATS)}, got {fmt!r}")
    lessons = list(lessons)
    _check_points(roster, per_learner_lesson_points, lessons, max_points)
    heads = [str((titles or {}).get(lesson, lesson)) for lesson in lessons]
    header, preamble, ids = _gradebook_header(fmt, roster, heads, lessons, max_points)
    if weighted is not None:
        header.append(WEIGHTED[fmt])
        for row in preamble:
            row.append("(read only)")
    empty = MOODLE_NO_GRADE if fmt == "moodle" else ""
    rows = []
    for learner in roster.learners:
        got = [per_learner_lesson_points.get((learner, lesson)) for lesson in lessons]
        graded = [p for p in got if p is not None]
        cells = [empty if p is None else format_points(p) for p in got]
        total = format_points(sum(graded)) if graded else empty
        name = roster.value(learner, "name") or learner
        if fmt == "canvas" and not (roster.value(learner, "canvas_id") or roster.value(learner, "sid")):
            raise ValueError(f"learner {learner!r} has no canvas_id or sid in the roster {roster.path!r}: Canvas's "
                             "import could not find them (a learner of another LMS's section? grade each section in "
                             "a run of its own: --section, or --layout canvas)")
        if fmt == "canvas":
            who = [name, roster.value(learner, "canvas_id"), roster.value(learner, "sid"), "", ""]
        elif fmt == "moodle":
            who = [name, *(roster.value(learner, column) for _, column in ids)]
        else:
            who = [learner]
        rows.append([*who, *cells, total])
        if weighted is not None:
            share = weighted.get(learner)
            rows[-1].append(empty if share is None else format_points(share))

    n_text = len(header) - len(lessons) - 1 - (weighted is not None)  # the identifying columns, before the points
    with atomic_output(Path(path), "w", flag="--gradebook", newline="", encoding="utf-8") as f:
        writer = csv_writer(f)
        writer.writerow([csv_cell(h) for h in header])
        for row in preamble:
            writer.writerow([csv_cell(row[0]), *row[1:]])
        for row in rows:
            writer.writerow([*(csv_cell(c) for c in row[:n_text]), *row[n_text:]])


def _check_points(roster: Roster, per_learner_lesson_points: dict, lessons: list[str], max_points: dict) -> None:
    """ValueError, naming it, for no lesson or a repeated one, a lesson without its maximum, a learner
    off the roster, a lesson not in `lessons`, or points outside 0..max_points."""
    if not lessons:
        raise ValueError("lessons is empty: a gradebook needs at least one lesson column")
    if len(set(lessons)) != len(lessons):
        raise ValueError(f"lessons repeats a lesson: {lessons}")
    for lesson in lessons:
        best = max_points.get(lesson)
        if best is None:
            raise ValueError(f"max_points has no entry for lesson {lesson!r}")
        if isinstance(best, bool) or not isinstance(best, numbers.Real) or not math.isfinite(best) or best < 0:
            raise ValueError(f"max_points[{lesson!r}] must be a finite number >= 0, got {best!r}")
    on_roster, in_lessons = set(roster.learners), set(lessons)
    for key, points in per_learner_lesson_points.items():
        if not (isinstance(key, tuple) and len(key) == 2):
            raise ValueError(f"per_learner_lesson_points keys are (learner, lesson), got {key!r}")
        learner, lesson = key
        if learner not in on_roster:
            raise ValueError(f"per_learner_lesson_points has learner {learner!r}, who is not on the roster "
                             f"{roster.path!r}: their points would have no row")
        if lesson not in in_lessons:
            raise ValueError(f"per_learner_lesson_points has lesson {lesson!r} for {learner!r}, not one of "
                             f"the lessons {lessons}: it would have no column")
        if points is None:
            continue
        if (isinstance(points, bool) or not isinstance(points, numbers.Real) or not math.isfinite(points)
                or not -1e-9 <= points <= max_points[lesson] + 1e-9):
            raise ValueError(f"points of {learner!r} in {lesson!r} must be a number from 0 to "
                             f"{format_points(max_points[lesson])}, got {points!r}")


def _gradebook_header(fmt: str, roster: Roster, heads: list[str], lessons: list[str], max_points: dict):
    """(header, rows before the learners', the roster's id columns Moodle matches on) of a gradebook
    in form `fmt`; ValueError when the roster lacks the ids the LMS matches on, or two columns share
    a title."""
    ids = []
    if fmt == "canvas":
        if not (roster.has("canvas_id") or roster.has("sid")):
            raise ValueError(f"gradebook format 'canvas' needs a canvas_id (Canvas's user ID) or sid (SIS User "
                             f"ID) column in the roster {roster.path!r} to find each learner in Canvas "
                             f"(its columns: {', '.join(roster.columns)})")
        header = [*CANVAS_IDENTITY, *heads, CANVAS_TOTAL]
        preamble = [[CANVAS_POINTS_ROW, "", "", "", "", *(format_points(max_points[x]) for x in lessons),
                     "(read only)"]]
    elif fmt == "moodle":
        ids = [(MOODLE_EMAIL, "email"), (MOODLE_IDNUMBER, "sid")]
        ids = [(head, column) for head, column in ids if roster.has(column)]
        if not ids:
            raise ValueError(f"gradebook format 'moodle' needs an email or sid (Moodle's ID number) column in "
                             f"the roster {roster.path!r}: Moodle's import finds each learner by one of them "
                             f"(its columns: {', '.join(roster.columns)})")
        header = [MOODLE_NAME, *(head for head, _ in ids), *heads, MOODLE_TOTAL]
        preamble = []
    else:
        header = [LEARNER, *heads, PLAIN_TOTAL]
        preamble = []
    if len(set(header)) != len(header):
        raise ValueError(f"the gradebook's columns repeat a name: {header} (give titles that differ)")
    return header, preamble, ids
