"""Malformed ids and filters in URLs are client errors, never server errors.

Found by fuzzing the OpenAPI schema with schemathesis: `/api/matches/null,null/replay/`
used to raise a ValueError (500).
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/api/matches/null,null/replay/",
        "/api/matches/1.5/",
        "/api/bots/abc/",
        "/api/bots/-1/versions/",
        "/api/tournaments/%00/",
        "/api/tournaments/9999999999999999999999/",
    ],
)
def test_a_malformed_or_unknown_id_is_a_404(path):
    assert APIClient().get(path).status_code == 404


@pytest.mark.parametrize("query", ["tournament=abc", "bot=1.5", "status=exploded", "game=chess"])
def test_a_malformed_filter_is_a_client_error_or_an_empty_list(query):
    response = APIClient().get(f"/api/matches/?{query}")
    assert response.status_code in (200, 400)
    if response.status_code == 200:
        assert response.json()["results"] == []
