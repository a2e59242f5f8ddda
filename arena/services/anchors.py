"""Anchors: the reference bots on each ladder, and how a bot fares against each of them.

An anchor is a reference bot (`Bot.is_anchor`: owned by the arena's user, loaded from
bots/reference/ by arena/services/demo.py). `against_anchors(bot)` reads, for each active
anchor of the bot's game, the rated finished matches where both sat (ladder and tournament
alike, every version of each: the same matches its rating counts) and hands the counts to
arena/ratings/head_to_head.py for the share, its 95% Wilson interval and the verdict.
Cooperative games have no head to head; there the bot's success rate is set beside each
anchor's, both from their Rating rows. The page and the API show the same rows.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Q

import engine
from arena.models import Bot, Match, MatchSeat, Rating
from arena.ratings.head_to_head import BEATS, HeadToHead, SuccessRates

HEAD_TO_HEAD = "head_to_head"
SUCCESS_RATE = "success_rate"


def anchors_of(game: str) -> list[Bot]:
    """The game's active anchors, by name."""
    return list(Bot.objects.anchors().filter(game=game, is_active=True).order_by("name"))


def anchor_ids(game: str) -> set[int]:
    return set(Bot.objects.anchors().filter(game=game).values_list("pk", flat=True))


def head_to_head_counts(bot: Bot, anchor_pks: list[int]) -> dict[int, HeadToHead]:
    """{anchor id: the bot's record against it} over the rated finished matches of both.

    One query: each anchor's seat joined to the bot's seat in the same match (the
    annotation's `match__seats` is the filter's join: the bot's own seat).
    """
    rows = (
        MatchSeat.objects.filter(
            bot_id__in=anchor_pks,
            rank__isnull=False,
            match__rated=True,
            match__status=Match.Status.FINISHED,
            match__seats__bot_id=bot.pk,
            match__seats__rank__isnull=False,
        )
        .values("bot_id")
        .annotate(
            games=Count("id"),
            ahead=Count("id", filter=Q(match__seats__rank__lt=F("rank"))),
            ties=Count("id", filter=Q(match__seats__rank=F("rank"))),
        )
        .values_list("bot_id", "games", "ahead", "ties")
    )
    found = {anchor: HeadToHead(games, ahead, ties) for anchor, games, ahead, ties in rows}
    return {anchor: found.get(anchor, HeadToHead(0, 0, 0)) for anchor in anchor_pks}


def _rounded(value: float | None) -> float | None:
    return round(value, 4) if value is not None else None


def _head_to_head_row(anchor: Bot, record: HeadToHead) -> dict[str, Any]:
    low, high = record.interval or (None, None)
    return {
        "bot_id": anchor.pk,
        "bot": anchor.name,
        "games": record.games,
        "ahead": record.ahead,
        "ties": record.ties,
        "behind": record.behind,
        "share": _rounded(record.share),
        "share_low": _rounded(low),
        "share_high": _rounded(high),
        "successes": None,
        "reference_games": None,
        "reference_successes": None,
        "reference_share": None,
        "reference_low": None,
        "reference_high": None,
        "verdict": record.verdict,
    }


def _success_row(anchor: Bot, rates: SuccessRates) -> dict[str, Any]:
    low, high = rates.interval or (None, None)
    ref_low, ref_high = rates.reference_interval or (None, None)
    return {
        "bot_id": anchor.pk,
        "bot": anchor.name,
        "games": rates.games,
        "ahead": None,
        "ties": None,
        "behind": None,
        "successes": rates.successes,
        "share": _rounded(rates.rate),
        "share_low": _rounded(low),
        "share_high": _rounded(high),
        "reference_games": rates.reference_games,
        "reference_successes": rates.reference_successes,
        "reference_share": _rounded(rates.reference_rate),
        "reference_low": _rounded(ref_low),
        "reference_high": _rounded(ref_high),
        "verdict": rates.verdict,
    }


def against_anchors(bot: Bot) -> dict[str, Any]:
    """The bot against each active anchor of its game (itself left out), with verdicts.

    `measure` says what `share` is: `head_to_head` (its score share against the anchor)
    or `success_rate` (cooperative games: its success rate, beside the anchor's). Every row
    has every key; those of the other measure are None.
    """
    cooperative = engine.get_game(bot.game).cooperative
    anchors = [a for a in anchors_of(bot.game) if a.pk != bot.pk]
    if cooperative:
        tallies = {
            r.bot_id: (r.games, r.successes)
            for r in Rating.objects.filter(
                game=bot.game, bot_id__in=[bot.pk, *(a.pk for a in anchors)]
            )
        }
        games, successes = tallies.get(bot.pk, (0, 0))
        rows = [
            _success_row(a, SuccessRates(games, successes, *tallies.get(a.pk, (0, 0))))
            for a in anchors
        ]
    else:
        records = head_to_head_counts(bot, [a.pk for a in anchors])
        rows = [_head_to_head_row(a, records[a.pk]) for a in anchors]
    return {
        "bot_id": bot.pk,
        "game": bot.game,
        "anchor": bot.is_anchor(),
        "measure": SUCCESS_RATE if cooperative else HEAD_TO_HEAD,
        "beats": [row["bot"] for row in rows if row["verdict"] == BEATS],
        "anchors": rows,
    }
