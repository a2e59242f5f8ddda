"""Tournament standings kept as running sums: added to in each result's transaction, read
in two queries whatever the tournament's size.

The maths is arena/tournaments/standings.py's (`tally` per match, `ordered` for the table);
here is only where the sums live (TournamentStanding rows, one per bot and tournament).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection

import engine
from arena.models import Match, MatchSeat, Tournament, TournamentStanding
from arena.tournaments.standings import MatchResult, SeatResult, Standing, add, ordered, tally

_SUMS = ["matches", "points", "wins", "forfeits", "rank_total", "successes", "team_score_total"]


def match_result(seats: Iterable[tuple[int, int | None, bool]], result: Any) -> MatchResult | None:
    """The standings' view of one finished match: (bot id, rank, forfeited) per seat."""
    ranked = [
        SeatResult(bot, rank, forfeited) for bot, rank, forfeited in seats if rank is not None
    ]
    if not ranked:
        return None
    result = result if isinstance(result, dict) else {}
    team_score = result.get("team_score")
    return MatchResult(
        seats=ranked,
        outcome=result.get("outcome"),
        team_score=team_score if isinstance(team_score, int | float) else None,
    )


def add_match(tournament_id: int, seats: Sequence[MatchSeat], result: Any) -> None:
    """Add one recorded match to its tournament's standings (inside the result's transaction).

    One statement; rows in bot-id order, the order the result's transaction already locked
    these bots' ratings in, so concurrent results never deadlock here.
    """
    match = match_result(((s.bot_id, s.rank, bool(s.forfeit_reason)) for s in seats), result)
    if match is None:
        return
    _upsert(tournament_id, tally(match).values())


def _upsert(tournament_id: int, rows: Iterable[Standing]) -> None:
    rows = sorted(rows, key=lambda row: row.bot)
    if not rows:
        return
    table = TournamentStanding._meta.db_table
    columns = ", ".join(_SUMS)
    values = ", ".join(["(%s, %s, " + ", ".join(["%s"] * len(_SUMS)) + ")"] * len(rows))
    updates = ", ".join(f"{name} = {table}.{name} + excluded.{name}" for name in _SUMS)
    params: list[Any] = []
    for row in rows:
        params += [tournament_id, row.bot, *(getattr(row, name) for name in _SUMS)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (tournament_id, bot_id, {columns}) VALUES {values} "
            f"ON CONFLICT (tournament_id, bot_id) DO UPDATE SET {updates}",
            params,
        )


def read_rows(tournament: Tournament) -> tuple[dict[int, Any], list[dict[str, Any]]]:
    """({bot id: Bot with owner}, the table best first without names): two queries."""
    try:
        cooperative = engine.get_game(tournament.game).cooperative
    except engine.UnknownGame:
        cooperative = False
    bots = {
        bot.pk: bot
        for bot in tournament.bots.select_related("owner").only("id", "name", "owner__username")
    }
    table = {bot_id: Standing(bot_id) for bot_id in bots}
    for stored in TournamentStanding.objects.filter(tournament=tournament).values("bot_id", *_SUMS):
        row = table.setdefault(stored["bot_id"], Standing(stored["bot_id"]))
        for name in _SUMS:
            setattr(row, name, stored[name])
    return bots, ordered(table.values(), cooperative)


def read(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings table, best first, with bot names and owners (two queries)."""
    bots, rows = read_rows(tournament)
    for row in rows:
        bot = bots.get(row["bot_id"])
        row["bot"] = bot.name if bot else None
        row["owner"] = bot.owner.username if bot else None
    return rows


def rebuild(tournament_ids: Iterable[int]) -> None:
    """Recompute the stored sums from the tournaments' finished matches (seeding, repairs).

    Reads only seats and the two result fields the standings use, never the replays.
    """
    for tournament_id in tournament_ids:
        TournamentStanding.objects.filter(tournament_id=tournament_id).delete()
        finished = Match.objects.filter(
            tournament_id=tournament_id, status=Match.Status.FINISHED
        ).order_by("id")
        results = {
            match_id: {"outcome": outcome, "team_score": team_score}
            for match_id, outcome, team_score in finished.values_list(
                "id", "result__outcome", "result__team_score"
            ).iterator()
        }
        seats: dict[int, list[tuple[int, int | None, bool]]] = {}
        for match_id, bot_id, rank, forfeit in (
            MatchSeat.objects.filter(match__in=finished.values("id"))
            .values_list("match_id", "bot_id", "rank", "forfeit_reason")
            .iterator(chunk_size=20000)
        ):
            seats.setdefault(match_id, []).append((bot_id, rank, bool(forfeit)))
        table: dict[int, Standing] = {}
        for match_id, result in results.items():
            match = match_result(seats.get(match_id, []), result)
            if match is None:
                continue
            for bot, row in tally(match).items():
                add(table.setdefault(bot, Standing(bot)), row)
        _upsert(tournament_id, table.values())
