"""A bot process that writes lines of its own script, for the referee's reading rules.

Not the runner: a plain interpreter whose output is exactly what a test wants the
referee to read (a forged match id, a code line the cache cannot keep), talked to through
the real `BotProcess`.
"""

from __future__ import annotations

import subprocess
import sys
import time
from typing import Any

from workers.play.players import BotProcess
from workers.sandbox.limits import Limits


def answers_to(script: str, matches: list[int], code_key: str | None = None) -> dict[Any, Any]:
    """Post an `act` request for each of `matches` in one write to a process running
    `script`, and return what the referee made of its lines, by match."""
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.code_key = code_key  # type: ignore[attr-defined]
    bot = BotProcess(process, Limits(), matches=len(matches))
    answers: dict[Any, Any] = {}
    try:
        for match in matches:
            bot.post(match, {"type": "act", "observation": {}, "legal_actions": ["a"]})
        bot.flush()
        deadline = time.monotonic() + 10
        while len(answers) < len(matches) and time.monotonic() < deadline:
            assert bot.stdout_fd is not None
            bot.on_readable(bot.stdout_fd)
            answers.update(bot.take_answers())
            time.sleep(0.01)
    finally:
        bot.close()
    return answers
