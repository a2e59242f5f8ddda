"""The OpenAPI schema's view of errors and of constraints the services enforce.

drf-spectacular documents only the success answer of each operation. `ArenaAutoSchema` adds
the error answers the API really gives, read from the operation itself, so views need no
decoration:

- 400 when the operation reads input: a request body or query parameters (paging included:
  an empty value is refused);
- 401 when it authenticates requests (a bad token is refused on every such operation);
- 403 when an authenticated user may still be refused: unsafe methods (not the owner, not an
  organiser, or a session request without its CSRF token);
- 404 for routes with a path parameter, and for pages past the last one;
- what a view declares in `domain_errors` for an action ("create") or an action and method
  ("versions POST"): the arena.errors classes its services raise that the rules above do not
  imply (a 409 for a name taken, a 503 for a missing queue).

Every error body has one schema, `Error` (see arena/api/errors.py). Serializer fields may also
state, through a `schema_hints()` method, constraints that a service checks (the bot name rule,
the registered games): computed when the schema is generated, so a new game needs no edit.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": (
        "An error. `detail` says what went wrong and `code` names the kind (invalid, "
        "invalid_upload, permission_denied, not_found, conflict, unavailable, ...); input "
        "errors also name each offending field with its messages (an object for list or "
        "object fields)."
    ),
    "properties": {
        "detail": {"type": "string"},
        "code": {"type": "string"},
    },
    "required": ["detail", "code"],
    "additionalProperties": {
        "oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "object"}]
    },
}

ERROR_DESCRIPTIONS = {
    400: "The input is malformed or not acceptable.",
    401: "The credentials are missing (where required) or invalid.",
    403: "The user may not do this.",
    404: "Nothing is found at this address (or the page is past the last one).",
    409: "The request clashes with the current state.",
    429: "Too many requests (a rate limit, or a daily upload quota): Retry-After says when "
    "to try again.",
    503: "A part of the system the request needs is unavailable.",
}

UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
UPLOADS = {"create", "versions"}  # actions of views whose bodies carry a file


class ArenaAutoSchema(AutoSchema):
    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        for parameter in operation.get("parameters", []):
            # Routes match ids with \d+: say integer, as every id in a body is.
            if parameter["in"] == "path" and parameter["name"] in {"id", "pk"}:
                parameter["schema"] = {"type": "integer"}
            # An empty query value is a 400 (arena/api/middleware.py).
            if parameter["in"] == "query" and parameter["schema"].get("type") == "string":
                parameter["schema"].setdefault("minLength", 1)
        error = ResolvedComponent(
            name="Error", type=ResolvedComponent.SCHEMA, object="Error", schema=ERROR_SCHEMA
        )
        self.registry.register_on_missing(error)
        for code in sorted(self.error_codes(operation)):
            operation["responses"].setdefault(
                str(code),
                {
                    "description": ERROR_DESCRIPTIONS[code],
                    "content": {"application/json": {"schema": error.ref}},
                },
            )
        return operation

    def error_codes(self, operation: dict[str, Any]) -> set[int]:
        codes: set[int] = set()
        parameters = operation.get("parameters", [])
        paging = self._paging_parameters() & {p["name"] for p in parameters}
        # Paging parameters too: an empty or malformed value is a 400.
        reads_query = any(p["in"] == "query" for p in parameters)
        if "requestBody" in operation or reads_query:
            codes.add(400)
        authenticates = any(requirement for requirement in operation.get("security", []))
        if authenticates:
            codes.add(401)
            if self.method in UNSAFE_METHODS:
                codes.add(403)
        if any(p["in"] == "path" for p in parameters) or paging:
            codes.add(404)
        if getattr(self.view, "throttle_classes", None):
            codes.add(429)  # arena/api/throttling.py
        declared = getattr(self.view, "domain_errors", {})
        action = getattr(self.view, "action", None)
        for key in (action, f"{action} {self.method}"):
            codes.update(error.status for error in declared.get(key, ()))
        return codes

    def _paging_parameters(self) -> set[str]:
        # Only operations that document these parameters page (the paginator adds them).
        paginator = self._get_paginator()
        if paginator is None:
            return set()
        return {p["name"] for p in paginator.get_schema_operation_parameters(self.view)}

    def map_parsers(self):
        """One media type per request body: JSON, or multipart where a file is uploaded.

        The views still parse forms (curl -d works), but a body listed under several media
        types made generated clients (openapi-python-client) fail to import or send all of
        them at once.
        """
        types = super().map_parsers()
        if "multipart/form-data" in types and getattr(self.view, "action", None) in UPLOADS:
            return ["multipart/form-data"]
        return ["application/json"] if "application/json" in types else types[:1]

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        hints = getattr(field, "schema_hints", None)
        return {**schema, **hints()} if hints is not None and schema is not None else schema
