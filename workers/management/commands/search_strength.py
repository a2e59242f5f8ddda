"""`python manage.py search_strength` (workers/bench/strength.py)."""

from workers.bench.strength import Command

__all__ = ["Command"]
