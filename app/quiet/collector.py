"""Garbage collection between keys, not in the middle of one.

CPython's cyclic collector runs when enough objects have been allocated, wherever that
happens: a key's paint allocates thousands (segments, strips and their caches), so a
collection of the young objects (3–6 ms on this machine under load) came inside the answer to a
key every few keys, and now and then a full one (17–74 ms: the game screen's objects, the rule
card's kept widgets, every line drawn since) — the slowest key of a scripted game
(docs/performance.md, "Fifth pass"). `gc.freeze` (`app.main.keep_for_good`) keeps what lives
as long as the app out of it; what a game makes while it is played cannot be frozen (a game
left must be freed).

While a game's screen is open (the lobby keeps CPython's collector as it is: with it, a
browser tab's lobby kept 0.2 MiB more of its own memory, `web_tab_uss_mib`), the
`IdleCollector` lets the automatic collector wait much longer between
collections (a young collection every `SAFETY_THRESHOLD` allocations instead of 700) and
collects itself once the screen has been quiet for `IDLE_AFTER` seconds after a paint: the
young generations if there are at least 700 new objects, as CPython would, and everything
after ten young collections (CPython's count; it also waits for the old generation to have
grown by a quarter, which only `gc.get_objects` could tell here, at a third of the cost of the
collection itself). A screen that never goes quiet still gets the automatic collections, only
rarer. Nothing is scheduled while nothing is painted: an idle app costs no CPU.
"""

from __future__ import annotations

import asyncio
import gc

IDLE_AFTER = 0.15
"""Seconds of quiet after a paint before collecting (the bench's keys are 0.4 s apart; a
person's rarely come quicker than this, except a held key, which paints in between)."""
YOUNG = 700
"""New objects that make a young collection worth it (CPython's first threshold)."""
SAFETY_THRESHOLD = 20_000
"""The automatic collector's first threshold while the idle collector runs: it collects only
when this many objects came with no quiet in between (a held key, a long animation)."""
OLD_THRESHOLD = 100
"""The automatic collector's third threshold meanwhile (young collections before it may
collect everything): ten times CPython's, as a last resort; the idle collection comes first."""
FULL_AFTER = 10
"""Young collections before a full one (CPython's third threshold)."""


class IdleCollector:
    """The app's garbage collection at quiet moments (`install` when a game's screen opens,
    `painted` after every paint, `uninstall` when it closes)."""

    def __init__(self) -> None:
        self._saved: tuple[int, int, int] | None = None
        self._handle: asyncio.TimerHandle | None = None
        self._users = 0
        self.made = [0, 0, 0]
        """How many collections of each generation were made at quiet moments."""
        self.collecting = False
        """True during a collection made here (for tests: the others are automatic)."""

    @property
    def installed(self) -> bool:
        return self._saved is not None

    @property
    def pending(self) -> bool:
        """Whether a collection waits for the screen to be quiet."""
        return self._handle is not None

    def install(self) -> None:
        """Collect at quiet moments from now on (each `install` is undone by an `uninstall`)."""
        self._users += 1
        if self._saved is None:
            self._saved = gc.get_threshold()
            gc.set_threshold(SAFETY_THRESHOLD, self._saved[1], OLD_THRESHOLD)

    def uninstall(self) -> None:
        """The collector's thresholds back as they were, once every `install` is undone."""
        self._users = max(0, self._users - 1)
        if self._users:
            return
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def painted(self) -> None:
        """The screen was painted: collect once it has been quiet for `IDLE_AFTER` s."""
        if self._saved is None:
            return
        if self._handle is not None:
            self._handle.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._handle = loop.call_later(IDLE_AFTER, self.collect)

    def collect(self) -> None:
        """Collect what CPython's thresholds would have by now (nothing if not enough came)."""
        self._handle = None
        young, _, since_full = gc.get_count()
        if since_full >= FULL_AFTER:
            generation = 2
        elif young >= YOUNG:
            generation = 1
        else:
            return
        self.collecting = True
        try:
            gc.collect(generation)
        finally:
            self.collecting = False
        self.made[generation] += 1


COLLECTOR = IdleCollector()
"""The process's one collector (the collector's thresholds are the process's)."""
