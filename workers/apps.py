"""The workers' Django app: it holds no models, only the management commands that drive
the workers themselves (`manage.py arena_bench`), so the arena app never imports workers."""

from django.apps import AppConfig


class WorkersConfig(AppConfig):
    name = "workers"
    verbose_name = "Moon Arena workers"
