"""A Generala turn in a real browser: Debian's headless Chromium driven by Playwright.

The page's terminal is drawn on a canvas, so the screen is read from what the websocket
carries, replayed through a terminal emulator (pyte). Clicks go to the cell where the screen
shows the thing a player would click: a die's numbered border, a scoresheet row.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("needs Debian's chromium (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("textual_serve", reason="cubilete web needs textual-serve")
pytest.importorskip("playwright.sync_api", reason="needs the playwright Python package")
pyte = pytest.importorskip("pyte", reason="needs pyte to read the terminal")

from playwright.sync_api import Page, sync_playwright  # noqa: E402
from webhelpers import alive, wait_until, web_server  # noqa: E402

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Loaded dice: the roll-off (Ana 6, Bruno 1: Ana starts), Ana's first throw 1 2 3 4 5, then the
# four dice she does not hold come up 6 6 6 6.
DICE = "6,1,1,2,3,4,5,6,6,6,6"


class Terminal:
    """The browser's terminal as text: the websocket's frames replayed through pyte."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.frames: list[bytes] = []
        self.ws_urls: list[str] = []
        self.screen: pyte.Screen | None = None
        self.fed = 0
        page.on("websocket", self._on_websocket)

    def _on_websocket(self, ws) -> None:  # type: ignore[no-untyped-def]
        self.ws_urls.append(ws.url)
        ws.on("framereceived", self._on_frame)

    def _on_frame(self, data: bytes | str) -> None:
        if isinstance(data, bytes):  # terminal output; text frames are protocol (pong...)
            self.frames.append(data)

    @property
    def size(self) -> tuple[int, int]:
        query = parse_qs(urlparse(self.ws_urls[0]).query)
        return int(query["width"][0]), int(query["height"][0])

    def lines(self) -> list[str]:
        if self.screen is None:
            cols, rows = self.size
            self.screen = pyte.Screen(cols, rows)
            self.stream = pyte.ByteStream(self.screen)
        for frame in self.frames[self.fed :]:
            self.stream.feed(frame)
        self.fed = len(self.frames)
        return list(self.screen.display)

    def text(self) -> str:
        return "\n".join(self.lines())

    def wait_for(self, pattern: str, timeout: float = 15) -> re.Match[str]:
        found: list[re.Match[str]] = []

        def seen() -> bool:
            self.page.wait_for_timeout(50)  # let Playwright deliver the frames
            match = re.search(pattern, self.text())
            if match:
                found.append(match)
            return match is not None

        try:
            wait_until(seen, timeout, repr(pattern), step=0)
        except AssertionError:
            raise AssertionError(f"{pattern!r} not on screen:\n{self.text()}") from None
        return found[0]

    def find(self, pattern: str) -> tuple[int, int]:
        """(column, row) of the first match of `pattern` on screen."""
        for row, line in enumerate(self.lines()):
            match = re.search(pattern, line)
            if match:
                return match.start(), row
        raise AssertionError(f"{pattern!r} not on screen:\n{self.text()}")

    def line(self, pattern: str) -> str:
        return self.lines()[self.find(pattern)[1]]

    def click(self, column: int, row: int) -> None:
        """Click the middle of one terminal cell."""
        cols, rows = self.size
        box = self.page.locator("#terminal .xterm-screen").bounding_box()
        assert box is not None
        cell_w, cell_h = box["width"] / cols, box["height"] / rows
        self.page.mouse.click(box["x"] + (column + 0.5) * cell_w, box["y"] + (row + 0.5) * cell_h)


def test_a_generala_turn_in_a_browser_tab(tmp_path: Path):
    flags = ("--game", "generala", "--dice", DICE)
    with web_server(tmp_path, *flags) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_page(viewport={"width": 1000, "height": 640})
            failed: list[str] = []
            requested: list[str] = []
            page.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
            page.on("request", lambda r: requested.append(r.url))
            page.on("response", lambda r: r.ok or failed.append(f"{r.url}: HTTP {r.status}"))
            terminal = Terminal(page)

            page.goto(server.url, wait_until="domcontentloaded")
            page.wait_for_selector("body.-first-byte", timeout=20_000)
            cols, rows = terminal.size
            assert cols >= 80 and rows >= 24, terminal.size
            terminal.wait_for(r"Start \(F2\)")
            (app_pid,) = server.apps()
            assert page.title() == "Cubilete"

            page.focus("#terminal .xterm-helper-textarea")  # where xterm.js takes keys
            page.keyboard.press("F2")
            terminal.wait_for(r"Ana · round 1 of 13")

            page.keyboard.press("Space")  # throw with a key
            terminal.wait_for(r"Ana · round 1 of 13 · throw 1 of 3")

            column, row = terminal.find(r"─ 1 ─")  # die 1's numbered top border
            terminal.click(column + 1, row + 2)  # the middle of its face
            terminal.wait_for(r"Holding 1")
            assert terminal.find(r"┏━ 1 ━┓")  # held: a heavy border ...
            assert terminal.find(r"^│  held ")  # ... and the word under the die

            page.keyboard.press("r")  # throw again with a key: die 1 stays
            terminal.wait_for(r"Ana · round 1 of 13 · throw 2 of 3")
            terminal.wait_for(r"Ana throws 1 6 6 6 6 \(throw 2 of 3\)")
            assert terminal.find(r"┏━ 1 ━┓")

            column, row = terminal.find(r"Libre")  # fill a box by clicking it
            terminal.click(column + 2, row)
            terminal.wait_for(r"Bruno · round 1 of 13")
            assert re.search(r"Libre\s+25\s+·", terminal.line(r"Libre")), terminal.text()
            assert re.search(r"Total\s+25\s+0", terminal.line(r"Total")), terminal.text()
            terminal.wait_for(r"Ana writes 25 in Libre")  # the table talk agrees (with the rating)

            assert failed == [], failed
            assert requested and all(url.startswith(server.url) for url in requested), requested

            page.close()  # the tab goes away: the app must follow within 10 s
            wait_until(lambda: not alive(app_pid), 10, "the app process to be gone")
            assert server.apps() == []
        finally:
            browser.close()
    assert server.stdout.read_bytes() == b""


def test_tabs_that_find_every_table_taken_are_told_so_on_a_page_of_their_own(tmp_path: Path):
    """Four tabs load the page at once, while both tables are free; the two whose game then
    finds no seat are sent to the "full" page instead of a terminal covered by "Session ended"."""
    with web_server(tmp_path, "--max-sessions", "2") as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            pages = [browser.new_page(viewport={"width": 1000, "height": 640}) for _ in range(4)]
            held: list = []  # the page's script, held until every tab has its page
            for page in pages:
                page.route("**/static/js/textual.js", lambda route: held.append(route))
            terminals = [Terminal(page) for page in pages]
            for page in pages:
                page.goto(server.url, wait_until="commit")
            wait_until(lambda: pages[0].wait_for_timeout(20) or len(held) == 4, 20, "4 pages")
            for route in held:
                route.continue_()

            def settled() -> bool:
                for page in pages:
                    page.wait_for_timeout(25)
                return (
                    sum("/busy" in page.url for page in pages) == 2
                    and sum("Start (F2)" in terminal.text() for terminal in terminals) == 2
                )

            wait_until(settled, 30, "two tables and two 'full' pages", step=0)
            for page in pages:
                if "/busy" in page.url:
                    page.wait_for_load_state()
                    assert page.title() == "Cubilete is full"
                    assert "All 2 tables are taken" in page.inner_text("body")
                else:
                    assert page.title() == "Cubilete"
                    assert "-closed" not in (page.get_attribute("body", "class") or "")
            assert len(server.apps()) == 2
        finally:
            browser.close()
