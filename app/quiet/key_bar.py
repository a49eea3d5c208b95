"""The keys of the screen on its last row, the way Textual's Footer shows them, in one widget.

Textual's Footer composes a widget per key, and composes them all again whenever the bindings
change (every move of the focus). This bar draws the same line: ` key description ` for every
shown binding (keys of a binding group, then the group's description), dimmed when disabled,
and `▏^p palette` at the right edge. It repaints only when the line changes, and a click on a
key presses it.

Unlike Footer it orders the keys by the screen's `key_rank(binding_id)` when the screen has
one (the keys that play first), and a key that does not fit whole is left out with every key
after it, rather than cut mid-word. A screen shows only the keys that work now by answering
`check_action` (False hides a key) and calling `refresh_bindings()` when that changes. While
a widget that keeps every key typed has the keyboard (`OWNS_KEYS`: the chat line), the bar
shows that widget's keys only.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from typing import TYPE_CHECKING, ClassVar, Literal, NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.strip import Strip
from textual.widget import Widget

from rules import N_

from ..i18n import _
from ..widgets import sibling_css

if TYPE_CHECKING:
    from textual.binding import Binding
    from textual.screen import Screen


TEXTUAL_WORDS = (N_("palette"),)
"""Descriptions of Textual's own bindings that the bar shows (the command palette's key)."""

Kind = Literal["key", "grouped", "compact", "label", "palette"]
"""A key with its description; a key of a binding group (no description of its own), or of a
compact group; a group's description (not a key); the command palette's key."""


class Item(NamedTuple):
    """One entry of the bar: a key (with its description, or in a group), or a group's name."""

    key: str
    """The key a click presses ("" for a group's description, which is not a key)."""
    display: str
    description: str
    enabled: bool = True
    tooltip: str = ""
    kind: Kind = "key"
    unit: int = 0
    """Items of one unit (a key, or a group's keys and its name) are shown or left out
    together."""


class KeyBar(Widget, can_focus=False):
    DEFAULT_CSS = sibling_css(__file__)
    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "key-bar--key",
        "key-bar--description",
        "key-bar--disabled",
        "key-bar--hover",
        "key-bar--palette-border",
    }

    def __init__(
        self,
        *,
        id: str | None = None,
        classes: str | None = None,
        show_command_palette: bool = True,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.show_command_palette = show_command_palette
        self._items: tuple[tuple[Item, ...], Item | None] | None = None
        """What the bar shows (the keys, the palette's key), as last read from the bindings."""
        self._spans: list[tuple[int, int, Item]] = []
        """Where each key was drawn: (start, end, item), for clicks and the hover."""
        self._hover: Item | None = None

    # -- what to show ---------------------------------------------------------------------
    def read_bindings(self) -> tuple[tuple[Item, ...], Item | None]:
        """The screen's shown bindings as Footer lists them, and the command palette's key."""
        app = self.app
        active_bindings = self.screen.active_bindings
        # a widget that keeps every key typed (a chat line) shows its keys only
        focused = self.screen.focused
        owner = focused if getattr(focused, "OWNS_KEYS", False) else None
        by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for node, binding, enabled, tooltip in active_bindings.values():
            if binding.show and (owner is None or node is owner):
                by_action[binding.action].append((binding, enabled, tooltip))
        rank = getattr(self.screen, "key_rank", None)
        shown = list(by_action.values())
        if callable(rank):
            shown.sort(key=lambda found: rank(found[0][0].id))
        items: list[Item] = []
        unit = 0
        for group, same_group in groupby(shown, lambda found: found[0][0].group):
            bindings = [found[0] for found in same_group]
            if group is not None and len(bindings) > 1:
                kind: Kind = "compact" if group.compact else "grouped"
                for binding, enabled, tooltip in bindings:
                    items.append(
                        Item(
                            binding.key,
                            app.get_key_display(binding),
                            "",
                            enabled,
                            tooltip or binding.description,
                            kind,
                            unit,
                        )
                    )
                items.append(Item("", "", group.description, kind="label", unit=unit))
                unit += 1
            else:
                for binding, enabled, tooltip in bindings:
                    items.append(
                        Item(
                            binding.key,
                            app.get_key_display(binding),
                            binding.description,
                            enabled,
                            tooltip,
                            unit=unit,
                        )
                    )
                    unit += 1
        palette = None
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            found = active_bindings.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _node, binding, enabled, _tooltip = found
                palette = Item(
                    binding.key,
                    app.get_key_display(binding),
                    binding.description,
                    enabled,
                    binding.tooltip or binding.description,
                    "palette",
                )
        return tuple(items), palette

    @property
    def items(self) -> tuple[tuple[Item, ...], Item | None]:
        if self._items is None:
            self._items = self.read_bindings()
        return self._items

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        """Read the bindings again; repaint only if the line changes (as Footer does, not
        while the app has lost the focus: the bindings come back when it regains it)."""
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        items = self.read_bindings()
        if items != self._items:
            self._items = items
            self.refresh()

    # -- drawing --------------------------------------------------------------------------
    def _styles(self, item: Item) -> tuple[Style, Style]:
        """The key's style and the description's, as FooterKey draws them."""
        key = self.get_component_rich_style("key-bar--key")
        description = self.get_component_rich_style("key-bar--description")
        if item == self._hover:
            hover = self.get_component_rich_style("key-bar--hover")
            key = self._over(key, "key-bar--key", hover)
            description = self._over(description, "key-bar--description", hover)
        if not item.enabled:
            dim = self.get_component_rich_style("key-bar--disabled", partial=True)
            key, description = dim + key, dim + description
        return key, description

    def _over(self, style: Style, component: str, hover: Style) -> Style:
        """A key's part drawn on the hover background, unless it has a background of its own."""
        if self.get_component_styles(component).background.a:
            return style
        return style + Style(bgcolor=hover.bgcolor)

    def _segments(self, item: Item) -> list[Segment]:
        """An item as FooterKey draws it (without the margins around it), its description
        in the player's language (bindings hold marked English words)."""
        key, description = self._styles(item)
        words = _(item.description)
        if item.kind == "label":
            return [Segment(words, description)]
        if item.kind in ("grouped", "compact") or not item.description:
            return [Segment(item.display, key)]
        if item.kind == "palette":
            border = self.get_component_rich_style("key-bar--palette-border")
            padding = self._blank()
            if item == self._hover:
                hover = Style(bgcolor=self.get_component_rich_style("key-bar--hover").bgcolor)
                border, padding = border + hover, padding + hover
            segments = [Segment("▏", border), Segment(item.display, key)]
            if item.description:
                segments.append(Segment(" " + words, description))
            return [*segments, Segment(" ", padding)]
        return [Segment(f" {item.display} ", key), Segment(f"{words} ", description)]

    def _blank(self) -> Style:
        """Empty cells: the bar's background only."""
        return Style.from_color(bgcolor=self.rich_style.bgcolor)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        blank = Segment(" ", self._blank())
        items, palette = self.items
        room = width
        drawn_palette: list[Segment] = []
        if palette is not None:
            drawn_palette = self._segments(palette)
            length = Segment.get_line_length(drawn_palette)
            if length <= width:  # at the right edge
                room = width - length
            else:
                drawn_palette = []
        segments: list[Segment] = []
        spans: list[tuple[int, int, Item]] = []
        x = 0
        previous: Kind = "key"
        for _unit, unit_items in groupby(items, lambda item: item.unit):
            # a unit is drawn whole or not at all, and so is every unit after it
            unit_segments: list[Segment] = []
            unit_spans: list[tuple[int, int, Item]] = []
            end, kind = x, previous
            for item in unit_items:
                # the margins and padding of Footer's groups: " h j k Move " and " hjk Move "
                opens_group = item.kind != kind and item.kind in ("grouped", "compact")
                if opens_group or (item.kind == "label" and kind == "compact"):
                    unit_segments.append(blank)
                    end += 1
                kind = item.kind
                drawn = self._segments(item)
                length = Segment.get_line_length(drawn)
                if item.kind != "label":
                    unit_spans.append((end, end + length, item))
                if item.kind in ("grouped", "label"):
                    drawn.append(blank)
                    length += 1
                unit_segments += drawn
                end += length
            if end - 1 > room:  # (its last cell is a blank, which may go)
                break
            segments += unit_segments
            spans += unit_spans
            x, previous = end, kind
        line = Strip(segments, x).crop_extend(0, room, blank.style)
        self._spans = spans
        if drawn_palette and palette is not None:
            length = Segment.get_line_length(drawn_palette)
            line = Strip.join([line, Strip(drawn_palette, length)])
            self._spans.append((room, width, palette))
        return line.crop_extend(0, width, blank.style)

    def item_at(self, x: int) -> Item | None:
        """The key drawn at column x, if any."""
        for start, end, item in self._spans:
            if start <= x < end:
                return item
        return None

    # -- the mouse ------------------------------------------------------------------------
    def on_mouse_down(self, event: events.MouseDown) -> None:
        """Press the key, as a click on Footer's key does (a disabled one rings the bell)."""
        item = self.item_at(event.x)
        if item is None:
            return
        if item.enabled:
            self.app.simulate_key(item.key)
        else:
            self.app.bell()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._set_hover(self.item_at(event.x))

    def on_leave(self, event: events.Leave) -> None:
        self._set_hover(None)

    def _set_hover(self, item: Item | None) -> None:
        if item == self._hover:
            return
        self._hover = item
        self.tooltip = (_(item.tooltip) or None) if item is not None else None
        self.refresh()
