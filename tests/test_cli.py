"""The command line: bad input is a clear error on stderr, never a crash or a silent fallback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.cli import build_parser, game_args


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


def test_a_die_face_out_of_range_is_refused_with_the_reason():
    result = run("--dice", "3,7,2")
    assert result.returncode == 2
    assert "'7' is not a die face (1 to 6)" in result.stderr
    assert result.stdout == ""


def test_loaded_and_seeded_dice_do_not_mix():
    result = run("--dice", "1,2", "--seed", "3")
    assert result.returncode == 2
    assert "--dice and --seed cannot be used together" in result.stderr


def test_an_unknown_game_is_refused():
    result = run("--game", "chess")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr


def test_python_dash_m_app_is_the_cubilete_command():
    result = run("--help")
    assert result.returncode == 0
    assert "cubilete" in result.stdout
    assert "--dice" in result.stdout


@pytest.mark.parametrize("faces", ["٣", "²", "３", "3,٣", "03", "+3", "3.0", "1_2"])
def test_only_ascii_digits_are_die_faces(faces):
    """`--dice ٣` (an Arabic-Indic three) was read as 3, and `--dice ²` got Python's message."""
    result = run("--dice", faces)
    assert result.returncode == 2
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("cubilete: error: argument --dice: '"), last
    assert last.endswith("' is not a die face (1 to 6)"), last
    assert "invalid literal" not in result.stderr


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--bot-pace", "٣", "'٣' is not a number of seconds"),
        ("--bot-pace", "nan", "'nan' is not a number of seconds"),
        ("--bot-pace", "1e3", "'1e3' is not a number of seconds"),
        ("--bot-pace", "1_0", "'1_0' is not a number of seconds"),
        ("--bot-pace", "3601", "3601.0 is not 0 to 3600 seconds"),
    ],
)
def test_numbers_are_ascii_decimals_with_our_own_message(flag, value, message):
    result = run(flag, value)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1].endswith(message), result.stderr


@pytest.mark.parametrize("port", ["٨٠٠٠", "８０００", "8_000", " 8000"])
def test_the_web_port_is_ascii_digits_too(port):
    result = run("web", "--port", port)
    assert result.returncode == 2
    assert f"{port!r} is not a whole number" in result.stderr


def test_the_bot_pace_passed_to_each_web_tab_reads_back_the_same():
    args = build_parser().parse_args(["--bot-pace", "0.000001"])
    again = build_parser().parse_args(game_args(args))
    assert again.bot_pace == args.bot_pace == 0.000001


HELP = {
    "en": ["usage: cubilete", "options:", "show this help message and exit", "--dice FACES"],
    "es": ["uso: cubilete", "opciones:", "muestra esta ayuda y sale", "--dice CARAS", "comandos:"],
    "pt": ["uso: cubilete", "opções:", "mostra esta ajuda e sai", "--seed SEMENTE", "comandos:"],
}


@pytest.mark.parametrize("language", list(HELP))
def test_the_help_is_written_in_the_language_asked_for(language):
    """argparse's own words too ("usage:", "options:"), and the metavars."""
    result = run("--lang", language, "--help")
    assert result.returncode == 0
    for words in HELP[language]:
        assert words in result.stdout
    if language != "en":
        assert "show this help" not in result.stdout and "usage:" not in result.stdout


@pytest.mark.parametrize(
    ("environment", "words"),
    [
        ({"LANG": "es_AR.UTF-8"}, "Cinco juegos de dados tradicionales en tu terminal."),
        ({"LANG": "pt_PT.UTF-8"}, "Cinco jogos de dados tradicionais no seu terminal."),
        ({"LANG": "pt_BR.UTF-8", "LANGUAGE": "es"}, "Cinco juegos de dados"),
        ({"LANG": "de_DE.UTF-8"}, "Five traditional dice games in your terminal."),
    ],
)
def test_the_help_follows_the_environment(environment, words):
    assert words in run("--help", env=environment).stdout


def test_the_web_commands_help_and_errors_are_translated_too():
    result = run("web", "--port", "99999", env={"LANG": "pt_PT.UTF-8"})
    assert result.returncode == 2
    assert "uso: cubilete web" in result.stderr
    assert "erro: argumento --port: 99999 não é uma porta (de 1 a 65535)" in result.stderr


def test_an_error_is_in_the_players_language():
    result = run("--dice", "3,9", env={"LANG": "es_AR.UTF-8"})
    assert result.returncode == 2
    refused = "cubilete: error: argumento --dice: '9' no es una cara de dado (de 1 a 6)"
    assert refused in result.stderr
    result = run("--game", "chess", "--lang", "es")
    assert "opción no válida: 'chess'" in result.stderr


def test_an_unknown_language_is_refused_in_english():
    result = run("--lang", "fr")
    assert result.returncode == 2
    assert "argument --lang: invalid choice: 'fr'" in result.stderr


def test_the_language_chosen_in_the_lobby_is_remembered_but_lang_wins(tmp_path):
    from app.settings import remember_language

    remember_language("pt", tmp_path / "settings.json")
    env = {"CUBILETE_DATA_DIR": str(tmp_path), "LANG": "es_AR.UTF-8"}
    assert "Cinco jogos de dados" in run("--help", env=env).stdout
    assert "Five traditional" in run("--lang", "en", "--help", env=env).stdout


def test_starting_the_game_does_not_load_the_shared_tables_protocol():
    """The command line of a game (no command, `web`, `replay`) is read without the server's
    command parsers: they load the shared tables' protocol, hence pydantic, ≈ 12 MiB and
    0.1 s of CPU before the lobby, which loads none of it (docs/performance.md)."""
    code = (
        "import sys; from app import cli; cli.use_cli_language([]); "
        "args = cli.parse_command_line(['--dice', '6,2', '--game', 'generala']); "
        "loaded = {'pydantic', 'app.server.protocol'} & set(sys.modules); "
        "print(args.dice, args.game, sorted(loaded))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "(6, 2) generala []"


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--dice", "6,2,3", "--no-animation"],
        ["--seed", "4", "--game", "generala", "--bot-pace", "0,5"],
        ["web", "--port", "8001", "--max-sessions", "3"],
        ["replay", "game.cubilete.json"],
        ["tables"],
        ["server", "--help"],
    ],
)
def test_a_command_line_is_read_as_the_full_parser_reads_it(argv):
    """`parse_command_line` reads what the parser without the server's commands can read as
    the full parser does; anything else (the server's commands, the help) the full one
    reads."""
    from app.cli import parse_command_line

    def read(parse) -> object:
        try:
            return vars(parse(list(argv)))
        except SystemExit as exit:
            return ("exit", exit.code)

    assert read(parse_command_line) == read(build_parser().parse_args)


def test_a_mistyped_command_is_told_with_every_command_there_is():
    result = run("tabels")
    assert result.returncode == 2
    assert "invalid choice: 'tabels'" in result.stderr
    assert "'web', 'replay', 'server', 'tables'" in result.stderr


@pytest.mark.parametrize("faces", ["1,,2", "1,2,", ",3"])
def test_an_empty_face_between_commas_is_refused(faces):
    """`--dice 1,,2` was read as 1,2: a typo silently changed the dice."""
    result = run("--dice", faces)
    assert result.returncode == 2
    last = result.stderr.strip().splitlines()[-1]
    empty = f"{faces!r} has an empty face: write the faces as 3,3,3,4,5"
    assert last == f"cubilete: error: argument --dice: {empty}"
    assert result.stdout == ""
