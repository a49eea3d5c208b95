"""A browser tab's game under `cubilete web`: the game, plus a watch for the server's death.

The server ends a tab's game when the tab goes (quit, a grace period, SIGKILL of its process
group). If the server itself is killed outright it cannot, and the game would play on for
nobody: textual-serve's driver does not stop when its input ends. So each tab watches its
output pipe: once nobody can read it (the server is gone), the game is asked to quit
(SIGTERM, which Textual's web driver turns into an orderly exit) and, if it is still there
`ORPHAN_GRACE` seconds later, its whole process group is killed.

Run as `python -P -m app.web_tab GAME-ARGS...` for a tab started afresh; the fork server's
children call `run` directly.
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Sequence

ORPHAN_GRACE = 5.0


def watch_for_the_server(fd: int = 1) -> threading.Thread:
    """Start the watch (a daemon thread that sleeps in poll until the pipe breaks)."""

    def watch() -> None:
        poller = select.poll()
        poller.register(fd, 0)  # errors and hang-ups are always reported
        while not poller.poll():
            pass
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(ORPHAN_GRACE)
        os.killpg(os.getpgid(0), signal.SIGKILL)

    thread = threading.Thread(target=watch, name="cubilete-server-watch", daemon=True)
    thread.start()
    return thread


def run(game_args: Sequence[str], args: argparse.Namespace | None = None) -> int:
    """The game with the flags the server passes on, watched as above. `args`: those flags
    already read (by the fork server, once for every tab)."""
    watch_for_the_server()
    from .cli import main

    return main(list(game_args), args)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
