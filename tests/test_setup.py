"""The package is importable from anywhere once installed, without sys.path edits."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_embedlab_imports_from_any_folder(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", "import embedlab, pathlib; print(pathlib.Path(embedlab.__file__).resolve())"],
        cwd=tmp_path, capture_output=True, text=True, check=True,
    )
    assert Path(out.stdout.strip()) == ROOT / "lib" / "embedlab" / "__init__.py"


def test_notebooks_do_not_edit_sys_path():
    for folder in ("notebooks", "exercises", "solutions"):
        for path in (ROOT / folder).glob("*.ipynb"):
            assert "sys.path" not in path.read_text(encoding="utf-8"), path


def test_every_export_resolves():
    import embedlab

    for name in embedlab.__all__:
        assert getattr(embedlab, name) is not None, name


def test_requirements_are_pinned():
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-e"):
            assert "==" in line, f"not pinned: {line}"
