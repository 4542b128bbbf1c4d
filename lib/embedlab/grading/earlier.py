"""An answer computed with the learner's own earlier answer, when that earlier answer is itself wrong.

A question may invite its learner to use what they wrote before (question 5 ranks rows with the learner's own
`unused_score` of question 3). When the later answer is wrong and its own lines read an earlier answer that is
not right yet, the later hint would blame the later code for the earlier mistake ("7 of 7 values differ"). So,
for a wrong answer whose own lines (the exercise's given lines left out) read an earlier question's answer by
its name:

* the earlier answers it reads that are not right (judged as their own questions judge them) are said first:
  "your `unused_score` (question 3) is not right yet, and this answer uses it";
* where the earlier answer is a function the course has a reference for, the learner's lines are run again in
  their kernel with that function in its place (`rerun`, the kernel's half; reported beside the answer by the
  grader's probe as wire key EARLIER): when that gives the answer, the hint says so (the earlier answer is the
  cause); when it gives another answer, this answer has a mistake of its own: said after the earlier answer, as
  this answer's own ("…: fix question 1, and this answer's own lines too: with a right `one_hot` they give another
  answer: …"), never as caused by it; a value answer cannot be put back (its right value is the key's, which
  the kernel of a class does not hold): then only the first sentence, and to check this answer again;
* an answer judged on the learner's own earlier answers (error carried forward: a Design's `carries`) and wrong
  even on them is this answer's own mistake too: the earlier answers first, then its own hint (`carried_words`).

Both the notebook's check (embedlab.grading.exercise) and the grader (embedlab.grading.judge) call `words` with
the same facts, so they say the same words.
"""

from __future__ import annotations

import ast

EARLIER = "earlier"  # beside DATA: what the answer's own lines give with the earlier functions they read put right


def _flat(given) -> list:
    """The given lines as one list: code.given_code's (above, own) pair, or the grader's flat list."""
    if not given:
        return []
    if all(isinstance(line, str) for line in given):
        return list(given)
    return [line for part in given if isinstance(part, (list, tuple)) for line in part if isinstance(line, str)]


def earlier_read(questions, name: str, source: str | None, given) -> list[tuple[int, object]]:
    """[(question number, question)] of the questions before `name` whose answer the learner's own lines of
    `name`'s cell read by name (and do not set themselves); `given`: the exercise's given lines of that cell."""
    from embedlab.grading import code

    if not isinstance(source, str):
        return []
    names = [q.name for q in questions]
    if name not in names:
        return []
    kept = code.own_statements(source, _flat(given))
    if not kept:
        return []
    read, assigned = set(), set()
    for node in ast.walk(ast.Module(body=kept, type_ignores=[])):
        if isinstance(node, ast.Name):
            (read if isinstance(node.ctx, ast.Load) else assigned).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            assigned.add(node.name)
    upto = names.index(name)
    # an earlier answer the question is judged with as it is (a Design's `uses`: the learner's design, whose figures
    # are right for it even over budget) is never this answer's mistake; one it is judged on by error carried forward
    # (`carries`) is read like any other: a wrong answer that reads it, wrong even on the learner's own, names it
    this = questions[upto]
    judged_with = set(getattr(this, "uses", ()) or ())
    return [(i + 1, q) for i, q in enumerate(questions[:upto]) if q.name in read - assigned - judged_with]


def rerun(question, namespace: dict, lesson: str, source: str | None, given, earlier) -> dict | None:
    """The learner's own lines of `question`'s cell run again in their kernel with each earlier function answer
    they read (`earlier`: [(number, question)]) replaced by the course's reference for it: {"data": the answer
    as plain data} or {"raised": the error}, and "names": the functions replaced; None when no earlier answer
    read is a function with a reference, or the lines cannot be run again."""
    from embedlab.grading import code, elsewhere
    from embedlab.grading.kinds import Function

    functions = [q for _, q in earlier if isinstance(q, Function) and q.reference is not None]
    if not functions or not isinstance(source, str):
        return None
    kept = code.own_statements(source, _flat(given))
    if not kept:
        return None
    module = ast.Module(body=kept, type_ignores=[])
    text = ast.unparse(module)
    if elsewhere._costly(text, namespace):
        return None
    read = frozenset(n.id for n in ast.walk(module) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
    try:
        compiled = compile(module, "<the answer cell, with the earlier answers put right>", "exec")
        value = elsewhere._run(compiled, question.name, namespace, {q.name: q.reference for q in functions}, read)
    except (Exception, SystemExit, elsewhere.OutOfTime) as exc:  # noqa: BLE001 - the lines fail there
        return {"raised": f"{type(exc).__name__}: {exc}"[:200], "names": [q.name for q in functions]}
    if value is elsewhere._NONE:
        return None
    try:
        return {"data": question.to_data(value), "names": [q.name for q in functions]}
    except Exception as exc:  # noqa: BLE001 - not an answer of the question's form
        return {"raised": f"{type(exc).__name__}: {exc}"[:200], "names": [q.name for q in functions]}


def rerun_function(question, func, cases, earlier) -> dict | None:
    """A function answer called again on its cases with each earlier function answer it reads (`earlier`) replaced,
    in the globals it reads them from, by the course's reference for it: {"data": its results, "names": the functions
    replaced}; None when none is such a function, or it cannot be called so. The globals are put back as they were."""
    from embedlab.grading import elsewhere
    from embedlab.grading.kinds import Function

    functions = [q for _, q in earlier if isinstance(q, Function) and q.reference is not None]
    globals_ = getattr(func, "__globals__", None)
    if not functions or not callable(func) or not isinstance(globals_, dict):
        return None
    missing = object()
    saved = {q.name: globals_.get(q.name, missing) for q in functions}
    loaded = set(getattr(getattr(func, "__code__", None), "co_names", ()) or ())
    try:
        for q in functions:
            globals_[q.name] = q.reference
        with elsewhere._bounded(5 * elsewhere.SECONDS), elsewhere.keeping(elsewhere.lent_objects(globals_, loaded)):
            data = question.run_cases(func, cases)
    except (Exception, SystemExit, elsewhere.OutOfTime):  # noqa: BLE001 - not attempted, not a function: nothing
        return None
    finally:
        for name, value in saved.items():
            if value is missing:
                globals_.pop(name, None)
            else:
                globals_[name] = value
    return {"data": data, "names": [q.name for q in functions]}


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _named(wrong: list[tuple[int, str]], how: str = "uses") -> str:
    """The earlier answers not right yet, named as every such hint starts: "your `E` (question 1) is not right yet,
    and this answer uses it: fix question 1"; `how` "to be worked out from": the answer is worked out from them
    (error carried forward), though the cell, which types it, does not read them."""
    numbers = sorted({n for n, _ in wrong})
    which = _listed([f"`{name}` (question {n})" for n, name in wrong])
    them = "them" if len(wrong) > 1 else "it"
    verb = f"uses {them}" if how == "uses" else f"is {how} {them}"
    return (f"your {which} {'are' if len(wrong) > 1 else 'is'} not right yet, and this answer {verb}: fix "
            f"question{'s' if len(numbers) > 1 else ''} {_listed([str(n) for n in numbers])}")


# where this answer is wrong whatever the earlier answer is, its own mistake follows the earlier answer, never as caused
# (text.OWN_TOO: as_sentences keeps the colon, which carried.is_typed reads)
from embedlab.grading.text import OWN_TOO  # noqa: E402


def words(wrong: list[tuple[int, str]], again: dict | None, judged=None) -> str:
    """The hint of a wrong answer that reads earlier answers not right yet (`wrong`: [(question number, name)]),
    with what its lines give with the earlier functions put right (`again`, from `rerun`; `judged(data)` is the
    question's verdict on that data). The earlier answers are named first, always (book/how-to-use.md); they are
    the cause only where putting them right makes this answer right; where this answer's lines still give another
    answer with them put right (or raise), that is this answer's own mistake, said after them as its own."""
    from embedlab.grading.status import CORRECT

    named = _named(wrong)
    put = [name for name in (again or {}).get("names", []) if name in {n for _, n in wrong}]
    if not put or not isinstance(again, dict):
        return f"{named} first, then check this answer again"
    right = _listed([f"`{name}`" for name in put])
    if isinstance(again.get("raised"), str):
        return f"{named}{OWN_TOO}with a right {right} they raise {again['raised'][:120]}"
    if "data" in again and judged is not None:
        try:
            verdict = judged(again["data"])
        except Exception:  # noqa: BLE001 - data that cannot be judged: say only what is known
            return f"{named} first, then check this answer again"
        if verdict.status == CORRECT:
            return f"{named} first: with a right {right} your lines give the answer, so this cell needs no change"
        if verdict.detail:
            return f"{named}{OWN_TOO}with a right {right} they give another answer: {verdict.detail}"
    return f"{named} first, then check this answer again"


def carried_words(wrong: list[tuple[int, str]], detail: str) -> str:
    """The hint of a wrong answer judged on the learner's own earlier answers (error carried forward: a Design's
    `carries`), some of which it reads are not right yet (`wrong`): those named first, as every answer that reads
    an earlier one not right yet says (`words`), then that this answer was judged on them and is still not right,
    with its own hint (`detail`, what the judgement on the learner's own and on the recounted figures found)."""
    own = _listed([f"`{name}`" for _, name in wrong])
    return f"{_named(wrong)}{OWN_TOO}judged on your own {own} (error carried forward), it is still not right: {detail}"


def carried_earlier(questions, name: str) -> list[tuple[int, object]]:
    """[(question number, question)] of the earlier questions `name`'s answer is worked out from by error carried
    forward (a Design's `carries` beyond its `uses`: question 5's figures), whether or not its cell reads them."""
    names = [q.name for q in questions]
    if name not in names:
        return []
    this = questions[names.index(name)]
    carried = set(getattr(this, "carries", ()) or ()) - set(getattr(this, "uses", ()) or ())
    return [(i + 1, q) for i, q in enumerate(questions[:names.index(name)]) if q.name in carried]


def changes(question, data) -> bool | None:
    """Do the learner's own earlier answers carried forward (a Design's `carries`) change `question`'s answer: is
    the answer on the recounted figures (`expects`) wrong on the learner's own (`carry` finds it wrong there:
    None)? False where it is right on theirs (their figures off in form only, or off without moving the answer);
    None when that cannot be told (no data, no `carry` or `expects`)."""
    carry = getattr(question, "carry", None)
    expected_for = getattr(question, "expected_for", None)
    if carry is None or expected_for is None or not isinstance(data, dict):
        return None
    want = expected_for(data)
    if want is None:
        return None
    try:
        found = carry({**data, question.name: want})
    except Exception:  # noqa: BLE001 - the learner's data may be anything: not known
        return None
    return not isinstance(found, (list, tuple))


def hint(question, detail: str, source: str | None, given, questions, is_wrong, again, key: dict, expected,
         data=None) -> str:
    """`detail`, the hint of `question`'s wrong answer, or, when its own lines read earlier answers of which
    `is_wrong(earlier question)` says some are not right, the words of `words` (the earlier answers said first);
    `again`: what `rerun` reported. The same in the notebook and the grader: both hand it the same facts.

    An answer worked out from earlier answers by error carried forward (`carried_earlier`; `data`, the answer's
    plain data, holds the learner's values of them) names those not right yet first only where they change it
    (`changes`): also where its cell types the answer and reads none of them, and never one that does not change
    it (a float of the right count, a count off that leaves the same budget the fullest): its own hint then stands
    alone. Lines that work the answer out from something else (the recount) are not sent to answers they do not
    read."""
    from embedlab.grading.explain import with_source
    from embedlab.grading.kinds import typed_cell

    read = earlier_read(questions, question.name, source, given)
    carried_qs = carried_earlier(questions, question.name)
    carried = {q.name for _, q in carried_qs}
    moved = changes(question, data) if carried else None
    if moved is False:  # the learner's own values of them do not change this answer: not its cause
        read = [(n, q) for n, q in read if q.name not in carried]
    # a typed answer is to be worked out from them (lines that work it out from something else, the recount, are
    # not: fixing an answer they do not read changes nothing they give)
    unread = [(n, q) for n, q in carried_qs if moved and q.name not in {r.name for _, r in read}
              and typed_cell(source, question.name)]
    if not read and not unread:
        return detail
    wrong = sorted((n, q.name) for n, q in [*read, *unread] if is_wrong(q))
    if not wrong:
        return detail
    if all(name in carried for _, name in wrong):
        if any(name not in {q.name for _, q in read} for _, name in wrong):
            # the cell reads none of some (a typed word): it was judged on the recount, and is wrong there too
            return f"{_named(wrong, 'to be worked out from')}{OWN_TOO}{detail}"
        # judged on the learner's own values of them already (kinds.Design: `carry`, and the cases held to it): a
        # wrong verdict is wrong on their own too, so this answer's own hint stands, after the earlier answers
        return carried_words(wrong, detail)

    def judged(data):
        return with_source(question, source, key).judge(data, expected)

    return words(wrong, again if isinstance(again, dict) else None, judged)
