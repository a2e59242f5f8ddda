"""A match's replay frames (engine.frames over its stored record), computed once and cached.

One response carries one point of view: the spectator's (what every seat sees alike), one
seat's observation, or, once a match is finished, `revealed`: the spectator's view with every
seat's observation beside it (`seats`), everything any seat saw. (The engine keeps no view
beyond the seats' own; what no seat ever saw, such as a deck's order, stays unshown.)
A frame also carries the actions its actor could choose from (`legal`, at most LEGAL_SHOWN of
them, `legal_count` in all), in that actor's own view and the revealed one only: the choices
a bot had can tell what it holds. A frame of the engine carries them all, which multiplies a long match's
size by the seats plus one; the viewer shows one view at a time and asks for another when
switched.

A running match has a partial record (the worker stores it every ARENA_LIVE_RECORD_SECONDS):
its frames so far are computed on each request and never cached, so a live viewer sees new
steps. A queued or held match shows no replay (a record left by an attempt given back is not
the match's). Only a finished match's frames are cached.

The frames follow from the record and the engine's rules version alone, so the cache key is
the match id, the rules version and the view: a new rules version never serves an old
drawing. The first request of a match replays it once and stores every view's document (the
replay is the cost; splitting it is not). The cache holds JSON text, so a hit costs a read
and no re-serialisation.
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from django.core.cache import caches

import engine
from arena.errors import Conflict, InvalidInput, NotFound
from arena.models import Match

CACHE = "frames"
SPECTATOR = "spectator"
REVEALED = "revealed"
VIEW_PATTERN = r"^(spectator|revealed|seat:[0-9]{1,2})$"
LEGAL_SHOWN = 60
_SEAT = re.compile(r"seat:([0-9]{1,2})")


def cache_key(match_id: int, rules_version: str, view: str = SPECTATOR) -> str:
    return f"frames:{match_id}:{rules_version}:{view}"


def check_view(view: str, players: int) -> str:
    """The view named by the query ('spectator', 'revealed' or 'seat:N' for a seat of it)."""
    if view in (SPECTATOR, REVEALED):
        return view
    found = _SEAT.fullmatch(view)
    if found is None or int(found.group(1)) >= players:
        seats = f"seat:0 to seat:{players - 1}"
        raise InvalidInput(
            f"view is 'spectator', 'revealed' or one of {seats}, not {view!r}", field="view"
        )
    return f"seat:{int(found.group(1))}"


def frames_json(match_id: int, view: str = SPECTATOR, first: int | None = None) -> bytes:
    """The frames of a finished match from one view, as JSON bytes.

    With `first`, a replay that is not cached yet answers only its first frames, marked
    `partial` with the `total`, and is not cached: replaying a long match and building its
    views takes seconds, its first steps a few milliseconds, so a viewer paints at once
    and asks for the rest (which fills the cache) after.

    NotFound without a match or its record, InvalidInput for a view the match has not,
    Conflict when this engine cannot replay the record or for the revealed view of a match
    that is not finished.
    """
    match = Match.objects.filter(pk=match_id).only("id", "status", "game", "players").first()
    if match is None:
        raise NotFound(f"no match {match_id}")
    view = check_view(view, match.players)
    finished = match.status == Match.Status.FINISHED
    if match.status in (Match.Status.QUEUED, Match.Status.HELD):
        raise NotFound(f"match {match.pk} has no replay yet (it is {match.status})")
    if view == REVEALED and not finished:
        raise Conflict(
            f"match {match.pk} is {match.status}: the revealed view is for finished matches only"
        )
    try:
        rules_version = engine.get_game(match.game).rules_version
    except engine.UnknownGame as exc:
        raise Conflict(f"match {match.pk}: {exc}") from exc
    cache = caches[CACHE]
    cached = cache.get(cache_key(match.pk, rules_version, view)) if finished else None
    if cached is not None:
        return bytes(cached)
    # The record only on a miss: it is the row's largest column.
    record = Match.objects.filter(pk=match.pk).values_list("record", flat=True).first()
    if record is None:
        raise NotFound(f"match {match.pk} has no replay yet (it is {match.status})")
    try:
        if first is not None and first < len(record["actions"]) + 1:
            return _first_frames(match, rules_version, record, view, first)
        frames = list(engine.frames(record))
    except engine.ReplayMismatch as exc:
        raise Conflict(f"match {match.pk} cannot be replayed by this engine: {exc}") from exc
    head = {
        "match": match.pk,
        "game": match.game,
        "rules_version": rules_version,
        "players": record["players"],
    }
    if not finished:
        return json.dumps(
            {**head, "view": view, "frames": [_one_view(f, view) for f in frames]},
            separators=(",", ":"),
        ).encode()
    documents = {
        name: json.dumps(
            {**head, "view": name, "frames": [_one_view(f, name) for f in frames]},
            separators=(",", ":"),
        ).encode()
        for name in [
            SPECTATOR,
            *(f"seat:{seat}" for seat in range(record["players"])),
            *([REVEALED] if finished else []),
        ]
    }
    cache.set_many(
        {cache_key(match.pk, rules_version, name): body for name, body in documents.items()},
        timeout=None,
    )
    return documents[view]


def _first_frames(
    match: Match, rules_version: str, record: dict[str, Any], view: str, first: int
) -> bytes:
    frames = itertools.islice(engine.frames(record), first)
    return json.dumps(
        {
            "match": match.pk,
            "game": match.game,
            "rules_version": rules_version,
            "players": record["players"],
            "view": view,
            "partial": True,
            "total": len(record["actions"]) + 1,
            "frames": [_one_view(frame, view) for frame in frames],
        },
        separators=(",", ":"),
    ).encode()


def _one_view(frame: dict[str, Any], view: str) -> dict[str, Any]:
    shown: dict[str, Any]
    if view == SPECTATOR:
        shown = frame["spectator"]
    elif view == REVEALED:
        shown = {**frame["spectator"], "seats": frame["observations"]}
    else:
        shown = frame["observations"][int(view[5:])]
    legal = frame.get("legal")
    own = view == REVEALED or (frame["actor"] is not None and view == f"seat:{frame['actor']}")
    return {
        "index": frame["index"],
        "actor": frame["actor"],
        "action": frame["action"],
        "legal": legal[:LEGAL_SHOWN] if own and legal is not None else None,
        "legal_count": len(legal) if own and legal is not None else None,
        "to_move": frame["to_move"],
        "view": shown,
        "result": frame["result"],
    }
