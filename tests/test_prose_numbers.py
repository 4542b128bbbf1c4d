"""Every number of four or more digits in a lesson's prose is proven by the notebook itself.

A number typed into a markdown cell must also appear in a code cell of the
same notebook, in its source (a computation, an assert, or a published figure
with its citation) or in its output. This is the check CONTRIBUTING.md
promises: prose cannot drift away from the code that proves it.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = (sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "solutions").glob("*.ipynb"))
             + sorted((ROOT / "book").glob("*.ipynb")))  # the recap
NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.,])\d{4,}(?:\.\d+)?")


def prose_numbers(text: str) -> list[str]:
    text = re.sub(r"\]\([^)]*\)", "] ", text)            # link targets are not prose
    found = []
    for match in NUMBER.finditer(text):
        number = match.group(0)
        if re.fullmatch(r"(19|20)\d\d", number):             # a year, as in "Press & Wolf 2017"
            continue
        found.append(number)
    return found


def digits(number: str) -> str:
    return number.replace(",", "").replace("_", "")


def code_text(nb: dict) -> str:
    parts = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        parts.append("".join(cell["source"]))
        for output in cell.get("outputs", []):
            parts.append("".join(output.get("text", "")))
            parts.append("".join(output.get("data", {}).get("text/plain", "")))
    return digits("\n".join(parts))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_prose_numbers_are_proven_by_a_cell(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    code = code_text(nb)
    unproven = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            for number in prose_numbers("".join(cell["source"])):
                if digits(number) not in code:
                    unproven.append(number)
    assert not unproven, f"numbers in the prose that no code cell computes or prints: {unproven}"


def test_the_check_catches_an_unproven_number():
    nb = {"cells": [{"cell_type": "markdown", "source": ["GPT-2 has 124,439,808 parameters (Radford 2019)."]},
                    {"cell_type": "code", "source": ["x = 1"], "outputs": []}]}
    assert prose_numbers("".join(nb["cells"][0]["source"])) == ["124,439,808"]
    assert digits("124,439,808") not in code_text(nb)
