"""Rate limits (DRF throttling): per anonymous client, per user, and for uploads.

DRF's throttles read their rates once, when the class is defined; these read
`settings.ARENA_THROTTLE_RATES` at each request, so a deployment (or a test) changes them
with the settings. A rate of None switches that throttle off. Counters live in Django's
cache: set CACHE_URL to a Redis so every web process shares them.
"""

from __future__ import annotations

import logging

from django.conf import settings
from rest_framework import throttling

from arena.api.outages import redis_errors

log = logging.getLogger(__name__)


class _SettingsRate:
    scope: str

    def get_rate(self) -> str | None:
        # Called by DRF's __init__, once per request.
        return settings.ARENA_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)  # type: ignore[misc]
        except redis_errors() as exc:
            # Counters unreachable (Redis restarting): the API stays open rather than down.
            log.warning("rate limits unchecked, their cache is unavailable: %s", exc)
            return True


class AnonThrottle(_SettingsRate, throttling.AnonRateThrottle):
    scope = "anon"


class UserThrottle(_SettingsRate, throttling.UserRateThrottle):
    scope = "user"


class UploadThrottle(_SettingsRate, throttling.UserRateThrottle):
    """Bot and version uploads per user (each costs a smoke match on a worker)."""

    scope = "uploads"

    def allow_request(self, request, view) -> bool:
        if request.method != "POST":
            return True
        return super().allow_request(request, view)
