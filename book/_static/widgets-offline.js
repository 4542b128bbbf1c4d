// Loaded on pages with ipywidgets, between require.js and the widget HTML
// manager (see nb_ipywidgets_js in _config.yml), so that widgets render from
// their saved state with no internet.
(function () {
  // The manager finds its icon fonts next to its own AMD module. Left alone,
  // require.js would place that module (and so the fonts) under the page's
  // folder; point it at the copy in _static/html-manager/ instead.
  var here = document.currentScript.src;
  var staticDir = here.slice(0, here.lastIndexOf("/") + 1);
  require.config({ paths: { "@jupyter-widgets/html-manager/dist": staticDir + "html-manager" } });

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
