"""`python manage.py ratings_bench`: a whole-history refit at scale, cold and warm (the
benchmark is arena/bench/ratings.py)."""

from arena.bench.ratings import RatingsBench as Command

__all__ = ["Command"]
