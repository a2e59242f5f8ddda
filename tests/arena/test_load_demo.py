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


def test_the_reference_bots_are_anchors_that_no_author_replaces(
    reference_dir, author, author_user, make_bot
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from arena.services.ladder import sync_entries
    from tests.arena.conftest import GOOD_BOT

    def upload(**fields):
        return {"file": SimpleUploadedFile("bot.py", GOOD_BOT), **fields}

    # An author's bot that took a reference bot's name first stays the author's, no anchor.
    taken = make_bot(author_user, "heuristic", game="crew")
    (reference_dir / "crew_heuristic.py").write_bytes(b"def act(o, l):\n    return l[0]\n")
    call_command("load_demo", "--no-start", stdout=io.StringIO(), stderr=io.StringIO())
    assert not Bot.objects.get(pk=taken.pk).is_anchor()
    anchors = {b.name: b for b in Bot.objects.anchors().filter(game="duel")}
    assert set(anchors) == {"heuristic", "random"}
    heuristic = anchors["heuristic"]
    assert heuristic.is_anchor() and heuristic.versions.count() == 1
    # No author adds a version to a reference bot or takes its name.
    assert author.post(f"/api/bots/{heuristic.pk}/versions/", upload()).status_code == 403
    reply = author.post("/api/bots/", upload(name="heuristic", game="duel"))
    assert reply.status_code == 409
    # An author's new bot joins the ladder beside the anchors, which stay on it as they were.
    mine = make_bot(author_user, "mine")
    entries = sync_entries("duel")
    assert set(entries) == {heuristic.pk, anchors["random"].pk, mine.pk}
    assert entries[heuristic.pk].version_id == heuristic.latest_version().pk
    assert heuristic.versions.count() == 1
