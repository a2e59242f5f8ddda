"""Run one bot file as a JSON-lines player on stdin/stdout.

    python -I -S runner.py path/to/bot.py        (or a .zip holding bot.py)

This file is self-contained (standard library only, no package imports) because
the arena starts it inside a sandbox that holds only the interpreter, this file
and the bot. A bot defines `act(observation, legal_actions)`, or a class `Bot`
with `act` and an optional `setup(info)`.

Protocol (one JSON object per line):
    -> {"type": "start", "game": ..., "seat": 0, "players": 3, "options": {}, "limits": {}}
    -> {"type": "act", "observation": {...}, "legal_actions": [...]}
    <- {"action": <one of legal_actions>}
    -> {"type": "end", "result": {...}}
When the bot fails, the runner prints {"error": "<reason>"} and exits with status 1;
the traceback goes to stderr, which the bot's author can read.
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

    def loads(text: str) -> Any:
        text = text.strip()
        try:
            value, end = _scan(text, 0)
        except StopIteration:
            raise ValueError("not JSON") from None
        if end != len(text):
            raise ValueError("extra data after JSON")
        return value

    def dumps(value: Any) -> str:
        return "".join(_encode(value, 0))

except (ImportError, AttributeError, TypeError):  # another Python: the plain package
    import json

    def loads(text: str) -> Any:
        return json.loads(text)

    def dumps(value: Any) -> str:
        return json.dumps(value, separators=(",", ":"))


class BotLoadError(Exception):
    """A bot file that cannot be turned into a player; the message says why."""


class LoadedBot:
    """An author's bot, whichever of the two accepted shapes it has."""

    def __init__(
        self,
        act: Callable[[Any, list[Any]], Any],
        setup: Callable[[Any], Any] | None = None,
        end: Callable[[Any], Any] | None = None,
    ) -> None:
        self.act = act
        self.setup = setup
        self.end = end


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


def load_bot(path: str) -> LoadedBot:
    """Compile and run a bot file's top level, then find its `act` or `Bot`."""
    source, filename = _read_source(path)
    try:
        code = compile(source, filename, "exec")
    except (SyntaxError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        where = f" (line {line})" if line else ""
        raise BotLoadError(f"not valid Python: {getattr(exc, 'msg', exc)}{where}") from None
    module = type(sys)("bot")
    module.__file__ = path
    # Registered like an imported module, so code that looks its own module up (dataclasses
    # under `from __future__ import annotations`, pickle, typing) works as under `python`.
    sys.modules[module.__name__] = module
    try:
        exec(code, module.__dict__)
    except Exception as exc:
        raise BotLoadError(f"the bot failed while loading: {type(exc).__name__}: {exc}") from exc
    bot_class = module.__dict__.get("Bot")
    if isinstance(bot_class, type):
        try:
            instance = bot_class()
        except Exception as exc:
            raise BotLoadError(f"Bot() failed: {type(exc).__name__}: {exc}") from exc
        act = getattr(instance, "act", None)
        if not callable(act):
            raise BotLoadError("class Bot has no act(observation, legal_actions) method")
        setup = getattr(instance, "setup", None)
        end = getattr(instance, "end", None)
        return LoadedBot(act, setup if callable(setup) else None, end if callable(end) else None)
    act = module.__dict__.get("act")
    if not callable(act):
        raise BotLoadError("the bot defines neither act(observation, legal_actions) nor class Bot")
    setup = module.__dict__.get("setup")
    end = module.__dict__.get("end")
    return LoadedBot(act, setup if callable(setup) else None, end if callable(end) else None)


def _say(stream: Any, message: dict[str, Any]) -> None:
    stream.write(dumps(message) + "\n")
    stream.flush()


def _fail(stream: Any, reason: str) -> int:
    _say(stream, {"error": reason[:500]})
    return 1


def serve(path: str, stdin: Any, stdout: Any) -> int:
    """Answer the referee until the match ends; return the process exit status."""
    try:
        bot = load_bot(path)
    except BotLoadError as exc:
        if exc.__cause__ is not None:
            import traceback

            traceback.print_exception(exc.__cause__, file=sys.stderr)
        return _fail(stdout, str(exc))
    for line in stdin:
        try:
            message = loads(line)
        except ValueError:
            return _fail(stdout, "the referee sent a line that is not JSON")
        kind = message.get("type")
        try:
            if kind == "act":
                action = bot.act(message["observation"], message["legal_actions"])
                try:
                    _say(stdout, {"action": action})
                except (TypeError, ValueError) as exc:
                    return _fail(stdout, f"act returned a value that is not JSON: {exc}")
            elif kind == "start":
                if bot.setup is not None:
                    bot.setup(message)
            elif kind == "end":
                if bot.end is not None:
                    bot.end(message.get("result"))
                return 0
        except Exception as exc:
            import traceback

            traceback.print_exc(file=sys.stderr)
            return _fail(stdout, f"bot raised {type(exc).__name__}: {exc}")
    return 0


def main(argv: list[str]) -> int:
    # "--lib DIR" (repeatable) puts read-only library folders, such as the engine,
    # on sys.path: the runner starts with -I, which ignores PYTHONPATH.
    args = argv[1:]
    while len(args) >= 2 and args[0] == "--lib":
        sys.path.insert(0, args[1])
        args = args[2:]
    if len(args) != 1:
        sys.stderr.write("usage: runner.py [--lib DIR]... BOT_FILE\n")
        return 2
    # The protocol owns stdout: anything the bot prints goes to stderr instead.
    protocol_out = sys.stdout
    sys.stdout = sys.stderr
    return serve(args[0], sys.stdin, protocol_out)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
