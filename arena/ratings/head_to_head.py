"""A bot against one reference bot: its share of the games, a 95% interval, a verdict.

Pure (plain counts in, a record out; no ORM). arena/services/anchors.py counts the rated
matches and the success rates; this module turns them into what a bot's page says.

Head to head (competitive games): in every rated match where both sat, the bot scores 1
when it finished ahead of the reference (a better rank), 0 when behind and 1/2 when they
share a rank. In a two-player game that is the win share with draws as half a win; at a
table of three or more it is the share of tables where the bot finished ahead. The 95%
interval is the Wilson score interval of that share (arena/stats.py), with the half-points
taken as they come (Wilson, 1927, "Probable inference, the law of succession, and
statistical inference"); it is exact for a game without ties and close for one with them.

Verdict: "beats" when the interval's lower bound is above 1/2, "loses to" when its upper
bound is below 1/2, otherwise "not yet separated".

Cooperative games have no head to head (every seat is on one team). Instead the bot's
success rate is set beside the reference's, each with its Wilson interval: "beats" when the
bot's interval lies wholly above the reference's, "loses to" when wholly below, otherwise
"not yet separated" (the non-overlap rule issue 40 uses for Moon Adventure's strength).
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.stats import wilson_interval

BEATS = "beats"
LOSES_TO = "loses to"
NOT_SEPARATED = "not yet separated"
EVEN = 0.5


def verdict(low: float | None, high: float | None, line: float = EVEN) -> str:
    """What an interval says about a share against `line` (1/2: an even match)."""
    if low is not None and low > line:
        return BEATS
    if high is not None and high < line:
        return LOSES_TO
    return NOT_SEPARATED


@dataclass(frozen=True)
class HeadToHead:
    """A bot's results against one reference: games, ahead, tied (the rest: behind)."""

    games: int
    ahead: int
    ties: int

    def __post_init__(self) -> None:
        if self.games < 0 or self.ahead < 0 or self.ties < 0 or self.ahead + self.ties > self.games:
            raise ValueError(f"impossible counts: {self}")

    @property
    def behind(self) -> int:
        return self.games - self.ahead - self.ties

    @property
    def score(self) -> float:
        return self.ahead + self.ties / 2

    @property
    def share(self) -> float | None:
        return self.score / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.score, self.games)

    @property
    def verdict(self) -> str:
        low, high = self.interval or (None, None)
        return verdict(low, high)


@dataclass(frozen=True)
class SuccessRates:
    """Cooperative games: the bot's successes in its games beside the reference's."""

    games: int
    successes: int
    reference_games: int
    reference_successes: int

    @property
    def rate(self) -> float | None:
        return self.successes / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.successes, self.games)

    @property
    def reference_rate(self) -> float | None:
        return self.reference_successes / self.reference_games if self.reference_games else None

    @property
    def reference_interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.reference_successes, self.reference_games)

    @property
    def verdict(self) -> str:
        mine, theirs = self.interval, self.reference_interval
        if mine is None or theirs is None:
            return NOT_SEPARATED
        if mine[0] > theirs[1]:
            return BEATS
        if mine[1] < theirs[0]:
            return LOSES_TO
        return NOT_SEPARATED
