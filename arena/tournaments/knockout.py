"""Knockout brackets (pure): single and double elimination, seeded, with byes and sets.

The field is seeded by rating (seed 1 = best) into a bracket of the next power of two,
in the standard order that keeps the top seeds apart until the end (1 v 16, 8 v 9,
5 v 12, 4 v 13, ...: every round's pairs add up to size + 1). Seeds beyond the field are
byes, so the top seeds get them.

A bracket is a list of ties. Each side of a tie comes from a seed, or from the winner or
the loser of an earlier tie, so one function (`resolve`) works out from the decided ties
who plays whom now, which ties are byes, and who has won. Double elimination adds the
losers' bracket (the losers of winners' round r drop into it, and its rounds alternate
between its own survivors and the next drop) and a grand final, replayed once if the
winners' bracket champion loses it (a "bracket reset").

Each tie is a set of `games_per_pairing` games with the seats rotated; a set that ends
level gets extra pairs of games (one in each seat) up to a cap, and then goes to the
better seed (`decide_set`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from arena.tournaments.round_robin import ScheduleError

# Extra pairs of games a level set may add before the seed decides it.
EXTRA_PAIRS_CAP = 2


def bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket slot order: slots 2i and 2i + 1 meet in the first round."""
    if size < 1 or size & (size - 1):
        raise ScheduleError("a bracket size is a power of two")
    order = [1]
    while len(order) < size:
        doubled = len(order) * 2
        order = [s for seed in order for s in (seed, doubled + 1 - seed)]
    return order


@dataclass(frozen=True)
class Source:
    """Where one side of a tie comes from: a seed, or the winner/loser of another tie."""

    kind: str  # "seed", "winner", "loser"
    ref: int | str


@dataclass(frozen=True)
class Tie:
    id: str  # "W1-1" (winners' round 1, tie 1), "L2-1", "GF", "GF2"
    stage: str  # "winners", "losers", "final", "reset"
    round: int  # the round within its stage
    sides: tuple[Source, Source]


def single_elimination(entrants: int) -> list[Tie]:
    if entrants < 2:
        raise ScheduleError("a knockout needs at least 2 entrants")
    return _winners_bracket(bracket_size(entrants))


def double_elimination(entrants: int) -> list[Tie]:
    if entrants < 2:
        raise ScheduleError("a knockout needs at least 2 entrants")
    size = bracket_size(entrants)
    ties = _winners_bracket(size)
    rounds = size.bit_length() - 1
    if rounds == 1:
        # Two entrants: the loser of the only tie gets a second chance in the final.
        champion_of_losers = Source("loser", "W1-1")
    else:
        # Losers' round 1: the losers of winners' round 1 play each other.
        first = [t.id for t in ties if t.round == 1]
        firsts = zip(first[::2], first[1::2], strict=True)
        previous = _add_round(
            ties, 1, [(Source("loser", a), Source("loser", b)) for a, b in firsts]
        )
        number = 1
        for winners_round in range(2, rounds + 1):
            # Drop-in round: survivors v losers of this winners' round (reversed, so a
            # pair who met in the winners' bracket do not meet again at once).
            dropped = [t.id for t in ties if t.stage == "winners" and t.round == winners_round]
            number += 1
            pairs = zip(previous, reversed(dropped), strict=True)
            previous = _add_round(
                ties, number, [(Source("winner", a), Source("loser", b)) for a, b in pairs]
            )
            if len(previous) > 1:
                # A round among the survivors halves the losers' bracket again.
                number += 1
                halves = zip(previous[::2], previous[1::2], strict=True)
                previous = _add_round(
                    ties, number, [(Source("winner", a), Source("winner", b)) for a, b in halves]
                )
        champion_of_losers = Source("winner", previous[0])
    final_of_winners = f"W{rounds}-1"
    ties.append(Tie("GF", "final", 1, (Source("winner", final_of_winners), champion_of_losers)))
    # The reset is played only if the losers' champion wins GF (see resolve).
    ties.append(Tie("GF2", "reset", 1, (Source("winner", final_of_winners), champion_of_losers)))
    return ties


def _add_round(ties: list[Tie], number: int, pairs: list[tuple[Source, Source]]) -> list[str]:
    """Append one losers' bracket round; returns its tie ids."""
    ids = []
    for i, sides in enumerate(pairs, start=1):
        ties.append(Tie(f"L{number}-{i}", "losers", number, sides))
        ids.append(f"L{number}-{i}")
    return ids


def _winners_bracket(size: int) -> list[Tie]:
    order = seed_order(size)
    ties = []
    sources = [Source("seed", seed) for seed in order]
    round_number = 1
    while len(sources) > 1:
        next_sources = []
        for i in range(0, len(sources), 2):
            tie_id = f"W{round_number}-{i // 2 + 1}"
            ties.append(Tie(tie_id, "winners", round_number, (sources[i], sources[i + 1])))
            next_sources.append(Source("winner", tie_id))
        sources = next_sources
        round_number += 1
    return ties


@dataclass(frozen=True)
class TieState:
    """A tie as the bracket stands: its entrants (None: not known yet, or a bye's empty
    side), whether it is decided and by whom, and whether it is a bye (no games)."""

    tie: Tie
    sides: tuple[Hashable | None, Hashable | None]
    known: bool  # both sides are settled (an entrant, or definitely nobody)
    winner: Hashable | None = None
    loser: Hashable | None = None
    decided: bool = False
    bye: bool = False
    skipped: bool = False  # the bracket reset, not needed

    def is_playable(self) -> bool:
        """Both entrants known, not a bye, not decided: its games can be scheduled."""
        return self.known and not self.decided and not self.bye and not self.skipped


_NOBODY = object()  # a settled empty side (a bye's missing seed, or a bye's non-loser)


def resolve(
    ties: Sequence[Tie], seeds: Sequence[Hashable], results: Mapping[str, Hashable]
) -> dict[str, TieState]:
    """Work the bracket forward from `results` (tie id -> winner of a played tie).

    `seeds` lists the entrants best first (seed 1 first); seeds past the field are byes.
    """
    states: dict[str, TieState] = {}
    settled: dict[str, tuple[object, object]] = {}  # tie id -> (winner, loser), _NOBODY or None

    def side(source: Source) -> object:
        """An entrant, _NOBODY (settled empty), or None (not known yet)."""
        if source.kind == "seed":
            index = int(source.ref) - 1
            return seeds[index] if index < len(seeds) else _NOBODY
        outcome = settled.get(str(source.ref))
        if outcome is None:
            return None
        return outcome[0] if source.kind == "winner" else outcome[1]

    for tie in ties:  # ties are listed after every tie they depend on
        a, b = side(tie.sides[0]), side(tie.sides[1])
        known = a is not None and b is not None
        shown = tuple(None if x is _NOBODY else x for x in (a, b))
        if tie.stage == "reset":
            final = settled.get("GF")
            if final is None:
                states[tie.id] = TieState(tie, shown, False)
                continue
            if final[0] == a:
                # The winners' champion won the final: no reset.
                settled[tie.id] = final
                states[tie.id] = TieState(tie, shown, known, final[0], final[1], True, skipped=True)
                continue
        if not known:
            states[tie.id] = TieState(tie, shown, False)
            continue
        if a is _NOBODY or b is _NOBODY:
            present = b if a is _NOBODY else a
            settled[tie.id] = (present, _NOBODY)
            winner = None if present is _NOBODY else present
            states[tie.id] = TieState(tie, shown, True, winner, None, True, bye=True)
            continue
        if tie.id in results:
            winner = results[tie.id]
            if winner not in (a, b):
                raise ScheduleError(f"tie {tie.id}: {winner!r} is not one of its entrants")
            loser = b if winner == a else a
            settled[tie.id] = (winner, loser)
            states[tie.id] = TieState(tie, shown, True, winner, loser, True)
        else:
            states[tie.id] = TieState(tie, shown, True)
    return states


def champion(states: Mapping[str, TieState]) -> Hashable | None:
    """The winner of the whole bracket, or None while it is still being played."""
    for final in ("GF2", "GF"):
        if final in states:
            return states[final].winner if states[final].decided else None
    last = max((s for s in states.values() if s.tie.stage == "winners"), key=lambda s: s.tie.round)
    return last.winner if last.decided else None


# ----- sets ------------------------------------------------------------------------------------


def set_seating(game: int, a: Hashable, b: Hashable) -> tuple[Hashable, Hashable]:
    """Seat order of a set's game: the better seed `a` starts in seat 0, then they swap."""
    return (a, b) if game % 2 == 0 else (b, a)


def decide_set(
    points: Sequence[tuple[float, float]],
    games_per_pairing: int,
    extra_pairs_cap: int = EXTRA_PAIRS_CAP,
) -> str | int:
    """Who won the set so far: "a", "b", or the number of games still to play.

    `points` holds (a's points, b's points) of each game played, in order, `a` being the
    better seed. A set of `games_per_pairing` games; level after them, a pair of games
    more (one in each seat), up to `extra_pairs_cap` pairs; still level, the better seed.
    """
    played = len(points)
    if played < games_per_pairing:
        return games_per_pairing - played
    extra = played - games_per_pairing
    if extra % 2:
        return 1  # half-way through an extra pair
    total_a = sum(p[0] for p in points)
    total_b = sum(p[1] for p in points)
    if total_a != total_b:
        return "a" if total_a > total_b else "b"
    if extra // 2 < extra_pairs_cap:
        return 2
    return "a"
