"""The soak test's verdict: the checks of issue 34 over the files scripts/soak.py wrote.

    python scripts/soak_report.py var/soak/20261204-020000    # again, from the files

Windows scale with short runs: "the first and last 30 minutes" become the first and last
third of a run shorter than 90 minutes, and "after the first 10 minutes" a sixth of one
shorter than an hour.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

LEASE_SECONDS = 10.0
SETTLE_SECONDS = 60.0
# Faults that take a part the arena needs away: health must say 503 while they last.
OUTAGES = ("worker_kill", "redis_restart", "postgres_restart", "worker_stop")
LONG_LIVED = ("web", "worker_main", "beat", "redis", "postgres")


def _rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _num(value: str | None) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except ValueError:
        return None


def report(folder: Path, args: Any = None) -> dict[str, Any]:
    samples = _rows(folder / "samples.csv")
    health = [(float(r["t"]), int(r["status"])) for r in _rows(folder / "health.csv")]
    faults = [
        {"kind": r["kind"], "started": float(r["started"]), "ended": float(r["ended"]),
         "detail": r["detail"]}
        for r in _rows(folder / "faults.csv")
    ]  # fmt: skip
    minutes = float(samples[-1]["t"]) / 60 if samples else 0.0
    checks: list[dict[str, Any]] = []
    checks.append(_zombies(samples, faults))
    checks.append(_throughput(samples, minutes))
    checks.append(_rss(samples, minutes))
    checks.append(_audit(folder))
    checks.append(_waits(folder, faults))
    checks.append(_health(health, faults))
    passed = all(check["passed"] for check in checks)
    load = os.getloadavg()
    summary = {
        "minutes": round(minutes, 1),
        "samples": len(samples),
        "faults": faults,
        "checks": checks,
        "passed": passed,
        "load_average": [round(x, 2) for x in load],
        "cpus": os.cpu_count(),
    }
    lines = [f"# Soak: {minutes:.0f} minutes, {len(faults)} faults, {len(samples)} samples", ""]
    lines += [f"- {'PASS' if c['passed'] else 'FAIL'} {c['name']}: {c['figure']}" for c in checks]
    lines += ["", "| fault | at (s) | lasted (s) | detail |", "|---|---|---|---|"]
    lines += [
        f"| {f['kind']} | {f['started']:.0f} | {f['ended'] - f['started']:.0f} | {f['detail']} |"
        for f in faults
    ]
    summary["text"] = "\n".join(lines) + "\n"
    (folder / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    (folder / "summary.md").write_text(summary["text"])
    _plot(folder, samples, health, faults)
    return summary


def _settled(t: float, faults: list[dict[str, Any]]) -> bool:
    return all(not (f["started"] <= t < f["ended"] + SETTLE_SECONDS) for f in faults)


def _zombies(samples: list[dict[str, str]], faults: list[dict[str, Any]]) -> dict[str, Any]:
    settled = [s for s in samples if _settled(float(s["t"]), faults)]
    worst = max((int(_num(s["zombies"]) or 0) for s in settled), default=0)
    orphans = max((int(_num(s["orphans"]) or 0) for s in settled), default=0)
    overall = max((int(_num(s["zombies"]) or 0) for s in samples), default=0)
    return {
        "name": "no zombie or orphan 60 s or more after a fault",
        "passed": worst == 0 and orphans == 0 and bool(settled),
        "figure": f"{len(settled)} settled samples: most zombies {worst}, most orphans "
        f"{orphans} (most in any sample: {overall} zombies)",
    }


def _finished_between(samples: list[dict[str, str]], start: float, end: float) -> float | None:
    points = [(float(s["t"]), _num(s["finished"])) for s in samples]
    points = [(t, v) for t, v in points if v is not None]
    inside = [(t, v) for t, v in points if start <= t <= end]
    if len(inside) < 2:
        return None
    (t0, v0), (t1, v1) = inside[0], inside[-1]
    return (v1 - v0) / max((t1 - t0) / 60, 1e-9)


def _throughput(samples: list[dict[str, str]], minutes: float) -> dict[str, Any]:
    window = min(30.0, minutes / 3) * 60
    end = minutes * 60
    first = _finished_between(samples, 0, window)
    last = _finished_between(samples, end - window, end)
    ratio = (last / first) if first and last is not None else 0.0
    return {
        "name": "matches per minute in the last window at least 90% of the first",
        "passed": ratio >= 0.9,
        "figure": f"first {window / 60:.0f} min {first or 0:.0f}/min, last {last or 0:.0f}/min, "
        f"ratio {ratio:.2f}",
    }


def _rss(samples: list[dict[str, str]], minutes: float) -> dict[str, Any]:
    settle = min(10.0, minutes / 6) * 60
    growths: dict[str, float] = {}
    for role in LONG_LIVED:
        series: dict[str, list[tuple[float, float]]] = {}
        for sample in samples:
            pid, rss = sample.get(f"{role}_pid"), _num(sample.get(f"{role}_rss_mb"))
            if pid and rss is not None:
                series.setdefault(pid, []).append((float(sample["t"]), rss))
        for pid, points in series.items():
            start = points[0][0]
            after = [rss for t, rss in points if t >= start + settle]
            if len(after) < 3 or points[-1][0] - start < 2 * settle:
                continue  # restarted by a fault: too short a life to judge
            tail = statistics.median(after[-3:])
            growths[f"{role} {pid}"] = tail / after[0] - 1
    worst = max(growths.values(), default=0.0)
    shown = ", ".join(f"{name} {growth:+.0%}" for name, growth in sorted(growths.items()))
    return {
        "name": "RSS of each long-lived process grows less than 20% after the first window",
        "passed": bool(growths) and worst < 0.20,
        "figure": shown or "no process lived long enough to judge",
    }


def _audit(folder: Path) -> dict[str, Any]:
    try:
        games = json.loads((folder / "audit.json").read_text())
        ok = isinstance(games, list) and all(g["ok"] for g in games)
        figure = "; ".join(
            f"{g['game']}: {g['matches']} rated, {'ok' if g['ok'] else g['problems'][:3]}"
            for g in games
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        ok, figure = False, f"no audit: {exc}"
    return {"name": "every match rated exactly once (replayed ratings equal stored)",
            "passed": ok, "figure": figure}  # fmt: skip


def _waits(folder: Path, faults: list[dict[str, Any]]) -> dict[str, Any]:
    bound = LEASE_SECONDS + 60
    worst = (0.0, "")
    for row in _rows(folder / "waits.csv"):
        start, end = float(row["waited_from"]), float(row["waited_to"])
        # Time when no worker could play (a fault in progress) is the outage's, not a wait.
        outage = sum(max(0.0, min(end, f["ended"]) - max(start, f["started"])) for f in faults)
        waited = end - start - outage
        if waited > worst[0]:
            worst = (waited, f"match {row['match']} ({row['status']})")
    return {
        "name": f"no match waits longer than its lease plus 60 s ({bound:.0f} s)",
        "passed": worst[0] <= bound,
        "figure": f"longest wait outside outages {worst[0]:.1f} s, {worst[1] or '-'}",
    }


def _health(health: list[tuple[float, int]], faults: list[dict[str, Any]]) -> dict[str, Any]:
    problems = []
    checked = 0
    for fault in faults:
        if fault["kind"] not in OUTAGES or fault["detail"].startswith("not applied"):
            continue
        checked += 1
        during = [s for t, s in health if fault["started"] <= t <= fault["ended"]]
        if not any(s != 200 for s in during):
            problems.append(f"{fault['kind']}@{fault['started']:.0f}: no 503 in {during}")
        back = [t for t, s in health if t > fault["ended"] and s == 200]
        if not back or back[0] - fault["ended"] > 60:
            late = f"{back[0] - fault['ended']:.0f} s" if back else "never"
            problems.append(f"{fault['kind']}@{fault['started']:.0f}: 200 again after {late}")
    return {
        "name": "health 503 during each outage, 200 within 60 s after it",
        "passed": not problems and checked > 0,
        "figure": f"{checked} outages checked" + (f"; {'; '.join(problems)}" if problems else ""),
    }


def _plot(folder: Path, samples: list[dict[str, str]], health: list[tuple[float, int]],
          faults: list[dict[str, Any]]) -> None:  # fmt: skip
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    minutes = [float(s["t"]) / 60 for s in samples]
    figure, axes = plt.subplots(5, 1, figsize=(11, 14), sharex=True)
    rate = [0.0]
    for previous, sample in zip(samples, samples[1:], strict=False):
        a, b = _num(previous["finished"]), _num(sample["finished"])
        span = (float(sample["t"]) - float(previous["t"])) / 60
        rate.append((b - a) / span if a is not None and b is not None and span else float("nan"))
    axes[0].plot(minutes, rate, color="tab:blue")
    axes[0].set_ylabel("matches / min")
    for role in LONG_LIVED + ("pool",):
        values = [_num(s.get(f"{role}_rss_mb")) for s in samples]
        axes[1].plot(minutes, [v if v is not None else float("nan") for v in values], label=role)
    axes[1].set_ylabel("RSS (MiB)")
    axes[1].legend(loc="upper left", fontsize=7, ncol=3)
    for column, colour in (("zombies", "tab:red"), ("orphans", "tab:orange")):
        axes[2].plot(minutes, [_num(s[column]) or 0 for s in samples], label=column, color=colour)
    axes[2].set_ylabel("processes")
    axes[2].legend(loc="upper left", fontsize=7)
    for column in ("queue_depth", "waiting"):
        values = [_num(s[column]) for s in samples]
        axes[3].plot(minutes, [v if v is not None else float("nan") for v in values], label=column)
    axes[3].set_ylabel("waiting")
    axes[3].legend(loc="upper left", fontsize=7)
    axes[4].scatter([t / 60 for t, _ in health], [s for _, s in health], s=4)
    axes[4].set_ylabel("health HTTP status")
    axes[4].set_xlabel("minutes")
    for axis in axes:
        for fault in faults:
            axis.axvspan(fault["started"] / 60, max(fault["ended"], fault["started"] + 5) / 60,
                         color="grey", alpha=0.25)  # fmt: skip
    axes[0].set_title("Moon Arena soak (grey: faults)")
    figure.tight_layout()
    figure.savefig(folder / "soak.png", dpi=90)
    plt.close(figure)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    result = report(Path(parser.parse_args().folder))
    print(result["text"])
    sys.exit(0 if result["passed"] else 1)
