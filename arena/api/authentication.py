"""Token authentication that refuses a key with a NUL byte before it reaches the database.

DRF's TokenAuthentication looks any key up as given; a NUL byte in the Authorization header
made PostgreSQL raise (text cannot hold NUL) and the request answered 500. No key holds one
(keys are hexadecimal), so such a header is simply an invalid token: 401.
"""

from __future__ import annotations

from rest_framework import authentication, exceptions


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        if "\x00" in key:
            raise exceptions.AuthenticationFailed("Invalid token.")
        return super().authenticate_credentials(key)
