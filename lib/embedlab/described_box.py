"""A course widget's text form: one sentence instead of ipywidgets' repr.

A cell that displays a widget saves two things in the notebook: a view of the
widget (drawn by JupyterLab or the book from the widget's state) and a plain
text form, which JupyterLab shows where it cannot draw the widget, e.g. in a
notebook just opened, before the cell has run. ipywidgets makes that text from
repr(), "VBox(children=(Dropdown(description='model', index=2, options=(...",
cut at 110 characters. A course widget is a `DescribedBox`: a VBox whose text
form says what it is and what to do.
"""

from __future__ import annotations

import ipywidgets

MAX_WIDTH = 88   # no printed line in a lesson is wider (CONTRIBUTING)


class DescribedBox(ipywidgets.VBox):
    """`ipywidgets.VBox(children)` whose repr, and so its saved text/plain, is `description`."""

    def __init__(self, children, description: str, **kwargs):
        if not isinstance(description, str) or "\n" in description or not 0 < len(description) <= MAX_WIDTH:
            raise ValueError(f"description must be one line of 1 to {MAX_WIDTH} characters, "
                             f"got description={description!r}")
        super().__init__(children, **kwargs)
        self._description = description

    def __repr__(self) -> str:
        return self._description
