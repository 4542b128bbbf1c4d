"""Kept so that notebooks' `from embedlab.exercise import Exercise` works: the autograder
lives in embedlab.grading (the check in embedlab.grading.exercise, the question kinds
in embedlab.grading.kinds)."""

from embedlab.grading.exercise import Exercise, evaluate
from embedlab.grading.kinds import (
    Array,
    Choice,
    Design,
    Function,
    Hint,
    Integer,
    NotAttempted,
    Question,
    Real,
    Verdict,
    WrongForm,
    offset,
    ratio,
)
from embedlab.grading.status import CORRECT, ERROR, INCORRECT, NOT_ATTEMPTED

__all__ = ["Exercise", "evaluate", "Array", "Choice", "Design", "Function", "Hint", "Integer", "NotAttempted",
           "Question", "Real", "Verdict", "WrongForm", "offset", "ratio", "CORRECT", "ERROR", "INCORRECT",
           "NOT_ATTEMPTED"]
