"""Set up and read a cluster's tournament, in a process of its own pointed at the cluster.

`python -m tests.workers.cluster.driver migrate`
`python -m tests.workers.cluster.driver tournament NAME --bots K --games G --sleep S`
    creates K bots (random play, S seconds per decision) and a round robin of G games
    per pairing that starts at once (its matches go to the tournament queue on commit);
    prints {"tournament": id, "matches": [ids]}.
The cluster tests run it with the cluster's DATABASE_URL and CELERY_BROKER_URL, so the
test process itself never touches the cluster's database through Django (it reads
the results with plain SQL).
"""

from __future__ import annotations

import argparse
import json
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402

from arena.models import Bot, Ladder  # noqa: E402
from arena.services.ladder import ladder_for  # noqa: E402
from arena.services.tournaments import create_tournament  # noqa: E402

GAME = "moonrollers"


def slow_random_bot(sleep: float) -> bytes:
    return (
        "import random, time\n"
        "_rng = random.Random()\n"
        "def setup(info):\n"
        "    _rng.seed(f\"{info.get('seed', 0)}:{info.get('seat', 0)}\")\n"
        "def act(observation, legal_actions):\n"
        f"    time.sleep({sleep!r})\n"
        "    return _rng.choice(legal_actions)\n"
    ).encode()


def tournament(name: str, bots: int, games: int, sleep: float) -> dict[str, object]:
    organiser, _ = User.objects.get_or_create(
        username="cluster-organiser", defaults={"is_staff": True}
    )
    if not organiser.is_staff:
        organiser.is_staff = True
        organiser.save(update_fields=["is_staff"])
    # These tests count each bot's rated games against the tournament's matches: the
    # beat's ladder scheduler would otherwise seat the new bots in ladder matches too.
    ladder = ladder_for(GAME)
    ladder.status = Ladder.Status.PAUSED
    ladder.save(update_fields=["status"])
    ids = []
    for number in range(bots):
        bot = Bot.objects.create(owner=organiser, game=GAME, name=f"{name}-bot{number}")
        bot.add_version(slow_random_bot(sleep), "bot.py")
        ids.append(bot.pk)
    created = create_tournament(
        organiser,
        name=name,
        game=GAME,
        bots=ids,
        players_per_match=2,
        games_per_pairing=games,
    )
    matches = list(created.matches.order_by("id").values_list("id", flat=True))
    return {"tournament": created.pk, "matches": matches}


def main() -> None:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("migrate")
    make = commands.add_parser("tournament")
    make.add_argument("name")
    make.add_argument("--bots", type=int, default=3)
    make.add_argument("--games", type=int, default=2)
    make.add_argument("--sleep", type=float, default=0.0)
    args = parser.parse_args()
    if args.command == "migrate":
        call_command("migrate", "--noinput", verbosity=0)
        print(json.dumps({"migrated": True}))
    else:
        print(json.dumps(tournament(args.name, args.bots, args.games, args.sleep)))


if __name__ == "__main__":
    main()
