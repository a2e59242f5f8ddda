"""The worker node: its process pool, its host, and what it reports.

`pool.py` is Celery's prefork pool, joining ended processes at once; `affinity.py` pins
a pool process to one CPU; `host.py` logs what the host can run when the worker starts;
`heartbeat.py` reaps orphaned sandbox processes and publishes the node's heartbeat for
/api/health/ and /metrics. workers/celery.py wires these to the worker's signals.
"""
