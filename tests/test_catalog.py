"""The lobby's catalogue of games is the rules' own description, kept as plain data."""

import json
import subprocess
import sys

from app.catalog import CATALOG, build, catalog, dumps
from rules import GAMES


def test_the_shipped_catalogue_matches_the_rules() -> None:
    # If this fails, a game's options or player counts changed: run `python -m app.catalog`.
    assert CATALOG.read_text(encoding="utf-8") == dumps(build())


def test_every_game_is_in_the_catalogue_with_its_player_counts() -> None:
    info = catalog()
    assert list(info) == list(GAMES)
    for game_id, game in GAMES.items():
        assert (info[game_id].min_players, info[game_id].max_players) == (
            game.min_players,
            game.max_players,
        )
        assert info[game_id].name == game.name


def test_option_defaults_are_valid_options() -> None:
    for game_id, game in GAMES.items():
        defaults = {field.name: field.default for field in catalog()[game_id].options}
        assert game.options_model.model_validate(defaults) == game.options_model()


def test_choices_and_kinds_follow_the_model() -> None:
    barco = {field.name: field for field in catalog()["barco"].options}
    assert barco["end"].kind == "choice" and barco["end"].choices == ("rounds", "race")
    assert barco["stakes"].kind == "bool"
    assert barco["rate"].kind == "float"
    assert barco["rounds"].kind == "int" and barco["rounds"].default == 10
    assert catalog()["generala"].options == ()


def test_which_option_applies_when_comes_from_the_rules() -> None:
    barco = {field.name: field for field in catalog()["barco"].options}
    assert barco["end"].applies_when == ()
    assert barco["target"].applies_when == (("end", "race"),)
    assert barco["stake"].applies_when == (("stakes", True), ("settlement", "pot"))
    assert not barco["target"].applies({"end": "rounds"})
    assert barco["rate"].applies({"stakes": True, "settlement": "margin"})


def test_reading_the_catalogue_loads_no_rules() -> None:
    code = (
        "import sys, app.catalog as c; c.catalog(); "
        "print(sorted(m for m in sys.modules if m == 'pydantic' or m.startswith('rules.')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.replace("'", '"')) == ["rules.errors"]
