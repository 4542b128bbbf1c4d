"""embedlab.figures: figures drawn at 2x, recording their smallest text for the book's check."""

import struct

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
