"""Challenges: is the candidate version better than the baseline? Pairs, batches, a GSPRT.

`create_challenge` checks everything before it stores anything (a bad request queues
nothing), then schedules the first batches. A batch is `batch_pairs` pairs of games, played
as one set task; the two games of a pair share a seed, and the candidate and the baseline
swap seats between them (duplicate seeding), the other seats (players > 2) held by the same
reference versions in both. `batches_in_flight` batches are queued at a time, so a
challenge keeps that many workers busy (fishtest keeps a test's tasks on every worker
too). When the last game of a batch is recorded (`advance`, called inside the recording
transaction, with the challenge row locked so two last games cannot both advance it), the
pentanomial counts and the LLR are recomputed from every finished pair, and the test
either stops (accepted, rejected, or inconclusive at max_games: the games still queued are
failed, so no worker plays them) or queues batches until `batches_in_flight` are open
again. A pair with a failed game (infrastructure or set-up, not a bot's fault) is left out
of the counts; a bot's forfeit is a loss in the pair, as anywhere else.

A cooperative game has no head to head: its pair is a table of the candidate in every
seat and a table of the baseline in every seat, on one seed, and the pair scores 1 when
only the candidate's team succeeded, 0 when only the baseline's did, ½ otherwise. The
same GSPRT then tests whether the candidate's teams succeed more often.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

import engine
from arena.accounts import is_organiser
from arena.errors import Conflict, InvalidInput, NotAllowed, VersionNotReady
from arena.models import BotVersion, Challenge, Match, MatchSeat
from arena.models.tournaments import enqueue_sets, load_enqueue, load_enqueue_sets
from arena.ratings import sprt
from arena.services import response_cache
from arena.services.tournaments import check_limits

MAX_CHALLENGE_GAMES = 100_000
MAX_BATCH_PAIRS = 100
MAX_BATCHES_IN_FLIGHT = 16


def _version(version_id: Any, field: str) -> BotVersion:
    if isinstance(version_id, bool) or not isinstance(version_id, int):
        raise InvalidInput(f"{field} must be a bot version id", field=field)
    version = BotVersion.objects.select_related("bot").defer("source").filter(pk=version_id).first()
    if version is None:
        raise InvalidInput(f"there is no bot version {version_id}", field=field)
    return version


def _check_ready(version: BotVersion, field: str) -> None:
    """Only versions whose smoke match passed play (as in tournaments and on the ladder)."""
    if version.validation == BotVersion.Validation.PENDING:
        raise VersionNotReady(
            f"version {version.pk} ({version.bot.name} v{version.number}) is still pending "
            "validation (its smoke match has not been played yet): only ready versions play; "
            "ask again once it is ready",
            field=field,
        )
    if version.validation != BotVersion.Validation.READY:
        raise VersionNotReady(
            f"version {version.pk} ({version.bot.name} v{version.number}) was rejected by "
            "validation and never plays",
            field=field,
        )


def _check_game(version: BotVersion, game: str, field: str) -> None:
    if version.bot.game != game:
        raise InvalidInput(
            f"version {version.pk} is a {version.bot.game} bot, not a {game} bot", field=field
        )


def create_challenge(
    user: Any,
    *,
    game: str,
    candidate: int,
    baseline: int,
    players: int = 2,
    opponents: Sequence[int] = (),
    elo0: float = 0.0,
    elo1: float = 5.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_games: int = 2000,
    batch_pairs: int = 8,
    batches_in_flight: int = 2,
    options: dict[str, Any] | None = None,
    limits: dict[str, Any] | None = None,
) -> Challenge:
    """Check the request, store the challenge and schedule its first batches."""
    try:
        spec = engine.get_game(game)
    except engine.UnknownGame as exc:
        raise InvalidInput(str(exc), field="game") from None
    chosen = _version(candidate, "candidate")
    base = _version(baseline, "baseline")
    if chosen.pk == base.pk:
        raise InvalidInput("a version cannot challenge itself", field="baseline")
    _check_game(chosen, spec.name, "candidate")
    _check_game(base, spec.name, "baseline")
    if not (is_organiser(user) or chosen.bot.is_owned_by(user) or base.bot.is_owned_by(user)):
        raise NotAllowed("only an owner of the candidate or the baseline, or an organiser, may")
    for name, value in (("elo0", elo0), ("elo1", elo1)):
        if not math.isfinite(value) or abs(value) > 1000:
            raise InvalidInput(f"{name} must be a number of Elo points within ±1000", field=name)
    if not elo1 > elo0:
        raise InvalidInput(f"elo1 ({elo1}) must be greater than elo0 ({elo0})", field="elo1")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0 < value < 0.5:
            raise InvalidInput(f"{name} must be between 0 and 0.5 (exclusive)", field=name)
    try:
        spec.check_players(players)
    except engine.InvalidSetup as exc:
        raise InvalidInput(str(exc), field="players") from None
    if spec.cooperative:
        if opponents:
            raise InvalidInput(
                f"{game} is cooperative: a challenge seats a whole team of the candidate "
                "against a whole team of the baseline, with no opponents",
                field="opponents",
            )
    elif players < 2:
        raise InvalidInput("a challenge needs at least two seats", field="players")
    elif len(opponents) != players - 2:
        raise InvalidInput(
            f"{players} players need {players - 2} opponent version(s) for the other seats",
            field="opponents",
        )
    others = [_version(v, "opponents") for v in opponents]
    for other in others:
        _check_game(other, spec.name, "opponents")
    for version, field in [(chosen, "candidate"), (base, "baseline")] + [
        (other, "opponents") for other in others
    ]:
        _check_ready(version, field)
    if not 2 <= max_games <= MAX_CHALLENGE_GAMES or max_games % 2:
        raise InvalidInput(
            f"max_games must be an even number from 2 to {MAX_CHALLENGE_GAMES}", field="max_games"
        )
    if not 1 <= batch_pairs <= MAX_BATCH_PAIRS:
        raise InvalidInput(f"batch_pairs must be 1-{MAX_BATCH_PAIRS}", field="batch_pairs")
    if not 1 <= batches_in_flight <= MAX_BATCHES_IN_FLIGHT:
        raise InvalidInput(
            f"batches_in_flight must be 1-{MAX_BATCHES_IN_FLIGHT}", field="batches_in_flight"
        )
    try:
        options = spec.check_options(options or {})
        spec.new_state(players, 0, options)
    except engine.InvalidSetup as exc:
        raise InvalidInput(str(exc), field="options") from None
    limits = check_limits(limits)
    load_enqueue()  # a missing queue is a 503 before anything is stored
    enqueue = load_enqueue_sets()
    with transaction.atomic():
        challenge = Challenge.objects.create(
            game=spec.name,
            candidate=chosen,
            baseline=base,
            players=players,
            options=options,
            limits=limits,
            elo0=elo0,
            elo1=elo1,
            alpha=alpha,
            beta=beta,
            max_games=max_games,
            batch_pairs=batch_pairs,
            batches_in_flight=batches_in_flight,
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )
        challenge.opponents.set(others)
        _fill_flight(challenge, others, open_batches=0, scheduled=0, enqueue=enqueue)
    return challenge


def _fill_flight(
    challenge: Challenge,
    opponents: list[BotVersion],
    *,
    open_batches: int,
    scheduled: int,
    enqueue: Callable[..., object],
) -> None:
    """Queue batches until `batches_in_flight` are open or max_games are scheduled
    (`scheduled`: the games the challenge has so far)."""
    while open_batches < challenge.batches_in_flight and scheduled < challenge.max_games:
        scheduled += len(_schedule_batch(challenge, opponents, scheduled // 2, enqueue))
        open_batches += 1


def _batch_progress(challenge: Challenge) -> tuple[int, int, int]:
    """(batches complete, batches open, games scheduled): a batch is complete when none of
    its games is queued or running."""
    scheduled = Match.objects.filter(challenge=challenge).count()
    open_pairs = (
        Match.objects.filter(challenge=challenge)
        .unfinished()
        .values_list("challenge_pair", flat=True)
        .distinct()
    )
    open_batches = len({pair // challenge.batch_pairs for pair in open_pairs})
    batches = math.ceil(scheduled // 2 / challenge.batch_pairs)
    return batches - open_batches, open_batches, scheduled


def _schedule_batch(
    challenge: Challenge,
    opponents: list[BotVersion],
    scheduled_pairs: int,
    enqueue: Callable[..., object],
) -> list[int]:
    """Create the next batch's pairs of matches (after the `scheduled_pairs` made so far) and
    enqueue them after commit."""
    spec = engine.get_game(challenge.game)
    pairs = min(challenge.batch_pairs, challenge.max_games // 2 - scheduled_pairs)
    candidate, baseline = challenge.candidate, challenge.baseline
    seatings = []
    for pair in range(scheduled_pairs, scheduled_pairs + pairs):
        seed = random.Random(f"moon-arena:challenge:{challenge.pk}:{pair}").getrandbits(62)
        if spec.cooperative:  # the candidate's team, then the baseline's, on one seed
            seatings.append((pair, seed, [candidate] * challenge.players))
            seatings.append((pair, seed, [baseline] * challenge.players))
        else:
            seatings.append((pair, seed, [candidate, baseline, *opponents]))
            seatings.append((pair, seed, [baseline, candidate, *opponents]))
    matches = Match.objects.bulk_create(
        Match(
            purpose=Match.Purpose.CHALLENGE,
            challenge=challenge,
            challenge_pair=pair,
            game=spec.name,
            rules_version=spec.rules_version,
            players=challenge.players,
            options=challenge.options,
            limits=challenge.limits,
            seed=seed,
        )
        for pair, seed, _ in seatings
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, bot_id=version.bot_id, bot_version=version)
        for match, (_, _, versions) in zip(matches, seatings, strict=True)
        for seat, version in enumerate(versions)
    )
    # The new matches show in the bots' match lists.
    response_cache.touch(
        bots={v.bot_id for _, _, versions in seatings for v in versions}, lists=True
    )
    ids = [m.pk for m in matches]
    # The batch's games are between the same versions: one set (one task, one process
    # per bot for all of them), arena/models/tournaments.py's enqueue_sets.
    transaction.on_commit(
        lambda: enqueue_sets(enqueue, [ids], Match.Purpose.CHALLENGE), robust=True
    )
    return ids


def _pair_index(challenge: Challenge, pair_games: list[dict[str, Any]], cooperative: bool) -> int:
    """A finished pair's pentanomial cell. Head to head: from the candidate's score in each
    game. Cooperative: 4 when only the candidate's team succeeded, 0 when only the
    baseline's did, 2 when both or neither did."""
    if cooperative:
        succeeded = {g["team"]: g["success"] for g in pair_games}
        return 2 + 2 * (succeeded[challenge.candidate_id] - succeeded[challenge.baseline_id])
    scores = [
        sprt.game_score(g["ranks"][challenge.candidate_id], g["ranks"][challenge.baseline_id])
        for g in pair_games
    ]
    return sprt.pair_index(*scores)


def challenge_games(challenge: Challenge) -> list[dict[str, Any]]:
    """Each of the challenge's games: its pair, status, each version's rank, its seats'
    forfeits, the version in seat 0 (`team`: a cooperative game's whole table) and whether
    that team succeeded."""
    seats = MatchSeat.objects.filter(match__challenge=challenge).values_list(
        "match__challenge_pair",
        "match_id",
        "match__status",
        "bot_version_id",
        "rank",
        "forfeit_reason",
        "match__result__outcome",
    )
    by_match: dict[int, dict[str, Any]] = {}
    for pair, match_id, status, version_id, rank, forfeit, outcome in seats:
        game = by_match.setdefault(
            match_id,
            {"pair": pair, "status": status, "ranks": {}, "team": version_id, "success": True},
        )
        game["ranks"][version_id] = rank
        game["forfeits"] = game.get("forfeits", 0) + bool(forfeit)
        # A team succeeds when the game says so and none of its seats forfeited.
        game["success"] = game["success"] and outcome == "success" and not forfeit
    return list(by_match.values())


def pair_counts(challenge: Challenge) -> tuple[list[int], int]:
    """Pentanomial counts over the challenge's finished pairs, and the pairs left out."""
    cooperative = engine.get_game(challenge.game).cooperative
    games: dict[int, list[Any]] = defaultdict(list)
    for game in challenge_games(challenge):
        games[game["pair"]].append(game)
    counts = [0, 0, 0, 0, 0]
    discarded = 0
    for pair_games in games.values():
        if len(pair_games) != 2 or any(g["status"] != Match.Status.FINISHED for g in pair_games):
            if all(g["status"] in (Match.Status.FINISHED, Match.Status.FAILED) for g in pair_games):
                discarded += 1
            continue
        counts[_pair_index(challenge, pair_games, cooperative)] += 1
    return counts, discarded


def advance(challenge_id: int) -> str | None:
    """After one of its games is done: update the test when a batch is complete.

    Runs inside the transaction that recorded the game. Returns the challenge's status
    when this call updated it, None when no batch was completed since the last update.
    """
    challenge = (
        Challenge.objects.select_for_update()
        .select_related("candidate", "baseline")
        .filter(pk=challenge_id)
        .first()
    )
    if challenge is None or not challenge.is_running():
        return None
    complete, open_batches, scheduled = _batch_progress(challenge)
    if complete <= challenge.batches:
        return None
    counts, discarded = pair_counts(challenge)
    challenge.counts = counts
    challenge.discarded_pairs = discarded
    challenge.games = 2 * sum(counts)
    challenge.batches = complete
    challenge.llr = float(sprt.llr(counts, challenge.elo0, challenge.elo1)) if sum(counts) else 0.0
    decision = sprt.decide(challenge.llr, challenge.alpha, challenge.beta)
    if decision != sprt.Decision.CONTINUE:
        challenge.status = decision
    elif scheduled >= challenge.max_games:
        if not open_batches:
            challenge.status = Challenge.Status.INCONCLUSIVE
    else:
        _fill_flight(
            challenge,
            list(challenge.opponents.order_by("id")),
            open_batches=open_batches,
            scheduled=scheduled,
            enqueue=load_enqueue_sets(),
        )
    if not challenge.is_running():
        challenge.finished_at = timezone.now()
        # Games of batches still open are not needed any more: no worker plays them.
        Match.objects.filter(challenge=challenge, status=Match.Status.QUEUED).update(
            status=Match.Status.FAILED,
            error=f"the challenge was {challenge.status} before this game was played",
            finished_at=challenge.finished_at,
        )
    challenge.save(
        update_fields=["counts", "discarded_pairs", "games", "batches", "llr", "status"]
        + ["finished_at"]
    )
    return challenge.status


def advance_stalled_challenges() -> list[int]:
    """Advance running challenges with a complete batch not yet counted (for the reaper).

    Normally the last game's recording advances its challenge; a worker lost between
    that game's commit and the advance leaves the batch complete and uncounted, and
    nothing new queued for it.
    """
    running = Challenge.objects.filter(status=Challenge.Status.RUNNING).values_list("pk", flat=True)
    advanced = []
    for challenge_id in running:
        with transaction.atomic():
            if advance(challenge_id) is not None:
                advanced.append(challenge_id)
    return advanced


def cancel_challenge(challenge: Challenge, user: Any) -> Challenge:
    """Stop a running challenge; its queued games are failed so no worker plays them."""
    if not (
        is_organiser(user)
        or (challenge.created_by_id is not None and challenge.created_by_id == user.pk)
        or challenge.candidate.bot.is_owned_by(user)
        or challenge.baseline.bot.is_owned_by(user)
    ):
        raise NotAllowed("only the challenge's author, an owner of its versions or an organiser")
    with transaction.atomic():
        locked = Challenge.objects.select_for_update().get(pk=challenge.pk)
        if not locked.is_running():
            raise Conflict(f"challenge {locked.pk} is {locked.status}, not running")
        now = timezone.now()
        Match.objects.filter(challenge=locked, status=Match.Status.QUEUED).update(
            status=Match.Status.FAILED, error="the challenge was cancelled", finished_at=now
        )
        locked.status, locked.finished_at = Challenge.Status.CANCELLED, now
        locked.save(update_fields=["status", "finished_at"])
    return locked


def describe(challenge: Challenge) -> dict[str, Any]:
    """The test's state for the API: counts, LLR and its bounds, Elo with a 95% interval."""
    lower, upper = sprt.bounds(challenge.alpha, challenge.beta)
    estimate = sprt.elo_estimate(challenge.counts)

    def finite(value: float) -> float | None:
        # + 0.0 turns the -0.0 of an even score into 0.0
        return round(value, 2) + 0.0 if math.isfinite(value) else None

    return {
        "pairs": sum(challenge.counts),
        "pair_counts": dict(zip(["0", "0.25", "0.5", "0.75", "1"], challenge.counts, strict=True)),
        "llr": round(challenge.llr, 4),
        "llr_lower": round(lower, 4),
        "llr_upper": round(upper, 4),
        "elo": None
        if estimate is None
        else {
            "elo": finite(estimate.elo),
            "low": finite(estimate.low),
            "high": finite(estimate.high),
        },
    }
