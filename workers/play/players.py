"""Bots as the referee sees them: one channel per bot, serving one or many matches.

`BotProcess` (workers/play/bot_process.py) talks JSON lines to one bot process started by
a launcher (the sandbox in the arena), which plays every match of a set; `watch` and
`wait_for_answers` multiplex the set's processes for the referee.

`InProcessBot` calls a trusted bot directly, for fast local play and benchmarks.
`ProcessPlayer` and `InProcessPlayer` are the one-match view (`start`, `act`,
`end`, `close`) over the same channels. Either way a misbehaving bot becomes a
`Forfeit`, never an exception that reaches the referee.
"""

from __future__ import annotations

import contextlib
import selectors
import subprocess
import threading
import time
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from bots.sdk.runner import LoadedBot
from workers.play.bot_process import BotProcess
from workers.play.protocol import LONE, Answer, Forfeit
from workers.sandbox.limits import Limits

__all__ = [
    "Bot",
    "BotProcess",
    "close_all",
    "stop_all",
    "Forfeit",
    "InProcessBot",
    "InProcessPlayer",
    "Player",
    "ProcessPlayer",
    "wait_for_answers",
    "watch",
]


class Bot(Protocol):
    """A bot serving one or more matches: the referee's side of the protocol."""

    dead: Forfeit | None

    def post(self, match: Any, message: dict[str, Any]) -> None:
        """Queue a start, act or end message for `match` (sent by `flush`)."""
        ...

    def flush(self) -> None: ...

    def take_answers(self) -> list[Answer]:
        """Answers (or per-match forfeits) that arrived since the last call."""
        ...

    def waiting(self) -> bool:
        """Whether a request of this bot is still unanswered."""
        ...

    def close(self) -> str:
        """Stop the bot; return its captured stderr (bounded)."""
        ...


# ----- in this process ---------------------------------------------------------------------


class InProcessBot:
    """A trusted bot called in this process: no isolation, no limits.

    A class bot gets one instance per match, as in the runner."""

    def __init__(self, bot: LoadedBot) -> None:
        self.bot = bot
        self.dead: Forfeit | None = None
        self._players: dict[Any, LoadedBot] = {}
        self._first = True
        self._answers: list[Answer] = []
        self._outbox: list[tuple[Any, dict[str, Any]]] = []

    def post(self, match: Any, message: dict[str, Any]) -> None:
        self._outbox.append((match, message))

    def flush(self) -> None:
        outbox, self._outbox = self._outbox, []
        for match, message in outbox:
            kind = message["type"]
            if kind == "act":
                self._answers.append((match, self._act(match, message)))
            elif kind == "start":
                player = self.bot if self._first else self.bot.for_match()
                self._first = False
                self._players[match] = player
                if player.setup is not None:
                    try:
                        player.setup(message)
                    except Exception as exc:
                        self._answers.append(
                            (match, Forfeit(f"setup raised {type(exc).__name__}: {exc}"))
                        )
            else:
                player = self._players.pop(match, self.bot)
                if player.end is not None:
                    with contextlib.suppress(Exception):
                        player.end(message.get("result"))

    def _act(self, match: Any, message: dict[str, Any]) -> Any:
        player = self._players.get(match, self.bot)
        try:
            return player.act(message["observation"], message["legal_actions"])
        except Exception as exc:
            return Forfeit(f"bot raised {type(exc).__name__}: {exc}")

    def take_answers(self) -> list[Answer]:
        answers, self._answers = self._answers, []
        return answers

    def waiting(self) -> bool:
        return bool(self._outbox)

    def close(self) -> str:
        return ""


# ----- a bot process -----------------------------------------------------------------------


def watch(selector: selectors.BaseSelector, bot: Bot) -> None:
    """Register a bot process's pipes with the referee's selector (in-process bots have none)."""
    if isinstance(bot, BotProcess):
        for fd in (bot.stdout_fd, bot.stderr_fd):
            if fd is not None:
                selector.register(fd, selectors.EVENT_READ, bot)


def wait_for_answers(bots: Iterable[Bot], selector: selectors.BaseSelector) -> None:
    """Wait until a bot process has answered or the oldest request of one is out of time.

    `selector` holds every BotProcess's pipes (`watch`). Returns at once when no
    process has a request in flight.
    """
    waiting = [bot for bot in bots if isinstance(bot, BotProcess) and bot.waiting()]
    if not waiting:
        return
    deadline = min(bot.next_deadline() or 0.0 for bot in waiting)
    _read(selector, selector.select(max(0.0, deadline - time.monotonic())))
    now = time.monotonic()
    late = [bot for bot in waiting if bot.waiting() and now >= (bot.next_deadline() or 0.0)]
    if late:
        # The reply may be waiting unread if this process was slow to wake.
        _read(selector, selector.select(0))
        for bot in late:
            bot.check_time(time.monotonic())


def stop_all(bots: Sequence[Bot]) -> list[str]:
    """Kill a set's bot processes without waiting for their end; each one's stderr, in
    order. `close_all` (or each bot's `close`) must follow: it waits for them."""
    return [bot.stop() if isinstance(bot, BotProcess) else "" for bot in bots]


def close_all(bots: Sequence[Bot]) -> list[str]:
    """Close a set's bots side by side; each one's stderr, in order.

    A sandbox's end waits mostly on the kernel (its pid namespace torn down, its
    cgroup removed): ~7 ms wall and under 1 ms of CPU each, so the set's bots end
    together rather than one after another. If a close raises, the others still
    close and the first such exception is raised afterwards."""
    texts = [""] * len(bots)
    errors: list[BaseException] = []

    def close(index: int) -> None:
        try:
            texts[index] = bots[index].close()
        except BaseException as exc:
            errors.append(exc)

    threads = [
        threading.Thread(target=close, args=(index,))
        for index, bot in enumerate(bots)
        if index and isinstance(bot, BotProcess)
    ]
    for thread in threads:
        thread.start()
    for index, bot in enumerate(bots):
        if not index or not isinstance(bot, BotProcess):
            close(index)
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return texts


def _read(selector: selectors.BaseSelector, events: list[Any]) -> None:
    for key, _ in events:
        bot = key.data
        bot.on_readable(key.fd)
        finished = bot.dead is not None if key.fd == bot.stdout_fd else bot.stderr_fd is None
        if finished:
            selector.unregister(key.fd)


# ----- the one-match view ------------------------------------------------------------------


class Player(Protocol):
    bot: Any

    def start(self, info: dict[str, Any]) -> Forfeit | None: ...

    def act(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any | Forfeit: ...

    def end(self, result: dict[str, Any]) -> None: ...

    def close(self) -> str:
        """Stop the bot; return its captured stderr (bounded)."""
        ...


class _OneMatch:
    """start/act/end/close for one match over a channel (benchmarks, hand-driven tests)."""

    bot: Any

    def start(self, info: dict[str, Any]) -> Forfeit | None:
        self.bot.post(LONE, {"type": "start", **info})
        self.bot.flush()
        answers = self.bot.take_answers()
        return next((a for _, a in answers if isinstance(a, Forfeit)), self.bot.dead)

    def act(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any | Forfeit:
        self.bot.post(
            LONE, {"type": "act", "observation": observation, "legal_actions": legal_actions}
        )
        self.bot.flush()
        with selectors.DefaultSelector() as selector:
            watch(selector, self.bot)
            while self.bot.waiting():
                wait_for_answers([self.bot], selector)
        answers = self.bot.take_answers()
        if not answers:
            return self.bot.dead or Forfeit("no answer")
        return answers[-1][1]

    def end(self, result: dict[str, Any]) -> None:
        self.bot.post(LONE, {"type": "end", "result": result})
        self.bot.flush()

    def close(self) -> str:
        return str(self.bot.close())


class InProcessPlayer(_OneMatch):
    """A trusted bot called in this process: no isolation, no limits."""

    def __init__(self, bot: LoadedBot) -> None:
        self.bot = InProcessBot(bot)


class ProcessPlayer(_OneMatch):
    """A bot in its own process, for one match."""

    def __init__(self, process: subprocess.Popen[bytes], limits: Limits) -> None:
        self.bot = BotProcess(process, limits)
        self.process = process
        self.limits = limits
