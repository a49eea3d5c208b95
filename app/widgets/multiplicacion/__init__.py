"""Multiplicación's own widgets: the cup of dice thrown (`Cup`) and the two set-aside slots
(`SetAsideSlots`) that make the product."""
