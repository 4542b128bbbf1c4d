"""What copying earns in class mode, lesson by lesson, over many instructor secrets.

    .venv/bin/python benchmarks/classmode_copying.py                 # 10 secrets, K = 8
    .venv/bin/python benchmarks/classmode_copying.py --secrets 40 --lessons 01,11

For each lesson and each secret it draws a class of K variants and prints, as the
worst case over all secrets:

- classmate: the most points one variant's answers earn handed in as another's
  (every ordered pair; `embedlab.grading.variants.shared_points`, judged as the
  grader judges, functions and questions that cannot vary earned by any copy);
- book: the most the book's answers (variant 0) earn as a class variant's;
- printed: the most points of one variant whose answers are printed somewhere in
  the published book (the lessons' sources and outputs, book/*.md), searched as
  tests/test_classmode_every_lesson.py searches a handout
  (`embedlab.grading.values.written_in`). Such a value may also be there by
  coincidence;
- the time to draw the class.

Figures are printed, never asserted: tests/test_classmode_every_lesson.py asserts
the "at most half" promise for its own secret.
"""

import argparse
import importlib
import time
from pathlib import Path

import nbformat

from embedlab.grading import variants
from embedlab.grading.lessons import known_lessons, questions_for
from embedlab.grading.values import written_in
from embedlab.grading.variants import parameters_of, shared_points

ROOT = Path(__file__).resolve().parent.parent


def book_text() -> str:
    parts = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            parts.append(cell.source)
            for output in cell.get("outputs", []):
                parts.append(output.get("text", "") or "")
                parts += [v for k, v in output.get("data", {}).items() if k.startswith("text/") and isinstance(v, str)]
    parts += [path.read_text(encoding="utf-8") for path in sorted((ROOT / "book").glob("*.md"))]
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--secrets", type=int, default=10, help="instructor secrets to try (default 10)")
    parser.add_argument("--variants", type=int, default=8, help="K (default 8)")
    parser.add_argument("--lessons", default="", help="comma-separated lesson numbers (default: all)")
    args = parser.parse_args()
    wanted = tuple(args.lessons.split(",")) if args.lessons else ()
    text = book_text()
    secrets = [f"benchmark-secret-{i:03d}".encode() for i in range(args.secrets)]
    print(f"{args.secrets} secrets, K = {args.variants}; worst case over the secrets")
    print(f"{'lesson':<22} {'classmate':>9} {'book':>6} {'printed':>7} {'draw s':>7}")
    for lesson in known_lessons():
        if wanted and not lesson.startswith(wanted):
            continue
        module = importlib.import_module(f"embedlab.grading.questions.l{lesson[:2]}")
        points = {q.name: q.points for q in questions_for(lesson)}
        total = sum(points.values())
        classmate = book = shown = 0.0
        drawing = 0.0
        for secret in secrets:
            variants._CLASSES.pop((lesson, secret), None)
            started = time.perf_counter()
            drawn = [parameters_of(lesson, v, secret) for v in range(args.variants + 1)]
            drawing = max(drawing, time.perf_counter() - started)
            for mine in range(1, args.variants + 1):
                for given in range(args.variants + 1):
                    if given != mine:
                        earned = shared_points(lesson, drawn[given], drawn[mine])[0]
                        if given:
                            classmate = max(classmate, earned)
                        else:
                            book = max(book, earned)
                answers = module.answers(drawn[mine])
                shown = max(shown, sum(points[n] for n, v in answers.items() if n in points and written_in(text, v)))
        print(f"{lesson:<22} {classmate:>4g} / {total:<2g} {book:>3g} / {total:<2g} {shown:>3g} / {total:<2g} "
              f"{drawing:>6.1f}", flush=True)


if __name__ == "__main__":
    main()
