"""`python manage.py load_bench`: the API's anonymous read mix against gunicorn, at a set
rate (the benchmark is arena/bench/api_load.py)."""

from arena.bench.api_load import ApiLoadBench as Command

__all__ = ["Command"]
