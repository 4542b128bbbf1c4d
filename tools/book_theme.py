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
- Launch buttons: `repository.url` in _config.yml is the one switch. Empty (as
  now), the Binder and Colab URLs below it are ignored and no page carries a
  launch link; set to the public GitHub repository, every notebook page links
  to Binder and Colab at its own path.
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


def setup(app):
    app.connect("config-inited", configure)
    app.connect("build-finished", write_search_pages)
    app.add_css_file("embedlab.css")
    app.add_js_file("embedlab.js")
    return {"parallel_read_safe": True, "parallel_write_safe": True}   # build-finished reads the written pages
