"""Every lesson has its exercise and solution, and the book's table of contents lists all three."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("notebooks", "exercises", "solutions")
LESSONS = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))


def toc_files() -> set[str]:
    return set(re.findall(r"- file: (\S+)", (ROOT / "_toc.yml").read_text()))


def test_lesson_names_follow_nn_slug():
    assert LESSONS, "no lessons found"
    for name in LESSONS:
        assert re.fullmatch(r"\d\d-[a-z0-9]+(-[a-z0-9]+)*", name), name


@pytest.mark.parametrize("lesson", LESSONS)
def test_lesson_has_exercise_and_solution_in_the_toc(lesson):
    listed = toc_files()
    for folder in FOLDERS:
        assert (ROOT / folder / f"{lesson}.ipynb").exists(), f"{folder}/{lesson}.ipynb is missing"
        assert f"{folder}/{lesson}" in listed, f"{folder}/{lesson} is not in _toc.yml"


def test_toc_lists_no_notebook_that_is_not_a_lesson():
    for entry in toc_files():
        folder = entry.split("/")[0]
        if folder in FOLDERS:
            assert entry.split("/")[1] in LESSONS, entry


@pytest.mark.parametrize("lesson", LESSONS)
def test_notebook_metadata_names_the_lesson(lesson):
    for folder, kind in zip(FOLDERS, ("lesson", "exercise", "solution")):
        nb = json.loads((ROOT / folder / f"{lesson}.ipynb").read_text(encoding="utf-8"))
        meta = nb["metadata"].get("embedlab", {})
        assert meta.get("lesson") == lesson, f"{folder}/{lesson}: metadata lesson {meta.get('lesson')!r}"
        assert meta.get("kind") == kind, f"{folder}/{lesson}: metadata kind {meta.get('kind')!r}"


def test_references_name_every_shipped_config_and_both_deepseek_readme_versions():
    """book/references.md says it lists the sources: every config embedlab ships names its repository
    there (Pythia's as the range 70m ... 12b), and DeepSeek-V3's README_WEIGHTS.md by both versions."""
    import json
    import re

    refs = (ROOT / "book" / "references.md").read_text(encoding="utf-8")
    missing = []
    for path in sorted((ROOT / "lib" / "embedlab" / "data").glob("*.json")):
        repo = re.search(r"config\.json of ([\w.-]+/[\w.-]+)", json.loads(path.read_text())["_source"]).group(1)
        name = repo.split("/")[-1].lower()
        in_range = name.startswith("pythia-") and "`EleutherAI/pythia-70m` … `EleutherAI/pythia-12b`" in refs
        if name not in refs.lower() and not in_range:
            missing.append(repo)
    assert not missing, f"book/references.md lacks {missing}"
    assert "README_WEIGHTS.md" in refs and "36.7B" in refs and "36.6B" in refs
