"""The arena's own Celery app with the test game `duel` registered in the worker.

`duel` (tests/arena/fakegames.py) takes one decision per seat, so a tournament format's
end-to-end test spends its time on rounds, not on games.
"""

from engine.core import registry
from tests.arena.fakegames import DUEL
from workers.celery import app

registry._discover()
if "duel" not in registry._GAMES:
    registry.register(DUEL)

__all__ = ["app"]
