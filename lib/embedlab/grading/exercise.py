"""The check a learner runs in the notebook: ``Exercise(lesson).check(name)``.

It runs both halves of a question in the learner's kernel (``to_data``, then
``judge`` against the answer key) and prints one line: ✅ correct, ❌ not yet
(with a hint), or ⏳ not attempted yet (in a class handout, 📝 answered in the
right form: see Exercise). It never raises, so a blank exercise
still runs top to bottom. The grader does not read these lines: it probes the
answers itself (embedlab.grading.wire) and judges them in its own process.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import sys
import warnings
import textwrap


from embedlab.grading import changed
from embedlab.grading.cases import rng_for
from embedlab.grading.kinds import (MISSING, TYPED, Function, NotAttempted, Question, Verdict, WrongForm,
                                   answer_of, carried_data, points_text, typed_cell)
from embedlab.grading.code import (CLASS, OTHER, RIGHT, SAME, SOURCE_LIMIT, answer_source, edit_hint, given_code,
                                   MARKER, given_edits, inputs_history,
                                   harmless, restored, with_marker)
from embedlab.grading.earlier import carried_earlier, earlier_read, rerun, rerun_function
from embedlab.grading.earlier import hint as earlier_hint
from embedlab.grading.explain import with_source
from embedlab.grading.elsewhere import as_handed_out, run_elsewhere
from embedlab.grading.elsewhere import run_function_edits
from embedlab.grading.lessons import load_key, questions_for
from embedlab.grading.text import (as_sentences, broken_definition, did_not_parse,
                                   error_line, missing_words, raised_words)
from embedlab.grading.status import CORRECT, ERROR, INCORRECT, NOT_ATTEMPTED, TO_MARK, format_points
from embedlab.grading.variants import look_question, second_look, space_for
from embedlab.grading.verdicts import evaluate, untold_slips  # noqa: F401 - exercise's names too

# CLASS (code.CLASS): the mode of a class handout: form checks only, no answer key
# The typed-value rule: what the grader does with a number typed instead of computed (kinds.TYPED), said by
# the class handout's check before the deadline, the handout's introduction (TYPED_RULE), book/how-to-use.md
# and book/grading.md in these words (tests/test_written.py reads them there).
TYPED_WORDS = (f"{TYPED}: the grader reruns this cell on other inputs, where a typed value is no longer the answer: "
               "compute it from your parameters")
TYPED_RULE = ("Compute every answer from your parameters: a value typed instead of computed scores 0, "
              "because the grader reruns each answer cell on other inputs (unless your instructor's policy "
              "accepts typed values).")
INSTRUCTOR_LINE = ("Your score comes from your instructor's grader: these checks say only\n"
                   "whether each answer is there and in the right form, never whether it is right.")


class Exercise:
    """The checks of one lesson's exercise notebook.

    >>> ex = Exercise("01-toy-table")   # first code cell of the exercise
    >>> ex.check("n_params")            # after each answer cell

    In a class handout (``Exercise(lesson, mode="class")``, written by
    embedlab-assign) no answer key is read: a check says only whether the answer
    is there and in the right form (type, shape from the notebook's parameters),
    and that the score comes from the instructor. A function question is still
    checked in full: it is the same in every variant, so its check tells nothing
    about anyone's variant.
    """

    def __init__(self, lesson: str, mode: str = "self-study"):
        if mode not in ("self-study", CLASS):
            raise ValueError(f"mode must be 'self-study' or 'class', got mode={mode!r}")
        self.lesson, self.mode = lesson, mode
        self.questions = {q.name: q for q in questions_for(lesson)}
        self.key = load_key(lesson) if mode != CLASS else {}
        self._checking = set()  # questions whose earlier answers are being judged (earlier.hint): not again
        self.handed = None  # the parameters handed out, read when first needed: the book's (embedlab.grading.changed)
        watch_runs()

    def verdict(self, name: str, namespace: dict) -> Verdict:
        """Judge one question against a namespace (the notebook's globals). Never raises, and prints no warning:
        what the check runs (the learner's function on its inputs, their lines again on other inputs or with a
        slip undone, the course's code on those) is its own probing, not the learner's cell, whose warnings
        were printed when it ran. An answer not defined because its cell was run and raised is said to have
        raised, with the error's last line (`raised_in`): not "not attempted"."""
        question = self.questions[name]
        # the latest run of the cell that defines the answer (or an answer it is judged with) raised: said first,
        # even where the name still holds a value (left from an earlier run, or set before the error)
        for defined in (name, *getattr(question, "uses", ())):
            if defined not in namespace:
                continue
            error, cell = latest_raising_run(defined, namespace)
            if error:
                which = "your answer cell" if defined == name else f"the cell that defines `{defined}`"
                return Verdict(ERROR, 0.0, question.points,
                               raised_words(which, error, defined, cell))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            verdict = self._verdict(name, namespace)
        if verdict.status == INCORRECT:  # shown: colon-chained clauses as sentences
            verdict = dataclasses.replace(verdict, detail=as_sentences(verdict.detail))
        if verdict.status != NOT_ATTEMPTED:
            return verdict
        for missing in (name, *getattr(question, "uses", ())):
            if missing in namespace:
                continue
            error, cell = latest_raising_run(missing, namespace, defined=False)
            if error:
                which = "your answer cell" if missing == name else f"the cell that defines `{missing}`"
                return Verdict(ERROR, 0.0, verdict.max_points,
                               missing_words(which, error, missing, cell))
            break
        return verdict

    def _verdict(self, name: str, namespace: dict) -> Verdict:
        question = self.questions[name]
        value = answer_of(question, namespace)
        cell = answer_source(name, namespace)  # IPython's input history: the cell that defines it
        # the hints read the learner's own lines: the given ones (as handed out) marked off as in the handout
        source = with_marker(cell, given_code(self.lesson, self.mode).get(name, ((), ()))[1])
        if isinstance(question, Function):
            # the inputs the grader uses too (by default): the question's own (grading.cases)
            rng = rng_for(self.lesson, name)
            cases = question.cases(rng)
            verdict = evaluate(question, value, None, cases, source)
            if verdict.status == INCORRECT and callable(value):
                # the learner's own function with one slip undone, on the same cases (embedlab.grading.undo)
                # beside the learner's own results, as the grader's probe reports them: an edit that gives
                # those undoes nothing, and is not reported (its room left to the others)
                try:
                    own = question.run_cases(value, cases)
                except Exception:  # noqa: BLE001 - the check never stops the notebook
                    own = None
                undone = run_function_edits(question, namespace, cell, cases, own)
                if undone:
                    verdict = evaluate(question, value, None, cases, source, elsewhere=undone)
            verdict = self._earlier(name, namespace, cell, source, verdict, value, cases)
            return self._given(name, namespace, cell, verdict, cases)
        if question.kind == "written":  # marked by the instructor: the check counts what is written
            # read against the learner's carried answers, as the grader's probe reports them (kinds.carried_data)
            known = carried_data(question, lambda c: self._data(c, namespace))
            if self.mode == CLASS:  # a class handout's job is its variant's: the question made for its parameters
                question = self._variant_question(question, namespace)
            return evaluate(question.with_known(known), value, None, source=source)
        if self.mode == CLASS:
            return self._typed(question, source, self.form_verdict(question, value, namespace))
        if name not in self.key:
            return Verdict(ERROR, 0.0, question.points, "no answer key for this question (run `make exercises`)")
        question = dataclasses.replace(question, at_look=look_question(self.lesson, name))
        verdict = evaluate(question, value, self.key[name], source=source, others=self.key)
        if verdict.status != NOT_ATTEMPTED and value is not MISSING:
            # a value the comparison accepts is held to other inputs (kinds.Question._accepted), and a wrong
            # value's hint is weighed on the second looks (kinds.Question._support): the cell runs again on
            # them, as the grader's kernel runs every one
            elsewhere = run_elsewhere(question, namespace, self.lesson, cell,
                                      looks=second_look(self.lesson, namespace),
                                      edits=verdict.status == INCORRECT)
            if elsewhere:
                verdict = evaluate(question, value, self.key[name], source=source, others=self.key,
                                   elsewhere=elsewhere)
        verdict = self._given(name, namespace, cell, self._earlier(name, namespace, cell, source, verdict))
        return self._changed(name, namespace, self._moved(name, namespace, cell, verdict))

    def _changed(self, name: str, namespace: dict, verdict: Verdict) -> Verdict:
        """A wrong answer whose question reads a parameter the notebook holds with another value than the
        book's says so before any story (embedlab.grading.changed), as the grader does (judge.score)."""
        if verdict.status != INCORRECT:
            return verdict
        try:
            question = self.questions[name]
            if self.handed is None:
                self.handed = changed.handed_parameters(self.lesson)
            found = changed.report(question, namespace, self.lesson, self.handed)
            words = changed.hint(question, found, self._data(name, namespace)) if found else None
        except Exception:  # noqa: BLE001 - a check must never stop the notebook
            return verdict
        return dataclasses.replace(verdict, detail=words) if words else verdict

    def _moved(self, name: str, namespace: dict, cell, verdict: Verdict) -> Verdict:
        """A wrong answer written outside its answer cell (a cell of the learner's own) that reads names the answer
        cell's given lines set (`L`, `h`), which another cell has set since to other values (a later question's
        given lines for its own model): the lines compute on those. Said plainly, first: the given lines run
        again (in a copy of the namespace) give the values the question means, and the learner's lines run on
        those tell whether that is all that is wrong. Nothing is guessed where they cannot run."""
        if verdict.status != INCORRECT or not isinstance(cell, str) or name not in self.key:
            return verdict
        try:
            from embedlab.grading import code as code_module
            from embedlab.grading import elsewhere

            given = given_code(self.lesson, self.mode).get(name)
            own_given = [line for line in (given[1] if given else ()) if line and not line.startswith("print(")]
            if not own_given or set(own_given) <= set(code_module._code_lines(cell)):
                return verdict  # nothing given in the answer cell, or this is the answer cell
            found = elsewhere.learner_lines(self.lesson, name, cell)
            if found is None:
                return verdict
            compiled, assigned, read = found
            setup = "\n".join(given[1])
            made = code_module.names_set(setup) or set()
            names = sorted((read - assigned) & made)
            if not names:
                return verdict
            copy = dict(namespace)
            with contextlib.redirect_stdout(io.StringIO()), elsewhere._seconds(elsewhere.SECONDS):
                exec(compile(setup, "<the answer cell's given lines>", "exec"), copy)  # noqa: S102 - the exercise's own
            stale = [n for n in names if n in namespace and not _same_value(copy.get(n), namespace[n])]
            if not stale:
                return verdict
            shown = ", ".join(f"`{n}`" for n in stale)
            detail = (f"this cell is not the question's answer cell: it reads {shown}, which another cell has set "
                      "since to other values than the answer cell gives them, so your lines computed on those: run "
                      "the answer cell again first, or write your answer there (below `# YOUR CODE HERE`)")
            question = self.questions[name]
            with contextlib.redirect_stdout(io.StringIO()), elsewhere._seconds(elsewhere.SECONDS):
                exec(compiled, copy)  # noqa: S102 - the learner's own lines, in a copy of their namespace
            if _same_value(question.to_data(copy.get(name, MISSING)), question.to_data(namespace.get(name, MISSING))):
                return verdict  # the same value on the answer cell's own: the names differ in identity only
            again = evaluate(question, copy.get(name, MISSING), self.key[name])
            if again.status == CORRECT:
                detail += "; with those values your lines give the right answer"
        except BaseException as exc:  # noqa: BLE001 - a check must never stop the notebook (nor run past its time)
            if isinstance(exc, KeyboardInterrupt):
                raise
            return verdict
        return dataclasses.replace(verdict, detail=detail)

    def _earlier(self, name: str, namespace: dict, cell, source, verdict: Verdict, value=None,
                 cases=None) -> Verdict:
        """A wrong answer whose own lines read an earlier answer that is not right yet says so first
        (embedlab.grading.earlier), as the grader does (judge.score): the lines run again with the earlier
        functions put right tell whether that explains it."""
        if verdict.status != INCORRECT or name in self._checking:
            return verdict
        try:
            question = self.questions[name]
            given = given_code(self.lesson, self.mode).get(name)
            questions = list(self.questions.values())
            read = earlier_read(questions, name, cell, given)
            carried = carried_earlier(questions, name)  # worked out from them, read or not (a typed word)
            if not read and not carried:
                return verdict
            judged = {}

            def is_wrong(q) -> bool:  # judged once, when asked (a carried answer only where it could be named)
                if q.name not in judged:
                    self._checking.add(name)
                    try:
                        judged[q.name] = self.verdict(q.name, namespace).status == INCORRECT
                    finally:
                        self._checking.discard(name)
                return judged[q.name]

            if not carried and not any([is_wrong(q) for _, q in read]):
                return verdict
            if isinstance(question, Function):
                again = rerun_function(question, value, cases, read)
                expected = question.expected_outputs(cases)
            else:
                again = rerun(question, namespace, self.lesson, cell, given, read)
                expected = self.key[name]
            detail = earlier_hint(question, verdict.detail, source, given, questions, is_wrong, again, self.key,
                                  expected, self._data(name, namespace))
        except Exception:  # noqa: BLE001 - a check must never stop the notebook
            return verdict
        return dataclasses.replace(verdict, detail=detail)

    def _variant_question(self, question: Question, namespace: dict) -> Question:
        """`question` as made for the variant whose parameters the notebook holds (the book's when it holds
        none, or they make no questions)."""
        space = space_for(self.lesson)
        params = {n: namespace[n] for n in space.names() if n in namespace} if space else None
        if not params or set(params) != set(space.names()):
            return question
        try:
            return next((q for q in questions_for(self.lesson, params) if q.name == question.name), question)
        except Exception:  # noqa: BLE001 - parameters the variant's questions cannot be made from
            return question

    def _data(self, name: str, namespace: dict):
        """An answer as the grader's probe reports it (its question's to_data), or None: not given, or unreadable."""
        q = self.questions.get(name)
        if q is None or isinstance(q, Function):
            return None
        value = answer_of(q, namespace)
        return None if value is MISSING else q.to_data(value)

    def _given(self, name: str, namespace: dict, source, verdict: Verdict, cases=None) -> Verdict:
        """A wrong answer whose cells edit the code the exercise gives (IPython's history, against the
        exercise as handed out in this notebook's mode: code.handed_out) says so when the edit explains
        it, as the grader does (judge.given_hint): the cells run again with the edited lines put back
        (elsewhere.as_handed_out) give the right answer. Otherwise its own hint stands."""
        if verdict.status != INCORRECT:
            return verdict
        history = inputs_history(namespace)
        try:
            if not isinstance(history, list):
                return verdict
            cells = [c for c in history if isinstance(c, str)]
            edits = [e for e in given_edits(self.lesson, name, cells, source, self.mode)
                     if not harmless(e, cells, source)]
            if not edits:
                return verdict
            question = self.questions[name]
            if isinstance(question, Function):
                expected = question.expected_outputs(cases)

                def data(ns):
                    return question.run_cases(answer_of(question, ns), cases)
            elif name in self.key:
                expected = self.key[name]

                def data(ns):
                    return question.to_data(answer_of(question, ns))
            else:
                return verdict
            found = as_handed_out(question, namespace, source, edits, data)
            how, other = None, None
            if found is not None and found[0] == "raised":
                how = OTHER
            elif found is not None:
                try:
                    now = data(namespace)
                except Exception:  # noqa: BLE001 - the answer as it is cannot be read as data
                    now = None
                if found[1] == now:
                    how = SAME
                else:  # judged as the grader judges it (judge.given_hint)
                    back = restored(source, edits) or source
                    marked = with_marker(back, given_code(self.lesson, self.mode).get(name, ((), ()))[1])
                    judged = with_source(question, marked, self.key).judge(found[1], expected)
                    how, other = (RIGHT, None) if judged.status == CORRECT else (OTHER, judged.detail)
        except Exception:  # noqa: BLE001 - a check must never stop the notebook
            return verdict
        return dataclasses.replace(verdict, detail=edit_hint(verdict.detail, edits, how, other))

    def form_verdict(self, question: Question, value, namespace: dict) -> Verdict:
        """Class mode: is the answer there and in the right form? (CORRECT here means only that.)"""
        space = space_for(self.lesson)
        params = {n: namespace[n] for n in space.names() if n in namespace} if space else None
        verdict = evaluate(question, value, None) if value is MISSING or value is Ellipsis else None
        if verdict is not None:
            return verdict
        try:
            problems = question.public_problems(question.to_data(value), params)
        except (NotAttempted, WrongForm):
            return evaluate(question, value, None)
        except Exception as exc:  # noqa: BLE001
            return Verdict(ERROR, 0.0, question.points, f"the check could not run ({type(exc).__name__}: {exc})")
        if problems:
            return Verdict(INCORRECT, 0.0, question.points, problems[0])
        return Verdict(CORRECT, 0.0, question.points, "answered, in the right form")

    def _typed(self, question: Question, source, verdict: Verdict) -> Verdict:
        """Class mode: an answer in the right form whose cell types it says, before the deadline, what the
        grader will do with it (TYPED_WORDS): the check has no key, so it cannot say whether it is right."""
        if verdict.status == CORRECT and typed_cell(source, question.name):
            return dataclasses.replace(verdict, detail=TYPED_WORDS)
        return verdict

    def judged_in_full(self, name: str) -> bool:
        """Is this question's check a real judgement here? (Not in class mode, except functions.)"""
        return self.mode != CLASS or isinstance(self.questions[name], Function)

    def line(self, name: str, verdict: Verdict) -> str:
        """The question's check line (📝 for a class-mode answer in the right form), folded."""
        if verdict.status == CORRECT and not self.judged_in_full(name):
            worth = f"{name} ({points_text(verdict.max_points)})"
            if verdict.detail == TYPED_WORDS:
                return fold(f"📝 {worth}: answered, in the right form, but {TYPED_WORDS}")
            return fold(f"📝 {worth}: answered, in the right form (your instructor's grader scores it)")
        return fold(verdict.line(name))

    def check(self, name: str, namespace: dict | None = None) -> None:
        """Print ✅/❌/⏳ for one question. Looks the answer up by name itself."""
        try:
            if namespace is None:
                namespace = sys._getframe(1).f_globals
            if name not in self.questions:
                say(f"❌ {name}: this exercise has no question called {name!r}")
                return
            verdict = self.verdict(name, namespace)
            say(self.line(name, verdict) + self._as_read(name, verdict, namespace))
        except Exception as exc:  # noqa: BLE001
            say(f"❌ {name}: the check could not run ({type(exc).__name__}: {exc})")

    def _as_read(self, name: str, verdict: Verdict, namespace: dict) -> str:
        """A written answer with words of the learner's own: the text as the instructor will read it (the
        template's markers left out, an f-string's figures filled in), under the check's line. Verbatim,
        the learner's own line breaks kept and none added (only trailing spaces dropped): the check's own
        line is folded, the learner's text is not."""
        question = self.questions[name]
        if question.kind != "written" or verdict.status != TO_MARK:
            return ""
        text = question.to_data(namespace.get(name))["text"]
        lines = [line.rstrip() for line in text.split("\n")]
        return "\nAs your instructor will read it:\n" + "\n".join(lines)

    def summary(self, namespace: dict | None = None) -> None:
        """Print every question's line, the points so far, and which questions are not attempted
        yet or not yet right (the grader tests function answers on the same inputs as these
        checks, each question's own, so its verdict is the same)."""
        try:
            if namespace is None:
                namespace = sys._getframe(1).f_globals
            got = 0.0
            lines = []
            missing, wrong, unformed, to_mark = [], [], [], []
            for name in self.questions:
                verdict = self.verdict(name, namespace)
                got += verdict.points
                lines.append(self.line(name, verdict))
                if verdict.status == NOT_ATTEMPTED:
                    missing.append(name)
                elif verdict.status == TO_MARK:
                    to_mark.append(name)
                elif verdict.status != CORRECT:
                    (wrong if self.judged_in_full(name) else unformed).append(name)
            if self.mode != CLASS:
                written = sum(q.points for q in self.questions.values() if q.kind == "written")
                lines.append(f"{format_points(got)} / {format_points(self.total() - written)} points"
                             + (f" checked here; {format_points(written)} more for written work your "
                                "instructor marks" if written else ""))
            for label, names in (("not attempted yet", missing), ("not yet right", wrong),
                                 ("not in the right form yet", unformed),
                                 ("written, for your instructor to mark", to_mark)):
                if names:
                    lines.append(textwrap.fill(f"{label} ({len(names)}): {', '.join(names)}", width=LINE_WIDTH,
                                               subsequent_indent="  ", break_on_hyphens=False))
            if self.mode == CLASS:
                lines.append(INSTRUCTOR_LINE)
            say("\n".join(lines))
        except Exception as exc:  # noqa: BLE001
            say(f"the summary could not run ({type(exc).__name__}: {exc})")

    def total(self) -> float:
        return sum(q.points for q in self.questions.values())


# What the notebook's own runs did (IPython's post_run_cell event, watched from the first Exercise made in a kernel):
# {id of the shell's namespace: {"namespace": it, "runs": {execution count: the last line of the error the cell
# raised, or None where it ran through}}}
_WATCHED: dict = {}


def _error_line(error: BaseException) -> str:
    import traceback

    if isinstance(error, SyntaxError):  # the cell did not parse: its error and line, as the grader says it
        shown = error_line(type(error).__name__, str(error))
        return shown if len(shown) <= 200 else shown[:199] + "…"
    shown = " ".join("".join(traceback.format_exception_only(type(error), error)).split())
    return shown if len(shown) <= 200 else shown[:199] + "…"


def watch_runs() -> None:
    """Watch the cells the learner runs in this IPython kernel (none outside one): whether each raised, and the last
    line of its error. Read by `latest_run_raised`; nothing is run again, and the learner's cells and names are left
    as they are."""
    shell = None
    try:
        if "IPython" in sys.modules:
            from IPython import get_ipython

            shell = get_ipython()
    except Exception:  # noqa: BLE001 - no IPython: nothing to watch
        shell = None
    if shell is None or not hasattr(shell, "events") or not isinstance(getattr(shell, "user_ns", None), dict) \
            or id(shell.user_ns) in _WATCHED:
        return
    # the namespace is held, so no other dict can take its id while it is watched (the kernel holds it anyway)
    watch = _WATCHED[id(shell.user_ns)] = {"namespace": shell.user_ns, "runs": {}}

    def after(result=None):
        try:
            count = getattr(result, "execution_count", None)
            error = getattr(result, "error_in_exec", None) or getattr(result, "error_before_exec", None)
            if count is not None:
                watch["runs"][count] = _error_line(error) if error is not None else None
        except Exception:  # noqa: BLE001 - the learner's cell is done whatever happens here
            pass

    try:
        shell.events.register("post_run_cell", after)
    except Exception:  # noqa: BLE001 - an IPython without this event: nothing watched
        _WATCHED.pop(id(shell.user_ns), None)


def latest_run_raised(name: str, namespace: dict, defined: bool = True) -> str | None:
    """The last line of the error of the latest run of the cell that defines `name`
    (`latest_raising_run`), or None."""
    return latest_raising_run(name, namespace, defined)[0]


def latest_raising_run(name: str, namespace: dict, defined: bool = True) -> tuple:
    """The last line of the error, when the latest run of the cell that defines `name` (the last cell in IPython's
    history whose text does) raised; else None. Known from the runs watched in this kernel (`watch_runs`);
    otherwise from the notebook's last error (sys.last_value, `raised_in`), where `name` is `defined` only if that
    cell ran once (else a later run of the same text may have run through). As (that
    error, that cell's text), (None, None) when it did not raise: which of its lines ran
    is read from the text."""
    from embedlab.grading.code import PROBE_MARK, defines_pattern

    history = inputs_history(namespace)
    if history is None:
        return None, None
    pattern = defines_pattern(name)
    at = next((i for i in range(len(history) - 1, -1, -1) if isinstance(history[i], str)
               and pattern.search(history[i]) and PROBE_MARK not in history[i]), None)
    watch = _WATCHED.get(id(namespace))
    if watch is not None and watch["namespace"] is not namespace:
        watch = None
    if watch is not None:
        # a later run that did not parse, whose lines read as a try at defining the name (`attn_layer 2 * d`: the
        # edit broke the assignment itself): the cell defines nothing now, and the name holds an earlier run's value
        loose = broken_definition(name)
        later = next((i for i in range(len(history) - 1, -1 if at is None else at, -1)
                      if did_not_parse(watch["runs"].get(i)) and isinstance(history[i], str)
                      and loose.search(history[i])), None)
        if later is not None:
            return watch["runs"][later], history[later]
    if at is None:
        return None, None
    if watch is not None and at in watch["runs"]:
        return watch["runs"][at], history[at]
    if watch is not None and at >= max(watch["runs"], default=-1) + 1:
        return None, None  # the cell running now (a check in its own cell): not raised
    cell = history[at]
    if defined and sum(1 for c in history if c == cell) != 1:
        return None, None
    return raised_in(cell[:SOURCE_LIMIT]), cell


def raised_in(cell: str | None) -> str | None:
    """The last line of the error ("ValueError: …") the notebook's last failing cell raised, when that cell is
    `cell` (IPython keeps the last error in sys.last_value, and each cell's text under the file name its frames
    carry); else None. Read only: nothing is run again."""
    import linecache

    error, tb = getattr(sys, "last_value", None), getattr(sys, "last_traceback", None)
    if not isinstance(cell, str) or not cell.strip() or not isinstance(error, BaseException) \
            or (tb is None and not isinstance(error, SyntaxError)):
        return None
    want = cell.strip()
    try:
        if isinstance(error, SyntaxError) and isinstance(error.filename, str):
            # a cell that did not parse: no frame of it ran, but IPython keeps its text under the file name it gave
            lines = linecache.getlines(error.filename)
            if lines and "".join(lines).strip() == want:
                return _error_line(error)
        while tb is not None:
            lines = linecache.getlines(tb.tb_frame.f_code.co_filename)
            if lines and "".join(lines).strip() == want:
                import traceback

                shown = " ".join("".join(traceback.format_exception_only(type(error), error)).split())
                return shown if len(shown) <= 200 else shown[:199] + "…"
            tb = tb.tb_next
    except Exception:  # noqa: BLE001 - a traceback that cannot be read tells nothing
        return None
    return None


LINE_WIDTH = 88  # characters: a check's line fits a phone-width page and the book's column


def _same_value(a, b) -> bool:
    """Are two values of a name the same (arrays by their values)?"""
    try:
        import numpy as np

        if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
            return bool(np.array_equal(a, b))
        return bool(a == b)
    except Exception:  # noqa: BLE001 - values that cannot be compared: taken as the same (nothing said)
        return True


def fold(line: str) -> str:
    """One check line folded to LINE_WIDTH, its continuation indented under the mark
    (a long hint would otherwise make the page scroll sideways)."""
    # the mark (✅, ❌, ⏳) is one character but two columns wide on screen; the marker a
    # ⏳ line sends the learner to (`# YOUR CODE HERE`) stays whole: they search for it
    kept = MARKER.replace(" ", "\xa0")  # textwrap breaks at ASCII whitespace only
    folded = textwrap.fill(line.replace(MARKER, kept), width=LINE_WIDTH - 1,
                           subsequent_indent="   ", break_long_words=False,
                           break_on_hyphens=False)
    return folded.replace(kept, MARKER)


def say(text: str) -> None:
    """Print in one write. print() writes the text and its newline separately, and the
    kernel may send them as two outputs: a stored notebook would then change between runs."""
    sys.stdout.write(text + "\n")
