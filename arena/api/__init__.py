"""The REST API under /api/: serializers (HTTP shape), views (HTTP glue), permissions."""
