"""Fixtures for the arena tests: fake games, personas, bot sources, a recording queue.

The arena tests run against real PostgreSQL (arena/test_settings.py): pytest-django creates
and drops the test database itself.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from arena.services import response_cache
from engine.core import registry
from tests.arena.fakegames import FAKE_GAMES

GOOD_BOT = b"def act(observation, legal_actions):\n    return legal_actions[0]\n"
CLASS_BOT = (
    b"class Bot:\n"
    b"    def setup(self, info):\n        pass\n"
    b"    def act(self, observation, legal_actions):\n        return legal_actions[-1]\n"
)


def smoke_ok(game: str, source: bytes, filename: str) -> str | None:
    """A smoke test that runs nothing: the API tests are about shape, not about sandboxes."""
    return None


def smoke_refuses(game: str, source: bytes, filename: str) -> str | None:
    return "the bot forfeited its smoke match: timeout"


ENQUEUED: list[int] = []
ENQUEUED_PURPOSES: dict[int, str] = {}
VALIDATIONS: list[int] = []


def record_validation(version_id: int) -> None:
    """Stands in for workers.tasks.enqueue_validation: remembers the versions sent."""
    VALIDATIONS.append(version_id)


def record_enqueue(match_id: int, purpose: str = "tournament") -> None:
    """Stands in for workers.tasks.enqueue_match: remembers what would have been queued."""
    ENQUEUED.append(match_id)
    ENQUEUED_PURPOSES[match_id] = purpose


ENQUEUED_SETS: list[list[int]] = []


def record_enqueue_matches(match_ids: list[int], purpose: str = "tournament") -> None:
    """Stands in for workers.tasks.enqueue_matches: each match, and the sets they went as."""
    ENQUEUED_SETS.append(list(match_ids))
    for match_id in match_ids:
        record_enqueue(match_id, purpose)


@pytest.fixture(autouse=True)
def fake_games(monkeypatch):
    # Registered for the duration of one test only, so the engine's conformance suite never
    # sees them.
    registry._discover()
    for game in FAKE_GAMES:
        monkeypatch.setitem(registry._GAMES, game.name, game)


@pytest.fixture(autouse=True)
def fresh_api_cache(django_db_setup):
    # Every test database starts empty, but the cached API answers live in Redis: a new
    # generation of `all` makes whatever an earlier test (or run) cached unreachable.
    # (After django_db_setup, so the namespace is the test database's name.)
    response_cache.bump([response_cache.ALL])


@pytest.fixture(autouse=True)
def arena_settings(settings):
    settings.ARENA_SMOKE_TEST = "tests.arena.conftest.smoke_ok"
    settings.ARENA_ENQUEUE_MATCH = "tests.arena.conftest.record_enqueue"
    settings.ARENA_ENQUEUE_REFIT = "tests.arena.conftest.record_refit"
    settings.ARENA_ENQUEUE_MATCHES = "tests.arena.conftest.record_enqueue_matches"
    settings.ARENA_ENQUEUE_VALIDATION = "tests.arena.conftest.record_validation"
    ENQUEUED.clear()
    ENQUEUED_SETS.clear()
    VALIDATIONS.clear()
    ENQUEUED_PURPOSES.clear()
    REFITS.clear()
    return settings


REFITS: list[tuple[str, bool]] = []


def record_refit(game: str, force: bool = False) -> None:
    """Stands in for workers.tasks.enqueue_refit."""
    REFITS.append((game, force))


@pytest.fixture
def enqueued() -> list[int]:
    return ENQUEUED


@pytest.fixture
def refits() -> list[tuple[str, bool]]:
    return REFITS


@pytest.fixture
def validations() -> list[int]:
    return VALIDATIONS


def _client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    client.user = user
    return client


@pytest.fixture
def organiser_user(db) -> User:
    user = User.objects.create_user("olga", password="organiser-pass-1")
    group, _ = Group.objects.get_or_create(name="organisers")
    user.groups.add(group)
    return user


@pytest.fixture
def author_user(db) -> User:
    return User.objects.create_user("ada", password="author-pass-1")


@pytest.fixture
def other_user(db) -> User:
    return User.objects.create_user("bob", password="author-pass-2")


@pytest.fixture
def organiser(organiser_user) -> APIClient:
    return _client_for(organiser_user)


@pytest.fixture
def author(author_user) -> APIClient:
    return _client_for(author_user)


@pytest.fixture
def other_author(other_user) -> APIClient:
    return _client_for(other_user)


@pytest.fixture
def anonymous(db) -> APIClient:
    return _client_for(None)


@pytest.fixture
def make_bot(db):
    """make_bot(owner, name, game="duel", source=GOOD_BOT) -> Bot, through the upload service."""
    from arena.services.bots import Upload, create_bot

    def make(owner: User, name: str, game: str = "duel", source: bytes = GOOD_BOT):
        return create_bot(owner, name, game, Upload("bot.py", source), smoke=False)

    return make


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    """Run on-commit callbacks (the enqueue) inside a test's rolled-back transaction."""

    def run(function, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(*args, **kwargs)

    return run
