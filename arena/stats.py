"""Small pure statistics for leaderboards and standings (no ORM)."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054  # two-sided 95% normal quantile


def mean(total: float, count: int) -> float | None:
    return total / count if count else None


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float] | None:
    """Wilson score interval for a success proportion; None when there are no trials.

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 or n successes,
    which is where a new bot in a cooperative game usually starts. `successes` may hold
    halves (a draw scored as half a win): the interval is then that of the score share.
    """
    if trials <= 0:
        return None
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be within 0..{trials}, not {successes}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)
