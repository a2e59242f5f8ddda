"""The referee: plays a set of matches through the engine in lock-step, with no ORM.

A set is one or more matches between the same bots (`play_set`); each bot is one
channel (`workers/play/players.py`: one process for the whole set, or a bot called in
this process). Every round the referee advances each unfinished match to its next
decision, sends each bot all of its pending decisions in one write, and applies the
answers as they arrive. One match alone is a set of one (`play_match`).

Every failure of a bot (crash, timeout, illegal move, flooding) becomes a forfeit
in the match it happened in, or in every match it was still playing when its
process is gone: the seat ranks last, the reason is kept, and a fixed fallback
policy plays its seat so the rest of the table plays on. Matches are independent:
each has its own state, seed, fallback and time bank, so a set's results are
those of playing its matches one by one with deterministic bots.
"""

from __future__ import annotations

import random
import selectors
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.core.ranking import ranks_from_keys
from workers.play.players import (
    Bot,
    Forfeit,
    Player,
    close_all,
    stop_all,
    wait_for_answers,
    watch,
)

HEARTBEAT_SECONDS = 60.0
# Records handed to `progress` while a set plays: a callback (match key -> partial record),
# called with the matches that moved since its last call.
Progress = Callable[[dict[int, dict[str, Any]]], None]


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


@dataclass
class SetMatch:
    """One match of a set: its protocol key (the match id), seed and who sits where.

    `seats[i]` is the index, in the set's list of bots, of the bot in seat i; a bot
    sits at most once in a match (self-play starts one bot per seat)."""

    key: Any
    seed: int
    seats: list[int]
    options: dict[str, Any] | None = None


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


class _Table:
    """One match of the set in play."""

    def __init__(self, game: engine.Game, spec: SetMatch) -> None:
        self.spec = spec
        self.state = game.new_state(len(spec.seats), spec.seed, spec.options)
        self.forfeits: dict[int, str] = {}
        self.fallback_rng = random.Random(f"fallback:{spec.seed}")
        self.decisions = 0
        self.asked: tuple[int, list[Any]] | None = None  # (seat, legal actions) in flight
        self.seconds = 0.0
        self.done = False

    def seat_of(self, bot: int) -> int:
        return self.spec.seats.index(bot)

    def forfeit(self, seat: int, reason: str) -> None:
        self.forfeits.setdefault(seat, reason)

    def advance(self) -> int | None:
        """Play forfeited seats' fallback moves; return the live seat to ask, or None at the end."""
        state = self.state
        while not state.is_terminal():
            seat = state.to_move()
            assert seat is not None
            if seat not in self.forfeits:
                return seat
            state.apply(fallback_action(state.legal_actions(), self.fallback_rng))
        return None

    def answer(self, action: Any) -> None:
        assert self.asked is not None
        seat, _ = self.asked
        self.asked = None
        self.decisions += 1
        if isinstance(action, Forfeit):
            self.forfeit(seat, action.reason)
            return
        try:
            self.state.apply(action)
        except engine.IllegalAction as exc:
            self.forfeit(seat, f"illegal action: {exc}")


def play_set(
    game_name: str,
    matches: Sequence[SetMatch],
    bots: Sequence[Bot],
    match_seconds: float | None = None,
    heartbeat: Callable[[], None] | None = None,
    reap: bool = True,
    progress: Progress | None = None,
    progress_seconds: float = 3.0,
) -> list[MatchOutcome]:
    """Play every match of a set to the end; one outcome per match, in order.

    Raises only for a bad set-up (engine errors). `match_seconds` bounds each match's
    wall-clock time as if the set's matches were played one after another. The bots are
    closed at the end (their stderr goes to every match they sat in); with `reap=False`
    only killed, and the caller closes them (`close_all`) while it does something else.
    `heartbeat` is called about every HEARTBEAT_SECONDS while the set plays (the task
    keeps its claims alive with it). `progress`, about every `progress_seconds`, gets the
    partial record (`State.record`, result None) of each match that moved since the last
    call: what the replay viewer shows of a running match.
    """
    game = engine.get_game(game_name)
    tables = [_Table(game, spec) for spec in matches]
    by_key = {table.spec.key: table for table in tables}
    if len(by_key) != len(tables):
        raise ValueError("two matches of the set have the same key")
    if any(type(key) is not int for key in by_key):
        # A bot's reply names its match by an int (workers/play/bot_process.py checks it so).
        raise ValueError("a match key must be an int")
    started = time.monotonic()
    deadline = started + match_seconds * len(tables) if match_seconds else None
    stderr: list[str] = []
    selector = selectors.DefaultSelector()
    try:
        for bot in bots:
            watch(selector, bot)
        for table in tables:
            for seat, index in enumerate(table.spec.seats):
                bots[index].post(
                    table.spec.key,
                    {
                        "type": "start",
                        "game": game.name,
                        "rules_version": game.rules_version,
                        "seat": seat,
                        "players": len(table.spec.seats),
                        "options": table.state.options,
                        "seed": table.spec.seed,
                    },
                )
        active = list(tables)
        beat = told = started
        sent: dict[int, int] = {}
        while active:
            if heartbeat is not None and time.monotonic() - beat > HEARTBEAT_SECONDS:
                heartbeat()
                beat = time.monotonic()
            if progress is not None and time.monotonic() - told > progress_seconds:
                moved = {
                    t.spec.key: t.state.record()
                    for t in active
                    if sent.get(t.spec.key) != len(t.state.actions)
                }
                sent.update({key: len(record["actions"]) for key, record in moved.items()})
                if moved:
                    progress(moved)
                told = time.monotonic()
            active = _ask_all(active, bots, deadline, started)
            _collect(active, by_key, bots, selector)
        for bot in bots:
            bot.flush()  # the last matches' end messages
    finally:
        stderr = close_all(bots) if reap else stop_all(bots)
        selector.close()
    return [_outcome(table, stderr) for table in tables]


def _ask_all(
    active: list[_Table], bots: Sequence[Bot], deadline: float | None, started: float
) -> list[_Table]:
    """Post each unfinished match's next decision to its bot, then one write per bot.

    Returns the matches still being played (the others are finished here)."""
    late = deadline is not None and time.monotonic() > deadline
    dead = [index for index, bot in enumerate(bots) if bot.dead is not None]
    still = []
    for table in active:
        seats = table.spec.seats
        if late:
            for seat in range(len(seats)):
                table.forfeit(seat, "the match ran past its wall-clock limit")
        for index in dead:
            if index in seats:
                table.forfeit(seats.index(index), bots[index].dead.reason)  # type: ignore[union-attr]
        seat = table.advance()
        if seat is None:
            _finish(table, bots, started)
            continue
        still.append(table)
        state = table.state
        legal = state.legal_actions()
        table.asked = (seat, legal)
        bots[seats[seat]].post(
            table.spec.key,
            # The observation last: a bot that asked for lazy observations has it
            # decoded only when it reads it (bots/sdk/runner.py).
            {"type": "act", "legal_actions": legal, "observation": state.observation(seat)},
        )
    for bot in bots:
        bot.flush()
    return still


def _collect(
    active: list[_Table],
    by_key: dict[Any, _Table],
    bots: Sequence[Bot],
    selector: selectors.BaseSelector,
) -> None:
    """Apply answers as they come until every posted decision is answered or forfeited."""
    outstanding = sum(1 for table in active if table.asked is not None)
    while outstanding:
        for index, bot in enumerate(bots):
            for key, answer in bot.take_answers():
                table = by_key.get(key)
                if table is None or table.done:
                    continue
                if table.asked is None or table.spec.seats[table.asked[0]] != index:
                    # A forfeit of a match this bot is not asked about now (setup failed).
                    if isinstance(answer, Forfeit):
                        table.forfeit(table.seat_of(index), answer.reason)
                    continue
                table.answer(answer)
                outstanding -= 1
            if bot.dead is not None:
                # Gone: every match it was still playing is lost for its seat, and a
                # request it can no longer answer is closed here (a bot's death answers
                # its requests; this holds even if one was lost on the way).
                for table in active:
                    if index in table.spec.seats:
                        table.forfeit(table.seat_of(index), bot.dead.reason)
                        if table.asked is not None and table.spec.seats[table.asked[0]] == index:
                            table.answer(bot.dead)
                            outstanding -= 1
        if outstanding:
            wait_for_answers(bots, selector)


def _finish(table: _Table, bots: Sequence[Bot], started: float) -> None:
    table.done = True
    table.seconds = time.monotonic() - started
    result = table.state.result()
    for seat, index in enumerate(table.spec.seats):
        if seat not in table.forfeits:
            bots[index].post(table.spec.key, {"type": "end", "result": result})


def _outcome(table: _Table, stderr: list[str]) -> MatchOutcome:
    state = table.state
    result = state.result()
    ranks = final_ranks(result["ranks"], set(table.forfeits))
    record = state.record()
    record["forfeits"] = {str(seat): reason for seat, reason in sorted(table.forfeits.items())}
    record["final_ranks"] = ranks
    return MatchOutcome(
        record=record,
        ranks=ranks,
        scores=list(result["scores"]),
        forfeits=dict(table.forfeits),
        stderr=[stderr[index] for index in table.spec.seats],
        decisions=table.decisions,
        seconds=table.seconds,
        result=result,
    )


def play_match(
    game_name: str,
    seed: int,
    players: Sequence[Player],
    options: dict[str, Any] | None = None,
    match_seconds: float | None = None,
) -> MatchOutcome:
    """Play one match to the end (a set of one). Raises only for a bad set-up (engine errors)."""
    spec = SetMatch(key=0, seed=seed, seats=list(range(len(players))), options=options)
    bots = [player.bot for player in players]
    return play_set(game_name, [spec], bots, match_seconds)[0]
