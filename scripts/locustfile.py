"""The API's anonymous read mix under load: `locust -f scripts/locustfile.py` (docs/benchmarks.md).

Each simulated viewer sends one request a second (constant throughput), so `-u 200` is 200
requests/s whatever the latency, each drawn with equal weight from arena/bench/mix.py: a
leaderboard's first page, a deep page, the bot list of a game, a bot, the biggest tournament's
detail, its match list, matches by bot, a match, and a replay. Run it against gunicorn on a
database built by `manage.py seed_benchmark`.
"""

from __future__ import annotations

import random

from locust import FastHttpUser, constant_throughput, task

from arena.bench.mix import mix


class Viewer(FastHttpUser):
    wait_time = constant_throughput(1)

    @task
    def read(self) -> None:
        name, path = random.choice(mix(random.Random()))
        with self.client.get(path, name=name, catch_response=True) as response:
            if response.status_code != 200:
                response.failure(f"{response.status_code} for {path}")
