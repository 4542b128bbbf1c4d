"""The autograder, split by where each part runs.

In the learner's kernel (notebook and grading run alike):
    kinds      question kinds (Integer, Real, Array, Choice, Function, Design) and hints (Hint, ratio, offset)
    diagnose   what is off about a wrong answer (digits, direction, ratios, shapes, the failing call)
    values     plain-data encodings of answers and function inputs (arrays as hex floats)
    exercise   the notebook-side check: Exercise(lesson).check(name)
    wire       the kernel↔grader wire format: the one probe that reads every answer as plain data
    lessons    each lesson's questions (questions/lNN.py) and answer key (answers/NN-slug.key)
    status     every status a question can get, in one place

In the sandbox (one per submission):
    worker     runs the submission's cells and the probe in a fresh kernel, reports to the grader

In the grader's process:
    cli        embedlab-grade: finds submissions, judges the plain data, writes the CSV
    sandbox    starts each submission's worker fenced in, and reads back what it reports
    budget     one control group per submission: its memory and process limits, killed as a whole
    text       the one escaping of text from outside (file names, anything a submission prints)

For authors:
    generate   builds exercises/ and the answer keys from solutions/ (`make exercises`)

Class mode (a variant per learner, keys for the instructor only):
    variants   the `parameters` cell, each lesson's variant space, a learner's variant (HMAC of a secret)
    assign     embedlab-assign: handouts per learner, instructor keys (solutions run in the sandbox)
    keys       the instructor keys' file format, read by embedlab-grade --keys
    autograder the Gradescope bundle and its run_autograder
"""
