"""Options that do not apply with the others as they are (Barco's target when the game ends
by rounds, its stake when the margin is settled, Navio's chips when playing for points) are
dimmed and marked "(not used)", and the note under the sheet says why. Which option applies
when is the rules' metadata, carried by assets/catalog.json."""

from __future__ import annotations

from uihelpers import click_row, screen_strips, screen_text, sheet_to

from app.main import CubileteApp
from app.quiet.setup_sheet import NOTE_LINES, SetupSheet
from app.screens.lobby import LobbyScreen

NOT_USED = "(not used)"


def note(app: CubileteApp) -> str:
    """The note under the sheet's rows, as the screen shows it, its lines joined."""
    sheet = app.screen.query_one(SetupSheet)
    region = sheet.region
    rows = screen_text(app).splitlines()[region.y : region.bottom]
    lines = [row[region.x : region.right].strip() for row in rows[-NOTE_LINES:]]
    return " ".join(line for line in lines if line)


def row_of(app: CubileteApp, title: str) -> str:
    return next(row for row in screen_text(app).splitlines() if f" {title}  " in row)


def unused(app: CubileteApp) -> set[str]:
    """The options shown as not used (by their mark, which needs no colour), each of which
    is drawn dimmer than the first option, Game end or Rounds or Play for, which is used."""
    sheet = app.screen.query_one(SetupSheet)
    strips = screen_strips(app)
    titles = [field.title for field in sheet.fields]

    def label_colour(title: str) -> object:
        strip = next(strip for strip in strips if f" {title}  " in strip.text)
        segment = next(segment for segment in strip if title in segment.text)
        assert segment.style is not None
        return segment.style.color

    shown = {title for title in titles if NOT_USED in row_of(app, title)}
    used_colour = label_colour(titles[0])
    for title in titles:
        assert (label_colour(title) != used_colour) == (title in shown), title
    return shown


async def test_barco_dims_what_the_game_end_and_the_stakes_do_not_use() -> None:
    app = CubileteApp(game="barco")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert unused(app) == {"Target", "Stake", "Settlement", "Rate"}
        sheet = await sheet_to(pilot, "target")
        assert "Not used unless Game end is race" in note(app)
        await sheet_to(pilot, "end")
        await pilot.press("right")  # a race: the target counts, the rounds do not
        assert sheet.values()["end"] == "race"
        assert unused(app) == {"Rounds", "Stake", "Settlement", "Rate"}
        await sheet_to(pilot, "stakes")
        await pilot.press("space")  # chips: the pot's stake and the settlement count
        assert unused(app) == {"Rounds", "Rate"}
        await sheet_to(pilot, "settlement")
        await pilot.press("m")  # settled by the margin: the rate counts, the stake does not
        assert unused(app) == {"Rounds", "Stake"}
        await sheet_to(pilot, "stake")
        assert "Not used unless Play for chips is yes and Settlement is pot" in note(app)


async def test_by_mouse_a_click_on_play_for_chips_brings_the_stake_in() -> None:
    app = CubileteApp(game="barco")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await click_row(pilot, "stakes", "value")
        assert unused(app) == {"Target", "Rate"}
        await click_row(pilot, "rate")  # the cursor on a dimmed row: the note says why
        assert "Not used unless Play for chips is yes and Settlement is" in note(app)
        await click_row(pilot, "stakes", "value")
        assert unused(app) == {"Target", "Stake", "Settlement", "Rate"}


async def test_navio_for_points_dims_the_chips() -> None:
    app = CubileteApp(game="navio")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert unused(app) == set()
        await sheet_to(pilot, "mode")
        await pilot.press("right")
        assert unused(app) == {"Bankroll", "Ante"}
        await sheet_to(pilot, "ante")
        assert "Not used unless Play for is stakes" in note(app)


async def test_what_is_typed_into_an_unused_option_does_not_stop_the_game() -> None:
    app = CubileteApp(game="barco", animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        sheet = await sheet_to(pilot, "target")
        await pilot.press("backspace")  # an empty target, in a game that ends by rounds
        assert "target" not in sheet.values()
        await pilot.press("f2")
        await pilot.pause()
        assert not isinstance(app.screen, LobbyScreen)
        assert app.screen.table.state.options.target == 100  # type: ignore[attr-defined]
