"""The book site: it builds with warnings as errors and publishes every page in _toc.yml.

The book is built once per test session (module-scoped fixture) into a temporary
folder, with the same command CI and `make book` use. All book tests live in this
one file so that pytest-xdist (`--dist loadfile`) builds it only once.
"""

import html
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import fetch_book_assets  # noqa: E402

BUILD_COMMAND = ["build", ".", "-W", "-n", "--keep-going"]


def jupyter_book() -> str:
    exe = Path(sys.executable).with_name("jupyter-book")
    return str(exe) if exe.exists() else "jupyter-book"


def toc_files() -> list[str]:
    """Every document _toc.yml publishes (root first), as paths without suffix."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf8"))
    files = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                files.append(entry["file"])
            walk(entry.get("sections"))
            walk(entry.get("chapters"))

    walk(toc.get("parts"))
    walk(toc.get("chapters"))
    return files


def source_of(doc: str) -> Path:
    for suffix in (".md", ".ipynb"):
        if (ROOT / (doc + suffix)).exists():
            return ROOT / (doc + suffix)
    raise FileNotFoundError(f"_toc.yml lists {doc!r}, which has no .md or .ipynb source")


def first_heading(path: Path) -> str:
    """The page title a reader sees: the first '# ' heading of the source."""
    if path.suffix == ".ipynb":
        text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    else:
        text = path.read_text(encoding="utf8")
    match = re.search(r"^# (.+)$", text, flags=re.MULTILINE)
    assert match, f"{path.relative_to(ROOT)} has no '# ' title"
    return match.group(1).strip()


def plain(text: str) -> str:
    """Heading text without markdown emphasis/code marks, for comparing with the HTML <title>."""
    return re.sub(r"[*_`]", "", text)


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    fetch_book_assets.fetch()
    out = tmp_path_factory.mktemp("book")
    proc = subprocess.run(
        [jupyter_book(), *BUILD_COMMAND, "--path-output", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    return proc, out / "_build" / "html"


def test_book_builds_with_warnings_as_errors(book):
    proc, html_dir = book
    log = re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout + "\n" + proc.stderr)   # no colour codes
    problems = [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line]
    assert proc.returncode == 0, "jupyter-book build failed:\n" + "\n".join(problems or log.splitlines()[-30:])
    assert (html_dir / "index.html").exists()


@pytest.mark.parametrize("doc", toc_files())
def test_every_toc_page_is_published_with_its_title(book, doc):
    _, html_dir = book
    page = html_dir / (doc + ".html")
    assert page.exists(), f"{doc} is in _toc.yml but {page.name} was not built"
    title = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf8"), flags=re.S)
    assert title and plain(first_heading(source_of(doc))) in html.unescape(title.group(1)), (
        f"{doc}.html does not carry the title of its source")


def test_every_notebook_is_in_the_toc_with_its_exercise_and_solution():
    listed = set(toc_files())
    notebooks = {f"{folder}/{p.stem}" for folder in ("notebooks", "exercises", "solutions")
                 for p in (ROOT / folder).glob("*.ipynb")}
    assert not notebooks - listed, f"notebooks missing from _toc.yml: {sorted(notebooks - listed)}"
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert lessons, "no lessons found"
    for slug in lessons:
        for folder in ("exercises", "solutions"):
            assert f"{folder}/{slug}" in listed, f"lesson {slug} has no {folder}/{slug} in _toc.yml"
    assert "book/intro" == toc_files()[0]


def test_notebook_pages_carry_their_stored_outputs(book):
    """A lesson page shows what nbval checked: every stored image is published."""
    _, html_dir = book
    for doc in toc_files():
        source = source_of(doc)
        if source.suffix != ".ipynb":
            continue
        nb = nbformat.read(source, as_version=4)
        n_images = sum("image/png" in out.get("data", {}) or "image/svg+xml" in out.get("data", {})
                       for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs)
        page = (html_dir / (doc + ".html")).read_text(encoding="utf8")
        published = len(re.findall(r'<img[^>]+src="[^"]*_images/', page))
        assert published >= n_images, f"{doc}: {n_images} stored figures, {published} published"
