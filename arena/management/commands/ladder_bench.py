"""`python manage.py ladder_bench`: how many matches until the leaderboard is right (the
benchmark is arena/bench/ladder.py)."""

from arena.bench.ladder import LadderBench as Command

__all__ = ["Command"]
