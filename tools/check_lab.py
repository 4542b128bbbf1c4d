"""Run the course's notebooks in a real JupyterLab, in headless Chromium, as a learner does.

    python tools/check_lab.py                      # every lesson, solution and exercise
    python tools/check_lab.py notebooks/07-memory.ipynb exercises/01-toy-table.ipynb

nbval runs the notebooks in a bare kernel and the book test loads the static site; this
opens them where learners work. It starts `jupyter lab` on a free port of 127.0.0.1 with a
token, on a copy of the course's files (so nothing it runs is saved into the course, and a
lesson that reads a file of the course finds it, as in a learner's clone), with Jupyter's folders of its own, and drives Debian's Chromium over the
DevTools protocol with the driver the book test uses (tools/check_site.py). JupyterLab's
own application object (`--LabApp.expose_app_in_browser`) runs its commands: open a
notebook (a fresh kernel; after the first, in the same JupyterLab, as a learner opens one), Run All, read each cell's outputs from the notebook's model.

A notebook fails on an error output, on an error of the course's in the browser's console
(JupyterLab's own are recorded with the reason: whose_error()), on a dialog JupyterLab shows, on
a cell still running at the deadline, on a blank exercise's check that does not say "not
attempted", and on a widget that does not draw, shows as text (its `FloatSlider(...)` repr) or as
"Error displaying widget". Every wait is for an event (a command settled, the kernel idle, a view
drawn), with a deadline far above what load gives (SERVER/NOTEBOOK/CELL/WIDGET_SECONDS), and a
wait that reaches its deadline fails saying what it waited for. The widget waits count from the last
change the page showed (a view drawn, a label found, the kernel busy), not from their start: a
loaded machine that draws slowly is waited for, a page where nothing happens fails. `use_widget` presses a key on a
slider, or types into a box, and returns the widgets' output before and after; `answer`
types code into an answer cell,
runs it and its check, and returns what the check printed. tests/test_lab.py uses these;
benchmarks measure the time of the whole pass (it prints the seconds per notebook).
"""

from __future__ import annotations

import argparse
import contextlib
import re
import importlib.util
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

# Deadlines: how long a wait for an event outside Python (the server's answer, JupyterLab's start, a
# kernel's reply, a widget view drawn, an output changed) may last before it fails, naming what it waited
# for. Each wait ends as soon as its event comes, so a deadline costs nothing when things go well: they
# are set far above the worst seen under load (tools/under_load.py: a notebook's Run All beside three
# busy processes on two cores took up to about 40 s, a widget view up to about 10 s after its output).
SERVER_SECONDS = 180      # jupyter lab answers its status API
NOTEBOOK_SECONDS = 300    # a notebook opened on a fresh kernel, or Run All to the end
CELL_SECONDS = 180        # one cell run (run_cell, answer): the kernel's reply and its outputs
WIDGET_SECONDS = 120      # every widget view drawn after its output arrived; a widget found; its output changed
ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("notebooks", "exercises", "solutions")


def _load_check_site():
    if "check_site" in sys.modules:
        return sys.modules["check_site"]
    spec = importlib.util.spec_from_file_location("check_site", ROOT / "tools" / "check_site.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_site"] = module
    spec.loader.exec_module(module)
    return module


check_site = _load_check_site()

# The notebook's state, read from JupyterLab's model: per code cell its execution count, its
# error outputs, whether it shows a widget, and its outputs' text; the kernel's status.
STATE_JS = """(() => {
  const w = window.jupyterapp.shell.currentWidget;
  if (!w || !w.content || !w.content.model || !w.sessionContext.session) return null;
  const kernel = w.sessionContext.session.kernel;
  const cells = [];
  const model = w.content.model.cells;
  for (let i = 0; i < model.length; i++) {
    const c = model.get(i);
    if (c.type !== 'code') continue;
    const outs = c.outputs.toJSON();
    cells.push({index: i, count: c.executionCount, first: c.sharedModel.getSource().split('\\n')[0],
                errors: outs.filter(o => o.output_type === 'error').map(o => o.ename + ': ' + o.evalue),
                widgets: outs.filter(o => o.data && o.data['application/vnd.jupyter.widget-view+json']).length,
                text: outs.map(o => o.text || (o.data && o.data['text/plain']) || '').join('')});
  }
  return {path: w.context.path, status: kernel ? kernel.status : 'none', revealed: !!w.isRevealed,
          dialogs: [...document.querySelectorAll('.jp-Dialog')].map(d => d.innerText.replace(/\\s+/g, ' ').slice(0, 300)),
          cells};
})()"""

# What the page shows of widgets, output by output (the cells' own outputs, not those inside an Output
# widget): the widget views drawn (an output holding a drawn widget), those that failed ("Error
# displaying widget"), and widget reprs shown as text (the widget's JavaScript never arrived).
WIDGETS_JS = """(() => {
  const outs = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output')]
    .filter(e => !e.parentElement.closest('.jupyter-widgets'));
  const failed = outs.filter(e => e.innerText.includes('Error displaying widget'));
  return {rendered: outs.filter(e => e.querySelector(':scope > .jupyter-widgets') && !failed.includes(e)).length,
          failed: failed.length,
          as_text: outs.filter(e => /^(interactive|VBox|HBox|[A-Za-z]*Slider|Dropdown)\\(/.test(e.innerText.trim())).length};
})()"""


@dataclass
class LabRun:
    path: str
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    cells: list[dict] = field(default_factory=list)
    widgets: dict = field(default_factory=dict)
    recorded: list[str] = field(default_factory=list)    # JupyterLab's own console errors (whose_error())


# Whose error a console error is. The course's fail the check: what its notebooks' outputs run (an
# HTML output's script), what draws its widgets (the @jupyter-widgets manager, or an error that names a
# widget, a model or a comm), a request an output makes, and an error with no stack at all, which
# cannot be told to be anyone else's. JupyterLab's own are recorded only: an error raised and caught
# entirely in the code JupyterLab serves from /static/lab/ (its core, Lumino, CodeMirror), or by a
# request of its own to the server's APIs, that names no widget. Those come from JupyterLab reacting
# to this driver opening and closing notebooks faster than a person does (issue 50: "Cannot read
# properties of null (reading 'footer') at _ensureFocus ... onActivateRequest", a notebook activated
# while the previous one is disposed); a learner sees nothing of them, the course cannot change them,
# and what they could break (an output, a widget, a kernel's run) is checked on its own.
DRIVER_URL = "embedlab-check-lab-driver"     # the sourceURL of every script this driver evaluates
JUPYTERLAB_CODE = ("/static/lab/",)
JUPYTERLAB_REQUESTS = ("/api/", "/lab/api/", "/static/lab/")
COURSE_CODE = ("/@jupyter-widgets/", "jupyterlab_widgets", "jupyterlab-manager")
COURSE_WORDS = re.compile(r"widget|IPY_MODEL|\bcomm\b|comm_|model_id|could not create", re.I)


def console_entry(event: dict) -> dict | None:
    """An error a DevTools event reports, as {"text", "urls"} (the URLs of its stack's frames, or of the
    resource a failed request named), or None when the event is no error."""
    method, params = event["method"], event["params"]
    if method == "Runtime.exceptionThrown":
        details = params["exceptionDetails"]
        text = details.get("exception", {}).get("description") or details.get("text", "")
        frames = (details.get("stackTrace") or {}).get("callFrames", [])
        urls = [f.get("url", "") for f in frames] or ([details["url"]] if details.get("url") else [])
    elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
        entry = params["entry"]
        text = entry.get("text", "")
        frames = (entry.get("stackTrace") or {}).get("callFrames", [])
        urls = [f.get("url", "") for f in frames] or ([entry["url"]] if entry.get("url") else [])
    elif method == "Runtime.consoleAPICalled" and params["type"] == "error":
        text = " ".join(str(a.get("value", a.get("description", ""))) for a in params["args"])
        urls = [f.get("url", "") for f in (params.get("stackTrace") or {}).get("callFrames", [])]
    else:
        return None
    return {"text": text, "urls": urls}


def whose_error(entry: dict) -> str | None:
    """None when a console error is the course's (it fails the check), else why it is JupyterLab's
    own and only recorded (see COURSE_CODE and JUPYTERLAB_CODE above)."""
    first = entry["text"].strip().splitlines()[0] if entry["text"].strip() else ""
    urls = [u for u in entry["urls"] if u != DRIVER_URL]     # this driver's scripts: neither's own
    if COURSE_WORDS.search(first) or any(mark in u for u in urls for mark in COURSE_CODE):
        return None
    paths = [urlsplit(u).path for u in urls]
    if paths and all(path.startswith(JUPYTERLAB_CODE) for path in paths):
        return "raised in JupyterLab's own code (" + ", ".join(sorted({path.rsplit("/", 1)[-1] for path in paths})) + ")"
    if paths and all(path.startswith(JUPYTERLAB_REQUESTS) for path in paths) and "Failed to load resource" in first:
        return "a request of JupyterLab's own to the server"
    return None


def course_files() -> list[str]:
    """Every file of the course as a clone has it (what git tracks), else the notebook folders."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        return [name for name in listed.decode("utf-8", "surrogateescape").split("\0")
                if name and (ROOT / name).is_file()]
    except (OSError, subprocess.CalledProcessError):
        return [str(p.relative_to(ROOT)) for folder in FOLDERS for p in (ROOT / folder).rglob("*.ipynb")
                if ".ipynb_checkpoints" not in p.parts]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """A JupyterLab server on a copy of the course's notebooks, and a Chromium tab driving it."""

    def __init__(self, timeout: float = NOTEBOOK_SECONDS):
        self.timeout = timeout
        self.scratch = Path(tempfile.mkdtemp(prefix="check-lab-"))
        self.root = self.scratch / "course"
        for path in course_files():          # a lesson may read a file of the course (lesson 12: LICENSE)
            (self.root / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / path, self.root / path)
        self.port, self.token = free_port(), secrets.token_hex(16)
        env = {**os.environ, **{name: str(self.scratch / name.lower()) for name in
                                ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR")},
               "JUPYTER_PLATFORM_DIRS": "1", "MPLBACKEND": "module://matplotlib_inline.backend_inline"}
        jupyter = Path(sys.executable).with_name("jupyter")
        self.log = open(self.scratch / "lab.log", "w")
        self.server = subprocess.Popen(
            [str(jupyter), "lab", "--no-browser", "--allow-root", "--ip=127.0.0.1", f"--port={self.port}",
             f"--IdentityProvider.token={self.token}", f"--ServerApp.root_dir={self.root}",
             "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=", "--LabApp.check_for_updates_class="
             "jupyterlab.NeverCheckForUpdate"],
            env=env, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT, cwd=self.scratch)
        self.browser = None
        try:
            self._wait_for_server()
            self.browser = check_site.Chromium(timeout=CELL_SECONDS)
        except BaseException:
            self.close()
            raise
        self.tab = self.browser.tab

    def _wait_for_server(self) -> None:
        deadline = time.monotonic() + SERVER_SECONDS
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                raise RuntimeError(f"jupyter lab exited ({self.server.returncode}): "
                                   f"{(self.scratch / 'lab.log').read_text()[-2000:]}")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/status?token={self.token}", timeout=2)
                return
            time.sleep(0.2)
        raise TimeoutError(f"waited for jupyter lab to answer on its status API: not within {SERVER_SECONDS} s")

    # -- driving -------------------------------------------------------------
    def evaluate(self, expression: str, timeout: float | None = None):
        """Evaluate in the page, as this driver (its stack frames say so: whose_error())."""
        return self.tab.evaluate(f"{expression}\n//# sourceURL={DRIVER_URL}", timeout=timeout)

    def state(self):
        with contextlib.suppress(RuntimeError):
            return self.evaluate(STATE_JS)
        return None

    def _wait(self, condition, timeout: float, what: str):
        """Poll the notebook's state until `condition(state)` holds; past `timeout` s, fail naming
        `what` was waited for and the last state seen."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.state()
            if found and condition(found):
                return found
            time.sleep(0.1)
        raise TimeoutError(f"waited for {what}: not within {timeout:.0f} s (last state {json.dumps(self.state())[:500]})")

    def _start(self, body: str) -> int:
        """Start `body` (the statements of an async function, run in the page) without holding a
        DevTools call open while it runs; done(ticket) says when it has finished (an await of a
        JupyterLab command: Run All's promise settles once every cell's reply and outputs are in)."""
        self._tickets = getattr(self, "_tickets", 0) + 1
        ticket = self._tickets
        self.evaluate(f"""(() => {{
          const done = window.embedlabDone = window.embedlabDone || {{}};
          done[{ticket}] = null;
          (async () => {{ {body} }})().then(() => done[{ticket}] = 'ok', e => done[{ticket}] = 'error: ' + e);
          return true;
        }})()""")
        return ticket

    def done(self, ticket: int) -> str | None:
        with contextlib.suppress(RuntimeError):
            return self.evaluate(f"(window.embedlabDone || {{}})[{ticket}]")
        return None

    def _api(self, method: str, endpoint: str):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/{endpoint}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shut_down_kernels(self) -> None:
        """End every session and its kernel, as closing a notebook and shutting its kernel down does."""
        for session in self._api("GET", "sessions"):
            self._api("DELETE", f"sessions/{session['id']}")

    def _app_ready(self) -> bool:
        """Whether the page holds a started JupyterLab (its workspace restored)."""
        with contextlib.suppress(RuntimeError, TimeoutError):
            return bool(self.evaluate("(async () => { if (!window.jupyterapp) return false;"
                                      " await window.jupyterapp.restored; return true; })()", timeout=NOTEBOOK_SECONDS))
        return False

    def open(self, path: str) -> dict:
        """Open the notebook at `path` (relative to the course) on a new kernel, as a learner opens one
        from the file browser: the first in a fresh page (JupyterLab starts; errors it logs count
        against that notebook), the others in the same JupyterLab, once every open notebook is
        closed and every kernel shut down (a notebook opened again would otherwise find its old
        kernel, with everything it defined). JupyterLab is not loaded again for each notebook: that
        load is most of the CPU a notebook's check costs."""
        if self._app_ready():
            # close every notebook, as saved (no "unsaved changes?" dialog): its widgets and views go
            self.evaluate("[...window.jupyterapp.shell.widgets('main')].forEach("
                              "w => { if (w.context) w.context.model.dirty = false; w.dispose(); })")
            self.shut_down_kernels()
            self.tab.events = []
            self.evaluate(f"window.jupyterapp.commands.execute('docmanager:open', {{path: {json.dumps(path)}}})"
                              # the launcher JupyterLab shows while no notebook was open: a fresh page has none
                              ".then(() => [...window.jupyterapp.shell.widgets('main')].forEach("
                              "w => { if (!w.context) w.dispose(); }))")
        else:
            self.tab.call("Page.navigate", {"url": "about:blank"})
            self.shut_down_kernels()
            self.tab.events = []
            url = f"http://127.0.0.1:{self.port}/lab/tree/{path}?token={self.token}&reset"
            self.tab.call("Page.navigate", {"url": url})
        return self._wait(lambda s: s["path"] == path and s["status"] == "idle" and s["revealed"], self.timeout,
                          f"{path} to open on an idle kernel")

    def run_all(self, path: str) -> dict:
        """Run All, until every code cell has run, or a cell's error stopped the run (JupyterLab
        runs nothing after it: the error is the report, not a wait for the time limit)."""
        ticket = self._start("await window.jupyterapp.commands.execute('notebook:run-all-cells');")
        return self._wait(lambda s: s["status"] == "idle" and self.done(ticket) is not None and (
            all(c["count"] for c in s["cells"]) or any(c["errors"] for c in s["cells"])),
            self.timeout, f"Run All of {path} to finish (its command settled, every cell run or one failed, "
                          "the kernel idle)")

    def console_errors(self) -> tuple[list[str], list[str]]:
        """The console's errors since the notebook was opened: (the course's, which fail the check;
        JupyterLab's own, recorded with the reason). whose_error() decides."""
        course, recorded = [], []
        for event in list(self.tab.events):
            entry = console_entry(event)
            if entry is None:
                continue
            text = entry["text"][:300]
            reason = whose_error(entry)
            if reason is None:
                course.append(text)
            else:
                recorded.append(f"{text.splitlines()[0] if text else '(no text)'} [{reason}]")
        return course, recorded

    def wait_for_widgets(self, expected: int) -> dict:
        """WIDGETS_JS once every one of the `expected` widget outputs shows a drawn view, a failure or
        a text repr (a view draws after its output arrives, seconds later on a loaded machine), or
        once WIDGET_SECONDS have passed; "waited" is the seconds it took."""
        started = quiet_since = time.monotonic()
        seen = None
        while True:
            found = self.evaluate(WIDGETS_JS)
            if found != seen:                  # a view drawn since: the page is still at work
                seen, quiet_since = found, time.monotonic()
            settled = found["rendered"] + found["failed"] + found["as_text"] >= expected
            if settled or time.monotonic() - quiet_since > WIDGET_SECONDS:
                return {**found, "expected": expected, "waited": round(time.monotonic() - started, 1)}
            time.sleep(0.1)

    def run(self, path: str) -> LabRun:
        """Open `path`, Run All, and report what a learner would see go wrong."""
        report = LabRun(path)
        started = time.monotonic()
        try:
            self.open(path)
            report.cells = self.run_all(path)["cells"]
        except TimeoutError as exc:
            report.problems.append(str(exc))
            return report
        report.seconds = time.monotonic() - started
        for cell in report.cells:
            report.problems += [f"cell {cell['index'] + 1} [{cell['count']}] ({cell['first'][:60]}): {e[:200]}"
                                for e in cell["errors"]]
        course, report.recorded = self.console_errors()
        report.problems += [f"console: {text}" for text in course]
        if report.cells and (dialogs := (self.state() or {}).get("dialogs")):
            report.problems += [f"JupyterLab shows a dialog: {text}" for text in dialogs]
        if path.startswith("exercises/"):          # a blank exercise: every check says so, kindly
            checks = [c for c in report.cells if c["first"].startswith("ex.check(")]
            report.problems += [f"cell {c['index'] + 1} ({c['first']}) does not say 'not attempted': {c['text'][:200]}"
                                for c in checks if "not attempted" not in c["text"]] or \
                ([] if checks else ["no ex.check( cell found"])
        expected = sum(c["widgets"] for c in report.cells)
        if expected:                          # every widget output's view drawn: waited for, not slept on
            report.widgets = self.wait_for_widgets(expected)
            if report.widgets["failed"] or report.widgets["as_text"] or report.widgets["rendered"] < expected:
                report.problems.append(f"widgets: {report.widgets['rendered']} of {expected} widget views drawn "
                                       f"(waited {report.widgets['waited']:g} s of {WIDGET_SECONDS} for each "
                                       f"widget output to draw its view): {report.widgets}")
        return report

    def widget_text(self) -> str:
        """What the visible notebook's widgets show as output (their HTML and Output areas)."""
        return self.evaluate("[...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) "
                                 ".widget-html, .jp-NotebookPanel:not(.lm-mod-hidden) .widget-output')]"
                                 ".map(e => e.innerText).join('\\n')")

    def use_widget(self, label: str, *, type_text: str | None = None, presses: int = 0,
                   key: str = "ArrowRight", until=None) -> tuple[str, str]:
        """Use the widget labelled `label` as a learner does: type `type_text` into its box and press
        Enter, or press `key` `presses` times on its slider's handle. Return the widgets' output
        text before and after: after, once `until(text, before)` holds (default: the text changed), waited for
        up to WIDGET_SECONDS (the kernel's reply to the new value, and the output it redraws)."""
        until = until or (lambda text, before: text != before)
        target = ".noUi-handle" if type_text is None else "input"
        # Found by its label's textContent (innerText depends on layout, and JupyterLab lets the browser
        # skip laying out cells out of view) and scrolled into view, so the page draws it. Waited for
        # on progress, not on a clock alone: while what the page shows of the widgets changes (views
        # drawn, labels appearing), the wait goes on; it fails once WIDGET_SECONDS pass with no change,
        # saying what it last saw.
        find = f"""(() => {{
          const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
          if (!panel) return 'no notebook shown';
          const label = e => ((e.querySelector('.widget-label') || {{}}).textContent || '').trim();
          const boxes = [...panel.querySelectorAll('.widget-inline-hbox')];
          const w = boxes.find(e => label(e) === {json.dumps(label)});
          const drawn = panel.querySelectorAll('.jupyter-widgets').length;
          if (!w) return `no widget labelled so yet; ${{drawn}} widget views drawn, labels: ${{boxes.map(label).join(' | ')}}`;
          w.scrollIntoView({{block: 'center'}});
          const t = w.querySelector('{target}');
          if (!t) return `its {target} not drawn yet; ${{drawn}} widget views drawn`;
          t.focus(); if (t.select) t.select(); return true;
        }})()"""
        seen, quiet_since = None, time.monotonic()
        while (found := self.evaluate(find)) is not True:
            if found != seen:
                seen, quiet_since = found, time.monotonic()
            elif time.monotonic() - quiet_since > WIDGET_SECONDS:
                raise LookupError(f"waited for a widget labelled {label!r} with a {target} in the notebook: "
                                  f"none, and nothing changed for {WIDGET_SECONDS:g} s (last seen: {found}; "
                                  f"kernel {(self.state() or {}).get('status')})")
            time.sleep(0.2)
        before = self.widget_text()
        strokes = [key] * presses
        if type_text is not None:
            self.tab.call("Input.insertText", {"text": type_text})
            strokes = ["Enter"]
        codes = {"ArrowRight": 39, "ArrowLeft": 37, "Enter": 13}
        for stroke in strokes:
            for kind in ("keyDown", "keyUp"):
                self.tab.call("Input.dispatchKeyEvent", {"type": kind, "key": stroke, "code": stroke,
                                                         "windowsVirtualKeyCode": codes[stroke],
                                                         **({"text": "\r"} if stroke == "Enter" and kind == "keyDown"
                                                            else {})})
        # the kernel's reply: waited for while the kernel works or the output changes, failed once
        # WIDGET_SECONDS pass with an idle kernel and an output that does not change
        after, quiet_since = self.widget_text(), time.monotonic()
        while not until(after, before):
            if (self.state() or {}).get("status") == "busy":
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since > WIDGET_SECONDS:
                raise TimeoutError(f"waited for the widgets' output to answer {label!r} ({type_text!r} typed, "
                                   f"{presses} x {key}): nothing changed for {WIDGET_SECONDS} s on an idle "
                                   f"kernel; before: {before[:300]!r}, last: {after[:300]!r}")
            time.sleep(0.1)
            if (text := self.widget_text()) != after:
                after, quiet_since = text, time.monotonic()
            after = self.widget_text()
        return before, after

    def run_cell(self, cell_index: int) -> str:
        """Run the one code cell at `cell_index` (the notebook's own numbering), as Shift+Enter
        does, and return its outputs' text."""
        ticket = self._start(f"""
          const w = window.jupyterapp.shell.currentWidget;
          w.content.activeCellIndex = {cell_index};
          await window.jupyterapp.commands.execute('notebook:run-cell');""")
        state = self._wait(lambda s: s["status"] == "idle" and self.done(ticket) is not None and all(
            c["count"] for c in s["cells"] if c["index"] == cell_index), CELL_SECONDS,
            f"cell {cell_index} to run (its reply and outputs in, the kernel idle)")
        return next(c["text"] for c in state["cells"] if c["index"] == cell_index)

    def answer(self, cell_index: int, source: str) -> str:
        """Type `source` into the code cell at `cell_index` (the notebook's own numbering), run it and
        the check cell after it, and return what the check printed."""
        ticket = self._start(f"""
          const w = window.jupyterapp.shell.currentWidget;
          w.content.model.cells.get({cell_index}).sharedModel.setSource({json.dumps(source)});
          w.content.activeCellIndex = {cell_index};
          await window.jupyterapp.commands.execute('notebook:run-cell-and-select-next');
          await window.jupyterapp.commands.execute('notebook:run-cell');""")
        state = self._wait(lambda s: s["status"] == "idle" and self.done(ticket) is not None and all(
            c["count"] for c in s["cells"] if c["index"] in (cell_index, cell_index + 1)), CELL_SECONDS,
            f"the answer in cell {cell_index} and its check to run (replies and outputs in, the kernel idle)")
        return next(c["text"] for c in state["cells"] if c["index"] == cell_index + 1)

    def close(self) -> None:
        if self.browser is not None:
            self.browser.close()
        if self.server.poll() is None:
            self.server.terminate()
            try:
                self.server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()
        self.log.close()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def every_notebook() -> list[str]:
    return [f"{folder}/{p.name}" for folder in FOLDERS for p in sorted((ROOT / folder).glob("[0-9][0-9]-*.ipynb"))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="notebooks relative to the course (default: every one)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    failed = 0
    with Lab() as lab:
        print(f"JupyterLab and Chromium up in {time.monotonic() - started:.1f} s")
        for path in args.paths or every_notebook():
            report = lab.run(path)
            failed += bool(report.problems)
            print(f"{report.seconds:6.1f} s  {path}" + "".join(f"\n          {p}" for p in report.problems)
                  + "".join(f"\n          recorded, not failed: {r}" for r in report.recorded))
    print(f"{len(args.paths or every_notebook())} notebooks in {time.monotonic() - started:.0f} s, {failed} with problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
