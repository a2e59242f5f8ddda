"""Swiss system pairings (pure): who meets whom in the next round, from the standings so far.

Two-player rounds are a maximum-weight perfect matching (Edmonds' blossom algorithm, as
networkx implements it) over every pair of entrants plus a "bye" vertex for an odd field.
Each edge weight is a lexicographic key, so the matching first minimises, in this order:

1. repeated pairings (a pair that met before is allowed only when no pairing avoids it);
2. seat imbalance: like chess colours, no entrant goes two games up in one seat;
3. the bye: to the lowest-ranked entrant that has not had one (distinct byes);
4. score differences (pairs stay within their score group, floaters move one group);
5. the fold: in a score group of m, the i-th meets the (i + m/2)-th (top half v bottom half).

That is the Dutch system's order of criteria (FIDE Handbook C.04.3) with its absolute
colour rule tightened to "within one", and found by a weighted matching as bbpPairings
and lichess do, not by a greedy pass that can paint itself into a corner.

Multiplayer rounds (k-player tables) walk the standings: tables are consecutive blocks
improved by a bounded branch-and-bound search for the fewest repeated opponent pairs, then
the least spread in standings; the n mod k lowest-ranked entrants without a bye sit out.
Seats go to whoever has sat least in them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations

import networkx as nx

from arena.tournaments.round_robin import ScheduleError, rotations

# How many partial tables the multiplayer search may visit per round before it settles
# for the best found (small fields are searched to the end well within it).
SEARCH_BUDGET = 20_000


@dataclass(frozen=True)
class Entrant:
    """One entrant as the pairing sees it; the caller lists them in standings order."""

    bot: Hashable
    score: float = 0.0
    opponents: tuple[Hashable, ...] = ()  # one entry per game against each opponent met
    seats: tuple[int, ...] = ()  # how many games it played in each seat
    byes: int = 0
    last_seat: int | None = None


@dataclass(frozen=True)
class Round:
    """A round's tables (seat order of the first game) and the entrants with a bye."""

    tables: list[tuple[Hashable, ...]]
    byes: list[Hashable] = field(default_factory=list)


def default_rounds(entrants: int) -> int:
    """⌈log2 n⌉ + 1: enough for a single winner to emerge, plus one round of margin."""
    return math.ceil(math.log2(max(entrants, 2))) + 1


def max_rounds(entrants: int, players_per_match: int = 2) -> int:
    """The most rounds a Swiss can always pair without a repeat, whatever the results.

    Two players: after r rounds every entrant (and, in an odd field, the bye) still has
    n - 1 - r unplayed opponents among n (n + 1 with the bye) vertices; while that is at
    least half of them, Dirac's theorem gives a Hamiltonian cycle, hence a perfect matching
    of unplayed pairs. So n / 2 rounds in an even field, (n + 1) / 2 in an odd one. A full
    round robin (n - 1 rounds) can be impossible to finish round by round: the unplayed
    pairs of six entrants after three rounds may be two triangles.
    k players: each table brings k - 1 new opponents, so ⌊(n - 1) / (k - 1)⌋ rounds before
    a repeat is certain; the pairing keeps repeats to the fewest it finds.
    """
    if entrants < players_per_match or players_per_match < 2:
        return 0
    if players_per_match == 2:
        return (entrants + 1) // 2
    return (entrants - 1) // (players_per_match - 1)


def pair_round(
    entrants: Sequence[Entrant],
    players_per_match: int = 2,
    games_per_pairing: int = 1,
    round_number: int = 1,
    rounds_left: int = 0,
) -> Round:
    """Pair the next round. `entrants` are in standings order, best first.

    `rounds_left` (rounds after this one) lets multiplayer seating aim at balance over the
    whole event rather than after every round.
    """
    bots = [e.bot for e in entrants]
    if len(set(bots)) != len(bots):
        raise ScheduleError("an entrant is listed twice")
    if players_per_match < 2:
        raise ScheduleError("a Swiss needs tables of at least 2")
    if len(entrants) < players_per_match:
        raise ScheduleError(f"a Swiss of {players_per_match}-player tables needs more entrants")
    if players_per_match == 2:
        return _pair_two(list(entrants), games_per_pairing, round_number)
    return _pair_tables(list(entrants), players_per_match, games_per_pairing, rounds_left)


# ----- two players -----------------------------------------------------------------------------


def _seat_diff(entrant: Entrant) -> int:
    seats = list(entrant.seats) + [0, 0]
    return seats[0] - seats[1]


def _score_key(score: float) -> int:
    # Scores are sums of halves and of fractions of a set; a fixed grid keeps them exact.
    return round(score * 1000)


def _pair_two(entrants: list[Entrant], games: int, round_number: int) -> Round:
    n = len(entrants)
    met = [Counter(e.opponents) for e in entrants]
    diffs = [_seat_diff(e) for e in entrants]
    # A set of an even number of games puts each entrant in each seat equally often.
    seats_move = games % 2 == 1
    scores = [_score_key(e.score) for e in entrants]
    group_of: dict[int, list[int]] = {}
    for i, score in enumerate(scores):
        group_of.setdefault(score, []).append(i)

    place = {i: index for group in group_of.values() for index, i in enumerate(group)}

    def fold(i: int, j: int) -> int:
        gi, gj = group_of[scores[i]], group_of[scores[j]]
        a, b = place[i], place[j]
        if gi is gj:
            return abs(b - a - len(gi) // 2)
        # A floater: the lowest of the upper group should meet the top of the lower one.
        return (len(gi) - 1 - a) + b

    def key(i: int, j: int) -> tuple[int, ...]:
        clash = seats_move and (
            (diffs[i] >= 1 and diffs[j] >= 1) or (diffs[i] <= -1 and diffs[j] <= -1)
        )
        return (
            -met[i][entrants[j].bot],
            -int(clash),
            0,
            -((scores[i] - scores[j]) ** 2),
            -fold(i, j),
        )

    bye = n
    bye_keys: dict[tuple[int, int], tuple[int, ...]] = {}
    if n % 2:
        for i, entrant in enumerate(entrants):
            # A second bye counts as a repeat: only when everyone has had one.
            bye_keys[(i, bye)] = (-entrant.byes, 0, i, 0, 0)
    # First only pairs near each other in the standings (half the largest score group
    # and some): the blossom algorithm's time grows with the edges, and the fold's pairs
    # are within that reach. If that leaves a repeat, a seat clash or a second bye, which
    # the whole graph might avoid, pair again over every pair.
    reach = max(len(group) for group in group_of.values()) // 2 + 12
    near = {(i, j): key(i, j) for i in range(n) for j in range(i + 1, min(n, i + 1 + reach))}
    near.update(bye_keys)
    matched = _max_weight_matching(near, n + n % 2)
    if matched is None or any(min(near[pair][:2]) < 0 for pair in matched):
        every = {(i, j): key(i, j) for i, j in combinations(range(n), 2)}
        every.update(bye_keys)
        matched = _max_weight_matching(every, n + n % 2)
    if matched is None:
        raise ScheduleError("no complete pairing exists")  # cannot happen on a full graph

    tables: list[tuple[Hashable, ...]] = []
    byes: list[Hashable] = []
    for i, j in sorted(matched):
        if j == bye:
            byes.append(entrants[i].bot)
            continue
        tables.append(_seat_two(entrants[i], entrants[j], diffs[i], diffs[j], round_number))
    return Round(tables, byes)


def _max_weight_matching(
    keys: dict[tuple[int, int], tuple[int, ...]], nodes: int
) -> set[tuple[int, int]] | None:
    """Maximum-weight perfect matching where each weight is a lexicographic key; None if
    the edges given admit no perfect matching."""
    tiers = len(next(iter(keys.values())))
    # Each tier's base exceeds what every lower tier can add up to over a whole matching.
    span = max(abs(v) for key in keys.values() for v in key) + 1
    base = span * (nodes + 1) * 2
    graph = nx.Graph()
    graph.add_nodes_from(range(nodes))
    lowest = [min(key[t] for key in keys.values()) for t in range(tiers)]
    for (i, j), key in keys.items():
        weight = 0
        for tier, value in enumerate(key):
            # Shifted to be positive: an edge is always worth taking (a perfect matching).
            weight = weight * base + (value - lowest[tier] + 1)
        graph.add_edge(i, j, weight=weight)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = {(min(a, b), max(a, b)) for a, b in matching}
    return pairs if 2 * len(pairs) == nodes else None


def _seat_two(a: Entrant, b: Entrant, da: int, db: int, round_number: int) -> tuple:
    """Seat 0 to whoever sat in it less; then alternate from the last game; then by rank."""
    if da != db:
        return (a.bot, b.bot) if da < db else (b.bot, a.bot)
    if a.last_seat is not None and b.last_seat is not None and a.last_seat != b.last_seat:
        return (a.bot, b.bot) if a.last_seat == 1 else (b.bot, a.bot)
    # `a` ranks higher: it takes seat 0 in odd rounds, as the top board's colours alternate.
    return (a.bot, b.bot) if round_number % 2 == 1 else (b.bot, a.bot)


# ----- multiplayer tables ----------------------------------------------------------------------


def _pair_tables(entrants: list[Entrant], k: int, games: int, rounds_left: int) -> Round:
    n = len(entrants)
    sitting_out = n % k
    byes: list[int] = []
    if sitting_out:
        # The fewest byes so far, then one whose seats can still end even after sitting
        # out, then the lowest-ranked.
        def bye_key(i: int) -> tuple[int, bool, int]:
            counts = list(entrants[i].seats) + [0] * (k - len(entrants[i].seats))
            return (entrants[i].byes, not _can_end_even(counts, games * rounds_left), -i)

        order = sorted(range(n), key=bye_key)
        byes = sorted(order[:sitting_out])
    playing = [i for i in range(n) if i not in byes]
    costs = _TableCosts(entrants, k, games, rounds_left)
    groups = _best_tables(playing, k, costs)
    tables = [costs.seating(group) for group in groups]
    return Round(tables, [entrants[i].bot for i in byes])


class _TableCosts:
    """What one table costs: a member whose seats can no longer end the event within one
    of each other, then repeated opponent pairs, then how uneven its seating leaves the
    members' seat counts, then the spread in the standings. One integer, each criterion
    weighted above everything the later ones can add up to."""

    def __init__(self, entrants: list[Entrant], k: int, games: int, rounds_left: int) -> None:
        self.entrants, self.k, self.games, self.rounds_left = entrants, k, games, rounds_left
        self.met = [Counter(e.opponents) for e in entrants]
        n = len(entrants)
        most = max((max(e.seats, default=0) for e in entrants), default=0) + games
        self.spread_weight = 1
        self.squares_weight = n * n + 1
        self.repeat_weight = self.squares_weight * (n * k * games * (2 * most + 1) + 1)
        self.seat_weight = self.repeat_weight * (n * k + 1)
        self.cache: dict[tuple[int, ...], tuple[int, tuple[Hashable, ...]]] = {}

    def __call__(self, group: tuple[int, ...]) -> int:
        return self._solve(group)[0]

    def seating(self, group: tuple[int, ...]) -> tuple[Hashable, ...]:
        return self._solve(group)[1]

    def _solve(self, group: tuple[int, ...]) -> tuple[int, tuple[Hashable, ...]]:
        found = self.cache.get(group)
        if found is None:
            members = [self.entrants[i] for i in group]
            repeats = sum(self.met[a][self.entrants[b].bot] for a, b in combinations(group, 2))
            stuck, seating = _seat_table(members, self.games, self.rounds_left)
            # How much more uneven the members' seats get: the most even tables now keep
            # the later rounds' tables free to form without a repeat.
            before = sum(x * x for e in members for x in e.seats)
            after = sum(x * x for x in _seat_counts_after(members, seating, self.games))
            cost = stuck * self.seat_weight + repeats * self.repeat_weight
            cost += (after - before) * self.squares_weight
            found = self.cache[group] = (cost + max(group) - min(group), seating)
        return found


def _best_tables(playing: list[int], k: int, cost_of: _TableCosts) -> list[tuple[int, ...]]:
    """Split `playing` (standings order) into tables of k at the lowest total cost.

    Depth-first: the highest-ranked entrant left picks its k - 1 table-mates, cheapest
    first, pruned by the best total found so far (the consecutive blocks to start with).
    Exhaustive on small fields; a budget of visits keeps big ones quick.
    """
    blocks = [tuple(playing[i : i + k]) for i in range(0, len(playing), k)]
    best_cost = sum(cost_of(b) for b in blocks)
    best = blocks
    visits = 0
    window = max(3 * k, 8)

    def search(left: list[int], chosen: list[tuple[int, ...]], cost: int) -> None:
        nonlocal best, best_cost, visits
        if not left:
            if cost < best_cost:
                best, best_cost = list(chosen), cost
            return
        head, rest = left[0], left[1:]
        # Table-mates come from near the head in the standings (the format's promise, and
        # what keeps the search small): the next few tables' worth of entrants.
        options = sorted(
            (tuple([head, *mates]) for mates in combinations(rest[:window], k - 1)), key=cost_of
        )
        for group in options:
            visits += 1
            if visits > SEARCH_BUDGET:
                return
            extra = cost_of(group)
            # Every later table spreads at least k - 1 places.
            bound = cost + extra + (len(rest) - k + 1) // k * (k - 1)
            if bound >= best_cost:
                continue
            taken = set(group)
            chosen.append(group)
            search([i for i in rest if i not in taken], chosen, cost + extra)
            chosen.pop()

    search(playing, [], 0)
    return best


def _seat_table(
    table: Sequence[Entrant], games: int = 1, rounds_left: int = 0
) -> tuple[int, tuple[Hashable, ...]]:
    """The seating of a table's first game (later games rotate it) that keeps seat counts
    even: returns (members who can no longer end within one, seating)."""
    k = len(table)
    later = games * rounds_left
    # In game g the bot at position p of the first seating sits in seat (p - g) mod k, so
    # what a position does to a bot's counts does not depend on the others: one cost per
    # (bot, position), then the cheapest assignment of positions.
    cost: dict[Hashable, list[tuple[int, int]]] = {}
    for entrant in table:
        counts = list(entrant.seats) + [0] * (k - len(entrant.seats))
        per_position = []
        for position in range(k):
            after = list(counts)
            for game in range(games):
                after[(position - game) % k] += 1
            per_position.append((int(not _can_end_even(after, later)), sum(x * x for x in after)))
        cost[entrant.bot] = per_position
    bots = [e.bot for e in table]
    candidates = permutations(bots) if k <= 6 else iter(rotations(bots))

    def total(seating: tuple[Hashable, ...]) -> tuple[int, int]:
        stuck = squares = 0
        for position, bot in enumerate(seating):
            s, q = cost[bot][position]
            stuck += s
            squares += q
        return stuck, squares

    best = min(candidates, key=total)
    return total(best)[0], best


def _seat_counts_after(
    table: Sequence[Entrant], seating: Sequence[Hashable], games: int
) -> list[int]:
    """Every member's seat counts, flattened, after the table's games from `seating`."""
    k = len(seating)
    by_bot = {e.bot: list(e.seats) + [0] * (k - len(e.seats)) for e in table}
    for position, bot in enumerate(seating):
        for game in range(games):
            by_bot[bot][(position - game) % k] += 1
    return [x for counts in by_bot.values() for x in counts]


def _can_end_even(counts: list[int], games_left: int) -> bool:
    """Whether `games_left` more games can leave every seat count within one of the others.

    The final counts must be q or q + 1 (q = total // k) with exactly total % k of them at
    q + 1, and no count can go down.
    """
    k = len(counts)
    q, r = divmod(sum(counts) + games_left, k)
    if max(counts) > q + 1 or sum(c == q + 1 for c in counts) > r:
        return False
    return sum(max(0, q - c) for c in counts) <= games_left


# ----- replaying an event: the pure state the next round is paired from -----------------------


@dataclass(frozen=True)
class PlayedTable:
    """One table of a finished round: each game's seat order and each bot's points over it."""

    games: Sequence[Sequence[Hashable]]
    points: dict[Hashable, float]


def entrants_after(
    order: Sequence[Hashable],
    rounds: Sequence[tuple[Sequence[PlayedTable], Sequence[Hashable]]],
    bye_points: float = 1.0,
) -> list[Entrant]:
    """The Entrant records for `order` (standings order) after the given rounds.

    Each round is (tables, byes). A table's points are averaged over its games, so a round
    is worth at most one point whatever games_per_pairing is; a bye scores `bye_points`.
    """
    score: Counter[Hashable] = Counter()
    opponents: dict[Hashable, list[Hashable]] = {bot: [] for bot in order}
    width = max((len(g) for tables, _ in rounds for t in tables for g in t.games), default=2)
    seats: dict[Hashable, list[int]] = {bot: [0] * width for bot in order}
    last_seat: dict[Hashable, int] = {}
    byes: Counter[Hashable] = Counter()
    for tables, round_byes in rounds:
        for bot in round_byes:
            byes[bot] += 1
            score[bot] += bye_points
        for table in tables:
            members = list(table.games[0]) if table.games else []
            for bot in members:
                score[bot] += table.points.get(bot, 0.0) / max(len(table.games), 1)
                opponents.setdefault(bot, []).extend(o for o in members if o != bot)
            for game in table.games:
                for seat, bot in enumerate(game):
                    seats.setdefault(bot, [0] * width)[seat] += 1
                    last_seat[bot] = seat
    return [
        Entrant(
            bot=bot,
            score=score[bot],
            opponents=tuple(opponents.get(bot, [])),
            seats=tuple(seats.get(bot, [])),
            byes=byes[bot],
            last_seat=last_seat.get(bot),
        )
        for bot in order
    ]
