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

from .i18n import Late, _, decimal

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


def format_loss(loss: float, unit: Unit) -> str:
    """A loss without its sign: "0.25", "3.1%" ("0,25" in Spanish)."""
    if unit is Unit.WIN_PROBABILITY:
        return decimal(f"{loss * 100:.1f}%")
    return decimal(f"{loss:.2f}")


def late_loss(loss: float, unit: Unit) -> Late:
    """A loss for a message rendered later (in the language of that moment)."""
    return Late(format_loss, loss, unit)


def average_losses(reviews: Sequence[Review]) -> str:
    """The average loss per decision, one figure per unit the coach used (barco and
    multiplicación switch to the chance to win in the last round)."""
    by_unit: dict[Unit, list[float]] = {}
    for review in reviews:
        by_unit.setdefault(review.hint.unit, []).append(review.loss)
    if len(by_unit) == 1:
        ((unit, losses),) = by_unit.items()
        return format_loss(sum(losses) / len(losses), unit)
    return ", ".join(
        f"{format_loss(sum(losses) / len(losses), unit)} ({_(UNIT_NAMES.get(unit, str(unit)))})"
        for unit, losses in by_unit.items()
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
    worst rating, then the greatest loss)."""
    notes = []
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
            "{player}: {choices}, {best} best; average loss {average}; worst: "
            "{action} (−{loss}, {rating})"
        )
        notes.append(
            Text(
                summary,
                {
                    "player": player,
                    "choices": choices,
                    "best": best,
                    "average": Late(average_losses, mine),
                    "action": worst.label,
                    "loss": late_loss(worst.loss, worst.hint.unit),
                    "rating": Text(RATING_NAMES[worst.rating]),
                },
            )
        )
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
