"""The learner's own code: what the answer cell does, read from its source (its syntax tree).

The check never runs the learner's code again: it parses the answer cell's
source (``ast``) and names what it does, when that explains a wrong value:

* which name of the `parameters` cell it reads, or which model's config it loads
  (the wrong one of two: ``attn_model`` where ``share_model`` is asked);
* a number typed by hand that is a rounded or mistyped input (128,000 for 128,256);
* ``//`` where ``/`` is meant, ``* 100`` (a percentage), ``sorted(...)``,
  ``np.count_nonzero``, ``round(...)``;
* a hard-coded answer (a number typed in place of a computation).

The source reaches the judge as plain text in both places the answer is judged:

* in the notebook, `answer_source(name, namespace)` finds the last cell in
  IPython's input history (``_ih``/``In``) that defines the name;
* in the grader, the worker sends the source of the cell that defines each
  answer (`embedlab.grading.wire.answer_sources`), cut to SOURCE_LIMIT characters,
  with its report; the grader hands it to the same `Question.judge`.

Everything here reads text only: an unparsable or hostile source gives no finding.
"""

from __future__ import annotations

import ast
import functools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

SOURCE_LIMIT = 4000  # characters of an answer cell carried to the judge


def defines_pattern(name: str) -> re.Pattern:
    """A top-level `name = …`, `name: T = …` or `def name(` (as the worker's `defining_cells`)."""
    return re.compile(rf"^(?:{re.escape(name)}\s*(?::[^=\n]*)?=(?!=)|def\s+{re.escape(name)}\s*\()", re.M)


def answer_source(name: str, namespace: dict) -> str | None:
    """The source of the last cell run in this kernel that defines `name` (IPython's history, as
    `history` reads it: the check's own calls left out), or None. The same lines are found wherever the
    learner wrote them: in the question's answer cell or in a cell of their own further down."""
    history = inputs_history(namespace)
    if history is None:
        return None
    pattern = defines_pattern(name)
    for cell in reversed(history):
        if isinstance(cell, str) and pattern.search(cell) and PROBE_MARK not in cell:
            return cell[:SOURCE_LIMIT]
    return None


CHECK_CALLS = ("check", "summary")  # the exercise's checker's methods a learner may call in an answer's own cell


def _check_call(stmt) -> bool:
    """Is this top-level statement a call of the exercise's check (`ex.check("name")`, `ex.summary()`),
    not the learner's code? A method of that name on a plain name, with nothing but a question's name
    (a string) as its argument."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    call = stmt.value
    if not (isinstance(call.func, ast.Attribute) and call.func.attr in CHECK_CALLS
            and isinstance(call.func.value, ast.Name)):
        return False
    if call.func.attr == "summary":
        return not call.args and not call.keywords
    return (len(call.args) == 1 and not call.keywords and isinstance(call.args[0], ast.Constant)
            and isinstance(call.args[0].value, str))


@functools.lru_cache(maxsize=512)
def without_checks(cell: str) -> str:
    """A cell with the check's own calls taken out (`cos_pair = cosine(...); ex.check("cos_pair")`, or
    the call on a line of its own): what is left is the learner's code, read and run again as if it
    were in the answer cell (the call names the answer as a string, reads the checker, and would run
    the check inside the check). Every other character is kept (comments, the `# YOUR CODE HERE`
    marker); unchanged when it holds no such call or does not parse."""
    if not isinstance(cell, str) or not any(f".{m}(" in cell for m in CHECK_CALLS):
        return cell
    try:
        tree = ast.parse(cell)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return cell
    calls = [stmt for stmt in tree.body if _check_call(stmt)]
    if not calls:
        return cell
    lines = cell.split("\n")
    for stmt in reversed(calls):  # from the end, so that earlier positions stay where they are
        first, last = stmt.lineno - 1, stmt.end_lineno - 1
        head, tail = lines[first][:stmt.col_offset], lines[last][stmt.end_col_offset:]
        head = re.sub(r";\s*$", "", head)  # the `;` that joined it to the statement before
        tail = re.sub(r"^\s*;\s*", "", tail) if head.strip() == "" else tail
        joined = (head.rstrip() if head.strip() else head) + (tail if head.strip() else tail.lstrip())
        lines[first:last + 1] = [joined] if joined.strip() else []
    return "\n".join(lines)


def inputs_history(namespace: dict) -> list | None:
    """IPython's input history (``_ih``, else ``In``) as the grading reads it: each cell with the check's
    own calls taken out (without_checks), so that an answer written with its check in the same cell, or
    in a new cell, is read as the same code as in its answer cell. None when there is no history."""
    history = namespace.get("_ih") or namespace.get("In")
    if not isinstance(history, (list, tuple)):
        return None
    return [without_checks(cell) if isinstance(cell, str) else cell for cell in history]


PROBE_MARK = "embedlab.grading.wire"  # the grader's probe cell (its given lines name answers): never an answer cell


MARKER = "# YOUR CODE HERE"


def own_part(source: str | None) -> str | None:
    """The learner's own lines of an answer cell: what follows the exercise's `# YOUR CODE HERE`
    when the cell still holds it (the lines above are the exercise's), else the whole cell."""
    if not isinstance(source, str):
        return source
    at = source.rfind(MARKER)
    return source[at + len(MARKER):] if at >= 0 else source


def with_marker(source: str | None, own_given) -> str | None:
    """The answer cell with its `# YOUR CODE HERE` back where the handout had it, when the learner typed
    over it: after the cell's leading statements that are the exercise's own given lines (`own_given`,
    given_code's second part, as handed out), so that `own_part`, which every hint that reads code
    reads, holds only what the learner wrote. Unchanged when the marker is still there, when nothing
    is given or the cell does not parse."""
    if not isinstance(source, str) or MARKER in source or not own_given:
        return source
    handed = set(own_given)
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return source
    lines = source.split("\n")
    at = len(lines)
    for stmt in tree.body:
        mine = _code_lines(ast.get_source_segment(source, stmt) or "")
        if not mine or not all(line in handed for line in mine):
            at = stmt.lineno - 1
            while at > 0 and lines[at - 1].lstrip().startswith("#"):  # its own comment above it is the learner's
                at -= 1
            break
    if at == 0:
        return source  # nothing given leads the cell
    return "\n".join(lines[:at] + [MARKER] + lines[at:])


# --------------------------------------------------------------------------
# The code the exercise gives, as handed out

EXERCISES = Path(__file__).resolve().parents[3] / "exercises"  # a course checkout: lib/embedlab/grading/ -> exercises/
GIVEN_LINE = 80  # characters of a given line quoted in a hint


def _line(text: str) -> str:
    """A line as compared: its trailing comment left out, its spacing made single."""
    quote, i = None, 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            text = text[:i]
            break
        i += 1
    return " ".join(text.split())


def _code_lines(source: str) -> list[str]:
    return [line for line in map(_line, source.splitlines()) if line]


CODE_FACTS = Path(__file__).resolve().parent / "answers"  # NN-slug.code.json, written by `make exercises`


def _notebook_cells(path: Path):
    import json

    try:
        return json.loads(path.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


@functools.lru_cache(maxsize=None)
def code_facts(lesson: str) -> dict:
    """{"given": …, "foreign": …} of `lesson` as `make exercises` wrote them beside its answer key
    (answers/NN-slug.code.json), for a grader installed without the course's notebooks (Gradescope's
    bundle ships the library only); {} where there is none (the sandbox, which cannot see answers/)."""
    import json

    try:
        facts = json.loads((CODE_FACTS / f"{lesson}.code.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return facts if isinstance(facts, dict) else {}


SELF_STUDY, CLASS = "self-study", "class"  # the two modes a lesson's exercise is handed out in (exercise.Exercise)


def handed_out(source: str, lesson: str, mode: str = SELF_STUDY) -> str:
    """A code cell of the exercise as it is handed out in `mode`: as exercises/ holds it in self-study;
    in class mode as `embedlab-assign` writes it into each handout (embedlab.grading.assign.class_notebook
    makes every code cell with this function): the setup's `Exercise("NN-slug")` made
    `Exercise("NN-slug", mode="class")`. The one definition of what a learner was given, read by the
    grader, the notebook's check and the report alike."""
    if mode == SELF_STUDY:
        return source
    if mode != CLASS:
        raise ValueError(f"mode must be {SELF_STUDY!r} or {CLASS!r}, got mode={mode!r}")
    pattern = re.compile(rf"""Exercise\(\s*(["']){re.escape(lesson)}\1\s*\)""")
    return pattern.sub(f'Exercise("{lesson}", mode="{CLASS}")', source)


@functools.lru_cache(maxsize=None)
def given_code(lesson: str, mode: str = SELF_STUDY) -> dict:
    """{question name: (the lines of every cell above its answer cell that the exercise gives whole
    (not another answer, not a check, not the parameters cell, whose values a class handout
    changes), the answer cell's own lines above `# YOUR CODE HERE`)}, as handed out in `mode`
    (`handed_out`: a class handout's setup line is its own). Read from exercises/NN-slug.ipynb,
    else from what `make exercises` wrote of it (code_facts; each line made as handed out, the
    transformation being one of single lines); {} where there is neither."""
    cells = _notebook_cells(EXERCISES / f"{lesson}.ipynb")
    if cells is None:
        given = code_facts(lesson).get("given")
        if not isinstance(given, dict):
            return {}
        made = functools.partial(handed_out, lesson=lesson, mode=mode)
        return {k: (tuple(_line(made(x)) for x in v[0]), tuple(_line(made(x)) for x in v[1])) for k, v in given.items()}
    return given_code_of(cells, lesson, mode)


def code_cells_of(cells):
    """(source, is the parameters cell) of each code cell of a notebook's cells (JSON), in order."""
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        yield source, "parameters" in ((cell.get("metadata") or {}).get("tags") or [])


CHECK_CALL = re.compile(r"""ex\.(?:check\(\s*["'][A-Za-z_][A-Za-z0-9_]*["']\s*\)|summary\(\s*\))""")
CHECK_CELL = re.compile(r"""\s*ex\.check\(\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*\)\s*""")


def given_code_of(cells, lesson: str = "", mode: str = SELF_STUDY) -> dict:
    """given_code of an exercise notebook's cells (JSON), as handed out in `mode`."""
    code = [(handed_out(source, lesson, mode), parameters) for source, parameters in code_cells_of(cells)]
    out, given = {}, []
    for i, (source, parameters) in enumerate(code):
        check = CHECK_CELL.fullmatch(source)
        if check and i > 0 and MARKER in code[i - 1][0]:
            above = code[i - 1][0][:code[i - 1][0].rfind(MARKER)]
            out[check.group(1)] = (tuple(given), tuple(_code_lines(above)))
        elif MARKER not in source and not parameters and not re.match(r"\s*ex\.(check|summary)\(", source):
            given += _code_lines(source)
    return out


def own_statements(source: str, given, by_syntax: bool = False) -> list | None:
    """The learner's own top-level statements of a cell (syntax trees): those of `source` not made only of
    lines the exercise gives (`given`, lines as given_code holds them: a statement of several lines, a
    given call spread over three, is the exercise's when each of its lines is); with `by_syntax`, nor
    equal as syntax to a given line that is a statement of its own (its quotes changed). None when it
    does not parse. What the second look runs again (embedlab.grading.elsewhere.learner_lines) and
    what the report compares between learners (embedlab.grading.report.normalised_code, by syntax)."""
    handed = {line for line in given if isinstance(line, str)}
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    whole = set()  # a given line that is a statement of its own, as syntax: found whatever its quotes
    for line in handed if by_syntax else ():
        try:
            body = ast.parse(line).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        if len(body) == 1:
            whole.add(ast.dump(body[0]))
    kept = []
    for stmt in tree.body:
        lines = _code_lines(ast.get_source_segment(source, stmt) or "")
        if lines and all(line in handed for line in lines) or ast.dump(stmt) in whole:
            continue
        kept.append(stmt)
    return kept


def inner_locals(tree: ast.AST) -> frozenset:
    """The names a cell binds only inside an inner scope (a lambda's or a function's parameters and locals, a
    comprehension's targets) and never uses as a global there or at the top: `lambda kv: kv[1]` reads no `kv` of
    the notebook, though the notebook may hold one (lesson 11's KV-cache precision). Read with the compiler's own
    symbol table; empty when the code cannot be read so."""
    import symtable

    try:
        top = symtable.symtable(ast.unparse(tree), "<cell>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError, TypeError, AttributeError):
        return frozenset()
    outer = {s.get_name() for s in top.get_symbols()}
    inner = set()
    stack = list(top.get_children())
    while stack:
        table = stack.pop()
        for s in table.get_symbols():
            (outer if s.is_global() or s.is_declared_global() else inner).add(s.get_name())
        stack.extend(table.get_children())
    return frozenset(inner - outer)


def _names_read(source: str) -> set:
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


SOLUTIONS = EXERCISES.parent / "solutions"


@functools.lru_cache(maxsize=None)
def foreign_inputs(lesson: str) -> dict:
    """{question name: the names of the parameters cell its answer never depends on}, from the solution:
    every top-level statement of its code cells, in order, passes on what it reads (the parameters, and
    through names set before, what those were made from) to the names it sets; an answer depends on what
    its name was made from, and on every parameter its own cell reads. The others are inputs of other
    questions (question 1's `linear_in` where question 2's d comes from its model: equal in the book):
    an answer that changes with one is right on these inputs only. Read from the course's exercises/
    (which names the parameters cell sets) and solutions/; {} where they are not (the library installed
    without the course)."""
    cells, solved = _notebook_cells(EXERCISES / f"{lesson}.ipynb"), _notebook_cells(SOLUTIONS / f"{lesson}.ipynb")
    if cells is None or solved is None:
        foreign = code_facts(lesson).get("foreign")
        return {k: frozenset(v) for k, v in foreign.items()} if isinstance(foreign, dict) else {}
    return foreign_inputs_of(cells, solved)


@functools.lru_cache(maxsize=None)
def solution_prefix(lesson: str) -> tuple:
    """(cells, upto): the solution notebook's code cells as (source, is the parameters cell), checks and the
    summary left out, and {question name: how many of them come before its answer cell}. What the second
    look runs on other parameters before an answer cell (embedlab.grading.elsewhere), so that what the
    exercise and the earlier answers make from the parameters (lesson 11's BUDGET, its design's figures)
    is made from the look's. From solutions/, else from code_facts; ((), {}) where there is neither."""
    solved = _notebook_cells(SOLUTIONS / f"{lesson}.ipynb")
    if solved is None:
        found = code_facts(lesson).get("prefix")
        try:
            cells = tuple((str(source), bool(parameters)) for source, parameters in found["cells"])
            return cells, {str(k): int(v) for k, v in found["upto"].items()}
        except (TypeError, KeyError, ValueError, AttributeError):
            return (), {}
    return solution_prefix_of(solved)


def solution_prefix_of(solved) -> tuple:
    """solution_prefix of a solution notebook's cells (JSON)."""
    cells, upto = [], {}
    for source, parameters in code_cells_of(solved):
        if CHECK_CELL.fullmatch(source) or re.search(r"\bex\.(check|summary)\(", source):
            continue
        if "# BEGIN SOLUTION" in source:
            try:
                tree = ast.parse(source)
            except SyntaxError:
                tree = ast.Module(body=[], type_ignores=[])
            for node in tree.body:
                for target in node.targets if isinstance(node, ast.Assign) else []:
                    if isinstance(target, ast.Name):
                        upto.setdefault(target.id, len(cells))
        cells.append((source, parameters))
    return tuple(cells), upto


@functools.lru_cache(maxsize=None)
def solution_cells(lesson: str) -> dict:
    """{question name: the solution's whole answer cell (its given lines and its solution)}: what the
    second look runs on other parameters for the answer there (embedlab.grading.elsewhere). Read from
    solutions/, else from what `make exercises` wrote of it (code_facts); {} where there is neither.
    (The solutions are public: the course ships them.)"""
    solved = _notebook_cells(SOLUTIONS / f"{lesson}.ipynb")
    if solved is None:
        cells = code_facts(lesson).get("solution")
        return dict(cells) if isinstance(cells, dict) else {}
    return solution_cells_of(solved)


def solution_source(lesson: str, name: str) -> str | None:
    """The solution's own code of question `name` of `lesson`: its answer cell (solution_cells), or the solution
    notebook's cell that defines the function `name`; None where neither is known (a grader installed without
    the course's notebooks, for a function)."""
    if not lesson or not name:
        return None
    cell = solution_cells(lesson).get(name)
    if cell is not None:
        return cell
    return _solution_functions(lesson).get(name)


@functools.lru_cache(maxsize=None)
def _solution_functions(lesson: str) -> dict:
    """{function name: the solution notebook's cell that defines it}."""
    out = {}
    for cell in _notebook_cells(SOLUTIONS / f"{lesson}.ipynb") or []:
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        out.update({n.name: source for n in tree.body if isinstance(n, ast.FunctionDef)})
    return out


def solution_cells_of(solved) -> dict:
    """solution_cells of a solution notebook's cells (JSON)."""
    out = {}
    for cell in solved:
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if "# BEGIN SOLUTION" not in source:
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else []
            out.update({t.id: source for t in targets if isinstance(t, ast.Name)})
    return out


def foreign_inputs_of(cells, solved) -> dict:
    """foreign_inputs of an exercise's and its solution's cells (JSON)."""

    def text(cell):
        source = cell.get("source", "")
        return "".join(source) if isinstance(source, list) else str(source)

    def tagged(cell):
        return "parameters" in ((cell.get("metadata") or {}).get("tags") or [])

    parameters = set()
    try:
        for cell in cells:
            if cell.get("cell_type") == "code" and tagged(cell):
                parameters |= {t.id for node in ast.parse(text(cell)).body if isinstance(node, ast.Assign)
                               for t in node.targets if isinstance(t, ast.Name)}
        if not parameters:
            return {}
        made_from: dict = {}  # name -> the parameters it was made from
        ambient: set = set()  # parameters read by a statement that sets no name (a seed set, a file written)
        out = {}
        for cell in solved:
            if cell.get("cell_type") != "code" or tagged(cell) or re.match(r"\s*ex\.", text(cell)):
                continue
            tree = ast.parse(text(cell))
            for node in tree.body:
                reads = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
                deps = (reads & parameters).union(*(made_from.get(r, set()) for r in reads))
                targets = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
                if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                    targets.add(node.name)
                for t in targets - parameters:
                    # a name assigned anew is made from what this statement reads only (`config` loaded again from
                    # another parameter); one updated (`x += …`, a loop) keeps what it was made from
                    made_from[t] = deps if isinstance(node, (ast.Assign, ast.AnnAssign)) \
                        else made_from.get(t, set()) | deps
                shown = isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) \
                    and isinstance(node.value.func, ast.Name) and node.value.func.id in ("print", "display")
                if not targets and not shown:  # (a print shows a value: it sets nothing any answer reads)
                    ambient |= deps
            if "# BEGIN SOLUTION" in text(cell):
                in_cell = _names_read(text(cell)) & parameters
                for node in tree.body:
                    for t in (node.targets if isinstance(node, ast.Assign) else
                              [ast.Name(id=node.name)] if isinstance(node, ast.FunctionDef) else []):
                        if isinstance(t, ast.Name):
                            out[t.id] = frozenset(parameters - made_from.get(t.id, set()) - in_cell - ambient)
        return out
    except (SyntaxError, ValueError, RecursionError):
        return {}


@dataclass(frozen=True)
class Edit:
    """A line of the code the exercise gives that the learner edited: `given` as handed out, `now` the
    line close to it that took its place (both as compared: `_line`), `in_answer` whether it is one of
    the answer cell's own given lines (else a line of a given cell above it)."""

    given: str
    now: str
    in_answer: bool

    def words(self) -> str:
        """The hint that blames it: said only when putting it back gives the right answer (see
        embedlab.grading.elsewhere.as_handed_out, the counterfactual)."""
        return (f"the code the exercise gives was changed: `{_cut(self.given)}` is now `{_cut(self.now)}`; "
                "the answer follows from the code as handed out: put that line back and run the cells again")

    def mention(self) -> str:
        """A clause that names it without blaming it (its counterfactual did not show it is the cause)."""
        return f"(you also changed a line the exercise gives: `{_cut(self.given)}` is now `{_cut(self.now)}`)"


def edits_of(above, own, sources, answer: str | None = None) -> list[Edit]:
    """The lines of given code (`above`: the given cells' lines, `own`: the answer cell's given lines,
    as given_code holds them) that the learner edited, the answer cell's first. The answer cell's own
    given lines are looked for first in `answer` (the submitted cell that defines the answer, when
    known), then, as those of the given cells above, in any of the submitted code cells' `sources`:
    a line found as handed out is unchanged; one not found, with a line close to it (an argument
    changed) that the exercise does not give, was edited. A line only missing is not an edit (the
    answer may sit in a cell of its own)."""
    if not (above or own) or not isinstance(sources, (list, tuple)):
        return []
    import difflib

    everywhere = []
    for source in sources:
        if isinstance(source, str):
            everywhere += _code_lines(source[:SOURCE_LIMIT])
    cell = _code_lines(answer[:SOURCE_LIMIT]) if isinstance(answer, str) else []
    given = set(above) | set(own)
    # a given cell above is edited in a cell of its own: the answer cell's lines are the learner's own (their
    # `batch=16` beside the given `batch=1` is no edit of it), unless the answer cell is a copy of a given cell
    # (it holds another of the given lines above, as handed out)
    copied = any(line in cell for line in above if len(line) > 8 and not line.endswith(":") and line not in own)
    others = [] if not cell or copied else [
        line for source in sources if isinstance(source, str) and source != answer
        for line in _code_lines(source[:SOURCE_LIMIT])]
    out, seen = [], set()
    for line in tuple(own) + tuple(reversed(above)):  # the answer cell's own given lines first, then the cells above
        if line.startswith(("print(", "display(")) or line in seen:
            continue
        seen.add(line)
        above_in = everywhere if not cell or copied else others
        for theirs in ((cell, everywhere) if line in own else (above_in,)):
            if line in theirs:
                break
            close = difflib.get_close_matches(line, [t for t in theirs if t not in given], n=1, cutoff=0.75)
            if close:
                out.append(Edit(line, close[0], line in own and theirs is cell))
                break
    return out


def given_edits(lesson: str, name: str, sources, answer: str | None = None, mode: str = SELF_STUDY) -> list[Edit]:
    """`edits_of` the code the exercise gives for question `name`, as handed out in `mode`."""
    above, own = given_code(lesson, mode).get(name, ((), ()))
    return edits_of(above, own, sources, answer)


def given_changed(lesson: str, name: str, sources, answer: str | None = None, mode: str = SELF_STUDY) -> str | None:
    """The words of the first edit of the given code for question `name` (`given_edits`), or None. Which
    edit a hint may blame is decided by its counterfactual (embedlab.grading.elsewhere.as_handed_out):
    this only says what was edited."""
    found = given_edits(lesson, name, sources, answer, mode)
    return found[0].words() if found else None


RIGHT, SAME, OTHER = "right", "same", "other"  # what the answer is with the edits put back as handed out


def edit_hint(detail: str, edits, counterfactual: str | None, other: str | None = None) -> str:
    """The hint of a wrong answer whose cells edited the code the exercise gives (`edits`, harmless ones
    left out: `harmless`), from its counterfactual, the answer with the edited lines put back as handed
    out (embedlab.grading.elsewhere.as_handed_out): RIGHT, the edit explains the answer and is blamed;
    SAME, it changes nothing, and the answer's own hint stands alone; OTHER, another wrong answer: the
    hint of that answer (`other`: the mistake left once the edit is undone, the learner's own), the edit
    mentioned after it; the cells raise then, or None (not known): the answer's own hint, the edit
    mentioned after it."""
    if not edits:
        return detail
    if counterfactual == RIGHT:
        return edits[0].words()
    if counterfactual == SAME:
        return detail
    said = other if counterfactual == OTHER and other else detail
    return f"{said} {edits[0].mention()}" if said else edits[0].mention()


def restored(source: str, edits) -> str | None:
    """`source` with each edited line (`Edit.now`) put back as handed out (`Edit.given`, at the edited
    line's indentation), or None when none of them is in it."""
    if not isinstance(source, str):
        return None
    lines, hit = source.split("\n"), False
    for edit in edits:
        for i, raw in enumerate(lines):
            if _line(raw) == edit.now:
                lines[i] = raw[:len(raw) - len(raw.lstrip())] + edit.given
                hit = True
    return "\n".join(lines) if hit else None


def names_set(source: str) -> set | None:
    """The names a piece of code sets (assigns, defines, imports), or None when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
    return out


def harmless(edit: Edit, sources, answer: str | None) -> bool:
    """Can the edit not change the answer, read from the code alone (sound: True only when it cannot)?
    Both the line as handed out and the edited one are whole statements that only set names (no call
    that acts on something else: `ex = Exercise(…)` as a handout sets it), and no statement of the
    submitted cells that reads one of those names, or a name made from them, is run for the answer:
    the names flow nowhere that the answer cell reads."""
    tainted = set()
    for line in (edit.given, edit.now):
        try:
            body = ast.parse(line).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
        if len(body) != 1 or not isinstance(body[0], (ast.Assign, ast.AnnAssign, ast.Import, ast.ImportFrom)):
            return False
        if isinstance(body[0], (ast.Assign, ast.AnnAssign)) and not all(
                isinstance(t, ast.Name) for t in (body[0].targets if isinstance(body[0], ast.Assign)
                                                  else [body[0].target])):
            return False  # x.attr = … or x[i] = … changes a value others hold
        tainted |= names_set(line) or set()
    statements = []
    for source in [*(sources if isinstance(sources, (list, tuple)) else []), answer]:
        if not isinstance(source, str):
            continue
        try:
            statements += ast.parse(source[:SOURCE_LIMIT]).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    grew = True
    while grew:
        grew = False
        for stmt in statements:
            reads = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            if not reads & tainted:
                continue
            if isinstance(stmt, ast.Expr) and CHECK_CALL.fullmatch(ast.unparse(stmt)):
                continue  # the exercise's own check or summary: it prints, and sets nothing
            if not isinstance(stmt, ast.Assign) or not all(isinstance(t, ast.Name) for t in stmt.targets):
                return False  # anything else that reads them may act on what others hold
            new = {t.id for t in stmt.targets} - tainted
            if new:
                tainted |= new
                grew = True
    if not isinstance(answer, str):
        return False
    return not (_names_read(answer[:SOURCE_LIMIT]) & tainted) and bool(tainted)


def _cut(line: str) -> str:
    return line if len(line) <= GIVEN_LINE else line[:GIVEN_LINE - 1] + "…"


# --------------------------------------------------------------------------
# What a source does


@dataclass
class Reading:
    """What one answer cell does, read from its syntax tree."""

    names: set = field(default_factory=set)          # every name it reads (Load)
    strings: list = field(default_factory=list)      # string constants (model names, keys)
    numbers: list = field(default_factory=list)      # numeric constants typed in it
    floordiv: bool = False
    truediv: bool = False
    times_100: bool = False
    calls: set = field(default_factory=set)          # called function names (last part: sorted, count_nonzero…)
    hard_coded: bool = False                         # `name = <a number>` with nothing computed
    columns: bool = False                            # indexes columns: x[:, ids]
    shift_one: bool = False                          # an index moved by one: ids - 1, i + 1, np.eye(V, k=1)
    filters: bool = False                            # a comprehension that leaves items out (`… if …`)
    attrs: set = field(default_factory=set)          # attributes read: .T, .shape, .sum …
    compares: set = field(default_factory=set)       # comparison operators written: <, >, !=, ==
    keywords: dict = field(default_factory=dict)     # keyword arguments given a constant: {"axis": 0, "errors": "ignore"}
    constants: list = field(default_factory=list)    # values of constant-only expressions (256 * 1024, 2**30)
    call_keywords: set = field(default_factory=set)  # a call with a constant keyword: "norm(axis=0)", "unique(axis=0)"
    operands: list = field(default_factory=list)     # the numbers inside those expressions (256 of 256 * 1024)
    parsed: bool = False


def read(source: str | None, name: str | None = None) -> Reading:
    """What `source` does (nothing when it is None or does not parse)."""
    out = Reading()
    if not isinstance(source, str) or not source.strip():
        return out
    try:
        tree = ast.parse(source[:SOURCE_LIMIT])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return out
    out.parsed = True
    try:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                out.names.add(node.id)
            elif isinstance(node, ast.Constant):
                if isinstance(node.value, str):
                    out.strings.append(node.value)
                elif isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
                    out.numbers.append(node.value)
            elif isinstance(node, ast.BinOp):
                if isinstance(node.op, ast.FloorDiv):
                    out.floordiv = True
                elif isinstance(node.op, ast.Div):
                    out.truediv = True
                elif isinstance(node.op, ast.Mult) and any(
                        isinstance(side, ast.Constant) and side.value in (100, 100.0) for side in (node.left, node.right)):
                    out.times_100 = True
            elif isinstance(node, ast.AugAssign) and isinstance(node.op, ast.FloorDiv):
                out.floordiv = True
            elif isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
                if called:
                    out.calls.add(called)
                    for kw in node.keywords:  # norm(axis=0): which call is given which constant
                        if kw.arg and isinstance(kw.value, ast.Constant):
                            out.call_keywords.add(f"{called}({kw.arg}={kw.value.value})")
            elif isinstance(node, ast.Subscript):
                index = node.slice
                if isinstance(index, ast.Constant) and isinstance(index.value, str):
                    out.strings.append(index.value)
                if isinstance(index, ast.Tuple) and index.elts and isinstance(index.elts[0], ast.Slice) \
                        and index.elts[0].lower is None and index.elts[0].upper is None and len(index.elts) == 2 \
                        and not isinstance(index.elts[1], (ast.Slice, ast.Constant)):
                    out.columns = True
                if _moved_by_one(index):
                    out.shift_one = True
            if isinstance(node, ast.keyword) and isinstance(node.value, ast.Constant):
                out.keywords[node.arg] = node.value.value
                if node.arg == "k" and node.value.value in (1, -1):
                    out.shift_one = True
            if isinstance(node, ast.DictComp) and _moved_by_one(node.value):
                out.shift_one = True
            if isinstance(node, ast.comprehension) and node.ifs:
                out.filters = True
            if isinstance(node, ast.Attribute):
                out.attrs.add(node.attr)
            if isinstance(node, ast.Compare):
                out.compares.update(_OPS.get(type(op), "?") for op in node.ops)
        if name is not None:
            out.hard_coded = _hard_coded(tree, name)
        inside = []
        out.constants = [v for v in constant_values(source, inside) if v not in out.numbers]
        out.operands = inside
    except RecursionError:
        return Reading()
    return out


_OPS = {ast.Lt: "<", ast.Gt: ">", ast.LtE: "<=", ast.GtE: ">=", ast.NotEq: "!=", ast.Eq: "=="}


def features(reading: Reading) -> set:
    """What a cell uses, as tokens a question can name (`needs`, `avoids`): every name, call,
    attribute (`.T`) and string it reads, comparison operators, `//`, `* 100`, `filter` (a
    comprehension with `if`), `columns` (x[:, …]), `shift` (an index ± 1), and `key=value` for
    keyword arguments given a constant (`axis=0`, `errors=ignore`)."""
    out = set(reading.names) | set(reading.calls) | set(reading.strings) | {f".{a}" for a in reading.attrs}
    out |= set(reading.compares)
    out |= {f"{k}={v}" for k, v in reading.keywords.items()}
    out |= set(reading.call_keywords)
    for flag, token in ((reading.floordiv, "//"), (reading.times_100, "* 100"), (reading.filters, "filter"),
                        (reading.columns, "columns"), (reading.shift_one, "shift")):
        if flag:
            out.add(token)
    return out


def _moved_by_one(node) -> bool:
    """An index moved by one: `i - 1`, `ids + 1` (inside a subscript, a comprehension or a dict of ids)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, (ast.Add, ast.Sub)) \
                and isinstance(sub.right, ast.Constant) and sub.right.value == 1:
            return True
    return False


def _number_expr(node) -> bool:
    """An expression of numeric constants only (`8_030_261_248`, `4096 * 2`, `-1.5e9`)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _number_expr(node.operand)
    if isinstance(node, ast.BinOp):
        return _number_expr(node.left) and _number_expr(node.right)
    return False


def constant_values(source: str | None, operands: list | None = None) -> list:
    """The values of the largest constant-only expressions a cell types (`256 * 1024`, `2**30`,
    `15e9`): what a learner typed by hand, computed, each once."""
    if not isinstance(source, str):
        return []
    try:
        tree = ast.parse(source[:SOURCE_LIMIT])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    out = []

    def visit(node):
        if isinstance(node, (ast.BinOp, ast.UnaryOp)) and _number_expr(node):
            value = _value(node)
            if value is not None:
                out.append(value)
                if operands is not None:
                    operands.extend(n.value for n in ast.walk(node) if isinstance(n, ast.Constant))
            return
        for child in ast.iter_child_nodes(node):
            visit(child)
    try:
        visit(tree)
    except RecursionError:
        return []
    return out


def _value(node):
    """A constant-only expression's value (small powers only), or None: never anything but a finite
    int or float (`(-8) ** 0.5` folds to a complex number, which is no typed number: None), so the
    hints that read typed numbers get only real ones."""
    try:
        if isinstance(node, ast.Constant):
            v = node.value
        elif isinstance(node, ast.UnaryOp):
            v = _value(node.operand)
            v = None if v is None else (-v if isinstance(node.op, ast.USub) else v)
        else:
            a, b = _value(node.left), _value(node.right)
            if a is None or b is None:
                return None
            if isinstance(node.op, ast.Pow):
                v = a ** b if abs(b) <= 64 and abs(a) <= 1e6 else None
            else:
                ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
                       ast.Div: lambda: a / b, ast.FloorDiv: lambda: a // b}
                f = ops.get(type(node.op))
                v = f() if f else None
        real = isinstance(v, (int, float)) and not isinstance(v, bool)
        return v if real and math.isfinite(v) and abs(v) < 1e30 else None
    except (ArithmeticError, ValueError, TypeError, OverflowError):
        return None


def assigned_constants(source: str | None) -> dict:
    """{name: value} of the top-level `name = <constants only>` lines of a cell (`d = 768`)."""
    if not isinstance(source, str):
        return {}
    try:
        tree = ast.parse(source[:SOURCE_LIMIT])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and _number_expr(node.value):
            value = _value(node.value)
            if value is not None:
                out[node.targets[0].id] = value
    return out


def _hard_coded(tree, name: str) -> bool:
    """The cell's last assignment of `name` is a number typed in (constants only)."""
    last = None
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and node.value is not None:
            last = node.value
    return last is not None and _number_expr(last) and not (isinstance(last, ast.Constant) and last.value == 0)


# --------------------------------------------------------------------------
# Findings: what of the source explains a wrong value


def typed_input(reading: Reading, inputs: dict) -> str | None:
    """A typed number that is a rounded or mistyped input: 128,000 where V is 128,256.

    `inputs` is {words for the input: its exact value}, the variant's own values (an input is
    in the question, so naming it gives nothing away)."""
    for typed in list(reading.constants) + list(reading.numbers):  # 256 * 1024 before its 256
        if isinstance(typed, bool) or typed == 0 or not math.isfinite(typed):
            continue
        for words, value in inputs.items():
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value == 0 or typed == value:
                continue
            if abs(value) < 100 or abs(typed) < 100:  # small counts (2, 4, 12, 32 bits) are typed on purpose
                continue
            if any(typed == other for other in inputs.values()):
                continue
            rel = abs(typed - value) / abs(value)
            if rel < 0.03 and (_rounded_of(typed, value) or _mistyped(typed, value) or _binary(typed, value)):
                return (f"you typed {_fmt(typed)} where {words} is {_fmt(value)}: use the exact value "
                        "(read it from the parameters or the config), not a rounded or retyped one")
            for factor, unit in ((1e3, "thousands"), (1e-3, "thousands"), (1e6, "millions"), (1e-6, "millions")):
                if math.isclose(typed, value * factor, rel_tol=1e-9):
                    way = "smaller" if factor > 1 else "bigger"
                    return (f"you typed {_fmt(typed)} where {words} is {_fmt(value)}: {_fmt(round(max(factor, 1 / factor)))} "
                            f"times {way} (a unit slip: {unit}, billions for trillions?); read it from the inputs")
    return None


def _binary(typed, value) -> bool:
    """256K read as 256 · 1,024 (or 2**18): a binary prefix where a decimal one is meant, or the reverse."""
    for n in (1, 2, 3):
        for a, b in ((1024, 1000), (1000, 1024)):
            if float(typed).is_integer() and typed % a**n == 0 and math.isclose(typed / a**n * b**n, value, rel_tol=1e-9):
                return True
    return False


def _rounded_of(typed, value) -> bool:
    for k in range(1, 8):
        if float(f"{value:.{k}g}") == typed:
            return True
        scale = 10.0 ** (math.floor(math.log10(abs(value))) - k + 1)
        if math.trunc(value / scale) * scale == typed:
            return True
    return False


def _mistyped(typed, value) -> bool:
    """A digit changed, dropped, doubled or two swapped."""
    a, b = str(int(typed)) if float(typed).is_integer() else str(typed), \
        str(int(value)) if float(value).is_integer() else str(value)
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    return False


def _fmt(x) -> str:
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:
        x = int(x)
    return f"{x:,}" if isinstance(x, int) else f"{x:g}"


def wrong_reads(reading: Reading, wanted: tuple, others: dict) -> str | None:
    """The answer reads the wrong parameter or config: `others` is {parameter name or model name:
    words} of inputs that belong to other questions; `wanted` what this question needs."""
    read_names = set(reading.names) | set(reading.strings)
    if not read_names or any(w in read_names for w in wanted):
        return None
    for other, words in others.items():
        if other in read_names:
            return words
    return None


# --------------------------------------------------------------------------
# The answer cell as a formula, on other inputs


class _NotArithmetic(Exception):
    """The cell does something this reading does not follow (a call it does not know, a loop)."""


def _ceil_multiple(n, m):
    return -(-n // m) * m


# pure functions a formula may call; anything else makes the reading give up (never run)
_PURE = {"max": max, "min": min, "abs": abs, "int": int, "round": round, "ceil": math.ceil,
         "floor": math.floor, "padded_size": _ceil_multiple, "divmod": divmod}
_BIG = 10 ** 30  # larger intermediate values: not a count, give up


def _eval(node, env: dict):
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise _NotArithmetic(node.id)
        return env[node.id]
    if isinstance(node, ast.Attribute) and f".{node.attr}" in env:  # shape.vocab_size, given as ".vocab_size"
        return env[f".{node.attr}"]
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
            and f"[{node.slice.value!r}]" in env:  # config["vocab_size"], given as "['vocab_size']"
        return env[f"[{node.slice.value!r}]"]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _eval(node.operand, env)
        return -v if isinstance(node.op, ast.USub) else +v
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left, env), _eval(node.right, env)
        op = type(node.op)
        if op is ast.Pow and (abs(b) > 64 or abs(a) > 10 ** 6):
            raise _NotArithmetic("**")
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b, ast.Div: lambda: a / b,
               ast.FloorDiv: lambda: a // b, ast.Mod: lambda: a % b, ast.Pow: lambda: a ** b}
        if op not in ops:
            raise _NotArithmetic(op.__name__)
        try:
            out = ops[op]()
        except (ArithmeticError, ValueError, TypeError):
            raise _NotArithmetic("arithmetic") from None
        if isinstance(out, (int, float)) and abs(out) > _BIG:
            raise _NotArithmetic("too large")
        return out
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and not node.keywords and 1 <= len(node.args) <= 2 and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):  # config.get("head_dim", d // h): the field, else the default
        key = f"[{node.args[0].value!r}]"
        if key in env:
            return env[key]
        if len(node.args) == 2:
            return _eval(node.args[1], env)
        raise _NotArithmetic("get")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and f"{node.func.id}()" in env:
        return env[f"{node.func.id}()"]  # n_tokens(vocab_model), given as "n_tokens()"
    if isinstance(node, ast.Call) and not node.keywords:
        func = node.func.attr if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) \
            and node.func.value.id in ("math", "np", "numpy") else node.func.id if isinstance(node.func, ast.Name) else None
        if func not in _PURE:
            raise _NotArithmetic(str(func))
        args = [_eval(a, env) for a in node.args]
        try:
            return _PURE[func](*args)
        except (ArithmeticError, ValueError, TypeError):
            raise _NotArithmetic(func) from None
    if isinstance(node, ast.Tuple):
        return tuple(_eval(e, env) for e in node.elts)
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) <= 64:
        return node.value  # a key of a lookup table ({"bf16": 2, ...}["bf16"])
    if isinstance(node, ast.Dict) and len(node.keys) <= 64 and all(k is not None for k in node.keys):
        return {_eval(k, env): _eval(v, env) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.Subscript):
        table, key = _eval(node.value, env), _eval(node.slice, env)
        if not isinstance(table, dict) or key not in table:
            raise _NotArithmetic("subscript")
        return table[key]
    raise _NotArithmetic(type(node).__name__)


def _targets(target) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in _targets(e)]
    return []


def _course_table(module: str | None, level: int, name: str) -> dict | None:
    """A table of numbers the course's package exports by `name` (BYTES_PER_PARAM: bytes per number of
    each format), as `from embedlab import name` gives it to a cell; None for anything else: another
    package, a relative import, a function, a table of anything but numbers."""
    if module != "embedlab" or level:
        return None
    import embedlab  # here, not at the top: reading a cell needs the package only for its tables

    try:
        table = getattr(embedlab, name)
    except AttributeError:
        return None
    if not isinstance(table, dict) or not 0 < len(table) <= 64:
        return None
    if not all(isinstance(k, str) and isinstance(v, (int, float)) and not isinstance(v, bool)
               for k, v in table.items()):
        return None
    return dict(table)


@functools.lru_cache(maxsize=256)
def _parsed(source: str) -> ast.Module:
    """The cell's tree for `evaluate`, parsed once: a search reads one cell under many inputs (each slip undone,
    each look). `evaluate` only reads the tree, never changes it (an error is raised anew each time)."""
    return ast.parse(source)


def evaluate(source: str | None, name: str, inputs: dict, whole_tables: bool = False):
    """The answer `name` as the cell's own arithmetic gives it with `inputs` in place of those names:
    the cell read as a formula, never run. A name the cell assigns that is one of `inputs` takes the
    input's value instead (V = shape.vocab_size reads V); a statement that assigns nothing is passed
    over (a print); any other step the reading does not follow (a call it does not know, a loop, a
    name it cannot trace) gives None, and so does a hostile or unparsable source. An input named
    ".vocab_size" stands for any attribute of that name (shape.vocab_size), one named "['vocab_size']"
    for any subscript by that key (load_config(name)["vocab_size"]), one named "n_tokens()" for any
    call of that function (n_tokens(vocab_model)). A table of numbers imported from the course's
    package (`from embedlab import BYTES_PER_PARAM as BYTES`) is read as the package holds it; with
    `whole_tables` its whole numbers held as floats (2.0) are read as ints (2): does the float come from it?"""
    if not source or len(source) > SOURCE_LIMIT:
        return None
    try:
        tree = _parsed(source)
    except (SyntaxError, ValueError):
        return None
    env = {k: v for k, v in inputs.items() if isinstance(v, (int, float, str)) and not isinstance(v, bool)}
    unknown = set()
    try:
        for stmt in tree.body:
            if isinstance(stmt, ast.ImportFrom):  # the course's own tables are read, as the lessons read them
                for alias in stmt.names:
                    table = _course_table(stmt.module, stmt.level, alias.name)
                    if table is not None:
                        env[alias.asname or alias.name] = {k: int(v) if whole_tables and float(v).is_integer() else v
                                                           for k, v in table.items()}
                continue
            if isinstance(stmt, (ast.Import, ast.Pass)) or (
                    isinstance(stmt, ast.Expr) and not isinstance(stmt.value, ast.NamedExpr)):
                continue
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = [n for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])
                           for n in _targets(t)]
                if targets and all(t in inputs for t in targets):
                    continue  # the input itself, given
                try:
                    value = _eval(stmt.value, {k: v for k, v in env.items() if k not in unknown})
                    if isinstance(stmt, ast.AugAssign):
                        value = _eval(ast.BinOp(left=ast.Name(id=targets[0]), op=stmt.op,
                                                right=ast.Constant(value)), env)
                except _NotArithmetic:
                    unknown.update(targets)
                    continue
                if len(targets) == 1 and isinstance(stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target,
                                                    ast.Name):
                    env[targets[0]] = value
                    unknown.discard(targets[0])
                elif isinstance(value, tuple) and len(value) == len(targets):
                    env.update(zip(targets, value))
                    unknown.difference_update(targets)
                else:
                    unknown.update(targets)
                continue
            return None  # if, for, def, with …: not followed
    except RecursionError:
        return None
    if name in unknown or name not in env or not isinstance(env[name], (int, float)):
        return None
    return env[name]


_BYTES_WORDS = re.compile(r"byte|bf16|fp16|fp32|fp64|float16|float32|float64|itemsize|dtype|precision", re.I)


def names_bytes(source: str | None) -> bool:
    """Does the cell speak of bytes or a number format (bytes, bf16, float32, itemsize …)?"""
    return bool(source) and bool(_BYTES_WORDS.search(source[:SOURCE_LIMIT]))
