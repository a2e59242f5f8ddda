"""Cooperative rating through the whole pipeline: a stronger bot ends above a weaker one,
on the test game `relay` and on Moon Adventure itself.

Both bots play a round robin of three-seat tables of the cooperative test game
`relay` (tests/workers/pipeline/coopgame.py) with partners from a pool of
random bots (every combination of tables, so partners vary from match to match); each seat is rated against the game's own rating for three
players. The strong bot always puts in the most effort, the weak one none.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User

from arena.models import Bot, GameRating, Match, Rating, Tournament
from arena.services.tournaments import create_tournament
from engine.core import registry
from tests.workers.pipeline.conftest import wait_for_matches
from tests.workers.pipeline.coopgame import RELAY

# Sequences start again at 1 for each test: the tournament's seeds come from its id, so the
# games (and how often a team can win them) do not depend on which tests ran before.
pytestmark = pytest.mark.django_db(transaction=True, reset_sequences=True)

REFERENCE = Path(__file__).resolve().parents[3] / "bots" / "reference"
STRONG = b"def act(observation, legal_actions):\n    return max(legal_actions)\n"
WEAK = b"def act(observation, legal_actions):\n    return min(legal_actions)\n"


@pytest.fixture(autouse=True)
def relay_registered(monkeypatch):
    registry._discover()
    monkeypatch.setitem(registry._GAMES, RELAY.name, RELAY)


def make_bot(owner: User, name: str, source: bytes, game: str = "relay") -> Bot:
    bot = Bot.objects.create(owner=owner, name=name, game=game)
    bot.add_version(source, "bot.py")
    return bot


def play_round_robin(organiser, name, game, bots, players, worker) -> list[Match]:
    """A round robin of every table of `players` out of the five bots, six games each."""
    tournament = create_tournament(
        organiser,
        name=name,
        game=game,
        bots=[bot.pk for bot in bots],
        players_per_match=players,
        # Six games per table keep a wrong order out of reach of the partners' noise
        # (a simulation of the relay tournament put it below 1 in 2000).
        games_per_pairing=6,
    )
    ids = list(Match.objects.filter(tournament=tournament).values_list("pk", flat=True))
    assert len(ids) == 60  # 10 tables out of 5 bots (of 2 or of 3), 6 games each
    done = wait_for_matches(ids, [worker])
    assert all(m.status == Match.Status.FINISHED for m in done)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    return done


def test_a_stronger_cooperative_bot_ends_above_a_weaker_one_with_random_partners(
    start_worker, settings
):
    settings.ARENA_SMOKE_TEST = ""
    owner = User.objects.create_user("cora")
    organiser = User.objects.create_superuser("olga", password="organiser-pass-9")
    strong = make_bot(owner, "strong", STRONG)
    weak = make_bot(owner, "weak", WEAK)
    random_source = (REFERENCE / "random_bot.py").read_bytes()
    partners = [make_bot(owner, f"random{i}", random_source) for i in range(3)]
    worker = start_worker(concurrency=2, app_module="tests.workers.pipeline.worker_app")

    done = play_round_robin(organiser, "Relay Cup", "relay", [strong, weak, *partners], 3, worker)

    rating = {r.bot_id: r for r in Rating.objects.filter(game="relay")}
    assert rating[strong.pk].games == rating[weak.pk].games == 36
    assert rating[strong.pk].rating > rating[weak.pk].rating
    assert rating[strong.pk].successes > rating[weak.pk].successes
    # Ranks are shared, the game has its own rating at three players, moved by every match.
    assert all({s.rank for s in m.seats.all()} == {1} for m in done)
    game = GameRating.objects.get(game="relay", players=3)
    assert game.games == 60 and game.rating != 1500


def test_the_moon_adventure_heuristic_ends_above_random_through_real_workers(
    start_worker, settings
):
    # The real cooperative game on its standard rules (two seats, target 5): the reference
    # heuristic and the random bot each meet the same three heuristic partners; a
    # heuristic team succeeds in ~40 % of games, a table with the random bot almost never.
    settings.ARENA_SMOKE_TEST = ""
    owner = User.objects.create_user("mira")
    organiser = User.objects.create_superuser("otto", password="organiser-pass-9")
    heuristic = (REFERENCE / "moon_adventure_heuristic.py").read_bytes()
    random_source = (REFERENCE / "random_bot.py").read_bytes()
    strong = make_bot(owner, "strong", heuristic, "moon_adventure")
    weak = make_bot(owner, "weak", random_source, "moon_adventure")
    partners = [make_bot(owner, f"crew{i}", heuristic, "moon_adventure") for i in range(3)]
    worker = start_worker(concurrency=2)

    bots = [strong, weak, *partners]
    done = play_round_robin(organiser, "Moon Cup", "moon_adventure", bots, 2, worker)
    assert not [s.forfeit_reason for m in done for s in m.seats.all() if s.has_forfeited()]

    rating = {r.bot_id: r for r in Rating.objects.filter(game="moon_adventure")}
    assert rating[strong.pk].games == rating[weak.pk].games == 24
    assert rating[strong.pk].successes > rating[weak.pk].successes
    assert rating[strong.pk].rating > rating[weak.pk].rating
    assert rating[weak.pk].rating < 1500  # the random bot loses rating to the game
    game = GameRating.objects.get(game="moon_adventure", players=2)
    assert game.games == 60
