"""What the coach says, as messages for any reader: a rating for the log, the game-over notes,
a loss or an average loss in the reader's way of writing numbers.

The host (`app/host.py`) words its ratings and notes with these, and the coach panel its
losses; nothing here imports Textual: the words are rendered by whoever shows them, in their
own language (`app.i18n.render`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bots import Rating, Review, Unit
from rules import N_, NP_, Text

from .i18n import Late, decimal

UNIT_NAMES = {
    Unit.FINAL_SCORE: N_("expected final score"),
    Unit.ROUND_SCORE: N_("expected round score"),
    Unit.WIN_PROBABILITY: N_("chance to win"),
    Unit.LIVES_AHEAD: N_("lives ahead"),
}
RATING_NAMES = {
    Rating.BEST: N_("best move"),
    Rating.GOOD: N_("good"),
    Rating.INACCURACY: N_("inaccuracy"),
    Rating.MISTAKE: N_("mistake"),
    Rating.BLUNDER: N_("blunder"),
}
SEVERITY = tuple(Rating)
"""The ratings from the best move to a blunder: a worse rating is a worse decision, whatever
the unit of its loss."""


def rounds_to_zero(loss: float, unit: Unit) -> bool:
    """Whether a loss shows as nothing at the figures `format_loss` keeps ("0.00", "0.0%")."""
    return round(loss * 100, 1) == 0 if unit is Unit.WIN_PROBABILITY else round(loss, 2) == 0


def format_loss(loss: float, unit: Unit) -> str:
    """A loss without its sign: "0.25", "3.1%" ("0,25" in Spanish); never "-0.00"."""
    if rounds_to_zero(loss, unit):
        loss = 0.0
    if unit is Unit.WIN_PROBABILITY:
        return decimal(f"{loss * 100:.1f}%")
    return decimal(f"{loss:.2f}")


def minus_loss(loss: float, unit: Unit) -> str:
    """A loss as a value given up: "−0.25", "−3.1%"; one that rounds to zero is "0.00", "0.0%"
    (never a negative zero)."""
    return format_loss(loss, unit) if rounds_to_zero(loss, unit) else "−" + format_loss(loss, unit)


def late_loss(loss: float, unit: Unit) -> Late:
    """A loss for a message rendered later (in the language of that moment)."""
    return Late(format_loss, loss, unit)


def average_loss(reviews: Sequence[Review], unit: Unit) -> str:
    """The average loss per decision of the `reviews` measured in `unit`: "0.43", "1.2%"."""
    losses = [review.loss for review in reviews if review.hint.unit is unit]
    return format_loss(sum(losses) / len(losses) if losses else 0.0, unit)


def units_by_use(reviews: Sequence[Review]) -> list[Unit]:
    """The units the coach measured `reviews` in, the most used first (barco and
    multiplicación measure the last round in the chance to win, the rest in points)."""
    counts: dict[Unit, int] = {}
    for review in reviews:
        counts[review.hint.unit] = counts.get(review.hint.unit, 0) + 1
    return sorted(counts, key=lambda unit: -counts[unit])


def units_line(units: Sequence[Unit]) -> Text:
    """The line under the game-over summary that says what its losses are measured in: the
    unit of the averages, and the other one a worst decision was measured in, if any (only
    barco and multiplicación have two: the chance to win, in their last round)."""
    if len(units) == 1:
        return Text(
            N_("Loss: what a choice gave up against the best move ({unit})."),
            {"unit": Text(UNIT_NAMES[units[0]])},
        )
    return Text(
        N_(
            "Loss: what a choice gave up against the best move ({unit}; in the last round, "
            "{other})."
        ),
        {"unit": Text(UNIT_NAMES[units[0]]), "other": Text(UNIT_NAMES[units[1]])},
    )


def after_its_move(lines: Sequence[Text | str], rating: Text | str) -> list[Text | str]:
    """A move's table talk with the coach's rating of it: after the line that tells the move
    (the decision's own line, or the throw that tells a decision to throw), before what
    followed from it ("Ana throws the pair again", then "Coach: Ana — blunder"; issue 27)."""
    return [*lines[:1], rating, *lines[1:]]


def talk_with_ratings(
    events: Sequence[tuple[int, bool, Sequence[Text | str]]], ratings: Mapping[int, Text | str]
) -> list[Text | str]:
    """The table talk of events told one by one, the ratings in it as during play.

    `events`: (the event's number, whether it is a decision, its lines); a decision's lines
    and those of the throws it caused are one move (`after_its_move`), as at the table.
    `ratings`: the rating of a decision, by its event's number."""
    talk: list[Text | str] = []
    pending: Text | str | None = None
    for seq, decision, lines in events:
        if decision and pending is not None:  # (a move that told nothing)
            talk.append(pending)
            pending = None
        if decision and seq in ratings:
            pending = ratings[seq]
        if pending is not None and lines:
            talk += after_its_move(lines, pending)
            pending = None
        else:
            talk += lines
    if pending is not None:
        talk.append(pending)
    return talk


def rating_line(player: str, review: Review) -> Text:
    """The coach's rating of `player`'s decision, for the log."""
    rating = Text(RATING_NAMES[review.rating])
    if review.rating in (Rating.BEST, Rating.GOOD):
        return Text(N_("Coach: {player} — {rating}"), {"player": player, "rating": rating})
    return Text(
        N_("Coach: {player} — {rating} (−{loss}; best: {best})"),
        {
            "player": player,
            "rating": rating,
            "loss": late_loss(review.loss, review.hint.unit),
            "best": review.hint.best.label,
        },
    )


def coach_notes(players: Sequence[str], reviews: Sequence[tuple[int, Review]]) -> list[Text]:
    """For each player with rated choices (`reviews`: seat and review), in seat order: how many
    real choices, how many were the best move, the average loss and the worst decision (the
    worst rating, then the greatest loss); then one line that says the unit of the losses.

    One unit per game: the average is over the decisions measured in the game's unit (the one
    the coach used most); the worst decision keeps its own (a loss in the chance to win shows
    a %, and the last line says so)."""
    notes = []
    units = units_by_use([review for _seat, review in reviews])
    shown: list[Unit] = []  # (the units of the losses shown, the averages' first)
    for seat, player in enumerate(players):
        mine = [review for who, review in reviews if who == seat]
        if not mine:
            continue
        best = sum(review.rating is Rating.BEST for review in mine)
        if best == len(mine):
            all_best = NP_(
                "{player}: {n} choice, the best move",
                "{player}: {n} choices, every one the best move",
            )
            notes.append(Text(all_best, {"player": player, "n": best}))
            continue
        worst = max(mine, key=lambda review: (SEVERITY.index(review.rating), review.loss))
        choices = Text(NP_("{n} choice", "{n} choices"), {"n": len(mine)})
        summary = N_(
            "{player}: {choices}, {best}; average loss {average}; worst: "
            "{action} ({loss}, {rating})"
        )
        unit = next(unit for unit in units if any(r.hint.unit is unit for r in mine))
        shown += [u for u in dict.fromkeys((unit, worst.hint.unit)) if u not in shown]
        notes.append(
            Text(
                summary,
                {
                    "player": player,
                    "choices": choices,
                    "best": Text(NP_("{n} best", "{n} best"), {"n": best}),
                    "average": Late(average_loss, mine, unit),
                    "action": worst.label,
                    "loss": Late(minus_loss, worst.loss, worst.hint.unit),
                    "rating": Text(RATING_NAMES[worst.rating]),
                },
            )
        )
    if shown:
        notes.append(units_line(shown))
    return notes


DECISION_KINDS = {
    "roll": N_("Throwing again (the dice kept)"),
    "reroll": N_("Throwing again"),
    "rethrow": N_("Throwing a pair or triple again"),
    "stop": N_("Stopping"),
    "throw": N_("Throwing"),
    "keep": N_("Keeping a die of a pair or triple"),
    "accept": N_("Taking the multiplier"),
    "penalty_rethrow": N_("Refusing the multiplier"),
}
"""What each kind of decision (`records.reviews.decision_kind`) is, in words."""


def decision_kind_words(kind: str) -> Text | str:
    """A kind of decision as a reader says it: "Writing in Libre", "Moving the captain",
    "Stopping". A kind this version does not know (a newer record's) stays as it is."""
    base, _sep, detail = kind.partition(":")
    if base == "fill" and detail:
        from rules.generala import Box, box_name

        try:
            return Text(N_("Writing in {box}"), {"box": box_name(Box(detail))})
        except ValueError:
            return kind
    if base == "move" and detail:
        from rules.piratas import Piece, piece_name

        try:
            return Text(N_("Moving the {piece}"), {"piece": piece_name(Piece(detail))})
        except ValueError:
            return kind
    words = DECISION_KINDS.get(kind)
    return kind if words is None else Text(words)
