"""The arena app's configuration."""

from django.apps import AppConfig


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Moon Arena"
    default_auto_field = "django.db.models.BigAutoField"
