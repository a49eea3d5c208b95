"""The key bar at 80 columns in a real terminal: `cubilete` in a tmux pane (private socket).

A Generala table of Ana (a person) and Bruno (a bot that takes its time), on loaded dice. At
each step of Ana's turn the bottom row shows the keys that work at that moment, the keys that
play first, every key whole (never cut mid-word) and "f1 Rules" always; in Bruno's turn it
offers the hurry instead of the play keys.
"""

from __future__ import annotations

import re

from termhelpers import Pane, cubilete, needs_tmux

ENTRIES = {
    "space Throw",
    "1-5 Hold",
    "⏎ Choose box",
    "h Coach",
    "f Hurry bots",
    "f1 Rules",
    "esc Lobby",
    "f2 Start",
    "f3 Resume",
    "f4 Language",
    "f5 History",
    "f6 Statistics",
    "u Undo",
}
"""Every key the lobby and the Generala screen may show, whole."""
# The roll-off (Ana 6, Bruno 1), Ana's three throws, then dice for Bruno.
DICE = "6,1,1,2,3,4,5,6,6,6,6,1,2,3,4,5,1,1,1,1,1"


def key_bar(screen: str) -> list[str]:
    """The bottom row's entries, left of the palette; each must be a whole key."""
    row = screen.rstrip("\n").split("\n")[-1]
    assert row.rstrip().endswith("▏^p palette"), row
    entries = [entry.strip() for entry in row.split("▏")[0].split("  ") if entry.strip()]
    cut = [entry for entry in entries if entry not in ENTRIES]
    assert not cut, f"cut or unknown keys {cut} in {row!r}"
    return entries


@needs_tmux
def test_the_key_bar_shows_the_keys_that_work_now_whole_at_80_columns():
    with Pane(80, 24) as pane:
        flags = ("--game", "generala", "--dice", DICE, "--bot-pace", "600", "--no-animation")
        pane.start(cubilete(*flags), env={"TERM": "xterm-256color"})
        screen = pane.wait_for(r"Start \(F2\)")
        lobby = ["f1 Rules", "f5 History", "f6 Statistics", "f4 Language"]
        assert key_bar(screen) == ["f2 Start", *lobby]  # nothing to resume

        pane.keys("Tab", "Down", "Down", "Left")  # Bruno's seat: a bot
        pane.wait_for(r"Bruno\s+‹ \w+ bot")
        pane.keys("F2")
        pane.wait_for(r"Ana · round 1 of 13")
        screen = pane.wait_for(r"space Throw")
        assert key_bar(screen) == ["space Throw", "h Coach", "f1 Rules", "esc Lobby"]

        pane.keys("Space")
        screen = pane.wait_for(r"1-5 Hold")
        assert key_bar(screen) == [
            "space Throw",
            "1-5 Hold",
            "⏎ Choose box",
            "h Coach",
            "f1 Rules",
            "esc Lobby",
        ]

        pane.keys("Space")
        pane.wait_for(r"throw 2 of 3")
        pane.keys("Space")
        screen = pane.wait_for(r"throw 3 of 3")
        screen = pane.wait_for(r"\n ⏎ Choose box  h Coach")
        assert key_bar(screen) == ["⏎ Choose box", "h Coach", "f1 Rules", "esc Lobby"]
        pane.keys("Space")  # no throws left: a key that does not work says so
        pane.wait_for(r"No throws left")

        pane.keys("Enter")
        screen = pane.wait_for(r"Bruno \(bot\) is throwing all five dice")
        # Ana's box stands only once Bruno throws: until then she may take it back
        assert key_bar(screen) == ["u Undo", "h Coach", "f Hurry bots", "f1 Rules", "esc Lobby"]
        assert not re.search(r"[Pp]ress space", screen)

        pane.keys("Escape")
        screen = pane.wait_for(r"Resume \(F3\)")
        screen = pane.wait_for(r"f3 Resume")
        # (f4 gives way: the Language button is in view)
        assert key_bar(screen) == ["f2 Start", "f3 Resume", *lobby[:3]]
        pane.keys("C-q")
        assert pane.exit_status() == 0
