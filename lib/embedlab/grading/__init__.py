"""The autograder, in layers. A module imports from its own layer and the layers listed
before it, never from one listed after it; no import circle anywhere in embedlab
(tests/test_import_graph.py reads this map; every module of the package is in it).

Shared (a leaf: imports nothing of embedlab):
    text        text from outside escaped, CSV cells, a file written atomically
    kept        work kept by the hash of its inputs (the course's tests: variants drawn, solutions run)

Kernel side (the learner's notebook and any process: questions, and judging plain data):
    status      every status a question can get
    values      answers and function inputs as plain data (arrays as hex floats)
    cases       the inputs a function question is tested on
    code        the answer cell's source, read (never run)
    work        the operation a question asks a cell to do (a question's own_work)
    parts       answers as named parts (the expression the lesson teaches)
    diagnose    what is off about a wrong answer, in general words
    explain     a wrong number explained from its parts and the learner's code
    counterfactual  a slip undone in the learner's own cell read as arithmetic, on inputs that part coincidences
    function_hints  the hint of a wrong function, from its failing calls
    undo        a slip undone in the learner's own code (its edits read; their runs judged)
    labels      a word or key of the learner's code that no answer allows, proven
    kinds       question kinds (Integer, Real, Array, Choice, Function, Design) and hints
    elsewhere   an answer cell's own lines run again on other inputs (a method right only on these)
    earlier     an answer computed with the learner's own earlier answer that is not right yet
    verdicts    a live answer judged as the check does; the slips hints must tell
    space       a lesson's variant space, as its question module declares it
    questions   each lesson's questions (questions/lNN.py)
    parameters  the `parameters` cell read (`name = literal` lines; for the worker, without numpy)
    variants    a learner's variant, drawn from the lesson's space, and its `parameters` cell
    changed     a parameter the notebook holds that differs from the one handed out, said first
    lessons     which lessons exist, their questions and answer keys
    exercise    the notebook's check: Exercise(lesson).check(name)
    wire        the probe that reads every answer as plain data in the kernel

Sandbox (one per submission, and the grader's end of it):
    worker      runs the submission's cells and the probe in a fresh kernel
    budget      one control group per submission: memory and process limits
    sandbox     starts each worker fenced in, reads back what it reports

Grader (embedlab-grade, python -m embedlab.grading):
    keys        the instructor keys' file format (--keys)
    lms         rosters, LMS download names, gradebooks
    submissions finds the files, opens them, says who handed each in
    judge       a row per question, judged on plain data
    class_keys  whose notebook it is, and which variant it must hold
    policy      --policy: the instructor's late rule, adjustments and weights, merged into the totals
    carried     error carried forward and typed values: the rows' words, and the policy's switches
    results     the CSV, totals, gradebook and printed summary
    manual      --manual: written answers marked by hand (the marking page, manual.csv, its merge)
    feedback    --feedback: each learner's page per lesson, and the zips each LMS takes back
    report      --report: the class report (HTML): spread, mistakes, set aside, shared work
    grader      the run: every submission graded, then the results written
    regrade     --explain: one grade question by question
    cli         the command line: reads the arguments and calls
    __main__    python -m embedlab.grading

Authors:
    generate    exercises/ and the answer keys from solutions/ (make exercises)

Class mode (a variant per learner; embedlab-assign builds handouts with generate):
    autograder  the Gradescope bundle and its run_autograder
    release     per learner through an LMS: the public bundle, Moodle's feedback-zip form
    assign      embedlab-assign: handouts per learner, instructor keys, solutions; embedlab-handout
"""
