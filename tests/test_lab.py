"""The notebooks in JupyterLab itself, in headless Chromium, as learners use them (tools/check_lab.py).

nbval runs every notebook in a bare kernel; this opens them where learners work: a real
`jupyter lab` on a copy of the course, driven over the DevTools protocol. Each notebook
checked is opened (a fresh kernel) and Run All: no error output, no console error, every
widget drawn (not its text repr, not "Error displaying widget"); the widget lessons react to
a slider and a typed value; a blank exercise says "not attempted" without a traceback, and
answers typed into it get ✅ or a specific hint; a widget cell run alone in a fresh kernel
draws its widget (learners jump straight to widgets).

`make test` opens five notebooks (the two widget lessons, their widget cells alone, and
exercise 01) in one JupyterLab (loaded once, each later notebook opened in it on a new kernel); CI also runs `tools/check_lab.py`, the same
Run All over every lesson, solution and exercise, with the time of each. Without Chromium these tests are skipped with a message, as the book's are,
unless EMBEDLAB_REQUIRE_BROWSER=1 (CI) makes that a failure.
"""

import os
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent


from tools_loader import load_tool  # noqa: E402

check_lab = load_tool("check_lab")
CHROMIUM = check_lab.check_site.find_chromium()

if CHROMIUM is None:
    if os.environ.get("EMBEDLAB_REQUIRE_BROWSER"):
        raise RuntimeError("EMBEDLAB_REQUIRE_BROWSER is set but no Chromium was found (apt-get install chromium)")
    pytest.skip("no Chromium found: the JupyterLab tests need one (Debian/Ubuntu: apt-get install chromium)",
                allow_module_level=True)

# JupyterLab and Chromium: pages, kernels' replies and widget views waited for (tools/under_load.py)
pytestmark = pytest.mark.waits

@pytest.fixture(scope="module")
def lab():
    with check_lab.Lab() as running:
        yield running


def run_all_clean(lab, path):
    report = lab.run(path)
    assert not report.problems, f"{path} in JupyterLab:\n" + "\n".join(report.problems)
    return report


def test_the_widget_lessons_react_to_a_slider_and_a_typed_value(lab, monkeypatch):
    run_all_clean(lab, "notebooks/07-memory.ipynb")
    # a widget that is not there fails once the page has shown no change for WIDGET_SECONDS, and says
    # what it saw: the labels it found (the wait counts from the last change, not from its start)
    with monkeypatch.context() as patch:
        patch.setattr(check_lab, "WIDGET_SECONDS", 1)
        with pytest.raises(LookupError, match=r"nothing changed for 1 s \(last seen: .*labels: .*batch"):
            lab.use_widget("no such label", presses=1)
    cache_gb = re.compile(r"KV cache[^\n]*?([\d.]+) GB")
    # waited for: the cache's figure redrawn for the new batch (not only any change of the output)
    before, after = lab.use_widget("batch", presses=3, until=lambda text, before: (
        (now := cache_gb.search(text)) is not None and now[0] != (cache_gb.search(before) or [None])[0]))
    cache = [cache_gb.search(text) for text in (before, after)]
    assert all(cache) and float(cache[1][1]) > float(cache[0][1]), (before, after)
    run_all_clean(lab, "notebooks/03-counting-gpt2.ipynb")
    before, after = lab.use_widget("L", type_text="24", until=lambda text, before: "L=24" in text)
    assert "L=12" in before and "L=24" in after, (before[:300], after[:300])
    totals = [re.search(r"total\s+([\d,]+)", text) for text in (before, after)]
    assert all(totals) and int(totals[1][1].replace(",", "")) > int(totals[0][1].replace(",", "")), (before, after)


def test_an_answer_typed_into_an_exercise_gets_a_tick_or_a_specific_hint(lab):
    run_all_clean(lab, "exercises/01-toy-table.ipynb")            # blank: "not attempted", no traceback
    nb = nbformat.read(ROOT / "exercises" / "01-toy-table.ipynb", as_version=4)
    index = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.source.startswith("ex.check(\"n_params\")")) - 1
    right = lab.answer(index, "n_params = len(words) * len(features)")
    assert "✅" in right and "correct" in right, right
    wrong = lab.answer(index, "n_params = len(words) + len(features)")
    assert "❌" in wrong and "rows × columns" in wrong, wrong
    # an error the course's own output makes in the page (an HTML output's script) fails the check
    lab.tab.events = []
    lab.answer(index, "from IPython.display import HTML, display\n"
                      "display(HTML('<script>throw new Error(\"thrown by an output\")</script>'))")
    course, recorded = lab.console_errors()
    assert any("thrown by an output" in text for text in course), (course, recorded)


# What DevTools reports for JupyterLab's focus race (issue 50), and for errors that are the course's.
LAB = "http://127.0.0.1:8888/static/lab/jlab_core.8811dd2733d03721.js"
WIDGETS = "http://127.0.0.1:8888/lab/extensions/@jupyter-widgets/jupyterlab-manager/static/327.js"


def thrown(text, *urls):
    return {"method": "Runtime.exceptionThrown", "params": {"exceptionDetails": {
        "text": "Uncaught", "exception": {"description": text},
        "stackTrace": {"callFrames": [{"url": url, "functionName": "f"} for url in urls]}}}}


@pytest.mark.parametrize("event, jupyterlabs", [
    (thrown("TypeError: Cannot read properties of null (reading 'footer')\n    at _ensureFocus", LAB, LAB), True),
    (thrown("TypeError: x is undefined", LAB, check_lab.DRIVER_URL), True),   # JupyterLab's, our call below it
    (thrown("Error: Could not create a view for model id abc", LAB), False),   # names a widget's model
    (thrown("TypeError: x is undefined", WIDGETS, LAB), False),                # in the widget manager
    (thrown("Error: thrown by an output", "http://127.0.0.1:8888/lab/tree/notebooks/03.ipynb"), False),
    (thrown("Error: thrown by an output", ""), False),                          # an inline script
    (thrown("Error: no stack at all"), False),
    ({"method": "Log.entryAdded", "params": {"entry": {"level": "error", "source": "network", "url":
      "http://127.0.0.1:8888/api/kernels/1/channels", "text": "Failed to load resource: 404"}}}, True),
    ({"method": "Log.entryAdded", "params": {"entry": {"level": "error", "source": "network", "url":
      "http://127.0.0.1:8888/files/notebooks/figure.png", "text": "Failed to load resource: 404"}}}, False),
    ({"method": "Runtime.consoleAPICalled", "params": {"type": "error", "args": [{"value": "Error displaying widget"}],
      "stackTrace": {"callFrames": [{"url": LAB}]}}}, False),
])
def test_jupyterlabs_own_errors_are_recorded_and_the_courses_fail(event, jupyterlabs):
    """CONTRIBUTING.md, "Tests that wait": an error raised only in JupyterLab's own code (or by its own
    request), naming no widget, is recorded with the reason; any other is the course's and fails."""
    entry = check_lab.console_entry(event)
    assert entry is not None
    assert (check_lab.whose_error(entry) is not None) == jupyterlabs, entry


def widget_cells(path: Path) -> list[int]:
    nb = nbformat.read(path, as_version=4)
    return [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and any(
        "application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in c.get("outputs", []))]


@pytest.mark.parametrize("path", ["notebooks/03-counting-gpt2.ipynb", "notebooks/07-memory.ipynb"])
def test_a_widget_cell_run_alone_in_a_fresh_kernel_draws_its_widget(lab, path):
    """Lesson 07's widget cell said "run this cell to use it" but needed the setup cell first
    (NameError: memory_calculator); every widget cell of a lesson now stands alone."""
    cells = widget_cells(ROOT / path)
    assert cells, f"{path} has no widget cell"
    lab.open(path)
    for index in cells:
        text = lab.run_cell(index)
        state = lab.state()
        cell = next(c for c in state["cells"] if c["index"] == index)
        assert not cell["errors"], (path, index, cell["errors"], text)
        assert cell["widgets"] >= 1, (path, index, text)
