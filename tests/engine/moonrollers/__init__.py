"""Moonrollers rules tests."""
