"""Cubilete's Textual app. Start it with `cubilete` or `python -m app`."""
