"""Swiss and knockout tournaments round by round: the first round at the start, each next
one when the previous round's last match is recorded.

`advance(tournament)` runs inside the result's transaction (arena/services/results.py)
with the tournament row locked, so the workers recording a round's last matches queue
behind each other: the first closes the round and opens the next, the others find it
open. The (tournament, number) unique constraint backs that up: a round is never created
twice. A knockout set that ends level gets its extra games in the same round.

The pairing maths is pure (arena/tournaments/swiss.py, knockout.py, table_knockout.py);
this module reads the rounds and matches, hands plain data to it, and writes the plan.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from django.utils import timezone

import engine
from arena.errors import InvalidInput
from arena.models import Match, MatchSeat, MatchSet, Rating, Tournament, TournamentRound
from arena.models.tournaments import enqueue_after_commit
from arena.services import response_cache
from arena.tournaments import knockout, swiss, table_knockout
from arena.tournaments.round_robin import ScheduleError, count_matches, rotations
from arena.tournaments.tiebreaks import Encounter, multiplayer_standings, two_player_standings

MAX_ROUNDS = 100
# A two-player Swiss round is a weighted matching whose time grows with the cube of the
# field (`python -m arena.bench.pairing`: 256 bots ~0.3 s, 512 ~24 s on this machine),
# and it is paired inside a result's transaction: bigger fields are refused.
MAX_SWISS_BOTS = 256
Format = Tournament.Format


# ----- checks and counts before the start ------------------------------------------------------


def check_format(
    format: str,
    *,
    entrants: int,
    players_per_match: int,
    rounds: int | None,
    double_elimination: bool,
    advance: int | None,
    min_players: int,
    cooperative: bool = False,
) -> None:
    """Raise InvalidInput naming the field for a format the field of entrants cannot run."""
    if cooperative and format != Format.ROUND_ROBIN:
        # A cooperative table shares one outcome: no one at it beats anyone.
        raise InvalidInput(
            f"{format} ranks bots against each other at a table; a cooperative game "
            "plays round_robin",
            field="format",
        )
    if rounds is not None and format != Format.SWISS:
        raise InvalidInput("rounds is for Swiss tournaments only", field="rounds")
    if double_elimination and format != Format.KNOCKOUT:
        raise InvalidInput(
            "double_elimination is for knockout tournaments only", field="double_elimination"
        )
    if advance is not None and format != Format.TABLE_KNOCKOUT:
        raise InvalidInput("advance is for table knockouts only", field="advance")
    if format == Format.SWISS:
        if entrants > MAX_SWISS_BOTS:
            raise InvalidInput(
                f"a Swiss pairs at most {MAX_SWISS_BOTS} bots, not {entrants}", field="bots"
            )
        if rounds is not None:
            if not 1 <= rounds <= MAX_ROUNDS:
                raise InvalidInput(f"rounds must be 1-{MAX_ROUNDS}", field="rounds")
            most = swiss.max_rounds(entrants, players_per_match)
            if rounds > most:
                raise InvalidInput(
                    f"a Swiss of {entrants} bots at {players_per_match}-player tables can "
                    f"have at most {most} rounds without pairing anyone twice, not {rounds}",
                    field="rounds",
                )
    elif format == Format.KNOCKOUT:
        if players_per_match != 2:
            raise InvalidInput(
                "a knockout plays two-player ties; use table_knockout for bigger tables",
                field="players_per_match",
            )
        if entrants < 2:
            raise InvalidInput(f"a knockout needs at least 2 bots, not {entrants}", field="bots")
    elif format == Format.TABLE_KNOCKOUT:
        through = 1 if advance is None else advance
        if not 1 <= through < players_per_match:
            raise InvalidInput(
                f"advance must be at least 1 and less than players_per_match "
                f"({players_per_match}), not {through}",
                field="advance",
            )
        if entrants < 2:
            raise InvalidInput(
                f"a table knockout needs at least 2 bots, not {entrants}", field="bots"
            )
        for sizes in table_knockout.table_sizes(entrants, players_per_match, through):
            small = [size for size in sizes if 1 < size < min_players]
            if small:
                raise InvalidInput(
                    f"{entrants} bots would need a table of {small[0]}, and the game needs "
                    f"at least {min_players} players",
                    field="bots",
                )


def planned_count(
    format: str,
    entrants: int,
    players_per_match: int,
    games_per_pairing: int,
    rounds: int | None = None,
    double_elimination: bool = False,
    advance: int | None = None,
) -> int:
    """Matches the event will play (knockout sets without their extra games)."""
    n, k, games = entrants, players_per_match, games_per_pairing
    if format == Format.ROUND_ROBIN:
        return count_matches(n, k, games)
    if n < 2 or n < k:
        return 0
    if format == Format.SWISS:
        return (rounds or default_rounds(n, k)) * (n // k) * games
    if format == Format.KNOCKOUT:
        return (2 * n - 2 if double_elimination else n - 1) * games
    try:
        sizes = table_knockout.table_sizes(n, k, advance or 1)
    except ScheduleError:
        return 0
    return sum(1 for one_round in sizes for size in one_round if size > 1) * games


def planned_matches(tournament: Tournament, entrants: int | None = None) -> int:
    """Matches the event will have (for rounds formats, without extra set games), for
    `entrants` bots: by default its active ones."""
    if entrants is None:
        entrants = tournament.bots.filter(is_active=True).count()
    return planned_count(
        tournament.format,
        entrants,
        tournament.players_per_match,
        tournament.games_per_pairing,
        tournament.planned_rounds,
        tournament.double_elimination,
        tournament.advance,
    )


def default_rounds(entrants: int, players_per_match: int) -> int:
    return max(
        1, min(swiss.default_rounds(entrants), swiss.max_rounds(entrants, players_per_match))
    )


# ----- the start ---------------------------------------------------------------------------------


def start_rounds(
    tournament: Tournament, bots: Sequence[Any], versions: dict[int, Any]
) -> list[int]:
    """Freeze the entrants (seeded by rating) and open round 1; returns its match ids.

    Runs in start_tournament's transaction (arena/services/tournaments.py) with the
    tournament row locked.
    """
    try:
        game = engine.get_game(tournament.game)
    except engine.UnknownGame as exc:
        raise InvalidInput(str(exc), field="game") from None
    # The field may have changed since the tournament was created (a bot deactivated).
    check_format(
        tournament.format,
        entrants=len(bots),
        players_per_match=tournament.players_per_match,
        rounds=tournament.planned_rounds,
        double_elimination=tournament.double_elimination,
        advance=tournament.advance,
        min_players=game.min_players,
        cooperative=game.cooperative,
    )
    ratings = dict(
        Rating.objects.filter(game=tournament.game, bot__in=bots).values_list("bot_id", "rating")
    )
    seeded = sorted(bots, key=lambda bot: (-ratings.get(bot.pk, 0.0), bot.pk))
    tournament.entrants = [[bot.pk, versions[bot.pk].pk] for bot in seeded]
    if tournament.format == Format.SWISS and tournament.planned_rounds is None:
        tournament.planned_rounds = default_rounds(len(bots), tournament.players_per_match)
    tournament.save(update_fields=["entrants", "planned_rounds"])
    ids = _open_round(tournament, 1)
    return ids or []


# ----- after each result -----------------------------------------------------------------------


def advance(tournament: Tournament) -> bool:
    """Close the current round if its last match is done and open the next one.

    Call with the tournament row locked, inside the transaction that recorded the result
    (or that resumed the tournament). Returns True when the tournament finished.
    """
    while True:
        current = tournament.rounds.order_by("-number").first()
        if current is None:
            return tournament.try_finish()
        if not current.is_finished() and not _close_round(tournament, current):
            return False
        if tournament.status != Tournament.Status.RUNNING:
            return False  # paused: the next round waits for the organiser to resume
        ids = _open_round(tournament, current.number + 1)
        if ids is None:
            return tournament.try_finish()
        if ids:
            enqueue_after_commit(ids)
            return False
        # A round of byes only: close it and go on.


def seeds_of(tournament: Tournament) -> list[int]:
    return [bot for bot, _ in tournament.entrants]


def _open_round(tournament: Tournament, number: int) -> list[int] | None:
    """Create round `number` and its matches; None when the event is over."""
    finished = list(tournament.rounds.filter(status=TournamentRound.Status.FINISHED))
    if tournament.format == Format.SWISS:
        plan = _plan_swiss(tournament, number, finished)
    elif tournament.format == Format.KNOCKOUT:
        plan = _plan_knockout(tournament, finished)
    else:
        plan = _plan_table_knockout(tournament, number, finished)
    if plan is None:
        return None
    tables, byes = plan
    one_round = TournamentRound.objects.create(
        tournament=tournament, number=number, tables=tables, byes=byes
    )
    games = []
    for index, table in enumerate(tables):
        if table.get("bye"):
            continue
        for game in range(tournament.games_per_pairing):
            games.append((index, game, _seating(table, game)))
    return _create_matches(tournament, one_round, games)


def _seating(table: dict[str, Any], game: int) -> tuple[int, ...]:
    bots = table["bots"]
    if len(bots) == 2:
        return knockout.set_seating(game, bots[0], bots[1])
    return tuple(rotations(bots)[game % len(bots)])


def _create_matches(
    tournament: Tournament,
    one_round: TournamentRound,
    games: list[tuple[int, int, tuple[int, ...]]],
) -> list[int]:
    """Match and seat rows for (table, game index, seating) triples, versions as frozen.

    With duplicate seats, each k consecutive games of a table (game // k) are one set
    (arena/models/sets.py): one seed, the k rotations of one seating.
    """
    if not games:
        return []
    spec = engine.get_game(tournament.game)
    versions = {bot: version for bot, version in tournament.entrants}
    sets: dict[tuple[int, int], MatchSet] = {}
    placed = []
    for table, game, seating in games:
        k = len(seating)
        # Seeded by place, not by order of creation: a replayed event is the same.
        place = f"moon-arena:tournament:{tournament.pk}:{one_round.number}:{table}"
        if tournament.duplicate_seats:
            number, index = divmod(game, k)
            seed = random.Random(f"{place}:set{number}").getrandbits(62)
            match_set = sets.get((table, number))
            if match_set is None:
                # Rotation `index` of the set's first seating, undone.
                first = tuple(seating[(seat - index) % k] for seat in range(k))
                match_set = sets[(table, number)] = MatchSet(
                    game=spec.name,
                    purpose=Match.Purpose.TOURNAMENT,
                    tournament=tournament,
                    seed=seed,
                    players=k,
                    versions=[versions[bot] for bot in first],
                )
            placed.append((table, seating, seed, match_set, index))
        else:
            seed = random.Random(f"{place}:{game}").getrandbits(62)
            placed.append((table, seating, seed, None, None))
    MatchSet.objects.bulk_create(sets.values())
    matches = Match.objects.bulk_create(
        tournament.new_match(
            spec, len(seating), seed, match_set, index, round=one_round, table=table
        )
        for table, seating, seed, match_set, index in placed
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, bot_id=bot, bot_version_id=versions[bot])
        for match, (_, seating, _, _, _) in zip(matches, placed, strict=True)
        for seat, bot in enumerate(seating)
    )
    # The new matches show in the tournament's and the bots' match lists.
    response_cache.touch(
        bots={bot for _, seating, _, _, _ in placed for bot in seating},
        tournaments=[tournament.pk],
        lists=True,
    )
    return [m.pk for m in matches]


# ----- plans ---------------------------------------------------------------------------------


def _plan_swiss(
    tournament: Tournament, number: int, finished: list[TournamentRound]
) -> tuple[list[dict[str, Any]], list[int]] | None:
    if number > (tournament.planned_rounds or 0):
        return None
    order = [row.bot for row in swiss_rows(tournament, finished)]
    played = [
        (
            [
                swiss.PlayedTable(table["games"], _normalised(table, tournament))
                for table in r.tables
                if not table.get("bye")
            ],
            r.byes,
        )
        for r in finished
    ]
    entrants = swiss.entrants_after(order, played)
    paired = swiss.pair_round(
        entrants,
        tournament.players_per_match,
        tournament.games_per_pairing,
        number,
        (tournament.planned_rounds or number) - number,
    )
    return [{"bots": list(t)} for t in paired.tables], list(paired.byes)


def _normalised(table: dict[str, Any], tournament: Tournament) -> dict[int, float]:
    """A table's points as a share of one round (at most 1 point a round)."""
    games = max(len(table.get("games", [])), 1)
    return {int(bot): points / games for bot, points in table.get("points", {}).items()}


def swiss_rows(tournament: Tournament, finished: Sequence[TournamentRound]) -> list[Any]:
    """Swiss standings rows (tiebreaks.Row) over the finished rounds, best first."""
    seeds = seeds_of(tournament)
    encounters = []
    byes: dict[int, float] = {}
    for one_round in finished:
        for bot in one_round.byes:
            byes[bot] = byes.get(bot, 0.0) + 1.0
        for table in one_round.tables:
            if table.get("bye"):
                continue
            ranks = {int(bot): rank for bot, rank in table.get("ranks", {}).items()}
            encounters.append(Encounter(_normalised(table, tournament), ranks))
    if tournament.players_per_match == 2:
        return two_player_standings(seeds, encounters, byes)
    return multiplayer_standings(seeds, encounters, byes)


def _plan_knockout(
    tournament: Tournament, finished: list[TournamentRound]
) -> tuple[list[dict[str, Any]], list[int]] | None:
    seeds = seeds_of(tournament)
    states = knockout.resolve(bracket_ties(tournament), seeds, tie_winners(finished))
    playable = [state for state in states.values() if state.is_playable()]
    if not playable:
        return None
    rank = {bot: i for i, bot in enumerate(seeds)}
    tables = [
        {"bots": sorted(state.sides, key=lambda bot: rank[bot]), "tie": state.tie.id}
        for state in playable
    ]
    return tables, []


def bracket_ties(tournament: Tournament) -> list[knockout.Tie]:
    n = len(tournament.entrants)
    if tournament.double_elimination:
        return knockout.double_elimination(n)
    return knockout.single_elimination(n)


def tie_winners(rounds: Sequence[TournamentRound]) -> dict[str, int]:
    return {
        table["tie"]: table["winner"]
        for one_round in rounds
        for table in one_round.tables
        if table.get("tie") and table.get("winner") is not None
    }


def _plan_table_knockout(
    tournament: Tournament, number: int, finished: list[TournamentRound]
) -> tuple[list[dict[str, Any]], list[int]] | None:
    seeds = seeds_of(tournament)
    if number == 1:
        survivors = seeds
    else:
        last = finished[-1]
        if len(last.tables) == 1:
            return None  # that was the final table
        through = {bot for table in last.tables for bot in table.get("advancing", [])}
        survivors = [bot for bot in seeds if bot in through]
    tables = []
    for members in table_knockout.snake_tables(survivors, tournament.players_per_match):
        table: dict[str, Any] = {"bots": list(members)}
        if len(members) == 1:
            table.update(bye=True, order=list(members), advancing=list(members))
        tables.append(table)
    return tables, []


# ----- closing a round ---------------------------------------------------------------------------


def _game_points(match: Match, seats: list[MatchSeat]) -> dict[int, float]:
    """Points of one game: 1 for each seat beaten, 1/2 for each shared rank, over n - 1
    (arena/tournaments/standings.py); a failed match scores nothing for anyone."""
    if match.status != Match.Status.FINISHED or any(s.rank is None for s in seats):
        return {s.bot_id: 0.0 for s in seats}
    n = len(seats)
    return {
        s.bot_id: sum(
            1.0 if s.rank < o.rank else 0.5 if s.rank == o.rank else 0.0
            for o in seats
            if o is not s
        )
        / max(n - 1, 1)
        for s in seats
    }


def _close_round(tournament: Tournament, one_round: TournamentRound) -> bool:
    """Score every table; False if a match is unfinished or a set needs more games."""
    matches = list(
        Match.objects.filter(round=one_round).prefetch_related("seats").order_by("table", "id")
    )
    if any(not m.is_done() for m in matches):
        return False
    by_table: dict[int, list[Match]] = {}
    for match in matches:
        by_table.setdefault(match.table, []).append(match)
    extra: list[tuple[int, int, tuple[int, ...]]] = []
    for index, table in enumerate(one_round.tables):
        if table.get("bye"):
            continue
        played = by_table.get(index, [])
        points: dict[int, float] = dict.fromkeys(table["bots"], 0.0)
        wins: dict[int, int] = dict.fromkeys(table["bots"], 0)
        rank_total: dict[int, float] = dict.fromkeys(table["bots"], 0.0)
        per_game = []
        for match in played:
            seats = sorted(match.seats.all(), key=lambda s: s.seat)
            game = _game_points(match, seats)
            per_game.append(game)
            for seat in seats:
                points[seat.bot_id] += game[seat.bot_id]
                rank_total[seat.bot_id] += seat.rank if seat.rank is not None else len(seats)
                wins[seat.bot_id] += seat.rank == 1 and match.status == Match.Status.FINISHED
        table["games"] = [
            [s.bot_id for s in sorted(m.seats.all(), key=lambda s: s.seat)] for m in played
        ]
        table["points"] = {str(bot): value for bot, value in points.items()}
        table["ranks"] = {
            str(bot): total / max(len(played), 1) for bot, total in rank_total.items()
        }
        table["matches"] = [m.pk for m in played]
        if tournament.format == Format.KNOCKOUT:
            a, b = table["bots"]
            decision = knockout.decide_set(
                [(game[a], game[b]) for game in per_game], tournament.games_per_pairing
            )
            if isinstance(decision, int):
                extra.extend(
                    (index, len(played) + i, knockout.set_seating(len(played) + i, a, b))
                    for i in range(decision)
                )
            else:
                table["winner"] = a if decision == "a" else b
        elif tournament.format == Format.TABLE_KNOCKOUT:
            results = {
                bot: table_knockout.TableResult(points[bot], wins[bot]) for bot in table["bots"]
            }
            order = table_knockout.table_order(table["bots"], results, seeds_of(tournament))
            table["order"] = order
            table["advancing"] = order[
                : table_knockout.advancing_per_table(len(order), tournament.advance or 1)
            ]
    # Written with update(), not save(): this runs inside the result's pipelined
    # transaction (arena/services/rows.py), where a row count is not known yet.
    rows = TournamentRound.objects.filter(pk=one_round.pk)
    if extra:
        rows.update(tables=one_round.tables)
        enqueue_after_commit(_create_matches(tournament, one_round, extra))
        return False
    one_round.status = TournamentRound.Status.FINISHED
    one_round.finished_at = timezone.now()
    rows.update(tables=one_round.tables, status=one_round.status, finished_at=one_round.finished_at)
    return True
