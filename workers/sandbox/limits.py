"""Resource limits for one bot in one match, checked once when they are built."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any


class LimitsError(ValueError):
    """A limit out of its allowed range; the message names the limit and the range."""


# name: (minimum, maximum) — outside these a setting is refused, not clamped.
RANGES: dict[str, tuple[float, float]] = {
    "move_seconds": (0.01, 60.0),
    "time_bank_seconds": (0.0, 600.0),
    "match_seconds": (1.0, 7200.0),
    "startup_seconds": (0.5, 60.0),
    "memory_mb": (32, 8192),
    "cpu_seconds": (1, 3600),
    "max_processes": (1, 256),
    "open_files": (16, 4096),
    "file_size_mb": (1, 1024),
    "tmp_mb": (1, 1024),
    "output_bytes_per_move": (1024, 64 << 20),
    "output_bytes_per_match": (1024, 1 << 30),
    "stderr_bytes": (0, 16 << 20),
}


@dataclass(frozen=True)
class Limits:
    move_seconds: float = 1.0
    # Kaggle-style overage: time spent past move_seconds is drawn from this bank.
    time_bank_seconds: float = 10.0
    match_seconds: float = 600.0
    startup_seconds: float = 10.0
    memory_mb: int = 512
    cpu_seconds: int = 120
    max_processes: int = 16
    open_files: int = 64
    file_size_mb: int = 8
    tmp_mb: int = 16
    output_bytes_per_move: int = 1 << 20
    output_bytes_per_match: int = 32 << 20
    stderr_bytes: int = 64 << 10

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            low, high = RANGES[field.name]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise LimitsError(f"limit {field.name} must be a number, not {value!r}")
            if not low <= value <= high:
                raise LimitsError(f"limit {field.name}={value} is outside {low}..{high}")

    @classmethod
    def from_dict(cls, values: dict[str, Any] | None) -> Limits:
        if not values:
            return cls()
        if not isinstance(values, dict):
            raise LimitsError("limits must be a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise LimitsError(f"unknown limit {unknown[0]!r}; known: {', '.join(sorted(known))}")
        return cls(**values)

    def for_set(self, matches: int) -> Limits:
        """The limits of one process playing `matches` matches: `cpu_seconds` is a match's,
        so the process may use that much for each (up to the range's top)."""
        if matches <= 1:
            return self
        top = RANGES["cpu_seconds"][1]
        return replace(self, cpu_seconds=int(min(top, self.cpu_seconds * matches)))

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
