"""Every status a question can get, in one place (the CSV's `status` column).

A question's verdict in the notebook and in the grader uses the first four; the
grader adds the rest for a submission that could not be run or read to the end.
"""

CORRECT = "correct"
INCORRECT = "incorrect"
NOT_ATTEMPTED = "not_attempted"
ERROR = "error"
TIMEOUT = "timeout"  # a cell, the whole run, or the probe ran past its time limit
CRASHED = "crashed"  # the kernel or the worker died
MEMORY = "memory"  # the submission ran out of memory
UNREADABLE = "unreadable"  # not a readable notebook (or a link out of the submissions folder)
WRONG_LESSON = "wrong_lesson"  # another lesson's exercise, or no lesson can be told
IDENTITY_MISMATCH = "identity_mismatch"  # class mode: the notebook names another learner (or none we know)
NEEDS_KEYS = "needs_keys"  # a class handout graded without --keys: its variant's key is the instructor's
WRONG_PARAMETERS = "wrong_parameters"  # class mode: its parameters cell does not hold its learner's variant
UNKNOWN_SUBMITTER = "unknown_submitter"  # an LMS download: the file's submitter id is not on the roster
NOT_GRADED = "not_graded"  # the run stopped (Ctrl-C) or the grader failed before this was graded: no points
TO_MARK = "to_mark"  # a written answer (kinds.Written) waiting for the instructor's marks: 0 points until then
MARKED = "marked"  # a written answer the instructor marked (embedlab.grading.manual): the rubric's points

STATUSES = (CORRECT, INCORRECT, NOT_ATTEMPTED, ERROR, TIMEOUT, CRASHED, MEMORY, UNREADABLE, WRONG_LESSON,
            IDENTITY_MISMATCH, NEEDS_KEYS, WRONG_PARAMETERS, UNKNOWN_SUBMITTER, NOT_GRADED, TO_MARK, MARKED)

# Statuses about whose file it is or which variant it holds, not about its answers: an
# instructor looks at each (the totals' `review`).
REVIEW = (IDENTITY_MISMATCH, WRONG_PARAMETERS, NEEDS_KEYS, UNKNOWN_SUBMITTER)

# A learner's line in the totals (and the gradebook): what their number is.
GRADED, MISSING_WORK, NOT_GRADED_YET, TO_REVIEW = "graded", "missing", "not_graded", "review"
TOTAL_STATUSES = (GRADED, MISSING_WORK, NOT_GRADED_YET, TO_REVIEW)

# How a run of one submission ended (grader side); TIMEOUT, CRASHED and MEMORY above too.
FINISHED = "finished"
FAULT = "fault"  # the grader's own failure (no kernel could start): not the submission's


def format_points(points: float) -> str:
    """'3' for 3.0, '2.5' for 2.5: how points are printed and written to the CSV."""
    return str(int(points)) if float(points).is_integer() else f"{points:g}"
