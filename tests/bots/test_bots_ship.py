"""Barco's and navio's exact turns against brute force on the rules engine's own states."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bots import Unit, coach, get_bot
from bots.barco import expected_round_score
from bots.navio import round_win
from bots.ship import expected_score, outcome_distribution
from rules import get_game
from rules.ship import Reroll, Roll, Stop

BARCO = get_game("barco")
NAVIO = get_game("navio")


def brute_force(game, payoff, key):
    """Expectimax over the rules engine: chance nodes average the rules' own outcomes, the
    player to move takes the action best for himself. `payoff(state)` ends the search with
    each seat's payoff (None: go on); `key(state)` names equivalent states for the memo."""
    memo: dict = {}

    def value(state) -> tuple[float, ...]:
        k = key(state)
        if k in memo:
            return memo[k]
        result = payoff(state)
        if result is None:
            if game.pending_throw(state) is not None:
                parts = [
                    (float(p), value(game.apply_chance(state, faces)))
                    for faces, p in game.chance_outcomes(state)
                ]
                result = tuple(sum(p * v[i] for p, v in parts) for i in range(len(parts[0][1])))
            else:
                seat = game.current_player(state)
                options = [value(game.apply(state, a)) for a in game.legal_actions(state)]
                result = max(options, key=lambda v: v[seat])
        memo[k] = result
        return result

    return value


def hand_key(state):
    hand = state.hand
    if hand is None:
        return None
    return (
        hand.seat,
        hand.limit,
        hand.throws,
        hand.filled,
        hand.scoring,
        hand.rolling,
        hand.rethrow,
        hand.stopped,
    )


def started(game, players, options, openers):
    state = game.new_game(players, options)
    for faces in openers:
        state = game.apply_chance(state, faces)
    return state


def assert_coach_matches(game_id, value, state):
    game = get_game(game_id)
    seat = game.current_player(state)
    for option in coach(game_id).options(state):
        expected = value(game.apply(state, option.action))[seat]
        assert option.value == pytest.approx(expected, abs=1e-9), option.action


def play(game, state, *moves):
    for move in moves:
        state = (
            game.apply_chance(state, move) if isinstance(move, tuple) else game.apply(state, move)
        )
    return state


# -- barco -----------------------------------------------------------------------------------


def test_barco_expected_round_score_matches_brute_force():
    state = BARCO.new_game(["Ana"], {"rounds": 1})
    value = brute_force(
        BARCO,
        lambda s: (float(s.totals[0]),) if s.over else None,
        lambda s: (hand_key(s), s.over, s.totals),
    )
    assert float(expected_round_score()) == pytest.approx(value(state)[0], abs=1e-12)
    assert expected_round_score() == Fraction(169123624727, 39182082048)
    for moves in [
        (Roll(), (6, 5, 4, 1, 3)),
        (Roll(), (6, 5, 4, 2, 6)),
        (Roll(), (6, 1, 1, 2, 2), Roll(), (5, 4, 1, 5)),
        (Roll(), (6, 5, 1, 1, 1), Roll(), (3, 3, 3), Roll(), (4, 5, 6)),
    ]:
        decision = play(BARCO, state, *moves)
        assert coach("barco").unit(decision) is Unit.ROUND_SCORE
        assert_coach_matches("barco", value, decision)


def test_barco_last_round_win_matches_brute_force():
    state = started(BARCO, ["Ana", "Beto"], {"rounds": 1}, [(1, 1, 1, 1, 1), (6, 6, 6, 6, 6)])
    value = brute_force(
        BARCO,
        lambda s: _barco_shares(s),
        lambda s: (hand_key(s), s.over, s.sheet, s.extra_rounds),
    )
    assert coach("barco").unit(state) is Unit.WIN_PROBABILITY
    assert_coach_matches("barco", value, state)
    for moves in [
        (Roll(), (6, 5, 4, 1, 3)),
        (Roll(), (6, 5, 4, 5, 6)),
        (Roll(), (6, 1, 1, 2, 2), Roll(), (5, 4, 6, 3)),
    ]:
        assert_coach_matches("barco", value, play(BARCO, state, *moves))
    ana_scores_6 = play(BARCO, state, Roll(), (6, 5, 4, 3, 3), Stop())
    for moves in [(), (Roll(), (6, 5, 4, 1, 3)), (Roll(), (6, 5, 4, 2, 4))]:
        assert_coach_matches("barco", value, play(BARCO, ana_scores_6, *moves))


def _barco_shares(state):
    if state.extra_rounds:  # tied leaders play on: an even share
        return (0.5, 0.5)
    if state.over:
        return (1.0, 0.0) if state.winner == 0 else (0.0, 1.0)
    return None


def test_barco_plays_for_expected_score_before_the_last_round():
    state = started(BARCO, ["Ana", "Beto"], {"rounds": 2}, [(1, 1, 1, 1, 1), (6, 6, 6, 6, 6)])
    assert coach("barco").unit(state) is Unit.ROUND_SCORE
    race = started(BARCO, ["Ana", "Beto"], {"end": "race", "target": 5}, [(1,) * 5, (6,) * 5])
    assert coach("barco").unit(race) is Unit.ROUND_SCORE
    reached = play(BARCO, race, Roll(), (6, 5, 4, 3, 3), Stop())
    assert coach("barco").unit(reached) is Unit.WIN_PROBABILITY


def test_the_barco_expert_chases_a_lead_the_expected_score_would_not():
    """Beto, last, trails Ana's 9: he must throw again the 4-4 that the average keeps."""
    state = started(BARCO, ["Ana", "Beto"], {"rounds": 1}, [(1, 1, 1, 1, 1), (6, 6, 6, 6, 6)])
    state = play(BARCO, state, Roll(), (6, 5, 4, 4, 5), Stop())
    state = play(BARCO, state, Roll(), (6, 1, 1, 2, 2), Roll(), (5, 4, 4, 4))
    assert expected_score().choice(2, (4, 4)) == "stop"
    assert get_bot("barco", "expert").choose(state) != Stop()


def test_the_barco_casual_player_stops_on_8_and_throws_dice_under_4():
    state = started(BARCO, ["Ana"], {}, [])
    medium = get_bot("barco", "medium")
    assert medium.choose(play(BARCO, state, Roll(), (6, 5, 4, 4, 4))) == Stop()
    assert medium.choose(play(BARCO, state, Roll(), (6, 5, 4, 2, 5))) == Reroll(dice=(0,))
    assert medium.choose(play(BARCO, state, Roll(), (6, 5, 4, 1, 2))) == Reroll(dice=(0, 1))


def test_a_barco_crew_of_two_equal_faces_has_one_way_to_throw_one_die_again():
    """A crew of 3 and 3: throwing die 1 or die 2 again is the same decision."""
    state = play(BARCO, started(BARCO, ["Ana"], {}, []), Roll(), (6, 5, 4, 3, 3))
    hint = coach("barco").hint(state)
    assert [str(o.label) for o in sorted(hint.options, key=lambda o: str(o.label))] == [
        "Keep a 3, throw the other 3 again",
        "Stop with a crew of 6",
        "Throw both crew dice again",
    ]
    one = hint.option(Reroll(dice=(0,)))
    assert one.actions == (Reroll(dice=(0,)), Reroll(dice=(1,)))
    assert coach("barco").review(state, Reroll(dice=(1,))).option == one


def test_a_barco_crew_of_two_faces_names_the_die_kept_and_the_die_thrown():
    state = play(BARCO, started(BARCO, ["Ana"], {}, []), Roll(), (6, 5, 4, 2, 5))
    labels = {str(o.label) for o in coach("barco").hint(state).options}
    assert labels == {
        "Stop with a crew of 7",
        "Keep the 5, throw the 2 again",
        "Keep the 2, throw the 5 again",
        "Throw both crew dice again",
    }


def test_a_ship_turn_without_a_choice_is_forced():
    state = started(BARCO, ["Ana"], {}, [])
    assert coach("barco").hint(state).forced  # the first throw
    state = play(BARCO, state, Roll(), (6, 1, 1, 2, 2))
    assert coach("barco").hint(state).forced  # ship aside, throw the cup again
    navio = play(NAVIO, started(NAVIO, ["Ana", "Beto"], {}, [(6,), (1,)]), Roll())
    navio = NAVIO.apply_chance(navio, (6, 5, 4, 3, 3))
    assert not coach("navio").hint(navio).forced  # stop or throw the treasure again


# -- navio -----------------------------------------------------------------------------------


def _navio_shares(state):
    if not state.outcomes:
        return None
    outcome = state.outcomes[0]
    if outcome.result == "won":
        return (1.0, 0.0) if outcome.winner == 0 else (0.0, 1.0)
    return (0.5, 0.5)  # replayed: an even share


NAVIO_VALUE = None


def navio_brute_force():
    global NAVIO_VALUE
    if NAVIO_VALUE is None:
        NAVIO_VALUE = brute_force(
            NAVIO,
            _navio_shares,
            lambda s: (hand_key(s), s.results, s.limit, bool(s.outcomes)),
        )
    return NAVIO_VALUE


def navio_round():
    return started(NAVIO, ["Ana", "Beto"], {"rounds": 1, "mode": "points"}, [(6,), (1,)])


def test_navio_round_win_matches_brute_force_from_the_opening():
    value = navio_brute_force()
    state = navio_round()
    (ana, beto), replayed = round_win(2)
    assert value(state)[0] == pytest.approx(ana + replayed / 2, abs=1e-9)
    assert value(state)[1] == pytest.approx(beto + replayed / 2, abs=1e-9)
    assert_coach_matches("navio", value, state)


@pytest.mark.parametrize(
    "moves",
    [
        (Roll(), (6, 5, 4, 1, 3)),
        (Roll(), (6, 5, 4, 4, 4)),
        (Roll(), (6, 1, 1, 2, 2), Roll(), (5, 4, 6, 3)),
        (Roll(), (6, 5, 4, 3, 3), Stop()),
        (Roll(), (6, 5, 4, 3, 3), Stop(), Roll(), (6, 5, 4, 2, 2)),
        (Roll(), (6, 5, 4, 2, 3), Reroll(), (1, 1), Stop(), Roll(), (6, 5, 4, 1, 1)),
        (Roll(), (1, 1, 1, 1, 1), Roll(), (6, 5, 4, 6, 5), Stop(), Roll(), (6, 5, 4, 1, 2)),
    ],
)
def test_navio_decisions_match_brute_force(moves):
    value = navio_brute_force()
    state = play(NAVIO, navio_round(), *moves)
    assert coach("navio").unit(state) is Unit.WIN_PROBABILITY
    assert_coach_matches("navio", value, state)


def test_navio_round_win_chances_add_up():
    for players in (2, 3, 4):
        wins, replayed = round_win(players)
        assert sum(wins) + replayed == pytest.approx(1)
        assert wins == tuple(sorted(wins, reverse=True))  # the first to play sets the limit


def test_navio_policy_distribution_is_a_distribution():
    dist = outcome_distribution(expected_score(singles=False))
    assert sum(dist.values()) == pytest.approx(1)


def test_the_navio_casual_player_stops_when_he_leads():
    state = navio_round()
    medium = get_bot("navio", "medium")
    assert medium.choose(play(NAVIO, state, Roll(), (6, 5, 4, 4, 4))) == Stop()
    assert medium.choose(play(NAVIO, state, Roll(), (6, 5, 4, 1, 2))) == Reroll()
    miss = (Roll(), (1, 1, 2, 2, 3))
    ana_7 = play(NAVIO, state, *miss, *miss, Roll(), (6, 5, 4, 3, 4))
    assert medium.choose(play(NAVIO, ana_7, Roll(), (6, 5, 4, 4, 4))) == Stop()
    assert medium.choose(play(NAVIO, ana_7, Roll(), (6, 5, 4, 3, 4))) == Reroll()
