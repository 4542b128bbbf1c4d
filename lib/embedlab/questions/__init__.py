"""Kept for notebooks that import a lesson's question module from its old place
(lesson 11 imports its BUDGET): the modules live in embedlab.grading.questions."""
