// Embedding Lab's page script (loaded on every page by tools/book_theme.py).

// Search snippets when the site is opened from disk (file://). Sphinx's search
// page shows a snippet under each hit by fetching the hit's page; a browser
// refuses fetch() on file:// URLs, so the hits came without snippets. The
// build writes every page's text into _static/embedlab-search-pages.js; on the
// search page, opened from disk, this loads it and answers those fetches from it.
(function () {
  // (DOCUMENTATION_OPTIONS.pagename is set by a script after this one: go by the file name)
  if (location.protocol !== "file:" || !/\/search\.html$/.test(location.pathname)) return;
  var root = new URL(document.documentElement.dataset.content_root || "./", location.href).href;
  var loaded = new Promise(function (resolve) {
    var script = document.createElement("script");
    script.src = root + "_static/embedlab-search-pages.js";
    script.onload = script.onerror = function () { resolve(window.EMBEDLAB_SEARCH_PAGES || {}); };
    document.head.appendChild(script);
  });
  var fetchFromDisk = window.fetch;
  window.fetch = function (resource, options) {
    var url = new URL(typeof resource === "string" ? resource : resource.url, location.href).href;
    if (url.indexOf(root) !== 0) return fetchFromDisk.apply(this, arguments);
    var page = url.slice(root.length).split("#")[0];
    var self = this, args = arguments;
    return loaded.then(function (pages) {
      if (!(page in pages)) return fetchFromDisk.apply(self, args);
      return new Response('<div role="main">' + pages[page] + "</div>",
                          { headers: { "Content-Type": "text/html" } });
    });
  };
})();

// Search snippets without page furniture or raw TeX. Sphinx's search page cuts
// each snippet out of the hit's page as text: the whole main block, so the
// print-only "Contents" list and the page title came first, and math came as
// its TeX source (\(V \times d\)), since MathJax has not run on a fetched page.
// Snippets are cut from the article alone, and math reads as plain text.
(function () {
  var SYMBOLS = { times: "\u00d7", cdot: "\u00b7", approx: "\u2248", le: "\u2264", leq: "\u2264",
                  ge: "\u2265", geq: "\u2265", ne: "\u2260", to: "\u2192", rightarrow: "\u2192",
                  ldots: "\u2026", dots: "\u2026", sum: "\u03a3", alpha: "\u03b1", beta: "\u03b2",
                  mu: "\u03bc", sigma: "\u03c3", theta: "\u03b8", lambda: "\u03bb", infty: "\u221e" };
  function plainMath(tex) {
    return tex
      .replace(/\\(?:text|mathrm|mathbf|mathit|operatorname)\s*\{([^{}]*)\}/g, "$1")
      .replace(/\\([A-Za-z]+)\s*/g, function (m, word) { return word in SYMBOLS ? SYMBOLS[word] + " " : ""; })
      .replace(/\\([_%$&#{}])/g, "$1")
      .replace(/\\[,;:! ]/g, " ")
      .replace(/[{}]/g, "")
      .replace(/\s+/g, " ")
      .trim();
  }
  window.embedlabPlainMath = plainMath;
  function plainText(text) {
    return text
      .replace(/\\\(([\s\S]*?)\\\)/g, function (m, tex) { return plainMath(tex); })
      .replace(/\\\[([\s\S]*?)\\\]/g, function (m, tex) { return plainMath(tex); })
      .replace(/\$\$([\s\S]*?)\$\$/g, function (m, tex) { return plainMath(tex); });
  }
  function patch() {
    // searchtools.js declares `const Search`: a global name, not a property of window
    if (typeof Search === "undefined" || !Search.htmlToText || Search.embedlabPatched) return;
    var toText = Search.htmlToText;
    Search.htmlToText = function (htmlString, anchor) {
      var doc = new DOMParser().parseFromString(htmlString, "text/html");
      doc.querySelectorAll(".onlyprint, #jb-print-docs-body, .bd-header-article, .prev-next-area, " +
                           ".bd-sidebar-secondary, .embedlab-page-nav").forEach(function (e) { e.remove(); });
      var article = doc.querySelector("article.bd-article");
      var html = article ? '<div role="main">' + article.innerHTML + "</div>" : doc.documentElement.outerHTML;
      return plainText(toText.call(this, html, anchor));
    };
    Search.embedlabPatched = true;
  }
  if (/\/search\.html$/.test(location.pathname)) {
    patch();
    document.addEventListener("DOMContentLoaded", patch);
  }
})();

// Accessible names the theme leaves out or contradicts (axe-core, tests/test_book.py):
// - the search field's label says "Search" but it shows "Search Ctrl+K": name it by what it shows;
// - the colour-mode button's label says "Color mode" but its icon's title says the mode: say both;
// - a code block, output, table or equation that scrolls sideways (at the width the page is
//   read at, so again when the window is resized) can be reached with the keyboard.
(function () {
  function label() {
    document.querySelectorAll(".search-button-field").forEach(function (b) {
      var shown = (b.innerText || "").replace(/\s+/g, " ").trim();
      if (shown) b.setAttribute("aria-label", shown);
    });
    document.querySelectorAll(".theme-switch-button").forEach(function (b) {
      var mode = document.documentElement.dataset.mode || "auto";
      var names = { light: "Light", dark: "Dark", auto: "System" };
      var shown = Array.prototype.map.call(b.querySelectorAll("title"), function (t) {
        return t.closest("svg") && t.closest("svg").getClientRects().length ? t.textContent : "";
      }).join(" ").trim() || names[mode] || mode;
      b.setAttribute("aria-label", "Color mode: " + shown);
    });
    document.querySelectorAll(".bd-article pre, .bd-article .pst-scrollable-table-container, " +
                              ".bd-article div.math, .bd-article div.cell_output .output").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1 && box.getAttribute("tabindex") !== "0") box.setAttribute("tabindex", "0");
    });
  }
  window.addEventListener("load", function () {
    label();
    new MutationObserver(label).observe(document.documentElement, { attributes: true, attributeFilter: ["data-mode"] });
  });
  window.addEventListener("resize", label);
})();
