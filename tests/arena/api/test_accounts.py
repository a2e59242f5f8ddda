"""POST /api/users/, POST /api/token/, GET /api/users/me/."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_anyone_can_register_and_get_a_token(anonymous):
    reply = anonymous.post("/api/users/", {"username": "carol", "password": "moon-pass-77"})
    assert reply.status_code == 201, reply.content
    assert reply.json()["username"] == "carol" and "password" not in reply.json()
    token = anonymous.post("/api/token/", {"username": "carol", "password": "moon-pass-77"})
    assert token.status_code == 200 and len(token.json()["token"]) == 40
    anonymous.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    me = anonymous.get("/api/users/me/")
    assert me.json() == {
        "id": User.objects.get(username="carol").pk,
        "username": "carol",
        "is_organiser": False,
    }


def test_registering_a_taken_username_is_refused(author_user, anonymous):
    reply = anonymous.post("/api/users/", {"username": "ada", "password": "moon-pass-77"})
    assert reply.status_code == 400 and "username" in reply.json()


def test_a_weak_password_is_refused_with_the_reason(anonymous):
    reply = anonymous.post("/api/users/", {"username": "dan", "password": "123"})
    assert reply.status_code == 400 and reply.json()["password"]


def test_registering_without_fields_is_a_400(anonymous):
    assert anonymous.post("/api/users/", {}).status_code == 400


def test_every_error_says_what_and_which_kind_beside_the_field_entries(anonymous):
    """arena/api/errors.py: DRF's own errors get `detail` and `code` like the domain's."""
    reply = anonymous.post("/api/users/", {"username": "dan"})
    assert reply.status_code == 400
    assert reply.json() == {
        "password": ["This field is required."],
        "detail": "password: This field is required.",
        "code": "invalid",
    }
    missing = anonymous.get("/api/users/me/").json()
    assert missing["code"] == "not_authenticated" and missing["detail"]
    absent = anonymous.get("/api/bots/999999/").json()
    assert absent == {"detail": "No Bot matches the given query.", "code": "not_found"}
    wrong = anonymous.post("/api/token/", {"username": "dan", "password": "nope"}).json()
    assert wrong["code"] == "invalid" and "Unable to log in" in wrong["detail"]


def test_a_wrong_password_gets_no_token(author_user, anonymous):
    reply = anonymous.post("/api/token/", {"username": "ada", "password": "nope"})
    assert reply.status_code == 400 and "token" not in reply.json()


def test_me_needs_authentication(anonymous):
    assert anonymous.get("/api/users/me/").status_code == 401


def test_a_bad_token_is_a_401(anonymous):
    anonymous.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert anonymous.get("/api/users/me/").status_code == 401


def test_organisers_are_staff_or_group_members(organiser, author_user):
    assert organiser.get("/api/users/me/").json()["is_organiser"] is True
    author_user.is_staff = True
    author_user.save()
    from tests.arena.conftest import _client_for

    assert _client_for(author_user).get("/api/users/me/").json()["is_organiser"] is True
