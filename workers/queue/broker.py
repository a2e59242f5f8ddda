"""The Redis transport of the arena's Celery connections: a worker rides out a Redis that
refuses writes.

Redis at its `maxmemory` with `noeviction` refuses every write (OOM), and inside MULTI even
a delete. Kombu records each message a worker takes, and removes it when the task is
acknowledged, with such writes; refused, the error ended the worker ("Unrecoverable
error"), abandoning the matches its other pool processes were playing. Here a refused
record only loses the copy Redis keeps for a redelivery, which the arena does not need:

* a message taken but not recorded as held runs as usual; if its worker dies with it, the
  match's lease lapses and the reaper queues it again (workers/reaper.py);
* an acknowledgement Redis refuses still frees the worker's slot (otherwise, with a
  prefetch of 1, it took no other message for ever); the message comes back after the
  visibility timeout, and its task finds its matches done.

Sending a message still fails at once; the enqueueing code logs it and the reaper sends the
match once Redis takes writes again.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis as kombu_redis
from kombu.transport import virtual
from redis.exceptions import OutOfMemoryError

log = logging.getLogger(__name__)


class QoS(kombu_redis.QoS):
    def append(self, message: Any, delivery_tag: str) -> None:
        try:
            super().append(message, delivery_tag)
        except OutOfMemoryError:
            log.warning("Redis is full: message %s taken without its copy", delivery_tag)
            virtual.QoS.append(self, message, delivery_tag)

    def ack(self, delivery_tag: str) -> None:
        try:
            super().ack(delivery_tag)
        except OutOfMemoryError:
            log.warning("Redis is full: message %s acknowledged here only", delivery_tag)
            virtual.QoS.ack(self, delivery_tag)


class Channel(kombu_redis.Channel):
    QoS = QoS


class Transport(kombu_redis.Transport):
    Channel = Channel
