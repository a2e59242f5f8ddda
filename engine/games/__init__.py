"""One sub-package per game; each registers its `Game` when imported."""
