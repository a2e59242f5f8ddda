"""A bot's stderr split by move: the runner marks the first write of each move with a line
`\\x1emove <match> <n>` (bots/sdk/runner.py), n the bot's n-th decision in that match (0:
its setup). One process plays a whole set, so its stderr holds every match of the set; a
match page keeps that match's part. Text before any mark (a bot in another language, whose
program writes stderr itself) belongs to every match."""

from __future__ import annotations

MARK = "\x1emove "


def split_moves(text: str, match_id: int) -> tuple[str, dict[int, str]]:
    """(the match's part, readable, with a heading per move; {decision n: what it wrote,
    without its last line break})."""
    shown: list[str] = []
    moves: dict[int, list[str]] = {}
    current: int | None = None  # the decision being read, None before any mark
    ours = True
    for line in text.split("\n"):
        if line.startswith(MARK):
            parts = line[len(MARK) :].split(" ")
            ours = len(parts) == 2 and parts[0] in (str(match_id), "-") and parts[1].isdigit()
            current = int(parts[1]) if ours else None
            if ours:
                shown.append("— setup —" if current == 0 else f"— move {current} —")
            continue
        if not ours:
            continue
        shown.append(line)
        if current is not None:
            moves.setdefault(current, []).append(line)
    return "\n".join(shown), {n: "\n".join(lines).rstrip("\n") for n, lines in moves.items()}
