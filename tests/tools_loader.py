"""The tests' one way to use a script of tools/ as a module: loaded from its file, without editing
sys.path. It is registered under its name (dataclasses look their module up by name, and a tool that
imports another, as book_pdf imports check_site, finds the one loaded here); loading it again returns
the same module."""

import importlib.util
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent / "tools"


def load_tool(name: str):
    if name in sys.modules and getattr(sys.modules[name], "__file__", None) == str(TOOLS / f"{name}.py"):
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def needs_chromium(chromium):
    """The marks of a browser test: `waits` (tools/under_load.py), and skipped where no Chromium is found (`chromium` is what
    check_site.find_chromium() gave), except in CI, which sets EMBEDLAB_REQUIRE_BROWSER=1 (.ci/run):
    there a missing Chromium fails instead."""
    import os

    import pytest

    skip = pytest.mark.skipif(
        chromium is None and not os.environ.get("EMBEDLAB_REQUIRE_BROWSER"),
        reason="browser test skipped: no Chromium found. Install Debian's `chromium` "
               "(apt-get install chromium) or set $CHROMIUM; CI (.ci/run) installs it.")

    def mark(test):
        # a browser test waits for pages, scripts and widget views: tools/under_load.py runs it under load
        return pytest.mark.waits(skip(test))
    return mark


def open_offline(tab, browser, path) -> None:
    """Open a local page in a check_site tab and wait until it has settled; assert it fetched nothing
    from outside (only file: and data: addresses), as a page handed to a learner must."""
    tab.events = []
    tab.call("Page.navigate", {"url": path.as_uri()})
    seconds = sys.modules["check_site"].PAGE_SECONDS if "check_site" in sys.modules else browser.timeout
    assert tab.wait_for("Page.loadEventFired", seconds), f"waited for {path.name}'s load event: not within {seconds} s"
    tab.settle()
    urls = [e["params"]["request"]["url"] for e in tab.events if e["method"] == "Network.requestWillBeSent"]
    assert all(u.startswith(("file:", "data:")) for u in urls), urls
