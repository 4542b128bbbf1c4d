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
  legend that hides data without anyone looking at the picture;
- carries, under `SIGNED_KEY`, the colour map of every image it colours by a
  value either side of 0 (`signed_maps`), so the same test finds a signed map
  drawn in other colours than the course's one, `SIGNED_CMAP`.
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
SIGNED_KEY = "embedlab:signed-maps"  # the PNG text chunk naming the colour maps of values either side of 0
# One colour rule for a value either side of 0 (a gradient, a cosine) in every lesson: red above zero, blue
# below, white at 0. Lessons 05 and 09 draw with it; tests/test_figures.py checks every stored figure.
SIGNED_CMAP = "RdBu_r"
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


def signed_maps(fig) -> list[str]:
    """The names of the colour maps the figure colours values with on a scale that spans 0 (its norm's
    vmin < 0 < vmax: images, meshes, colour bars, points coloured by value), each once, sorted. Call it
    on a drawn figure (a scale set from the data is set when it is drawn)."""
    names = set()
    for ax in fig.axes:
        for artist in (*ax.images, *ax.collections):
            if artist.get_array() is None:
                continue
            low, high = artist.norm.vmin, artist.norm.vmax
            if low is not None and high is not None and low < 0 < high:
                names.add(artist.get_cmap().name)
    return sorted(names)


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
    metadata[SIGNED_KEY] = json.dumps(signed_maps(fig))  # drawn above, by smallest_text_points
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


def recorded_signed_maps(data: bytes) -> list[str] | None:
    """The colour maps of signed values a PNG made by png() records, or None for a PNG that records
    nothing (drawn without the course's style, or before png() recorded them)."""
    value = png_text(data, SIGNED_KEY)
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
    in the batch's colour, its context in the legend ("context N": tokens per sequence, never batch ×
    context): on a log axis the first drawn context past the weights sits almost on the line, the
    crossing does not. Crossings outside `contexts` are not drawn.
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
                              label=f"cache = weights at\ncontext {cross:,.0f}")
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


# ---- Lesson 10's figure: the drawing lives here so the lesson's cell stays about the rows ----

def rows_over_training(length, cosine, trained, never, turned):
    """Lesson 10's figure, two panels over the training steps (x: step, linear from 0 to 1, then log).
    Top: the length of each never-seen row (one red line each) against the band from the shortest to the
    longest trained row. Bottom: each never-seen row's cosine with their mean. A dotted line in both at
    step `turned`, labelled in the bottom panel. `length` is [step, row] over every row, `cosine`
    [step, never-seen row]; `trained` and `never` are row ids. One legend below the panels. Returns the
    figure (show it with plt.show())."""
    import matplotlib.pyplot as plt

    length, cosine = np.asarray(length), np.asarray(cosine)
    if length.ndim != 2 or cosine.shape != (length.shape[0], len(never)):
        raise ValueError(f"length must be [step, row] and cosine [step, never-seen row], got "
                         f"length.shape={length.shape}, cosine.shape={cosine.shape}")
    step = np.arange(len(length))
    fig, (ax_len, ax_cos) = plt.subplots(2, 1, figsize=(MAX_WIDTH_IN, 5.5), sharex=True)
    lengths_trained = length[:, list(trained)]
    ax_len.fill_between(step, lengths_trained.min(axis=1), lengths_trained.max(axis=1),
                        color="0.8", label="trained rows (min to max)")
    ax_len.plot(step, length[:, list(never)], color="C3", lw=0.8)
    ax_len.plot([], [], color="C3", label=f"the {len(never)} never-seen rows")  # one entry for all
    ax_cos.plot(step, cosine, color="C3", lw=0.8)
    for ax in (ax_len, ax_cos):
        ax.axvline(turned, color="0.3", ls=":", lw=1)
    ax_cos.set_xscale("symlog", linthresh=1)        # linear from step 0 to 1, then log: room for the start
    ax_cos.set_xlim(0, step[-1])
    ticks = [t for t in (0, 1, 10, 100, 1000, 10_000) if t <= step[-1]]
    ax_cos.set_xticks(ticks, [f"{t:,}" for t in ticks])
    ax_cos.annotate(f"step {turned}", (turned, 0.4), xytext=(6, 0), textcoords="offset points", ha="left")
    ax_len.set_ylabel("row length")
    ax_cos.set_ylabel("cosine with\ntheir mean")
    ax_cos.set_xlabel("training step (log scale)")
    ax_len.set_title("Tied E: the never-seen rows grow and turn one way")
    fig.legend(loc="upper center", bbox_to_anchor=(0.5, 0.02), ncol=1, frameon=False)
    fig.tight_layout()
    return fig


def row_lengths(matrices, trained, hidden, mark=None):
    """Lesson 10's strip of row lengths: one line per matrix of `matrices` ({name: matrix}, top to
    bottom), each trained row's length a grey tick, each hidden row's a red circle just below. `mark`,
    (name, row, label), draws that row's tick black in that matrix's line and writes `label` to its
    left. One legend below the axes. Returns the figure (show it with plt.show())."""
    import matplotlib.pyplot as plt

    names = list(matrices)
    if mark is not None and mark[0] not in matrices:
        raise ValueError(f"mark names matrix {mark[0]!r}, not one of {names}")
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 2.8))
    for y, (name, M) in enumerate(matrices.items()):
        n = np.linalg.norm(M, axis=1)
        ax.scatter(n[list(trained)], np.full(len(trained), y + 0.1), marker="|", s=200,
                   color="0.6", label="trained rows" if y == 0 else "_")
        ax.scatter(n[list(hidden)], np.full(len(hidden), y - 0.25), s=30, facecolors="none",
                   edgecolors="C3", label="hidden unused rows" if y == 0 else "_")
    if mark is not None:
        name, row, label = mark
        y = names.index(name)
        length = np.linalg.norm(matrices[name][row])
        ax.scatter([length], [y + 0.1], marker="|", s=200, color="k", zorder=3)
        ax.annotate(label, (length, y + 0.1), xytext=(-8, 0), textcoords="offset points",
                    ha="right", va="center")
    ax.set_yticks(range(len(names)), names)
    ax.set_ylim(len(names) - 0.5, -0.6)
    ax.set_xlabel("length of the row")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=2, frameon=False)
    return fig


# ---- Lesson 11's figure: the label placement lives here so the capstone's cell stays about the designs ----

def place_labels(fig, ax, points, avoid_x=(), avoid_y=(), same_form=()):
    """Write each point's label beside it without covering another label, a point or a line.

    Why a function: a scatter of designs has points a few hundredths apart (lesson 11's shapes that
    backed off all stop just inside the memory line), and matplotlib writes each label where it is
    told, on top of its neighbours. `points` are (x, y, label, bold) in data coordinates, `label` a
    string or a tuple of ways to write it (say one line, then two narrower lines), tried in that
    order at each place; `avoid_x`
    and `avoid_y` are the x of vertical lines and the y of horizontal lines no label may cross (the
    budget lines). A label goes to the right of its point, or to the left when the point sits in the
    axes' right quarter, or three gaps out; if those places are taken it moves up or down, in small
    steps, nearest first, as far as the axes reach, and a thin grey line joins it to its point. A
    leader line crosses no other leader line, label or point, and no label sits on one. Bold
    labels are placed first, then from the top down, so a label moved down lands below the ones
    already placed. Where a label finds no free place anywhere in the axes, the layout is tried
    again with it placed first, then with labels left of their points first; if none places
    every label, the layout with the fewest that did not is kept, those at the first place clear
    of labels and points (lines aside), or else beside their points.
    `same_form` lists groups of indices into `points` whose labels must be written the same way
    (labels that read alike, told apart by a word): where a group came out in different forms,
    its labels are placed again, all in the narrowest form any of them needed.
    Returns the labels' boxes, in display pixels, in the order placed."""
    from matplotlib.transforms import Bbox

    renderer = fig.canvas.get_renderer()
    r = renderer.points_to_pixels(7)                     # a point's radius, and a margin
    dot = renderer.points_to_pixels(4.5)                 # a point's radius (s=70: 8.4 points)
    dots = [ax.transData.transform((x, y)) for x, y, _, _ in points]
    frame = ax.get_window_extent(renderer)
    lines_px = ([ax.transData.transform((x, 0))[0] for x in avoid_x],
                [ax.transData.transform((0, y))[1] for y in avoid_y])
    x0, x1 = ax.get_xlim()
    y0, y1 = ax.get_ylim()
    gap, step_y = 0.03 * (x1 - x0), 0.015 * (y1 - y0)
    reach = int(1 / 0.015) + 1         # steps that can carry a label across the whole axes

    def write(x, y, label, bold, side, at):
        return ax.annotate(label, (x, y), xytext=(x + side, at), va="center",
                           ha="left" if side > 0 else "right",
                           fontweight="bold" if bold else "normal")

    extents = {}                          # (form, bold, side) -> the label's box about its anchor

    def box_at(x, y, form, bold, side, at):
        """The box `write` would give the label, in pixels: measured once per form, bold and side, then
        moved with its anchor (a label's box is the same about its anchor wherever it is written); where
        matplotlib gives no box for the label (its point outside the axes) it is written and measured."""
        key = (form, bold, side > 0)
        anchor = ax.transData.transform((x + side, at))
        if key not in extents:
            text = write(x, y, form, bold, side, at)
            b = text.get_window_extent(renderer)
            text.remove()
            extents[key] = None if np.array_equal(b.get_points(), Bbox.unit().get_points()) else (b.x0 - anchor[0], b.y0 - anchor[1],
                                                          b.x1 - anchor[0], b.y1 - anchor[1])
            return b
        if extents[key] is None:
            text = write(x, y, form, bold, side, at)
            b = text.get_window_extent(renderer)
            text.remove()
            return b
        dx0, dy0, dx1, dy1 = extents[key]
        return Bbox([[anchor[0] + dx0, anchor[1] + dy0], [anchor[0] + dx1, anchor[1] + dy1]])

    def crosses(p, q, a, b):              # segments p-q and a-b cross (ends touching do not)
        def turn(o, u, v):
            return np.sign((u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0]))
        return turn(p, q, a) * turn(p, q, b) < 0 and turn(a, b, p) * turn(a, b, q) < 0

    def through(p, q, box):                # segment p-q enters a box
        c = [(box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1), (box.x0, box.y1)]
        return (any(box.x0 < x < box.x1 and box.y0 < y < box.y1 for x, y in (p, q))
                or any(crosses(p, q, c[k], c[(k + 1) % 4]) for k in range(4)))

    def near(p, q, c):                     # segment p-q passes over the point at c, or near
        p, q, c = np.asarray(p), np.asarray(q), np.asarray(c)
        t = np.clip(np.dot(c - p, q - p) / max(np.dot(q - p, q - p), 1e-9), 0, 1)
        return np.linalg.norm(p + t * (q - p) - c) < r

    def one_pass(only, first, lean):
        # only[i]: the one form point i may take, or None for any; first: points placed before
        # the rest, in that order; lean: the side tried first (1 right, -1 left); returns the boxes, the artists drawn, the form each point
        # took and the points that found no free place
        placed, drawn, took, stuck = [], [], [0] * len(points), []
        leaders = []                       # (label end, point end) in pixels, placed so far
        order = first + sorted((i for i in range(len(points)) if i not in first),
                               key=lambda i: (not points[i][3], -points[i][1]))
        for i in order:
            x, y, label, bold = points[i]
            forms = (label,) if isinstance(label, str) else tuple(label)
            choices = list(enumerate(forms)) if only[i] is None else [(only[i], forms[only[i]])]
            sides = (-1,) if x > x0 + 0.75 * (x1 - x0) else (lean, -lean)
            second = None              # the first place clear of labels and points, lines aside
            # beside the point, or three gaps out, where a leader line can slant past its
            # neighbours
            for step, (k, form), side in [(step, choice, side * gap * far)
                                          for step in sorted(range(-reach, reach + 1), key=abs)
                                          for far in (1, 3)
                                          for choice in choices for side in sides]:
                at = y + step * step_y
                moved = step or abs(side) > gap
                box = box_at(x, y, form, bold, side, at).padded(r / 3)
                hits = (any(box.overlaps(b) for b in placed)
                        or any(box.x0 - r < px < box.x1 + r and box.y0 - r < py < box.y1 + r
                               for px, py in dots)
                        or any(box.x0 < lx < box.x1 for lx in lines_px[0])
                        or any(box.y0 < ly < box.y1 for ly in lines_px[1]))
                # a leader line (when the label moved) crosses no other line, label or point
                # (but those whose markers touch its own), and no label sits on a line drawn
                line = (ax.transData.transform((x + side, at)), dots[i]) if moved else None
                inside = (frame.x0 < box.x0 and box.x1 < frame.x1 and frame.y0 < box.y0
                          and box.y1 < frame.y1)
                if not hits and inside and second is None:
                    second = (moved, (k, form), side, at)
                hits = (hits or any(through(a, b, box) for a, b in leaders)
                        or (line is not None
                            and (any(crosses(*line, a, b) for a, b in leaders)
                                 or any(through(*line, b) for b in placed)
                                 or any(near(*line, c) for j, c in enumerate(dots)
                                        if np.linalg.norm(c - dots[i]) > 2 * dot))))
                if not hits and inside:
                    text = write(x, y, form, bold, side, at)
                    break
            else:                      # no free place: clear of labels and points only, or
                stuck.append(i)        # beside the point
                moved, (k, form), side, at = second or (False, choices[0], sides[0] * gap, y)
                text = write(x, y, form, bold, side, at)
                box = text.get_window_extent(renderer).padded(r / 3 if second else 0)
            drawn.append(text)
            took[i] = k
            if moved:                  # a thin line from the label to its point
                leaders.append((ax.transData.transform((x + side, at)), dots[i]))
                drawn.append(ax.annotate("", (x, y), xytext=(x + side, at),
                                         arrowprops=dict(arrowstyle="-", color="0.5", lw=0.6,
                                                         shrinkA=0, shrinkB=4)))
            placed.append(box)
        return placed, drawn, took, stuck

    # labels right of their points first; where some find no free place, those go first, then
    # the same with labels left first; the first layout where every label has a place is kept,
    # else the one with the fewest without
    best = None
    for lean in (1, -1):
        only, first = [None] * len(points), []
        while True:
            placed, drawn, took, stuck = one_pass(only, first, lean)
            mixed = [group for group in same_form if len({took[i] for i in group}) > 1]
            late = [i for i in stuck if i not in first]   # each goes first at most once
            if not mixed and (not stuck or best is None or len(stuck) < best[0]):
                if best is not None:
                    for artist in best[2]:
                        artist.remove()
                best = (len(stuck), placed, drawn)
                if not stuck:
                    return placed
            else:
                for artist in drawn:
                    artist.remove()
            if not mixed and not late:
                break
            for group in mixed:        # all in the narrowest form any of them took
                for i in group:
                    only[i] = max(took[j] for j in group)
            first += late
    return best[1]                     # no layout placed all: the best one is drawn


def back_off_map(searches, budget, marked=()):
    """Lesson 11's map of a grid of designs: serving memory against training compute, each as the
    fraction of its budget, one point per shape at the deepest depth that fits every budget.

    `searches` maps (V, d, tied) to deepest_fit's result for that shape; `marked` is
    [(design, word)], a word added in bold to that design's label. The region inside both budgets is
    shaded and the two budget lines dashed (both in the legend); colour is V (the first
    two V take tab:blue and tab:orange), a hollow point an untied output head, one
    legend below the axes. A label gives d and
    L and names its tying (tied or untied, as the marker's fill shows). Where the search backed off
    it reads `L(N)→L`, then the share at L of the budget that binds there, the fuller of memory and
    compute ("at L 22: memory 97.8%"), and, where L(N) broke more budgets than that one (or
    another), every budget it broke, from the search's reasons ("over at L 37: memory, compute");
    labels that would read alike but for the tying (the same d, depths, share and budgets) and
    belong to different V name V as well, so that no label is told from another by colour alone. Each label may be written on one line or, narrower, on two or three; place_labels
    takes the first that finds a free place nearest its point.
    Returns the figure."""
    import matplotlib.pyplot as plt

    from embedlab.sizing import design_figures, headroom

    palette = ("tab:blue", "tab:orange", "tab:green", "tab:red")
    vocabularies = sorted({V for V, _, _ in searches})
    if len(vocabularies) > len(palette):
        raise ValueError(f"searches may hold at most {len(palette)} vocabularies, got "
                         f"{len(vocabularies)}: {vocabularies}")
    colors = dict(zip(vocabularies, palette))
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 7.3))  # the legend: 3 rows
    ax.fill_between([0, 1], 0, 1, color="tab:green", alpha=0.1, lw=0, zorder=0,
                    label="within both budgets")
    ax.axvline(1, color="gray", linestyle="--", lw=1, zorder=0,
               label="a budget (share 1)")
    ax.axhline(1, color="gray", linestyle="--", lw=1, zorder=0)
    ax.set_xlabel("serving memory / budget")
    ax.set_ylabel("training FLOPs / budget")
    for V, color in colors.items():
        for tied in (True, False):
            ax.scatter([], [], s=70, color=color if tied else "white", edgecolor=color,
                       linewidth=2, label=f"V {V:,}, {'tied' if tied else 'untied'}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2,
              handletextpad=0.3, columnspacing=1)
    points = []                   # (x, y, label, bold, V and tying)
    for (V, d, tied), s in searches.items():
        if s.design is None:      # no depth fits: nothing to draw
            continue
        used = headroom(design_figures(s.design, budget), budget)
        x, y = used["memory"], used["compute"]
        ax.scatter(x, y, s=70, color=colors[V] if tied else "white",
                   edgecolor=colors[V], linewidth=2, zorder=3)
        depth = (f"{s.layers_by_params}→{s.layers}" if s.layers < s.layers_by_params
                 else f"{s.layers}")
        name = next((word for design, word in marked if design == s.design), "")
        label, extra = f"d {d:,}, L {depth}" + (f": {name}" if name else ""), ()
        if s.layers < s.layers_by_params:   # backed off: what binds at L, what broke at L(N)
            binds = max(("memory", "compute"), key=used.get)
            broke = [reason.split(":")[0] for reason in s.reasons]
            extra = (f"at L {s.layers}: {binds} {used[binds]:.1%}",)
            if broke != [binds]:            # more (or another) broke at L(N): name them all
                extra += (f"over at L {s.layers_by_params}: {', '.join(broke)}",)
        points.append((x, y, (label, extra), bool(name), (V, tied)))
    # every label names its tying; labels that would read alike but for it (same d, depths,
    # budgets and share) and differ in V name V as well: colour alone never tells them apart
    groups = {}
    for *_, label, _, shape in points:
        groups.setdefault(label, []).append(shape)

    def forms(label, V, tied):
        # one line, or narrower: the tying on a line of its own, or after d and L with what
        # broke and what binds on the lines below
        shapes = groups[label]
        first, extra = label
        which = "tied" if tied else "untied"
        if len({v for v, _ in shapes}) > 1:     # alike but for V: name it, not colour alone
            which = f"V {V:,} {which}"
        lines = [f"{first}, {which}", *extra] if extra else [first, which]
        return ", ".join([f"{first}, {which}", *extra]), "\n".join(lines)
    keyed = points                # before forms(): each label still as (label, extra lines)
    points = [(x, y, forms(label, *shape), bold) for x, y, label, bold, shape in points]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    # every drawn design fits, so nothing lies past a budget line: the axes end just after it
    ax.set_xlim(min(xs) - 0.04, 1.03)
    ax.set_ylim(min(ys) - 0.04, 1.02)
    fig.tight_layout()
    # labels told apart by a word are written alike: all on one line, or all on two
    keys = [label for *_, label, _, _ in keyed]
    same_form = [[i for i, key in enumerate(keys) if key == label]
                 for label, shapes in groups.items() if len(shapes) > 1]
    place_labels(fig, ax, points, avoid_x=(1,), avoid_y=(1,), same_form=same_form)
    return fig


# ---- Lesson 11's break-evens: one line per cost, ending at its r* ----

def break_even_bars(break_evens, r, names=("ours", "theirs"), label_width=14):
    """Lesson 11's break-even ratios on one axis of `r` (a text's tokens in `names[1]` over
    `names[0]`): one row per cost in `break_evens` ({cost: r*}), labelled with the cost (wrapped at
    `label_width` characters, so the plot keeps most of the width) and `r* = value`; a dot at the
    r*, and a line from the axis' left edge to it where `names[1]` costs less (a line, not a bar);
    a dashed line at the example `r`, a thin one at r = 1 (as many tokens in both). A line that
    reaches past the dashed one is a cost `names[1]` wins at that `r`. The axis starts at 0 when the
    marks spread over most of it; otherwise it starts just left of them, and is marked broken: a
    break on its left end (gid "axis-break") and an arrowhead on each line, which runs on to 0.
    One legend below the axes.
    ValueError naming the value for no costs, or an r* or `r` that is not a positive number.
    Returns the figure."""
    import textwrap

    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator
    from matplotlib.transforms import ScaledTranslation

    if not break_evens:
        raise ValueError(f"break_evens must name at least one cost, got break_evens={break_evens!r}")
    for cost, value in {**break_evens, "r": r}.items():
        if not (isinstance(value, (int, float)) and np.isfinite(value) and value > 0):
            raise ValueError(f"break_evens[{cost!r}] must be a positive number, got {value!r}"
                             if cost != "r" else f"r must be a positive number, got r={r!r}")
    costs = list(break_evens)
    values = [float(break_evens[c]) for c in costs]
    hi = max(max(values), r, 1.0) + 0.04
    lo = min(min(values), r, 1.0) - 0.06
    broken = lo > hi / 3          # zoomed in: worth it only when the marks sit close together
    if not broken:
        lo = 0.0
    fig, ax = plt.subplots(figsize=(MAX_WIDTH_IN, 2.6 + 0.6 * len(costs)))
    y = np.arange(len(costs))
    ax.hlines(y, lo, values, color="tab:purple", lw=3, alpha=0.6,
              label=f"{names[1]} costs less (r < r*)" + (", on to r = 0" if broken else ""))
    if broken:                    # each line runs on past the edge, to r = 0
        ax.plot([lo] * len(costs), y, "<", color="tab:purple", alpha=0.6, markersize=9,
                clip_on=False)
    ax.plot(values, y, "o", color="tab:purple", markersize=9, label="r*, the break-even ratio")
    ax.axvline(r, color="black", linestyle="--", lw=1.5, label=f"r = {r:.2f}, the example")
    ax.axvline(1, color="gray", lw=0.8, label="r = 1: as many tokens in both")
    # each r* written in its cost's label, not in the plot, where it would cover a line
    labels = ["\n".join(textwrap.wrap(cost, label_width) or [""]) + f"\nr* = {value:.3f}"
              for cost, value in zip(costs, values)]
    ax.set_yticks(y, labels)
    ax.tick_params(axis="y", length=0, pad=12)   # clear of the arrowheads on the edge
    ax.set_ylim(len(costs) - 0.5, -0.5)   # the first cost on top, half a row's room around each
    ax.set_xlim(lo, hi)
    ax.xaxis.set_major_locator(MaxNLocator(6, steps=[1, 2, 2.5, 5, 10]))   # ticks a phone can read
    if broken:                    # the axis does not start at 0: a break on its left end
        ax.spines["left"].set_visible(False)
        mark = dict(transform=ax.transAxes, color="black", lw=1.2, clip_on=False)
        ax.plot([-0.012, 0.008], [-0.035, 0.035], gid="axis-break", **mark)
        ax.plot([0.008, 0.028], [-0.035, 0.035], **mark)
        ax.set_xticks([t for t in ax.get_xticks() if lo + 0.06 * (hi - lo) < t <= hi])   # none on it
    ax.set_xlabel(f"r = tokens in {names[1]} / tokens in {names[0]}")
    # below the x label at a fixed distance, whatever the axes' height (the tick labels and the x
    # label below the axes take the same inches however many rows there are)
    below = ax.transAxes + ScaledTranslation(0, -0.62, fig.dpi_scale_trans)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, 0), bbox_transform=below, ncol=1)
    fig.tight_layout()
    return fig
