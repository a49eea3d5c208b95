"""Cubilete's Textual app. Start it with `cubilete` or `python -m app`."""

import os

# Textual paints a screen at most MAX_FPS times a second, each paint on the next 1/MAX_FPS s
# boundary after the change: at its default of 60, a key waited up to 17 ms for its paint, and
# a screen switch (several rounds of layout before its one paint) up to 50 ms. A paint costs
# nothing more at 240: screens are painted only when something changed
# (docs/performance.md). Read by Textual when it is first imported; a user's own setting wins.
os.environ.setdefault("TEXTUAL_FPS", "240")

# pydantic looks for plugins when it builds its first model: it reads the metadata of every
# package installed beside the app (`importlib.metadata.entry_points`, with the `email` parser),
# ≈ 3 ms and more with every package, at F2 before a game's first frame. The app's models
# (`rules/`, `bots/`) run no plugins. A user's own setting wins (docs/performance.md).
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
