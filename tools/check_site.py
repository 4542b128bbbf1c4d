"""Load every page of the built book in headless Chromium, offline, and report what is broken.

A reader of the published site sees what the browser does with the HTML, not
the HTML itself: a figure can be in the page and still not load, math is only
typeset if MathJax arrives, a widget only renders if its JavaScript and saved
state do. So this serves the built site on 127.0.0.1, opens every page in
Debian's `chromium` with every other host unreachable (as with no internet),
and reports, page by page:

- console errors and uncaught exceptions;
- failed requests (network errors, HTTP status >= 400) and any request to a
  host other than the local server;
- images that did not load or have zero size;
- math left untypeset (a `.math` element with no MathJax output, or a MathJax error);
- widget views that did not render from their saved state, or that a reader
  could operate (the site has no kernel: controls must be disabled, with the
  "static view" line above them);
- internal links whose page, file or `#anchor` does not exist;
- not exactly one search box (field or button) on screen, at each width;
- a page wider than the window, at every width checked (1,280 px, a laptop, and
  390 px, a phone), with the element that sticks out;
- raw TeX in the text a reader sees (a control word such as `\\times`, or `\\_`,
  outside code): math that reached the page as its source.

It also measures the prose's line length (characters per line of the article's
paragraphs, at 1,280 px) and, on request, the first paint of a page on a
simulated fast-4G connection (first_paint()).

It also measures, at each width, the output blocks and code blocks that scroll
sideways (their text is wider than the column, so part of it hides behind a
scrollbar). Those are counted, not reported as problems: the browser test
decides which counts must be zero.

Chromium is driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`),
so no Python package beyond the standard library is needed.

    python tools/check_site.py _build/html                      # prints problems, exit 1 if any
    python tools/check_site.py _build/html -v                   # ... and every block that scrolls sideways
    python tools/check_site.py _build/html --screenshot notebooks/01-toy-table.html out.png
    python tools/check_site.py _build/html --screenshot notebooks/07-memory.html out.png \
        --selector .widget-subarea --margin 150 --width 390 --dark   # a phone, in dark mode
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import http.server
import json
import os
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlsplit

CHROMIUM_CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--hide-scrollbars", "--mute-audio",
    # Offline on purpose: every host but the local server fails to resolve, so a
    # page that needs the internet fails here the way it would for a reader.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
)

# Evaluated in each page once it has loaded: waits for MathJax's first typeset
# and for widget views to render (both asynchronous), then reports what is there.
INSPECT_JS = r"""
(async () => {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    try { await MathJax.startup.promise; } catch (e) {}
  }
  const views = document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]');
  const rendered = () => [...document.querySelectorAll('.widget-subarea')].filter(e => e.children.length).length;
  for (let t = 0; views.length && rendered() < views.length && t < WIDGET_POLLS; t++) await sleep(100);
  const maths = [...document.querySelectorAll('.math')];
  return {
    title: document.title,
    images: [...document.images].map(i => ({src: i.currentSrc || i.src, complete: i.complete,
                                             width: i.naturalWidth, height: i.naturalHeight})),
    math: maths.length,
    math_typeset: maths.filter(e => e.querySelector('mjx-container')).length,
    math_errors: document.querySelectorAll('mjx-merror').length,
    widget_views: views.length,
    widgets_rendered: rendered(),
    // controls a reader could still move (the site has no kernel: every widget must be static)
    widget_controls_enabled: [...document.querySelectorAll('.widget-subarea')].flatMap(
      area => [...area.querySelectorAll('input, select, textarea, button, .noUi-target')]).filter(
      e => !(e.disabled || e.hasAttribute('disabled'))).length,
    static_notes: [...document.querySelectorAll('.embedlab-static-note')].filter(
      e => /static view/.test(e.textContent) && e.getClientRects().length).length,
    // TeX control words (\\times, \\text, \\_) in text a reader sees, outside code: math shown as its source
    raw_tex: (() => {
      const found = [];
      const walker = document.createTreeWalker(document.querySelector('article') || document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const e = n.parentElement;
        if (!e || e.closest('pre, code, script, style, textarea, .highlight, .cell_input')) continue;
        // (MathJax draws symbols with CSS, not text: what a \\text{} shows is in its assistive MathML)
        if (!e.getClientRects().length && !e.closest('mjx-assistive-mml')) continue;
        const m = n.textContent.match(/\\(?:[A-Za-z]{2,}|_)/);
        if (m) found.push(n.textContent.trim().slice(Math.max(0, m.index - 30), m.index + 40));
      }
      return found;
    })(),
    links: [...document.querySelectorAll('a[href]')].map(a => a.href),
    ids: [...document.querySelectorAll('[id], a[name]')].map(e => e.id || e.getAttribute('name')),
  };
})()
"""


# Chrome DevTools' "Fast 4G" preset: 9 Mbit/s down, 1.5 Mbit/s up (each x 0.9), 60 ms x 2.75 latency.
FAST_4G = {"offline": False, "latency": 165, "downloadThroughput": 9e6 / 8 * 0.9, "uploadThroughput": 1.5e6 / 8 * 0.9}
NO_THROTTLING = {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
FIRST_PAINT_BUDGET_MS = 1500

AXE_RUN_JS = r"""
(async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
    target: v.nodes[0].target.join(' '), html: v.nodes[0].html.slice(0, 160)}));
})()
"""
AXE_FAILS = ("serious", "critical")

WIDTHS = (1280, 390)          # a laptop window, and a phone (an iPhone 12-15 is 390 css px wide)
HEIGHTS = {1280: 900, 390: 844}

# Evaluated at each width: blocks that scroll sideways, and what makes the page wider than the window.
LAYOUT_JS = r"""
(() => {
  const width = document.documentElement.clientWidth;
  const clips = e => getComputedStyle(e).overflowX !== 'visible';
  // A block scrolls if it, or an element inside it, clips its overflow and has more to show.
  // (only boxes can scroll: the spans of highlighted code are not looked at, which keeps this quick)
  const boxes = block => [block, ...block.querySelectorAll('pre, div, table')];
  const scrolling = block => boxes(block).some(
    e => e.scrollWidth > e.clientWidth + 1 && clips(e) && e.getClientRects().length);
  const excess = block => Math.max(0, ...boxes(block).filter(clips).map(e => e.scrollWidth - e.clientWidth));
  const longest = e => (e.innerText || '').split('\n').reduce((a, b) => [...b].length > [...a].length ? b : a, '');
  const outputs = [...document.querySelectorAll('.cell_output > .output, .cell_output > div')]
    .filter(e => e.getClientRects().length);
  const code = [...document.querySelectorAll('.cell_input, div[class*="highlight-"]')]
    .filter(e => !e.closest('.cell_output') && !e.parentElement.closest('.cell_input, div[class*="highlight-"]'))
    .filter(e => e.getClientRects().length);
  const describe = (kind, e) => ({kind, excess: excess(e), chars: [...longest(e)].length,
                                  text: longest(e).trim().slice(0, 100)});
  // What sticks out of the window: the outermost elements past its right edge that no ancestor clips.
  const sticking = [];
  if (document.documentElement.scrollWidth > width) for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.right <= width + 1 || !r.width) continue;
    let clipped = getComputedStyle(e).position === 'fixed';       // fixed: never widens the page
    for (let a = e.parentElement; !clipped && a && a !== document.body; a = a.parentElement)
      if (clips(a) || sticking.includes(a) || getComputedStyle(a).position === 'fixed') clipped = true;
    if (!clipped) sticking.push(e);
  }
  // Prose line length: for each paragraph of the article (not in an output, a table or a
  // caption) of at least three lines, its characters per full line (the last line, partly
  // filled, counted as half a line).
  const prose = [...document.querySelectorAll('article p')].filter(
    p => !p.closest('.cell_output, table, figcaption, .embedlab-page-nav, nav, .admonition') && p.getClientRects().length)
    .map(p => {
      const lineHeight = parseFloat(getComputedStyle(p).lineHeight) || 24;
      const lines = Math.round(p.getBoundingClientRect().height / lineHeight);
      const chars = [...p.textContent.replace(/\s+/g, ' ').trim()].length;
      return lines >= 3 ? Math.round(chars / (lines - 0.5)) : null;
    }).filter(x => x !== null);
  return {
    width,
    prose_line_chars: prose,
    // the buttons and fields that open the search (the search page's own form aside): one per page
    search_boxes: [...document.querySelectorAll('.search-button-field, .search-button')]
      .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden').length,
    page_width: document.documentElement.scrollWidth,
    outputs: outputs.length,
    code: code.length,
    scrolling: [...outputs.filter(scrolling).map(e => describe('output', e)),
                ...code.filter(scrolling).map(e => describe('code', e))],
    sticking: sticking.slice(0, 5).map(e => `<${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string'
      ? ' class="' + e.className + '"' : ''}> ${Math.round(e.getBoundingClientRect().right - width)} px: ` +
      (e.innerText || e.getAttribute('src') || '').trim().slice(0, 80)),
  };
})()
"""


def find_chromium() -> str | None:
    """The Chromium executable: $CHROMIUM if set, else the first candidate on PATH."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"]
    for name in CHROMIUM_CANDIDATES:
        if shutil.which(name):
            return shutil.which(name)
    return None


@contextlib.contextmanager
def serve(directory: Path):
    """Serve `directory` on 127.0.0.1 (a free port) for the duration of the block; yields the base URL."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class Chromium:
    """A headless Chromium and one tab, spoken to over the DevTools protocol on a pipe."""

    def __init__(self, executable: str | None = None, timeout: float = 30):
        executable = executable or find_chromium()
        if not executable:
            raise FileNotFoundError("no Chromium found (install Debian's `chromium`, or set $CHROMIUM)")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="check-site-chromium-")
        to_browser, self._to_browser = os.pipe()      # we write, Chromium reads fd 3
        self._from_browser, from_browser = os.pipe()  # Chromium writes fd 4, we read

        def child_fds():
            a, b = os.dup(to_browser), os.dup(from_browser)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.process = subprocess.Popen(
            [executable, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}",
             "--remote-debugging-pipe", "about:blank"],
            preexec_fn=child_fds, close_fds=False,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=self.session)
        self.set_width(WIDTHS[0])

    # -- protocol -----------------------------------------------------------
    def _read(self, timeout: float) -> dict | None:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._from_browser], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                return None
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def pump(self, seconds: float) -> None:
        """Collect events for `seconds`."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            message = self._read(left)
            if message is not None and "method" in message:
                self.events.append(message)

    def call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._next_id += 1
        request = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            request["sessionId"] = session
        os.write(self._to_browser, json.dumps(request).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            message = self._read(deadline - time.monotonic())
            if message is None:
                break
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)
        raise TimeoutError(f"Chromium did not answer {method} within {self.timeout} s")

    def wait_for(self, method: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not any(e["method"] == method for e in self.events):
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            message = self._read(left)
            if message is not None and "method" in message:
                self.events.append(message)
        return True

    def _requests(self) -> tuple[set, set]:
        started = {e["params"]["requestId"] for e in self.events if e["method"] == "Network.requestWillBeSent"}
        done = {e["params"]["requestId"] for e in self.events
                if e["method"] in ("Network.loadingFinished", "Network.loadingFailed")}
        return started, done

    def wait_network_idle(self, quiet: float = 0.15, timeout: float = 15) -> None:
        """Return once every request has finished and no new one started for `quiet` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            started, done = self._requests()
            if started <= done:
                self.pump(quiet)
                if self._requests()[0] == started:
                    return
            else:
                self.pump(0.02)

    def set_width(self, width: int, height: int | None = None) -> None:
        """Resize the window; at phone widths (< 700 px) emulate a phone (its viewport meta applies)."""
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height or HEIGHTS.get(width, 900), "deviceScaleFactor": 1,
                   "mobile": width < 700}, session=self.session)

    def evaluate(self, expression: str):
        found = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                               "returnByValue": True}, session=self.session)
        if "exceptionDetails" in found:
            raise RuntimeError(f"evaluating in the page failed: {found['exceptionDetails']}")
        return found["result"].get("value")

    def settle(self, timeout: float = 10) -> None:
        """Wait until the page's fonts have loaded, every image has finished loading and two
        frames have been drawn: a condition, not a fixed delay."""
        self.evaluate(f"""Promise.race([new Promise(r => setTimeout(r, {int(timeout * 1000)})), (async () => {{
          await document.fonts.ready;
          await Promise.all([...document.images].filter(i => !i.complete).map(
            i => new Promise(r => {{ i.addEventListener('load', r); i.addEventListener('error', r); }})));
          await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
        }})()])""")

    def layout(self, widths=WIDTHS) -> dict[int, dict]:
        """LAYOUT_JS at each width in turn (the page stays loaded; the window is resized), then back."""
        found = {}
        for width in widths:
            self.set_width(width)
            self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            found[width] = self.evaluate(LAYOUT_JS)
        self.set_width(WIDTHS[0])
        return found

    def first_paint(self, url: str, network: dict | None = None, timeout: float = 30) -> float | None:
        """Milliseconds from navigation to the first paint of text or image (first-contentful-paint)
        of `url` loaded cold (no cache) over `network` (default FAST_4G); None if it never painted.
        Waits for that paint, not for the page to finish loading."""
        s = self.session
        self.call("Network.setCacheDisabled", {"cacheDisabled": True}, session=s)
        self.call("Network.emulateNetworkConditions", network or FAST_4G, session=s)
        try:
            self.call("Page.navigate", {"url": "about:blank"}, session=s)
            self.events = []
            self.call("Page.navigate", {"url": url}, session=s)
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                with contextlib.suppress(RuntimeError):       # the new document may not exist yet
                    paint = self.evaluate(
                        "(() => { const e = performance.getEntriesByName('first-contentful-paint')[0];"
                        f" return e && location.href === {json.dumps(url)} ? e.startTime : null; }})()")
                    if paint is not None:
                        return paint
                self.pump(0.02)
            return None
        finally:
            self.call("Network.emulateNetworkConditions", NO_THROTTLING, session=s)
            self.call("Network.setCacheDisabled", {"cacheDisabled": False}, session=s)
            self.call("Page.navigate", {"url": "about:blank"}, session=s)    # stop what is still loading

    def axe(self, script: str, themes=("light", "dark"), widths=WIDTHS) -> dict:
        """axe-core's violations on the loaded page, in each theme at each width:
        {(theme, width): [{"id", "impact", "nodes", "target", "html"}, ...]}. `script` is
        axe.min.js (fetch_book_assets.fetch_check_tools() pins it); it is injected, not served."""
        self.evaluate(script + ";0")
        found = {}
        for theme in themes:
            self.evaluate(f"document.documentElement.dataset.theme = document.documentElement.dataset.mode"
                          f" = {json.dumps(theme)}")
            for width in widths:
                self.set_width(width)
                self.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                found[theme, width] = self.evaluate(AXE_RUN_JS)
        self.evaluate("document.documentElement.dataset.theme = document.documentElement.dataset.mode = 'light'")
        self.set_width(WIDTHS[0])
        return found

    # -- pages --------------------------------------------------------------
    def open(self, url: str, widget_wait: float = 5.0) -> dict:
        """Load `url`, let it settle (waiting up to `widget_wait` s for widgets to render), and
        return what INSPECT_JS found plus the events it caused."""
        self.events = []
        started = time.monotonic()
        self.call("Page.navigate", {"url": url}, session=self.session)
        loaded = self.wait_for("Page.loadEventFired", self.timeout)
        load_seconds = time.monotonic() - started
        self.wait_network_idle()
        script = INSPECT_JS.replace("WIDGET_POLLS", str(int(widget_wait * 10)))
        found = self.call("Runtime.evaluate", {"expression": script, "awaitPromise": True,
                                               "returnByValue": True}, session=self.session)
        self.wait_network_idle()
        if "exceptionDetails" in found:
            raise RuntimeError(f"inspecting {url} failed: {found['exceptionDetails']}")
        return {"loaded": loaded, "load_seconds": load_seconds, "events": list(self.events),
                **found["result"]["value"]}

    def screenshot(self, url: str, path: Path, selector: str | None = None, margin: int = 0,
                   width: int = 1280, dark: bool = False) -> None:
        """Save a PNG of `url` as a reader sees it: the first screen, or a window as tall as the
        element `selector` (plus `margin` pixels of page above it), scrolled to that element;
        `width` px wide, in the theme's dark mode if `dark`."""
        self.set_width(width)
        self.open(url)
        if dark:
            self.evaluate("document.documentElement.dataset.theme = document.documentElement.dataset.mode = 'dark'")
        height = HEIGHTS.get(width, 900)
        if selector:
            box = self.call("Runtime.evaluate", {"returnByValue": True, "expression":
                            f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
                            ".getBoundingClientRect(); return [r.y + window.scrollY, r.height]; })()"},
                            session=self.session)["result"]["value"]
            top, height = max(0, box[0] - margin), int(box[1] + margin)
        self.set_width(width, height)
        if selector:
            self.call("Runtime.evaluate", {"expression": f"window.scrollTo(0, {top})"}, session=self.session)
        self.settle()                                 # fonts loaded, images decoded, a frame drawn
        data = self.call("Page.captureScreenshot", {"format": "png"}, session=self.session)["data"]
        Path(path).write_bytes(base64.b64decode(data))
        self.set_width(WIDTHS[0])

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.call("Browser.close")
        with contextlib.suppress(Exception):
            self.process.wait(timeout=10)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@dataclass
class PageReport:
    page: str                                  # path relative to the site root, e.g. "notebooks/01-toy-table.html"
    problems: list[str] = field(default_factory=list)
    images: int = 0                            # images that loaded with a non-zero size
    figures: int = 0                           # ... of which figures (notebook outputs, book images in _images/)
    math: int = 0                              # math elements on the page
    math_typeset: int = 0                      # ... that MathJax typeset
    widgets: int = 0                           # widget views rendered from saved state
    requests: int = 0                          # requests the page made
    layout: dict = field(default_factory=dict)  # width -> LAYOUT_JS's findings (see scrolling())
    load_seconds: float = 0.0                  # navigation to the load event (the server is local)
    first_paint_ms: float | None = None        # first contentful paint on fast 4G, cold (if measured)
    axe: dict = field(default_factory=dict)    # (theme, width) -> axe-core violations (if checked)

    def prose_line_chars(self, width: int = 1280) -> list[int]:
        """Characters per line of the page's multi-line paragraphs at `width` px (see LAYOUT_JS)."""
        return self.layout.get(width, {}).get("prose_line_chars", [])

    def scrolling(self, width: int, kind: str = "output") -> list[dict]:
        """The blocks of `kind` ("output" or "code") that scroll sideways at `width` px."""
        return [b for b in self.layout.get(width, {}).get("scrolling", []) if b["kind"] == kind]


def site_pages(html_dir: Path) -> list[str]:
    """Every HTML page of the site, relative to its root (theme assets under _static excluded)."""
    return sorted(p.relative_to(html_dir).as_posix() for p in html_dir.rglob("*.html")
                  if p.relative_to(html_dir).parts[0] not in ("_static", "_sources", "_images"))


def meta_refresh(page: Path) -> str | None:
    match = re.search(r'<meta http-equiv="refresh" content="\d+;\s*url=([^"]+)"', page.read_text(errors="replace"), re.I)
    return match.group(1) if match else None


def _describe(event: dict) -> str | None:
    """The problem an event reports, or None."""
    method, p = event["method"], event["params"]
    if method == "Runtime.exceptionThrown":
        details = p["exceptionDetails"]
        text = details.get("exception", {}).get("description") or details.get("text", "")
        return f"uncaught exception: {text.splitlines()[0] if text else details}"
    if method == "Runtime.consoleAPICalled" and p["type"] in ("error", "assert"):
        text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
        return f"console.{p['type']}: {text[:300]}"
    if method == "Log.entryAdded" and p["entry"]["level"] == "error":
        entry = p["entry"]
        return f"console error ({entry.get('source')}): {entry.get('text', '')[:300]} {entry.get('url', '')}".rstrip()
    return None


def check_site(html_dir: Path, pages: list[str] | None = None, chromium: str | None = None,
               widget_wait: float = 5.0, widths=WIDTHS, first_paint=(), axe=(),
               axe_script: str | None = None) -> list[PageReport]:
    """Open each page (default: all) in headless Chromium, offline, and measure its layout at each
    of `widths`; return one report per page. The pages in `first_paint` ("all" for every one) are
    also loaded cold on a simulated fast-4G connection: a first paint later than
    FIRST_PAINT_BUDGET_MS is a problem. The pages in `axe` ("all" for every one) are checked
    with axe-core (`axe_script`), light and dark, at each width: a serious or critical
    violation is a problem."""
    html_dir = Path(html_dir).resolve()
    pages = site_pages(html_dir) if pages is None else pages
    reports, links, anchors = [], {}, {}
    with serve(html_dir) as base, Chromium(chromium) as browser:
        for page in pages:
            report = PageReport(page)
            reports.append(report)
            target = meta_refresh(html_dir / page)
            if target is not None:                   # a redirect page: check where it points
                links[page] = [base + page.rsplit("/", 1)[0] + "/" + target if "/" in page else base + target]
                continue
            found = browser.open(base + page, widget_wait)
            if not found["loaded"]:
                report.problems.append("page did not finish loading")
            requests = {}
            for event in found["events"]:
                method, p = event["method"], event["params"]
                if method == "Network.requestWillBeSent":
                    requests[p["requestId"]] = url = p["request"]["url"]
                    if url.startswith(("http:", "https:", "ws:", "wss:")) and not url.startswith(base):
                        report.problems.append(f"request to a remote host: {url}")
                elif method == "Network.responseReceived" and p["response"]["status"] >= 400:
                    report.problems.append(f"failed request: HTTP {p['response']['status']} {p['response']['url']}")
                elif method == "Network.loadingFailed" and not p.get("canceled"):
                    report.problems.append(f"failed request: {p['errorText']} {requests.get(p['requestId'], '')}")
                elif (problem := _describe(event)) is not None:
                    report.problems.append(problem)
            report.requests = len(requests)
            report.load_seconds = found["load_seconds"]
            for image in found["images"]:
                if image["complete"] and image["width"] > 0 and image["height"] > 0:
                    report.images += 1
                    report.figures += "/_images/" in image["src"]
                else:
                    report.problems.append(f"image not shown: {image['src']}")
            report.math, report.math_typeset = found["math"], found["math_typeset"]
            if found["math_typeset"] < found["math"]:
                report.problems.append(f"math not typeset: {found['math'] - found['math_typeset']} "
                                       f"of {found['math']} math elements have no MathJax output")
            if found["math_errors"]:
                report.problems.append(f"MathJax reported {found['math_errors']} math error(s)")
            report.widgets = found["widgets_rendered"]
            if found["widgets_rendered"] < found["widget_views"]:
                report.problems.append(f"widgets not rendered: {found['widgets_rendered']} of {found['widget_views']}")
            if found["widget_controls_enabled"]:
                report.problems.append(f"widget controls a reader can move (with no kernel, nothing would "
                                       f"change): {found['widget_controls_enabled']}")
            if found["static_notes"] < found["widget_views"]:
                report.problems.append(f"widgets without the 'static view' line: "
                                       f"{found['widget_views'] - found['static_notes']} of {found['widget_views']}")
            if found["raw_tex"]:
                report.problems.append(f"raw TeX in the text ({len(found['raw_tex'])}): "
                                       + " | ".join(found["raw_tex"][:3]))
            links[page] = found["links"]
            anchors[page] = set(found["ids"])
            report.layout = browser.layout(widths)
            if axe == "all" or page in axe:
                report.axe = browser.axe(axe_script, widths=widths)
                for (theme, width), violations in report.axe.items():
                    for v in violations:
                        if v["impact"] in AXE_FAILS:
                            report.problems.append(f"accessibility ({v['impact']}, {theme}, {width} px): {v['id']} "
                                                   f"on {v['nodes']} element(s), e.g. {v['target']}: {v['html'][:100]}")
            for width, layout in report.layout.items():
                if layout["search_boxes"] != 1:
                    report.problems.append(f"search boxes at {width} px: {layout['search_boxes']} (one is enough)")
                if layout["page_width"] > layout["width"]:
                    report.problems.append(
                        f"page wider than the window at {width} px: {layout['page_width']} px; sticking out: "
                        + "; ".join(layout["sticking"]))
        for report in reports:
            if (first_paint == "all" or report.page in first_paint) and not meta_refresh(html_dir / report.page):
                report.first_paint_ms = browser.first_paint(base + report.page)
                if report.first_paint_ms is None or report.first_paint_ms > FIRST_PAINT_BUDGET_MS:
                    shown = "never" if report.first_paint_ms is None else f"{report.first_paint_ms:,.0f} ms"
                    report.problems.append(f"first paint on fast 4G: {shown} (budget {FIRST_PAINT_BUDGET_MS:,} ms)")
        by_page = {r.page: r for r in reports}
        for page, hrefs in links.items():
            for href in hrefs:
                problem = _check_link(html_dir, base, href, anchors)
                if problem:
                    by_page[page].problems.append(problem)
    for report in reports:                          # one line per distinct problem, in order
        report.problems = list(dict.fromkeys(report.problems))
    return reports


def _check_link(html_dir: Path, base: str, href: str, anchors: dict[str, set]) -> str | None:
    if not href.startswith(base):
        return None                                  # external (or mailto:, javascript:): not followed offline
    url, fragment = urldefrag(href)
    path = unquote(urlsplit(url).path).lstrip("/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    if not (html_dir / path).is_file():
        return f"broken link: {href} ({path} does not exist)"
    if fragment and path.endswith(".html") and path not in anchors:     # a page not opened: its HTML ids
        anchors[path] = set(re.findall(r'\s(?:id|name)="([^"]+)"', (html_dir / path).read_text(errors="replace")))
    if fragment and path in anchors and unquote(fragment) not in anchors[path]:
        return f"broken link: {href} (no #{unquote(fragment)} on {path})"
    return None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html_dir", type=Path, help="the built site, e.g. _build/html")
    parser.add_argument("--page", action="append", help="check only this page (repeatable)")
    parser.add_argument("--screenshot", nargs=2, metavar=("PAGE", "PNG"), help="save a PNG of one page and stop")
    parser.add_argument("--selector", help="with --screenshot: only the box around this CSS selector")
    parser.add_argument("--margin", type=int, default=0, help="with --selector: pixels of page above the box")
    parser.add_argument("--width", type=int, default=1280, help="with --screenshot: window width in px")
    parser.add_argument("--dark", action="store_true", help="with --screenshot: the theme's dark mode")
    parser.add_argument("--verbose", "-v", action="store_true", help="list every block that scrolls sideways")
    parser.add_argument("--axe", action="store_true",
                        help="also run axe-core on every page (light and dark, each width; slow)")
    parser.add_argument("--first-paint", action="store_true",
                        help="also time every page's first paint, cold, on simulated fast 4G")
    args = parser.parse_args(argv)
    if args.screenshot:
        page, png = args.screenshot
        with serve(args.html_dir.resolve()) as base, Chromium() as browser:
            browser.screenshot(base + page, Path(png), args.selector, args.margin, args.width, args.dark)
        print(f"saved {png}")
        return 0
    started = time.monotonic()
    axe_script = None
    if args.axe:
        import importlib.util

        spec = importlib.util.spec_from_file_location("fetch_book_assets",
                                                      Path(__file__).resolve().parent / "fetch_book_assets.py")
        fetch_book_assets = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(fetch_book_assets)
        axe_script = (fetch_book_assets.fetch_check_tools() / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
    reports = check_site(args.html_dir, args.page, first_paint="all" if args.first_paint else (),
                         axe="all" if args.axe else (), axe_script=axe_script)
    for r in reports:
        status = "ok" if not r.problems else f"{len(r.problems)} problem(s)"
        print(f"{r.page}: {status}; loaded in {r.load_seconds:.2f} s, {r.requests} requests, {r.images} images "
              f"({r.figures} figures), math {r.math_typeset}/{r.math}, widgets {r.widgets}"
              + (f", first paint on fast 4G {r.first_paint_ms:,.0f} ms" if r.first_paint_ms is not None else "")
              + (f", prose line median {statistics.median(r.prose_line_chars())} chars"
                 if r.prose_line_chars() else ""))
        for problem in r.problems:
            print(f"    {problem}")
        for width in sorted(r.layout, reverse=True):
            out, code = r.scrolling(width, "output"), r.scrolling(width, "code")
            if out or code or args.verbose:
                print(f"    at {width} px: {len(out)} of {r.layout[width]['outputs']} outputs and "
                      f"{len(code)} of {r.layout[width]['code']} code blocks scroll sideways")
            if args.verbose:
                for block in out + code:
                    print(f"        {block['kind']:6} +{block['excess']:>4} px {block['chars']:>4} chars  {block['text']}")
    bad = sum(bool(r.problems) for r in reports)
    print(f"{len(reports)} pages checked in {time.monotonic() - started:.1f} s; {bad} with problems")
    for width in WIDTHS:
        out = sum(len(r.scrolling(width, "output")) for r in reports)
        code = sum(len(r.scrolling(width, "code")) for r in reports)
        print(f"at {width} px: {out} of {sum(r.layout.get(width, {}).get('outputs', 0) for r in reports)} outputs and "
              f"{code} of {sum(r.layout.get(width, {}).get('code', 0) for r in reports)} code blocks scroll sideways")
    if args.axe:
        impacts = {}
        for r in reports:
            for violations in r.axe.values():
                for v in violations:
                    impacts[v["impact"]] = impacts.get(v["impact"], 0) + 1
        print(f"axe-core: violations (page x theme x width) by impact: {impacts or 'none'}")
    lines = [n for r in reports for n in r.prose_line_chars()]
    if lines:
        print(f"prose at 1280 px: median {statistics.median(lines)} characters per line "
              f"over {len(lines)} paragraphs (longest {max(lines)})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
