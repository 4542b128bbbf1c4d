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
  can measure that text as a reader sees it, at any width;
- carries, under `LEGEND_KEY`, what its legends cover of the data drawn
  (`legend_overlaps`: "" when no legend sits on a line, bar, marker or filled
  area), so a test over every stored figure (tests/test_figures.py) finds a
  legend that hides data without anyone looking at the picture.
"""

from __future__ import annotations

import io
import json
import struct

import numpy as np

SCALE = 2                      # pixels drawn per pixel shown
TEXT_KEY = "embedlab:text-px"  # the PNG text chunk holding the smallest text, in the image's pixels
LEGEND_KEY = "embedlab:legend-over-data"  # the PNG text chunk naming what the legends cover ("" for nothing)
COLOUR_KEY = "embedlab:series-colours"  # the PNG text chunk holding {label: colour} of the labelled series
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


# One colour per series across the course's figures: a lesson that draws one of these series takes its
# colour from here (colour()), and tests/test_figures.py checks every stored figure against this table.
SERIES = {
    "blocks": "#1f77b4",                       # the matmuls of the blocks (tab:blue)
    "LM head": "#2ca02c",                      # the d × V output matmul (tab:green)
    "attention over the context": "#ff7f0e",   # attention's dot products with earlier keys (tab:orange)
    "input": "#7f7f7f",                        # the lookup (and a position row's add) (tab:gray)
}


def colour(series: str) -> str:
    """The colour of a named series (SERIES); ValueError naming the series for one the course does not name."""
    if series not in SERIES:
        raise ValueError(f"series must be one of {sorted(SERIES)} (embedlab.figures.SERIES), got series={series!r}")
    return SERIES[series]


def series_colours(fig) -> dict[str, list[str]]:
    """{label: [colour, ...]} of every labelled series the figure draws (lines, markers, bars, scatter
    points, filled areas), each colour as '#rrggbb'; a label drawn in two colours lists both. Labels
    starting with '_' (matplotlib's unlabelled artists) are left out."""
    from matplotlib.colors import to_hex

    found: dict[str, set[str]] = {}

    def add(label, rgba):
        if label and not str(label).startswith("_"):
            found.setdefault(str(label), set()).add(to_hex(rgba, keep_alpha=False))

    for ax in fig.axes:
        for line in ax.lines:
            add(line.get_label(), line.get_color())
        for container in ax.containers:
            for patch in container:
                if hasattr(patch, "get_facecolor"):
                    add(container.get_label(), patch.get_facecolor())
        for patch in ax.patches:
            add(patch.get_label(), patch.get_facecolor())
        for coll in ax.collections:
            colours = coll.get_facecolor()
            if len(colours) == 0 or all(c[3] == 0 for c in colours):
                colours = coll.get_edgecolor()
            for c in colours[:1]:
                add(coll.get_label(), c)
    return {label: sorted(cs) for label, cs in sorted(found.items())}


def smallest_text_points(fig) -> float | None:
    """The size, in points, of the smallest text the figure draws (titles, labels, tick labels,
    legends, annotations); None if it draws no text. Draws the figure first (tick labels are made
    when it is drawn)."""
    from matplotlib.text import Text

    fig.canvas.draw()
    sizes = [t.get_fontsize() for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and t.get_window_extent().width > 0]
    return min(sizes) if sizes else None


def _data_paths(ax):
    """(label, path in display pixels, filled) for everything an axes draws from data: lines (and their
    markers), bars and other patches, scatter points, filled areas. Grid lines, spines and text are not data."""
    from matplotlib.collections import LineCollection, PathCollection
    from matplotlib.path import Path

    for line in ax.lines:
        if not line.get_visible() or len(line.get_xydata()) == 0:
            continue
        label = line.get_label()
        xy = line.get_transform().transform(line.get_xydata())
        xy = xy[np.isfinite(xy).all(axis=1)]
        if len(xy) == 0:
            continue
        if line.get_linestyle() not in ("None", "none", "", " ") and len(xy) > 1:
            yield label, Path(xy), False
        if line.get_marker() not in (None, "None", "none", "", " "):
            r = line.get_markersize() * ax.figure.dpi / 72 / 2
            for x, y in xy:
                yield label, _square(x, y, r), True
    named = {id(patch): container.get_label() for container in ax.containers for patch in container
             if hasattr(patch, "get_path")}  # a bar's label is its BarContainer's
    for patch in ax.patches:
        if patch.get_visible():
            path = patch.get_transform().transform_path(patch.get_path())
            if len(path.vertices) and np.ptp(path.vertices, axis=0).max() > 0.5:  # a bar of width 0 draws nothing
                yield named.get(id(patch), patch.get_label()), path, True
    for coll in ax.collections:
        if not coll.get_visible():
            continue
        label = coll.get_label()
        if isinstance(coll, PathCollection):  # scatter: one marker per offset
            offsets = np.asarray(coll.get_offsets(), dtype=float)
            if len(offsets) == 0 or len(coll.get_sizes()) == 0:
                continue
            points = coll.get_offset_transform().transform(offsets)
            r = np.sqrt(np.max(coll.get_sizes())) * ax.figure.dpi / 72 / 2
            for x, y in points[np.isfinite(points).all(axis=1)]:
                yield label, _square(x, y, r), True
        else:  # filled areas (fill_between), line collections (vlines, hlines)
            filled = not isinstance(coll, LineCollection)
            for path in coll.get_paths():
                path = coll.get_transform().transform_path(path)
                if len(path.vertices):
                    yield label, path, filled


def _square(x, y, r):
    """A marker of radius r pixels at (x, y), as a closed path."""
    from matplotlib.path import Path

    return Path([(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r), (x - r, y - r)], closed=True)


def legend_overlaps(fig) -> list[str]:
    """What the figure's legends cover of its data: one line per legend and artist whose drawn path (a
    line's segments, a marker, a bar, a scatter point, a filled area) passes under the legend's box, e.g.
    "the legend of 'GPT-2 small' covers 'attention over the context'". [] when every legend sits clear of the
    data (beside it, below the axes, or in an empty corner). Draws the figure first (a legend's box is placed
    when it is drawn)."""
    from matplotlib.legend import Legend

    fig.canvas.draw()
    out = []
    legends = [artist for artist in fig.findobj(Legend) if artist.get_visible()]
    for legend in legends:
        box = legend.get_window_extent()
        if box.width <= 0 or box.height <= 0:
            continue
        title = legend.axes.get_title() if legend.axes is not None else ""
        where = f"the legend of {title!r}" if title else "a legend"
        for ax in fig.axes:
            clip = ax.get_window_extent()
            for label, path, filled in _data_paths(ax):
                if not box.overlaps(clip):
                    continue
                # only what the axes show can be hidden: clip the legend's box to the axes
                inner = type(box).intersection(box, clip)
                if inner is not None and inner.width > 0 and inner.height > 0 and \
                        path.intersects_bbox(inner, filled=filled):
                    name = label if label and not label.startswith("_") else "unlabelled data"
                    out.append(f"{where} covers {name!r}")
    return sorted(set(out))


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
    metadata[LEGEND_KEY] = "; ".join(legend_overlaps(fig))
    metadata[COLOUR_KEY] = json.dumps(series_colours(fig), ensure_ascii=True, sort_keys=True)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight", metadata=metadata)
    data = buffer.getvalue()
    width, _ = struct.unpack(">II", data[16:24])            # the IHDR chunk: width, height
    return data, {"width": width // SCALE}


def text_px(data: bytes) -> float | None:
    """The smallest text size a PNG made by png() records (in its own pixels), or None."""
    value = png_text(data, TEXT_KEY)
    return None if value is None else float(value)


def legend_over_data(data: bytes) -> str | None:
    """What a PNG made by png() records its legends cover ("" for nothing), or None for a PNG that
    records nothing (drawn without the course's style)."""
    return png_text(data, LEGEND_KEY)


def recorded_colours(data: bytes) -> dict[str, list[str]] | None:
    """{label: [colour, ...]} a PNG made by png() records of its series, or None for a PNG that records
    nothing (drawn without the course's style)."""
    value = png_text(data, COLOUR_KEY)
    return None if value is None else json.loads(value)


def png_text(data: bytes, wanted: str) -> str | None:
    """The value of the PNG's tEXt chunk named `wanted`, or None."""
    at = 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"tEXt":
            key, _, value = data[at + 8:at + 8 + length].partition(b"\0")
            if key.decode("latin-1") == wanted:
                return value.decode("latin-1")
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


# ---- Lesson 06's figures: the drawing lives here so the lesson's cells stay about the counts ----

# A model's stored parameters, split into the parts lesson 06's bars draw, in drawing order, with
# each part's style (colours from SERIES where the part is one of its series).
PARAMETER_PARTS = {
    "position table": dict(color="#9467bd"),     # apart from the grey token table
    "token table, untied": dict(color=SERIES["input"]),
    "E, tied: also the head": dict(color=SERIES["LM head"], hatch="//", edgecolor="white"),
    "blocks": dict(color=SERIES["blocks"]),
    "experts a token skips": dict(color="#aec7e8", hatch="..", edgecolor="white"),
    "LM head": dict(color=SERIES["LM head"]),
}

# Which parts each count of N holds (lesson 06, sections 3 and 6).
N_COUNTS = {
    "N_all": set(PARAMETER_PARTS),
    "N_non-emb": {"blocks", "experts a token skips"},
    "N_active": set(PARAMETER_PARTS) - {"experts a token skips"},
    "N_mult": {"E, tied: also the head", "blocks", "LM head"},
}


def parameter_parts(n) -> dict[str, int]:
    """A model's stored parameters by part (PARAMETER_PARTS order), from a count_params(...) result:
    the parts sum to n.total."""
    untied_table = 0 if n.tied else n.token_embedding
    skipped = n.total - n.active     # experts a token is not sent to
    blocks = n.total - n.position_embedding - n.token_embedding - n.lm_head - skipped
    return {"position table": n.position_embedding, "token table, untied": untied_table,
            "E, tied: also the head": n.token_embedding - untied_table, "blocks": blocks,
            "experts a token skips": skipped, "LM head": n.lm_head}


def n_count(n, name: str) -> int:
    """The count of N called `name` (a key of N_COUNTS): the sum of the parts it holds."""
    if name not in N_COUNTS:
        raise ValueError(f"name must be one of {sorted(N_COUNTS)}, got name={name!r}")
    return sum(v for part, v in parameter_parts(n).items() if part in N_COUNTS[name])


def parameter_bars(configs, names):
    """Lesson 06's bars: one panel per model config, one bar per count of N in `names` (keys of
    N_COUNTS), each bar the parts it holds end to end as shares of the stored parameters. A part too
    thin to see is named above the first bar; one legend for all panels sits below them. Returns the
    figure (show it with plt.show())."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    from embedlab.params import count_params

    for name in names:
        if name not in N_COUNTS:
            raise ValueError(f"names must be keys of {sorted(N_COUNTS)}, got names={list(names)!r}")
    counts = [count_params(config) for config in configs]
    thin = [any(0 < v / n.total < 0.015 for p, v in parameter_parts(n).items()
                if p in N_COUNTS[names[0]]) for n in counts]   # slivers to name
    height = 1.4 + (0.8 + 0.4 * len(names)) * len(configs) + 0.4 * sum(thin)
    fig, axes = plt.subplots(len(configs), 1, figsize=(MAX_WIDTH_IN, height),
                             height_ratios=[len(names) + 1.2 * t for t in thin])
    handles = {}
    for ax, config, n, room in zip(np.atleast_1d(axes), configs, counts, thin):
        for row, name in enumerate(names):
            left = 0
            for part, size in parameter_parts(n).items():
                if not size or part not in N_COUNTS[name]:
                    continue
                width = size / n.total
                handles[part] = ax.barh(row, width, left=left, label=part, **PARAMETER_PARTS[part])
                if row == 0 and width < 0.015:   # a sliver: say what it is
                    x = left + width / 2
                    ax.annotate(part, (x, -0.4), xytext=(x, -1.25), fontsize=12,
                                ha="left" if x < 0.5 else "right", va="center",
                                arrowprops=dict(arrowstyle="-", lw=0.8))
                left += width
        ax.set_yticks(range(len(names)), names)
        ax.set_ylim(len(names) - 0.5, -1.6 if room else -0.5)   # inverted
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(PercentFormatter(1))
        ax.set_title(f"{config['_name']}, {'tied' if n.tied else 'untied'}", fontsize=12)
    ax.set_xlabel("share of the stored parameters", fontsize=12)
    order = [p for p in PARAMETER_PARTS if p in handles]
    fig.legend([handles[p] for p in order], order, loc="lower center", ncol=2, fontsize=12)
    strip = 0.1 + 0.28 * -(-len(order) // 2)    # inches: one legend line per two entries
    fig.tight_layout(rect=(0, strip / fig.get_figheight(), 1, 1))
    return fig


def cost_by_position(configs, contexts):
    """Lesson 06's FLOPs for one token against its position t (log-log), one stacked panel per
    model config: the blocks and the LM head (flat), attention over the context (growing with t),
    a dotted line at the model's longest context, and a dot where attention crosses the head and
    where it crosses the blocks (at t = cost / attention_per_key), written with that position,
    when the crossing lies within `contexts`. Returns the figure."""
    import matplotlib.pyplot as plt

    from embedlab.compute import token_costs

    contexts = np.asarray(contexts)
    fig, axes = plt.subplots(len(configs), 1, figsize=(MAX_WIDTH_IN, 4 * len(configs)),
                             squeeze=False)
    for ax, config in zip(axes[:, 0], configs):
        c = token_costs(config)
        ax.plot(contexts, np.full(len(contexts), c.blocks), label="blocks", color=colour("blocks"))
        ax.plot(contexts, np.full(len(contexts), c.head), label="LM head", color=colour("LM head"))
        ax.plot(contexts, c.attention_per_key * contexts, label="attention over the context",
                color=colour("attention over the context"))
        longest = config.get("n_positions") or config.get("max_position_embeddings")
        ax.axvline(longest, color="gray", linestyle=":", label="the model's longest context")
        for cost in (c.head, c.blocks):         # where attention costs as much as the part
            t = cost / c.attention_per_key
            if contexts.min() <= t <= contexts.max():
                ax.plot([t], [cost], "o", color="black", markersize=5, label="_crossing")
                ax.annotate(f"{t:,.0f}", (t, cost), xytext=(4, -4), textcoords="offset points",
                            ha="left", va="top", fontsize=12)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("position t (keys attended to)", fontsize=12)
        ax.set_ylabel("FLOPs for one token", fontsize=12)
        ax.set_title(f"{config['_name']}: longest context {longest:,}", fontsize=12)
    # one legend for all panels, below them: inside, it would hide a line
    axes[-1, 0].legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=12)
    fig.tight_layout()
    return fig


def share_bars(cases, xlabel="share of the FLOPs of one forward pass"):
    """Lesson 06's stacked bars: one bar per (label, Flops) in `cases`, its blocks, attention and
    LM head as shares of the pass (the input is too thin to draw: print its share beside).
    Returns the figure."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import PercentFormatter

    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4))
    left = np.zeros(len(cases))
    for part, label in (("blocks", "blocks"), ("attention", "attention over the context"),
                        ("head", "LM head")):
        share = np.array([flops.share(part) for _, flops in cases])
        ax.barh([name for name, _ in cases], share, left=left, label=label, color=colour(label))
        left += share
    ax.set_xlim(0, 1)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1])
    ax.xaxis.set_major_formatter(PercentFormatter(1))
    ax.set_xlabel(xlabel, fontsize=12)
    ax.invert_yaxis()
    ax.tick_params(labelsize=12)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=12)
    fig.tight_layout()
    return fig


# ---- Lesson 07's figure: the drawing lives here so the lesson's cell stays about the crossings ----

def cache_against_weights(config, contexts, batches=(1, 8, 32), precision="bf16"):
    """Lesson 07's figure (log-log, in GB): the KV cache against the context, one line per batch size
    in `batches`, the weights in `precision` as a dashed line, and a dotted line at the longest context
    the model's config states (`memory_widget.context_limit`; none if it states none). Where a batch's
    cache passes the weights (context = weights / (cache per token · batch)), an X on the weights line
    in the batch's colour, its context in the legend: on a log axis the first drawn context past the
    weights sits almost on the line, the crossing does not. Crossings outside `contexts` are not drawn.
    One legend below the axes, in two columns: the cache lines and the weights, then the crossings and
    the longest context. Returns the figure (show it with plt.show())."""
    import matplotlib.pyplot as plt

    from embedlab.memory import GB, kv_cache_bytes, kv_cache_bytes_per_token, weight_bytes
    from embedlab.memory_widget import context_limit

    contexts = np.asarray(contexts)
    limit = context_limit(config)
    weights_gb = weight_bytes(config, precision) / GB
    even = weight_bytes(config, precision) / kv_cache_bytes_per_token(config, precision=precision)
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 4.4))
    firsts, seconds = [], []               # the legend's two columns
    for batch in batches:
        cache = [kv_cache_bytes(config, int(t), batch, precision=precision) for t in contexts]
        (line,) = ax.plot(contexts, np.array(cache) / GB, marker="o", label=f"KV cache, batch {batch}")
        firsts.append(line)
        cross = even / batch               # the context where this batch's cache equals the weights
        if contexts.min() <= cross <= contexts.max():
            (mark,) = ax.plot([cross], [weights_gb], marker="X", markersize=11, linestyle="none",
                              color=line.get_color(), markeredgecolor="black", zorder=3,
                              label=f"cache = weights at\n{cross:,.0f} tokens")
            seconds.append(mark)
    firsts.append(ax.axhline(weights_gb, color="black", linestyle="--",
                             label=f"{precision} weights ({weights_gb:.1f} GB)"))
    ax.set_xscale("log", base=2)
    ax.set_xticks(contexts)                # every context drawn, as a power of two
    if limit is not None:                  # the longest context the model was built for
        longest = limit[1]
        seconds.append(ax.axvline(longest, color="0.5", linestyle=":",
                                  label=f"longest context ({longest:,})"))
    ax.set_yscale("log")
    ax.set_xlabel("context (tokens per sequence)")
    ax.set_ylabel("GB")
    ax.set_title(f"{config['_name']}: KV cache ({precision}) against its weights")
    # below the axes: inside, it would cover the batch-1 line; the columns filled to the same length so
    # that each starts its own column
    handles = firsts + [plt.Line2D([], [], linestyle="none", label=" ")] * max(0, len(seconds) - len(firsts))
    handles += seconds + [plt.Line2D([], [], linestyle="none", label=" ")] * max(0, len(firsts) - len(seconds))
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2)
    return fig
