"""The table talk's box in a real terminal (tmux, private socket): closed at the bottom above
the key bar in every game, at 80×24 and 120×40, in the first game of a run and after every
game opened before it, where the key bar used to run along its open bottom (issue 27)."""

from __future__ import annotations

import re

import pytest
from termhelpers import Pane, cubilete, needs_tmux

from app.games import playable
from rules import get_game

SIZES = [(80, 24), (120, 40)]


def talk_box(screen: str) -> tuple[int, int, int]:
    """The table talk's box: its left and right columns and the row of its title."""
    rows = screen.split("\n")
    for y, row in enumerate(rows):
        found = re.search(r"╭─ Table talk ─*╮", row)
        if found:
            return found.start(), found.end() - 1, y
    raise AssertionError("no table talk on screen:\n" + screen)


def bottom_of(screen: str, left: int, right: int, top: int, height: int) -> int:
    """The row that closes the box (╰──╯ from `left` to `right`), which must lie above the
    key bar; fails, with the screen, if there is none."""
    rows = screen.split("\n")[:height]
    for y in range(top + 1, height - 1):
        row = rows[y]
        if row[left : left + 1] == "╰" and row[right : right + 1] == "╯":
            assert set(row[left + 1 : right]) == {"─"}, row
            return y
        assert row[left : left + 1] == "│" and row[right : right + 1] == "│", (
            f"row {y} is neither a side nor the bottom of the box:\n{screen}"
        )
    raise AssertionError(f"the table talk has no bottom border above the key bar:\n{screen}")


@needs_tmux
@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_table_talk_is_a_closed_box_above_the_key_bar_in_every_game(size):
    width, height = size
    with Pane(width, height) as pane:
        pane.start(cubilete("--seed", "5", "--no-animation"), env={"TERM": "xterm-256color"})
        pane.wait_for(r"Start \(F2\)")
        for game_id in playable():
            name = get_game(game_id).name
            # the lobby's list, then F2: each game opened after the ones before it
            pane.keys("Home")
            while not re.search(rf"▸{re.escape(name[:14])}", pane.capture()):
                pane.keys("Down")
                pane.settled(quiet=0.1)
            pane.keys("F2")
            screen = pane.wait_for(re.escape(f"Cubilete — {name}"))
            screen = pane.wait_for(r"╭─ Table talk")
            screen = pane.settled()
            left, right, top = talk_box(screen)
            bottom = bottom_of(screen, left, right, top, height)
            assert bottom == height - 2, f"{game_id}: the box ends above the key bar\n{screen}"
            pane.keys("Escape")
            pane.wait_for(r"Start \(F2\)")
