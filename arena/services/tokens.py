"""API tokens: make, list and revoke them, and find the user a key belongs to.

A user has any number of named tokens (arena.models.ApiToken, made on the tokens page) and
at most one login token (DRF's, from POST /api/token/, which `arena login` uses). Both kinds
authenticate the API the same way (arena/api/authentication.py); both are revoked here.
"""

from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token

from arena.errors import InvalidInput, NotFound, QuotaExceeded
from arena.models import ApiToken
from arena.models.tokens import hash_key
from arena.stored_text import clean_text

NAME_MAX = 64
# Enough for every machine and job of one author; a bound so a script cannot fill the table.
MAX_TOKENS = 50


def check_token_name(name: object) -> str:
    text = clean_text(name if isinstance(name, str) else "", NAME_MAX + 1).strip()
    if not text:
        raise InvalidInput(
            "give the token a name (what it is for: a laptop, a CI job)", field="name"
        )
    if len(text) > NAME_MAX:
        raise InvalidInput(f"a token name is at most {NAME_MAX} characters", field="name")
    return text


def create_token(user: Any, name: object) -> tuple[ApiToken, str]:
    """A new named token and its key, which is never shown again."""
    name = check_token_name(name)
    limit = MAX_TOKENS
    if ApiToken.objects.filter(user=user).count() >= limit:
        raise QuotaExceeded(f"you have {limit} tokens already, the limit: revoke one first")
    return ApiToken.issue(user, name)


def tokens_of(user: Any) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))


def login_token_of(user: Any) -> Token | None:
    return Token.objects.filter(user=user).first()


def revoke_token(user: Any, token_id: object) -> None:
    """Delete one of the user's named tokens; anyone else's is as missing as no token."""
    if isinstance(token_id, bool) or not isinstance(token_id, int):
        raise NotFound("no such token")
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise NotFound("no such token")


def revoke_login_token(user: Any) -> None:
    deleted, _ = Token.objects.filter(user=user).delete()
    if not deleted:
        raise NotFound("you have no login token")


def token_for_key(key: str) -> ApiToken | None:
    """The named token with this key, with its user, or None."""
    return ApiToken.objects.select_related("user").filter(key_hash=hash_key(key)).first()
