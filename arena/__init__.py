"""Moon Arena's Django project and app: models, API, admin, tournaments and settings."""
