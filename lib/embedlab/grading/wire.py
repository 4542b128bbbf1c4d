"""The kernel↔grader wire format: one probe, run in the kernel, that reads every answer as plain data.

After a notebook's own cells, one more cell calls `publish_probe` in the same
kernel. It reads each question's answer from the notebook's globals, turns it
into plain data with the question's `to_data` (a function answer is called on
the inputs the grader sent, as data), and publishes each answer as it goes as
one display output of type `PROBE_MIME`, {name: entry}; function questions come
last, so a function that never returns costs only itself and the functions
after it. Whoever runs the kernel picks these outputs up:

* the grader's worker (embedlab.grading.worker), which sends it to the grader
  over the grader's own channel; the grader judges it in its own process;
* the exercise generator (embedlab.grading.generate), which harvests the
  solution's answers into the answer key (function questions skipped).

One entry per question, a dict with exactly one of these tags:

    {"data": ...}            the answer as plain data (to be judged)
    {"missing": True}        the name is not defined (or is still `...`)
    {"not_attempted": "…"}   the answer is a stub (e.g. raises NotImplementedError)
    {"wrong_form": "…"}      not the right kind of thing (a str where an int is asked…)
    {"raised": "…"}          reading the answer raised something else

A {"data": …} entry of a question with `other_inputs` may also hold "elsewhere": what
the answer cell's own lines give when run again on those inputs (a list of cases,
embedlab.grading.elsewhere), read by the judge only to refuse a right value whose
method gives another answer there. An entry whose cells edit a line of the code the
exercise gives may hold "handed_out": {"same": True} (the answer is the same with the
edited lines put back as handed out), {"data": …} (what it is then) or {"raised": "…"}
(embedlab.grading.elsewhere.as_handed_out): the judge blames the edit only when that
answer is right (embedlab.grading.judge.given_hint).

Everything here is untrusted data once it leaves the kernel: the notebook's own
code runs in the same process and could publish anything. The grader reads it
with a byte limit and judges it as data (embedlab.grading.judge.score).
"""

from __future__ import annotations

import json

TEXT_LIMIT = 300  # characters kept of a message from the kernel
PROBE_MIME = "application/vnd.embedlab.probe+json"

DATA, MISSING, NOT_ATTEMPTED, WRONG_FORM, RAISED = "data", "missing", "not_attempted", "wrong_form", "raised"
ELSEWHERE = "elsewhere"  # beside DATA: what the answer cell's own lines give on the question's other inputs
HANDED_OUT = "handed_out"  # beside DATA: the answer with the learner's edits of the given code put back
HANDED = "__handed__"  # the grader's `given` entry: {question: [the given cells' lines, the answer cell's own]}
TAGS = (DATA, MISSING, NOT_ATTEMPTED, WRONG_FORM, RAISED)
REFUSED = "refused"  # set by the grader, never by the probe: what came back broke the channel's limits


def probe_entries(lesson: str, namespace: dict, cases: dict | None = None, functions: bool = True,
                  reruns: bool = True, given: dict | None = None):
    """(question name, entry) for every answer of `lesson` in `namespace`, functions last.

    `cases` maps a function question's name to its inputs, encoded with
    `embedlab.grading.values.encode_value`. With functions=False, function
    questions are left out (the answer key holds no function outputs). With
    reruns, a question with `other_inputs` has the learner's lines run again on
    them (embedlab.grading.elsewhere), reported beside its data; `given` (from
    the grader: the sandbox has no exercises/ or solutions/ to read them from)
    maps its name to {"lines": the lines the exercise gives, "foreign": the
    parameters its answer never depends on, "solution": the solution's answer
    cell, run on the second-look parameters (embedlab.grading.variants)}, and
    "__prefix__" to the solution's cells above the answers (grader.given_lines).
    """
    from embedlab.grading import code, undo
    from embedlab.grading.elsewhere import run_elsewhere
    from embedlab.grading.elsewhere import run_function_edits
    from embedlab.grading.variants import second_look
    from embedlab.grading.kinds import Function, NotAttempted, WrongForm, answer_of
    from embedlab.grading.lessons import questions_for
    from embedlab.grading.values import decode_value

    questions = questions_for(lesson)
    entries = {}  # question name -> its entry, as published last
    later = []  # (question, its entry) to report again with what its lines give on other inputs
    for q in [q for q in questions if not isinstance(q, Function)] + [q for q in questions if isinstance(q, Function)]:
        if isinstance(q, Function) and not functions:
            continue
        value = answer_of(q, namespace, Ellipsis)
        if value is Ellipsis:
            yield q.name, {MISSING: True}
            continue
        try:
            if isinstance(q, Function):
                entry = {DATA: q.run_cases(value, decode_value((cases or {})[q.name]))}
                if reruns:  # the learner's own function with one slip undone, on the same cases (below)
                    later.append((q, entry))
            else:
                entry = {DATA: q.to_data(value)}
                if reruns and q.kind != "written":  # a written answer is marked, never run again
                    later.append((q, entry))
        except NotAttempted as exc:
            entry = {NOT_ATTEMPTED: str(exc)[:TEXT_LIMIT]}
        except WrongForm as exc:
            entry = {WRONG_FORM: str(exc)[:TEXT_LIMIT]}
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - only this answer's
            entry = {RAISED: f"{type(exc).__name__}: {exc}"[:TEXT_LIMIT]}
        # a KeyboardInterrupt (the cell's time limit) stops the probe: what it read is published
        entries[q.name] = entry
        yield q.name, entry
    # then the learner's lines on other inputs, once every answer is out: lines that hang there cost
    # only this report (each case is bounded too); the entry is published again, with it
    reported = 0  # characters of the edits' reports so far (embedlab.grading.undo.PROBE_BYTES in all)
    for q, entry in later:
        if isinstance(q, Function):
            undone = run_function_edits(q, namespace, code.answer_source(q.name, namespace),
                                        decode_value((cases or {})[q.name]), entry.get(DATA),
                                        undo.PROBE_BYTES - reported)
            reported += sum(case.get("_bytes", 0) for case in undone)
            if undone:
                entry[ELSEWHERE] = undone
                yield q.name, entry
            # its results with the earlier function answers it reads put right (embedlab.grading.earlier)
            try:
                from embedlab.grading import earlier

                source = code.answer_source(q.name, namespace)
                lines = (given or {}).get(q.name, {}).get("lines") if given is not None else \
                    code.given_code(lesson).get(q.name)
                read = earlier.earlier_read(questions, q.name, source, lines)
                again = earlier.rerun_function(q, answer_of(q, namespace, Ellipsis),
                                               decode_value((cases or {})[q.name]), read) if read else None
            except Exception:  # noqa: BLE001 - only this report
                again = None
            if again:
                entry[earlier.EARLIER] = again
                yield q.name, entry
            continue
        # what its own lines give with the earlier function answers they read put right (embedlab.grading.earlier):
        # the judge uses it only when one of those is not right
        try:
            from embedlab.grading import earlier

            source = code.answer_source(q.name, namespace)
            lines = (given or {}).get(q.name, {}).get("lines") if given is not None else code.given_code(lesson).get(q.name)
            again = earlier.rerun(q, namespace, lesson, source, lines,
                                  earlier.earlier_read(questions, q.name, source, lines))
        except Exception:  # noqa: BLE001 - only this report
            again = None
        if again:
            entry[earlier.EARLIER] = again
            yield q.name, entry
        looks = second_look(lesson, namespace)
        if given is None:
            elsewhere = run_elsewhere(q, namespace, lesson, looks=looks, edit_bytes=undo.PROBE_BYTES - reported)
        else:  # the grader's: only questions it names, with their given lines, foreign inputs and solution
            sent = given.get(q.name)
            if not isinstance(sent, dict):
                continue
            lines, foreign, solution = sent.get("lines"), sent.get("foreign"), sent.get("solution")
            prefix = given.get("__prefix__")
            prefix = (prefix.get("cells"), prefix.get("upto")) if isinstance(prefix, dict) else ((), {})
            elsewhere = run_elsewhere(q, namespace, lesson, given=lines if isinstance(lines, list) else None,
                                      foreign=foreign if isinstance(foreign, list) else [], looks=looks,
                                      solution=solution if isinstance(solution, str) else "", prefix=prefix,
                                      edit_bytes=undo.PROBE_BYTES - reported)
        reported += sum(case.get("_bytes", 0) for case in elsewhere or () if isinstance(case, dict))
        if elsewhere:
            entry[ELSEWHERE] = elsewhere
            yield q.name, entry
    # then, for an answer whose cells edit the code the exercise gives, the same answer with the edits
    # put back as handed out (the counterfactual the judge needs to blame an edit), last of all
    handed = (given or {}).get(HANDED)
    if isinstance(handed, dict):
        yield from _handed_out_entries(questions, namespace, handed, cases, entries)
    # and a parameter a question reads that holds another value than the one handed out (embedlab.grading.changed)
    yield from _changed_entries(lesson, questions, namespace, given, entries)


def _changed_entries(lesson: str, questions, namespace: dict, given: dict | None, entries: dict):
    from embedlab.grading import changed
    from embedlab.grading.kinds import Function

    if given is None:  # not the grader's: the book's parameters, read here
        handed, prefix, sent = changed.handed_parameters(lesson), None, {}
    else:
        handed, prefix, sent = given.get(changed.PARAMETERS), given.get("__prefix__"), given
        prefix = (prefix.get("cells"), prefix.get("upto")) if isinstance(prefix, dict) else None
        if prefix is None:
            return
    if not isinstance(handed, dict):
        return
    solutions = [e.get("solution") for k, e in sent.items()
                 if isinstance(e, dict) and isinstance(e.get("solution"), str)] if given is not None else None
    for q in questions:
        entry = entries.get(q.name)
        if isinstance(q, Function) or not isinstance(entry, dict) or DATA not in entry:
            continue
        mine = sent.get(q.name) if given is not None else None
        if given is not None and not isinstance(mine, dict):
            continue
        found = changed.report(
            q, namespace, lesson, handed, prefix,
            solution=mine.get("solution") if mine else None,
            foreign=mine.get("foreign") if mine else None, solutions=solutions)
        if found:
            entry[changed.CHANGED] = found
            yield q.name, entry


def _handed_out_entries(questions, namespace: dict, handed: dict, cases, entries: dict):
    from embedlab.grading import code
    from embedlab.grading.elsewhere import as_handed_out
    from embedlab.grading.kinds import Function, answer_of
    from embedlab.grading.values import decode_value

    history = code.inputs_history(namespace)
    if not isinstance(history, (list, tuple)):
        return
    cells = [cell for cell in history if isinstance(cell, str) and code.PROBE_MARK not in cell]
    for q in questions:
        entry, lines = entries.get(q.name), handed.get(q.name)
        if not isinstance(entry, dict) or DATA not in entry or not isinstance(lines, list) or len(lines) != 2:
            continue
        source = code.answer_source(q.name, namespace)
        above, own = [tuple(x for x in part if isinstance(x, str)) if isinstance(part, list) else ()
                      for part in lines]
        edits = [e for e in code.edits_of(above, own, cells, source) if not code.harmless(e, cells, source)]
        if not edits:
            continue
        if isinstance(q, Function):
            args = decode_value((cases or {})[q.name])

            def then(ns, q=q, args=args):
                return q.run_cases(answer_of(q, ns, Ellipsis), args)
        else:
            def then(ns, q=q):
                return q.to_data(answer_of(q, ns, Ellipsis))
        found = as_handed_out(q, namespace, source, edits, then)
        if found is None:
            continue
        how, what = found
        counter = {RAISED: str(what)[:TEXT_LIMIT]} if how == "raised" else \
            {"same": True} if what == entry[DATA] else {DATA: what}
        entry[HANDED_OUT] = counter
        yield q.name, entry


def probe(lesson: str, namespace: dict, cases: dict | None = None, functions: bool = True,
          given: dict | None = None) -> dict:
    """Every answer as {question name: entry} (see the module doc)."""
    return dict(probe_entries(lesson, namespace, cases, functions, given=given))


def publish_probe(lesson: str, namespace: dict, cases_json: str = "{}", functions: bool = True,
                  given_json: str = "{}") -> None:
    """Publish each answer, as it is read, as one display output {name: entry} of type PROBE_MIME."""
    from IPython.display import publish_display_data

    for name, entry in probe_entries(lesson, namespace, json.loads(cases_json), functions,
                                     given=json.loads(given_json)):
        publish_display_data({PROBE_MIME: {name: entry}})


def probe_cell(lesson: str, cases: dict | None = None, functions: bool = True, given: dict | None = None) -> str:
    """The source of the cell that probes a kernel (it defines no name in the notebook)."""
    return (f'__import__("embedlab.grading.wire", fromlist=["publish_probe"]).publish_probe(\n'
            f"    {lesson!r}, globals(), {json.dumps(json.dumps(cases or {}))}, functions={functions!r},\n"
            f"    given_json={json.dumps(json.dumps(given or {}))})\n")


def answer_sources(defines: dict, cells) -> dict:
    """{question name: the source of the cell that defines it}, each cut to SOURCE_LIMIT characters
    (embedlab.grading.code), for the judge to read (never to run). `defines` is the worker's
    {name: cell index}, `cells` its (index, cell) pairs."""
    from embedlab.grading.code import SOURCE_LIMIT

    by_index = {index: cell.source for index, cell in cells if index is not None}
    return {name: by_index[index][:SOURCE_LIMIT] for name, index in defines.items()
            if isinstance(by_index.get(index), str)}


CODE_CELLS = 300  # code cells whose source is carried to the judge (each cut to SOURCE_LIMIT)


def code_sources(cells) -> list:
    """The sources of the submission's code cells in order (the first CODE_CELLS, each cut to
    SOURCE_LIMIT characters), for the judge to compare with the code the exercise gives."""
    from embedlab.grading.code import SOURCE_LIMIT

    return [cell.source[:SOURCE_LIMIT] for index, cell in cells if index is not None][:CODE_CELLS]


def probe_result(outputs) -> dict | None:
    """The probe's answers among a cell's outputs (nbformat output dicts), merged; None if none."""
    found = None
    for output in outputs:
        data = output.get("data") if isinstance(output, dict) else None
        if isinstance(data, dict) and isinstance(data.get(PROBE_MIME), dict):
            found = {**(found or {}), **data[PROBE_MIME]}
    return found
