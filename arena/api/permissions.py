"""Permission classes: who may call an endpoint at all (object ownership is a service check)."""

from __future__ import annotations

from rest_framework.permissions import BasePermission

from arena.accounts import is_organiser


class IsOrganiser(BasePermission):
    message = "only organisers (staff or members of the 'organisers' group) may do this"

    def has_permission(self, request, view) -> bool:
        return is_organiser(request.user)
