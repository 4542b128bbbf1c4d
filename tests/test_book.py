"""The book site: it builds with warnings as errors, publishes every page in _toc.yml,
and reads well offline in a real browser.

The book is built once per test session (module-scoped fixture) into a temporary
folder, with the same command CI and `make book` use. All book tests live in this
one file so that pytest-xdist (`--dist loadfile`) builds it only once.

The browser tests open every page in headless Chromium (tools/check_site.py) with
every host but 127.0.0.1 unreachable. They run where Chromium is installed (CI
installs it, see .ci/run) and are skipped with a message where it is not.
"""

import fcntl
import fnmatch
import hashlib
import html
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


from tools_loader import load_tool  # noqa: E402
from tools_loader import needs_chromium as browser_mark  # noqa: E402


check_site = load_tool("check_site")
check_launch = load_tool("check_launch")
fetch_book_assets = load_tool("fetch_book_assets")
book_pdf = load_tool("book_pdf")          # (its `import check_site` finds the one loaded above)

CHROMIUM = check_site.find_chromium()
# CI sets EMBEDLAB_REQUIRE_BROWSER=1 (.ci/run): there a missing Chromium fails instead of skipping.
needs_chromium = browser_mark(CHROMIUM)

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


BROWSER_TESTS_RUN = CHROMIUM is not None or bool(os.environ.get("EMBEDLAB_REQUIRE_BROWSER"))


# The two builds are kept by the hash of everything they read (build_inputs_digest()), so a later
# session with the same inputs (make test again, tools/under_load.py's runs, a rerun of this file)
# reads the same build instead of making it again: the same inputs give the same site, its log and
# its exit code, which the tests below check as if it had just been built. Any change to the course,
# the tools, this file, the packages or the browser makes a new build. Only a build whose two parts
# succeeded is kept (a failure is built again, so a one-off failure is not kept). EMBEDLAB_BOOK_CACHE=0
# builds afresh every time; benchmarks/make_test.py --cold measures make test that way.
CACHE = ROOT / "_build" / "test-cache"


def build_inputs_digest() -> str:
    """sha256 of what the builds read: every file of the clone (tracked, or new and not ignored) but the
    other tests' and those the book's _config.yml excludes (README, CONTRIBUTING), by name and content; the Python and every installed distribution's version; the
    Chromium that prints the PDF (its path, size and time); the build command and its environment."""
    digest = hashlib.sha256()
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, check=True).stdout.decode("utf-8", "surrogateescape").split("\0")
    except (OSError, subprocess.CalledProcessError):      # not a git clone: every file outside the builds'
        listed = [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*") if p.is_file()
                  and not {".venv", "_build", "__pycache__", ".git"} & set(p.relative_to(ROOT).parts)]
    unread = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf8")).get("exclude_patterns", [])
    for name in sorted(set(listed)):
        path = ROOT / name
        if not name or not path.is_file() or any(fnmatch.fnmatch(name, pattern) for pattern in unread) or (
                name.startswith("tests/") and not name.startswith(
                    ("tests/book_fixture/", "tests/test_book.py", "tests/tools_loader.py"))):
            continue
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    digest.update(sys.version.encode())
    digest.update("\n".join(sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()
                                   if d.metadata["Name"])).encode())
    if CHROMIUM:
        real = Path(shutil.which(CHROMIUM) or CHROMIUM).resolve()
        stat = real.stat() if real.exists() else None
        digest.update(f"{real} {stat and stat.st_size} {stat and stat.st_mtime_ns}".encode())
    digest.update(json.dumps([BUILD_COMMAND, book_pdf.TAGGED_ENV, "0"]).encode())
    return digest.hexdigest()


def build_both(into: Path) -> dict:
    """Build the course book and the fixture book (widgets, launch links) under `into`, side by side:
    {name: (the build's CompletedProcess, its html folder)}."""
    out = into / "book"
    jobs = {"book": (ROOT, ["--path-output", str(out)], out / "_build" / "html")}
    (into / "widget_book").mkdir(parents=True)
    src = make_widget_book(into / "widget_book")     # widgets, and the launch switch
    jobs["widget_book"] = (src, [], src / "_build" / "html")
    (into / "launch_book").mkdir(parents=True)
    src = make_launch_book(into / "launch_book")     # the course with a placeholder address
    jobs["launch_book"] = (src, [], src / "_build" / "html")
    running = {}
    # the PDF printed untagged: the same pages and text in half the time (tools/book_pdf.py)
    env = {**os.environ, book_pdf.TAGGED_ENV: "0"}
    for name, (cwd, extra, html_dir) in jobs.items():
        log = open(into / f"{name}.log", "w+", encoding="utf8")
        running[name] = (subprocess.Popen([jupyter_book(), *BUILD_COMMAND, *extra], cwd=cwd, text=True, env=env,
                                          stdout=log, stderr=subprocess.STDOUT), log, html_dir)
    results = {}
    for name, (proc, log, html_dir) in running.items():
        proc.wait(timeout=900)
        log.seek(0)
        results[name] = (subprocess.CompletedProcess(proc.args, proc.returncode, log.read(), ""), html_dir)
        log.close()
    return results


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """The course book and the fixture book, built (or the build of the same inputs, kept: CACHE)."""
    fetch_book_assets.fetch()
    if os.environ.get("EMBEDLAB_BOOK_CACHE") == "0":
        return build_both(tmp_path_factory.mktemp("builds"))
    CACHE.mkdir(parents=True, exist_ok=True)
    kept = CACHE / f"book-{build_inputs_digest()[:20]}"
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)          # one build at a time: another session waits, then reads it
        if not (kept / "builds.json").is_file():
            for old in CACHE.iterdir():           # other inputs' builds, and one left half made (not the
                if old.is_dir() and (old.name.startswith("book-") or old.name == "building"):  # harvests)
                    shutil.rmtree(old, ignore_errors=True)
            work = CACHE / "building"
            work.mkdir()
            results = build_both(work)
            if any(proc.returncode for proc, _ in results.values()):
                return results
            (work / "builds.json").write_text(json.dumps({
                name: {"args": proc.args, "returncode": proc.returncode, "stdout": proc.stdout,
                       "html": html_dir.relative_to(work).as_posix()} for name, (proc, html_dir) in results.items()}))
            work.rename(kept)
    saved = json.loads((kept / "builds.json").read_text())
    return {name: (subprocess.CompletedProcess(b["args"], b["returncode"], b["stdout"], ""), kept / b["html"])
            for name, b in saved.items()}


@pytest.fixture(scope="module")
def book(builds):
    return builds["book"]


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


def test_each_lesson_is_followed_by_its_exercise_then_its_solution():
    """Reading order: a lesson, its exercise, its solution, nested under the lesson in the sidebar;
    the instructors' guide in its own part, the last one."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf8"))
    lessons = [c for part in toc["parts"] for c in part["chapters"] if c["file"].startswith("notebooks/")]
    assert [c["file"] for c in lessons] == sorted(f"notebooks/{p.stem}" for p in (ROOT / "notebooks").glob("*.ipynb"))
    for chapter in lessons:
        slug = chapter["file"].removeprefix("notebooks/")
        assert [s["file"] for s in chapter.get("sections", [])] == [f"exercises/{slug}", f"solutions/{slug}"], (
            f"{slug}: its sections in _toc.yml must be its exercise, then its solution")
    assert [c["file"] for c in toc["parts"][-1]["chapters"]] == ["book/instructors", "book/a-term",
                                                                  "book/grading"], (
        "the instructors' part comes last: the commands at a glance (the README's For instructors links it), "
        "the term step by step, then the grading reference")


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
        figures = re.findall(r'<figure\b.*?</figure>', page, flags=re.S)
        described = [f for f in figures if re.search(r'<img alt="[^"]{40,}"', f) and "<figcaption" in f]
        assert len(described) >= n_images, f"{doc}: {n_images} figures, {len(described)} with alt text and a caption"


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def toc_notebooks() -> list[str]:
    return [d for d in toc_files() if (ROOT / (d + ".ipynb")).exists()]


@pytest.mark.parametrize("doc", toc_notebooks())
def test_saved_widget_state_is_complete(doc):
    """The site renders widgets from the state saved in the notebook (no kernel): every view and
    every model a model refers to ("IPY_MODEL_<id>") must be in it, or the page shows nothing."""
    nb = nbformat.read(source_of(doc), as_version=4)
    views = [out["data"][WIDGET_VIEW]["model_id"] for cell in nb.cells if cell.cell_type == "code"
             for out in cell.outputs if WIDGET_VIEW in out.get("data", {})]
    if not views:
        return
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    assert state, f"{doc} shows widgets but saved no widget state (run it with tools/run_notebooks.py)"
    missing_views = [v for v in views if v not in state]
    refs = set(re.findall(r"IPY_MODEL_([0-9a-zA-Z_-]+)", json.dumps(state)))
    missing_refs = sorted(refs - set(state))
    assert not missing_views and not missing_refs, (
        f"{doc}: saved widget state is incomplete: views {missing_views} and referenced models "
        f"{missing_refs[:5]}{'...' if len(missing_refs) > 5 else ''} ({len(missing_refs)}) are not in it")


def widgets_without_report(nb) -> list[int]:
    """Code cells (1-based) that show a widget not followed by a cell printing the report it shows."""
    import html as html_module

    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    reports = [html_module.unescape(re.sub(r"</?pre>", "", model["state"].get("value", ""))).strip()
               for model in state.values() if model.get("model_name") == "HTMLModel"]
    code = [c for c in nb.cells if c.cell_type == "code"]
    missing = []
    for i, cell in enumerate(code):
        if not any(WIDGET_VIEW in out.get("data", {}) for out in cell.outputs):
            continue
        following = "".join(out.get("text", "") for out in (code[i + 1].outputs if i + 1 < len(code) else [])
                            if out.output_type == "stream")
        if not any(report and report in following for report in reports):
            missing.append(i + 1)
    return missing


WIDGET_LESSONS = [d for d in toc_notebooks() if WIDGET_VIEW in source_of(d).read_text(encoding="utf8")]


@pytest.mark.parametrize("doc", WIDGET_LESSONS)
def test_a_static_widget_has_its_report_printed_beside_it(doc):
    """The book draws a widget from saved state, static; the report it shows (an HTML widget's text)
    is also printed by the next code cell, as plain output a reader can copy and search."""
    nb = nbformat.read(source_of(doc), as_version=4)
    assert not widgets_without_report(nb), f"{doc}: widgets not followed by their printed report"
    for cell in nb.cells:                                    # the check sees a widget left on its own
        if cell.cell_type == "code" and any(out.output_type == "stream" for out in cell.outputs):
            cell.outputs = [out for out in cell.outputs if out.output_type != "stream"]
    assert widgets_without_report(nb)


def stored_figures(notebook: Path) -> int:
    return sum("image/png" in out.get("data", {}) or "image/svg+xml" in out.get("data", {})
               for cell in nbformat.read(notebook, as_version=4).cells if cell.cell_type == "code"
               for out in cell.outputs)


# -- in the browser -----------------------------------------------------------

SITE_TABS = 3          # course pages loaded at once (each in its own tab of one Chromium)

# axe-core checks these pages of the course site in both themes at both widths: a theme or a width
# changes the template and CSS every page shares, and each kind of page is here (the landing page, a
# markdown page, the two widget lessons, an exercise, a solution). CI checks every page in all four
# (.ci/run: `tools/check_site.py _build/html --axe --first-paint` on the built book): the whole matrix
# costs about 170 s of CPU, nearly half of what `make test` may spend (two cores for 180 s), and even
# one pair for each other page (0.65 s of CPU a page) cost 25 s of it.
AXE_EVERY_PAIR = ["book/intro.html", "book/about.html", "notebooks/03-counting-gpt2.html",
                  "notebooks/07-memory.html", "exercises/10-glitch-tokens.html", "solutions/10-glitch-tokens.html"]
# First paint on fast 4G, timed one page at a time: one page of each kind, the two widget lessons
# (the heaviest scripts) and the longest pages. `tools/check_site.py --first-paint` times every page.
FIRST_PAINT_PAGES = ["book/intro.html", "notebooks/03-counting-gpt2.html", "notebooks/07-memory.html",
                     "notebooks/09-what-rows-learn.html", "book/grading.html", "exercises/07-memory.html",
                     "solutions/10-glitch-tokens.html", "search.html"]


def axe_script() -> str:
    return (fetch_book_assets.fetch_check_tools() / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def browser_checks(book, widget_book, tmp_path_factory):
    """Every browser check of this file, run at once in one Chromium: the course site (every page
    loaded once and measured at each width, in each theme, with axe-core; then its first paint on
    fast 4G), the fixture book, the broken copies the checker must fail on, and the search page
    opened from disk. Each check runs in its own tabs; the tests below read the results."""
    if not BROWSER_TESTS_RUN:
        pytest.skip("no Chromium")
    _, html_dir = book
    axe = axe_script()
    broken = tmp_path_factory.mktemp("broken")
    break_site(html_dir, broken / "page")
    break_widgets_static(widget_book, broken / "live")
    break_widget_manager(widget_book, broken / "manager")
    jobs = {
        "site": lambda b: check_site.check_site(html_dir, browser=b, tabs=SITE_TABS, axe=AXE_EVERY_PAIR,
                                                axe_script=axe, axe_every=AXE_EVERY_PAIR,
                                                first_paint=FIRST_PAINT_PAGES),
        "widget_book": lambda b: check_site.check_site(widget_book, browser=b, axe="all", axe_script=axe),
        "broken_page": lambda b: check_site.check_site(broken / "page", pages=["book/intro.html"], browser=b,
                                                       axe="all", axe_script=axe, first_paint=["book/intro.html"]),
        "looks_live": lambda b: check_site.check_site(broken / "live", pages=["widgets.html"], browser=b,
                                                      widths=(1280,)),
        "no_manager": lambda b: check_site.check_site(broken / "manager", pages=["widgets.html"], browser=b,
                                                      widget_wait=1, widths=(1280,)),
        "search": lambda b: search_from_disk(b, html_dir),
    }
    results, errors = {}, {}

    def run(name, job):
        try:
            results[name] = job(browser)
        except BaseException as error:          # raised in the tests that read it
            errors[name] = error

    with check_site.Chromium(CHROMIUM) as browser:
        threads = [threading.Thread(target=run, args=item) for item in jobs.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    return results, errors


def browser_result(browser_checks, name):
    results, errors = browser_checks
    if name in errors:
        raise errors[name]
    return results[name]


@pytest.fixture(scope="module")
def site_reports(browser_checks):
    return {r.page: r for r in browser_result(browser_checks, "site")}


@needs_chromium
def test_every_page_loads_offline_with_no_error_failed_request_or_broken_link(site_reports):
    problems = [f"{page}: {problem}" for page, r in site_reports.items() for problem in r.problems]
    assert not problems, "\n".join(problems)
    assert "book/intro.html" in site_reports


@needs_chromium
@pytest.mark.parametrize("doc", toc_notebooks())
def test_notebook_page_shows_its_figures_and_typeset_math_in_the_browser(site_reports, doc):
    report = site_reports[doc + ".html"]
    assert report.figures >= stored_figures(source_of(doc)), (
        f"{doc}: {report.figures} figures shown, {stored_figures(source_of(doc))} stored")
    assert report.math_typeset == report.math
    source = source_of(doc).read_text(encoding="utf8")
    if re.search(r"\$[^$\s][^$]*\$", "\n".join(
            c.source for c in nbformat.reads(source, as_version=4).cells if c.cell_type == "markdown")):
        assert report.math > 0 and report.math_typeset == report.math, f"{doc}: its $math$ is not typeset"


FIXTURE = Path(__file__).parent / "book_fixture"


# The one switch for launch buttons: with it set, the fixture book's notebook pages link to Binder and Colab.
FIXTURE_REPOSITORY = "https://github.com/embedding-lab/fixture"


def make_widget_book(src: Path) -> Path:
    """A three-page book with the course's _config.yml: a notebook with saved ipywidgets state and
    math, and a notebook in a subfolder; `repository.url` is set (the course leaves it empty).

    The lessons may or may not use widgets; this proves the offline widget setup either way.
    (The notebook is stored as .ipynb.json so nbval does not collect it.)
    """
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf8"))
    config["repository"]["url"] = FIXTURE_REPOSITORY
    sphinx_config = config["sphinx"]["config"]
    sphinx_config["embedlab_pdf"] = False        # the course book's build prints the PDF (and is tested)
    sphinx_config["html_static_path"] = [str(ROOT / p) for p in sphinx_config["html_static_path"]]
    sphinx_config["html_favicon"] = str(ROOT / sphinx_config["html_favicon"])
    config["sphinx"]["local_extensions"] = {name: str(ROOT / path)
                                            for name, path in config["sphinx"]["local_extensions"].items()}
    (src / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf8")
    (src / "_toc.yml").write_text("format: jb-book\nroot: index\nchapters:\n  - file: widgets\n"
                                  "  - file: lessons/launch\n")
    (src / "index.md").write_text("# Fixture\n\nMath $a^2 + b^2 = c^2$ and [the widgets](widgets.ipynb).\n")
    shutil.copy(FIXTURE / "widgets.ipynb.json", src / "widgets.ipynb")
    (src / "lessons").mkdir()
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# A lesson in a folder")]),
                   src / "lessons" / "launch.ipynb")
    return src


@pytest.fixture(scope="module")
def widget_book(builds):
    proc, html_dir = builds["widget_book"]
    assert proc.returncode == 0, proc.stdout[-5000:]
    return html_dir


@needs_chromium
def test_widgets_render_from_saved_state_and_math_is_typeset_offline(browser_checks):
    reports = {r.page: r for r in browser_result(browser_checks, "widget_book")}
    assert all(not r.problems for r in reports.values()), {p: r.problems for p, r in reports.items()}
    widgets = reports["widgets.html"]
    assert widgets.widgets == 2                      # the slider, and the box with the saved Output
    assert widgets.math == widgets.math_typeset == 2
    assert reports["index.html"].math == reports["index.html"].math_typeset == 1


FIXTURE_HUB = "https://hub.example.org"


def make_launch_book(src: Path) -> Path:
    """The course's pages with a placeholder address (repository.url and a JupyterHub): its notebooks
    without their outputs (the links do not depend on them; the build is quicker)."""
    make_widget_book(src)                       # the fixture's config, pointed at this clone's files
    config = yaml.safe_load((src / "_config.yml").read_text(encoding="utf8"))
    config["launch_buttons"]["jupyterhub_url"] = FIXTURE_HUB
    (src / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf8")
    for name in ("widgets.ipynb", "index.md", "lessons"):
        shutil.rmtree(src / name) if (src / name).is_dir() else (src / name).unlink()
    shutil.copy(ROOT / "_toc.yml", src / "_toc.yml")
    shutil.copytree(ROOT / "book", src / "book")
    for folder in check_launch.NOTEBOOK_FOLDERS:
        (src / folder).mkdir()
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            nb = nbformat.read(path, as_version=4)
            nb.metadata.pop("widgets", None)
            for cell in nb.cells:
                if cell.cell_type == "code":
                    cell.outputs, cell.execution_count = [], None
            nbformat.write(nb, src / folder / path.name)
    return src


def test_every_notebook_page_launches_its_own_notebook_on_binder_colab_and_jupyterhub(builds, tmp_path):
    """With an address set, each lesson, exercise and solution page links Binder, Colab and the hub
    (nbgitpuller) to its own notebook (tools/check_launch.py); each page's box names the three ways."""
    proc, html_dir = builds["launch_book"]
    assert proc.returncode == 0, proc.stdout[-5000:]
    config = yaml.safe_load((html_dir.parent.parent / "_config.yml").read_text(encoding="utf8"))
    assert check_launch.launch_problems(html_dir, config) == []
    pages = check_launch.notebook_pages(html_dir)
    assert len(pages) == 3 * len(list((ROOT / "notebooks").glob("*.ipynb")))
    links = check_launch.launch_links(html_dir / "solutions" / "07-memory.html")
    assert links["colab"] == [f"https://colab.research.google.com/github/{FIXTURE_REPOSITORY[19:]}/blob/main/"
                              "solutions/07-memory.ipynb"]
    assert links["jupyterhub"][0].startswith(f"{FIXTURE_HUB}/hub/user-redirect/git-pull?")
    # the check sees a page that links another notebook
    shutil.copytree(html_dir / "notebooks", tmp_path / "site" / "notebooks")     # the kept build stays as built
    page = tmp_path / "site" / "notebooks" / "07-memory.html"
    page.write_text(page.read_text(encoding="utf8").replace("notebooks/07-memory.ipynb",
                                                            "notebooks/06-params-vs-compute.ipynb"), encoding="utf8")
    broken = check_launch.launch_problems(tmp_path / "site", config)
    assert "notebooks/07-memory: binder links " in "".join(broken) and len(broken) == 3, broken
    for doc in pages:
        box = re.search(r'<aside class="embedlab-page-nav[^"]*"[^>]*>(.*?)</aside>',
                        (html_dir / f"{doc}.html").read_text(encoding="utf8"), flags=re.S).group(1)
        assert all(f"<strong>{way}</strong>" in box for way in ("Binder", "Colab", "JupyterHub")), doc


def launch_links(page: Path) -> list[str]:
    return sorted(set(re.findall(r'href="(https://(?:mybinder\.org|colab\.research\.google\.com)/[^"]*)"',
                                 html.unescape(page.read_text(encoding="utf8")))))


def test_launch_buttons_follow_the_repository_url(book, widget_book):
    """_config.yml's one switch: with repository.url set, each notebook page links to Binder and Colab at
    its own path in the repository; the course leaves it empty, and no page has a launch link."""
    repo = FIXTURE_REPOSITORY.removeprefix("https://github.com/")
    assert launch_links(widget_book / "lessons" / "launch.html") == [
        f"https://colab.research.google.com/github/{repo}/blob/main/lessons/launch.ipynb",
        f"https://mybinder.org/v2/gh/{repo}/main?urlpath=lab/tree/lessons/launch.ipynb",
    ]
    assert launch_links(widget_book / "widgets.html") == [
        f"https://colab.research.google.com/github/{repo}/blob/main/widgets.ipynb",
        f"https://mybinder.org/v2/gh/{repo}/main?urlpath=lab/tree/widgets.ipynb",
    ]
    assert launch_links(widget_book / "index.html") == []          # a markdown page: nothing to launch
    _, html_dir = book
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf8"))
    assert config["repository"]["url"] == ""                          # no public repository yet
    assert config["launch_buttons"]["binderhub_url"] and config["launch_buttons"]["colab_url"]
    linked = [p.relative_to(html_dir).as_posix() for p in html_dir.rglob("*.html") if launch_links(p)]
    assert not linked, f"launch links with no repository URL set: {linked}"
    assert check_launch.launch_problems(html_dir, config) == []
    assert config["launch_buttons"]["jupyterhub_url"] == ""                # the class's hub: a-term.md


def break_site(html_dir: Path, into: Path) -> None:
    """A copy of the site with one of each fault the browser test must catch."""
    shutil.copytree(html_dir, into)
    page = into / "book" / "intro.html"
    text = page.read_text(encoding="utf8")
    text = text.replace("</article>", """
<a href="no-such-page.html">a link to nothing</a>
<a href="how-to-use.html#no-such-section">a link to a missing anchor</a>
<img src="../_images/no-such-figure.png" alt="a missing figure">
<span class="math notranslate nohighlight">\\(V \\times d\\)</span>
<script>console.error("deliberate console error")</script>
<script>callThatDoesNotExist()</script>
<script src="https://cdn.example.org/remote.js"></script>
<button class="btn search-button-field">a second search field (wide screens)</button>
<button class="btn search-button">a second search button (narrow screens)</button>
<code class="docutils literal notranslate" style="white-space: pre">a/very/long/path/that/no/phone/can/hold/in/one/line/of/text/anywhere.md</code>
<p>a formula shown as its source: 2 \\cdot L \\cdot \\text{head\\_dim}</p>
<button class="btn"><span class="fa-solid fa-xmark"></span></button>
<img src="../_images/embedlab-small-text.png" alt="a figure drawn with 6-point labels">
<img src="../_images/embedlab-plain-png.png" alt="a figure drawn at 1x, with no text size recorded">
</article>""", 1)
    # a script that blocks the first paint: 6 MB that no compression shrinks, in the head, not
    # deferred (about 5 s on fast 4G: late against any budget, however loaded the machine)
    text = text.replace("</head>", '<script src="../_static/embedlab-blocking.js"></script></head>', 1)
    page.write_text(text, encoding="utf8")
    import base64
    import random
    noise = base64.b64encode(random.Random(0).randbytes(4_500_000)).decode()
    (into / "_static" / "embedlab-blocking.js").write_text(f"/* {noise} */", encoding="utf8")
    (into / "_images" / "embedlab-small-text.png").write_bytes(small_text_figure())
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import io
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot([0, 1], [0, 1])
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    plt.close(fig)
    (into / "_images" / "embedlab-plain-png.png").write_bytes(buffer.getvalue())
    (into / "_static" / "mathjax" / "tex-mml-chtml.js").unlink()   # MathJax is gone: no math is typeset


def small_text_figure() -> bytes:
    """A figure drawn the course's way (embedlab.figures) but with 6-point tick labels."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from embedlab import figures

    with plt.rc_context(figures.RC):
        fig, ax = plt.subplots(figsize=(5, 3))
        ax.plot([0, 1], [0, 1])
        ax.tick_params(labelsize=6)
        data, _ = figures.png(fig)
        plt.close(fig)
    return data


@needs_chromium
def test_the_browser_check_fails_on_a_broken_page(browser_checks):
    [report] = browser_result(browser_checks, "broken_page")
    found = "\n".join(report.problems)
    for expected in ("broken link: http://127.0.0.1", "no-such-page.html does not exist",
                     "no #no-such-section on book/how-to-use.html",
                     "image not shown:", "no-such-figure.png",
                     "math not typeset:",
                     "console.error: deliberate console error",
                     "uncaught exception: ReferenceError: callThatDoesNotExist is not defined",
                     "request to a remote host: https://cdn.example.org/remote.js",
                     "failed request: HTTP 404",
                     "search boxes at 1280 px: 2", "search boxes at 390 px: 2",
                     "page wider than the window at 390 px",
                     "raw TeX in the text", "2 \\cdot L \\cdot \\text{head\\_dim}",
                     "accessibility (critical, light, 1280 px): button-name",
                     "accessibility (critical, dark, 390 px): button-name",
                     "px at 390 px (at least 10): embedlab-small-text.png",
                     "figure without its text size", "embedlab-plain-png.png",
                     "figure drawn at 1.00x at 1280 px", "first paint on fast 4G"):
        assert expected in found, f"the checker missed {expected!r}; it reported:\n{found}"


# Waits for a condition, never a fixed time: the search has finished ("Search finished, found N
# page(s)"), its N hits are listed, and every hit has its snippet (each one is fetched on its own,
# after the hits are listed). On a loaded machine that takes longer, not differently. Gives up
# after 30 s and returns what it has, for the assertion to show.
SEARCH_SETTLED_JS = """(async () => {
  const state = () => {
    const status = (document.querySelector('#search-results .search-summary, #search-progress') || {}).textContent || '';
    const announced = (status.match(/found (\\d+) page/) || [])[1];
    const hits = document.querySelectorAll('#search-results li').length;
    const snippets = [...document.querySelectorAll('#search-results li p.context')].map(p => p.textContent);
    return {status, announced: announced === undefined ? null : Number(announced), hits, snippets};
  };
  const settled = s => s.announced !== null && s.hits === s.announced && s.snippets.length === s.hits;
  const deadline = Date.now() + 30000;
  while (!settled(state()) && Date.now() < deadline) await new Promise(r => setTimeout(r, 25));   // a poll
  return state();
})()"""


def search_from_disk(browser, html_dir: Path) -> tuple[dict, list[str]]:
    tab = browser.new_tab()
    tab.open((html_dir / "search.html").as_uri() + "?q=tied+head", widget_wait=0)
    found = tab.evaluate(SEARCH_SETTLED_JS)
    return found, [p for p in map(check_site._describe, tab.events) if p]


@needs_chromium
def test_search_shows_snippets_when_the_site_is_opened_from_disk(browser_checks):
    """Over file:// a browser refuses the fetches Sphinx's search makes for its snippets;
    book_theme.py and embedlab.js serve them from a file written at build time."""
    found, errors = browser_result(browser_checks, "search")
    assert found["announced"] == found["hits"] >= 5 and len(found["snippets"]) == found["hits"], found
    assert all(len(s.strip(". ")) > 40 for s in found["snippets"]), found["snippets"]
    assert "head" in found["snippets"][0].lower(), found["snippets"][0]          # cut around the search term
    furniture = [s for s in found["snippets"] if re.search(r"\\[A-Za-z]{2,}|\\[()\[\]]|\bContents\b", s)]
    assert not furniture, f"snippets with raw TeX or the print-only 'Contents': {furniture[:3]}"
    assert not errors, errors


def break_widgets_static(widget_book: Path, broken: Path) -> None:
    shutil.copytree(widget_book, broken)
    script = broken / "_static" / "widgets-offline.js"
    text = script.read_text(encoding="utf8")
    start, end = text.index("// -- static view"), text.index("// -- end of static view")
    script.write_text(text[:start] + text[end:], encoding="utf8")      # widgets drawn as saved: enabled


def break_widget_manager(widget_book: Path, broken: Path) -> None:
    shutil.copytree(widget_book, broken)
    (broken / "_static" / "html-manager" / "embed-amd.js").unlink()   # the widget manager is gone


@needs_chromium
def test_the_browser_check_fails_on_a_widget_that_looks_live(browser_checks):
    [report] = browser_result(browser_checks, "looks_live")
    found = "\n".join(report.problems)
    assert "widget controls a reader can move" in found, found
    assert "widgets without the 'static view' line: 2 of 2" in found, found


@needs_chromium
def test_the_browser_check_fails_when_widgets_cannot_render(browser_checks):
    [report] = browser_result(browser_checks, "no_manager")
    found = "\n".join(report.problems)
    assert "widgets not rendered: 0 of 2" in found, found
    assert "failed request: HTTP 404" in found and "embed-amd.js" in found, found


def test_axe_rotation_checks_every_page_and_every_pair_on_a_quarter_of_them():
    pages = [f"p{i:02}.html" for i in range(22)] + ["full.html"]
    chosen = check_site.axe_rotation(pages, "all", ["full.html"])
    assert set(chosen) == set(pages) and chosen["full.html"] is None      # None: every pair
    rotated = [pair for page, pairs in chosen.items() if pairs is not None for pair in pairs]
    assert len(rotated) == 22 and {rotated.count(p) for p in set(rotated)} == {5, 6} and len(set(rotated)) == 4
    assert check_site.axe_rotation(pages, ["p01.html"], "all") == {"p01.html": None}
    assert check_site.axe_rotation(pages, (), "all") == {}


def test_asset_fetch_refuses_a_tarball_that_does_not_match_its_pinned_integrity(tmp_path):
    package = fetch_book_assets.PACKAGES[-1]
    (tmp_path / package.tarball_name).write_bytes(b"not the published tarball")
    with pytest.raises(ValueError, match="integrity mismatch"):
        fetch_book_assets.download(package, cache=tmp_path)


def search_titles(html_dir: Path) -> dict[str, str]:
    """docname -> the title the search results show, from the built searchindex.js."""
    text = (html_dir / "searchindex.js").read_text(encoding="utf8")
    index = json.loads(text[text.index("(") + 1:text.rindex(")")])
    return dict(zip(index["docnames"], index["titles"]))


@pytest.mark.parametrize("doc", [d for d in toc_files() if d.startswith("solutions/")])
def test_solution_pages_are_titled_solution_nn(book, doc):
    """A solution page says so wherever its name appears: heading, tab title, sidebar, search results."""
    _, html_dir = book
    expected = f"Solution {Path(doc).name[:2]} ·"
    page = (html_dir / (doc + ".html")).read_text(encoding="utf8")
    sidebar = (html_dir / "book" / "intro.html").read_text(encoding="utf8")
    seen = {
        "heading": re.sub(r"<[^>]+>", "", re.search(r"<h1>(.*?)</h1>", page, flags=re.S).group(1)),
        "tab title": re.search(r"<title>(.*?)</title>", page, flags=re.S).group(1),
        "sidebar": re.search(rf'href="\.\./{re.escape(doc)}\.html">([^<]*)<', sidebar).group(1),
        "search results": search_titles(html_dir)[doc],
    }
    wrong = {where: text for where, text in seen.items() if not html.unescape(text).strip().startswith(expected)}
    assert not wrong, f"{doc} is not titled {expected!r} in: {wrong}"


@needs_chromium
def test_no_output_scrolls_sideways_at_1280_px(site_reports):
    """At 1,280 px every output fits its box (CONTRIBUTING: no printed line wider than 88 characters;
    the article holds about 99). On a 390 px phone wide outputs scroll: that count is reported."""
    wide = [f"{page}: {b['chars']} characters (+{b['excess']} px): {b['text'][:80]}"
            for page, report in site_reports.items() for b in report.scrolling(1280, "output")]
    at_390 = sum(len(report.scrolling(390, "output")) for report in site_reports.values())
    outputs = sum(report.layout.get(390, {}).get("outputs", 0) for report in site_reports.values())
    assert not wide, (f"{len(wide)} output blocks scroll sideways at 1,280 px ({at_390} of {outputs} "
                      "at 390 px):\n" + "\n".join(wide))


@needs_chromium
def test_prose_lines_are_at_most_80_characters(site_reports):
    """At 1,280 px the article is wide enough for 88-column code; its prose is held to a readable
    measure (CSS max-width on paragraphs): the median paragraph line is at most 80 characters."""
    import statistics
    lines = [n for report in site_reports.values() for n in report.prose_line_chars(1280)]
    assert len(lines) > 200, f"only {len(lines)} paragraphs measured"
    assert statistics.median(lines) <= 80, f"median prose line {statistics.median(lines)} characters"
    long_pages = {page: statistics.median(r.prose_line_chars()) for page, r in site_reports.items()
                  if r.prose_line_chars() and statistics.median(r.prose_line_chars()) > 85}
    assert not long_pages, long_pages


@needs_chromium
def test_no_code_block_scrolls_sideways_at_1280_px(site_reports):
    """Code cells are kept within 88 columns (tests/test_notebook_code.py): at 1,280 px none scrolls."""
    wide = [f"{page}: {b['chars']} characters (+{b['excess']} px): {b['text'][:80]}"
            for page, report in site_reports.items() for b in report.scrolling(1280, "code")]
    assert not wide, f"{len(wide)} code blocks scroll sideways at 1,280 px:\n" + "\n".join(wide)


@pytest.mark.parametrize("doc", [d for d in toc_files() if d.split("/")[0] in ("notebooks", "exercises", "solutions")])
def test_notebook_pages_link_their_lesson_exercise_and_solution_and_say_how_to_run(book, doc):
    _, html_dir = book
    page = (html_dir / (doc + ".html")).read_text(encoding="utf8")
    box = re.search(r'<aside class="embedlab-page-nav[^"]*"[^>]*>(.*?)</aside>', page, flags=re.S)
    assert box, f"{doc}: no lesson/exercise/solution box under the title"
    folder, slug = doc.split("/")
    links = set(re.findall(r'href="\.\./(\w+)/' + re.escape(slug) + r'\.html"', box.group(1)))
    assert links == {"notebooks", "exercises", "solutions"} - {folder}, f"{doc} links {links}"
    assert "make lab" in box.group(1) and f"_sources/{doc}.ipynb" in box.group(1)
    assert all(f"<strong>{way}</strong>" in box.group(1) for way in ("Binder", "Colab", "JupyterHub"))
    if folder == "solutions":
        assert "The answers" in box.group(1)
    assert page.index("embedlab-page-nav") > page.index("</h1>")         # under the title


def test_the_about_page_cites_the_library_version():
    """The cite block and the version line follow embedlab.__version__."""
    import embedlab
    about = (ROOT / "book" / "about.md").read_text(encoding="utf8")
    assert f"version      = {{{embedlab.__version__}}}" in about
    assert f"`embedlab` {embedlab.__version__}" in about
    assert "@misc{" in about and "```bibtex" in about


@needs_chromium
def test_each_kind_of_page_paints_its_text_early_on_fast_4g(site_reports):
    """Loaded cold on simulated fast 4G (Chrome's preset), each page of FIRST_PAINT_PAGES (one of
    each kind, the widget lessons and the longest pages) paints within 1.5 s
    (check_site.FIRST_PAINT_BUDGET_MS) or, on a machine too loaded for that, within
    check_site.FIRST_PAINT_SLACK (2) x a bare page of the same site (its head, one line of text)
    timed among them: what fails is what a page adds. A page over budget is timed again, up to four cold loads
    in all, each right after a bare page and held to that bare page's budget (the load of that moment),
    and keeps its best (one late paint on a busy machine is noise; a slow page stays slow: the broken
    page above, with the widget manager blocking in its head, fails every time). The widget lessons took
    about 9 s before their scripts were deferred."""
    timed = {page: r.first_paint_ms for page, r in site_reports.items() if r.first_paint_budget_ms}
    assert set(timed) == set(FIRST_PAINT_PAGES), f"first paint measured on {sorted(timed)}"
    late = {page: (round(ms) if ms is not None else None, round(site_reports[page].first_paint_budget_ms))
            for page, ms in timed.items() if ms is None or ms > site_reports[page].first_paint_budget_ms}
    assert not late, f"first paint on fast 4G later than its budget (ms, budget): {late}"


@needs_chromium
def test_no_serious_or_critical_accessibility_violation_in_either_theme_or_width(site_reports):
    """axe-core (pinned, tools/fetch_book_assets.py) on each kind of page (AXE_EVERY_PAIR), light and
    dark, 1,280 and 390 px (CI checks every other page too, with tools/check_site.py --axe)."""
    pairs = {(theme, width) for theme in ("light", "dark") for width in check_site.WIDTHS}
    assert all(set(site_reports[page].axe) == pairs for page in AXE_EVERY_PAIR)
    bad = [f"{page} ({theme}, {width} px): {v['impact']} {v['id']} on {v['nodes']}: {v['target']}"
           for page, r in site_reports.items() for (theme, width), violations in r.axe.items()
           for v in violations if v["impact"] in check_site.AXE_FAILS]
    assert not bad, "\n".join(bad)


@needs_chromium
def test_figures_are_drawn_at_2x_with_text_of_at_least_10_px_on_a_phone(site_reports):
    """Every figure's image has twice the pixels it is shown at on a laptop, and its smallest text
    (the size embedlab.figures recorded in the PNG) is at least 10 px as shown on a 390 px phone."""
    figures = [(page, f) for page, r in site_reports.items() for f in r.figure_sizes.get(390, [])]
    assert len(figures) >= sum(stored_figures(source_of(d)) for d in toc_notebooks()), len(figures)
    small = [f"{page} {f['src']}: {f['text_px'] * f['shown'] / f['natural']:.1f} px" if f["text_px"]
             else f"{page} {f['src']}: no text size recorded" for page, f in figures
             if not f["text_px"] or f["text_px"] * f["shown"] / f["natural"] < check_site.FIGURE_TEXT_MIN_PX]
    assert not small, "\n".join(small)
    blurred = [f"{page} {f['src']}: {f['natural']} px shown at {f['shown']:.0f} px"
               for page, r in site_reports.items() for f in r.figure_sizes.get(1280, [])
               if f["natural"] < check_site.FIGURE_SCALE * f["shown"] - 1]
    assert not blurred, "\n".join(blurred)


@needs_chromium
def test_the_book_pdf_holds_every_page_and_no_code_line_is_cut(book):
    """The build prints the whole book to one PDF (tools/book_pdf.py), linked from the landing page:
    it opens (pdfinfo), has every page's title in reading order, and every code line of every
    notebook is in its text whole (code wraps in print instead of running off the page; a collapsed
    cell, tag hide-input, is printed open, since paper has no toggle)."""
    import unicodedata

    _, html_dir = book
    pdf = html_dir / "embedding-lab.pdf"
    assert pdf.exists(), "the build wrote no embedding-lab.pdf"
    assert 'href="../embedding-lab.pdf"' in (html_dir / "book" / "intro.html").read_text(encoding="utf8")
    if not (shutil.which("pdfinfo") and shutil.which("pdftotext")):
        if os.environ.get("EMBEDLAB_REQUIRE_BROWSER"):
            pytest.fail("pdfinfo/pdftotext missing (Debian's poppler-utils; .ci/run installs it)")
        pytest.skip("pdfinfo/pdftotext not installed (Debian: apt-get install poppler-utils)")
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Tagged:\s+no$", info, flags=re.M), "the tests' build prints the PDF untagged (builds())"
    pages = int(re.search(r"^Pages:\s+(\d+)", info, flags=re.M).group(1))
    assert pages > 5 * len(toc_files()), f"{pages} pages for {len(toc_files())} documents"
    text = unicodedata.normalize("NFKC", subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                                                         text=True, check=True).stdout)
    flat = re.sub(r"\s+", "", text)
    at = 0
    for doc in toc_files():                                  # each title, after the one before it
        title = re.sub(r"\s+", "", unicodedata.normalize("NFKC", plain(first_heading(source_of(doc)))))
        assert title in flat, f"{doc}: its title is not in the PDF"
        assert flat.find(title, at) >= 0, f"{doc}: its title is not after the page before it (reading order)"
        at = flat.find(title, at) + len(title)
    cut = []
    for folder in ("notebooks", "exercises", "solutions"):
        for notebook in sorted((ROOT / folder).glob("*.ipynb")):
            for cell in nbformat.read(notebook, as_version=4).cells:
                # a cell the book removes (the hidden course cell: remove-cell) is on no page, so in no PDF
                if cell.cell_type == "code" and "remove-cell" not in cell.metadata.get("tags", []):
                    for line in cell.source.splitlines():
                        key = re.sub(r"\s+", "", unicodedata.normalize("NFKC", line))
                        if key and key not in flat:
                            cut.append(f"{folder}/{notebook.name}: {line}")
    for doc in toc_files():                                  # and the code blocks of the book's own pages
        source = source_of(doc)
        if source.suffix == ".md":
            for block in re.findall(r"^```(?:bash|console|text|python|json|csv|yaml|bibtex|sh|shell)\n(.*?)^```$", source.read_text(encoding="utf8"), flags=re.S | re.M):
                for line in block.splitlines():
                    key = re.sub(r"\s+", "", unicodedata.normalize("NFKC", line))
                    if key and key not in flat:
                        cut.append(f"{doc}.md: {line}")
    assert not cut, f"{len(cut)} code lines not whole in the PDF:\n" + "\n".join(cut[:10])


def test_the_published_pdf_is_tagged_for_screen_readers_unless_the_tests_say_not(monkeypatch):
    monkeypatch.delenv(book_pdf.TAGGED_ENV, raising=False)
    assert book_pdf.tagged_by_default()
    monkeypatch.setenv(book_pdf.TAGGED_ENV, "0")
    assert not book_pdf.tagged_by_default()


def test_the_landing_page_gives_each_lessons_reading_and_running_time(book):
    """Reading time from the words of the lesson and its exercise (200 a minute), running time as
    benchmarks/lesson_times.py --write measured it (book/lesson_times.json): one row per lesson."""
    import json as json_module

    theme = load_tool("book_theme")
    _, html_dir = book
    page = (html_dir / "book" / "intro.html").read_text(encoding="utf8")
    table = re.search(r'<table class="table embedlab-lesson-times">(.*?)</table>', page, flags=re.S)
    assert table, "the landing page has no time-per-lesson table"
    rows = re.findall(r"<tr><td>(\d\d)</td>.*?<td>([\d,]+) words, about (\d+) min</td><td>([^<]*)</td></tr>",
                      table.group(1))
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert [r[0] for r in rows] == [s[:2] for s in lessons]
    measured = json_module.loads((ROOT / "book" / "lesson_times.json").read_text())["seconds"]
    for (nn, words, minutes, running), slug in zip(rows, lessons):
        expected = sum(theme.lesson_words(ROOT / kind / f"{slug}.ipynb") for kind in ("notebooks", "exercises"))
        assert int(words.replace(",", "")) == expected and int(minutes) == -(-expected // 200)
        assert running == f"{measured[f'notebooks/{slug}']:.0f} s + {measured[f'exercises/{slug}']:.0f} s", (slug, running)
