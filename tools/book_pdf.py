"""The whole book as one PDF, built offline from the built site.

Every page of _toc.yml, in reading order (landing page, each lesson with its
exercise and solution, reference, instructors' guide), is put into one print
document (`embedding-lab-print.html`, removed once printed), with the site's own
styles and MathJax; headless Chromium prints it (DevTools `Page.printToPDF`) to
`_build/html/embedding-lab.pdf`, which the landing page links. Code and outputs
wrap in print instead of being cut at the page edge, and a collapsed cell (hide-input)
is printed open, without its toggle. Nothing is downloaded.

    python tools/book_pdf.py _build/html        # after `make book` (which runs it too)

tools/book_theme.py runs it at the end of every book build where a Chromium is
installed (tools/check_site.py finds it); tests/test_book.py checks the PDF.
"""

from __future__ import annotations

import base64
import os
import posixpath
import re
import sys
from pathlib import Path

import yaml

import check_site  # noqa: E402 - tools/ is on the path: run as a script, or as the book's extension

ROOT = Path(__file__).resolve().parent.parent
PDF = "embedding-lab.pdf"
PRINT_PAGE = "embedding-lab-print.html"

PRINT_CSS = """
@page { size: A4; margin: 16mm 14mm; }
html, body { background: #fff !important; }
.embedlab-print-page { break-before: page; }
.embedlab-print-page:first-child { break-before: auto; }
pre, pre span, code { white-space: pre-wrap !important; overflow-wrap: anywhere !important; }
div.highlight, div.cell_output, div.output, .bd-article div.math, mjx-container { overflow: visible !important; max-width: 100% !important; }
.headerlink, script, details.hide > summary { display: none !important; }
.bd-main .bd-content .bd-article h1:first-of-type { display: block !important; }
.bd-article { max-width: none !important; padding: 0 !important; }
img { max-width: 100% !important; }
"""


def toc_pages(root: Path = ROOT) -> list[str]:
    """The documents of _toc.yml in reading order, as html paths."""
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    docs = [toc["root"]]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                docs.append(entry["file"])
            walk(entry.get("sections"))
            walk(entry.get("chapters"))

    walk(toc.get("parts"))
    walk(toc.get("chapters"))
    return [d + ".html" for d in docs]


def _rebase(html: str, page: str) -> str:
    """Relative src/href of `page` made relative to the site root (where the print page is)."""
    folder = posixpath.dirname(page)

    def fix(match):
        attr, url = match.group(1), match.group(2)
        if re.match(r"^(?:[a-z]+:|#|/)", url):
            return match.group(0)
        return f'{attr}="{posixpath.normpath(posixpath.join(folder, url))}"'

    return re.sub(r'\b(src|href)="([^"]*)"', fix, html)


def article(html_dir: Path, page: str) -> str:
    text = (html_dir / page).read_text(encoding="utf-8")
    match = re.search(r'<article class="bd-article"[^>]*>(.*?)</article>', text, flags=re.S)
    body = match.group(1) if match else ""
    body = re.sub(r"<script\b.*?</script>", "", body, flags=re.S)      # widget views: their report is printed
    # a collapsed cell (hide-input, a <details class="... hide ...">) is printed open: paper has no toggle
    body = re.sub(r'<details class="([^"]*\bhide\b[^"]*)"', r'<details open class="\1"', body)
    return f'<section class="embedlab-print-page" id="print-{page[:-5].replace("/", "-")}">{_rebase(body, page)}</section>'


def print_document(html_dir: Path, pages: list[str]) -> str:
    first = (html_dir / pages[0]).read_text(encoding="utf-8")
    styles = "".join(_rebase(link, pages[0]) for link in re.findall(r'<link rel="stylesheet"[^>]*>', first))
    mathjax = re.search(r"<script>window\.MathJax = .*?</script>", first, flags=re.S)
    config = mathjax.group(0) if mathjax else ""
    body = "\n".join(article(html_dir, page) for page in pages if (html_dir / page).exists())
    return (f'<!DOCTYPE html><html lang="en" data-theme="light" data-mode="light"><head><meta charset="utf-8">'
            f"<title>Embedding Lab</title>{styles}<style>{PRINT_CSS}</style>{config}"
            f'<script defer src="_static/mathjax/tex-mml-chtml.js"></script></head>'
            f'<body><main class="bd-main"><div class="bd-content"><article class="bd-article">{body}'
            f"</article></div></main></body></html>")


# The PDF is tagged (headings, reading order and figures' alt text for a screen reader), which
# doubles the print's time and makes the file ~3.5x larger. Its pages and text are the same either
# way, so the tests' build (tests/test_book.py), which reads only those, sets
# EMBEDLAB_PDF_TAGGED=0 and prints it untagged.
TAGGED_ENV = "EMBEDLAB_PDF_TAGGED"


def tagged_by_default() -> bool:
    return os.environ.get(TAGGED_ENV, "1") != "0"


def build_pdf(html_dir: Path, chromium: str | None = None, root: Path = ROOT, tagged: bool | None = None) -> Path:
    """Print the built site at `html_dir` to html_dir/embedding-lab.pdf; tagged for screen readers
    unless `tagged` is False (None: unless $EMBEDLAB_PDF_TAGGED is 0)."""
    tagged = tagged_by_default() if tagged is None else tagged
    html_dir = Path(html_dir).resolve()
    (html_dir / PRINT_PAGE).write_text(print_document(html_dir, toc_pages(root)), encoding="utf-8")
    with check_site.serve(html_dir) as base, check_site.Chromium(chromium, timeout=240) as browser:
        browser.open(base + PRINT_PAGE, widget_wait=0)
        browser.evaluate("(async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; "
                         "await document.fonts.ready; return 1; })()")
        browser.settle()
        data = browser.call("Page.printToPDF", {"printBackground": True, "preferCSSPageSize": True,
                                                "displayHeaderFooter": False, "generateTaggedPDF": tagged},
                            session=browser.session)["data"]
    (html_dir / PRINT_PAGE).unlink()          # not a page of the site
    out = html_dir / PDF
    out.write_bytes(base64.b64decode(data))
    return out


if __name__ == "__main__":
    path = build_pdf(Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "_build" / "html"))
    print(f"wrote {path} ({path.stat().st_size:,} bytes)")
