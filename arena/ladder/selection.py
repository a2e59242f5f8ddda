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

   When the entrants carry a whole-history fit (`skill`, `skill_sd` in Elo points, from
   arena/ratings/whole_history.py), the fit's own uncertainty drives it instead: a pair's
   score is the expected cut in the variance of its skill difference from one more game,
   v^2 I / (1 + v I) with v = sd_a^2 + sd_b^2 and I = p (1 - p) the outcome's Fisher
   information (log-strength units), times the chance the pair is still mis-ordered,
   2 Phi(-|skill_a - skill_b| / sqrt v): adjacent bots with overlapping intervals. A
   foregone pair (p < 0.1 or > 0.9) scores almost nothing. The anchor is then the bot
   with the best such pair, among owners within one table of the least served. The
   exploration share decays with the intervals: `exploration` times the mean sd over
   `Policy.exploration_sd` (at most 1).

Fair share per owner: anchors go to the owner whose bots sat fewest seats recently
(the caller's window plus this plan), and a further seat only to bots of owners within
one table of the least-served owner among the candidates; an owner with fifty bots gets
about the seats of an owner with one.

With `Policy.duplicate_sets` (the default) a table is played as a duplicate set
(arena/ladder/tables.py), so a table of k bots costs k matches; otherwise once, in its
drawn rotation. A plan never spends more matches than its budget.
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
    # The latest whole-history fit, if the bot is in one (Elo points): skill and its sd.
    skill: float | None = None
    skill_sd: float | None = None

    def can_play(self) -> bool:
        return self.active and not self.paused


@dataclass(frozen=True)
class Table:
    """Bots in rotation-0 seat order; played as len(bots) matches, one per rotation."""

    bots: tuple[int, ...]
    reason: str
    rotations: int = 0  # matches played (0: every rotation, a duplicate set)

    @property
    def matches(self) -> int:
        return self.rotations or len(self.bots)


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
    duplicate_sets: bool = True
    # With a fit, exploration is `exploration` * min(1, mean sd / this) (Elo points).
    exploration_sd: float = 100.0


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


ELO_PER_UNIT = 400.0 / math.log(10.0)
FOREGONE = 0.1  # expected scores below this (or above 1 - this) teach almost nothing


# A bot the fit has not seen yet (a newcomer since the last refit): its Elo, with the
# fit's prior sd as its uncertainty.
UNFITTED_SD = 400.0


def skill_of(e: Entrant) -> tuple[float, float]:
    """(skill, sd) in Elo points: the fit's, or the Elo rating with the prior's width."""
    if e.skill is None or e.skill_sd is None:
        return e.rating, UNFITTED_SD
    return e.skill, e.skill_sd


def fit_information(a: Entrant, b: Entrant) -> float:
    """The fit's case for one more game between a and b."""
    (skill_a, sd_a), (skill_b, sd_b) = skill_of(a), skill_of(b)
    gap = (skill_a - skill_b) / ELO_PER_UNIT
    variance = (sd_a**2 + sd_b**2) / ELO_PER_UNIT**2
    p = 1.0 / (1.0 + math.exp(-gap))
    information = p * (1.0 - p)
    cut = variance * variance * information / (1.0 + variance * information)
    misordered = math.erfc(abs(gap) / math.sqrt(2.0 * max(variance, 1e-12)))
    foregone = 0.01 if min(p, 1.0 - p) < FOREGONE else 1.0
    return cut * misordered * foregone


def has_fit(pool: Mapping[int, Entrant]) -> bool:
    """Whether the game has a fit (any entrant in it): then the fit drives the selection."""
    return any(e.skill is not None and e.skill_sd is not None for e in pool.values())


def exploration_share(pool: Mapping[int, Entrant], policy: Policy) -> float:
    if not has_fit(pool):
        return policy.exploration
    mean_sd = sum(skill_of(e)[1] for e in pool.values()) / len(pool)
    return policy.exploration * min(1.0, mean_sd / policy.exploration_sd)


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
    fitted = has_fit(pool)
    tables: list[Table] = []
    while True:
        size = _next_size(table_sizes, len(pool), budget, seen, policy.duplicate_sets)
        if size is None:
            return tables
        table = _one_table(pool, owners, ladder_games, size, rng, policy, seen, fitted)
        if not policy.duplicate_sets:
            table = Table(table.bots, table.reason, rotations=1)
        tables.append(table)
        budget -= table.matches
        seen.add(table.bots, owners, table.matches)
        for bot in table.bots:
            ladder_games[bot] += table.matches


def _next_size(
    sizes: Sequence[int], bots: int, budget: int, seen: History, duplicate: bool = True
) -> int | None:
    """The size whose tables had the fewest matches, among those that fit."""
    possible = [s for s in sizes if s <= bots and (s if duplicate else 1) <= budget]
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
    fitted: bool = False,
) -> Table:
    newcomers = [b for b in pool if ladder_games[b] < policy.newcomer_games]
    if newcomers:
        anchor = _fairest(newcomers, owners, seen, rng, key=lambda b: ladder_games[b])
        reason = NEWCOMER
    elif rng.random() < exploration_share(pool, policy):
        return Table(_random_table(pool, owners, size, rng), EXPLORE)
    elif fitted:
        anchor = _best_anchor(pool, owners, seen, rng, size)
        reason = INFORMATIVE
    else:
        anchor = _fairest(list(pool), owners, seen, rng, key=lambda b: -uncertainty(pool[b].games))
        reason = INFORMATIVE
    table = [anchor]
    while len(table) < size:
        table.append(_best_addition(table, pool, owners, seen, rng, size, fitted))
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


def _within_fair_share(candidates, owners, seen: History, size: int) -> list[int]:
    """Bots of owners within one table's seats of the least-served candidate owner."""
    least = min(seen.owner_seats[owners[b]] for b in candidates)
    return [b for b in candidates if seen.owner_seats[owners[b]] <= least + size]


# The anchor's best pair is looked for among this many neighbours on each side in the
# skill order: beyond them the mis-ordering factor is negligible (and a tick stays O(n)).
NEIGHBOURS = 4


def _best_anchor(pool, owners, seen: History, rng: random.Random, size: int) -> int:
    """The fair-share bot whose best pair (among its skill neighbours) the fit most wants."""
    fair = _within_fair_share(list(pool), owners, seen, size)
    order = sorted(pool, key=lambda b: (skill_of(pool[b])[0], b))
    place = {b: i for i, b in enumerate(order)}

    def best_pair(bot: int) -> float:
        i = place[bot]
        near = order[max(0, i - NEIGHBOURS) : i] + order[i + 1 : i + 1 + NEIGHBOURS]
        return max(fit_information(pool[bot], pool[other]) for other in near)

    scored = [(best_pair(b), rng.random(), b) for b in fair]
    return max(scored)[2]


def _best_addition(
    table, pool, owners, seen: History, rng: random.Random, size: int, fitted: bool = False
) -> int:
    candidates = [b for b in pool if b not in table]
    fair = _within_fair_share(candidates, owners, seen, size)

    def information(candidate: int) -> float:
        if fitted:
            return sum(fit_information(pool[candidate], pool[member]) for member in table)
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
