"""A crash-looping version leaves the ladder with its reason and evidence; a new one re-enters.

The ladder's matches are played for real in this process (the task's own code, bots in
plain processes): nothing is faked but the queue, which only records what was sent.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Bot, LadderEntry, Match, MatchSeat, Rating
from arena.services import ladder as ladder_service
from workers import tasks

pytestmark = pytest.mark.django_db

REFERENCE = Path(__file__).resolve().parents[2] / "bots" / "reference"
CRASHING_BOT = b"def act(observation, legal_actions):\n    raise RuntimeError('no idea')\n"
SENT: list[tuple[int, str]] = []


def record(match_id: int, purpose: str) -> None:
    SENT.append((match_id, purpose))


@pytest.fixture(autouse=True)
def ladder_settings(settings):
    settings.ARENA_BOT_ISOLATION = "process"
    settings.ARENA_ENQUEUE_MATCH = "tests.workers.test_ladder_crash.record"
    settings.ARENA_LADDER_CRASH_PAUSE = 5
    SENT.clear()


def make_bot(owner: User, name: str, source: bytes) -> Bot:
    bot = Bot.objects.create(owner=owner, name=name, game="moonrollers")
    bot.add_version(source, "bot.py")
    return bot


def tick(django_capture_on_commit_callbacks, seed: int) -> list[int]:
    """One scheduler tick (depth 4), then every queued ladder match played."""
    with django_capture_on_commit_callbacks(execute=True):
        ids = ladder_service.schedule_game("moonrollers", 4, random.Random(seed))
    for match_id in ids:
        assert tasks.execute_match(match_id) == "recorded"
    return ids


def test_a_crash_looping_version_is_paused_then_reenters_with_a_new_version(
    django_capture_on_commit_callbacks,
):
    owner = User.objects.create_user("crash-owner", password="crash-pass-1")
    others = User.objects.create_user("others")
    crasher = make_bot(owner, "crasher", CRASHING_BOT)
    make_bot(others, "first", (REFERENCE / "first_bot.py").read_bytes())
    make_bot(others, "random", (REFERENCE / "random_bot.py").read_bytes())

    # Each tick first pauses crash loops, then plans around the bots still playing.
    for seed in range(20):
        tick(django_capture_on_commit_callbacks, seed)
        if LadderEntry.objects.filter(bot=crasher, paused_at__isnull=False).exists():
            break
    entry = LadderEntry.objects.get(bot=crasher)
    assert entry.is_paused(), "the crashing bot was never paused"
    assert all(purpose == "ladder" for _, purpose in SENT)
    # The evidence: its five newest ladder matches, each one its own forfeit.
    assert len(entry.pause_match_ids) == 5
    evidence = MatchSeat.objects.filter(match_id__in=entry.pause_match_ids, bot=crasher)
    assert evidence.count() == 5 and all("no idea" in s.forfeit_reason for s in evidence)
    assert all(
        m.purpose == Match.Purpose.LADDER
        for m in Match.objects.filter(pk__in=entry.pause_match_ids)
    )
    assert "forfeit" in entry.pause_reason and "RuntimeError" in entry.pause_reason

    client = APIClient()
    client.force_authenticate(owner)
    shown = client.get(f"/api/bots/{crasher.pk}/").json()
    assert shown["ladder_status"] == "paused"
    assert shown["ladder_pause_reason"] == entry.pause_reason
    assert shown["ladder_pause_matches"] == entry.pause_match_ids

    # Paused: the next ticks leave it out.
    for seed in range(100, 103):
        for match_id in tick(django_capture_on_commit_callbacks, seed):
            assert not MatchSeat.objects.filter(match_id=match_id, bot=crasher).exists()

    # A new version re-enters: it plays again and is no longer paused; the rating continues.
    games_before = Rating.objects.get(bot=crasher, game="moonrollers").games
    fixed = crasher.add_version((REFERENCE / "first_bot.py").read_bytes(), "bot.py")
    played = []
    for seed in range(200, 204):
        played += tick(django_capture_on_commit_callbacks, seed)
    seats = MatchSeat.objects.filter(match_id__in=played, bot=crasher)
    assert seats.exists() and {s.bot_version_id for s in seats} == {fixed.pk}
    assert not any(s.forfeit_reason for s in seats)
    entry.refresh_from_db()
    assert not entry.is_paused() and entry.version_id == fixed.pk
    assert client.get(f"/api/bots/{crasher.pk}/").json()["ladder_status"] == "playing"
    rating = Rating.objects.get(bot=crasher, game="moonrollers")
    assert rating.games == games_before + seats.count()
