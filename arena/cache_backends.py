"""A file cache that degrades to no cache when its folder cannot be made or written.

The replay frames' cache (settings.CACHES["frames"]) is a speed-up: frames are recomputed
from the stored record on a miss. A read-only or missing folder must not turn `/frames/`
into 500s, nor stop the web server at start-up (Django makes the folder when the cache is
first built, in its system checks): it is logged once per process and the cache does
nothing until the folder is usable again.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

log = logging.getLogger(__name__)


class DegradingFileBasedCache(FileBasedCache):
    _warned = False

    def _unusable(self, exc: OSError) -> None:
        if not self._warned:
            self._warned = True
            log.warning("the file cache at %s is unusable, going without it: %s", self._dir, exc)

    def _createdir(self) -> None:
        try:
            super()._createdir()
        except OSError as exc:
            self._unusable(exc)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        try:
            return super().get(key, default, version)
        except OSError as exc:
            self._unusable(exc)
            return default

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        try:
            super().set(key, value, timeout, version)
        except OSError as exc:
            self._unusable(exc)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        try:
            return bool(super().touch(key, timeout, version))
        except OSError as exc:
            self._unusable(exc)
            return False

    def has_key(self, key: Any, version: Any = None) -> bool:
        try:
            return bool(super().has_key(key, version))
        except OSError as exc:
            self._unusable(exc)
            return False
