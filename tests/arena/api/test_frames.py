"""GET /api/matches/{id}/frames/: the engine's frames of the stored record, cached."""

from __future__ import annotations

import json
import random
from pathlib import Path

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
    assert body["view"] == "spectator"
    frames = body["frames"]
    assert len(frames) == match.decisions + 1
    assert frames[-1]["result"] == match.record["result"]
    assert [f["action"] for f in frames[1:]] == match.record["actions"]
    assert set(frames[0]) == {
        "index",
        "actor",
        "action",
        "legal",
        "legal_count",
        "to_move",
        "view",
        "result",
    }
    assert frames[0]["view"] == engine.get_game("moon_adventure").new_state(3, 5).spectator_view()


@pytest.mark.parametrize("game", ["moon_adventure", "moon_bots", "moonrakers", "moonrollers"])
def test_one_response_carries_one_view_spectator_or_a_seat(anonymous, game):
    match = recorded_match(game)
    replayed = list(engine.frames(match.record))
    for name, expected in [
        ("spectator", [f["spectator"] for f in replayed]),
        *((f"seat:{seat}", [f["observations"][seat] for f in replayed]) for seat in range(3)),
    ]:
        body = anonymous.get(f"/api/matches/{match.pk}/frames/?view={name}").json()
        assert body["view"] == name
        assert len(body["frames"]) == match.decisions + 1
        assert [f["view"] for f in body["frames"]] == expected, name
    spectator = anonymous.get(f"/api/matches/{match.pk}/frames/").content
    seat = anonymous.get(f"/api/matches/{match.pk}/frames/?view=seat:1").content
    everything = json.dumps(replayed, separators=(",", ":")).encode()
    # The point of the parameter: one view is a fraction of all of them together.
    assert len(spectator) < len(everything) / 2 and len(seat) < len(everything) / 2


@pytest.mark.parametrize("game", ["moon_adventure", "moonrollers"])
def test_the_actor_sees_its_legal_choices_and_nobody_else_does(anonymous, game):
    match = recorded_match(game)
    replayed = list(engine.frames(match.record))
    state = engine.get_game(game).new_state(3, 5)
    spectator = anonymous.get(f"/api/matches/{match.pk}/frames/").json()["frames"]
    seats = [
        anonymous.get(f"/api/matches/{match.pk}/frames/?view=seat:{n}").json()["frames"]
        for n in range(3)
    ]
    for index, action in enumerate(match.record["actions"], start=1):
        legal = state.legal_actions()
        assert replayed[index]["legal"] == legal
        actor = state.to_move()
        state.apply(action)
        assert spectator[index]["legal"] is None
        for n in range(3):
            shown = seats[n][index]
            if n == actor:
                assert shown["legal"] == legal[:60] and shown["legal_count"] == len(legal)
                assert action in shown["legal"] or len(legal) > 60
            else:
                assert shown["legal"] is None and shown["legal_count"] is None
    assert replayed[0]["legal"] is None and seats[0][0]["legal"] is None


def test_the_revealed_view_holds_every_seat_once_the_match_is_finished(anonymous):
    match = recorded_match("moonrollers")
    body = anonymous.get(f"/api/matches/{match.pk}/frames/?view=revealed").json()
    assert body["view"] == "revealed"
    replayed = list(engine.frames(match.record))
    for shown, frame in zip(body["frames"], replayed, strict=True):
        assert shown["view"] == {**frame["spectator"], "seats": frame["observations"]}
        assert shown["legal"] == (frame["legal"][:60] if frame["legal"] is not None else None)
    # Hazard token kinds are each seat's secret until the end: the revealed view has them.
    middle = body["frames"][len(replayed) // 2]["view"]
    assert [seat["my_hazard_tokens"] for seat in middle["seats"]] == [
        o["my_hazard_tokens"] for o in replayed[len(replayed) // 2]["observations"]
    ]
    for status in [Match.Status.RUNNING, Match.Status.FAILED]:
        Match.objects.filter(pk=match.pk).update(status=status)
        caches[CACHE].clear()
        response = anonymous.get(f"/api/matches/{match.pk}/frames/?view=revealed")
        assert response.status_code == 409, (status, response.content)
        assert "finished matches only" in response.json()["detail"]
    running = Match.objects.create(
        game="moon_adventure", rules_version="x", players=2, seed=1, status="running"
    )
    response = anonymous.get(f"/api/matches/{running.pk}/frames/?view=revealed")
    assert response.status_code == 409 and "finished matches only" in response.json()["detail"]


def test_a_running_match_shows_its_partial_record_fresh_on_every_request(anonymous):
    match = recorded_match("moonrollers")
    full = match.record
    partial = {**full, "actions": full["actions"][:10], "result": None}
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING, record=partial)
    first = anonymous.get(f"/api/matches/{match.pk}/frames/?view=seat:1").json()["frames"]
    assert len(first) == 11 and first[-1]["result"] is None
    partial["actions"] = full["actions"][:25]
    Match.objects.filter(pk=match.pk).update(record=partial)
    later = anonymous.get(f"/api/matches/{match.pk}/frames/").json()["frames"]
    assert len(later) == 26, "a running match's frames are never cached"
    # Queued again (an attempt given back): what the attempt left is not the match's replay.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.QUEUED)
    response = anonymous.get(f"/api/matches/{match.pk}/frames/")
    assert response.status_code == 404 and "no replay yet" in response.json()["detail"]


def test_a_view_the_match_has_not_is_a_400_naming_it(anonymous):
    match = recorded_match()
    for bad in ["seat:3", "seat:-1", "seat:", "all", "observer", "seat:1x"]:
        response = anonymous.get(f"/api/matches/{match.pk}/frames/", {"view": bad})
        assert response.status_code == 400, (bad, response.content)
        assert "view" in response.content.decode()


def test_frames_are_cached_by_match_rules_version_and_view(anonymous):
    match = recorded_match()
    first = anonymous.get(f"/api/matches/{match.pk}/frames/").content
    rules = engine.get_game("moon_adventure").rules_version
    assert caches[CACHE].get(cache_key(match.pk, rules)) == first
    # One replay stored every view: a seat's frames are cached before anyone asks.
    seat_key = cache_key(match.pk, rules, "seat:2")
    assert json.loads(caches[CACHE].get(seat_key))["view"] == "seat:2"
    # The record is immutable once finished; changing it here proves the next answers
    # come from the cache and not from a new replay.
    Match.objects.filter(pk=match.pk).update(record={"broken": True})
    assert anonymous.get(f"/api/matches/{match.pk}/frames/").content == first
    assert anonymous.get(f"/api/matches/{match.pk}/frames/?view=seat:2").status_code == 200
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
    assert "view" in schema["components"]["schemas"]["Frame"]["properties"]
    (parameter,) = [p for p in operation["parameters"] if p["name"] == "view"]
    assert parameter["in"] == "query" and "seat:N" in parameter["description"]


@pytest.mark.parametrize("where", ["cannot-be-made", "not-a-folder"])
def test_an_unwritable_frames_folder_answers_from_the_record(anonymous, tmp_path, settings, where):
    """A frames cache folder that cannot be made or written is gone without, logged: the
    frames are computed from the record each time, never a 500."""
    if where == "cannot-be-made":
        location = "/proc/arena-frames-cannot-be-here"
    else:
        (tmp_path / "frames").write_text("a file where the folder should be")
        location = str(tmp_path / "frames")
    settings.CACHES = {
        **settings.CACHES,
        "frames": {"BACKEND": "arena.cache_backends.DegradingFileBasedCache", "LOCATION": location},
    }
    match = recorded_match()
    first = anonymous.get(f"/api/matches/{match.pk}/frames/")
    again = anonymous.get(f"/api/matches/{match.pk}/frames/?view=seat:1")
    assert first.status_code == 200 and again.status_code == 200
    assert json.loads(again.content)["view"] == "seat:1"


def test_the_web_server_starts_with_an_unusable_frames_folder(tmp_path):
    """Django builds the cache (and made its folder) in its start-up checks."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "FRAMES_CACHE_DIR": "/proc/arena-frames-cannot-be-here"}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    root = Path(__file__).resolve().parents[3]
    checked = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=root, env=env, capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr[-2000:]
    assert "unusable, going without it" in checked.stderr


def test_first_frames_come_at_once_until_the_whole_replay_is_cached(anonymous):
    match = recorded_match()
    url = f"/api/matches/{match.pk}/frames/"
    start = json.loads(anonymous.get(url, {"first": 5}).content)
    assert start["partial"] is True and start["total"] == match.decisions + 1
    assert [f["index"] for f in start["frames"]] == [0, 1, 2, 3, 4]
    whole = json.loads(anonymous.get(url).content)
    assert start["frames"] == whole["frames"][:5]
    assert "partial" not in whole
    # Cached now: the whole replay answers at once, whatever `first` asks.
    again = json.loads(anonymous.get(url, {"first": 5}).content)
    assert "partial" not in again and len(again["frames"]) == match.decisions + 1
    # More than there are: the whole replay.
    other = recorded_match(seed=6)
    every = json.loads(anonymous.get(f"/api/matches/{other.pk}/frames/", {"first": 10000}).content)
    assert "partial" not in every and len(every["frames"]) == other.decisions + 1


@pytest.mark.parametrize("first", ["0", "-3", "many", "10001"])
def test_a_bad_first_is_a_400_naming_it(anonymous, first):
    match = recorded_match()
    response = anonymous.get(f"/api/matches/{match.pk}/frames/", {"first": first})
    assert response.status_code == 400
    assert "first" in response.content.decode()
