"""Named API tokens through the API: made (key shown once), listed, used, revoked."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from arena.models import ApiToken
from arena.services.tokens import MAX_TOKENS

pytestmark = pytest.mark.django_db


def test_a_named_token_is_made_listed_used_and_revoked(author, author_user):
    made = author.post("/api/tokens/", {"name": "ci"}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    key = body["key"]
    assert re.fullmatch(r"arena_[0-9a-f]{40}", key) and body["prefix"] == key[:14]
    assert body["name"] == "ci"
    listed = author.get("/api/tokens/").json()["results"]
    assert [t["id"] for t in listed] == [body["id"]] and "key" not in listed[0]
    with_key = APIClient()
    with_key.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert with_key.get("/api/users/me/").json()["username"] == author_user.username
    assert author.delete(f"/api/tokens/{body['id']}/").status_code == 204
    assert with_key.get("/api/users/me/").status_code == 401
    assert author.delete(f"/api/tokens/{body['id']}/").status_code == 404


def test_someone_elses_token_is_neither_listed_nor_revoked(author, other_user):
    theirs, _ = ApiToken.issue(other_user, "theirs")
    assert author.get("/api/tokens/").json()["results"] == []
    assert author.delete(f"/api/tokens/{theirs.pk}/").status_code == 404
    assert ApiToken.objects.filter(pk=theirs.pk).exists()


def test_tokens_need_a_login_and_a_name_and_are_bounded(author, author_user, anonymous):
    assert anonymous.get("/api/tokens/").status_code == 401
    assert anonymous.post("/api/tokens/", {"name": "x"}, format="json").status_code == 401
    for bad in ({}, {"name": ""}, {"name": "n" * 65}, {"name": ["a"]}):
        reply = author.post("/api/tokens/", bad, format="json")
        assert reply.status_code == 400 and "name" in reply.json(), reply.content
    for i in range(MAX_TOKENS):
        ApiToken.issue(author_user, f"t{i}")
    over = author.post("/api/tokens/", {"name": "one more"}, format="json")
    assert over.status_code == 403 and "revoke one first" in over.json()["detail"]


def test_a_named_key_costs_one_query_like_a_login_token_and_a_wrong_one_is_refused(author_user):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _, key = ApiToken.issue(author_user, "laptop")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/users/me/").status_code == 200
    assert len(queries) == 2  # the token with its user, the organiser group check
    client.credentials(HTTP_AUTHORIZATION=f"Token arena_{'0' * 40}")
    assert client.get("/api/users/me/").status_code == 401
