"""Crash loops: a version whose last N ladder matches all ended in its own forfeit.

A forfeit is the bot's doing (a crash, a time-out, an illegal or flooding answer; the
referee records the reason on the seat). Infrastructure faults never reach a seat: their
matches are played again or failed, not forfeited, so they never pause a bot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class SeatRecord:
    """One finished ladder match of a version, newest first in the caller's list."""

    match_id: int
    forfeit_reason: str


@dataclass(frozen=True)
class CrashLoop:
    reason: str
    match_ids: list[int]


def crash_loop(last: Sequence[SeatRecord], limit: int) -> CrashLoop | None:
    """A CrashLoop when the newest `limit` records are all forfeits; None otherwise."""
    if limit < 1 or len(last) < limit:
        return None
    window = list(last[:limit])
    if not all(record.forfeit_reason for record in window):
        return None
    reasons = sorted({record.forfeit_reason.splitlines()[0][:200] for record in window})
    reason = (
        f"paused: its last {limit} ladder matches all ended in its own forfeit ("
        + "; ".join(reasons)
        + "). Upload a new version, or resume it once fixed."
    )
    return CrashLoop(reason, [record.match_id for record in window])
