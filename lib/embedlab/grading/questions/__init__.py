"""One module per lesson, `lNN.py`, declaring that lesson's exercise questions.

Each module sets LESSON = "NN-slug" and QUESTIONS = [...] (kinds and hints in
embedlab.grading.kinds). Expected values for non-function questions come from the
solution notebook, harvested into embedlab/grading/answers/NN-slug.key by
embedlab.grading.generate (`make exercises`).
"""
