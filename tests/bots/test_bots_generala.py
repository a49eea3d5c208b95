"""Generala's solver against an independent brute force, and its coach and bots."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest

from bots import Rating, Unit, coach, get_bot
from bots.generala import BOX_BIT, TABLE, Table, filled_mask, option_values
from rules.dice import throw_outcomes
from rules.generala import BOXES, Box, Fill, GeneralaState, Roll, score
from rules.rolloff import RollOff

ALL = frozenset(BOXES)


@cache
def brute_value(open_boxes: frozenset[Box]) -> float:
    """Expected points still to come with `open_boxes` free, at the start of a turn:
    plain expectimax over every throw, every held subset of positions and every box."""
    if not open_boxes:
        return 0.0
    return sum(float(p) * node(faces, 1, open_boxes) for faces, p in throw_outcomes(5))


@cache
def node(hand: tuple[int, ...], throws: int, open_boxes: frozenset[Box]) -> float:
    best = max(score(box, hand) + brute_value(open_boxes - {box}) for box in open_boxes)
    if throws < 3:
        for size in range(5):
            for hold in combinations(range(5), size):
                kept = tuple(sorted(hand[p] for p in hold))
                best = max(best, keep_value(kept, throws, open_boxes))
    return best


@cache
def keep_value(kept: tuple[int, ...], throws: int, open_boxes: frozenset[Box]) -> float:
    return sum(
        float(p) * node(tuple(sorted(kept + faces)), throws + 1, open_boxes)
        for faces, p in throw_outcomes(5 - len(kept))
    )


def mask_of(open_boxes: frozenset[Box]) -> int:
    return sum(BOX_BIT[box] for box in ALL - open_boxes)


REDUCED = [
    frozenset({Box.GENERALA, Box.SIXES}),
    frozenset({Box.FULL, Box.ESCALERA_ESCASA}),
    frozenset({Box.ONES, Box.LIBRE}),
    frozenset({Box.POKER, Box.TRIO, Box.FIVES}),
    frozenset({Box.ESCALERA_LARGA, Box.ESCALERA_ESCASA, Box.GENERALA}),
    frozenset({Box.TWOS, Box.FULL, Box.LIBRE}),
    frozenset({Box.ONES, Box.FULL, Box.POKER, Box.GENERALA}),
]


@pytest.mark.parametrize("open_boxes", REDUCED, ids=lambda s: "+".join(sorted(s)))
def test_the_solver_matches_brute_force_with_two_to_four_boxes_left(open_boxes):
    fresh = Table()  # solves only what the reduced sheet reaches
    assert fresh.value(mask_of(open_boxes)) == pytest.approx(brute_value(open_boxes), abs=1e-9)
    for box in open_boxes:
        rest = open_boxes - {box}
        assert fresh.value(mask_of(rest)) == pytest.approx(brute_value(rest), abs=1e-9)


def state_with(open_boxes, dice=(), throws=0, filled_with=3) -> GeneralaState:
    sheet = tuple(None if box in open_boxes else filled_with for box in BOXES)
    return GeneralaState(
        players=("Ana",),
        rolloff=RollOff.start(1, dice=1),
        round=14 - len(open_boxes),
        sheets=(sheet,),
        dice=dice,
        throws=throws,
    )


@pytest.mark.parametrize(
    ("open_boxes", "dice", "throws"),
    [
        (REDUCED[0], (6, 6, 2, 6, 1), 1),
        (REDUCED[1], (1, 2, 3, 3, 5), 2),
        (REDUCED[3], (5, 5, 5, 2, 2), 1),
        (REDUCED[4], (2, 3, 4, 5, 5), 1),
        (REDUCED[5], (2, 2, 6, 6, 1), 2),
        (REDUCED[5], (2, 2, 6, 6, 1), 3),
    ],
)
def test_every_option_is_valued_as_brute_force_values_it(open_boxes, dice, throws):
    state = state_with(open_boxes, dice, throws)
    total = state.total(0)
    options = coach("generala").options(state)
    for option in options:
        action = option.action
        if isinstance(action, Fill):
            expected = score(action.box, dice) + brute_value(open_boxes - {action.box})
        else:
            kept = tuple(sorted(dice[p] for p in action.hold))
            expected = keep_value(kept, throws, open_boxes)
        assert option.value == pytest.approx(total + expected, abs=1e-9), action


def test_the_first_throw_is_worth_the_sheets_value():
    state = state_with(REDUCED[2])
    ((action, value),) = option_values(state)
    assert action == Roll()
    assert value == pytest.approx(brute_value(REDUCED[2]), abs=1e-9)


def test_the_full_table_gives_the_opening_value():
    assert 214 < TABLE.value(0) < 216
    assert TABLE.value(0) == pytest.approx(215.2221348166, abs=1e-6)


def test_a_filled_sheet_is_read_from_the_state():
    sheet = (0, None, 6, None, None, None, None, None, None, None, None, None, 13)
    assert filled_mask(sheet) == 1 | 4 | (1 << 12)


def test_the_coach_ranks_a_made_generala_first_and_rates_scratching_it_a_blunder():
    state = state_with(ALL - {Box.SIXES}, (4, 4, 4, 4, 4), 1, filled_with=None)
    state = state.model_copy(update={"sheets": ((None,) * 13,), "round": 1})
    hint = coach("generala").hint(state)
    assert hint.unit is Unit.FINAL_SCORE
    assert hint.best.action == Fill(box=Box.GENERALA)
    assert hint.best.best and hint.best.loss == 0
    review = coach("generala").review(state, Fill(box=Box.ONES))
    assert review.rating is Rating.BLUNDER
    assert review.loss > 8


def test_options_are_the_rules_legal_actions_with_the_best_first():
    state = state_with(REDUCED[3], (5, 5, 5, 2, 2), 1)
    hint = coach("generala").hint(state)
    from rules.generala import Generala

    legal = Generala().legal_actions(state)
    assert sorted(repr(a) for o in hint.options for a in o.actions) == sorted(map(repr, legal))
    values = [o.value for o in hint.options]
    assert values == sorted(values, reverse=True)
    assert all(o.loss == pytest.approx(values[0] - o.value) for o in hint.options)
    assert get_bot("generala", "expert").choose(state) == hint.best.action


def test_the_casual_player_stands_on_a_made_hand_and_keeps_his_most_common_face():
    medium = get_bot("generala", "medium")
    full = state_with(ALL, (2, 2, 3, 3, 3), 1, filled_with=None)
    full = full.model_copy(update={"sheets": ((None,) * 13,), "round": 1})
    assert medium.choose(full) == Fill(box=Box.FULL)
    pairs = full.model_copy(update={"dice": (6, 1, 6, 2, 3)})
    assert medium.choose(pairs) == Roll(hold=(0, 2))


def test_a_table_computed_elsewhere_can_be_installed():
    values = TABLE.values()
    assert len(values) == 8192 and values[-1] == 0
    shipped = Table()
    shipped.load(values)
    assert shipped.value(0) == TABLE.value(0)
    state = state_with(REDUCED[3], (5, 5, 5, 2, 2), 1)
    assert option_values(state, shipped) == option_values(state, TABLE)
    with pytest.raises(ValueError):
        shipped.load(values[:-1])


def keep_rows(hint) -> list[str]:
    return [str(o.label) for o in hint.options if isinstance(o.action, Roll)]


def test_a_keep_of_equal_faces_from_other_dice_is_one_row():
    """5 4 2 5 2: a 5, the 4 and a 2 can be kept four ways (which 5, which 2), one decision."""
    state = state_with(REDUCED[3], (5, 4, 2, 5, 2), 1)
    hint = coach("generala").hint(state)
    rows = keep_rows(hint)
    assert rows.count("Keep 5 4 2, throw 2") == 1
    assert len(rows) == len(set(rows))
    # every multiset of up to four of the faces 5 5 4 2 2, once: 3 × 2 × 3 keeps but the five
    assert len(rows) == 3 * 2 * 3 - 1
    row = hint.option(Roll(hold=(0, 1, 2)))
    assert set(row.actions) == {Roll(hold=h) for h in [(0, 1, 2), (0, 1, 4), (1, 2, 3), (1, 3, 4)]}


def test_keeps_name_their_faces_highest_first_whatever_the_dice_order():
    state = state_with(REDUCED[3], (2, 5, 4, 5, 1), 1)
    hint = coach("generala").hint(state)
    assert str(hint.option(Roll(hold=(0, 1, 3))).label) == "Keep 5 5 2, throw 2"
    assert str(hint.option(Roll(hold=(2, 4))).label) == "Keep 4 1, throw 3"
    from rules.generala import Generala

    assert str(Generala().describe_action(state, Roll(hold=(4, 2)))) == "Keep 4 1, throw 3"


def test_a_review_maps_a_keep_to_its_decision_whichever_dice_hold_the_faces():
    """Holding dice 1, 2, 3 (faces 5 5 2) is the decision of holding 1, 3, 5 (5 2 5)."""
    state = state_with(REDUCED[3], (5, 5, 2, 1, 5), 1)
    first = coach("generala").review(state, Roll(hold=(0, 1, 2)))
    second = coach("generala").review(state, Roll(hold=(0, 2, 4)))
    unsorted = coach("generala").review(state, {"kind": "roll", "hold": [4, 2, 0]})
    assert first.option == second.option == unsorted.option
    assert first.loss == second.loss == unsorted.loss
    assert str(first.label) == "Keep 5 5 2, throw 2"


def test_the_first_throw_is_no_choice():
    state = state_with(REDUCED[3])
    hint = coach("generala").hint(state)
    assert hint.forced
    assert coach("generala").review(state, Roll()).forced
    assert not coach("generala").hint(state_with(REDUCED[3], (5, 4, 2, 5, 2), 1)).forced
