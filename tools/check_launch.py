"""The book's launch buttons, checked over a built site (tests/test_book.py calls it).

    python tools/check_launch.py _build/html     # every notebook page of a built book

`repository.url` in _config.yml is the one switch (tools/book_theme.py): while it is empty no
page has a launch link; once it is set every lesson, exercise and solution page links Binder,
Colab and, where `launch_buttons.jupyterhub_url` names the class's hub, JupyterHub (through
nbgitpuller), each at that page's own notebook in the repository. launch_problems() says where
a built site breaks that: a notebook page without one of its links, a link to another notebook,
or any launch link at all while the address is empty.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import yaml

ROOT = Path(__file__).resolve().parent.parent
SERVICES = ("binder", "colab", "jupyterhub")
NOTEBOOK_FOLDERS = ("notebooks", "exercises", "solutions")


def launch_links(page: Path) -> dict[str, list[str]]:
    """{service: [its launch URLs]} on a built page (the theme's launch menu: links titled
    "Launch on ...")."""
    text = html.unescape(page.read_text(encoding="utf-8"))
    found: dict[str, list[str]] = {}
    for url, service in re.findall(r'<a href="([^"]+)"[^>]*?\btitle="Launch on ([^"]+)"', text):
        found.setdefault(service.strip().lower(), []).append(url)
    return {k: sorted(set(v)) for k, v in found.items()}


def expected(service: str, repository: str, branch: str, hub: str, notebook: str) -> str:
    """The launch URL of `service` for `notebook` (its path in the repository)."""
    org_repo = repository.removeprefix("https://github.com/").strip("/")
    if service == "binder":
        return f"https://mybinder.org/v2/gh/{org_repo}/{branch}?urlpath=lab/tree/{notebook}"
    if service == "colab":
        return f"https://colab.research.google.com/github/{org_repo}/blob/{branch}/{notebook}"
    return hub  # JupyterHub: checked by its query (nbgitpuller's repo, branch, urlpath) below


def jupyterhub_problems(url: str, repository: str, branch: str, hub: str, notebook: str) -> list[str]:
    parts = urlsplit(url)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    repo_name = repository.rstrip("/").rsplit("/", 1)[-1]
    want = {"repo": repository, "branch": branch, "urlpath": f"lab/tree/{repo_name}/{notebook}"}
    problems = []
    if f"{parts.scheme}://{parts.netloc}{parts.path}" != f"{hub.rstrip('/')}/hub/user-redirect/git-pull":
        problems.append(f"JupyterHub link is not the hub's nbgitpuller: {url}")
    for key, value in want.items():
        if query.get(key) != value:
            problems.append(f"JupyterHub link's {key} is {query.get(key)!r}, not {value!r}")
    return problems


def notebook_pages(html_dir: Path) -> list[str]:
    """The built lesson, exercise and solution pages (docnames like notebooks/01-toy-table)."""
    return sorted(p.relative_to(html_dir).with_suffix("").as_posix() for folder in NOTEBOOK_FOLDERS
                  for p in (html_dir / folder).glob("[0-9][0-9]-*.html"))


def launch_problems(html_dir: Path, config: dict) -> list[str]:
    """Where the built site at `html_dir` breaks the launch switch of `config` (a _config.yml read)."""
    repository = ((config.get("repository") or {}).get("url") or "").strip()
    branch = (config.get("repository") or {}).get("branch") or "main"
    buttons = config.get("launch_buttons") or {}
    hub = (buttons.get("jupyterhub_url") or "").strip()
    if not repository:
        return [f"{p.relative_to(html_dir).as_posix()}: launch links {sorted(links)} with no repository.url"
                for p in sorted(html_dir.rglob("*.html")) if (links := launch_links(p))]
    services = [s for s in SERVICES if buttons.get(f"{'binderhub' if s == 'binder' else s}_url")]
    pages = notebook_pages(html_dir)
    problems = [] if pages else [f"{html_dir}: no lesson, exercise or solution page"]
    for doc in pages:
        links = launch_links(html_dir / f"{doc}.html")
        notebook = f"{doc}.ipynb"
        for service in services:
            got = links.get(service, [])
            if len(got) != 1:
                problems.append(f"{doc}: {len(got)} {service} links")
            elif service == "jupyterhub":
                problems += [f"{doc}: {p}" for p in jupyterhub_problems(got[0], repository, branch, hub, notebook)]
            elif got[0] != expected(service, repository, branch, hub, notebook):
                problems.append(f"{doc}: {service} links {got[0]}, not its own notebook {notebook}")
        for service in sorted(set(links) - set(services)):
            problems.append(f"{doc}: a {service} link that _config.yml does not ask for")
    return problems


def main(argv: list[str]) -> int:
    html_dir = Path(argv[0]) if argv else ROOT / "_build" / "html"
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    problems = launch_problems(html_dir, config)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
