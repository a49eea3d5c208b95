"""`LANG=es_AR.UTF-8 cubilete` and `LANG=pt_PT.UTF-8 cubilete` open in those languages, in a
real terminal; F4 switches the language on the spot."""

from __future__ import annotations

from termhelpers import Pane, cubilete, needs_tmux


@needs_tmux
def test_the_environments_language_opens_the_lobby_and_f4_switches_it():
    with Pane(80, 24) as pane:
        pane.start(cubilete("--no-animation"), env={"LANG": "es_AR.UTF-8"})
        screen = pane.wait_for(r"Empezar \(F2\)")
        assert "Cubilete — Sala" in screen and "Idioma: Español" in screen
        pane.keys("F4")  # Español → Português
        screen = pane.wait_for(r"Começar \(F2\)")
        assert "Idioma: Português" in screen and "Empezar" not in screen


@needs_tmux
def test_a_portuguese_locale_of_portugal_reads_the_portuguese_catalogue():
    with Pane(80, 24) as pane:
        pane.start(cubilete("--no-animation"), env={"LANG": "pt_PT.UTF-8"})
        screen = pane.wait_for(r"Começar \(F2\)")
        assert "Cubilete — Sala" in screen and "f2 Começar" in screen
