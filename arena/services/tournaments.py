"""Tournament workflows: create (with every check), start (now, when due, or by an
organiser), progress, standings."""

from __future__ import annotations

import logging
import random
from datetime import datetime
from importlib import import_module
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

import engine
from arena.accounts import is_organiser
from arena.errors import ArenaError, Conflict, InvalidInput, NotAllowed
from arena.models import Bot, BotVersion, Match, MatchSeat, MatchSet, Tournament, TournamentRound
from arena.models.tournaments import enqueue_all, enqueue_sets, load_enqueue, load_enqueue_sets
from arena.services import response_cache, standings
from arena.services.brackets import knockout_placing
from arena.services.rounds import (
    check_format,
    planned_count,
    planned_matches,
    start_rounds,
    swiss_rows,
)
from arena.tournaments.round_robin import ScheduleError, duplicate_round_robin, round_robin

log = logging.getLogger(__name__)

MAX_GAMES_PER_PAIRING = 1000


def create_tournament(
    user,
    *,
    name: str,
    game: str,
    bots: list[int],
    players_per_match: int,
    games_per_pairing: int = 1,
    duplicate_seats: bool = False,
    format: str = Tournament.Format.ROUND_ROBIN,
    rounds: int | None = None,
    double_elimination: bool = False,
    advance: int | None = None,
    options: dict[str, Any] | None = None,
    limits: dict[str, Any] | None = None,
    start_at: datetime | None = None,
) -> Tournament:
    """Check everything, store the tournament, and start it now unless start_at is later."""
    if not is_organiser(user):
        raise NotAllowed("only organisers may create tournaments")
    try:
        spec = engine.get_game(game)
    except engine.UnknownGame as exc:
        raise InvalidInput(str(exc), field="game") from None
    if format not in Tournament.Format.values:
        raise InvalidInput(
            f"unknown format {format!r}; formats: {', '.join(Tournament.Format.values)}",
            field="format",
        )
    try:
        spec.check_players(players_per_match)
    except engine.InvalidSetup as exc:
        raise InvalidInput(str(exc), field="players_per_match") from None
    if not 1 <= games_per_pairing <= MAX_GAMES_PER_PAIRING:
        raise InvalidInput(
            f"games_per_pairing must be 1-{MAX_GAMES_PER_PAIRING}", field="games_per_pairing"
        )
    if not isinstance(duplicate_seats, bool):
        raise InvalidInput("duplicate_seats must be true or false", field="duplicate_seats")
    if duplicate_seats and games_per_pairing % players_per_match:
        raise InvalidInput(
            f"with duplicate seats, games_per_pairing must be a multiple of the "
            f"{players_per_match} players per match (each set is one game per seat rotation)",
            field="games_per_pairing",
        )
    try:
        options = spec.check_options(options or {})
    except engine.InvalidSetup as exc:
        raise InvalidInput(str(exc), field="options") from None
    try:
        # Some checks only run when a state is built (moon_bots' max_rounds >= 1): build one
        # now, so bad options are a 400 here instead of every match failing in the workers.
        spec.new_state(players_per_match, 0, options)
    except engine.InvalidSetup as exc:
        raise InvalidInput(str(exc), field="options") from None
    limits = check_limits(limits)
    label = Tournament.Format(format).label
    chosen = _check_bots(bots, spec.name, players_per_match, label)
    check_format(
        format,
        entrants=len(chosen),
        players_per_match=players_per_match,
        rounds=rounds,
        double_elimination=double_elimination,
        advance=advance,
        min_players=spec.min_players,
        cooperative=spec.cooperative,
    )
    total = planned_count(
        format,
        len(chosen),
        players_per_match,
        games_per_pairing,
        rounds,
        double_elimination,
        advance,
    )
    if total > settings.ARENA_MAX_TOURNAMENT_MATCHES:
        raise InvalidInput(
            f"this {label} would have {total} matches; the limit is "
            f"{settings.ARENA_MAX_TOURNAMENT_MATCHES}",
            field="bots",
        )
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name,
            game=spec.name,
            format=format,
            players_per_match=players_per_match,
            games_per_pairing=games_per_pairing,
            duplicate_seats=duplicate_seats,
            planned_rounds=rounds,
            double_elimination=double_elimination,
            advance=advance,
            options=options,
            limits=limits,
            start_at=start_at,
            created_by=user,
        )
        tournament.bots.set(chosen)
        if start_at is None or start_at <= timezone.now():
            start_tournament(tournament)
    return tournament


def check_limits(limits: Any) -> dict[str, float]:
    """Limits are {name: positive number}, and must pass the workers' own check.

    The workers' check (names and ranges) is loaded by its dotted path in
    settings.ARENA_LIMITS_CHECK, so arena never imports workers; without it only the shape
    is checked here and the worker refuses bad limits when the match runs.
    """
    if limits in (None, ""):
        return {}
    if not isinstance(limits, dict):
        raise InvalidInput("limits must be an object of name: number", field="limits")
    for key, value in limits.items():
        if not isinstance(key, str) or not key.replace("_", "").isalnum():
            raise InvalidInput(f"bad limit name {key!r}", field="limits")
        if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
            raise InvalidInput(f"limit {key} must be a positive number", field="limits")
    worker_check = _load_optional(settings.ARENA_LIMITS_CHECK)
    if worker_check is not None:
        try:
            worker_check(dict(limits))
        except (ValueError, TypeError) as exc:
            raise InvalidInput(str(exc), field="limits") from None
    return dict(limits)


def _load_optional(path: str):
    """Load `package.module.attr[.attr...]` (import_string takes one attribute only)."""
    if not path:
        return None
    parts = path.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            found = import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                found = getattr(found, name)
        except AttributeError:
            break
        return found
    log.warning("%s is not importable; limits are checked by shape only", path)
    return None


def _check_bots(ids: list[int], game: str, players_per_match: int, label: str) -> list[Bot]:
    if not isinstance(ids, list) or not all(type(i) is int for i in ids):
        raise InvalidInput("bots must be a list of bot ids", field="bots")
    if len(set(ids)) != len(ids):
        raise InvalidInput("a bot is listed twice", field="bots")
    found = {bot.pk: bot for bot in Bot.objects.filter(pk__in=ids)}
    ready = set(
        BotVersion.objects.filter(bot_id__in=ids, validation=BotVersion.Validation.READY)
        .values_list("bot_id", flat=True)
        .distinct()
    )
    missing = [i for i in ids if i not in found]
    if missing:
        raise InvalidInput(f"no bot with id {missing[0]}", field="bots")
    for bot in found.values():
        if bot.game != game:
            raise InvalidInput(f"bot {bot.name!r} plays {bot.game}, not {game}", field="bots")
        if not bot.is_active:
            raise InvalidInput(f"bot {bot.name!r} is deactivated", field="bots")
        if bot.pk not in ready:
            raise InvalidInput(
                f"bot {bot.name!r} has no version that passed validation yet "
                "(its smoke match is pending or refused it)",
                field="bots",
            )
    if len(ids) < players_per_match:
        raise InvalidInput(
            f"a {label} of {players_per_match}-player matches needs at least "
            f"{players_per_match} bots, not {len(ids)}",
            field="bots",
        )
    return [found[i] for i in ids]


def start_tournament(tournament: Tournament) -> list[int]:
    """Create every match of the schedule and enqueue them once the transaction commits.

    Raises Conflict if the tournament is not scheduled any more, InvalidInput if its bots
    cannot fill the schedule, Unavailable if the queue function cannot be loaded.
    Returns the new match ids.
    """
    enqueue = load_enqueue()
    enqueue_many = load_enqueue_sets()
    try:
        game = engine.get_game(tournament.game)
    except engine.UnknownGame as exc:
        raise InvalidInput(str(exc), field="game") from None
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.status != Tournament.Status.SCHEDULED:
            raise Conflict(f"tournament {tournament.pk} is {locked.status}, not scheduled")
        bots = list(locked.bots.filter(is_active=True).order_by("id"))
        versions = {}
        for bot in bots:
            # Only a version that passed its smoke match plays.
            version = bot.latest_ready_version()
            if version is None:
                raise InvalidInput(f"bot {bot.name!r} has no version that passed validation")
            versions[bot.pk] = version
        if locked.has_rounds():
            ids = start_rounds(locked, bots, versions)
            now = timezone.now()
            Tournament.objects.filter(pk=locked.pk).update(
                status=Tournament.Status.RUNNING, started_at=now
            )
            transaction.on_commit(
                lambda: enqueue_all(enqueue, ids, Match.Purpose.TOURNAMENT), robust=True
            )
            tournament.status, tournament.started_at = Tournament.Status.RUNNING, now
            tournament.entrants, tournament.planned_rounds = locked.entrants, locked.planned_rounds
            return ids
        try:
            if locked.duplicate_seats:
                sets = duplicate_round_robin(
                    [b.pk for b in bots], locked.players_per_match, locked.games_per_pairing
                )
            else:
                schedule = round_robin(
                    [b.pk for b in bots], locked.players_per_match, locked.games_per_pairing
                )
                sets = [[seating] for seating in schedule]
        except ScheduleError as exc:
            raise InvalidInput(f"{exc} (the tournament has {len(bots)} active bots)") from exc
        rng = random.Random(f"moon-arena:tournament:{locked.pk}")
        seeds = [rng.getrandbits(62) for _ in sets]
        match_sets: list[MatchSet | None] = [None] * len(sets)
        if locked.duplicate_seats:
            match_sets = list(
                MatchSet.objects.bulk_create(
                    MatchSet(
                        game=game.name,
                        purpose=Match.Purpose.TOURNAMENT,
                        tournament=locked,
                        seed=seed,
                        players=locked.players_per_match,
                        versions=[versions[bot_id].pk for bot_id in seatings[0]],
                    )
                    for seatings, seed in zip(sets, seeds, strict=True)
                )
            )
        planned = [
            (seating, seed, match_set, index if match_set else None)
            for seatings, seed, match_set in zip(sets, seeds, match_sets, strict=True)
            for index, seating in enumerate(seatings)
        ]
        matches = Match.objects.bulk_create(
            locked.new_match(game, len(seating), seed, match_set, index)
            for seating, seed, match_set, index in planned
        )
        MatchSeat.objects.bulk_create(
            MatchSeat(
                match=match,
                seat=seat,
                bot_id=bot_id,
                bot_version=versions[bot_id],
            )
            for match, (seating, _, _, _) in zip(matches, planned, strict=True)
            for seat, bot_id in enumerate(seating)
        )
        now = timezone.now()
        Tournament.objects.filter(pk=locked.pk).update(
            status=Tournament.Status.RUNNING, started_at=now
        )
        ids = [m.pk for m in matches]
        # A pairing's games (or one duplicate set) go as one set: one bot process each.
        groups: dict[object, list[int]] = {}
        for match, (seating, _, match_set, _) in zip(matches, planned, strict=True):
            key = match_set.pk if match_set else tuple(sorted(seating))
            groups.setdefault(key, []).append(match.pk)
        transaction.on_commit(
            lambda: enqueue_sets(enqueue_many, list(groups.values()), Match.Purpose.TOURNAMENT),
            robust=True,
        )
    tournament.status, tournament.started_at = Tournament.Status.RUNNING, now
    return ids


def start_now(tournament: Tournament, user) -> Tournament:
    if not is_organiser(user):
        raise NotAllowed("only organisers may start tournaments")
    start_tournament(tournament)
    return tournament


def start_due_tournaments(now: datetime | None = None) -> list[int]:
    """Start every scheduled tournament whose start_at has passed (run periodically).

    A tournament that cannot start (its bots were deactivated since) stays scheduled and is
    logged; one failure never blocks the others. Returns the ids that started.
    """
    now = now or timezone.now()
    started = []
    due = Tournament.objects.filter(status=Tournament.Status.SCHEDULED, start_at__lte=now)
    for tournament in due.order_by("start_at", "id"):
        try:
            start_tournament(tournament)
        except ArenaError as exc:
            log.warning("tournament %s could not start: %s", tournament.pk, exc.message)
            continue
        started.append(tournament.pk)
    if started:
        # Rare, and the new matches show in many lists: every cached answer goes stale.
        response_cache.touch(everything=True)
    return started


def progress(tournament: Tournament) -> tuple[int, int]:
    """(matches_total, matches_done); before the start the total is the planned count."""
    return progress_of([tournament])[tournament.pk]


def progress_of(tournaments: list[Tournament]) -> dict[int, tuple[int, int]]:
    """progress() of many tournaments in one query (a list page: it was two per tournament).

    Counted from the (tournament, status) index, never reading a match row. Scheduled ones
    use their entrants (prefetched by the views when they list `bots`).
    """
    found: dict[int, tuple[int, int]] = {}
    started = [t.pk for t in tournaments if t.status != Tournament.Status.SCHEDULED]
    if started:
        done = [Match.Status.FINISHED, Match.Status.FAILED]
        rows = (
            Match.objects.filter(tournament_id__in=started)
            .order_by()
            .values("tournament_id")
            .annotate(total=Count("id"), done=Count("id", filter=Q(status__in=done)))
            .values_list("tournament_id", "total", "done")
        )
        found = {tid: (total, done_) for tid, total, done_ in rows}
    for tournament in tournaments:
        if tournament.status == Tournament.Status.SCHEDULED:
            active = sum(bot.is_active for bot in tournament.bots.all())
            found[tournament.pk] = (planned_matches(tournament, active), 0)
        total, done_ = found.setdefault(tournament.pk, (0, 0))
        if tournament.has_rounds() and not tournament.is_over() and tournament.entrants:
            # Later rounds do not exist yet: show what the event will have.
            planned = planned_matches(tournament, len(tournament.entrants))
            found[tournament.pk] = (max(total, planned), done_)
    return found


def tournament_standings(tournament: Tournament) -> list[dict[str, Any]]:
    """Standings over the tournament's finished matches, with bot names and owners."""
    # The sums are kept as results are recorded (arena/services/standings.py): no match is
    # read here. The formats' own orders (Swiss tie-breaks, knockout placings) apply on top.
    bots, rows = standings.read_rows(tournament)
    if tournament.format == Tournament.Format.SWISS and tournament.entrants:
        rows = _swiss_order(tournament, rows)
    elif tournament.has_rounds() and tournament.entrants:
        # Knockouts rank by how far each bot went, then by points.
        placing = knockout_placing(tournament)
        rows.sort(key=lambda row: placing.get(row["bot_id"], (0, 0)))
        for position, row in enumerate(rows, start=1):
            row["position"] = position
    for row in rows:
        bot = bots.get(row["bot_id"])
        row["bot"] = bot.name if bot else None
        row["owner"] = bot.owner.username if bot else None
    return rows


def _swiss_order(tournament: Tournament, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A Swiss ranks by its own points (a round is worth one, a bye a win) and tie-breaks."""
    finished = list(tournament.rounds.filter(status=TournamentRound.Status.FINISHED))
    by_bot = {row["bot_id"]: row for row in rows}
    ordered = []
    for position, swiss_row in enumerate(swiss_rows(tournament, finished), start=1):
        row = by_bot.get(swiss_row.bot)
        if row is None:
            continue
        shown = swiss_row.as_dict()
        row["game_points"] = row["points"]
        row["points"] = shown.pop("points")
        shown.pop("bot_id")
        row["tiebreaks"] = shown
        row["position"] = position
        ordered.append(row)
    return ordered
