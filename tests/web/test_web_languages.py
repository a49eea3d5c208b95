"""`cubilete web` answers each browser in its own language (its Accept-Language): the page,
the pages that turn a tab away, and the tab's game."""

from __future__ import annotations

import pytest

pytest.importorskip("textual_serve", reason="cubilete web needs textual-serve")
aiohttp = pytest.importorskip("aiohttp")

from test_web_server import first_output  # noqa: E402
from webhelpers import web_server  # noqa: E402

from app import i18n, web  # noqa: E402


def test_the_pages_words_are_the_browsers():
    template = (web.textual_serve_templates() / web.TEMPLATE_NAME).read_text(encoding="utf-8")
    page = web.offline_page(template)
    assert ">Session ended.<" not in page and "{{ words.ended }}" in page
    assert web.page_words("es") == {
        "start": "Empezar",
        "ended": "Terminó la sesión.",
        "restart": "Volver a empezar",
        "lang": "es",
    }
    assert web.page_words("pt")["ended"] == "A sessão terminou."
    assert i18n.current_language() == "en"  # the server keeps its own


async def test_a_spanish_browser_gets_a_spanish_page_and_game_and_a_portuguese_one_is_told_why(
    tmp_path,
):
    with web_server(tmp_path, "--max-sessions", "1", "--game", "generala") as server:
        ws_url = f"ws://127.0.0.1:{server.port}/ws?width=80&height=24"
        spanish = {"Accept-Language": "es-AR,es;q=0.9,en;q=0.5"}
        timeout = aiohttp.ClientTimeout(total=30)
        async with aiohttp.ClientSession(timeout=timeout, headers=spanish) as client:
            async with client.get(server.url) as page:
                text = await page.text()
                assert page.status == 200
                assert '<html lang="es"' in text and "Terminó la sesión." in text
            tab = await client.ws_connect(ws_url)
            await first_output(tab, b"Empezar (F2)")  # the game speaks Spanish
            portuguese = {"Accept-Language": "pt-BR,pt;q=0.9"}
            async with client.get(server.url, headers=portuguese) as full:
                assert full.status == 503
                assert "O Cubilete está lotado" in await full.text()
            await tab.close()
