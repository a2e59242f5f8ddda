"""The worker's process pool: Celery's prefork pool, joining an ended process at once.

Celery learns that a pool process ended when the process's sentinel pipe closes, then
waits for it once and stops watching the pipe. The pipe closes a moment before the
process becomes a zombie, so that wait can come too early and find it still exiting:
the process then stays a zombie until the pool's 5 s maintenance timer, and every
process recycled after `worker_max_tasks_per_child` matches had a good chance of it
(the soak's leak check counted them). A second look shortly after closes the gap.
"""

from __future__ import annotations

from typing import Any

from celery.concurrency.asynpool import AsynPool
from celery.concurrency.prefork import TaskPool

# Long enough for an exiting process to finish its exit, short against the soak's 1 s.
JOIN_AGAIN_SECONDS = 0.1


class PromptJoinPool(AsynPool):  # type: ignore[misc]
    def _event_process_exit(self, hub: Any, proc: Any) -> None:
        super()._event_process_exit(hub, proc)
        hub.call_later(JOIN_AGAIN_SECONDS, self.maintain_pool)


class ArenaTaskPool(TaskPool):  # type: ignore[misc]
    """What `worker_pool` names (workers/celery.py): the prefork pool with the fix above."""

    Pool = PromptJoinPool
