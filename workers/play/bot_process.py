"""One bot process serving one or many matches: requests out, answers in, on time.

The referee posts requests tagged with their match, `flush` sends all of them in one
write, and the answers are read as they come. Each answer is timed on arrival, from
when the bot could start on it (the later of the write and the previous answer: the
runner answers in order), so the per-move limit and the time bank stay per match.
Faults stay per match where they can: a timeout or a bad answer forfeits that match;
a process that dies or floods its output forfeits every match it was still playing.

Everything a bot writes is checked here before the referee uses it: a line is decoded
within bounds (workers/play/protocol.py), a reply's "match" must name one of this bot's
requests, and an error while reading a bot's output forfeits that bot, never the set.
"""

from __future__ import annotations

import contextlib
import logging
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Any

from workers.play.protocol import (
    LONE,
    MAX_LOAD_EXTENSION,
    Answer,
    Forfeit,
    ReplyRefused,
    decode_line,
    encode_line,
)
from workers.sandbox import code_cache
from workers.sandbox.limits import Limits

log = logging.getLogger(__name__)

# How old the cgroup readings a move's charge starts from may be (see `_charged`).
READINGS_MAX_AGE = 0.01
# How much of a dead bot's unread output is searched for the runner's error line (its
# last line, under ~3 KB: a 500-character reason, escaped).
EXIT_TAIL_BYTES = 16 << 10


@dataclass
class _Request:
    match: Any
    budget: float  # move limit + this match's bank when it was sent
    deadline: float = 0.0
    extended: float = 0.0
    warmup: float = 0.0  # the runtime's start-up allowance, on the process's first move


class BotProcess:
    """A bot in its own process, spoken to over JSON lines with deadlines.

    `matches` is how many matches the process plays: the per-match output limit
    scales with it (the stderr cap does not: it is one process's text).
    """

    def __init__(self, process: subprocess.Popen[bytes], limits: Limits, matches: int = 1) -> None:
        self.process = process
        self.limits = limits
        self.dead: Forfeit | None = None
        self.banks: dict[Any, float] = {}
        self.output_total = 0
        self.output_limit = limits.output_bytes_per_match * max(1, matches)
        self.stderr = bytearray()
        self.stderr_dropped = 0
        self._pending = bytearray()
        self._outbox: list[bytes] = []
        self._requests: list[_Request] = []  # unanswered, in the order sent
        self._abandoned: set[Any] = set()  # timed out: a late answer is dropped
        self._answers: list[Answer] = []
        self._last_error: str | None = None
        self.cpu_used: float | None = None
        self._stderr_text: str | None = None  # set once stopped
        self._killed = False
        self._clock = 0.0  # when the bot could start on the oldest unanswered request
        self._starved_at: float | None = None
        self._cpu_at: float | None = None
        self._read_at = -READINGS_MAX_AGE  # when the cgroup readings were last taken
        assert process.stdout is not None and process.stderr is not None
        for stream in (process.stdout, process.stderr):
            os.set_blocking(stream.fileno(), False)
        assert process.stdin is not None
        # Writes never block: a bot that stops reading must not stall the referee.
        self._stdin_fd = process.stdin.fileno()
        os.set_blocking(self._stdin_fd, False)
        self._stdin_open = True
        self.stdout_fd = process.stdout.fileno()
        self.stderr_fd: int | None = process.stderr.fileno()
        # The runner's first line is its compiled code, for the cache (workers/sandbox/code_cache.py).
        code_key = getattr(process, "code_key", None)
        self._code_key: str | None = code_key if isinstance(code_key, str) else None
        # A runtime that starts slowly (a JVM) gets its start-up on top of its first move,
        # charged to no bank (arena/languages.py, measured in docs/bot-authors/languages.md).
        warmup = getattr(process, "warmup_seconds", 0.0)
        self._warmup = float(warmup) if isinstance(warmup, int | float) else 0.0

    # ----- requests ------------------------------------------------------------------------

    def post(self, match: Any, message: dict[str, Any]) -> None:
        if self.dead is not None:
            return
        kind = message["type"]
        if kind == "act":
            bank = self.banks.setdefault(match, self.limits.time_bank_seconds)
            warmup, self._warmup = self._warmup, 0.0
            budget = self.limits.move_seconds + bank + warmup
            self._requests.append(_Request(match, budget, warmup=warmup))
        elif kind == "start":
            message = {**message, "limits": self.limits.to_dict()}
        if match is not LONE:
            message = {"match": match, **message}
        self._outbox.append(encode_line(message))

    def flush(self) -> None:
        """Send everything posted in one write; a bot that has gone is found here."""
        if not self._outbox or self.dead is not None:
            self._outbox.clear()
            return
        data = b"".join(self._outbox)
        self._outbox.clear()
        now = time.monotonic()
        if not any(request.deadline for request in self._requests):
            self._clock = now  # nothing was in flight: the bot starts on these now
        if now - self._read_at > READINGS_MAX_AGE:
            self._read_at = now
            self._starved_at = self._measure("starved_seconds")
            self._cpu_at = self._measure("cpu_seconds")
        # A write may need the bot to read first (a full pipe): it gets the first
        # request's time to do so.
        budget = self._requests[0].budget if self._requests else self.limits.move_seconds
        problem = self._write(data, now + budget)
        if problem is not None:
            self._die(problem)
            return
        self._arm()

    def _arm(self) -> None:
        """Start the clock of the oldest unanswered request, if it has not started."""
        if self._requests and not self._requests[0].deadline:
            self._requests[0].deadline = self._clock + self._requests[0].budget

    def waiting(self) -> bool:
        return bool(self._requests) and self.dead is None

    def next_deadline(self) -> float | None:
        return self._requests[0].deadline if self._requests and self.dead is None else None

    def take_answers(self) -> list[Answer]:
        answers, self._answers = self._answers, []
        return answers

    # ----- reading -------------------------------------------------------------------------

    def on_readable(self, fd: int) -> None:
        """Read what the bot wrote on `fd` and turn complete lines into answers.

        Never raises: an error while handling this bot's output (a bug the bot found)
        forfeits this bot's matches, not the set and not its opponents."""
        try:
            self._read(fd)
        except Exception as exc:
            log.exception("handling a bot's output failed; the bot forfeits")
            self._die(Forfeit(f"its output could not be handled ({type(exc).__name__})"), kill=True)

    def _read(self, fd: int) -> None:
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if fd == self.stderr_fd:
            if chunk:
                self._keep_stderr(chunk)
            else:
                self.stderr_fd = None
            return
        if not chunk:
            self._die(self._exit_reason())
            return
        self._pending += chunk
        self.output_total += len(chunk)
        self._parse_lines()

    def _parse_lines(self) -> None:
        pending = self._pending
        if pending.endswith(b"\n"):
            # The usual case: whole lines only.
            lines = pending.split(b"\n")
            lines.pop()
            pending.clear()
        else:
            lines = pending.split(b"\n")
            pending[:] = lines.pop()
        now = time.monotonic()
        last = len(lines) - 1
        for index, line in enumerate(lines):
            if self.dead is not None:
                return
            # Lines read together are timed together: the wait goes to the last of them
            # (the runner answers in order, each as soon as it has it).
            self._on_line(line, now if index == last else self._clock)
        if self.dead is not None:
            return
        if len(pending) > self.limits.output_bytes_per_move:
            self._die(
                Forfeit(
                    f"flooded its output: over {self.limits.output_bytes_per_move} bytes in one move"
                ),
                kill=True,
            )
        elif self.output_total > self.output_limit:
            self._die(Forfeit("flooded its output: over the per-match output limit"), kill=True)

    def _on_line(self, line: bytes | bytearray, now: float) -> None:
        if self._code_key is not None:
            # Only the first line, written before any of the bot's own code ran. A code
            # line is the runner's, never an answer: it is taken out whether or not the
            # cache keeps it (a full cache once made every new bot's code line an answer
            # to its first request, a forfeit).
            key, self._code_key = self._code_key, None
            if code_cache.is_code_line(line):
                code_cache.store(key, line)
                return
        try:
            message = decode_line(line)
        except ReplyRefused as exc:
            message = Forfeit(str(exc))
        except ValueError:
            message = Forfeit(f"reply is not JSON: {line[:80].decode('utf-8', 'replace')!r}")
        requests = self._requests
        if (
            type(message) is dict
            and len(message) == 2
            and "action" in message
            and "match" in message
            and requests
            and not self._abandoned
            and type(message["match"]) is int
            and requests[0].match == message["match"]
        ):
            # The usual answer ({"match": m, "action": a} to the oldest request), in
            # short: the checks below, for it, come to this.
            request = requests.pop(0)
            started = self._clock
            self._clock = now
            if now - started > self.limits.move_seconds:
                self._charge_overrun(request, started, now)
            self._answers.append((request.match, message["action"]))
            if requests:  # the bot starts on the next one now
                requests[0].deadline = 0.0
                requests[0].extended = 0.0
            self._arm()
            return
        if isinstance(message, dict) and "error" in message and "match" not in message:
            # The runner failed outside any one match (loading the bot): it is exiting.
            self._die(Forfeit(str(message["error"])[:500]))
            return
        if isinstance(message, dict) and "error" in message:
            self._last_error = str(message["error"])[:500]
        key = message.get("match", LONE) if isinstance(message, dict) else LONE
        if isinstance(message, dict) and _is_key(key) and key in self._abandoned:
            # A late answer to a request that timed out: dropped. The bot starts on the
            # next one only now, so that one's clock starts now (a bot stuck for good
            # loses its other requests one by one, each after its own time).
            self._abandoned.discard(key)
            self._clock = now
            if self._requests:
                self._requests[0].deadline = 0.0
                self._requests[0].extended = 0.0
                self._arm()
            return
        if not self._requests:
            return  # nothing was asked: a stray line (counted against the output limits)
        index = 0
        # A line that names no request (not JSON, or a "match" it was not asked about)
        # is charged to the oldest one.
        unnamed = not isinstance(message, dict)
        if isinstance(message, dict):
            index = self._index_of(key)
            if index < 0:
                message = Forfeit(_unasked(key))
                index = 0
                unnamed = True
        request = self._requests.pop(index)
        if unnamed:
            # The runner's own answer to this request may still follow the stray line:
            # dropped as late, never taken for the next request (another match's).
            self._abandoned.add(request.match)
        started = self._clock
        self._clock = now
        answer: Any
        if isinstance(message, Forfeit):
            answer = message
        elif not isinstance(message, dict):
            answer = Forfeit("reply is not a JSON object")
        elif "error" in message:
            answer = Forfeit(str(message["error"])[:500])
        elif "action" not in message:
            answer = Forfeit('reply has no "action" key')
        else:
            answer = message["action"]
            if now - started > self.limits.move_seconds:
                self._charge_overrun(request, started, now)
        self._answers.append((request.match, answer))
        if self._requests:  # the bot starts on the next one now
            self._requests[0].deadline = 0.0
            self._requests[0].extended = 0.0
        self._arm()

    def _index_of(self, key: Any) -> int:
        """Which unanswered request `key` names, or -1. Only an int names a match (or
        no key, LONE, the one-match view): `true` is not match 1, nor 7.0 match 7."""
        if not _is_key(key):
            return -1
        for index, request in enumerate(self._requests):
            if request.match == key:
                return index
        return -1

    def _charge_overrun(self, request: _Request, started: float, now: float) -> None:
        """A move past its limit draws the excess from its match's time bank."""
        overrun = self._charged(started, now) - self.limits.move_seconds - request.warmup
        if overrun > 0:
            bank = self.banks.get(request.match, 0.0)
            self.banks[request.match] = max(0.0, bank - overrun)

    def check_time(self, now: float) -> None:
        """Forfeit the oldest request if its time is up (after any load extension)."""
        if self.dead is not None or not self._requests:
            return
        request = self._requests[0]
        if now < request.deadline:
            return
        # Time the bot waited for a CPU on a loaded host is not its own.
        missing = request.budget - self._charged(self._clock, now)
        if missing > 0.001 and request.extended < MAX_LOAD_EXTENSION:
            step = min(missing, MAX_LOAD_EXTENSION - request.extended)
            request.deadline = now + step
            request.extended += step
            return
        self._requests.pop(0)
        self._abandoned.add(request.match)
        self.banks[request.match] = 0.0
        self._answers.append(
            (
                request.match,
                Forfeit(
                    f"timed out: no move within {self.limits.move_seconds:g}s "
                    "and the time bank is empty"
                ),
            )
        )
        self._clock = now
        self._arm()

    # ----- the end -------------------------------------------------------------------------

    def _die(self, reason: Forfeit, kill: bool = False) -> None:
        if self.dead is not None:
            return
        self.dead = reason
        for request in self._requests:
            self._answers.append((request.match, reason))
        self._requests.clear()
        if kill:
            self._kill()

    def stop(self) -> str:
        """Kill the bot without waiting for the kernel to finish it; its stderr (bounded).

        What the bot wrote before the kill is in the pipe already, so the text is final.
        `close` then waits for the end (~4 ms a sandbox, mostly the kernel tearing down
        its namespaces), which a caller with other work to do can leave to a thread."""
        if self._stderr_text is None:
            # What the sandbox used in all (its cgroup's CPU time), for benchmarks and logs.
            self.cpu_used = self._measure("cpu_seconds")
            self._killed = self._send_kill()
            self._drain_stderr()
            text = self.stderr.decode("utf-8", "replace")
            if self.stderr_dropped:
                text += f"\n[... {self.stderr_dropped} more bytes of stderr dropped]"
            self._stderr_text = text
        return self._stderr_text

    def close(self) -> str:
        """Stop the bot and wait until it is gone; its stderr (bounded)."""
        text = self.stop()
        self._reap(self._killed)
        return text

    # ----- plumbing ------------------------------------------------------------------------

    def _measure(self, name: str) -> float | None:
        """A reading the launcher's process may offer (workers/sandbox/bubblewrap.py does)."""
        reader = getattr(self.process, name, None)
        if reader is None:
            return None
        try:
            value = reader()
        except OSError:
            return None
        return float(value) if isinstance(value, float | int) else None

    def _charged(self, started: float, now: float) -> float:
        """Time a move counts against the bot: wall time, less the time it was runnable
        but waited for a CPU, and never less than the CPU it used.

        The readings are taken at a write at most every READINGS_MAX_AGE (not per move,
        nor per write: two cgroup files read per write cost ~0.5 ms a match of quick
        bots), so both are bounds over the time since the reading: lenient on
        starvation, and the CPU used before this move started is taken off (one core at
        most). A move is charged at most READINGS_MAX_AGE less than its exact figure."""
        wall = now - started
        starved_now = self._measure("starved_seconds")
        if self._starved_at is None or starved_now is None:
            return wall
        starved = max(0.0, starved_now - self._starved_at)
        cpu_now = self._measure("cpu_seconds")
        cpu = 0.0
        if self._cpu_at is not None and cpu_now is not None:
            cpu = max(0.0, cpu_now - self._cpu_at - max(0.0, started - self._read_at))
        return max(wall - starved, cpu)

    def _write(self, data: bytes, deadline: float) -> Forfeit | None:
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
                self._wait_readable(min(0.01, max(0.0, deadline - time.monotonic())))
                if self.dead is not None:
                    return self.dead
            except OSError:
                self._stdin_open = False
                return self._exit_reason()
        return None

    def _wait_readable(self, timeout: float) -> None:
        """While a write waits: keep the bot's output pipes moving."""
        with selectors.DefaultSelector() as selector:
            for fd in (self.stdout_fd, self.stderr_fd):
                if fd is not None:
                    selector.register(fd, selectors.EVENT_READ)
            for key, _ in selector.select(timeout):
                self.on_readable(key.fd)

    def _keep_stderr(self, chunk: bytes) -> None:
        # stderr is read in full (only its head is kept), so it counts towards the
        # output limit: a bot cannot keep the referee busy reading it.
        self.output_total += len(chunk)
        room = self.limits.stderr_bytes - len(self.stderr)
        self.stderr += chunk[: max(room, 0)]
        self.stderr_dropped += max(len(chunk) - max(room, 0), 0)

    def _drain_stdout(self) -> None:
        try:
            while len(self._pending) <= self.limits.output_bytes_per_move:
                chunk = os.read(self.stdout_fd, 65536)
                if not chunk:
                    return
                self._pending += chunk
                self.output_total += len(chunk)
        except (BlockingIOError, OSError, ValueError):
            pass

    def _drain_stderr(self) -> None:
        if self.process.stderr is None:
            return
        try:
            while chunk := os.read(self.process.stderr.fileno(), 65536):
                self._keep_stderr(chunk)
        except (BlockingIOError, OSError, ValueError):
            pass

    def _exit_reason(self) -> Forfeit:
        # The runner's last line names the failure when the bot itself raised;
        # it may still sit unread in the pipe when a write found the bot gone.
        self._drain_stdout()
        if self._last_error is not None:
            return Forfeit(self._last_error)
        # Only the tail, with the bounded decoder: what a bot left unread is its own
        # (up to a move's output limit, megabytes), and may be anything.
        for line in reversed(bytes(self._pending[-EXIT_TAIL_BYTES:]).splitlines()):
            try:
                message = decode_line(line)
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
            # A launcher that knows why the kernel killed the bot says so (workers/sandbox/bubblewrap.py).
            cause = getattr(self.process, "death_cause", None)
            if isinstance(cause, str) and cause:
                hint = f" ({cause})"
            return Forfeit(f"process died on signal {name or -code}{hint}")
        return Forfeit(f"process exited with status {code}")

    def _kill(self) -> None:
        self._reap(self._send_kill())

    def _send_kill(self) -> bool:
        """SIGKILL the bot's processes unless it has ended; whether the signal went."""
        if self.process.poll() is not None:
            return False
        try:
            kill_tree = getattr(self.process, "kill_tree", None)
            if kill_tree is not None:
                kill_tree()  # a zygote lane's bot notes its tree first (workers/sandbox/zygote_lanes.py)
            else:
                os.killpg(self.process.pid, signal.SIGKILL)
            return True
        except (ProcessLookupError, PermissionError):
            self.process.kill()
            return False

    def _reap(self, killed: bool) -> None:
        if killed:
            # SIGKILL cannot be ignored: a blocking wait returns as soon as the
            # kernel has finished it, where a timed wait polls in growing sleeps.
            self.process.wait()
        else:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=5)
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()


def _is_key(key: Any) -> bool:
    """Whether a reply's "match" can name a request: the referee's keys are ints (a bool
    is not one), or LONE when the reply has none."""
    return key is LONE or type(key) is int


_KINDS = {bool: "a boolean", float: "a number", str: "a string", list: "a list", dict: "an object"}


def _unasked(key: Any) -> str:
    """The forfeit for a reply naming no request of the bot's. A key that is not an int
    is described, never quoted: it is the bot's own text (a lone surrogate, megabytes)."""
    if type(key) is int:
        return f"answered for match {str(key)[:40]}, which it was not asked about"
    if key is LONE:
        return 'answered without a "match" while playing a set'
    kind = _KINDS.get(type(key), type(key).__name__)
    return f'answered with a "match" that is {kind}, not the id of a match it was asked about'
