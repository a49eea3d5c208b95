"""A newcomer at an 80x24 terminal: `cubilete` in a tmux pane, read back with capture-pane.

For every game the lobby offers, a newcomer starts it and plays one turn using only the keys
the Footer shows, the way someone who has not read the README would: press what the Footer
offers, one key after the other, and answer "y" when asked. Games that get a screen later are
covered as soon as the lobby offers them. The end of the turn is read from the game's record
(the seat to play has changed); what the turn did is read from the screen.

Then one Generala turn by mouse only: real SGR mouse clicks, as a terminal sends them.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from stored import stored_records
from termhelpers import Pane, cubilete, needs_tmux, wait_until

from app.games import playable
from app.i18n import render
from app.table import Table
from rules import get_game

PLAY_KEY = re.compile(r"^(\w|\w-\w|space|enter|⏎)$", re.I)
"""What a key that plays looks like in the Footer: a letter or digit, a range, space, enter."""
NOT_PLAYING = re.compile(r"lobby|back|rules|palette|quit|coach|hint|help|hurry|bots|keys", re.I)
"""Footer entries that leave the table, explain or advise: a newcomer trying to play skips
them (they are covered by their own screens' tests)."""
TMUX_KEYS = {"⏎": "Enter", "space": "Space", "enter": "Enter"}
MAX_PRESSES = 40


def footer_keys(screen: str, height: int = 24) -> list[str]:
    """The keys the Footer (the last row) offers, as tmux key names, in order."""
    rows = screen.split("\n")
    footer = rows[height - 1].split("▏")[0] if len(rows) >= height else ""
    keys = []
    for item in re.split(r"\s{2,}", footer.strip()):
        key, _space, description = item.partition(" ")
        if not PLAY_KEY.match(key) or not description.strip() or NOT_PLAYING.search(description):
            continue
        key = re.sub(r"^(\w)-\w$", r"\1", key)  # "1-5 Hold": the first of the range
        keys.append(TMUX_KEYS.get(key.lower(), key))
    return keys


def test_the_footer_reads_as_keys():
    screen = "x\n ⏎ Choose box  esc Lobby  space Throw  1-5 Hold  f1 Rules      ▏^p palette\n"
    assert footer_keys(screen, 2) == ["Enter", "Space", "1"]
    assert footer_keys("x\n esc Lobby  a Accept  p Penalty re-throw  f1 Rules\n", 2) == ["a", "p"]
    assert footer_keys("x\n╰──╯\n\n", 3) == []
    coach = "x\n esc Lobby  h Coach  f Hurry bots  space Throw  f1 Rules   ▏^p palette\n"
    assert footer_keys(coach, 2) == ["Space"]
    assert footer_keys("x\n space Throw  s Stop  1-2 Pick  f1\n", 2) == ["Space", "s", "1"]
    assert footer_keys("x\n esc Back  f1 Rules      ▏^p palette\n", 2) == []


def saved_game() -> Table:
    """The game as its record has it, replayed (the table talk narrated afresh)."""
    records = stored_records()
    assert len(records) == 1, records
    return Table.from_record(records[0])


def saved_turn() -> tuple[int | None, int, bool] | None:
    """From the game's record: the seat to play, how long the log is, and whether it's over
    (None before the game is recorded)."""
    if not stored_records():
        return None
    table = saved_game()
    return table.current_player(), len(table.log), table.over


def current_marker(screen: str) -> str | None:
    """The player (or side) marked as playing now (▸Name), if the screen shows one."""
    match = re.search(r"▸\s*(\w+)", screen)
    return match.group(1) if match else None


def settle(pane: Pane, before: str, timeout: float = 2) -> None:
    """Give the app time to answer a key: until the screen changes (a refusal repeated word
    for word changes nothing, so no change within `timeout` is not an error)."""
    with contextlib.suppress(AssertionError):
        wait_until(lambda: pane.capture() != before, timeout, "the screen to change")
    pane.check_alive()


@needs_tmux
@pytest.mark.parametrize("game_id", playable())
def test_a_newcomer_plays_one_turn_with_the_keys_the_footer_shows(game_id):
    name = get_game(game_id).name
    with Pane(80, 24) as pane:
        pane.start(cubilete("--game", game_id, "--seed", "11"), env={"TERM": "xterm-256color"})
        pane.wait_for(r"Start \(F2\)")
        assert f"{name.split()[0]}" in pane.capture()  # the lobby offers it
        pane.keys("F2")
        screen = pane.wait_for(re.escape(f"Cubilete — {name}"))
        starter, log_length, _over = wait_until(saved_turn, 10, "the game's record")
        marked = current_marker(screen)

        presses: list[str] = []
        while True:
            seat, _length, over = saved_turn() or (None, 0, False)
            if over or seat != starter:
                break
            assert len(presses) < MAX_PRESSES, f"no end of turn after {presses}:\n{screen}"
            screen = wait_until(
                lambda: (shown := pane.capture()) and footer_keys(shown) and shown,
                5,
                "the Footer to show a key to play with",
            )
            if re.search(r"\bYes \(y\)|\by Yes\b", screen):  # a question: the newcomer agrees
                key = "y"
            else:
                offered = footer_keys(screen)
                key = offered[len(presses) % len(offered)]
            presses.append(key)
            pane.keys(key)
            settle(pane, screen)

        seat, length, over = saved_turn() or (None, 0, False)
        assert length > log_length
        last_said = render(saved_game().log[-1])
        pane.wait_for(re.escape(last_said[:25]))  # the table talk tells what the turn did
        pane.wait_for(re.escape(f"Cubilete — {name}"))
        if marked is not None and not over:  # the screen shows who plays now: it moved on
            wait_until(
                lambda: current_marker(pane.capture()) not in (None, marked),
                5,
                f"the marker ▸ to move on from {marked}",
            )
        pane.check_alive()


# Loaded dice: the roll-off (Ana 6, Bruno 1: Ana starts), Ana's first throw 1 2 3 4 5, then the
# four dice she does not hold come up 6 6 6 6.
DICE = "6,1,1,2,3,4,5,6,6,6,6"


@needs_tmux
def test_a_newcomer_plays_a_generala_turn_with_the_mouse_only():
    with Pane(80, 24) as pane:
        pane.start(cubilete("--game", "generala", "--dice", DICE), env={"TERM": "xterm-256color"})
        pane.wait_for(r"Start \(F2\)")
        pane.click(*pane.find(r"Start \(F2\)"))
        pane.wait_for(r"Ana · round 1 of 13")

        column, row = pane.find(r"Throw ")
        pane.click(column + 1, row)
        pane.wait_for(r"Ana throws 1 2 3 4 5 \(throw 1 of 3\)")

        column, row = pane.find(r"─ 1 ─")  # die 1's numbered border; click its face
        pane.click(column + 1, row + 2)
        screen = pane.wait_for(r"Holding 1")
        assert "┏━ 1 ━┓" in screen  # held: a heavy border ...
        assert re.search(r"│\s+held\s", screen)  # ... and the word under it

        column, row = pane.find(r"Throw ")
        pane.click(column + 1, row)
        screen = pane.wait_for(r"Ana throws 1 6 6 6 6 \(throw 2 of 3\)")
        assert "┏━ 1 ━┓" in screen

        column, row = pane.find(r"Libre")
        pane.click(column + 2, row)
        pane.wait_for(r"Bruno · round 1 of 13")
        screen = pane.wait_for(r"Ana writes 25 in Libre")  # with the coach's rating, ≤ 0.3 s on
        assert re.search(r"Libre\s+25\s+·", screen)
        assert re.search(r"Total\s+25\s+0", screen)
        assert current_marker(screen) == "Bruno"

        pane.keys("C-q")
        assert pane.exit_status() == 0
