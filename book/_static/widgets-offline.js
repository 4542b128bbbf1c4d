// Loaded on pages with ipywidgets, between require.js and the widget HTML
// manager (see nb_ipywidgets_js in _config.yml), so that widgets render from
// their saved state with no internet.
(function () {
  // Loaded after the page (tools/book_theme.py loads it once the page has loaded): run what
  // waited for DOMContentLoaded at once if that has passed.
  function whenReady(fn) {
    if (document.readyState === "loading") window.addEventListener("DOMContentLoaded", fn);
    else fn();
  }
  // The manager's AMD modules (@jupyter-widgets/...) find their icon fonts
  // next to themselves. Left alone, require.js would place those modules (and
  // so the fonts) under the page's folder; point them at _static/html-manager/.
  var here = document.currentScript.src;
  var manager = here.slice(0, here.lastIndexOf("/") + 1) + "html-manager";
  require.config({ paths: {
    "@jupyter-widgets": manager,
    "@jupyter-widgets/html-manager/dist": manager,
  } });

  // The book has no kernel: a widget drawn from the state saved in the notebook
  // shows the values it was saved with, and moving a control would change
  // nothing else. So make it honest before the manager draws it: every control
  // disabled (the state script is already in the page, above this script) and
  // a line saying what it is above each widget (embedlab.css styles it).
  // -- static view (tests/test_book.py removes this block to see the check fail)
  var STATIC_NOTE = "static view \u2014 run the notebook to explore";
  document.querySelectorAll('script[type="application/vnd.jupyter.widget-state+json"]').forEach(function (script) {
    var saved = JSON.parse(script.textContent);
    Object.keys(saved.state || {}).forEach(function (id) {
      var model = saved.state[id].state;
      if (model && "disabled" in model) model.disabled = true;
    });
    script.textContent = JSON.stringify(saved);
  });
  whenReady(function () {
    document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]').forEach(function (view) {
      var note = document.createElement("p");
      note.className = "embedlab-static-note";
      note.textContent = STATIC_NOTE;
      view.parentNode.insertBefore(note, view);
      view.parentNode.classList.add("embedlab-static-widget");
    });
  });
  // A slider's handle is named by its widget's description ("context", "batch"), for screen readers.
  function nameHandles() {
    document.querySelectorAll(".widget-subarea .noUi-handle").forEach(function (handle) {
      var box = handle.closest(".widget-slider, .jupyter-widget-slider, .widget-inline-hbox");
      var label = box && box.querySelector(".widget-label, label");
      var text = label && label.textContent.trim();
      handle.setAttribute("aria-label", (text || "value") + " (static view)");
    });
  }
  // A widget box that scrolls at this width (a wide table in a phone's column) must be reachable
  // by keyboard, and a static widget's disabled controls are not: make each box that overflows
  // a focusable, named region, and drop that again where it fits (the page may be resized).
  function focusScrollers() {
    document.querySelectorAll(".widget-subarea .jupyter-widgets").forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", "widget (static view), scrolls");
        box.dataset.embedlabScroller = "1";
      } else if (!scrolls && box.dataset.embedlabScroller) {
        ["tabindex", "role", "aria-label", "data-embedlab-scroller"].forEach(function (a) { box.removeAttribute(a); });
      }
    });
  }
  whenReady(function () {
    new MutationObserver(function () { nameHandles(); focusScrollers(); })
      .observe(document.body, { childList: true, subtree: true });
    window.addEventListener("resize", focusScrollers);
  });
  // -- end of static view

  // ipywidgets typesets labels with the MathJax 2 call MathJax.Hub.Queue; the
  // site loads MathJax 3. Once MathJax 3 is on the page, give it that call.
  whenReady(function () {
    var mj = window.MathJax;
    if (mj && mj.startup && !mj.Hub) {
      mj.Hub = {
        Queue: function (job) {
          return mj.startup.promise.then(function () { return window.MathJax.typesetPromise([job[2]]); });
        },
      };
    }
  });
})();
