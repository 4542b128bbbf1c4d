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
