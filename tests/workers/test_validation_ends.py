"""An uploaded version leaves `pending` within a bounded number of smoke matches.

Through the validation task's own code (`validate_version`, retries and all, applied in
this process) and, where a smoke match is played, the real one in the bubblewrap sandbox
on the real database: `ready`, or `rejected` with a reason its owner can read, never
pending for ever.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection

from arena.models import Bot, BotVersion
from arena.services.validation import GAVE_UP_PREFIX, REJECTED_PREFIX
from workers import tasks
from workers.sandbox.bubblewrap import SandboxUnavailable

# The task's connection handling (close_old_connections before each task) needs rows
# committed as a worker's are, not a test's open transaction.
pytestmark = pytest.mark.django_db(transaction=True)

NUL_IN_STDERR_ILLEGAL = rb"""
import sys
sys.stderr.write("before\x00after\n")
sys.stderr.flush()

def act(observation, legal_actions):
    return "not a legal action"
"""
GOOD_BOT = b"def act(observation, legal_actions):\n    return legal_actions[0]\n"
SMOKE_CALLS: list[str] = []


def sandbox_down(game: str, source: bytes, filename: str) -> str | None:
    """Stands in for a host whose sandbox cannot start: the smoke test raises, every time."""
    SMOKE_CALLS.append(filename)
    raise SandboxUnavailable("bubblewrap cannot create a user namespace")


@pytest.fixture(autouse=True)
def real_smoke_test(settings):
    settings.ARENA_SMOKE_TEST = "workers.play.smoke.smoke_test"
    settings.ARENA_VALIDATION_ATTEMPTS = 6
    SMOKE_CALLS.clear()


def pending_version(source: bytes) -> BotVersion:
    owner = User.objects.create_user("vera")
    bot = Bot.objects.create(owner=owner, name="vera-bot", game="moonrollers")
    return bot.add_version(source, "bot.py", validation=BotVersion.Validation.PENDING)


def validate(version: BotVersion) -> str:
    """The validation task as a worker runs it, its retries included (applied at once)."""
    result = tasks.validate_version.apply((version.pk,))
    assert result.state == "SUCCESS", result.traceback
    return result.get()


def test_a_nul_in_the_stderr_of_a_failed_smoke_match_is_stored_and_the_version_rejected():
    version = pending_version(NUL_IN_STDERR_ILLEGAL)
    assert validate(version) == "rejected"
    version.refresh_from_db()
    assert version.validation == BotVersion.Validation.REJECTED
    assert version.validation_error.startswith(f"{REJECTED_PREFIX}seat 0: illegal action")
    assert "before\ufffdafter" in version.validation_error
    assert version.validation_attempts == 1


def test_a_smoke_match_that_cannot_run_rejects_the_version_at_its_last_attempt(settings):
    settings.ARENA_SMOKE_TEST = "tests.workers.test_validation_ends.sandbox_down"
    version = pending_version(GOOD_BOT)
    assert validate(version) == "rejected"
    version.refresh_from_db()
    assert len(SMOKE_CALLS) == 6 and version.validation_attempts == 6
    assert version.validation == BotVersion.Validation.REJECTED
    assert version.validation_error.startswith(GAVE_UP_PREFIX)
    assert "SandboxUnavailable: bubblewrap cannot create a user namespace" in (
        version.validation_error
    )
    # A re-send (the maintenance sweep) finds it settled.
    assert validate(version) == "already" and len(SMOKE_CALLS) == 6


def test_a_delivery_after_the_last_attempt_rejects_without_playing(settings):
    """The attempts whose worker was lost mid-match (nothing settled them) count too."""
    settings.ARENA_SMOKE_TEST = "tests.workers.test_validation_ends.sandbox_down"
    version = pending_version(GOOD_BOT)
    BotVersion.objects.filter(pk=version.pk).update(validation_attempts=6)
    assert validate(version) == "rejected"
    version.refresh_from_db()
    assert SMOKE_CALLS == [] and version.validation_attempts == 7
    assert version.validation_error == f"{GAVE_UP_PREFIX}6 smoke matches did not finish"


@pytest.fixture
def refusing_rejections():
    """The database refuses a rejection reason that holds "refused-by-the-database" with a
    data error (a trigger: the real server's error, as a bad value raises it)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            CREATE FUNCTION arena_test_refuse() RETURNS trigger AS $$
            BEGIN
                IF NEW.validation_error LIKE '%refused-by-the-database%' THEN
                    RAISE EXCEPTION 'reason refused' USING ERRCODE = '22000';
                END IF;
                RETURN NEW;
            END $$ LANGUAGE plpgsql;
            CREATE TRIGGER arena_test_refuse BEFORE UPDATE ON arena_botversion
                FOR EACH ROW EXECUTE FUNCTION arena_test_refuse();
            """
        )
    yield
    with connection.cursor() as cursor:
        cursor.execute(
            "DROP TRIGGER arena_test_refuse ON arena_botversion; DROP FUNCTION arena_test_refuse();"
        )


def test_a_rejection_reason_the_database_refuses_rejects_at_once_with_a_reason_that_fits(
    refusing_rejections,
):
    """A data error is not retried (it would be refused again): one smoke match."""
    version = pending_version(
        b"import sys\nsys.stderr.write('refused-by-the-database\\n')\n"
        b"def act(observation, legal_actions):\n    return 'not a legal action'\n"
    )
    assert validate(version) == "rejected"
    version.refresh_from_db()
    assert version.validation_attempts == 1
    assert version.validation_error == (
        f"{GAVE_UP_PREFIX}the reason it was rejected could not be stored (DataError)"
    )
