"""GET /api/matches/{id}/frames/: the engine's frames of the stored record, cached."""

from __future__ import annotations

import json
import random

import pytest
from django.core.cache import caches

import engine
from arena.models import Match
from arena.services.frames import CACHE, cache_key

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_frames_cache():
    caches[CACHE].clear()
    yield
    caches[CACHE].clear()


def recorded_match(game: str = "moon_adventure", players: int = 3, seed: int = 5) -> Match:
    state = engine.get_game(game).new_state(players, seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    record = json.loads(json.dumps(state.record()))
    return Match.objects.create(
        game=game,
        rules_version=record["rules_version"],
        players=players,
        seed=seed,
        status=Match.Status.FINISHED,
        record=record,
        result=record["result"],
        decisions=len(record["actions"]),
    )


def test_frames_follow_the_record_and_end_on_its_result(anonymous):
    match = recorded_match()
    response = anonymous.get(f"/api/matches/{match.pk}/frames/")
    assert response.status_code == 200, response.content
    body = json.loads(response.content)
    assert body["match"] == match.pk and body["game"] == "moon_adventure"
    frames = body["frames"]
    assert len(frames) == match.decisions + 1
    assert frames[-1]["result"] == match.record["result"]
    assert [f["action"] for f in frames[1:]] == match.record["actions"]
    assert all(len(f["observations"]) == 3 for f in frames)
    assert (
        frames[0]["spectator"] == engine.get_game("moon_adventure").new_state(3, 5).spectator_view()
    )


def test_frames_are_cached_by_match_and_rules_version(anonymous):
    match = recorded_match()
    first = anonymous.get(f"/api/matches/{match.pk}/frames/").content
    key = cache_key(match.pk, engine.get_game("moon_adventure").rules_version)
    assert caches[CACHE].get(key) == first
    # The record is immutable once finished; changing it here proves the second answer
    # comes from the cache and not from a new replay.
    Match.objects.filter(pk=match.pk).update(record={"broken": True})
    assert anonymous.get(f"/api/matches/{match.pk}/frames/").content == first
    caches[CACHE].clear()
    assert anonymous.get(f"/api/matches/{match.pk}/frames/").status_code == 409


def test_frames_errors_are_clear(anonymous):
    queued = Match.objects.create(game="moon_adventure", rules_version="x", players=2, seed=1)
    response = anonymous.get(f"/api/matches/{queued.pk}/frames/")
    assert response.status_code == 404 and "no replay yet" in response.json()["detail"]
    assert anonymous.get("/api/matches/999999/frames/").status_code == 404
    assert anonymous.get("/api/matches/abc/frames/").status_code == 404
    tampered = recorded_match(seed=6)
    tampered.record["result"]["scores"][0] += 3
    tampered.save()
    response = anonymous.get(f"/api/matches/{tampered.pk}/frames/")
    assert response.status_code == 409 and "cannot be replayed" in response.json()["detail"]


def test_the_schema_documents_the_frames(anonymous):
    schema = anonymous.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/matches/{id}/frames/"]["get"]
    ref = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/Frames")
    assert "spectator" in schema["components"]["schemas"]["Frame"]["properties"]
