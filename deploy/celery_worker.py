"""Worker-node settings for `celery -A workers worker --config deploy.celery_worker`.

One match per task and long tasks: acknowledge late, take one task at a time.
"""

import os

# Pool processes, each playing one set of matches at a time (default: the host's CPUs).
worker_concurrency = int(os.environ.get("WORKER_CONCURRENCY", os.cpu_count() or 1))
worker_prefetch_multiplier = 1
task_acks_late = True
task_reject_on_worker_lost = True
