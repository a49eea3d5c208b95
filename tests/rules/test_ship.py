"""The Ship-Captain-Crew turn that barco and navio share (seeds 000 and 001, RULES.md).

Ship (6), captain (5) and crew (4; barco's pilot) are set aside automatically and in order,
within three throws; the two other dice score.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rules import IllegalAction, get_game
from rules.ship import Hand, Reason, Reroll, Roll, Slot, Stop, collect

BARCO = get_game("barco")
NAVIO = get_game("navio")


def fresh_turn(game):
    """A game whose first player is about to make the first throw of a turn."""
    if game.min_players == 1:
        return game.new_game(["Ana"])
    state = game.new_game(["Ana", "Beto"])
    for die in ((6,), (1,)) if game.rolloff_dice == 1 else ((1,) * 5, (6,) * 5):
        state = game.apply_chance(state, die)
    return state


def throw(game, state, faces):
    """The current player throws what the cup holds and the dice come up `faces`."""
    return game.apply_chance(game.apply(state, Roll()), tuple(faces))


def fates(hand):
    return [(die.face, die.slot or die.scoring if die.kept else die.reason) for die in hand.last]


# -- the examples of the sources ------------------------------------------------------------


@pytest.mark.parametrize("game", [BARCO, NAVIO], ids=["barco", "navio"])
def test_six_five_four_on_the_first_throw_qualifies_at_once(game):
    state = throw(game, fresh_turn(game), (6, 5, 4, 3, 2))
    hand = state.hand
    assert hand.qualified
    assert hand.slots == {Slot.SHIP: True, Slot.CAPTAIN: True, Slot.CREW: True}
    assert hand.scoring == (3, 2)
    assert hand.score == 5
    assert Stop() in game.legal_actions(state)


def test_a_five_and_a_four_without_a_six_are_not_kept():
    state = throw(BARCO, fresh_turn(BARCO), (5, 4, 3, 2, 1))
    hand = state.hand
    assert hand.filled == 0
    assert fates(hand) == [
        (5, Reason.NEEDS_SHIP),
        (4, Reason.NEEDS_CAPTAIN),
        (3, Reason.NOT_NEEDED),
        (2, Reason.NOT_NEEDED),
        (1, Reason.NOT_NEEDED),
    ]
    assert BARCO.pending_throw(BARCO.apply(state, Roll())).count == 5


def test_two_sixes_keep_only_one_and_the_other_goes_back_into_the_cup():
    state = throw(BARCO, fresh_turn(BARCO), (6, 6, 3, 2, 1))
    assert state.hand.slots == {Slot.SHIP: True, Slot.CAPTAIN: False, Slot.CREW: False}
    assert fates(state.hand)[:2] == [(6, Slot.SHIP), (6, Reason.DUPLICATE)]
    assert BARCO.pending_throw(BARCO.apply(state, Roll())).count == 4


def test_a_six_and_a_five_are_kept_and_three_dice_are_thrown_again():
    state = throw(BARCO, fresh_turn(BARCO), (5, 6, 2, 2, 1))
    assert state.hand.filled == 2
    assert BARCO.pending_throw(BARCO.apply(state, Roll())).count == 3


def test_a_five_thrown_before_the_ship_does_not_count_when_the_ship_comes():
    state = throw(BARCO, fresh_turn(BARCO), (5, 3, 3, 2, 1))
    state = throw(BARCO, state, (6, 3, 3, 2, 1))
    assert state.hand.slots == {Slot.SHIP: True, Slot.CAPTAIN: False, Slot.CREW: False}
    state = throw(BARCO, state, (5, 4, 3, 2))
    assert state.last_turn.qualified
    assert state.last_turn.scoring == (3, 2)


def test_ship_captain_and_crew_count_in_one_throw_whatever_order_they_lie_in():
    filled, scoring, _ = collect(0, (4, 1, 5, 2, 6))
    assert (filled, scoring) == (3, (1, 2))


def test_extra_sixes_and_fours_become_scoring_dice_once_the_three_are_aside():
    filled, scoring, dice = collect(0, (6, 6, 5, 4, 4))
    assert filled == 3
    assert scoring == (6, 4)
    assert [die.scoring for die in dice] == [None, 0, None, None, 1]


def test_a_four_needs_the_captain_even_when_the_ship_is_aside():
    filled, _, dice = collect(1, (4, 4, 3, 1))
    assert filled == 1
    assert {die.reason for die in dice[:2]} == {Reason.NEEDS_CAPTAIN}


def test_an_extra_five_goes_back_as_a_duplicate():
    filled, _, dice = collect(0, (6, 5, 5, 1, 1))
    assert filled == 2
    assert [die.reason for die in dice] == [
        None,
        None,
        Reason.DUPLICATE,
        Reason.NOT_NEEDED,
        Reason.NOT_NEEDED,
    ]


def test_no_ship_captain_and_crew_after_three_throws_scores_nothing_and_ends_the_turn():
    state = fresh_turn(BARCO)
    for _ in range(3):
        state = throw(BARCO, state, (5, 4, 3, 2, 1))
    assert state.last_turn.throws == 3
    assert not state.last_turn.qualified
    assert state.last_turn.score == 0
    assert state.sheet[0] == (0,)
    assert state.hand.throws == 0


def test_the_last_throw_counts_even_when_it_is_lower():
    state = throw(BARCO, fresh_turn(BARCO), (6, 5, 4, 6, 6))
    state = BARCO.apply_chance(BARCO.apply(state, Reroll(dice=(0, 1))), (1, 1))
    assert state.hand.score == 2
    state = BARCO.apply(state, Stop())
    assert state.sheet[0] == (2,)


def test_qualifying_on_the_third_throw_ends_the_turn_without_a_choice():
    state = fresh_turn(BARCO)
    state = throw(BARCO, state, (1, 1, 1, 1, 1))
    state = throw(BARCO, state, (1, 1, 1, 1, 1))
    state = throw(BARCO, state, (6, 5, 4, 6, 6))
    assert state.last_turn.score == 12
    assert state.sheet[0] == (12,)


# -- what the player may do --------------------------------------------------------------------


def test_while_collecting_the_only_action_is_to_roll_again():
    state = throw(BARCO, fresh_turn(BARCO), (6, 3, 3, 2, 1))
    assert BARCO.legal_actions(state) == [Roll()]
    for action in (Stop(), Reroll(dice=(0,))):
        with pytest.raises(IllegalAction, match="come first"):
            BARCO.apply(state, action)


def test_a_turn_begins_with_a_roll_of_all_five_dice():
    state = fresh_turn(BARCO)
    assert BARCO.legal_actions(state) == [Roll()]
    assert str(BARCO.describe_action(state, Roll())) == "Throw all five dice"
    assert BARCO.pending_throw(BARCO.apply(state, Roll())).count == 5


def test_once_the_three_are_aside_rolling_the_cup_is_refused_and_nothing_changes():
    state = throw(BARCO, fresh_turn(BARCO), (6, 5, 4, 3, 2))
    with pytest.raises(IllegalAction, match="stop, or throw crew dice again"):
        BARCO.apply(state, Roll())
    assert state.hand.throws == 1


def test_the_tray_tells_which_dice_were_kept_and_why_the_others_went_back():
    state = throw(BARCO, fresh_turn(BARCO), (5, 6, 6, 1, 3))
    hand = state.hand
    assert [die.kept for die in hand.last] == [True, True, False, False, False]
    assert [die.reason for die in hand.last][2:] == [
        Reason.DUPLICATE,
        Reason.NOT_NEEDED,
        Reason.NOT_NEEDED,
    ]
    assert hand.history == (hand.last,)


def test_the_narration_explains_a_five_before_the_ship():
    before = BARCO.apply(fresh_turn(BARCO), Roll())
    after = BARCO.apply_chance(before, (5, 3, 3, 2, 1))
    lines = [str(line) for line in BARCO.narrate(before, (5, 3, 3, 2, 1), after)]
    assert lines == ["Ana throws 5 3 3 2 1 (throw 1 of 3)", "A 5 does not count before the ship"]


def test_the_same_throws_fill_the_same_tray_in_both_games():
    barco = throw(BARCO, throw(BARCO, fresh_turn(BARCO), (6, 1, 1, 2, 2)), (5, 4, 4, 3))
    navio = throw(NAVIO, throw(NAVIO, fresh_turn(NAVIO), (6, 1, 1, 2, 2)), (5, 4, 4, 3))
    assert barco.hand.model_dump() == navio.hand.model_dump()


def test_a_hand_refuses_to_roll_after_its_last_throw():
    hand = Hand(seat=0, limit=1).take(Roll(), BARCO.turn_rules).land((1, 1, 1, 1, 1))
    assert hand.finished
    with pytest.raises(IllegalAction, match="turn is over"):
        hand.take(Roll(), BARCO.turn_rules)


# -- the odds, exactly -------------------------------------------------------------------------


def qualify_odds_through_the_rules(game) -> list[Fraction]:
    """P(ship, captain and crew within 1, 2, 3 throws), walking every chance outcome.

    States after a throw are grouped by how many places are filled (all that matters for what
    follows), keeping one representative state per group.
    """
    start = fresh_turn(game)
    frontier = {0: (start, Fraction(1))}
    qualified = Fraction(0)
    odds = []
    for _ in range(3):
        following: dict[int, tuple[object, Fraction]] = {}
        for state, p in frontier.values():
            rolled = game.apply(state, Roll())
            for faces, q in game.chance_outcomes(rolled):
                after = game.apply_chance(rolled, faces)
                ended = after.turns_played > state.turns_played
                hand = after.last_turn if ended else after.hand
                if hand.qualified:
                    qualified += p * q
                elif not ended:
                    known, mass = following.get(hand.filled, (after, Fraction(0)))
                    following[hand.filled] = (known, mass + p * q)
        frontier = following
        odds.append(qualified)
    return odds


def qualify_odds_by_counting_faces() -> list[Fraction]:
    """The same odds from a four-state chain (0..3 places filled), counting all 6^k throws."""

    def places_after(filled: int, faces: tuple[int, ...]) -> int:
        for wanted in (6, 5, 4)[filled:]:
            if wanted not in faces:
                break
            filled += 1
        return filled

    step = [[Fraction(0)] * 4 for _ in range(4)]
    for filled in range(3):
        throws = list(product(range(1, 7), repeat=5 - filled))
        for faces in throws:
            step[filled][places_after(filled, faces)] += Fraction(1, len(throws))
    step[3][3] = Fraction(1)
    distribution = [Fraction(1), Fraction(0), Fraction(0), Fraction(0)]
    odds = []
    for _ in range(3):
        distribution = [
            sum((distribution[i] * step[i][j] for i in range(4)), Fraction(0)) for j in range(4)
        ]
        odds.append(distribution[3])
    return odds


@pytest.mark.parametrize("game", [BARCO, NAVIO], ids=["barco", "navio"])
def test_the_exact_odds_of_qualifying_within_one_two_and_three_throws(game):
    counted = qualify_odds_by_counting_faces()
    assert qualify_odds_through_the_rules(game) == counted
    # 6, 5 and 4 among five dice, by inclusion and exclusion: 1 - 3(5/6)^5 + 3(4/6)^5 - (3/6)^5
    assert counted[0] == 1 - 3 * Fraction(5, 6) ** 5 + 3 * Fraction(4, 6) ** 5 - Fraction(1, 2) ** 5
    assert counted[0] < counted[1] < counted[2] < 1
