"""Run one bot file as a JSON-lines player on stdin/stdout.

    python -I -S runner.py [--lib DIR]... path/to/bot.py        (or a .zip holding bot.py)

This file is self-contained (standard library only, no package imports) because
the arena starts it inside a sandbox that holds only the interpreter, this file
and the bot. A bot defines `act(observation, legal_actions)`, or a class `Bot`
with `act` and optional `setup(info)` and `end(result)`.

One process plays every match of a set (matches between the same bot versions):
each message names its match, the referee interleaves the set's matches and may
send several requests in one write, and the runner answers each as soon as the bot
has decided, in the order asked. Protocol (one JSON object per line):
    -> {"type": "start", "match": 7, "game": ..., "seat": 0, "players": 3, "options": {}, "limits": {}}
    -> {"type": "act", "match": 7, "observation": {...}, "legal_actions": [...]}
    <- {"match": 7, "action": <one of legal_actions>}
    -> {"type": "end", "match": 7, "result": {...}}
The input closing ends the set. A message without "match" is a single match typed
by hand: the reply has no "match" either, and its "end" ends the process.

Memory: a class `Bot` gets one instance per match (its attributes are that match's
own); the module, its globals and anything cached there live for the whole set, so
a bot may learn across the set's matches. Function bots share their globals between
the interleaved matches: keep per-match state on a `Bot` instance.

When the bot fails, the runner prints {"match": ..., "error": "<reason>"} and exits
with status 1 (the referee forfeits every match it was still playing); the traceback
goes to stderr, which the bot's author can read.
"""

from __future__ import annotations

import sys

# Start-up time is paid once per bot per match, so this file imports almost
# nothing: no os, no typing, and JSON through the C accelerator `_json` rather
# than the `json` package (which pulls in re and enum: ~10 ms a start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MAX_BOT_BYTES = 1 << 20


class _ScannerContext:
    """The attributes `_json.make_scanner` reads: the defaults of json.JSONDecoder."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo: dict[str, str] = {}

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}[name]


def _reject(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


try:
    import _json

    _scan = _json.make_scanner(_ScannerContext())  # type: ignore[arg-type]
    _encode = _json.make_encoder(
        None, _reject, _json.encode_basestring_ascii, None, ":", ",", False, False, True
    )

    def _std_loads(data: bytes | str) -> Any:
        text = (data.decode("utf-8") if isinstance(data, bytes | bytearray) else data).strip()
        try:
            value, end = _scan(text, 0)
        except StopIteration:
            raise ValueError("not JSON") from None
        if end != len(text):
            raise ValueError("extra data after JSON")
        return value

    def _std_dumps(value: Any) -> bytes:
        return "".join(_encode(value, 0)).encode()

except (ImportError, AttributeError, TypeError):  # another Python: the plain package
    import json

    _scan = None  # type: ignore[assignment]

    def _std_loads(data: bytes | str) -> Any:
        return json.loads(data)

    def _std_dumps(value: Any) -> bytes:
        return json.dumps(value, separators=(",", ":")).encode()


def _load_orjson() -> Any:
    """orjson when a --lib folder holds it (the sandbox binds the worker's copy read-only).

    Its initialisation imports datetime, uuid, dataclasses, json and enum only to look
    up a few types it can serialise (~35 ms a start, more than a whole match of quick
    bots; enum alone, through functools and collections, ~3.5 ms of CPU of a ~19 ms
    sandboxed start); the protocol never carries them, so small stand-ins answer those
    look-ups and are removed again, and a bot importing those modules gets the real
    ones. An `Enum` a bot returns is then not orjson's: `dumps` falls back to the
    standard encoder, which writes an `IntEnum` or `StrEnum` by value, as orjson would,
    and refuses a plain `Enum` (as the standard codec always did). Anything unexpected
    (another orjson, no orjson) leaves the standard codec in place.
    """
    names = ("datetime", "uuid", "dataclasses", "json", "enum")
    saved = {name: sys.modules.get(name) for name in names}
    try:
        import _datetime  # type: ignore[import-not-found]

        module = type(sys)

        class _UUID:
            pass

        uuid_stub = module("uuid")
        uuid_stub.UUID = _UUID  # type: ignore[attr-defined]
        uuid_stub.NAMESPACE_DNS = _UUID()  # type: ignore[attr-defined]
        fields_stub = module("dataclasses")
        fields_stub._FIELD = object()  # type: ignore[attr-defined]
        json_stub = module("json")
        json_stub.JSONDecodeError = type("JSONDecodeError", (ValueError,), {})  # type: ignore[attr-defined]
        enum_stub = module("enum")
        enum_stub.EnumMeta = type("EnumMeta", (type,), {})  # type: ignore[attr-defined]
        stubs = (_datetime, uuid_stub, fields_stub, json_stub, enum_stub)
        for name, stub in zip(names, stubs, strict=True):
            if saved[name] is None:
                sys.modules[name] = stub
        import orjson

        if orjson.loads(orjson.dumps({"a": [1, 2.5, None, "é"]})) != {"a": [1, 2.5, None, "é"]}:
            return None
        return orjson
    except Exception:
        return None
    finally:
        for name in names:
            if saved[name] is None:
                sys.modules.pop(name, None)


_orjson: Any = None


def use_fast_codec() -> bool:
    """Switch loads/dumps to orjson if it can be imported; True if it was."""
    global _orjson
    if _orjson is None:
        _orjson = _load_orjson() or False
    return bool(_orjson)


def loads(data: bytes | str) -> Any:
    """One protocol line (bytes) to a value; ValueError when it is not JSON."""
    if _orjson:
        try:
            return _orjson.loads(data)
        except ValueError:
            pass  # NaN and the like: the standard parser decides
    return _std_loads(data)


def dumps(value: Any) -> bytes:
    """A value to one compact JSON text (bytes, no newline); TypeError/ValueError if it is not JSON."""
    if _orjson:
        try:
            return _orjson.dumps(value)  # type: ignore[no-any-return]
        except TypeError:
            pass  # integers past 64 bits, non-string keys: the standard encoder decides
    return _std_dumps(value)


class LazyObservation:
    """An observation decoded on first use, for bots that set `LAZY_OBSERVATION = True`.

    A bot that often answers without reading its observation (a random bot) saves the
    decoding (~10-20 us a move for 2 KB of JSON). It is a read-only mapping, not a
    dict: `dict(observation)` or `observation.value()` gives the decoded dict.
    """

    __slots__ = ("_text", "_value")

    def __init__(self, text: str) -> None:
        self._text = text
        self._value: dict[str, Any] | None = None

    def value(self) -> dict[str, Any]:
        if self._value is None:
            value = loads(self._text.encode())
            if not isinstance(value, dict):
                raise ValueError("the observation is not a JSON object")
            self._value = value
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self.value()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.value().get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self.value()

    def __iter__(self) -> Any:
        return iter(self.value())

    def __len__(self) -> int:
        return len(self.value())

    def keys(self) -> Any:
        return self.value().keys()

    def items(self) -> Any:
        return self.value().items()

    def values(self) -> Any:
        return self.value().values()

    def __eq__(self, other: object) -> bool:
        return self.value() == (other.value() if isinstance(other, LazyObservation) else other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(self.value())


_ACT_HEAD = '{"match":'
_ACT_TYPE = ',"type":"act","legal_actions":'
_ACT_OBSERVATION = ',"observation":'


def split_act(line: bytes) -> tuple[Any, Any, LazyObservation] | None:
    """(match, legal actions, lazy observation) of an act request laid out as the referee
    writes it ({"match":..,"type":"act","legal_actions":..,"observation":..}), or None
    for any other line (which is then decoded whole). The observation's JSON is checked
    when the bot first reads it (ValueError then, a forfeit like any error in `act`):
    only the referee writes these lines."""
    if _scan is None or not line.startswith(b'{"match":'):
        return None
    try:
        text = line.decode("utf-8").rstrip()
        match, at = _scan(text, len(_ACT_HEAD))
        if not text.startswith(_ACT_TYPE, at):
            return None
        legal, at = _scan(text, at + len(_ACT_TYPE))
    except (StopIteration, ValueError, UnicodeDecodeError):
        return None
    if not text.startswith(_ACT_OBSERVATION, at) or not text.endswith("}"):
        return None
    if not isinstance(legal, list):
        return None
    return match, legal, LazyObservation(text[at + len(_ACT_OBSERVATION) : -1])


class BotLoadError(Exception):
    """A bot file that cannot be turned into a player; the message says why."""


class LoadedBot:
    """An author's bot, whichever of the two accepted shapes it has."""

    def __init__(
        self,
        act: Callable[[Any, list[Any]], Any],
        setup: Callable[[Any], Any] | None = None,
        end: Callable[[Any], Any] | None = None,
        bot_class: type | None = None,
        lazy: bool = False,
    ) -> None:
        self.act = act
        self.setup = setup
        self.end = end
        self.bot_class = bot_class
        self.lazy = lazy  # the module set LAZY_OBSERVATION = True

    def for_match(self) -> LoadedBot:
        """The player for one more match: a new `Bot()` for class bots, itself for functions."""
        if self.bot_class is None:
            return self
        return _from_class(self.bot_class, self.lazy)


def _is_zip(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"PK\x03\x04"
    except OSError:
        return False


def _text(data: bytes) -> str:
    # A leading byte order mark is valid Python source. Stripped by hand: the
    # "utf-8-sig" codec is a module to import, on every bot's start-up.
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8")


def _read_source(path: str) -> tuple[str, str]:
    if _is_zip(path):
        # Imported only when needed: every millisecond of start-up counts per bot.
        import zipfile

        try:
            with zipfile.ZipFile(path) as archive:
                info = archive.getinfo("bot.py")
                if info.file_size > MAX_BOT_BYTES:
                    raise BotLoadError("bot.py in the zip is larger than 1 MiB")
                return _text(archive.read(info)), "bot.py"
        except KeyError:
            raise BotLoadError("the zip has no bot.py at its top level") from None
        except (zipfile.BadZipFile, UnicodeDecodeError, OSError) as exc:
            raise BotLoadError(f"cannot read the zip: {exc}") from None
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BOT_BYTES + 1)
    except FileNotFoundError:
        raise BotLoadError(f"no bot file at {path}") from None
    except OSError as exc:
        raise BotLoadError(f"cannot read {path}: {exc.strerror}") from None
    if len(data) > MAX_BOT_BYTES:
        raise BotLoadError("the bot file is larger than 1 MiB")
    try:
        return _text(data), path.rsplit("/", 1)[-1]
    except UnicodeDecodeError:
        raise BotLoadError("the bot file is not UTF-8 text") from None


def _cached_code(path: str) -> Any:
    """The bot's code as compiled by an earlier sandbox of the same source (the arena
    binds it read-only), or None: then the source is compiled as usual."""
    import marshal

    try:
        with open(path, "rb") as handle:
            code = marshal.loads(handle.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    return code if type(code) is type(_cached_code.__code__) else None


def load_bot(
    path: str, code_path: str | None = None, emit: Callable[[Any], None] | None = None
) -> LoadedBot:
    """Compile and run a bot file's top level, then find its `act` or `Bot`.

    `code_path`: compiled code to use instead of compiling the source (~3 ms a start
    for a 300-line bot); `emit` is given the code compiled from the source, before any
    of the bot's own code runs (see `serve`)."""
    code = _cached_code(code_path) if code_path else None
    if code is None:
        source, filename = _read_source(path)
        try:
            code = compile(source, filename, "exec")
        except (SyntaxError, ValueError) as exc:
            line = getattr(exc, "lineno", None)
            where = f" (line {line})" if line else ""
            raise BotLoadError(f"not valid Python: {getattr(exc, 'msg', exc)}{where}") from None
        if emit is not None:
            emit(code)
    module = type(sys)("bot")
    module.__file__ = path
    # Registered like an imported module, so code that looks its own module up (dataclasses
    # under `from __future__ import annotations`, pickle, typing) works as under `python`.
    sys.modules[module.__name__] = module
    try:
        exec(code, module.__dict__)
    except Exception as exc:
        raise BotLoadError(f"the bot failed while loading: {type(exc).__name__}: {exc}") from exc
    lazy = module.__dict__.get("LAZY_OBSERVATION") is True
    bot_class = module.__dict__.get("Bot")
    if isinstance(bot_class, type):
        return _from_class(bot_class, lazy)
    act = module.__dict__.get("act")
    if not callable(act):
        raise BotLoadError("the bot defines neither act(observation, legal_actions) nor class Bot")
    setup = module.__dict__.get("setup")
    end = module.__dict__.get("end")
    return LoadedBot(
        act, setup if callable(setup) else None, end if callable(end) else None, lazy=lazy
    )


def _from_class(bot_class: type, lazy: bool = False) -> LoadedBot:
    try:
        instance = bot_class()
    except Exception as exc:
        raise BotLoadError(f"Bot() failed: {type(exc).__name__}: {exc}") from exc
    act = getattr(instance, "act", None)
    if not callable(act):
        raise BotLoadError("class Bot has no act(observation, legal_actions) method")
    setup = getattr(instance, "setup", None)
    end = getattr(instance, "end", None)
    return LoadedBot(
        act, setup if callable(setup) else None, end if callable(end) else None, bot_class, lazy
    )


def _say(stream: Any, message: dict[str, Any]) -> None:
    # One write per answer, at once: the referee times each answer on arrival.
    data = memoryview(dumps(message) + b"\n")
    while data:
        data = data[stream.write(data) :]


def _fail(stream: Any, reason: str, match: Any = None) -> int:
    message: dict[str, Any] = {"error": reason[:500]}
    if match is not None:
        message = {"match": match, **message}
    _say(stream, message)
    return 1


# Before the first write of each move to stderr, one line naming it, so the replay viewer
# can show a bot's author what the bot wrote at that step: "\x1emove <match> <n>", the
# n-th decision this process made in that match (0: before its first, in `setup`).
MOVE_MARK = "\x1emove"


class TaggedStderr:
    """The bot's stderr, marked per move; a move that writes nothing costs no mark."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.move: tuple[Any, int] | None = None
        self._marked: tuple[Any, int] | None = None

    def write(self, text: str) -> int:
        move = self.move
        if move is not None and move is not self._marked and text:
            self._marked = move
            self._stream.write(f"{MOVE_MARK} {'-' if move[0] is None else move[0]} {move[1]}\n")
        return int(self._stream.write(text))

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _print_traceback(exc: BaseException) -> None:
    """For the bot's author, on stderr; a bot that exhausted its memory may not even
    have room to import `traceback`, and its forfeit must still be reported."""
    try:
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    except BaseException:
        sys.stderr.write(f"{type(exc).__name__}: {exc}\n")


def _reply(match: Any, action: Any) -> dict[str, Any]:
    return {"action": action} if match is None else {"match": match, "action": action}


def serve(
    path: str, stdin: Any, stdout: Any, code_path: str | None = None, emit_code: int = 0
) -> int:
    """Answer the referee until its input closes; return the process exit status.

    `stdin` yields protocol lines (bytes); `stdout` takes bytes (a raw file: each
    write is one system call, so each answer leaves as soon as it is decided).
    `emit_code` > 0: the code compiled from the source goes out first, as one line
    {"code": "<marshal, hex>"} of at most that many bytes, written before the bot's own
    code runs (so the arena can cache it: workers/sandbox/code_cache.py); `code_path`: such
    code, to load instead of compiling.
    """

    def emit(code: Any) -> None:
        import marshal

        text = marshal.dumps(code).hex()
        if len(text) + 12 <= emit_code:
            _say(stdout, {"code": text})

    try:
        bot = load_bot(path, code_path, emit if emit_code > 0 else None)
    except BotLoadError as exc:
        if exc.__cause__ is not None:
            _print_traceback(exc.__cause__)
        return _fail(stdout, str(exc))
    first = True
    playing: dict[Any, LoadedBot] = {}
    lazy = bot.lazy
    tag = sys.stderr if isinstance(sys.stderr, TaggedStderr) else None
    decisions: dict[Any, int] = {}
    # What loading made (the runner, the bot's module) lives for the whole set: kept out
    # of the collector's passes, which would otherwise walk it again and again.
    import gc

    gc.freeze()
    for line in stdin:
        act = split_act(line) if lazy else None
        if act is not None:
            match, legal, observation = act
            player = playing.get(match) or bot
            if tag is not None:
                tag.move = (match, decisions.get(match, 0) + 1)
                decisions[match] = tag.move[1]
            try:
                action = player.act(observation, legal)
            except Exception as exc:
                _print_traceback(exc)
                return _fail(stdout, f"bot raised {type(exc).__name__}: {exc}", match)
            try:
                _say(stdout, _reply(match, action))
            except (TypeError, ValueError) as exc:
                return _fail(stdout, f"act returned a value that is not JSON: {exc}", match)
            continue
        try:
            message = loads(line)
        except ValueError:
            return _fail(stdout, "the referee sent a line that is not JSON")
        if not isinstance(message, dict):
            return _fail(stdout, "the referee sent a line that is not a JSON object")
        kind = message.get("type")
        match = message.get("match")
        try:
            if kind == "act":
                player = playing.get(match) or bot
                if tag is not None:
                    tag.move = (match, decisions.get(match, 0) + 1)
                    decisions[match] = tag.move[1]
                action = player.act(message["observation"], message["legal_actions"])
                try:
                    _say(stdout, _reply(match, action))
                except (TypeError, ValueError) as exc:
                    return _fail(stdout, f"act returned a value that is not JSON: {exc}", match)
            elif kind == "start":
                # The instance made when loading plays the first match.
                player = bot if first else bot.for_match()
                first = False
                playing[match] = player
                if tag is not None:
                    tag.move = (match, 0)
                if player.setup is not None:
                    player.setup(message)
            elif kind == "end":
                player = playing.pop(match, bot)
                if player.end is not None:
                    player.end(message.get("result"))
                if match is None:
                    return 0
        except Exception as exc:
            _print_traceback(exc)
            if isinstance(exc, BotLoadError):
                return _fail(stdout, str(exc), match)
            return _fail(stdout, f"bot raised {type(exc).__name__}: {exc}", match)
    return 0


def main(argv: list[str]) -> int:
    # "--lib DIR" (repeatable) puts read-only library folders, such as the engine,
    # on sys.path: the runner starts with -I, which ignores PYTHONPATH.
    # "--code FILE": compiled code to use; "--emit-code BYTES": send it (see `serve`).
    args = argv[1:]
    code_path: str | None = None
    emit_code = 0
    while len(args) >= 2 and args[0] in ("--lib", "--code", "--emit-code"):
        if args[0] == "--lib":
            sys.path.insert(0, args[1])
        elif args[0] == "--code":
            code_path = args[1]
        elif args[1].isdigit():
            emit_code = int(args[1])
        args = args[2:]
    if len(args) != 1:
        sys.stderr.write(
            "usage: runner.py [--lib DIR]... [--code FILE] [--emit-code BYTES] BOT_FILE\n"
        )
        return 2
    use_fast_codec()
    # The protocol owns stdout: anything the bot prints goes to stderr instead. Unbuffered
    # (`python -u`, PYTHONUNBUFFERED) the binary layer is the raw file already.
    binary = sys.stdout.buffer
    protocol_out = getattr(binary, "raw", binary)
    sys.stdout = sys.stderr = TaggedStderr(sys.stderr)
    return serve(args[0], sys.stdin.buffer, protocol_out, code_path, emit_code)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
