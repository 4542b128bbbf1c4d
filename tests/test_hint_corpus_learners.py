"""The hints against corpora of wrong answers written WITHOUT reading the hint code.

tests/hint_corpus/learners.py (the main corpus) and tests/hint_corpus/heldout.py (a held-out part,
measured blind at 50 % specific, then opened as training material: see its header) and
tests/hint_corpus/heldout2.py (a second held-out part, written blind after that, which the hint
authors have never opened: only its counts are ever printed) and tests/hint_corpus/heldout3.py (a third,
written blind, never opened either: measured blind at 187 of 202 specific (92.6 %); then its 15 misses,
by the corpus author's descriptions only, never the file, were used to fix hint mechanisms by kind of
mistake (tests/test_hint_kinds.py), after which it is held to 95 %) and tests/hint_corpus/heldout4.py (a
fourth, written blind the same way, never opened either: measured blind at 187 of 203 specific (92.1 %,
2 misleading); then its 16 misses, by the corpus author's descriptions only, were used to fix hint
mechanisms by kind (tests/test_hint_kinds.py, tests/test_hint_units.py): held to 95 %) and
tests/hint_corpus/heldout5.py (a fifth, written blind the same way, never opened either: measured blind at
145 of 154 specific (94.2 %, 0 misleading); then its 9 misses, by the corpus author's descriptions only, were
used to fix hint mechanisms by kind (tests/test_hint_kinds.py, tests/test_hint_parts.py): held to 95 %) and
tests/hint_corpus/heldout6.py (a sixth, 198 entries by a third author, written blind once every fix above was
in, never opened by a hint author: measured blind at 191 of 198 specific (96.5 %), 0 misleading, 0 accepted,
0 revealing, in the notebook check; nothing was changed for it: held to 95 %) and
tests/hint_corpus/heldout7.py (a seventh, 203 entries by a fourth blind author, measured blind at 197 of 203
specific (97.0 %), 2 misleading, 0 accepted; its two misleading hints, lesson 11's 6·N·D guess, fixed by the
author's descriptions only: held to 95 %; and 78 COINCIDENCES, methods wrong in general that give the right
value on the book's inputs, measured blind at 19 of 78 refused, which the second looks of
embedlab.grading.elsewhere answer: tests/test_elsewhere.py holds them) and tests/hint_corpus/heldout9.py (a ninth,
120 entries, 10 per lesson, by a blind helper that read no grading code, issue 46: measured blind on main's
grading code at 115 of 120 specific (95.8 %), 1 direction-only, 3 other, 1 misleading, 0 accepted; its five
misses then read and fixed by kind (tests/test_hint_proof.py): an argument never read, a division without its
denominator's parentheses, an either-or parted by the other inputs, a size used for another, rows divided by
the whole matrix's norm: held to 95 %) and tests/hint_corpus/heldout10.py (a tenth, 231 entries over the 12
exercises by a blind helper, issue 46: its hints on main's grading code judged by an independent judge at 213 of
231 specific (92.2 %), 13 generic, 5 misleading, 0 accepted; the classifier below, with the author's words, counted
197 of the first 225 specific. Its 18 misses then read from the judge's write-up and fixed by kind
(tests/test_hint_proof5.py, each kind planted as a new instance); 13 word lists calibrated to the judge's
verdicts where a right hint holds a word of `wrong_words` (the file's CALIBRATED): held to 95 %) and
tests/hint_corpus/heldout12.py (a twelfth, 168 entries, 14 per lesson, by a blind helper, issue 46: its hints on main's
grading code, before any fix, judged by an independent judge at 162 of 168 specific (96.4 %), 6 generic, 0 misleading,
0 garbled, 0 accepted; 13 word lists calibrated to the judge's verdicts, both ways (its CALIBRATED): held to 95 %) and
tests/hint_corpus/heldout13.py (168 entries, 14 per lesson, by a blind helper, issue 46: judged independently before any
fix at 147 of 168 specific (87.5 %), 12 generic, 9 misleading, 0 accepted; 16 word lists calibrated to that judge (its
CALIBRATED); its misses then fixed by kind (tests/test_hint_proof10.py to 14): 163 of 168 by the classifier, 2 misleading
left, each named in KNOWN_MISLEADING with why: held to 95 %) and tests/hint_corpus/heldout14.py (144 entries by a second
blind helper, three learner styles: judged before any fix at 127 of 144 specific (88.2 %), 11 generic, 6 misleading;
14 word lists calibrated to that judge; the hint fixers never read it, the lead fixed four of its misleading kinds from
the judge's write-up (test_hint_proof14.py): held to 90 %, its one misleading hint left in KNOWN_MISLEADING) and
tests/hint_corpus/heldout16.py (265 entries, four learner styles, by a blind helper: judged by two independent judges
before any fix at 231 of 265 specific (87.2 %), 27 generic, 7 misleading, 0 accepted; 33 word lists calibrated to them
(its CALIBRATED); its kinds fixed from their write-ups (tests/test_hint_proof21.py): held to 95 %, one misleading hint,
two slips at once, left in KNOWN_MISLEADING) hold entries
`Wrong(lesson, name, source, mistake, words, wrong_words)`: a hint must contain one of `words`
(any case) and none of `wrong_words`. Every entry is judged twice:

* by the notebook's own check (`Exercise.verdict`), in this process, the entry run as
  tests/hint_corpus/check_wrong.py runs it (the solution's cells above, the exercise's own lines
  of the answer cell, then the entry), with IPython's input history holding the answer cell, as
  in a learner's kernel, so that the check reads the learner's code;
* by the grader's own scoring (`embedlab.grading.cli.score`), in this process, on what the grader's
  probe (`embedlab.grading.wire.probe`) reads from the entry's namespace, carried as the kernel
  carries it to the grader (Jupyter's JSON: nan as text), with the answer cell's source as the
  worker sends it, and a function's inputs drawn as the grader draws them: the grader's judge
  without its sandbox, for a sample of entries (the first of each question in a submission per
  lesson, as `rounds` groups them). That the sandboxed grader reaches the same judge with the same
  data is tested end to end by tests/test_hint_corpus.py and tests/test_hint_parts.py.

Each verdict is sorted into: accepted (marked correct), reveals (the detail writes the
expected value), misleading (holds a wrong word), specific (holds a word), direction-only (the
general "too big"/"too small" words), other. The test asserts none accepted, none revealing,
none misleading, and at least 90 % specific on each file (95 % on learners.py and heldout3.py to
heldout6.py), both ways; `report` prints the counts per exercise (run
`python tests/test_hint_corpus_learners.py [learners|heldout|heldout2|heldout3|heldout4|heldout5|heldout6]`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import io
import json
import math
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path

import nbformat
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent  # pytest puts tests/ on the path: hint_corpus imports

from embedlab.grading.exercise import Exercise  # noqa: E402
from embedlab.grading.kinds import Design, Function  # noqa: E402
from embedlab.grading.lessons import load_key, questions_for  # noqa: E402
from embedlab.grading.status import CORRECT  # noqa: E402
from embedlab.grading.values import data_to_array, written_in  # noqa: E402

from solution_runner import grade_folder, grader_scoring  # noqa: E402

FILES = [f for f in ("learners", "heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7",
                     "heldout9", "heldout10", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16")
         if (ROOT / "tests" / "hint_corpus" / f"{f}.py").exists()]
BAR = 0.9
BARS = {"learners": 0.95,  # the main corpus, written with the hints: held to more than the 90 %
        "heldout3": 0.95,  # the third blind corpus (see the docstring): held to the bar it was fixed to
        "heldout4": 0.95,  # the fourth blind corpus (see the docstring): the 95 %
        "heldout5": 0.95,  # the fifth blind corpus (see the docstring): the 95 %
        "heldout6": 0.95,  # the sixth, measured blind once every fix of this session was in (docstring)
        "heldout7": 0.95,  # the seventh, with its COINCIDENCES (docstring)
        "heldout9": 0.95,  # the ninth, issue 46's blind corpus (docstring)
        "heldout10": 0.95,  # the tenth, judged independently, its misses fixed by kind (docstring)
        "heldout12": 0.95,  # the twelfth, judged independently before any fix: 96.4 % (docstring)
        "heldout13": 0.95,  # the thirteenth, judged before any fix at 87.5 %, its misses fixed by kind (docstring)
        "heldout15": 0.95,  # judged before any fix at 92.9 %, 2 misleading; its kinds fixed from judge15's write-up
        "heldout16": 0.95}  # judged before any fix at 87.2 %, 7 misleading; its kinds fixed from judges 16a/16b's
# (tests/test_hint_proof16.py, each kind planted as a new instance): 161 of 168 by the classifier, 0 misleading.
# heldout16: write-ups (tests/test_hint_proof21.py, each kind planted as a new instance): 254 of 265 by the classifier
# (95.8 %), 1 misleading left, named in KNOWN_MISLEADING.
# heldout14 (judged before any fix at 88.2 %; its hint fixers never saw it) is held to the 90 %.

# Misleading hints a corpus still draws, each known by entry and said why: none may be added (a new one fails the
# test), and one that is fixed needs only its line removed. {file: {(name, the mistake's first 40 characters): why}}
KNOWN_MISLEADING = {
    "heldout13": {
        ("gpt2_params", "Dropped the bias of the MLP's second lay"):
            "two biases of d each: a function's result cannot tell which the learner's own lin() left out",
        ("attn_layer", "Counted the k and v projections as one m"):
            "k and v are the same size: one matrix short cannot tell which of the two is missing",
    },
    "heldout14": {
        ("block_params", "Took the MLP as 4d² (it is two d×4d matr"):
            "4d² + 4d² is the MLP's 8d² on any d: the value cannot tell 'attention and half an MLP' from 'MLP alone'",
    },
    "heldout16": {
        ("block_params", "Two at once: each LayerNorm counted with"):
            "two slips at once (LayerNorms d wide, no projection bias): no one edit proves them, and the two-slip story "
            "the value picks (a d-wide MLP bias, no q, k, v biases) is the two-slip path's (helper hints0408's area)",
    },
}


def known_misleading(file: str, entry) -> bool:
    return any(entry.name == name and entry.mistake.startswith(start) for name, start in KNOWN_MISLEADING.get(file, {}))

# The general words of embedlab.grading.diagnose and the kinds' defaults: a direction, not a mistake.
DIRECTION_ONLY = ("too big", "too small", "a little too big", "a little too small", "far too big", "far too small",
                  "not the right choice", "right shape, but", "the values differ", "the sign is wrong (and the size",
                  "not the parameter count of your design", "not the serving memory of your design",
                  "not the training flops of your design", "not the count of your design")


ONLY = None  # python tests/test_hint_corpus_learners.py learners -k 03 : the entries of one lesson only


def entries(file: str) -> list:
    return [e for e in importlib.import_module(f"hint_corpus.{file}").ENTRIES
            if ONLY is None or e.lesson.startswith(ONLY) or e.name == ONLY]


def _check_wrong():
    return importlib.import_module("hint_corpus.check_wrong")


def answer_cell(entry) -> str:
    """The answer cell as the learner's notebook holds it: the exercise's own lines, then theirs."""
    prelude = _check_wrong().exercise_prelude(entry.lesson, entry.name)
    return (prelude + "# YOUR CODE HERE\n" if prelude.strip() else "") + entry.source


def _question(lesson, name):
    return next(q for q in questions_for(lesson) if q.name == name)


def classify(entry, status: str, detail: str) -> str:
    """accepted, reveals, misleading, specific, direction-only or other."""
    text = detail.lower()
    if status == CORRECT:
        return "accepted"
    if reveals(entry, detail):
        return "reveals"
    if any(_whole(w.lower(), _claims(text)) for w in entry.wrong_words):
        return "misleading"
    if any(w.lower() in text for w in entry.words):
        return "specific"
    if text.startswith(DIRECTION_ONLY) or not text.strip():
        return "direction-only"
    return "other"


def _claims(text: str) -> str:
    """The part of a hint that names a mistake: without the failing call's description ("on input 1 of 9, f(…)
    returned an array of shape (3, 4):", what happened, measured) and without the titles of the sections it points
    to ("reread the lesson's section “3. The SwiGLU MLP: three matrices”"): neither blames anything."""
    import re

    text = re.sub(r"^on input \d+ of \d+, .*? (returned|raised) [^:]*:", "", text, count=1)
    return re.sub(r"“[^”]*”", "", text)


def _whole(word: str, text: str) -> bool:
    """Is `word` in `text` as a whole word (or phrase)? A wrong word is a mistake's name: `d` is not the d of
    "bytes", `size` not the size of "sizes", `surrogate` not part of "surrogates"."""
    import re

    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def reveals(entry, detail: str) -> bool:
    """Does the hint write the expected value (a value question's key)?"""
    q = _question(entry.lesson, entry.name)
    if isinstance(q, (Function, Design)):
        return False
    value = load_key(entry.lesson).get(entry.name)
    if isinstance(value, dict) and "hex" in value:
        value = data_to_array(value)
        value = value.astype(np.int64) if np.all(value == np.round(value)) else value
    return bool(written_in(detail, value))


# --------------------------------------------------------------------------
# The notebook's check


def same_answer(entry) -> tuple:
    """What a verdict on `entry` is made of, and all it is made of: its lesson, its question and its source, run
    in the lesson's solution and judged with the answer cell they make (`answer_cell`). The corpora hold the same
    answer many times over (2,584 entries, 1,595 answers: blind authors meet the same slips), each with its own
    words; each answer is run and judged once here, and each entry's words are held against that verdict. A key
    of the whole text, so an answer that differs by a character is run and judged on its own."""
    return entry.lesson, entry.name, entry.source


_NAMESPACES: dict = {}


def namespace(entry) -> dict:
    """The namespace the entry leaves (run once per answer, shared by the notebook check and the grader's path)."""
    key = same_answer(entry)
    if key not in _NAMESPACES:
        with contextlib.redirect_stdout(io.StringIO()):
            _, ns = _check_wrong().run_entry(entry)
        _NAMESPACES[key] = ns
    return _NAMESPACES[key]


def notebook_verdict(entry):
    """(status, detail) of the notebook's check on one entry, the answer cell in IPython's history."""
    ns = namespace(entry)
    ns["_ih"] = ["", answer_cell(entry)]
    verdict = Exercise(entry.lesson).verdict(entry.name, ns)
    return verdict.status, verdict.detail


def grader_verdict(entry):
    """(status, detail) of the grader's scoring of one entry (solution_runner.grader_scoring), the answer cell in
    the kernel's input history as the worker's IPython kernel holds it: the probe runs the cell's own lines
    again on the second looks (embedlab.grading.elsewhere), on which a hint is weighed (kinds._support)."""
    ns = {k: v for k, v in namespace(entry).items() if k != "_ih"}
    ns["_ih"] = ["", answer_cell(entry)]
    return grader_scoring(entry.lesson, entry.name, ns, answer_cell(entry))


_NOTEBOOK: dict = {}
_VERDICTS: dict = {}  # ("notebook" or "grader", same_answer(entry)) -> (status, detail): each answer judged once
_OUT_OF_TIME: set = set()  # the keys of _VERDICTS whose judging ran out of a time bound (never kept on disk)


def judged(way: str, verdict, entry) -> tuple[str, str]:
    """`verdict(entry)`, the notebook's or the grader's, once for all the entries that hold the same answer."""
    key = (way, same_answer(entry))
    if key not in _VERDICTS:
        with time_bounds_watched() as out_of_time:
            _VERDICTS[key] = verdict(entry)
        if out_of_time:
            _OUT_OF_TIME.add(key)
    return _VERDICTS[key]


@contextlib.contextmanager
def time_bounds_watched():
    """A list that gets an item each time lines the judge runs under a time bound (embedlab.grading.elsewhere's
    second looks) run out of it, while on. The bound is of CPU time, so a verdict does not move with the load,
    but a wall-clock bound backs it (a machine busy past a twentieth of a core): a verdict made with a bound
    run out is never kept on disk (`kept_results`). Only watched: the bound, its signal and its OutOfTime are
    the grader's own."""
    from embedlab.grading import elsewhere

    real, ran_out = elsewhere._cpu_bound, []

    @contextlib.contextmanager
    def watched(seconds):
        try:
            with real(seconds):
                yield
        except elsewhere.OutOfTime:
            ran_out.append(seconds)
            raise

    elsewhere._cpu_bound = watched
    try:
        yield ran_out
    finally:
        elsewhere._cpu_bound = real


@functools.lru_cache(maxsize=1)
def corpus_inputs_digest() -> str:
    """sha256 of everything a corpus verdict is made of outside the embedlab package (which embedlab.grading.kept's
    folder holds by its own digest, with the Python, the packages, the numeric environment and the CPU): the
    corpora and the code that runs and judges them here (tests/hint_corpus/, this file, solution_runner.py), every
    file of the course's solutions/, exercises/ and notebooks/ (the entries run in the solutions; the checks read
    the exercises' given code and the lessons), by name and content, and the folders a hint's machine paths are
    written from (embedlab.grading.text.machine_paths: the checkout, the working folder, home, the Python's)."""
    digest = hashlib.sha256()
    files = [ROOT / "tests" / "test_hint_corpus_learners.py", ROOT / "tests" / "solution_runner.py",
             *(ROOT / "tests" / "hint_corpus").rglob("*.py"),
             *(p for folder in ("solutions", "exercises", "notebooks") for p in (ROOT / folder).rglob("*"))]
    for path in sorted(p for p in files if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    digest.update(json.dumps([str(ROOT), os.getcwd(), os.path.expanduser("~"), sys.prefix, sys.base_prefix,
                              sys.exec_prefix, sys.base_exec_prefix, sys.executable]).encode())
    return digest.hexdigest()


def kept_results(way: str, file: str, items: list, verdict) -> list:
    """[(entry, status, detail)] of `verdict` ("notebook" or "grader") on `items`, the entries of corpus `file`:
    read back from _build/test-cache/class/ (embedlab.grading.kept: a folder per digest of the embedlab package,
    the Python and the packages; tests/conftest.py) when the same corpora, code and course judged them there
    before (corpus_inputs_digest; the entries' answers compared one by one), else judged here and kept, unless a
    time bound ran out on one of them. EMBEDLAB_CLASS_CACHE=0 judges every time."""
    from embedlab.grading import kept

    path = kept.path_for("hint-corpus-verdicts", way, file, ONLY, corpus_inputs_digest())
    answers = [list(same_answer(e)) for e in items]
    stored = kept.read(path)
    if isinstance(stored, list) and [row[:3] for row in stored] == answers \
            and all(len(row) == 5 and all(isinstance(x, str) for x in row) for row in stored):
        return [(e, row[3], row[4]) for e, row in zip(items, stored)]
    results = [(e, *judged(way, verdict, e)) for e in items]
    if not any((way, same_answer(e)) in _OUT_OF_TIME for e in items):
        kept.keep(path, [[*answer, status, detail] for answer, (_, status, detail) in zip(answers, results)])
    return results


def notebook_results(file: str) -> list:
    if file not in _NOTEBOOK:
        _NOTEBOOK[file] = kept_results("notebook", file, entries(file), notebook_verdict)
    return _NOTEBOOK[file]


# --------------------------------------------------------------------------
# The grader: one run per corpus file


def rounds(items: list) -> list[list]:
    """Entries in submissions, as tests/hint_corpus/check_wrong.py runs them (every other answer the
    solution's): at most one entry per question in each, and never an entry together with one of a
    question its code reads (lesson 11's `tightest_budget` reads `design_params`), nor with one of an
    answer other questions are judged with (Design.uses: lesson 11's `design`)."""
    import re

    names = {e.lesson: {q.name for q in questions_for(e.lesson)} for e in items}
    used = {u for e in items for q in questions_for(e.lesson) for u in getattr(q, "uses", ())}
    out, reads_of = [], {}
    for e in items:
        reads = {n for n in names[e.lesson] - {e.name} if re.search(rf"\b{re.escape(n)}\b", e.source)}
        reads_of[id(e)] = reads
        alone = e.name in used
        for group in out:
            if group[0].lesson != e.lesson or alone or any(g.name in used for g in group):
                continue
            if e.name in {g.name for g in group} or reads & {g.name for g in group} \
                    or any(e.name in reads_of[id(g)] for g in group):
                continue
            group.append(e)
            break
        else:
            out.append([e])
    return out


def submission(group: list):
    """The solution notebook, each entry's answer cell replaced by the entry's (checks left out)."""
    lesson = group[0].lesson
    solution = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    code = [c for c in solution.cells if c.cell_type == "code"]
    checks = {c.source.strip()[len("ex.check("):-1].strip("\"'"): i for i, c in enumerate(code)
              if c.source.strip().startswith("ex.check(")}
    replace = {checks[e.name] - 1: answer_cell(e) for e in group}
    cells = []
    for i, c in enumerate(code):
        if c.source.strip().startswith(("ex.check(", "ex.summary(")):
            continue
        cells.append(nbformat.v4.new_code_cell(replace.get(i, c.source)))
    nb = nbformat.v4.new_notebook(metadata=solution.metadata)
    nb.metadata["embedlab"] = {"lesson": lesson, "kind": "exercise"}
    nb.cells = cells
    return nb


_GRADER: dict = {}
GRADER_ROUNDS = 1


def grader_sample(file: str) -> list:
    """The entries the grader's path judges: those of the first GRADER_ROUNDS submissions of each lesson."""
    groups, per = [], Counter()
    for group in rounds(entries(file)):
        if per[group[0].lesson] < GRADER_ROUNDS:
            groups.append(group)
            per[group[0].lesson] += 1
    return groups


def grader_path_results(file: str) -> list:
    """(entry, status, detail) of the grader's scoring, in this process, for the sampled entries."""
    if file not in _GRADER:
        sampled = [e for group in grader_sample(file) for e in group]
        _GRADER[file] = kept_results("grader", file, sampled, grader_verdict)
    return _GRADER[file]


def grader_results(file: str, folder: Path) -> list:
    """(entry, status, detail) from one real embedlab-grade run over the sampled submissions (run by
    hand: `python tests/test_hint_corpus_learners.py learners --grader`)."""
    groups = grader_sample(file)
    for i, group in enumerate(groups):
        nbformat.write(submission(group), folder / f"{group[0].lesson}-{i:03d}.ipynb")
    rows = {(r["submission"], r["question"]): r for r in grade_folder(folder, timeout=600)}
    results = []
    for i, group in enumerate(groups):
        label = next(s for s, _ in rows if s.endswith(f"{group[0].lesson}-{i:03d}.ipynb"))
        for e in group:
            row = rows[(label, e.name)]
            results.append((e, row["status"], row["detail"]))
    return results


# --------------------------------------------------------------------------
# Counting


KINDS = ("specific", "direction-only", "other", "misleading", "accepted", "reveals")


def counts(results) -> dict:
    """{lesson: Counter(kind)} and a total under 'all'."""
    out = defaultdict(Counter)
    for e, status, detail in results:
        kind = classify(e, status, detail)
        out[e.lesson][kind] += 1
        out["all"][kind] += 1
    return out


def table(results, title: str) -> str:
    c = counts(results)
    lines = [f"{title}: " + " / ".join(KINDS)]
    for lesson in sorted(k for k in c if k != "all") + ["all"]:
        n = sum(c[lesson].values())
        lines.append(f"  {lesson:22} {n:3}  " + "  ".join(f"{c[lesson][k]:3}" for k in KINDS))
    return "\n".join(lines)


def failures(results, kinds=("misleading", "accepted", "reveals", "direction-only", "other")) -> list:
    return [(e.lesson, e.name, e.mistake, kind, detail[:200]) for e, status, detail in results
            for kind in [classify(e, status, detail)] if kind in kinds]


# Files whose entries may be printed when a check fails: the ones the hint authors have read. A blind
# corpus (any other file) is reported by its counts only.
OPENED = {"learners", "heldout", "heldout9", "heldout10"}  # heldout9, 10: measured blind once, then misses read


def assert_bar(results, title: str, file: str = "learners"):
    results = [(e, status, detail) for e, status, detail in results
               if not (known_misleading(file, e) and classify(e, status, detail) == "misleading")] + [
        (e, status, "") for e, status, detail in results
        if known_misleading(file, e) and classify(e, status, detail) == "misleading"]  # counted as not specific
    c = counts(results)["all"]
    n = sum(c.values())
    shown = table(results, title)
    show = (lambda kinds: failures(results, kinds)) if file in OPENED else (lambda kinds: "")  # noqa: E731
    assert c["accepted"] == 0, (shown, show(("accepted",)))
    assert c["reveals"] == 0, shown
    assert c["misleading"] == 0, (shown, show(("misleading",)))
    bar = BARS.get(file, BAR)
    assert c["specific"] >= math.ceil(bar * n), (shown, show(("direction-only", "other")))


# --------------------------------------------------------------------------
# The tests


@pytest.mark.parametrize("file", FILES)
def test_the_notebook_check_names_the_mistake(file):
    assert_bar(notebook_results(file), f"{file} (notebook check)", file)


@pytest.mark.parametrize("file", FILES)
def test_the_grader_names_the_mistake(file):
    """The grader's scoring accepts none, reveals none, misleads with none, and gives each sampled
    entry the notebook check's very hint (cut to the grader's length), a function's of the same kind
    (the grader draws other inputs, so the failing call differs): one judge, two places."""
    results = [(e, status, detail) for e, status, detail in grader_path_results(file)
               if not (known_misleading(file, e) and classify(e, status, detail) == "misleading")]
    c = counts(results)["all"]
    shown = table(results, f"{file} (the grader's scoring)")
    assert c["accepted"] == 0 and c["reveals"] == 0 and c["misleading"] == 0, shown
    notebook = {id(e): (status, detail) for e, status, detail in notebook_results(file)}

    def same(e, status, detail):
        nb_status, nb_detail = notebook[id(e)]
        if status != nb_status or classify(e, status, detail) != classify(e, nb_status, nb_detail):
            return False
        return isinstance(_question(e.lesson, e.name), Function) or nb_detail.startswith(detail)
    differ = [(e.lesson, e.name) for e, status, detail in results if not same(e, status, detail)]
    assert not differ, (differ if file in OPENED else len(differ), shown)


def test_a_hint_that_blames_another_mistake_counts_as_misleading():
    """The classifier itself, seen red: a wrong word wins over a right one; a direction is not
    specific; a detail writing the expected value reveals it."""
    from hint_corpus import Wrong

    e = Wrong("03-counting-gpt2", "interview", "interview = 1", "x", ("tied",), ("bias",))
    assert classify(e, "incorrect", "the head is tied, and a bias") == "misleading"
    assert classify(e, "incorrect", "the head is tied") == "specific"
    assert classify(e, "incorrect", "too big: something counted that should not be?") == "direction-only"
    assert classify(e, "correct", "") == "accepted"
    assert classify(e, "incorrect", f"it is {load_key('03-counting-gpt2')['interview']:,}") == "reveals"


if __name__ == "__main__":
    import tempfile

    args = sys.argv[1:]
    if "-k" in args:
        ONLY = args.pop(args.index("-k") + 1)
    for file in [a for a in args if not a.startswith("-")] or FILES:
        nb = notebook_results(file)
        print(table(nb, f"{file} (notebook check)"))
        if file in OPENED:  # a blind corpus's entries are never printed, only counted
            for row in failures(nb):
                print("   ", row)
        if "--grader" in sys.argv:
            with tempfile.TemporaryDirectory() as tmp:
                print(table(grader_results(file, Path(tmp)), f"{file} (embedlab-grade)"))
