"""The player's records as the app uses them: one object that opens the store when first
needed, imports old saves, hands a recorder to each new table, and lists and resumes games.

It keeps what went wrong for the lobby to show: a damaged database moved aside (and its new
name), a data dir that cannot be written (play goes on, unsaved), saves that cannot be read.
Nothing here imports Textual.

The database's integrity check runs in a thread while the app starts (on 10,000 games it takes
a quarter of a second), so the lobby lists the unfinished games without waiting for it. The
first write or load waits for it: a database that fails it is then moved aside before anything
is written to it, a new one begins, and `on_notice` says so.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ..i18n import _

if TYPE_CHECKING:  # (loaded when there is a database: a new player's lobby loads none of it)
    from ..dice import DiceSource
    from ..table import Table
    from .events import Record
    from .recorder import LateRecorder, Recorder
    from .sqlite import IntegrityCheck
    from .store import (
        Cursor,
        HistoryPage,
        LossPoint,
        MistakeKind,
        OptionsCount,
        PlayerStats,
        RecordStore,
        RecordSummary,
        ReviewRow,
        ScoreCount,
        StoreError,
    )

T = TypeVar("T")


def pending_saves(directory: Path) -> list[Path]:
    """The JSON saves of earlier versions waiting in `directory` to be imported."""
    try:
        return sorted(directory.glob("game-*.json"))
    except OSError:
        return []


class RecordBook:
    def __init__(
        self,
        path: Path,
        saves: Path | None = None,
        on_notice: Callable[[str], None] | None = None,
        **store_options: Any,
    ) -> None:
        """`path`: the database; `saves`: the folder of JSON saves to import from;
        `on_notice`: told what the player must learn after the lobby read `notices()` (a
        database found damaged late); `store_options` go to `SQLiteStore`."""
        self.path = path
        self.saves = saves
        self.on_notice = on_notice
        self.store_options = store_options
        self._store: RecordStore | None = None
        self._opened = False
        self._check: IntegrityCheck | None = None
        self._told_unsaved = False
        self.problem: StoreError | None = None
        """Why there is no store (play goes on unsaved), or why the last call failed."""
        self.moved_to: Path | None = None
        """Where a damaged database was moved (a new one began)."""
        self.unreadable: list[Exception] = []
        """Saves that cannot be read (`saves.SaveError`), left as they are."""
        self.not_imported: list[tuple[Path, StoreError]] = []
        self._late: list[LateRecorder] = []
        """Recorders of new games whose record has not begun yet (`recorder(later=True)`)."""

    @classmethod
    def in_data_dir(cls, on_notice: Callable[[str], None] | None = None) -> RecordBook:
        """The player's records in their data dir (`locations.records_path`), importing the
        JSON saves of `locations.saves_dir`."""
        from ..locations import records_path, saves_dir

        try:
            return cls(records_path(), saves_dir(), on_notice)
        except OSError as error:  # no data dir (a StorageError): play goes on unsaved
            from .store import StoreReadOnly

            book = cls(Path(getattr(error, "path", None) or error.filename or "records.db"))
            book._opened, book.problem = True, StoreReadOnly(str(error))
            return book

    @classmethod
    def unsaved(cls) -> RecordBook:
        """No records at all (the caller has told the player why): games are played
        unsaved, nothing is listed, and nobody is told again."""
        book = cls(Path(os.devnull))
        book._opened = book._told_unsaved = True
        return book

    # -- opening ----------------------------------------------------------------------------
    @property
    def store(self) -> RecordStore | None:
        """The store, opened (and old saves imported) on first use and checked; None if it
        cannot be used (`problem` says why)."""
        return self._checked() if self._opening() is not None else None

    def _opening(self) -> RecordStore | None:
        """The store, opened on first use, maybe before its integrity check is over (only to
        read the list of unfinished games while the app starts). Every use of the store comes
        through here: the records of games begun later are begun first, so that what is read
        has every game (`begin_records`)."""
        if not self._opened:
            self._open()
        self.begin_records()
        return self._store

    def _open(self) -> None:
        from .importer import import_saves
        from .sqlite import IntegrityCheck, open_store

        self._opened = True
        opened = open_store(self.path, check=False, **self.store_options)
        self._store, self.problem, self.moved_to = opened
        if self._store is not None:
            self._check = IntegrityCheck(self.path)
        if self.saves is None or not pending_saves(self.saves):
            return
        if self._checked() is not None:
            result = import_saves(self._checked_store(), self.saves)
            self.unreadable = list(result.unreadable)
            self.not_imported = result.failed
        else:  # no store: the saves are at least checked and reported
            from .. import saves

            for path in pending_saves(self.saves):
                try:
                    saves.read(path)
                except saves.SaveError as error:
                    self.unreadable.append(error)

    def _checked(self) -> RecordStore | None:
        """The store once its integrity check is over: if the database failed it, it is moved
        aside now (nothing has been written to it since it was opened) and a new one begins."""
        from .sqlite import move_aside, open_store
        from .store import StoreDamaged

        check, self._check = self._check, None
        if check is None or self._store is None:
            return self._store
        problem = check.result()
        if not isinstance(problem, StoreDamaged):
            return self._store  # sound (or busy: checked again next time)
        self._store.close()
        try:
            self.moved_to = move_aside(self.path)
        except OSError as error:
            from .sqlite import classify

            self._store, self.problem = None, classify(error, self.path)
        else:
            self._store, new_problem, _moved = open_store(
                self.path, check=False, **self.store_options
            )
            self.problem = problem if self._store is not None else new_problem
        if self.on_notice is not None:
            for line in self.notices():
                self.on_notice(line)
        return self._store

    def _checked_store(self) -> RecordStore:
        store = self._checked()
        assert store is not None
        return store

    def _worth_opening(self) -> bool:
        """Whether there is anything to list or to tell: a database, saves to import, or a
        data dir that cannot be written. (A new player's lobby then costs no database; the
        first game makes it.)"""
        return (
            self._opened
            or bool(self._late)  # (a game begun, its record not yet)
            or self.path.exists()
            or bool(self.saves is not None and pending_saves(self.saves))
            or not os.access(self.path.parent, os.W_OK)
        )

    def close(self) -> None:
        self.begin_records()
        if self._check is not None:
            self._check.result()
            self._check = None
        if self._store is not None:
            self._store.close()
        self._store, self._opened = None, False

    # -- for the lobby ----------------------------------------------------------------------
    def unfinished(self) -> list[RecordSummary]:
        """Games not over yet, the last played first."""
        store = self._opening() if self._worth_opening() else None
        if store is None:
            return []
        from .store import StoreError

        try:
            return store.unfinished()
        except StoreError as error:
            self.problem = error
            return []

    def notices(self) -> list[str]:
        """What the player must be told about their records (one line each)."""
        lines = []
        if self.moved_to is not None and self.problem is not None:
            lines.append(
                _(
                    "⚠ The records were damaged ({reason}): they were moved aside to {path}, "
                    "and new ones begun."
                ).format(reason=self.problem, path=self.moved_to)
            )
        elif self.problem is not None and self._store is None:
            lines.append(
                _("⚠ Games are not being saved: {reason}").format(reason=self.problem)
            )
        for path, error in self.not_imported:
            lines.append(
                _("⚠ Could not import save {path}: {reason}. It stays where it is.").format(
                    path=path, reason=error
                )
            )
        return lines

    # -- for the game -----------------------------------------------------------------------
    def recorder(
        self, on_problem: Callable[[StoreError], None] | None = None, *, later: bool = False
    ) -> Recorder | None:
        """A recorder for a new table, or None when nothing can be saved.

        `later`: if the records are not open yet (a new player's, whose first game creates the
        database), a `LateRecorder`, which opens them when the app begins the record (once the
        game is on the screen, `begin_records`) or at the game's next events; the book begins
        it before any read of the records and when it is closed. Records already open (or
        known to be unusable) give what they give at once: that costs a game's start one write.
        """
        from .recorder import LateRecorder, StoreRecorder

        if later and not self._opened:
            late = LateRecorder(lambda: self.recorder(on_problem))
            self._late.append(late)
            return late
        store = self.store
        if store is None:
            if self.on_notice is not None and not self._told_unsaved:
                self._told_unsaved = True
                for line in self.notices():
                    self.on_notice(line)
            return None
        return StoreRecorder(store, on_problem)

    def begin_records(self) -> None:
        """Begin the records of the games whose recorder waits (`recorder(later=True)`):
        the store opened, each game's beginning written."""
        while self._late:
            self._late.pop(0).begin()

    def resume(
        self,
        record_id: str,
        dice: DiceSource | None = None,
        on_problem: Callable[[StoreError], None] | None = None,
    ) -> Table:
        """The table of a record, replayed to where it was. StoreError or RecordError."""
        from ..table import Table
        from .recorder import StoreRecorder

        record = self.load(record_id)
        return Table.from_record(record, dice, recorder=StoreRecorder(self._usable(), on_problem))

    def load(self, record_id: str) -> Record:
        """The whole record (to replay, review or export it). StoreError (RecordNotFound...)
        or RecordError (a damaged record)."""
        return self._usable().load(record_id)

    def abandon(self, record_id: str) -> None:
        """Give up an unfinished game: it is kept (status `abandoned`), no longer listed as
        unfinished nor in the history. StoreError (RecordConflict if it is over already)."""
        self._usable().abandon(record_id)

    def _usable(self) -> RecordStore:
        from .store import StoreError

        store = self.store
        if store is None:
            raise self.problem or StoreError(_("The records cannot be opened"))
        return store

    # -- for the history and the statistics ---------------------------------------------------
    # Each answers from the store, or, when there is none or it fails, answers nothing (an
    # empty list, an empty page, 0) and leaves the reason in `problem`: a screen shows what
    # there is and, if `problem` is set, says why there is not more.
    def history(
        self,
        *,
        game_id: str | None = None,
        player: str | None = None,
        limit: int = 50,
        after: Cursor | None = None,
    ) -> HistoryPage:
        """Finished games, the newest first, by game and by a player's name, a page of `limit`
        at a time: the next page is `history(..., after=page.next)` (None on the last)."""
        from .store import HistoryPage

        return self._ask(
            lambda store: store.history(game_id=game_id, player=player, limit=limit, after=after),
            HistoryPage([], None),
        )

    def count_finished(self, *, game_id: str | None = None, player: str | None = None) -> int:
        return self._ask(
            lambda store: store.count_finished(game_id=game_id, player=player), 0
        )

    def players(self, game_id: str | None = None) -> list[tuple[str, str, int]]:
        """Everyone with a finished game (of that game), bots too: (name, kind, games), most
        games first (a filter's choices)."""
        return self._ask(lambda store: store.players(game_id), [])

    def player_stats(
        self, *, game_id: str | None = None, player: str | None = None
    ) -> list[PlayerStats]:
        """Games, wins, win rate and average score per player (name and kind) and game."""
        return self._ask(lambda store: store.player_stats(game_id=game_id, player=player), [])

    def score_distribution(self, *, game_id: str, player: str) -> list[ScoreCount]:
        """How often the player ended a game of `game_id` with each score, lowest first."""
        return self._ask(
            lambda store: store.score_distribution(game_id=game_id, player=player), []
        )

    def expected_scores(
        self, stats: list[PlayerStats], *, player: str | None = None
    ) -> dict[tuple[str, str, str], float | None]:
        """For each row of `stats` (name, kind, game): the expert's expected final score over
        the same games (`expert.expected_score`, averaged over the options they were played
        with); None where docs/strategy.md gives none for one of them."""
        from .expert import depends_on_options, expected_score

        found: dict[tuple[str, str, str], float | None] = {}
        for game in sorted({one.game_id for one in stats}):
            if not depends_on_options(game):
                value = expected_score(game)
                found.update({(one.name, one.kind, game): value for one in stats
                              if one.game_id == game})
                continue
            sums: dict[tuple[str, str, str], tuple[float, int] | None] = {}
            counts = self.games_by_options(game_id=game, player=player)
            for row in counts:
                key = (row.name, row.kind, game)
                value = None if row.options is None else expected_score(game, row.options)
                was = sums.get(key, (0.0, 0))
                if value is None or was is None:
                    sums[key] = None
                else:
                    sums[key] = (was[0] + value * row.games, was[1] + row.games)
            for key, total in sums.items():
                found[key] = None if total is None or not total[1] else total[0] / total[1]
        return found

    def games_by_options(self, *, game_id: str, player: str | None = None) -> list[OptionsCount]:
        return self._ask(
            lambda store: store.games_by_options(game_id=game_id, player=player), []
        )

    def loss_over_time(self, *, player: str, game_id: str | None = None) -> list[LossPoint]:
        """The player's average loss per decision in each reviewed finished game, oldest
        first (run `review_pending` first for games not reviewed yet)."""
        return self._ask(lambda store: store.loss_over_time(player=player, game_id=game_id), [])

    def costliest_mistakes(
        self, *, player: str, game_id: str | None = None, limit: int = 10
    ) -> list[MistakeKind]:
        """The kinds of decision that cost the player most in all, per unit."""
        return self._ask(
            lambda store: store.costliest_mistakes(player=player, game_id=game_id, limit=limit),
            [],
        )

    def _ask(self, question: Callable[[RecordStore], T], nothing: T) -> T:
        from .store import StoreError

        store = self.store
        if store is None:
            return nothing
        try:
            return question(store)
        except StoreError as error:
            self.problem = error
            return nothing

    # -- the coach's reviews ----------------------------------------------------------------
    def unreviewed(self, limit: int = 100) -> list[Record]:
        """Finished games whose reviews are not cached (or were made by an older coach)."""
        from .reviews import REVIEW_VERSION
        from .store import StoreError

        store = self.store
        if store is None:
            return []
        try:
            return [store.load(rid) for rid in store.unreviewed(REVIEW_VERSION, limit)]
        except StoreError as error:
            self.problem = error
            return []

    def save_reviews(self, record_id: str, rows: list[ReviewRow]) -> bool:
        """Cache a record's reviews (`reviews.review_rows`, which may run in another thread);
        False if the store could not take them (they are computed again next time)."""
        from .reviews import REVIEW_VERSION
        from .store import StoreError

        store = self.store
        if store is None:
            return False
        try:
            store.save_reviews(record_id, REVIEW_VERSION, rows)
        except StoreError as error:
            self.problem = error
            return False
        return True

    def review_pending(self, limit: int = 100) -> int:
        """Review and cache up to `limit` finished games, here and now; how many."""
        from .reviews import review_rows

        done = 0
        for record in self.unreviewed(limit):
            done += self.save_reviews(record.record_id, review_rows(record))
        return done
