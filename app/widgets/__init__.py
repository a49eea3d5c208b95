"""Widgets render state and post messages; they never change a game state."""

from pathlib import Path


def sibling_css(module_file: str) -> str:
    """The `.tcss` file beside a widget module, used as the widget's DEFAULT_CSS."""
    return Path(module_file).with_suffix(".tcss").read_text(encoding="utf-8")
