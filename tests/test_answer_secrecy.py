"""The expected values are not readable as plain text in lib/ or in the exercises.

The key is stored encoded; this checks that no question module and no
generated exercise spells an expected value out (e.g. in a hint), which
would defeat it. It only guards against accidental peeking: solutions/ is public.
"""

import json
import re
from pathlib import Path

import pytest

from embedlab.grading.lessons import load_key

ROOT = Path(__file__).resolve().parent.parent
QUESTION_MODULES = sorted((ROOT / "lib" / "embedlab" / "grading" / "questions").glob("l*.py"))


def numbers_in(text: str) -> set[float]:
    found = set()
    for literal in re.findall(r"(?<![\w.])\d[\d_,]*(?:\.\d+)?(?:e[-+]?\d+)?", text):
        try:
            found.add(float(literal.replace("_", "").replace(",", "")))
        except ValueError:
            pass
    return found


def telling_values(key: dict) -> dict:
    """Expected numbers specific enough to give an answer away (not 0, 1 or a small count)."""
    return {name: float(v) for name, v in key.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) >= 1000}


def lesson_of(module: Path) -> str:
    return re.search(r'LESSON = "([^"]+)"', module.read_text()).group(1)


@pytest.mark.parametrize("module", QUESTION_MODULES, ids=lambda p: p.name)
def test_question_module_does_not_spell_out_an_answer(module):
    leaked = {name for name, v in telling_values(load_key(lesson_of(module))).items() if v in numbers_in(module.read_text())}
    assert not leaked, f"{module.name} writes the expected value of {sorted(leaked)} as a literal"


@pytest.mark.parametrize("module", QUESTION_MODULES, ids=lambda p: p.name)
def test_exercise_does_not_spell_out_an_answer(module):
    lesson = lesson_of(module)
    nb = json.loads((ROOT / "exercises" / f"{lesson}.ipynb").read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) + json.dumps(c.get("outputs", [])) for c in nb["cells"])
    leaked = {name for name, v in telling_values(load_key(lesson)).items() if v in numbers_in(text)}
    assert not leaked, f"exercises/{lesson}.ipynb shows the expected value of {sorted(leaked)}"


def test_the_check_sees_a_literal():
    assert 38_597_376.0 in numbers_in("hint: got == 38_597_376 or 38,597,376")
    assert telling_values({"a": 38_597_376, "b": 6, "c": "x"}) == {"a": 38_597_376.0}


def test_the_sources_headline_example_is_no_exercises_book_answer():
    """Lesson 05 works the sources' headline example in full (32,000 × 512 = 16,384,000, the tied head
    adds 0), so no exercise may ask for that number in the book's variant: a learner would copy it."""
    headline = {32_000 * 512, 2 * 32_000 * 512}
    for module in QUESTION_MODULES:
        key = load_key(lesson_of(module))
        shown = {name for name, v in key.items()
                 if isinstance(v, (int, float)) and not isinstance(v, bool) and v in headline}
        assert not shown, f"{lesson_of(module)}: {sorted(shown)} is the headline example lesson 05 works out"
    lesson = json.loads((ROOT / "notebooks" / "05-weight-tying.ipynb").read_text(encoding="utf-8"))
    assert "16,384,000" in "".join("".join(c["source"]) for c in lesson["cells"] if c["cell_type"] == "markdown")
