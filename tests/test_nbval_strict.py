"""The test command compares stored outputs: a notebook whose output no longer matches fails."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSON = ROOT / "notebooks" / "01-toy-table.ipynb"


def run_nbval(path: Path) -> subprocess.CompletedProcess:
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
            "--nbval", "--nbval-current-env", "--nbval-sanitize-with", str(ROOT / "tests" / "sanitize.cfg"),
            str(path)]
    return subprocess.run(args, cwd=path.parent, capture_output=True, text=True)


def test_a_changed_stored_output_fails(tmp_path):
    good = tmp_path / "good" / LESSON.name
    bad = tmp_path / "bad" / LESSON.name
    for copy in (good, bad):
        copy.parent.mkdir()
        shutil.copy(LESSON, copy)

    nb = json.loads(bad.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        text_outputs = [o for o in cell.get("outputs", []) if o.get("output_type") == "stream"]
        if text_outputs:
            text_outputs[0]["text"] = ["V = 3, d = 2, parameters = V × d = 7\n"]
            break
    bad.write_text(json.dumps(nb), encoding="utf-8")

    assert run_nbval(good).returncode == 0
    result = run_nbval(bad)
    assert result.returncode == 1, result.stdout[-2000:]
    assert "1 failed" in result.stdout
