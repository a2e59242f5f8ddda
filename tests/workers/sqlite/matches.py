"""Run by the test beside it, in processes of their own, on a SQLite file.

`python matches.py create N` makes N two-seat Moonrollers matches between two reference bots
and prints their ids; `python matches.py play FIRST LAST PART` plays every other match of that
range (PART 0 or 1) through the worker's own task body, as a Celery pool process would.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(PROJECT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")

import django  # noqa: E402

django.setup()

from workers import tasks  # noqa: E402
from workers.bench.pipeline import (  # noqa: E402
    PipelineBench,
    default_bots,
    seating,
)


def main(argv: list[str]) -> int:
    if argv[0] == "create":
        command, names = PipelineBench(), default_bots("moonrollers")
        jobs = [
            ("moonrollers", seed, seating(seed, names, 2)) for seed in range(1, int(argv[1]) + 1)
        ]
        ids = command.create_matches(jobs, command.bench_bots("moonrollers", set(names)))
        print(ids[0], ids[-1])
        return 0
    first, last, part = map(int, argv[1:4])
    outcomes = [tasks.execute_match(match_id) for match_id in range(first + part, last + 1, 2)]
    print(" ".join(outcomes))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
