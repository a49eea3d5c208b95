"""Shared tables through the real app: Pilot clients against a real `cubilete server` process.

Ana opens a Generala table from her lobby by keyboard, Bruno joins it from his by mouse,
Carla watches; they play the whole game on the server's dice (system randomness: the test
reads what was thrown from the screen's own table and fills the boxes top to bottom). A
player's keys on the other's turn and the spectator's keys are refused, changing nothing.

The three people reach the server over TCP as a front end does (the shared secret and their
user names): on the Unix socket one test process is one Unix user, hence one person.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from uihelpers import (
    click,
    log_text,
    notifications,
    screen_text,
    until,
    watch_updates,
)

from app.main import CubileteApp
from app.screens.confirm import ConfirmScreen
from app.screens.game import ChatInput
from app.screens.game_over import GameOverScreen
from app.screens.generala import GeneralaScreen
from app.screens.navio import NavioScreen
from app.screens.open_table import OpenTableScreen
from app.screens.waiting import WaitingScreen
from app.server.address import ServerAddress
from app.widgets.record_list import RecordList
from app.widgets.scoresheet import Scoresheet
from rules.generala import BOXES

sys.path.insert(0, str(Path(__file__).parents[1] / "server"))
from serverhelpers import SECRET, LineClient, answer, line_client, server_process, stop
from waiting import wait_until

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the server's socket is Linux's")


@pytest.fixture
def server():
    with server_process("--bot-pace", "0", tcp=True) as running:
        yield running
    assert running.process.returncode == 0, running.log()


def person(server, user: str) -> CubileteApp:
    address = ServerAddress(tcp=server.tcp, hello={"secret": SECRET, "user": user})
    return CubileteApp(animate=False, game="generala", server=address)


def bottom_row(app: CubileteApp) -> list[str]:
    """The key bar's entries (the palette left out)."""
    row = screen_text(app).split("\n")[-1]
    return [entry.strip() for entry in row.split("▏")[0].split("  ") if entry.strip()]


def table_list(app: CubileteApp) -> RecordList | None:
    found = app.screen.query("#tables")
    return found.first(RecordList) if found else None


async def click_list_button(pilot, selector: str, line: int, button: str) -> None:
    """Click a line's button (by its id) in a RecordList."""
    records = pilot.app.screen.query_one(selector, RecordList)
    width = records.scrollable_content_region.width
    spans = {button_id: start for button_id, start, _end in records._button_spans(width)}
    await click(pilot, selector, (spans[button] + 2, line + 1))


def generala(app: CubileteApp) -> GeneralaScreen | None:
    screen = app.screen
    return screen if isinstance(screen, GeneralaScreen) else None


def sheet_offset(box_index: int) -> tuple[int, int]:
    """Where a box's row is in the scoresheet widget: its border and header, then the rows."""
    return (4, 2 + box_index)


async def throw_and_fill(pilot, app: CubileteApp, box: int, by_mouse: bool) -> None:
    """One Generala turn of the person at `app`: one throw, then the box `box` (0 if need be)."""
    screen = generala(app)
    assert screen is not None and screen.persons_turn()
    table = screen.table
    seat = table.current_player()
    assert seat is not None
    filled = sum(value is not None for value in table.state.sheets[seat])
    before = len(table.events)
    if by_mouse:
        await click(pilot, "#throw")
    else:
        await pilot.press("space")
    await until(pilot, lambda: table.state.throws == 1, "the server's throw")
    assert len(table.events) > before
    if by_mouse:
        await click(pilot, "#sheet", sheet_offset(box))
    else:
        sheet = screen.query_one(Scoresheet)
        for _ in range(len(BOXES)):
            if sheet.cursor_key == BOXES[box].value:
                break
            await pilot.press("down")
        assert sheet.cursor_key == BOXES[box].value
        await pilot.press("enter")
    await pilot.pause()
    if "Write 0 in" in screen_text(app):
        if by_mouse:
            await click(pilot, "#yes")
        else:
            await pilot.press("y")
    written = lambda: sum(value is not None for value in table.state.sheets[seat]) > filled  # noqa: E731
    await until(pilot, written, "the box written")


async def test_two_people_and_a_spectator_play_a_whole_generala_game_on_the_servers_dice(server):
    ana, bruno, carla = person(server, "ana"), person(server, "bruno"), person(server, "carla")
    async with (
        ana.run_test(size=(80, 24)) as a,
        bruno.run_test(size=(80, 24)) as b,
        carla.run_test(size=(80, 24)) as c,
    ):
        # Ana opens a public table for two people by keyboard: F7, then F2 on the sheet
        await until(a, lambda: table_list(ana) is not None, "Ana's list of tables")
        assert "No table is open yet" in screen_text(ana)
        await a.press("f7")
        await until(a, lambda: isinstance(ana.screen, OpenTableScreen), "the open sheet")
        await a.press("f2")
        await until(a, lambda: isinstance(ana.screen, WaitingScreen), "Ana waiting")
        assert "Waiting for 1 more person" in screen_text(ana)
        # Bruno sees it in his lobby's list and joins it by mouse
        await until(b, lambda: (t := table_list(bruno)) is not None and t.lines, "the table")
        assert "Generala" in screen_text(bruno) and "ana, –" in screen_text(bruno)
        await click_list_button(b, "#tables", 0, "join")
        await until(a, lambda: generala(ana) is not None, "Ana's game")
        await until(b, lambda: generala(bruno) is not None, "Bruno's game")
        # Carla watches it, by keyboard: the list, then w
        await until(c, lambda: (t := table_list(carla)) is not None and t.lines, "the table")
        table_list(carla).focus()
        await c.press("w")
        await until(c, lambda: generala(carla) is not None, "Carla's view")

        players = {0: (ana, a, False), 1: (bruno, b, True)}
        names = generala(ana).table.players
        assert names == ("ana", "bruno")
        for box in range(len(BOXES)):
            for _turn in range(2):
                seat = generala(ana).table.current_player()
                in_step = lambda s=seat: generala(bruno).table.current_player() == s  # noqa: E731
                await until(b, in_step, "Bruno's table in step with Ana's")
                app, pilot, mouse = players[seat]
                other, other_pilot, _m = players[1 - seat]
                # the other person's key, and the spectator's, change nothing
                events = len(generala(ana).table.events)
                mover = generala(ana).table.players[seat]
                await until(
                    other_pilot,
                    lambda m=mover, o=other: (
                        f"{m} is playing: wait for your turn" in screen_text(o)
                    ),
                    "whose turn it is, on the other person's screen",
                )
                await other_pilot.press("space")
                assert "turn: wait for them" in screen_text(other)
                await c.press("space")
                assert "You are watching this table" in screen_text(carla)
                assert len(generala(ana).table.events) == events
                await throw_and_fill(pilot, app, box, mouse)
        await until(a, lambda: isinstance(ana.screen, GameOverScreen), "Ana's game over")
        await until(b, lambda: isinstance(bruno.screen, GameOverScreen), "Bruno's game over")
        await until(c, lambda: isinstance(carla.screen, GameOverScreen), "Carla's game over")
        rankings = [
            [
                [str(cell) for cell in one.screen.query_one("#ranking").get_row_at(row)]
                for row in (0, 1)
            ]
            for one in (ana, bruno, carla)
        ]
        assert rankings[0] == rankings[1] == rankings[2]
        # a rematch: r on the game-over screen, Ana first (she waits), then Bruno
        first_table = generala_table = ana.screen.table
        await a.press("r")
        await until(a, lambda: isinstance(ana.screen, WaitingScreen), "Ana waiting again")
        await until(b, lambda: "A rematch is open" in " ".join(notifications(bruno)), "news")
        await b.press("r")
        await until(a, lambda: generala(ana) is not None, "Ana's second game")
        await until(b, lambda: generala(bruno) is not None, "Bruno's second game")
        generala_table = generala(ana).table
        assert generala_table is not first_table and generala_table.players == ("ana", "bruno")
        await c.press("r")  # the spectator has no seat to take again: back to the lobby
        await until(c, lambda: table_list(carla) is not None, "Carla's lobby")
        # the server goes away: each is told, in one line, that the app is reconnecting (and
        # Carla's lobby too); when no server answers (for 4 s here, a minute by default), it
        # is lost, and Ana (at the rematch's game) is back in the lobby, which says the server
        # cannot be reached; nothing breaks
        for app in (ana, carla):
            assert app.remote is not None
            app.remote.reconnect_within = 4.0  # (the lobby looks every 2 s)
        assert stop(server) == 0
        reconnecting = "The server was lost: reconnecting…"
        await until(a, lambda: reconnecting in screen_text(ana), "Ana's status line")
        await until(c, lambda: reconnecting in " ".join(notifications(carla)), "Carla's")
        await until(c, lambda: f"Shared tables: {reconnecting}" in screen_text(carla), "lobby")
        await until(a, lambda: ana.remote is not None and ana.remote.lost, "Ana to notice")
        await until(c, lambda: carla.remote is not None and carla.remote.lost, "Carla too")
        await until(a, lambda: table_list(ana) is not None, "Ana's lobby")
        await until(a, lambda: "Shared tables: no Cubilete server" in screen_text(ana), "why")
        assert "No server answered for a minute" in " ".join(notifications(ana))


# -- the lobby's list and the open sheet, as they look ---------------------------------------
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@pytest.fixture
def busy_server(server):
    """Three tables: Ana's Generala waiting for a second person, Bruno's private Barco with a
    bot waiting for one more, and a Generala of two bots (a TV table) already over."""
    ana, bruno = line_client(server, "ana"), line_client(server, "bruno")
    ana.send(type="open_table", ref=1, game="generala", seats=[{"kind": "human"}] * 2)
    assert answer(ana, 1)["type"] == "opened"
    bruno.send(
        type="open_table",
        ref=1,
        game="barco",
        private=True,
        seats=[{"kind": "human"}, {"kind": "expert", "name": "Capitán"}, {"kind": "human"}],
    )
    assert answer(bruno, 1)["type"] == "opened"
    bots = [{"kind": "medium", "name": "Rita"}, {"kind": "easy", "name": "Tomás"}]
    ana.send(type="open_table", ref=2, game="generala", seats=bots, sit=None)
    assert answer(ana, 2)["type"] == "opened"

    def over() -> bool:
        ana.send(type="list_tables", ref=3)
        return answer(ana, 3)["tables"][-1]["status"] == "over"

    wait_until(over, 60, "the bots' game to end")
    yield server
    ana.close()
    bruno.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_lists_the_servers_tables(snap_compare, busy_server, size):
    async def listed(pilot):
        await until(pilot, lambda: (t := table_list(pilot.app)) and len(t.lines) == 3, "3 tables")
        await pilot.pause()

    app = person(busy_server, "carla")
    assert snap_compare(app, terminal_size=size, run_before=listed)


@pytest.mark.parametrize("size", SIZES)
def test_the_open_a_table_sheet(snap_compare, busy_server, size):
    async def opened(pilot):
        await until(pilot, lambda: table_list(pilot.app) is not None, "the list")
        await pilot.press("f7")
        await until(pilot, lambda: isinstance(pilot.app.screen, OpenTableScreen), "the sheet")
        await pilot.pause()

    app = person(busy_server, "carla")
    assert snap_compare(app, terminal_size=size, run_before=opened)


class Person(CubileteApp):
    """The app as a person runs it, counting the bells it rings."""

    def __init__(self, server, user: str) -> None:
        address = ServerAddress(tcp=server.tcp, hello={"secret": SECRET, "user": user})
        super().__init__(animate=False, game="generala", server=address)
        self.bells = 0

    def bell(self) -> None:
        self.bells += 1
        super().bell()


async def test_the_chat_line_is_plain_text_and_the_bell_rings_when_the_turn_comes(server):
    ana, bruno = Person(server, "ana"), Person(server, "bruno")
    async with ana.run_test(size=(80, 24)) as a, bruno.run_test(size=(80, 24)) as b:
        await until(a, lambda: table_list(ana) is not None, "Ana's list")
        await a.press("f7")
        await until(a, lambda: isinstance(ana.screen, OpenTableScreen), "the open sheet")
        await a.press("f3")  # a private table: its code is shown to pass on
        await until(a, lambda: isinstance(ana.screen, WaitingScreen), "Ana waiting")
        code = ana.screen.session.code
        assert code and f"invite code {code}" in screen_text(ana)
        await a.press("slash", *"who comes?", "enter")  # the waiting room has its chat too
        await until(a, lambda: "ana: who comes?" in screen_text(ana), "Ana's line")
        await until(b, lambda: (t := table_list(bruno)) is not None and t.lines, "the table")
        assert "private" in screen_text(bruno)
        await click_list_button(b, "#tables", 0, "join")
        await until(b, lambda: "is private" in screen_text(bruno), "the question of the code")
        await b.press(*code.lower(), "enter")
        await until(a, lambda: generala(ana) is not None, "Ana's game")
        await until(b, lambda: generala(bruno) is not None, "Bruno's game")
        # whoever is to move first heard the bell once; the other did not
        first = generala(ana).table.current_player()
        to_move, waiting = (ana, bruno) if first == 0 else (bruno, ana)
        await until(a, lambda: to_move.bells == 1, "the bell")
        assert waiting.bells == 0
        # Bruno talks: "/" gives the keys to the chat line, enter sends (the chat stays open
        # for the next line), esc closes it and gives the keys back; the key bar meanwhile
        # shows the chat's keys only
        await b.press("slash")
        await b.pause()
        assert bottom_row(bruno) == ["⏎ Send", "esc Close chat"]
        await b.press(*"[b]hi[/b]", "enter")
        await until(a, lambda: "bruno: [b]hi[/b]" in log_text(ana), "the line at Ana's")
        assert "ana: who comes?" in log_text(bruno)  # said before he came: the table's history
        assert "bruno: [b]hi[/b]" in log_text(bruno)
        assert isinstance(bruno.focused, ChatInput)  # still talking
        await b.press("x", "escape")
        await b.pause()
        assert generala(bruno) is not None  # esc in the chat line: back to the game, not out
        assert not isinstance(bruno.focused, ChatInput)
        assert "esc Lobby" in bottom_row(bruno)
        # leaving the table mid-game asks first: no keeps him at the table
        await b.press("escape")
        await until(b, lambda: isinstance(bruno.screen, ConfirmScreen), "the question")
        assert "Leave the table mid-game?" in screen_text(bruno)
        await b.press("n")
        await until(b, lambda: generala(bruno) is not None, "back at the table")
        # the turn passes: the other person's bell rings
        await throw_and_fill(a if to_move is ana else b, to_move, 0, by_mouse=False)
        await until(a, lambda: waiting.bells == 1, "the other bell")


async def test_the_list_of_tables_writes_nothing_while_the_tables_stay_the_same(busy_server):
    """The lobby asks the server every 2 s; a list that has not changed is not drawn again
    (over SSH every byte counts), and one that has is."""
    app = person(busy_server, "carla")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: (t := table_list(app)) and len(t.lines) == 3, "3 tables")
        await pilot.pause()
        written = []
        watch_updates(app, written.append)
        polls = app.screen.polls
        await until(pilot, lambda: app.screen.polls >= polls + 2, "two more listings", 10)
        await pilot.pause()
        assert written == []
        dana = line_client(busy_server, "dana")
        dana.send(type="open_table", ref=1, game="navio", seats=[{"kind": "human"}] * 2)
        assert answer(dana, 1)["type"] == "opened"
        await until(pilot, lambda: len(table_list(app).lines) == 4, "the new table", 10)
        await pilot.pause()
        assert written
        dana.close()


async def test_an_undo_is_asked_with_u_and_agreed_with_y(server):
    ana, bruno = person(server, "ana"), person(server, "bruno")
    async with ana.run_test(size=(80, 24)) as a, bruno.run_test(size=(80, 24)) as b:
        await until(a, lambda: table_list(ana) is not None, "Ana's list")
        await a.press("f7")
        await until(a, lambda: isinstance(ana.screen, OpenTableScreen), "the open sheet")
        await a.press("f2")
        await until(b, lambda: (t := table_list(bruno)) is not None and t.lines, "the table")
        await click_list_button(b, "#tables", 0, "join")
        await until(a, lambda: generala(ana) is not None, "Ana's game")
        await until(b, lambda: generala(bruno) is not None, "Bruno's game")
        seat = generala(ana).table.current_player()
        mover, mover_pilot, other, other_pilot = (
            (ana, a, bruno, b) if seat == 0 else (bruno, b, ana, a)
        )
        table = generala(mover).table
        await mover_pilot.press("space")
        await until(mover_pilot, lambda: table.state.throws == 1, "the throw")
        before = table.state
        libre = len(BOXES) - 1
        await click(mover_pilot, "#sheet", sheet_offset(libre))  # Libre scores the dice' sum
        await until(mover_pilot, lambda: table.state.sheets[seat][libre] is not None, "Libre")
        await mover_pilot.press("u")  # asks the other person
        await until(other_pilot, lambda: "asks to take back" in log_text(other), "the question")
        assert "y Agree to the undo" in screen_text(other)
        await other_pilot.press("y")
        await until(mover_pilot, lambda: table.state == before, "the decision taken back")
        other_table = generala(other).table
        await until(other_pilot, lambda: other_table.state == before, "on both tables")
        assert "takes back" in log_text(other)
        assert "y Agree" not in screen_text(other)  # nothing more to answer


def away_line(app: CubileteApp) -> str:
    found = app.screen.query("#away")
    if not found:
        return ""
    line = found.first()
    return str(line.render()) if line.display else ""


def countdown(app: CubileteApp) -> int | None:
    """The seconds the away line shows left (None: no countdown shown)."""
    import re

    found = re.search(r"a bot plays in (\d+):(\d\d)", away_line(app))
    return int(found[1]) * 60 + int(found[2]) if found else None


async def ana_and_bruno_at_a_table(server, a, ana: CubileteApp) -> tuple[LineClient, str]:
    """Ana opens a Generala table for two from her lobby; Bruno (a plain client) sits down."""
    await until(a, lambda: table_list(ana) is not None, "Ana's list")
    await a.press("f7")
    await until(a, lambda: isinstance(ana.screen, OpenTableScreen), "the open sheet")
    await a.press("f2")
    await until(a, lambda: isinstance(ana.screen, WaitingScreen), "Ana waiting")
    table = ana.screen.session.table_id
    bruno = line_client(server, "bruno")
    bruno.send(type="join", ref=1, table=table)
    assert answer(bruno, 1)["type"] == "joined"
    await until(a, lambda: generala(ana) is not None, "Ana's game")
    return bruno, table


@pytest.fixture
def holding_server():
    """A server that holds an away person's seat for 40 s."""
    with server_process("--bot-pace", "0", "--hold", "40", tcp=True) as running:
        yield running
    assert running.process.returncode == 0, running.log()


async def test_the_others_see_an_away_persons_countdown_tick_until_they_come_back(
    holding_server,
):
    ana = person(holding_server, "ana")
    async with ana.run_test(size=(80, 24)) as a:
        bruno, table = await ana_and_bruno_at_a_table(holding_server, a, ana)
        screen = generala(ana)
        assert away_line(ana) == "" and screen._away_timer is None  # nobody away: no timer
        bruno.close()  # his connection drops
        await until(a, lambda: countdown(ana) is not None, "the countdown")
        first = countdown(ana)
        assert 30 <= first <= 40 and "bruno is away" in away_line(ana)
        assert screen._away_timer is not None
        await until(a, lambda: countdown(ana) < first, "the countdown ticking", 5)
        assert "bruno is away" in log_text(ana)  # the talk says it once too
        # Ana opened the table: b (a bot for the away seat) is offered to her
        assert "b Seat to a bot" in screen_text(ana)
        back = line_client(holding_server, "bruno")
        back.send(type="join", ref=1, table=table)
        assert answer(back, 1)["type"] == "joined"
        await until(a, lambda: away_line(ana) == "", "the countdown gone")
        assert screen._away_timer is None  # and its timer with it
        assert "b Seat to a bot" not in screen_text(ana)
        back.close()


async def test_the_host_hands_an_away_persons_seat_to_a_bot_after_confirming(holding_server):
    ana = person(holding_server, "ana")
    async with ana.run_test(size=(80, 24)) as a:
        bruno, _table = await ana_and_bruno_at_a_table(holding_server, a, ana)
        screen = generala(ana)
        await a.press("b")  # nobody is away: refused, with the reason
        await a.pause()
        assert "Nobody is away" in screen_text(ana)
        bruno.close()
        await until(a, lambda: countdown(ana) is not None, "the countdown")
        await a.press("b")
        await until(a, lambda: "Hand bruno's seat to a bot now?" in screen_text(ana), "asked")
        await a.press("n")  # not yet: nothing changes
        await a.pause()
        assert not screen.table.seats[1].bot and countdown(ana) is not None
        await a.press("b")
        await until(a, lambda: "Hand bruno's seat to a bot now?" in screen_text(ana), "asked")
        await click(a, "#yes")
        await until(a, lambda: screen.table.seats[1].bot, "a bot in Bruno's seat")
        await until(a, lambda: away_line(ana) == "", "the countdown gone")
        assert screen._away_timer is None
        assert "A bot plays bruno's seat" in log_text(ana)


async def test_only_the_host_may_hand_a_seat_to_a_bot(holding_server):
    """Bruno, at Ana's table, sees no such key; pressed, it says why and asks the server
    nothing."""
    host = line_client(holding_server, "ana")
    host.send(type="open_table", ref=1, game="generala", seats=[{"kind": "human"}] * 3)
    opened = answer(host, 1)
    carla = line_client(holding_server, "carla")
    carla.send(type="join", ref=1, table=opened["table"]["id"])
    assert answer(carla, 1)["type"] == "joined"
    bruno = person(holding_server, "bruno")
    async with bruno.run_test(size=(80, 24)) as b:
        await until(b, lambda: (t := table_list(bruno)) is not None and t.lines, "the table")
        await click_list_button(b, "#tables", 0, "join")
        await until(b, lambda: generala(bruno) is not None, "Bruno's game")
        carla.close()
        await until(b, lambda: countdown(bruno) is not None, "Carla's countdown")
        assert "b Seat to a bot" not in screen_text(bruno)
        await b.press("b")
        await b.pause()
        assert "Only the table's host" in screen_text(bruno)
        assert not generala(bruno).table.seats[1].bot
    host.close()


def navio(app: CubileteApp) -> NavioScreen | None:
    screen = app.screen
    return screen if isinstance(screen, NavioScreen) else None


async def test_two_people_and_a_bot_play_a_round_of_navio_to_its_end(server):
    """Dora opens a one-round Navío for two people and Rita, an easy bot (a front end of her
    own: she does not play); Ana and Bruno join it from their lobbies and play it out with
    their keys, the server throwing every die and playing Rita."""
    dora = line_client(server, "dora")
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "easy", "name": "Rita"}]
    dora.send(type="open_table", ref=1, game="navio", seats=seats, options={"rounds": 1}, sit=None)
    opened = answer(dora, 1)
    assert opened["type"] == "opened", opened
    ana, bruno = person(server, "ana"), person(server, "bruno")
    async with ana.run_test(size=(80, 24)) as a, bruno.run_test(size=(80, 24)) as b:
        for app, pilot in ((ana, a), (bruno, b)):  # Ana sits first: seat 1, Bruno seat 2
            shown = lambda app=app: (t := table_list(app)) is not None and t.lines  # noqa: E731
            await until(pilot, shown, "Dora's table in the lobby")
            await click_list_button(pilot, "#tables", 0, "join")
        await until(a, lambda: navio(ana) is not None, "Ana's game")
        await until(b, lambda: navio(bruno) is not None, "Bruno's game")
        assert navio(ana).table.players == ("ana", "bruno", "Rita")
        tables = {0: navio(ana).table, 1: navio(bruno).table}
        pilots = {0: a, 1: b}
        watched = tables[0]
        game = watched.game
        turns = {0: 0, 1: 0}
        while not watched.over:
            seat = watched.current_player()
            if seat is None or seat == 2:  # dice on their way, or Rita (the server's bot)
                events = len(watched.events)
                await until(a, lambda e=events: len(watched.events) > e or watched.over, "news")
                continue
            mine, pilot = tables[seat], pilots[seat]
            await until(pilot, lambda s=seat, t=mine: t.current_player() == s, "in step")
            kinds = {action.kind for action in game.legal_actions(mine.state)}
            events = len(mine.events)
            await pilot.press("s" if "stop" in kinds else "space")
            await until(pilot, lambda e=events, t=mine: len(t.events) > e, "the server's answer")
            turns[seat] += 1
        assert turns[0] and turns[1]  # each person played
        await until(a, lambda: isinstance(ana.screen, GameOverScreen), "Ana's game over")
        await until(b, lambda: isinstance(bruno.screen, GameOverScreen), "Bruno's game over")
        assert tables[0].state == tables[1].state and tables[0].over
        rankings = [
            [str(cell) for row in range(3) for cell in ranking.get_row_at(row)]
            for ranking in (one.screen.query_one("#ranking") for one in (ana, bruno))
        ]
        assert rankings[0] == rankings[1]
        dora.send(type="list_tables", ref=2)
        (listed,) = answer(dora, 2)["tables"]
        assert listed["status"] == "over" and listed["events"] == len(tables[0].events)
    dora.close()


async def test_the_write_0_question_is_on_the_terminal_each_time_it_is_asked(server):
    """A long session at a shared table: at each of her turns Ana picks a box her dice score
    0 in, three times over, answering No, then writes it; meanwhile people come to watch
    and go, and chat (events from the server arrive between and during the questions). Each
    time the question is asked it is on her terminal (an emulated one, fed what the app
    writes), and the game under it when it is answered."""
    from emulated import Terminal

    from app.screens.confirm import ConfirmScreen
    from rules.generala import score

    dora = line_client(server, "dora")
    dora.send(
        type="open_table", ref=1, game="generala", seats=[{"kind": "human"}, {"kind": "medium"}],
        sit=None,
    )  # fmt: skip
    table_id = answer(dora, 1)["table"]["id"]
    ana = person(server, "ana")
    terminal = Terminal(ana)
    asked = 0
    ref = 10
    async with ana.run_test(size=terminal.size) as pilot:
        await until(pilot, lambda: (t := table_list(ana)) is not None and t.lines, "the table")
        await click_list_button(pilot, "#tables", 0, "join")
        screen = await until(pilot, lambda: generala(ana), "the game")
        table = screen.table
        sheet = screen.query_one(Scoresheet)
        while not table.over:
            await until(pilot, lambda: table.over or screen.persons_turn(), "Ana's turn")
            if table.over:
                break
            await pilot.press("space")
            await until(pilot, lambda: table.state.throws == 1, "the server's throw")
            mine = table.state.sheets[0]
            zero = next(
                (
                    i
                    for i, box in enumerate(BOXES)
                    if mine[i] is None and score(box, table.state.dice) == 0
                ),
                None,
            )
            if zero is None:  # (every free box scores: the first one)
                zero = next(i for i in range(len(BOXES)) if mine[i] is None)
            for _ in range(len(BOXES)):
                if sheet.cursor_key == BOXES[zero].value:
                    break
                await pilot.press("down")
            for time in range(4):
                ref += 1
                dora.send(type="watch" if ref % 2 else "leave", table=table_id, ref=ref)
                if ref % 5 == 0:
                    dora.send(type="chat", table=table_id, text=f"hola {ref}", ref=ref + 1000)
                await pilot.press("enter")
                await pilot.pause()
                if not isinstance(ana.screen, ConfirmScreen):
                    break  # (a box that scores: written)
                await until(pilot, lambda: not ana.screen.settling, "the question painted")
                await pilot.pause(0.05)
                asked += 1
                assert "Write 0 in" in "\n".join(terminal.screen.display), asked
                assert terminal.differences() == []
                await pilot.press("n" if time < 3 else "y")
                await until(pilot, lambda: ana.screen is screen, "the game again")
            filled = sum(value is not None for value in mine)
            await until(
                pilot,
                lambda n=filled: sum(v is not None for v in table.state.sheets[0]) > n,
                "the box written",
            )
    assert asked >= 20
    dora.close()
