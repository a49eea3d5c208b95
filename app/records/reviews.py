"""The coach's reviews of a record, recomputed from its events (never stored as text).

Every decision that stands (not taken back) by a person's seat and offered a choice is
reviewed by the game's coach, as the game screen reviews it live (a move without a choice,
like a turn's first throw, is neither rated nor counted). Bots' decisions are not reviewed:
the statistics show bots' games, wins and scores, and people's losses. For the statistics
the reviews are summed per seat, unit and kind of decision (`ReviewRow`) and cached in the
store, marked with `REVIEW_VERSION`: change that number when the coach's values change, and
every record is reviewed again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from pydantic import BaseModel

from bots import Rating, Review, coach

from .. import strategy_tables
from .events import Record
from .replay import decisions, every_decision
from .store import ReviewRow

REVIEW_VERSION = 2
"""Raised to 2 when moves without a choice stopped being counted."""
MISTAKES = (Rating.MISTAKE, Rating.BLUNDER)


class DecisionReview(NamedTuple):
    seq: int
    seat: int
    unit: str
    kind: str
    loss: float
    rating: str


def decision_kind(action: BaseModel) -> str:
    """What kind of decision an action is, for grouping mistakes: its `kind`, and the box or
    piece it names (`fill:generala`, `move:captain`, `keep`)."""
    data: dict[str, Any] = action.model_dump(mode="json")
    kind = str(data.get("kind", type(action).__name__.lower()))
    for detail in ("box", "piece"):
        if isinstance(data.get(detail), str):
            return f"{kind}:{data[detail]}"
    return kind


class ReviewedDecision(NamedTuple):
    """A person's decision that stands, and the coach's review of it (as the game screen
    shows it: its rating, its loss, the best option, in the viewer's language)."""

    seq: int
    seat: int
    action: BaseModel
    review: Review


def reviewed_decisions(record: Record, taken_back: bool = False) -> list[ReviewedDecision]:
    """The coach's review of every decision that stands by a person's seat and offered a
    choice, in order (`taken_back`: of those taken back too, as the table talk rated them
    when they were made). Raises RecordError if the record does not replay. Slow for long
    games (a coach call per decision): run it in a worker thread. The host uses it for the
    decisions of a resumed game (their ratings count in its summary, and go back into its
    table talk)."""
    game_id = record.header.game_id
    people = {i for i, seat in enumerate(record.header.seats) if not seat.bot}
    strategy_tables.prepare(game_id)
    game_coach = coach(game_id)
    reviewed = []
    for decision in every_decision(record) if taken_back else decisions(record):
        if decision.seat not in people:
            continue
        try:
            review = game_coach.review(decision.state, decision.action)
        except (KeyError, ValueError):  # not one of the coach's options: no rating
            continue
        if not review.forced:
            reviewed.append(ReviewedDecision(decision.seq, decision.seat, decision.action, review))
    return reviewed


def review_record(record: Record) -> list[DecisionReview]:
    """`reviewed_decisions` as plain data, for the statistics."""
    return [
        DecisionReview(
            one.seq,
            one.seat,
            str(one.review.hint.unit),
            decision_kind(one.action),
            one.review.loss,
            str(one.review.rating),
        )
        for one in reviewed_decisions(record)
    ]


def summarize(reviews: Iterable[DecisionReview]) -> list[ReviewRow]:
    """The reviews summed per seat, unit and kind of decision."""
    rows: dict[tuple[int, str, str], ReviewRow] = {}
    for r in reviews:
        key = (r.seat, r.unit, r.kind)
        mistake = int(r.rating in MISTAKES)
        was = rows.get(key)
        if was is None:
            rows[key] = ReviewRow(r.seat, r.unit, r.kind, 1, r.loss, mistake, r.loss, r.seq)
            continue
        worse = r.loss > was.worst_loss
        rows[key] = was._replace(
            decisions=was.decisions + 1,
            loss=was.loss + r.loss,
            mistakes=was.mistakes + mistake,
            worst_loss=r.loss if worse else was.worst_loss,
            worst_seq=r.seq if worse else was.worst_seq,
        )
    return sorted(rows.values())


def review_rows(record: Record) -> list[ReviewRow]:
    return summarize(review_record(record))
