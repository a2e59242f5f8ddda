"""API tokens an author makes on the tokens page: named, many per user, revocable.

Only the SHA-256 of a key is stored: the key itself is shown once, when it is created, and
cannot be read back from the database (or a backup). A key is `arena_` and 40 hexadecimal
characters, sent as DRF's are (`Authorization: Token <key>`); arena/api/authentication.py
accepts these and the login token from POST /api/token/ (40 hexadecimal characters) alike,
and the prefix tells it which table to look in: one query either way.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models

KEY_START = "arena_"
KEY_BYTES = 20  # 40 hexadecimal characters after KEY_START
PREFIX_LENGTH = len(KEY_START) + 8  # shown in the list, so the author can tell tokens apart


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=64)
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=PREFIX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"token {self.name!r} ({self.prefix}…) of user {self.user_id}"

    @staticmethod
    def is_named_key(key: str) -> bool:
        return key.startswith(KEY_START)

    @classmethod
    def issue(cls, user, name: str) -> tuple[ApiToken, str]:
        """A new token and its key: the only time the key exists outside its hash."""
        key = KEY_START + secrets.token_hex(KEY_BYTES)
        token = cls.objects.create(
            user=user, name=name, key_hash=hash_key(key), prefix=key[:PREFIX_LENGTH]
        )
        return token, key
