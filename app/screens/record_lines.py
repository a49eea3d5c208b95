"""How a game's record is named in a list: when, which game, who, the scores (Textual-free)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.cells import cell_len

from rules import C_, N_, game_name

from ..i18n import _, tr

if TYPE_CHECKING:
    from ..records.store import RecordSummary
    from ..server.protocol import TableEntry

TABLE_STATUS = {
    "waiting": C_("table", "waiting"),
    "playing": C_("table", "playing"),
    "over": C_("table", "over"),
}
"""(The words of `cubilete tables`, `app.server.commands.STATUS_WORDS`.)"""


def when(seconds: float) -> str:
    """A moment as lists show it, in local time: "2026-12-01 18:02" (the same in every
    language, and sorted as it reads)."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def seat_name(name: str, kind: str) -> str:
    """A seat's name, a bot's marked as one (bots play under names a person could take)."""
    return name if kind == "human" else tr(N_("{name} (bot)"), name=name)


def players(summary: RecordSummary) -> str:
    return ", ".join(seat_name(seat.name, seat.kind) for seat in summary.seats)


def round_words(round_number: int | None) -> str:
    """The round an unfinished game is in ("round 3"), or "–" for a race (Batalla de
    Piratas has no rounds)."""
    return "–" if round_number is None else tr(N_("round {n}"), n=round_number)


class Results(str):
    """A finished game's scores, "★Ana 212 · Bruno 180", that fit a narrower column by
    shortening the names, never the scores ("★Maxi… 212 · Bart… 180"): `fit(width)`."""

    marks: tuple[str, ...]
    names: tuple[str, ...]
    scores: tuple[int, ...]

    def __new__(cls, seats: list[tuple[str, str, int]]) -> Results:
        made = super().__new__(cls, SEPARATOR.join(f"{m}{n} {s}" for m, n, s in seats))
        made.marks = tuple(mark for mark, _name, _score in seats)
        made.names = tuple(name for _mark, name, _score in seats)
        made.scores = tuple(score for _mark, _name, score in seats)
        return made

    @property
    def least(self) -> int:
        """Its width with every name cut to its first letter and "…"."""
        return cell_len(self._with_names(2))

    @property
    def comfortable(self) -> int:
        """Its width with the names cut to four cells at most ("Bru…")."""
        return cell_len(self._with_names(4))

    def fit(self, width: int) -> str:
        """The scores within `width` cells if they can be: the longest names cut first, a
        cell at a time (a cut name ends with …), down to one letter each."""
        text = str(self)
        longest = max((cell_len(name) for name in self.names), default=0)
        for most in range(longest, 1, -1):
            text = self._with_names(most)
            if cell_len(text) <= width:
                break
        return text

    def _with_names(self, most: int) -> str:
        return SEPARATOR.join(
            f"{mark}{shorten(name, most)} {score}"
            for mark, name, score in zip(self.marks, self.names, self.scores, strict=True)
        )


def shorten(name: str, most: int) -> str:
    """`name` within `most` cells (at least 2): cut, it ends with …."""
    if cell_len(name) <= most:
        return name
    while name and cell_len(name) > most - 1:
        name = name[:-1]
    return name + "…"


SEPARATOR = " · "


def results(summary: RecordSummary) -> str:
    """Each seat's final score, the winners marked ★ (seen without colour too), the winners
    first: "★Ana 212 · Bruno 180" (a `Results`, which shortens the names to fit)."""
    outcome = summary.outcome
    if outcome is None:
        return ""

    def score(seat: int) -> int:
        return outcome.scores[seat] if seat < len(outcome.scores) else 0

    seats = list(enumerate(summary.seats))
    seats.sort(key=lambda pair: (pair[0] not in outcome.winners, -score(pair[0])))
    return Results(
        [
            ("★" if index in outcome.winners else "", seat.name, score(index))
            for index, seat in seats
        ]
    )


def unfinished_line(summary: RecordSummary, round_text: str) -> tuple[str, ...]:
    return (game_name(summary.game_id), players(summary), round_text, when(summary.updated))


def history_line(summary: RecordSummary) -> tuple[str, ...]:
    return (when(summary.updated), game_name(summary.game_id), results(summary))


def game_label(game_id: str | None) -> str:
    return _("every game") if game_id is None else game_name(game_id)


def table_line(entry: TableEntry) -> tuple[str, ...]:
    """A table of the server of shared tables: its game, its seats (a free one as "–", a
    bot's marked, an away person's too), its status with the seats taken ("waiting 1/2"; and
    "private") and how many watch. (Who opened it sits at it, or it is a table of bots.)"""
    seats = ", ".join(
        "–"
        if seat.name is None
        else seat_name(seat.name, seat.kind) + ("" if seat.connected else " " + _("(away)"))
        for seat in entry.seats
    )
    people = [seat for seat in entry.seats if seat.kind == "human"]
    taken = sum(1 for seat in people if seat.name is not None)
    status = _(TABLE_STATUS[entry.status])
    if entry.status == "waiting":
        status += f" {taken}/{len(people)}"
    if entry.private:
        status = _("private") + " · " + status
    return (
        game_name(entry.game),
        seats,
        status,
        tr(N_("{n} watching"), n=entry.spectators),
    )
