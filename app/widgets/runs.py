"""Fewer bytes per painted row: one styled run where Textual would write several.

Textual writes every segment of a row as its own colour sequence + text + reset, even when
the next segment has the same style (a border's corner, line and title; a cell and the padding
after it). `one_run_per_style` joins such neighbours, and lets a run of blanks join the run
before it when that changes nothing visible (a blank shows only its background and a few
attributes, not its text colour).
"""

from __future__ import annotations

from typing import TypeGuard

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip


def _blank_look(style: Style) -> tuple[object, ...]:
    """What a run of spaces in `style` shows."""
    return (
        style.bgcolor,
        style.reverse,
        style.underline,
        style.underline2,
        style.strike,
        style.overline,
        style.color if style.reverse else None,  # reversed, the text colour is the background
    )


def _plain(style: Style | None) -> TypeGuard[Style]:
    """A style with no meta and no link (a blank in it may take another such style)."""
    return style is not None and not style.link and not style.meta


def one_run_per_style(strip: Strip, *, keep_meta: bool = True) -> Strip:
    """`strip` with neighbouring runs of equal look joined.

    Runs of text carry meta (the offsets Textual uses to select text with the mouse), which
    keeps them apart from the border beside them; `keep_meta=False` drops it, for a widget
    whose text is never selected (and has no links).
    """
    segments: list[Segment] = []
    for text, style, control in strip:
        if style is not None and not keep_meta:
            style = style.clear_meta_and_links()
        if segments and control is None and _plain(style):
            last = segments[-1]
            if (
                last.control is None
                and _plain(last.style)
                and text.strip(" ") == ""
                and _blank_look(last.style) == _blank_look(style)
            ):
                style = last.style  # blanks in the style of the run before them
        segments.append(Segment(text, style, control))
    return Strip(Segment.simplify(segments), strip.cell_length)
