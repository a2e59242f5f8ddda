"""The author's pages through Django's test client: who sees and may do what, and what a bad
form says (a clear error on the page, never a 500). The browser walk is test_author_flow.py.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

import engine
from arena.models import ApiToken, Bot, BotVersion, Challenge, LadderEntry, Match, MatchSeat
from arena.services.bots import Upload, create_bot
from bots.reference import builtin_path

pytestmark = pytest.mark.django_db

PASSWORD = "author-pages-pass-1"
SOURCE = builtin_path("random", "moonrollers").read_bytes()


def user_client(username: str) -> tuple[User, Client]:
    user = User.objects.create_user(username, password=PASSWORD)
    client = Client()
    assert client.login(username=username, password=PASSWORD)
    return user, client


def ready_bot(owner: User, name: str, game: str = "moonrollers") -> Bot:
    return create_bot(owner, name, game, Upload("bot.py", SOURCE), smoke=False)


def finished_match(bots: list[Bot], stderr: list[str]) -> Match:
    spec = engine.get_game(bots[0].game)
    match = Match.objects.create(
        game=spec.name,
        rules_version=spec.rules_version,
        players=len(bots),
        seed=7,
        purpose=Match.Purpose.LADDER,
        status=Match.Status.FINISHED,
        finished_at=timezone.now(),
    )
    for seat, (bot, text) in enumerate(zip(bots, stderr, strict=True)):
        MatchSeat.objects.create(
            match=match,
            seat=seat,
            bot=bot,
            bot_version=bot.latest_version(),
            rank=seat + 1,
            stderr=text,
        )
    return match


def test_an_author_reads_the_stderr_of_their_own_seat_only():
    ada, ada_client = user_client("ada")
    bob, bob_client = user_client("bob")
    match = finished_match(
        [ready_bot(ada, "ada-bot"), ready_bot(bob, "bob-bot")], ["ada thinks", "bob thinks"]
    )
    ada_page = ada_client.get(f"/matches/{match.pk}/").content.decode()
    assert "ada thinks" in ada_page and "bob thinks" not in ada_page
    assert "stderr of seat 0 (only you see this)" in ada_page
    bob_page = bob_client.get(f"/matches/{match.pk}/").content.decode()
    assert "bob thinks" in bob_page and "ada thinks" not in bob_page
    anonymous = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "thinks" not in anonymous and "stderr of seat" not in anonymous
    # The version page lists the match for everyone; stderr stays on the match page.
    version = ada_client.get(f"/bots/{match.seats.get(seat=0).bot_id}/versions/1/")
    assert f'href="/matches/{match.pk}/"' in version.content.decode()
    assert "thinks" not in version.content.decode()


def test_a_new_token_is_shown_once_and_works_until_revoked():
    ada, client = user_client("ada")
    made = client.post("/my/tokens/", {"name": "laptop"})
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    token = ApiToken.objects.get(user=ada)
    key = made.context["new_key"]
    assert key.startswith("arena_") and len(key) == 46 and key in made.content.decode()
    assert token.key_hash != key and key not in token.key_hash  # only the hash is kept
    again = client.get("/my/tokens/").content.decode()
    assert key not in again and f"{token.prefix}…" in again and "laptop" in again
    api = Client(HTTP_AUTHORIZATION=f"Token {key}")
    me = api.get("/api/users/me/")
    assert me.status_code == 200 and me.json()["username"] == "ada"
    revoked = client.post(f"/my/tokens/{token.pk}/revoke/", follow=True)
    assert "The token is revoked" in revoked.content.decode()
    assert api.get("/api/users/me/").status_code == 401
    assert not ApiToken.objects.filter(pk=token.pk).exists()


def test_someone_elses_token_cannot_be_revoked():
    ada, ada_client = user_client("ada")
    _, bob_client = user_client("bob")
    ada_client.post("/my/tokens/", {"name": "ada-build-box"})
    token = ApiToken.objects.get(user=ada)
    assert bob_client.post(f"/my/tokens/{token.pk}/revoke/").status_code == 404
    assert ApiToken.objects.filter(pk=token.pk).exists()
    assert "ada-build-box" not in bob_client.get("/my/tokens/").content.decode()
    anonymous = Client().post(f"/my/tokens/{token.pk}/revoke/")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/login/")
    assert ada_client.get(f"/my/tokens/{token.pk}/revoke/").status_code == 405
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_the_login_token_is_listed_and_revoked_on_the_same_page():
    ada, client = user_client("ada")
    login = Token.objects.create(user=ada)
    page = client.get("/my/tokens/").content.decode()
    assert "login token" in page and login.key[:8] in page and login.key not in page
    client.post("/my/tokens/login/revoke/")
    assert not Token.objects.filter(user=ada).exists()
    assert client.post("/my/tokens/login/revoke/").status_code == 404


def test_pasted_code_makes_a_bot_and_then_a_new_version():
    ada, client = user_client("ada")
    code = SOURCE.decode()
    made = client.post("/upload/", {"name": "pasty", "game": "moonrollers", "code": code})
    bot = Bot.objects.get(name="pasty")
    assert made.status_code == 302 and made["Location"] == f"/bots/{bot.pk}/"
    first = bot.versions.get()
    assert bytes(first.source) == SOURCE and first.filename == "bot.py"
    assert first.validation == BotVersion.Validation.PENDING
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert "Version 1 is <strong>pending</strong>" in page
    assert f'href="/bots/{bot.pk}/upload/"' in page
    client.post(f"/bots/{bot.pk}/upload/", {"code": code + "\n# v2\n"})
    assert bot.versions.count() == 2 and bot.versions.get(number=2).validation == "pending"
    file = SimpleUploadedFile("mine.py", SOURCE)
    client.post(f"/bots/{bot.pk}/upload/", {"file": file})
    assert bot.versions.get(number=3).filename == "mine.py"


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"name": "x", "game": "moonrollers"}, "choose a file or paste the bot"),
        ({"name": "x", "game": "moonrollers", "code": "   \n"}, "choose a file or paste the bot"),
        ({"name": "x", "game": "moonrollers", "code": "def act(:\n"}, "not valid Python"),
        ({"name": "x", "game": "moonrollers", "code": "x = 1\n"}, "must define a function act"),
        ({"name": "x", "game": "moonrollers", "code": "a\x00b"}, "Null characters"),
        ({"name": "no spaces", "game": "moonrollers", "code": "def act(o, l): pass"}, "bot name"),
        ({"name": "x", "game": "chess", "code": "def act(o, l): pass"}, "not one of the"),
        ({"name": "x" * 65, "game": "moonrollers", "code": "def act(o, l): pass"}, "at most 64"),
    ],
)
def test_a_bad_upload_says_what_is_wrong(fields, says):
    _, client = user_client("ada")
    page = client.post("/upload/", fields)
    assert page.status_code == 200, page.status_code
    text = page.content.decode()
    assert 'role="alert"' in text and says in text, text[text.find("error") :][:400]
    if says in ("not valid Python", "must define a function act"):
        # Beside the pasted code, not beside the (empty) file field.
        assert text.index(says) > text.index('id="id_code"')
    assert not Bot.objects.exists()


def test_a_file_and_pasted_code_together_are_refused():
    _, client = user_client("ada")
    page = client.post(
        "/upload/",
        {
            "name": "both",
            "game": "moonrollers",
            "code": "def act(o, l): pass",
            "file": SimpleUploadedFile("bot.py", SOURCE),
        },
    )
    assert page.status_code == 200 and "not both" in page.content.decode()
    assert not Bot.objects.exists()


def test_only_the_owner_uploads_a_version_and_bad_token_names_are_refused():
    ada, _ = user_client("ada")
    _, bob_client = user_client("bob")
    bot = ready_bot(ada, "ada-bot")
    assert bob_client.get(f"/bots/{bot.pk}/upload/").status_code == 404
    assert (
        bob_client.post(f"/bots/{bot.pk}/upload/", {"code": "def act(o, l): pass"}).status_code
        == 404
    )
    assert bot.versions.count() == 1
    for name, says in (("", "This field is required"), ("n" * 65, "at most 64")):
        page = bob_client.post("/my/tokens/", {"name": name})
        assert page.status_code == 200 and says in page.content.decode()
    assert not ApiToken.objects.exists()
    assert bob_client.get("/bots/99999/versions/1/").status_code == 404
    assert bob_client.get(f"/bots/{bot.pk}/versions/9/").status_code == 404


def test_a_challenge_starts_from_the_bot_page_and_is_followed_on_its_own():
    ada, client = user_client("ada")
    bot = ready_bot(ada, "ada-bot")
    bot.add_version(SOURCE, "bot.py")  # v2, ready
    rival = ready_bot(User.objects.create_user("rex"), "rex-bot")
    page = client.get(f"/bots/{bot.pk}/").content.decode()
    assert f'href="/bots/{bot.pk}/challenge/"' in page
    form = client.get(f"/bots/{bot.pk}/challenge/").content.decode()
    assert "rex-bot v1" in form and "ada-bot v2" in form
    v1, v2 = bot.versions.get(number=1), bot.versions.get(number=2)
    started = client.post(
        f"/bots/{bot.pk}/challenge/",
        {"candidate": v2.pk, "baseline": v1.pk, "elo0": 0, "elo1": 5, "max_games": 20},
    )
    challenge = Challenge.objects.get()
    assert started["Location"] == f"/challenges/{challenge.pk}/"
    assert challenge.candidate == v2 and challenge.max_games == 20
    # Two batches in flight: 8 pairs, then the 2 pairs max_games leaves.
    assert Match.objects.filter(challenge=challenge).count() == 20
    shown = client.get(f"/challenges/{challenge.pk}/").content.decode()
    assert "8 pairs a batch, 2 batches at a time" in shown
    assert 'data-status="running"' in shown and "arena/challenge.js" in shown
    assert f'data-url="/api/challenges/{challenge.pk}/"' in shown
    assert "Cancel the challenge" in shown
    # Anyone sees it; a stranger may not cancel it; the owner may.
    anonymous = Client().get(f"/challenges/{challenge.pk}/")
    assert anonymous.status_code == 200 and "Cancel the challenge" not in anonymous.content.decode()
    assert Client().get("/challenges/999999/").status_code == 404
    _, bob_client = user_client("bob")
    assert (
        "Cancel the challenge"
        not in bob_client.get(f"/challenges/{challenge.pk}/").content.decode()
    )
    refused = bob_client.post(f"/challenges/{challenge.pk}/cancel/", follow=True)
    assert "only the challenge" in refused.content.decode()
    client.post(f"/challenges/{challenge.pk}/cancel/")
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.CANCELLED
    done = client.get(f"/challenges/{challenge.pk}/").content.decode()
    assert "stopped before a verdict" in done and "arena/challenge.js" not in done
    assert rival.pk  # offered, not used
    assert "My challenges" in client.get("/my/bots/").content.decode()


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"candidate": "two", "baseline": 1}, "Select a valid choice"),
        ({"candidate": "CAND", "baseline": "CAND"}, "cannot challenge itself"),
        ({"candidate": "CAND", "baseline": "BASE", "max_games": 7}, "max_games must be an even"),
        ({"candidate": "CAND", "baseline": "BASE", "elo0": 5, "elo1": 5}, "must be greater"),
        ({"candidate": "CAND", "baseline": "BASE", "elo1": "lots"}, "Enter a number"),
    ],
)
def test_a_bad_challenge_says_what_is_wrong(fields, says):
    ada, client = user_client("ada")
    bot = ready_bot(ada, "ada-bot")
    base = bot.add_version(SOURCE, "bot.py")
    ids = {"CAND": bot.versions.get(number=1).pk, "BASE": base.pk}
    data = {"elo0": 0, "elo1": 5, "max_games": 20}
    data.update({k: ids.get(v, v) if isinstance(v, str) else v for k, v in fields.items()})
    page = client.post(f"/bots/{bot.pk}/challenge/", data)
    assert page.status_code == 200
    assert says in page.content.decode()
    assert not Challenge.objects.exists()


def test_a_stranger_cannot_challenge_with_versions_that_are_not_theirs():
    ada, _ = user_client("ada")
    _, bob_client = user_client("bob")
    bot = ready_bot(ada, "ada-bot")
    base = bot.add_version(SOURCE, "bot.py")
    page = bob_client.post(
        f"/bots/{bot.pk}/challenge/",
        {"candidate": bot.versions.get(number=1).pk, "baseline": base.pk, "elo0": 0, "elo1": 5,
         "max_games": 20},
    )  # fmt: skip
    assert page.status_code == 200 and "only an owner" in page.content.decode()
    assert not Challenge.objects.exists()


def test_a_cooperative_challenge_from_the_bot_page_asks_for_the_team_size():
    ada, client = user_client("ada")
    crew = ready_bot(ada, "crew", game="moon_adventure")
    second = crew.add_version(SOURCE, "bot.py")
    assert f'href="/bots/{crew.pk}/challenge/"' in client.get(f"/bots/{crew.pk}/").content.decode()
    form = client.get(f"/bots/{crew.pk}/challenge/").content.decode()
    assert "Team size" in form and "a table of the candidate" in form
    too_many = client.post(
        f"/bots/{crew.pk}/challenge/",
        {"candidate": second.pk, "baseline": crew.versions.get(number=1).pk, "elo0": 0,
         "elo1": 20, "max_games": 20, "players": 9},
    )  # fmt: skip
    assert too_many.status_code == 200 and not Challenge.objects.exists()
    client.post(
        f"/bots/{crew.pk}/challenge/",
        {"candidate": second.pk, "baseline": crew.versions.get(number=1).pk, "elo0": 0,
         "elo1": 20, "max_games": 20, "players": 3},
    )  # fmt: skip
    challenge = Challenge.objects.get()
    assert challenge.players == 3 and challenge.game == "moon_adventure"
    first = Match.objects.filter(challenge=challenge).order_by("id")[0]
    assert list(first.seats.values_list("bot_version_id", flat=True)) == [second.pk] * 3
    shown = client.get(f"/challenges/{challenge.pk}/").content.decode()
    assert "teams of 3: each pair is a table of each version" in shown
    challenge.status = Challenge.Status.ACCEPTED
    challenge.save(update_fields=["status"])
    shown = client.get(f"/challenges/{challenge.pk}/").content.decode()
    assert "teams of crew v2 succeed more often than teams of crew v1" in shown


def test_my_bots_lists_versions_with_their_matches_and_the_paused_ladder():
    ada, client = user_client("ada")
    bot = ready_bot(ada, "ada-bot")
    other = ready_bot(User.objects.create_user("rex"), "rex-bot")
    match = finished_match([bot, other], ["", ""])
    LadderEntry.objects.create(
        bot=bot,
        version=bot.latest_version(),
        entered_at=timezone.now(),
        paused_at=timezone.now(),
        pause_reason="3 crashes in a row",
        pause_match_ids=[match.pk],
    )
    page = client.get("/my/bots/").content.decode()
    assert "<strong>paused</strong> — 3 crashes in a row" in page
    assert "Put ada-bot back on the ladder" in page
    assert 'aria-label="1 matches of version 1"' in page
    assert f'href="/bots/{bot.pk}/versions/1/"' in page
    resumed = client.post(f"/bots/{bot.pk}/ladder/resume/", {"back": "my-bots"}, follow=True)
    assert resumed.redirect_chain[-1][0] == "/my/bots/"
    assert "ada-bot is back on the ladder" in resumed.content.decode()
    assert not LadderEntry.objects.get(bot=bot).is_paused()
    # Someone else's bot cannot be resumed from here.
    _, bob_client = user_client("bob")
    assert bob_client.post(f"/bots/{other.pk}/ladder/resume/").status_code == 404
