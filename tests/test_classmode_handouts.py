"""Class mode tested from what it hands out (issue 45, 1-3; issue 46, the given code blamed only
when the edit explains the answer).

Every lesson is assigned with `embedlab-assign` to a small roster; each learner's handout (the
notebook assign wrote for them, not the solution with parameters swapped in) is filled the way a
learner fills it, in its answer cells only:

* ada: every answer right (the solution's own lines, typed under `# YOUR CODE HERE`), but the
  first value question's cell raises before its answer (and in lesson 01 the second one runs past
  the cell limit);
* ben: every other value answer wrong by a factor of two (the solution, then `x = x * 2`; a choice
  a word none of the choices), the others typed in as read off (a count whole, a real to four
  figures), every function returning None;
* eve: ben's lines, written by a classmate, in her own handout.

One `embedlab-grade` run grades them all, with --feedback and --report. Checked in every output
(scores CSV, feedback pages, report, --explain, the handout's own checks): no wrong answer's hint
says the given code was changed, and each wrong answer's hint is, word for word, the hint the
self-study check gives the same cells judged against the same variant's key (the handout's own
checks, run as a kernel runs them).
"""

from __future__ import annotations

import csv
import html
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from embedlab.grading import assign, cli
from embedlab.grading.code import MARKER
from embedlab.grading.feedback import WITHHELD
from embedlab.grading.keys import KEYS_DIR
from embedlab.grading.lessons import questions_for
from embedlab.grading.kinds import CARRIED
from embedlab.grading.status import CORRECT, ERROR, INCORRECT, TIMEOUT
from embedlab.grading.text import cut
from solution_runner import assign_and_grade

ROOT = Path(__file__).resolve().parent.parent
SECRET = b"a-secret-for-the-handout-tests-of-class-mode"
K = 2
ROLES = {"ada": "right", "ben": "wrong", "eve": "wrong"}
CHANGED = "the code the exercise gives was changed"
LESSONS = assign.lessons_to_assign("all")[0]


def blocks(lesson: str) -> dict:
    """{question: the solution's marked blocks of its answer cell, in order (each as its lines, with
    their indentation)}: what a learner types under each `# YOUR CODE HERE`."""
    out = {}
    solution = nbformat.read(ROOT / "solutions" / f"{lesson}.ipynb", as_version=4)
    for name, cell in answer_cells(solution).items():
        found, block = [], None
        for line in cell.source.split("\n"):
            if line.strip() == "# BEGIN SOLUTION":
                block = []
            elif line.strip() == "# END SOLUTION":
                found.append(block)
                block = None
            elif block is not None:
                block.append(line)
        out[name] = found
    return out


def answer_cells(nb):
    """{question: the code cell above its `ex.check("question")`} of a notebook."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    out = {}
    for i, cell in enumerate(code):
        m = re.fullmatch(r"""\s*ex\.check\(\s*["'](\w+)["']\s*\)\s*""", cell.source)
        if m and i > 0:
            out[m.group(1)] = code[i - 1]
    return out


def typed(value) -> str:
    """A number as a learner types it off the printed output: a count whole, a real to four figures."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ""
    return repr(value) if isinstance(value, int) else repr(float(f"{value:.4g}"))


def value_questions(lesson: str) -> list[str]:
    return [q.name for q in questions_for(lesson) if q.kind != "function"]


def typed_one(lesson: str, name: str) -> bool:
    """Whether ben types this answer in (every other value question, from the second), else doubles it."""
    names = value_questions(lesson)
    return name in names and names.index(name) % 2 == 1


def filled(nb, lesson: str, role: str, key: dict | None = None):
    """`nb` (a handout) with its answer cells filled as `role` fills them (`key`: its variant's)."""
    solved = blocks(lesson)
    kinds = {q.name: q.kind for q in questions_for(lesson)}
    first, last = value_questions(lesson)[0], value_questions(lesson)[-1]  # no later answer uses the last
    for name, cell in answer_cells(nb).items():
        lines, out, k = cell.source.split("\n"), [], 0
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.strip() == MARKER:
                indent = line[:len(line) - len(line.lstrip())]
                block = solved[name][k]
                k += 1
                if i + 1 < len(lines) and lines[i + 1].strip() == "raise NotImplementedError()":
                    i += 1
                if role == "wrong" and kinds[name] == "function":
                    block = [f"{indent}return None"]
                elif role == "right" and name == last:
                    block = ['raise ValueError("a slip of mine")'] + block
                elif role == "right" and name == first and lesson == "01-toy-table":
                    block = ["import time", "while True:", "    time.sleep(0.05)"] + block
                out += block
            else:
                out.append(line)
            i += 1
        value = (key or {}).get(name)
        if isinstance(value, dict) and name in value:  # a Design's key: its answer beside the ones it uses
            value = value[name]
        if role == "wrong" and kinds[name] != "function" and typed_one(lesson, name) and typed(value):
            out.append(f"{name} = {typed(value)}")  # read off the printed answer, typed over it
        elif role == "wrong" and (kinds[name] in ("integer", "real", "array") or typed(value)):
            out.append(f"{name} = {name} * 2 + ({name} == 0)")  # a zero made one
        elif role == "wrong" and kinds[name] == "choice":
            out.append(f'{name} = {name} + "s"')
        elif role == "wrong" and isinstance(value, dict):  # a design: every whole number of it doubled
            out.append(f"{name} = dict({name}, **{{k: v * 2 for k, v in {name}.items() if type(v) is int}})")
        cell.source = "\n".join(out)
    return nb


def run_handout(nb, lesson: str, variant) -> tuple[dict, dict]:
    """The handout's code cells run in this process as a kernel runs them (IPython's history `In`
    kept): ({question: what its own check printed}, {question: the self-study check's verdict for the
    same cells judged against the `variant`'s key, with its questions (their hints made from the
    variant's parameters, as the grader's are)})."""
    import contextlib
    import io

    from embedlab import tinylm
    from embedlab.grading.exercise import Exercise

    import IPython

    from solution_runner import KernelEvents

    namespace, printed = {"In": [""]}, {}
    shell = KernelEvents(namespace)  # the runs the check watches, as in a kernel (a cell that raised is said so)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tinylm, "remember_runs", True)
        patch.setattr(IPython, "get_ipython", lambda: shell)
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            namespace["In"].append(cell.source)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                shell.run(cell.source, len(namespace["In"]) - 1,  # a cell that raises, as in a kernel: the next runs
                          lambda: exec(compile(cell.source, "<cell>", "exec"), namespace))  # noqa: S102 - the learner's
            m = re.fullmatch(r"""\s*ex\.check\(\s*["'](\w+)["']\s*\)\s*""", cell.source)
            if m:
                printed[m.group(1)] = out.getvalue()
        self_study = Exercise(lesson)
        self_study.key = dict(variant.key)
        self_study.questions = {q.name: q for q in questions_for(lesson, variant.parameters)}
        self_study.handed = dict(variant.parameters)  # what was handed out (embedlab.grading.changed)
        hints = {q.name: self_study.verdict(q.name, namespace) for q in questions_for(lesson)}
    shell.forget()
    return printed, hints


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("handouts")

    def fill(handout, lesson, learner, keys):
        variant = keys[lesson].learners[learner]
        return filled(handout, lesson, ROLES[learner], keys[lesson].keys[variant].key)
    feedback, page = tmp / "feedback", tmp / "report.html"
    # honest notebooks: their judged rows kept (embedlab.grading.kept)
    made = assign_and_grade(tmp, list(ROLES), SECRET, K, LESSONS, fill,
                            "--feedback", str(feedback), "--report", str(page))
    return {"tmp": tmp, "out": made["out"], "keys": made["keys"], "subs": made["subs"],
            "rows": read_csv(made["scores"]), "feedback": feedback,
            "report": page.read_text(encoding="utf-8")}


def rows_of(graded, learner: str, lesson: str) -> dict:
    return {r["question"]: r for r in graded["rows"] if r["learner"] == learner and r["lesson"] == lesson}


def test_every_lesson_was_graded_from_its_handouts_and_the_right_answers_are_right(graded):
    for lesson in LESSONS:
        for learner in ROLES:
            assert set(rows_of(graded, learner, lesson)) == {q.name for q in questions_for(lesson)}, (lesson, learner)
        first, last = value_questions(lesson)[0], value_questions(lesson)[-1]
        right = rows_of(graded, "ada", lesson)
        # the cell that raises before its answer: not defined, its error named (never a hint)
        assert right[last]["status"] == ERROR and "a slip of mine" in right[last]["detail"], right[last]
        if lesson == "01-toy-table":
            assert right[first]["status"] == TIMEOUT and "cell limit" in right[first]["detail"], right[first]
        left = [r for n, r in right.items() if n != last and (n != first or lesson != "01-toy-table")]
        assert all(r["status"] == CORRECT for r in left), (lesson, [r for r in left if r["status"] != CORRECT])


def test_no_wrong_answer_blames_the_given_code_and_each_is_wrong(graded):
    for lesson in LESSONS:  # every doubled answer is wrong (a number typed in may be right: it is judged as the value)
        # a written answer is the instructor's to mark; an answer judged on ben's own (doubled) earlier
        # figures is right when it follows from them (error carried forward, issue 47), and says so
        written = {q.name for q in questions_for(lesson) if q.kind == "written"}
        ben = [r for n, r in rows_of(graded, "ben", lesson).items() if not typed_one(lesson, n) and n not in written]
        carried = [r for r in ben if r["status"] == CORRECT]
        assert all(r["detail"].startswith(CARRIED) for r in carried), (lesson, carried)
        assert all(r["status"] == INCORRECT for r in ben if r not in carried), (
            lesson, [r for r in ben if r["status"] != INCORRECT and r not in carried])
    wrong = [r for r in graded["rows"] if r["status"] == INCORRECT]
    assert len(wrong) >= 0.9 * 2 * sum(len(questions_for(lesson)) for lesson in LESSONS)
    blamed = [(r["lesson"], r["learner"], r["question"], r["detail"]) for r in wrong if CHANGED in r["detail"]]
    assert not blamed, blamed[:5]
    mentioned = [r for r in wrong if "changed a line the exercise gives" in r["detail"]]
    assert not mentioned, mentioned[:5]


def test_each_hint_is_the_self_study_checks_for_the_same_cells_and_the_handouts_own_checks_agree(graded):
    """The grader's class-mode hint is, word for word, the one the self-study check gives the same cells
    judged against the same variant's key: the handout's setup line is what it was given, and no other
    line of it is anything but the mistake made. The handout's own checks (form only, but functions in
    full) print the grader's words for every function."""
    compared = 0
    for lesson in LESSONS:
        variant = graded["keys"][lesson].learners["ben"]
        nb = nbformat.read(graded["subs"] / "ben" / f"{lesson}.ipynb", as_version=4)
        printed, hints = run_handout(nb, lesson, graded["keys"][lesson].keys[variant])
        for name, row in rows_of(graded, "ben", lesson).items():
            if row["status"] == CORRECT and row["detail"].startswith(CARRIED):  # carried forward: the
                # grader names the figures it judged on; the notebook's check marks it right too
                assert hints[name].status == CORRECT, (lesson, name, row, hints[name])
            else:
                assert (row["status"], row["detail"]) == (hints[name].status, cut(hints[name].detail)), (
                    lesson, name, row, hints[name])
            said = " ".join(printed[name].split())
            assert CHANGED not in said
            if any(q.name == name and q.kind == "function" for q in questions_for(lesson)):
                assert said.startswith(f"❌ {name}") and " ".join(row["detail"].split()) in said, (said, row)
            compared += 1
    assert compared == sum(len(questions_for(lesson)) for lesson in LESSONS)


def test_no_feedback_page_and_no_report_line_blames_the_given_code(graded):
    pages = [p for p in graded["feedback"].rglob("*") if p.is_file() and p.suffix in (".html", ".txt")]
    assert pages
    for page in pages:
        assert CHANGED not in page.read_text(encoding="utf-8"), page
    assert CHANGED not in graded["report"]
    for r in graded["rows"]:  # every wrong answer's hint is on its learner's page (or withheld, as it quotes a value)
        if r["status"] == INCORRECT:
            page = graded["feedback"] / "learners" / r["learner"] / f"{r['lesson']}-feedback.txt"
            text = " ".join(page.read_text(encoding="utf-8").split())
            assert " ".join(r["detail"].split()) in text or " ".join(WITHHELD.split()) in text, r


def test_a_wrong_value_two_learners_share_on_a_variant_is_flagged_and_the_solution_never(graded):
    """eve wrote ben's lines: on each lesson where they hold one variant, their wrong values are flagged
    (by value and variant, whatever the hints); ada, who wrote the solution, is never flagged."""
    page = graded["report"]
    shared = page[page.index('<section id="shared">'):]
    found = [tuple(html.unescape(c) for c in re.findall(r"<td>(.*?)</td>", row)[:5])
             for row in re.findall(r"<tr>(<td>.*?)</tr>", shared)]
    found = [Flag(lesson, question, tuple(who.split(", ")), "value" if "value" in what else "code")
             for lesson, _, question, who, what in found]
    together = [lesson for lesson in LESSONS
                if graded["keys"][lesson].learners["ben"] == graded["keys"][lesson].learners["eve"]]
    assert together, "the secret puts ben and eve on one variant in no lesson"
    for lesson in LESSONS:
        flagged = {s.question for s in found if s.lesson == lesson and s.kind == "value"}
        if lesson in together:
            assert flagged, lesson
        assert all(s.learners == ("ben", "eve") for s in found if s.lesson == lesson), lesson
    assert not any("ada" in s.learners for s in found)


@dataclass
class Flag:
    """A row of the report's table of work shared on one variant."""
    lesson: str
    question: str
    learners: tuple
    kind: str


def test_explain_gives_the_hint_for_the_mistake(graded, capsys):
    for lesson in ("01-toy-table", "04-modern-blocks", "11-size-a-model"):
        path = graded["subs"] / "ben" / f"{lesson}.ipynb"
        assert cli.main([str(path), "--keys", str(graded["out"] / KEYS_DIR), "--explain"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert CHANGED not in text
        for r in rows_of(graded, "ben", lesson).values():
            assert " ".join(r["detail"].split()) in text, (lesson, r["detail"])


def test_the_handouts_own_checks_in_a_kernel_say_the_graders_words(graded, tmp_path):
    """Two handouts run top to bottom in a fresh kernel of this Python, as the learner runs them: every
    check prints nothing about given code, and a function's check (judged in full in class mode) prints
    the grader's own hint."""
    from jupyter_client.manager import AsyncKernelManager
    from nbclient import NotebookClient
    from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

    for lesson in ("01-toy-table", "07-memory"):
        nb = nbformat.read(graded["subs"] / "ben" / f"{lesson}.ipynb", as_version=4)
        km = AsyncKernelManager(kernel_name=CURRENT_ENV_KERNEL_NAME, kernel_spec_manager=NbvalKernelspecManager())
        NotebookClient(nb, km=km, timeout=120, allow_errors=True,
                       resources={"metadata": {"path": str(tmp_path)}}).execute(cwd=str(tmp_path))
        said = {}
        for cell in nb.cells:
            m = re.fullmatch(r"""\s*ex\.check\(\s*["'](\w+)["']\s*\)\s*""", cell.source) if cell.cell_type == "code" \
                else None
            if m:
                said[m.group(1)] = " ".join("".join(o.get("text", "") for o in cell.outputs).split())
        rows = rows_of(graded, "ben", lesson)
        assert set(said) == set(rows)
        for q in questions_for(lesson):
            assert said[q.name] and CHANGED not in said[q.name], (lesson, q.name, said[q.name])
            if q.kind == "function":
                assert said[q.name].startswith(f"❌ {q.name}") and \
                    " ".join(rows[q.name]["detail"].split()) in said[q.name], (said[q.name], rows[q.name])
            else:
                assert said[q.name].startswith(f"📝 {q.name}"), said[q.name]  # its form only
