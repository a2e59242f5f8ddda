"""Who may do what: organisers are staff users or members of the "organisers" group."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

ORGANISERS_GROUP = "organisers"


def is_organiser(user: AbstractBaseUser | AnonymousUser | None) -> bool:
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    if user.is_staff or user.is_superuser:
        return True
    return user.groups.filter(name=ORGANISERS_GROUP).exists()
