"""Every write of a bot's text into the database, read back, on whatever database is set up.

tests/arena/test_stored_text.py imports `store_bot_text` for PostgreSQL (pytest-django's
database) and runs this file as a script on a fresh SQLite file (`make run`'s database):
`python stored_text_writes.py` migrates the database DATABASE_URL names, writes, and prints
what it read back as JSON.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

# A NUL, a lone high and a lone low surrogate, and a pair (which is one character).
DIRTY = "nul\x00 high\ud800 low\udfff pair\ud83d\ude00"
CLEAN = "nul\ufffd high\ufffd low\ufffd pair\U0001f600"
GAME = "moonrollers"
SOURCE = b"def act(observation, legal_actions):\n    return legal_actions[0]\n"


def store_bot_text() -> dict[str, Any]:
    """Write DIRTY through every path a bot's text takes; what the rows hold afterwards."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from arena.models import BotVersion, Match, MatchAttempt, MatchSeat
    from arena.services import attempts
    from arena.services.bots import Upload, create_bot
    from arena.services.results import record_failure, record_result, record_results
    from workers.play.referee import MatchOutcome

    owner = User.objects.create_user("sal")
    bots = [
        create_bot(owner, f"sal-{n}", GAME, Upload(f"{DIRTY}.py", SOURCE), smoke=False)
        for n in range(2)
    ]

    def match(**fields: Any) -> Match:
        made = Match.objects.create(
            game=GAME, rules_version=f"{GAME}@1", players=2, seed=3, **fields
        )
        for seat, bot in enumerate(bots):
            MatchSeat.objects.create(
                match=made, seat=seat, bot=bot, bot_version=bot.latest_version()
            )
        return made

    def outcome() -> MatchOutcome:
        forfeits = {0: f"answered for match {DIRTY}"}
        return MatchOutcome(
            record={"actions": [], "forfeits": {"0": forfeits[0]}},
            ranks=[2, 1],
            scores=[0, 1],
            forfeits=forfeits,
            stderr=[f"stderr {DIRTY}", DIRTY],
            decisions=1,
            seconds=0.1,
            result={"ranks": [1, 2], "scores": [0, 1]},
        )

    alone, *in_set = match(), match(), match()
    record_result(alone.pk, None, outcome())
    record_results([(m.pk, None, outcome()) for m in in_set])
    failed = match()
    record_failure(failed.pk, None, f"the referee stopped: {DIRTY}")
    running = dict(status=Match.Status.RUNNING, claim_token=uuid.uuid4())
    given_up, replayed = match(**running), match(**running)
    given_up.try_fail(f"gave up: {DIRTY}", claim_token=given_up.claim_token)
    attempts.release_for_replay(
        replayed, replayed.claim_token, MatchAttempt.Outcome.INFRASTRUCTURE, DIRTY
    )
    lapsed = match(**running, deadline_at=timezone.now() - timedelta(seconds=1))
    lapsed.try_requeue(reason=f"lapsed: {DIRTY}")
    attempts.log_attempt(alone, MatchAttempt.Outcome.FAILED, DIRTY)
    attempts.log_attempts([(failed, MatchAttempt.Outcome.FAILED, DIRTY)])
    version = bots[0].add_version(SOURCE, "bot.py", validation=BotVersion.Validation.PENDING)
    version.try_settle(f"the bot failed its smoke match: {DIRTY}")

    played = Match.objects.filter(pk__in=[alone.pk, *(m.pk for m in in_set)]).order_by("pk")
    return {
        "statuses": [m.status for m in played],
        "forfeit_reasons": list(
            MatchSeat.objects.filter(match__in=played, seat=0).values_list(
                "forfeit_reason", flat=True
            )
        ),
        "stderr": list(MatchSeat.objects.filter(match__in=played).values_list("stderr", flat=True)),
        "record_forfeits": [m.record["forfeits"]["0"] for m in played],
        "result_forfeits": [m.result["forfeits"]["0"] for m in played],
        "errors": list(
            Match.objects.filter(pk__in=[failed.pk, given_up.pk])
            .order_by("pk")
            .values_list("error", flat=True)
        ),
        "last_infra_errors": list(
            Match.objects.filter(pk__in=[replayed.pk, lapsed.pk])
            .order_by("pk")
            .values_list("last_infra_error", flat=True)
        ),
        "attempt_details": list(
            MatchAttempt.objects.order_by("pk").values_list("detail", flat=True)
        ),
        "filenames": list(
            BotVersion.objects.filter(number=1).order_by("pk").values_list("filename", flat=True)
        ),
        "validation_error": BotVersion.objects.get(pk=version.pk).validation_error,
    }


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    print(json.dumps(store_bot_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
