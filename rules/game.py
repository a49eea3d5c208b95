"""The interface every game implements (OpenSpiel-style: explicit chance, pure functions)."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar, cast

from pydantic import BaseModel, TypeAdapter, ValidationError

from kits import kit

from .dice import PendingThrow, check_outcome, throw_outcomes
from .errors import N_, NP_, IllegalAction, InvalidOptions, Text

OptionsT = TypeVar("OptionsT", bound=BaseModel)
StateT = TypeVar("StateT", bound=BaseModel)
ActionT = TypeVar("ActionT", bound=BaseModel)

Event = BaseModel | tuple[int, ...]
"""What moves a state on: a player's action, or the faces of a chance throw."""


_PROBLEMS: dict[str, str] = {
    "greater_than_equal": N_("must be {ge} or more"),
    "greater_than": N_("must be more than {gt}"),
    "less_than_equal": N_("must be {le} or less"),
    "less_than": N_("must be less than {lt}"),
    "int_parsing": N_("must be a whole number"),
    "int_from_float": N_("must be a whole number"),
    "int_type": N_("must be a whole number"),
    "float_parsing": N_("must be a number"),
    "float_type": N_("must be a number"),
    "bool_parsing": N_("must be yes or no"),
    "bool_type": N_("must be yes or no"),
    "literal_error": N_("is not one of the choices"),
    "enum": N_("is not one of the choices"),
    "missing": N_("is missing"),
    "extra_forbidden": N_("is not an option of this game"),
}
"""What an options model's complaint means, in words a player reads (pydantic's own words
are English only): by the error's type, filled with its context (`ge`, `le`, ...)."""


def _problem(error: Any) -> Text | str:
    kind = error["type"]
    context = error.get("ctx", {})
    if kind == "value_error" and isinstance(context.get("error"), ValueError):
        return Text(str(context["error"]))  # the validator's own marked words
    if kind in _PROBLEMS:
        return Text(_PROBLEMS[kind], {key: value for key, value in context.items()})
    return str(error["msg"])


def _field_problems(error: ValidationError) -> list[tuple[str, Text | str]]:
    return [(".".join(str(p) for p in e["loc"]) or "options", _problem(e)) for e in error.errors()]


class Game(ABC, Generic[OptionsT, StateT, ActionT]):
    """One game's rules. Instances hold no state: every method maps states to states.

    A state is either waiting for a chance throw (`pending_throw` is not None; feed it with
    `apply_chance`), waiting for a player's decision (`current_player` is a seat index;
    choose among `legal_actions` and `apply` it), or over (`is_over`).
    """

    id: ClassVar[str]
    """The game's id, its kit's (`kits/<id>.py`)."""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    options_model: ClassVar[type[BaseModel]]
    """OptionsT's class (a ClassVar cannot name a type variable, hence the casts below)."""
    state_model: ClassVar[type[BaseModel]]
    """StateT's class."""
    action_adapter: ClassVar[TypeAdapter[Any]]

    @property
    def name(self) -> str:
        """The game's name in its own language, as its kit declares it."""
        return kit(self.id).name

    # -- creation -----------------------------------------------------------------------
    def options(self, options: BaseModel | Mapping[str, Any] | None = None) -> OptionsT:
        """Validate options (a model or a plain mapping); InvalidOptions names each bad field."""
        if isinstance(options, self.options_model):
            return cast(OptionsT, options)
        data = dict(options.model_dump() if isinstance(options, BaseModel) else options or {})
        try:
            return cast(OptionsT, self.options_model.model_validate(data))
        except ValidationError as error:
            raise InvalidOptions(_field_problems(error)) from None

    def new_game(
        self, players: Sequence[str], options: BaseModel | Mapping[str, Any] | None = None
    ) -> StateT:
        names = tuple(str(name).strip() for name in players)
        problems: list[tuple[str, Text | str]] = []
        if not self.min_players <= len(names) <= self.max_players:
            words = N_("{game} takes {low} to {high} players")
            bounds = {"game": self.name, "low": self.min_players, "high": self.max_players}
            problems.append(("players", Text(words, bounds)))
        if any(not name for name in names):
            problems.append(("players", Text(N_("every player needs a name"))))
        if len(set(names)) != len(names):
            problems.append(("players", Text(N_("two players have the same name"))))
        if problems:
            raise InvalidOptions(problems)
        return self._new_game(names, self.options(options))

    @abstractmethod
    def _new_game(self, players: tuple[str, ...], options: OptionsT) -> StateT: ...

    # -- chance -------------------------------------------------------------------------
    @abstractmethod
    def pending_throw(self, state: StateT) -> PendingThrow | None:
        """The throw the state waits for, or None when a player must decide (or it is over)."""

    def chance_outcomes(self, state: StateT) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        """Every outcome of the pending throw with its exact probability (sum is 1)."""
        pending = self.pending_throw(state)
        if pending is None:
            raise IllegalAction(N_("No dice are being thrown now"))
        return throw_outcomes(pending.count, pending.ordered)

    def apply_chance(self, state: StateT, faces: Sequence[int]) -> StateT:
        """The pending throw came up `faces` (in the order of the dice being thrown).

        Anything but a list or tuple of the right number of faces 1 to 6 raises IllegalAction
        (`check_outcome`), and the state is left as it was."""
        checked = check_outcome(self.pending_throw(state), faces)
        return self._apply_chance(state, checked)

    @abstractmethod
    def _apply_chance(self, state: StateT, faces: tuple[int, ...]) -> StateT: ...

    # -- decisions ----------------------------------------------------------------------
    @abstractmethod
    def current_player(self, state: StateT) -> int | None:
        """The seat that must decide now; None while dice are pending or the game is over."""

    @abstractmethod
    def legal_actions(self, state: StateT) -> list[ActionT]: ...

    def parse_action(self, data: BaseModel | Mapping[str, Any] | str) -> ActionT:
        try:
            if isinstance(data, str):
                return self.action_adapter.validate_json(data)
            if isinstance(data, BaseModel):
                data = data.model_dump()
            return self.action_adapter.validate_python(data)
        except ValidationError:
            raise IllegalAction(N_("That is not a move of {game}"), game=self.name) from None

    def apply(self, state: StateT, action: BaseModel | Mapping[str, Any]) -> StateT:
        """The current player takes `action`. Raises IllegalAction, leaving `state` as it was."""
        parsed = self.parse_action(action)
        if self.is_over(state):
            raise IllegalAction(N_("The game is over"))
        if self.pending_throw(state) is not None:
            raise IllegalAction(N_("The dice are still rolling"))
        return self._apply(state, parsed)

    @abstractmethod
    def _apply(self, state: StateT, action: ActionT) -> StateT: ...

    # -- the end ------------------------------------------------------------------------
    @abstractmethod
    def is_over(self, state: StateT) -> bool: ...

    @abstractmethod
    def scores(self, state: StateT) -> tuple[int, ...]:
        """Each seat's score so far (points, chips...: what decides the winner)."""

    def winners(self, state: StateT) -> tuple[int, ...]:
        """The seats with the best score once the game is over (a tie is shared)."""
        if not self.is_over(state):
            return ()
        scores = self.scores(state)
        best = max(scores)
        return tuple(i for i, s in enumerate(scores) if s == best)

    # -- persistence and narration -----------------------------------------------------
    def load_state(self, data: str | bytes | Mapping[str, Any]) -> StateT:
        """A state from its JSON: a string, or the object a save holds (`model_dump(mode=
        "json")`). Strict: every field must have exactly its JSON type (a number is not a
        string of digits, a whole number not a float), or pydantic's ValidationError says
        which field is wrong."""
        text = data if isinstance(data, str | bytes) else json.dumps(dict(data))
        return cast(StateT, self.state_model.model_validate_json(text, strict=True))

    def players(self, state: StateT) -> tuple[str, ...]:
        return state.players  # type: ignore[attr-defined]  # every game's state has players

    @abstractmethod
    def narrate(self, before: StateT, event: Event, after: StateT) -> list[Text]:
        """What a player at the table would say happened (for the event log)."""

    @abstractmethod
    def describe_action(self, state: StateT, action: ActionT) -> Text:
        """A short name for an action, as shown on a button or in the coach."""


def game_over_line(players: Sequence[str], winners: Sequence[int], total: int) -> Text:
    """The table talk's last line in a game scored in points: "Game over: Ana wins with 13
    points" (Barco's form), or the players tied for the win, "Ana, Bruno win with …"."""
    if len(winners) == 1:
        return Text(
            NP_(
                "Game over: {player} wins with {total} point",
                "Game over: {player} wins with {total} points",
            ),
            {"player": players[winners[0]], "total": total},
            count="total",
        )
    return Text(
        NP_(
            "Game over: {players} win with {total} point",
            "Game over: {players} win with {total} points",
        ),
        {"players": ", ".join(players[w] for w in winners), "total": total},
        count="total",
    )
