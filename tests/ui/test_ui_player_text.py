"""A player's name is shown literally, everywhere, in every game, and on resume.

Names are the player's own text: markup in them must not be read (`[/]` raised MarkupError and
broke the save for good), and no character of them may reach the terminal as a control (ESC
would start an escape sequence). On screen a control character shows as its symbol (␛, ␊),
invisible formatting characters (zero-width, bidi overrides) are left out, and the rest is
drawn as written.

The lobby decides what a typed or pasted name may hold: only printable characters (control and
formatting characters are dropped as they arrive), at most 16 of them. A record (a SQLite
file in the data dir) or an old JSON save imported from an earlier version can still hold
anything, so every screen shows names through `app.widgets.plain`.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import unicodedata
from pathlib import Path

import pytest
from rich.cells import cell_len
from textual import events
from uihelpers import screen_text, sheet_to, until

from app.dice import RandomDice
from app.i18n import text_to_data
from app.main import CubileteApp
from app.records.events import Record
from app.records.recorder import StoreRecorder
from app.records.sqlite import SQLiteStore
from app.screens.barco import BarcoScreen
from app.screens.game import GameScreen
from app.screens.game_over import GameOverScreen
from app.screens.lobby import LobbyScreen
from app.settings import NAME_WIDTH
from app.table import Seat, Table
from app.widgets.plain import plain, visible
from app.widgets.record_list import RecordList

NAMES = {
    "a closing tag": "[/]",
    "a style tag": "[bold]x",
    "a link": "[link=http://x]y[/link]",
    "an escape sequence": "\x1b[31mred",
    "control characters": "a\x00\x07\x08\t\n\r\x7f\x9b\x85z",
    "200 characters": "Long" + "·" * 192 + "name",
    "right to left": "مريم \u202eevil",
    "emoji": "🎲 Ana 👨\u200d👩\u200d👧",
    "zero width": "Ze\u200bro\u200d\ufeffW",
}
GAMES = ("generala", "barco", "navio", "multiplicacion", "piratas")
OPTIONS = {"barco": {"rounds": 1}, "navio": {"rounds": 1}, "piratas": {"lives": 1}}
SEED = {"piratas": 75}
"""Dice that end a game of piratas between medium bots with one life each in 30 moves."""


def tables_of_names(game: str) -> list[list[str]]:
    """Every hostile name, seated at as few tables of this game as its player count allows."""
    names = list(NAMES.values())
    seats = 2 if game == "piratas" else 5
    groups = [names[i : i + seats] for i in range(0, len(names), seats)]
    if len(groups[-1]) < 2:
        groups[-1].append("Ana")
    return groups


def controls(text: str) -> set[str]:
    """Characters a terminal acts on instead of drawing (or, for formatting ones, may)."""
    return {c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")}


def drawn(app: CubileteApp) -> list[str]:
    """Every row the app draws now, as the terminal would receive its text."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def assert_nothing_raw(app: CubileteApp) -> list[str]:
    """The rows drawn now, none of them holding a control character."""
    rows = drawn(app)
    for row in rows:
        assert not controls(row), f"a control character reaches the terminal: {row!r}"
    return rows


def shown_names(app: CubileteApp, names: list[str], rows: list[str]) -> set[str]:
    """The names (their start, if long) on screen or in the log, as `visible` writes them."""
    log = app.screen.query("#log")
    lines = [strip.text for strip in log.first().lines] if log else []  # type: ignore[attr-defined]
    text = "\n".join([*rows, *lines])
    return {name for name in names if visible(name)[:6] in text}


# -- the one way names go on screen ----------------------------------------------------------
@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_plain_text_is_neither_markup_nor_control(name):
    shown = plain(name)
    assert shown.plain == visible(name)
    assert not controls(shown.plain)
    assert shown.spans == []  # no style read out of the text


def test_what_visible_makes_of_each_kind_of_character():
    assert visible("[/] Ana 🎲 مريم") == "[/] Ana 🎲 مريم"
    assert visible("\x1b[31m") == "␛[31m"
    assert visible("a\nb\tc\x7f") == "a␊b␉c␡"
    assert visible("\x9b1m") == "�1m"  # C1 CSI
    assert visible("Z\u200be\u202er\u2066o\ufeff") == "Zero"
    assert visible("x\ud800y") == "x�y"  # a lone surrogate (a save can hold one)
    assert visible("a\u2028b") == "a b"


# -- every game, whole, with hostile names -----------------------------------------------------
async def play_to_the_end(pilot, app: CubileteApp, names: list[str]) -> None:
    """Bots (pace 0) play every seat to the game-over screen, with the coach open; the screen
    is checked for raw controls at every move and every name must show at some point."""
    seen: set[str] = set()
    for _ in range(3000):
        await pilot.pause(0.01)
        seen |= shown_names(app, names, assert_nothing_raw(app))
        if isinstance(app.screen, GameOverScreen):
            break
    await pilot.pause()
    assert isinstance(app.screen, GameOverScreen), "the game did not end"
    seen |= shown_names(app, names, assert_nothing_raw(app))
    assert seen == set(names)


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_game_with_hostile_names_shows_them_literally(game):
    for names in tables_of_names(game):
        app = CubileteApp(dice=RandomDice(SEED.get(game, 1)), animate=False, bot_pace=0)
        async with app.run_test(size=(100, 34), notifications=True) as pilot:
            await pilot.pause()
            seats = [Seat(name=name, kind="medium") for name in names]
            app.start_game(game, seats, OPTIONS.get(game, {}))
            await pilot.pause()
            await pilot.press("h")  # the coach panel names the player to move
            await play_to_the_end(pilot, app, names)


def recorded(data_dir: Path, game: str, seats: list[Seat]) -> str:
    """A game just started with these seats, in the data dir's records as the app records
    its games (a record's names can hold anything: the records are a file anyone can edit)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    store = SQLiteStore(data_dir / "records.db")
    try:
        dice = RandomDice(SEED.get(game, 1))
        options = OPTIONS.get(game, {})
        table = Table.new(game, seats, options, dice=dice, recorder=StoreRecorder(store))
    finally:
        store.close()
    return table.save_id


def saved_by_hand(data_dir: Path, game: str, seats: list[Seat]) -> str:
    """The same game as a JSON save of an earlier version, written by hand: imported into
    the records at the app's start."""
    table = Table.new(game, seats, OPTIONS.get(game, {}), dice=RandomDice(SEED.get(game, 1)))
    saves = data_dir / "saves"
    saves.mkdir(parents=True)
    data = {
        "format": 1,
        "game": game,
        "save_id": "hostile",
        "seats": [seat.model_dump() for seat in table.seats],
        "state": table.state.model_dump(mode="json"),
        "log": [text_to_data(line) for line in table.log],
    }
    (saves / "game-hostile.json").write_text(json.dumps(data), encoding="utf-8")
    return "hostile"


def stored(data_dir: Path, record_id: str) -> Record:
    store = SQLiteStore(data_dir / "records.db")
    try:
        return store.load(record_id)
    finally:
        store.close()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("source", ["record", "old save"])
async def test_a_recorded_game_with_hostile_names_resumes_and_plays_on(
    source, game, private_data_dir
):
    """The lobby's list of unfinished games names their players; F3 resumes it from the records;
    the person in the first seat throws (space) or moves (enter); back in the lobby, it
    resumes again. The game comes from the records, or from an old JSON save imported."""
    names = tables_of_names(game)[0]
    seats = [Seat(name=names[0]), *(Seat(name=name, kind="medium") for name in names[1:])]
    write = recorded if source == "record" else saved_by_hand
    record_id = write(private_data_dir, game, seats)
    app = CubileteApp(dice=RandomDice(SEED.get(game, 1)), animate=False, bot_pace=0)
    async with app.run_test(size=(100, 34), notifications=True) as pilot:
        for _resume in range(2):
            await pilot.pause()
            assert isinstance(app.screen, LobbyScreen)
            rows = assert_nothing_raw(app)
            listed = app.screen.query_one("#unfinished", RecordList).render_line(0).text
            assert visible(names[0])[:6] in listed  # (the list of unfinished games)
            assert any(listed.strip() in row for row in rows)
            await pilot.press("f3")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            assert screen.table.save_id == record_id
            for _ in range(500):  # the bots play up to the person's turn
                if screen.table.current_player() == 0:
                    break
                await pilot.pause(0.01)
                assert_nothing_raw(app)
            assert screen.table.current_player() == 0
            before = screen.table.state
            await pilot.press("space")  # a throw in every game
            if screen.table.state == before:
                await pilot.press("enter")  # (piratas: the highlighted piece moves first)
            await pilot.pause()
            assert screen.table.state != before
            assert shown_names(app, names, assert_nothing_raw(app)) == set(names)
            await pilot.press("escape")
    record = stored(private_data_dir, record_id)  # the names kept as they were, the play too
    assert [(seat.name, seat.kind) for seat in record.header.seats] == [
        (seat.name, seat.kind) for seat in seats
    ]
    assert list(record.events) == screen.table.events
    assert Table.from_record(record).state == screen.table.state
    if source == "old save":
        saves = private_data_dir / "saves"
        assert not (saves / "game-hostile.json").exists()
        assert (saves / "imported" / "game-hostile.json").exists()


# -- what the lobby lets in ----------------------------------------------------------------
async def test_the_lobby_takes_brackets_as_they_are_and_drops_control_characters():
    app = CubileteApp(animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        sheet = await sheet_to(pilot, "seat-1")
        await pilot.press("[", "/", "]")
        assert sheet.seats()[0][0] == "[/]"
        await pilot.press("down")
        sheet.post_message(events.Paste("\x1b[31mR\x00e\u202ed\u200b\n"))
        await pilot.pause()
        assert sheet.seats()[1][0] == "[31mRed"  # ESC, NUL, the override, the zero-width gone
        text = screen_text(app)
        assert "[/]" in text and "[31mRed" in text
        assert_nothing_raw(app)


async def test_a_name_is_at_most_16_characters_long():
    app = CubileteApp(animate=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        sheet = await sheet_to(pilot, "seat-1")
        await pilot.press(*"abcdefghijklmnopqrstuvwxyz", "down")
        assert NAME_WIDTH == 16
        assert sheet.seats()[0][0] == "abcdefghijklmnop"
        assert " abcdefghijklmnop " in screen_text(app)


# -- wide characters: as many cells as the terminal gives them -------------------------------
WIDE = ["王小明", "x\u2764\ufe0fy", "Ana"]
"""Chinese (two cells a character) and a heart asked for as an emoji (VS16), which Textual
counts as two cells and terminals (tmux) draw in one."""


def test_a_name_is_drawn_in_its_default_presentation():
    assert visible("x\u2764\ufe0fy") == "x\u2764y"
    assert visible("\u263a\ufe0e") == "\u263a"
    assert visible("王小明 🎲") == "王小明 🎲"


async def test_wide_names_keep_the_scoresheet_heading_on_its_row():
    """The heading padded names by characters: a Chinese name made it wider than the sheet."""
    app = CubileteApp(dice=RandomDice(1), animate=False, bot_pace=100)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_game("generala", [Seat(name=name) for name in WIDE], {})
        await pilot.pause()
        rows = assert_nothing_raw(app)
        assert not any("\ufe0f" in row for row in rows)
        heading = next(row for row in rows if " Box " in row)
        assert all(visible(name) in heading for name in WIDE), heading
        sheet = app.screen.query_one("#sheet")
        lines = sheet.render().split()  # type: ignore[union-attr]
        assert {cell_len(line.plain) for line in lines} == {cell_len(lines[1].plain)}


async def test_a_wide_name_typed_in_the_lobby_fits_its_field():
    app = CubileteApp(animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        sheet = await sheet_to(pilot, "seat-1")
        await pilot.press(*"王小明王小明王小明王小明", "down")
        assert sheet.seats()[0][0] == "王小明王小明王小明王小明"
        row = next(line for line in screen_text(app).split("\n") if " 1  王" in line)
        assert "王小明王小明王…  ‹ Human" in row and "›" in row, row


async def test_the_last_throws_box_lines_up_wide_names():
    """The box padded names by characters: the dice after a Chinese name stood further right."""
    app = CubileteApp(dice=RandomDice(3), animate=False, bot_pace=0)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        seats = [Seat(name="王小明", kind="medium"), Seat(name="Ana", kind="medium")]
        app.start_game("barco", seats, {"rounds": 1})
        screen = app.screen
        assert isinstance(screen, BarcoScreen)
        for _ in range(500):  # the bots play on to the game's end
            await pilot.pause(0.01)
            if isinstance(app.screen, GameOverScreen):
                break
        lines = screen.last_throw_lines()
        assert len(lines) == 2, lines
        assert cell_len(lines[0]) == cell_len(lines[1]), lines  # the columns line up


async def test_the_unfinished_games_list_measures_names_in_cells(private_data_dir):
    """A name of wide characters (emoji, Chinese) takes two cells a character: the list of
    unfinished games cuts it by the cells it takes, so every line still ends with its
    Resume and Abandon buttons, and no line holds a control character."""
    names = ["🎲" * 30, "王" * 30 + "\x1b[31m"]
    seats = [Seat(name=names[0]), Seat(name=names[1], kind="medium")]
    recorded(private_data_dir, "generala", seats)
    app = CubileteApp(dice=RandomDice(1), animate=False, bot_pace=0)
    async with app.run_test(size=(100, 34)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        games = app.screen.query_one("#unfinished", RecordList)
        width = games.scrollable_content_region.width
        line = games.render_line(0)
        assert line.cell_length == width
        assert line.text.rstrip().endswith(" Resume   Abandon")
        assert "🎲" in line.text and not controls(line.text)
        assert_nothing_raw(app)


# -- the screens of the records: history, its replay, the statistics -------------------------
async def test_history_replay_and_statistics_show_hostile_names_literally(private_data_dir):
    """A finished game of players with hostile names: the history lists it (and filters by
    each player), its replay names them at every step, every view of the statistics lists
    them; nothing raw reaches the terminal on any of these screens, and every name shows."""
    from app.screens.history import HistoryScreen
    from app.screens.replay import ReplayScreen
    from app.screens.statistics import VIEWS, StatisticsScreen

    names = tables_of_names("generala")[0]
    app = CubileteApp(dice=RandomDice(1), animate=False, bot_pace=0)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await pilot.pause()
        app.start_game("generala", [Seat(name=name, kind="medium") for name in names], {})
        await play_to_the_end(pilot, app, names)
        app.switch_to_lobby()
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        seen = shown_names(app, names, assert_nothing_raw(app))
        for _player in names:  # the filter by player names each in turn
            await pilot.press("p")
            await pilot.pause()
            seen |= shown_names(app, names, assert_nothing_raw(app))
        assert seen == set(names)
        await pilot.press("p")  # (back to every player)
        await pilot.pause()
        app.screen.query_one(RecordList).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        seen = set()
        for _step in range(40):
            await pilot.press("right")
            await pilot.pause()
            seen |= shown_names(app, names, assert_nothing_raw(app))
        assert seen == set(names)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, StatisticsScreen)
        seen = set()
        for _player in range(len(names) + 1):  # each player's figures, and everyone's
            await pilot.press("p")
            await pilot.pause()
            seen |= shown_names(app, names, assert_nothing_raw(app))
        assert seen == set(names)
        for number in range(1, len(VIEWS) + 1):
            await pilot.press(str(number))
            await pilot.pause()
            assert_nothing_raw(app)


# -- names from the network: a server that sends hostile ones --------------------------------
HOSTILE = [name for name in NAMES.values() if len(name) <= 40]
"""The hostile names a server sends as its people's (the long one is tried above)."""


async def serve_hostile_names(path: Path) -> asyncio.Server:
    """A server of shared tables on the Unix socket `path` that names its people with the
    hostile names: the welcome, a table's host and seats in the list, and who sits down and
    chats at the table once joined. (A malicious server, or one relaying another's: the real
    `cubilete server` refuses such names, so a hostile one speaks the protocol here.)"""
    from app.server import protocol as p

    def entry() -> p.TableEntry:
        seats = [p.SeatEntry(name=name, kind="human", connected=True) for name in HOSTILE]
        seats[1] = p.SeatEntry(name=None, kind="human", connected=False)  # (the one free)
        return p.TableEntry(
            id="abc123", game="generala", host=HOSTILE[0], private=False, seats=seats,
            status="waiting", spectators=0, events=0,
        )  # fmt: skip

    limits = p.Limits(
        max_message_bytes=8192, max_chat_chars=200, messages_per_second=20, burst=40,
        idle_timeout=300,
    )  # fmt: skip

    async def talk(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while line := await reader.readline():
            request = p.decode_client(line)
            answers: list[p.Message] = [p.Done(ref=request.ref)]
            if isinstance(request, p.Hello):
                answers = [p.Welcome(ref=request.ref, server="x", user=HOSTILE[3],
                                     identity="unix", limits=limits)]  # fmt: skip
            elif isinstance(request, p.Ping):
                answers = [p.Pong(ref=request.ref)]
            elif isinstance(request, p.ListTables):
                answers = [p.Tables(ref=request.ref, tables=[entry()])]
            elif isinstance(request, p.Join):
                told: list[p.EventBody] = [
                    p.Seated(seat=seat, name=name) for seat, name in enumerate(HOSTILE) if seat != 1
                ]
                told += [p.ChatLine(seat=0, name=name, text=name) for name in HOSTILE]
                answers = [p.Joined(ref=request.ref, table=entry(), seat=1, seq=len(told))]
                answers += [
                    p.TableEvent(table="abc123", seq=seq, body=body)
                    for seq, body in enumerate(told, 1)
                ]
            for answer in answers:
                writer.write(p.encode(answer))
        writer.close()

    return await asyncio.start_unix_server(talk, path)


async def test_names_a_server_sends_are_shown_literally_in_the_lobby_and_at_the_table(
    tmp_path, private_data_dir
):
    """The shared tables' list names each table's host and people; the sheet to open a table,
    and the waiting screen's seats and table talk after joining: none lets a control
    character through, and every name shows."""
    from app.screens.open_table import OpenTableScreen
    from app.screens.waiting import WaitingScreen
    from app.server.address import ServerAddress

    path = Path(tempfile.mkdtemp(prefix="cs-", dir="/tmp")) / "s.sock"
    server = await serve_hostile_names(path)
    try:
        app = CubileteApp(animate=False, server=ServerAddress(path=path))
        async with app.run_test(size=(160, 40)) as pilot:
            tables = await until(pilot, lambda: app.screen.query("#tables"), "the tables")
            await until(pilot, lambda: "Generala" in str(tables.first().lines), "the table listed")
            rows = assert_nothing_raw(app)
            assert visible(HOSTILE[0])[:6] in "\n".join(rows)  # (its host)
            await pilot.press("f7")
            await until(pilot, lambda: isinstance(app.screen, OpenTableScreen), "the sheet")
            assert_nothing_raw(app)
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            tables = await until(pilot, lambda: app.screen.query("#tables"), "the tables")
            tables.first().focus()
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, WaitingScreen), "the table")
            await until(pilot, lambda: visible(HOSTILE[-1])[:6] in screen_text(app), "the talk")
            seats = app.screen.query_one("#table-seats").render()
            assert_nothing_raw(app)
            assert shown_names(app, HOSTILE, drawn(app)) == set(HOSTILE)
            assert not controls(str(seats))
    finally:
        server.close()
        await server.wait_closed()
