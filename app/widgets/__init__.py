"""Widgets render state and post messages; they never change a game state.

Words on screen follow the player's language, which can change while the app runs: a widget
draws its words when it renders (through `app.i18n`), or takes them with `words(...)`, which
sets them now and again whenever the language changes (`retranslate`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from textual.binding import Binding
from textual.dom import DOMNode

from rules import N_

from ..i18n import tr

NodeT = TypeVar("NodeT", bound=DOMNode)
WORDS = "_cubilete_words"
"""The attribute in which a node keeps the marked messages its words come from."""


def sibling_css(module_file: str) -> str:
    """The `.tcss` file beside a widget module, used as the widget's DEFAULT_CSS."""
    return Path(module_file).with_suffix(".tcss").read_text(encoding="utf-8")


def words(node: NodeT, message: str, attribute: str = "border_title", **params: Any) -> NodeT:
    """Give `node` words from a marked message (`N_`, `C_`) filled with `params`: its border
    title, its `label` (a Button), its `content` (a Static), its `tooltip`, or a screen's
    `sub_title`. Set now, in the player's language, and again when the language changes."""
    kept: dict[str, tuple[str, dict[str, Any]]] = node.__dict__.setdefault(WORDS, {})
    kept[attribute] = (message, params)
    _show(node, attribute, message, params)
    return node


def _show(node: DOMNode, attribute: str, message: str, params: dict[str, Any]) -> None:
    text = tr(message, **params)
    if attribute == "content":
        if getattr(node, "content", None) != text:
            node.update(text)  # type: ignore[attr-defined]  # a Static
    else:
        setattr(node, attribute, text)


def retranslate(node: DOMNode) -> None:
    """Words given with `words` again, in the language now in use; then the node's own
    `retranslate()` if it has one (for words it computes)."""
    for attribute, (message, params) in dict(node.__dict__.get(WORDS, {})).items():
        _show(node, attribute, message, params)
    own = getattr(node, "retranslate", None)
    if callable(own):
        own()


def row_moves() -> list[Binding]:
    """↑ ↓ a row, home and end the first and last, for a widget with `action_move(step)`
    (the lobby's game list and setup sheet)."""
    return [
        Binding("up", "move(-1)", N_("Up"), show=False),
        Binding("down", "move(1)", N_("Down"), show=False),
        Binding("home", "move(-99)", N_("First"), show=False),
        Binding("end", "move(99)", N_("Last"), show=False),
    ]
