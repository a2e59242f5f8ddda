"""`python manage.py seed_benchmark`: a production-sized arena for the load benchmark, in
bulk SQL (arena/bench/seed.py builds it)."""

from arena.bench.seed import SeedBenchmark as Command

__all__ = ["Command"]
