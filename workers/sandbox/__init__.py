"""Where bots run: launchers and the bubblewrap sandbox, its walls and its limits.

`isolation.get_launcher` picks a launcher for ARENA_BOT_ISOLATION: the trusted process
(`launchers.py`, local play only) or the bubblewrap sandbox (`bubblewrap.py`), which
mounts what a bot may see (`mounts.py`), runs it as a leased uid (`process.py`) in a
cgroup (`cgroups.py`) behind a seccomp filter (`seccomp_filter.py`), and forks bots
from zygote lanes where it can (`zygote_lanes.py`, `zygote.py`). `limits.py` is one
bot's resource limits; `scratch.py` the per-match folders; `code_cache.py` bots'
compiled code. Nothing here knows the referee, the queue or the database.
"""
