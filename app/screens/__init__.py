"""One file per screen, each with its `.tcss` beside it."""
