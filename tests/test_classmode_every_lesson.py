"""What book/grading.md promises of class mode for EVERY parameterised lesson, not only lesson 01
(tests/test_classmode.py runs the whole class on lesson 01). No kernel: each lesson's handouts are
built as `embedlab-assign` builds them, and each variant's answers are computed by the lesson's
question module (`answers`, which its own tests/test_variants_lNN.py ties to the solution)."""

import importlib
import json

import numpy as np
import pytest

from embedlab.grading import assign
from embedlab.grading.generate import make_exercise
from embedlab.grading import variants
from embedlab.grading.kinds import Function
from embedlab.grading.lessons import ANSWERS_DIR, decode_key, known_lessons, questions_for
from embedlab.grading.values import written_forms, written_in
from embedlab.grading.variants import parameters_cell, parameters_of, read_parameters, shared_points, space_for

SECRET = b"a-secret-for-every-lesson-in-class-mode"
OTHER = b"another-instructors-secret"
K = 8
LESSONS, SKIPPED = assign.lessons_to_assign("all")
# The only answer keys the installed library holds: the book's (variant 0), encoded, one per lesson.
# (Its code and shipped configs hold public facts a variant's count can equal by arithmetic, such as
# a vocabulary of 256000 or a context of 32768: lesson 01's own test searches them for its secret.)
BOOK_KEYS = {name: json.dumps(decode_key((ANSWERS_DIR / f"{name}.key").read_text())) for name in known_lessons()}


def module_of(lesson):
    return importlib.import_module(f"embedlab.grading.questions.l{lesson.split('-', 1)[0]}")


def equal(a, b) -> bool:
    try:
        return np.shape(a) == np.shape(b) and bool(np.allclose(a, b))
    except (TypeError, ValueError, np.exceptions.DTypePromotionError):  # names, mixed records
        return a == b


def test_all_assigns_every_parameterised_lesson_and_names_each_skipped_one(monkeypatch, capsys, tmp_path):
    assert LESSONS and sorted(LESSONS + SKIPPED) == sorted(known_lessons())
    assert all(space_for(name) is not None for name in LESSONS) and all(space_for(name) is None for name in SKIPPED)
    (tmp_path / "secret.txt").write_bytes(SECRET)
    (tmp_path / "roster.csv").write_text("learner\nada\n")
    given = []
    monkeypatch.setattr(assign, "assign", lambda lessons, *args, **kwargs: given.append(lessons))  # no kernels
    assert assign.main(["all", "--roster", str(tmp_path / "roster.csv"), "--secret-file",
                        str(tmp_path / "secret.txt"), "--out", str(tmp_path / "class"), "--no-sandbox"]) == 0
    assert given == [LESSONS]
    err = capsys.readouterr().err
    assert [line.split(":")[0] for line in err.splitlines() if "skipped, not parameterised yet" in line] == SKIPPED
    for lesson in SKIPPED:  # asked for by name, it is refused
        with pytest.raises(assign.AssignError, match="not parameterised yet"):
            assign.lessons_to_assign(lesson)


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_variant_differs_from_the_book_and_its_handout_reveals_no_answer(lesson):
    module = module_of(lesson)
    space = space_for(lesson)
    solution = assign.solution_of(lesson)  # exactly one parameters cell, variant 0's values
    exercise = make_exercise(solution, lesson)
    book = module.answers(space.defaults)
    varying = [q.name for q in questions_for(lesson) if not isinstance(q, Function) and q.name not in space.fixed]
    checked = 0
    for variant in range(1, K + 1):
        params = parameters_of(lesson, variant, SECRET, space)
        mine = module.answers(params)
        for name in varying:  # each question that can vary has another answer than the book's
            if name in mine and name in book:
                same = equal(mine[name], book[name])
                assert not same, f"{lesson} variant {variant}: {name} equals the book's"
        nb = assign.handout(exercise, lesson, "ada", variant, params)
        assert nb.metadata["embedlab"] == {"lesson": lesson, "learner": "ada", "variant": variant}
        assert read_parameters(nb.cells[parameters_cell(nb)].source) == params
        text = "\n".join(c.source for c in nb.cells)
        # searched outside the parameters cell: a parameter may happen to equal an answer (lesson 07's
        # context of 32768 tokens and a cache of 32768 bytes per token), which hides nothing
        others = "\n".join(c.source for i, c in enumerate(nb.cells) if i != parameters_cell(nb))
        assert "BEGIN SOLUTION" not in text and f'Exercise("{lesson}", mode="class")' in text
        # the lesson named as a path in the course (no link to ../notebooks/ next to class/<learner>/),
        # the score heading renamed (the score is the instructor's), and the file itself to be handed in
        assert "../notebooks/" not in text and f"(`notebooks/{lesson}.ipynb` in the course)" in text
        assert "## Your answers so far" in text and "score so far" not in text
        assert "hand in this file itself" in nb.cells[1].source
        assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code")
        assert parameters_of(lesson, variant, OTHER, space) != params  # another secret, another variant
        for name, value in mine.items():
            assert not written_in(others, value), f"{lesson} variant {variant}: the handout shows {name}"
            if name in varying:  # the library's key of this lesson is the book's, not this variant's
                assert not written_in(BOOK_KEYS[lesson], value), f"{lesson} variant {variant}: the library shows {name}"
            checked += bool(written_forms(value))
    assert checked  # the search had values to look for


@pytest.mark.parametrize("lesson", LESSONS)
def test_no_classmate_on_another_variant_and_not_the_book_earns_more_than_half(lesson):
    """book/grading.md: a classmate's answers on another variant, or the book's, handed in as
    yours, earn at most half the points. Every ordered pair of a class of K = 8, judged as the
    grader judges (functions and questions that cannot vary earned by any copy)."""
    params = [parameters_of(lesson, v, SECRET) for v in range(K + 1)]
    for mine in range(1, K + 1):
        earned, total = shared_points(lesson, params[mine], params[mine])
        assert earned == total > 0  # the honest answers earn everything: the judge is real
        for given in range(K + 1):
            if given != mine:
                earned, total = shared_points(lesson, params[given], params[mine])
                assert earned <= total / 2, f"{lesson}: variant {given}'s answers earn {earned}/{total} as {mine}'s"


def test_shared_points_earns_what_the_full_judgement_earns(monkeypatch):
    """shared_points judges status-only (kinds.status_only: a wrong answer's hint is not searched,
    which made drawing a class slow); every pair's points are those of the full judgement, with its
    hints, on every ordered pair of a class of 3 (and the book) of two lessons."""
    import contextlib

    from embedlab.grading import kinds

    for lesson in ("01-toy-table", "04-modern-blocks"):
        params = [parameters_of(lesson, v, SECRET) for v in range(4)]
        pairs = [(a, b) for a in range(4) for b in range(1, 4)]
        fast = {pair: shared_points(lesson, params[pair[0]], params[pair[1]]) for pair in pairs}
        monkeypatch.setattr(kinds, "status_only", contextlib.nullcontext)
        full = {pair: shared_points(lesson, params[pair[0]], params[pair[1]]) for pair in pairs}
        monkeypatch.undo()
        assert fast == full, lesson
        assert any(earned < total for earned, total in full.values())  # wrong answers were judged


def test_status_only_skips_the_hint_and_keeps_the_status():
    from embedlab.grading.kinds import Array, Integer, Real, status_only
    from embedlab.grading.values import array_to_data

    cases = [(Integer("n"), {"int": 14}, 7), (Real("x", exact=True), {"real": 0.29}, 0.2903),
             (Array("E", exact=True), array_to_data(np.array([[1, 0], [0, 1]]).T * 2), array_to_data(np.eye(2))),
             (Integer("n"), {"int": 7}, 7)]
    cosine = next(q for q in questions_for("01-toy-table") if q.name == "cosine")
    args = cosine.cases(np.random.default_rng(0))
    for wrong in (lambda a, b: float(a @ b), lambda a, b: float(a @ b / np.linalg.norm(a))):
        cases.append((cosine, cosine.run_cases(wrong, args), cosine.expected_outputs(args)))
    for q, got, want in cases:
        full = q.judge(got, want)
        with status_only():
            quick = q.judge(got, want)
        assert (quick.status, quick.points) == (full.status, full.points)
        assert (full.detail != "") == (full.status != "correct"), (q.name, full.detail)
        assert quick.detail == "" or (q.name == "cosine" and "on input" in quick.detail), quick.detail


def test_variants_are_drawn_apart_where_independent_draws_would_collide(monkeypatch):
    """Drawn independently, lesson 01's class for this secret has two variants whose answers
    share 4 of 7 points (the same table size, pair cosine and model table: the word, feature and
    model pools overlap); drawn in order and kept apart (variants.too_close), no pair shares more
    than half."""
    lesson, secret = "01-toy-table", b"sec33"

    def worst(drawn):
        return max(shared_points(lesson, drawn[a], drawn[b])[0] / shared_points(lesson, drawn[a], drawn[b])[1]
                   for a in range(1, K + 1) for b in range(1, K + 1) if a != b)

    monkeypatch.setattr(variants, "_CLASSES", {})
    monkeypatch.setattr(variants, "too_close", lambda *args: None)
    assert worst([parameters_of(lesson, v, secret) for v in range(K + 1)]) > 0.5
    monkeypatch.undo()
    monkeypatch.setattr(variants, "_CLASSES", {})
    assert worst([parameters_of(lesson, v, secret) for v in range(K + 1)]) <= 0.5


def test_the_search_finds_a_value_written_any_usual_way():
    """written_in, the search behind the handout and book checks, finds what is there and only that."""
    assert written_in("params = 1_234_567 here", 1234567) == ["1_234_567"]
    assert written_in("about 1,234,567 of them", 1234567) == ["1,234,567"]
    assert written_in("ratio 0.12346 (rounded)", 0.123456789)
    assert written_in("[[1, 2], [3, 4]]", np.array([[1, 2], [3, 4]]))
    assert not written_in("12345678", 1234567) and not written_in("v1.234567", 1234567)
    assert written_forms(42) == [] and written_forms(True) == [] and written_forms("gpt2") == []
