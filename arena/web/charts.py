"""SVG geometry for the pages' charts (rating over time, interval bars, brackets): pure.

Functions take plain numbers and return coordinates and labels; the templates draw them.
Every chart also gets a text alternative built from the same data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Scale:
    low: float
    high: float
    size: float
    pad: float = 0.0

    def at(self, value: float) -> float:
        span = self.high - self.low or 1.0
        return round(self.pad + (value - self.low) / span * (self.size - 2 * self.pad), 1)


def value_range(values: list[float], margin: float = 0.05) -> tuple[float, float]:
    if not values:
        return 1400.0, 1600.0
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 50, high + 50
    extra = (high - low) * margin
    return low - extra, high + extra


def thinned(points: list[Any], limit: int = 300) -> list[Any]:
    """At most `limit` points, evenly spread, always keeping the first and the last.

    A chart 640 units wide shows no more than that; a bot with thousands of matches
    would otherwise send (and draw) thousands of invisible vertices.
    """
    if len(points) <= limit:
        return points
    step = (len(points) - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def interval_bars(rows: list[dict[str, Any]], width: float = 120.0) -> None:
    """Give each leaderboard row with a skill interval its bar on a shared axis (in place)."""
    values = [
        v for row in rows for v in (row.get("skill_low"), row.get("skill_high")) if v is not None
    ]
    low, high = value_range(values)
    scale = Scale(low, high, width, pad=4)
    for row in rows:
        if row.get("skill") is None:
            row["bar"] = None
            continue
        x1, x2 = scale.at(row["skill_low"]), scale.at(row["skill_high"])
        row["bar"] = {"x1": x1, "x2": x2, "mid": scale.at(row["skill"]), "w": round(x2 - x1, 1)}


def rating_chart(
    elo: list[dict[str, Any]], skill: list[dict[str, Any]], width: float = 640, height: float = 220
) -> dict[str, Any] | None:
    """A chart of Elo after each match and the skill band at each refit, by event order.

    The x axis is the order of events in time (matches and refits merged), which keeps
    bursts of matches readable; the text alternative lists the dates.
    """
    events = [("elo", e["at"], e) for e in elo] + [("skill", s["fitted_at"], s) for s in skill]
    if not events:
        return None
    events.sort(key=lambda item: item[1])
    values = [e["after"] for e in elo] + [e["before"] for e in elo[:1]]
    values += [v for s in skill for v in (s["skill_low"], s["skill_high"])]
    low, high = value_range(values)
    x = Scale(0, max(len(events) - 1, 1), width, pad=40)
    y = Scale(high, low, height, pad=16)
    elo_points, band_top, band_bottom, skill_points = [], [], [], []
    for index, (kind, _, item) in enumerate(events):
        px = x.at(index)
        if kind == "elo":
            elo_points.append(f"{px},{y.at(item['after'])}")
        else:
            band_top.append(f"{px},{y.at(item['skill_high'])}")
            band_bottom.append(f"{px},{y.at(item['skill_low'])}")
            skill_points.append(f"{px},{y.at(item['skill'])}")
    ticks = [low + (high - low) * i / 4 for i in range(5)]
    return {
        "width": width,
        "height": height,
        "elo": " ".join(elo_points),
        "skill": " ".join(skill_points),
        "band": " ".join(band_top + band_bottom[::-1]) if len(band_top) > 1 else "",
        "dots": [
            {
                "x": x.at(i),
                "y": y.at(item["skill"]),
                "low": y.at(item["skill_low"]),
                "high": y.at(item["skill_high"]),
            }
            for i, (kind, _, item) in enumerate(events)
            if kind == "skill"
        ],
        "ticks": [{"y": y.at(t), "label": round(t)} for t in ticks],
        "first": elo[0]["before"] if elo else None,
        "last": elo[-1]["after"] if elo else None,
        "matches": len(elo),
        "fits": len(skill),
    }


def bracket(ties: list[dict[str, Any]], names: dict[int, str]) -> dict[str, Any] | None:
    """Columns of knockout ties by stage, each box placed; lines join a tie to the next."""
    if not ties:
        return None
    stages: dict[Any, list[dict[str, Any]]] = {}
    for tie in ties:
        stages.setdefault((tie["stage"], tie["stage_round"]), []).append(tie)
    box_w, box_h, gap_x, gap_y = 210, 44, 40, 14
    columns = sorted(stages, key=lambda key: (str(key[0]) != "main", key[1]))
    tallest = max(len(stages[c]) for c in columns)
    height = tallest * (box_h + gap_y) + gap_y
    boxes = []
    placed: list[list[dict[str, Any]]] = []
    for col, key in enumerate(columns):
        placed.append([])
        column = stages[key]
        slot = height / len(column)
        for row, tie in enumerate(column):
            lines = []
            for side, bot in enumerate(tie["bots"]):
                seed = tie["seeds"][side] if side < len(tie["seeds"]) else None
                name = names.get(bot, "?") if bot is not None else "—"
                points = tie["points"].get(bot) if bot is not None else None
                lines.append(
                    {
                        "text": f"{f'({seed}) ' if seed else ''}{name}"[:26],
                        "points": "" if points is None else f"{points:g}",
                        "winner": bot is not None and bot == tie["winner"],
                    }
                )
            placed[col].append(
                {
                    "x": col * (box_w + gap_x) + 4,
                    "y": round(row * slot + (slot - box_h) / 2, 1),
                    "w": box_w,
                    "h": box_h,
                    "tie": tie["tie"],
                    "status": tie["status"],
                    "lines": lines,
                }
            )
    # Lines join each tie to the one its winner goes to, where a column halves the last.
    links = []
    for col in range(len(placed) - 1):
        here, there = placed[col], placed[col + 1]
        if len(there) * 2 != len(here) and len(there) != len(here):
            continue
        for row, box in enumerate(here):
            target = there[row // 2 if len(there) * 2 == len(here) else row]
            x1, y1 = box["x"] + box_w, box["y"] + box_h / 2
            x2, y2 = target["x"], target["y"] + box_h / 2
            mid = (x1 + x2) / 2
            links.append(f"M{x1},{y1} H{mid} V{y2} H{x2}")
    boxes = [box for column in placed for box in column]
    return {
        "links": links,
        "width": len(columns) * (box_w + gap_x) + 8,
        "height": round(height),
        "boxes": boxes,
    }
