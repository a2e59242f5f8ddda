"""Generations of the API's cached answers: what a write calls to make cached reads stale.

The API keeps whole anonymous GET answers in the "api" cache (arena/api/caching.py), keyed
by their path and the current generation of every scope the answer depends on: a game
(`game:moonrollers`: its leaderboard, its bot and match lists), a bot (`bot:7`: its detail,
versions, rating history, its match list), a tournament, a match, the unfiltered lists
(`lists`), and `all`, which every answer depends on. A write that changes what a scope shows
calls `touch(...)`: each named scope gets a new generation, so every answer cached under the
old one is never read again (it expires on its own). Nothing is deleted or scanned.

A generation is a fresh random token, not a counter: a generation lost from the cache (an
eviction, a restart) is replaced by a new token, never by an old value that old answers
were stored under. `touch` bumps at once and again after the transaction commits: a reader
between the two may cache what it read before the commit, and the second bump buries it.

The cache failing never fails a write: the error is logged, and cached answers then live at
most their timeout (API_CACHE_TIMEOUT). Keys are namespaced by database name, so test
databases (and two deployments on one Redis) never share answers.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable

from django.core.cache import caches
from django.core.cache.backends.base import BaseCache
from django.db import connection, transaction

log = logging.getLogger(__name__)

ALL = "all"
LISTS = "lists"


def cache() -> BaseCache:
    return caches["api"]


def namespace() -> str:
    # Read at each call: the test runner renames the database after settings load.
    return f"api:{connection.settings_dict['NAME']}"


def _key(scope: str) -> str:
    return f"{namespace()}:gen:{scope}"


def generations(scopes: Iterable[str]) -> dict[str, str]:
    """The current generation of each scope (new ones are created). Raises on cache errors."""
    store = cache()
    keys = {scope: _key(scope) for scope in scopes}
    found = store.get_many(list(keys.values()))
    result: dict[str, str] = {}
    for scope, key in keys.items():
        value = found.get(key)
        if value is None:
            value = secrets.token_hex(6)
            # Another process may have made one at the same moment: keep whichever won.
            if not store.add(key, value, timeout=None):
                value = store.get(key) or value
        result[scope] = value
    return result


def scopes(
    *,
    games: Iterable[str] = (),
    bots: Iterable[int] = (),
    tournaments: Iterable[int | None] = (),
    matches: Iterable[int] = (),
    lists: bool = False,
    everything: bool = False,
) -> list[str]:
    named = [f"game:{game}" for game in games]
    named += [f"bot:{bot}" for bot in bots]
    named += [f"tournament:{t}" for t in tournaments if t is not None]
    named += [f"match:{match}" for match in matches]
    if lists:
        named.append(LISTS)
    if everything:
        named.append(ALL)
    return sorted(set(named))


def bump(names: Iterable[str]) -> None:
    """New generations for these scopes now (no transaction handling: see `touch`)."""
    names = list(names)
    if not names:
        return
    try:
        cache().set_many({_key(name): secrets.token_hex(6) for name in names}, timeout=None)
    except Exception:  # the cache is an optimisation: a write never fails for it
        log.exception("could not invalidate cached API answers for %s", names[:10])


def touch(**what) -> None:
    """Make stale every cached answer of these scopes (see `scopes` for the names), now and
    once more when the current transaction commits."""
    names = scopes(**what)
    bump(names)
    if connection.in_atomic_block:
        transaction.on_commit(lambda: bump(names))
