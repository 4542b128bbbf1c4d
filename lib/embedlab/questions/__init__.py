"""One module per lesson, `lNN.py`, declaring that lesson's exercise questions.

Each module sets LESSON = "NN-slug" and QUESTIONS = [...] (kinds in embedlab.exercise).
Expected values for non-function questions come from the solution notebook,
harvested into embedlab/answers/NN-slug.key by tools/make_exercises.py.
"""
