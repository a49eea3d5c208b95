"""A label's new text, laid out again only when its size can change.

`Static.update` lays out the whole screen by default (`layout=True`): any text might need
another width or height. On the Generala screen a box filled changed the status line and the
tray's caption, and that layout cost 8–10 ms of CPU before the move could be painted (more than
the paint itself; docs/performance.md, "Key latency"). A text that measures the same as the one
it replaces (the same width it would ask for, the same number of lines at the width it has)
cannot move anything: it only needs its own repaint.
"""

from __future__ import annotations

from textual.css.scalar import Scalar
from textual.visual import VisualType
from textual.widgets import Static


def _content_sized(scalar: Scalar | None) -> bool:
    """Whether a layout may size this dimension by the content (`auto`; a fraction is
    measured like `auto` in a container sized by its content)."""
    return scalar is not None and (scalar.is_auto or scalar.is_fraction)


def _measure(static: Static) -> tuple[int | None, int | None]:
    """What a layout would ask of `static`'s content now: the width it wants and its height at
    the width it has, each only where its CSS lets the content decide it (None elsewhere: a
    `height: 1` caption is one line whatever it says)."""
    styles = static.styles
    viewport = static.app.size
    container = static.container_size
    width = static.get_content_width(container, viewport) if _content_sized(styles.width) else None
    height = (
        static.get_content_height(container, viewport, static.content_size.width)
        if _content_sized(styles.height)
        else None
    )
    return width, height


def set_text(static: Static, content: VisualType) -> None:
    """Show `content` in `static`: nothing if it is already shown (`Static.update` repaints
    even an unchanged text); a repaint of the label alone if its size cannot change; else a
    layout, as `Static.update` does."""
    if static.content == content:
        return
    if not static.is_attached or not static.size:
        static.update(content)  # not laid out yet: the first layout measures it anyway
        return
    before = _measure(static)
    static.update(content, layout=False)
    if _measure(static) != before:
        static.refresh(layout=True)
