"""A match's replay frames (engine.frames over its stored record), computed once and cached.

The frames follow from the record and the engine's rules version alone, so the cache key is
the match id and the rules version: a new rules version never serves an old drawing. The
cache holds the JSON text, so a hit costs a read and no re-serialisation.
"""

from __future__ import annotations

import json

from django.core.cache import caches

import engine
from arena.errors import Conflict, NotFound
from arena.models import Match

CACHE = "frames"


def cache_key(match_id: int, rules_version: str) -> str:
    return f"frames:{match_id}:{rules_version}"


def frames_json(match_id: int) -> bytes:
    """The frames document of a finished match as JSON bytes; NotFound / Conflict otherwise."""
    match = Match.objects.filter(pk=match_id).only("id", "status", "game", "record").first()
    if match is None:
        raise NotFound(f"no match {match_id}")
    if match.record is None:
        raise NotFound(f"match {match.pk} has no replay yet (it is {match.status})")
    try:
        rules_version = engine.get_game(match.game).rules_version
    except engine.UnknownGame as exc:
        raise Conflict(f"match {match.pk}: {exc}") from exc
    key = cache_key(match.pk, rules_version)
    cache = caches[CACHE]
    cached = cache.get(key)
    if cached is not None:
        return bytes(cached)
    try:
        frames = list(engine.frames(match.record))
    except engine.ReplayMismatch as exc:
        raise Conflict(f"match {match.pk} cannot be replayed by this engine: {exc}") from exc
    document = {
        "match": match.pk,
        "game": match.game,
        "rules_version": rules_version,
        "players": match.record["players"],
        "frames": frames,
    }
    body = json.dumps(document, separators=(",", ":")).encode()
    cache.set(key, body, timeout=None)
    return body
