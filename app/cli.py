"""`cubilete`: start the game. Nothing is printed to stdout (textual-serve uses it)."""

from __future__ import annotations

import argparse
import sys

from rules import GAMES

from .dice import DiceSource, LoadedDice, RandomDice, SystemDice, parse_faces


def _faces(text: str) -> tuple[int, ...]:
    try:
        return parse_faces(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cubilete", description="Five traditional dice games in your terminal."
    )
    parser.add_argument(
        "--dice",
        type=_faces,
        metavar="FACES",
        help="loaded dice for demos and tests, served in order: 3,3,3,4,5",
    )
    parser.add_argument("--seed", help="seeded dice, for replays (the same seed, the same game)")
    parser.add_argument("--game", choices=sorted(GAMES), help="the game the lobby offers first")
    parser.add_argument("--no-animation", action="store_true", help="do not animate throws")
    return parser


def dice_source(args: argparse.Namespace) -> DiceSource:
    if args.dice is not None:
        return LoadedDice(args.dice)
    if args.seed is not None:
        return RandomDice(args.seed)
    return SystemDice()


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.dice is not None and args.seed is not None:
        parser.error("--dice and --seed cannot be used together")
    from .main import CubileteApp

    app = CubileteApp(dice=dice_source(args), animate=not args.no_animation, game=args.game)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
