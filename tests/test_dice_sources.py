"""Where the app's dice come from (app/dice.py): the rules never roll, these sources do."""

from __future__ import annotations

import pytest

from app.dice import DiceExhausted, LoadedDice, RandomDice, SystemDice, parse_faces


def test_seeded_dice_repeat_the_same_throws_for_the_same_seed():
    first, second = RandomDice(2024), RandomDice(2024)
    throws = [first.roll(5) for _ in range(20)]
    assert throws == [second.roll(5) for _ in range(20)]


def test_a_text_seed_is_reproducible_too():
    assert RandomDice("demo").roll(30) == RandomDice("demo").roll(30)


def test_different_seeds_give_different_games():
    assert RandomDice(1).roll(30) != RandomDice(2).roll(30)


@pytest.mark.parametrize("source", [RandomDice(7), SystemDice()], ids=["seeded", "system"])
def test_dice_show_one_to_six_and_every_face_comes_up(source):
    faces = source.roll(600)
    assert len(faces) == 600
    assert set(faces) == {1, 2, 3, 4, 5, 6}


@pytest.mark.parametrize("count", [0, 1, 2, 3, 5])
def test_a_source_throws_as_many_dice_as_asked(count):
    assert len(SystemDice().roll(count)) == count
    assert len(RandomDice(3).roll(count)) == count


def test_loaded_dice_serve_their_faces_in_order():
    dice = LoadedDice([6, 5, 4, 3, 2, 1])
    assert dice.roll(1) == (6,)
    assert dice.roll(3) == (5, 4, 3)
    assert dice.left == 2
    assert dice.roll(2) == (2, 1)
    assert dice.left == 0


def test_loaded_dice_that_run_out_raise_and_consume_nothing():
    dice = LoadedDice([3, 3, 3])
    with pytest.raises(DiceExhausted, match="ran out"):
        dice.roll(5)
    assert dice.left == 3
    assert dice.roll(3) == (3, 3, 3)
    with pytest.raises(DiceExhausted):
        dice.roll(1)


@pytest.mark.parametrize("faces", [[0], [7], [1, 2, 9], [-1]])
def test_loaded_dice_refuse_a_face_that_is_not_on_a_die(faces):
    with pytest.raises(ValueError, match="1 to 6"):
        LoadedDice(faces)


def test_faces_are_read_from_a_comma_list():
    assert parse_faces("3,3,3,4,5") == (3, 3, 3, 4, 5)


def test_faces_may_be_separated_by_spaces():
    assert parse_faces("6 5, 4") == (6, 5, 4)


@pytest.mark.parametrize("text", ["", ",", "3,7", "0", "a,b", "3.5", "-1"])
def test_anything_but_die_faces_is_refused_clearly(text):
    with pytest.raises(ValueError):
        parse_faces(text)


@pytest.mark.parametrize("face", [3.0, True, "3"])
def test_loaded_dice_refuse_anything_but_whole_faces(face):
    with pytest.raises(ValueError):
        LoadedDice([1, face])


def test_real_play_draws_from_the_operating_systems_secure_generator():
    import secrets

    assert isinstance(SystemDice()._random, secrets.SystemRandom)
