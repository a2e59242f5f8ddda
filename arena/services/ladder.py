"""The ladder's database work: who is on it, what to play next, pauses, settings.

Every active bot whose latest version is `ready` (its smoke match passed on the validation
queue) is on its game's ladder, and that version plays; a new version replaces the old one
once it is ready, keeping the bot's rating; while the latest version is pending or was
rejected the bot waits (no new ladder matches; its owner sees why on the version); a
deactivated bot leaves. `schedule_ladders` is called by the beat task every few seconds:
it pauses crash-looping versions, then tops each running ladder up to its target depth
with tables chosen by arena/ladder/selection.py (fed by the game's latest whole-history
SkillFit when it has one, by Elo before), in one transaction per game that
holds the ladder row's lock (two ticks at once never overfill it), and enqueues the new
matches on the ladder queue after commit.

The anchors (the reference bots, `Bot.is_anchor`) play like any other bot, with one
difference in the fair share: all of them belong to the arena's one user, so counted as
one owner they would share one author's seats between them and the yardsticks would
rarely sit; each anchor counts as an owner of its own (`fair_share_owner`). A crash-looping
anchor is paused like any bot; since nobody signs in as the arena, an organiser resumes it.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

import engine
from arena.accounts import is_organiser
from arena.errors import InvalidInput, NotAllowed, NotFound
from arena.ladder.crashes import SeatRecord, crash_loop
from arena.ladder.depth import auto_depth, room, split_depth
from arena.ladder.selection import Entrant, History, Policy, Table, plan_tables
from arena.ladder.tables import default_table_sizes, duplicate_seatings
from arena.models import (
    Bot,
    BotVersion,
    Ladder,
    LadderEntry,
    Match,
    MatchSeat,
    MatchSet,
    Rating,
    SkillEntry,
)
from arena.models.ladder import SETTINGS
from arena.models.tournaments import enqueue_sets, load_enqueue_sets
from arena.ratings.whole_history import Z_95
from arena.services import response_cache
from arena.services.anchors import anchor_ids
from arena.services.skills import latest_fit

log = logging.getLogger(__name__)

LADDER = Match.Purpose.LADDER
# The history that fair share and pair counts read, at most (newest first).
HISTORY_MATCHES = 2_000
_IN_FLIGHT = [Match.Status.QUEUED, Match.Status.RUNNING]


# ----- ladders and their settings ------------------------------------------------------------


def game_spec(game: str) -> engine.Game:
    try:
        return engine.get_game(game)
    except engine.UnknownGame as exc:
        raise NotFound(str(exc)) from None


def ladder_for(game: str) -> Ladder:
    """The game's ladder row, created with the defaults on first use."""
    spec = game_spec(game)
    ladder, _ = Ladder.objects.get_or_create(
        game=spec.name, defaults={"newcomer_games": settings.ARENA_LADDER_NEWCOMER_GAMES}
    )
    return ladder


def table_sizes(ladder: Ladder) -> list[int]:
    spec = game_spec(ladder.game)
    return list(ladder.table_sizes) or default_table_sizes(
        spec.name, spec.min_players, spec.max_players
    )


def update_ladder(game: str, user, changes: dict[str, Any]) -> Ladder:
    """Organisers pause or resume a ladder and change its settings; 400 names the field."""
    if not is_organiser(user):
        raise NotAllowed("only organisers may change a ladder")
    ladder = ladder_for(game)
    fields = [field for field in SETTINGS if field in changes]
    for field in fields:
        try:
            setattr(ladder, field, ladder.checked(field, changes[field]))
        except ValueError as exc:
            raise InvalidInput(str(exc), field=field) from None
    ladder.updated_by = user
    ladder.save(update_fields=[*fields, "updated_by", "updated_at"])
    return ladder


# ----- entries: who plays ------------------------------------------------------------------


def latest_versions(bots: Q) -> dict[int, tuple[int, str]]:
    """{bot id: (its latest version's id, that version's validation)} for the bots matched."""
    latest: dict[int, tuple[int, str]] = {}
    for bot_id, version_id, validation in (
        BotVersion.objects.filter(bots)
        .order_by("bot_id", "-number")
        .values_list("bot_id", "id", "validation")
    ):
        latest.setdefault(bot_id, (version_id, validation))
    return latest


def sync_entries(game: str, now: datetime | None = None) -> dict[int, LadderEntry]:
    """One entry per active bot of the game whose latest version is ready, on that version.

    A bot whose latest version is newer than its entry's re-enters: the pause (if any)
    and the crash window start again. A bot whose latest version is pending or rejected
    waits: it is left out (its entry, if any, is left as it was, so it re-enters when a
    version is ready). Returns {bot id: entry} for the bots that play.
    """
    now = now or timezone.now()
    latest = {
        bot_id: version_id
        for bot_id, (version_id, validation) in latest_versions(
            Q(bot__game=game, bot__is_active=True)
        ).items()
        if validation == BotVersion.Validation.READY
    }
    entries = {e.bot_id: e for e in LadderEntry.objects.filter(bot_id__in=latest)}
    for bot_id, version_id in latest.items():
        entry = entries.get(bot_id)
        if entry is None:
            entry, _ = LadderEntry.objects.get_or_create(
                bot_id=bot_id, defaults={"version_id": version_id, "entered_at": now}
            )
            entries[bot_id] = entry
        if entry.version_id != version_id:
            entry.version_id = version_id
            entry.entered_at = now
            entry.paused_at = None
            entry.pause_reason = ""
            entry.pause_match_ids = []
            entry.save(
                update_fields=[
                    "version",
                    "entered_at",
                    "paused_at",
                    "pause_reason",
                    "pause_match_ids",
                ]
            )
    return entries


def ladder_games_by_version(version_ids: list[int]) -> dict[int, int]:
    """Ladder matches per version, played or in flight (failed ones do not count)."""
    return dict(
        MatchSeat.objects.filter(bot_version_id__in=version_ids, match__purpose=LADDER)
        .exclude(match__status=Match.Status.FAILED)
        .values_list("bot_version_id")
        .annotate(n=Count("id"))
        .values_list("bot_version_id", "n")
    )


def pause_crash_loops(game: str, entries: dict[int, LadderEntry], now: datetime) -> list[int]:
    """Pause every playing version whose last N ladder matches were all its own forfeits."""
    limit = settings.ARENA_LADDER_CRASH_PAUSE
    paused = []
    # Only versions with a forfeit among their recent ladder matches can be in a loop.
    suspects = set(
        MatchSeat.objects.filter(
            bot_version_id__in=[e.version_id for e in entries.values() if not e.is_paused()],
            match__purpose=LADDER,
            match__status=Match.Status.FINISHED,
            match__finished_at__gte=now - timedelta(seconds=settings.ARENA_LADDER_WINDOW_SECONDS),
        )
        .exclude(forfeit_reason="")
        .values_list("bot_version_id", flat=True)
        .distinct()
    )
    for entry in entries.values():
        if entry.is_paused() or entry.version_id not in suspects:
            continue
        seats = (
            MatchSeat.objects.filter(
                bot_version_id=entry.version_id,
                match__purpose=LADDER,
                match__status=Match.Status.FINISHED,
                match__created_at__gte=entry.entered_at,
            )
            .order_by("-match__finished_at", "-match_id")
            .values_list("match_id", "forfeit_reason")[:limit]
        )
        loop = crash_loop([SeatRecord(m, reason) for m, reason in seats], limit)
        if loop is None:
            continue
        updated = LadderEntry.objects.filter(
            pk=entry.pk, paused_at__isnull=True, version_id=entry.version_id
        ).update(paused_at=now, pause_reason=loop.reason, pause_match_ids=loop.match_ids)
        if updated:
            entry.paused_at, entry.pause_reason = now, loop.reason
            entry.pause_match_ids = loop.match_ids
            paused.append(entry.bot_id)
            log.warning("ladder: bot %s paused: %s", entry.bot_id, loop.reason)
    return paused


def resume(bot: Bot, user) -> LadderEntry | None:
    """The owner re-enters a paused version; its crash window starts again.

    An anchor's owner is the arena, which never signs in: an organiser resumes it.
    """
    if bot.is_anchor():
        if not is_organiser(user):
            raise NotAllowed(f"only an organiser may resume the reference bot {bot.name!r}")
    elif not bot.is_owned_by(user):
        raise NotAllowed(f"only the owner of bot {bot.name!r} may resume it")
    entry = LadderEntry.objects.filter(bot=bot).first()
    if entry is not None and entry.is_paused():
        entry.paused_at, entry.pause_reason, entry.pause_match_ids = None, "", []
        entry.entered_at = timezone.now()
        entry.save(update_fields=["paused_at", "pause_reason", "pause_match_ids", "entered_at"])
    return entry


@dataclass(frozen=True)
class BotLadderStatus:
    status: str
    reason: str | None
    match_ids: list[int]


def bot_status(
    bot: Bot,
    latest_version_id: int | None,
    entry: LadderEntry | None,
    ladder_running: bool,
    latest_ready: bool = True,
) -> BotLadderStatus:
    """playing, paused (with the reason and the matches that show it), or waiting.

    Waiting: deactivated, no version, its latest version not ready (pending or rejected:
    `latest_ready` False), or the game's ladder paused. The caller passes what it has read
    (the API prefetches it for a whole page).
    """
    if entry is not None and entry.version_id == latest_version_id and entry.is_paused():
        return BotLadderStatus(
            LadderEntry.Status.PAUSED, entry.pause_reason, list(entry.pause_match_ids)
        )
    if not bot.is_active or latest_version_id is None or not latest_ready or not ladder_running:
        return BotLadderStatus(LadderEntry.Status.WAITING, None, [])
    return BotLadderStatus(LadderEntry.Status.PLAYING, None, [])


def running_ladders() -> dict[str, bool]:
    """{game: running?}; a game with no row yet has a running ladder (the default)."""
    stored = dict(Ladder.objects.values_list("game", "status"))
    return {
        name: stored.get(name, Ladder.Status.RUNNING) == Ladder.Status.RUNNING
        for name in engine.game_names()
    }


# ----- scheduling --------------------------------------------------------------------------


def fitted_skills(game: str, bot_ids: list[int]) -> dict[int, tuple[float, float]]:
    """{bot: (skill, sd)} in Elo points from the game's latest competitive fit, if any.

    The sd is read back from the stored 95% interval. A cooperative fit's skill is a
    contribution to a team against the game, not a strength against other seats, so
    cooperative ladders keep selecting by Elo.
    """
    fit = latest_fit(game)
    if fit is None or fit.cooperative:
        return {}
    return {
        bot: (skill, (high - low) / (2 * Z_95))
        for bot, skill, low, high in SkillEntry.objects.filter(
            fit=fit, bot_id__in=bot_ids
        ).values_list("bot_id", "skill", "skill_low", "skill_high")
    }


def fair_share_owner(bot_id: int, owner_id: int, anchors: set[int]) -> int:
    """Whose seats a bot's seats count as in the fair share: its owner's, or an anchor's own.

    An anchor stands for itself (as a negative id, which no user has): the arena's one user
    owns them all, and one owner's share split between every yardstick would starve them.
    """
    return -bot_id if bot_id in anchors else owner_id


def entrants(
    game: str, entries: dict[int, LadderEntry], anchors: set[int] | None = None
) -> list[Entrant]:
    anchors = anchor_ids(game) if anchors is None else anchors
    bots = {
        b.pk: b
        for b in Bot.objects.filter(pk__in=list(entries)).only("id", "owner_id", "is_active")
    }
    ratings = {r.bot_id: r for r in Rating.objects.filter(game=game, bot_id__in=list(entries))}
    played = ladder_games_by_version([e.version_id for e in entries.values()])
    skills = fitted_skills(game, list(entries))
    found = []
    for bot_id, entry in sorted(entries.items()):
        rating = ratings.get(bot_id)
        skill, sd = skills.get(bot_id, (None, None))
        found.append(
            Entrant(
                bot_id=bot_id,
                owner_id=fair_share_owner(bot_id, bots[bot_id].owner_id, anchors),
                version_id=entry.version_id,
                rating=rating.rating if rating else 1500.0,
                games=rating.games if rating else 0,
                ladder_games=played.get(entry.version_id, 0),
                active=bots[bot_id].is_active,
                paused=entry.is_paused(),
                skill=skill,
                skill_sd=sd,
            )
        )
    return found


def recent_history(game: str, since: datetime, anchors: set[int] | None = None) -> History:
    """Seats per owner (an anchor its own), games per pair and matches per size recently."""
    anchors = anchor_ids(game) if anchors is None else anchors
    history = History()
    ids = list(
        Match.objects.filter(game=game, purpose=LADDER, created_at__gte=since)
        .exclude(status=Match.Status.FAILED)
        .order_by("-id")
        .values_list("id", flat=True)[:HISTORY_MATCHES]
    )
    tables: dict[int, list[tuple[int, int]]] = {}
    for match_id, bot_id, owner_id in (
        MatchSeat.objects.filter(match_id__in=ids)
        .order_by("match_id", "seat")
        .values_list("match_id", "bot_id", "bot__owner_id")
    ):
        tables.setdefault(match_id, []).append(
            (bot_id, fair_share_owner(bot_id, owner_id, anchors))
        )
    for seats in tables.values():
        bots = [bot for bot, _ in seats]
        history.add(bots, dict(seats), 1)
    return history


def in_flight(game: str) -> int:
    return Match.objects.filter(game=game, purpose=LADDER, status__in=_IN_FLIGHT).count()


def recent_match_seconds(last: int = 50) -> float | None:
    """The mean length of the last ladder matches (None before the first one)."""
    seconds = list(
        Match.objects.filter(
            purpose=LADDER, status=Match.Status.FINISHED, duration_seconds__isnull=False
        )
        .order_by("-id")
        .values_list("duration_seconds", flat=True)[:last]
    )
    return sum(seconds) / len(seconds) if seconds else None


def target_depths(capacity: int) -> dict[str, int]:
    """Each running ladder's target: its own setting, or its share of the workers' capacity."""
    ladders = [ladder_for(name) for name in engine.game_names()]
    running = [ladder for ladder in ladders if ladder.is_running()]
    total = auto_depth(
        capacity,
        settings.ARENA_LADDER_DEPTH_PER_SLOT,
        settings.ARENA_LADDER_TICK_SECONDS,
        recent_match_seconds(),
    )
    shared = split_depth(
        total,
        {
            ladder.game: min(table_sizes(ladder))
            for ladder in running
            if ladder.target_depth is None
        },
    )
    return {
        ladder.game: ladder.target_depth if ladder.target_depth is not None else shared[ladder.game]
        for ladder in running
    }


def schedule_game(
    game: str, target: int, rng: random.Random, now: datetime | None = None
) -> list[int]:
    """Top one ladder up to `target` queued + running matches; returns the new match ids."""
    now = now or timezone.now()
    enqueue = load_enqueue_sets()
    spec = game_spec(game)
    ladder_for(spec.name)
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(game=spec.name)
        if not ladder.is_running():
            return []
        entries = sync_entries(spec.name, now)
        pause_crash_loops(spec.name, entries, now)
        budget = room(target, in_flight(spec.name))
        if budget == 0:
            return []
        since = now - timedelta(seconds=settings.ARENA_LADDER_WINDOW_SECONDS)
        anchors = anchor_ids(spec.name)
        policy = Policy(
            ladder.newcomer_games,
            settings.ARENA_LADDER_EXPLORATION,
            duplicate_sets=settings.ARENA_LADDER_DUPLICATE_SETS,
        )
        tables = plan_tables(
            entrants(spec.name, entries, anchors),
            table_sizes(ladder),
            budget,
            rng,
            policy,
            recent_history(spec.name, since, anchors),
        )
        versions = {bot_id: entry.version_id for bot_id, entry in entries.items()}
        groups = create_sets(spec, tables, versions, rng)
        # Each table's set is one task: one sandboxed process per bot plays its rotations.
        transaction.on_commit(lambda: enqueue_sets(enqueue, groups, LADDER), robust=True)
    return [match_id for group in groups for match_id in group]


def create_sets(
    spec: engine.Game, tables: list[Table], versions: dict[int, int], rng: random.Random
) -> list[list[int]]:
    """One MatchSet per table and one match per seat rotation played, all on the set's seed.

    A duplicate set plays every rotation; a single table (duplicate sets off) its first.
    Returns each set's match ids, in rotation order."""
    if not tables:
        return []
    seeds = [rng.getrandbits(62) for _ in tables]
    sets = MatchSet.objects.bulk_create(
        MatchSet(
            game=spec.name,
            purpose=LADDER,
            seed=seed,
            players=len(table.bots),
            versions=[versions[bot] for bot in table.bots],
        )
        for table, seed in zip(tables, seeds, strict=True)
    )
    options = spec.check_options({})
    planned = [
        (match_set, index, seating)
        for match_set, table in zip(sets, tables, strict=True)
        for index, seating in enumerate(duplicate_seatings(table.bots)[: table.matches])
    ]
    matches = Match.objects.bulk_create(
        Match(
            purpose=LADDER,
            match_set=match_set,
            set_index=index,
            game=spec.name,
            rules_version=spec.rules_version,
            players=len(seating),
            options=options,
            seed=match_set.seed,
        )
        for match_set, index, seating in planned
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, bot_id=bot_id, bot_version_id=versions[bot_id])
        for match, (_, _, seating) in zip(matches, planned, strict=True)
        for seat, bot_id in enumerate(seating)
    )
    # The new matches show in the bots' match lists.
    response_cache.touch(bots={bot for _, _, seating in planned for bot in seating}, lists=True)
    groups: dict[int, list[int]] = {}
    for match, (match_set, _, _) in zip(matches, planned, strict=True):
        groups.setdefault(match_set.pk, []).append(match.pk)
    return list(groups.values())


def schedule_ladders(capacity: int, rng: random.Random | None = None) -> dict[str, int]:
    """Every running ladder topped up to its target depth: {game: matches added}."""
    rng = rng or random.Random()
    added = {}
    for game, target in target_depths(capacity).items():
        added[game] = len(schedule_game(game, target, rng))
    return added


# ----- what the API shows ------------------------------------------------------------------


def summary(ladder: Ladder, capacity: int | None = None, bots: bool = False) -> dict[str, Any]:
    now = timezone.now()
    matches = Match.objects.filter(game=ladder.game, purpose=LADDER)
    counts = matches.aggregate(
        queued=Count("id", filter=Q(status=Match.Status.QUEUED)),
        running=Count("id", filter=Q(status=Match.Status.RUNNING)),
        last_hour=Count(
            "id",
            filter=Q(status=Match.Status.FINISHED, finished_at__gte=now - timedelta(hours=1)),
        ),
    )
    data: dict[str, Any] = {
        "game": ladder.game,
        "status": ladder.status,
        "table_sizes": table_sizes(ladder),
        "target_depth": ladder.target_depth,
        "effective_target_depth": (
            ladder.target_depth
            if ladder.target_depth is not None or capacity is None
            else target_depths(capacity).get(ladder.game)
        ),
        "newcomer_games": ladder.newcomer_games,
        "queued": counts["queued"],
        "running": counts["running"],
        "matches_last_hour": counts["last_hour"],
        "updated_at": ladder.updated_at,
    }
    if bots:
        data["bots"] = bot_rows(ladder.game)
    return data


def bot_rows(game: str) -> list[dict[str, Any]]:
    """Per bot on the ladder: whether it is an anchor, its version, status and ladder games."""
    entries = {
        e.bot_id: e
        for e in LadderEntry.objects.filter(bot__game=game).select_related("bot", "bot__owner")
    }
    finished = dict(
        MatchSeat.objects.filter(
            bot_id__in=list(entries), match__purpose=LADDER, match__status=Match.Status.FINISHED
        )
        .values_list("bot_id")
        .annotate(n=Count("id"))
        .values_list("bot_id", "n")
    )
    numbers = dict(
        BotVersion.objects.filter(pk__in=[e.version_id for e in entries.values()]).values_list(
            "id", "number"
        )
    )
    running = running_ladders().get(game, True)
    latest = latest_versions(Q(bot_id__in=list(entries)))
    rows = []
    for bot_id, entry in sorted(entries.items()):
        ready = latest.get(bot_id, (None, ""))[1] == BotVersion.Validation.READY
        status = (
            LadderEntry.Status.PAUSED
            if entry.is_paused()
            else LadderEntry.Status.PLAYING
            if entry.bot.is_active and running and ready
            else LadderEntry.Status.WAITING
        )
        rows.append(
            {
                "bot_id": bot_id,
                "bot": entry.bot.name,
                "owner": entry.bot.owner.username,
                "anchor": entry.bot.is_anchor(),
                "version": numbers.get(entry.version_id),
                "status": status,
                "ladder_games": finished.get(bot_id, 0),
            }
        )
    return rows
