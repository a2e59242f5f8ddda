"""Which ladder tables to play next (pure: plain data in, tables out, no ORM, no clock).

The order of concerns, each table at a time:

1. Newcomer guarantee: a version with fewer than `newcomer_games` ladder games (played
   or in flight) anchors the next table, before anything else.
2. Exploration: with probability `exploration` the table is drawn uniformly at random
   (owner first, then one of the owner's bots), so no pair is left unseen for ever and
   the ratings keep a global anchor.
3. Information: otherwise the least-known bot anchors the table, and each further seat
   goes to the bot that adds the most information to it. A pair's information is the
   outcome's Bernoulli variance under Elo, 4·E·(1−E) with E the expected score from the
   current ratings (1 for an even match, → 0 for a foregone one: close expected scores),
   times the pair's rating uncertainty (each bot's games n give σ ∝ 1/√(1 + n/10):
   uncertain ratings), times 1/√(1 + games already played by the pair): under-sampled
   pairs.

Fair share per owner: anchors go to the owner whose bots sat fewest seats recently
(the caller's window plus this plan), and a further seat only to bots of owners within
one table of the least-served owner among the candidates; an owner with fifty bots gets
about the seats of an owner with one.

Every table is played as a duplicate set (arena/ladder/tables.py), so a table of k bots
costs k matches; a plan never spends more matches than its budget.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from arena.ratings import expected_score

NEWCOMER = "newcomer"
EXPLORE = "explore"
INFORMATIVE = "informative"


@dataclass(frozen=True)
class Entrant:
    """One bot on the ladder, as the selection sees it."""

    bot_id: int
    owner_id: int
    version_id: int
    rating: float = 1500.0
    games: int = 0  # rated games of the bot in this game (all versions): its certainty
    ladder_games: int = 0  # ladder matches of this version, finished or in flight
    active: bool = True
    paused: bool = False

    def can_play(self) -> bool:
        return self.active and not self.paused


@dataclass(frozen=True)
class Table:
    """Bots in rotation-0 seat order; played as len(bots) matches, one per rotation."""

    bots: tuple[int, ...]
    reason: str

    @property
    def matches(self) -> int:
        return len(self.bots)


@dataclass
class History:
    """What was played recently (the caller's window): seats per owner, games per pair."""

    owner_seats: Counter[int] = field(default_factory=Counter)
    pair_games: Counter[tuple[int, int]] = field(default_factory=Counter)
    size_matches: Counter[int] = field(default_factory=Counter)

    def add(self, bots: Sequence[int], owners: Mapping[int, int], matches: int) -> None:
        for bot in bots:
            self.owner_seats[owners[bot]] += matches
        for i, a in enumerate(bots):
            for b in bots[i + 1 :]:
                self.pair_games[pair(a, b)] += matches
        self.size_matches[len(bots)] += matches


@dataclass(frozen=True)
class Policy:
    newcomer_games: int = 10
    exploration: float = 0.1


def pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def uncertainty(games: int) -> float:
    """A rating's relative uncertainty after `games` games (1 for a new bot)."""
    return 1.0 / math.sqrt(1.0 + games / 10.0)


def pair_information(a: Entrant, b: Entrant, played: int) -> float:
    expected = expected_score(a.rating, b.rating)
    closeness = 4.0 * expected * (1.0 - expected)
    spread = math.sqrt((uncertainty(a.games) ** 2 + uncertainty(b.games) ** 2) / 2.0)
    return closeness * (0.5 + spread) / math.sqrt(1.0 + played)


def plan_tables(
    entrants: Sequence[Entrant],
    table_sizes: Sequence[int],
    budget: int,
    rng: random.Random,
    policy: Policy = Policy(),
    history: History | None = None,
) -> list[Table]:
    """Tables to play now, spending at most `budget` matches (a table of k costs k).

    Bots that cannot play (deactivated, paused) never sit at a table. The history is
    copied, then extended with each planned table, so one plan spreads its tables.
    """
    pool = {e.bot_id: e for e in entrants if e.can_play()}
    owners = {e.bot_id: e.owner_id for e in pool.values()}
    seen = History(
        Counter((history or History()).owner_seats),
        Counter((history or History()).pair_games),
        Counter((history or History()).size_matches),
    )
    ladder_games = {bot: e.ladder_games for bot, e in pool.items()}
    tables: list[Table] = []
    while True:
        size = _next_size(table_sizes, len(pool), budget, seen)
        if size is None:
            return tables
        table = _one_table(pool, owners, ladder_games, size, rng, policy, seen)
        tables.append(table)
        budget -= table.matches
        seen.add(table.bots, owners, table.matches)
        for bot in table.bots:
            ladder_games[bot] += table.matches


def _next_size(sizes: Sequence[int], bots: int, budget: int, seen: History) -> int | None:
    """The size whose tables had the fewest matches, among those that fit."""
    possible = [s for s in sizes if s <= bots and s <= budget]
    if not possible:
        return None
    return min(possible, key=lambda s: (seen.size_matches[s], s))


def _one_table(
    pool: dict[int, Entrant],
    owners: dict[int, int],
    ladder_games: dict[int, int],
    size: int,
    rng: random.Random,
    policy: Policy,
    seen: History,
) -> Table:
    newcomers = [b for b in pool if ladder_games[b] < policy.newcomer_games]
    if newcomers:
        anchor = _fairest(newcomers, owners, seen, rng, key=lambda b: ladder_games[b])
        reason = NEWCOMER
    elif rng.random() < policy.exploration:
        return Table(_random_table(pool, owners, size, rng), EXPLORE)
    else:
        anchor = _fairest(list(pool), owners, seen, rng, key=lambda b: -uncertainty(pool[b].games))
        reason = INFORMATIVE
    table = [anchor]
    while len(table) < size:
        table.append(_best_addition(table, pool, owners, seen, rng, size))
    # The anchor need not sit first: the set rotates every seat anyway, but the rotation
    # that starts the set is drawn, so seat 0 is not always the newcomer.
    shift = rng.randrange(size)
    return Table(tuple(table[shift:] + table[:shift]), reason)


def _fairest(candidates, owners, seen: History, rng: random.Random, key) -> int:
    """A candidate of the least-served owner; among that owner's, the smallest key."""
    least = min(seen.owner_seats[owners[b]] for b in candidates)
    served_least = [b for b in candidates if seen.owner_seats[owners[b]] == least]
    owner = rng.choice(sorted({owners[b] for b in served_least}))
    mine = [b for b in served_least if owners[b] == owner]
    best = min(key(b) for b in mine)
    return rng.choice(sorted(b for b in mine if key(b) == best))


def _best_addition(table, pool, owners, seen: History, rng: random.Random, size: int) -> int:
    candidates = [b for b in pool if b not in table]
    # Fair share: only owners within one table's seats of the least-served candidate owner.
    least = min(seen.owner_seats[owners[b]] for b in candidates)
    fair = [b for b in candidates if seen.owner_seats[owners[b]] <= least + size]

    def information(candidate: int) -> float:
        return sum(
            pair_information(
                pool[candidate], pool[member], seen.pair_games[pair(candidate, member)]
            )
            for member in table
        )

    scored = [(information(b), rng.random(), b) for b in fair]
    return max(scored)[2]


def _random_table(pool, owners, size: int, rng: random.Random) -> tuple[int, ...]:
    """Owner first, then one of the owner's bots, until the table is full."""
    table: list[int] = []
    while len(table) < size:
        left = [b for b in pool if b not in table]
        owner = rng.choice(sorted({owners[b] for b in left}))
        table.append(rng.choice(sorted(b for b in left if owners[b] == owner)))
    return tuple(table)
