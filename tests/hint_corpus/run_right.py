"""Run the corpus of RIGHT answers written differently (right_answers.py) in real kernels.

    cd tests && ../.venv/bin/python -m hint_corpus.run_right [LESSON ...] [--save DIR]

Each run starts from the lesson's *exercise* notebook (as a learner receives it) with every
answer cell filled with the solution's lines (the `# BEGIN SOLUTION` markers dropped), then
puts in the entries under test: `source` replaces the answer cell's `# YOUR CODE HERE` (the
given lines above it kept; with `whole`, it replaces the whole cell), `before` cells go in
above the answer cell, `after` cells below it (the learner's answer in a cell of its own).
Entries of different questions share a run (one kernel for several questions). Prints, per
entry, the check line of its question (✅ / ❌ / ⏳ and the hint). `--save DIR` writes each
run's (unexecuted) notebook there, for `embedlab-grade`.

Nothing here reads lib/embedlab/grading/: the verdict is the notebook's own check line.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]


def _check_name(src: str):
    src = src.strip()
    if src.startswith("ex.check(") and src.endswith(")"):
        return src[len("ex.check("):-1].strip("\"'")
    return None


def _answer_cells(nb):
    """name -> index of its answer cell (the code cell above its check cell)."""
    out, last = {}, None
    for i, c in enumerate(nb.cells):
        if c.cell_type != "code":
            continue
        name = _check_name(c.source)
        if name and last is not None:
            out[name] = last
        last = i
    return out


def _strip_markers(src: str) -> str:
    return "\n".join(line for line in src.split("\n")
                     if line.strip() not in ("# BEGIN SOLUTION", "# END SOLUTION"))


def filled_exercise(lesson: str):
    """The exercise notebook with every answer cell holding the solution's lines."""
    ex = nbformat.read(ROOT / "exercises" / f"{lesson}.ipynb", as_version=4)
    sol = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    ea, sa = _answer_cells(ex), _answer_cells(sol)
    assert ea.keys() == sa.keys(), (lesson, ea.keys(), sa.keys())
    for name, i in ea.items():
        ex.cells[i].source = _strip_markers(sol.cells[sa[name]].source)
        ex.cells[i].metadata["embedlab_given"] = _given(sol.cells[sa[name]].source)
    return ex


def _given(src: str) -> str:
    """The lines of an answer cell above `# BEGIN SOLUTION` (the exercise's given lines)."""
    return src[:src.index("# BEGIN SOLUTION")] if "# BEGIN SOLUTION" in src else src


def build(lesson: str, entries):
    """One notebook holding the entries (at most one per question)."""
    nb = filled_exercise(lesson)
    names = [e.name for e in entries]
    assert len(set(names)) == len(names), names
    answers = _answer_cells(nb)
    # work from the bottom up so that indices above stay valid
    for e in sorted(entries, key=lambda e: -answers[e.name]):
        i = answers[e.name]
        cell = nb.cells[i]
        given = cell.metadata.pop("embedlab_given")
        cell.source = e.source if e.whole else given + e.source
        for k, src in enumerate(e.after):
            nb.cells.insert(i + 1 + k, nbformat.v4.new_code_cell(src))
        for src in reversed(e.before):
            nb.cells.insert(i, nbformat.v4.new_code_cell(src))
    for c in nb.cells:
        c.metadata.pop("embedlab_given", None)
    return nb


def run(nb, lesson: str):
    nb = copy.deepcopy(nb)
    NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(ROOT / "exercises")}}).execute()
    lines, errors = {}, []
    for c in nb.cells:
        if c.cell_type != "code":
            continue
        for o in c.get("outputs", []):
            if o.get("output_type") == "error":
                errors.append(f"{o['ename']}: {o['evalue'][:200]}")
        name = _check_name(c.source)
        if name:
            text = " ".join(o.get("text", "") or "".join(o.get("data", {}).get("text/plain", ""))
                            for o in c.get("outputs", []))
            lines[name] = " ".join(text.split())
    return lines, errors


def batches(entries):
    """Group the entries of one lesson into runs, at most one entry per question each."""
    runs = []
    for e in entries:
        if e.alone:
            runs.append([e])
            continue
        for r in runs:
            if any(x.alone for x in r):
                continue
            if all(x.name != e.name for x in r):
                r.append(e)
                break
        else:
            runs.append([e])
    return runs


def main(argv):
    from hint_corpus.right_answers import ENTRIES
    save = None
    if "--save" in argv:
        k = argv.index("--save")
        save = Path(argv[k + 1]).resolve()
        argv = argv[:k] + argv[k + 2:]
        save.mkdir(parents=True, exist_ok=True)
    lessons = argv or sorted({e.lesson for e in ENTRIES})
    tally = {}
    for lesson in lessons:
        entries = [(i, e) for i, e in enumerate(ENTRIES) if e.lesson.startswith(lesson)]
        if not entries:
            continue
        lesson = entries[0][1].lesson
        index = {id(e): i for i, e in entries}
        for r, group in enumerate(batches([e for _, e in entries])):
            nb = build(lesson, group)
            if save:
                nbformat.write(nb, save / f"{lesson}__run{r:02d}.ipynb")
            lines, errors = run(nb, lesson)
            for e in group:
                line = lines.get(e.name, "(no check output)")
                ok = line.startswith("✅")
                tally.setdefault(lesson, [0, 0])[0 if ok else 1] += 1
                mark = "OK " if ok else "BAD"
                print(f"{mark} [{index[id(e)]}] {lesson} {e.name} (run {r}): {line[:600]}", flush=True)
            for err in errors:
                print(f"    error in run {r}: {err}", flush=True)
    for lesson, (ok, bad) in tally.items():
        print(f"{lesson}: {ok} ✅, {bad} refused")


if __name__ == "__main__":
    main(sys.argv[1:])
