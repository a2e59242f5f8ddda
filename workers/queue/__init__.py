"""Matches on their way through Celery and the database, below the tasks that use them.

`routing.py` names the queues and routes each task; `claims.py` claims a set's matches,
`lease.py` keeps a claim alive while it plays, `outages.py` rides out a database outage;
`broker.py` is the Redis transport that rides out a Redis refusing writes. The tasks
themselves and the reaper that re-queues lapsed leases are workers/tasks.py and
workers/reaper.py, beside the Celery app (workers/celery.py).
"""
