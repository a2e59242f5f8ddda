"""Swiss, knockout and table knockout tournaments run to the end through real workers.

Real PostgreSQL, real Redis, real `celery worker` processes (each bot in its own process)
and the API through DRF's test client: each round opens when the previous round's last
result is recorded, with no one watching. The game is `duel` (one decision a seat:
the highest number wins, equal numbers share the rank), so rounds, not games, take the time.
"""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from arena.models import Bot, Match, Rating
from engine.core import registry
from tests.arena.fakegames import DUEL

pytestmark = pytest.mark.django_db(transaction=True)

APP = "tests.workers.pipeline.formats_app"
HIGH = b"def act(observation, legal_actions):\n    return max(legal_actions)\n"
MIDDLE = b"def act(observation, legal_actions):\n    return sorted(legal_actions)[1]\n"
LOW = b"def act(observation, legal_actions):\n    return min(legal_actions)\n"
RANDOM = (
    b"import random\n\n"
    b"def act(observation, legal_actions):\n    return random.choice(legal_actions)\n"
)


@pytest.fixture(autouse=True)
def duel_registered(monkeypatch, settings):
    registry._discover()
    monkeypatch.setitem(registry._GAMES, DUEL.name, DUEL)
    settings.ARENA_SMOKE_TEST = ""


@pytest.fixture
def organiser() -> APIClient:
    User.objects.create_superuser("olga", password="organiser-pass-9")
    client = APIClient()
    token = client.post("/api/token/", {"username": "olga", "password": "organiser-pass-9"})
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    return client


def make_bots(sources: list[bytes]) -> list[int]:
    owner = User.objects.create_user("ada")
    ids = []
    for i, source in enumerate(sources):
        bot = Bot.objects.create(owner=owner, name=f"bot{i:02d}", game="duel")
        bot.add_version(source, "bot.py")
        ids.append(bot.pk)
    return ids


def create(organiser: APIClient, bots: list[int], **settings) -> dict:
    data = {"name": "cup", "game": "duel", "bots": bots, "players_per_match": 2, **settings}
    reply = organiser.post("/api/tournaments/", data, format="json")
    assert reply.status_code == 201, reply.content
    return reply.json()


def wait_until(organiser: APIClient, tournament_id: int, status: str, workers, timeout=90.0):
    deadline = time.monotonic() + timeout
    while True:
        shown = organiser.get(f"/api/tournaments/{tournament_id}/").json()
        if shown["status"] == status:
            return shown
        if time.monotonic() > deadline:
            logs = "\n---\n".join(w.text()[-3000:] for w in workers)
            raise AssertionError(f"tournament not {status} in {timeout}s: {shown}\n{logs}")
        time.sleep(0.2)


def test_a_swiss_of_nine_bots_runs_to_the_end(start_worker, organiser):
    worker = start_worker(concurrency=2, isolation="process", app_module=APP)
    bots = make_bots([HIGH] * 3 + [MIDDLE] * 3 + [LOW] * 3)
    tournament = create(organiser, bots, format="swiss")
    assert tournament["planned_rounds"] == 5  # ceil(log2 9) + 1
    shown = wait_until(organiser, tournament["id"], "finished", [worker])
    rounds = shown["rounds"]
    assert [r["number"] for r in rounds] == [1, 2, 3, 4, 5]
    assert all(r["status"] == "finished" and len(r["tables"]) == 4 for r in rounds)
    pairs = [frozenset(t["bots"]) for r in rounds for t in r["tables"]]
    assert len(pairs) == len(set(pairs)) == 20
    byes = [b for r in rounds for b in r["byes"]]
    assert len(byes) == len(set(byes)) == 5
    for r in rounds:
        seated = [b for t in r["tables"] for b in t["bots"]] + r["byes"]
        assert sorted(seated) == sorted(bots)
    assert shown["matches_done"] == shown["matches_total"] == 20
    # The HIGH bots never lose a game: one of them leads.
    assert shown["standings"][0]["bot_id"] in bots[:3]
    assert "buchholz_cut1" in shown["standings"][0]["tiebreaks"]


def test_a_knockout_of_six_runs_to_a_champion(start_worker, organiser):
    worker = start_worker(concurrency=2, isolation="process", app_module=APP)
    bots = make_bots([HIGH, MIDDLE, MIDDLE, LOW, LOW, LOW])
    tournament = create(organiser, bots, format="knockout")
    shown = wait_until(organiser, tournament["id"], "finished", [worker])
    bracket = {tie["tie"]: tie for tie in shown["bracket"]}
    # Eight slots: seeds 1 and 2 have byes (no rating yet: seeded by id).
    assert bracket["W1-1"]["status"] == "bye" and bracket["W1-3"]["status"] == "bye"
    assert all(tie["status"] in ("decided", "bye") for tie in bracket.values())
    assert shown["champion"] == bots[0]  # HIGH beats everyone
    assert bracket["W3-1"]["winner"] == bots[0]
    # Level sets (MIDDLE v MIDDLE, LOW v LOW) got extra pairs: more games than ties.
    assert shown["matches_done"] == shown["matches_total"] >= 5


def test_a_table_knockout_of_twelve_at_three_players_runs_to_one_final_table(
    start_worker, organiser
):
    worker = start_worker(concurrency=2, isolation="process", app_module=APP)
    bots = make_bots([HIGH] + [MIDDLE] * 3 + [LOW] * 8)
    tournament = create(organiser, bots, format="table_knockout", players_per_match=3, advance=1)
    shown = wait_until(organiser, tournament["id"], "finished", [worker])
    assert [len(r["tables"]) for r in shown["rounds"]] == [4, 2, 1]
    first = shown["rounds"][0]["tables"]
    assert all(len(t["bots"]) == 3 for t in first)
    assert shown["champion"] == bots[0]
    assert shown["matches_done"] == 7


def test_pause_stops_new_matches_and_resume_finishes(start_worker, organiser):
    bots = make_bots([HIGH, MIDDLE, LOW, RANDOM])
    tournament = create(organiser, bots, format="swiss", rounds=2)
    url = f"/api/tournaments/{tournament['id']}"
    assert organiser.post(f"{url}/pause/").json()["status"] == "paused"
    worker = start_worker(concurrency=2, isolation="process", app_module=APP)
    # The matches were sent to the queue before the pause: the worker takes the
    # messages and finds nothing to claim.
    time.sleep(3)
    assert set(Match.objects.values_list("status", flat=True)) == {"held"}
    assert organiser.get(url + "/").json()["matches_done"] == 0
    assert organiser.post(f"{url}/resume/").json()["status"] == "running"
    shown = wait_until(organiser, tournament["id"], "finished", [worker])
    assert len(shown["rounds"]) == 2 and shown["matches_done"] == 4


def test_cancel_keeps_every_recorded_result_and_rating(start_worker, organiser):
    worker = start_worker(concurrency=1, isolation="process", app_module=APP)
    bots = make_bots([HIGH, MIDDLE, LOW, RANDOM, HIGH, LOW])
    tournament = create(organiser, bots, format="swiss", rounds=3)
    url = f"/api/tournaments/{tournament['id']}"
    deadline = time.monotonic() + 60
    while not Match.objects.filter(status=Match.Status.FINISHED).exists():
        assert time.monotonic() < deadline, worker.text()[-3000:]
        time.sleep(0.05)
    cancelled = organiser.post(f"{url}/cancel/").json()
    assert cancelled["status"] == "cancelled"
    # A match running at the cancel finishes and is recorded; then nothing moves.
    deadline = time.monotonic() + 30
    while Match.objects.filter(status=Match.Status.RUNNING).exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    recorded = {
        m.pk: (m.result, [(s.bot_id, s.rank, s.rating_after) for s in m.seats.all()])
        for m in Match.objects.filter(status=Match.Status.FINISHED).prefetch_related("seats")
    }
    ratings = {r.bot_id: (r.rating, r.games) for r in Rating.objects.filter(game="duel")}
    assert recorded and sum(games for _, games in ratings.values()) == 2 * len(recorded)
    time.sleep(1.5)
    after = {
        m.pk: (m.result, [(s.bot_id, s.rank, s.rating_after) for s in m.seats.all()])
        for m in Match.objects.filter(status=Match.Status.FINISHED).prefetch_related("seats")
    }
    assert after == recorded
    assert {r.bot_id: (r.rating, r.games) for r in Rating.objects.filter(game="duel")} == ratings
    # Each bot's rating is the last one its recorded matches left it with.
    last = {}
    for match_id in sorted(recorded):
        for bot, _, rating_after in recorded[match_id][1]:
            last[bot] = rating_after
    assert {bot: rating for bot, (rating, _) in ratings.items()} == last
    shown = organiser.get(url + "/").json()
    assert shown["status"] == "cancelled" and shown["matches_done"] == shown["matches_total"]
    assert not any(
        Match.objects.filter(status__in=[Match.Status.QUEUED, Match.Status.HELD]).values("pk")
    )
