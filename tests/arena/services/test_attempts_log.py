"""A set's attempts in one statement (arena/services/attempts.py::log_attempts).

The set path writes them with one written-out INSERT on PostgreSQL; the rows must be
those `log_attempt` writes one by one, whatever the outcome and the detail's length.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from arena.models import MatchAttempt
from arena.services.attempts import MAX_DETAIL_CHARS, log_attempt, log_attempts
from tests.arena.services.test_results import make_bot, make_match

pytestmark = pytest.mark.django_db

ENDINGS = [
    (MatchAttempt.Outcome.RECORDED, ""),
    (MatchAttempt.Outcome.DISCARDED, "a result from a claim that had lapsed"),
    (MatchAttempt.Outcome.INFRASTRUCTURE, "x" * (MAX_DETAIL_CHARS + 50)),
]


def _claimed(owner: User, prefix: str):
    a, b = make_bot(owner, f"{prefix}a"), make_bot(owner, f"{prefix}b")
    started = timezone.now() - timedelta(seconds=3)
    matches = []
    for index, _ in enumerate(ENDINGS):
        match = make_match([a, b])
        match.claim_token = uuid.uuid4()
        match.claimed_at = started + timedelta(milliseconds=index)
        match.claimed_by = "" if index == 1 else f"host:{100 + index}"
        matches.append(match)
    return matches


def _rows(matches):
    found = []
    for match in matches:
        for attempt in MatchAttempt.objects.filter(match=match):
            found.append(
                (
                    attempt.claim_token == match.claim_token,
                    attempt.worker,
                    attempt.started_at == match.claimed_at,
                    attempt.ended_at is not None and attempt.ended_at >= match.claimed_at,
                    attempt.outcome,
                    attempt.detail,
                )
            )
    return found


def test_a_sets_attempts_are_the_rows_logging_each_one_writes():
    owner = User.objects.create_user("ann")
    together, alone = _claimed(owner, "set"), _claimed(owner, "one")
    log_attempts(
        [
            (match, outcome, detail)
            for match, (outcome, detail) in zip(together, ENDINGS, strict=True)
        ]
    )
    for match, (outcome, detail) in zip(alone, ENDINGS, strict=True):
        log_attempt(match, outcome, detail)
    assert _rows(together) == _rows(alone)
    assert [row[1] for row in _rows(together)] == ["host:100", "", "host:102"]
    assert len(_rows(together)[2][5]) == MAX_DETAIL_CHARS


def test_nothing_to_log_writes_nothing(django_assert_num_queries):
    with django_assert_num_queries(0):
        log_attempts([])
