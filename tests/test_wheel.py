"""embedlab as a distribution (tools/check_wheel.py): the wheel holds every file of the package.

The lessons read data shipped inside embedlab (model configs, TinyLM runs, BPE merges,
tokenizer sizes, the prose sample and the licence, the answer keys): a wheel that left one
out would install and import, and fail a lesson only on Colab or Binder. This builds the
wheel as `pip wheel` does and compares its file list with lib/embedlab. CI also runs
`tools/check_wheel.py`, which installs the wheel into a bare venv and runs every notebook
against it (slow: not here).
"""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tools_loader import load_tool

ROOT = Path(__file__).resolve().parent.parent
check_wheel = load_tool("check_wheel")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(ROOT)],
                   check=True, capture_output=True)
    found, = out.glob("embedlab-*.whl")
    return found


def test_the_wheel_holds_every_file_of_the_package_and_the_course_release(wheel):
    import embedlab
    assert wheel.name == f"embedlab-{embedlab.__version__}-py3-none-any.whl"
    assert check_wheel.wheel_problems(wheel) == []
    names = set(zipfile.ZipFile(wheel).namelist())
    # what the lessons read: the checks above hold them because they are files of lib/embedlab
    for shipped in ("embedlab/data/shipped/tinylm-runs.json", "embedlab/data/shipped/licence.txt",
                    "embedlab/data/gpt2.json", "embedlab/grading/answers/01-toy-table.key"):
        assert shipped in names


def test_a_wheel_missing_a_data_file_or_with_a_stray_one_is_named(wheel, tmp_path):
    doctored = tmp_path / wheel.name
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(doctored, "w") as dst:
        for item in src.infolist():
            if item.filename != "embedlab/data/shipped/bpe-merges.json":
                dst.writestr(item, src.read(item))
        dst.writestr("embedlab/notes.txt", "not in lib/")
    assert check_wheel.wheel_problems(doctored) == [
        "missing from the wheel: embedlab/data/shipped/bpe-merges.json",
        "in the wheel but not in lib/: embedlab/notes.txt"]
    assert check_wheel.wheel_problems(wheel, version="9.9") == [
        "no embedlab-9.9.dist-info/METADATA: the wheel's version is not the course's release 9.9",
        "missing from the wheel: embedlab-9.9.dist-info/licenses/LICENSE",
        "missing from the wheel: embedlab-9.9.dist-info/entry_points.txt"]


def test_the_shipped_licence_is_the_repository_licence():
    """Lesson 12 reads the licence from embedlab (licence_text), so a lesson opened alone runs."""
    from embedlab import licence_text
    assert licence_text() == (ROOT / "LICENSE").read_text(encoding="utf-8")
