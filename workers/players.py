"""Seat players: how the referee asks a bot for a move.

`ProcessPlayer` talks JSON lines to a bot process started by a launcher (the
sandbox in the arena) with per-move deadlines, a time bank and output caps.
`InProcessPlayer` calls a trusted bot directly, for fast local play and
benchmarks. Either way a misbehaving bot becomes a `Forfeit`, never an
exception that reaches the referee.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Any, Protocol

from bots.sdk.runner import LoadedBot
from workers.limits import Limits

try:
    import orjson
except ImportError:  # the standard codec alone: slower, same messages
    orjson = None  # type: ignore[assignment]


def encode_line(message: dict[str, Any]) -> bytes:
    """One protocol line. orjson encodes an observation ~9x faster than `json`;
    what it would write differently (integers past 64 bits, non-string keys) is
    left to `json`, so the bot receives the same values either way."""
    if orjson is not None:
        try:
            return orjson.dumps(message, option=orjson.OPT_APPEND_NEWLINE)
        except TypeError:
            pass
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def decode_line(line: bytes) -> Any:
    """A bot's reply; raises ValueError when it is not JSON."""
    if orjson is not None:
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass  # NaN and the like: the standard parser decides
    return json.loads(line.decode("utf-8", "replace"))


# At most this much wall time is added to one move for time the bot spent
# runnable but waiting for a CPU, so a loaded host does not cause false timeouts.
MAX_LOAD_EXTENSION = 5.0


@dataclass(frozen=True)
class Forfeit:
    """Why a seat lost its right to play: shown to the bot's author."""

    reason: str


class Player(Protocol):
    def start(self, info: dict[str, Any]) -> Forfeit | None: ...

    def act(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any | Forfeit: ...

    def end(self, result: dict[str, Any]) -> None: ...

    def close(self) -> str:
        """Stop the bot; return its captured stderr (bounded)."""
        ...


class InProcessPlayer:
    """A trusted bot called in this process: no isolation, no limits."""

    def __init__(self, bot: LoadedBot) -> None:
        self.bot = bot

    def start(self, info: dict[str, Any]) -> Forfeit | None:
        if self.bot.setup is not None:
            try:
                self.bot.setup(info)
            except Exception as exc:
                return Forfeit(f"setup raised {type(exc).__name__}: {exc}")
        return None

    def act(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any | Forfeit:
        try:
            return self.bot.act(observation, legal_actions)
        except Exception as exc:
            return Forfeit(f"bot raised {type(exc).__name__}: {exc}")

    def end(self, result: dict[str, Any]) -> None:
        if self.bot.end is not None:
            with contextlib.suppress(Exception):
                self.bot.end(result)

    def close(self) -> str:
        return ""


class ProcessPlayer:
    """A bot in its own process, spoken to over JSON lines with deadlines."""

    def __init__(self, process: subprocess.Popen[bytes], limits: Limits) -> None:
        self.process = process
        self.limits = limits
        self.bank = limits.time_bank_seconds
        self.output_total = 0
        self.stderr = bytearray()
        self.stderr_dropped = 0
        self._pending = bytearray()
        self._selector = selectors.DefaultSelector()
        assert process.stdout is not None and process.stderr is not None
        for stream in (process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)
            self._selector.register(stream, selectors.EVENT_READ)
        assert process.stdin is not None
        # Writes never block: a bot that stops reading must not stall the referee.
        self._stdin_fd = process.stdin.fileno()
        os.set_blocking(self._stdin_fd, False)
        self._stdin_open = True
        self.cpu_seconds = 0.0
        self._move_started = 0.0
        self._move_budget = 0.0
        self._starved_at_start: float | None = None
        self._cpu_at_start: float | None = None

    # ----- protocol -------------------------------------------------------------

    def start(self, info: dict[str, Any]) -> Forfeit | None:
        message = {"type": "start", **info, "limits": self.limits.to_dict()}
        problem = self._send(message, time.monotonic() + self.limits.startup_seconds)
        return problem

    def act(self, observation: dict[str, Any], legal_actions: list[Any]) -> Any | Forfeit:
        started = self._move_started = time.monotonic()
        self._move_budget = self.limits.move_seconds + self.bank
        self._starved_at_start = self._measure("starved_seconds")
        self._cpu_at_start = self._measure("cpu_seconds")
        deadline = started + self._move_budget
        problem = self._send(
            {"type": "act", "observation": observation, "legal_actions": legal_actions}, deadline
        )
        if problem is not None:
            return problem
        reply = self._read_line(deadline)
        if isinstance(reply, Forfeit):
            return reply
        if time.monotonic() - started > self.limits.move_seconds:
            overrun = self._charged() - self.limits.move_seconds
            if overrun > 0:
                self.bank = max(0.0, self.bank - overrun)
        try:
            message = decode_line(reply)
        except ValueError:
            return Forfeit(f"reply is not JSON: {reply[:80].decode('utf-8', 'replace')!r}")
        if not isinstance(message, dict):
            return Forfeit("reply is not a JSON object")
        if "error" in message:
            return Forfeit(str(message["error"])[:500])
        if "action" not in message:
            return Forfeit('reply has no "action" key')
        return message["action"]

    def end(self, result: dict[str, Any]) -> None:
        if self.process.poll() is None:
            self._send({"type": "end", "result": result}, time.monotonic() + 0.5)

    def close(self) -> str:
        self._kill()
        self._drain_stderr()
        self._selector.close()
        text = self.stderr.decode("utf-8", "replace")
        if self.stderr_dropped:
            text += f"\n[... {self.stderr_dropped} more bytes of stderr dropped]"
        return text

    # ----- plumbing -------------------------------------------------------------

    def _measure(self, name: str) -> float | None:
        """A reading the launcher's process may offer (workers/sandbox.py does)."""
        reader = getattr(self.process, name, None)
        if reader is None:
            return None
        try:
            value = reader()
        except OSError:
            return None
        return float(value) if isinstance(value, float | int) else None

    def _charged(self) -> float:
        """Time this move counts against the bot: wall time, less the time it was
        runnable but waited for a CPU, and never less than the CPU it used."""
        wall = time.monotonic() - self._move_started
        starved_now = self._measure("starved_seconds")
        if self._starved_at_start is None or starved_now is None:
            return wall
        starved = max(0.0, starved_now - self._starved_at_start)
        cpu_now = self._measure("cpu_seconds")
        cpu = 0.0
        if self._cpu_at_start is not None and cpu_now is not None:
            cpu = max(0.0, cpu_now - self._cpu_at_start)
        return max(wall - starved, cpu)

    def _send(self, message: dict[str, Any], deadline: float) -> Forfeit | None:
        data = encode_line(message)
        if not self._stdin_open:
            return self._exit_reason()
        # A bot that has exited is found by the write: a pipe without a reader
        # fails with EPIPE (Python ignores SIGPIPE).
        view = memoryview(data)
        while view:
            try:
                written = os.write(self._stdin_fd, view)
                view = view[written:]
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return Forfeit("timed out: stopped reading its input")
                self._pump(min(0.01, max(0.0, deadline - time.monotonic())))
            except (BrokenPipeError, OSError):
                self._stdin_open = False
                return self._exit_reason()
        return None

    def _read_line(self, deadline: float) -> bytes | Forfeit:
        extended = 0.0
        while True:
            newline = self._pending.find(b"\n")
            if newline >= 0:
                line = bytes(self._pending[:newline])
                del self._pending[: newline + 1]
                return line
            if len(self._pending) > self.limits.output_bytes_per_move:
                return Forfeit(
                    f"flooded its output: over {self.limits.output_bytes_per_move} bytes in one move"
                )
            if self.output_total > self.limits.output_bytes_per_match:
                return Forfeit("flooded its output: over the per-match output limit")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                # The reply may be waiting unread if this process was slow to wake,
                # and time the bot spent waiting for a CPU on a loaded host is not its own.
                self._pump(0)
                if b"\n" in self._pending:
                    continue
                missing = self._move_budget - self._charged()
                if missing > 0.001 and extended < MAX_LOAD_EXTENSION:
                    step = min(missing, MAX_LOAD_EXTENSION - extended)
                    deadline = time.monotonic() + step
                    extended += step
                    continue
                return Forfeit(
                    f"timed out: no move within {self.limits.move_seconds:g}s "
                    "and the time bank is empty"
                )
            if self._pump(remaining) == "eof":
                return self._exit_reason()

    def _pump(self, timeout: float) -> str | None:
        """Move available bytes from the bot's pipes into buffers."""
        assert self.process.stdout is not None
        for key, _ in self._selector.select(timeout):
            try:
                chunk = os.read(key.fd, 65536)
            except BlockingIOError:
                continue
            if key.fileobj is self.process.stdout:
                if not chunk:
                    return "eof"
                self._pending += chunk
                self.output_total += len(chunk)
            else:
                if not chunk:
                    self._selector.unregister(key.fileobj)
                    continue
                self._keep_stderr(chunk)
        return None

    def _keep_stderr(self, chunk: bytes) -> None:
        # stderr is read in full (only its head is kept), so it counts towards the
        # per-match output limit: a bot cannot keep the referee busy reading it.
        self.output_total += len(chunk)
        room = self.limits.stderr_bytes - len(self.stderr)
        self.stderr += chunk[: max(room, 0)]
        self.stderr_dropped += max(len(chunk) - max(room, 0), 0)

    def _drain_stdout(self) -> None:
        stream = self.process.stdout
        if stream is None:
            return
        try:
            while len(self._pending) <= self.limits.output_bytes_per_move:
                chunk = os.read(stream.fileno(), 65536)
                if not chunk:
                    return
                self._pending += chunk
                self.output_total += len(chunk)
        except (BlockingIOError, OSError, ValueError):
            pass

    def _drain_stderr(self) -> None:
        stream = self.process.stderr
        if stream is None:
            return
        try:
            while chunk := os.read(stream.fileno(), 65536):
                self._keep_stderr(chunk)
        except (BlockingIOError, OSError, ValueError):
            pass

    def _exit_reason(self) -> Forfeit:
        # The runner's last line names the failure when the bot itself raised;
        # it may still sit unread in the pipe when a write found the bot gone.
        self._drain_stdout()
        for line in self._pending.decode("utf-8", "replace").splitlines():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict) and "error" in message:
                return Forfeit(str(message["error"])[:500])
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return Forfeit("closed its output")
        if code < 0:
            name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else ""
            hint = {
                "SIGKILL": " (killed: memory, CPU time or another hard limit)",
                "SIGXCPU": " (CPU time limit)",
                "SIGXFSZ": " (file size limit)",
                "SIGSEGV": " (crashed)",
            }.get(name, "")
            # A launcher that knows why the kernel killed the bot says so (workers/sandbox.py).
            cause = getattr(self.process, "death_cause", None)
            if isinstance(cause, str) and cause:
                hint = f" ({cause})"
            return Forfeit(f"process died on signal {name or -code}{hint}")
        return Forfeit(f"process exited with status {code}")

    def _kill(self) -> None:
        killed = False
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
                killed = True
            except (ProcessLookupError, PermissionError):
                self.process.kill()
        if killed:
            # SIGKILL cannot be ignored: a blocking wait returns as soon as the
            # kernel has finished it, where a timed wait polls in growing sleeps.
            self.process.wait()
        else:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
        for stream in (self.process.stdin,):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
