"""What the server writes to its log about what peers send, and how often.

- `shown(value)`: every value that comes from a peer (a client's name for itself, a user
  name a front end asserts, an address, an error another server sent) goes into a log line
  through it: control and formatting characters are written as escapes (`\\n`, `\\x1b`,
  `\\u202e`), so a peer can neither forge a line of the log nor put an escape sequence into
  the terminal of the admin who reads it, and it is cut to a length.
- `LogLimiter`: the lines a peer can cause as often as it likes (a connection refused, a wrong
  secret, a wrong invite code, an error of the system while accepting) are written a few
  times a minute per key at most; the next one after the minute says how many were left
  out.
"""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

MOST_CHARS = 80
"""How much of a peer's value a log line holds."""

_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}


def shown(value: object, most: int = MOST_CHARS) -> str:
    """`value` as text for the log: one line, every control or formatting character (Unicode
    categories C*: Cc, Cf, Cs, Co, Cn; and line or paragraph separators) written as an escape,
    at most `most` characters of it (then `…`)."""
    text = value if isinstance(value, str) else str(value)
    out: list[str] = []
    for index, character in enumerate(text):
        if index >= most:
            out.append("…")
            break
        if character in _ESCAPES:
            out.append(_ESCAPES[character])
            continue
        category = unicodedata.category(character)
        if category[0] == "C" or category in ("Zl", "Zp"):
            code = ord(character)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        else:
            out.append(character)
    return "".join(out)


@dataclass
class _Window:
    started: float
    written: int
    left_out: int = 0


class LogLimiter:
    """Lines to `logger`, at most `burst` per key every `period` seconds: the others are
    counted, and the next line written for that key after the period says how many there
    were. Keys are whatever groups the lines (a user, an address and what happened); the
    limiter forgets a key whose period is over once it holds `most_keys`."""

    def __init__(
        self,
        logger: logging.Logger,
        *,
        period: float = 60.0,
        burst: int = 1,
        most_keys: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.period = period
        self.burst = burst
        self.most_keys = most_keys
        self.clock = clock
        self._windows: dict[str, _Window] = {}

    def log(self, key: str, level: int, message: str, *args: object) -> bool:
        """Write `message % args` at `level` unless `key` had its lines this period (then it
        is counted). True if it was written."""
        now = self.clock()
        window = self._windows.get(key)
        if window is not None and now - window.started >= self.period:
            left_out = window.left_out
            del self._windows[key]
            window = None
            if left_out:
                message += " (and %d more like it in the last %d seconds)"
                args = (*args, left_out, round(self.period))
        if window is None:
            if len(self._windows) >= self.most_keys:
                self._forget(now)
            window = self._windows[key] = _Window(now, 0)
        if window.written >= self.burst:
            window.left_out += 1
            return False
        window.written += 1
        self.logger.log(level, message, *args)
        return True

    def info(self, key: str, message: str, *args: object) -> bool:
        return self.log(key, logging.INFO, message, *args)

    def warning(self, key: str, message: str, *args: object) -> bool:
        return self.log(key, logging.WARNING, message, *args)

    def _forget(self, now: float) -> None:
        over = [key for key, w in self._windows.items() if now - w.started >= self.period]
        for key in over or list(self._windows)[: self.most_keys // 2]:
            del self._windows[key]
