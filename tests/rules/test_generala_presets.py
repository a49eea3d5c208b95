"""Generala as it is played at home (issue 30): the Argentine sheet, its two presets' values,
and the house options — servido, a generala servida that wins, the escalera al as, the
Generala doble and "obligada" — each checked on the dice that make or break it."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import IllegalAction, InvalidOptions, get_game
from rules.generala import (
    BOXES,
    HOME_BOXES,
    Box,
    Fill,
    GeneralaOptions,
    Roll,
    sheet_boxes,
)

GAME = get_game("generala")
GENERALA = (4, 4, 4, 4, 4)


def game(players=("Ana",), **options):
    """A game on loaded dice; several players open with a roll-off won by the first."""
    state = GAME.new_game(list(players), options)
    if len(players) > 1:
        for face in range(len(players), 0, -1):
            state = GAME.apply_chance(state, (face,))
    return state


def throw(state, faces, hold=()):
    state = GAME.apply(state, Roll(hold=tuple(hold)))
    return GAME.apply_chance(state, tuple(faces))


def written(state, box, seat=0):
    return state.sheets[seat][state.boxes.index(box)]


def fill_after(state, box, *throws):
    """Throw each of `throws` in turn (a later throw re-throws all five dice), write `box`."""
    for faces in throws:
        state = throw(state, faces)
    return GAME.apply(state, Fill(box=box))


# -- the presets -----------------------------------------------------------------------------


def test_the_seed_is_the_default_and_written_as_before():
    options = GeneralaOptions()
    assert options.preset == "seed"
    assert (options.servido, options.servida_wins, options.generala_doble) == (0, False, False)
    assert sheet_boxes(options) == BOXES and len(BOXES) == 13
    assert options.model_dump() == {}


def test_argentina_is_eleven_boxes_uno_to_seis_then_the_made_hands():
    state = game(preset="argentina")
    assert state.boxes == HOME_BOXES
    assert [str(box) for box in state.boxes[6:]] == [
        "escalera",
        "full",
        "poker",
        "generala",
        "generala_doble",
    ]
    assert len(state.sheets[0]) == 11


def test_a_preset_brings_its_house_options_and_any_of_them_can_be_changed():
    argentina = GeneralaOptions(preset="argentina")
    assert (argentina.servido, argentina.servida_wins, argentina.generala_doble) == (5, True, True)
    assert not argentina.escalera_al_as and not argentina.obligada
    familia = GeneralaOptions(preset="familia")
    assert (familia.servido, familia.servida_wins, familia.generala_doble) == (10, True, True)
    changed = GeneralaOptions(preset="argentina", servido=10, generala_doble=False)
    assert changed.servido == 10 and len(sheet_boxes(changed)) == 10
    assert changed.model_dump() == {"preset": "argentina", "servido": 10, "generala_doble": False}
    assert GeneralaOptions.model_validate(changed.model_dump()) == changed


def test_an_unknown_preset_or_bonus_is_refused_with_the_field_named():
    with pytest.raises(InvalidOptions, match="preset"):
        GAME.options({"preset": "chile"})
    with pytest.raises(InvalidOptions, match="servido"):
        GAME.options({"preset": "argentina", "servido": 7})


@pytest.mark.parametrize(
    ("preset", "box", "dice", "points"),
    [
        ("argentina", Box.ESCALERA, (3, 1, 2, 5, 4), 20),
        ("argentina", Box.ESCALERA, (6, 2, 3, 4, 5), 20),
        ("argentina", Box.FULL, (2, 2, 6, 6, 6), 30),
        ("argentina", Box.POKER, (5, 5, 1, 5, 5), 40),
        ("argentina", Box.GENERALA, GENERALA, 50),
        ("argentina", Box.FOURS, (4, 4, 1, 4, 2), 12),
        ("familia", Box.ESCALERA, (3, 1, 2, 5, 4), 30),
        ("familia", Box.FULL, (2, 2, 6, 6, 6), 50),
        ("familia", Box.POKER, (5, 5, 1, 5, 5), 80),
        ("familia", Box.GENERALA, GENERALA, 100),
        ("familia", Box.SIXES, (6, 6, 1, 2, 3), 12),
    ],
)
def test_each_preset_values_its_boxes(preset, box, dice, points):
    """Made on the second throw: no servido."""
    state = fill_after(game(preset=preset), box, (1, 1, 2, 3, 6), dice)
    assert written(state, box) == points


def test_a_generala_is_a_poker_and_not_a_full():
    state = fill_after(game(preset="argentina"), Box.POKER, (1, 1, 2, 3, 6), GENERALA)
    assert written(state, Box.POKER) == 40
    state = fill_after(game(preset="argentina"), Box.FULL, (1, 1, 2, 3, 6), GENERALA)
    assert written(state, Box.FULL) == 0


@pytest.mark.parametrize("dice", [(1, 2, 3, 4, 6), (2, 2, 3, 4, 5), (1, 3, 4, 5, 6)])
def test_no_straight_without_five_in_a_row(dice):
    state = fill_after(game(preset="argentina"), Box.ESCALERA, (1, 1, 2, 3, 6), dice)
    assert written(state, Box.ESCALERA) == 0


def test_three_four_five_six_one_is_a_straight_only_with_the_escalera_al_as():
    al_as = (3, 4, 5, 6, 1)
    without = fill_after(game(preset="argentina"), Box.ESCALERA, (1, 1, 2, 3, 6), al_as)
    with_it = fill_after(
        game(preset="argentina", escalera_al_as=True), Box.ESCALERA, (1, 1, 2, 3, 6), al_as
    )
    assert (written(without, Box.ESCALERA), written(with_it, Box.ESCALERA)) == (0, 20)


def test_on_the_seeds_sheet_the_escalera_al_as_is_an_escalera_larga():
    al_as = (3, 4, 5, 6, 1)
    assert written(fill_after(game(), Box.ESCALERA_LARGA, al_as), Box.ESCALERA_LARGA) == 0
    with_it = fill_after(game(escalera_al_as=True), Box.ESCALERA_LARGA, al_as)
    assert written(with_it, Box.ESCALERA_LARGA) == 30


# -- servido ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        (Box.ESCALERA, (1, 2, 3, 4, 5), 25),
        (Box.FULL, (3, 3, 5, 5, 5), 35),
        (Box.POKER, GENERALA, 45),
    ],
)
def test_a_hand_written_after_the_first_throw_is_servido(box, dice, points):
    state = fill_after(game(preset="argentina", servida_wins=False), box, dice)
    assert written(state, box) == points


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        (Box.ESCALERA, (1, 2, 3, 4, 5), 20),
        (Box.FULL, (3, 3, 5, 5, 5), 30),
        (Box.POKER, GENERALA, 40),
    ],
)
def test_the_same_hand_made_on_a_later_throw_is_not_servido(box, dice, points):
    second = fill_after(game(preset="argentina"), box, (1, 1, 2, 3, 6), dice)
    third = fill_after(game(preset="argentina"), box, (1, 1, 2, 3, 6), (2, 2, 3, 5, 6), dice)
    assert written(second, box) == written(third, box) == points


def test_a_servido_kept_without_throwing_again_is_still_servido_only_if_written_at_once():
    """Holding all five is no throw: the only way to keep a servido is to write it now."""
    state = throw(game(preset="argentina"), (2, 2, 5, 5, 5))
    with pytest.raises(IllegalAction):
        GAME.apply(state, Roll(hold=(0, 1, 2, 3, 4)))
    assert written(GAME.apply(state, Fill(box=Box.FULL)), Box.FULL) == 35


@pytest.mark.parametrize(("servido", "points"), [(0, 30), (5, 35), (10, 40)])
def test_the_servido_bonus_is_an_option(servido, points):
    state = fill_after(game(preset="argentina", servido=servido), Box.FULL, (3, 3, 5, 5, 5))
    assert written(state, Box.FULL) == points


def test_familia_pays_ten_for_a_servido_and_numbers_or_a_zero_get_no_bonus():
    assert written(fill_after(game(preset="familia"), Box.FULL, (3, 3, 5, 5, 5)), Box.FULL) == 60
    assert written(fill_after(game(preset="familia"), Box.FIVES, (3, 3, 5, 5, 5)), Box.FIVES) == 15
    assert written(fill_after(game(preset="familia"), Box.POKER, (3, 3, 5, 5, 5)), Box.POKER) == 0


# -- Generala doble --------------------------------------------------------------------------


def test_a_generala_doble_scores_a_hundred_once_generala_holds_fifty():
    state = fill_after(game(preset="argentina"), Box.GENERALA, (1, 1, 2, 3, 6), GENERALA)
    assert written(state, Box.GENERALA) == 50
    state = fill_after(state, Box.GENERALA_DOBLE, (1, 1, 2, 3, 6), (2, 2, 2, 2, 2))
    assert written(state, Box.GENERALA_DOBLE) == 100


def test_a_generala_written_as_doble_while_generala_is_empty_scores_zero():
    state = fill_after(game(preset="argentina"), Box.GENERALA_DOBLE, (1, 1, 2, 3, 6), GENERALA)
    assert written(state, Box.GENERALA_DOBLE) == 0


def test_a_generala_doble_scores_zero_when_generala_was_crossed_out():
    state = fill_after(game(preset="argentina"), Box.GENERALA, (1, 1, 2, 3, 6))
    assert written(state, Box.GENERALA) == 0
    state = fill_after(state, Box.GENERALA_DOBLE, (1, 1, 2, 3, 6), GENERALA)
    assert written(state, Box.GENERALA_DOBLE) == 0


def test_familias_doble_is_two_hundred():
    state = fill_after(game(preset="familia"), Box.GENERALA, (1, 1, 2, 3, 6), GENERALA)
    state = fill_after(state, Box.GENERALA_DOBLE, (1, 1, 2, 3, 6), GENERALA)
    assert (written(state, Box.GENERALA), written(state, Box.GENERALA_DOBLE)) == (100, 200)


def test_without_the_doble_the_sheet_has_ten_boxes_and_no_doble_can_be_written():
    state = game(preset="argentina", generala_doble=False)
    assert Box.GENERALA_DOBLE not in state.boxes and len(state.sheets[0]) == 10
    state = throw(throw(state, (1, 1, 2, 3, 6)), GENERALA)
    assert Fill(box=Box.GENERALA_DOBLE) not in GAME.legal_actions(state)
    with pytest.raises(IllegalAction, match="no box 'Generala doble'"):
        GAME.apply(state, Fill(box=Box.GENERALA_DOBLE))


def test_a_box_of_the_other_sheet_is_refused_and_changes_nothing():
    state = throw(game(preset="argentina"), (1, 1, 2, 3, 6))
    before = state.model_copy(deep=True)
    with pytest.raises(IllegalAction, match="no box 'Libre'"):
        GAME.apply(state, Fill(box=Box.LIBRE))
    assert state == before
    with pytest.raises(IllegalAction, match="no box 'Escalera' "):
        GAME.apply(throw(game(), (1, 1, 2, 3, 6)), Fill(box=Box.ESCALERA))


def test_the_seeds_sheet_takes_a_generala_doble_after_its_generala():
    state = game(generala_doble=True)
    assert state.boxes[11:13] == (Box.GENERALA, Box.GENERALA_DOBLE) and len(state.boxes) == 14
    state = fill_after(state, Box.GENERALA, (1, 1, 2, 3, 6), GENERALA)
    state = fill_after(state, Box.GENERALA_DOBLE, (1, 1, 2, 3, 6), GENERALA)
    assert written(state, Box.GENERALA_DOBLE) == 100


# -- the generala servida --------------------------------------------------------------------


def test_a_generala_servida_ends_the_game_at_once_and_its_thrower_wins_alone():
    state = game(("Ana", "Beto"), preset="argentina")
    state = fill_after(state, Box.SIXES, (6, 6, 6, 2, 1), (6, 6, 6, 6, 1))  # Ana: 24
    assert not state.over and state.current == 1
    rolling = GAME.apply(state, Roll())
    state = GAME.apply_chance(rolling, (2, 2, 2, 2, 2))  # Beto: a servida worth less than 24
    assert state.over and GAME.is_over(state)
    assert GAME.current_player(state) is None and GAME.legal_actions(state) == []
    assert GAME.winners(state) == (1,)
    assert GAME.scores(state) == (24, 0)
    assert [str(line) for line in GAME.narrate(rolling, (2, 2, 2, 2, 2), state)] == [
        "Beto throws 2 2 2 2 2 (throw 1 of 3)",
        "Game over: Beto wins with a generala servida",
    ]


def test_a_generala_servida_wins_even_on_the_last_turn_against_a_tie():
    state = game(("Ana", "Beto"), preset="argentina", generala_doble=False)
    for _ in range(9):
        state = fill_after(state, state.next_box(state.current), (1, 1, 2, 3, 6))
        state = fill_after(state, state.next_box(state.current), (1, 1, 2, 3, 6))
    state = fill_after(state, Box.GENERALA, (1, 1, 2, 3, 6))
    state = throw(state, (3, 3, 3, 3, 3))
    assert state.over and GAME.winners(state) == (1,) and GAME.scores(state) == (13, 13)


def test_a_generala_on_a_later_throw_is_no_servida():
    state = throw(throw(game(("Ana", "Beto"), preset="argentina"), (1, 1, 2, 3, 6)), GENERALA)
    assert not state.over
    assert written(GAME.apply(state, Fill(box=Box.GENERALA)), Box.GENERALA) == 50


def test_with_servida_wins_off_a_servida_is_written_like_any_generala():
    state = throw(game(preset="argentina", servida_wins=False), GENERALA)
    assert not state.over
    assert written(GAME.apply(state, Fill(box=Box.GENERALA)), Box.GENERALA) == 50


def test_the_seeds_generala_servida_wins_nothing_unless_the_option_is_on():
    assert not throw(game(("Ana", "Beto")), GENERALA).over
    assert GAME.winners(throw(game(("Ana", "Beto"), servida_wins=True), GENERALA)) == (0,)


def test_a_servida_state_survives_a_save():
    state = throw(game(("Ana", "Beto"), preset="familia"), GENERALA)
    again = GAME.load_state(state.model_dump(mode="json"))
    assert again == state and GAME.winners(again) == (0,)


# -- obligada --------------------------------------------------------------------------------


def test_obligada_offers_only_the_next_box_top_to_bottom():
    state = throw(game(preset="argentina", obligada=True), (5, 5, 5, 2, 2))
    fills = [action for action in GAME.legal_actions(state) if isinstance(action, Fill)]
    assert fills == [Fill(box=Box.ONES)]
    state = GAME.apply(state, Fill(box=Box.ONES))
    state = throw(state, (5, 5, 5, 2, 2))
    assert [a for a in GAME.legal_actions(state) if isinstance(a, Fill)] == [Fill(box=Box.TWOS)]


def test_obligada_refuses_a_box_out_of_order_with_a_message_and_changes_nothing():
    state = throw(game(preset="argentina", obligada=True), (5, 5, 5, 2, 2))
    before = state.model_copy(deep=True)
    with pytest.raises(IllegalAction, match="in order: the next is 'Ones'"):
        GAME.apply(state, Fill(box=Box.FULL))
    assert state == before


def test_without_obligada_any_free_box_may_be_written():
    state = throw(game(preset="argentina"), (5, 5, 5, 2, 2))
    assert written(GAME.apply(state, Fill(box=Box.FULL)), Box.FULL) == 35


def test_an_eleven_box_game_lasts_eleven_rounds_and_narrates_them():
    state = game(("Ana", "Beto"), preset="argentina", servida_wins=False)
    state = fill_after(state, Box.ONES, (1, 1, 2, 3, 6))
    state2 = throw(state, (1, 1, 2, 3, 6))
    after = GAME.apply(state2, Fill(box=Box.ONES))
    lines = [str(line) for line in GAME.narrate(state2, Fill(box=Box.ONES), after)]
    assert lines[-1] == "Round 2 of 11"


# -- properties ------------------------------------------------------------------------------

OPTION_SETS = st.fixed_dictionaries(
    {
        "preset": st.sampled_from(["seed", "argentina", "familia"]),
        "servido": st.sampled_from([0, 5, 10]),
        "servida_wins": st.booleans(),
        "escalera_al_as": st.booleans(),
        "generala_doble": st.booleans(),
        "obligada": st.booleans(),
    }
)


def play_randomly(options, players, seed):
    """A whole game of random legal choices on random dice; every state met."""
    rng = random.Random(seed)
    state = GAME.new_game([f"P{i}" for i in range(players)], options)
    states = [state]
    while not GAME.is_over(state):
        pending = GAME.pending_throw(state)
        if pending is not None:
            state = GAME.apply_chance(state, tuple(rng.randint(1, 6) for _ in range(pending.count)))
        else:
            state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
        states.append(state)
    return states


@settings(max_examples=40, deadline=None)
@given(options=OPTION_SETS, players=st.integers(1, 3), seed=st.integers(0, 2**32 - 1))
def test_any_option_set_plays_one_box_a_round_never_a_negative_score(options, players, seed):
    states = play_randomly(options, players, seed)
    final = states[-1]
    boxes = len(final.boxes)
    assert all(v is None or v >= 0 for s in states for sheet in s.sheets for v in sheet)
    totals = GAME.scores(final)
    if final.servida:
        assert options["servida_wins"]
        assert final.dice and len(set(final.dice)) == 1 and final.throws == 1
        assert GAME.winners(final) == (final.current,)
    else:
        assert all(None not in sheet and len(sheet) == boxes for sheet in final.sheets)
        assert final.round == boxes
        best = max(totals)
        assert GAME.winners(final) == tuple(i for i, t in enumerate(totals) if t == best)
    filled = [sum(v is not None for v in sheet) for sheet in final.sheets]
    assert max(filled) - min(filled) <= 1
    if options["obligada"]:
        for sheet in final.sheets:
            given_ = [v is not None for v in sheet]
            assert given_ == sorted(given_, reverse=True)


def test_the_lobby_does_not_offer_the_presets_until_the_screens_show_them():
    from rules.barco import BarcoOptions
    from rules.model import in_lobby

    assert not any(in_lobby(GeneralaOptions, name) for name in GeneralaOptions.model_fields)
    assert all(in_lobby(BarcoOptions, name) for name in BarcoOptions.model_fields)
