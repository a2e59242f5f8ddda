"""Token authentication that refuses a key with a NUL byte before it reaches the database.

DRF's TokenAuthentication looks any key up as given; a NUL byte in the Authorization header
made PostgreSQL raise (text cannot hold NUL) and the request answered 500. No key holds one
(keys are hexadecimal), so such a header is simply an invalid token: 401.
"""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        if "\x00" in key:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(key)


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
            "description": 'The header\'s value is "Token " followed by the key from '
            "POST /api/token/ (the prefix is required; it is not Bearer).",
            "x-token-prefix": "Token",
        }
