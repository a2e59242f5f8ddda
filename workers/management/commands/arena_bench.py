"""`python manage.py arena_bench`: the pipeline's matches per second beside the referee's
(the benchmark is workers/bench/pipeline.py)."""

from workers.bench.pipeline import PipelineBench as Command

__all__ = ["Command"]
