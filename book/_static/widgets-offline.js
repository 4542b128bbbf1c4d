// Loaded on pages with ipywidgets, between require.js and the widget HTML
// manager (see nb_ipywidgets_js in _config.yml), so that widgets render from
// their saved state with no internet.
(function () {
  // The manager's AMD modules (@jupyter-widgets/...) find their icon fonts
  // next to themselves. Left alone, require.js would place those modules (and
  // so the fonts) under the page's folder; point them at _static/html-manager/.
  var here = document.currentScript.src;
  var manager = here.slice(0, here.lastIndexOf("/") + 1) + "html-manager";
  require.config({ paths: {
    "@jupyter-widgets": manager,
    "@jupyter-widgets/html-manager/dist": manager,
  } });

  // ipywidgets typesets labels with the MathJax 2 call MathJax.Hub.Queue; the
  // site loads MathJax 3. Once MathJax 3 is on the page, give it that call.
  window.addEventListener("DOMContentLoaded", function () {
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
