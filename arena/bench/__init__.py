"""The arena's benchmarks, each module a benchmark's logic behind a thin entry point.

- `ladder.py` (`manage.py ladder_bench`): matches until a simulated ladder's leaderboard
  is right;
- `ratings.py` (`manage.py ratings_bench`): a whole-history refit at scale;
- `seed.py` (`manage.py seed_benchmark`): a production-sized database, and `api_load.py`
  (`manage.py load_bench`): the API's read mix (`mix.py`) against gunicorn from an
  open-loop generator (`load.py`); the mix is shared with scripts/locustfile.py and
  `manage.py api_profile`;
- `pairing.py` (`python -m arena.bench.pairing`): the time to pair a Swiss round;
- `cpu.py`: CPU seconds of other processes, for the benchmarks that drive servers.

The workers' benchmarks (the sandbox, the pipeline) are in workers/bench/.
"""
