"""Sphinx extension (loaded by _config.yml's local_extensions): the course site's layout and switches.

- Layout: the page's table of contents folds into the top bar (its list button)
  at every width, so the article gets the room the right-hand column took; the
  CSS is book/_static/embedlab.css.
- One search box: the theme puts a search field in the top navbar *and* in the
  sidebar (and an icon in the article header on narrow screens). The navbar's
  field is switched off, leaving the sidebar's field on wide screens and the
  icon on narrow ones.
- Static widgets: book/_static/widgets-offline.js disables the controls of every widget
  drawn from saved state and labels it "static view — run the notebook to explore".
- Search snippets over file://: the search page shows a snippet of each hit by
  fetching the hit's page, which a browser refuses for a site opened from disk.
  After the build, the text of every page (sections kept, for anchored hits)
  goes into _static/embedlab-search-pages.js (about 0.3 MB), which embedlab.js
  loads on the search page only when it is opened from file:// and serves to
  the search in place of those fetches. Served over http nothing changes.
- Where a notebook page sits: under the title of every lesson, exercise and
  solution, a box links the other two pages of its lesson (a solution page is
  marked as the answers) and says how to run the page: the course's set-up
  (clone, `make lab`, the repository's address once `_config.yml` has one).
- First paint: every script is deferred, and the big ones (icons, MathJax, the widget
  manager, the search index off the search page) load after the page, so a page's text
  shows before they arrive (tools/check_site.py times every page on simulated fast 4G).
- The whole book as one PDF (`embedlab_pdf: true` in _config.yml): tools/book_pdf.py
  prints every page, in reading order, with headless Chromium at the end of the build,
  into _build/html/embedding-lab.pdf, which the landing page links.
- Launch buttons: `repository.url` in _config.yml is the one switch. Empty (as
  now), the Binder, Colab and JupyterHub URLs below it are ignored and no page
  carries a launch link; set to the public GitHub repository, every notebook page
  links to Binder and Colab at its own path, and to JupyterHub (nbgitpuller) where
  `launch_buttons.jupyterhub_url` names the class's hub (tools/check_launch.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

LAUNCH_URL_KEYS = ("binderhub_url", "colab_url", "jupyterhub_url", "deepnote_url", "jupyterlite_url")


def configure(app, config) -> None:
    options = config.html_theme_options
    options.setdefault("navbar_persistent", [])        # no search field in the top navbar
    launch = dict(options.get("launch_buttons") or {})
    if not options.get("repository_url"):
        # No public repository yet: no launch links (a link without a repository would be dead,
        # and the theme cannot build one).
        for key in LAUNCH_URL_KEYS:
            launch.pop(key, None)
    options["launch_buttons"] = launch


SEARCH_PAGES = "embedlab-search-pages.js"


def page_text(html: str) -> str | None:
    """The article of a built page as text, its <section id=...> kept (HTML-escaped, as in the page)."""
    match = re.search(r'<article class="bd-article"[^>]*>(.*?)</article>', html, flags=re.S)
    if not match:
        return None
    body = re.sub(r"<(script|style)\b.*?</\1>", "", match.group(1), flags=re.S)
    body = re.sub(r'<a class="headerlink"[^>]*>.*?</a>', "", body, flags=re.S)
    body = re.sub(r"<(?!/?section\b)[^>]*>", "", body)
    body = re.sub(r'<section\b[^>]*?\s(id="[^"]*")[^>]*>', r"<section \1>", body)
    return re.sub(r"\s+", " ", body).strip()


def write_search_pages(app, exception) -> None:
    """Every built page's text, for the search page's snippets over file:// (see embedlab.js)."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    pages = {}
    for docname in sorted(app.env.found_docs):
        path = out / (docname + app.builder.out_suffix)
        if path.exists() and (text := page_text(path.read_text(encoding="utf-8"))) is not None:
            pages[docname + app.builder.link_suffix] = text
    (out / "_static" / SEARCH_PAGES).write_text(
        "window.EMBEDLAB_SEARCH_PAGES = " + json.dumps(pages, ensure_ascii=False) + ";\n", encoding="utf-8")


# -- Where a notebook page sits, and how to run it -----------------------------

KINDS = {"notebooks": "lesson", "exercises": "exercise", "solutions": "solution"}


def page_kind(docname: str) -> tuple[str, str] | None:
    """('lesson' | 'exercise' | 'solution', 'NN-slug') for a notebook page, else None."""
    folder, _, slug = docname.partition("/")
    if folder in KINDS and re.fullmatch(r"\d\d-[a-z0-9-]+", slug):
        return KINDS[folder], slug
    return None


def page_nav(app, docname: str) -> str:
    """The box under a notebook page's title: its lesson, exercise and solution, and how to run it."""
    kind, slug = page_kind(docname)
    nn = slug[:2]
    env = app.env
    title = {k: env.titles[f"{folder}/{slug}"].astext() if f"{folder}/{slug}" in env.titles else None
             for folder, k in KINDS.items()}
    def link(k, text):
        folder = {v: f for f, v in KINDS.items()}[k]
        return f'<a class="reference internal" href="../{folder}/{slug}.html">{text}</a>'
    parts = []
    if kind == "lesson":
        parts.append(f"Practise it: {link('exercise', f'Exercise {nn}')} (autograded), "
                     f"then compare with {link('solution', f'Solution {nn}')}.")
    elif kind == "exercise":
        parts.append(f"The exercise of {link('lesson', f'Lesson {nn}')}; "
                     f"the worked answers are in {link('solution', f'Solution {nn}')} (try first).")
    else:
        parts.append(f"<strong>The answers</strong> to {link('exercise', f'Exercise {nn}')} "
                     f"(try it first), for {link('lesson', f'Lesson {nn}')}.")
    options = app.config.html_theme_options
    url = (options.get("repository_url") or "").strip()
    hub = url and ((options.get("launch_buttons") or {}).get("jupyterhub_url") or "").strip()
    where = (f'clone <a class="reference external" href="{url}">{url}</a>' if url
             else "get the Embedding Lab course (a clone of its repository)")
    button = ("the launch button at the top of this page" if url
              else "a launch button at the top of this page once the course has a public address")
    source = f"../_sources/{docname}.ipynb"
    parts.append(f"Run this page on <strong>Binder</strong> or <strong>Colab</strong> ({button}), "
                 f"on your class's <strong>JupyterHub</strong> (your instructor's link"
                 f"{', or the launch button' if hub else ''}), or on your computer: {where}, then "
                 f"<code>make lab</code> in it, and open <code>{docname}.ipynb</code>. "
                 f"A <a class=\"reference internal\" href=\"{source}\" download>downloaded notebook</a> "
                 f"installs the course library itself on Colab, and asks first elsewhere "
                 f"(its first cell, hidden here).")
    items = "".join(f"<p>{p}</p>" for p in parts)
    return (f'<aside class="embedlab-page-nav embedlab-{kind}" aria-label="Lesson, exercise, solution; '
            f'how to run this page">{items}</aside>')


def add_page_nav(app, pagename, templatename, context, doctree) -> None:
    if doctree is None or page_kind(pagename) is None or "body" not in context:
        return
    body = context["body"]
    end = body.find("</h1>")
    if end < 0:
        return
    end += len("</h1>")
    context["body"] = body[:end] + page_nav(app, pagename) + body[end:]


def defer_blocking_scripts(app, exception) -> None:
    """Scripts a page does not need before its first paint load after it: `defer` on every
    <script src> of the built pages; documentation_options.js (inline scripts set its fields)
    is copied into the page instead. Deferred scripts still run in document order, before
    DOMContentLoaded, so each finds what it found before. The big ones (LATER) are fetched
    once the page has loaded, and the theme's script preloads are dropped: until the first
    paint the connection carries the page and its stylesheets only."""
    if exception is not None or app.builder.format != "html":
        return
    tag = re.compile(r"<script(?![^>]*\b(?:defer|async|type=)[^>]*>)([^>]*\ssrc=\"([^\"]+)\"[^>]*)>")

    def defer(match):
        src = match.group(2).split("?")[0]
        return match.group(0) if src.endswith(KEEP_BLOCKING) else f"<script defer{match.group(1)}>"

    def later(match):
        return f'<script type="{LATER_TYPE}" data-src="{match.group(1)}"></script>'

    out = Path(app.outdir)
    options = out / "_static" / "documentation_options.js"
    inline = f"<script>{options.read_text(encoding='utf-8')}</script>" if options.exists() else None
    for page in out.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        moved = LATER + (() if page.name == "search.html" else LATER_BUT_ON_THE_SEARCH_PAGE)
        big = re.compile(r'<script defer(?:="defer")? src="([^"]*(?:' + "|".join(map(re.escape, moved)) + r')[^"]*)"></script>')
        new = big.sub(later, tag.sub(defer, html))
        # the one script that must run where it stands (inline scripts set its fields): in the page
        if inline:
            new = re.sub(r'<script src="[^"]*documentation_options\.js[^"]*"></script>', lambda m: inline, new)
        # scripts the theme preloads (fetched at once, sharing the connection with the stylesheets
        # a first paint waits for) are fetched when the end of the page asks for them
        new = re.sub(r'<link rel="preload" as="script" href="[^"]*"\s*/>\n?', "", new)
        # the sidebar's fold toggles (a lesson's exercise and solution) have no name of their own
        new = new.replace('<summary><span class="toctree-toggle" role="presentation">',
                          '<summary aria-label="Show or hide its exercise and solution">'
                          '<span class="toctree-toggle" role="presentation">')
        if LATER_TYPE in new and LATER_LOADER not in new:
            new = new.replace("</body>", LATER_LOADER + "\n</body>", 1)
        if new != html:
            page.write_text(new, encoding="utf-8")


KEEP_BLOCKING = ("documentation_options.js",)
# Big scripts nothing needs for a first paint (icons 1.5 MB, MathJax 1.2 MB, the widget manager
# 3.5 MB with require.js): fetched only once the page has loaded, so they do not share the
# connection with what a first paint needs. In their order; math is typeset and widgets render
# from saved state once they arrive. window.embedlabLater resolves once all have run (the
# browser check waits for it).
LATER = ("scripts/fontawesome.js", "mathjax/tex-mml-chtml.js", "requirejs/require.js", "widgets-offline.js",
         "html-manager/embed-amd.js")
# The search's scripts and index (140 KB) are loaded on every page, for a search that runs on the
# search page only: there they stay deferred, elsewhere they load after the page.
LATER_BUT_ON_THE_SEARCH_PAGE = ("searchtools.js", "language_data.js", "searchindex.js")
LATER_TYPE = "embedlab/later"
LATER_LOADER = ("<script>/* embedlab: big scripts after the page has loaded (tools/book_theme.py) */\n"
                "window.embedlabLater = new Promise(function (done) { addEventListener('load', function () {\n"
                "  var all = [];\n"
                "  document.querySelectorAll('script[type=\"" + LATER_TYPE + "\"]').forEach(function (t) {\n"
                "    var s = document.createElement('script'); s.src = t.dataset.src; s.async = false;\n"
                "    all.push(new Promise(function (r) { s.onload = s.onerror = r; }));\n"
                "    document.body.appendChild(s);\n"
                "  });\n"
                "  Promise.all(all).then(done);\n"
                "}); });</script>")


# -- The landing page's time per lesson -------------------------------------------

WORDS_PER_MINUTE = 200          # MyST's own reading-speed default (myst_parser words_per_minute)
TIMES_PLACEHOLDER = '<div class="embedlab-lesson-times"></div>'


def lesson_words(path: Path) -> int:
    """Words a reader reads in a notebook: its markdown cells."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    return sum(len(re.findall(r"[\w'’-]+", c.source)) for c in nb.cells if c.cell_type == "markdown")


def lesson_times(root: Path) -> list[dict]:
    """Each lesson's reading time (its words at WORDS_PER_MINUTE) and running time (seconds measured
    by benchmarks/lesson_times.py --write, in book/lesson_times.json), exercise included."""
    measured = {}
    times_file = root / "book" / "lesson_times.json"
    if times_file.exists():
        measured = json.loads(times_file.read_text(encoding="utf-8"))["seconds"]
    rows = []
    for path in sorted((root / "notebooks").glob("*.ipynb")):
        words = {kind: lesson_words(root / kind / path.name) for kind in ("notebooks", "exercises")
                 if (root / kind / path.name).exists()}
        rows.append({"slug": path.stem, "words": words,
                     "read_minutes": -(-sum(words.values()) // WORDS_PER_MINUTE),
                     "run_seconds": {kind: measured.get(f"{kind}/{path.stem}") for kind in words}})
    return rows


def times_table(root: Path) -> str:
    body = []
    for row in lesson_times(root):
        run = row["run_seconds"]
        running = " + ".join(f"{run[k]:.0f} s" for k in ("notebooks", "exercises") if run.get(k) is not None)
        body.append(f'<tr><td>{row["slug"][:2]}</td><td><a href="../notebooks/{row["slug"]}.html">{row["slug"][3:]}</a></td>'
                    f'<td>{sum(row["words"].values()):,} words, about {row["read_minutes"]} min</td>'
                    f'<td>{running or "not measured yet"}</td></tr>')
    return ('<table class="table embedlab-lesson-times"><thead><tr><th>#</th><th>lesson</th>'
            '<th>reading (lesson + exercise)</th><th>running (lesson + exercise)</th></tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>')


def add_lesson_times(app, pagename, templatename, context, doctree) -> None:
    if "body" in context and TIMES_PLACEHOLDER in context["body"]:
        context["body"] = context["body"].replace(TIMES_PLACEHOLDER, times_table(Path(app.srcdir)))


def write_pdf(app, exception) -> None:
    """The whole book as one PDF (tools/book_pdf.py), where a Chromium is installed."""
    if exception is not None or app.builder.format != "html" or not app.config.embedlab_pdf:
        return
    import book_pdf
    import check_site
    from sphinx.util import logging

    if check_site.find_chromium() is None:
        logging.getLogger(__name__).info("embedlab: no Chromium found, the book's PDF is not built")
        return
    path = book_pdf.build_pdf(Path(app.outdir), root=Path(app.srcdir))
    logging.getLogger(__name__).info(f"embedlab: wrote {path.name} ({path.stat().st_size:,} bytes)")


def setup(app):
    app.add_config_value("embedlab_pdf", False, "html")
    app.connect("config-inited", configure)
    app.connect("build-finished", write_search_pages)
    app.connect("html-page-context", add_page_nav)
    app.connect("html-page-context", add_lesson_times)
    app.connect("build-finished", defer_blocking_scripts)
    app.connect("build-finished", write_pdf, priority=900)      # last: it prints the finished pages
    app.add_css_file("embedlab.css")
    app.add_js_file("embedlab.js")
    return {"parallel_read_safe": True, "parallel_write_safe": True}   # build-finished reads the written pages
