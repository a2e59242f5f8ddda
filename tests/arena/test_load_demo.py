"""`manage.py load_demo`: reference bots for every game and a demo tournament, idempotent."""

from __future__ import annotations

import io
import random

import pytest
from django.core.management import call_command

from arena.models import Bot, BotVersion, LadderEntry, Tournament
from arena.services.demo import reference_files
from arena.services.ladder import schedule_game

pytestmark = pytest.mark.django_db

RANDOM = b"import random\n\ndef act(observation, legal_actions):\n    return random.choice(legal_actions)\n"


@pytest.fixture
def reference_dir(tmp_path, settings):
    (tmp_path / "random_bot.py").write_bytes(RANDOM)
    (tmp_path / "duel_heuristic.py").write_bytes(b"def act(o, l):\n    return max(l)\n")
    (tmp_path / "__init__.py").write_bytes(b"")
    settings.ARENA_REFERENCE_BOTS_DIR = tmp_path
    return tmp_path


def test_reference_files_are_per_game_or_for_every_game(reference_dir):
    found = reference_files(reference_dir, ["duel", "crew"])
    assert sorted(found["duel"]) == ["heuristic", "random"]
    assert sorted(found["crew"]) == ["random"]


def test_load_demo_loads_bots_and_a_tournament_once(reference_dir, run_on_commit, enqueued):
    out = io.StringIO()
    run_on_commit(call_command, "load_demo", "--game", "duel", stdout=out, stderr=io.StringIO())
    bots = {(b.game, b.name) for b in Bot.objects.filter(owner__username="arena")}
    assert {("duel", "random"), ("duel", "heuristic"), ("crew", "random")} <= bots
    tournament = Tournament.objects.get()
    assert tournament.game == "duel" and tournament.status == Tournament.Status.RUNNING
    assert len(enqueued) == tournament.matches.count() == 4
    versions = BotVersion.objects.count()
    run_on_commit(
        call_command, "load_demo", "--game", "duel", stdout=io.StringIO(), stderr=io.StringIO()
    )
    assert Tournament.objects.count() == 1 and BotVersion.objects.count() == versions
    assert len(enqueued) == 4


def test_a_changed_reference_bot_gets_a_new_version(reference_dir, run_on_commit):
    call_command("load_demo", "--no-start", stdout=io.StringIO(), stderr=io.StringIO())
    (reference_dir / "random_bot.py").write_bytes(RANDOM + b"# tuned\n")
    call_command("load_demo", "--no-start", stdout=io.StringIO(), stderr=io.StringIO())
    assert Bot.objects.get(game="duel", name="random").versions.count() == 2


def test_an_unknown_demo_game_is_an_error(reference_dir):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="unknown game"):
        call_command("load_demo", "--game", "chess", stdout=io.StringIO())


def test_load_demo_puts_the_reference_bots_on_running_ladders(
    reference_dir, run_on_commit, enqueued
):
    out = io.StringIO()
    run_on_commit(call_command, "load_demo", "--game", "duel", stdout=out, stderr=io.StringIO())
    assert "ladder running: duel (2 bots)" in out.getvalue()
    assert "ladder running: crew (1 bots)" in out.getvalue()
    assert LadderEntry.objects.filter(bot__game="duel").count() == 2
    ids = run_on_commit(schedule_game, "duel", 4, random.Random(1))
    assert len(ids) == 4 and set(ids) <= set(enqueued)
