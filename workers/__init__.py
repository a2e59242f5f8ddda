"""Workers: the Celery app and its tasks, over rooms that each hold one concern.

- `celery.py`, `tasks.py`, `reaper.py`: the app (`celery -A workers worker`), its tasks
  (named `workers.tasks.*`) and the reaper that runs in beat.
- `play/`: the referee and the bots as it sees them.
- `sandbox/`: launchers and the bubblewrap sandbox every untrusted bot runs in.
- `queue/`: routing, claims, leases and outages on a match's way through the queue.
- `node/`: the worker node's process pool, host check, CPU pinning and heartbeat.
- `bench/`: the workers' benchmarks, behind thin entry points.
- `cli.py`: the `arena` command (local play, replays, benchmarks).

Imports run tasks -> play -> sandbox; queue and node sit beside play. Importing this
package itself needs neither Celery nor Django, so local play works without them.
"""
