"""Print a real `act` message of a game, as the referee sends it to a bot.

    python scripts/observation_example.py GAME [--players N] [--moves K] [--seed S]
    python scripts/observation_example.py --write     # the guide's examples, all games

Plays K seeded random moves from a new game, then prints the message for the seat to
move: its observation and legal actions, exactly what that seat's bot would receive.
The game pages of the guide (docs/bot-authors/games/) include the files --write makes,
and tests/docs/test_guide.py fails when one differs from what the engine sends today.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine  # noqa: E402

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "docs" / "bot-authors" / "games" / "examples"
# game: (players, random moves before the example), chosen to show a typical decision.
EXAMPLES = {
    "moonrollers": (2, 17),
    "moonrakers": (2, 13),
    "moon_bots": (2, 6),
    "moon_adventure": (2, 15),
}


def compact(value: object, indent: int = 0, width: int = 88) -> str:
    """JSON with each object or list on one line when it fits in `width` columns."""
    flat = json.dumps(value)
    if len(flat) + indent <= width or not isinstance(value, dict | list) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {compact(v, indent + 2, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + compact(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def example(game: str, players: int, moves: int, seed: int = 7) -> str | None:
    """The act message after `moves` seeded random moves, or None if the game ended."""
    state = engine.get_game(game).new_state(players, seed=seed)
    rng = random.Random(1)
    for _ in range(moves):
        if state.is_terminal():
            return None
        state.apply(rng.choice(state.legal_actions()))
    seat = state.to_move()
    if seat is None:
        return None
    message = {
        "type": "act",
        "match": 7,
        "observation": state.observation(seat),
        "legal_actions": state.legal_actions(),
    }
    return compact(message) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--moves", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--write", action="store_true", help="write the guide's examples")
    args = parser.parse_args(argv)
    if args.write:
        EXAMPLES_DIR.mkdir(parents=True, exist_ok=True)
        for game, (players, moves) in EXAMPLES.items():
            text = example(game, players, moves)
            assert text is not None, game
            (EXAMPLES_DIR / f"{game}.json").write_text(text)
        return 0
    if not args.game:
        parser.error("name a game, or --write")
    text = example(args.game, args.players, args.moves, args.seed)
    if text is None:
        print("the game is over", file=sys.stderr)
        return 1
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
