"""Token authentication: the named tokens of the tokens page and the login token alike.

Both are sent as `Authorization: Token <key>`. A named token's key starts `arena_`
(arena.models.ApiToken) and is looked up by its SHA-256; any other key is DRF's login token
(POST /api/token/). One query either way.

DRF's TokenAuthentication looks any key up as given; a NUL byte in the Authorization header
made PostgreSQL raise (text cannot hold NUL) and the request answered 500. No key holds one
(keys are hexadecimal), so such a header is simply an invalid token: 401.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from arena.models import ApiToken
from arena.services.tokens import token_for_key


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        if "\x00" in key:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not ApiToken.is_named_key(key):
            return super().authenticate_credentials(key)
        token = token_for_key(key)
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        return (token.user, token)


class TokenScheme(OpenApiAuthenticationExtension):
    """The schema's `Token` scheme: an API key in the Authorization header, with its prefix.

    OpenAPI has no field for a prefix, so it is in the description and in `x-token-prefix`;
    generated clients need it set (openapi-python-client: `prefix="Token"`), as their default
    is `Bearer`.
    """

    target_class = "arena.api.authentication.TokenAuthentication"
    name = "Token"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'The header\'s value is "Token " followed by a key: one made on the '
            "tokens page (/my/tokens/) or the login token from POST /api/token/ (the prefix "
            "is required; it is not Bearer).",
            "x-token-prefix": "Token",
        }
