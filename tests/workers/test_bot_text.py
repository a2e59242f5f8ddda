"""Text from bots reaches PostgreSQL clean, through the worker's own task code and sandbox.

Each bot here writes something PostgreSQL cannot store (a NUL, a lone surrogate) where it
ends in a result: its stderr, its own "error" reply, an exception raised in `act`, a forged
match key quoted back in its forfeit reason. The match is played in the real bubblewrap
sandbox by `execute_match`/`execute_set` and recorded on the real database: the result is
stored with the text cleaned (arena/stored_text.py), never retried as if the database were
down, and the bot that wrote it is the one that forfeits. And a value the database refuses
for another reason (a data error) fails the match with why, at once: it is not an outage.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection

from arena.models import Bot, Match, MatchAttempt, MatchSeat, Rating
from workers import tasks

pytestmark = pytest.mark.django_db

REFERENCE = Path(__file__).resolve().parents[2] / "bots" / "reference"
RANDOM_BOT = (REFERENCE / "random_bot.py").read_bytes()
REPLACED = "\ufffd"

# Each bot plays legally except for its one stray text. The sources are raw strings: the
# escapes are the bot's own, so its NUL or surrogate is made inside the sandbox.
NUL_IN_STDERR = rb"""
import sys
sys.stderr.write("before\x00after\n")
sys.stderr.flush()

def act(observation, legal_actions):
    return legal_actions[0]
"""
NUL_IN_ERROR_REPLY = rb"""
import json, os

class Bot:
    def setup(self, info):
        self.match = info["match"]

    def act(self, observation, legal_actions):
        line = json.dumps({"match": self.match, "error": "gave up\x00here"}) + "\n"
        os.write(1, line.encode())
        return legal_actions[0]
"""
NUL_IN_EXCEPTION = rb"""
def act(observation, legal_actions):
    raise RuntimeError("bad\x00byte")
"""
LONE_SURROGATE_KEY = rb"""
import os

def act(observation, legal_actions):
    os.write(1, b'{"match": "\\ud800", "action": 0}\n')
    return legal_actions[0]
"""


@pytest.fixture(autouse=True)
def sandboxed(settings):
    # As production runs bots: bubblewrap, on the uids of ARENA_SANDBOX_UID_BASE.
    settings.ARENA_BOT_ISOLATION = "sandbox"
    # Were the text taken for an outage, the result would wait this long (not 600 s) and
    # then be given back: a test fails in seconds instead of ten minutes.
    settings.ARENA_RETRY_TOTAL_SECONDS = 3.0
    settings.ARENA_RETRY_CAP_SECONDS = 1.0


@pytest.fixture
def owner(db) -> User:
    return User.objects.create_user("tess")


def make_bot(owner: User, name: str, source: bytes) -> Bot:
    bot = Bot.objects.create(owner=owner, name=name, game="moonrollers")
    bot.add_version(source, "bot.py")
    return bot


def make_match(bots: list[Bot], seed: int = 11) -> Match:
    match = Match.objects.create(
        game="moonrollers", rules_version="moonrollers@1", players=len(bots), seed=seed
    )
    for seat, bot in enumerate(bots):
        MatchSeat.objects.create(match=match, seat=seat, bot=bot, bot_version=bot.latest_version())
    return match


def assert_stored_clean(match: Match) -> None:
    """Nothing PostgreSQL refuses anywhere in the match's text; read back from the rows."""
    match.refresh_from_db()
    texts = [match.error, str(match.record), str(match.result)]
    for seat in match.seats.all():
        texts += [seat.forfeit_reason, seat.stderr]
    for text in texts:
        assert "\x00" not in text
        text.encode("utf-8")  # no lone surrogate


def test_a_nul_in_a_bots_stderr_is_stored_replaced_in_a_set(owner):
    """The set's path: its results in one statement (set_results.py) and its attempts."""
    noisy, rand = make_bot(owner, "noisy", NUL_IN_STDERR), make_bot(owner, "random", RANDOM_BOT)
    matches = [make_match([noisy, rand], seed=11), make_match([rand, noisy], seed=12)]
    assert tasks.execute_set([m.pk for m in matches]) == ["recorded", "recorded"]
    for match in matches:
        assert_stored_clean(match)
        assert match.status == Match.Status.FINISHED and match.rated
        seat = match.seats.get(bot=noisy)
        assert f"before{REPLACED}after" in seat.stderr and seat.forfeit_reason == ""
        assert [a.outcome for a in MatchAttempt.objects.filter(match=match)] == ["recorded"]
    assert Rating.objects.get(bot=noisy).games == 2


def test_a_nul_in_a_bots_error_reply_is_stored_replaced_and_it_forfeits(owner):
    liar, rand = make_bot(owner, "liar", NUL_IN_ERROR_REPLY), make_bot(owner, "random", RANDOM_BOT)
    match = make_match([liar, rand])
    assert tasks.execute_match(match.pk) == "recorded"
    assert_stored_clean(match)
    seat = match.seats.get(seat=0)
    assert seat.forfeit_reason == f"gave up{REPLACED}here" and seat.rank == 2
    assert match.result["forfeits"] == {"0": f"gave up{REPLACED}here"}
    assert match.record["forfeits"] == {"0": f"gave up{REPLACED}here"}
    assert match.seats.get(seat=1).forfeit_reason == ""


def test_a_nul_in_an_exception_raised_in_act_is_stored_replaced_and_it_forfeits(owner):
    crasher = make_bot(owner, "crasher", NUL_IN_EXCEPTION)
    rand = make_bot(owner, "random", RANDOM_BOT)
    match = make_match([rand, crasher])
    assert tasks.execute_match(match.pk) == "recorded"
    assert_stored_clean(match)
    seat = match.seats.get(seat=1)
    assert f"RuntimeError: bad{REPLACED}byte" in seat.forfeit_reason and seat.rank == 2
    assert f"bad{REPLACED}byte" in seat.stderr  # the traceback, for its author
    assert Rating.objects.get(bot=crasher).rating < 1500


def test_a_lone_surrogate_as_the_match_key_ends_as_the_forgers_forfeit(owner):
    """The forged key is quoted in the reason: stored, the forger's loss rated."""
    forger = make_bot(owner, "forger", LONE_SURROGATE_KEY)
    rand = make_bot(owner, "random", RANDOM_BOT)
    match = make_match([forger, rand])
    assert tasks.execute_match(match.pk) == "recorded"
    assert_stored_clean(match)
    assert match.status == Match.Status.FINISHED and match.rated
    forged = match.seats.get(seat=0)
    assert forged.forfeit_reason and forged.rank == 2
    assert match.seats.get(seat=1).forfeit_reason == "" and match.seats.get(seat=1).rank == 1
    assert Rating.objects.get(bot=forger).rating < 1500 < Rating.objects.get(bot=rand).rating


REFUSED = "refused-by-the-database"


@pytest.fixture
def refusing_database(request):
    """The database refuses a seat whose stderr holds REFUSED, with the given SQLSTATE
    (a trigger: the real server's error, as a constraint or a bad value raises it)."""
    code = request.param
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            CREATE FUNCTION arena_test_refuse() RETURNS trigger AS $$
            BEGIN
                IF NEW.stderr LIKE '%{REFUSED}%' THEN
                    RAISE EXCEPTION 'stderr refused' USING ERRCODE = '{code}';
                END IF;
                RETURN NEW;
            END $$ LANGUAGE plpgsql;
            CREATE TRIGGER arena_test_refuse BEFORE UPDATE ON arena_matchseat
                FOR EACH ROW EXECUTE FUNCTION arena_test_refuse();
            """
        )
    yield code
    with connection.cursor() as cursor:
        cursor.execute(
            "DROP TRIGGER arena_test_refuse ON arena_matchseat; DROP FUNCTION arena_test_refuse();"
        )


# Committed as a worker commits: the task's own connection handling (close_old_connections
# before each task) needs a connection outside a test's transaction.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "refusing_database",
    ["22000", "23514"],  # data_exception (DataError), check_violation (IntegrityError)
    ids=["DataError", "IntegrityError"],
    indirect=True,
)
def test_a_value_the_database_refuses_fails_the_match_at_once_and_is_no_outage(
    owner, refusing_database
):
    """Not waited for as an outage (the retry budget, 3 s here, 600 s in production), not
    given back to be played again, not retried by the task: the match fails with why, in
    its first attempt."""
    source = f"import sys\nsys.stderr.write('{REFUSED}\\n')\n".encode() + RANDOM_BOT
    refused, rand = make_bot(owner, "refused", source), make_bot(owner, "random", RANDOM_BOT)
    match = make_match([refused, rand])
    result = tasks.run_match.apply((match.pk,))
    assert result.get() == "failed" and result.state == "SUCCESS"
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED and not match.rated
    assert match.error.startswith("the result could not be recorded: ")
    assert "stderr refused" in match.error
    assert match.attempts == 1 and match.requeues == 0
    assert [a.outcome for a in MatchAttempt.objects.filter(match=match)] == ["failed"]
    assert not Rating.objects.filter(games__gt=0).exists()
