"""What the API and the admin show of a Swiss or knockout tournament: its rounds with their
tables, a knockout's bracket, and the winner. Reads only; arena/services/rounds.py writes.
"""

from __future__ import annotations

from typing import Any

from arena.models import Match, Tournament, TournamentRound
from arena.services.rounds import Format, bracket_ties, seeds_of, tie_winners
from arena.tournaments import knockout


def rounds_summary(tournament: Tournament) -> list[dict[str, Any]]:
    """Every round with its tables: bots, matches (status, ranks), points, outcome."""
    rounds = list(tournament.rounds.order_by("number"))
    matches = (
        Match.objects.filter(round__in=rounds)
        .defer("record", "result")
        .prefetch_related("seats")
        .order_by("id")
    )
    by_place: dict[tuple[int, int], list[Match]] = {}
    for match in matches:
        by_place.setdefault((match.round_id, match.table), []).append(match)
    shown = []
    for one_round in rounds:
        tables = []
        for index, table in enumerate(one_round.tables):
            played = by_place.get((one_round.pk, index), [])
            done = all(m.is_done() for m in played)
            tables.append(
                {
                    "table": index,
                    "bots": table["bots"],
                    "tie": table.get("tie"),
                    "status": "bye"
                    if table.get("bye")
                    else ("finished" if done and one_round.is_finished() else "playing"),
                    "matches": [
                        {
                            "id": m.pk,
                            "status": m.status,
                            "seats": [
                                {"bot_id": s.bot_id, "rank": s.rank}
                                for s in sorted(m.seats.all(), key=lambda s: s.seat)
                            ],
                        }
                        for m in played
                    ],
                    "points": {int(b): p for b, p in table.get("points", {}).items()},
                    "winner": table.get("winner"),
                    "advancing": table.get("advancing"),
                }
            )
        shown.append(
            {
                "number": one_round.number,
                "status": one_round.status,
                "tables": tables,
                "byes": one_round.byes,
            }
        )
    return shown


def bracket_summary(tournament: Tournament) -> list[dict[str, Any]] | None:
    """Every tie of a knockout with its seeds, its set (games and points) and winner."""
    if tournament.format != Format.KNOCKOUT or not tournament.entrants:
        return None
    seeds = seeds_of(tournament)
    finished = list(tournament.rounds.order_by("number"))
    states = knockout.resolve(bracket_ties(tournament), seeds, tie_winners(finished))
    played = {
        table["tie"]: (one_round.number, table)
        for one_round in finished
        for table in one_round.tables
        if table.get("tie")
    }
    seed_of = {bot: i + 1 for i, bot in enumerate(seeds)}
    ties = []
    for tie_id, state in states.items():
        where = played.get(tie_id)
        table = where[1] if where else {}
        if state.skipped:
            status = "not needed"
        elif state.bye:
            status = "bye"
        elif state.decided:
            status = "decided"
        elif where:
            status = "playing"
        else:
            status = "waiting"
        ties.append(
            {
                "tie": tie_id,
                "stage": state.tie.stage,
                "stage_round": state.tie.round,
                "round": where[0] if where else None,
                "bots": list(state.sides),
                "seeds": [seed_of.get(bot) if bot is not None else None for bot in state.sides],
                "matches": table.get("matches", []),
                "points": {int(b): p for b, p in table.get("points", {}).items()},
                "winner": state.winner,
                "status": status,
            }
        )
    return ties


def champion_of(tournament: Tournament) -> int | None:
    """The winner of a finished knockout or table knockout (None otherwise)."""
    finished = list(tournament.rounds.filter(status=TournamentRound.Status.FINISHED))
    if not finished or tournament.status != Tournament.Status.FINISHED:
        return None
    if tournament.format == Format.KNOCKOUT:
        states = knockout.resolve(
            bracket_ties(tournament), seeds_of(tournament), tie_winners(finished)
        )
        winner = knockout.champion(states)
        return int(winner) if winner is not None else None
    if tournament.format == Format.TABLE_KNOCKOUT:
        final = finished[-1].tables
        return final[0]["order"][0] if len(final) == 1 and final[0].get("order") else None
    return None


def knockout_placing(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """How far each entrant went in a knockout or table knockout, as a sort key (lower is
    better): (minus the last round it reached, its place at that round's table).

    The champion of a knockout is one round past everyone; a table knockout's final table
    is ordered by its result. Entrants still playing count the round they are in.
    """
    rounds = list(tournament.rounds.order_by("number"))
    placing: dict[int, tuple[int, int]] = {}
    for one_round in rounds:
        for table in one_round.tables:
            order = table.get("order") or table["bots"]
            for place, bot in enumerate(order):
                placing[bot] = (-one_round.number, place if table.get("order") else 0)
    winner = champion_of(tournament)
    if winner is not None:
        placing[winner] = (-(len(rounds) + 1), 0)
    if tournament.format == Format.KNOCKOUT:
        # A tie's winner is ahead of its loser in the round they met.
        for one_round in rounds:
            for table in one_round.tables:
                loser = [b for b in table["bots"] if b != table.get("winner")]
                if (
                    table.get("winner") is not None
                    and loser
                    and placing[loser[0]][0] == -one_round.number
                ):
                    placing[loser[0]] = (-one_round.number, 1)
    return placing
