"""Sphinx extension (loaded by _config.yml's local_extensions): the course site's layout and switches.

- Layout: the page's table of contents folds into the top bar (its list button)
  at every width, so the article gets the room the right-hand column took; the
  CSS is book/_static/embedlab.css.
- One search box: the theme puts a search field in the top navbar *and* in the
  sidebar (and an icon in the article header on narrow screens). The navbar's
  field is switched off, leaving the sidebar's field on wide screens and the
  icon on narrow ones.
- Static widgets: book/_static/embedlab.js disables the controls of every widget
  drawn from saved state and labels it "static view — run the notebook to explore".
- Launch buttons: `repository.url` in _config.yml is the one switch. Empty (as
  now), the Binder and Colab URLs below it are ignored and no page carries a
  launch link; set to the public GitHub repository, every notebook page links
  to Binder and Colab at its own path.
"""

from __future__ import annotations

LAUNCH_URL_KEYS = ("binderhub_url", "colab_url", "jupyterhub_url", "deepnote_url", "jupyterlite_url")


def configure(app, config) -> None:
    options = config.html_theme_options
    options.setdefault("navbar_persistent", [])        # no search field in the top navbar
    launch = dict(options.get("launch_buttons") or {})
    if not options.get("repository_url"):
        # No public repository yet: no launch links (a link without a repository would be dead,
        # and the theme cannot build one).
        for key in LAUNCH_URL_KEYS:
            launch.pop(key, None)
    options["launch_buttons"] = launch


def setup(app):
    app.connect("config-inited", configure)
    app.add_css_file("embedlab.css")
    app.add_js_file("embedlab.js")
    return {"parallel_read_safe": True, "parallel_write_safe": True}
