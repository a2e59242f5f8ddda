"""The arena's own Celery app with the test game `relay` registered in the worker.

`celery -A tests.workers.pipeline.worker_app worker` is `celery -A workers worker`
plus one extra game, for the cooperative pipeline test.
"""

from engine.core import registry
from tests.workers.pipeline.coopgame import RELAY
from workers.celery import app

registry._discover()
if "relay" not in registry._GAMES:
    registry.register(RELAY)

__all__ = ["app"]
