"""The pages over real data (Django's test client): each renders, with what it must show."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from arena.models import Bot, BotVersion, LadderEntry, Match
from arena.services.bots import Upload, create_bot
from arena.web import charts
from bots.reference import builtin_path
from tests.arena.web.site_data import PASSWORD, build_site

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(settings):
    settings.ARENA_BOT_ISOLATION = "process"
    return build_site(["moon_adventure", "moon_bots"])


def test_every_page_renders_with_its_content(site, client):
    home = client.get("/")
    assert home.status_code == 200
    assert b"moon_adventure-heuristic" in home.content
    board = client.get("/games/moon_bots/?order=skill")
    assert board.status_code == 200
    assert b'role="img" aria-label="skill ' in board.content  # the interval bar, described
    bot_id = site.bots["moon_bots"][0]
    bot = client.get(f"/bots/{bot_id}/")
    assert bot.status_code == 200
    assert b"<polyline" in bot.content and b"Elo (line) over 3 rated matches" in bot.content
    knockout = client.get(f"/tournaments/{site.knockout}/")
    assert knockout.status_code == 200
    assert b'class="bracket"' in knockout.content and b"Tie W1-1" in knockout.content
    match_id = site.matches["moon_adventure"]
    match = client.get(f"/matches/{match_id}/")
    assert match.status_code == 200
    assert f'data-frames="/api/matches/{match_id}/frames/"'.encode() in match.content
    for missing in ("/games/chess/", "/bots/999999/", "/tournaments/999999/", "/matches/9999999/"):
        assert client.get(missing).status_code == 404


def test_the_owner_sees_stderr_upload_and_pause(site, client):
    bot_id = site.bots["moon_bots"][1]
    Match.objects.filter(seats__bot_id=bot_id).first().seats.filter(bot_id=bot_id).update(
        stderr="secret debug line"
    )
    assert b"secret debug line" not in client.get(f"/bots/{bot_id}/").content
    assert client.login(username="pat", password=PASSWORD)
    page = client.get(f"/bots/{bot_id}/")
    assert b"secret debug line" in page.content and b"Upload a new version" in page.content
    client.post(f"/bots/{bot_id}/active/", {"active": "0"})
    assert not Bot.objects.get(pk=bot_id).is_active


def test_the_replay_gets_the_owners_stderr_by_move_and_nobody_elses(site, client):
    bot_id = site.bots["moon_bots"][1]
    match = Match.objects.filter(seats__bot_id=bot_id).first()
    seat = match.seats.get(bot_id=bot_id)
    seat.stderr = f"\x1emove {match.pk} 1\nfirst thought\n\x1emove 999 1\nanother match\n"
    seat.save(update_fields=["stderr"])
    page = client.get(f"/matches/{match.pk}/")
    assert b"first thought" not in page.content
    assert client.login(username="pat", password=PASSWORD)
    page = client.get(f"/matches/{match.pk}/")
    # The viewer reads it from the page's JSON (json_script), keys as strings.
    assert page.context["own_stderr"][str(seat.seat)]["moves"] == {1: "first thought"}
    assert b"another match" not in page.content


def test_the_ladder_status_is_the_apis_and_the_owner_resumes(site, client):
    bot = Bot.objects.get(pk=site.bots["moon_bots"][0])
    LadderEntry.objects.create(
        bot=bot,
        version=bot.latest_version(),
        entered_at=timezone.now(),
        paused_at=timezone.now(),
        pause_reason="3 crashes in a row",
        pause_match_ids=[site.matches["moon_bots"]],
    )
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    api = client.get(f"/api/bots/{bot.pk}/").json()
    assert api["ladder_status"] == "paused"
    assert "<strong>paused</strong> — 3 crashes in a row" in page
    assert "Put it back on the ladder" not in page  # only for the owner
    assert client.login(username="pat", password=PASSWORD)
    assert "Put it back on the ladder" in client.get(f"/bots/{bot.pk}/").content.decode()
    client.post(f"/bots/{bot.pk}/ladder/resume/")
    assert not LadderEntry.objects.get(bot=bot).is_paused()
    assert "<strong>playing</strong>" in client.get(f"/bots/{bot.pk}/").content.decode()


def test_sign_up_and_upload_through_the_forms(db, settings, client: Client):
    settings.ARENA_BOT_ISOLATION = "process"
    response = client.post(
        "/signup/",
        {"username": "newbie", "password1": "a-long-pass-77", "password2": "a-long-pass-77"},
    )
    assert response.status_code == 302 and response["Location"] == "/my/bots/"
    bad = client.post(
        "/upload/",
        {"name": "broken", "game": "moonrollers", "file": SimpleUploadedFile("bot.py", b"x = (")},
    )
    assert bad.status_code == 200 and b'class="error"' in bad.content
    source = builtin_path("random", "moonrollers").read_bytes()
    good = client.post(
        "/upload/",
        {"name": "rolly", "game": "moonrollers", "file": SimpleUploadedFile("bot.py", source)},
        follow=True,
    )
    assert good.status_code == 200
    page = good.content.decode()
    # Stored pending: the smoke match is a worker's job (the browser test runs one).
    assert "Version 1 is <strong>pending</strong>" in page
    assert 'data-validation="pending"' in page and "arena/validation.js" in page
    assert b"rolly" in client.get("/my/bots/").content
    version = BotVersion.objects.get(bot__name="rolly")
    assert version.try_settle("the bot failed its smoke match: seat 0: crashed")
    page = client.get(f"/bots/{version.bot_id}/").content.decode()
    assert "Version 1 was <strong>rejected</strong>: the bot failed its smoke match" in page
    assert "arena/validation.js" not in page  # nothing left to wait for
    client.logout()
    page = client.get(f"/bots/{version.bot_id}/").content.decode()
    assert 'data-validation="rejected"' in page and "seat 0: crashed" not in page


def test_the_owners_status_line_reports_news_only(db, client: Client):
    owner = User.objects.create_user("vera", password=PASSWORD)
    source = builtin_path("random", "moonrollers").read_bytes()
    bot = create_bot(owner, "steady", "moonrollers", Upload("bot.py", source), smoke=False)
    assert client.login(username="vera", password=PASSWORD)
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert "Version 1 is <strong>ready</strong>" in page  # just now
    BotVersion.objects.filter(bot=bot).update(validated_at=timezone.now() - timedelta(hours=2))
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert 'id="validation-status"' not in page  # old news; the table still says ready
    assert 'data-validation="ready"' in page


def test_long_histories_are_thinned_for_the_chart_keeping_both_ends():
    points = list(range(5000))
    thin = charts.thinned(points)
    assert len(thin) == 300 and thin[0] == 0 and thin[-1] == 4999
    assert thin == sorted(set(thin))
    assert charts.thinned(points[:10]) == points[:10]


def test_the_api_link_opens_the_api_documentation_served_offline(db, client: Client):
    home = client.get("/").content.decode()
    assert 'href="/api/docs/"' in home
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    # Swagger UI from the installed sidecar package, never from a CDN.
    body = docs.content.decode()
    assert "swagger-ui" in body and "cdn" not in body.lower()


def test_the_tournaments_page_lists_finished_ones_by_state_game_and_format(db, client: Client):
    from django.contrib.auth.models import User

    from arena.models import Tournament

    organiser = User.objects.create_user("org")
    done = Tournament.objects.create(
        name="autumn cup", game="moonrollers", players_per_match=2, created_by=organiser,
        status=Tournament.Status.FINISHED, format=Tournament.Format.SWISS,
    )  # fmt: skip
    Tournament.objects.create(
        name="spring cup", game="moon_bots", players_per_match=2, created_by=organiser
    )
    page = client.get("/tournaments/").content.decode()
    assert 'href="/tournaments/"' in page  # in the navigation
    finished = page[page.index('id="t-finished"') :]
    assert f'href="/tournaments/{done.pk}/"' in finished and "autumn cup" in finished
    upcoming = page[page.index('id="t-upcoming"') : page.index('id="t-finished"')]
    assert "spring cup" in upcoming
    only = client.get("/tournaments/?game=moon_bots").content.decode()
    assert "spring cup" in only and "autumn cup" not in only
    swiss = client.get("/tournaments/?format=swiss").content.decode()
    assert "autumn cup" in swiss and "spring cup" not in swiss
    assert client.get(f"/tournaments/{done.pk}/").status_code == 200
