"""Generala's solver for every preset and house option (bots.generala_solver) against an
independent brute force on the rules' own scoring, against the seed's solver and its shipped
table, and the coach and the three bots on every preset."""

from __future__ import annotations

import random
import statistics
from functools import cache
from itertools import combinations, product

import pytest

from app import strategy_tables
from bots import coach, get_bot
from bots.generala import TABLE, option_values, preset_table
from bots.generala_solver import PresetTable, table_key
from kits import kit
from rules import get_game
from rules.dice import throw_outcomes
from rules.generala import (
    BOXES,
    Box,
    Fill,
    GeneralaOptions,
    GeneralaState,
    Roll,
    points,
    sheet_boxes,
)
from rules.rolloff import RollOff

GAME = get_game("generala")


# -- an independent brute force ----------------------------------------------------------


def brute(options: GeneralaOptions):
    """Plain expectimax over every throw, every held subset of positions and every box the
    rules let the player write, scored by `rules.generala.points`; a state is the boxes
    still open (in sheet order) and whether the Generala holds its points."""
    boxes = sheet_boxes(options)

    @cache
    def value(open_boxes: tuple[Box, ...], held: bool) -> float:
        if not open_boxes:
            return 0.0
        return sum(float(p) * node(faces, 1, open_boxes, held) for faces, p in throw_outcomes(5))

    def writable(open_boxes: tuple[Box, ...]) -> tuple[Box, ...]:
        return open_boxes[:1] if options.obligada else open_boxes

    @cache
    def write(hand: tuple[int, ...], throws: int, box: Box, open_boxes, held: bool) -> float:
        scored = points(options, box, hand, first_throw=throws == 1, generala_held=held)
        held_after = scored > 0 if box is Box.GENERALA else held
        return scored + value(tuple(b for b in open_boxes if b is not box), held_after)

    @cache
    def node(hand: tuple[int, ...], throws: int, open_boxes, held: bool) -> float:
        hand = tuple(sorted(hand))
        best = max(write(hand, throws, box, open_boxes, held) for box in writable(open_boxes))
        if throws < 3:
            for size in range(5):
                for hold in combinations(range(5), size):
                    kept = tuple(sorted(hand[p] for p in hold))
                    best = max(best, keep(kept, throws, open_boxes, held))
        return best

    @cache
    def keep(kept: tuple[int, ...], throws: int, open_boxes, held: bool) -> float:
        return sum(
            float(p) * node(tuple(sorted(kept + faces)), throws + 1, open_boxes, held)
            for faces, p in throw_outcomes(5 - len(kept))
        )

    return boxes, value, write, keep


def mask(boxes: tuple[Box, ...], open_boxes: tuple[Box, ...]) -> int:
    return sum(1 << i for i, box in enumerate(boxes) if box not in open_boxes)


ARGENTINA = GeneralaOptions(preset="argentina")
CASES = [
    (ARGENTINA, (Box.GENERALA, Box.GENERALA_DOBLE), False),
    (ARGENTINA, (Box.GENERALA_DOBLE, Box.POKER), True),
    (ARGENTINA, (Box.GENERALA_DOBLE, Box.FULL), False),
    (ARGENTINA, (Box.ESCALERA, Box.FULL, Box.SIXES), False),
    (GeneralaOptions(preset="argentina", escalera_al_as=True), (Box.ESCALERA, Box.ONES), False),
    (GeneralaOptions(preset="argentina", servido=10), (Box.FULL, Box.POKER, Box.TWOS), False),
    (GeneralaOptions(preset="familia"), (Box.GENERALA, Box.GENERALA_DOBLE, Box.FULL), False),
    (GeneralaOptions(preset="familia", generala_doble=False), (Box.POKER, Box.GENERALA), False),
    (GeneralaOptions(preset="argentina", obligada=True), (Box.POKER, Box.GENERALA), False),
    (GeneralaOptions(generala_doble=True, servido=5), (Box.GENERALA_DOBLE, Box.LIBRE), True),
    (GeneralaOptions(escalera_al_as=True), (Box.ESCALERA_LARGA, Box.ESCALERA_ESCASA), False),
]


def case_id(case) -> str:
    options, open_boxes, held = case
    return f"{table_key(options)}:{'+'.join(open_boxes)}{':held' if held else ''}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_solver_matches_brute_force_on_sheets_with_two_or_three_boxes_left(case):
    options, open_boxes, held = case
    boxes, value, _, _ = brute(options)
    if options.obligada:
        open_boxes = boxes[len(boxes) - len(open_boxes) :]
    table = PresetTable(options)
    assert table.value(mask(boxes, open_boxes), held) == pytest.approx(
        value(open_boxes, held), abs=1e-9
    )


def state_of(options, open_boxes, held, dice, throws):
    boxes = sheet_boxes(options)
    sheet = tuple(
        None
        if box in open_boxes
        else (options.generala_points if box is Box.GENERALA and held else 0)
        for box in boxes
    )
    return GeneralaState(
        players=("Ana",),
        options=options,
        rolloff=RollOff.start(1, dice=1),
        round=len(boxes) + 1 - len(open_boxes),
        sheets=(sheet,),
        dice=dice,
        throws=throws,
    )


DECISIONS = [
    (ARGENTINA, (Box.GENERALA, Box.GENERALA_DOBLE), False, (4, 4, 4, 4, 4), 2),
    (ARGENTINA, (Box.GENERALA_DOBLE, Box.FULL), True, (4, 4, 4, 4, 4), 1),
    (ARGENTINA, (Box.ESCALERA, Box.FULL, Box.SIXES), False, (2, 2, 6, 6, 6), 1),
    (ARGENTINA, (Box.ESCALERA, Box.FULL, Box.SIXES), False, (1, 2, 3, 4, 6), 2),
    (
        GeneralaOptions(preset="familia"),
        (Box.GENERALA, Box.GENERALA_DOBLE, Box.FULL),
        False,
        (3, 3, 3, 5, 5),
        1,
    ),
    (
        GeneralaOptions(preset="argentina", escalera_al_as=True),
        (Box.ESCALERA, Box.ONES),
        False,
        (1, 3, 4, 5, 6),
        1,
    ),
]


@pytest.mark.parametrize("decision", DECISIONS, ids=lambda d: case_id(d[:3]) + str(d[3:]))
def test_every_option_is_valued_as_brute_force_values_it(decision):
    options, open_boxes, held, dice, throws = decision
    _, _, write, keep = brute(options)
    state = state_of(options, open_boxes, held, dice, throws)
    total = state.total(0)
    hand = tuple(sorted(dice))
    hint = coach("generala").hint(state)
    assert {a for o in hint.options for a in o.actions} == set(GAME.legal_actions(state))
    for option in hint.options:
        action = option.action
        if isinstance(action, Fill):
            expected = write(hand, throws, action.box, open_boxes, held)
        else:
            kept = tuple(sorted(dice[p] for p in action.hold))
            expected = keep(kept, throws, open_boxes, held)
        assert option.value == pytest.approx(total + expected, abs=1e-9), action


def test_a_servido_is_worth_writing_at_once():
    """A full on the first throw with Full and Sixes open: 35 now beats chasing sixes."""
    state = state_of(ARGENTINA, (Box.FULL, Box.SIXES), False, (2, 2, 6, 6, 6), 1)
    assert coach("generala").best_action(state) == Fill(box=Box.FULL)


# -- the seed's game, solved the new way -------------------------------------------------


def test_the_numpy_solver_on_the_seeds_game_is_the_shipped_table():
    (seed,) = kit("generala").tables
    shipped = strategy_tables.read_table(*strategy_tables.table_files(seed))
    fresh = PresetTable(GeneralaOptions()).values()
    assert len(fresh) == len(shipped)
    assert max(abs(a - b) for a, b in zip(fresh, shipped, strict=True)) < 1e-9


def test_the_seeds_game_without_options_still_uses_the_shipped_tables_solver():
    state = GAME.new_game(["Ana"])
    state = GAME.apply_chance(GAME.apply(state, Roll()), (1, 2, 3, 4, 5))
    strategy_tables.prepare("generala")
    values = dict(option_values(state))
    escasa = 1 << BOXES.index(Box.ESCALERA_ESCASA)
    assert values[Fill(box=Box.ESCALERA_ESCASA)] == 40 + TABLE.value(escasa)
    assert table_key(GeneralaOptions()) not in _solved_keys()


def _solved_keys() -> set[str]:
    from bots.generala import PRESET_TABLES

    return set(PRESET_TABLES)


# -- the table's shape -------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        ARGENTINA,
        GeneralaOptions(preset="familia", generala_doble=False),
        GeneralaOptions(preset="argentina", obligada=True),
    ],
    ids=table_key,
)
def test_a_table_is_never_negative_and_nothing_is_left_on_a_full_sheet(options):
    table = PresetTable(options)
    values = table.values()
    assert min(values) >= 0 and table.value(table.full) == 0
    assert table.value(0) > table.value(1) >= 0
    again = PresetTable(options)
    again.load(values)
    assert again.value(0) == table.value(0)
    with pytest.raises(ValueError, match="values"):
        again.load(values[:-1])


def test_the_servida_option_does_not_change_the_table():
    """A servida is counted as its points: one table for both."""
    on = GeneralaOptions(preset="argentina", servida_wins=True)
    off = GeneralaOptions(preset="argentina", servida_wins=False)
    assert table_key(on) == table_key(off)
    assert preset_table(on) is preset_table(off)


def test_generala_held_is_worth_more_than_generala_crossed_out():
    table = preset_table(ARGENTINA)
    generala = 1 << sheet_boxes(ARGENTINA).index(Box.GENERALA)
    assert table.value(generala, True) > table.value(generala, False) + 5


# -- the bots on every preset ------------------------------------------------------------

PRESETS = [
    {"preset": "argentina"},
    {"preset": "familia"},
    {"preset": "argentina", "obligada": True, "escalera_al_as": True},
    {"generala_doble": True, "servido": 10, "servida_wins": True},
]


def play(options, levels, seed):
    rng = random.Random(seed)
    seats = [get_bot("generala", level, seed=i) for i, level in enumerate(levels)]
    state = GAME.new_game([f"P{i}" for i in range(len(seats))], options)
    while not GAME.is_over(state):
        pending = GAME.pending_throw(state)
        if pending is not None:
            faces = tuple(rng.randint(1, 6) for _ in range(pending.count))
            state = GAME.apply_chance(state, faces)
            continue
        seat = GAME.current_player(state)
        action = seats[seat].choose(state)
        assert action in GAME.legal_actions(state)
        if levels[seat] == "expert":
            assert action == coach("generala").best_action(state)
        state = GAME.apply(state, action)
    return state


@pytest.mark.parametrize("options", PRESETS, ids=lambda o: table_key(GeneralaOptions(**o)))
def test_the_three_bots_play_whole_games_of_every_preset(options):
    for seed in range(3):
        final = play(options, ["easy", "medium", "expert"], seed)
        assert GAME.winners(final)


def test_the_expert_outscores_the_medium_and_the_easy_bot_in_argentina():
    totals = {level: [] for level in ("easy", "medium", "expert")}
    options = {"preset": "argentina", "servida_wins": False}
    for seed in range(12):
        final = play(options, ["easy", "medium", "expert"], seed)
        for seat, level in enumerate(("easy", "medium", "expert")):
            totals[level].append(final.total(seat))
    means = {level: statistics.mean(values) for level, values in totals.items()}
    assert means["expert"] > means["medium"] > means["easy"]


# -- the expert's mean, simulated --------------------------------------------------------


def test_the_experts_mean_over_300_argentina_games_is_the_tables_value():
    """A quick version of `bench/generala_presets.py --games 20000` (which checks the 99 %
    interval): 300 one-player games, within 4 standard errors of the table's value."""
    options = {"preset": "argentina", "servida_wins": False}
    scores = [play(options, ["expert"], 10_000 + seed).total(0) for seed in range(300)]
    expected = preset_table(GeneralaOptions(**options)).value(0)
    error = statistics.stdev(scores) / len(scores) ** 0.5
    assert abs(statistics.mean(scores) - expected) < 4 * error


CHOICES = (
    ("seed", "argentina", "familia"),
    (0, 5, 10),
    (False, True),
    (False, True),
    (False, True),
)


def test_preparing_a_turn_solves_it_ahead_of_the_hints():
    state = state_of(ARGENTINA, (Box.ESCALERA, Box.FULL, Box.SIXES), False, (2, 2, 6, 6, 6), 1)
    table = preset_table(ARGENTINA)
    table.turn.cache_clear()
    coach("generala").prepare(state)
    assert table.turn.cache_info().misses == 1
    coach("generala").hint(state)
    coach("generala").hint(state.model_copy(update={"throws": 2}))
    assert table.turn.cache_info().misses == 1


def test_preparing_before_the_roll_off_only_solves_the_table():
    state = GAME.new_game(["Ana", "Beto"], {"preset": "familia"})
    coach("generala").prepare(state)
    assert preset_table(state.options).is_solved()


NAMES = ("preset", "servido", "escalera_al_as", "generala_doble", "obligada")
CHOICES = (
    ("seed", "argentina", "familia"),
    (0, 5, 10),
    (False, True),
    (False, True),
    (False, True),
)


def test_the_tables_depend_on_72_option_sets():
    """Every table option set: 3 presets × 3 bonuses × al as × doble × obligada."""
    keys = {
        table_key(GeneralaOptions(**dict(zip(NAMES, values, strict=True))))
        for values in product(*CHOICES)
    }
    assert len(keys) == 72
