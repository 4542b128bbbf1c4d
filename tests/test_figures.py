"""embedlab.figures: figures drawn at 2x, recording their smallest text for the book's check."""

import itertools
import re
import struct

import numpy as np

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from embedlab import figures  # noqa: E402


def draw(width=5.0, labelsize=None):
    with plt.rc_context(figures.RC):
        fig, ax = plt.subplots(figsize=(width, 3))
        ax.plot([0, 1, 2], [3, 1, 2], label="a line")
        ax.set_xlabel("step")
        ax.legend()
        if labelsize:
            ax.tick_params(labelsize=labelsize)
        try:
            return figures.png(fig)
        finally:
            plt.close(fig)


def test_png_is_drawn_at_twice_its_shown_width_and_records_its_smallest_text():
    data, metadata = draw()
    width, height = struct.unpack(">II", data[16:24])
    assert metadata == {"width": width // figures.SCALE}
    # the tight crop keeps about the figure's 5 inches at 200 dots per inch
    assert 800 < width <= 5.0 * 100 * figures.SCALE + 2
    assert figures.text_px(data) == pytest.approx(12 * 100 * figures.SCALE / 72, abs=0.01)


def test_the_smallest_text_is_the_one_recorded():
    data, _ = draw(labelsize=7)                                 # tick labels smaller than the rest
    assert figures.text_px(data) == pytest.approx(7 * 200 / 72, abs=0.01)


def test_text_of_at_least_10_px_on_a_phone_at_the_widest_figure():
    """At 390 px the book's column is 342 px wide: the widest figure a lesson may draw, with
    RC's smallest text, shows that text at 10 px or more."""
    column = 342
    smallest = min(v for k, v in figures.RC.items() if k.endswith("size") and isinstance(v, (int, float)))
    assert smallest * column / (72 * figures.MAX_WIDTH_IN) >= 10


def test_a_figure_wider_than_the_course_allows_is_refused():
    with pytest.raises(ValueError, match="figsize width=7"):
        draw(width=7)


def test_a_png_saved_without_the_course_style_records_nothing(tmp_path):
    fig, ax = plt.subplots()
    ax.plot([0, 1])
    fig.savefig(tmp_path / "plain.png")
    plt.close(fig)
    assert figures.text_px((tmp_path / "plain.png").read_bytes()) is None


def test_use_sets_the_sizes():
    with plt.rc_context():
        figures.use()                       # outside Jupyter: only the sizes
        assert matplotlib.rcParams["font.size"] == 12
        assert matplotlib.rcParams["xtick.labelsize"] == 12


# --------------------------------------------------------------------------
# Legends never sit on the data they explain


def legend_case(kind, **legend):
    """A figure with a line rising corner to corner and a flat one at mid height, bars, a scatter
    point or a filled area, and a legend placed by `legend`: what legend_overlaps finds, and the
    record png() writes of it."""
    import numpy as np

    with plt.rc_context(figures.RC):
        fig, ax = plt.subplots(figsize=(5, 3))
        x = np.linspace(0, 10, 50)
        if kind == "lines":
            ax.plot(x, x, label="rising")
            ax.plot(x, np.full_like(x, 5), label="flat")
        elif kind == "bars":
            ax.barh(["a", "b"], [1.0, 1.0], label="full bars")
        elif kind == "scatter":
            ax.scatter([0, 10], [0, 10], label="corners")
        elif kind == "area":
            ax.fill_between(x, 0, 10, label="area")
        ax.set_title("t")
        ax.legend(**legend)
        try:
            found = figures.legend_overlaps(fig)
            data, _ = figures.png(fig)
            return found, figures.legend_over_data(data)
        finally:
            plt.close(fig)


@pytest.mark.parametrize("kind, legend, covered", [
    ("lines", {"loc": "center"}, ["flat", "rising"]),          # over both lines
    ("lines", {"loc": "upper left"}, []),                       # the empty corner above y = x
    ("lines", {"loc": "upper center", "bbox_to_anchor": (0.5, -0.2)}, []),  # below the axes
    ("bars", {"loc": "upper right"}, ["full bars"]),            # the bars fill the axes' width
    ("bars", {"loc": "upper center", "bbox_to_anchor": (0.5, -0.2)}, []),
    ("scatter", {"loc": "upper right"}, ["corners"]),           # the point in that corner
    ("scatter", {"loc": "center"}, []),
    ("area", {"loc": "center"}, ["area"]),
])
def test_a_legend_over_a_line_bar_point_or_area_is_found_and_one_beside_them_is_not(kind, legend, covered):
    found, recorded = legend_case(kind, **legend)
    assert found == [f"the legend of 't' covers {name!r}" for name in covered]
    assert recorded == "; ".join(found)


def stored_figures():
    """Every PNG stored in a lesson, exercise or solution notebook, and in a notebook page of the book."""
    import base64
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    paths = [p for folder in ("notebooks", "exercises", "solutions", "book") for p in sorted((root / folder).glob("*.ipynb"))]
    for path in paths:
        nb = json.loads(path.read_text(encoding="utf-8"))
        for i, cell in enumerate(nb["cells"]):
            for output in cell.get("outputs", []):
                if "image/png" in output.get("data", {}):
                    yield f"{path.relative_to(root)} cell {i}", base64.b64decode(output["data"]["image/png"])


def test_no_stored_figure_has_a_legend_over_its_data():
    """Every figure the course stores went through figures.png(), which records what its legends cover:
    a figure with no record was not drawn the course's way, and one whose legend covers a line, a bar,
    a point or an area names them (regenerate with `make notebooks NB=...` after moving the legend)."""
    shown = list(stored_figures())
    assert len(shown) >= 12, "the lessons' figures were not found"
    unrecorded = [where for where, data in shown if figures.legend_over_data(data) is None]
    assert not unrecorded, f"figures without the legend record (not drawn by figures.png): {unrecorded}"
    covered = {where: figures.legend_over_data(data) for where, data in shown if figures.legend_over_data(data)}
    assert not covered, f"legends over data: {covered}"


def test_every_stored_figure_shows_its_smallest_text_at_10_px_on_a_phone():
    """The book's browser check (tests/test_book.py) without the build: a figure saved wider than its
    figsize (a legend set below the axes and wider than them widens the tight bounding box) is shrunk
    more on a phone, its smallest text under 10 px in the 342 px column (lesson 11's back-off
    figure: 584 px, 9.8 px). Keep such a legend within the axes' width (fewer columns, tighter spacing)."""
    column = 342
    small = []
    for where, data in stored_figures():
        width = struct.unpack(">II", data[16:24])[0]
        text = figures.text_px(data)
        if text and text * column / width < 10:
            small.append(f"{where}: {width // figures.SCALE} px wide, text {text * column / width:.1f} px")
    assert not small, "\n".join(small)


# --------------------------------------------------------------------------
# One series, one colour


def two_figures(first, second):
    """What png() records of two figures, each a list of (label, colour) lines."""
    import numpy as np

    out = []
    for series in (first, second):
        with plt.rc_context(figures.RC):
            fig, ax = plt.subplots(figsize=(5, 3))
            for i, (label, colour) in enumerate(series):
                ax.plot(np.arange(3), np.arange(3) + i, color=colour, label=label)
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2))
            try:
                out.append(figures.recorded_colours(figures.png(fig)[0]))
            finally:
                plt.close(fig)
    return out


def clashes(records):
    """{label: colours} of every label the records draw in more than one colour."""
    seen = {}
    for record in records:
        for label, colours in record.items():
            seen.setdefault(label, set()).update(colours)
    return {label: sorted(c) for label, c in seen.items() if len(c) > 1}


def test_a_series_given_two_colours_by_two_figures_is_found():
    swapped = two_figures([("LM head", "C1"), ("blocks", "C0")], [("LM head", "C2"), ("blocks", "C0")])
    assert clashes(swapped) == {"LM head": ["#2ca02c", "#ff7f0e"]}
    same = two_figures([("LM head", figures.colour("LM head"))], [("LM head", figures.colour("LM head"))])
    assert clashes(same) == {}


def test_bars_and_scatter_points_record_their_colour():
    with plt.rc_context(figures.RC):
        fig, ax = plt.subplots(figsize=(5, 3))
        ax.barh(["a", "b"], [1, 2], color="C2", label="head bars")
        ax.scatter([1], [1], color="C3", label="a point")
        ax.scatter([2], [1], facecolor="none", edgecolor="C4", label="a ring")
        try:
            assert figures.series_colours(fig) == {"a point": ["#d62728"], "a ring": ["#9467bd"],
                                                   "head bars": ["#2ca02c"]}
        finally:
            plt.close(fig)


def test_colour_names_the_series_it_does_not_know():
    assert figures.colour("blocks") == figures.SERIES["blocks"]
    with pytest.raises(ValueError, match="series='the head'"):
        figures.colour("the head")


def test_no_lesson_gives_one_series_two_colours():
    """Within each notebook every labelled series keeps one colour across its figures, and a series the
    course names (figures.SERIES) has that colour in every stored figure."""
    from collections import defaultdict

    records = defaultdict(list)
    for where, data in stored_figures():
        record = figures.recorded_colours(data)
        assert record is not None, f"{where}: no colour record (not drawn by figures.png)"
        records[where.split(" cell ")[0]].append(record)
    assert records
    twice = {nb: clashes(rs) for nb, rs in records.items() if clashes(rs)}
    assert not twice, f"a series in two colours within one notebook: {twice}"
    wrong = {(nb, label): colours for nb, rs in records.items() for r in rs for label, colours in r.items()
             if label in figures.SERIES and colours != [figures.SERIES[label]]}
    assert not wrong, f"a named series not in its figures.SERIES colour: {wrong}"


# ---- lesson 06's drawing functions ----

def test_parameter_parts_add_up_and_each_count_of_n_is_count_params_own():
    """The bars lesson 06 draws are the counts it defines: the parts sum to every stored parameter, and
    N_all, N_non-emb and N_active are count_params' total, non_embedding and active, for every shipped
    model (dense, tied, untied, mixtures of experts)."""
    from embedlab import available_models, count_params, load_config

    for name in available_models():
        n = count_params(load_config(name))
        parts = figures.parameter_parts(n)
        assert list(parts) == list(figures.PARAMETER_PARTS)
        assert all(v >= 0 for v in parts.values()), (name, parts)
        assert sum(parts.values()) == n.total, name
        assert figures.n_count(n, "N_all") == n.total
        assert figures.n_count(n, "N_non-emb") == n.non_embedding, name
        assert figures.n_count(n, "N_active") == n.active, name
        looked_up = (0 if n.tied else n.token_embedding) + n.position_embedding
        assert figures.n_count(n, "N_mult") == n.active - looked_up, name


def test_a_count_of_n_the_course_does_not_name_is_refused():
    from embedlab import count_params, load_config

    n = count_params(load_config("gpt2"))
    with pytest.raises(ValueError, match="name=.N_total"):
        figures.n_count(n, "N_total")
    with pytest.raises(ValueError, match="N_total"):
        figures.parameter_bars([load_config("gpt2")], ["N_all", "N_total"])


def test_lesson_06_figures_draw_their_series_in_the_course_colours_with_legends_off_the_data():
    from embedlab import forward_flops, load_config

    gpt2, llama = load_config("gpt2"), load_config("llama-3-8b")
    drawn = [figures.parameter_bars([gpt2, llama], ["N_all", "N_mult"]),
             figures.cost_by_position([gpt2, llama], 2 ** np.arange(7, 18)),
             figures.share_bars([("a", forward_flops(gpt2, 1024)),
                                 ("b", forward_flops(llama, 8192, logits="last"))])]
    for fig in drawn:
        assert figures.legend_overlaps(fig) == []
        assert fig.get_figwidth() <= figures.MAX_WIDTH_IN
        for label, colours in figures.series_colours(fig).items():
            if label in figures.SERIES:
                assert colours == [figures.SERIES[label]], label
        plt.close(fig)


def test_lesson_06_cost_figure_marks_where_attention_crosses_the_head_and_the_blocks():
    """cost_by_position puts a dot, written with its position, where attention's cost (t times
    attention_per_key) equals the head's and the blocks' (the crossings lesson 06 quotes), and none
    for a crossing outside the positions drawn. Seen red with the dots at half the position."""
    from embedlab import load_config, token_costs

    gpt2, llama = load_config("gpt2"), load_config("llama-3-8b")
    cases = [(2 ** np.arange(7, 18), [gpt2, llama]), (2 ** np.arange(7, 12), [gpt2, llama])]
    for contexts, configs in cases:
        fig = figures.cost_by_position(configs, contexts)
        try:
            for ax, config in zip(fig.axes, configs):
                c = token_costs(config)
                want = [(cost / c.attention_per_key, cost) for cost in (c.head, c.blocks)
                        if contexts.min() <= cost / c.attention_per_key <= contexts.max()]
                dots = [(line.get_xdata()[0], line.get_ydata()[0]) for line in ax.get_lines()
                        if line.get_marker() == "o"]
                assert dots == want, (config["_name"], contexts.max())
                for t, cost in dots:     # the attention line passes through each dot
                    assert c.attention_per_key * t == pytest.approx(cost, rel=1e-12)
                assert [text.get_text() for text in ax.texts] == [f"{t:,.0f}" for t, _ in want]
        finally:
            plt.close(fig)
    # the crossings lesson 06 prints: Llama-3-8B's head at exactly 2,004, blocks at 26,624
    c = token_costs(llama)
    assert (c.head / c.attention_per_key, c.blocks / c.attention_per_key) == (2004, 26624)


# ---- lesson 07's drawing function ----

def test_lesson_07_cache_figure_draws_the_cache_the_weights_and_each_models_own_longest_context():
    """figures.cache_against_weights draws, for any model, the cache kv_cache_bytes computes for each
    batch, the weights weight_bytes computes, and a dotted line at the longest context the model's own
    config states (Llama 3's 8,192, Llama 2's 4,096, GPT-2's n_positions), named with its value in the
    legend; none for a config that states none. Each batch's crossing of the weights is marked on the
    weights line at weights / (cache per token · batch), in the batch's colour, with that context in the
    legend, when it falls inside the contexts drawn. Seen red with the line at a fixed 8,192 (Llama 2 drawn past its
    context), and with the crossings at even · batch instead of even / batch."""
    from embedlab import GB, kv_cache_bytes, kv_cache_bytes_per_token, load_config, weight_bytes

    contexts = 2 ** np.arange(9, 18)
    cases = [(load_config("llama-3-8b"), 8192), (load_config("llama-2-7b"), 4096),
             (load_config("gpt2"), 1024)]
    no_limit = {k: v for k, v in load_config("llama-2-7b").items() if k != "max_position_embeddings"}
    cases.append((no_limit, None))
    for config, longest in cases:
        fig = figures.cache_against_weights(config, contexts, batches=(1, 8), precision="fp8")
        try:
            ax = fig.axes[0]
            lines = {line.get_label(): line for line in ax.get_lines()}
            for batch in (1, 8):
                want = [kv_cache_bytes(config, int(t), batch, precision="fp8") / GB for t in contexts]
                line = lines[f"KV cache, batch {batch}"]
                assert np.array_equal(line.get_xdata(), contexts)
                assert np.allclose(line.get_ydata(), want, rtol=1e-12), (config["_name"], batch)
            weights = [line for label, line in lines.items() if label.startswith("fp8 weights")]
            assert len(weights) == 1 and weights[0].get_ydata()[0] == weight_bytes(config, "fp8") / GB
            dotted = [line for line in ax.get_lines() if line.get_linestyle() == ":"]
            legend = [text.get_text() for text in ax.get_legend().get_texts()]
            if longest is None:
                assert dotted == [] and not any("longest" in label for label in legend), config["_name"]
            else:
                assert [list(line.get_xdata()) for line in dotted] == [[longest, longest]], config["_name"]
                assert dotted[0].get_label() in legend and f"({longest:,})" in dotted[0].get_label()
            # the crossings: an X on the weights line where batch × context = weights / cache per token
            even = weight_bytes(config, "fp8") / kv_cache_bytes_per_token(config, precision="fp8")
            want_x = [even / b for b in (1, 8) if contexts.min() <= even / b <= contexts.max()]
            crosses = [line for line in ax.get_lines() if line.get_marker() == "X"]
            assert [line.get_xdata()[0] for line in crosses] == pytest.approx(want_x, rel=1e-12), \
                config["_name"]
            assert all(line.get_ydata()[0] == weight_bytes(config, "fp8") / GB for line in crosses)
            assert [line.get_label() for line in crosses] == [f"cache = weights at\ncontext {x:,.0f}" for x in want_x]
            assert all(line.get_label() in legend for line in crosses) and len(ax.texts) == 0
            # each crossing sits in the legend's row of its batch's line, in that line's colour
            lines_of = [lines[f"KV cache, batch {b}"] for b in (1, 8) if contexts.min() <= even / b]
            assert [line.get_color() for line in crosses] == [line.get_color() for line in lines_of]
            assert figures.legend_overlaps(fig) == []
            assert fig.get_figwidth() <= figures.MAX_WIDTH_IN
        finally:
            plt.close(fig)


# ---- lesson 10's drawing function ----

def test_lesson_10_rows_figure_draws_each_never_seen_row_against_the_trained_band():
    """figures.rows_over_training draws, on made-up rows, one line per never-seen row of `length` (top)
    and of `cosine` (bottom), the band from the shortest to the longest *trained* row at every step,
    a dotted line at `turned` in both panels with its step written, and one legend off the data; a
    `cosine` that is not [step, never-seen row] is refused naming both shapes. Seen red with the band
    drawn over every row (never-seen ones included) and with the dotted line one step late."""
    rng = np.random.default_rng(0)
    steps, never, trained, turned = 41, [1, 4], [0, 2, 3, 5], 7
    length = rng.uniform(0.5, 2.0, size=(steps, 6))
    length[:, never] = np.linspace(0.1, 3.0, steps)[:, None] * [1.0, 1.1]   # below, then above the band
    cosine = rng.uniform(-1, 1, size=(steps, len(never)))
    fig = figures.rows_over_training(length, cosine, trained, never, turned)
    try:
        ax_len, ax_cos = fig.axes
        (band,) = ax_len.collections
        top = band.get_paths()[0].vertices
        inside = (top[:, 0] >= 0) & (top[:, 0] <= steps - 1)
        # the band's outline: every step's trained minimum and maximum, and nothing else
        want = set(zip(range(steps), length[:, trained].min(axis=1))) | set(
            zip(range(steps), length[:, trained].max(axis=1)))
        assert {(int(x), y) for x, y in top[inside]} == want
        solid = [line for line in ax_len.get_lines() if line.get_linestyle() == "-" and len(line.get_xdata())]
        assert [list(line.get_ydata()) for line in solid] == [list(length[:, i]) for i in never]
        curves = [line for line in ax_cos.get_lines() if line.get_linestyle() == "-"]
        assert [list(line.get_ydata()) for line in curves] == [list(cosine[:, j]) for j in range(len(never))]
        for ax in (ax_len, ax_cos):
            dotted = [line for line in ax.get_lines() if line.get_linestyle() == ":"]
            assert [list(line.get_xdata()) for line in dotted] == [[turned, turned]]
        assert [text.get_text() for text in ax_cos.texts] == [f"step {turned}"]
        legend = [text.get_text() for text in fig.legends[0].get_texts()]
        assert legend == ["trained rows (min to max)", f"the {len(never)} never-seen rows"]
        assert figures.legend_overlaps(fig) == []
        assert fig.get_figwidth() <= figures.MAX_WIDTH_IN
    finally:
        plt.close(fig)
    with pytest.raises(ValueError, match=r"cosine.shape=\(41, 3\)"):
        figures.rows_over_training(length, np.zeros((steps, 3)), trained, never, turned)


def test_lesson_10_length_strip_puts_each_row_at_its_length_on_its_matrix_line():
    """figures.row_lengths draws, for made-up matrices, every trained row's length as a tick and every
    hidden row's as a circle on its matrix's own line (top to bottom in the dict's order, named on the
    y axis), the marked row's tick and label on the marked matrix's line, and one legend off the data;
    a mark naming no matrix is refused. Seen red with the lines in reverse order and with the mark's
    length read from the first matrix."""
    rng = np.random.default_rng(1)
    matrices = {"A": rng.normal(size=(9, 4)), "B": 3 * rng.normal(size=(9, 4)), "C": rng.normal(size=(9, 4))}
    trained, hidden, row = [0, 2, 3, 5, 6, 8], [1, 4, 7], 6
    fig = figures.row_lengths(matrices, trained, hidden, mark=("B", row, "this one"))
    try:
        ax = fig.axes[0]
        assert [t.get_text() for t in ax.get_yticklabels()] == list(matrices)
        points = [c.get_offsets() for c in ax.collections]
        for y, M in enumerate(matrices.values()):
            n = np.linalg.norm(M, axis=1)
            ticks, circles = points[2 * y], points[2 * y + 1]
            assert np.array_equal(ticks[:, 0], n[trained]) and set(ticks[:, 1]) == {y + 0.1}
            assert np.array_equal(circles[:, 0], n[hidden]) and set(circles[:, 1]) == {y - 0.25}
        (marked,) = points[6:]
        want = np.linalg.norm(matrices["B"][row])
        assert marked.tolist() == [[want, 1.1]]
        assert [(t.get_text(), t.xy) for t in ax.texts] == [("this one", (want, 1.1))]
        assert [t.get_text() for t in ax.get_legend().get_texts()] == ["trained rows", "hidden unused rows"]
        assert figures.legend_overlaps(fig) == []
        assert fig.get_figwidth() <= figures.MAX_WIDTH_IN
    finally:
        plt.close(fig)
    with pytest.raises(ValueError, match="'D'"):
        figures.row_lengths(matrices, trained, hidden, mark=("D", row, "x"))
    plt.close("all")


# ---- lesson 11's drawing functions ----

def lesson_11_grid():
    """Lesson 11's job and its grid of shapes, each at the deepest depth that fits."""
    from embedlab import Budget, deepest_fit, llama_config

    job = Budget(max_params=1_500_000_000, max_serving_gb=8.0, context=8192, batch=16,
                 weights="bf16", kv="bf16", max_train_flops=4e21,
                 train_tokens=400_000_000_000, train_context=4096, min_vocab_size=128_000)

    def family(V, d, tied):
        return lambda L: llama_config(vocab_size=V, d=d, num_layers=L, num_heads=d // 64,
                                      num_kv_heads=8, d_ff=4 * d, tied=tied)
    searches = {(V, d, tied): deepest_fit(family(V, d, tied), job)
                for V in (128_000, 256_000) for d in (1536, 2048, 2560) for tied in (True, False)}
    return job, searches


def label_clashes(fig, xy, dot_points):
    """What the written labels of fig's first axes cover: another label, a point of `xy` (data
    coordinates, each a dot `dot_points` points across), or the edge of the axes."""
    ax = fig.axes[0]
    fig.canvas.draw()                       # the x label is placed when drawn
    renderer = fig.canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in ax.texts if t.get_text()]
    radius = renderer.points_to_pixels(dot_points / 2)
    frame = ax.get_window_extent(renderer)
    found = []
    for i, (text, box) in enumerate(boxes):
        found += [f"{text!r} on {other!r}" for other, b in boxes[i + 1:] if box.overlaps(b)]
        for x, y in xy:
            px, py = ax.transData.transform((x, y))
            if box.x0 - radius < px < box.x1 + radius and box.y0 - radius < py < box.y1 + radius:
                found.append(f"{text!r} on the point at ({x:.3f}, {y:.3f})")
        if not (frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0
                and box.y1 <= frame.y1):
            found.append(f"{text!r} outside the axes")
    return found


def _segments_cross(p, q, a, b):
    """Whether segment p-q and segment a-b cross (touching ends excluded)."""
    def turn(o, u, v):
        return np.sign((u[0] - o[0]) * (v[1] - o[1]) - (u[1] - o[1]) * (v[0] - o[0]))
    return (turn(p, q, a) * turn(p, q, b) < 0) and (turn(a, b, p) * turn(a, b, q) < 0)


def _segment_through_box(p, q, box):
    """Whether segment p-q passes through the inside of a display box."""
    corners = [(box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1), (box.x0, box.y1)]
    inside = any(box.x0 < x < box.x1 and box.y0 < y < box.y1 for x, y in (p, q))
    return inside or any(_segments_cross(p, q, corners[k], corners[(k + 1) % 4])
                         for k in range(4))


def leader_crossings(fig, xy, dot_points):
    """What the leader lines of fig's first axes (annotations without text, each from a label to
    its point) cross: another leader line, another label, or another point of `xy`."""
    ax = fig.axes[0]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    radius = renderer.points_to_pixels(dot_points / 2)
    to_px = ax.transData.transform
    leaders = [(tuple(t.xy), to_px(t.get_position()), to_px(t.xy))
               for t in ax.texts if not t.get_text()]
    labels = [(tuple(t.xy), t.get_text(), t.get_window_extent(renderer).padded(-1))
              for t in ax.texts if t.get_text()]
    found = []
    for i, (own, p, q) in enumerate(leaders):
        found += [f"the line to {own} crosses the line to {other}"
                  for other, a, b in leaders[i + 1:] if _segments_cross(p, q, a, b)]
        found += [f"the line to {own} crosses {text!r}" for at, text, box in labels
                  if at != own and _segment_through_box(p, q, box)]
        for x, y in xy:
            if (x, y) == own:
                continue
            c = to_px((x, y))
            t = np.clip(np.dot(c - p, q - p) / max(np.dot(q - p, q - p), 1e-9), 0, 1)
            if np.linalg.norm(p + t * (q - p) - c) < radius:
                found.append(f"the line to {own} crosses the point at ({x:.3f}, {y:.3f})")
    return found


def test_lesson_11_map_labels_every_shape_clear_of_the_others_with_its_legend_off_the_data():
    """figures.back_off_map draws one point per shape of lesson 11's grid at its memory and compute
    fractions (headroom), labels each with its d, depth and tying (every label, not only those that
    would read alike: newcomer U), and no label covers another label, a point or leaves the axes;
    the two shapes whose labels would otherwise read alike (d 1,536, L 31→21 at 98.5% memory, V
    128,000 untied and V 256,000 tied) are told apart by their tying, and each such pair is
    written the same way (both on one line or both on two); the legend covers no data.
    A shape that backed off says what its percentage is, the share at the fitted depth L of the
    budget that binds there (the fuller of memory and compute at L), and names every budget L(N)
    broke where that is not the binding one alone (newcomer AD, D6: the 37-layer shape broke
    memory and compute, and its label named memory only).
    Seen red with place_labels' check against placed labels removed (labels over labels), with the
    alike labels left alike, without same_form (", tied" on one line, "untied" on a second), and
    with the tying named only where labels would read alike; the D6 checks seen red with the
    "over at" line left out and with the share taken at L(N) instead of L. Newcomer AE: labels
    alike but for the tying name their V (colour alone told V 128,000 from 256,000), and no
    leader line crosses another line, a label or a point (two crossed in the d 1,536 cluster):
    both seen red on the figure as it was (V named only where the tying also matched; the lines
    to the 37→22 and 31→21 points crossing)."""
    from embedlab import design_figures, headroom

    job, searches = lesson_11_grid()
    marked = [(searches[128_000, 2048, True].design, "ours")]
    with plt.rc_context(figures.RC):
        fig = figures.back_off_map(searches, job, marked)
    try:
        ax = fig.axes[0]
        used = [headroom(design_figures(s.design, job), job) for s in searches.values()]
        xy = [(u["memory"], u["compute"]) for u in used]
        from matplotlib.collections import PathCollection
        drawn = sorted(tuple(o) for c in ax.collections if isinstance(c, PathCollection)
                       for o in c.get_offsets())
        assert drawn == sorted(xy)                           # one point per shape, where it is
        labels = [t.get_text() for t in ax.texts if t.get_text()]
        assert len(labels) == len(searches) == len(set(labels))   # every label reads apart
        for (V, d, tied), s in searches.items():
            depth = (f"{s.layers_by_params}→{s.layers}" if s.layers < s.layers_by_params
                     else f"{s.layers}")
            assert sum(label.startswith(f"d {d:,}, L {depth}") for label in labels) >= 1
        flat = [label.replace("\n", ", ") for label in labels]
        assert "d 2,048, L 20→19: ours, tied, at L 19: memory 99.2%" in flat
        assert "d 1,536, L 37→22, tied, at L 22: memory 97.8%, over at L 37: memory, compute" in flat
        # every label names its tying, as many of each as the grid has shapes
        assert sorted(re.search(r"\b(untied|tied)\b", label).group(1) for label in flat) == sorted(
            "tied" if tied else "untied" for _, _, tied in searches)
        # a backed-off shape: the share at L of the budget binding there; the budgets L(N) broke
        for (V, d, tied), s in searches.items():
            which = "tied" if tied else "untied"
            at_shape = [label for label in flat
                        if label.startswith(f"d {d:,}, L {s.layers_by_params}→{s.layers}")
                        and re.search(rf"\b{which}\b", label)
                        and (f"V {V:,}" in label or "V " not in label)]
            assert len(at_shape) == (s.layers < s.layers_by_params), (V, d, tied, at_shape)
            if not at_shape:
                continue
            share = headroom(design_figures(s.design, job), job)
            binds = max(("memory", "compute"), key=share.get)
            broke = [reason.split(":")[0] for reason in s.reasons]
            over = f"over at L {s.layers_by_params}: {', '.join(broke)}"
            for label in at_shape:
                assert f"at L {s.layers}: {binds} {share[binds]:.1%}" in label, label
                assert (over in label) == (broke != [binds]), label
        # the legend names the shaded region and the dashed budget lines, not only the colours
        # (newcomer 11: the green region was explained nowhere); seen red without their labels
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert "within both budgets" in legend and "a budget (share 1)" in legend, legend
        alike = sorted(label.replace("\n", ", ") for label in labels if "31→21" in label)
        assert alike == ["d 1,536, L 31→21, V 128,000 untied, at L 21: memory 98.5%",
                         "d 1,536, L 31→21, V 256,000 tied, at L 21: memory 98.5%"]
        # told apart without colour: labels that read alike once the tying word is taken out
        # (the fill shows it) each name their V, the colour, and not the same one
        def bare(label):
            return re.sub(r"V [\d,]+ |\b(un)?tied\b", "", label)
        for a, b in itertools.combinations(flat, 2):
            if bare(a) == bare(b):
                named = [re.search(r"V ([\d,]+) ", label) for label in (a, b)]
                assert all(named) and named[0].group(1) != named[1].group(1), (a, b)
        # labels told apart by a word are written alike: all on one line, or all on two
        for start in ("d 1,536, L 31→21", "d 2,560, L 8"):
            pair = [label for label in labels if label.startswith(start) and "tied" in label]
            assert len(pair) == 2 and len({label.count("\n") for label in pair}) == 1, pair
        assert label_clashes(fig, xy, np.sqrt(70)) == []
        assert leader_crossings(fig, xy, np.sqrt(70)) == []
        assert figures.legend_overlaps(fig) == []
        assert fig.get_figwidth() <= figures.MAX_WIDTH_IN
    finally:
        plt.close(fig)


def test_place_labels_keeps_a_crowded_cluster_apart_and_off_the_lines_it_is_told_to_avoid():
    """place_labels on a tight cluster (points 0.02 apart in y, long labels that would cover the
    neighbouring points if written beside each) moves labels until none covers another or a point,
    and writes a label that would cross the vertical line at x = 1 on the point's other side; a
    label that had to move up or down, or out, is joined to its point by a line, and no two of
    those lines cross.
    Seen red with the check against the lines removed (a label across x = 1); the lines' check
    seen red before place_labels checked leader lines."""
    rng = np.random.default_rng(0)
    xy = [(0.95 + 0.03 * rng.random(), 0.5 + 0.02 * i) for i in range(8)]
    xy += [(0.3, 0.55), (0.5, 0.6), (0.9, 0.3)]   # the last one's label, right of it, would cross x = 1
    with plt.rc_context(figures.RC):
        fig, ax = plt.subplots(figsize=(5, 5))
        ax.scatter(*zip(*xy), s=70)
        ax.axvline(1)
        ax.set_xlim(0, 1.5)         # room right of the line: only the line keeps labels off it
        ax.set_ylim(0, 1)
        fig.tight_layout()
        points = [(x, y, (f"point {i}, a long label", f"point {i}\na long label"), False)
                  for i, (x, y) in enumerate(xy)]
        boxes = figures.place_labels(fig, ax, points, avoid_x=(1,))
    try:
        assert len(boxes) == len(xy)
        assert label_clashes(fig, xy, np.sqrt(70)) == []
        # the cluster's markers touch, so a line may cross a neighbour; never another line
        assert [c for c in leader_crossings(fig, xy, np.sqrt(70)) if "the line to (" in
                c.split("crosses")[1]] == []
        line_x = ax.transData.transform((1, 0))[0]
        assert not any(b.x0 < line_x < b.x1 for b in boxes)
        for text in (t for t in ax.texts if t.get_text()):
            at = ax.transData.transform(text.get_position())
            point = ax.transData.transform(text.xy)
            gap = 0.03 * 1.5                  # place_labels' gap: 3% of the x axis
            beside = ax.transData.transform((gap, 0))[0] - ax.transData.transform((0, 0))[0]
            moved = abs(at[1] - point[1]) > 0.5 or abs(at[0] - point[0]) > 1.5 * beside
            joined = any(not t.get_text() and t.xy == text.xy for t in ax.texts)
            assert moved == joined, text.get_text()
    finally:
        plt.close(fig)


def assert_legend_below_the_x_label(fig):
    fig.canvas.draw()                       # the x label is placed when drawn
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    legend = ax.get_legend().get_window_extent(renderer)
    label = ax.xaxis.label.get_window_extent(renderer)
    assert legend.y1 < label.y0, (legend, label)


def test_lesson_11_break_even_marks_end_at_each_r_star_with_the_example_r_dashed_and_the_legend_off_them():
    costs = {"training FLOPs": 0.967, "serving memory": 1.151, "generation, 8,192 tokens": 0.986}
    with plt.rc_context(figures.RC):
        fig = figures.break_even_bars(costs, 0.96)
        try:
            ax = fig.axes[0]
            dots = next(line for line in ax.lines if line.get_marker() == "o")
            assert list(dots.get_xdata()) == pytest.approx(list(costs.values()))   # a dot at each r*
            segments = ax.collections[0].get_segments()                            # its line ends there
            assert [seg[1][0] for seg in segments] == pytest.approx(list(costs.values()))
            assert not ax.patches                                  # no bar whose length would mislead
            # each row names its cost, wrapped so the labels leave the plot most of the width, and its r*
            labels = [t.get_text() for t in ax.get_yticklabels()]
            assert [label.split("\n")[-1] for label in labels] == ["r* = 0.967", "r* = 1.151", "r* = 0.986"]
            assert [" ".join(label.split("\n")[:-1]) for label in labels] == list(costs)
            assert max(len(line) for label in labels for line in label.split("\n")) <= 14
            assert ax.get_position().width > 0.6                  # the plot, not its labels, takes the width
            assert not ax.texts                                    # nothing written over a line
            dashed = [line for line in ax.lines if line.get_linestyle() == "--"]
            assert [line.get_xdata()[0] for line in dashed] == [0.96]   # the example r
            lo, hi = ax.get_xlim()
            assert lo < 0.96 and hi > 1.151                        # every mark is shown
            assert 0 < lo                                          # zoomed in, so the axis is marked broken:
            assert [a.get_gid() for a in ax.get_children() if a.get_gid()] == ["axis-break"]
            arrows = next(line for line in ax.lines if line.get_marker() == "<")   # each line runs on left
            assert list(arrows.get_xdata()) == pytest.approx([lo] * len(costs))
            assert "r = 1" in " ".join(t.get_text() for t in ax.get_legend().get_texts())
            assert figures.legend_overlaps(fig) == []
            assert_legend_below_the_x_label(fig)
        finally:
            plt.close(fig)
    # r*s far apart: the axis starts at 0, so nothing is broken and no line runs on past its edge
    with plt.rc_context(figures.RC):
        fig = figures.break_even_bars({"a cost": 0.3, "another": 1.2}, 0.9)
        try:
            ax = fig.axes[0]
            assert ax.get_xlim()[0] == 0
            assert not [a for a in ax.get_children() if a.get_gid() == "axis-break"]
            assert not [line for line in ax.lines if line.get_marker() == "<"]
            assert_legend_below_the_x_label(fig)    # two rows: a shorter axes, the legend as far below
        finally:
            plt.close(fig)
    for bad, named in (({}, "break_evens"), ({"memory": -1.0}, "'memory'"),
                       ({"memory": float("nan")}, "'memory'")):
        with pytest.raises(ValueError, match=named):
            figures.break_even_bars(bad, 0.96)
    with pytest.raises(ValueError, match="r=0"):
        figures.break_even_bars(costs, 0)


# --------------------------------------------------------------------------
# One colour rule for values either side of 0


def signed_record(draw_on):
    with plt.rc_context(figures.RC):
        fig, ax = plt.subplots(figsize=(4, 3))
        draw_on(fig, ax)
        try:
            return figures.recorded_signed_maps(figures.png(fig)[0])
        finally:
            plt.close(fig)


def test_a_signed_map_records_its_colours_and_an_unsigned_one_nothing():
    from matplotlib.colors import SymLogNorm

    signed = np.array([[-1.0, 0.5], [0.25, 1.0]])

    def other_colours(fig, ax):
        fig.colorbar(ax.imshow(signed, cmap="RdBu", vmin=-1, vmax=1), ax=ax)

    def course_colours_masked(fig, ax):   # lesson 05's way: a log scale each side of 0, exact zeros grey
        cmap = plt.get_cmap(figures.SIGNED_CMAP).with_extremes(bad="0.75")
        ax.imshow(np.ma.masked_equal(signed, 0.5), cmap=cmap, norm=SymLogNorm(1e-3, vmin=-1, vmax=1))

    def from_the_data(fig, ax):            # no vmin/vmax given: the scale is the data's, drawn
        ax.pcolormesh(signed, cmap="coolwarm")

    assert signed_record(other_colours) == ["RdBu"]
    assert signed_record(course_colours_masked) == [figures.SIGNED_CMAP]
    assert signed_record(from_the_data) == ["coolwarm"]
    assert signed_record(lambda fig, ax: ax.imshow(np.abs(signed), cmap="Blues")) == []
    assert signed_record(lambda fig, ax: ax.plot([0, 1], [-1, 1], label="a line")) == []


def test_every_stored_signed_map_uses_the_courses_colours():
    """A value either side of 0 reads the same way in every lesson (newcomer AA: lesson 05's blue-above-zero
    gradient next to lesson 09's red-for-high cosines). A figure stored before png() recorded signed maps has
    no record yet; it gets one when its notebook is regenerated."""
    records = {where: figures.recorded_signed_maps(data) for where, data in stored_figures()}
    signed = {where: maps for where, maps in records.items() if maps}
    assert any(where.startswith("notebooks/05-") for where in signed) and \
        any(where.startswith("notebooks/09-") for where in signed), f"lessons 05 and 09 record no signed map: {signed}"
    other = {where: maps for where, maps in signed.items() if maps != [figures.SIGNED_CMAP]}
    assert not other, f"signed maps not in figures.SIGNED_CMAP ({figures.SIGNED_CMAP}): {other}"
