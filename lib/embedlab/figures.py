"""The course's figures: drawn at twice their size, with text a phone can read.

A lesson's figure is read on a laptop and on a phone. Drawn at matplotlib's
usual 100 dots per inch it blurs on a laptop's 2x screen, and on a 390 px phone
the book shrinks a 7-inch figure to about half, so 10-point labels come out at
about 7 px. A lesson calls `use()` once, in its setup cell; from then on every
figure it shows

- is drawn with the sizes in `RC` (12-point text; lessons keep figures at most
  `MAX_WIDTH_IN` inches wide, so the text stays at least 10 px on a phone);
- is drawn at `SCALE` x its pixels and marked to be shown at its usual size
  (sharp on a 2x screen);
- carries the size of its smallest text, in its own pixels, in the PNG (a tEXt
  chunk named `TEXT_KEY`), so the book's browser check (tools/check_site.py)
  can measure that text as a reader sees it, at any width.
"""

from __future__ import annotations

import io
import struct

SCALE = 2                      # pixels drawn per pixel shown
TEXT_KEY = "embedlab:text-px"  # the PNG text chunk holding the smallest text, in the image's pixels
MAX_WIDTH_IN = 5.5             # the widest figure a lesson draws, in inches (at 12 points: >= 10 px at 390 px)

RC = {
    "figure.dpi": 100,
    "figure.figsize": (5.5, 3.6),
    "font.size": 12,
    "axes.titlesize": 13,
    "axes.labelsize": 12,
    "xtick.labelsize": 12,
    "ytick.labelsize": 12,
    "legend.fontsize": 12,
    "legend.title_fontsize": 12,
    "figure.titlesize": 14,
}


def smallest_text_points(fig) -> float | None:
    """The size, in points, of the smallest text the figure draws (titles, labels, tick labels,
    legends, annotations); None if it draws no text. Draws the figure first (tick labels are made
    when it is drawn)."""
    from matplotlib.text import Text

    fig.canvas.draw()
    sizes = [t.get_fontsize() for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and t.get_window_extent().width > 0]
    return min(sizes) if sizes else None


def png(fig) -> tuple[bytes, dict]:
    """The figure as a PNG at SCALE x its pixels (cropped to what it draws), with its smallest
    text in the image's pixels under TEXT_KEY, and the metadata that shows it at 1/SCALE of
    its width: what Jupyter stores and the book publishes."""
    if fig.get_figwidth() > MAX_WIDTH_IN + 1e-9:
        raise ValueError(f"figure width must be at most {MAX_WIDTH_IN} inches (embedlab.figures.MAX_WIDTH_IN), "
                         f"got figsize width={fig.get_figwidth():g}")
    dpi = fig.dpi * SCALE
    points = smallest_text_points(fig)
    metadata = {TEXT_KEY: f"{points * dpi / 72:.2f}"} if points else {}
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight", metadata=metadata)
    data = buffer.getvalue()
    width, _ = struct.unpack(">II", data[16:24])            # the IHDR chunk: width, height
    return data, {"width": width // SCALE}


def text_px(data: bytes) -> float | None:
    """The smallest text size a PNG made by png() records (in its own pixels), or None."""
    at = 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"tEXt":
            key, _, value = data[at + 8:at + 8 + length].partition(b"\0")
            if key.decode("latin-1") == TEXT_KEY:
                return float(value)
        if kind == b"IEND":
            break
        at += 12 + length
    return None


def use() -> None:
    """Draw this notebook's figures the course's way (RC, png()). In Jupyter, figures shown with
    plt.show() go through png(); outside Jupyter only the sizes change."""
    import matplotlib

    matplotlib.rcParams.update(RC)
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return
    if "inline" in matplotlib.get_backend():
        # Importing Jupyter's inline backend sets up its own figure display (done once per kernel,
        # on first use otherwise): do it now, so that the formatter below is the one that stays.
        import matplotlib_inline.backend_inline  # noqa: F401
    from matplotlib.figure import Figure

    shell.display_formatter.formatters["image/png"].for_type(Figure, png)
