"""Instructor keys (class mode): each class variant's parameters and expected values, and who has which.

``embedlab-assign`` writes one file per lesson, ``DIR/instructor-keys/NN-slug.json``:

    {"format": 1, "lesson": "01-toy-table", "variants": 8,
     "learners": {"alice": 3, ...},
     "keys": {"3": {"parameters": {...}, "key": {question: expected value, ...}}, ...}}

``embedlab-grade --keys DIR/instructor-keys`` judges each submission against the
key of its learner's variant. The learner is the one the notebook's metadata
names; their variant is the one recorded here (never the metadata's, which a
learner can edit). These files stay with the instructor: they are never inside
a learner's folder, and the grader's sandbox has no view of them.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

FORMAT = 1
KEYS_DIR = "instructor-keys"


class KeysError(ValueError):
    """The instructor keys folder is missing, unreadable or malformed."""


@dataclass
class Variant:
    number: int
    parameters: dict
    key: dict


@dataclass
class LessonKeys:
    lesson: str
    variants: int
    learners: dict  # learner id -> variant number
    keys: dict  # variant number -> Variant

    def for_learner(self, learner: str) -> Variant | None:
        number = self.learners.get(learner)
        return None if number is None else self.keys.get(number)


def lesson_file(folder: Path, lesson: str) -> Path:
    return Path(folder) / f"{lesson}.json"


def write_lesson_keys(folder: Path, lesson: str, k: int, learners: dict, variants: dict) -> Path:
    """Write one lesson's keys (owner-only permissions); `variants` maps number -> (parameters, key)."""
    folder = Path(folder)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    data = {"format": FORMAT, "lesson": lesson, "variants": k, "learners": dict(learners),
            "keys": {str(n): {"parameters": p, "key": key} for n, (p, key) in sorted(variants.items())}}
    path = lesson_file(folder, lesson)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with open(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=False)
        f.write("\n")
    return path


def load_keys(folder) -> dict[str, LessonKeys]:
    """Every lesson's keys in an instructor-keys folder, by lesson; KeysError if there are none."""
    folder = Path(folder)
    if not folder.is_dir():
        raise KeysError(f"--keys must be the instructor-keys folder embedlab-assign wrote, got {str(folder)!r}")
    out = {}
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != FORMAT:
                raise KeysError(f"{path.name}: unknown format {data.get('format')!r}")
            keys = {int(n): Variant(int(n), v["parameters"], v["key"]) for n, v in data["keys"].items()}
            learners = {str(name): int(n) for name, n in data["learners"].items()}
            out[data["lesson"]] = LessonKeys(data["lesson"], int(data["variants"]), learners, keys)
        except KeysError:
            raise
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise KeysError(f"{path}: not an instructor keys file ({type(exc).__name__}: {exc})") from None
    if not out:
        raise KeysError(f"no instructor keys (NN-slug.json) in {str(folder)!r}")
    return out
