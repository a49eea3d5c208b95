"""How much one connection, one person and everyone together may ask of the server; the token
bucket that counts requests, the back-off that slows down guessing, and the descriptor limit
that bounds the connections."""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

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
    idle_limit: float = 3600.0
    """A connection that sends nothing but pings for this long is closed, unless it sits or
    watches at a table (`--idle-limit`)."""
    hello_timeout: float = 10.0
    """A connection must say hello within this time."""
    max_output_bytes: int = 2 * 1024 * 1024
    """What may wait unread for a client that does not read; past it, it is cut off."""
    output_per_identity: int = 8 * 1024 * 1024
    """What may wait unread for all the connections of one Unix user or one TCP address
    together; past it, the one of them with the most unread is cut off."""
    output_per_front_end: int = 32 * 1024 * 1024
    """The same for a front end that showed the secret (it speaks for many people)."""
    output_total: int = 64 * 1024 * 1024
    """What may wait unread for every connection together; past it, the connection with the
    most unread is cut off."""
    max_connections: int = 4096
    """Connections at once, at most: fewer if the descriptor limit is lower
    (`connection_cap`)."""
    connections_per_identity: int = 64
    """Connections one Unix user, or one TCP address that has not shown the secret, may have
    at once."""
    connections_per_front_end: int = 256
    """Connections at once from one TCP address that has shown the secret (a front end: each
    browser tab of a web server is one)."""
    chat_chars: int = MAX_CHAT_CHARS
    chat_per_second: float = 0.5
    chat_burst: int = 5
    max_tables: int = 256
    tables_per_person: int = 4
    """Tables one person may have open at once (not yet over)."""
    guest_tables_per_address: int = 64
    """Tables the guests of one TCP address (a front end) may have open at once, together:
    each guest's hello is a new person."""
    waiting_grace: float = 120.0
    """A table still waiting for its people, with no person connected to it, is closed after
    this long (`--waiting-grace`)."""
    free_failures: int = 5
    """Wrong invite codes one person (or wrong secrets one address) may give before each
    next try must wait (`Backoff`)."""
    free_failures_per_table: int = 20
    """Wrong invite codes for one table, from anyone, before each next try must wait."""
    backoff_most: float = 60.0
    """The longest wait between tries, in seconds."""


class Backoff:
    """Failures counted per key (a person, an address, a table): the first `free` cost
    nothing; after the n-th failure past those, the next try must wait 2**(n-1) seconds, at
    most `most`. A key's count is forgotten once it has failed nothing for `forget` seconds;
    a success forgets it at once."""

    def __init__(
        self,
        free: int,
        most: float = 60.0,
        forget: float = 600.0,
        clock: Callable[[], float] = time.monotonic,
        most_keys: int = 4096,
    ) -> None:
        self.free = free
        self.most = most
        self.forget = forget
        self.clock = clock
        self.most_keys = most_keys
        self._failures: dict[str, tuple[int, float]] = {}
        """key: (failures, when the last was)."""

    def wait(self, key: str) -> float:
        """Seconds before `key` may try again (0: now)."""
        count, at = self._failures.get(key, (0, 0.0))
        if count <= self.free:
            return 0.0
        now = self.clock()
        if now - at >= self.forget:
            del self._failures[key]
            return 0.0
        pause = min(self.most, 2.0 ** (count - self.free - 1))
        return max(0.0, at + pause - now)

    def failed(self, key: str) -> int:
        """Count a failure of `key`; how many it has now."""
        now = self.clock()
        count, at = self._failures.get(key, (0, now))
        if now - at >= self.forget:
            count = 0
        if key not in self._failures and len(self._failures) >= self.most_keys:
            self._failures = {k: v for k, v in self._failures.items() if now - v[1] < self.forget}
        self._failures[key] = (count + 1, now)
        return count + 1

    def succeeded(self, key: str) -> None:
        self._failures.pop(key, None)


DESCRIPTORS_KEPT = 128
"""Descriptors kept aside from the connections' (the records' database, the socket, the lock,
the threads' pipes): the connection cap stays this far below the descriptor limit."""
DESCRIPTORS_WANTED = 65536
"""How far the server raises its soft descriptor limit at start, if the hard limit allows."""


def raise_descriptor_limit(wanted: int = DESCRIPTORS_WANTED) -> int:
    """Raise the soft limit of open descriptors toward the hard one (up to `wanted`) where it
    is allowed; the soft limit then."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft) if soft != resource.RLIM_INFINITY else wanted


def connection_cap(limits: Limits, descriptors: int) -> Limits:
    """`limits` with the connection caps the descriptor limit allows: the total at most the
    descriptors less `DESCRIPTORS_KEPT` (or less a quarter of them, if that leaves more aside),
    one identity at most a quarter of the total, a front end at most half of it."""
    room = descriptors - max(DESCRIPTORS_KEPT, descriptors // 4)
    total = max(8, min(limits.max_connections, room))
    return replace(
        limits,
        max_connections=total,
        connections_per_identity=max(1, min(limits.connections_per_identity, total // 4)),
        connections_per_front_end=max(1, min(limits.connections_per_front_end, total // 2)),
    )
