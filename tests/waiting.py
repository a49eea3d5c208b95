"""Polling with a deadline, for tests that drive real processes (tmux, a browser). Pilot tests
wait with `until` and `settle` in tests/ui/uihelpers.py, which let the app run meanwhile."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(condition: Callable[[], T], timeout: float, what: str, step: float = 0.05) -> T:
    """Poll `condition` until it returns something true; fail after `timeout` seconds."""
    end = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(step)
