import sys, contextlib, io
import test_hint_corpus_learners as T
from hint_corpus import heldout7
from embedlab.grading import elsewhere
from embedlab.grading.variants import second_look
from embedlab.grading.lessons import questions_for
from embedlab.grading.code import solution_cells, foreign_inputs
for i in map(int, sys.argv[1:]):
    e = heldout7.COINCIDENCES[i]
    with contextlib.redirect_stdout(io.StringIO()):
        ns = T.namespace(e)
    src = T.answer_cell(e)
    ns["_ih"] = ["", src]
    q = next(q for q in questions_for(e.lesson) if q.name == e.name)
    looks = second_look(e.lesson, ns)
    print(i, e.lesson, e.name, "looks:", [sorted(l) for l in looks], "foreign:", sorted(foreign_inputs(e.lesson).get(e.name, ())))
    print("  source:", src[-200:].replace("\n", " | "))
    found = elsewhere.learner_lines(e.lesson, e.name, src)
    print("  learner lines:", None if found is None else (sorted(found[1]), sorted(found[2])))
    sol = solution_cells(e.lesson).get(e.name)
    full, solc = elsewhere._compiled(src), elsewhere._compiled(sol)
    for changed in looks:
        changed = {k: v for k, v in changed.items() if k not in foreign_inputs(e.lesson).get(e.name, ())}
        try:
            exp = elsewhere._run(solc[0], e.name, ns, changed, solc[1], bound=False)
        except BaseException as x:
            exp = f"raised {type(x).__name__}: {x}"
        try:
            got = elsewhere._run(full[0], e.name, ns, changed, full[1])
        except BaseException as x:
            got = f"raised {type(x).__name__}: {x}"
        print("  changed", sorted(changed), "expected", str(exp)[:80], "got", str(got)[:80])
    print("  result:", str(elsewhere.run_elsewhere(q, ns, e.lesson, looks=looks))[:300])
