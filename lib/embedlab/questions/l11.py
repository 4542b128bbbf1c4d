"""Lesson 11's notebooks import BUDGET from here; the module is embedlab.grading.questions.l11."""

from embedlab.grading.questions.l11 import BUDGET, LESSON, QUESTIONS

__all__ = ["BUDGET", "LESSON", "QUESTIONS"]
