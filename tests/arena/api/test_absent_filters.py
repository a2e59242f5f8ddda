"""Every list endpoint: a filter that is absent filters nothing (issue: an absent boolean
read as "false" hid every ladder match from the match list)."""

from __future__ import annotations

import pytest

from arena.models import Challenge, Tournament

pytestmark = pytest.mark.django_db


def test_the_bot_list_shows_every_game_owner_and_state(
    anonymous, author, make_bot, author_user, other_user
):
    a1 = make_bot(author_user, "a1")
    make_bot(author_user, "a2", game="crew")
    make_bot(other_user, "b1")
    a1.is_active = False
    a1.save()
    assert anonymous.get("/api/bots/").json()["count"] == 3
    assert author.get("/api/bots/").json()["count"] == 3  # no `mine` is not mine=false


def test_the_tournament_list_shows_every_status(anonymous, organiser_user):
    for status in Tournament.Status.values:
        Tournament.objects.create(
            name=status, game="duel", players_per_match=2, created_by=organiser_user, status=status
        )
    listed = {t["status"] for t in anonymous.get("/api/tournaments/").json()["results"]}
    assert listed == set(Tournament.Status.values)


def test_the_challenge_list_shows_every_status(anonymous, make_bot, author_user, other_user):
    a, b = make_bot(author_user, "a1"), make_bot(other_user, "b1")
    for status in Challenge.Status.values:
        Challenge.objects.create(
            game="duel", candidate=a.latest_version(), baseline=b.latest_version(), status=status
        )
    reply = anonymous.get("/api/challenges/").json()
    rows = reply["results"] if isinstance(reply, dict) else reply
    assert {c["status"] for c in rows} == set(Challenge.Status.values)
