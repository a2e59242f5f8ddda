"""The referee: plays one match through the engine, seat by seat, with no ORM.

It asks each seat's player for moves, checks them through the engine, and
turns every failure of a bot (crash, timeout, illegal move, flooding) into a
forfeit: the seat ranks last, the reason is kept, and a fixed fallback policy
plays its seat so the rest of the table plays on.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.core.ranking import ranks_from_keys
from workers.players import Forfeit, Player


@dataclass
class MatchOutcome:
    record: dict[str, Any]
    ranks: list[int]
    scores: list[Any]
    forfeits: dict[int, str]
    stderr: list[str]
    decisions: int
    seconds: float
    result: dict[str, Any] = field(default_factory=dict)

    @property
    def cooperative_outcome(self) -> str | None:
        return self.result.get("outcome")


def final_ranks(engine_ranks: Sequence[int], forfeited: set[int]) -> list[int]:
    """Forfeited seats share last place; the others keep their order from the engine."""
    keys = [
        (0, 0) if seat in forfeited else (1, -engine_ranks[seat])
        for seat in range(len(engine_ranks))
    ]
    return ranks_from_keys(keys)


def fallback_action(legal_actions: list[Any], rng: random.Random) -> Any:
    """What a forfeited seat plays: pass when it can, otherwise a seeded random move."""
    for action in legal_actions:
        if action == "pass":
            return action
    return rng.choice(legal_actions)


def play_match(
    game_name: str,
    seed: int,
    players: Sequence[Player],
    options: dict[str, Any] | None = None,
    match_seconds: float | None = None,
) -> MatchOutcome:
    """Play one match to the end. Raises only for a bad set-up (engine errors)."""
    game = engine.get_game(game_name)
    state = game.new_state(len(players), seed, options)
    started = time.monotonic()
    deadline = started + match_seconds if match_seconds else None
    forfeits: dict[int, str] = {}
    fallback_rng = random.Random(f"fallback:{seed}")
    stderr = [""] * len(players)
    try:
        for seat, player in enumerate(players):
            problem = player.start(
                {
                    "type": "start",
                    "game": game.name,
                    "rules_version": game.rules_version,
                    "seat": seat,
                    "players": len(players),
                    "options": state.options,
                    "seed": seed,
                }
            )
            if problem is not None:
                forfeits[seat] = f"failed to start: {problem.reason}"
        decisions = 0
        while not state.is_terminal():
            seat = state.to_move()
            assert seat is not None
            legal = state.legal_actions()
            if seat not in forfeits and deadline is not None and time.monotonic() > deadline:
                for other in range(len(players)):
                    forfeits.setdefault(other, "the match ran past its wall-clock limit")
            if seat in forfeits:
                state.apply(fallback_action(legal, fallback_rng))
                continue
            answer = players[seat].act(state.observation(seat), legal)
            decisions += 1
            if isinstance(answer, Forfeit):
                forfeits[seat] = answer.reason
                continue
            try:
                state.apply(answer)
            except engine.IllegalAction as exc:
                forfeits[seat] = f"illegal action: {exc}"
        result = state.result()
        for seat, player in enumerate(players):
            if seat not in forfeits:
                player.end(result)
    finally:
        for seat, player in enumerate(players):
            stderr[seat] = player.close()
    ranks = final_ranks(result["ranks"], set(forfeits))
    record = state.record()
    record["forfeits"] = {str(seat): reason for seat, reason in sorted(forfeits.items())}
    record["final_ranks"] = ranks
    return MatchOutcome(
        record=record,
        ranks=ranks,
        scores=list(result["scores"]),
        forfeits=forfeits,
        stderr=stderr,
        decisions=decisions,
        seconds=time.monotonic() - started,
        result=result,
    )
