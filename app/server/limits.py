"""How much one connection may ask of the server, and the token bucket that counts it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .protocol import MAX_CHAT_CHARS, MAX_CLIENT_BYTES


class TokenBucket:
    """`burst` tokens at most, `rate` more each second; `take()` spends one if there is one.
    A client may send a burst, then keep to the rate."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._tokens = burst
        self._at = clock()

    def take(self, cost: float = 1.0) -> bool:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= cost:
            self._tokens -= cost
            return True
        return False


@dataclass(frozen=True)
class Limits:
    """Per connection, and for the server as a whole."""

    max_message_bytes: int = MAX_CLIENT_BYTES
    messages_per_second: float = 20.0
    burst: int = 40
    """Messages a connection may send at once before the rate applies."""
    strikes: int = 10
    """Refused messages (malformed, too long, too fast) a connection may send in a row before
    it is closed; one is forgiven every `strike_forgiven` seconds."""
    strike_forgiven: float = 5.0
    idle_timeout: float = 300.0
    """A connection that sends nothing (not even a ping) for this long is closed."""
    hello_timeout: float = 10.0
    """A connection must say hello within this time."""
    max_output_bytes: int = 4 * 1024 * 1024
    """What may wait unread for a client that does not read; past it, it is cut off."""
    max_connections: int = 1024
    chat_chars: int = MAX_CHAT_CHARS
    chat_per_second: float = 0.5
    chat_burst: int = 5
    max_tables: int = 256
    tables_per_person: int = 4
    """Tables one person may have open at once (not yet over)."""
