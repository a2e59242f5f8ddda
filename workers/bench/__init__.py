"""The workers' benchmarks: what the sandbox costs, how fast a pool process is ready,
and the referee's and the pipeline's matches per second.

Each module holds a benchmark's logic; its entry point is thin: `python -m
workers.bench.sandbox` (also `arena bench-sandbox`), `python -m workers.bench.pool_start`,
and `manage.py arena_bench` (a one-line command over `pipeline.py`, whose referee side is
`referee_pool.py`). The arena's own benchmarks are in arena/bench/; workers import them,
never the other way.
"""
